//! The window's parts for Vergeworlds: the sheet of a character (attributes, skills,
//! Action Points, Breath, Mana, attitude, weapons with their loads, armor with its wear,
//! injuries, the movement vector and, for fliers, altitude and airspeed), the map overlay
//! (every mover's vector as an arrow to the hex it will reach next turn, the plan being
//! drafted in green) and the action panel: the attitude, walking and running by a click on
//! the map, steering a vector or flying a turn with a live preview, attacks on each foe with
//! the exact chance to hit undefended and against a defense roll, area fire at a clicked
//! hex, grappling, the other actions of the turn, and the answers the battle asks for
//! (how to defend, Mana on a roll). Every option shown is one the rules' `check` accepts.

use super::Game;
use super::layout::{MapLayout, vector_arrow};
use crate::battle::UnitId;
use crate::rules::vergeworlds::combat::{Attitude, Location};
use crate::rules::vergeworlds::fight::{
    Action, Attack, Board, DefenseKind, Fight, Fly, GrappleMode, ManaChoice, Prompt,
};
use crate::rules::vergeworlds::injury::Hurt;
use crate::rules::vergeworlds::vector::{self, Steer, Vector};
use bevy::ecs::world::World;
use bevy::prelude::{Color, Gizmos};
use bevy_egui::egui;
use hexx::Hex;

/// The decision being drafted for the awaited Vergeworlds character.
#[derive(Clone, Debug, Default)]
pub struct VergeDraft {
    /// The hex clicked on the map (walk, run, area fire).
    pub hex: Option<Hex>,
    /// The foe clicked on the map (attacks and grapples are shown for it alone).
    pub target: Option<UnitId>,
    /// The aimed location (the chest, the center, unless chosen).
    pub aim: Option<Location>,
    /// Careful Aim.
    pub careful: bool,
    /// Shots of rapid fire.
    pub shots: u32,
    /// Extra effort (0 to 2 Brawn).
    pub effort: u8,
    /// The vector's steering.
    pub steer: Steer,
    /// The flight plan.
    pub fly: Fly,
    /// A Mana adjustment being considered.
    pub adjust: i32,
    /// The character, round and turn the draft is for.
    pub key: Option<(UnitId, u32, u32)>,
}

/// The fight of the battle, if it is a Vergeworlds one.
pub fn fight(game: &Game) -> Option<View<'_>> {
    let world = &game.play.session().world;
    Some(Board {
        fight: world.get_resource::<Fight>()?,
        units: world,
    })
}

/// A Vergeworlds battle as the window reads it: the shared [`Fight`] and the battle
/// world's characters.
pub type View<'a> = Board<&'a Fight, &'a World>;

fn hurt_word(h: Hurt) -> &'static str {
    match h {
        Hurt::Fighting => "fighting",
        Hurt::Down => "down",
        Hurt::Dead => "dead",
    }
}

/// A vector in words: its speed and the hex it takes a unit at `pos` to next turn.
fn vector_words(v: &Vector, pos: Hex) -> String {
    let to = pos + v.offset();
    format!(
        "{} m a turn, next turn at ({}, {}){}",
        v.speed,
        to.x,
        to.y,
        if v.drift != 0 {
            format!(", drift {:+} m", v.drift)
        } else {
            String::new()
        }
    )
}

/// The sheet of character `id`.
pub fn sheet(ui: &mut egui::Ui, f: &View<'_>, id: UnitId) {
    if (id.0 as usize) >= f.count() {
        return;
    }
    let (sh, st) = (f.sheet(id), f.state(id));
    ui.heading(f.name(id));
    let mut status = vec![hurt_word(st.hurt).to_string()];
    if sh.mook {
        status.push("mook".into());
    }
    if st.prone {
        status.push("prone".into());
    }
    if st.focus {
        status.push("focused (+2 on the next action)".into());
    }
    if st.waiting {
        status.push("waiting".into());
    }
    if st.evade.is_some() {
        status.push("evading".into());
    }
    if let Some(g) = f.held_by(id) {
        status.push(format!(
            "held by {} (Control {:+})",
            f.name(g),
            f.control_on(id)
        ));
    }
    ui.label(status.join(", "));
    ui.label(format!(
        "Attitude {} ({})",
        st.attitude.word(),
        st.attitude.effect()
    ));
    ui.label(format!(
        "AP {} (+{} a round)   Breath {}/{}   Fatigue {}   Mana {}",
        st.ap,
        sh.ap_per_round(),
        st.breath,
        sh.stamina,
        st.fatigue,
        st.mana
    ));
    ui.label(format!(
        "Size {:+}  Action Score {}  Coordination {:+}  Brawn {:+}  Strength {:+}",
        sh.size, sh.action_score, sh.coordination, sh.brawn, sh.strength
    ));
    ui.label(format!(
        "Vigor {:+}  Spirit {:+}  Awareness {:+}  Reaction {:+}",
        sh.vigor, sh.spirit, sh.awareness, sh.reaction
    ));
    let k = &sh.skills;
    ui.label(format!(
        "Fight {:+}  Shoot {:+}  Throw {:+}  Evade {:+}  Grapple {:+}  Fly {:+}",
        k.fight, k.shoot, k.throw, k.evade, k.grapple, k.fly
    ));
    ui.label(format!(
        "Base Move {} m   Maneuver {} m   top speed {} m a turn",
        sh.base_move, sh.maneuver, sh.top_speed
    ));
    ui.label(format!(
        "Wound Limit {:+}   Penetration Limit RS {:+}",
        sh.wound_limit, sh.pen_limit_rs
    ));
    if let Some(v) = &st.vector {
        ui.colored_label(
            egui::Color32::LIGHT_BLUE,
            format!("Vector: {}", vector_words(v, st.pos)),
        );
    }
    if st.air.is_some() || st.alt > 0.0 {
        let air = st.air.map_or(String::new(), |a| {
            format!(
                ", airspeed {:.0} m a turn{}",
                a.speed,
                if a.stalled { ", stalled" } else { "" }
            )
        });
        ui.colored_label(
            egui::Color32::LIGHT_BLUE,
            format!("Altitude {:.0} m{air}", st.alt),
        );
    }
    ui.strong("Weapons");
    ui.label(format!(
        "Unarmed: Pen RS {:+}, Wound {:+}",
        sh.unarmed.pen_rs, sh.unarmed.wound
    ));
    for (wi, w) in sh.weapons.iter().enumerate() {
        let pen = match (w.pen, w.pen_rs) {
            (Some(p), _) => format!("Pen {p}"),
            (None, Some(rs)) => format!("Pen RS {rs:+} + Brawn"),
            _ => "fragments".to_string(),
        };
        let load = match st.loaded.get(wi).copied().flatten() {
            Some(n) => format!(", {n} loaded + {} spare", st.spare.get(wi).unwrap_or(&0)),
            None => String::new(),
        };
        let drawn = if st.drawn.get(wi).copied().unwrap_or(true) {
            ""
        } else {
            " (not drawn)"
        };
        ui.label(format!(
            "{}{drawn}: {pen}, Wound {:+}{}{}{load}",
            w.name,
            w.wound,
            if w.rof > 1 {
                format!(", RoF {}", w.rof)
            } else {
                String::new()
            },
            if w.melee() {
                format!(", reach {} m", w.reach)
            } else {
                String::new()
            }
        ));
    }
    if !sh.armor.is_empty() {
        ui.strong("Armor");
        for (a, wear) in sh.armor.iter().zip(&st.wear) {
            let covers: Vec<&str> = a.covers.iter().map(|l| l.word()).collect();
            let worn = if wear.destroyed {
                ", destroyed".to_string()
            } else if wear.loss > 0.0 || wear.activation > a.activation {
                format!(
                    ", worn (activation {}, RS -{:.1})",
                    wear.activation.max(a.activation),
                    wear.loss
                )
            } else {
                String::new()
            };
            ui.label(format!(
                "{}: RS {:+}, activation {} ({}){worn}",
                a.name,
                a.rs,
                a.activation,
                covers.join(", ")
            ));
        }
    }
    if !st.injuries.is_empty() {
        ui.strong("Injuries");
        for inj in &st.injuries {
            ui.colored_label(
                egui::Color32::LIGHT_RED,
                format!(
                    "+{} to the {}{}",
                    inj.score,
                    inj.location.word(),
                    if inj.penetrating { ", penetrating" } else { "" }
                ),
            );
        }
    }
}

/// True when `u` is a foe of the character whose decision the player owes (a click on it
/// picks it as the target instead of selecting it).
pub fn is_foe_of_awaited(game: &Game, u: UnitId) -> bool {
    let (Some(f), Some(me)) = (fight(game), game.play.awaiting_player()) else {
        return false;
    };
    f.prompt.is_none() && (u.0 as usize) < f.count() && f.enemies(me).contains(&u)
}

/// A click on the map during the player's turn: a foe becomes the target (a second click
/// drops it); an empty hex the place to walk, run or fire at.
pub fn click(game: &mut Game, hex: Hex, unit: Option<UnitId>) -> bool {
    if fight(game).is_none() || game.play.awaiting_player().is_none() {
        return false;
    }
    match unit {
        Some(u) if is_foe_of_awaited(game, u) => {
            game.selected = Some(u);
            game.draft_mut::<VergeDraft>().target =
                if game.draft_mut::<VergeDraft>().target == Some(u) {
                    None
                } else {
                    Some(u)
                };
            true
        }
        Some(_) => false,
        None => {
            game.draft_mut::<VergeDraft>().hex = Some(hex);
            true
        }
    }
}

/// Forgets the draft when the turn it was for is over.
fn refresh(draft: &mut VergeDraft, f: &View<'_>, me: UnitId) {
    let key = Some((me, f.round, f.state(me).turns));
    if draft.key != key {
        *draft = VergeDraft {
            key,
            shots: 1,
            ..VergeDraft::default()
        };
    }
}

/// The action panel of the player's character whose decision is awaited.
pub fn actions(ui: &mut egui::Ui, game: &mut Game) {
    let Some(me) = super::ships::awaited(ui, game, "characters") else {
        return;
    };
    if game.selected.is_none() {
        game.selected = Some(me);
    }
    // The draft, held apart while the battle is borrowed.
    let mut draft = std::mem::take(game.draft_mut::<VergeDraft>());
    let chosen = match fight(game) {
        Some(f) => {
            refresh(&mut draft, &f, me);
            panel(ui, &mut draft, &f, me)
        }
        None => None,
    };
    *game.draft_mut::<VergeDraft>() = draft;
    if let Some(action) = chosen {
        let ends = matches!(
            action,
            Action::Attack(_) | Action::AreaFire { .. } | Action::Run(_) | Action::Move(_)
        );
        match game
            .play
            .decide::<crate::rules::vergeworlds::Vergeworlds>(action)
        {
            Ok(()) => {
                game.status = "done".into();
                if ends {
                    game.draft_mut::<VergeDraft>().hex = None;
                }
            }
            Err(e) => game.status = format!("not allowed: {e}"),
        }
    }
    if !game.status.is_empty() {
        ui.label(&game.status);
    }
}

/// The widgets of the decision `me` owes (a defense, a Mana question, or its turn); the
/// action chosen, if any.
fn panel(ui: &mut egui::Ui, draft: &mut VergeDraft, f: &View<'_>, me: UnitId) -> Option<Action> {
    ui.strong(format!("{}'s decision", f.name(me)));
    let mut chosen: Option<Action> = None;
    match f.prompt {
        Some(Prompt::Defend(_)) => defend(ui, f, me, &mut chosen),
        Some(p @ (Prompt::ManaAttack(_) | Prompt::ManaDefense(_))) => {
            mana_roll(ui, draft, f, me, p, &mut chosen);
        }
        Some(Prompt::ManaLimit(_)) => {
            if let Some(l) = f.pending.as_ref().and_then(|p| p.limit) {
                ui.label(format!(
                    "A blow to your {} (Pen {:.1}): the Penetration Limit roll is {} (limit {:.1}). Spend a Mana point ({} left) to make it 2?",
                    l.loc.word(),
                    f.pending.as_ref().and_then(|p| p.pen).unwrap_or(0.0),
                    l.roll,
                    l.limit,
                    f.state(me).mana
                ));
            }
            if ui.button("Keep the roll").clicked() {
                chosen = Some(Action::Mana(ManaChoice::Keep));
            }
            if ui.button("Spend Mana: the roll becomes 2").clicked() {
                chosen = Some(Action::Mana(ManaChoice::FixLimit));
            }
        }
        None => turn(ui, draft, f, me, &mut chosen),
    }
    chosen
}

/// How to defend against the pending attack, each way with the attack's chance to hit.
fn defend(ui: &mut egui::Ui, f: &View<'_>, me: UnitId, chosen: &mut Option<Action>) {
    let Some(p) = &f.pending else { return };
    let w = f.weapon(p.attacker, p.attack.weapon);
    ui.label(format!(
        "{} attacks you with the {}{} (aimed at the {}). How do you defend? Each defense after the first borrows an action from your next turn.",
        f.name(p.attacker),
        w.name,
        if p.attack.shots > 1 {
            format!(", {} shots", p.attack.shots)
        } else {
            String::new()
        },
        p.attack.aim.word()
    ));
    for kind in [
        DefenseKind::Normal,
        DefenseKind::Retreat,
        DefenseKind::DiveProne,
        DefenseKind::DuckCover,
        DefenseKind::None,
    ] {
        let a = Action::Defense(kind);
        if f.check(me, &a).is_err() {
            continue;
        }
        let odds = f.hit_chance_against(p.attacker, &p.attack, kind) * 100.0;
        let what = match kind {
            DefenseKind::Normal => "a defense roll",
            DefenseKind::Retreat => "a step back, +1",
            DefenseKind::DiveProne => "+1, prone afterwards",
            DefenseKind::DuckCover => "+1 behind cover, a step away if need be",
            DefenseKind::None => "the roll counts as 2, no action borrowed",
        };
        if ui
            .button(format!(
                "{} ({what}): hit {odds:.0}%",
                capitalized(kind.word())
            ))
            .clicked()
        {
            *chosen = Some(a);
        }
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|first| first.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Mana on an attack roll that missed or a defense roll that was beaten.
fn mana_roll(
    ui: &mut egui::Ui,
    draft: &mut VergeDraft,
    f: &View<'_>,
    me: UnitId,
    p: Prompt,
    chosen: &mut Option<Action>,
) {
    let Some(pd) = &f.pending else { return };
    let Some(r) = pd.rolls.first() else { return };
    let dc = r.target.unwrap_or(0);
    let attack = matches!(p, Prompt::ManaAttack(_));
    if attack {
        ui.label(format!(
            "Your attack came to {} against {dc}: a miss by {}.",
            r.total,
            dc - r.total
        ));
    } else {
        ui.label(format!(
            "{}'s attack came to {} against {dc}: your defense is beaten by {}.",
            f.name(pd.attacker),
            r.total,
            r.total - dc + 1
        ));
    }
    ui.label(format!(
        "Spend a Mana point ({} left) to adjust your roll by up to 4, or to roll again and keep the better?",
        f.state(me).mana
    ));
    if ui.button("Keep the roll").clicked() {
        *chosen = Some(Action::Mana(ManaChoice::Keep));
    }
    let need = if attack {
        dc - r.total
    } else {
        r.total - dc + 1
    };
    if draft.adjust == 0 {
        draft.adjust = need.clamp(1, 4);
    }
    ui.horizontal(|ui| {
        ui.add(egui::Slider::new(&mut draft.adjust, 1..=4).text("points"));
        let n = draft.adjust;
        if ui
            .button(format!(
                "Adjust by +{n}{}",
                if n >= need {
                    ": enough"
                } else {
                    ": not enough"
                }
            ))
            .clicked()
        {
            *chosen = Some(Action::Mana(ManaChoice::Adjust(n)));
        }
    });
    if ui.button("Roll again, keep the better").clicked() {
        *chosen = Some(Action::Mana(ManaChoice::Reroll));
    }
}

/// A button for `action` when the rules allow it, labelled by the rules' words and `note`.
fn offer(
    ui: &mut egui::Ui,
    f: &View<'_>,
    me: UnitId,
    action: Action,
    note: &str,
    chosen: &mut Option<Action>,
) {
    if f.check(me, &action).is_ok() {
        offer_open(ui, f, me, action, note, chosen);
    }
}

/// [`offer`] for an action already checked to be open.
fn offer_open(
    ui: &mut egui::Ui,
    f: &View<'_>,
    me: UnitId,
    action: Action,
    note: &str,
    chosen: &mut Option<Action>,
) {
    let label = f.describe(me, &action);
    let b = ui.button(label);
    let b = if note.is_empty() {
        b
    } else {
        b.on_hover_text(note)
    };
    if b.clicked() {
        *chosen = Some(action);
    }
}

fn turn(
    ui: &mut egui::Ui,
    draft: &mut VergeDraft,
    f: &View<'_>,
    me: UnitId,
    chosen: &mut Option<Action>,
) {
    let s = f.state(me).clone();
    let sheet = f.sheet(me).clone();
    ui.label(format!(
        "{} AP left. Actions this turn: {} (the next at {:+}). Breath {}/{}.",
        s.ap,
        s.actions,
        crate::rules::vergeworlds::combat::multiple_action_penalty(s.actions + 1),
        s.breath,
        sheet.stamina
    ));
    // The attitude, first and free.
    if f.check(me, &Action::Attitude(Attitude::Neutral)).is_ok() {
        ui.separator();
        ui.label(format!(
            "Attitude (now {}; choose before anything else):",
            s.attitude.word()
        ));
        ui.horizontal_wrapped(|ui| {
            for a in Attitude::ALL {
                let label = if a == s.attitude {
                    format!("[{}]", a.word())
                } else {
                    a.word().to_string()
                };
                if ui.button(label).on_hover_text(a.effect()).clicked() {
                    *chosen = Some(Action::Attitude(a));
                }
            }
        });
    }
    ui.separator();
    if f.flying(me) && !s.steered {
        fly(ui, draft, f, me, chosen);
    } else if let Some(v) = s.vector.filter(|_| !s.steered) {
        steer(ui, draft, f, me, &v, chosen);
    } else if s.steered {
        ui.label(format!(
            "{} this turn: {} m.",
            if f.flying(me) { "Flown" } else { "Steered" },
            s.moved
        ));
    } else {
        movement(ui, draft, f, me, chosen);
    }
    ui.separator();
    attacks(ui, draft, f, me, chosen);
    ui.separator();
    let others = [
        (Action::Defend, "one more defense this round without the -2"),
        (
            Action::Evade,
            "one Evade roll stands against every attack until your next turn",
        ),
        (Action::Focus, "+2 on your next action; ends the turn"),
        (
            Action::Wait,
            "keep your Action Points and act when a foe comes within reach",
        ),
        (
            Action::Recovery,
            "the whole turn: a Vigor check at DC 6 for a Breath point",
        ),
        (
            Action::Concentrate,
            "spend the turn's actions on a task that takes full attention",
        ),
        (Action::GetUp, "stand up from prone"),
    ];
    let weapons = (0..sheet.weapons.len()).flat_map(|wi| {
        [
            (Action::Draw(wi), "ready the weapon"),
            (Action::Reload(wi), "fill the magazine"),
        ]
    });
    // Only the actions open now, under a heading that says when there are none.
    let open: Vec<(Action, &str)> = (others.into_iter().chain(weapons))
        .filter(|(a, _)| f.check(me, a).is_ok())
        .collect();
    ui.label(if open.is_empty() {
        "Other actions: none open now."
    } else {
        "Other actions:"
    });
    for (a, note) in open {
        offer_open(ui, f, me, a, note, chosen);
    }
    ui.separator();
    offer(
        ui,
        f,
        me,
        Action::EndTurn,
        "unused Action Points carry over (up to 5 into the next round)",
        chosen,
    );
    if ui.button("Let the AI decide").clicked() {
        *chosen = Some(crate::rules::vergeworlds::ai::choose(f, me));
    }
}

/// Walking (free, up to Base Move) and running (an action) to the clicked hex.
fn movement(
    ui: &mut egui::Ui,
    draft: &VergeDraft,
    f: &View<'_>,
    me: UnitId,
    chosen: &mut Option<Action>,
) {
    let s = f.state(me);
    let sheet = f.sheet(me);
    let Some(h) = draft.hex else {
        ui.label(format!(
            "Move: click a hex. Walking up to {} m a turn is free ({} walked); running is an action, and beyond {} m from a stop it leaves you with a vector.",
            sheet.base_move,
            s.moved,
            vector::free_distance(sheet.maneuver)
        ));
        return;
    };
    let d = s.pos.unsigned_distance_to(h);
    ui.label(format!("({}, {}) is {d} m away.", h.x, h.y));
    let walk = Action::Move((h.x, h.y));
    let run = Action::Run((h.x, h.y));
    match (f.check(me, &walk), f.check(me, &run)) {
        (Err(a), Err(b)) => {
            ui.label(format!("Walk: {a}. Run: {b}."));
        }
        _ => {
            offer(ui, f, me, walk, "free, up to Base Move a turn", chosen);
            offer(
                ui,
                f,
                me,
                run,
                "an action; faster than a quarter of the Maneuver gives a vector",
                chosen,
            );
        }
    }
}

/// Steering a movement vector with a preview of the new vector and its cost.
fn steer(
    ui: &mut egui::Ui,
    draft: &mut VergeDraft,
    f: &View<'_>,
    me: UnitId,
    v: &Vector,
    chosen: &mut Option<Action>,
) {
    let sheet = f.sheet(me);
    let pos = f.state(me).pos;
    let m = sheet.maneuver as i32;
    ui.label(format!(
        "High speed: {}. Steer first: speed change up to {m} m, each 60° turn costs the speed out of the Maneuver, leftover Maneuver drifts.",
        vector_words(v, pos)
    ));
    let p = &mut draft.steer;
    ui.add(egui::Slider::new(&mut p.accel, -m..=m).text("speed change"));
    ui.add(egui::Slider::new(&mut p.turns, -3..=3).text("60° turns (+ clockwise)"));
    ui.add(egui::Slider::new(&mut p.drift, -m..=m).text("drifts (+ clockwise)"));
    let plan = *p;
    let next = vector::steer(v, &plan);
    let after = vector::step(pos, v, &next);
    ui.label(format!(
        "Costs {} of {m} Maneuver. Moves to ({}, {}), then {}{}.",
        vector::cost(v, &plan),
        after.x,
        after.y,
        vector_words(&next, after),
        if next.kept(sheet.maneuver) {
            ""
        } else {
            " (below a quarter of the Maneuver: high speed ends)"
        }
    ));
    plan_button(ui, f, me, Action::Steer(plan), "Steer", chosen);
}

/// The button that sends a drafted plan, or why the rules refuse it.
fn plan_button(
    ui: &mut egui::Ui,
    f: &View<'_>,
    me: UnitId,
    a: Action,
    label: &str,
    chosen: &mut Option<Action>,
) {
    match f.check(me, &a) {
        Ok(()) => {
            if ui.button(label).clicked() {
                *chosen = Some(a);
            }
        }
        Err(e) => {
            ui.label(format!("Not this plan: {e}"));
        }
    }
}

/// Flying a turn with the flight arithmetic's preview.
fn fly(
    ui: &mut egui::Ui,
    draft: &mut VergeDraft,
    f: &View<'_>,
    me: UnitId,
    chosen: &mut Option<Action>,
) {
    let sheet = f.sheet(me);
    let s = f.state(me);
    let (lift_aid, power) = sheet
        .flight
        .as_ref()
        .map_or((0.0, 0), |x| (x.lift_aid, x.power));
    ui.label(format!(
        "In the air at {:.0} m{}. Fly the turn first: dive to gain speed, flatten or climb, flaps to slow, thrust if powered, turns and drifts.",
        s.alt,
        s.air.map_or(String::new(), |a| format!(", airspeed {:.0} m a turn", a.speed))
    ));
    let floater = f.floater(me);
    let p = &mut draft.fly;
    if floater {
        ui.label("A floater rises or sinks toward the altitude where it floats neutrally.");
    } else {
        ui.checkbox(&mut p.level, "Fly level (no descent)");
        if !p.level {
            ui.add(egui::Slider::new(&mut p.columns, -4..=4).text("glide columns (- steeper)"));
            ui.checkbox(&mut p.climb, "Climb along the column");
        }
    }
    let flaps = lift_aid.max(0.0).floor() as u8;
    if flaps > 0 && !floater {
        ui.add(egui::Slider::new(&mut p.flaps, 0..=flaps).text("flaps (drag RS)"));
    }
    if power > 0 {
        ui.add(egui::Slider::new(&mut p.thrust, 0..=power).text("thrust, m a turn"));
    }
    ui.add(egui::Slider::new(&mut p.turns, -3..=3).text("60° turns (+ clockwise)"));
    ui.add(egui::Slider::new(&mut p.drift, -5..=5).text("drifts (+ clockwise)"));
    let plan = *p;
    if let Some(t) = f.preview_fly(me, &plan) {
        ui.label(format!(
            "After the turn: airspeed {:.0} m a turn, altitude {:.0} m ({:+.0}), {:.0} m flown{}{}.",
            t.state.speed,
            t.state.altitude,
            -t.altitude_lost,
            t.horizontal,
            if t.flew {
                String::new()
            } else {
                format!(", stalled (below {:.0})", t.stall_speed)
            },
            if t.reached_ground { ", on the ground" } else { "" }
        ));
    }
    plan_button(ui, f, me, Action::Fly(plan), "Fly", chosen);
}

/// Attacks with every weapon on the target clicked (or every foe), with their odds; area
/// fire at the clicked hex; grapples.
fn attacks(
    ui: &mut egui::Ui,
    draft: &mut VergeDraft,
    f: &View<'_>,
    me: UnitId,
    chosen: &mut Option<Action>,
) {
    let sheet = f.sheet(me);
    let foes: Vec<UnitId> = match draft.target {
        Some(t) if f.enemies(me).contains(&t) => vec![t],
        _ => f.enemies(me),
    };
    ui.label(match draft.target {
        Some(t) => format!("Attacks on {} (click it again for every foe):", f.name(t)),
        None => "Attacks (click a foe to pick it):".to_string(),
    });
    let v = &mut *draft;
    ui.horizontal(|ui| {
        let aim = v.aim.unwrap_or(Location::Chest);
        egui::ComboBox::from_label("aim")
            .selected_text(aim.word())
            .show_ui(ui, |ui| {
                for l in Location::ALL {
                    ui.selectable_value(&mut v.aim, Some(l), l.word());
                }
            });
        ui.checkbox(&mut v.careful, "Careful Aim");
    });
    let most_shots = sheet
        .weapons
        .iter()
        .map(|w| w.rof)
        .max()
        .unwrap_or(1)
        .max(1);
    ui.horizontal(|ui| {
        if most_shots > 1 {
            ui.add(egui::Slider::new(&mut v.shots, 1..=most_shots).text("shots"));
        }
        ui.add(egui::Slider::new(&mut v.effort, 0..=2).text("extra effort"));
    });
    let draft = v.clone();
    let mut any = false;
    let mut why: Option<String> = None;
    let weapons: Vec<Option<usize>> = std::iter::once(None)
        .chain((0..sheet.weapons.len()).map(Some))
        .collect();
    for &t in &foes {
        for &wi in &weapons {
            let w = f.weapon(me, wi);
            let a = Attack {
                weapon: wi,
                target: t,
                aim: draft.aim.unwrap_or(Location::Chest),
                careful: draft.careful,
                shots: draft.shots.clamp(1, w.rof.max(1)),
                effort: if w.melee() { draft.effort } else { 0 },
            };
            let action = Action::Attack(a);
            if let Err(e) = f.check(me, &action) {
                why.get_or_insert(format!("{} at {}: {e}", w.name, f.name(t)));
                continue;
            }
            any = true;
            let open = f.hit_chance(me, &a) * 100.0;
            let defended = f.hit_chance_against(me, &a, DefenseKind::Normal) * 100.0;
            if ui
                .button(format!(
                    "{} at {} ({:.0} m): hit {open:.0}%, {defended:.0}% if it defends",
                    w.name,
                    f.name(t),
                    f.distance(me, t)
                ))
                .on_hover_text(f.describe(me, &action))
                .clicked()
            {
                *chosen = Some(action);
            }
        }
        for mode in GrappleMode::ALL {
            let g = Action::Grapple { target: t, mode };
            if f.check(me, &g).is_ok() {
                any = true;
                offer(ui, f, me, g, "Grapple against the foe's roll", chosen);
            }
        }
    }
    if !any {
        ui.label(format!(
            "No attack is open now ({}).",
            why.as_deref().unwrap_or("no foe left")
        ));
    }
    if let Some(h) = draft.hex {
        for (wi, w) in sheet.weapons.iter().enumerate() {
            let a = Action::AreaFire {
                weapon: wi,
                at: (h.x, h.y),
                shots: if w.frag.is_some() {
                    1
                } else {
                    draft.shots.clamp(1, w.rof.max(1))
                },
            };
            offer(
                ui,
                f,
                me,
                a,
                "fire into the clicked hex: everyone there may be hit; a miss lands off",
                chosen,
            );
        }
    }
}

/// The vectors of every mover (an arrow to the hex it will reach next turn and a ring
/// there), and the drafted steering or flight of the awaited character in green.
pub fn draw(
    gizmos: &mut Gizmos,
    layout: &MapLayout,
    game: &Game,
    ring: &dyn Fn(&mut Gizmos, Hex, Color, f32),
) {
    let empty = VergeDraft::default();
    let draft_now = game.draft::<VergeDraft>().unwrap_or(&empty);
    let Some(f) = fight(game) else { return };
    let white = Color::srgba(1.0, 1.0, 1.0, 0.8);
    for u in f.ids() {
        let s = f.state(u);
        if !f.fighting(u) {
            continue;
        }
        if let Some(v) = &s.vector {
            let to = s.pos + v.offset();
            if to != s.pos {
                vector_arrow(gizmos, layout.pos(s.pos), layout.pos(to), white);
                ring(gizmos, to, Color::srgba(1.0, 1.0, 1.0, 0.5), 0.6);
            }
        }
    }
    let Some(me) = game.play.awaiting_player() else {
        return;
    };
    if f.prompt.is_some() || (me.0 as usize) >= f.count() {
        return;
    }
    let s = f.state(me);
    if s.steered {
        return;
    }
    let green = Color::srgb(0.3, 1.0, 0.3);
    let planned = if f.flying(me) {
        f.fly_target(me, &draft_now.fly)
    } else {
        s.vector
            .map(|v| vector::step(s.pos, &v, &vector::steer(&v, &draft_now.steer)))
    };
    if let Some(to) = planned {
        vector_arrow(gizmos, layout.pos(s.pos), layout.pos(to), green);
        ring(gizmos, to, Color::srgba(0.3, 1.0, 0.3, 0.6), 0.7);
    }
    if let Some(h) = draft_now.hex {
        ring(gizmos, h, Color::srgba(0.3, 0.9, 1.0, 0.9), 0.75);
    }
    if let Some(t) = draft_now.target
        && (t.0 as usize) < f.count()
    {
        vector_arrow(
            gizmos,
            layout.pos(s.pos),
            layout.pos(f.state(t).pos),
            Color::srgb(1.0, 0.3, 0.2),
        );
    }
}

/// Vergeworlds in the window: the character sheet and the legend, the action panel with
/// its questions, vectors and altitude on the map.
pub struct VergeWindow;

impl super::ruleset::RulesetWindow for VergeWindow {
    /// Open sky when every character flies (a glider, a rocket pack, a balloon), else
    /// ground.
    fn backdrop(&self, prepared: &crate::scenario::Prepared) -> super::ruleset::Backdrop {
        use crate::rules::vergeworlds::Vergeworlds;
        let sheets = prepared.sheets::<Vergeworlds>();
        if !sheets.is_empty() && sheets.iter().all(|s| s.flight.is_some()) {
            super::ruleset::Backdrop::Sky
        } else {
            super::ruleset::Backdrop::Ground
        }
    }

    fn id(&self) -> &'static str {
        use crate::scenario::Ruleset;
        crate::rules::vergeworlds::Vergeworlds::ID
    }

    fn click(&self, game: &mut Game, hex: Hex, unit: Option<UnitId>) -> bool {
        click(game, hex, unit)
    }

    fn sheet_panel(&self, ui: &mut egui::Ui, game: &mut Game) {
        if let Some(f) = fight(game) {
            super::ruleset::selected_sheet(ui, game, "a character", |ui, id| sheet(ui, &f, id));
        }
        ui.separator();
        super::panels::legend(ui, game);
    }

    fn actions_panel(&self, ui: &mut egui::Ui, game: &mut Game) {
        actions(ui, game);
    }

    fn map_marks(
        &self,
        gizmos: &mut Gizmos,
        layout: &MapLayout,
        game: &Game,
        ring: super::ruleset::Ring,
        _: super::ruleset::MapMarks,
    ) {
        draw(gizmos, layout, game, ring);
    }
}

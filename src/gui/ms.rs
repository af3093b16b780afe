//! The window's parts for Main Sequence: the sheet of a character or ship (attributes,
//! derived stats, skills, tags, weapons with ammunition, soak, Edge, condition; a ship's
//! crew, shields and failed systems), the bands to every foe, and the action panel: the
//! turn's move (click a hex on the map) and action, or the answer to the question the
//! battle asks (defend, with +2 from Edge or not; re-roll a failed roll; +2 before a
//! round's check; spend Edge against a killing attack or to save a ship), each attack with
//! its exact chance to hit and expected damage from the AI's own arithmetic.

use super::Game;
use crate::battle::UnitId;
use crate::rules::main_sequence::Board;
use crate::rules::main_sequence::ai::{expected_damage, hit_chance};
use crate::rules::main_sequence::combat::{Band, MOVE_STUNT_DL, RateOfFire};
use crate::rules::main_sequence::fight::{
    Action, Check, CheckKind, Condition, Defense, Fight, Prompt, Reroll,
};
use crate::rules::main_sequence::sheet::{MsSheet, Tag};
use bevy::ecs::world::World;
use bevy::prelude::Color;
use bevy_egui::egui;
use hexx::Hex;

/// The fight of the battle, if it is a Main Sequence one.
pub fn fight(game: &Game) -> Option<View<'_>> {
    let world = &game.play.session().world;
    Some(Board {
        fight: world.get_resource::<Fight>()?,
        units: world,
    })
}

/// A Main Sequence battle as the window reads it: the shared [`Fight`] and the battle
/// world's units.
pub type View<'a> = Board<&'a Fight, &'a World>;

/// What the player drafts for the awaited unit, kept between frames.
#[derive(Clone, Debug, Default)]
pub struct MsInputs {
    /// The hex clicked as the unit's move.
    pub move_to: Option<Hex>,
    /// Call on Excellent Skill with the next attack.
    pub excellent: bool,
    /// The foes clicked on the map as the next attack's targets, in order.
    pub targets: Vec<UnitId>,
    /// The unit `targets` were picked for.
    pub targets_for: Option<UnitId>,
}

/// The colour of a band's ring around the selected unit.
pub fn band_colour(band: Band) -> Color {
    match band {
        Band::SelfBand | Band::Melee => Color::srgb(1.0, 0.3, 0.25),
        Band::Close => Color::srgb(1.0, 0.65, 0.2),
        Band::Medium => Color::srgb(0.95, 0.9, 0.35),
        Band::Long => Color::srgb(0.6, 0.75, 0.9),
        Band::Far => Color::srgb(0.5, 0.5, 0.5),
    }
}

/// The sheet of unit `id` and the bands to its foes.
pub fn sheet(ui: &mut egui::Ui, f: &View<'_>, id: UnitId) {
    if (id.0 as usize) >= f.count() {
        return;
    }
    let (sheet, st) = (f.sheet(id), f.state(id));
    ui.heading(f.name(id));
    let mut status = st.condition.word().to_string();
    if let Condition::Dying { rounds, attempts } = st.condition {
        status = format!("dying: {rounds} rounds left, {attempts} attempts to stabilize");
    }
    if f.blinded(id) {
        status.push_str(&if st.blind > 0 {
            format!(", blinded ({} more turns after this)", st.blind)
        } else {
            ", blinded this turn".to_string()
        });
    }
    if st.forfeit {
        status.push_str(", owes its next action (defended)");
    }
    ui.label(status);
    match sheet {
        MsSheet::Character(c) => {
            let a = c.attrs;
            ui.label(format!(
                "Soldier {}  Agent {}  Tech {}",
                a.soldier, a.agent, a.tech
            ));
            ui.label(format!(
                "HP {}/{}   Defense {}   Combat Rating {}   Initiative {}   Edge {}",
                st.hp,
                c.hp,
                c.defense,
                a.combat_rating(),
                a.initiative(),
                st.edge
            ));
            ui.label(format!("Damage Soak {}", c.soak));
            let skills: Vec<String> = c
                .skills
                .iter()
                .map(|(n, r)| format!("{n} {r:?} (+{})", r.bonus()))
                .collect();
            if !skills.is_empty() {
                ui.label(format!("Skills: {}", skills.join(", ")));
            }
            let tags: Vec<String> = c
                .tags
                .iter()
                .map(|t| match t {
                    Tag::ExcellentSkill(s) => format!("Excellent {s}"),
                    Tag::Champion(v) => format!("Champion (against {})", v.join(", ")),
                    Tag::Other(s) => s.clone(),
                    t => format!("{t:?}"),
                })
                .collect();
            if !tags.is_empty() {
                ui.label(format!("Tags: {}", tags.join(", ")));
            }
            // Only what the character has: a Nimble count without the tag misread.
            let mut luck = Vec::new();
            if c.has(&Tag::Nimble) {
                luck.push(format!("Nimble dodges left {}", st.nimble));
            }
            if c.has(&Tag::Lucky) {
                luck.push(format!(
                    "Lucky {}",
                    if f.lucky(id) { "ready" } else { "used" }
                ));
            }
            if !luck.is_empty() {
                ui.label(luck.join("   "));
            }
        }
        MsSheet::Ship(s) => {
            let a = s.attrs;
            ui.label(format!(
                "Tactical {}  Propulsion {}  Sensors {}  Tonnage {}",
                a.tactical, a.propulsion, a.sensors, a.tonnage
            ));
            ui.label(format!(
                "HP {}/{}   shields {}/{}   Defense {}   Net Defense {}   soak {}",
                st.hp,
                s.hp,
                st.shields,
                s.shields,
                f.defense(id),
                a.net_defense(),
                s.soak
            ));
            let mut luck = Vec::new();
            if st.nimble > 0 {
                luck.push(format!("Nimble Ship dodges left {}", st.nimble));
            }
            if s.lucky {
                luck.push(format!(
                    "Lucky Boat {}",
                    if st.lucky_boat_used { "used" } else { "ready" }
                ));
            }
            if !luck.is_empty() {
                ui.label(luck.join("   "));
            }
            if !st.failed.is_empty() {
                ui.colored_label(egui::Color32::LIGHT_RED, format!("Failed: {:?}", st.failed));
            }
            ui.strong("Crew");
            for (c, cs) in s.crew.iter().zip(&st.crew) {
                let state = match cs.condition {
                    Condition::Fighting => String::new(),
                    Condition::Dying { rounds, .. } => format!(", dying ({rounds} rounds)"),
                    other => format!(", {}", other.word()),
                };
                ui.label(format!(
                    "{} ({:?}): HP {}/{}, Edge {}{state}",
                    c.name, c.station, cs.hp, c.character.hp, cs.edge
                ));
            }
        }
    }
    ui.strong("Weapons");
    for (w, ammo) in sheet.weapons().iter().zip(&st.ammo) {
        let rounds = match (f.cinematic_ammo, ammo.loaded) {
            (true, _) | (_, None) => String::new(),
            (false, Some(n)) => format!(", {n} loaded + {} spare", ammo.spare),
        };
        ui.label(format!(
            "{}: damage {}{}, reaches {:?}{rounds}",
            w.name,
            w.damage,
            if w.bash { " bashing" } else { "" },
            w.range
        ));
    }
    let foes = f.enemies(id);
    if !foes.is_empty() {
        ui.strong("Bands to foes");
        for e in foes {
            let band = f.band(id, e);
            let c = band_colour(band).to_srgba();
            ui.colored_label(
                egui::Color32::from_rgb(
                    (c.red * 255.0) as u8,
                    (c.green * 255.0) as u8,
                    (c.blue * 255.0) as u8,
                ),
                format!("{}: {band:?}", f.name(e)),
            );
        }
    }
}

/// True when `u` is a foe of the unit whose decision the player owes (a click on it picks
/// it as a target instead of selecting it).
pub fn is_foe_of_awaited(game: &Game, u: UnitId) -> bool {
    let (Some(f), Some(me)) = (fight(game), game.play.awaiting_player()) else {
        return false;
    };
    f.prompt.is_none() && (u.0 as usize) < f.count() && f.foes(me, u) && f.fighting(u)
}

/// Adds `u` to the targets of the next attack, or takes it off again; either way its sheet
/// is shown.
pub fn toggle_target(game: &mut Game, u: UnitId) {
    game.selected = Some(u);
    if let Some(i) = game
        .draft_mut::<MsInputs>()
        .targets
        .iter()
        .position(|&t| t == u)
    {
        game.draft_mut::<MsInputs>().targets.remove(i);
        game.status = format!("target {} taken off", u.0);
    } else {
        game.draft_mut::<MsInputs>().targets.push(u);
        game.status = String::new();
    }
}

/// The chance that 1d6 + the modifiers meets `dl`, in percent.
fn chance(mods: &[crate::dice::Modifier], extra: i32, dl: i32) -> f64 {
    let bonus: i32 = mods.iter().map(|m| m.value).sum::<i32>() + extra;
    hit_chance(bonus, dl) * 100.0
}

/// Buttons for each way `me` may re-roll (`open`), plus keeping the roll.
fn reroll_buttons(
    ui: &mut egui::Ui,
    f: &View<'_>,
    me: UnitId,
    open: &[Reroll],
    chosen: &mut Option<Action>,
) {
    if ui.button("Keep the roll").clicked() {
        *chosen = Some(Action::Reroll(None));
    }
    for r in open {
        let label = match r {
            Reroll::Edge => format!("Re-roll the die: spend Edge ({} left)", {
                let crewman = match f.prompt {
                    Some(Prompt::RerollCheck) => f.check.as_ref().and_then(|c| c.crewman),
                    Some(Prompt::Reroll) => f.gunner(me),
                    _ => None,
                };
                f.roller_edge(me, crewman)
            }),
            Reroll::Lucky => "Re-roll the die: Lucky (once a scene)".to_string(),
            Reroll::LuckyBoat => "Re-roll the die: Lucky Boat (once a scene)".to_string(),
        };
        if ui.button(label).clicked() {
            *chosen = Some(Action::Reroll(Some(*r)));
        }
    }
}

/// What a check is for, in words.
fn check_words(f: &View<'_>, c: &Check) -> String {
    let crewman = match (f.sheet(c.roller), c.crewman) {
        (MsSheet::Ship(s), Some(i)) => s
            .crew
            .get(i)
            .map_or(String::new(), |m| format!("{}: ", m.name)),
        _ => String::new(),
    };
    let what = match &c.kind {
        CheckKind::Duck => "duck for cover (Acrobatics)".to_string(),
        CheckKind::Leap { .. } => "leap over difficult ground (Athletics)".to_string(),
        CheckKind::Stabilize { patient } => format!("stabilize {}", f.name(*patient)),
        CheckKind::StabilizeCrew { .. } => "first aid to a dying crewman".to_string(),
        CheckKind::Sweep { target } => format!("sensor sweep for {}", f.name(*target)),
        CheckKind::Repair => "repair the failed system".to_string(),
        CheckKind::Chase { pursuer: true } => "chase roll, as pursuer".to_string(),
        CheckKind::Chase { pursuer: false } => "chase roll, as quarry".to_string(),
    };
    format!("{crewman}{what}")
}

/// The action panel of the player's unit whose decision is awaited.
pub fn actions(ui: &mut egui::Ui, game: &mut Game) {
    let Some(me) = super::ships::awaited(ui, game, "units") else {
        return;
    };
    if game.selected.is_none() {
        game.selected = Some(me);
    }
    // The draft, held apart while the battle is borrowed.
    let mut inputs = std::mem::take(game.draft_mut::<MsInputs>());
    let chosen = match fight(game) {
        Some(f) => panel(ui, &mut inputs, &f, &game.play.session().prepared().map, me),
        None => None,
    };
    *game.draft_mut::<MsInputs>() = inputs;
    if let Some(action) = chosen {
        let attack = matches!(action, Action::Attack { .. });
        match game
            .play
            .decide::<crate::rules::main_sequence::MainSequence>(action)
        {
            Ok(()) => {
                game.status = "done".into();
                game.draft_mut::<MsInputs>().move_to = None;
                if attack {
                    game.draft_mut::<MsInputs>().targets.clear();
                }
            }
            Err(e) => game.status = format!("not allowed: {e}"),
        }
    }
    if !game.status.is_empty() {
        ui.label(&game.status);
    }
}

/// The widgets of the decision `me` owes (a defense, a re-roll, a check, or its turn);
/// the action chosen, if any.
fn panel(
    ui: &mut egui::Ui,
    inputs: &mut MsInputs,
    f: &View<'_>,
    map: &crate::hexmap::HexMap,
    me: UnitId,
) -> Option<Action> {
    ui.strong(format!("{}'s decision", f.name(me)));
    let mut chosen: Option<Action> = None;
    match f.prompt {
        Some(Prompt::Defend(i)) => {
            if let Some(a) = &f.attack {
                ui.label(format!(
                    "{} attacks {} with the {}. Defend actively? A parry or dodge roll replaces your Defense {} and costs your next action; Nimble and the free parry cost nothing.",
                    f.name(a.attacker),
                    f.name(me),
                    f.sheet(a.attacker).weapons().get(a.weapon).map_or("?", |w| w.name.as_str()),
                    f.defense(me),
                ));
            }
            if ui.button("No active defense").clicked() {
                chosen = Some(Action::Defend(None));
            }
            for d in f.defenses_open(i) {
                ui.horizontal(|ui| {
                    if ui.button(format!("{d:?}")).clicked() {
                        chosen = Some(Action::Defend(Some(d)));
                    }
                    if d != Defense::Nimble
                        && f.state(me).edge > 0
                        && ui
                            .small_button("+2 Edge")
                            .on_hover_text("Spend a point of Edge for +2 on the defense roll")
                            .clicked()
                    {
                        chosen = Some(Action::DefendWithEdge(d));
                    }
                });
            }
        }
        Some(Prompt::Reroll) => {
            if let Some(r) = f.attack.as_ref().and_then(|a| a.roll.as_ref()) {
                ui.label(format!(
                    "Your attack roll came to {} against {}: a miss. Re-roll the die and keep the better?",
                    r.total,
                    r.target.unwrap_or(0)
                ));
            }
            reroll_buttons(ui, f, me, &f.rerolls(me, f.gunner(me)), &mut chosen);
        }
        Some(Prompt::RerollDefense(i)) => {
            if let Some(a) = &f.attack
                && let Some(Some((_, Some(rec)))) = a.defenses.get(i)
                && let Some(r) = &a.roll
            {
                ui.label(format!(
                    "{}'s attack ({}) beats your {} roll of {}. Re-roll your die and keep the better?",
                    f.name(a.attacker),
                    r.total - if a.blast.is_some() { 0 } else { 2 * i as i32 },
                    rec.defense,
                    rec.roll.total
                ));
            }
            reroll_buttons(ui, f, me, &f.rerolls(me, None), &mut chosen);
        }
        Some(Prompt::RerollCheck) => {
            if let Some(c) = &f.check
                && let Some(r) = &c.roll
            {
                let need = match (c.dl, c.against) {
                    (Some(dl), _) => format!("DL {dl}"),
                    (None, Some(t)) => format!("the other side's {t}"),
                    _ => String::new(),
                };
                ui.label(format!(
                    "{}: {} against {need}, a failure. Re-roll the die and keep the better?",
                    check_words(f, c),
                    r.total
                ));
                reroll_buttons(ui, f, me, &f.check_rerolls(c), &mut chosen);
            }
        }
        Some(Prompt::Boost) => {
            if let Some(c) = &f.check {
                let odds = match c.dl {
                    Some(dl) => format!(
                        " (DL {dl}: {:.0}%, with +2: {:.0}%)",
                        chance(&c.mods, 0, dl),
                        chance(&c.mods, 2, dl)
                    ),
                    None => String::new(),
                };
                let bonus: i32 = c.mods.iter().map(|m| m.value).sum();
                ui.label(format!(
                    "{}: 1d6 {bonus:+}{odds}. Spend a point of Edge ({} left) for +2 before rolling?",
                    check_words(f, c),
                    f.roller_edge(me, c.crewman)
                ));
            }
            if ui.button("Roll").clicked() {
                chosen = Some(Action::PlusTwo(false));
            }
            if ui.button("Spend Edge: +2").clicked() {
                chosen = Some(Action::PlusTwo(true));
            }
        }
        Some(Prompt::Kill(_)) if f.sheet(me).is_ship() => {
            ui.label(format!(
                "This attack would bring {} to 0 Hit Points. Everyone aboard with Edge spends a point and the ship holds; the console of anyone without Edge explodes (dying). Refuse, and the ship is destroyed with all hands.",
                f.name(me)
            ));
            if ui.button("Spend Edge: the ship holds").clicked() {
                chosen = Some(Action::SpendEdge(true));
            }
            if ui.button("Spend nothing: the ship is lost").clicked() {
                chosen = Some(Action::SpendEdge(false));
            }
        }
        Some(Prompt::Kill(_)) => {
            ui.label(format!(
                "This attack would bring {} to 0 Hit Points: dying. Spend a point of Edge ({} left) to make it just miss?",
                f.name(me),
                f.state(me).edge
            ));
            if ui.button("Spend Edge: it misses").clicked() {
                chosen = Some(Action::SpendEdge(true));
            }
            if ui.button("Take the hit").clicked() {
                chosen = Some(Action::SpendEdge(false));
            }
        }
        None => turn(ui, inputs, f, map, me, &mut chosen),
    }
    chosen
}

fn turn(
    ui: &mut egui::Ui,
    inputs: &mut MsInputs,
    f: &View<'_>,
    map: &crate::hexmap::HexMap,
    me: UnitId,
    chosen: &mut Option<Action>,
) {
    let Some(t) = f.turn else { return };
    if !t.moved {
        match inputs.move_to {
            Some(h) => match f
                .move_path(map, me, h)
                .filter(|_| f.check(map, me, &Action::Move { to: (h.x, h.y) }).is_ok())
            {
                Some(path)
                    if ui
                        .button(format!(
                            "Move to ({}, {}) ({} hexes)",
                            h.x,
                            h.y,
                            path.len() - 1
                        ))
                        .clicked() =>
                {
                    *chosen = Some(Action::Move { to: (h.x, h.y) });
                }
                Some(_) => {}
                None if f
                    .check(
                        map,
                        me,
                        &Action::Leap {
                            to: (h.x, h.y),
                            plus_two: false,
                        },
                    )
                    .is_err() =>
                {
                    ui.label(format!(
                        "({}, {}) is out of reach this turn (one Close band: {} hexes).",
                        h.x,
                        h.y,
                        f.sizes.move_hexes()
                    ));
                }
                None => {}
            },
            None => {
                ui.label(format!(
                    "Move: click a hex within {} hexes on the map.",
                    f.sizes.move_hexes()
                ));
            }
        }
        stunts(ui, inputs, f, map, me, chosen);
    } else if f.chase.is_none() {
        ui.label("Moved this turn.");
    } else {
        ui.label("In a chase the chase roll is the move.");
    }
    if t.acted {
        ui.label("Action used this turn.");
    } else {
        ui.separator();
        ui.label("One action:");
        if let MsSheet::Ship(s) = f.sheet(me)
            && f.check(map, me, &Action::BoostShields).is_ok()
            && ui
                .button(format!(
                    "Boost the shields from {} to {} (once a scene)",
                    f.state(me).shields,
                    crate::rules::main_sequence::ships::boosted_shields(s.shields)
                ))
                .clicked()
        {
            *chosen = Some(Action::BoostShields);
        }
        if f.sheet(me)
            .weapons()
            .iter()
            .any(|w| f.excellent_open(me, w))
        {
            ui.checkbox(
                &mut inputs.excellent,
                "Excellent Skill on a success (once a scene per skill)",
            );
        }
        attacks(ui, inputs, f, map, me, chosen);
        for p in f.ids() {
            let a = Action::Stabilize {
                patient: p,
                plus_two: false,
            };
            if let (Ok(()), Some(c)) = (f.check(map, me, &a), f.turn_check(map, me, &a)) {
                let dl = c.dl.unwrap_or(0);
                ui.horizontal(|ui| {
                    if ui
                        .button(format!(
                            "Stabilize {} (DL {dl}: {:.0}%)",
                            f.name(p),
                            chance(&c.mods, 0, dl)
                        ))
                        .clicked()
                    {
                        *chosen = Some(a.clone());
                    }
                    if f.state(me).edge > 0 && ui.small_button("+2 Edge").clicked() {
                        *chosen = Some(Action::Stabilize {
                            patient: p,
                            plus_two: true,
                        });
                    }
                });
            }
        }
    }
    ui.separator();
    if ui.button("End turn").clicked() {
        *chosen = Some(Action::EndTurn);
    }
    if ui.button("Let the AI decide").clicked() {
        *chosen = Some(crate::rules::main_sequence::ai::choose(f, map, me));
    }
}

/// One attack button with its odds per target and a +2 Edge button beside it.
fn attack_button(
    ui: &mut egui::Ui,
    f: &View<'_>,
    map: &crate::hexmap::HexMap,
    me: UnitId,
    action: Action,
    chosen: &mut Option<Action>,
) {
    let Action::Attack {
        weapon,
        rof,
        ref targets,
        ..
    } = action
    else {
        return;
    };
    let Some(w) = f.sheet(me).weapons().get(weapon) else {
        return;
    };
    if f.check(map, me, &action).is_err() {
        return;
    }
    // The rules' own odds: the bonus and Defense the attack will count against each unit.
    let odds: Vec<String> = f
        .shot_odds(map, me, w, targets)
        .into_iter()
        .map(|(e, b, d)| {
            let st = f.state(e);
            format!(
                "{}{} {:.0}% ~{:.1}",
                if f.foes(me, e) { "" } else { "friend " },
                f.name(e),
                hit_chance(b, d) * 100.0,
                expected_damage(b, d, w.damage, f.soak(e), st.hp + st.shields)
            )
        })
        .collect();
    let label = format!("{} {:?}: {}", w.name, rof, odds.join(", "));
    ui.horizontal(|ui| {
        if ui.button(label).clicked() {
            *chosen = Some(action.clone());
        }
        if f.edge(me) > 0
            && ui.small_button("+2 Edge").clicked()
            && let Action::Attack {
                weapon,
                rof,
                targets,
                excellent,
                ..
            } = action.clone()
        {
            *chosen = Some(Action::Attack {
                weapon,
                rof,
                targets,
                plus_two: true,
                excellent,
            });
        }
    });
}

/// The attacks open to `me`: at the foes clicked on the map (in that order), with every
/// weapon and rate of fire that can take them; and quick picks at the easiest foes.
fn attacks(
    ui: &mut egui::Ui,
    inputs: &mut MsInputs,
    f: &View<'_>,
    map: &crate::hexmap::HexMap,
    me: UnitId,
    chosen: &mut Option<Action>,
) {
    if inputs.targets_for != Some(me) {
        inputs.targets.clear();
        inputs.targets_for = Some(me);
    }
    inputs
        .targets
        .retain(|&t| (t.0 as usize) < f.count() && f.fighting(t));
    let picked = inputs.targets.clone();
    let excellent = |w| inputs.excellent && f.excellent_open(me, w);
    if picked.is_empty() {
        ui.label("Click foes on the map to pick your targets, in order (click again to drop one).");
    } else {
        let names: Vec<&str> = picked.iter().map(|&t| f.name(t)).collect();
        ui.horizontal(|ui| {
            ui.label(format!("Targets: {}", names.join(", ")));
            if ui.small_button("Clear").clicked() {
                inputs.targets.clear();
            }
        });
        let mut any = false;
        for (wi, w) in f.sheet(me).weapons().iter().enumerate() {
            for rof in rates_of(w) {
                let most = if w.explosive { 1 } else { rof.max_targets() };
                if picked.len() > most {
                    continue;
                }
                let action = Action::Attack {
                    weapon: wi,
                    rof,
                    targets: picked.clone(),
                    plus_two: false,
                    excellent: excellent(w),
                };
                match f.check(map, me, &action) {
                    Ok(()) => {
                        any = true;
                        attack_button(ui, f, map, me, action, chosen);
                    }
                    Err(why) if rof == rates_of(w)[0] && picked.len() == 1 => {
                        ui.label(format!("{}: {why}", w.name));
                    }
                    Err(_) => {}
                }
            }
        }
        if !any {
            ui.label("No weapon can take these targets together.");
        }
        ui.separator();
    }
    // "Quick picks:" heads the first of them; with none, the reason is said instead.
    let mut heading = Some("Quick picks:");
    let targets: Vec<UnitId> = f.enemies(me);
    for (wi, w) in f.sheet(me).weapons().iter().enumerate() {
        let reach: Vec<UnitId> = targets
            .iter()
            .copied()
            .filter(|&e| f.why_not_target(map, me, w, e).is_none())
            .collect();
        // One at the easiest foe per weapon, and each rate's most targets.
        let mut ranked: Vec<(i32, UnitId)> = reach
            .iter()
            .map(|&e| (f.defense_from(map, f.state(me).pos, e, w), e))
            .collect();
        ranked.sort();
        for rof in rates_of(w) {
            let most = if w.explosive { 1 } else { rof.max_targets() };
            let k = most.min(ranked.len());
            if k == 0 || (k == 1 && rof != rates_of(w)[0]) {
                continue;
            }
            if let Some(text) = heading.take() {
                ui.label(text);
            }
            attack_button(
                ui,
                f,
                map,
                me,
                Action::Attack {
                    weapon: wi,
                    rof,
                    targets: ranked[..k].iter().map(|r| r.1).collect(),
                    plus_two: false,
                    excellent: excellent(w),
                },
                chosen,
            );
        }
        let reload = Action::Reload { weapon: wi };
        if f.check(map, me, &reload).is_ok()
            && ui.button(format!("Reload the {}", w.name)).clicked()
        {
            *chosen = Some(reload);
        }
    }
    if heading.is_some() {
        ui.label("No foe can be taken by a weapon from here now.");
    }
}

fn rates_of(w: &crate::rules::main_sequence::gear::Weapon) -> Vec<RateOfFire> {
    if w.rates.is_empty() {
        vec![RateOfFire::Single]
    } else {
        w.rates.clone()
    }
}

/// The move's stunts: a leap to the clicked hex over difficult ground, and a duck.
fn stunts(
    ui: &mut egui::Ui,
    inputs: &MsInputs,
    f: &View<'_>,
    map: &crate::hexmap::HexMap,
    me: UnitId,
    chosen: &mut Option<Action>,
) {
    let edge = f.state(me).edge > 0;
    if let Some(h) = inputs.move_to {
        let leap = Action::Leap {
            to: (h.x, h.y),
            plus_two: false,
        };
        if f.check(map, me, &leap).is_ok() {
            let p = stunt_chance(f, me, "Soldier", "Athletics");
            ui.horizontal(|ui| {
                if ui
                    .button(format!(
                        "Leap to ({}, {}) over difficult ground (Athletics: {p:.0}%)",
                        h.x, h.y
                    ))
                    .on_hover_text(
                        "Difficult hexes count as open; a failure stops before the first one.",
                    )
                    .clicked()
                {
                    *chosen = Some(leap);
                }
                if edge && ui.small_button("+2 Edge").clicked() {
                    *chosen = Some(Action::Leap {
                        to: (h.x, h.y),
                        plus_two: true,
                    });
                }
            });
        }
    }
    let duck = Action::Duck { plus_two: false };
    if f.check(map, me, &duck).is_ok() {
        let p = stunt_chance(f, me, "Agent", "Acrobatics");
        ui.horizontal(|ui| {
            if ui
                .button(format!("Duck (Acrobatics: {p:.0}%)"))
                .on_hover_text(
                    "Uses the move: one degree more cover against ranged attacks until your next turn.",
                )
                .clicked()
            {
                *chosen = Some(duck);
            }
            if edge && ui.small_button("+2 Edge").clicked() {
                *chosen = Some(Action::Duck { plus_two: true });
            }
        });
    }
}

/// The chance that a move stunt (duck, leap) of `me` beats its Difficulty Level.
fn stunt_chance(f: &View<'_>, me: UnitId, attr: &'static str, skill: &'static str) -> f64 {
    let mods = f.stunt_modifiers(me, attr, skill).unwrap_or_default();
    chance(&mods, 0, MOVE_STUNT_DL)
}

/// Main Sequence in the window: the character or ship sheet and the legend, the move,
/// action and question panel, and the band limits around the selected unit on the map.
pub struct MsWindow;

impl super::ruleset::RulesetWindow for MsWindow {
    /// Space when the scenario's units are ships, else ground.
    fn backdrop(&self, prepared: &crate::scenario::Prepared) -> super::ruleset::Backdrop {
        use crate::rules::main_sequence::MainSequence;
        if prepared
            .sheets::<MainSequence>()
            .iter()
            .any(|s| s.is_ship())
        {
            super::ruleset::Backdrop::Space
        } else {
            super::ruleset::Backdrop::Ground
        }
    }

    fn id(&self) -> &'static str {
        use crate::scenario::Ruleset;
        crate::rules::main_sequence::MainSequence::ID
    }

    /// On the awaited unit's turn a foe clicked becomes (or stops being) a target and an
    /// empty hex its move.
    fn click(&self, game: &mut Game, hex: Hex, unit: Option<UnitId>) -> bool {
        if fight(game).is_none() || game.play.awaiting_player().is_none() {
            return false;
        }
        match unit {
            Some(u) if is_foe_of_awaited(game, u) => {
                toggle_target(game, u);
                true
            }
            Some(_) => false,
            None => {
                game.draft_mut::<MsInputs>().move_to = Some(hex);
                true
            }
        }
    }

    fn sheet_panel(&self, ui: &mut egui::Ui, game: &mut Game) {
        if let Some(f) = fight(game) {
            super::ruleset::selected_sheet(ui, game, "a unit", |ui, id| sheet(ui, &f, id));
        }
        ui.separator();
        super::panels::legend(ui, game);
    }

    fn actions_panel(&self, ui: &mut egui::Ui, game: &mut Game) {
        actions(ui, game);
    }

    /// The band limits around the selected unit, as rings coloured by the band just
    /// beyond each (Melee, Close, Medium, Long; beyond the last is Far).
    fn map_marks(
        &self,
        gizmos: &mut bevy::prelude::Gizmos,
        layout: &super::layout::MapLayout,
        game: &Game,
        _: super::ruleset::Ring,
        marks: super::ruleset::MapMarks,
    ) {
        use bevy::prelude::{Alpha, Vec2};
        // Main Sequence: the band limits around the selected unit, as rings coloured by the
        // band just beyond each (Melee, Close, Medium, Long; beyond the last is Far).
        if let (Some(f), Some(sel)) = (fight(game), game.selected)
            && marks.ranges
            && f.chase.is_none()
            && (sel.0 as usize) < f.count()
            && let st = f.state(sel)
        {
            use crate::rules::main_sequence::combat::Band;
            let s = f.sizes;
            // Each band's outer edge traced along the hex sides between the last hex of the
            // band and the first hex beyond it (hex distance, as the rules count it).
            for (d, band) in [
                (s.melee, Band::Melee),
                (s.close, Band::Close),
                (s.medium, Band::Medium),
                (s.long, Band::Long),
            ] {
                let colour = band_colour(band).with_alpha(0.6);
                for h in st.pos.ring(d.max(1)) {
                    let corners = layout.0.hex_corners(h);
                    let centre = layout.pos(h);
                    for n in h.all_neighbors() {
                        if n.unsigned_distance_to(st.pos) <= d.max(1) {
                            continue;
                        }
                        let mid = (centre + layout.pos(n)) / 2.0;
                        let mut near: Vec<Vec2> = corners.to_vec();
                        near.sort_by(|a, b| {
                            a.distance_squared(mid).total_cmp(&b.distance_squared(mid))
                        });
                        gizmos.line_2d(near[0], near[1], colour);
                    }
                }
            }
        }
    }
}

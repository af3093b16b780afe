//! The window's parts for ship rulesets (starship-d12): the ship sheet (systems by facing
//! with hit points, shields, armour, weapons, crew, edges), the range-band panel (every pair
//! of enemies with its band and who tails whom), the action panel (the legal range moves or
//! shots, each shot with its exact chance to hit and expected damage from the rules' own
//! code), and the band lines drawn on the map.

use super::Game;
use crate::battle::{UnitId, Units};
use crate::rules::starship_d12::fleet::{Action, Fleet, Phase, Ships};
use crate::rules::starship_d12::gunnery;
use crate::rules::starship_d12::range::{Band, Direction, move_range};
use crate::rules::starship_d12::sheet::ShipFacing;
use bevy::prelude::Color;
use bevy_egui::egui;

/// The colour of a band's line on the map and in the panel.
pub fn band_colour(band: Band) -> Color {
    match band {
        Band::Tailing => Color::srgb(1.0, 0.3, 0.25),
        Band::Short => Color::srgb(1.0, 0.65, 0.2),
        Band::Medium => Color::srgb(0.95, 0.9, 0.35),
        Band::Long => Color::srgb(0.6, 0.75, 0.9),
        Band::Escaped => Color::srgb(0.5, 0.5, 0.5),
    }
}

fn colour32(c: Color) -> egui::Color32 {
    let s = c.to_srgba();
    egui::Color32::from_rgb(
        (s.red * 255.0) as u8,
        (s.green * 255.0) as u8,
        (s.blue * 255.0) as u8,
    )
}

/// The fleet of the battle and its ships (the battle world), if it is a starship-d12 one.
pub fn fleet(game: &Game) -> Option<(&Fleet, &impl Ships)> {
    let world = &game.play.session().world;
    Some((world.get_resource::<Fleet>()?, world))
}

/// The sheet of ship `id`.
pub fn ship_sheet(ui: &mut egui::Ui, ships: &impl Ships, id: UnitId) {
    let (Some(sheet), Some(ship)) = (ships.sheet_of(id), ships.state_of(id)) else {
        return;
    };
    ui.heading(ships.name_of(id));
    if !sheet.class.is_empty() {
        ui.label(&sheet.class);
    }
    ui.label(format!(
        "Defence {}   shields {}/{}   armour {}/{}",
        sheet.defence, ship.shields, sheet.shields, ship.armour, sheet.armour
    ));
    ui.label(format!(
        "Systems {}/{} HP{}",
        ship.structure(),
        sheet.structure(),
        if ship.destroyed {
            " - destroyed"
        } else if ship.escaped {
            " - escaped"
        } else if !ship.can_manoeuvre(sheet) {
            " - engines out"
        } else {
            ""
        }
    ));
    for facing in ShipFacing::ALL {
        let systems: Vec<usize> = (0..sheet.systems.len())
            .filter(|&k| sheet.systems[k].at.facing == facing)
            .collect();
        if systems.is_empty() {
            continue;
        }
        ui.strong(format!("{facing}"));
        for k in systems {
            let s = &sheet.systems[k];
            let mut text = format!("  {} {}/{}", s.name, ship.hp[k].max(0), s.hp);
            if let Some(w) = &s.weapon {
                text.push_str(&format!("  D {}", w.damage));
                if let Some(sus) = w.sustain {
                    text.push_str(&format!(" S {sus}"));
                }
                if let Some(m) = w.missile {
                    text.push_str(&format!(
                        " missile to-hit {} ({} left)",
                        m.to_hit, ship.ammo[k]
                    ));
                }
                if ship.fired[k] {
                    text.push_str(" [fired]");
                }
            }
            let mut tags = Vec::new();
            if s.turret {
                tags.push("turret");
            }
            if s.engine {
                tags.push("engine");
            }
            match s.build {
                crate::rules::starship_d12::sheet::Build::Heavy => tags.push("heavy"),
                crate::rules::starship_d12::sheet::Build::SuperHeavy => tags.push("super-heavy"),
                crate::rules::starship_d12::sheet::Build::Normal => {}
            }
            if !tags.is_empty() {
                text.push_str(&format!(" ({})", tags.join(", ")));
            }
            let works = ship.works(sheet, k);
            let label = egui::RichText::new(text);
            ui.label(if works {
                label
            } else {
                label
                    .strikethrough()
                    .color(egui::Color32::from_rgb(200, 90, 80))
            });
        }
    }
    ui.strong("Crew");
    for (c, crew) in sheet.crew.iter().enumerate() {
        ui.label(format!(
            "  {}: piloting {}, gunnery {}{}{}",
            crew.name,
            crew.piloting,
            crew.gunnery,
            if c == sheet.pilot() { " (pilot)" } else { "" },
            if ship.crew_used[c] { " [acted]" } else { "" }
        ));
    }
    if !sheet.edges.is_empty() {
        ui.strong("Edges");
        for e in &sheet.edges {
            let mut what = Vec::new();
            if e.piloting != 0 {
                what.push(format!("piloting {:+}", e.piloting));
            }
            if e.gunnery != 0 {
                what.push(format!("gunnery {:+}", e.gunnery));
            }
            if e.attacker_chooses {
                what.push("chooses the system its hits strike".to_string());
            }
            ui.label(format!("  {}: {}", e.name, what.join(", ")));
        }
    }
}

/// Every pair of enemies with its band, closest first.
pub fn range_panel(ui: &mut egui::Ui, fleet: &Fleet, ships: &impl Ships) {
    ui.strong("Ranges");
    let mut pairs: Vec<_> = fleet
        .pairs(ships)
        .into_iter()
        .filter(|(a, b, _)| ships.in_fight(*a) && ships.in_fight(*b))
        .collect();
    pairs.sort_by_key(|(a, b, r)| (r.band, *a, *b));
    if pairs.is_empty() {
        ui.label("No enemies left in range of each other.");
    }
    let name = |id: UnitId| ships.name_of(id);
    for (a, b, r) in pairs {
        let text = match r.tailer {
            Some(t) => {
                let other = if t == a { b } else { a };
                format!("{} on {}'s tail", name(t), name(other))
            }
            None => format!("{} - {}: {}", name(a), name(b), r.band),
        };
        ui.label(egui::RichText::new(text).color(colour32(band_colour(r.band))));
    }
}

/// What the action panel says while the battle is paused between steps (nothing acts
/// until Play or Step), `units` the ruleset's word for them.
pub(super) fn paused_note(units: &str) -> String {
    format!(
        "Paused before the next turn: Play or Step goes on; your {units} act when their turn comes."
    )
}

/// The panel's heading, and the player's unit whose decision is awaited; without one, a
/// line saying why (battle over, the AI plays all, the AI's turn).
pub(super) fn awaited(ui: &mut egui::Ui, game: &Game, units: &str) -> Option<UnitId> {
    ui.heading("Actions");
    let me = game.play.awaiting_player().filter(|_| !game.autoplay);
    if me.is_none() {
        if game.play.session().outcome().is_some() {
            ui.label("The battle is over. Restart or open another scenario.");
        } else if game.autoplay {
            ui.label("The AI plays every side (untick \"AI plays all\" to take over).");
        } else if !game.playing {
            ui.label(paused_note(units));
        } else {
            ui.label(format!(
                "The AI is acting. Your {units} act when their turn comes."
            ));
        }
    }
    me
}

/// The action panel for the player's ship whose decision is awaited: each legal action
/// with what the rules make of it (range moves with their bands; shots with their exact
/// chance to hit and expected damage from [`gunnery::odds`]).
pub fn ship_actions(ui: &mut egui::Ui, game: &mut Game) {
    let Some(me) = awaited(ui, game, "ships") else {
        return;
    };
    if game.selected.is_none() {
        game.selected = Some(me);
    }
    let Some((fleet, ships)) = fleet(game) else {
        return;
    };
    let (intro, options) = ship_options(fleet, ships, me);
    ui.strong(format!(
        "{}'s decision",
        game.play.session().roster().name(me)
    ));
    for line in intro {
        ui.label(line);
    }
    let mut chosen = None;
    for (text, a) in options {
        if ui.button(text).clicked() {
            chosen = Some(a);
        }
    }
    if let Some(action) = chosen {
        match game
            .play
            .decide::<crate::rules::starship_d12::StarshipD12>(action)
        {
            Ok(()) => game.status = "done".into(),
            Err(e) => game.status = format!("not allowed: {e}"),
        }
    }
    if !game.status.is_empty() {
        ui.label(&game.status);
    }
}

/// What the action panel says for `me`: lines of explanation, and each legal action with
/// its button text.
fn ship_options(
    fleet: &Fleet,
    ships: &impl Ships,
    me: UnitId,
) -> (Vec<String>, Vec<(String, Action)>) {
    let name = |id: UnitId| ships.name_of(id).to_string();
    let mut intro = Vec::new();
    let mut options = Vec::new();
    match &fleet.phase {
        Phase::Range => {
            let mine = fleet.range_roll(ships, me).unwrap_or(0);
            intro.push(format!(
                "Range phase: your piloting roll is {mine}. Move the range to one enemy (two steps if you beat its roll by 6), or hold."
            ));
            let legal = fleet.legal_actions(ships, me);
            if legal.len() == 1 {
                intro.push(Fleet::why_no_range_move(ships, me));
            }
            for a in legal {
                let text = match &a {
                    Action::Hold => "Hold every range".to_string(),
                    Action::Range {
                        target,
                        direction,
                        steps,
                    } => {
                        let theirs = fleet.range_roll(ships, *target).unwrap_or(0);
                        let now = fleet.range(ships, me, *target);
                        let after = now.map(|r| move_range(r, me, *direction, i32::from(*steps)));
                        format!(
                            "{} the range to {} (their roll {theirs}){}: {} -> {}{}",
                            match direction {
                                Direction::Closer => "Close",
                                Direction::Farther => "Open",
                            },
                            name(*target),
                            if *steps > 1 { " two steps" } else { "" },
                            now.map_or("?".into(), |r| r.band.to_string()),
                            after.map_or("?".into(), |r| r.band.to_string()),
                            if after.is_some_and(|r| r.tailer == Some(me)) {
                                ", on its tail"
                            } else {
                                ""
                            }
                        )
                    }
                    _ => continue,
                };
                options.push((text, a));
            }
        }
        Phase::Actions { round, .. } => {
            intro.push(format!(
                "Action round {round}: one full action (a shot), a crewman helping the pilot, or pass. Shots are resolved together at the end of the round."
            ));
            let Some(sheet) = ships.sheet_of(me) else {
                return (intro, options);
            };
            for a in fleet.legal_actions(ships, me) {
                let text = match &a {
                    Action::Pass => "Pass".to_string(),
                    Action::Fire {
                        weapon,
                        target,
                        gunner,
                        helpers,
                    } => {
                        let Some(k) = sheet.find(*weapon) else {
                            continue;
                        };
                        let system = &sheet.systems[k];
                        let Some(w) = &system.weapon else { continue };
                        let band = fleet.band(ships, me, *target);
                        let defence = ships.sheet_of(*target).map_or(0, |t| t.defence);
                        let need = gunnery::difficulty(band, w, defence).unwrap_or(99);
                        let crew: Vec<&str> = std::iter::once(gunner)
                            .chain(helpers)
                            .filter_map(|c| sheet.crew.get(usize::from(*c)))
                            .map(|c| c.name.as_str())
                            .collect();
                        let (p, d) = fleet.shot_odds(ships, me, &a).unwrap_or((0.0, 0.0));
                        format!(
                            "Fire {} at {} ({band}, needs {need}; {}): hit {:.0}%, expected damage {:.1}",
                            system.name,
                            name(*target),
                            crew.join(" + "),
                            p * 100.0,
                            d
                        )
                    }
                    Action::HelpPilot { crewman } => {
                        let Some(c) = sheet.crew.get(usize::from(*crewman)) else {
                            continue;
                        };
                        format!(
                            "{} helps the pilot: +{} to next turn's range roll",
                            c.name, c.piloting
                        )
                    }
                    _ => continue,
                };
                options.push((text, a));
            }
        }
        Phase::Start => {}
    }
    (intro, options)
}

// SOCS.

use crate::rules::socs::SocsRange;
use crate::rules::socs::dogfight::{
    Action as CraftAction, Crafts, Dogfight, MAX_LEAD_PENALTY, Maneuver, Phase as SocsPhase, Shot,
};

/// What the player drafts for the awaited craft, kept between frames.
#[derive(Clone, Debug, Default)]
pub struct SocsInputs {
    /// The target of each gun (none: it holds its fire).
    pub gun_targets: Vec<Option<UnitId>>,
    /// The hit location each gun aims at (none: an ordinary shot).
    pub gun_aims: Vec<Option<u8>>,
    /// The game master's modifier on the drafted decision (decision 4).
    pub gm_modifier: i32,
    /// The hazard penalty drafted for Follow the Leader.
    pub lead_penalty: i32,
}

/// The dogfight of the battle and its craft (the battle world), if it is a SOCS one.
pub fn dogfight(game: &Game) -> Option<(&Dogfight, &impl Crafts)> {
    let world = &game.play.session().world;
    Some((world.get_resource::<Dogfight>()?, world))
}

/// The colour of a SOCS range.
pub fn socs_range_colour(r: SocsRange) -> Color {
    match r {
        SocsRange::Short => Color::srgb(1.0, 0.65, 0.2),
        SocsRange::Long => Color::srgb(0.6, 0.75, 0.9),
        SocsRange::OutOfRange => Color::srgb(0.5, 0.5, 0.5),
    }
}

/// Every pair of foes with its range, and every Position aiming bonus.
pub fn socs_range_panel(ui: &mut egui::Ui, d: &Dogfight, crafts: &impl Crafts) {
    ui.strong(if crafts.furball() {
        "Ranges (a furball!)"
    } else {
        "Ranges"
    });
    let fighting = crafts.fighting();
    let mut pairs: Vec<(UnitId, UnitId, SocsRange)> = Vec::new();
    let mut held = Vec::new();
    for (k, &a) in fighting.iter().enumerate() {
        for &b in &fighting[k + 1..] {
            if crafts.side_of(a) != crafts.side_of(b) {
                pairs.push((a, b, d.range(crafts, a, b)));
            }
        }
        for (b, ab) in d.positions_of(crafts, a) {
            if crafts.in_fight(b) {
                held.push(format!(
                    "{} has Position {ab} on {}",
                    crafts.name_of(a),
                    crafts.name_of(b)
                ));
            }
        }
    }
    pairs.sort_by_key(|&(a, b, r)| (r, a, b));
    for (a, b, r) in pairs {
        ui.label(
            egui::RichText::new(format!(
                "{} - {}: {r}",
                crafts.name_of(a),
                crafts.name_of(b)
            ))
            .color(colour32(socs_range_colour(r))),
        );
    }
    if !held.is_empty() {
        ui.strong("Position aiming bonuses");
        for h in held {
            ui.label(h);
        }
    }
}

/// The sheet of craft `id`.
pub fn craft_sheet(ui: &mut egui::Ui, d: &Dogfight, crafts: &impl Crafts, id: UnitId) {
    let (Some(craft), Some(state)) = (crafts.sheet_of(id), crafts.state_of(id)) else {
        return;
    };
    let c = &craft.stats;
    ui.heading(crafts.name_of(id));
    ui.label(format!(
        "{}, MR {}, {:+} to be hit",
        c.class, c.mr, craft.to_be_hit
    ));
    let mut status = Vec::new();
    if let Some(fate) = state.out {
        status.push(format!("{fate:?}").to_lowercase());
    }
    if state.damaged {
        status.push("damaged (continuing damage)".into());
    }
    if state.skip_maneuver {
        status.push("loses this maneuver".into());
    }
    if state.skip_fire {
        status.push("may not fire next fire phase".into());
    }
    if state.auto_hit {
        status.push("hits automatically next fire phase".into());
    }
    ui.label(if status.is_empty() {
        "intact".to_string()
    } else {
        status.join("; ")
    });
    if !c.locations.is_empty() {
        ui.strong("Hit locations");
        for (k, l) in c.locations.iter().enumerate() {
            let t = egui::RichText::new(format!("  {l}"));
            ui.label(if state.locations_out[k] {
                t.strikethrough()
                    .color(egui::Color32::from_rgb(200, 90, 80))
            } else {
                t
            });
        }
    }
    ui.strong("Weapons");
    for (w, weapon) in c.weapons.iter().enumerate() {
        let g = craft.gunner(w);
        let sus = match state.sustained[w] {
            Some((t, n)) => format!(
                ", Sustained Fire {n} on {}",
                crafts.unit_of(t).map_or("?", |t| crafts.name_of(t))
            ),
            None => String::new(),
        };
        let t = egui::RichText::new(format!(
            "  {}: {}, {:?} range, Acc {:+}; {} (Gunner {}){sus}",
            weapon.name, weapon.firepower, weapon.range, weapon.acc, g.name, g.gunner
        ));
        ui.label(if state.gun_works(craft, w) {
            t
        } else {
            t.strikethrough()
                .color(egui::Color32::from_rgb(200, 90, 80))
        });
    }
    ui.strong("Aboard");
    for (k, p) in craft.people().into_iter().enumerate() {
        ui.label(format!(
            "  {} ({}{}{}){}",
            p.name,
            if p.major { "major" } else { "minor" },
            if p.piloting > 0 {
                format!(", Piloting {}", p.piloting)
            } else {
                String::new()
            },
            if p.gunner > 0 {
                format!(", Gunner {}", p.gunner)
            } else {
                String::new()
            },
            if state.alive[k] { "" } else { " - dead" }
        ));
    }
    // Position on a craft out of the fight, or held by one, no longer counts: not shown.
    let here = crafts.in_fight(id);
    for (b, ab) in d.positions_of(crafts, id) {
        if here && crafts.in_fight(b) {
            ui.label(format!("Position {ab} on {}", crafts.name_of(b)));
        }
    }
    for a in crafts.ids() {
        let ab = d.position_ab(crafts, a, id);
        if a != id && ab > 0 && here && crafts.in_fight(a) {
            ui.label(format!("{} has Position {ab} on it", crafts.name_of(a)));
        }
    }
}

/// The action panel for the player's craft whose decision is awaited.
pub fn craft_actions(ui: &mut egui::Ui, game: &mut Game) {
    let Some(me) = awaited(ui, game, "craft") else {
        return;
    };
    if game.selected.is_none() {
        game.selected = Some(me);
    }
    // The panel's own inputs, held apart while the battle is borrowed.
    let mut inputs = std::mem::take(game.draft_mut::<SocsInputs>());
    let chosen = match dogfight(game) {
        Some((d, crafts)) => craft_options(ui, d, crafts, me, &mut inputs),
        None => None,
    };
    *game.draft_mut::<SocsInputs>() = inputs;
    if let Some(action) = chosen {
        match game.play.decide::<crate::rules::socs::Socs>(action) {
            Ok(()) => {
                game.status = "done".into();
                *game.draft_mut::<SocsInputs>() = SocsInputs::default();
            }
            Err(e) => game.status = format!("not allowed: {e}"),
        }
    }
    if !game.status.is_empty() {
        ui.label(&game.status);
    }
}

/// The decision widgets for craft `me`: a target per gun with its exact odds from the
/// rules' own modifiers ([`Dogfight::shot_modifiers`], [`chance_3d6`]), or the legal
/// maneuvers; the action chosen, if any.
fn craft_options(
    ui: &mut egui::Ui,
    d: &Dogfight,
    crafts: &impl Crafts,
    me: UnitId,
    inputs: &mut SocsInputs,
) -> Option<CraftAction> {
    let SocsInputs {
        gun_targets,
        gun_aims,
        gm_modifier,
        lead_penalty,
    } = inputs;
    ui.strong(format!("{}'s decision", crafts.name_of(me)));
    ui.horizontal(|ui| {
        ui.label("GM modifier (unorthodox tactics)");
        ui.add(egui::DragValue::new(gm_modifier).range(-10..=10));
    });
    let mut chosen = None;
    match &d.phase {
        SocsPhase::Fire { .. } => {
            let craft = crafts.craft(me);
            let guns = craft.stats.weapons.len();
            if gun_targets.len() != guns {
                *gun_targets = vec![None; guns];
            }
            if gun_aims.len() != guns {
                *gun_aims = vec![None; guns];
            }
            if crafts.craft_state(me).skip_fire {
                ui.label("Your gunners may not fire this turn.");
            } else {
                ui.label("Fire phase: pick a target for each gun (shots are resolved together).");
            }
            for ((w, target), aim) in gun_targets.iter_mut().enumerate().zip(gun_aims.iter_mut()) {
                let foes: Vec<UnitId> = crafts
                    .foes(me)
                    .into_iter()
                    .filter(|&t| d.guns_at(crafts, me, t).contains(&w))
                    .collect();
                if !foes.contains(&target.unwrap_or(UnitId(u32::MAX))) {
                    *target = None;
                }
                let name = |t: Option<UnitId>| {
                    t.map_or("hold fire".to_string(), |t| crafts.name_of(t).to_string())
                };
                ui.horizontal(|ui| {
                    ui.label(&craft.stats.weapons[w].name);
                    egui::ComboBox::from_id_salt(("gun", w))
                        .selected_text(name(*target))
                        .show_ui(ui, |ui| {
                            ui.selectable_value(target, None, "hold fire");
                            for &t in &foes {
                                ui.selectable_value(target, Some(t), crafts.name_of(t));
                            }
                        });
                    // An aimed shot at one of the target's working hit locations.
                    let spots: Vec<(u8, &str)> = target
                        .filter(|&t| crafts.craft(t).aimed_to_be_hit().is_some())
                        .map_or(Vec::new(), |t| {
                            let c = crafts.craft(t);
                            let out = &crafts.craft_state(t).locations_out;
                            (0..c.stats.locations.len())
                                .filter(|&k| !out[k])
                                .map(|k| (k as u8, c.stats.locations[k].as_str()))
                                .collect()
                        });
                    if !spots.iter().any(|(k, _)| Some(*k) == *aim) {
                        *aim = None;
                    }
                    if !spots.is_empty() {
                        let shown = aim
                            .and_then(|k| spots.iter().find(|(j, _)| *j == k))
                            .map_or("anywhere", |(_, l)| *l);
                        egui::ComboBox::from_id_salt(("aim", w))
                            .selected_text(format!("aim: {shown}"))
                            .show_ui(ui, |ui| {
                                ui.selectable_value(aim, None, "anywhere");
                                for (k, l) in &spots {
                                    ui.selectable_value(aim, Some(*k), *l);
                                }
                            });
                    }
                });
                if let Some(t) = *target {
                    if crafts.craft(t).stats.class == crate::rules::socs::sheet::ShipClass::Planet
                        && aim.is_none()
                    {
                        ui.label("a planet is hit automatically unless you aim at a location");
                        continue;
                    }
                    let mods = d.aimed_shot_modifiers(crafts, me, w, t, *aim, *gm_modifier);
                    let total: i32 = mods.iter().map(|m| m.value).sum();
                    let parts: Vec<String> = mods
                        .iter()
                        .map(|m| format!("{} {:+}", m.label, m.value))
                        .collect();
                    ui.label(format!(
                        "hit on {total} or less: {:.0}%{} ({})",
                        crate::rules::socs::dogfight::chance_3d6(total) * 100.0,
                        if crafts.may_dodge(t, me) {
                            ", the target may dodge"
                        } else {
                            ", no dodge"
                        },
                        parts.join(", ")
                    ));
                }
            }
            if ui.button("Fire (Enter)").clicked() || ui.input(|i| i.key_pressed(egui::Key::Enter))
            {
                let shots = gun_targets
                    .iter()
                    .zip(gun_aims.iter())
                    .enumerate()
                    .filter_map(|(w, (t, aim))| {
                        t.map(|t| Shot {
                            weapon: w as u8,
                            target: t,
                            aim: *aim,
                        })
                    })
                    .collect();
                chosen = Some(CraftAction::Fire {
                    shots,
                    gm_modifier: *gm_modifier,
                });
            }
        }
        SocsPhase::Maneuvers { .. } => {
            ui.label("Maneuver phase: choose the pilot's maneuver (rolled against Piloting + MR).");
            for a in d.legal_actions(crafts, me) {
                let CraftAction::Maneuver { maneuver, .. } = &a else {
                    continue;
                };
                if let Maneuver::FollowTheLeader { penalty } = maneuver {
                    // One row with the penalty the leader chooses, not a button for each.
                    if *penalty == 0 {
                        ui.horizontal(|ui| {
                            ui.label("Follow the Leader, hazard penalty -");
                            ui.add(egui::DragValue::new(lead_penalty).range(0..=MAX_LEAD_PENALTY));
                            if ui
                                .button("Lead them through")
                                .on_hover_text("the foes on your tail must follow through the hazard; every pilot rolls Piloting + MR minus the penalty")
                                .clicked()
                            {
                                chosen = Some(CraftAction::Maneuver {
                                    maneuver: Maneuver::FollowTheLeader {
                                        penalty: *lead_penalty,
                                    },
                                    gm_modifier: *gm_modifier,
                                });
                            }
                        });
                    }
                    continue;
                }
                let text = d.describe(crafts, me, &a);
                let hint = match maneuver {
                    Maneuver::FlyStraight => "no change to any aiming bonus",
                    Maneuver::Offensive { .. } => {
                        "+1 Position on it (critical: double); your gunners lose Sustained Fire unless the pilot fires"
                    }
                    Maneuver::Defensive { .. } => {
                        "lower its bonus on you by 1 (critical: to 0); you lose all your bonuses"
                    }
                    Maneuver::TotallyDefensive => {
                        "rolled against Piloting alone (no MR); as Defensive against every foe; your gunners may not fire next turn"
                    }
                    Maneuver::Reversal { .. } => {
                        "Quick Contest against its Maneuver Offensively on you (if it has not declared yet, nothing happens unless it does): win and its bonus on you is gone"
                    }
                    Maneuver::FollowTheLeader { .. } => {
                        "the foes on your tail must follow through the hazard"
                    }
                    Maneuver::Gm { .. } => {
                        "the game master's maneuver: changes the range on success"
                    }
                };
                if ui.button(text).on_hover_text(hint).clicked() {
                    chosen = Some(CraftAction::Maneuver {
                        maneuver: maneuver.clone(),
                        gm_modifier: *gm_modifier,
                    });
                }
            }
        }
        SocsPhase::Start => {}
    }
    chosen
}

/// The map position of unit `id`'s token.
fn token_at(
    game: &Game,
    layout: &super::layout::MapLayout,
    id: UnitId,
) -> Option<bevy::prelude::Vec2> {
    let session = game.play.session();
    session
        .roster()
        .entity(id)
        .and_then(|e| session.world.get::<crate::battle::HexPos>(e))
        .map(|p| layout.pos(p.0))
}

/// starship-d12 in the window: the range board and the ship sheet, the range move and
/// fire panel, and a line between every pair of enemies on the map, coloured by band.
pub struct D12Window;

impl super::ruleset::RulesetWindow for D12Window {
    /// Space.
    fn backdrop(&self, _: &crate::scenario::Prepared) -> super::ruleset::Backdrop {
        super::ruleset::Backdrop::Space
    }

    fn id(&self) -> &'static str {
        use crate::scenario::Ruleset;
        crate::rules::starship_d12::StarshipD12::ID
    }

    fn sheet_panel(&self, ui: &mut egui::Ui, game: &mut Game) {
        if let Some((fleet, ships)) = fleet(game) {
            range_panel(ui, fleet, ships);
            ui.separator();
            super::ruleset::selected_sheet(ui, game, "a ship", |ui, id| ship_sheet(ui, ships, id));
        }
    }

    fn actions_panel(&self, ui: &mut egui::Ui, game: &mut Game) {
        ship_actions(ui, game);
    }

    fn map_marks(
        &self,
        gizmos: &mut bevy::prelude::Gizmos,
        layout: &super::layout::MapLayout,
        game: &Game,
        _: super::ruleset::Ring,
        _: super::ruleset::MapMarks,
    ) {
        use super::layout::arrow_head;
        use bevy::prelude::Alpha;
        let at = |id: UnitId| token_at(game, layout, id);
        // Ship rulesets: a line between every pair of enemies in the fight, coloured by band.
        if let Some((fleet, ships)) = fleet(game) {
            for (a, b, r) in fleet.pairs(ships) {
                if !(ships.in_fight(a) && ships.in_fight(b))
                    || r.band == crate::rules::starship_d12::Band::Escaped
                {
                    continue;
                }
                if let (Some(pa), Some(pb)) = (at(a), at(b)) {
                    gizmos.line_2d(pa, pb, band_colour(r.band).with_alpha(0.7));
                    if let Some(t) = r.tailer {
                        // An arrow head at the tailed ship.
                        let (from, to) = if t == a { (pa, pb) } else { (pb, pa) };
                        arrow_head(gizmos, from, to, band_colour(r.band));
                    }
                }
            }
        }
    }
}

/// SOCS in the window: the range board and the craft sheet, the shot and maneuver panel,
/// and on the map a line between foes in range, Sustained Fire and Position.
pub struct SocsWindow;

impl super::ruleset::RulesetWindow for SocsWindow {
    /// Space.
    fn backdrop(&self, _: &crate::scenario::Prepared) -> super::ruleset::Backdrop {
        super::ruleset::Backdrop::Space
    }

    fn id(&self) -> &'static str {
        use crate::scenario::Ruleset;
        crate::rules::socs::Socs::ID
    }

    fn sheet_panel(&self, ui: &mut egui::Ui, game: &mut Game) {
        if let Some((d, crafts)) = dogfight(game) {
            socs_range_panel(ui, d, crafts);
            ui.separator();
            super::ruleset::selected_sheet(ui, game, "a craft", |ui, id| {
                craft_sheet(ui, d, crafts, id)
            });
        }
    }

    fn actions_panel(&self, ui: &mut egui::Ui, game: &mut Game) {
        craft_actions(ui, game);
    }

    fn map_marks(
        &self,
        gizmos: &mut bevy::prelude::Gizmos,
        layout: &super::layout::MapLayout,
        game: &Game,
        _: super::ruleset::Ring,
        _: super::ruleset::MapMarks,
    ) {
        use super::layout::arrow_head;
        use bevy::prelude::Alpha;
        use bevy::prelude::Vec2;
        let at = |id: UnitId| token_at(game, layout, id);
        // SOCS: a line between foes in range, coloured by range; an arrow head where one has
        // Position on the other.
        if let Some((d, crafts)) = dogfight(game) {
            let fighting = crafts.fighting();
            for (k, &a) in fighting.iter().enumerate() {
                for &b in &fighting[k + 1..] {
                    let r = d.range(crafts, a, b);
                    if r == crate::rules::socs::SocsRange::OutOfRange {
                        continue;
                    }
                    if let (Some(pa), Some(pb)) = (at(a), at(b)) {
                        gizmos.line_2d(pa, pb, socs_range_colour(r).with_alpha(0.6));
                    }
                }
            }
            // Sustained Fire: a yellow line from the firing craft two fifths of the way to its
            // target, one per gun (side by side).
            for &me in &fighting {
                let Some(state) = crafts.state_of(me) else {
                    continue;
                };
                for (k, sus) in state.sustained.iter().enumerate() {
                    if let (Some((t, _)), Some(pa)) = (sus, at(me))
                        && let Some(t) = crafts.unit_of(*t)
                        && crafts.in_fight(t)
                        && let Some(pb) = at(t)
                    {
                        let dir = (pb - pa).normalize_or_zero();
                        let side = Vec2::new(-dir.y, dir.x) * (3.0 + 3.0 * k as f32);
                        let len = (pb - pa).length() * 0.4;
                        gizmos.line_2d(
                            pa + side,
                            pa + side + dir * len,
                            Color::srgb(1.0, 0.9, 0.2),
                        );
                    }
                }
            }
            for &a in &fighting {
                for (b, _) in d.positions_of(crafts, a) {
                    if let (true, Some(pa), Some(pb)) = (crafts.in_fight(b), at(a), at(b)) {
                        arrow_head(gizmos, pa, pb, Color::srgb(1.0, 0.3, 0.25));
                    }
                }
            }
        }
    }
}

//! The window's parts for GURPS Traveller space combat: the ship sheet (hull, armor,
//! acceleration and thrust, velocity, sensors, what each side has detected, mounts with
//! their state, missiles, knocked-out systems, crew and passengers hurt), the action panel
//! of each phase (the maneuver chosen by clicking an end position within the ship's thrust,
//! with the burn it costs and the new vector; direct fire per mount with its exact chance
//! to hit and expected damage; missile launches), and on the map each mover's velocity as
//! an arrow to where it will coast next turn (its ghost), the planned course while the
//! player plans thrust, the end positions the thrust can reach, and the planets.

use super::Game;
use crate::battle::UnitId;
use crate::rules::traveller_space::ai::{expected_damage, success_chance};
use crate::rules::traveller_space::space::{
    Action, Aim, Condition, Phase, Shot, Space, Vessels, points,
};
use crate::rules::traveller_space::tables::SensorKind;
use crate::rules::traveller_space::vector;
use bevy_egui::egui;
use hexx::Hex;

/// What the player plans for the awaited ship, kept between frames.
#[derive(Clone, Debug, Default)]
pub struct SpaceInputs {
    /// The planned end of the ship's movement.
    pub plan: Option<Hex>,
    /// Active sensors off in the planned maneuver.
    pub passive: bool,
    /// The ship to ram in the planned maneuver.
    pub ram: Option<UnitId>,
    /// Each mount's target (none: kept for point defense).
    pub shots: Vec<Option<UnitId>>,
    /// Each mount's pinpoint aim, if any.
    pub aims: Vec<Option<Aim>>,
    /// The launch's target and count.
    pub launch: (Option<UnitId>, u32),
    /// The ship, turn and phase the plans above are for.
    pub ready_for: Option<(UnitId, u32, Phase)>,
}

/// The battle and its ships and missiles (the battle world), if it is a GURPS Traveller
/// space one.
pub fn space(game: &Game) -> Option<(&Space, &impl Vessels)> {
    let world = &game.play.session().world;
    Some((world.get_resource::<Space>()?, world))
}

/// The sheet of ship `id`.
pub fn sheet(ui: &mut egui::Ui, s: &Space, ships: &impl Vessels, id: UnitId) {
    let (Some(sheet), Some(st)) = (ships.sheet_of(id), ships.state_of(id)) else {
        return;
    };
    let stats = &sheet.stats;
    ui.heading(ships.name_of(id));
    let state = match st.condition {
        Condition::Fighting => "fighting",
        Condition::Disabled => "disabled: no longer functions",
        Condition::Destroyed => "destroyed",
        Condition::Escaped => "escaped",
    };
    ui.label(state);
    ui.label(format!(
        "Hull {}/{} HP   DR {}   SM {:+}   TL {}",
        st.hp, stats.hp, stats.dr, stats.sm, stats.tl
    ));
    ui.label(format!(
        "Acceleration {:.1} G now ({:.1} G rated): {} of thrust a turn",
        s.accel(ships, id),
        stats.accel,
        points(s.thrust(ships, id))
    ));
    ui.label(format!(
        "Velocity ({}, {}): {} hex{} a turn ({:.0} miles)",
        st.vel.x,
        st.vel.y,
        st.vel.ulength(),
        if st.vel.ulength() == 1 { "" } else { "es" },
        f64::from(st.vel.ulength()) * s.hex_miles
    ));
    let sensors: Vec<String> = sheet
        .scans
        .iter()
        .map(|(k, v)| {
            let out = if st.sensors_out.contains(k) {
                " (out)"
            } else {
                ""
            };
            format!("{k:?} {v}{out}")
        })
        .collect();
    ui.label(format!(
        "Sensors: {}{}",
        if sensors.is_empty() {
            "none".to_string()
        } else {
            sensors.join(", ")
        },
        if s.active_sensors(ships, id) {
            "; active sensors on"
        } else {
            "; active sensors off"
        }
    ));
    ui.label(format!(
        "Stealth {:?}, emission cloaking {:?}{}",
        stats.stealth,
        stats.cloaking,
        if stats.transponder {
            ", transponder on"
        } else {
            ""
        }
    ));
    ui.label(format!(
        "Bridge {:?}{}   computers {}/{}   targeting program {:+}",
        stats.bridge,
        if st.bridge { "" } else { " (knocked out)" },
        st.computers,
        stats.computers,
        stats.targeting
    ));
    ui.strong("Mounts");
    if sheet.mounts.is_empty() {
        ui.label("none");
    }
    for (m, mount) in sheet.mounts.iter().enumerate() {
        let w = mount.weapon;
        let mut note = String::new();
        if st.mounts_out.get(m).copied().unwrap_or(false) {
            note.push_str(" - knocked out");
        } else if st.mounts_used.get(m).copied().unwrap_or(false) {
            note.push_str(" - fired this turn");
        }
        ui.label(format!(
            "#{m} {}: 1/2D {} max {} Acc {} {}d×{}{note}",
            w.name, w.half_damage, w.max_range, w.acc, w.dice, w.multiplier
        ));
    }
    if stats.launchers > 0 {
        ui.label(format!(
            "Missiles {} left, {} launchers",
            st.missiles, stats.launchers
        ));
    }
    let mut lost = Vec::new();
    if !st.power_plant {
        lost.push("power plant (crippled)".to_string());
    }
    if st.power_loss {
        lost.push("power loss".to_string());
    }
    if st.drive_halved > 0 {
        lost.push(format!("M-drive halved ×{}", st.drive_halved));
    }
    if st.drive_hits > 0 {
        lost.push(format!("drive hits {}", st.drive_hits));
    }
    if !st.jump_drive {
        lost.push("jump drive".to_string());
    }
    if !lost.is_empty() {
        ui.colored_label(
            egui::Color32::LIGHT_RED,
            format!("Damage: {}", lost.join(", ")),
        );
    }
    ui.label(format!(
        "Crew {} ({} hurt); passengers {} ({} hurt); cargo {}/{} t; fuel {}/{} t",
        stats.crew.count,
        st.crew_hurt,
        stats.passengers,
        st.passengers_hurt,
        st.cargo,
        stats.cargo,
        st.fuel,
        stats.fuel
    ));
    ui.label(format!(
        "Skills: Piloting {}, Gunner {}, Sensors {}, Engineer {}",
        stats.crew.pilot, stats.crew.gunner, stats.crew.sensors, stats.crew.engineer
    ));
    let foes = ships.enemies(id);
    if !foes.is_empty() {
        ui.strong("Enemies");
        for e in foes {
            let d = ships.detection(id, e);
            // The best scan this ship could make of it now, and its chance.
            let best = [SensorKind::Aesa, SensorKind::Pesa, SensorKind::Radscan]
                .into_iter()
                .filter_map(|k| s.scan_modifiers(ships, id, k, e).map(|m| (k, m)))
                .map(|(k, m)| (k, m.iter().map(|x| x.value).sum::<i32>()))
                .max_by_key(|(_, v)| *v);
            let scan = best.map_or(", no sensor can scan it".to_string(), |(k, v)| {
                format!(
                    "; its {k:?} scan: {:.0}% (skill {v})",
                    success_chance(v) * 100.0
                )
            });
            ui.label(format!(
                "{}: {} hexes, {}{scan}",
                ships.name_of(e),
                ships.distance(id, e),
                if d.found && d.active {
                    "detected (active lock)"
                } else if d.found {
                    "detected"
                } else {
                    "not detected"
                }
            ));
        }
    }
    if !s.planets.is_empty() {
        ui.strong("Planets");
        for p in &s.planets {
            ui.label(format!(
                "{} at ({}, {}){}",
                p.name,
                p.at.0,
                p.at.1,
                if p.atmosphere { ", atmosphere" } else { "" }
            ));
        }
    }
}

/// The map click of the player planning a maneuver: `hex` becomes the planned end of the
/// movement when the thrust reaches it. True when the click was taken.
pub fn click(game: &mut Game, hex: Hex) -> bool {
    let Some(me) = game.play.awaiting_player() else {
        return false;
    };
    let refused = {
        let Some((s, ships)) = space(game) else {
            return false;
        };
        if s.phase != Phase::Maneuver || game.autoplay {
            return false;
        }
        let st = ships.ship(me);
        let ghost = vector::coast(st.pos, st.vel);
        let thrust = s.thrust(ships, me);
        (hex.unsigned_distance_to(ghost) > thrust).then(|| {
            format!(
                "({}, {}) is beyond the thrust: {} from ({}, {})",
                hex.x,
                hex.y,
                points(thrust),
                ghost.x,
                ghost.y
            )
        })
    };
    match refused {
        None => {
            game.draft_mut::<SpaceInputs>().plan = Some(hex);
            true
        }
        Some(why) => {
            game.status = why;
            false
        }
    }
}

/// The planned end of the awaited player ship's movement (its ghost until a hex is
/// clicked), and that ship.
pub fn plan(game: &Game) -> Option<(UnitId, Hex)> {
    let empty = SpaceInputs::default();
    let inputs = game.draft::<SpaceInputs>().unwrap_or(&empty);
    let (s, ships) = space(game)?;
    let me = game.play.awaiting_player().filter(|_| !game.autoplay)?;
    if s.phase != Phase::Maneuver {
        return None;
    }
    let st = ships.ship(me);
    Some((
        me,
        inputs.plan.unwrap_or_else(|| vector::coast(st.pos, st.vel)),
    ))
}

/// The action panel of the player's ship whose decision is awaited.
pub fn actions(ui: &mut egui::Ui, game: &mut Game) {
    let Some(me) = super::ships::awaited(ui, game, "ships") else {
        return;
    };
    if game.selected.is_none() {
        game.selected = Some(me);
    }
    // The plan, held apart while the battle is borrowed.
    let mut inputs = std::mem::take(game.draft_mut::<SpaceInputs>());
    let chosen = match space(game) {
        Some((s, ships)) => panel(ui, &mut inputs, s, ships, me),
        None => None,
    };
    *game.draft_mut::<SpaceInputs>() = inputs;
    if let Some(action) = chosen {
        match game
            .play
            .decide::<crate::rules::traveller_space::TravellerSpace>(action)
        {
            Ok(()) => {
                game.status = "done".into();
                game.draft_mut::<SpaceInputs>().ready_for = None;
            }
            Err(e) => game.status = format!("not allowed: {e}"),
        }
    }
    if !game.status.is_empty() {
        ui.label(&game.status);
    }
}

/// The widgets of the phase's decision for `me`; the action chosen, if any.
fn panel(
    ui: &mut egui::Ui,
    inputs: &mut SpaceInputs,
    s: &Space,
    ships: &impl Vessels,
    me: UnitId,
) -> Option<Action> {
    if inputs.ready_for != Some((me, s.round, s.phase)) {
        *inputs = SpaceInputs {
            ready_for: Some((me, s.round, s.phase)),
            passive: ships.ship(me).passive,
            shots: vec![None; ships.sheet(me).mounts.len()],
            aims: vec![None; ships.sheet(me).mounts.len()],
            ..SpaceInputs::default()
        };
    }
    ui.strong(format!("{}: {}", ships.name_of(me), s.phase.word()));
    let mut chosen = None;
    match s.phase {
        Phase::Maneuver => maneuver(ui, inputs, s, ships, me, &mut chosen),
        Phase::DirectFire => fire(ui, inputs, s, ships, me, &mut chosen),
        Phase::Launch => launch(ui, inputs, s, ships, me, &mut chosen),
        _ => {}
    }
    ui.separator();
    if ui.button("Let the AI decide").clicked() {
        chosen = Some(crate::rules::traveller_space::ai::choose(s, ships, me));
    }
    chosen
}

fn maneuver(
    ui: &mut egui::Ui,
    inputs: &mut SpaceInputs,
    s: &Space,
    ships: &impl Vessels,
    me: UnitId,
    chosen: &mut Option<Action>,
) {
    let st = ships.ship(me);
    let ghost = vector::coast(st.pos, st.vel);
    let to = inputs.plan.unwrap_or(ghost);
    let vel = to - st.pos;
    let burn = vel - st.vel;
    ui.label(format!(
        "Thrust {}. Coasting, the ship ends at ({}, {}) (the ghost). Click a hex within the outlined reach to plan the burn.",
        points(s.thrust(ships, me)),
        ghost.x,
        ghost.y
    ));
    ui.label(format!(
        "Planned: end at ({}, {}), burn {}, velocity ({}, {}) -> ({}, {}); next turn it coasts on to ({}, {}).",
        to.x,
        to.y,
        points(vector::burn_cost(burn)),
        st.vel.x,
        st.vel.y,
        vel.x,
        vel.y,
        (to + vel).x,
        (to + vel).y
    ));
    if ships.sheet(me).scan(SensorKind::Aesa).is_some() {
        let mut active = !inputs.passive;
        ui.checkbox(
            &mut active,
            "Active sensors (AESA: lock for +2; seen by radscans)",
        );
        inputs.passive = !active;
    }
    let foes = ships.enemies(me);
    // The label before its choice ("Ram: nobody"), as the other fields read.
    ui.horizontal(|ui| {
        ui.label("Ram:");
        egui::ComboBox::from_id_salt("ram")
            .selected_text(
                inputs
                    .ram
                    .map_or("nobody".to_string(), |t| ships.name_of(t).to_string()),
            )
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut inputs.ram, None, "nobody");
                for &e in &foes {
                    ui.selectable_value(&mut inputs.ram, Some(e), ships.name_of(e));
                }
            });
    });
    let action = Action::Maneuver {
        to: (to.x, to.y),
        passive: inputs.passive,
        ram: inputs.ram,
    };
    match s.check(ships, me, &action) {
        Ok(()) => {
            if ui.button("Confirm the maneuver").clicked() {
                *chosen = Some(action);
            }
        }
        Err(e) => {
            ui.label(e);
        }
    }
    if ui.button("Coast (no burn)").clicked() {
        *chosen = Some(Action::Maneuver {
            to: (ghost.x, ghost.y),
            passive: inputs.passive,
            ram: None,
        });
    }
}

fn fire(
    ui: &mut egui::Ui,
    inputs: &mut SpaceInputs,
    s: &Space,
    ships: &impl Vessels,
    me: UnitId,
    chosen: &mut Option<Action>,
) {
    ui.label("Pick a target for each mount, or keep it for point defense (+10 against missiles that reach you this turn).");
    let incoming = ships
        .missile_ids()
        .into_iter()
        .filter_map(|id| ships.missile(id))
        .filter(|m| m.target == ships.entity(me) && m.turns_left > 0)
        .count();
    if incoming > 0 {
        ui.colored_label(
            egui::Color32::YELLOW,
            format!("{incoming} enemy missiles are on their way at this ship."),
        );
    }
    let free = s.free_mounts(ships, me);
    for m in free {
        let w = ships.sheet(me).mounts[m].weapon;
        let Some(pick) = inputs.shots.get_mut(m) else {
            continue;
        };
        ui.horizontal(|ui| {
            ui.label(format!("#{m} {}", w.name));
            egui::ComboBox::from_id_salt(("mount", m))
                .selected_text(pick.map_or("point defense".to_string(), |t| {
                    ships.name_of(t).to_string()
                }))
                .show_ui(ui, |ui| {
                    ui.selectable_value(pick, None, "point defense");
                    for t in ships.enemies(me) {
                        if s.why_not_target(ships, me, t, &w).is_none() {
                            let mods = s.gunnery_modifiers(ships, me, m, t);
                            let skill: i32 = mods.iter().map(|x| x.value).sum();
                            ui.selectable_value(
                                pick,
                                Some(t),
                                format!(
                                    "{}: {:.0}% (skill {skill}), ~{:.0} damage",
                                    ships.name_of(t),
                                    s.shot_odds(ships, me, m, t, false) * 100.0,
                                    expected_damage(s, ships, me, m, t)
                                ),
                            );
                        }
                    }
                });
        });
        let target = *pick;
        if let (Some(t), Some(aim)) = (target, inputs.aims.get_mut(m)) {
            egui::ComboBox::from_id_salt(("aim", m))
                .selected_text(aim.map_or("the whole ship (its size)".to_string(), |a| {
                    format!("pinpoint: {a:?} (-6)")
                }))
                .show_ui(ui, |ui| {
                    ui.selectable_value(aim, None, "the whole ship (its size)");
                    for a in Aim::ALL {
                        ui.selectable_value(aim, Some(a), format!("pinpoint: {a:?} (-6)"));
                    }
                });
            let mods = s.shot_modifiers(ships, me, m, t, aim.is_some());
            let skill: i32 = mods.iter().map(|x| x.value).sum();
            ui.label(format!(
                "{:.0}% to hit (skill {skill}) against {}",
                s.shot_odds(ships, me, m, t, aim.is_some()) * 100.0,
                ships.name_of(t)
            ));
        }
        if let Some(t) = target {
            let aimed = inputs.aims.get(m).copied().flatten().is_some();
            let mods = s.shot_modifiers(ships, me, m, t, aimed);
            let parts: Vec<String> = mods
                .iter()
                .map(|x| format!("{} {:+}", x.label, x.value))
                .collect();
            ui.label(parts.join(", "));
        }
    }
    let shots: Vec<Shot> = inputs
        .shots
        .iter()
        .enumerate()
        .filter_map(|(m, t)| {
            t.map(|t| Shot {
                mount: m,
                target: t,
                pinpoint: inputs.aims.get(m).copied().flatten(),
            })
        })
        .collect();
    let action = Action::Fire { shots };
    match s.check(ships, me, &action) {
        Ok(()) => {
            if ui.button("Fire").clicked() {
                *chosen = Some(action);
            }
        }
        Err(e) => {
            ui.label(e);
        }
    }
}

fn launch(
    ui: &mut egui::Ui,
    inputs: &mut SpaceInputs,
    s: &Space,
    ships: &impl Vessels,
    me: UnitId,
    chosen: &mut Option<Action>,
) {
    let st = ships.ship(me);
    let most = st.missiles.min(ships.sheet(me).stats.launchers);
    ui.label(format!(
        "{} missiles left; up to {most} this turn. A missile flies {} hexes a turn of thrust for {} turns with guidance {} (plus the target's size).",
        st.missiles,
        s.missile_thrust(),
        s.missile.endurance,
        s.missile.skill
    ));
    let (target, count) = &mut inputs.launch;
    let targets: Vec<UnitId> = ships
        .enemies(me)
        .into_iter()
        .filter(|&t| ships.detection(me, t).found)
        .collect();
    if target.is_none() {
        *target = targets.first().copied();
    }
    egui::ComboBox::from_label("Target")
        .selected_text(target.map_or("none".to_string(), |t| {
            format!("{} ({} hexes)", ships.name_of(t), ships.distance(me, t))
        }))
        .show_ui(ui, |ui| {
            for &t in &targets {
                ui.selectable_value(
                    target,
                    Some(t),
                    format!("{} ({} hexes)", ships.name_of(t), ships.distance(me, t)),
                );
            }
        });
    ui.add(egui::Slider::new(count, 0..=most).text("missiles"));
    if let Some(t) = *target {
        let action = Action::Launch {
            target: t,
            count: *count,
        };
        if s.check(ships, me, &action).is_ok() && ui.button("Launch").clicked() {
            *chosen = Some(action);
        }
    }
    if ui.button("Launch none").clicked() {
        *chosen = Some(Action::Launch {
            target: me,
            count: 0,
        });
    }
}

//! The window's parts for Main Sequence: the sheet of a character or ship (attributes,
//! derived stats, skills, tags, weapons with ammunition, soak, Edge, condition; a ship's
//! crew, shields and failed systems), the bands to every foe, and the action panel: the
//! turn's move (click a hex on the map) and action, or the answer to the question the
//! battle asks (defend, re-roll, spend Edge), each attack with its exact chance to hit and
//! expected damage from the AI's own arithmetic.

use super::Game;
use crate::battle::UnitId;
use crate::rules::main_sequence::ai::{expected_damage, hit_chance};
use crate::rules::main_sequence::combat::{Band, RateOfFire};
use crate::rules::main_sequence::fight::{Action, Condition, Fight, Prompt, Reroll};
use crate::rules::main_sequence::sheet::{MsSheet, Tag};
use bevy::prelude::Color;
use bevy_egui::egui;

/// The fight of the battle, if it is a Main Sequence one.
pub fn fight(game: &Game) -> Option<&Fight> {
    game.play.session().world.get_resource::<Fight>()
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
pub fn sheet(ui: &mut egui::Ui, f: &Fight, id: UnitId) {
    let i = id.0 as usize;
    let (Some(sheet), Some(st)) = (f.sheets.get(i), f.units.get(i)) else {
        return;
    };
    ui.heading(f.name(id));
    let mut status = st.condition.word().to_string();
    if let Condition::Dying { rounds, attempts } = st.condition {
        status = format!("dying: {rounds} rounds left, {attempts} attempts to stabilize");
    }
    if st.blind > 0 {
        status.push_str(&format!(", blinded {} rounds", st.blind));
    }
    if st.forfeit {
        status.push_str(", owes its next action (defended)");
    }
    ui.label(status);
    match &**sheet {
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
            if st.nimble > 0 || c.has(&Tag::Lucky) {
                ui.label(format!(
                    "Nimble dodges left {}   Lucky {}",
                    st.nimble,
                    if f.lucky(id) { "ready" } else { "used or none" }
                ));
            }
        }
        MsSheet::Ship(s) => {
            let a = s.attrs;
            ui.label(format!(
                "Tactical {}  Propulsion {}  Sensors {}  Tonnage {}",
                a.tactical, a.propulsion, a.sensors, a.tonnage
            ));
            ui.label(format!(
                "HP {}/{}   shields {}/{}   Defense {}   soak {}",
                st.hp,
                s.hp,
                st.shields,
                s.shields,
                f.defense(id),
                s.soak
            ));
            if !st.failed.is_empty() {
                ui.colored_label(egui::Color32::LIGHT_RED, format!("Failed: {:?}", st.failed));
            }
            ui.strong("Crew");
            for (c, cs) in s.crew.iter().zip(&st.crew) {
                ui.label(format!(
                    "{} ({:?}): HP {}/{}, Edge {}",
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

/// The action panel of the player's unit whose decision is awaited.
pub fn actions(ui: &mut egui::Ui, game: &mut Game) {
    ui.heading("Actions");
    let me = game.play.awaiting_player().filter(|_| !game.autoplay);
    let Some(me) = me else {
        ui.label(if game.play.session().outcome().is_some() {
            "The battle is over. Restart or open another scenario."
        } else {
            "The AI is acting. Your units act when their turn comes."
        });
        return;
    };
    let Some(f) = fight(game).cloned() else {
        return;
    };
    let map = game.play.session().prepared().map.clone();
    if game.selected.is_none() {
        game.selected = Some(me);
    }
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
                let _ = i;
            }
            if ui.button("No active defense").clicked() {
                chosen = Some(Action::Defend(None));
            }
            for d in f.defenses_open(match f.prompt {
                Some(Prompt::Defend(i)) => i,
                _ => 0,
            }) {
                if ui.button(format!("{d:?}")).clicked() {
                    chosen = Some(Action::Defend(Some(d)));
                }
            }
        }
        Some(Prompt::Reroll) => {
            if let Some(r) = f.attack.as_ref().and_then(|a| a.roll.as_ref()) {
                ui.label(format!(
                    "Your roll came to {} against {}: a miss. Re-roll the die and keep the better?",
                    r.total,
                    r.target.unwrap_or(0)
                ));
            }
            if ui.button("Keep the roll").clicked() {
                chosen = Some(Action::Reroll(None));
            }
            if f.edge(me) > 0
                && ui
                    .button(format!("Spend Edge ({} left)", f.edge(me)))
                    .clicked()
            {
                chosen = Some(Action::Reroll(Some(Reroll::Edge)));
            }
            if f.lucky(me) && ui.button("Lucky (once a scene)").clicked() {
                chosen = Some(Action::Reroll(Some(Reroll::Lucky)));
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
        None => turn(ui, game, &f, &map, me, &mut chosen),
    }
    if let Some(action) = chosen {
        match game.play.decide_ms(action) {
            Ok(()) => {
                game.status = "done".into();
                game.ms_move = None;
            }
            Err(e) => game.status = format!("not allowed: {e}"),
        }
    }
    if !game.status.is_empty() {
        ui.small(&game.status);
    }
}

fn turn(
    ui: &mut egui::Ui,
    game: &mut Game,
    f: &Fight,
    map: &crate::hexmap::HexMap,
    me: UnitId,
    chosen: &mut Option<Action>,
) {
    let Some(t) = f.turn else { return };
    if !t.moved {
        match game.ms_move {
            Some(h) => match f.move_path(map, me, h) {
                Some(path) => {
                    if ui
                        .button(format!(
                            "Move to ({}, {}) ({} hexes)",
                            h.x,
                            h.y,
                            path.len() - 1
                        ))
                        .clicked()
                    {
                        *chosen = Some(Action::Move { to: (h.x, h.y) });
                    }
                }
                None => {
                    ui.label(format!(
                        "({}, {}) is out of reach this turn (one Close band: {} hexes).",
                        h.x,
                        h.y,
                        f.sizes.move_hexes()
                    ));
                }
            },
            None => {
                ui.label(format!(
                    "Move: click a hex within {} hexes on the map.",
                    f.sizes.move_hexes()
                ));
            }
        }
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
        let targets: Vec<UnitId> = f.enemies(me);
        for (wi, w) in f.sheet(me).weapons().iter().enumerate() {
            let rates = if w.rates.is_empty() {
                vec![RateOfFire::Single]
            } else {
                w.rates.clone()
            };
            let reach: Vec<UnitId> = targets
                .iter()
                .copied()
                .filter(|&e| f.why_not_target(map, me, w, e).is_none())
                .collect();
            for rof in rates {
                let most = if w.explosive { 1 } else { rof.max_targets() };
                // Targets in order of the chance to hit, as many as the rate allows.
                let mut ranked: Vec<(i32, UnitId)> = reach
                    .iter()
                    .map(|&e| {
                        let d = f.defense(e) + f.cover(map, f.state(me).pos, e, w).bonus();
                        (d, e)
                    })
                    .collect();
                ranked.sort();
                for k in 1..=most.min(ranked.len()) {
                    if k > 1 && k != most.min(ranked.len()) && k != 2 {
                        continue; // one, two and the most
                    }
                    let chosen_targets: Vec<UnitId> = ranked[..k].iter().map(|r| r.1).collect();
                    let action = Action::Attack {
                        weapon: wi,
                        rof,
                        targets: chosen_targets.clone(),
                        plus_two: false,
                        excellent: false,
                    };
                    if f.check(map, me, &action).is_err() {
                        continue;
                    }
                    let bonus: i32 = f
                        .attack_modifiers(me, w, chosen_targets[0], false)
                        .iter()
                        .map(|m| m.value)
                        .sum();
                    let odds: Vec<String> = ranked[..k]
                        .iter()
                        .enumerate()
                        .map(|(i, (d, e))| {
                            let b = bonus - 2 * i as i32;
                            let st = f.state(*e);
                            format!(
                                "{} {:.0}% ~{:.1}",
                                f.name(*e),
                                hit_chance(b, *d) * 100.0,
                                expected_damage(b, *d, w.damage, f.soak(*e), st.hp + st.shields)
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
            }
            let reload = Action::Reload { weapon: wi };
            if f.check(map, me, &reload).is_ok()
                && ui.button(format!("Reload the {}", w.name)).clicked()
            {
                *chosen = Some(reload);
            }
        }
        for p in f.ids() {
            let a = Action::Stabilize { patient: p };
            if f.check(map, me, &a).is_ok()
                && ui.button(format!("Stabilize {}", f.name(p))).clicked()
            {
                *chosen = Some(a);
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

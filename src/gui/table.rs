//! The game master's window at the table: the dice prompt for a side whose players roll
//! their own dice, and the GM panel (edit a unit's numbers and conditions as its ruleset
//! allows, move, remove or add units, take an AI unit's next decision, choose which sides
//! roll their own dice). Every change goes through `Play` (`play::Play::gm_edit`,
//! `take_over`, `enter_dice`), so it is recorded, saved, replayed and undone like a
//! decision; this module only shows and asks.

use super::Game;
use crate::battle::{Control, GmChange, GmValue, HexPos, Side, Standing, UnitId};
use crate::dice::RollSense;
use bevy_egui::egui;

/// What the table's windows keep between frames.
#[derive(Default)]
pub struct TableState {
    /// The GM panel is open.
    pub show_gm: bool,
    /// The unit the GM panel edits.
    unit: Option<UnitId>,
    /// The reason given with the next edit.
    reason: String,
    /// Let numbers pass the rules' most.
    force: bool,
    /// The numbers being set, by field key, for `unit`.
    numbers: Vec<(&'static str, i32)>,
    /// Where to move `unit`: q, r and facing.
    place: (i32, i32, u8),
    /// The new unit's name and place.
    add: (String, i32, i32, u8),
    /// The faces typed in the dice prompt.
    faces: String,
    /// What the last action said (a refusal, or the change made).
    message: String,
}

/// Shows the dice prompt while a roll waits for faces rolled at the table, over the
/// actions panel right of `map` (the map's area): no action can be chosen while a roll
/// waits, and the map stays clear to show where the units stand when it is made.
pub fn dice_prompt(ctx: &egui::Context, game: &mut Game, state: &mut TableState, map: egui::Rect) {
    let Some(request) = game.play.pending_dice().cloned() else {
        return;
    };
    let name = game.play.session().roster().name(request.unit).to_string();
    egui::Window::new("Roll the dice")
        .collapsible(false)
        .resizable(false)
        .fixed_pos(map.right_top() + egui::vec2(4.0, 4.0))
        .max_width((ctx.content_rect().right() - map.right() - 20.0).max(240.0))
        .show(ctx, |ui| {
            if !request.before.is_empty() {
                // The battle stands before the step that rolls: what it did so far.
                ui.label(egui::RichText::new("Before this roll:").weak());
                egui::ScrollArea::vertical()
                    .max_height(160.0)
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        for line in &request.before {
                            ui.label(egui::RichText::new(line).weak().monospace());
                        }
                    });
                ui.separator();
            }
            ui.heading(format!("{name}: {}", request.purpose));
            ui.label(format!(
                "Roll {} and enter the face{} (1 to {}), separated by spaces.",
                request.dice,
                if request.count == 1 { "" } else { "s" },
                request.sides
            ));
            if !request.entered.is_empty() {
                let so_far: Vec<String> = request.entered.iter().map(u32::to_string).collect();
                ui.label(format!("Entered so far: [{}]", so_far.join(" ")));
            }
            // A roll-under target's first part is the skill itself: "Axe/Mace 14".
            let plain_first = request.sense != RollSense::Over;
            let mods: Vec<String> = request
                .modifiers
                .iter()
                .enumerate()
                .map(|(i, m)| match (m.label.is_empty(), i == 0 && plain_first) {
                    (true, _) => format!("{:+}", m.value),
                    (false, true) => format!("{} {}", m.label, m.value),
                    (false, false) => format!("{} {:+}", m.label, m.value),
                })
                .collect();
            let needs = match (request.sense, request.target) {
                (RollSense::Under, Some(t)) => format!("Needs {t} or less."),
                (RollSense::Over, Some(t)) => format!("Needs {t} or more in all."),
                (RollSense::D12, Some(t)) => format!("The dice need {t} or more."),
                _ => String::new(),
            };
            if !needs.is_empty() {
                ui.label(needs);
            }
            if !mods.is_empty() {
                let what = match request.sense {
                    RollSense::Under => "Target",
                    RollSense::Over => "Modifiers",
                    RollSense::D12 => "Second die when the first is under their sum",
                };
                ui.label(format!("{what}: {}", mods.join(", ")));
            }
            let edit = ui.add(
                egui::TextEdit::singleline(&mut state.faces)
                    .hint_text(vec!["4"; request.count].join(" "))
                    .desired_width(120.0),
            );
            edit.request_focus();
            let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                if ui.button("Enter").clicked() || enter {
                    let parsed: Result<Vec<u32>, _> = state
                        .faces
                        .split(|c: char| c.is_whitespace() || c == ',')
                        .filter(|s| !s.is_empty())
                        .map(str::parse::<u32>)
                        .collect();
                    let result = match parsed {
                        Ok(faces) => game.play.enter_dice(&faces),
                        Err(_) => Err(format!(
                            "`{}` is not {} whole number{}",
                            state.faces.trim(),
                            request.count,
                            if request.count == 1 { "" } else { "s" }
                        )),
                    };
                    match result {
                        Ok(()) => {
                            state.faces.clear();
                            state.message.clear();
                            game.forget_draft();
                        }
                        Err(e) => state.message = e,
                    }
                }
                if ui
                    .button("Undo")
                    .on_hover_text("Take back what rolled it")
                    .clicked()
                {
                    game.undo();
                    state.faces.clear();
                }
            });
            if !state.message.is_empty() && game.play.pending_dice().is_some() {
                ui.colored_label(egui::Color32::LIGHT_RED, &state.message);
            }
        });
}

/// The GM panel, while it is open.
pub fn gm_window(ctx: &egui::Context, game: &mut Game, state: &mut TableState) {
    if !state.show_gm {
        return;
    }
    let mut open = true;
    egui::Window::new("Game master")
        .open(&mut open)
        .default_width(330.0)
        .default_pos(egui::pos2(300.0, 80.0))
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| gm_panel(ui, game, state));
        });
    state.show_gm = open;
}

fn gm_panel(ui: &mut egui::Ui, game: &mut Game, state: &mut TableState) {
    let roster: Vec<(UnitId, String)> = game
        .play
        .session()
        .roster()
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| (UnitId(i as u32), u.name.clone()))
        .collect();
    if let Some(selected) = game.selected
        && state.unit != Some(selected)
    {
        choose(game, state, selected);
    }
    if state.unit.is_none()
        && let Some(&(first, _)) = roster.first()
    {
        choose(game, state, first);
    }
    let Some(unit) = state.unit else {
        ui.label("No unit in this battle.");
        return;
    };
    let name = game.play.session().roster().name(unit).to_string();
    egui::ComboBox::from_label("unit")
        .selected_text(&name)
        .show_ui(ui, |ui| {
            for (id, n) in &roster {
                if ui.selectable_label(*id == unit, n).clicked() {
                    game.selected = Some(*id);
                    choose(game, state, *id);
                }
            }
        });
    ui.horizontal(|ui| {
        ui.label("Reason:");
        ui.add(
            egui::TextEdit::singleline(&mut state.reason)
                .hint_text("falling chandelier")
                .desired_width(200.0),
        );
    });
    ui.separator();
    let fields = game.play.gm_fields(unit);
    if fields.is_empty() {
        ui.label("Its ruleset lets the GM change nothing on it now.");
    }
    let mut change = None;
    egui::Grid::new("gm-fields").num_columns(3).show(ui, |ui| {
        for field in &fields {
            ui.label(field.label.as_ref());
            match field.value {
                GmValue::Number {
                    now,
                    min,
                    max,
                    forced_max,
                } => {
                    let top = if state.force {
                        forced_max.unwrap_or(max).max(max)
                    } else {
                        max
                    };
                    let slot = number_slot(state, field.key, now);
                    ui.add(egui::DragValue::new(slot).range(min..=top));
                    let value = *slot;
                    if ui
                        .add_enabled(value != now, egui::Button::new(format!("Set (now {now})")))
                        .clicked()
                    {
                        change = Some(GmChange::Set {
                            key: field.key.to_string(),
                            value,
                            force: state.force && value > max,
                        });
                    }
                }
                GmValue::Flag(on) => {
                    let mut value = on;
                    if ui.checkbox(&mut value, "").changed() {
                        change = Some(GmChange::Set {
                            key: field.key.to_string(),
                            value: i32::from(value),
                            force: false,
                        });
                    }
                    ui.label("");
                }
                GmValue::Choice { now, options } => {
                    let mut value = now;
                    egui::ComboBox::from_id_salt(field.key)
                        .selected_text(options.get(now).copied().unwrap_or("?"))
                        .show_ui(ui, |ui| {
                            for (i, o) in options.iter().enumerate() {
                                ui.selectable_value(&mut value, i, *o);
                            }
                        });
                    if value != now {
                        change = Some(GmChange::Set {
                            key: field.key.to_string(),
                            value: value as i32,
                            force: false,
                        });
                    }
                    ui.label("");
                }
            }
            ui.end_row();
        }
    });
    if fields.iter().any(|f| {
        matches!(
            f.value,
            GmValue::Number {
                forced_max: Some(_),
                ..
            }
        )
    }) {
        ui.checkbox(&mut state.force, "Force past the rules' maximum");
    }
    ui.separator();
    ui.horizontal(|ui| {
        ui.label("Move to");
        ui.add(egui::DragValue::new(&mut state.place.0).prefix("q "));
        ui.add(egui::DragValue::new(&mut state.place.1).prefix("r "));
        ui.add(
            egui::DragValue::new(&mut state.place.2)
                .range(0..=5)
                .prefix("facing "),
        );
        if ui.button("Move / turn").clicked() {
            change = Some(GmChange::Place {
                at: (state.place.0, state.place.1),
                facing: state.place.2,
            });
        }
    });
    ui.horizontal(|ui| {
        if ui
            .button("Take out of the fight")
            .on_hover_text("It leaves the battle")
            .clicked()
        {
            change = Some(GmChange::Remove);
        }
        let control = unit_control(game, unit);
        if game.play.taken_over(unit) {
            ui.label("Its next decision is yours.");
        } else if matches!(control, Some(Control::Ai(_)))
            && ui
                .button("Take over its next decision")
                .on_hover_text(
                    "Choose its next action yourself, from its action panel; the AI \
                     decides for it again after that",
                )
                .clicked()
        {
            state.message = match game.play.take_over(unit) {
                Ok(()) => format!("{name}'s next decision is yours"),
                Err(e) => e,
            };
        }
    });
    ui.horizontal(|ui| {
        ui.label("Add a copy named");
        ui.add(egui::TextEdit::singleline(&mut state.add.0).desired_width(90.0));
    });
    ui.horizontal(|ui| {
        ui.label("at");
        ui.add(egui::DragValue::new(&mut state.add.1).prefix("q "));
        ui.add(egui::DragValue::new(&mut state.add.2).prefix("r "));
        ui.add(
            egui::DragValue::new(&mut state.add.3)
                .range(0..=5)
                .prefix("facing "),
        );
        if ui.button("Bring in").clicked() {
            change = Some(GmChange::Add {
                name: state.add.0.clone(),
                at: (state.add.1, state.add.2),
                facing: state.add.3,
            });
        }
    });
    if let Some(change) = change {
        let added = matches!(change, GmChange::Add { .. });
        let reason = state.reason.clone();
        state.message = match game.play.gm_edit(unit, change, &reason) {
            Ok(words) => {
                state.reason.clear();
                state.numbers.clear();
                game.forget_draft();
                if added {
                    game.keep_camera = true;
                    game.rebuild = true;
                }
                format!("GM: {name} {words}")
            }
            Err(e) => e,
        };
    }
    if !state.message.is_empty() {
        ui.label(&state.message);
    }
    ui.separator();
    ui.label("Players who roll their own dice:");
    let sides: Vec<(String, String)> = game
        .play
        .session()
        .sides()
        .0
        .iter()
        .map(|s| (s.id.clone(), s.name.clone()))
        .collect();
    for (id, side_name) in sides {
        let mut on = game.play.own_dice(&id);
        if ui
            .checkbox(&mut on, side_name)
            .on_hover_text("The window asks for the faces of this side's rolls")
            .changed()
        {
            game.play.set_own_dice(&id, on);
        }
    }
    ui.label("Every edit is recorded in the save and the log; Undo takes it back.");
}

/// Makes `unit` the one the GM panel edits, with its place filled in.
fn choose(game: &Game, state: &mut TableState, unit: UnitId) {
    state.unit = Some(unit);
    state.numbers.clear();
    let session = game.play.session();
    let Some(entity) = session.roster().entity(unit) else {
        return;
    };
    if let Some(pos) = session.world.get::<HexPos>(entity) {
        state.place.0 = pos.0.x;
        state.place.1 = pos.0.y;
        // A copy comes in on the nearest free hex (its own is taken).
        let taken: Vec<hexx::Hex> = (session.roster().units.iter())
            .filter(|u| {
                session
                    .world
                    .get::<Standing>(u.entity)
                    .is_some_and(|s| s.fighting())
            })
            .filter_map(|u| session.world.get::<HexPos>(u.entity).map(|p| p.0))
            .collect();
        let map = session.world.resource::<crate::hexmap::HexMap>();
        let at = map
            .nearest_open(pos.0, |h| taken.contains(&h))
            .unwrap_or(pos.0);
        state.add.1 = at.x;
        state.add.2 = at.y;
    }
    if let Some(f) = session.world.get::<crate::battle::Facing>(entity) {
        state.place.2 = f.0.index();
    }
    state.add.0 = format!("{} II", session.roster().name(unit));
}

/// The value being typed for field `key`, starting at `now`.
fn number_slot<'a>(state: &'a mut TableState, key: &'static str, now: i32) -> &'a mut i32 {
    let i = match state.numbers.iter().position(|(k, _)| *k == key) {
        Some(i) => i,
        None => {
            state.numbers.push((key, now));
            state.numbers.len() - 1
        }
    };
    &mut state.numbers[i].1
}

/// Who decides for `unit` now (the AI, a player), if it is in the fight.
fn unit_control(game: &Game, unit: UnitId) -> Option<Control> {
    let session = game.play.session();
    let entity = session.roster().entity(unit)?;
    let world = &session.world;
    let fighting = world.get::<Standing>(entity).is_some_and(|s| s.fighting());
    let _ = world.get::<Side>(entity)?;
    fighting
        .then(|| world.get::<crate::battle::Controller>(entity).map(|c| c.0))
        .flatten()
}

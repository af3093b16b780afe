//! The egui panels: the top bar (scenario menu, save and load, undo, AI pace, overlays),
//! the turn tracker and unit sheet on the left, the actions of the unit whose turn it is
//! (with the odds preview) on the right, the combat log at the bottom (every roll opens
//! to its dice and labelled modifiers; filters; copy as text); the windows of the analysis
//! (`analysis`) and of the table (`table`) are opened from the top bar.

use super::map::{MapViewport, Pointer, terrain_colour, terrain_name};
use super::{Game, Toggles};
use crate::battle::{
    BattleEvent, LogEntry, OutcomeKind, Roster, Sides, Standing, TurnState, UnitId, format_event,
};
use crate::dice::RollRecord;
use crate::hexmap::{Cover, Terrain};
use crate::play::Play;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Kinds of log entries, for the filter.
const KINDS: [&str; 6] = ["moves", "attacks", "damage", "rolls", "status", "notes"];

/// State of the panels between frames.
#[derive(Resource)]
pub struct PanelState {
    open_path: String,
    /// The file Save, Load and Replay name.
    pub(super) save_path: String,
    seed_text: String,
    scenarios: Vec<PathBuf>,
    log_unit: Option<UnitId>,
    log_kinds: [bool; 6],
    log_lines: LogLines,
    log_selected: Option<usize>,
    /// The analysis window: preview, compare, balance.
    analysis: super::analysis::AnalysisState,
    /// The dice prompt and the GM panel.
    table: super::table::TableState,
    /// Exports keep the GM's rolls behind the screen.
    hide_gm_rolls: bool,
    /// An export that would replace this file, asked once: the next export replaces it.
    replace_export: Option<PathBuf>,
}

impl Default for PanelState {
    fn default() -> Self {
        let mut scenarios: Vec<PathBuf> = std::fs::read_dir("scenarios")
            .map(|dir| {
                dir.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                    .collect()
            })
            .unwrap_or_default();
        scenarios.sort();
        Self {
            open_path: String::new(),
            save_path: "battle.save.ron".into(),
            seed_text: String::new(),
            scenarios,
            log_unit: None,
            log_kinds: [true; 6],
            log_lines: LogLines::default(),
            log_selected: None,
            analysis: Default::default(),
            table: Default::default(),
            hide_gm_rolls: false,
            replace_export: None,
        }
    }
}

/// Side `side`'s colour in the panels ([`super::side_colour`]).
fn side_colour(sides: &[crate::battle::SideInfo], side: u8) -> egui::Color32 {
    colour32(super::side_colour(sides, usize::from(side)))
}

fn colour32(c: Color) -> egui::Color32 {
    let c = c.to_srgba();
    egui::Color32::from_rgb(
        (c.red * 255.0) as u8,
        (c.green * 255.0) as u8,
        (c.blue * 255.0) as u8,
    )
}

fn outcome_text(o: OutcomeKind, sides: &Sides) -> String {
    match o {
        OutcomeKind::Victory { side } => format!(
            "Victory for {}",
            sides
                .0
                .get(usize::from(side))
                .map_or("?", |s| s.name.as_str())
        ),
        OutcomeKind::Draw { .. } => "Draw".to_string(),
    }
}

/// Every panel, each frame; records the part of the window left to the map.
#[allow(clippy::too_many_arguments)]
pub fn panels(
    mut contexts: EguiContexts,
    mut game: ResMut<Game>,
    mut state: ResMut<PanelState>,
    mut toggles: ResMut<Toggles>,
    mut viewport: ResMut<MapViewport>,
    pointer: Res<Pointer>,
    mut styled: Local<bool>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let ctx = &ctx;
    if !*styled {
        // The window is cleared to the panel colour (`map::background_colour`) and the map
        // is not drawn under the panels, so they need no fill: software rendering then
        // shades half the window's pixels once instead of twice (README, "Window speed").
        // The dark theme, which that colour is taken from.
        ctx.set_theme(egui::Theme::Dark);
        // Scroll bars shown whenever there is more to scroll to (egui's default shows them
        // only under the pointer: a panel cut off at the window's edge looked complete).
        ctx.all_styles_mut(|s| {
            s.visuals.panel_fill = egui::Color32::TRANSPARENT;
            s.spacing.scroll = egui::style::ScrollStyle::thin();
        });
        // No feathering: egui fringes every shape's edge with a strip of thin triangles
        // for anti-aliasing, a third of the panels' triangles, and software rendering pays
        // for each triangle. The edges are straight and pixel-aligned, the corners'
        // radius two pixels, so the difference is hard to see; text is not affected.
        ctx.tessellation_options_mut(|o| o.feathering = false);
        *styled = true;
    }
    let game = &mut *game;
    let state = &mut *state;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    if game.editing() {
        egui::Panel::top("edit-menu").show(&mut root, |ui| {
            ui.horizontal_wrapped(|ui| super::edit::top_bar(ui, game, &mut state.analysis.show));
        });
        egui::Panel::left("edit-scenario")
            .default_size(260.0)
            .resizable(true)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| super::edit::left_panel(ui, game));
            });
        egui::Panel::right("edit-unit")
            .default_size(340.0)
            .resizable(true)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| super::edit::right_panel(ui, game));
            });
        egui::Panel::bottom("edit-problems")
            .default_size(120.0)
            .resizable(true)
            .show(&mut root, |ui| super::edit::problems_panel(ui, game));
    } else {
        battle_panels(&mut root, game, state, (&mut toggles, &mut viewport));
    }
    let rect = root.available_rect_before_wrap();
    // egui's points are window pixels divided by its zoom (Ctrl + and -).
    let zoom = ctx.zoom_factor();
    viewport.min = Vec2::new(rect.min.x, rect.min.y) * zoom;
    viewport.size = Vec2::new(rect.width(), rect.height()) * zoom;
    viewport.measured = true;
    // The pointer is over the map only inside that rectangle and outside every window.
    viewport.pointer_over_ui = ctx.pointer_hover_pos().is_none_or(|p| {
        !rect.contains(p)
            || ctx
                .layer_id_at(p)
                .is_some_and(|l| l.order != egui::Order::Background)
    }) || ctx.egui_is_using_pointer();
    super::analysis::window(ctx, game, &mut state.analysis);
    super::edit::message_note(ctx, game, rect);
    if !game.editing() {
        super::table::gm_window(ctx, game, &mut state.table);
        super::table::dice_prompt(ctx, game, &mut state.table, rect);
    }
    if let Some(error) = game.error.clone() {
        let mut open = true;
        egui::Window::new("Problem")
            .open(&mut open)
            .default_width(560.0)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| ui.monospace(&error));
            });
        if !open {
            game.error = None;
        }
    }
    // The pointer note: path cost or distance, next to the pointer.
    if let (Some(note), Some(screen)) = (super::window(game).pointer_note(game), pointer.screen) {
        egui::Area::new(egui::Id::new("hover-note"))
            .fixed_pos(egui::pos2(screen.x + 16.0, screen.y + 12.0) / ctx.zoom_factor())
            .interactable(false)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| ui.label(&note));
            });
    }
    Ok(())
}

/// The battle's panels: the top bar, the tracker and sheet, the actions, the log.
fn battle_panels(
    root: &mut egui::Ui,
    game: &mut Game,
    state: &mut PanelState,
    (toggles, viewport): (&mut Toggles, &mut MapViewport),
) {
    top_bar(root, game, state, toggles, viewport);
    egui::Panel::left("tracker")
        .default_size(250.0)
        .resizable(true)
        .show(root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                tracker(ui, game);
                ui.separator();
                let selected_side = game.selected.and_then(|id| {
                    let roster = game.play.session().roster();
                    roster.units.get(id.0 as usize).map(|e| e.side)
                });
                if selected_side.is_some_and(|s| game.hides(s)) {
                    // The panel as with nothing selected: the legend and what the ruleset
                    // shows of the battle, without that unit's sheet.
                    ui.label("Another side's sheet: hidden (View, Fog of sheets).");
                    let selected = game.selected.take();
                    super::window(game).sheet_panel(ui, game);
                    game.selected = game.selected.or(selected);
                } else {
                    super::window(game).sheet_panel(ui, game);
                }
            });
        });
    egui::Panel::right("actions")
        .default_size(320.0)
        .resizable(true)
        .show(root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                super::window(game).actions_panel(ui, game);
            });
        });
    egui::Panel::bottom("log")
        .default_size(190.0)
        .resizable(true)
        .show(root, |ui| log_panel(ui, game, state));
}

/// Opens a scenario file in place of the current battle, or shows why it cannot.
fn open_scenario(game: &mut Game, path: &Path) {
    match crate::rules::builtin().load(path) {
        Ok(p) => {
            let seed = game.play.session().seed();
            let play = Play::new(Arc::new(p), path.to_path_buf(), seed);
            game.replace(play, path.to_path_buf());
            game.status = format!("opened {}", path.display());
        }
        Err(e) => game.error = Some(e.render(false)),
    }
}

fn top_bar(
    root: &mut egui::Ui,
    game: &mut Game,
    state: &mut PanelState,
    toggles: &mut Toggles,
    viewport: &mut MapViewport,
) {
    egui::Panel::top("menu").show(root, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.menu_button("Scenario", |ui| {
                for path in state.scenarios.clone() {
                    if ui.button(path.display().to_string()).clicked() {
                        open_scenario(game, &path);
                        ui.close();
                    }
                }
                ui.separator();
                ui.horizontal(|ui| {
                    ui.label("File:");
                    ui.text_edit_singleline(&mut state.open_path);
                    // No path, no file to open (it read as an error with a blank name).
                    let typed = !state.open_path.trim().is_empty();
                    if ui
                        .add_enabled(typed, egui::Button::new("Open"))
                        .on_disabled_hover_text("Type a scenario file's path first")
                        .clicked()
                    {
                        let path = PathBuf::from(state.open_path.trim());
                        open_scenario(game, &path);
                        ui.close();
                    }
                });
            });
            if ui
                .button("Edit")
                .on_hover_text("Edit this scenario: units, terrain, sides, stat blocks")
                .clicked()
            {
                game.start_editing();
                return;
            }
            if ui
                .button("Restart")
                .on_hover_text("The same battle again, same dice")
                .clicked()
            {
                let seed = game.play.session().seed();
                game.play.restart(seed);
                game.forget_draft();
                game.rebuild = true;
            }
            if ui
                .button("New dice")
                .on_hover_text("Start over with a new seed (or the one typed here)")
                .clicked()
            {
                let seed = state
                    .seed_text
                    .trim()
                    .parse()
                    .unwrap_or_else(|_| game.play.session().seed().wrapping_add(1));
                game.play.restart(seed);
                game.forget_draft();
                game.rebuild = true;
            }
            ui.add(
                egui::TextEdit::singleline(&mut state.seed_text)
                    .hint_text("seed")
                    .desired_width(60.0),
            );
            if ui
                .button("Undo")
                .on_hover_text("Take back your last decision (Ctrl+Z)")
                .clicked()
            {
                game.undo();
            }
            ui.separator();
            ui.add(egui::TextEdit::singleline(&mut state.save_path).desired_width(130.0));
            if ui.button("Save").clicked() {
                let path = PathBuf::from(state.save_path.trim());
                match game.play.save(&path) {
                    Ok(()) => game.status = format!("saved to {}", path.display()),
                    Err(e) => game.error = Some(e.to_string()),
                }
            }
            if ui.button("Load").clicked() {
                let path = PathBuf::from(state.save_path.trim());
                match Play::load(&path) {
                    Ok(play) => {
                        let scenario = play.scenario_file().to_path_buf();
                        game.replace(play, scenario);
                        game.status = format!("loaded {}", path.display());
                    }
                    Err(e) => game.error = Some(e.render(false)),
                }
            }
            if ui
                .button("Replay")
                .on_hover_text("Play the saved battle's decisions back as a demonstration")
                .clicked()
            {
                let path = PathBuf::from(state.save_path.trim());
                match Play::load_for_replay(&path) {
                    Ok(play) => {
                        let scenario = play.scenario_file().to_path_buf();
                        game.replace(play, scenario);
                        game.playing = true;
                        game.status = format!("replaying {}", path.display());
                    }
                    Err(e) => game.error = Some(e.render(false)),
                }
            }
            ui.separator();
            let label = if game.playing { "Pause" } else { "Play" };
            if ui
                .button(label)
                .on_hover_text("AI turns play by themselves (Space)")
                .clicked()
            {
                game.playing = !game.playing;
            }
            if ui.button("Step").on_hover_text("One AI turn (N)").clicked() {
                game.step_once = true;
            }
            ui.add(
                egui::Slider::new(&mut game.speed, 0.5..=20.0)
                    .text("turns/s")
                    .logarithmic(true),
            );
            if ui
                .checkbox(&mut game.autoplay, "AI plays all")
                .on_hover_text("A demonstration: the AI plays your sides too")
                .changed()
            {
                game.forget_draft();
            }
            super::window(game).menus(ui, game);
            ui.separator();
            ui.toggle_value(&mut state.analysis.show, "Preview odds")
                .on_hover_text(
                    "Many battles headless: who wins, compare with another file, balance a side",
                );
            ui.toggle_value(&mut state.table.show_gm, "GM")
                .on_hover_text(
                    "The game master's panel: edit units, take an AI unit's next decision, \
                     let players roll their own dice",
                );
            ui.menu_button("View", |ui| {
                ui.checkbox(&mut toggles.coordinates, "Hex coordinates");
                ui.checkbox(&mut toggles.reachable, "Reachable hexes");
                ui.checkbox(&mut toggles.ranges, "Range rings / reach");
                ui.checkbox(&mut toggles.names, "Every unit's name")
                    .on_hover_text(
                        "On: every name that fits without covering another (point at a token \
                         for its name). Off: only the selected, the acting and the pointed-at \
                         unit's names",
                    );
                ui.checkbox(&mut game.fog_of_sheets, "Fog of sheets (hot seat)")
                    .on_hover_text(
                        "Several players at one screen: hide the sheets and states of the sides \
                         other than the one deciding",
                    );
                if ui.button("Fit map (F)").clicked() {
                    viewport.fit_map = true;
                    ui.close();
                }
                ui.separator();
                ui.label("Where the rule texts leave a choice:")
                    .on_hover_text("Each decision with its section, code and test");
                ui.hyperlink_to("docs/rules-decisions.md", "docs/rules-decisions.md");
            });
            if !game.status.is_empty() {
                ui.separator();
                ui.label(&game.status);
            }
        });
    });
}

/// Round, phase, order of play and whose turn it is; every unit with its state.
fn tracker(ui: &mut egui::Ui, game: &mut Game) {
    let session = game.play.session();
    let turn = session.world.resource::<TurnState>().clone();
    let roster: Roster = session.roster().clone();
    let sides = session.sides().clone();
    ui.heading(&session.prepared().name);
    ui.label(format!(
        "Round {}, phase: {}, seed {}",
        turn.round,
        if turn.phase.is_empty() {
            "-"
        } else {
            turn.phase
        },
        session.seed()
    ));
    // Hot seat: with several sides played here, the turn is named by its side.
    let players = (session.prepared().sides.iter())
        .filter(|s| s.control == crate::battle::Control::Player)
        .count();
    let mut viewer = game.viewer;
    if let Some(o) = session.outcome() {
        ui.strong(outcome_text(o, &sides));
    } else if let Some(u) = turn.awaiting {
        let side = roster.units.get(u.0 as usize).map(|e| e.side);
        let who = if game.play.awaiting_player() == Some(u) && !game.autoplay {
            viewer = side.or(viewer);
            match side.and_then(|s| sides.0.get(usize::from(s))) {
                Some(s) if players > 1 => format!("{}'s turn", s.name),
                _ => "your turn".to_string(),
            }
        } else {
            "AI".to_string()
        };
        ui.label(format!("Now: {} ({who})", roster.name(u)));
    }
    let fighting: Vec<bool> = (roster.units.iter())
        .map(|e| (session.world.get::<Standing>(e.entity)).is_some_and(|s| s.fighting()))
        .collect();
    let (later, out) = beside_the_order(&turn.order, &fighting);
    let mut select = None;
    let mut unit_row = |ui: &mut egui::Ui, id: UnitId, now: bool| {
        let Some(entry) = roster.units.get(id.0 as usize) else {
            return;
        };
        let world = &session.world;
        let standing = world
            .get::<Standing>(entry.entity)
            .copied()
            .unwrap_or(Standing::Dead);
        // The unit's state as its ruleset sums it up (GURPS: its hit points).
        let hp = session
            .prepared()
            .rules
            .unit_line(world, entry.entity, id)
            .trim_start_matches(", ")
            .to_string();
        let hp = if game.hides(entry.side) {
            String::new()
        } else {
            hp
        };
        ui.horizontal(|ui| {
            ui.monospace(if now { ">" } else { " " });
            let name = egui::RichText::new(&entry.name)
                .color(side_colour(&session.prepared().sides, entry.side));
            let name = if standing.fighting() {
                name
            } else {
                name.strikethrough()
            };
            if ui
                .selectable_label(game.selected == Some(id), name)
                .clicked()
            {
                select = Some(id);
            }
            // Cut to the panel's width (the whole line on hover), so that a long state
            // does not widen the panel.
            ui.add(egui::Label::new(format!("{} {hp}", standing.word())).truncate());
        });
    };
    let row = ui.spacing().interact_size.y;
    if !turn.order.is_empty() {
        ui.label("Order of play:");
        egui::ScrollArea::vertical()
            .id_salt("order")
            .max_height(260.0)
            .show_rows(ui, row, turn.order.len(), |ui, range| {
                for i in range {
                    let id = turn.order[i];
                    let now =
                        Some(id) == turn.awaiting || (i == turn.cursor && turn.awaiting.is_none());
                    unit_row(ui, id, now);
                }
            });
    }
    let lists = [
        (
            later,
            if turn.order.is_empty() {
                "Units (the order of play is not settled yet):"
            } else {
                "Not yet in this round's order:"
            },
            "later",
        ),
        (out, "Out of the fight:", "out"),
    ];
    for (units, heading, salt) in lists {
        if units.is_empty() {
            continue;
        }
        ui.label(heading);
        egui::ScrollArea::vertical()
            .id_salt(salt)
            .max_height(260.0)
            .show_rows(ui, row, units.len(), |ui, range| {
                for i in range {
                    let id = units[i];
                    unit_row(ui, id, Some(id) == turn.awaiting);
                }
            });
    }
    if let Some(id) = select {
        game.selected = Some(id);
    }
    game.viewer = viewer;
}

/// The units the tracker lists after the order of play `order`, by unit id: those still
/// fighting (`fighting`, by unit id) that are not in it yet, where a ruleset settles the
/// order as the round goes (Vergeworlds' Action Points, a Main Sequence ship battle before
/// its first turn); and those out of the fight that it leaves out (every ruleset but GURPS
/// drops them from the order). Found in one pass: a mass battle has thousands of units,
/// every frame.
fn beside_the_order(order: &[UnitId], fighting: &[bool]) -> (Vec<UnitId>, Vec<UnitId>) {
    let mut in_order = vec![false; fighting.len()];
    for id in order {
        if let Some(seen) = in_order.get_mut(id.0 as usize) {
            *seen = true;
        }
    }
    (0..fighting.len())
        .filter(|&i| !in_order[i])
        .map(|i| UnitId(i as u32))
        .partition(|id| fighting[id.0 as usize])
}

/// Terrain colours and the hex scale.
pub(super) fn legend(ui: &mut egui::Ui, game: &Game) {
    let prepared = game.play.session().prepared();
    let map = &prepared.map;
    ui.label(format!("1 hex = {} {}", map.scale, map.unit));
    let open = match super::window(game).backdrop(prepared) {
        super::ruleset::Backdrop::Ground => None,
        super::ruleset::Backdrop::Space => Some((super::map::space_colour(), "open space")),
        super::ruleset::Backdrop::Sky => Some((super::map::sky_colour(0.5), "open sky")),
    };
    if let Some((colour, words)) = open {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, colour32(colour));
            ui.label(words);
        });
    }
    // The kinds of ground the scenario has, found once (over space or sky only).
    let mut present: Vec<Terrain> = Vec::new();
    if open.is_some() {
        for &t in prepared.file.map.terrain.values() {
            if !present.contains(&t) {
                present.push(t);
            }
        }
    }
    for t in [
        Terrain::Open,
        Terrain::Difficult,
        Terrain::Cover(Cover::Light),
        Terrain::Cover(Cover::Half),
        Terrain::Cover(Cover::Heavy),
        Terrain::Blocked,
    ] {
        // Over space or sky, only the ground the scenario has (usually none) is listed.
        if open.is_some() && (t == Terrain::Open || !present.contains(&t)) {
            continue;
        }
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter()
                .rect_filled(rect, 2.0, colour32(terrain_colour(t)));
            ui.label(terrain_name(t));
        });
    }
    ui.small("Drag with the right button or use the arrow keys to pan; wheel to zoom; F fits.");
}

/// The kind of a log entry, an index into [`KINDS`].
fn kind_of(event: &BattleEvent) -> usize {
    match event {
        BattleEvent::Moved { .. } | BattleEvent::Knockback { .. } => 0,
        BattleEvent::Attack { .. } | BattleEvent::ActionChosen { .. } => 1,
        BattleEvent::Damage { .. } => 2,
        BattleEvent::Roll { .. } => 3,
        BattleEvent::StatusChanged { .. } | BattleEvent::BattleEnded { .. } => 4,
        _ => 5,
    }
}

/// The units an event is about.
fn units_of(event: &BattleEvent) -> Vec<UnitId> {
    match event {
        BattleEvent::TurnStarted { unit }
        | BattleEvent::ActionChosen { unit, .. }
        | BattleEvent::Moved { unit, .. }
        | BattleEvent::Knockback { unit, .. }
        | BattleEvent::Roll { unit, .. }
        | BattleEvent::StatusChanged { unit, .. }
        | BattleEvent::Rejected { unit, .. } => vec![*unit],
        BattleEvent::Attack {
            attacker, target, ..
        } => vec![*attacker, *target],
        BattleEvent::Damage {
            attacker, target, ..
        } => attacker.iter().copied().chain([*target]).collect(),
        BattleEvent::Note { unit, .. } => unit.iter().copied().collect(),
        _ => Vec::new(),
    }
}

/// The rolls in an event, each with what it was for.
fn rolls_of(event: &BattleEvent) -> Vec<(String, &RollRecord)> {
    match event {
        BattleEvent::Attack { roll, defenses, .. } => {
            let mut v = vec![("attack".to_string(), roll)];
            v.extend(defenses.iter().map(|d| (format!("{}", d.defense), &d.roll)));
            v
        }
        BattleEvent::Damage { roll, .. } => vec![("damage".to_string(), roll)],
        BattleEvent::Roll { purpose, roll, .. } => vec![(purpose.to_string(), roll)],
        _ => Vec::new(),
    }
}

/// The details column of the combat log: the opened line's rolls (or its text when it
/// has none), or how to open one.
fn log_details(ui: &mut egui::Ui, entry: Option<&LogEntry>, roster: &Roster, sides: &Sides) {
    match entry {
        Some(e) => {
            ui.label(format!("Round {}", e.round));
            let rolls = rolls_of(&e.event);
            if rolls.is_empty() {
                ui.monospace(format_event(&e.event, roster, sides));
            }
            for (what, roll) in rolls {
                roll_details(ui, &what, roll);
            }
        }
        None => {
            ui.label(
                "Click an underlined line to open its rolls: dice, labelled modifiers, target \
                 and margin.",
            );
        }
    }
}

/// One roll in the details column: what it was for, its dice and modifiers.
fn roll_details(ui: &mut egui::Ui, what: &str, roll: &RollRecord) {
    ui.label(egui::RichText::new(what).strong());
    ui.monospace(format!(
        "{} rolled {:?} = {}",
        roll.dice, roll.faces, roll.total
    ));
    for m in &roll.modifiers {
        ui.monospace(format!("  {:+3}  {}", m.value, m.label));
    }
    if let Some(target) = roll.target {
        ui.monospace(format!(
            "  target {target}, margin {}{}",
            roll.margin.map_or("-".to_string(), |m| format!("{m:+}")),
            roll.critical
                .map_or(String::new(), |c| format!(", critical {c:?}"))
        ));
        // A target made of parts (a Vergeworlds difficulty and the defense's degree).
        for m in &roll.target_parts {
            ui.monospace(format!("    {:+3}  {}", m.value, m.label));
        }
    }
}

/// The log's lines as shown with the current filter, built incrementally, and the same
/// lines wrapped to the panel's width in characters (the log is monospace, so one row of
/// text is one row of the list and the list still draws only the rows in view).
#[derive(Default)]
pub struct LogLines {
    /// (entry index, line text).
    lines: Vec<(usize, String)>,
    /// Entries read so far.
    read: usize,
    /// The filter the lines were built with.
    filter: Option<(Option<UnitId>, [bool; 6])>,
    /// `lines` wrapped: (entry index, row text).
    rows: Vec<(usize, String)>,
    /// Lines of `lines` wrapped into `rows` so far.
    wrapped: usize,
    /// The width in characters `rows` were wrapped to.
    columns: usize,
}

/// `line` cut into rows of at most `width` characters, at spaces where it can be; rows after
/// the first are indented two more than the line (so a wrapped line reads as one).
pub fn wrap_line(line: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    if line.chars().count() <= width {
        return vec![line.to_string()];
    }
    let indent = line.chars().take_while(|c| *c == ' ').count() + 2;
    let pad = " ".repeat(indent.min(width / 2));
    let mut rows = Vec::new();
    let mut rest: Vec<char> = line.chars().collect();
    let mut first = true;
    while !rest.is_empty() {
        let room = if first { width } else { width - pad.len() };
        if rest.len() <= room {
            let row: String = rest.iter().collect();
            rows.push(if first { row } else { format!("{pad}{row}") });
            break;
        }
        // the last space within the room (not the leading indent), else a hard cut
        let lead = if first { indent - 2 } else { 0 };
        let cut = (lead + 1..=room)
            .rev()
            .find(|&i| rest[i - 1] == ' ')
            .unwrap_or(room);
        let row: String = rest[..cut]
            .iter()
            .collect::<String>()
            .trim_end()
            .to_string();
        rows.push(if first { row } else { format!("{pad}{row}") });
        rest.drain(..cut);
        while rest.first() == Some(&' ') {
            rest.remove(0);
        }
        first = false;
    }
    rows
}

fn log_panel(ui: &mut egui::Ui, game: &mut Game, state: &mut PanelState) {
    let session = game.play.session();
    let roster = session.roster().clone();
    let sides = session.sides().clone();
    let entries = &session.log().entries;
    let filter = (state.log_unit, state.log_kinds);
    let cache = &mut state.log_lines;
    if cache.filter != Some(filter) || cache.read > entries.len() {
        *cache = LogLines {
            filter: Some(filter),
            ..LogLines::default()
        };
    }
    for (i, e) in entries.iter().enumerate().skip(cache.read) {
        if !filter.1[kind_of(&e.event)] {
            continue;
        }
        if filter.0.is_some_and(|u| !units_of(&e.event).contains(&u)) {
            continue;
        }
        let text = format_event(&e.event, &roster, &sides);
        for line in text.lines() {
            cache.lines.push((i, line.to_string()));
        }
    }
    cache.read = entries.len();
    let mut export = None;
    // Wrapped: on a narrow window the export buttons go to a second row, not off the edge.
    ui.horizontal_wrapped(|ui| {
        ui.strong("Combat log");
        egui::ComboBox::from_id_salt("log-unit")
            .selected_text(state.log_unit.map_or("all units", |u| roster.name(u)))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut state.log_unit, None, "all units");
                for (i, u) in roster.units.iter().enumerate() {
                    ui.selectable_value(&mut state.log_unit, Some(UnitId(i as u32)), &u.name);
                }
            });
        for (i, k) in KINDS.iter().enumerate() {
            ui.checkbox(&mut state.log_kinds[i], *k);
        }
        if ui.button("Copy as text").clicked() {
            let mut text = String::new();
            for (_, line) in &state.log_lines.lines {
                text.push_str(line);
                text.push('\n');
            }
            ui.ctx().copy_text(text);
            game.status = "log copied".into();
        }
        // The whole battle to share, beside the save file's name (battle.log.md, .html).
        for (label, format, ext) in [
            ("Export Markdown", crate::share::Format::Markdown, "md"),
            ("Export HTML", crate::share::Format::Html, "html"),
        ] {
            if ui
                .button(label)
                .on_hover_text("The battle's log with every roll, a heading a round (skirmish log)")
                .clicked()
            {
                let save = state.save_path.trim();
                let stem = save
                    .strip_suffix(".save.ron")
                    .or_else(|| save.strip_suffix(".ron"))
                    .unwrap_or(save);
                export = Some((format, PathBuf::from(format!("{stem}.log.{ext}"))));
            }
        }
        ui.checkbox(&mut state.hide_gm_rolls, "hide GM rolls")
            .on_hover_text(
                "In the exports, the rolls of the AI's sides (the GM's) show what they decided, \
                 not their dice (skirmish log --hide-gm-rolls)",
            );
    });
    let row = ui.text_style_height(&egui::TextStyle::Monospace);
    let selected = state.log_selected;
    let mut clicked = None;
    let log_lines = &mut state.log_lines;
    // The log's lines take most of the width; the details of the line opened the rest.
    two_columns(ui, LOG_SHARE, |columns| {
        // Wrap to the column's width in monospace characters (the scroll bar's room kept).
        let font = egui::TextStyle::Monospace.resolve(columns[0].style());
        let glyph = columns[0].fonts_mut(|f| f.glyph_width(&font, 'M')).max(1.0);
        let width = ((columns[0].available_width() - 16.0) / glyph)
            .floor()
            .max(8.0) as usize;
        if log_lines.columns != width || log_lines.wrapped > log_lines.lines.len() {
            log_lines.rows.clear();
            log_lines.wrapped = 0;
            log_lines.columns = width;
        }
        for (entry, line) in &log_lines.lines[log_lines.wrapped..] {
            for r in wrap_line(line, width) {
                log_lines.rows.push((*entry, r));
            }
        }
        log_lines.wrapped = log_lines.lines.len();
        let lines = &log_lines.rows;
        egui::ScrollArea::vertical()
            .id_salt("log-lines")
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show_rows(&mut columns[0], row, lines.len(), |ui, range| {
                // One row of text per list row: lines are wrapped above.
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                for (entry, line) in &lines[range] {
                    let rolls = entries
                        .get(*entry)
                        .is_some_and(|e| !rolls_of(&e.event).is_empty());
                    let text = egui::RichText::new(line).monospace();
                    let text = if rolls { text.underline() } else { text };
                    let r = ui
                        .add(egui::Button::selectable(selected == Some(*entry), text).frame(false))
                        .on_hover_text(if rolls {
                            "Click to see the dice and modifiers"
                        } else {
                            ""
                        });
                    if r.clicked() {
                        clicked = Some(*entry);
                    }
                }
            });
        let ui = &mut columns[1];
        egui::ScrollArea::vertical()
            .id_salt("log-details")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                // Not justified: a justified label spreads the letters of a wrapped line's
                // first row over the width, and past it.
                ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                    log_details(ui, selected.and_then(|i| entries.get(i)), &roster, &sides)
                })
            });
    });
    if let Some(i) = clicked {
        state.log_selected = Some(i);
    }
    if let Some((_, path)) = &export
        && path.exists()
        && state.replace_export.as_ref() != Some(path)
    {
        game.status = format!("{} exists: export again to replace it", path.display());
        state.replace_export = Some(path.clone());
    } else if let Some((format, path)) = export {
        state.replace_export = None;
        let text =
            crate::share::export_for_players(game.play.session_mut(), format, state.hide_gm_rolls);
        match std::fs::write(&path, text) {
            Ok(()) => game.status = format!("log written to {}", path.display()),
            Err(e) => game.error = Some(format!("cannot write {}: {e}", path.display())),
        }
    }
}

/// The share of the combat log's width its lines take, beside the opened line's rolls.
const LOG_SHARE: f32 = 0.62;

/// [`egui::Ui::columns`] for two columns, the first `share` of the width (`columns` splits
/// it evenly).
fn two_columns<R>(
    ui: &mut egui::Ui,
    share: f32,
    add_contents: impl FnOnce(&mut [egui::Ui; 2]) -> R,
) -> R {
    let spacing = ui.spacing().item_spacing.x;
    let room = (ui.available_width() - spacing).max(0.0);
    let widths = [(room * share).floor(), room - (room * share).floor()];
    let top_left = ui.cursor().min;
    let bottom = ui.max_rect().bottom();
    let column = |ui: &mut egui::Ui, left: f32, width: f32| {
        let rect = egui::Rect::from_min_max(
            top_left + egui::vec2(left, 0.0),
            egui::pos2(top_left.x + left + width, bottom),
        );
        let mut child = ui.new_child(
            egui::UiBuilder::new()
                .max_rect(rect)
                .layout(egui::Layout::top_down_justified(egui::Align::LEFT)),
        );
        child.set_width(width);
        child
    };
    let mut columns = [
        column(ui, 0.0, widths[0]),
        column(ui, widths[0] + spacing, widths[1]),
    ];
    let result = add_contents(&mut columns);
    let height = columns
        .iter()
        .map(|c| c.min_size().y)
        .fold(0.0f32, f32::max);
    let width = ui.available_width();
    ui.advance_cursor_after_rect(egui::Rect::from_min_size(
        top_left,
        egui::vec2(width, height),
    ));
    result
}

#[cfg(test)]
mod tests {
    use super::beside_the_order;
    use crate::battle::UnitId;

    /// Units 0-4: 1 and 3 in the order; 4 out of the fight and not in it (a destroyed
    /// SOCS craft), 2 out of the fight and in it (a fallen GURPS fighter keeps its place).
    /// After the order come 0 (fighting, not yet in it), then 4 (out of the fight).
    #[test]
    fn the_tracker_lists_every_unit_once() {
        let fighting = [true, true, false, true, false];
        let order = [UnitId(3), UnitId(1), UnitId(2)];
        let (later, out) = beside_the_order(&order, &fighting);
        assert_eq!(later, [UnitId(0)]);
        assert_eq!(out, [UnitId(4)]);
        // No order yet: every fighting unit is still to be placed.
        let (later, out) = beside_the_order(&[], &[true, true]);
        assert_eq!((later.len(), out.len()), (2, 0));
        // An id beyond the roster in the order is passed over, not a panic.
        let (later, _) = beside_the_order(&[UnitId(9)], &[true]);
        assert_eq!(later, [UnitId(0)]);
    }
}

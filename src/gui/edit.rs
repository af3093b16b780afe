//! The scenario editor in the window (`skirmish edit`, **Edit** in the top bar): tools to
//! select, move, place and delete units and to paint terrain on the map; the sides; the
//! selected unit's form with its ruleset's fields and the ruleset's settings, each checked
//! as typed; Save, Undo and Redo; Play and Preview run the edited scenario without saving.
//!
//! Every change is a call to [`Editor`], which checks it as `skirmish check` does; the
//! window shows the last scenario that checked (rebuilt after each change) and lists the
//! problems of the one being edited next to the fields they are about.

use super::Game;
use crate::battle::{AiStyle, Control, UnitId};
use crate::editor::Editor;
use crate::format::{Path, PathSeg};
use crate::hexmap::{Cover, MapShape, Terrain};
use crate::play::Play;
use crate::scenario::SideSpec;
use bevy::prelude::{ButtonInput, KeyCode, MouseButton};
use bevy_egui::egui;
use hexx::Hex;
use std::collections::BTreeMap;

/// What a left click on the map does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tool {
    /// Selects the unit clicked; with a unit selected, a click on a free hex moves it there;
    /// a unit dragged moves where it is let go.
    Select,
    /// Places a copy of the selected unit on the hex clicked.
    Place,
    /// Paints the hex clicked.
    Paint(Terrain),
    /// Gives the selected unit (or the unit dragged from) the starting vector that carries
    /// it to the hex clicked (or let go on): Traveller ships, Vergeworlds movers.
    Vector,
}

/// The editor's state in the window.
pub struct EditState {
    /// The scenario being edited.
    pub editor: Editor,
    /// What a click does.
    pub tool: Tool,
    /// The unit selected (by its place in the file).
    pub selected: Option<usize>,
    /// The text in each field of the form (name, text), in the format's order, while it
    /// is typed.
    form: Vec<(String, String)>,
    /// Whose form `form` holds (`None`: the ruleset's settings' form).
    form_of: Option<Option<usize>>,
    /// The reader's complaint about a field's text, by field name.
    refused: BTreeMap<String, String>,
    /// Copies to add.
    copies: u32,
    /// Where Save writes.
    save_path: String,
    /// A unit being dragged, and the hex the drag started on.
    dragging: Option<(usize, Hex)>,
    /// The selected unit's name while it is typed.
    unit_name: String,
    /// Each side's name while it is typed, in side order.
    side_names: Vec<String>,
    /// A path that exists and is not the scenario's: a second Save replaces it.
    replace: Option<std::path::PathBuf>,
    /// The last thing the editor said.
    pub message: String,
    /// The ruleset a New was chosen for while there were unsaved changes: choosing it
    /// again discards them.
    discard: Option<String>,
    /// Whether the map shows this scenario (all of it, or without the units that have
    /// problems); false while it shows another version ([`sync`]).
    shows_file: bool,
}

impl EditState {
    /// The scenario's file: where it was opened or saved, or (never saved) where Save
    /// will write it.
    pub fn shown_path(&self) -> std::path::PathBuf {
        self.editor.path().map_or_else(
            || std::path::PathBuf::from(self.save_path.trim()),
            std::path::Path::to_path_buf,
        )
    }

    /// The editor on `editor`'s scenario.
    pub fn new(editor: Editor) -> Self {
        let save_path = editor
            .path()
            .map_or("new-scenario.ron".into(), |p| p.display().to_string());
        Self {
            editor,
            tool: Tool::Select,
            selected: None,
            form: Vec::new(),
            form_of: None,
            refused: BTreeMap::new(),
            copies: 1,
            save_path,
            dragging: None,
            unit_name: String::new(),
            side_names: Vec::new(),
            replace: None,
            message: String::new(),
            shows_file: false,
            discard: None,
        }
    }
}

/// Shows the edited scenario on the map: the battle at its start when it checks (the last
/// one that did otherwise), the camera where it was, the selected unit selected.
pub fn sync(game: &mut Game) {
    let Some(edit) = &mut game.edit else { return };
    let shown = edit.editor.shown();
    edit.shows_file = shown.is_some();
    if shown.is_none() {
        // The map keeps another version: none of its tokens is the unit selected in the
        // file (one just deleted stayed ringed on the map).
        game.selected = None;
    }
    if let Some(prepared) = shown {
        // Not saved yet: the file Save will write (a battle saved meanwhile names it).
        let path = edit.shown_path();
        let seed = game.play.session().seed();
        let play = Play::new(prepared, path.clone(), seed);
        // Selection by place in the file; the map shows units by place in what it shows
        // (the same unless units with problems are left out).
        let selected = edit.selected.and_then(|i| edit.editor.shown_index(i));
        game.replace(play, path);
        game.keep_camera = true;
        game.selected = selected.map(|i| UnitId(i as u32));
    }
}

/// Applies what is still being typed in the form and the names (before a Save, a Play or
/// another selection), so that nothing typed is lost; what the reader refuses stays in
/// its field with the reason (the fields applied with it too). False when something was
/// refused.
fn flush(game: &mut Game) -> bool {
    let Some(edit) = &mut game.edit else {
        return true;
    };
    let mut changed = false;
    let mut refused = false;
    if let Some(unit) = edit.form_of {
        let current = match unit {
            Some(u) => edit.editor.stat_fields(u),
            None => edit.editor.ruleset_fields(),
        }
        .unwrap_or_default();
        for (name, text) in edit.form.clone() {
            if current.iter().any(|(n, v)| *n == name && *v != text) {
                let result = match unit {
                    Some(u) => edit.editor.set_stat_field(u, &name, &text),
                    None => edit.editor.set_ruleset_field(&name, &text),
                };
                match result {
                    Ok(()) => changed = true,
                    Err(why) => {
                        edit.refused.insert(name, why.clone());
                        edit.message = why;
                        refused = true;
                    }
                }
            }
        }
        if let Some(u) = unit
            && let Some(spec) = edit.editor.file().units.get(u)
            && spec.name != edit.unit_name.trim()
        {
            match edit.editor.rename(u, &edit.unit_name) {
                Ok(()) => changed = true,
                Err(why) => {
                    edit.message = why;
                    refused = true;
                }
            }
        }
    }
    let sides = edit.editor.file().sides.clone();
    for (i, side) in sides.iter().enumerate() {
        let Some(typed) = edit.side_names.get(i) else {
            continue;
        };
        let shown = side.name.clone().unwrap_or_else(|| side.id.clone());
        if typed.trim() != shown && !typed.trim().is_empty() {
            let named = (typed.trim() != side.id).then(|| typed.trim().to_string());
            let spec = SideSpec {
                name: named,
                ..side.clone()
            };
            if edit.editor.set_side(i, spec).is_ok() {
                changed = true;
            }
        }
    }
    if changed {
        // The form keeps what was typed, the refused values with their reasons included.
        let typed = (
            edit.form_of,
            edit.form.clone(),
            edit.refused.clone(),
            edit.unit_name.clone(),
        );
        let message = edit.message.clone();
        after(game, "changes applied", Ok(()));
        if refused && let Some(edit) = &mut game.edit {
            (edit.form_of, edit.form, edit.refused, edit.unit_name) = typed;
            edit.message = message;
        }
    }
    !refused
}

/// Says what `result` of a change was, and shows the scenario after it.
fn after(game: &mut Game, done: &str, result: Result<(), String>) {
    let Some(edit) = &mut game.edit else { return };
    match result {
        Ok(()) => {
            edit.message = done.to_string();
            edit.form_of = None;
            // A New asked for before this change asks again.
            edit.discard = None;
            if edit.selected >= Some(edit.editor.file().units.len()) {
                edit.selected = None;
            }
            sync(game);
        }
        Err(why) => edit.message = why,
    }
}

/// Mouse and keys on the map while editing: the tool's click, Delete, R and Shift+R to
/// turn, Ctrl+Z and Ctrl+Y.
pub fn input(
    game: &mut Game,
    hex: Option<Hex>,
    buttons: &ButtonInput<MouseButton>,
    keys: &ButtonInput<KeyCode>,
    typing: bool,
) {
    let Some(edit) = &mut game.edit else { return };
    if !typing {
        let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
        let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
        if ctrl && (keys.just_pressed(KeyCode::KeyZ) || keys.just_pressed(KeyCode::KeyY)) {
            undo_or_redo(game, keys.just_pressed(KeyCode::KeyZ));
            return;
        }
        if let Some(unit) = edit.selected {
            if keys.just_pressed(KeyCode::Delete) {
                let result = edit.editor.delete(unit);
                edit.selected = None;
                after(game, "deleted", result);
                return;
            }
            if keys.just_pressed(KeyCode::KeyR) {
                let result = edit.editor.rotate(unit, !shift);
                after(game, "turned", result);
                return;
            }
        }
    }
    let Some(hex) = hex else {
        if buttons.just_released(MouseButton::Left) {
            edit.dragging = None;
        }
        return;
    };
    // A drag that started on a unit ends where the button is let go: the unit moves there
    // (Select), or heads there (Vector).
    if buttons.just_released(MouseButton::Left)
        && let Some((u, start)) = edit.dragging.take()
        && hex != start
    {
        let result = match edit.tool {
            Tool::Vector => edit.editor.aim(u, hex),
            _ => edit.editor.move_unit(u, hex),
        };
        after(game, "dragged", result);
        return;
    }
    if !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let on = edit.editor.unit_at(hex);
    if let (Tool::Select | Tool::Vector, Some(u)) = (edit.tool, on) {
        edit.dragging = Some((u, hex));
    }
    match (edit.tool, on, edit.selected) {
        (Tool::Select | Tool::Vector, Some(u), _) => {
            if edit.selected != Some(u) {
                flush(game);
            }
            let Some(edit) = &mut game.edit else { return };
            edit.selected = Some(u);
            edit.message = format!("selected {}", edit.editor.file().units[u].name);
            game.selected = edit.editor.shown_index(u).map(|i| UnitId(i as u32));
        }
        (Tool::Select, None, Some(u)) => {
            let result = edit.editor.move_unit(u, hex);
            after(game, "moved", result);
        }
        (Tool::Select, None, None) => edit.message = "click a unit to select it".into(),
        (Tool::Place, _, None) => edit.message = "select the unit to copy first".into(),
        (Tool::Place, _, Some(like)) => match edit.editor.place(like, hex) {
            Ok(i) => {
                edit.selected = Some(i);
                after(game, "placed a copy", Ok(()));
            }
            Err(why) => edit.message = why,
        },
        (Tool::Paint(t), ..) => {
            let result = edit.editor.paint(hex, t);
            after(game, "painted", result);
        }
        (Tool::Vector, _, Some(u)) => {
            let result = edit.editor.aim(u, hex);
            after(game, "vector set", result);
        }
        (Tool::Vector, _, None) => edit.message = "select a unit, then click where it heads".into(),
    }
}

/// Takes the last change back (`undo`) or makes it again, and clears the selection (the
/// unit at a place in the list may be another one now).
fn undo_or_redo(game: &mut Game, undo: bool) {
    let Some(edit) = &mut game.edit else { return };
    edit.selected = None;
    let changed = if undo {
        edit.editor.undo()
    } else {
        edit.editor.redo()
    };
    let result = match (changed, undo) {
        (true, _) => Ok(()),
        (false, true) => Err("nothing to undo".to_string()),
        (false, false) => Err("nothing to redo".to_string()),
    };
    let done = if undo {
        "took back the last change"
    } else {
        "made the change again"
    };
    after(game, done, result);
}

/// The editor's top bar: Save (to the path typed), Undo, Redo, Play, Preview, the tools.
pub fn top_bar(ui: &mut egui::Ui, game: &mut Game, show_preview: &mut bool) {
    let Some(edit) = &mut game.edit else { return };
    ui.label(egui::RichText::new("Editing").strong());
    ui.add(egui::TextEdit::singleline(&mut edit.save_path).desired_width(200.0));
    if ui
        .button("Save")
        .on_hover_text("Write the scenario to this file")
        .clicked()
    {
        if !flush(game) {
            if let Some(edit) = &mut game.edit {
                edit.message = format!("not saved: {}", edit.message);
            }
            return;
        }
        let Some(edit) = &mut game.edit else { return };
        let path = std::path::PathBuf::from(edit.save_path.trim());
        let other = edit.editor.path() != Some(path.as_path());
        if other && path.exists() && edit.replace.as_ref() != Some(&path) {
            edit.message = format!("{} exists: Save again to replace it", path.display());
            edit.replace = Some(path);
            return;
        }
        edit.replace = None;
        match edit.editor.save(Some(&path)) {
            Ok(p) => {
                edit.message = match edit.editor.problems().len() {
                    0 => format!("saved to {}", p.display()),
                    n => format!(
                        "saved to {} with {n} problem{} (below the map): check refuses it until \
                         they are mended",
                        p.display(),
                        if n == 1 { "" } else { "s" }
                    ),
                };
                sync(game);
            }
            Err(why) => edit.message = why,
        }
        return;
    }
    if ui.button("Undo").on_hover_text("Ctrl+Z").clicked() {
        undo_or_redo(game, true);
        return;
    }
    if ui.button("Redo").on_hover_text("Ctrl+Y").clicked() {
        undo_or_redo(game, false);
        return;
    }
    ui.separator();
    let checks = edit.editor.prepared().is_some();
    if ui
        .add_enabled(checks, egui::Button::new("Play"))
        .on_hover_text("Fight the edited scenario (unsaved changes included)")
        .on_disabled_hover_text("The scenario has problems (listed below the map)")
        .clicked()
    {
        flush(game);
        let Some(edit) = game.edit.take() else { return };
        if edit.editor.prepared().is_none() {
            game.edit = Some(edit);
            return;
        }
        game.status = if edit.editor.dirty() {
            "playing the edited scenario (not saved: a battle saved now names the file as \
             it is on disk; Edit comes back to the edit)"
                .into()
        } else {
            "playing the edited scenario".into()
        };
        game.paused_edit = Some(edit);
        game.playing = false;
        let seed = game.play.session().seed();
        game.play.restart(seed);
        game.rebuild = true;
        game.keep_camera = true;
        return;
    }
    if ui
        .add_enabled(checks, egui::Button::new("Preview"))
        .on_hover_text("Fight it many times headless: who wins, how often")
        .clicked()
    {
        flush(game);
        *show_preview = true;
        return;
    }
    ui.separator();
    ui.label("Tool:");
    ui.selectable_value(&mut edit.tool, Tool::Select, "Select / move")
        .on_hover_text("Click a unit to select it, then a free hex to move it there");
    ui.selectable_value(&mut edit.tool, Tool::Place, "Place copy")
        .on_hover_text("Click a free hex: a copy of the selected unit stands there");
    if edit.editor.has_vectors() {
        ui.selectable_value(&mut edit.tool, Tool::Vector, "Vector")
            .on_hover_text("Click where the selected unit heads: its starting vector");
    }
    let ruleset = edit.editor.file().ruleset.ruleset();
    if ruleset.uses_terrain() {
        ui.label("Paint:");
        for (name, t) in [
            ("Open", Terrain::Open),
            ("Difficult", Terrain::Difficult),
            ("Blocked", Terrain::Blocked),
            ("Light cover", Terrain::Cover(Cover::Light)),
            ("Half cover", Terrain::Cover(Cover::Half)),
            ("Heavy cover", Terrain::Cover(Cover::Heavy)),
        ] {
            ui.selectable_value(&mut edit.tool, Tool::Paint(t), name)
                .on_hover_text("Paint the hexes clicked");
        }
    } else {
        ui.label(egui::RichText::new(format!("{} ignores terrain", ruleset.id())).weak())
            .on_hover_text("Its map only pictures the battle: there is no terrain to paint");
    }
    let mut renewed = false;
    ui.menu_button("New", |ui| {
        for r in crate::rules::builtin().rulesets() {
            if ui.button(r.id()).clicked() {
                // Unsaved changes are thrown away only when asked twice.
                if edit.editor.dirty()
                    && (edit.editor.path().is_some() || edit.editor.can_undo())
                    && edit.discard.as_deref() != Some(r.id())
                {
                    edit.discard = Some(r.id().to_string());
                    edit.message = format!(
                        "unsaved changes: Save first, or choose New {} again to discard them",
                        r.id()
                    );
                    ui.close();
                    continue;
                }
                match Editor::new(crate::rules::builtin(), r.id(), None) {
                    Ok(editor) => {
                        *edit = EditState::new(editor);
                        edit.message = format!("a new {} scenario", r.id());
                        renewed = true;
                    }
                    Err(why) => edit.message = why,
                }
                ui.close();
            }
        }
    })
    .response
    .on_hover_text("Start a new scenario of a ruleset (its minimal battle)");
    if renewed {
        // Another scenario: drawn anew and framed on its units.
        sync(game);
        game.keep_camera = false;
    }
}

/// What the last action said (saved, refused, selected), over the top left corner of the
/// map (`map`, its area) until the next one or a click on it: in the top bar it took a row
/// of its own and moved the map.
pub fn message_note(ctx: &egui::Context, game: &mut Game, map: egui::Rect) {
    let Some(edit) = &mut game.edit else { return };
    if edit.message.is_empty() {
        return;
    }
    let clicked = egui::Area::new(egui::Id::new("edit-message"))
        .fixed_pos(map.left_top() + egui::vec2(8.0, 8.0))
        .show(ctx, |ui| {
            ui.set_max_width((map.width() - 16.0).max(120.0));
            egui::Frame::popup(ui.style())
                .show(ui, |ui| {
                    ui.add(egui::Label::new(&edit.message).sense(egui::Sense::click()))
                        .on_hover_text("Click to dismiss")
                })
                .inner
                .clicked()
        })
        .inner;
    if clicked {
        edit.message.clear();
    }
}

/// The left panel: the map's size and the ruleset's settings, the sides, the units.
pub fn left_panel(ui: &mut egui::Ui, game: &mut Game) {
    let Some(edit) = &mut game.edit else { return };
    let file = edit.editor.file().clone();
    ui.heading(&file.name);
    ui.label(format!(
        "{} · {} units",
        edit.editor
            .prepared()
            .map_or(file.ruleset.ruleset().id(), |p| p.ruleset),
        file.units.len()
    ));
    ui.separator();
    ui.strong("Map");
    let mut reshaped = None;
    match file.map.shape {
        MapShape::Hexagon { radius } => {
            let mut r = radius;
            let slider = ui.add(egui::Slider::new(&mut r, 1..=200).text("radius"));
            // Applied when the drag ends: one change, not one a frame.
            if r != radius && !slider.dragged() {
                reshaped = Some(MapShape::Hexagon { radius: r });
            }
        }
        MapShape::Rectangle { columns, rows } => {
            let (mut c, mut r) = (columns, rows);
            let a = ui.add(egui::Slider::new(&mut c, 1..=400).text("columns"));
            let b = ui.add(egui::Slider::new(&mut r, 1..=400).text("rows"));
            if (c, r) != (columns, rows) && !a.dragged() && !b.dragged() {
                reshaped = Some(MapShape::Rectangle {
                    columns: c,
                    rows: r,
                });
            }
        }
    }
    if let Some(shape) = reshaped {
        let result = edit.editor.reshape(shape);
        after(game, "map resized", result);
        return;
    }
    ui.separator();
    ui.strong("Sides");
    // Names are typed into buffers and applied when the field is left (or before a Save).
    if edit.side_names.len() != file.sides.len() || edit.form_of.is_none() {
        edit.side_names = (file.sides.iter())
            .map(|s| s.name.clone().unwrap_or_else(|| s.id.clone()))
            .collect();
    }
    let mut name_left = false;
    for (i, side) in file.sides.iter().enumerate() {
        let shown = super::colour_for(side.colour, i).to_srgba();
        let mut rgb = [shown.red, shown.green, shown.blue].map(|c| (c * 255.0).round() as u8);
        let mut picked = side.colour;
        let mut control = side.control;
        ui.horizontal(|ui| {
            if ui.color_edit_button_srgb(&mut rgb).changed() {
                picked = Some((rgb[0], rgb[1], rgb[2]));
            }
            ui.label(&side.id);
            if let Some(name) = edit.side_names.get_mut(i) {
                let field = ui.add(egui::TextEdit::singleline(name).desired_width(110.0));
                name_left |= field.lost_focus();
            }
        });
        ui.horizontal(|ui| {
            ui.radio_value(&mut control, Control::Player, "Player");
            ui.radio_value(&mut control, Control::Ai(AiStyle::Aggressive), "AI bold");
            ui.radio_value(&mut control, Control::Ai(AiStyle::Cautious), "AI careful");
        });
        if control != side.control || picked != side.colour {
            let spec = SideSpec {
                control,
                colour: picked,
                ..side.clone()
            };
            let result = edit.editor.set_side(i, spec);
            after(game, "side changed", result);
            return;
        }
    }
    if name_left {
        flush(game);
        return;
    }
    ui.separator();
    ui.strong("Units");
    for (i, unit) in file.units.iter().enumerate() {
        let chosen = edit.selected == Some(i);
        let text = format!(
            "{} ({}) at ({}, {})",
            unit.name, unit.side, unit.at.0, unit.at.1
        );
        if ui.selectable_label(chosen, text).clicked() {
            select_unit(game, i);
            return;
        }
    }
}

/// The width of a field of the form, and of the problems noted beside it.
const FIELD_WIDTH: f32 = 200.0;

/// The colour of a problem.
const PROBLEM_COLOUR: egui::Color32 = egui::Color32::from_rgb(240, 110, 90);

/// A change asked for in a panel, made once the panel is drawn.
type Change = (String, Box<dyn FnOnce(&mut Editor) -> Result<(), String>>);

/// The right panel: the selected unit's form (or the ruleset's settings when none is).
pub fn right_panel(ui: &mut egui::Ui, game: &mut Game) {
    let Some(edit) = &mut game.edit else { return };
    let unit = edit
        .selected
        .filter(|&u| u < edit.editor.file().units.len());
    let current = match unit {
        Some(u) => edit.editor.stat_fields(u),
        None => edit.editor.ruleset_fields(),
    }
    .unwrap_or_default();
    if edit.form_of != Some(unit) {
        edit.form = current.clone();
        edit.form_of = Some(unit);
        edit.refused.clear();
        edit.unit_name = unit
            .and_then(|u| edit.editor.file().units.get(u))
            .map_or(String::new(), |s| s.name.clone());
    }
    let mut change: Option<Change> = None;
    let at = match unit {
        Some(u) => Path::root().field("units").index(u),
        None => Path::root().field("ruleset"),
    };
    match unit {
        Some(u) => unit_header(ui, edit, u, &mut change),
        None => {
            ui.heading("Ruleset settings");
            ui.label("Select a unit on the map or in the list for its stat block.");
        }
    }
    ui.separator();
    let problems = edit.editor.problems_at(&at);
    // The problems no field of the form is about (where the unit stands, its side, its
    // template, its whole stat block) go above the form.
    let about = |p: &String, name: &str| {
        p.contains(&format!(".{name}:")) || p.contains(&format!(".{name}["))
    };
    for note in problems
        .iter()
        .filter(|p| !edit.form.iter().any(|(name, _)| about(p, name)))
    {
        let note = egui::RichText::new(note.as_str()).color(PROBLEM_COLOUR);
        ui.add(egui::Label::new(note).wrap());
    }
    let mut commit: Option<(String, String)> = None;
    egui::Grid::new("form")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for (name, text) in &mut edit.form {
                ui.label(name.as_str());
                let response = ui.add(egui::TextEdit::singleline(text).desired_width(FIELD_WIDTH));
                let was = current.iter().find(|(n, _)| n == name).map(|(_, v)| v);
                if response.lost_focus() && was != Some(text) {
                    commit = Some((name.clone(), text.clone()));
                }
                ui.end_row();
                let mut notes: Vec<String> = problems
                    .iter()
                    .filter(|p| about(p, name))
                    .cloned()
                    .collect();
                notes.extend(edit.refused.get(name).cloned());
                for note in notes {
                    ui.label("");
                    // Wrapped to the field's width: an unwrapped note (a list of every
                    // weapon the catalog has) widened the panel over the map.
                    ui.vertical(|ui| {
                        ui.set_max_width(FIELD_WIDTH);
                        let note = egui::RichText::new(note).color(PROBLEM_COLOUR);
                        ui.add(egui::Label::new(note).wrap());
                    });
                    ui.end_row();
                }
            }
        });
    if let Some((name, text)) = commit {
        let result = match unit {
            Some(u) => edit.editor.set_stat_field(u, &name, &text),
            None => edit.editor.set_ruleset_field(&name, &text),
        };
        match result {
            Ok(()) => {
                edit.refused.remove(&name);
                after(game, &format!("{name} set"), Ok(()));
            }
            Err(why) => {
                edit.refused.insert(name, why.clone());
                edit.message = why;
            }
        }
        return;
    }
    if let Some((done, f)) = change
        && let Some(edit) = &mut game.edit
    {
        let result = f(&mut edit.editor);
        after(game, &done, result);
    }
}

/// The selected unit's name, side and buttons (turn, delete, copies).
fn unit_header(ui: &mut egui::Ui, edit: &mut EditState, u: usize, change: &mut Option<Change>) {
    let spec = edit.editor.file().units[u].clone();
    ui.heading(&spec.name);
    let left = ui
        .horizontal(|ui| {
            ui.label("name");
            ui.text_edit_singleline(&mut edit.unit_name).lost_focus()
        })
        .inner;
    // Applied when the field is left, so that a name can be typed letter by letter.
    if left && edit.unit_name.trim() != spec.name {
        let name = edit.unit_name.clone();
        *change = Some((
            "renamed".into(),
            Box::new(move |e: &mut Editor| e.rename(u, &name)),
        ));
    }
    let mut side = spec.side.clone();
    let ids: Vec<String> = edit
        .editor
        .file()
        .sides
        .iter()
        .map(|s| s.id.clone())
        .collect();
    egui::ComboBox::from_label("side")
        .selected_text(&side)
        .show_ui(ui, |ui| {
            for id in &ids {
                ui.selectable_value(&mut side, id.clone(), id);
            }
        });
    if side != spec.side {
        *change = Some((
            "side changed".into(),
            Box::new(move |e: &mut Editor| e.set_unit_side(u, &side)),
        ));
    }
    ui.horizontal(|ui| {
        if ui.button("Turn (R)").clicked() {
            *change = Some((
                "turned".into(),
                Box::new(move |e: &mut Editor| e.rotate(u, true)),
            ));
        }
        if ui.button("Delete (Del)").clicked() {
            edit.selected = None;
            *change = Some((
                "deleted".into(),
                Box::new(move |e: &mut Editor| e.delete(u)),
            ));
        }
        ui.add(egui::DragValue::new(&mut edit.copies).range(1..=50));
        if ui.button("Add copies").clicked() {
            let n = edit.copies as usize;
            *change = Some((
                "copies added".into(),
                Box::new(move |e: &mut Editor| e.add_copies(u, n).map(|_| ())),
            ));
        }
    });
    if let Some(t) = &spec.template {
        ui.label(format!(
            "from template \"{t}\" (an edit gives it its own stat block)"
        ));
    }
    if ui.button("Ruleset settings").clicked() {
        edit.selected = None;
    }
}

/// Below the map: the problems `check` finds in the edited scenario.
pub fn problems_panel(ui: &mut egui::Ui, game: &mut Game) {
    let Some(edit) = &game.edit else { return };
    let problems = edit.editor.problems();
    if problems.is_empty() {
        ui.label("The scenario checks: Play and Preview fight it as it stands.");
        return;
    }
    let map = if edit.shows_file {
        "the map leaves out the units that have them"
    } else {
        // Without them a side has no units, or no unit is left: nothing of it checks.
        "nothing of this scenario can be shown until they are mended, so the map shows \
         the last version that could be (or the ruleset's new scenario)"
    };
    ui.colored_label(
        PROBLEM_COLOUR,
        format!(
            "{} problem(s); {map} (Play and Preview wait until none is left):",
            problems.len()
        ),
    );
    let units = &edit.editor.file().units;
    let mut select = None;
    egui::ScrollArea::vertical().show(ui, |ui| {
        for p in problems {
            // Where `check` would point in the file, while the scenario is the file.
            let at = edit
                .editor
                .line_of(&p.path)
                .map_or(String::new(), |(line, col)| format!("{line}:{col}: "));
            match problem_unit(&p.path) {
                // A unit's problem names the unit; a click selects it (its form shows the
                // problem beside the field).
                Some(i) if i < units.len() => {
                    let text = format!("{at}{} ({}): {}", units[i].name, p.path, p.message);
                    let link = egui::Button::new(egui::RichText::new(text).monospace())
                        .frame(false)
                        .wrap();
                    if ui
                        .add(link)
                        .on_hover_text("Select the unit: its form shows the problem")
                        .clicked()
                    {
                        select = Some(i);
                    }
                }
                _ => {
                    ui.monospace(format!("{at}{}: {}", p.path, p.message));
                }
            }
        }
    });
    if let Some(i) = select {
        select_unit(game, i);
    }
}

/// Selects unit `i` of the file (in the left panel's list, or by its problem): what is
/// still typed in the form is applied first, and the map selects its token if it shows one.
fn select_unit(game: &mut Game, i: usize) {
    flush(game);
    if let Some(edit) = &mut game.edit {
        edit.selected = Some(i);
        game.selected = edit.editor.shown_index(i).map(|i| UnitId(i as u32));
    }
}

/// The unit (its place in the file) a problem's path is about, if it is about one.
fn problem_unit(path: &Path) -> Option<usize> {
    match path.0.as_slice() {
        [PathSeg::Field(units), PathSeg::Index(i), ..] if units == "units" => Some(*i),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::problem_unit;
    use crate::format::Path;

    /// A problem inside `units[2]` is about the third unit; one in a template or the
    /// ruleset is about none.
    #[test]
    fn a_problem_names_its_unit() {
        let weapon = Path::root().field("units").index(2).field("stats");
        assert_eq!(problem_unit(&weapon.field("weapons").index(0)), Some(2));
        assert_eq!(problem_unit(&Path::root().field("units").index(0)), Some(0));
        let template = Path::root().field("templates").key("raider");
        assert_eq!(problem_unit(&template), None);
        assert_eq!(problem_unit(&Path::root().field("units")), None);
        assert_eq!(problem_unit(&Path::root()), None);
    }
}

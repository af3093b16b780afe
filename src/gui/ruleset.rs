//! The window side of the ruleset contract: what each ruleset shows in the window (the
//! unit sheet in the left panel, the actions open to the awaited unit in the right one,
//! its own marks on the map), behind one trait, so that the window's panels and map loop
//! over the rulesets and name none. Each ruleset implements it in its own window file
//! (`gurps.rs`, `ships.rs`, `ms.rs`, `space_map.rs`, `verge.rs`); `gui::window_for`
//! is the one list of them.

use super::Game;
use super::layout::MapLayout;
use crate::battle::UnitId;
use bevy::prelude::{Color, Gizmos};
use bevy_egui::egui;
use hexx::Hex;

/// Draws a hex's outline at a scale (1 = the hex itself), as the map draws its rings.
pub type Ring<'a> = &'a dyn Fn(&mut Gizmos, Hex, Color, f32);

/// What a ruleset shows in the window.
pub trait RulesetWindow: Sync {
    /// The ruleset's id (its `Ruleset::ID`).
    fn id(&self) -> &'static str;

    /// The left panel under the turn tracker: the selected unit's sheet and what the
    /// ruleset keeps beside it (range boards, the map's legend).
    fn sheet_panel(&self, ui: &mut egui::Ui, game: &mut Game);

    /// The right panel: the decision awaited from the player, with its odds.
    fn actions_panel(&self, ui: &mut egui::Ui, game: &mut Game);

    /// The ruleset's own marks on the map (vectors, range bands, paths, ...), with the
    /// window's switches and the hovered hex in `marks`.
    fn map_marks(
        &self,
        gizmos: &mut Gizmos,
        layout: &MapLayout,
        game: &Game,
        ring: Ring,
        marks: MapMarks,
    ) {
        let _ = (gizmos, layout, game, ring, marks);
    }

    /// A note to show next to the pointer over the map (a path's cost, a distance), if the
    /// ruleset has one for the hovered hex.
    fn pointer_note(&self, game: &Game) -> Option<String> {
        let _ = game;
        None
    }

    /// A left click on the map at `hex` (on `unit`, if one stands there); true when the
    /// ruleset took it (a target, a destination), false to let the click select the unit.
    fn click(&self, game: &mut Game, hex: Hex, unit: Option<UnitId>) -> bool {
        let _ = (game, hex, unit);
        false
    }

    /// A right click on the map (drops a planned move).
    fn right_click(&self, game: &mut Game) {
        let _ = game;
    }

    /// Enter: confirms the decision being put together, if the ruleset drafts one.
    fn confirm(&self, game: &mut Game) {
        let _ = game;
    }

    /// The player's unit `unit` is to decide (called every frame while it is).
    fn player_turn(&self, game: &mut Game, unit: UnitId) {
        let _ = (game, unit);
    }

    /// Every frame: brings what the window shows of the decision up to date with the
    /// hovered hex.
    fn refresh(&self, game: &mut Game, pointer: Option<Hex>) {
        let _ = (game, pointer);
    }

    /// The ruleset's own menus in the top bar (GURPS: "Add from GCS file").
    fn menus(&self, ui: &mut egui::Ui, game: &mut Game) {
        let _ = (ui, game);
    }

    /// What the map's open hexes stand for in this scenario: ground (the default), space
    /// or open sky ([`Backdrop`]).
    fn backdrop(&self, prepared: &crate::scenario::Prepared) -> Backdrop {
        let _ = prepared;
        Backdrop::Ground
    }
}

/// What the open hexes of a map are drawn as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backdrop {
    /// Ground: grass.
    Ground,
    /// Space: night with stars (ships of starship-d12, SOCS, Traveller, Main Sequence).
    Space,
    /// Open sky, paler towards the bottom of the map (Vergeworlds fliers).
    Sky,
}

/// The window's switches for the ruleset's map marks, and the hovered hex.
#[derive(Clone, Copy, Debug)]
pub struct MapMarks {
    /// Range marks (bands, weapon ranges) are on.
    pub ranges: bool,
    /// The hexes the acting unit can reach are shown.
    pub reachable: bool,
    /// The hex under the pointer.
    pub pointer: Option<Hex>,
}

/// The window of a ruleset that brings none (one registered by a program of its own): the
/// map, the turn tracker, the log and the AI's play work; the panels say what is missing.
pub struct Plain;

impl RulesetWindow for Plain {
    fn id(&self) -> &'static str {
        ""
    }

    fn sheet_panel(&self, ui: &mut egui::Ui, _: &mut Game) {
        ui.label("This ruleset has no sheet in the window.");
    }

    fn actions_panel(&self, ui: &mut egui::Ui, _: &mut Game) {
        ui.label("This ruleset has no action panel in the window: let the AI play every side.");
    }
}

/// The selected unit's sheet by `sheet`, or a hint to click one (`what`: "a ship").
pub fn selected_sheet(
    ui: &mut egui::Ui,
    game: &Game,
    what: &str,
    sheet: impl FnOnce(&mut egui::Ui, crate::battle::UnitId),
) {
    match game.selected {
        Some(id) => sheet(ui, id),
        None => {
            ui.label(format!("Click {what} to see its sheet."));
        }
    }
}

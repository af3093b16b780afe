//! The window side of the ruleset contract: what each ruleset shows in the window (the
//! unit sheet in the left panel, the actions open to the awaited unit in the right one,
//! its own marks on the map), behind one trait, so that the window's panels and map loop
//! over the rulesets and name none. Each ruleset implements it in its own window file
//! (`panels.rs` for GURPS, `ships.rs`, `ms.rs`, `space.rs`, `verge.rs`); `gui::window_for`
//! is the one list of them.

use super::Game;
use super::layout::MapLayout;
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

    /// The ruleset's own marks on the map (vectors, range bands, ...); `ranges` is the
    /// window's switch for range marks.
    fn map_marks(
        &self,
        gizmos: &mut Gizmos,
        layout: &MapLayout,
        game: &Game,
        ring: Ring,
        ranges: bool,
    ) {
        let _ = (gizmos, layout, game, ring, ranges);
    }
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

//! GURPS Traveller space on the map: planets (stars in yellow), every mover's velocity as
//! an arrow to the hex it will coast to next turn (its ghost, outlined; a missile's before
//! it steers again), and while the player plans a
//! maneuver the end positions its thrust reaches, the planned course and the ghost of the
//! turn after.

use super::Game;
use super::layout::{HEX_SIZE, MapLayout, vector_arrow};
use crate::battle::{HexPos, Projectile, Standing, Velocity};
use crate::rules::traveller_space::space::{MissileState, Vessels};
use crate::rules::traveller_space::vector;
use bevy::prelude::*;
use hexx::Hex;

/// Draws the Traveller overlays, if the battle is a Traveller space one. `ring` outlines a
/// hex at a scale.
pub fn draw(
    gizmos: &mut Gizmos,
    layout: &MapLayout,
    game: &Game,
    ring: &dyn Fn(&mut Gizmos, Hex, Color, f32),
) {
    let Some((space, ships)) = super::space::space(game) else {
        return;
    };
    let session = game.play.session();
    // Planets: a filled-looking disc of rings.
    for p in &space.planets {
        let c = layout.pos(Hex::new(p.at.0, p.at.1));
        let colour = if p.star {
            Color::srgb(1.0, 0.85, 0.3)
        } else if p.atmosphere {
            Color::srgb(0.3, 0.6, 0.9)
        } else {
            Color::srgb(0.6, 0.6, 0.6)
        };
        // Wider than its hex, so that it shows around a ship in orbit there.
        for k in 2..=9 {
            gizmos.circle_2d(c, HEX_SIZE * 0.13 * k as f32, colour);
        }
    }
    // Every ship's velocity and ghost.
    let white = Color::srgba(1.0, 1.0, 1.0, 0.8);
    if let Some(mut q) = session.world.try_query::<(&HexPos, &Velocity, &Standing)>() {
        for (pos, vel, standing) in q.iter(&session.world) {
            if !standing.fighting() || vel.0 == Hex::ZERO {
                continue;
            }
            let ghost = vector::coast(pos.0, vel.0);
            vector_arrow(gizmos, layout.pos(pos.0), layout.pos(ghost), white);
            ring(gizmos, ghost, Color::srgba(1.0, 1.0, 1.0, 0.5), 0.6);
        }
    }
    // Missiles' vectors, in red.
    if let Some(mut q) = session
        .world
        .try_query_filtered::<(&HexPos, &MissileState), With<Projectile>>()
    {
        for (pos, m) in q.iter(&session.world) {
            if m.velocity() != Hex::ZERO {
                let to = vector::coast(pos.0, m.velocity());
                let red = Color::srgba(1.0, 0.4, 0.3, 0.8);
                vector_arrow(gizmos, layout.pos(pos.0), layout.pos(to), red);
                ring(gizmos, to, Color::srgba(1.0, 0.4, 0.3, 0.5), 0.45);
            }
        }
    }
    // The player's planned maneuver: the reach of its thrust, the planned course and the
    // ghost of the turn after.
    if let Some((me, to)) = super::space::plan(game) {
        let st = ships.ship(me);
        for h in vector::reachable(st.pos, st.vel, space.thrust(ships, me)) {
            ring(gizmos, h, Color::srgba(0.4, 1.0, 0.4, 0.5), 0.85);
        }
        let green = Color::srgb(0.3, 1.0, 0.3);
        vector_arrow(gizmos, layout.pos(st.pos), layout.pos(to), green);
        let next = to + (to - st.pos);
        if next != to {
            vector_arrow(
                gizmos,
                layout.pos(to),
                layout.pos(next),
                Color::srgba(0.3, 1.0, 0.3, 0.4),
            );
            ring(gizmos, next, Color::srgba(0.3, 1.0, 0.3, 0.4), 0.5);
        }
    }
}

/// GURPS Traveller space in the window: the ship sheet and the legend, the maneuver, fire
/// and launch panels, the overlays of `space_map`.
pub struct SpaceWindow;

impl super::ruleset::RulesetWindow for SpaceWindow {
    fn id(&self) -> &'static str {
        use crate::scenario::Ruleset;
        crate::rules::traveller_space::TravellerSpace::ID
    }

    /// Space.
    fn backdrop(&self, _: &crate::scenario::Prepared) -> super::ruleset::Backdrop {
        super::ruleset::Backdrop::Space
    }

    fn click(&self, game: &mut Game, hex: Hex, _: Option<crate::battle::UnitId>) -> bool {
        super::space::click(game, hex)
    }

    fn sheet_panel(&self, ui: &mut bevy_egui::egui::Ui, game: &mut Game) {
        if let Some((sp, ships)) = super::space::space(game) {
            super::ruleset::selected_sheet(ui, game, "a ship", |ui, id| {
                super::space::sheet(ui, sp, ships, id)
            });
        }
        ui.separator();
        let map = &game.play.session().prepared().map;
        ui.label(format!("1 hex = {} {}", map.scale, map.unit));
        ui.small("White arrows: each ship's velocity, to the hex it coasts to next turn (outlined). Red: missiles. Blue discs: planets. Green: where your thrust reaches this turn.");
        ui.small("Drag with the right button or use the arrow keys to pan; wheel to zoom; F fits.");
    }

    fn actions_panel(&self, ui: &mut bevy_egui::egui::Ui, game: &mut Game) {
        super::space::actions(ui, game);
    }

    fn map_marks(
        &self,
        gizmos: &mut bevy::prelude::Gizmos,
        layout: &super::layout::MapLayout,
        game: &Game,
        ring: super::ruleset::Ring,
        _: super::ruleset::MapMarks,
    ) {
        draw(gizmos, layout, game, ring);
    }
}

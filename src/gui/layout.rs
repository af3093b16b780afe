//! Where hexes are in the window's world: the map's hex layout and size, and the arrow the
//! map draws for a velocity (shared by the map, the Traveller overlays and Vergeworlds').

use crate::hexmap::HexMap;
use bevy::prelude::*;
use hexx::{Hex, HexLayout, HexOrientation};

/// Size of a hex in world units (the camera zooms; the layout never changes).
pub const HEX_SIZE: f32 = 32.0;

/// The hex layout of the map being shown.
#[derive(Resource, Clone)]
pub struct MapLayout(pub HexLayout);

impl MapLayout {
    /// The layout for `map`, centred on the origin.
    pub fn for_map(map: &HexMap) -> Self {
        let orientation = match map.orientation() {
            crate::hexmap::Orientation::Pointy => HexOrientation::Pointy,
            crate::hexmap::Orientation::Flat => HexOrientation::Flat,
        };
        let mut layout = HexLayout::new(orientation).with_hex_size(HEX_SIZE);
        // hexx names directions with y growing south; the window's y grows north.
        layout.invert_y();
        Self(layout)
    }

    /// Centre of `hex` in world units.
    pub fn pos(&self, hex: Hex) -> Vec2 {
        self.0.hex_to_world_pos(hex)
    }
}

/// An arrow from `from` to `to` with its head at `to`.
pub(super) fn vector_arrow(gizmos: &mut Gizmos, from: Vec2, to: Vec2, colour: Color) {
    gizmos.line_2d(from, to, colour);
    let dir = (to - from).normalize_or_zero();
    let side = Vec2::new(-dir.y, dir.x) * HEX_SIZE * 0.22;
    let back = to - dir * HEX_SIZE * 0.4;
    gizmos.line_2d(to, back + side, colour);
    gizmos.line_2d(to, back - side, colour);
}

/// An arrow head on the line from `from` to `to`, just short of the token at `to`.
pub(super) fn arrow_head(gizmos: &mut Gizmos, from: Vec2, to: Vec2, colour: Color) {
    let dir = (to - from).normalize_or_zero();
    let tip = to - dir * HEX_SIZE * 0.7;
    let side = Vec2::new(-dir.y, dir.x) * HEX_SIZE * 0.3;
    let back = tip - dir * HEX_SIZE * 0.4;
    gizmos.line_2d(tip, back + side, colour);
    gizmos.line_2d(tip, back - side, colour);
}

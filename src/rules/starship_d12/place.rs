//! Where the map shows the ships. The rules keep range as a band per pair of enemies; the
//! map places the ships so that hex distances reflect the bands ([`Band::hexes`]). A tailer
//! sits behind the ship it tails, which faces away from it.

use super::fleet::{Fleet, Ships};
use super::range::Band;
use crate::battle::UnitId;
use crate::hexmap::HexMap;
use hexx::{EdgeDirection, Hex};

/// New positions for the ships (by unit id) starting from `at`: hex distances follow
/// [`Band::hexes`] ([`crate::battle::place::place`]).
pub fn place(map: &HexMap, fleet: &Fleet, ships: &impl Ships, at: &[Hex]) -> Vec<Hex> {
    let fighting: Vec<bool> = ships.ids().map(|i| ships.in_fight(i)).collect();
    let sides: Vec<u8> = ships.ids().map(|i| ships.side_of(i).unwrap_or(0)).collect();
    crate::battle::place::place(map, at, &fighting, &sides, |a, b| {
        let band = fleet.band(ships, UnitId(a as u32), UnitId(b as u32));
        (band != Band::Escaped).then(|| band.hexes())
    })
}

/// The way each ship faces: away from a ship on its tail, else towards its closest enemy
/// (by band, then unit order); `None` when it has no enemy in range.
pub fn facings(fleet: &Fleet, ships: &impl Ships, at: &[Hex]) -> Vec<Option<EdgeDirection>> {
    ships
        .ids()
        .map(|me| {
            let here = at[me.0 as usize];
            let enemies = ships.enemies(me);
            if let Some(&tailer) = enemies.iter().find(|&&e| fleet.tails(ships, e, me)) {
                let from = at[tailer.0 as usize];
                return (from != here).then(|| from.main_direction_to(here));
            }
            enemies
                .iter()
                .filter(|&&e| fleet.band(ships, me, e) != Band::Escaped)
                .min_by_key(|&&e| (fleet.band(ships, me, e), e))
                .map(|&e| at[e.0 as usize])
                .filter(|&to| to != here)
                .map(|to| here.main_direction_to(to))
        })
        .collect()
}

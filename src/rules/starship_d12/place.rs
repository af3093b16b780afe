//! Where the map shows the ships. The rules keep range as a band per pair of enemies; the
//! map places the ships so that hex distances reflect the bands ([`Band::hexes`]). A tailer
//! sits behind the ship it tails, which faces away from it.

use super::fleet::{Fleet, Ships};
use super::range::{Band, PairRange};
use crate::battle::UnitId;
use crate::battle::place::{PairTable, Placer};
use crate::hexmap::HexMap;
use hexx::{EdgeDirection, Hex};

/// Every pair's range by unit ids (`None` for no pair of enemies), read from the fleet's
/// board once for a redraw of the map.
pub struct Ranges(PairTable<Option<PairRange>>);

impl Ranges {
    /// The fleet's ranges now.
    pub fn of(fleet: &Fleet, ships: &impl Ships) -> Ranges {
        let mut table = PairTable::new(ships.count(), None);
        for (a, b, r) in fleet.pairs(ships) {
            table.set(a, b, Some(r));
        }
        Ranges(table)
    }

    fn get(&self, a: UnitId, b: UnitId) -> Option<PairRange> {
        self.0.get(a, b)
    }

    /// As [`Fleet::band`].
    fn band(&self, a: UnitId, b: UnitId) -> Band {
        self.get(a, b).map_or(Band::Escaped, |r| r.band)
    }

    /// As [`Fleet::tails`].
    fn tails(&self, a: UnitId, b: UnitId) -> bool {
        self.get(a, b).is_some_and(|r| r.tailer == Some(a))
    }
}

/// New positions for the ships (by unit id) starting from `at`: hex distances follow
/// [`Band::hexes`] (through the battle's [`Placer`]).
pub fn place(
    placer: &mut Placer,
    map: &HexMap,
    ranges: &Ranges,
    ships: &impl Ships,
    at: &[Hex],
) -> Vec<Hex> {
    let fighting: Vec<bool> = ships.ids().map(|i| ships.in_fight(i)).collect();
    let sides: Vec<u8> = ships.ids().map(|i| ships.side_of(i).unwrap_or(0)).collect();
    placer.place(map, at, &fighting, &sides, |a, b| {
        let band = ranges.band(UnitId(a as u32), UnitId(b as u32));
        (band != Band::Escaped).then(|| band.hexes())
    })
}

/// The way each ship faces: away from a ship on its tail, else towards its closest enemy
/// (by band, then unit order); `None` when it has no enemy in range.
pub fn facings(ranges: &Ranges, ships: &impl Ships, at: &[Hex]) -> Vec<Option<EdgeDirection>> {
    ships
        .ids()
        .map(|me| {
            let here = at[me.0 as usize];
            let enemies = ships.enemies(me);
            if let Some(&tailer) = enemies.iter().find(|&&e| ranges.tails(e, me)) {
                let from = at[tailer.0 as usize];
                return (from != here).then(|| from.main_direction_to(here));
            }
            enemies
                .iter()
                .filter(|&&e| ranges.band(me, e) != Band::Escaped)
                .min_by_key(|&&e| (ranges.band(me, e), e))
                .map(|&e| at[e.0 as usize])
                .filter(|&to| to != here)
                .map(|to| here.main_direction_to(to))
        })
        .collect()
}

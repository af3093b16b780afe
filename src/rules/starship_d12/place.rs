//! Where the map shows the ships. The rules keep range as a band per pair of enemies; the
//! map places the ships so that hex distances reflect the bands ([`Band::hexes`]): each
//! ship in turn moves (at most two hexes a pass, three passes) to the free hex that best
//! fits its distances to every enemy, keeping one hex from friends. A tailer sits behind
//! the ship it tails, which faces away from it. Deterministic: unit order, fixed tie-breaks.

use super::fleet::Fleet;
use super::range::Band;
use crate::battle::UnitId;
use crate::hexmap::{HexMap, Terrain};
use hexx::{EdgeDirection, Hex};

fn cost(fleet: &Fleet, at: &[Hex], me: UnitId, hex: Hex) -> i64 {
    let mut c = 0i64;
    for other in fleet.fighting() {
        if other == me {
            continue;
        }
        let d = i64::from(hex.unsigned_distance_to(at[other.0 as usize]));
        if fleet.sides[other.0 as usize] == fleet.sides[me.0 as usize] {
            if d < 2 {
                c += 4 * (2 - d) * (2 - d);
            }
            continue;
        }
        let band = fleet.ranges.band(me, other);
        if band == Band::Escaped {
            continue;
        }
        let want = i64::from(band.hexes());
        c += 10 * (d - want) * (d - want);
    }
    c
}

/// New positions for the ships (by unit index) starting from `at`.
pub fn place(map: &HexMap, fleet: &Fleet, at: &[Hex]) -> Vec<Hex> {
    let mut at = at.to_vec();
    for _ in 0..3 {
        for me in fleet.fighting() {
            let here = at[me.0 as usize];
            let mut best = (cost(fleet, &at, me, here), here);
            for hex in here.range(2) {
                let free = map.terrain(hex).is_some_and(|t| t != Terrain::Blocked)
                    && !at
                        .iter()
                        .enumerate()
                        .any(|(i, h)| *h == hex && i != me.0 as usize);
                if !free {
                    continue;
                }
                let c = cost(fleet, &at, me, hex);
                if c < best.0 {
                    best = (c, hex);
                }
            }
            at[me.0 as usize] = best.1;
        }
    }
    at
}

/// The way each ship faces: away from a ship on its tail, else towards its closest enemy
/// (by band, then unit order); `None` when it has no enemy in range.
pub fn facings(fleet: &Fleet, at: &[Hex]) -> Vec<Option<EdgeDirection>> {
    (0..fleet.ships.len() as u32)
        .map(UnitId)
        .map(|me| {
            let here = at[me.0 as usize];
            let enemies = fleet.enemies(me);
            if let Some(&tailer) = enemies.iter().find(|&&e| fleet.ranges.tails(e, me)) {
                let from = at[tailer.0 as usize];
                return (from != here).then(|| from.main_direction_to(here));
            }
            enemies
                .iter()
                .filter(|&&e| fleet.ranges.band(me, e) != Band::Escaped)
                .min_by_key(|&&e| (fleet.ranges.band(me, e), e))
                .map(|&e| at[e.0 as usize])
                .filter(|&to| to != here)
                .map(|to| here.main_direction_to(to))
        })
        .collect()
}

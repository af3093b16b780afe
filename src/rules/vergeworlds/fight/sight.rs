//! Line of sight and cover between two hexes of the battle's map, remembered
//! (vergeworlds-rough-methods.txt, "Cover"; the map's [`HexMap::line_of_sight`] and
//! [`HexMap::cover_between`]).
//!
//! Within a step the same pair is asked again and again: the AI looks for the nearest foe
//! it sees, checks the shot it picks, the battle checks it again and the attack reads the
//! cover. The map remembers every pair of a small map, but not of a large one (a salt flat
//! of radius 24), where each question walks the line again with the library's rounding.
//! The memo answers a pair it holds; a pair it does not hold is worked out as the map
//! documents it, along the line [`line`] gives (the library's line, without its library
//! calls), and kept. The answers are functions of the map (the very map, kept here) and
//! the two hexes, so the memo's answer is the map's; the battles of a preview share the
//! map and with it the memo.

use crate::hexmap::{Cover, HexMap, MapShape, Terrain};
use crate::rules::vergeworlds::line::{FAR, line};
use hexx::Hex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Slots of the memo (a power of two; 32 kB).
const SLOTS: usize = 4096;
/// The answer bits of a slot: whether it holds a pair at all, whether line of sight is
/// clear, and the cover's code.
const FILLED: u64 = 0x80;
const SIGHT_CLEAR: u64 = 0x20;
const COVER_BITS: u64 = 0x3;
/// Coordinates the memo packs into a slot (those of every map in use; others are asked
/// of the map every time).
const COORD: std::ops::Range<i32> = -2048..2048;

/// The line-of-sight and cover answers of the last pairs of hexes asked, for one map: a
/// slot per pair (the last pair asked whose key falls into it), each packed into one
/// word (the two hexes, 12 bits a coordinate, and the answer bits). Made when first
/// asked; [`SightMemo::take`] hands it on to the next battle.
#[derive(Debug, Default)]
pub struct SightMemo(OnceLock<Memo>);

/// The memo of one map.
#[derive(Debug)]
struct Memo {
    /// The map.
    map: Arc<HexMap>,
    /// The pairs' slots.
    slots: Box<[AtomicU64]>,
    /// The hexes of the map no one can enter ([`HexMap::move_cost`] `None`), in map order.
    walls: Vec<Hex>,
}

/// A copy of a fight starts with no memo.
impl Clone for SightMemo {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl SightMemo {
    /// The memo, leaving an empty one: the next battle on the same map starts with what
    /// this one learnt.
    pub fn take(&mut self) -> Self {
        std::mem::take(self)
    }
}

fn cover_code(c: Option<Cover>) -> u64 {
    match c {
        None => 0,
        Some(Cover::Light) => 1,
        Some(Cover::Half) => 2,
        Some(Cover::Heavy) => 3,
    }
}

fn cover_of(code: u64) -> Option<Cover> {
    match code & COVER_BITS {
        1 => Some(Cover::Light),
        2 => Some(Cover::Half),
        3 => Some(Cover::Heavy),
        _ => None,
    }
}

/// The key of a pair of hexes (in the high bits of a slot), if they fit.
fn key(from: Hex, to: Hex) -> Option<u64> {
    let mut k = 0u64;
    for c in [from.x, from.y, to.x, to.y] {
        if !COORD.contains(&c) {
            return None;
        }
        k = (k << 12) | ((c - COORD.start) as u64);
    }
    Some(k << 8)
}

impl SightMemo {
    /// The slots of `map`, if the memo is for it (made for the first map asked about).
    fn slots(&self, map: &Arc<HexMap>) -> Option<&[AtomicU64]> {
        self.memo(map).map(|m| &*m.slots)
    }

    /// The memo of `map`, if it is the map it was made for (the first asked about).
    fn memo(&self, map: &Arc<HexMap>) -> Option<&Memo> {
        let m = self.0.get_or_init(|| Memo {
            map: Arc::clone(map),
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
            walls: map
                .hexes()
                .filter(|(_, t)| t.move_cost().is_none())
                .map(|(h, _)| h)
                .collect(),
        });
        Arc::ptr_eq(&m.map, map).then_some(m)
    }

    /// The hexes that are walls on `map`, when every hex of the line from `from` to `to`
    /// is on it, so that only they (and not the map's edge) can stop a movement along
    /// it; `None` when that is not known (or the memo is for another map).
    ///
    /// A hexagonal map holds every hex within its radius of the middle. The points of
    /// the segment are no farther from the middle than its ends (a hexagon is convex),
    /// and a hex of the line lies within two hexes of its point ([`line`]'s rounding moves
    /// one axial coordinate by at most one and a half and the other by a half, so the
    /// third by at most two): with both ends two hexes inside the edge, the whole line is
    /// on the map. (Maps within [`FAR`] of the middle only, where the walls are found
    /// from the line's ends.)
    pub fn walls_inside(&self, map: &Arc<HexMap>, from: Hex, to: Hex) -> Option<&[Hex]> {
        let MapShape::Hexagon { radius } = map.shape() else {
            return None;
        };
        if radius > FAR as u32 {
            return None;
        }
        let inside = |h: Hex| h.ulength().saturating_add(2) <= radius;
        if !(inside(from) && inside(to)) {
            return None;
        }
        self.memo(map).map(|m| &*m.walls)
    }

    /// The slot of a key.
    fn slot(slots: &[AtomicU64], key: u64) -> &AtomicU64 {
        let i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize % SLOTS;
        &slots[i]
    }

    /// The slot of `from` and `to` on `map` and its answer bits (0: it holds another pair).
    fn known(&self, map: &Arc<HexMap>, from: Hex, to: Hex) -> Option<(&AtomicU64, u64, u64)> {
        let k = key(from, to)?;
        let slot = Self::slot(self.slots(map)?, k);
        let word = slot.load(Ordering::Relaxed);
        let bits = if word & FILLED != 0 && word & !0xFF == k {
            word & 0xFF
        } else {
            0
        };
        Some((slot, k, bits))
    }

    /// Line of sight and cover from `from` to `to` on `map`: the memo's, or worked out
    /// ([`sight`]) and kept.
    fn answer(&self, map: &Arc<HexMap>, from: Hex, to: Hex) -> (bool, Option<Cover>) {
        let Some((slot, k, bits)) = self.known(map, from, to) else {
            return sight(map, from, to);
        };
        if bits & FILLED != 0 {
            return (bits & SIGHT_CLEAR != 0, cover_of(bits));
        }
        let (clear, cover) = sight(map, from, to);
        let word = k | FILLED | if clear { SIGHT_CLEAR } else { 0 } | cover_code(cover);
        slot.store(word, Ordering::Relaxed);
        (clear, cover)
    }

    /// Whether `map` has a clear line of sight from `from` to `to`
    /// ([`HexMap::line_of_sight`]).
    pub fn line_of_sight(&self, map: &Arc<HexMap>, from: Hex, to: Hex) -> bool {
        self.answer(map, from, to).0
    }

    /// The cover `map` gives a target at `to` against a shot from `from`
    /// ([`HexMap::cover_between`]).
    pub fn cover_between(&self, map: &Arc<HexMap>, from: Hex, to: Hex) -> Option<Cover> {
        self.answer(map, from, to).1
    }
}

/// Line of sight and cover from `from` to `to` on `map`, as the map documents them:
/// - sight is clear when both hexes are on the map and nothing blocked lies strictly
///   between them ([`HexMap::line_of_sight`]);
/// - the cover is the better of the cover terrain in the target's own hex and in the hex
///   of the line just before it, unless that hex is next to the shooter
///   ([`HexMap::cover_between`]).
fn sight(map: &HexMap, from: Hex, to: Hex) -> (bool, Option<Cover>) {
    let hexes = line(from, to);
    let n = hexes.len();
    let clear = map.contains(from)
        && map.contains(to)
        && hexes
            .clone()
            .filter(|&h| h != from && h != to)
            .all(|h| matches!(map.terrain(h), Some(t) if t != Terrain::Blocked));
    let own = map.terrain(to).and_then(Terrain::cover);
    let before = if n >= 3 {
        let h = hexes.at((n - 2) as u32);
        if h.distance_to(from) > 1 {
            map.terrain(h).and_then(Terrain::cover)
        } else {
            None
        }
    } else {
        None
    };
    (clear, own.max(before))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hexmap::{MapShape, Orientation, Terrain};

    /// The memo's answers are the map's, asked once and asked again, on a map too large
    /// for the map's own memory, for another map (asked of it directly) and off the map.
    #[test]
    fn remembered_sight_is_the_maps() {
        let mut map = HexMap::new(
            MapShape::Hexagon { radius: 24 },
            Orientation::Pointy,
            1.0,
            "m",
        );
        for (i, h) in hexx::shapes::hexagon(Hex::ZERO, 24).enumerate() {
            if i % 7 == 0 {
                map.set_terrain(h, Terrain::Blocked);
            } else if i % 11 == 0 {
                map.set_terrain(h, Terrain::Cover(Cover::Half));
            }
        }
        let map = Arc::new(map);
        let other = Arc::new(HexMap::new(
            MapShape::Hexagon { radius: 5 },
            Orientation::Pointy,
            1.0,
            "m",
        ));
        let memo = SightMemo::default();
        let hexes: Vec<Hex> = hexx::shapes::hexagon(Hex::ZERO, 26).step_by(13).collect();
        for round in 0..2 {
            for &a in &hexes {
                for &b in &hexes {
                    let m = if round == 0 && a.x == 3 { &other } else { &map };
                    assert_eq!(
                        memo.line_of_sight(m, a, b),
                        m.line_of_sight(a, b),
                        "{a:?} {b:?}"
                    );
                    assert_eq!(memo.cover_between(m, a, b), m.cover_between(a, b));
                    assert_eq!(memo.line_of_sight(m, a, b), m.line_of_sight(a, b));
                }
            }
        }
    }
}

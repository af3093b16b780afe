//! What a [`HexMap`](super::HexMap) remembers of line of sight and cover between pairs of
//! hexes: terrain does not change during a battle, and a preview asks the same pairs
//! millions of times. A small map keeps a byte for every ordered pair of its cells
//! ([`Pairs`]); a map too large for that keeps the last pairs asked in a fixed table of
//! slots ([`Recent`]), each pair packed with its answer into one word.

use super::Cover;
use hexx::Hex;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Largest bounding box (in cells) whose pairs are all kept: 1,600 cells, 2.56 MB.
pub(super) const ALL_PAIRS_CELLS: usize = 1600;
/// The answer bits: known at all, line of sight clear, and the cover's code (two bits).
const KNOWN: u8 = 0x80;
const CLEAR: u8 = 0x40;

/// Line of sight and the cover of a pair, as a byte ([`KNOWN`] set).
fn pack((clear, cover): (bool, Option<Cover>)) -> u8 {
    let code = match cover {
        None => 0,
        Some(Cover::Light) => 1,
        Some(Cover::Half) => 2,
        Some(Cover::Heavy) => 3,
    };
    KNOWN | if clear { CLEAR } else { 0 } | code
}

/// The answer of a byte that [`pack`] made; `None` when it holds none.
fn unpack(byte: u8) -> Option<(bool, Option<Cover>)> {
    let cover = match byte & 3 {
        1 => Some(Cover::Light),
        2 => Some(Cover::Half),
        3 => Some(Cover::Heavy),
        _ => None,
    };
    (byte & KNOWN != 0).then_some((byte & CLEAR != 0, cover))
}

/// The answers of every ordered pair of cells of a small map, a byte each; empty for a
/// large map.
#[derive(Debug, Default)]
pub(super) struct Pairs(Vec<AtomicU8>);

impl Pairs {
    /// Room for every pair of `cells` cells, when there are at most [`ALL_PAIRS_CELLS`].
    pub(super) fn new(cells: usize) -> Self {
        if cells <= ALL_PAIRS_CELLS {
            Self((0..cells * cells).map(|_| AtomicU8::new(0)).collect())
        } else {
            Self::default()
        }
    }

    /// True when this map keeps every pair.
    pub(super) fn in_use(&self) -> bool {
        !self.0.is_empty()
    }

    /// The answer kept for pair `i` (`from`'s cell times the cells, plus `to`'s), or
    /// `work` worked out and kept.
    pub(super) fn get(
        &self,
        i: usize,
        work: impl FnOnce() -> (bool, Option<Cover>),
    ) -> (bool, Option<Cover>) {
        let Some(slot) = self.0.get(i) else {
            return work();
        };
        if let Some(answer) = unpack(slot.load(Ordering::Relaxed)) {
            return answer;
        }
        let answer = work();
        slot.store(pack(answer), Ordering::Relaxed);
        answer
    }

    /// Forgets every answer (the terrain changed).
    pub(super) fn forget(&self) {
        for slot in &self.0 {
            slot.store(0, Ordering::Relaxed);
        }
    }
}

impl Clone for Pairs {
    fn clone(&self) -> Self {
        Self(
            self.0
                .iter()
                .map(|b| AtomicU8::new(b.load(Ordering::Relaxed)))
                .collect(),
        )
    }
}

/// Slots of [`Recent`] (a power of two; 32 kB).
const SLOTS: usize = 4096;
/// Coordinates [`Recent`] packs into a slot, 12 bits each (pairs with others are worked out
/// every time).
const COORD: std::ops::Range<i32> = -2048..2048;

/// The answers of the last pairs asked of a large map: a slot per pair (the last pair asked
/// whose key falls into it), holding the two hexes, 12 bits a coordinate, and the answer
/// byte. No slots (the default) for a small map, whose [`Pairs`] keep every answer.
#[derive(Debug, Default)]
pub(super) struct Recent(Box<[AtomicU64]>);

impl Recent {
    /// Slots for a map of `cells` cells when [`Pairs`] cannot keep them all, else none.
    pub(super) fn new(cells: usize) -> Self {
        if cells > ALL_PAIRS_CELLS {
            Self((0..SLOTS).map(|_| AtomicU64::new(0)).collect())
        } else {
            Self::default()
        }
    }
}

impl Clone for Recent {
    fn clone(&self) -> Self {
        Self(
            self.0
                .iter()
                .map(|w| AtomicU64::new(w.load(Ordering::Relaxed)))
                .collect(),
        )
    }
}

/// The key of a pair of hexes (in the high bits of a slot), if their coordinates fit.
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

impl Recent {
    /// The answer kept for `from` and `to`, or `work` worked out and kept in their slot.
    pub(super) fn get(
        &self,
        from: Hex,
        to: Hex,
        work: impl FnOnce() -> (bool, Option<Cover>),
    ) -> (bool, Option<Cover>) {
        let Some(k) = key(from, to).filter(|_| !self.0.is_empty()) else {
            return work();
        };
        let slot = &self.0[(k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize % SLOTS];
        let word = slot.load(Ordering::Relaxed);
        if word & !0xFF == k
            && let Some(answer) = unpack(word as u8)
        {
            return answer;
        }
        let answer = work();
        slot.store(k | u64::from(pack(answer)), Ordering::Relaxed);
        answer
    }

    /// Forgets every answer (the terrain changed).
    pub(super) fn forget(&self) {
        for slot in self.0.iter() {
            slot.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every answer survives its packing, and an empty slot holds none.
    #[test]
    fn answers_pack_and_unpack() {
        for clear in [false, true] {
            for cover in [
                None,
                Some(Cover::Light),
                Some(Cover::Half),
                Some(Cover::Heavy),
            ] {
                assert_eq!(unpack(pack((clear, cover))), Some((clear, cover)));
            }
        }
        assert_eq!(unpack(0), None);
    }

    /// A pair is answered from its slot once asked, until another pair takes the slot or
    /// the memo forgets; pairs off the packed coordinates are worked out every time.
    #[test]
    fn recent_pairs_are_kept_until_forgotten() {
        let memo = Recent::new(ALL_PAIRS_CELLS + 1);
        let (a, b) = (Hex::new(3, -4), Hex::new(-7, 9));
        let asked = std::cell::Cell::new(0);
        let ask = |from, to| {
            memo.get(from, to, || {
                asked.set(asked.get() + 1);
                (true, Some(Cover::Half))
            })
        };
        assert_eq!(ask(a, b), (true, Some(Cover::Half)));
        assert_eq!(ask(a, b), (true, Some(Cover::Half)));
        assert_eq!(asked.get(), 1);
        ask(b, a);
        assert_eq!(asked.get(), 2);
        let far = Hex::new(5000, 0);
        ask(a, far);
        ask(a, far);
        assert_eq!(asked.get(), 4);
        memo.forget();
        ask(a, b);
        assert_eq!(asked.get(), 5);
    }
}

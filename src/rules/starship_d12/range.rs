//! Range as state between each pair of opposing ships, and the range phase
//! (starship-d12-quick-reference.txt, "Range"): every pilot rolls; from the highest roll
//! down, each may move the range to one enemy one step (two if it beat that enemy's roll by
//! 6 or more), but not against an enemy that already moved against it this turn.

use crate::battle::UnitId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The range steps, closest first ("Tailing - Short - Medium - Long - Escaped").
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum Band {
    /// One ship sits on the other's tail.
    Tailing,
    /// Short range.
    Short,
    /// Medium range.
    #[default]
    Medium,
    /// Long range.
    Long,
    /// Out of the fight with each other.
    Escaped,
}

impl Band {
    /// Every band, closest first.
    pub const ALL: [Band; 5] = [
        Band::Tailing,
        Band::Short,
        Band::Medium,
        Band::Long,
        Band::Escaped,
    ];

    /// Position in the ladder, 0 for Tailing.
    pub fn step(self) -> i32 {
        self as i32
    }

    /// The band `steps` away (negative: closer), held at the ends of the ladder.
    pub fn moved(self, steps: i32) -> Band {
        Band::ALL[(self.step() + steps).clamp(0, 4) as usize]
    }

    /// Hex distance at which the map shows two ships at this band (a display choice; the
    /// rules only know the band).
    pub fn hexes(self) -> u32 {
        match self {
            Band::Tailing => 1,
            Band::Short => 3,
            Band::Medium => 6,
            Band::Long => 10,
            Band::Escaped => 15,
        }
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Band::Tailing => "tailing",
            Band::Short => "short",
            Band::Medium => "medium",
            Band::Long => "long",
            Band::Escaped => "escaped",
        };
        f.write_str(s)
    }
}

/// The range between one pair of opposing ships, the ships named by `K` (their entities
/// on the board, their unit ids for the rules that read it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PairRange<K = UnitId> {
    /// The band.
    pub band: Band,
    /// At Tailing: the ship that sits on the other's tail.
    pub tailer: Option<K>,
}

impl<K> PairRange<K> {
    /// The same range with the ships named another way.
    pub fn map<L>(self, f: impl FnOnce(K) -> Option<L>) -> PairRange<L> {
        PairRange {
            band: self.band,
            tailer: self.tailer.and_then(f),
        }
    }
}

/// Every pair's range, keyed by the two ships (their entities in a battle), each pair
/// once whichever way it is asked; kept in key order and looked up by binary search (a
/// hundred ships make thousands of pairs, asked for on every step).
#[derive(Clone, Debug, PartialEq)]
pub struct RangeBoard<K = bevy::ecs::entity::Entity> {
    pairs: Vec<((K, K), PairRange<K>)>,
}

impl<K> Default for RangeBoard<K> {
    fn default() -> Self {
        Self { pairs: Vec::new() }
    }
}

fn key<K: Ord>(a: K, b: K) -> (K, K) {
    if a < b { (a, b) } else { (b, a) }
}

impl<K: Copy + Ord> RangeBoard<K> {
    /// Sets the range between `a` and `b` (at Tailing, `tailer` sits on the other's tail).
    pub fn set(&mut self, a: K, b: K, band: Band, tailer: Option<K>) {
        let k = key(a, b);
        let tailer = if band == Band::Tailing {
            tailer.or(Some(a))
        } else {
            None
        };
        let value = PairRange { band, tailer };
        match self.pairs.binary_search_by_key(&k, |(p, _)| *p) {
            Ok(i) => self.pairs[i].1 = value,
            Err(i) => self.pairs.insert(i, (k, value)),
        }
    }

    /// The range between `a` and `b`, if they are a pair of enemies.
    pub fn get(&self, a: K, b: K) -> Option<PairRange<K>> {
        let k = key(a, b);
        self.pairs
            .binary_search_by_key(&k, |(p, _)| *p)
            .ok()
            .map(|i| self.pairs[i].1)
    }

    /// The band between `a` and `b` (Escaped when they are not a pair).
    pub fn band(&self, a: K, b: K) -> Band {
        self.get(a, b).map_or(Band::Escaped, |r| r.band)
    }

    /// True when `a` sits on `b`'s tail.
    pub fn tails(&self, a: K, b: K) -> bool {
        self.get(a, b).is_some_and(|r| r.tailer == Some(a))
    }

    /// Every pair with its range, in key order.
    pub fn pairs(&self) -> impl Iterator<Item = (K, K, PairRange<K>)> + '_ {
        self.pairs.iter().map(|&((a, b), r)| (a, b, r))
    }
}

/// Which way a ship moves the range to one enemy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Direction {
    /// Closer (towards Tailing).
    Closer,
    /// Farther (towards Escaped).
    Farther,
}

/// Steps a pilot may move the range to an enemy: two when its roll beat the enemy's by 6 or
/// more, otherwise one (starship-d12-quick-reference.txt, "Range").
pub fn steps_allowed(mine: i32, theirs: i32) -> i32 {
    if mine - theirs >= 6 { 2 } else { 1 }
}

/// The range after `mover` moves it `steps` steps in `direction` from `current`: closing
/// from Short (or two steps from Medium) puts the mover on the other's tail; a ship that is
/// being tailed can only open the range (it cannot close past its own tailer), and closing
/// while already tailing changes nothing.
pub fn move_range<K: Copy>(
    current: PairRange<K>,
    mover: K,
    direction: Direction,
    steps: i32,
) -> PairRange<K> {
    match direction {
        Direction::Farther => PairRange {
            band: current.band.moved(steps.max(1)),
            tailer: None,
        },
        Direction::Closer => {
            if current.band == Band::Tailing {
                return current;
            }
            let band = current.band.moved(-steps);
            PairRange {
                band,
                tailer: (band == Band::Tailing).then_some(mover),
            }
        }
    }
}

/// One pilot's range roll as the order reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeRoll {
    /// The ship.
    pub unit: UnitId,
    /// The first die was a 12: "Natural 12 is always success" (starship-d12-quick-reference
    /// .txt, "Skill Rolls"), so it ranks above every roll without one, whatever the totals.
    pub natural_12: bool,
    /// The roll's total.
    pub total: i32,
    /// The pilot's piloting, for ties.
    pub piloting: i32,
}

/// The order in which pilots move the range ("Range": highest roll first): natural 12s
/// first, then the higher total; equal rolls by the higher piloting total, then by unit
/// order (a tie-break the text does not give).
pub fn range_order(rolls: &[RangeRoll]) -> Vec<UnitId> {
    let mut v = rolls.to_vec();
    v.sort_by(|a, b| {
        (b.natural_12, b.total, b.piloting)
            .cmp(&(a.natural_12, a.total, a.piloting))
            .then(a.unit.cmp(&b.unit))
    });
    v.into_iter().map(|r| r.unit).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// starship-d12-quick-reference.txt, "Range": one step, two when beating the enemy by
    /// 6 or more.
    #[test]
    fn beating_an_enemy_by_six_moves_two_steps() {
        assert_eq!(steps_allowed(11, 5), 2);
        assert_eq!(steps_allowed(10, 5), 1);
        assert_eq!(steps_allowed(5, 5), 1);
        assert_eq!(steps_allowed(3, 9), 1);
    }

    /// The ladder "Tailing - Short - Medium - Long - Escaped".
    #[test]
    fn the_ladder_runs_from_tailing_to_escaped() {
        let (a, b) = (UnitId(0), UnitId(1));
        let medium = PairRange {
            band: Band::Medium,
            tailer: None,
        };
        let closer = move_range(medium, a, Direction::Closer, 1);
        assert_eq!(closer.band, Band::Short);
        let tail = move_range(medium, b, Direction::Closer, 2);
        assert_eq!(tail.band, Band::Tailing);
        assert_eq!(tail.tailer, Some(b));
        // The tailed ship breaks away one step, or two.
        assert_eq!(move_range(tail, a, Direction::Farther, 1).band, Band::Short);
        let away = move_range(tail, a, Direction::Farther, 2);
        assert_eq!((away.band, away.tailer), (Band::Medium, None));
        // Long, one more step out: escaped; the ladder stops there.
        let long = PairRange {
            band: Band::Long,
            tailer: None,
        };
        assert_eq!(
            move_range(long, a, Direction::Farther, 2).band,
            Band::Escaped
        );
        // Closing on a ship one already tails changes nothing.
        assert_eq!(move_range(tail, b, Direction::Closer, 1), tail);
    }

    fn roll(unit: u32, natural_12: bool, total: i32, piloting: i32) -> RangeRoll {
        RangeRoll {
            unit: UnitId(unit),
            natural_12,
            total,
            piloting,
        }
    }

    /// "Range": the highest roll moves first; ties by piloting, then unit order.
    #[test]
    fn the_highest_roll_moves_first() {
        let order = range_order(&[
            roll(0, false, 5, 3),
            roll(1, false, 9, 2),
            roll(2, false, 5, 4),
            roll(3, false, 5, 3),
        ]);
        assert_eq!(order, vec![UnitId(1), UnitId(2), UnitId(0), UnitId(3)]);
    }

    /// "Skill Rolls": "Natural 12 is always success" — a natural 12 (total 12) goes before
    /// a 7 rolled again to 19 (issue 26 item 15).
    #[test]
    fn a_natural_12_moves_first() {
        let order = range_order(&[roll(0, false, 19, 9), roll(1, true, 12, 4)]);
        assert_eq!(order, vec![UnitId(1), UnitId(0)]);
    }

    #[test]
    fn the_board_keeps_one_range_per_pair() {
        let mut board = RangeBoard::<UnitId>::default();
        board.set(UnitId(2), UnitId(0), Band::Tailing, Some(UnitId(2)));
        assert!(board.tails(UnitId(2), UnitId(0)));
        assert!(!board.tails(UnitId(0), UnitId(2)));
        board.set(UnitId(0), UnitId(2), Band::Long, None);
        assert_eq!(board.band(UnitId(2), UnitId(0)), Band::Long);
        assert_eq!(board.pairs().count(), 1);
        assert_eq!(board.band(UnitId(0), UnitId(1)), Band::Escaped);
    }
}

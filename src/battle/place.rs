//! Where the map shows ships whose range is kept as a band per pair rather than a hex count
//! (starship-d12, SOCS): each ship in turn moves (at most two hexes a pass, three passes) to
//! the free hex that best fits the hex distance wanted to every enemy, keeping one hex from
//! friends. Deterministic: unit order, fixed tie-breaks (a move must strictly improve).

use crate::battle::UnitId;
use crate::hexmap::{HexMap, Terrain};
use hexx::Hex;

fn cost(
    at: &[Hex],
    fighting: &[bool],
    sides: &[u8],
    me: usize,
    hex: Hex,
    want: &impl Fn(usize, usize) -> Option<u32>,
) -> i64 {
    let mut c = 0i64;
    for other in 0..at.len() {
        if other == me || !fighting[other] {
            continue;
        }
        let d = i64::from(hex.unsigned_distance_to(at[other]));
        if sides[other] == sides[me] {
            if d < 2 {
                c += 4 * (2 - d) * (2 - d);
            }
            continue;
        }
        if let Some(w) = want(me, other) {
            let w = i64::from(w);
            c += 10 * (d - w) * (d - w);
        }
    }
    c
}

/// A value for every pair of units by unit id, the same either way round, read once from
/// a ruleset's pair state for a redraw of the map (which weighs every pair many times
/// over; asking the state pair by pair made a hundred ships take a minute).
pub struct PairTable<T> {
    n: usize,
    table: Vec<T>,
    none: T,
}

impl<T: Copy> PairTable<T> {
    /// `n` units, every pair `none`.
    pub fn new(n: usize, none: T) -> Self {
        Self {
            n,
            table: vec![none; n * n],
            none,
        }
    }

    /// Sets the pair `a`, `b` (ids out of range are ignored).
    pub fn set(&mut self, a: UnitId, b: UnitId, value: T) {
        let (a, b) = (a.0 as usize, b.0 as usize);
        if a < self.n && b < self.n {
            self.table[a * self.n + b] = value;
            self.table[b * self.n + a] = value;
        }
    }

    /// The pair `a`, `b` (`none` for ids out of range).
    pub fn get(&self, a: UnitId, b: UnitId) -> T {
        let (a, b) = (a.0 as usize, b.0 as usize);
        if a < self.n && b < self.n {
            self.table[a * self.n + b]
        } else {
            self.none
        }
    }
}

/// Places the units, remembering what it was last asked and answered, in a battle (a
/// resource of the rulesets that place by band). The map is redrawn after every
/// decision, but most decisions change no band: once the ships have settled, the same
/// question comes again and gets the same answer without weighing every hex against every
/// ship (a hundred ships took most of a minute). The answer is remembered only for exactly
/// the same question, so it is always the one a fresh `Placer` gives.
#[derive(bevy::prelude::Resource, Clone, Debug, Default)]
pub struct Placer {
    last: Option<(Question, Vec<Hex>)>,
}

/// Everything [`Placer::place`]'s answer depends on besides the map (fixed for a battle).
#[derive(Clone, Debug, PartialEq)]
struct Question {
    at: Vec<Hex>,
    fighting: Vec<bool>,
    sides: Vec<u8>,
    /// The wanted distance of every ordered pair, `a * n + b`.
    want: Vec<Option<u32>>,
}

impl Placer {
    /// New positions (by unit index) starting from `at`, for the units `fighting`, where
    /// `want(a, b)` is the hex distance wanted between enemies `a` and `b` (None: any);
    /// answered from memory when asked exactly the last question again.
    pub fn place(
        &mut self,
        map: &HexMap,
        at: &[Hex],
        fighting: &[bool],
        sides: &[u8],
        want: impl Fn(usize, usize) -> Option<u32>,
    ) -> Vec<Hex> {
        // Each wanted distance asked once: the passes below weigh every candidate hex
        // against every enemy, many times over.
        let n = at.len();
        let table: Vec<Option<u32>> = (0..n * n)
            .map(|k| {
                let (a, b) = (k / n, k % n);
                let enemies = a != b && fighting[a] && fighting[b] && sides[a] != sides[b];
                if enemies { want(a, b) } else { None }
            })
            .collect();
        let question = Question {
            at: at.to_vec(),
            fighting: fighting.to_vec(),
            sides: sides.to_vec(),
            want: table,
        };
        if let Some((asked, answer)) = &self.last
            && *asked == question
        {
            return answer.clone();
        }
        let answer = settle(map, &question);
        self.last = Some((question, answer.clone()));
        answer
    }
}

/// Three passes of moving each fighting unit, in unit order, to the free hex within two
/// that lowers its cost the most.
fn settle(map: &HexMap, q: &Question) -> Vec<Hex> {
    let Question {
        at,
        fighting,
        sides,
        want: table,
    } = q;
    let mut at = at.clone();
    let n = at.len();
    let want = |a: usize, b: usize| table.get(a * n + b).copied().flatten();
    for _ in 0..3 {
        for me in 0..at.len() {
            if !fighting[me] {
                continue;
            }
            let here = at[me];
            let mut best = (cost(&at, fighting, sides, me, here, &want), here);
            for hex in here.range(2) {
                let free = map.terrain(hex).is_some_and(|t| t != Terrain::Blocked)
                    && !at.iter().enumerate().any(|(i, h)| *h == hex && i != me);
                if !free {
                    continue;
                }
                let c = cost(&at, fighting, sides, me, hex, &want);
                if c < best.0 {
                    best = (c, hex);
                }
            }
            at[me] = best.1;
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hexmap::{MapShape, Orientation};

    /// Open space, radius 10.
    fn field() -> HexMap {
        HexMap::new(
            MapShape::Hexagon { radius: 10 },
            Orientation::Pointy,
            1.0,
            "hex",
        )
    }

    #[test]
    fn two_ships_settle_at_the_wanted_distance() {
        let map = field();
        let start = [Hex::new(0, 0), Hex::new(1, 0)];
        for want in [1, 3, 6] {
            let at =
                Placer::default().place(&map, &start, &[true, true], &[0, 1], |_, _| Some(want));
            assert_eq!(at[0].unsigned_distance_to(at[1]), want);
        }
    }

    #[test]
    fn the_placer_answers_as_place_does_asked_again_or_anew() {
        let map = field();
        let mut placer = Placer::default();
        let mut at = vec![Hex::new(0, 0), Hex::new(1, 0), Hex::new(0, 1)];
        let sides = [0, 1, 1];
        // Settling (the same question twice once settled), then a band change, then a
        // unit out of the fight: each answer is place's.
        for (want, fighting) in [
            (6, [true, true, true]),
            (6, [true, true, true]),
            (6, [true, true, true]),
            (6, [true, true, true]),
            (1, [true, true, true]),
            (1, [true, true, false]),
        ] {
            let expected = Placer::default().place(&map, &at, &fighting, &sides, |_, _| Some(want));
            let got = placer.place(&map, &at, &fighting, &sides, |_, _| Some(want));
            assert_eq!(got, expected);
            at = got;
        }
        assert_eq!(at[0].unsigned_distance_to(at[1]), 1);
    }

    #[test]
    fn a_pair_table_reads_the_same_either_way_round() {
        let mut t = PairTable::new(3, 0);
        t.set(UnitId(2), UnitId(0), 7);
        t.set(UnitId(5), UnitId(0), 9); // no unit 5: ignored
        assert_eq!(t.get(UnitId(0), UnitId(2)), 7);
        assert_eq!(t.get(UnitId(2), UnitId(0)), 7);
        assert_eq!(t.get(UnitId(1), UnitId(2)), 0);
        assert_eq!(t.get(UnitId(0), UnitId(5)), 0);
    }
}

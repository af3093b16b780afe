//! Newtonian vector movement on the hex map as plain functions: a velocity (a hex offset
//! a turn) that carries over, thrust that changes it, the path a turn's move follows, the
//! sub-steps in which everything moves together, and contacts along the way.
//!
//! gurps-traveller-gm-screen.txt gives the "SEQUENCE OF ACTION" (maneuver, then movement)
//! and the 10,000-mile hex of the "SPACE WEAPONS TABLE", but no movement rules. Decisions,
//! each in one place:
//! - Velocity is an axial hex offset moved every turn; it carries over from turn to turn
//!   unchanged unless thrust changes it ([`coast`]).
//! - A ship's thrust points a turn are the velocity change its acceleration gives in one
//!   turn, in hexes: G × 9.81 m/s² × (turn length)², over the hex length, rounded to the
//!   nearest (1 G at 20-minute turns and 10,000-mile hexes is 0.88: 1 point)
//!   ([`thrust_points`]).
//! - A burn is any hex offset added to the velocity; it costs its length in points, so a
//!   ship may change its velocity to any vector within its thrust of the old one; turning
//!   costs what the change of vector costs: reversing 3 hexes a turn costs 6 points
//!   ([`burn_cost`]). The reachable end positions are the hexes within the thrust of the
//!   ghost position (where it would end coasting) ([`reachable`]).
//! - In the movement phase everything moves at once: each mover's path is the hex line
//!   from where it is to where its vector takes it, walked in as many sub-steps as the
//!   longest path, each mover advancing in proportion to its path's length
//!   ([`Walks::walk`]); two movers are in contact when they share a hex at a sub-step or
//!   swap hexes between two ([`Walks::contact`]).

use hexx::Hex;

/// The most thrust points a turn (a decision that keeps a turn's reach on the map: 50
/// points is 50 hexes every way).
pub const MAX_THRUST: u32 = 50;

/// Standard gravity, m/s².
const G: f64 = 9.806_65;
/// Metres in a statute mile.
const MILE: f64 = 1_609.344;

/// The thrust points of an acceleration of `accel_g` Gs, with hexes of `hex_miles` miles
/// and turns of `turn_minutes` minutes (the module's decision).
pub fn thrust_points(accel_g: f64, hex_miles: f64, turn_minutes: f64) -> u32 {
    if !(accel_g > 0.0 && hex_miles > 0.0 && turn_minutes > 0.0) {
        return 0;
    }
    let t = turn_minutes * 60.0;
    let per_g = G * t * t / (hex_miles * MILE);
    (accel_g * per_g).round().clamp(0.0, f64::from(MAX_THRUST)) as u32
}

/// Where a mover at `pos` with velocity `vel` ends the turn without thrust: its ghost.
pub fn coast(pos: Hex, vel: Hex) -> Hex {
    pos + vel
}

/// The thrust points a burn of `delta` (added to the velocity) costs: its length.
pub fn burn_cost(delta: Hex) -> u32 {
    delta.ulength()
}

/// The thrust points it takes to change velocity `from` into `to` (a turn costs the
/// change of vector).
pub fn turn_cost(from: Hex, to: Hex) -> u32 {
    burn_cost(to - from)
}

/// Every end position a mover at `pos` with velocity `vel` and `thrust` points can reach
/// this turn: the hexes within `thrust` of its ghost, nearest first.
pub fn reachable(pos: Hex, vel: Hex, thrust: u32) -> Vec<Hex> {
    let ghost = coast(pos, vel);
    // The order of the offsets from the ghost is the same wherever the ghost is (moving
    // every hex by one vector keeps their order by x then y), so it is sorted once per
    // thrust on each thread: the AI asks this for every ship it weighs, every turn.
    thread_local! {
        static OFFSETS: std::cell::RefCell<Vec<Vec<Hex>>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if thrust > MAX_THRUST {
        // Beyond any ship's thrust: worked out here, not kept.
        let mut v: Vec<Hex> = ghost.range(thrust).collect();
        v.sort_by_key(|h| (h.unsigned_distance_to(ghost), h.x, h.y));
        return v;
    }
    OFFSETS.with(|offsets| {
        let mut offsets = offsets.borrow_mut();
        let t = thrust as usize;
        if offsets.len() <= t {
            offsets.resize(t + 1, Vec::new());
        }
        if offsets[t].is_empty() {
            let mut v: Vec<Hex> = Hex::ZERO.range(thrust).collect();
            v.sort_by_key(|h| (h.unsigned_distance_to(Hex::ZERO), h.x, h.y));
            offsets[t] = v;
        }
        offsets[t].iter().map(|&o| ghost + o).collect()
    })
}

/// The velocity after a burn that aims the mover at `to` (an end position): `to - pos`;
/// the burn is the new velocity less the old.
pub fn velocity_to(pos: Hex, to: Hex) -> Hex {
    to - pos
}

/// The burn (at most `thrust` points) that brings a mover at `pos` with velocity `vel`
/// nearest to `aim` at the end of the turn: straight at it along the hex line from its
/// ghost (a missile's guidance; the AI's intercept course).
pub fn burn_towards(pos: Hex, vel: Hex, thrust: u32, aim: Hex) -> Hex {
    let ghost = coast(pos, vel);
    let d = ghost.unsigned_distance_to(aim);
    if d <= thrust {
        return aim - ghost;
    }
    let line: Vec<Hex> = ghost.line_to(aim).collect();
    line.get(thrust as usize).copied().unwrap_or(ghost) - ghost
}

/// The movement phase's movers: each one's path (the hex line from where it is to where
/// its vector takes it, its own hex first) and where each stands at each sub-step, kept
/// in flat lists (one allocation each, not one a mover and a sub-step).
#[derive(Clone, Debug, Default)]
pub struct Walks {
    /// Every path, one after another.
    hexes: Vec<Hex>,
    /// Where each path ends in `hexes`.
    ends: Vec<usize>,
    /// Where mover `i` stands after sub-step `k`: `steps[k * movers + i]`.
    steps: Vec<Hex>,
}

impl Walks {
    /// Adds a mover at `pos` moving at `vel`.
    pub fn push(&mut self, pos: Hex, vel: Hex) {
        self.hexes.extend(pos.line_to(pos + vel));
        self.ends.push(self.hexes.len());
    }

    /// How many movers there are.
    pub fn movers(&self) -> usize {
        self.ends.len()
    }

    /// Mover `i`'s path, its start first (empty for no such mover).
    pub fn path(&self, i: usize) -> &[Hex] {
        let Some(&end) = self.ends.get(i) else {
            return &[];
        };
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.hexes[start..end]
    }

    /// Works out where the movers added stand at each sub-step: every mover walks its
    /// path evenly over as many sub-steps as the longest path has steps (sub-step 0 is the
    /// start).
    pub fn walk(&mut self) {
        let m = self.movers();
        let n = (0..m)
            .map(|i| self.path(i).len().saturating_sub(1))
            .max()
            .unwrap_or(0);
        let mut steps = std::mem::take(&mut self.steps);
        steps.clear();
        steps.reserve((n + 1) * m);
        for k in 0..=n {
            for i in 0..m {
                let p = self.path(i);
                let len = p.len().saturating_sub(1);
                steps.push(if len == 0 || n == 0 {
                    p.first().copied().unwrap_or(Hex::ZERO)
                } else {
                    // Round half up: k * len / n.
                    p[((2 * k * len + n) / (2 * n)).min(len)]
                });
            }
        }
        self.steps = steps;
    }

    /// The first sub-step at which movers `a` and `b` are in contact, once
    /// [`Walks::walk`] has worked out the sub-steps: in the same hex, or swapping hexes
    /// between two sub-steps (the later one is given).
    pub fn contact(&self, a: usize, b: usize) -> Option<usize> {
        let m = self.movers();
        if a >= m || b >= m {
            return None;
        }
        for (k, now) in self.steps.chunks_exact(m).enumerate() {
            let (pa, pb) = (now[a], now[b]);
            if pa == pb {
                return Some(k);
            }
            if k > 0 {
                let before = &self.steps[(k - 1) * m..k * m];
                if before[a] == pb && before[b] == pa {
                    return Some(k);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // What the movement phase's sub-steps and contacts are, written plainly, one vector a
    // sub-step: the oracle [`Walks`] is checked against.

    /// The hexes a mover at `pos` with velocity `vel` passes this turn, its own first.
    fn path(pos: Hex, vel: Hex) -> Vec<Hex> {
        pos.line_to(pos + vel).collect()
    }

    /// The movers' hexes at each sub-step of the movement phase: `result[k][i]` is where
    /// mover `i` (whose path is `paths[i]`, its start first) stands after sub-step `k`
    /// (sub-step 0 is the start). Every mover walks its path evenly over as many sub-steps
    /// as the longest path has steps.
    fn sub_steps(paths: &[Vec<Hex>]) -> Vec<Vec<Hex>> {
        let n = paths
            .iter()
            .map(|p| p.len().saturating_sub(1))
            .max()
            .unwrap_or(0);
        (0..=n)
            .map(|k| {
                paths
                    .iter()
                    .map(|p| {
                        let len = p.len().saturating_sub(1);
                        if len == 0 || n == 0 {
                            return p.first().copied().unwrap_or(Hex::ZERO);
                        }
                        // Round half up: k * len / n.
                        let i = (2 * k * len + n) / (2 * n);
                        p[i.min(len)]
                    })
                    .collect()
            })
            .collect()
    }

    /// The first sub-step at which movers `a` and `b` are in contact in `steps` (see
    /// [`sub_steps`]): in the same hex, or swapping hexes between two sub-steps (the later
    /// one is given).
    fn contact(steps: &[Vec<Hex>], a: usize, b: usize) -> Option<usize> {
        for (k, now) in steps.iter().enumerate() {
            let (Some(&pa), Some(&pb)) = (now.get(a), now.get(b)) else {
                return None;
            };
            if pa == pb {
                return Some(k);
            }
            if k > 0 {
                let before = &steps[k - 1];
                if before.get(a) == Some(&pb) && before.get(b) == Some(&pa) {
                    return Some(k);
                }
            }
        }
        None
    }

    /// The thrust decision's arithmetic: 1 G over 20 minutes is 11,768 m/s (7.31 miles a
    /// second), 8,775 miles a turn of speed: 0.88 of a 10,000-mile hex, so 1 point; 2 G is
    /// 1.75: 2; 6 G 5.26: 5; with 1,000-mile hexes 1 G is 8.8: 9 points.
    #[test]
    fn thrust_points_from_acceleration() {
        assert_eq!(thrust_points(1.0, 10_000.0, 20.0), 1);
        assert_eq!(thrust_points(2.0, 10_000.0, 20.0), 2);
        assert_eq!(thrust_points(6.0, 10_000.0, 20.0), 5);
        assert_eq!(thrust_points(1.0, 1_000.0, 20.0), 9);
        assert_eq!(thrust_points(0.0, 10_000.0, 20.0), 0);
    }

    /// Velocity carries over: with no thrust a mover goes on along its vector turn after
    /// turn (three turns at (2, -1) from (0, 0) end at (6, -3)).
    #[test]
    fn velocity_carries_over_without_thrust() {
        let vel = Hex::new(2, -1);
        let mut pos = Hex::ZERO;
        for _ in 0..3 {
            pos = coast(pos, vel);
        }
        assert_eq!(pos, Hex::new(6, -3));
    }

    /// The reach comes nearest the ghost first, then by x and y, wherever the ghost is:
    /// the same list as sorting the ghost's range directly.
    #[test]
    fn the_reach_is_sorted_as_its_range_would_be() {
        for (pos, vel) in [(Hex::ZERO, Hex::ZERO), (Hex::new(-7, 3), Hex::new(4, -9))] {
            for thrust in [0, 1, 3, 6, 2] {
                let ghost = coast(pos, vel);
                let mut direct: Vec<Hex> = ghost.range(thrust).collect();
                direct.sort_by_key(|h| (h.unsigned_distance_to(ghost), h.x, h.y));
                assert_eq!(
                    reachable(pos, vel, thrust),
                    direct,
                    "{pos:?} {vel:?} {thrust}"
                );
            }
        }
    }

    /// Thrust changes the vector: with 2 points a mover at rest can end anywhere within 2
    /// hexes (19 hexes); moving at (3, 0) its reach is centred on its ghost (3, 0).
    #[test]
    fn thrust_changes_the_vector() {
        assert_eq!(reachable(Hex::ZERO, Hex::ZERO, 2).len(), 19);
        let r = reachable(Hex::ZERO, Hex::new(3, 0), 2);
        assert_eq!(r[0], Hex::new(3, 0));
        assert!(r.contains(&Hex::new(5, 0)) && r.contains(&Hex::new(1, 0)));
        assert!(
            !r.contains(&Hex::ZERO),
            "it cannot stop dead from 3 with 2 points"
        );
        // Three turns: accelerate to (1, 0), then (2, 0), then coast.
        let (mut pos, mut vel) = (Hex::ZERO, Hex::ZERO);
        for burn in [Hex::new(1, 0), Hex::new(1, 0), Hex::ZERO] {
            assert!(burn_cost(burn) <= 1);
            vel += burn;
            pos = coast(pos, vel);
        }
        assert_eq!((pos, vel), (Hex::new(5, 0), Hex::new(2, 0)));
    }

    /// Turning costs the change of vector: from 3 hexes a turn east, to 3 hexes north-east
    /// is 3 points, to a stop 3, to 3 west 6.
    #[test]
    fn turning_costs_the_change_of_vector() {
        let east = Hex::new(3, 0);
        assert_eq!(turn_cost(east, Hex::new(0, 3)), 3);
        assert_eq!(turn_cost(east, Hex::new(3, -3)), 3);
        assert_eq!(turn_cost(east, Hex::ZERO), 3);
        assert_eq!(turn_cost(east, Hex::new(-3, 0)), 6);
    }

    /// A ship coasting past another: moving 4 east from (0, 0) past one sitting at (2, 0)
    /// meets it at the second of four sub-steps; past one at (2, -1) never; two ships
    /// closing head on from 4 apart at 2 a turn each meet half-way at the second and last
    /// sub-step, and two that swap neighbouring hexes are in contact at sub-step 1.
    #[test]
    fn a_ship_coasting_past_another() {
        let contact_of = |movers: [(Hex, Hex); 2]| {
            let mut walks = Walks::default();
            for (pos, vel) in movers {
                walks.push(pos, vel);
            }
            walks.walk();
            walks.contact(0, 1)
        };
        let moving = (Hex::ZERO, Hex::new(4, 0));
        let still = (Hex::new(2, 0), Hex::ZERO);
        assert_eq!(path(moving.0, moving.1).len(), 5);
        assert_eq!(
            sub_steps(&[path(moving.0, moving.1), path(still.0, still.1)]).len(),
            5
        );
        assert_eq!(contact_of([moving, still]), Some(2));
        let aside = (Hex::new(2, -1), Hex::ZERO);
        assert_eq!(contact_of([moving, aside]), None);
        let (a, b) = (
            (Hex::ZERO, Hex::new(2, 0)),
            (Hex::new(4, 0), Hex::new(-2, 0)),
        );
        assert_eq!(contact_of([a, b]), Some(2));
        let (a, b) = (
            (Hex::ZERO, Hex::new(1, 0)),
            (Hex::new(1, 0), Hex::new(-1, 0)),
        );
        assert_eq!(contact_of([a, b]), Some(1));
    }

    /// Guidance: with enough thrust the burn ends exactly on the aim; with less it ends as
    /// near as the thrust allows, on the line towards it.
    #[test]
    fn a_burn_towards_an_aim() {
        let burn = burn_towards(Hex::ZERO, Hex::new(1, 0), 3, Hex::new(3, 1));
        assert_eq!(Hex::new(1, 0) + burn, Hex::new(3, 1));
        let burn = burn_towards(Hex::ZERO, Hex::ZERO, 2, Hex::new(6, 0));
        assert_eq!(burn, Hex::new(2, 0));
        assert_eq!(burn_cost(burn), 2);
    }

    /// Walks keeps the same paths, sub-steps and contacts as path, sub_steps and contact,
    /// for movers standing still, crossing, swapping and overtaking, of every length.
    #[test]
    fn walks_are_paths_and_sub_steps() {
        let movers = [
            (Hex::new(0, 0), Hex::new(4, 0)),
            (Hex::new(4, 0), Hex::new(-4, 0)),
            (Hex::new(2, -2), Hex::ZERO),
            (Hex::new(1, 0), Hex::new(1, 0)),
            (Hex::new(0, 3), Hex::new(3, -3)),
            (Hex::new(-2, 1), Hex::new(7, -2)),
        ];
        for count in 0..=movers.len() {
            let mut walks = Walks::default();
            let paths: Vec<Vec<Hex>> = movers[..count]
                .iter()
                .map(|&(pos, vel)| {
                    walks.push(pos, vel);
                    path(pos, vel)
                })
                .collect();
            walks.walk();
            let steps = sub_steps(&paths);
            for a in 0..=count {
                assert_eq!(walks.path(a), paths.get(a).map_or(&[][..], |p| &p[..]));
                for b in 0..=count {
                    assert_eq!(walks.contact(a, b), contact(&steps, a, b), "{a} {b}");
                }
            }
        }
    }
}

//! High-speed movement on the hex map (vergeworlds-rough-methods.txt, "Tactical Movement",
//! "High Speed Movement") as plain functions over a movement vector: a heading (one of the
//! six hex sides), a speed in meters (hexes) a turn and the drifts accumulated to one side.
//!
//! - From a stop a unit may move a quarter of its Maneuver and keep no vector
//!   ([`free_distance`]); beyond that it carries a vector.
//! - Each turn the speed changes by up to the Maneuver; each 60° turn costs the current
//!   speed out of the Maneuver; what is left gives one-meter drifts that add up, and as many
//!   drifts as the speed turn the heading by 60° and are lost ([`steer`]).
//! - On the turn the vector changes the unit moves its old vector plus half the change
//!   ([`step`]).
//! - Below a quarter of the Maneuver the vector is dropped ([`Vector::kept`]).
//!
//! Decision where the text leaves it to a drawing: the text divides the Maneuver between
//! speed and turning by a second marker; on hexes the costs simply add (speed change,
//! turns × speed, drifts), which is what a hex count of the marker's offset gives.

use hexx::{EdgeDirection, Hex};
use serde::{Deserialize, Serialize};

/// A movement vector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vector {
    /// Heading: index of the hex side (0 to 5, as hexx numbers them).
    pub heading: u8,
    /// Meters (hexes) a turn.
    pub speed: u32,
    /// Drifts to the clockwise side (negative: counter-clockwise), in meters.
    pub drift: i32,
}

/// A turn's use of the Maneuver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Steer {
    /// Speed change, meters a turn (negative: slowing).
    pub accel: i32,
    /// 60° turns, clockwise positive.
    pub turns: i32,
    /// Drifts this turn, clockwise positive.
    pub drift: i32,
}

/// The distance a unit may move from a stop without carrying a vector: a quarter of its
/// Maneuver.
pub fn free_distance(maneuver: u32) -> u32 {
    maneuver / 4
}

/// The hex direction of a heading.
pub fn direction(heading: u8) -> EdgeDirection {
    EdgeDirection::ALL_DIRECTIONS[(heading % 6) as usize]
}

/// The heading nearest to `v` (0 for the null vector).
pub fn heading_of(v: Hex) -> u8 {
    if v == Hex::ZERO {
        return 0;
    }
    let d = Hex::ZERO.main_direction_to(v);
    EdgeDirection::ALL_DIRECTIONS
        .iter()
        .position(|&x| x == d)
        .unwrap_or(0) as u8
}

impl Vector {
    /// Where the vector takes a unit in one turn, as a hex offset: `speed` hexes along the
    /// heading, bent by the drifts towards the neighbouring side.
    pub fn offset(&self) -> Hex {
        let along = direction(self.heading);
        let side_heading = if self.drift >= 0 {
            (self.heading + 1) % 6
        } else {
            (self.heading + 5) % 6
        };
        let side = direction(side_heading);
        let d = self.drift.unsigned_abs().min(self.speed);
        along * (self.speed - d) as i32 + side * d as i32
    }

    /// Whether the vector is kept after a turn at this speed: not below a quarter of the
    /// Maneuver ("If you drop to a speed less than ¼th of your Maneuver value...").
    pub fn kept(&self, maneuver: u32) -> bool {
        self.speed > 0 && 4 * self.speed >= maneuver
    }
}

/// What a steer costs out of the Maneuver: the speed change, the current speed for each
/// 60° turn, and a meter for each drift.
pub fn cost(current: &Vector, plan: &Steer) -> u32 {
    plan.accel.unsigned_abs()
        + plan.turns.unsigned_abs() * current.speed
        + plan.drift.unsigned_abs()
}

/// Why a steer is not allowed, if it is not: over the Maneuver, or over the top speed.
pub fn check(current: &Vector, plan: &Steer, maneuver: u32, top_speed: u32) -> Result<(), String> {
    let c = cost(current, plan);
    if c > maneuver {
        return Err(format!("needs {c} of the Maneuver {maneuver}"));
    }
    let speed = current.speed as i32 + plan.accel;
    if speed < 0 {
        return Err("cannot slow below a stop".into());
    }
    if speed as u32 > top_speed.max(current.speed) {
        return Err(format!("over the top speed {top_speed}"));
    }
    Ok(())
}

/// The vector after a steer: turned, sped up or slowed, drifted; drifts as many as the
/// speed turn the heading by 60° and are lost.
pub fn steer(current: &Vector, plan: &Steer) -> Vector {
    let heading = (current.heading as i32 + plan.turns).rem_euclid(6) as u8;
    let speed = (current.speed as i32 + plan.accel).max(0) as u32;
    let mut v = Vector {
        heading,
        speed,
        drift: if plan.turns != 0 { 0 } else { current.drift } + plan.drift,
    };
    if v.speed > 0 && v.drift.unsigned_abs() >= v.speed {
        let turn = v.drift.signum();
        v.heading = (v.heading as i32 + turn).rem_euclid(6) as u8;
        v.drift = 0;
    }
    if v.speed == 0 {
        v.drift = 0;
    }
    v
}

/// Half a hex offset, rounded to a hex (cube rounding, ties away from zero).
pub fn half(v: Hex) -> Hex {
    let (x, y) = (v.x as f32 / 2.0, v.y as f32 / 2.0);
    Hex::round([x, y])
}

/// Where a unit at `from` ends a turn in which its vector went from `old` to `new`: the old
/// vector's move plus half the change.
pub fn step(from: Hex, old: &Vector, new: &Vector) -> Hex {
    let (a, b) = (old.offset(), new.offset());
    from + a + half(b - a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(heading: u8, speed: u32) -> Vector {
        Vector {
            heading,
            speed,
            drift: 0,
        }
    }

    /// "High Speed Movement": from a stop a quarter of the Maneuver keeps no vector; a
    /// runner with Maneuver 8 who speeds up to 8 moves half the change, 4 hexes, and ends
    /// with a vector of 8 drawn 8 hexes ahead.
    #[test]
    fn speeding_up_from_a_stop() {
        assert_eq!(free_distance(8), 2);
        let stop = Vector::default();
        let plan = Steer {
            accel: 8,
            turns: 0,
            drift: 0,
        };
        assert!(check(&stop, &plan, 8, 12).is_ok());
        let after = steer(&stop, &plan);
        assert_eq!(after, v(0, 8));
        let to = step(Hex::ZERO, &stop, &after);
        assert_eq!(to.unsigned_distance_to(Hex::ZERO), 4);
        assert_eq!(after.offset().unsigned_distance_to(Hex::ZERO), 8);
        // Over the Maneuver is refused; so is over the top speed.
        assert!(check(&stop, &Steer { accel: 9, ..plan }, 8, 12).is_err());
        assert!(check(&after, &Steer { accel: 6, ..plan }, 8, 12).is_err());
    }

    /// "Turning": a 60° turn costs the current speed; at speed 4 with Maneuver 8, one turn
    /// and 4 drifts, or two turns; at speed 8 one turn uses all of it; at speed 12 no turn
    /// is possible and drifts must build up: 8 a turn, so after two turns (16 ≥ 12) the
    /// heading turns 60° and the drifts are lost.
    #[test]
    fn turning_and_drifting() {
        let slow = v(0, 4);
        let two = Steer {
            accel: 0,
            turns: 2,
            drift: 0,
        };
        assert_eq!(cost(&slow, &two), 8);
        assert_eq!(steer(&slow, &two).heading, 2);
        let fast = v(0, 12);
        let turn = Steer {
            accel: 0,
            turns: 1,
            drift: 0,
        };
        assert!(check(&fast, &turn, 8, 12).is_err());
        let drift = Steer {
            accel: 0,
            turns: 0,
            drift: 8,
        };
        let once = steer(&fast, &drift);
        assert_eq!((once.heading, once.drift), (0, 8));
        let twice = steer(&once, &drift);
        assert_eq!((twice.heading, twice.drift), (1, 0));
        // Drifting to the other side turns the other way.
        let left = Steer {
            accel: 0,
            turns: 0,
            drift: -8,
        };
        assert_eq!(steer(&steer(&fast, &left), &left).heading, 5);
    }

    /// Walking a unit through several turns: accelerate, cruise, turn, slow down to below a
    /// quarter of the Maneuver and leave high-speed movement.
    #[test]
    fn several_turns() {
        let maneuver = 6;
        let mut at = Hex::ZERO;
        let mut vec = Vector::default();
        let plans = [
            Steer {
                accel: 6,
                turns: 0,
                drift: 0,
            },
            Steer {
                accel: 0,
                turns: 1,
                drift: 0,
            },
            Steer {
                accel: -5,
                turns: 0,
                drift: 0,
            },
        ];
        let mut trail = Vec::new();
        for p in plans {
            check(&vec, &p, maneuver, 10).expect("legal");
            let next = steer(&vec, &p);
            at = step(at, &vec, &next);
            vec = next;
            trail.push((at, vec));
        }
        // Turn 1: 3 hexes along side 0.
        assert_eq!(trail[0].0, direction(0) * 3);
        // Turn 2: the old 6 along side 0 plus half the change to 6 along side 1.
        let change = direction(1) * 6 - direction(0) * 6;
        assert_eq!(
            trail[1].0,
            direction(0) * 3 + direction(0) * 6 + half(change)
        );
        assert_eq!(trail[1].1, v(1, 6));
        // Turn 3: slowed to 1, under a quarter of 6 (1.5): the vector is dropped.
        assert_eq!(trail[2].1.speed, 1);
        assert!(!trail[2].1.kept(maneuver));
        assert!(trail[1].1.kept(maneuver));
        assert!(v(1, 2).kept(8));
        assert!(!v(1, 1).kept(8));
    }
}

//! Ships (main-sequence.txt, "Spaceships & Gear", "Ship Tags", "Shipboard Weapons", "Ship
//! Destruction", "Ship Detection", "Optional Rule: Systems Failure").

use serde::{Deserialize, Serialize};

/// A ship's four attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShipAttributes {
    /// Hardiness and combat ability.
    pub tactical: i32,
    /// Speed and maneuverability.
    pub propulsion: i32,
    /// Sensors and computing.
    pub sensors: i32,
    /// Size.
    pub tonnage: i32,
}

impl ShipAttributes {
    /// Hit Points: (Tactical + Tonnage) x 4.
    pub fn hit_points(self) -> i32 {
        (self.tactical + self.tonnage) * 4
    }

    /// Defense: Tactical + Propulsion + 6.
    pub fn defense(self) -> i32 {
        self.tactical + self.propulsion + 6
    }

    /// Net Defense: 4 x Sensors.
    pub fn net_defense(self) -> i32 {
        4 * self.sensors
    }

    /// Laser damage: Tactical (range Long, no ammunition).
    pub fn laser_damage(self) -> i32 {
        self.tactical
    }

    /// Torpedo damage: 4 + Tactical (range Medium).
    pub fn torpedo_damage(self) -> i32 {
        4 + self.tactical
    }

    /// Torpedoes carried: 4 x Tactical.
    pub fn torpedoes(self) -> i32 {
        4 * self.tactical
    }
}

/// Temporary shield points of the Shields tag taken `ranks` times: 10, then 5 more.
pub fn shield_points(ranks: u32) -> i32 {
    match ranks {
        0 => 0,
        1 => 10,
        _ => 15,
    }
}

/// Shield points after the once-a-session boost to 75% of full charge ("Ship Tags",
/// Shields), rounded down (a decision; the text gives no rounding): 10 -> 7, 15 -> 11.
/// The session is the battle here.
pub fn boosted_shields(full: i32) -> i32 {
    full * 3 / 4
}

/// Damage Soak of the Armor tag taken `ranks` times: +2, then +1 more.
pub fn armor_soak(ranks: u32) -> i32 {
    match ranks {
        0 => 0,
        1 => 2,
        _ => 3,
    }
}

/// A hit on a ship: shield points take the damage first; what gets through is reduced by
/// the soak; the rest comes off Hit Points, never below 0 (rules/README.md decision 2, the
/// Katath example being self-contradictory). Returns (shields, hit points) after.
pub fn ship_hit(shields: i32, hp: i32, damage: i32, soak: i32) -> (i32, i32) {
    let absorbed = damage.min(shields).max(0);
    let through = (damage - absorbed - soak).max(0);
    (shields - absorbed, (hp - through).max(0))
}

/// The DL to detect a ship: 7, +2 per Stealth rank (two ranks), a cloak (third rank): a
/// roll higher than 19, so DL 20 ("Ship Detection", "Stealth").
pub fn detection_dl(stealth_ranks: u32) -> i32 {
    match stealth_ranks {
        0 => 7,
        1 => 9,
        2 => 11,
        _ => 20,
    }
}

/// Systems failure thresholds (optional rule): a failure when Hit Points fall to 50% and to
/// 25% of full, or to 25% and 10% for a less extreme fight. How many thresholds the drop
/// from `before` to `after` crosses.
pub fn failures_crossed(before: i32, after: i32, full: i32, extreme: bool) -> u32 {
    let marks: [f64; 2] = if extreme { [0.5, 0.25] } else { [0.25, 0.10] };
    marks
        .iter()
        .filter(|&&m| {
            let line = f64::from(full) * m;
            f64::from(before) > line && f64::from(after) <= line
        })
        .count() as u32
}

/// What an attack that would bring a ship to 0 Hit Points does ("Ship Destruction"): each
/// character aboard with Edge spends one and the hit is undone; one without Edge has its
/// console explode (lethal, to 0 HP). With nobody holding Edge the ship is destroyed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destruction {
    /// The ship survives with its Hit Points as before the attack; these crew (by index)
    /// are hurt by exploding consoles.
    Survives {
        /// Crew without Edge.
        consoles: Vec<usize>,
    },
    /// The ship is destroyed, all hands lost.
    Destroyed,
}

/// Decides "Ship Destruction" from each crewman's Edge; spends Edge in place.
pub fn ship_destruction(edge: &mut [i32]) -> Destruction {
    if edge.iter().all(|&e| e <= 0) {
        return Destruction::Destroyed;
    }
    let mut consoles = Vec::new();
    for (i, e) in edge.iter_mut().enumerate() {
        if *e > 0 {
            *e -= 1;
        } else {
            consoles.push(i);
        }
    }
    Destruction::Survives { consoles }
}

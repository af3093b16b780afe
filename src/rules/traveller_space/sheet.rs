//! The stat block of a GURPS Traveller ship as a scenario writes it, its checks, and the
//! resolved sheet the battle uses. The GM screen gives the weapons, sensors and damage
//! tables but no ship design rules, so a scenario states each ship's numbers (Size
//! Modifier, hit points, DR, acceleration, crew skills) as a referee would from the ship's
//! write-up.

use super::tables::{Bridge, Masking, SensorKind, SpaceWeapon, scan_value, space_weapon};
use crate::format::{Path, Problem};
use serde::{Deserialize, Serialize};

/// The crew's skills and size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrewSpec {
    /// Piloting (ramming).
    pub pilot: i32,
    /// Gunner (base skill: the Accuracy bonus is limited to it).
    pub gunner: i32,
    /// Electronics Operations (Sensors).
    pub sensors: i32,
    /// Engineer or Mechanic (damage control).
    pub engineer: i32,
    /// People aboard working the ship (for the casualties of major damage).
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

fn three() -> u32 {
    3
}

fn ten() -> u8 {
    10
}

/// A weapon mount: a weapon of the space weapons table, `count` times (turrets or bays).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MountSpec {
    /// Name from the space weapons table (`"360-MJ Laser"`).
    pub weapon: String,
    /// How many such mounts (each fires once a turn).
    #[serde(default = "one")]
    pub count: u32,
}

/// A ship as a scenario writes it: `TravellerSpace(...)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TravellerShipStats {
    /// Size Modifier (added to gunnery against it and to AESA/PESA scans of it).
    pub sm: i32,
    /// Hull hit points.
    pub hp: i32,
    /// Armor DR.
    #[serde(default)]
    pub dr: i32,
    /// Acceleration in G.
    pub accel: f64,
    /// Tech level: 10 or 12 (the scan values table's columns).
    #[serde(default = "ten")]
    pub tl: u8,
    /// The bridge: `Cockpit`, `Basic` (default) or `Command`.
    #[serde(default = "basic_bridge")]
    pub bridge: Bridge,
    /// Sensors carried: `Aesa`, `Pesa`, `Radscan`.
    #[serde(default)]
    pub sensors: Vec<SensorKind>,
    /// Stealth: `None`, `Basic`, `Radical`.
    #[serde(default)]
    pub stealth: Masking,
    /// Emission cloaking: `None`, `Basic`, `Radical`.
    #[serde(default)]
    pub cloaking: Masking,
    /// Computers aboard (standard bridges have three).
    #[serde(default = "three")]
    pub computers: u32,
    /// The targeting program's bonus to gunnery (needs a working computer and bridge).
    #[serde(default)]
    pub targeting: i32,
    /// Weapon mounts.
    #[serde(default)]
    pub weapons: Vec<MountSpec>,
    /// Missiles carried.
    #[serde(default)]
    pub missiles: u32,
    /// Missiles it can launch in one turn.
    #[serde(default)]
    pub launchers: u32,
    /// The crew.
    pub crew: CrewSpec,
    /// Passengers aboard.
    #[serde(default)]
    pub passengers: u32,
    /// Cargo, tons.
    #[serde(default)]
    pub cargo: u32,
    /// Fuel, tons.
    #[serde(default)]
    pub fuel: u32,
    /// Velocity at the start, hexes a turn as an axial offset `(q, r)`.
    #[serde(default)]
    pub velocity: (i32, i32),
    /// Broadcasting its transponder (+40 to radscans of it).
    #[serde(default)]
    pub transponder: bool,
}

fn basic_bridge() -> Bridge {
    Bridge::Basic
}

/// One resolved weapon mount.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Mount {
    /// The weapon.
    pub weapon: SpaceWeapon,
}

/// A checked ship.
#[derive(Clone, Debug, PartialEq)]
pub struct TravellerShip {
    /// The stat block as written.
    pub stats: TravellerShipStats,
    /// Mounts, one per weapon (a count of 2 is two mounts).
    pub mounts: Vec<Mount>,
    /// Scan values of its sensors, by kind.
    pub scans: Vec<(SensorKind, i32)>,
}

impl TravellerShip {
    /// Checks a stat block, listing every problem with its path.
    pub fn resolve(s: &TravellerShipStats) -> Result<TravellerShip, Vec<Problem>> {
        let root = Path::root();
        let mut problems = Vec::new();
        let mut range = |path: Path, v: i64, lo: i64, hi: i64| {
            if !(lo..=hi).contains(&v) {
                problems.push(Problem::new(
                    path,
                    format!("{v} is out of range: expected {lo} to {hi}"),
                ));
            }
        };
        range(root.field("sm"), i64::from(s.sm), -5, 20);
        range(root.field("hp"), i64::from(s.hp), 1, 10_000_000);
        range(root.field("dr"), i64::from(s.dr), 0, 1_000_000);
        range(root.field("computers"), i64::from(s.computers), 0, 100);
        range(root.field("targeting"), i64::from(s.targeting), 0, 30);
        range(root.field("missiles"), i64::from(s.missiles), 0, 1000);
        range(root.field("launchers"), i64::from(s.launchers), 0, 100);
        range(
            root.field("crew").field("pilot"),
            i64::from(s.crew.pilot),
            0,
            30,
        );
        range(
            root.field("crew").field("gunner"),
            i64::from(s.crew.gunner),
            0,
            30,
        );
        range(
            root.field("crew").field("sensors"),
            i64::from(s.crew.sensors),
            0,
            30,
        );
        range(
            root.field("crew").field("engineer"),
            i64::from(s.crew.engineer),
            0,
            30,
        );
        range(
            root.field("crew").field("count"),
            i64::from(s.crew.count),
            1,
            100_000,
        );
        range(root.field("velocity"), i64::from(s.velocity.0), -200, 200);
        range(root.field("velocity"), i64::from(s.velocity.1), -200, 200);
        if !(s.accel.is_finite() && (0.0..=100.0).contains(&s.accel)) {
            problems.push(Problem::new(
                root.field("accel"),
                format!("{} G is out of range: expected 0 to 100", s.accel),
            ));
        }
        if s.tl != 10 && s.tl != 12 {
            problems.push(Problem::new(
                root.field("tl"),
                format!(
                    "TL {} has no column in the scan values table: expected 10 or 12",
                    s.tl
                ),
            ));
        }
        if s.missiles > 0 && s.launchers == 0 {
            problems.push(Problem::new(
                root.field("launchers"),
                "missiles need at least one launcher",
            ));
        }
        let mut mounts = Vec::new();
        for (i, m) in s.weapons.iter().enumerate() {
            match space_weapon(&m.weapon) {
                Some(w) if (1..=100).contains(&m.count) => {
                    mounts.extend((0..m.count).map(|_| Mount { weapon: w }));
                }
                Some(_) => problems.push(Problem::new(
                    root.field("weapons").index(i).field("count"),
                    format!("{} mounts is out of range: expected 1 to 100", m.count),
                )),
                None => problems.push(Problem::new(
                    root.field("weapons").index(i).field("weapon"),
                    format!(
                        "unknown weapon `{}`: expected one of {}",
                        m.weapon,
                        super::tables::SPACE_WEAPONS
                            .iter()
                            .map(|w| format!("`{}`", w.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )),
            }
        }
        let mut scans = Vec::new();
        for (i, &k) in s.sensors.iter().enumerate() {
            if s.sensors[..i].contains(&k) {
                problems.push(Problem::new(
                    root.field("sensors").index(i),
                    format!("{k:?} is listed twice"),
                ));
            }
            if let Some(v) = scan_value(k, s.tl, s.bridge) {
                scans.push((k, v));
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(TravellerShip {
            stats: s.clone(),
            mounts,
            scans,
        })
    }

    /// The scan value of the ship's sensor of `kind`, if it has one.
    pub fn scan(&self, kind: SensorKind) -> Option<i32> {
        self.scans.iter().find(|(k, _)| *k == kind).map(|(_, v)| *v)
    }
}

//! The space tables of gurps-traveller-gm-screen.txt as data and plain functions: the
//! "SPACE WEAPONS TABLE", the "Scan Values Table" and "Scan Modifiers" of "SENSOR
//! MODIFIERS", the "SPACE RANGE TABLE", the "GUNNERY MODIFIERS" and the "MAJOR DAMAGE
//! TABLE".
//!
//! Decisions where the text is silent, each in one place:
//! - The space range table ends with "etc."; it goes on in the size and speed/range
//!   table's steps (150, 200, 300, 450, 700, 1000 hexes, then ten times those), one more
//!   −1 a step ([`space_range_modifier`]).
//! - A space weapon's RoF (1/60: a shot a minute) fires `turn seconds / 60` shots a turn;
//!   their RoF bonus is the Lite text's rapid-fire table ("RAPID FIRE": 17–24 shots +4 for
//!   the usual 20-minute turn), and the turn's shots make one hit at most
//!   ([`rof_bonus`]).

use crate::dice::{DiceExpr, Gather, Modifier};
use serde::{Deserialize, Serialize};

/// What a space weapon does to armor: "(2)" halves the armor's DR; "(!)" ignores armor DR
/// (but not a meson screen's, which ships here do not carry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ArmorEffect {
    /// Armor DR counts in full.
    Normal,
    /// "(2)": armor DR is halved (rounded down).
    Halved,
    /// "(!)": armor DR is ignored (meson weapons).
    Ignored,
}

/// One row of the space weapons table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SpaceWeapon {
    /// Name as in the table.
    pub name: &'static str,
    /// Seconds between shots (RoF 1/60: 60).
    pub seconds_per_shot: u32,
    /// Half-damage range in hexes.
    pub half_damage: u32,
    /// Maximum range in hexes.
    pub max_range: u32,
    /// Accuracy.
    pub acc: i32,
    /// Damage dice (d6) before the multiplier.
    pub dice: u32,
    /// Damage multiplier ("5d×50": 50).
    pub multiplier: i32,
    /// What it does to armor.
    pub armor: ArmorEffect,
    /// A particle beam or meson gun (the major damage table's result 11).
    pub radiation: bool,
}

impl SpaceWeapon {
    /// The damage dice, as a dice expression (`5d`).
    pub fn damage_dice(&self) -> DiceExpr {
        DiceExpr::d6(self.dice, 0)
    }

    /// Mean damage before armor (for the AI and the odds).
    pub fn mean_damage(&self) -> f64 {
        3.5 * f64::from(self.dice) * f64::from(self.multiplier)
    }
}

/// The space weapons table, in the text's order.
pub const SPACE_WEAPONS: [SpaceWeapon; 6] = [
    SpaceWeapon {
        name: "360-MJ Laser",
        seconds_per_shot: 60,
        half_damage: 2,
        max_range: 6,
        acc: 32,
        dice: 5,
        multiplier: 50,
        armor: ArmorEffect::Halved,
        radiation: false,
    },
    SpaceWeapon {
        name: "405-MJ Laser",
        seconds_per_shot: 60,
        half_damage: 3,
        max_range: 8,
        acc: 33,
        dice: 5,
        multiplier: 100,
        armor: ArmorEffect::Halved,
        radiation: false,
    },
    SpaceWeapon {
        name: "Particle Beam Bay",
        seconds_per_shot: 60,
        half_damage: 1,
        max_range: 4,
        acc: 30,
        dice: 6,
        multiplier: 1000,
        armor: ArmorEffect::Normal,
        radiation: true,
    },
    SpaceWeapon {
        name: "Meson Gun Bay",
        seconds_per_shot: 60,
        half_damage: 1,
        max_range: 4,
        acc: 30,
        dice: 6,
        multiplier: 1000,
        armor: ArmorEffect::Ignored,
        radiation: true,
    },
    SpaceWeapon {
        name: "Spinal P-Beam",
        seconds_per_shot: 60,
        half_damage: 5,
        max_range: 15,
        acc: 36,
        dice: 7,
        multiplier: 3000,
        armor: ArmorEffect::Normal,
        radiation: true,
    },
    SpaceWeapon {
        name: "Spinal Meson Gun",
        seconds_per_shot: 60,
        half_damage: 5,
        max_range: 15,
        acc: 36,
        dice: 7,
        multiplier: 3000,
        armor: ArmorEffect::Ignored,
        radiation: true,
    },
];

/// Looks a weapon up by its name in the table.
pub fn space_weapon(name: &str) -> Option<SpaceWeapon> {
    SPACE_WEAPONS.iter().copied().find(|w| w.name == name)
}

/// The armor DR a hit by `w` meets: halved (rounded down) for "(2)", none for "(!)".
pub fn effective_dr(dr: i32, w: &SpaceWeapon) -> i32 {
    match w.armor {
        ArmorEffect::Normal => dr,
        ArmorEffect::Halved => dr / 2,
        ArmorEffect::Ignored => 0,
    }
}

/// The range modifier of the space range table for a range of `hexes` (decision above
/// for past 100 hexes).
pub fn space_range_modifier(hexes: u32) -> i32 {
    const ROWS: [(u32, i32); 13] = [
        (0, -39),
        (1, -41),
        (2, -43),
        (3, -44),
        (4, -45),
        (7, -46),
        (10, -47),
        (15, -48),
        (20, -49),
        (30, -50),
        (45, -51),
        (70, -52),
        (100, -53),
    ];
    if let Some(&(_, m)) = ROWS.iter().find(|(top, _)| hexes <= *top) {
        return m;
    }
    // Past 100: 150, 200, 300, 450, 700, 1000, then ten times those, −1 a step.
    const STEPS: [u32; 6] = [150, 200, 300, 450, 700, 1000];
    let mut scale = 1u64;
    let mut m = -53;
    loop {
        for s in STEPS {
            m -= 1;
            if u64::from(hexes) <= u64::from(s) * scale {
                return m;
            }
        }
        scale *= 10;
        if scale > 1_000_000 {
            return m;
        }
    }
}

/// The gunnery range modifier: the range in hexes counting the firing hex ("GUNNERY
/// MODIFIERS", Range Modifier), looked up in the space range table.
pub fn gunnery_range_modifier(hexes: u32) -> i32 {
    space_range_modifier(hexes.saturating_add(1))
}

/// The RoF bonus of a space weapon over a turn of `turn_seconds` (decision above).
pub fn rof_bonus(w: &SpaceWeapon, turn_seconds: u32) -> i32 {
    let shots = turn_seconds / w.seconds_per_shot.max(1);
    if shots < 5 {
        0
    } else {
        crate::rules::gurps::combat::rapid_fire_bonus(shots)
    }
}

/// A sensor's kind: active (AESA), passive (PESA) or radiation (radscan).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SensorKind {
    /// Passive electronically scanned array.
    Pesa,
    /// Active electronically scanned array (radar).
    Aesa,
    /// Radiation scanner.
    Radscan,
}

/// Where the sensor is fitted: the rows of the scan values table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bridge {
    /// A cockpit or a small craft's system.
    Cockpit,
    /// A basic bridge.
    Basic,
    /// A command bridge.
    Command,
}

/// The scan value of a sensor at TL 10 or 12 ("Scan Values Table"); `None` at another TL
/// (the table has no other columns).
pub fn scan_value(kind: SensorKind, tl: u8, bridge: Bridge) -> Option<i32> {
    let col = match tl {
        10 => 0,
        12 => 1,
        _ => return None,
    };
    let row: [[i32; 2]; 3] = match kind {
        SensorKind::Pesa => [[35, 37], [37, 38], [39, 41]],
        SensorKind::Aesa => [[39, 40], [41, 42], [42, 43]],
        SensorKind::Radscan => [[29, 31], [31, 35], [32, 38]],
    };
    let r = match bridge {
        Bridge::Cockpit => 0,
        Bridge::Basic => 1,
        Bridge::Command => 2,
    };
    Some(row[r][col])
}

/// Stealth or emission cloaking: none, basic or radical.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Masking {
    /// None.
    #[default]
    None,
    /// Basic.
    Basic,
    /// Radical.
    Radical,
}

/// What a scan sees of its target ("Scan Modifiers").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanTarget {
    /// Range in hexes.
    pub range: u32,
    /// Found on the prior round by another sensor type or a friend's datalink.
    pub prior_detection: bool,
    /// Its Size Modifier.
    pub sm: i32,
    /// Its tech level.
    pub tl: i32,
    /// Its stealth.
    pub stealth: Masking,
    /// Its emission cloaking.
    pub cloaking: Masking,
    /// In the same hex as a planet or moon, or next to one.
    pub near_planet: bool,
    /// It or the sensor is within a planetary atmosphere.
    pub atmosphere: bool,
    /// It (not the sensor) is within a planetary atmosphere.
    pub object_in_atmosphere: bool,
    /// It is silhouetted against a star, seen from the sensor.
    pub silhouetted: bool,
    /// The scan value and TL of the active sensor it is using, if any.
    pub active_sensor: Option<(i32, i32)>,
    /// Its transponder is on.
    pub transponder: bool,
}

/// The scan's modifiers for a sensor of `kind` with scan value `value`, after the crewman's
/// skill ("Scan Modifiers"): the scan value, the range, prior detection, and the kind's own.
pub fn scan_modifiers(kind: SensorKind, value: i32, t: &ScanTarget) -> Vec<Modifier> {
    let mut m = Vec::new();
    gather_scan_modifiers(kind, value, t, &mut m);
    m
}

/// [`scan_modifiers`] into `m` (a list, or only their sum: [`Gather`]).
pub fn gather_scan_modifiers(kind: SensorKind, value: i32, t: &ScanTarget, m: &mut impl Gather) {
    m.push(Modifier::new("scan value", value));
    m.push_named(space_range_modifier(t.range), || {
        format!("range {} hexes", t.range)
    });
    if t.prior_detection {
        m.push(Modifier::new("prior detection", 4));
    }
    let stealth = |basic: i32, radical: i32, s: Masking| match s {
        Masking::None => 0,
        Masking::Basic => basic,
        Masking::Radical => radical,
    };
    match kind {
        SensorKind::Aesa => {
            if t.sm != 0 {
                m.push(Modifier::new("target size", t.sm));
            }
            let s = stealth(-(t.tl - 4), -2 * (t.tl - 4), t.stealth);
            if s != 0 {
                m.push(Modifier::new("stealth", s));
            }
            if t.near_planet {
                m.push(Modifier::new("near a planet", -4));
            }
            if t.atmosphere {
                m.push(Modifier::new("atmosphere", -6));
            }
        }
        SensorKind::Pesa => {
            if t.sm != 0 {
                m.push(Modifier::new("target size", t.sm));
            }
            if t.near_planet {
                m.push(Modifier::new("near a planet", -2));
            }
            if t.silhouetted {
                m.push(Modifier::new("silhouetted against a star", -4));
            }
            if t.atmosphere {
                m.push(Modifier::new("atmosphere", -6));
            }
            // Emission cloaking doubles "if the object is in a planetary atmosphere" (the
            // table's asterisk).
            let double = if t.object_in_atmosphere { 2 } else { 1 };
            let c = stealth(-((t.tl - 4) / 2) * double, -(t.tl - 4) * double, t.cloaking);
            if c != 0 {
                m.push(Modifier::new("emission cloaking", c));
            }
        }
        SensorKind::Radscan => {
            let active = t.active_sensor.map(|(v, tl)| v - tl);
            let transponder = t.transponder.then_some(40);
            match (active, transponder) {
                (Some(a), Some(b)) if b >= a => m.push(Modifier::new("transponder", b)),
                (Some(a), _) => m.push(Modifier::new("active sensors", a)),
                (None, Some(b)) => m.push(Modifier::new("transponder", b)),
                (None, None) => {}
            }
        }
    }
}

/// What a result of the major damage table does ("MAJOR DAMAGE TABLE").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MajorDamage {
    /// Fuel tank shattered: half the fuel lost.
    FuelLost,
    /// 1d passengers hurt (5d each, no DR).
    PassengersHurt,
    /// Jump drive knocked out.
    JumpDrive,
    /// A quarter of the cargo lost.
    Cargo,
    /// One computer knocked out.
    Computer,
    /// 1d crew hurt (5d each, no DR).
    CrewHurt,
    /// Power loss: Gs and jump number halved.
    PowerLoss,
    /// One weapon disabled.
    Weapon,
    /// No effect, unless a particle beam or meson gun: one computer knocked out.
    Radiation,
    /// M-drive acceleration halved (round down).
    ManeuverDrive,
    /// Bridge knocked out.
    Bridge,
    /// Power plant knocked out: the ship is crippled.
    PowerPlant,
}

/// The major damage table by the 3d6 roll.
pub fn major_damage(roll: i32) -> MajorDamage {
    use MajorDamage::*;
    match roll {
        ..=3 | 12 => FuelLost,
        4 | 13 => PassengersHurt,
        5 => JumpDrive,
        6 | 15 => Cargo,
        7 => Computer,
        8 | 17 => CrewHurt,
        9 => PowerLoss,
        10 => Weapon,
        11 => Radiation,
        14 => ManeuverDrive,
        16 => Bridge,
        _ => PowerPlant,
    }
}

/// The casualties' dice of a "1d passengers/crew injured" result: 1d, plus 1d per full
/// 50 people aboard (the table's note).
pub fn casualty_dice(aboard: u32) -> u32 {
    1 + aboard / 50
}

/// An Accuracy bonus as augmented Gunner skill counts it: up to the base Gunner skill
/// ("GUNNERY MODIFIERS").
pub fn acc_bonus(acc: i32, gunner: i32) -> i32 {
    acc.min(gunner.max(0))
}

//! GURPS weapons and armor: the file format, the built-in catalog
//! (`assets/gurps/equipment.ron`, compiled into the binary) and damage by ST.

use super::tables::{DamageType, thrust_swing};
use crate::dice::DiceExpr;
use crate::format::{Path, Problem};
use serde::{Deserialize, Deserializer, Serialize, de};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

/// The built-in catalog's source text.
pub const CATALOG_SOURCE: &str = include_str!("../../../assets/gurps/equipment.ron");

/// Weapon damage as a weapon table gives it: thrust or swing plus a bonus (from the
/// wielder's ST), or fixed dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DamageSpec {
    /// `thr+N`: thrust damage for the wielder's ST, plus N.
    Thrust(i32),
    /// `sw+N`: swing damage for the wielder's ST, plus N.
    Swing(i32),
    /// Fixed dice, e.g. `2d+2` for a pistol.
    Dice(DiceExpr),
}

impl DamageSpec {
    /// The dice for a wielder of strength `st`.
    pub fn for_st(self, st: i32) -> DiceExpr {
        let (thr, sw) = thrust_swing(st);
        match self {
            DamageSpec::Thrust(add) => thr.plus(add),
            DamageSpec::Swing(add) => sw.plus(add),
            DamageSpec::Dice(d) => d,
        }
    }
}

impl fmt::Display for DamageSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (base, add) = match self {
            DamageSpec::Thrust(a) => ("thr", *a),
            DamageSpec::Swing(a) => ("sw", *a),
            DamageSpec::Dice(d) => return write!(f, "{d}"),
        };
        if add == 0 {
            write!(f, "{base}")
        } else {
            write!(f, "{base}{add:+}")
        }
    }
}

impl FromStr for DamageSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let bonus = |rest: &str| -> Result<i32, String> {
            if rest.is_empty() {
                Ok(0)
            } else {
                rest.parse().map_err(|_| {
                    format!("`{text}` is not a damage (expected e.g. `sw+1`, `thr`, `2d+2`)")
                })
            }
        };
        if let Some(rest) = s.strip_prefix("thr") {
            Ok(DamageSpec::Thrust(bonus(rest)?))
        } else if let Some(rest) = s.strip_prefix("sw") {
            Ok(DamageSpec::Swing(bonus(rest)?))
        } else {
            s.parse::<DiceExpr>().map(DamageSpec::Dice).map_err(|_| {
                format!("`{text}` is not a damage (expected e.g. `sw+1`, `thr`, `2d+2`)")
            })
        }
    }
}

impl Serialize for DamageSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DamageSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(de::Error::custom)
    }
}

/// How a weapon attacks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum WeaponMode {
    /// A melee weapon.
    Melee {
        /// Closest reach in hexes (1 = adjacent).
        #[serde(default = "one")]
        reach_min: u32,
        /// Farthest reach in hexes.
        #[serde(default = "one")]
        reach_max: u32,
        /// Parry modifier; `None` if the weapon cannot parry.
        #[serde(default)]
        parry: Option<i32>,
    },
    /// A ranged weapon.
    Ranged {
        /// Accuracy, added after a turn of Aim.
        acc: i32,
        /// Range in yards beyond which damage is halved.
        half_damage: u32,
        /// Maximum range in yards.
        max: u32,
        /// Shots before reloading.
        shots: u32,
        /// Turns of Ready to reload.
        reload: u32,
        /// Bulk (a negative number): the Move and Attack penalty if worse than −2.
        bulk: i32,
        /// Rate of fire: most shots in one attack (default 1).
        #[serde(default = "one")]
        rof: u32,
        /// Recoil: each full multiple of it in the margin of success adds a hit of a
        /// rapid-fire attack (default 1).
        #[serde(default = "one")]
        rcl: u32,
    },
}

fn one() -> u32 {
    1
}

fn unskilled_default() -> i32 {
    -5
}

/// One weapon as a catalog or scenario writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// The skill it is used with ("Broadsword").
    pub skill: String,
    /// Used at DX plus this when the wielder lacks the skill (default −5: "DEFAULTS:
    /// Attribute −5", gurps-lite-and-socs.txt).
    #[serde(default = "unskilled_default")]
    pub unskilled: i32,
    /// Damage: `sw+1`, `thr`, `2d+2`.
    pub damage: DamageSpec,
    /// Damage type: `cr`, `cut`, `imp`, `pi-`, `pi`, `pi+`, `pi++`.
    pub damage_type: DamageType,
    /// Minimum ST; −1 to hit per point short (gurps-traveller-gm-screen.txt, "MODIFIERS TO
    /// ATTACK ROLLS").
    #[serde(default)]
    pub min_st: i32,
    /// Melee or ranged, with the mode's numbers.
    pub mode: WeaponMode,
    /// Hands needed: 1 (default) or 2. Only one-handed weapons can be used two at once
    /// (Dual-Weapon Attack).
    #[serde(default = "one")]
    pub hands: u32,
}

/// One suit of armor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmorSpec {
    /// Damage Resistance over the whole body.
    pub dr: i32,
}

/// A shield in the catalog.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShieldSpec {
    /// Defense Bonus, added to every active defense against attacks from the front.
    pub db: i32,
    /// A large shield: −2 to the bearer's attacks, −1 to its parries
    /// (gurps-traveller-gm-screen.txt, attack and defense modifier lists).
    #[serde(default)]
    pub large: bool,
}

impl WeaponSpec {
    /// Everything wrong with this weapon's numbers (paths relative to the weapon).
    pub fn problems(&self) -> Vec<Problem> {
        let here = Path::root();
        let mut out = Vec::new();
        let mut check = |path: Path, value: i64, lo: i64, hi: i64, what: &str| {
            if !(lo..=hi).contains(&value) {
                out.push(Problem::new(
                    path,
                    format!("{what} {value} is out of range: expected {lo} to {hi}"),
                ));
            }
        };
        check(
            here.field("min_st"),
            i64::from(self.min_st),
            0,
            50,
            "minimum ST",
        );
        check(here.field("hands"), i64::from(self.hands), 1, 2, "hands");
        match self.damage {
            DamageSpec::Thrust(add) | DamageSpec::Swing(add) => {
                check(
                    here.field("damage"),
                    i64::from(add),
                    -20,
                    100,
                    "damage bonus",
                );
            }
            DamageSpec::Dice(d) => {
                check(
                    here.field("damage"),
                    i64::from(d.count),
                    0,
                    100,
                    "damage dice",
                );
                check(
                    here.field("damage"),
                    i64::from(d.add),
                    -100,
                    1000,
                    "damage bonus",
                );
            }
        }
        check(
            here.field("unskilled"),
            i64::from(self.unskilled),
            -10,
            0,
            "unskilled modifier",
        );
        let mode = here.field("mode");
        match self.mode {
            WeaponMode::Melee {
                reach_min,
                reach_max,
                parry,
            } => {
                check(
                    mode.field("reach_min"),
                    i64::from(reach_min),
                    1,
                    10,
                    "reach",
                );
                check(
                    mode.field("reach_max"),
                    i64::from(reach_max),
                    i64::from(reach_min.max(1)),
                    10,
                    "reach",
                );
                if let Some(p) = parry {
                    check(mode.field("parry"), i64::from(p), -5, 5, "parry modifier");
                }
            }
            WeaponMode::Ranged {
                acc,
                half_damage,
                max,
                shots,
                reload,
                bulk,
                rof,
                rcl,
            } => {
                check(mode.field("rof"), i64::from(rof), 1, 1000, "RoF");
                check(mode.field("rcl"), i64::from(rcl), 1, 20, "Rcl");
                check(mode.field("acc"), i64::from(acc), 0, 20, "Acc");
                check(
                    mode.field("max"),
                    i64::from(max),
                    1,
                    1_000_000,
                    "maximum range",
                );
                check(
                    mode.field("half_damage"),
                    i64::from(half_damage),
                    1,
                    i64::from(max.max(1)),
                    "1/2D range",
                );
                check(mode.field("shots"), i64::from(shots), 1, 10_000, "shots");
                check(
                    mode.field("reload"),
                    i64::from(reload),
                    0,
                    100,
                    "reload turns",
                );
                check(mode.field("bulk"), i64::from(bulk), -20, 0, "Bulk");
            }
        }
        out
    }
}

/// Weapons and armor by name (names are matched ignoring case).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    /// Weapons by name.
    #[serde(default, deserialize_with = "crate::format::unique_names")]
    pub weapons: BTreeMap<String, WeaponSpec>,
    /// Armor by name.
    #[serde(default, deserialize_with = "crate::format::unique_names")]
    pub armor: BTreeMap<String, ArmorSpec>,
    /// Shields by name.
    #[serde(default, deserialize_with = "crate::format::unique_names")]
    pub shields: BTreeMap<String, ShieldSpec>,
}

impl Catalog {
    /// The built-in catalog, read once. The file is part of the source tree and checked by
    /// a test, so failing to read it is a build defect, not bad user input.
    pub fn builtin() -> &'static Catalog {
        static CATALOG: LazyLock<Catalog> = LazyLock::new(|| {
            crate::format::ron_options()
                .from_str(CATALOG_SOURCE)
                .expect("assets/gurps/equipment.ron is checked by tests")
        });
        &CATALOG
    }

    /// The catalog with `extra` entries added (replacing entries of the same name).
    pub fn extended(&self, extra: &Catalog) -> Self {
        let mut out = self.clone();
        for (name, w) in &extra.weapons {
            out.weapons.insert(name.to_lowercase(), w.clone());
        }
        for (name, a) in &extra.armor {
            out.armor.insert(name.to_lowercase(), a.clone());
        }
        for (name, sh) in &extra.shields {
            out.shields.insert(name.to_lowercase(), sh.clone());
        }
        out
    }

    /// A shield by name, ignoring case.
    pub fn shield(&self, name: &str) -> Option<&ShieldSpec> {
        self.shields
            .get(name)
            .or_else(|| self.shields.get(&name.to_lowercase()))
    }

    /// A weapon by name, ignoring case.
    pub fn weapon(&self, name: &str) -> Option<&WeaponSpec> {
        self.weapons
            .get(name)
            .or_else(|| self.weapons.get(&name.to_lowercase()))
    }

    /// Armor by name, ignoring case.
    pub fn armor(&self, name: &str) -> Option<&ArmorSpec> {
        self.armor
            .get(name)
            .or_else(|| self.armor.get(&name.to_lowercase()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_catalog_loads_and_is_sane() {
        let c = Catalog::builtin();
        assert!(c.weapons.len() >= 10);
        for (name, w) in &c.weapons {
            assert_eq!(name, &name.to_lowercase(), "catalog names are lower case");
            match w.mode {
                WeaponMode::Melee {
                    reach_min,
                    reach_max,
                    ..
                } => assert!(reach_min >= 1 && reach_min <= reach_max, "{name}"),
                WeaponMode::Ranged {
                    half_damage, max, ..
                } => assert!(half_damage <= max, "{name}"),
            }
        }
        assert!(c.weapon("Broadsword").is_some());
        for (name, w) in &c.weapons {
            assert_eq!(w.problems(), vec![], "{name}");
        }
        assert!(c.armor("leather armor").is_some());
    }

    #[test]
    fn impossible_weapons_are_reported() {
        let mut w = Catalog::builtin().weapon("longbow").cloned().unwrap();
        w.mode = WeaponMode::Ranged {
            acc: 3,
            half_damage: 300,
            max: 200,
            shots: 0,
            reload: 2,
            bulk: 2,
            rof: 0,
            rcl: 1,
        };
        let paths: Vec<String> = w.problems().iter().map(|p| p.path.to_string()).collect();
        assert_eq!(
            paths,
            vec!["mode.rof", "mode.half_damage", "mode.shots", "mode.bulk"]
        );
        let mut w = Catalog::builtin().weapon("spear").cloned().unwrap();
        w.mode = WeaponMode::Melee {
            reach_min: 2,
            reach_max: 1,
            parry: Some(0),
        };
        assert_eq!(w.problems().len(), 1);
    }

    #[test]
    fn damage_specs_parse_and_scale_with_st() {
        let sw1: DamageSpec = "sw+1".parse().unwrap();
        assert_eq!(sw1, DamageSpec::Swing(1));
        assert_eq!(sw1.for_st(10).to_string(), "1d+1");
        assert_eq!(sw1.for_st(13).to_string(), "2d");
        let thr: DamageSpec = "thr".parse().unwrap();
        assert_eq!(thr.for_st(12).to_string(), "1d-1");
        let fixed: DamageSpec = "2d+2".parse().unwrap();
        assert_eq!(fixed.for_st(5).to_string(), "2d+2");
        assert!("swing".parse::<DamageSpec>().is_err());
        assert_eq!(DamageSpec::Thrust(-1).to_string(), "thr-1");
    }
}

//! SOCS craft as a scenario writes them (gurps-lite-and-socs.txt, "Space Opera Combat
//! System (SOCS) - Summary": "SHIP TYPES", "PRE-COMBAT GAME MECHANICS", "WEAPON
//! ATTRIBUTES", "CHARACTER TYPES") and their checked form.

use crate::format::{Path, Problem};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The kind of craft ("SHIP TYPES").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShipClass {
    /// Small craft with fixed-mounted weapons; no hit locations.
    Fighter,
    /// Medium craft with limited weaponry.
    Cutter,
    /// Large, heavily armed ship.
    ShipOfTheLine,
    /// A space station (+6 to be hit).
    Station,
    /// A planet ("PLANETS: Automatic unless targeting specific hit locations"): every
    /// unaimed shot hits; it neither maneuvers nor dodges; its hit locations (cities,
    /// batteries, shield generators) are knocked out one by one, and it is out of the fight
    /// when none is left (a decision: no firepower level destroys a world).
    Planet,
    /// Unarmed shuttle (treated as a cutter for size and restrictions).
    Shuttle,
    /// Unarmed yacht (treated as a cutter).
    Yacht,
    /// Unarmed freighter (treated as a ship of the line).
    Freighter,
}

/// Size group for the to-be-hit modifiers and the class restrictions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SizeGroup {
    /// Fighters.
    Fighter,
    /// Cutters, shuttles, yachts.
    Cutter,
    /// Ships of the line, freighters.
    Line,
    /// Stations.
    Station,
    /// Planets.
    Planet,
}

impl ShipClass {
    /// The size group. The unarmed types' sizes are not in the text: shuttles and yachts
    /// count as cutters, freighters as ships of the line (a decision).
    pub fn group(self) -> SizeGroup {
        match self {
            ShipClass::Fighter => SizeGroup::Fighter,
            ShipClass::Cutter | ShipClass::Shuttle | ShipClass::Yacht => SizeGroup::Cutter,
            ShipClass::ShipOfTheLine | ShipClass::Freighter => SizeGroup::Line,
            ShipClass::Station => SizeGroup::Station,
            ShipClass::Planet => SizeGroup::Planet,
        }
    }

    /// True for the unarmed types ("Unarmed ships fall into three categories").
    pub fn unarmed(self) -> bool {
        matches!(
            self,
            ShipClass::Shuttle | ShipClass::Yacht | ShipClass::Freighter
        )
    }

    /// "TO-HIT MODIFIERS": fighters +0, cutters +2, ships of the line +4, stations +6
    /// (a planet is hit automatically: see [`Craft::aimed_to_be_hit`] for its locations).
    pub fn to_be_hit(self) -> i32 {
        match self.group() {
            SizeGroup::Fighter => 0,
            SizeGroup::Cutter => 2,
            SizeGroup::Line => 4,
            SizeGroup::Station | SizeGroup::Planet => 6,
        }
    }
}

impl fmt::Display for ShipClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            ShipClass::Fighter => "fighter",
            ShipClass::Cutter => "cutter",
            ShipClass::ShipOfTheLine => "ship of the line",
            ShipClass::Station => "station",
            ShipClass::Planet => "planet",
            ShipClass::Shuttle => "shuttle",
            ShipClass::Yacht => "yacht",
            ShipClass::Freighter => "freighter",
        };
        f.write_str(s)
    }
}

/// Firepower levels ("FIREPOWER LEVELS"), weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Firepower {
    /// Blisters paint.
    Cosmetic = 1,
    /// The target loses its next turn and its aiming bonuses; continuing damage.
    Light = 2,
    /// Destroys fighters, disables other ships; minor characters die.
    Heavy = 3,
    /// Vaporizes the target: minor characters die, major ones may.
    Great = 4,
    /// Everyone aboard dies.
    Extreme = 5,
}

impl Firepower {
    /// One level less (a dodge: "Dodges reduce damage by one level"); Cosmetic stays.
    pub fn lower(self) -> Firepower {
        match self {
            Firepower::Cosmetic | Firepower::Light => Firepower::Cosmetic,
            Firepower::Heavy => Firepower::Light,
            Firepower::Great => Firepower::Heavy,
            Firepower::Extreme => Firepower::Great,
        }
    }
}

impl fmt::Display for Firepower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Firepower::Cosmetic => "cosmetic",
            Firepower::Light => "light",
            Firepower::Heavy => "heavy",
            Firepower::Great => "great",
            Firepower::Extreme => "extreme",
        };
        f.write_str(s)
    }
}

/// A weapon's range ("RANGE: Either short or long").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponRange {
    /// Usable at short range only.
    Short,
    /// Usable at short and long range.
    Long,
}

/// A pilot or gunner ("CHARACTER TYPES").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Name.
    pub name: String,
    /// A major character (true) or a minor one (false, default).
    #[serde(default)]
    pub major: bool,
    /// Piloting skill.
    #[serde(default)]
    pub piloting: i32,
    /// Gunner skill.
    #[serde(default)]
    pub gunner: i32,
    /// Skill for the furball's perception roll (Electronics Operation: sensors, Vision...).
    #[serde(default = "default_perception")]
    pub perception: i32,
    /// HT, for the roll to survive a heavy hit (a minor character) or a vaporized ship (a
    /// major one).
    #[serde(default = "default_ht")]
    pub ht: i32,
}

fn default_perception() -> i32 {
    10
}

fn default_ht() -> i32 {
    10
}

/// A weapon mount.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// Name.
    pub name: String,
    /// Firepower level.
    pub firepower: Firepower,
    /// Short or Long.
    pub range: WeaponRange,
    /// Accuracy: added to the gunner's skill.
    #[serde(default)]
    pub acc: i32,
    /// The gunner; none: the pilot fires it (the usual case for fighters).
    #[serde(default)]
    pub gunner: Option<Character>,
    /// Hit location it is mounted in (not for fighters): lost with that location.
    #[serde(default)]
    pub location: Option<String>,
}

/// A craft's stat block as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CraftStats {
    /// Fighter, Cutter, ShipOfTheLine, Station, Shuttle, Yacht or Freighter.
    pub class: ShipClass,
    /// Maneuver Rating.
    pub mr: i32,
    /// Modifier to be hit, replacing the class's (e.g. −1 for a small fighter).
    #[serde(default)]
    pub size: Option<i32>,
    /// Hit locations (every class but fighters needs at least one).
    #[serde(default)]
    pub locations: Vec<String>,
    /// The pilot.
    pub pilot: Character,
    /// Weapons (none for the unarmed types).
    #[serde(default)]
    pub weapons: Vec<WeaponSpec>,
    /// Other people aboard (passengers, crew without a station), for the damage effects.
    #[serde(default)]
    pub aboard: Vec<Character>,
    /// Armour or force shields: "5-EXTREME ... the demise of everyone involved (assuming
    /// no armor or force shields)". Our reading: an extreme hit on such a craft counts as
    /// a great one (vaporized; minor characters die; major ones roll HT).
    #[serde(default)]
    pub armor: bool,
}

/// A checked craft.
#[derive(Clone, Debug, PartialEq)]
pub struct Craft {
    /// The stat block.
    pub stats: CraftStats,
    /// Modifier to be hit.
    pub to_be_hit: i32,
    /// For each weapon, the index of its location (None: no location).
    pub weapon_location: Vec<Option<usize>>,
}

impl Craft {
    /// Checks a stat block, listing every problem with its path.
    pub fn resolve(stats: &CraftStats) -> Result<Craft, Vec<Problem>> {
        let root = Path::root();
        let mut problems = Vec::new();
        let fighter = stats.class == ShipClass::Fighter;
        if !(-5..=10).contains(&stats.mr) {
            problems.push(Problem::new(
                root.field("mr"),
                format!("MR {} is out of range: expected -5 to 10", stats.mr),
            ));
        }
        if fighter && !stats.locations.is_empty() {
            problems.push(Problem::new(
                root.field("locations"),
                "fighters have no hit locations",
            ));
        }
        if !fighter && stats.locations.is_empty() {
            problems.push(Problem::new(
                root.field("locations"),
                format!(
                    "a {} needs hit locations (weapon mounts, engine rooms...)",
                    stats.class
                ),
            ));
        }
        if stats.class.unarmed() && !stats.weapons.is_empty() {
            problems.push(Problem::new(
                root.field("weapons"),
                format!("a {} is unarmed: expected no weapons", stats.class),
            ));
        }
        let mut people = vec![(root.field("pilot"), &stats.pilot)];
        let mut weapon_location = Vec::new();
        for (i, w) in stats.weapons.iter().enumerate() {
            let path = root.field("weapons").index(i);
            if let Some(g) = &w.gunner {
                people.push((path.field("gunner"), g));
            }
            match (&w.location, fighter) {
                (Some(_), true) => {
                    problems.push(Problem::new(
                        path.field("location"),
                        "fighters have no hit locations",
                    ));
                    weapon_location.push(None);
                }
                (Some(l), false) => match stats.locations.iter().position(|x| x == l) {
                    Some(k) => weapon_location.push(Some(k)),
                    None => {
                        problems.push(Problem::new(
                            path.field("location"),
                            format!(
                                "unknown location `{l}`: expected one of the craft's locations"
                            ),
                        ));
                        weapon_location.push(None);
                    }
                },
                (None, _) => weapon_location.push(None),
            }
            if !(-5..=10).contains(&w.acc) {
                problems.push(Problem::new(
                    path.field("acc"),
                    format!("accuracy {} is out of range: expected -5 to 10", w.acc),
                ));
            }
        }
        for (i, c) in stats.aboard.iter().enumerate() {
            people.push((root.field("aboard").index(i), c));
        }
        for (path, c) in people {
            for (field, v) in [
                ("piloting", c.piloting),
                ("gunner", c.gunner),
                ("perception", c.perception),
                ("ht", c.ht),
            ] {
                if !(0..=30).contains(&v) {
                    problems.push(Problem::new(
                        path.field(field),
                        format!("{field} {v} is out of range: expected 0 to 30"),
                    ));
                }
            }
        }
        if let Some(s) = stats.size
            && !(-10..=10).contains(&s)
        {
            problems.push(Problem::new(
                root.field("size"),
                format!("size {s} is out of range: expected -10 to 10"),
            ));
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Craft {
            to_be_hit: stats.size.unwrap_or_else(|| stats.class.to_be_hit()),
            stats: stats.clone(),
            weapon_location,
        })
    }

    /// The character who fires weapon `w`: its gunner, or the pilot.
    pub fn gunner(&self, w: usize) -> &Character {
        self.stats
            .weapons
            .get(w)
            .and_then(|w| w.gunner.as_ref())
            .unwrap_or(&self.stats.pilot)
    }

    /// The modifier to hit one of its hit locations by an aimed shot: a location is one
    /// size smaller than its craft, one row up the "TO-HIT MODIFIERS" list (our decision;
    /// the text names aimed shots only for planets): 2 less than the craft's own, and a
    /// planet's as a station's, +6. `None` for a fighter (no locations).
    pub fn aimed_to_be_hit(&self) -> Option<i32> {
        match self.stats.class {
            ShipClass::Fighter => None,
            ShipClass::Planet => Some(ShipClass::Station.to_be_hit()),
            _ => Some(self.to_be_hit - 2),
        }
    }

    /// True when the pilot fires weapon `w` (so manoeuvring offensively keeps its
    /// Sustained Fire bonus).
    pub fn pilot_fires(&self, w: usize) -> bool {
        self.stats
            .weapons
            .get(w)
            .is_some_and(|w| w.gunner.is_none())
    }

    /// Everyone aboard: the pilot, the gunners, the others.
    pub fn people(&self) -> Vec<&Character> {
        let mut v = vec![&self.stats.pilot];
        v.extend(self.stats.weapons.iter().filter_map(|w| w.gunner.as_ref()));
        v.extend(self.stats.aboard.iter());
        v
    }
}

//! GURPS character sheets: the stat block a scenario writes ([`GurpsStats`]), the resolved
//! sheet with derived values ([`Sheet`]), and the changing state of a fighter in battle
//! ([`Fighter`]).
//!
//! Derived values the quick reference uses but does not define are decisions taken from the
//! GURPS 4e Basic Set, each in one function here, and any of them can be set explicitly in
//! the stat block instead: Basic Speed = (DX + HT) / 4 ([`basic_speed_quarters`]), Basic
//! Move = Basic Speed rounded down, Dodge = Basic Speed rounded down + 3 ([`dodge`]),
//! Parry = 3 + skill / 2 + the weapon's parry modifier ([`parry`]), HP = ST, FP = HT.

use super::criticals::{MissTable, WeaponState};
use super::equipment::{Catalog, DamageSpec, WeaponMode, WeaponSpec};
use super::injury::PainThreshold;
use super::location::{DrPlace, DrTable, HitLocation};
use super::maneuver::Maneuver;
use super::posture::Posture;
use super::tables::DamageType;
use crate::battle::UnitId;
use crate::dice::{DiceExpr, Label};
use crate::format::{Path, Problem};
use bevy::ecs::component::Component;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A GURPS stat block as written in a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GurpsStats {
    /// A GURPS Character Sheet file to take the character from (path relative to the
    /// scenario file): every value below that the stat block does not give comes from it
    /// ([`super::import`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gcs: Option<String>,
    /// Strength (required unless `gcs` gives it).
    #[serde(default)]
    pub st: Option<i32>,
    /// Dexterity (required unless `gcs` gives it).
    #[serde(default)]
    pub dx: Option<i32>,
    /// Intelligence (required unless `gcs` gives it).
    #[serde(default)]
    pub iq: Option<i32>,
    /// Health (required unless `gcs` gives it).
    #[serde(default)]
    pub ht: Option<i32>,
    /// Hit points (default: ST).
    #[serde(default)]
    pub hp: Option<i32>,
    /// Fatigue points (default: HT).
    #[serde(default)]
    pub fp: Option<i32>,
    /// Basic Speed in steps of 0.25 (default: (DX + HT) / 4).
    #[serde(default)]
    pub basic_speed: Option<f64>,
    /// Basic Move in hexes per turn (default: Basic Speed rounded down).
    #[serde(default)]
    pub basic_move: Option<i32>,
    /// Dodge (default: Basic Speed rounded down + 3).
    #[serde(default)]
    pub dodge: Option<i32>,
    /// Natural DR, added to the armor's: one number for the whole body (`dr: 2`) or by
    /// place (`dr: { Torso: 4, Skull: 2, All: 1 }`).
    #[serde(default)]
    pub dr: DrSpec,
    /// Skill levels by name ("Broadsword": 13); a specialization is written in brackets
    /// ("Shield (Buckler)": 12) and serves a weapon that names the skill alone.
    #[serde(default, deserialize_with = "crate::format::unique_names")]
    pub skills: BTreeMap<String, i32>,
    /// Weapons: catalog names (`"broadsword"`), or weapons written out in full with the
    /// wielder's level, damage and parry ([`OwnWeapon`]); none means bare hands
    /// ("punch").
    #[serde(default)]
    pub weapons: Vec<WeaponRef>,
    /// Armor by catalog name.
    #[serde(default)]
    pub armor: Option<String>,
    /// High or Low Pain Threshold (default: neither).
    #[serde(default)]
    pub pain_threshold: PainThreshold,
    /// Size Modifier (a man is 0; gurps-traveller-gm-screen.txt, "SIZE AND SPEED/RANGE
    /// TABLE", second column): added to ranged attacks on this fighter.
    #[serde(default)]
    pub sm: i32,
    /// A shield by catalog name.
    #[serde(default)]
    pub shield: Option<String>,
}

impl Default for GurpsStats {
    /// An average human: 10 in every attribute, no skills, bare hands, no armor.
    fn default() -> Self {
        Self {
            gcs: None,
            st: Some(10),
            dx: Some(10),
            iq: Some(10),
            ht: Some(10),
            hp: None,
            fp: None,
            basic_speed: None,
            basic_move: None,
            dodge: None,
            dr: DrSpec::default(),
            skills: BTreeMap::new(),
            weapons: Vec::new(),
            armor: None,
            pain_threshold: PainThreshold::Normal,
            sm: 0,
            shield: None,
        }
    }
}

/// DR a stat block gives: one number for the whole body, or by place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum DrSpec {
    /// The same DR everywhere (`dr: 2`).
    All(i32),
    /// DR by place (`dr: { Torso: 4, Skull: 2 }`); [`DrTable::from_places`].
    ByPlace(BTreeMap<DrPlace, i32>),
}

impl Default for DrSpec {
    fn default() -> Self {
        DrSpec::All(0)
    }
}

impl DrSpec {
    /// The table of DR by hit location.
    pub fn table(&self) -> DrTable {
        match self {
            DrSpec::All(dr) => DrTable::uniform(*dr),
            DrSpec::ByPlace(places) => DrTable::from_places(places),
        }
    }

    /// Every number given, with the place it is at (for range checks).
    fn values(&self) -> Vec<(Option<DrPlace>, i32)> {
        match self {
            DrSpec::All(dr) => vec![(None, *dr)],
            DrSpec::ByPlace(places) => places.iter().map(|(p, v)| (Some(*p), *v)).collect(),
        }
    }
}

impl<'de> Deserialize<'de> for DrSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = DrSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a DR (`2`) or DR by place (`{ Torso: 4, Skull: 2 }`)")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<DrSpec, E> {
                i32::try_from(v)
                    .map(DrSpec::All)
                    .map_err(|_| E::custom(format!("DR {v} is out of range: expected 0 to 100")))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<DrSpec, E> {
                i32::try_from(v)
                    .map(DrSpec::All)
                    .map_err(|_| E::custom(format!("DR {v} is out of range: expected 0 to 100")))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<DrSpec, A::Error> {
                crate::format::unique_keys(serde::de::value::MapAccessDeserializer::new(map))
                    .map(DrSpec::ByPlace)
            }
        }
        d.deserialize_any(V)
    }
}

/// A weapon in a stat block: a name in the equipment catalog, or written out in full.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum WeaponRef {
    /// A catalog weapon by name (`"broadsword"`).
    Named(String),
    /// A weapon written out (`(name: "Maul", skill: "Two-Handed Axe/Mace", level: 16, …)`).
    Own(Box<OwnWeapon>),
}

impl From<&str> for WeaponRef {
    fn from(name: &str) -> Self {
        WeaponRef::Named(name.to_string())
    }
}

impl From<String> for WeaponRef {
    fn from(name: String) -> Self {
        WeaponRef::Named(name)
    }
}

impl WeaponRef {
    /// The weapon's name.
    pub fn name(&self) -> &str {
        match self {
            WeaponRef::Named(n) => n,
            WeaponRef::Own(w) => &w.name,
        }
    }
}

impl<'de> Deserialize<'de> for WeaponRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = WeaponRef;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a catalog weapon's name (`\"broadsword\"`) or a weapon written out \
                     (`(name: .., skill: .., level: .., damage: .., damage_type: .., mode: ..)`)",
                )
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<WeaponRef, E> {
                Ok(WeaponRef::Named(v.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<WeaponRef, E> {
                Ok(WeaponRef::Named(v))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<WeaponRef, A::Error> {
                OwnWeapon::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|w| WeaponRef::Own(Box::new(w)))
            }
        }
        d.deserialize_any(V)
    }
}

/// A weapon written out in a stat block, as GCS shows it for its wielder: the skill
/// level with it, the damage, and the parry score (imported characters carry theirs this
/// way).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OwnWeapon {
    /// Name, for the log and the sheet ("Maul", "Shortsword (Thrust)").
    pub name: String,
    /// The skill it is used with ("Two-Handed Axe/Mace"): a firearm skill picks the
    /// firearm tables.
    pub skill: String,
    /// The wielder's level with it (1 to 30).
    pub level: i32,
    /// Damage: fixed dice for this wielder (`3d+7`), or `sw+N`/`thr+N` from its ST.
    pub damage: DamageSpec,
    /// Damage type: `cr`, `cut`, `imp`, `pi-`, `pi`, `pi+`, `pi++`.
    pub damage_type: DamageType,
    /// Minimum ST (default 0).
    #[serde(default)]
    pub min_st: i32,
    /// Hands needed: 1 (default) or 2.
    #[serde(default = "one_hand")]
    pub hands: u32,
    /// Melee reach or ranged numbers, as in the catalog (a melee mode's `parry` is not
    /// used: give the score below).
    pub mode: WeaponMode,
    /// Parry score with it (melee), if it can parry.
    #[serde(default)]
    pub parry: Option<i32>,
    /// Its damage is thrust-based though written as fixed dice (GCS's `thr`: a spear, a
    /// knife's thrust); `thr` damage says so itself. An unarmed parry against a thrust
    /// takes no −3 ([`crate::rules::gurps::defense::unarmed_parry_penalty`]).
    #[serde(default, skip_serializing_if = "is_false")]
    pub thrust: bool,
    /// A natural attack (a punch, kick or bite of a GCS trait, whatever its skill): part
    /// of the body, so never dropped or disarmed, and a parry with it is bare-handed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub natural: bool,
}

fn one_hand() -> u32 {
    1
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl OwnWeapon {
    /// The catalog entry this weapon would be (for the catalog's range checks).
    fn as_spec(&self) -> WeaponSpec {
        WeaponSpec {
            skill: self.skill.clone(),
            unskilled: -5,
            damage: self.damage,
            damage_type: self.damage_type,
            min_st: self.min_st,
            mode: match &self.mode {
                WeaponMode::Melee {
                    reach_min,
                    reach_max,
                    ..
                } => WeaponMode::Melee {
                    reach_min: *reach_min,
                    reach_max: *reach_max,
                    parry: None,
                },
                ranged => ranged.clone(),
            },
            hands: self.hands,
        }
    }
}

/// The level of skill `name` in `skills`: written alone ("Shield"), or failing that the
/// best of its specializations ("Shield (Buckler)").
pub fn skill_level(skills: &BTreeMap<String, i32>, name: &str) -> Option<i32> {
    if let Some((_, &v)) = skills.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
        return Some(v);
    }
    // No key is `name` itself here: those that serve it are its specializations.
    skills
        .iter()
        .filter(|(k, _)| serves(k, name))
        .map(|(_, &v)| v)
        .max()
}

/// A skill's name as its base and specialization: `"Shield (Buckler)"` is
/// `("Shield", "Buckler")`; `None` for a name without one.
fn specialization(name: &str) -> Option<(&str, &str)> {
    let (base, rest) = name.split_once(" (")?;
    Some((base, rest.strip_suffix(')')?))
}

/// The skill of `skills` that is `wanted` misspelt: not it (ignoring case), but one or two
/// letters away, a swap of two counting one (one for a name of under six letters):
/// `Guns (Rifles)` for `Guns (Rifle)`, `Broadsord` for `Broadsword`, `Spaer` for `Spear`. A
/// weapon whose skill is not in the block fights at its default; with a skill so near its
/// name there, that is a slip in writing the block, not a fighter without the skill.
///
/// Not a slip: a skill `serves_another` (some weapon's or the shield's own skill), and a
/// specialization of the same skill named one letter off by a name of under five letters
/// (`Guns (LMG)` beside `Guns (SMG)`: both are skills); other specializations are further
/// apart (`Guns (Pistol)` and `Guns (Rifle)`).
fn misspelt<'a>(
    skills: &'a BTreeMap<String, i32>,
    wanted: &str,
    serves_another: impl Fn(&str) -> bool,
) -> Option<&'a str> {
    let wanted = wanted.to_lowercase();
    let distance = |a: &str, b: &str| strsim::damerau_levenshtein(a, b);
    let slip = |name: &str| -> Option<usize> {
        let name = name.to_lowercase();
        if let (Some((base, special)), Some((wanted_base, wanted_special))) =
            (specialization(&name), specialization(&wanted))
            && base == wanted_base
        {
            let d = distance(special, wanted_special);
            return (d == 1 && wanted_special.chars().count() >= 5).then_some(d);
        }
        // A short name ("Bow") is only one letter off: two would reach other words.
        let most = if wanted.chars().count() < 6 { 1 } else { 2 };
        Some(distance(&name, &wanted)).filter(|d| (1..=most).contains(d))
    };
    skills
        .keys()
        .filter(|k| !serves_another(k))
        .filter_map(|k| Some((slip(k)?, k)))
        .min()
        .map(|(_, k)| k.as_str())
}

/// Whether the skill `name` serves a weapon or shield needing `skill`: it is that skill
/// (ignoring case), or a specialization of it (as [`skill_level`] finds it).
fn serves(name: &str, skill: &str) -> bool {
    name.eq_ignore_ascii_case(skill)
        || specialization(name).is_some_and(|(base, _)| base.eq_ignore_ascii_case(skill))
}

/// A weapon as one fighter wields it: skill level and damage worked out.
#[derive(Clone, Debug, PartialEq)]
pub struct Weapon {
    /// Catalog name.
    pub name: Label,
    /// "Parry (name)", for the log.
    pub parry_label: Label,
    /// Name of the skill used.
    pub skill_name: Arc<str>,
    /// Skill level (or its default from DX).
    pub skill: i32,
    /// The fighter lacks the skill and uses it at its default (a punch without Brawling:
    /// DX).
    pub defaulted: bool,
    /// Points of ST short of the weapon's minimum (0 if none).
    pub st_short: i32,
    /// The wielder's ST minus the weapon's minimum ST (negative when short).
    pub st_margin: i32,
    /// Damage dice for this wielder.
    pub damage: DiceExpr,
    /// Damage type.
    pub damage_type: DamageType,
    /// Melee or ranged numbers.
    pub mode: WeaponMode,
    /// Parry score with this weapon, if it can parry.
    pub parry: Option<i32>,
    /// Hands it needs.
    pub hands: u32,
    /// Its damage is thrust-based (`thr`, or a written-out weapon marked
    /// [`OwnWeapon::thrust`]): an unarmed parry against it takes no −3
    /// ([`crate::rules::gurps::defense::unarmed_parry_penalty`]).
    pub thrust: bool,
    /// A natural attack written out as one ([`OwnWeapon::natural`]): never held.
    pub natural: bool,
}

/// Skills of blows struck with the body itself (decision: the texts' unarmed skills,
/// Brawling, Boxing and Karate, and the grappling ones, Judo and Wrestling).
const UNARMED_SKILLS: [&str; 5] = ["Brawling", "Boxing", "Karate", "Judo", "Wrestling"];

impl Weapon {
    /// True for a weapon held in a hand, false for a punch, kick or bite (a natural
    /// attack, or one of an unarmed skill: Brawling, Boxing, Karate, Judo, Wrestling):
    /// what a fighter can drop or be disarmed of.
    pub fn held(&self) -> bool {
        !self.natural
            && !UNARMED_SKILLS
                .iter()
                .any(|s| self.skill_name.eq_ignore_ascii_case(s))
    }

    /// True for a kick (a weapon whose name has the word "kick", as GCS's Natural Attacks
    /// (Kick) does; not "Kickboxing"): after a Committed Attack with it, no Dodge
    /// (gurps-lite-and-socs.txt, "MANEUVERS").
    pub fn is_kick(&self) -> bool {
        self.name
            .split(|c: char| !c.is_alphanumeric())
            .any(|word| word.eq_ignore_ascii_case("kick"))
    }

    /// The critical miss table of this weapon (gurps-traveller-gm-screen.txt, "CRITICAL
    /// MISSES", "FIREARM CRITICAL MISSES"; "UNARMED CRITICAL MISSES": "a punch, kick or
    /// other unarmed strike", so every blow of the body, [`Weapon::held`], natural attacks
    /// whatever their skill included).
    pub fn miss_table(&self) -> MissTable {
        match MissTable::for_skill(&self.skill_name) {
            MissTable::Firearm => MissTable::Firearm,
            _ if !self.held() => MissTable::Unarmed,
            _ => MissTable::Weapon,
        }
    }

    /// True when a blow of this melee weapon reaches a foe `hexes` away (its reach, from
    /// the stat block); a ranged weapon's range is a matter of yards and sight, checked
    /// where the shot is planned.
    pub fn reaches(&self, hexes: u32) -> bool {
        match self.mode {
            WeaponMode::Melee {
                reach_min,
                reach_max,
                ..
            } => (reach_min..=reach_max).contains(&hexes),
            WeaponMode::Ranged { .. } => true,
        }
    }

    /// True for a ranged weapon.
    pub fn is_ranged(&self) -> bool {
        matches!(self.mode, WeaponMode::Ranged { .. })
    }

    /// Shots a full load holds (melee weapons: none needed).
    pub fn capacity(&self) -> Option<u32> {
        match self.mode {
            WeaponMode::Ranged { shots, .. } => Some(shots),
            WeaponMode::Melee { .. } => None,
        }
    }

    /// Rate of fire and recoil (1 and 1 for melee weapons).
    pub fn rof_rcl(&self) -> (u32, u32) {
        match self.mode {
            WeaponMode::Ranged { rof, rcl, .. } => (rof.max(1), rcl.max(1)),
            WeaponMode::Melee { .. } => (1, 1),
        }
    }

    /// Reach in hexes (melee) or maximum range in yards (ranged).
    pub fn reach(&self) -> (u32, u32) {
        match self.mode {
            WeaponMode::Melee {
                reach_min,
                reach_max,
                ..
            } => (reach_min, reach_max),
            WeaponMode::Ranged { max, .. } => (1, max),
        }
    }
}

/// A resolved, unchanging character sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Strength.
    pub st: i32,
    /// Dexterity.
    pub dx: i32,
    /// Intelligence.
    pub iq: i32,
    /// Health.
    pub ht: i32,
    /// Full hit points.
    pub hp_max: i32,
    /// Full fatigue points.
    pub fp_max: i32,
    /// Basic Speed × 4 (kept whole: 5.75 is 23).
    pub speed_quarters: i32,
    /// Basic Move.
    pub basic_move: i32,
    /// Dodge.
    pub dodge: i32,
    /// DR by hit location (armor plus natural; the skull's own 2 comes on top).
    pub dr: DrTable,
    /// Name of the armor worn, if any.
    pub armor: Option<String>,
    /// Weapons, in the order the stat block lists them.
    pub weapons: Vec<Weapon>,
    /// High or Low Pain Threshold, or neither.
    pub pain_threshold: PainThreshold,
    /// Size Modifier.
    pub sm: i32,
    /// The shield carried, if any.
    pub shield: Option<Shield>,
    /// The score used to keep one's feet after knockback, with its name: the best of DX,
    /// Acrobatics and Judo (gurps-lite-and-socs.txt, "KNOCKBACK").
    pub keep_feet: (Label, i32),
    /// Every skill of the stat block with its level, for the sheet.
    pub skills: Arc<[(String, i32)]>,
}

impl Sheet {
    /// Basic Speed as a number (5.75).
    pub fn basic_speed(&self) -> f64 {
        f64::from(self.speed_quarters) / 4.0
    }

    /// The skill a feint is resisted with: the best melee weapon skill, or DX
    /// (gurps-lite-and-socs.txt, "FEINT": "target's highest combat skill or DX").
    pub fn feint_resistance(&self) -> i32 {
        self.weapons
            .iter()
            .filter(|w| !w.is_ranged())
            .map(|w| w.skill)
            .fold(self.dx, i32::max)
    }
}

/// A sheet as `run --json` shows it (its `sheets` list): attributes, derived values, DR by
/// hit location (the skull's own 2 included, as GCS shows it), the shield, and each weapon's skill, level, damage, parry and reach or
/// range.
pub fn sheet_json(sheet: &Sheet) -> serde_json::Value {
    let dr: serde_json::Map<String, serde_json::Value> = HitLocation::ALL
        .iter()
        .map(|l| {
            (
                l.name().to_string(),
                (sheet.dr.at(*l) + l.natural_dr()).into(),
            )
        })
        .collect();
    let weapons: Vec<serde_json::Value> = sheet
        .weapons
        .iter()
        .map(|w| {
            let mut o = serde_json::json!({
                "name": &*w.name,
                "skill": &*w.skill_name,
                "level": w.skill,
                "damage": w.damage.to_string(),
                "damage_type": w.damage_type.abbrev(),
                "parry": w.parry,
            });
            match w.mode {
                WeaponMode::Melee {
                    reach_min,
                    reach_max,
                    ..
                } => o["reach"] = serde_json::json!([reach_min, reach_max]),
                WeaponMode::Ranged {
                    acc,
                    half_damage,
                    max,
                    ..
                } => {
                    o["acc"] = acc.into();
                    o["range"] = serde_json::json!([half_damage, max]);
                }
            }
            o
        })
        .collect();
    serde_json::json!({
        "st": sheet.st,
        "dx": sheet.dx,
        "iq": sheet.iq,
        "ht": sheet.ht,
        "hp": sheet.hp_max,
        "fp": sheet.fp_max,
        "basic_speed": sheet.basic_speed(),
        "basic_move": sheet.basic_move,
        "dodge": sheet.dodge,
        "sm": sheet.sm,
        "dr": dr,
        "pain_threshold": format!("{:?}", sheet.pain_threshold),
        "shield": sheet.shield.as_ref().map(|s| serde_json::json!({
            "name": &*s.name, "db": s.db, "block": s.block,
        })),
        "weapons": weapons,
    })
}

/// Basic Speed × 4 from DX and HT (decision: 4e Basic Set p. B17, (DX + HT) / 4).
pub fn basic_speed_quarters(dx: i32, ht: i32) -> i32 {
    dx + ht
}

/// Dodge from Basic Speed × 4 (decision: 4e Basic Set p. B17, Basic Speed rounded down + 3).
pub fn dodge(speed_quarters: i32) -> i32 {
    speed_quarters.div_euclid(4) + 3
}

/// Parry from a weapon skill and the weapon's parry modifier (decision: 4e Basic Set p.
/// B327, 3 + half the skill rounded down).
pub fn parry(skill: i32, modifier: i32) -> i32 {
    3 + skill.div_euclid(2) + modifier
}

/// Block from the Shield skill and the shield's Defense Bonus (decision: 4e Basic Set p.
/// B324 and B375, 3 + half the skill rounded down, plus DB; the skill defaults to DX − 4).
pub fn block(skill: i32, db: i32) -> i32 {
    3 + skill.div_euclid(2) + db
}

/// A shield as one fighter carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct Shield {
    /// Catalog name.
    pub name: Label,
    /// Defense Bonus.
    pub db: i32,
    /// A large shield.
    pub large: bool,
    /// Block score (DB included).
    pub block: i32,
}

/// Resolves a stat block against a catalog, or lists everything wrong with it (paths are
/// relative to the stat block). A stat block naming a `gcs` file must have been merged
/// with it first ([`super::import::merge`]).
pub fn resolve_sheet(stats: &GurpsStats, catalog: &Catalog) -> Result<Sheet, Vec<Problem>> {
    let here = Path::root();
    let mut problems = Vec::new();
    let mut attribute = |field: &str, value: Option<i32>, what: &str| match value {
        Some(v) => v,
        None => {
            problems.push(Problem::new(
                here.field(field),
                format!("missing {what}: expected a number (or a `gcs` file to take it from)"),
            ));
            10
        }
    };
    let (st, dx, iq, ht) = (
        attribute("st", stats.st, "ST"),
        attribute("dx", stats.dx, "DX"),
        attribute("iq", stats.iq, "IQ"),
        attribute("ht", stats.ht, "HT"),
    );
    let mut check = |path: Path, value: i32, lo: i32, hi: i32, what: &str| {
        if !(lo..=hi).contains(&value) {
            problems.push(Problem::new(
                path,
                format!("{what} {value} is out of range: expected {lo} to {hi}"),
            ));
        }
    };
    check(here.field("st"), st, 1, 50, "ST");
    check(here.field("dx"), dx, 1, 30, "DX");
    check(here.field("iq"), iq, 1, 30, "IQ");
    check(here.field("ht"), ht, 1, 30, "HT");
    if let Some(hp) = stats.hp {
        check(here.field("hp"), hp, 1, 500, "HP");
    }
    if let Some(fp) = stats.fp {
        check(here.field("fp"), fp, 1, 100, "FP");
    }
    if let Some(m) = stats.basic_move {
        check(here.field("basic_move"), m, 0, 30, "Basic Move");
    }
    if let Some(d) = stats.dodge {
        check(here.field("dodge"), d, 1, 30, "Dodge");
    }
    for (place, dr) in stats.dr.values() {
        let path = match place {
            Some(p) => here.field("dr").key(&format!("{p:?}")),
            None => here.field("dr"),
        };
        check(path, dr, 0, 100, "DR");
    }
    check(here.field("sm"), stats.sm, -15, 15, "Size Modifier");
    // What follows reads the numbers within their ranges: a value out of range is reported
    // above, and must not overflow the sums below (DX -2147483648 plus a default's -5).
    let (st, dx, iq, ht) = (
        st.clamp(1, 50),
        dx.clamp(1, 30),
        iq.clamp(1, 30),
        ht.clamp(1, 30),
    );
    let natural_dr = match &stats.dr {
        DrSpec::All(dr) => DrSpec::All((*dr).clamp(0, 100)),
        DrSpec::ByPlace(places) => DrSpec::ByPlace(
            places
                .iter()
                .map(|(k, v)| (*k, (*v).clamp(0, 100)))
                .collect(),
        ),
    }
    .table();
    let within = GurpsStats {
        hp: stats.hp.map(|v| v.clamp(1, 500)),
        fp: stats.fp.map(|v| v.clamp(1, 100)),
        basic_move: stats.basic_move.map(|v| v.clamp(0, 30)),
        dodge: stats.dodge.map(|v| v.clamp(1, 30)),
        sm: stats.sm.clamp(-15, 15),
        ..stats.clone()
    };
    let stats = &within;
    let speed_quarters = match stats.basic_speed {
        Some(s) => {
            let q = s * 4.0;
            if !(1.0..=80.0).contains(&q) || q.fract() != 0.0 {
                problems.push(Problem::new(
                    here.field("basic_speed"),
                    format!("Basic Speed {s} is not valid: expected 0.25 to 20 in steps of 0.25"),
                ));
                basic_speed_quarters(dx, ht)
            } else {
                q as i32
            }
        }
        None => basic_speed_quarters(dx, ht),
    };
    for (name, level) in &stats.skills {
        if !(1..=30).contains(level) {
            problems.push(Problem::new(
                here.field("skills").key(name),
                format!("skill {name} at {level} is out of range: expected 1 to 30"),
            ));
        }
    }
    let armor_dr = match &stats.armor {
        Some(name) => match catalog.armor(name) {
            Some(a) => a.dr,
            None => {
                problems.push(Problem::new(
                    here.field("armor"),
                    format!(
                        "unknown armor `{name}`: expected one of {}",
                        list(catalog.armor.keys())
                    ),
                ));
                0
            }
        },
        None => 0,
    };
    let shield = match &stats.shield {
        Some(name) => match catalog.shield(name) {
            Some(spec) => {
                let skill = skill_level(&stats.skills, "Shield").map_or(dx - 4, |v| v.clamp(1, 30));
                Some(Shield {
                    name: name.clone().into(),
                    db: spec.db,
                    large: spec.large,
                    block: block(skill, spec.db),
                })
            }
            None => {
                problems.push(Problem::new(
                    here.field("shield"),
                    format!(
                        "unknown shield `{name}`: expected one of {}",
                        list(catalog.shields.keys())
                    ),
                ));
                None
            }
        },
        None => None,
    };
    // Everyone can punch: bare hands come after the listed weapons (decision: so that a
    // fighter who loses its weapons still fights, as anyone can in GURPS). Added this way,
    // they do not parry: an unarmed parry against weapons is a poor defense the AI should
    // not pick over a Dodge.
    let mut refs: Vec<WeaponRef> = stats.weapons.clone();
    let implicit_punch = !refs.iter().any(|r| r.name().eq_ignore_ascii_case("punch"))
        && catalog.weapon("punch").is_some();
    if implicit_punch {
        refs.push(WeaponRef::Named("punch".to_string()));
    }
    let mut weapons = Vec::new();
    let mut misspellings: Vec<&str> = Vec::new();
    for (i, weapon) in refs.iter().enumerate() {
        let implicit = implicit_punch && i + 1 == refs.len();
        let name = weapon.name();
        let (spec, skill, parry_score, defaulted, thrust, natural) = match weapon {
            WeaponRef::Named(name) => {
                let Some(spec) = catalog.weapon(name) else {
                    problems.push(Problem::new(
                        here.field("weapons").index(i),
                        format!(
                            "unknown weapon `{name}`: expected one of {}",
                            list(catalog.weapons.keys())
                        ),
                    ));
                    continue;
                };
                let known = skill_level(&stats.skills, &spec.skill);
                if known.is_none()
                    && let Some(slip) = misspelt(&stats.skills, &spec.skill, |k| {
                        serves(k, "Shield")
                            || catalog.weapons.values().any(|w| serves(k, &w.skill))
                            || stats.weapons.iter().any(|w| match w {
                                WeaponRef::Own(own) => serves(k, &own.skill),
                                WeaponRef::Named(_) => false,
                            })
                    })
                    && !misspellings.contains(&slip)
                {
                    problems.push(Problem::new(
                        here.field("skills").key(slip),
                        format!(
                            "skill `{slip}` is not `{}`, the skill of the {name}, which would \
                             fight at its default (DX{:+}): expected `{}` (a name this near a \
                             weapon's skill is taken for a slip)",
                            spec.skill, spec.unskilled, spec.skill
                        ),
                    ));
                    misspellings.push(slip);
                }
                let skill = known.map_or(dx + spec.unskilled, |v| v.clamp(1, 30));
                let parry_score = match spec.mode {
                    WeaponMode::Melee { parry: Some(m), .. } if !implicit => Some(parry(skill, m)),
                    _ => None,
                };
                (
                    spec.clone(),
                    skill,
                    parry_score,
                    known.is_none(),
                    false,
                    false,
                )
            }
            WeaponRef::Own(own) => {
                let path = here.field("weapons").index(i);
                let spec = own.as_spec();
                let found = spec.problems();
                let bad = !found.is_empty();
                problems.extend(found.into_iter().map(|p| Problem {
                    path: path.join(&p.path),
                    message: p.message,
                }));
                if let WeaponMode::Melee { parry: Some(_), .. } = own.mode {
                    problems.push(Problem::new(
                        path.field("mode").field("parry"),
                        "a written-out weapon gives its parry score as `parry`, not a modifier in `mode`",
                    ));
                }
                let mut check = |field: &str, value: i32, what: &str| {
                    if !(1..=30).contains(&value) {
                        problems.push(Problem::new(
                            path.field(field),
                            format!("{what} {value} is out of range: expected 1 to 30"),
                        ));
                    }
                };
                check("level", own.level, "level");
                if let Some(p) = own.parry {
                    check("parry", p, "parry");
                }
                if own.parry.is_some() && matches!(spec.mode, WeaponMode::Ranged { .. }) {
                    problems.push(Problem::new(
                        path.field("parry"),
                        "a ranged weapon cannot parry: expected no `parry`",
                    ));
                }
                if bad {
                    continue;
                }
                (
                    spec,
                    own.level.clamp(1, 30),
                    own.parry.map(|p| p.clamp(1, 30)),
                    false,
                    own.thrust,
                    own.natural,
                )
            }
        };
        weapons.push(Weapon {
            name: name.to_string().into(),
            parry_label: format!("Parry ({name})").into(),
            skill_name: spec.skill.as_str().into(),
            skill,
            defaulted,
            st_short: (spec.min_st.clamp(0, 50) - st).max(0),
            st_margin: st - spec.min_st.clamp(0, 50),
            damage: spec.damage.for_st(st),
            damage_type: spec.damage_type,
            mode: spec.mode.clone(),
            parry: parry_score,
            hands: spec.hands,
            thrust: thrust || matches!(spec.damage, DamageSpec::Thrust(_)),
            natural,
        });
    }
    if weapons.len() > usize::from(u8::MAX) {
        problems.push(Problem::new(here.field("weapons"), "at most 255 weapons"));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut keep_feet = (Label::Static("DX"), dx);
    for (skill, label) in [("Acrobatics", "Acrobatics"), ("Judo", "Judo")] {
        if let Some(level) = skill_level(&stats.skills, skill)
            && level > keep_feet.1
        {
            keep_feet = (Label::Static(label), level);
        }
    }
    Ok(Sheet {
        st,
        dx,
        iq,
        ht,
        hp_max: stats.hp.unwrap_or(st),
        fp_max: stats.fp.unwrap_or(ht),
        speed_quarters,
        basic_move: stats.basic_move.unwrap_or(speed_quarters / 4),
        dodge: stats.dodge.unwrap_or_else(|| dodge(speed_quarters)),
        dr: natural_dr.plus(armor_dr),
        armor: stats.armor.clone(),
        weapons,
        pain_threshold: stats.pain_threshold,
        sm: stats.sm,
        shield,
        keep_feet,
        skills: stats.skills.iter().map(|(k, v)| (k.clone(), *v)).collect(),
    })
}

fn list<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let v: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    v.join(", ")
}

/// Aiming in progress (gurps-lite-and-socs.txt, "AIM").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aim {
    /// At whom.
    pub target: UnitId,
    /// With which weapon (index into the sheet's weapons).
    pub weapon: u8,
    /// Consecutive turns of Aim so far.
    pub turns: u8,
    /// Every turn of it braced (no movement): +1 (decision: 4e Basic Set p. B364).
    pub braced: bool,
}

/// The defenses a fighter has until its next turn, set by its last maneuver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Guard {
    /// Normal active defenses.
    #[default]
    Normal,
    /// No active defense (after an All-Out Attack).
    None,
    /// All-Out Defense: +2 to Dodge.
    IncreasedDodge,
    /// All-Out Defense: +2 to Parry.
    IncreasedParry,
    /// All-Out Defense: two different defenses against one attack.
    DoubleDefense,
    /// After a Committed Attack with this weapon: −2 to defenses, no parry with it.
    Committed(u8),
    /// After a Defensive Attack: +1 to Parry.
    Defensive,
    /// After a Move and Attack with this weapon: no parry with it, unless with Rapid
    /// Recovery for 1 FP (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS"; decision: the
    /// text's "any weapon after a Move and Attack" is read, like its unbalanced weapon after
    /// an Attack, as the weapon that attacked).
    MovedAttack(u8),
}

/// A GURPS fighter in battle: the sheet and everything that changes.
#[derive(Component, Clone, Debug)]
pub struct Fighter {
    /// The unchanging sheet (shared between battles of a preview).
    pub sheet: Arc<Sheet>,
    /// Current hit points.
    pub hp: i32,
    /// Current fatigue points.
    pub fp: i32,
    /// Shots left per weapon (melee weapons: 0, unused).
    pub shots: Vec<u32>,
    /// Turns of reloading done per weapon.
    pub reloading: Vec<u32>,
    /// Aim in progress.
    pub aim: Option<Aim>,
    /// Defenses until the next turn.
    pub guard: Guard,
    /// Yards moved on its last turn: its speed for the range/speed modifier.
    pub moved_yards: u32,
    /// Body posture.
    pub posture: Posture,
    /// Shock penalty (as positive points) on the current turn.
    pub shock: i32,
    /// Shock gathered since the fighter's last turn, for its next turn.
    pub pending_shock: i32,
    /// Stunned: must Do Nothing, active defenses −4, HT roll at the end of each turn.
    pub stunned: bool,
    /// Crippled locations (limbs, extremities, an eye), in the order they were crippled.
    pub crippled: Vec<HitLocation>,
    /// Evaluate in progress: the foe studied and the bonus so far (at most +3).
    pub evaluate: Option<(UnitId, u8)>,
    /// A won feint (foe, margin) for the fighter's next turn.
    pub feint_ready: Option<(UnitId, i32)>,
    /// The won feint that applies on this turn.
    pub feint_on: Option<(UnitId, i32)>,
    /// The maneuver of its last turn (running, a Move and Attack's unsteadiness and a
    /// spent Wait are read from it).
    pub last_maneuver: Option<Maneuver>,
    /// Condition of each weapon.
    pub weapon_state: Vec<WeaponState>,
    /// Limbs crippled for a while ("funny-bone" criticals), with the turns left.
    pub numb: Vec<(HitLocation, u8)>,
    /// A lasting penalty to attack rolls (head-blow blinding), with its cause.
    pub impairment: Option<(&'static str, i32)>,
    /// Knocked off balance by a head blow: may defend but must Do Nothing on its next turn.
    pub lose_turn: bool,
    /// Off balance or guard down after a critical miss: defenses −2 until its next turn.
    pub off_balance: bool,
    /// Mortally wounded: out of the fight; any further failed roll against death kills.
    pub mortal: bool,
    /// Has retreated or dropped since its last turn (once between turns).
    pub retreated: bool,
    /// Its side's morale broke: it runs for the map's edge.
    pub fleeing: bool,
    /// The shield is in hand (a critical failure on a block unreadies it).
    pub shield_ready: bool,
    /// Waiting to attack with this weapon (gurps-lite-and-socs.txt, "WAIT").
    pub waiting: Option<u8>,
    /// Parries made with each weapon since its last turn.
    pub parried: Vec<u8>,
    /// Blocks made since its last turn.
    pub blocked: u8,
    /// Joined a group attack this round: its own turn is spent.
    pub spent: bool,
}

impl Fighter {
    /// A fresh fighter with full HP, FP and loads.
    pub fn new(sheet: Arc<Sheet>) -> Self {
        let shots = sheet
            .weapons
            .iter()
            .map(|w| w.capacity().unwrap_or(0))
            .collect();
        let reloading = vec![0; sheet.weapons.len()];
        Self {
            hp: sheet.hp_max,
            fp: sheet.fp_max,
            shots,
            reloading,
            aim: None,
            guard: Guard::Normal,
            moved_yards: 0,
            posture: Posture::Standing,
            shock: 0,
            pending_shock: 0,
            stunned: false,
            crippled: Vec::new(),
            evaluate: None,
            feint_ready: None,
            feint_on: None,
            last_maneuver: None,
            weapon_state: vec![WeaponState::Ready; sheet.weapons.len()],
            numb: Vec::new(),
            impairment: None,
            lose_turn: false,
            off_balance: false,
            mortal: false,
            retreated: false,
            fleeing: false,
            shield_ready: true,
            waiting: None,
            parried: vec![0; sheet.weapons.len()],
            blocked: 0,
            spent: false,
            sheet,
        }
    }

    /// The last maneuver was Move: +1 hex of Move this turn for running on
    /// (gurps-lite-and-socs.txt, "MANEUVERS", Move).
    pub fn ran(&self) -> bool {
        self.last_maneuver == Some(Maneuver::Move)
    }

    /// Made a Move and Attack on its last turn: −2 on rolls to avoid falling until its next
    /// turn (gurps-lite-and-socs.txt, "MOVE AND ATTACK").
    pub fn unsteady(&self) -> bool {
        self.last_maneuver == Some(Maneuver::MoveAndAttack)
    }

    /// Its last maneuver was Wait.
    pub fn waited(&self) -> bool {
        self.last_maneuver == Some(Maneuver::Wait)
    }

    /// True if a leg or foot is crippled: the fighter cannot stand (decision: 4e Basic Set
    /// p. B420, a crippled leg means falling down and staying down without a crutch).
    pub fn lame(&self) -> bool {
        self.crippled.iter().any(|l| l.is_leg()) || self.numb.iter().any(|(l, _)| l.is_leg())
    }

    /// True if the weapon arm or hand is crippled: its weapons are dropped and cannot be
    /// used or parried with (decision: every weapon is held in the weapon hand).
    pub fn disarmed(&self) -> bool {
        self.crippled.iter().any(|l| l.is_weapon_arm())
            || self.numb.iter().any(|(l, _)| l.is_weapon_arm())
    }

    /// A failed HT roll against knockdown (gurps-lite-and-socs.txt, "Knockdown and
    /// Stunning": stun, falling, and dropping anything in hand): stunned, lying down, its
    /// aim lost, and every ready weapon it holds dropped ([`Weapon::held`]; ready again
    /// after a Ready maneuver, as any dropped weapon). Decision: a shield, strapped to the
    /// arm, is not in hand and stays. Returns whether it dropped anything.
    pub fn knocked_down(&mut self) -> bool {
        self.stunned = true;
        self.posture = Posture::Lying;
        self.aim = None;
        let mut dropped = false;
        for (i, w) in self.sheet.weapons.iter().enumerate() {
            if w.held() && self.weapon_state.get(i) == Some(&WeaponState::Ready) {
                self.weapon_state[i] = WeaponState::Unready;
                dropped = true;
            }
        }
        dropped
    }

    /// True if the off (left) arm is crippled, for good or for a while: no two-handed
    /// weapon and no shield (decision: the shield is worn on the off arm, as every weapon
    /// is held in the weapon hand; the texts say only that the limb is crippled).
    pub fn off_arm_useless(&self) -> bool {
        self.crippled.contains(&HitLocation::LeftArm)
            || self.numb.iter().any(|(l, _)| *l == HitLocation::LeftArm)
    }

    /// True if weapon `i` is ready and the hands it needs can hold it: a two-handed weapon
    /// needs the off arm too ([`Fighter::off_arm_useless`]).
    pub fn wields(&self, i: usize) -> bool {
        self.ready(i)
            && !(self.off_arm_useless() && self.sheet.weapons.get(i).is_some_and(|w| w.hands >= 2))
    }

    /// The shield, if it can defend now: carried, ready, and on an off arm that is not
    /// crippled.
    pub fn shield_in_use(&self) -> Option<&Shield> {
        self.sheet
            .shield
            .as_ref()
            .filter(|_| self.shield_ready && !self.off_arm_useless())
    }

    /// True if a Ready maneuver with no weapon named can take up the shield again: it has
    /// one, dropped, and the off arm that bears it is not crippled (decision: the shield is
    /// on the off arm).
    pub fn can_take_up_shield(&self) -> bool {
        self.sheet.shield.is_some() && !self.shield_ready && !self.off_arm_useless()
    }

    /// True if weapon `i` is in hand and ready.
    pub fn ready(&self, i: usize) -> bool {
        self.weapon_state.get(i) == Some(&WeaponState::Ready)
    }

    /// True if a Ready maneuver can do something for weapon `i`: reload it, ready it after
    /// a drop, or clear a jam; never for a two-handed weapon with the off arm crippled,
    /// which it could not wield ([`Fighter::wields`]).
    pub fn can_ready(&self, i: usize) -> bool {
        if self.off_arm_useless() && self.sheet.weapons.get(i).is_some_and(|w| w.hands >= 2) {
            return false;
        }
        match self.weapon_state.get(i) {
            Some(WeaponState::Unready | WeaponState::Jammed) => !self.disarmed(),
            Some(WeaponState::Ready) => self.sheet.weapons[i]
                .capacity()
                .is_some_and(|cap| self.shots.get(i).copied().unwrap_or(0) < cap),
            _ => false,
        }
    }

    /// True if an eye has been blinded.
    pub fn one_eye(&self) -> bool {
        self.crippled.contains(&HitLocation::Eye)
    }

    /// True if weapon `i` can attack now (ready; melee, or ranged with a shot loaded; with a
    /// crippled weapon arm only bare hands, with a crippled off arm no two-handed weapon).
    pub fn can_use(&self, i: usize) -> bool {
        if !self.wields(i) {
            return false;
        }
        // With the weapon arm crippled only bare hands (the other fist, a kick) still work.
        if self.disarmed() && self.sheet.weapons.get(i).is_none_or(Weapon::held) {
            return false;
        }
        match self.sheet.weapons.get(i) {
            Some(w) if w.is_ranged() => self.shots.get(i).copied().unwrap_or(0) > 0,
            Some(_) => true,
            None => false,
        }
    }
}

/// The penalty to hit a weapon held by a foe (gurps-lite-and-socs.txt, "HIT LOCATIONS",
/// Weapon: −5 reach C melee or pistol, −4 reach 1 melee or carbine, −3 reach 2+ melee or
/// rifle), and −2 more to disarm. Decision: ranged weapons count as pistols when their
/// skill is Guns (Pistol), as rifles when two-handed, as carbines otherwise.
pub fn weapon_target_penalty(weapon: &Weapon, disarm: bool) -> i32 {
    use super::equipment::WeaponMode;
    let base = match weapon.mode {
        WeaponMode::Melee {
            reach_min,
            reach_max,
            ..
        } => {
            if reach_max >= 2 {
                -3
            } else if reach_min == 0 {
                -5
            } else {
                -4
            }
        }
        WeaponMode::Ranged { .. } => {
            if weapon.skill_name.eq_ignore_ascii_case("Guns (Pistol)") {
                -5
            } else if weapon.hands >= 2 {
                -3
            } else {
                -4
            }
        }
    };
    if disarm { base - 2 } else { base }
}

#[cfg(test)]
mod tests;

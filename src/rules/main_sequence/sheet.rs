//! Stat blocks of Main Sequence units as a scenario writes them (a character, or a ship
//! with its crew), their checks against the creation rules, and the resolved sheets the
//! battle uses (main-sequence.txt, "Character Creation", "Skills", "Tags", "Spaceships &
//! Gear", "Ship Tags", "Shipboard Weapons", "Weapons, Armor & Gear").
//!
//! Decisions where the text is silent, each in one place:
//! - A character who carries no melee weapon strikes with fists for 1 bashing damage at
//!   Melee, with the Unarmed skill ([`unarmed`]); the weapons table has no row for fists.
//! - Dual-Wielding's off-hand weapon grants a Parry, and a parry is made with a melee
//!   weapon ("Combat Actions"), so the tag needs two melee weapons.
//! - Thrown explosives are combat rolls: 1d6 + Combat Rating + Athletics ("Attacking").
//! - NPCs (`npc: true`) may break the creation limits and set their own Hit Points and Edge
//!   ("Using Edge": Edge for the GM's important NPCs); player characters may not.
//! - A ship's task falls to the crewman at the matching station, else to whoever aboard is
//!   best at it ([`ShipSheet::best`]).

use super::character::{Attributes, Rank, STARTING_EDGE, creation_problems};
use super::combat::{Band, RateOfFire};
use super::gear::{self, Weapon, WeaponSkill};
use super::ships::{ShipAttributes, armor_soak, shield_points};
use crate::format::{Path, Problem};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The skills of the skill table; Knowledge and Vehicle take a field in brackets.
pub const SKILLS: [&str; 11] = [
    "Acrobatics",
    "Athletics",
    "Awareness",
    "Gunnery",
    "Hacking",
    "Interaction",
    "Larceny",
    "Melee",
    "Ranged",
    "Stealth",
    "Unarmed",
];

/// True when `name` is a skill of the table: one of [`SKILLS`], or `Knowledge (field)` /
/// `Vehicle (field)`.
pub fn is_skill(name: &str) -> bool {
    SKILLS.contains(&name)
        || ["Knowledge (", "Vehicle ("].iter().any(|p| {
            name.strip_prefix(p)
                .and_then(|rest| rest.strip_suffix(')'))
                .is_some_and(|field| !field.trim().is_empty())
        })
}

/// A character's tags that matter in a fight ("Tags"); any other tag is `Other`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tag {
    /// Once per scene a successful roll with the skill counts as a natural 6 (it explodes).
    ExcellentSkill(String),
    /// A free parry with the off-hand weapon.
    DualWielding,
    /// Needs Dual-Wielding: the free parry traded for an extra attack.
    DoubleAttack,
    /// Dodges one attack per combat automatically (listed twice: two).
    Nimble,
    /// Damage Soak 2.
    Tough,
    /// Re-roll a failed roll once per scene without Edge.
    Lucky,
    /// +2 on rolls against the listed sides (direct opponents of the cause).
    Champion(Vec<String>),
    /// Adds the Awareness skill bonus to the Defense of a vehicle the character pilots.
    DefensiveDriver,
    /// A tag with no effect in a fight (Buddy, Contact, Charm...).
    Other(String),
}

/// A character as a scenario writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterStats {
    /// Soldier, 1 to 6.
    pub soldier: i32,
    /// Agent, 1 to 6.
    pub agent: i32,
    /// Tech, 1 to 6.
    pub tech: i32,
    /// Skills by name ("Ranged", "Knowledge (Medicine)") with their rank.
    #[serde(default, deserialize_with = "crate::format::unique_keys")]
    pub skills: BTreeMap<String, Rank>,
    /// Tags, at most three (Nimble taken twice counts two).
    #[serde(default)]
    pub tags: Vec<Tag>,
    /// Weapons by their name in the weapons table.
    #[serde(default)]
    pub weapons: Vec<String>,
    /// Armor by its name in the armor table (the highest soak counts).
    #[serde(default)]
    pub armor: Vec<String>,
    /// Spare loads for each weapon that uses ammunition (default 2).
    #[serde(default)]
    pub reloads: Option<u32>,
    /// Carries a medical kit (+2 to Knowledge (Medicine)).
    #[serde(default)]
    pub medkit: bool,
    /// A non-player character with free stats: the creation limits do not apply.
    #[serde(default)]
    pub npc: bool,
    /// Hit Points (NPCs only; default Soldier + 6).
    #[serde(default)]
    pub hp: Option<i32>,
    /// Edge (NPCs only; default 3).
    #[serde(default)]
    pub edge: Option<i32>,
    /// Defense (NPCs only; default Combat Rating + 4).
    #[serde(default)]
    pub defense: Option<i32>,
}

/// A resolved character.
#[derive(Clone, Debug, PartialEq)]
pub struct Character {
    /// Soldier, Agent, Tech.
    pub attrs: Attributes,
    /// Skill ranks by name.
    pub skills: BTreeMap<String, Rank>,
    /// Tags.
    pub tags: Vec<Tag>,
    /// Weapons, in the order written (Unarmed added when there is no melee weapon).
    pub weapons: Vec<Weapon>,
    /// Damage Soak: best armor plus Tough.
    pub soak: i32,
    /// Full Hit Points.
    pub hp: i32,
    /// Starting Edge.
    pub edge: i32,
    /// Defense.
    pub defense: i32,
    /// Spare loads per weapon.
    pub reloads: u32,
    /// Medical kit.
    pub medkit: bool,
}

/// The fists (see the module's decisions).
pub fn unarmed() -> Weapon {
    Weapon {
        name: "Unarmed".into(),
        skill: WeaponSkill::Unarmed,
        damage: 1,
        bash: true,
        range: Band::Melee,
        rates: Vec::new(),
        ammo: None,
        explosive: false,
        blinds: false,
    }
}

impl Character {
    /// Checks and resolves a stat block, listing every problem with its path.
    pub fn resolve(s: &CharacterStats, side_ids: &[String]) -> Result<Character, Vec<Problem>> {
        let root = Path::root();
        let mut problems = Vec::new();
        let attrs = Attributes {
            soldier: s.soldier,
            agent: s.agent,
            tech: s.tech,
        };
        for (name, rank) in &s.skills {
            if !is_skill(name) {
                problems.push(Problem::new(
                    root.field("skills").key_of(name),
                    format!(
                        "unknown skill `{name}`: expected one of {}, `Knowledge (field)` or `Vehicle (field)`",
                        SKILLS.join(", ")
                    ),
                ));
            }
            if *rank == Rank::Untrained {
                problems.push(Problem::new(
                    root.field("skills").key(name),
                    "Untrained is no rank: leave the skill out",
                ));
            }
        }
        let tag_count: usize = s.tags.len();
        if !s.npc {
            let ranks: Vec<Rank> = s.skills.values().copied().collect();
            for p in creation_problems(attrs, &ranks) {
                problems.push(Problem::new(
                    root.clone(),
                    format!("{p} (the creation rules; mark NPCs with `npc: true`)"),
                ));
            }
            if tag_count > 3 {
                problems.push(Problem::new(
                    root.field("tags"),
                    format!("{tag_count} tags: a character chooses three"),
                ));
            }
            for field in ["hp", "edge", "defense"] {
                let set = match field {
                    "hp" => s.hp.is_some(),
                    "edge" => s.edge.is_some_and(|e| e != STARTING_EDGE),
                    _ => s.defense.is_some(),
                };
                if set {
                    problems.push(Problem::new(
                        root.field(field),
                        format!(
                            "only NPCs set `{field}`: a character's follows from the creation rules"
                        ),
                    ));
                }
            }
        } else {
            for (name, x) in [("soldier", s.soldier), ("agent", s.agent), ("tech", s.tech)] {
                if !(0..=12).contains(&x) {
                    problems.push(Problem::new(
                        root.field(name),
                        format!("{x} is out of range: expected 0 to 12"),
                    ));
                }
            }
        }
        if let Some(hp) = s.hp
            && !(1..=100).contains(&hp)
        {
            problems.push(Problem::new(
                root.field("hp"),
                format!("{hp} hit points is out of range: expected 1 to 100"),
            ));
        }
        if let Some(d) = s.defense
            && !(0..=40).contains(&d)
        {
            problems.push(Problem::new(
                root.field("defense"),
                format!("Defense {d} is out of range: expected 0 to 40"),
            ));
        }
        if let Some(e) = s.edge
            && !(0..=20).contains(&e)
        {
            problems.push(Problem::new(
                root.field("edge"),
                format!("Edge {e} is out of range: expected 0 to 20"),
            ));
        }
        let nimble = s.tags.iter().filter(|t| **t == Tag::Nimble).count();
        if nimble > 2 {
            problems.push(Problem::new(
                root.field("tags"),
                "Nimble can be taken at most twice",
            ));
        }
        if s.tags.contains(&Tag::DoubleAttack) && !s.tags.contains(&Tag::DualWielding) {
            problems.push(Problem::new(
                root.field("tags"),
                "Double Attack requires Dual-Wielding",
            ));
        }
        for (i, t) in s.tags.iter().enumerate() {
            match t {
                Tag::ExcellentSkill(skill) if !is_skill(skill) => problems.push(Problem::new(
                    root.field("tags").index(i),
                    format!("unknown skill `{skill}` for Excellent Skill"),
                )),
                Tag::Champion(sides) => {
                    for (j, id) in sides.iter().enumerate() {
                        if !side_ids.contains(id) {
                            problems.push(Problem::new(
                                root.field("tags").index(i).index(j),
                                format!(
                                    "unknown side `{id}`: expected one of {}",
                                    crate::scenario::id_list(side_ids.iter().map(String::as_str))
                                ),
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
        let mut weapons = Vec::new();
        for (i, name) in s.weapons.iter().enumerate() {
            match gear::weapon(name) {
                Some(w) => weapons.push(w),
                None => problems.push(Problem::new(
                    root.field("weapons").index(i),
                    format!(
                        "unknown weapon `{name}`: expected one of {}",
                        gear::weapons()
                            .iter()
                            .map(|w| format!("`{}`", w.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )),
            }
        }
        if s.tags.contains(&Tag::DualWielding)
            && weapons
                .iter()
                .filter(|w| w.skill == WeaponSkill::Melee)
                .count()
                < 2
        {
            problems.push(Problem::new(
                root.field("weapons"),
                "Dual-Wielding needs two melee weapons",
            ));
        }
        if !weapons.iter().any(|w| w.skill == WeaponSkill::Melee) {
            weapons.push(unarmed());
        }
        let mut worn = Vec::new();
        for (i, name) in s.armor.iter().enumerate() {
            match gear::armor(name) {
                Some(a) => worn.push(a.soak),
                None => problems.push(Problem::new(
                    root.field("armor").index(i),
                    format!(
                        "unknown armor `{name}`: expected one of {}",
                        gear::ARMOR
                            .iter()
                            .map(|a| format!("`{}`", a.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Character {
            attrs,
            skills: s.skills.clone(),
            soak: super::combat::soak(&worn, s.tags.contains(&Tag::Tough)),
            hp: s.hp.unwrap_or(attrs.hit_points()),
            edge: s.edge.unwrap_or(STARTING_EDGE),
            defense: s.defense.unwrap_or(attrs.defense()),
            tags: s.tags.clone(),
            weapons,
            reloads: s.reloads.unwrap_or(2),
            medkit: s.medkit,
        })
    }

    /// The skill's modifier (0 untrained).
    pub fn skill(&self, name: &str) -> i32 {
        self.skills.get(name).map_or(0, |r| r.bonus())
    }

    /// The skill used with a weapon.
    pub fn weapon_skill(w: &Weapon) -> &'static str {
        match w.skill {
            WeaponSkill::Melee => "Melee",
            WeaponSkill::Ranged => "Ranged",
            WeaponSkill::Gunnery => "Gunnery",
            WeaponSkill::Athletics => "Athletics",
            WeaponSkill::Unarmed => "Unarmed",
        }
    }

    /// True with the Excellent Skill tag for `skill`.
    pub fn excellent(&self, skill: &str) -> bool {
        self.tags
            .iter()
            .any(|t| matches!(t, Tag::ExcellentSkill(s) if s == skill))
    }

    /// How many attacks Nimble dodges per combat.
    pub fn nimble(&self) -> u32 {
        self.tags.iter().filter(|t| **t == Tag::Nimble).count() as u32
    }

    /// True with the tag.
    pub fn has(&self, tag: &Tag) -> bool {
        self.tags.contains(tag)
    }

    /// Sides the character champions a cause against.
    pub fn champion_against(&self) -> &[String] {
        self.tags
            .iter()
            .find_map(|t| match t {
                Tag::Champion(v) => Some(v.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }

    /// True when a melee weapon is in hand (for Parry).
    pub fn has_melee_weapon(&self) -> bool {
        self.weapons.iter().any(|w| w.skill == WeaponSkill::Melee)
    }

    /// The modifier of the Vehicle skill named by `field` (`Vehicle (field)`), or without
    /// a field the best Vehicle skill's (for piloting a ship whose scenario names none).
    pub fn vehicle(&self, field: Option<&str>) -> i32 {
        match field {
            Some(f) => self.skill(&format!("Vehicle ({f})")),
            None => self
                .skills
                .iter()
                .filter(|(n, _)| n.starts_with("Vehicle ("))
                .map(|(_, r)| r.bonus())
                .max()
                .unwrap_or(0),
        }
    }
}

/// A ship's tags ("Ship Tags").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShipTag {
    /// 10 temporary hit points (twice: 15).
    Shields,
    /// Two attacks in the attack action (two tags: list it twice).
    DoubleAttack,
    /// One crewman re-rolls a failed roll with the ship's systems once per scene.
    LuckyBoat,
    /// The pilot dodges one attack per combat (twice: two).
    NimbleShip,
    /// Damage Soak 2 (twice: 3).
    Armor,
    /// +2 to the DL of detecting the ship per rank; the third rank is a cloak.
    Stealth,
    /// Faster than light (no effect in a fight).
    FtlDrive,
    /// A tag with no effect in a fight.
    Other(String),
}

/// Where a crewman serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Station {
    /// Commands; rolls the ship's initiative.
    Captain,
    /// Flies: chase rolls, Nimble Ship, Defensive Driver.
    Pilot,
    /// Fires the ship's weapons.
    Gunner,
    /// Detection rolls.
    Sensors,
    /// Repairs failed systems.
    Engineer,
}

/// One crewman as a scenario writes him.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrewSpec {
    /// Name.
    pub name: String,
    /// Station.
    pub station: Station,
    /// The character.
    pub stats: CharacterStats,
}

/// A ship as a scenario writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShipStats {
    /// Tactical.
    pub tactical: i32,
    /// Propulsion.
    pub propulsion: i32,
    /// Sensors.
    pub sensors: i32,
    /// Tonnage.
    pub tonnage: i32,
    /// Tags, at most three (a tag taken twice counts two).
    #[serde(default)]
    pub tags: Vec<ShipTag>,
    /// The crew, at least one.
    pub crew: Vec<CrewSpec>,
    /// A GM's ship with free stats (its own `hp`, more tags).
    #[serde(default)]
    pub npc: bool,
    /// Hit Points (NPC ships only; default (Tactical + Tonnage) x 4).
    #[serde(default)]
    pub hp: Option<i32>,
    /// The field of the Vehicle skill that flies this ship (`"Mid Bulk"` for
    /// `Vehicle (Mid Bulk)`, "Skills"). Without it the pilot uses his best Vehicle skill.
    #[serde(default)]
    pub vehicle: Option<String>,
}

/// One resolved crewman.
#[derive(Clone, Debug, PartialEq)]
pub struct Crewman {
    /// Name.
    pub name: String,
    /// Station.
    pub station: Station,
    /// The character.
    pub character: Character,
}

/// A resolved ship.
#[derive(Clone, Debug, PartialEq)]
pub struct ShipSheet {
    /// The four attributes.
    pub attrs: ShipAttributes,
    /// Full Hit Points.
    pub hp: i32,
    /// Full shield points.
    pub shields: i32,
    /// Damage Soak.
    pub soak: i32,
    /// Attacks per attack action.
    pub attacks: u32,
    /// Lucky Boat.
    pub lucky: bool,
    /// Nimble Ship dodges per combat.
    pub nimble: u32,
    /// Stealth ranks.
    pub stealth: u32,
    /// The crew.
    pub crew: Vec<Crewman>,
    /// Lasers and torpedoes ("Shipboard Weapons").
    pub weapons: Vec<Weapon>,
    /// The field of the Vehicle skill that flies it, if the scenario names one.
    pub vehicle: Option<String>,
}

/// A ship's task, for picking who does it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Initiative.
    Command,
    /// Chase rolls: Agent + Vehicle.
    Pilot,
    /// Firing: Combat Rating + Gunnery.
    Gunnery,
    /// Detection: Tech + Knowledge (Sensors).
    Sensors,
    /// Repairs: Tech + the better of Knowledge (Engineering) and (Mechanics).
    Repair,
    /// First aid to crewmen aboard: Tech + Knowledge (Medicine) (no station: whoever is
    /// best at it).
    Medic,
}

impl Task {
    fn station(self) -> Option<Station> {
        match self {
            Task::Command => Some(Station::Captain),
            Task::Pilot => Some(Station::Pilot),
            Task::Gunnery => Some(Station::Gunner),
            Task::Sensors => Some(Station::Sensors),
            Task::Repair => Some(Station::Engineer),
            Task::Medic => None,
        }
    }

    /// The crewman's bonus at the task, before the ship's attribute; a pilot's Vehicle
    /// skill is the one named by `vehicle` (the ship's), else his best.
    pub fn bonus(self, c: &Character, vehicle: Option<&str>) -> i32 {
        match self {
            Task::Command => c.attrs.initiative(),
            Task::Pilot => c.attrs.agent + c.vehicle(vehicle),
            Task::Gunnery => c.attrs.combat_rating() + c.skill("Gunnery"),
            Task::Sensors => c.attrs.tech + c.skill("Knowledge (Sensors)"),
            Task::Repair => {
                c.attrs.tech
                    + c.skill("Knowledge (Engineering)")
                        .max(c.skill("Knowledge (Mechanics)"))
            }
            Task::Medic => c.attrs.tech + c.skill("Knowledge (Medicine)"),
        }
    }
}

impl ShipSheet {
    /// Checks and resolves a ship, listing every problem with its path.
    pub fn resolve(s: &ShipStats, side_ids: &[String]) -> Result<ShipSheet, Vec<Problem>> {
        let root = Path::root();
        let mut problems = Vec::new();
        for (name, x) in [
            ("tactical", s.tactical),
            ("propulsion", s.propulsion),
            ("sensors", s.sensors),
            ("tonnage", s.tonnage),
        ] {
            if !(0..=10).contains(&x) {
                problems.push(Problem::new(
                    root.field(name),
                    format!("{x} is out of range: expected 0 to 10"),
                ));
            }
        }
        let count = |t: &ShipTag| s.tags.iter().filter(|x| *x == t).count() as u32;
        let doubles = count(&ShipTag::DoubleAttack);
        if doubles == 1 {
            problems.push(Problem::new(
                root.field("tags"),
                "Double Attack takes two tags: list it twice",
            ));
        }
        for t in [ShipTag::Shields, ShipTag::NimbleShip, ShipTag::Armor] {
            if count(&t) > 2 {
                problems.push(Problem::new(
                    root.field("tags"),
                    format!("{t:?} can be taken at most twice"),
                ));
            }
        }
        if count(&ShipTag::Stealth) > 3 {
            problems.push(Problem::new(
                root.field("tags"),
                "Stealth can be taken at most three times",
            ));
        }
        if !s.npc && s.tags.len() > 3 {
            problems.push(Problem::new(
                root.field("tags"),
                format!(
                    "{} tags: a ship has three (mark a GM's ship with `npc: true`)",
                    s.tags.len()
                ),
            ));
        }
        if !s.npc && s.hp.is_some() {
            problems.push(Problem::new(
                root.field("hp"),
                "only NPC ships set `hp`: a ship's follows from Tactical and Tonnage",
            ));
        }
        if let Some(hp) = s.hp
            && !(1..=1000).contains(&hp)
        {
            problems.push(Problem::new(
                root.field("hp"),
                format!("{hp} hit points is out of range: expected 1 to 1000"),
            ));
        }
        if s.crew.is_empty() {
            problems.push(Problem::new(root.field("crew"), "a ship needs a crew"));
        }
        let mut crew = Vec::new();
        for (i, c) in s.crew.iter().enumerate() {
            let path = root.field("crew").index(i);
            if c.name.trim().is_empty() {
                problems.push(Problem::new(path.field("name"), "a crewman needs a name"));
            }
            match Character::resolve(&c.stats, side_ids) {
                Ok(character) => crew.push(Crewman {
                    name: c.name.clone(),
                    station: c.station,
                    character,
                }),
                Err(found) => problems.extend(found.into_iter().map(|p| Problem {
                    path: path.field("stats").join(&p.path),
                    message: p.message,
                })),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let attrs = ShipAttributes {
            tactical: s.tactical,
            propulsion: s.propulsion,
            sensors: s.sensors,
            tonnage: s.tonnage,
        };
        let ship_weapon = |name: &str, damage, range, ammo| Weapon {
            name: name.into(),
            skill: WeaponSkill::Gunnery,
            damage,
            bash: false,
            range,
            rates: vec![RateOfFire::Single],
            ammo,
            explosive: false,
            blinds: false,
        };
        let mut weapons = vec![ship_weapon(
            "Lasers",
            attrs.laser_damage(),
            Band::Long,
            None,
        )];
        if attrs.torpedoes() > 0 {
            weapons.push(ship_weapon(
                "Torpedoes",
                attrs.torpedo_damage(),
                Band::Medium,
                Some(attrs.torpedoes() as u32),
            ));
        }
        Ok(ShipSheet {
            hp: s.hp.unwrap_or(attrs.hit_points()),
            shields: shield_points(count(&ShipTag::Shields)),
            soak: armor_soak(count(&ShipTag::Armor)),
            attacks: if doubles >= 2 { 2 } else { 1 },
            lucky: count(&ShipTag::LuckyBoat) > 0,
            nimble: count(&ShipTag::NimbleShip),
            stealth: count(&ShipTag::Stealth),
            attrs,
            crew,
            weapons,
            vehicle: s.vehicle.clone(),
        })
    }

    /// The crewman (index) who does `task` among those `able`: the best at it among the
    /// crew at its station, else the best of all; None when nobody is able.
    pub fn best(&self, task: Task, able: impl Fn(usize) -> bool) -> Option<usize> {
        let pick = |at_station: bool| {
            self.crew
                .iter()
                .enumerate()
                .filter(|(i, c)| {
                    able(*i) && (!at_station || task.station().is_some_and(|s| c.station == s))
                })
                .max_by_key(|(i, c)| {
                    (
                        task.bonus(&c.character, self.vehicle.as_deref()),
                        std::cmp::Reverse(*i),
                    )
                })
                .map(|(i, _)| i)
        };
        pick(true).or_else(|| pick(false))
    }
}

/// A Main Sequence unit's stat block, as a scenario writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MsStats {
    /// A character fighting in person.
    Character(CharacterStats),
    /// A ship with its crew.
    Ship(ShipStats),
}

/// A resolved Main Sequence unit.
#[derive(Clone, Debug, PartialEq)]
pub enum MsSheet {
    /// A character.
    Character(Character),
    /// A ship.
    Ship(ShipSheet),
}

impl MsSheet {
    /// Checks and resolves a stat block.
    pub fn resolve(s: &MsStats, side_ids: &[String]) -> Result<MsSheet, Vec<Problem>> {
        match s {
            MsStats::Character(c) => Character::resolve(c, side_ids).map(MsSheet::Character),
            MsStats::Ship(c) => ShipSheet::resolve(c, side_ids).map(MsSheet::Ship),
        }
    }

    /// True for a ship.
    pub fn is_ship(&self) -> bool {
        matches!(self, MsSheet::Ship(_))
    }

    /// Full Hit Points.
    pub fn hp(&self) -> i32 {
        match self {
            MsSheet::Character(c) => c.hp,
            MsSheet::Ship(s) => s.hp,
        }
    }

    /// The weapons.
    pub fn weapons(&self) -> &[Weapon] {
        match self {
            MsSheet::Character(c) => &c.weapons,
            MsSheet::Ship(s) => &s.weapons,
        }
    }
}

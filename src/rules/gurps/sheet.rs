//! GURPS character sheets: the stat block a scenario writes ([`GurpsStats`]), the resolved
//! sheet with derived values ([`Sheet`]), and the changing state of a fighter in battle
//! ([`Fighter`]).
//!
//! Derived values the quick reference uses but does not define are decisions taken from the
//! GURPS 4e Basic Set, each in one function here, and any of them can be set explicitly in
//! the stat block instead: Basic Speed = (DX + HT) / 4 ([`basic_speed_quarters`]), Basic
//! Move = Basic Speed rounded down, Dodge = Basic Speed rounded down + 3 ([`dodge`]),
//! Parry = 3 + skill / 2 + the weapon's parry modifier ([`parry`]), HP = ST, FP = HT.

use super::criticals::WeaponState;
use super::equipment::{Catalog, WeaponMode};
use super::injury::PainThreshold;
use super::location::HitLocation;
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
    /// Strength.
    pub st: i32,
    /// Dexterity.
    pub dx: i32,
    /// Intelligence.
    pub iq: i32,
    /// Health.
    pub ht: i32,
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
    /// Natural DR, added to the armor's.
    #[serde(default)]
    pub dr: i32,
    /// Skill levels by name ("Broadsword": 13).
    #[serde(default)]
    pub skills: BTreeMap<String, i32>,
    /// Weapons by catalog name; none means bare hands ("punch").
    #[serde(default)]
    pub weapons: Vec<String>,
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
            st: 10,
            dx: 10,
            iq: 10,
            ht: 10,
            hp: None,
            fp: None,
            basic_speed: None,
            basic_move: None,
            dodge: None,
            dr: 0,
            skills: BTreeMap::new(),
            weapons: Vec::new(),
            armor: None,
            pain_threshold: PainThreshold::Normal,
            sm: 0,
            shield: None,
        }
    }
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
}

impl Weapon {
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
    /// Total DR (armor plus natural).
    pub dr: i32,
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
/// relative to the stat block).
pub fn resolve_sheet(stats: &GurpsStats, catalog: &Catalog) -> Result<Sheet, Vec<Problem>> {
    let here = Path::root();
    let mut problems = Vec::new();
    let mut check = |field: &str, value: i32, lo: i32, hi: i32, what: &str| {
        if !(lo..=hi).contains(&value) {
            problems.push(Problem::new(
                here.field(field),
                format!("{what} {value} is out of range: expected {lo} to {hi}"),
            ));
        }
    };
    check("st", stats.st, 1, 50, "ST");
    check("dx", stats.dx, 1, 30, "DX");
    check("iq", stats.iq, 1, 30, "IQ");
    check("ht", stats.ht, 1, 30, "HT");
    if let Some(hp) = stats.hp {
        check("hp", hp, 1, 500, "HP");
    }
    if let Some(fp) = stats.fp {
        check("fp", fp, 1, 100, "FP");
    }
    if let Some(m) = stats.basic_move {
        check("basic_move", m, 0, 30, "Basic Move");
    }
    if let Some(d) = stats.dodge {
        check("dodge", d, 1, 30, "Dodge");
    }
    check("dr", stats.dr, 0, 100, "DR");
    check("sm", stats.sm, -15, 15, "Size Modifier");
    // What follows reads the numbers within their ranges: a value out of range is reported
    // above, and must not overflow the sums below (DX -2147483648 plus a default's -5).
    let within = GurpsStats {
        st: stats.st.clamp(1, 50),
        dx: stats.dx.clamp(1, 30),
        iq: stats.iq.clamp(1, 30),
        ht: stats.ht.clamp(1, 30),
        hp: stats.hp.map(|v| v.clamp(1, 500)),
        fp: stats.fp.map(|v| v.clamp(1, 100)),
        basic_move: stats.basic_move.map(|v| v.clamp(0, 30)),
        dodge: stats.dodge.map(|v| v.clamp(1, 30)),
        dr: stats.dr.clamp(0, 100),
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
                basic_speed_quarters(stats.dx, stats.ht)
            } else {
                q as i32
            }
        }
        None => basic_speed_quarters(stats.dx, stats.ht),
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
                let skill = stats
                    .skills
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case("Shield"))
                    .map_or(stats.dx - 4, |(_, &v)| v);
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
    let mut names: Vec<String> = stats.weapons.clone();
    let implicit_punch =
        !names.iter().any(|n| n.eq_ignore_ascii_case("punch")) && catalog.weapon("punch").is_some();
    if implicit_punch {
        names.push("punch".to_string());
    }
    let mut weapons = Vec::new();
    for (i, name) in names.iter().enumerate() {
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
        let skill = stats
            .skills
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(&spec.skill))
            .map_or(stats.dx + spec.unskilled, |(_, &v)| v.clamp(1, 30));
        let implicit = implicit_punch && i + 1 == names.len();
        let parry_score = match spec.mode {
            WeaponMode::Melee { parry: Some(m), .. } if !implicit => Some(parry(skill, m)),
            _ => None,
        };
        weapons.push(Weapon {
            name: name.clone().into(),
            parry_label: format!("Parry ({name})").into(),
            skill_name: spec.skill.as_str().into(),
            skill,
            st_short: (spec.min_st - stats.st).max(0),
            st_margin: stats.st - spec.min_st,
            damage: spec.damage.for_st(stats.st),
            damage_type: spec.damage_type,
            mode: spec.mode.clone(),
            parry: parry_score,
            hands: spec.hands,
        });
    }
    if weapons.len() > usize::from(u8::MAX) {
        problems.push(Problem::new(here.field("weapons"), "at most 255 weapons"));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut keep_feet = (Label::Static("DX"), stats.dx);
    for (skill, label) in [("Acrobatics", "Acrobatics"), ("Judo", "Judo")] {
        if let Some((_, &level)) = stats
            .skills
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(skill))
            && level > keep_feet.1
        {
            keep_feet = (Label::Static(label), level);
        }
    }
    Ok(Sheet {
        st: stats.st,
        dx: stats.dx,
        iq: stats.iq,
        ht: stats.ht,
        hp_max: stats.hp.unwrap_or(stats.st),
        fp_max: stats.fp.unwrap_or(stats.ht),
        speed_quarters,
        basic_move: stats.basic_move.unwrap_or(speed_quarters / 4),
        dodge: stats.dodge.unwrap_or_else(|| dodge(speed_quarters)),
        dr: armor_dr + stats.dr,
        armor: stats.armor.clone(),
        weapons,
        pain_threshold: stats.pain_threshold,
        sm: stats.sm,
        shield,
        keep_feet,
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
    /// (gurps-lite-and-socs.txt, "MOVE").
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

    /// True if weapon `i` is in hand and ready.
    pub fn ready(&self, i: usize) -> bool {
        self.weapon_state.get(i) == Some(&WeaponState::Ready)
    }

    /// True if a Ready maneuver can do something for weapon `i`: reload it, ready it after
    /// a drop, or clear a jam.
    pub fn can_ready(&self, i: usize) -> bool {
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
    /// crippled weapon arm only bare hands).
    pub fn can_use(&self, i: usize) -> bool {
        if !self.ready(i) {
            return false;
        }
        // With the weapon arm crippled only bare hands (the other fist, a kick) still work.
        if self.disarmed()
            && self.sheet.weapons.get(i).is_none_or(|w| {
                !matches!(
                    w.skill_name.to_ascii_lowercase().as_str(),
                    "brawling" | "boxing" | "karate"
                )
            })
        {
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
mod tests {
    use super::*;

    fn stats() -> GurpsStats {
        GurpsStats {
            st: 12,
            dx: 13,
            iq: 10,
            ht: 11,
            hp: None,
            fp: None,
            basic_speed: None,
            basic_move: None,
            dodge: None,
            dr: 0,
            skills: [("Broadsword".to_string(), 14)].into_iter().collect(),
            weapons: vec!["broadsword".into(), "short bow".into()],
            armor: Some("leather armor".into()),
            ..Default::default()
        }
    }

    #[test]
    fn derived_values() {
        let sheet = resolve_sheet(&stats(), Catalog::builtin()).unwrap();
        assert_eq!(sheet.speed_quarters, 24);
        assert_eq!(sheet.basic_speed(), 6.0);
        assert_eq!(sheet.basic_move, 6);
        assert_eq!(sheet.dodge, 9);
        assert_eq!(sheet.hp_max, 12);
        assert_eq!(sheet.fp_max, 11);
        assert_eq!(sheet.dr, 2);
        let sword = &sheet.weapons[0];
        assert_eq!(sword.skill, 14);
        assert_eq!(sword.parry, Some(10));
        assert_eq!(sword.damage.to_string(), "1d+3"); // sw 1d+2 at ST 12, +1
        let bow = &sheet.weapons[1];
        assert_eq!(bow.skill, 13 - 5); // Bow defaults to DX-5
        assert_eq!(bow.parry, None);
        assert_eq!(sheet.feint_resistance(), 14);
    }

    #[test]
    fn explicit_values_override_derived_ones() {
        let mut s = stats();
        s.basic_speed = Some(5.75);
        s.dodge = Some(10);
        s.hp = Some(15);
        let sheet = resolve_sheet(&s, Catalog::builtin()).unwrap();
        assert_eq!(sheet.speed_quarters, 23);
        assert_eq!(sheet.basic_move, 5);
        assert_eq!(sheet.dodge, 10);
        assert_eq!(sheet.hp_max, 15);
    }

    #[test]
    fn bad_stats_are_all_reported_with_paths() {
        let mut s = stats();
        s.st = 0;
        s.hp = Some(-3);
        s.skills.insert("Bow".into(), 40);
        s.weapons.push("laser sword".into());
        s.armor = Some("mithril".into());
        s.basic_speed = Some(5.3);
        let problems = resolve_sheet(&s, Catalog::builtin()).unwrap_err();
        let paths: Vec<String> = problems.iter().map(|p| p.path.to_string()).collect();
        assert_eq!(
            paths,
            vec![
                "st",
                "hp",
                "basic_speed",
                "skills[\"Bow\"]",
                "armor",
                "weapons[2]"
            ]
        );
        assert!(problems[1].message.contains("HP -3"));
        assert!(problems[5].message.contains("unknown weapon `laser sword`"));
    }

    /// Block = 3 + Shield/2 + DB (decision: 4e); Shield defaults to DX − 4; unknown shields
    /// are reported.
    #[test]
    fn shields_and_block() {
        let mut s = stats();
        s.shield = Some("medium shield".into());
        let sheet = resolve_sheet(&s, Catalog::builtin()).unwrap();
        let shield = sheet.shield.unwrap();
        assert_eq!((shield.db, shield.block), (2, 3 + 9 / 2 + 2));
        s.skills.insert("Shield".into(), 14);
        let sheet = resolve_sheet(&s, Catalog::builtin()).unwrap();
        assert_eq!(sheet.shield.map(|s| s.block), Some(12));
        s.shield = Some("tower of pride".into());
        let problems = resolve_sheet(&s, Catalog::builtin()).unwrap_err();
        assert!(problems[0].message.contains("unknown shield"));
    }

    #[test]
    fn no_weapons_means_bare_hands() {
        let mut s = stats();
        s.weapons.clear();
        let sheet = resolve_sheet(&s, Catalog::builtin()).unwrap();
        assert_eq!(sheet.weapons.len(), 1);
        assert_eq!(&*sheet.weapons[0].name, "punch");
        assert_eq!(sheet.weapons[0].skill, 13); // Brawling defaults to DX
    }

    #[test]
    fn parry_and_dodge_formulas() {
        assert_eq!(parry(13, 0), 9);
        assert_eq!(parry(14, 0), 10);
        assert_eq!(parry(12, 2), 11);
        assert_eq!(dodge(23), 8);
        assert_eq!(dodge(20), 8);
        assert_eq!(dodge(19), 7);
    }
}

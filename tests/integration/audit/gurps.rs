//! Log auditor: gurps (issue 26). Every shipped `scenarios/gurps-*.ron` is fought over
//! [`seed_count`](super::seed_count) seeds and every logged roll is recomputed from the log
//! and the scenario's own stat blocks (read raw through the library: attributes, skills,
//! the catalog's weapon, armor and shield data). Every derived number (Basic Speed, Dodge,
//! Parry, Block, skill defaults, damage by ST, DR, HP) is worked out here from the texts,
//! never by the program's functions.
//!
//! Rule texts are `gurps-lite-and-socs.txt` ("Lite") and `gurps-traveller-gm-screen.txt`
//! ("Screen") in `../shared/rules/`; where they are silent, the decision a module doc (`//!`)
//! or a named item of `src/rules/gurps/` documents counts as the rule (cited as "decision").
//!
//! What is checked:
//! - **Success rolls** (every 3d6 roll-under: attacks, defenses, HT/DX/IQ rolls): three d6
//!   faces, total = their sum, target = the sum of the modifiers, margin = target − total,
//!   success, and criticals by Lite "CRITICALS" (3–4 always, 5 at effective skill 15+, 6 at
//!   16+; 18 always a critical failure, 17 at effective skill 15 or less) and Screen
//!   "CRITICAL SUCCESS AND FAILURE" (a roll 10 or more over effective skill), which
//!   `dice::gurps_critical` documents as part of the rule.
//! - **Attack modifiers**, label by label: the base is the weapon's skill on the sheet, or
//!   DX + the catalog's default (Lite "DEFAULTS: Attribute -5"); Lite "MANEUVERS" (Move and
//!   Attack −4 melee with a maximum of 9, −2 or Bulk ranged, none with Heroic Charge from
//!   "ATTACK/DEFENSE OPTIONS"; All-Out Attack (Determined) +4 melee / +1 ranged; Committed
//!   Attack +2 and −2 after 2 hexes; Evaluate +1 to +3; Aim +Acc, +1, +2); "ATTACK/DEFENSE
//!   OPTIONS" (Deceptive −2 per level, Telegraphic +4, Dual-Weapon −4 and off hand −4, Rapid
//!   Strike −6 or −3 with Flurry of Blows); "HIT LOCATIONS" modifier column (arm/leg −2,
//!   vitals/groin −3, hand/foot −4, neck/face −5, skull −7, eye −9, chinks −8/−10, weapon
//!   −3/−4/−5 and −2 more to disarm); "POSTURES" (−2 crouching, kneeling, sitting; −4
//!   crawling, lying); "INJURY" Shock (the injury taken since the attacker's last turn,
//!   at most −4; the groin doubles it to at most −8 per "HIT LOCATIONS"; High Pain
//!   Threshold none and Low doubled, decision `injury::shock_after`); "RAPID FIRE";
//!   "GROUP COMBAT" (+2/+4/+6/+8); Screen "MODIFIERS TO ATTACK ROLLS" (ST under minimum, one
//!   eye, large shield), "RANGED ATTACK MODIFIERS" (cover, target's position, behind
//!   someone else −4 each, opportunity fire, wrong target at most 9), "SIZE AND
//!   SPEED/RANGE TABLE" (size, the speed/range column's values). Unknown labels are
//!   reported.
//! - **Defense modifiers**: Dodge = Basic Speed rounded down + 3 with Basic Speed = (DX +
//!   HT) / 4, Parry = 3 + skill / 2 + the weapon's parry modifier, Block = 3 + Shield / 2 +
//!   DB with Shield defaulting to DX − 4 (decisions, `sheet.rs` module doc and `block`);
//!   Lite "ATTACK/DEFENSE OPTIONS" Retreat (+3 to Dodge and Boxing, Judo, Karate or fencing
//!   parries, +1 to any other defense, melee only, once between turns, not when stunned
//!   or after a Committed Attack), Dodge and Drop (+3 Dodge, ranged only), Feverish
//!   Defense +2, Deceptive Attack (−1 per −2 taken), Telegraphic Attack (+2 to Dodge);
//!   "MANEUVERS" (no defense after an All-Out Attack, All-Out Defense +2 to the chosen
//!   defense, Defensive Attack +1 to Parry or Block, not Dodge, Committed Attack −2);
//!   "POSTURES" (kneeling/sitting −2, crawling/lying −3, crouching none); "INJURY" Stunned
//!   −4; "LOST HIT POINTS" (half Dodge, rounded up, exactly when HP are below a third);
//!   Screen "MODIFIERS TO ACTIVE DEFENSE ROLLS" (side attack −2, large shield −1 to Parry)
//!   and "CRITICAL MISSES" 7/13 (off balance −2); the shield's DB and repeated parries −4
//!   each (decisions, `defense.rs`).
//! - **Attack results**: a critical success is a critical hit with no defense (Lite
//!   "Critical hit: Target gets no active defense"); a failure is a miss except an aimed
//!   blow at a location marked * missed by 1 (Lite "HIT LOCATIONS"); two defenses only
//!   under All-Out Defense (Double Defense), and of different kinds.
//! - **Tables**: the hit location roll against Lite "HIT LOCATIONS" (3d6 column); the
//!   critical hit and critical head blow rows against Screen "CRITICAL HITS" and "CRITICAL
//!   HEAD BLOWS" (head table for skull, face and eye); the critical miss tables against
//!   Screen "CRITICAL MISSES", "UNARMED CRITICAL MISSES - STRIKING AND PARRYING" and
//!   "FIREARM CRITICAL MISSES", with their "roll again" exceptions; the morale check's
//!   reaction roll against Lite "REACTION TABLE" and "MORALE CHECKS". A roll on a critical
//!   miss table must follow an attack's critical failure, a defense's critical success
//!   against a melee attack, and a parry's critical failure (Lite "BASE SKILL LEVELS").
//! - **Damage**: the dice from the weapon and the wielder's ST (thrust/swing table,
//!   decision `tables::thrust_swing`), total = faces + modifiers, the maneuver bonuses
//!   (Lite "MANEUVERS": All-Out Attack +2, Committed +1, Defensive −2; Mighty Blow +2), the
//!   damage type's minimum (decision `DamageType::minimum_damage`), critical double/triple
//!   damage on the basic roll and "bypasses all armor" (Screen "CRITICAL HITS"); then every
//!   step to injury recomputed: half damage beyond 1/2D for ranged weapons, the armor's DR
//!   (halved for a chink, Lite "HIT LOCATIONS"), the skull's own DR 2 (Screen "BRAIN"),
//!   the wounding multiplier by type (Lite "WOUNDING MODIFIERS") and location (Lite "HIT
//!   LOCATIONS": skull/eye ×4, limbs pi+/pi++/imp ×1, neck cr ×1.5 cut ×2, vitals pi/imp
//!   ×3), rounded down, at least 1 injury if anything got through (decision
//!   `combat::injury_steps`), and a limb's excess beyond crippling lost; a critical head
//!   blow's scar. HP: hp_before is the unit's HP so far, hp_after = hp_before − injury,
//!   hp_max its HP (ST, Lite/decision).
//! - **What follows a wound**: the HT roll against knockdown exactly after a major wound
//!   (> HP/2, or crippling) or any injury to the head or vitals, with the location's
//!   modifier and +3/−4 for High/Low Pain Threshold (Lite "INJURY", "HIT LOCATIONS"); the
//!   HT rolls at each multiple of −HP crossed and their results (Lite "LOST HIT POINTS",
//!   "INJURY" Mortal Wounds), death at −5×HP; the HT roll to stay conscious at 0 HP or less
//!   with −1 per full multiple of HP below zero; knockback's distance (Lite "KNOCKBACK":
//!   one yard per full multiple of ST − 2 of basic damage; crushing, and cutting that does
//!   not penetrate, decision `knockback::causes_knockback`) and the roll to keep one's
//!   feet (best of DX, Acrobatics, Judo, −1 per yard after the first).

use super::common::{events, faces, kind, modifier, modifier_sum, modifiers};
use super::{Violation, audit_all};
use serde_json::Value;
use skirmish::rules::gurps::Gurps;
use skirmish::rules::gurps::equipment::{DamageSpec, WeaponMode};
use skirmish::rules::gurps::import;
use skirmish::rules::gurps::injury::PainThreshold;
use skirmish::rules::gurps::sheet::{DrSpec, WeaponRef};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The quick reference, cited in violations.
const LITE: &str = "gurps-lite-and-socs.txt";
/// The Traveller GM screen, cited in violations.
const SCREEN: &str = "gurps-traveller-gm-screen.txt";

/// Program bugs the auditor finds that are not fixed yet, by the tag their violations start
/// with; such violations are not reported. Remove a tag once the bug is fixed.
const KNOWN_BUGS: &[&str] = &[];

/// Was a bug (fixed; the tag still names the check): a group attack's critical hit rolls on the critical hit (or head blow) table
/// and applies the row, but writes no `roll` event for it (`systems/turn_parts.rs`,
/// `group_attack` drops `outcome.critical`'s roll), so the doubled or armor-bypassing
/// damage cannot be checked against Screen "CRITICAL HITS".
const GROUP_CRITICAL_UNLOGGED: &str = "[known: group critical table unlogged]";

/// Was a bug (fixed; the tag still names the check): parries and blocks against a group attack are not counted for the defender's
/// later parries (`systems/turn_parts.rs`, `group_attack` never increments `parried` /
/// `blocked`), so the next parry with that weapon before the defender's turn misses its
/// −4 (decision `defense::REPEATED_PARRY`).
const GROUP_PARRY_UNCOUNTED: &str = "[known: parry against a group attack uncounted]";

/// One weapon as the auditor works it out from the stat block and the catalog.
#[derive(Clone, Debug)]
struct Arm {
    /// Catalog name ("broadsword").
    name: String,
    /// Skill used.
    skill_name: String,
    /// Effective skill level (or default).
    skill: i32,
    /// Parry score, if the weapon can parry.
    parry: Option<i32>,
    /// Damage dice for the wielder, as the log writes them.
    dice: String,
    /// Damage type abbreviation.
    damage_type: String,
    /// Ranged: (Acc, Bulk).
    ranged: Option<(i32, i32)>,
    /// ST short of the weapon's minimum.
    st_short: i32,
}

/// One fighter's sheet as the auditor works it out.
#[derive(Clone, Debug)]
struct Body {
    st: i32,
    dx: i32,
    iq: i32,
    ht: i32,
    hp: i32,
    dodge: i32,
    /// DR by the log's location names ("torso", "right arm"…), armor included.
    dr: BTreeMap<&'static str, i32>,
    sm: i32,
    pain: PainThreshold,
    weapons: Vec<Arm>,
    /// Shield: (name, DB, large, Block).
    shield: Option<(String, i32, bool, i32)>,
    /// Best of DX, Acrobatics and Judo.
    keep_feet: i32,
}

impl Body {
    fn weapon(&self, name: &str) -> Option<&Arm> {
        self.weapons.iter().find(|w| w.name == name)
    }
}

/// Basic thrust and swing damage by ST as (dice, add) pairs, ST 1–30 (decision
/// `tables::thrust_swing`: the 4e Basic Set table, which the quick reference lacks).
const THRUST_SWING: [(i32, i32, i32, i32); 30] = [
    (1, -6, 1, -5),
    (1, -6, 1, -5),
    (1, -5, 1, -4),
    (1, -5, 1, -4),
    (1, -4, 1, -3),
    (1, -4, 1, -3),
    (1, -3, 1, -2),
    (1, -3, 1, -2),
    (1, -2, 1, -1),
    (1, -2, 1, 0),
    (1, -1, 1, 1),
    (1, -1, 1, 2),
    (1, 0, 2, -1),
    (1, 0, 2, 0),
    (1, 1, 2, 1),
    (1, 1, 2, 2),
    (1, 2, 3, -1),
    (1, 2, 3, 0),
    (2, -1, 3, 1),
    (2, -1, 3, 2),
    (2, 0, 4, -1),
    (2, 0, 4, 0),
    (2, 1, 4, 1),
    (2, 1, 4, 2),
    (2, 2, 5, -1),
    (2, 2, 5, 0),
    (3, -1, 5, 1),
    (3, -1, 5, 1),
    (3, 0, 5, 2),
    (3, 0, 5, 2),
];

/// DR at each location the log names, from a stat block's `dr` (one number, or by place
/// with `All` for the rest; an arm or leg place covers both) plus the armor's over the
/// whole body.
fn dr_by_location(dr: &DrSpec, armor: i32) -> BTreeMap<&'static str, i32> {
    const PLACES: [(&str, &[&str]); 11] = [
        ("Skull", &["skull"]),
        ("Eye", &["eye"]),
        ("Face", &["face"]),
        ("Neck", &["neck"]),
        ("Torso", &["torso"]),
        ("Vitals", &["vitals"]),
        ("Groin", &["groin"]),
        ("Arm", &["right arm", "left arm"]),
        ("Hand", &["hand"]),
        ("Leg", &["right leg", "left leg"]),
        ("Foot", &["foot"]),
    ];
    let mut out = BTreeMap::new();
    for (place, names) in PLACES {
        let natural = match dr {
            DrSpec::All(v) => *v,
            DrSpec::ByPlace(by) => {
                let find = |p: &str| {
                    by.iter()
                        .find(|(k, _)| format!("{k:?}") == p)
                        .map(|(_, v)| *v)
                };
                find(place).or_else(|| find("All")).unwrap_or(0)
            }
        };
        for name in names {
            out.insert(*name, natural + armor);
        }
    }
    out
}

/// Where a blow aimed at a chink in non-torso armor lands, as far as the attack says: not
/// the torso (the roll's label names no location).
const NON_TORSO_CHINK: &str = "non-torso chink";

/// The weapon a defense named "Parry (W)" (perhaps with ", retreating" after) parries
/// with: W up to its matching bracket, so a weapon named "Axe (Swing)" reads whole.
fn parry_weapon_of(defense: &str) -> Option<&str> {
    let rest = defense.strip_prefix("Parry (")?;
    let mut depth = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(&rest[..i]),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Dice as the log writes them: "2d-1", "1d", "5".
fn dice_text(n: i32, add: i32) -> String {
    match (n, add) {
        (0, a) => a.to_string(),
        (n, 0) => format!("{n}d"),
        (n, a) => format!("{n}d{a:+}"),
    }
}

/// Every unit's sheet, in unit order, from the scenario's raw stat blocks and catalog.
fn bodies(file: &Path) -> Vec<Body> {
    let prepared = skirmish::rules::builtin()
        .load(file)
        .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.render(false)));
    let config = prepared.config::<Gurps>().expect("a GURPS scenario");
    let catalog = config.catalog();
    let sf = &prepared.file;
    sf.units
        .iter()
        .map(|u| {
            let stats = u
                .stats
                .as_ref()
                .or_else(|| u.template.as_ref().and_then(|t| sf.templates.get(t)))
                .and_then(|s| s.get::<Gurps>())
                .expect("a GURPS stat block");
            // A stat block naming a GCS file is read as the program merges it (the import
            // itself is tested against GCS's own values in rules::gurps::gcs).
            let stats = import::merge(stats, sf.dir.as_deref()).expect("the GCS file reads");
            // A skill by name, or failing that its best specialization ("Shield (Buckler)").
            let skill_of = |name: &str| {
                stats
                    .skills
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(name))
                    .map(|(_, &v)| v)
                    .or_else(|| {
                        let prefix = format!("{} (", name.to_lowercase());
                        stats
                            .skills
                            .iter()
                            .filter(|(k, _)| k.to_lowercase().starts_with(&prefix))
                            .map(|(_, &v)| v)
                            .max()
                    })
            };
            let attr = |v: Option<i32>| v.expect("an attribute");
            let (st, dx, iq, ht) = (
                attr(stats.st),
                attr(stats.dx),
                attr(stats.iq),
                attr(stats.ht),
            );
            // Basic Speed = (DX + HT) / 4; Dodge = Basic Speed rounded down + 3 (decision,
            // sheet.rs module doc), unless the stat block sets them.
            let quarters = stats.basic_speed.map_or(dx + ht, |s| (s * 4.0) as i32);
            let dodge = stats.dodge.unwrap_or(quarters.div_euclid(4) + 3);
            let mut names = stats.weapons.clone();
            let implicit = !names.iter().any(|n| n.name().eq_ignore_ascii_case("punch"));
            if implicit {
                names.push(WeaponRef::Named("punch".into()));
            }
            let dice_of = |spec: DamageSpec| {
                let (td, ta, sd, sa) = THRUST_SWING[(st.clamp(1, 30) - 1) as usize];
                match spec {
                    DamageSpec::Thrust(add) => dice_text(td, ta + add),
                    DamageSpec::Swing(add) => dice_text(sd, sa + add),
                    DamageSpec::Dice(d) => d.to_string(),
                }
            };
            let weapons = names
                .iter()
                .enumerate()
                .map(|(i, weapon)| match weapon {
                    WeaponRef::Named(name) => {
                        let spec = catalog.weapon(name).expect("catalog weapon");
                        let skill =
                            skill_of(&spec.skill).map_or(dx + spec.unskilled, |v| v.clamp(1, 30));
                        let is_implicit = implicit && i + 1 == names.len();
                        let (parry, ranged) = match spec.mode {
                            WeaponMode::Melee { parry: Some(m), .. } if !is_implicit => {
                                (Some(3 + skill.div_euclid(2) + m), None)
                            }
                            WeaponMode::Melee { .. } => (None, None),
                            WeaponMode::Ranged { acc, bulk, .. } => (None, Some((acc, bulk))),
                        };
                        Arm {
                            name: name.clone(),
                            skill_name: spec.skill.clone(),
                            skill,
                            parry,
                            dice: dice_of(spec.damage),
                            damage_type: spec.damage_type.abbrev().to_string(),
                            ranged,
                            st_short: (spec.min_st - st).max(0),
                        }
                    }
                    // Written out: the level and parry are the stat block's (GCS's).
                    WeaponRef::Own(own) => Arm {
                        name: own.name.clone(),
                        skill_name: own.skill.clone(),
                        skill: own.level,
                        parry: own.parry,
                        dice: dice_of(own.damage),
                        damage_type: own.damage_type.abbrev().to_string(),
                        ranged: match own.mode {
                            WeaponMode::Ranged { acc, bulk, .. } => Some((acc, bulk)),
                            WeaponMode::Melee { .. } => None,
                        },
                        st_short: (own.min_st - st).max(0),
                    },
                })
                .collect();
            let shield = stats.shield.as_ref().map(|name| {
                let spec = catalog.shield(name).expect("catalog shield");
                let skill = skill_of("Shield").unwrap_or(dx - 4);
                (
                    name.clone(),
                    spec.db,
                    spec.large,
                    3 + skill.div_euclid(2) + spec.db,
                )
            });
            let armor = stats
                .armor
                .as_ref()
                .map_or(0, |a| catalog.armor(a).expect("catalog armor").dr);
            let keep_feet = ["Acrobatics", "Judo"]
                .iter()
                .filter_map(|s| skill_of(s))
                .fold(dx, i32::max);
            Body {
                st,
                dx,
                iq,
                ht,
                hp: stats.hp.unwrap_or(st),
                dodge,
                dr: dr_by_location(&stats.dr, armor),
                sm: stats.sm,
                pain: stats.pain_threshold,
                weapons,
                shield,
                keep_feet,
            }
        })
        .collect()
}

/// Critical success or failure of a 3d6 roll against `effective` (Lite "CRITICALS";
/// Screen "CRITICAL SUCCESS AND FAILURE": 10 or more over effective skill).
fn critical(roll: i64, effective: i64) -> Option<&'static str> {
    if roll <= 4 || (roll == 5 && effective >= 15) || (roll == 6 && effective >= 16) {
        Some("Success")
    } else if roll == 18 || (roll == 17 && effective <= 15) || roll >= effective + 10 {
        Some("Failure")
    } else {
        None
    }
}

/// Checks a 3d6 roll-under record's arithmetic; returns its report lines.
fn check_success_roll(roll: &Value, what: &str) -> Vec<String> {
    let mut out = Vec::new();
    let f = faces(roll);
    if f.len() != 3 || f.iter().any(|&x| !(1..=6).contains(&x)) {
        out.push(format!("{what}: faces {f:?} are not 3d6"));
    }
    let total: i64 = f.iter().sum();
    if roll["total"].as_i64() != Some(total) {
        out.push(format!(
            "{what}: total {} is not the sum of {f:?}",
            roll["total"]
        ));
    }
    let target = modifier_sum(roll);
    if roll["target"].as_i64() != Some(target) {
        out.push(format!(
            "{what}: target {} is not the sum of its modifiers ({target})",
            roll["target"]
        ));
    }
    if roll["margin"].as_i64() != Some(target - total) {
        out.push(format!(
            "{what}: margin {} is not target - roll = {}",
            roll["margin"],
            target - total
        ));
    }
    let crit = critical(total, target);
    // A 17 always fails: critically at effective skill 15 or less, else ordinarily (Lite
    // "BASE SKILL LEVELS"); 18 always fails critically.
    let success = match crit {
        Some("Success") => true,
        Some(_) => false,
        None => total <= target && total < 17,
    };
    // A stray shot's roll against a bystander keeps the automatic success and failure but
    // has no critical effects (decision, combat::StrikeInput::stray).
    let stray = modifiers(roll)
        .first()
        .is_some_and(|(l, _)| l.starts_with("wrong target"));
    let crit = if stray { None } else { crit };
    if roll["critical"].as_str() != crit {
        out.push(format!(
            "{what}: critical {} but {total} against {target} is {crit:?} ({LITE}, \
             CRITICALS; {SCREEN}, CRITICAL SUCCESS AND FAILURE)",
            roll["critical"]
        ));
    }
    if roll["success"].as_bool() != Some(success) {
        out.push(format!(
            "{what}: success {} but {total} against {target} is {success} ({LITE}, CRITICALS)",
            roll["success"]
        ));
    }
    out
}

/// The hit location of a 3d6 roll (Lite "HIT LOCATIONS").
fn location_of(total: i64) -> &'static str {
    match total {
        ..=4 => "skull",
        5 => "face",
        6 | 7 => "right leg",
        8 => "right arm",
        9 | 10 => "torso",
        11 => "groin",
        12 => "left arm",
        13 | 14 => "left leg",
        15 => "hand",
        16 => "foot",
        _ => "neck",
    }
}

/// The penalty to hit a location (Lite "HIT LOCATIONS", modifier column).
fn location_penalty(label: &str) -> Option<i64> {
    Some(match label {
        "torso" => 0,
        "right arm" | "left arm" | "right leg" | "left leg" => -2,
        "vitals" | "groin" => -3,
        "hand" | "foot" => -4,
        "neck" | "face" => -5,
        "skull" => -7,
        "eye" => -9,
        _ => return None,
    })
}

fn is_limb(loc: &str) -> bool {
    matches!(loc, "right arm" | "left arm" | "right leg" | "left leg")
}

fn is_extremity(loc: &str) -> bool {
    matches!(loc, "hand" | "foot")
}

/// Locations marked * (Lite "HIT LOCATIONS": "a miss by 1 hits the torso").
fn starred(loc: &str) -> bool {
    matches!(loc, "skull" | "face" | "groin" | "neck" | "eye" | "vitals")
}

/// The wounding multiplier (numerator, denominator) by damage type (Lite "WOUNDING
/// MODIFIERS") and location (Lite "HIT LOCATIONS").
fn multiplier(damage_type: &str, loc: &str) -> (i64, i64) {
    let base = match damage_type {
        "pi-" => (1, 2),
        "cr" | "pi" => (1, 1),
        "cut" | "pi+" => (3, 2),
        _ => (2, 1), // imp, pi++
    };
    let piercing_big = matches!(damage_type, "pi+" | "pi++" | "imp");
    match loc {
        "skull" | "eye" => (4, 1),
        l if (is_limb(l) || is_extremity(l)) && piercing_big => (1, 1),
        "neck" if damage_type == "cr" => (3, 2),
        "neck" if damage_type == "cut" => (2, 1),
        "vitals" if piercing_big || damage_type == "pi" => (3, 1),
        _ => base,
    }
}

fn base_multiplier_label(damage_type: &str) -> &'static str {
    match damage_type {
        "pi-" => "x0.5",
        "cr" | "pi" => "x1",
        "cut" | "pi+" => "x1.5",
        _ => "x2",
    }
}

fn base_multiplier(damage_type: &str) -> (i64, i64) {
    multiplier(damage_type, "torso")
}

/// What a critical hit does to damage: (times, bypasses armor, scar injury).
#[derive(Clone, Copy, Debug, Default)]
struct CritDamage {
    times: i64,
    bypass: bool,
    scar: Option<i64>,
    /// The table roll is not in the log: any row may have applied.
    unknown: bool,
    /// The row cripples the limb hit (row 14 on a limb), once the blow has hurt.
    cripples: bool,
}

/// The row of the critical hit table (Screen "CRITICAL HITS") for `total` on `loc`, as the
/// words the log must carry, and what it does to damage.
fn critical_hit_row(total: i64, loc: &str) -> (Vec<&'static str>, CritDamage) {
    let limb = is_limb(loc) || is_extremity(loc);
    let n = CritDamage {
        times: 1,
        ..Default::default()
    };
    match total {
        3 | 18 if loc == "torso" => (vec!["knocked out"], n),
        3 | 18 | 5 | 17 => (vec!["triple damage"], CritDamage { times: 3, ..n }),
        4 | 13 => (vec!["bypasses all armor"], CritDamage { bypass: true, ..n }),
        6 | 16 => (vec!["double damage"], CritDamage { times: 2, ..n }),
        7 => (vec!["stunned"], n),
        8 | 12 if limb => (vec!["the limb is numbed (crippled for 6 turns)"], n),
        14 if limb => (
            vec!["the limb is crippled"],
            CritDamage {
                cripples: true,
                ..n
            },
        ),
        14 => (vec!["double damage"], CritDamage { times: 2, ..n }),
        15 => (vec!["drops its weapon"], n),
        _ => (vec!["normal damage"], n),
    }
}

/// The row of the critical head blow table (Screen "CRITICAL HEAD BLOWS"): a word the
/// result must start with, and what it does to damage.
fn head_blow_row(total: i64, damage_type: &str) -> (&'static str, CritDamage) {
    let n = CritDamage {
        times: 1,
        ..Default::default()
    };
    let scar = |k| {
        if damage_type == "cr" {
            n
        } else {
            CritDamage { scar: Some(k), ..n }
        }
    };
    match total {
        ..=3 => ("killed instantly", n),
        4 | 5 => ("knocked out", n),
        6 => ("blinded and stunned", n),
        7 => ("blinded in one eye and stunned", n),
        8 => ("knocked off balance", n),
        9..=11 => ("normal head-blow damage", n),
        12 => ("a scar", scar(1)),
        13 => ("a scar", scar(2)),
        14 => ("flinches and drops its weapon", n),
        _ => ("stunned", n),
    }
}

/// Which critical miss table a weapon skill uses (Screen "CRITICAL MISSES": ancient and
/// medieval weapons; "UNARMED CRITICAL MISSES": punches, kicks; "FIREARM CRITICAL MISSES":
/// firearms and beam weapons).
fn miss_table(skill: &str) -> &'static str {
    let s = skill.to_ascii_lowercase();
    if s.starts_with("guns") || s.starts_with("beam") || s.starts_with("gunner") {
        "firearm critical miss table"
    } else if matches!(s.as_str(), "brawling" | "boxing" | "karate") {
        "unarmed critical miss table"
    } else {
        "critical miss table"
    }
}

/// The results a critical miss roll of `total` may show for `weapon` (Screen "CRITICAL
/// MISSES", "UNARMED CRITICAL MISSES - STRIKING AND PARRYING", "FIREARM CRITICAL MISSES"),
/// with the text's exceptions: a crushing melee weapon rolls again on "breaks" and drops
/// the weapon unless it breaks again (the log shows the second roll); impaling and ranged
/// weapons roll again on "hit yourself"; an impaling or missile weapon that would fly
/// just drops; a ranged weapon's fall is losing balance; recoil does not knock down a
/// shooter 5 ST over the minimum (read as off balance).
fn miss_results(table: &str, total: i64, w: &Arm) -> Vec<&'static str> {
    let ranged = w.ranged.is_some();
    let off = "off balance: defenses -2 until its next turn";
    let mut out: Vec<&'static str> = match table {
        "critical miss table" => match total {
            ..=4 | 17.. => vec!["the weapon breaks"],
            5 => vec!["hits itself"],
            6 => vec!["hits itself (half damage)"],
            7 | 13 => vec![off],
            8 | 12 => vec!["the weapon turns in its hand: it must be readied"],
            9..=11 => vec!["drops the weapon"],
            14 if w.damage_type == "imp" || ranged => vec!["drops the weapon"],
            14 => vec!["the weapon flies out of reach"],
            15 => vec!["strains its shoulder: the weapon arm is useless"],
            _ if ranged => vec![off],
            _ => vec!["falls down"],
        },
        "unarmed critical miss table" => match total {
            ..=3 | 18.. => vec!["knocks itself out"],
            4 | 17 => vec!["hits with the wrong part: the hand is crippled"],
            5 => vec!["hits a wall instead"],
            6 => vec!["hits a wall instead (half damage)"],
            7 | 14 => vec!["stumbles past its foe and ends facing away"],
            8 => vec!["falls down"],
            9..=11 => vec![off],
            12 => vec!["trips"],
            13 => vec!["lets its guard down: defenses -2 until its next turn"],
            15 => vec!["pulls a muscle"],
            _ => vec!["strains its shoulder: the weapon arm is useless"],
        },
        _ => match total {
            ..=4 | 16 | 17 => vec!["the weapon breaks"],
            5 | 6 => vec!["hits itself"],
            7 => vec![off],
            8 | 12 => vec!["a dud: the shot is wasted"],
            9..=11 => vec!["the weapon jams"],
            13 | 14 => vec!["drops the weapon"],
            15 => vec!["the recoil knocks it down", off],
            _ => vec!["the weapon explodes"],
        },
    };
    if table == "critical miss table" && w.damage_type == "cr" && !ranged {
        out.push("drops the weapon");
    }
    out
}

/// The word the reaction table gives a total (Lite "REACTION TABLE").
fn reaction(total: i64) -> &'static str {
    match total {
        ..=0 => "Disastrous",
        1..=3 => "Very Bad",
        4..=6 => "Bad",
        7..=9 => "Poor",
        10..=12 => "Neutral",
        13..=15 => "Good",
        16..=18 => "Very Good",
        _ => "Excellent",
    }
}

/// The group bonus (Lite "GROUP COMBAT").
fn group_bonus(n: i64) -> i64 {
    match n {
        ..=1 => 0,
        2..=4 => 2,
        5 | 6 => 4,
        7 | 8 => 6,
        _ => 8,
    }
}

/// The defenses a fighter keeps until its next turn, from the maneuver it chose (Lite
/// "MANEUVERS").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Guard {
    #[default]
    Normal,
    AllOutAttack,
    IncreasedDodge,
    IncreasedParry,
    DoubleDefense,
    Committed,
    Defensive,
}

fn guard_of(action: &str) -> Guard {
    if action.starts_with("All-Out Attack") {
        Guard::AllOutAttack
    } else if action.starts_with("All-Out Defense (Increased Dodge") {
        Guard::IncreasedDodge
    } else if action.starts_with("All-Out Defense (Increased Parry") {
        Guard::IncreasedParry
    } else if action.starts_with("All-Out Defense") {
        Guard::DoubleDefense
    } else if action.starts_with("Committed Attack") {
        Guard::Committed
    } else if action.starts_with("Defensive Attack") {
        Guard::Defensive
    } else {
        Guard::Normal
    }
}

/// What the auditor follows of one fighter through the log.
#[derive(Clone, Debug, Default)]
struct State {
    hp: i64,
    pending_shock: i64,
    shock: i64,
    guard: Guard,
    action: String,
    heroic: bool,
    retreated: bool,
    parried: HashMap<String, i64>,
    /// Of `parried`, those made against group attacks.
    parried_group: HashMap<String, i64>,
    /// Dead, unconscious or gone.
    down: bool,
    mortal: bool,
    crippled: Vec<String>,
}

/// What the auditor keeps of the attack being resolved.
#[derive(Clone, Debug, Default)]
struct Strike {
    attacker: usize,
    weapon: Option<Arm>,
    location: String,
    chink: bool,
    crit: Option<CritDamage>,
    /// A group attack (Lite "GROUP COMBAT").
    group: bool,
}

/// The auditor: every violation of the rules in one GURPS log.
fn audit(file: &Path, log: &Value) -> Vec<Violation> {
    let units = bodies(file);
    let evs = events(log);
    let mut out = Vec::new();
    let mut state: Vec<State> = units
        .iter()
        .map(|b| State {
            hp: i64::from(b.hp),
            ..Default::default()
        })
        .collect();
    let mut turn: Option<usize> = None;
    let mut strike = Strike::default();
    let mut knockback_due: Option<(usize, usize, i64)> = None;
    for (i, e) in evs.iter().enumerate() {
        let mut bad = |what: String| out.push(Violation { event: i, what });
        match kind(e) {
            "turn_started" => {
                let u = unit_of(e, "unit");
                turn = Some(u);
                let s = &mut state[u];
                s.shock = std::mem::take(&mut s.pending_shock);
                s.guard = Guard::Normal;
                s.heroic = false;
                s.retreated = false;
                s.parried.clear();
                s.parried_group.clear();
                s.action.clear();
            }
            "action_chosen" => {
                let u = unit_of(e, "unit");
                let action = e["action"].as_str().unwrap_or("").to_string();
                state[u].guard = guard_of(&action);
                // Lite "LOST HIT POINTS": at 0 HP or less, a HT roll before any maneuver
                // besides Do Nothing.
                if state[u].hp <= 0 && !action.starts_with("Do Nothing") {
                    let next = evs.get(i + 1);
                    if next.is_none_or(|n| {
                        n["purpose"].as_str() != Some("HT to stay conscious at 0 HP or less")
                    }) {
                        bad(format!(
                            "acts ({action}) at {} HP without the HT roll to stay conscious \
                             ({LITE}, LOST HIT POINTS)",
                            state[u].hp
                        ));
                    }
                }
                state[u].action = action;
            }
            "note" => {
                let text = e["text"].as_str().unwrap_or("");
                if let Some(u) = e["unit"].as_u64() {
                    let u = u as usize;
                    if text.contains("on Heroic Charge") {
                        state[u].heroic = true;
                    }
                    if let Some(loc) = text.strip_prefix("missed the ") {
                        let _ = loc;
                        strike.location = "torso".into();
                    }
                    if text.starts_with("strains its shoulder") {
                        state[u].crippled.push("right arm".into());
                    }
                }
            }
            "attack" => {
                let a = unit_of(e, "attacker");
                let t = unit_of(e, "target");
                let weapon_name = e["weapon"].as_str().unwrap_or("");
                let arm = units[a].weapon(weapon_name).cloned();
                let own_turn = turn == Some(a);
                let lines = audit_attack(e, &units, &state, a, t, arm.as_ref(), own_turn);
                for l in lines {
                    bad(l);
                }
                // Where the blow lands, as far as the attack roll says.
                let mut aimed = None;
                let mut chink = false;
                for (label, _) in modifiers(&e["roll"]) {
                    if location_penalty(&label).is_some() {
                        aimed = Some(label.clone());
                    }
                    if label.starts_with("chink in ") {
                        chink = true;
                        if label == "chink in torso armor" {
                            aimed = Some("torso".into());
                        } else if aimed.is_none() {
                            // The −10 chink names no location: any but the torso (Lite
                            // "HIT LOCATIONS", armor chinks; the AI aims it at the vitals).
                            aimed = Some(NON_TORSO_CHINK.into());
                        }
                    }
                }
                strike = Strike {
                    attacker: a,
                    weapon: arm.clone(),
                    location: aimed.unwrap_or_else(|| "torso".into()),
                    chink,
                    // Until the table roll says which row: a critical hit of unknown row.
                    crit: (e["result"].as_str() == Some("CriticalHit")).then_some(CritDamage {
                        times: 1,
                        unknown: true,
                        ..Default::default()
                    }),
                    group: weapon_name.starts_with("a group attack"),
                };
                // Retreats and parries used up until the defender's next turn.
                for d in e["defenses"].as_array().into_iter().flatten() {
                    let name = d["defense"].as_str().unwrap_or("");
                    if name.contains("retreating") || name.starts_with("Dodge and Drop") {
                        state[t].retreated = true;
                    }
                    if let Some(w) = parry_weapon_of(name) {
                        *state[t].parried.entry(w.to_string()).or_default() += 1;
                        if weapon_name.starts_with("a group attack") {
                            *state[t].parried_group.entry(w.to_string()).or_default() += 1;
                        }
                    }
                }
                // Critical miss tables that must follow (Lite "BASE SKILL LEVELS"; Screen
                // "CRITICAL SUCCESS AND FAILURE ON DEFENSE ROLLS").
                let roll = &e["roll"];
                let hit = matches!(e["result"].as_str(), Some("Hit" | "CriticalHit"));
                let ranged = arm.as_ref().is_some_and(|w| w.ranged.is_some());
                let mut due: Vec<(usize, &'static str)> = Vec::new();
                let group = modifiers(roll)
                    .first()
                    .is_some_and(|(l, _)| l.starts_with("average effective skill"));
                if let Some(w) = arm.as_ref().filter(|_| !group) {
                    if roll["critical"].as_str() == Some("Failure") && !hit {
                        due.push((a, miss_table(&w.skill_name)));
                    }
                    for d in e["defenses"].as_array().into_iter().flatten() {
                        let dr = &d["roll"];
                        let name = d["defense"].as_str().unwrap_or("");
                        if dr["critical"].as_str() == Some("Success") && !ranged {
                            due.push((a, miss_table(&w.skill_name)));
                        }
                        if dr["critical"].as_str() == Some("Failure")
                            && let Some(p) = parry_weapon_of(name)
                            && let Some(pw) = units[t].weapon(p)
                        {
                            due.push((t, miss_table(&pw.skill_name)));
                        }
                    }
                }
                for (who, table) in due.into_iter().take(1) {
                    let found = evs[i + 1..]
                        .iter()
                        .take_while(|x| !matches!(kind(x), "attack" | "turn_started"))
                        .any(|x| {
                            kind(x) == "roll"
                                && x["unit"].as_u64() == Some(who as u64)
                                && x["purpose"].as_str() == Some(table)
                        });
                    if !found {
                        bad(format!(
                            "no roll on the {table} for unit {who} after a critical failure \
                             or a critical defense ({LITE}, BASE SKILL LEVELS; {SCREEN}, \
                             CRITICAL SUCCESS AND FAILURE ON DEFENSE ROLLS)"
                        ));
                    }
                }
            }
            "roll" => {
                let u = unit_of(e, "unit");
                let lines = audit_roll(e, &units, &mut state, u, &mut strike, knockback_due);
                for l in lines {
                    bad(l);
                }
            }
            "damage" => {
                let t = unit_of(e, "target");
                // A blow of the strike (not a fall or a self-hit) with a crippling row (read
                // before the damage audit uses the row up).
                let crit_cripples =
                    !e["attacker"].is_null() && strike.crit.as_ref().is_some_and(|c| c.cripples);
                let lines = audit_damage(e, &units, &mut state, t, &mut strike);
                for l in lines {
                    bad(l);
                }
                for l in follow_damage(
                    evs,
                    i,
                    e,
                    &units,
                    &mut state,
                    (t, crit_cripples),
                    &mut knockback_due,
                ) {
                    bad(l);
                }
            }
            "status_changed" => {
                if matches!(
                    e["standing"].as_str(),
                    Some("Dead" | "Unconscious" | "Escaped")
                ) {
                    state[unit_of(e, "unit")].down = true;
                }
            }
            "knockback" => {
                let u = unit_of(e, "unit");
                let d = e["distance"].as_i64().unwrap_or(0);
                match knockback_due.take() {
                    Some((_, who, yards)) if who == u && yards == d => {
                        knockback_due = Some((i, u, d));
                    }
                    other => bad(format!(
                        "knockback of {d} yd for unit {u}, but the blow before calls for \
                         {other:?} ({LITE}, KNOCKBACK)"
                    )),
                }
            }
            _ => {}
        }
    }
    out.retain(|v| !KNOWN_BUGS.iter().any(|k| v.what.starts_with(k)));
    out
}

fn unit_of(e: &Value, field: &str) -> usize {
    e[field].as_u64().unwrap_or(0) as usize
}

/// Checks one attack event: the attack roll's labels and arithmetic, each defense's, and
/// the result.
fn audit_attack(
    e: &Value,
    units: &[Body],
    state: &[State],
    a: usize,
    t: usize,
    arm: Option<&Arm>,
    own_turn: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    let roll = &e["roll"];
    out.extend(check_success_roll(roll, "attack roll"));
    let mods = modifiers(roll);
    let me = &units[a];
    let foe = &units[t];
    // A group attack names its members, not a weapon (Lite "GROUP COMBAT"): its blows are
    // judged by the attacker's first weapon.
    let group_weapon = e["weapon"]
        .as_str()
        .is_some_and(|n| n.starts_with("a group attack"));
    let fallback = me.weapons[0].clone();
    let w = match arm {
        Some(w) => w,
        None if group_weapon => &fallback,
        None => {
            out.push(format!(
                "attack with {} that unit {a} does not carry",
                e["weapon"]
            ));
            return out;
        }
    };
    let ranged = w.ranged.is_some();
    let action = state[a].action.as_str();
    let (first, first_value) = mods.first().cloned().unwrap_or_default();
    let group = first.starts_with("average effective skill of ");
    let wrong = first.starts_with("wrong target");
    if group {
        let n: i64 = first
            .trim_start_matches("average effective skill of ")
            .trim_end_matches(" attackers")
            .parse()
            .unwrap_or(0);
        let want = group_bonus(n);
        let got = mods
            .iter()
            .find(|(l, _)| l.starts_with("group of "))
            .map_or(0, |m| m.1);
        if got != want {
            out.push(format!(
                "group of {n}: bonus {got}, {LITE} GROUP COMBAT gives +{want}"
            ));
        }
    } else if wrong {
        // Screen "RANGED ATTACK MODIFIERS": rolling to hit the wrong target, max. 9.
        if first_value > 9 {
            out.push(format!(
                "wrong target at {first_value}: the text caps it at 9"
            ));
        }
    } else if first != w.skill_name || first_value != i64::from(w.skill) {
        out.push(format!(
            "attack base {first} {first_value}, the sheet gives {} {} ({LITE}, DEFAULTS)",
            w.skill_name, w.skill
        ));
    }
    let plain = !group && !wrong;
    let mut seen_labels = Vec::new();
    let others: i64 = mods
        .iter()
        .filter(|(l, _)| l != "Move and Attack: at most 9")
        .map(|m| m.1)
        .sum();
    for (idx, (label, v)) in mods.iter().enumerate() {
        let v = *v;
        seen_labels.push(label.as_str());
        if idx == 0 || label.starts_with("group of ") {
            continue;
        }
        let want: Option<bool> = match label.as_str() {
            "ST below weapon minimum" => Some(v == -i64::from(w.st_short) && w.st_short > 0),
            "Move and Attack" => Some(match w.ranged {
                Some((_, bulk)) => v == i64::from(bulk.min(-2)),
                None => v == -4,
            }),
            "Move and Attack: at most 9" => Some(!ranged && others > 9 && v == 9 - others),
            "All-Out Attack (Determined)" => Some(v == if ranged { 1 } else { 4 }),
            "Committed Attack (Determined)" => Some(!ranged && v == 2),
            "Committed Attack: moved 2 hexes" => Some(!ranged && v == -2),
            "Evaluate" => Some(!ranged && (1..=3).contains(&v)),
            "Deceptive Attack" => Some(!ranged && v < 0 && v % 2 == 0),
            "Telegraphic Attack" => Some(!ranged && v == 4),
            "range/speed" => Some(ranged && (-30..=-1).contains(&v)),
            "Aim" => Some(
                w.ranged
                    .is_some_and(|(acc, _)| (i64::from(acc)..=i64::from(acc) + 2).contains(&v)),
            ),
            "braced" => Some(ranged && v == 1 && seen_labels.contains(&"Aim")),
            "behind light cover" => Some(ranged && v == -2),
            "body half exposed" => Some(ranged && v == -3),
            "head and shoulders exposed" => Some(ranged && v == -4),
            "prone behind cover, head down" => Some(ranged && v == -7),
            "target prone or crawling, no cover" => Some(ranged && v == -4),
            "target crouching, sitting or kneeling, no cover" => Some(ranged && v == -2),
            "target's size" => Some(ranged && v == i64::from(foe.sm)),
            "behind someone else" => Some(ranged && v < 0 && v % 4 == 0),
            "opportunity fire" => Some(ranged && v == -8),
            "rapid fire" => Some(ranged && (1..=9).contains(&v)),
            "at the weapon, to disarm" => Some((-7..=-5).contains(&v)),
            "chink in torso armor" => Some(v == -8),
            "chink in non-torso armor" => Some(v == -10),
            "one eye" => Some(v == if ranged { -3 } else { -1 }),
            "large shield" => Some(v == -2 && me.shield.as_ref().is_some_and(|s| s.2)),
            "blinded in one eye (critical head blow)" => Some(v == -2),
            "blinded (critical head blow)" => Some(v == -10),
            "attacking while crouching"
            | "attacking while kneeling"
            | "attacking while sitting" => Some(v == -2),
            "attacking while crawling" | "attacking while lying down" => Some(v == -4),
            "shock" => Some(v == -state[a].shock && v < 0),
            "Dual-Weapon Attack" | "off hand" => Some(v == -4),
            "Rapid Strike" => Some(v == -6),
            "Rapid Strike (Flurry of Blows)" => Some(v == -3),
            l => location_penalty(l).map(|p| p == v && p != 0),
        };
        match want {
            Some(true) => {}
            Some(false) => out.push(format!(
                "attack modifier \"{label}\" {v:+} is wrong here ({} with {}; {LITE}, \
                 MANEUVERS / HIT LOCATIONS / POSTURES / INJURY / ATTACK/DEFENSE OPTIONS; \
                 {SCREEN}, MODIFIERS TO ATTACK ROLLS / RANGED ATTACK MODIFIERS)",
                if ranged { "ranged" } else { "melee" },
                w.name
            )),
            None => out.push(format!("unknown attack modifier \"{label}\" {v:+}")),
        }
    }
    let has = |l: &str| mods.iter().any(|(m, _)| m == l);
    if plain {
        // Shock on the attacker's own rolls (Lite "INJURY", Shock).
        if state[a].shock > 0 && !has("shock") {
            out.push(format!(
                "no shock modifier though the attacker carries -{} ({LITE}, INJURY, Shock)",
                state[a].shock
            ));
        }
        if own_turn {
            let ma = action.starts_with("Move and Attack");
            if ma && !state[a].heroic && !has("Move and Attack") {
                out.push(format!(
                    "Move and Attack without its penalty ({LITE}, MANEUVERS)"
                ));
            }
            if (!ma || state[a].heroic) && has("Move and Attack") {
                out.push(format!(
                    "Move and Attack penalty on \"{action}\" (heroic charge: {}) ({LITE}, \
                     MANEUVERS; ATTACK/DEFENSE OPTIONS, Heroic Charge)",
                    state[a].heroic
                ));
            }
            if ma && !ranged && !state[a].heroic && others > 9 && !has("Move and Attack: at most 9")
            {
                out.push(format!(
                    "Move and Attack at {others}: the text caps melee skill at 9 ({LITE}, \
                     MANEUVERS)"
                ));
            }
            let det = action.starts_with("All-Out Attack (Determined)");
            if det != has("All-Out Attack (Determined)") {
                out.push(format!(
                    "All-Out Attack (Determined) bonus and the maneuver \"{action}\" disagree \
                     ({LITE}, MANEUVERS)"
                ));
            }
        }
    }
    // Defenses.
    let defs: Vec<&Value> = e["defenses"]
        .as_array()
        .map_or(Vec::new(), |d| d.iter().collect());
    let result = e["result"].as_str().unwrap_or("");
    let success = roll["success"].as_bool() == Some(true);
    let crit = roll["critical"].as_str();
    let margin = roll["margin"].as_i64().unwrap_or(0);
    // A chink in non-torso armor names no location; the vitals (starred) are the one the
    // AI aims it at, so a miss by 1 may land on the torso (Lite "HIT LOCATIONS").
    let aimed_starred = mods
        .iter()
        .any(|(l, _)| starred(l) || l == "chink in non-torso armor");
    let torso_instead = aimed_starred && margin == -1 && crit.is_none();
    if crit == Some("Success") && (result != "CriticalHit" || !defs.is_empty()) {
        out.push(format!(
            "a critical success is a critical hit with no defense, the log says {result} \
             with {} defenses ({LITE}, Critical hit)",
            defs.len()
        ));
    }
    if !success && !torso_instead && (result != "Miss" || !defs.is_empty()) {
        out.push(format!(
            "a failed attack roll ends as {result} ({LITE}, HIT LOCATIONS)"
        ));
    }
    if (success && crit.is_none()) || torso_instead {
        let any_made = defs
            .iter()
            .any(|d| d["roll"]["success"].as_bool() == Some(true));
        if result == "Defended" && !any_made {
            out.push("Defended without a successful defense roll".into());
        }
        if !any_made && result != "Hit" {
            out.push(format!("no defense succeeded but the result is {result}"));
        }
    }
    let guard = state[t].guard;
    if guard == Guard::AllOutAttack && !defs.is_empty() {
        out.push(format!(
            "the target defends after an All-Out Attack ({LITE}, MANEUVERS: NO DEFENSE)"
        ));
    }
    if defs.len() > 1 && guard != Guard::DoubleDefense {
        out.push(format!(
            "{} defenses against one attack without All-Out Defense (Double Defense) \
             ({LITE}, MANEUVERS)",
            defs.len()
        ));
    }
    let deceptive = modifier(roll, "Deceptive Attack").unwrap_or(0);
    let mut retreats = 0;
    for d in &defs {
        out.extend(audit_defense(
            d,
            foe,
            &state[t],
            ranged,
            deceptive,
            &mut retreats,
        ));
    }
    out
}

/// Checks one defense roll against the defender's sheet and state.
fn audit_defense(
    d: &Value,
    foe: &Body,
    s: &State,
    ranged: bool,
    deceptive: i64,
    retreats: &mut i32,
) -> Vec<String> {
    let name = d["defense"].as_str().unwrap_or("");
    let roll = &d["roll"];
    let mut out = check_success_roll(roll, &format!("defense \"{name}\""));
    let mut parts = name.split(", ");
    let base = parts.next().unwrap_or("");
    let flags: Vec<&str> = parts.collect();
    let retreating = flags.contains(&"retreating");
    let feverish = flags.contains(&"feverish");
    let mods = modifiers(roll);
    let (is_dodge, is_parry, is_block) = (
        base.starts_with("Dodge"),
        base.starts_with("Parry ("),
        base.starts_with("Block ("),
    );
    let parry_weapon = parry_weapon_of(base).unwrap_or("");
    let pw = foe.weapon(parry_weapon);
    // Retreat value (Lite "ATTACK/DEFENSE OPTIONS", Retreat): +3 to Dodge or a Boxing,
    // Judo, Karate or fencing parry, +1 to any other defense.
    let full_retreat = is_dodge
        || pw.is_some_and(|w| {
            [
                "Boxing",
                "Judo",
                "Karate",
                "Rapier",
                "Saber",
                "Smallsword",
                "Main-Gauche",
            ]
            .iter()
            .any(|k| w.skill_name.eq_ignore_ascii_case(k))
        });
    let (first, first_value) = mods.first().cloned().unwrap_or_default();
    let base_want = if is_dodge {
        ("Dodge", Some(foe.dodge))
    } else if is_parry {
        ("Parry", pw.and_then(|w| w.parry))
    } else if is_block {
        ("Block", foe.shield.as_ref().map(|s| s.3))
    } else {
        ("?", None)
    };
    if first != base_want.0 || Some(first_value) != base_want.1.map(i64::from) {
        out.push(format!(
            "{name}: base {first} {first_value}, the sheet gives {} {:?} (decision, \
             sheet.rs: Dodge = Basic Speed rounded down + 3, Parry = 3 + skill/2 + modifier)",
            base_want.0, base_want.1
        ));
    }
    let has = |l: &str| mods.iter().any(|(m, _)| m == l);
    let stunned = has("stunned");
    let mut now = i64::from(foe.dodge);
    for (label, v) in mods.iter().skip(1) {
        let v = *v;
        let ok = match label.as_str() {
            "retreating" => {
                retreating
                    && !ranged
                    && !stunned
                    && s.guard != Guard::Committed
                    && v == if full_retreat { 3 } else { 1 }
            }
            "Dodge and Drop" => base == "Dodge and Drop" && ranged && v == 3,
            "Feverish Defense" => feverish && v == 2,
            "All-Out Defense" => {
                v == 2
                    && ((is_dodge && s.guard == Guard::IncreasedDodge)
                        || (is_parry && s.guard == Guard::IncreasedParry))
            }
            "Defensive Attack" => (is_parry || is_block) && s.guard == Guard::Defensive && v == 1,
            "after a Committed Attack" => s.guard == Guard::Committed && v == -2,
            "kneeling" | "sitting" => v == -2,
            "crawling" | "lying down" => v == -3,
            "stunned" => v == -4,
            "off balance" => v == -2,
            "below 1/3 HP: half Dodge" => {
                let half = (now + 1).div_euclid(2);
                let ok = is_dodge && v == half - now && s.hp * 3 < i64::from(foe.hp);
                now = half;
                ok
            }
            "below 1/3 FP: half Dodge" => {
                let half = (now + 1).div_euclid(2);
                let ok = is_dodge && v == half - now;
                now = half;
                ok
            }
            "attack from the side" => v == -2,
            "parried before this turn" => {
                let all = s.parried.get(parry_weapon).copied().unwrap_or(0);
                let group = s.parried_group.get(parry_weapon).copied().unwrap_or(0);
                if is_parry && v != -4 * all && v == -4 * (all - group) {
                    out.push(format!(
                        "{GROUP_PARRY_UNCOUNTED} {name}: {v:+} after {all} parries"
                    ));
                    true
                } else {
                    is_parry && v == -4 * all
                }
            }
            "Deceptive Attack" => !ranged && deceptive < 0 && v == deceptive / 2,
            "Telegraphic Attack" => !ranged && is_dodge && v == 2,
            "feinted" => v < 0,
            "target of both Dual-Weapon attacks" => v == -1,
            "parrying with a large shield" => {
                is_parry && v == -1 && foe.shield.as_ref().is_some_and(|s| s.2)
            }
            l if l.ends_with(" DB") => foe
                .shield
                .as_ref()
                .is_some_and(|s| l == format!("{} DB", s.0) && v == i64::from(s.1)),
            l => {
                out.push(format!("{name}: unknown defense modifier \"{l}\" {v:+}"));
                true
            }
        };
        if !ok {
            out.push(format!(
                "{name}: modifier \"{label}\" {v:+} is wrong here (guard {:?}, {} attack, HP \
                 {}; {LITE}, ATTACK/DEFENSE OPTIONS / MANEUVERS / POSTURES / INJURY / LOST \
                 HIT POINTS; {SCREEN}, MODIFIERS TO ACTIVE DEFENSE ROLLS)",
                s.guard,
                if ranged { "ranged" } else { "melee" },
                s.hp
            ));
        }
    }
    if retreating != has("retreating") {
        out.push(format!("{name}: the retreat and its modifier disagree"));
    }
    if feverish != has("Feverish Defense") {
        out.push(format!(
            "{name}: Feverish Defense and its modifier disagree"
        ));
    }
    if is_dodge && (s.hp * 3 < i64::from(foe.hp)) != has("below 1/3 HP: half Dodge") {
        out.push(format!(
            "{name}: at {} of {} HP the half Dodge is {} ({LITE}, LOST HIT POINTS: < HP/3)",
            s.hp,
            foe.hp,
            if has("below 1/3 HP: half Dodge") {
                "applied"
            } else {
                "missing"
            }
        ));
    }
    if (s.guard == Guard::Defensive && (is_parry || is_block)) != has("Defensive Attack") {
        out.push(format!(
            "{name}: Defensive Attack's +1 to Parry/Block missing or misplaced"
        ));
    }
    if (s.guard == Guard::Committed) != has("after a Committed Attack") {
        out.push(format!(
            "{name}: Committed Attack's -2 to defenses missing or misplaced"
        ));
    }
    let all = s.parried.get(parry_weapon).copied().unwrap_or(0);
    let outside_groups = all - s.parried_group.get(parry_weapon).copied().unwrap_or(0);
    if is_parry && all > 0 && !has("parried before this turn") {
        out.push(format!(
            "{}{name}: a repeated parry without its -4 (decision, defense.rs)",
            if outside_groups == 0 {
                format!("{GROUP_PARRY_UNCOUNTED} ")
            } else {
                String::new()
            }
        ));
    }
    if retreating || base == "Dodge and Drop" {
        *retreats += 1;
        if s.retreated || *retreats > 1 {
            out.push(format!(
                "{name}: a second retreat or drop before the defender's next turn ({LITE}, \
                 ATTACK/DEFENSE OPTIONS: *Once*)"
            ));
        }
    }
    if has("shock") {
        out.push(format!(
            "{name}: shock on an active defense ({LITE}, INJURY, Shock)"
        ));
    }
    out
}

/// Checks a `roll` event: its arithmetic and what its purpose calls for.
fn audit_roll(
    e: &Value,
    units: &[Body],
    state: &mut [State],
    u: usize,
    strike: &mut Strike,
    knockback: Option<(usize, usize, i64)>,
) -> Vec<String> {
    let purpose = e["purpose"].as_str().unwrap_or("");
    let result = e["result"].as_str().unwrap_or("");
    let roll = &e["roll"];
    let me = &units[u];
    let mods = modifiers(roll);
    let mut out = Vec::new();
    if roll["sense"].as_str() == Some("Under") {
        out.extend(check_success_roll(roll, purpose));
        if mods.iter().any(|(l, _)| l == "shock") && !purpose.starts_with("Feint") {
            out.push(format!(
                "{purpose}: shock on a roll it does not affect ({LITE}, INJURY)"
            ));
        }
    } else {
        let f = faces(roll);
        if f.len() != 3 || f.iter().any(|&x| !(1..=6).contains(&x)) {
            out.push(format!("{purpose}: faces {f:?} are not 3d"));
        }
        let total: i64 = f.iter().sum::<i64>() + modifier_sum(roll);
        if roll["total"].as_i64() != Some(total) {
            out.push(format!("{purpose}: total {} is not {total}", roll["total"]));
        }
    }
    let total = roll["total"].as_i64().unwrap_or(0);
    let success = roll["success"].as_bool() == Some(true);
    let base = |label: &str, want: i32| -> Option<String> {
        let first = mods.first();
        (first.map(|(l, v)| (l.as_str(), *v)) != Some((label, i64::from(want))))
            .then(|| format!("{purpose}: base {first:?}, the sheet gives {label} {want}"))
    };
    let ht_only = |out: &mut Vec<String>| {
        out.extend(base("HT", me.ht));
    };
    match purpose {
        "hit location" => {
            let want = location_of(total);
            if result != want {
                out.push(format!(
                    "hit location roll {total} gives \"{result}\", the table gives \"{want}\" \
                     ({LITE}, HIT LOCATIONS)"
                ));
            }
            strike.location = result.to_string();
        }
        "critical hit table" => {
            let (words, crit) = critical_hit_row(total, &strike.location);
            for w in &words {
                if !result.contains(w) {
                    out.push(format!(
                        "critical hit {total} on the {}: \"{result}\" lacks \"{w}\" ({SCREEN}, \
                         CRITICAL HITS)",
                        strike.location
                    ));
                }
            }
            if matches!(strike.location.as_str(), "skull" | "face" | "eye") {
                out.push(format!(
                    "critical hit on the {} uses the critical hit table, not the head blow \
                     table ({SCREEN}, CRITICAL HEAD BLOWS)",
                    strike.location
                ));
            }
            strike.crit = Some(crit);
        }
        "critical head blow table" => {
            let dt = strike
                .weapon
                .as_ref()
                .map_or("cr", |w| w.damage_type.as_str());
            let (word, crit) = head_blow_row(total, dt);
            if !result.starts_with(word) {
                out.push(format!(
                    "critical head blow {total}: \"{result}\", the table gives \"{word}\" \
                     ({SCREEN}, CRITICAL HEAD BLOWS)"
                ));
            }
            if !matches!(strike.location.as_str(), "skull" | "face" | "eye") {
                out.push(format!(
                    "head blow table for a blow to the {} ({SCREEN}, CRITICAL HEAD BLOWS)",
                    strike.location
                ));
            }
            strike.crit = Some(crit);
        }
        p if p.ends_with("critical miss table") => {
            // The fumbler's weapon: the attack's, or the parrying one (the table names it).
            let w = if u == strike.attacker {
                strike.weapon.clone()
            } else {
                None
            };
            let candidates: Vec<&Arm> = match &w {
                Some(w) => vec![w],
                None => me
                    .weapons
                    .iter()
                    .filter(|w| miss_table(&w.skill_name) == p)
                    .collect(),
            };
            let fits = candidates.iter().any(|w| {
                miss_table(&w.skill_name) == p && miss_results(p, total, w).contains(&result)
            });
            if !fits {
                out.push(format!(
                    "{p} roll {total} gives \"{result}\", the table does not ({SCREEN}, \
                     CRITICAL MISSES / UNARMED CRITICAL MISSES / FIREARM CRITICAL MISSES)"
                ));
            }
            if result.starts_with("strains its shoulder") {
                state[u].crippled.push("right arm".into());
            }
        }
        p if p.starts_with("HT against knockdown") => {
            ht_only(&mut out);
            for (label, v) in mods.iter().skip(1) {
                let ok = match label.as_str() {
                    "skull" | "eye" => *v == -10,
                    "face" | "groin" => *v == -5,
                    "major wound to vitals" => *v == -5 && p.contains("major"),
                    "High Pain Threshold" => *v == 3 && me.pain == PainThreshold::High,
                    "Low Pain Threshold" => *v == -4 && me.pain == PainThreshold::Low,
                    _ => false,
                };
                if !ok {
                    out.push(format!(
                        "{p}: modifier \"{label}\" {v:+} is wrong ({LITE}, INJURY, Knockdown \
                         and Stunning; HIT LOCATIONS)"
                    ));
                }
            }
            let pain = match me.pain {
                PainThreshold::High => Some("High Pain Threshold"),
                PainThreshold::Low => Some("Low Pain Threshold"),
                PainThreshold::Normal => None,
            };
            if let Some(p) = pain
                && !mods.iter().any(|(l, _)| l == p)
            {
                out.push(format!("knockdown roll without {p} ({LITE}, INJURY)"));
            }
            let want = if success {
                "keeps its feet"
            } else {
                "stunned and knocked down"
            };
            if result != want {
                out.push(format!("{p}: \"{result}\" after a {success} roll"));
            }
        }
        "HT to stay conscious at 0 HP or less" => {
            ht_only(&mut out);
            let hp = state[u].hp;
            let hp_max = i64::from(me.hp);
            if hp > 0 {
                out.push(format!("{purpose} at {hp} HP ({LITE}, LOST HIT POINTS)"));
            }
            let want = -((-hp).max(0) / hp_max);
            let got = mods
                .iter()
                .find(|(l, _)| l == "per full multiple of HP below 0")
                .map_or(0, |m| m.1);
            if got != want || mods.len() > 2 {
                out.push(format!(
                    "{purpose} at {hp}/{hp_max} HP: modifier {got}, the text gives {want} \
                     ({LITE}, LOST HIT POINTS: -1 per full multiple of HP below zero)"
                ));
            }
        }
        p if p.starts_with("HT to survive at -") => {
            ht_only(&mut out);
            if mods.len() > 1 {
                out.push(format!("{p}: extra modifiers {mods:?}"));
            }
        }
        "HT to recover from stun" => {
            ht_only(&mut out);
            if mods.len() > 1 {
                out.push(format!("{purpose}: extra modifiers {mods:?}"));
            }
        }
        "Will to act at 0 FP or less" => out.extend(base("Will (IQ)", me.iq)),
        "to keep its feet after knockback" => {
            let first = mods.first().cloned().unwrap_or_default();
            if !matches!(first.0.as_str(), "DX" | "Acrobatics" | "Judo")
                || first.1 != i64::from(me.keep_feet)
            {
                out.push(format!(
                    "{purpose}: base {first:?}, the best of DX, Acrobatics and Judo is {} \
                     ({LITE}, KNOCKBACK)",
                    me.keep_feet
                ));
            }
            let yards = knockback.filter(|k| k.1 == u).map_or(0, |k| k.2);
            for (label, v) in mods.iter().skip(1) {
                let ok = match label.as_str() {
                    "knockback after the first yard" => *v == -(yards - 1) && yards > 1,
                    "after a Move and Attack" => *v == -2,
                    _ => false,
                };
                if !ok {
                    out.push(format!(
                        "{purpose}: modifier \"{label}\" {v:+} after {yards} yd ({LITE}, \
                         KNOCKBACK; MOVE AND ATTACK)"
                    ));
                }
            }
            if yards > 1
                && !mods
                    .iter()
                    .any(|(l, _)| l == "knockback after the first yard")
            {
                out.push(format!(
                    "{purpose}: no -1 per yard after the first ({LITE}, KNOCKBACK)"
                ));
            }
        }
        "to keep its feet after tripping" => out.extend(base("DX", me.dx)),
        "resisting the feint" => {
            let best = me
                .weapons
                .iter()
                .filter(|w| w.ranged.is_none())
                .map(|w| w.skill)
                .fold(me.dx, i32::max);
            out.extend(base("best combat skill or DX", best));
        }
        p if p.starts_with("morale check") => {
            let word = reaction(total);
            if !result.starts_with(word)
                || (result.starts_with("Very Bad") && word != "Very Bad")
                || (result.starts_with("Very Good") && word != "Very Good")
            {
                out.push(format!(
                    "{p}: reaction {total} is \"{word}\", the log says \"{result}\" ({LITE}, \
                     REACTION TABLE)"
                ));
            }
            for (label, v) in &mods {
                let ok = match label.as_str() {
                    "foes notably stronger" => (1..=5).contains(v),
                    "foes notably weaker" => (-5..=-1).contains(v),
                    "no language in common" | "foes intrude on home turf" => *v == -2,
                    _ => false,
                };
                if !ok {
                    out.push(format!(
                        "{p}: modifier \"{label}\" {v:+} ({LITE}, MORALE CHECKS)"
                    ));
                }
            }
        }
        _ => {
            // Feints, disarms, clearing jams: the base is one of the unit's weapon skills.
            if let Some((label, v)) = mods.first()
                && e["roll"]["sense"].as_str() == Some("Under")
                && !me
                    .weapons
                    .iter()
                    .any(|w| &w.skill_name == label && i64::from(w.skill) == *v)
            {
                out.push(format!(
                    "{purpose}: base {label} {v} is none of the unit's skills"
                ));
            }
        }
    }
    out
}

/// Checks a damage event: the dice, the bonuses, each step to injury, and HP.
fn audit_damage(
    e: &Value,
    units: &[Body],
    state: &mut [State],
    t: usize,
    strike: &mut Strike,
) -> Vec<String> {
    let mut out = Vec::new();
    let foe = &units[t];
    let roll = &e["roll"];
    let loc = e["location"].as_str().unwrap_or("torso").to_string();
    let damage_type = e["damage_type"].as_str().unwrap_or("").to_string();
    let attacker = e["attacker"].as_u64().map(|a| a as usize);
    let f = faces(roll);
    let mods = modifiers(roll);
    // The weapon: the attack's if it is the attacker's, else (group attacks) any of the
    // attacker's weapons with these dice.
    let crit = if attacker.is_some() {
        strike.crit.take()
    } else {
        None
    };
    if crit.is_some_and(|c| c.unknown) {
        out.push(format!(
            "{}a critical hit's damage without a roll on the critical hit table ({SCREEN}, \
             CRITICAL HITS)",
            if strike.group {
                format!("{GROUP_CRITICAL_UNLOGGED} ")
            } else {
                String::new()
            }
        ));
    }
    let any_row = crit.is_some_and(|c| c.unknown);
    if let Some(a) = attacker {
        let w = match &strike.weapon {
            Some(w) if strike.attacker == a && w.dice == roll["dice"].as_str().unwrap_or("") => {
                Some(w.clone())
            }
            _ => units[a]
                .weapons
                .iter()
                .find(|w| w.dice == roll["dice"].as_str().unwrap_or(""))
                .cloned(),
        };
        match &w {
            None => out.push(format!(
                "damage dice {} are none of unit {a}'s weapons at ST {} (decision, \
                 tables::thrust_swing)",
                roll["dice"], units[a].st
            )),
            Some(w) => {
                if w.damage_type != damage_type {
                    out.push(format!(
                        "damage type {damage_type}, the {} does {}",
                        w.name, w.damage_type
                    ));
                }
                let n: usize = w
                    .dice
                    .split('d')
                    .next()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                if w.dice.contains('d') && f.len() != n {
                    out.push(format!("{} damage with {} dice", w.dice, f.len()));
                }
            }
        }
        let chink_elsewhere = strike.location == NON_TORSO_CHINK && loc != "torso";
        if strike.location != loc && !chink_elsewhere {
            out.push(format!(
                "damage lands on the {loc}, the attack and its location roll say the {} \
                 ({LITE}, HIT LOCATIONS)",
                strike.location
            ));
        }
    }
    // Basic damage, modifier by modifier.
    let mut basic: i64 = f.iter().sum();
    let minimum = if damage_type == "cr" { 0 } else { 1 };
    let action = attacker.map_or("", |a| state[a].action.as_str());
    for (label, v) in &mods {
        let ok = match label.as_str() {
            "" => true,
            "All-Out Attack (Strong)" => *v == 2 && action.starts_with("All-Out Attack (Strong)"),
            "Committed Attack (Strong)" => {
                *v == 1 && action.starts_with("Committed Attack (Strong)")
            }
            "Defensive Attack" => *v == -2 && action.starts_with("Defensive Attack"),
            "Mighty Blow" => *v == 2,
            "minimum" => basic < minimum && basic + v == minimum,
            "critical hit: double damage" => {
                crit.is_some_and(|c| c.times == 2 || any_row) && *v == basic
            }
            "critical hit: triple damage" => {
                crit.is_some_and(|c| c.times == 3 || any_row) && *v == 2 * basic
            }
            "half damage" => attacker.is_none() && *v == basic / 2 - basic,
            _ => false,
        };
        if !ok {
            out.push(format!(
                "damage modifier \"{label}\" {v:+} is wrong (running total {basic}, \
                 maneuver \"{action}\"; {LITE}, MANEUVERS; {SCREEN}, CRITICAL HITS; decision \
                 DamageType::minimum_damage)"
            ));
        }
        basic += v;
    }
    if roll["total"].as_i64() != Some(basic) {
        out.push(format!(
            "damage total {} is not faces + modifiers = {basic}",
            roll["total"]
        ));
    }
    // The minimum holds for the damage rolled; a self-inflicted hit's "half damage" comes
    // after it and may go below (as halving beyond 1/2D does; decision
    // DamageType::minimum_damage).
    let halved = mods.iter().any(|(l, _)| l == "half damage");
    if basic < minimum && !halved {
        out.push(format!("basic damage {basic} below the minimum {minimum}"));
    }
    let before_crit = basic
        - mods
            .iter()
            .filter(|(l, _)| l.starts_with("critical hit:"))
            .map(|m| m.1)
            .sum::<i64>();
    if let Some(c) = crit
        && c.times > 1
        && before_crit > 0
        && !mods.iter().any(|(l, _)| l.starts_with("critical hit:"))
    {
        out.push(format!(
            "critical hit x{} without its extra damage ({SCREEN}, CRITICAL HITS)",
            c.times
        ));
    }
    if attacker.is_some()
        && action.starts_with("Defensive Attack")
        && !mods.iter().any(|(l, _)| l == "Defensive Attack")
        && strike.attacker == attacker.unwrap_or(usize::MAX)
        && !damage_type.is_empty()
    {
        // A Wait-triggered blow during a Defensive Attack turn cannot happen: the maneuver
        // is the fighter's own, so its blows carry the -2 (Lite "MANEUVERS").
        out.push(format!(
            "a Defensive Attack's blow without -2 damage ({LITE}, MANEUVERS)"
        ));
    }
    // Steps to injury, recomputed.
    let steps = modifiers(&json_steps(e));
    let hp_max = i64::from(foe.hp);
    let dr_full = i64::from(foe.dr.get(loc.as_str()).copied().unwrap_or(0));
    let halved = steps.iter().any(|(l, _)| l == "beyond 1/2D: half");
    let ranged = strike.weapon.as_ref().is_some_and(|w| w.ranged.is_some());
    if halved && !(ranged && attacker.is_some()) {
        out.push("half damage beyond 1/2D on a blow that is no shot".into());
    }
    let drs: Vec<i64> = match (attacker, crit) {
        (None, _) => vec![dr_full, 0],
        (_, Some(c)) if c.unknown => vec![dr_full, 0],
        (_, Some(c)) if c.bypass => vec![0],
        _ if strike.chink => vec![dr_full / 2],
        _ => vec![dr_full],
    };
    let crits: Vec<Option<CritDamage>> = if any_row {
        [None, Some(1), Some(2)]
            .into_iter()
            .map(|scar| {
                Some(CritDamage {
                    scar,
                    ..CritDamage::default()
                })
            })
            .collect()
    } else {
        vec![crit]
    };
    let expected: Vec<(Vec<(String, i64)>, i64)> = drs
        .iter()
        .flat_map(|&dr| crits.iter().map(move |&c| (dr, c)))
        .map(|(dr, c)| injury_steps(basic, dr, &damage_type, halved, &loc, hp_max, c))
        .collect();
    let injury = e["injury"].as_i64().unwrap_or(-1);
    if !expected
        .iter()
        .any(|(s, inj)| *s == steps && *inj == injury)
    {
        out.push(format!(
            "damage {basic} {damage_type} on the {loc} (DR {drs:?}): steps {steps:?} and \
             injury {injury}, the rules give {:?} ({LITE}, WOUNDING MODIFIERS, HIT LOCATIONS; \
             decision combat::injury_steps)",
            expected.first()
        ));
    }
    let sum: i64 = basic.max(0) + steps.iter().map(|s| s.1).sum::<i64>();
    if sum != injury {
        out.push(format!(
            "basic {basic} plus the steps is {sum}, not the injury {injury}"
        ));
    }
    // HP.
    let before = e["hp_before"].as_i64().unwrap_or(0);
    let after = e["hp_after"].as_i64().unwrap_or(0);
    if before != state[t].hp {
        out.push(format!(
            "hp_before {before}, but the unit had {} HP",
            state[t].hp
        ));
    }
    if after != before - injury {
        out.push(format!("hp_after {after} is not {before} - {injury}"));
    }
    if e["hp_max"].as_i64() != Some(hp_max) {
        out.push(format!(
            "hp_max {}, the sheet gives HP = ST {hp_max}",
            e["hp_max"]
        ));
    }
    state[t].hp = after;
    out
}

fn json_steps(e: &Value) -> Value {
    serde_json::json!({ "modifiers": e["steps"] })
}

/// The steps from basic damage to injury (Lite "WOUNDING MODIFIERS" and "HIT LOCATIONS";
/// decisions in `combat::injury_steps`), as (label, change), and the injury.
fn injury_steps(
    basic: i64,
    dr: i64,
    damage_type: &str,
    halved: bool,
    loc: &str,
    hp_max: i64,
    crit: Option<CritDamage>,
) -> (Vec<(String, i64)>, i64) {
    let mut steps = Vec::new();
    let mut dmg = basic.max(0);
    if halved && dmg > 0 {
        steps.push(("beyond 1/2D: half".to_string(), dmg / 2 - dmg));
        dmg /= 2;
    }
    if dr > 0 && dmg > 0 {
        let stop = dr.min(dmg);
        steps.push(("DR".to_string(), -stop));
        dmg -= stop;
    }
    // Screen "BRAIN (3-4)": "Skull provides DR 2".
    if loc == "skull" && dmg > 0 {
        let stop = 2.min(dmg);
        steps.push(("skull DR".to_string(), -stop));
        dmg -= stop;
    }
    let (num, den) = multiplier(damage_type, loc);
    let mut injury = dmg * num / den;
    if injury != dmg {
        let label = if (num, den) == base_multiplier(damage_type) {
            base_multiplier_label(damage_type).to_string()
        } else if den == 1 {
            format!("{loc} x{num}")
        } else {
            format!("{loc} x{}", num as f64 / den as f64)
        };
        steps.push((label, injury - dmg));
    }
    if dmg > 0 && injury == 0 {
        steps.push(("minimum injury".to_string(), 1));
        injury = 1;
    }
    // "Injury > HP/2 cripples limb (excess damage lost)"; HP/3 for hand and foot.
    let cap = if is_limb(loc) {
        Some(hp_max / 2 + 1)
    } else if is_extremity(loc) {
        Some(hp_max / 3 + 1)
    } else {
        None
    };
    if let Some(cap) = cap
        && injury > cap
    {
        steps.push(("excess beyond crippling lost".to_string(), cap - injury));
        injury = cap;
    }
    if let Some(n) = crit.and_then(|c| c.scar)
        && injury != n
    {
        steps.push(("critical head blow: only a scar".to_string(), n - injury));
        injury = n;
    }
    (steps, injury)
}

/// What must follow a damage event: the rolls against death, shock for the next turn, the
/// knockdown roll exactly when due, and knockback.
fn follow_damage(
    evs: &[Value],
    i: usize,
    e: &Value,
    units: &[Body],
    state: &mut [State],
    (t, crit_cripples): (usize, bool),
    knockback_due: &mut Option<(usize, usize, i64)>,
) -> Vec<String> {
    let mut out = Vec::new();
    let foe = &units[t];
    let hp_max = i64::from(foe.hp);
    let injury = e["injury"].as_i64().unwrap_or(0);
    let before = e["hp_before"].as_i64().unwrap_or(0);
    let after = e["hp_after"].as_i64().unwrap_or(0);
    let loc = e["location"].as_str().unwrap_or("torso");
    let window: Vec<&Value> = evs[i + 1..]
        .iter()
        .take_while(|x| {
            !matches!(
                kind(x),
                "damage" | "attack" | "turn_started" | "action_chosen" | "round_started"
            )
        })
        .collect();
    let mine = |x: &&Value| x["unit"].as_u64() == Some(t as u64);
    // Lite "LOST HIT POINTS": a HT roll at each multiple of -HP crossed; -5xHP kills.
    let crossed: Vec<i64> = (1..=4)
        .filter(|k| before > -k * hp_max && after <= -k * hp_max)
        .collect();
    let checks: Vec<&&Value> = window
        .iter()
        .filter(|x| {
            mine(x)
                && x["purpose"]
                    .as_str()
                    .is_some_and(|p| p.starts_with("HT to survive"))
        })
        .collect();
    let outright = after <= -5 * hp_max;
    let mut died = outright;
    if outright {
        if !checks.is_empty() {
            out.push(format!("HT rolls against death at -5xHP, where death is immediate ({LITE}, LOST HIT POINTS)"));
        }
    } else {
        let mut mortal = state[t].mortal;
        for (n, k) in crossed.iter().enumerate() {
            let Some(c) = checks.get(n) else {
                if !died {
                    out.push(format!(
                        "no HT roll to survive at -{k}xHP after falling from {before} to {after} \
                         ({LITE}, LOST HIT POINTS)"
                    ));
                }
                break;
            };
            let purpose = c["purpose"].as_str().unwrap_or("");
            if purpose != format!("HT to survive at -{k} x HP") {
                out.push(format!(
                    "death check \"{purpose}\", the fall crosses -{k}xHP"
                ));
            }
            let r = &c["roll"];
            let ok = r["success"].as_bool() == Some(true);
            let margin = r["margin"].as_i64().unwrap_or(0);
            let want = if ok {
                "survives"
            } else if (-2..=-1).contains(&margin) && r["critical"].is_null() && !mortal {
                mortal = true;
                "mortally wounded"
            } else {
                died = true;
                "dies"
            };
            if c["result"].as_str() != Some(want) {
                out.push(format!(
                    "{purpose}: \"{}\", the text gives \"{want}\" ({LITE}, LOST HIT POINTS; \
                     INJURY, Mortal Wounds)",
                    c["result"]
                ));
            }
            if died {
                break;
            }
        }
        if checks.len() > crossed.len() {
            out.push(format!(
                "{} death checks for {} multiples of -HP crossed",
                checks.len(),
                crossed.len()
            ));
        }
        state[t].mortal = mortal;
    }
    let out_of_fight = window.iter().any(|x| {
        mine(x)
            && kind(x) == "status_changed"
            && matches!(x["standing"].as_str(), Some("Dead" | "Unconscious"))
    });
    if outright
        && !window
            .iter()
            .any(|x| mine(x) && x["standing"].as_str() == Some("Dead"))
    {
        out.push(format!(
            "at {after} HP of {hp_max} the unit lives on ({LITE}, LOST HIT POINTS: -5xHP)"
        ));
    }
    // Shock for the next turn (Lite "INJURY", Shock; "HIT LOCATIONS", groin).
    if injury > 0 {
        let (factor, cap) = if loc == "groin" { (2, 8) } else { (1, 4) };
        let s = &mut state[t];
        s.pending_shock = match foe.pain {
            PainThreshold::High => 0,
            PainThreshold::Normal => (s.pending_shock + injury * factor).min(cap),
            PainThreshold::Low => (s.pending_shock + 2 * injury * factor).min(2 * cap),
        };
    }
    // Knockdown (Lite "INJURY": a major wound, > HP/2 or crippling, or any injury to the
    // head or vitals).
    let cripples =
        (is_limb(loc) && injury * 2 > hp_max) || (is_extremity(loc) && injury * 3 > hp_max);
    let new_cripple = cripples && !state[t].crippled.iter().any(|c| c == loc);
    if new_cripple {
        state[t].crippled.push(loc.to_string());
    }
    let major = injury * 2 > hp_max || new_cripple;
    let head = matches!(loc, "skull" | "face" | "eye" | "vitals");
    let knockdown: Vec<&&Value> = window
        .iter()
        .filter(|x| {
            mine(x)
                && x["purpose"]
                    .as_str()
                    .is_some_and(|p| p.starts_with("HT against knockdown"))
        })
        .collect();
    let due = injury > 0 && (major || head) && !died && !out_of_fight && !state[t].down;
    if due && knockdown.is_empty() {
        out.push(format!(
            "{injury} injury to the {loc} of a {hp_max} HP unit (major: {major}) without the HT \
             roll against knockdown ({LITE}, INJURY, Knockdown and Stunning)"
        ));
    }
    // A critical row that cripples the limb does so after the wound's own effects (Screen
    // "CRITICAL HITS" 14): a later wound there is no new crippling.
    if injury > 0
        && !died
        && !out_of_fight
        && crit_cripples
        && !state[t].crippled.iter().any(|c| c == loc)
    {
        state[t].crippled.push(loc.to_string());
    }
    if !due && !knockdown.is_empty() {
        out.push(format!(
            "a knockdown roll after {injury} injury to the {loc} of a {hp_max} HP unit, which \
             is no major wound nor a blow to the head or vitals ({LITE}, INJURY)"
        ));
    }
    if let Some(k) = knockdown.first() {
        let purpose = k["purpose"].as_str().unwrap_or("");
        let want = if major {
            "HT against knockdown (major wound)"
        } else {
            "HT against knockdown (blow to the head or vitals)"
        };
        if purpose != want {
            out.push(format!(
                "\"{purpose}\" for a wound that calls for \"{want}\""
            ));
        }
        let want_mod: Option<(&str, i64)> = match loc {
            "skull" => Some(("skull", -10)),
            "eye" => Some(("eye", -10)),
            "face" => Some(("face", -5)),
            "groin" => Some(("groin", -5)),
            "vitals" if major => Some(("major wound to vitals", -5)),
            _ => None,
        };
        let got: Vec<(String, i64)> = modifiers(&k["roll"])
            .into_iter()
            .filter(|(l, _)| {
                !matches!(
                    l.as_str(),
                    "HT" | "High Pain Threshold" | "Low Pain Threshold"
                )
            })
            .collect();
        let want_v: Vec<(String, i64)> = want_mod
            .map(|(l, v)| (l.to_string(), v))
            .into_iter()
            .collect();
        if got != want_v {
            out.push(format!(
                "knockdown roll after a blow to the {loc}: location modifiers {got:?}, the text \
                 gives {want_v:?} ({LITE}, HIT LOCATIONS; INJURY)"
            ));
        }
    }
    // Knockback (Lite "KNOCKBACK"; which types: decision knockback::causes_knockback).
    let dtype = e["damage_type"].as_str().unwrap_or("");
    if e["attacker"].as_u64().is_some() && (dtype == "cr" || (dtype == "cut" && injury == 0)) {
        let basic = e["roll"]["total"].as_i64().unwrap_or(0).max(0);
        let st = i64::from(foe.st);
        let yards = if st <= 3 { basic } else { basic / (st - 2) };
        let logged = window
            .iter()
            .find(|x| mine(x) && kind(x) == "knockback")
            .and_then(|x| x["distance"].as_i64());
        if yards > 0 {
            *knockback_due = Some((i, t, yards));
            if logged.is_none() {
                out.push(format!(
                    "{basic} basic damage on ST {st} calls for {yards} yd of knockback, none \
                     logged ({LITE}, KNOCKBACK)"
                ));
                *knockback_due = None;
            }
        } else if logged.is_some() {
            out.push(format!(
                "knockback after {basic} basic damage on ST {st} ({LITE}, KNOCKBACK: per full \
                 multiple of ST-2)"
            ));
        }
    }
    out
}

/// gurps-lite-and-socs.txt and gurps-traveller-gm-screen.txt, recomputed on every roll of
/// every shipped GURPS scenario.
#[test]
fn every_gurps_roll_follows_the_rules() {
    audit_all("gurps", audit);
}

/// A real log to plant errors in: the duel, seed 1.
fn duel() -> (std::path::PathBuf, Value) {
    let file = super::scenarios("gurps-duel")[0].clone();
    let log = super::battle(&file, 1);
    (file, log)
}

/// The index of the first event matching `pred`.
fn find(log: &Value, pred: impl Fn(&Value) -> bool) -> usize {
    events(log)
        .iter()
        .position(pred)
        .expect("the log has such an event")
}

/// The auditor passes the real log, and reports the planted error.
fn assert_caught(file: &Path, clean: &Value, planted: &Value, words: &str) {
    assert!(audit(file, clean).is_empty(), "{:?}", audit(file, clean));
    let found = audit(file, planted);
    assert!(
        found.iter().any(|v| v.what.contains(words)),
        "expected a violation mentioning {words:?}, got {found:?}"
    );
}

/// A Dodge's base changed from the sheet's (Basic Speed rounded down + 3) is reported.
#[test]
fn planted_wrong_dodge_is_caught() {
    let (file, log) = duel();
    let i = find(&log, |e| {
        kind(e) == "attack" && e["defenses"].as_array().is_some_and(|d| !d.is_empty())
    });
    let mut bad = log.clone();
    let roll = &mut bad["events"][i]["defenses"][0]["roll"];
    roll["modifiers"][0]["value"] =
        Value::from(roll["modifiers"][0]["value"].as_i64().unwrap() + 1);
    roll["target"] = Value::from(roll["target"].as_i64().unwrap() + 1);
    roll["margin"] = Value::from(roll["margin"].as_i64().unwrap() + 1);
    assert_caught(&file, &log, &bad, "the sheet gives Dodge");
}

/// "retreating" +3 put on a Parry with a non-fencing weapon (Lite "ATTACK/DEFENSE OPTIONS":
/// +1 there) is reported.
#[test]
fn planted_full_retreat_on_a_parry_is_caught() {
    let (file, log) = duel();
    let i = find(&log, |e| {
        kind(e) == "attack"
            && e["defenses"]
                .as_array()
                .is_some_and(|d| d.iter().any(|d| d["defense"] == "Dodge, retreating"))
    });
    let mut bad = log.clone();
    let d = &mut bad["events"][i]["defenses"][0];
    // The defender's own weapon, for the parry.
    let t = log["events"][i]["target"].as_u64().unwrap() as usize;
    let weapon = bodies(&file)[t].weapons[0].clone();
    d["defense"] = Value::from(format!("Parry ({}), retreating", weapon.name));
    d["roll"]["modifiers"] = serde_json::json!([
        {"label": "Parry", "value": weapon.parry.unwrap()},
        {"label": "retreating", "value": 3},
    ]);
    let target = i64::from(weapon.parry.unwrap()) + 3;
    let total = d["roll"]["total"].as_i64().unwrap();
    d["roll"]["target"] = Value::from(target);
    d["roll"]["margin"] = Value::from(target - total);
    d["roll"]["critical"] = Value::Null;
    d["roll"]["success"] = Value::from(total <= target);
    assert_caught(&file, &log, &bad, "\"retreating\" +3 is wrong");
}

/// A hit location roll whose result word is not the table's is reported.
#[test]
fn planted_wrong_hit_location_is_caught() {
    let (file, log) = duel();
    let i = find(&log, |e| e["purpose"] == "hit location");
    let mut bad = log.clone();
    let wrong = if log["events"][i]["result"] == "torso" {
        "neck"
    } else {
        "torso"
    };
    bad["events"][i]["result"] = Value::from(wrong);
    assert_caught(&file, &log, &bad, "the table gives");
}

/// A damage step that skips the armor's DR is reported, and so is the HP that follows.
#[test]
fn planted_wrong_damage_step_is_caught() {
    let (file, log) = duel();
    let i = find(&log, |e| {
        kind(e) == "damage"
            && e["steps"]
                .as_array()
                .is_some_and(|s| s.iter().any(|s| s["label"] == "DR"))
    });
    let mut bad = log.clone();
    let steps = bad["events"][i]["steps"].as_array_mut().unwrap();
    let at = steps.iter().position(|s| s["label"] == "DR").unwrap();
    steps[at]["value"] = Value::from(steps[at]["value"].as_i64().unwrap() + 1);
    assert_caught(&file, &log, &bad, "the rules give");
}

/// An attack modifier label with a wrong value ("skull" at −5 instead of −7) is reported.
#[test]
fn planted_wrong_location_penalty_is_caught() {
    let (file, log) = duel();
    let i = find(&log, |e| kind(e) == "attack");
    let mut bad = log.clone();
    let roll = &mut bad["events"][i]["roll"];
    roll["modifiers"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"label": "skull", "value": -5}));
    let target = roll["target"].as_i64().unwrap() - 5;
    roll["target"] = Value::from(target);
    roll["margin"] = Value::from(target - roll["total"].as_i64().unwrap());
    assert_caught(&file, &log, &bad, "\"skull\" -5 is wrong");
}

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
    /// Thrust damage (`thr`, or a written-out weapon marked `thrust`).
    thrust: bool,
    /// A written-out natural attack (`natural`): part of the body.
    natural: bool,
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
                            thrust: matches!(spec.damage, DamageSpec::Thrust(_)),
                            natural: false,
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
                        thrust: own.thrust || matches!(own.damage, DamageSpec::Thrust(_)),
                        natural: own.natural,
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

mod checks;
mod tables;

use checks::*;
use tables::*;

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
    // The FP the last attack's defenses owe (Lite "ATTACK/DEFENSE OPTIONS": Feverish
    // Defense and Rapid Recovery, 1 FP each, for every defense made with them): the
    // defender and the note it must write.
    let mut owed: Vec<(usize, String)> = Vec::new();
    for (i, e) in evs.iter().enumerate() {
        let mut bad = |what: String| out.push(Violation { event: i, what });
        if matches!(kind(e), "attack" | "turn_started") {
            for (u, note) in owed.drain(..) {
                bad(format!(
                    "unit {u}: a defense with extra effort not paid: expected \"{note}\" \
                     ({LITE}, ATTACK/DEFENSE OPTIONS)"
                ));
            }
        }
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
                    if text.starts_with("spends ")
                        && (text.contains("Feverish Defense") || text.contains("Rapid Recovery"))
                    {
                        match owed
                            .iter()
                            .position(|(d, note)| *d == u && text.starts_with(note.as_str()))
                        {
                            Some(k) => {
                                owed.remove(k);
                            }
                            None => bad(format!(
                                "unit {u}: \"{text}\" for no defense made with that effort"
                            )),
                        }
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
                        aimed = Some(label.trim_end_matches(" (from behind)").to_string());
                        // From behind there is no active defense (decision in
                        // `gurps::facing`, 4e p. B391; worked out from the same arc).
                        let defended = e["defenses"].as_array().is_some_and(|d| !d.is_empty());
                        if label.ends_with("(from behind)") && defended {
                            bad(format!(
                                "an attack at the {label} met an active defense, which an \
                                 attack from behind allows none (decision in gurps::facing)"
                            ));
                        }
                        // The other way: a blow at the skull or face that hits, not
                        // critically, and meets no defense from a foe with its defenses
                        // (not after an All-Out Attack) comes from behind, and takes the
                        // penalty from behind (Lite "HIT LOCATIONS").
                        let t = unit_of(e, "target");
                        if matches!(label.as_str(), "skull" | "face")
                            && !defended
                            && e["result"].as_str() == Some("Hit")
                            && e["roll"]["critical"].is_null()
                            && state[t].guard != Guard::AllOutAttack
                            && !state[t].down
                        {
                            bad(format!(
                                "an undefended hit at the {label}, which only an attack from \
                                 behind leaves undefended here: expected \"{label} (from \
                                 behind)\" ({LITE}, HIT LOCATIONS)"
                            ));
                        }
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
                    let flags: Vec<&str> = name.split(", ").skip(1).collect();
                    let effort = match (
                        flags.contains(&"feverish"),
                        flags.contains(&"Rapid Recovery"),
                    ) {
                        (true, true) => Some("2 FP on Rapid Recovery and Feverish Defense"),
                        (true, false) => Some("1 FP on Feverish Defense"),
                        (false, true) => Some("1 FP on Rapid Recovery"),
                        (false, false) => None,
                    };
                    if let Some(effort) = effort {
                        owed.push((t, format!("spends {effort}:")));
                    }
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
                        due.push((a, miss_table(w)));
                    }
                    for d in e["defenses"].as_array().into_iter().flatten() {
                        let dr = &d["roll"];
                        let name = d["defense"].as_str().unwrap_or("");
                        if dr["critical"].as_str() == Some("Success") && !ranged {
                            due.push((a, miss_table(w)));
                        }
                        if dr["critical"].as_str() == Some("Failure")
                            && let Some(p) = parry_weapon_of(name)
                            && let Some(pw) = units[t].weapon(p)
                        {
                            due.push((t, miss_table(pw)));
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
    // The last attack's payments are due before the log ends.
    for (u, note) in owed {
        out.push(Violation {
            event: evs.len(),
            what: format!(
                "unit {u}: a defense with extra effort not paid: expected \"{note}\" \
                 ({LITE}, ATTACK/DEFENSE OPTIONS)"
            ),
        });
    }
    out.retain(|v| !KNOWN_BUGS.iter().any(|k| v.what.starts_with(k)));
    out
}

fn unit_of(e: &Value, field: &str) -> usize {
    e[field].as_u64().unwrap_or(0) as usize
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

/// A Feverish Defense whose FP note is taken out is reported, and so is a second payment
/// for one defense (under All-Out Defense (Double Defense) each defense with extra effort
/// pays its own, and no more).
#[test]
fn planted_unpaid_feverish_defense_is_caught() {
    let (file, log) = duel();
    let i = find(&log, |e| {
        kind(e) == "note"
            && e["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("spends 1 FP on Feverish Defense"))
    });
    let mut bad = log.clone();
    let paid = bad["events"][i].clone();
    let list = bad["events"].as_array_mut().expect("events");
    list.remove(i);
    assert_caught(&file, &log, &bad, "a defense with extra effort not paid");
    let mut bad = log.clone();
    let list = bad["events"].as_array_mut().expect("events");
    list.insert(i, paid);
    assert_caught(&file, &log, &bad, "for no defense made with that effort");
}

/// A Dodge after a Committed Attack with a kick (Lite "MANEUVERS": "no Dodge if you
/// kicked") is reported: a fighter's action before a Dodge rewritten as one.
#[test]
fn planted_dodge_after_a_committed_kick_is_caught() {
    let (file, log) = duel();
    let evs = events(&log);
    let dodge = find(&log, |e| {
        kind(e) == "attack"
            && e["defenses"].as_array().is_some_and(|d| {
                d.first()
                    .and_then(|d| d["defense"].as_str())
                    .is_some_and(|n| n.starts_with("Dodge"))
            })
    });
    let t = unit_of(&evs[dodge], "target");
    let chosen = (0..dodge)
        .rev()
        .find(|&i| kind(&evs[i]) == "action_chosen" && unit_of(&evs[i], "unit") == t)
        .expect("the defender acted before");
    let mut bad = log.clone();
    bad["events"][chosen]["action"] = Value::from("Committed Attack (Strong) on Bob with kick");
    assert_caught(
        &file,
        &log,
        &bad,
        "a Dodge after a Committed Attack with a kick",
    );
}

/// A blow at the skull from behind written with the front's −7 ("skull") is reported:
/// gurps-brawl, seed 3, has undefended blows at "skull (from behind)" −5 (Lite "HIT
/// LOCATIONS"); one of them, made 2 worse and relabelled, is caught.
#[test]
fn planted_skull_from_behind_at_the_front_penalty_is_caught() {
    let file = super::scenarios("gurps-brawl")[0].clone();
    let log = super::battle(&file, 3);
    let i = find(&log, |e| {
        kind(e) == "attack"
            && e["result"].as_str() == Some("Hit")
            && e["roll"]["margin"].as_i64().is_some_and(|m| m >= 2)
            && modifiers(&e["roll"])
                .iter()
                .any(|(l, _)| l == "skull (from behind)")
    });
    let mut bad = log.clone();
    let roll = &mut bad["events"][i]["roll"];
    let k = modifiers(roll)
        .iter()
        .position(|(l, _)| l == "skull (from behind)")
        .expect("the modifier");
    roll["modifiers"][k]["label"] = Value::from("skull");
    roll["modifiers"][k]["value"] = Value::from(-7);
    roll["target"] = Value::from(roll["target"].as_i64().expect("a target") - 2);
    roll["margin"] = Value::from(roll["margin"].as_i64().expect("a margin") - 2);
    assert_caught(
        &file,
        &log,
        &bad,
        "only an attack from behind leaves undefended",
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

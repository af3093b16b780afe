//! Log auditor: GURPS Traveller space combat (issue 26). Every `scenarios/traveller-*.ron`
//! is fought over many seeds and every logged roll is recomputed from the log and the
//! scenario's stat blocks, with the arithmetic written here from
//! `../shared/rules/gurps-traveller-gm-screen.txt` (cited below as "the screen") and the
//! project's decisions documented in `src/rules/traveller_space/space.rs` (module doc) and
//! `tables.rs` (module doc), which count as the rule where the text is silent.
//!
//! What is checked:
//! - Every 3d6 success roll (scan, gunnery, point defense, missile strike, Piloting,
//!   Engineer): target = sum of the modifiers, total = the faces, margin, success and
//!   criticals — the screen, "CRITICAL SUCCESS AND FAILURE" (3–4 always, 5 at 15+, 6 at
//!   16+; 18 always fails, 17 under 16, 10 or more over the skill). Every damage, table or
//!   casualty roll: its faces are d6 and add up to its total.
//! - Scans: the side's scan of each enemy ship, by the screen's "Scan Values Table" and
//!   "Scan Modifiers": Electronics Operations (Sensors), the scan value of the scanner's
//!   sensor (kind, bridge, TL), the "SPACE RANGE TABLE" for the range between the ships'
//!   positions (followed from the scenario and the `moved` events), "prior detection" +4
//!   only when the side found the target the turn before with another ship or another
//!   sensor type (decision: `Detection::prior_for` in space.rs), the AESA's target size,
//!   stealth, planet and atmosphere; the PESA's target size, planet, atmosphere and
//!   emission cloaking (doubled in an atmosphere); the radscan's active-sensor or transponder
//!   bonus (the higher). An AESA scans only while its ship's active sensors are on, and the
//!   scan logged is the best one the side has (space.rs, "Detection").
//! - Direct fire: the screen's "GUNNERY MODIFIERS" — Gunner, Acc (the "SPACE WEAPONS
//!   TABLE"'s, capped at Gunner skill), RoF (tables.rs decision: the Lite "RAPID FIRE" table
//!   for the turn's shots), the targeting program while a computer and the bridge work,
//!   target size = the target's SM (or −6 pinpoint, only for a shot declared pinpoint), the
//!   range counting the firing hex, +2 active sensor lock (space.rs decision: own active
//!   sensors on and the side's AESA found the target this turn); the range is within the
//!   weapon's Max and the target was detected. Volley modifiers are taken at declaration
//!   (space.rs: direct fire is simultaneous).
//! - Point defense: augmented Gunner skill, missile size 0, range 0 counting the firing
//!   hex, +10 ("GUNNERY MODIFIERS", Point Defense Fire), fired by a working mount. Missile
//!   strikes: guidance skill (the scenario's missile) plus the target's SM (space.rs).
//! - Damage: dice × multiplier ("SPACE WEAPONS TABLE"), halved beyond 1/2D, ×2/×3 on the
//!   "VEHICLE CRITICAL HITS" result, less the DR the weapon meets ("(2)" halves it, "(!)"
//!   ignores it; results 5 and 13 leave 10%); hp_before is the ship's hit points so far and
//!   hp_after = hp_before − injury. Collisions, fires (2d every 10 s, no DR: critical #7)
//!   and exploding missiles (critical #18) likewise.
//! - Tables: each "vehicle critical hit" roll follows a critical hit and names the
//!   result of its 3d roll ("VEHICLE CRITICAL HITS", all 3–18); each "major damage" roll
//!   follows a hit of 10% of the hull or more (space.rs decision) and names the "MAJOR
//!   DAMAGE TABLE" result (11 knocks out a computer only for a particle beam or meson gun);
//!   casualties roll 1d plus 1d per full 50 left aboard (the table's note). Fuel catches
//!   fire on 13 or less and explodes on 6 or less (critical #16, jet or rocket fuel).
//! - State: computers, bridge, weapons, sensors, power and the damage-control queue
//!   (space.rs: repaired one a turn in the order lost); standing changes match the hit
//!   points (0: no longer functions, −full: destroyed; the critical table's preamble).

use super::common::{events, faces, kind, modifiers, unit_names};
use super::{Violation, audit_all, battle};
use serde_json::Value;
use skirmish::rules::traveller_space::tables::{Bridge, Masking, SensorKind};
use skirmish::rules::traveller_space::{TravellerShipStats, TravellerSpace};
use std::collections::{HashMap, VecDeque};
use std::path::Path;

// ----- generic roll checks ----------------------------------------------------------------

/// The problems of a GURPS 3d6 success roll record: sense `Under`, three d6 faces, total =
/// the faces, target = the modifiers, margin = target − total, criticals and success by the
/// screen's "CRITICAL SUCCESS AND FAILURE" (and gurps-lite-and-socs.txt "CRITICALS"; the
/// "10 or more over the skill" failure is the screen's, applied by the project's
/// `gurps_critical` in src/dice/mod.rs as its documented decision).
pub fn gurps_roll_problems(roll: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if roll["sense"] != "Under" {
        out.push(format!("a success roll with sense {}", roll["sense"]));
    }
    let f = faces(roll);
    if f.len() != 3 || f.iter().any(|x| !(1..=6).contains(x)) {
        out.push(format!("3d6 with faces {f:?}"));
    }
    let total: i64 = f.iter().sum();
    let target: i64 = modifiers(roll).iter().map(|(_, v)| v).sum();
    if roll["total"].as_i64() != Some(total) {
        out.push(format!(
            "total {} but the faces make {total}",
            roll["total"]
        ));
    }
    if roll["target"].as_i64() != Some(target) {
        out.push(format!(
            "target {} but the modifiers make {target}",
            roll["target"]
        ));
    }
    if roll["margin"].as_i64() != Some(target - total) {
        out.push(format!(
            "margin {} but should be {}",
            roll["margin"],
            target - total
        ));
    }
    let critical = if total <= 4 || (total == 5 && target >= 15) || (total == 6 && target >= 16) {
        Some("Success")
    } else if total == 18 || (total == 17 && target <= 15) || total >= target + 10 {
        Some("Failure")
    } else {
        None
    };
    if roll["critical"].as_str() != critical {
        out.push(format!(
            "critical {} but {total} against {target} is {critical:?}",
            roll["critical"]
        ));
    }
    let success = match critical {
        Some(c) => c == "Success",
        None => total <= target && total <= 16,
    };
    if roll["success"].as_bool() != Some(success) {
        out.push(format!(
            "success {} but {total} against {target} is {success}",
            roll["success"]
        ));
    }
    out
}

/// The problems of a plain roll of `n` d6 (damage, a table, casualties): dice name `nd`,
/// `n` faces of 1–6 whose sum is the total, no target.
pub fn d6_roll_problems(roll: &Value, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    let f = faces(roll);
    if roll["dice"].as_str() != Some(&format!("{n}d")) {
        out.push(format!("dice {} where {n}d are rolled", roll["dice"]));
    }
    if f.len() != n || f.iter().any(|x| !(1..=6).contains(x)) {
        out.push(format!("{n}d rolled with faces {f:?}"));
    }
    let sum: i64 = f.iter().sum();
    if roll["total"].as_i64() != Some(sum) {
        out.push(format!("total {} but the faces make {sum}", roll["total"]));
    }
    if !roll["modifiers"].as_array().is_none_or(|m| m.is_empty()) || !roll["target"].is_null() {
        out.push("a plain roll with modifiers or a target".into());
    }
    out
}

/// Compares the labelled modifiers of a roll (or damage steps) with the expected ones,
/// in any order; each difference is a problem.
pub fn compare_labels(logged: &[(String, i64)], expected: &[(String, i64)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut left: Vec<&(String, i64)> = logged.iter().collect();
    for (label, value) in expected {
        match left.iter().position(|(l, _)| l == label) {
            Some(k) => {
                let (_, v) = left.remove(k);
                if v != value {
                    out.push(format!("`{label}` is {v}, the rule gives {value}"));
                }
            }
            None => out.push(format!("`{label}` {value:+} is missing")),
        }
    }
    for (l, v) in left {
        out.push(format!("`{l}` {v:+} is not in the rule here"));
    }
    out
}

/// Axial hex distance between `(q, r)` positions.
pub fn hex_distance(a: (i64, i64), b: (i64, i64)) -> i64 {
    let (dq, dr) = (a.0 - b.0, a.1 - b.1);
    (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
}

// ----- the screen's tables ------------------------------------------------------------------

/// What a weapon does to armor DR (the "SPACE WEAPONS TABLE" notes).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Armor {
    /// Full DR.
    Normal,
    /// "(2)": armor DR halved.
    Halved,
    /// "(!)": armor DR ignored.
    Ignored,
}

/// A row of the "SPACE WEAPONS TABLE" (or the scenario's missile).
#[derive(Clone, Copy, Debug)]
struct Weapon {
    /// Accuracy.
    acc: i64,
    /// Half-damage range, hexes.
    half: i64,
    /// Maximum range, hexes.
    max: i64,
    /// Damage dice.
    dice: i64,
    /// Damage multiplier.
    mult: i64,
    /// Effect on armor.
    armor: Armor,
    /// A particle beam or meson gun (major damage 11).
    radiation: bool,
}

/// The "SPACE WEAPONS TABLE" of the screen, by name.
fn space_weapon(name: &str) -> Option<Weapon> {
    let w = |acc, half, max, dice, mult, armor, radiation| Weapon {
        acc,
        half,
        max,
        dice,
        mult,
        armor,
        radiation,
    };
    Some(match name {
        "360-MJ Laser" => w(32, 2, 6, 5, 50, Armor::Halved, false),
        "405-MJ Laser" => w(33, 3, 8, 5, 100, Armor::Halved, false),
        "Particle Beam Bay" => w(30, 1, 4, 6, 1000, Armor::Normal, true),
        "Meson Gun Bay" => w(30, 1, 4, 6, 1000, Armor::Ignored, true),
        "Spinal P-Beam" => w(36, 5, 15, 7, 3000, Armor::Normal, true),
        "Spinal Meson Gun" => w(36, 5, 15, 7, 3000, Armor::Ignored, true),
        _ => return None,
    })
}

/// The "SPACE RANGE TABLE"; past 100 hexes ("etc.") the project's decision (tables.rs):
/// the size and speed/range table's steps 150, 200, 300, 450, 700, 1000 and ten times
/// those, −1 a step.
fn range_modifier(hexes: i64) -> i64 {
    const ROWS: [(i64, i64); 13] = [
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
    let mut m = -53;
    let mut scale = 1;
    while scale <= 1_000_000 {
        for s in [150, 200, 300, 450, 700, 1000] {
            m -= 1;
            if hexes <= s * scale {
                return m;
            }
        }
        scale *= 10;
    }
    m
}

/// The "Scan Values Table": scan value by sensor, bridge and TL (10 or 12).
fn scan_value(kind: SensorKind, bridge: Bridge, tl: u8) -> Option<i64> {
    let col = match tl {
        10 => 0,
        12 => 1,
        _ => return None,
    };
    let row = match bridge {
        Bridge::Cockpit => 0,
        Bridge::Basic => 1,
        Bridge::Command => 2,
    };
    let table: [[i64; 2]; 3] = match kind {
        SensorKind::Pesa => [[35, 37], [37, 38], [39, 41]],
        SensorKind::Aesa => [[39, 40], [41, 42], [42, 43]],
        SensorKind::Radscan => [[29, 31], [31, 35], [32, 38]],
    };
    Some(table[row][col])
}

/// The Lite text's "RAPID FIRE" bonus for `shots` (tables.rs decision for a space weapon's
/// RoF over a turn).
fn rapid_fire(shots: i64) -> i64 {
    match shots {
        ..=4 => 0,
        5..=8 => 1,
        9..=12 => 2,
        13..=16 => 3,
        17..=24 => 4,
        25..=49 => 5,
        50..=99 => 6,
        _ => 6 + shots / 100,
    }
}

/// The "MAJOR DAMAGE TABLE" result for a 3d roll, in the log's words (`radiation`: the hit
/// was by a particle beam or meson gun, for 11).
fn major_damage_word(roll: i64, radiation: bool) -> &'static str {
    match roll {
        3 | 12 => "fuel tank shattered: half the fuel lost",
        4 | 13 => "passengers injured",
        5 => "jump drive knocked out",
        6 | 15 => "cargo damaged: a quarter lost",
        7 => "a computer knocked out",
        8 | 17 => "crew injured",
        9 => "power loss: Gs halved",
        10 => "a weapon disabled",
        11 if radiation => "a computer knocked out",
        11 => "no special effect",
        14 => "M-drive acceleration halved",
        16 => "bridge knocked out",
        _ => "power plant knocked out: crippled",
    }
}

/// The "VEHICLE CRITICAL HITS" result for a 3d roll in the log's words, and its damage
/// multiple (the results for things a starship here lacks — rudder, windows, batteries,
/// equipment, communications — come to their normal damage; 14 without batteries is 6).
fn vehicle_critical(roll: i64) -> (&'static str, i64) {
    match roll {
        3 => ("triple damage; a computer destroyed if it penetrates", 3),
        4 => ("double damage", 2),
        5 => ("bypasses 90% of the armor; a sensor is disabled", 1),
        6 | 14 => ("normal damage; the drive is badly damaged", 1),
        7 => ("normal damage; fire if it penetrates", 1),
        8 => ("normal damage; a weapon is disabled", 1),
        9..=11 => ("a window hit: no windows, normal damage", 1),
        12 => ("normal damage (miscellaneous equipment)", 1),
        13 => ("bypasses 90% of the armor", 1),
        15 => ("normal damage (communications and ECM)", 1),
        16 => ("double damage; the fuel tank leaks", 2),
        17 => ("triple damage", 3),
        _ => ("double damage; explosive ammunition may go off", 2),
    }
}

/// Jet or rocket fuel catches fire on 3d of this or less (critical #16); explodes on half.
const FUEL_IGNITES: i64 = 13;

// ----- the auditor ------------------------------------------------------------------------

/// What the auditor follows of one ship.
#[derive(Clone, Debug)]
struct Ship {
    /// Name.
    name: String,
    /// Side index.
    side: i64,
    /// The stat block.
    stats: TravellerShipStats,
    /// Its mounts' weapons, one per mount.
    mounts: Vec<Option<Weapon>>,
    /// Position `(q, r)`.
    pos: (i64, i64),
    /// Hull hit points.
    hp: i64,
    /// Still fighting.
    fighting: bool,
    /// Active sensors off (its last maneuver).
    passive: bool,
    /// The bridge works.
    bridge: bool,
    /// Computers working.
    computers: i64,
    /// Sensors knocked out.
    sensors_out: Vec<SensorKind>,
    /// Power loss.
    power_loss: bool,
    /// Mounts knocked out.
    mounts_out: Vec<bool>,
    /// Crew and passengers out of action.
    crew_hurt: i64,
    /// Passengers hurt.
    passengers_hurt: i64,
    /// Missiles aboard.
    missiles: i64,
    /// Damage control's queue, in the log's words.
    repairs: VecDeque<String>,
}

impl Ship {
    /// Its active sensors work and are on (space.rs: an AESA, not switched off, a working
    /// bridge).
    fn active(&self) -> bool {
        !self.passive
            && self.bridge
            && self.stats.sensors.contains(&SensorKind::Aesa)
            && !self.sensors_out.contains(&SensorKind::Aesa)
    }

    /// Knocks out its first working mount (major damage 10, critical 8, pinpoint).
    fn weapon_out(&mut self) {
        if let Some(i) = self.mounts_out.iter().position(|o| !o) {
            self.mounts_out[i] = true;
            self.repairs.push_back(format!("mount {i}"));
        }
    }

    /// Knocks out a sensor of `kind`.
    fn sensor_out(&mut self, k: SensorKind) {
        self.sensors_out.push(k);
        self.repairs.push_back(format!("the {k:?}"));
    }

    /// The first sensor it has working (pinpoint and critical 5 take it).
    fn first_sensor(&self) -> Option<SensorKind> {
        [SensorKind::Aesa, SensorKind::Pesa, SensorKind::Radscan]
            .into_iter()
            .find(|k| self.stats.sensors.contains(k) && !self.sensors_out.contains(k))
    }
}

/// The scenario's settings the auditor needs.
struct Setting {
    /// Planets: hex, atmosphere, star.
    planets: Vec<((i64, i64), bool, bool)>,
    /// Miles a hex.
    hex_miles: f64,
    /// Seconds a turn.
    turn_seconds: i64,
    /// The missile: guidance skill, dice, multiplier.
    missile: (i64, i64, i64),
}

impl Setting {
    /// A map range in the tables' 10,000-mile hexes.
    fn std_range(&self, hexes: i64) -> i64 {
        (hexes as f64 * self.hex_miles / 10_000.0).round() as i64
    }
    fn near_planet(&self, h: (i64, i64)) -> bool {
        self.planets
            .iter()
            .any(|(p, _, _)| hex_distance(*p, h) <= 1)
    }
    fn in_atmosphere(&self, h: (i64, i64)) -> bool {
        self.planets.iter().any(|(p, a, _)| *a && *p == h)
    }
}

/// The scan modifiers the screen's "Scan Modifiers" give `by`'s sensor of `k` on `t`.
fn expected_scan(
    set: &Setting,
    ships: &[Ship],
    by: usize,
    k: SensorKind,
    t: usize,
    prior: bool,
) -> Option<Vec<(String, i64)>> {
    let (s, o) = (&ships[by], &ships[t]);
    if s.sensors_out.contains(&k)
        || !s.stats.sensors.contains(&k)
        || (k == SensorKind::Aesa && !s.active())
    {
        return None;
    }
    let value = scan_value(k, s.stats.bridge, s.stats.tl)?;
    let range = set.std_range(hex_distance(s.pos, o.pos));
    let mut m = vec![
        (
            "Electronics Operations (Sensors)".to_string(),
            i64::from(s.stats.crew.sensors),
        ),
        ("scan value".into(), value),
        (format!("range {range} hexes"), range_modifier(range)),
    ];
    if prior {
        m.push(("prior detection".into(), 4));
    }
    let tl = i64::from(o.stats.tl);
    let sm = i64::from(o.stats.sm);
    let near = set.near_planet(o.pos);
    let atmosphere = set.in_atmosphere(o.pos) || set.in_atmosphere(s.pos);
    match k {
        SensorKind::Aesa => {
            if sm != 0 {
                m.push(("target size".into(), sm));
            }
            let stealth = match o.stats.stealth {
                Masking::None => 0,
                Masking::Basic => -(tl - 4),
                Masking::Radical => -2 * (tl - 4),
            };
            if stealth != 0 {
                m.push(("stealth".into(), stealth));
            }
            if near {
                m.push(("near a planet".into(), -4));
            }
            if atmosphere {
                m.push(("atmosphere".into(), -6));
            }
        }
        SensorKind::Pesa => {
            if sm != 0 {
                m.push(("target size".into(), sm));
            }
            if near {
                m.push(("near a planet".into(), -2));
            }
            if atmosphere {
                m.push(("atmosphere".into(), -6));
            }
            let double = if set.in_atmosphere(o.pos) { 2 } else { 1 };
            let cloak = match o.stats.cloaking {
                Masking::None => 0,
                Masking::Basic => -((tl - 4) / 2) * double,
                Masking::Radical => -(tl - 4) * double,
            };
            if cloak != 0 {
                m.push(("emission cloaking".into(), cloak));
            }
        }
        SensorKind::Radscan => {
            let active = o
                .active()
                .then(|| scan_value(SensorKind::Aesa, o.stats.bridge, o.stats.tl).map(|v| v - tl))
                .flatten();
            let transponder = o.stats.transponder.then_some(40);
            match (active, transponder) {
                (Some(a), Some(b)) if b >= a => m.push(("transponder".into(), b)),
                (Some(a), _) => m.push(("active sensors".into(), a)),
                (None, Some(b)) => m.push(("transponder".into(), b)),
                (None, None) => {}
            }
        }
    }
    Some(m)
}

/// Augmented Gunner skill of `s` with `w` ("GUNNERY MODIFIERS": Gunner, Acc up to the
/// skill, RoF, the targeting program while a computer and the bridge work).
fn augmented_gunner(set: &Setting, s: &Ship, w: &Weapon) -> Vec<(String, i64)> {
    let g = i64::from(s.stats.crew.gunner);
    let mut m = vec![
        ("Gunner".to_string(), g),
        (format!("Acc {} (up to skill)", w.acc), w.acc.min(g.max(0))),
    ];
    let rof = rapid_fire(set.turn_seconds / 60);
    if rof != 0 {
        m.push(("RoF".into(), rof));
    }
    let t = i64::from(s.stats.targeting);
    if t != 0 && s.computers > 0 && s.bridge {
        m.push(("targeting program".into(), t));
    }
    m
}

/// A hit waiting for its damage event.
#[derive(Clone, Copy, Debug)]
struct PendingHit {
    /// The target.
    target: usize,
    /// The weapon.
    weapon: Weapon,
    /// Range, hexes.
    range: i64,
    /// The attack was a critical hit.
    critical: bool,
    /// The vehicle critical hit roll, once made.
    table: Option<i64>,
}

/// The sensor kind a scan result names ("… with its Pesa").
fn sensor_named(text: &str) -> Option<SensorKind> {
    Some(match text.rsplit(' ').next()? {
        "Aesa" => SensorKind::Aesa,
        "Pesa" => SensorKind::Pesa,
        "Radscan" => SensorKind::Radscan,
        _ => return None,
    })
}

/// The first number in a text.
fn first_number(text: &str) -> Option<i64> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let digits: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// Audits one Traveller space battle (`log`) of scenario `file`.
pub fn audit_traveller(file: &Path, log: &Value) -> Vec<Violation> {
    let prepared = skirmish::rules::builtin()
        .load(file)
        .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.render(false)));
    let cfg = prepared
        .config::<TravellerSpace>()
        .expect("a traveller-space scenario");
    let set = Setting {
        planets: cfg
            .planets
            .iter()
            .map(|p| ((i64::from(p.at.0), i64::from(p.at.1)), p.atmosphere, p.star))
            .collect(),
        hex_miles: cfg.hex_miles,
        turn_seconds: (cfg.turn_minutes * 60.0).round() as i64,
        missile: (
            i64::from(cfg.missile.skill),
            i64::from(cfg.missile.dice),
            i64::from(cfg.missile.multiplier),
        ),
    };
    let mut ships: Vec<Ship> = prepared
        .units
        .iter()
        .map(|u| {
            let sheet = u.sheet::<TravellerSpace>().expect("a traveller ship");
            let st = sheet.stats.clone();
            let mounts: Vec<Option<Weapon>> = st
                .weapons
                .iter()
                .flat_map(|m| (0..m.count).map(|_| space_weapon(&m.weapon)))
                .collect();
            Ship {
                name: u.name.clone(),
                side: i64::from(u.side),
                pos: (i64::from(u.at.x), i64::from(u.at.y)),
                hp: i64::from(st.hp),
                fighting: true,
                passive: false,
                bridge: true,
                computers: i64::from(st.computers),
                sensors_out: Vec::new(),
                power_loss: false,
                mounts_out: vec![false; mounts.len()],
                crew_hurt: 0,
                passengers_hurt: 0,
                missiles: i64::from(st.missiles),
                repairs: VecDeque::new(),
                mounts,
                stats: st,
            }
        })
        .collect();
    let names = unit_names(log);
    let by_name = |n: &str| names.iter().position(|x| x == n);
    let missile_weapon = Weapon {
        acc: 0,
        half: i64::MAX,
        max: i64::MAX,
        dice: set.missile.1,
        mult: set.missile.2,
        armor: Armor::Normal,
        radiation: false,
    };

    let mut out = Vec::new();
    // Findings of the turn before and of this turn: (side, target) -> (ship, sensor).
    let mut prior: HashMap<(i64, usize), (usize, SensorKind)> = HashMap::new();
    let mut found: HashMap<(i64, usize), (usize, SensorKind)> = HashMap::new();
    let mut volley: Option<Vec<Ship>> = None;
    let mut declared: HashMap<usize, String> = HashMap::new();
    let mut pending: Option<PendingHit> = None;
    // After a weapon's damage: (target, a major damage roll is due, radiation, event).
    let mut major_due: Option<(usize, bool, bool, usize)> = None;
    // After a vehicle critical effect that acts after the damage: (target, table roll).
    let mut crit_after: Option<(usize, i64)> = None;
    // The last major damage result: (ship, crew?) casualties due.
    let mut casualties: Option<(usize, bool)> = None;
    let mut explode_n: Option<(usize, i64)> = None;

    for (i, e) in events(log).iter().enumerate() {
        let unit = e["unit"].as_u64().map(|u| u as usize);
        let ev = kind(e);
        // A due major damage roll that never came.
        if let Some((t, true, _, at)) = major_due
            && (matches!(ev, "attack" | "round_started" | "battle_ended")
                || (ev == "damage"
                    && matches!(e["damage_type"].as_str(), Some("space weapon" | "missile"))))
        {
            out.push(Violation {
                event: at,
                what: format!(
                    "a hit of 10% of {}'s hull or more without a major damage roll \
                     (space.rs decision)",
                    ships[t].name
                ),
            });
            major_due = None;
        }
        let mut bad = |what: String| out.push(Violation { event: i, what });
        match ev {
            "round_started" => {
                prior = std::mem::take(&mut found);
                volley = None;
                declared.clear();
            }
            "moved" => {
                let Some(u) = unit else { continue };
                let path: Vec<(i64, i64)> = e["path"]
                    .as_array()
                    .map(|p| {
                        p.iter()
                            .map(|h| (h[0].as_i64().unwrap_or(0), h[1].as_i64().unwrap_or(0)))
                            .collect()
                    })
                    .unwrap_or_default();
                if path.first() != Some(&ships[u].pos) {
                    bad(format!(
                        "{} moves from {:?} but is at {:?}",
                        ships[u].name,
                        path.first(),
                        ships[u].pos
                    ));
                }
                if let Some(&last) = path.last() {
                    ships[u].pos = last;
                }
            }
            "action_chosen" => {
                let Some(u) = unit else { continue };
                let a = e["action"].as_str().unwrap_or("");
                if a.starts_with("burns") || a.starts_with("coasts") {
                    ships[u].passive = a.contains("active sensors off");
                } else if a.starts_with("fires") {
                    declared.insert(u, a.to_string());
                }
            }
            "status_changed" => {
                let Some(u) = unit else { continue };
                let s = &ships[u];
                let max = i64::from(s.stats.hp);
                let cause = e["cause"].as_str().unwrap_or("");
                let ok = match cause {
                    "is destroyed" => s.hp <= -max,
                    "no longer functions (0 hit points)" => s.hp <= 0 && s.hp > -max,
                    "has nobody left to work the ship" => {
                        s.crew_hurt >= i64::from(s.stats.crew.count)
                    }
                    _ => true,
                };
                if !ok {
                    bad(format!(
                        "{} {cause} at {} of {max} hit points (crew out {}): the critical \
                         table's preamble and space.rs decide otherwise",
                        s.name, s.hp, s.crew_hurt
                    ));
                }
                if e["standing"] != "Fighting" {
                    ships[u].fighting = false;
                }
            }
            "note" => {
                let Some(u) = unit else { continue };
                let text = e["text"].as_str().unwrap_or("");
                if let Some(rest) = text.strip_prefix("a computer is ") {
                    let n = first_number(rest).unwrap_or(-1);
                    if n != ships[u].computers - 1 {
                        bad(format!(
                            "{}: {text} but it had {} working",
                            ships[u].name, ships[u].computers
                        ));
                    }
                    ships[u].computers -= 1;
                    if rest.starts_with("knocked out") {
                        ships[u].repairs.push_back("a computer".into());
                    }
                } else if text.contains("missiles away at") {
                    let n = first_number(text).unwrap_or(0);
                    let left = text
                        .rsplit("; ")
                        .next()
                        .and_then(first_number)
                        .unwrap_or(-1);
                    if left != ships[u].missiles - n || n > i64::from(ships[u].stats.launchers) {
                        bad(format!(
                            "{}: {text} with {} aboard and {} launchers",
                            ships[u].name, ships[u].missiles, ships[u].stats.launchers
                        ));
                    }
                    ships[u].missiles -= n;
                } else if text.starts_with("its ")
                    && text.ends_with(" is disabled")
                    && let Some(k) = sensor_named(text.trim_end_matches(" is disabled"))
                {
                    ships[u].sensor_out(k);
                } else if text == "pinpoint hit: a weapon is disabled" {
                    ships[u].weapon_out();
                } else if text == "pinpoint hit: the bridge is knocked out" && ships[u].bridge {
                    ships[u].bridge = false;
                    ships[u].repairs.push_back("the bridge".into());
                } else if text == "pinpoint hit: M-drive acceleration halved" {
                    ships[u].repairs.push_back("the M-drive".into());
                } else if text == "pinpoint hit: a sensor is disabled"
                    && let Some(k) = ships[u].first_sensor()
                {
                    ships[u].sensor_out(k);
                }
            }
            "attack" => {
                let a = e["attacker"].as_u64().unwrap_or(0) as usize;
                let t = e["target"].as_u64().unwrap_or(0) as usize;
                let roll = &e["roll"];
                for p in gurps_roll_problems(roll) {
                    bad(format!("attack roll: {p}"));
                }
                let hit = e["result"] == "Hit";
                if hit != (roll["success"] == true) {
                    bad(format!(
                        "result {} after a roll of success {}",
                        e["result"], roll["success"]
                    ));
                }
                let weapon_name = e["weapon"].as_str().unwrap_or("");
                let logged = modifiers(roll);
                let (weapon, range, expected) = if weapon_name == "missile" {
                    let m = vec![
                        ("guidance".to_string(), set.missile.0),
                        ("target size".to_string(), i64::from(ships[t].stats.sm)),
                    ];
                    (missile_weapon, 0, m)
                } else {
                    let Some(w) = space_weapon(weapon_name) else {
                        bad(format!("`{weapon_name}` is not in the SPACE WEAPONS TABLE"));
                        continue;
                    };
                    let snap = volley.get_or_insert_with(|| ships.clone());
                    let (s, o) = (&snap[a], &snap[t]);
                    let d = set.std_range(hex_distance(s.pos, o.pos));
                    let mut m = augmented_gunner(&set, s, &w);
                    if logged.iter().any(|(l, _)| l == "pinpoint marksmanship") {
                        let decl = declared.get(&a).map_or("", String::as_str);
                        if !(decl.contains(&format!("at {}'s ", o.name))
                            && decl.contains("(pinpoint)"))
                        {
                            bad(format!(
                                "pinpoint marksmanship on a shot not declared pinpoint ({decl})"
                            ));
                        }
                        m.push(("pinpoint marksmanship".into(), -6));
                    } else {
                        m.push(("target size".into(), i64::from(o.stats.sm)));
                    }
                    m.push((
                        format!("range {d} hexes (+1 firing hex)"),
                        range_modifier(d + 1),
                    ));
                    let seen = found.get(&(s.side, t)).copied();
                    if s.active() && seen.is_some_and(|(_, k)| k == SensorKind::Aesa) {
                        m.push(("active sensor lock".into(), 2));
                    }
                    if d > w.max {
                        bad(format!(
                            "{weapon_name} fires at range {d}, beyond its Max {}",
                            w.max
                        ));
                    }
                    if seen.is_none() {
                        bad(format!(
                            "{} fires at {}, which its side has not detected this turn",
                            s.name, o.name
                        ));
                    }
                    (w, d, m)
                };
                for p in compare_labels(&logged, &expected) {
                    bad(format!(
                        "{weapon_name} at {}: {p} (GUNNERY MODIFIERS)",
                        ships[t].name
                    ));
                }
                let critical = roll["critical"] == "Success";
                pending = hit.then_some(PendingHit {
                    target: t,
                    weapon,
                    range,
                    critical,
                    table: None,
                });
            }
            "damage" => {
                let Some(t) = e["target"].as_u64().map(|t| t as usize) else {
                    continue;
                };
                let roll = &e["roll"];
                let dtype = e["damage_type"].as_str().unwrap_or("");
                let injury = e["injury"].as_i64().unwrap_or(0);
                let max = i64::from(ships[t].stats.hp);
                if e["hp_before"].as_i64() != Some(ships[t].hp)
                    || e["hp_after"].as_i64() != Some(ships[t].hp - injury)
                    || e["hp_max"].as_i64() != Some(max)
                {
                    bad(format!(
                        "{}: hp {} -> {} of {} after injury {injury}, but it had {} of {max}",
                        ships[t].name, e["hp_before"], e["hp_after"], e["hp_max"], ships[t].hp
                    ));
                }
                ships[t].hp -= injury;
                let steps: Vec<(String, i64)> = super::common::labelled(&e["steps"]);
                let raw = roll["total"].as_i64().unwrap_or(0);
                let (expected, want_injury): (Vec<(String, i64)>, i64) = match dtype {
                    "space weapon" | "missile" => {
                        let Some(h) = pending.take() else {
                            bad(format!("{dtype} damage without a hit before it"));
                            continue;
                        };
                        if h.target != t {
                            bad(format!(
                                "damage to {} after a hit on another ship",
                                ships[t].name
                            ));
                        }
                        if h.critical != h.table.is_some() {
                            bad(format!(
                                "critical hit {} but vehicle critical roll {:?} (VEHICLE \
                                 CRITICAL HITS)",
                                h.critical, h.table
                            ));
                        }
                        let w = h.weapon;
                        for p in d6_roll_problems(roll, w.dice as usize) {
                            bad(format!("damage roll: {p}"));
                        }
                        let mut steps = vec![(format!("×{}", w.mult), raw * (w.mult - 1))];
                        let mut dmg = raw * w.mult;
                        if h.range > w.half {
                            steps.push(("beyond 1/2D: half".into(), -(dmg - dmg / 2)));
                            dmg /= 2;
                        }
                        let (_, factor) = h.table.map_or(("", 1), vehicle_critical);
                        if factor > 1 {
                            steps.push((format!("critical ×{factor}"), dmg * (factor - 1)));
                            dmg *= factor;
                        }
                        let dr = i64::from(ships[t].stats.dr);
                        let (mut eff, label) = match w.armor {
                            Armor::Normal => (dr, format!("DR {dr}")),
                            Armor::Halved => (dr / 2, format!("DR {dr} halved")),
                            Armor::Ignored => (0, format!("DR {dr} ignored (meson)")),
                        };
                        if matches!(h.table, Some(5 | 13)) {
                            eff /= 10;
                        }
                        if eff != 0 {
                            steps.push((label, -dmg.min(eff)));
                        }
                        let through = (dmg - eff).max(0);
                        major_due = Some((t, through > 0 && through * 10 >= max, w.radiation, i));
                        if let Some(r) = h.table {
                            crit_after = Some((t, r));
                        }
                        (steps, through)
                    }
                    "collision" => {
                        let other = e["attacker"].as_u64().unwrap_or(0) as usize;
                        let hp = i64::from(ships[other].stats.hp);
                        let m = modifiers(roll);
                        let rel = m
                            .iter()
                            .find_map(|(l, _)| l.strip_prefix("× relative speed "))
                            .and_then(|r| r.parse::<i64>().ok())
                            .unwrap_or(0);
                        let want = vec![
                            (format!("{} hit points", ships[other].name), hp),
                            (format!("× relative speed {rel}"), hp * (rel - 1)),
                        ];
                        for p in compare_labels(&m, &want) {
                            bad(format!("collision: {p}"));
                        }
                        if rel < 1 || roll["total"].as_i64() != Some(hp * rel) {
                            bad(format!(
                                "collision total {} for {hp} × {rel}",
                                roll["total"]
                            ));
                        }
                        let dr = i64::from(ships[t].stats.dr);
                        let dmg = hp * rel;
                        let steps = if dr != 0 {
                            vec![(format!("DR {dr}"), -dmg.min(dr))]
                        } else {
                            Vec::new()
                        };
                        (steps, (dmg - dr).max(0))
                    }
                    "fire" => {
                        for p in d6_roll_problems(roll, 2) {
                            bad(format!("fire damage roll: {p}"));
                        }
                        let tens = (set.turn_seconds / 10).max(1);
                        (
                            vec![(format!("every 10 s: ×{tens}"), raw * (tens - 1))],
                            raw * tens,
                        )
                    }
                    "exploding missiles" => {
                        let n = match explode_n.take() {
                            Some((u, n)) if u == t => n,
                            _ => {
                                bad("missiles explode without their roll".into());
                                0
                            }
                        };
                        for p in d6_roll_problems(roll, (set.missile.1 * n) as usize) {
                            bad(format!("exploding missiles: {p}"));
                        }
                        let mult = set.missile.2;
                        (vec![(format!("×{mult}"), raw * (mult - 1))], raw * mult)
                    }
                    other => {
                        bad(format!("unknown damage type `{other}`"));
                        continue;
                    }
                };
                for p in compare_labels(&steps, &expected) {
                    bad(format!("{dtype} damage to {}: {p}", ships[t].name));
                }
                if injury != want_injury {
                    bad(format!(
                        "{dtype} injury {injury}, the rule gives {want_injury} (SPACE WEAPONS \
                         TABLE, DR)"
                    ));
                }
                // Vehicle critical #8 disables a weapon after its damage.
                if let Some((ct, 8)) = crit_after
                    && ct == t
                {
                    ships[t].weapon_out();
                }
                if matches!(dtype, "space weapon" | "missile") {
                    crit_after = None;
                }
            }
            "roll" => {
                let Some(u) = unit else { continue };
                let roll = &e["roll"];
                let purpose = e["purpose"].as_str().unwrap_or("");
                let result = e["result"].as_str().unwrap_or("");
                let total = roll["total"].as_i64().unwrap_or(0);
                let success = roll["success"] == true;
                match purpose {
                    "scan" => {
                        for p in gurps_roll_problems(roll) {
                            bad(format!("scan: {p}"));
                        }
                        let Some(t) = result
                            .strip_prefix("detects ")
                            .or_else(|| result.strip_prefix("does not find "))
                            .and_then(|r| r.rsplit_once(" with its "))
                            .and_then(|(n, _)| by_name(n))
                        else {
                            bad(format!("scan result `{result}` names no ship"));
                            continue;
                        };
                        let Some(k) = sensor_named(result) else {
                            bad(format!("scan result `{result}` names no sensor"));
                            continue;
                        };
                        if result.starts_with("detects") != success {
                            bad(format!("`{result}` after a roll of success {success}"));
                        }
                        let side = ships[u].side;
                        let had = prior.get(&(side, t)).copied();
                        let prior_for = |by: usize, k: SensorKind| {
                            had.is_some_and(|(pu, pk)| pu != by || pk != k)
                        };
                        match expected_scan(&set, &ships, u, k, t, prior_for(u, k)) {
                            None => bad(format!(
                                "{} scans with its {k:?}, which it cannot use now",
                                ships[u].name
                            )),
                            Some(mut want) => {
                                // A star's silhouette (PESA −4) is taken on the log's word
                                // when the map has a star: its geometry is not re-derived.
                                let logged = modifiers(roll);
                                if k == SensorKind::Pesa
                                    && set.planets.iter().any(|(_, _, star)| *star)
                                    && logged
                                        .iter()
                                        .any(|(l, _)| l == "silhouetted against a star")
                                {
                                    want.push(("silhouetted against a star".into(), -4));
                                }
                                for p in compare_labels(&logged, &want) {
                                    bad(format!(
                                        "scan of {} with {k:?}: {p} (Scan Modifiers)",
                                        ships[t].name
                                    ));
                                }
                            }
                        }
                        // The side's best scan (space.rs, Detection).
                        let best = (0..ships.len())
                            .filter(|&b| ships[b].side == side && ships[b].fighting)
                            .flat_map(|b| {
                                [SensorKind::Aesa, SensorKind::Pesa, SensorKind::Radscan]
                                    .into_iter()
                                    .map(move |k| (b, k))
                            })
                            .filter_map(|(b, k)| {
                                expected_scan(&set, &ships, b, k, t, prior_for(b, k))
                            })
                            .map(|m| m.iter().map(|(_, v)| v).sum::<i64>())
                            .max();
                        if let (Some(b), Some(target)) = (best, roll["target"].as_i64())
                            && b != target
                        {
                            bad(format!(
                                "the side's best scan of {} is {b}, the logged one {target}",
                                ships[t].name
                            ));
                        }
                        if success {
                            found.insert((side, t), (u, k));
                        }
                    }
                    "major damage" => {
                        for p in d6_roll_problems(roll, 3) {
                            bad(format!("major damage: {p}"));
                        }
                        let radiation = match major_due.take() {
                            Some((t, true, r, _)) if t == u => r,
                            _ => {
                                bad("a major damage roll without a hit of 10% of the hull \
                                     (space.rs decision)"
                                    .into());
                                false
                            }
                        };
                        let want = major_damage_word(total, radiation);
                        if result != want {
                            bad(format!(
                                "major damage {total} gives `{want}`, the log says `{result}` \
                                 (MAJOR DAMAGE TABLE)"
                            ));
                        }
                        let s = &mut ships[u];
                        match result {
                            "bridge knocked out" if s.bridge => {
                                s.bridge = false;
                                s.repairs.push_back("the bridge".into());
                            }
                            "a weapon disabled" => s.weapon_out(),
                            "power loss: Gs halved" if !s.power_loss => {
                                s.power_loss = true;
                                s.repairs.push_back("the power".into());
                            }
                            "M-drive acceleration halved" => {
                                s.repairs.push_back("the M-drive".into())
                            }
                            "crew injured" => casualties = Some((u, true)),
                            "passengers injured" => casualties = Some((u, false)),
                            _ => {}
                        }
                    }
                    "crew casualties" | "passenger casualties" => {
                        let crew = purpose == "crew casualties";
                        if casualties.take() != Some((u, crew)) {
                            bad(format!("{purpose} without their major damage result"));
                        }
                        let s = &mut ships[u];
                        let (aboard, hurt) = if crew {
                            (i64::from(s.stats.crew.count), &mut s.crew_hurt)
                        } else {
                            (i64::from(s.stats.passengers), &mut s.passengers_hurt)
                        };
                        let left = aboard - *hurt;
                        let dice = 1 + left / 50;
                        for p in d6_roll_problems(roll, dice as usize) {
                            bad(format!(
                                "{purpose} ({left} left): {p} (MAJOR DAMAGE TABLE note)"
                            ));
                        }
                        let n = total.min(left);
                        if first_number(result) != Some(n) {
                            bad(format!(
                                "`{result}`: {total} rolled with {left} left hurts {n}"
                            ));
                        }
                        *hurt += n;
                    }
                    "vehicle critical hit" => {
                        for p in d6_roll_problems(roll, 3) {
                            bad(format!("vehicle critical: {p}"));
                        }
                        match pending.as_mut() {
                            Some(h) if h.critical && h.table.is_none() => h.table = Some(total),
                            _ => bad("a vehicle critical roll without a critical hit".into()),
                        }
                        let (want, _) = vehicle_critical(total);
                        if result != want {
                            bad(format!(
                                "vehicle critical {total} gives `{want}`, the log says \
                                 `{result}` (VEHICLE CRITICAL HITS)"
                            ));
                        }
                    }
                    "missiles aboard explode (1d)" => {
                        for p in d6_roll_problems(roll, 1) {
                            bad(format!("{purpose}: {p}"));
                        }
                        let n = total.min(ships[u].missiles);
                        if first_number(result) != Some(n) {
                            bad(format!(
                                "`{result}`: 1d {total} with {} aboard",
                                ships[u].missiles
                            ));
                        }
                        ships[u].missiles -= n;
                        explode_n = Some((u, n));
                    }
                    "the leaking fuel" | "fuel fire: explosion?" => {
                        for p in d6_roll_problems(roll, 3) {
                            bad(format!("{purpose}: {p}"));
                        }
                        let (limit, yes) = if purpose == "the leaking fuel" {
                            (FUEL_IGNITES, "catches fire")
                        } else {
                            (FUEL_IGNITES / 2, "explodes")
                        };
                        if (result == yes) != (total <= limit) {
                            bad(format!(
                                "{purpose}: {total} against {limit} gives `{result}` \
                                 (VEHICLE CRITICAL HITS #16)"
                            ));
                        }
                    }
                    p if p.starts_with("fuel leak (") => {
                        let n = first_number(p).unwrap_or(1);
                        let n = if p.contains("1d%") { 1 } else { n };
                        for q in d6_roll_problems(roll, n as usize) {
                            bad(format!("{purpose}: {q}"));
                        }
                        let lost = i64::from(ships[u].stats.fuel) * total / 100;
                        let logged = first_number(result).unwrap_or(-1);
                        if logged != lost && !(n == 1 && logged == lost.max(1)) {
                            bad(format!(
                                "{purpose}: {total}% of {} t is {lost} t, the log says `{result}`",
                                ships[u].stats.fuel
                            ));
                        }
                    }
                    p if p.starts_with("point defense (") => {
                        for q in gurps_roll_problems(roll) {
                            bad(format!("{p}: {q}"));
                        }
                        let inner = p
                            .trim_start_matches("point defense (")
                            .trim_end_matches(')');
                        let (wname, mount) = inner
                            .rsplit_once(" #")
                            .map(|(w, m)| (w, m.parse::<usize>().unwrap_or(usize::MAX)))
                            .unwrap_or((inner, usize::MAX));
                        let s = &ships[u];
                        let Some(w) = space_weapon(wname) else {
                            bad(format!("{p}: not a weapon of the SPACE WEAPONS TABLE"));
                            continue;
                        };
                        if s.mounts.get(mount).copied().flatten().map(|m| m.acc) != Some(w.acc)
                            || s.mounts_out.get(mount).copied().unwrap_or(true)
                        {
                            bad(format!(
                                "{p}: {} has no working mount {mount} of that weapon",
                                s.name
                            ));
                        }
                        let mut want = augmented_gunner(&set, s, &w);
                        want.push(("missile size".into(), 0));
                        want.push(("range 0 (+1 firing hex)".into(), range_modifier(1)));
                        want.push(("point defense".into(), 10));
                        for q in compare_labels(&modifiers(roll), &want) {
                            bad(format!("{p}: {q} (GUNNERY MODIFIERS, Point Defense Fire)"));
                        }
                        if result.starts_with("shoots down") != success {
                            bad(format!("`{result}` after a roll of success {success}"));
                        }
                    }
                    "ram (Piloting)"
                    | "evade the ram (Piloting)"
                    | "avoid a collision (Piloting)" => {
                        for q in gurps_roll_problems(roll) {
                            bad(format!("{purpose}: {q}"));
                        }
                        let want =
                            vec![("Piloting".to_string(), i64::from(ships[u].stats.crew.pilot))];
                        for q in compare_labels(&modifiers(roll), &want) {
                            bad(format!("{purpose}: {q}"));
                        }
                        if purpose == "avoid a collision (Piloting)"
                            && (result == "steers clear") != success
                        {
                            bad(format!("`{result}` after a roll of success {success}"));
                        }
                    }
                    "damage control (Engineer)"
                    | "fight the fire (Engineer)"
                    | "stop the fuel leak (Engineer)" => {
                        for q in gurps_roll_problems(roll) {
                            bad(format!("{purpose}: {q}"));
                        }
                        let want = vec![(
                            "Engineer".to_string(),
                            i64::from(ships[u].stats.crew.engineer),
                        )];
                        for q in compare_labels(&modifiers(roll), &want) {
                            bad(format!("{purpose}: {q}"));
                        }
                        if purpose == "damage control (Engineer)" {
                            let what = result
                                .strip_prefix("repairs ")
                                .or_else(|| result.strip_prefix("cannot yet repair "))
                                .unwrap_or("");
                            let s = &mut ships[u];
                            if s.repairs.front().map(String::as_str) != Some(what) {
                                bad(format!(
                                    "damage control works on `{what}`, the first lost is {:?} \
                                     (space.rs: in the order lost)",
                                    s.repairs.front()
                                ));
                            }
                            if result.starts_with("repairs ") != success {
                                bad(format!("`{result}` after a roll of success {success}"));
                            }
                            if success {
                                s.repairs.pop_front();
                                match what {
                                    "a computer" => s.computers += 1,
                                    "the bridge" => s.bridge = true,
                                    "the power" => s.power_loss = false,
                                    w if w.starts_with("mount ") => {
                                        if let Some(m) = first_number(w)
                                            .and_then(|m| s.mounts_out.get_mut(m as usize))
                                        {
                                            *m = false;
                                        }
                                    }
                                    w => {
                                        if let Some(k) = sensor_named(w) {
                                            s.sensors_out.retain(|x| *x != k);
                                        }
                                    }
                                }
                            }
                        }
                    }
                    other => bad(format!("a roll the auditor does not know: `{other}`")),
                }
            }
            _ => {}
        }
    }
    if let Some((t, true, _, at)) = major_due {
        out.push(Violation {
            event: at,
            what: format!(
                "a hit of 10% of {}'s hull without a major damage roll",
                ships[t].name
            ),
        });
    }
    for s in &ships {
        if s.fighting && s.hp <= 0 {
            out.push(Violation {
                event: events(log).len(),
                what: format!("{} is still fighting at {} hit points", s.name, s.hp),
            });
        }
    }
    out
}

#[test]
fn every_traveller_roll_follows_the_rules() {
    audit_all("traveller-", audit_traveller);
}

/// A real log of `scenario` (by file name) with `seed`.
fn real_log(scenario: &str, seed: u64) -> (std::path::PathBuf, Value) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(scenario);
    let log = battle(&file, seed);
    assert!(
        audit_traveller(&file, &log).is_empty(),
        "the untouched log is clean"
    );
    (file, log)
}

/// The index of the first event `pick` accepts, over seeds 1.., with its log.
fn find_event(scenario: &str, pick: impl Fn(&Value) -> bool) -> (std::path::PathBuf, Value, usize) {
    for seed in 1..=40 {
        let (file, log) = real_log(scenario, seed);
        if let Some(i) = events(&log).iter().position(&pick) {
            return (file, log, i);
        }
    }
    panic!("no such event in 40 battles of {scenario}");
}

#[test]
fn a_wrong_range_modifier_is_reported() {
    let (file, mut log, i) = find_event("traveller-merchant-raider.ron", |e| {
        kind(e) == "attack" && e["weapon"] != "missile"
    });
    let mods = log["events"][i]["roll"]["modifiers"]
        .as_array_mut()
        .expect("modifiers");
    let m = mods
        .iter_mut()
        .find(|m| m["label"].as_str().is_some_and(|l| l.starts_with("range ")))
        .expect("a range modifier");
    m["value"] = (m["value"].as_i64().unwrap() + 1).into();
    // Keep the sums right: only the meaning is wrong.
    let roll = &mut log["events"][i]["roll"];
    roll["target"] = (roll["target"].as_i64().unwrap() + 1).into();
    roll["margin"] = (roll["margin"].as_i64().unwrap() + 1).into();
    let found = audit_traveller(&file, &log);
    assert!(
        found
            .iter()
            .any(|v| v.event == i && v.what.contains("range")),
        "{found:?}"
    );
}

#[test]
fn prior_detection_without_a_prior_finding_is_reported() {
    let (file, mut log, i) = find_event("traveller-merchant-raider.ron", |e| {
        e["purpose"] == "scan" && e["round"] == 1
    });
    let roll = &mut log["events"][i]["roll"];
    roll["modifiers"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"label": "prior detection", "value": 4}));
    roll["target"] = (roll["target"].as_i64().unwrap() + 4).into();
    roll["margin"] = (roll["margin"].as_i64().unwrap() + 4).into();
    let found = audit_traveller(&file, &log);
    assert!(
        found
            .iter()
            .any(|v| v.event == i && v.what.contains("prior detection")),
        "{found:?}"
    );
}

#[test]
fn a_wrong_major_damage_result_is_reported() {
    let (file, mut log, i) = find_event("traveller-merchant-raider.ron", |e| {
        e["purpose"] == "major damage" && e["result"] != "bridge knocked out"
    });
    log["events"][i]["result"] = "bridge knocked out".into();
    let found = audit_traveller(&file, &log);
    assert!(
        found
            .iter()
            .any(|v| v.event == i && v.what.contains("MAJOR DAMAGE TABLE")),
        "{found:?}"
    );
}

#[test]
fn damage_that_ignores_the_halved_dr_is_reported() {
    let (file, mut log, i) = find_event("traveller-merchant-raider.ron", |e| {
        kind(e) == "damage" && e["damage_type"] == "space weapon"
    });
    let e = &mut log["events"][i];
    // Full DR where the laser's "(2)" halves it: 30 more off, and the hit points follow.
    let steps = e["steps"].as_array_mut().unwrap();
    let dr = steps
        .iter_mut()
        .find(|s| s["label"].as_str().is_some_and(|l| l.ends_with("halved")))
        .expect("a halved DR step");
    dr["value"] = (dr["value"].as_i64().unwrap() * 2).into();
    e["injury"] = (e["injury"].as_i64().unwrap() - 30).into();
    e["hp_after"] = (e["hp_after"].as_i64().unwrap() + 30).into();
    let found = audit_traveller(&file, &log);
    assert!(found.iter().any(|v| v.event == i), "{found:?}");
}

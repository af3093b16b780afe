//! Log auditor: Main Sequence (issue 26). Every `scenarios/ms-*.ron` is fought over many
//! seeds and every roll of the log is recomputed here from the log and the scenario's own
//! stat blocks (as written, not as the program resolved them), with the arithmetic written
//! from `../shared/rules/main-sequence.txt` (cited as "MS", with its section), rules/README.md
//! decision 2 and the project's documented decisions.
//!
//! What is checked:
//! - The dice of every roll (MS "Basic Task Resolution"; `src/dice/mod.rs`
//!   `exploding_d6`): one d6, rolled again after each 6 and only then; each 6 counts 5 (the
//!   "each 6 counts 5" modifier is −1 per 6); total = faces + modifiers; margin = total − DL;
//!   success when the total meets the DL; no critical mark (the text has none).
//! - Attack rolls (MS "Combat Actions", Attacking; "Rate of Fire"; "Using Edge"; "Tags",
//!   Champion; "Shipboard Weapons"; `src/rules/main_sequence/sheet.rs` decisions for fists
//!   and thrown explosives): Combat Rating = (Soldier + Agent) / 2 rounded down; the
//!   weapon's skill (Melee, Ranged, Gunnery, Athletics, Unarmed) at its rank (Basic +2,
//!   Advanced +4, Master +6; none untrained); a ship adds its Tactical and fires with a
//!   crewman's Combat Rating and Gunnery; Champion +2 only against the cause's opponents;
//!   Edge +2 only when declared; the k-th target of a rate of fire −2 × (k − 1), no more
//!   targets than the rate allows (Semi-Auto 2, Burst 3, Full Auto 10) and only a rate the
//!   weapons table gives the weapon.
//! - The DL (MS "Attacking", "Armor and Cover", "Parrying", "Ship Attributes"): the target's
//!   Defense (Combat Rating + 4, a ship's Tactical + Propulsion + 6; an NPC's own when set)
//!   plus cover +2, +4 or +6 (never in melee, never for ships); after a parry or dodge, the
//!   defense roll's result instead of the Defense, plus cover.
//! - Defense rolls (MS "Parrying", "Dodging"): parry Soldier + Melee, against melee only
//!   (`combat.rs` decision); dodge Agent + Acrobatics against melee, Tech + Acrobatics
//!   against ranged; Champion +2 and Edge +2 as above.
//! - Results: a hit exactly when the roll meets the DL, unless Edge turns a killing attack
//!   into a miss ("Using Edge") or Nimble dodges it ("Tags").
//! - Damage (MS "Damage", "Armor and Cover", "Ship Tags", "Shipboard Weapons"; rules/README.md
//!   decision 2): the weapon's damage from the text's weapons table (Lasers = Tactical,
//!   Torpedoes = 4 + Tactical, fists 1 Bash by the sheet.rs decision) plus the margin over
//!   the DL; shields take it first; Damage Soak = the best armor worn (1 to 4) + 2 for Tough,
//!   a ship's Armor tag 2 (+1 for a second); Hit Points never below 0; bashing exactly for
//!   Bash weapons.
//! - State: Hit Points and shields followed from the start (Soldier + 6, (Tactical +
//!   Tonnage) × 4, shields 10 and 5 more for a second rank; NPCs' own Hit Points); a boost
//!   gives at most the full shields; a ship saved by its crew's Edge keeps its Hit Points
//!   and shields ("Ship Destruction"); a character brought to 0 is knocked out by bashing
//!   damage, else dying for Soldier rounds ("Knockout and Death").
//! - Other rolls: initiative 1d6 + (Agent + Tech) / 2 rounded down ("Combat Actions",
//!   "Character Creation"); the duck (Agent + Acrobatics); the sensor sweep (Tech + Knowledge
//!   (Sensors) + Sensors against DL 7, +2 a Stealth rank, "Ship Detection"); the chase roll
//!   (Agent + Vehicle + Propulsion, "Chase Rules"); first aid (Tech + Knowledge (Medicine),
//!   DL 9, 11, 13, "Knockout and Death").

use super::common::{events, faces, kind, modifiers};
use super::{Violation, audit_all};
use serde_json::Value;
use skirmish::rules::main_sequence::MsStats;
use skirmish::rules::main_sequence::sheet::{CharacterStats, ShipStats, ShipTag, Tag};
use std::path::{Path, PathBuf};

/// One row of the text's weapons table ("Weapons, Armor & Gear"): damage, Bash, skill and
/// the most targets of its best rate of fire ("Rate of Fire").
struct WeaponRow {
    damage: i64,
    bash: bool,
    skill: &'static str,
    rates: &'static [&'static str],
}

fn weapon_row(name: &str) -> Option<WeaponRow> {
    let r = |damage, bash, skill, rates| {
        Some(WeaponRow {
            damage,
            bash,
            skill,
            rates,
        })
    };
    match name {
        "Knife" | "1H Edged" | "2H Edged" => r(
            match name {
                "Knife" => 2,
                "1H Edged" => 3,
                _ => 4,
            },
            false,
            "Melee",
            &[],
        ),
        "1H Blunt" => r(3, true, "Melee", &[]),
        "2H Blunt" => r(4, true, "Melee", &[]),
        "Light Pistol" => r(4, false, "Ranged", &["SemiAuto"]),
        "Heavy Pistol" => r(5, false, "Ranged", &["SemiAuto"]),
        "Laser Pistol" => r(5, false, "Ranged", &["SemiAuto", "Burst"]),
        "Light Rifle" => r(5, false, "Ranged", &["Single"]),
        "Heavy Rifle" => r(6, false, "Ranged", &["Single"]),
        "Battle Rifle" => r(5, false, "Ranged", &["SemiAuto", "Burst", "FullAuto"]),
        "Laser Rifle" => r(6, false, "Ranged", &["SemiAuto", "Burst"]),
        "Sub-Machine Gun" => r(5, false, "Ranged", &["Burst", "FullAuto"]),
        "Shotgun" => r(6, false, "Ranged", &["SemiAuto"]),
        "Light Machine Gun" => r(8, false, "Gunnery", &["Burst", "FullAuto"]),
        "Assault Cannon" => r(10, false, "Gunnery", &["SemiAuto"]),
        "Missile Launcher" => r(12, false, "Gunnery", &["Single"]),
        "Grenade" => r(10, false, "Athletics", &["Single"]),
        "Flash-bang" => r(5, true, "Athletics", &["Single"]),
        "Flaregun" => r(3, false, "Ranged", &["Single"]),
        "Unarmed" => r(1, true, "Unarmed", &[]),
        _ => None,
    }
}

/// Targets a rate of fire allows ("Rate of Fire").
fn max_targets(rate: &str) -> usize {
    match rate {
        "SemiAuto" => 2,
        "Burst" => 3,
        "FullAuto" => 10,
        _ => 1,
    }
}

/// The armor table ("Armor and Cover").
fn armor_soak(name: &str) -> i64 {
    match name {
        "Reinforced Clothing" => 1,
        "Armored Clothing" => 2,
        "Armored Plating" => 3,
        "Exo-Armor" => 4,
        _ => 0,
    }
}

/// A character's numbers, derived here from the stat block ("Character Creation").
#[derive(Clone, Debug)]
struct Person {
    stats: CharacterStats,
}

impl Person {
    fn cr(&self) -> i64 {
        i64::from(self.stats.soldier + self.stats.agent).div_euclid(2)
    }
    fn initiative(&self) -> i64 {
        i64::from(self.stats.agent + self.stats.tech).div_euclid(2)
    }
    fn defense(&self) -> i64 {
        self.stats.defense.map_or(self.cr() + 4, i64::from)
    }
    fn hp(&self) -> i64 {
        self.stats
            .hp
            .map_or(i64::from(self.stats.soldier) + 6, i64::from)
    }
    fn soak(&self) -> i64 {
        self.stats
            .armor
            .iter()
            .map(|a| armor_soak(a))
            .max()
            .unwrap_or(0)
            + if self.stats.tags.contains(&Tag::Tough) {
                2
            } else {
                0
            }
    }
    /// "Skills": the rank's modifier, with the label the log gives it.
    fn skill(&self, name: &str) -> Option<(String, i64)> {
        let rank = self.stats.skills.get(name)?;
        let r = format!("{rank:?}");
        let v = match r.as_str() {
            "Basic" => 2,
            "Advanced" => 4,
            "Master" => 6,
            _ => return None,
        };
        Some((format!("{name} ({r})"), v))
    }
    fn champions_against(&self, side: &str) -> bool {
        self.stats
            .tags
            .iter()
            .any(|t| matches!(t, Tag::Champion(sides) if sides.iter().any(|s| s == side)))
    }
    fn has_melee(&self) -> bool {
        self.stats
            .weapons
            .iter()
            .any(|w| weapon_row(w).is_some_and(|r| r.skill == "Melee"))
    }
}

/// A unit: a character, or a ship with its crew.
#[derive(Clone, Debug)]
enum Unit {
    Person(Person),
    Ship(ShipStats, Vec<Person>),
}

impl Unit {
    fn people(&self) -> Vec<&Person> {
        match self {
            Unit::Person(p) => vec![p],
            Unit::Ship(_, crew) => crew.iter().collect(),
        }
    }
    fn count(s: &ShipStats, tag: &ShipTag) -> i64 {
        s.tags.iter().filter(|t| *t == tag).count() as i64
    }
    fn defense(&self) -> Vec<i64> {
        match self {
            Unit::Person(p) => vec![p.defense()],
            Unit::Ship(s, crew) => {
                // "Ship Attributes"; Defensive Driver adds the pilot's Awareness.
                let base = i64::from(s.tactical + s.propulsion) + 6;
                let mut v = vec![base];
                for c in crew {
                    if c.stats.tags.contains(&Tag::DefensiveDriver) {
                        v.push(base + c.skill("Awareness").map_or(0, |x| x.1));
                    }
                }
                v
            }
        }
    }
    fn hp(&self) -> i64 {
        match self {
            Unit::Person(p) => p.hp(),
            Unit::Ship(s, _) => {
                s.hp.map_or(i64::from(s.tactical + s.tonnage) * 4, i64::from)
            }
        }
    }
    fn soak(&self) -> i64 {
        match self {
            Unit::Person(p) => p.soak(),
            Unit::Ship(s, _) => match Self::count(s, &ShipTag::Armor) {
                0 => 0,
                1 => 2,
                _ => 3,
            },
        }
    }
    fn shields(&self) -> i64 {
        match self {
            Unit::Person(_) => 0,
            Unit::Ship(s, _) => match Self::count(s, &ShipTag::Shields) {
                0 => 0,
                1 => 10,
                _ => 15,
            },
        }
    }
    /// A weapon's damage and Bash ("Weapons, Armor & Gear", "Shipboard Weapons").
    fn weapon(&self, name: &str) -> Option<(i64, bool, &'static str)> {
        if let Unit::Ship(s, _) = self {
            let t = i64::from(s.tactical);
            return match name {
                "Lasers" => Some((t, false, "Gunnery")),
                "Torpedoes" => Some((4 + t, false, "Gunnery")),
                _ => None,
            };
        }
        weapon_row(name).map(|r| (r.damage, r.bash, r.skill))
    }
}

/// One battle's audit.
struct Audit<'a> {
    units: Vec<Unit>,
    sides: Vec<String>,
    unit_side: Vec<usize>,
    names: Vec<String>,
    hp: Vec<i64>,
    shields: Vec<i64>,
    log: &'a Value,
    out: Vec<Violation>,
}

impl Audit<'_> {
    fn flag(&mut self, event: usize, what: String) {
        self.out.push(Violation { event, what });
    }

    /// MS "Basic Task Resolution": the exploding d6.
    fn check_dice(&mut self, i: usize, r: &Value, what: &str) {
        let f = faces(r);
        let mods = modifiers(r);
        if r["dice"] != "1d6" {
            self.flag(i, format!("{what}: dice {} where MS rolls 1d6", r["dice"]));
            return;
        }
        let sixes = f.iter().filter(|&&x| x == 6).count() as i64;
        let ok = !f.is_empty()
            && f.iter().all(|x| (1..=6).contains(x))
            && f[..f.len() - 1].iter().all(|&x| x == 6)
            && f[f.len() - 1] != 6;
        if !ok {
            self.flag(i, format!("{what}: faces {f:?}: a die is rolled again after a 6 and only then (MS \"Basic Task Resolution\")"));
        }
        let counted: i64 = mods
            .iter()
            .filter(|(l, _)| l == "each 6 counts 5")
            .map(|m| m.1)
            .sum();
        if counted != -sixes {
            self.flag(
                i,
                format!("{what}: 'each 6 counts 5' {counted:+} with {sixes} sixes (a 6 counts 5)"),
            );
        }
        let total = f.iter().sum::<i64>() + mods.iter().map(|m| m.1).sum::<i64>();
        if r["total"].as_i64() != Some(total) {
            self.flag(
                i,
                format!(
                    "{what}: total {} where faces + modifiers = {total}",
                    r["total"]
                ),
            );
        }
        // The text has no critical results: a six only rolls on.
        if !r["critical"].is_null() {
            self.flag(
                i,
                format!("{what}: critical {} (MS has none)", r["critical"]),
            );
        }
        match r["target"].as_i64() {
            Some(t) => {
                if r["margin"].as_i64() != Some(total - t)
                    || r["success"].as_bool() != Some(total >= t)
                {
                    self.flag(i, format!("{what}: margin {} / success {} with {total} against DL {t} (meet or beat)", r["margin"], r["success"]));
                }
            }
            None => {
                if !r["success"].is_null() {
                    self.flag(i, format!("{what}: a success without a DL"));
                }
            }
        }
    }

    /// The modifiers of `r` other than the dice's own, as (label, value).
    fn own_mods(r: &Value) -> Vec<(String, i64)> {
        modifiers(r)
            .into_iter()
            .filter(|(l, _)| l != "each 6 counts 5")
            .collect()
    }

    /// The attacker's roll: who in `u` rolls it (a character, or any crewman of a ship).
    fn check_attack_mods(&mut self, i: usize, e: &Value, decl: &Declared) {
        let u = e["attacker"].as_u64().unwrap_or(0) as usize;
        let t = e["target"].as_u64().unwrap_or(0) as usize;
        let wname = e["weapon"].as_str().unwrap_or("");
        let r = &e["roll"];
        let what = format!(
            "attack by {} on {} with {wname}",
            self.names[u], self.names[t]
        );
        let unit = self.units[u].clone();
        let Some((_, _, skill)) = unit.weapon(wname) else {
            self.flag(
                i,
                format!("{what}: {wname} is not in the text's weapons table"),
            );
            return;
        };
        let mut mods = Self::own_mods(r);
        // The k-th target.
        let mut k = 1;
        if let Some(p) = mods.iter().position(|(l, _)| l.starts_with("target ")) {
            let (l, v) = mods.remove(p);
            let nums: Vec<usize> = l.split(' ').filter_map(|x| x.parse().ok()).collect();
            if let [kk, n] = nums[..] {
                k = kk;
                if v != -2 * (kk as i64 - 1) || n > max_targets(&decl.rate) || kk < 2 {
                    self.flag(i, format!("{what}: '{l}' {v:+} at rate {} (MS \"Rate of Fire\": -2 for each target after the first, at most {})", decl.rate, max_targets(&decl.rate)));
                }
            }
        }
        if !decl.rate.is_empty()
            && let Some(row) = weapon_row(wname)
            && !row.rates.contains(&decl.rate.as_str())
        {
            self.flag(
                i,
                format!(
                    "{what}: rate {} which the weapons table does not give the {wname}",
                    decl.rate
                ),
            );
        }
        let _ = k;
        // Edge and Champion.
        let edge = mods
            .iter()
            .filter(|(l, _)| l == "Edge")
            .map(|m| m.1)
            .collect::<Vec<_>>();
        if edge != if decl.edge { vec![2] } else { vec![] } {
            self.flag(i, format!("{what}: Edge {edge:?} where the declaration (Edge for +2: {}) gives {} (MS \"Using Edge\")", decl.edge, if decl.edge { "+2" } else { "none" }));
        }
        mods.retain(|(l, _)| l != "Edge");
        let first_side = decl
            .first_target
            .map(|f| self.sides[self.unit_side[f]].clone());
        let people = unit.people();
        // Someone aboard must account for Combat Rating, skill and Champion.
        let ok = people.iter().any(|p| {
            let mut want = vec![("Combat Rating".to_string(), p.cr())];
            if let Some(s) = p.skill(skill) {
                want.push(s);
            }
            if first_side
                .as_deref()
                .is_some_and(|s| p.champions_against(s))
            {
                want.push(("Champion".into(), 2));
            }
            if let Unit::Ship(s, _) = &unit {
                want.push(("Tactical".into(), i64::from(s.tactical)));
            }
            want == mods
        });
        if !ok {
            self.flag(i, format!("{what}: modifiers {mods:?} are not Combat Rating + {skill} at its rank (+ Tactical for a ship, + Champion against the cause's opponents) of anyone in {} (MS \"Attacking\", \"Skills\", \"Shipboard Weapons\")", self.names[u]));
        }
    }

    fn check_defense(&mut self, i: usize, e: &Value, d: &Value) {
        let u = e["attacker"].as_u64().unwrap_or(0) as usize;
        let t = e["target"].as_u64().unwrap_or(0) as usize;
        let wname = e["weapon"].as_str().unwrap_or("");
        let dk = d["defense"].as_str().unwrap_or("");
        let what = format!("{dk} of {} against {wname}", self.names[t]);
        self.check_dice(i, &d["roll"], &what);
        let ranged = self.units[u]
            .weapon(wname)
            .is_some_and(|w| w.2 != "Melee" && w.2 != "Unarmed");
        let Unit::Person(p) = self.units[t].clone() else {
            self.flag(i, format!("{what}: a ship parries or dodges"));
            return;
        };
        let (attr, val, skill) = match dk {
            "Parry" | "Parry (off hand, free)" => ("Soldier", p.stats.soldier, "Melee"),
            "Dodge" if ranged => ("Tech", p.stats.tech, "Acrobatics"),
            "Dodge" => ("Agent", p.stats.agent, "Acrobatics"),
            _ => {
                self.flag(i, format!("{what}: no such defense"));
                return;
            }
        };
        if dk.starts_with("Parry") && (ranged || !p.has_melee()) {
            self.flag(i, format!("{what}: a parry needs a melee weapon and stops melee attacks only (MS \"Parrying\"; combat.rs decision)"));
        }
        let mut want = vec![(attr.to_string(), i64::from(val))];
        if let Some(s) = p.skill(skill) {
            want.push(s);
        }
        if p.champions_against(&self.sides[self.unit_side[u]]) {
            want.push(("Champion".into(), 2));
        }
        let mut got = Self::own_mods(&d["roll"]);
        if got.last().is_some_and(|(l, v)| l == "Edge" && *v == 2) {
            got.pop();
        }
        if got != want {
            self.flag(
                i,
                format!(
                    "{what}: modifiers {got:?} where MS \"{}\" gives {want:?}",
                    if dk == "Dodge" { "Dodging" } else { "Parrying" }
                ),
            );
        }
    }

    fn check_damage(&mut self, i: usize, e: &Value, attack: &Value) {
        let u = e["attacker"].as_u64().unwrap_or(0) as usize;
        let t = e["target"].as_u64().unwrap_or(0) as usize;
        let r = &e["roll"];
        let mods = modifiers(r);
        let wname = attack["weapon"].as_str().unwrap_or("");
        let what = format!("damage to {} by {wname}", self.names[t]);
        let Some((dmg, bash, _)) = self.units[u].weapon(wname) else {
            return;
        };
        let margin = attack["roll"]["margin"].as_i64().unwrap_or(0);
        let want = vec![
            (wname.to_string(), dmg),
            ("over Defense".to_string(), margin),
        ];
        if mods != want || r["total"].as_i64() != Some(dmg + margin) {
            self.flag(i, format!("{what}: {mods:?} = {} where MS \"Damage\" gives the weapon's {dmg} + {margin} over the Defense", r["total"]));
        }
        let damage = dmg + margin;
        if (e["damage_type"] == "bashing") != bash {
            self.flag(
                i,
                format!(
                    "{what}: damage type {} for a weapon whose Bash is {bash}",
                    e["damage_type"]
                ),
            );
        }
        let before = self.hp[t];
        let shields = self.shields[t];
        let mut left = damage;
        let mut steps = Vec::new();
        if shields > 0 {
            let after = (shields - damage).max(0);
            steps.push((format!("shields {shields} -> {after}"), -(shields - after)));
            left = (damage - shields).max(0);
            self.shields[t] = after;
        }
        let soak = self.units[t].soak();
        if soak > 0 {
            steps.push(("Damage Soak".to_string(), -soak));
        }
        let mut after = (before - (left - soak).max(0)).max(0);
        let got_steps: Vec<(String, i64)> = e["steps"].as_array().map_or(Vec::new(), |v| {
            v.iter()
                .map(|m| {
                    (
                        m["label"].as_str().unwrap_or("").to_string(),
                        m["value"].as_i64().unwrap_or(0),
                    )
                })
                .collect()
        });
        // MS "Ship Destruction": a hit that would bring the ship to 0, which its crew's
        // Edge spares, takes nothing: the shields and Hit Points stay as they were.
        let spared = got_steps
            .last()
            .is_some_and(|(l, _)| l == "spared by the crew's Edge");
        if spared {
            if after != 0 {
                self.flag(i, format!("{what}: spared by Edge though it leaves {after} HP (MS \"Ship Destruction\")"));
            }
            self.shields[t] = shields;
            steps.retain(|(l, _)| l == "Damage Soak");
            steps.push(("spared by the crew's Edge".to_string(), -(damage - soak)));
            after = before;
        }
        if got_steps != steps {
            self.flag(i, format!("{what}: steps {got_steps:?} where shields first, then Damage Soak {soak}, give {steps:?} (MS \"Armor and Cover\", \"Ship Tags\"; rules/README.md decision 2)"));
        }
        if e["hp_before"].as_i64() != Some(before)
            || e["hp_after"].as_i64() != Some(after)
            || e["injury"].as_i64() != Some(before - after)
        {
            self.flag(i, format!("{what}: Hit Points {} -> {} (injury {}) where {before} - ({left} - soak {soak}) gives {before} -> {after} (MS \"Damage\": never below 0)", e["hp_before"], e["hp_after"], e["injury"]));
        }
        if e["hp_max"].as_i64() != Some(self.units[t].hp()) {
            self.flag(
                i,
                format!(
                    "{what}: full Hit Points {} where the sheet gives {}",
                    e["hp_max"],
                    self.units[t].hp()
                ),
            );
        }
        self.hp[t] = after;
        // "Knockout and Death".
        if let Unit::Person(p) = &self.units[t]
            && after == 0
            && before > 0
        {
            let next = events(self.log).get(i + 1);
            let cause = if bash {
                "knocked out (bashing damage)".to_string()
            } else {
                format!(
                    "dying: dies in {} rounds unless stabilized",
                    p.stats.soldier
                )
            };
            if !next.is_some_and(|n| kind(n) == "status_changed" && n["cause"] == cause.as_str()) {
                self.flag(i, format!("{what}: brought to 0 Hit Points, the next event must say '{cause}' (MS \"Knockout and Death\")"));
            }
        }
    }

    fn check_roll(&mut self, i: usize, e: &Value) {
        let u = e["unit"].as_u64().unwrap_or(0) as usize;
        let purpose = e["purpose"].as_str().unwrap_or("").to_string();
        let r = &e["roll"];
        self.check_dice(i, r, &purpose);
        let mut mods = norm(Self::own_mods(r));
        mods.retain(|(l, v)| !(l == "Edge" && *v == 2));
        let unit = self.units[u].clone();
        let people = unit.people();
        let side = self.unit_side[u];
        let ok = match purpose.as_str() {
            "initiative" => people
                .iter()
                .any(|p| mods == vec![("Initiative".to_string(), p.initiative())]),
            "initiative for the group" => (0..self.units.len())
                .filter(|&o| self.unit_side[o] == side)
                .flat_map(|o| {
                    self.units[o]
                        .people()
                        .into_iter()
                        .map(Person::initiative)
                        .collect::<Vec<_>>()
                })
                .any(|v| mods == vec![("Initiative".to_string(), v)]),
            "duck (Acrobatics)" => people.iter().any(|p| {
                let mut want = vec![("Agent".to_string(), i64::from(p.stats.agent))];
                want.extend(p.skill("Acrobatics"));
                mods == norm(want)
            }),
            "sensor sweep" => {
                let Unit::Ship(s, _) = &unit else { return };
                let dl = r["target"].as_i64().unwrap_or(0);
                if !(dl == 19 || (dl >= 7 && (dl - 7) % 2 == 0 && dl <= 11)) {
                    self.flag(i, format!("sensor sweep against DL {dl} (MS \"Ship Detection\": 7, +2 a Stealth rank, 19 cloaked)"));
                }
                people.iter().any(|p| {
                    let mut want = vec![("Tech".to_string(), i64::from(p.stats.tech))];
                    want.extend(p.skill("Knowledge (Sensors)"));
                    want.push(("Sensors".into(), i64::from(s.sensors)));
                    mods == norm(want)
                })
            }
            "the chase" => {
                let prop = match &unit {
                    Unit::Ship(s, _) => Some(i64::from(s.propulsion)),
                    _ => None,
                };
                let agent_ok = people.iter().any(|p| {
                    mods.first() == Some(&("Agent".to_string(), i64::from(p.stats.agent)))
                });
                let prop_ok =
                    prop.is_none_or(|v| mods.iter().any(|m| m.0 == "Propulsion" && m.1 == v));
                agent_ok && prop_ok
            }
            p if p.starts_with("first aid") => {
                let dl = r["target"].as_i64().unwrap_or(0);
                if ![9, 11, 13].contains(&dl) {
                    self.flag(i, format!("first aid against DL {dl} (MS \"Knockout and Death\": 9, then 11, then 13)"));
                }
                mods.first().is_some_and(|m| m.0 == "Tech")
            }
            _ => true,
        };
        if !ok {
            self.flag(
                i,
                format!(
                    "{purpose} of {}: modifiers {mods:?} do not follow from the sheet",
                    self.names[u]
                ),
            );
        }
    }
}

/// Labels without the rank the log may add to a skill's name ("Acrobatics (Basic)").
fn norm(mods: Vec<(String, i64)>) -> Vec<(String, i64)> {
    mods.into_iter()
        .map(|(l, v)| {
            let l = [" (Basic)", " (Advanced)", " (Master)"]
                .iter()
                .fold(l, |l, r| {
                    l.strip_suffix(r).map_or(l.clone(), str::to_string)
                });
            (l, v)
        })
        .collect()
}

/// What the attacker declared: the weapon's rate of fire, Edge, the first target.
#[derive(Clone, Debug, Default)]
struct Declared {
    rate: String,
    edge: bool,
    first_target: Option<usize>,
}

fn unit_stats(prepared: &skirmish::scenario::Prepared, i: usize) -> Option<MsStats> {
    let spec = prepared.file.units.get(i)?;
    let stats = match &spec.stats {
        Some(s) => s,
        None => prepared.file.templates.get(spec.template.as_ref()?)?,
    };
    stats.0.get::<MsStats>().cloned()
}

/// Audits one Main Sequence battle log of scenario `file`.
pub fn audit(file: &Path, log: &Value) -> Vec<Violation> {
    let prepared = skirmish::rules::builtin()
        .load(file)
        .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.render(false)));
    let units: Vec<Unit> = (0..prepared.units.len())
        .map(
            |i| match unit_stats(&prepared, i).expect("a Main Sequence stat block") {
                MsStats::Character(c) => Unit::Person(Person { stats: c }),
                MsStats::Ship(s) => {
                    let crew = s
                        .crew
                        .iter()
                        .map(|c| Person {
                            stats: c.stats.clone(),
                        })
                        .collect();
                    Unit::Ship(s, crew)
                }
            },
        )
        .collect();
    let mut a = Audit {
        hp: units.iter().map(Unit::hp).collect(),
        shields: units.iter().map(Unit::shields).collect(),
        sides: prepared.file.sides.iter().map(|s| s.id.clone()).collect(),
        unit_side: prepared.units.iter().map(|u| usize::from(u.side)).collect(),
        names: super::common::unit_names(log),
        units,
        log,
        out: Vec::new(),
    };
    let evs = events(log);
    let mut decl = Declared::default();
    let mut last_attack: Option<Value> = None;
    let mut last_damage: Option<(usize, i64, i64)> = None;
    for (i, e) in evs.iter().enumerate() {
        match kind(e) {
            "action_chosen" => {
                let text = e["action"].as_str().unwrap_or("");
                if let Some(rest) = text.strip_prefix("attack ") {
                    let targets = rest.split(" with the ").next().unwrap_or("");
                    let first = targets.split(", ").next().unwrap_or("");
                    decl = Declared {
                        rate: text
                            .split_once('(')
                            .and_then(|(_, r)| r.split_once(')'))
                            .map_or(String::new(), |(r, _)| r.to_string()),
                        edge: text.contains("Edge for +2"),
                        first_target: a.names.iter().position(|n| n == first),
                    };
                }
            }
            "attack" => {
                a.check_dice(i, &e["roll"], "attack");
                a.check_attack_mods(i, e, &decl);
                let t = e["target"].as_u64().unwrap_or(0) as usize;
                let u = e["attacker"].as_u64().unwrap_or(0) as usize;
                let wname = e["weapon"].as_str().unwrap_or("");
                let melee = a.units[u]
                    .weapon(wname)
                    .is_some_and(|w| w.2 == "Melee" || w.2 == "Unarmed");
                let target = e["roll"]["target"].as_i64().unwrap_or(0);
                let defs = e["defenses"].as_array().cloned().unwrap_or_default();
                for d in &defs {
                    a.check_defense(i, e, d);
                }
                // "Attacking", "Armor and Cover", "Parrying".
                let bases = match defs.first() {
                    Some(d) => vec![d["roll"]["total"].as_i64().unwrap_or(0)],
                    None => a.units[t].defense(),
                };
                let covers: &[i64] = if melee || matches!(a.units[t], Unit::Ship(..)) {
                    &[0]
                } else {
                    &[0, 2, 4, 6]
                };
                if !bases.iter().any(|b| covers.iter().any(|c| b + c == target)) {
                    a.flag(i, format!("attack on {}: DL {target} is not {} plus cover {covers:?} (MS \"Attacking\", \"Armor and Cover\", \"Parrying\")", a.names[t], if defs.is_empty() { format!("its Defense {bases:?}") } else { format!("its defense roll {bases:?}") }));
                }
                // The result.
                let success = e["roll"]["success"].as_bool().unwrap_or(false);
                let next = evs
                    .get(i + 1)
                    .and_then(|n| n["text"].as_str())
                    .unwrap_or("");
                let want = if next == "dodges it (Nimble)" {
                    "Defended"
                } else if next == "spends a point of Edge: the killing attack just misses"
                    && success
                {
                    "Miss"
                } else if success {
                    "Hit"
                } else if defs.is_empty() {
                    "Miss"
                } else {
                    "Defended"
                };
                if e["result"] != want {
                    a.flag(
                        i,
                        format!(
                            "attack on {}: result {} where the roll gives {want}",
                            a.names[t], e["result"]
                        ),
                    );
                }
                last_attack = Some(e.clone());
            }
            "damage" => {
                if let Some(att) = last_attack.take() {
                    let t = e["target"].as_u64().unwrap_or(0) as usize;
                    last_damage = Some((t, a.hp[t], a.shields[t]));
                    a.check_damage(i, e, &att);
                } else {
                    a.flag(i, "damage without an attack before it".into());
                }
            }
            "roll" => a.check_roll(i, e),
            "note" => {
                let text = e["text"].as_str().unwrap_or("");
                let u = e["unit"].as_u64().unwrap_or(0) as usize;
                if text.starts_with("the crew spend Edge: the ship holds together") {
                    // "Ship Destruction": the Hit Points stay as they were before the attack.
                    if let Some((t, hp, sh)) = last_damage
                        && t == u
                    {
                        a.hp[t] = hp;
                        a.shields[t] = sh;
                    }
                }
                if let Some(rest) = text.strip_prefix("boosts its shields from ") {
                    let nums: Vec<i64> = rest.split(' ').filter_map(|x| x.parse().ok()).collect();
                    if let [from, to] = nums[..] {
                        let full = a.units[u].shields();
                        if from != a.shields[u] || to > full || to < (full * 3) / 4 {
                            a.flag(i, format!("{}: shields boosted from {from} to {to} with {} left of {full} (MS \"Ship Tags\": once to 75% of full)", a.names[u], a.shields[u]));
                        }
                        a.shields[u] = from.max(to);
                    }
                }
            }
            _ => {}
        }
    }
    a.out
}

/// Every shipped Main Sequence scenario over the audit's seeds: no roll breaks the rules.
#[test]
fn every_main_sequence_roll_follows_the_rules() {
    audit_all("ms", audit);
}

/// [`super::common::planted`] with this auditor.
fn planted(
    scenario: &str,
    pick: impl Fn(&Value) -> bool,
    plant: impl Fn(&mut Value),
) -> (Value, usize, PathBuf) {
    super::common::planted(audit, scenario, pick, plant)
}

/// A second target at −1 instead of −2 is reported (MS "Rate of Fire").
#[test]
fn a_wrong_rate_of_fire_penalty_is_reported() {
    let (log, k, file) = planted(
        "ms-corridor",
        |e| {
            kind(e) == "attack"
                && modifiers(&e["roll"])
                    .iter()
                    .any(|(l, _)| l.starts_with("target 2 of"))
        },
        |e| {
            for m in e["roll"]["modifiers"].as_array_mut().expect("modifiers") {
                if m["label"]
                    .as_str()
                    .is_some_and(|l| l.starts_with("target 2 of"))
                {
                    m["value"] = (-1).into();
                }
            }
            let total = e["roll"]["total"].as_i64().unwrap_or(0) + 1;
            e["roll"]["total"] = total.into();
            let t = e["roll"]["target"].as_i64().unwrap_or(0);
            e["roll"]["margin"] = (total - t).into();
        },
    );
    let v = audit(&file, &log);
    assert!(
        v.iter()
            .any(|v| v.event == k && v.what.contains("Rate of Fire")),
        "{v:?}"
    );
}

/// Damage Soak left out of a hit is reported (MS "Armor and Cover").
#[test]
fn a_missing_damage_soak_is_reported() {
    let (log, k, file) = planted(
        "ms-corridor",
        |e| kind(e) == "damage" && e["steps"].as_array().is_some_and(|s| !s.is_empty()),
        |e| e["steps"] = serde_json::json!([]),
    );
    let v = audit(&file, &log);
    assert!(
        v.iter()
            .any(|v| v.event == k && v.what.contains("Damage Soak")),
        "{v:?}"
    );
}

/// A dodge against a shot rolled with Agent instead of Tech is reported (MS "Dodging").
#[test]
fn a_dodge_with_the_wrong_attribute_is_reported() {
    let (log, k, file) = planted(
        "ms-corridor",
        |e| kind(e) == "attack" && e["defenses"][0]["defense"] == "Dodge",
        |e| {
            for m in e["defenses"][0]["roll"]["modifiers"]
                .as_array_mut()
                .expect("modifiers")
            {
                if m["label"] == "Tech" {
                    m["label"] = "Agent".into();
                }
            }
        },
    );
    let v = audit(&file, &log);
    assert!(
        v.iter().any(|v| v.event == k && v.what.contains("Dodging")),
        "{v:?}"
    );
}

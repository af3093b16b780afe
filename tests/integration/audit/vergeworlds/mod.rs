//! Log auditor: Vergeworlds (issue 26). Every `scenarios/vw-*.ron` is fought over many seeds
//! and every roll of the log is recomputed here from the log and the scenario's stat blocks,
//! with the arithmetic written from `../shared/rules/vergeworlds-rough-methods.txt` (cited
//! below as "VW", with its section) and the project's documented decisions.
//!
//! What is checked:
//! - The dice of every 2d6 roll (VW "Judging Actions"; `src/dice/mod.rs` `open_ended_2d6`):
//!   two d6 faces; after a natural 12 the extra dice roll on while they show 5–6 (+1 each)
//!   and stop at 4 or less, after a natural 2 they roll on while they show 1–2 (−1 each) and
//!   stop at 3 or more; the "open-ended" modifier is that count; total = faces + modifiers;
//!   margin = total − DC; success when the total meets the DC; the critical mark only on a
//!   natural 12 or 2. A target that does not defend counts a roll of 2 (VW "Combat
//!   Actions", "Targets that are completely unaware…").
//! - Attack modifiers (VW "Combat Actions", "Attack", the conditions table, "Attitude",
//!   "Multiple Actions", "Careful Aim", "Bad Footing", "Stuck", "Cover", "Minimum
//!   Strength", "Rapid Fire", "Cramped", "Mana"): Coordination and the weapon's skill from
//!   the sheet; the attitude's value (Committed +2 on one attack a turn, Cautious −2,
//!   Focused Defense −3, Powerful −1 Coordination, none for the others); Careful Aim +2
//!   (+1 braced; `src/rules/vergeworlds/combat.rs` `careful_aim`) only on a declared aimed
//!   single ranged shot; bad footing −2, stuck −3, hindered −2 only on melee attacks; cover
//!   only on ranged attacks; recoil / strength −1 per point of Strength short of Min Str or
//!   RCL + score of [shots]; cramped −(Bulk − Size − slack); Mana at most ±2 per d6 and
//!   announced by its note; every other label is reported.
//! - The attack's DC (VW "Attack", "Hit Location", "Range" Speed; rules/README.md decision 1
//!   and `src/rules/vergeworlds/score.rs` for whole scores): −target Size + max(attacker
//!   Size, −2 + range score), at least 0; +2 aimed at a peripheral location; +1 per full
//!   multiple of the projectile Speed in the range, at most half the range score; plus the
//!   defense's degree of success (a failed defense adds nothing, `combat.rs` module doc).
//!   Positions are followed through the log (moves, knock-backs, altitudes of fliers).
//! - Defense modifiers (VW conditions table, "Melee Defense", "Retreat", "Dive Prone",
//!   "Duck Behind Cover", "Multiple Defenses", "Attacked From Behind", "Range" Speed):
//!   Coordination, Fight (parry) only against melee, Evade; weapon Def = own best melee
//!   weapon's Def − the attacker's weapon's Def, only against melee; the attitude's value
//!   (Raging −2, Probing +1 against melee only, Committed −3, Cautious +1, Focused Defense
//!   +2 on the first defense, Powerful −1); "extra defenses (borrowed actions)" −2 for each
//!   defense beyond the free one(s) since the defender's turn (a Defend action gives one
//!   more); retreat +1 only against melee and only with the step back taken; dive prone +1
//!   only against shots and never when already prone; duck behind cover +1; projectile
//!   speed +1 per full multiple of value of [score of Speed − Action Score] in the range.
//! - The attack's result: a hit when the total meets the DC, or when it misses only by the
//!   cover penalty (VW "Cover", `fight.rs` decision: through the cover as a barrier);
//!   "defended" when it would have hit without the defense; "miss" otherwise.
//! - Hit location (VW "Hit Location", "Goodies"): aimed at a central location, a hit by 4
//!   or more (cover counted toward the degrees) strikes it, aimed at a peripheral one a hit
//!   by 2 or more; a zero-degree hit against a Fight parry strikes an arm; otherwise the
//!   chart (`combat.rs` `HUMAN_CHART`). Goodies are the degrees beyond those, spent on the
//!   damage roll (at most 12) and the armor roll (never below 2).
//! - Damage (VW "Damage", "Armor and Barriers", "Penetration Delivered to the Target",
//!   "Penetrating Injuries", "Wound Delivered to the Target", "Injury to the Target"):
//!   muscle-powered Pen = 2d6 row-shifted by weapon RS + unarmed RS + Brawn (+1 Raging or
//!   Powerful, −1 Probing); armor covers the location and stops the armor roll row-shifted
//!   by its RS + the weapon's AP, or is bypassed under its activation; the cover barrier
//!   stops 2d6 at +1 RS (`fight.rs` decision); Penetration Limit = the 2d6 roll
//!   row-shifted by the target's RS (no shift: the roll itself, 12 stays 12), 2 after the
//!   Mana that fixes it; absorbed = min(Pen, Limit); Wound limited to the Wound Score
//!   Limit; Injury = Wound + score of [absorbed] + susceptibility; penetrating when Pen is
//!   half the Limit or more on a roll over 5, or the Injury is 10 or more; blows through
//!   when Pen is over the Limit; the quarter leftovers give the extra injuries (¼: −2, ½:
//!   −1, ¾: −1 and −2).
//! - State (VW "Injury to the Target", "Mooks" and its two exceptions;
//!   `src/rules/vergeworlds/injury.rs` `major_state` decision): every injury recorded with
//!   the cascade of equal scores; the worst injury before and after; a mook out exactly at
//!   Injury 7, a penetrating 5 to a limb or 3 elsewhere (robots: limbs never; squirm: only
//!   7); a major character out at an accumulated +9 or a penetrating +7 to the body, dead
//!   at +13 to head, neck, chest or abdomen or +16 anywhere; Mana points counted down.
//! - Other rolls: the tie-break Coordination contest, Recovery (Vigor, DC 6; VW
//!   "Recovery"), extra effort (Spirit, DC 7; VW "Extra Effort"), the starting Action Point
//!   pool 1d6 − 1 (VW "Starting Combat").

use super::common::{events, faces, kind, modifiers};
use super::{Violation, audit_all};
use serde_json::Value;
use skirmish::rules::vergeworlds::sheet::{Weapon, WeaponKind};
use skirmish::rules::vergeworlds::{Vergeworlds, VwStats};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod damage;

use damage::*;

// ----- program bugs this auditor found (both fixed; KNOWN_PROGRAM_BUGS is empty) -------

/// A defense roll raised by Mana keeps the margin and success it had before the Mana
/// (`src/rules/vergeworlds/fight/attacks.rs`, `spend_mana`, `ManaChoice::Adjust`: the total
/// is raised, margin and success are not; the attack roll is judged again, the defense not).
const DEFENSE_MANA_MARGIN: &str = "defense margin after Mana";

/// A grapple attack (grab, shove, takedown, throw…) takes no attitude modifier
/// (`src/rules/vergeworlds/fight/grapple.rs`, `grapple`), though VW "Attitude" and "Attack"
/// put it on any attack roll and "Grappling" makes a grapple a melee attack.
const GRAPPLE_ATTITUDE: &str = "grapple attack without attitude";

/// Program bugs this auditor has found and reported, whose checks are held back until they
/// are fixed. Empty it to see them.
const KNOWN_PROGRAM_BUGS: &[&str] = &[];

// ----- the Score-Value table (rules/README.md decision 1; score.rs) ----------------------

/// The value of a score: 2^(score/2); whole odd scores read the clean table (two
/// significant figures, cut down).
fn value(score: f64) -> f64 {
    let exact = (score / 2.0).exp2();
    if score.fract() != 0.0 || (score as i64) % 2 == 0 {
        return exact;
    }
    let k = exact.log10().floor() as i32 - 1;
    let p = 10f64.powi(k);
    (exact / p + 1e-9).floor() * p
}

/// The score of a value: 2·log2, read off the clean table when it is one of its values,
/// else kept to the nearest quarter.
fn score(v: f64) -> f64 {
    if v <= 0.0 {
        return f64::NEG_INFINITY;
    }
    let near = 2.0 * v.log2();
    if (value(near.round()) - v).abs() < 1e-9 {
        return near.round();
    }
    (near * 4.0).round() / 4.0
}

/// A whole score (range score, shots): 2·log2 rounded once.
fn whole_score(v: f64) -> i32 {
    (2.0 * v.log2() + 1e-9).round() as i32
}

/// A value shifted `rs` rows; no shift leaves it alone.
fn shift(v: f64, rs: f64) -> f64 {
    if v <= 0.0 || rs == 0.0 {
        return v;
    }
    value(score(v) + rs)
}

// ----- reading the log -----------------------------------------------------------------

fn num(s: &str) -> Option<f64> {
    s.trim()
        .trim_end_matches([',', ')', ':'])
        .parse::<f64>()
        .ok()
}

/// The text between `before` and `after` in `s`.
fn between<'a>(s: &'a str, before: &str, after: &str) -> Option<&'a str> {
    let i = s.find(before)? + before.len();
    let rest = &s[i..];
    let j = rest.find(after)?;
    Some(&rest[..j])
}

fn hex_of(v: &Value) -> Option<(i32, i32)> {
    Some((v[0].as_i64()? as i32, v[1].as_i64()? as i32))
}

fn hex_distance(a: (i32, i32), b: (i32, i32)) -> i32 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    (dx.abs() + dy.abs() + (dx + dy).abs()) / 2
}

const CENTRAL: [&str; 3] = ["chest", "abdomen", "hips"];
const LIMBS: [&str; 4] = ["right arm", "left arm", "right leg", "left leg"];
const CHART: [&str; 9] = [
    "head",
    "neck",
    "right arm",
    "left arm",
    "chest",
    "abdomen",
    "hips",
    "right leg",
    "left leg",
];

// ----- the auditor ---------------------------------------------------------------------

/// What the auditor follows of one character.
#[derive(Clone, Debug, Default)]
struct Char {
    pos: (i32, i32),
    alt: f64,
    attitude: String,
    committed_used: bool,
    focused_used: bool,
    defenses: u32,
    free_defenses: u32,
    borrowed_before_turn: u32,
    evaded: bool,
    injuries: Vec<(i32, String, bool)>,
    out: bool,
    dead: bool,
    mana: i64,
    mana_adjust: Vec<i64>,
    high_speed: bool,
    turn: u32,
}

/// An attack's hit waiting for its damage notes.
#[derive(Clone, Debug)]
struct PendingHit {
    attacker: usize,
    target: usize,
    weapon: Weapon,
    /// The location the hit must strike, if not the chart's.
    direct: Option<String>,
    /// A zero-degree hit against a parry: an arm.
    arm: bool,
    goodies: i32,
    fixed_limit: bool,
}

/// One battle's audit.
struct Audit<'a> {
    sheets: Vec<Arc<VwStats>>,
    cramped: Option<f64>,
    chars: Vec<Char>,
    out: Vec<Violation>,
    log: &'a Value,
    names: Vec<String>,
    /// The aim and options of each unit's last declared attack.
    declared: HashMap<usize, (String, bool, u32)>,
    hits: std::collections::VecDeque<PendingHit>,
    /// The defender's own step just before an attack roll (from where).
    step_from: Option<(usize, (i32, i32))>,
    /// Whose turn it is.
    active: Option<usize>,
    /// After a damage event: the unit whose state change must (or may) follow.
    expect_out: Option<(usize, bool, bool, bool)>,
    /// The last Pen note: unit, location, exact Injury, penetrating.
    last_blow: Option<(usize, String, f64, bool)>,
}

impl<'a> Audit<'a> {
    fn flag(&mut self, event: usize, what: String) {
        self.out.push(Violation { event, what });
    }

    fn sheet(&self, u: usize) -> &VwStats {
        &self.sheets[u]
    }

    fn weapon(&self, u: usize, name: &str) -> Weapon {
        let s = self.sheet(u);
        s.weapons
            .iter()
            .find(|w| w.name == name)
            .cloned()
            .unwrap_or_else(|| {
                let mut w = Weapon::named(name, WeaponKind::Melee, s.unarmed.wound);
                w.pen_rs = Some(0.0);
                w
            })
    }

    fn unit_of(&self, e: &Value) -> Option<usize> {
        e["unit"].as_u64().map(|u| u as usize)
    }

    /// The least and greatest range the rounded altitudes of the log allow (each within
    /// half a metre): the range itself when neither flies.
    fn range_bounds(&self, a: usize, b: usize, b_pos: (i32, i32)) -> (f64, f64) {
        let (ca, cb) = (&self.chars[a], &self.chars[b]);
        let flat = hex_distance(ca.pos, b_pos) as f64;
        let up = (ca.alt - cb.alt).abs();
        let slack = if ca.alt == 0.0 && cb.alt == 0.0 {
            0.0
        } else {
            1.0
        };
        let lo = (up - slack).max(0.0);
        (
            (flat * flat + lo * lo).sqrt(),
            (flat * flat + (up + slack) * (up + slack)).sqrt(),
        )
    }

    fn range(&self, a: usize, b: usize, b_pos: (i32, i32)) -> f64 {
        let (ca, cb) = (&self.chars[a], &self.chars[b]);
        let flat = hex_distance(ca.pos, b_pos) as f64;
        let up = ca.alt - cb.alt;
        (flat * flat + up * up).sqrt()
    }

    /// VW "Judging Actions": the 2d6 open-ended roll record.
    fn check_dice(&mut self, i: usize, r: &Value, what: &str) {
        let f = faces(r);
        let mods = modifiers(r);
        if r["dice"] != "2d6" {
            self.flag(i, format!("{what}: dice {} where VW rolls 2d6", r["dice"]));
            return;
        }
        if f.len() != 2 || f.iter().any(|x| !(1..=6).contains(x)) {
            self.flag(i, format!("{what}: faces {f:?} are not two d6"));
            return;
        }
        let natural = f[0] + f[1];
        let extra: Vec<i64> = r["extra"]
            .as_array()
            .map_or(Vec::new(), |v| v.iter().filter_map(Value::as_i64).collect());
        let open = mods
            .iter()
            .filter(|(l, _)| l == "open-ended")
            .map(|(_, v)| *v)
            .sum::<i64>();
        let expected_open = match natural {
            12 => {
                let n = extra.iter().take_while(|&&x| x >= 5).count();
                if extra.len() != n + 1 || extra[n] > 4 {
                    self.flag(
                        i,
                        format!("{what}: after a natural 12 the dice {extra:?} must roll on while 5-6 and stop at 4 or less (VW \"Judging Actions\")"),
                    );
                }
                n as i64
            }
            2 => {
                let n = extra.iter().take_while(|&&x| x <= 2).count();
                if extra.len() != n + 1 || extra[n] < 3 {
                    self.flag(
                        i,
                        format!("{what}: after a natural 2 the dice {extra:?} must roll on while 1-2 and stop at 3 or more (VW \"Judging Actions\")"),
                    );
                }
                -(n as i64)
            }
            _ => {
                if !extra.is_empty() {
                    self.flag(
                        i,
                        format!("{what}: extra dice {extra:?} without a natural 12 or 2"),
                    );
                }
                0
            }
        };
        if open != expected_open {
            self.flag(
                i,
                format!("{what}: open-ended {open:+} but the extra dice {extra:?} give {expected_open:+} (VW \"Judging Actions\")"),
            );
        }
        let total = natural + mods.iter().map(|(_, v)| v).sum::<i64>();
        if r["total"].as_i64() != Some(total) {
            self.flag(
                i,
                format!(
                    "{what}: total {} but faces + modifiers = {total}",
                    r["total"]
                ),
            );
        }
        self.check_judged(i, r, what);
        let crit = match natural {
            12 => "Success",
            2 => "Failure",
            _ => "",
        };
        if r["critical"].as_str().unwrap_or("") != crit {
            self.flag(
                i,
                format!("{what}: critical {} on a natural {natural}", r["critical"]),
            );
        }
    }

    /// Margin and success of a roll-over record against its target.
    fn check_judged(&mut self, i: usize, r: &Value, what: &str) {
        let mana = modifiers(r).iter().any(|(l, _)| l == "Mana");
        if mana && what.starts_with("defense") && KNOWN_PROGRAM_BUGS.contains(&DEFENSE_MANA_MARGIN)
        {
            return;
        }
        if r["sense"] != "Over" {
            self.flag(i, format!("{what}: sense {} is not Over", r["sense"]));
        }
        let total = r["total"].as_i64().unwrap_or(0);
        match r["target"].as_i64() {
            Some(t) => {
                if r["margin"].as_i64() != Some(total - t) {
                    self.flag(
                        i,
                        format!(
                            "{what}: margin {} but total − DC = {}",
                            r["margin"],
                            total - t
                        ),
                    );
                }
                if r["success"].as_bool() != Some(total >= t) {
                    self.flag(i, format!("{what}: success {} with {total} against DC {t} (VW \"Judging Actions\": meet or beat)", r["success"]));
                }
            }
            None => {
                if !r["success"].is_null() || !r["margin"].is_null() {
                    self.flag(i, format!("{what}: success or margin without a DC"));
                }
            }
        }
    }

    fn check_mana_mod(&mut self, i: usize, u: usize, v: i64, what: &str) {
        if v == 0 || v.abs() > 4 {
            self.flag(
                i,
                format!("{what}: Mana {v:+}: VW \"Mana\" allows up to 2 per d6 (±4 on 2d6)"),
            );
        }
        let c = &mut self.chars[u];
        if let Some(k) = c.mana_adjust.iter().position(|&m| m == v) {
            c.mana_adjust.remove(k);
        } else {
            self.flag(
                i,
                format!("{what}: Mana {v:+} with no Mana point spent for it"),
            );
        }
    }

    /// The attitude modifier of an attack roll (VW "Attitude").
    fn attack_attitude(&self, u: usize) -> (String, i64) {
        let c = &self.chars[u];
        let v = match c.attitude.as_str() {
            "Committed" if !c.committed_used => 2,
            "Cautious" => -2,
            "Focused Defense" => -3,
            "Powerful" => -1,
            _ => 0,
        };
        (format!("{} attitude", c.attitude), v)
    }

    /// The attitude modifier of a defense roll (VW "Attitude").
    fn defense_attitude(&self, u: usize, melee: bool) -> (String, i64) {
        let c = &self.chars[u];
        let v = match c.attitude.as_str() {
            "Raging" => -2,
            "Probing" if melee => 1,
            "Committed" => -3,
            "Cautious" => 1,
            "Focused Defense" if !c.focused_used => 2,
            "Powerful" => -1,
            _ => 0,
        };
        (format!("{} attitude", c.attitude), v)
    }

    /// One attack group: the events from `start` with this attacker (rapid fire logs one
    /// attack event per shot, the defense on the first).
    fn check_attack(&mut self, i: usize, group: &[Value]) {
        let e = &group[0];
        let u = e["attacker"].as_u64().unwrap_or(0) as usize;
        let t = e["target"].as_u64().unwrap_or(0) as usize;
        let wname = e["weapon"].as_str().unwrap_or("");
        let w = self.weapon(u, wname);
        let melee = w.kind == WeaponKind::Melee;
        let shots = group.len() as u32;
        let (aim, careful, _) =
            self.declared
                .get(&u)
                .cloned()
                .unwrap_or(("chest".into(), false, 1));
        let sheet = self.sheet(u).clone();
        let tsheet = self.sheet(t).clone();
        let grapple = modifiers(&e["roll"]).iter().any(|(l, _)| l == "Grapple");
        // Positions at the roll: before the defender's own step.
        let tpos = match self.step_from {
            Some((s, from)) if s == t => from,
            _ => self.chars[t].pos,
        };
        let range = self.range(u, t, tpos);

        // The defense.
        let defs = e["defenses"].as_array().cloned().unwrap_or_default();
        let mut def_total = 0;
        if let Some(d) = defs.first() {
            let dk = d["defense"].as_str().unwrap_or("").to_string();
            let r = &d["roll"];
            def_total = r["total"].as_i64().unwrap_or(0);
            if dk == "no defense (counts 2)" {
                if !faces(r).is_empty()
                    || def_total != 2
                    || modifiers(r) != vec![("no defense".to_string(), 2)]
                {
                    self.flag(
                        i,
                        "no defense: must count a roll of 2 (VW \"Combat Actions\")".into(),
                    );
                }
                self.check_judged(i, r, "no defense");
            } else if !grapple {
                self.check_defense(i, t, u, &w, &dk, r, tpos, range);
            } else {
                self.check_dice(i, r, "grapple defense");
            }
        }

        // Each shot.
        for (k, ev) in group.iter().enumerate() {
            let r = &ev["roll"];
            let what = format!(
                "attack by {} on {} with {wname}",
                self.names[u], self.names[t]
            );
            self.check_dice(i + k, r, &what);
            let mods = modifiers(r);
            let mut cover = 0;
            let first_shot = k == 0;
            let _ = first_shot;
            for (l, v) in &mods {
                let v = *v;
                match l.as_str() {
                    "Coordination" => {
                        if v != i64::from(sheet.coordination) {
                            self.flag(
                                i + k,
                                format!(
                                    "{what}: Coordination {v:+} but the sheet has {:+}",
                                    sheet.coordination
                                ),
                            );
                        }
                    }
                    "Fight" | "Shoot" | "Throw" | "Grapple" => {
                        let (want, val) = if grapple {
                            ("Grapple", sheet.skills.grapple)
                        } else {
                            match w.kind {
                                WeaponKind::Melee => ("Fight", sheet.skills.fight),
                                WeaponKind::Ranged => ("Shoot", sheet.skills.shoot),
                                WeaponKind::Thrown => ("Throw", sheet.skills.throw),
                            }
                        };
                        if l != want || v != i64::from(val) {
                            self.flag(i + k, format!("{what}: {l} {v:+} where the {:?} weapon takes {want} {val:+} (VW \"Attack\")", w.kind));
                        }
                    }
                    "open-ended" => {}
                    "Careful Aim" | "Careful Aim, braced" => {
                        let want = if l == "Careful Aim" { 2 } else { 3 };
                        if v != want || !careful || melee || shots > 1 {
                            self.flag(i + k, format!("{what}: '{l}' {v:+} (declared aimed: {careful}, shots {shots}; VW \"Careful Aim\": +2, +1 braced, one shot, ranged)"));
                        }
                    }
                    "multiple actions" => {
                        if v > -2 || v % 2 != 0 {
                            self.flag(i + k, format!("{what}: multiple actions {v:+} (VW \"Multiple Actions\": -2 per action beyond the first)"));
                        }
                    }
                    "grappled / off balance" => {
                        if v >= 0 {
                            self.flag(i + k, format!("{what}: grappled {v:+} is no penalty"));
                        }
                    }
                    "bad footing" | "prone (hindered)" | "stuck" => {
                        let want = if l == "stuck" { -3 } else { -2 };
                        if v != want || !melee {
                            self.flag(i + k, format!("{what}: '{l}' {v:+} on a {:?} attack (VW conditions table: {want} to melee attacks only; \"Ranged attacks are not affected\")", w.kind));
                        }
                    }
                    "cramped" | "cramped (grappling)" => {
                        let slack = if l == "cramped" {
                            self.cramped.unwrap_or(0.0)
                        } else {
                            0.0
                        };
                        let want = -((w.bulk - sheet.size - slack).max(0.0).round() as i64);
                        if v != want {
                            self.flag(
                                i + k,
                                format!("{what}: {l} {v:+}, VW \"Cramped\" gives {want:+}"),
                            );
                        }
                    }
                    "recoil / strength" => {
                        let mut need = i64::MIN;
                        if let Some(m) = w.min_str {
                            need = need.max(i64::from(m));
                        }
                        if let Some(rcl) = w.rcl {
                            let extra = if shots > 1 {
                                whole_score(f64::from(shots))
                            } else {
                                0
                            };
                            need = need.max(i64::from(rcl + extra));
                        }
                        let want = -(need - i64::from(sheet.strength)).max(0);
                        if need == i64::MIN || v != want || melee {
                            self.flag(i + k, format!("{what}: recoil / strength {v:+}, VW \"Minimum Strength\"/\"Rapid Fire\" give {want:+} ({shots} shots)"));
                        }
                    }
                    "target in cover" => {
                        cover = v;
                        if melee || !(-4..=-1).contains(&v) {
                            self.flag(i + k, format!("{what}: target in cover {v:+} (VW \"Cover\": -1 to -4, ranged only)"));
                        }
                    }
                    "Focus" => {
                        if v != 2 {
                            self.flag(i + k, format!("{what}: Focus {v:+} (VW \"Focus\": +2)"));
                        }
                    }
                    "Mana" => {
                        if k == 0 {
                            self.check_mana_mod(i + k, u, v, &what);
                        }
                    }
                    l if l.ends_with(" attitude") => {}
                    _ => self.flag(i + k, format!("{what}: unknown modifier '{l}' {v:+}")),
                }
            }
            let (al, av) = self.attack_attitude(u);
            let (al, av) = if grapple && KNOWN_PROGRAM_BUGS.contains(&GRAPPLE_ATTITUDE) {
                (al, 0)
            } else {
                (al, av)
            };
            let got: Vec<_> = mods
                .iter()
                .filter(|(l, _)| l.ends_with(" attitude"))
                .cloned()
                .collect();
            let want: Vec<(String, i64)> = if av != 0 {
                vec![(al.clone(), av)]
            } else {
                Vec::new()
            };
            if got != want {
                self.flag(i + k, format!("{what}: attitude modifiers {got:?} where VW \"Attitude\" gives {want:?} ({} attitude, Committed bonus used: {})", self.chars[u].attitude, self.chars[u].committed_used));
            }
            if self.chars[u].borrowed_before_turn > 0 && !grapple {
                let need = -2 * i64::from(self.chars[u].borrowed_before_turn);
                let got = mods
                    .iter()
                    .find(|(l, _)| l == "multiple actions")
                    .map_or(0, |m| m.1);
                if got > need {
                    self.flag(i + k, format!("{what}: multiple actions {got:+} though {} action(s) were borrowed for defenses since its last turn (VW \"Multiple Defenses\": borrowed actions act like actions of the next turn, -2 each on its task rolls)", self.chars[u].borrowed_before_turn));
                }
            }

            // The DC (VW "Attack", "Hit Location", "Range").
            let total = r["total"].as_i64().unwrap_or(0);
            let target = r["target"].as_i64().unwrap_or(0);
            let degree_def = def_total.max(0);
            if !grapple {
                let aim_pen = if CENTRAL.contains(&aim.as_str()) {
                    0
                } else {
                    2
                };
                let dc_at = |range: f64| {
                    let rs = whole_score(range.max(1.0));
                    let base = ((-tsheet.size + sheet.size.max(f64::from(rs) - 2.0)).round()
                        as i64)
                        .max(0);
                    let speed = if !melee && w.speed > 0.0 {
                        ((range / w.speed).floor() as i64)
                            .min(i64::from(rs / 2))
                            .max(0)
                    } else {
                        0
                    };
                    (base, speed, base + aim_pen + speed + degree_def)
                };
                let (base, speed, want) = dc_at(range);
                // Fliers' altitudes are read from the log's notes, rounded to the metre:
                // the true height difference lies within a metre of the one read.
                let (lo, hi) = self.range_bounds(u, t, tpos);
                let near = [lo, hi].iter().any(|&r| dc_at(r).2 == target);
                if target != want && !near {
                    self.flag(i + k, format!("{what}: DC {target} where VW \"Attack\" gives {want} (base {base} at {range:.1} m, Sizes {} vs {}, aim {aim_pen}, Speed {speed}, defense {degree_def})", sheet.size, tsheet.size));
                }
            }
            // The result.
            let hit = total >= target || (cover < 0 && total - cover >= target);
            let res = ev["result"].as_str().unwrap_or("");
            let want = if hit {
                "Hit"
            } else if total >= target - degree_def && !defs.is_empty() {
                "Defended"
            } else {
                "Miss"
            };
            if res != want && !(want == "Miss" && res == "Defended" && grapple) {
                self.flag(i + k, format!("{what}: result {res} where the roll {total} against DC {target} (defense {degree_def}, cover {cover}) is {want}"));
            }
            if hit && !grapple {
                let degree = total - target - cover;
                let parried = defs.first().is_some_and(|d| {
                    modifiers(&d["roll"])
                        .iter()
                        .any(|(l, _)| l == "Fight (parry)")
                });
                let through_cover = total < target;
                let central = CENTRAL.contains(&aim.as_str());
                let direct = if central { degree >= 4 } else { degree >= 2 };
                let arm = !through_cover && parried && degree == 0;
                let goodies = if through_cover {
                    0
                } else {
                    (degree - if central { 4 } else { 2 }).max(0)
                };
                self.hits.push_back(PendingHit {
                    attacker: u,
                    target: t,
                    weapon: w.clone(),
                    direct: (!through_cover && direct && !arm).then(|| aim.clone()),
                    arm,
                    goodies: goodies as i32,
                    fixed_limit: false,
                });
            }
        }
        if self.chars[u].attitude == "Committed" {
            self.chars[u].committed_used = true;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_defense(
        &mut self,
        i: usize,
        t: usize,
        u: usize,
        w: &Weapon,
        dk: &str,
        r: &Value,
        tpos: (i32, i32),
        range: f64,
    ) {
        let what = format!("defense of {} ({dk})", self.names[t]);
        self.check_dice(i, r, &what);
        let melee = w.kind == WeaponKind::Melee;
        let sheet = self.sheet(t).clone();
        let mods = modifiers(r);
        let has = |l: &str| mods.iter().any(|(m, _)| m == l);
        let evade_roll = self.chars[t].evaded;
        // Counting the defenses since the defender's turn (VW "Multiple Defenses").
        self.chars[t].defenses += 1;
        let borrowed = self.chars[t]
            .defenses
            .saturating_sub(self.chars[t].free_defenses);
        for (l, v) in &mods {
            let v = *v;
            match l.as_str() {
                "Coordination" => {
                    if v != i64::from(sheet.coordination) {
                        self.flag(
                            i,
                            format!(
                                "{what}: Coordination {v:+} but the sheet has {:+}",
                                sheet.coordination
                            ),
                        );
                    }
                }
                "Fight (parry)" => {
                    if !melee || v != i64::from(sheet.skills.fight) {
                        self.flag(i, format!("{what}: Fight (parry) {v:+} against a {:?} attack (sheet Fight {:+}; a parry is a melee defense)", w.kind, sheet.skills.fight));
                    }
                }
                "Evade" => {
                    if v != i64::from(sheet.skills.evade) {
                        self.flag(
                            i,
                            format!(
                                "{what}: Evade {v:+} but the sheet has {:+}",
                                sheet.skills.evade
                            ),
                        );
                    }
                }
                l if l.starts_with("weapon Def (") => {
                    let own = &l["weapon Def (".len()..l.len() - 1];
                    let own_def = sheet
                        .weapons
                        .iter()
                        .find(|x| x.name == own && x.kind == WeaponKind::Melee)
                        .map_or(0, |x| x.def);
                    let want = i64::from(own_def - w.def);
                    if !melee || !has("Fight (parry)") || v != want {
                        self.flag(i, format!("{what}: '{l}' {v:+}; VW \"Melee Defense\" gives {want:+} (own Def {own_def}, attacker's {}), in melee parries only", w.def));
                    }
                }
                "extra defenses (borrowed actions)" => {}
                "bad footing" | "prone (hindered)" | "attacked from behind" => {
                    if v != -2 {
                        self.flag(i, format!("{what}: {l} {v:+} (VW conditions table: -2)"));
                    }
                }
                "stuck" => {
                    if v != -3 {
                        self.flag(i, format!("{what}: stuck {v:+} (VW \"Stuck\": -3)"));
                    }
                }
                "grappled / off balance" => {
                    if v >= 0 {
                        self.flag(i, format!("{what}: grappled {v:+} is no penalty"));
                    }
                }
                "projectile speed" => {
                    let step = value(score(w.speed) - f64::from(sheet.action_score));
                    let want = (range / step).floor().max(0.0) as i64;
                    if melee || v != want {
                        self.flag(i, format!("{what}: projectile speed {v:+}; VW \"Range\" gives {want:+} at {range:.1} m (Speed {}, Action Score {})", w.speed, sheet.action_score));
                    }
                }
                "retreat" => {
                    let stepped = matches!(self.step_from, Some((s, from)) if s == t
                        && hex_distance(self.chars[t].pos, self.chars[u].pos) > hex_distance(from, self.chars[u].pos));
                    if v != 1 || !melee || dk != "retreat" || !stepped {
                        self.flag(i, format!("{what}: retreat {v:+} against a {:?} attack, step back taken: {stepped} (VW \"Retreat\": +1 against melee, with a step away)", w.kind));
                    }
                }
                "dive prone" => {
                    if v != 1 || melee || dk != "dive prone" || has("prone (hindered)") {
                        self.flag(i, format!("{what}: dive prone {v:+} against a {:?} attack, already prone: {} (VW \"Dive Prone\": +1 against shots, not again when prone)", w.kind, has("prone (hindered)")));
                    }
                }
                "duck behind cover" => {
                    if v != 1 || dk != "duck behind cover" {
                        self.flag(
                            i,
                            format!(
                                "{what}: duck behind cover {v:+} (VW \"Duck Behind Cover\": +1)"
                            ),
                        );
                    }
                }
                "Mana" => self.check_mana_mod(i, t, v, &what),
                "open-ended" => {}
                l if l.ends_with(" attitude") => {}
                _ => self.flag(i, format!("{what}: unknown modifier '{l}' {v:+}")),
            }
        }
        for (kind_word, label) in [
            ("retreat", "retreat"),
            ("dive prone", "dive prone"),
            ("duck behind cover", "duck behind cover"),
        ] {
            if dk == kind_word && !has(label) {
                self.flag(i, format!("{what}: a {dk} defense without its +1"));
            }
        }
        if !has("Fight (parry)") && !has("Evade") {
            self.flag(i, format!("{what}: neither Fight (parry) nor Evade"));
        }
        if !evade_roll {
            let (al, av) = self.defense_attitude(t, melee);
            let got: Vec<_> = mods
                .iter()
                .filter(|(l, _)| l.ends_with(" attitude"))
                .cloned()
                .collect();
            let want: Vec<(String, i64)> = if av != 0 { vec![(al, av)] } else { Vec::new() };
            if got != want {
                self.flag(
                    i,
                    format!(
                        "{what}: attitude modifiers {got:?} where VW \"Attitude\" gives {want:?}"
                    ),
                );
            }
            let got = mods
                .iter()
                .find(|(l, _)| l == "extra defenses (borrowed actions)")
                .map(|m| m.1);
            let want = (borrowed > 0).then_some(-2 * i64::from(borrowed));
            if got != want {
                self.flag(i, format!("{what}: extra defenses {} where defense {} since its turn ({} free) gives {} (VW \"Multiple Defenses\")", fmt_opt(got), self.chars[t].defenses, self.chars[t].free_defenses, fmt_opt(want)));
            }
            let _ = tpos;
        }
        if self.chars[t].attitude == "Focused Defense" {
            self.chars[t].focused_used = true;
        }
    }

    /// A note: Pen, armor, Mana, starting Action Points.
    fn check_note(&mut self, i: usize, e: &Value) {
        let text = e["text"].as_str().unwrap_or("");
        let Some(u) = self.unit_of(e) else { return };
        if let Some(rest) = text.strip_prefix("starts the combat with ") {
            // VW "Starting Combat": 1d6 - 1.
            let n = rest.split(' ').next().and_then(num);
            let d = between(text, "(1d6 = ", ",").and_then(num);
            if let (Some(n), Some(d)) = (n, d)
                && (n != d - 1.0 || !(1.0..=6.0).contains(&d))
            {
                self.flag(i, format!("{}: {n} Action Points held over from a 1d6 of {d} (VW \"Starting Combat\": 1d6 - 1)", self.names[u]));
            }
            return;
        }
        if text.starts_with("spends a Mana point") {
            let left = between(text, "; ", " left").and_then(num).unwrap_or(-1.0) as i64;
            let c = &mut self.chars[u];
            c.mana -= 1;
            let (mana, mook) = (c.mana, self.sheets[u].mook);
            if left != mana || mook {
                self.flag(i, format!("{}: {left} Mana left where it had {} (mook: {mook}; VW \"Mooks\": no Mana)", self.names[u], mana + 1));
            }
            if let Some(n) = between(text, "(Adjust(", "))").and_then(num) {
                self.chars[u].mana_adjust.push(n as i64);
            }
            if text.contains("FixLimit") || text.contains("Penetration Limit roll becomes 2") {
                match self.hits.front_mut() {
                    Some(h) if h.target == u => h.fixed_limit = true,
                    _ => self.flag(
                        i,
                        format!(
                            "{}: Mana on a Penetration Limit roll with no hit on it",
                            self.names[u]
                        ),
                    ),
                }
            }
            return;
        }
        if text.starts_with("runs into high-speed movement") {
            self.chars[u].high_speed = true;
        }
        if text.starts_with("slows out of high-speed") {
            self.chars[u].high_speed = false;
        }
        if text.starts_with("flies:") {
            if let Some(a) = between(text, "altitude ", " m").and_then(num) {
                self.chars[u].alt = a;
            }
            return;
        }
        let front = self.hits.front().cloned().filter(|h| h.target == u);
        if let Some(rest) = text.strip_prefix("the shot goes through the cover: barrier roll ") {
            // fight.rs decision: the cover is a barrier, 2d6 at +1 RS (+ AP).
            let r = rest.split(' ').next().and_then(num).unwrap_or(0.0);
            let stops = between(text, "stops ", ",").and_then(num).unwrap_or(0.0);
            let ap = front.as_ref().map_or(0.0, |h| h.weapon.ap_rs);
            let want = shift(r, 1.0 + ap);
            if (want - stops).abs() > 0.051 || !(2.0..=12.0).contains(&r) {
                self.flag(i, format!("barrier roll {r} stops {stops} where 2d6 at +1 RS{} stops {want:.1} (VW \"Armor and Barriers\")", if ap != 0.0 { " + AP" } else { "" }));
            }
            return;
        }
        if text.contains(": armor roll ") || text.contains(" bypassed (armor roll ") {
            let name = text.split(": armor roll ").next().unwrap_or("");
            let name = if text.contains(" bypassed (armor roll ") {
                text.split(" bypassed (armor roll ").next().unwrap_or("")
            } else {
                name
            };
            let Some(armor) = self.sheet(u).armor.iter().find(|a| a.name == name).cloned() else {
                self.flag(
                    i,
                    format!("armor '{name}' is not on {}'s sheet", self.names[u]),
                );
                return;
            };
            let ap = front.as_ref().map_or(0.0, |h| h.weapon.ap_rs);
            if let Some(rest) = text.split(" bypassed (armor roll ").nth(1) {
                let r = rest.split(' ').next().and_then(num).unwrap_or(0.0);
                let act = between(text, "under activation ", ")")
                    .and_then(num)
                    .unwrap_or(0.0);
                if r >= act || act < f64::from(armor.activation) {
                    self.flag(i, format!("{name} bypassed at roll {r} under activation {act} (sheet {}; VW \"Armor and Barriers\": bypassed when the roll is less than the activation)", armor.activation));
                }
            } else {
                let r = between(text, "armor roll ", " ")
                    .and_then(num)
                    .unwrap_or(0.0);
                let stops = between(text, "stops ", " of").and_then(num).unwrap_or(0.0);
                if let Some(raw) = between(text, "(", " less goodies)").and_then(num) {
                    let spent = (raw - r) as i32;
                    let left = front.as_ref().map_or(0, |h| h.goodies);
                    if spent <= 0 || spent > left || r < 2.0 {
                        self.flag(i, format!("{name}: armor roll {raw} lowered to {r} with {left} goodies left (VW \"Goodies\": one per degree, never below 2)"));
                    }
                    if let Some(h) = self.hits.front_mut() {
                        h.goodies -= spent.max(0);
                    }
                }
                if r < f64::from(armor.activation) {
                    self.flag(
                        i,
                        format!(
                            "{name}: armor roll {r} under activation {} is not bypassed",
                            armor.activation
                        ),
                    );
                }
                let want = shift(r, armor.rs + ap);
                // Worn armor (Damage to Armor) may lose up to 1 RS.
                let worn = shift(r, armor.rs - 1.0 + ap);
                if (want - stops).abs() > 0.051
                    && (worn - stops).abs() > 0.051
                    && !(stops < want && stops > worn)
                {
                    self.flag(i, format!("{name}: armor roll {r} stops {stops} where RS {:+} (armor {:+}, AP {ap:+}) gives {want:.1} (VW \"Armor and Barriers\")", armor.rs + ap, armor.rs));
                }
            }
            if let Some(h) = &front {
                let _ = h;
            }
            return;
        }
        if let Some(loc) = text
            .strip_prefix("the blow to the ")
            .and_then(|r| r.strip_suffix(" is stopped"))
        {
            if let Some(h) = front {
                self.hits.pop_front();
                self.check_location(i, &h, loc);
            }
            return;
        }
        if text.contains(": Pen ") && text.contains(" against Penetration Limit ") {
            let loc = text.split(": Pen ").next().unwrap_or("").to_string();
            let p = between(text, ": Pen ", " against")
                .and_then(num)
                .unwrap_or(0.0);
            let l = between(text, "Penetration Limit ", " (roll")
                .and_then(num)
                .unwrap_or(0.0);
            let r = between(text, "(roll ", ")").and_then(num).unwrap_or(0.0);
            let inj = between(&format!("{text},"), "Injury ", ",")
                .and_then(num)
                .unwrap_or(0.0);
            let pen_flag = text.contains(", penetrating");
            let through_flag = text.contains(", blows through");
            let sheet = self.sheet(u).clone();
            if !CHART.contains(&loc.as_str()) {
                self.flag(
                    i,
                    format!("location '{loc}' is not on the hit location chart"),
                );
            }
            // VW "Penetration Delivered to the Target": the roll row-shifted by Size.
            let want_l = shift(r, sheet.pen_limit_rs);
            if (want_l - l).abs() > 0.051 || !(2.0..=12.0).contains(&r) {
                self.flag(i, format!("{loc}: Penetration Limit {l} from roll {r} where RS {:+} gives {want_l:.1} (VW \"Penetration Delivered to the Target\"; no shift: the roll itself)", sheet.pen_limit_rs));
            }
            let full = text.contains(" absorbed, Wound ");
            if full {
                let Some(h) = front else {
                    self.flag(i, format!("{loc}: a hit's Pen note with no hit"));
                    return;
                };
                self.hits.pop_front();
                self.check_location(i, &h, &loc);
                if h.fixed_limit && r != 2.0 {
                    self.flag(i, format!("{loc}: Mana made the Penetration Limit roll 2 but the roll is {r} (VW \"Mana\")"));
                }
                let a = between(text, "): ", " absorbed")
                    .and_then(num)
                    .unwrap_or(0.0);
                let wnd = between(text, "Wound ", ",").and_then(num).unwrap_or(0.0);
                if (a - p.min(l)).abs() > 1e-6 {
                    self.flag(
                        i,
                        format!(
                            "{loc}: {a} absorbed where min(Pen {p}, Limit {l}) = {}",
                            p.min(l)
                        ),
                    );
                }
                let want_w = h.weapon.wound.min(sheet.wound_limit);
                if (wnd - want_w).abs() > 1e-9 {
                    self.flag(i, format!("{loc}: Wound {wnd:+} where the weapon's {:+} limited to the Wound Score Limit {} gives {want_w:+} (VW \"Wound Delivered to the Target\")", h.weapon.wound, sheet.wound_limit));
                }
                // VW "Injury to the Target": Wound + score of [absorbed] + susceptibility.
                let lo = want_w + score((a - 0.05).max(0.01)) + sheet.susceptibility;
                let hi = want_w + score(a + 0.05) + sheet.susceptibility;
                if inj < lo - 1e-9 || inj > hi + 1e-9 {
                    self.flag(i, format!("{loc}: Injury {inj:+.2} where Wound {want_w:+} + score of [{a}] + susceptibility {:+} lies in [{lo:+.2}, {hi:+.2}] (VW \"Injury to the Target\")", sheet.susceptibility));
                }
                if (p - l).abs() > 0.1 && through_flag != (p > l) {
                    self.flag(
                        i,
                        format!(
                            "{loc}: blows through: {through_flag} with Pen {p} against Limit {l}"
                        ),
                    );
                }
            }
            // VW "Penetrating Injuries".
            let deep = inj.floor() >= 10.0;
            let ambiguous = (p - l / 2.0).abs() < 0.1;
            let want_pen = (p >= l / 2.0 && r > 5.0) || deep;
            if !ambiguous && pen_flag != want_pen {
                self.flag(i, format!("{loc}: penetrating: {pen_flag} with Pen {p}, Limit {l} (roll {r}), Injury {inj:+.2} (VW \"Penetrating Injuries\": half the Limit or more on a roll over 5, or Injury 10 or more)"));
            }
            self.last_blow = Some((u, loc, inj, pen_flag));
        }
    }

    fn check_location(&mut self, i: usize, h: &PendingHit, loc: &str) {
        let ok = if let Some(d) = &h.direct {
            loc == d
        } else if h.arm {
            loc.ends_with(" arm")
        } else {
            CHART.contains(&loc)
        };
        if !ok {
            self.flag(
                i,
                format!(
                    "the hit on {} strikes the {loc} where VW \"Hit Location\" gives {}",
                    self.names[h.target],
                    h.direct.clone().unwrap_or_else(|| if h.arm {
                        "an arm (parried at zero degrees)".into()
                    } else {
                        "the chart".into()
                    })
                ),
            );
        }
        let _ = h.attacker;
    }
}

/// Audits one Vergeworlds battle log of scenario `file`.
pub fn audit(file: &Path, log: &Value) -> Vec<Violation> {
    let prepared = skirmish::rules::builtin()
        .load(file)
        .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.render(false)));
    let sheets = prepared.sheets::<Vergeworlds>();
    let cramped = prepared.config::<Vergeworlds>().and_then(|c| c.cramped);
    let chars = prepared
        .units
        .iter()
        .zip(&sheets)
        .map(|(u, s)| Char {
            pos: (u.at.x, u.at.y),
            alt: s.altitude,
            attitude: "Neutral".into(),
            free_defenses: 1,
            mana: i64::from(s.mana),
            high_speed: s.moving.is_some(),
            ..Char::default()
        })
        .collect();
    let mut a = Audit {
        sheets,
        cramped,
        chars,
        out: Vec::new(),
        log,
        names: super::common::unit_names(log),
        declared: HashMap::new(),
        hits: Default::default(),
        step_from: None,
        active: None,
        expect_out: None,
        last_blow: None,
    };
    a.run();
    a.out
}

/// Every shipped Vergeworlds scenario over the audit's seeds: no roll breaks the rules.
#[test]
fn every_vergeworlds_roll_follows_the_rules() {
    audit_all("vw", audit);
}

/// [`super::common::planted`] with this auditor.
fn planted(
    scenario: &str,
    pick: impl Fn(&Value) -> bool,
    plant: impl Fn(&mut Value),
) -> (Value, usize, PathBuf) {
    super::common::planted(audit, scenario, pick, plant)
}

fn add_modifier(roll: &mut Value, label: &str, value: i64) {
    roll["modifiers"]
        .as_array_mut()
        .expect("modifiers")
        .push(serde_json::json!({"label": label, "value": value}));
    let total = roll["total"].as_i64().unwrap_or(0) + value;
    roll["total"] = total.into();
    if let Some(t) = roll["target"].as_i64() {
        roll["margin"] = (total - t).into();
        roll["success"] = (total >= t).into();
    }
}

/// A "retreat" +1 written into a defense against a shot is reported (VW "Retreat": only
/// against melee attacks).
#[test]
fn a_retreat_against_a_shot_is_reported() {
    let (log, k, file) = planted(
        "vw-warehouse",
        |e| {
            kind(e) == "attack"
                && e["weapon"] == "Revolver"
                && e["defenses"][0]["defense"] == "dive prone"
        },
        |e| add_modifier(&mut e["defenses"][0]["roll"], "retreat", 1),
    );
    let v = audit(&file, &log);
    assert!(
        v.iter().any(|v| v.event == k && v.what.contains("retreat")),
        "{v:?}"
    );
}

/// A Committed attitude worth +3 instead of +2 on an attack is reported (VW "Attitude").
#[test]
fn a_wrong_attitude_bonus_is_reported() {
    let (log, k, file) = planted(
        "vw-warehouse",
        |e| {
            kind(e) == "attack"
                && modifiers(&e["roll"])
                    .iter()
                    .any(|(l, v)| l == "Committed attitude" && *v == 2)
        },
        |e| {
            let m = e["roll"]["modifiers"].as_array_mut().expect("modifiers");
            for x in m.iter_mut() {
                if x["label"] == "Committed attitude" {
                    x["value"] = 3.into();
                }
            }
            e["roll"]["total"] = (e["roll"]["total"].as_i64().unwrap_or(0) + 1).into();
        },
    );
    let v = audit(&file, &log);
    assert!(
        v.iter()
            .any(|v| v.event == k && v.what.contains("attitude")),
        "{v:?}"
    );
}

/// A Penetration Limit of 12.3 for an unshifted roll of 12 (the Score-Value grid read where
/// no row shift applies) is reported (VW "Penetration Delivered to the Target").
#[test]
fn a_shifted_penetration_limit_is_reported() {
    let (log, k, file) = planted(
        "vw-sheriffs",
        |e| {
            kind(e) == "note"
                && e["text"]
                    .as_str()
                    .is_some_and(|t| t.contains("against Penetration Limit 7.0 (roll 7)"))
        },
        |e| {
            let t = e["text"].as_str().unwrap_or("").replace(
                "Penetration Limit 7.0 (roll 7)",
                "Penetration Limit 7.0 (roll 8)",
            );
            e["text"] = t.into();
        },
    );
    let v = audit(&file, &log);
    assert!(
        v.iter()
            .any(|v| v.event == k && v.what.contains("Penetration Limit")),
        "{v:?}"
    );
}

//! Log auditors: starship-d12 and SOCS starfighter dogfights (issue 26). Every
//! `scenarios/d12-*.ron` and `scenarios/socs-*.ron` is fought over many seeds and every
//! logged roll is recomputed from the log and the scenario's stat blocks, with the
//! arithmetic written here from the rule texts in `../shared/rules/` and the project's
//! decisions documented in the module docs of `src/rules/starship_d12/` and
//! `src/rules/socs/` (a documented decision counts as the rule where the text is silent).
//!
//! starship-d12 ([`audit_d12`]), from `starship-d12-quick-reference.txt`:
//! - Every roll ("Skill Rolls", rules/README.md decision 3): the modifiers' sum decides
//!   whether a second d12 is rolled ("If it's under this total then roll again and add"),
//!   the total is the faces; a natural 12 always succeeds, a natural 1 misses a shot
//!   ("Gunnery Difficulties").
//! - Range rolls: the pilot's piloting (the crew's best, sheet.rs decision), the ship's
//!   piloting edges and the crew who helped the pilot in the turn before. Range moves
//!   ("Range"): one step, two only when the roll beat the other's by 6 or more, never
//!   against a ship that moved against the mover this turn; the bands run Tailing – Short
//!   – Medium – Long – Escaped, and the logged band is the one followed from the scenario.
//! - Shots ("Gunnery Difficulties"): needs 4 at Short or Tailing, 7 at Medium, 9 at Long
//!   (a missile its own number) plus the target's defence, at the band followed; modifiers
//!   are the gunner's gunnery, each helper's gunnery ("Big Example") and the gunnery edges;
//!   a crewman acts once a turn (mod.rs decision); a ship tailed by its target fires only
//!   turrets or rear weapons ("After the shot"). Sustain ("After the shot"): the fewest
//!   +1s that reach the need, S damage each, while damage is left; success and margin
//!   follow.
//! - Damage ("After the shot"): D (after Sustain) goes to the shields, then the outer
//!   armour, then the chosen system, the rest of its side in sheet order and the core
//!   (gunnery.rs decision: pools not restored); a normal system stops working once
//!   damaged, a heavy one or a turret once destroyed; damage left past the core destroys
//!   the ship. The attacker chooses at Tailing or with an edge, else the defender.
//!   hp_before/hp_after follow the systems' hit points.
//!
//! SOCS ([`audit_socs`]), from the "Space Opera Combat System" part of
//! `gurps-lite-and-socs.txt` (and its "CRITICALS" for the 3d6 rolls):
//! - Every 3d6 roll (gunnery, dodge, maneuvers, HT, perception) as a GURPS success roll.
//! - Gunnery ("FIRE PHASE": Gunner skill + weapon Accuracy + ABs or the snap-shot penalty):
//!   the weapon's gunner (or the pilot) and its Acc; Position and Sustained Fire ABs only
//!   when positive, the snap shot −5 only without them ("AIMING BONUSES"); the target's
//!   to-be-hit by class ("TO-HIT MODIFIERS": fighter +0, cutter +2, ship of the line +4,
//!   station +6; a scenario `size` replaces it), an aimed shot one size smaller (sheet.rs
//!   decision), a planet hit automatically ("PLANETS"); the firepower named in the label
//!   is the weapon's ("FIREPOWER LEVELS").
//! - Dodges ("FIRE PHASE", "Dodges reduce damage by one level"): Piloting/2 + MR
//!   (dogfight.rs decision), not against a critical hit, never by a cutter against a
//!   fighter or by a ship of the line against a fighter or cutter ("UNORTHODOX TACTICS"
//!   list); a successful dodge lowers the hit one level.
//! - Maneuver rolls ("MANEUVER PHASE": Piloting + MR, Go Totally Defensive Piloting only);
//!   a furball collision only after a critical failure on Piloting ("THE FURBALL"); a
//!   perception roll only before a snap shot, its failure firing on a friend.
//! - Firepower results ("FIREPOWER LEVELS" with dogfight.rs decisions): an extreme hit on
//!   an armoured craft counts as great; a light hit on a damaged craft is heavy (with hit
//!   locations: when the location rolled is out or the last); the location die is
//!   d(locations) and names that location; heavy destroys a fighter and disables anything
//!   else; great and extreme vaporize; the damage event's level and condition (2 intact,
//!   1 damaged, 0 out) follow.

use super::common::{events, faces, kind, modifiers, unit_names};
use super::traveller::{compare_labels, gurps_roll_problems};
use super::{Violation, audit_all, battle};
use serde_json::Value;
use skirmish::rules::socs::Socs;
use skirmish::rules::socs::sheet::{Character, CraftStats, Firepower, ShipClass};
use skirmish::rules::starship_d12::sheet::{Build, ShipFacing};
use skirmish::rules::starship_d12::{Band, ShipSheet, StarshipD12};
use std::collections::{HashMap, HashSet};
use std::path::Path;

// ----- starship-d12 -------------------------------------------------------------------------

/// The problems of a starship-d12 roll (rules/README.md decision 3; the quick reference's
/// "Skill Rolls"): sense `D12`, a first d12, a second only when the first is under the
/// modifiers' sum, total = the faces, a natural 12 a critical success and (for a shot) a
/// natural 1 a critical failure.
pub fn d12_roll_problems(roll: &Value, shot: bool) -> Vec<String> {
    let mut out = Vec::new();
    if roll["sense"] != "D12" || roll["dice"] != "d12" {
        out.push(format!(
            "a d12 roll with sense {} dice {}",
            roll["sense"], roll["dice"]
        ));
    }
    let f = faces(roll);
    let bonus: i64 = modifiers(roll).iter().map(|(_, v)| v).sum();
    let Some(&first) = f.first() else {
        out.push("a d12 roll without faces".into());
        return out;
    };
    let want = if first < bonus { 2 } else { 1 };
    if f.len() != want || f.iter().any(|x| !(1..=12).contains(x)) {
        out.push(format!(
            "faces {f:?} with modifiers {bonus}: a second die only when the first is under \
             them (Skill Rolls)"
        ));
    }
    let total: i64 = f.iter().sum();
    if roll["total"].as_i64() != Some(total) {
        out.push(format!(
            "total {} but the faces make {total}",
            roll["total"]
        ));
    }
    let critical = match first {
        12 => Some("Success"),
        1 if shot => Some("Failure"),
        _ => None,
    };
    if roll["critical"].as_str() != critical {
        out.push(format!(
            "critical {} for a first die of {first} (natural 12 / natural 1)",
            roll["critical"]
        ));
    }
    out
}

/// A band's place on the ladder "Tailing - Short - Medium - Long - Escaped".
fn band_step(b: Band) -> i64 {
    match b {
        Band::Tailing => 0,
        Band::Short => 1,
        Band::Medium => 2,
        Band::Long => 3,
        Band::Escaped => 4,
    }
}

/// The band's word in the log.
fn band_word(step: i64) -> &'static str {
    ["tailing", "short", "medium", "long", "escaped"][step.clamp(0, 4) as usize]
}

/// A facing's word in the log.
fn facing_word(f: ShipFacing) -> &'static str {
    match f {
        ShipFacing::Front => "front",
        ShipFacing::Left => "left",
        ShipFacing::Right => "right",
        ShipFacing::Rear => "rear",
        ShipFacing::Core => "core",
    }
}

/// What the auditor follows of one d12 ship.
#[derive(Clone, Debug)]
struct D12Ship {
    /// The sheet.
    sheet: ShipSheet,
    /// Shield points left.
    shields: i64,
    /// Armour points left.
    armour: i64,
    /// Each system's hit points.
    hp: Vec<i64>,
    /// Crew (index) who help the pilot this turn, and next turn.
    help: Vec<usize>,
    /// Crew who will help next turn.
    help_next: Vec<usize>,
    /// Crew who acted this turn.
    crew_used: HashSet<usize>,
}

impl D12Ship {
    /// System `i` still works: a normal system until damaged, a heavy one or a turret
    /// until destroyed ("After the shot").
    fn works(&self, i: usize, hp: i64) -> bool {
        let s = &self.sheet.systems[i];
        if s.turret || s.build != Build::Normal {
            hp > 0
        } else {
            hp >= i64::from(s.hp)
        }
    }
    fn structure(&self) -> i64 {
        self.hp.iter().map(|h| (*h).max(0)).sum()
    }
    fn crew(&self, name: &str) -> Option<usize> {
        self.sheet.crew.iter().position(|c| c.name == name)
    }
    fn system(&self, name: &str) -> Option<usize> {
        self.sheet.systems.iter().position(|s| s.name == name)
    }
}

/// A shot resolved, waiting for its Sustain note and damage.
#[derive(Clone, Debug)]
struct D12Shot {
    attacker: usize,
    target: usize,
    /// Sustain +1s expected (0 for none).
    sustain: i64,
    /// S.
    s: i64,
    /// Damage before Sustain.
    d: i64,
    /// The die total and the number needed.
    total: i64,
    need: i64,
    /// The band (step) it was fired at.
    band: i64,
}

/// Audits one starship-d12 battle (`log`) of scenario `file`.
pub fn audit_d12(file: &Path, log: &Value) -> Vec<Violation> {
    let prepared = skirmish::rules::builtin()
        .load(file)
        .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.render(false)));
    let cfg = prepared
        .config::<StarshipD12>()
        .expect("a starship-d12 scenario");
    let mut ships: Vec<D12Ship> = prepared
        .units
        .iter()
        .map(|u| {
            let sheet = (*u.sheet::<StarshipD12>().expect("a d12 ship")).clone();
            D12Ship {
                shields: i64::from(sheet.shields),
                armour: i64::from(sheet.armour),
                hp: sheet.systems.iter().map(|s| i64::from(s.hp)).collect(),
                help: Vec::new(),
                help_next: Vec::new(),
                crew_used: HashSet::new(),
                sheet,
            }
        })
        .collect();
    let sides: Vec<u8> = prepared.units.iter().map(|u| u.side).collect();
    let names = unit_names(log);
    let by_name = |n: &str| names.iter().position(|x| x == n);
    // Range of each enemy pair (low, high): band step and the tailer.
    let mut range: HashMap<(usize, usize), (i64, Option<usize>)> = HashMap::new();
    let key = |a: usize, b: usize| (a.min(b), a.max(b));
    for a in 0..ships.len() {
        for b in a + 1..ships.len() {
            if sides[a] != sides[b] {
                range.insert((a, b), (band_step(cfg.start_range), None));
            }
        }
    }
    for r in &cfg.ranges {
        if let (Some(a), Some(b)) = (by_name(&r.from), by_name(&r.to)) {
            let s = band_step(r.band);
            range.insert(key(a, b), (s, (s == 0).then_some(a)));
        }
    }
    let mut out = Vec::new();
    let mut rolls: HashMap<usize, i64> = HashMap::new();
    let mut moved: HashSet<(usize, usize)> = HashSet::new();
    let mut declared: HashMap<usize, (String, usize, usize, Vec<usize>)> = HashMap::new();
    let mut moving: Option<(usize, usize, i64, i64)> = None;
    let mut shot: Option<D12Shot> = None;
    let mut expect_note: Option<(usize, String)> = None;
    let mut destroyed_due: HashSet<usize> = HashSet::new();
    for (i, e) in events(log).iter().enumerate() {
        let mut bad = |what: String| out.push(Violation { event: i, what });
        let unit = e["unit"].as_u64().map(|u| u as usize);
        if let Some((t, text)) = expect_note.take()
            && !(kind(e) == "note" && unit == Some(t) && e["text"] == text.as_str())
        {
            bad(format!(
                "after the hit the systems should read `{text}` (After the shot), the log has {e}"
            ));
        }
        match kind(e) {
            "round_started" => {
                rolls.clear();
                moved.clear();
                for s in &mut ships {
                    s.help = std::mem::take(&mut s.help_next);
                    s.crew_used.clear();
                }
            }
            "roll" if e["purpose"] == "piloting for range" => {
                let Some(u) = unit else { continue };
                let roll = &e["roll"];
                for p in d12_roll_problems(roll, false) {
                    bad(format!("range roll: {p}"));
                }
                let s = &ships[u];
                let best = s.sheet.crew.iter().map(|c| c.piloting).max().unwrap_or(0);
                let pilot = s.sheet.crew.iter().find(|c| c.piloting == best);
                let mut want: Vec<(String, i64)> = pilot
                    .map(|p| (format!("{} piloting", p.name), i64::from(p.piloting)))
                    .into_iter()
                    .collect();
                for ed in s.sheet.edges.iter().filter(|x| x.piloting != 0) {
                    want.push((ed.name.clone(), i64::from(ed.piloting)));
                }
                for &h in &s.help {
                    let c = &s.sheet.crew[h];
                    want.push((format!("{} helps", c.name), i64::from(c.piloting)));
                }
                for p in compare_labels(&modifiers(roll), &want) {
                    bad(format!("range roll of {}: {p}", names[u]));
                }
                if !roll["target"].is_null() || !roll["success"].is_null() {
                    bad("a range roll with a target".into());
                }
                rolls.insert(u, roll["total"].as_i64().unwrap_or(0));
            }
            "action_chosen" => {
                let Some(u) = unit else { continue };
                let a = e["action"].as_str().unwrap_or("");
                if let Some(rest) = a
                    .strip_prefix("closes the range to ")
                    .map(|r| (r, -1))
                    .or_else(|| a.strip_prefix("opens the range to ").map(|r| (r, 1)))
                {
                    let (rest, dir) = rest;
                    let (name, steps) = match rest.strip_suffix(" by two steps") {
                        Some(n) => (n, 2),
                        None => (rest, 1),
                    };
                    if let Some(t) = by_name(name) {
                        moving = Some((u, t, dir, steps));
                    }
                } else if let Some(name) =
                    a.strip_suffix(" helps the pilot with next turn's range roll")
                {
                    let s = &mut ships[u];
                    match s.crew(name) {
                        Some(c) if !s.crew_used.contains(&c) => {
                            s.crew_used.insert(c);
                            s.help_next.push(c);
                        }
                        _ => bad(format!("{name} cannot help the pilot (acted already)")),
                    }
                } else if let Some(rest) = a.strip_prefix("fires ") {
                    // "fires W at T (G on the gun, helped by A, B)"
                    let Some((wt, crew)) = rest.rsplit_once(" (") else {
                        continue;
                    };
                    let Some((w, t)) = wt.rsplit_once(" at ") else {
                        continue;
                    };
                    let crew = crew.trim_end_matches(')');
                    let (g, helpers) = match crew.split_once(" on the gun") {
                        Some((g, h)) => (g, h.trim_start_matches(", helped by ")),
                        None => (crew, ""),
                    };
                    let s = &mut ships[u];
                    let mut ids = Vec::new();
                    for n in std::iter::once(g).chain(helpers.split(", ").filter(|h| !h.is_empty()))
                    {
                        match s.crew(n) {
                            Some(c) if s.crew_used.insert(c) => ids.push(c),
                            _ => bad(format!(
                                "{n} acts twice this turn or is not aboard (mod.rs: a crewman \
                                 acts once a turn)"
                            )),
                        }
                    }
                    // Simultaneous fire (mod.rs decision): the weapon must work when the
                    // shot is declared; the round's hits land after.
                    if s.system(w).is_none_or(|k| !s.works(k, s.hp[k])) {
                        bad(format!("{w} is declared out of action (After the shot)"));
                    }
                    if let (Some(t), Some(&gun)) = (by_name(t), ids.first()) {
                        declared.insert(u, (w.to_string(), t, gun, ids[1..].to_vec()));
                    }
                }
            }
            "note" => {
                let Some(u) = unit else { continue };
                let text = e["text"].as_str().unwrap_or("");
                if let Some(rest) = text.strip_prefix("range to ") {
                    let Some((name, rest)) = rest.split_once(": ") else {
                        continue;
                    };
                    let Some(t) = by_name(name) else { continue };
                    let Some((from, rest)) = rest.split_once(" -> ") else {
                        continue;
                    };
                    let to = rest.split(' ').next().unwrap_or("");
                    let k = key(u, t);
                    let (cur, tailer) = range.get(&k).copied().unwrap_or((4, None));
                    if from != band_word(cur) {
                        bad(format!(
                            "range to {name} moves from {from}, but it was {}",
                            band_word(cur)
                        ));
                    }
                    let Some((mu, mt, dir, steps)) = moving.take().filter(|m| m.0 == u && m.1 == t)
                    else {
                        bad(format!("a range change without its action: {text}"));
                        continue;
                    };
                    let _ = (mu, mt);
                    let (mine, theirs) = (
                        rolls.get(&u).copied().unwrap_or(0),
                        rolls.get(&t).copied().unwrap_or(0),
                    );
                    if steps == 2 && mine - theirs < 6 {
                        bad(format!(
                            "two steps with a roll of {mine} against {theirs}: the text needs \
                             6 or more (Range)"
                        ));
                    }
                    if moved.contains(&(t, u)) {
                        bad(format!(
                            "moves against {name}, which moved against it this turn (Range)"
                        ));
                    }
                    if !text.contains(&format!("roll {mine} against {theirs}")) {
                        bad(format!(
                            "`{text}`: the range rolls were {mine} and {theirs}"
                        ));
                    }
                    moved.insert((u, t));
                    let (next, tail) = if dir > 0 {
                        ((cur + steps).min(4), None)
                    } else if cur == 0 {
                        (cur, tailer)
                    } else {
                        let n = (cur - steps).max(0);
                        (n, (n == 0).then_some(u))
                    };
                    if to != band_word(next) {
                        bad(format!(
                            "range to {name}: {from} moved {steps} step(s) gives {}, the log \
                             says {to}",
                            band_word(next)
                        ));
                    }
                    range.insert(k, (next, tail));
                } else if let Some(rest) = text.strip_prefix("Sustain: +") {
                    let Some(sh) = shot.as_ref().filter(|s| s.attacker == u) else {
                        bad("Sustain without a shot".into());
                        continue;
                    };
                    let want = format!(
                        "{} to the die total ({} -> {}, the {} needed) for {} damage (D {} -> {})",
                        sh.sustain,
                        sh.total,
                        sh.total + sh.sustain,
                        sh.need,
                        sh.sustain * sh.s,
                        sh.d,
                        sh.d - sh.sustain * sh.s
                    );
                    if rest != want || sh.sustain == 0 {
                        bad(format!(
                            "`{text}`, the rule gives Sustain +{want} (After the shot)"
                        ));
                    }
                }
            }
            "attack" => {
                let a = e["attacker"].as_u64().unwrap_or(0) as usize;
                let t = e["target"].as_u64().unwrap_or(0) as usize;
                let roll = &e["roll"];
                for p in d12_roll_problems(roll, true) {
                    bad(format!("shot: {p}"));
                }
                let label = e["weapon"].as_str().unwrap_or("");
                let Some((wname, terms)) = label.rsplit_once(" (") else {
                    bad(format!("weapon label `{label}`"));
                    continue;
                };
                let s = &ships[a];
                let Some(wi) = s.system(wname) else {
                    bad(format!("{} has no system {wname}", names[a]));
                    continue;
                };
                let Some(w) = s.sheet.systems[wi].weapon.clone() else {
                    bad(format!("{wname} is not a weapon"));
                    continue;
                };
                let (band, tailer) = range.get(&key(a, t)).copied().unwrap_or((4, None));
                let base = match w.missile {
                    Some(m) => i64::from(m.to_hit),
                    None => match band {
                        0 | 1 => 4,
                        2 => 7,
                        3 => 9,
                        _ => {
                            bad(format!("a shot at {} beyond range", names[t]));
                            99
                        }
                    },
                };
                if band == 4 {
                    bad(format!("a shot at {} which has escaped it", names[t]));
                }
                let need = base + i64::from(ships[t].sheet.defence);
                let want_terms = if w.missile.is_some() {
                    format!("missile, needs {need})")
                } else {
                    format!("{} range, needs {need})", band_word(band))
                };
                if terms != want_terms {
                    bad(format!(
                        "`{label}`: at {} against defence {} the rule gives ({want_terms} \
                         (Gunnery Difficulties)",
                        band_word(band),
                        ships[t].sheet.defence
                    ));
                }
                if roll["target"].as_i64() != Some(need) {
                    bad(format!(
                        "target {} where the shot needs {need}",
                        roll["target"]
                    ));
                }
                if tailer == Some(t)
                    && !(s.sheet.systems[wi].turret
                        || s.sheet.systems[wi].at.facing == ShipFacing::Rear)
                {
                    bad(format!(
                        "{wname} fires at the ship on its tail: only rear weapons and turrets \
                         (After the shot)"
                    ));
                }
                match declared.get(&a) {
                    Some((dw, dt, g, helpers)) if dw == wname && *dt == t => {
                        let mut want = Vec::new();
                        let c = &s.sheet.crew[*g];
                        want.push((format!("{} gunnery", c.name), i64::from(c.gunnery)));
                        for &h in helpers {
                            let c = &s.sheet.crew[h];
                            want.push((format!("{} helps", c.name), i64::from(c.gunnery)));
                        }
                        for ed in s.sheet.edges.iter().filter(|x| x.gunnery != 0) {
                            want.push((ed.name.clone(), i64::from(ed.gunnery)));
                        }
                        for p in compare_labels(&modifiers(roll), &want) {
                            bad(format!("shot with {wname}: {p} (Big Example, edges)"));
                        }
                    }
                    _ => bad(format!(
                        "a shot with {wname} at {} nobody declared",
                        names[t]
                    )),
                }
                let total = roll["total"].as_i64().unwrap_or(0);
                let first = faces(roll).first().copied().unwrap_or(0);
                let (d, sus) = (i64::from(w.damage), w.sustain.map(i64::from));
                let (hit, k) = match first {
                    12 => (true, 0),
                    1 => (false, 0),
                    _ if total >= need => (true, 0),
                    _ => match sus {
                        Some(sv) if d - (need - total) * sv > 0 => (true, need - total),
                        _ => (false, 0),
                    },
                };
                if (e["result"] == "Hit") != hit {
                    bad(format!(
                        "{} with {total} (first die {first}) against {need}, D {d} S {sus:?}: \
                         the rule gives hit {hit} (Gunnery Difficulties, After the shot)",
                        e["result"]
                    ));
                }
                let margin = if k > 0 {
                    total + k - need
                } else {
                    total - need
                };
                if roll["success"].as_bool() != Some(hit) || roll["margin"].as_i64() != Some(margin)
                {
                    bad(format!(
                        "success {} margin {}, the rule gives {hit} and {margin}",
                        roll["success"], roll["margin"]
                    ));
                }
                shot = Some(D12Shot {
                    attacker: a,
                    target: t,
                    sustain: k,
                    s: sus.unwrap_or(0),
                    d,
                    total,
                    need,
                    band,
                });
                if k > 0
                    && !events(log).get(i + 1).is_some_and(|n| {
                        kind(n) == "note"
                            && n["text"].as_str().is_some_and(|x| x.starts_with("Sustain"))
                    })
                {
                    bad("a sustained hit without its Sustain note".into());
                }
            }
            "damage" => {
                let t = e["target"].as_u64().unwrap_or(0) as usize;
                let Some(sh) = shot.take().filter(|s| s.target == t) else {
                    bad("damage without a hit".into());
                    continue;
                };
                let roll = &e["roll"];
                let dmg = sh.d - sh.sustain * sh.s;
                if faces(roll) != vec![dmg] || roll["total"].as_i64() != Some(dmg) {
                    bad(format!(
                        "damage {} where D after Sustain is {dmg}",
                        roll["total"]
                    ));
                }
                let loc = e["location"].as_str().unwrap_or("");
                let Some((sys, how)) = loc.rsplit_once(" (") else {
                    bad(format!("location `{loc}`"));
                    continue;
                };
                let attacker_picks = sh.band == 0
                    || ships[sh.attacker]
                        .sheet
                        .edges
                        .iter()
                        .any(|x| x.attacker_chooses);
                let s = &mut ships[t];
                let Some(ci) = s.system(sys) else {
                    bad(format!("{} has no system {sys}", names[t]));
                    continue;
                };
                let chooser = if attacker_picks {
                    "attacker"
                } else {
                    "defender"
                };
                let facing = s.sheet.systems[ci].at.facing;
                let want_how = format!("{} facing; chosen by the {chooser})", facing_word(facing));
                if how != want_how {
                    bad(format!(
                        "`{loc}`: the rule gives ({want_how} (After the shot: the attacker \
                         chooses at tailing range or with an edge)"
                    ));
                }
                let before = s.structure();
                let mut left = dmg;
                let mut steps = Vec::new();
                for (what, pool) in [("shields", &mut s.shields), ("armour", &mut s.armour)] {
                    let taken = left.min(*pool);
                    if taken > 0 {
                        *pool -= taken;
                        left -= taken;
                        steps.push((what.to_string(), -taken));
                    }
                }
                let past = left;
                let mut order = vec![ci];
                order.extend(
                    (0..s.hp.len()).filter(|&k| k != ci && s.sheet.systems[k].at.facing == facing),
                );
                if facing != ShipFacing::Core {
                    order.extend(
                        (0..s.hp.len())
                            .filter(|&k| s.sheet.systems[k].at.facing == ShipFacing::Core),
                    );
                }
                let mut parts = Vec::new();
                for k in order {
                    if left == 0 {
                        break;
                    }
                    if s.hp[k] <= 0 {
                        continue;
                    }
                    let worked = s.works(k, s.hp[k]);
                    let taken = left.min(s.hp[k]);
                    s.hp[k] -= taken;
                    left -= taken;
                    let off = worked && !s.works(k, s.hp[k]);
                    parts.push(format!(
                        "{} takes {taken}{}",
                        s.sheet.systems[k].name,
                        if off { " and is out of action" } else { "" }
                    ));
                }
                if left > 0 {
                    destroyed_due.insert(t);
                    // What no system is left to take (the hit that destroys the ship) is
                    // not hit points lost: a step of its own.
                    steps.push(("no system left to take it".to_string(), -left));
                }
                let logged: Vec<(String, i64)> = super::common::labelled(&e["steps"]);
                for p in compare_labels(&logged, &steps) {
                    bad(format!(
                        "damage through shields and armour: {p} (After the shot)"
                    ));
                }
                if e["injury"].as_i64() != Some(past - left) {
                    bad(format!(
                        "injury {} where {past} gets past shields and armour and {left} \
                         finds no system",
                        e["injury"]
                    ));
                }
                let after = s.structure();
                if e["hp_before"].as_i64() != Some(before) || e["hp_after"].as_i64() != Some(after)
                {
                    bad(format!(
                        "hp {} -> {}, the systems had {before} and keep {after}",
                        e["hp_before"], e["hp_after"]
                    ));
                }
                if !parts.is_empty() {
                    expect_note = Some((t, parts.join("; ")));
                }
            }
            "status_changed" => {
                let Some(u) = unit else { continue };
                if e["cause"] == "its core is gone" && !destroyed_due.remove(&u) {
                    bad(format!("{} destroyed with damage left nowhere", names[u]));
                }
            }
            _ => {}
        }
    }
    if let Some(&u) = destroyed_due.iter().next() {
        out.push(Violation {
            event: events(log).len(),
            what: format!(
                "{}: damage went past the core without its destruction",
                names[u]
            ),
        });
    }
    out
}

#[test]
fn every_d12_roll_follows_the_rules() {
    audit_all("d12-", audit_d12);
}

/// The index of the first event `pick` accepts in a real log of `scenario`, over seeds.
fn find_event(
    scenario: &str,
    audit: fn(&Path, &Value) -> Vec<Violation>,
    pick: impl Fn(&Value) -> bool,
) -> (std::path::PathBuf, Value, usize) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(scenario);
    for seed in 1..=40 {
        let log = battle(&file, seed);
        assert!(audit(&file, &log).is_empty(), "the untouched log is clean");
        if let Some(i) = events(&log).iter().position(&pick) {
            return (file, log, i);
        }
    }
    panic!("no such event in 40 battles of {scenario}");
}

#[test]
fn a_d12_shot_needing_the_wrong_number_is_reported() {
    let (file, mut log, i) = find_event("d12-duel.ron", audit_d12, |e| {
        kind(e) == "attack"
            && e["weapon"]
                .as_str()
                .is_some_and(|w| w.contains("medium range"))
    });
    // Medium range needs 7 + defence; claim 4 + defence, as if it were short.
    let e = &mut log["events"][i];
    let need = e["roll"]["target"].as_i64().unwrap();
    let label = e["weapon"].as_str().unwrap().replace(
        &format!("medium range, needs {need}"),
        &format!("medium range, needs {}", need - 3),
    );
    e["weapon"] = label.into();
    e["roll"]["target"] = (need - 3).into();
    let found = audit_d12(&file, &log);
    assert!(
        found
            .iter()
            .any(|v| v.event == i && v.what.contains("Gunnery Difficulties")),
        "{found:?}"
    );
}

#[test]
fn d12_damage_that_skips_the_shields_is_reported() {
    let (file, mut log, i) = find_event("d12-duel.ron", audit_d12, |e| {
        kind(e) == "damage"
            && e["steps"]
                .as_array()
                .is_some_and(|s| s.iter().any(|x| x["label"] == "shields"))
    });
    let e = &mut log["events"][i];
    let steps = e["steps"].as_array_mut().unwrap();
    steps.retain(|x| x["label"] != "shields");
    let found = audit_d12(&file, &log);
    assert!(
        found
            .iter()
            .any(|v| v.event == i && v.what.contains("shields")),
        "{found:?}"
    );
}

#[test]
fn a_d12_second_die_without_cause_is_reported() {
    let (file, mut log, i) = find_event("d12-three-ships.ron", audit_d12, |e| {
        e["purpose"] == "piloting for range" && faces(&e["roll"]).len() == 2
    });
    // A second die rolled although the first was not under the modifiers.
    let roll = &mut log["events"][i]["roll"];
    let m = roll["modifiers"].as_array_mut().unwrap();
    m[0]["value"] = 0.into();
    let found = audit_d12(&file, &log);
    assert!(
        found
            .iter()
            .any(|v| v.event == i && v.what.contains("second die")),
        "{found:?}"
    );
}

// ----- SOCS ---------------------------------------------------------------------------------

/// The firepower levels in order ("FIREPOWER LEVELS").
const LEVELS: [&str; 5] = ["cosmetic", "light", "heavy", "great", "extreme"];

/// A weapon's firepower as its place in [`LEVELS`] (level 1 is place 0).
fn level_of(f: Firepower) -> usize {
    match f {
        Firepower::Cosmetic => 0,
        Firepower::Light => 1,
        Firepower::Heavy => 2,
        Firepower::Great => 3,
        Firepower::Extreme => 4,
    }
}

/// The size group of a class for "TO-HIT MODIFIERS" and the class restrictions: fighter 0,
/// cutter 1 (with shuttles and yachts), ship of the line 2 (with freighters), station 3,
/// planet 4 (sheet.rs decision for the unarmed types).
fn size_group(c: ShipClass) -> u8 {
    match c {
        ShipClass::Fighter => 0,
        ShipClass::Cutter | ShipClass::Shuttle | ShipClass::Yacht => 1,
        ShipClass::ShipOfTheLine | ShipClass::Freighter => 2,
        ShipClass::Station => 3,
        ShipClass::Planet => 4,
    }
}

/// "TO-HIT MODIFIERS": fighters +0, cutters +2, ships of the line +4, stations +6 (a
/// scenario's `size` replaces it: "Smaller targets: -1 or worse").
fn to_be_hit(c: &CraftStats) -> i64 {
    c.size.map(i64::from).unwrap_or(match size_group(c.class) {
        0 => 0,
        1 => 2,
        2 => 4,
        _ => 6,
    })
}

/// The class's word in the log.
fn class_word(c: ShipClass) -> &'static str {
    match c {
        ShipClass::Fighter => "fighter",
        ShipClass::Cutter => "cutter",
        ShipClass::ShipOfTheLine => "ship of the line",
        ShipClass::Station => "station",
        ShipClass::Planet => "planet",
        ShipClass::Shuttle => "shuttle",
        ShipClass::Yacht => "yacht",
        ShipClass::Freighter => "freighter",
    }
}

/// Every character of a craft: pilot, gunners, others aboard.
fn characters(c: &CraftStats) -> Vec<&Character> {
    std::iter::once(&c.pilot)
        .chain(c.weapons.iter().filter_map(|w| w.gunner.as_ref()))
        .chain(c.aboard.iter())
        .collect()
}

/// What the SOCS auditor follows of one craft.
struct SocsCraft {
    /// The stat block.
    stats: CraftStats,
    /// Damaged by a light hit ("initiates continuing damage").
    damaged: bool,
    /// Hit locations knocked out.
    locations_out: Vec<bool>,
}

/// Audits one SOCS battle (`log`) of scenario `file`, from the SOCS part of
/// `gurps-lite-and-socs.txt`:
/// - every 3d6 roll (gunnery, dodge, maneuvers, HT, perception) as a GURPS success roll
///   ("CRITICALS");
/// - gunnery ("FIRE PHASE"): the gunner's Gunner skill, the weapon's Acc, the Position
///   and Sustained Fire ABs (positive) or else the snap-shot −5, never both ("AIMING
///   BONUSES"), the target's to-be-hit by class ("TO-HIT MODIFIERS"; a scenario `size`
///   replaces it) or, for an aimed shot, 2 less (planets +6: sheet.rs decision); the
///   weapon's firepower in the label; a furball perception roll only after a snap shot;
/// - dodges ("FIRE PHASE"): Piloting/2 + MR, not against a critical hit, not by a cutter
///   against a fighter nor by a ship of the line against a fighter or cutter ("UNORTHODOX
///   TACTICS"); a dodge lowers the firepower one level;
/// - maneuver rolls ("MANEUVER PHASE"): Piloting + MR (Go Totally Defensive: Piloting);
///   HT rolls against the character's HT;
/// - firepower results ("FIREPOWER LEVELS", dogfight.rs decisions): an extreme hit on an
///   armoured craft counts as great; a light hit on a damaged craft is heavy (a craft with
///   hit locations: when the location the die picks is out or the last); a light hit
///   picks its location with a d(locations) and knocks it out; heavy destroys a fighter
///   and disables anything else; great and extreme vaporize; the damage event's levels.
pub fn audit_socs(file: &Path, log: &Value) -> Vec<Violation> {
    let prepared = skirmish::rules::builtin()
        .load(file)
        .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.render(false)));
    let mut crafts: Vec<SocsCraft> = prepared
        .units
        .iter()
        .map(|u| {
            let c = u.sheet::<Socs>().expect("a SOCS craft");
            SocsCraft {
                locations_out: vec![false; c.stats.locations.len()],
                stats: c.stats.clone(),
                damaged: false,
            }
        })
        .collect();
    let names = unit_names(log);
    let mut out = Vec::new();
    // Hits waiting for their damage: (attacker, target, firepower level after any dodge).
    let mut pending: Vec<(usize, usize, usize)> = Vec::new();
    // Each craft's last maneuver roll was a critical failure (THE FURBALL: a collision).
    let mut crashed: HashSet<usize> = HashSet::new();
    // A furball perception roll waiting for its snap shot: (gunner's craft, fires on a
    // friend, event).
    let mut perceived: Option<(usize, bool, usize)> = None;
    let mut late = Vec::new();
    let sides: Vec<u8> = prepared.units.iter().map(|u| u.side).collect();
    for (i, e) in events(log).iter().enumerate() {
        let mut bad = |what: String| out.push(Violation { event: i, what });
        let roll = &e["roll"];
        let t = e["target"].as_u64().unwrap_or(0) as usize;
        // A planet is hit automatically ("PLANETS"): nothing is rolled.
        let at_planet = kind(e) == "attack"
            && crafts
                .get(t)
                .is_some_and(|c| c.stats.class == ShipClass::Planet)
            && faces(roll).is_empty()
            && modifiers(roll).is_empty();
        if roll["sense"] == "Under" && !at_planet {
            for p in gurps_roll_problems(roll) {
                bad(format!("{}: {p} (CRITICALS)", kind(e)));
            }
        }
        let unit = e["unit"].as_u64().map(|u| u as usize);
        match kind(e) {
            "round_started" => pending.clear(),
            "note" => {
                let Some(u) = unit else { continue };
                let text = e["text"].as_str().unwrap_or("");
                if let Some(other) = text.strip_prefix("furball: collides with ") {
                    if !crashed.remove(&u) {
                        bad(format!(
                            "{} collides without a critical failure on Piloting (THE FURBALL)",
                            names[u]
                        ));
                    }
                    if let Some(o) = names.iter().position(|n| n == other) {
                        pending.push((o, u, 2));
                        pending.push((u, o, 2));
                    }
                } else if text == "already out of the fight"
                    && let Some(k) = pending.iter().position(|p| p.1 == u)
                {
                    pending.remove(k);
                }
            }
            "attack" => {
                let a = e["attacker"].as_u64().unwrap_or(0) as usize;
                let label = e["weapon"].as_str().unwrap_or("");
                let Some((wname, fp)) = label.rsplit_once(" (") else {
                    bad(format!("weapon label `{label}`"));
                    continue;
                };
                let fp = fp.trim_end_matches(')');
                let (me, them) = (&crafts[a].stats, &crafts[t].stats);
                let Some(w) = me.weapons.iter().find(|w| w.name == wname) else {
                    bad(format!("{} has no weapon {wname}", names[a]));
                    continue;
                };
                let want_fp = LEVELS[level_of(w.firepower)];
                if fp != want_fp {
                    bad(format!(
                        "{wname} is {want_fp}, the log says {fp} (FIREPOWER)"
                    ));
                }
                let mods = modifiers(roll);
                let snap = mods.iter().any(|(l, _)| l == "snap shot");
                if let Some((pu, friend, at)) = perceived.take()
                    && (pu != a || !snap || friend != (sides[a] == sides[t]))
                {
                    late.push(Violation {
                        event: at,
                        what: format!(
                            "a furball perception roll not followed by a snap shot of {} at \
                             {} a friend (THE FURBALL)",
                            names[pu],
                            if friend { "" } else { "other than" }
                        ),
                    });
                }
                if !mods.is_empty() {
                    let gunner = w.gunner.as_ref().unwrap_or(&me.pilot);
                    let mut want = vec![
                        (format!("{} Gunner", gunner.name), i64::from(gunner.gunner)),
                        ("Acc".to_string(), i64::from(w.acc)),
                    ];
                    let abs: Vec<&(String, i64)> = mods
                        .iter()
                        .filter(|(l, _)| l == "Position AB" || l == "Sustained Fire AB")
                        .collect();
                    if abs.iter().any(|(_, v)| *v <= 0) {
                        bad(format!("an aiming bonus of 0 or less: {abs:?}"));
                    }
                    if abs.is_empty() {
                        want.push(("snap shot".into(), -5));
                    }
                    want.extend(abs.iter().map(|x| (*x).clone()));
                    if let Some((l, v)) = mods.iter().find(|(l, _)| l.starts_with("aimed at the "))
                    {
                        let aimed = match them.class {
                            ShipClass::Fighter => None,
                            ShipClass::Planet => Some(6),
                            _ => Some(to_be_hit(them) - 2),
                        };
                        match aimed {
                            Some(x) => want.push((l.clone(), x)),
                            None => bad(format!("an aimed shot at a fighter ({l} {v})")),
                        }
                    } else {
                        let size = to_be_hit(them);
                        if size != 0 && them.class != ShipClass::Planet {
                            want.push((format!("{} to be hit", class_word(them.class)), size));
                        }
                    }
                    if let Some((_, g)) = mods.iter().find(|(l, _)| l == "GM") {
                        want.push(("GM".into(), *g));
                    }
                    for p in compare_labels(&mods, &want) {
                        bad(format!(
                            "{wname} at {}: {p} (FIRE PHASE, AIMING BONUSES, TO-HIT MODIFIERS)",
                            names[t]
                        ));
                    }
                }
                let critical = roll["critical"] == "Success" || e["result"] == "CriticalHit";
                let mut level = level_of(w.firepower);
                for d in e["defenses"].as_array().map_or(&[][..], |v| v.as_slice()) {
                    let dr = &d["roll"];
                    for p in gurps_roll_problems(dr) {
                        bad(format!("dodge: {p}"));
                    }
                    let want = vec![
                        (
                            format!("{} Piloting/2", them.pilot.name),
                            i64::from(them.pilot.piloting / 2),
                        ),
                        ("MR".to_string(), i64::from(them.mr)),
                    ];
                    for p in compare_labels(&modifiers(dr), &want) {
                        bad(format!("dodge by {}: {p} (FIRE PHASE)", names[t]));
                    }
                    let (gt, ga) = (size_group(them.class), size_group(me.class));
                    if critical || (gt == 1 && ga == 0) || (gt == 2 && ga <= 1) {
                        bad(format!(
                            "{} ({}) dodges a {} shot from a {} (UNORTHODOX TACTICS / critical \
                             hit)",
                            names[t],
                            class_word(them.class),
                            if critical { "critical" } else { "" },
                            class_word(me.class)
                        ));
                    }
                    if dr["success"] == true {
                        level = level.saturating_sub(1);
                    }
                }
                if e["result"] != "Miss" && them.class != ShipClass::Planet {
                    pending.push((a, t, level));
                }
            }
            "roll" => {
                let Some(u) = unit else { continue };
                let purpose = e["purpose"].as_str().unwrap_or("");
                let c = &crafts[u].stats;
                let mods = modifiers(roll);
                if purpose == "furball perception after a snap shot" {
                    // The gunner's perception, after a snap shot of this craft.
                    let ok = mods.len() == 1
                        && characters(c).iter().any(|ch| {
                            mods[0] == (format!("{} perception", ch.name), i64::from(ch.perception))
                        });
                    if !ok {
                        bad(format!("perception roll {mods:?} (THE FURBALL)"));
                    }
                    let friend = e["result"] == "fires on a friend";
                    // A failure with no friend of the gunner's side left fighting fires true,
                    // and says so.
                    let alone = e["result"] == "no friend left to hit: fires true";
                    if (alone && roll["success"] == true)
                        || (!alone && friend == (roll["success"] == true))
                    {
                        bad(format!(
                            "`{}` after a perception roll of success {}",
                            e["result"], roll["success"]
                        ));
                    }
                    perceived = Some((u, friend, i));
                } else if let Some(name) = purpose.strip_suffix(" survives the blast") {
                    let Some(ch) = crafts
                        .iter()
                        .flat_map(|k| characters(&k.stats))
                        .find(|ch| ch.name == name)
                    else {
                        bad(format!("{name} is aboard no craft"));
                        continue;
                    };
                    for p in compare_labels(&mods, &[(format!("{name} HT"), i64::from(ch.ht))]) {
                        bad(format!("HT roll: {p}"));
                    }
                } else {
                    if roll["critical"] == "Failure" {
                        crashed.insert(u);
                    }
                    // A maneuver: Piloting + MR (Go Totally Defensive: Piloting), and any
                    // GM or hazard modifier named after the maneuver.
                    let mut want = vec![(
                        format!("{} Piloting", c.pilot.name),
                        i64::from(c.pilot.piloting),
                    )];
                    if !purpose.contains("Totally") {
                        want.push(("MR".into(), i64::from(c.mr)));
                    }
                    for (l, v) in &mods {
                        if !want.iter().any(|(w, _)| w == l) {
                            want.push((l.clone(), *v));
                        }
                    }
                    for p in compare_labels(&mods, &want) {
                        bad(format!("{purpose}: {p} (MANEUVER PHASE)"));
                    }
                }
            }
            "damage" => {
                if crafts[t].stats.class == ShipClass::Planet {
                    continue;
                }
                let Some(mut level) = pending
                    .iter()
                    .position(|p| p.1 == t)
                    .map(|k| pending.remove(k).2)
                else {
                    bad("damage without a hit".into());
                    continue;
                };
                let k = &crafts[t];
                if level == 4 && k.stats.armor {
                    level = 3;
                }
                let located = k.stats.class != ShipClass::Fighter && !k.stats.locations.is_empty();
                let mut picked = None;
                // The notes after the damage tell the location die (light hits).
                // The hit's own notes: those right before it (back to the shot) and right
                // after it.
                let all = events(log);
                let is_note = |n: &&Value| kind(n) == "note";
                let before = all[..i].iter().rev().take_while(is_note);
                let after = all[i + 1..].iter().take_while(is_note);
                let notes: Vec<&str> = before
                    .chain(after)
                    .filter(|n| n["unit"].as_u64() == Some(t as u64))
                    .filter_map(|n| n["text"].as_str())
                    .collect();
                for n in &notes {
                    if let Some(rest) = n.split("hit location (").nth(1)
                        && let Some((how, rest)) = rest.split_once("): ")
                    {
                        let loc = rest.split([',', ';']).next().unwrap_or("");
                        let loc = loc.trim_end_matches(" knocked out");
                        let idx = k.stats.locations.iter().position(|l| l == loc);
                        if let Some(d) = how.strip_prefix('d') {
                            let (n, face) = d.split_once(" = ").unwrap_or(("0", "0"));
                            let (n, face): (usize, usize) =
                                (n.parse().unwrap_or(0), face.parse().unwrap_or(0));
                            if n != k.stats.locations.len()
                                || face < 1
                                || face > n
                                || idx != Some(face - 1)
                            {
                                bad(format!(
                                    "hit location `{how}` names {loc} of {:?} (HIT LOCATIONS)",
                                    k.stats.locations
                                ));
                            }
                        }
                        picked = picked.or(idx);
                    }
                }
                if level == 1 && k.damaged {
                    let heavy = if located {
                        picked.is_some_and(|p| {
                            k.locations_out[p]
                                || k.locations_out.iter().filter(|o| !**o).count() <= 1
                        })
                    } else {
                        true
                    };
                    if heavy {
                        level = 2;
                    }
                }
                let want = LEVELS[level];
                if faces(&e["roll"]) != vec![level as i64 + 1] {
                    bad(format!(
                        "firepower roll {:?} for level {}",
                        faces(&e["roll"]),
                        level + 1
                    ));
                }
                if e["damage_type"] != want {
                    bad(format!(
                        "{} damage to {}, the rule gives {want} (FIREPOWER LEVELS, dodge, \
                         continuing damage)",
                        e["damage_type"], names[t]
                    ));
                }
                let before = if k.damaged { 1 } else { 2 };
                let after = match level {
                    0 => before,
                    1 => 1,
                    _ => 0,
                };
                if e["hp_before"].as_i64() != Some(before) || e["hp_after"].as_i64() != Some(after)
                {
                    bad(format!(
                        "condition {} -> {}, the rule gives {before} -> {after}",
                        e["hp_before"], e["hp_after"]
                    ));
                }
                let fighter = k.stats.class == ShipClass::Fighter;
                let effect = match level {
                    0 => "paint blistered",
                    1 => "loses its next turn and its aiming bonuses; continuing damage",
                    2 if fighter => "destroyed",
                    2 => "completely disabled",
                    _ => "vaporized",
                };
                if !notes
                    .iter()
                    .any(|n| n.starts_with(&format!("{want} damage from ")) && n.contains(effect))
                {
                    bad(format!(
                        "the {want} hit on {} should read `{effect}` (FIREPOWER LEVELS)",
                        names[t]
                    ));
                }
                let k = &mut crafts[t];
                if level == 1 {
                    k.damaged = true;
                    if let Some(p) = picked {
                        k.locations_out[p] = true;
                    }
                }
            }
            _ => {}
        }
    }
    out.extend(late);
    out
}

#[test]
fn every_socs_roll_follows_the_rules() {
    audit_all("socs-", audit_socs);
}

#[test]
fn a_wrong_socs_to_be_hit_is_reported() {
    let (file, mut log, i) = find_event("socs-furball.ron", audit_socs, |e| {
        kind(e) == "attack"
            && modifiers(&e["roll"])
                .iter()
                .any(|(l, _)| l == "cutter to be hit")
    });
    // A cutter is +2 to be hit; claim a ship of the line's +4 under the cutter's label.
    let roll = &mut log["events"][i]["roll"];
    for m in roll["modifiers"].as_array_mut().unwrap() {
        if m["label"] == "cutter to be hit" {
            m["value"] = 4.into();
        }
    }
    roll["target"] = (roll["target"].as_i64().unwrap() + 2).into();
    roll["margin"] = (roll["margin"].as_i64().unwrap() + 2).into();
    let found = audit_socs(&file, &log);
    assert!(
        found
            .iter()
            .any(|v| v.event == i && v.what.contains("TO-HIT MODIFIERS")),
        "{found:?}"
    );
}

#[test]
fn a_snap_shot_with_an_aiming_bonus_is_reported() {
    let (file, mut log, i) = find_event("socs-dogfight.ron", audit_socs, |e| {
        kind(e) == "attack"
            && modifiers(&e["roll"])
                .iter()
                .any(|(l, _)| l == "Position AB")
    });
    let roll = &mut log["events"][i]["roll"];
    roll["modifiers"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"label": "snap shot", "value": -5}));
    roll["target"] = (roll["target"].as_i64().unwrap() - 5).into();
    roll["margin"] = (roll["margin"].as_i64().unwrap() - 5).into();
    let found = audit_socs(&file, &log);
    assert!(found.iter().any(|v| v.event == i), "{found:?}");
}

#[test]
fn a_socs_dodge_that_does_not_lower_the_firepower_is_reported() {
    let (file, mut log, i) = find_event("socs-furball.ron", audit_socs, |e| {
        kind(e) == "damage" && e["damage_type"] == "cosmetic" && e["hp_before"] == 2
    });
    // The dodged light hit logged as light.
    let e = &mut log["events"][i];
    e["damage_type"] = "light".into();
    e["hp_after"] = 1.into();
    let found = audit_socs(&file, &log);
    assert!(
        found
            .iter()
            .any(|v| v.event == i && v.what.contains("FIREPOWER LEVELS")),
        "{found:?}"
    );
}

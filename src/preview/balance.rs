//! `skirmish balance`: turns one documented knob of a side until its win rate is as near a
//! target as the knob allows, fighting a preview at each value over the same seeds, and
//! gives the scenario with the best value (written with [`scenario::to_ron`], the one
//! scenario writer).
//!
//! The knobs ([`Knob`]): `count`, the number of copies of each of the side's units (every
//! ruleset; a copy stands on the nearest free hex to its original, named "Name 2", "Name
//! 3"...), and `skill`, the side's main attack in steps of
//! [`Ruleset::stronger`](crate::scenario::Ruleset::stronger) (for every unit of the side),
//! and `hp`, the side's hit points in steps of
//! [`Ruleset::tougher`](crate::scenario::Ruleset::tougher) where the ruleset has them
//! (GURPS and Main Sequence NPCs: 2 HP; GURPS Traveller space and Main Sequence NPC ships:
//! a tenth of the hull).
//! The search starts from the scenario as written and walks one value at a time towards the
//! target while the side's win rate has not crossed it (win rates grow with either knob),
//! within [`COUNT_RANGE`] and [`SKILL_RANGE`].
//!
//! [`scenario::to_ron`]: crate::scenario::to_ron

use super::{PreviewConfig, Rate, run_preview};
use crate::scenario::{Prepared, ScenarioFile, validate};
use hexx::Hex;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a search cut short by a cancel says (its value is not counted).
pub const CANCELLED: &str = "cancelled";

/// The values `count` may take: copies of each unit.
pub const COUNT_RANGE: std::ops::RangeInclusive<i32> = 1..=8;
/// The values `skill` may take: steps weaker (negative) or stronger.
pub const SKILL_RANGE: std::ops::RangeInclusive<i32> = -5..=5;

/// What `balance` turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Knob {
    /// Copies of each of the side's units (1: as written).
    Count,
    /// Steps of the side's main attack (0: as written).
    Skill,
    /// Steps of the side's hit points (0: as written), where the ruleset has them.
    Hp,
}

impl Knob {
    /// The knob's value for the scenario as written.
    pub fn neutral(self) -> i32 {
        match self {
            Knob::Count => 1,
            Knob::Skill | Knob::Hp => 0,
        }
    }

    /// The knob's name on the command line (`--vary`) and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Knob::Count => "count",
            Knob::Skill => "skill",
            Knob::Hp => "hp",
        }
    }

    /// What the knob's values count, in words ("copies of each unit").
    pub fn words(self) -> &'static str {
        match self {
            Knob::Count => "copies of each unit",
            Knob::Skill => "steps of main attack",
            Knob::Hp => "steps of hit points",
        }
    }

    fn range(self) -> std::ops::RangeInclusive<i32> {
        match self {
            Knob::Count => COUNT_RANGE,
            Knob::Skill | Knob::Hp => SKILL_RANGE,
        }
    }
}

/// One value tried and the side's win rate with it.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// The knob's value.
    pub value: i32,
    /// The side's wins, with the 95% interval.
    pub win_rate: Rate,
}

/// The search and its result.
#[derive(Clone, Debug, Serialize)]
pub struct Balance {
    /// The side's id.
    pub side: String,
    /// The knob turned.
    pub knob: Knob,
    /// The win rate aimed at.
    pub target: f64,
    /// Battles per value.
    pub runs: u64,
    /// Base seed, the same for every value.
    pub seed: u64,
    /// Every value tried, in the order tried.
    pub steps: Vec<Step>,
    /// The value whose win rate came nearest the target (of the values fought to the end).
    pub best: Step,
    /// Why the search stopped short of crossing the target, if it did.
    pub stopped: Option<String>,
    /// The nearest win rate is within [`TOLERANCE`] of the target ([`within_tolerance`]).
    pub within_tolerance: bool,
    /// When it is not, a sentence saying so ([`note`]).
    pub note: Option<String>,
    /// The scenario with the best value.
    #[serde(skip)]
    pub file: ScenarioFile,
}

/// How near the target a balanced win rate should come (0.05: five percentage points);
/// when no value of the knob does, [`Balance::note`] says so.
pub const TOLERANCE: f64 = 0.05;

/// True when `rate` is within [`TOLERANCE`] of `target`, exactly five points off included
/// (550 wins of 1,000 against a target of 0.5: in floating point 0.55 − 0.5 is a hair over
/// 0.05).
pub fn within_tolerance(rate: f64, target: f64) -> bool {
    (rate - target).abs() <= TOLERANCE + 1e-9
}

/// For a search whose nearest win rate is not [`within_tolerance`] of `target`, a sentence
/// saying so, with the two neighbouring values `steps` tried whose win rates lie either
/// side of the target when there are such (one step of the knob is too coarse for it:
/// another knob may come nearer); without them when the search stopped first (see
/// [`Balance::stopped`]). `None` when the nearest is close enough.
pub fn note(steps: &[Step], target: f64, within: bool) -> Option<String> {
    if within {
        return None;
    }
    let pct = |rate: f64| format!("{:.1}%", 100.0 * rate);
    let mut text = format!(
        "No value came within {:.0} points of {}",
        100.0 * TOLERANCE,
        pct(target)
    );
    let mut tried: Vec<&Step> = steps.iter().collect();
    tried.sort_by_key(|s| s.value);
    let across = tried.windows(2).find(|w| {
        let (a, b) = (w[0].win_rate.rate, w[1].win_rate.rate);
        w[1].value == w[0].value + 1 && (a - target) * (b - target) <= 0.0
    });
    if let Some(w) = across {
        text.push_str(&format!(
            ": one step of this knob takes the win rate from {} ({}) to {} ({}), too coarse \
             for the target; another knob may come nearer",
            pct(w[0].win_rate.rate),
            w[0].value,
            pct(w[1].win_rate.rate),
            w[1].value,
        ));
    }
    text.push('.');
    Some(text)
}

/// `file` with the side's units each `copies` times (copies on the nearest free hexes of
/// `prepared`'s map).
fn with_copies(prepared: &Prepared, side: &str, copies: i32) -> Result<ScenarioFile, String> {
    let mut f = prepared.file.clone();
    let mut taken: Vec<Hex> = f.units.iter().map(|u| Hex::new(u.at.0, u.at.1)).collect();
    let originals: Vec<_> = f.units.iter().filter(|u| u.side == side).cloned().collect();
    for unit in originals {
        let home = Hex::new(unit.at.0, unit.at.1);
        for n in 2..=copies {
            let free = (1..=20u32)
                .flat_map(|r| home.ring(r))
                .find(|&h| prepared.map.move_cost(h).is_some() && !taken.contains(&h))
                .ok_or_else(|| format!("no free hex near {} for a copy", unit.name))?;
            taken.push(free);
            let mut copy = unit.clone();
            copy.name = format!("{} {n}", unit.name);
            copy.at = (free.x, free.y);
            f.units.push(copy);
        }
    }
    Ok(f)
}

/// `file` with every unit of the side turned `steps` steps by `turn`
/// ([`strengthen`](super::sensitivity::strengthen) for skill,
/// [`toughen`](super::sensitivity::toughen) for hit points).
fn with_each(
    prepared: &Prepared,
    side: &str,
    steps: i32,
    turn: fn(&mut ScenarioFile, usize, i32) -> Result<(), String>,
) -> Result<ScenarioFile, String> {
    let mut f = prepared.file.clone();
    for i in 0..f.units.len() {
        if f.units[i].side == side {
            turn(&mut f, i, steps)?;
        }
    }
    Ok(f)
}

/// The scenario with the knob at `value`, checked like any file.
fn variant(
    prepared: &Prepared,
    side: &str,
    knob: Knob,
    value: i32,
) -> Result<(ScenarioFile, Prepared), String> {
    let file = match knob {
        Knob::Count => with_copies(prepared, side, value)?,
        Knob::Skill => with_each(prepared, side, value, super::sensitivity::strengthen)?,
        Knob::Hp => with_each(prepared, side, value, super::sensitivity::toughen)?,
    };
    let checked = validate(file.clone()).map_err(|problems| {
        problems.first().map_or_else(String::new, |p| {
            format!("the scenario would not be valid: {}: {}", p.path, p.message)
        })
    })?;
    Ok((file, checked))
}

/// Searches `knob` for the value that brings side `side`'s win rate nearest `target`, a
/// preview of `config.runs` battles at each value. `progress` gets the value being tried
/// and the battles finished of it. Errors: a side that does not exist, a knob the ruleset
/// or the side's stat blocks cannot turn.
pub fn balance(
    prepared: &Arc<Prepared>,
    (side, knob, target): (&str, Knob, f64),
    config: PreviewConfig,
    progress: &(dyn Fn(i32, u64) + Sync),
    cancel: &AtomicBool,
) -> Result<Balance, String> {
    let index = prepared
        .sides
        .iter()
        .position(|s| s.id == side)
        .ok_or_else(|| {
            let ids: Vec<&str> = prepared.sides.iter().map(|s| s.id.as_str()).collect();
            format!("no side `{side}`: the sides are {}", ids.join(", "))
        })?;
    let rate_at = |value: i32| -> Result<(Step, ScenarioFile), String> {
        let (file, checked) = variant(prepared, side, knob, value)?;
        let report = run_preview(Arc::new(checked), config, &|n| progress(value, n), cancel);
        if report.cancelled {
            return Err(CANCELLED.to_string());
        }
        Ok((
            Step {
                value,
                win_rate: report.sides[index].wins,
            },
            file,
        ))
    };
    let start = knob.neutral();
    let (first, file) = rate_at(start)?;
    let up = first.win_rate.rate < target;
    let mut best = (first.clone(), file);
    let mut steps = vec![first];
    let mut stopped = None;
    let mut value = start;
    loop {
        let last = steps.last().map_or(0.0, |s| s.win_rate.rate);
        if (up && last >= target) || (!up && last <= target) {
            break;
        }
        if cancel.load(Ordering::Relaxed) {
            stopped = Some(CANCELLED.into());
            break;
        }
        value += if up { 1 } else { -1 };
        if !knob.range().contains(&value) {
            stopped = Some(format!(
                "the knob's limit ({} to {}) was reached first",
                knob.range().start(),
                knob.range().end()
            ));
            break;
        }
        match rate_at(value) {
            Ok((step, file)) => {
                if (step.win_rate.rate - target).abs() < (best.0.win_rate.rate - target).abs() {
                    best = (step.clone(), file);
                }
                steps.push(step);
            }
            Err(why) if why == CANCELLED => {
                stopped = Some(why);
                break;
            }
            Err(why) => {
                stopped = Some(format!("{value}: {why}"));
                break;
            }
        }
    }
    let within = within_tolerance(best.0.win_rate.rate, target);
    Ok(Balance {
        side: side.to_string(),
        knob,
        target,
        runs: config.runs,
        seed: config.seed,
        within_tolerance: within,
        note: note(&steps, target, within),
        steps,
        best: best.0,
        stopped,
        file: best.1,
    })
}

impl Balance {
    /// The search as text: each value with the side's win rate and its interval, then the
    /// best.
    pub fn to_text(&self, side_name: &str) -> String {
        use std::fmt::Write;
        let knob = self.knob.words();
        let mut s = format!(
            "Balancing {side_name} ({}) for a win rate of {:.1}%, {} battles per value from \
             seed {}\n  {:>5}  {:>8}  95% interval\n",
            self.side,
            100.0 * self.target,
            self.runs,
            self.seed,
            "value",
            "win rate"
        );
        for step in &self.steps {
            let r = &step.win_rate;
            let _ = writeln!(
                s,
                "  {:>5}  {:>7.1}%  {:.1}% to {:.1}%{}",
                step.value,
                100.0 * r.rate,
                100.0 * r.low,
                100.0 * r.high,
                if step.value == self.best.value {
                    "  <- nearest"
                } else {
                    ""
                }
            );
        }
        if let Some(why) = &self.stopped {
            let _ = writeln!(s, "Stopped: {why}.");
        }
        let _ = writeln!(
            s,
            "Best: {} {knob} ({}), win rate {:.1}%",
            self.best.value,
            match (self.knob, self.best.value) {
                (Knob::Count, 1) | (Knob::Skill | Knob::Hp, 0) => "as written",
                _ => "changed",
            },
            100.0 * self.best.win_rate.rate
        );
        if let Some(note) = &self.note {
            let _ = writeln!(s, "{note}");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::tests::shipped as load;

    /// Three copies of each of the patrol's riflemen: nine units on free hexes near the
    /// originals, named after them, a valid scenario.
    #[test]
    fn copies_stand_on_free_hexes_near_their_originals() {
        let farm = load("gurps-skirmish-3v3.ron");
        let (file, checked) = variant(&farm, "patrol", Knob::Count, 3).expect("valid");
        let patrol: Vec<_> = file.units.iter().filter(|u| u.side == "patrol").collect();
        assert_eq!(patrol.len(), 9);
        assert_eq!(checked.units.len(), 12);
        let okafor = Hex::new(1, 2);
        for name in ["Sgt. Okafor 2", "Sgt. Okafor 3"] {
            let u = patrol.iter().find(|u| u.name == name).expect(name);
            assert!(
                Hex::new(u.at.0, u.at.1).unsigned_distance_to(okafor) <= 2,
                "{name}"
            );
        }
        let mut hexes: Vec<(i32, i32)> = file.units.iter().map(|u| u.at).collect();
        hexes.sort_unstable();
        hexes.dedup();
        assert_eq!(hexes.len(), 12, "every unit on a hex of its own");
    }

    /// The duel's Aldric against the knight: as written he wins some; the search for 90%
    /// adds copies until the rate crosses it, every value's rate is a preview's, and the
    /// best is the nearest to the target.
    #[test]
    fn copies_raise_a_sides_win_rate_to_the_target() {
        let duel = load("gurps-duel.ron");
        let config = PreviewConfig {
            runs: 60,
            seed: 4,
            threads: 2,
        };
        let never = AtomicBool::new(false);
        let b = balance(&duel, ("red", Knob::Count, 0.9), config, &|_, _| {}, &never)
            .expect("balanced");
        assert_eq!(b.steps[0].value, 1);
        assert!(b.steps.len() >= 2, "{:?}", b.steps);
        let last = b.steps.last().expect("a step").win_rate.rate;
        assert!(last >= 0.9 || b.stopped.is_some(), "{b:?}");
        let nearest = b
            .steps
            .iter()
            .map(|s| (s.win_rate.rate - 0.9).abs())
            .fold(f64::MAX, f64::min);
        assert_eq!((b.best.win_rate.rate - 0.9).abs(), nearest);
        let again = run_preview(
            Arc::new(validate(b.file.clone()).expect("valid")),
            config,
            &|_| {},
            &never,
        );
        assert_eq!(again.sides[0].wins.rate, b.best.win_rate.rate);
        let err = balance(
            &duel,
            ("green", Knob::Count, 0.5),
            config,
            &|_, _| {},
            &never,
        )
        .expect_err("no such side");
        assert_eq!(err, "no side `green`: the sides are red, blue");
    }

    /// A knob too coarse for the target: Aldric's main attack as written wins him about
    /// 40% of the duel and one step more about 56%, so no value comes within five points
    /// of 50%, and the result says so, naming the two values either side; with a target
    /// the nearest value does come within five points of, there is no such sentence.
    #[test]
    fn a_knob_too_coarse_for_the_target_is_said_to_be() {
        let duel = load("gurps-duel.ron");
        let config = PreviewConfig {
            runs: 400,
            seed: 4,
            threads: 2,
        };
        let never = AtomicBool::new(false);
        let b = balance(&duel, ("red", Knob::Skill, 0.5), config, &|_, _| {}, &never)
            .expect("balanced");
        let rates: Vec<(i32, f64)> = b.steps.iter().map(|s| (s.value, s.win_rate.rate)).collect();
        assert_eq!(rates.len(), 2, "{rates:?}");
        assert!(rates[0].1 < 0.45 && rates[1].1 > 0.55, "{rates:?}");
        assert!(!b.within_tolerance);
        let text = b.note.clone().expect("too coarse");
        assert!(
            text.starts_with("No value came within 5 points of 50.0%"),
            "{text}"
        );
        assert!(text.contains("(0) to"), "{text}");
        assert!(text.contains("(1), too coarse"), "{text}");
        assert!(b.to_text("Sir Aldric").contains(&text));
        let near = b.best.win_rate.rate + TOLERANCE / 2.0;
        assert!(within_tolerance(b.best.win_rate.rate, near));
        assert_eq!(
            note(&b.steps, near, within_tolerance(b.best.win_rate.rate, near)),
            None
        );
        // Stopped short (one value only): the sentence without the values either side.
        assert_eq!(
            note(&b.steps[..1], 0.9, false).as_deref(),
            Some("No value came within 5 points of 90.0%.")
        );
    }

    /// Exactly five points off is within the tolerance, on either side of the target, as
    /// whole battles give it (550 or 450 wins of 1,000 for 50%; 700 or 800 for 75%); a
    /// battle more is not.
    #[test]
    fn five_points_off_is_within_the_tolerance() {
        for (wins, target) in [(550, 0.5), (450, 0.5), (700, 0.75), (800, 0.75)] {
            assert!(
                within_tolerance(f64::from(wins) / 1000.0, target),
                "{wins} {target}"
            );
        }
        for (wins, target) in [(551, 0.5), (449, 0.5), (699, 0.75), (801, 0.75)] {
            assert!(
                !within_tolerance(f64::from(wins) / 1000.0, target),
                "{wins} {target}"
            );
        }
    }

    /// `--vary hp` (issue 25, item 3): two steps give each of the duel's red units 4 HP
    /// over its ST-based 12 (gurps-lite-and-socs.txt, "LOST HIT POINTS"), a Traveller hull
    /// a tenth more a step, and a ruleset without hit points to turn is refused by name.
    /// The search for 75% walks up from as written and keeps a rate that grows.
    #[test]
    fn hit_points_are_a_knob_where_the_ruleset_has_them() {
        let duel = load("gurps-duel.ron");
        let (file, _) = variant(&duel, "red", Knob::Hp, 2).expect("valid");
        let aldric = file.units[0].stats_in(&file).expect("a block");
        let text = crate::scenario::fields(aldric).expect("fields");
        assert!(text.iter().any(|(n, v)| n == "hp" && v == "16"), "{text:?}");
        let (weaker, _) = variant(&duel, "red", Knob::Hp, -1).expect("valid");
        let text = crate::scenario::fields(weaker.units[0].stats_in(&weaker).expect("a block"))
            .expect("fields");
        assert!(text.iter().any(|(n, v)| n == "hp" && v == "10"), "{text:?}");

        let merchant = load("traveller-merchant-raider.ron");
        let (file, _) = variant(&merchant, "traders", Knob::Hp, 1).expect("valid");
        let beowulf = file.units[0].stats_in(&file).expect("a block");
        let text = crate::scenario::fields(beowulf).expect("fields");
        assert!(
            text.iter().any(|(n, v)| n == "hp" && v == "3300"),
            "{text:?}"
        );

        // Main Sequence: the corridor's guards are NPCs (Soldier 4: 10 HP, one step 12);
        // its crew are player characters, whose Hit Points the creation rules fix.
        let corridor = load("ms-corridor.ron");
        let (file, _) = variant(&corridor, "guards", Knob::Hp, 1).expect("valid");
        let guard = file
            .units
            .iter()
            .find(|u| u.side == "guards")
            .expect("a guard");
        let text = crate::scenario::fields(guard.stats_in(&file).expect("a block")).expect("f");
        assert!(text.iter().any(|(n, v)| n == "hp" && v == "12"), "{text:?}");
        let err = variant(&corridor, "crew", Knob::Hp, 1).expect_err("player characters");
        assert!(
            err.contains("no hit points to change (main-sequence)"),
            "{err}"
        );

        let d12 = load("d12-duel.ron");
        let err = variant(&d12, "patrol", Knob::Hp, 1).expect_err("no hit points");
        assert!(
            err.contains("has no hit points to change (starship-d12)"),
            "{err}"
        );

        let config = PreviewConfig {
            runs: 60,
            seed: 4,
            threads: 2,
        };
        let never = AtomicBool::new(false);
        let b =
            balance(&duel, ("red", Knob::Hp, 0.75), config, &|_, _| {}, &never).expect("balanced");
        assert_eq!(b.steps[0].value, 0);
        // Red wins less than 75% as written, so the search walks up a step at a time, and
        // stops at the first value that reaches the target (or the knob's limit).
        assert!(b.steps[0].win_rate.rate < 0.75, "{:?}", b.steps);
        assert!(b.steps.len() >= 2, "{:?}", b.steps);
        for (i, step) in b.steps.iter().enumerate() {
            assert_eq!(step.value, i as i32, "{:?}", b.steps);
        }
        let last = b.steps.last().map_or(0.0, |s| s.win_rate.rate);
        assert!(last >= 0.75 || b.stopped.is_some(), "{:?}", b.steps);
        // It stopped at the first value that reached it: the ones before are all under.
        let before_last = &b.steps[..b.steps.len() - 1];
        assert!(
            before_last.iter().all(|s| s.win_rate.rate < 0.75),
            "{:?}",
            b.steps
        );
        let nearest = b
            .steps
            .iter()
            .map(|s| (s.win_rate.rate - 0.75).abs())
            .fold(f64::MAX, f64::min);
        assert_eq!((b.best.win_rate.rate - 0.75).abs(), nearest);
    }
}

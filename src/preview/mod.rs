//! Battle preview: fights a scenario many times headless and reports who wins, how often
//! (with a 95% interval) and how fast, casualties, and what each combatant did.
//!
//! Battle `i` always uses the seed [`derive_seed`]`(seed, i)`, so the report is the same
//! whatever the number of threads. Each thread reuses one [`Session`] (one bevy `World` and
//! schedule), resetting it between battles, and keeps no log text.

pub mod balance;
pub mod compare;
pub mod sensitivity;

use crate::battle::{DrawReason, OutcomeKind, Standing, UnitTally};
use crate::dice::derive_seed;
use crate::scenario::Prepared;
use crate::session::{Session, SessionOptions};
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What to run.
#[derive(Clone, Copy, Debug)]
pub struct PreviewConfig {
    /// Number of battles.
    pub runs: u64,
    /// Base seed; battle `i` uses `derive_seed(seed, i)`.
    pub seed: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
}

/// Totals over the battles one worker fought.
#[derive(Clone, Debug, Default)]
struct Totals {
    battles: u64,
    wins: Vec<u64>,
    draws: u64,
    /// Draws by [`DrawReason::index`].
    draw_reasons: [u64; DrawReason::ALL.len()],
    /// Battles by length in rounds (index = rounds), so memory does not grow with runs.
    rounds: Vec<u64>,
    /// Unit turns begun, summed over battles.
    turns: u64,
    casualties: Vec<u64>,
    /// Per side, units that escaped (or fled), summed over battles.
    escapes: Vec<u64>,
    /// Per side, battles by the number of that side's casualties (index = casualties).
    casualty_counts: Vec<Vec<u64>>,
    units: Vec<UnitTotals>,
}

#[derive(Clone, Copy, Debug, Default)]
struct UnitTotals {
    attacks: u64,
    hits: u64,
    damage: i64,
    alive: u64,
    fighting: u64,
}

impl Totals {
    fn new(sides: usize, units: usize) -> Self {
        Self {
            wins: vec![0; sides],
            casualties: vec![0; sides],
            escapes: vec![0; sides],
            casualty_counts: vec![Vec::new(); sides],
            units: vec![UnitTotals::default(); units],
            ..Default::default()
        }
    }

    fn add(
        &mut self,
        outcome: Option<OutcomeKind>,
        rounds: u32,
        tallies: &[UnitTally],
        standing: &[Standing],
        unit_sides: &[u8],
    ) {
        self.battles += 1;
        match outcome {
            Some(OutcomeKind::Victory { side }) => {
                if let Some(w) = self.wins.get_mut(usize::from(side)) {
                    *w += 1;
                }
            }
            Some(OutcomeKind::Draw { reason }) => {
                self.draws += 1;
                self.draw_reasons[reason.index()] += 1;
            }
            None => self.draws += 1,
        }
        let r = rounds as usize;
        if self.rounds.len() <= r {
            self.rounds.resize(r + 1, 0);
        }
        self.rounds[r] += 1;
        let mut fallen = vec![0usize; self.casualties.len()];
        for (i, u) in self.units.iter_mut().enumerate() {
            let t = tallies.get(i).copied().unwrap_or_default();
            self.turns += u64::from(t.turns);
            u.attacks += u64::from(t.attacks);
            u.hits += u64::from(t.hits);
            u.damage += t.damage_dealt;
            let s = standing.get(i).copied().unwrap_or(Standing::Dead);
            if !s.lost() {
                u.alive += 1;
            }
            if s == Standing::Escaped
                && let Some(e) = unit_sides
                    .get(i)
                    .and_then(|&side| self.escapes.get_mut(usize::from(side)))
            {
                *e += 1;
            }
            if s.fighting() {
                u.fighting += 1;
            } else if casualty(s)
                && let Some(c) = unit_sides
                    .get(i)
                    .and_then(|&side| self.casualties.get_mut(usize::from(side)))
            {
                *c += 1;
                if let Some(f) = unit_sides
                    .get(i)
                    .and_then(|&side| fallen.get_mut(usize::from(side)))
                {
                    *f += 1;
                }
            }
        }
        for (counts, n) in self.casualty_counts.iter_mut().zip(fallen) {
            if counts.len() <= n {
                counts.resize(n + 1, 0);
            }
            counts[n] += 1;
        }
    }

    fn merge(&mut self, other: Totals) {
        self.battles += other.battles;
        self.turns += other.turns;
        self.draws += other.draws;
        for (a, b) in self.draw_reasons.iter_mut().zip(other.draw_reasons) {
            *a += b;
        }
        for (a, b) in self.wins.iter_mut().zip(other.wins) {
            *a += b;
        }
        for (a, b) in self.casualties.iter_mut().zip(other.casualties) {
            *a += b;
        }
        for (a, b) in self.escapes.iter_mut().zip(other.escapes) {
            *a += b;
        }
        if self.rounds.len() < other.rounds.len() {
            self.rounds.resize(other.rounds.len(), 0);
        }
        for (a, b) in self.rounds.iter_mut().zip(other.rounds) {
            *a += b;
        }
        for (mine, theirs) in self.casualty_counts.iter_mut().zip(other.casualty_counts) {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        for (a, b) in self.units.iter_mut().zip(other.units) {
            a.attacks += b.attacks;
            a.hits += b.hits;
            a.damage += b.damage;
            a.alive += b.alive;
            a.fighting += b.fighting;
        }
    }
}

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rate {
    /// Count.
    pub count: u64,
    /// Proportion of the battles.
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Rate {
    /// `count` out of `n`, with the Wilson score interval at 95% (z = 1.96).
    pub fn wilson(count: u64, n: u64) -> Self {
        if n == 0 {
            return Self {
                count,
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let z = 1.959_963_984_540_054_f64;
        let n_f = n as f64;
        let p = count as f64 / n_f;
        let denom = 1.0 + z * z / n_f;
        let centre = (p + z * z / (2.0 * n_f)) / denom;
        let half = z * ((p * (1.0 - p) / n_f) + z * z / (4.0 * n_f * n_f)).sqrt() / denom;
        Self {
            count,
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

/// One side's results.
#[derive(Clone, Debug, Serialize)]
pub struct SideReport {
    /// Side id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Battles won.
    pub wins: Rate,
    /// Units on the side.
    pub units: usize,
    /// Mean number of its units dead or unconscious at the end.
    pub casualties_mean: f64,
    /// Mean number of its units that escaped or fled the battle (counted apart from
    /// casualties).
    pub escapes_mean: f64,
    /// Battles by the number of its units dead or unconscious at the end (index =
    /// casualties).
    pub casualties_histogram: Vec<u64>,
}

/// Distribution of battle lengths in rounds.
#[derive(Clone, Debug, Serialize)]
pub struct RoundStats {
    /// Mean.
    pub mean: f64,
    /// 10th percentile.
    pub p10: u32,
    /// Median.
    pub p50: u32,
    /// 90th percentile.
    pub p90: u32,
    /// Longest.
    pub max: u32,
    /// Battles by length (index = rounds).
    pub histogram: Vec<u64>,
}

/// One combatant's results, as means per battle.
#[derive(Clone, Debug, Serialize)]
pub struct UnitReport {
    /// Name.
    pub name: String,
    /// Side id.
    pub side: String,
    /// Attacks made per battle.
    pub attacks: f64,
    /// Hits (not missed, not defended) per battle.
    pub hits: f64,
    /// Injury dealt per battle.
    pub damage: f64,
    /// Share of battles it survived (not dead).
    pub survival: f64,
    /// Share of battles it ended still fighting.
    pub standing: f64,
}

/// What a preview or a balance cancelled before any battle was fought to the end says
/// instead of a result.
pub const NOTHING_FOUGHT: &str = "cancelled before any battle was fought to the end";

/// Pairs (reason, count) as a JSON object, in their order.
fn reasons_as_object<S: serde::Serializer>(
    reasons: &[(String, u64)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(reasons.iter().map(|(why, n)| (why, n)))
}

/// The preview's results.
#[derive(Clone, Debug, Serialize)]
pub struct PreviewReport {
    /// Scenario name.
    pub scenario: String,
    /// Ruleset id.
    pub ruleset: String,
    /// Battles fought.
    pub runs: u64,
    /// Base seed.
    pub seed: u64,
    /// Threads used.
    pub threads: usize,
    /// Per side.
    pub sides: Vec<SideReport>,
    /// Draws.
    pub draws: Rate,
    /// Draws by reason, in words ([`DrawReason`]'s `Display`), with how many battles ended so;
    /// reasons no battle ended by are left out. In JSON an object by reason, as `compare`
    /// writes it.
    #[serde(serialize_with = "reasons_as_object")]
    pub draws_by_reason: Vec<(String, u64)>,
    /// Battle length.
    pub rounds: RoundStats,
    /// Unit turns begun per battle, the mean (0 for a ruleset that logs no turns: GURPS
    /// Traveller plays in phases); `bench/preview.sh` divides the time by it.
    pub unit_turns: f64,
    /// Per combatant.
    pub units: Vec<UnitReport>,
    /// Wall time in seconds.
    pub seconds: f64,
    /// True if cancelled before all battles were fought (`runs` says how many were).
    pub cancelled: bool,
}

/// The `p` quantile (nearest rank) of battle lengths given as a histogram by rounds.
fn percentile(histogram: &[u64], p: f64) -> u32 {
    let total: u64 = histogram.iter().sum();
    if total == 0 {
        return 0;
    }
    let rank = ((p * total as f64).ceil() as u64).clamp(1, total);
    let mut seen = 0;
    for (rounds, &count) in histogram.iter().enumerate() {
        seen += count;
        if seen >= rank {
            return rounds as u32;
        }
    }
    (histogram.len() - 1) as u32
}

/// Fights `config.runs` battles of `prepared` on `config.threads` threads. `progress` is
/// called from the workers with the number of battles finished so far; `cancel` stops the
/// work early when set (the report then covers the battles finished).
pub fn run_preview(
    prepared: Arc<Prepared>,
    config: PreviewConfig,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
) -> PreviewReport {
    run_preview_from(
        prepared,
        config,
        &|session, seed| session.reset(seed),
        progress,
        cancel,
    )
}

/// Like [`run_preview`], but each battle starts where `start` puts it: `start` gets a
/// session and the battle's seed and must leave the session ready to run with the AI
/// playing every side (e.g. replay the decisions of a battle in progress, then reseed the
/// dice). [`run_preview`] starts each battle from the scenario.
pub fn run_preview_from(
    prepared: Arc<Prepared>,
    config: PreviewConfig,
    start: &(dyn Fn(&mut Session, u64) + Sync),
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
) -> PreviewReport {
    run_battles(prepared, (config, 0), start, progress, cancel, &|_| {})
}

/// How one battle of a preview ended (`preview --per-battle`, `compare`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BattleResult {
    /// The battle's number in the preview, from 0.
    pub index: u64,
    /// Its dice seed (`skirmish run FILE --seed` with it fights the same battle).
    pub seed: u64,
    /// How it ended (`None`: cut off by the step cap; the preview counts it a draw, the
    /// battle list says "unfinished").
    pub outcome: Option<OutcomeKind>,
    /// Rounds fought.
    pub rounds: u32,
    /// Per side, its units dead, unconscious, disabled or destroyed at the end (not those
    /// that escaped or surrendered).
    pub casualties: Vec<u32>,
}

impl BattleResult {
    /// The winning side, if one won.
    pub fn winner(&self) -> Option<u8> {
        match self.outcome {
            Some(OutcomeKind::Victory { side }) => Some(side),
            _ => None,
        }
    }
}

/// A unit's standing counts as a casualty: out of the fight, not by escaping or giving up.
fn casualty(standing: Standing) -> bool {
    !standing.fighting() && !matches!(standing, Standing::Escaped | Standing::Surrendered)
}

/// [`run_preview_from`] for battles `first` to `first + config.runs - 1` (each with its
/// own seed, `derive_seed(config.seed, i)`), and `each` gets every battle's
/// [`BattleResult`] as it ends (from the worker threads, in no particular order: sort by
/// `index`).
pub fn run_battles(
    prepared: Arc<Prepared>,
    (config, first): (PreviewConfig, u64),
    start: &(dyn Fn(&mut Session, u64) + Sync),
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
    each: &(dyn Fn(BattleResult) + Sync),
) -> PreviewReport {
    let began = std::time::Instant::now();
    // No more threads than battles: a thread with none to fight would only build a world.
    let threads = config
        .threads
        .clamp(1, usize::try_from(config.runs).unwrap_or(usize::MAX).max(1));
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let unit_sides: Vec<u8> = prepared.units.iter().map(|u| u.side).collect();
    let sides = prepared.sides.len();
    let units = prepared.units.len();
    let options = SessionOptions::PREVIEW;
    let mut totals = Totals::new(sides, units);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let prepared = prepared.clone();
                let (next, done, unit_sides) = (&next, &done, &unit_sides);
                scope.spawn(move || {
                    let mut totals = Totals::new(sides, units);
                    let mut session = Session::new(prepared, 0, options);
                    loop {
                        if cancel.load(Ordering::Relaxed) {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= config.runs {
                            break;
                        }
                        let i = first + i;
                        let seed = derive_seed(config.seed, i);
                        start(&mut session, seed);
                        let outcome = session.run();
                        let rounds = session.round();
                        let standing = session.standings();
                        let tallies = &session.world.resource::<crate::battle::BattleStats>().units;
                        totals.add(outcome, rounds, tallies, &standing, unit_sides);
                        let mut casualties = vec![0; sides];
                        for (&s, &side) in standing.iter().zip(unit_sides) {
                            if casualty(s)
                                && let Some(c) = casualties.get_mut(usize::from(side))
                            {
                                *c += 1;
                            }
                        }
                        each(BattleResult {
                            index: i,
                            seed,
                            outcome,
                            rounds,
                            casualties,
                        });
                        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if finished % 64 == 0 || finished == config.runs {
                            progress(finished);
                        }
                    }
                    totals
                })
            })
            .collect();
        for w in workers {
            if let Ok(t) = w.join() {
                totals.merge(t);
            }
        }
    });
    report(
        &prepared,
        config,
        threads,
        totals,
        began.elapsed().as_secs_f64(),
        cancel.load(Ordering::Relaxed),
    )
}

fn report(
    prepared: &Prepared,
    config: PreviewConfig,
    threads: usize,
    totals: Totals,
    seconds: f64,
    cancelled: bool,
) -> PreviewReport {
    let n = totals.battles;
    let per = |x: f64| if n == 0 { 0.0 } else { x / n as f64 };
    let rounds = RoundStats {
        mean: per(totals
            .rounds
            .iter()
            .enumerate()
            .map(|(r, &n)| r as f64 * n as f64)
            .sum()),
        p10: percentile(&totals.rounds, 0.10),
        p50: percentile(&totals.rounds, 0.50),
        p90: percentile(&totals.rounds, 0.90),
        max: totals.rounds.iter().rposition(|&n| n > 0).unwrap_or(0) as u32,
        histogram: totals.rounds.clone(),
    };
    let sides = prepared
        .sides
        .iter()
        .enumerate()
        .map(|(i, s)| SideReport {
            id: s.id.clone(),
            name: s.name.clone(),
            wins: Rate::wilson(totals.wins[i], n),
            units: prepared
                .units
                .iter()
                .filter(|u| usize::from(u.side) == i)
                .count(),
            casualties_mean: per(totals.casualties[i] as f64),
            escapes_mean: per(totals.escapes[i] as f64),
            casualties_histogram: totals.casualty_counts[i].clone(),
        })
        .collect();
    let units = prepared
        .units
        .iter()
        .zip(&totals.units)
        .map(|(u, t)| UnitReport {
            name: u.name.clone(),
            side: prepared.sides[usize::from(u.side)].id.clone(),
            attacks: per(t.attacks as f64),
            hits: per(t.hits as f64),
            damage: per(t.damage as f64),
            survival: per(t.alive as f64),
            standing: per(t.fighting as f64),
        })
        .collect();
    PreviewReport {
        scenario: prepared.name.clone(),
        ruleset: prepared.ruleset.to_string(),
        runs: n,
        seed: config.seed,
        threads,
        sides,
        draws: Rate::wilson(totals.draws, n),
        draws_by_reason: DrawReason::ALL
            .iter()
            .filter(|r| totals.draw_reasons[r.index()] > 0)
            .map(|r| (r.to_string(), totals.draw_reasons[r.index()]))
            .collect(),
        rounds,
        unit_turns: per(totals.turns as f64),
        units,
        seconds,
        cancelled,
    }
}

/// Every battle of a preview as text (`preview --per-battle`): its number, its seed (for
/// `skirmish run FILE --seed`), how it ended and each side's casualties.
pub fn battle_lines(prepared: &Prepared, battles: &[BattleResult]) -> String {
    use std::fmt::Write;
    let sides: Vec<&str> = prepared.sides.iter().map(|s| s.id.as_str()).collect();
    let mut s = format!(
        "\nEach battle\n  {:>7}  {:>20}  {:<40}  casualties ({})\n",
        "battle",
        "seed",
        "outcome",
        sides.join(", ")
    );
    for b in battles {
        let fallen: Vec<String> = b.casualties.iter().map(u32::to_string).collect();
        let _ = writeln!(
            s,
            "  {:>7}  {:>20}  {:<40}  {}",
            b.index,
            b.seed,
            crate::report::outcome_text(prepared, b.outcome, b.rounds),
            fallen.join(", ")
        );
    }
    s
}

impl PreviewReport {
    /// The report as text for a terminal.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let _ = writeln!(
            s,
            "{} ({}): {} battles, seed {}, {} thread{}, {:.2} s{}",
            self.scenario,
            self.ruleset,
            self.runs,
            self.seed,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.seconds,
            if self.cancelled { " (cancelled)" } else { "" }
        );
        let _ = writeln!(s, "\nWin rate (95% interval)");
        let width = self
            .sides
            .iter()
            .map(|x| x.name.len())
            .max()
            .unwrap_or(5)
            .max(5);
        for side in &self.sides {
            let _ = writeln!(
                s,
                "  {:<width$}  {:>6}  ({} to {})",
                side.name,
                pct(side.wins.rate),
                pct(side.wins.low),
                pct(side.wins.high)
            );
        }
        let _ = writeln!(
            s,
            "  {:<width$}  {:>6}  ({} to {})",
            "draws",
            pct(self.draws.rate),
            pct(self.draws.low),
            pct(self.draws.high)
        );
        for (why, count) in &self.draws_by_reason {
            let _ = writeln!(s, "  {:<width$}    {count} by {why}", "");
        }
        let r = &self.rounds;
        // A ruleset that starts no unit turns (Traveller's ships act in phases) has none
        // to show.
        let turns = if self.unit_turns > 0.0 {
            format!("; unit turns per battle {:.1}", self.unit_turns)
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "\nRounds: mean {:.1}, p10 {}, p50 {}, p90 {}, longest {}{turns}",
            r.mean, r.p10, r.p50, r.p90, r.max
        );
        let _ = writeln!(s, "\nCasualties per battle (dead or unconscious)");
        for side in &self.sides {
            let _ = writeln!(
                s,
                "  {:<width$}  {:.2} of {}",
                side.name, side.casualties_mean, side.units
            );
        }
        if self.sides.iter().any(|side| side.escapes_mean > 0.0) {
            let _ = writeln!(s, "\nEscaped or fled per battle");
            for side in &self.sides {
                let _ = writeln!(
                    s,
                    "  {:<width$}  {:.2} of {}",
                    side.name, side.escapes_mean, side.units
                );
            }
        }
        let nw = self
            .units
            .iter()
            .map(|u| u.name.len() + u.side.len() + 3)
            .max()
            .unwrap_or(10)
            .max(10);
        let _ = writeln!(
            s,
            "\nPer combatant, per battle\n  {:<nw$}  {:>7}  {:>6}  {:>6}  {:>8}  {:>8}",
            "combatant", "attacks", "hits", "damage", "survived", "standing"
        );
        for u in &self.units {
            let label = format!("{} ({})", u.name, u.side);
            let _ = writeln!(
                s,
                "  {:<nw$}  {:>7.2}  {:>6.2}  {:>6.2}  {:>8}  {:>8}",
                label,
                u.attacks,
                u.hits,
                u.damage,
                pct(u.survival),
                pct(u.standing)
            );
        }
        s
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A shipped scenario, by file name in `scenarios/`.
    pub(crate) fn shipped(name: &str) -> Arc<Prepared> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(name);
        Arc::new(
            crate::rules::builtin()
                .load(&path)
                .expect("shipped scenario"),
        )
    }

    /// Wilson interval for 50 of 100 at 95%: 0.4038 to 0.5962 (standard tables).
    #[test]
    fn wilson_interval() {
        let r = Rate::wilson(50, 100);
        assert!((r.low - 0.4038).abs() < 1e-4, "{}", r.low);
        assert!((r.high - 0.5962).abs() < 1e-4, "{}", r.high);
        let r = Rate::wilson(0, 10);
        assert_eq!(r.low, 0.0);
        assert!((r.high - 0.2775).abs() < 1e-4, "{}", r.high);
    }

    /// Nearest-rank percentiles of the lengths 1..=10, one battle each.
    #[test]
    fn percentiles() {
        let h: Vec<u64> = (0..=10).map(|r| u64::from(r > 0)).collect();
        assert_eq!(percentile(&h, 0.1), 1);
        assert_eq!(percentile(&h, 0.5), 5);
        assert_eq!(percentile(&h, 0.9), 9);
        assert_eq!(percentile(&h, 1.0), 10);
        assert_eq!(percentile(&[], 0.5), 0);
        // 90 battles of 3 rounds and 10 of 20: p90 is 3, p91 is 20
        let mut h = vec![0u64; 21];
        h[3] = 90;
        h[20] = 10;
        assert_eq!(percentile(&h, 0.9), 3);
        assert_eq!(percentile(&h, 0.91), 20);
    }

    /// The histograms add up: every battle counted once by its length and once per side by
    /// its casualties, whose mean is the reported mean; a battle's unit turns are the turns
    /// its log begins; a preview started mid-battle by a
    /// `start` function fights from there (here: from a battle already over, every battle
    /// ends in the same round).
    #[test]
    fn histograms_and_previews_from_a_given_start() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gurps-duel.ron");
        let prepared = Arc::new(
            crate::rules::builtin()
                .load(&path)
                .expect("shipped scenario"),
        );
        let config = PreviewConfig {
            runs: 200,
            seed: 3,
            threads: 2,
        };
        let never = AtomicBool::new(false);
        let r = run_preview(prepared.clone(), config, &|_| {}, &never);
        assert_eq!(r.rounds.histogram.iter().sum::<u64>(), 200);
        for side in &r.sides {
            assert_eq!(side.casualties_histogram.iter().sum::<u64>(), 200);
            let mean = side
                .casualties_histogram
                .iter()
                .enumerate()
                .map(|(n, &c)| n as f64 * c as f64)
                .sum::<f64>()
                / 200.0;
            assert!((mean - side.casualties_mean).abs() < 1e-9);
        }
        let finished = |s: &mut Session, _seed: u64| {
            s.reset(11);
            s.run();
        };
        // Unit turns: one battle's mean is the turns its log begins.
        let one_battle = PreviewConfig { runs: 1, ..config };
        let r1 = run_preview(prepared.clone(), one_battle, &|_| {}, &never);
        let mut logged = Session::new(
            prepared.clone(),
            derive_seed(3, 0),
            SessionOptions {
                keep_log: true,
                autopilot: true,
            },
        );
        logged.run();
        let turns = logged
            .log()
            .entries
            .iter()
            .filter(|e| matches!(e.event, crate::battle::BattleEvent::TurnStarted { .. }))
            .count();
        assert!(turns > 0);
        assert_eq!(r1.unit_turns, turns as f64);
        let r = run_preview_from(prepared.clone(), config, &finished, &|_| {}, &never);
        let mut one = Session::new(prepared, 11, SessionOptions::default());
        one.run();
        assert_eq!(r.rounds.histogram.iter().filter(|&&n| n > 0).count(), 1);
        assert_eq!(r.rounds.histogram[one.round() as usize], 200);
    }
}

//! `skirmish compare A B`: two versions of an encounter fought over the same seeds (common
//! random numbers), and how each side's win rate, the battle length and the casualties
//! differ from A to B, each difference with its 95% interval and a two-sided p-value.
//!
//! When A and B are of the same ruleset and share their seeds, battle `i` of A and battle
//! `i` of B roll from the same seed, so luck mostly cancels and the test is paired: on the
//! differences `b_i - a_i`, their mean against its standard error (for win rates, close to
//! McNemar's test where a difference is in doubt; smaller p-values than McNemar's for large
//! differences). Across rulesets, or with other seeds for B, a seed
//! means nothing shared and the test is unpaired: the difference of the means against the
//! standard error of two independent samples (Welch). Both use the normal distribution,
//! good from a few dozen battles on (the default is 1,000); below about 30 the p-values are
//! too small. With fewer than two battles there is no interval and p is 1.

use super::{BattleResult, PreviewConfig, run_battles};
use crate::battle::{DrawReason, OutcomeKind};
use crate::scenario::Prepared;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Battles of A, then of B, fought at a time: a cancelled comparison keeps every pair both
/// finished.
const CHUNK: u64 = 500;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A difference B - A with its 95% interval and the two-sided p-value of "no difference".
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// B's mean minus A's.
    pub difference: f64,
    /// The 95% interval of the difference.
    pub ci95: [f64; 2],
    /// The chance of a difference at least this large if there were none.
    pub p_value: f64,
}

impl Estimate {
    /// Too few battles to say anything: no interval, p = 1.
    fn unknown(difference: f64) -> Self {
        Self {
            difference,
            ci95: [f64::NEG_INFINITY, f64::INFINITY],
            p_value: 1.0,
        }
    }

    fn from_mean_and_error(difference: f64, error: f64) -> Self {
        if error.is_nan() || error <= 0.0 {
            // No spread at all: every pair differed by the same amount.
            return Self {
                difference,
                ci95: [difference, difference],
                p_value: if difference == 0.0 { 1.0 } else { 0.0 },
            };
        }
        let z = difference / error;
        Self {
            difference,
            ci95: [difference - Z95 * error, difference + Z95 * error],
            p_value: libm::erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0),
        }
    }

    /// True when the p-value is under 5%.
    pub fn significant(&self) -> bool {
        self.p_value < 0.05
    }
}

fn mean_and_variance(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var)
}

/// The paired difference of `b` and `a` (same length, pair `i` from the same seed): the mean
/// of `b_i - a_i` against its standard error.
pub fn paired(a: &[f64], b: &[f64]) -> Estimate {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| y - x).collect();
    let (mean, var) = mean_and_variance(&d);
    if d.len() < 2 {
        return Estimate::unknown(mean);
    }
    Estimate::from_mean_and_error(mean, (var / d.len().max(1) as f64).sqrt())
}

/// The difference of the means of two independent samples, `b`'s minus `a`'s, against the
/// standard error of the two (Welch).
pub fn unpaired(a: &[f64], b: &[f64]) -> Estimate {
    let (ma, va) = mean_and_variance(a);
    let (mb, vb) = mean_and_variance(b);
    if a.len() < 2 || b.len() < 2 {
        return Estimate::unknown(mb - ma);
    }
    let error = (va / a.len().max(1) as f64 + vb / b.len().max(1) as f64).sqrt();
    Estimate::from_mean_and_error(mb - ma, error)
}

/// Battle lengths in summary.
#[derive(Clone, Debug, Serialize)]
pub struct Rounds {
    /// Mean.
    pub mean: f64,
    /// 10th percentile.
    pub p10: u32,
    /// Median.
    pub p50: u32,
    /// 90th percentile.
    pub p90: u32,
}

/// One file's battles in summary.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The file.
    pub file: String,
    /// Scenario name.
    pub scenario: String,
    /// Ruleset id.
    pub ruleset: String,
    /// Battles fought.
    pub runs: u64,
    /// Base seed of its battles.
    pub seed: u64,
    /// Battles won, by side id.
    pub wins: BTreeMap<String, u64>,
    /// Battles drawn.
    pub draws: u64,
    /// Draws by reason, in words.
    pub draws_by_reason: BTreeMap<String, u64>,
    /// Battle length.
    pub rounds: Rounds,
    /// Mean casualties per battle, by side id.
    pub casualties: BTreeMap<String, f64>,
}

/// How one side fares in B against A.
#[derive(Clone, Debug, Serialize)]
pub struct SideDifference {
    /// Its win rate in B minus in A.
    pub win_rate: f64,
    /// The 95% interval of that difference.
    pub ci95: [f64; 2],
    /// Its p-value.
    pub p_value: f64,
    /// Its mean casualties in B minus in A.
    pub casualties: Estimate,
}

/// Everything that differs from A to B.
#[derive(Clone, Debug, Serialize)]
pub struct Differences {
    /// By side id.
    pub sides: BTreeMap<String, SideDifference>,
    /// The draw rate.
    pub draws: Estimate,
    /// The mean battle length in rounds.
    pub rounds: Estimate,
    /// The mean of all sides' casualties together.
    pub casualties: Estimate,
}

/// The comparison `skirmish compare` prints.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The first file's battles.
    pub a: Summary,
    /// The second file's.
    pub b: Summary,
    /// B minus A.
    pub difference: Differences,
    /// True when battle `i` of A and of B shared their seed and ruleset (a paired test).
    pub paired: bool,
    /// Why the test is not paired, when it is not.
    pub unpaired_because: Option<String>,
    /// True if cancelled before all battles were fought (`runs` says how many were).
    pub cancelled: bool,
}

/// What to compare.
#[derive(Clone, Copy, Debug)]
pub struct CompareConfig {
    /// Battles of each file.
    pub runs: u64,
    /// Base seed of A's battles (battle `i`: `derive_seed(seed, i)`).
    pub seed: u64,
    /// Base seed of B's battles (`None`: the same as A's, for a paired test).
    pub seed_b: Option<u64>,
    /// Worker threads.
    pub threads: usize,
}

/// Why `a` and `b` cannot be compared: their sides' ids differ. Says each file's ids in
/// its order, and which to rename: the one id of B that A lacks to the one A has that B
/// lacks, when it is that simple.
pub fn mismatch(a: &Prepared, b: &Prepared) -> Option<String> {
    let ids = |p: &Prepared| {
        p.sides
            .iter()
            .map(|s| s.id.clone())
            .collect::<Vec<String>>()
    };
    let (ia, ib) = (ids(a), ids(b));
    let only = |these: &[String], those: &[String]| -> Vec<String> {
        these
            .iter()
            .filter(|id| !those.contains(id))
            .map(|id| format!("`{id}`"))
            .collect()
    };
    let (only_a, only_b) = (only(&ia, &ib), only(&ib, &ia));
    if only_a.is_empty() && only_b.is_empty() && ia.len() == ib.len() {
        return None;
    }
    let what = match (only_a.as_slice(), only_b.as_slice()) {
        ([a], [b]) => format!("rename side {b} of B to {a}, or side {a} of A to {b}"),
        ([], []) => "a side id is written twice in one of them".to_string(),
        (_, []) => format!("B has no side {}", only_a.join(", ")),
        ([], _) => format!("A has no side {}", only_b.join(", ")),
        _ => format!(
            "give B's sides {} the ids of A's {} (or the reverse)",
            only_b.join(", "),
            only_a.join(", ")
        ),
    };
    Some(format!(
        "the sides do not match: A has {} and B has {}; compare needs the same side ids in \
         both files: {what}",
        ia.join(", "),
        ib.join(", ")
    ))
}

/// Fights `config.runs` battles of each and compares them. `progress` gets the battles
/// finished of both together (out of twice `runs`); `cancel` stops early (both files then
/// count the battles both finished). Call [`mismatch`] first: sides are matched by id.
pub fn compare(
    (a, file_a): (Arc<Prepared>, &str),
    (b, file_b): (Arc<Prepared>, &str),
    config: CompareConfig,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
) -> Comparison {
    let seed_b = config.seed_b.unwrap_or(config.seed);
    let unpaired_because = if a.ruleset != b.ruleset {
        Some(format!(
            "A and B are of different rulesets ({} and {}): a seed rolls different dice in each",
            a.ruleset, b.ruleset
        ))
    } else if seed_b != config.seed {
        Some(format!(
            "B's battles have other seeds (from {seed_b}) than A's (from {})",
            config.seed
        ))
    } else {
        None
    };
    // In chunks, A's then B's, so that a cancelled comparison still has pairs.
    let (mut ra, mut rb) = (Vec::new(), Vec::new());
    let mut first = 0;
    while first < config.runs && !cancel.load(std::sync::atomic::Ordering::Relaxed) {
        let runs = CHUNK.min(config.runs - first);
        let fight = |p: &Arc<Prepared>, seed: u64, before: u64, into: &mut Vec<BattleResult>| {
            let results = Mutex::new(Vec::with_capacity(runs as usize));
            let preview = PreviewConfig {
                runs,
                seed,
                threads: config.threads,
            };
            run_battles(
                p.clone(),
                (preview, first),
                &|session, seed| session.reset(seed),
                &|n| progress(before + n),
                cancel,
                &|r| {
                    if let Ok(mut v) = results.lock() {
                        v.push(r);
                    }
                },
            );
            let mut v = results.into_inner().unwrap_or_default();
            v.sort_by_key(|r| r.index);
            into.extend(v);
        };
        fight(&a, config.seed, 2 * first, &mut ra);
        fight(&b, seed_b, 2 * first + runs, &mut rb);
        first += runs;
    }
    // Cancelled: keep the battles both finished (by index, so pairs stay pairs).
    let cancelled = ra.len() as u64 != config.runs || rb.len() as u64 != config.runs;
    if cancelled {
        let in_b: std::collections::HashSet<u64> = rb.iter().map(|r| r.index).collect();
        ra.retain(|r| in_b.contains(&r.index));
        let in_a: std::collections::HashSet<u64> = ra.iter().map(|r| r.index).collect();
        rb.retain(|r| in_a.contains(&r.index));
    }
    let sides: Vec<String> = a.sides.iter().map(|s| s.id.clone()).collect();
    let index_in = |p: &Prepared, id: &str| p.sides.iter().position(|s| s.id == id);
    let column = |results: &[BattleResult],
                  p: &Prepared,
                  f: &dyn Fn(&BattleResult, Option<usize>) -> f64,
                  id: Option<&str>|
     -> Vec<f64> {
        let side = id.and_then(|id| index_in(p, id));
        results.iter().map(|r| f(r, side)).collect()
    };
    let diff = |x: &[f64], y: &[f64]| {
        if unpaired_because.is_none() {
            paired(x, y)
        } else {
            unpaired(x, y)
        }
    };
    let won = |r: &BattleResult, side: Option<usize>| {
        f64::from(u8::from(
            side.is_some() && r.winner().map(usize::from) == side,
        ))
    };
    let fell = |r: &BattleResult, side: Option<usize>| match side {
        Some(s) => f64::from(r.casualties.get(s).copied().unwrap_or(0)),
        None => r.casualties.iter().map(|&c| f64::from(c)).sum(),
    };
    let drew = |r: &BattleResult, _: Option<usize>| f64::from(u8::from(r.winner().is_none()));
    let length = |r: &BattleResult, _: Option<usize>| f64::from(r.rounds);
    let mut by_side = BTreeMap::new();
    for id in &sides {
        let wins = diff(
            &column(&ra, &a, &won, Some(id)),
            &column(&rb, &b, &won, Some(id)),
        );
        by_side.insert(
            id.clone(),
            SideDifference {
                win_rate: wins.difference,
                ci95: wins.ci95,
                p_value: wins.p_value,
                casualties: diff(
                    &column(&ra, &a, &fell, Some(id)),
                    &column(&rb, &b, &fell, Some(id)),
                ),
            },
        );
    }
    let difference = Differences {
        sides: by_side,
        draws: diff(&column(&ra, &a, &drew, None), &column(&rb, &b, &drew, None)),
        rounds: diff(
            &column(&ra, &a, &length, None),
            &column(&rb, &b, &length, None),
        ),
        casualties: diff(&column(&ra, &a, &fell, None), &column(&rb, &b, &fell, None)),
    };
    Comparison {
        a: summary(&a, file_a, config.seed, &ra),
        b: summary(&b, file_b, seed_b, &rb),
        difference,
        paired: unpaired_because.is_none(),
        unpaired_because,
        cancelled,
    }
}

fn summary(p: &Prepared, file: &str, seed: u64, results: &[BattleResult]) -> Summary {
    let n = results.len() as u64;
    let mut wins: BTreeMap<String, u64> = p.sides.iter().map(|s| (s.id.clone(), 0)).collect();
    let mut draws_by_reason: BTreeMap<String, u64> = BTreeMap::new();
    let mut fallen = vec![0u64; p.sides.len()];
    let mut lengths: Vec<u32> = Vec::with_capacity(results.len());
    for r in results {
        match r.outcome {
            Some(OutcomeKind::Victory { side }) => {
                if let Some(s) = p.sides.get(usize::from(side)) {
                    *wins.entry(s.id.clone()).or_default() += 1;
                }
            }
            Some(OutcomeKind::Draw { reason }) => {
                *draws_by_reason.entry(reason.to_string()).or_default() += 1;
            }
            None => {
                *draws_by_reason
                    .entry(DrawReason::RoundCap.to_string())
                    .or_default() += 1
            }
        }
        for (f, &c) in fallen.iter_mut().zip(&r.casualties) {
            *f += u64::from(c);
        }
        lengths.push(r.rounds);
    }
    lengths.sort_unstable();
    let at = |q: f64| -> u32 {
        if lengths.is_empty() {
            return 0;
        }
        let rank = ((q * lengths.len() as f64).ceil() as usize).clamp(1, lengths.len());
        lengths[rank - 1]
    };
    let per = |x: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    Summary {
        file: file.to_string(),
        scenario: p.name.clone(),
        ruleset: p.ruleset.to_string(),
        runs: n,
        seed,
        draws: draws_by_reason.values().sum(),
        wins,
        draws_by_reason,
        rounds: Rounds {
            mean: per(lengths.iter().map(|&r| u64::from(r)).sum()),
            p10: at(0.1),
            p50: at(0.5),
            p90: at(0.9),
        },
        casualties: p
            .sides
            .iter()
            .zip(&fallen)
            .map(|(s, &f)| (s.id.clone(), per(f)))
            .collect(),
    }
}

impl Comparison {
    /// The comparison as text for a terminal, the sides in the order of `side_names` (id
    /// and name of each, as A lists them).
    pub fn to_text(&self, side_names: &[(String, String)]) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "A: {} ({}, {}), battles from seed {}\nB: {} ({}, {}), battles from seed {}",
            self.a.file,
            self.a.scenario,
            self.a.ruleset,
            self.a.seed,
            self.b.file,
            self.b.scenario,
            self.b.ruleset,
            self.b.seed
        );
        let _ = writeln!(
            s,
            "{} battles each{}; {}",
            self.a.runs,
            if self.cancelled { " (cancelled)" } else { "" },
            match &self.unpaired_because {
                None => "the same seeds in both, so the test is paired".to_string(),
                Some(why) => format!("unpaired test: {why}"),
            }
        );
        let name_of = |id: &str| {
            side_names
                .iter()
                .find(|(i, _)| i == id)
                .map_or(id.to_string(), |(_, n)| n.clone())
        };
        let width = side_names
            .iter()
            .map(|(_, n)| n.len() + " fallen".len())
            .chain([12])
            .max()
            .unwrap_or(12);
        let sides: Vec<(&String, &SideDifference)> = side_names
            .iter()
            .filter_map(|(id, _)| self.difference.sides.get_key_value(id))
            .collect();
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let points = |x: f64| format!("{:+.1}", 100.0 * x);
        let p = |e: f64| {
            if e < 0.001 {
                "<0.001".to_string()
            } else {
                format!("{e:.3}")
            }
        };
        let mark = |e: f64| if e < 0.05 { "  *" } else { "" };
        let runs = self.a.runs.max(1) as f64;
        let _ = writeln!(
            s,
            "\n{:<width$}  {:>7}  {:>7}  {:>8}  {:>17}  {:>7}",
            "win rate", "A", "B", "B - A", "95% interval", "p"
        );
        for &(id, d) in &sides {
            let wa = self.a.wins.get(id).copied().unwrap_or(0) as f64 / runs;
            let wb = self.b.wins.get(id).copied().unwrap_or(0) as f64 / runs;
            let _ = writeln!(
                s,
                "{:<width$}  {:>7}  {:>7}  {:>8}  {:>17}  {:>7}{}",
                name_of(id),
                pct(wa),
                pct(wb),
                points(d.win_rate),
                format!("{} to {}", points(d.ci95[0]), points(d.ci95[1])),
                p(d.p_value),
                mark(d.p_value)
            );
        }
        let d = &self.difference.draws;
        let _ = writeln!(
            s,
            "{:<width$}  {:>7}  {:>7}  {:>8}  {:>17}  {:>7}{}",
            "draws",
            pct(self.a.draws as f64 / runs),
            pct(self.b.draws as f64 / runs),
            points(d.difference),
            format!("{} to {}", points(d.ci95[0]), points(d.ci95[1])),
            p(d.p_value),
            mark(d.p_value)
        );
        let _ = writeln!(
            s,
            "(win rates in % and their difference in percentage points)"
        );
        let row = |s: &mut String, label: &str, x: f64, y: f64, e: &Estimate| {
            let _ = writeln!(
                s,
                "{:<width$}  {:>7.2}  {:>7.2}  {:>+8.2}  {:>17}  {:>7}{}",
                label,
                x,
                y,
                e.difference,
                format!("{:+.2} to {:+.2}", e.ci95[0], e.ci95[1]),
                p(e.p_value),
                mark(e.p_value)
            );
        };
        let _ = writeln!(
            s,
            "\n{:<width$}  {:>7}  {:>7}  {:>8}  {:>17}  {:>7}",
            "means", "A", "B", "B - A", "95% interval", "p"
        );
        row(
            &mut s,
            "rounds",
            self.a.rounds.mean,
            self.b.rounds.mean,
            &self.difference.rounds,
        );
        for &(id, d) in &sides {
            row(
                &mut s,
                &format!("{} fallen", name_of(id)),
                self.a.casualties.get(id).copied().unwrap_or(0.0),
                self.b.casualties.get(id).copied().unwrap_or(0.0),
                &d.casualties,
            );
        }
        row(
            &mut s,
            "all fallen",
            self.a.casualties.values().sum(),
            self.b.casualties.values().sum(),
            &self.difference.casualties,
        );
        let _ = writeln!(
            s,
            "\n* p < 0.05: a difference this large would be rare if A and B were the same \
             encounter (one in twenty such marks is chance)."
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A paired difference on known numbers: differences 1, 1, 0, 2 have mean 1, sample
    /// variance 2/3, standard error sqrt(2/3/4) = 0.4082, z = 2.449, two-sided p = 0.0143
    /// (normal table); interval 1 -+ 1.96 * 0.4082 = 0.2 to 1.8.
    #[test]
    fn a_paired_difference_on_known_numbers() {
        let e = paired(&[0.0, 1.0, 2.0, 0.0], &[1.0, 2.0, 2.0, 2.0]);
        assert!((e.difference - 1.0).abs() < 1e-12);
        assert!((e.ci95[0] - 0.1998).abs() < 1e-3, "{e:?}");
        assert!((e.ci95[1] - 1.8002).abs() < 1e-3, "{e:?}");
        assert!((e.p_value - 0.0143).abs() < 1e-4, "{e:?}");
        assert!(e.significant());
        // One pair says nothing, whatever its difference.
        let one = paired(&[0.0], &[1.0]);
        assert_eq!((one.difference, one.p_value), (1.0, 1.0));
        assert!(!one.significant() && one.ci95[0].is_infinite());
        // Equal samples: no difference, p = 1.
        let same = paired(&[1.0, 0.0, 1.0], &[1.0, 0.0, 1.0]);
        assert_eq!((same.difference, same.p_value), (0.0, 1.0));
        assert!(!same.significant());
    }

    /// The tests' level: two samples of 100 battles from the same 40% chance, compared
    /// 2,000 times, unpaired, are marked significant at 5% about 5% of the time; paired
    /// (each pair of battles sharing its luck half the time), about as often.
    #[test]
    fn false_alarms_at_five_percent() {
        use rand::{RngExt, SeedableRng, rngs::ChaCha8Rng};
        let mut rng = ChaCha8Rng::seed_from_u64(25);
        let mut draw = |n: usize| -> Vec<f64> {
            (0..n)
                .map(|_| f64::from(u8::from(rng.random_range(0..100) < 40)))
                .collect()
        };
        let (mut unpaired_alarms, mut paired_alarms) = (0, 0);
        for _ in 0..2000 {
            let (a, b) = (draw(100), draw(100));
            unpaired_alarms += usize::from(unpaired(&a, &b).significant());
            // B shares A's battle half the time (common luck), else its own.
            let shared: Vec<f64> = a
                .iter()
                .zip(&b)
                .enumerate()
                .map(|(i, (&x, &y))| if i % 2 == 0 { x } else { y })
                .collect();
            paired_alarms += usize::from(paired(&a, &shared).significant());
        }
        assert!((70..=130).contains(&unpaired_alarms), "{unpaired_alarms}");
        assert!((60..=140).contains(&paired_alarms), "{paired_alarms}");
    }

    /// An unpaired difference of proportions: 60 of 100 against 40 of 100, difference -0.2,
    /// standard error sqrt(0.6*0.4/99*100/100 + ...) with sample variances (n - 1): each
    /// 0.2424/100, error 0.06963, z = -2.872, p = 0.0041.
    #[test]
    fn an_unpaired_difference_of_proportions() {
        let a: Vec<f64> = (0..100).map(|i| f64::from(u8::from(i < 60))).collect();
        let b: Vec<f64> = (0..100).map(|i| f64::from(u8::from(i < 40))).collect();
        let e = unpaired(&a, &b);
        assert!((e.difference + 0.2).abs() < 1e-12);
        assert!((e.p_value - 0.0041).abs() < 2e-4, "{e:?}");
        assert!(e.ci95[1] < 0.0);
    }
}

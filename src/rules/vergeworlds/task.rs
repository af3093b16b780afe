//! Tasks (vergeworlds-rough-methods.txt, "Judging Actions", "Risky Business", "Opposed
//! Actions", "Mana"): 2d6 open-ended both ways ([`crate::dice::open_ended_2d6`]) plus
//! attribute and skill against a DC; degrees of success and failure; extra risk; opposed
//! tasks; what Mana may do to a roll.

use crate::dice::{DieRoller, Modifier, RollRecord, open_ended_2d6};
use std::cmp::Ordering;

/// The most extra risk a task allows ("Risky Business": typically up to +2; "Climbing":
/// up to +3).
pub const MAX_RISK: i32 = 2;

/// A task rolled: the roll and its degree (positive or zero: degrees of success; negative:
/// degrees of failure, extra risk included).
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// The roll, with the risk among its modifiers.
    pub roll: RollRecord,
    /// Degree of success (zero or more) or of failure (negative), after extra risk.
    pub degree: i32,
    /// The extra risk taken.
    pub risk: i32,
}

impl Task {
    /// True when the task met or beat its DC.
    pub fn succeeded(&self) -> bool {
        self.degree >= 0
    }
}

/// The degree of a roll against its DC with `risk` taken ("Risky Business": the risk is
/// added to the roll, and twice the risk to any degree of failure).
pub fn degree(total: i32, dc: i32, risk: i32) -> i32 {
    let d = total - dc;
    if d < 0 { d - 2 * risk } else { d }
}

/// Rolls a task: 2d6 open-ended plus `modifiers` (and `risk`, labelled) against `dc`.
pub fn task(dice: &mut impl DieRoller, mut modifiers: Vec<Modifier>, dc: i32, risk: i32) -> Task {
    if risk != 0 {
        modifiers.push(Modifier::new("extra risk", risk));
    }
    let roll = open_ended_2d6(dice, modifiers, Some(dc));
    judge(roll, risk)
}

/// The task of a roll already made (after Mana changed it).
pub fn judge(roll: RollRecord, risk: i32) -> Task {
    let dc = roll.target.unwrap_or(0);
    let degree = degree(roll.total, dc, risk);
    Task { roll, degree, risk }
}

/// "Opposed Actions": who won, by degrees of success (`Greater`: the first). A tie makes
/// no progress (the one hindering the other wins it).
pub fn opposed(a: &Task, b: &Task) -> Ordering {
    a.degree.cmp(&b.degree)
}

/// "Mana": the most a roll may be raised or lowered: 2 per d6 rolled.
pub fn mana_adjust_limit(d6_rolled: usize) -> i32 {
    2 * d6_rolled as i32
}

/// A roll raised or lowered with Mana by `by` (within [`mana_adjust_limit`] of the two
/// dice), judged again.
pub fn adjust(task: &Task, by: i32) -> Task {
    let limit = mana_adjust_limit(2);
    let by = by.clamp(-limit, limit);
    let mut roll = task.roll.clone();
    roll.modifiers.push(Modifier::new("Mana", by));
    roll.total += by;
    if let Some(dc) = roll.target {
        roll.margin = Some(roll.total - dc);
        roll.success = Some(roll.total >= dc);
    }
    judge(roll, task.risk)
}

/// The smallest Mana raise that turns a failed task into a success, if the limit allows.
pub fn mana_to_succeed(task: &Task) -> Option<i32> {
    let dc = task.roll.target?;
    let need = dc - task.roll.total;
    (need > 0 && need <= mana_adjust_limit(2)).then_some(need)
}

/// How far the open-ended tails are followed in [`open_2d6_pmf`]: a tail of 20 more dice
/// has a chance under 1e-11.
const TAIL: i32 = 20;

/// The distribution of the open-ended 2d6 roll ("Judging Actions"; the dice module's
/// decision): every total with its chance. A natural 12 goes on to 12 + k with chance
/// (1/3)^k · 2/3 (k more dice of 5–6, then one of 1–4); a natural 2 goes down the same way.
pub fn open_2d6_pmf() -> Vec<(i32, f64)> {
    let tail = |k: i32| (1.0 / 36.0) * (1.0f64 / 3.0).powi(k) * (2.0 / 3.0);
    let mut out: Vec<(i32, f64)> = (0..=TAIL).rev().map(|k| (2 - k, tail(k))).collect();
    for s in 3..=11 {
        out.push((s, f64::from(6 - (s - 7).abs()) / 36.0));
    }
    out.extend((0..=TAIL).map(|k| (12 + k, tail(k))));
    out
}

/// The chance that the open-ended 2d6 comes to `need` or more.
pub fn chance_at_least(need: i32) -> f64 {
    at_least(&open_2d6_pmf(), need)
}

fn at_least(pmf: &[(i32, f64)], need: i32) -> f64 {
    pmf.iter()
        .filter(|&&(v, _)| v >= need)
        .map(|&(_, p)| p)
        .sum()
}

/// The chance that an attack needing `need` on the open-ended 2d6 hits a defender whose
/// roll has the modifiers `defense_bonus` ("Defense Rolls": a defense roll's total, when
/// above 0, is added to the attack's DC); `at_least` is a total the defender keeps if the
/// roll comes out lower (an Evade roll made earlier in the turn; 0 otherwise).
pub fn chance_past_defense(need: i32, defense_bonus: i32, at_least: i32) -> f64 {
    let pmf = open_2d6_pmf();
    pmf.iter()
        .map(|&(d, p)| p * self::at_least(&pmf, need + (d + defense_bonus).max(at_least).max(0)))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;

    /// The open-ended 2d6 ("Judging Actions", decision in the dice module): 7 on 6 of 36,
    /// 12 and up on 1 of 36, 13 and up on a natural 12 then a 5–6 (1/36 · 1/3), 2 or less
    /// on 1 of 36; the whole sums to 1.
    #[test]
    fn open_2d6_distribution() {
        let pmf = open_2d6_pmf();
        let total: f64 = pmf.iter().map(|p| p.1).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        let at = |v: i32| pmf.iter().find(|p| p.0 == v).map_or(0.0, |p| p.1);
        assert!((at(7) - 6.0 / 36.0).abs() < 1e-12);
        assert!((chance_at_least(12) - 1.0 / 36.0).abs() < 1e-9);
        assert!((chance_at_least(13) - 1.0 / 108.0).abs() < 1e-9);
        assert!((1.0 - chance_at_least(3) - 1.0 / 36.0).abs() < 1e-9);
        assert!((chance_at_least(8) - 15.0 / 36.0).abs() < 1e-9);
    }

    /// "Defense Rolls": against a defender who cannot make the total positive the attack
    /// needs its own number; against equal rolls with the DC raised by the whole defense
    /// roll, the attack wins half of the non-ties plus every tie: (1 + P(tie)) / 2.
    #[test]
    fn chance_past_a_defense_roll() {
        assert!((chance_past_defense(8, -40, 0) - chance_at_least(8)).abs() < 1e-9);
        let tie: f64 = open_2d6_pmf().iter().map(|p| p.1 * p.1).sum();
        let p = chance_past_defense(-20, 20, 0);
        assert!((p - (1.0 + tie) / 2.0).abs() < 1e-9, "{p}");
        assert!(chance_past_defense(8, 0, 0) < chance_at_least(8));
        // An Evade roll of 30 kept: nothing gets through.
        assert!(chance_past_defense(8, 0, 30) < 1e-9);
    }

    /// "Risky Business", the worked example: Joshua climbs with the full +2 against DC 8.
    /// A roll of 6 succeeds with the risk; a roll of 5 fails by 1, and the risk makes that
    /// a degree of failure of 5 ("Climbing": five degrees or more means a fall).
    #[test]
    fn joshua_climbs_then_falls() {
        let first = task(&mut Scripted::new(&[3, 3]), Vec::new(), 8, 2);
        assert!(first.succeeded());
        assert_eq!(first.degree, 0);
        let second = task(&mut Scripted::new(&[2, 3]), Vec::new(), 8, 2);
        assert_eq!(second.roll.total, 7);
        assert_eq!(second.degree, -5);
        assert!(second.degree <= -5, "he falls");
        // Without the risk the same 5 fails by 3 only.
        assert_eq!(degree(5, 8, 0), -3);
    }

    /// "Judging Actions": meeting the DC exactly is a success with no degrees; each point
    /// over is a degree of success.
    #[test]
    fn degrees_of_success_and_failure() {
        assert_eq!(degree(7, 7, 0), 0);
        assert_eq!(degree(11, 7, 0), 4);
        assert_eq!(degree(5, 7, 0), -2);
    }

    /// "Opposed Actions": the greater degree of success wins; equal degrees tie.
    #[test]
    fn opposed_tasks_compare_degrees() {
        let a = task(
            &mut Scripted::new(&[4, 4]),
            vec![Modifier::new("skill", 1)],
            0,
            0,
        );
        let b = task(&mut Scripted::new(&[5, 4]), Vec::new(), 0, 0);
        assert_eq!(opposed(&a, &b), Ordering::Equal);
        let c = task(&mut Scripted::new(&[6, 4]), Vec::new(), 0, 0);
        assert_eq!(opposed(&c, &a), Ordering::Greater);
    }

    /// "Mana": up to 2 per d6 rolled, so ±4 on a task; a failure by 4 can be saved, by 5 not.
    #[test]
    fn mana_raises_a_roll_by_up_to_four() {
        let t = task(&mut Scripted::new(&[2, 2]), Vec::new(), 8, 0);
        assert_eq!(mana_to_succeed(&t), Some(4));
        let saved = adjust(&t, 4);
        assert!(saved.succeeded());
        assert_eq!(adjust(&t, 9).roll.total, 8, "capped at +4");
        let worse = task(&mut Scripted::new(&[1, 2]), Vec::new(), 8, 0);
        assert_eq!(mana_to_succeed(&worse), None);
    }
}

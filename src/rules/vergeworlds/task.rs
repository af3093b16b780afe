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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;

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

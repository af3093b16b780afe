//! Edge (main-sequence.txt, "Using Edge"): ignore an attack that would kill, re-roll a
//! single die and keep the better, or add +2 to a check before rolling; and the AI's
//! policy for spending it, from exact chances of the exploding d6.
//!
//! The AI policy (a decision; the text leaves Edge to players and the GM's important
//! NPCs): a killing attack is always ignored while Edge is left (nothing is worth more
//! than staying alive); the last point is kept for that. With two or more points, +2 is
//! spent before an attack roll when it raises the chance to hit by at least a third of
//! a chance (for example from 1/6 to 1/2), and a failed attack die is re-rolled when the
//! re-roll would hit with a chance of at least 1/3.

/// Chance that the exploding d6 ("Basic Task Resolution": a 6 counts 5 and is rolled
/// again and added, as often as sixes come) comes to `n` or more. Exact: for `n` up to 6
/// it is (7 − n)/6 (a six always makes at least 6); above, a six then `n − 5` or more.
pub fn chance_at_least(n: i32) -> f64 {
    if n <= 1 {
        1.0
    } else if n <= 6 {
        f64::from(7 - n) / 6.0
    } else {
        chance_at_least(n - 5) / 6.0
    }
}

/// The mean of the exploding d6: (1 + 2 + 3 + 4 + 5)/6 + (5 + mean)/6, so the mean is 4.
pub const MEAN_EXPLODING_D6: f64 = 4.0;

/// Chance that a roll of 1d6 + `bonus` meets or beats `dl`.
pub fn chance_to_succeed(bonus: i32, dl: i32) -> f64 {
    chance_at_least(dl - bonus)
}

/// What the AI spends Edge on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeUse {
    /// Ignore an attack that would have killed: it just misses.
    IgnoreKillingAttack,
    /// +2 to the roll, before rolling.
    PlusTwo,
    /// Re-roll the die and keep the better.
    Reroll,
}

/// The AI's choice before an attack roll of 1d6 + `bonus` against `dl`, with `edge` points
/// left: +2 or nothing (see the module doc).
pub fn before_attack(edge: i32, bonus: i32, dl: i32) -> Option<EdgeUse> {
    let gain = chance_to_succeed(bonus + 2, dl) - chance_to_succeed(bonus, dl);
    (edge >= 2 && gain >= 1.0 / 3.0 - 1e-9).then_some(EdgeUse::PlusTwo)
}

/// The AI's choice after a failed attack roll (the kept roll's total with its die; a
/// re-roll replaces the die if better): re-roll or nothing.
pub fn after_failed_attack(edge: i32, total: i32, die: i32, dl: i32) -> Option<EdgeUse> {
    let bonus = total - die;
    (edge >= 2 && total < dl && chance_to_succeed(bonus, dl) >= 1.0 / 3.0 - 1e-9)
        .then_some(EdgeUse::Reroll)
}

/// The AI's choice when an attack would kill it (bring it to 0 HP with lethal damage):
/// ignore it while it has Edge.
pub fn against_killing_attack(edge: i32) -> Option<EdgeUse> {
    (edge >= 1).then_some(EdgeUse::IgnoreKillingAttack)
}

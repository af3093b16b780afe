//! Dice: the one seeded random number generator of a battle, every dice mechanism the rule
//! texts use, and the [`RollRecord`] that the combat log shows for each roll.
//!
//! Every mechanism is a plain function over a [`DieRoller`], so tests can feed it scripted
//! faces ([`Scripted`]) and the simulation feeds it the seeded [`BattleRng`].
//!
//! | mechanism | rule text | function |
//! |---|---|---|
//! | 3d6 roll-under with criticals | gurps-lite-and-socs.txt, "CRITICALS" | [`success_roll`] |
//! | NdM+K damage with a minimum | gurps-lite-and-socs.txt, "WOUNDING MODIFIERS" and every "1d-2" | [`DiceExpr::roll`] |
//! | d12 roll, second die once | starship-d12-quick-reference.txt, "Skill Rolls"; rules/README.md decision 3 | [`d12_roll`] |
//! | 2d6 open-ended both ways | vergeworlds-rough-methods.txt, "Judging Actions" | [`open_ended_2d6`] |
//! | 1d6 exploding (6 counts 5, roll again) | main-sequence.txt, "Basic Task Resolution" | [`exploding_d6`] |

mod expr;
mod record;

pub use expr::{DiceExpr, DiceParseError};
pub use record::{
    Critical, DiceName, Drawn, Gather, Label, Modifier, RollModifiers, RollRecord, RollSense, Sum,
};

use bevy::ecs::resource::Resource;
use rand::{RngExt, SeedableRng, rngs::ChaCha8Rng};
use std::collections::BTreeMap;

/// Anything that can roll one die. The battle uses [`BattleRng`]; tests use [`Scripted`].
pub trait DieRoller {
    /// Rolls one die with `sides` faces and returns a face from 1 to `sides`.
    fn roll_die(&mut self, sides: u32) -> u32;

    /// How many dice have been drawn so far, for a roller that counts them (the index the
    /// next die will have); `None` (the default) for one that does not.
    fn drawn(&self) -> Option<u64> {
        None
    }

    /// True when a die drawn from index `from` on had its face entered by hand.
    fn entered_since(&self, from: u64) -> bool {
        let _ = from;
        false
    }
}

/// The [`Drawn`] of a roll whose first die had index `start` (as [`DieRoller::drawn`]
/// said before it was rolled).
pub fn drawn_since(dice: &impl DieRoller, start: Option<u64>) -> Drawn {
    Drawn {
        first: start,
        entered: start.is_some_and(|s| dice.entered_since(s)),
    }
}

/// The one seeded random number generator of a battle (ChaCha8: portable and reproducible,
/// so the same seed gives the same faces on every machine).
///
/// It counts the dice it draws, and a face entered by hand for a die's index
/// ([`BattleRng::enter`]: physical dice, rolled at the table) replaces the generator's
/// face for that die. The generator still draws its own face, so the dice after an
/// entered one are the same whatever was entered.
#[derive(Resource, Debug)]
pub struct BattleRng {
    rng: ChaCha8Rng,
    drawn: u64,
    entered: BTreeMap<u64, u32>,
    misfit: Option<Misfit>,
}

/// An entered face that did not fit the die drawn at its index (a save edited by hand, or
/// a scenario changed since): the generator's face was used instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Misfit {
    /// The die's index.
    pub draw: u64,
    /// The face entered.
    pub face: u32,
    /// The sides of the die drawn there.
    pub sides: u32,
}

impl BattleRng {
    /// A generator that always yields the same faces for the same `seed`.
    pub fn seeded(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            drawn: 0,
            entered: BTreeMap::new(),
            misfit: None,
        }
    }

    /// Faces entered by hand for the dice from index `first` on, in order: those dice show
    /// them when they are drawn.
    pub fn enter(&mut self, first: u64, faces: &[u32]) {
        for (i, &face) in faces.iter().enumerate() {
            // An index past any battle's dice (a save edited by hand) is never drawn.
            if let Some(index) = first.checked_add(i as u64) {
                self.entered.insert(index, face);
            }
        }
    }

    /// Forgets the faces entered for the dice from index `from` on (a decision taken
    /// back: its dice are to be rolled again).
    pub fn forget_from(&mut self, from: u64) {
        let _ = self.entered.split_off(&from);
    }

    /// The number of dice drawn so far (the index of the next one).
    pub fn count(&self) -> u64 {
        self.drawn
    }

    /// True when the face of die `index` was entered by hand.
    pub fn is_entered(&self, index: u64) -> bool {
        self.entered.contains_key(&index)
    }

    /// The first entered face that did not fit its die, if any.
    pub fn misfit(&self) -> Option<Misfit> {
        self.misfit
    }
}

impl DieRoller for BattleRng {
    fn roll_die(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        let face = self.rng.random_range(1..=sides);
        let index = self.drawn;
        self.drawn += 1;
        if !self.entered.is_empty()
            && let Some(&entered) = self.entered.get(&index)
        {
            if (1..=sides).contains(&entered) {
                return entered;
            }
            self.misfit.get_or_insert(Misfit {
                draw: index,
                face: entered,
                sides,
            });
        }
        face
    }

    fn drawn(&self) -> Option<u64> {
        Some(self.drawn)
    }

    fn entered_since(&self, from: u64) -> bool {
        from < self.drawn && self.entered.range(from..self.drawn).next().is_some()
    }
}

/// Faces given in advance, for tests and worked examples. Panics when it runs out, which in a
/// test means the rule rolled more dice than the example says.
#[derive(Clone, Debug)]
pub struct Scripted {
    faces: Vec<u32>,
    next: usize,
}

impl Scripted {
    /// Rolls `faces` in order.
    pub fn new(faces: &[u32]) -> Self {
        Self {
            faces: faces.to_vec(),
            next: 0,
        }
    }

    /// How many faces have not been rolled yet.
    pub fn remaining(&self) -> usize {
        self.faces.len() - self.next
    }
}

impl DieRoller for Scripted {
    fn roll_die(&mut self, sides: u32) -> u32 {
        let face = *self
            .faces
            .get(self.next)
            .unwrap_or_else(|| panic!("scripted dice ran out after {} faces", self.next));
        assert!(
            (1..=sides).contains(&face),
            "scripted face {face} is not on a d{sides}"
        );
        self.next += 1;
        face
    }
}

/// Derives the seed of battle number `index` from a base seed (SplitMix64 finaliser), so a
/// preview of N battles is the same whatever the number of threads.
pub fn derive_seed(base: u64, index: u64) -> u64 {
    let mut z = base
        .wrapping_add(index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Critical success and failure thresholds of a 3d6 roll against `effective` skill, from
/// gurps-lite-and-socs.txt "CRITICALS" (the Traveller screen's "CRITICAL SUCCESS AND FAILURE"
/// adds "a roll 10 or more above effective skill is a critical failure").
pub fn gurps_critical(roll: i32, effective: i32) -> Option<Critical> {
    if roll <= 4 || (roll == 5 && effective >= 15) || (roll == 6 && effective >= 16) {
        Some(Critical::Success)
    } else if roll == 18 || (roll == 17 && effective <= 15) || roll >= effective + 10 {
        Some(Critical::Failure)
    } else {
        None
    }
}

/// A GURPS success roll: 3d6 against the sum of `modifiers` (the first is usually the base
/// skill or attribute). Success when the roll is at most the target, except that 3–4 always
/// succeed and 17–18 always fail; criticals per [`gurps_critical`]. The margin is target
/// minus roll (positive: succeeded by that much).
pub fn success_roll(dice: &mut impl DieRoller, modifiers: Vec<Modifier>) -> RollRecord {
    let start = dice.drawn();
    let faces: Vec<u32> = (0..3).map(|_| dice.roll_die(6)).collect();
    let mut record = judge_success(faces, modifiers);
    record.drawn = drawn_since(dice, start);
    record
}

/// The exact chance that a GURPS success roll ([`success_roll`]) against `target`
/// succeeds: the share of the 216 rolls of 3d6 that [`judge_success`] counts a success
/// (3 and 4 always, 17 and 18 never).
pub fn success_chance(target: i32) -> f64 {
    // Counted once for every target that matters (at 4 or less only 3 and 4 succeed, at
    // 16 or more everything but 17 and 18): a table, as the AI asks it often.
    static TABLE: std::sync::OnceLock<[f64; 17]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [0.0; 17];
        for (target, chance) in t.iter_mut().enumerate() {
            let mut ways = 0u32;
            for a in 1..=6 {
                for b in 1..=6 {
                    for c in 1..=6 {
                        let roll: i32 = a + b + c;
                        let target = target as i32;
                        let success = match gurps_critical(roll, target) {
                            Some(Critical::Success) => true,
                            Some(Critical::Failure) => false,
                            None => roll <= target && roll <= 16,
                        };
                        ways += u32::from(success);
                    }
                }
            }
            *chance = f64::from(ways) / 216.0;
        }
        t
    });
    table[target.clamp(0, 16) as usize]
}

/// The sum of `modifiers`, saturating: each modifier from a file is range-checked, but a
/// roll must not panic if an extreme one slips through.
pub fn modifier_total(modifiers: &[Modifier]) -> i32 {
    modifiers
        .iter()
        .map(|m| m.value)
        .fold(0, i32::saturating_add)
}

/// A GURPS success roll of dice already rolled (`faces`, three d6) against the sum of
/// `modifiers`: as [`success_roll`], for a roll judged again against other modifiers (a
/// shot that turns out to have gone at another target).
pub fn judge_success(faces: Vec<u32>, modifiers: Vec<Modifier>) -> RollRecord {
    let roll: i32 = faces.iter().map(|&f| f as i32).sum();
    let target = modifier_total(&modifiers);
    let critical = gurps_critical(roll, target);
    let success = match critical {
        Some(Critical::Success) => true,
        Some(Critical::Failure) => false,
        None => roll <= target && roll <= 16,
    };
    RollRecord {
        drawn: Default::default(),
        dice: DiceName::Fixed("3d6"),
        faces,
        extra: Vec::new(),
        sense: RollSense::Under,
        modifiers,
        total: roll,
        target: Some(target),
        target_parts: Vec::new(),
        margin: Some(target - roll),
        success: Some(success),
        critical,
    }
}

/// Who won a Quick Contest between `a` and `b` (GURPS: a success beats a failure; two
/// successes or two failures are compared by margin; equal is a tie): `Greater` when `a`
/// won, `Less` when `b` won, `Equal` for a tie.
pub fn quick_contest(a: &RollRecord, b: &RollRecord) -> std::cmp::Ordering {
    let key = |r: &RollRecord| (r.succeeded(), r.margin.unwrap_or(0));
    let (ka, kb) = (key(a), key(b));
    if ka.0 != kb.0 {
        return ka.0.cmp(&kb.0);
    }
    ka.1.cmp(&kb.1)
}

/// The margin by which `a` won a Quick Contest against `b` (gurps-lite-and-socs.txt,
/// "FEINT": a contest; the winner's margin is what counts). Positive when `a` won: if `b`
/// failed, `a`'s margin of success; if both succeeded, the difference. Zero or less when `a`
/// did not win.
pub fn quick_contest_margin(a: &RollRecord, b: &RollRecord) -> i32 {
    if a.success != Some(true) {
        return 0;
    }
    let own = a.margin.unwrap_or(0);
    if b.success == Some(true) {
        own - b.margin.unwrap_or(0)
    } else {
        own
    }
}

/// The starship-d12 roll (starship-d12-quick-reference.txt "Skill Rolls"; rules/README.md
/// decision 3): the modifiers add to a total; roll a d12, and if the die is under that total
/// roll one more d12 and add it, once only. The result is the die total (not die plus
/// modifiers). `difficulty`, when given, is what the die total must reach; a natural 12 on
/// the first die always succeeds, and when `natural_one_fails` (gunnery) a natural 1 always
/// fails.
pub fn d12_roll(
    dice: &mut impl DieRoller,
    modifiers: Vec<Modifier>,
    difficulty: Option<i32>,
    natural_one_fails: bool,
) -> RollRecord {
    let bonus = modifier_total(&modifiers);
    let start = dice.drawn();
    let first = dice.roll_die(12);
    let mut faces = vec![first];
    if (first as i32) < bonus {
        faces.push(dice.roll_die(12));
    }
    let total: i32 = faces.iter().map(|&f| f as i32).sum();
    let critical = match first {
        12 => Some(Critical::Success),
        1 if natural_one_fails => Some(Critical::Failure),
        _ => None,
    };
    let success = difficulty.map(|d| match critical {
        Some(Critical::Success) => true,
        Some(Critical::Failure) => false,
        None => total >= d,
    });
    RollRecord {
        drawn: drawn_since(dice, start),
        dice: DiceName::Fixed("d12"),
        faces,
        extra: Vec::new(),
        sense: RollSense::D12,
        modifiers,
        total,
        target: difficulty,
        target_parts: Vec::new(),
        margin: difficulty.map(|d| total - d),
        success,
        critical,
    }
}

/// The Vergeworlds task roll (vergeworlds-rough-methods.txt, "Judging Actions"): 2d6 plus
/// modifiers. A natural 12 rolls on: each further d6 of 5–6 adds 1 and rolls again, until a
/// 4 or less. A natural 2 rolls on the other way: each d6 of 1–2 subtracts 1 and rolls again,
/// until a 3 or more. Success when the total meets or beats the DC.
pub fn open_ended_2d6(
    dice: &mut impl DieRoller,
    modifiers: Vec<Modifier>,
    dc: Option<i32>,
) -> RollRecord {
    let start = dice.drawn();
    let faces = vec![dice.roll_die(6), dice.roll_die(6)];
    let natural = (faces[0] + faces[1]) as i32;
    let mut extra = Vec::new();
    let mut open = 0;
    if natural == 12 {
        loop {
            let f = dice.roll_die(6);
            extra.push(f);
            if f >= 5 {
                open += 1;
            } else {
                break;
            }
        }
    } else if natural == 2 {
        loop {
            let f = dice.roll_die(6);
            extra.push(f);
            if f <= 2 {
                open -= 1;
            } else {
                break;
            }
        }
    }
    let mut modifiers = modifiers;
    if open != 0 {
        modifiers.insert(0, Modifier::new("open-ended", open));
    }
    let mut record = roll_over_record("2d6", faces, modifiers, dc, critical_of_open(natural));
    record.extra = extra;
    record.drawn = drawn_since(dice, start);
    record
}

fn critical_of_open(natural: i32) -> Option<Critical> {
    match natural {
        12 => Some(Critical::Success),
        2 => Some(Critical::Failure),
        _ => None,
    }
}

/// The Main Sequence task roll (main-sequence.txt, "Basic Task Resolution"): 1d6 plus
/// modifiers against a Difficulty Level. A natural 6 counts as 5 and the die is rolled again
/// and added, as often as sixes come up. Success when the total meets or beats the DL (the
/// hacking example succeeds "just barely" at 11 against DL 11).
pub fn exploding_d6(
    dice: &mut impl DieRoller,
    modifiers: Vec<Modifier>,
    dl: Option<i32>,
) -> RollRecord {
    let start = dice.drawn();
    let mut faces = Vec::with_capacity(1);
    loop {
        let f = dice.roll_die(6);
        faces.push(f);
        if f != 6 {
            break;
        }
    }
    let mut record = judge_exploding_d6(faces, modifiers, dl);
    record.drawn = drawn_since(dice, start);
    record
}

/// The record of an exploding-d6 roll whose faces are known (every face but the last a 6),
/// as [`exploding_d6`] makes it: each 6 counts 5.
pub fn judge_exploding_d6(
    faces: Vec<u32>,
    modifiers: Vec<Modifier>,
    dl: Option<i32>,
) -> RollRecord {
    let sixes = faces.iter().filter(|&&f| f == 6).count() as i32;
    let mut modifiers = modifiers;
    if sixes > 0 {
        modifiers.insert(0, Modifier::new("each 6 counts 5", -sixes));
    }
    // A six rolls on; the text has no critical results (its faces and "each 6 counts 5"
    // say it), so a roll that rolled on may still miss.
    roll_over_record("1d6", faces, modifiers, dl, None)
}

fn roll_over_record(
    dice: &'static str,
    faces: Vec<u32>,
    modifiers: Vec<Modifier>,
    target: Option<i32>,
    critical: Option<Critical>,
) -> RollRecord {
    let total = faces
        .iter()
        .map(|&f| f as i32)
        .sum::<i32>()
        .saturating_add(modifier_total(&modifiers));
    RollRecord {
        drawn: Default::default(),
        dice: DiceName::Fixed(dice),
        faces,
        extra: Vec::new(),
        sense: RollSense::Over,
        modifiers,
        total,
        target,
        target_parts: Vec::new(),
        margin: target.map(|t| total - t),
        success: target.map(|t| total >= t),
        critical,
    }
}

#[cfg(test)]
mod tests;

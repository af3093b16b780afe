//! Dice expressions such as `2d+1`, `1d-2` or `3d6`, as weapon tables write damage, and
//! their rolls with a minimum result.

use super::{DiceName, DieRoller, Modifier, RollRecord, RollSense};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// `count` dice of `sides` faces plus `add` (which may be negative).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DiceExpr {
    /// Number of dice (0 for a flat number).
    pub count: u32,
    /// Faces per die; GURPS writes `2d` for `2d6`.
    pub sides: u32,
    /// Added to the sum of the dice.
    pub add: i32,
}

impl DiceExpr {
    /// `count`d`sides`+`add`.
    pub const fn new(count: u32, sides: u32, add: i32) -> Self {
        Self { count, sides, add }
    }

    /// `count` six-sided dice plus `add`, as GURPS writes them (`2d+1`).
    pub const fn d6(count: u32, add: i32) -> Self {
        Self::new(count, 6, add)
    }

    /// Smallest result before any minimum.
    pub fn min_value(&self) -> i32 {
        self.count as i32 + self.add
    }

    /// Largest result.
    pub fn max_value(&self) -> i32 {
        (self.count * self.sides) as i32 + self.add
    }

    /// Mean result before any minimum.
    pub fn mean(&self) -> f64 {
        self.count as f64 * (self.sides as f64 + 1.0) / 2.0 + self.add as f64
    }

    /// Every result with its exact probability, smallest first (before any minimum).
    pub fn distribution(&self) -> Vec<(i32, f64)> {
        let low = self.min_value();
        let chances = |chances: &[f64]| {
            chances
                .iter()
                .enumerate()
                .map(|(i, p)| (low + i as i32, *p))
                .collect()
        };
        match D6_SUMS.get(self.count as usize) {
            Some(table) if self.sides == 6 => chances(table),
            _ => chances(&sum_chances(self.count, self.sides)),
        }
    }

    /// The mean of what the result exceeds `threshold` by (0 when it does not): what gets
    /// through a barrier of `threshold`, on average.
    pub fn mean_excess(&self, threshold: i32) -> f64 {
        let low = self.min_value();
        let excess = |chances: &[f64]| {
            chances
                .iter()
                .enumerate()
                .map(|(i, p)| f64::from((low + i as i32 - threshold).max(0)) * p)
                .sum()
        };
        match D6_SUMS.get(self.count as usize) {
            Some(table) if self.sides == 6 => excess(table),
            _ => excess(&sum_chances(self.count, self.sides)),
        }
    }

    /// This expression with `extra` more added.
    pub fn plus(self, extra: i32) -> Self {
        Self {
            add: self.add.saturating_add(extra),
            ..self
        }
    }

    /// Rolls the dice, adds `add`, and raises the result to `minimum` if it falls below
    /// (GURPS damage such as `1d-2` cannot go below its minimum; the raise is shown as a
    /// labelled modifier so the record still adds up).
    pub fn roll(&self, dice: &mut impl DieRoller, minimum: i32) -> RollRecord {
        let start = dice.drawn();
        let faces: Vec<u32> = (0..self.count).map(|_| dice.roll_die(self.sides)).collect();
        let sum: i32 = faces.iter().map(|&f| f as i32).sum();
        let mut modifiers = Vec::new(); // room only when something is added
        if self.add != 0 {
            modifiers.push(Modifier::new("", self.add));
        }
        let raw = sum + self.add;
        if raw < minimum {
            modifiers.push(Modifier::new("minimum", minimum - raw));
        }
        RollRecord {
            drawn: super::drawn_since(dice, start),
            dice: DiceName::Expr(*self),
            faces,
            extra: Vec::new(),
            sense: RollSense::Over,
            modifiers,
            total: raw.max(minimum),
            target: None,
            target_parts: Vec::new(),
            margin: None,
            success: None,
            critical: None,
        }
    }
}

/// Chances of each sum of `count` dice of `sides` faces, from the smallest sum up.
fn sum_chances(count: u32, sides: u32) -> Vec<f64> {
    let sides = sides.max(1) as usize;
    let mut ways = vec![1.0f64];
    for _ in 0..count {
        let mut next = vec![0.0; ways.len() + sides - 1];
        for (sum, w) in ways.iter().enumerate() {
            for slot in &mut next[sum..sum + sides] {
                *slot += w;
            }
        }
        ways = next;
    }
    let total: f64 = ways.iter().sum();
    ways.iter().map(|w| w / total).collect()
}

/// [`sum_chances`] of 0 to 12 six-sided dice, computed once (the AI asks for them often).
static D6_SUMS: std::sync::LazyLock<Vec<Vec<f64>>> =
    std::sync::LazyLock::new(|| (0..=12).map(|n| sum_chances(n, 6)).collect());

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return write!(f, "{}", self.add);
        }
        if self.sides == 6 {
            write!(f, "{}d", self.count)?;
        } else {
            write!(f, "{}d{}", self.count, self.sides)?;
        }
        if self.add != 0 {
            write!(f, "{:+}", self.add)?;
        }
        Ok(())
    }
}

/// Why a dice expression could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceParseError(pub String);

impl fmt::Display for DiceParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a dice expression (expected e.g. `2d+1`, `1d-2`, `3d6` or `4`)",
            self.0
        )
    }
}

impl std::error::Error for DiceParseError {}

impl FromStr for DiceExpr {
    type Err = DiceParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = || DiceParseError(text.to_string());
        let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let s = s.replace('−', "-");
        let Some(d) = s.find(['d', 'D']) else {
            let add: i32 = s.parse().map_err(|_| err())?;
            return Ok(Self::new(0, 6, add));
        };
        let count: u32 = if d == 0 {
            1
        } else {
            s[..d].parse().map_err(|_| err())?
        };
        let rest = &s[d + 1..];
        if d == 0 && rest.is_empty() {
            return Err(err());
        }
        let split = rest.find(['+', '-']).unwrap_or(rest.len());
        let sides: u32 = if split == 0 {
            6
        } else {
            rest[..split].parse().map_err(|_| err())?
        };
        let add: i32 = if split == rest.len() {
            0
        } else {
            rest[split..].parse().map_err(|_| err())?
        };
        if !(1..=1000).contains(&count) || !(2..=1000).contains(&sides) {
            return Err(err());
        }
        Ok(Self::new(count, sides, add))
    }
}

impl Serialize for DiceExpr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DiceExpr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

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

    /// This expression with `extra` more added.
    pub fn plus(self, extra: i32) -> Self {
        Self {
            add: self.add + extra,
            ..self
        }
    }

    /// Rolls the dice, adds `add`, and raises the result to `minimum` if it falls below
    /// (GURPS damage such as `1d-2` cannot go below its minimum; the raise is shown as a
    /// labelled modifier so the record still adds up).
    pub fn roll(&self, dice: &mut impl DieRoller, minimum: i32) -> RollRecord {
        let faces: Vec<u32> = (0..self.count).map(|_| dice.roll_die(self.sides)).collect();
        let sum: i32 = faces.iter().map(|&f| f as i32).sum();
        let mut modifiers = Vec::with_capacity(2);
        if self.add != 0 {
            modifiers.push(Modifier::new("", self.add));
        }
        let raw = sum + self.add;
        if raw < minimum {
            modifiers.push(Modifier::new("minimum", minimum - raw));
        }
        RollRecord {
            dice: DiceName::Expr(*self),
            faces,
            extra: Vec::new(),
            sense: RollSense::Over,
            modifiers,
            total: raw.max(minimum),
            target: None,
            margin: None,
            success: None,
            critical: None,
        }
    }
}

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

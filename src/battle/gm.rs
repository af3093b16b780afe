//! The game master's hand edits to a battle in progress: what a ruleset lets the GM change
//! on a unit ([`GmField`]) and the recorded change itself ([`GmChange`]). Each ruleset
//! lists its fields and applies a change through the contract (`Ruleset::gm_fields`,
//! `Ruleset::gm_set`, `Ruleset::gm_place`, `Ruleset::gm_remove`, `Ruleset::gm_join`); the
//! recording (`play`) keeps every change with the step it was made at and its reason, so
//! that a saved battle replays it, and the log shows it as a
//! [`BattleEvent::GameMaster`](super::BattleEvent::GameMaster) line.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// One thing the GM may change on a unit, as its ruleset lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct GmField {
    /// Its key in a save file (`hp`, `stunned`).
    pub key: &'static str,
    /// What the GM panel and the log call it ("HP", "Stunned").
    pub label: Cow<'static, str>,
    /// Its kind, value now and bounds.
    pub value: GmValue,
}

/// The kind of a [`GmField`], with its value now. A change sets every kind as a number:
/// a condition is 0 or 1, a choice the index of its option.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GmValue {
    /// A number the rules bound: the GM may set it from `min` to `max`, or to `forced_max`
    /// when the change is forced (hit points above the maximum); `None` when forcing lets
    /// it no higher.
    Number {
        /// The value now.
        now: i32,
        /// The least the rules allow.
        min: i32,
        /// The most the rules allow.
        max: i32,
        /// The most a forced change may set.
        forced_max: Option<i32>,
    },
    /// A condition the unit has or not (stunned, prone).
    Flag(bool),
    /// One of several states (a damage state), by index into `options`.
    Choice {
        /// The index of the state now.
        now: usize,
        /// Every state, in order.
        options: &'static [&'static str],
    },
}

impl GmValue {
    /// The value now, as a change would set it.
    pub fn as_number(&self) -> i32 {
        match *self {
            GmValue::Number { now, .. } => now,
            GmValue::Flag(on) => i32::from(on),
            GmValue::Choice { now, .. } => now as i32,
        }
    }

    /// Whether `value` may be set (`forced`: past the rules' most), or why not, in words.
    pub fn check(&self, value: i32, forced: bool) -> Result<(), String> {
        match *self {
            GmValue::Number {
                min,
                max,
                forced_max,
                ..
            } => {
                let top = if forced {
                    forced_max.unwrap_or(max).max(max)
                } else {
                    max
                };
                if value < min {
                    Err(format!("{value} is below the least the rules allow, {min}"))
                } else if value > top && !forced && forced_max.is_some_and(|f| value <= f) {
                    Err(format!(
                        "{value} is above the most the rules allow, {max} (force it to go past)"
                    ))
                } else if value > top {
                    Err(format!("{value} is above the most allowed, {top}"))
                } else {
                    Ok(())
                }
            }
            GmValue::Flag(_) => match value {
                0 | 1 => Ok(()),
                _ => Err(format!("{value} is not 0 (clear) or 1 (set)")),
            },
            GmValue::Choice { options, .. } => {
                if usize::try_from(value).is_ok_and(|i| i < options.len()) {
                    Ok(())
                } else {
                    Err(format!(
                        "{value} is not one of the {} states (0 to {})",
                        options.len(),
                        options.len().saturating_sub(1)
                    ))
                }
            }
        }
    }

    /// `value` in words as this field shows it (a condition's "on"/"off", a state's name).
    pub fn words(&self, value: i32) -> String {
        match *self {
            GmValue::Number { .. } => value.to_string(),
            GmValue::Flag(_) => if value != 0 { "on" } else { "off" }.to_string(),
            GmValue::Choice { options, .. } => usize::try_from(value)
                .ok()
                .and_then(|i| options.get(i))
                .map_or_else(|| value.to_string(), |s| (*s).to_string()),
        }
    }
}

/// One edit the GM made to a unit, as a save file records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GmChange {
    /// Sets the field `key` of the unit's ruleset to `value` (a number; 0 or 1 for a
    /// condition; an option's index for a choice). `force` lets a number pass the most the
    /// rules allow (hit points above the maximum).
    Set {
        /// The field's key.
        key: String,
        /// The new value.
        value: i32,
        /// Past the rules' most.
        #[serde(default)]
        force: bool,
    },
    /// Puts the unit on hex `at` (axial `(q, r)`), facing direction `facing` (0 to 5).
    Place {
        /// The hex.
        at: (i32, i32),
        /// The facing.
        facing: u8,
    },
    /// Takes the unit out of the fight (it leaves the battle).
    Remove,
    /// Brings a new unit into the fight: a copy of this unit's stat block, named `name`,
    /// on its side, at hex `at` facing `facing`.
    Add {
        /// The new unit's name.
        name: String,
        /// The hex.
        at: (i32, i32),
        /// The facing.
        facing: u8,
    },
}

#[cfg(test)]
mod tests {
    use super::GmValue;

    /// Hit points: set within the rules, past the maximum only when forced, never below the
    /// least.
    #[test]
    fn a_number_is_bounded_unless_forced() {
        let hp = GmValue::Number {
            now: 12,
            min: -60,
            max: 12,
            forced_max: Some(24),
        };
        assert!(hp.check(6, false).is_ok());
        assert!(hp.check(-61, false).unwrap_err().contains("least"));
        assert!(hp.check(14, false).unwrap_err().contains("force"));
        assert!(hp.check(14, true).is_ok());
        assert!(hp.check(25, true).unwrap_err().contains("24"));
        let ap = GmValue::Number {
            now: 3,
            min: 0,
            max: 4,
            forced_max: None,
        };
        assert!(ap.check(5, true).is_err());
        assert!(GmValue::Flag(false).check(2, false).is_err());
        let state = GmValue::Choice {
            now: 0,
            options: &["intact", "damaged", "out"],
        };
        assert!(state.check(2, false).is_ok());
        assert!(state.check(3, false).is_err());
        assert_eq!(state.words(1), "damaged");
        assert_eq!(GmValue::Flag(true).words(0), "off");
    }
}

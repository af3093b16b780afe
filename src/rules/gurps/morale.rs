//! Morale checks (gurps-lite-and-socs.txt, "REACTION TABLE" and "MORALE CHECKS"): a
//! reaction roll for an NPC side during a fight; "Good" or better means flight or
//! surrender.
//!
//! What the text leaves to the game master is decided here, once:
//! - a side with a morale setting checks at the start of each round in which it has lost a
//!   fighter (down, dead, fled or surrendered) since its last check;
//! - "the PCs seem notably stronger/weaker" is read from the sides' remaining strength,
//!   the sum over fighting units of HP left as a share of full HP: +1 per 25% that the
//!   foes' strength exceeds the side's own, −1 per 25% short, at most ±5
//!   ([`strength_modifier`]).

use crate::dice::Modifier;
use serde::{Deserialize, Serialize};

/// What a broken side does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoraleResponse {
    /// Its fighters run for the map's edge and leave the battle there.
    #[default]
    Flee,
    /// Its fighters throw down their arms.
    Surrender,
}

/// A side's morale setting in a scenario.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleSpec {
    /// Flight or surrender when the side breaks.
    #[serde(default)]
    pub response: MoraleResponse,
    /// The side has no language in common with its foes (−2).
    #[serde(default)]
    pub no_common_language: bool,
    /// The foes are intruders on the side's home turf (−2).
    #[serde(default)]
    pub home_turf: bool,
}

/// A reaction level (gurps-lite-and-socs.txt, "REACTION TABLE").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reaction {
    /// 0 or less.
    Disastrous,
    /// 1 to 3.
    VeryBad,
    /// 4 to 6.
    Bad,
    /// 7 to 9.
    Poor,
    /// 10 to 12.
    Neutral,
    /// 13 to 15.
    Good,
    /// 16 to 18.
    VeryGood,
    /// 19 or better.
    Excellent,
}

impl Reaction {
    /// The reaction for a roll total (3d6 plus modifiers).
    pub fn of(total: i32) -> Reaction {
        match total {
            ..=0 => Reaction::Disastrous,
            1..=3 => Reaction::VeryBad,
            4..=6 => Reaction::Bad,
            7..=9 => Reaction::Poor,
            10..=12 => Reaction::Neutral,
            13..=15 => Reaction::Good,
            16..=18 => Reaction::VeryGood,
            _ => Reaction::Excellent,
        }
    }

    /// Its name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Reaction::Disastrous => "Disastrous",
            Reaction::VeryBad => "Very Bad",
            Reaction::Bad => "Bad",
            Reaction::Poor => "Poor",
            Reaction::Neutral => "Neutral",
            Reaction::Good => "Good",
            Reaction::VeryGood => "Very Good",
            Reaction::Excellent => "Excellent",
        }
    }

    /// True when a morale check with this reaction breaks the side ("Good" or higher).
    pub fn breaks(self) -> bool {
        self >= Reaction::Good
    }
}

/// The "notably stronger/weaker" modifier from the foes' strength against the side's own
/// (see the module's decisions): +1 per full 25% the foes are stronger, −1 per full 25%
/// weaker, within ±5.
pub fn strength_modifier(own: f64, foes: f64) -> i32 {
    if own <= 0.0 {
        return 5;
    }
    let quarters = ((foes / own - 1.0) * 4.0).trunc() as i32;
    quarters.clamp(-5, 5)
}

/// The modifiers of a morale check (gurps-lite-and-socs.txt, "MORALE CHECKS").
pub fn morale_modifiers(spec: &MoraleSpec, own: f64, foes: f64) -> Vec<Modifier> {
    let mut mods = Vec::with_capacity(3);
    let s = strength_modifier(own, foes);
    if s > 0 {
        mods.push(Modifier::new("foes notably stronger", s));
    } else if s < 0 {
        mods.push(Modifier::new("foes notably weaker", s));
    }
    if spec.no_common_language {
        mods.push(Modifier::new("no language in common", -2));
    }
    if spec.home_turf {
        mods.push(Modifier::new("foes intrude on home turf", -2));
    }
    mods
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gurps-lite-and-socs.txt "REACTION TABLE": the bands, and "Good" or better breaks.
    #[test]
    fn reaction_bands() {
        let want = [
            (0, Reaction::Disastrous),
            (1, Reaction::VeryBad),
            (3, Reaction::VeryBad),
            (4, Reaction::Bad),
            (6, Reaction::Bad),
            (7, Reaction::Poor),
            (9, Reaction::Poor),
            (10, Reaction::Neutral),
            (12, Reaction::Neutral),
            (13, Reaction::Good),
            (15, Reaction::Good),
            (16, Reaction::VeryGood),
            (18, Reaction::VeryGood),
            (19, Reaction::Excellent),
        ];
        for (total, r) in want {
            assert_eq!(Reaction::of(total), r, "{total}");
        }
        assert!(!Reaction::Neutral.breaks());
        assert!(Reaction::Good.breaks());
        // exact chance that an unmodified check breaks: 3d6 of 13 or more, 56 of 216
        let mut n = 0;
        for a in 1..=6 {
            for b in 1..=6 {
                for c in 1..=6 {
                    if Reaction::of(a + b + c).breaks() {
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(n, 56);
    }

    /// "+1 to +5 if the PCs seem notably stronger", "−1 to −5 if weaker", "−2 no language
    /// in common", "−2 intruders on home turf".
    #[test]
    fn morale_check_modifiers() {
        assert_eq!(strength_modifier(4.0, 4.0), 0);
        assert_eq!(strength_modifier(2.0, 4.0), 4);
        assert_eq!(strength_modifier(1.0, 4.0), 5);
        assert_eq!(strength_modifier(4.0, 2.0), -2);
        assert_eq!(strength_modifier(0.0, 1.0), 5);
        let spec = MoraleSpec {
            response: MoraleResponse::Flee,
            no_common_language: true,
            home_turf: true,
        };
        let sum: i32 = morale_modifiers(&spec, 2.0, 3.0)
            .iter()
            .map(|m| m.value)
            .sum();
        assert_eq!(sum, 2 - 2 - 2);
    }
}

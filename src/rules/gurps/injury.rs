//! What a wound does beyond hit points (gurps-lite-and-socs.txt, "INJURY"): shock on the
//! next turn, major wounds and the HT roll against knockdown and stunning, and the roll to
//! recover from stun.

use crate::dice::Modifier;
use serde::{Deserialize, Serialize};

/// High or Low Pain Threshold, or neither.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PainThreshold {
    /// Neither advantage nor disadvantage.
    #[default]
    Normal,
    /// High Pain Threshold.
    High,
    /// Low Pain Threshold.
    Low,
}

/// Largest shock penalty (gurps-lite-and-socs.txt, "INJURY", Shock: "max. penalty −4").
pub const MAX_SHOCK: i32 = 4;

/// The shock a fighter carries into its next turn after taking `injury` on top of
/// `pending` shock from earlier wounds since its last turn (gurps-lite-and-socs.txt,
/// "INJURY", Shock: −1 per HP lost, at most −4, next turn only; returned as a positive
/// number of points). `factor` multiplies the injury for hit locations that double shock;
/// `cap` is the location's maximum (4, or 8 for the groin).
///
/// Pain thresholds (decision: 4e Basic Set pp. B59 and B142, which the Traveller screen's
/// "Wounds" entry agrees with): High Pain Threshold ignores shock; Low Pain Threshold
/// doubles it, to at most twice the cap.
pub fn shock_after(pending: i32, injury: i32, factor: i32, cap: i32, pain: PainThreshold) -> i32 {
    if injury <= 0 {
        return pending;
    }
    let (per_hp, cap) = match pain {
        PainThreshold::High => return 0,
        PainThreshold::Normal => (factor, cap),
        PainThreshold::Low => (2 * factor, 2 * cap),
    };
    (pending + injury * per_hp).min(cap)
}

/// A single injury of more than half of full HP is a major wound (gurps-lite-and-socs.txt,
/// "INJURY", Major Wound: "a single injury of > HP/2, or a crippling wound").
pub fn is_major_wound(injury: i32, hp_max: i32) -> bool {
    injury * 2 > hp_max
}

/// Modifiers of the HT roll to avoid knockdown and stunning (gurps-lite-and-socs.txt,
/// "INJURY", Knockdown and Stunning: HT, the hit location's modifier
/// ([`super::location::HitLocation::knockdown_modifier`]), +3 High Pain Threshold, −4 Low
/// Pain Threshold).
pub fn knockdown_modifiers(
    ht: i32,
    location: Option<Modifier>,
    pain: PainThreshold,
) -> Vec<Modifier> {
    let mut mods = vec![Modifier::new("HT", ht)];
    mods.extend(location);
    match pain {
        PainThreshold::Normal => {}
        PainThreshold::High => mods.push(Modifier::new("High Pain Threshold", 3)),
        PainThreshold::Low => mods.push(Modifier::new("Low Pain Threshold", -4)),
    }
    mods
}

/// Modifier to every active defense while stunned (gurps-lite-and-socs.txt, "INJURY",
/// Stunned: "all active defenses at −4").
pub const STUNNED_DEFENSE: i32 = -4;

#[cfg(test)]
mod tests {
    use super::*;

    /// gurps-lite-and-socs.txt "INJURY", Shock: −1 per HP lost, at most −4.
    #[test]
    fn shock_is_injury_capped_at_four() {
        assert_eq!(shock_after(0, 2, 1, MAX_SHOCK, PainThreshold::Normal), 2);
        assert_eq!(shock_after(0, 7, 1, MAX_SHOCK, PainThreshold::Normal), 4);
        assert_eq!(shock_after(3, 3, 1, MAX_SHOCK, PainThreshold::Normal), 4);
        assert_eq!(shock_after(3, 0, 1, MAX_SHOCK, PainThreshold::Normal), 3);
        // groin: double shock, −8 at most (gurps-lite-and-socs.txt, "HIT LOCATIONS")
        assert_eq!(shock_after(0, 3, 2, 8, PainThreshold::Normal), 6);
        assert_eq!(shock_after(0, 5, 2, 8, PainThreshold::Normal), 8);
    }

    #[test]
    fn pain_thresholds_change_shock() {
        assert_eq!(shock_after(0, 3, 1, MAX_SHOCK, PainThreshold::High), 0);
        assert_eq!(shock_after(0, 3, 1, MAX_SHOCK, PainThreshold::Low), 6);
        assert_eq!(shock_after(0, 9, 1, MAX_SHOCK, PainThreshold::Low), 8);
    }

    /// "a single injury of > HP/2": with 10 HP, 6 is major and 5 is not; with 11 HP, 6 is.
    #[test]
    fn major_wound_is_more_than_half_hp() {
        assert!(is_major_wound(6, 10));
        assert!(!is_major_wound(5, 10));
        assert!(is_major_wound(6, 11));
        assert!(!is_major_wound(5, 11));
    }

    /// "+3 High Pain Threshold; −4 Low Pain"; "−10 Major Wound to skull or eye".
    #[test]
    fn knockdown_roll() {
        let sum = |m: Vec<Modifier>| m.iter().map(|m| m.value).sum::<i32>();
        assert_eq!(
            sum(knockdown_modifiers(11, None, PainThreshold::Normal)),
            11
        );
        assert_eq!(sum(knockdown_modifiers(11, None, PainThreshold::High)), 14);
        assert_eq!(sum(knockdown_modifiers(11, None, PainThreshold::Low)), 7);
        let skull = Some(Modifier::new("major wound to the skull", -10));
        assert_eq!(
            sum(knockdown_modifiers(12, skull, PainThreshold::Normal)),
            2
        );
    }
}

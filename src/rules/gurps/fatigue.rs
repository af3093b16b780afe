//! Fatigue (gurps-lite-and-socs.txt, "LOST FATIGUE POINTS") and the optional extra-effort
//! rules that spend it ("ATTACK/DEFENSE OPTIONS": Flurry of Blows, Mighty Blow, Heroic
//! Charge, Feverish Defense, Rapid Recovery).
//!
//! Decisions: Will, which the quick reference asks for at 0 FP or less, is IQ (the 4e
//! default); the half Move and Dodge of low FP and of low HP both apply when both hold,
//! each halving rounding up.

/// True below a third of full FP: half Move and Dodge (gurps-lite-and-socs.txt, "LOST
/// FATIGUE POINTS": "< FP/3: Half Move, Dodge, and ST (round up). No effect on HP/damage").
pub fn tired(fp: i32, fp_max: i32) -> bool {
    fp * 3 < fp_max
}

/// What spending fatigue did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FatigueSpent {
    /// FP after.
    pub fp_after: i32,
    /// HP lost as well: one per FP lost at 0 FP or less.
    pub hp_lost: i32,
    /// At −1×FP or below: unconscious.
    pub unconscious: bool,
}

/// Spends `cost` FP from `fp` of `fp_max` (gurps-lite-and-socs.txt, "LOST FATIGUE POINTS":
/// at 0 FP or less each FP lost also costs 1 HP; at −1×FP the fighter falls unconscious).
pub fn spend_fatigue(fp: i32, fp_max: i32, cost: i32) -> FatigueSpent {
    let mut now = fp;
    let mut hp_lost = 0;
    for _ in 0..cost.max(0) {
        if now <= 0 {
            hp_lost += 1;
        }
        now -= 1;
    }
    FatigueSpent {
        fp_after: now,
        hp_lost,
        unconscious: now <= -fp_max,
    }
}

/// True when acting needs a Will roll: at 0 FP or less, any maneuver but Do Nothing
/// (gurps-lite-and-socs.txt, "LOST FATIGUE POINTS").
pub fn will_roll_to_act(fp: i32) -> bool {
    fp <= 0
}

/// The scenario option for extra effort and its FP costs (gurps-lite-and-socs.txt,
/// "ATTACK/DEFENSE OPTIONS", the options marked *).
pub mod cost {
    /// Flurry of Blows: 1 FP per attack of a Rapid Strike (2 in all).
    pub const FLURRY: i32 = 2;
    /// Mighty Blow: +2 melee damage.
    pub const MIGHTY_BLOW: i32 = 1;
    /// Heroic Charge: no Move and Attack penalty or cap.
    pub const HEROIC_CHARGE: i32 = 1;
    /// Feverish Defense: +2 to one active defense.
    pub const FEVERISH_DEFENSE: i32 = 1;
    /// Rapid Recovery: a parry with the weapon of a Move and Attack.
    pub const RAPID_RECOVERY: i32 = 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "< FP/3": with FP 10, 3 is tired and 4 is not.
    #[test]
    fn tired_below_a_third() {
        assert!(tired(3, 10));
        assert!(!tired(4, 10));
        assert!(!tired(4, 12));
        assert!(tired(3, 12));
    }

    /// "Lose 1 HP for each FP lost" at 0 FP or less; "−1xFP: You fall unconscious".
    #[test]
    fn spending_fatigue() {
        assert_eq!(
            spend_fatigue(5, 10, 2),
            FatigueSpent {
                fp_after: 3,
                hp_lost: 0,
                unconscious: false
            }
        );
        assert_eq!(spend_fatigue(1, 10, 2).hp_lost, 1);
        assert_eq!(spend_fatigue(0, 10, 2).hp_lost, 2);
        assert!(spend_fatigue(-9, 10, 1).unconscious);
        assert!(!spend_fatigue(-8, 10, 1).unconscious);
        assert!(will_roll_to_act(0));
        assert!(!will_roll_to_act(1));
    }
}

//! GURPS postures and their effects on attacking, defending, being shot at and moving
//! (gurps-lite-and-socs.txt, "POSTURES" and "CHANGE POSTURE"; gurps-traveller-gm-screen.txt,
//! "POSITIONS" and "RANGED ATTACK MODIFIERS", target's position).
//!
//! Where the two texts give numbers for the same thing the 4e quick reference wins
//! (rules/README.md decision 5): attack −2 crouching, kneeling or sitting, −4 crawling or
//! lying; defense −2 kneeling or sitting, −3 crawling or lying. Movement and to-be-hit come
//! from the Traveller screen, which the quick reference lacks.

use crate::dice::Modifier;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A body posture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Posture {
    /// On one's feet.
    #[default]
    Standing,
    /// Crouched low.
    Crouching,
    /// On one or both knees.
    Kneeling,
    /// Sitting on the ground.
    Sitting,
    /// On hands and knees.
    Crawling,
    /// Lying down (prone or face up).
    Lying,
}

impl Posture {
    /// Whether a critical failure on a Dodge changes this posture: "Critical fail, Dodge:
    /// Defender falls prone" (gurps-lite-and-socs.txt, the critical effects under "BASE SKILL
    /// LEVELS"), from any posture that is not already lying down.
    pub fn falls_on_dodge_fumble(self) -> bool {
        self != Posture::Lying
    }

    /// Every posture, standing first.
    pub const ALL: [Posture; 6] = [
        Posture::Standing,
        Posture::Crouching,
        Posture::Kneeling,
        Posture::Sitting,
        Posture::Crawling,
        Posture::Lying,
    ];

    /// Modifier to the fighter's own attack rolls (gurps-lite-and-socs.txt, "POSTURES":
    /// −2 crouching, kneeling or sitting; −4 crawling or lying down).
    pub fn attack_modifier(self) -> i32 {
        match self {
            Posture::Standing => 0,
            Posture::Crouching | Posture::Kneeling | Posture::Sitting => -2,
            Posture::Crawling | Posture::Lying => -4,
        }
    }

    /// Modifier to the fighter's active defenses (gurps-lite-and-socs.txt, "POSTURES":
    /// crouching normal defense, kneeling or sitting −2, crawling or lying down −3).
    pub fn defense_modifier(self) -> i32 {
        match self {
            Posture::Standing | Posture::Crouching => 0,
            Posture::Kneeling | Posture::Sitting => -2,
            Posture::Crawling | Posture::Lying => -3,
        }
    }

    /// Modifier to ranged attacks on a fighter in this posture when it has no cover
    /// (gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS", target's position:
    /// crouching, sitting or kneeling without cover −2; prone or crawling without cover −4).
    pub fn ranged_target_modifier(self) -> i32 {
        match self {
            Posture::Standing => 0,
            Posture::Crouching | Posture::Kneeling | Posture::Sitting => -2,
            Posture::Crawling | Posture::Lying => -4,
        }
    }

    /// Hexes a fighter with `move_` Move can cover in this posture
    /// (gurps-traveller-gm-screen.txt, "POSITIONS", movement: crouching +1/2 cost per hex,
    /// kneeling and crawling +2 cost per hex, sitting cannot move, lying down 1 hex a turn).
    /// A cost of 1.5 or 3 per hex allows Move × 2/3 or Move / 3 hexes, rounded down.
    pub fn move_allowance(self, move_: i32) -> i32 {
        let m = move_.max(0);
        match self {
            Posture::Standing => m,
            Posture::Crouching => m * 2 / 3,
            Posture::Kneeling | Posture::Crawling => m / 3,
            Posture::Sitting => 0,
            Posture::Lying => m.min(1),
        }
    }

    /// Whether one Change Posture maneuver goes from this posture to `to`
    /// (gurps-lite-and-socs.txt, "CHANGE POSTURE": any posture to any other, except that
    /// getting up from lying to standing takes two turns, so lying goes to another posture
    /// first).
    pub fn can_change_to(self, to: Posture) -> bool {
        self != to && !(self == Posture::Lying && to == Posture::Standing)
    }

    /// True for the postures a fighter with a crippled leg cannot take: standing and
    /// crouching (decision: 4e Basic Set p. B420).
    pub fn needs_both_legs(self) -> bool {
        matches!(self, Posture::Standing | Posture::Crouching)
    }

    /// The attack modifier as a labelled modifier, if any.
    pub fn attack_label(self) -> Option<Modifier> {
        let v = self.attack_modifier();
        (v != 0).then(|| Modifier::new(self.attacking_label(), v))
    }

    /// The defense modifier as a labelled modifier, if any.
    pub fn defense_label(self) -> Option<Modifier> {
        let v = self.defense_modifier();
        (v != 0).then(|| Modifier::new(self.defending_label(), v))
    }

    fn attacking_label(self) -> &'static str {
        match self {
            Posture::Standing => "standing",
            Posture::Crouching => "attacking while crouching",
            Posture::Kneeling => "attacking while kneeling",
            Posture::Sitting => "attacking while sitting",
            Posture::Crawling => "attacking while crawling",
            Posture::Lying => "attacking while lying down",
        }
    }

    fn defending_label(self) -> &'static str {
        match self {
            Posture::Standing => "standing",
            Posture::Crouching => "crouching",
            Posture::Kneeling => "kneeling",
            Posture::Sitting => "sitting",
            Posture::Crawling => "crawling",
            Posture::Lying => "lying down",
        }
    }
}

impl fmt::Display for Posture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.defending_label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gurps-lite-and-socs.txt: "Critical fail, Dodge: Defender falls prone" — kneeling,
    /// crouching or sitting defenders fall too (issue 26 item 2), a lying one cannot.
    #[test]
    fn a_dodge_fumble_fells_every_posture_but_lying() {
        for p in Posture::ALL {
            assert_eq!(p.falls_on_dodge_fumble(), p != Posture::Lying, "{p:?}");
        }
        assert!(Posture::Kneeling.falls_on_dodge_fumble());
    }

    /// gurps-lite-and-socs.txt "POSTURES": attack −2 crouching/kneeling/sitting, −4
    /// crawling/lying; defense normal crouching, −2 kneeling/sitting, −3 crawling/lying.
    #[test]
    fn attack_and_defense_by_posture() {
        let attack: Vec<i32> = Posture::ALL.iter().map(|p| p.attack_modifier()).collect();
        assert_eq!(attack, vec![0, -2, -2, -2, -4, -4]);
        let defense: Vec<i32> = Posture::ALL.iter().map(|p| p.defense_modifier()).collect();
        assert_eq!(defense, vec![0, 0, -2, -2, -3, -3]);
        assert_eq!(Posture::Standing.attack_label(), None);
        assert_eq!(Posture::Lying.defense_label().map(|m| m.value), Some(-3));
    }

    /// gurps-traveller-gm-screen.txt "RANGED ATTACK MODIFIERS": crouching, sitting or
    /// kneeling without cover −2; prone or crawling without cover −4.
    #[test]
    fn harder_to_shoot_when_low() {
        let v: Vec<i32> = Posture::ALL
            .iter()
            .map(|p| p.ranged_target_modifier())
            .collect();
        assert_eq!(v, vec![0, -2, -2, -2, -4, -4]);
    }

    /// gurps-traveller-gm-screen.txt "POSITIONS": crouching +1/2 cost per hex, kneeling and
    /// crawling +2, sitting cannot move, lying 1 hex a turn. Move 6: 6, 4, 2, 0, 2, 1.
    #[test]
    fn movement_by_posture() {
        let v: Vec<i32> = Posture::ALL.iter().map(|p| p.move_allowance(6)).collect();
        assert_eq!(v, vec![6, 4, 2, 0, 2, 1]);
        assert_eq!(Posture::Crawling.move_allowance(2), 0);
        assert_eq!(Posture::Lying.move_allowance(0), 0);
    }

    /// gurps-lite-and-socs.txt "CHANGE POSTURE": lying to standing takes two turns.
    #[test]
    fn getting_up_from_lying_takes_two_changes() {
        assert!(!Posture::Lying.can_change_to(Posture::Standing));
        assert!(Posture::Lying.can_change_to(Posture::Kneeling));
        assert!(Posture::Kneeling.can_change_to(Posture::Standing));
        assert!(Posture::Standing.can_change_to(Posture::Lying));
        assert!(!Posture::Sitting.can_change_to(Posture::Sitting));
    }
}

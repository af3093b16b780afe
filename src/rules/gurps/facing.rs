//! Facing arcs: from which side an attack comes, and what that does to the defender's
//! options (gurps-lite-and-socs.txt, "MANEUVERS" and the facing rules;
//! gurps-traveller-gm-screen.txt, "MODIFIERS TO ACTIVE DEFENSE ROLLS": side attack −2).
//!
//! Decision: the arc is read from the hex side nearest the line to the attacker (hexx's
//! `main_direction_to`): the faced side and its two neighbours are the front, the next two
//! the sides, the opposite one the back. An attack from the back allows no active defense
//! (4e Basic Set p. B391; the texts give only the side penalty).

use crate::dice::Modifier;
use hexx::{EdgeDirection, Hex};

/// Where an attack comes from, seen by the defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arc {
    /// The three front hex sides.
    Front,
    /// Left or right.
    Side,
    /// Directly behind.
    Back,
}

/// The arc of `attacker` as seen from a defender at `defender` facing `facing`.
pub fn arc_of(defender: Hex, facing: EdgeDirection, attacker: Hex) -> Arc {
    if attacker == defender {
        return Arc::Front;
    }
    let toward = defender.main_direction_to(attacker);
    let steps = (6 + i32::from(toward.index()) - i32::from(facing.index())) % 6;
    match steps {
        0 | 1 | 5 => Arc::Front,
        2 | 4 => Arc::Side,
        _ => Arc::Back,
    }
}

/// The defense modifier for an attack from the side (−2), as a labelled modifier.
pub fn side_attack() -> Modifier {
    Modifier::new("attack from the side", -2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Facing east (pointy hexes): east and its neighbours are front, the next two sides,
    /// west behind.
    #[test]
    fn arcs_around_a_hex() {
        let at = Hex::ZERO;
        let facing = at.main_direction_to(Hex::new(1, 0));
        let arcs: Vec<Arc> = EdgeDirection::ALL_DIRECTIONS
            .iter()
            .map(|d| arc_of(at, facing, at + *d))
            .collect();
        assert_eq!(arcs.iter().filter(|a| **a == Arc::Front).count(), 3);
        assert_eq!(arcs.iter().filter(|a| **a == Arc::Side).count(), 2);
        assert_eq!(arcs.iter().filter(|a| **a == Arc::Back).count(), 1);
        assert_eq!(arc_of(at, facing, Hex::new(1, 0)), Arc::Front);
        assert_eq!(arc_of(at, facing, Hex::new(-1, 0)), Arc::Back);
        // far away, the same sectors
        assert_eq!(arc_of(at, facing, Hex::new(-5, 0)), Arc::Back);
        assert_eq!(arc_of(at, facing, Hex::new(6, -1)), Arc::Front);
        assert_eq!(side_attack().value, -2);
    }
}

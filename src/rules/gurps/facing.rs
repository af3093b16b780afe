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

/// The facing a fighter may take at the end of a move: any facing after spending up to half
/// its Move, otherwise at most one hex side away from the way it travelled
/// (gurps-traveller-gm-screen.txt, "MANEUVERS" table, Move: "Facing Change (end of move)":
/// "Up to 1/2 Move: any facing. More than 1/2: change 1 hexside.").
///
/// `travel` is the facing the move left it with, `wanted` the facing it would take, `spent`
/// the movement points used and `move_` its Move. A turn of three hex sides (straight back)
/// goes clockwise.
pub fn end_of_move_facing(
    travel: EdgeDirection,
    wanted: EdgeDirection,
    spent: u32,
    move_: u32,
) -> EdgeDirection {
    if spent * 2 <= move_ || wanted == travel {
        return wanted;
    }
    let steps = (6 + i32::from(wanted.index()) - i32::from(travel.index())) % 6;
    if steps <= 3 {
        travel.clockwise()
    } else {
        travel.counter_clockwise()
    }
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

    /// gurps-traveller-gm-screen.txt, "MANEUVERS" table: with Move 5, a 2-point move
    /// (up to half) ends in any facing; a 3-point move turns one hex side at most.
    #[test]
    fn facing_after_a_move_depends_on_the_points_spent() {
        let travel = EdgeDirection::ALL_DIRECTIONS[0];
        let behind = travel.const_neg();
        assert_eq!(end_of_move_facing(travel, behind, 2, 5), behind);
        let limited = end_of_move_facing(travel, behind, 3, 5);
        assert_ne!(limited, behind);
        let turned = (6 + i32::from(limited.index()) - i32::from(travel.index())) % 6;
        assert!(turned == 1 || turned == 5, "one hex side, not {turned}");
        // one side away is always allowed, and so is keeping the travel facing
        let beside = travel.counter_clockwise();
        assert_eq!(end_of_move_facing(travel, beside, 5, 5), beside);
        assert_eq!(end_of_move_facing(travel, travel, 5, 5), travel);
        // two sides away: one side toward it
        let two = travel.clockwise().clockwise();
        assert_eq!(end_of_move_facing(travel, two, 4, 5), travel.clockwise());
        let two_ccw = travel.counter_clockwise().counter_clockwise();
        assert_eq!(
            end_of_move_facing(travel, two_ccw, 4, 5),
            travel.counter_clockwise()
        );
    }
}

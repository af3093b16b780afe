//! A GURPS action once checked: the [`Plan`] the rules resolve (the maneuver, the path
//! walked, target, weapon and options) and the attack rolls it makes
//! (gurps-lite-and-socs.txt, "MANEUVERS", "ALL-OUT ATTACK", "ATTACK/DEFENSE OPTIONS").

use super::location::HitLocation;
use super::maneuver::{AoaOption, Effort, Maneuver};
use crate::battle::UnitId;
use hexx::Hex;

/// A checked action, ready to resolve.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The maneuver.
    pub maneuver: Maneuver,
    /// Hexes walked, the start first (just the start if staying).
    pub path: Vec<Hex>,
    /// Movement points spent.
    pub cost: u32,
    /// Target (index into the situation's units).
    pub target: Option<usize>,
    /// Weapon index.
    pub weapon: Option<usize>,
    /// Hit location aimed at.
    pub location: Option<HitLocation>,
    /// Deceptive Attack levels.
    pub deceptive: u8,
    /// Telegraphic Attack.
    pub telegraphic: bool,
    /// Shots fired (1 for a blow or a single shot).
    pub shots: u32,
    /// Rapid Strike and extra effort.
    pub effort: Effort,
    /// The second Rapid Strike's target (index into the situation's units).
    pub second_target: Option<usize>,
    /// A braced Aim.
    pub brace: bool,
    /// Opportunity fire from a Wait: −8 for watching more than ten hexes
    /// (gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS", opportunity fire).
    pub opportunity_fire: bool,
    /// Aimed at a chink in the armor.
    pub chink: bool,
    /// A disarm: the penalty to strike the foe's weapon, with the extra −2.
    pub disarm: Option<i32>,
    /// A group attack: the members striking (index into the situation's units) with their
    /// weapons, the acting unit first.
    pub group: Vec<(usize, u8)>,
}

/// One attack roll of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedStrike {
    /// At the second target of a Rapid Strike or a Dual-Weapon Attack (the first target
    /// when the plan names none).
    pub second_target: bool,
    /// Weapon index.
    pub weapon: usize,
    /// One of a Dual-Weapon Attack's two attacks: `Some(true)` with the off hand.
    pub dual: Option<bool>,
}

impl Plan {
    /// A plan of `maneuver` made where the unit stands at `at`, with no target, weapon or
    /// option (one shot).
    pub fn simple(maneuver: Maneuver, at: Hex) -> Self {
        Plan {
            maneuver,
            path: vec![at],
            cost: 0,
            target: None,
            weapon: None,
            location: None,
            deceptive: 0,
            telegraphic: false,
            shots: 1,
            effort: Effort::default(),
            second_target: None,
            brace: false,
            opportunity_fire: false,
            chink: false,
            disarm: None,
            group: Vec::new(),
        }
    }

    /// Where the unit ends its movement.
    pub fn end(&self) -> Hex {
        *self.path.last().unwrap_or(&Hex::ZERO)
    }

    /// The attack rolls an attacking plan makes, in order: two for All-Out Attack (Double)
    /// on the same foe, two for a Rapid Strike and for a Dual-Weapon Attack (the second
    /// may go to a second foe), otherwise one (gurps-lite-and-socs.txt, "ALL-OUT ATTACK"
    /// and "ATTACK/DEFENSE OPTIONS"). None without a weapon.
    pub fn strikes(&self) -> Vec<PlannedStrike> {
        let Some(weapon) = self.weapon else {
            return Vec::new();
        };
        let first = PlannedStrike {
            second_target: false,
            weapon,
            dual: None,
        };
        if self.maneuver == Maneuver::AllOutAttack(AoaOption::Double) {
            vec![first, first]
        } else if self.effort.rapid_strike {
            vec![
                first,
                PlannedStrike {
                    second_target: true,
                    ..first
                },
            ]
        } else if let Some(second) = self.effort.dual_weapon {
            vec![
                PlannedStrike {
                    dual: Some(false),
                    ..first
                },
                PlannedStrike {
                    second_target: true,
                    weapon: usize::from(second),
                    dual: Some(true),
                },
            ]
        } else {
            vec![first]
        }
    }

    /// A Dual-Weapon Attack whose two attacks both go to `target` (the first target): "Foe
    /// defends at −1 if he is the target of both attacks" (gurps-lite-and-socs.txt,
    /// "ATTACK/DEFENSE OPTIONS").
    pub fn dual_same_foe(&self, target: UnitId) -> bool {
        self.effort.dual_weapon.is_some() && self.effort.second_target.is_none_or(|t| t == target)
    }
}

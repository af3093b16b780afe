//! Battles that would not end. No rule text covers them, so this is the project's decision
//! (docs/scenario-format.md, "Victory"): a round in which nobody attacked, was hurt, was
//! knocked back or changed standing is quiet, and after [`QUIET_ROUNDS`] quiet rounds in a
//! row the battle is a draw by stalemate (ships that lost their engines out of range of
//! each other, fighters who both wait for the other, everyone out of ammunition, fliers who
//! circle without ever closing). Moving does not count: units that wander for fifty rounds
//! without an attack are not fighting, and fifty rounds are more than any approach across a
//! shipped map takes. The round cap ([`MAX_ROUNDS`](super::MAX_ROUNDS)) stays as the last
//! resort, reported as such.
//!
//! The rule reads only the battle's events, so it holds for every ruleset alike.

use super::BattleEvent;
use bevy::ecs::resource::Resource;

/// Quiet rounds in a row after which a battle is a stalemate.
pub const QUIET_ROUNDS: u32 = 50;

/// Whether anything happened this round, and how many rounds before it were quiet.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Activity {
    /// Something happened in the round under way.
    pub active: bool,
    /// Quiet rounds in a row, up to the last round that ended.
    pub quiet_rounds: u32,
    /// The last round counted.
    pub counted: u32,
}

/// Whether an event shows the fight going on: an attack (hit or not), damage, knockback or
/// a change of standing.
pub fn is_activity(event: &BattleEvent) -> bool {
    matches!(
        event,
        BattleEvent::Attack { .. }
            | BattleEvent::Damage { .. }
            | BattleEvent::Knockback { .. }
            | BattleEvent::StatusChanged { .. }
    )
}

impl Activity {
    /// Counts the events of a step, and at the end of a round (`round_over`) whether the
    /// round was quiet (once a round).
    pub fn note<'a>(
        &mut self,
        events: impl IntoIterator<Item = &'a BattleEvent>,
        round: u32,
        round_over: bool,
    ) {
        if events.into_iter().any(is_activity) {
            self.active = true;
        }
        if round_over && round > self.counted {
            self.counted = round;
            self.quiet_rounds = if self.active {
                0
            } else {
                self.quiet_rounds + 1
            };
            self.active = false;
        }
    }

    /// True once [`QUIET_ROUNDS`] rounds in a row were quiet.
    pub fn stalemate(&self) -> bool {
        self.quiet_rounds >= QUIET_ROUNDS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::UnitId;

    fn fell(unit: u32) -> BattleEvent {
        BattleEvent::StatusChanged {
            unit: UnitId(unit),
            standing: crate::battle::Standing::Unconscious,
            cause: "0 HP".into(),
        }
    }

    #[test]
    fn fifty_rounds_in_a_row_without_an_attack_or_a_wound_are_a_stalemate() {
        let mut a = Activity::default();
        let note = BattleEvent::Note {
            unit: None,
            text: "range roll".into(),
        };
        let moved = BattleEvent::Moved {
            unit: UnitId(0),
            path: vec![(0, 0), (1, 0)],
            cost: 1,
        };
        for round in 1..=5 {
            a.note([&fell(round)], round, false);
            a.note([], round, true);
        }
        assert_eq!(a.quiet_rounds, 0);
        for round in 6..=54 {
            // notes, rolls and moves are not fighting
            a.note([&note, &moved], round, true);
            // asked again at the end of the same round: counted once
            a.note([], round, true);
        }
        assert_eq!(a.quiet_rounds, 49);
        assert!(!a.stalemate());
        a.note([], 55, true);
        assert!(a.stalemate());
        // a change of standing sets the count back
        a.note([&fell(1)], 56, true);
        assert_eq!((a.quiet_rounds, a.stalemate()), (0, false));
    }
}

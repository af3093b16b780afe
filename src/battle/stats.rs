//! Per-unit tallies of a battle (attacks made, hits, damage dealt and taken), counted from
//! the same events the log shows. The preview aggregates these over many battles.

use super::{BattleEvent, UnitId};
use bevy::ecs::resource::Resource;
use serde::Serialize;

/// What one unit did and suffered in one battle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct UnitTally {
    /// Attack rolls made.
    pub attacks: u32,
    /// Attacks that connected (not missed, not defended).
    pub hits: u32,
    /// Injury dealt to others.
    pub damage_dealt: i64,
    /// Injury taken.
    pub damage_taken: i64,
    /// Turns begun ([`BattleEvent::TurnStarted`]; rulesets that log no turns of their own,
    /// such as GURPS Traveller's phases, count none).
    pub turns: u32,
}

/// Tallies by [`UnitId`].
#[derive(Resource, Clone, Debug, Default)]
pub struct BattleStats {
    /// One tally per unit, in [`UnitId`] order.
    pub units: Vec<UnitTally>,
}

impl BattleStats {
    /// Zeroed tallies for `count` units.
    pub fn new(count: usize) -> Self {
        Self {
            units: vec![UnitTally::default(); count],
        }
    }

    fn tally(&mut self, id: UnitId) -> Option<&mut UnitTally> {
        self.units.get_mut(id.0 as usize)
    }

    /// Counts one event.
    pub fn count(&mut self, event: &BattleEvent) {
        match event {
            BattleEvent::Attack {
                attacker, result, ..
            } => {
                if let Some(t) = self.tally(*attacker) {
                    t.attacks += 1;
                    if result.hit() {
                        t.hits += 1;
                    }
                }
            }
            BattleEvent::Damage {
                attacker,
                target,
                injury,
                ..
            } => {
                if let Some(t) = attacker.and_then(|a| self.tally(a)) {
                    t.damage_dealt += i64::from(*injury);
                }
                if let Some(t) = self.tally(*target) {
                    t.damage_taken += i64::from(*injury);
                }
            }
            BattleEvent::TurnStarted { unit } => {
                if let Some(t) = self.tally(*unit) {
                    t.turns += 1;
                }
            }
            _ => {}
        }
    }
}

//! [`BattleEvent`]: what happened, as the rulesets report it. The combat log, the
//! statistics, the GUI and the replay recorder all read these same messages.

use super::{OutcomeKind, Standing, UnitId};
use crate::dice::{Label, Modifier, RollRecord};
use bevy::ecs::message::Message;
use hexx::Hex;
use serde::Serialize;
use std::borrow::Cow;

/// Axial coordinates of a hex as a pair, for logs and JSON.
pub fn hex_pair(hex: Hex) -> (i32, i32) {
    (hex.x, hex.y)
}

/// How an attack turned out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum AttackResult {
    /// The attack roll failed.
    Miss,
    /// The attack roll succeeded but the defense succeeded too.
    Defended,
    /// The attack hit.
    Hit,
    /// A critical hit: no defense was allowed.
    CriticalHit,
}

impl AttackResult {
    /// True when the attack connected.
    pub fn hit(self) -> bool {
        matches!(self, AttackResult::Hit | AttackResult::CriticalHit)
    }
}

/// The defense roll against an attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DefenseRecord {
    /// Which defense ("Dodge", "Parry (broadsword)").
    pub defense: Label,
    /// The roll.
    pub roll: RollRecord,
}

/// Something that happened in a battle.
#[derive(Message, Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum BattleEvent {
    /// A new round began.
    RoundStarted {
        /// Round number, from 1.
        round: u32,
    },
    /// A unit's turn began.
    TurnStarted {
        /// Whose turn.
        unit: UnitId,
    },
    /// A unit declared what it does this turn.
    ActionChosen {
        /// Who.
        unit: UnitId,
        /// The action in words, e.g. "Attack Bruno with Broadsword".
        action: String,
    },
    /// A unit moved along a path of hexes (its start hex first).
    Moved {
        /// Who.
        unit: UnitId,
        /// Hexes in order, as axial `(q, r)`.
        path: Vec<(i32, i32)>,
        /// Movement points spent.
        cost: u32,
    },
    /// A unit was thrown back by a blow (knockback), along a path of hexes (its start hex
    /// first).
    Knockback {
        /// Who was thrown.
        unit: UnitId,
        /// Distance the blow called for, in the ruleset's units (yards for GURPS).
        distance: u32,
        /// Hexes in order, as axial `(q, r)`.
        path: Vec<(i32, i32)>,
        /// What stopped it short, if anything ("a wall", a unit's name).
        stopped_by: Option<String>,
    },
    /// A roll that is not an attack or damage (HT to stay conscious, a death check, an
    /// initiative tie-break).
    Roll {
        /// Who rolled.
        unit: UnitId,
        /// What for.
        purpose: Cow<'static, str>,
        /// The roll.
        roll: RollRecord,
        /// What it meant, in words.
        result: Cow<'static, str>,
    },
    /// An attack, with the target's defense if one was rolled.
    Attack {
        /// Who attacked.
        attacker: UnitId,
        /// At whom.
        target: UnitId,
        /// With what (weapon name).
        weapon: Label,
        /// The attack roll.
        roll: RollRecord,
        /// The defense roll(s), in order.
        defenses: Vec<DefenseRecord>,
        /// How it ended.
        result: AttackResult,
    },
    /// Damage to a unit: basic damage rolled, then each labelled step (DR, wounding
    /// multiplier) as a change, giving the injury.
    Damage {
        /// Who dealt it, if anyone.
        attacker: Option<UnitId>,
        /// Who took it.
        target: UnitId,
        /// The damage roll (basic damage).
        roll: RollRecord,
        /// Damage type ("cut", "cr", "imp"...).
        damage_type: Cow<'static, str>,
        /// Each step from basic damage to injury, as a labelled change.
        steps: Vec<Modifier>,
        /// Injury: hit points lost.
        injury: i32,
        /// Hit points before.
        hp_before: i32,
        /// Hit points after.
        hp_after: i32,
        /// Full hit points.
        hp_max: i32,
        /// Where the blow landed, if the ruleset has hit locations.
        location: Option<Cow<'static, str>>,
    },
    /// A unit's standing changed (fell unconscious, died, escaped).
    StatusChanged {
        /// Who.
        unit: UnitId,
        /// New standing.
        standing: Standing,
        /// Why, in words.
        cause: Cow<'static, str>,
    },
    /// A remark from a ruleset (an effect taking hold or wearing off).
    Note {
        /// About whom, if anyone.
        unit: Option<UnitId>,
        /// What.
        text: String,
    },
    /// The game master changed a unit by hand (a recorded edit: `play`).
    GameMaster {
        /// Which unit.
        unit: UnitId,
        /// The change in words ("HP 12 -> 6").
        change: String,
        /// Why, as the GM said it (may be empty).
        reason: String,
    },
    /// A command was refused as illegal; nothing happened.
    Rejected {
        /// Whose command.
        unit: UnitId,
        /// Why.
        reason: String,
    },
    /// The battle is over.
    BattleEnded {
        /// How it ended.
        outcome: OutcomeKind,
        /// In which round.
        round: u32,
    },
}

/// Pushes the event `make` makes, one only the combat log reads (a note, a roll that is
/// not an attack, a path moved), unless the battle is `quiet` (it keeps no log:
/// [`CombatLog::keep`](super::CombatLog) is off): its words are put together only when
/// someone will read them. The rulesets that gather a step's events in a list all write
/// their log-only events through this.
pub fn log_only(events: &mut Vec<BattleEvent>, quiet: bool, make: impl FnOnce() -> BattleEvent) {
    if !quiet {
        events.push(make());
    }
}

impl BattleEvent {
    /// Each roll the event shows, with the unit that rolled it: an attack roll is its
    /// attacker's, a defense its target's, damage its dealer's (nobody's without one: a
    /// fall, a collision), any other roll its unit's.
    pub fn rolls(&self) -> Vec<(Option<UnitId>, &RollRecord)> {
        match self {
            BattleEvent::Roll { unit, roll, .. } => vec![(Some(*unit), roll)],
            BattleEvent::Attack {
                attacker,
                target,
                roll,
                defenses,
                ..
            } => std::iter::once((Some(*attacker), roll))
                .chain(defenses.iter().map(|d| (Some(*target), &d.roll)))
                .collect(),
            BattleEvent::Damage { attacker, roll, .. } => vec![(*attacker, roll)],
            _ => Vec::new(),
        }
    }

    /// [`BattleEvent::rolls`], to change.
    pub fn rolls_mut(&mut self) -> Vec<(Option<UnitId>, &mut RollRecord)> {
        match self {
            BattleEvent::Roll { unit, roll, .. } => vec![(Some(*unit), roll)],
            BattleEvent::Attack {
                attacker,
                target,
                roll,
                defenses,
                ..
            } => {
                let target = *target;
                std::iter::once((Some(*attacker), roll))
                    .chain(defenses.iter_mut().map(|d| (Some(target), &mut d.roll)))
                    .collect()
            }
            BattleEvent::Damage { attacker, roll, .. } => vec![(*attacker, roll)],
            _ => Vec::new(),
        }
    }
}

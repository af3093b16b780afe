//! The d12 starship rules (ruleset id `starship-d12`), from
//! starship-d12-quick-reference.txt with rules/README.md decision 3 for the roll.
//!
//! Range is a band kept per pair of enemies ([`range`]), changed in the range phase by
//! piloting rolls; ships then fire in action rounds until everyone passes ([`fleet`]).
//! Gunnery needs 4 at Tailing or Short, 7 at Medium, 9 at Long (missiles their own number)
//! plus the target's defence; Sustain trades damage for +1s after the roll; damage goes
//! through shields, outer armour, the chosen system, its side and the core ([`gunnery`]).
//! The map shows the bands as hex distances ([`place`]). The game master's hand edits
//! (shields, armour, systems, missiles, condition; placing, removing, adding ships) are
//! in [`gm`].
//!
//! Each ship's entity carries its sheet and its [`ShipState`] (hit points, shields,
//! armour, missiles, crew and weapons used, range roll, who moved against it); the rules
//! read them through [`Ships`]. The [`Fleet`] resource keeps only what the ships share:
//! the range of each pair (keyed by their entities), the phase and whose turn it is. A
//! missile is an entity ([`Missile`]) from its launch to the end of its action round.
//!
//! Decisions where the text is silent, each in one place:
//! - Shields and outer armour are pools of points used up by damage, not restored in a
//!   battle ([`gunnery::apply_damage`]).
//! - Each shot needs a gunner from the crew; a crewman acts once a turn, as gunner or as a
//!   helper adding his gunnery; each weapon fires once a turn; a launcher uses one missile
//!   a shot ([`fleet::Fleet::check`]). So every ship runs out of actions and passes.
//! - Which side a system is hit on follows from the chosen system; the defender's choice
//!   is made by a fixed policy for every ship ([`gunnery::defender_choice`]), the
//!   attacker's (at Tailing, whichever of the two fires, or with an edge) by
//!   [`gunnery::attacker_choice`].
//! - A ship on another's tail stays there until a range move opens the range; the tailed
//!   ship cannot close past its tailer. A natural 12 on the range roll goes before every
//!   roll without one ("Natural 12 is always success"); it moves two steps only when its
//!   total beats the other's by 6. Equal range rolls go to the better pilot, then to unit
//!   order ([`range::range_order`]).
//! - Declared shots resolve at the end of the action round, beams before missiles; a ship
//!   destroyed in the round still fires what it declared (simultaneous actions).
//! - A ship whose engines (if it has any) are all out of action cannot change the range.
//! - A ship at Escaped from every enemy leaves the battle; escapes count apart from kills.

pub mod ai;
mod contract;
pub mod fleet;
pub mod gm;
pub mod gunnery;
pub mod place;
pub mod range;
pub mod sheet;
mod systems;

pub use contract::StarshipD12;
pub use fleet::{Action, Fleet, Missile, Phase, Ships, ShipsMut};
pub use range::{Band, Direction};
pub use sheet::{ShipSheet, ShipState, ShipStats};

use crate::battle::{BattleSet, UnitId};
use crate::scenario::Prepared;
use bevy::ecs::prelude::{IntoScheduleConfigs, Schedule};
use serde::{Deserialize, Serialize};

/// The starting range of one pair of enemy ships.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeSpec {
    /// One ship's name (at Tailing: the ship on the other's tail).
    pub from: String,
    /// The other ship's name.
    pub to: String,
    /// The band.
    pub band: Band,
}

/// The ruleset's scenario settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct D12Config {
    /// The range between enemy ships that `ranges` does not list (default Medium).
    #[serde(default)]
    pub start_range: Band,
    /// Starting ranges of particular pairs.
    #[serde(default)]
    pub ranges: Vec<RangeSpec>,
    /// Sides (by id) whose AI ships break off and try to escape when losing.
    #[serde(default)]
    pub may_flee: Vec<String>,
}

/// Adds the starship-d12 systems to a battle-step schedule, in their sets.
pub fn configure(schedule: &mut Schedule) {
    schedule.add_systems((
        systems::begin.in_set(BattleSet::Begin),
        crate::battle::decide_with_units::<Fleet>.in_set(BattleSet::Decide),
        systems::resolve.in_set(BattleSet::Resolve),
    ));
}

/// What the ships of `prepared` share at the start of the battle: the starting ranges
/// between enemies (keyed by the entities of `ships`, spawned already) and which sides may
/// flee.
pub fn new_fleet(prepared: &Prepared, ships: &impl Ships) -> Fleet {
    let Some(config) = prepared.config::<StarshipD12>() else {
        return Fleet::default();
    };
    let mut fleet = Fleet {
        may_flee: prepared
            .sides
            .iter()
            .map(|s| config.may_flee.contains(&s.id))
            .collect(),
        ..Fleet::default()
    };
    let ids: Vec<UnitId> = ships.ids().collect();
    for (k, &a) in ids.iter().enumerate() {
        for &b in &ids[k + 1..] {
            if ships.side_of(a) != ships.side_of(b) {
                fleet.set_range(ships, a, b, config.start_range, None);
            }
        }
    }
    let index = |name: &str| prepared.units.iter().position(|u| u.name == name);
    for r in &config.ranges {
        if let (Some(a), Some(b)) = (index(&r.from), index(&r.to)) {
            let (a, b) = (UnitId(a as u32), UnitId(b as u32));
            fleet.set_range(ships, a, b, r.band, Some(a));
        }
    }
    fleet
}

#[cfg(test)]
mod tests;

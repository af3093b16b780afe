//! The Space Opera Combat System (ruleset id `socs`), from the SOCS half of
//! gurps-lite-and-socs.txt ("Space Opera Combat System (SOCS) - Summary"), with
//! rules/README.md decision 4: the text is a summary, so what it states is implemented and
//! its "unorthodox tactics" and "other maneuvers" are a game-master modifier on a decision
//! and the scenario's own game-master maneuvers, not invented rules.
//!
//! Range is kept per pair of foes (Short, Long, Out of range); the map shows it as hex
//! distance. Each turn is a fire phase (every craft declares its guns' shots, resolved
//! together) then a maneuver phase (pilots declare from the worst Piloting + MR to the best
//! and are resolved in that order). [`dogfight`] holds the state and the turn, [`sheet`]
//! the craft, [`ai`] the policy, [`gm`] the game master's hand edits.
//!
//! Decisions where the summary is silent, each in one place:
//! - Rolls are GURPS 3d6 success rolls (the text is the GURPS Lite companion). Maneuver
//!   rolls are against Piloting + MR (as the text says for Reversal and Follow the Leader).
//! - A dodge is a roll against Piloting/2 + MR (GURPS 4e vehicle dodge, MR as handling); a
//!   critical hit or an automatic hit cannot be dodged ([`dogfight::Dogfight::hit`]).
//! - "Firing without ABs" is a snap shot: a gun with no aiming bonus on its target fires at
//!   −5. Sustained Fire grows by 1 for each turn a gun fires at the same target and is
//!   lost when it stops or changes target.
//! - Light damage: the craft loses this turn's maneuver and next turn's fire, all its
//!   aiming bonuses, and is damaged. On a craft with hit locations a random location (a die
//!   with one face per location) is knocked out with the guns mounted there. Continuing
//!   damage: a further light hit is heavy on a craft without locations (fighters); a craft
//!   with locations loses the one the die picks, and only a hit on a location already out
//!   (or on its last working one) is heavy, so big ships wear down location by location.
//! - Heavy: fighters destroyed, other craft disabled; minor characters aboard die. Great:
//!   vaporized, minor characters die, a major one survives an HT roll. Extreme: everyone
//!   dies. ("Minor characters rarely harm major characters" is storytelling, not modelled.)
//! - Furball: more than six craft still fighting. A critical failure on a piloting roll
//!   collides with a random craft: both take a heavy hit. A snap-shooting gunner who fails
//!   perception (rolled after the shot) fired on a random friendly craft instead: the same
//!   dice are judged against that friend's size.
//! - Reversal is a GURPS Quick Contest (a success beats a failure, else the better margin;
//!   equal margins: nothing changes). As pilots declare worst first, a Reversal may be
//!   declared in advance against a foe still to declare; it comes to nothing unless that
//!   foe maneuvers offensively against the craft. A defender's critical swap respects the
//!   class limits on gaining Position.
//! - Go Totally Defensive is rolled against Piloting alone (the text's exception).
//! - Follow the Leader: the chasers are the foes with Position on the leader; ships of the
//!   line can neither lead nor chase (a chasing one loses the leader). A chaser that loses
//!   the leader cannot fire at it in the next fire phase.
//! - Unarmed types: shuttles and yachts count as cutters, freighters as ships of the line.
//! - A craft out of range of every foe has escaped if it opened one of those ranges itself
//!   (the foes it left hold the field); a fight cannot start out of range.

pub mod ai;
mod contract;
pub mod dogfight;
pub mod gm;
pub mod sheet;
mod systems;

pub use contract::Socs;
pub use dogfight::{
    Action, CraftState, Crafts, CraftsMut, Dogfight, GmManeuver, Maneuver, Shot, SocsRange,
};
pub use sheet::{Craft, CraftStats};

use crate::battle::{BattleSet, UnitId};
use crate::scenario::Prepared;
use bevy::ecs::prelude::{IntoScheduleConfigs, Schedule};
use serde::{Deserialize, Serialize};

/// The starting range of one pair of foes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SocsRangeSpec {
    /// One craft's name.
    pub from: String,
    /// The other's.
    pub to: String,
    /// The range.
    pub range: SocsRange,
}

/// The starting Position aiming bonus of one craft on a foe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionSpec {
    /// The craft with the bonus.
    pub from: String,
    /// On whom.
    pub to: String,
    /// The bonus, 1 to 10.
    pub ab: i32,
}

/// The ruleset's scenario settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SocsConfig {
    /// The range between foes that `ranges` does not list (default Long).
    #[serde(default)]
    pub start_range: SocsRange,
    /// Starting ranges of particular pairs.
    #[serde(default)]
    pub ranges: Vec<SocsRangeSpec>,
    /// Starting Position aiming bonuses.
    #[serde(default)]
    pub positions: Vec<PositionSpec>,
    /// The game master's own maneuvers (decision 4), e.g. closing or opening the range.
    #[serde(default)]
    pub gm_maneuvers: Vec<GmManeuver>,
    /// Sides (by id) whose AI craft break off when damaged and outnumbered.
    #[serde(default)]
    pub may_flee: Vec<String>,
}

/// Adds the SOCS systems to a battle-step schedule, in their sets.
pub fn configure(schedule: &mut Schedule) {
    schedule.add_systems((
        systems::begin.in_set(BattleSet::Begin),
        crate::battle::decide_with_units::<Dogfight>.in_set(BattleSet::Decide),
        systems::resolve.in_set(BattleSet::Resolve),
    ));
}

/// What the craft of `prepared` share at the start of the battle: the starting ranges
/// and Positions (keyed by the entities of `crafts`, spawned already), the game master's
/// maneuvers and which sides may flee.
pub fn new_dogfight(prepared: &Prepared, crafts: &impl Crafts) -> Dogfight {
    let Some(config) = prepared.config::<Socs>() else {
        return Dogfight::default();
    };
    let mut d = Dogfight {
        may_flee: prepared
            .sides
            .iter()
            .map(|s| config.may_flee.contains(&s.id))
            .collect(),
        gm_maneuvers: config.gm_maneuvers.clone(),
        ..Dogfight::default()
    };
    let ids: Vec<UnitId> = crafts.ids().collect();
    for (k, &a) in ids.iter().enumerate() {
        for &b in &ids[k + 1..] {
            if crafts.side_of(a) != crafts.side_of(b) {
                d.set_range(crafts, a, b, config.start_range);
            }
        }
    }
    let index = |name: &str| prepared.units.iter().position(|u| u.name == name);
    for r in &config.ranges {
        if let (Some(a), Some(b)) = (index(&r.from), index(&r.to)) {
            d.set_range(crafts, UnitId(a as u32), UnitId(b as u32), r.range);
        }
    }
    for p in &config.positions {
        if let (Some(a), Some(b)) = (index(&p.from), index(&p.to)) {
            d.set_position(crafts, UnitId(a as u32), UnitId(b as u32), p.ab);
        }
    }
    d
}

#[cfg(test)]
mod tests;

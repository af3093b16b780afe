//! GURPS Traveller space combat (ruleset id `traveller-space`), from the space half of
//! gurps-traveller-gm-screen.txt: Newtonian vector movement on a hex map of 10,000-mile
//! hexes and 20-minute turns, the sequence of action, sensors and detection, gunnery with
//! the space range table, the space weapons, missiles as projectiles with their own
//! thrust, point defense, the major damage table and damage control.
//!
//! - [`tables`]: the text's tables as data and plain functions.
//! - [`vector`]: vector movement, thrust, contacts and guidance as plain functions.
//! - [`sheet`]: ship stat blocks and their checks.
//! - [`space`]: the battle state and its turn (decisions in its module doc).
//! - [`ai`]: the AI's stated policy.
//! - [`gm`]: the game master's hand edits of a ship.

pub mod ai;
mod contract;
pub mod gm;
pub mod sheet;
pub mod space;
mod systems;
pub mod tables;
pub mod vector;

pub use contract::TravellerSpace;
pub use sheet::{TravellerShip, TravellerShipStats};
pub use space::{Action, MissileBay, MissileState, Space, Vessels, VesselsMut};

use crate::battle::BattleSet;
use crate::hexmap::HexMap;
use crate::scenario::Prepared;
use bevy::ecs::prelude::{IntoScheduleConfigs, Schedule};
use serde::{Deserialize, Serialize};
use space::{Detection, MissileSpec, Planet};
use std::sync::Arc;

fn hex_miles() -> f64 {
    10_000.0
}

fn turn_minutes() -> f64 {
    20.0
}

fn escape_hexes() -> u32 {
    30
}

/// The ruleset's scenario settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TravellerConfig {
    /// Miles a hex (the weapons table's ranges are in 10,000-mile hexes).
    #[serde(default = "hex_miles")]
    pub hex_miles: f64,
    /// Minutes a turn (gunnery: "a 20-minute round").
    #[serde(default = "turn_minutes")]
    pub turn_minutes: f64,
    /// Planets and moons on the map.
    #[serde(default)]
    pub planets: Vec<Planet>,
    /// The missiles of this battle.
    #[serde(default)]
    pub missile: MissileSpec,
    /// A ship farther than this from every enemy has escaped.
    #[serde(default = "escape_hexes")]
    pub escape_hexes: u32,
    /// Sides (by id) whose AI ships break off when badly hurt.
    #[serde(default)]
    pub may_flee: Vec<String>,
}

impl Default for TravellerConfig {
    fn default() -> Self {
        Self {
            hex_miles: hex_miles(),
            turn_minutes: turn_minutes(),
            planets: Vec::new(),
            missile: MissileSpec::default(),
            escape_hexes: escape_hexes(),
            may_flee: Vec::new(),
        }
    }
}

/// Adds the systems to a battle-step schedule, in their sets.
pub fn configure(schedule: &mut Schedule) {
    schedule.add_systems((
        systems::begin.in_set(BattleSet::Begin),
        systems::decide.in_set(BattleSet::Decide),
        systems::resolve.in_set(BattleSet::Resolve),
    ));
}

/// What the ships of `prepared` share at the start of the battle (the scenario's
/// settings), with every ship (spawned already) told how many sides may detect it. The
/// battle area is `area` (an earlier battle's) when it has the same hexes as `prepared`'s
/// map (the same shape and orientation: [`HexMap::new`] lays out its hexes from them
/// alone, and only which hexes are on the map is read of it), else a copy of the map.
pub fn new_space(
    prepared: &Prepared,
    ships: &mut impl VesselsMut,
    area: Option<Arc<HexMap>>,
) -> Space {
    let Some(config) = prepared.config::<TravellerSpace>() else {
        return Space::default();
    };
    let side_count = prepared.sides.len();
    for u in ships.ids() {
        if let Some(st) = ships.state_mut(u) {
            st.seen_by = vec![Detection::default(); side_count];
        }
    }
    Space {
        may_flee: prepared
            .sides
            .iter()
            .map(|s| config.may_flee.contains(&s.id))
            .collect(),
        side_count,
        planets: config.planets.clone(),
        hex_miles: config.hex_miles,
        turn_minutes: config.turn_minutes,
        missile: config.missile.clone(),
        escape_hexes: config.escape_hexes,
        area: Some(match area {
            Some(a)
                if a.shape() == prepared.map.shape()
                    && a.orientation() == prepared.map.orientation() =>
            {
                a
            }
            _ => Arc::new(prepared.map.clone()),
        }),
        ..Space::default()
    }
}

#[cfg(test)]
mod tests;

//! Vergeworlds "Rough Methods" (ruleset id `vergeworlds`), from
//! vergeworlds-rough-methods.txt: 2d6 open-ended tasks against a DC, Action Points,
//! attitudes, Penetration, Wound and Injury, mooks and major characters, high-speed vector
//! movement and flight on the hex map.
//!
//! - [`score`]: the Score-Value table (rules/README.md decision 1).
//! - [`task`]: tasks, degrees, extra risk, opposed tasks, Mana on a roll.
//! - [`combat`]: Action Points and turn order, attitudes, attack difficulty, conditions,
//!   hit location, high-speed melee, cramping, grappling Control, area fire.
//! - [`injury`]: armor, Penetration Limit, Wound, Injury and the cascade, blunt trauma,
//!   armor degradation, mooks and major characters.
//! - [`vector`]: high-speed movement on hexes.
//! - [`flight`]: floating, gliding and powered flight.
//! - [`gm`]: the game master's hand edits of a character.

pub mod ai;
pub mod combat;
mod contract;
pub mod fight;
pub mod flight;
pub mod gm;
pub mod injury;
pub mod score;
pub mod sheet;
mod systems;
pub mod task;
pub mod vector;

pub use contract::Vergeworlds;
pub use fight::{Action, Board, Fight, UnitState, VwUnits, VwUnitsMut};
pub use sheet::VwStats;

use crate::battle::{BattleSet, UnitId, Units};
use crate::scenario::Prepared;
use bevy::ecs::prelude::{IntoScheduleConfigs, Schedule};
use fight::Wear;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The ruleset's scenario settings (none yet besides the defaults of the text).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VwConfig {
    /// Gravity in g (flight strength of fliers; default 1).
    #[serde(default)]
    pub gravity: Option<f64>,
    /// The whole fight is cramped ("Cramped": inside a vehicle, in a crowd): attacks are at
    /// −(Bulk − Size − slack), never a bonus; the value is the slack in degrees (0: fully
    /// cramped, 2: a hallway or stairway).
    #[serde(default)]
    pub cramped: Option<f64>,
}

/// Adds the systems to a battle-step schedule, in their sets.
pub fn configure(schedule: &mut Schedule) {
    schedule.add_systems((
        systems::begin.in_set(BattleSet::Begin),
        crate::battle::decide_with_units::<Fight>.in_set(BattleSet::Decide),
        systems::resolve.in_set(BattleSet::Resolve),
    ));
}

/// What the characters of `prepared` share at the start of the battle; every character
/// (spawned already) gets its starting state (where it stands, its weapons loaded, its
/// vector and airspeed if it flies, its mook group). With `copy_map` the fight gets a
/// copy of the scenario's map; without, none (the caller gives it the one it has).
pub fn new_fight(prepared: &Prepared, characters: &mut impl VwUnitsMut, copy_map: bool) -> Fight {
    let Some(config) = prepared.config::<Vergeworlds>() else {
        return Fight::default();
    };
    let sheets: Vec<Arc<VwStats>> = prepared.sheets::<Vergeworlds>();
    let groups = prepared
        .file
        .units
        .iter()
        .zip(&sheets)
        .map(|(u, s)| if s.mook { u.template.as_deref() } else { None });
    let units = sheets.iter().zip(&prepared.units).zip(groups);
    for (id, ((s, u), group)) in characters.ids().zip(units) {
        let toward = prepared
            .units
            .iter()
            .find(|o| o.side != u.side)
            .map_or(hexx::Hex::new(1, 0), |o| o.at - u.at);
        if let Some(st) = characters.state_mut(id) {
            restart(st, s, u.at, toward, group);
        }
    }
    Fight {
        player_sides: prepared
            .sides
            .iter()
            .map(|s| s.control == crate::battle::Control::Player)
            .collect(),
        gravity: config.gravity.unwrap_or(1.0),
        cramped: config.cramped,
        map: copy_map.then(|| Arc::new(prepared.map.clone())),
        ..Fight::default()
    }
}

/// The state a character of stat block `s` starts a battle with at `at`: its Breath and
/// Mana in full, its weapons loaded and drawn as the stat block says, its airspeed and
/// glide if it flies, its vector if it starts moving (a flier in the air without one heads
/// along `toward`, the offset to the first enemy), in mook group `group`.
pub fn starting_state(
    s: &VwStats,
    at: hexx::Hex,
    toward: hexx::Hex,
    group: Option<String>,
) -> UnitState {
    let mut state = UnitState::default();
    restart(&mut state, s, at, toward, group.as_deref());
    state
}

/// `v` emptied and filled with `items` (its memory kept).
fn refill<T>(mut v: Vec<T>, items: impl Iterator<Item = T>) -> Vec<T> {
    v.clear();
    v.extend(items);
    v
}

/// Sets `state` to the [`starting_state`] of stat block `s` at `at` heading along `toward`
/// in mook group `group`, reusing the memory of its lists and group name: every battle
/// of a preview starts its characters again.
fn restart(
    state: &mut UnitState,
    s: &VwStats,
    at: hexx::Hex,
    toward: hexx::Hex,
    group: Option<&str>,
) {
    let group = match (std::mem::take(&mut state.group), group) {
        (Some(mut name), Some(g)) => {
            name.clear();
            name.push_str(g);
            Some(name)
        }
        (_, g) => g.map(str::to_owned),
    };
    let mut injuries = std::mem::take(&mut state.injuries);
    injuries.clear();
    let mut control = std::mem::take(&mut state.control);
    control.clear();
    *state = UnitState {
        pos: at,
        alt: s.altitude,
        breath: s.stamina,
        mana: s.mana,
        injuries,
        control,
        loaded: refill(
            std::mem::take(&mut state.loaded),
            s.weapons.iter().map(|w| w.shots),
        ),
        spare: refill(
            std::mem::take(&mut state.spare),
            s.weapons.iter().map(|w| w.reloads),
        ),
        drawn: refill(
            std::mem::take(&mut state.drawn),
            s.weapons.iter().map(|w| !w.holstered),
        ),
        fired: refill(
            std::mem::take(&mut state.fired),
            s.weapons.iter().map(|_| 0),
        ),
        wear: refill(
            std::mem::take(&mut state.wear),
            s.armor.iter().map(|_| Wear::default()),
        ),
        free_defenses: 1,
        air: s.flight.as_ref().map(|f| flight::GlideState {
            speed: f64::from(f.speed),
            altitude: s.altitude,
            column: flight::Column::of_glide(f.glide),
            stalled: false,
        }),
        vector: s
            .moving
            .map(|(heading, speed)| vector::Vector {
                heading,
                speed,
                drift: 0,
            })
            .or_else(|| {
                s.flight
                    .as_ref()
                    .filter(|f| f.speed > 0 && s.altitude > 0.0)
                    .map(|f| vector::Vector {
                        heading: vector::heading_of(toward),
                        speed: f.speed,
                        drift: 0,
                    })
            }),
        group,
        ..UnitState::default()
    };
}

#[cfg(test)]
mod tests;

impl crate::battle::UnitsPolicy for Fight {
    type Sheet = VwStats;
    type State = UnitState;
    type Action = Action;

    fn choose(&self, units: &impl Units<VwStats, UnitState>, unit: UnitId) -> Action {
        ai::choose(&Board { fight: self, units }, unit)
    }
}

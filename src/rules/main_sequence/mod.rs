//! Main Sequence (ruleset id `main-sequence`), from main-sequence.txt: characters and
//! ships on range bands, rates of fire, Edge, chases.
//!
//! - [`character`]: attributes, derived stats, skills and the creation limits ("Character
//!   Creation").
//! - [`sheet`]: stat blocks as scenarios write them, checked against the creation rules,
//!   and resolved characters and ships with their crews.
//! - [`combat`]: attacks against Defense plus cover, damage plus margin minus soak, rates of
//!   fire with the stepped penalties on one roll, knockout and dying, initiative order,
//!   range bands from hex distance, parry and dodge, explosions ("Combat Actions", "Range
//!   Bands", "Rate of Fire", "Damage", "Armor and Cover", "Knockout and Death").
//! - [`ships`]: ship attributes and derived stats, lasers and torpedoes, shields and soak
//!   (rules/README.md decision 2), detection, destruction and systems failure ("Spaceships &
//!   Gear", "Ship Destruction", "Ship Detection", "Optional Rule: Systems Failure").
//! - [`chase`]: the chase table ("Chase Rules").
//! - [`gear`]: the weapons and armor tables and the ammunition they use ("Weapons, Armor &
//!   Gear", "Optional Rule: Cinematic Ammunition").
//! - [`edge`]: Edge and the AI's policy for spending it ("Using Edge").
//! - [`fight`]: the battle state and its rules of play: rounds, turns, attacks with their
//!   questions (defend, re-roll, spend Edge), ships, chases.
//! - [`ai`]: the AI's stated policy.
//! - [`gm`]: the game master's hand edits (hit points, conditions, Edge, failed systems;
//!   placing, removing and adding units).

pub mod ai;
pub mod character;
pub mod chase;
pub mod combat;
mod contract;
pub mod edge;
pub mod fight;
pub mod gear;
pub mod gm;
pub mod sheet;
pub mod ships;
mod systems;

pub use contract::MainSequence;
pub use fight::{Action, Board, Fight, MsUnits, MsUnitsMut, UnitState};
pub use sheet::{MsSheet, MsStats};

use crate::battle::{BattleSet, UnitId, Units};
use crate::scenario::Prepared;
use bevy::ecs::prelude::{IntoScheduleConfigs, Schedule};
use combat::{Band, BandSizes};
use fight::{Ammo, Chase, CrewState, Failures};
use serde::{Deserialize, Serialize};

/// A chase ("Chase Rules"): two units, one band between them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChaseSpec {
    /// The pursuer's unit name.
    pub pursuer: String,
    /// The quarry's unit name.
    pub quarry: String,
    /// The band the chase starts at (Close to Far). Without it the band follows from the
    /// two units' starting positions ("Chase Rules": the range band "determined by the
    /// starting positions"), Melee counting as Close.
    #[serde(default)]
    pub start: Option<Band>,
    /// The pursuer's bonus for being obviously faster (+2, +4, +6).
    #[serde(default)]
    pub pursuer_bonus: i32,
    /// The quarry's bonus for being obviously faster.
    #[serde(default)]
    pub quarry_bonus: i32,
    /// The ground vehicle the pursuer drives, named as the field of its Vehicle skill
    /// (`"Hover bike"` for `Vehicle (Hover bike)`); the chase roll is then Agent +
    /// Vehicle. Leave out for a ship (its pilot's roll) or a runner on foot.
    #[serde(default)]
    pub pursuer_vehicle: Option<String>,
    /// The ground vehicle the quarry drives.
    #[serde(default)]
    pub quarry_vehicle: Option<String>,
}

/// The ruleset's scenario settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MsConfig {
    /// How many hexes each band reaches (defaults 1, 10, 30, 100).
    #[serde(default)]
    pub bands: BandSizes,
    /// The optional "Cinematic Ammunition" rule: no rounds are counted.
    #[serde(default)]
    pub cinematic_ammo: bool,
    /// Side ids whose units share one initiative roll.
    #[serde(default)]
    pub group_initiative: Vec<String>,
    /// The battle is a chase between two units.
    #[serde(default)]
    pub chase: Option<ChaseSpec>,
    /// The optional systems-failure rule for ships.
    #[serde(default)]
    pub systems_failure: Option<Failures>,
    /// Added to the DL of every sensor sweep: the GM's factors of "Ship Detection" (a gas
    /// cloud, an ion storm), e.g. +2 or +4.
    #[serde(default)]
    pub detection_modifier: i32,
}

/// Adds the Main Sequence systems to a battle-step schedule, in their sets.
pub fn configure(schedule: &mut Schedule) {
    schedule.add_systems((
        systems::begin.in_set(BattleSet::Begin),
        systems::decide.in_set(BattleSet::Decide),
        systems::resolve.in_set(BattleSet::Resolve),
        systems::aftermath.in_set(BattleSet::Aftermath),
    ));
}

/// A unit of sheet `s` standing at `pos` as the battle begins (seen by no side yet: the
/// battle's start sets what each side sees), a character with its spare reloads for each
/// weapon that counts ammunition.
pub fn new_unit_state(s: &MsSheet, pos: hexx::Hex) -> UnitState {
    let (edge, crew, nimble, reloads) = match s {
        MsSheet::Character(c) => (c.edge, Vec::new(), c.nimble(), c.reloads),
        MsSheet::Ship(ship) => (
            0,
            ship.crew
                .iter()
                .map(|c| CrewState {
                    hp: c.character.hp,
                    edge: c.character.edge,
                    condition: fight::Condition::Fighting,
                    lucky_used: false,
                })
                .collect(),
            ship.nimble,
            0,
        ),
    };
    UnitState {
        pos,
        hp: s.hp(),
        shields: match s {
            MsSheet::Ship(ship) => ship.shields,
            MsSheet::Character(_) => 0,
        },
        edge,
        crew,
        condition: fight::Condition::Fighting,
        ammo: s
            .weapons()
            .iter()
            .map(|w| Ammo {
                loaded: w.ammo,
                spare: if w.ammo.is_some() && !gear::thrown(w) {
                    reloads
                } else {
                    0
                },
            })
            .collect(),
        nimble,
        lucky_used: false,
        lucky_boat_used: false,
        excellent_used: Vec::new(),
        forfeit: false,
        blind: 0,
        free_parry_used: false,
        failed: Vec::new(),
        ducked: false,
        shields_boosted: false,
        seen_by: Vec::new(),
    }
}

/// What the units of `prepared` share at the start of the battle; every unit (spawned
/// already) is told which sides see it: characters every side, ships none until a sweep
/// finds them.
pub fn new_fight(prepared: &Prepared, units: &mut impl MsUnitsMut) -> Fight {
    let Some(config) = prepared.config::<MainSequence>() else {
        return Fight::default();
    };
    let side_count = prepared.sides.len();
    for u in units.ids() {
        let ship = units.sheet_of(u).is_some_and(|s| s.is_ship());
        if let Some(st) = units.state_mut(u) {
            st.seen_by = vec![!ship; side_count];
        }
    }
    let index = |name: &str| {
        prepared
            .units
            .iter()
            .position(|u| u.name == name)
            .map(|i| UnitId(i as u32))
    };
    let chase = config.chase.as_ref().and_then(|c| {
        let (pursuer, quarry) = (index(&c.pursuer)?, index(&c.quarry)?);
        let at = |u: UnitId| prepared.units.get(u.0 as usize).map(|p| p.at);
        let band = c.start.unwrap_or_else(|| {
            let d = at(pursuer)
                .zip(at(quarry))
                .map_or(0, |(a, b)| a.unsigned_distance_to(b));
            config.bands.band(d).max(Band::Close)
        });
        Some(Chase {
            pursuer,
            quarry,
            band,
            pursuer_bonus: c.pursuer_bonus,
            quarry_bonus: c.quarry_bonus,
            pursuer_vehicle: c.pursuer_vehicle.clone(),
            quarry_vehicle: c.quarry_vehicle.clone(),
        })
    });
    let side_ids: Vec<String> = prepared.sides.iter().map(|s| s.id.clone()).collect();
    Fight {
        aggressive: prepared
            .sides
            .iter()
            .map(|s| s.control != crate::battle::Control::Ai(crate::battle::AiStyle::Cautious))
            .collect(),
        group_initiative: side_ids
            .iter()
            .map(|id| config.group_initiative.contains(id))
            .collect(),
        side_ids,
        sizes: config.bands,
        cinematic_ammo: config.cinematic_ammo,
        failures: config.systems_failure,
        detection_modifier: config.detection_modifier,
        chase,
        ..Fight::default()
    }
}

#[cfg(test)]
mod fight_tests;
#[cfg(test)]
mod tests;

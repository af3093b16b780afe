//! starship-d12 behind the engine's ruleset contract ([`Ruleset`]): its scenario section
//! (`ruleset: StarshipD12(...)`: starting ranges, checked here), its ship sheets, its
//! systems, and the components on each ship's entity with the [`super::Fleet`] they share.

use super::{Action, Band, D12Config, ShipSheet, ShipState, ShipStats, Ships};
use crate::battle::{GmField, Sheet, Ship, UnitId, Units};
use crate::format::{Path, Problem};
use crate::scenario::{
    Engagement, Prepared, Ruleset, ScenarioFile, foe_pair_problems, unknown_sides,
};
use bevy::ecs::entity::Entity;
use bevy::ecs::schedule::Schedule;
use bevy::ecs::world::{EntityWorldMut, World};
use std::sync::Arc;

/// The d12 starship rules (ruleset id `starship-d12`, tag `StarshipD12`).
pub struct StarshipD12;

impl Ruleset for StarshipD12 {
    const ID: &'static str = "starship-d12";
    const TAG: &'static str = "StarshipD12";
    /// The map only pictures the battle (range is a band between ships): terrain is ignored.
    const USES_TERRAIN: bool = false;
    const NEW_SCENARIO: &'static str = include_str!("new.ron");
    const STRONGER_STEP: &'static str = "1 point of every crewman's gunnery";
    type Config = D12Config;
    type Stats = ShipStats;
    type Sheet = ShipSheet;
    type Action = Action;

    /// Range is a band; hex distances only picture it.
    fn scale(_: &D12Config) -> (f32, &'static str) {
        (1.0, "hex (range bands are abstract)")
    }

    /// Fleeing sides exist; a fight starts at Short, Medium or Long (Tailing only for a
    /// named pair) between named foes.
    fn check(config: &D12Config, file: &ScenarioFile) -> Vec<Problem> {
        let base = Path::root().field("ruleset");
        let mut problems = unknown_sides(file, &base.field("may_flee"), &config.may_flee);
        if config.start_range == Band::Tailing {
            problems.push(Problem::new(
                base.field("start_range"),
                "Tailing needs a tailer: give tailing pairs in `ranges`",
            ));
        }
        if config.start_range == Band::Escaped {
            problems.push(Problem::new(
                base.field("start_range"),
                "a fight cannot start at Escaped: expected Tailing (in `ranges`), Short, Medium or Long",
            ));
        }
        for (i, r) in config.ranges.iter().enumerate() {
            let path = base.field("ranges").index(i);
            problems.extend(foe_pair_problems(file, &path, &r.from, &r.to));
            if r.band == Band::Escaped {
                problems.push(Problem::new(
                    path.field("band"),
                    "a pair cannot start at Escaped: leave it out of the scenario's units instead",
                ));
            }
        }
        problems
    }

    fn resolve(
        _: &D12Config,
        _: &ScenarioFile,
        stats: &[&ShipStats],
    ) -> Vec<Result<ShipSheet, Vec<Problem>>> {
        stats.iter().map(|s| ShipSheet::resolve(s)).collect()
    }

    fn configure(schedule: &mut Schedule) {
        super::configure(schedule);
    }

    fn reset(world: &mut World, prepared: &Prepared, _: &D12Config) {
        let fleet = super::new_fleet(prepared, &*world);
        world.insert_resource(fleet);
        world.insert_resource(crate::battle::place::Placer::default());
    }

    /// A ship entity carries its sheet and its [`ShipState`].
    fn spawn(entity: &mut EntityWorldMut, sheet: &Arc<ShipSheet>) {
        entity.insert((Ship, Sheet(Arc::clone(sheet)), ShipState::new(sheet)));
    }

    fn unit_line(world: &World, _: Entity, unit: UnitId) -> String {
        Ships::ship_line(world, unit)
    }

    /// The range moves or shots open to the ship ([`super::Fleet::legal_actions`]).
    fn legal_actions(world: &World, unit: UnitId) -> Vec<Action> {
        world
            .get_resource::<super::Fleet>()
            .map_or(Vec::new(), |f| f.legal_actions(world, unit))
    }

    /// Without the starting ranges that name the unit.
    fn without_unit(config: &D12Config, name: &str) -> Option<D12Config> {
        let mut c = config.clone();
        c.ranges.retain(|r| r.from != name && r.to != name);
        (c != *config).then_some(c)
    }

    /// A step is one point of every crewman's gunnery (starship-d12-quick-reference.txt,
    /// "Actions": a shot adds the gunner's gunnery).
    fn stronger(stats: &ShipStats, steps: i32) -> Option<ShipStats> {
        if stats.crew.is_empty() {
            return None;
        }
        let mut s = stats.clone();
        for c in &mut s.crew {
            c.gunnery = c.gunnery.saturating_add(steps);
        }
        Some(s)
    }

    /// Holding the ranges and passing the action phase pass; firing attacks, moving a range
    /// moves, helping the pilot takes part.
    fn engagement(action: &Action) -> Engagement {
        match action {
            Action::Hold | Action::Pass => Engagement::Passes,
            Action::Fire { .. } => Engagement::Attacks,
            Action::Range { .. } => Engagement::Moves,
            Action::HelpPilot { .. } => Engagement::Acts,
        }
    }

    /// A shot's chance to hit ([`super::Fleet::shot_odds`], which the window shows).
    fn attack_odds(world: &World, unit: UnitId, action: &Action) -> Option<f64> {
        let fleet = world.get_resource::<super::Fleet>()?;
        fleet.shot_odds(world, unit, action).map(|(hit, _)| hit)
    }

    /// Structure left (shields, armour, systems and core) of the sheet's.
    fn health(world: &World, _: Entity, unit: UnitId) -> f32 {
        let ship = Units::<ShipSheet, ShipState>::state_of(world, unit);
        let sheet = Units::<ShipSheet, ShipState>::sheet_of(world, unit);
        match (ship, sheet) {
            (Some(ship), Some(sheet)) => ship.structure() as f32 / sheet.structure().max(1) as f32,
            _ => 1.0,
        }
    }

    /// Condition, shields, armour, each system's hit points and each launcher's missiles
    /// ([`super::gm::fields`]).
    fn gm_fields(world: &World, entity: Entity) -> Vec<GmField> {
        super::gm::fields(world, entity)
    }

    /// As the rules follow from it: a ship destroyed has lost its core
    /// ([`super::gm::set`]).
    fn gm_set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
        super::gm::set(world, entity, key, value)
    }

    /// The bands to every enemy follow the map ([`super::gm::place`]).
    fn gm_place(
        world: &mut World,
        entity: Entity,
        at: hexx::Hex,
        facing: hexx::EdgeDirection,
    ) -> Result<(), String> {
        super::gm::place(world, entity, at, facing)
    }

    /// The ship escapes; its declared shots are dropped ([`super::gm::remove`]).
    fn gm_remove(world: &mut World, entity: Entity) -> Result<(), String> {
        super::gm::remove(world, entity)
    }

    /// Bands from the map; it acts from the next action round ([`super::gm::join`]).
    fn gm_join(world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
        super::gm::join(world, entity, unit)
    }
}

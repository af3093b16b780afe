//! GURPS Traveller space combat behind the engine's ruleset contract ([`Ruleset`]): its
//! scenario section (`ruleset: TravellerSpace(...)`: scale, turn, missile, planets, checked
//! here), its ship sheets, its systems, and the components on each ship's entity with the
//! [`super::Space`] they share.

use super::space::{ShipState, Vessels};
use super::{Action, TravellerConfig, TravellerShip, TravellerShipStats};
use crate::battle::{GmField, HexPos, Sheet, Ship, UnitId, Velocity};
use crate::format::{Path, Problem};
use crate::scenario::{Engagement, Prepared, Ruleset, ScenarioFile, unknown_sides};
use bevy::ecs::entity::Entity;
use bevy::ecs::schedule::Schedule;
use bevy::ecs::world::{EntityWorldMut, World};
use hexx::{EdgeDirection, Hex};
use std::sync::Arc;

/// GURPS Traveller space combat (ruleset id `traveller-space`, tag `TravellerSpace`).
pub struct TravellerSpace;

impl Ruleset for TravellerSpace {
    const ID: &'static str = "traveller-space";
    const TAG: &'static str = "TravellerSpace";
    /// The map only pictures the battle (ships fly in open space): terrain is ignored.
    const USES_TERRAIN: bool = false;
    const NEW_SCENARIO: &'static str = include_str!("new.ron");
    const STRONGER_STEP: &'static str = "2 levels of the crew's Gunner";
    const TOUGHER_STEP: &'static str = "a tenth of the hull's hit points";
    type Config = TravellerConfig;
    type Stats = TravellerShipStats;
    type Sheet = TravellerShip;
    type Action = Action;

    /// The ruleset's own `hex_miles` sets the scale.
    fn scale(config: &TravellerConfig) -> (f32, &'static str) {
        (config.hex_miles as f32, "miles")
    }

    fn check(config: &TravellerConfig, file: &ScenarioFile) -> Vec<Problem> {
        problems(file, config)
    }

    fn resolve(
        _: &TravellerConfig,
        _: &ScenarioFile,
        stats: &[&TravellerShipStats],
    ) -> Vec<Result<TravellerShip, Vec<Problem>>> {
        stats.iter().map(|s| TravellerShip::resolve(s)).collect()
    }

    fn configure(schedule: &mut Schedule) {
        super::configure(schedule);
    }

    fn reset(world: &mut World, prepared: &Prepared, _: &TravellerConfig) {
        // The last battle's area, kept if it has the same hexes.
        let area = world
            .get_resource::<super::Space>()
            .and_then(|s| s.area.clone());
        let space = super::new_space(prepared, world, area);
        world.insert_resource(space);
    }

    /// A ship entity carries its sheet and its [`ShipState`] (starting where the entity
    /// stands, at its sheet's velocity).
    fn spawn(entity: &mut EntityWorldMut, sheet: &Arc<TravellerShip>) {
        let v = hexx::Hex::new(sheet.stats.velocity.0, sheet.stats.velocity.1);
        let pos = entity.get::<HexPos>().map_or(hexx::Hex::ZERO, |p| p.0);
        entity.insert((
            Ship,
            Velocity(v),
            Sheet(Arc::clone(sheet)),
            ShipState::new(sheet, pos, 0),
        ));
    }

    fn unit_line(world: &World, _: Entity, unit: UnitId) -> String {
        Vessels::ship_line(world, unit)
    }

    /// A sample covering every kind of decision ([`super::Space::sample_actions`]).
    fn legal_actions(world: &World, unit: UnitId) -> Vec<Action> {
        world
            .get_resource::<super::Space>()
            .map_or_else(Vec::new, |s| s.sample_actions(world, unit))
    }

    /// A step is +2 to every crew's Gunner skill (gurps-traveller-gm-screen.txt: a shot
    /// rolls against it).
    fn stronger(stats: &TravellerShipStats, steps: i32) -> Option<TravellerShipStats> {
        let mut s = stats.clone();
        s.crew.gunner = s.crew.gunner.saturating_add(2 * steps);
        Some(s)
    }

    /// A step is a tenth of the hull's hit points as written (at least 1), never below 1
    /// (gurps-traveller-gm-screen.txt, "VEHICLE CRITICAL HITS": damage comes off the
    /// vehicle's hit points).
    fn tougher(stats: &TravellerShipStats, steps: i32) -> Option<TravellerShipStats> {
        let step = (stats.hp / 10).max(1);
        let mut s = stats.clone();
        s.hp = stats.hp.saturating_add(step.saturating_mul(steps)).max(1);
        Some(s)
    }

    /// The velocity that coasts the ship from `from` to `to` in one turn: a vector is the
    /// hexes it moves in the Movement step (gurps-traveller-gm-screen.txt, "SEQUENCE OF
    /// ACTION", 3).
    fn heading(stats: &TravellerShipStats, from: Hex, to: Hex) -> Option<TravellerShipStats> {
        let mut s = stats.clone();
        let d = to - from;
        s.velocity = (d.x, d.y);
        Some(s)
    }

    /// Fire with no shot and a launch of no missile pass, other fire and launches attack;
    /// every maneuver moves (the ship goes on along its vector whatever it burns).
    fn engagement(action: &Action) -> Engagement {
        match action {
            Action::Fire { shots } if shots.is_empty() => Engagement::Passes,
            Action::Launch { count: 0, .. } => Engagement::Passes,
            Action::Fire { .. } | Action::Launch { .. } => Engagement::Attacks,
            Action::Maneuver { .. } => Engagement::Moves,
        }
    }

    /// The first shot's chance to hit ([`super::Space::shot_odds`], which the window
    /// shows).
    fn attack_odds(world: &World, unit: UnitId, action: &Action) -> Option<f64> {
        let Action::Fire { shots } = action else {
            return None;
        };
        let shot = shots.first()?;
        let space = world.get_resource::<super::Space>()?;
        space.check(world, unit, action).ok()?;
        Some(space.shot_odds(
            world,
            unit,
            shot.mount,
            shot.target,
            shot.pinpoint.is_some(),
        ))
    }

    /// Hit points left of the ship's design.
    fn health(world: &World, _: Entity, unit: UnitId) -> f32 {
        Vessels::health(world, unit)
    }

    /// The hull, vector, crew and systems ([`super::gm::fields`]).
    fn gm_fields(world: &World, entity: Entity) -> Vec<GmField> {
        super::gm::fields(world, entity)
    }

    /// [`super::gm::set`]: the ship's condition judged again after a hull or crew edit.
    fn gm_set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
        super::gm::set(world, entity, key, value)
    }

    /// [`super::gm::place`]: the ship's own position moves with the map's.
    fn gm_place(
        world: &mut World,
        entity: Entity,
        at: Hex,
        facing: EdgeDirection,
    ) -> Result<(), String> {
        super::gm::place(world, entity, at, facing)
    }

    /// [`super::gm::remove`]: the ship breaks contact.
    fn gm_remove(world: &mut World, entity: Entity) -> Result<(), String> {
        super::gm::remove(world, entity)
    }

    /// [`super::gm::join`]: the new ship is known to every side's detection.
    fn gm_join(world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
        super::gm::join(world, entity, unit)
    }
}

/// The problems of GURPS Traveller space settings: sizes, the missile, planets on the map,
/// the sides that may flee.
fn problems(file: &ScenarioFile, config: &TravellerConfig) -> Vec<Problem> {
    let base = Path::root().field("ruleset");
    let mut problems = unknown_sides(file, &base.field("may_flee"), &config.may_flee);
    for (field, v, lo, hi) in [
        ("hex_miles", config.hex_miles, 100.0, 10_000_000.0),
        ("turn_minutes", config.turn_minutes, 0.1, 10_000.0),
    ] {
        if !(v.is_finite() && (lo..=hi).contains(&v)) {
            problems.push(Problem::new(
                base.field(field),
                format!("{v} is out of range: expected {lo} to {hi}"),
            ));
        }
    }
    if !(1..=10_000).contains(&config.escape_hexes) {
        problems.push(Problem::new(
            base.field("escape_hexes"),
            format!(
                "{} is out of range: expected 1 to 10000",
                config.escape_hexes
            ),
        ));
    }
    let m = &config.missile;
    let path = base.field("missile");
    if !(m.thrust.is_finite() && (0.0..=100.0).contains(&m.thrust)) {
        problems.push(Problem::new(
            path.field("thrust"),
            format!("{} G is out of range: expected 0 to 100", m.thrust),
        ));
    }
    for (field, v, lo, hi) in [
        ("skill", i64::from(m.skill), 0, 30),
        ("dice", i64::from(m.dice), 1, 100),
        ("multiplier", i64::from(m.multiplier), 1, 100_000),
        ("endurance", i64::from(m.endurance), 1, 100),
    ] {
        if !(lo..=hi).contains(&v) {
            problems.push(Problem::new(
                path.field(field),
                format!("{v} is out of range: expected {lo} to {hi}"),
            ));
        }
    }
    for (i, p) in config.planets.iter().enumerate() {
        if p.name.trim().is_empty() {
            problems.push(Problem::new(
                base.field("planets").index(i).field("name"),
                "a planet needs a name",
            ));
        }
        if p.at.0.unsigned_abs() > 1000 || p.at.1.unsigned_abs() > 1000 {
            problems.push(Problem::new(
                base.field("planets").index(i).field("at"),
                format!(
                    "({}, {}) is out of range: expected coordinates from -1000 to 1000",
                    p.at.0, p.at.1
                ),
            ));
        }
    }
    if let Some(scale) = file.map.scale
        && (f64::from(scale) - config.hex_miles).abs() > 1e-3 * config.hex_miles
    {
        problems.push(Problem::new(
            Path::root().field("map").field("scale"),
            format!(
                "{scale} miles a hex, but the ruleset's hex_miles is {}: leave the map's scale out (hex_miles sets it)",
                config.hex_miles
            ),
        ));
    }
    problems
}

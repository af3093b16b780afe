//! SOCS behind the engine's ruleset contract ([`Ruleset`]): its scenario section
//! (`ruleset: Socs(...)`: starting ranges and Positions, the game master's maneuvers,
//! checked here), its craft, its systems, and the components on each craft's entity
//! with the [`Dogfight`] they share.

use super::dogfight::CraftState;
use super::sheet::ShipClass;
use super::{Action, Craft, CraftStats, Dogfight, SocsConfig, SocsRange};
use crate::battle::{GmField, Sheet, Ship, UnitId, Units};
use crate::format::{Path, Problem};
use crate::scenario::{
    Engagement, Prepared, Ruleset, ScenarioFile, foe_pair_problems, unknown_sides,
};
use bevy::ecs::entity::Entity;
use bevy::ecs::schedule::Schedule;
use bevy::ecs::world::{EntityWorldMut, World};
use hexx::{EdgeDirection, Hex};
use std::sync::Arc;

/// The Space Opera Combat System (ruleset id `socs`, tag `Socs`).
pub struct Socs;

impl Ruleset for Socs {
    const ID: &'static str = "socs";
    const TAG: &'static str = "Socs";
    /// The map only pictures the battle (range is a band between craft): terrain is ignored.
    const USES_TERRAIN: bool = false;
    const NEW_SCENARIO: &'static str = include_str!("new.ron");
    const STRONGER_STEP: &'static str = "2 levels of Gunner for whoever fires (each weapon's gunner; the pilot for a weapon without one)";
    type Config = SocsConfig;
    type Stats = CraftStats;
    type Sheet = Craft;
    type Action = Action;

    /// Range is a band; hex distances only picture it.
    /// A planet or a station is a place the battle is fought over, not a craft a side
    /// could bring more of.
    fn fixture(stats: &CraftStats) -> Option<&'static str> {
        match stats.class {
            ShipClass::Planet => Some("a planet"),
            ShipClass::Station => Some("a station"),
            _ => None,
        }
    }

    fn scale(_: &SocsConfig) -> (f32, &'static str) {
        (1.0, "hex (range bands are abstract)")
    }

    /// Fleeing sides exist; pairs are foes that start in range; Position bonuses are 1 to
    /// 10; at most 32 game master's maneuvers of -10 to +10.
    fn check(config: &SocsConfig, file: &ScenarioFile) -> Vec<Problem> {
        let base = Path::root().field("ruleset");
        let mut problems = unknown_sides(file, &base.field("may_flee"), &config.may_flee);
        if config.start_range == SocsRange::OutOfRange {
            problems.push(Problem::new(
                base.field("start_range"),
                "a fight cannot start out of range: expected Short or Long",
            ));
        }
        for (i, r) in config.ranges.iter().enumerate() {
            let path = base.field("ranges").index(i);
            problems.extend(foe_pair_problems(file, &path, &r.from, &r.to));
            if r.range == SocsRange::OutOfRange {
                problems.push(Problem::new(
                    path.field("range"),
                    "a pair cannot start out of range: expected Short or Long",
                ));
            }
        }
        for (i, p) in config.positions.iter().enumerate() {
            let path = base.field("positions").index(i);
            problems.extend(foe_pair_problems(file, &path, &p.from, &p.to));
        }
        for (i, p) in config.positions.iter().enumerate() {
            if !(1..=10).contains(&p.ab) {
                problems.push(Problem::new(
                    base.field("positions").index(i).field("ab"),
                    format!("Position AB {} is out of range: expected 1 to 10", p.ab),
                ));
            }
        }
        for (i, g) in config.gm_maneuvers.iter().enumerate() {
            if !(-10..=10).contains(&g.modifier) {
                problems.push(Problem::new(
                    base.field("gm_maneuvers").index(i).field("modifier"),
                    format!(
                        "modifier {} is out of range: expected -10 to 10",
                        g.modifier
                    ),
                ));
            }
        }
        if config.gm_maneuvers.len() > 32 {
            problems.push(Problem::new(base.field("gm_maneuvers"), "at most 32"));
        }
        problems
    }

    fn resolve(
        _: &SocsConfig,
        _: &ScenarioFile,
        stats: &[&CraftStats],
    ) -> Vec<Result<Craft, Vec<Problem>>> {
        stats.iter().map(|s| Craft::resolve(s)).collect()
    }

    fn configure(schedule: &mut Schedule) {
        super::configure(schedule);
    }

    fn reset(world: &mut World, prepared: &Prepared, _: &SocsConfig) {
        let dogfight = super::new_dogfight(prepared, &*world);
        world.insert_resource(dogfight);
        world.insert_resource(crate::battle::place::Placer::default());
    }

    /// A craft entity carries its sheet and its [`CraftState`].
    fn spawn(entity: &mut EntityWorldMut, craft: &Arc<Craft>) {
        entity.insert((Ship, Sheet(Arc::clone(craft)), CraftState::new(craft)));
    }

    fn unit_line(world: &World, _: Entity, unit: UnitId) -> String {
        world
            .get_resource::<Dogfight>()
            .map_or(String::new(), |d| d.craft_line(world, unit))
    }

    /// The shots (one gun at one foe each) or maneuvers open to the craft
    /// ([`Dogfight::legal_actions`]).
    fn legal_actions(world: &World, unit: UnitId) -> Vec<Action> {
        world
            .get_resource::<Dogfight>()
            .map_or(Vec::new(), |d| d.legal_actions(world, unit))
    }

    /// Without the starting ranges and Position bonuses that name the unit.
    fn without_unit(config: &SocsConfig, name: &str) -> Option<SocsConfig> {
        let mut c = config.clone();
        c.ranges.retain(|r| r.from != name && r.to != name);
        c.positions.retain(|p| p.from != name && p.to != name);
        (c != *config).then_some(c)
    }

    /// A step is +2 to the Gunner skill of everyone who fires a weapon
    /// (gurps-lite-and-socs.txt, "FIRE PHASE": gunners roll against it): each weapon's own
    /// gunner, and the pilot when some weapon has none (the pilot fires it). Others aboard
    /// fire nothing and are left as they are. `None` for a craft without weapons.
    fn stronger(stats: &CraftStats, steps: i32) -> Option<CraftStats> {
        if stats.weapons.is_empty() {
            return None;
        }
        let mut s = stats.clone();
        let turn = |c: &mut super::sheet::Character| c.gunner = c.gunner.saturating_add(2 * steps);
        if s.weapons.iter().any(|w| w.gunner.is_none()) {
            turn(&mut s.pilot);
        }
        s.weapons
            .iter_mut()
            .filter_map(|w| w.gunner.as_mut())
            .for_each(turn);
        Some(s)
    }

    /// A fire phase with no shot passes, other fire attacks; every maneuver moves.
    fn engagement(action: &Action) -> Engagement {
        match action {
            Action::Fire { shots, .. } if shots.is_empty() => Engagement::Passes,
            Action::Fire { .. } => Engagement::Attacks,
            Action::Maneuver { .. } => Engagement::Moves,
        }
    }

    /// The first shot's chance to hit ([`Dogfight::shot_odds`], which the window shows).
    fn attack_odds(world: &World, unit: UnitId, action: &Action) -> Option<f64> {
        let Action::Fire { shots, gm_modifier } = action else {
            return None;
        };
        let shot = shots.first()?;
        let dogfight = world.get_resource::<Dogfight>()?;
        Some(dogfight.shot_odds(
            world,
            unit,
            usize::from(shot.weapon),
            shot.target,
            *gm_modifier,
        ))
    }

    /// The damage state, the light hit's losses, the automatic hit and the hit locations
    /// ([`super::gm::fields`]).
    fn gm_fields(world: &World, entity: Entity) -> Vec<GmField> {
        super::gm::fields(world, entity)
    }

    /// With what follows under "FIREPOWER LEVELS" ([`super::gm::set`]).
    fn gm_set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
        super::gm::set(world, entity, key, value)
    }

    /// The ranges to the foes follow the hex distances ([`super::gm::place`]).
    fn gm_place(
        world: &mut World,
        entity: Entity,
        at: Hex,
        facing: EdgeDirection,
    ) -> Result<(), String> {
        super::gm::place(world, entity, at, facing)
    }

    /// Escaped, in its state and its standing ([`super::gm::remove`]).
    fn gm_remove(world: &mut World, entity: Entity) -> Result<(), String> {
        super::gm::remove(world, entity)
    }

    /// Ranges from its hex; it decides from the next phase ([`super::gm::join`]).
    fn gm_join(world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
        super::gm::join(world, entity, unit)
    }

    /// A craft is intact (1), damaged (one half) or out (0).
    fn health(world: &World, _: Entity, unit: UnitId) -> f32 {
        Units::<Craft, CraftState>::state_of(world, unit).map_or(1.0, |s| {
            match (s.out, s.damaged) {
                (Some(_), _) => 0.0,
                (None, true) => 0.5,
                (None, false) => 1.0,
            }
        })
    }
}

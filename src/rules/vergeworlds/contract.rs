//! Vergeworlds behind the engine's ruleset contract ([`Ruleset`]): its scenario section
//! (`ruleset: Vergeworlds(...)`: gravity, a cramped fight, checked here), its stat blocks
//! (checked as written), its systems and the [`Fight`] it keeps.

use super::{Action, Board, Fight, UnitState, VwConfig, VwStats};
use crate::battle::{Combatant, GmField, Sheet, UnitId};
use crate::format::{Path, Problem};
use crate::scenario::{Engagement, Prepared, Ruleset, ScenarioFile};
use bevy::ecs::entity::Entity;
use bevy::ecs::schedule::Schedule;
use bevy::ecs::world::{EntityWorldMut, World};
use hexx::{EdgeDirection, Hex};
use std::sync::Arc;

/// Vergeworlds "Rough Methods" (ruleset id `vergeworlds`, tag `Vergeworlds`).
pub struct Vergeworlds;

impl Ruleset for Vergeworlds {
    const ID: &'static str = "vergeworlds";
    const TAG: &'static str = "Vergeworlds";
    const NEW_SCENARIO: &'static str = include_str!("new.ron");
    const STRONGER_STEP: &'static str = "1 score of Fight, Shoot, Throw and Grapple each";
    type Config = VwConfig;
    type Stats = VwStats;
    type Sheet = VwStats;
    type Action = Action;

    fn scale(_: &VwConfig) -> (f32, &'static str) {
        (1.0, "m")
    }

    /// Gravity from 0.01 to 10 g.
    fn check(config: &VwConfig, _: &ScenarioFile) -> Vec<Problem> {
        let mut problems = Vec::new();
        if let Some(g) = config.gravity
            && !(0.01..=10.0).contains(&g)
        {
            problems.push(Problem::new(
                Path::root().field("ruleset").index(0).field("gravity"),
                format!("{g} is out of range: expected 0.01 to 10 g"),
            ));
        }
        problems
    }

    fn resolve(
        _: &VwConfig,
        _: &ScenarioFile,
        stats: &[&VwStats],
    ) -> Vec<Result<VwStats, Vec<Problem>>> {
        stats
            .iter()
            .map(|s| {
                let found = s.problems();
                if found.is_empty() {
                    Ok((*s).clone())
                } else {
                    Err(found)
                }
            })
            .collect()
    }

    fn configure(schedule: &mut Schedule) {
        super::configure(schedule);
    }

    fn reset(world: &mut World, prepared: &Prepared, _: &VwConfig) {
        // The map the last battle of this session shared is the same scenario's: kept,
        // rather than copied again for every battle of a preview, and with it what the
        // map remembers of its lines of sight.
        let map = world.get_resource::<Fight>().and_then(|f| f.map.clone());
        let mut fight = super::new_fight(prepared, world, map.is_none());
        if map.is_some() {
            fight.map = map;
        }
        world.insert_resource(fight);
    }

    /// A character's entity carries its stat block and its [`UnitState`] (set for the
    /// battle's start by [`super::new_fight`]).
    fn spawn(entity: &mut EntityWorldMut, sheet: &Arc<VwStats>) {
        entity.insert((Combatant, Sheet(Arc::clone(sheet)), UnitState::default()));
    }

    fn unit_line(world: &World, _: Entity, unit: UnitId) -> String {
        world.get_resource::<Fight>().map_or(String::new(), |f| {
            Board {
                fight: f,
                units: world,
            }
            .unit_line(unit)
        })
    }

    /// A sample covering every kind of decision ([`Board::sample_actions`]).
    fn legal_actions(world: &World, unit: UnitId) -> Vec<Action> {
        world.get_resource::<Fight>().map_or_else(Vec::new, |f| {
            Board {
                fight: f,
                units: world,
            }
            .sample_actions(unit)
        })
    }

    /// A movement vector heading from `from` towards `to` at the distance between them a
    /// turn (1 m hexes): its hex side and speed (vergeworlds-rough-methods.txt, "High Speed
    /// Movement"); none when `to` is `from`.
    fn heading(stats: &VwStats, from: Hex, to: Hex) -> Option<VwStats> {
        let mut s = stats.clone();
        s.moving = (to != from).then(|| {
            let side = super::vector::heading_of(to - from);
            (side, from.unsigned_distance_to(to))
        });
        Some(s)
    }

    /// Mooks drawn from one template are one mook group (vergeworlds-rough-methods.txt,
    /// "Mooks": a group of mooks of one type acts at once, on one initial Action Point
    /// roll), which a mook given a stat block of its own leaves.
    fn grouped_by_template(stats: &VwStats) -> bool {
        stats.mook
    }

    /// A step is one score of Fight, Shoot, Throw and Grapple each
    /// (vergeworlds-rough-methods.txt, "Combat Actions": the attack tasks roll these skills).
    fn stronger(stats: &VwStats, steps: i32) -> Option<VwStats> {
        let mut s = stats.clone();
        for skill in [
            &mut s.skills.fight,
            &mut s.skills.shoot,
            &mut s.skills.throw,
            &mut s.skills.grapple,
        ] {
            *skill = skill.saturating_add(steps);
        }
        Some(s)
    }

    /// Attacks, area fire and grapples attack; walking, running, steering and flying move;
    /// ending the turn, Wait and Concentrate pass; the turn's attitude and the answers
    /// (defense, Mana) answer; every other action takes part.
    fn engagement(action: &Action) -> Engagement {
        match action {
            Action::Attack(_) | Action::AreaFire { .. } | Action::Grapple { .. } => {
                Engagement::Attacks
            }
            Action::Move(_) | Action::Run(_) | Action::Steer(_) | Action::Fly(_) => {
                Engagement::Moves
            }
            Action::EndTurn | Action::Wait | Action::Concentrate => Engagement::Passes,
            Action::Attitude(_) | Action::Defense(_) | Action::Mana(_) => Engagement::Answers,
            _ => Engagement::Acts,
        }
    }

    /// An attack's chance when the dice alone decide it ([`Board::attack_odds`]).
    fn attack_odds(world: &World, unit: UnitId, action: &Action) -> Option<f64> {
        let fight = world.get_resource::<Fight>()?;
        Board {
            fight,
            units: world,
        }
        .attack_odds(unit, action)
    }

    /// The way left before the worst injury puts the character down ([`Board::health`]).
    fn health(world: &World, _: Entity, unit: UnitId) -> f32 {
        world.get_resource::<Fight>().map_or(1.0, |f| {
            Board {
                fight: f,
                units: world,
            }
            .health(unit)
        })
    }

    /// State, Breath, Mana, Action Points, prone and the vector ([`super::gm::fields`]).
    fn gm_fields(world: &World, entity: Entity) -> Vec<GmField> {
        super::gm::fields(world, entity)
    }

    /// [`super::gm::set`]: a worse state puts the character out as an injury would.
    fn gm_set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
        super::gm::set(world, entity, key, value)
    }

    /// [`super::gm::place`]: the character's own position moves with the map's.
    fn gm_place(
        world: &mut World,
        entity: Entity,
        at: Hex,
        facing: EdgeDirection,
    ) -> Result<(), String> {
        super::gm::place(world, entity, at, facing)
    }

    /// [`super::gm::remove`]: the character leaves the battle.
    fn gm_remove(world: &mut World, entity: Entity) -> Result<(), String> {
        super::gm::remove(world, entity)
    }

    /// [`super::gm::join`]: the new character takes turns from the next round.
    fn gm_join(world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
        super::gm::join(world, entity, unit)
    }
}

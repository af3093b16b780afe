//! GURPS behind the engine's ruleset contract ([`Ruleset`]): its scenario section
//! (`ruleset: Gurps(...)`, checked here), its stat blocks resolved against the equipment
//! catalog, its systems, its resources and its fighters' components.

use super::snapshot::Snapshot;
use super::{Action, Fighter, GurpsConfig, GurpsRules, GurpsStats, MoraleState, Sheet};
use crate::battle::{Combatant, Control, GmField, UnitId};
use crate::format::{Path, Problem};
use crate::scenario::{Engagement, Prepared, Ruleset, ScenarioFile, Turning};
use bevy::ecs::entity::Entity;
use bevy::ecs::schedule::Schedule;
use bevy::ecs::world::{EntityWorldMut, World};
use std::sync::Arc;

/// GURPS personal combat (ruleset id `gurps`, tag `Gurps`).
pub struct Gurps;

impl Ruleset for Gurps {
    const ID: &'static str = "gurps";
    const TAG: &'static str = "Gurps";
    const NEW_SCENARIO: &'static str = include_str!("new.ron");
    const STRONGER_STEP: &'static str = "2 levels of every skill the stat block writes out or its GCS file gives, and of every weapon with a level (its parry 1 more)";
    const TOUGHER_STEP: &'static str = "2 hit points";
    type Config = GurpsConfig;
    type Stats = GurpsStats;
    type Sheet = Sheet;
    type Action = Action;

    fn scale(_: &GurpsConfig) -> (f32, &'static str) {
        (1.0, "yd")
    }

    /// The scenario's equipment is checked like the catalog's; groups and morale name
    /// sides, and morale is for AI sides only.
    fn check(config: &GurpsConfig, file: &ScenarioFile) -> Vec<Problem> {
        let mut problems = Vec::new();
        let base = Path::root().field("ruleset");
        for (name, weapon) in &config.weapons {
            let path = base.field("weapons").key(name);
            problems.extend(weapon.problems().into_iter().map(|p| Problem {
                path: path.join(&p.path),
                message: p.message,
            }));
        }
        for (i, id) in config.groups.iter().enumerate() {
            if !file.sides.iter().any(|s| &s.id == id) {
                problems.push(Problem::new(
                    base.field("groups").index(i),
                    format!(
                        "unknown side `{id}`: expected one of {}",
                        crate::scenario::side_ids(file)
                    ),
                ));
            }
        }
        for id in config.morale.keys() {
            let path = base.field("morale").key(id);
            match file.sides.iter().find(|s| &s.id == id) {
                None => problems.push(Problem::new(
                    path,
                    format!(
                        "morale for unknown side `{id}`: expected one of {}",
                        crate::scenario::side_ids(file)
                    ),
                )),
                Some(side) if side.control == Control::Player => problems.push(Problem::new(
                    path,
                    format!("side `{id}` is played by a player: morale checks are for AI sides"),
                )),
                Some(_) => {}
            }
        }
        for (name, shield) in &config.shields {
            if !(0..=10).contains(&shield.db) {
                problems.push(Problem::new(
                    base.field("shields").key(name).field("db"),
                    format!("DB {} is out of range: expected 0 to 10", shield.db),
                ));
            }
        }
        for (name, armor) in &config.armor {
            if !(0..=100).contains(&armor.dr) {
                problems.push(Problem::new(
                    base.field("armor").key(name).field("dr"),
                    format!("DR {} is out of range: expected 0 to 100", armor.dr),
                ));
            }
        }
        problems
    }

    /// A stat block naming a `gcs` file is filled from it first ([`super::import::merge`],
    /// the file relative to the scenario's folder).
    fn resolve(
        config: &GurpsConfig,
        file: &ScenarioFile,
        stats: &[&GurpsStats],
    ) -> Vec<Result<Sheet, Vec<Problem>>> {
        let catalog = config.catalog();
        stats
            .iter()
            .map(|s| {
                let merged = super::import::merge(s, file.dir.as_deref())?;
                super::sheet::resolve_sheet(&merged, &catalog).map_err(|problems| {
                    let dir = file.dir.as_deref();
                    let problems = super::import::with_file_weapons(s, dir, problems);
                    super::import::locate_merged(s, problems)
                })
            })
            .collect()
    }

    fn configure(schedule: &mut Schedule) {
        super::configure(schedule);
    }

    fn init(world: &mut World, prepared: &Prepared, config: &GurpsConfig) {
        let sides = &prepared.sides;
        world.insert_resource(GurpsRules {
            hit_locations: config.hit_locations,
            morale: sides
                .iter()
                .map(|s| config.morale.get(&s.id).copied())
                .collect(),
            extra_effort: config.extra_effort,
            groups: sides
                .iter()
                .map(|s| config.groups.contains(&s.id))
                .collect(),
        });
    }

    fn reset(world: &mut World, prepared: &Prepared, _: &GurpsConfig) {
        world.insert_resource(super::systems::CheckedCommand::default());
        let sides = prepared.sides.len();
        world.insert_resource(MoraleState {
            losses_seen: vec![0; sides],
            broken: vec![false; sides],
        });
    }

    fn spawn(entity: &mut EntityWorldMut, sheet: &Arc<Sheet>) {
        entity.insert((Combatant, Fighter::new(Arc::clone(sheet))));
    }

    fn unit_line(world: &World, entity: Entity, _: UnitId) -> String {
        world.get::<Fighter>(entity).map_or(String::new(), |f| {
            format!(", {}/{} HP", f.hp, f.sheet.hp_max)
        })
    }

    /// A sample covering every kind of decision ([`sample_actions`](super::actions::sample_actions)).
    fn legal_actions(world: &World, unit: UnitId) -> Vec<Action> {
        Snapshot::read(world, unit)
            .map_or_else(Vec::new, |s| super::actions::sample_actions(&s.situation()))
    }

    /// A step is +2 to every skill the block writes out and to the level of every weapon
    /// it writes out with one (gurps-lite-and-socs.txt, "BASE SKILL LEVELS": the attack
    /// roll is against the skill), whose parry, 3 + half the skill
    /// ([`parry`](super::sheet::parry)), goes up by 1; `None` when it writes neither (a
    /// character whose skills and weapons all come from its GCS file: the analysis tools
    /// write them in first, [`Ruleset::drawn_in`]).
    fn stronger(stats: &GurpsStats, steps: i32) -> Option<GurpsStats> {
        let own = |w: &super::sheet::WeaponRef| matches!(w, super::sheet::WeaponRef::Own(_));
        if stats.skills.is_empty() && !stats.weapons.iter().any(own) {
            return None;
        }
        let mut s = stats.clone();
        for level in s.skills.values_mut() {
            *level = level.saturating_add(2 * steps);
        }
        for w in &mut s.weapons {
            if let super::sheet::WeaponRef::Own(w) = w {
                w.level = w.level.saturating_add(2 * steps);
                if let Some(parry) = &mut w.parry {
                    *parry = parry.saturating_add(steps);
                }
            }
        }
        Some(s)
    }

    /// A GCS character's skills and weapons (written out, each with the wielder's level and
    /// parry), or its HP, from its file ([`super::import::merge`]), written into the block
    /// beside its `gcs` reference (the block's own values still win, as when it loads).
    fn drawn_in(
        stats: &GurpsStats,
        dir: Option<&std::path::Path>,
        turning: Turning,
    ) -> Option<GurpsStats> {
        stats.gcs.as_ref()?;
        let merged = super::import::merge(stats, dir).ok()?;
        Some(match turning {
            Turning::Attack => GurpsStats {
                skills: merged.skills,
                weapons: merged.weapons,
                ..stats.clone()
            },
            Turning::HitPoints => GurpsStats {
                hp: merged.hp,
                ..stats.clone()
            },
        })
    }

    /// A step is 2 hit points (gurps-lite-and-socs.txt, "LOST HIT POINTS": HP is what
    /// injury takes away), from the block's HP or, where it writes none, its ST (HP's
    /// default); never below 1. `None` for a GCS character whose HP comes from its file
    /// (the analysis tools write it in first: [`Ruleset::drawn_in`]).
    fn tougher(stats: &GurpsStats, steps: i32) -> Option<GurpsStats> {
        if stats.gcs.is_some() && stats.hp.is_none() {
            return None; // its HP is in its GCS file
        }
        let base = stats.hp.or(stats.st)?;
        let mut s = stats.clone();
        s.hp = Some(base.saturating_add(2 * steps).max(1));
        Some(s)
    }

    /// The attack maneuvers attack, Do Nothing and Wait without a step pass
    /// (gurps-lite-and-socs.txt, "MANEUVERS"), any other with a step moves.
    fn engagement(action: &Action) -> Engagement {
        use super::Maneuver;
        match action.maneuver {
            m if m.attacks() => Engagement::Attacks,
            Maneuver::DoNothing | Maneuver::Wait if action.to.is_none() => Engagement::Passes,
            _ if action.to.is_some() => Engagement::Moves,
            _ => Engagement::Acts,
        }
    }

    /// The first attack roll's chance, as the action panel shows it
    /// ([`Snapshot::odds`], which the window calls).
    fn attack_odds(world: &World, unit: UnitId, action: &Action) -> Option<f64> {
        let odds = Snapshot::read(world, unit)?.odds(action).ok()?;
        odds.strikes.first().map(|s| s.to_hit)
    }

    /// The sheet the rules play with: attributes, derived values, DR by location, each
    /// weapon's skill level, damage and parry.
    fn sheet_json(world: &World, entity: Entity) -> serde_json::Value {
        world
            .get::<Fighter>(entity)
            .map_or(serde_json::Value::Null, |f| {
                super::sheet::sheet_json(&f.sheet)
            })
    }

    /// HP, FP, stunned, mortally wounded and posture ([`super::gm::fields`]).
    fn gm_fields(world: &World, entity: Entity) -> Vec<GmField> {
        super::gm::fields(world, entity)
    }

    /// With what the new level decides under the rules ([`super::gm::set`]).
    fn gm_set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
        super::gm::set(world, entity, key, value)
    }

    /// Out of the fight, and out of the turn it is awaited for ([`super::gm::remove`]).
    fn gm_remove(world: &mut World, entity: Entity) -> Result<(), String> {
        super::gm::remove(world, entity)
    }

    /// At its place in the initiative order ([`super::gm::join`]).
    fn gm_join(world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
        super::gm::join(world, entity, unit)
    }

    /// Hit points left of the sheet's.
    fn health(world: &World, entity: Entity, _: UnitId) -> f32 {
        world
            .get::<Fighter>(entity)
            .map_or(1.0, |f| f.hp.max(0) as f32 / f.sheet.hp_max.max(1) as f32)
    }
}

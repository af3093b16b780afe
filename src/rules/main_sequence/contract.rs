//! Main Sequence behind the engine's ruleset contract ([`Ruleset`]): its scenario section
//! (`ruleset: MainSequence(...)`: bands, initiative groups, a chase, detection, checked
//! here), its characters and ships checked against the creation rules, its systems and the
//! [`Fight`] it keeps.

use super::combat::Band;
use super::{Action, Board, Fight, MsConfig, MsSheet, MsStats, UnitState};
use crate::battle::{Combatant, GmField, HexPos, Sheet, Ship, UnitId, Units};
use crate::format::{Path, PathSeg, Problem};
use crate::hexmap::HexMap;
use crate::scenario::{
    Engagement, Prepared, Ruleset, ScenarioFile, UnitSpec, foe_pair_problems, unknown_sides,
};
use bevy::ecs::entity::Entity;
use bevy::ecs::schedule::Schedule;
use bevy::ecs::world::{EntityWorldMut, World};
use std::sync::Arc;

/// Main Sequence (ruleset id `main-sequence`, tag `MainSequence`).
pub struct MainSequence;

impl Ruleset for MainSequence {
    const ID: &'static str = "main-sequence";
    const TAG: &'static str = "MainSequence";
    const NEW_SCENARIO: &'static str = include_str!("new.ron");
    const STRONGER_STEP: &'static str = "1 Soldier (a ship: 1 Tactical, and so the Defense, weapon damage, torpedoes and, unless written, Hit Points that follow from it)";
    const TOUGHER_STEP: &'static str = "2 Hit Points of a non-player character, a tenth of the hull of a non-player ship, a block marked `npc: true` (player characters' and ships' are fixed by the creation rules)";
    type Config = MsConfig;
    type Stats = MsStats;
    type Sheet = MsSheet;
    type Action = Action;

    fn scale(_: &MsConfig) -> (f32, &'static str) {
        (1.0, "m")
    }

    fn check(config: &MsConfig, file: &ScenarioFile) -> Vec<Problem> {
        problems(file, config)
    }

    /// Each block checked against the creation rules (player characters' Edge and the
    /// like name sides, hence the side ids).
    fn resolve(
        _: &MsConfig,
        file: &ScenarioFile,
        stats: &[&MsStats],
    ) -> Vec<Result<MsSheet, Vec<Problem>>> {
        let side_ids: Vec<String> = file.sides.iter().map(|s| s.id.clone()).collect();
        stats
            .iter()
            .map(|s| MsSheet::resolve(s, &side_ids))
            .collect()
    }

    fn configure(schedule: &mut Schedule) {
        super::configure(schedule);
    }

    fn reset(world: &mut World, prepared: &Prepared, _: &MsConfig) {
        let fight = super::new_fight(prepared, world);
        world.insert_resource(fight);
        world.insert_resource(super::systems::Facings::default());
    }

    /// A unit's entity carries its sheet and its [`UnitState`] (starting where the entity
    /// stands).
    fn spawn(entity: &mut EntityWorldMut, sheet: &Arc<MsSheet>) {
        let pos = entity.get::<HexPos>().map_or(hexx::Hex::ZERO, |p| p.0);
        entity.insert((Sheet(Arc::clone(sheet)), super::new_unit_state(sheet, pos)));
        if sheet.is_ship() {
            entity.insert(Ship);
        } else {
            entity.insert(Combatant);
        }
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
        match (
            world.get_resource::<Fight>(),
            world.get_resource::<HexMap>(),
        ) {
            (Some(fight), Some(map)) => Board {
                fight,
                units: world,
            }
            .sample_actions(map, unit),
            _ => Vec::new(),
        }
    }

    /// Without the chase when the unit is its pursuer or its quarry (a chase is between
    /// two units).
    fn without_unit(config: &MsConfig, name: &str) -> Option<MsConfig> {
        let chase = config.chase.as_ref()?;
        (chase.pursuer == name || chase.quarry == name).then(|| MsConfig {
            chase: None,
            ..config.clone()
        })
    }

    /// A step is one point of Soldier for a character (the Combat Rating of its attack
    /// roll, main-sequence.txt, "Combat Actions", Attacking), of Tactical for a ship.
    fn stronger(stats: &MsStats, steps: i32) -> Option<MsStats> {
        let mut s = stats.clone();
        match &mut s {
            MsStats::Character(c) => c.soldier = c.soldier.saturating_add(steps),
            MsStats::Ship(ship) => ship.tactical = ship.tactical.saturating_add(steps),
        }
        Some(s)
    }

    /// A step is 2 Hit Points for a non-player character (from its `hp`, or Soldier + 6,
    /// main-sequence.txt, "Character Creation") and a tenth of an NPC ship's (from its
    /// `hp`, or (Tactical + Tonnage) x 4), never below 1; `None` for player characters and
    /// ships, whose Hit Points the creation rules fix.
    fn tougher(stats: &MsStats, steps: i32) -> Option<MsStats> {
        let mut s = stats.clone();
        match &mut s {
            MsStats::Character(c) if c.npc => {
                let base = c.hp.unwrap_or(c.soldier + 6);
                c.hp = Some(base.saturating_add(2 * steps).max(1));
            }
            MsStats::Ship(ship) if ship.npc => {
                let base = ship.hp.unwrap_or((ship.tactical + ship.tonnage) * 4);
                let step = (base / 10).max(1);
                ship.hp = Some(base.saturating_add(step.saturating_mul(steps)).max(1));
            }
            _ => return None,
        }
        Some(s)
    }

    /// Attacks attack, moves and leaps move, ending the turn passes; the answers to the
    /// battle's questions (defend, re-roll, Edge) answer; every other action takes part.
    fn engagement(action: &Action) -> Engagement {
        match action {
            Action::Attack { .. } => Engagement::Attacks,
            Action::Move { .. } | Action::Leap { .. } => Engagement::Moves,
            Action::EndTurn => Engagement::Passes,
            Action::Defend(_)
            | Action::DefendWithEdge(_)
            | Action::Reroll(_)
            | Action::SpendEdge(_)
            | Action::PlusTwo(_) => Engagement::Answers,
            _ => Engagement::Acts,
        }
    }

    /// An attack's chance when the dice alone decide it ([`Board::attack_odds`]).
    fn attack_odds(world: &World, unit: UnitId, action: &Action) -> Option<f64> {
        let fight = world.get_resource::<Fight>()?;
        let map = world.get_resource::<HexMap>()?;
        Board {
            fight,
            units: world,
        }
        .attack_odds(map, unit, action)
    }

    /// Hit points left of the sheet's (a character's or a ship's).
    fn health(world: &World, _: Entity, unit: UnitId) -> f32 {
        let st = Units::<MsSheet, UnitState>::state_of(world, unit);
        let sheet = Units::<MsSheet, UnitState>::sheet_of(world, unit);
        match (st, sheet) {
            (Some(st), Some(sheet)) => st.hp as f32 / sheet.hp().max(1) as f32,
            _ => 1.0,
        }
    }

    /// Hit Points, condition, Edge, dodges and the fight's conditions of a character; Hit
    /// Points, condition, shields and failed systems of a ship ([`super::gm::fields`]).
    fn gm_fields(world: &World, entity: Entity) -> Vec<GmField> {
        super::gm::fields(world, entity)
    }

    /// As the rules follow from it: 0 Hit Points leave a character dying and destroy a
    /// ship ([`super::gm::set`]).
    fn gm_set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
        super::gm::set(world, entity, key, value)
    }

    /// The unit's own position too; refused in a chase ([`super::gm::place`]).
    fn gm_place(
        world: &mut World,
        entity: Entity,
        at: hexx::Hex,
        facing: hexx::EdgeDirection,
    ) -> Result<(), String> {
        super::gm::place(world, entity, at, facing)
    }

    /// The unit's condition too, and its turn and chase end ([`super::gm::remove`]).
    fn gm_remove(world: &mut World, entity: Entity) -> Result<(), String> {
        super::gm::remove(world, entity)
    }

    /// Seen as at the battle's start; initiative from the next round
    /// ([`super::gm::join`]).
    fn gm_join(world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
        super::gm::join(world, entity, unit)
    }
}

/// What is wrong with a Main Sequence scenario's settings.
fn problems(file: &ScenarioFile, config: &MsConfig) -> Vec<Problem> {
    let base = Path::root().field("ruleset");
    let mut problems = unknown_sides(
        file,
        &base.field("group_initiative"),
        &config.group_initiative,
    );
    // "Combat Actions", Initiative: groups of NPCs may share a roll.
    for (i, id) in config.group_initiative.iter().enumerate() {
        for u in file.units.iter().filter(|u| &u.side == id) {
            let npc = match ms_stats(file, u) {
                Some(MsStats::Character(c)) => c.npc,
                Some(MsStats::Ship(s)) => s.npc,
                None => true,
            };
            if !npc {
                problems.push(Problem::new(
                    base.field("group_initiative").index(i),
                    format!(
                        "side `{id}` shares one initiative roll, which the text allows for NPCs only: {} is not marked `npc: true`",
                        u.name
                    ),
                ));
            }
        }
    }
    if !(-10..=20).contains(&config.detection_modifier) {
        problems.push(Problem::new(
            base.field("detection_modifier"),
            format!(
                "{} is out of range: expected -10 to 20",
                config.detection_modifier
            ),
        ));
    }
    let b = config.bands;
    if !b.is_ordered() || b.long > 10_000 {
        problems.push(Problem::new(
            base.field("bands"),
            format!(
                "bands {}/{}/{}/{} hexes: expected 1 <= melee < close < medium < long <= 10000",
                b.melee, b.close, b.medium, b.long
            ),
        ));
    }
    if let Some(c) = &config.chase {
        let path = base.field("chase");
        problems.extend(
            foe_pair_problems(file, &path, &c.pursuer, &c.quarry).map(|mut p| {
                if let Some(PathSeg::Field(f)) = p.path.0.last_mut() {
                    *f = if f == "from" {
                        "pursuer".into()
                    } else {
                        "quarry".into()
                    };
                }
                p
            }),
        );
        if file.units.len() != 2 {
            problems.push(Problem::new(
                path.clone(),
                format!(
                    "a chase is between two units; the scenario has {}",
                    file.units.len()
                ),
            ));
        }
        if let Some(start) = c.start
            && start < Band::Close
        {
            problems.push(Problem::new(
                path.field("start"),
                format!("a chase cannot start at {start:?}: expected Close, Medium, Long or Far"),
            ));
        }
        let is_ship = |who: &str| {
            file.units
                .iter()
                .find(|u| u.name == who)
                .and_then(|u| ms_stats(file, u))
                .map(|s| matches!(s, MsStats::Ship(_)))
        };
        if let (Some(a), Some(b)) = (is_ship(&c.pursuer), is_ship(&c.quarry))
            && a != b
        {
            problems.push(Problem::new(
                path.clone(),
                format!(
                    "{} and {} are not at the same scale: a chase is between two ships or two characters",
                    c.pursuer, c.quarry
                ),
            ));
        }
        for (field, who, vehicle) in [
            ("pursuer_vehicle", &c.pursuer, &c.pursuer_vehicle),
            ("quarry_vehicle", &c.quarry, &c.quarry_vehicle),
        ] {
            let ship = is_ship(who) == Some(true);
            if vehicle.is_some() && ship {
                problems.push(Problem::new(
                    path.field(field),
                    format!("{who} is a ship: its pilot rolls with the ship; leave {field} out"),
                ));
            }
        }
        for (field, v) in [
            ("pursuer_bonus", c.pursuer_bonus),
            ("quarry_bonus", c.quarry_bonus),
        ] {
            if !(0..=6).contains(&v) {
                problems.push(Problem::new(
                    path.field(field),
                    format!("{v} is out of range: expected 0 to 6"),
                ));
            }
        }
    }
    problems
}

/// The Main Sequence stat block of a unit as written, its own or its template's.
fn ms_stats<'a>(file: &'a ScenarioFile, u: &'a UnitSpec) -> Option<&'a MsStats> {
    u.stats_in(file)?.get::<MainSequence>()
}

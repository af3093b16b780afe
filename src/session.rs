//! A battle session: a bevy `World` and its battle-step schedule, built from a
//! [`Prepared`] scenario, that can be stepped, run to the end and reset with a new seed
//! without being rebuilt (the preview reuses one per thread).

use crate::battle::{
    self, Activity, Autopilot, BattleEvent, BattleStats, CombatLog, Controller, Facing, HexPos,
    Outcome, OutcomeKind, Projectile, Roster, RosterEntry, Side, Sides, Standing, TurnState,
    UnitId, UnitTally, VictoryRule,
};
use crate::dice::BattleRng;
use crate::scenario::Prepared;
use bevy::ecs::entity::Entity;
use bevy::ecs::message::Messages;
use bevy::ecs::query::{Or, With};
use bevy::ecs::schedule::Schedule;
use bevy::ecs::world::World;
use serde::Serialize;
use std::sync::Arc;

/// How a session runs.
#[derive(Clone, Copy, Debug)]
pub struct SessionOptions {
    /// Keep every event in the combat log (off for previews).
    pub keep_log: bool,
    /// Let the AI play player-controlled sides too (headless runs and previews).
    pub autopilot: bool,
}

impl Default for SessionOptions {
    fn default() -> Self {
        Self {
            keep_log: true,
            autopilot: true,
        }
    }
}

/// One battle in progress.
pub struct Session {
    /// The battle world: units, map and log.
    pub world: World,
    /// The battle-step schedule, kept here rather than in the world so that a step runs it
    /// directly (no lookup and move of the schedule on every step).
    schedule: Schedule,
    prepared: Arc<Prepared>,
    options: SessionOptions,
    seed: u64,
}

/// How a battle went, for statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BattleSummary {
    /// How it ended (`None` if it has not).
    pub outcome: Option<OutcomeKind>,
    /// Rounds fought.
    pub rounds: u32,
    /// Per unit tallies, in unit order.
    pub tallies: Vec<UnitTally>,
    /// Per unit standing at the end, in unit order.
    pub standing: Vec<Standing>,
}

/// Safety cap on steps for [`Session::run`]; far above any battle under the round cap.
const MAX_STEPS: u64 = 10_000_000;

impl Session {
    /// A new battle of `prepared` with dice seeded by `seed`.
    pub fn new(prepared: Arc<Prepared>, seed: u64, options: SessionOptions) -> Self {
        let mut world = World::new();
        battle::init_resources(&mut world);
        let mut schedule = battle::new_schedule();
        prepared.rules.configure(&mut schedule);
        prepared.rules.init(&mut world, &prepared);
        world.insert_resource(prepared.map.clone());
        let mut session = Self {
            world,
            schedule,
            prepared,
            options,
            seed,
        };
        session.reset(seed);
        session
    }

    /// The scenario being fought.
    pub fn prepared(&self) -> &Arc<Prepared> {
        &self.prepared
    }

    /// The seed of the current battle.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Starts the battle over from the scenario with dice seeded by `seed`.
    pub fn reset(&mut self, seed: u64) {
        self.seed = seed;
        let world = &mut self.world;
        let old: Vec<Entity> = world
            .query_filtered::<Entity, Or<(With<UnitId>, With<Projectile>)>>()
            .iter(world)
            .collect();
        for e in old {
            world.despawn(e);
        }
        world.insert_resource(BattleRng::seeded(seed));
        world.insert_resource(Sides(self.prepared.sides.clone()));
        world.insert_resource(TurnState::default());
        world.insert_resource(Outcome::default());
        world.insert_resource(Activity::default());
        world.insert_resource(self.prepared.victory);
        world.insert_resource(Autopilot(self.options.autopilot));
        world.insert_resource(CombatLog {
            keep: self.options.keep_log,
            entries: Vec::new(),
        });
        world.insert_resource(BattleStats::new(self.prepared.units.len()));
        world.resource_mut::<Messages<BattleEvent>>().clear();
        let mut roster = Roster::default();
        for (i, unit) in self.prepared.units.iter().enumerate() {
            let side = unit.side;
            let control = self.prepared.sides[usize::from(side)].control;
            let mut entity = world.spawn((
                UnitId(i as u32),
                Side(side),
                HexPos(unit.at),
                Facing(unit.facing),
                Standing::Fighting,
                Controller(control),
            ));
            self.prepared.rules.spawn(&mut entity, &unit.stats);
            roster.units.push(RosterEntry {
                name: unit.name.clone(),
                side,
                entity: entity.id(),
            });
        }
        world.insert_resource(roster);
        self.prepared.rules.reset(world, &self.prepared);
    }

    /// Lets the AI play the player sides too (on), or makes them wait for commands (off),
    /// from the next step on.
    pub fn set_autopilot(&mut self, on: bool) {
        self.options.autopilot = on;
        self.world.insert_resource(Autopilot(on));
    }

    /// Replaces the dice with a fresh generator seeded by `seed`, leaving the battle as it
    /// stands: a preview of the current situation fights it on with other dice.
    pub fn reseed_dice(&mut self, seed: u64) {
        self.world.insert_resource(BattleRng::seeded(seed));
    }

    /// Advances the battle by one step (one turn begun or resolved).
    pub fn step(&mut self) {
        self.schedule.run(&mut self.world);
    }

    /// The outcome, once decided.
    pub fn outcome(&self) -> Option<OutcomeKind> {
        self.world.resource::<Outcome>().0
    }

    /// Steps until the battle ends (the AI plays every side when autopilot is on).
    pub fn run(&mut self) -> Option<OutcomeKind> {
        let mut steps = 0;
        while self.outcome().is_none() && steps < MAX_STEPS {
            self.step();
            steps += 1;
        }
        self.outcome()
    }

    /// Current round.
    pub fn round(&self) -> u32 {
        self.world.resource::<TurnState>().round
    }

    /// The combat log.
    pub fn log(&self) -> &CombatLog {
        self.world.resource::<CombatLog>()
    }

    /// The roster: names and sides by unit id.
    pub fn roster(&self) -> &Roster {
        self.world.resource::<Roster>()
    }

    /// The sides.
    pub fn sides(&self) -> &Sides {
        self.world.resource::<Sides>()
    }

    /// The log as text.
    pub fn log_text(&self) -> String {
        self.log().to_text(self.roster(), self.sides())
    }

    /// Standing of each unit, in unit order.
    pub fn standings(&mut self) -> Vec<Standing> {
        let mut q = self.world.query::<(&UnitId, &Standing)>();
        let mut v: Vec<(UnitId, Standing)> = q.iter(&self.world).map(|(i, s)| (*i, *s)).collect();
        v.sort_by_key(|(i, _)| *i);
        v.into_iter().map(|(_, s)| s).collect()
    }

    /// Each unit's sheet as its ruleset shows it in `run --json` (null where it shows none),
    /// in unit order.
    pub fn sheets(&self) -> Vec<serde_json::Value> {
        let rules = self.prepared.rules;
        self.roster()
            .units
            .iter()
            .map(|u| rules.sheet_json(&self.world, u.entity))
            .collect()
    }

    /// A one-line state of each unit ("Aldric: fighting, 7/12 HP at (1, 0)"), in unit order.
    pub fn unit_lines(&mut self) -> Vec<String> {
        let rules = self.prepared.rules;
        let world = &mut self.world;
        let mut q = world.query::<(Entity, &UnitId, &Standing, &HexPos)>();
        let mut units: Vec<(Entity, UnitId, Standing, hexx::Hex)> = q
            .iter(world)
            .map(|(e, id, standing, pos)| (e, *id, *standing, pos.0))
            .collect();
        units.sort_by_key(|(_, id, ..)| *id);
        let roster = world.resource::<Roster>();
        units
            .into_iter()
            .map(|(entity, id, standing, at)| {
                format!(
                    "{}: {}{} at ({}, {})",
                    roster.name(id),
                    standing.word(),
                    rules.unit_line(world, entity, id),
                    at.x,
                    at.y
                )
            })
            .collect()
    }

    /// How the battle went so far.
    pub fn summary(&mut self) -> BattleSummary {
        BattleSummary {
            outcome: self.outcome(),
            rounds: self.round(),
            tallies: self.world.resource::<BattleStats>().units.clone(),
            standing: self.standings(),
        }
    }

    /// The victory rule in force.
    pub fn victory(&self) -> VictoryRule {
        *self.world.resource::<VictoryRule>()
    }
}

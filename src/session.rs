//! A battle session: a bevy `World` and its battle-step schedule, built from a
//! [`Prepared`] scenario, that can be stepped, run to the end and reset with a new seed
//! without being rebuilt (the preview reuses one per thread).

use crate::battle::{
    self, Activity, Autopilot, BattleEvent, BattleStats, CombatLog, Controller, Facing, GmChange,
    HexPos, LogEntry, Outcome, OutcomeKind, Projectile, Roster, RosterEntry, Side, Sides, Standing,
    TurnState, UnitId, UnitTally, VictoryRule,
};
use crate::dice::BattleRng;
use crate::hexmap::HexMap;
use crate::scenario::{Prepared, UnitSheet};
use bevy::ecs::entity::Entity;
use bevy::ecs::message::Messages;
use bevy::ecs::query::{Or, QueryState, With};
use bevy::ecs::schedule::Schedule;
use bevy::ecs::world::World;
use hexx::{EdgeDirection, Hex};
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

impl SessionOptions {
    /// How a preview fights its battles: no log, the AI on every side
    /// ([`crate::preview::run_battles`]).
    pub const PREVIEW: SessionOptions = SessionOptions {
        keep_log: false,
        autopilot: true,
    };
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
    /// The stat blocks of units the GM brought in, by unit id past the scenario's.
    added: Vec<UnitSheet>,
    /// The queries every battle of a preview asks, built once for `world` (a query's state
    /// belongs to one world: `world` must not be replaced by another).
    queries: Queries,
}

/// What a battle spawns: units and projectiles.
type Spawned = Or<(With<UnitId>, With<Projectile>)>;

/// The queries [`Session::reset`] and [`Session::standings`] ask once a battle, kept: a
/// query's state costs more to build than to run over a battle's few units.
struct Queries {
    /// The entities a reset despawns: units and projectiles.
    spawned: QueryState<Entity, Spawned>,
    /// Each unit's standing.
    standing: QueryState<(&'static UnitId, &'static Standing)>,
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
        let schedule = prepared.rules.schedule();
        prepared.rules.init(&mut world, &prepared);
        world.insert_resource(prepared.map.clone());
        let queries = Queries {
            spawned: QueryState::new(&mut world),
            standing: QueryState::new(&mut world),
        };
        let mut session = Self {
            world,
            schedule,
            prepared,
            options,
            seed,
            added: Vec::new(),
            queries,
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
        self.added.clear();
        let world = &mut self.world;
        let old: Vec<Entity> = self.queries.spawned.iter(world).collect();
        for e in old {
            world.despawn(e);
        }
        // A bare world (no App) never ages its record of removed components: without this,
        // every battle of a preview would leave its despawned units' record behind (about
        // a kilobyte a battle). Nothing in a battle reads that record or change ticks.
        world.clear_trackers();
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
        let mut v: Vec<(UnitId, Standing)> = self
            .queries
            .standing
            .iter(&self.world)
            .map(|(i, s)| (*i, *s))
            .collect();
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

    /// A game master's edit of the battle in progress (`battle::gm`): checked against the
    /// map and the unit's ruleset ([`crate::scenario::Ruleset::gm_fields`]), applied,
    /// logged as [`BattleEvent::GameMaster`] with `reason`, and returned in words ("HP 12
    /// -> 6"). Nothing changes when it is refused.
    pub fn gm_edit(
        &mut self,
        unit: UnitId,
        change: &GmChange,
        reason: &str,
    ) -> Result<String, String> {
        if self.outcome().is_some() {
            return Err("the battle is over".to_string());
        }
        let rules = self.prepared.rules;
        let roster = self.roster();
        let (Some(entity), name) = (roster.entity(unit), roster.name(unit).to_string()) else {
            return Err(format!("there is no unit {} in this battle", unit.0));
        };
        let (changed, subject) = match change {
            GmChange::Set { key, value, force } => {
                let fields = rules.gm_fields(&self.world, entity);
                let Some(field) = fields.iter().find(|f| f.key == key.as_str()) else {
                    let keys: Vec<&str> = fields.iter().map(|f| f.key).collect();
                    return Err(if keys.is_empty() {
                        format!(
                            "the {} ruleset lets the GM change nothing on {name}",
                            rules.id()
                        )
                    } else {
                        format!(
                            "{name} has no field `{key}` to change (it has: {})",
                            keys.join(", ")
                        )
                    });
                };
                field.value.check(*value, *force)?;
                let before = field.value.words(field.value.as_number());
                rules.gm_set(&mut self.world, entity, key, *value)?;
                let forced = if *force { " (forced)" } else { "" };
                let after = field.value.words(*value);
                (format!("{} {before} -> {after}{forced}", field.label), unit)
            }
            GmChange::Place { at, facing } => {
                let hex = Hex::new(at.0, at.1);
                let facing = direction(*facing)?;
                self.check_free(hex, Some(unit))?;
                let from = self.world.get::<HexPos>(entity).map(|p| p.0);
                rules.gm_place(&mut self.world, entity, hex, facing)?;
                let words = match from {
                    Some(from) if from == hex => format!("turned to face {}", facing.index()),
                    Some(from) => format!(
                        "moved from ({}, {}) to ({}, {}) facing {}",
                        from.x,
                        from.y,
                        hex.x,
                        hex.y,
                        facing.index()
                    ),
                    None => format!("moved to ({}, {})", hex.x, hex.y),
                };
                (words, unit)
            }
            GmChange::Remove => {
                if !self
                    .world
                    .get::<Standing>(entity)
                    .is_some_and(|s| s.fighting())
                {
                    return Err(format!("{name} is already out of the fight"));
                }
                rules.gm_remove(&mut self.world, entity)?;
                ("is taken out of the fight".to_string(), unit)
            }
            GmChange::Add {
                name: new_name,
                at,
                facing,
            } => {
                let new_name = new_name.trim();
                if new_name.is_empty() {
                    return Err("a new unit needs a name".to_string());
                }
                if self.roster().units.iter().any(|u| u.name == new_name) {
                    return Err(format!("there is already a unit named {new_name}"));
                }
                let hex = Hex::new(at.0, at.1);
                let facing = direction(*facing)?;
                self.check_free(hex, None)?;
                let new = self.add_unit(unit, new_name, hex, facing)?;
                (
                    format!(
                        "joins the fight at ({}, {}), a copy of {name}",
                        hex.x, hex.y
                    ),
                    new,
                )
            }
        };
        let round = self.round();
        let mut log = self.world.resource_mut::<CombatLog>();
        if log.keep {
            log.entries.push(LogEntry {
                round,
                event: BattleEvent::GameMaster {
                    unit: subject,
                    change: changed.clone(),
                    reason: reason.trim().to_string(),
                },
            });
        }
        Ok(changed)
    }

    /// Whether a unit may be put on `hex`: on the map, open, and not held by a unit in the
    /// fight other than `moving`.
    fn check_free(&mut self, hex: Hex, moving: Option<UnitId>) -> Result<(), String> {
        let map = self.world.resource::<HexMap>();
        if !map.contains(hex) {
            return Err(format!("({}, {}) is not on the map", hex.x, hex.y));
        }
        if map.move_cost(hex).is_none() {
            return Err(format!("({}, {}) is blocked terrain", hex.x, hex.y));
        }
        let mut q = self.world.query::<(&UnitId, &HexPos, &Standing)>();
        if let Some((id, ..)) = q
            .iter(&self.world)
            .find(|(id, pos, s)| pos.0 == hex && s.fighting() && Some(**id) != moving)
        {
            let who = self.roster().name(*id).to_string();
            return Err(format!("({}, {}) is held by {who}", hex.x, hex.y));
        }
        Ok(())
    }

    /// Spawns a copy of `like`'s stat block named `name` on its side at `at`, lists it in
    /// the roster and the statistics, and lets the ruleset take it in
    /// ([`crate::scenario::Ruleset::gm_join`]); its new id.
    fn add_unit(
        &mut self,
        like: UnitId,
        name: &str,
        at: Hex,
        facing: EdgeDirection,
    ) -> Result<UnitId, String> {
        let index = like.0 as usize;
        let scenario_units = self.prepared.units.len();
        let sheet = match self.prepared.units.get(index) {
            Some(u) => u.stats.clone(),
            None => self
                .added
                .get(index - scenario_units)
                .cloned()
                .ok_or_else(|| format!("there is no unit {} to copy", like.0))?,
        };
        let roster = self.roster();
        let Some(model) = roster.entity(like) else {
            return Err(format!("there is no unit {} to copy", like.0));
        };
        let id = UnitId(roster.units.len() as u32);
        let side = self.world.get::<Side>(model).map_or(0, |s| s.0);
        // The side's control, not the model's now (a unit the GM took over is the player's
        // for one decision only).
        let Some(control) = self
            .prepared
            .sides
            .get(usize::from(side))
            .map(|s| s.control)
        else {
            return Err(format!("unit {} has no side in this battle", like.0));
        };
        let rules = self.prepared.rules;
        let mut entity = self.world.spawn((
            id,
            Side(side),
            HexPos(at),
            Facing(facing),
            Standing::Fighting,
            Controller(control),
        ));
        rules.spawn(&mut entity, &sheet);
        let entity = entity.id();
        self.world.resource_mut::<Roster>().units.push(RosterEntry {
            name: name.to_string(),
            side,
            entity,
        });
        self.world
            .resource_mut::<BattleStats>()
            .units
            .push(UnitTally::default());
        if let Err(reason) = rules.gm_join(&mut self.world, entity, id) {
            self.world.despawn(entity);
            self.world.resource_mut::<Roster>().units.pop();
            self.world.resource_mut::<BattleStats>().units.pop();
            return Err(reason);
        }
        self.added.push(sheet);
        Ok(id)
    }

    /// The victory rule in force.
    pub fn victory(&self) -> VictoryRule {
        *self.world.resource::<VictoryRule>()
    }
}

/// Facing direction `index` (0 to 5), or why not.
fn direction(index: u8) -> Result<EdgeDirection, String> {
    EdgeDirection::ALL_DIRECTIONS
        .get(usize::from(index))
        .copied()
        .ok_or_else(|| format!("facing {index} is not a direction (0 to 5)"))
}

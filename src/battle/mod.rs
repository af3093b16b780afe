//! Shared battle state for every ruleset: unit components (side, position, facing,
//! standing), the turn and phase state, the `Command` and [`BattleEvent`] messages, the
//! combat log, statistics, the outcome and the AI policy interface.
//!
//! A battle is a bevy `World` driven by the [`BattleStep`] schedule. One run of the schedule
//! is one step: a ruleset begins the next turn or phase, a decision is made (player, AI or
//! replay), the ruleset resolves it, victory is checked, and the log and statistics record
//! the events. The sets run in a fixed order ([`BattleSet`]), and everything that rolls dice
//! draws from the one [`BattleRng`](crate::dice::BattleRng), so the same scenario and seed
//! give the same log byte for byte.

mod event;
pub mod gm;
mod log;
pub mod place;
mod policy;
pub mod stalemate;
mod stats;
mod units;

pub use event::{AttackResult, BattleEvent, DefenseRecord, hex_pair, log_only};
pub use gm::{GmChange, GmField, GmValue};
pub use log::{CombatLog, INJURY_DAMAGE, LEVEL_DAMAGE, LogEntry, format_event};
pub use policy::{Policy, UnitsPolicy};
pub use stalemate::{Activity, QUIET_ROUNDS};
pub use stats::{BattleStats, UnitTally};
pub use units::{Frozen, Gathered, Sheet, UnitComponents, Units, UnitsMut};

use bevy::ecs::component::Component;
use bevy::ecs::message::{Message, MessageCursor, MessageWriter, Messages};
use bevy::ecs::prelude::{IntoScheduleConfigs, Local, Query, Res, ResMut, Schedule, SystemSet};
use bevy::ecs::resource::Resource;
use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::ecs::world::World;
use hexx::{EdgeDirection, Hex};
use serde::{Deserialize, Serialize};

/// Stable identity of a unit: its index in the scenario's unit list. Logs, commands and
/// replays refer to units by this id, never by `Entity`.
#[derive(
    Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct UnitId(pub u32);

/// Index of a unit's side in [`Sides`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Side(pub u8);

/// Where a unit stands on the map.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexPos(pub Hex);

/// Which hex side a unit faces.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facing(pub EdgeDirection);

/// A unit's velocity, hexes a turn as an axial offset, for rulesets with vector movement
/// (the window draws it as an arrow to where the unit coasts next turn).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Velocity(pub Hex);

/// A unit's height above the ground in meters, for rulesets with flight (the window writes
/// it on the token).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Altitude(pub i32);

/// Marks a personal-scale combatant.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Combatant;

/// Marks a ship or vehicle.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Ship;

/// Marks a projectile in flight (missile, torpedo).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Projectile;

/// A projectile without a place of its own on the map (its ruleset keeps range as a band):
/// the window draws it flying from its launcher towards its target.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Homing {
    /// The entity of the unit that launched it.
    pub from: bevy::ecs::entity::Entity,
    /// The entity of its target.
    pub target: bevy::ecs::entity::Entity,
}

/// Whether a unit is still in the fight.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Standing {
    /// Able to act.
    Fighting,
    /// Out of the fight but alive.
    Unconscious,
    /// Killed or destroyed.
    Dead,
    /// Left the battle (escaped or fled).
    Escaped,
    /// Gave up the fight.
    Surrendered,
    /// A craft put out of action (disabled, not destroyed).
    Disabled,
    /// A ship or craft destroyed (whoever was aboard may have lived).
    Destroyed,
}

impl Standing {
    /// True while the unit can still act.
    pub fn fighting(self) -> bool {
        self == Standing::Fighting
    }

    /// True when the unit is gone for good (killed or destroyed).
    pub fn lost(self) -> bool {
        matches!(self, Standing::Dead | Standing::Destroyed)
    }

    /// The standing in one word, for panels and summaries.
    pub fn word(self) -> &'static str {
        match self {
            Standing::Fighting => "fighting",
            Standing::Unconscious => "unconscious",
            Standing::Dead => "dead",
            Standing::Escaped => "escaped",
            Standing::Surrendered => "surrendered",
            Standing::Disabled => "disabled",
            Standing::Destroyed => "destroyed",
        }
    }
}

/// Who makes a side's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Control {
    /// A person, through the GUI (in headless runs the AI plays for them).
    Player,
    /// The AI, in the given style.
    Ai(AiStyle),
}

/// How an AI side fights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AiStyle {
    /// Closes in and presses the attack, trading defense for damage when it pays.
    #[default]
    Aggressive,
    /// Keeps its defenses, aims before it shoots, and turtles when badly hurt.
    Cautious,
}

/// Who decides for a unit (copied from its side when it is spawned).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Controller(pub Control);

/// One side of the battle.
#[derive(Clone, Debug, Serialize)]
pub struct SideInfo {
    /// Short id used in scenario files ("red").
    pub id: String,
    /// Display name.
    pub name: String,
    /// Who decides for it.
    pub control: Control,
    /// Its colour in the window, red, green and blue from 0 to 255 (`None`: the window's
    /// colour for its place in the list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<(u8, u8, u8)>,
}

/// The colours of the sides that do not name one, by their place in the list (red, blue,
/// green, yellow, purple, teal), red, green and blue from 0 to 255: the window's tokens and
/// the shared log's maps.
pub const SIDE_PALETTE: [(u8, u8, u8); 6] = [
    (217, 64, 51),
    (51, 115, 230),
    (64, 179, 77),
    (230, 191, 51),
    (166, 89, 204),
    (51, 191, 191),
];

/// The sides, indexed by [`Side`].
#[derive(Resource, Clone, Debug, Default)]
pub struct Sides(pub Vec<SideInfo>);

/// Name and side of every unit by [`UnitId`], and its entity in this world.
#[derive(Resource, Clone, Debug, Default)]
pub struct Roster {
    /// Entries in [`UnitId`] order.
    pub units: Vec<RosterEntry>,
}

/// One unit in the [`Roster`].
#[derive(Clone, Debug, Serialize)]
pub struct RosterEntry {
    /// Unit name.
    pub name: String,
    /// Its side.
    pub side: u8,
    /// Its entity in the battle world (not serialized: it differs between runs).
    #[serde(skip)]
    pub entity: bevy::ecs::entity::Entity,
}

impl Roster {
    /// Display name of a unit.
    pub fn name(&self, id: UnitId) -> &str {
        self.units
            .get(id.0 as usize)
            .map_or("?", |entry| entry.name.as_str())
    }

    /// The unit of an entity (`None`: not a unit of the roster).
    pub fn unit_of(&self, entity: bevy::ecs::entity::Entity) -> Option<UnitId> {
        self.units
            .iter()
            .position(|u| u.entity == entity)
            .and_then(|i| u32::try_from(i).ok())
            .map(UnitId)
    }

    /// Entity of a unit.
    pub fn entity(&self, id: UnitId) -> Option<bevy::ecs::entity::Entity> {
        self.units.get(id.0 as usize).map(|entry| entry.entity)
    }
}

/// Round, phase and whose turn it is. Each ruleset keeps it current; the GUI's turn
/// tracker and the victory check read it.
#[derive(Resource, Clone, Debug, Default)]
pub struct TurnState {
    /// Current round, from 1 (0 before the battle starts).
    pub round: u32,
    /// Name of the current phase ("turn" for rulesets without phases).
    pub phase: &'static str,
    /// Order of play this round.
    pub order: Vec<UnitId>,
    /// Position in `order` of the unit now acting.
    pub cursor: usize,
    /// The unit whose decision is awaited, if any.
    pub awaiting: Option<UnitId>,
    /// Set when the last turn of the round has been resolved.
    pub round_over: bool,
}

/// How the battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum OutcomeKind {
    /// One side won.
    Victory {
        /// Index of the winning side.
        side: u8,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

/// Why a battle was a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DrawReason {
    /// Every side was out of the fight at once.
    AllDown,
    /// The round limit was reached with sides tied.
    RoundLimit,
    /// Nobody attacked, was hurt or changed standing for [`QUIET_ROUNDS`] rounds in a row
    /// ([`stalemate`]).
    Stalemate,
    /// The safety cap on rounds ([`MAX_ROUNDS`]) was reached: the battle would not end,
    /// although things still happened in it.
    RoundCap,
}

impl DrawReason {
    /// Every reason, in the order of [`DrawReason::index`].
    pub const ALL: [DrawReason; 4] = [
        DrawReason::AllDown,
        DrawReason::RoundLimit,
        DrawReason::Stalemate,
        DrawReason::RoundCap,
    ];

    /// Its place in [`DrawReason::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The reason in words, as the log, `run` and `preview` say it.
impl std::fmt::Display for DrawReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawReason::AllDown => f.write_str("every side is down"),
            DrawReason::RoundLimit => f.write_str("round limit reached with sides tied"),
            DrawReason::Stalemate => write!(
                f,
                "stalemate: nobody attacked or was hurt for {QUIET_ROUNDS} rounds"
            ),
            DrawReason::RoundCap => {
                write!(f, "the safety cap of {MAX_ROUNDS} rounds was reached")
            }
        }
    }
}

/// The outcome, once the battle is over.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Outcome(pub Option<OutcomeKind>);

/// When a battle ends besides one side standing alone.
#[derive(Resource, Clone, Copy, Debug)]
pub struct VictoryRule {
    /// After this round, the side with most units still fighting wins (equal: a draw).
    pub round_limit: Option<u32>,
    /// Safety cap: after this many rounds the battle is a draw ([`DrawReason::RoundCap`]).
    pub max_rounds: u32,
}

impl Default for VictoryRule {
    fn default() -> Self {
        Self {
            round_limit: None,
            max_rounds: MAX_ROUNDS,
        }
    }
}

/// Rounds after which a battle without a round limit is a draw, whatever still happens in
/// it ([`DrawReason::RoundCap`]); battles where nothing happens end much sooner
/// ([`DrawReason::Stalemate`]).
pub const MAX_ROUNDS: u32 = 1000;

/// When true, the AI also decides for player-controlled sides (headless runs and previews).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Autopilot(pub bool);

/// A decision for one unit, from the player, the AI or a replay file. `A` is the
/// ruleset's action type.
#[derive(Message, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Command<A: Send + Sync + 'static> {
    /// Who acts.
    pub unit: UnitId,
    /// What they do.
    pub action: A,
}

/// For rulesets that keep range as a band per pair of foes (starship-d12, SOCS): true when
/// `me` leaves the fight, that is when every foe still fighting is out of reach
/// (`out_of_reach`) and `me` itself broke off from at least one of them (`broke_off_from`).
/// A ship that others broke off from holds the field instead.
pub fn breaks_away(
    foes: &[UnitId],
    out_of_reach: impl Fn(UnitId) -> bool,
    broke_off_from: impl Fn(UnitId) -> bool,
) -> bool {
    !foes.is_empty()
        && foes.iter().all(|&f| out_of_reach(f))
        && foes.iter().any(|&f| broke_off_from(f))
}

/// The command of the unit whose turn it is (`awaiting`) among a step's commands, for every
/// ruleset's resolve system: the first one for that unit, and a `Rejected` event for each
/// command of another unit (or for all when no turn is in progress).
pub fn awaited_command<A: Clone + Send + Sync + 'static>(
    awaiting: Option<UnitId>,
    commands: impl Iterator<Item = Command<A>>,
    roster: &Roster,
    events: &mut Vec<BattleEvent>,
) -> Option<A> {
    let mut chosen = None;
    for c in commands {
        match awaiting {
            None => events.push(BattleEvent::Rejected {
                unit: c.unit,
                reason: "no turn is in progress".into(),
            }),
            Some(active) if c.unit != active => events.push(BattleEvent::Rejected {
                unit: c.unit,
                reason: format!("it is {}'s turn", roster.name(active)),
            }),
            Some(_) => {
                chosen.get_or_insert(c.action);
            }
        }
    }
    chosen
}

/// The decision a ruleset's resolve system goes on with: `action` when `check` accepted
/// it; else the refusal is logged as `Rejected`, and a player's decision is dropped
/// (`None`: the player chooses again) while the AI's is replaced by `fallback()`, a
/// decision that always passes (hold, pass, no defense).
pub fn accept_or_fallback<A>(
    action: A,
    check: Result<(), String>,
    active: UnitId,
    ai: bool,
    fallback: impl FnOnce() -> A,
    events: &mut Vec<BattleEvent>,
) -> Option<A> {
    match check {
        Ok(()) => Some(action),
        Err(reason) => {
            events.push(BattleEvent::Rejected {
                unit: active,
                reason,
            });
            ai.then(fallback)
        }
    }
}

/// What the resolve system of a ruleset with a state resource starts from: the turn, the
/// commands sent for the awaited unit, and who decides for it.
#[derive(bevy::ecs::system::SystemParam)]
pub struct AwaitedDecision<'w, 's, A: Clone + Send + Sync + 'static> {
    /// Whose decision is awaited; the resolve system clears `awaiting` once it has applied
    /// the decision.
    pub turn: ResMut<'w, TurnState>,
    autopilot: Res<'w, Autopilot>,
    commands: bevy::ecs::message::MessageReader<'w, 's, Command<A>>,
    roster: Res<'w, Roster>,
    controllers: Query<'w, 's, &'static Controller>,
}

impl<A: Clone + Send + Sync + 'static> AwaitedDecision<'_, '_, A> {
    /// True when the AI decides for `unit` ([`ai_decides`]).
    pub fn by_ai(&self, unit: UnitId) -> bool {
        ai_decides(&self.roster, &self.controllers, self.autopilot.0, unit)
    }

    /// The awaited unit and its decision once `check` accepts it: commands for any other
    /// unit are refused ([`awaited_command`]), and a refused decision is dropped for a
    /// player, who chooses again, or replaced by `fallback(unit)` for the AI
    /// ([`accept_or_fallback`]); each refusal is logged in `events`. `None` when no
    /// decision goes ahead this step.
    pub fn take(
        &mut self,
        check: impl FnOnce(UnitId, &A) -> Result<(), String>,
        fallback: impl FnOnce(UnitId) -> A,
        events: &mut Vec<BattleEvent>,
    ) -> Option<(UnitId, A)> {
        let chosen = awaited_command(
            self.turn.awaiting,
            self.commands.read().cloned(),
            &self.roster,
            events,
        );
        let (Some(active), Some(action)) = (self.turn.awaiting, chosen) else {
            return None;
        };
        let ai = ai_decides(&self.roster, &self.controllers, self.autopilot.0, active);
        let check = check(active, &action);
        accept_or_fallback(action, check, active, ai, || fallback(active), events)
            .map(|action| (active, action))
    }
}

/// True when the AI decides for `unit`: its side is the AI's, or `autopilot` is on.
pub fn ai_decides(
    roster: &Roster,
    controllers: &Query<&Controller>,
    autopilot: bool,
    unit: UnitId,
) -> bool {
    roster
        .entity(unit)
        .and_then(|e| controllers.get(e).ok())
        .is_some_and(|c| autopilot || matches!(c.0, Control::Ai(_)))
}

/// The Decide system of a [`UnitsPolicy`] ruleset: the AI's decision for the awaited unit
/// when its side is the AI's (or under autopilot), from the shared state and the units'
/// components.
pub fn decide_with_units<P: UnitsPolicy>(
    turn: Res<TurnState>,
    autopilot: Res<Autopilot>,
    state: Res<P>,
    mut units: UnitComponents<P::Sheet, P::State>,
    controllers: Query<&Controller>,
    mut commands: MessageWriter<Command<P::Action>>,
) {
    let Some(active) = turn.awaiting else { return };
    if ai_decides(units.roster(), &controllers, autopilot.0, active) {
        let units = units.gather();
        commands.write(Command {
            unit: active,
            action: state.choose(&units, active),
        });
    }
}

/// Label of the schedule that advances a battle by one step.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BattleStep;

/// The ordered parts of a step. Rulesets add their systems to `Begin`, `Decide`,
/// `Resolve` and, when they need it, `Aftermath`; the battle layer owns `Judge` and
/// `Record`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BattleSet {
    /// Start the next turn or phase; start-of-turn rolls.
    Begin,
    /// AI decisions for units whose controller is the AI.
    Decide,
    /// Check and resolve the pending command.
    Resolve,
    /// Victory check.
    Judge,
    /// What a ruleset does once the outcome is known (after `Judge`, before the log).
    Aftermath,
    /// Log and statistics read the step's events; then the message buffers advance.
    Record,
}

/// A new battle-step schedule for a ruleset whose commands carry actions `A`, with the
/// battle layer's systems in place, single-threaded and in a fixed order, ready for the
/// ruleset to add its own ([`crate::scenario::Ruleset::configure`]).
pub fn new_schedule<A: Send + Sync + 'static>() -> Schedule {
    let mut schedule = Schedule::new(BattleStep);
    schedule.set_executor(SingleThreadedExecutor::new());
    schedule.configure_sets(
        (
            BattleSet::Begin,
            BattleSet::Decide,
            BattleSet::Resolve,
            BattleSet::Judge,
            BattleSet::Aftermath,
            BattleSet::Record,
        )
            .chain(),
    );
    // As few systems as the order allows: every system a step runs costs a few ns, and a
    // few more for each resource it reads, whatever it does (README, "What the engine
    // costs a step"), and a preview runs millions of steps.
    schedule.add_systems((
        judge.in_set(BattleSet::Judge),
        record::<A>.in_set(BattleSet::Record),
    ));
    schedule
}

/// Inserts the resources every battle needs (empty), so systems can run.
pub fn init_resources(world: &mut World) {
    world.init_resource::<Messages<BattleEvent>>();
    world.init_resource::<Sides>();
    world.init_resource::<Roster>();
    world.init_resource::<TurnState>();
    world.init_resource::<Outcome>();
    world.init_resource::<Activity>();
    world.init_resource::<VictoryRule>();
    world.init_resource::<Autopilot>();
    world.init_resource::<CombatLog>();
    world.init_resource::<BattleStats>();
}

/// Reads the step's events into [`Activity`], then decides the outcome once at most one
/// side has units fighting, or the round limit or the safety cap has passed. (One system
/// reads and writes the events: a `MessageReader` and a `MessageWriter` of the same
/// messages cannot share one.)
#[allow(clippy::too_many_arguments)] // a bevy system: each parameter is one world access
fn judge(
    mut outcome: ResMut<Outcome>,
    turn: Res<TurnState>,
    rule: Res<VictoryRule>,
    mut activity: ResMut<Activity>,
    sides: Res<Sides>,
    units: Query<(&Side, &Standing)>,
    mut events: ResMut<Messages<BattleEvent>>,
    mut seen: Local<MessageCursor<BattleEvent>>,
) {
    activity.note(seen.read(&events), turn.round, turn.round_over);
    if outcome.0.is_some() || turn.round == 0 {
        return;
    }
    // At most 16 sides (checked when a scenario is loaded).
    let mut counts = [0u32; 16];
    let fighting = &mut counts[..sides.0.len().min(16)];
    for (side, standing) in &units {
        if standing.fighting()
            && let Some(n) = fighting.get_mut(side.0 as usize)
        {
            *n += 1;
        }
    }
    let decided = decide_outcome(fighting, &turn, &rule, &activity);
    if let Some(kind) = decided {
        outcome.0 = Some(kind);
        events.write(BattleEvent::BattleEnded {
            outcome: kind,
            round: turn.round,
        });
    }
}

/// Records the step's events in the statistics and, when it is kept, the log; then
/// advances the buffers of events and of the ruleset's commands (`A`), so that a message
/// lives for this step and the next.
fn record<A: Send + Sync + 'static>(
    mut stats: ResMut<BattleStats>,
    mut log: ResMut<CombatLog>,
    turn: Res<TurnState>,
    mut events: ResMut<Messages<BattleEvent>>,
    mut seen: Local<MessageCursor<BattleEvent>>,
    mut commands: ResMut<Messages<Command<A>>>,
) {
    let keep = log.keep;
    for event in seen.read(&events) {
        stats.count(event);
        if keep {
            log.entries.push(LogEntry {
                round: turn.round,
                event: event.clone(),
            });
        }
    }
    events.update();
    commands.update();
}

/// The outcome rule as a plain function of units still fighting per side: one side left
/// wins; none left is a draw; at the end of the round limit the side with most units
/// fighting wins (a tie is a draw); after [`QUIET_ROUNDS`] quiet rounds it is a stalemate,
/// and past the safety cap a draw by the cap.
pub fn decide_outcome(
    fighting: &[u32],
    turn: &TurnState,
    rule: &VictoryRule,
    activity: &Activity,
) -> Option<OutcomeKind> {
    let mut sides_left = fighting.iter().enumerate().filter(|(_, n)| **n > 0);
    match (sides_left.next(), sides_left.next()) {
        (None, _) => {
            return Some(OutcomeKind::Draw {
                reason: DrawReason::AllDown,
            });
        }
        (Some((side, _)), None) => return Some(OutcomeKind::Victory { side: side as u8 }),
        _ => {}
    }
    if !turn.round_over {
        return None;
    }
    if let Some(limit) = rule.round_limit
        && turn.round >= limit
    {
        let best = fighting.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..fighting.len())
            .filter(|&i| fighting[i] == best)
            .collect();
        return Some(if leaders.len() == 1 {
            OutcomeKind::Victory {
                side: leaders[0] as u8,
            }
        } else {
            OutcomeKind::Draw {
                reason: DrawReason::RoundLimit,
            }
        });
    }
    if activity.stalemate() {
        return Some(OutcomeKind::Draw {
            reason: DrawReason::Stalemate,
        });
    }
    (turn.round >= rule.max_rounds).then_some(OutcomeKind::Draw {
        reason: DrawReason::RoundCap,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A world with two units, Ann (a person) and Bot (the AI), in which `awaiting`'s
    /// decision is awaited and `sent` are this step's commands (unit, number).
    fn decision_world(awaiting: u32, autopilot: bool, sent: &[(u32, i32)]) -> World {
        let mut world = World::new();
        let ann = world.spawn(Controller(Control::Player)).id();
        let bot = world
            .spawn(Controller(Control::Ai(AiStyle::default())))
            .id();
        let entry = |name: &str, side, entity| RosterEntry {
            name: name.into(),
            side,
            entity,
        };
        world.insert_resource(Roster {
            units: vec![entry("Ann", 0, ann), entry("Bot", 1, bot)],
        });
        world.insert_resource(TurnState {
            awaiting: Some(UnitId(awaiting)),
            ..Default::default()
        });
        world.insert_resource(Autopilot(autopilot));
        world.init_resource::<Messages<Command<i32>>>();
        for &(unit, action) in sent {
            world.write_message(Command {
                unit: UnitId(unit),
                action,
            });
        }
        world
    }

    /// [`AwaitedDecision::take`] with a check that accepts even numbers only and a
    /// fallback of 0.
    fn take_even(world: &mut World) -> (Option<(UnitId, i32)>, Vec<BattleEvent>) {
        use bevy::ecs::system::RunSystemOnce;
        world
            .run_system_once(|mut decision: AwaitedDecision<i32>| {
                let mut events = Vec::new();
                let taken = decision.take(
                    |_, n| {
                        if n % 2 == 0 {
                            Ok(())
                        } else {
                            Err(format!("{n} is odd"))
                        }
                    },
                    |_| 0,
                    &mut events,
                );
                (taken, events)
            })
            .expect("the system runs")
    }

    fn rejected(unit: u32, reason: &str) -> BattleEvent {
        BattleEvent::Rejected {
            unit: UnitId(unit),
            reason: reason.into(),
        }
    }

    #[test]
    fn the_awaited_units_accepted_decision_goes_ahead_and_others_are_refused() {
        let mut world = decision_world(0, false, &[(1, 2), (0, 4), (0, 6)]);
        let (taken, events) = take_even(&mut world);
        // The first of the awaited unit's commands counts; Bot's is refused.
        assert_eq!(taken, Some((UnitId(0), 4)));
        assert_eq!(events, vec![rejected(1, "it is Ann's turn")]);
    }

    #[test]
    fn a_persons_refused_decision_is_dropped_so_they_choose_again() {
        let mut world = decision_world(0, false, &[(0, 3)]);
        assert_eq!(take_even(&mut world), (None, vec![rejected(0, "3 is odd")]));
    }

    #[test]
    fn the_ais_refused_decision_is_replaced_by_the_fallback() {
        let mut world = decision_world(1, false, &[(1, 3)]);
        let expected = (Some((UnitId(1), 0)), vec![rejected(1, "3 is odd")]);
        assert_eq!(take_even(&mut world), expected);
        // Under autopilot the AI decides for the person too.
        let mut world = decision_world(0, true, &[(0, 3)]);
        let expected = (Some((UnitId(0), 0)), vec![rejected(0, "3 is odd")]);
        assert_eq!(take_even(&mut world), expected);
    }

    #[test]
    fn without_a_command_or_an_awaited_unit_nothing_goes_ahead() {
        let mut world = decision_world(0, false, &[]);
        assert_eq!(take_even(&mut world), (None, Vec::new()));
        let mut world = decision_world(0, false, &[(1, 2)]);
        world.resource_mut::<TurnState>().awaiting = None;
        let expected = (None, vec![rejected(1, "no turn is in progress")]);
        assert_eq!(take_even(&mut world), expected);
    }

    /// A battle in which things happen.
    const BUSY: Activity = Activity {
        active: true,
        quiet_rounds: 0,
        counted: 0,
    };

    fn turn(round: u32, round_over: bool) -> TurnState {
        TurnState {
            round,
            round_over,
            ..Default::default()
        }
    }

    #[test]
    fn last_side_standing_wins() {
        let rule = VictoryRule::default();
        assert_eq!(
            decide_outcome(&[0, 2], &turn(3, false), &rule, &BUSY),
            Some(OutcomeKind::Victory { side: 1 })
        );
        assert_eq!(decide_outcome(&[1, 2], &turn(3, true), &rule, &BUSY), None);
        assert_eq!(
            decide_outcome(&[0, 0], &turn(3, false), &rule, &BUSY),
            Some(OutcomeKind::Draw {
                reason: DrawReason::AllDown
            })
        );
    }

    #[test]
    fn round_limit_goes_to_the_side_with_most_standing() {
        let rule = VictoryRule {
            round_limit: Some(5),
            ..Default::default()
        };
        assert_eq!(decide_outcome(&[1, 2], &turn(5, false), &rule, &BUSY), None);
        assert_eq!(decide_outcome(&[1, 2], &turn(4, true), &rule, &BUSY), None);
        assert_eq!(
            decide_outcome(&[1, 2], &turn(5, true), &rule, &BUSY),
            Some(OutcomeKind::Victory { side: 1 })
        );
        assert_eq!(
            decide_outcome(&[2, 2], &turn(5, true), &rule, &BUSY),
            Some(OutcomeKind::Draw {
                reason: DrawReason::RoundLimit
            })
        );
    }

    #[test]
    fn the_safety_cap_and_quiet_rounds_end_a_battle_as_draws_by_their_reasons() {
        let rule = VictoryRule {
            round_limit: None,
            max_rounds: 10,
        };
        let quiet = Activity::default();
        assert_eq!(decide_outcome(&[1, 1], &turn(9, true), &rule, &quiet), None);
        assert_eq!(
            decide_outcome(&[1, 1], &turn(10, true), &rule, &quiet),
            Some(OutcomeKind::Draw {
                reason: DrawReason::RoundCap
            })
        );
        let stale = Activity {
            quiet_rounds: QUIET_ROUNDS,
            ..Activity::default()
        };
        assert_eq!(
            decide_outcome(&[1, 1], &turn(5, true), &rule, &stale),
            Some(OutcomeKind::Draw {
                reason: DrawReason::Stalemate
            })
        );
        // one side standing wins, however quiet the battle was
        assert_eq!(
            decide_outcome(&[0, 1], &turn(5, true), &rule, &stale),
            Some(OutcomeKind::Victory { side: 1 })
        );
    }
}

//! The ruleset contract: everything the shared engine needs from a ruleset, in one trait,
//! and the [`Registry`] that lists the rulesets a program knows.
//!
//! A ruleset implements [`Ruleset`] with its own types (its scenario settings, its stat
//! block as written and as resolved, its action). The shell — scenario loading, sessions,
//! saves, replays, previews, the command line — never names a ruleset: it holds each one
//! as a `&'static dyn` [`ErasedRuleset`], which the blanket wrapper [`Entry`] makes of any
//! [`Ruleset`], and the ruleset's values as [`Section`]s (type-erased values that can be
//! compared, printed and written back to RON). Scenario and save files name the ruleset by
//! its tag (`Gurps(...)`): the registry that reads a file ([`Registry::read_ron`]) hands the
//! section's text to the ruleset of that tag, which reads it with its own types.
//!
//! Registering a ruleset is one line: `Registry::new().with::<MyRules>()`
//! (the shipped ones are listed in `src/rules/mod.rs`; `docs/adding-a-ruleset.md` walks
//! through a new one).

use super::{Prepared, ScenarioFile};
use crate::battle::{Command, Facing, GmField, HexPos, Standing, UnitId};
use crate::format::Problem;
use bevy::ecs::entity::Entity;
use bevy::ecs::message::{MessageCursor, Messages};
use bevy::ecs::schedule::Schedule;
use bevy::ecs::world::{EntityWorldMut, World};
use hexx::{EdgeDirection, Hex};
use ron::error::SpannedError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::any::Any;
use std::cell::RefCell;
use std::fmt::{self, Debug};
use std::marker::PhantomData;
use std::sync::Arc;

/// A value that belongs to one ruleset inside the shared scenario and save structures (its
/// settings, a stat block, an action), held without the shell knowing its type: it can be
/// compared, printed, written as RON and downcast by the ruleset that made it.
pub trait Section: erased_serde::Serialize + Any + Debug + Send + Sync {
    /// The value itself, to downcast to the ruleset's type.
    fn as_any(&self) -> &dyn Any;
    /// True when `other` is a value of the same type and equal to this one.
    fn same_as(&self, other: &dyn Section) -> bool;
}

impl<T> Section for T
where
    T: Serialize + Any + Debug + PartialEq + Send + Sync,
{
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same_as(&self, other: &dyn Section) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

erased_serde::serialize_trait_object!(Section);

/// A unit's stat block as its ruleset resolved it (the ruleset's `Sheet` type).
pub type UnitSheet = Arc<dyn Any + Send + Sync>;

/// What a ruleset gives the engine, with its own types. Every method is a plain function of
/// the ruleset (no `self`): a ruleset is a type, registered with [`Registry::with`].
///
/// The order of a battle: the scenario's section is read as `Config` and checked
/// ([`Ruleset::check`]), each stat block as `Stats` and resolved to a `Sheet`
/// ([`Ruleset::resolve`]); a session adds the ruleset's systems to its schedule
/// ([`Ruleset::configure`]), inserts its resources once ([`Ruleset::init`]) and at every
/// new battle ([`Ruleset::reset`]), and gives each unit's entity its components
/// ([`Ruleset::spawn`]). Decisions reach the systems as `Command<Self::Action>` messages.
pub trait Ruleset: Send + Sync + Sized + 'static {
    /// The ruleset's id in documentation and output (`gurps`, `starship-d12`).
    const ID: &'static str;
    /// The tag that names it in scenario and save files (`Gurps`, `StarshipD12`).
    const TAG: &'static str;
    /// A minimal scenario of this ruleset (two units, one a side, fought to a victory):
    /// what the editor's New starts from, shown in docs/scenario-format.md.
    const NEW_SCENARIO: &'static str;
    /// What one step of [`Ruleset::stronger`] is, in words for the analysis tools' output
    /// ("1 point of every crewman's gunnery"); empty (the default) for a
    /// ruleset that turns nothing.
    const STRONGER_STEP: &'static str = "";
    /// What one step of [`Ruleset::tougher`] is, in words; empty (the default) for a
    /// ruleset without hit points to turn.
    const TOUGHER_STEP: &'static str = "";
    /// Whether the map's terrain counts in its battles (movement, sight, cover); false for
    /// a ruleset whose map only pictures range, where the editor offers no terrain to paint.
    const USES_TERRAIN: bool = true;
    /// The scenario's settings for this ruleset (`ruleset: Tag(...)`).
    type Config: Serialize + DeserializeOwned + Default + Clone + Debug + PartialEq + Send + Sync;
    /// A unit's stat block as written (`stats: Tag(...)`).
    type Stats: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    /// A unit's stat block once checked and resolved.
    type Sheet: Debug + Send + Sync;
    /// One decision of a unit: what the player, the AI and a save file give.
    type Action: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;

    /// The size of a hex and its length unit when the map does not say (`(1.0, "yd")`).
    fn scale(config: &Self::Config) -> (f32, &'static str);

    /// What is wrong with the settings (paths from the file's root), given the whole file.
    fn check(config: &Self::Config, file: &ScenarioFile) -> Vec<Problem> {
        let _ = (config, file);
        Vec::new()
    }

    /// Each stat block resolved, or what is wrong with it (paths from the stat block), in
    /// the order given. All of a scenario's blocks come in one call, so that what they
    /// share (an equipment catalog) is built once.
    fn resolve(
        config: &Self::Config,
        file: &ScenarioFile,
        stats: &[&Self::Stats],
    ) -> Vec<Result<Self::Sheet, Vec<Problem>>>;

    /// Adds the ruleset's systems to a battle-step schedule, in their sets
    /// ([`crate::battle::BattleSet`]); the battle layer's own (victory, log, statistics,
    /// and advancing the buffers of events and commands) are there already.
    fn configure(schedule: &mut Schedule);

    /// Inserts the resources that last as long as the session (settings the systems
    /// read), once, before the first [`Ruleset::reset`].
    fn init(world: &mut World, prepared: &Prepared, config: &Self::Config) {
        let _ = (world, prepared, config);
    }

    /// Inserts the ruleset's state for a new battle of `prepared` (called for the first
    /// battle and for every reset, once the unit entities are spawned and the
    /// [`Roster`](crate::battle::Roster) names their entities).
    fn reset(world: &mut World, prepared: &Prepared, config: &Self::Config);

    /// Adds the ruleset's components to a unit's new entity (which already has its
    /// `UnitId`, `Side`, `HexPos`, `Facing`, `Standing` and `Controller`).
    fn spawn(entity: &mut EntityWorldMut, sheet: &Arc<Self::Sheet>);

    /// The unit's state after its standing, for `run`'s summary (", 7/12 HP").
    fn unit_line(world: &World, entity: Entity, unit: UnitId) -> String;

    /// The unit's sheet as `run --json` shows it (its `sheets` list: the numbers the rules
    /// play with, so an imported character can be checked), or null for a ruleset that
    /// shows none.
    fn sheet_json(_world: &World, _entity: Entity) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// How much of its fight the unit has left, from 1 (unhurt) to 0, for the health bar on
    /// the map: hit points, structure or condition, as the ruleset counts damage. (A unit
    /// out of the fight, by its `Standing`, shows 0 whatever this says.)
    fn health(world: &World, entity: Entity, unit: UnitId) -> f32;

    /// The decisions the rules allow `unit` now, the battle awaiting it, each one the
    /// systems accept. Where a decision takes free parameters (a hex to move to, a number
    /// of missiles) the list is a sample that covers every kind of decision rather than
    /// every value (each ruleset says which); the conformance tests play whole battles from
    /// it. Empty only when the battle awaits no decision of `unit`.
    fn legal_actions(world: &World, unit: UnitId) -> Vec<Self::Action> {
        let _ = (world, unit);
        Vec::new()
    }

    /// The chance, from 0 to 1, that the first attack roll `action` makes succeeds (the
    /// roll of the [`BattleEvent::Attack`](crate::battle::BattleEvent::Attack) it logs),
    /// `unit` deciding it now: the number the action panel shows before the action is
    /// confirmed, from the rules function that resolves it. `None` when the action makes
    /// no attack roll of its own now, or is not legal.
    fn attack_odds(world: &World, unit: UnitId, action: &Self::Action) -> Option<f64> {
        let _ = (world, unit, action);
        None
    }

    /// What `action` does for the fight ([`Engagement`]): whether it attacks, moves, takes
    /// part otherwise (readies, defends, recovers), passes (ends the turn or phase having
    /// done nothing, waits), or answers a question the battle asked. The engine's tests read
    /// it to find sides that idle while they could fight; a ruleset that does not say
    /// counts every decision as taking part.
    fn engagement(action: &Self::Action) -> Engagement {
        let _ = action;
        Engagement::Acts
    }

    /// The stat block with its main attack number `steps` steps higher (lower when
    /// negative), for the analysis tools (`preview --sensitivity`, `balance --vary skill`);
    /// each ruleset says what a step is (GURPS: +2 to every skill written out). `None` when
    /// the block has nothing to turn (the default).
    fn stronger(stats: &Self::Stats, steps: i32) -> Option<Self::Stats> {
        let _ = (stats, steps);
        None
    }

    /// The stat block with its hit points `steps` steps higher (lower when negative), for
    /// `balance --vary hp`; each ruleset that has hit points says what a step is. `None`
    /// when the block has none to turn (the default).
    fn tougher(stats: &Self::Stats, steps: i32) -> Option<Self::Stats> {
        let _ = (stats, steps);
        None
    }

    /// The stat block with what `turning` turns and it draws from other files written into
    /// it, the files still named (a GURPS character's skills and weapons, or its hit
    /// points, from its GCS file), so that [`Ruleset::stronger`] or [`Ruleset::tougher`]
    /// has them to turn; `dir` is the scenario's folder. `None` when it draws nothing from
    /// files (the default), or a file cannot be read (the scenario then does not load
    /// either).
    fn drawn_in(
        stats: &Self::Stats,
        dir: Option<&std::path::Path>,
        turning: Turning,
    ) -> Option<Self::Stats> {
        let _ = (stats, dir, turning);
        None
    }

    /// Whether units drawn from one template of this block act together in this ruleset
    /// (Vergeworlds mooks of one template share their Action Point roll), so that a unit
    /// given a stat block of its own leaves its group: the analysis tools then measure a
    /// unit's step against it out of its group. False (the default): a template is only a
    /// way of writing a stat block once.
    fn grouped_by_template(stats: &Self::Stats) -> bool {
        let _ = stats;
        false
    }

    /// The settings with every mention of the unit named `name` dropped (a starting range
    /// or bonus naming it, a chase it is in), for a scenario with that unit taken out
    /// (`preview --sensitivity`); `None` when they mention no unit by name (the default),
    /// or not this one.
    fn without_unit(config: &Self::Config, name: &str) -> Option<Self::Config> {
        let _ = (config, name);
        None
    }

    /// What the unit of this stat block is, in words, when it is a fixed place of the
    /// battle rather than one of a side's forces (a SOCS planet or station): `balance
    /// --vary count` copies the side's other units and leaves it alone. `None` (the
    /// default) for a unit that can be copied.
    fn fixture(stats: &Self::Stats) -> Option<&'static str> {
        let _ = stats;
        None
    }

    /// The stat block with the starting movement vector that carries a unit at `from`
    /// towards `to` in its first turn (the editor's Vector tool: click where it heads);
    /// `None` for a ruleset without starting vectors (the default).
    fn heading(stats: &Self::Stats, from: Hex, to: Hex) -> Option<Self::Stats> {
        let _ = (stats, from, to);
        None
    }

    /// What the game master may change on the unit of `entity` now: its numbers,
    /// conditions and states (hit points or damage state, fatigue, stunned, prone, a
    /// vector's components), each with its value and bounds. Empty (the default) when the
    /// ruleset lets the GM change none. Moving, removing and adding units are
    /// [`Ruleset::gm_place`], [`Ruleset::gm_remove`] and [`Ruleset::gm_join`].
    fn gm_fields(world: &World, entity: Entity) -> Vec<GmField> {
        let _ = (world, entity);
        Vec::new()
    }

    /// Sets field `key`, one of [`Ruleset::gm_fields`], of the unit of `entity` to `value`
    /// (the engine has checked it against the field's bounds), with what follows from it
    /// under the rules (a unit set to a state that puts it out of the fight leaves it);
    /// `Err` with the reason when the rules refuse it now.
    fn gm_set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
        let _ = (world, entity, value);
        Err(format!("the {} ruleset has no field `{key}`", Self::ID))
    }

    /// Puts the unit of `entity` on hex `at`, facing `facing` (the engine has checked that
    /// the hex is on the map, open and free). The default sets its `HexPos` and `Facing`;
    /// a ruleset that keeps a position of its own sets that too, or refuses.
    fn gm_place(
        world: &mut World,
        entity: Entity,
        at: Hex,
        facing: EdgeDirection,
    ) -> Result<(), String> {
        let mut unit = world.entity_mut(entity);
        if let Some(mut pos) = unit.get_mut::<HexPos>() {
            pos.0 = at;
        }
        if let Some(mut f) = unit.get_mut::<Facing>() {
            f.0 = facing;
        }
        Ok(())
    }

    /// Takes the unit of `entity` out of the fight (it leaves the battle). The default
    /// sets its `Standing` to `Escaped`; a ruleset whose own state says who fights sets
    /// that too.
    fn gm_remove(world: &mut World, entity: Entity) -> Result<(), String> {
        if let Some(mut standing) = world.get_mut::<Standing>(entity) {
            *standing = Standing::Escaped;
        }
        Ok(())
    }

    /// A unit the GM brought in joins the battle: `entity` has every component a unit of
    /// the scenario starts with, and the roster lists it as `unit`. The ruleset gives it
    /// its place in the turn order and whatever else it keeps for every unit, or refuses
    /// (the engine then takes the entity away). The default accepts it as it is.
    fn gm_join(world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
        let _ = (world, entity, unit);
        Ok(())
    }
}

/// What the analysis tools turn in a stat block ([`Ruleset::drawn_in`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turning {
    /// The main attack ([`Ruleset::stronger`]).
    Attack,
    /// The hit points ([`Ruleset::tougher`]).
    HitPoints,
}

impl Turning {
    /// What one step of it is in `ruleset` ([`Ruleset::STRONGER_STEP`],
    /// [`Ruleset::TOUGHER_STEP`]); empty when the ruleset turns none.
    pub fn step(self, ruleset: &dyn ErasedRuleset) -> &'static str {
        match self {
            Turning::Attack => ruleset.stronger_step(),
            Turning::HitPoints => ruleset.tougher_step(),
        }
    }

    /// What it turns, in words ("main attack", "hit points").
    pub fn words(self) -> &'static str {
        match self {
            Turning::Attack => "main attack",
            Turning::HitPoints => "hit points",
        }
    }
}

/// What a decision does for the fight ([`Ruleset::engagement`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engagement {
    /// It makes an attack (fires, strikes, launches).
    Attacks,
    /// It moves the unit (a step, a maneuver, a change of range band).
    Moves,
    /// It takes part otherwise: readies a weapon, defends, aims, recovers.
    Acts,
    /// It passes: ends the turn or phase having done nothing, or waits.
    Passes,
    /// It answers a question the battle asked (a defense, a re-roll): not a turn's choice.
    Answers,
}

impl Engagement {
    /// True for a decision that takes part in the fight (attacks, moves or acts).
    pub fn takes_part(self) -> bool {
        matches!(
            self,
            Engagement::Attacks | Engagement::Moves | Engagement::Acts
        )
    }
}

/// A [`Ruleset`] seen by the shell: the same contract with its types erased.
pub trait ErasedRuleset: Send + Sync + 'static {
    /// [`Ruleset::ID`].
    fn id(&self) -> &'static str;
    /// [`Ruleset::STRONGER_STEP`].
    fn stronger_step(&self) -> &'static str;
    /// [`Ruleset::TOUGHER_STEP`].
    fn tougher_step(&self) -> &'static str;
    /// [`Ruleset::USES_TERRAIN`].
    fn uses_terrain(&self) -> bool;
    /// [`Ruleset::TAG`].
    fn tag(&self) -> &'static str;
    /// [`Ruleset::NEW_SCENARIO`].
    fn new_scenario(&self) -> &'static str;
    /// Reads the ruleset's settings from their RON text, tag included (`Gurps(...)`), as
    /// the variant of enum `name` (errors are located in `ron`).
    fn parse_config(&self, ron: &str, name: &'static str)
    -> Result<Arc<dyn Section>, SpannedError>;
    /// Reads a stat block from its RON text, tag included.
    fn parse_stats(&self, ron: &str, name: &'static str) -> Result<Arc<dyn Section>, SpannedError>;
    /// Reads a decision from its RON text, tag included (`Gurps(unit: ..., action: ...)`).
    fn parse_command(
        &self,
        ron: &str,
        name: &'static str,
    ) -> Result<(UnitId, Arc<dyn Section>), SpannedError>;
    /// [`Ruleset::scale`].
    fn scale(&self, config: &dyn Section) -> (f32, &'static str);
    /// [`Ruleset::check`].
    fn check(&self, config: &dyn Section, file: &ScenarioFile) -> Vec<Problem>;
    /// [`Ruleset::resolve`]; a block of another ruleset is refused.
    fn resolve(
        &self,
        config: &dyn Section,
        file: &ScenarioFile,
        stats: &[&dyn Section],
    ) -> Vec<Result<UnitSheet, Vec<Problem>>>;
    /// The battle-step schedule: the battle layer's systems for this ruleset's commands
    /// ([`crate::battle::new_schedule`]) and the ruleset's own ([`Ruleset::configure`]).
    fn schedule(&self) -> Schedule;
    /// [`Ruleset::init`], with the queue of the ruleset's commands.
    fn init(&self, world: &mut World, prepared: &Prepared);
    /// [`Ruleset::reset`], and any command still queued is dropped.
    fn reset(&self, world: &mut World, prepared: &Prepared);
    /// [`Ruleset::spawn`].
    fn spawn(&self, entity: &mut EntityWorldMut, sheet: &UnitSheet);
    /// [`Ruleset::unit_line`].
    fn unit_line(&self, world: &World, entity: Entity, unit: UnitId) -> String;
    /// [`Ruleset::sheet_json`].
    fn sheet_json(&self, world: &World, entity: Entity) -> serde_json::Value;
    /// [`Ruleset::health`], kept within 0 to 1, and 0 for a unit out of the fight.
    fn health(&self, world: &World, entity: Entity, unit: UnitId) -> f32;
    /// [`Ruleset::legal_actions`], each as a section to [`ErasedRuleset::send`].
    fn legal_actions(&self, world: &World, unit: UnitId) -> Vec<Arc<dyn Section>>;
    /// [`Ruleset::attack_odds`]; `None` for an action of another ruleset.
    fn attack_odds(&self, world: &World, unit: UnitId, action: &dyn Section) -> Option<f64>;
    /// [`Ruleset::engagement`]; `None` for an action of another ruleset.
    fn engagement(&self, action: &dyn Section) -> Option<Engagement>;
    /// [`Ruleset::stronger`]; `None` for a stat block of another ruleset.
    fn stronger(&self, stats: &dyn Section, steps: i32) -> Option<Arc<dyn Section>>;
    /// [`Ruleset::tougher`]; `None` for a stat block of another ruleset.
    fn tougher(&self, stats: &dyn Section, steps: i32) -> Option<Arc<dyn Section>>;
    /// [`Ruleset::heading`]; `None` for a stat block of another ruleset.
    fn heading(&self, stats: &dyn Section, from: Hex, to: Hex) -> Option<Arc<dyn Section>>;
    /// [`Ruleset::fixture`]; `None` for a stat block of another ruleset.
    fn fixture(&self, stats: &dyn Section) -> Option<&'static str>;
    /// [`Ruleset::drawn_in`]; `None` for a stat block of another ruleset.
    fn drawn_in(
        &self,
        stats: &dyn Section,
        dir: Option<&std::path::Path>,
        turning: Turning,
    ) -> Option<Arc<dyn Section>>;
    /// [`Ruleset::grouped_by_template`]; false for a stat block of another ruleset.
    fn grouped_by_template(&self, stats: &dyn Section) -> bool;
    /// [`Ruleset::without_unit`]; `None` for settings of another ruleset.
    fn without_unit(&self, config: &dyn Section, name: &str) -> Option<Arc<dyn Section>>;
    /// [`Ruleset::gm_fields`].
    fn gm_fields(&self, world: &World, entity: Entity) -> Vec<GmField>;
    /// [`Ruleset::gm_set`].
    fn gm_set(
        &self,
        world: &mut World,
        entity: Entity,
        key: &str,
        value: i32,
    ) -> Result<(), String>;
    /// [`Ruleset::gm_place`].
    fn gm_place(
        &self,
        world: &mut World,
        entity: Entity,
        at: Hex,
        facing: EdgeDirection,
    ) -> Result<(), String>;
    /// [`Ruleset::gm_remove`].
    fn gm_remove(&self, world: &mut World, entity: Entity) -> Result<(), String>;
    /// [`Ruleset::gm_join`].
    fn gm_join(&self, world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String>;
    /// Sends `unit`'s decision to the battle's systems (as a `Command` message); an error
    /// when the action is not this ruleset's.
    fn send(&self, world: &mut World, unit: UnitId, action: &dyn Section) -> Result<(), String>;
    /// A mark of the commands sent so far, for [`ErasedRuleset::command_since`].
    fn command_cursor(&self, world: &World) -> Box<dyn Any>;
    /// The first command for `unit` sent since `cursor` was taken.
    fn command_since(
        &self,
        world: &World,
        cursor: Box<dyn Any>,
        unit: UnitId,
    ) -> Option<Arc<dyn Section>>;
}

impl Debug for dyn ErasedRuleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.id())
    }
}

/// The erased form of ruleset `R` ([`Entry::ERASED`] is the one the registry holds).
pub struct Entry<R>(PhantomData<fn() -> R>);

impl<R: Ruleset> Entry<R> {
    /// `R` as the shell holds it.
    pub const ERASED: &'static dyn ErasedRuleset = &Entry::<R>(PhantomData);
}

/// `R`'s settings in `config`, or its defaults when `config` is another ruleset's (which a
/// registry never hands over).
fn config_of<R: Ruleset>(config: &dyn Section) -> std::borrow::Cow<'_, R::Config> {
    match config.as_any().downcast_ref::<R::Config>() {
        Some(c) => std::borrow::Cow::Borrowed(c),
        None => std::borrow::Cow::Owned(R::Config::default()),
    }
}

/// The commands of ruleset `R` sent to a battle world.
type CommandQueue<R> = Messages<Command<<R as Ruleset>::Action>>;

impl<R: Ruleset> ErasedRuleset for Entry<R> {
    fn id(&self) -> &'static str {
        R::ID
    }

    fn stronger_step(&self) -> &'static str {
        R::STRONGER_STEP
    }

    fn tougher_step(&self) -> &'static str {
        R::TOUGHER_STEP
    }

    fn uses_terrain(&self) -> bool {
        R::USES_TERRAIN
    }

    fn tag(&self) -> &'static str {
        R::TAG
    }

    fn new_scenario(&self) -> &'static str {
        R::NEW_SCENARIO
    }

    fn parse_config(
        &self,
        ron: &str,
        name: &'static str,
    ) -> Result<Arc<dyn Section>, SpannedError> {
        read_variant::<R::Config>(ron, name, R::TAG).map(|c| Arc::new(c) as Arc<dyn Section>)
    }

    fn parse_stats(&self, ron: &str, name: &'static str) -> Result<Arc<dyn Section>, SpannedError> {
        read_variant::<R::Stats>(ron, name, R::TAG).map(|s| Arc::new(s) as Arc<dyn Section>)
    }

    fn parse_command(
        &self,
        ron: &str,
        name: &'static str,
    ) -> Result<(UnitId, Arc<dyn Section>), SpannedError> {
        read_variant::<Command<R::Action>>(ron, name, R::TAG)
            .map(|c| (c.unit, Arc::new(c.action) as Arc<dyn Section>))
    }

    fn scale(&self, config: &dyn Section) -> (f32, &'static str) {
        R::scale(&config_of::<R>(config))
    }

    fn check(&self, config: &dyn Section, file: &ScenarioFile) -> Vec<Problem> {
        R::check(&config_of::<R>(config), file)
    }

    fn resolve(
        &self,
        config: &dyn Section,
        file: &ScenarioFile,
        stats: &[&dyn Section],
    ) -> Vec<Result<UnitSheet, Vec<Problem>>> {
        let typed: Vec<Option<&R::Stats>> = stats
            .iter()
            .map(|s| s.as_any().downcast_ref::<R::Stats>())
            .collect();
        let ours: Vec<&R::Stats> = typed.iter().flatten().copied().collect();
        let mut resolved = R::resolve(&config_of::<R>(config), file, &ours).into_iter();
        typed
            .iter()
            .map(|t| match t {
                Some(_) => resolved
                    .next()
                    .unwrap_or_else(|| {
                        Err(vec![Problem::new(
                            crate::format::Path::root(),
                            format!("the {} ruleset did not resolve this stat block", R::ID),
                        )])
                    })
                    .map(|sheet| Arc::new(sheet) as UnitSheet),
                None => Err(vec![Problem::new(
                    crate::format::Path::root(),
                    format!("a stat block of another ruleset: expected {}(...)", R::TAG),
                )]),
            })
            .collect()
    }

    fn schedule(&self) -> Schedule {
        let mut schedule = crate::battle::new_schedule::<R::Action>();
        R::configure(&mut schedule);
        schedule
    }

    fn init(&self, world: &mut World, prepared: &Prepared) {
        world.init_resource::<CommandQueue<R>>();
        R::init(world, prepared, &config_of::<R>(&*prepared.config));
    }

    fn reset(&self, world: &mut World, prepared: &Prepared) {
        R::reset(world, prepared, &config_of::<R>(&*prepared.config));
        if let Some(mut queue) = world.get_resource_mut::<CommandQueue<R>>() {
            queue.clear();
        }
    }

    fn spawn(&self, entity: &mut EntityWorldMut, sheet: &UnitSheet) {
        if let Ok(sheet) = Arc::clone(sheet).downcast::<R::Sheet>() {
            R::spawn(entity, &sheet);
        }
    }

    fn unit_line(&self, world: &World, entity: Entity, unit: UnitId) -> String {
        R::unit_line(world, entity, unit)
    }

    fn sheet_json(&self, world: &World, entity: Entity) -> serde_json::Value {
        R::sheet_json(world, entity)
    }

    fn health(&self, world: &World, entity: Entity, unit: UnitId) -> f32 {
        if world
            .get::<crate::battle::Standing>(entity)
            .is_some_and(|s| !s.fighting())
        {
            return 0.0;
        }
        let h = R::health(world, entity, unit);
        if h.is_nan() { 1.0 } else { h.clamp(0.0, 1.0) }
    }

    fn legal_actions(&self, world: &World, unit: UnitId) -> Vec<Arc<dyn Section>> {
        R::legal_actions(world, unit)
            .into_iter()
            .map(|a| Arc::new(a) as Arc<dyn Section>)
            .collect()
    }

    fn attack_odds(&self, world: &World, unit: UnitId, action: &dyn Section) -> Option<f64> {
        let action = action.as_any().downcast_ref::<R::Action>()?;
        R::attack_odds(world, unit, action)
    }

    fn engagement(&self, action: &dyn Section) -> Option<Engagement> {
        action
            .as_any()
            .downcast_ref::<R::Action>()
            .map(R::engagement)
    }

    fn stronger(&self, stats: &dyn Section, steps: i32) -> Option<Arc<dyn Section>> {
        let stats = stats.as_any().downcast_ref::<R::Stats>()?;
        R::stronger(stats, steps).map(|s| Arc::new(s) as Arc<dyn Section>)
    }

    fn tougher(&self, stats: &dyn Section, steps: i32) -> Option<Arc<dyn Section>> {
        let stats = stats.as_any().downcast_ref::<R::Stats>()?;
        R::tougher(stats, steps).map(|s| Arc::new(s) as Arc<dyn Section>)
    }

    fn heading(&self, stats: &dyn Section, from: Hex, to: Hex) -> Option<Arc<dyn Section>> {
        let stats = stats.as_any().downcast_ref::<R::Stats>()?;
        R::heading(stats, from, to).map(|s| Arc::new(s) as Arc<dyn Section>)
    }

    fn fixture(&self, stats: &dyn Section) -> Option<&'static str> {
        R::fixture(stats.as_any().downcast_ref::<R::Stats>()?)
    }

    fn drawn_in(
        &self,
        stats: &dyn Section,
        dir: Option<&std::path::Path>,
        turning: Turning,
    ) -> Option<Arc<dyn Section>> {
        let stats = stats.as_any().downcast_ref::<R::Stats>()?;
        R::drawn_in(stats, dir, turning).map(|s| Arc::new(s) as Arc<dyn Section>)
    }

    fn grouped_by_template(&self, stats: &dyn Section) -> bool {
        stats
            .as_any()
            .downcast_ref::<R::Stats>()
            .is_some_and(R::grouped_by_template)
    }

    fn without_unit(&self, config: &dyn Section, name: &str) -> Option<Arc<dyn Section>> {
        let config = config.as_any().downcast_ref::<R::Config>()?;
        R::without_unit(config, name).map(|c| Arc::new(c) as Arc<dyn Section>)
    }

    fn gm_fields(&self, world: &World, entity: Entity) -> Vec<GmField> {
        R::gm_fields(world, entity)
    }

    fn gm_set(
        &self,
        world: &mut World,
        entity: Entity,
        key: &str,
        value: i32,
    ) -> Result<(), String> {
        R::gm_set(world, entity, key, value)
    }

    fn gm_place(
        &self,
        world: &mut World,
        entity: Entity,
        at: Hex,
        facing: EdgeDirection,
    ) -> Result<(), String> {
        R::gm_place(world, entity, at, facing)
    }

    fn gm_remove(&self, world: &mut World, entity: Entity) -> Result<(), String> {
        R::gm_remove(world, entity)
    }

    fn gm_join(&self, world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
        R::gm_join(world, entity, unit)
    }

    fn send(&self, world: &mut World, unit: UnitId, action: &dyn Section) -> Result<(), String> {
        let Some(action) = action.as_any().downcast_ref::<R::Action>() else {
            return Err(format!(
                "the decision is for another ruleset than the scenario's ({})",
                R::ID
            ));
        };
        world.write_message(Command {
            unit,
            action: action.clone(),
        });
        Ok(())
    }

    fn command_cursor(&self, world: &World) -> Box<dyn Any> {
        let cursor: MessageCursor<Command<R::Action>> = world
            .get_resource::<CommandQueue<R>>()
            .map(|queue| queue.get_cursor_current())
            .unwrap_or_default();
        Box::new(cursor)
    }

    fn command_since(
        &self,
        world: &World,
        cursor: Box<dyn Any>,
        unit: UnitId,
    ) -> Option<Arc<dyn Section>> {
        let mut cursor = *cursor
            .downcast::<MessageCursor<Command<R::Action>>>()
            .ok()?;
        let queue = world.get_resource::<CommandQueue<R>>()?;
        cursor
            .read(queue)
            .find(|c| c.unit == unit)
            .map(|c| Arc::new(c.action.clone()) as Arc<dyn Section>)
    }
}

/// The rulesets a program knows, in the order they were registered.
#[derive(Clone, Default)]
pub struct Registry {
    rulesets: Vec<&'static dyn ErasedRuleset>,
    /// Their tags, for messages (kept for the life of the program: a registry is built
    /// once, at start).
    tags: &'static [&'static str],
}

impl Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.rulesets.iter()).finish()
    }
}

/// A file being read on this thread: the registry that reads its ruleset sections, the
/// file's text (to locate a section's errors in it) and the first such error.
struct Reading {
    registry: Registry,
    /// The address of the text being read: the sections RON hands over are slices of it,
    /// so a section's place in the file is its address less this one.
    address: usize,
    /// The text itself (a copy), to count lines and columns.
    text: String,
    error: Option<SpannedError>,
}

thread_local! {
    /// The files being read on this thread, innermost last.
    static READING: RefCell<Vec<Reading>> = const { RefCell::new(Vec::new()) };
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// This registry with ruleset `R` added (replacing one of the same tag).
    pub fn with<R: Ruleset>(mut self) -> Self {
        self.rulesets.retain(|r| r.tag() != R::TAG);
        self.rulesets.push(Entry::<R>::ERASED);
        let tags: Vec<&'static str> = self.rulesets.iter().map(|r| r.tag()).collect();
        self.tags = Box::leak(tags.into_boxed_slice());
        self
    }

    /// The rulesets, in the order they were registered.
    pub fn rulesets(&self) -> &[&'static dyn ErasedRuleset] {
        &self.rulesets
    }

    /// The ruleset named `tag` in files (`Gurps`).
    pub fn by_tag(&self, tag: &str) -> Option<&'static dyn ErasedRuleset> {
        self.rulesets.iter().copied().find(|r| r.tag() == tag)
    }

    /// The ruleset with id `id` (`gurps`).
    pub fn by_id(&self, id: &str) -> Option<&'static dyn ErasedRuleset> {
        self.rulesets.iter().copied().find(|r| r.id() == id)
    }

    /// The rulesets' tags, in the order they were registered.
    pub fn tags(&self) -> &'static [&'static str] {
        self.tags
    }

    /// Reads RON `text` as a `T` (a scenario or a save file) whose ruleset sections these
    /// rulesets read; an error in a section is located in `text`.
    pub fn read_ron<T: DeserializeOwned>(&self, text: &str) -> Result<T, SpannedError> {
        struct Done;
        impl Drop for Done {
            fn drop(&mut self) {
                READING.with(|stack| stack.borrow_mut().pop());
            }
        }
        READING.with(|stack| {
            stack.borrow_mut().push(Reading {
                registry: self.clone(),
                address: text.as_ptr() as usize,
                text: text.to_string(),
                error: None,
            })
        });
        let _done = Done;
        let result = crate::format::ron_options().from_str::<T>(text);
        let section_error =
            READING.with(|stack| stack.borrow_mut().last_mut().and_then(|r| r.error.take()));
        result.map_err(|e| section_error.unwrap_or(e))
    }

    /// Reads and validates a scenario file with these rulesets ([`super::load`]).
    pub fn load(&self, path: &std::path::Path) -> Result<Prepared, super::ScenarioErrors> {
        super::load(self, path)
    }

    /// Parses and validates scenario `text` with these rulesets; `name` is the file name
    /// used in messages ([`super::parse`]).
    pub fn parse(&self, name: &str, text: &str) -> Result<Prepared, super::ScenarioErrors> {
        super::parse(self, name, text)
    }
}

/// One ruleset's value in a file: the ruleset (by its tag) and the value it read. Written
/// and read as the tagged variant `Tag(...)`; reading needs a registry in force.
#[derive(Clone)]
pub struct Tagged {
    /// The ruleset the value belongs to.
    pub ruleset: &'static dyn ErasedRuleset,
    /// The value.
    pub value: Arc<dyn Section>,
}

impl Tagged {
    /// The value as ruleset `R`'s type `T`, if it is one.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        (*self.value).as_any().downcast_ref::<T>()
    }
}

impl Debug for Tagged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({:?})", self.ruleset.tag(), self.value)
    }
}

impl PartialEq for Tagged {
    fn eq(&self, other: &Self) -> bool {
        self.ruleset.tag() == other.ruleset.tag() && self.value.same_as(&*other.value)
    }
}

/// What a tagged section holds, for [`read_tagged`].
#[derive(Clone, Copy, Debug)]
pub enum SectionKind {
    /// A ruleset's scenario settings.
    Config,
    /// A unit's stat block.
    Stats,
}

/// Writes `value` as the variant `tag(value)` of the enum `name`.
pub fn write_tagged<S: serde::Serializer>(
    serializer: S,
    name: &'static str,
    tag: &'static str,
    value: &dyn Section,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_newtype_variant(name, 0, tag, value)
}

/// Reads the variant `Tag(...)` of enum `name` as a `kind` section of the ruleset of that
/// tag, in a file read by [`Registry::read_ron`].
pub fn read_tagged<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
    name: &'static str,
    kind: SectionKind,
) -> Result<Tagged, D::Error> {
    read_section(deserializer, name, |ruleset, ron| {
        match kind {
            SectionKind::Config => ruleset.parse_config(ron, name),
            SectionKind::Stats => ruleset.parse_stats(ron, name),
        }
        .map(|value| Tagged { ruleset, value })
    })
}

/// Reads the variant `Tag(...)` of enum `name` by `read`, with the ruleset of that tag from
/// the registry of the file being read ([`Registry::read_ron`]). The section's text is taken
/// whole and handed to the ruleset, which reads it with its own types; an error in it is
/// located in the file and kept for [`Registry::read_ron`] to report.
pub fn read_section<'de, D, T>(
    deserializer: D,
    name: &'static str,
    read: impl FnOnce(&'static dyn ErasedRuleset, &str) -> Result<T, SpannedError>,
) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
{
    read_section_or(deserializer, name, &[], |_| unreachable_own(), read)
}

fn unreachable_own<T>() -> Result<T, SpannedError> {
    Err(SpannedError {
        code: ron::Error::Message("no variant of the engine's own is read here".into()),
        span: ron::error::Span {
            start: ron::error::Position { line: 1, col: 1 },
            end: ron::error::Position { line: 1, col: 1 },
        },
    })
}

/// [`read_section`] for an enum whose variants are the rulesets' and also the engine's own
/// (`own`: a save's decisions are the rulesets' commands and the table's entries, such as
/// `Dice(...)`): a variant tagged with one of `own` is read by `read_own` from its text,
/// any other by its ruleset; errors in either are located in the file.
pub fn read_section_or<'de, D, T>(
    deserializer: D,
    name: &'static str,
    own: &'static [&'static str],
    read_own: impl FnOnce(&str) -> Result<T, SpannedError>,
    read: impl FnOnce(&'static dyn ErasedRuleset, &str) -> Result<T, SpannedError>,
) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::Deserialize;
    use serde::de::Error;
    let raw = <&ron::value::RawValue>::deserialize(deserializer)?;
    let ron = raw.get_ron();
    let (registry, start) = READING
        .with(|stack| {
            stack.borrow().last().map(|r| {
                let at = (ron.as_ptr() as usize).checked_sub(r.address);
                (r.registry.clone(), at.filter(|&a| a <= r.text.len()))
            })
        })
        .ok_or_else(|| D::Error::custom("a ruleset section is read only within a registry"))?;
    let tag = tag_of(ron);
    let result = match registry.by_tag(tag) {
        _ if own.contains(&tag) => read_own(ron),
        Some(ruleset) => read(ruleset, ron),
        None if own.is_empty() => Err(unknown_tag(ron, name, registry.tags())),
        None => {
            // Named once per file with such an error: the list the message offers.
            let all: Vec<&'static str> = registry.tags().iter().chain(own).copied().collect();
            Err(unknown_tag(ron, name, Box::leak(all.into_boxed_slice())))
        }
    };
    result.map_err(|e| {
        let message = e.code.to_string();
        READING.with(|stack| {
            if let Some(reading) = stack.borrow_mut().last_mut() {
                let before = reading.text.get(..start.unwrap_or(0)).unwrap_or("");
                let e = shifted(e, before);
                reading.error.get_or_insert(e);
            }
        });
        D::Error::custom(message)
    })
}

/// The leading identifier of a tagged value's RON (`Gurps` of `Gurps(st: 10)`), after any
/// white space and comments.
fn tag_of(ron: &str) -> &str {
    let mut rest = ron;
    loop {
        let trimmed = rest.trim_start();
        if let Some(after) = trimmed.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(after) = trimmed.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r);
        } else {
            rest = trimmed;
            break;
        }
    }
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The error of a tag no ruleset of the registry has, as RON reports an unknown variant of
/// enum `name` (located at the tag), or RON's own error when `ron` is not a variant at all.
fn unknown_tag(ron: &str, name: &'static str, expected: &'static [&'static str]) -> SpannedError {
    struct Unknown {
        name: &'static str,
        expected: &'static [&'static str],
    }
    impl<'de> serde::de::DeserializeSeed<'de> for Unknown {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_enum(self.name, self.expected, self)
        }
    }
    impl<'de> serde::de::Visitor<'de> for Unknown {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "a ruleset's variant of {}", self.name)
        }
        fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
            use serde::de::Error;
            let (tag, _): (String, _) = data.variant_seed(TagSeed)?;
            Err(A::Error::unknown_variant(&tag, self.expected))
        }
    }
    match crate::format::ron_options().from_str_seed(ron, Unknown { name, expected }) {
        Err(e) => e,
        Ok(()) => SpannedError {
            code: ron::Error::Message(format!("expected a variant of {name}")),
            span: ron::error::Span {
                start: ron::error::Position { line: 1, col: 1 },
                end: ron::error::Position { line: 1, col: 1 },
            },
        },
    }
}

/// `e`, located in a section of a file, moved to its place in the file: `before` is the
/// file's text before the section (lines and columns counted as RON counts them, from 1,
/// columns in characters).
fn shifted(mut e: SpannedError, before: &str) -> SpannedError {
    let line = 1 + before.chars().filter(|&c| c == '\n').count();
    let col = 1 + before.chars().rev().take_while(|&c| c != '\n').count();
    let move_to = |p: &mut ron::error::Position| {
        if p.line == 1 {
            p.col += col - 1;
        }
        p.line += line - 1;
    };
    move_to(&mut e.span.start);
    move_to(&mut e.span.end);
    e
}

/// Reads a variant's name (an identifier, `Gurps`).
struct TagSeed;

impl<'de> serde::de::DeserializeSeed<'de> for TagSeed {
    type Value = String;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl serde::de::Visitor<'_> for TagSeed {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a ruleset's name")
    }

    fn visit_str<E: serde::de::Error>(self, tag: &str) -> Result<String, E> {
        Ok(tag.to_string())
    }
}

/// Reads RON `ron`, the variant `tag(...)` of enum `name`, as a `T` (the variant's content),
/// with the options of every Skirmish file.
fn read_variant<T: DeserializeOwned>(
    ron: &str,
    name: &'static str,
    tag: &'static str,
) -> Result<T, SpannedError> {
    struct Variant<T> {
        name: &'static str,
        tag: &'static str,
        content: PhantomData<fn() -> T>,
    }
    impl<'de, T: DeserializeOwned> serde::de::DeserializeSeed<'de> for Variant<T> {
        type Value = T;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
            d.deserialize_enum(self.name, &[], self)
        }
    }
    impl<'de, T: DeserializeOwned> serde::de::Visitor<'de> for Variant<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "{}(...)", self.tag)
        }
        fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<T, A::Error> {
            use serde::de::{Error, VariantAccess};
            let (found, variant): (String, A::Variant) = data.variant_seed(TagSeed)?;
            if found != self.tag {
                return Err(A::Error::unknown_variant(&found, &[]));
            }
            variant.newtype_variant::<T>()
        }
    }
    crate::format::ron_options().from_str_seed(
        ron,
        Variant {
            name,
            tag,
            content: PhantomData,
        },
    )
}

//! An interactive battle that records its decisions: the player's commands are checked by
//! the ruleset, kept in a [`Recording`], and can be undone, saved, loaded and replayed.
//!
//! A battle is fully described by its scenario file, its dice seed and the list of the
//! player's decisions: the same three give the same battle, byte for byte, because every
//! roll comes from one seeded RNG in a fixed system order and the AI decides the same way
//! in the same situation. So [`Play`] keeps only that list, and
//!
//! - **undo** starts the battle over from the seed and replays every decision but the last;
//! - **save** writes the scenario path, the seed and the decisions as RON
//!   (`docs/save-format.md`);
//! - **load** reads them back and replays the decisions, so the battle is where it was;
//! - **replay** feeds the recorded decisions to the battle one at a time, each when the
//!   battle reaches that player's turn, so that a saved battle can be watched again.
//!
//! A refused command is not a decision: [`Play::decide`] returns the ruleset's reason and
//! keeps neither the command nor the refusal in the log, so that the log of a battle is
//! always the log of its recorded decisions (a loaded or undone battle shows the same text).
//!
//! Errors in a save file are located like scenario errors (file, line, column, what was
//! expected), including a recorded decision that the ruleset refuses on replay (the file was
//! edited by hand, or the scenario changed since): see [`LoadError`].

use crate::battle::{Autopilot, BattleEvent, Control, Controller, OutcomeKind, TurnState, UnitId};
use crate::dice::BattleRng;
use crate::format::{Path as FilePath, Problem, ron_options};
use crate::scenario::{ErasedRuleset, Prepared, Registry, Ruleset, ScenarioError, ScenarioErrors};
use crate::scenario::{Section, contract::Entry};
use crate::session::{Session, SessionOptions};
use miette::Diagnostic;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Safety cap on the steps of one catch-up ([`Play::replay_all`], [`Play::undo`],
/// [`Play::finish_by_ai`]); far above any battle under the round cap.
const MAX_STEPS: u64 = 10_000_000;

/// The first line of a save file written by [`Recording::to_ron`].
const SAVE_HEADER: &str = "// Skirmish saved battle (format: docs/save-format.md)\n";

/// A battle as its decisions: the scenario, the dice seed and every player decision in
/// order. This is the content of a save file (RON, `docs/save-format.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recording {
    /// The scenario file, as the user named it. When loading, a relative path that is not
    /// found from the working directory is looked up from the save file's directory.
    pub scenario: PathBuf,
    /// The dice seed.
    pub seed: u64,
    /// The player's decisions, in the order they were made.
    #[serde(default)]
    pub decisions: Vec<Decision>,
}

/// One player decision: the unit and its ruleset's action. Written in a save file as the
/// ruleset's tag around the command, `Gurps((unit: (0), action: (...)))`, and read back by
/// that ruleset (see `docs/save-format.md`).
#[derive(Clone)]
pub struct Decision {
    ruleset: &'static dyn ErasedRuleset,
    unit: UnitId,
    action: Arc<dyn Section>,
}

impl Decision {
    /// `unit`'s decision `action` in ruleset `R`.
    pub fn new<R: Ruleset>(unit: UnitId, action: R::Action) -> Self {
        Self {
            ruleset: Entry::<R>::ERASED,
            unit,
            action: Arc::new(action),
        }
    }

    /// The unit that decides.
    pub fn unit(&self) -> UnitId {
        self.unit
    }

    /// The ruleset the decision is for.
    pub fn ruleset(&self) -> &'static dyn ErasedRuleset {
        self.ruleset
    }

    /// The action, if the decision is ruleset `R`'s.
    pub fn action<R: Ruleset>(&self) -> Option<&R::Action> {
        (*self.action).as_any().downcast_ref::<R::Action>()
    }

    /// Sends the decision to a battle world of `prepared`; an error when the decision is
    /// of another ruleset.
    fn send(&self, world: &mut bevy::ecs::world::World, prepared: &Prepared) -> Result<(), String> {
        if self.ruleset.tag() != prepared.rules.tag() {
            return Err(format!(
                "the decision is for another ruleset than the scenario's ({})",
                prepared.ruleset
            ));
        }
        prepared.rules.send(world, self.unit, &*self.action)
    }
}

impl fmt::Debug for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}(Command {{ unit: {:?}, action: {:?} }})",
            self.ruleset.tag(),
            self.unit,
            self.action
        )
    }
}

impl PartialEq for Decision {
    fn eq(&self, other: &Self) -> bool {
        self.ruleset.tag() == other.ruleset.tag()
            && self.unit == other.unit
            && self.action.same_as(&*other.action)
    }
}

/// A decision's command as written: `(unit: ..., action: ...)`.
#[derive(Serialize)]
#[serde(rename = "Command")]
struct CommandRef<'a> {
    unit: UnitId,
    action: &'a dyn Section,
}

impl Serialize for Decision {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let command = CommandRef {
            unit: self.unit,
            action: &*self.action,
        };
        serializer.serialize_newtype_variant("Decision", 0, self.ruleset.tag(), &command)
    }
}

impl<'de> Deserialize<'de> for Decision {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::scenario::contract::read_section(deserializer, "Decision", |ruleset, ron| {
            ruleset
                .parse_command(ron, "Decision")
                .map(|(unit, action)| Decision {
                    ruleset,
                    unit,
                    action,
                })
        })
    }
}

/// The command the AI wrote for `unit` in one step of `session` under autopilot, if any.
fn ai_command(session: &mut Session, unit: UnitId) -> Option<Decision> {
    let rules = session.prepared().rules;
    let cursor = rules.command_cursor(&session.world);
    session.world.insert_resource(Autopilot(true));
    session.step();
    let world = &mut session.world;
    world.insert_resource(Autopilot(false));
    rules
        .command_since(world, cursor, unit)
        .map(|action| Decision {
            ruleset: rules,
            unit,
            action,
        })
}

impl Recording {
    /// An empty recording of a battle of `scenario` with dice seeded by `seed`.
    pub fn new(scenario: PathBuf, seed: u64) -> Self {
        Self {
            scenario,
            seed,
            decisions: Vec::new(),
        }
    }

    /// The save file text: a comment line, then the recording as pretty RON.
    pub fn to_ron(&self) -> Result<String, String> {
        let pretty = ron::ser::PrettyConfig::new()
            .depth_limit(4)
            .struct_names(false)
            .compact_arrays(false);
        ron_options()
            .to_string_pretty(self, pretty)
            .map(|text| format!("{SAVE_HEADER}{text}\n"))
            .map_err(|e| format!("cannot write the recording as RON: {e}"))
    }

    /// Parses save file `text` with the rulesets of `registry` (the decisions are theirs);
    /// `name` is the file name used in messages. A syntax error, an unknown field or a value
    /// of the wrong type is reported with its line and column.
    pub fn parse(registry: &Registry, name: &str, text: &str) -> Result<Self, LoadError> {
        registry
            .read_ron(text)
            .map_err(|e| LoadError::in_save(SaveError(ScenarioError::from_ron(name, text, &e))))
    }
}

/// What one call of [`Play::advance`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Advance {
    /// The battle moved on by one step (a turn begun, or the AI's decision resolved).
    Stepped,
    /// A recorded decision was played (replay): the decision's index in the recording and
    /// the unit it is for.
    Replayed {
        /// Index of the decision in the recording.
        index: usize,
        /// The unit that acted.
        unit: UnitId,
    },
    /// Nothing happened: the battle waits for the player's decision for this unit.
    AwaitingPlayer(UnitId),
    /// Nothing happened: the battle is over.
    Over(OutcomeKind),
    /// A recorded decision could not be played (replay). The rest of the recording is
    /// dropped; the battle waits for the player (or is over).
    ReplayFailed(ReplayError),
}

/// A recorded decision that could not be played back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// Index of the decision in the recording (from 0).
    pub index: usize,
    /// The unit the decision is for.
    pub unit: UnitId,
    /// That unit's name in the scenario (`?` if there is no such unit).
    pub name: String,
    /// Why it could not be played.
    pub reason: String,
}

impl ReplayError {
    /// The unit in words: "Aldric (unit 0)", or "unit 9" when the scenario has no such
    /// unit.
    pub fn who(&self) -> String {
        if self.name == "?" {
            format!("unit {}", self.unit.0)
        } else {
            format!("{} (unit {})", self.name, self.unit.0)
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "decision {} for {} cannot be played: {}",
            self.index,
            self.who(),
            self.reason
        )
    }
}

impl std::error::Error for ReplayError {}

/// A battle played interactively, with the record of its player decisions.
///
/// The AI plays its sides by [`Play::advance`]; when a player-controlled unit is to act
/// the battle waits ([`Play::awaiting_player`]) for [`Play::decide`].
pub struct Play {
    session: Session,
    recording: Recording,
    /// Recorded decisions still to be played back, in order.
    script: VecDeque<Decision>,
}

impl Play {
    /// A new battle of `prepared` (read from `scenario_path`, kept as given for saving)
    /// with dice seeded by `seed`, the AI playing only the AI sides, nothing recorded yet.
    pub fn new(prepared: Arc<Prepared>, scenario_path: PathBuf, seed: u64) -> Self {
        Self::replaying(prepared, Recording::new(scenario_path, seed))
    }

    /// A new battle of `prepared` at the recording's seed that plays the recording's
    /// decisions back one by one as [`Play::advance`] reaches each player turn (see
    /// [`Advance::Replayed`]). Each decision played joins this battle's recording again.
    pub fn replaying(prepared: Arc<Prepared>, recording: Recording) -> Self {
        let options = SessionOptions {
            keep_log: true,
            autopilot: false,
        };
        let session = Session::new(prepared, recording.seed, options);
        let Recording {
            scenario,
            seed,
            decisions,
        } = recording;
        Self {
            session,
            recording: Recording::new(scenario, seed),
            script: decisions.into(),
        }
    }

    /// Reads a save file, loads the scenario it names and replays its decisions, so the
    /// battle is where it was saved: after the last decision, at the next player turn (or
    /// the end). Every problem is reported with file, line and column.
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        Self::load_with(crate::rules::builtin(), path)
    }

    /// [`Play::load`] with the rulesets of `registry`.
    pub fn load_with(registry: &Registry, path: &Path) -> Result<Self, LoadError> {
        let name = path.display().to_string();
        let text = crate::format::read_text_file(path)
            .map_err(|e| LoadError::in_save(SaveError(ScenarioError::io(&name, &e))))?;
        let recording = Recording::parse(registry, &name, &text)?;
        let at = |path: FilePath, message: String| {
            SaveError(ScenarioError::at_path(
                &name,
                &text,
                &Problem::new(path, message),
            ))
        };
        let scenario_field = FilePath::root().field("scenario");
        let Some(scenario_path) = find_scenario(path, &recording.scenario) else {
            let base = path.parent().filter(|p| !p.as_os_str().is_empty());
            let message = match base {
                Some(dir) if recording.scenario.is_relative() => format!(
                    "file `{}` not found (looked from the working directory and from `{}`)",
                    recording.scenario.display(),
                    dir.display()
                ),
                _ => format!("file `{}` not found", recording.scenario.display()),
            };
            return Err(LoadError::in_save(at(scenario_field, message)));
        };
        let prepared = registry.load(&scenario_path).map_err(|errors| {
            let n = errors.count();
            LoadError {
                save: vec![at(
                    scenario_field.clone(),
                    format!(
                        "`{}` has {n} problem{} (below)",
                        scenario_path.display(),
                        if n == 1 { "" } else { "s" }
                    ),
                )],
                scenario: Some(errors),
            }
        })?;
        let mut play = Self::replaying(Arc::new(prepared), recording);
        play.replay_all().map_err(|e| {
            let path = FilePath::root().field("decisions").index(e.index);
            let message = format!(
                "the decision for {} cannot be played: {}",
                e.who(),
                e.reason
            );
            LoadError::in_save(at(path, message))
        })?;
        Ok(play)
    }

    /// Reads a save file like [`Play::load`] (so every recorded decision is checked), then
    /// starts the battle over to play the decisions back one at a time as
    /// [`Play::advance`] is called (see [`Play::replay_from_start`]).
    pub fn load_for_replay(path: &Path) -> Result<Self, LoadError> {
        let mut play = Self::load(path)?;
        play.replay_from_start();
        Ok(play)
    }

    /// The scenario file, as the user named it (and as a save records it).
    pub fn scenario_path(&self) -> &Path {
        &self.recording.scenario
    }

    /// The battle itself, to read (world, log, roster, outcome).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The battle itself, mutably (queries on its world need it). Stepping it or writing
    /// commands to its world directly bypasses the recording: use [`Play::advance`],
    /// [`Play::decide`] and [`Play::decide_by_ai`] for anything that should be replayed.
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Writes the recording to `path` as a save file.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = self.recording.to_ron()?;
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// The decisions made so far, with the scenario path and seed.
    pub fn recording(&self) -> &Recording {
        &self.recording
    }

    /// The recorded decisions still to be played back (0 unless replaying).
    pub fn replay_remaining(&self) -> usize {
        self.script.len()
    }

    /// The player-controlled unit whose decision the battle waits for; `None` while the AI
    /// is to act, before the first turn, when the AI plays every side
    /// ([`Play::finish_by_ai`]), or once the battle is over.
    pub fn awaiting_player(&self) -> Option<UnitId> {
        let world = &self.session.world;
        if self.session.outcome().is_some() || world.resource::<Autopilot>().0 {
            return None;
        }
        let unit = world.resource::<TurnState>().awaiting?;
        player_controlled(&self.session, unit).then_some(unit)
    }

    /// One step of AI play, unless the battle waits for the player or is over. When
    /// replaying, a player's turn takes the next recorded decision instead of waiting.
    pub fn advance(&mut self) -> Advance {
        if let Some(kind) = self.session.outcome() {
            return match self.script.pop_front() {
                Some(decision) => {
                    self.script.clear();
                    Advance::ReplayFailed(
                        self.replay_error(&decision, "the battle is already over".to_string()),
                    )
                }
                None => Advance::Over(kind),
            };
        }
        if let Some(unit) = self.awaiting_player() {
            let Some(decision) = self.script.pop_front() else {
                return Advance::AwaitingPlayer(unit);
            };
            let index = self.recording.decisions.len();
            return match self.apply(decision.clone()) {
                Ok(()) => Advance::Replayed {
                    index,
                    unit: decision.unit(),
                },
                Err(reason) => {
                    self.script.clear();
                    Advance::ReplayFailed(self.replay_error(&decision, reason))
                }
            };
        }
        self.session.step();
        Advance::Stepped
    }

    /// Advances until the recorded decisions still to be played back are all played and
    /// the battle waits for the player or is over.
    pub fn replay_all(&mut self) -> Result<(), ReplayError> {
        for _ in 0..MAX_STEPS {
            match self.advance() {
                Advance::Stepped | Advance::Replayed { .. } => {}
                Advance::AwaitingPlayer(_) | Advance::Over(_) => return Ok(()),
                Advance::ReplayFailed(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The player's decision for the unit the battle waits for, an action of ruleset `R`
    /// (`play.decide::<Gurps>(action)`): the command is sent and resolved in one step. If
    /// the ruleset refuses it, returns the reason; the unit is still awaited and nothing is
    /// recorded (the refusal is not kept in the log either). Any recorded decisions still
    /// to be played back are dropped: the battle takes a new course.
    pub fn decide<R: Ruleset>(&mut self, action: R::Action) -> Result<(), String> {
        self.script.clear();
        let unit = self.awaiting_player().ok_or_else(|| self.not_awaiting())?;
        self.apply(Decision::new::<R>(unit, action))
    }

    /// Takes back the last player decision: the battle starts over from its seed, every
    /// earlier decision is replayed, and the AI plays until that player's turn comes again.
    /// Returns false (and changes nothing) when no decision has been made.
    pub fn undo(&mut self) -> bool {
        if self.recording.decisions.pop().is_none() {
            return false;
        }
        self.replay_recording();
        true
    }

    /// Starts the battle over and replays the recorded decisions at once, keeping the
    /// AI's say over the player sides (autopilot) as it was.
    fn replay_recording(&mut self) {
        let autopilot = self.session.world.resource::<Autopilot>().0;
        self.script = std::mem::take(&mut self.recording.decisions).into();
        self.rewind();
        // These decisions were all accepted in this same battle, so they replay.
        let replayed = self.replay_all();
        debug_assert!(replayed.is_ok(), "replay: {replayed:?}");
        self.session.world.insert_resource(Autopilot(autopilot));
    }

    /// Starts the battle over from its seed with the player sides waiting for decisions
    /// (a replay needs their turns).
    fn rewind(&mut self) {
        self.session.reset(self.recording.seed);
        self.session.world.insert_resource(Autopilot(false));
    }

    /// A fresh battle of the same scenario with dice seeded by `seed` and an empty
    /// recording.
    pub fn restart(&mut self, seed: u64) {
        self.script.clear();
        self.recording = Recording::new(self.recording.scenario.clone(), seed);
        self.session.reset(seed);
    }

    /// Starts the battle over from its seed and plays its recorded decisions back one at a
    /// time as [`Play::advance`] reaches each player turn, at whatever pace the caller
    /// advances (a watchable replay). At the end the battle is where it was.
    pub fn replay_from_start(&mut self) {
        let mut decisions: VecDeque<Decision> =
            std::mem::take(&mut self.recording.decisions).into();
        decisions.extend(self.script.drain(..));
        self.script = decisions;
        self.rewind();
    }

    /// Lets the AI decide for the player unit the battle waits for, and records that
    /// decision like the player's own (so undo, save and replay keep it).
    pub fn decide_by_ai(&mut self) -> Result<(), String> {
        self.script.clear();
        let unit = self.awaiting_player().ok_or_else(|| self.not_awaiting())?;
        let before = self.session.log().entries.len();
        let chosen = ai_command(&mut self.session, unit);
        let refused = self.session.log().entries[before..]
            .iter()
            .any(|e| matches!(e.event, BattleEvent::Rejected { .. }));
        match chosen {
            Some(decision) if !refused => {
                self.recording.decisions.push(decision);
                Ok(())
            }
            _ => {
                // The AI chooses among legal actions, so this should not happen; if it
                // does, take the step back so the battle stays its recorded decisions.
                self.replay_recording();
                Err("the AI found no decision the rules allow".to_string())
            }
        }
    }

    /// Lets the AI play every side, the player's too, to the end of the battle and returns
    /// the outcome. The AI's decisions for the player are not recorded; [`Play::restart`]
    /// or [`Play::undo`] hand the player sides back to the player.
    pub fn finish_by_ai(&mut self) -> Option<OutcomeKind> {
        self.script.clear();
        self.session.world.insert_resource(Autopilot(true));
        let mut steps = 0;
        while self.session.outcome().is_none() && steps < MAX_STEPS {
            self.session.step();
            steps += 1;
        }
        self.session.outcome()
    }

    /// Sends `decision` to the battle, which must wait for that unit; records it if the
    /// ruleset accepts it, or returns why not (and removes the refusal from the log).
    fn apply(&mut self, decision: Decision) -> Result<(), String> {
        let unit = decision.unit();
        let awaited = self.awaiting_player().ok_or_else(|| self.not_awaiting())?;
        if unit != awaited {
            let roster = self.session.roster();
            return Err(if (unit.0 as usize) < roster.units.len() {
                format!(
                    "it is {}'s turn, not {}'s",
                    roster.name(awaited),
                    roster.name(unit)
                )
            } else {
                format!(
                    "there is no unit {} in the scenario (it is {}'s turn)",
                    unit.0,
                    roster.name(awaited)
                )
            });
        }
        let before = self.session.log().entries.len();
        let prepared = self.session.prepared().clone();
        decision.send(&mut self.session.world, &prepared)?;
        self.session.step();
        let mut refused = None;
        let mut chosen = false;
        for entry in &self.session.log().entries[before..] {
            match &entry.event {
                BattleEvent::Rejected { reason, .. } => {
                    refused.get_or_insert_with(|| reason.clone());
                }
                BattleEvent::ActionChosen { unit: u, .. } if *u == unit => chosen = true,
                _ => {}
            }
        }
        let refused = refused.or_else(|| (!chosen).then(|| "the command was not taken up".into()));
        if let Some(reason) = refused {
            self.session
                .world
                .resource_mut::<crate::battle::CombatLog>()
                .entries
                .truncate(before);
            return Err(reason);
        }
        self.recording.decisions.push(decision);
        Ok(())
    }

    fn not_awaiting(&self) -> String {
        if self.session.outcome().is_some() {
            "the battle is over".to_string()
        } else {
            "no player's decision is awaited now".to_string()
        }
    }

    fn replay_error(&self, decision: &Decision, reason: String) -> ReplayError {
        let unit = decision.unit();
        let roster = self.session.roster();
        ReplayError {
            index: self.recording.decisions.len(),
            unit,
            name: roster.name(unit).to_string(),
            reason,
        }
    }
}

/// Puts `session` (of the recording's scenario, with any options) where the recorded
/// battle stands, then hands every side to the AI with fresh dice seeded by `seed`: the
/// start of a preview that fights a battle in progress on many times (see
/// `preview::run_preview_from`). Needs no log. The recorded decisions are
/// replayed as far as the battle takes them; one that cannot be played (which
/// [`Play::load`] would have reported) ends the replay there.
pub fn continue_from(session: &mut Session, recording: &Recording, seed: u64) {
    session.reset(recording.seed);
    session.world.insert_resource(Autopilot(false));
    let mut steps = 0;
    for decision in &recording.decisions {
        // Let the AI play on to the decision's unit's turn.
        let unit = decision.unit();
        while session.outcome().is_none()
            && session.world.resource::<TurnState>().awaiting != Some(unit)
            && steps < MAX_STEPS
        {
            if let Some(awaited) = session.world.resource::<TurnState>().awaiting
                && player_controlled(session, awaited)
            {
                break; // another player unit's turn: the decision does not fit
            }
            session.step();
            steps += 1;
        }
        if session.outcome().is_some()
            || session.world.resource::<TurnState>().awaiting != Some(unit)
        {
            break;
        }
        let prepared = session.prepared().clone();
        if decision.send(&mut session.world, &prepared).is_err() {
            break;
        }
        session.step();
        // An accepted decision ends the unit's turn; a refused one leaves it waiting.
        if session.world.resource::<TurnState>().awaiting == Some(unit) {
            break;
        }
    }
    session.world.insert_resource(Autopilot(true));
    session.world.insert_resource(BattleRng::seeded(seed));
}

/// True if `unit` is played by a person (not the AI).
fn player_controlled(session: &Session, unit: UnitId) -> bool {
    session
        .roster()
        .entity(unit)
        .and_then(|e| session.world.get::<Controller>(e))
        .is_some_and(|c| c.0 == Control::Player)
}

/// The scenario a save file names: the path as written if it exists from the working
/// directory (or is absolute), else relative to the save file's directory.
fn find_scenario(save: &Path, scenario: &Path) -> Option<PathBuf> {
    if scenario.exists() {
        return Some(scenario.to_path_buf());
    }
    if scenario.is_absolute() {
        return None;
    }
    let beside = save.parent()?.join(scenario);
    beside.exists().then_some(beside)
}

/// One problem in a save file, with its file, line and column (the scenario errors'
/// machinery, under its own diagnostic code).
#[derive(Debug)]
pub struct SaveError(pub ScenarioError);

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SaveError {}

impl Diagnostic for SaveError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("skirmish::save"))
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.0.source_code()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.0.labels()
    }
}

/// Why a save file could not be loaded: problems in the save file itself and, when the
/// scenario it names is bad, that scenario's problems.
#[derive(Debug)]
pub struct LoadError {
    /// Problems in the save file, each located.
    pub save: Vec<SaveError>,
    /// Problems in the scenario file it names, if that is what failed.
    pub scenario: Option<ScenarioErrors>,
}

impl LoadError {
    fn in_save(error: SaveError) -> Self {
        Self {
            save: vec![error],
            scenario: None,
        }
    }

    /// Number of problems, in both files.
    pub fn count(&self) -> usize {
        self.save.len() + self.scenario.as_ref().map_or(0, |s| s.count())
    }

    /// Each problem with the source line it points at, for a terminal (`color`) or a log;
    /// the save file's first, then the scenario's.
    pub fn render(&self, color: bool) -> String {
        let mut out = crate::scenario::render_diagnostics(&self.save, color);
        if let Some(scenario) = &self.scenario {
            out.push_str(&scenario.render(color));
        }
        out
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for e in &self.save {
            if !first {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
            first = false;
        }
        if let Some(scenario) = &self.scenario {
            if !first {
                writeln!(f)?;
            }
            write!(f, "{scenario}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::gurps::{Action, Gurps, Maneuver};

    fn recording() -> Recording {
        let mut r = Recording::new(PathBuf::from("scenarios/gurps-duel.ron"), 7);
        r.decisions.push(Decision::new::<Gurps>(
            UnitId(0),
            Action {
                to: Some(hexx::Hex::new(1, -2)),
                ..Action::simple(Maneuver::Move)
            },
        ));
        r.decisions.push(Decision::new::<Gurps>(
            UnitId(2),
            Action {
                target: Some(UnitId(1)),
                weapon: Some(0),
                ..Action::simple(Maneuver::AllOutAttack(
                    crate::rules::gurps::AoaOption::Determined,
                ))
            },
        ));
        r
    }

    /// A recording survives the trip through its save file text, which starts with a
    /// comment naming the format.
    #[test]
    fn recordings_round_trip_through_ron() {
        let r = recording();
        let text = r.to_ron().expect("serializable");
        assert!(text.starts_with("// Skirmish saved battle"), "{text}");
        assert!(
            text.contains("maneuver: AllOutAttack(Determined)"),
            "{text}"
        );
        assert_eq!(
            Recording::parse(crate::rules::builtin(), "x.ron", &text).expect("parses"),
            r
        );
    }

    /// Hand-written saves may leave out `Some(..)`, the inner parentheses of `Gurps(..)`,
    /// every action field that has a default, and an empty decision list.
    #[test]
    fn hand_written_saves_may_be_short() {
        let text = r#"(
            scenario: "duel.ron",
            seed: 3,
            decisions: [
                Gurps(unit: (0), action: (maneuver: Move, to: (x: 1, y: -2))),
                Gurps(unit: (0), action: (maneuver: Aim, target: (1), weapon: 0)),
            ],
        )"#;
        let r = Recording::parse(crate::rules::builtin(), "short.ron", text).expect("parses");
        assert_eq!(r.seed, 3);
        assert_eq!(r.decisions.len(), 2);
        let aim = r.decisions[1].action::<Gurps>().expect("a GURPS decision");
        assert_eq!(aim.target, Some(UnitId(1)));
        assert_eq!(r.decisions[0].unit(), UnitId(0));
        let c = r.decisions[0].action::<Gurps>().expect("a GURPS decision");
        assert_eq!(c.to, Some(hexx::Hex::new(1, -2)));
        assert_eq!(c.deceptive, 0);
        let empty = Recording::parse(
            crate::rules::builtin(),
            "e.ron",
            r#"(scenario: "duel.ron", seed: 1)"#,
        );
        assert!(empty.expect("parses").decisions.is_empty());
    }

    /// Save file errors give file, line and column and what was expected, under the
    /// save file's own diagnostic code.
    #[test]
    fn save_file_errors_are_located() {
        let text = "(\n    scenario: \"duel.ron\",\n    seed: 1,\n    colour: Red,\n)";
        let e =
            Recording::parse(crate::rules::builtin(), "bad.ron", text).expect_err("unknown field");
        assert_eq!(e.count(), 1);
        let shown = e.to_string();
        assert!(shown.starts_with("bad.ron:4:5: "), "{shown}");
        assert!(shown.contains("colour"), "{shown}");
        assert!(shown.contains("`decisions`"), "{shown}");
        let rendered = e.render(false);
        assert!(rendered.contains("skirmish::save"), "{rendered}");
        assert!(rendered.contains("colour: Red"), "{rendered}");

        let e = Recording::parse(
            crate::rules::builtin(),
            "bad.ron",
            "(scenario: \"d.ron\", seed: -1)",
        )
        .expect_err("u64");
        assert!(e.to_string().starts_with("bad.ron:1:"), "{e}");
    }

    /// A relative scenario path is taken from the working directory when it is there, and
    /// otherwise from the save file's directory.
    #[test]
    fn scenario_paths_fall_back_to_the_save_files_directory() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let found = find_scenario(
            &root.join("saves/x.ron"),
            &root.join("scenarios/gurps-duel.ron"),
        );
        assert_eq!(found, Some(root.join("scenarios/gurps-duel.ron")));
        let beside = find_scenario(&root.join("scenarios/x.ron"), Path::new("gurps-duel.ron"));
        assert_eq!(beside, Some(root.join("scenarios/gurps-duel.ron")));
        assert_eq!(
            find_scenario(&root.join("x.ron"), Path::new("no-such-scenario.ron")),
            None
        );
    }
}

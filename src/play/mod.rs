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

mod recording;
mod table;

use recording::Kind;
pub use recording::{Decision, LoadError, Recording, SaveError, TableEntry};
pub use table::DiceRequest;
use table::{Pending, give_back, take_over};

use crate::battle::{
    Autopilot, BattleEvent, CombatLog, Control, Controller, OutcomeKind, TurnState, UnitId,
};
use crate::dice::BattleRng;
use crate::format::{Path as FilePath, Problem};
use crate::scenario::{Prepared, Registry, Ruleset, ScenarioError};
use crate::session::{Session, SessionOptions};
use std::collections::VecDeque;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Safety cap on the steps of one catch-up ([`Play::replay_all`], [`Play::undo`],
/// [`Play::finish_by_ai`]); far above any battle under the round cap.
const MAX_STEPS: u64 = 10_000_000;

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
            kind: Kind::Command {
                ruleset: rules,
                unit,
                action,
            },
        })
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
    /// Nothing happened: the battle waits for the faces of a roll this unit's player rolls
    /// at the table ([`Play::pending_dice`], [`Play::enter_dice`]).
    AwaitingDice(UnitId),
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
    /// The entry is about no unit (a side's own-dice switch).
    pub no_unit: bool,
}

impl ReplayError {
    /// The unit in words: "Aldric (unit 0)", or "unit 9" when the scenario has no such
    /// unit.
    pub fn who(&self) -> String {
        if self.no_unit {
            "the own-dice switch".to_string()
        } else if self.name == "?" {
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
///
/// The table's part: a side whose players roll their own dice ([`Play::set_own_dice`])
/// has every roll of its units wait for the faces ([`Play::pending_dice`],
/// [`Play::enter_dice`]); the GM edits units ([`Play::gm_edit`]) and takes an AI unit's
/// next decision ([`Play::take_over`]). Each is an entry of the recording, replayed with it.
/// A roll is found waiting once its step has run with the generator's faces: the battle is
/// then put back to just before that step (replayed from the start, as undo does) and
/// waits for the faces, so the step runs again with them.
pub struct Play {
    session: Session,
    recording: Recording,
    /// Recorded decisions still to be played back, in order.
    script: VecDeque<Decision>,
    /// Steps the battle has taken since it began: the clock of GM edits and take-overs.
    steps: u64,
    /// A roll waiting for the faces rolled at the table.
    pending: Option<Pending>,
    /// AI units taken over for their next decision, with the control to give back.
    taken: Vec<(UnitId, Control)>,
    /// Putting the battle back to a step it has reached before: no roll waits for dice
    /// (those steps were played with theirs).
    quiet: bool,
    /// The sides whose players roll their own dice now.
    own: Vec<String>,
    /// The scenario file as found from the working directory: the recorded path, or
    /// where it led from a loaded save's folder.
    found: PathBuf,
    /// The save file this battle was loaded from, if it was.
    loaded_from: Option<PathBuf>,
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
            own_dice,
            decisions,
        } = recording;
        let found = scenario.clone();
        let mut recording = Recording::new(scenario, seed);
        recording.own_dice = own_dice;
        let mut play = Self {
            found,
            loaded_from: None,
            session,
            recording,
            script: decisions.into(),
            steps: 0,
            pending: None,
            taken: Vec::new(),
            quiet: false,
            own: Vec::new(),
        };
        play.rewind();
        play
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
        let sides: Vec<String> = prepared.sides.iter().map(|s| s.id.clone()).collect();
        if let Some((i, id)) = recording
            .own_dice
            .iter()
            .enumerate()
            .find(|(_, id)| !sides.contains(id))
        {
            let path = FilePath::root().field("own_dice").index(i);
            let message = format!(
                "no side `{id}` in the scenario (its sides: {})",
                sides.join(", ")
            );
            return Err(LoadError::in_save(at(path, message)));
        }
        let mut play = Self::replaying(Arc::new(prepared), recording);
        play.found = scenario_path;
        play.loaded_from = Some(path.to_path_buf());
        play.replay_all()
            .and_then(|()| play.check_dice())
            .map_err(|e| {
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

    /// Writes the recording to `path` as a save file. While a player's decision waits for
    /// its dice, the faces already entered for it are left out with it (the save waits
    /// for that decision); a roll of the AI's step keeps them (the save waits for its
    /// next die).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let mut recording = self.recording.clone();
        recording.scenario = scenario_from(path, &self.found, &self.recording.scenario);
        if self.pending.as_ref().is_some_and(|p| p.redo.is_some()) {
            let drawn = self.session.world.resource::<BattleRng>().count();
            recording.drop_dice_from(drawn);
        }
        let text = recording.to_ron()?;
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// The scenario file as found from the working directory: what to open it by (to
    /// edit it, to add to it), where [`Play::scenario_path`] may be relative to a loaded
    /// save's folder.
    pub fn scenario_file(&self) -> &Path {
        &self.found
    }

    /// The save file this battle was loaded from ([`Play::load`]), if it was.
    pub fn loaded_from(&self) -> Option<&Path> {
        self.loaded_from.as_deref()
    }

    /// The decisions made so far, with the scenario path and seed.
    pub fn recording(&self) -> &Recording {
        &self.recording
    }

    /// The recorded decisions still to be played back (0 unless replaying).
    pub fn replay_remaining(&self) -> usize {
        self.script.len()
    }

    /// Steps the battle has taken since it began.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The player-controlled unit whose decision the battle waits for; `None` while the AI
    /// is to act, before the first turn, when the AI plays every side
    /// ([`Play::finish_by_ai`]), while a roll waits for its dice, or once the battle is
    /// over.
    pub fn awaiting_player(&self) -> Option<UnitId> {
        let world = &self.session.world;
        if self.pending.is_some()
            || self.session.outcome().is_some()
            || world.resource::<Autopilot>().0
        {
            return None;
        }
        let unit = world.resource::<TurnState>().awaiting?;
        player_controlled(&self.session, unit).then_some(unit)
    }

    /// One step of AI play, unless the battle waits for the player, for dice or is over.
    /// When replaying, a player's turn takes the next recorded decision instead of
    /// waiting, and the table's entries are played when the battle reaches their step.
    pub fn advance(&mut self) -> Advance {
        if let Some(p) = &self.pending {
            return Advance::AwaitingDice(p.request.unit);
        }
        if let Err(e) = self.play_due() {
            self.script.clear();
            return Advance::ReplayFailed(e);
        }
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
            if decision.table_entry().is_some() {
                self.script.clear();
                let reason = format!(
                    "the battle waits for {}'s decision, not for this entry (at step {})",
                    self.session.roster().name(unit),
                    self.steps
                );
                return Advance::ReplayFailed(self.replay_error(&decision, reason));
            }
            return match self.apply(decision.clone()) {
                Ok(()) => match &self.pending {
                    Some(p) => Advance::AwaitingDice(p.request.unit),
                    None => Advance::Replayed {
                        index,
                        unit: decision.unit(),
                    },
                },
                Err(reason) => {
                    self.script.clear();
                    Advance::ReplayFailed(self.replay_error(&decision, reason))
                }
            };
        }
        let mark = self.mark();
        self.step();
        if let Some(e) = self.misused_dice(&mark, false) {
            self.script.clear();
            return Advance::ReplayFailed(e);
        }
        if let Some(request) = self.find_roll(&mark) {
            let unit = request.unit;
            self.wait_for_dice(mark.steps, request, None);
            return Advance::AwaitingDice(unit);
        }
        Advance::Stepped
    }

    /// Advances until the recorded decisions still to be played back are all played and
    /// the battle waits for the player (or for dice) or is over. Rolls made while recorded
    /// entries remain are the recording's; a roll of a side that rolls its own dice made
    /// after the last one waits for its dice, as in live play.
    pub fn replay_all(&mut self) -> Result<(), ReplayError> {
        for _ in 0..MAX_STEPS {
            match self.advance() {
                Advance::Stepped | Advance::Replayed { .. } => {}
                Advance::AwaitingPlayer(_) | Advance::AwaitingDice(_) | Advance::Over(_) => break,
                Advance::ReplayFailed(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The player's decision for the unit the battle waits for, an action of ruleset `R`
    /// (`play.decide::<Gurps>(action)`): the command is sent and resolved in one step. If
    /// the ruleset refuses it, returns the reason; the unit is still awaited and nothing is
    /// recorded (the refusal is not kept in the log either). Any recorded decisions still
    /// to be played back are dropped: the battle takes a new course. When the decision
    /// makes a roll whose faces a player rolls at the table, it is accepted but waits for
    /// them ([`Play::pending_dice`]) and goes ahead once they are entered.
    pub fn decide<R: Ruleset>(&mut self, action: R::Action) -> Result<(), String> {
        self.script.clear();
        let unit = self.awaiting_player().ok_or_else(|| self.not_awaiting())?;
        self.apply(Decision::new::<R>(unit, action))
    }

    /// Takes back the last player decision, GM edit, take-over or own-dice switch (and the
    /// dice entered for it or after it): the battle starts over from its seed, every
    /// earlier entry is replayed, and the AI plays until a player's turn comes again. While
    /// a player's decision waits for its dice, undo takes back that decision (which is not
    /// recorded yet) and nothing else. Returns false when nothing has been decided.
    pub fn undo(&mut self) -> bool {
        if let Some(pending) = self.drop_pending()
            && pending.redo.is_some()
        {
            // A player's decision waiting for its dice is not recorded yet: taking it back
            // is dropping the roll (the battle stands before that decision already).
            return true;
        }
        let Some(last) = self
            .recording
            .decisions
            .iter()
            .rposition(Decision::is_choice)
        else {
            return false;
        };
        self.recording.decisions.truncate(last);
        self.replay_recording();
        // Dice entered for the taken-back decision's rolls come before it: they are for
        // dice the battle has not drawn again yet.
        self.forget_undrawn();
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
    /// (a replay needs their turns), and the dice entered in the script in place.
    fn rewind(&mut self) {
        self.session.reset(self.recording.seed);
        self.session.world.insert_resource(Autopilot(false));
        self.steps = 0;
        self.taken.clear();
        self.own = self.recording.own_dice.clone();
        let mut rng = self.session.world.resource_mut::<BattleRng>();
        for d in self.script.iter() {
            if let Some(TableEntry::Dice { draw, faces, .. }) = d.table_entry() {
                rng.enter(*draw, faces);
            }
        }
    }

    /// Puts the battle back where it stood after `steps` steps: started over, the recorded
    /// entries replayed up to there (and the table's entries of that step played).
    fn rewind_to(&mut self, steps: u64) {
        let autopilot = self.session.world.resource::<Autopilot>().0;
        self.script = std::mem::take(&mut self.recording.decisions).into();
        self.rewind();
        let quiet = std::mem::replace(&mut self.quiet, true);
        let mut guard = 0;
        while self.steps < steps && guard < MAX_STEPS {
            guard += 1;
            match self.advance() {
                Advance::Stepped | Advance::Replayed { .. } => {}
                _ => break,
            }
        }
        let played = self.play_due();
        debug_assert!(played.is_ok(), "rewind: {played:?}");
        self.quiet = quiet;
        // Whatever is left was recorded after that point (dice for the step to come).
        let rest: Vec<Decision> = self.script.drain(..).collect();
        self.recording.decisions.extend(rest);
        self.session.world.insert_resource(Autopilot(autopilot));
    }

    /// A fresh battle of the same scenario with dice seeded by `seed` and an empty
    /// recording (the sides that roll their own dice stay so).
    pub fn restart(&mut self, seed: u64) {
        self.script.clear();
        self.pending = None;
        let own_dice = self.own.clone();
        self.recording = Recording::new(self.recording.scenario.clone(), seed);
        self.recording.own_dice = own_dice;
        self.rewind();
    }

    /// Starts the battle over from its seed and plays its recorded decisions back one at a
    /// time as [`Play::advance`] reaches each player turn, at whatever pace the caller
    /// advances (a watchable replay). At the end the battle is where it was.
    pub fn replay_from_start(&mut self) {
        self.drop_pending();
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
        let mark = self.mark();
        let chosen = ai_command(&mut self.session, unit);
        self.steps += 1;
        let refused = self.session.log().entries[before..]
            .iter()
            .any(|e| matches!(e.event, BattleEvent::Rejected { .. }));
        match chosen {
            Some(decision) if !refused => {
                if let Some(request) = self.find_roll(&mark) {
                    self.wait_for_dice(mark.steps, request, Some(decision));
                } else {
                    self.recorded(decision);
                    // The AI played the step as the AI's own (a ruleset may log the AI's
                    // answers more quietly than a player's): played again as the
                    // recording replays it, so the log is the replay's.
                    let steps = self.steps;
                    self.rewind_to(steps);
                }
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
        self.drop_pending();
        self.session.world.insert_resource(Autopilot(true));
        let mut steps = 0;
        while self.session.outcome().is_none() && steps < MAX_STEPS {
            self.step();
            steps += 1;
        }
        self.session.outcome()
    }

    /// One step of the battle, counted.
    fn step(&mut self) {
        self.session.step();
        self.steps += 1;
    }

    /// Where the battle stands before a step, to find the rolls the step makes.
    fn mark(&self) -> Mark {
        Mark {
            steps: self.steps,
            log: self.session.log().entries.len(),
            drawn: self.session.world.resource::<BattleRng>().count(),
        }
    }

    /// Records an accepted decision; a unit the GM took over goes back to the AI.
    fn recorded(&mut self, decision: Decision) {
        let unit = decision.unit();
        self.recording.decisions.push(decision);
        give_back(&mut self.session, &mut self.taken, unit);
    }

    /// Sends `decision` to the battle, which must wait for that unit; records it if the
    /// ruleset accepts it, or returns why not (and removes the refusal from the log). A
    /// decision whose roll waits for dice rolled at the table is not recorded yet: the
    /// battle is put back before it and waits ([`Play::pending_dice`]).
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
        let mark = self.mark();
        let before = mark.log;
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
        self.steps += 1;
        if let Some(e) = self.misused_dice(&mark, true) {
            // Only a replay meets this (a save edited by hand: live play enters faces only
            // for the first dice of the roll that asks, which this checks): it stops here.
            return Err(format!(
                "the dice entered for {} (decisions[{}]) do not fit: {}",
                e.who(),
                e.index,
                e.reason
            ));
        }
        if let Some(request) = self.find_roll(&mark) {
            self.wait_for_dice(mark.steps, request, Some(decision));
            return Ok(());
        }
        self.recorded(decision);
        Ok(())
    }

    fn not_awaiting(&self) -> String {
        if self.pending.is_some() {
            "a roll waits for its dice".to_string()
        } else if self.session.outcome().is_some() {
            "the battle is over".to_string()
        } else {
            "no player's decision is awaited now".to_string()
        }
    }

    fn replay_error(&self, decision: &Decision, reason: String) -> ReplayError {
        let unit = decision.unit();
        let roster = self.session.roster();
        let about_no_unit = decision.table_entry().is_some_and(|e| e.unit().is_none());
        ReplayError {
            index: self.recording.decisions.len(),
            unit,
            name: roster.name(unit).to_string(),
            reason,
            no_unit: about_no_unit,
        }
    }
}

/// Where a battle stood before a step.
struct Mark {
    steps: u64,
    log: usize,
    drawn: u64,
}

/// Puts `session` (of the recording's scenario, with any options) where the recorded
/// battle stands after `until` steps ([`Play::steps`]), then hands every side to the AI
/// with fresh dice seeded by `seed`: the start of a preview that fights a battle in
/// progress on many times (see `preview::run_preview_from`). Needs no log. The recorded
/// decisions and the table's entries are replayed as far as the battle takes them, and
/// the AI's steps after the last of them on the recorded dice, up to `until`; a decision
/// that cannot be played (which [`Play::load`] would have reported) ends the replay there.
pub fn continue_from(session: &mut Session, recording: &Recording, until: u64, seed: u64) {
    session.reset(recording.seed);
    session.world.insert_resource(Autopilot(false));
    // The replay is looked at as the window saw it: a battle that keeps no log does not
    // draw where craft whose ranges are bands stand (starship-d12, SOCS), and a GM edit
    // replayed may set bands from the map. The battle fought on from here keeps none.
    let keep = std::mem::replace(&mut session.world.resource_mut::<CombatLog>().keep, true);
    {
        let mut rng = session.world.resource_mut::<BattleRng>();
        for d in &recording.decisions {
            if let Some(TableEntry::Dice { draw, faces, .. }) = d.table_entry() {
                rng.enter(*draw, faces);
            }
        }
    }
    let mut taken = Vec::new();
    let mut steps: u64 = 0;
    let mut whole = true;
    for decision in &recording.decisions {
        if let Some(entry) = decision.table_entry() {
            let Some(at) = entry.at() else { continue };
            while steps < at && session.outcome().is_none() {
                if let Some(awaited) = session.world.resource::<TurnState>().awaiting
                    && player_controlled(session, awaited)
                {
                    break;
                }
                session.step();
                steps += 1;
            }
            let played = match entry {
                TableEntry::Gm {
                    unit,
                    change,
                    reason,
                    ..
                } if steps == at => session.gm_edit(*unit, change, reason).map(|_| ()),
                TableEntry::TakeOver { unit, .. } if steps == at => {
                    take_over(session, &mut taken, *unit)
                }
                // Who rolls by hand does not change a battle the program rolls on.
                TableEntry::OwnDice { .. } if steps == at => Ok(()),
                _ => Err(String::new()),
            };
            if played.is_err() {
                whole = false;
                break;
            }
            continue;
        }
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
            whole = false;
            break;
        }
        let prepared = session.prepared().clone();
        if decision.send(&mut session.world, &prepared).is_err() {
            whole = false;
            break;
        }
        session.step();
        steps += 1;
        // An accepted decision ends the unit's turn; a refused one leaves it waiting.
        if session.world.resource::<TurnState>().awaiting == Some(unit) {
            whole = false;
            break;
        }
        give_back(session, &mut taken, unit);
    }
    // The AI's steps after the last decision, on the battle's own dice.
    while whole && steps < until && session.outcome().is_none() {
        if let Some(awaited) = session.world.resource::<TurnState>().awaiting
            && player_controlled(session, awaited)
        {
            break;
        }
        session.step();
        steps += 1;
    }
    for (unit, _) in taken.clone() {
        give_back(session, &mut taken, unit);
    }
    session.world.insert_resource(Autopilot(true));
    session.world.insert_resource(BattleRng::seeded(seed));
    let mut log = session.world.resource_mut::<CombatLog>();
    log.keep = keep;
    if !keep {
        log.entries.clear();
    }
}

/// True if `unit` is played by a person (not the AI).
fn player_controlled(session: &Session, unit: UnitId) -> bool {
    session
        .roster()
        .entity(unit)
        .and_then(|e| session.world.get::<Controller>(e))
        .is_some_and(|c| c.0 == Control::Player)
}

/// The scenario path to write in a save at `save`, for the scenario found at `found`
/// (from the working directory) and recorded as `recorded`: the recorded path when it
/// leads from the save's folder to that file, else the file's path relative to that
/// folder (so that the save replays from any working directory), else as found.
fn scenario_from(save: &Path, found: &Path, recorded: &Path) -> PathBuf {
    let Ok(target) = found.canonicalize() else {
        return recorded.to_path_buf();
    };
    let dir = crate::format::folder(save.parent());
    if dir.join(recorded).canonicalize().is_ok_and(|p| p == target) {
        return recorded.to_path_buf();
    }
    let Ok(dir) = dir.canonicalize() else {
        return found.to_path_buf();
    };
    let common = (dir.components())
        .zip(target.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut path = PathBuf::new();
    for _ in dir.components().skip(common) {
        path.push("..");
    }
    for c in target.components().skip(common) {
        path.push(c);
    }
    path
}

/// The scenario a save file names: a relative path from the save file's directory (as
/// the program writes it, [`scenario_from`]) if it exists there, else from the working
/// directory (a save written by hand, named as `run` names it); an absolute path as it is.
fn find_scenario(save: &Path, scenario: &Path) -> Option<PathBuf> {
    if scenario.is_relative()
        && let Some(dir) = save.parent()
    {
        let beside = dir.join(scenario);
        if beside.exists() {
            return Some(beside);
        }
    }
    scenario.exists().then(|| scenario.to_path_buf())
}

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

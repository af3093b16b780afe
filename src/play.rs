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

use crate::battle::{
    Autopilot, BattleEvent, Control, Controller, GmChange, OutcomeKind, TurnState, UnitId,
};
use crate::dice::BattleRng;
use crate::dice::{Modifier, RollRecord, RollSense};
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
/// order, with what the table added (dice rolled by hand, the GM's edits and take-overs).
/// This is the content of a save file (RON, `docs/save-format.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recording {
    /// The scenario file, as the user named it. When loading, a relative path that is not
    /// found from the working directory is looked up from the save file's directory.
    pub scenario: PathBuf,
    /// The dice seed.
    pub seed: u64,
    /// The ids of the sides whose players roll their own dice from the start: the window
    /// asks for the faces of their units' rolls (optional, default none; `OwnDice` entries
    /// switch a side during the battle).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub own_dice: Vec<String>,
    /// The player's decisions and the table's entries, in the order they were made.
    #[serde(default)]
    pub decisions: Vec<Decision>,
}

/// One entry of a recording: a unit's decision (the ruleset's action), or what the table
/// added ([`TableEntry`]). A decision is written in a save file as the ruleset's tag around
/// the command, `Gurps((unit: (0), action: (...)))`, and read back by that ruleset; a table
/// entry as its own variant, `Dice(...)`, `Gm(...)`, `TakeOver(...)` (see
/// `docs/save-format.md`).
#[derive(Clone)]
pub struct Decision {
    kind: Kind,
}

#[derive(Clone)]
enum Kind {
    Command {
        ruleset: &'static dyn ErasedRuleset,
        unit: UnitId,
        action: Arc<dyn Section>,
    },
    Table(TableEntry),
}

/// What the table adds to a battle besides its units' decisions, as a save records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum TableEntry {
    /// Faces a player rolled at the table and entered for a roll of `unit`: the faces of
    /// the battle's dice from index `draw` on (every die the battle draws has an index from
    /// 0, `dice::BattleRng`).
    Dice {
        /// Whose roll.
        unit: UnitId,
        /// The index of the first die entered.
        draw: u64,
        /// The faces, in order.
        faces: Vec<u32>,
    },
    /// The game master's edit of `unit`, made when the battle had taken `at` steps.
    Gm {
        /// Steps taken when it was made.
        at: u64,
        /// The unit edited (for `Add`, the unit copied).
        unit: UnitId,
        /// The edit.
        change: GmChange,
        /// Why, in the GM's words (optional).
        #[serde(default)]
        reason: String,
    },
    /// The game master takes the next decision of the AI's `unit`, from when the battle had
    /// taken `at` steps; the AI decides for it again after that decision.
    TakeOver {
        /// Steps taken when the GM took it over.
        at: u64,
        /// The AI's unit.
        unit: UnitId,
    },
    /// From when the battle had taken `at` steps, the players of side `side` (its id) roll
    /// their own dice (`on`) or leave them to the program.
    OwnDice {
        /// Steps taken when it was switched.
        at: u64,
        /// The side's id.
        side: String,
        /// Whether its players roll their own dice from then on.
        on: bool,
    },
}

/// The variants of a save's decisions that are the engine's, not a ruleset's.
const TABLE_TAGS: &[&str] = &["Dice", "Gm", "TakeOver", "OwnDice"];

impl TableEntry {
    /// The unit the entry is about (`None` for a side's switch).
    pub fn unit(&self) -> Option<UnitId> {
        match self {
            TableEntry::Dice { unit, .. }
            | TableEntry::Gm { unit, .. }
            | TableEntry::TakeOver { unit, .. } => Some(*unit),
            TableEntry::OwnDice { .. } => None,
        }
    }

    /// The step it takes effect at (`None` for dice, which take effect at their index).
    fn at(&self) -> Option<u64> {
        match self {
            TableEntry::Dice { .. } => None,
            TableEntry::Gm { at, .. }
            | TableEntry::TakeOver { at, .. }
            | TableEntry::OwnDice { at, .. } => Some(*at),
        }
    }
}

impl Decision {
    /// `unit`'s decision `action` in ruleset `R`.
    pub fn new<R: Ruleset>(unit: UnitId, action: R::Action) -> Self {
        Self {
            kind: Kind::Command {
                ruleset: Entry::<R>::ERASED,
                unit,
                action: Arc::new(action),
            },
        }
    }

    /// A table entry as a recording's entry.
    pub fn table(entry: TableEntry) -> Self {
        Self {
            kind: Kind::Table(entry),
        }
    }

    /// The unit that decides (or that the table entry is about; unit 0 for a side's own
    /// dice switch, which is about no unit).
    pub fn unit(&self) -> UnitId {
        match &self.kind {
            Kind::Command { unit, .. } => *unit,
            Kind::Table(entry) => entry.unit().unwrap_or(UnitId(0)),
        }
    }

    /// The ruleset the decision is for (`None` for a table entry).
    pub fn ruleset(&self) -> Option<&'static dyn ErasedRuleset> {
        match &self.kind {
            Kind::Command { ruleset, .. } => Some(*ruleset),
            Kind::Table(_) => None,
        }
    }

    /// The action, if the decision is ruleset `R`'s.
    pub fn action<R: Ruleset>(&self) -> Option<&R::Action> {
        match &self.kind {
            Kind::Command { action, .. } => (**action).as_any().downcast_ref::<R::Action>(),
            Kind::Table(_) => None,
        }
    }

    /// The table entry, if this is one.
    pub fn table_entry(&self) -> Option<&TableEntry> {
        match &self.kind {
            Kind::Command { .. } => None,
            Kind::Table(entry) => Some(entry),
        }
    }

    /// True for a unit's decision, a GM edit or take-over, or a side's own-dice switch (what
    /// undo takes back), false for entered dice.
    fn is_choice(&self) -> bool {
        !matches!(self.kind, Kind::Table(TableEntry::Dice { .. }))
    }

    /// Sends the decision to a battle world of `prepared`; an error when the decision is
    /// of another ruleset, or is a table entry.
    fn send(&self, world: &mut bevy::ecs::world::World, prepared: &Prepared) -> Result<(), String> {
        let Kind::Command {
            ruleset,
            unit,
            action,
        } = &self.kind
        else {
            return Err("a table entry is not a unit's decision".to_string());
        };
        if ruleset.tag() != prepared.rules.tag() {
            return Err(format!(
                "the decision is for another ruleset than the scenario's ({})",
                prepared.ruleset
            ));
        }
        prepared.rules.send(world, *unit, &**action)
    }
}

impl fmt::Debug for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Command {
                ruleset,
                unit,
                action,
            } => write!(
                f,
                "{}(Command {{ unit: {:?}, action: {:?} }})",
                ruleset.tag(),
                unit,
                action
            ),
            Kind::Table(entry) => write!(f, "{entry:?}"),
        }
    }
}

impl PartialEq for Decision {
    fn eq(&self, other: &Self) -> bool {
        match (&self.kind, &other.kind) {
            (
                Kind::Command {
                    ruleset,
                    unit,
                    action,
                },
                Kind::Command {
                    ruleset: r2,
                    unit: u2,
                    action: a2,
                },
            ) => ruleset.tag() == r2.tag() && unit == u2 && action.same_as(&**a2),
            (Kind::Table(a), Kind::Table(b)) => a == b,
            _ => false,
        }
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
        match &self.kind {
            Kind::Command {
                ruleset,
                unit,
                action,
            } => {
                let command = CommandRef {
                    unit: *unit,
                    action: &**action,
                };
                serializer.serialize_newtype_variant("Decision", 0, ruleset.tag(), &command)
            }
            Kind::Table(entry) => entry.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Decision {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::scenario::contract::read_section_or(
            deserializer,
            "Decision",
            TABLE_TAGS,
            |ron| {
                ron_options()
                    .from_str::<TableEntry>(ron)
                    .map(Decision::table)
            },
            |ruleset, ron| {
                ruleset
                    .parse_command(ron, "Decision")
                    .map(|(unit, action)| Decision {
                        kind: Kind::Command {
                            ruleset,
                            unit,
                            action,
                        },
                    })
            },
        )
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
            kind: Kind::Command {
                ruleset: rules,
                unit,
                action,
            },
        })
}

impl Recording {
    /// An empty recording of a battle of `scenario` with dice seeded by `seed`.
    pub fn new(scenario: PathBuf, seed: u64) -> Self {
        Self {
            scenario,
            seed,
            own_dice: Vec::new(),
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

/// A roll of a unit whose player rolls their own dice, waiting for its faces: what the
/// window's dice prompt shows ([`Play::pending_dice`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DiceRequest {
    /// Whose roll.
    pub unit: UnitId,
    /// What the roll is for, in words ("attack on Bruno with Broadsword").
    pub purpose: String,
    /// The dice to roll now, in words ("3d6", "1 more d6").
    pub dice: String,
    /// How many dice to enter now.
    pub count: usize,
    /// Their sides.
    pub sides: u32,
    /// The roll's labelled modifiers (for a roll-under roll, the parts of its target).
    pub modifiers: Vec<Modifier>,
    /// What the roll must reach (roll-over) or not exceed (roll-under), if anything.
    pub target: Option<i32>,
    /// How the numbers combine.
    pub sense: RollSense,
    /// The faces already entered for this roll (a roll that goes on: a second d12, an
    /// exploding six).
    pub entered: Vec<u32>,
    /// The index of the first die to enter among the battle's dice.
    pub draw: u64,
}

impl DiceRequest {
    /// Whether `faces` fit the request (count and sides), or why not.
    pub fn check(&self, faces: &[u32]) -> Result<(), String> {
        if faces.len() != self.count {
            return Err(format!(
                "{} asks for {} face{}, not {}",
                self.dice,
                self.count,
                if self.count == 1 { "" } else { "s" },
                faces.len()
            ));
        }
        if let Some(bad) = faces.iter().find(|&&f| f < 1 || f > self.sides) {
            return Err(format!(
                "{bad} is not a face of a d{} (1 to {})",
                self.sides, self.sides
            ));
        }
        Ok(())
    }
}

/// A roll found waiting for faces, and what to do again once they are entered.
#[derive(Clone)]
struct Pending {
    request: DiceRequest,
    /// The decision whose resolution rolled it (`None`: an AI step).
    redo: Option<Decision>,
}

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
        let mut recording = Recording::new(scenario, seed);
        recording.own_dice = own_dice;
        let mut play = Self {
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
        if self.pending.as_ref().is_some_and(|p| p.redo.is_some()) {
            let drawn = self.session.world.resource::<BattleRng>().count();
            recording.decisions.retain(|d| match d.table_entry() {
                Some(TableEntry::Dice { draw, .. }) => *draw < drawn,
                _ => true,
            });
        }
        let text = recording.to_ron()?;
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

    // The table: dice rolled by hand, GM edits, take-overs.

    /// Whether the players of side `side` (its id) roll their own dice now.
    pub fn own_dice(&self, side: &str) -> bool {
        self.own.iter().any(|s| s == side)
    }

    /// Lets the players of side `side` (its id) roll their own dice, or hands their rolls
    /// back to the program, from the next roll on. Before the first step it is the
    /// battle's setting (the save's `own_dice`); later, an entry of the recording, so a
    /// replay switches at the same point. Nothing changes while a roll waits for dice, or
    /// when the side is already so.
    pub fn set_own_dice(&mut self, side: &str, on: bool) {
        if self.pending.is_some() || self.own_dice(side) == on {
            return;
        }
        self.script.clear();
        switch(&mut self.own, side, on);
        if self.steps == 0 && self.recording.decisions.is_empty() {
            self.recording.own_dice = self.own.clone();
        } else {
            self.recording
                .decisions
                .push(Decision::table(TableEntry::OwnDice {
                    at: self.steps,
                    side: side.to_string(),
                    on,
                }));
        }
    }

    /// The roll waiting for the faces its player rolled at the table, if any.
    pub fn pending_dice(&self) -> Option<&DiceRequest> {
        self.pending.as_ref().map(|p| &p.request)
    }

    /// Enters the faces rolled at the table for the roll waiting for them: checked
    /// against the dice asked for (count and sides; nothing changes when they do not fit),
    /// recorded, and the battle goes on with them (which may ask for more dice: the roll
    /// going on, or the next roll).
    pub fn enter_dice(&mut self, faces: &[u32]) -> Result<(), String> {
        let Some(pending) = &self.pending else {
            return Err("no roll waits for dice".to_string());
        };
        pending.request.check(faces)?;
        let Some(Pending { request, redo }) = self.pending.take() else {
            return Err("no roll waits for dice".to_string());
        };
        self.session
            .world
            .resource_mut::<BattleRng>()
            .enter(request.draw, faces);
        self.recording
            .decisions
            .push(Decision::table(TableEntry::Dice {
                unit: request.unit,
                draw: request.draw,
                faces: faces.to_vec(),
            }));
        match redo {
            Some(decision) => self.apply(decision),
            None => match self.advance() {
                Advance::ReplayFailed(e) => Err(e.reason),
                _ => Ok(()),
            },
        }
    }

    /// What the game master may change on `unit` now (its ruleset's fields, `battle::gm`).
    pub fn gm_fields(&self, unit: UnitId) -> Vec<crate::battle::GmField> {
        let session = &self.session;
        session
            .roster()
            .entity(unit)
            .map(|e| session.prepared().rules.gm_fields(&session.world, e))
            .unwrap_or_default()
    }

    /// The game master's edit of `unit` (`battle::gm`), with the reason given: applied
    /// and logged when the rules accept it ([`Session::gm_edit`]), and recorded so that a
    /// replay makes it at the same point; the change in words, or why it was refused
    /// (nothing changes then).
    pub fn gm_edit(
        &mut self,
        unit: UnitId,
        change: GmChange,
        reason: &str,
    ) -> Result<String, String> {
        if self.pending.is_some() {
            return Err("a roll waits for its dice: enter them first".to_string());
        }
        self.script.clear();
        let words = self.session.gm_edit(unit, &change, reason)?;
        self.recording
            .decisions
            .push(Decision::table(TableEntry::Gm {
                at: self.steps,
                unit,
                change,
                reason: reason.trim().to_string(),
            }));
        Ok(words)
    }

    /// The game master takes the next decision of the AI's `unit`: the battle waits for it
    /// as for a player's ([`Play::awaiting_player`], [`Play::decide`]), and the AI decides
    /// for it again after that one decision. Recorded, so a replay does the same.
    pub fn take_over(&mut self, unit: UnitId) -> Result<(), String> {
        if self.pending.is_some() {
            return Err("a roll waits for its dice: enter them first".to_string());
        }
        if self.session.outcome().is_some() {
            return Err("the battle is over".to_string());
        }
        self.script.clear();
        take_over(&mut self.session, &mut self.taken, unit)?;
        self.recording
            .decisions
            .push(Decision::table(TableEntry::TakeOver {
                at: self.steps,
                unit,
            }));
        Ok(())
    }

    /// True when the GM has taken `unit`'s next decision from the AI.
    pub fn taken_over(&self, unit: UnitId) -> bool {
        self.taken.iter().any(|(u, _)| *u == unit)
    }

    /// Plays the table's entries at the front of the script that are due at this step
    /// (GM edits, take-overs; dice are in place since the rewind and only rejoin the
    /// recording here).
    fn play_due(&mut self) -> Result<(), ReplayError> {
        while let Some(entry) = self.script.front().and_then(|d| d.table_entry()).cloned() {
            match entry.at() {
                Some(at) if at > self.steps => break,
                Some(at) if at < self.steps => {
                    let decision = self.script.pop_front().unwrap_or_else(|| {
                        Decision::table(entry.clone()) // the front, just read
                    });
                    let reason = format!(
                        "it was made at step {at}, but the battle is at step {} here",
                        self.steps
                    );
                    return Err(self.replay_error(&decision, reason));
                }
                _ => {}
            }
            let Some(decision) = self.script.pop_front() else {
                break;
            };
            let played = match &entry {
                TableEntry::Dice { .. } => Ok(()),
                TableEntry::Gm {
                    unit,
                    change,
                    reason,
                    ..
                } => self.session.gm_edit(*unit, change, reason).map(|_| ()),
                TableEntry::TakeOver { unit, .. } => {
                    take_over(&mut self.session, &mut self.taken, *unit)
                }
                TableEntry::OwnDice { side, on, .. } => {
                    if self.session.sides().0.iter().any(|s| s.id == *side) {
                        switch(&mut self.own, side, *on);
                        Ok(())
                    } else {
                        Err(format!("no side `{side}` in the scenario"))
                    }
                }
            };
            if let Err(reason) = played {
                return Err(self.replay_error(&decision, reason));
            }
            self.recording.decisions.push(decision);
        }
        Ok(())
    }

    /// A dice entry that did not fit its die (the battle used the generator's face), as a
    /// replay error at that entry.
    fn check_dice(&self) -> Result<(), ReplayError> {
        let rng = self.session.world.resource::<BattleRng>();
        let roster = self.session.roster();
        // Faces entered for the first dice of the roll waiting for more are for dice the
        // battle, put back before that roll, has not drawn yet.
        let waiting_from = self.pending.as_ref().map(|p| p.request.draw);
        let all = self.recording.decisions.iter().chain(self.script.iter());
        for (index, d) in all.clone().enumerate() {
            let Some(TableEntry::Dice { unit, draw, faces }) = d.table_entry() else {
                continue;
            };
            let end = draw.checked_add(faces.len() as u64);
            let for_waiting = waiting_from.is_some_and(|w| *draw >= rng.count() && *draw < w);
            let reason = if roster.entity(*unit).is_none() {
                format!("there is no unit {} in this battle", unit.0)
            } else if faces.is_empty() {
                "no faces are entered".to_string()
            } else if end.is_none() {
                format!("die index {draw} is past any battle's dice")
            } else if end.is_some_and(|e| e > rng.count()) && !for_waiting {
                match rng.count() {
                    0 => "faces entered for dice the battle never rolled (it rolled none)"
                        .to_string(),
                    n => format!(
                        "faces entered for dice the battle never rolled (it rolled {n} dice, \
                         indices 0 to {})",
                        n - 1
                    ),
                }
            } else {
                continue;
            };
            return Err(ReplayError {
                index,
                unit: *unit,
                name: roster.name(*unit).to_string(),
                reason,
                no_unit: false,
            });
        }
        let Some(misfit) = rng.misfit() else {
            return Ok(());
        };
        for (index, d) in all.enumerate() {
            if let Some(TableEntry::Dice { unit, draw, faces }) = d.table_entry()
                && (*draw..draw.saturating_add(faces.len() as u64)).contains(&misfit.draw)
            {
                return Err(ReplayError {
                    index,
                    unit: *unit,
                    name: self.session.roster().name(*unit).to_string(),
                    reason: format!(
                        "the die at index {} is a d{}, and {} is not one of its faces",
                        misfit.draw, misfit.sides, misfit.face
                    ),
                    no_unit: false,
                });
            }
        }
        Ok(())
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

    /// The first roll made since `mark` by a unit whose players roll their own dice with a
    /// die not entered yet (none while replaying recorded entries: a recording has its
    /// dice).
    fn find_roll(&self, mark: &Mark) -> Option<DiceRequest> {
        if self.quiet || self.own.is_empty() || !self.script.is_empty() {
            return None;
        }
        let session = &self.session;
        let roster = session.roster();
        let sides = session.sides();
        let rng = session.world.resource::<BattleRng>();
        let own = |unit: UnitId| {
            roster
                .units
                .get(unit.0 as usize)
                .and_then(|u| sides.0.get(usize::from(u.side)))
                .is_some_and(|s| self.own.contains(&s.id))
        };
        for entry in &session.log().entries[mark.log..] {
            for (unit, purpose, roll) in rolls_of(&entry.event, roster) {
                if !own(unit) {
                    continue;
                }
                if let Some(request) = request_for(unit, purpose, roll, rng, mark.drawn) {
                    return Some(request);
                }
            }
        }
        None
    }

    /// Puts the battle back to before the step that made `request`'s roll and waits for
    /// its faces; `redo` is the decision to send again once they are entered.
    fn wait_for_dice(&mut self, steps: u64, request: DiceRequest, redo: Option<Decision>) {
        self.rewind_to(steps);
        self.pending = Some(Pending { request, redo });
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

    /// Drops the roll waiting for its dice. When a player's decision rolled it, the faces
    /// already entered for it (a roll that went on) go too: the decision is not made. When
    /// an AI step rolled it they stay: the step runs again and rolls them. The pending
    /// entry, if there was one.
    fn drop_pending(&mut self) -> Option<Pending> {
        let pending = self.pending.take()?;
        if pending.redo.is_some() {
            self.forget_undrawn();
        }
        Some(pending)
    }

    /// Drops the dice entries for dice the battle has not drawn (entered for a roll that
    /// is no longer to come), from the recording and the generator.
    fn forget_undrawn(&mut self) {
        let drawn = self.session.world.resource::<BattleRng>().count();
        self.recording.decisions.retain(|d| match d.table_entry() {
            Some(TableEntry::Dice { draw, .. }) => *draw < drawn,
            _ => true,
        });
        self.session
            .world
            .resource_mut::<BattleRng>()
            .forget_from(drawn);
    }
}

/// Where a battle stood before a step.
struct Mark {
    steps: u64,
    log: usize,
    drawn: u64,
}

/// The rolls an event shows with the unit that rolled each ([`BattleEvent::rolls`]) and
/// what for, in words.
fn rolls_of<'a>(
    event: &'a BattleEvent,
    roster: &crate::battle::Roster,
) -> Vec<(UnitId, String, &'a RollRecord)> {
    let purpose = |i: usize| match event {
        BattleEvent::Roll { purpose, .. } => purpose.to_string(),
        BattleEvent::Attack {
            attacker,
            target,
            weapon,
            defenses,
            ..
        } => match i.checked_sub(1).and_then(|d| defenses.get(d)) {
            None => format!("attack on {} with {weapon}", roster.name(*target)),
            Some(d) => format!("{} against {}", d.defense, roster.name(*attacker)),
        },
        BattleEvent::Damage { target, .. } => format!("damage to {}", roster.name(*target)),
        _ => String::new(),
    };
    event
        .rolls()
        .into_iter()
        .enumerate()
        .filter_map(|(i, (unit, roll))| unit.map(|u| (u, purpose(i), roll)))
        .collect()
}

/// The dice still to enter for `roll` of `unit`, drawn since index `since`: its first
/// dice (as many as its name says: 3 for 3d6) when none is entered, else the next one
/// (a second d12, an exploding six, an open-ended roll going on). `None` when every die is
/// entered, or the roll's dice were drawn before `since` or are not counted.
fn request_for(
    unit: UnitId,
    purpose: String,
    roll: &RollRecord,
    rng: &BattleRng,
    since: u64,
) -> Option<DiceRequest> {
    let first = roll.drawn.first.filter(|&f| f >= since)?;
    let all: Vec<u32> = roll.faces.iter().chain(&roll.extra).copied().collect();
    let (base, sides) = roll.dice.shape()?;
    let missing = (0..all.len()).find(|&i| !rng.is_entered(first + i as u64))?;
    let (count, dice) = if missing == 0 {
        let count = (base as usize).clamp(1, all.len());
        (count, roll.dice.to_string())
    } else {
        (1, format!("1 more d{sides}"))
    };
    let ours = |m: &&Modifier| !matches!(&*m.label, "open-ended" | "each 6 counts 5");
    Some(DiceRequest {
        unit,
        purpose,
        dice,
        count,
        sides,
        modifiers: roll.modifiers.iter().filter(ours).cloned().collect(),
        target: roll.target,
        sense: roll.sense,
        entered: all[..missing].to_vec(),
        draw: first + missing as u64,
    })
}

/// Hands the AI's `unit` to the GM for its next decision (its control kept in `taken`).
fn take_over(
    session: &mut Session,
    taken: &mut Vec<(UnitId, Control)>,
    unit: UnitId,
) -> Result<(), String> {
    let roster = session.roster();
    let name = roster.name(unit).to_string();
    let Some(entity) = roster.entity(unit) else {
        return Err(format!("there is no unit {} in this battle", unit.0));
    };
    let world = &mut session.world;
    if !world
        .get::<crate::battle::Standing>(entity)
        .is_some_and(|s| s.fighting())
    {
        return Err(format!("{name} is out of the fight"));
    }
    let Some(mut controller) = world.get_mut::<Controller>(entity) else {
        return Err(format!("{name} has no controller"));
    };
    if controller.0 == Control::Player {
        return Err(if taken.iter().any(|(u, _)| *u == unit) {
            format!("{name}'s next decision is already the GM's")
        } else {
            format!("{name} is a player's unit")
        });
    }
    taken.push((unit, controller.0));
    controller.0 = Control::Player;
    Ok(())
}

/// Adds side `side` to the sides that roll their own dice, or takes it out.
fn switch(own: &mut Vec<String>, side: &str, on: bool) {
    own.retain(|s| s != side);
    if on {
        own.push(side.to_string());
    }
}

/// Gives a unit the GM took over back to the AI (nothing for any other unit).
fn give_back(session: &mut Session, taken: &mut Vec<(UnitId, Control)>, unit: UnitId) {
    let Some(i) = taken.iter().position(|(u, _)| *u == unit) else {
        return;
    };
    let (_, control) = taken.remove(i);
    if let Some(entity) = session.roster().entity(unit)
        && let Some(mut c) = session.world.get_mut::<Controller>(entity)
    {
        c.0 = control;
    }
}

/// Puts `session` (of the recording's scenario, with any options) where the recorded
/// battle stands, then hands every side to the AI with fresh dice seeded by `seed`: the
/// start of a preview that fights a battle in progress on many times (see
/// `preview::run_preview_from`). Needs no log. The recorded decisions and the table's
/// entries are replayed as far as the battle takes them; one that cannot be played (which
/// [`Play::load`] would have reported) ends the replay there.
pub fn continue_from(session: &mut Session, recording: &Recording, seed: u64) {
    session.reset(recording.seed);
    session.world.insert_resource(Autopilot(false));
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
            break;
        }
        let prepared = session.prepared().clone();
        if decision.send(&mut session.world, &prepared).is_err() {
            break;
        }
        session.step();
        steps += 1;
        // An accepted decision ends the unit's turn; a refused one leaves it waiting.
        if session.world.resource::<TurnState>().awaiting == Some(unit) {
            break;
        }
        give_back(session, &mut taken, unit);
    }
    for (unit, _) in taken.clone() {
        give_back(session, &mut taken, unit);
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

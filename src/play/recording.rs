//! What a battle's save file holds ([`Recording`]): the scenario, the seed, and every
//! entry in the order it was made: the units' decisions (a ruleset's action) and the
//! table's entries ([`TableEntry`]: dice rolled by hand, GM edits, take-overs, own-dice
//! switches); how it is read and written as RON (`docs/save-format.md`), and the located
//! errors of a save that cannot be loaded ([`LoadError`]).

use crate::battle::{GmChange, UnitId};
use crate::format::ron_options;
use crate::scenario::{ErasedRuleset, Prepared, Registry, Ruleset, ScenarioError, ScenarioErrors};
use crate::scenario::{Section, contract::Entry};
use miette::Diagnostic;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

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
    pub(super) kind: Kind,
}

#[derive(Clone)]
pub(super) enum Kind {
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
    pub(super) fn at(&self) -> Option<u64> {
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
    pub(super) fn is_choice(&self) -> bool {
        !matches!(self.kind, Kind::Table(TableEntry::Dice { .. }))
    }

    /// Sends the decision to a battle world of `prepared`; an error when the decision is
    /// of another ruleset, or is a table entry.
    pub(super) fn send(
        &self,
        world: &mut bevy::ecs::world::World,
        prepared: &Prepared,
    ) -> Result<(), String> {
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

impl Recording {
    /// Drops the faces entered for the dice from index `drawn` on (dice the battle has not
    /// rolled where it stands).
    pub(super) fn drop_dice_from(&mut self, drawn: u64) {
        self.decisions.retain(|d| match d.table_entry() {
            Some(TableEntry::Dice { draw, .. }) => *draw < drawn,
            _ => true,
        });
    }

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
    pub(super) fn in_save(error: SaveError) -> Self {
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

//! [`RollRecord`]: what one roll was, kept for the combat log so every number can be
//! checked by hand: the dice, each face, every modifier with its label, the total, the
//! target, the margin and any critical.

use super::DiceExpr;
use serde::{Serialize, Serializer};
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A label: fixed text (no allocation), or text made at run time and shared, so copying a
/// label into each roll costs a reference count, not an allocation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// Fixed text.
    Static(&'static str),
    /// Text made at run time (a skill or weapon name).
    Shared(Arc<str>),
}

impl Deref for Label {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Label::Static(s) => s,
            Label::Shared(s) => s,
        }
    }
}

impl Label {
    /// The label `make` makes, or an empty one where nobody reads it (`quiet`: a battle
    /// that keeps no log), so that a preview makes no words for its rolls.
    pub fn unless_quiet<L: Into<Label>>(quiet: bool, make: impl FnOnce() -> L) -> Label {
        if quiet {
            Label::Static("")
        } else {
            make().into()
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl Serialize for Label {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self)
    }
}

impl From<&'static str> for Label {
    fn from(s: &'static str) -> Self {
        Label::Static(s)
    }
}

impl From<String> for Label {
    fn from(s: String) -> Self {
        Label::Shared(s.into())
    }
}

impl From<Arc<str>> for Label {
    fn from(s: Arc<str>) -> Self {
        Label::Shared(s)
    }
}

/// The dice of a roll: a fixed name ("3d6") or a dice expression, printed when shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiceName {
    /// A fixed name.
    Fixed(&'static str),
    /// A dice expression such as `2d+1`.
    Expr(DiceExpr),
}

impl DiceName {
    /// The dice a roll of this name starts with, as (count, sides): `3d6` is (3, 6), `d12`
    /// (1, 12), `3d` and `2d+1` (3 and 2 d6). `None` for a name that rolls no dice (a level
    /// of damage).
    /// Open-ended and exploding rolls may add dice of the same sides after these.
    pub fn shape(&self) -> Option<(u32, u32)> {
        match self {
            DiceName::Expr(e) => Some((e.count, e.sides)),
            DiceName::Fixed(name) => {
                let (count, sides) = name.split_once('d')?;
                let count = if count.is_empty() {
                    1
                } else {
                    count.parse().ok()?
                };
                // GURPS writes `3d` for 3d6.
                let sides = if sides.is_empty() {
                    6
                } else {
                    sides.parse().ok()?
                };
                Some((count, sides))
            }
        }
    }
}

impl fmt::Display for DiceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiceName::Fixed(s) => f.write_str(s),
            DiceName::Expr(e) => write!(f, "{e}"),
        }
    }
}

impl Serialize for DiceName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// One labelled modifier of a roll (or, for roll-under rolls, one part of the target,
/// the first usually being the base skill).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Modifier {
    /// What the modifier is for, e.g. "Broadsword" or "range/speed".
    pub label: Label,
    /// Its value; negative for a penalty.
    pub value: i32,
}

impl Modifier {
    /// A modifier with a fixed label.
    pub fn new(label: &'static str, value: i32) -> Self {
        Self {
            label: Label::Static(label),
            value,
        }
    }

    /// A modifier whose label `label` makes, unlabelled where nobody reads it (`quiet`: a
    /// battle that keeps no log; see [`Label::unless_quiet`]).
    pub fn unless_quiet<L: Into<Label>>(
        quiet: bool,
        value: i32,
        label: impl FnOnce() -> L,
    ) -> Self {
        Self::named(Label::unless_quiet(quiet, label), value)
    }

    /// A modifier whose label is made at run time (a skill or weapon name).
    pub fn named(label: impl Into<Label>, value: i32) -> Self {
        Self {
            label: label.into(),
            value,
        }
    }
}

/// Where a rule puts the modifiers it finds: a list with their labels, for a roll the log
/// shows, or only their sum ([`Sum`]), where nobody reads them (the AI weighing its
/// options many times a turn), so that one function of the rules serves both.
pub trait Gather {
    /// Adds a modifier.
    fn push(&mut self, modifier: Modifier);

    /// The sum of the modifiers so far.
    fn total(&self) -> i32;

    /// Adds a modifier whose label is made at run time by `label`, which is not called
    /// where labels are dropped.
    fn push_named<L: Into<Label>>(&mut self, value: i32, label: impl FnOnce() -> L) {
        self.push(Modifier::named(label(), value));
    }

    /// Adds some modifiers.
    fn push_all(&mut self, modifiers: impl IntoIterator<Item = Modifier>) {
        for m in modifiers {
            self.push(m);
        }
    }
}

/// A roll's modifiers as the rules gather them: labelled, or, where nobody reads them (a
/// battle that keeps no log), the same values in the same order with no labels put
/// together ([`Gather::push_named`] does not call its label).
pub struct RollModifiers {
    list: Vec<Modifier>,
    quiet: bool,
}

impl RollModifiers {
    /// The modifiers `gather` gathers, labelled unless `quiet`.
    pub fn of(quiet: bool, gather: impl FnOnce(&mut RollModifiers)) -> Vec<Modifier> {
        let mut mods = RollModifiers {
            list: Vec::with_capacity(6),
            quiet,
        };
        gather(&mut mods);
        mods.list
    }
}

impl Gather for RollModifiers {
    fn push(&mut self, modifier: Modifier) {
        self.list.push(modifier);
    }

    fn push_named<L: Into<Label>>(&mut self, value: i32, label: impl FnOnce() -> L) {
        self.list
            .push(Modifier::unless_quiet(self.quiet, value, label));
    }

    fn total(&self) -> i32 {
        self.list.total()
    }
}

impl Gather for Vec<Modifier> {
    fn push(&mut self, modifier: Modifier) {
        Vec::push(self, modifier);
    }

    fn total(&self) -> i32 {
        self.iter().map(|m| m.value).sum()
    }
}

/// Modifiers summed, their labels dropped ([`Gather`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sum(pub i32);

impl Sum {
    /// The sum of what `gather` gathers (a rule's modifiers, labels dropped).
    pub fn of(gather: impl FnOnce(&mut Sum)) -> i32 {
        let mut sum = Sum::default();
        gather(&mut sum);
        sum.0
    }
}

impl Gather for Sum {
    fn push(&mut self, modifier: Modifier) {
        self.0 += modifier.value;
    }

    fn push_named<L: Into<Label>>(&mut self, value: i32, _: impl FnOnce() -> L) {
        self.0 += value;
    }

    fn total(&self) -> i32 {
        self.0
    }
}

/// How the numbers of a roll combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum RollSense {
    /// Roll-under (GURPS): the modifiers sum to the target; the dice must not exceed it.
    Under,
    /// Roll-over: total = faces + modifiers, which must meet or beat the target.
    Over,
    /// starship-d12: the modifiers decide whether a second die is rolled; total = faces.
    D12,
}

/// A critical result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Critical {
    /// Critical success.
    Success,
    /// Critical failure.
    Failure,
}

/// Everything about one roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RollRecord {
    /// The dice rolled, e.g. "3d6" or "2d+1".
    pub dice: DiceName,
    /// Faces of the dice that count towards the total.
    pub faces: Vec<u32>,
    /// Faces rolled only to decide an open-ended bonus; they do not add up themselves.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<u32>,
    /// How faces, modifiers and target combine.
    pub sense: RollSense,
    /// Every modifier with its label.
    pub modifiers: Vec<Modifier>,
    /// The result of the roll (for roll-under, the dice alone).
    pub total: i32,
    /// What the roll had to reach (roll-over) or not exceed (roll-under), if anything.
    pub target: Option<i32>,
    /// What a roll-over target is made of, when it is a sum worth showing (a Vergeworlds
    /// attack's difficulty: the base, an aimed location, the defense's degree); empty
    /// when the target is one number.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub target_parts: Vec<Modifier>,
    /// Margin of success (positive) or failure (negative).
    pub margin: Option<i32>,
    /// Whether the roll succeeded, if it had a target.
    pub success: Option<bool>,
    /// A critical success or failure, if any.
    pub critical: Option<Critical>,
    /// Where its dice sit among the battle's dice and whether a person entered them (JSON:
    /// `"entered": true` for a roll rolled at the table, nothing otherwise).
    #[serde(
        rename = "entered",
        skip_serializing_if = "Drawn::by_program",
        serialize_with = "Drawn::serialize_entered"
    )]
    pub drawn: Drawn,
}

/// Where a roll's dice sit in the battle's sequence of dice (every die the battle's
/// [`BattleRng`](super::BattleRng) draws has an index, from 0), and whether a person rolled
/// some of them at the table and entered the faces (a physical-dice side).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    /// Index of the roll's first die, when the roller counts its dice (the battle's does;
    /// scripted test dice do not).
    pub first: Option<u64>,
    /// Some of its faces were entered by hand.
    pub entered: bool,
}

impl Drawn {
    /// True when the program rolled every die of the roll.
    pub fn by_program(&self) -> bool {
        !self.entered
    }

    fn serialize_entered<S: Serializer>(drawn: &Drawn, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(drawn.entered)
    }
}

/// What a roll kept behind the screen shows instead of its dice.
const BEHIND_THE_SCREEN: &str = "rolled behind the screen";

impl RollRecord {
    /// The roll as a shared log shows it when the GM rolled it behind the screen: no dice,
    /// no modifiers, no target; its result (success, critical) is kept, since what follows
    /// from it is told anyway.
    pub fn behind_the_screen(&self) -> RollRecord {
        RollRecord {
            dice: DiceName::Fixed(BEHIND_THE_SCREEN),
            faces: Vec::new(),
            extra: Vec::new(),
            modifiers: Vec::new(),
            target: None,
            target_parts: Vec::new(),
            margin: None,
            ..self.clone()
        }
    }

    /// True for a roll kept [`RollRecord::behind_the_screen`].
    pub fn is_behind_the_screen(&self) -> bool {
        self.faces.is_empty() && matches!(self.dice, DiceName::Fixed(BEHIND_THE_SCREEN))
    }

    /// True when the roll had a target and made it.
    pub fn succeeded(&self) -> bool {
        self.success == Some(true)
    }

    /// Sum of the modifiers.
    pub fn modifier_sum(&self) -> i32 {
        super::modifier_total(&self.modifiers)
    }
}

fn write_faces(f: &mut fmt::Formatter<'_>, faces: &[u32]) -> fmt::Result {
    write!(f, "[")?;
    for (i, face) in faces.iter().enumerate() {
        if i > 0 {
            write!(f, " ")?;
        }
        write!(f, "{face}")?;
    }
    write!(f, "]")
}

fn write_modifiers(
    f: &mut fmt::Formatter<'_>,
    modifiers: &[Modifier],
    first_plain: bool,
) -> fmt::Result {
    for (i, m) in modifiers.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        if m.label.is_empty() {
            write!(f, "{:+}", m.value)?;
        } else if i == 0 && first_plain {
            write!(f, "{} {}", m.label, m.value)?;
        } else {
            write!(f, "{} {:+}", m.label, m.value)?;
        }
    }
    Ok(())
}

impl fmt::Display for RollRecord {
    /// One line a player can check by hand, e.g.
    /// `3d6 [4 2 5] = 11 vs 13 (Broadsword 13, range/speed -4, Aim +4): success by 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.faces.is_empty() && self.extra.is_empty() && self.modifiers.is_empty() {
            // Nothing rolled and nothing added: the record names what decided it (a SOCS
            // shot at a planet: "hits automatically").
            return write!(f, "{}", self.dice);
        }
        if self.faces.is_empty() && self.extra.is_empty() && !self.modifiers.is_empty() {
            // Nothing rolled: a sum of labelled numbers (Main Sequence damage).
            write_modifiers(f, &self.modifiers, true)?;
            return write!(f, " = {}", self.total);
        }
        write!(f, "{} ", self.dice)?;
        if self.drawn.entered {
            write!(f, "entered ")?;
        }
        write_faces(f, &self.faces)?;
        if !self.extra.is_empty() {
            write!(f, " then ")?;
            write_faces(f, &self.extra)?;
        }
        match self.sense {
            RollSense::Under => {
                write!(f, " = {}", self.total)?;
                if let Some(t) = self.target {
                    write!(f, " vs {t}")?;
                    if !self.modifiers.is_empty() {
                        write!(f, " (")?;
                        write_modifiers(f, &self.modifiers, true)?;
                        write!(f, ")")?;
                    }
                }
            }
            RollSense::Over => {
                if !self.modifiers.is_empty() {
                    write!(f, " ")?;
                    write_modifiers(f, &self.modifiers, false)?;
                }
                write!(f, " = {}", self.total)?;
                if let Some(t) = self.target {
                    write!(f, " vs {t}")?;
                    if !self.target_parts.is_empty() {
                        write!(f, " (")?;
                        write_modifiers(f, &self.target_parts, true)?;
                        write!(f, ")")?;
                    }
                }
            }
            RollSense::D12 => {
                write!(f, " = {}", self.total)?;
                if !self.modifiers.is_empty() {
                    write!(
                        f,
                        " (second die if the first is under {}: ",
                        self.modifier_sum()
                    )?;
                    write_modifiers(f, &self.modifiers, true)?;
                    write!(f, ")")?;
                }
                if let Some(t) = self.target {
                    write!(f, " vs {t}")?;
                }
            }
        }
        if self.sense == RollSense::D12 && self.target.is_some() && self.critical.is_some() {
            // starship-d12: a natural 12 always succeeds and a natural 1 (gunnery) always
            // fails, whatever the total; a margin would only mislead.
            return match self.critical {
                Some(Critical::Success) => write!(f, ": natural 12, a success"),
                _ => write!(f, ": natural 1, a failure"),
            };
        }
        if let (Some(success), Some(margin)) = (self.success, self.margin) {
            let word = match (self.critical, success) {
                (Some(Critical::Success), _) => "critical success",
                (Some(Critical::Failure), _) => "critical failure",
                (None, true) => "success",
                (None, false) => "failure",
            };
            write!(f, ": {word} by {}", margin.abs())?;
        } else if let Some(c) = self.critical {
            match c {
                Critical::Success => write!(f, " (critical)")?,
                Critical::Failure => write!(f, " (fumble)")?,
            }
        }
        Ok(())
    }
}

//! The scenario editor's state (`skirmish edit`, the window's **Edit**): a scenario being
//! changed, every change a plain function of [`Editor`] that the window only calls, each
//! one undoable and checked at once with the checks of `skirmish check`.
//!
//! Nothing here knows a ruleset: a stat block's form and the ruleset's settings are the
//! fields its own reader takes ([`scenario::fields`](crate::scenario::fields)), a new
//! scenario starts from the ruleset's [`NEW_SCENARIO`](crate::scenario::Ruleset::NEW_SCENARIO),
//! and the file is written by the one scenario writer, keeping the comments of the parts
//! left as they were.

use crate::format::{Path, Problem};
use crate::hexmap::{Compass, HexMap, MapShape, Terrain};
use crate::scenario::{
    Original, Prepared, Registry, ScenarioFile, SideSpec, Tagged, UnitSpec, UnitStats, fields,
    to_ron, to_ron_from, validate, with_field,
};
use hexx::Hex;
use std::path::PathBuf;
use std::sync::Arc;

/// The compass points clockwise from north (a map has six of them).
const CLOCKWISE: [Compass; 8] = [
    Compass::North,
    Compass::NorthEast,
    Compass::East,
    Compass::SouthEast,
    Compass::South,
    Compass::SouthWest,
    Compass::West,
    Compass::NorthWest,
];

/// Most changes kept for undo.
const UNDO_DEPTH: usize = 200;

/// A scenario being edited.
pub struct Editor {
    registry: &'static Registry,
    file: ScenarioFile,
    /// The text and scenario as opened or last saved: what the writer keeps comments of.
    original: Option<(String, ScenarioFile)>,
    path: Option<PathBuf>,
    undo: Vec<ScenarioFile>,
    redo: Vec<ScenarioFile>,
    /// The scenario checked: ready to fight, or its problems.
    checked: Result<Arc<Prepared>, Vec<Problem>>,
    /// The line and column of each problem of the file as opened or last saved, in its
    /// text ([`Editor::line_of`]): worked out once, not at every frame that lists them.
    lines: Vec<(Path, (usize, usize))>,
}

/// Why [`Editor::open`] could not open a file.
#[derive(Debug)]
pub enum OpenError {
    /// It could not be read (missing, a directory, not UTF-8...): the sentence.
    Read(String),
    /// It is not RON at all: the problem with its file, line and column, as `check`
    /// reports it.
    NotRon(crate::scenario::ScenarioErrors),
}

impl OpenError {
    /// The error in words, for a terminal (`color`) or the window.
    pub fn render(&self, color: bool) -> String {
        match self {
            OpenError::Read(why) => why.clone(),
            OpenError::NotRon(errors) => errors.render(color),
        }
    }
}

impl Editor {
    /// The scenario file at `path`, read with `registry` (a file with problems opens, so
    /// that they can be mended; one that cannot be read, or is not RON at all, is an
    /// error, the second with its place).
    pub fn open(registry: &'static Registry, path: &std::path::Path) -> Result<Self, OpenError> {
        let text = crate::format::read_text_file(path)
            .map_err(|e| OpenError::Read(format!("cannot read {}: {e}", path.display())))?;
        let name = path.display().to_string();
        let mut file: ScenarioFile = registry.read_ron(&text).map_err(|e| {
            OpenError::NotRon(crate::scenario::ScenarioErrors::single(
                crate::scenario::ScenarioError::from_ron(&name, &text, &e),
            ))
        })?;
        file.dir = path.parent().map(std::path::Path::to_path_buf);
        let mut editor = Self::with(registry, file, Some(path.to_path_buf()));
        editor.original = Some((text, editor.file.clone()));
        editor.locate_problems();
        Ok(editor)
    }

    /// A new scenario of the ruleset with id `ruleset` (`gurps`): its minimal battle, to be
    /// saved at `path` (if given).
    pub fn new(
        registry: &'static Registry,
        ruleset: &str,
        path: Option<PathBuf>,
    ) -> Result<Self, String> {
        let rules = registry.by_id(ruleset).ok_or_else(|| {
            let ids: Vec<&str> = registry.rulesets().iter().map(|r| r.id()).collect();
            format!(
                "unknown ruleset `{ruleset}`: expected one of {}",
                ids.join(", ")
            )
        })?;
        let mut file: ScenarioFile = registry
            .read_ron(rules.new_scenario())
            .map_err(|e| format!("the {ruleset} new scenario does not read: {e}"))?;
        file.dir = path
            .as_ref()
            .and_then(|p| p.parent().map(std::path::Path::to_path_buf));
        Ok(Self::with(registry, file, path))
    }

    fn with(registry: &'static Registry, file: ScenarioFile, path: Option<PathBuf>) -> Self {
        let checked = check(&file);
        Self {
            registry,
            file,
            original: None,
            path,
            undo: Vec::new(),
            redo: Vec::new(),
            checked,
            lines: Vec::new(),
        }
    }

    /// The scenario as it stands.
    pub fn file(&self) -> &ScenarioFile {
        &self.file
    }

    /// Where it is saved.
    pub fn path(&self) -> Option<&std::path::Path> {
        self.path.as_deref()
    }

    /// Different from the file as it was opened or last saved (a new scenario, until it is
    /// saved): undoing back to the saved state makes it clean again.
    pub fn dirty(&self) -> bool {
        self.original
            .as_ref()
            .is_none_or(|(_, saved)| *saved != self.file)
    }

    /// The line and column (from 1) of the value at `path` in the file as it was opened
    /// or last saved, while the scenario is still that file (not [`Editor::dirty`]), as
    /// `check` would point at it; `None` for a changed or new scenario, whose lines are
    /// not written yet.
    pub fn line_of(&self, path: &Path) -> Option<(usize, usize)> {
        if self.dirty() {
            return None;
        }
        (self.lines.iter())
            .find(|(at, _)| at == path)
            .map(|&(_, place)| place)
    }

    /// Works out [`Editor::lines`] for the file as opened or last saved.
    fn locate_problems(&mut self) {
        let Some((text, _)) = &self.original else {
            self.lines.clear();
            return;
        };
        let located = |p: &Problem| {
            let (start, _) = crate::scenario::locate::locate(text, &p.path)?;
            Some((p.path.clone(), crate::format::line_col(text, start)))
        };
        self.lines = self.problems().iter().filter_map(located).collect();
    }

    /// Whether there is a change to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// The scenario ready to fight (Play, Preview), when it checks.
    pub fn prepared(&self) -> Option<&Arc<Prepared>> {
        self.checked.as_ref().ok()
    }

    /// What the map can show while the scenario has problems: the scenario itself when it
    /// checks, or else without the units that have problems (their hexes left empty) when
    /// that checks; `None` when even that does not (a side left empty, a problem of the
    /// map).
    pub fn shown(&self) -> Option<Arc<Prepared>> {
        if let Some(p) = self.prepared() {
            return Some(p.clone());
        }
        let units = Path::root().field("units");
        let bad: Vec<usize> = (0..self.file.units.len())
            .filter(|&i| !self.problems_at(&units.index(i)).is_empty())
            .collect();
        if bad.is_empty() || bad.len() == self.file.units.len() {
            return None;
        }
        let mut file = self.file.clone();
        for &i in bad.iter().rev() {
            file.units.remove(i);
        }
        check(&file).ok()
    }

    /// Where unit `i` of the file stands among the units [`Editor::shown`] shows: `i` itself
    /// when the scenario checks; else its place among the units without problems, and
    /// `None` for a unit with problems (left out of what is shown) or when nothing of the
    /// file can be shown.
    pub fn shown_index(&self, i: usize) -> Option<usize> {
        if i >= self.file.units.len() {
            return None;
        }
        if self.prepared().is_some() {
            return Some(i);
        }
        // With nothing of the file to show, the map shows another version (the last it
        // could show): none of its tokens is this unit for sure.
        self.shown()?;
        let units = Path::root().field("units");
        let fine = |j: usize| self.problems_at(&units.index(j)).is_empty();
        fine(i).then(|| (0..i).filter(|&j| fine(j)).count())
    }

    /// Its problems, as `skirmish check` finds them (none when it checks).
    pub fn problems(&self) -> &[Problem] {
        match &self.checked {
            Ok(_) => &[],
            Err(p) => p,
        }
    }

    /// The problems at `path` or inside it (a unit's, a field's), each as `path: message`.
    pub fn problems_at(&self, path: &Path) -> Vec<String> {
        self.problems()
            .iter()
            .filter(|p| p.path.0.starts_with(&path.0))
            .map(|p| format!("{}: {}", p.path, p.message))
            .collect()
    }

    /// The map as the file draws it (its shape and terrain).
    pub fn map(&self) -> HexMap {
        let mut map = HexMap::new(self.file.map.shape, self.file.map.orientation, 1.0, "");
        for (&(q, r), &t) in &self.file.map.terrain {
            map.set_terrain(Hex::new(q, r), t);
        }
        map
    }

    /// The unit standing on `hex`, if any.
    pub fn unit_at(&self, hex: Hex) -> Option<usize> {
        self.file
            .units
            .iter()
            .position(|u| Hex::new(u.at.0, u.at.1) == hex)
    }

    /// Applies `change` as one undoable step and checks the result; a change that fails
    /// leaves the scenario as it was.
    fn change(
        &mut self,
        change: impl FnOnce(&mut ScenarioFile) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut next = self.file.clone();
        change(&mut next)?;
        if next == self.file {
            return Ok(());
        }
        self.undo.push(std::mem::replace(&mut self.file, next));
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.checked = check(&self.file);
        Ok(())
    }

    /// Takes the last change back; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(before) = self.undo.pop() else {
            return false;
        };
        self.redo.push(std::mem::replace(&mut self.file, before));
        self.checked = check(&self.file);
        true
    }

    /// Makes the last change taken back again; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(after) = self.redo.pop() else {
            return false;
        };
        self.undo.push(std::mem::replace(&mut self.file, after));
        self.checked = check(&self.file);
        true
    }

    /// Why a unit cannot stand on `hex`: off the map, blocked, or another unit there.
    fn refuse_hex(&self, hex: Hex, moving: Option<usize>) -> Result<(), String> {
        let map = self.map();
        if !map.contains(hex) {
            return Err(format!("({}, {}) is off the map", hex.x, hex.y));
        }
        if map.move_cost(hex).is_none() {
            return Err(format!("({}, {}) is blocked", hex.x, hex.y));
        }
        match self.unit_at(hex) {
            Some(other) if Some(other) != moving => Err(format!(
                "({}, {}) is taken by {}",
                hex.x, hex.y, self.file.units[other].name
            )),
            _ => Ok(()),
        }
    }

    /// Moves unit `unit` to `hex` (on the map, not blocked, free).
    pub fn move_unit(&mut self, unit: usize, hex: Hex) -> Result<(), String> {
        self.unit(unit)?;
        self.refuse_hex(hex, Some(unit))?;
        self.change(|f| {
            f.units[unit].at = (hex.x, hex.y);
            Ok(())
        })
    }

    /// Turns unit `unit` one hex side clockwise (or back), from the facing it has (or, when
    /// the file leaves it to face the nearest foe, from the facing the map shows: towards
    /// that foe when the scenario checks, else from the first of the map's facings).
    pub fn rotate(&mut self, unit: usize, clockwise: bool) -> Result<(), String> {
        self.unit(unit)?;
        let orientation = self.file.map.orientation;
        let all: Vec<Compass> = CLOCKWISE
            .into_iter()
            .filter(|c| c.direction(orientation).is_some())
            .collect();
        // Unwritten, the facing is the one the map shows (towards the nearest foe, as
        // the scenario is prepared), when it checks.
        let shown = || {
            let facing = self.prepared()?.units.get(unit)?.facing;
            Some(Compass::of(facing, orientation))
        };
        let now = (self.file.units[unit].facing)
            .or_else(shown)
            .and_then(|c| all.iter().position(|&x| x == c));
        let n = all.len();
        let next = match (now, clockwise) {
            (None, _) => 0,
            (Some(i), true) => (i + 1) % n,
            (Some(i), false) => (i + n - 1) % n,
        };
        self.change(|f| {
            f.units[unit].facing = Some(all[next]);
            Ok(())
        })
    }

    /// Deletes unit `unit`.
    pub fn delete(&mut self, unit: usize) -> Result<(), String> {
        self.unit(unit)?;
        self.change(|f| {
            f.units.remove(unit);
            Ok(())
        })
    }

    /// Places a copy of unit `like` on `hex`, named after it ("Deputy 2"); its index.
    pub fn place(&mut self, like: usize, hex: Hex) -> Result<usize, String> {
        let unit = self.unit(like)?.clone();
        self.refuse_hex(hex, None)?;
        let name = self.fresh_name(&unit.name);
        self.change(|f| {
            f.units.push(UnitSpec {
                name,
                at: (hex.x, hex.y),
                ..unit
            });
            Ok(())
        })?;
        Ok(self.file.units.len() - 1)
    }

    /// Adds `n` copies of unit `like` on the free hexes nearest it; their indices.
    pub fn add_copies(&mut self, like: usize, n: usize) -> Result<Vec<usize>, String> {
        let unit = self.unit(like)?.clone();
        let home = Hex::new(unit.at.0, unit.at.1);
        let map = self.map();
        let mut taken: Vec<Hex> = self
            .file
            .units
            .iter()
            .map(|u| Hex::new(u.at.0, u.at.1))
            .collect();
        let mut copies = Vec::new();
        let mut names: Vec<String> = self.file.units.iter().map(|u| u.name.clone()).collect();
        for _ in 0..n {
            let free = map
                .nearest_open(home, |h| taken.contains(&h))
                .ok_or_else(|| format!("no free hex is left near {}", unit.name))?;
            taken.push(free);
            let name = fresh(&unit.name, &names);
            names.push(name.clone());
            copies.push(UnitSpec {
                name,
                at: (free.x, free.y),
                ..unit.clone()
            });
        }
        let first = self.file.units.len();
        self.change(|f| {
            f.units.extend(copies);
            Ok(())
        })?;
        Ok((first..self.file.units.len()).collect())
    }

    /// Paints `hex` with `terrain` (open ground clears it); a unit's hex cannot be blocked.
    pub fn paint(&mut self, hex: Hex, terrain: Terrain) -> Result<(), String> {
        if !self.map().contains(hex) {
            return Err(format!("({}, {}) is off the map", hex.x, hex.y));
        }
        if terrain.move_cost().is_none()
            && let Some(u) = self.unit_at(hex)
        {
            return Err(format!(
                "{} stands on ({}, {}): move it first",
                self.file.units[u].name, hex.x, hex.y
            ));
        }
        self.change(|f| {
            if terrain == Terrain::Open {
                f.map.terrain.remove(&(hex.x, hex.y));
            } else {
                f.map.terrain.insert((hex.x, hex.y), terrain);
            }
            Ok(())
        })
    }

    /// Gives the map a new outline; terrain off it is dropped (units off it are reported).
    pub fn reshape(&mut self, shape: MapShape) -> Result<(), String> {
        self.change(|f| {
            f.map.shape = shape;
            let map = HexMap::new(shape, f.map.orientation, 1.0, "");
            f.map
                .terrain
                .retain(|&(q, r), _| map.contains(Hex::new(q, r)));
            Ok(())
        })
    }

    /// Sets side `side`'s display name and who plays it.
    pub fn set_side(&mut self, side: usize, spec: SideSpec) -> Result<(), String> {
        if side >= self.file.sides.len() {
            return Err(format!("there is no side {side}"));
        }
        self.change(|f| {
            f.sides[side] = spec;
            Ok(())
        })
    }

    /// Renames unit `unit` (names are unique).
    pub fn rename(&mut self, unit: usize, name: &str) -> Result<(), String> {
        self.unit(unit)?;
        let name = name.trim();
        if name.is_empty() {
            return Err("a unit needs a name".into());
        }
        if let Some(other) = self.file.units.iter().position(|u| u.name == name)
            && other != unit
        {
            return Err(format!("another unit is named {name}"));
        }
        self.change(|f| {
            f.units[unit].name = name.to_string();
            Ok(())
        })
    }

    /// Moves unit `unit` to side `side` (by id).
    pub fn set_unit_side(&mut self, unit: usize, side: &str) -> Result<(), String> {
        self.unit(unit)?;
        if !self.file.sides.iter().any(|s| s.id == side) {
            return Err(format!("there is no side `{side}`"));
        }
        self.change(|f| {
            f.units[unit].side = side.to_string();
            Ok(())
        })
    }

    /// The stat block of unit `unit` as written, or its template's.
    pub fn stats(&self, unit: usize) -> Result<&UnitStats, String> {
        self.file.units[self.unit_index(unit)?]
            .stats_in(&self.file)
            .ok_or_else(|| format!("{} has no stat block", self.file.units[unit].name))
    }

    /// The form of unit `unit`'s stat block: every field of its ruleset's stat block with
    /// its value in RON.
    pub fn stat_fields(&self, unit: usize) -> Result<Vec<(String, String)>, String> {
        fields(self.stats(unit)?)
    }

    /// Sets field `name` of unit `unit`'s stat block to the RON `text`. Text the ruleset's
    /// reader does not take is refused with what it expected (the scenario unchanged);
    /// a value it reads but `check` refuses (a score out of range) is kept and shown among
    /// the problems at `units[unit].stats`. A unit drawn from a template gets a stat block
    /// of its own.
    pub fn set_stat_field(&mut self, unit: usize, name: &str, text: &str) -> Result<(), String> {
        let stats = with_field(self.registry, self.stats(unit)?, name, text)?;
        self.change(|f| {
            f.units[unit].stats = Some(stats);
            f.units[unit].template = None;
            Ok(())
        })
    }

    /// Gives unit `unit` the starting vector that heads it for `to` (a Traveller ship's
    /// velocity, which coasts it there in a turn; a Vergeworlds mover's heading, the hex
    /// side nearest the way to `to`, at the distance a turn); an error for a ruleset
    /// without starting vectors. A unit drawn from a template gets a stat block
    /// of its own.
    pub fn aim(&mut self, unit: usize, to: Hex) -> Result<(), String> {
        let spec = self.unit(unit)?;
        let from = Hex::new(spec.at.0, spec.at.1);
        let stats = self.stats(unit)?;
        let ruleset = stats.0.ruleset;
        let value = ruleset
            .heading(&*stats.0.value, from, to)
            .ok_or_else(|| format!("{} units have no starting vector", ruleset.id()))?;
        let stats = UnitStats(Tagged { ruleset, value });
        self.change(|f| {
            f.units[unit].stats = Some(stats);
            f.units[unit].template = None;
            Ok(())
        })
    }

    /// True when the scenario's ruleset gives units starting vectors ([`Editor::aim`]).
    pub fn has_vectors(&self) -> bool {
        self.file.units.first().is_some_and(|u| {
            u.stats_in(&self.file).is_some_and(|s| {
                s.0.ruleset
                    .heading(&*s.0.value, Hex::ZERO, Hex::new(1, 0))
                    .is_some()
            })
        })
    }

    /// The form of the ruleset's settings (`ruleset: Tag(...)`).
    pub fn ruleset_fields(&self) -> Result<Vec<(String, String)>, String> {
        fields(&self.file.ruleset)
    }

    /// Sets field `name` of the ruleset's settings to the RON `text` (as
    /// [`Editor::set_stat_field`]).
    pub fn set_ruleset_field(&mut self, name: &str, text: &str) -> Result<(), String> {
        let ruleset = with_field(self.registry, &self.file.ruleset, name, text)?;
        self.change(|f| {
            f.ruleset = ruleset;
            Ok(())
        })
    }

    /// The scenario as the file it would be saved as.
    pub fn text(&self) -> Result<String, String> {
        let header = "Written by the Skirmish editor";
        match &self.original {
            Some((text, file)) => {
                to_ron_from(self.registry, &self.file, header, Original { text, file })
            }
            None => to_ron(self.registry, &self.file, header),
        }
    }

    /// Saves the scenario at `path` (or where it was opened), replacing the file there.
    /// On failure (a read-only place) the edit stays as it is, with the reason returned.
    pub fn save(&mut self, path: Option<&std::path::Path>) -> Result<PathBuf, String> {
        let path = path
            .map(std::path::Path::to_path_buf)
            .or_else(|| self.path.clone())
            .ok_or("no file to save to: give a path")?;
        self.checks_there(&path)?;
        let text = self.text()?;
        std::fs::write(&path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        self.file.dir = path.parent().map(std::path::Path::to_path_buf);
        self.original = Some((text, self.file.clone()));
        self.path = Some(path.clone());
        // Files it names (a GCS character) are now looked for from the new folder.
        self.checked = check(&self.file);
        self.locate_problems();
        Ok(path)
    }

    /// Refuses a save to `path` that would give the scenario a problem it does not have
    /// here: the files it names (a GURPS character's GCS file) are read relative to the
    /// folder it is in, so in another folder they may not be found. Problems it has here
    /// go with it (a scenario still being mended may be saved).
    fn checks_there(&self, path: &std::path::Path) -> Result<(), String> {
        let folder = crate::format::folder;
        let (here, there_dir) = (folder(self.file.dir.as_deref()), folder(path.parent()));
        if let (Ok(a), Ok(b)) = (here.canonicalize(), there_dir.canonicalize())
            && a == b
        {
            return Ok(()); // the same folder: the same files
        }
        let mut there = self.file.clone();
        there.dir = Some(there_dir);
        let Err(problems) = check(&there) else {
            return Ok(());
        };
        // A problem at a place that has none here (the messages name the folder, so they
        // differ from one folder to the other).
        let places: Vec<&crate::format::Path> = self.problems().iter().map(|p| &p.path).collect();
        match problems.iter().find(|p| !places.contains(&&p.path)) {
            Some(new) => Err(format!(
                "{} would not check there ({}: {}); save it in the scenario's folder, which \
                 the files it names are relative to",
                path.display(),
                new.path,
                new.message
            )),
            None => Ok(()),
        }
    }

    fn unit_index(&self, unit: usize) -> Result<usize, String> {
        if unit < self.file.units.len() {
            Ok(unit)
        } else {
            Err(format!("there is no unit {unit}"))
        }
    }

    fn unit(&self, unit: usize) -> Result<&UnitSpec, String> {
        Ok(&self.file.units[self.unit_index(unit)?])
    }

    fn fresh_name(&self, base: &str) -> String {
        let names: Vec<String> = self.file.units.iter().map(|u| u.name.clone()).collect();
        fresh(base, &names)
    }
}

/// `base` with the first number from 2 that no name in `names` has ("Deputy 2").
fn fresh(base: &str, names: &[String]) -> String {
    let stem = base
        .rsplit_once(' ')
        .filter(|(_, n)| n.parse::<u32>().is_ok())
        .map_or(base, |(s, _)| s);
    (2..)
        .map(|n| format!("{stem} {n}"))
        .find(|name| !names.contains(name))
        .unwrap_or_else(|| stem.to_string())
}

/// The scenario checked as `skirmish check` checks it.
fn check(file: &ScenarioFile) -> Result<Arc<Prepared>, Vec<Problem>> {
    validate(file.clone()).map(Arc::new)
}

#[cfg(test)]
mod tests;

//! Scenario files (RON): the schema, loading, validation with file:line:column errors, and
//! the validated [`Prepared`] scenario that a battle is spawned from.
//!
//! The format is documented for users in `docs/scenario-format.md`. Every problem is
//! reported, not just the first, each with where it is and what was expected; nothing a
//! file contains can make loading panic.

pub mod contract;
mod error;
pub mod locate;
mod write;

pub use contract::{
    Engagement, ErasedRuleset, Registry, Ruleset, Section, Tagged, Turning, UnitSheet,
};
pub use error::{MAX_SHOWN, ScenarioError, ScenarioErrors, render_diagnostics};
pub use write::{
    Original, WIDTH, can_write_new, checks_there, fields, to_ron, to_ron_from, with_field,
    write_new,
};

use crate::battle::{Control, SideInfo, VictoryRule};
use crate::format::{Path, Problem};
use crate::hexmap::{Compass, HexMap, MapShape, Orientation, Terrain};
use hexx::{EdgeDirection, Hex};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// A scenario file as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Title.
    pub name: String,
    /// A few lines for the scenario menu.
    #[serde(default)]
    pub description: String,
    /// Which ruleset, with its settings.
    pub ruleset: RulesetSpec,
    /// The map.
    pub map: MapSpec,
    /// The sides, at least two.
    pub sides: Vec<SideSpec>,
    /// Stat blocks that units can name instead of writing their own.
    #[serde(default, deserialize_with = "crate::format::unique_keys")]
    pub templates: BTreeMap<String, UnitStats>,
    /// The units.
    pub units: Vec<UnitSpec>,
    /// How the battle ends besides one side standing alone.
    #[serde(default)]
    pub victory: VictorySpec,
    /// The folder the file was read from, for the files it names (a GURPS unit's `gcs`
    /// character); `None` for text read from elsewhere (the current folder then).
    #[serde(skip)]
    pub dir: Option<std::path::PathBuf>,
}

/// The ruleset and its scenario settings, written `Tag(settings)` (`Gurps()`,
/// `StarshipD12(start_range: Long)`); read by the ruleset of that tag in the registry in
/// force ([`Registry::parse`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RulesetSpec(pub Tagged);

impl RulesetSpec {
    /// The ruleset.
    pub fn ruleset(&self) -> &'static dyn ErasedRuleset {
        self.0.ruleset
    }

    /// The ruleset id used in documentation and output.
    pub fn id(&self) -> &'static str {
        self.0.ruleset.id()
    }

    /// The settings as ruleset `R`'s, if the scenario is of ruleset `R`.
    pub fn config<R: Ruleset>(&self) -> Option<&R::Config> {
        self.0.get::<R::Config>()
    }

    /// Length unit of a hex at personal scale, and its default size.
    fn default_scale(&self) -> (f32, &'static str) {
        self.0.ruleset.scale(&*self.0.value)
    }

    /// The name of the stat-block variant its units use.
    fn stats_variant(&self) -> &'static str {
        self.0.ruleset.tag()
    }
}

impl Serialize for RulesetSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        contract::write_tagged(
            serializer,
            "RulesetSpec",
            self.0.ruleset.tag(),
            &*self.0.value,
        )
    }
}

impl<'de> Deserialize<'de> for RulesetSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        contract::read_tagged(deserializer, "RulesetSpec", contract::SectionKind::Config)
            .map(RulesetSpec)
    }
}

/// The map as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    /// Outline.
    pub shape: MapShape,
    /// Pointy (default) or flat hexes.
    #[serde(default)]
    pub orientation: Orientation,
    /// Size of a hex in the ruleset's unit (GURPS: yards; default 1).
    #[serde(default)]
    pub scale: Option<f32>,
    /// Terrain of hexes that are not open, by axial `(q, r)`.
    #[serde(default, deserialize_with = "crate::format::unique_keys")]
    pub terrain: BTreeMap<(i32, i32), Terrain>,
}

/// A side as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    /// Short id that units refer to.
    pub id: String,
    /// Display name (default: the id).
    #[serde(default)]
    pub name: Option<String>,
    /// Who plays it.
    pub control: Control,
    /// Its colour in the window, `(red, green, blue)` from 0 to 255 (default: by its place
    /// in the list).
    #[serde(default)]
    pub colour: Option<(u8, u8, u8)>,
}

/// A unit's stat block, written `Tag(...)` with its ruleset's tag and read by that ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitStats(pub Tagged);

impl UnitStats {
    fn variant(&self) -> &'static str {
        self.0.ruleset.tag()
    }

    /// The stat block as ruleset `R`'s, if it is one.
    pub fn get<R: Ruleset>(&self) -> Option<&R::Stats> {
        self.0.get::<R::Stats>()
    }
}

impl Serialize for UnitStats {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        contract::write_tagged(
            serializer,
            "UnitStats",
            self.0.ruleset.tag(),
            &*self.0.value,
        )
    }
}

impl<'de> Deserialize<'de> for UnitStats {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        contract::read_tagged(deserializer, "UnitStats", contract::SectionKind::Stats)
            .map(UnitStats)
    }
}

impl UnitSpec {
    /// The unit's stat block as written: its own, or its template's.
    pub fn stats_in<'a>(&'a self, file: &'a ScenarioFile) -> Option<&'a UnitStats> {
        self.stats
            .as_ref()
            .or_else(|| self.template.as_ref().and_then(|t| file.templates.get(t)))
    }
}

/// A unit as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Name, unique in the scenario.
    pub name: String,
    /// Id of its side.
    pub side: String,
    /// Axial hex `(q, r)`.
    pub at: (i32, i32),
    /// Facing (default: towards the nearest enemy).
    #[serde(default)]
    pub facing: Option<Compass>,
    /// Name of a template to use as the stat block.
    #[serde(default)]
    pub template: Option<String>,
    /// The stat block (when no template is named).
    #[serde(default)]
    pub stats: Option<UnitStats>,
}

/// Victory conditions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum VictorySpec {
    /// Fight until at most one side has units able to fight.
    #[default]
    LastSideStanding,
    /// As last side standing, but after this many rounds the side with the most units still
    /// fighting wins (a tie is a draw).
    RoundLimit(u32),
}

/// A validated unit.
#[derive(Clone, Debug)]
pub struct PreparedUnit {
    /// Name.
    pub name: String,
    /// Side index.
    pub side: u8,
    /// Starting hex.
    pub at: Hex,
    /// Starting facing.
    pub facing: EdgeDirection,
    /// Its stat block as its ruleset resolved it.
    pub stats: UnitSheet,
}

impl PreparedUnit {
    /// The resolved stat block as ruleset `R`'s, if it is one.
    pub fn sheet<R: Ruleset>(&self) -> Option<Arc<R::Sheet>> {
        Arc::clone(&self.stats).downcast::<R::Sheet>().ok()
    }
}

/// A validated scenario, ready to spawn battles from (cheaply, many times).
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Title.
    pub name: String,
    /// Description.
    pub description: String,
    /// Ruleset id.
    pub ruleset: &'static str,
    /// The ruleset.
    pub rules: &'static dyn ErasedRuleset,
    /// The ruleset's settings (its type is the ruleset's `Config`).
    pub config: Arc<dyn Section>,
    /// The map with its terrain.
    pub map: HexMap,
    /// Sides in file order.
    pub sides: Vec<SideInfo>,
    /// Units in file order (their index is their `UnitId`).
    pub units: Vec<PreparedUnit>,
    /// End conditions.
    pub victory: VictoryRule,
    /// The file as read, for re-saving and error messages.
    pub file: ScenarioFile,
}

impl Prepared {
    /// The ruleset's settings as ruleset `R`'s, if the scenario is of ruleset `R`.
    pub fn config<R: Ruleset>(&self) -> Option<&R::Config> {
        (*self.config).as_any().downcast_ref::<R::Config>()
    }

    /// Each unit's resolved stat block as ruleset `R`'s, in unit order (units of another
    /// ruleset, which a scenario never has, are left out).
    pub fn sheets<R: Ruleset>(&self) -> Vec<Arc<R::Sheet>> {
        self.units.iter().filter_map(|u| u.sheet::<R>()).collect()
    }
}

/// The most units a scenario may have unless the program is told otherwise
/// ([`set_max_units`], `--max-units`): far more than any table fights with (the
/// 200-fighter benchmark map, 1,000-unit battles), few enough that checking a file stays
/// quick.
pub const MAX_UNITS: usize = 10_000;

/// The highest unit limit `--max-units` may set.
pub const MAX_UNITS_CEILING: usize = 1_000_000;

/// The unit limit in force ([`set_max_units`]).
static UNIT_LIMIT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(MAX_UNITS);

/// Sets the most units a scenario may have, for every scenario read from now on (the
/// command line's `--max-units`), kept within 1 to [`MAX_UNITS_CEILING`].
pub fn set_max_units(limit: usize) {
    UNIT_LIMIT.store(
        limit.clamp(1, MAX_UNITS_CEILING),
        std::sync::atomic::Ordering::Relaxed,
    );
}

/// The most units a scenario may have now ([`MAX_UNITS`] unless [`set_max_units`] said
/// otherwise).
pub fn max_units() -> usize {
    UNIT_LIMIT.load(std::sync::atomic::Ordering::Relaxed)
}

/// Reads and validates a scenario file with the rulesets of `registry`.
pub fn load(registry: &Registry, path: &std::path::Path) -> Result<Prepared, ScenarioErrors> {
    let name = path.display().to_string();
    let text = crate::format::read_text_file(path)
        .map_err(|e| ScenarioErrors::single(ScenarioError::io(&name, &e)))?;
    parse_in(registry, &name, &text, path.parent())
}

/// Parses and validates scenario `text` with the rulesets of `registry`; `name` is the file
/// name used in messages.
pub fn parse(registry: &Registry, name: &str, text: &str) -> Result<Prepared, ScenarioErrors> {
    parse_in(registry, name, text, None)
}

/// [`parse`] for a file in folder `dir` (the files it names are relative to it).
pub fn parse_in(
    registry: &Registry,
    name: &str,
    text: &str,
    dir: Option<&std::path::Path>,
) -> Result<Prepared, ScenarioErrors> {
    let mut file: ScenarioFile = registry
        .read_ron(text)
        .map_err(|e| ScenarioErrors::single(ScenarioError::from_ron(name, text, &e)))?;
    file.dir = dir.map(std::path::Path::to_path_buf);
    validate(file).map_err(|problems| ScenarioErrors::located(name, text, &problems))
}

/// Side ids in `ids` (at `path`) that are not the scenario's.
pub fn unknown_sides(file: &ScenarioFile, path: &Path, ids: &[String]) -> Vec<Problem> {
    ids.iter()
        .enumerate()
        .filter(|(_, id)| !file.sides.iter().any(|s| &s.id == *id))
        .map(|(i, id)| {
            Problem::new(
                path.index(i),
                format!("unknown side `{id}`: expected one of {}", side_ids(file)),
            )
        })
        .collect()
}

/// The scenario's side ids as an error message lists them: "`red`, `blue`".
pub fn side_ids(file: &ScenarioFile) -> String {
    id_list(file.sides.iter().map(|s| s.id.as_str()))
}

/// Ids as an error message lists them: "`red`, `blue`".
pub fn id_list<'a>(ids: impl IntoIterator<Item = &'a str>) -> String {
    let ids: Vec<String> = ids.into_iter().map(|id| format!("`{id}`")).collect();
    ids.join(", ")
}

/// What is wrong with a pair of unit names (at `path`, fields `from` and `to`) that must
/// name two units of opposing sides (a ship ruleset's starting ranges and bonuses).
pub fn foe_pair_problems(
    file: &ScenarioFile,
    path: &Path,
    from: &str,
    to: &str,
) -> Option<Problem> {
    let side_of = |name: &str| {
        file.units
            .iter()
            .find(|u| u.name == name)
            .map(|u| u.side.as_str())
    };
    match (side_of(from), side_of(to)) {
        (None, _) => Some(Problem::new(
            path.field("from"),
            format!("unknown unit `{from}`: expected a unit's name"),
        )),
        (_, None) => Some(Problem::new(
            path.field("to"),
            format!("unknown unit `{to}`: expected a unit's name"),
        )),
        (Some(a), Some(b)) if a == b => Some(Problem::new(
            path.clone(),
            format!("`{from}` and `{to}` are on the same side: expected two foes"),
        )),
        _ => None,
    }
}

/// Checks a parsed scenario and resolves everything in it, or lists every problem.
pub fn validate(file: ScenarioFile) -> Result<Prepared, Vec<Problem>> {
    let root = Path::root();
    let mut problems = Vec::new();
    if file.name.trim().is_empty() {
        problems.push(Problem::new(
            root.field("name"),
            "the scenario needs a name",
        ));
    }

    // Map.
    let (default_scale, unit) = file.ruleset.default_scale();
    let scale = file.map.scale.unwrap_or(default_scale);
    if !(scale.is_finite() && scale > 0.0) {
        problems.push(Problem::new(
            root.field("map").field("scale"),
            format!("hex scale {scale} is not valid: expected a positive number"),
        ));
    }
    match file.map.shape {
        MapShape::Hexagon { radius } if !(1..=200).contains(&radius) => {
            problems.push(Problem::new(
                root.field("map").field("shape"),
                format!("radius {radius} is out of range: expected 1 to 200"),
            ))
        }
        MapShape::Rectangle { columns, rows }
            if !(1..=400).contains(&columns) || !(1..=400).contains(&rows) =>
        {
            problems.push(Problem::new(
                root.field("map").field("shape"),
                format!("{columns} x {rows} is out of range: expected 1 to 400 each way"),
            ))
        }
        _ => {}
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let orientation = file.map.orientation;
    let mut map = HexMap::new(file.map.shape, orientation, scale, unit);
    for (&(q, r), &terrain) in &file.map.terrain {
        if !map.set_terrain(Hex::new(q, r), terrain) {
            problems.push(Problem::new(
                root.field("map")
                    .field("terrain")
                    .key_of(&format!("({q}, {r})")),
                format!("hex ({q}, {r}) is off the map"),
            ));
        }
    }

    // Units: how many, before anything is done for each.
    let limit = max_units();
    if file.units.len() > limit {
        return Err(vec![Problem::new(
            root.field("units"),
            format!(
                "the scenario has {} units: at most {limit} are allowed (raise the limit \
                 with --max-units N, up to {MAX_UNITS_CEILING})",
                file.units.len()
            ),
        )]);
    }

    // Sides.
    let mut side_index: HashMap<&str, u8> = HashMap::new();
    if file.sides.len() < 2 {
        problems.push(Problem::new(
            root.field("sides"),
            format!(
                "a battle needs at least two sides; found {}",
                file.sides.len()
            ),
        ));
    }
    if file.sides.len() > 16 {
        problems.push(Problem::new(root.field("sides"), "at most 16 sides"));
    }
    for (i, side) in file.sides.iter().enumerate() {
        let path = root.field("sides").index(i);
        if side.id.trim().is_empty() {
            problems.push(Problem::new(path.field("id"), "a side needs an id"));
        } else if side_index.insert(side.id.as_str(), i as u8).is_some() {
            problems.push(Problem::new(
                path.field("id"),
                format!("two sides have the id `{}`", side.id),
            ));
        }
    }

    // The ruleset's own settings.
    let rules = file.ruleset.ruleset();
    let config = Arc::clone(&file.ruleset.0.value);
    problems.extend(rules.check(&*config, &file));
    let ruleset_variant = file.ruleset.stats_variant();
    let variant_problem = |stats: &UnitStats| {
        Problem::new(
            Path::root(),
            format!(
                "a {} stat block in a {} scenario: expected {}(...)",
                stats.variant(),
                file.ruleset.id(),
                ruleset_variant
            ),
        )
    };
    // Every stat block of the ruleset's, templates first, resolved in one call.
    let blocks: Vec<&UnitStats> = file
        .templates
        .values()
        .chain(
            file.units
                .iter()
                .filter(|u| u.template.is_none())
                .filter_map(|u| u.stats.as_ref()),
        )
        .filter(|s| s.variant() == ruleset_variant)
        .collect();
    let values: Vec<&dyn Section> = blocks.iter().map(|s| &*s.0.value).collect();
    let mut resolved = rules.resolve(&*config, &file, &values).into_iter();
    let mut resolve = |stats: &UnitStats| -> Result<UnitSheet, Vec<Problem>> {
        if stats.variant() != ruleset_variant {
            return Err(vec![variant_problem(stats)]);
        }
        resolved.next().unwrap_or_else(|| {
            Err(vec![Problem::new(
                Path::root(),
                "the ruleset did not resolve this stat block",
            )])
        })
    };

    // Templates.
    let mut templates: BTreeMap<&str, UnitSheet> = BTreeMap::new();
    for (name, stats) in &file.templates {
        let path = root.field("templates").key(name);
        match resolve(stats) {
            Ok(sheet) => {
                templates.insert(name.as_str(), sheet);
            }
            Err(found) => problems.extend(found.into_iter().map(|p| Problem {
                path: path.join(&p.path),
                message: p.message,
            })),
        }
    }

    // Units.
    if file.units.is_empty() {
        problems.push(Problem::new(
            root.field("units"),
            "the scenario has no units",
        ));
    }
    let mut names: HashMap<&str, usize> = HashMap::new();
    let mut taken: HashMap<Hex, usize> = HashMap::new();
    let mut units = Vec::new();
    for (i, u) in file.units.iter().enumerate() {
        let path = root.field("units").index(i);
        if u.name.trim().is_empty() {
            problems.push(Problem::new(path.field("name"), "a unit needs a name"));
        } else if let Some(first) = names.insert(u.name.as_str(), i) {
            problems.push(Problem::new(
                path.field("name"),
                format!("unit {first} already has the name `{}`", u.name),
            ));
        }
        let side = match side_index.get(u.side.as_str()) {
            Some(&s) => Some(s),
            None => {
                problems.push(Problem::new(
                    path.field("side"),
                    format!(
                        "unknown side `{}`: expected one of {}",
                        u.side,
                        side_ids(&file)
                    ),
                ));
                None
            }
        };
        let at = Hex::new(u.at.0, u.at.1);
        match map.terrain(at) {
            None => problems.push(Problem::new(
                path.field("at"),
                format!("hex ({}, {}) is off the map", at.x, at.y),
            )),
            Some(Terrain::Blocked) => problems.push(Problem::new(
                path.field("at"),
                format!(
                    "hex ({}, {}) is blocked terrain: expected an open hex",
                    at.x, at.y
                ),
            )),
            Some(_) => {}
        }
        if let Some(first) = taken.insert(at, i) {
            problems.push(Problem::new(
                path.field("at"),
                format!(
                    "hex ({}, {}) is already taken by `{}`",
                    at.x, at.y, file.units[first].name
                ),
            ));
        }
        if let Some(c) = u.facing
            && c.direction(orientation).is_none()
        {
            let valid: Vec<String> = Compass::valid_for(orientation)
                .iter()
                .map(|c| format!("{c:?}"))
                .collect();
            problems.push(Problem::new(
                path.field("facing"),
                format!(
                    "{c:?} is not a hex side on a {orientation:?} map: expected one of {}",
                    valid.join(", ")
                ),
            ));
        }
        let stats = match (&u.template, &u.stats) {
            (Some(_), Some(_)) => {
                problems.push(Problem::new(
                    path.field("template"),
                    "give either `template` or `stats`, not both",
                ));
                None
            }
            (None, None) => {
                problems.push(Problem::new(path, "the unit needs `stats` or a `template`"));
                None
            }
            (Some(t), None) => match templates.get(t.as_str()) {
                Some(sheet) => Some(sheet.clone()),
                None => {
                    if !file.templates.contains_key(t) {
                        let known: Vec<String> =
                            file.templates.keys().map(|k| format!("`{k}`")).collect();
                        problems.push(Problem::new(
                            path.field("template"),
                            if known.is_empty() {
                                format!("unknown template `{t}`: the scenario defines no templates")
                            } else {
                                format!(
                                    "unknown template `{t}`: expected one of {}",
                                    known.join(", ")
                                )
                            },
                        ));
                    }
                    None
                }
            },
            (None, Some(stats)) => match resolve(stats) {
                Ok(sheet) => Some(sheet),
                Err(found) => {
                    let base = path.field("stats");
                    problems.extend(found.into_iter().map(|p| Problem {
                        path: base.join(&p.path),
                        message: p.message,
                    }));
                    None
                }
            },
        };
        if let (Some(side), Some(stats)) = (side, stats) {
            units.push(PreparedUnit {
                name: u.name.clone(),
                side,
                at,
                facing: u
                    .facing
                    .and_then(|c| c.direction(orientation))
                    .unwrap_or(EdgeDirection::ALL_DIRECTIONS[0]),
                stats,
            });
        }
    }
    for (i, side) in file.sides.iter().enumerate() {
        if !file.units.iter().any(|u| u.side == side.id) {
            problems.push(Problem::new(
                root.field("sides").index(i),
                format!("side `{}` has no units", side.id),
            ));
        }
    }
    let victory = match file.victory {
        VictorySpec::LastSideStanding => VictoryRule::default(),
        VictorySpec::RoundLimit(0) => {
            problems.push(Problem::new(
                root.field("victory"),
                "a round limit must be at least 1",
            ));
            VictoryRule::default()
        }
        VictorySpec::RoundLimit(n) => VictoryRule {
            round_limit: Some(n),
            ..VictoryRule::default()
        },
    };
    if !problems.is_empty() {
        return Err(problems);
    }

    // Default facing: towards the nearest enemy.
    for (i, spec) in file.units.iter().enumerate() {
        if spec.facing.is_none() {
            let me = &units[i];
            let nearest = units
                .iter()
                .filter(|u| u.side != me.side)
                .min_by_key(|u| u.at.unsigned_distance_to(me.at))
                .map(|u| u.at);
            if let Some(to) = nearest
                && to != me.at
            {
                units[i].facing = me.at.main_direction_to(to);
            }
        }
    }
    let sides = file
        .sides
        .iter()
        .map(|s| SideInfo {
            id: s.id.clone(),
            name: s.name.clone().unwrap_or_else(|| s.id.clone()),
            control: s.control,
            colour: s.colour,
        })
        .collect();
    Ok(Prepared {
        name: file.name.clone(),
        description: file.description.clone(),
        ruleset: file.ruleset.id(),
        rules,
        config,
        map,
        sides,
        units,
        victory,
        file,
    })
}

//! Scenario files (RON): the schema, loading, validation with file:line:column errors, and
//! the validated [`Prepared`] scenario that a battle is spawned from.
//!
//! The format is documented for users in `docs/scenario-format.md`. Every problem is
//! reported, not just the first, each with where it is and what was expected; nothing a
//! file contains can make loading panic.

mod error;
pub mod locate;

pub use error::{ScenarioError, ScenarioErrors, render_diagnostics};

use crate::battle::{Control, SideInfo, VictoryRule};
use crate::format::{Path, Problem, ron_options};
use crate::hexmap::{Compass, HexMap, MapShape, Orientation, Terrain};
use crate::rules::gurps::{GurpsConfig, GurpsStats, Sheet, sheet::resolve_sheet};
use crate::rules::main_sequence::{self, MsConfig, MsSheet, MsStats};
use crate::rules::socs::{self, Craft, CraftStats, SocsConfig};
use crate::rules::starship_d12::{self, D12Config, ShipSheet, ShipStats};
use crate::rules::traveller_space::{TravellerConfig, TravellerShip, TravellerShipStats};
use crate::rules::vergeworlds::{VwConfig, VwStats};
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
    #[serde(default)]
    pub templates: BTreeMap<String, UnitStats>,
    /// The units.
    pub units: Vec<UnitSpec>,
    /// How the battle ends besides one side standing alone.
    #[serde(default)]
    pub victory: VictorySpec,
}

/// The ruleset and its scenario settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RulesetSpec {
    /// GURPS personal combat (`gurps`).
    Gurps(#[serde(default)] GurpsConfig),
    /// The d12 starship rules (`starship-d12`): range bands, crews, systems by facing.
    StarshipD12(#[serde(default)] D12Config),
    /// The Space Opera Combat System (`socs`): dogfights with aiming bonuses.
    Socs(#[serde(default)] SocsConfig),
    /// Main Sequence (`main-sequence`): characters and ships on range bands, chases.
    MainSequence(#[serde(default)] MsConfig),
    /// GURPS Traveller space combat (`traveller-space`): vector movement, sensors, gunnery,
    /// missiles.
    TravellerSpace(#[serde(default)] TravellerConfig),
    /// Vergeworlds "Rough Methods" (`vergeworlds`): Action Points, attitudes, Penetration
    /// and Injury, high-speed movement and flight.
    Vergeworlds(#[serde(default)] VwConfig),
}

impl RulesetSpec {
    /// The ruleset id used in documentation and output.
    pub fn id(&self) -> &'static str {
        match self {
            RulesetSpec::Gurps(_) => "gurps",
            RulesetSpec::StarshipD12(_) => "starship-d12",
            RulesetSpec::Socs(_) => "socs",
            RulesetSpec::MainSequence(_) => "main-sequence",
            RulesetSpec::TravellerSpace(_) => "traveller-space",
            RulesetSpec::Vergeworlds(_) => "vergeworlds",
        }
    }

    /// Length unit of a hex at personal scale, and its default size.
    fn default_scale(&self) -> (f32, &'static str) {
        match self {
            RulesetSpec::Gurps(_) => (1.0, "yd"),
            RulesetSpec::MainSequence(_) | RulesetSpec::Vergeworlds(_) => (1.0, "m"),
            // Range is a band; hex distances only picture it.
            RulesetSpec::StarshipD12(_) | RulesetSpec::Socs(_) => {
                (1.0, "hex (range bands are abstract)")
            }
            // The ruleset's own `hex_miles` sets the scale.
            RulesetSpec::TravellerSpace(c) => (c.hex_miles as f32, "miles"),
        }
    }

    /// The name of the stat-block variant its units use.
    fn stats_variant(&self) -> &'static str {
        match self {
            RulesetSpec::Gurps(_) => "Gurps",
            RulesetSpec::StarshipD12(_) => "StarshipD12",
            RulesetSpec::Socs(_) => "Socs",
            RulesetSpec::MainSequence(_) => "MainSequence",
            RulesetSpec::TravellerSpace(_) => "TravellerSpace",
            RulesetSpec::Vergeworlds(_) => "Vergeworlds",
        }
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
    #[serde(default)]
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
}

/// A unit's stat block, tagged with its ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum UnitStats {
    /// A GURPS character.
    Gurps(GurpsStats),
    /// A starship-d12 ship.
    StarshipD12(ShipStats),
    /// A SOCS craft.
    Socs(CraftStats),
    /// A Main Sequence character or ship.
    MainSequence(MsStats),
    /// A GURPS Traveller ship.
    TravellerSpace(TravellerShipStats),
    /// A Vergeworlds character.
    Vergeworlds(VwStats),
}

impl UnitStats {
    fn variant(&self) -> &'static str {
        match self {
            UnitStats::Gurps(_) => "Gurps",
            UnitStats::StarshipD12(_) => "StarshipD12",
            UnitStats::Socs(_) => "Socs",
            UnitStats::MainSequence(_) => "MainSequence",
            UnitStats::TravellerSpace(_) => "TravellerSpace",
            UnitStats::Vergeworlds(_) => "Vergeworlds",
        }
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

/// A unit's resolved stats.
#[derive(Clone, Debug)]
pub enum PreparedStats {
    /// A resolved GURPS sheet.
    Gurps(Arc<Sheet>),
    /// A checked starship-d12 ship sheet.
    StarshipD12(Arc<ShipSheet>),
    /// A checked SOCS craft.
    Socs(Arc<Craft>),
    /// A checked Main Sequence character or ship.
    MainSequence(Arc<MsSheet>),
    /// A checked GURPS Traveller ship.
    TravellerSpace(Arc<TravellerShip>),
    /// A checked Vergeworlds character.
    Vergeworlds(Arc<VwStats>),
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
    /// Stats.
    pub stats: PreparedStats,
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

/// Reads and validates a scenario file.
pub fn load(path: &std::path::Path) -> Result<Prepared, ScenarioErrors> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        ScenarioErrors::single(ScenarioError::io(
            &name,
            &format!("cannot read the file: {e}"),
        ))
    })?;
    parse(&name, &text)
}

/// Parses and validates scenario `text`; `name` is the file name used in messages.
pub fn parse(name: &str, text: &str) -> Result<Prepared, ScenarioErrors> {
    let file: ScenarioFile = ron_options()
        .from_str(text)
        .map_err(|e| ScenarioErrors::single(ScenarioError::from_ron(name, text, &e)))?;
    validate(file).map_err(|problems| ScenarioErrors {
        errors: problems
            .into_iter()
            .map(|p| ScenarioError::at_path(name, text, &p))
            .collect(),
    })
}

/// Side ids in `ids` (at `path`) that are not the scenario's.
fn unknown_sides(file: &ScenarioFile, path: &Path, ids: &[String]) -> Vec<Problem> {
    ids.iter()
        .enumerate()
        .filter(|(_, id)| !file.sides.iter().any(|s| &s.id == *id))
        .map(|(i, id)| {
            Problem::new(
                path.index(i),
                format!("unknown side `{id}`: expected one of the side ids"),
            )
        })
        .collect()
}

/// What is wrong with a pair of unit names (at `path`, fields `from` and `to`) that must
/// name two units of opposing sides (a ship ruleset's starting ranges and bonuses).
fn foe_pair_problems(file: &ScenarioFile, path: &Path, from: &str, to: &str) -> Option<Problem> {
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

/// What is wrong with a Main Sequence scenario's settings.
fn main_sequence_problems(file: &ScenarioFile, config: &MsConfig) -> Vec<Problem> {
    use main_sequence::combat::Band;
    let base = Path::root().field("ruleset");
    let mut problems = unknown_sides(
        file,
        &base.field("group_initiative"),
        &config.group_initiative,
    );
    // "Combat Actions", Initiative: groups of NPCs may share a roll.
    for (i, id) in config.group_initiative.iter().enumerate() {
        for u in file.units.iter().filter(|u| &u.side == id) {
            let npc = match ms_stats(file, u) {
                Some(MsStats::Character(c)) => c.npc,
                Some(MsStats::Ship(s)) => s.npc,
                None => true,
            };
            if !npc {
                problems.push(Problem::new(
                    base.field("group_initiative").index(i),
                    format!(
                        "side `{id}` shares one initiative roll, which the text allows for NPCs only: {} is not marked `npc: true`",
                        u.name
                    ),
                ));
            }
        }
    }
    if !(-10..=20).contains(&config.detection_modifier) {
        problems.push(Problem::new(
            base.field("detection_modifier"),
            format!(
                "{} is out of range: expected -10 to 20",
                config.detection_modifier
            ),
        ));
    }
    let b = config.bands;
    if !b.is_ordered() || b.long > 10_000 {
        problems.push(Problem::new(
            base.field("bands"),
            format!(
                "bands {}/{}/{}/{} hexes: expected 1 <= melee < close < medium < long <= 10000",
                b.melee, b.close, b.medium, b.long
            ),
        ));
    }
    if let Some(c) = &config.chase {
        let path = base.field("chase");
        problems.extend(
            foe_pair_problems(file, &path, &c.pursuer, &c.quarry).map(|mut p| {
                if let Some(crate::format::PathSeg::Field(f)) = p.path.0.last_mut() {
                    *f = if f == "from" {
                        "pursuer".into()
                    } else {
                        "quarry".into()
                    };
                }
                p
            }),
        );
        if file.units.len() != 2 {
            problems.push(Problem::new(
                path.clone(),
                format!(
                    "a chase is between two units; the scenario has {}",
                    file.units.len()
                ),
            ));
        }
        if let Some(start) = c.start
            && start < Band::Close
        {
            problems.push(Problem::new(
                path.field("start"),
                format!("a chase cannot start at {start:?}: expected Close, Medium, Long or Far"),
            ));
        }
        let is_ship = |who: &str| {
            file.units
                .iter()
                .find(|u| u.name == who)
                .and_then(|u| ms_stats(file, u))
                .map(|s| matches!(s, MsStats::Ship(_)))
        };
        if let (Some(a), Some(b)) = (is_ship(&c.pursuer), is_ship(&c.quarry))
            && a != b
        {
            problems.push(Problem::new(
                path.clone(),
                format!(
                    "{} and {} are not at the same scale: a chase is between two ships or two characters",
                    c.pursuer, c.quarry
                ),
            ));
        }
        for (field, who, vehicle) in [
            ("pursuer_vehicle", &c.pursuer, &c.pursuer_vehicle),
            ("quarry_vehicle", &c.quarry, &c.quarry_vehicle),
        ] {
            let ship = is_ship(who) == Some(true);
            if vehicle.is_some() && ship {
                problems.push(Problem::new(
                    path.field(field),
                    format!("{who} is a ship: its pilot rolls with the ship; leave {field} out"),
                ));
            }
        }
        for (field, v) in [
            ("pursuer_bonus", c.pursuer_bonus),
            ("quarry_bonus", c.quarry_bonus),
        ] {
            if !(0..=6).contains(&v) {
                problems.push(Problem::new(
                    path.field(field),
                    format!("{v} is out of range: expected 0 to 6"),
                ));
            }
        }
    }
    problems
}

/// The problems of GURPS Traveller space settings: sizes, the missile, planets on the map,
/// the sides that may flee.
fn traveller_problems(file: &ScenarioFile, config: &TravellerConfig) -> Vec<Problem> {
    let base = Path::root().field("ruleset");
    let mut problems = unknown_sides(file, &base.field("may_flee"), &config.may_flee);
    for (field, v, lo, hi) in [
        ("hex_miles", config.hex_miles, 100.0, 10_000_000.0),
        ("turn_minutes", config.turn_minutes, 0.1, 10_000.0),
    ] {
        if !(v.is_finite() && (lo..=hi).contains(&v)) {
            problems.push(Problem::new(
                base.field(field),
                format!("{v} is out of range: expected {lo} to {hi}"),
            ));
        }
    }
    if !(1..=10_000).contains(&config.escape_hexes) {
        problems.push(Problem::new(
            base.field("escape_hexes"),
            format!(
                "{} is out of range: expected 1 to 10000",
                config.escape_hexes
            ),
        ));
    }
    let m = &config.missile;
    let path = base.field("missile");
    if !(m.thrust.is_finite() && (0.0..=100.0).contains(&m.thrust)) {
        problems.push(Problem::new(
            path.field("thrust"),
            format!("{} G is out of range: expected 0 to 100", m.thrust),
        ));
    }
    for (field, v, lo, hi) in [
        ("skill", i64::from(m.skill), 0, 30),
        ("dice", i64::from(m.dice), 1, 100),
        ("multiplier", i64::from(m.multiplier), 1, 100_000),
        ("endurance", i64::from(m.endurance), 1, 100),
    ] {
        if !(lo..=hi).contains(&v) {
            problems.push(Problem::new(
                path.field(field),
                format!("{v} is out of range: expected {lo} to {hi}"),
            ));
        }
    }
    for (i, p) in config.planets.iter().enumerate() {
        if p.name.trim().is_empty() {
            problems.push(Problem::new(
                base.field("planets").index(i).field("name"),
                "a planet needs a name",
            ));
        }
        if p.at.0.abs() > 1000 || p.at.1.abs() > 1000 {
            problems.push(Problem::new(
                base.field("planets").index(i).field("at"),
                format!(
                    "({}, {}) is out of range: expected coordinates from -1000 to 1000",
                    p.at.0, p.at.1
                ),
            ));
        }
    }
    if let Some(scale) = file.map.scale
        && (f64::from(scale) - config.hex_miles).abs() > 1e-3 * config.hex_miles
    {
        problems.push(Problem::new(
            Path::root().field("map").field("scale"),
            format!(
                "{scale} miles a hex, but the ruleset's hex_miles is {}: leave the map's scale out (hex_miles sets it)",
                config.hex_miles
            ),
        ));
    }
    problems
}

/// The Main Sequence stat block of a unit as written, its own or its template's.
fn ms_stats<'a>(file: &'a ScenarioFile, u: &'a UnitSpec) -> Option<&'a MsStats> {
    let stats = u
        .stats
        .as_ref()
        .or_else(|| u.template.as_ref().and_then(|t| file.templates.get(t)))?;
    match stats {
        UnitStats::MainSequence(s) => Some(s),
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

    // The ruleset's own equipment.
    let catalog = match &file.ruleset {
        RulesetSpec::Gurps(config) => {
            let base = root.field("ruleset");
            for (name, weapon) in &config.weapons {
                let path = base.field("weapons").key(name);
                problems.extend(weapon.problems().into_iter().map(|p| Problem {
                    path: path.join(&p.path),
                    message: p.message,
                }));
            }
            for (i, id) in config.groups.iter().enumerate() {
                if !file.sides.iter().any(|s| &s.id == id) {
                    problems.push(Problem::new(
                        base.field("groups").index(i),
                        format!("unknown side `{id}`: expected one of the side ids"),
                    ));
                }
            }
            for id in config.morale.keys() {
                let path = base.field("morale").key(id);
                match file.sides.iter().find(|s| &s.id == id) {
                    None => problems.push(Problem::new(
                        path,
                        format!("morale for unknown side `{id}`: expected one of the side ids"),
                    )),
                    Some(side) if side.control == Control::Player => problems.push(Problem::new(
                        path,
                        format!(
                            "side `{id}` is played by a player: morale checks are for AI sides"
                        ),
                    )),
                    Some(_) => {}
                }
            }
            for (name, shield) in &config.shields {
                if !(0..=10).contains(&shield.db) {
                    problems.push(Problem::new(
                        base.field("shields").key(name).field("db"),
                        format!("DB {} is out of range: expected 0 to 10", shield.db),
                    ));
                }
            }
            for (name, armor) in &config.armor {
                if !(0..=100).contains(&armor.dr) {
                    problems.push(Problem::new(
                        base.field("armor").key(name).field("dr"),
                        format!("DR {} is out of range: expected 0 to 100", armor.dr),
                    ));
                }
            }
            Some(config.catalog())
        }
        RulesetSpec::StarshipD12(config) => {
            let base = root.field("ruleset");
            problems.extend(unknown_sides(
                &file,
                &base.field("may_flee"),
                &config.may_flee,
            ));
            if config.start_range == starship_d12::Band::Tailing {
                problems.push(Problem::new(
                    base.field("start_range"),
                    "Tailing needs a tailer: give tailing pairs in `ranges`",
                ));
            }
            if config.start_range == starship_d12::Band::Escaped {
                problems.push(Problem::new(
                    base.field("start_range"),
                    "a fight cannot start at Escaped: expected Tailing (in `ranges`), Short, Medium or Long",
                ));
            }
            for (i, r) in config.ranges.iter().enumerate() {
                let path = base.field("ranges").index(i);
                problems.extend(foe_pair_problems(&file, &path, &r.from, &r.to));
                if r.band == starship_d12::Band::Escaped {
                    problems.push(Problem::new(
                        path.field("band"),
                        "a pair cannot start at Escaped: leave it out of the scenario's units instead",
                    ));
                }
            }
            None
        }
        RulesetSpec::Socs(config) => {
            let base = root.field("ruleset");
            problems.extend(unknown_sides(
                &file,
                &base.field("may_flee"),
                &config.may_flee,
            ));
            if config.start_range == socs::SocsRange::OutOfRange {
                problems.push(Problem::new(
                    base.field("start_range"),
                    "a fight cannot start out of range: expected Short or Long",
                ));
            }
            for (i, r) in config.ranges.iter().enumerate() {
                let path = base.field("ranges").index(i);
                problems.extend(foe_pair_problems(&file, &path, &r.from, &r.to));
                if r.range == socs::SocsRange::OutOfRange {
                    problems.push(Problem::new(
                        path.field("range"),
                        "a pair cannot start out of range: expected Short or Long",
                    ));
                }
            }
            for (i, p) in config.positions.iter().enumerate() {
                let path = base.field("positions").index(i);
                problems.extend(foe_pair_problems(&file, &path, &p.from, &p.to));
            }
            for (i, p) in config.positions.iter().enumerate() {
                if !(1..=10).contains(&p.ab) {
                    problems.push(Problem::new(
                        base.field("positions").index(i).field("ab"),
                        format!("Position AB {} is out of range: expected 1 to 10", p.ab),
                    ));
                }
            }
            for (i, g) in config.gm_maneuvers.iter().enumerate() {
                if !(-10..=10).contains(&g.modifier) {
                    problems.push(Problem::new(
                        base.field("gm_maneuvers").index(i).field("modifier"),
                        format!(
                            "modifier {} is out of range: expected -10 to 10",
                            g.modifier
                        ),
                    ));
                }
            }
            if config.gm_maneuvers.len() > 32 {
                problems.push(Problem::new(base.field("gm_maneuvers"), "at most 32"));
            }
            None
        }
        RulesetSpec::MainSequence(config) => {
            problems.extend(main_sequence_problems(&file, config));
            None
        }
        RulesetSpec::TravellerSpace(config) => {
            problems.extend(traveller_problems(&file, config));
            None
        }
        RulesetSpec::Vergeworlds(config) => {
            if let Some(g) = config.gravity
                && !(0.01..=10.0).contains(&g)
            {
                problems.push(Problem::new(
                    root.field("ruleset").index(0).field("gravity"),
                    format!("{g} is out of range: expected 0.01 to 10 g"),
                ));
            }
            None
        }
    };
    let side_ids: Vec<String> = file.sides.iter().map(|s| s.id.clone()).collect();
    let ruleset_variant = file.ruleset.stats_variant();
    let resolve = |stats: &UnitStats| -> Result<PreparedStats, Vec<Problem>> {
        if stats.variant() != ruleset_variant {
            return Err(vec![Problem::new(
                Path::root(),
                format!(
                    "a {} stat block in a {} scenario: expected {}(...)",
                    stats.variant(),
                    file.ruleset.id(),
                    ruleset_variant
                ),
            )]);
        }
        match (stats, &catalog) {
            (UnitStats::Gurps(s), Some(catalog)) => {
                resolve_sheet(s, catalog).map(|sheet| PreparedStats::Gurps(Arc::new(sheet)))
            }
            (UnitStats::StarshipD12(s), _) => {
                ShipSheet::resolve(s).map(|sheet| PreparedStats::StarshipD12(Arc::new(sheet)))
            }
            (UnitStats::Socs(s), _) => Craft::resolve(s).map(|c| PreparedStats::Socs(Arc::new(c))),
            (UnitStats::MainSequence(s), _) => {
                MsSheet::resolve(s, &side_ids).map(|c| PreparedStats::MainSequence(Arc::new(c)))
            }
            (UnitStats::TravellerSpace(s), _) => {
                TravellerShip::resolve(s).map(|c| PreparedStats::TravellerSpace(Arc::new(c)))
            }
            (UnitStats::Vergeworlds(s), _) => {
                let found = s.problems();
                if found.is_empty() {
                    Ok(PreparedStats::Vergeworlds(Arc::new(s.clone())))
                } else {
                    Err(found)
                }
            }
            _ => Err(vec![Problem::new(
                Path::root(),
                "no catalog for this ruleset",
            )]),
        }
    };

    // Templates.
    let mut templates: BTreeMap<&str, PreparedStats> = BTreeMap::new();
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
                let ids: Vec<String> = file.sides.iter().map(|s| format!("`{}`", s.id)).collect();
                problems.push(Problem::new(
                    path.field("side"),
                    format!(
                        "unknown side `{}`: expected one of {}",
                        u.side,
                        ids.join(", ")
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
        })
        .collect();
    Ok(Prepared {
        name: file.name.clone(),
        description: file.description.clone(),
        ruleset: file.ruleset.id(),
        map,
        sides,
        units,
        victory,
        file,
    })
}

#[cfg(test)]
mod tests;

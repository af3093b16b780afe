//! GURPS Character Sheet (GCS) files: reading a `.gcs` character (JSON, format version 5)
//! into what combat needs, taking GCS's own computed values (`calc`) wherever it stores
//! them, so the numbers match what the player sees in GCS. Everything dropped or
//! approximated is listed in [`GcsCharacter::warnings`], by name.
//!
//! What is read, and from where:
//!
//! - attributes: `attributes[].calc.value` (`st`, `dx`, `iq`, `ht`, `hp`, `fp`, `will`,
//!   `per`, `basic_speed`, `basic_move`);
//! - Move and Dodge: the top-level `calc.move[0]` and `calc.dodge[0]` (unencumbered; the
//!   encumbrance the character's load gives in GCS is named in a warning);
//! - Size Modifier: `profile.SM` (0 when absent);
//! - skills: every skill and technique through its containers, with `calc.level`;
//! - weapons: every usage (`weapons[]`) of every equipped piece of equipment (the item
//!   and all its containers equipped) and of every enabled trait (natural attacks), with
//!   `calc.level`, `calc.damage`, `calc.parry`, `calc.block`, `calc.range`; the other
//!   columns (reach, accuracy, rate of fire, shots, bulk, recoil, minimum ST) from `calc`
//!   when GCS writes them there, else as written on the weapon. A weapon id starting with
//!   `W` is a ranged weapon, `w` a melee one (GCS's kinds); without an id, the ranged
//!   columns (`range`, `accuracy`, `rate_of_fire`, `shots`) tell;
//! - DR: the body type's hit location table (`settings.body_type.locations[].calc.dr.all`,
//!   through sub-tables), and where the file lacks it, the same worked out from the
//!   features (`recomputed_dr`); only all-purpose DR counts, specialized DR is
//!   named in a warning;
//! - traits: High and Low Pain Threshold; other traits with an effect in combat that the
//!   battle does not model are named in warnings.
//!
//! Bad input: text that is not JSON, or ends early, is an error with the parser's line
//! and column; JSON that is not a GCS character (no `version` or no `attributes`), a
//! format version other than 5 (version 4, the first Go GCS's, marks containers and
//! weapon kinds with `type` fields rather than id kinds, and no version 4 file was at
//! hand to test with, so it is not read either), and an attribute GCS did not
//! compute (no `calc.value`) are errors naming what was expected. ST, DX, IQ and HT must
//! be listed; a secondary attribute missing from the list altogether (a custom attribute
//! set) is derived from them as the Basic Set does, with a warning. A skill or weapon
//! GCS did not compute is left out with a warning naming it. Unknown fields inside items
//! are ignored (GCS adds fields between releases); an unknown top-level field is named in
//! a warning.

mod dr;

use dr::dr_table;
#[cfg(test)]
use dr::{recomputed_dr, stored_dr};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// One character read from a GCS file: the fields of `skirmish import-gcs --json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GcsCharacter {
    /// The character's name (`profile.name`).
    pub name: String,
    /// Strength.
    pub st: i32,
    /// Dexterity.
    pub dx: i32,
    /// Intelligence.
    pub iq: i32,
    /// Health.
    pub ht: i32,
    /// Hit points.
    pub hp: i32,
    /// Fatigue points.
    pub fp: i32,
    /// Will.
    pub will: i32,
    /// Perception.
    pub per: i32,
    /// Basic Speed.
    pub basic_speed: f64,
    /// Basic Move, unencumbered.
    pub basic_move: i32,
    /// Dodge, unencumbered.
    pub dodge: i32,
    /// Size Modifier.
    pub size_modifier: i32,
    /// DR per GCS hit location id (`skull`, `eye`, `face`, `neck`, `torso`, `vitals`,
    /// `groin`, `arm`, `hand`, `leg`, `foot`, …), as GCS's hit location table shows it
    /// (the body's own bonus, the skull's 2, included).
    pub dr: BTreeMap<String, i32>,
    /// Skills with their computed levels.
    pub skills: Vec<GcsSkill>,
    /// Every weapon usage, melee and ranged, from equipment and traits.
    pub weapons: Vec<GcsWeapon>,
    /// The traits combat uses ("High Pain Threshold", "Low Pain Threshold").
    pub traits: Vec<String>,
    /// Everything dropped or approximated, by name.
    pub warnings: Vec<String>,
}

/// A skill and its level.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GcsSkill {
    /// Name ("Shield").
    pub name: String,
    /// Specialization ("Buckler"), if any.
    pub specialization: Option<String>,
    /// Level as GCS computes it.
    pub level: i32,
}

/// One usage of a weapon ("Swung", "Thrust", "Shoot"…), with GCS's computed values as
/// GCS shows them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GcsWeapon {
    /// The equipment's description or the trait's name ("Maul", "Teeth, Sharp").
    pub name: String,
    /// The usage ("Swung").
    pub usage: String,
    /// Whether it is a ranged weapon (GCS's ranged weapon list).
    pub ranged: bool,
    /// Level (`calc.level`).
    pub skill_level: i32,
    /// Damage (`calc.damage`: "3d+7 cr").
    pub damage: String,
    /// Reach ("C,1", "1-2*"); melee only.
    pub reach: Option<String>,
    /// Parry (`calc.parry`: "11", "No", "9F"); melee only.
    pub parry: Option<String>,
    /// Block (`calc.block`); melee only.
    pub block: Option<String>,
    /// Accuracy ("2", "3+1"); ranged only.
    pub acc: Option<String>,
    /// Range (`calc.range` when present: "180/240"); ranged only.
    pub range: Option<String>,
    /// Rate of fire ("1", "3"); ranged only.
    pub rof: Option<String>,
    /// Shots ("1(2)", "8(3)"); ranged only.
    pub shots: Option<String>,
    /// Minimum ST as written ("13‡", "10†").
    pub min_st: Option<String>,
    /// The skill the level comes from: the weapon's default that gives `calc.level`
    /// ("Two-Handed Axe/Mace", "Shield (Shield)" with a specialization), `None` when it
    /// comes from an attribute or cannot be told.
    pub skill: Option<String>,
    /// Bulk ("-7"); ranged only.
    pub bulk: Option<String>,
    /// Recoil ("2"); ranged only.
    pub recoil: Option<String>,
    /// Its damage is thrust-based (GCS's `damage.st` is `thr`, `thr_leveled` or another
    /// basis naming `thr`): what the unarmed-parry
    /// exception "except vs. thrusts" asks (gurps-traveller-gm-screen.txt, "MODIFIERS TO
    /// ACTIVE DEFENSE ROLLS").
    pub thrust: bool,
    /// An attack of a trait (Natural Attacks' punch and kick, Teeth's bite): part of the
    /// body, never dropped or disarmed, and a bare-handed parry.
    pub natural: bool,
}

/// Why a file could not be read as a GCS character: where (1-based line and column, when
/// known) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GcsError {
    /// Line, 1-based (0 when the whole file is at fault).
    pub line: usize,
    /// Column, 1-based (0 when the whole file is at fault).
    pub column: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for GcsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "line {}, column {}: {}",
                self.line, self.column, self.message
            )
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for GcsError {}

/// The one GCS file format version read.
const VERSION: i64 = 5;

/// Reads one GCS character file's text.
pub fn read(text: &str) -> Result<GcsCharacter, GcsError> {
    let root = parse(text)?;
    let mut warnings = Vec::new();
    let attrs = attributes(text, &root, &mut warnings)?;
    let name = match root.get("profile").and_then(|p| text_at(p, "name")) {
        Some(name) => name,
        None => {
            warnings.push("the character has no name (profile.name)".to_string());
            String::new()
        }
    };
    let size_modifier = root
        .get("profile")
        .and_then(|p| num_at(p, "SM"))
        .map_or(0, whole);
    let (basic_move, dodge) = move_and_dodge(&root, &attrs, &mut warnings);
    let skills = skills(&root, &mut warnings);
    let weapons = weapons(&root, &skills, &attrs, &mut warnings);
    let dr = dr_table(&root, &mut warnings);
    let traits = traits(&root, &mut warnings);
    equipment_notes(&root, &mut warnings);
    unknown_fields(&root, &mut warnings);
    Ok(GcsCharacter {
        name,
        st: attrs.st,
        dx: attrs.dx,
        iq: attrs.iq,
        ht: attrs.ht,
        hp: attrs.hp,
        fp: attrs.fp,
        will: attrs.will,
        per: attrs.per,
        basic_speed: attrs.basic_speed,
        basic_move,
        dodge,
        size_modifier,
        dr,
        skills,
        weapons,
        traits,
        warnings,
    })
}

/// The top-level fields of a GCS format 5 character file.
const KNOWN_FIELDS: [&str; 17] = [
    "version",
    "id",
    "total_points",
    "points_record",
    "profile",
    "settings",
    "attributes",
    "traits",
    "skills",
    "spells",
    "equipment",
    "other_equipment",
    "notes",
    "created_date",
    "modified_date",
    "calc",
    "third_party",
];

/// A warning naming each top-level field GCS 5 does not write (a later GCS, or a hand
/// edit): it is ignored, and the import may lack what it holds.
fn unknown_fields(root: &Value, warnings: &mut Vec<String>) {
    if let Some(obj) = root.as_object() {
        for key in obj.keys().filter(|k| !KNOWN_FIELDS.contains(&k.as_str())) {
            warnings.push(format!("unknown field `{key}` ignored"));
        }
    }
}

// ---------------------------------------------------------------------------------------
// The file: JSON, a character, the version.

/// The file's JSON, checked to be a GCS character of the supported version.
fn parse(text: &str) -> Result<Value, GcsError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(whole_file(
            "the file is empty: expected a GCS character (JSON)",
        ));
    }
    let root: Value = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let what = full.strip_suffix(&suffix).unwrap_or(&full);
        let message = if e.is_eof() {
            format!(
                "the file ends too early (truncated?): {what}; expected the rest of a GCS character's JSON"
            )
        } else {
            format!("not JSON: {what} (a GCS character file is JSON)")
        };
        GcsError {
            line: e.line(),
            column: e.column(),
            message,
        }
    })?;
    let Some(object) = root.as_object() else {
        return Err(whole_file(&format!(
            "not a GCS character file: expected a JSON object with `version` and `attributes`, found {}",
            kind_of(&root)
        )));
    };
    let attributes = object.get("attributes");
    let Some(version) = object.get("version") else {
        return Err(whole_file(if attributes.is_some() {
            "not a GCS character file: no `version` field; expected GCS file format version 5"
        } else {
            "not a GCS character file: no `version` and no `attributes` fields; expected a character written by GCS (file format version 5)"
        }));
    };
    let (line, column) = locate(text, "version", &version.to_string());
    match number(version) {
        Some(v) if v == VERSION as f64 => {}
        Some(v) => {
            let hint = if v < VERSION as f64 {
                " (open the file in a current GCS and save it to update it)"
            } else {
                ""
            };
            return Err(GcsError {
                line,
                column,
                message: format!(
                    "GCS file format version {version} is not supported: expected {VERSION}{hint}"
                ),
            });
        }
        None => {
            return Err(GcsError {
                line,
                column,
                message: format!(
                    "the file format version {version} is not a number: expected {VERSION}"
                ),
            });
        }
    }
    let problem = match attributes {
        Some(Value::Array(_)) => None,
        Some(other) => {
            let (line, column) = locate(text, "attributes", "");
            Some(GcsError {
                line,
                column,
                message: format!(
                    "`attributes` is {}: expected the list of the character's attributes",
                    kind_of(other)
                ),
            })
        }
        None => Some(whole_file(
            "not a GCS character file: no `attributes` list (a GCS template, library or other file?); expected a character",
        )),
    };
    match problem {
        Some(e) => Err(e),
        None => Ok(root),
    }
}

fn whole_file(message: &str) -> GcsError {
    GcsError {
        line: 0,
        column: 0,
        message: message.to_string(),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Where `"key": value` first occurs in the text (1-based line and column of the key),
/// whatever the spacing; (0, 0) if nowhere. `value` is the start of the value as JSON
/// (`"dx"`, `3`), empty for any.
fn locate(text: &str, key: &str, value: &str) -> (usize, usize) {
    let needle = format!("\"{key}\"");
    let mut from = 0;
    while let Some(found) = text.get(from..).and_then(|rest| rest.find(&needle)) {
        let start = from + found;
        let after = start + needle.len();
        let rest = text.get(after..).unwrap_or("").trim_start();
        if let Some(rest) = rest.strip_prefix(':')
            && rest.trim_start().starts_with(value)
        {
            return line_column(text, start);
        }
        from = after;
    }
    (0, 0)
}

fn line_column(text: &str, byte: usize) -> (usize, usize) {
    let before = text.get(..byte).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |nl| nl + 1);
    let column = before.get(line_start..).unwrap_or("").chars().count() + 1;
    (line, column)
}

// ---------------------------------------------------------------------------------------
// Small readers over `serde_json::Value`.

fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A number, or a string holding one (GCS writes some decimals as strings).
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .filter(|x: &f64| x.is_finite())
}

fn num_at(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(number)
}

fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// A non-empty string field, trimmed.
fn text_at(v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    }
}

/// A display column: a non-empty string, or a number written out.
fn column_at(v: &Value, key: &str) -> Option<String> {
    match v.get(key)? {
        Value::Number(n) => Some(n.to_string()),
        _ => text_at(v, key),
    }
}

/// An integer value rounded down (GCS's integer values are whole; saturating).
fn whole(x: f64) -> i32 {
    x.floor() as i32
}

/// A number as GCS shows it: whole numbers without a decimal point.
fn show(x: f64) -> String {
    let rounded = (x * 100.0).round() / 100.0;
    if rounded.fract() == 0.0 {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded}")
    }
}

fn id_kind(v: &Value) -> Option<char> {
    v.get("id")?.as_str()?.chars().next()
}

/// A container row (trait, skill, spell or equipment container): GCS gives containers
/// ids of an upper-case kind, and only containers have `children`.
fn is_container(v: &Value) -> bool {
    id_kind(v).is_some_and(|k| k.is_ascii_uppercase())
        || v.get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.ends_with("_container"))
        || v.get("children").is_some_and(Value::is_array)
}

/// Every row of a GCS list through its containers' `children`, depth first, with whether
/// it and every container above it pass `own` (enabled traits, equipped equipment).
fn flatten<'a>(
    items: &'a [Value],
    parent_ok: bool,
    own: &dyn Fn(&Value) -> bool,
    out: &mut Vec<(&'a Value, bool)>,
) {
    for item in items {
        let ok = parent_ok && own(item);
        out.push((item, ok));
        flatten(list(item, "children"), ok, own, out);
    }
}

fn enabled(t: &Value) -> bool {
    !flag(t, "disabled")
}

fn equipped(e: &Value) -> bool {
    flag(e, "equipped")
}

/// The enabled modifiers of a trait or piece of equipment, through modifier containers.
fn active_modifiers(item: &Value) -> Vec<&Value> {
    let mut all = Vec::new();
    flatten(list(item, "modifiers"), true, &enabled, &mut all);
    all.into_iter()
        .filter(|(m, ok)| *ok && !is_container(m))
        .map(|(m, _)| m)
        .collect()
}

/// A trait's level for per-level amounts: its `levels` when it can level (GCS counts 0
/// for a trait that cannot).
fn trait_level(t: &Value) -> f64 {
    match t.get("can_level").and_then(Value::as_bool) {
        Some(false) => 0.0,
        _ => num_at(t, "levels").unwrap_or(0.0).max(0.0),
    }
}

/// "Fearlessness 3", "High Pain Threshold".
fn trait_label(t: &Value) -> String {
    let name = text_at(t, "name").unwrap_or_else(|| "(unnamed)".to_string());
    let leveled = t.get("can_level").and_then(Value::as_bool) != Some(false);
    match num_at(t, "levels") {
        Some(levels) if leveled && levels > 0.0 => format!("{name} {}", show(levels)),
        _ => name,
    }
}

fn equipment_name(e: &Value) -> String {
    text_at(e, "description")
        .or_else(|| text_at(e, "name"))
        .unwrap_or_else(|| "(unnamed)".to_string())
}

/// "Shield (Shield)", "Knife".
fn skill_label(name: &str, specialization: Option<&str>) -> String {
    match specialization {
        Some(spec) => format!("{name} ({spec})"),
        None => name.to_string(),
    }
}

// ---------------------------------------------------------------------------------------
// Attributes, Move and Dodge.

/// The attribute values the character needs.
struct Attributes {
    st: i32,
    dx: i32,
    iq: i32,
    ht: i32,
    hp: i32,
    fp: i32,
    will: i32,
    per: i32,
    basic_speed: f64,
    basic_move: i32,
    /// Every attribute's value by id, for weapon defaults (`dx`, `st`…).
    by_id: BTreeMap<String, f64>,
}

/// Reads the attributes: GCS's `calc.value` of each, an error for one listed without it.
fn attributes(
    text: &str,
    root: &Value,
    warnings: &mut Vec<String>,
) -> Result<Attributes, GcsError> {
    let mut by_id: BTreeMap<String, f64> = BTreeMap::new();
    for a in list(root, "attributes") {
        let Some(id) = a.get("attr_id").and_then(Value::as_str) else {
            continue;
        };
        if by_id.contains_key(id) {
            continue;
        }
        match a.get("calc").and_then(|c| num_at(c, "value")) {
            Some(v) => {
                by_id.insert(id.to_string(), v);
            }
            None if REQUIRED.iter().any(|(r, _)| *r == id) => {
                let (line, column) = locate(text, "attr_id", &format!("\"{id}\""));
                let label = REQUIRED
                    .iter()
                    .find(|(r, _)| *r == id)
                    .map_or(id, |(_, l)| l);
                return Err(GcsError {
                    line,
                    column,
                    message: format!(
                        "attribute `{id}` ({label}) has no computed value (calc.value): expected GCS's calc block on every attribute, as GCS writes it when it saves a character"
                    ),
                });
            }
            None => {}
        }
    }
    // An attribute not listed: derived from others (how, value), or an error.
    let mut get = |id: &str, derived: Option<(&str, f64)>| match (by_id.get(id), derived) {
        (Some(&v), _) => Ok(v),
        (None, Some((how, v))) => {
            warnings.push(format!(
                "attribute `{id}` is not in the file: taken as {how} = {}",
                show(v)
            ));
            by_id.insert(id.to_string(), v);
            Ok(v)
        }
        (None, None) => Err(whole_file(&format!(
            "attribute `{id}` is not in the file: expected GCS's ST, DX, IQ and HT with their computed values"
        ))),
    };
    let st = get("st", None)?;
    let dx = get("dx", None)?;
    let iq = get("iq", None)?;
    let ht = get("ht", None)?;
    let hp = get("hp", Some(("ST", st)))?;
    let fp = get("fp", Some(("HT", ht)))?;
    let will = get("will", Some(("IQ", iq)))?;
    let per = get("per", Some(("IQ", iq)))?;
    let basic_speed = get("basic_speed", Some(("(DX + HT) / 4", (dx + ht) / 4.0)))?;
    let basic_move = get(
        "basic_move",
        Some(("Basic Speed rounded down", basic_speed.floor())),
    )?;
    for (id, label) in REQUIRED {
        if let Some(&v) = by_id.get(*id)
            && *id != "basic_speed"
            && v.fract() != 0.0
        {
            warnings.push(format!(
                "attribute {label} {} kept as {}",
                show(v),
                whole(v)
            ));
        }
    }
    Ok(Attributes {
        st: whole(st),
        dx: whole(dx),
        iq: whole(iq),
        ht: whole(ht),
        hp: whole(hp),
        fp: whole(fp),
        will: whole(will),
        per: whole(per),
        basic_speed,
        basic_move: whole(basic_move),
        by_id,
    })
}

/// The attributes read, by GCS id, with their names.
const REQUIRED: &[(&str, &str)] = &[
    ("st", "ST"),
    ("dx", "DX"),
    ("iq", "IQ"),
    ("ht", "HT"),
    ("hp", "HP"),
    ("fp", "FP"),
    ("will", "Will"),
    ("per", "Per"),
    ("basic_speed", "Basic Speed"),
    ("basic_move", "Basic Move"),
];

/// Unencumbered Move and Dodge (`calc.move[0]`, `calc.dodge[0]`), with warnings where they
/// are not what Basic Move and Basic Speed give (GCS halves both at low HP or FP), where
/// the sheet records injuries, and for the encumbrance of the character's load.
fn move_and_dodge(root: &Value, attrs: &Attributes, warnings: &mut Vec<String>) -> (i32, i32) {
    let calc = root.get("calc");
    let series = |key: &str| -> Vec<i32> {
        calc.map(|c| list(c, key))
            .unwrap_or(&[])
            .iter()
            .filter_map(number)
            .map(whole)
            .collect()
    };
    let moves = series("move");
    let dodges = series("dodge");
    let dodge_bonus = calc.and_then(|c| num_at(c, "dodge_bonus")).unwrap_or(0.0);
    let expected_dodge = whole(attrs.basic_speed.max(0.0) + 3.0 + dodge_bonus);
    let basic_move = match moves.first() {
        Some(&m) => {
            if m != attrs.basic_move {
                warnings.push(format!(
                    "Move {m} (GCS, unencumbered) is not Basic Move {}: GCS's kept (it halves Move at low HP or FP, or the sheet has an enhanced Move)",
                    attrs.basic_move
                ));
            }
            m
        }
        None => {
            warnings.push(format!(
                "no computed Move (calc.move): Basic Move {} used",
                attrs.basic_move
            ));
            attrs.basic_move
        }
    };
    let dodge = match dodges.first() {
        Some(&d) => {
            if d != expected_dodge {
                warnings.push(format!(
                    "Dodge {d} (GCS, unencumbered) is not Basic Speed + 3 + bonuses = {expected_dodge}: GCS's kept (it halves Dodge at low HP or FP)"
                ));
            }
            d
        }
        None => {
            warnings.push(format!(
                "no computed Dodge (calc.dodge): Basic Speed + 3 + bonuses = {expected_dodge} used"
            ));
            expected_dodge
        }
    };
    for a in list(root, "attributes") {
        let id = a.get("attr_id").and_then(Value::as_str).unwrap_or("");
        if id != "hp" && id != "fp" {
            continue;
        }
        let calc = a.get("calc");
        if let (Some(value), Some(current)) = (
            calc.and_then(|c| num_at(c, "value")),
            calc.and_then(|c| num_at(c, "current")),
        ) && current < value
        {
            warnings.push(format!(
                "the sheet records {} {} of {} (injury or fatigue): the battle starts fresh",
                id.to_ascii_uppercase(),
                show(current),
                show(value)
            ));
        }
    }
    encumbrance_note(root, &moves, &dodges, warnings);
    (basic_move, dodge)
}

/// "12 lb" → (12, "lb").
fn weight(v: &Value) -> Option<(f64, String)> {
    let s = v.as_str()?.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .unwrap_or(s.len());
    let amount: f64 = s.get(..split)?.trim().parse().ok()?;
    Some((amount, s.get(split..)?.trim().to_string()))
}

/// Names the encumbrance level GCS gives the character's carried load, when it is not
/// None: the battle uses the unencumbered Move and Dodge.
fn encumbrance_note(root: &Value, moves: &[i32], dodges: &[i32], warnings: &mut Vec<String>) {
    let Some((lift, unit)) = root
        .get("calc")
        .and_then(|c| c.get("basic_lift"))
        .and_then(weight)
    else {
        return;
    };
    let mut carried = 0.0;
    for item in list(root, "equipment") {
        match item
            .get("calc")
            .and_then(|c| c.get("extended_weight"))
            .and_then(weight)
        {
            Some((w, u)) if u == unit => carried += w,
            Some(_) => return,
            None => {}
        }
    }
    const LEVELS: [(f64, &str); 5] = [
        (1.0, "None"),
        (2.0, "Light"),
        (3.0, "Medium"),
        (6.0, "Heavy"),
        (10.0, "Extra-Heavy"),
    ];
    let level = LEVELS
        .iter()
        .position(|(times, _)| carried <= lift * times)
        .unwrap_or(LEVELS.len() - 1);
    if level == 0 {
        return;
    }
    let at = |s: &[i32], i: usize| s.get(i).map_or("?".to_string(), i32::to_string);
    warnings.push(format!(
        "carries {} {unit} against Basic Lift {} {unit}: {} encumbrance in GCS (Move {}, Dodge {}); the unencumbered Move {} and Dodge {} are used",
        show(carried),
        show(lift),
        LEVELS[level].1,
        at(moves, level),
        at(dodges, level),
        at(moves, 0),
        at(dodges, 0),
    ));
}

// ---------------------------------------------------------------------------------------
// Skills.

fn skills(root: &Value, warnings: &mut Vec<String>) -> Vec<GcsSkill> {
    let mut rows = Vec::new();
    flatten(list(root, "skills"), true, &|_| true, &mut rows);
    let mut out = Vec::new();
    for (s, _) in rows {
        if is_container(s) {
            continue;
        }
        let name = text_at(s, "name").unwrap_or_else(|| "(unnamed)".to_string());
        let specialization = text_at(s, "specialization");
        match s.get("calc").and_then(|c| num_at(c, "level")) {
            Some(level) => out.push(GcsSkill {
                name,
                specialization,
                level: whole(level),
            }),
            None => warnings.push(format!(
                "skill {}: no level computed by GCS (calc.level), dropped",
                skill_label(&name, specialization.as_deref())
            )),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Weapons.

fn weapons(
    root: &Value,
    skills: &[GcsSkill],
    attrs: &Attributes,
    warnings: &mut Vec<String>,
) -> Vec<GcsWeapon> {
    let mut out = Vec::new();
    let mut gear = Vec::new();
    flatten(list(root, "equipment"), true, &equipped, &mut gear);
    for (item, really_equipped) in gear {
        let usages = list(item, "weapons");
        if usages.is_empty() {
            continue;
        }
        let name = equipment_name(item);
        if !really_equipped {
            warnings.push(format!("weapon {name}: not equipped, ignored"));
            continue;
        }
        for w in usages {
            out.extend(weapon(&name, w, false, skills, attrs, warnings));
        }
    }
    let mut other = Vec::new();
    flatten(list(root, "other_equipment"), true, &|_| true, &mut other);
    for (item, _) in other {
        if !list(item, "weapons").is_empty() {
            warnings.push(format!(
                "weapon {}: in other equipment (not carried), ignored",
                equipment_name(item)
            ));
        }
    }
    let mut traits = Vec::new();
    flatten(list(root, "traits"), true, &enabled, &mut traits);
    for (t, active) in traits {
        if !active {
            continue;
        }
        let name = text_at(t, "name").unwrap_or_else(|| "(unnamed)".to_string());
        for w in list(t, "weapons") {
            out.extend(weapon(&name, w, true, skills, attrs, warnings));
        }
    }
    for (key, what) in [("spells", "spell"), ("skills", "skill")] {
        let mut rows = Vec::new();
        flatten(list(root, key), true, &|_| true, &mut rows);
        for (row, _) in rows {
            if !list(row, "weapons").is_empty() {
                let name = text_at(row, "name").unwrap_or_else(|| "(unnamed)".to_string());
                warnings.push(format!(
                    "{what} {name}: its attacks are not used ({what}s are not modelled)"
                ));
            }
        }
    }
    out
}

/// Whether a weapon usage is ranged: GCS's `W` kind (`w` is melee), else an older
/// `type`, else the ranged columns.
fn is_ranged(w: &Value) -> bool {
    match id_kind(w) {
        Some('W') => true,
        Some('w') => false,
        _ => match w.get("type").and_then(Value::as_str) {
            Some("ranged_weapon") => true,
            Some("melee_weapon") => false,
            _ => ["range", "accuracy", "rate_of_fire", "shots"]
                .iter()
                .any(|k| w.get(k).is_some()),
        },
    }
}

/// One weapon usage with GCS's computed values; `None`, with a warning naming it, when GCS
/// did not compute its level or damage. `natural`: it is a trait's (a body part's).
fn weapon(
    name: &str,
    w: &Value,
    natural: bool,
    skills: &[GcsSkill],
    attrs: &Attributes,
    warnings: &mut Vec<String>,
) -> Option<GcsWeapon> {
    let usage = text_at(w, "usage").unwrap_or_default();
    let label = if usage.is_empty() {
        name.to_string()
    } else {
        format!("{name} ({usage})")
    };
    let Some(calc) = w.get("calc").filter(|c| c.is_object()) else {
        warnings.push(format!(
            "weapon {label}: no calc block (GCS's computed level and damage), left out"
        ));
        return None;
    };
    let Some(level) = num_at(calc, "level") else {
        warnings.push(format!(
            "weapon {label}: no level computed by GCS (calc.level; no usable skill?), left out"
        ));
        return None;
    };
    let Some(damage) = text_at(calc, "damage") else {
        warnings.push(format!(
            "weapon {label}: no damage computed by GCS (calc.damage), left out"
        ));
        return None;
    };
    // The display columns: GCS's computed text when it writes one, else as written.
    let shown = |key: &str| column_at(calc, key).or_else(|| column_at(w, key));
    let ranged = is_ranged(w);
    let mut weapon = GcsWeapon {
        name: name.to_string(),
        usage,
        ranged,
        skill_level: whole(level),
        damage,
        min_st: shown("strength"),
        skill: default_skill(w, skills, attrs),
        thrust: w
            .get("damage")
            .and_then(|d| d.get("st"))
            .and_then(Value::as_str)
            // "thr", "thr_leveled", "lift_thr"…: any basis of thrust damage.
            .is_some_and(|st| st.split('_').any(|part| part.eq_ignore_ascii_case("thr"))),
        natural,
        ..GcsWeapon::default()
    };
    if ranged {
        weapon.acc = shown("accuracy");
        weapon.range = match (column_at(calc, "range"), column_at(w, "range")) {
            (Some(r), _) => Some(r),
            // "x15/x20": multiples of ST, which only GCS's calc works out.
            (None, Some(r)) if r.contains(['x', '×']) => {
                warnings.push(format!(
                    "weapon {label}: range {r} not computed by GCS (calc.range), left empty"
                ));
                None
            }
            (None, r) => r,
        };
        weapon.rof = shown("rate_of_fire");
        weapon.shots = shown("shots");
        weapon.bulk = shown("bulk");
        weapon.recoil = shown("recoil");
    } else {
        weapon.reach = shown("reach");
        // The weapon's own `parry` and `block` are modifiers ("0"); only calc has the
        // defense GCS shows.
        weapon.parry = column_at(calc, "parry");
        weapon.block = column_at(calc, "block");
    }
    Some(weapon)
}

/// The skill of the weapon's best default (its skill's level plus the default's
/// modifier, against the attribute defaults), as "Name (Specialization)"; `None` when an
/// attribute default is best or no default can be worked out.
fn default_skill(w: &Value, skills: &[GcsSkill], attrs: &Attributes) -> Option<String> {
    let mut best: Option<(f64, Option<String>)> = None;
    for d in list(w, "defaults") {
        let kind = d
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_ascii_lowercase();
        let modifier = num_at(d, "modifier").unwrap_or(0.0);
        let candidate = if kind == "skill" {
            let Some(name) = text_at(d, "name") else {
                continue;
            };
            let spec = text_at(d, "specialization");
            let Some(skill) = skills
                .iter()
                .filter(|s| {
                    s.name.eq_ignore_ascii_case(&name)
                        && spec.as_deref().is_none_or(|want| {
                            s.specialization
                                .as_deref()
                                .is_some_and(|have| have.eq_ignore_ascii_case(want))
                        })
                })
                .max_by_key(|s| s.level)
            else {
                continue;
            };
            (
                f64::from(skill.level) + modifier,
                Some(skill_label(&skill.name, skill.specialization.as_deref())),
            )
        } else if let Some(&v) = attrs.by_id.get(&kind) {
            (v + modifier, None)
        } else {
            continue;
        };
        let better = match &best {
            None => true,
            Some((level, from)) => {
                candidate.0 > *level
                    || (candidate.0 == *level && from.is_none() && candidate.1.is_some())
            }
        };
        if better {
            best = Some(candidate);
        }
    }
    best.and_then(|(_, skill)| skill)
}

// ---------------------------------------------------------------------------------------
// Traits.

/// Traits with an effect in combat the battle does not model, by name (a trait named so,
/// or so followed by a space or a parenthesis: "Weapon Master (Bow)").
const COMBAT_TRAITS: &[&str] = &[
    "Altered Time Rate",
    "Ambidexterity",
    "Berserk",
    "Bloodlust",
    "Combat Paralysis",
    "Combat Reflexes",
    "Cowardice",
    "Damage Reduction",
    "Danger Sense",
    "Daredevil",
    "Enhanced Block",
    "Enhanced Dodge",
    "Enhanced Move",
    "Enhanced Parry",
    "Enhanced Time Sense",
    "Extra Arms",
    "Extra Attack",
    "Fearlessness",
    "Flight",
    "Hard to Kill",
    "Hard to Subdue",
    "Injury Tolerance",
    "Lifting ST",
    "Luck",
    "On the Edge",
    "Regeneration",
    "Striking ST",
    "Supernatural Durability",
    "Trained by a Master",
    "Unfazeable",
    "Unkillable",
    "Weapon Master",
];

fn named(name: &str, base: &str) -> bool {
    name.len() >= base.len()
        && name
            .get(..base.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(base))
        && matches!(
            name.get(base.len()..).and_then(|rest| rest.chars().next()),
            None | Some(' ' | '(')
        )
}

/// The pain thresholds of the enabled traits, and warnings for the others with an effect
/// in combat: by name ([`COMBAT_TRAITS`]), a Dodge, Parry or Block bonus (already in GCS's
/// values), DR with modifiers the battle does not model.
fn traits(root: &Value, warnings: &mut Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut rows = Vec::new();
    flatten(list(root, "traits"), true, &enabled, &mut rows);
    for (t, active) in rows {
        if !active || is_container(t) {
            continue;
        }
        let name = text_at(t, "name").unwrap_or_default();
        let label = trait_label(t);
        let mut features: Vec<&Value> = list(t, "features").iter().collect();
        let modifiers = active_modifiers(t);
        for m in &modifiers {
            features.extend(list(m, "features"));
        }
        for threshold in ["High Pain Threshold", "Low Pain Threshold"] {
            if name.eq_ignore_ascii_case(threshold) && !out.iter().any(|t| t == threshold) {
                out.push(threshold.to_string());
            }
        }
        if out.iter().any(|t: &String| t.eq_ignore_ascii_case(&name)) {
            continue;
        }
        let defenses: Vec<&str> = ["dodge", "parry", "block"]
            .into_iter()
            .filter(|d| {
                features.iter().any(|f| {
                    f.get("type").and_then(Value::as_str) == Some("attribute_bonus")
                        && f.get("attribute").and_then(Value::as_str) == Some(*d)
                })
            })
            .collect();
        let by_name = COMBAT_TRAITS.iter().any(|c| named(&name, c));
        if !defenses.is_empty() {
            warnings.push(format!(
                "trait {label}: its {} bonus is already in GCS's values; its other effects are not used in combat",
                defenses.join("/")
            ));
        } else if by_name {
            warnings.push(format!("trait {label}: not used in combat"));
        } else {
            let all_purpose_dr = features.iter().any(|f| {
                f.get("type").and_then(Value::as_str) == Some("dr_bonus")
                    && text_at(f, "specialization").is_none_or(|s| s.eq_ignore_ascii_case("all"))
            });
            let mods: Vec<String> = modifiers
                .iter()
                .filter_map(|m| text_at(m, "name"))
                .collect();
            if all_purpose_dr && !mods.is_empty() {
                warnings.push(format!(
                    "trait {label}: modifiers {} not modelled (counted as plain DR)",
                    mods.join(", ")
                ));
            }
        }
    }
    out
}

/// Warnings for equipped equipment whose Defense Bonus is already in GCS's Dodge, Parry
/// and Block (a shield's DB then counts from every side).
fn equipment_notes(root: &Value, warnings: &mut Vec<String>) {
    let mut gear = Vec::new();
    flatten(list(root, "equipment"), true, &equipped, &mut gear);
    for (item, really_equipped) in gear {
        if !really_equipped {
            continue;
        }
        let mut features: Vec<&Value> = list(item, "features").iter().collect();
        for m in active_modifiers(item) {
            features.extend(list(m, "features"));
        }
        let parts: Vec<String> = [("dodge", "Dodge"), ("parry", "Parry"), ("block", "Block")]
            .into_iter()
            .filter_map(|(id, shown)| {
                let total: f64 = features
                    .iter()
                    .filter(|f| {
                        f.get("type").and_then(Value::as_str) == Some("attribute_bonus")
                            && f.get("attribute").and_then(Value::as_str) == Some(id)
                    })
                    .filter_map(|f| num_at(f, "amount"))
                    .sum();
                (total != 0.0).then(|| format!("{:+} {shown}", whole(total)))
            })
            .collect();
        if !parts.is_empty() {
            warnings.push(format!(
                "equipment {}: its Defense Bonus ({}) is already in GCS's Dodge, Parry and Block (so it counts from every side)",
                equipment_name(item),
                parts.join(", ")
            ));
        }
    }
}

#[cfg(test)]
mod tests;

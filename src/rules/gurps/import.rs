//! GCS characters as GURPS stat blocks: [`stats_of`] turns a character read by
//! [`super::gcs`] into a [`GurpsStats`] (its weapons written out with GCS's levels, damage
//! and parry, its DR by place), and [`merge`] fills a scenario's stat block that names a
//! `gcs` file from that file, the stat block's own values winning.
//!
//! What the stat block cannot carry is named in the warnings: close-combat reach (`C`)
//! becomes reach 1, fencing and unbalanced parries are kept as plain parries, thrown
//! weapons fire once and reload in a turn, and damage GURPS Lite has no type for (burning,
//! toxic…) drops the weapon.

use super::equipment::{DamageSpec, WeaponMode};
use super::gcs::{GcsCharacter, GcsWeapon};
use super::injury::PainThreshold;
use super::location::{DrPlace, HitLocation};
use super::sheet::{DrSpec, GurpsStats, OwnWeapon, WeaponRef};
use super::tables::DamageType;
use crate::dice::DiceExpr;
use crate::format::{Path, Problem};
use std::collections::BTreeMap;

/// The stat block of a GCS character, and what was dropped or approximated on the way
/// (the reader's warnings first).
pub fn stats_of(c: &GcsCharacter) -> (GurpsStats, Vec<String>) {
    let mut warnings = c.warnings.clone();
    let quarters = c.basic_speed * 4.0;
    let basic_speed = if quarters.fract() == 0.0 {
        c.basic_speed
    } else {
        warnings.push(format!(
            "Basic Speed {} kept as {} (steps of 0.25)",
            c.basic_speed,
            quarters.floor() / 4.0
        ));
        quarters.floor() / 4.0
    };
    let skills = c
        .skills
        .iter()
        .map(|s| {
            let name = match &s.specialization {
                Some(spec) if !spec.is_empty() => format!("{} ({spec})", s.name),
                _ => s.name.clone(),
            };
            (name, s.level)
        })
        .collect();
    let mut weapons = Vec::new();
    for w in &c.weapons {
        let several = c.weapons.iter().filter(|o| o.name == w.name).count() > 1;
        match own_weapon(w, several) {
            Ok((weapon, notes)) => {
                warnings.extend(notes);
                weapons.push(WeaponRef::Own(Box::new(weapon)));
            }
            Err(why) => warnings.push(why),
        }
    }
    let pain_threshold = if c.traits.iter().any(|t| t == "High Pain Threshold") {
        PainThreshold::High
    } else if c.traits.iter().any(|t| t == "Low Pain Threshold") {
        PainThreshold::Low
    } else {
        PainThreshold::Normal
    };
    let stats = GurpsStats {
        gcs: None,
        st: Some(c.st),
        dx: Some(c.dx),
        iq: Some(c.iq),
        ht: Some(c.ht),
        hp: Some(c.hp),
        fp: Some(c.fp),
        basic_speed: Some(basic_speed),
        basic_move: Some(c.basic_move),
        dodge: Some(c.dodge),
        dr: dr_of(c, &mut warnings),
        skills,
        weapons,
        armor: None,
        pain_threshold,
        sm: c.size_modifier,
        shield: None,
    };
    (stats, warnings)
}

/// DR by place from GCS's table: the skull's own DR 2, which the rules add to every skull
/// ([`HitLocation::natural_dr`]), taken off; places the table lacks get the torso's.
fn dr_of(c: &GcsCharacter, warnings: &mut Vec<String>) -> DrSpec {
    let mut places = BTreeMap::new();
    for (id, &dr) in &c.dr {
        match DrPlace::from_gcs(id) {
            Some(DrPlace::Skull) => {
                let natural = HitLocation::Skull.natural_dr();
                places.insert(DrPlace::Skull, dr.saturating_sub(natural).max(0));
            }
            Some(place) => {
                places.insert(place, dr);
            }
            None => warnings.push(format!("DR {dr} on the {id}: no such hit location here")),
        }
    }
    let torso = places.get(&DrPlace::Torso).copied().unwrap_or(0);
    if places.values().all(|&v| v == torso) && places.len() > 1 {
        return DrSpec::All(torso);
    }
    places.insert(DrPlace::All, torso);
    if places.values().all(|&v| v == 0) {
        return DrSpec::All(0);
    }
    DrSpec::ByPlace(places)
}

/// A GCS weapon usage written out, with notes on what was approximated; or why it cannot
/// be used. `several`: the item has more than one usage (the name then says which).
pub fn own_weapon(w: &GcsWeapon, several: bool) -> Result<(OwnWeapon, Vec<String>), String> {
    let label = if several && !w.usage.is_empty() {
        format!("{} ({})", w.name, w.usage)
    } else {
        w.name.clone()
    };
    let mut notes = Vec::new();
    let (damage, damage_type) = parse_damage(&w.damage).ok_or_else(|| {
        format!(
            "weapon {label}: damage `{}` not understood, dropped",
            w.damage
        )
    })?;
    let (min_st, hands) = match &w.min_st {
        Some(text) => {
            let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
            let two = text.contains('†') || text.contains('‡');
            if text.contains('‡') {
                notes.push(format!(
                    "weapon {label}: ST {text}: two-handed; unready after each attack is not \
                     in the rules used, so it stays ready"
                ));
            }
            (digits.parse().unwrap_or(0), if two { 2 } else { 1 })
        }
        None => (0, 1),
    };
    let (mode, parry) = if w.ranged {
        let acc = w.acc.as_deref().map_or(0, sum_of);
        let (half_damage, max) = match w.range.as_deref().map(range_of) {
            Some(Some(r)) => r,
            _ => {
                return Err(format!(
                    "weapon {label}: range `{}` not understood, dropped",
                    w.range.as_deref().unwrap_or("")
                ));
            }
        };
        let rof = w
            .rof
            .as_deref()
            .map_or(1, |r| leading(r).unwrap_or(1))
            .max(1);
        let (shots, reload) = match w.shots.as_deref() {
            Some(s) if s.starts_with('T') => {
                notes.push(format!(
                    "weapon {label}: thrown, kept as one shot readied again in a turn"
                ));
                (1, 1)
            }
            Some(s) => {
                let shots = leading(s).unwrap_or(1).max(1);
                let reload = s
                    .split_once('(')
                    .and_then(|(_, r)| leading(r.trim_start_matches('(')))
                    .unwrap_or(1);
                (shots, reload)
            }
            None => (1, 1),
        };
        let bulk = w
            .bulk
            .as_deref()
            .and_then(|b| b.trim().parse::<i32>().ok())
            .unwrap_or(-2);
        let rcl = w
            .recoil
            .as_deref()
            .map_or(1, |r| leading(r).unwrap_or(1))
            .max(1);
        (
            WeaponMode::Ranged {
                acc,
                half_damage,
                max,
                shots,
                reload,
                bulk,
                rof,
                rcl,
            },
            None,
        )
    } else {
        let (reach_min, reach_max) = reach_of(w.reach.as_deref().unwrap_or("1"));
        if let Some(reach) = w.reach.as_deref().filter(|r| r.contains('*')) {
            notes.push(format!(
                "weapon {label}: reach {reach}: a Ready to change reach is not in the rules \
                 used, so it strikes at any of its reaches"
            ));
        }
        if w.reach.as_deref().is_some_and(|r| r.contains('C')) {
            notes.push(format!(
                "weapon {label}: close-combat reach kept as reach 1"
            ));
        }
        let parry = match w.parry.as_deref().map(str::trim) {
            None | Some("No") | Some("-") | Some("") => None,
            Some(p) => {
                let digits: String = p
                    .chars()
                    .skip_while(|c| !c.is_ascii_digit() && *c != '-')
                    .take_while(|c| c.is_ascii_digit() || *c == '-')
                    .collect();
                if p.contains('F') || p.contains('U') {
                    notes.push(format!(
                        "weapon {label}: parry {p} kept as a plain parry (fencing and unbalanced weapons are not modelled)"
                    ));
                }
                digits.parse().ok()
            }
        };
        (
            WeaponMode::Melee {
                reach_min,
                reach_max,
                parry: None,
            },
            parry,
        )
    };
    // A level from an attribute default (no skill) is rolled as DX.
    let skill = w.skill.clone().unwrap_or_else(|| "DX".to_string());
    if let Some(block) = &w.block {
        notes.push(format!(
            "weapon {label}: Block {block} not used (a shield's Defense Bonus is inside GCS's Dodge and Parry; Block needs the catalog's `shield`)"
        ));
    }
    Ok((
        OwnWeapon {
            name: label,
            skill,
            level: w.skill_level,
            damage,
            damage_type,
            min_st,
            hands,
            mode,
            parry,
            thrust: w.thrust,
            natural: w.natural,
        },
        notes,
    ))
}

/// GCS's computed damage ("3d+7 cr", "1d-2 cut", "2d pi+") as dice and a type, if it is
/// plain dice of a type the rules know.
pub fn parse_damage(text: &str) -> Option<(DamageSpec, DamageType)> {
    let mut parts = text.split_whitespace();
    let dice = parts.next()?;
    let kind = parts.next()?;
    if parts.next().is_some() {
        return None;
    }
    let dice: DiceExpr = dice.parse().ok()?;
    let damage_type = match kind {
        "cr" => DamageType::Crushing,
        "cut" => DamageType::Cutting,
        "imp" => DamageType::Impaling,
        "pi-" => DamageType::SmallPiercing,
        "pi" => DamageType::Piercing,
        "pi+" => DamageType::LargePiercing,
        "pi++" => DamageType::HugePiercing,
        _ => return None,
    };
    Some((DamageSpec::Dice(dice), damage_type))
}

/// Reach "1", "1-2*", "C,1", "2,3" as (closest, farthest) hexes; close combat counts as 1.
fn reach_of(text: &str) -> (u32, u32) {
    let numbers: Vec<u32> = text
        .split([',', '-'])
        .filter_map(|p| p.trim().trim_end_matches('*').parse().ok())
        .collect();
    let lo = numbers.iter().copied().min().unwrap_or(1).max(1);
    let hi = numbers.iter().copied().max().unwrap_or(1).max(lo);
    (lo, hi)
}

/// Range "180/240" or "100" as (1/2D, Max) yards.
fn range_of(text: &str) -> Option<(u32, u32)> {
    let clean = |s: &str| s.trim().replace(',', "").parse::<u32>().ok();
    match text.split_once('/') {
        Some((half, max)) => Some((clean(half)?, clean(max)?)),
        None => clean(text).map(|r| (r, r)),
    }
}

/// The sum of "3+1" (Accuracy with a scope).
fn sum_of(text: &str) -> i32 {
    text.split('+')
        .filter_map(|p| p.trim().parse::<i32>().ok())
        .fold(0, i32::saturating_add)
}

/// The whole number a text starts with ("8(3)" → 8).
fn leading(text: &str) -> Option<u32> {
    let digits: String = text
        .trim()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The stat block `stats` with what its `gcs` file gives filled in (unchanged without one),
/// the file read from `dir` (the scenario's folder). The stat block's own values win:
/// attributes and derived values it gives, its skills over the file's, its `dr` (when not
/// 0) over the file's, its `sm`, pain threshold, armor (worn over what the file has) and
/// shield; its `weapons` choose among the file's by name (every usage of an item named, or
/// one usage as "Name (Usage)"), a name the file lacks taken from the catalog.
pub fn merge(
    stats: &GurpsStats,
    dir: Option<&std::path::Path>,
) -> Result<GurpsStats, Vec<Problem>> {
    let Some(file) = &stats.gcs else {
        return Ok(stats.clone());
    };
    let here = Path::root().field("gcs");
    let path = match dir {
        Some(d) => d.join(file),
        None => std::path::PathBuf::from(file),
    };
    let text = crate::format::read_text_file(&path).map_err(|e| {
        vec![Problem::new(
            here.clone(),
            format!("cannot read GCS file {}: {e}", path.display()),
        )]
    })?;
    let character = super::gcs::read(&text).map_err(|e| {
        let at = if e.line > 0 {
            format!("{}:{}:{}", path.display(), e.line, e.column)
        } else {
            path.display().to_string()
        };
        vec![Problem::new(here.clone(), format!("{at}: {}", e.message))]
    })?;
    let (base, _) = stats_of(&character);
    let mut weapons = Vec::new();
    for w in &stats.weapons {
        match w {
            WeaponRef::Named(name) => {
                let picked: Vec<&WeaponRef> = base
                    .weapons
                    .iter()
                    .filter(|b| {
                        // The item's name alone picks each of its usages ("Item (Usage)").
                        let n = b.name().to_lowercase();
                        let name = name.to_lowercase();
                        n == name || n.starts_with(&format!("{name} ("))
                    })
                    .collect();
                if picked.is_empty() {
                    weapons.push(w.clone());
                } else {
                    weapons.extend(picked.into_iter().cloned());
                }
            }
            WeaponRef::Own(_) => weapons.push(w.clone()),
        }
    }
    if stats.weapons.is_empty() {
        weapons = base.weapons.clone();
    }
    let mut skills = base.skills.clone();
    skills.extend(stats.skills.iter().map(|(k, v)| (k.clone(), *v)));
    Ok(GurpsStats {
        gcs: None,
        st: stats.st.or(base.st),
        dx: stats.dx.or(base.dx),
        iq: stats.iq.or(base.iq),
        ht: stats.ht.or(base.ht),
        hp: stats.hp.or(base.hp),
        fp: stats.fp.or(base.fp),
        basic_speed: stats.basic_speed.or(base.basic_speed),
        basic_move: stats.basic_move.or(base.basic_move),
        dodge: stats.dodge.or(base.dodge),
        dr: if stats.dr == DrSpec::default() {
            base.dr
        } else {
            stats.dr.clone()
        },
        skills,
        weapons,
        armor: stats.armor.clone(),
        pain_threshold: if stats.pain_threshold == PainThreshold::Normal {
            base.pain_threshold
        } else {
            stats.pain_threshold
        },
        sm: if stats.sm == 0 { base.sm } else { stats.sm },
        shield: stats.shield.clone(),
    })
}

/// `problems` of a stat block naming a `gcs` file, with the file's own weapons named
/// where a weapon name was found neither there nor in the catalog: a name in `weapons`
/// picks the file's weapon first ([`merge`]), so both lists are what it may be.
pub fn with_file_weapons(
    stats: &GurpsStats,
    dir: Option<&std::path::Path>,
    mut problems: Vec<Problem>,
) -> Vec<Problem> {
    const UNKNOWN: &str = "unknown weapon `";
    const EXPECTED: &str = ": expected one of ";
    if stats.gcs.is_none() || !problems.iter().any(|p| p.message.starts_with(UNKNOWN)) {
        return problems;
    }
    // The file's weapons: the block merged with no weapons of its own takes them all.
    let bare = GurpsStats {
        weapons: Vec::new(),
        ..stats.clone()
    };
    let Ok(merged) = merge(&bare, dir) else {
        return problems;
    };
    let mut names: Vec<String> = Vec::new();
    for w in &merged.weapons {
        let name = format!("`{}`", w.name());
        if !names.contains(&name) {
            names.push(name);
        }
    }
    if names.is_empty() {
        return problems;
    }
    for p in &mut problems {
        if p.message.starts_with(UNKNOWN)
            && let Some((head, catalog)) = p.message.split_once(EXPECTED)
        {
            p.message = format!(
                "{head}: expected one of the GCS file's weapons, {}, or of the catalog's, {catalog}",
                names.join(", ")
            );
        }
    }
    problems
}

/// The problems of a merged stat block ([`merge`]), each where the scenario can show it: at
/// the field the stat block itself sets (an attribute, `armor`, `shield`, `sm`), else at
/// its `gcs` field with the merged path in the message (a value that came from the file,
/// or a weapon of the merged list).
pub fn locate_merged(stats: &GurpsStats, problems: Vec<Problem>) -> Vec<Problem> {
    let Some(file) = &stats.gcs else {
        return problems;
    };
    let own = |field: &str| match field {
        "st" => stats.st.is_some(),
        "dx" => stats.dx.is_some(),
        "iq" => stats.iq.is_some(),
        "ht" => stats.ht.is_some(),
        "hp" => stats.hp.is_some(),
        "fp" => stats.fp.is_some(),
        "basic_speed" => stats.basic_speed.is_some(),
        "basic_move" => stats.basic_move.is_some(),
        "dodge" => stats.dodge.is_some(),
        "armor" | "shield" | "sm" => true,
        _ => false,
    };
    problems
        .into_iter()
        .map(|p| {
            let shown = p.path.to_string();
            let root: String = shown
                .chars()
                .take_while(|c| *c != '.' && *c != '[')
                .collect();
            if own(&root) {
                p
            } else {
                Problem::new(
                    Path::root().field("gcs"),
                    format!("{shown} (from {file}): {}", p.message),
                )
            }
        })
        .collect()
}

/// [`stats_of`], with a warning more for each thing a scenario would refuse in the stat
/// block (a value beyond its range, such as ST 500): what `skirmish import-gcs` says, so
/// that a character a scenario cannot use is not printed as if it could.
pub fn checked_stats_of(c: &GcsCharacter) -> (GurpsStats, Vec<String>) {
    let (stats, mut warnings) = stats_of(c);
    if let Err(problems) = super::sheet::resolve_sheet(&stats, super::equipment::Catalog::builtin())
    {
        warnings.extend(problems.into_iter().map(|p| {
            let at = p.path.to_string();
            let at = if at.is_empty() {
                String::new()
            } else {
                format!("{at}: ")
            };
            format!(
                "{at}{} (a scenario refuses this character until it is mended)",
                p.message
            )
        }));
    }
    (stats, warnings)
}

/// The RON stat block `skirmish import-gcs` prints for a character, with a comment header
/// naming the source file and listing the warnings.
pub fn template_ron(source: &str, c: &GcsCharacter) -> Result<String, String> {
    let (stats, warnings) = checked_stats_of(c);
    // With the scenario files' own options: `Some(..)` left out around optional values.
    let body = crate::format::ron_options()
        .to_string_pretty(
            &stats,
            ron::ser::PrettyConfig::new()
                .struct_names(false)
                .indentor("    ".to_string()),
        )
        .map_err(|e| e.to_string())?;
    let mut out = format!(
        "// {}: imported from {source} by skirmish import-gcs\n",
        c.name
    );
    out.push_str(
        "// Use it as a GURPS unit's stats (`stats: Gurps(...)`) or a template; or name the\n",
    );
    out.push_str("// file itself: `stats: Gurps(gcs: \"path/to/file.gcs\")`.\n");
    for w in &warnings {
        out.push_str(&format!("// warning: {w}\n"));
    }
    out.push_str("Gurps");
    out.push_str(&body);
    out.push('\n');
    Ok(out)
}

/// The scenario of `prepared` with one more GURPS unit, the character of GCS file `gcs`,
/// on side `side` (an id): named after the character (numbered if the name is taken), at
/// the free hex nearest that side's first unit (or the map's middle), its stat block naming
/// the file (relative to the scenario's folder when the file lies inside it). For the
/// window's "Add from GCS file"; the result is validated like any scenario by the caller.
pub fn add_character(
    prepared: &crate::scenario::Prepared,
    gcs: &std::path::Path,
    side: &str,
) -> Result<(crate::scenario::ScenarioFile, String), String> {
    use crate::scenario::contract::Entry;
    use crate::scenario::{Ruleset, Tagged, UnitSpec, UnitStats};
    if prepared.ruleset != <super::Gurps as Ruleset>::ID {
        return Err("GCS characters join GURPS battles only".into());
    }
    let Some(side_index) = prepared.sides.iter().position(|s| s.id == side) else {
        return Err(format!("no side `{side}` in this scenario"));
    };
    let text = crate::format::read_text_file(gcs).map_err(|e| format!("{}: {e}", gcs.display()))?;
    let character = super::gcs::read(&text).map_err(|e| {
        if e.line > 0 {
            format!("{}:{}:{}: {}", gcs.display(), e.line, e.column, e.message)
        } else {
            format!("{}: {}", gcs.display(), e.message)
        }
    })?;
    let mut file = prepared.file.clone();
    let base = if character.name.trim().is_empty() {
        "Character".to_string()
    } else {
        character.name.trim().to_string()
    };
    let mut name = base.clone();
    let mut n = 2;
    while file.units.iter().any(|u| u.name == name) {
        name = format!("{base} {n}");
        n += 1;
    }
    let taken: std::collections::HashSet<hexx::Hex> = prepared.units.iter().map(|u| u.at).collect();
    let start = prepared
        .units
        .iter()
        .find(|u| usize::from(u.side) == side_index)
        .map_or(hexx::Hex::ZERO, |u| u.at);
    let at = (prepared.map)
        .nearest_open(start, |h| taken.contains(&h))
        .ok_or("no free hex on the map for the character")?;
    let relative = match (
        &file.dir,
        gcs.canonicalize(),
        file.dir.as_ref().map(|d| d.canonicalize()),
    ) {
        (Some(_), Ok(full), Some(Ok(dir))) => full
            .strip_prefix(&dir)
            .map(std::path::Path::to_path_buf)
            .unwrap_or(full),
        (_, Ok(full), _) => full,
        _ => gcs.to_path_buf(),
    };
    let stats = GurpsStats {
        gcs: Some(relative.display().to_string()),
        st: None,
        dx: None,
        iq: None,
        ht: None,
        ..GurpsStats::default()
    };
    file.units.push(UnitSpec {
        name: name.clone(),
        side: side.to_string(),
        at: (at.x, at.y),
        facing: None,
        template: None,
        stats: Some(UnitStats(Tagged {
            ruleset: Entry::<super::Gurps>::ERASED,
            value: std::sync::Arc::new(stats),
        })),
    });
    Ok((file, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GCS's damage strings: plain dice and the types of the rules; anything else is not
    /// understood.
    #[test]
    fn damage_strings() {
        let (d, t) = parse_damage("3d+7 cr").expect("plain damage");
        assert_eq!(d.to_string(), "3d+7");
        assert_eq!(t, DamageType::Crushing);
        assert_eq!(
            parse_damage("1d-2 cut").map(|x| x.1),
            Some(DamageType::Cutting)
        );
        assert_eq!(
            parse_damage("2d pi+").map(|x| x.1),
            Some(DamageType::LargePiercing)
        );
        assert!(parse_damage("1d burn").is_none());
        assert!(parse_damage("2d(2) imp").is_none());
        assert!(parse_damage("").is_none());
    }

    /// Reach, range, shots and accuracy as GCS writes them.
    #[test]
    fn weapon_numbers() {
        assert_eq!(reach_of("1"), (1, 1));
        assert_eq!(reach_of("1-2*"), (1, 2));
        assert_eq!(reach_of("C,1"), (1, 1));
        assert_eq!(reach_of("C"), (1, 1));
        assert_eq!(reach_of("2,3"), (2, 3));
        assert_eq!(range_of("180/240"), Some((180, 240)));
        assert_eq!(range_of("1,500/2,000"), Some((1500, 2000)));
        assert_eq!(range_of("100"), Some((100, 100)));
        assert_eq!(range_of("x15/x20"), None);
        assert_eq!(sum_of("3+1"), 4);
        assert_eq!(leading("8(3)"), Some(8));
    }

    /// A melee usage with a two-handed minimum ST and a ranged one with shots and reload.
    #[test]
    fn gcs_weapons_written_out() {
        let maul = GcsWeapon {
            name: "Maul".into(),
            usage: "Swung".into(),
            skill_level: 16,
            damage: "3d+7 cr".into(),
            reach: Some("1-2*".into()),
            parry: Some("11".into()),
            min_st: Some("13‡".into()),
            ..Default::default()
        };
        let (w, notes) = own_weapon(&maul, false).expect("a weapon");
        assert_eq!(w.name, "Maul");
        assert_eq!((w.level, w.min_st, w.hands, w.parry), (16, 13, 2, Some(11)));
        assert_eq!(
            w.mode,
            WeaponMode::Melee {
                reach_min: 1,
                reach_max: 2,
                parry: None
            }
        );
        // What the rules do not have is said: unready after an attack (‡), a Ready to
        // change reach (*).
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("ST 13‡") && notes[0].contains("stays ready"));
        assert!(notes[1].contains("reach 1-2*") && notes[1].contains("any of its reaches"));
        let bow = GcsWeapon {
            name: "Short Bow".into(),
            usage: "Shoot".into(),
            ranged: true,
            skill_level: 12,
            damage: "1d imp".into(),
            acc: Some("1".into()),
            range: Some("110/165".into()),
            rof: Some("1".into()),
            shots: Some("1(2)".into()),
            bulk: Some("-6".into()),
            ..Default::default()
        };
        let (w, _) = own_weapon(&bow, true).expect("a weapon");
        assert_eq!(w.name, "Short Bow (Shoot)");
        assert_eq!(
            w.mode,
            WeaponMode::Ranged {
                acc: 1,
                half_damage: 110,
                max: 165,
                shots: 1,
                reload: 2,
                bulk: -6,
                rof: 1,
                rcl: 1
            }
        );
        let fire = GcsWeapon {
            name: "Fire breath".into(),
            damage: "2d burn".into(),
            ..Default::default()
        };
        assert!(own_weapon(&fire, false).is_err_and(|e| e.contains("Fire breath")));
    }

    /// Sheets from the shipped GCS files (scenarios/gcs/): Dai Blackthorn's bite,
    /// punch and kick are a trait's (Natural Attacks) at DX, not a skill of fists, yet
    /// still part of the body: a failed knockdown roll drops none of them, only what is in
    /// hand, the Ogre's maul (gurps-lite-and-socs.txt, "Knockdown and Stunning"); their
    /// fumbles are unarmed (gurps-traveller-gm-screen.txt, "UNARMED CRITICAL MISSES"); and a
    /// parry with Dai's punch is bare-handed: −3 against the Orc's falchion swung, none
    /// against its thrust (GCS's `thr`; gurps-traveller-gm-screen.txt, "MODIFIERS TO
    /// ACTIVE DEFENSE ROLLS", Unarmed parry vs. weapon).
    #[test]
    fn natural_attacks_and_thrusts_from_gcs() {
        use crate::rules::gurps::criticals::{MissTable, WeaponState};
        use crate::rules::gurps::defense::unarmed_parry_penalty;
        use crate::rules::gurps::equipment::Catalog;
        use crate::rules::gurps::sheet::{Fighter, resolve_sheet};
        use std::sync::Arc;
        let stats_in = |file: &str| {
            let path = format!("{}/scenarios/gcs/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("a shipped sample");
            stats_of(&crate::rules::gurps::gcs::read(&text).expect("a GCS character")).0
        };
        let sheet_of = |stats: &GurpsStats| {
            Arc::new(resolve_sheet(stats, Catalog::builtin()).expect("a valid sheet"))
        };
        let dai_stats = stats_in("Dai Blackthorn.gcs");
        let dai = sheet_of(&dai_stats);
        let weapons: Vec<(&str, &str, bool, bool)> = dai
            .weapons
            .iter()
            .map(|w| (&*w.name, &*w.skill_name, w.natural, w.held()))
            .collect();
        assert_eq!(
            weapons,
            [
                ("Natural Attacks (Bite)", "DX", true, false),
                ("Natural Attacks (Punch)", "DX", true, false),
                ("Natural Attacks (Kick)", "DX", true, false),
                ("punch", "Brawling", false, false),
            ]
        );
        // A fumble with them rolls on the unarmed table ("a punch, kick or other unarmed
        // strike"), whose rows drop and break nothing; the Ogre's maul on the weapon one.
        assert!(
            dai.weapons
                .iter()
                .all(|w| w.miss_table() == MissTable::Unarmed)
        );
        let mut f = Fighter::new(dai.clone());
        assert!(!f.knocked_down(), "nothing in hand to drop");
        assert!(f.weapon_state.iter().all(|s| *s == WeaponState::Ready));
        let mut ogre = Fighter::new(sheet_of(&stats_in("Ogre.gcs")));
        assert_eq!(&*ogre.sheet.weapons[0].name, "Maul");
        assert_eq!(ogre.sheet.weapons[0].miss_table(), MissTable::Weapon);
        assert!(ogre.knocked_down());
        assert_eq!(
            ogre.weapon_state,
            [
                WeaponState::Unready,
                WeaponState::Ready,
                WeaponState::Ready,
                WeaponState::Ready
            ]
        );
        let orc = sheet_of(&stats_in("Orc, Warrior.gcs"));
        let falchion = |usage: &str| {
            orc.weapons
                .iter()
                .find(|w| *w.name == *format!("Falchion ({usage})"))
                .expect("the falchion")
        };
        assert!(falchion("Thrust").thrust && !falchion("Swung").thrust);
        let punch = &dai.weapons[1];
        assert_eq!(
            unarmed_parry_penalty(punch, falchion("Swung")).map(|m| m.value),
            Some(-3)
        );
        assert_eq!(unarmed_parry_penalty(punch, falchion("Thrust")), None);
        // Written back out, the marks are kept; a weapon without them writes neither.
        let written = ron::to_string(&dai_stats).expect("RON out");
        assert_eq!(written.matches("natural:true").count(), 3, "{written}");
        assert!(!written.contains("natural:false"), "{written}");
    }
}

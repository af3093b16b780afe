//! DR by hit location from a GCS character (part of [`super`]): the body type's table
//! as GCS stores it (`settings.body_type.locations[].calc.dr`, through sub-tables), and the
//! same worked out again from the DR features of traits and equipment where the file
//! lacks it (only all-purpose DR; specialized DR is named in a warning).

use super::*;

/// One row of the body type's hit location table (sub-tables flattened).
struct BodyLocation {
    id: String,
    /// The location's own DR (`dr_bonus`: the skull's 2).
    own: i32,
    /// The location whose sub-table this one is in.
    parent: Option<usize>,
    /// GCS's all-purpose DR (`calc.dr.all`), when the file has `calc.dr`.
    stored: Option<i32>,
}

/// GCS's default Humanoid body, for a file without a body type: (id, own DR).
const HUMANOID: [(&str, i32); 11] = [
    ("eye", 0),
    ("skull", 2),
    ("face", 0),
    ("leg", 0),
    ("arm", 0),
    ("torso", 0),
    ("groin", 0),
    ("hand", 0),
    ("foot", 0),
    ("neck", 0),
    ("vitals", 0),
];

/// The hit location table, and whether it is the assumed Humanoid one (the file has none).
fn body_locations(root: &Value) -> (Vec<BodyLocation>, bool) {
    fn add(locations: &[Value], parent: Option<usize>, out: &mut Vec<BodyLocation>) {
        for l in locations {
            let Some(id) = text_at(l, "id") else {
                continue;
            };
            let stored = l
                .get("calc")
                .and_then(|c| c.get("dr"))
                .filter(|dr| dr.is_object())
                .map(|dr| num_at(dr, "all").map_or(0, whole));
            out.push(BodyLocation {
                id,
                own: num_at(l, "dr_bonus").map_or(0, whole),
                parent,
                stored,
            });
            let index = out.len() - 1;
            if let Some(sub) = l.get("sub_table") {
                add(list(sub, "locations"), Some(index), out);
            }
        }
    }
    let table = root
        .get("settings")
        .and_then(|s| s.get("body_type"))
        .and_then(|b| b.get("locations"))
        .and_then(Value::as_array);
    match table {
        Some(locations) => {
            let mut out = Vec::new();
            add(locations, None, &mut out);
            (out, false)
        }
        None => (
            HUMANOID
                .iter()
                .map(|&(id, own)| BodyLocation {
                    id: id.to_string(),
                    own,
                    parent: None,
                    stored: None,
                })
                .collect(),
            true,
        ),
    }
}

/// One `dr_bonus` feature in effect, its amount worked out.
struct DrFeature {
    /// "trait Damage Resistance 3", "equipment Helmet".
    source: String,
    /// Location ids (`all`: every top-level location).
    locations: Vec<String>,
    /// `None` for all-purpose DR.
    specialization: Option<String>,
    amount: i32,
}

/// The `dr_bonus` features of a feature list, `amount` (× `level` when `per_level`).
fn dr_bonuses(features: &[Value], level: f64, source: &str, out: &mut Vec<DrFeature>) {
    for f in features {
        if f.get("type").and_then(Value::as_str) != Some("dr_bonus") {
            continue;
        }
        let mut locations: Vec<String> = list(f, "locations")
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        if let Some(one) = text_at(f, "location") {
            locations.push(one);
        }
        let amount = num_at(f, "amount").unwrap_or(0.0);
        let amount = if flag(f, "per_level") {
            amount * level.max(0.0)
        } else {
            amount
        };
        let specialization =
            text_at(f, "specialization").filter(|s| !s.eq_ignore_ascii_case("all"));
        out.push(DrFeature {
            source: source.to_string(),
            locations,
            specialization,
            amount: amount.trunc() as i32,
        });
    }
}

/// Every `dr_bonus` feature in effect, as GCS gathers them: enabled traits (not
/// containers) and the enabled modifiers of enabled traits (per level: the modifier's own
/// levels, else the trait's), skills and spells, equipped equipment (it and its
/// containers equipped) and its enabled modifiers. A bonus on equipment naming no
/// location ("this armor") covers the locations the item's other DR bonuses name.
fn dr_features(root: &Value) -> Vec<DrFeature> {
    let mut out = Vec::new();
    let mut traits = Vec::new();
    flatten(list(root, "traits"), true, &enabled, &mut traits);
    for (t, active) in traits {
        if !active {
            continue;
        }
        let level = trait_level(t);
        let source = format!("trait {}", trait_label(t));
        if !is_container(t) {
            dr_bonuses(list(t, "features"), level, &source, &mut out);
        }
        for m in active_modifiers(t) {
            let own = num_at(m, "levels").filter(|l| *l > 0.0);
            dr_bonuses(list(m, "features"), own.unwrap_or(level), &source, &mut out);
        }
    }
    for (key, what) in [("skills", "skill"), ("spells", "spell")] {
        let mut rows = Vec::new();
        flatten(list(root, key), true, &|_| true, &mut rows);
        for (row, _) in rows {
            if is_container(row) {
                continue;
            }
            let name = text_at(row, "name").unwrap_or_default();
            let level = num_at(row, "levels").unwrap_or(0.0);
            dr_bonuses(
                list(row, "features"),
                level,
                &format!("{what} {name}"),
                &mut out,
            );
        }
    }
    let mut gear = Vec::new();
    flatten(list(root, "equipment"), true, &equipped, &mut gear);
    for (item, really_equipped) in gear {
        if !really_equipped {
            continue;
        }
        let level = num_at(item, "levels")
            .or_else(|| num_at(item, "level"))
            .unwrap_or(0.0);
        let source = format!("equipment {}", equipment_name(item));
        let mut own = Vec::new();
        dr_bonuses(list(item, "features"), level, &source, &mut own);
        for m in active_modifiers(item) {
            dr_bonuses(list(m, "features"), level, &source, &mut own);
        }
        let mut covered: Vec<String> = Vec::new();
        for f in &own {
            for l in &f.locations {
                if !covered.iter().any(|c| c.eq_ignore_ascii_case(l)) {
                    covered.push(l.clone());
                }
            }
        }
        for mut f in own {
            if f.locations.is_empty() {
                f.locations = covered.clone();
            }
            out.push(f);
        }
    }
    out
}

/// Whether a feature's locations cover a location id (`all` covers the top-level ones).
fn covers(f: &DrFeature, id: &str, top_level: bool) -> bool {
    f.locations
        .iter()
        .any(|l| l.eq_ignore_ascii_case(id) || (top_level && l.eq_ignore_ascii_case("all")))
}

/// DR per hit location id worked out from the features, as GCS works out its table: the
/// location's own DR (the skull's 2), plus every all-purpose `dr_bonus` in effect that
/// names it (each feature once), plus, for a location of a sub-table, the DR of the
/// location that holds the sub-table. Also the notes on specialized DR left out, by source.
pub(super) fn recomputed_dr(root: &Value) -> (BTreeMap<String, i32>, Vec<String>) {
    let (body, _) = body_locations(root);
    let features = dr_features(root);
    let mut dr = BTreeMap::new();
    for (i, l) in body.iter().enumerate() {
        if dr.contains_key(&l.id) {
            continue;
        }
        let mut total = 0;
        let mut at = Some(i);
        while let Some(index) = at {
            let Some(here) = body.get(index) else { break };
            // Saturating: a file's numbers may be anything.
            total = i32::saturating_add(total, here.own);
            total = features
                .iter()
                .filter(|f| {
                    f.specialization.is_none() && covers(f, &here.id, here.parent.is_none())
                })
                .map(|f| f.amount)
                .fold(total, i32::saturating_add);
            // A sub-table's parent comes before it, so this ends.
            at = here.parent.filter(|p| *p < index);
        }
        dr.insert(l.id.clone(), total);
    }
    let mut notes = Vec::new();
    for f in features.iter().filter(|f| f.amount != 0) {
        let Some(spec) = &f.specialization else {
            continue;
        };
        let mut places: Vec<&str> = Vec::new();
        for l in &body {
            if covers(f, &l.id, l.parent.is_none()) && !places.contains(&l.id.as_str()) {
                places.push(&l.id);
            }
        }
        if places.is_empty() {
            continue;
        }
        let note = format!(
            "{}: DR {} against {spec} on {} not used (only all-purpose DR is)",
            f.source,
            f.amount,
            places.join(", ")
        );
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    (dr, notes)
}

/// GCS's own DR per location id (`calc.dr.all`), for the locations that have it.
pub(super) fn stored_dr(root: &Value) -> BTreeMap<String, i32> {
    let mut dr = BTreeMap::new();
    for l in body_locations(root).0 {
        if let Some(stored) = l.stored {
            dr.entry(l.id).or_insert(stored);
        }
    }
    dr
}

/// The DR table: GCS's where the file has it, the worked-out value elsewhere, with
/// warnings for a disagreement, for the worked-out values used, and for specialized DR.
pub(super) fn dr_table(root: &Value, warnings: &mut Vec<String>) -> BTreeMap<String, i32> {
    let (worked_out, notes) = recomputed_dr(root);
    let stored = stored_dr(root);
    let (body, assumed) = body_locations(root);
    if assumed {
        warnings.push(
            "no hit location table in the file (settings.body_type): GCS's Humanoid body assumed, DR worked out from traits and armor"
                .to_string(),
        );
    } else {
        let missing: Vec<&str> = (HUMANOID.iter())
            .map(|&(id, _)| id)
            .filter(|id| !body.iter().any(|l| l.id.eq_ignore_ascii_case(id)))
            .collect();
        if !missing.is_empty() {
            warnings.push(format!(
                "the body type has no {}: the rules' hit locations are the humanoid ones \
                 (gurps-lite-and-socs.txt, HIT LOCATIONS), so blows land there too, with the \
                 torso's DR",
                missing.join(", ")
            ));
        }
    }
    let mut dr = BTreeMap::new();
    let mut recomputed_only = Vec::new();
    for (id, &mine) in &worked_out {
        match stored.get(id) {
            Some(&gcs) => {
                if gcs != mine {
                    warnings.push(format!(
                        "DR on the {id}: GCS's table says {gcs}, the traits and armor add up to {mine}; GCS's kept"
                    ));
                }
                dr.insert(id.clone(), gcs);
            }
            None => {
                recomputed_only.push(id.as_str());
                dr.insert(id.clone(), mine);
            }
        }
    }
    if !recomputed_only.is_empty() && !assumed {
        warnings.push(format!(
            "DR on the {}: not in the file's hit location table (calc.dr), worked out from traits and armor",
            recomputed_only.join(", ")
        ));
    }
    warnings.extend(notes);
    dr
}

//! What every auditor reads the same way: the events of a log, roll records and their
//! modifiers by label.

use serde_json::Value;

/// The events of a `run --json` document.
pub fn events(log: &Value) -> &[Value] {
    log["events"].as_array().map_or(&[], |v| v.as_slice())
}

/// The `event` tag of an event.
pub fn kind(e: &Value) -> &str {
    e["event"].as_str().unwrap_or("")
}

/// A roll record's faces.
pub fn faces(roll: &Value) -> Vec<i64> {
    roll["faces"]
        .as_array()
        .map_or(Vec::new(), |v| v.iter().filter_map(Value::as_i64).collect())
}

/// A list of labelled values (a roll's `modifiers`, a damage event's `steps`) as
/// (label, value).
pub fn labelled(list: &Value) -> Vec<(String, i64)> {
    list.as_array().map_or(Vec::new(), |v| {
        v.iter()
            .map(|m| {
                (
                    m["label"].as_str().unwrap_or("").to_string(),
                    m["value"].as_i64().unwrap_or(0),
                )
            })
            .collect()
    })
}

/// A roll record's modifiers as (label, value).
pub fn modifiers(roll: &Value) -> Vec<(String, i64)> {
    labelled(&roll["modifiers"])
}

/// For planted-error tests: a copy of a real log of the first shipped scenario named
/// `scenario` (the first seed from 1 to 20 with an event `pick` accepts; the real log must
/// audit clean) with that event changed by `plant`; also the event's index and the file.
pub fn planted(
    audit: impl Fn(&std::path::Path, &Value) -> Vec<super::Violation>,
    scenario: &str,
    pick: impl Fn(&Value) -> bool,
    plant: impl Fn(&mut Value),
) -> (Value, usize, std::path::PathBuf) {
    let file = super::scenarios(scenario)
        .into_iter()
        .next()
        .expect("the scenario is shipped");
    for seed in 1..=20 {
        let mut log = super::battle(&file, seed);
        assert!(
            audit(&file, &log).is_empty(),
            "the real log of {scenario} seed {seed} is clean"
        );
        let evs = log["events"].as_array_mut().expect("events");
        if let Some(k) = evs.iter().position(&pick) {
            plant(&mut evs[k]);
            return (log, k, file);
        }
    }
    panic!("no event to plant an error in");
}

/// The sum of a roll record's modifiers.
pub fn modifier_sum(roll: &Value) -> i64 {
    modifiers(roll).iter().map(|(_, v)| v).sum()
}

/// The value of the modifier labelled exactly `label`, if the roll has one.
pub fn modifier(roll: &Value, label: &str) -> Option<i64> {
    modifiers(roll)
        .into_iter()
        .find(|(l, _)| l == label)
        .map(|(_, v)| v)
}

/// The unit names of the log, by unit index.
pub fn unit_names(log: &Value) -> Vec<String> {
    log["units"].as_array().map_or(Vec::new(), |v| {
        v.iter()
            .map(|u| u["name"].as_str().unwrap_or("").to_string())
            .collect()
    })
}

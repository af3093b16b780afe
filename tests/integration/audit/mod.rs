//! Log auditors (issue 26): every shipped scenario is fought over many seeds and every
//! logged roll is recomputed from what the log (`run --json`) says and the scenario's own
//! stat blocks, with the arithmetic written here from the rule texts in
//! `../shared/rules/` — never by calling the function under test. An auditor checks sums
//! (dice + each labelled modifier = total; success and criticals by the text's own rule),
//! and meaning: each labelled modifier's value against the rule that names it, each table
//! lookup against the table, damage after armour, and the state changes that follow.
//!
//! Zero violations are allowed. `cargo test` fights `SKIRMISH_AUDIT_SEEDS` seeds per
//! scenario (default [`DEFAULT_SEEDS`]); `bench/audit.sh` runs 10,000 in release mode.
//! Each auditor is proved by a planted-error test: a wrong modifier written into a copy of
//! a real log must be reported.

pub mod common;
pub mod dogfights;
pub mod gurps;
pub mod main_sequence;
pub mod traveller;
pub mod vergeworlds;

use serde_json::Value;
use skirmish::report;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Seeds per scenario under `cargo test` unless `SKIRMISH_AUDIT_SEEDS` says otherwise.
pub const DEFAULT_SEEDS: u64 = 12;

/// The number of seeds to fight each scenario with.
pub fn seed_count() -> u64 {
    std::env::var("SKIRMISH_AUDIT_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEEDS)
}

/// The shipped scenarios whose file name starts with `prefix` (`scenarios/<prefix>*.ron`),
/// sorted.
pub fn scenarios(prefix: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("scenarios/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "ron")
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(prefix))
        })
        .collect();
    files.sort();
    files
}

/// The scenario file as RON text parsed loosely (for the auditors' own reading of the stat
/// blocks), and the `run --json` document of one battle with `seed`.
pub fn battle(file: &Path, seed: u64) -> Value {
    let prepared = skirmish::rules::builtin()
        .load(file)
        .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.render(false)));
    let mut session = report::run_battle(Arc::new(prepared), seed);
    let json = report::battle_json(&mut session, file, serde_json::Map::new())
        .expect("the battle writes as JSON");
    serde_json::from_str(&json).expect("run --json writes JSON")
}

/// One rule the log breaks: where, and what.
#[derive(Clone, Debug)]
pub struct Violation {
    /// Index of the event in the log.
    pub event: usize,
    /// What is wrong, with the rule's file and section.
    pub what: String,
}

/// Fights every scenario starting with `prefix` over [`seed_count`] seeds and runs `audit`
/// on each log; panics listing the first violations (with scenario and seed) if any.
pub fn audit_all(prefix: &str, audit: impl Fn(&Path, &Value) -> Vec<Violation>) {
    let files = scenarios(prefix);
    assert!(!files.is_empty(), "no scenario starts with {prefix}");
    let mut found = Vec::new();
    let mut battles = 0;
    for file in &files {
        for seed in 1..=seed_count() {
            let log = battle(file, seed);
            battles += 1;
            for v in audit(file, &log) {
                found.push(format!(
                    "{} --seed {seed}, event {}: {}",
                    file.file_name().and_then(|n| n.to_str()).unwrap_or("?"),
                    v.event,
                    v.what
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} violations in {battles} battles; the first:\n{}",
        found.len(),
        found
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!("audit {prefix}: {battles} battles, no violations");
}

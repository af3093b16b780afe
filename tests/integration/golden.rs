//! Golden logs: every shipped scenario fought with seeds 1, 2 and 3 must print exactly the
//! `skirmish run` text and `run --json` document stored in `tests/golden/`, byte for byte.
//! A refactor keeps them identical; a deliberate rules change that alters a battle updates
//! the files in the same commit, saying why. To rewrite them on purpose:
//!
//! ```sh
//! SKIRMISH_BLESS=1 cargo test --test integration golden
//! ```
//!
//! (see `tests/golden/README.md`).

use skirmish::report;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The seeds every scenario is fought with.
const SEEDS: [u64; 3] = [1, 2, 3];

/// The shipped scenarios, as paths relative to the package root (as a user names them).
fn shipped() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("scenarios"))
        .expect("scenarios/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .map(|p| Path::new("scenarios").join(p.file_name().expect("a file name has a last part")))
        .collect();
    files.sort();
    files
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The golden file of `scenario` fought with `seed`, with extension `ext`.
fn golden_path(scenario: &Path, seed: u64, ext: &str) -> PathBuf {
    let stem = scenario
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("scenario names are UTF-8");
    golden_dir().join(format!("{stem}.seed{seed}.{ext}"))
}

/// Where `got` first differs from `want`, as a line number and the two lines.
fn first_difference(want: &str, got: &str) -> String {
    let (mut w, mut g) = (want.lines(), got.lines());
    let mut n = 1;
    loop {
        match (w.next(), g.next()) {
            (Some(a), Some(b)) if a == b => n += 1,
            (a, b) => {
                return format!(
                    "line {n}:\n  golden: {}\n  now:    {}",
                    a.unwrap_or("<end of file>"),
                    b.unwrap_or("<end of file>")
                );
            }
        }
    }
}

/// Fights every shipped scenario with `seed` and compares (or, under `SKIRMISH_BLESS`,
/// rewrites) its golden text and JSON.
fn check_seed(seed: u64) {
    let bless = std::env::var_os("SKIRMISH_BLESS").is_some();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    for file in shipped() {
        let prepared = skirmish::rules::builtin()
            .load(&root.join(&file))
            .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.render(false)));
        let mut session = report::run_battle(Arc::new(prepared), seed);
        let text = report::battle_text(&mut session);
        let json = report::battle_json(&mut session, &file, serde_json::Map::new())
            .expect("the battle writes as JSON");
        for (ext, got) in [("txt", text), ("json", json)] {
            let path = golden_path(&file, seed, ext);
            if bless {
                std::fs::write(&path, &got).expect("the golden file is writable");
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(want) if want == got => {}
                Ok(want) => failures.push(format!(
                    "{} differs from `skirmish run {} --seed {seed}{}`, {}",
                    path.display(),
                    file.display(),
                    if ext == "json" { " --json" } else { "" },
                    first_difference(&want, &got)
                )),
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden logs differ (if the change is deliberate, rewrite them with \
         `SKIRMISH_BLESS=1 cargo test --test integration golden` and say why in the commit):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn golden_logs_seed_1() {
    check_seed(SEEDS[0]);
}

#[test]
fn golden_logs_seed_2() {
    check_seed(SEEDS[1]);
}

#[test]
fn golden_logs_seed_3() {
    check_seed(SEEDS[2]);
}

/// Every golden file belongs to a shipped scenario and one of the seeds, so a renamed or
/// removed scenario cannot leave stale logs behind.
#[test]
fn every_golden_file_has_its_scenario() {
    let wanted: Vec<PathBuf> = shipped()
        .iter()
        .flat_map(|f| {
            SEEDS
                .iter()
                .flat_map(move |&s| ["txt", "json"].map(|ext| golden_path(f, s, ext)))
        })
        .collect();
    let mut stray = Vec::new();
    for entry in std::fs::read_dir(golden_dir()).expect("tests/golden exists") {
        let path = entry.expect("readable entry").path();
        let ext = path.extension().and_then(|e| e.to_str());
        if matches!(ext, Some("txt" | "json")) && !wanted.contains(&path) {
            stray.push(path.display().to_string());
        }
    }
    assert!(stray.is_empty(), "golden files of no scenario: {stray:?}");
    if std::env::var_os("SKIRMISH_BLESS").is_none() {
        let missing: Vec<String> = wanted
            .iter()
            .filter(|p| !p.exists())
            .map(|p| p.display().to_string())
            .collect();
        assert!(missing.is_empty(), "missing golden files: {missing:?}");
    }
}

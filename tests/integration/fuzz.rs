//! Untrusted input (issue 28, item 6): thousands of mutated copies of the shipped
//! scenarios and of saves of them (truncated, lines deleted, duplicated or swapped, bytes
//! flipped, numbers made huge, negative, NaN or strings, unknown fields and variants) must
//! give a located error or a battle, never a panic: checked, rendered and, when valid, a
//! few dozen steps fought. The mutations are seeded, so a failure names the case that
//! reproduces it.
//!
//! `cargo test` runs a bounded number of cases; a longer run multiplies them:
//! `SKIRMISH_FUZZ_CASES=30 cargo test --test integration fuzz` (30 times as many; README,
//! "Untrusted input"). With `SKIRMISH_FUZZ_KEEP=DIR` every mutated file is also written to
//! `DIR`, for `bench/fuzz-sweep.sh` to run through the program's commands as processes,
//! with a time and memory limit.

use rand::{RngExt, SeedableRng, rngs::ChaCha8Rng};
use skirmish::play::{Advance, Play};
use skirmish::session::{Session, SessionOptions};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Mutated scenarios per shipped scenario, and mutated saves per save, in one `cargo test`.
const SCENARIO_CASES: u64 = 40;
const SAVE_CASES: u64 = 40;

/// How many times more cases to run (`SKIRMISH_FUZZ_CASES`, default 1).
fn scale() -> u64 {
    std::env::var("SKIRMISH_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// Writes a mutated file to `SKIRMISH_FUZZ_KEEP`'s directory, when it is set.
fn keep(name: &str, text: &str) {
    if let Some(dir) = std::env::var_os("SKIRMISH_FUZZ_KEEP") {
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("the SKIRMISH_FUZZ_KEEP directory");
        std::fs::write(dir.join(name), text).expect("a kept case written");
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shipped() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("scenarios"))
        .expect("scenarios/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    v.sort();
    v
}

/// Values that break assumptions: huge, negative, not numbers, not numbers at all.
const ODD_VALUES: [&str; 10] = [
    "-1",
    "0",
    "4294967296",
    "99999999999999999999",
    "-2147483648",
    "NaN",
    "inf",
    "1e309",
    "\"x\"",
    "()",
];

/// `text` changed by one to three seeded mutations.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let mut s = text.to_string();
    for _ in 0..rng.random_range(1..=3) {
        let lines: Vec<&str> = s.lines().collect();
        let line = if lines.is_empty() {
            0
        } else {
            rng.random_range(0..lines.len())
        };
        s = match rng.random_range(0..8) {
            // truncate
            0 => {
                let mut at = rng.random_range(0..=s.len());
                while !s.is_char_boundary(at) {
                    at -= 1;
                }
                s[..at].to_string()
            }
            // delete, duplicate or swap lines
            1..=3 if !lines.is_empty() => {
                let mut v = lines.clone();
                match rng.random_range(0..3) {
                    0 => {
                        v.remove(line);
                    }
                    1 => v.insert(line, lines[line]),
                    _ => {
                        let other = rng.random_range(0..lines.len());
                        v.swap(line, other);
                    }
                }
                v.join("\n")
            }
            // a byte flipped to a random printable character
            4 if !s.is_empty() => {
                let mut bytes = s.into_bytes();
                let at = rng.random_range(0..bytes.len());
                bytes[at] = rng.random_range(b' '..=b'~');
                String::from_utf8_lossy(&bytes).into_owned()
            }
            // a number replaced by an odd value
            5 => {
                let starts: Vec<usize> = s
                    .char_indices()
                    .filter(|&(i, c)| {
                        c.is_ascii_digit() && !s[..i].ends_with(|p: char| p.is_ascii_alphanumeric())
                    })
                    .map(|(i, _)| i)
                    .collect();
                if starts.is_empty() {
                    s
                } else {
                    let at = starts[rng.random_range(0..starts.len())];
                    let end = s[at..]
                        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                        .map_or(s.len(), |n| at + n);
                    let odd = ODD_VALUES[rng.random_range(0..ODD_VALUES.len())];
                    format!("{}{odd}{}", &s[..at], &s[end..])
                }
            }
            // an unknown field after an opening parenthesis
            6 => {
                let opens: Vec<usize> = s.match_indices('(').map(|(i, _)| i).collect();
                if opens.is_empty() {
                    s
                } else {
                    let at = opens[rng.random_range(0..opens.len())] + 1;
                    format!("{}zz: 1, {}", &s[..at], &s[at..])
                }
            }
            // a capitalised name (a variant) replaced by an unknown one
            _ => {
                let names: Vec<usize> = s
                    .char_indices()
                    .filter(|&(i, c)| {
                        c.is_ascii_uppercase()
                            && !s[..i].ends_with(|p: char| p.is_ascii_alphanumeric() || p == '"')
                    })
                    .map(|(i, _)| i)
                    .collect();
                if names.is_empty() {
                    s
                } else {
                    let at = names[rng.random_range(0..names.len())];
                    format!("{}Zq{}", &s[..at], &s[at..])
                }
            }
        };
    }
    s
}

/// Fights up to `steps` steps of a valid mutated scenario, the AI playing every side.
fn fight_a_little(prepared: skirmish::scenario::Prepared, steps: usize) {
    let mut session = Session::new(Arc::new(prepared), 1, SessionOptions::default());
    for _ in 0..steps {
        if session.outcome().is_some() {
            break;
        }
        session.step();
    }
}

#[test]
fn mutated_scenarios_give_errors_or_battles_never_panics() {
    let registry = skirmish::rules::builtin();
    let mut checked = 0;
    let mut valid = 0;
    for (k, file) in shipped().iter().enumerate() {
        let text = std::fs::read_to_string(file).expect("readable");
        for case in 0..SCENARIO_CASES * scale() {
            let seed = (k as u64) << 32 | case;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mutated = mutate(&text, &mut rng);
            keep(&format!("scenario-{k}-{case}.ron"), &mutated);
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                // In the scenario's folder: the files it names (GCS characters) are read.
                match skirmish::scenario::parse_in(registry, "mutated.ron", &mutated, file.parent())
                {
                    Ok(prepared) => {
                        fight_a_little(prepared, 40);
                        true
                    }
                    Err(errors) => {
                        let shown = errors.render(false);
                        assert!(shown.contains("mutated.ron"), "{shown}");
                        false
                    }
                }
            }));
            match outcome {
                Ok(ok) => valid += usize::from(ok),
                Err(_) => panic!(
                    "{} mutated with seed {seed} panicked; the file:\n{mutated}",
                    file.display()
                ),
            }
            checked += 1;
        }
    }
    // Both kinds occur: the mutations do not all break the file, nor leave it all whole.
    assert!(valid > 0 && valid < checked, "{valid} valid of {checked}");
}

/// A save of each ruleset's first shipped scenario, its player decisions made by the AI.
fn saves() -> Vec<String> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for file in shipped() {
        let prepared = skirmish::rules::builtin()
            .load(&file)
            .unwrap_or_else(|e| panic!("{e}"));
        if seen.contains(&prepared.ruleset.to_string()) {
            continue;
        }
        seen.push(prepared.ruleset.to_string());
        let relative = file.strip_prefix(root()).unwrap_or(&file).to_path_buf();
        let mut play = Play::new(Arc::new(prepared), relative, 3);
        for _ in 0..60 {
            match play.advance() {
                Advance::AwaitingPlayer(_) if play.decide_by_ai().is_err() => break,
                Advance::Over(_) => break,
                _ => {}
            }
        }
        out.push(play.recording().to_ron().expect("a save"));
    }
    out
}

#[test]
fn mutated_saves_give_errors_or_replays_never_panics() {
    let registry = skirmish::rules::builtin();
    let dir = std::env::temp_dir().join(format!("skirmish-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let saves = saves();
    assert!(saves.len() >= 6, "one save per ruleset");
    let mut checked = 0;
    for (k, save) in saves.iter().enumerate() {
        for case in 0..SAVE_CASES * scale() {
            let seed = (k as u64) << 32 | case;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mutated = mutate(save, &mut rng);
            keep(&format!("save-{k}-{case}.ron"), &mutated);
            let path = dir.join("mutated-save.ron");
            std::fs::write(&path, &mutated).expect("written");
            // Saves name their scenario relative to the working directory (the crate root).
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                match Play::load_with(registry, Path::new(&path)) {
                    Ok(mut play) => {
                        for _ in 0..20 {
                            if matches!(play.advance(), Advance::Over(_)) {
                                break;
                            }
                        }
                    }
                    Err(errors) => {
                        let shown = errors.render(false);
                        assert!(!shown.is_empty());
                    }
                }
            }));
            if outcome.is_err() {
                panic!("save {k} mutated with seed {seed} panicked; the file:\n{mutated}");
            }
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked >= 240);
}

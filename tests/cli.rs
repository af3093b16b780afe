//! End-to-end tests of the `skirmish` command line: `check`, `run` and `preview` on the
//! shipped scenarios, and clean, located errors for every malformed file in
//! tests/malformed (each file's first line says what the error must contain).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skirmish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the skirmish binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scenarios() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("scenarios/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    v.sort();
    v
}

#[test]
fn check_accepts_every_shipped_scenario() {
    let files = scenarios();
    let mut args = vec!["check"];
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    args.extend(names.iter().map(String::as_str));
    let out = skirmish(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout)
            .lines()
            .filter(|l| l.contains(": ok ("))
            .count(),
        files.len()
    );
}

#[test]
fn check_reports_every_malformed_file_with_its_location() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/malformed");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/malformed exists") {
        let path = entry.expect("readable entry").path();
        let source = std::fs::read_to_string(&path).expect("readable file");
        let expect = source
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// expect: "))
            .unwrap_or_else(|| panic!("{} has no expect line", path.display()));
        let name = path.display().to_string();
        let out = skirmish(&["check", &name]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        let wanted = format!("{name}:{expect}");
        assert!(
            err.contains(&wanted),
            "{name}: expected `{wanted}` in:\n{err}"
        );
        seen += 1;
    }
    assert!(seen >= 10);
}

#[test]
fn check_of_a_missing_file_fails_cleanly() {
    let out = skirmish(&["check", "scenarios/no-such-file.ron"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("scenarios/no-such-file.ron: cannot read the file"));
}

#[test]
fn run_prints_rolls_and_an_outcome_and_repeats_exactly() {
    for file in scenarios() {
        let name = file.display().to_string();
        let a = skirmish(&["run", &name, "--seed", "11"]);
        assert!(a.status.success(), "{name}: {}", text(&a.stderr));
        let log = text(&a.stdout);
        assert!(log.contains("Outcome: "), "{name}");
        assert!(!log.contains("Outcome: unfinished"), "{name}");
        assert!(log.contains("3d6 ["), "{name}: no rolls shown");
        let b = skirmish(&["run", &name, "--seed", "11"]);
        assert_eq!(a.stdout, b.stdout, "{name}: same seed, different log");
        let c = skirmish(&["run", &name, "--seed", "12"]);
        assert_ne!(a.stdout, c.stdout, "{name}: different seeds, same log");
    }
}

#[test]
fn run_json_has_events_and_outcome() {
    let out = skirmish(&["run", "scenarios/gurps-duel.ron", "--seed", "5", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(doc["seed"], 5);
    assert_eq!(doc["ruleset"], "gurps");
    let events = doc["events"].as_array().expect("events array");
    assert!(events.iter().any(|e| e["event"] == "attack"));
    assert!(events.iter().any(|e| e["event"] == "battle_ended"));
    assert!(doc["outcome"].is_object());
    let again = skirmish(&["run", "scenarios/gurps-duel.ron", "--seed", "5", "--json"]);
    assert_eq!(out.stdout, again.stdout);
}

#[test]
fn preview_reports_rates_and_is_independent_of_threads() {
    let run = |threads: &str| {
        let out = skirmish(&[
            "preview",
            "scenarios/gurps-duel.ron",
            "--runs",
            "200",
            "--seed",
            "9",
            "--threads",
            threads,
            "--json",
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let mut doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
        // Only the timing and thread count may differ.
        doc["seconds"] = serde_json::Value::Null;
        doc["threads"] = serde_json::Value::Null;
        doc
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one, two);
    assert_eq!(one["runs"], 200);
    let wins: u64 = one["sides"]
        .as_array()
        .expect("sides")
        .iter()
        .map(|s| s["wins"]["count"].as_u64().expect("count"))
        .sum();
    let draws = one["draws"]["count"].as_u64().expect("draws");
    assert_eq!(wins + draws, 200);
}

#[test]
fn preview_text_report() {
    let out = skirmish(&[
        "preview",
        "scenarios/gurps-skirmish-3v3.ron",
        "--runs",
        "100",
        "--seed",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    for part in [
        "Win rate (95% interval)",
        "Rounds: mean",
        "p10",
        "p50",
        "p90",
        "Casualties",
        "Sgt. Okafor",
    ] {
        assert!(report.contains(part), "missing `{part}` in:\n{report}");
    }
}

#[test]
fn bad_arguments_are_usage_errors() {
    let out = skirmish(&["run"]);
    assert_eq!(out.status.code(), Some(2));
    let out = skirmish(&["preview", "scenarios/gurps-duel.ron", "--runs", "lots"]);
    assert_eq!(out.status.code(), Some(2));
}

//! End-to-end tests of the `skirmish` command line: `check`, `run`, `preview` and `replay`
//! on the shipped scenarios, and clean, located errors for every malformed file in
//! tests/malformed and tests/malformed-saves (each file's first line says what the error
//! must contain).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `skirmish` binary with `args` in the project folder.
pub fn skirmish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the skirmish binary runs")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `skirmish` with `args`, which must fail cleanly (exit 1, no panic): its stderr.
pub fn fails(args: &[&str]) -> String {
    let out = skirmish(args);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

/// The shipped scenarios (absolute paths, sorted).
pub fn scenarios() -> Vec<PathBuf> {
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

/// A file that begins with a UTF-8 byte-order mark (as some Windows editors save) reads as
/// the same file without it: a scenario checks and fights the same battle, its errors keep
/// their lines, and a GCS character imports.
#[test]
fn a_byte_order_mark_is_no_part_of_a_file() {
    let dir = temp_dir("bom");
    let with_bom = |from: &str, to: &str| {
        let mut bytes = "\u{feff}".as_bytes().to_vec();
        bytes.extend(std::fs::read(from).expect("shipped file"));
        let path = dir.join(to);
        std::fs::write(&path, bytes).expect("written");
        path.display().to_string()
    };
    let duel = with_bom("scenarios/gurps-duel.ron", "duel.ron");
    assert!(skirmish(&["check", &duel]).status.success());
    let a = skirmish(&["run", &duel, "--seed", "7"]);
    let b = skirmish(&["run", "scenarios/gurps-duel.ron", "--seed", "7"]);
    assert!(a.status.success(), "{}", text(&a.stderr));
    assert_eq!(text(&a.stdout), text(&b.stdout));
    // A mistake on line 19 is still said to be on line 19.
    let broken = std::fs::read_to_string(&duel).expect("written").replacen(
        "(id: \"red\"",
        "(idd: \"red\"",
        1,
    );
    std::fs::write(&duel, broken).expect("written");
    let err = fails(&["check", &duel]);
    assert!(err.contains("duel.ron:19:"), "{err}");
    let ogre = with_bom("scenarios/gcs/Ogre.gcs", "Ogre.gcs");
    let out = skirmish(&["import-gcs", &ogre]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// A file that is not UTF-8 (a Latin-1 "é" on line 5) is said to be so with the line
/// and column of the first byte that is not, in a scenario and in a save.
#[test]
fn text_that_is_not_utf8_is_located() {
    let dir = temp_dir("latin1");
    let mut bytes = std::fs::read("scenarios/gurps-duel.ron").expect("shipped file");
    let line5 = (0..bytes.len())
        .filter(|&i| bytes[i] == b'\n')
        .nth(3)
        .expect("five lines")
        + 1;
    bytes.splice(line5 + 4..line5 + 4, [0xe9]);
    let duel = dir.join("duel.ron");
    std::fs::write(&duel, &bytes).expect("written");
    let err = fails(&["check", &duel.display().to_string()]);
    assert!(
        err.contains("not UTF-8 text (line 5, column 5: byte"),
        "{err}"
    );
    let save = dir.join("x.save.ron");
    std::fs::write(&save, b"(\n  scenario: \"caf\xe9.ron\",\n)").expect("written");
    let err = fails(&["replay", &save.display().to_string()]);
    assert!(
        err.contains("(line 2, column 17: byte 19 is not valid"),
        "{err}"
    );
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
        assert!(
            log.contains("3d6 [")
                || log.contains("d12 [")
                || log.contains("1d6 [")
                || log.contains("2d6 ["),
            "{name}: no rolls shown"
        );
        let b = skirmish(&["run", &name, "--seed", "11"]);
        assert_eq!(a.stdout, b.stdout, "{name}: same seed, different log");
        let c = skirmish(&["run", &name, "--seed", "12"]);
        assert_ne!(a.stdout, c.stdout, "{name}: different seeds, same log");
    }
}

/// Every shipped scenario previews headless (every ruleset): a report with a win rate, its
/// draws by reason an object of counts (as `compare --json` writes them) adding up to the
/// draws.
#[test]
fn preview_runs_every_shipped_scenario() {
    for file in scenarios() {
        let name = file.display().to_string();
        let out = skirmish(&["preview", &name, "--runs", "40", "--seed", "3", "--json"]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
        assert_eq!(doc["runs"], 40, "{name}");
        let reasons = doc["draws_by_reason"].as_object().expect("an object");
        let draws: u64 = reasons.values().filter_map(serde_json::Value::as_u64).sum();
        let count = doc["draws"]["count"].as_u64().expect("draws.count");
        assert_eq!(draws, count, "{name}");
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
    // No battles is no preview, and says so in the words --runs uses everywhere.
    let out = skirmish(&["preview", "scenarios/gurps-duel.ron", "--runs", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`0` is not a number of battles: expected a whole number of 1 or more"),
        "{err}"
    );
    // A whole number too large to hold is too many, not no number.
    let out = skirmish(&[
        "preview",
        "scenarios/gurps-duel.ron",
        "--runs",
        "99999999999999999999",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "`99999999999999999999` is too many battles: expected a whole number of 1 or more \
             (at most 18446744073709551615)"
        ),
        "{err}"
    );
    // Threads: none is an error, and so is more than a thousand (each keeps a world;
    // a hundred thousand once aborted the process setting up their stacks).
    for (threads, words) in [
        (
            "0",
            "`0` is not a number of worker threads: expected a whole number from 1 to 1024",
        ),
        (
            "1025",
            "`1025` is too many worker threads: expected a whole number from 1 to 1024",
        ),
        ("4294967296", "`4294967296` is too many worker threads"),
    ] {
        for command in [
            &["preview", "scenarios/gurps-duel.ron"][..],
            &[
                "compare",
                "scenarios/gurps-duel.ron",
                "scenarios/gurps-duel.ron",
            ],
            &["balance", "scenarios/gurps-duel.ron", "--side", "red"],
        ] {
            let mut args = command.to_vec();
            args.extend(["--runs", "2", "--seed", "1", "--threads", threads]);
            let out = skirmish(&args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(words), "{args:?}: {err}");
        }
    }
    // More threads than battles: as many threads as battles.
    let out = skirmish(&[
        "preview",
        "scenarios/gurps-duel.ron",
        "--runs",
        "3",
        "--seed",
        "1",
        "--threads",
        "1024",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("3 battles, seed 1, 3 threads"), "{text}");
}

/// A fresh directory under the system's temporary directory, unique to this test.
pub fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skirmish-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// A duel fought partly by hand: three player turns (one refused command on the way), and
/// a fourth left to the AI, saved to `file`. Returns the live battle.
fn live_duel(file: &Path) -> skirmish::play::Play {
    use skirmish::battle::UnitId;
    use skirmish::play::{Advance, Play};
    use skirmish::rules::gurps::{Action, Maneuver};
    // Relative, as a user would name it: the tests and the binary run from the crate root.
    let scenario = PathBuf::from("scenarios/gurps-duel.ron");
    let prepared = skirmish::rules::builtin()
        .load(&scenario)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut play = Play::new(std::sync::Arc::new(prepared), scenario, 21);
    let turn = |play: &mut Play| loop {
        match play.advance() {
            Advance::AwaitingPlayer(unit) => return unit,
            Advance::Stepped => {}
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(turn(&mut play), UnitId(0));
    let far = play.decide::<skirmish::rules::gurps::Gurps>(Action {
        target: Some(UnitId(1)),
        weapon: Some(0),
        ..Action::simple(Maneuver::Attack)
    });
    assert!(far.is_err());
    play.decide::<skirmish::rules::gurps::Gurps>(Action {
        to: Some(hexx::Hex::new(-1, 0)),
        ..Action::simple(Maneuver::Move)
    })
    .expect("a short move");
    for _ in 0..2 {
        turn(&mut play);
        play.decide_by_ai().expect("the AI decides");
    }
    turn(&mut play);
    play.decide::<skirmish::rules::gurps::Gurps>(Action::simple(Maneuver::AllOutDefense(
        skirmish::rules::gurps::AodOption::IncreasedDodge,
    )))
    .expect("All-Out Defense");
    turn(&mut play);
    assert_eq!(play.recording().decisions.len(), 4);
    play.save(file).expect("saved");
    play
}

#[test]
fn replay_prints_the_log_of_the_live_battle() {
    let dir = temp_dir("replay");
    let file = dir.join("duel.ron");
    let mut live = live_duel(&file);
    let name = file.display().to_string();

    let out = skirmish(&["replay", &name]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut expected = "Duel at the ford (gurps), seed 21\n\
                        Sir Aldric (red): Aldric\n\
                        The Black Knight (blue): Black Knight\n"
        .to_string();
    expected.push_str(&live.session().log_text());
    expected.push_str("\nOutcome: unfinished\n");
    for line in live.session_mut().unit_lines() {
        expected.push_str(&format!("  {line}\n"));
    }
    assert_eq!(text(&out.stdout), expected);
    assert!(!expected.contains("command refused"));

    let json = skirmish(&["replay", &name, "--json"]);
    assert!(json.status.success(), "{}", text(&json.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).expect("valid JSON");
    assert_eq!(doc["seed"], 21);
    assert_eq!(doc["outcome"], serde_json::Value::Null);
    assert_eq!(doc["outcome_text"], "unfinished");
    assert_eq!(doc["save"], name);
    assert_eq!(doc["decisions"].as_array().map(Vec::len), Some(4));
    assert_eq!(
        doc["events"].as_array().map(Vec::len),
        Some(live.session().log().entries.len())
    );

    let finished = skirmish(&["replay", &name, "--finish"]);
    assert!(finished.status.success(), "{}", text(&finished.stderr));
    let finished = text(&finished.stdout);
    let live_log = live.session().log_text();
    assert!(
        finished.contains(&live_log),
        "the recorded part comes first"
    );
    assert!(finished.len() > expected.len());
    assert!(!finished.contains("Outcome: unfinished"), "{finished}");
    assert!(finished.contains("victory for ") || finished.contains("draw in round"));
    let _ = std::fs::remove_dir_all(dir);
}

/// `log` of a battle saved at a player's turn, as Markdown and HTML: no empty heading for
/// the round it stops in; the outcome says where it stops instead.
#[test]
fn a_shared_unfinished_log_says_where_it_stops() {
    let dir = temp_dir("unfinished-log");
    let file = dir.join("start.ron");
    // Saved before Aldric's first decision: round 1 has begun and nothing happened in it.
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gurps-duel.ron");
    let save = format!(
        "(scenario: {:?}, seed: 7, decisions: [])",
        scenario.display().to_string()
    );
    std::fs::write(&file, save).expect("written");
    let stops = "unfinished: it stops in round 1, at Aldric's turn";
    for format in ["markdown", "html"] {
        let out = skirmish(&["log", &file.display().to_string(), "--format", format]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let shared = text(&out.stdout);
        assert!(shared.contains(stops), "{shared}");
        assert!(!shared.contains("Round 1"), "{shared}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// With no decisions recorded, `replay --finish` is the headless battle of the same seed.
#[test]
fn replay_finish_of_an_empty_recording_is_the_run() {
    let dir = temp_dir("empty");
    let file = dir.join("empty.ron");
    std::fs::write(&file, "(scenario: \"scenarios/gurps-duel.ron\", seed: 7)").expect("written");
    let name = file.display().to_string();
    let replay = skirmish(&["replay", &name, "--finish"]);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    let run = skirmish(&["run", "scenarios/gurps-duel.ron", "--seed", "7"]);
    assert_eq!(text(&replay.stdout), text(&run.stdout));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn replay_reports_every_malformed_save_with_its_location() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/malformed-saves");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/malformed-saves exists") {
        let path = entry.expect("readable entry").path();
        let source = std::fs::read_to_string(&path).expect("readable file");
        let expect = source
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// expect: "))
            .unwrap_or_else(|| panic!("{} has no expect line", path.display()));
        let name = path.display().to_string();
        let out = skirmish(&["replay", &name]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}");
        let wanted = format!("{name}:{expect}");
        assert!(
            err.contains(&wanted),
            "{name}: expected `{wanted}` in:\n{err}"
        );
        seen += 1;
    }
    assert!(seen >= 8);

    // The scenario's own problems are shown too.
    let bad = skirmish(&["replay", "tests/malformed-saves/bad-scenario.ron"]);
    let err = text(&bad.stderr);
    assert!(
        err.contains("tests/malformed/unknown-field.ron:9:23: Unexpected field named `colour`"),
        "{err}"
    );
    assert!(err.contains("error: 2 problems found"), "{err}");

    let missing = skirmish(&["replay", "tests/malformed-saves/no-such-save.ron"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("no-such-save.ron: cannot read the file"));
}

#[test]
fn replay_usage_errors() {
    assert_eq!(skirmish(&["replay"]).status.code(), Some(2));
    let out = skirmish(&["replay", "tests/malformed-saves/syntax.ron", "--seed", "3"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Untrusted input (issue 28, item 1): an error past column 65,535 of a line, as in a
/// scenario or save written on one line, is reported with its line and column and shown
/// around the problem, in `check`, `run` and `replay`, not a panic of the report's layout.
#[test]
fn errors_far_along_one_long_line_are_shown_around_the_problem() {
    let dir = temp_dir("long-line");
    // The duel on one line, with a misspelt field 100,000 spaces along it.
    let duel = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gurps-duel.ron"),
    )
    .expect("the duel scenario");
    let one_line: Vec<&str> = duel
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect();
    let one_line = one_line.join(" ");
    let pad = " ".repeat(100_000);
    let at = one_line.find("units:").expect("the duel has units");
    let scenario = format!("{}{pad}colour: 3, {}", &one_line[..at], &one_line[at..]);
    let column = at + pad.len() + 1;
    let file = dir.join("one-line.ron");
    std::fs::write(&file, &scenario).expect("written");
    let name = file.display().to_string();
    for command in ["check", "run"] {
        let err = fails(&[command, &name]);
        assert!(
            err.contains(&format!(
                "{name}:1:{column}: Unexpected field named `colour`"
            )),
            "{command}: {err}"
        );
        // Shown around the problem, numbered as line 1, not the whole line.
        assert!(
            err.contains("colour: 3, units") && err.contains('…'),
            "{command}: {err}"
        );
        assert!(
            err.len() < 4_000,
            "{command}: {} bytes of report",
            err.len()
        );
    }

    // A save on one line, its misspelt field far along it.
    let save = dir.join("one-line-save.ron");
    let text_of_save =
        format!("(scenario: \"scenarios/gurps-duel.ron\", seed: 7,{pad}sede: 8, decisions: [])");
    std::fs::write(&save, &text_of_save).expect("written");
    let name = save.display().to_string();
    let err = fails(&["replay", &name]);
    let column = text_of_save.find("sede").expect("the field") + 1;
    assert!(
        err.contains(&format!("{name}:1:{column}: Unexpected field named `sede`")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Untrusted input (issue 28, item 2): a path that is not a regular file (`/dev/zero`
/// reads without end) or a file over the size limit is refused before it is read, as a
/// scenario and as the scenario a save names.
#[test]
fn files_that_are_not_regular_or_too_big_are_refused_unread() {
    if Path::new("/dev/zero").exists() {
        let err = fails(&["check", "/dev/zero"]);
        assert!(
            err.contains("/dev/zero: cannot read the file: not a regular file"),
            "{err}"
        );
        let dir = temp_dir("dev-zero");
        let save = dir.join("save.ron");
        std::fs::write(&save, "(scenario: \"/dev/zero\", seed: 7, decisions: [])")
            .expect("written");
        let err = fails(&["replay", &save.display().to_string()]);
        assert!(err.contains("not a regular file"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    let dir = temp_dir("too-big");
    let big = dir.join("big.ron");
    let file = std::fs::File::create(&big).expect("created");
    // A sparse file: 17 MiB long without writing 17 MiB.
    file.set_len(skirmish::format::MAX_FILE_BYTES + 1024 * 1024)
        .expect("sized");
    let err = fails(&["check", &big.display().to_string()]);
    assert!(err.contains("larger than 16 MiB"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A generated scenario of `n` GURPS guards, unit `i` at `at(i)`.
fn mass_scenario(n: usize, at: impl Fn(usize) -> (i32, i32)) -> String {
    let units: Vec<String> = (0..n)
        .map(|i| {
            let (q, r) = at(i);
            format!(
                "(name: \"U{i}\", side: \"{}\", at: ({q}, {r}), template: \"guard\"),",
                if i % 2 == 0 { "red" } else { "blue" }
            )
        })
        .collect();
    format!(
        "(name: \"Mass\", ruleset: Gurps(), map: (shape: Rectangle(columns: 400, rows: 400)),\n\
         sides: [(id: \"red\", control: Ai(Aggressive)), (id: \"blue\", control: Ai(Aggressive))],\n\
         templates: {{ \"guard\": Gurps(st: 11, dx: 11, iq: 10, ht: 11, skills: {{ \"Spear\": 12 }}, weapons: [\"spear\"]) }},\n\
         units: [\n{}\n])\n",
        units.join("\n")
    )
}

/// Untrusted input (issue 28, item 2): more units than the limit are refused at once with
/// the limit named; a file with a mistake in each of thousands of units shows the first
/// 100 and counts the rest, instead of rendering every one with its own copy of the file.
#[test]
fn too_many_units_and_too_many_problems_are_reported_briefly() {
    let dir = temp_dir("mass");
    // In the rectangle: column i % 400, row i / 400 (pointy: q = column - row / 2).
    let inside = |i: usize| {
        let (col, row) = ((i % 400) as i32, (i / 400) as i32);
        (col - row / 2, row)
    };
    let over = dir.join("over.ron");
    let n = skirmish::scenario::MAX_UNITS + 1;
    std::fs::write(&over, mass_scenario(n, inside)).expect("written");
    let err = fails(&["check", &over.display().to_string()]);
    assert!(
        err.contains(&format!(
            "units: the scenario has {n} units: at most 10000 are allowed (raise the \
             limit with --max-units N, up to 1000000)"
        )),
        "{err}"
    );
    // --max-units raises the limit (the file then checks), or lowers it.
    let out = skirmish(&["check", "--max-units", "20000", &over.display().to_string()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let small = dir.join("small.ron");
    std::fs::write(&small, mass_scenario(3, inside)).expect("written");
    let err = fails(&["run", &small.display().to_string(), "--max-units", "2"]);
    assert!(
        err.contains("the scenario has 3 units: at most 2 are allowed"),
        "{err}"
    );
    let out = skirmish(&["check", "--max-units", "0", &small.display().to_string()]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(text(&out.stderr).contains("'0' for '--max-units <N>'"));

    let off = dir.join("off.ron");
    std::fs::write(&off, mass_scenario(3000, |i| (1000 + i as i32, 0))).expect("written");
    let err = fails(&["check", &off.display().to_string()]);
    assert_eq!(
        err.matches("is off the map").count(),
        skirmish::scenario::MAX_SHOWN,
        "{err}"
    );
    assert!(
        err.contains("... and 2900 more problems not shown"),
        "{err}"
    );
    assert!(err.contains("error: 3000 problems found"), "{err}");

    let ok = dir.join("ok.ron");
    std::fs::write(&ok, mass_scenario(2000, inside)).expect("written");
    let out = skirmish(&["check", &ok.display().to_string()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("2000 units"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `skirmish edit` refuses what it cannot open before any window opens: a wrong command
/// line (exit 2, one clear line): no file and no --new, a file that is not there, --new
/// over an existing file, an unknown ruleset; and a file that is not RON (exit 1, a bad
/// file, with its line and column as `check` gives them).
#[test]
fn edit_refuses_what_it_cannot_open() {
    let cases: [(&[&str], &str); 4] = [
        (&["edit"], "name a scenario file to edit, or --new RULESET"),
        (
            &["edit", "no-such-scenario.ron"],
            "does not exist: `skirmish edit no-such-scenario.ron --new RULESET`",
        ),
        (
            &["edit", "scenarios/gurps-duel.ron", "--new", "gurps"],
            "exists: leave out --new",
        ),
        (
            &["edit", "--new", "chess"],
            "unknown ruleset `chess`: expected one of gurps",
        ),
    ];
    for (args, expected) in cases {
        let out = skirmish(args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let out = skirmish(&["edit", "tests/malformed/syntax.ron"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("tests/malformed/syntax.ron:6:25: Expected comma"),
        "{err}"
    );
}

/// `skirmish log` (issue 30, item 4): the shipped example battle shared as Markdown and
/// HTML is the one checked into docs/examples/ (`SKIRMISH_BLESS=1` writes it again); the
/// HTML page parses (every tag closed in order), has a heading a round as the text log has
/// rounds, both maps, and every roll line of the text log; an existing --out is not
/// replaced; a bad save is a located error.
/// `log --hide-gm-rolls`: the rolls of the AI's side (the Black Knight, the GM's) show
/// what they decided and no dice; the player's rolls keep theirs; the rest of the log is
/// the same line for line.
#[test]
fn log_can_keep_the_gm_rolls_behind_the_screen() {
    let save = "docs/examples/duel.save.ron";
    let made = |hide: bool| {
        let mut args = vec!["log", save, "--finish", "--format", "text"];
        if hide {
            args.push("--hide-gm-rolls");
        }
        let out = skirmish(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let (open, hidden) = (made(false), made(true));
    assert_eq!(open.lines().count(), hidden.lines().count());
    assert!(open.contains("attack on Aldric with mace: 3d6 ["), "{open}");
    assert!(
        hidden.contains("attack on Aldric with mace: rolled behind the screen"),
        "{hidden}"
    );
    assert!(
        !hidden.contains("attack on Aldric with mace: 3d6"),
        "{hidden}"
    );
    let player_roll = open
        .lines()
        .find(|l| l.contains("attack on Black Knight with"))
        .expect("Aldric attacks");
    assert!(hidden.contains(player_roll), "{player_roll}");
    // The Knight's hidden damage names its type before the hidden roll, not after it.
    let damage = hidden
        .lines()
        .find(|l| l.contains("damage to the") && l.contains("rolled behind the screen"))
        .expect("the Knight deals damage");
    assert!(
        damage.contains(" (cr): rolled behind the screen, "),
        "{damage}"
    );
}

#[test]
fn log_shares_a_saved_battle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let save = "docs/examples/duel.save.ron";
    let made = |format: &str| {
        let out = skirmish(&["log", save, "--finish", "--format", format]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let (md, html, plain) = (made("markdown"), made("html"), made("text"));
    for (name, now) in [("duel-log.md", &md), ("duel-log.html", &html)] {
        let path = root.join("docs/examples").join(name);
        if std::env::var_os("SKIRMISH_BLESS").is_some() {
            std::fs::write(&path, now).expect("blessed");
        }
        let kept = std::fs::read_to_string(&path).expect("the example");
        assert_eq!(
            &kept, now,
            "{name} differs: SKIRMISH_BLESS=1 writes it again"
        );
    }
    // The HTML: tags balanced, in order.
    let mut open: Vec<String> = Vec::new();
    let mut rest = html.as_str();
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let end = rest.find('>').expect("a tag ends");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if let Some(closing) = tag.strip_prefix('/') {
            let closing: String = closing
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            assert_eq!(open.pop().as_deref(), Some(closing.as_str()), "at <{tag}>");
        } else {
            open.push(name);
        }
    }
    assert!(open.is_empty(), "unclosed: {open:?}");
    let rounds = plain.lines().filter(|l| l.starts_with("Round ")).count();
    assert!(rounds >= 3, "{plain}");
    assert_eq!(html.matches("<h2>Round ").count(), rounds);
    assert_eq!(md.matches("\n## Round ").count(), rounds);
    assert_eq!(html.matches("<svg ").count(), 2);
    for roll in plain
        .lines()
        .filter(|l| l.contains(" vs ") && l.contains("3d6 ["))
    {
        let escaped = roll.trim().replace('>', "&gt;");
        assert!(html.contains(&escaped), "{roll}");
    }
    assert!(plain.contains("Outcome: "), "{plain}");
    // --out writes a new file, and never replaces one (a file of this test's own, left as
    // it was); a bad save is located.
    let dir = std::env::temp_dir().join(format!("skirmish-log-out-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let taken = dir.join("taken.md");
    std::fs::write(&taken, "mine\n").expect("written");
    let out = skirmish(&["log", save, "--out", taken.to_str().expect("a path")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot write")
            && text(&out.stderr).contains("it exists, and log does not replace a file"),
        "{}",
        text(&out.stderr)
    );
    // A folder is said to be one.
    let out = skirmish(&["log", save, "--out", dir.to_str().expect("a path")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("it is a folder"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&taken).expect("still there"),
        "mine\n"
    );
    let fresh = dir.join("fresh.md");
    let out = skirmish(&["log", save, "--out", fresh.to_str().expect("a path")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        std::fs::read_to_string(&fresh)
            .expect("written")
            .starts_with("# Duel")
    );
    let _ = std::fs::remove_dir_all(&dir);
    let err = fails(&["log", "tests/malformed/syntax.ron"]);
    assert!(err.contains("syntax.ron:"), "{err}");
}

//! GURPS Character Sheet characters in battle (issue 27): `import-gcs` on the samples, the
//! two example scenarios through `check`, `run` and `preview`, the imported numbers in
//! `run --json`'s sheets and in the attack rolls, and bad GCS files reported cleanly.

use super::cli::{skirmish, text};
use serde_json::Value;
use std::path::Path;

const SCENARIOS: [&str; 2] = [
    "scenarios/gurps-gcs-ogre-ambush.ron",
    "scenarios/gurps-gcs-wolf-pack.ron",
];

/// `run --json` of `file` with `seed`.
fn run_json(file: &str, seed: u64) -> Value {
    let out = skirmish(&["run", file, "--seed", &seed.to_string(), "--json"]);
    assert!(out.status.success(), "{file}: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("run --json writes JSON")
}

/// The unit named `name` in a `run --json` document: its index.
fn unit(doc: &Value, name: &str) -> usize {
    doc["units"]
        .as_array()
        .and_then(|u| u.iter().position(|u| u["name"] == name))
        .unwrap_or_else(|| panic!("no unit {name}"))
}

#[test]
fn the_example_scenarios_check_run_and_preview() {
    let out = skirmish(&["check", SCENARIOS[0], SCENARIOS[1]]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for file in SCENARIOS {
        let doc = run_json(file, 1);
        assert_ne!(doc["outcome_text"], "unfinished", "{file}");
        let out = skirmish(&[
            "preview",
            file,
            "--runs",
            "20",
            "--seed",
            "3",
            "--threads",
            "1",
        ]);
        assert!(out.status.success(), "{file}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("20 battles"), "{file}");
    }
}

/// The Ogre's and an orc's numbers as their GCS files compute them (Ogre.gcs: ST 20, DX
/// 11, HT 13, HP 20, Basic Speed 6, Move 6, Dodge 9 (calc.dodge[0]), Maul Swung level 16,
/// 3d+7 cr, parry 11, reach 1-2; DR 3 everywhere but the eyes, the skull 3 + 2;
/// Orc, Warrior.gcs: Falchion Swung level 13, 1d+3 cut, parry 10, armor DR 2 on the torso) reach
/// the battle: `run --json`'s sheets show them, and every Maul attack rolls against 16.
#[test]
fn imported_numbers_reach_the_battle() {
    let file = SCENARIOS[0];
    let mut maul_attacks = 0;
    for seed in 1..=4 {
        let doc = run_json(file, seed);
        let ogre = unit(&doc, "Ogre");
        let sheet = &doc["sheets"][ogre];
        assert_eq!(sheet["st"], 20);
        assert_eq!(sheet["dx"], 11);
        assert_eq!(sheet["ht"], 13);
        assert_eq!(sheet["hp"], 20);
        assert_eq!(sheet["basic_speed"], 6.0);
        assert_eq!(sheet["basic_move"], 6);
        assert_eq!(sheet["dodge"], 9);
        assert_eq!(sheet["sm"], 1);
        assert_eq!(sheet["pain_threshold"], "High");
        assert_eq!(sheet["dr"]["torso"], 3);
        assert_eq!(sheet["dr"]["skull"], 5);
        assert_eq!(sheet["dr"]["eye"], 0);
        let maul = sheet["weapons"]
            .as_array()
            .and_then(|w| w.iter().find(|w| w["name"] == "Maul"))
            .expect("the Ogre's maul");
        assert_eq!(maul["level"], 16);
        assert_eq!(maul["damage"], "3d+7");
        assert_eq!(maul["damage_type"], "cr");
        assert_eq!(maul["parry"], 11);
        assert_eq!(maul["reach"], serde_json::json!([1, 2]));
        let orc = unit(&doc, "Orc with a scar");
        let sheet = &doc["sheets"][orc];
        assert_eq!(sheet["dr"]["torso"], 2);
        let sword = sheet["weapons"]
            .as_array()
            .and_then(|w| w.iter().find(|w| w["name"] == "Falchion (Swung)"))
            .expect("the orc's falchion");
        assert_eq!(sword["level"], 13);
        assert_eq!(sword["damage"], "1d+3");
        assert_eq!(sword["parry"], 10);
        assert_eq!(sword["skill"], "Shortsword");
        for e in doc["events"].as_array().expect("events") {
            if e["event"] == "attack" && e["attacker"] == ogre && e["weapon"] == "Maul" {
                let base = &e["roll"]["modifiers"][0];
                assert_eq!(base["value"], 16, "{e}");
                maul_attacks += 1;
            }
        }
    }
    assert!(maul_attacks > 0, "the Ogre swung its maul in four battles");
}

/// `import-gcs --json` on every sample: one object per file with GCS's numbers.
#[test]
fn import_gcs_json_reads_every_sample() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gcs");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("scenarios/gcs exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "gcs"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    assert_eq!(files.len(), 6);
    let mut args = vec!["import-gcs", "--json"];
    args.extend(files.iter().map(String::as_str));
    let out = skirmish(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let all: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let all = all.as_array().expect("an array");
    assert_eq!(all.len(), 6);
    let ogre = all.iter().find(|c| c["name"] == "Ogre").expect("the Ogre");
    assert_eq!(ogre["st"], 20);
    assert_eq!(ogre["size_modifier"], 1);
    assert_eq!(ogre["dr"]["skull"], 5);
    assert_eq!(ogre["traits"], serde_json::json!(["High Pain Threshold"]));
    for c in all {
        for key in [
            "st",
            "dx",
            "iq",
            "ht",
            "hp",
            "fp",
            "will",
            "per",
            "basic_move",
            "dodge",
        ] {
            assert!(c[key].is_i64(), "{}: {key}", c["name"]);
        }
        assert!(c["warnings"].is_array());
    }
    // Without --json: a stat block a scenario can use, with the source named.
    let out = skirmish(&["import-gcs", "scenarios/gcs/Ogre.gcs"]);
    assert!(out.status.success());
    let ron = text(&out.stdout);
    assert!(ron.contains("imported from scenarios/gcs/Ogre.gcs"));
    assert!(ron.contains("name: \"Maul\""));
}

/// The RON stat block `import-gcs` prints is a valid unit: pasted into a scenario, it
/// checks and fights with the same numbers as the file named by `gcs`.
#[test]
fn the_printed_stat_block_fights_like_the_file() {
    let out = skirmish(&["import-gcs", "scenarios/gcs/Orc, Warrior.gcs"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let block: String = text(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let scenario = |stats: &str| {
        format!(
            "(name: \"t\", ruleset: Gurps(), map: (shape: Hexagon(radius: 4)),
             sides: [(id: \"a\", control: Ai(Aggressive)), (id: \"b\", control: Ai(Aggressive))],
             units: [
                (name: \"Orc\", side: \"a\", at: (-2, 0), stats: {stats}),
                (name: \"Foe\", side: \"b\", at: (2, 0), stats: Gurps(st: 11, dx: 11, iq: 10, ht: 11,
                    skills: {{ \"Broadsword\": 12 }}, weapons: [\"broadsword\"])),
             ])"
        )
    };
    let dir = std::env::temp_dir().join(format!("skirmish-gcs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let pasted = dir.join("pasted.ron");
    std::fs::write(&pasted, scenario(&block)).expect("written");
    let by_file = dir.join("by-file.ron");
    let gcs = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gcs/Orc, Warrior.gcs");
    std::fs::write(
        &by_file,
        scenario(&format!("Gurps(gcs: \"{}\")", gcs.display())),
    )
    .expect("written");
    let a = run_json(&pasted.display().to_string(), 5);
    let b = run_json(&by_file.display().to_string(), 5);
    assert_eq!(a["sheets"], b["sheets"]);
    assert_eq!(a["events"], b["events"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad GCS files: an error naming the file (with line and column for broken JSON), or a
/// warning naming the weapon left out; never a panic.
#[test]
fn bad_gcs_files_are_reported() {
    let bad = |file: &str| {
        let out = skirmish(&["import-gcs", file]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {err}");
        assert!(!err.contains("panicked"), "{file}: {err}");
        assert!(err.contains(file), "{file}: {err}");
        err
    };
    assert!(bad("tests/malformed-gcs/truncated.gcs").contains("line "));
    assert!(bad("tests/malformed-gcs/version-3.gcs").contains('5'));
    bad("tests/malformed-gcs/not-a-character.gcs");
    bad("tests/malformed-gcs/no-such-file.gcs");
    bad("scenarios/gcs/README.md");
    for (file, named) in [
        ("tests/malformed-gcs/weapon-without-calc.gcs", "Kick"),
        ("tests/malformed-gcs/unknown-damage.gcs", "Maul"),
    ] {
        let out = skirmish(&["import-gcs", "--json", file]);
        assert!(out.status.success(), "{file}: {}", text(&out.stderr));
        let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let warnings = doc[0]["warnings"].to_string();
        assert!(warnings.contains(named), "{file}: {warnings}");
    }
}

/// The window's "Add from GCS file" without the window: the character joins a side on a
/// free hex, the scenario with it is written as RON (as the window writes it beside the
/// open one) and loads again with the character's sheet; a side that does not exist and a
/// file that is no character are refused with a message.
#[test]
fn a_character_added_to_a_scenario_loads_and_fights() {
    use skirmish::rules::gurps::import::add_character;
    let dir = std::env::temp_dir().join(format!("skirmish-add-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let original = dir.join("duel.ron");
    std::fs::copy(root.join("scenarios/gurps-duel.ron"), &original).expect("copied");
    let prepared = skirmish::rules::builtin()
        .load(&original)
        .expect("the duel");
    let ogre = root.join("scenarios/gcs/Ogre.gcs");
    let (file, name) = add_character(&prepared, &ogre, "blue").expect("the ogre joins");
    assert_eq!(name, "Ogre");
    assert_eq!(file.units.len(), prepared.units.len() + 1);
    let text = skirmish::format::ron_options()
        .to_string_pretty(&file, ron::ser::PrettyConfig::new().struct_names(false))
        .expect("RON");
    let written = dir.join("duel-with-ogre.ron");
    std::fs::write(&written, text).expect("written");
    let again = skirmish::rules::builtin()
        .load(&written)
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let unit = again.units.last().expect("the ogre");
    assert_eq!(unit.name, "Ogre");
    assert!(
        !prepared.units.iter().any(|u| u.at == unit.at),
        "a free hex"
    );
    let sheet = unit
        .sheet::<skirmish::rules::gurps::Gurps>()
        .expect("a GURPS sheet");
    assert_eq!((sheet.st, sheet.hp_max, sheet.dodge), (20, 20, 9));
    // a second ogre is numbered
    let (_, second) = add_character(&again, &ogre, "blue").expect("another");
    assert_eq!(second, "Ogre 2");
    assert!(add_character(&prepared, &ogre, "green").is_err());
    let not_gcs = add_character(&prepared, &root.join("scenarios/gcs/README.md"), "blue");
    assert!(not_gcs.is_err_and(|e| e.contains("README.md")));
    let _ = std::fs::remove_dir_all(&dir);
}

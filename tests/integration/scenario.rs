//! Scenario loading: valid files load, and every kind of bad input gives a located error.

use hexx::Hex;
use skirmish::battle::Control;
use skirmish::hexmap::Terrain;
use skirmish::scenario::{load, parse};

const GOOD: &str = r#"(
    name: "Test",
    ruleset: Gurps(),
    map: ( shape: Hexagon(radius: 3), terrain: { (1, 1): Blocked } ),
    sides: [ (id: "a", control: Player), (id: "b", control: Ai(Cautious)) ],
    templates: {
        "guard": Gurps(st: 11, dx: 11, iq: 10, ht: 11, weapons: ["spear"]),
    },
    units: [
        (name: "One", side: "a", at: (0, 0), stats: Gurps(st: 10, dx: 12, iq: 10, ht: 10)),
        (name: "Two", side: "b", at: (2, 0), template: "guard"),
    ],
)"#;

fn errors(text: &str) -> Vec<String> {
    match parse(skirmish::rules::builtin(), "test.ron", text) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e.errors.iter().map(|e| e.to_string()).collect(),
    }
}

fn one_error(text: &str) -> String {
    let e = errors(text);
    assert_eq!(e.len(), 1, "{e:#?}");
    e.into_iter().next().unwrap_or_default()
}

#[test]
fn a_good_file_loads() {
    let p = parse(skirmish::rules::builtin(), "test.ron", GOOD).unwrap();
    assert_eq!(p.units.len(), 2);
    assert_eq!(
        p.sides[1].control,
        Control::Ai(skirmish::battle::AiStyle::Cautious)
    );
    assert_eq!(p.map.terrain(Hex::new(1, 1)), Some(Terrain::Blocked));
    // default facing: towards the nearest enemy
    assert_eq!(
        p.units[0].facing,
        Hex::ZERO.main_direction_to(Hex::new(2, 0))
    );
    let sheet = p.units[1]
        .sheet::<skirmish::rules::gurps::Gurps>()
        .expect("a GURPS sheet");
    assert_eq!(&*sheet.weapons[0].name, "spear");
}

#[test]
fn every_file_in_scenarios_loads() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            load(skirmish::rules::builtin(), &path)
                .unwrap_or_else(|e| panic!("{}", e.render(false)));
            count += 1;
        }
    }
    assert!(count >= 3);
}

#[test]
fn malformed_ron_points_at_the_syntax_error() {
    let text = GOOD.replace("(id: \"b\", control", "(id: \"b\" control");
    let e = one_error(&text);
    assert!(e.starts_with("test.ron:5:"), "{e}");
}

#[test]
fn wrong_type() {
    let text = GOOD.replace("st: 10,", "st: \"ten\",");
    let e = one_error(&text);
    assert!(e.starts_with("test.ron:10:"), "{e}");
}

#[test]
fn unknown_field() {
    let text = GOOD.replace("(name: \"One\",", "(name: \"One\", colour: Red,");
    let e = one_error(&text);
    assert!(e.starts_with("test.ron:10:"), "{e}");
    assert!(e.contains("colour"), "{e}");
}

#[test]
fn unit_off_the_map() {
    let text = GOOD.replace("at: (2, 0)", "at: (9, 0)");
    let e = one_error(&text);
    assert_eq!(e, "test.ron:11:38: units[1].at: hex (9, 0) is off the map");
}

#[test]
fn unit_on_a_blocked_hex() {
    let text = GOOD.replace("at: (2, 0)", "at: (1, 1)");
    let e = one_error(&text);
    assert!(e.starts_with("test.ron:11:38:"), "{e}");
    assert!(e.contains("blocked"), "{e}");
}

#[test]
fn two_units_on_one_hex() {
    let text = GOOD.replace("at: (2, 0)", "at: (0, 0)");
    let e = one_error(&text);
    assert!(e.contains("already taken by `One`"), "{e}");
}

#[test]
fn unknown_template_and_weapon() {
    let text = GOOD.replace("template: \"guard\"", "template: \"gaurd\"");
    let e = one_error(&text);
    assert!(
        e.contains("unknown template `gaurd`: expected one of `guard`"),
        "{e}"
    );
    let text = GOOD.replace("[\"spear\"]", "[\"spaer\"]");
    let e = one_error(&text);
    assert!(e.starts_with("test.ron:7:"), "{e}");
    assert!(e.contains("unknown weapon `spaer`"), "{e}");
}

#[test]
fn impossible_stats() {
    let text = GOOD.replace("ht: 10)", "ht: 10, hp: -4, skills: { \"Spear\": 45 })");
    let e = errors(&text);
    assert_eq!(e.len(), 2, "{e:#?}");
    assert!(
        e[0].contains("units[0].stats.hp: HP -4 is out of range"),
        "{}",
        e[0]
    );
    assert!(
        e[1].contains("skill Spear at 45 is out of range"),
        "{}",
        e[1]
    );
    assert!(e[0].starts_with("test.ron:10:"), "{}", e[0]);
}

#[test]
fn unknown_side_and_empty_side() {
    let text = GOOD.replace("side: \"b\"", "side: \"c\"");
    let e = errors(&text);
    assert!(e.iter().any(|m| m.contains("unknown side `c`")), "{e:#?}");
    assert!(
        e.iter().any(|m| m.contains("side `b` has no units")),
        "{e:#?}"
    );
}

#[test]
fn facing_must_fit_the_orientation() {
    let text = GOOD.replace("at: (2, 0),", "at: (2, 0), facing: North,");
    let e = one_error(&text);
    assert!(e.contains("North is not a hex side on a Pointy map"), "{e}");
}

#[test]
fn terrain_off_the_map() {
    let text = GOOD.replace("(1, 1): Blocked", "(1, 1): Blocked, (7, 7): Difficult");
    let e = one_error(&text);
    assert!(e.starts_with("test.ron:4:"), "{e}");
    assert!(e.contains("(7, 7) is off the map"), "{e}");
}

#[test]
fn missing_file_is_a_clean_error() {
    let e = load(
        skirmish::rules::builtin(),
        std::path::Path::new("no/such/file.ron"),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("no/such/file.ron: cannot read the file")
    );
}

#[test]
fn rendered_errors_show_the_line() {
    let text = GOOD.replace("at: (2, 0)", "at: (9, 0)");
    let e = parse(skirmish::rules::builtin(), "test.ron", &text).unwrap_err();
    let shown = e.render(false);
    assert!(shown.contains("at: (9, 0)"), "{shown}");
    assert!(shown.contains("test.ron:11:38"), "{shown}");
}

/// Arbitrary text never panics the loader.
#[test]
fn garbage_never_panics() {
    let samples = [
        "",
        "(",
        ")",
        "[[[[",
        "(name: \"x\")",
        "\"unterminated",
        "(name: 5, ruleset: Chess())",
        &GOOD[..GOOD.len() / 2],
        &GOOD.replace("Hexagon(radius: 3)", "Hexagon(radius: 0)"),
        &GOOD.replace("Hexagon(radius: 3)", "Rectangle(columns: 99999, rows: 2)"),
        &GOOD
            .replace("victory", "x")
            .replace(")\n)", "), victory: RoundLimit(0)\n)"),
    ];
    for s in samples {
        let _ = parse(skirmish::rules::builtin(), "x.ron", s);
    }
}

#[test]
fn custom_equipment_is_checked() {
    let text = GOOD.replace(
        "ruleset: Gurps(),",
        r#"ruleset: Gurps(
        weapons: { "sling": (skill: "Sling", damage: "thr", damage_type: "cr",
                             mode: Ranged(acc: 0, half_damage: 50, max: 30, shots: 1, reload: 2, bulk: -4)) },
        armor: { "mithril": (dr: 500) },
    ),"#,
    );
    let e = errors(&text);
    assert_eq!(e.len(), 2, "{e:#?}");
    assert!(
        e[0].contains("ruleset.weapons[\"sling\"].mode.half_damage: 1/2D range 50"),
        "{}",
        e[0]
    );
    assert!(e[0].starts_with("test.ron:5:"), "{}", e[0]);
    assert!(e[1].contains("DR 500"), "{}", e[1]);
}

/// Morale settings name an existing AI side.
#[test]
fn morale_needs_an_ai_side() {
    let text = r#"(
        name: "m",
        ruleset: Gurps(morale: { "red": (), "green": (response: Surrender) }),
        map: ( shape: Hexagon(radius: 3) ),
        sides: [ (id: "red", control: Player), (id: "blue", control: Ai(Aggressive)) ],
        units: [
            (name: "A", side: "red", at: (0, 0), stats: Gurps(st: 10, dx: 10, iq: 10, ht: 10)),
            (name: "B", side: "blue", at: (1, 0), stats: Gurps(st: 10, dx: 10, iq: 10, ht: 10)),
        ],
    )"#;
    let err = parse(skirmish::rules::builtin(), "m.ron", text)
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown side `green`"), "{err}");
    assert!(err.contains("played by a player"), "{err}");
}

/// Vergeworlds skills, attributes and weapon Defense are range-checked (issue 28: an
/// extreme Evade from a mutated file overflowed a defense roll's sum).
#[test]
fn vergeworlds_scores_out_of_range_are_located_errors() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/vw-sheriffs-men.ron"),
    )
    .expect("the scenario");
    let text = text
        .replacen(
            "skills: (fight: 1, evade: 0)",
            "skills: (fight: 1, evade: 2147483647)",
            1,
        )
        .replacen("coordination: 1,", "coordination: 1, vigor: -99,", 1)
        .replacen("smash: true, def: 1,", "smash: true, def: 99,", 1);
    let e = errors(&text);
    assert_eq!(e.len(), 3, "{e:#?}");
    let at = |field: &str| {
        e.iter().any(|m| {
            m.contains(&format!("templates[\"deputy\"].{field}")) && m.contains("is out of range")
        })
    };
    assert!(at("skills.evade"), "{e:#?}");
    assert!(at("vigor"), "{e:#?}");
    assert!(at("weapons[0].def"), "{e:#?}");
}

/// The complete scenario files shown in docs/scenario-format.md: the first, and the
/// minimal battle that opens each ruleset's section (issue 29, item 4). Every one checks,
/// there is one per ruleset, and each minimal battle is fought to a victory.
#[test]
fn every_documented_example_checks() {
    use skirmish::session::{Session, SessionOptions};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/scenario-format.md")).expect("the doc");
    let mut rulesets = std::collections::BTreeSet::new();
    let mut files = 0;
    for block in doc.split("```ron\n").skip(1) {
        let text = block.split("```").next().unwrap_or_default();
        // Complete files only (the others are fragments: a ruleset's settings).
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with("//"));
        if first != Some("(") {
            continue;
        }
        files += 1;
        let p = parse(skirmish::rules::builtin(), "example.ron", text)
            .unwrap_or_else(|e| panic!("{}\n{text}", e.render(false)));
        if text.starts_with("// ") {
            continue; // the annotated overview at the top
        }
        assert!(
            rulesets.insert(p.rules.id()),
            "two minimal battles of {}",
            p.rules.id()
        );
        assert_eq!(
            text.trim(),
            p.rules.new_scenario().trim(),
            "the doc shows the ruleset's new scenario"
        );
        let mut s = Session::new(std::sync::Arc::new(p), 1, SessionOptions::default());
        let outcome = s.run();
        assert!(
            matches!(outcome, Some(skirmish::battle::OutcomeKind::Victory { .. })),
            "{}: {outcome:?}\n{}",
            s.prepared().rules.id(),
            s.log_text()
        );
    }
    assert_eq!(files, 7, "the overview and one minimal battle per ruleset");
    let builtin: std::collections::BTreeSet<&str> = skirmish::rules::builtin()
        .rulesets()
        .iter()
        .map(|r| r.id())
        .collect();
    assert_eq!(rulesets, builtin);
}

/// The one scenario writer loses nothing that matters (issue 29, item 2): every shipped
/// scenario, written by `scenario::to_ron` and read back from its folder, is the same
/// scenario (field for field) and fights the same battle (the same log for a seed), and
/// writing it again gives the same text.
#[test]
fn shipped_scenarios_survive_the_writer() {
    use skirmish::session::{Session, SessionOptions};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("scenarios/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "{names:?}");
    let log = |p: skirmish::scenario::Prepared| {
        let mut s = Session::new(std::sync::Arc::new(p), 7, SessionOptions::default());
        for _ in 0..200 {
            s.step();
        }
        s.log_text()
    };
    for path in names {
        let original = load(skirmish::rules::builtin(), &path)
            .unwrap_or_else(|e| panic!("{}", e.render(false)));
        let text =
            skirmish::scenario::to_ron(skirmish::rules::builtin(), &original.file, "written again")
                .expect("written");
        let again = skirmish::scenario::parse_in(
            skirmish::rules::builtin(),
            "written.ron",
            &text,
            Some(&dir),
        )
        .unwrap_or_else(|e| panic!("{}: {}\n{text}", path.display(), e.render(false)));
        assert_eq!(again.file, original.file, "{}", path.display());
        let twice =
            skirmish::scenario::to_ron(skirmish::rules::builtin(), &again.file, "written again")
                .expect("written");
        assert_eq!(twice, text, "{}", path.display());
        assert_eq!(log(again), log(original), "{}", path.display());
    }
}

/// Written from the file it was read from, a changed scenario keeps the file's comments
/// and the text of every part the change left alone (issue 29, item 2): the brawl with one
/// sailor moved keeps its header, the map's comments and the other units' lines as
/// written; the moved sailor is written anew; the result reads as the changed scenario.
/// Unchanged, every shipped scenario written this way reads as itself.
#[test]
fn the_writer_keeps_the_comments_of_unchanged_parts() {
    use skirmish::scenario::{Original, parse_in, to_ron_from};
    let registry = skirmish::rules::builtin();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let path = dir.join("gurps-brawl.ron");
    let text = std::fs::read_to_string(&path).expect("the brawl");
    let original = load(registry, &path).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let mut changed = original.file.clone();
    let moved = changed.units.len() - 1;
    let name = changed.units[moved].name.clone();
    changed.units[moved].at.0 -= 1;
    let original_ref = Original {
        text: &text,
        file: &original.file,
    };
    let written = to_ron_from(registry, &changed, "moved", original_ref).expect("written");
    assert!(
        written.starts_with("// moved\n// GURPS brawl with 24 combatants"),
        "{written}"
    );
    for kept in ["// pillars", "// tables", "// the bar counter gives cover"] {
        assert!(written.contains(kept), "{kept}:\n{written}");
    }
    let unchanged: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("(name:") && !l.contains(&format!("\"{name}\"")))
        .collect();
    assert_eq!(unchanged.len(), moved, "{text}");
    for line in unchanged {
        assert!(written.contains(line), "{line}\n{written}");
    }
    let again = parse_in(registry, "written.ron", &written, Some(&dir))
        .unwrap_or_else(|e| panic!("{}\n{written}", e.render(false)));
    assert_eq!(again.file, changed);
    assert_ne!(again.file, original.file);

    for entry in std::fs::read_dir(&dir).expect("scenarios/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let p = load(registry, &path).unwrap_or_else(|e| panic!("{}", e.render(false)));
        let o = Original {
            text: &text,
            file: &p.file,
        };
        let written = to_ron_from(registry, &p.file, "", o).expect("written");
        let again = parse_in(registry, "written.ron", &written, Some(&dir))
            .unwrap_or_else(|e| panic!("{}: {}\n{written}", path.display(), e.render(false)));
        assert_eq!(again.file, p.file, "{}", path.display());
    }
}

const COMMENTED: &str = "// a file
(
    name: \"Comments\", // the name
    ruleset: Gurps(),
    // about the map
    map: (shape: Hexagon(radius: 4)),
    sides: [(id: \"a\", control: Player), (id: \"b\", control: Ai(Cautious))],
    templates: {
        // about the guard
        \"guard\": Gurps(st: 11, dx: 11, iq: 10, ht: 11, weapons: [\"spear\"]),
    },
    units: [
        // the first
        (name: \"One\", side: \"a\", at: (0, 0),
            stats: Gurps(st: 10, dx: 12, iq: 10, ht: 10, armor: \"leather
\u{3000} jacket\")),
        (name: \"Two\", side: \"b\", at: (2, 0), template: \"guard\"), // the guard
    ],
    // a short fight
    victory: RoundLimit(12), // twelve rounds
    // the end
) // closed
// after the file
";

/// Comments above parts that follow their key are kept, and so are those after the name
/// and the victory rule and those around the closing parenthesis, also when the units
/// changed (as `balance --out` writes it: a changed unit keeps the comment lines above it
/// and the comment after it); a string broken over lines (one starting with an
/// ideographic space) is never re-indented, and nothing panics; the header is written
/// once however often the file is saved.
#[test]
fn comments_and_strings_survive_and_the_header_is_not_repeated() {
    let registry = skirmish::rules::builtin();
    let file: skirmish::scenario::ScenarioFile = registry.read_ron(COMMENTED).expect("reads");
    let o = skirmish::scenario::Original {
        text: COMMENTED,
        file: &file,
    };
    let comments = [
        "// a file",
        "    name: \"Comments\", // the name",
        "    // about the map",
        "        // about the guard",
        "        // the first\n        (",
        "), // the guard",
        "    // a short fight\n    victory: RoundLimit(12), // twelve rounds",
        "    // the end\n) // closed\n// after the file\n",
    ];
    let mut moved = file.clone();
    moved.units[0].at = (1, 0);
    moved.units[1].at = (3, 0);
    let changed =
        skirmish::scenario::to_ron_from(registry, &moved, "balanced", o).expect("written");
    for kept in comments {
        assert!(changed.contains(kept), "{kept}:\n{changed}");
    }
    let back: skirmish::scenario::ScenarioFile = registry.read_ron(&changed).expect("reads");
    assert_eq!(back, moved, "{changed}");
    let once = skirmish::scenario::to_ron_from(registry, &file, "saved", o).expect("written");
    for kept in comments {
        assert!(once.contains(kept), "{kept}:\n{once}");
    }
    let back: skirmish::scenario::ScenarioFile = registry.read_ron(&once).expect("reads back");
    assert_eq!(back, file, "{once}");
    let o = skirmish::scenario::Original {
        text: &once,
        file: &back,
    };
    let twice =
        skirmish::scenario::to_ron_from(registry, &back, "saved", o).expect("written again");
    assert_eq!(twice.matches("// saved").count(), 1, "{twice}");
    for once in ["// a file", "// the end", "// closed", "// after the file"] {
        assert_eq!(twice.matches(once).count(), 1, "{once}: {twice}");
    }
    assert_eq!(
        registry
            .read_ron::<skirmish::scenario::ScenarioFile>(&twice)
            .expect("reads"),
        file
    );
}

/// `can_write_new`, asked before `balance --out`'s search, and `write_new` after it: a file
/// in a folder that does not exist is refused by both with the same words; one that can be
/// made is made by neither check (nothing is left behind); one that exists is refused.
#[test]
fn a_new_file_that_cannot_be_made_is_said_so() {
    use skirmish::scenario::{can_write_new, write_new};
    let dir = crate::cli::temp_dir("write-new");
    let missing = dir.join("gone").join("x.ron");
    let refused = can_write_new(&missing).expect_err("no such folder");
    assert!(
        refused.starts_with(&format!("cannot write {}: ", missing.display())),
        "{refused}"
    );
    let prepared = skirmish::rules::builtin()
        .load(std::path::Path::new("scenarios/gurps-duel.ron"))
        .expect("the duel loads");
    let registry = skirmish::rules::builtin();
    let late = write_new(registry, &prepared.file, "header", None, &missing).expect_err("gone");
    assert_eq!(late, refused);
    let fresh = dir.join("x.ron");
    assert_eq!(can_write_new(&fresh), Ok(()));
    assert!(!fresh.exists());
    std::fs::write(&fresh, "").expect("written");
    assert!(can_write_new(&fresh).is_err());
}

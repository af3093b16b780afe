//! The editor's state functions for every ruleset: place, move, rotate, edit a field, save,
//! and the file reloads with `check` (issue 29's done-when); bad input is refused with a
//! message and loses nothing.

use super::*;
use crate::rules::builtin;

/// A field of each ruleset's stat block, a new value for it, and whether `check` then
/// finds a problem (a Main Sequence character's attributes must add up to 10).
const EDITS: [(&str, &str, &str, bool); 6] = [
    ("gurps", "st", "14", false),
    ("starship-d12", "shields", "3", false),
    ("socs", "mr", "1", false),
    ("main-sequence", "soldier", "5", true),
    ("traveller-space", "dr", "80", false),
    ("vergeworlds", "coordination", "2", false),
];

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("skirmish-editor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// The first free, open hex of the map, nearest the centre.
fn free_hex(e: &Editor) -> Hex {
    let map = e.map();
    let mut hexes: Vec<Hex> = map
        .hexes()
        .filter(|&(h, t)| t.move_cost().is_some() && e.unit_at(h).is_none())
        .map(|(h, _)| h)
        .collect();
    hexes.sort_by_key(|h| (h.ulength(), h.x, h.y));
    hexes[0]
}

#[test]
fn every_ruleset_is_edited_saved_and_checked() {
    let dir = temp_dir("all");
    for (ruleset, field, value, problem) in EDITS {
        let mut e = Editor::new(builtin(), ruleset, None).expect("a new scenario");
        assert!(e.dirty(), "{ruleset}: a new scenario is not saved yet");
        assert!(e.problems().is_empty(), "{ruleset}: {:?}", e.problems());
        // Place a copy of the first unit, move it, turn it.
        let at = free_hex(&e);
        let copy = e.place(0, at).expect("placed");
        assert_eq!(e.file().units.len(), 3);
        assert_eq!(
            e.file().units[copy].name,
            format!("{} 2", e.file().units[0].name)
        );
        let to = free_hex(&e);
        e.move_unit(copy, to).expect("moved");
        assert_eq!(e.file().units[copy].at, (to.x, to.y));
        e.rotate(copy, true).expect("turned");
        assert!(e.file().units[copy].facing.is_some());
        // Edit a field of its stat block, as typed in the form.
        let before: Vec<(String, String)> = e.stat_fields(copy).expect("a form");
        assert!(
            before.iter().any(|(n, _)| n == field),
            "{ruleset}: {before:?}"
        );
        e.set_stat_field(copy, field, value)
            .expect("the value reads");
        let after = e.stat_fields(copy).expect("a form");
        let shown = after
            .iter()
            .find(|(n, _)| n == field)
            .map(|(_, v)| v.as_str());
        assert_eq!(shown, Some(value), "{ruleset}");
        let at_unit = Path::root().field("units").index(copy);
        assert_eq!(
            !e.problems_at(&at_unit).is_empty(),
            problem,
            "{ruleset}: {:?}",
            e.problems()
        );
        if problem {
            assert!(e.prepared().is_none());
            e.undo();
            assert!(e.problems().is_empty());
        }
        // Saved, the file checks and holds the edits.
        let path = dir.join(format!("{ruleset}.ron"));
        assert!(e.dirty(), "changed");
        e.save(Some(&path)).expect("saved");
        assert!(!e.dirty());
        // A change taken back leaves it as saved: nothing to save.
        e.rotate(copy, true).expect("turned");
        assert!(e.dirty());
        assert!(e.undo());
        assert!(!e.dirty());
        let back = builtin()
            .load(&path)
            .unwrap_or_else(|err| panic!("{ruleset}: {}", err.render(false)));
        assert_eq!(back.units.len(), 3);
        assert_eq!(back.file.units[copy].at, (to.x, to.y));
        let reopened = Editor::open(builtin(), &path).expect("reopened");
        let fields = reopened.stat_fields(copy).expect("a form");
        let shown = fields
            .iter()
            .find(|(n, _)| n == field)
            .map(|(_, v)| v.as_str());
        if !problem {
            assert_eq!(shown, Some(value), "{ruleset}");
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn undo_and_redo_walk_the_changes() {
    let mut e = Editor::new(builtin(), "gurps", None).expect("new");
    let first = e.file().clone();
    let at = free_hex(&e);
    e.place(0, at).expect("placed");
    let placed = e.file().clone();
    e.delete(0).expect("deleted");
    assert_eq!(e.file().units.len(), 2);
    assert!(e.undo());
    assert_eq!(e.file(), &placed);
    assert!(e.undo());
    assert_eq!(e.file(), &first);
    assert!(!e.undo(), "nothing more to undo");
    assert!(e.redo());
    assert_eq!(e.file(), &placed);
    e.paint(free_hex(&e), Terrain::Difficult).expect("painted");
    assert!(!e.redo(), "a new change drops what was undone");
}

#[test]
fn bad_input_is_refused_and_nothing_is_lost() {
    let mut e = Editor::new(builtin(), "gurps", None).expect("new");
    let before = e.file().clone();
    let other = Hex::new(e.file().units[1].at.0, e.file().units[1].at.1);
    let off = Hex::new(50, 0);
    assert!(e.move_unit(0, off).unwrap_err().contains("off the map"));
    let taken = e.move_unit(0, other).unwrap_err();
    assert!(taken.contains("taken by Bertran"), "{taken}");
    let bad = e.set_stat_field(0, "st", "\"strong\"").unwrap_err();
    assert!(bad.starts_with("st: "), "{bad}");
    assert!(
        e.set_stat_field(0, "strength", "12")
            .unwrap_err()
            .contains("no field")
    );
    assert!(
        e.paint(other, Terrain::Blocked)
            .unwrap_err()
            .contains("move it first")
    );
    assert!(e.rename(0, "Bertran").unwrap_err().contains("another unit"));
    assert!(e.set_unit_side(0, "green").unwrap_err().contains("no side"));
    assert_eq!(e.file(), &before, "nothing changed");
    // Out of range: read, kept, and shown as a problem at the field.
    e.set_stat_field(0, "st", "99").expect("a number reads");
    let st = Path::root().field("units").index(0);
    let problems = e.problems_at(&st);
    assert!(problems.iter().any(|p| p.contains("ST")), "{problems:?}");
    // A save that cannot be written keeps the edit, and where it was to be saved.
    let edited = e.file().clone();
    let err = e
        .save(Some(std::path::Path::new("/proc/skirmish/none.ron")))
        .unwrap_err();
    assert!(err.contains("cannot write"), "{err}");
    assert_eq!(e.file(), &edited);
    assert_eq!(e.path(), None, "not saved anywhere");
    assert!(Editor::new(builtin(), "chess", None).is_err());
}

#[test]
fn the_ruleset_settings_are_a_form_too() {
    let mut e = Editor::new(builtin(), "starship-d12", None).expect("new");
    let fields = e.ruleset_fields().expect("a form");
    assert!(
        fields
            .iter()
            .any(|(n, v)| n == "start_range" && v == "Medium"),
        "{fields:?}"
    );
    e.set_ruleset_field("start_range", "Long").expect("set");
    let text = e.text().expect("written");
    assert!(text.contains("StarshipD12(start_range: Long)"), "{text}");
    assert!(e.set_ruleset_field("start_range", "Nowhere").is_err());
}

#[test]
fn copies_go_on_the_nearest_free_hexes() {
    let mut e = Editor::new(builtin(), "vergeworlds", None).expect("new");
    let added = e.add_copies(1, 3).expect("copies");
    assert_eq!(added, vec![2, 3, 4]);
    let home = Hex::new(e.file().units[1].at.0, e.file().units[1].at.1);
    for &i in &added {
        let at = Hex::new(e.file().units[i].at.0, e.file().units[i].at.1);
        assert_eq!(at.unsigned_distance_to(home), 1);
    }
    let names: Vec<&str> = e.file().units.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names[2..], ["Deputy 2", "Deputy 3", "Deputy 4"]);
    assert!(e.problems().is_empty(), "{:?}", e.problems());
}

/// A file with problems opens, shows them at their place, and is mended by the editor:
/// Bob, off the map, moved onto it.
#[test]
fn a_file_with_problems_opens_to_be_mended() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/malformed/off-map.ron");
    let mut e = Editor::open(builtin(), &path).expect("it reads");
    assert!(e.prepared().is_none());
    // Without Bob his side would be empty: nothing the map can show of this file.
    assert!(e.shown().is_none());
    // While it is the file, the problem list points where `check` does (its expect line).
    let at = Path::root().field("units").index(1).field("at");
    assert_eq!(e.line_of(&at), Some((10, 41)));
    e.place(1, Hex::new(2, 0))
        .expect("a copy of Bob on the map");
    assert_eq!(
        e.line_of(&at),
        None,
        "changed: its lines are not written yet"
    );
    let shown = e.shown().expect("without Bob, the rest checks");
    let names: Vec<&str> = shown.units.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Bob 2"]);
    // The map shows Bob 2 second: a click on him rings the second token, not the third.
    assert_eq!(e.shown_index(2), Some(1));
    assert_eq!(e.shown_index(1), None, "Bob is left out");
    assert_eq!(e.shown_index(0), Some(0));
    assert_eq!(e.shown_index(3), None);
    e.delete(2).expect("the copy deleted");
    let bob = Path::root().field("units").index(1);
    let problems = e.problems_at(&bob);
    assert_eq!(problems, ["units[1].at: hex (9, 0) is off the map"]);
    e.move_unit(1, Hex::new(3, 0)).expect("moved onto the map");
    assert!(e.problems().is_empty(), "{:?}", e.problems());
    assert!(e.prepared().is_some());
    // Written, the file keeps its comment line and Ann's line as they were.
    let text = e.text().expect("written");
    assert!(text.contains("// expect: 10:41"), "{text}");
    assert!(
        text.contains("(name: \"Ann\", side: \"red\", at: (0, 0), stats: Gurps("),
        "{text}"
    );
    assert!(
        text.contains("(name: \"Bob\", side: \"blue\", at: (3, 0), template: \"guard\")"),
        "{text}"
    );
}

/// The Vector tool: a Traveller ship's velocity and a Vergeworlds mover's heading and speed
/// are set by the hex they head for; GURPS fighters have none.
#[test]
fn vectors_point_where_the_unit_heads() {
    let mut e = Editor::new(builtin(), "traveller-space", None).expect("new");
    assert!(e.has_vectors());
    let at = e.file().units[0].at;
    e.aim(0, Hex::new(at.0 + 2, at.1 - 1)).expect("aimed");
    let v = e.stat_fields(0).expect("a form");
    assert!(
        v.iter().any(|(n, t)| n == "velocity" && t == "(2, -1)"),
        "{v:?}"
    );
    let mut e = Editor::new(builtin(), "vergeworlds", None).expect("new");
    let at = e.file().units[0].at;
    e.aim(0, Hex::new(at.0 + 3, at.1)).expect("aimed");
    let v = e.stat_fields(0).expect("a form");
    let east = hexx::EdgeDirection::ALL_DIRECTIONS
        .iter()
        .position(|d| Hex::ZERO + *d == Hex::new(1, 0))
        .expect("a side");
    let expected = format!("({east}, 3)");
    assert!(
        v.iter().any(|(n, t)| n == "moving" && t == &expected),
        "{v:?} {expected}"
    );
    assert!(e.prepared().is_some(), "{:?}", e.problems());
    let mut e = Editor::new(builtin(), "gurps", None).expect("new");
    assert!(!e.has_vectors());
    assert!(
        e.aim(0, Hex::ZERO)
            .unwrap_err()
            .contains("no starting vector")
    );
}

/// A side's colour is part of the file: set, saved, read back (the window draws its tokens
/// and names in it).
#[test]
fn a_side_keeps_its_colour() {
    let mut e = Editor::new(builtin(), "socs", None).expect("new");
    let mut side = e.file().sides[1].clone();
    side.colour = Some((200, 60, 40));
    e.set_side(1, side).expect("set");
    let text = e.text().expect("written");
    assert!(text.contains("colour: (200, 60, 40)"), "{text}");
    let p = crate::scenario::parse(builtin(), "x.ron", &text).expect("checks");
    assert_eq!(p.sides[1].colour, Some((200, 60, 40)));
    assert_eq!(p.sides[0].colour, None);
}

/// Saved twice and reopened, a file says once that the editor wrote it, and keeps the
/// original's comments once.
#[test]
fn saving_twice_writes_the_header_once() {
    let dir = temp_dir("twice");
    let path = dir.join("duel.ron");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gurps-duel.ron"),
        &path,
    )
    .expect("copied");
    let mut e = Editor::open(builtin(), &path).expect("opened");
    e.rotate(0, true).expect("turned");
    e.save(None).expect("saved");
    let mut e = Editor::open(builtin(), &path).expect("reopened");
    e.rotate(0, true).expect("turned");
    e.save(None).expect("saved again");
    let text = std::fs::read_to_string(&path).expect("read");
    assert_eq!(
        text.matches("// Written by the Skirmish editor").count(),
        1,
        "{text}"
    );
    let first = text.lines().nth(1).unwrap_or_default();
    assert!(first.starts_with("// GURPS melee duel"), "{text}");
    assert_eq!(text.matches("// GURPS melee duel").count(), 1, "{text}");
    builtin()
        .load(&path)
        .unwrap_or_else(|err| panic!("{}", err.render(false)));
    let _ = std::fs::remove_dir_all(dir);
}

/// A scenario naming GCS files relative to its folder is not saved into another folder,
/// where they would not be found (it would no longer check); in its own folder it is.
/// A problem it already has does not stop a save.
#[test]
fn a_save_that_would_lose_the_files_it_names_is_refused() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("scenarios/gurps-gcs-ogre-ambush.ron");
    let mut e = Editor::open(builtin(), &path).expect("opened");
    let dir = temp_dir("elsewhere");
    let elsewhere = dir.join("ogre.ron");
    let why = e.save(Some(&elsewhere)).expect_err("refused");
    assert!(why.contains("would not check there"), "{why}");
    assert!(why.contains("gcs"), "{why}");
    assert!(!elsewhere.exists());
    // Mended in the folder it names its files from: a copy beside the GCS folder.
    std::fs::create_dir_all(dir.join("gcs")).expect("folder");
    for entry in std::fs::read_dir(root.join("scenarios/gcs")).expect("samples") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), dir.join("gcs").join(entry.file_name())).expect("copied");
    }
    e.save(Some(&elsewhere)).expect("saved beside its files");
    builtin()
        .load(&elsewhere)
        .unwrap_or_else(|err| panic!("{}", err.render(false)));
    // A scenario with a problem of its own still saves, anywhere.
    let duel = root.join("tests/malformed/negative-hp.ron");
    let mut e = Editor::open(builtin(), &duel).expect("opened");
    assert!(!e.problems().is_empty());
    e.save(Some(&dir.join("mending.ron")))
        .expect("saved as it is");
    // Nor does a GCS file it already misses: its message names the folder, so it reads
    // differently elsewhere, but it is the same problem. Saved onto itself, too.
    let missing = dir.join("missing.ron");
    std::fs::copy(root.join("tests/malformed/gcs-missing-file.ron"), &missing).expect("copied");
    let mut e = Editor::open(builtin(), &missing).expect("opened");
    assert!(!e.problems().is_empty());
    e.save(None).expect("saved onto itself");
    std::fs::create_dir_all(dir.join("other")).expect("folder");
    e.save(Some(&dir.join("other/missing.ron")))
        .expect("saved elsewhere with the problem it has");
    let _ = std::fs::remove_dir_all(dir);
}

/// A unit without a written facing faces its nearest foe on the map; Turn starts from
/// there, a hex side clockwise (or back), not from the first compass point.
#[test]
fn turning_starts_from_the_facing_shown() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("scenarios/gurps-duel.ron")).expect("read");
    let unwritten = text.replacen("at: (3, 0), facing: West,", "at: (3, 0),", 1);
    assert_ne!(unwritten, text);
    let dir = temp_dir("turn");
    let path = dir.join("duel.ron");
    std::fs::write(&path, unwritten).expect("written");
    let open = || Editor::open(builtin(), &path).expect("opened");
    let mut e = open();
    assert_eq!(e.file().units[1].facing, None);
    // Unwritten, the Black Knight faces Aldric: West.
    let shown = e.prepared().expect("checks").units[1].facing;
    assert_eq!(Compass::of(shown, e.file().map.orientation), Compass::West);
    e.rotate(1, true).expect("turned");
    assert_eq!(e.file().units[1].facing, Some(Compass::NorthWest));
    let mut e = open();
    e.rotate(1, false).expect("turned back");
    assert_eq!(e.file().units[1].facing, Some(Compass::SouthWest));
    let _ = std::fs::remove_dir_all(dir);
}

/// A GURPS character taken from a GCS file shows ST, DX, IQ and HT in its form, unset
/// (the file gives them) but there to set over the file, as every other field is.
#[test]
fn a_gcs_character_form_has_its_attributes() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/gurps-gcs-ogre-ambush.ron");
    let e = Editor::open(builtin(), &path).expect("opened");
    let fields = e.stat_fields(0).expect("a form");
    for name in ["gcs", "st", "dx", "iq", "ht", "hp"] {
        assert!(fields.iter().any(|(n, _)| n == name), "{name}: {fields:?}");
    }
    let st = fields
        .iter()
        .find(|(n, _)| n == "st")
        .map(|(_, v)| v.as_str());
    assert_eq!(st, Some("None"));
    e.file().units[0]
        .stats
        .as_ref()
        .expect("a stat block of its own");
}

/// The editor offers terrain to paint only where the battle reads it: GURPS, Main Sequence
/// and Vergeworlds move, see and take cover by it; starship-d12 and SOCS keep range as a
/// band and Traveller ships fly in open space (docs/scenario-format.md, their sections).
#[test]
fn terrain_is_offered_only_to_the_rulesets_that_read_it() {
    let using: Vec<&str> = builtin()
        .rulesets()
        .iter()
        .filter(|r| r.uses_terrain())
        .map(|r| r.id())
        .collect();
    assert_eq!(using, ["gurps", "main-sequence", "vergeworlds"]);
}

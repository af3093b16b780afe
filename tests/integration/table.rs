//! The game master at the table (`skirmish::play`): dice rolled by hand and entered, the
//! GM's edits and take-overs of AI units, for every ruleset: each battle is played, saved,
//! loaded and replayed byte for byte, and every kind of bad entry is refused with a clear
//! message (a located one in a save file).

use skirmish::battle::{Control, Controller, GmChange, GmValue, HexPos, Standing, UnitId};
use skirmish::play::{Advance, Play, TableEntry};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name)
}

fn play(name: &str, seed: u64) -> Play {
    let path = shipped(name);
    let prepared = skirmish::rules::builtin()
        .load(&path)
        .unwrap_or_else(|e| panic!("{e}"));
    Play::new(Arc::new(prepared), path, seed)
}

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skirmish-table-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// The side index and control of a unit.
fn side_and_control(p: &mut Play, unit: UnitId) -> (u8, Control, bool) {
    let entity = p.session().roster().entity(unit).expect("unit");
    let world = &p.session().world;
    let side = world.get::<skirmish::battle::Side>(entity).expect("side").0;
    let control = world.get::<Controller>(entity).expect("controller").0;
    let fighting = world.get::<Standing>(entity).is_some_and(|s| s.fighting());
    (side, control, fighting)
}

/// What [`table_battle`] did.
#[derive(Debug, Default)]
struct Table {
    /// Rolls whose faces were entered.
    dice: usize,
    /// GM edits made.
    edits: usize,
    /// The AI unit taken over, and whether it then decided under the GM.
    taken: Option<UnitId>,
    taken_decided: bool,
}

/// Plays a shipped battle with its first side rolling its own dice (faces entered from a
/// fixed pattern, after a wrong entry that must be refused), the player's decisions made
/// by the AI through the recording, two GM edits of the first enemy (its first number
/// lowered by one, and a turn on its hex) and one AI unit taken over for one decision.
fn table_battle(file: &str, seed: u64) -> (Play, Table) {
    let mut p = play(file, seed);
    let own = p.session().sides().0[0].id.clone();
    p.set_own_dice(&own, true);
    let mut t = Table::default();
    let mut pattern = 0u32;
    let mut decisions = 0;
    for _ in 0..200_000 {
        match p.advance() {
            Advance::AwaitingDice(unit) => {
                let request = p.pending_dice().cloned().expect("a roll waits");
                assert_eq!(request.unit, unit);
                assert_eq!(side_and_control(&mut p, unit).0, 0, "{request:?}");
                let wrong = vec![1; request.count + 1];
                let refused = p.enter_dice(&wrong).expect_err("one face too many");
                assert!(refused.contains("asks for"), "{refused}");
                let off = vec![request.sides + 1; request.count];
                assert!(p.enter_dice(&off).is_err(), "a face off the die");
                assert_eq!(p.pending_dice(), Some(&request), "nothing lost");
                let faces: Vec<u32> = (0..request.count as u32)
                    .map(|k| (pattern + k) % request.sides + 1)
                    .collect();
                pattern += 1;
                p.enter_dice(&faces)
                    .unwrap_or_else(|e| panic!("{e}: {request:?}"));
                t.dice += 1;
            }
            Advance::AwaitingPlayer(unit) => {
                if t.taken == Some(unit) {
                    t.taken_decided = true;
                } else if decisions == 1 && t.edits == 0 {
                    gm_edits(&mut p, &mut t);
                } else if decisions == 2 && t.taken.is_none() {
                    take_over_a_foe(&mut p, &mut t);
                }
                p.decide_by_ai().unwrap_or_else(|e| panic!("{e}"));
                decisions += 1;
                // The decision is recorded, and the unit given back to the AI, once the
                // dice it waits for (a defense of the side rolling its own) are in.
                if t.taken_decided && t.taken == Some(unit) && p.pending_dice().is_none() {
                    assert!(!p.taken_over(unit), "the AI has it back");
                }
            }
            Advance::Stepped | Advance::Replayed { .. } => {}
            Advance::Over(_) => break,
            Advance::ReplayFailed(e) => panic!("{e}"),
        }
    }
    assert!(p.session().outcome().is_some(), "{file} did not end");
    if let Some(unit) = t.taken {
        assert!(!p.taken_over(unit), "{file}: the AI has it back");
    }
    (p, t)
}

/// The first enemy still fighting.
fn first_foe(p: &mut Play) -> UnitId {
    let n = p.session().roster().units.len();
    (0..n as u32)
        .map(UnitId)
        .find(|&u| {
            let (side, _, fighting) = side_and_control(p, u);
            side != 0 && fighting
        })
        .expect("an enemy is left")
}

/// Changes the first enemy's first field (a number lowered by one within the rules, else
/// a state moved to the next, else a condition turned on) and turns it on its hex; each
/// edit must be logged as a GM line.
fn gm_edits(p: &mut Play, t: &mut Table) {
    let foe = first_foe(p);
    let fields = p.gm_fields(foe);
    let number = fields.iter().find_map(|f| match f.value {
        GmValue::Number { now, min, .. } if now > min => Some((f, now - 1)),
        _ => None,
    });
    let choice = fields.iter().find_map(|f| match f.value {
        GmValue::Choice { now, options } if now + 1 < options.len() => Some((f, now as i32 + 1)),
        _ => None,
    });
    let flag = fields.iter().find_map(|f| match f.value {
        GmValue::Flag(false) => Some((f, 1)),
        _ => None,
    });
    let (field, value) = number
        .or(choice)
        .or(flag)
        .unwrap_or_else(|| panic!("nothing to change among {fields:?}"));
    let expected = format!(
        "{} {} -> {}",
        field.label,
        field.value.words(field.value.as_number()),
        field.value.words(value)
    );
    let set = GmChange::Set {
        key: field.key.to_string(),
        value,
        force: false,
    };
    let words = p
        .gm_edit(foe, set, "a falling chandelier")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(words, expected);
    t.edits += 1;
    let entity = p.session().roster().entity(foe).expect("foe");
    let at = p.session().world.get::<HexPos>(entity).expect("pos").0;
    let turn = GmChange::Place {
        at: (at.x, at.y),
        facing: 3,
    };
    if p.gm_edit(foe, turn, "").is_ok() {
        t.edits += 1;
    }
    let log = p.session().log_text();
    let name = p.session().roster().name(foe).to_string();
    assert!(
        log.contains(&format!("GM: {name} {expected}, a falling chandelier")),
        "{log}"
    );
}

/// Takes over the first AI unit still fighting.
fn take_over_a_foe(p: &mut Play, t: &mut Table) {
    let foe = first_foe(p);
    assert!(matches!(side_and_control(p, foe).1, Control::Ai(_)));
    p.take_over(foe).unwrap_or_else(|e| panic!("{e}"));
    assert!(p.taken_over(foe));
    assert!(p.take_over(foe).is_err(), "not twice");
    t.taken = Some(foe);
}

/// Saves the battle, loads it back and checks that the replay is the same battle, byte for
/// byte, and that the `replay` command prints that log.
fn replays_byte_for_byte(p: &Play, test: &str) {
    let save = temp_dir(test).join("battle.save.ron");
    p.save(&save).expect("saved");
    let text = std::fs::read_to_string(&save).expect("read back");
    assert!(text.contains("own_dice"), "{text}");
    assert!(text.contains("Dice(") && text.contains("Gm("), "{text}");
    let live = p.session().log_text();
    assert!(
        live.contains(" entered ["),
        "the log marks entered dice:\n{live}"
    );
    let back = Play::load(&save).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert_eq!(back.session().log_text(), live);
    assert_eq!(back.recording(), p.recording());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .arg("replay")
        .arg(&save)
        .output()
        .expect("replay runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains(&live), "replay prints the log:\n{printed}");
}

/// One battle a ruleset: entered dice, GM edits and a take-over, saved and replayed.
fn check_ruleset(file: &str, seed: u64) {
    let (p, t) = table_battle(file, seed);
    assert!(t.dice >= 3, "{file}: {t:?}");
    assert!(t.edits >= 1, "{file}: {t:?}");
    assert!(t.taken.is_some() && t.taken_decided, "{file}: {t:?}");
    let entries: Vec<&TableEntry> = p
        .recording()
        .decisions
        .iter()
        .filter_map(|d| d.table_entry())
        .collect();
    let dice = entries
        .iter()
        .filter(|e| matches!(e, TableEntry::Dice { .. }))
        .count();
    assert_eq!(dice, t.dice, "{file}");
    replays_byte_for_byte(&p, file);
}

/// GURPS (gurps-lite-and-socs.txt, "MANEUVERS"): the duel.
#[test]
fn gurps_at_the_table() {
    check_ruleset("gurps-duel.ron", 3);
}

/// SOCS dogfight.
#[test]
fn socs_at_the_table() {
    check_ruleset("socs-dogfight.ron", 3);
}

/// starship-d12 duel.
#[test]
fn starship_d12_at_the_table() {
    check_ruleset("d12-duel.ron", 3);
}

/// Vergeworlds: Helen and the sheriff's men.
#[test]
fn vergeworlds_at_the_table() {
    check_ruleset("vw-sheriffs-men.ron", 3);
}

/// Main Sequence: the corridor.
#[test]
fn main_sequence_at_the_table() {
    check_ruleset("ms-corridor.ron", 3);
}

/// GURPS Traveller space combat: the merchant and the raider.
#[test]
fn traveller_at_the_table() {
    check_ruleset("traveller-merchant-raider.ron", 3);
}

/// `file`'s battle of seed `seed` with `side` rolling its own dice, played (the player's
/// decisions by the AI) to the first roll that waits for them, and that roll.
fn first_roll(file: &str, seed: u64, side: &str) -> (Play, skirmish::play::DiceRequest) {
    let mut p = play(file, seed);
    p.set_own_dice(side, true);
    loop {
        match p.advance() {
            Advance::AwaitingDice(_) => {
                let request = p.pending_dice().cloned().expect("roll");
                return (p, request);
            }
            Advance::AwaitingPlayer(_) => p.decide_by_ai().expect("decides"),
            Advance::Over(o) => panic!("over before a roll: {o:?}"),
            _ => {}
        }
    }
}

/// While a roll waits for its dice the battle stands before the step that rolls it, so
/// the request tells what that step did first: the Black Knight's Move and Attack asks
/// for his attack roll with his move told, and him drawn where he attacks from, while his
/// place in the battle is still where he started.
#[test]
fn a_waiting_roll_tells_what_its_step_did_before_it() {
    let (mut p, request) = first_roll("gurps-duel.ron", 7, "blue");
    let knight = UnitId(1);
    assert_eq!(request.unit, knight);
    assert_eq!(request.purpose, "attack on Aldric with mace");
    assert_eq!(
        request.before[..2],
        [
            "Black Knight: Move and Attack on Aldric with mace, moving to (1, 0)",
            "Black Knight moves (3,0) > (2,0) > (1,0) [3 MP]",
        ]
    );
    assert_eq!(request.moved, vec![(knight, hexx::Hex::new(1, 0))]);
    let entity = p.session().roster().entity(knight).expect("knight");
    let at = p.session().world.get::<HexPos>(entity).expect("placed").0;
    assert_eq!(
        at,
        hexx::Hex::new(3, 0),
        "the battle stands before his step"
    );
    // Entered, the step is made: he stands where the request drew him.
    p.enter_dice(&[3, 3, 4]).expect("fits");
    let at = p.session().world.get::<HexPos>(entity).expect("placed").0;
    assert_eq!(at, hexx::Hex::new(1, 0));
}

/// The first defense roll that waits for the dice of `side` in `file` (seed `seed`), the
/// other rolls entered as 4s and the player's decisions made by the AI.
fn first_waiting_defense(file: &str, seed: u64, side: &str) -> skirmish::play::DiceRequest {
    let mut p = play(file, seed);
    p.set_own_dice(side, true);
    for _ in 0..100_000 {
        match p.advance() {
            Advance::AwaitingDice(_) => {
                let request = p.pending_dice().cloned().expect("roll");
                if request.purpose.contains(" against ") {
                    return request;
                }
                p.enter_dice(&vec![4; request.count]).expect("fits");
            }
            Advance::AwaitingPlayer(_) => p.decide_by_ai().expect("decides"),
            Advance::Over(o) => panic!("{file}: over before a defense: {o:?}"),
            _ => {}
        }
    }
    panic!("{file}: no defense");
}

/// A waiting defense tells the attack before it when the attack was rolled first (GURPS:
/// the roll to hit, then the defense), and not when the defense came first (Vergeworlds:
/// the defense's degree goes into the attack's difficulty), although both events list the
/// attack's roll first.
#[test]
fn a_waiting_defense_tells_only_the_rolls_made_before_it() {
    let gurps = first_waiting_defense("gurps-duel.ron", 3, "red");
    assert!(
        gurps
            .before
            .iter()
            .any(|l| l.contains(", attack on Aldric with ")),
        "{gurps:?}"
    );
    let verge = first_waiting_defense("vw-warehouse-firefight.ron", 3, "agency");
    assert!(
        !verge.before.iter().any(|l| l.contains(", attack on ")),
        "{verge:?}"
    );
}

/// Entered faces are the dice the rules see: a GURPS attack entered as 3, 3, 4 (a 10)
/// shows those faces in the log, marked entered, and undo takes the entered dice back
/// with the decision.
#[test]
fn entered_faces_are_the_rolls_and_undo_takes_them_back() {
    let (mut p, request) = first_roll("gurps-duel.ron", 7, "red");
    assert_eq!((request.count, request.sides), (3, 6), "{request:?}");
    assert_eq!(request.dice, "3d6");
    let before = p.recording().decisions.len();
    p.enter_dice(&[3, 3, 4]).expect("fits");
    let log = p.session().log_text();
    assert!(log.contains("3d6 entered [3 3 4] = 10"), "{log}");
    assert!(p.recording().decisions.len() > before);
    // Back to where the decision was awaited: the dice entered for it go too.
    while p.pending_dice().is_some() {
        p.enter_dice(&vec![2; p.pending_dice().map_or(0, |r| r.count)])
            .expect("fits");
    }
    assert!(p.undo());
    assert!(
        p.recording()
            .decisions
            .iter()
            .all(|d| !matches!(d.table_entry(), Some(TableEntry::Dice { .. }))),
        "{:?}",
        p.recording().decisions
    );
    assert!(!p.session().log_text().contains("entered"));
}

/// The GM's refusals: an unknown field, a value past the rules' bounds, a hex off the map,
/// a unit that does not exist, taking over a player's unit; nothing is recorded.
#[test]
fn the_gm_is_refused_what_the_rules_refuse() {
    let mut p = play("gurps-duel.ron", 7);
    loop {
        match p.advance() {
            Advance::AwaitingPlayer(_) => break,
            Advance::Over(_) => panic!("over"),
            _ => {}
        }
    }
    let set = |key: &str, value: i32, force: bool| GmChange::Set {
        key: key.to_string(),
        value,
        force,
    };
    let hp = p
        .gm_fields(UnitId(1))
        .into_iter()
        .find(|f| f.key == "hp")
        .expect("GURPS lets the GM set HP");
    let GmValue::Number { max, .. } = hp.value else {
        panic!("{hp:?}")
    };
    let err = p.gm_edit(UnitId(1), set("zz", 1, false), "").unwrap_err();
    assert!(err.contains("no field `zz`"), "{err}");
    let err = p
        .gm_edit(UnitId(1), set("hp", max + 1, false), "")
        .unwrap_err();
    assert!(err.contains("force"), "{err}");
    let off = GmChange::Place {
        at: (99, 99),
        facing: 0,
    };
    let err = p.gm_edit(UnitId(1), off, "").unwrap_err();
    assert!(err.contains("not on the map"), "{err}");
    let err = p.gm_edit(UnitId(9), GmChange::Remove, "").unwrap_err();
    assert!(err.contains("no unit 9"), "{err}");
    let err = p.take_over(UnitId(0)).unwrap_err();
    assert!(err.contains("player's unit"), "{err}");
    assert!(p.recording().decisions.is_empty());
    // Forced past the maximum, it goes.
    let words = p
        .gm_edit(UnitId(1), set("hp", max + 1, true), "a potion")
        .expect("forced");
    assert!(words.ends_with("(forced)"), "{words}");
    assert_eq!(p.recording().decisions.len(), 1);
    // And undo takes it back like a decision.
    assert!(p.undo());
    assert!(p.recording().decisions.is_empty());
    assert!(!p.session().log_text().contains("GM:"));
}

/// Save files with table entries that cannot be played give located errors: dice that
/// are not faces of their die, an edit of a unit that does not exist, an edit recorded at
/// a step the battle has passed, a side that does not exist.
#[test]
fn bad_table_entries_in_a_save_are_located() {
    let dir = temp_dir("bad-entries");
    let scenario = shipped("gurps-duel.ron");
    let cases = [
        (
            "decisions: [Dice(unit: (0), draw: 0, faces: [9, 9, 9])]",
            "never rolled",
        ),
        (
            "decisions: [Gm(at: 0, unit: (7), change: Remove)]",
            "no unit 7",
        ),
        (
            "decisions: [Gurps(unit: (0), action: (maneuver: DoNothing)), Gm(at: 0, unit: (1), change: Remove)]",
            "at step 0",
        ),
        ("own_dice: [\"green\"]", "no side `green`"),
        (
            "decisions: [Dice(unit: (0), draw: 0, faces: [1], zz: 1)]",
            "zz",
        ),
    ];
    for (i, (body, expected)) in cases.iter().enumerate() {
        let file = dir.join(format!("bad{i}.save.ron"));
        let text = format!(
            "(\n    scenario: {:?},\n    seed: 7,\n    {body},\n)\n",
            scenario.display().to_string()
        );
        std::fs::write(&file, &text).expect("written");
        let err = match Play::load(&file) {
            Ok(_) => panic!("{body} loaded"),
            Err(e) => e.render(false),
        };
        assert!(err.contains(expected), "{body}: {err}");
        assert!(err.contains(":4:"), "located: {err}");
    }
    // Faces that are not faces of their die, in a save the program wrote.
    let mut p = play("gurps-duel.ron", 7);
    p.set_own_dice("red", true);
    while p.pending_dice().is_none() {
        match p.advance() {
            Advance::AwaitingPlayer(_) => p.decide_by_ai().expect("decides"),
            Advance::Over(o) => panic!("over before a roll: {o:?}"),
            _ => {}
        }
    }
    p.enter_dice(&[3, 3, 4]).expect("fits");
    let file = dir.join("faces.save.ron");
    p.save(&file).expect("saved");
    let text = std::fs::read_to_string(&file).expect("read");
    let at = text.find("faces: [").expect("the entered faces");
    let end = at + text[at..].find(']').expect("their end");
    let edited = format!("{}faces: [9, 3, 4{}", &text[..at], &text[end..]);
    std::fs::write(&file, &edited).expect("written");
    let err = match Play::load(&file) {
        Ok(_) => panic!("a 9 on a d6 loaded"),
        Err(e) => e.render(false),
    };
    assert!(err.contains("9 is not one of its faces"), "{err}");
}

/// Plays on (the player's decisions by the AI) until a roll waits for dice; the unit.
fn to_dice(p: &mut Play) -> UnitId {
    for _ in 0..100_000 {
        match p.advance() {
            Advance::AwaitingDice(u) => return u,
            Advance::AwaitingPlayer(_) => p.decide_by_ai().expect("decides"),
            Advance::Over(o) => panic!("over before a roll: {o:?}"),
            Advance::ReplayFailed(e) => panic!("{e}"),
            Advance::Stepped | Advance::Replayed { .. } => {}
        }
    }
    panic!("no roll");
}

/// Undo of a player's decision whose dice were entered takes the decision and its dice
/// back, and the battle waits for that decision again; undo at the dice prompt of a
/// player's decision takes back only that decision (not the one before it).
#[test]
fn undo_takes_a_players_decision_back_with_its_dice() {
    let mut p = play("gurps-duel.ron", 7);
    p.set_own_dice("red", true);
    // Aldric (red, the player's) attacks at some point: his roll waits.
    loop {
        let unit = to_dice(&mut p);
        let request = p.pending_dice().cloned().expect("waits");
        if unit == UnitId(0) && request.purpose.starts_with("attack on") {
            break;
        }
        p.enter_dice(&vec![3; request.count]).expect("fits");
    }
    let before = p.recording().decisions.clone();
    let log = p.session().log_text();
    // The attack entered as 1, 1, 1: a critical hit, whose further rolls (the critical
    // hit table, the damage) wait in turn, within the same decision.
    p.enter_dice(&[1, 1, 1]).expect("fits");
    let next = p
        .pending_dice()
        .cloned()
        .expect("the critical hit rolls on");
    assert_eq!(next.unit, UnitId(0), "{next:?}");
    assert!(
        p.recording().decisions.len() > before.len(),
        "the attack's dice are recorded"
    );
    // At that prompt, undo drops the waiting decision with the dice entered for it, and
    // nothing before it.
    assert!(p.undo());
    assert_eq!(p.recording().decisions, before);
    assert_eq!(p.session().log_text(), log);
    assert_eq!(p.awaiting_player(), Some(UnitId(0)));
    assert!(p.pending_dice().is_none());
    // Decide again, enter the dice, then undo: back to the same place, the dice gone.
    p.decide_by_ai().expect("decides");
    while p.pending_dice().is_some_and(|r| r.unit == UnitId(0)) {
        let count = p.pending_dice().map_or(0, |r| r.count);
        p.enter_dice(&vec![4; count]).expect("fits");
    }
    assert!(p.recording().decisions.len() > before.len());
    assert!(p.undo());
    assert_eq!(p.recording().decisions, before);
    assert_eq!(p.session().log_text(), log);
    assert_eq!(p.awaiting_player(), Some(UnitId(0)));
}

/// A battle saved while a roll waits for its dice loads waiting for the same roll, also
/// when some of its dice are entered already (an open-ended Vergeworlds roll going on);
/// and a side switched to its own dice during the battle replays the same.
#[test]
fn a_battle_saved_at_the_dice_prompt_loads_at_it() {
    let dir = temp_dir("at-the-prompt");
    let mut goes_on = 0;
    for seed in 1..=6 {
        let mut p = play("vw-sheriffs-men.ron", seed);
        p.set_own_dice("helen", true);
        // The sheriff's men roll in the AI's steps: their rolls wait there.
        p.set_own_dice("sheriff", true);
        for n in 0..40 {
            to_dice(&mut p);
            let request = p.pending_dice().cloned().expect("waits");
            let save = dir.join(format!("s{seed}-{n}.save.ron"));
            p.save(&save).expect("saved");
            let back = Play::load(&save).unwrap_or_else(|e| panic!("{}", e.render(false)));
            match back.pending_dice() {
                Some(waiting) => {
                    assert_eq!(waiting, &request, "seed {seed}, roll {n}");
                    if !request.entered.is_empty() {
                        goes_on += 1;
                    }
                }
                // A player's decision rolled it: the save waits for that decision.
                None => assert!(back.awaiting_player().is_some(), "seed {seed}, roll {n}"),
            }
            assert_eq!(back.session().log_text(), p.session().log_text());
            // Every other roll all sixes: a natural 12 goes on.
            let faces: Vec<u32> = (0..request.count)
                .map(|_| if n % 2 == 0 { request.sides } else { 1 })
                .collect();
            p.enter_dice(&faces).expect("fits");
            if p.session().outcome().is_some() {
                break;
            }
        }
    }
    assert!(
        goes_on > 0,
        "no roll of an AI step went on: the case is not tested"
    );

    // Own dice switched on for the Black Knight in the middle of the duel: his rolls
    // before the switch were the program's, his next one waits, and so it does in the
    // save.
    let mut p = play("gurps-duel.ron", 2);
    for _ in 0..3 {
        if let Advance::AwaitingPlayer(_) = p.advance() {
            p.decide_by_ai().expect("decides");
        }
    }
    let rolled_before = p.session().log_text().contains("Black Knight: ");
    p.set_own_dice("blue", true);
    assert!(
        matches!(
            p.recording().decisions.last().and_then(|d| d.table_entry()),
            Some(TableEntry::OwnDice { on: true, .. })
        ),
        "{:?}",
        p.recording().decisions
    );
    // On to the Knight's own attack (an AI step: his defenses wait within Aldric's
    // decisions, which a save leaves out until they are made).
    loop {
        let unit = to_dice(&mut p);
        assert_eq!(unit, UnitId(1), "only the Black Knight's rolls wait");
        let request = p.pending_dice().cloned().expect("waits");
        if request.purpose.starts_with("attack on") {
            break;
        }
        p.enter_dice(&vec![4; request.count]).expect("fits");
    }
    let save = dir.join("switched.save.ron");
    p.save(&save).expect("saved");
    let back = Play::load(&save).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert!(back.own_dice("blue"));
    assert!(back.pending_dice().is_some());
    assert_eq!(back.pending_dice(), p.pending_dice());
    assert_eq!(back.session().log_text(), p.session().log_text());
    assert_eq!(back.steps(), p.steps());
    // Had the switch counted from the start, the Knight's first rolls would have waited.
    assert!(rolled_before, "the Knight acted before the switch");
    let first_knight_roll = back
        .session()
        .log_text()
        .lines()
        .find(|l| l.contains("attack on Aldric"))
        .map(str::to_string)
        .expect("the Knight attacked before the switch");
    assert!(
        !first_knight_roll.contains("entered"),
        "{first_knight_roll}"
    );
}

/// A preview "from now" (`continue_from` in a session that keeps no log, as the analysis
/// window's) replays the GM's edits as the window made them: starship-d12 and SOCS set a
/// moved ship's range bands from where the map shows the others, and Main Sequence,
/// Vergeworlds and Traveller read the hexes they draw, so the replay must find them where
/// the window drew them. The GM moves a foe next to where the map shows one of
/// the players' ships, after several decisions; the battle fought on from the recording
/// goes the same with and without a log.
#[test]
fn a_preview_from_now_replays_gm_moves_as_the_window_made_them() {
    use skirmish::play::continue_from;
    use skirmish::session::{Session, SessionOptions};
    for file in [
        "d12-three-ships.ron",
        "socs-furball.ron",
        "ms-corridor.ron",
        "traveller-regina-picket.ron",
        "vw-sheriffs-men.ron",
    ] {
        let mut p = play(file, 3);
        let mut decisions = 0;
        let mut moved = false;
        for _ in 0..100_000 {
            match p.advance() {
                Advance::AwaitingPlayer(_) => {
                    if decisions >= 6 && !moved {
                        moved = gm_moves_a_foe_next_to_a_player(&mut p);
                    }
                    if decisions >= 10 && moved {
                        break;
                    }
                    p.decide_by_ai().unwrap_or_else(|e| panic!("{e}"));
                    decisions += 1;
                }
                Advance::Stepped | Advance::Replayed { .. } => {}
                Advance::Over(_) => break,
                other => panic!("{file}: {other:?}"),
            }
        }
        assert!(
            moved,
            "{file}: the GM found no free hex next to a player's ship"
        );
        let recording = p.recording().clone();
        let steps = p.steps();
        let prepared = p.session().prepared().clone();
        let fight_on = |keep_log: bool| {
            let options = SessionOptions {
                keep_log,
                autopilot: true,
            };
            let mut s = Session::new(prepared.clone(), 1, options);
            continue_from(&mut s, &recording, steps, 77);
            let outcome = s.run();
            (outcome, s.summary())
        };
        assert_eq!(fight_on(false), fight_on(true), "{file}");
    }
}

/// Moves the first foe still fighting to a free hex next to where the map shows a
/// fighting ship of side 0; false if there is none.
fn gm_moves_a_foe_next_to_a_player(p: &mut Play) -> bool {
    let foe = first_foe(p);
    let n = p.session().roster().units.len() as u32;
    let mut taken = Vec::new();
    let mut players = Vec::new();
    for u in (0..n).map(UnitId) {
        let entity = p.session().roster().entity(u).expect("unit");
        let at = p.session().world.get::<HexPos>(entity).expect("pos").0;
        taken.push(at);
        let (side, _, fighting) = side_and_control(p, u);
        if side == 0 && fighting {
            players.push(at);
        }
    }
    for at in players {
        for next in at.all_neighbors() {
            if taken.contains(&next) {
                continue;
            }
            let place = GmChange::Place {
                at: (next.x, next.y),
                facing: 0,
            };
            if p.gm_edit(foe, place, "closes in").is_ok() {
                return true;
            }
        }
    }
    false
}

//! Interactive battles that record their decisions (`skirmish::play`): deciding by hand,
//! refusals, undo, save and load, replay at the battle's pace, and save files that are
//! wrong in every way a hand edit can make them.

use hexx::Hex;
use skirmish::battle::{HexPos, OutcomeKind, Side, Standing, UnitId};
use skirmish::play::{Advance, Decision, Play, Recording, continue_from};
use skirmish::rules::gurps::{Action, Gurps, Maneuver};
use skirmish::session::{Session, SessionOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name)
}

/// A new battle of a shipped scenario.
fn play(name: &str, seed: u64) -> Play {
    let path = shipped(name);
    let prepared = skirmish::rules::builtin()
        .load(&path)
        .unwrap_or_else(|e| panic!("{e}"));
    Play::new(Arc::new(prepared), path, seed)
}

/// A fresh directory under the system's temporary directory, unique to this test.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skirmish-play-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// Lets the AI play until a player unit is to act; `None` once the battle is over.
fn to_player(play: &mut Play) -> Option<UnitId> {
    for _ in 0..100_000 {
        match play.advance() {
            Advance::AwaitingPlayer(unit) => return Some(unit),
            Advance::Over(_) => return None,
            Advance::Stepped => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    panic!("the battle does not move on");
}

/// Saves the battle (in a temporary directory named for `test`), loads it back standing
/// where the battle stands at the player's next turn, and lets the AI finish it.
fn saves_loads_and_finishes(mut p: Play, test: &str) {
    let save = temp_dir(test).join("battle.save.ron");
    p.save(&save).expect("saved");
    to_player(&mut p);
    let log = p.session().log_text();
    let mut back = Play::load(&save).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(back.session().log_text(), log);
    back.finish_by_ai();
    assert!(back.session().outcome().is_some());
}

/// Where each unit still fighting stands, with its side.
fn fighters(play: &mut Play) -> Vec<(UnitId, u8, Hex)> {
    let world = &mut play.session_mut().world;
    let mut q = world.query::<(&UnitId, &Side, &HexPos, &Standing)>();
    let mut v: Vec<(UnitId, u8, Hex)> = q
        .iter(world)
        .filter(|(_, _, _, s)| s.fighting())
        .map(|(id, side, pos, _)| (*id, side.0, pos.0))
        .collect();
    v.sort_by_key(|(id, _, _)| *id);
    v
}

/// A simple-minded player for `unit`: attack the nearest foe if the rules allow it, else
/// walk as far towards it as they allow, else do nothing. Returns the refusals met on the
/// way, in order.
fn decide_simply(play: &mut Play, unit: UnitId) -> Vec<String> {
    let units = fighters(play);
    let &(_, side, at) = units.iter().find(|u| u.0 == unit).expect("awaited unit");
    let foe = units
        .iter()
        .filter(|u| u.1 != side)
        .min_by_key(|u| (at.unsigned_distance_to(u.2), u.0))
        .copied()
        .expect("a foe is left");
    let mut candidates = vec![Action {
        target: Some(foe.0),
        weapon: Some(0),
        ..Action::simple(Maneuver::Attack)
    }];
    let line: Vec<Hex> = at.line_to(foe.2).collect();
    for &to in line.iter().take(line.len().saturating_sub(1)).skip(1).rev() {
        candidates.push(Action {
            to: Some(to),
            ..Action::simple(Maneuver::Move)
        });
    }
    candidates.push(Action::simple(Maneuver::DoNothing));
    let mut refusals = Vec::new();
    for action in candidates {
        let before = play.recording().decisions.len();
        match play.decide::<Gurps>(action.clone()) {
            Ok(()) => {
                let last = play.recording().decisions.last().cloned();
                assert_eq!(play.recording().decisions.len(), before + 1);
                assert_eq!(last, Some(Decision::new::<Gurps>(unit, action)));
                return refusals;
            }
            Err(reason) => {
                assert_eq!(play.recording().decisions.len(), before, "{reason}");
                assert_eq!(play.awaiting_player(), Some(unit), "{reason}");
                refusals.push(reason);
            }
        }
    }
    panic!("{} refused even Do Nothing: {refusals:?}", unit.0);
}

/// Plays `turns` player turns with [`decide_simply`] (fewer if the battle ends); returns
/// how many were played and every refusal met.
fn play_turns(play: &mut Play, turns: usize) -> (usize, Vec<String>) {
    let mut refusals = Vec::new();
    for n in 0..turns {
        let Some(unit) = to_player(play) else {
            return (n, refusals);
        };
        refusals.extend(decide_simply(play, unit));
    }
    to_player(play);
    (turns, refusals)
}

/// Deciding by hand records each accepted decision (and only those); the log never shows
/// the refusals; save then load gives the same log, the same awaited unit and the same
/// recording.
#[test]
fn decisions_are_recorded_and_a_saved_battle_loads_where_it_was() {
    let mut live = play("gurps-duel.ron", 7);
    let (turns, refusals) = play_turns(&mut live, 4);
    assert_eq!(turns, 4);
    assert_eq!(live.recording().decisions.len(), 4);
    assert!(
        !refusals.is_empty(),
        "the first attack from across the ford is refused"
    );
    let log = live.session().log_text();
    assert!(!log.contains("command refused"), "{log}");
    let awaited = live.awaiting_player();
    assert_eq!(awaited, Some(UnitId(0)));

    let dir = temp_dir("save-load");
    let file = dir.join("duel-save.ron");
    live.save(&file).expect("saved");
    let loaded = Play::load(&file).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert_eq!(loaded.session().log_text(), log);
    assert_eq!(loaded.awaiting_player(), awaited);
    assert_eq!(loaded.recording(), live.recording());
    assert_eq!(loaded.replay_remaining(), 0);

    // The loaded battle goes on exactly as the live one does.
    let mut live = live;
    let mut loaded = loaded;
    play_turns(&mut live, 3);
    play_turns(&mut loaded, 3);
    assert_eq!(loaded.session().log_text(), live.session().log_text());
    let _ = std::fs::remove_dir_all(dir);
}

/// Undo restores exactly the log before the last decision, again and again, and then
/// there is nothing left to undo.
#[test]
fn undo_restores_the_log_before_each_decision() {
    let mut p = play("gurps-duel.ron", 11);
    let mut before = Vec::new();
    for _ in 0..5 {
        let Some(unit) = to_player(&mut p) else { break };
        before.push((p.session().log_text(), unit));
        decide_simply(&mut p, unit);
    }
    assert!(before.len() >= 3, "too short a battle for the test");
    to_player(&mut p);
    let after = p.session().log_text();
    while let Some((log, unit)) = before.pop() {
        assert!(p.undo());
        assert_eq!(p.session().log_text(), log);
        assert_eq!(p.awaiting_player(), Some(unit));
        assert_eq!(p.recording().decisions.len(), before.len());
    }
    assert!(!p.undo(), "nothing left to undo");
    assert!(p.recording().decisions.is_empty());

    // Deciding the same again gives the same battle.
    play_turns(&mut p, 5);
    assert_eq!(p.session().log_text(), after);
}

/// An illegal decision is refused with the ruleset's reason and not recorded; a decision
/// when no player unit is to act is refused too.
#[test]
fn a_refused_decision_is_reported_and_not_recorded() {
    let mut p = play("gurps-duel.ron", 7);
    assert_eq!(p.awaiting_player(), None, "before the first turn");
    let early = p.decide::<Gurps>(Action::simple(Maneuver::DoNothing));
    assert!(early.is_err_and(|e| e.contains("no player")));

    let unit = to_player(&mut p).expect("Aldric's turn");
    let log = p.session().log_text();
    let refused = p.decide::<Gurps>(Action {
        target: Some(UnitId(1)),
        weapon: Some(0),
        ..Action::simple(Maneuver::Attack)
    });
    let reason = refused.expect_err("Black Knight is six hexes away");
    assert!(reason.contains("hexes away"), "{reason}");
    assert!(p.recording().decisions.is_empty());
    assert_eq!(p.awaiting_player(), Some(unit));
    assert_eq!(
        p.session().log_text(),
        log,
        "a refusal leaves the log alone"
    );
    assert!(!p.undo(), "a refusal is nothing to undo");

    p.decide::<Gurps>(Action::simple(Maneuver::DoNothing))
        .expect("Do Nothing is allowed");
    assert_eq!(p.recording().decisions.len(), 1);
}

/// The AI deciding for the player is recorded like the player's own decisions, and a
/// battle of such decisions is the battle the AI fights headless with the same seed.
#[test]
fn decisions_by_the_ai_are_recorded_and_replay_the_headless_battle() {
    let path = shipped("gurps-skirmish-3v3.ron");
    let prepared = Arc::new(
        skirmish::rules::builtin()
            .load(&path)
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let mut headless = Session::new(prepared.clone(), 5, SessionOptions::default());
    let outcome = headless.run();

    let mut p = Play::new(prepared.clone(), path.clone(), 5);
    while to_player(&mut p).is_some() {
        p.decide_by_ai().expect("the AI decides within the rules");
    }
    assert_eq!(p.session().outcome(), outcome);
    assert_eq!(p.session().log_text(), headless.log_text());
    assert!(p.recording().decisions.len() > 3);

    let mut again = Play::replaying(prepared, p.recording().clone());
    again.replay_all().expect("replays");
    assert_eq!(again.session().log_text(), headless.log_text());
}

/// A replay plays the recorded decisions one at a time, each when the battle reaches
/// that player's turn, and ends where the battle was.
#[test]
fn replay_feeds_one_decision_per_player_turn() {
    let mut p = play("gurps-duel.ron", 3);
    play_turns(&mut p, 4);
    let log = p.session().log_text();
    let decisions = p.recording().decisions.clone();

    p.replay_from_start();
    assert_eq!(p.replay_remaining(), decisions.len());
    assert!(p.recording().decisions.is_empty());
    assert!(!p.session().log_text().contains("Round 1"));
    let mut replayed = Vec::new();
    for _ in 0..100_000 {
        match p.advance() {
            Advance::Stepped => {}
            Advance::Replayed { index, unit } => {
                assert_eq!(index, replayed.len());
                assert_eq!(unit, decisions[index].unit());
                replayed.push(index);
                assert_eq!(p.replay_remaining(), decisions.len() - replayed.len());
            }
            Advance::AwaitingPlayer(_) | Advance::Over(_) => break,
            Advance::AwaitingDice(u) => panic!("no side rolls by hand, yet {u:?} waits"),
            Advance::ReplayFailed(e) => panic!("{e}"),
        }
    }
    assert_eq!(replayed.len(), decisions.len());
    assert_eq!(p.session().log_text(), log);
    assert_eq!(p.recording().decisions, decisions);
}

/// A recorded decision the battle cannot take is reported with its index, unit and the
/// reason, and the replay stops there with the player to decide.
#[test]
fn a_decision_that_does_not_fit_stops_the_replay() {
    let path = shipped("gurps-duel.ron");
    let prepared = Arc::new(
        skirmish::rules::builtin()
            .load(&path)
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let mut recording = Recording::new(path, 7);
    let order = |unit: u32, action: Action| Decision::new::<Gurps>(UnitId(unit), action);
    recording
        .decisions
        .push(order(0, Action::simple(Maneuver::DoNothing)));
    recording
        .decisions
        .push(order(1, Action::simple(Maneuver::DoNothing)));
    recording
        .decisions
        .push(order(0, Action::simple(Maneuver::DoNothing)));
    let mut p = Play::replaying(prepared.clone(), recording.clone());
    let e = p.replay_all().expect_err("the Black Knight is the AI's");
    assert_eq!(
        (e.index, e.unit, e.name.as_str()),
        (1, UnitId(1), "Black Knight")
    );
    assert!(e.reason.contains("Aldric's turn"), "{e}");
    assert_eq!(p.replay_remaining(), 0);
    assert_eq!(p.recording().decisions.len(), 1);
    assert_eq!(p.awaiting_player(), Some(UnitId(0)));

    recording.decisions[1] = order(
        0,
        Action {
            target: Some(UnitId(1)),
            weapon: Some(0),
            ..Action::simple(Maneuver::Attack)
        },
    );
    let mut p = Play::replaying(prepared.clone(), recording.clone());
    let e = p.replay_all().expect_err("out of reach");
    assert_eq!((e.index, e.unit), (1, UnitId(0)));
    assert!(e.reason.contains("hexes away"), "{e}");

    // Aldric doing nothing loses long before a thousand turns.
    recording.decisions = vec![order(0, Action::simple(Maneuver::DoNothing)); 1000];
    let mut p = Play::replaying(prepared, recording);
    let e = p.replay_all().expect_err("too many decisions");
    assert!(e.reason.contains("already over"), "{e}");
    assert!(e.index > 1 && e.index < 1000, "{e}");
    assert_eq!(p.recording().decisions.len(), e.index);
    assert!(p.session().outcome().is_some());
}

/// Restart gives a fresh battle with a new seed and nothing recorded; the AI can finish a
/// battle for the player.
#[test]
fn restart_and_finish() {
    let mut p = play("gurps-duel.ron", 7);
    play_turns(&mut p, 2);
    p.restart(8);
    assert!(p.recording().decisions.is_empty());
    assert_eq!(p.recording().seed, 8);
    assert_eq!(p.session().seed(), 8);
    assert!(p.session().log().entries.is_empty());
    let outcome = p.finish_by_ai();
    assert!(matches!(
        outcome,
        Some(OutcomeKind::Victory { .. } | OutcomeKind::Draw { .. })
    ));
    assert_eq!(p.advance(), Advance::Over(outcome.expect("over")));
    assert!(
        p.decide::<Gurps>(Action::simple(Maneuver::DoNothing))
            .is_err()
    );
    assert!(p.recording().decisions.is_empty());
}

/// A save naming its scenario relative to itself loads from any working directory.
#[test]
fn the_scenario_is_found_beside_the_save() {
    let dir = temp_dir("beside");
    std::fs::copy(shipped("gurps-duel.ron"), dir.join("my-duel.ron")).expect("copied");
    let prepared = skirmish::rules::builtin()
        .load(&dir.join("my-duel.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut p = Play::new(Arc::new(prepared), PathBuf::from("my-duel.ron"), 9);
    play_turns(&mut p, 2);
    let file = dir.join("save.ron");
    p.save(&file).expect("saved");
    let text = std::fs::read_to_string(&file).expect("readable");
    assert!(text.contains("scenario: \"my-duel.ron\""), "{text}");
    let loaded = Play::load(&file).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert_eq!(loaded.session().log_text(), p.session().log_text());
    let _ = std::fs::remove_dir_all(dir);
}

/// A loaded save written again elsewhere names its scenario from its new folder, so it
/// loads from there too (the window's Save after `--load`); written beside the first, it
/// keeps the name the first one had.
#[test]
fn a_save_written_elsewhere_still_finds_its_scenario() {
    let dir = temp_dir("elsewhere");
    let (a, b) = (dir.join("a"), dir.join("deep/b"));
    std::fs::create_dir_all(&a).expect("a");
    std::fs::create_dir_all(&b).expect("b");
    std::fs::copy(shipped("gurps-duel.ron"), a.join("my-duel.ron")).expect("copied");
    let prepared = skirmish::rules::builtin()
        .load(&a.join("my-duel.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut p = Play::new(Arc::new(prepared), PathBuf::from("my-duel.ron"), 9);
    play_turns(&mut p, 2);
    p.save(&a.join("first.save.ron")).expect("saved");
    let loaded =
        Play::load(&a.join("first.save.ron")).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert_eq!(
        loaded.loaded_from(),
        Some(a.join("first.save.ron").as_path())
    );
    // Recorded as named beside the save; found from the working directory through it.
    assert_eq!(loaded.scenario_path(), Path::new("my-duel.ron"));
    assert_eq!(loaded.scenario_file(), a.join("my-duel.ron"));
    loaded.save(&b.join("second.save.ron")).expect("saved");
    let text = std::fs::read_to_string(b.join("second.save.ron")).expect("readable");
    assert!(text.contains("scenario: \"../../a/my-duel.ron\""), "{text}");
    let again =
        Play::load(&b.join("second.save.ron")).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert_eq!(again.session().log_text(), p.session().log_text());
    loaded.save(&a.join("third.save.ron")).expect("saved");
    let text = std::fs::read_to_string(a.join("third.save.ron")).expect("readable");
    assert!(text.contains("scenario: \"my-duel.ron\""), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Bad save files are reported with file, line and column, never a panic: bad RON, an
/// unknown field, a missing scenario, a bad scenario, and decisions that do not fit.
#[test]
fn bad_save_files_give_located_errors() {
    let dir = temp_dir("bad");
    let duel = shipped("gurps-duel.ron").display().to_string();
    let bad_scenario = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/malformed/unknown-field.ron")
        .display()
        .to_string();
    let cases = [
        (
            "syntax",
            format!("(\n  scenario: {duel:?},\n  seed: 7\n  decisions: [],\n)"),
            "4:3:",
            "Expected comma",
        ),
        (
            "field",
            format!("(\n  scenario: {duel:?},\n  seed: 7,\n  sede: 8,\n)"),
            "4:3:",
            "sede",
        ),
        (
            "missing",
            "(\n  scenario: \"no-such.ron\",\n  seed: 7,\n)".to_string(),
            "2:13:",
            "no-such.ron` not found",
        ),
        (
            "scenario",
            format!("(\n  scenario: {bad_scenario:?},\n  seed: 7,\n)"),
            "2:13:",
            "has 1 problem",
        ),
        (
            "unit",
            format!(
                "(\n  scenario: {duel:?},\n  seed: 7,\n  decisions: [\n    Gurps(unit: (1), action: (maneuver: DoNothing)),\n  ],\n)"
            ),
            "5:5:",
            "decisions[0]: the decision for Black Knight (unit 1) cannot be played: it is Aldric's turn, not Black Knight's",
        ),
        (
            "no-unit",
            format!(
                "(\n  scenario: {duel:?},\n  seed: 7,\n  decisions: [\n    Gurps(unit: (0), action: (maneuver: DoNothing)),\n    Gurps(unit: (9), action: (maneuver: DoNothing)),\n  ],\n)"
            ),
            "6:5:",
            "the decision for unit 9 cannot be played: there is no unit 9",
        ),
        ("empty", String::new(), "1:1:", ""),
    ];
    for (name, text, at, says) in cases {
        let file = dir.join(format!("{name}.ron"));
        std::fs::write(&file, &text).expect("written");
        let e = match Play::load(&file) {
            Ok(_) => panic!("{name}: loaded"),
            Err(e) => e,
        };
        let shown = e.render(false);
        let wanted = format!("{}:{at}", file.display());
        assert!(
            shown.contains(&wanted),
            "{name}: expected `{wanted}` in\n{shown}"
        );
        assert!(
            shown.contains(says),
            "{name}: expected `{says}` in\n{shown}"
        );
    }
    let e = Play::load(&dir.join("absent.ron")).err().expect("no file");
    assert!(e.to_string().contains("cannot read the file"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The example in docs/save-format.md loads and plays all its decisions.
#[test]
fn the_documented_example_loads() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/save-format.md"))
            .expect("docs/save-format.md");
    let example = doc
        .split("```ron\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a RON example");
    let dir = temp_dir("doc");
    let file = dir.join("example.ron");
    std::fs::write(&file, example).expect("written");
    let p = Play::load(&file).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert_eq!(p.recording().decisions.len(), 3);
    assert!(p.session().log_text().contains("skull -7"));
    let _ = std::fs::remove_dir_all(dir);
}

/// `continue_from` puts a bare session (no log needed) where a recorded battle stands and
/// lets the AI fight it on with the dice it is given.
#[test]
fn continue_from_resumes_a_recorded_battle_with_new_dice() {
    let mut p = play("gurps-duel.ron", 5);
    play_turns(&mut p, 3);
    let recording = p.recording().clone();
    let steps = p.steps();
    let live = p.session().log_text();
    let prepared = p.session().prepared().clone();

    let logged = SessionOptions {
        keep_log: true,
        autopilot: true,
    };
    let mut s = Session::new(prepared.clone(), 99, logged);
    continue_from(&mut s, &recording, steps, 1234);
    let resumed = s.log_text();
    // Where the live battle stands: its decisions and the AI's steps after the last.
    assert_eq!(resumed, live);
    assert_eq!(
        resumed.matches("  Aldric: ").count(),
        3,
        "the three recorded decisions, no more: {resumed}"
    );
    let outcome = s.run();
    assert!(outcome.is_some());
    assert!(s.log_text().starts_with(&resumed));

    // As a preview runs it: no log, reused sessions, the same dice give the same battle.
    let quiet = SessionOptions::PREVIEW;
    let mut a = Session::new(prepared.clone(), 1, quiet);
    let mut b = Session::new(prepared, 2, quiet);
    b.run();
    continue_from(&mut a, &recording, steps, 1234);
    continue_from(&mut b, &recording, steps, 1234);
    assert_eq!(a.summary().rounds, b.summary().rounds);
    assert_eq!(a.run(), outcome);
    assert_eq!(b.run(), outcome);
    assert_eq!(a.summary(), b.summary());
}

/// `continue_from` stands where the live battle stood after its steps (`until`), the AI's
/// steps after the last decision included, and not one step further.
#[test]
fn continue_from_stops_where_the_live_battle_stood() {
    let mut p = play("gurps-duel.ron", 5);
    let unit = to_player(&mut p).expect("Aldric's turn");
    decide_simply(&mut p, unit);
    let at_decision = (p.steps(), p.session().log_text());
    // The Black Knight's turn, one AI step after the last decision.
    assert!(matches!(p.advance(), Advance::Stepped));
    let (steps, live) = (p.steps(), p.session().log_text());
    assert!(live.len() > at_decision.1.len());
    let recording = p.recording().clone();
    let prepared = p.session().prepared().clone();
    let resumed = |until: u64| {
        let logged = SessionOptions {
            keep_log: true,
            autopilot: true,
        };
        let mut s = Session::new(prepared.clone(), 99, logged);
        continue_from(&mut s, &recording, until, 1234);
        s.log_text()
    };
    assert_eq!(resumed(steps), live);
    assert_eq!(resumed(at_decision.0), at_decision.1);
}

/// `load_for_replay` checks the whole file, then starts the battle over to play it back.
#[test]
fn load_for_replay_starts_over() {
    let mut p = play("gurps-duel.ron", 4);
    play_turns(&mut p, 3);
    let dir = temp_dir("for-replay");
    let file = dir.join("save.ron");
    p.save(&file).expect("saved");
    let mut r = Play::load_for_replay(&file).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert_eq!(r.scenario_path(), p.scenario_path());
    assert_eq!(r.replay_remaining(), 3);
    assert!(r.session().log().entries.is_empty());
    r.replay_all().expect("replays");
    assert_eq!(r.session().log_text(), p.session().log_text());
    let _ = std::fs::remove_dir_all(dir);
}

/// A starship-d12 battle played by hand: the player's ship decides its range move and its
/// shots from the legal list, an illegal shot is refused and not recorded, the decisions
/// save, load back to the same battle, undo, and the battle finishes.
#[test]
fn a_ship_battle_is_played_saved_loaded_and_finished() {
    use skirmish::rules::starship_d12::{Action as ShipAction, Fleet};
    let mut p = play("d12-duel.ron", 3);
    let vigilant = UnitId(0);
    let mut decided = 0;
    while decided < 6 {
        let Some(unit) = to_player(&mut p) else { break };
        assert_eq!(unit, vigilant);
        let world = &p.session().world;
        let legal = world.resource::<Fleet>().legal_actions(world, unit);
        assert!(!legal.is_empty());
        if decided == 1
            && let Some(ShipAction::Fire { weapon, target, .. }) = legal
                .iter()
                .find(|a| matches!(a, ShipAction::Fire { .. }))
                .cloned()
        {
            // Crewman 9 does not exist: refused, nothing recorded.
            let bad = ShipAction::Fire {
                weapon,
                target,
                gunner: 9,
                helpers: vec![],
            };
            assert!(
                p.decide::<skirmish::rules::starship_d12::StarshipD12>(bad)
                    .is_err()
            );
        }
        // The last legal option: a range move, or a shot.
        let action = legal.last().cloned().expect("an option");
        p.decide::<skirmish::rules::starship_d12::StarshipD12>(action)
            .expect("a legal action is taken");
        decided += 1;
    }
    assert_eq!(p.recording().decisions.len(), decided);
    assert!(
        p.recording()
            .decisions
            .iter()
            .all(|d| d.ruleset().map(|r| r.id()) == Some("starship-d12"))
    );
    let dir = temp_dir("ships");
    let save = dir.join("duel.save.ron");
    p.save(&save).expect("saved");
    // A loaded battle stands at the player's next turn after the last decision.
    to_player(&mut p);
    let log = p.session().log_text();
    let mut back = Play::load(&save).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        back.session().log_text(),
        log,
        "the loaded battle stands where it was"
    );
    assert!(back.undo());
    assert_eq!(back.recording().decisions.len(), decided - 1);
    back.finish_by_ai();
    assert!(back.session().outcome().is_some());
}

/// A SOCS battle played by hand: each craft's fire orders and maneuvers come from the
/// legal list, a shot the rules refuse is not recorded, and the battle saves, loads back
/// where it stood and finishes.
#[test]
fn a_socs_battle_is_played_saved_and_loaded() {
    use skirmish::rules::socs::{Action as CraftAction, Dogfight};
    let mut p = play("socs-dogfight.ron", 5);
    let mut decided = 0;
    while decided < 8 {
        let Some(unit) = to_player(&mut p) else { break };
        let world = &p.session().world;
        let legal = world.resource::<Dogfight>().legal_actions(world, unit);
        if decided == 0 {
            // Gun 7 does not exist.
            let bad = CraftAction::Fire {
                shots: vec![skirmish::rules::socs::Shot {
                    weapon: 7,
                    target: UnitId(2),
                    aim: None,
                }],
                gm_modifier: 0,
            };
            assert!(p.decide::<skirmish::rules::socs::Socs>(bad).is_err());
        }
        let action = legal.last().cloned().expect("an option");
        p.decide::<skirmish::rules::socs::Socs>(action)
            .expect("a legal action is taken");
        decided += 1;
    }
    assert_eq!(p.recording().decisions.len(), decided);
    assert!(
        p.recording()
            .decisions
            .iter()
            .all(|d| d.ruleset().map(|r| r.id()) == Some("socs"))
    );
    saves_loads_and_finishes(p, "socs");
}

/// A GURPS Traveller space battle played by hand (issue 8): the player's ship maneuvers to
/// an end position within its thrust, fires and launches through `decide`; a burn
/// beyond its thrust is refused and not recorded; the battle saves, loads back where it
/// stood and finishes.
#[test]
fn a_traveller_battle_is_played_saved_and_loaded() {
    use skirmish::rules::traveller_space::{Action as SpaceAction, Space, Vessels, ai};
    let mut p = play("traveller-merchant-raider.ron", 3);
    let mut decided = 0;
    let mut phases = Vec::new();
    while decided < 10 {
        let Some(unit) = to_player(&mut p) else { break };
        let (far, action) = {
            let world = &p.session().world;
            let s = world.resource::<Space>();
            phases.push(s.phase);
            let st = Vessels::ship(world, unit);
            // Twenty hexes of burn with one point of thrust.
            let far = SpaceAction::Maneuver {
                to: (st.pos.x + st.vel.x + 20, st.pos.y + st.vel.y),
                passive: false,
                ram: None,
            };
            (far, ai::choose(s, world, unit))
        };
        if decided == 0 {
            let err = p
                .decide::<skirmish::rules::traveller_space::TravellerSpace>(far)
                .expect_err("beyond its thrust");
            assert!(err.contains("beyond its thrust"), "{err}");
        }
        p.decide::<skirmish::rules::traveller_space::TravellerSpace>(action)
            .expect("the AI's choice is legal");
        decided += 1;
    }
    assert!(decided >= 3, "the Beowulf decided {decided} times");
    assert!(phases.contains(&skirmish::rules::traveller_space::space::Phase::Maneuver));
    assert_eq!(p.recording().decisions.len(), decided);
    assert!(
        p.recording()
            .decisions
            .iter()
            .all(|d| d.ruleset().map(|r| r.id()) == Some("traveller-space"))
    );
    saves_loads_and_finishes(p, "traveller");
}

/// A Vergeworlds battle played by hand (issue 7): the player chooses each turn's attitude,
/// walks, attacks the nearest foe and answers the battle's questions (how to defend, Mana)
/// through `decide`; an attitude chosen after moving is refused and not recorded;
/// the battle saves, loads back where it stood and finishes.
#[test]
fn a_vergeworlds_battle_is_played_saved_and_loaded() {
    use skirmish::rules::vergeworlds::combat::{Attitude, Location};
    use skirmish::rules::vergeworlds::fight::{Attack, DefenseKind, ManaChoice, Prompt};
    use skirmish::rules::vergeworlds::{Action as VwAction, Board, Fight, ai};
    let mut p = play("vw-sheriffs-men.ron", 5);
    let (mut decided, mut attacks, mut defenses, mut refused) = (0, 0, 0, 0);
    while decided < 40 {
        let Some(me) = to_player(&mut p) else { break };
        let (action, try_late) = {
            let world = &p.session().world;
            let f = Board {
                fight: world.resource::<Fight>(),
                units: world,
            };
            match f.prompt {
                Some(Prompt::Defend(_)) => {
                    defenses += 1;
                    (VwAction::Defense(DefenseKind::Normal), false)
                }
                Some(_) => (VwAction::Mana(ManaChoice::Keep), false),
                None => {
                    let s = f.state(me);
                    let foe = f
                        .enemies(me)
                        .into_iter()
                        .min_by(|&a, &b| f.distance(me, a).total_cmp(&f.distance(me, b)));
                    let attack = foe.map(|t| {
                        VwAction::Attack(Attack {
                            weapon: Some(0),
                            target: t,
                            aim: Location::Chest,
                            careful: false,
                            shots: 1,
                            effort: 0,
                        })
                    });
                    if !s.attitude_chosen && s.actions == 0 && s.moved == 0 {
                        (VwAction::Attitude(Attitude::Committed), false)
                    } else if let Some(a) = attack.filter(|a| f.check(me, a).is_ok()) {
                        attacks += 1;
                        (a, false)
                    } else {
                        (ai::choose(&f, me), s.moved > 0)
                    }
                }
            }
        };
        if try_late {
            let late = VwAction::Attitude(Attitude::Cautious);
            let err = p
                .decide::<skirmish::rules::vergeworlds::Vergeworlds>(late)
                .expect_err("too late");
            assert!(err.contains("start of the turn"), "{err}");
            refused += 1;
        }
        p.decide::<skirmish::rules::vergeworlds::Vergeworlds>(action.clone())
            .unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
        decided += 1;
    }
    assert!(decided >= 10, "decided {decided} times");
    assert!(
        attacks > 0 && defenses > 0,
        "{attacks} attacks, {defenses} defenses"
    );
    assert_eq!(
        p.recording().decisions.len(),
        decided,
        "{refused} refusals recorded"
    );
    assert!(
        p.recording()
            .decisions
            .iter()
            .all(|d| d.ruleset().map(|r| r.id()) == Some("vergeworlds"))
    );
    let log = p.session().log_text();
    assert!(log.contains("Committed attitude"), "{log}");
    saves_loads_and_finishes(p, "vergeworlds");
}

/// Main Sequence (issue 26 item 12): a player may decline every question the battle asks —
/// no defense, no re-roll, no +2 from Edge, no Edge against a killing hit — and each
/// answer is taken up and recorded like any decision (in `ms-ship-chase.ron` the first is
/// the sensor sweep's +2).
#[test]
fn a_main_sequence_player_may_decline_every_question() {
    use skirmish::rules::main_sequence::fight::Prompt;
    use skirmish::rules::main_sequence::{Action as MsAction, Board, Fight, MainSequence, ai};
    for scenario in ["ms-ship-chase.ron", "ms-corridor.ron"] {
        let mut p = play(scenario, 3);
        let (mut decided, mut declined) = (0, 0);
        while decided < 60 {
            let Some(me) = to_player(&mut p) else { break };
            let action = {
                let world = &p.session().world;
                let f = Board {
                    fight: world.resource::<Fight>(),
                    units: world,
                };
                let decline = match f.prompt {
                    Some(Prompt::Defend(_)) => Some(MsAction::Defend(None)),
                    Some(Prompt::Reroll | Prompt::RerollDefense(_) | Prompt::RerollCheck) => {
                        Some(MsAction::Reroll(None))
                    }
                    Some(Prompt::Kill(_)) => Some(MsAction::SpendEdge(false)),
                    Some(Prompt::Boost) => Some(MsAction::PlusTwo(false)),
                    None => None,
                };
                declined += usize::from(decline.is_some());
                decline.unwrap_or_else(|| ai::choose(&f, world.resource(), me))
            };
            p.decide::<MainSequence>(action.clone())
                .unwrap_or_else(|e| panic!("{scenario}: {action:?} refused: {e}"));
            decided += 1;
        }
        assert!(declined > 0, "{scenario}: no question was asked");
        assert_eq!(p.recording().decisions.len(), decided, "{scenario}");
    }
}

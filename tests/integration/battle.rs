//! Battle-level tests: the step schedule on a bare world, player commands and their
//! checks, determinism across fresh and reused worlds, and the AI staying within the rules
//! over many seeded battles of every shipped scenario.

use skirmish::battle::{BattleEvent, BattleStats, Command, Standing, TurnState, UnitId};
use skirmish::rules::gurps::{Action, Maneuver};
use skirmish::scenario::Prepared;
use skirmish::session::{Session, SessionOptions};
use std::sync::Arc;

const DUEL: &str = r#"(
    name: "Test duel",
    ruleset: Gurps(),
    map: ( shape: Hexagon(radius: 5) ),
    sides: [ (id: "red", control: Player), (id: "blue", control: Ai(Cautious)) ],
    units: [
        (name: "Quick", side: "red", at: (-2, 0),
         stats: Gurps(st: 10, dx: 14, iq: 10, ht: 12, skills: { "Shortsword": 14 }, weapons: ["shortsword"])),
        (name: "Slow", side: "blue", at: (2, 0),
         stats: Gurps(st: 13, dx: 10, iq: 10, ht: 10, skills: { "Axe/Mace": 12 }, weapons: ["axe"])),
    ],
)"#;

fn duel() -> Arc<Prepared> {
    Arc::new(
        skirmish::rules::builtin()
            .parse("duel.ron", DUEL)
            .expect("test scenario is valid"),
    )
}

fn events(session: &Session) -> Vec<BattleEvent> {
    session
        .log()
        .entries
        .iter()
        .map(|e| e.event.clone())
        .collect()
}

fn shipped() -> Vec<Arc<Prepared>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("scenarios/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            Arc::new(
                skirmish::rules::builtin()
                    .load(f)
                    .unwrap_or_else(|e| panic!("{e}")),
            )
        })
        .collect()
}

/// The first step starts round 1 and the fastest fighter's turn (Basic Speed 6.5 before
/// 5), and the AI's command is resolved in the same step.
#[test]
fn first_step_starts_the_fastest_fighters_turn() {
    let mut s = Session::new(duel(), 1, SessionOptions::default());
    s.step();
    let ev = events(&s);
    assert!(
        matches!(&ev[0], BattleEvent::Note { text, .. } if text.starts_with("Initiative by Basic Speed: Quick (6.5), Slow (5)"))
    );
    assert_eq!(ev[1], BattleEvent::RoundStarted { round: 1 });
    assert_eq!(ev[2], BattleEvent::TurnStarted { unit: UnitId(0) });
    assert!(matches!(
        &ev[3],
        BattleEvent::ActionChosen {
            unit: UnitId(0),
            ..
        }
    ));
    let turn = s.world.resource::<TurnState>();
    assert_eq!(turn.round, 1);
    assert_eq!(turn.awaiting, None);
    assert_eq!(turn.order, vec![UnitId(0), UnitId(1)]);
}

/// Without autopilot a player's turn waits for a command; an illegal one is refused and
/// the turn still waits; a legal one is resolved.
#[test]
fn player_commands_are_checked() {
    let options = SessionOptions {
        keep_log: true,
        autopilot: false,
    };
    let mut s = Session::new(duel(), 1, options);
    s.step();
    s.step();
    assert_eq!(s.world.resource::<TurnState>().awaiting, Some(UnitId(0)));
    assert!(
        !events(&s)
            .iter()
            .any(|e| matches!(e, BattleEvent::ActionChosen { .. }))
    );

    // Attack from four hexes away: refused.
    s.world.write_message(Command {
        unit: UnitId(0),
        action: Action {
            maneuver: Maneuver::Attack,
            to: None,
            target: Some(UnitId(1)),
            weapon: Some(0),
            ..Action::simple(Maneuver::DoNothing)
        },
    });
    s.step();
    let ev = events(&s);
    assert!(
        matches!(ev.last(), Some(BattleEvent::Rejected { unit: UnitId(0), reason }) if reason.contains("4 hexes away")),
        "{ev:#?}"
    );
    assert_eq!(s.world.resource::<TurnState>().awaiting, Some(UnitId(0)));

    // Move three hexes: done, and the AI's turn follows.
    s.world.write_message(Command {
        unit: UnitId(0),
        action: Action {
            maneuver: Maneuver::Move,
            to: Some(hexx::Hex::new(1, 0)),
            target: None,
            weapon: None,
            ..Action::simple(Maneuver::DoNothing)
        },
    });
    s.step();
    let ev = events(&s);
    assert!(ev.iter().any(|e| matches!(
        e,
        BattleEvent::Moved {
            unit: UnitId(0),
            cost: 3,
            ..
        }
    )));
    s.step();
    let ev = events(&s);
    assert!(ev.iter().any(|e| matches!(
        e,
        BattleEvent::ActionChosen {
            unit: UnitId(1),
            ..
        }
    )));
}

/// A reused world gives exactly the battle a fresh one gives for the same seed.
#[test]
fn reset_reproduces_a_fresh_battle() {
    let prepared = duel();
    let mut fresh = Session::new(prepared.clone(), 77, SessionOptions::default());
    fresh.run();
    let mut reused = Session::new(prepared, 3, SessionOptions::default());
    reused.run();
    reused.reset(77);
    reused.run();
    assert_eq!(fresh.log_text(), reused.log_text());
    assert_eq!(fresh.summary(), reused.summary());
}

/// A reused world keeps no record of the battles before (issue 25: a million battles in
/// flat memory): the record of despawned units, which a bare world never ages by itself,
/// holds at most the last battle's units however many battles were fought (it held every
/// battle's, about a kilobyte each).
#[test]
fn resets_do_not_pile_up_records_of_removed_units() {
    let prepared = duel();
    let units = prepared.units.len();
    let mut s = Session::new(prepared, 1, SessionOptions::default());
    for seed in 0..20 {
        s.run();
        s.reset(seed);
    }
    let removed = s.world.removed::<UnitId>().count();
    assert!(
        removed <= units,
        "{removed} removals kept for {units} units"
    );
}

/// A decision sent to a battle and not yet resolved is dropped when the battle starts over:
/// in every shipped scenario (every ruleset), a battle reset with such a command queued is
/// the fresh battle, log for log. (Vergeworlds once kept it, and the restarted battle began
/// with a refused command.)
#[test]
fn reset_drops_a_queued_decision_in_every_ruleset() {
    for prepared in shipped() {
        let rules = prepared.rules;
        // The AI's first decision in this battle, taken as a command.
        let mut probe = Session::new(prepared.clone(), 5, SessionOptions::default());
        let mut sent = None;
        for _ in 0..50 {
            let cursor = rules.command_cursor(&probe.world);
            let seen = probe.log().entries.len();
            probe.step();
            let chosen = probe.log().entries[seen..]
                .iter()
                .find_map(|e| match e.event {
                    BattleEvent::ActionChosen { unit, .. } => Some(unit),
                    _ => None,
                });
            if let Some(unit) = chosen
                && let Some(action) = rules.command_since(&probe.world, cursor, unit)
            {
                sent = Some((unit, action));
                break;
            }
        }
        let (unit, action) = sent.unwrap_or_else(|| panic!("{}: no decision", prepared.name));
        let mut reused = Session::new(prepared.clone(), 5, SessionOptions::default());
        rules
            .send(&mut reused.world, unit, &*action)
            .expect("the battle's own ruleset takes the command");
        reused.reset(5);
        reused.run();
        let mut fresh = Session::new(prepared.clone(), 5, SessionOptions::default());
        fresh.run();
        assert_eq!(fresh.log_text(), reused.log_text(), "{}", prepared.name);
    }
}

/// The health the map's bars show comes from each ruleset through the contract: full for
/// every unit when a battle starts, nothing for every unit put out of the fight (killed,
/// destroyed, disabled or knocked out), and short of full for any unit that took damage,
/// in every shipped scenario.
/// (Traveller ships and Vergeworlds characters once kept a full bar to the end.)
#[test]
fn health_bars_come_from_every_ruleset() {
    for prepared in shipped() {
        let rules = prepared.rules;
        for seed in [1, 2] {
            let mut s = Session::new(prepared.clone(), seed, SessionOptions::default());
            let units = |s: &mut Session| {
                let mut q = s
                    .world
                    .query::<(bevy::ecs::entity::Entity, &UnitId, &Standing)>();
                q.iter(&s.world)
                    .map(|(e, id, st)| (e, *id, *st))
                    .collect::<Vec<_>>()
            };
            for (e, id, _) in units(&mut s) {
                assert_eq!(rules.health(&s.world, e, id), 1.0, "{}", prepared.name);
            }
            let mut hurt = 0;
            while s.outcome().is_none() {
                let seen = s.log().entries.len();
                s.step();
                let damaged: Vec<UnitId> = s.log().entries[seen..]
                    .iter()
                    .filter_map(|e| match e.event {
                        BattleEvent::Damage {
                            target,
                            hp_before,
                            hp_after,
                            ..
                        } if hp_before != hp_after => Some(target),
                        _ => None,
                    })
                    .collect();
                for id in damaged {
                    let e = s.roster().entity(id).expect("a unit of the roster");
                    let health = rules.health(&s.world, e, id);
                    assert!(
                        health < 1.0,
                        "{} seed {seed}: {} was damaged, at health {health}",
                        prepared.name,
                        s.roster().name(id)
                    );
                    hurt += 1;
                }
            }
            assert!(
                hurt > 0 || prepared.ruleset == "main-sequence",
                "{}",
                prepared.name
            );
            for (e, id, standing) in units(&mut s) {
                let out = matches!(
                    standing,
                    Standing::Dead
                        | Standing::Destroyed
                        | Standing::Disabled
                        | Standing::Unconscious
                );
                let health = rules.health(&s.world, e, id);
                assert!(
                    !out || health == 0.0,
                    "{} seed {seed}: {} is {standing:?} at health {health}",
                    prepared.name,
                    s.roster().name(id)
                );
            }
        }
    }
}

/// Every shipped scenario ends, the AI never has a command refused, and the statistics
/// agree with the events, over many seeds.
#[test]
fn ai_stays_within_the_rules_in_every_scenario() {
    for prepared in shipped() {
        let mut s = Session::new(prepared.clone(), 0, SessionOptions::default());
        for seed in 0..40 {
            s.reset(seed);
            let outcome = s.run();
            assert!(
                outcome.is_some(),
                "{}: seed {seed} did not end",
                prepared.name
            );
            let ev = events(&s);
            if let Some(r) = ev
                .iter()
                .find(|e| matches!(e, BattleEvent::Rejected { .. }))
            {
                panic!("{} seed {seed}: AI command refused: {r:?}", prepared.name);
            }
            let attacks = ev
                .iter()
                .filter(|e| matches!(e, BattleEvent::Attack { .. }))
                .count();
            let injury: i64 = ev
                .iter()
                .map(|e| match e {
                    // Damage dealt by someone; critical misses hurt their makers with none.
                    BattleEvent::Damage {
                        injury,
                        attacker: Some(_),
                        ..
                    } => i64::from(*injury),
                    _ => 0,
                })
                .sum();
            let stats = s.world.resource::<BattleStats>().clone();
            assert_eq!(
                stats
                    .units
                    .iter()
                    .map(|u| u.attacks as usize)
                    .sum::<usize>(),
                attacks
            );
            assert_eq!(
                stats.units.iter().map(|u| u.damage_dealt).sum::<i64>(),
                injury
            );
            // Dead units took damage to die; unconscious ones rolled or fell. (A SOCS craft
            // can also be lost to a crash following the leader.)
            for (i, st) in s.standings().into_iter().enumerate() {
                if st == Standing::Dead && prepared.ruleset != "socs" {
                    assert!(
                        stats.units[i].damage_taken > 0,
                        "{}: {i} died unhurt",
                        prepared.name
                    );
                }
            }
        }
    }
}

/// The battle only ends when at most one side is still fighting (or on the round limit).
#[test]
fn outcome_matches_who_is_standing() {
    let mut s = Session::new(duel(), 0, SessionOptions::default());
    for seed in 0..50 {
        s.reset(seed);
        let outcome = s.run();
        let standing = s.standings();
        match outcome {
            Some(skirmish::battle::OutcomeKind::Victory { side }) => {
                let side_of = [0u8, 1u8];
                for (i, st) in standing.iter().enumerate() {
                    if st.fighting() {
                        assert_eq!(side_of[i], side, "seed {seed}");
                    }
                }
            }
            Some(skirmish::battle::OutcomeKind::Draw { .. }) => {}
            None => panic!("seed {seed}: no outcome"),
        }
    }
}

const FACE_TO_FACE: &str = r#"(
    name: "Face to face",
    ruleset: Gurps(),
    map: ( shape: Hexagon(radius: 3) ),
    sides: [ (id: "a", control: Player), (id: "b", control: Player) ],
    units: [
        (name: "Ann", side: "a", at: (0, 0),
         stats: Gurps(st: 10, dx: 14, iq: 10, ht: 12, skills: { "Shortsword": 14 }, weapons: ["shortsword"])),
        (name: "Bob", side: "b", at: (1, 0),
         stats: Gurps(st: 12, dx: 10, iq: 10, ht: 10, skills: { "Broadsword": 12 }, weapons: ["broadsword"])),
    ],
)"#;

fn face_to_face() -> Session {
    by_hand(FACE_TO_FACE, 5) // round 1, Ann's turn
}

/// A battle of `text` with dice seeded by `seed`, played by hand (no autopilot), its first
/// turn begun.
fn by_hand(text: &str, seed: u64) -> Session {
    let prepared = Arc::new(
        skirmish::rules::builtin()
            .parse("test.ron", text)
            .expect("valid"),
    );
    let mut s = Session::new(
        prepared,
        seed,
        SessionOptions {
            keep_log: true,
            autopilot: false,
        },
    );
    s.step();
    s
}

fn order(s: &mut Session, unit: u32, maneuver: Maneuver, target: Option<u32>) {
    s.world.write_message(Command {
        unit: UnitId(unit),
        action: Action {
            maneuver,
            to: None,
            target: target.map(UnitId),
            weapon: target.map(|_| 0),
            ..Action::simple(Maneuver::DoNothing)
        },
    });
    s.step();
}

fn fighter(s: &mut Session, unit: u32) -> skirmish::rules::gurps::Fighter {
    let mut q = s
        .world
        .query::<(&UnitId, &skirmish::rules::gurps::Fighter)>();
    q.iter(&s.world)
        .find(|(id, _)| id.0 == unit)
        .map(|(_, f)| f.clone())
        .expect("unit exists")
}

/// gurps-lite-and-socs.txt "ALL-OUT ATTACK": no defense for the rest of the turn, that is
/// until the attacker's next turn; then defenses return.
#[test]
fn all_out_attack_leaves_no_defense_until_next_turn() {
    use skirmish::rules::gurps::{AoaOption, sheet::Guard};
    let mut s = face_to_face();
    order(
        &mut s,
        0,
        Maneuver::AllOutAttack(AoaOption::Determined),
        Some(1),
    );
    assert_eq!(fighter(&mut s, 0).guard, Guard::None);
    s.step(); // Bob's turn begins
    order(&mut s, 1, Maneuver::Attack, Some(0));
    let bob_attack = events(&s)
        .into_iter()
        .rev()
        .find(|e| {
            matches!(
                e,
                BattleEvent::Attack {
                    attacker: UnitId(1),
                    ..
                }
            )
        })
        .expect("Bob attacked");
    let BattleEvent::Attack { defenses, .. } = bob_attack else {
        unreachable!()
    };
    assert!(defenses.is_empty(), "Ann defended after an All-Out Attack");
    s.step(); // round 2: Ann's turn begins and her guard is back
    assert_eq!(fighter(&mut s, 0).guard, Guard::Normal);
}

/// gurps-lite-and-socs.txt "LOST HIT POINTS": at 0 HP or less a HT roll is needed for any
/// maneuver besides Do Nothing.
#[test]
fn acting_at_zero_hp_needs_a_ht_roll_but_doing_nothing_does_not() {
    let mut s = face_to_face();
    let set_hp = |s: &mut Session, hp: i32| {
        let mut q = s
            .world
            .query::<(&UnitId, &mut skirmish::rules::gurps::Fighter)>();
        for (id, mut f) in q.iter_mut(&mut s.world) {
            if id.0 == 0 {
                f.hp = hp;
            }
        }
    };
    set_hp(&mut s, -3);
    order(&mut s, 0, Maneuver::DoNothing, None);
    let rolls = |s: &Session| {
        events(s)
            .iter()
            .filter(|e| matches!(e, BattleEvent::Roll { unit: UnitId(0), purpose, .. } if purpose.contains("stay conscious")))
            .count()
    };
    assert_eq!(rolls(&s), 0);
    s.step();
    order(&mut s, 1, Maneuver::DoNothing, None);
    s.step(); // Ann again, still at -3
    order(&mut s, 0, Maneuver::Attack, Some(1));
    assert_eq!(rolls(&s), 1);
}

fn with_fighter(s: &mut Session, unit: u32, change: impl Fn(&mut skirmish::rules::gurps::Fighter)) {
    let mut q = s
        .world
        .query::<(&UnitId, &mut skirmish::rules::gurps::Fighter)>();
    for (id, mut f) in q.iter_mut(&mut s.world) {
        if id.0 == unit {
            change(&mut f);
        }
    }
}

fn last_rejection(s: &Session) -> Option<String> {
    events(s).into_iter().rev().find_map(|e| match e {
        BattleEvent::Rejected { reason, .. } => Some(reason),
        _ => None,
    })
}

/// gurps-lite-and-socs.txt "INJURY", Stunned: a stunned fighter must Do Nothing, and rolls
/// HT at the end of its turn to act normally again.
#[test]
fn stunned_fighters_do_nothing_and_roll_to_recover() {
    let mut s = face_to_face();
    with_fighter(&mut s, 0, |f| f.stunned = true);
    order(&mut s, 0, Maneuver::Attack, Some(1));
    assert!(last_rejection(&s).is_some_and(|r| r.contains("stunned")));
    order(&mut s, 0, Maneuver::DoNothing, None);
    let recovery = events(&s).into_iter().rev().find_map(|e| match e {
        BattleEvent::Roll {
            unit: UnitId(0),
            purpose,
            roll,
            ..
        } if purpose.contains("recover from stun") => Some(roll),
        _ => None,
    });
    let roll = recovery.expect("a HT roll at the end of the turn");
    assert_eq!(roll.target, Some(12)); // Ann's HT
    assert_eq!(fighter(&mut s, 0).stunned, !roll.succeeded());
}

/// gurps-lite-and-socs.txt "CHANGE POSTURE": lying to standing takes two turns.
#[test]
fn getting_up_takes_two_turns() {
    use skirmish::rules::gurps::posture::Posture;
    let mut s = face_to_face();
    with_fighter(&mut s, 0, |f| f.posture = Posture::Lying);
    order(&mut s, 0, Maneuver::ChangePosture(Posture::Standing), None);
    assert!(last_rejection(&s).is_some_and(|r| r.contains("before standing")));
    order(&mut s, 0, Maneuver::ChangePosture(Posture::Kneeling), None);
    assert_eq!(fighter(&mut s, 0).posture, Posture::Kneeling);
    s.step();
    order(&mut s, 1, Maneuver::DoNothing, None);
    s.step();
    order(&mut s, 0, Maneuver::ChangePosture(Posture::Standing), None);
    assert_eq!(fighter(&mut s, 0).posture, Posture::Standing);
}

/// gurps-lite-and-socs.txt "INJURY", Shock: the penalty from wounds taken since the last
/// turn applies to attack rolls on the next turn only.
#[test]
fn shock_applies_on_the_next_turn_only() {
    let mut s = face_to_face();
    order(&mut s, 0, Maneuver::DoNothing, None);
    with_fighter(&mut s, 1, |f| f.pending_shock = 3);
    s.step(); // Bob's turn begins: the shock moves to this turn
    assert_eq!(fighter(&mut s, 1).shock, 3);
    order(&mut s, 1, Maneuver::Attack, Some(0));
    let attack = events(&s).into_iter().rev().find_map(|e| match e {
        BattleEvent::Attack {
            attacker: UnitId(1),
            roll,
            ..
        } => Some(roll),
        _ => None,
    });
    let roll = attack.expect("Bob attacked");
    assert!(
        roll.modifiers
            .iter()
            .any(|m| &*m.label == "shock" && m.value == -3),
        "{roll}"
    );
    assert_eq!(roll.target, Some(12 - 3));
    s.step();
    order(&mut s, 0, Maneuver::DoNothing, None);
    s.step(); // Bob's next turn: no shock left (unless Ann wounded him, she did nothing)
    assert_eq!(fighter(&mut s, 1).shock, 0);
}

/// gurps-lite-and-socs.txt "KNOCKBACK" on the demo: over a few seeds the ogre's maul
/// throws a militiaman against the wall and another into his comrade; no two fighters
/// ever share a hex.
#[test]
fn knockback_demo_stops_at_walls_and_fighters() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gurps-knockback.ron");
    let prepared = Arc::new(
        skirmish::rules::builtin()
            .load(&path)
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let (mut wall, mut fighter_hit) = (false, false);
    for seed in 1..=20 {
        let mut s = Session::new(prepared.clone(), seed, SessionOptions::default());
        for _ in 0..2000 {
            if s.outcome().is_some() {
                break;
            }
            s.step();
            let mut q = s
                .world
                .query::<(&skirmish::battle::HexPos, &skirmish::battle::Standing)>();
            let mut taken: Vec<hexx::Hex> = q
                .iter(&s.world)
                .filter(|(_, st)| st.fighting())
                .map(|(p, _)| p.0)
                .collect();
            let n = taken.len();
            taken.sort_by_key(|h| (h.x, h.y));
            taken.dedup();
            assert_eq!(taken.len(), n, "seed {seed}: two fighters on one hex");
        }
        for e in events(&s) {
            if let BattleEvent::Knockback {
                stopped_by: Some(what),
                ..
            } = e
            {
                wall |= what == "a wall";
                fighter_hit |= what == "Joos";
            }
        }
    }
    assert!(wall && fighter_hit, "wall {wall}, fighter {fighter_hit}");
    // The seed the README and the scenario file name shows both in one battle.
    let mut s = Session::new(prepared, 84, SessionOptions::default());
    s.run();
    let log = s.log_text();
    assert!(log.contains("stopped by a wall") && log.contains("stopped by Joos"));
}

/// gurps-lite-and-socs.txt "FEINT": a feint won on one turn counts on the feinter's next
/// turn only.
#[test]
fn a_won_feint_counts_on_the_next_turn_only() {
    let mut s = face_to_face();
    with_fighter(&mut s, 0, |f| f.feint_ready = Some((UnitId(1), 3)));
    order(&mut s, 0, Maneuver::DoNothing, None);
    s.step();
    order(&mut s, 1, Maneuver::DoNothing, None);
    s.step(); // Ann's next turn: the feint is on
    assert_eq!(fighter(&mut s, 0).feint_on, Some((UnitId(1), 3)));
    order(&mut s, 0, Maneuver::DoNothing, None);
    s.step();
    order(&mut s, 1, Maneuver::DoNothing, None);
    s.step(); // and gone the turn after
    assert_eq!(fighter(&mut s, 0).feint_on, None);
}

/// A Feint maneuver rolls a Quick Contest and makes no attack this turn.
#[test]
fn feint_maneuver_is_a_contest_not_an_attack() {
    let mut s = face_to_face();
    order(&mut s, 0, Maneuver::Feint, Some(1));
    let ev = events(&s);
    assert!(
        ev.iter()
            .any(|e| matches!(e, BattleEvent::Roll { purpose, .. } if purpose.contains("Feint")))
    );
    assert!(!ev.iter().any(|e| matches!(e, BattleEvent::Attack { .. })));
    let won = ev.iter().find_map(|e| match e {
        BattleEvent::Roll {
            unit: UnitId(1),
            result,
            ..
        } => Some(result.to_string()),
        _ => None,
    });
    let f = fighter(&mut s, 0);
    assert_eq!(
        f.feint_ready.is_some(),
        won.is_some_and(|r| r.contains("next turn"))
    );
}

/// Facing: an attack from behind allows no active defense; from the side, defenses are at
/// −2 (gurps-traveller-gm-screen.txt, "MODIFIERS TO ACTIVE DEFENSE ROLLS": side attack).
#[test]
fn attacks_from_behind_and_the_side() {
    use skirmish::battle::Facing;
    for (turn_bob, expect) in [(3u8, "back"), (2u8, "side")] {
        let mut found = false;
        for seed in 0..40 {
            let mut s = by_hand(FACE_TO_FACE, seed);
            // Bob (at (1, 0)) faces Ann (at (0, 0)); turn him away.
            let mut q = s.world.query::<(&UnitId, &mut Facing)>();
            for (id, mut f) in q.iter_mut(&mut s.world) {
                if id.0 == 1 {
                    f.0 = f.0.rotate_cw(turn_bob);
                }
            }
            order(&mut s, 0, Maneuver::Attack, Some(1));
            let attack = events(&s).into_iter().find_map(|e| match e {
                BattleEvent::Attack {
                    roll,
                    defenses,
                    result,
                    ..
                } => Some((roll, defenses, result)),
                _ => None,
            });
            let Some((roll, defenses, _)) = attack else {
                continue;
            };
            if !roll.succeeded() || roll.critical.is_some() {
                continue;
            }
            if expect == "back" {
                assert!(defenses.is_empty(), "seed {seed}: defended from behind");
            } else {
                let d = defenses.first().expect("a defense roll from the side");
                assert!(
                    d.roll
                        .modifiers
                        .iter()
                        .any(|m| &*m.label == "attack from the side" && m.value == -2),
                    "{}",
                    d.roll
                );
            }
            found = true;
            break;
        }
        assert!(found, "no ordinary hit in 40 seeds ({expect})");
    }
}

/// gurps-traveller-gm-screen.txt "CRITICAL MISSES" 9-11 (decision: one Ready picks the
/// weapon up): a dropped weapon cannot attack until a Ready maneuver readies it.
#[test]
fn a_dropped_weapon_must_be_readied() {
    use skirmish::rules::gurps::criticals::WeaponState;
    let mut s = face_to_face();
    with_fighter(&mut s, 0, |f| f.weapon_state[0] = WeaponState::Unready);
    order(&mut s, 0, Maneuver::Attack, Some(1));
    assert!(last_rejection(&s).is_some_and(|r| r.contains("not ready")));
    s.world.write_message(Command {
        unit: UnitId(0),
        action: Action {
            weapon: Some(0),
            ..Action::simple(Maneuver::Ready)
        },
    });
    s.step();
    assert_eq!(fighter(&mut s, 0).weapon_state[0], WeaponState::Ready);
}

/// gurps-lite-and-socs.txt "MORALE CHECKS" on the demo: the bandits check morale after
/// losses, a "Good" or better reaction breaks them, broken bandits attack no more and run
/// for the edge, where they leave the battle.
#[test]
fn morale_demo_breaks_and_flees() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gurps-morale.ron");
    let prepared = Arc::new(
        skirmish::rules::builtin()
            .load(&path)
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let (mut broke, mut fled) = (0, 0);
    for seed in 1..=10 {
        let mut s = Session::new(prepared.clone(), seed, SessionOptions::default());
        s.run();
        let mut broken = false;
        for e in events(&s) {
            match e {
                BattleEvent::Roll {
                    purpose, result, ..
                } if purpose.starts_with("morale check") => {
                    let good = ["Good", "Very Good", "Excellent"]
                        .iter()
                        .any(|r| result.starts_with(&format!("{r}:")));
                    assert_eq!(good, result.contains("break"), "{result}");
                    broken |= good;
                }
                BattleEvent::Attack { attacker, .. } if broken => {
                    assert!(attacker.0 < 3, "seed {seed}: a broken bandit attacked");
                }
                BattleEvent::StatusChanged {
                    unit,
                    standing: Standing::Escaped,
                    ..
                } => {
                    assert!(broken && unit.0 >= 3);
                    fled += 1;
                }
                _ => {}
            }
        }
        broke += usize::from(broken);
    }
    assert!(
        broke >= 5,
        "only {broke} of 10 battles saw the bandits break"
    );
    assert!(fled > 0);
    // The seed the README and the scenario file name shows a break.
    let mut s = Session::new(prepared, 2, SessionOptions::default());
    s.run();
    assert!(s.log_text().contains("they break and flee"));
}

const APART: &str = r#"(
    name: "Apart",
    ruleset: Gurps(),
    map: ( shape: Hexagon(radius: 5) ),
    sides: [ (id: "a", control: Player), (id: "b", control: Player) ],
    units: [
        (name: "Ann", side: "a", at: (0, 0),
         stats: Gurps(st: 10, dx: 14, iq: 10, ht: 12, skills: { "Shortsword": 14 }, weapons: ["shortsword"])),
        (name: "Bob", side: "b", at: (3, 0),
         stats: Gurps(st: 12, dx: 10, iq: 10, ht: 10, skills: { "Broadsword": 12 }, weapons: ["broadsword"])),
    ],
)"#;

/// gurps-lite-and-socs.txt "WAIT": a fighter holding its action attacks the foe that steps
/// into its reach, before that foe's own attack; the Wait then is spent.
#[test]
fn wait_strikes_the_foe_that_comes_in_reach() {
    let mut s = by_hand(APART, 3);
    s.world.write_message(Command {
        unit: UnitId(0),
        action: Action {
            weapon: Some(0),
            ..Action::simple(Maneuver::Wait)
        },
    });
    s.step();
    assert_eq!(fighter(&mut s, 0).waiting, Some(0));
    s.step(); // Bob's turn: Move and Attack into reach
    s.world.write_message(Command {
        unit: UnitId(1),
        action: Action {
            to: Some(hexx::Hex::new(1, 0)),
            target: Some(UnitId(0)),
            weapon: Some(0),
            ..Action::simple(Maneuver::MoveAndAttack)
        },
    });
    s.step();
    let ev = events(&s);
    let first_attack = ev.iter().find_map(|e| match e {
        BattleEvent::Attack { attacker, .. } => Some(*attacker),
        _ => None,
    });
    assert_eq!(first_attack, Some(UnitId(0)), "Ann strikes first");
    assert!(ev.iter().any(
        |e| matches!(e, BattleEvent::Note { text, .. } if text.contains("Wait is triggered"))
    ));
    assert_eq!(fighter(&mut s, 0).waiting, None);
}

/// A disarm (gurps-lite-and-socs.txt, "HIT LOCATIONS", Weapon: −4 for a reach-1 weapon, −2
/// more to disarm): the attack roll carries the penalty; a hit does no damage but starts a
/// Quick Contest for the weapon.
#[test]
fn disarm_attempts() {
    let mut checked = 0;
    for seed in 0..30 {
        let mut s = by_hand(FACE_TO_FACE, seed);
        s.world.write_message(Command {
            unit: UnitId(0),
            action: Action {
                target: Some(UnitId(1)),
                weapon: Some(0),
                disarm: true,
                ..Action::simple(Maneuver::Attack)
            },
        });
        s.step();
        let ev = events(&s);
        let Some((roll, result)) = ev.iter().find_map(|e| match e {
            BattleEvent::Attack { roll, result, .. } => Some((roll.clone(), *result)),
            _ => None,
        }) else {
            panic!("no attack: {ev:?}");
        };
        assert!(roll.modifiers.iter().any(|m| m.value == -6), "{roll}");
        assert!(!ev.iter().any(|e| matches!(e, BattleEvent::Damage { .. })));
        let contest = ev
            .iter()
            .any(|e| matches!(e, BattleEvent::Roll { purpose, .. } if purpose.contains("disarm")));
        assert_eq!(contest, result.hit());
        checked += usize::from(contest);
    }
    assert!(checked > 0);
}

const CROWDED: &str = r#"(
    name: "Crowded",
    ruleset: Gurps(),
    map: ( shape: Hexagon(radius: 6) ),
    sides: [ (id: "a", control: Player), (id: "b", control: Player) ],
    units: [
        (name: "Ann", side: "a", at: (0, 0),
         stats: Gurps(st: 10, dx: 12, iq: 10, ht: 10, skills: { "Bow": 12 }, weapons: ["short bow"])),
        (name: "Bob", side: "b", at: (4, 0),
         stats: Gurps(st: 10, dx: 10, iq: 10, ht: 10)),
        (name: "Cid", side: "a", at: (2, 0),
         stats: Gurps(st: 10, dx: 10, iq: 10, ht: 10)),
    ],
)"#;

/// gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS": −4 per figure in the way, and
/// a missed shot rolls again against the figure in the way at most 9.
#[test]
fn missed_shots_may_hit_the_figure_in_the_way() {
    let mut strays = 0;
    for seed in 0..40 {
        let mut s = by_hand(CROWDED, seed);
        if s.world.resource::<TurnState>().awaiting != Some(UnitId(0)) {
            continue;
        }
        order(&mut s, 0, Maneuver::Attack, Some(1));
        let attacks: Vec<_> = events(&s)
            .into_iter()
            .filter_map(|e| match e {
                BattleEvent::Attack {
                    target,
                    roll,
                    result,
                    ..
                } => Some((target, roll, result)),
                _ => None,
            })
            .collect();
        let Some((first_target, first_roll, first_result)) = attacks.first().cloned() else {
            continue;
        };
        assert_eq!(first_target, UnitId(1));
        assert!(
            first_roll
                .modifiers
                .iter()
                .any(|m| &*m.label == "behind someone else" && m.value == -4)
        );
        let missed = first_result == skirmish::battle::AttackResult::Miss
            && first_roll.critical != Some(skirmish::dice::Critical::Failure);
        assert_eq!(attacks.len(), if missed { 2 } else { 1 });
        if missed {
            let (t, r, _) = &attacks[1];
            assert_eq!(*t, UnitId(2));
            assert!(r.target.is_some_and(|v| v <= 9));
            strays += 1;
        }
    }
    assert!(strays > 0);
}

/// gurps-lite-and-socs.txt "GROUP COMBAT" on the mooks demo: one roll for the thugs who can
/// reach the same hero, the group bonus for their number, never more blows landing than
/// attackers; everyone who joined has spent its turn for the round.
#[test]
fn mooks_attack_as_a_group() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/gurps-mooks.ron");
    let prepared = Arc::new(
        skirmish::rules::builtin()
            .load(&path)
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let mut groups = 0;
    for seed in 1..=5 {
        let mut s = Session::new(prepared.clone(), seed, SessionOptions::default());
        s.run();
        let ev = events(&s);
        let names: Vec<String> = s.roster().units.iter().map(|u| u.name.clone()).collect();
        let mut acted: Vec<(u32, UnitId)> = Vec::new();
        let mut joined: Vec<(u32, UnitId)> = Vec::new();
        let mut round = 0;
        for e in &ev {
            match e {
                BattleEvent::RoundStarted { round: r } => round = *r,
                BattleEvent::Attack { weapon, roll, .. }
                    if weapon.starts_with("a group attack") =>
                {
                    groups += 1;
                    let n = weapon.matches(',').count() + 1;
                    let inner = weapon
                        .trim_start_matches("a group attack (")
                        .trim_end_matches(')');
                    for name in inner.split(", ") {
                        let id = names.iter().position(|n| n == name).expect("a unit");
                        joined.push((round, UnitId(id as u32)));
                    }
                    let bonus = roll
                        .modifiers
                        .iter()
                        .find(|m| m.label.starts_with("group of"))
                        .map_or(0, |m| m.value);
                    let want = match n {
                        1 => 0,
                        2..=4 => 2,
                        5 | 6 => 4,
                        7 | 8 => 6,
                        _ => 8,
                    };
                    assert_eq!(bonus, want, "{weapon}: {roll}");
                }
                BattleEvent::Note { text, .. } if text.starts_with("group attack:") => {
                    let words: Vec<&str> = text.split_whitespace().collect();
                    let landed: usize = words[2].parse().expect("a number");
                    let of: usize = words[4].parse().expect("a number");
                    assert!(landed <= of, "{text}");
                }
                BattleEvent::TurnStarted { unit } => {
                    assert!(
                        !acted.contains(&(round, *unit)) && !joined.contains(&(round, *unit)),
                        "{unit:?} acted twice in round {round}"
                    );
                    acted.push((round, *unit));
                }
                _ => {}
            }
        }
    }
    assert!(groups > 0);
}

const LONG_MOVE: &str = r#"(
    name: "Long move",
    ruleset: Gurps(),
    map: ( shape: Hexagon(radius: 5) ),
    sides: [ (id: "a", control: Player), (id: "b", control: Player) ],
    units: [
        (name: "Ann", side: "a", at: (-3, 0), facing: East,
         stats: Gurps(st: 10, dx: 14, iq: 10, ht: 12, skills: { "Shortsword": 14 }, weapons: ["shortsword"])),
        (name: "Bob", side: "b", at: (0, 1), facing: East,
         stats: Gurps(st: 12, dx: 10, iq: 10, ht: 10, skills: { "Broadsword": 12 }, weapons: ["broadsword"])),
    ],
)"#;

/// gurps-traveller-gm-screen.txt, "MANEUVERS" table, facing change at the end of a move:
/// Ann (Move 6) runs east and strikes Bob, who ends up two hex sides from her way. After
/// 4 points (more than half her Move) she turns one hex side only; after 2 points (the
/// same end, her foe placed so) she faces him.
#[test]
fn a_long_move_limits_the_turn_at_its_end() {
    use skirmish::battle::{Facing, HexPos};
    use skirmish::rules::gurps::combat::current_move;
    for (to, spent) in [(hexx::Hex::new(1, 0), 4u32), (hexx::Hex::new(-1, 0), 2)] {
        let text = LONG_MOVE.replace("at: (0, 1)", &format!("at: ({}, 1)", to.x - 1));
        let mut s = by_hand(&text, 5);
        assert_eq!(
            s.world.resource::<skirmish::battle::TurnState>().awaiting,
            Some(UnitId(0))
        );
        assert_eq!(current_move(&fighter(&mut s, 0)), 6);
        s.world.write_message(Command {
            unit: UnitId(0),
            action: Action {
                maneuver: Maneuver::MoveAndAttack,
                to: Some(to),
                target: Some(UnitId(1)),
                weapon: Some(0),
                ..Action::simple(Maneuver::DoNothing)
            },
        });
        s.step();
        assert_eq!(last_rejection(&s), None);
        let mut q = s.world.query::<(&UnitId, &HexPos, &Facing)>();
        let (pos, facing) = q
            .iter(&s.world)
            .find(|(id, _, _)| id.0 == 0)
            .map(|(_, p, f)| (p.0, f.0))
            .expect("Ann");
        assert_eq!(pos, to);
        let east = hexx::Hex::ZERO.main_direction_to(hexx::Hex::new(1, 0));
        let toward_bob = to.main_direction_to(hexx::Hex::new(to.x - 1, 1));
        assert_eq!(pos.unsigned_distance_to(hexx::Hex::new(-3, 0)), spent);
        if spent * 2 > 6 {
            // one hex side from her way, on the side of her foe
            let between = [east.clockwise(), east.counter_clockwise()]
                .into_iter()
                .find(|d| d.clockwise() == toward_bob || d.counter_clockwise() == toward_bob);
            assert_ne!(toward_bob, east);
            assert_eq!(Some(facing), between);
        } else {
            assert_eq!(facing, toward_bob);
        }
    }
}

/// starship-d12 missiles are projectile entities from launch to impact: each is spawned
/// once when its shot is declared, keeps its entity while the action round lasts, matches
/// a missile shot declared in that round, and is gone once the round's shots are resolved
/// (starship-d12-quick-reference.txt, "Gunnery Difficulties": missiles have their own
/// to-hit numbers; the shots of a round resolve together).
#[test]
fn missiles_fly_as_projectile_entities() {
    use bevy::ecs::entity::Entity;
    use skirmish::battle::{HexPos, Projectile};
    use skirmish::rules::starship_d12::{Action, Fleet, Missile, Phase};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/d12-duel.ron");
    let prepared = Arc::new(
        skirmish::rules::builtin()
            .load(&path)
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let mut seen = 0;
    for seed in 1..=5 {
        let mut s = Session::new(prepared.clone(), seed, SessionOptions::default());
        let mut steps = 0;
        let mut before: (Option<(u32, u32)>, Vec<Entity>) = (None, Vec::new());
        while s.outcome().is_none() && steps < 10_000 {
            s.step();
            steps += 1;
            let fleet = s.world.resource::<Fleet>().clone();
            let (round, declared) = match &fleet.phase {
                Phase::Actions { round, declared } => {
                    (Some((fleet.turn, *round)), declared.clone())
                }
                _ => (None, Vec::new()),
            };
            let mut q = s
                .world
                .query_filtered::<(Entity, &Missile, &HexPos), bevy::ecs::query::With<Projectile>>(
                );
            let now: Vec<(Entity, Missile)> = q.iter(&s.world).map(|(e, m, _)| (e, *m)).collect();
            let roster = s.roster();
            for (_, m) in &now {
                assert!(
                    declared
                        .iter()
                        .any(|(u, a)| roster.entity(*u) == Some(m.from)
                            && matches!(a, Action::Fire { target, weapon, .. }
                            if roster.entity(*target) == Some(m.target)
                                && *weapon == m.launcher)),
                    "seed {seed}, step {steps}: {m:?} was not declared this round"
                );
            }
            if round.is_some() && round == before.0 {
                for e in &before.1 {
                    assert!(
                        now.iter().any(|(n, _)| n == e),
                        "seed {seed}, step {steps}: a missile lost its entity mid-round"
                    );
                }
            }
            seen += now.len();
            before = (round, now.iter().map(|(e, _)| *e).collect());
        }
        assert!(s.outcome().is_some());
        s.reset(seed + 100);
        let mut q = s
            .world
            .query_filtered::<&HexPos, bevy::ecs::query::With<Projectile>>();
        assert_eq!(q.iter(&s.world).count(), 0, "a reset clears the missiles");
    }
    assert!(seen > 0, "some missile was in flight");
}

/// GURPS Traveller missiles are projectile entities from launch to impact: each missile
/// number keeps one entity for as long as it flies, the entity stands where the missile
/// is, and a missile gone (struck, shot down, spent or off the map) never comes back
/// (gurps-traveller-gm-screen.txt, "SEQUENCE OF ACTION": launch in step 6, point defense
/// and strikes in step 5 of a later turn).
#[test]
fn traveller_missiles_keep_their_entity_from_launch_to_impact() {
    use bevy::ecs::entity::Entity;
    use skirmish::battle::HexPos;
    use skirmish::rules::traveller_space::MissileState;
    use std::collections::BTreeMap;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/traveller-merchant-raider.ron");
    let prepared = Arc::new(
        skirmish::rules::builtin()
            .load(&path)
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let mut launched = 0;
    for seed in 1..=4 {
        let mut s = Session::new(prepared.clone(), seed, SessionOptions::default());
        let mut entity_of: BTreeMap<u32, Entity> = BTreeMap::new();
        let mut gone: Vec<u32> = Vec::new();
        let mut steps = 0;
        while s.outcome().is_none() && steps < 20_000 {
            s.step();
            steps += 1;
            let mut q = s.world.query::<(Entity, &MissileState, &HexPos)>();
            let now: Vec<(Entity, u32, bool)> = q
                .iter(&s.world)
                .map(|(e, m, pos)| (e, m.id, pos.0 == m.hex()))
                .collect();
            for &(e, id, placed) in &now {
                assert!(
                    placed,
                    "seed {seed}, step {steps}: missile {id} is not where its entity is"
                );
                assert!(
                    !gone.contains(&id),
                    "seed {seed}, step {steps}: missile {id} came back"
                );
                let first = *entity_of.entry(id).or_insert(e);
                assert_eq!(
                    first, e,
                    "seed {seed}, step {steps}: missile {id} changed entity"
                );
            }
            for (&id, _) in entity_of.iter() {
                if !now.iter().any(|&(_, n, _)| n == id) && !gone.contains(&id) {
                    gone.push(id);
                }
            }
        }
        launched += entity_of.len();
    }
    assert!(launched > 0, "some missile was launched");
}

/// The README's starship-d12 demo: with `--seed 1` the corvette gets on the gunship's
/// tail and destroys it.
#[test]
fn the_d12_duel_demo_seed_shows_a_tail_and_a_kill() {
    use skirmish::battle::OutcomeKind;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/d12-duel.ron");
    let prepared = Arc::new(
        skirmish::rules::builtin()
            .load(&path)
            .unwrap_or_else(|e| panic!("{e}")),
    );
    let mut s = Session::new(prepared, 1, SessionOptions::default());
    assert_eq!(s.run(), Some(OutcomeKind::Victory { side: 0 }));
    let log = s.log_text();
    assert!(log.contains("on Red Jackal's tail"), "{log}");
    assert!(
        log.contains("Red Jackal is destroyed (its core is gone)"),
        "{log}"
    );
}

/// Main Sequence AI (issue 6): over twenty seeds of the corridor firefight it fires at
/// several targets with one roll (main-sequence.txt, "Rate of Fire") and moves into cover
/// ("Armor and Cover"), and every battle ends.
#[test]
fn main_sequence_ai_uses_cover_and_multi_target_fire() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ms-corridor.ron");
    let prepared = Arc::new(
        skirmish::rules::builtin()
            .load(&path)
            .expect("the corridor scenario loads"),
    );
    let map = prepared.map.clone();
    let (mut spread, mut into_cover) = (0, 0);
    for seed in 1..=20 {
        let mut s = Session::new(prepared.clone(), seed, SessionOptions::default());
        assert!(s.run().is_some(), "seed {seed} ends");
        for e in events(&s) {
            match e {
                BattleEvent::Attack { roll, .. }
                    if roll
                        .modifiers
                        .iter()
                        .any(|m| m.label.starts_with("target 2 of")) =>
                {
                    spread += 1;
                }
                BattleEvent::Moved { path, .. } => {
                    let (q, r) = *path.last().expect("a path has hexes");
                    if map
                        .terrain(hexx::Hex::new(q, r))
                        .and_then(|t| t.cover())
                        .is_some()
                    {
                        into_cover += 1;
                    }
                }
                _ => {}
            }
        }
    }
    assert!(spread >= 20, "second targets of one roll: {spread}");
    assert!(into_cover >= 5, "moves ending in cover: {into_cover}");
}

/// Main Sequence AI (issue 6) spends Edge by its policy (main-sequence.txt, "Using Edge";
/// rules/main_sequence/edge.rs): over the three demos and twenty seeds it adds +2 before
/// rolls, re-rolls failed ones and keeps ships together, and never spends Edge it lacks
/// (every battle ends without a refused decision).
#[test]
fn main_sequence_ai_spends_edge() {
    let (mut plus_two, mut rerolls, mut held) = (0, 0, 0);
    for file in [
        "ms-corridor.ron",
        "ms-valkyrie-katath.ron",
        "ms-ship-chase.ron",
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(file);
        let prepared = Arc::new(
            skirmish::rules::builtin()
                .load(&path)
                .expect("the scenario loads"),
        );
        for seed in 1..=20 {
            let mut s = Session::new(prepared.clone(), seed, SessionOptions::default());
            assert!(s.run().is_some(), "{file} seed {seed} ends");
            for e in events(&s) {
                match e {
                    BattleEvent::ActionChosen { action, .. } if action.contains("Edge for +2") => {
                        plus_two += 1;
                    }
                    BattleEvent::Note { text, .. } if text.starts_with("re-roll (Edge)") => {
                        rerolls += 1;
                    }
                    BattleEvent::Note { text, .. }
                        if text.starts_with("the crew spend Edge: the ship holds") =>
                    {
                        held += 1;
                    }
                    BattleEvent::Rejected { reason, .. } => panic!("{file} seed {seed}: {reason}"),
                    _ => {}
                }
            }
        }
    }
    assert!(plus_two >= 5, "+2 spent: {plus_two}");
    assert!(rerolls >= 1, "Edge re-rolls: {rerolls}");
    assert!(
        held >= 1,
        "ships kept together with the crew's Edge: {held}"
    );
}

/// Every battle ends (issue 28, item 3; docs/scenario-format.md, "Victory"): the seeds that
/// ran to the 1000-round cap before end as a stalemate draw once 50 rounds pass in which
/// nobody attacks or is hurt: both ships without engines (d12), both swordsmen doing
/// nothing (GURPS), fliers and walkers that never meet again (Vergeworlds).
#[test]
fn battles_where_nothing_happens_end_as_stalemates() {
    use skirmish::battle::{DrawReason, OutcomeKind, TurnState};
    for (file, seed) in [
        ("scenarios/d12-duel.ron", 11904322950028659555),
        ("scenarios/gurps-duel.ron", 10910677949117892407),
        ("scenarios/vw-balloon-watch.ron", 1532970626886010847),
        ("scenarios/vw-sky-duel.ron", 9433897904033851029),
    ] {
        let prepared = Arc::new(
            skirmish::rules::builtin()
                .load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
                .unwrap_or_else(|e| panic!("{e}")),
        );
        let mut s = Session::new(prepared, seed, SessionOptions::default());
        let outcome = s.run();
        let round = s.world.resource::<TurnState>().round;
        assert!(
            round < 1000,
            "{file} seed {seed}: {outcome:?} in round {round}"
        );
        assert_ne!(
            outcome,
            Some(OutcomeKind::Draw {
                reason: DrawReason::RoundCap
            }),
            "{file} seed {seed}"
        );
        let log = s.log_text();
        if outcome
            == Some(OutcomeKind::Draw {
                reason: DrawReason::Stalemate,
            })
        {
            assert!(log.contains("draw, stalemate: nobody attacked"), "{file}");
            // the last 50 rounds saw no attack, damage or change of standing
            let quiet_from = round - skirmish::battle::QUIET_ROUNDS;
            let late: Vec<_> = s
                .log()
                .entries
                .iter()
                .filter(|e| e.round > quiet_from)
                .map(|e| &e.event)
                .collect();
            assert!(
                !late
                    .iter()
                    .any(|e| skirmish::battle::stalemate::is_activity(e)),
                "{file} seed {seed}"
            );
        }
    }
}

/// A battle that keeps no log (every preview battle) leaves undrawn what only a reader
/// needs, such as where starship-d12 and SOCS draw craft whose ranges are bands, and the
/// words of decisions and rolls; none of it decides anything: every shipped scenario of
/// every ruleset, over several seeds, ends with the same outcome, rounds, standings and
/// tallies with and without a log.
#[test]
fn battles_without_a_log_end_as_battles_with_one() {
    let mut files: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios"))
        .expect("scenarios")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{files:?}");
    for file in &files {
        let prepared = Arc::new(
            skirmish::rules::builtin()
                .load(file)
                .unwrap_or_else(|e| panic!("{}: {}", file.display(), e.render(false))),
        );
        let seeds = if prepared.units.len() > 12 { 1 } else { 4 };
        for seed in 0..seeds {
            let fight = |keep_log: bool| {
                let options = SessionOptions {
                    keep_log,
                    autopilot: true,
                };
                let mut s = Session::new(prepared.clone(), seed, options);
                let outcome = s.run();
                (outcome, s.summary())
            };
            assert_eq!(fight(false), fight(true), "{} seed {seed}", file.display());
        }
    }
}

//! A GURPS battle that keeps no log ([`Report::quiet`](super::Report)) is fought exactly
//! as one that keeps it; resolve takes decide's check of the AI's command only for that
//! command.

use crate::battle::{BattleEvent, HexPos, UnitId};
use crate::dice::BattleRng;
use crate::rules::gurps::Fighter;
use crate::session::{Session, SessionOptions};
use std::sync::Arc;

/// Every shipped GURPS scenario, over several seeds, fought with and without a log: the
/// same outcome, rounds, standings and tallies, the same number of dice drawn, and every
/// fighter in the same state at the same place. The logged battles show rolls and notes
/// that the quiet ones leave out.
#[test]
fn a_battle_without_a_log_is_fought_as_one_with_it() {
    let mut log_only_events = 0;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the shipped scenarios")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with("gurps-") && name.ends_with(".ron"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "the GURPS scenarios: {files:?}");
    for file in &files {
        let path = dir.join(file);
        let prepared = Arc::new(
            crate::rules::builtin()
                .load(&path)
                .unwrap_or_else(|e| panic!("{file}: {e}")),
        );
        for seed in 1..=4 {
            let fight = |keep_log: bool| {
                let options = SessionOptions {
                    keep_log,
                    autopilot: true,
                };
                let mut s = Session::new(prepared.clone(), seed, options);
                s.run();
                let mut fighters: Vec<(UnitId, String)> = s
                    .world
                    .query::<(&UnitId, &HexPos, &Fighter)>()
                    .iter(&s.world)
                    .map(|(id, pos, f)| (*id, format!("{:?} {f:?}", pos.0)))
                    .collect();
                fighters.sort_by_key(|(id, _)| *id);
                let dice = s.world.resource::<BattleRng>().count();
                let shown = s
                    .log()
                    .entries
                    .iter()
                    .filter(|e| {
                        matches!(e.event, BattleEvent::Roll { .. } | BattleEvent::Note { .. })
                    })
                    .count();
                ((s.summary(), dice, fighters), shown)
            };
            let ((summary, dice, fighters), shown) = fight(true);
            let ((quiet_summary, quiet_dice, quiet_fighters), _) = fight(false);
            assert_eq!(quiet_summary, summary, "{file}, seed {seed}");
            assert_eq!(quiet_dice, dice, "{file}, seed {seed}: dice drawn");
            assert_eq!(quiet_fighters.len(), fighters.len(), "{file}, seed {seed}");
            for (quiet, logged) in quiet_fighters.iter().zip(&fighters) {
                // Not printed: a fighter's state with its sheet is long.
                assert!(
                    quiet == logged,
                    "{file}, seed {seed}: {:?} ends apart",
                    logged.0
                );
            }
            log_only_events += shown;
        }
    }
    assert!(
        log_only_events > 0,
        "the logged battles show rolls and notes"
    );
}

/// Resolve takes the check decide made of the AI's command ([`super::CheckedCommand`])
/// only for that command: a player's command for the same unit, sent before the AI's, is
/// checked afresh. Here it moves off the map, so it is refused, and with the AI playing
/// the unit (autopilot) the unit Does Nothing instead; had resolve taken the AI's check,
/// the AI's action would have been carried out without a refusal.
#[test]
fn a_command_other_than_the_ais_is_checked_afresh() {
    use crate::battle::TurnState;
    use crate::rules::gurps::maneuver::{Action, Maneuver};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join("gurps-skirmish-3v3.ron");
    let prepared = Arc::new(crate::rules::builtin().load(&path).expect("the scenario"));
    let options = SessionOptions {
        keep_log: true,
        autopilot: false,
    };
    let mut s = Session::new(prepared, 1, options);
    // Step until a player's unit awaits its command.
    let mut active = None;
    for _ in 0..20 {
        s.step();
        active = s.world.resource::<TurnState>().awaiting;
        if active.is_some() {
            break;
        }
    }
    let active = active.expect("a player's unit awaits its command");
    s.world.write_message(crate::battle::Command {
        unit: active,
        action: Action {
            to: Some(hexx::Hex::new(40, 40)),
            ..Action::simple(Maneuver::Move)
        },
    });
    s.set_autopilot(true);
    let before = s.log().entries.len();
    s.step();
    let events: Vec<&BattleEvent> = s.log().entries[before..].iter().map(|e| &e.event).collect();
    assert!(
        events.iter().any(|e| matches!(e,
            BattleEvent::Rejected { unit, reason } if *unit == active && reason.contains("off the map"))),
        "{events:?}"
    );
    assert!(
        events.iter().any(|e| matches!(e,
            BattleEvent::ActionChosen { unit, action } if *unit == active && action.contains("refused"))),
        "{events:?}"
    );
}

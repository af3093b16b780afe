//! Tests of the Vergeworlds battle: rounds, attacks, damage, movement and flight, and each
//! demo scenario running to an outcome headless.

use super::combat::Location;
use super::fight::{Action, Attack, Fight};
use crate::battle::UnitId;
use crate::dice::Scripted;

fn fight_of(path: &str) -> Fight {
    let prepared = crate::scenario::load(std::path::Path::new(path)).expect("scenario loads");
    super::new_fight(&prepared)
}

/// "Combat Time and Pacing", "Starting Combat": AP a round from the Action Score plus 1d6
/// - 1 in the first round; the most AP acts first, paying 5 for the turn.
#[test]
fn the_first_round_gives_the_starting_pool_and_the_most_ap_acts_first() {
    let mut f = fight_of("scenarios/vw-sky-duel.ron");
    let mut events = Vec::new();
    // Shen (Action Score 2: 11 AP) rolls 6 → +5; Vance (Action Score 1: 8 AP) rolls 1 → +0.
    f.begin_round(&mut Scripted::new(&[6, 1]), &mut events);
    assert_eq!(f.state(UnitId(0)).ap, 16);
    assert_eq!(f.state(UnitId(1)).ap, 8);
    let step = f.advance(&mut Scripted::new(&[]), &mut events);
    assert_eq!(step, super::fight::Step::Awaiting(UnitId(0)));
    assert_eq!(f.state(UnitId(0)).ap, 11);
    // In the air the flier must fly first.
    assert!(f.check(UnitId(0), &Action::EndTurn).is_err());
}

/// "Attack", "Defend", "Hit Location", "Injury to the Target": a sword blow against a mook
/// with scripted dice, from the attack roll to the injury that drops it.
#[test]
fn a_blow_drops_a_mook_by_its_threshold() {
    let mut f = fight_of("scenarios/vw-sheriffs-men.ron");
    let mut events = Vec::new();
    f.begin_round(&mut Scripted::new(&[6, 1, 1, 1, 1, 1, 1]), &mut events);
    // Put Helen next to Deputy Hale and give her the turn.
    let (helen, hale) = (UnitId(0), UnitId(3));
    f.units[0].pos = f.units[3].pos + hexx::Hex::new(-1, 0);
    let step = f.advance(&mut Scripted::new(&[]), &mut events);
    assert_eq!(step, super::fight::Step::Awaiting(helen));
    let a = Attack {
        weapon: Some(0),
        target: hale,
        aim: Location::Chest,
        careful: false,
        shots: 1,
        effort: 0,
    };
    f.check(helen, &Action::Attack(a)).expect("in reach");
    // Hale (AI) defends by retreating: 2d6 = 2+2, then Helen's attack 6+6 and the open end
    // 3; goodies: DC 0 + Hale's defense 4+... The roll: Coordination 2 + Fight 3 + 12 = 17.
    // Hale's defense: 4 + Coordination 1 + Fight 1 + club Def 1 - sword Def 3 + retreat 1
    // = 5: DC 5; degree 12: chest with 8 goodies. Pen: 2d6 = 6+6 (12, capped), armor
    // bypassed (roll 1+1 < activation 3), Penetration Limit 3+3.
    let mut dice = Scripted::new(&[2, 2, 6, 6, 3, 6, 6, 1, 1, 3, 3]);
    f.apply(helen, Action::Attack(a), &mut dice, &mut events);
    assert!(f.prompt.is_none());
    assert!(!f.fighting(hale), "the deputy is down: {events:#?}");
    assert_eq!(dice.remaining(), 0);
}

/// Each demo runs to an outcome headless.
#[test]
fn every_demo_runs_to_an_outcome() {
    for path in [
        "scenarios/vw-sheriffs-men.ron",
        "scenarios/vw-warehouse-firefight.ron",
        "scenarios/vw-hoverbike-chase.ron",
        "scenarios/vw-sky-duel.ron",
    ] {
        let prepared = crate::scenario::load(std::path::Path::new(path)).expect("loads");
        let mut session =
            crate::session::Session::new(std::sync::Arc::new(prepared), 3, Default::default());
        session.set_autopilot(true);
        let mut steps = 0;
        while session.outcome().is_none() && steps < 20_000 {
            session.step();
            steps += 1;
        }
        assert!(session.outcome().is_some(), "{path} ended");
    }
}

//! Tests of the Vergeworlds battle: rounds, attacks, damage, movement and flight, and each
//! demo scenario running to an outcome headless.

use super::VwStats;
use super::combat::Location;
use super::fight::{Action, Attack, Board, Fight};
use crate::battle::{Sheet, UnitId, Units};
use crate::session::{Session, SessionOptions};
use bevy::ecs::world::World;
use std::sync::Arc;

use crate::dice::Scripted;

/// A battle's characters on their entities (the world of a new session) with the
/// [`Fight`] they share taken out of the world, so that the turn's functions can be called
/// one by one.
type Battle = Board<Fight, World>;

fn fight_of(path: &str) -> Battle {
    let prepared = crate::rules::builtin()
        .load(std::path::Path::new(path))
        .expect("scenario loads");
    let mut world = Session::new(Arc::new(prepared), 0, SessionOptions::default()).world;
    let Some(fight) = world.remove_resource::<Fight>() else {
        panic!("no Vergeworlds fight");
    };
    Board {
        fight,
        units: world,
    }
}

/// The stat block of `u`, to change for a test (its entity's own copy).
fn sheet_mut(f: &mut Battle, u: UnitId) -> &mut VwStats {
    let Some(e) = Units::<VwStats, super::fight::UnitState>::entity_of(&f.units, u) else {
        panic!("no character {u:?}");
    };
    match f.units.get_mut::<Sheet<VwStats>>(e) {
        Some(sheet) => Arc::make_mut(&mut sheet.into_inner().0),
        None => panic!("no stat block for {u:?}"),
    }
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
    let near_hale = f.state(UnitId(3)).pos + hexx::Hex::new(-1, 0);
    f.state_mut(UnitId(0)).pos = near_hale;
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
        "scenarios/vw-balloon-watch.ron",
    ] {
        let prepared = crate::rules::builtin()
            .load(std::path::Path::new(path))
            .expect("loads");
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

/// Deputy Hale (unit 3) with the turn, Helen (unit 0) waiting with 10 AP three meters away,
/// everyone else without the AP for a turn.
fn hale_walks_up_to_waiting_helen() -> Battle {
    let mut f = fight_of("scenarios/vw-sheriffs-men.ron");
    for u in f.ids() {
        f.state_mut(u).ap = 0;
    }
    f.state_mut(UnitId(0)).pos = hexx::Hex::new(-4, 0);
    f.state_mut(UnitId(0)).waiting = true;
    f.state_mut(UnitId(0)).ap = 10;
    f.state_mut(UnitId(3)).pos = hexx::Hex::new(-1, 0);
    f.state_mut(UnitId(3)).turns = 1;
    f.active = Some(UnitId(3));
    f
}

/// "Wait": the waiting character interrupts a foe that walks into reach by an opposed
/// Reaction Time task (no +2: the deputy is already in reach), takes its turn, and the
/// deputy goes on with his afterwards.
#[test]
fn a_waiting_character_interrupts_a_foe_coming_into_reach() {
    let (helen, hale) = (UnitId(0), UnitId(3));
    let mut f = hale_walks_up_to_waiting_helen();
    let mut events = Vec::new();
    // Helen 6+5 = 11 against Hale's 1+2 = 3.
    let mut dice = Scripted::new(&[6, 5, 1, 2]);
    f.apply(hale, Action::Move((-3, 0)), &mut dice, &mut events);
    assert_eq!(dice.remaining(), 0);
    assert_eq!(f.active, Some(helen), "{events:#?}");
    assert_eq!(f.interrupted, vec![hale]);
    assert!(!f.state(helen).waiting);
    assert_eq!(f.state(helen).ap, 5, "the interrupting turn costs 5 AP");
    f.apply(helen, Action::EndTurn, &mut Scripted::new(&[]), &mut events);
    let step = f.advance(&mut Scripted::new(&[]), &mut events);
    assert_eq!(step, super::fight::Step::Awaiting(hale));
    assert_eq!(f.state(hale).moved, 2, "his turn goes on where it stopped");
}

/// "Wait": losing the contest, the waiting character keeps waiting and does not try again
/// in the same turn of that foe.
#[test]
fn a_slow_interrupt_keeps_waiting() {
    let (helen, hale) = (UnitId(0), UnitId(3));
    let mut f = hale_walks_up_to_waiting_helen();
    let mut events = Vec::new();
    let mut dice = Scripted::new(&[1, 3, 6, 5]);
    f.apply(hale, Action::Move((-3, 0)), &mut dice, &mut events);
    assert_eq!(f.active, Some(hale));
    assert!(f.state(helen).waiting);
    // A second action of Hale's rolls no second contest.
    f.apply(hale, Action::Defend, &mut Scripted::new(&[]), &mut events);
    assert_eq!(f.active, Some(hale));
}

/// "Focus": a defense between the Focus and the action loses it; "Throws": a defense that
/// stops the blow opens a throw on the attacker, only for the defender.
#[test]
fn a_defense_loses_the_focus_and_opens_a_throw() {
    let (helen, hale) = (UnitId(0), UnitId(3));
    let mut f = hale_walks_up_to_waiting_helen();
    f.state_mut(UnitId(0)).waiting = false;
    f.state_mut(UnitId(0)).focus = true;
    f.state_mut(UnitId(3)).pos = hexx::Hex::new(-3, 0);
    let mut events = Vec::new();
    let club = Attack {
        weapon: Some(0),
        target: helen,
        aim: Location::Chest,
        careful: false,
        shots: 1,
        effort: 0,
    };
    f.apply(
        hale,
        Action::Attack(club),
        &mut Scripted::new(&[]),
        &mut events,
    );
    assert_eq!(f.prompt, Some(super::fight::Prompt::Defend(helen)));
    // Helen's defense 6+5 (+2 Coordination +3 Fight ...); Hale's attack 2+3.
    let mut dice = Scripted::new(&[6, 5, 2, 3]);
    f.apply(
        helen,
        Action::Defense(super::fight::DefenseKind::Normal),
        &mut dice,
        &mut events,
    );
    assert!(!f.state(helen).focus, "{events:#?}");
    assert_eq!(
        f.state(helen).defended_against,
        Some(f.entity(hale)),
        "{events:#?}"
    );
    let throw = Action::Grapple {
        target: hale,
        mode: super::fight::GrappleMode::Throw,
    };
    f.active = Some(helen);
    f.check(helen, &throw).expect("a throw is open");
    f.active = Some(UnitId(1));
    f.state_mut(UnitId(1)).pos = hexx::Hex::new(-3, 1);
    assert!(f.check(UnitId(1), &throw).is_err(), "only for the defender");
}

/// "Extra Effort": +2 Brawn needs a DC 7 Spirit roll as well as two Breath points; failing
/// it (1+2 with Spirit 0) leaves +1 (decision in the code), the two points spent.
#[test]
fn extra_effort_plus_two_needs_a_spirit_roll() {
    let (helen, hale) = (UnitId(0), UnitId(3));
    let mut f = hale_walks_up_to_waiting_helen();
    f.state_mut(UnitId(0)).waiting = false;
    f.state_mut(UnitId(3)).pos = hexx::Hex::new(-3, 0);
    f.active = Some(helen);
    let breath = f.state(helen).breath;
    let blow = Attack {
        weapon: Some(0),
        target: hale,
        aim: Location::Chest,
        careful: false,
        shots: 1,
        effort: 2,
    };
    let mut events = Vec::new();
    let mut dice = Scripted::new(&[1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]);
    f.apply(helen, Action::Attack(blow), &mut dice, &mut events);
    let spirit = events.iter().find_map(|e| match e {
        crate::battle::BattleEvent::Roll {
            purpose, result, ..
        } if purpose.contains("Spirit, DC 7") => Some(result.to_string()),
        _ => None,
    });
    assert_eq!(spirit.as_deref(), Some("only +1 Brawn"));
    assert_eq!(
        f.state(helen).breath,
        breath - 3,
        "1 for the blow, 2 for the effort"
    );
}

/// "Choke": at the start of the victim's turn a DC 2 Vigor check at the Control penalty;
/// a failure adds value of [degree] choking Fatigue, and at the Stamina (decision: the
/// "Mild Shock" level) the victim passes out.
#[test]
fn a_choke_puts_the_victim_out() {
    let (helen, hale) = (UnitId(0), UnitId(3));
    let mut f = hale_walks_up_to_waiting_helen();
    f.state_mut(UnitId(0)).waiting = false;
    f.state_mut(UnitId(0)).ap = 0;
    let (helen_e, hale_e) = (f.entity(helen), f.entity(hale));
    f.state_mut(UnitId(0)).control = vec![(hale_e, 40.0)];
    f.state_mut(UnitId(3)).choked_by = Some(helen_e);
    f.state_mut(UnitId(3)).choke = f64::from(f.sheet(hale).stamina) - 1.0;
    f.state_mut(UnitId(3)).ap = 10;
    f.active = None;
    let mut events = Vec::new();
    // Natural 2, rolling on with a 3: total 2, far under DC 2 with the Control penalty.
    let mut dice = Scripted::new(&[1, 1, 3]);
    f.advance(&mut dice, &mut events);
    assert!(!f.fighting(hale), "{events:#?}");
    assert!(f.state(hale).choke >= f64::from(f.sheet(hale).stamina));
}

/// "Pickup": a takedown that lifts the foe; one heavier than the grappler can carry cannot
/// be lifted.
#[test]
fn a_pickup_needs_a_light_enough_foe() {
    let (helen, hale) = (UnitId(0), UnitId(3));
    let mut f = hale_walks_up_to_waiting_helen();
    f.state_mut(UnitId(3)).pos = hexx::Hex::new(-3, 0);
    f.state_mut(UnitId(0)).waiting = false;
    f.active = Some(helen);
    let pickup = Action::Grapple {
        target: hale,
        mode: super::fight::GrappleMode::Pickup,
    };
    sheet_mut(&mut f, UnitId(3)).weight = 60.0;
    sheet_mut(&mut f, UnitId(0)).carry = 80.0;
    f.check(helen, &pickup).expect("light enough");
    sheet_mut(&mut f, UnitId(3)).weight = 120.0;
    let err = f.check(helen, &pickup).expect_err("too heavy");
    assert!(err.contains("more than"), "{err}");
}

/// "Retreat", "Moving while Defending": a retreat takes a step away from the melee attacker
/// (+1); off the defender's turn the step is borrowed and counts as walked on its next turn.
#[test]
fn a_retreat_steps_back_and_borrows_the_step() {
    let (helen, hale) = (UnitId(0), UnitId(3));
    let mut f = hale_walks_up_to_waiting_helen();
    f.state_mut(UnitId(0)).waiting = false;
    f.state_mut(UnitId(3)).pos = hexx::Hex::new(-3, 0);
    let mut events = Vec::new();
    let club = Attack {
        weapon: Some(0),
        target: helen,
        aim: Location::Chest,
        careful: false,
        shots: 1,
        effort: 0,
    };
    f.apply(
        hale,
        Action::Attack(club),
        &mut Scripted::new(&[]),
        &mut events,
    );
    let retreat = Action::Defense(super::fight::DefenseKind::Retreat);
    f.check(helen, &retreat).expect("room to step back");
    let before = f.state(helen).pos;
    let mut dice = Scripted::new(&[6, 5, 2, 3]);
    f.apply(helen, retreat, &mut dice, &mut events);
    let after = f.state(helen).pos;
    assert_eq!(before.unsigned_distance_to(after), 1);
    assert_eq!(after.unsigned_distance_to(f.state(hale).pos), 2);
    assert_eq!(f.state(helen).step_borrowed, 1);
}

/// "Stuck": with every hex around taken, a character cannot step: -3 to defense.
#[test]
fn surrounded_is_stuck() {
    let helen = UnitId(0);
    let mut f = hale_walks_up_to_waiting_helen();
    assert!(!f.stuck(helen));
    let around = f.state_mut(UnitId(0)).pos.all_neighbors();
    for (i, h) in (1..7).zip(around) {
        f.state_mut(UnitId(i)).pos = h;
    }
    assert!(f.stuck(helen));
    let mods = f.defense_modifiers(helen, None, super::fight::DefenseKind::Normal, false);
    assert!(mods.iter().any(|m| &*m.label == "stuck" && m.value == -3));
}

/// "Careful Aim": a shot that would miss by three degrees or less is held back (the round
/// stays in the gun, nothing flies on); a worse miss is fired and counted.
#[test]
fn careful_aim_holds_a_near_miss() {
    let (calloway, gunman) = (UnitId(0), UnitId(5));
    let (mut held, mut fired) = (0, 0);
    for a in 1..=6u32 {
        for b in 1..=6u32 {
            let mut f = fight_of("scenarios/vw-warehouse-firefight.ron");
            f.state_mut(UnitId(0)).pos = hexx::Hex::new(0, 0);
            f.state_mut(UnitId(5)).pos = hexx::Hex::new(6, 0);
            f.state_mut(UnitId(0)).turns = 1;
            // No Mana to ask about on a miss.
            f.state_mut(UnitId(0)).mana = 0;
            f.active = Some(calloway);
            let shot = Attack {
                weapon: Some(0),
                target: gunman,
                aim: Location::Chest,
                careful: true,
                shots: 1,
                effort: 0,
            };
            f.check(calloway, &Action::Attack(shot))
                .expect("a clear shot");
            let loaded = f.state(calloway).loaded[0];
            // The gunman's defense 3+3, then the attack a+b, then plenty for what follows.
            let mut faces = vec![3, 3, a, b];
            faces.extend([3; 40]);
            let mut events = Vec::new();
            f.apply(
                calloway,
                Action::Attack(shot),
                &mut Scripted::new(&faces),
                &mut events,
            );
            let margin = events.iter().find_map(|e| match e {
                crate::battle::BattleEvent::Attack { roll, .. } => roll.margin,
                _ => None,
            });
            let Some(margin) = margin else { continue };
            let note = events.iter().any(|e| {
                matches!(e, crate::battle::BattleEvent::Note { text, .. } if text.starts_with("holds the shot"))
            });
            assert_eq!(note, (-3..0).contains(&margin), "margin {margin}");
            if note {
                held += 1;
                assert_eq!(f.state(calloway).loaded[0], loaded);
            } else if margin < -3 {
                fired += 1;
                assert_eq!(f.state(calloway).loaded[0], loaded.map(|n| n - 1));
            }
        }
    }
    assert!(held > 0 && fired > 0, "held {held}, fired {fired}");
}

/// "Cramped": in a fully cramped fight a Bulk 3 sword in a Size 0 hand is at -3; with two
/// degrees of slack (a hallway) at -1.
#[test]
fn a_cramped_battlefield_penalizes_bulky_weapons() {
    let (helen, hale) = (UnitId(0), UnitId(3));
    let mut f = hale_walks_up_to_waiting_helen();
    f.state_mut(UnitId(3)).pos = hexx::Hex::new(-3, 0);
    let blow = Attack {
        weapon: Some(0),
        target: hale,
        aim: Location::Chest,
        careful: false,
        shots: 1,
        effort: 0,
    };
    let cramped = |f: &Battle| {
        f.attack_modifiers(helen, &blow)
            .0
            .iter()
            .find(|m| &*m.label == "cramped")
            .map(|m| m.value)
    };
    assert_eq!(cramped(&f), None);
    f.cramped = Some(0.0);
    assert_eq!(cramped(&f), Some(-3));
    f.cramped = Some(2.0);
    assert_eq!(cramped(&f), Some(-1));
}

/// The chance that the open-ended 2d6 attack roll the battle makes ([`crate::dice::open_ended_2d6`]
/// with `mods` against `dc`) comes to `dc` or more, counted over every sequence of dice
/// (a 12 or a 2 rolls on; runs past eight further dice are cut, a share under 1e-5).
fn rolled_chance(mods: &[crate::dice::Modifier], dc: i32) -> f64 {
    fn walk(seq: &mut Vec<u32>, mods: &[crate::dice::Modifier], dc: i32, total: &mut f64) {
        let natural = seq.first().zip(seq.get(1)).map(|(a, b)| a + b);
        let open = match natural {
            None => true,
            Some(12) => seq.len() == 2 || seq.last().is_some_and(|&f| f >= 5),
            Some(2) => seq.len() == 2 || seq.last().is_some_and(|&f| f <= 2),
            Some(_) => false,
        };
        if open && seq.len() < 10 {
            for f in 1..=6 {
                seq.push(f);
                walk(seq, mods, dc, total);
                seq.pop();
            }
            return;
        }
        let mut dice = seq.clone();
        if open {
            // Cut the run: one more die that ends it.
            dice.push(if natural == Some(12) { 1 } else { 6 });
        }
        let roll = crate::dice::open_ended_2d6(&mut Scripted::new(&dice), mods.to_vec(), Some(dc));
        if roll.total >= dc {
            *total += (1.0f64 / 6.0).powi(seq.len() as i32);
        }
    }
    let mut total = 0.0;
    walk(&mut Vec::new(), mods, dc, &mut total);
    total
}

/// The chance to hit the action panel shows for an attack ([`Board::hit_chance`]) is the
/// chance that the attack roll the battle makes, with the same modifiers and DC, reaches
/// the DC ("Attack", "Task Resolution": the open-ended 2d6): Helen's sword at Deputy
/// Hale's chest and head, careful or not.
#[test]
fn the_odds_shown_are_the_odds_rolled() {
    let mut f = fight_of("scenarios/vw-sheriffs-men.ron");
    let mut events = Vec::new();
    f.begin_round(&mut Scripted::new(&[6, 1, 1, 1, 1, 1, 1]), &mut events);
    let (helen, hale) = (UnitId(0), UnitId(3));
    let near_hale = f.state(hale).pos + hexx::Hex::new(-1, 0);
    f.state_mut(helen).pos = near_hale;
    assert_eq!(
        f.advance(&mut Scripted::new(&[]), &mut events),
        super::fight::Step::Awaiting(helen)
    );
    let mut checked = 0;
    for aim in [Location::Chest, Location::Head] {
        for careful in [false, true] {
            let a = Attack {
                weapon: Some(0),
                target: hale,
                aim,
                careful,
                shots: 1,
                effort: 0,
            };
            let shown = f.hit_chance(helen, &a);
            let (mods, dc) = f.attack_modifiers(helen, &a);
            let rolled = rolled_chance(&mods, dc);
            assert!(
                (shown - rolled).abs() < 1e-4,
                "{aim:?}, careful {careful}: shown {shown}, rolled {rolled}"
            );
            // The log shows what the DC is made of: the base, and +2 for the head
            // ("Hit Location": a peripheral location).
            let parts = f.difficulty(helen, &a);
            assert_eq!(parts.iter().map(|m| m.value).sum::<i32>(), dc);
            assert_eq!(&*parts[0].label, "base");
            let aimed = parts.iter().find(|m| &*m.label == "aimed").map(|m| m.value);
            assert_eq!(aimed, (aim == Location::Head).then_some(2));
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}

/// "Retreat" needs a hex to step back into (issue 26 item 10): the AI retreats from a club
/// when it can, and defends plainly when every hex behind it is taken, as a player must.
#[test]
fn the_ai_retreats_only_into_a_free_hex() {
    use super::fight::DefenseKind;
    let (helen, hale) = (UnitId(0), UnitId(3));
    let mut f = hale_walks_up_to_waiting_helen();
    f.state_mut(hale).pos = hexx::Hex::new(-3, 0);
    assert_eq!(
        super::ai::defense(&f, helen, hale, Some(0)),
        DefenseKind::Retreat
    );
    let here = f.state(helen).pos;
    let others = [1, 2, 4, 5, 6].map(UnitId);
    let free = here
        .all_neighbors()
        .into_iter()
        .filter(|&h| h != hexx::Hex::new(-3, 0));
    for (u, h) in others.into_iter().zip(free) {
        f.state_mut(u).pos = h;
    }
    assert!(f.stuck(helen));
    assert_eq!(
        super::ai::defense(&f, helen, hale, Some(0)),
        DefenseKind::Normal
    );
}

/// "Attitude" is chosen at the start of a turn, and an action borrowed by an extra defense
/// ("Multiple Defenses") counts on that turn without taking the choice away (issue 26 item
/// 11); once the character acts, the attitude is settled.
#[test]
fn a_borrowed_defense_leaves_the_attitude_choice() {
    let helen = UnitId(0);
    let mut f = hale_walks_up_to_waiting_helen();
    f.active = None;
    f.state_mut(helen).waiting = false;
    f.state_mut(helen).borrowed = 1;
    f.state_mut(helen).step_borrowed = 1;
    let mut events = Vec::new();
    let step = f.advance(&mut Scripted::new(&[]), &mut events);
    assert_eq!(step, super::fight::Step::Awaiting(helen), "{events:#?}");
    assert_eq!(f.state(helen).actions, 1, "the borrowed action counts");
    let cautious = Action::Attitude(super::combat::Attitude::Cautious);
    f.check(helen, &cautious)
        .expect("the attitude is still open");
    f.state_mut(helen).actions = 2;
    assert!(
        f.check(helen, &cautious).is_err(),
        "after an action it is settled"
    );
}

/// The facings the systems remember ([`super::systems::Facings`]) are those worked out
/// afresh, every character against every fighting foe, as characters move, go down and
/// get up again, and after steps that change nothing.
#[test]
fn remembered_facings_equal_facings_worked_out_afresh() {
    use super::injury::Hurt;
    let mut f = fight_of("scenarios/vw-warehouse-firefight.ron");
    let mut facings = super::systems::Facings::default();
    let mut seed = 12345u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) % n) as i32
    };
    let ids: Vec<UnitId> = f.ids().collect();
    for step in 0..2000 {
        if step % 3 != 0 {
            let u = ids[next(ids.len() as u64) as usize];
            let s = f.state_mut(u);
            s.pos = hexx::Hex::new(next(12) - 2, next(8));
            s.hurt = match next(5) {
                0 => Hurt::Down,
                _ => Hurt::Fighting,
            };
        }
        let fresh: Vec<Option<hexx::EdgeDirection>> = ids
            .iter()
            .map(|&u| {
                let at = f.state(u).pos;
                f.ids()
                    .filter(|&x| f.fighting(x) && f.side(x) != f.side(u))
                    .map(|x| f.state(x).pos)
                    .filter(|&h| h != at)
                    .min_by_key(|h| (h.unsigned_distance_to(at), h.x, h.y))
                    .map(|h| at.main_direction_to(h))
            })
            .collect();
        assert_eq!(facings.of(&f), fresh.as_slice(), "step {step}");
    }
}

/// The altitude the map shows ([`super::systems::shown_altitude`]) is the altitude rounded,
/// as before the ground was answered without rounding: at 0, -0, halves and in between.
#[test]
fn the_shown_altitude_is_the_altitude_rounded() {
    let mut alts = vec![0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1e9, -1e9, f64::NAN];
    alts.extend((-4000..=4000).map(|i| f64::from(i) * 0.0625));
    alts.extend((0..2000).map(|i| (f64::from(i) * 0.731).sin() * 300.0));
    for alt in alts {
        assert_eq!(
            super::systems::shown_altitude(alt),
            alt.round() as i32,
            "{alt}"
        );
    }
}

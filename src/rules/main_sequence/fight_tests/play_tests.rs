//! More rules of play through the [`Fight`] with scripted dice (main-sequence.txt):
//! character creation, the way through the fallen, ducking and leaping, shields, ground
//! chases, double attacks, Edge and tags, ships' sweeps and systems, refused decisions.

use super::*;

/// "Character Creation": ten attribute points, 1 to 6 each, six skill ranks, nothing
/// above Advanced, three tags; an NPC may break them.
#[test]
fn scenarios_check_the_creation_rules() {
    let bad = r#"soldier: 6, agent: 4, tech: 2, skills: {"Ranged": Master, "Juggling": Basic}, tags: [Tough, Lucky, Nimble, Nimble]"#;
    let text = scenario(
        "",
        "",
        &format!(
            r#"(name: "A", side: "a", at: (0, 0), stats: MainSequence(Character({bad}))),
            (name: "B", side: "b", at: (1, 0), stats: MainSequence(Character({bad}, npc: true)))"#
        ),
    );
    let errors = crate::rules::builtin()
        .parse("test.ron", &text)
        .err()
        .map(|e| e.to_string());
    let text = errors.unwrap_or_default();
    assert!(text.contains("attributes add up to 12"), "{text}");
    assert!(text.contains("at most Advanced"), "{text}");
    assert!(text.contains("unknown skill `Juggling`"), "{text}");
    assert!(text.contains("4 tags"), "{text}");
    assert!(
        !text.contains("units[1]") || text.matches("units[1]").count() == 1,
        "{text}"
    );
}

/// Two characters `a` (side a) and `b` (side b) at the given hexes.
fn pair(
    a: &str,
    at_a: (i32, i32),
    b: &str,
    at_b: (i32, i32),
    config: &str,
    map: &str,
) -> (Battle, HexMap) {
    fight_of(&scenario(
        config,
        map,
        &format!(
            r#"(name: "A", side: "a", at: {at_a:?}, stats: MainSequence(Character({a}))),
            (name: "B", side: "b", at: {at_b:?}, stats: MainSequence(Character({b})))"#
        ),
    ))
}

/// "Combat Actions", Movement, on our hex map (docs/rules-decisions.md): a unit still
/// fighting blocks the way; a fallen one does not, and may be stood over. A line of the
/// fallen across a field once walled armies off until the stalemate rule drew the battle.
#[test]
fn the_fallen_do_not_block_the_way() {
    let plain = "soldier: 3, agent: 3, tech: 4";
    let (mut f, map) = fight_of(&scenario(
        "bands: (melee: 1, close: 3, medium: 6, long: 10)",
        "",
        &format!(
            r#"(name: "A", side: "a", at: (0, 0), stats: MainSequence(Character({plain}))),
            (name: "B", side: "b", at: (1, 0), stats: MainSequence(Character({plain}))),
            (name: "C", side: "b", at: (9, 0), stats: MainSequence(Character({plain})))"#
        ),
    ));
    let (a, b) = (UnitId(0), UnitId(1));
    // B standing: A goes round it (3 hexes to (2, 0)), and may not stop on it.
    assert_eq!(f.move_path(&map, a, Hex::new(1, 0)), None);
    let round = f.move_path(&map, a, Hex::new(2, 0)).expect("a way round");
    assert!(!round.contains(&Hex::new(1, 0)), "{round:?}");
    assert_eq!(f.blockers(a), vec![Hex::new(1, 0), Hex::new(9, 0)]);
    for fallen in [
        Condition::Dead,
        Condition::KnockedOut,
        Condition::Stabilized,
        Condition::Dying {
            rounds: 3,
            attempts: 0,
        },
    ] {
        f.state_mut(b).condition = fallen;
        assert_eq!(f.blockers(a), vec![Hex::new(9, 0)], "{fallen:?}");
        assert_eq!(
            f.move_path(&map, a, Hex::new(2, 0)),
            Some(vec![Hex::new(0, 0), Hex::new(1, 0), Hex::new(2, 0)]),
            "straight over the fallen ({fallen:?})"
        );
        assert!(f.move_path(&map, a, Hex::new(1, 0)).is_some());
    }
}

/// "Combat Actions", Movement: the move may be a duck, with an Acrobatics roll (Agent,
/// "Skills" table) against Routine DL 7 ("Unopposed Checks"; our decision
/// `MOVE_STUNT_DL`); a duck that works adds one degree of cover ("Armor and Cover":
/// open +0 becomes partial +2) against ranged attacks until the ducker's next turn.
#[test]
fn a_duck_raises_cover_until_the_next_turn() {
    let shooter =
        r#"soldier: 4, agent: 4, tech: 2, skills: {"Ranged": Basic}, weapons: ["Light Pistol"]"#;
    let ducker = r#"soldier: 3, agent: 3, tech: 4, skills: {"Acrobatics": Basic}"#;
    let (mut f, map) = pair(shooter, (0, 0), ducker, (5, 0), "", "");
    let pistol = f.sheet(UnitId(0)).weapons()[0].clone();
    let b = UnitId(1);
    let mut ev = Vec::new();
    // B first (A 1, B 6 + 1).
    round(&mut f, &[1, 6, 1], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(b));
    // 1 + 3 + 2 = 6 misses DL 7.
    let mut d = Scripted::new(&[1]);
    play(
        &mut f,
        &map,
        1,
        Action::Duck { plus_two: false },
        &mut d,
        &mut ev,
    );
    decline(&mut f, &map, &mut ev);
    assert!(!f.state(b).ducked);
    assert_eq!(
        f.check(&map, b, &Action::Duck { plus_two: false })
            .map_err(|e| e.contains("already moved")),
        Err(true),
        "a duck is the move"
    );
    f.turn = None;
    round(&mut f, &[1, 6, 1], &mut ev);
    f.advance(&mut ev);
    // 2 + 3 + 2 = 7 meets DL 7.
    let mut d = Scripted::new(&[2]);
    play(
        &mut f,
        &map,
        1,
        Action::Duck { plus_two: false },
        &mut d,
        &mut ev,
    );
    assert!(f.state(b).ducked);
    assert_eq!(f.cover(&map, Hex::new(0, 0), b, &pistol), Cover::Partial);
    play(&mut f, &map, 1, Action::EndTurn, &mut d, &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(0)));
    let mut d = Scripted::new(&[1]);
    let shot = Action::Attack {
        weapon: 0,
        rof: RateOfFire::SemiAuto,
        targets: vec![b],
        plus_two: false,
        excellent: false,
    };
    play(&mut f, &map, 0, shot, &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    decline(&mut f, &map, &mut ev);
    let target = attacks(&ev).last().map(|a| a.2);
    assert_eq!(
        target,
        Some(f.defense(b) + 2),
        "Defense + 2 for partial cover"
    );
    // B's next turn: the duck is over.
    f.turn = None;
    f.attack = None;
    f.prompt = None;
    round(&mut f, &[1, 6, 1], &mut ev);
    f.advance(&mut ev);
    assert!(!f.state(b).ducked);
    assert_eq!(f.cover(&map, Hex::new(0, 0), b, &pistol), Cover::None);
    // A duck behind half cover gives near total cover.
    assert_eq!(Cover::Half.raised(), Cover::NearTotal);
    assert_eq!(Cover::NearTotal.raised(), Cover::NearTotal);
}

/// "Combat Actions", Movement: the move may be a leap or roll, with an Athletics roll
/// (Soldier, "Skills" table) against DL 7: difficult ground counts as open, and a
/// failed leap stops before the first difficult hex (our decision).
#[test]
fn a_leap_crosses_difficult_ground_or_stops_short() {
    let runner = r#"soldier: 3, agent: 4, tech: 3, skills: {"Athletics": Basic}"#;
    let foe = r#"soldier: 3, agent: 3, tech: 4"#;
    let setup = || {
        pair(
            runner,
            (0, 0),
            foe,
            (9, 0),
            "bands: (melee: 1, close: 3, medium: 6, long: 10)",
            ", terrain: {(2, 0): Difficult}",
        )
    };
    let a = UnitId(0);
    for (die, end) in [(2, (3, 0)), (1, (1, 0))] {
        let (mut f, map) = setup();
        let mut ev = Vec::new();
        round(&mut f, &[6, 1, 1], &mut ev);
        assert_eq!(f.advance(&mut ev), Step::Awaiting(a));
        // A plain move costs 1 + 2 + 1 = 4 hexes of the 3 a Close band allows.
        assert!(f.move_path(&map, a, Hex::new(3, 0)).is_none());
        assert!(
            f.check(
                &map,
                a,
                &Action::Leap {
                    to: (1, 0),
                    plus_two: false
                }
            )
            .is_err(),
            "no leap needed on open ground"
        );
        let mut d = Scripted::new(&[die]);
        play(
            &mut f,
            &map,
            0,
            Action::Leap {
                to: (3, 0),
                plus_two: false,
            },
            &mut d,
            &mut ev,
        );
        if f.prompt.is_some() {
            decline(&mut f, &map, &mut ev);
        }
        let p = f.state(a).pos;
        assert_eq!((p.x, p.y), end, "die {die}: 3 + 2 + {die} against 7");
        assert!(f.turn.is_some_and(|t| t.moved));
    }
}

/// "Ship Tags", Shields: the shields can be boosted to 75% of full charge once a
/// session (here: a battle): 10 shield points boost to 7 (rounded down).
#[test]
fn shields_boost_once_to_three_quarters() {
    assert_eq!(super::super::ships::boosted_shields(10), 7);
    assert_eq!(super::super::ships::boosted_shields(15), 11);
    let text = scenario(
        "bands: (melee: 1, close: 2, medium: 4, long: 7)",
        "",
        &format!(
            r#"(name: "Valkyrie", side: "a", at: (0, 0), stats: MainSequence(Ship(
    tactical: 5, propulsion: 3, sensors: 3, tonnage: 3, tags: [Shields],
    crew: [(name: "Tryder", station: Sensors, stats: (soldier: 4, agent: 4, tech: 3, npc: true))]))),
    {}"#,
            katath("")
        ),
    );
    let (mut f, map) = fight_of(&text);
    let v = UnitId(0);
    assert_eq!(f.state(v).shields, 10);
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 6, 1, 6, 1, 1], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(v));
    assert!(
        f.check(&map, v, &Action::BoostShields).is_err(),
        "full shields need no boost"
    );
    f.state_mut(UnitId(0)).shields = 2;
    let mut d = Scripted::new(&[]);
    play(&mut f, &map, 0, Action::BoostShields, &mut d, &mut ev);
    assert_eq!(f.state(v).shields, 7);
    assert!(f.turn.is_some_and(|t| t.acted), "the boost is the action");
    f.state_mut(UnitId(0)).shields = 0;
    f.turn = None;
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    assert_eq!(
        f.check(&map, v, &Action::BoostShields)
            .map_err(|e| e.contains("once")),
        Err(true)
    );
}

/// "Chase Rules": a driver of a ground vehicle rolls Agent + Vehicle, a runner Soldier +
/// Athletics, and the obviously faster one adds its bonus (+4 for a speeding car against
/// a man): 3 + 4 + 2 + 4 = 13 against 2 + 3 + 4 = 9 is -4 for the quarry: the gap closes
/// by one band, Medium to Close.
#[test]
fn a_ground_vehicle_chase_rolls_agent_and_vehicle() {
    let driver = r#"soldier: 2, agent: 4, tech: 4, skills: {"Vehicle (Hover bike)": Basic}"#;
    let runner = r#"soldier: 3, agent: 3, tech: 4, skills: {"Athletics": Advanced}"#;
    let (mut f, _) = pair(
        driver,
        (0, 0),
        runner,
        (10, 0),
        r#"chase: (pursuer: "A", quarry: "B", start: Medium, pursuer_bonus: 4, pursuer_vehicle: Some("Hover bike"))"#,
        "",
    );
    let mut ev = Vec::new();
    round(&mut f, &[3, 2, 1, 1], &mut ev);
    let chase: Vec<(i32, Vec<String>)> = ev
        .iter()
        .filter_map(|e| match e {
            BattleEvent::Roll { roll, purpose, .. } if purpose == "the chase" => Some((
                roll.total,
                roll.modifiers.iter().map(|m| m.label.to_string()).collect(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        chase,
        vec![
            (
                13,
                vec![
                    "Agent".into(),
                    "Vehicle (Hover bike) (Basic)".into(),
                    "speed".into()
                ]
            ),
            (9, vec!["Soldier".into(), "Athletics".into()]),
        ]
    );
    assert_eq!(f.chase.as_ref().map(|c| c.band), Some(Band::Close));
    // A ship's pilot rolls with the ship: a vehicle named for a ship is an error; and a
    // chase is between two ships or two characters.
    let bad = scenario(
        r#"chase: (pursuer: "Katath", quarry: "Valkyrie", start: Long, quarry_vehicle: Some("Car"))"#,
        "",
        &format!("{VALKYRIE}, {}", katath("")),
    );
    let err = format!(
        "{:?}",
        crate::rules::builtin().parse("test.ron", &bad).err()
    );
    assert!(err.contains("Valkyrie is a ship"), "{err}");
    let mixed = scenario(
        r#"chase: (pursuer: "Hound", quarry: "Valkyrie", start: Long)"#,
        "",
        &format!(
            r#"{VALKYRIE}, (name: "Hound", side: "b", at: (3, 0), stats: MainSequence(Character(soldier: 3, agent: 3, tech: 4)))"#
        ),
    );
    let err = format!(
        "{:?}",
        crate::rules::builtin().parse("test.ron", &mixed).err()
    );
    assert!(err.contains("not at the same scale"), "{err}");
}

/// "Tags": Double Attack (with Dual-Wielding) gives a second attack in the action at the
/// price of the free parry of Dual-Wielding.
#[test]
fn double_attack_trades_the_free_parry_for_a_second_blow() {
    let twin = r#"soldier: 4, agent: 4, tech: 2, skills: {"Melee": Advanced}, weapons: ["1H Edged", "1H Edged"], tags: [DualWielding, DoubleAttack]"#;
    let foe = r#"soldier: 4, agent: 4, tech: 2, skills: {"Melee": Basic}, weapons: ["1H Edged"], npc: true, hp: 60"#;
    let (mut f, map) = duel(twin, foe, "");
    let a = UnitId(0);
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    assert_eq!(f.turn.map(|t| t.attacks_left), Some(2));
    let mut d = Scripted::new(&[3]);
    play(&mut f, &map, 0, swing(vec![UnitId(1)]), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    if f.prompt == Some(Prompt::Reroll) {
        play(&mut f, &map, 0, Action::Reroll(None), &mut d, &mut ev);
    }
    assert!(!f.state(a).free_parry_used, "one blow keeps the free parry");
    assert!(
        f.check(&map, a, &swing(vec![UnitId(1)])).is_ok(),
        "a second blow"
    );
    let mut d = Scripted::new(&[3]);
    play(&mut f, &map, 0, swing(vec![UnitId(1)]), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    if f.prompt == Some(Prompt::Reroll) {
        play(&mut f, &map, 0, Action::Reroll(None), &mut d, &mut ev);
    }
    assert_eq!(attacks(&ev).len(), 2);
    assert!(f.state(a).free_parry_used, "the second blow spends it");
    assert!(
        f.check(&map, a, &swing(vec![UnitId(1)])).is_err(),
        "no third"
    );
    play(&mut f, &map, 0, Action::EndTurn, &mut d, &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(1)));
    let mut d = Scripted::new(&[]);
    play(&mut f, &map, 1, swing(vec![a]), &mut d, &mut ev);
    assert!(!f.defenses_open(0).contains(&Defense::FreeParry));
    assert!(f.defenses_open(0).contains(&Defense::Parry));
}

/// Character tags (under the text's first "Ship Tags" heading): Defensive Driver adds the
/// pilot's Awareness skill bonus to the vehicle's Defense ("Ship Attributes": Defense);
/// without an able pilot it is gone.
#[test]
fn defensive_driver_adds_awareness_to_the_ship() {
    let text = scenario(
        "",
        "",
        &format!(
            r#"{VALKYRIE}, (name: "Dart", side: "b", at: (3, 0), stats: MainSequence(Ship(
            tactical: 1, propulsion: 3, sensors: 1, tonnage: 1,
            crew: [(name: "Ace", station: Pilot, stats: (soldier: 2, agent: 4, tech: 4,
                skills: {{"Awareness": Advanced}}, tags: [DefensiveDriver]))])))"#
        ),
    );
    let (mut f, _) = fight_of(&text);
    let dart = UnitId(1);
    let MsSheet::Ship(s) = f.sheet(dart).clone() else {
        panic!("a ship")
    };
    assert_eq!(
        f.defense(dart),
        s.attrs.defense() + 4,
        "Advanced Awareness +4"
    );
    f.state_mut(UnitId(1)).crew[0].hp = 0;
    assert_eq!(f.defense(dart), s.attrs.defense());
}

/// "Weapons, Armor & Gear", note *: a flash-bang blinds everyone within Close of the
/// target for two rounds unless they dodge it: the dodger whose roll the attack does not
/// beat keeps its eyes; one who stood there is blinded for its next two turns (no attack:
/// the fight.rs decision) even though the blast hit it for bashing damage.
#[test]
fn a_flash_bang_blinds_who_does_not_dodge() {
    let text = scenario(
        "bands: (melee: 1, close: 3, medium: 10, long: 20)",
        "",
        r#"(name: "Thrower", side: "a", at: (3, 0), stats: MainSequence(Character(
            soldier: 4, agent: 4, tech: 2, skills: {"Athletics": Advanced}, weapons: ["Flash-bang"],
            npc: true, edge: 0))),
        (name: "Dodger", side: "b", at: (5, 0), stats: MainSequence(Character(soldier: 2, agent: 3, tech: 6,
            skills: {"Acrobatics": Advanced}, weapons: ["Light Pistol"], npc: true, edge: 0, hp: 40))),
        (name: "Stander", side: "b", at: (6, 0), stats: MainSequence(Character(soldier: 3, agent: 3, tech: 4,
            weapons: ["Light Pistol"], npc: true, edge: 0, hp: 40)))"#,
    );
    let (mut f, map) = fight_of(&text);
    let (thrower, dodger, stander) = (UnitId(0), UnitId(1), UnitId(2));
    let mut ev = Vec::new();
    // Initiative: Thrower 6 1 + 3 = 9, Dodger 1 + 4, Stander 1 + 3.
    round(&mut f, &[6, 1, 1, 1], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(thrower));
    let mut d = Scripted::new(&[2, 3]);
    play(&mut f, &map, 0, swing(vec![dodger]), &mut d, &mut ev);
    assert_eq!(
        f.defenses_open(0),
        vec![Defense::Dodge],
        "no melee weapon: no parry"
    );
    play(
        &mut f,
        &map,
        1,
        Action::Defend(Some(Defense::Dodge)),
        &mut d,
        &mut ev,
    );
    play(&mut f, &map, 2, Action::Defend(None), &mut d, &mut ev);
    // Dodge against a thrown weapon (ranged): 2 + Tech 6 + Acrobatics 4 = 12. The throw:
    // 3 + Combat Rating 4 + Athletics 4 = 11: misses the dodger, hits the stander's
    // Defense 7 for 5 + 4 = 9 bashing.
    assert_eq!(
        attacks(&ev),
        vec![
            (1, 11, 12, AttackResult::Defended),
            (2, 11, 7, AttackResult::Hit)
        ]
    );
    assert_eq!(f.state(dodger).blind, 0, "dodged");
    assert_eq!(f.state(stander).blind, 2);
    assert_eq!(f.state(stander).hp, 31);
    // The stander loses its next two turns' attacks, then sees again.
    let shot = Action::Attack {
        weapon: 0,
        rof: RateOfFire::SemiAuto,
        targets: vec![thrower],
        plus_two: false,
        excellent: false,
    };
    let mut blinded_turns = Vec::new();
    for _ in 0..12 {
        match f.advance(&mut ev) {
            Step::Awaiting(u) if u == stander => {
                let refused = f
                    .check(&map, u, &shot)
                    .is_err_and(|e| e.contains("blinded"));
                blinded_turns.push(refused);
                if !refused {
                    break;
                }
                play(&mut f, &map, 2, Action::EndTurn, &mut d, &mut ev);
            }
            Step::Awaiting(u) => play(&mut f, &map, u.0, Action::EndTurn, &mut d, &mut ev),
            Step::RoundOver => round(&mut f, &[1, 1, 1], &mut ev),
        }
    }
    assert_eq!(blinded_turns, vec![true, true, false]);
}

/// "Using Edge": +2 to a single check before the die is rolled, and a re-roll of a single
/// die after it, the better kept, for a parry too ("Combat Actions": the parry roll is
/// the Defense). The attack 4 + 8 = 12 beats the parry 1 + 4 + 2 + 2 (Edge) = 9; the
/// re-rolled 5 makes it 13 and the blow is parried.
#[test]
fn edge_helps_a_parry_before_and_after_the_roll() {
    let parrier =
        r#"soldier: 4, agent: 4, tech: 2, skills: {"Melee": Basic}, weapons: ["1H Edged"]"#;
    let (mut f, map) = duel(FIGHTER, parrier, "");
    let b = UnitId(1);
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(0)));
    let mut d = Scripted::new(&[1, 4, 5]);
    play(&mut f, &map, 0, swing(vec![b]), &mut d, &mut ev);
    assert_eq!(f.defenses_open(0), vec![Defense::Parry, Defense::Dodge]);
    play(
        &mut f,
        &map,
        1,
        Action::DefendWithEdge(Defense::Parry),
        &mut d,
        &mut ev,
    );
    assert_eq!(f.prompt, Some(Prompt::RerollDefense(0)));
    assert_eq!(f.awaiting(), Some(b));
    play(
        &mut f,
        &map,
        1,
        Action::Reroll(Some(Reroll::Edge)),
        &mut d,
        &mut ev,
    );
    assert_eq!(d.remaining(), 0);
    assert_eq!(attacks(&ev), vec![(1, 12, 13, AttackResult::Defended)]);
    assert_eq!(f.state(b).edge, 1, "one point for +2, one for the re-roll");
    let parry = ev.iter().find_map(|e| match e {
        BattleEvent::Attack { defenses, .. } => Some(defenses[0].roll.clone()),
        _ => None,
    });
    assert!(parry.is_some_and(|r| {
        r.modifiers
            .iter()
            .any(|m| &*m.label == "Edge" && m.value == 2)
    }));
}

/// "Using Edge" on first aid ("Knockout and Death": Knowledge (Medicine) at DL 9): +2
/// chosen with the action, 1 + 5 + 2 = 8 fails; the Edge re-roll 3 + 7 = 10 saves him.
#[test]
fn edge_helps_first_aid() {
    let text = scenario(
        "",
        "",
        r#"(name: "Medic", side: "a", at: (0, 0), stats: MainSequence(Character(
            soldier: 2, agent: 3, tech: 5))),
        (name: "Hurt", side: "a", at: (1, 0), stats: MainSequence(Character(
            soldier: 4, agent: 3, tech: 3))),
        (name: "Foe", side: "b", at: (9, 0), stats: MainSequence(Character(
            soldier: 3, agent: 3, tech: 3, npc: true)))"#,
    );
    let (mut f, map) = fight_of(&text);
    f.state_mut(UnitId(1)).condition = Condition::Dying {
        rounds: 4,
        attempts: 0,
    };
    f.state_mut(UnitId(1)).hp = 0;
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(0)));
    let mut d = Scripted::new(&[1, 3]);
    play(
        &mut f,
        &map,
        0,
        Action::Stabilize {
            patient: UnitId(1),
            plus_two: true,
        },
        &mut d,
        &mut ev,
    );
    assert_eq!(f.prompt, Some(Prompt::RerollCheck));
    play(
        &mut f,
        &map,
        0,
        Action::Reroll(Some(Reroll::Edge)),
        &mut d,
        &mut ev,
    );
    assert_eq!(f.state(UnitId(1)).condition, Condition::Stabilized);
    assert_eq!(f.state(UnitId(0)).edge, 1);
    let kept = ev.iter().find_map(|e| match e {
        BattleEvent::Roll { roll, purpose, .. } if purpose.starts_with("stabilize") => {
            Some((roll.total, roll.target))
        }
        _ => None,
    });
    assert_eq!(kept, Some((10, Some(9))));
}

/// "Chase Rules": the chase starts at the band of the starting positions (8 hexes: Close
/// with the default bands); the loser of the contest may re-roll with Lucky ("Ship Tags",
/// the character tags); at Melee the quarry is caught, the chase is over and the pursuer
/// "can attempt to capture" it: the two fight on side by side.
#[test]
fn a_caught_quarry_fights_on_beside_its_pursuer() {
    let chaser =
        r#"soldier: 4, agent: 3, tech: 3, skills: {"Athletics": Advanced}, npc: true, edge: 0"#;
    let runner = r#"soldier: 3, agent: 4, tech: 3, skills: {"Athletics": Basic}, tags: [Lucky], npc: true, edge: 0"#;
    let (mut f, map) = pair(
        runner,
        (8, 0),
        chaser,
        (0, 0),
        r#"chase: (pursuer: "B", quarry: "A")"#,
        "",
    );
    assert_eq!(f.chase.as_ref().map(|c| c.band), Some(Band::Close));
    let far = pair(
        runner,
        (10, 0),
        chaser,
        (-10, 0),
        r#"bands: (melee: 1, close: 3, medium: 8, long: 15), chase: (pursuer: "B", quarry: "A")"#,
        "",
    );
    assert_eq!(far.0.chase.as_ref().map(|c| c.band), Some(Band::Far));
    let mut ev = Vec::new();
    // Pursuer 5 + 8 = 13, quarry 1 + 5 = 6: -7 would catch it at once.
    let mut d = Scripted::new(&[5, 1]);
    f.begin_round(&map, &mut d, &mut ev);
    assert_eq!(f.prompt, Some(Prompt::RerollCheck));
    assert_eq!(f.awaiting(), Some(UnitId(0)), "the quarry lost the roll");
    // Lucky: 4 + 5 = 9, -4: the gap closes one band, Close to Melee: caught.
    let mut d = Scripted::new(&[4, 1, 1]);
    play(
        &mut f,
        &map,
        0,
        Action::Reroll(Some(Reroll::Lucky)),
        &mut d,
        &mut ev,
    );
    assert_eq!(d.remaining(), 0);
    assert!(f.chase.is_none(), "the chase is over");
    assert_eq!(f.state(UnitId(0)).condition, Condition::Fighting);
    assert_eq!(
        f.state(UnitId(0))
            .pos
            .unsigned_distance_to(f.state(UnitId(1)).pos),
        1
    );
    assert_eq!(f.band(UnitId(0), UnitId(1)), Band::Melee);
    assert!(f.state(UnitId(0)).lucky_used);
    assert!(
        ev.iter().any(
            |e| matches!(e, BattleEvent::Note { text, .. } if text.contains("caught at Melee"))
        )
    );
}

/// "Using Edge": +2 before a single check, asked before a round's chase roll: the pursuer
/// spends a point and its roll carries the +2.
#[test]
fn edge_adds_two_to_a_chase_roll_when_asked() {
    let chaser = r#"soldier: 4, agent: 3, tech: 3, skills: {"Athletics": Advanced}"#;
    let runner =
        r#"soldier: 3, agent: 4, tech: 3, skills: {"Athletics": Basic}, npc: true, edge: 0"#;
    let (mut f, map) = pair(
        runner,
        (8, 0),
        chaser,
        (0, 0),
        r#"chase: (pursuer: "B", quarry: "A", start: Medium)"#,
        "",
    );
    let mut ev = Vec::new();
    let mut d = Scripted::new(&[]);
    f.begin_round(&map, &mut d, &mut ev);
    assert_eq!(f.prompt, Some(Prompt::Boost));
    assert_eq!(f.awaiting(), Some(UnitId(1)));
    // 3 + 8 + 2 = 13 against 3 + 5 = 8: -5, two bands closer: Medium to Melee, caught.
    let mut d = Scripted::new(&[3, 3, 1, 1]);
    play(&mut f, &map, 1, Action::PlusTwo(true), &mut d, &mut ev);
    assert_eq!(d.remaining(), 0);
    assert_eq!(f.state(UnitId(1)).edge, 2);
    let rolls: Vec<i32> = ev
        .iter()
        .filter_map(|e| match e {
            BattleEvent::Roll { roll, purpose, .. } if purpose == "the chase" => Some(roll.total),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, vec![13, 8]);
    assert!(f.chase.is_none());
}

/// "Ship Tags": Double Attack (two tags) gives two attacks in the attack action; Lucky
/// Boat re-rolls a failed roll with the ship's systems once a scene; Nimble Ship is the
/// pilot's dodge, gone without an able pilot. The Raptor fires at 1d6 + Combat Rating 3 +
/// Gunnery 2 + Tactical 3 against the Moth's Defense 1 + 4 + 6 = 11.
#[test]
fn ship_tags_in_play() {
    let text = scenario(
        "",
        "",
        r#"(name: "Raptor", side: "a", at: (0, 0), stats: MainSequence(Ship(
            tactical: 3, propulsion: 3, sensors: 1, tonnage: 1,
            tags: [DoubleAttack, DoubleAttack, LuckyBoat], npc: true,
            crew: [(name: "Gun", station: Gunner, stats: (soldier: 3, agent: 3, tech: 4,
                skills: {"Gunnery": Basic}, npc: true, edge: 0))]))),
        (name: "Moth", side: "b", at: (3, 0), stats: MainSequence(Ship(
            tactical: 1, propulsion: 4, sensors: 1, tonnage: 8, tags: [NimbleShip], npc: true,
            crew: [(name: "Ace", station: Pilot, stats: (soldier: 3, agent: 3, tech: 4, npc: true, edge: 0))])))"#,
    );
    let (mut f, map) = fight_of(&text);
    for u in 0..2 {
        f.state_mut(UnitId(u)).seen_by = vec![true; 2];
    }
    let (raptor, moth) = (UnitId(0), UnitId(1));
    assert_eq!(f.defense(moth), 11);
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(raptor));
    assert_eq!(f.turn.map(|t| t.attacks_left), Some(2), "Double Attack");
    let laser = swing(vec![moth]);
    let mut d = Scripted::new(&[3, 6, 2]);
    play(&mut f, &map, 0, laser.clone(), &mut d, &mut ev);
    assert_eq!(
        f.defenses_open(0),
        vec![Defense::Nimble],
        "the pilot's dodge"
    );
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    // 3 + 8 = 11 hits: 3 damage.
    assert_eq!(attacks(&ev), vec![(1, 11, 11, AttackResult::Hit)]);
    assert!(f.check(&map, raptor, &laser).is_ok(), "a second attack");
    f.state_mut(UnitId(1)).crew[0].hp = 0;
    play(&mut f, &map, 0, laser.clone(), &mut d, &mut ev);
    // No able pilot: no Nimble Ship, nothing to ask; 6 2 + 8 = 15 hits.
    assert_eq!(attacks(&ev).last(), Some(&(1, 15, 11, AttackResult::Hit)));
    assert!(f.check(&map, raptor, &laser).is_err(), "no third attack");
    assert_eq!(d.remaining(), 0);
    // Lucky Boat: the missed shot (1 + 8 = 9) is re-rolled (5 + 8 = 13) once a scene; the
    // next miss is kept.
    f.state_mut(UnitId(1)).crew[0].hp = 3;
    f.turn = None;
    round(&mut f, &[6, 1, 1], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(raptor));
    let mut d = Scripted::new(&[1, 5, 1]);
    play(&mut f, &map, 0, laser.clone(), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    assert_eq!(f.prompt, Some(Prompt::Reroll));
    assert_eq!(f.rerolls(raptor, f.gunner(raptor)), vec![Reroll::LuckyBoat]);
    play(
        &mut f,
        &map,
        0,
        Action::Reroll(Some(Reroll::LuckyBoat)),
        &mut d,
        &mut ev,
    );
    assert_eq!(attacks(&ev).last(), Some(&(1, 13, 11, AttackResult::Hit)));
    play(&mut f, &map, 0, laser.clone(), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    assert_eq!(f.prompt, None, "Lucky Boat is spent");
    assert_eq!(attacks(&ev).last(), Some(&(1, 9, 11, AttackResult::Miss)));
    assert_eq!(d.remaining(), 0);
}

/// "Ship Detection": 1d6 + Tech + Knowledge (Sensors) + Sensors against DL 7, Stealth +2
/// a rank ("Ship Tags"), the GM's conditions (`detection_modifier`, a gas cloud: +2) and
/// damaged sensors (+2, the fight.rs decision) added; an undetected ship cannot be fired on.
#[test]
fn sweeps_count_stealth_conditions_and_damaged_sensors() {
    let text = scenario(
        "detection_modifier: 2",
        "",
        &format!("{VALKYRIE}, {}", katath("Stealth")),
    );
    let (mut f, map) = fight_of(&text);
    f.state_mut(UnitId(0)).failed.push(System::Sensors);
    let mut ev = Vec::new();
    // Tryder's repair of the sensors (1 + 3 against 9) fails; his sweep 1 + 3 + 0 + 3 = 7
    // against 9 + 2 + 2 = 13; the Katath's 1 + 2 + 2 = 5 against 7 + 2 = 9; initiative.
    round(&mut f, &[1, 1, 1, 1, 1], &mut ev);
    let sweeps: Vec<(UnitId, Option<i32>)> = ev
        .iter()
        .filter_map(|e| match e {
            BattleEvent::Roll {
                unit,
                roll,
                purpose,
                ..
            } if purpose == "sensor sweep" => Some((*unit, roll.target)),
            _ => None,
        })
        .collect();
    assert_eq!(sweeps, vec![(UnitId(0), Some(13)), (UnitId(1), Some(9))]);
    let w = f.sheet(UnitId(0)).weapons()[0].clone();
    assert_eq!(
        f.why_not_target(&map, UnitId(0), &w, UnitId(1)),
        Some("Katath has not been detected".into())
    );
    assert_eq!(super::super::fight::failed_system(2), System::Weapons);
    assert_eq!(super::super::fight::failed_system(4), System::Engines);
    assert_eq!(super::super::fight::failed_system(6), System::Sensors);
}

/// Character tags (under the text's first "Ship Tags" heading), Excellent Skill: the
/// successful roll counts as a natural 6 and explodes; a roll whose die was already a 6
/// is a natural 6 and is not rolled again (it never lowers the roll).
#[test]
fn excellent_skill_never_lowers_a_roll() {
    use crate::dice::{Modifier, judge_exploding_d6};
    let mods = vec![Modifier::new("Combat Rating", 4)];
    let exploded = judge_exploding_d6(vec![6, 6, 4], mods.clone(), Some(7));
    assert_eq!(exploded.total, 5 + 5 + 4 + 4);
    let mut d = Scripted::new(&[]);
    assert_eq!(
        super::super::fight::excellent_six(&exploded, &mut d),
        exploded
    );
    let plain = judge_exploding_d6(vec![3], mods, Some(7));
    let mut d = Scripted::new(&[2]);
    let six = super::super::fight::excellent_six(&plain, &mut d);
    assert_eq!((six.faces.clone(), six.total), (vec![6, 2], 5 + 2 + 4));
}

/// "Skills": fists are the Unarmed skill's ("fists, kicks, throws"); a thrown grenade is
/// used up and has no spare load (gear.rs decision), a pistol has its spare clips.
#[test]
fn fists_use_unarmed_and_grenades_are_used_up() {
    let brawler = r#"soldier: 4, agent: 4, tech: 2, skills: {"Unarmed": Advanced, "Ranged": Basic}, weapons: ["Light Pistol", "Grenade"]"#;
    let (f, _) = duel(brawler, FIGHTER, "");
    let a = UnitId(0);
    let names: Vec<&str> = f
        .sheet(a)
        .weapons()
        .iter()
        .map(|w| w.name.as_str())
        .collect();
    assert_eq!(names, vec!["Light Pistol", "Grenade", "Unarmed"]);
    let fists = f.sheet(a).weapons()[2].clone();
    let mods: Vec<(String, i32)> = f
        .attack_modifiers(a, &fists, UnitId(1), false)
        .iter()
        .map(|m| (m.label.to_string(), m.value))
        .collect();
    assert_eq!(
        mods,
        vec![
            ("Combat Rating".to_string(), 4),
            ("Unarmed (Advanced)".to_string(), 4)
        ]
    );
    let spare: Vec<u32> = f.state(a).ammo.iter().map(|x| x.spare).collect();
    assert_eq!(spare, vec![2, 0, 0]);
}

/// "Knockout and Death": an incapacitated character regains 1 Hit Point when the combat
/// is over (once).
#[test]
fn the_knocked_out_come_to_when_the_fight_is_over() {
    let (mut f, _) = duel(FIGHTER, FIGHTER, "");
    f.state_mut(UnitId(1)).condition = Condition::KnockedOut;
    f.state_mut(UnitId(1)).hp = 0;
    let mut ev = Vec::new();
    f.end_of_combat(&mut ev);
    f.end_of_combat(&mut ev);
    assert_eq!(f.state(UnitId(1)).hp, 1);
    assert_eq!(ev.len(), 1);
}

/// A saved decision can name any unit or hex: the battle refuses what does not exist
/// instead of failing.
#[test]
fn decisions_naming_nothing_are_refused() {
    let (mut f, map) = duel(FIGHTER, FIGHTER, "");
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    let a = UnitId(0);
    let err = |action: Action| f.check(&map, a, &action).err().unwrap_or_default();
    assert!(err(swing(vec![UnitId(99)])).contains("no unit 99"));
    assert!(
        err(Action::Stabilize {
            patient: UnitId(7),
            plus_two: false
        })
        .contains("no unit 7")
    );
    assert!(err(Action::Move { to: (i32::MAX, 0) }).contains("not on the map"));
    assert!(
        err(Action::Leap {
            to: (i32::MIN, i32::MAX),
            plus_two: false
        })
        .contains("not on the map")
    );
}

/// "Combat Actions", Initiative: only groups of NPCs share a roll; a scenario that lumps
/// player characters together is refused.
#[test]
fn only_npcs_share_an_initiative_roll() {
    let text = scenario(
        r#"group_initiative: ["a"]"#,
        "",
        &format!(
            "{ALLEN}, {COMMANDER}, (name: \"Pc\", side: \"a\", at: (2, 2), stats: MainSequence(Character(soldier: 3, agent: 4, tech: 3)))"
        ),
    );
    let err = format!(
        "{:?}",
        crate::rules::builtin().parse("test.ron", &text).err()
    );
    assert!(err.contains("Pc is not marked `npc: true`"), "{err}");
    assert!(!err.contains("Allen is not"), "{err}");
}

/// Character tags (the text's first "Ship Tags" heading), Double Attack: the extra attack
/// is part of the one action ("Combat Actions": one move and one action), so after the
/// first blow no other action (a reload) may take the second's place.
#[test]
fn a_double_attack_is_the_whole_action() {
    let twin = r#"soldier: 4, agent: 4, tech: 2, skills: {"Melee": Advanced, "Ranged": Basic}, weapons: ["1H Edged", "1H Edged", "Light Pistol"], tags: [DualWielding, DoubleAttack]"#;
    let foe = r#"soldier: 4, agent: 4, tech: 2, npc: true, edge: 0, hp: 60"#;
    let (mut f, map) = duel(twin, foe, "");
    f.state_mut(UnitId(0)).ammo[2].loaded = Some(3);
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    let reload = Action::Reload { weapon: 2 };
    assert!(
        f.check(&map, UnitId(0), &reload).is_ok(),
        "a reload is an action"
    );
    let mut d = Scripted::new(&[3]);
    play(&mut f, &map, 0, swing(vec![UnitId(1)]), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    assert_eq!(f.turn.map(|t| t.attacks_left), Some(1));
    assert!(
        f.check(&map, UnitId(0), &reload).is_err(),
        "the action is the attacks"
    );
    assert!(f.check(&map, UnitId(0), &swing(vec![UnitId(1)])).is_ok());
}

/// "Using Edge": +2 is added "before the die is rolled": an attack every target dodges
/// outright with Nimble rolls no die, and costs no Edge.
#[test]
fn edge_for_plus_two_is_paid_only_when_the_die_is_rolled() {
    let nimble = r#"soldier: 3, agent: 4, tech: 3, tags: [Nimble]"#;
    let (mut f, map) = duel(FIGHTER, nimble, "");
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    let mut d = Scripted::new(&[]);
    let shove = Action::Attack {
        weapon: 0,
        rof: RateOfFire::Single,
        targets: vec![UnitId(1)],
        plus_two: true,
        excellent: false,
    };
    play(&mut f, &map, 0, shove, &mut d, &mut ev);
    play(
        &mut f,
        &map,
        1,
        Action::Defend(Some(Defense::Nimble)),
        &mut d,
        &mut ev,
    );
    assert_eq!(f.state(UnitId(0)).edge, 3);
    assert!(f.attack.is_none());
}

/// "Ship Tags", Lucky Boat: "When using the ship's systems" ("Using Your Ship": a roll
/// that adds a ship attribute): a sensor sweep may use it, a repair may not.
#[test]
fn lucky_boat_serves_the_ships_systems_only() {
    let text = scenario(
        "systems_failure: Extreme",
        "",
        &format!(
            r#"(name: "Tub", side: "a", at: (0, 0), stats: MainSequence(Ship(
            tactical: 1, propulsion: 1, sensors: 1, tonnage: 1, tags: [LuckyBoat], npc: true,
            crew: [(name: "Mac", station: Engineer, stats: (soldier: 3, agent: 3, tech: 4, npc: true, edge: 0))]))),
            {}"#,
            katath("")
        ),
    );
    let (mut f, map) = fight_of(&text);
    f.state_mut(UnitId(0)).failed.push(System::Weapons);
    let mut ev = Vec::new();
    // Mac's repair 1 + 4 fails DL 9: no Lucky Boat for it; his sweep 1 + 4 + 1 = 6 fails
    // DL 7: Lucky Boat is offered.
    let mut d = Scripted::new(&[1, 1]);
    f.begin_round(&map, &mut d, &mut ev);
    assert_eq!(f.prompt, Some(Prompt::RerollCheck));
    assert!(matches!(
        f.check.as_ref().map(|c| &c.kind),
        Some(super::super::fight::CheckKind::Sweep { .. })
    ));
    let open = f.check.as_ref().map(|c| f.check_rerolls(c));
    assert_eq!(open, Some(vec![Reroll::LuckyBoat]));
}

/// The AI's quick sum of an attack's modifiers ([`Board::attack_bonus`]) is the sum of the
/// labelled modifiers the log shows ([`Board::attack_modifiers`]), for every attacker,
/// weapon and first target of every shipped Main Sequence scenario, with and without the
/// +2 of Edge ("Combat Actions", "Using Edge"; the Champion tag).
#[test]
fn the_quick_attack_bonus_is_the_sum_of_the_modifiers() {
    let mut checked = 0;
    for name in [
        "ms-corridor.ron",
        "ms-ship-chase.ron",
        "ms-valkyrie-katath.ron",
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (f, _) = fight_of(&text);
        let ids: Vec<UnitId> = f.ids().collect();
        for &u in &ids {
            for w in f.sheet(u).weapons() {
                for &t in &ids {
                    for plus_two in [false, true] {
                        let sum: i32 = f
                            .attack_modifiers(u, w, t, plus_two)
                            .iter()
                            .map(|m| m.value)
                            .sum();
                        assert_eq!(f.attack_bonus(u, w, t, plus_two), sum, "{name}");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

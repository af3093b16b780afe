//! The battle engine against main-sequence.txt: the worked examples played through the
//! [`Fight`] with the text's dice, and each rule of play with a scripted case.

use super::combat::{Band, Cover, RateOfFire};
use super::fight::{Action, Board, Condition, Defense, Fight, Prompt, Reroll, Step, System};
use super::sheet::MsSheet;
use crate::battle::{AttackResult, BattleEvent, UnitId};
use crate::dice::Scripted;
use crate::hexmap::HexMap;
use crate::session::{Session, SessionOptions};
use bevy::ecs::world::World;
use hexx::Hex;
use std::sync::Arc;

/// A battle's units on their entities (the world of a new session) with the [`Fight`]
/// they share taken out of the world, so that the turn's functions can be called one by
/// one.
type Battle = Board<Fight, World>;

/// A Main Sequence scenario with the given ruleset settings, extra map text and units
/// (side "a" is the player's, side "b" the AI's).
fn scenario(config: &str, map: &str, units: &str) -> String {
    format!(
        r#"(
    name: "test",
    ruleset: MainSequence({config}),
    map: (shape: Hexagon(radius: 12){map}),
    sides: [(id: "a", control: Player), (id: "b", control: Ai(Aggressive))],
    units: [{units}],
)"#
    )
}

fn fight_of(text: &str) -> (Battle, HexMap) {
    let p = crate::rules::builtin()
        .parse("test.ron", text)
        .unwrap_or_else(|e| panic!("{e:?}"));
    let map = p.map.clone();
    let mut world = Session::new(Arc::new(p), 0, SessionOptions::default()).world;
    let Some(fight) = world.remove_resource::<Fight>() else {
        panic!("no Main Sequence fight");
    };
    (
        Board {
            fight,
            units: world,
        },
        map,
    )
}

/// A copy of battle `f` of scenario `text`: the same shared state and unit states in a
/// world of its own.
fn fork(f: &Battle, text: &str) -> Battle {
    let (mut g, _) = fight_of(text);
    g.fight = f.fight.clone();
    for u in f.ids() {
        *g.state_mut(u) = f.state(u).clone();
    }
    g
}

/// Starts a round with exactly `faces` rolled, answering the round's questions with no
/// Edge spent and no re-roll.
fn round(f: &mut Battle, faces: &[u32], ev: &mut Vec<BattleEvent>) {
    let mut d = Scripted::new(faces);
    // The map only matters when a chase ends (where the caught quarry is put); tests that
    // catch a quarry call `begin_round` with their own map.
    let map = fight_of(&scenario("", "", &format!("{ALLEN}, {COMMANDER}"))).1;
    f.begin_round(&map, &mut d, ev);
    while let Some(p) = f.prompt {
        let a = match p {
            Prompt::Boost => Action::PlusTwo(false),
            Prompt::RerollCheck => Action::Reroll(None),
            p => panic!("a round start asks {p:?}"),
        };
        let u = f.awaiting().unwrap_or(UnitId(0));
        play(f, &map, u.0, a, &mut d, ev);
    }
    assert_eq!(d.remaining(), 0, "the round start rolls {faces:?}");
}

fn play(
    f: &mut Battle,
    map: &HexMap,
    u: u32,
    a: Action,
    d: &mut Scripted,
    ev: &mut Vec<BattleEvent>,
) {
    let u = UnitId(u);
    f.check(map, u, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    f.apply(map, u, a, d, ev);
}

/// Answers a pending re-roll question with "keep the roll".
fn decline(f: &mut Battle, map: &HexMap, ev: &mut Vec<BattleEvent>) {
    assert!(
        matches!(
            f.prompt,
            Some(Prompt::Reroll | Prompt::RerollCheck | Prompt::RerollDefense(_))
        ),
        "a re-roll is offered: {:?}",
        f.prompt
    );
    let u = f.awaiting().unwrap_or(UnitId(0));
    play(
        f,
        map,
        u.0,
        Action::Reroll(None),
        &mut Scripted::new(&[]),
        ev,
    );
}

fn attacks(ev: &[BattleEvent]) -> Vec<(u32, i32, i32, AttackResult)> {
    ev.iter()
        .filter_map(|e| match e {
            BattleEvent::Attack {
                target,
                roll,
                result,
                ..
            } => Some((target.0, roll.total, roll.target.unwrap_or(0), *result)),
            _ => None,
        })
        .collect()
}

const ALLEN: &str = r#"(name: "Allen", side: "a", at: (0, 0), stats: MainSequence(Character(
    soldier: 2, agent: 4, tech: 4, skills: {"Ranged": Basic}, weapons: ["Laser Pistol"],
    npc: true, defense: 8)))"#;
const COMMANDER: &str = r#"(name: "Commander", side: "b", at: (6, 0), stats: MainSequence(Character(
    soldier: 4, agent: 4, tech: 4, skills: {"Ranged": Advanced}, weapons: ["Battle Rifle"],
    npc: true, hp: 11, edge: 0)))"#;

/// "Example Combats", the jungle planet: Allen 4 + 4 = 8 beats the commander's 3 + 4 = 7;
/// Allen's 2 + 3 + 2 = 7 misses Defense 8; he dives behind a tree (about half the body,
/// +4); the commander's 1 + 4 + 4 = 9 would hit Defense 8 in the open but not 12; Allen
/// spends Edge: 4 + 2 + 3 + 2 = 11 against 8, laser pistol 5 + 3 = 8, and the commander,
/// with no soak, drops from 11 to 3 Hit Points.
#[test]
fn captain_allen_against_the_commander() {
    let text = scenario(
        "",
        ", terrain: {(1, 0): Cover(Half)}",
        &format!("{ALLEN}, {COMMANDER}"),
    );
    let (mut f, map) = fight_of(&text);
    let mut ev = Vec::new();
    round(&mut f, &[4, 3], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(0)));
    let shot = |plus_two| Action::Attack {
        weapon: 0,
        rof: RateOfFire::SemiAuto,
        targets: vec![UnitId(1)],
        plus_two,
        excellent: false,
    };
    let mut d = Scripted::new(&[2]);
    play(&mut f, &map, 0, shot(false), &mut d, &mut ev);
    assert_eq!(f.prompt, Some(Prompt::Defend(0)));
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    assert_eq!(f.prompt, Some(Prompt::Reroll), "Allen has Edge to re-roll");
    play(&mut f, &map, 0, Action::Reroll(None), &mut d, &mut ev);
    play(
        &mut f,
        &map,
        0,
        Action::Move { to: (1, 0) },
        &mut d,
        &mut ev,
    );
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(1)));
    let mut d = Scripted::new(&[1]);
    play(
        &mut f,
        &map,
        1,
        Action::Move { to: (3, 0) },
        &mut d,
        &mut ev,
    );
    play(
        &mut f,
        &map,
        1,
        Action::Attack {
            weapon: 0,
            rof: RateOfFire::SemiAuto,
            targets: vec![UnitId(0)],
            plus_two: false,
            excellent: false,
        },
        &mut d,
        &mut ev,
    );
    play(&mut f, &map, 0, Action::Defend(None), &mut d, &mut ev);
    assert_eq!(f.advance(&mut ev), Step::RoundOver);
    round(&mut f, &[4, 3], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(0)));
    let mut d = Scripted::new(&[4]);
    play(&mut f, &map, 0, shot(true), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    assert_eq!(d.remaining(), 0);
    assert_eq!(
        attacks(&ev),
        vec![
            (1, 7, 8, AttackResult::Miss),
            (0, 9, 12, AttackResult::Miss),
            (1, 11, 8, AttackResult::Hit),
        ]
    );
    assert_eq!(f.state(UnitId(1)).hp, 3);
    assert_eq!(f.state(UnitId(0)).edge, 2);
}

const VALKYRIE: &str = r#"(name: "Valkyrie", side: "a", at: (0, 0), stats: MainSequence(Ship(
    tactical: 5, propulsion: 3, sensors: 3, tonnage: 3,
    crew: [
        (name: "Tryder", station: Sensors, stats: (soldier: 4, agent: 4, tech: 3,
            skills: {"Gunnery": Advanced}, npc: true)),
    ])))"#;

fn katath(tags: &str) -> String {
    format!(
        r#"(name: "Katath", side: "b", at: (3, 0), stats: MainSequence(Ship(
    tactical: 5, propulsion: 3, sensors: 2, tonnage: 1, tags: [{tags}], npc: true, hp: 11,
    crew: [
        (name: "Gunner", station: Gunner, stats: (soldier: 3, agent: 3, tech: 2,
            skills: {{"Gunnery": Basic}}, npc: true, edge: 0)),
    ])))"#
    )
}

/// "Example Combats", the Valkyrie and the Katath: Tryder's sweep 4 + 3 + 0 + 3 = 10
/// against DL 7 finds the Katath; the Katath's 1 + 3 + 2 + 5 = 11 misses the Valkyrie's
/// Defense 14; Tryder's torpedoes 5 + 4 + 4 + 5 = 18 against 14 deal 9 + 4 = 13, the
/// Armor tag soaks 2, and the 11 left destroy the 11-point Katath (no Edge aboard).
#[test]
fn the_valkyrie_destroys_the_katath() {
    let text = scenario(
        "bands: (melee: 1, close: 2, medium: 4, long: 7)",
        "",
        &format!("{VALKYRIE}, {}", katath("Armor")),
    );
    let (mut f, map) = fight_of(&text);
    let mut ev = Vec::new();
    // Sweeps (Valkyrie 4, Katath 5), initiative (Valkyrie 1, Katath 6 2).
    round(&mut f, &[4, 5, 1, 6, 2], &mut ev);
    assert!(f.state(UnitId(1)).seen_by[0], "Tryder detects the Katath");
    let sweep = ev.iter().find_map(|e| match e {
        BattleEvent::Roll { roll, purpose, .. } if purpose == "sensor sweep" => Some(roll.total),
        _ => None,
    });
    assert_eq!(sweep, Some(10));
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(1)));
    let mut d = Scripted::new(&[1]);
    play(
        &mut f,
        &map,
        1,
        Action::Attack {
            weapon: 0,
            rof: RateOfFire::Single,
            targets: vec![UnitId(0)],
            plus_two: false,
            excellent: false,
        },
        &mut d,
        &mut ev,
    );
    play(&mut f, &map, 1, Action::EndTurn, &mut d, &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(0)));
    let mut d = Scripted::new(&[5]);
    play(
        &mut f,
        &map,
        0,
        Action::Attack {
            weapon: 1,
            rof: RateOfFire::Single,
            targets: vec![UnitId(1)],
            plus_two: false,
            excellent: false,
        },
        &mut d,
        &mut ev,
    );
    assert_eq!(
        attacks(&ev),
        vec![
            (0, 11, 14, AttackResult::Miss),
            (1, 18, 14, AttackResult::Hit)
        ]
    );
    let injury = ev.iter().find_map(|e| match e {
        BattleEvent::Damage { roll, injury, .. } => Some((roll.total, *injury)),
        _ => None,
    });
    assert_eq!(injury, Some((13, 11)));
    assert_eq!(f.state(UnitId(1)).condition, Condition::Destroyed);
}

/// "Example Combats": had the Katath carried Shields too, the 13 would empty its 10 shield
/// points first. The text then has the armor soak "the 1 remaining", which contradicts
/// its own soak of 2; rules/README.md decision 2 takes shields first, then soak: 13 - 10 =
/// 3, less 2 soaked, 1 comes off the Katath's 11.
#[test]
fn shields_then_armor_stop_the_torpedo() {
    let text = scenario(
        "bands: (melee: 1, close: 2, medium: 4, long: 7)",
        "",
        &format!("{VALKYRIE}, {}", katath("Armor, Shields")),
    );
    let (mut f, map) = fight_of(&text);
    let mut ev = Vec::new();
    round(&mut f, &[4, 5, 6, 2, 1], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(0)));
    let mut d = Scripted::new(&[5]);
    play(
        &mut f,
        &map,
        0,
        Action::Attack {
            weapon: 1,
            rof: RateOfFire::Single,
            targets: vec![UnitId(1)],
            plus_two: false,
            excellent: false,
        },
        &mut d,
        &mut ev,
    );
    assert_eq!((f.state(UnitId(1)).shields, f.state(UnitId(1)).hp), (0, 10));
}

fn ree_and_four(extra: &str) -> String {
    let mut units = String::from(
        r#"(name: "Ree", side: "a", at: (0, 0), stats: MainSequence(Character(
        soldier: 4, agent: 4, tech: 2, skills: {"Ranged": Advanced}, weapons: ["Battle Rifle"])))"#,
    );
    for i in 0..4 {
        units.push_str(&format!(
            r#", (name: "Foe {i}", side: "b", at: (8, {i}), stats: MainSequence(Character(
            soldier: 3, agent: 3, tech: 2, weapons: ["Knife"], npc: true, edge: 0{extra})))"#
        ));
    }
    scenario("", "", &units)
}

/// "Rate of Fire", Ree's example: one roll of 5 + 4 + 4 = 13 against four foes of Defense
/// 7 at full auto counts 13, 11, 9 and 7: all four are hit, each for less (5 + 6, 5 + 4,
/// 5 + 2, 5 + 0). A full-auto spray uses ten rounds (gear.rs decision).
#[test]
fn rees_full_auto_burst() {
    let (mut f, map) = fight_of(&ree_and_four(""));
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1, 1, 1, 1], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(0)));
    let targets: Vec<UnitId> = (1..=4).map(UnitId).collect();
    // The odds the window shows before the attack: the bonus and Defense each target is
    // rolled against.
    let w = f.sheet(UnitId(0)).weapons()[0].clone();
    let odds = f.shot_odds(&map, UnitId(0), &w, &targets);
    let mut d = Scripted::new(&[5]);
    play(
        &mut f,
        &map,
        0,
        Action::Attack {
            weapon: 0,
            rof: RateOfFire::FullAuto,
            targets,
            plus_two: false,
            excellent: false,
        },
        &mut d,
        &mut ev,
    );
    for i in 0..4 {
        play(&mut f, &map, i + 1, Action::Defend(None), &mut d, &mut ev);
    }
    let totals: Vec<(i32, i32)> = attacks(&ev).iter().map(|a| (a.1, a.2)).collect();
    assert_eq!(totals, vec![(13, 7), (11, 7), (9, 7), (7, 7)]);
    // Odds shown = odds rolled: the die (5) plus the bonus shown, against the Defense shown.
    let shown: Vec<(u32, i32, i32)> = odds.iter().map(|&(u, b, dl)| (u.0, 5 + b, dl)).collect();
    let rolled: Vec<(u32, i32, i32)> = attacks(&ev).iter().map(|a| (a.0, a.1, a.2)).collect();
    assert_eq!(shown, rolled);
    let hp: Vec<i32> = (1..=4).map(|i| f.state(UnitId(i)).hp).collect();
    assert_eq!(hp, vec![0, 0, 2, 4], "9 HP less 11, 9, 7 and 5");
    assert_eq!(f.state(UnitId(0)).ammo[0].loaded, Some(20));
}

/// "Damage" and "Armor and Cover", Bob's example: a light pistol (4) rolled 12 against the
/// alien's Defense 8 deals 4 + 4 = 8; its armored clothing soaks 2, so it loses 6.
#[test]
fn bobs_light_pistol_and_the_armored_alien() {
    let text = scenario(
        "",
        "",
        r#"(name: "Bob", side: "a", at: (0, 0), stats: MainSequence(Character(
            soldier: 3, agent: 4, tech: 3, skills: {"Ranged": Advanced}, weapons: ["Light Pistol"]))),
        (name: "Alien", side: "b", at: (4, 0), stats: MainSequence(Character(
            soldier: 4, agent: 4, tech: 2, armor: ["Armored Clothing"], npc: true, hp: 12, edge: 0)))"#,
    );
    let (mut f, map) = fight_of(&text);
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(0)));
    let mut d = Scripted::new(&[5]);
    play(
        &mut f,
        &map,
        0,
        Action::Attack {
            weapon: 0,
            rof: RateOfFire::SemiAuto,
            targets: vec![UnitId(1)],
            plus_two: false,
            excellent: false,
        },
        &mut d,
        &mut ev,
    );
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    assert_eq!(attacks(&ev), vec![(1, 12, 8, AttackResult::Hit)]);
    assert_eq!(f.state(UnitId(1)).hp, 6);
}

fn duel(a: &str, b: &str, config: &str) -> (Battle, HexMap) {
    fight_of(&scenario(
        config,
        "",
        &format!(
            r#"(name: "A", side: "a", at: (0, 0), stats: MainSequence(Character({a}))),
            (name: "B", side: "b", at: (1, 0), stats: MainSequence(Character({b})))"#
        ),
    ))
}

const FIGHTER: &str =
    r#"soldier: 4, agent: 4, tech: 2, skills: {"Melee": Advanced}, weapons: ["1H Edged"]"#;

fn swing(targets: Vec<UnitId>) -> Action {
    Action::Attack {
        weapon: 0,
        rof: RateOfFire::Single,
        targets,
        plus_two: false,
        excellent: false,
    }
}

/// "Knockout and Death": lethal damage to 0 is dying, death after Soldier rounds; a
/// stabilization attempt is Knowledge (Medicine) at DL 9, then 11, then 13 ("Medical Kit"
/// +2), and three failures lose the patient. Bashing damage to 0 only knocks out.
#[test]
fn dying_stabilizing_and_knockouts() {
    let foe = r#"soldier: 2, agent: 2, tech: 2, npc: true, edge: 0"#;
    let (mut f, map) = duel(FIGHTER, foe, "");
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    let mut d = Scripted::new(&[5]);
    play(&mut f, &map, 0, swing(vec![UnitId(1)]), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    assert_eq!(
        f.state(UnitId(1)).condition,
        Condition::Dying {
            rounds: 2,
            attempts: 0
        }
    );
    round(&mut f, &[1], &mut ev);
    assert_eq!(
        f.state(UnitId(1)).condition,
        Condition::Dying {
            rounds: 1,
            attempts: 0
        }
    );
    round(&mut f, &[1], &mut ev);
    assert_eq!(
        f.state(UnitId(1)).condition,
        Condition::Dead,
        "Soldier 2: dead two rounds on"
    );

    let blunt =
        r#"soldier: 4, agent: 4, tech: 2, skills: {"Melee": Advanced}, weapons: ["2H Blunt"]"#;
    let (mut f, map) = duel(blunt, foe, "");
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    let mut d = Scripted::new(&[5]);
    play(&mut f, &map, 0, swing(vec![UnitId(1)]), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    assert_eq!(f.state(UnitId(1)).condition, Condition::KnockedOut);

    // A medic beside a dying friend: fails DL 9 (1 + 5 + 2 kit = 8), then DL 11 (5 + 5 + 2
    // kit = 12).
    let text = scenario(
        "",
        "",
        r#"(name: "Medic", side: "a", at: (0, 0), stats: MainSequence(Character(
            soldier: 2, agent: 3, tech: 5, medkit: true))),
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
    f.advance(&mut ev);
    let mut d = Scripted::new(&[1]);
    play(
        &mut f,
        &map,
        0,
        Action::Stabilize {
            patient: UnitId(1),
            plus_two: false,
        },
        &mut d,
        &mut ev,
    );
    decline(&mut f, &map, &mut ev);
    assert_eq!(
        f.state(UnitId(1)).condition,
        Condition::Dying {
            rounds: 3,
            attempts: 1
        }
    );
    let dls: Vec<Option<i32>> = ev
        .iter()
        .filter_map(|e| match e {
            BattleEvent::Roll { roll, purpose, .. } if purpose.starts_with("stabilize") => {
                Some(roll.target)
            }
            _ => None,
        })
        .collect();
    assert_eq!(dls, vec![Some(9)]);
    f.state_mut(UnitId(0)).pos = hexx::Hex::new(0, 0);
    f.turn = None;
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    let mut d = Scripted::new(&[5]);
    play(
        &mut f,
        &map,
        0,
        Action::Stabilize {
            patient: UnitId(1),
            plus_two: false,
        },
        &mut d,
        &mut ev,
    );
    assert_eq!(f.state(UnitId(1)).condition, Condition::Stabilized);
}

/// "Using Edge": an attack that would kill (lethal damage to 0) can be made to just miss
/// for a point of Edge; the victim is asked.
#[test]
fn edge_turns_a_killing_attack_into_a_miss() {
    let victim = r#"soldier: 1, agent: 5, tech: 4"#;
    let (mut f, map) = duel(FIGHTER, victim, "");
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    let mut d = Scripted::new(&[5]);
    play(&mut f, &map, 0, swing(vec![UnitId(1)]), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    assert_eq!(f.prompt, Some(Prompt::Kill(0)));
    play(&mut f, &map, 1, Action::SpendEdge(true), &mut d, &mut ev);
    assert_eq!((f.state(UnitId(1)).hp, f.state(UnitId(1)).edge), (7, 2));
    assert_eq!(attacks(&ev)[0].3, AttackResult::Miss);
}

/// "Combat Actions": a dodge rolls 1d6 + Agent + Acrobatics against a melee attack and
/// its total is the Defense; the dodger forfeits its next action. "Tags": Nimble dodges
/// one attack a combat outright; Dual-Wielding's free parry costs nothing.
#[test]
fn dodge_forfeits_the_next_action_and_nimble_is_free() {
    let dodger =
        r#"soldier: 2, agent: 5, tech: 3, skills: {"Acrobatics": Advanced}, tags: [Nimble]"#;
    let (mut f, map) = duel(FIGHTER, dodger, "");
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    assert_eq!(f.defenses_open(0), Vec::<Defense>::new(), "no attack yet");
    let mut d = Scripted::new(&[1, 4]);
    play(&mut f, &map, 0, swing(vec![UnitId(1)]), &mut d, &mut ev);
    assert_eq!(f.defenses_open(0), vec![Defense::Nimble, Defense::Dodge]);
    play(
        &mut f,
        &map,
        1,
        Action::Defend(Some(Defense::Dodge)),
        &mut d,
        &mut ev,
    );
    // Dodge 1 + 5 + 4 = 10 is the Defense; the attack 4 + 4 + 4 = 12 beats it: the dodger
    // may re-roll its dodge with Edge ("Using Edge"), and keeps it.
    assert_eq!(f.prompt, Some(Prompt::RerollDefense(0)));
    decline(&mut f, &map, &mut ev);
    let (.., result) = attacks(&ev)[0];
    assert_eq!(result, AttackResult::Hit);
    let defense = ev.iter().find_map(|e| match e {
        BattleEvent::Attack { defenses, roll, .. } => Some((defenses[0].roll.total, roll.target)),
        _ => None,
    });
    assert_eq!(defense, Some((10, Some(10))));
    assert!(f.state(UnitId(1)).forfeit);
    // Next attack: Nimble.
    f.turn = None;
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    let mut d = Scripted::new(&[]);
    play(&mut f, &map, 0, swing(vec![UnitId(1)]), &mut d, &mut ev);
    assert_eq!(
        f.defenses_open(0),
        vec![Defense::Nimble],
        "no dodge while a forfeit is owed"
    );
    play(
        &mut f,
        &map,
        1,
        Action::Defend(Some(Defense::Nimble)),
        &mut d,
        &mut ev,
    );
    assert_eq!(
        attacks(&ev).len(),
        1,
        "nothing rolled against a Nimble dodge"
    );
    assert_eq!(f.state(UnitId(1)).nimble, 0);
    // B's turn: its action is forfeit.
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(0)));
    play(&mut f, &map, 0, Action::EndTurn, &mut d, &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(1)));
    assert!(f.turn.is_some_and(|t| t.acted), "the dodge's price");
}

/// Character tags (under the text's first "Ship Tags" heading): Lucky re-rolls a failed
/// roll once a scene without Edge (the better die kept); Excellent Skill makes a success
/// count as a natural 6, which explodes.
#[test]
fn lucky_and_excellent_skill() {
    let lucky = r#"soldier: 4, agent: 4, tech: 2, skills: {"Melee": Advanced}, weapons: ["1H Edged"], tags: [Lucky, ExcellentSkill("Melee")]"#;
    let foe = r#"soldier: 6, agent: 6, tech: 2, npc: true, edge: 0, hp: 40"#;
    let (mut f, map) = duel(lucky, foe, "");
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    // 1 + 8 = 9 misses Defense 10; Lucky re-rolls a 3: 11 hits; Excellent: 6 then 2.
    let mut d = Scripted::new(&[1, 3, 2]);
    play(
        &mut f,
        &map,
        0,
        Action::Attack {
            weapon: 0,
            rof: RateOfFire::Single,
            targets: vec![UnitId(1)],
            plus_two: false,
            excellent: true,
        },
        &mut d,
        &mut ev,
    );
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    assert_eq!(f.prompt, Some(Prompt::Reroll));
    play(
        &mut f,
        &map,
        0,
        Action::Reroll(Some(Reroll::Lucky)),
        &mut d,
        &mut ev,
    );
    assert_eq!(d.remaining(), 0);
    // Excellent: 6 (counts 5) + 2 + 8 = 15 against 10: 3 + 5 = 8 damage.
    assert_eq!(attacks(&ev), vec![(1, 15, 10, AttackResult::Hit)]);
    assert_eq!(f.state(UnitId(1)).hp, 32);
    assert!(!f.lucky(UnitId(0)), "once a scene");
}

/// "Tags": Tough adds 2 to the soak of the best armor worn ("Armor and Cover": the
/// highest armor counts); Champion adds 2 against the cause's opponents.
#[test]
fn tough_and_champion() {
    let champ = r#"soldier: 4, agent: 4, tech: 2, skills: {"Melee": Advanced}, weapons: ["1H Edged"], tags: [Champion(["b"])]"#;
    let tough = r#"soldier: 4, agent: 2, tech: 4, tags: [Tough], armor: ["Reinforced Clothing", "Armored Plating"]"#;
    let (mut f, map) = duel(champ, tough, "");
    assert_eq!(f.soak(UnitId(1)), 5);
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1], &mut ev);
    f.advance(&mut ev);
    let mut d = Scripted::new(&[3]);
    play(&mut f, &map, 0, swing(vec![UnitId(1)]), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    // 3 + 4 + 4 + 2 = 13 against 7: 3 + 6 = 9, less 5: 4 off 10.
    assert_eq!(attacks(&ev), vec![(1, 13, 7, AttackResult::Hit)]);
    assert_eq!(f.state(UnitId(1)).hp, 6);
}

/// "Weapons, Armor & Gear", note *: a flash-bang rolls against everyone within Close of
/// the point, friend or foe (the thrower spared, the fight.rs decision); here its bashing
/// damage knocks both out (blinding: `a_flash_bang_blinds_who_does_not_dodge`).
#[test]
fn a_flash_bang_hits_everyone_within_close() {
    let text = scenario(
        "bands: (melee: 1, close: 3, medium: 10, long: 20)",
        "",
        r#"(name: "Thrower", side: "a", at: (3, 0), stats: MainSequence(Character(
            soldier: 4, agent: 4, tech: 2, skills: {"Athletics": Advanced}, weapons: ["Flash-bang"]))),
        (name: "Friend", side: "a", at: (5, 0), stats: MainSequence(Character(soldier: 3, agent: 3, tech: 4))),
        (name: "Near", side: "b", at: (6, 0), stats: MainSequence(Character(soldier: 3, agent: 3, tech: 4, npc: true, edge: 0))),
        (name: "Far", side: "b", at: (10, 0), stats: MainSequence(Character(soldier: 3, agent: 3, tech: 4, npc: true, edge: 0)))"#,
    );
    let (mut f, map) = fight_of(&text);
    assert_eq!(
        f.blast_victims(UnitId(0), UnitId(2), f.state(UnitId(2)).pos),
        vec![UnitId(2), UnitId(1)],
        "the aimed-at first, then the friend; Far (4 hexes) is beyond Close; the thrower is spared"
    );
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1, 1, 1], &mut ev);
    f.advance(&mut ev);
    let w = f.sheet(UnitId(0)).weapons()[0].clone();
    let odds = f.shot_odds(&map, UnitId(0), &w, &[UnitId(2)]);
    let mut d = Scripted::new(&[5]);
    play(&mut f, &map, 0, swing(vec![UnitId(2)]), &mut d, &mut ev);
    play(&mut f, &map, 2, Action::Defend(None), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    // 5 + 4 + 4 = 13 against Defense 7 each: 5 + 6 = 11 bashing knocks both out.
    assert_eq!(attacks(&ev).len(), 2);
    // Odds shown = odds rolled, for each victim of the blast.
    let shown: Vec<(u32, i32, i32)> = odds.iter().map(|&(u, b, dl)| (u.0, 5 + b, dl)).collect();
    let rolled: Vec<(u32, i32, i32)> = attacks(&ev).iter().map(|a| (a.0, a.1, a.2)).collect();
    assert_eq!(shown, rolled);
    assert_eq!(f.state(UnitId(2)).condition, Condition::KnockedOut);
    assert_eq!(f.state(UnitId(1)).condition, Condition::KnockedOut);
    assert_eq!(f.state(UnitId(0)).ammo[0].loaded, Some(0), "thrown");
}

/// "Tags", Champion: "+2 on all rolls against direct opponents" of the cause. A
/// flash-bang's one roll counts it against the foe it is thrown at, not against the
/// thrower's friend in the blast (ms-corridor seed 26 had it on both); the odds shown
/// before the throw say the same.
#[test]
fn champion_counts_only_against_the_cause_s_opponents() {
    let text = scenario(
        "bands: (melee: 1, close: 3, medium: 10, long: 20)",
        "",
        r#"(name: "Thrower", side: "a", at: (3, 0), stats: MainSequence(Character(
            soldier: 4, agent: 4, tech: 2, skills: {"Athletics": Advanced}, weapons: ["Flash-bang"], tags: [Champion(["b"])]))),
        (name: "Friend", side: "a", at: (5, 0), stats: MainSequence(Character(soldier: 3, agent: 3, tech: 4))),
        (name: "Near", side: "b", at: (6, 0), stats: MainSequence(Character(soldier: 3, agent: 3, tech: 4, npc: true, edge: 0)))"#,
    );
    let (mut f, map) = fight_of(&text);
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 1, 1], &mut ev);
    f.advance(&mut ev);
    let w = f.sheet(UnitId(0)).weapons()[0].clone();
    let odds = f.shot_odds(&map, UnitId(0), &w, &[UnitId(2)]);
    let mut d = Scripted::new(&[3]);
    play(&mut f, &map, 0, swing(vec![UnitId(2)]), &mut d, &mut ev);
    play(&mut f, &map, 2, Action::Defend(None), &mut d, &mut ev);
    play(&mut f, &map, 1, Action::Defend(None), &mut d, &mut ev);
    // 3 + 4 + 4 = 11, and Champion's 2 against Near only: 13 against Near, 11 against
    // Friend, each against Defense 7.
    let rolled: Vec<(u32, i32, i32)> = attacks(&ev).iter().map(|a| (a.0, a.1, a.2)).collect();
    assert_eq!(rolled, vec![(2, 13, 7), (1, 11, 7)]);
    let shown: Vec<(u32, i32, i32)> = odds.iter().map(|&(u, b, dl)| (u.0, 3 + b, dl)).collect();
    assert_eq!(shown, rolled);
}

/// "Chase Rules": the quarry's roll less the pursuer's moves the band by the table; two
/// steps past Long is beyond Far: the quarry escapes. Ships roll Agent + Vehicle +
/// Propulsion; a speed bonus adds to the faster.
#[test]
fn a_chase_widens_and_the_quarry_escapes() {
    let ship = |name: &str, side: &str, at: i32| {
        format!(
            r#"(name: "{name}", side: "{side}", at: ({at}, 0), stats: MainSequence(Ship(
            tactical: 1, propulsion: 3, sensors: 1, tonnage: 1,
            crew: [(name: "Pilot", station: Pilot, stats: (soldier: 2, agent: 5, tech: 3,
                skills: {{"Vehicle (Starship)": Basic}}))])))"#
        )
    };
    let text = scenario(
        r#"chase: (pursuer: "Hound", quarry: "Hare", start: Long, quarry_bonus: 2)"#,
        "",
        &format!("{}, {}", ship("Hare", "a", 3), ship("Hound", "b", -3)),
    );
    let (mut f, _) = fight_of(&text);
    let mut ev = Vec::new();
    // Sweeps (both find), chase: pursuer 1, quarry 5 (+4 with the bonus, +6): two bands:
    // Long + 2 is beyond Far.
    round(&mut f, &[6, 1, 6, 1, 1, 5, 1], &mut ev);
    assert_eq!(f.state(UnitId(0)).condition, Condition::Escaped);
    assert!(ev.iter().any(|e| matches!(
        e,
        BattleEvent::StatusChanged {
            unit: UnitId(0),
            standing: crate::battle::Standing::Escaped,
            ..
        }
    )));
    let chase: Vec<i32> = ev
        .iter()
        .filter_map(|e| match e {
            BattleEvent::Roll { roll, purpose, .. } if purpose == "the chase" => Some(roll.total),
            _ => None,
        })
        .collect();
    assert_eq!(chase, vec![1 + 5 + 2 + 3, 5 + 5 + 2 + 3 + 2]);
}

/// "Ship Destruction": an attack that would bring a ship to 0 makes everyone aboard spend
/// Edge; the ship keeps its Hit Points, and a crewman without Edge has his console
/// explode (0 HP).
#[test]
fn crew_edge_saves_the_ship_and_consoles_explode() {
    let text = scenario(
        "bands: (melee: 1, close: 2, medium: 4, long: 7)",
        "",
        &format!(
            r#"{VALKYRIE}, (name: "Target", side: "b", at: (3, 0), stats: MainSequence(Ship(
            tactical: 1, propulsion: 1, sensors: 1, tonnage: 1, npc: true, hp: 5,
            crew: [
                (name: "Lucky one", station: Pilot, stats: (soldier: 2, agent: 4, tech: 4)),
                (name: "Unlucky", station: Gunner, stats: (soldier: 2, agent: 4, tech: 4, npc: true, edge: 0)),
            ])))"#
        ),
    );
    let (mut f, map) = fight_of(&text);
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 6, 1, 6, 1, 1], &mut ev);
    assert_eq!(f.advance(&mut ev), Step::Awaiting(UnitId(0)));
    let mut d = Scripted::new(&[3]);
    play(
        &mut f,
        &map,
        0,
        Action::Attack {
            weapon: 0,
            rof: RateOfFire::Single,
            targets: vec![UnitId(1)],
            plus_two: false,
            excellent: false,
        },
        &mut d,
        &mut ev,
    );
    assert_eq!(f.prompt, Some(Prompt::Kill(0)), "the ship's crew are asked");
    let before = fork(&f, &text);
    play(&mut f, &map, 1, Action::SpendEdge(true), &mut d, &mut ev);
    let st = f.state(UnitId(1));
    assert_eq!(st.condition, Condition::Fighting);
    assert_eq!(st.hp, 5, "Hit Points as before the attack");
    assert_eq!((st.crew[0].edge, st.crew[1].hp), (2, 0));
    // The damage line says so: no Hit Points lost, the crew's Edge taking what got
    // through the soak.
    let Some(BattleEvent::Damage {
        hp_before,
        hp_after,
        injury,
        steps,
        ..
    }) = ev
        .iter()
        .rev()
        .find(|e| matches!(e, BattleEvent::Damage { .. }))
    else {
        panic!("a damage line: {ev:?}");
    };
    assert_eq!((*hp_before, *hp_after, *injury), (5, 5, 0));
    assert_eq!(
        steps.last().map(|m| &*m.label),
        Some("spared by the crew's Edge")
    );
    // "is treated as lethal damage": the unlucky crewman is dying (Soldier 2 rounds).
    assert_eq!(
        st.crew[1].condition,
        Condition::Dying {
            rounds: 2,
            attempts: 0
        }
    );
    // Refused, the ship is lost with all hands.
    let mut f = before;
    play(&mut f, &map, 1, Action::SpendEdge(false), &mut d, &mut ev);
    assert_eq!(f.state(UnitId(1)).condition, Condition::Destroyed);
}

/// "Ship Destruction" and "Knockout and Death": a crewman whose console exploded dies
/// after Soldier rounds unless the best medic aboard stabilizes him (DL 9, then 11, then
/// 13), tried at the start of each round.
#[test]
fn a_dying_crewman_is_tended_aboard() {
    let text = scenario(
        "",
        "",
        &format!(
            r#"{VALKYRIE}, (name: "Target", side: "b", at: (3, 0), stats: MainSequence(Ship(
            tactical: 1, propulsion: 1, sensors: 1, tonnage: 1, npc: true,
            crew: [
                (name: "Doc", station: Pilot, stats: (soldier: 2, agent: 3, tech: 5,
                    skills: {{"Knowledge (Medicine)": Basic}}, npc: true, edge: 0)),
                (name: "Hurt", station: Gunner, stats: (soldier: 2, agent: 4, tech: 4, npc: true, edge: 0)),
            ])))"#
        ),
    );
    let (mut f, _) = fight_of(&text);
    f.state_mut(UnitId(1)).crew[1].hp = 0;
    f.state_mut(UnitId(1)).crew[1].condition = Condition::Dying {
        rounds: 3,
        attempts: 0,
    };
    for u in 0..2 {
        f.state_mut(UnitId(u)).seen_by = vec![true; 2];
    }
    let mut ev = Vec::new();
    // The dying crewman loses a round (3 -> 2); Doc: 1 + 5 + 2 = 8 fails DL 9; then
    // initiative for the two ships.
    round(&mut f, &[1, 1, 1], &mut ev);
    assert_eq!(
        f.state(UnitId(1)).crew[1].condition,
        Condition::Dying {
            rounds: 2,
            attempts: 1
        }
    );
    f.turn = None;
    round(&mut f, &[4, 1, 1], &mut ev);
    assert_eq!(
        f.state(UnitId(1)).crew[1].condition,
        Condition::Stabilized,
        "4 + 5 + 2 = 11 meets the second try's DL 11"
    );
    let dls: Vec<Option<i32>> = ev
        .iter()
        .filter_map(|e| match e {
            BattleEvent::Roll { roll, purpose, .. } if purpose.starts_with("first aid") => {
                Some(roll.target)
            }
            _ => None,
        })
        .collect();
    assert_eq!(dls, vec![Some(9), Some(11)]);
}

/// "Optional Rule: Systems Failure": falling to 50% and to 25% (the extreme thresholds)
/// fails a system each time; the die picks it ([`super::fight::failed_system`]), one
/// already out passing to the next.
#[test]
fn systems_fail_at_the_thresholds() {
    let text = scenario(
        "bands: (melee: 1, close: 2, medium: 4, long: 7), systems_failure: Extreme",
        "",
        &format!(
            r#"{VALKYRIE}, (name: "Target", side: "b", at: (3, 0), stats: MainSequence(Ship(
            tactical: 0, propulsion: 0, sensors: 1, tonnage: 5, npc: true,
            crew: [(name: "Crew", station: Pilot, stats: (soldier: 2, agent: 4, tech: 4))])))"#
        ),
    );
    let (mut f, map) = fight_of(&text);
    assert_eq!(f.state(UnitId(1)).hp, 20);
    let mut ev = Vec::new();
    round(&mut f, &[6, 1, 6, 1, 6, 1, 1], &mut ev);
    f.advance(&mut ev);
    // 3 + 13 = 16 against Defense 6: 5 + 10 = 15 takes 20 to 5 (below 50% and 25%): two
    // failures, die 2 (the weapons) and die 2 again (out already: the engines).
    let mut d = Scripted::new(&[3, 2, 2]);
    play(
        &mut f,
        &map,
        0,
        Action::Attack {
            weapon: 0,
            rof: RateOfFire::Single,
            targets: vec![UnitId(1)],
            plus_two: false,
            excellent: false,
        },
        &mut d,
        &mut ev,
    );
    assert_eq!(f.state(UnitId(1)).hp, 5);
    assert_eq!(
        f.state(UnitId(1)).failed,
        vec![System::Weapons, System::Engines]
    );
    assert!(f.band(UnitId(0), UnitId(1)) == Band::Medium);
}

/// "Combat Actions", Initiative: NPCs lumped into one roll for the group act together.
#[test]
fn a_group_rolls_one_initiative() {
    let text = scenario(
        r#"group_initiative: ["b"]"#,
        "",
        r#"(name: "Hero", side: "a", at: (0, 0), stats: MainSequence(Character(soldier: 3, agent: 4, tech: 3))),
        (name: "Mook 1", side: "b", at: (5, 0), stats: MainSequence(Character(soldier: 3, agent: 3, tech: 3, npc: true))),
        (name: "Mook 2", side: "b", at: (6, 0), stats: MainSequence(Character(soldier: 3, agent: 3, tech: 3, npc: true)))"#,
    );
    let (mut f, _) = fight_of(&text);
    let mut ev = Vec::new();
    round(&mut f, &[1, 5], &mut ev);
    assert_eq!(f.order, vec![UnitId(1), UnitId(2), UnitId(0)]);
}

/// Ammunition ("Weapons, Armor & Gear" and gear.rs): a light pistol's 15-round clip runs
/// dry and is reloaded from a spare load; with "Cinematic Ammunition" nothing is counted.
#[test]
fn ammunition_runs_out_unless_cinematic() {
    let shooter = r#"soldier: 4, agent: 4, tech: 2, weapons: ["Light Pistol"], reloads: 1"#;
    let foe = r#"soldier: 3, agent: 3, tech: 4"#;
    for (config, expect) in [("", Err(())), ("cinematic_ammo: true", Ok(()))] {
        let (mut f, map) = duel(shooter, foe, config);
        f.state_mut(UnitId(0)).ammo[0].loaded = Some(0);
        let mut ev = Vec::new();
        round(&mut f, &[6, 1, 1], &mut ev);
        f.advance(&mut ev);
        let shot = swing(vec![UnitId(1)]);
        let shot = match shot {
            Action::Attack { targets, .. } => Action::Attack {
                weapon: 0,
                rof: RateOfFire::SemiAuto,
                targets,
                plus_two: false,
                excellent: false,
            },
            a => a,
        };
        assert_eq!(f.check(&map, UnitId(0), &shot).map_err(|_| ()), expect);
        if expect.is_err() {
            let mut d = Scripted::new(&[]);
            play(
                &mut f,
                &map,
                0,
                Action::Reload { weapon: 0 },
                &mut d,
                &mut ev,
            );
            assert_eq!(f.state(UnitId(0)).ammo[0].loaded, Some(15));
            assert_eq!(f.state(UnitId(0)).ammo[0].spare, 0);
        }
    }
}

mod play_tests;

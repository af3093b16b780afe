//! Tests of the starship-d12 turn on a small fleet built from a scenario text, with
//! scripted dice (starship-d12-quick-reference.txt, "Range", "Actions", "After the shot").

use super::ai;
use super::fleet::{Action, Fleet, Phase, Ships, Step};
use super::gunnery;
use super::range::{Band, Direction};
use super::sheet::{ShipFacing, ShipSheet, ShipState, SystemRef};
use crate::battle::{BattleEvent, UnitId, Units, UnitsMut};
use crate::dice::{DieRoller, Scripted};
use crate::scenario::Prepared;
use crate::session::{Session, SessionOptions};
use bevy::ecs::world::World;
use std::sync::Arc;

/// A battle's ships on their entities (the world of a new session) and the [`Fleet`] they
/// share, taken out of the world so that the turn's functions can be called one by one.
struct Battle {
    fleet: Fleet,
    world: World,
}

impl Battle {
    fn new(prepared: Prepared) -> Self {
        let mut world = Session::new(Arc::new(prepared), 0, SessionOptions::default()).world;
        let Some(fleet) = world.remove_resource::<Fleet>() else {
            panic!("no fleet");
        };
        Self { fleet, world }
    }
    fn ships(&self) -> &impl Ships {
        &self.world
    }
    fn begin_turn(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        self.fleet.begin_turn(&mut self.world, dice, events);
    }
    fn advance(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) -> Step {
        self.fleet.advance(&mut self.world, dice, events)
    }
    fn apply(&mut self, me: UnitId, action: Action, events: &mut Vec<BattleEvent>) {
        self.fleet.apply(&mut self.world, me, action, events);
    }
    fn legal_actions(&self, me: UnitId) -> Vec<Action> {
        self.fleet.legal_actions(self.ships(), me)
    }
    fn check(&self, me: UnitId, action: &Action) -> Result<(), String> {
        self.fleet.check(self.ships(), me, action)
    }
    fn why_no_range_move(&self, me: UnitId) -> String {
        Fleet::why_no_range_move(self.ships(), me)
    }
    fn choose(&self, me: UnitId) -> Action {
        ai::choose(&self.fleet, self.ships(), me)
    }
    fn band(&self, a: UnitId, b: UnitId) -> Band {
        self.fleet.band(self.ships(), a, b)
    }
    fn tails(&self, a: UnitId, b: UnitId) -> bool {
        self.fleet.tails(self.ships(), a, b)
    }
    fn set_range(&mut self, a: UnitId, b: UnitId, band: Band, tailer: Option<UnitId>) {
        self.fleet.set_range(&self.world, a, b, band, tailer);
    }
    fn in_fight(&self, id: UnitId) -> bool {
        self.ships().in_fight(id)
    }
    fn sheet(&self, id: UnitId) -> Arc<ShipSheet> {
        match Units::<ShipSheet, ShipState>::sheet_of(&self.world, id) {
            Some(s) => Arc::clone(s),
            None => panic!("no ship {id:?}"),
        }
    }
    fn ship(&mut self, id: UnitId) -> &mut ShipState {
        match UnitsMut::<ShipSheet, ShipState>::state_mut(&mut self.world, id) {
            Some(s) => s,
            None => panic!("no ship {id:?}"),
        }
    }
}

const SHIP: &str = r#"StarshipD12(
    defence: 1,
    systems: [
        (name: "Gun", facing: Front, hp: 2, weapon: (damage: 4, sustain: 1)),
        (name: "Turret", facing: Rear, hp: 2, turret: true, weapon: (damage: 2)),
        (name: "Core", facing: Core, hp: 2),
    ],
    crew: [(name: "A", piloting: 3, gunnery: 2), (name: "B", gunnery: 1)],
)"#;

/// Three ships: Anvil (side a) against Brand and Cinder (side b), all at Medium.
fn fleet() -> Battle {
    fleet_of(SHIP)
}

/// [`fleet`] with every ship built from `ship`.
fn fleet_of(ship: &str) -> Battle {
    let text = format!(
        r#"(
    name: "test",
    ruleset: StarshipD12(start_range: Medium),
    map: (shape: Hexagon(radius: 10)),
    sides: [(id: "a", control: Ai(Aggressive)), (id: "b", control: Ai(Aggressive))],
    templates: {{ "ship": {ship} }},
    units: [
        (name: "Anvil", side: "a", at: (0, 0), template: "ship"),
        (name: "Brand", side: "b", at: (3, 0), template: "ship"),
        (name: "Cinder", side: "b", at: (0, 3), template: "ship"),
    ],
)"#
    );
    let prepared = crate::rules::builtin()
        .parse("test.ron", &text)
        .unwrap_or_else(|e| panic!("{e}"));
    Battle::new(prepared)
}

const ANVIL: UnitId = UnitId(0);
const BRAND: UnitId = UnitId(1);
const CINDER: UnitId = UnitId(2);

/// "Range": the highest roll moves first; a ship cannot move against one that moved
/// against it this turn, and beating a ship by 6 moves two steps.
#[test]
fn the_range_phase_goes_by_rolls_and_spares_who_moved_first() {
    let mut f = fleet();
    let mut events = Vec::new();
    // Each pilot has piloting 3: a first die under 3 adds a second die.
    // Anvil 11, Brand 5, Cinder 2+1 = 3.
    f.begin_turn(&mut Scripted::new(&[11, 5, 2, 1]), &mut events);
    assert_eq!(f.fleet.cursor.order, vec![ANVIL, BRAND, CINDER]);
    assert_eq!(
        f.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(ANVIL)
    );
    // Anvil beat Cinder by 8: it may move one step or two ("can modify it by two steps");
    // two take it from Medium to Tailing, on Cinder's tail. Against Brand (beaten by 6)
    // two steps as well; no third step anywhere.
    let close = Action::Range {
        target: CINDER,
        direction: Direction::Closer,
        steps: 2,
    };
    let one = Action::Range {
        target: CINDER,
        direction: Direction::Closer,
        steps: 1,
    };
    assert!(f.legal_actions(ANVIL).contains(&close));
    assert!(f.legal_actions(ANVIL).contains(&one));
    assert!(
        f.legal_actions(ANVIL)
            .iter()
            .all(|a| !matches!(a, Action::Range { steps, .. } if *steps > 2))
    );
    f.apply(ANVIL, close, &mut events);
    assert_eq!(f.band(ANVIL, CINDER), Band::Tailing);
    assert!(f.tails(ANVIL, CINDER));
    // Brand may move against Anvil (Anvil moved against Cinder, not Brand).
    assert_eq!(
        f.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(BRAND)
    );
    assert!(
        f.legal_actions(BRAND)
            .iter()
            .any(|a| matches!(a, Action::Range { target, .. } if *target == ANVIL))
    );
    f.apply(BRAND, Action::Hold, &mut events);
    // Cinder may not move against Anvil, which moved against it: it can only hold.
    assert_eq!(
        f.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(CINDER)
    );
    assert_eq!(f.legal_actions(CINDER), vec![Action::Hold]);
    assert!(
        f.check(
            CINDER,
            &Action::Range {
                target: ANVIL,
                direction: Direction::Farther,
                steps: 1,
            }
        )
        .is_err()
    );
}

/// "Range": a ship that beat its enemy by less than 6 has one step only; asking for two is
/// refused with the reason.
#[test]
fn two_steps_need_a_roll_six_above_the_enemys() {
    let mut f = fleet();
    let mut events = Vec::new();
    // Anvil 8, Brand 5, Cinder 5.
    f.begin_turn(&mut Scripted::new(&[8, 5, 5]), &mut events);
    f.advance(&mut Scripted::new(&[]), &mut events);
    let two = Action::Range {
        target: BRAND,
        direction: Direction::Closer,
        steps: 2,
    };
    let refused = f.check(ANVIL, &two);
    assert!(refused.is_err_and(|e| e.contains("two steps")));
    assert!(f.legal_actions(ANVIL).contains(&Action::Range {
        target: BRAND,
        direction: Direction::Closer,
        steps: 1,
    }));
}

/// "Range" (Escaped is the last step): the ship that opens the range to Escaped leaves
/// the fight; the enemy it left behind stays (and holds the field).
#[test]
fn the_ship_that_opens_the_range_to_escaped_is_the_one_that_escapes() {
    let mut f = fleet();
    let mut events = Vec::new();
    // Brand is out of it: only Anvil and Cinder fight, at Long.
    f.ship(BRAND).destroyed = true;
    f.set_range(ANVIL, CINDER, Band::Long, None);
    // Cinder rolls highest and opens the range.
    f.begin_turn(&mut Scripted::new(&[2, 1, 9]), &mut events);
    assert_eq!(
        f.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(CINDER)
    );
    f.apply(
        CINDER,
        Action::Range {
            target: ANVIL,
            direction: Direction::Farther,
            steps: 1,
        },
        &mut events,
    );
    assert_eq!(
        f.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(ANVIL)
    );
    f.apply(ANVIL, Action::Hold, &mut events);
    f.advance(&mut Scripted::new(&[]), &mut events);
    // Cinder (unit 2, after Anvil in unit order) escaped; Anvil did not.
    assert!(f.ship(CINDER).escaped);
    assert!(!f.ship(ANVIL).escaped);
    assert!(f.in_fight(ANVIL));
}

fn to_actions(f: &mut Battle) {
    let mut events = Vec::new();
    f.begin_turn(&mut Scripted::new(&[5, 5, 5]), &mut events);
    for id in [ANVIL, BRAND, CINDER] {
        assert_eq!(
            f.advance(&mut Scripted::new(&[]), &mut events),
            Step::Awaiting(id)
        );
        f.apply(id, Action::Hold, &mut events);
    }
    assert_eq!(
        f.advance(&mut Scripted::new(&[]), &mut events),
        Step::Advanced
    );
    assert!(matches!(f.fleet.phase, Phase::Actions { round: 1, .. }));
}

const GUN: SystemRef = SystemRef {
    facing: ShipFacing::Front,
    index: 0,
};
const TURRET: SystemRef = SystemRef {
    facing: ShipFacing::Rear,
    index: 0,
};

/// The tailing exception: a tailed ship fires back at its tailer only with rear weapons
/// and turrets; other enemies it may fire at with anything.
#[test]
fn a_tailed_ship_fires_back_with_rear_weapons_and_turrets_only() {
    let mut f = fleet();
    f.set_range(BRAND, ANVIL, Band::Tailing, Some(BRAND));
    to_actions(&mut f);
    let fire = |weapon, target| Action::Fire {
        weapon,
        target,
        gunner: 0,
        helpers: vec![],
    };
    assert!(f.check(ANVIL, &fire(GUN, BRAND)).is_err());
    assert!(f.check(ANVIL, &fire(TURRET, BRAND)).is_ok());
    assert!(f.check(ANVIL, &fire(GUN, CINDER)).is_ok());
    // The tailer itself fires with anything.
    assert!(f.check(BRAND, &fire(GUN, ANVIL)).is_ok());
}

/// "Actions": one full action a round; a crewman acts once a turn, a weapon fires once;
/// when everyone passes the turn ends and the next begins with the range phase. Shots are
/// resolved together at the end of the round: a ship destroyed by an earlier shot still
/// fires the one it declared.
#[test]
fn action_rounds_resolve_together_until_everyone_passes() {
    let mut f = fleet();
    to_actions(&mut f);
    let mut events = Vec::new();
    let none = &mut Scripted::new(&[]);
    // Round 1: Anvil fires its gun at Brand; Brand its gun at Anvil; Cinder passes.
    assert_eq!(f.advance(none, &mut events), Step::Awaiting(ANVIL));
    f.apply(
        ANVIL,
        Action::Fire {
            weapon: GUN,
            target: BRAND,
            gunner: 0,
            helpers: vec![1],
        },
        &mut events,
    );
    assert_eq!(f.advance(none, &mut events), Step::Awaiting(BRAND));
    // Brand's gunner 0 fires; crewman 0 cannot help as well.
    assert!(
        f.check(
            BRAND,
            &Action::Fire {
                weapon: GUN,
                target: ANVIL,
                gunner: 0,
                helpers: vec![0]
            }
        )
        .is_err()
    );
    f.apply(
        BRAND,
        Action::Fire {
            weapon: GUN,
            target: ANVIL,
            gunner: 0,
            helpers: vec![],
        },
        &mut events,
    );
    assert_eq!(f.advance(none, &mut events), Step::Awaiting(CINDER));
    f.apply(CINDER, Action::Pass, &mut events);
    // At Medium a shot needs 7 plus the defence 1: 8. Anvil (bonus 2 + 1 = 3) rolls a
    // natural 12: a hit for the full 4 (the defender puts it on its turret, 2, then the
    // core, 2). Brand (bonus 2) rolls 7, which stands alone: one short, so Sustain +1
    // for S 1: D 4 -> 3.
    events.clear();
    let step = f.advance(&mut Scripted::new(&[12, 7]), &mut events);
    assert_eq!(step, Step::Advanced);
    let attacks: Vec<bool> = events
        .iter()
        .filter_map(|e| match e {
            BattleEvent::Attack { result, .. } => Some(result.hit()),
            _ => None,
        })
        .collect();
    assert_eq!(attacks, vec![true, true], "{events:#?}");
    assert!(events.iter().any(|e| matches!(e, BattleEvent::Note { text, .. } if text == "Sustain: +1 to the die total (7 -> 8, the 8 needed) for 1 damage (D 4 -> 3)")));
    // Anvil's gun fired, both its crew acted: nothing is left for it this turn.
    assert!(matches!(f.fleet.phase, Phase::Actions { round: 2, .. }));
    assert_eq!(f.legal_actions(ANVIL), vec![Action::Pass]);
    // Everyone passes: the turn is over.
    for _ in 0..3 {
        if let Step::Awaiting(id) = f.advance(none, &mut events) {
            f.apply(id, Action::Pass, &mut events);
        }
    }
    assert_eq!(f.advance(none, &mut events), Step::TurnOver);
}

/// A ship destroyed in an action round still fires the shot it declared in that round.
#[test]
fn a_ship_destroyed_in_a_round_still_fires() {
    let mut f = fleet();
    to_actions(&mut f);
    let mut events = Vec::new();
    let none = &mut Scripted::new(&[]);
    // Brand's systems are down to the core's last point.
    f.ship(BRAND).hp = vec![0, 0, 1];
    f.ship(BRAND).hp[1] = 2; // its turret still works
    assert_eq!(f.advance(none, &mut events), Step::Awaiting(ANVIL));
    f.apply(
        ANVIL,
        Action::Fire {
            weapon: GUN,
            target: BRAND,
            gunner: 0,
            helpers: vec![],
        },
        &mut events,
    );
    assert_eq!(f.advance(none, &mut events), Step::Awaiting(BRAND));
    f.apply(
        BRAND,
        Action::Fire {
            weapon: TURRET,
            target: ANVIL,
            gunner: 0,
            helpers: vec![],
        },
        &mut events,
    );
    assert_eq!(f.advance(none, &mut events), Step::Awaiting(CINDER));
    f.apply(CINDER, Action::Pass, &mut events);
    events.clear();
    // Anvil hits with a 12 (4 damage: turret 2, core 1, 1 more destroys Brand); Brand's
    // turret (no bonus) hits with a 12 too.
    f.advance(&mut Scripted::new(&[12, 12]), &mut events);
    assert!(f.ship(BRAND).destroyed);
    let attackers: Vec<UnitId> = events
        .iter()
        .filter_map(|e| match e {
            BattleEvent::Attack { attacker, .. } => Some(*attacker),
            _ => None,
        })
        .collect();
    assert_eq!(attackers, vec![ANVIL, BRAND]);
    assert_eq!(
        f.ship(ANVIL).structure(),
        6 - 2,
        "Brand's 2 landed on Anvil"
    );
}

/// The AI closes on an enemy it outguns, tails when it can, and passes when no shot can
/// do damage; a disarmed ship opens the range.
#[test]
fn the_ai_closes_fires_and_runs_when_disarmed() {
    let mut f = fleet();
    let mut events = Vec::new();
    f.begin_turn(&mut Scripted::new(&[11, 5, 5]), &mut events);
    f.advance(&mut Scripted::new(&[]), &mut events);
    let choice = f.choose(ANVIL);
    assert!(
        matches!(
            choice,
            Action::Range {
                direction: Direction::Closer,
                ..
            }
        ),
        "{choice:?}"
    );
    // Disarmed: both weapons destroyed.
    f.ship(ANVIL).hp[0] = 0;
    f.ship(ANVIL).hp[1] = 0;
    let choice = f.choose(ANVIL);
    assert!(
        matches!(
            choice,
            Action::Range {
                direction: Direction::Farther,
                ..
            }
        ),
        "{choice:?}"
    );
}

/// The AI never opens a range to Escaped unless it breaks off: an outgunned ship of a
/// side that may not flee stays in the fight (it still has a turret).
#[test]
fn the_ai_does_not_leave_a_fight_it_may_not_flee() {
    let mut f = fleet();
    let mut events = Vec::new();
    f.ship(ANVIL).hp[0] = 0; // Anvil's gun is gone: outgunned two to one.
    f.set_range(ANVIL, BRAND, Band::Long, None);
    f.set_range(ANVIL, CINDER, Band::Long, None);
    f.begin_turn(&mut Scripted::new(&[11, 2, 1, 2, 1]), &mut events);
    assert_eq!(
        f.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(ANVIL)
    );
    let choice = f.choose(ANVIL);
    if let Action::Range {
        target,
        direction: Direction::Farther,
        ..
    } = choice
    {
        assert_ne!(f.band(ANVIL, target), Band::Long, "{choice:?}");
    }
    // The same ship of a side that may flee, hurt and losing the exchange, breaks off
    // from its last enemy (Cinder is gone) at Long: the move takes it out of the fight.
    f.fleet.may_flee = vec![true, true];
    f.ship(ANVIL).hp[2] = 0;
    f.ship(CINDER).destroyed = true;
    let choice = f.choose(ANVIL);
    assert!(
        matches!(
            choice,
            Action::Range {
                direction: Direction::Farther,
                ..
            }
        ),
        "{choice:?}"
    );
}

/// Two ships with an engine each; Anvil's crew has an edge that lets its gunners choose
/// the system hit.
fn engined_pair() -> Battle {
    let ship = |edges: &str| {
        format!(
            r#"StarshipD12(
    defence: 1,
    systems: [
        (name: "Gun", facing: Front, hp: 2, weapon: (damage: 2)),
        (name: "Drive", facing: Rear, hp: 2, engine: true),
        (name: "Sensors", facing: Front, hp: 2),
        (name: "Core", facing: Core, hp: 5),
    ],
    crew: [(name: "A", piloting: 3, gunnery: 2)],
    edges: [{edges}],
)"#
        )
    };
    let text = format!(
        r#"(
    name: "test",
    ruleset: StarshipD12(start_range: Short),
    map: (shape: Hexagon(radius: 10)),
    sides: [(id: "a", control: Ai(Aggressive)), (id: "b", control: Ai(Aggressive))],
    units: [
        (name: "Anvil", side: "a", at: (0, 0), stats: {}),
        (name: "Brand", side: "b", at: (3, 0), stats: {}),
    ],
)"#,
        ship(r#"(name: "Fire control", attacker_chooses: true)"#),
        ship("")
    );
    let prepared = crate::rules::builtin()
        .parse("test.ron", &text)
        .unwrap_or_else(|e| panic!("{e}"));
    Battle::new(prepared)
}

/// "Range" needs a working engine (a decision in the module doc): a ship whose engines
/// are all out of action rolls nothing, may only hold, and the panel says why.
#[test]
fn a_ship_without_a_working_engine_cannot_change_the_range() {
    let mut f = engined_pair();
    let drive = f.sheet(ANVIL).systems.iter().position(|s| s.engine);
    let Some(drive) = drive else {
        panic!("no engine")
    };
    f.ship(ANVIL).hp[drive] = 1; // a damaged normal system is out of action
    let mut events = Vec::new();
    f.begin_turn(&mut Scripted::new(&[5]), &mut events);
    assert!(events.iter().any(|e| matches!(e, BattleEvent::Note { unit: Some(ANVIL), text } if text.contains("no working engine"))));
    assert_eq!(f.fleet.cursor.order, vec![BRAND]);
    assert_eq!(f.legal_actions(ANVIL), vec![Action::Hold]);
    assert!(f.why_no_range_move(ANVIL).contains("engine"));
}

/// "After the shot": with an edge that lets the attacker choose, the attacker picks the
/// system hit (the working weapon the hit puts out of action: Brand's gun), where the
/// defender would give up the sensors.
#[test]
fn an_edge_lets_the_attacker_choose_the_system_hit() {
    let mut f = engined_pair();
    let mut events = Vec::new();
    let none = &mut Scripted::new(&[]);
    f.begin_turn(&mut Scripted::new(&[5, 5]), &mut events);
    for id in [ANVIL, BRAND] {
        assert_eq!(f.advance(none, &mut events), Step::Awaiting(id));
        f.apply(id, Action::Hold, &mut events);
    }
    assert_eq!(f.advance(none, &mut events), Step::Advanced);
    assert_eq!(f.advance(none, &mut events), Step::Awaiting(ANVIL));
    f.apply(
        ANVIL,
        Action::Fire {
            weapon: GUN,
            target: BRAND,
            gunner: 0,
            helpers: vec![],
        },
        &mut events,
    );
    assert_eq!(f.advance(none, &mut events), Step::Awaiting(BRAND));
    f.apply(BRAND, Action::Pass, &mut events);
    events.clear();
    f.advance(&mut Scripted::new(&[12]), &mut events);
    let chosen = events.iter().find_map(|e| match e {
        BattleEvent::Damage { location, .. } => location.clone(),
        _ => None,
    });
    assert!(
        chosen
            .as_deref()
            .is_some_and(|l| l.starts_with("Gun") && l.contains("chosen by the attacker")),
        "{chosen:?}"
    );
    let brand = f.sheet(BRAND);
    assert!(!f.ship(BRAND).works(&brand, 0));
    let sensors = f
        .sheet(BRAND)
        .systems
        .iter()
        .position(|s| s.name == "Sensors");
    let defender = gunnery::defender_choice(&f.sheet(BRAND), &ShipState::new(&f.sheet(BRAND)), 2);
    assert_eq!(
        sensors.map(|i| f.sheet(BRAND).systems[i].at),
        Some(defender)
    );
}

/// The odds the action panel shows for a shot ([`Fleet::shot_odds`]) are the frequency
/// with which the shot, rolled as the battle rolls it ([`Fleet::shot_terms`] and
/// [`gunnery::shoot`]), hits over all 144 pairs of d12 faces: for every shot open to
/// Anvil at Medium, at Short and on Brand's tail ("Gunnery Difficulties", "Sustain").
#[test]
fn the_odds_shown_are_the_odds_rolled() {
    let mut checked = 0;
    for band in [Band::Medium, Band::Short, Band::Tailing] {
        let mut f = fleet();
        f.set_range(ANVIL, BRAND, band, Some(ANVIL));
        to_actions(&mut f);
        let mut events = Vec::new();
        assert_eq!(
            f.advance(&mut Scripted::new(&[]), &mut events),
            Step::Awaiting(ANVIL)
        );
        let shots: Vec<Action> = f
            .legal_actions(ANVIL)
            .into_iter()
            .filter(|a| matches!(a, Action::Fire { .. }))
            .collect();
        assert!(!shots.is_empty());
        for a in shots {
            let Action::Fire {
                weapon,
                target,
                gunner,
                helpers,
            } = &a
            else {
                continue;
            };
            let Some((shown, _)) = f.fleet.shot_odds(f.ships(), ANVIL, &a) else {
                panic!("no odds for {a:?}");
            };
            let Some((mods, need)) =
                f.fleet
                    .shot_terms(f.ships(), ANVIL, *weapon, *target, *gunner, helpers)
            else {
                panic!("no terms for {a:?}");
            };
            let sheet = f.sheet(ANVIL);
            let Some(stats) = sheet
                .find(*weapon)
                .and_then(|i| sheet.systems[i].weapon.clone())
            else {
                panic!("not a weapon");
            };
            let mut hits = 0;
            for first in 1..=12 {
                for second in 1..=12 {
                    let shot = gunnery::shoot(
                        &mut Scripted::new(&[first, second]),
                        mods.clone(),
                        need,
                        &stats,
                    );
                    hits += u32::from(shot.hit);
                }
            }
            assert!(
                (shown - f64::from(hits) / 144.0).abs() < 1e-12,
                "{band:?} {a:?}: shown {shown}, rolled {hits}/144"
            );
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked} shots checked");
}

/// "After the shot": "If you are at tailing range then the person firing gets to choose"
/// (issue 26 item 16): the tailed ship firing back at its tailer chooses the system hit,
/// as the tailer does.
#[test]
fn at_tailing_range_whoever_fires_chooses() {
    let mut f = fleet();
    f.set_range(BRAND, ANVIL, Band::Tailing, Some(BRAND));
    to_actions(&mut f);
    let mut events = Vec::new();
    let none = &mut Scripted::new(&[]);
    for _ in 0..3 {
        let Step::Awaiting(id) = f.advance(none, &mut events) else {
            panic!("a decision is awaited");
        };
        let action = if id == ANVIL {
            Action::Fire {
                weapon: TURRET,
                target: BRAND,
                gunner: 0,
                helpers: vec![],
            }
        } else {
            Action::Pass
        };
        f.apply(id, action, &mut events);
    }
    // The round resolves: a natural 12 hits.
    events.clear();
    f.advance(&mut Scripted::new(&[12]), &mut events);
    let chooser = events.iter().find_map(|e| match e {
        BattleEvent::Damage {
            attacker: Some(ANVIL),
            location: Some(location),
            ..
        } => Some(location.to_string()),
        _ => None,
    });
    let Some(text) = chooser else {
        panic!("no damage from Anvil: {events:#?}");
    };
    assert!(text.contains("chosen by the attacker"), "{text}");
}

/// "Actions": "making further skill rolls easier" (issue 26 item 17): a crewman who is not
/// the pilot spends the turn helping; next turn the pilot's range roll adds the helper's
/// piloting to its bonus, so a first die under the larger bonus rolls again.
#[test]
fn a_crewman_helps_the_next_range_roll() {
    let helpful = SHIP.replace(
        r#"(name: "B", gunnery: 1)"#,
        r#"(name: "B", piloting: 2, gunnery: 1)"#,
    );
    let mut f = fleet_of(&helpful);
    to_actions(&mut f);
    let mut events = Vec::new();
    let none = &mut Scripted::new(&[]);
    assert_eq!(f.advance(none, &mut events), Step::Awaiting(ANVIL));
    let help = Action::HelpPilot { crewman: 1 };
    assert!(f.legal_actions(ANVIL).contains(&help));
    assert!(
        f.check(ANVIL, &Action::HelpPilot { crewman: 0 }).is_err(),
        "the pilot does not help himself"
    );
    f.apply(ANVIL, help, &mut events);
    // Everyone passes until the turn is over.
    loop {
        match f.advance(none, &mut events) {
            Step::Awaiting(id) => f.apply(id, Action::Pass, &mut events),
            Step::TurnOver => break,
            Step::Advanced => {}
        }
    }
    // Next turn: Anvil's bonus is 3 + 2 = 5: a first die of 4 rolls again (4 + 6 = 10);
    // Brand's and Cinder's (3) do not roll again on 5.
    events.clear();
    f.begin_turn(&mut Scripted::new(&[4, 6, 5, 5]), &mut events);
    let anvil = events.iter().find_map(|e| match e {
        BattleEvent::Roll { unit, roll, .. } if *unit == ANVIL => Some(roll),
        _ => None,
    });
    let Some(roll) = anvil else {
        panic!("no range roll for Anvil: {events:#?}");
    };
    assert!(
        roll.modifiers
            .iter()
            .any(|m| &*m.label == "B helps" && m.value == 2)
    );
    assert_eq!(roll.total, 10);
    // The help is spent: the turn after, no helper.
    assert!(f.ship(ANVIL).pilot_help.is_empty());
}

/// The check of a decision agrees with the list of legal ones ("Range", "Actions"): in
/// the range phase and in an action round, with a ship on another's tail, every action
/// listed for every ship passes [`Fleet::check`]; holding is refused in an action round
/// and passing in the range phase; a shot at a ship of one's own side is refused.
#[test]
fn every_listed_action_passes_the_check_and_holding_and_passing_keep_to_their_phases() {
    let mut f = fleet();
    f.set_range(BRAND, ANVIL, Band::Tailing, Some(BRAND));
    let mut events = Vec::new();
    f.begin_turn(&mut Scripted::new(&[5, 5, 5]), &mut events);
    assert_eq!(
        f.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(ANVIL)
    );
    let mut listed = 0;
    for id in [ANVIL, BRAND, CINDER] {
        for action in f.legal_actions(id) {
            assert_eq!(
                f.check(id, &action),
                Ok(()),
                "range phase, {id:?}: {action:?}"
            );
            listed += 1;
        }
        assert!(f.check(id, &Action::Pass).is_err());
    }
    assert!(listed > 3, "the range phase lists moves besides holding");
    let mut f = fleet();
    f.set_range(BRAND, ANVIL, Band::Tailing, Some(BRAND));
    to_actions(&mut f);
    let mut shots = 0;
    for id in [ANVIL, BRAND, CINDER] {
        for action in f.legal_actions(id) {
            assert_eq!(
                f.check(id, &action),
                Ok(()),
                "action round, {id:?}: {action:?}"
            );
            shots += usize::from(matches!(action, Action::Fire { .. }));
        }
        assert!(f.check(id, &Action::Hold).is_err());
    }
    assert!(shots > 0, "an action round lists shots");
    let at_a_friend = Action::Fire {
        weapon: GUN,
        target: CINDER,
        gunner: 0,
        helpers: vec![],
    };
    assert!(f.check(BRAND, &at_a_friend).is_err());
}

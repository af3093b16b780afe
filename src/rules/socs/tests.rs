//! Tests of SOCS rules with scripted dice (gurps-lite-and-socs.txt, "Space Opera Combat
//! System (SOCS) - Summary", the section named in each test).

use super::dogfight::{
    Action, CraftState, Crafts, Dogfight, Fate, Maneuver, Phase, Shot, SocsRange, Step, chance_3d6,
    defensive_result, offensive_result,
};
use super::sheet::{Craft, Firepower, ShipClass};
use crate::battle::{BattleEvent, UnitId, Units, UnitsMut};
use crate::dice::{DieRoller, Modifier, Scripted, success_roll};
use crate::scenario::Prepared;
use crate::session::{Session, SessionOptions};
use bevy::ecs::entity::Entity;
use bevy::ecs::world::World;
use std::sync::Arc;

/// A battle's craft on their entities (the world of a new session) and the [`Dogfight`]
/// they share, taken out of the world so that the turn's functions can be called one by
/// one; it reads as the `Dogfight` for the shared fields (order, phase).
struct Battle {
    fight: Dogfight,
    world: World,
}

impl std::ops::Deref for Battle {
    type Target = Dogfight;
    fn deref(&self) -> &Dogfight {
        &self.fight
    }
}

impl std::ops::DerefMut for Battle {
    fn deref_mut(&mut self) -> &mut Dogfight {
        &mut self.fight
    }
}

impl Battle {
    fn new(prepared: Prepared) -> Self {
        let mut world = Session::new(Arc::new(prepared), 0, SessionOptions::default()).world;
        let Some(fight) = world.remove_resource::<Dogfight>() else {
            panic!("no dogfight");
        };
        Self { fight, world }
    }
    fn crafts(&self) -> &impl Crafts {
        &self.world
    }
    fn begin_turn(&mut self) {
        self.fight.begin_turn(&mut self.world);
    }
    fn advance(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) -> Step {
        self.fight.advance(&mut self.world, dice, events)
    }
    fn apply(&mut self, me: UnitId, action: Action) {
        self.fight.apply(me, action);
    }
    fn check(&self, me: UnitId, action: &Action) -> Result<(), String> {
        self.fight.check(self.crafts(), me, action)
    }
    fn hit(
        &mut self,
        by: UnitId,
        target: UnitId,
        firepower: Firepower,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.fight
            .hit(&mut self.world, by, target, firepower, dice, events);
    }
    fn guns_at(&self, me: UnitId, target: UnitId) -> Vec<usize> {
        self.fight.guns_at(self.crafts(), me, target)
    }
    fn shot_odds(&self, me: UnitId, w: usize, target: UnitId, gm: i32) -> f64 {
        self.fight.shot_odds(self.crafts(), me, w, target, gm)
    }
    fn shot_modifiers(&self, me: UnitId, w: usize, target: UnitId, gm: i32) -> Vec<Modifier> {
        self.fight.shot_modifiers(self.crafts(), me, w, target, gm)
    }
    fn position_ab(&self, a: UnitId, b: UnitId) -> i32 {
        self.fight.position_ab(self.crafts(), a, b)
    }
    fn set_position(&mut self, a: UnitId, b: UnitId, v: i32) {
        self.fight.set_position(&self.world, a, b, v);
    }
    fn set_range(&mut self, a: UnitId, b: UnitId, r: SocsRange) {
        self.fight.set_range(&self.world, a, b, r);
    }
    fn may_gain_position(&self, me: UnitId, target: UnitId) -> bool {
        self.crafts().may_gain_position(me, target)
    }
    fn may_dodge(&self, target: UnitId, shooter: UnitId) -> bool {
        self.crafts().may_dodge(target, shooter)
    }
    fn furball(&self) -> bool {
        self.crafts().furball()
    }
    fn in_fight(&self, id: UnitId) -> bool {
        self.crafts().in_fight(id)
    }
    fn sustained_ab(&self, me: UnitId, w: usize, target: UnitId) -> i32 {
        self.crafts().sustained_ab(me, w, target)
    }
    fn side(&self, id: UnitId) -> Option<u8> {
        self.crafts().side_of(id)
    }
    fn entity(&self, id: UnitId) -> Entity {
        self.crafts().entity(id)
    }
    fn state(&mut self, id: UnitId) -> &mut CraftState {
        match UnitsMut::<Craft, CraftState>::state_mut(&mut self.world, id) {
            Some(s) => s,
            None => panic!("no craft {id:?}"),
        }
    }
    fn state_of(&self, id: UnitId) -> &CraftState {
        self.crafts().craft_state(id)
    }
}

/// Ace (fighter) and Cutty (cutter) against Bandit (fighter) and Liner (ship of the line).
fn dogfight(extra: &str) -> Battle {
    dogfight_with(extra, "")
}

/// [`dogfight`] with more units (RON unit entries) after the four.
fn dogfight_with(extra: &str, more: &str) -> Battle {
    let text = format!(
        r#"(
    name: "test",
    ruleset: Socs(start_range: Short{extra}),
    map: (shape: Hexagon(radius: 10)),
    sides: [(id: "a", control: Ai(Aggressive)), (id: "b", control: Ai(Aggressive))],
    units: [
        (name: "Ace", side: "a", at: (0, 0), stats: Socs(class: Fighter, mr: 2,
            pilot: (name: "Ace", major: true, piloting: 14, gunner: 13),
            weapons: [(name: "Blaster", firepower: Light, range: Short, acc: 2)])),
        (name: "Cutty", side: "a", at: (0, 2), stats: Socs(class: Cutter, mr: 0,
            locations: ["Bridge", "Turret"],
            pilot: (name: "Pilot C", piloting: 12),
            weapons: [(name: "Laser", firepower: Light, range: Long, acc: 1, location: "Turret",
                gunner: (name: "Gunner C", gunner: 12))],
            aboard: [(name: "Captain C", major: true, ht: 12)])),
        (name: "Bandit", side: "b", at: (3, 0), stats: Socs(class: Fighter, mr: 1,
            pilot: (name: "Bandit", piloting: 12, gunner: 12),
            weapons: [(name: "Gun", firepower: Heavy, range: Short, acc: 0)])),
        (name: "Liner", side: "b", at: (3, 3), stats: Socs(class: ShipOfTheLine, mr: -1,
            locations: ["Bridge"],
            pilot: (name: "Helm", piloting: 11),
            weapons: [(name: "Battery", firepower: Great, range: Long, acc: 0, location: "Bridge",
                gunner: (name: "Gunner L", gunner: 12))])),
        {more}
    ],
)"#
    );
    let prepared = crate::rules::builtin()
        .parse("test.ron", &text)
        .unwrap_or_else(|e| panic!("{e}"));
    Battle::new(prepared)
}

const ACE: UnitId = UnitId(0);
const CUTTY: UnitId = UnitId(1);
const BANDIT: UnitId = UnitId(2);
const LINER: UnitId = UnitId(3);

/// "TO-HIT MODIFIERS": fighters +0, cutters +2, ships of the line +4, stations +6; a dodge
/// lowers firepower one level ("FIRE PHASE").
#[test]
fn size_modifiers_and_dodges() {
    assert_eq!(ShipClass::Fighter.to_be_hit(), 0);
    assert_eq!(ShipClass::Cutter.to_be_hit(), 2);
    assert_eq!(ShipClass::ShipOfTheLine.to_be_hit(), 4);
    assert_eq!(ShipClass::Station.to_be_hit(), 6);
    assert_eq!(Firepower::Heavy.lower(), Firepower::Light);
    assert_eq!(Firepower::Light.lower(), Firepower::Cosmetic);
    assert_eq!(Firepower::Cosmetic.lower(), Firepower::Cosmetic);
    // 3d6 of 10 or less: 108 of 216; 16 or more is capped (17 and 18 fail), 4 or less
    // still succeeds on 3 and 4.
    assert!((chance_3d6(10) - 0.5).abs() < 1e-12);
    assert!((chance_3d6(20) - 212.0 / 216.0).abs() < 1e-12);
    assert!((chance_3d6(-3) - 4.0 / 216.0).abs() < 1e-12);
}

/// "FIRE PHASE" and "AIMING BONUSES": Gunner + Acc + ABs, or −5 for a snap shot without
/// ABs; the target's size adds.
#[test]
fn shots_use_aiming_bonuses_or_snap() {
    let mut d = dogfight("");
    let total = |d: &Battle, me, w, t| {
        d.shot_modifiers(me, w, t, 0)
            .iter()
            .map(|m| m.value)
            .sum::<i32>()
    };
    assert_eq!(total(&d, ACE, 0, BANDIT), 13 + 2 - 5);
    assert_eq!(total(&d, ACE, 0, LINER), 13 + 2 - 5 + 4);
    d.set_position(ACE, BANDIT, 2);
    let bandit = d.entity(BANDIT);
    d.state(UnitId(0)).sustained[0] = Some((bandit, 1));
    assert_eq!(total(&d, ACE, 0, BANDIT), 13 + 2 + 2 + 1);
    // Sustained Fire on another target does not count.
    assert_eq!(total(&d, ACE, 0, LINER), 13 + 2 - 5 + 4);
}

/// "MANEUVER OFFENSIVELY" / "MANEUVER DEFENSIVELY": the outcomes of the roll.
#[test]
fn maneuver_outcomes() {
    let roll = |faces: &[u32], skill| {
        success_roll(&mut Scripted::new(faces), vec![Modifier::new("s", skill)])
    };
    // Success +1; critical success doubles (0 becomes 2); critical failure to 0.
    assert_eq!(offensive_result(1, &roll(&[3, 3, 3], 12)), 2);
    assert_eq!(offensive_result(0, &roll(&[1, 1, 1], 12)), 2);
    assert_eq!(offensive_result(3, &roll(&[1, 1, 2], 12)), 6);
    assert_eq!(offensive_result(3, &roll(&[6, 6, 6], 12)), 0);
    assert_eq!(offensive_result(3, &roll(&[6, 6, 2], 12)), 3);
    // Defensive: success −1, critical success to 0, critical failure doubles.
    assert_eq!(defensive_result(2, &roll(&[3, 3, 3], 12)), 1);
    assert_eq!(defensive_result(3, &roll(&[1, 1, 1], 12)), 0);
    assert_eq!(defensive_result(2, &roll(&[6, 6, 6], 12)), 4);
}

/// Class restrictions: cutters cannot gain Position on fighters or dodge their attacks;
/// ships of the line cannot gain Position on fighters or cutters or dodge their fire.
/// Maneuver Offensively is only open against a foe without Position on you.
#[test]
fn class_restrictions_and_who_may_maneuver_offensively() {
    let mut d = dogfight("");
    assert!(!d.may_gain_position(CUTTY, BANDIT));
    assert!(d.may_gain_position(CUTTY, LINER));
    assert!(!d.may_gain_position(LINER, ACE));
    assert!(!d.may_gain_position(LINER, CUTTY));
    assert!(d.may_gain_position(ACE, LINER));
    assert!(!d.may_dodge(CUTTY, BANDIT));
    assert!(d.may_dodge(CUTTY, LINER));
    assert!(!d.may_dodge(LINER, ACE) && !d.may_dodge(LINER, CUTTY));
    d.begin_turn();
    let mut events = Vec::new();
    for id in [ACE, CUTTY, BANDIT, LINER] {
        assert_eq!(
            d.advance(&mut Scripted::new(&[]), &mut events),
            Step::Awaiting(id)
        );
        d.apply(
            id,
            Action::Fire {
                shots: vec![],
                gm_modifier: 0,
            },
        );
    }
    assert_eq!(
        d.advance(&mut Scripted::new(&[]), &mut events),
        Step::Advanced
    );
    let offensive = |t| Action::Maneuver {
        maneuver: Maneuver::Offensive { target: t },
        gm_modifier: 0,
    };
    assert!(d.check(ACE, &offensive(BANDIT)).is_ok());
    d.set_position(BANDIT, ACE, 1);
    assert!(d.check(ACE, &offensive(BANDIT)).is_err());
    assert!(d.check(CUTTY, &offensive(BANDIT)).is_err());
}

fn to_fire_resolution(d: &mut Battle, orders: &[(UnitId, Vec<Shot>)]) -> Vec<BattleEvent> {
    d.begin_turn();
    let mut events = Vec::new();
    while d.next < d.order.len() {
        let Step::Awaiting(id) = d.advance(&mut Scripted::new(&[]), &mut events) else {
            break;
        };
        let shots = orders
            .iter()
            .find(|(o, _)| *o == id)
            .map(|(_, s)| s.clone())
            .unwrap_or_default();
        d.apply(
            id,
            Action::Fire {
                shots,
                gm_modifier: 0,
            },
        );
    }
    events
}

/// "SUSTAINED FIRE AB": +1 per turn of firing on one target; lost on a change of target.
/// "2-LIGHT": the target loses its next turn and its bonuses, and continuing damage makes
/// the next light hit heavy ("3-HEAVY": a fighter is destroyed).
#[test]
fn sustained_fire_light_damage_and_continuing_damage() {
    let mut d = dogfight("");
    let shot = |t| {
        vec![Shot {
            weapon: 0,
            target: t,
            aim: None,
        }]
    };
    to_fire_resolution(&mut d, &[(ACE, shot(BANDIT))]);
    let mut events = Vec::new();
    // Ace: snap shot at 13 + 2 − 5 = 10: rolls 10, hits; Bandit dodges at 12/2 + 1 = 7:
    // rolls 9, fails. Light damage.
    let step = d.advance(&mut Scripted::new(&[4, 3, 3, 3, 3, 3]), &mut events);
    assert_eq!(step, Step::Advanced);
    assert!(
        d.state(UnitId(2)).damaged
            && d.state(UnitId(2)).skip_maneuver
            && d.state(UnitId(2)).skip_fire
    );
    assert_eq!(d.sustained_ab(ACE, 0, BANDIT), 1);
    // Bandit loses its maneuver; the others fly straight.
    let mut events = Vec::new();
    loop {
        match d.advance(&mut Scripted::new(&[]), &mut events) {
            Step::Awaiting(u) => d.apply(
                u,
                Action::Maneuver {
                    maneuver: Maneuver::FlyStraight,
                    gm_modifier: 0,
                },
            ),
            Step::TurnOver => break,
            Step::Advanced => {}
        }
    }
    assert!(events.iter().any(|e| matches!(e, BattleEvent::Note { unit: Some(BANDIT), text } if text.contains("loses this maneuver"))));
    // Turn 2: Bandit may not fire; Ace fires again with Sustained Fire +1: 13 + 2 + 1 = 16.
    d.begin_turn();
    assert_eq!(
        d.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(ACE)
    );
    d.apply(
        ACE,
        Action::Fire {
            shots: shot(BANDIT),
            gm_modifier: 0,
        },
    );
    for _ in 0..3 {
        if let Step::Awaiting(u) = d.advance(&mut Scripted::new(&[]), &mut events) {
            assert!(
                u != BANDIT
                    || d.check(
                        u,
                        &Action::Fire {
                            shots: shot(ACE),
                            gm_modifier: 0
                        }
                    )
                    .is_err()
            );
            d.apply(
                u,
                Action::Fire {
                    shots: vec![],
                    gm_modifier: 0,
                },
            );
        }
    }
    // Hit with 15 (dodge 9 fails): a second light hit on a damaged fighter is heavy (its
    // minor pilot rolls HT: 3 3 3 lives).
    let mut events = Vec::new();
    d.advance(
        &mut Scripted::new(&[5, 5, 5, 3, 3, 3, 3, 3, 3]),
        &mut events,
    );
    assert_eq!(d.state(UnitId(2)).out, Some(Fate::Destroyed));
    assert!(events.iter().any(|e| matches!(e, BattleEvent::Note { text, .. } if text.contains("continuing damage makes this light hit heavy"))));
    assert_eq!(d.sustained_ab(ACE, 0, BANDIT), 2);
}

/// "3-HEAVY" disables a cutter and its minor characters may die (an HT roll each); "4-GREAT"
/// vaporizes, and a
/// major character lives only by an HT roll; a light hit on a craft with hit locations
/// knocks one out with the guns there.
#[test]
fn heavy_and_great_hits_and_hit_locations() {
    let mut d = dogfight("");
    let mut events = Vec::new();
    // Light on the cutter: location d2 = 2, the turret, and its laser with it.
    d.hit(
        BANDIT,
        CUTTY,
        Firepower::Light,
        &mut Scripted::new(&[2]),
        &mut events,
    );
    assert!(d.state(UnitId(1)).locations_out[1]);
    assert!(d.guns_at(CUTTY, LINER).is_empty());
    // Heavy: disabled; the minor characters "may die" (issue 26 item 14): each rolls HT
    // 10 — the pilot 6 6 5 = 17 dies, the gunner 1 2 3 = 6 lives; the captain (major)
    // lives without a roll.
    let mut d = dogfight("");
    let mut dice = Scripted::new(&[6, 6, 5, 1, 2, 3]);
    d.hit(BANDIT, CUTTY, Firepower::Heavy, &mut dice, &mut events);
    assert_eq!(dice.remaining(), 0);
    assert_eq!(d.state(UnitId(1)).out, Some(Fate::Disabled));
    assert_eq!(d.state(UnitId(1)).alive, vec![false, true, true]);
    // Great: vaporized; the captain rolls HT 12: 13 fails.
    let mut d = dogfight("");
    d.hit(
        LINER,
        CUTTY,
        Firepower::Great,
        &mut Scripted::new(&[6, 4, 3]),
        &mut events,
    );
    assert_eq!(d.state(UnitId(1)).out, Some(Fate::Vaporized));
    assert_eq!(d.state(UnitId(1)).alive, vec![false, false, false]);
    // Great on a fighter with a major pilot who makes HT 10: 10 succeeds.
    let mut d = dogfight("");
    d.hit(
        LINER,
        ACE,
        Firepower::Great,
        &mut Scripted::new(&[4, 3, 3]),
        &mut events,
    );
    assert_eq!(d.state(UnitId(0)).alive, vec![true]);
}

fn to_maneuvers(d: &mut Battle) {
    to_fire_resolution(d, &[]);
    let mut events = Vec::new();
    assert_eq!(
        d.advance(&mut Scripted::new(&[]), &mut events),
        Step::Advanced
    );
    assert!(matches!(d.phase, Phase::Maneuvers { .. }));
}

/// "REVERSAL": against a foe maneuvering offensively, a Quick Contest of Piloting + MR;
/// the defender's critical success swaps the two craft's bonuses.
#[test]
fn reversal_contest_and_swap() {
    let mut d = dogfight("");
    d.set_position(ACE, BANDIT, 3);
    to_maneuvers(&mut d);
    // Order: worst Piloting + MR first: Liner 10, Cutty 12, Bandit 13, Ace 16.
    assert_eq!(d.order, vec![LINER, CUTTY, BANDIT, ACE]);
    let mut events = Vec::new();
    let fly = Action::Maneuver {
        maneuver: Maneuver::FlyStraight,
        gm_modifier: 0,
    };
    for id in [LINER, CUTTY] {
        assert_eq!(
            d.advance(&mut Scripted::new(&[]), &mut events),
            Step::Awaiting(id)
        );
        d.apply(id, fly.clone());
    }
    // Bandit: Maneuver Offensively against Ace is closed (Ace has Position on it).
    assert_eq!(
        d.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(BANDIT)
    );
    assert!(
        d.check(
            BANDIT,
            &Action::Maneuver {
                maneuver: Maneuver::Offensive { target: ACE },
                gm_modifier: 0
            }
        )
        .is_err()
    );
    d.apply(
        BANDIT,
        Action::Maneuver {
            maneuver: Maneuver::Offensive { target: CUTTY },
            gm_modifier: 0,
        },
    );
    // Ace may not reverse Bandit (Bandit is not maneuvering against Ace).
    assert_eq!(
        d.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(ACE)
    );
    assert!(
        d.check(
            ACE,
            &Action::Maneuver {
                maneuver: Maneuver::Reversal { target: BANDIT },
                gm_modifier: 0
            }
        )
        .is_err()
    );
    d.apply(ACE, fly.clone());
    // Bandit rolls 10 vs 13: Position on Cutty 0 -> 1.
    d.advance(&mut Scripted::new(&[4, 3, 3]), &mut events);
    assert_eq!(d.position_ab(BANDIT, CUTTY), 1);

    // Cutty answers Bandit's Maneuver Offensively with a Reversal (Bandit declares first
    // here). Bandit rolls 12 against 13, Cutty a critical 3: Cutty wins critically and the
    // two swap their bonuses (Bandit had 2 on Cutty, Cutty none on Bandit), within the
    // class restrictions ("UNORTHODOX TACTICS": a cutter cannot gain Position on a
    // fighter): Bandit keeps none, Cutty gains none.
    let mut d = dogfight("");
    d.set_position(BANDIT, CUTTY, 2);
    to_maneuvers(&mut d);
    let mut events = Vec::new();
    d.order = vec![LINER, BANDIT, CUTTY, ACE];
    assert_eq!(
        d.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(LINER)
    );
    d.apply(LINER, fly.clone());
    assert_eq!(
        d.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(BANDIT)
    );
    d.apply(
        BANDIT,
        Action::Maneuver {
            maneuver: Maneuver::Offensive { target: CUTTY },
            gm_modifier: 0,
        },
    );
    assert_eq!(
        d.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(CUTTY)
    );
    let reversal = Action::Maneuver {
        maneuver: Maneuver::Reversal { target: BANDIT },
        gm_modifier: 0,
    };
    assert!(d.check(CUTTY, &reversal).is_ok());
    d.apply(CUTTY, reversal);
    assert_eq!(
        d.advance(&mut Scripted::new(&[]), &mut events),
        Step::Awaiting(ACE)
    );
    d.apply(ACE, fly);
    // Bandit's offensive is settled by the contest alone (no roll of its own).
    d.advance(&mut Scripted::new(&[4, 4, 4, 1, 1, 1]), &mut events);
    assert_eq!(d.position_ab(CUTTY, BANDIT), 0);
    assert_eq!(d.position_ab(BANDIT, CUTTY), 0);
    assert!(events.iter().any(|e| matches!(e, BattleEvent::Note { unit: Some(CUTTY), text } if text.starts_with("critical success: swaps places"))));
}

/// Runs a maneuver phase in the order given, with each craft's decision from `pick`.
fn maneuvers_in_order(
    d: &mut Battle,
    order: Vec<UnitId>,
    pick: impl Fn(&Battle, UnitId) -> (Maneuver, i32),
    dice: &[u32],
) -> Vec<BattleEvent> {
    to_maneuvers(d);
    d.order = order;
    let mut events = Vec::new();
    while let Step::Awaiting(u) = d.advance(&mut Scripted::new(&[]), &mut events) {
        let (maneuver, gm_modifier) = pick(d, u);
        let action = Action::Maneuver {
            maneuver,
            gm_modifier,
        };
        assert!(d.check(u, &action).is_ok(), "{u:?} {action:?}");
        d.apply(u, action);
        if d.next == d.order.len() {
            break;
        }
    }
    d.advance(&mut Scripted::new(dice), &mut events);
    events
}

/// "REVERSAL": a weaker pilot declaring first may answer in advance a foe still to
/// declare; when that foe does maneuver offensively against it, the Quick Contest decides
/// (with the attacker's own GM modifier). Both fail here: Bandit (13, GM −3: 10) rolls 15,
/// failing by 5; Ace (16) rolls 17, failing by 1: Ace fails by less and wins, and wins the
/// effect of a critical Maneuver Defensively: Bandit's Position on Ace drops to 0.
#[test]
fn a_reversal_declared_in_advance_wins_a_contest_of_failures() {
    let mut d = dogfight("");
    d.set_position(BANDIT, ACE, 2);
    let events = maneuvers_in_order(
        &mut d,
        vec![LINER, CUTTY, ACE, BANDIT],
        |_, u| match u {
            ACE => (Maneuver::Reversal { target: BANDIT }, 0),
            BANDIT => (Maneuver::Offensive { target: ACE }, -3),
            _ => (Maneuver::FlyStraight, 0),
        },
        &[6, 5, 4, 6, 6, 5],
    );
    assert_eq!(d.position_ab(BANDIT, ACE), 0);
    let contest = events.iter().find_map(|e| match e {
        BattleEvent::Roll {
            unit: BANDIT, roll, ..
        } => Some(roll.clone()),
        _ => None,
    });
    assert!(contest.is_some_and(|r| {
        r.target == Some(10)
            && r.modifiers
                .iter()
                .any(|m| m.label.to_string() == "GM" && m.value == -3)
    }));
}

/// "REVERSAL" answers an offensive: if the foe answered in advance does something else,
/// the reversal comes to nothing and nobody rolls for it.
#[test]
fn a_reversal_against_a_foe_that_does_not_attack_comes_to_nothing() {
    let mut d = dogfight("");
    d.set_position(BANDIT, ACE, 2);
    let events = maneuvers_in_order(
        &mut d,
        vec![LINER, CUTTY, ACE, BANDIT],
        |_, u| match u {
            ACE => (Maneuver::Reversal { target: BANDIT }, 0),
            _ => (Maneuver::FlyStraight, 0),
        },
        &[],
    );
    assert_eq!(d.position_ab(BANDIT, ACE), 2);
    assert!(!events.iter().any(|e| matches!(e, BattleEvent::Roll { .. })));
    assert!(
        events.iter().any(
            |e| matches!(e, BattleEvent::Note { text, .. } if text.contains("comes to nothing"))
        )
    );
}

/// "GO TOTALLY DEFENSIVE" is rolled against Piloting alone (the text's exception to
/// Piloting + MR): Ace (Piloting 14, MR 2) rolls against 14, and a success lowers every
/// foe's Position on it by 1.
#[test]
fn going_totally_defensive_rolls_piloting_without_mr() {
    let mut d = dogfight("");
    d.set_position(BANDIT, ACE, 2);
    let events = maneuvers_in_order(
        &mut d,
        vec![LINER, CUTTY, BANDIT, ACE],
        |_, u| match u {
            ACE => (Maneuver::TotallyDefensive, 0),
            _ => (Maneuver::FlyStraight, 0),
        },
        &[5, 5, 4],
    );
    let roll = events.iter().find_map(|e| match e {
        BattleEvent::Roll {
            unit: ACE, roll, ..
        } => Some(roll.clone()),
        _ => None,
    });
    assert!(roll.is_some_and(
        |r| r.target == Some(14) && !r.modifiers.iter().any(|m| m.label.to_string() == "MR")
    ));
    assert_eq!(d.position_ab(BANDIT, ACE), 1);
    assert!(d.state(ACE).skip_fire);
}

/// "THE FURBALL": a gunner who snap-shoots and fails perception fired on a friend; the
/// same dice are judged against the friend's size. Ace (Gunner 13, Acc +2, snap −5) rolls
/// 9 at Bandit, fails perception (17 against 10), and the die picks Cutty: against a cutter
/// (+2 to be hit) the 9 is checked against 12 and hits; a cutter cannot dodge a fighter.
#[test]
fn a_furball_snap_shot_that_fails_perception_hits_a_friend_by_its_size() {
    // Three more cutters like Cutty make it a furball.
    let more: String = (0..3)
        .map(|k| {
            format!(
                r#"(name: "Extra {k}", side: "a", at: (-5, {k}), stats: Socs(class: Cutter, mr: 0,
            locations: ["Bridge", "Turret"],
            pilot: (name: "Pilot C", piloting: 12),
            weapons: [(name: "Laser", firepower: Light, range: Long, acc: 1, location: "Turret",
                gunner: (name: "Gunner C", gunner: 12))],
            aboard: [(name: "Captain C", major: true, ht: 12)])),"#
            )
        })
        .collect();
    let mut d = dogfight_with("", &more);
    assert!(d.furball());
    d.begin_turn();
    let mut events = Vec::new();
    while let Step::Awaiting(id) = d.advance(&mut Scripted::new(&[]), &mut events) {
        let shots = if id == ACE {
            vec![Shot {
                weapon: 0,
                target: BANDIT,
                aim: None,
            }]
        } else {
            vec![]
        };
        d.apply(
            id,
            Action::Fire {
                shots,
                gm_modifier: 0,
            },
        );
        if d.next == d.order.len() {
            break;
        }
    }
    // Attack 3+3+3, perception 6+6+5, friend die 1 (Cutty), hit location die 1.
    d.advance(&mut Scripted::new(&[3, 3, 3, 6, 6, 5, 1, 1]), &mut events);
    let attack = events.iter().find_map(|e| match e {
        BattleEvent::Attack {
            target,
            roll,
            result,
            ..
        } => Some((*target, roll.clone(), *result)),
        _ => None,
    });
    let Some((target, roll, result)) = attack else {
        panic!("no attack: {events:#?}");
    };
    assert_eq!(target, CUTTY);
    assert_eq!(roll.target, Some(12));
    assert!(
        roll.modifiers
            .iter()
            .any(|m| m.value == 2 && m.label.to_string().contains("to be hit"))
    );
    assert_eq!(result, crate::battle::AttackResult::Hit);
    assert!(d.state(CUTTY).damaged);
}

/// "2-LIGHT" continuing damage on a craft with hit locations (a decision, in the module
/// doc): a further light hit knocks out the location the die picks; only a location
/// already out (or the last one working) makes it heavy.
#[test]
fn continuing_damage_on_a_craft_with_locations() {
    let mut d = dogfight("");
    let mut events = Vec::new();
    let mut light = |d: &mut Battle, by: UnitId, target: UnitId, dice: &[u32]| {
        d.hit(
            by,
            target,
            Firepower::Light,
            &mut Scripted::new(dice),
            &mut events,
        )
    };
    // First light hit: location die 1, the Bridge.
    light(&mut d, ACE, CUTTY, &[1]);
    assert!(d.state(CUTTY).damaged);
    assert_eq!(d.state(CUTTY).locations_out, vec![true, false]);
    // Second light hit on the Bridge again: heavy, disabled (its two minor characters
    // roll HT: 3 3 3 each, both live).
    light(&mut d, ACE, CUTTY, &[1, 3, 3, 3, 3, 3, 3]);
    assert_eq!(d.state(CUTTY).out, Some(Fate::Disabled));
    // A fighter has no locations: its second light hit is heavy at once.
    light(&mut d, CUTTY, BANDIT, &[]);
    light(&mut d, CUTTY, BANDIT, &[3, 3, 3]);
    assert_eq!(d.state(BANDIT).out, Some(Fate::Destroyed));
    // Liner (one location): its first light hit knocks the Bridge out; the next is heavy.
    light(&mut d, ACE, LINER, &[1]);
    assert!(d.in_fight(LINER));
    light(&mut d, ACE, LINER, &[1, 3, 3, 3, 3, 3, 3]);
    assert_eq!(d.state(LINER).out, Some(Fate::Disabled));
}

/// The AI weighs a light hit on a damaged craft by what continuing damage makes of it
/// ("FIREPOWER LEVELS", 2-LIGHT; "HIT LOCATIONS"): a fighter's is heavy (destroyed); a
/// ship's only when the die picks a location already out, or when one location is left.
#[test]
fn the_ai_weighs_a_light_hit_by_its_chance_of_continuing_damage() {
    let hulk = UnitId(4);
    let mut d = dogfight_with(
        "",
        r#"(name: "Hulk", side: "b", at: (3, -3), stats: Socs(class: ShipOfTheLine, mr: -1,
            locations: ["Bridge", "Engines", "Hangar"],
            pilot: (name: "Helm H", piloting: 11),
            weapons: [(name: "Battery", firepower: Light, range: Long, acc: 0, location: "Bridge",
                gunner: (name: "Gunner H", gunner: 11))]))"#,
    );
    let value = |d: &Battle, t| super::ai::shot_value(d, d.crafts(), ACE, 0, t);
    // A ship of the line may not dodge a fighter's shot, so its worth is the chance to hit
    // times the weight: 1 for a light hit on an intact craft.
    assert!(!d.may_dodge(hulk, ACE));
    let p = d.shot_odds(ACE, 0, hulk, 0);
    assert!(p > 0.0 && p < 1.0, "{p}");
    assert!((value(&d, hulk) - p).abs() < 1e-12);
    // Damaged with one of three locations out: heavy (3) one time in three, else 1.
    d.state(hulk).damaged = true;
    d.state(hulk).locations_out = vec![true, false, false];
    assert!((value(&d, hulk) - p * (3.0 * (1.0 / 3.0) + 1.0 * (2.0 / 3.0))).abs() < 1e-12);
    // One location left working: the light hit is heavy for certain.
    d.state(hulk).locations_out = vec![true, true, false];
    assert!((value(&d, hulk) - p * 3.0).abs() < 1e-12);
    // A damaged fighter: heavy for certain; it may dodge, which would make the hit
    // cosmetic (0.05), so half of each.
    d.state(BANDIT).damaged = true;
    assert!(d.may_dodge(BANDIT, ACE));
    let q = d.shot_odds(ACE, 0, BANDIT, 0);
    assert!(q > 0.0 && q < 1.0, "{q}");
    assert!((value(&d, BANDIT) - q * (3.0 + 0.05) / 2.0).abs() < 1e-12);
}

/// "THE FURBALL": with more than six craft, a critical failure on a piloting roll
/// collides with a random craft.
#[test]
fn furball_collisions() {
    assert!(!dogfight("").furball());
    // Make it a furball with three more fighters like Ace.
    let more: String = (0..3)
        .map(|k| {
            format!(
                r#"(name: "Extra {k}", side: "a", at: (-5, {k}), stats: Socs(class: Fighter, mr: 2,
            pilot: (name: "Ace", major: true, piloting: 14, gunner: 13),
            weapons: [(name: "Blaster", firepower: Light, range: Short, acc: 2)])),"#
            )
        })
        .collect();
    let mut d = dogfight_with("", &more);
    assert!(d.furball());
    to_maneuvers(&mut d);
    let mut events = Vec::new();
    let first = d.order[0];
    // Everyone flies straight except the first, who maneuvers defensively and rolls 18
    // (the minor characters of both craft in the collision then roll HT: 3s, they live).
    loop {
        let dice = [6, 6, 6, 1].into_iter().chain([3; 12]).collect::<Vec<_>>();
        match d.advance(&mut Scripted::new(&dice), &mut events) {
            Step::Awaiting(u) if u == first => d.apply(
                u,
                Action::Maneuver {
                    maneuver: Maneuver::Defensive {
                        target: if d.side(u) == Some(0) { BANDIT } else { ACE },
                        weapon: None,
                    },
                    gm_modifier: 0,
                },
            ),
            Step::Awaiting(u) => d.apply(
                u,
                Action::Maneuver {
                    maneuver: Maneuver::FlyStraight,
                    gm_modifier: 0,
                },
            ),
            _ => break,
        }
    }
    assert!(events.iter().any(|e| matches!(e, BattleEvent::Note { text, .. } if text.starts_with("furball: collides with"))), "{events:#?}");
    assert!(d.state(first).out.is_some());
}

/// Range: short-range weapons fire at short range only; at Out of range nobody fires,
/// and a craft out of range of every foe has escaped.
#[test]
fn ranges_limit_weapons_and_escapes() {
    let mut d = dogfight("");
    d.set_range(ACE, BANDIT, SocsRange::Long);
    assert!(
        d.guns_at(ACE, BANDIT).is_empty(),
        "the blaster is short-ranged"
    );
    d.set_range(CUTTY, LINER, SocsRange::Long);
    assert_eq!(d.guns_at(CUTTY, LINER), vec![0]);
    for f in [BANDIT, LINER] {
        d.set_range(ACE, f, SocsRange::OutOfRange);
    }
    to_maneuvers(&mut d);
    let mut events = Vec::new();
    while let Step::Awaiting(u) = d.advance(&mut Scripted::new(&[]), &mut events) {
        d.apply(
            u,
            Action::Maneuver {
                maneuver: Maneuver::FlyStraight,
                gm_modifier: 0,
            },
        );
    }
    // Nobody broke off (the ranges were set): nobody escapes, the fight stays.
    assert_eq!(d.state(UnitId(0)).out, None);
    // Ace broke off from Bandit: now out of range of every foe, it has escaped; the foes
    // it left stay in the fight.
    let bandit = d.entity(BANDIT);
    d.state(ACE).broke_off_from.push(bandit);
    to_maneuvers(&mut d);
    while let Step::Awaiting(u) = d.advance(&mut Scripted::new(&[]), &mut events) {
        d.apply(
            u,
            Action::Maneuver {
                maneuver: Maneuver::FlyStraight,
                gm_modifier: 0,
            },
        );
    }
    assert_eq!(d.state(UnitId(0)).out, Some(Fate::Escaped));
    assert!(d.in_fight(BANDIT) && d.in_fight(LINER));
}

/// "FOLLOW THE LEADER": the chasers (foes with Position on the leader) roll Piloting + MR
/// at the leader's penalty; a chaser who fails drops to 0 and loses the leader; one who
/// succeeds critically gains 1; the leader's failure gives each chaser 1 more.
#[test]
fn follow_the_leader() {
    let mut d = dogfight("");
    d.set_position(BANDIT, ACE, 2);
    d.set_position(LINER, ACE, 1);
    to_maneuvers(&mut d);
    let mut events = Vec::new();
    while let Step::Awaiting(u) = d.advance(&mut Scripted::new(&[]), &mut events) {
        let maneuver = if u == ACE {
            Maneuver::FollowTheLeader { penalty: 2 }
        } else {
            Maneuver::FlyStraight
        };
        d.apply(
            u,
            Action::Maneuver {
                maneuver,
                gm_modifier: 0,
            },
        );
        if d.next == d.order.len() {
            break;
        }
    }
    // Ace (14 + 2 − 2 = 14) rolls 10; Bandit (12 + 1 − 2 = 11) rolls 12 and fails: 0. The
    // ship of the line cannot chase: it loses Ace without a roll.
    d.advance(&mut Scripted::new(&[4, 3, 3, 4, 4, 4]), &mut events);
    assert_eq!(d.position_ab(BANDIT, ACE), 0);
    assert_eq!(d.position_ab(LINER, ACE), 0);
    assert!(events.iter().any(
        |e| matches!(e, BattleEvent::Note { unit: Some(BANDIT), text } if text.starts_with("loses Ace"))
    ));
    // "Chasers with Position AB of 0 lose the lead pilot": next fire phase their guns
    // cannot find it (a decision for what "lose" means).
    assert!(d.guns_at(BANDIT, ACE).is_empty());
    assert!(d.state_of(LINER).lost_sight_of.contains(&d.entity(ACE)));
    // The leader fails (13 against 14 + 2 − 4 = 12), the chaser makes it (9 against
    // 12 + 1 − 4 = 9): its Position grows by 1, to 2.
    let mut d = dogfight("");
    d.set_position(BANDIT, ACE, 1);
    to_maneuvers(&mut d);
    let mut events = Vec::new();
    while let Step::Awaiting(u) = d.advance(&mut Scripted::new(&[]), &mut events) {
        let maneuver = if u == ACE {
            Maneuver::FollowTheLeader { penalty: 4 }
        } else {
            Maneuver::FlyStraight
        };
        d.apply(
            u,
            Action::Maneuver {
                maneuver,
                gm_modifier: 0,
            },
        );
        if d.next == d.order.len() {
            break;
        }
    }
    d.advance(&mut Scripted::new(&[5, 4, 4, 3, 3, 3]), &mut events);
    assert_eq!(d.position_ab(BANDIT, ACE), 2);
}

/// The odds the action panel shows for a shot ([`Dogfight::shot_odds`]) are the frequency
/// with which the fire phase's roll (3d6 against [`Dogfight::shot_modifiers`], GURPS
/// criticals) succeeds over all 216 rolls: a snap shot, Position and Sustained Fire on a
/// fighter, a shot at a ship of the line, with a GM modifier ("FIRE PHASE", "AIMING
/// BONUSES", "TO-HIT MODIFIERS").
#[test]
fn the_odds_shown_are_the_odds_rolled() {
    let mut d = dogfight("");
    let mut situations = Vec::new();
    situations.push((ACE, 0, BANDIT, 0));
    situations.push((ACE, 0, LINER, 0));
    situations.push((CUTTY, 0, LINER, 3));
    d.set_position(ACE, BANDIT, 2);
    let bandit = d.entity(BANDIT);
    d.state(ACE).sustained[0] = Some((bandit, 1));
    situations.push((ACE, 0, BANDIT, -2));
    for (me, w, t, gm) in situations {
        let shown = d.shot_odds(me, w, t, gm);
        let mods = d.shot_modifiers(me, w, t, gm);
        let mut hits = 0;
        for a in 1..=6 {
            for b in 1..=6 {
                for c in 1..=6 {
                    let roll = success_roll(&mut Scripted::new(&[a, b, c]), mods.clone());
                    hits += u32::from(roll.succeeded());
                }
            }
        }
        assert!(
            (shown - f64::from(hits) / 216.0).abs() < 1e-12,
            "{me:?} gun {w} at {t:?}: shown {shown}, rolled {hits}/216"
        );
    }
}

/// "FOLLOW THE LEADER": "minus lead pilot's chosen penalty" (issue 26 item 13): the leader
/// may choose any penalty from 0 to `MAX_LEAD_PENALTY`, not only even ones; ships of the
/// line may not lead at all.
#[test]
fn the_leader_chooses_any_penalty() {
    use super::dogfight::MAX_LEAD_PENALTY;
    let mut d = dogfight("");
    d.set_position(BANDIT, ACE, 2);
    to_maneuvers(&mut d);
    let mut events = Vec::new();
    let lead = |penalty| Action::Maneuver {
        maneuver: Maneuver::FollowTheLeader { penalty },
        gm_modifier: 0,
    };
    loop {
        match d.advance(&mut Scripted::new(&[]), &mut events) {
            Step::Awaiting(u) if u == ACE => break,
            Step::Awaiting(u) => {
                if u == LINER {
                    assert!(d.check(LINER, &lead(0)).is_err(), "a ship of the line");
                }
                let straight = Action::Maneuver {
                    maneuver: Maneuver::FlyStraight,
                    gm_modifier: 0,
                };
                d.apply(u, straight);
            }
            other => panic!("Ace never declared: {other:?}"),
        }
    }
    let first = ACE;
    for p in [0, 1, 3, 5, 7, MAX_LEAD_PENALTY] {
        d.check(first, &lead(p))
            .unwrap_or_else(|e| panic!("penalty {p}: {e}"));
    }
    assert_eq!(MAX_LEAD_PENALTY, 10);
    assert!(d.check(first, &lead(11)).is_err());
    assert!(d.check(first, &lead(-1)).is_err());
}

/// A planet, a station with armour and a light raider, after the four craft of
/// [`dogfight`]: units 4, 5 and 6.
const WORLDS: &str = r#"(name: "Regina", side: "b", at: (6, -3), stats: Socs(class: Planet, mr: 0,
            locations: ["Starport", "Battery"], pilot: (name: "Governor"))),
        (name: "Bastion", side: "b", at: (5, -2), stats: Socs(class: Station, mr: 0,
            locations: ["Core"], armor: true,
            pilot: (name: "Warden", major: true, ht: 12), aboard: [(name: "Clerk")])),
        (name: "Raider", side: "b", at: (4, -1), stats: Socs(class: Fighter, mr: 1,
            pilot: (name: "Raider", piloting: 12, gunner: 12),
            weapons: [(name: "Pulse gun", firepower: Light, range: Short, acc: 0)])),"#;
const REGINA: UnitId = UnitId(4);
const BASTION: UnitId = UnitId(5);
const RAIDER: UnitId = UnitId(6);

fn aimed(target: UnitId, aim: Option<u8>) -> Vec<Shot> {
    vec![Shot {
        weapon: 0,
        target,
        aim,
    }]
}

/// "PLANETS: Automatic unless targeting specific hit locations" (issue 26 item 17): an
/// unaimed shot at a planet hits with no roll and knocks out a location the die picks; it
/// cannot dodge and only flies straight.
#[test]
fn a_planet_is_hit_automatically() {
    let mut d = dogfight_with("", WORLDS);
    to_fire_resolution(&mut d, &[(ACE, aimed(REGINA, None))]);
    let mut events = Vec::new();
    // The only die: the location, d2 = 2, the Battery.
    let mut dice = Scripted::new(&[2]);
    d.advance(&mut dice, &mut events);
    assert_eq!(dice.remaining(), 0, "{events:#?}");
    assert_eq!(d.state(REGINA).locations_out, vec![false, true]);
    assert!(d.in_fight(REGINA));
    assert!(
        events.iter().any(
            |e| matches!(e, BattleEvent::Attack { target: REGINA, result, .. } if result.hit())
        )
    );
    assert!(
        !d.crafts().may_dodge(REGINA, LINER),
        "a planet does not dodge"
    );
    let mut d = dogfight_with("", WORLDS);
    to_maneuvers(&mut d);
    let legal = d.fight.legal_actions(d.crafts(), REGINA);
    let straight = Action::Maneuver {
        maneuver: Maneuver::FlyStraight,
        gm_modifier: 0,
    };
    assert_eq!(legal, vec![straight], "a world keeps its course");
}

/// Aimed shots (issue 26 item 17; our decision): a hit location is one size smaller than
/// its craft — a planet's as a station, +6; a cutter's as a fighter, +0 — and a hit
/// knocks that location out; a planet with none left is out of the fight. Fighters have no
/// locations to aim at.
#[test]
fn aimed_shots_take_out_the_location_aimed_at() {
    let mut d = dogfight_with("", WORLDS);
    let mods = d
        .fight
        .aimed_shot_modifiers(d.crafts(), ACE, 0, REGINA, Some(0), 0);
    assert!(
        mods.iter()
            .any(|m| &*m.label == "aimed at the Starport (one size smaller)" && m.value == 6),
        "{mods:?}"
    );
    let on_cutter = d
        .fight
        .aimed_shot_modifiers(d.crafts(), RAIDER, 0, CUTTY, Some(1), 0);
    assert!(
        on_cutter
            .iter()
            .any(|m| &*m.label == "aimed at the Turret (one size smaller)" && m.value == 0),
        "{on_cutter:?}"
    );
    // Ace aims at the Starport (13 + 2 - 5 + 6 = 16), Cutty's laser at the Battery
    // (12 + 1 - 5 + 6 = 14): 3 3 3 each hits; seven craft make a furball, so each snap
    // shooter then rolls perception (3 3 3: fires true); no die for the locations.
    to_fire_resolution(
        &mut d,
        &[
            (ACE, aimed(REGINA, Some(0))),
            (CUTTY, aimed(REGINA, Some(1))),
        ],
    );
    let mut events = Vec::new();
    let mut dice = Scripted::new(&[3; 12]);
    d.advance(&mut dice, &mut events);
    assert_eq!(dice.remaining(), 0, "{events:#?}");
    assert_eq!(d.state(REGINA).locations_out, vec![true, true]);
    assert!(!d.in_fight(REGINA), "every location is out");
    // A fighter has no hit location to aim at.
    let mut d = dogfight_with("", WORLDS);
    d.begin_turn();
    let mut events = Vec::new();
    let Step::Awaiting(first) = d.advance(&mut Scripted::new(&[]), &mut events) else {
        panic!("no fire decision awaited");
    };
    let foe = if d.side(first) == Some(0) {
        RAIDER
    } else {
        ACE
    };
    let at_fighter = Action::Fire {
        shots: aimed(foe, Some(0)),
        gm_modifier: 0,
    };
    assert!(d.check(first, &at_fighter).is_err());
}

/// "5-EXTREME: ... the demise of everyone involved (assuming no armor or force shields)"
/// (issue 26 item 17; our reading): on a craft with armour or force shields an extreme hit
/// counts as great — vaporized, the minor characters die, a major one rolls HT.
#[test]
fn armour_and_force_shields_turn_an_extreme_hit_great() {
    let mut d = dogfight_with("", WORLDS);
    let mut events = Vec::new();
    // The Warden rolls HT 12: 3 3 3 survives.
    let mut dice = Scripted::new(&[3, 3, 3]);
    d.hit(LINER, BASTION, Firepower::Extreme, &mut dice, &mut events);
    assert_eq!(dice.remaining(), 0);
    assert_eq!(d.state(BASTION).out, Some(Fate::Vaporized));
    assert_eq!(d.state(BASTION).alive, vec![true, false]);
    // Without armour nobody lives and nobody rolls.
    let mut d = dogfight_with("", &WORLDS.replace("armor: true,", ""));
    d.hit(
        LINER,
        BASTION,
        Firepower::Extreme,
        &mut Scripted::new(&[]),
        &mut events,
    );
    assert_eq!(d.state(BASTION).alive, vec![false, false]);
}

/// A battle that keeps no log (a preview) skips redrawing the map but is fought exactly as
/// one that keeps it: the same outcome, rounds, standings, tallies and craft states, for
/// every shipped SOCS scenario and several seeds.
#[test]
fn a_battle_without_a_log_is_fought_as_one_with_it() {
    for file in [
        "socs-dogfight.ron",
        "socs-furball.ron",
        "socs-regina-siege.ron",
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(file);
        let prepared = Arc::new(
            crate::rules::builtin()
                .load(&path)
                .unwrap_or_else(|e| panic!("{file}: {e}")),
        );
        for seed in 1..=6 {
            let fight = |keep_log: bool| {
                let options = SessionOptions {
                    keep_log,
                    autopilot: true,
                };
                let mut s = Session::new(prepared.clone(), seed, options);
                let outcome = s.run();
                let mut states: Vec<(UnitId, CraftState)> = s
                    .world
                    .query::<(&UnitId, &CraftState)>()
                    .iter(&s.world)
                    .map(|(id, c)| (*id, c.clone()))
                    .collect();
                states.sort_by_key(|(id, _)| *id);
                let tallies = s
                    .world
                    .resource::<crate::battle::BattleStats>()
                    .units
                    .clone();
                let ranges = s.world.resource::<Dogfight>().ranges.clone();
                (outcome, s.round(), s.standings(), tallies, states, ranges)
            };
            assert_eq!(fight(true), fight(false), "{file}, seed {seed}");
        }
    }
}

/// The AI's sum of a shot's modifiers ([`Dogfight::shot_total`], labels never written)
/// equals the sum of the labelled list the fire phase rolls against
/// ([`Dogfight::aimed_shot_modifiers`]) for every shooter, gun, target, aim and GM
/// modifier, with and without Position and Sustained Fire ("FIRE PHASE", "TO-HIT
/// MODIFIERS", "AIMING BONUSES").
#[test]
fn the_shot_total_is_the_sum_of_the_shot_modifiers() {
    let mut d = dogfight_with("", WORLDS);
    let all: Vec<UnitId> = d.crafts().ids().collect();
    let mut compared = 0;
    for bonuses in 0..3 {
        if bonuses > 0 {
            for (k, &a) in all.iter().enumerate() {
                for &b in &all {
                    d.set_position(a, b, (k as i32 + bonuses) % 3);
                }
                let target = d.entity(all[(k + bonuses as usize) % all.len()]);
                for s in d.state(a).sustained.iter_mut() {
                    *s = Some((target, bonuses));
                }
            }
        }
        for &me in &all {
            let guns = d.crafts().craft(me).stats.weapons.len();
            for w in 0..guns {
                for &t in &all {
                    for aim in [None, Some(0), Some(1), Some(9)] {
                        for gm in -3..=3 {
                            let listed: i32 = d
                                .fight
                                .aimed_shot_modifiers(d.crafts(), me, w, t, aim, gm)
                                .iter()
                                .map(|m| m.value)
                                .sum();
                            let total = d.fight.shot_total(d.crafts(), me, w, t, aim, gm);
                            assert_eq!(total, listed, "{me:?} gun {w} at {t:?} {aim:?} {gm}");
                            compared += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 500, "{compared}");
}

/// [`Dogfight::maneuver_open`] answers as [`Dogfight::legal_actions`] lists, for every
/// maneuver against every craft (friends, foes, out of range, out of the fight, guns that
/// do not exist, penalties out of bounds, game-master maneuvers that do not exist), for
/// every craft in the fight after every step of battles of every shipped SOCS scenario,
/// in both phases.
#[test]
fn an_open_maneuver_is_a_legal_one() {
    let mut compared = 0;
    for file in [
        "socs-dogfight.ron",
        "socs-furball.ron",
        "socs-regina-siege.ron",
    ] {
        for seed in 1..=4 {
            let mut s = crate::rules::testing::shipped(file, seed);
            for _ in 0..400 {
                if s.outcome().is_some() {
                    break;
                }
                let d = s.world.resource::<Dogfight>();
                let crafts = &s.world;
                for me in crafts.fighting() {
                    let legal = d.legal_actions(crafts, me);
                    let all: Vec<UnitId> = Units::<Craft, CraftState>::ids(crafts)
                        .chain([UnitId(99)])
                        .collect();
                    let mut maneuvers = vec![Maneuver::FlyStraight, Maneuver::TotallyDefensive];
                    for &target in &all {
                        maneuvers.push(Maneuver::Offensive { target });
                        maneuvers.push(Maneuver::Reversal { target });
                        for weapon in [None, Some(0), Some(1), Some(2), Some(7)] {
                            maneuvers.push(Maneuver::Defensive { target, weapon });
                        }
                        for index in 0..=d.gm_maneuvers.len() as u8 + 1 {
                            maneuvers.push(Maneuver::Gm { index, target });
                        }
                    }
                    for penalty in -2..=12 {
                        maneuvers.push(Maneuver::FollowTheLeader { penalty });
                    }
                    for maneuver in maneuvers {
                        let listed = legal.contains(&Action::Maneuver {
                            maneuver: maneuver.clone(),
                            gm_modifier: 0,
                        });
                        assert_eq!(
                            d.maneuver_open(crafts, me, &maneuver),
                            listed,
                            "{file} seed {seed}: {me:?} {maneuver:?} in {:?}",
                            d.phase
                        );
                        compared += 1;
                    }
                }
                s.step();
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}

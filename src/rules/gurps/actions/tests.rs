//! Tests of the GURPS maneuvers open to a fighter and the check of its commands, with the
//! rule texts' numbers.

use super::*;
use crate::hexmap::{MapShape, Orientation, Terrain};
use crate::rules::gurps::equipment::Catalog;
use crate::rules::gurps::maneuver::Effort;
use crate::rules::gurps::sheet::{GurpsStats, resolve_sheet};
use std::sync::Arc;

fn fighter(weapons: &[&str]) -> Fighter {
    let stats = GurpsStats {
        st: Some(11),
        dx: Some(12),
        ht: Some(11),
        weapons: weapons.iter().map(|w| w.to_string().into()).collect(),
        ..Default::default()
    };
    Fighter::new(Arc::new(resolve_sheet(&stats, Catalog::builtin()).unwrap()))
}

/// An open hexagonal map of `radius` hexes, 1 yard a hex.
fn hex_map(radius: u32) -> HexMap {
    HexMap::new(MapShape::Hexagon { radius }, Orientation::Pointy, 1.0, "yd")
}

fn situation<'a>(map: &'a HexMap, fighters: &'a [(Fighter, Hex, u8)]) -> Situation<'a> {
    test_situation(map, fighters, true)
}

fn action(maneuver: Maneuver, to: Option<Hex>, target: Option<u32>, weapon: Option<u8>) -> Action {
    Action {
        maneuver,
        to,
        target: target.map(UnitId),
        weapon,
        ..Action::simple(Maneuver::DoNothing)
    }
}

#[test]
fn melee_attack_needs_reach() {
    let map = hex_map(6);
    let units = [
        (fighter(&["broadsword"]), Hex::ZERO, 0),
        (fighter(&["broadsword"]), Hex::new(2, 0), 1),
    ];
    let s = situation(&map, &units);
    // two hexes away: Attack must step first
    let err = plan(&s, &action(Maneuver::Attack, None, Some(1), Some(0))).unwrap_err();
    assert!(err.contains("2 hexes away"), "{err}");
    let ok = plan(
        &s,
        &action(Maneuver::Attack, Some(Hex::new(1, 0)), Some(1), Some(0)),
    )
    .unwrap();
    assert_eq!(ok.cost, 1);
    // a step of two hexes is too far for Attack
    let err = plan(
        &s,
        &action(Maneuver::Attack, Some(Hex::new(0, 2)), Some(1), Some(0)),
    )
    .unwrap_err();
    assert!(err.contains("beyond"), "{err}");
}

#[test]
fn cannot_move_into_walls_or_fighters() {
    let mut map = hex_map(6);
    map.set_terrain(Hex::new(0, 1), Terrain::Blocked);
    // Running (+1 Move): going round the foe costs 6 with the turns it takes.
    let mut runner = fighter(&["broadsword"]);
    runner.last_maneuver = Some(Maneuver::Move);
    let units = [
        (runner, Hex::ZERO, 0),
        (fighter(&["broadsword"]), Hex::new(2, 0), 1),
    ];
    let s = situation(&map, &units);
    let refusal = |to: Hex| plan(&s, &action(Maneuver::Move, Some(to), None, None)).unwrap_err();
    assert!(refusal(Hex::new(0, 1)).contains("blocked"));
    assert!(refusal(Hex::new(2, 0)).contains("occupied"));
    assert!(refusal(Hex::new(40, 0)).contains("off the map"));
    let p = plan(
        &s,
        &action(Maneuver::Move, Some(Hex::new(3, 0)), None, None),
    )
    .unwrap();
    assert!(!p.path.contains(&Hex::new(2, 0)));
}

#[test]
fn ranged_needs_sight_and_range_and_a_loaded_weapon() {
    let mut map = hex_map(8);
    map.set_terrain(Hex::new(2, 0), Terrain::Blocked);
    let mut archer = fighter(&["short bow"]);
    let units = [
        (archer.clone(), Hex::ZERO, 0),
        (fighter(&[]), Hex::new(5, 0), 1),
    ];
    let s = situation(&map, &units);
    let err = plan(&s, &action(Maneuver::Attack, None, Some(1), Some(0))).unwrap_err();
    assert!(err.contains("line of sight"), "{err}");
    assert!(
        plan(
            &s,
            &action(Maneuver::Aim, Some(Hex::new(0, 1)), Some(1), Some(0))
        )
        .is_ok()
    );
    archer.shots[0] = 0;
    let units = [(archer, Hex::ZERO, 0), (fighter(&[]), Hex::new(0, 5), 1)];
    let s = situation(&map, &units);
    assert!(
        plan(&s, &action(Maneuver::Attack, None, Some(1), Some(0)))
            .unwrap_err()
            .contains("not loaded")
    );
    assert!(plan(&s, &action(Maneuver::Ready, None, None, Some(0))).is_ok());
}

/// Every action that passes `plan` is listed by `legal_options`, with its strike: the
/// AI and the action panel choose from that list, and `plan` is what enforces it.
#[test]
fn checked_actions_are_listed() {
    let mut map = HexMap::new(
        MapShape::Hexagon { radius: 5 },
        Orientation::Pointy,
        2.0,
        "yd",
    );
    map.set_terrain(Hex::new(1, 1), Terrain::Blocked);
    map.set_terrain(Hex::new(-1, 2), Terrain::Difficult);
    let mut empty_bow = fighter(&["short bow", "spear"]);
    empty_bow.shots[0] = 0;
    let loadouts = [
        fighter(&["broadsword"]),
        fighter(&["longbow", "large knife"]),
        fighter(&["halberd", "pistol"]),
        empty_bow,
        fighter(&[]),
    ];
    let spots = [
        Hex::new(2, 0),
        Hex::new(0, 3),
        Hex::new(-3, 1),
        Hex::new(1, -4),
    ];
    let mut checked = 0;
    for me in &loadouts {
        for foe in &loadouts {
            for &foe_at in &spots {
                let units = [
                    (me.clone(), Hex::ZERO, 0),
                    (foe.clone(), foe_at, 1),
                    (fighter(&["spear"]), Hex::new(0, -1), 0),
                ];
                let s = situation(&map, &units);
                let legal = legal_options(&s);
                for maneuver in Maneuver::ALL {
                    for to in
                        std::iter::once(None).chain(hexx::shapes::hexagon(Hex::ZERO, 3).map(Some))
                    {
                        for target in [None, Some(1), Some(2)] {
                            for weapon in [None, Some(0), Some(1)] {
                                let a = action(maneuver, to, target, weapon);
                                if plan(&s, &a).is_err() {
                                    continue;
                                }
                                checked += 1;
                                assert!(legal.get(maneuver).is_some(), "{a:?} not listed");
                                if let (true, Some(t), Some(w)) =
                                    (maneuver.needs_target(), target, weapon)
                                {
                                    assert!(
                                        legal.strikes(maneuver).any(|x| x == (UnitId(t), w)),
                                        "{a:?}: strike not listed"
                                    );
                                }
                                if maneuver == Maneuver::Ready {
                                    assert!(legal.reloadable().contains(&weapon.unwrap_or(9)));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn legal_options_follow_the_weapons() {
    let map = hex_map(6);
    let units = [
        (fighter(&["broadsword"]), Hex::ZERO, 0),
        (fighter(&["broadsword"]), Hex::new(1, 0), 1),
        (fighter(&["broadsword"]), Hex::new(-1, 0), 0),
    ];
    let s = situation(&map, &units);
    let legal = legal_options(&s);
    assert!(legal.get(Maneuver::Aim).is_none()); // no ranged weapon
    assert!(legal.get(Maneuver::Ready).is_none());
    assert!(legal.get(Maneuver::Attack).is_some());
    let strikes: Vec<_> = legal.strikes(Maneuver::Attack).collect();
    // the sword and the fist everyone has; not the friend
    assert_eq!(strikes, vec![(UnitId(1), 0), (UnitId(1), 1)]);
    assert_eq!(legal.get(Maneuver::Move).unwrap().allowance, 5);
    assert!(
        legal
            .get(Maneuver::AllOutAttack(AoaOption::Double))
            .is_some()
    );
    // an illegal maneuver is refused whatever its parameters
    assert!(plan(&s, &action(Maneuver::Aim, None, Some(1), Some(0))).is_err());
    assert!(
        plan(&s, &action(Maneuver::Attack, None, Some(2), Some(0)))
            .unwrap_err()
            .contains("own side")
    );
}

/// [`legal_options`] finds the fighter's facts once (usable weapons, the least
/// movement a strike needs, lameness, a stun); here each maneuver is checked the long
/// way, one by one, over fighters stunned, lame, disarmed, unloaded, after a run, on the
/// ground, near and far from the foe.
#[test]
fn legal_maneuvers_are_the_ones_checked_one_by_one() {
    use super::super::location::HitLocation;
    use super::super::posture::Posture;
    let map = hex_map(12);
    let mut opened = 0;
    for variant in 0..256u32 {
        for foe_at in [
            Hex::new(1, 0),
            Hex::new(2, 0),
            Hex::new(4, -1),
            Hex::new(11, 0),
        ] {
            let bit = |b: u32| variant & (1 << b) != 0;
            let mut f = fighter(if bit(0) {
                &["broadsword", "longbow"]
            } else {
                &["spear"]
            });
            f.stunned = bit(1) && bit(2);
            f.lose_turn = bit(1) && !bit(2);
            if bit(3) {
                f.crippled.push(HitLocation::RightLeg);
            }
            if bit(4) {
                f.crippled.push(HitLocation::RightArm);
            }
            if bit(5) {
                let last = f.shots.len() - 1;
                f.shots[last] = 0;
                f.weapon_state[0] = WeaponState::Unready;
                if bit(4) {
                    // Nothing in hand at all: no Wait, no strike.
                    f.weapon_state.fill(WeaponState::Unready);
                }
            }
            if bit(6) {
                f.last_maneuver = Some(Maneuver::Move);
            }
            if bit(7) {
                f.posture = Posture::Lying;
            }
            let units = [(f, Hex::ZERO, 0), (fighter(&["spear"]), foe_at, 1)];
            let s = situation(&map, &units);
            let legal = legal_options(&s);
            let f = &units[0].0;
            let listed: Vec<Maneuver> = legal.options.iter().map(|o| o.maneuver).collect();
            let mut expected = Vec::new();
            for m in Maneuver::ALL {
                let open = match m {
                    Maneuver::DoNothing => true,
                    _ if f.stunned || f.lose_turn => false,
                    Maneuver::ChangePosture(to) => {
                        f.posture.can_change_to(to) && !(f.lame() && to.needs_both_legs())
                    }
                    Maneuver::Ready => {
                        (0..f.sheet.weapons.len()).any(|w| f.can_ready(w)) || !f.shield_ready
                    }
                    Maneuver::Wait => (0..f.sheet.weapons.len()).any(|w| f.can_use(w)),
                    Maneuver::AllOutDefense(AodOption::IncreasedParry) => {
                        f.sheet.weapons.iter().any(|w| w.parry.is_some())
                    }
                    m if m.needs_target() => legal
                        .reach
                        .iter()
                        .any(|r| weapon_fits(m, r.ranged) && r.short <= allowance(f, m)),
                    _ => true,
                };
                if open {
                    expected.push(m);
                    let option = legal.get(m).map(|o| o.allowance);
                    assert_eq!(option, Some(allowance(f, m)), "{variant} {m:?}");
                }
            }
            assert_eq!(listed, expected, "{variant} {foe_at:?}");
            opened += listed.len();
        }
    }
    assert!(opened > 5000, "{opened}");
}

/// gurps-lite-and-socs.txt, "MANEUVERS", Move: +1 hex after a full turn of running.
#[test]
fn running_adds_a_hex_to_move() {
    let mut f = fighter(&[]); // Move 5
    assert_eq!(allowance(&f, Maneuver::Move), 5);
    f.last_maneuver = Some(Maneuver::Move);
    assert_eq!(allowance(&f, Maneuver::Move), 6);
    assert_eq!(allowance(&f, Maneuver::MoveAndAttack), 5);
}

/// The options' own conditions (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS"), and
/// the scenario switch for the FP-paid ones.
#[test]
fn extra_effort_is_checked() {
    let map = hex_map(4);
    let units = [
        (fighter(&["broadsword"]), Hex::ZERO, 0),
        (fighter(&["broadsword"]), Hex::new(1, 0), 1),
        (fighter(&["broadsword"]), Hex::new(0, 1), 1),
    ];
    let mut s = situation(&map, &units);
    s.extra_effort = false;
    let with = |maneuver, effort: Effort| Action {
        target: Some(UnitId(1)),
        weapon: Some(0),
        effort,
        ..Action::simple(maneuver)
    };
    let rapid = Effort {
        rapid_strike: true,
        second_target: Some(UnitId(2)),
        ..Effort::default()
    };
    let p = plan(&s, &with(Maneuver::Attack, rapid)).unwrap();
    assert_eq!(p.second_target, Some(2));
    assert!(plan(&s, &with(Maneuver::DefensiveAttack, rapid)).is_err());
    let mighty = Effort {
        mighty_blow: true,
        ..Effort::default()
    };
    let err = plan(&s, &with(Maneuver::Attack, mighty)).unwrap_err();
    assert!(err.contains("extra-effort"), "{err}");
    s.extra_effort = true;
    assert!(plan(&s, &with(Maneuver::Attack, mighty)).is_ok());
    let flurry = Effort {
        flurry: true,
        ..Effort::default()
    };
    assert!(plan(&s, &with(Maneuver::Attack, flurry)).is_err());
    let heroic = Effort {
        heroic_charge: true,
        ..Effort::default()
    };
    assert!(plan(&s, &with(Maneuver::Attack, heroic)).is_err());
    assert!(plan(&s, &with(Maneuver::MoveAndAttack, heroic)).is_ok());
    // Dual-Weapon Attack needs a second, different, one-handed weapon
    let dual = Effort {
        dual_weapon: Some(0),
        ..Effort::default()
    };
    let err = plan(&s, &with(Maneuver::Attack, dual)).unwrap_err();
    assert!(err.contains("two different weapons"), "{err}");
    let dual = Effort {
        dual_weapon: Some(5),
        ..Effort::default()
    };
    assert!(
        plan(&s, &with(Maneuver::Attack, dual)).is_err(),
        "no such weapon"
    );
    // a sword and the bare fist everyone has
    let dual = Effort {
        dual_weapon: Some(1),
        ..Effort::default()
    };
    assert!(plan(&s, &with(Maneuver::Attack, dual)).is_ok());
    assert_eq!(
        Effort {
            rapid_strike: true,
            flurry: true,
            mighty_blow: true,
            ..Effort::default()
        }
        .fp_cost(),
        3
    );
}

/// gurps-lite-and-socs.txt "ATTACK/DEFENSE OPTIONS", Dual-Weapon Attack: two weapons
/// (decision: one-handed ones, and no shield, and the off arm whole), in place of one
/// attack, on one or two foes.
#[test]
fn dual_weapon_needs_two_one_handed_weapons() {
    let map = hex_map(4);
    let check = |weapons: &[&str], off_arm: bool| {
        let mut me = fighter(weapons);
        if off_arm {
            me.crippled
                .push(crate::rules::gurps::location::HitLocation::LeftArm);
        }
        let units = [(me, Hex::ZERO, 0), (fighter(&[]), Hex::new(1, 0), 1)];
        let s = situation(&map, &units);
        plan(
            &s,
            &Action {
                target: Some(UnitId(1)),
                weapon: Some(0),
                effort: Effort {
                    dual_weapon: Some(1),
                    ..Effort::default()
                },
                ..Action::simple(Maneuver::Attack)
            },
        )
    };
    assert!(check(&["shortsword", "large knife"], false).is_ok());
    let err = check(&["shortsword", "greatsword"], false).unwrap_err();
    assert!(err.contains("one-handed"), "{err}");
    // A crippled off arm holds no second weapon (decision in `Fighter::off_arm_useless`).
    let err = check(&["shortsword", "large knife"], true).unwrap_err();
    assert!(err.contains("off arm"), "{err}");
}

/// A group attack is the acting fighter's (gurps-lite-and-socs.txt, "GROUP COMBAT"): its
/// group starts with it, then the others of its side who can strike the foe from where
/// they stand, by unit id; with the foe out of its own reach there is no group, even when
/// others could strike, and a group attack command is refused.
#[test]
fn a_group_is_led_by_the_acting_fighter() {
    let map = hex_map(6);
    let foe = Hex::new(1, 0);
    for (me_at, expected) in [
        (Hex::ZERO, vec![(0, 0), (2, 0), (3, 0)]),
        (Hex::new(-3, 0), vec![]),
    ] {
        let units = [
            (fighter(&["broadsword"]), me_at, 0),
            (fighter(&["broadsword"]), foe, 1),
            (fighter(&["broadsword"]), Hex::new(2, 0), 0),
            (fighter(&["spear", "broadsword"]), Hex::new(1, 1), 0),
            (fighter(&["broadsword"]), Hex::new(5, 0), 0),
        ];
        let mut s = situation(&map, &units);
        s.grouped = true;
        assert_eq!(s.group_for(&s.units[1]), expected, "from {me_at:?}");
        let attack = Action {
            group: true,
            ..action(Maneuver::Attack, None, Some(1), Some(0))
        };
        assert_eq!(
            plan(&s, &attack).is_ok(),
            !expected.is_empty(),
            "from {me_at:?}"
        );
    }
}

/// gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS": Deceptive Attack, −2 to skill a
/// level, "min. of 10"; decision: of the final effective skill. Broadsword 14: an Attack
/// takes 2 levels (14 − 4 = 10), not 3 (8); an All-Out Attack (Determined), +4 in melee
/// ("MANEUVERS"), takes 4 (18 − 8 = 10), not 5; a Move and Attack, capped at 9, none.
#[test]
fn deceptive_attack_against_final_effective_skill() {
    let map = hex_map(6);
    let stats = GurpsStats {
        st: Some(11),
        dx: Some(12),
        ht: Some(11),
        skills: [("Broadsword".to_string(), 14)].into_iter().collect(),
        weapons: vec!["broadsword".into()],
        ..Default::default()
    };
    let swordsman = Fighter::new(Arc::new(resolve_sheet(&stats, Catalog::builtin()).unwrap()));
    let units = [
        (swordsman, Hex::ZERO, 0),
        (fighter(&["broadsword"]), Hex::new(1, 0), 1),
    ];
    let s = situation(&map, &units);
    let deceptive = |maneuver: Maneuver, levels: u8| {
        plan(
            &s,
            &Action {
                deceptive: levels,
                ..action(maneuver, None, Some(1), Some(0))
            },
        )
    };
    assert!(deceptive(Maneuver::Attack, 2).is_ok());
    let err = deceptive(Maneuver::Attack, 3).unwrap_err();
    assert!(
        err.contains("effective skill 14 below 10: at most 2 levels"),
        "{err}"
    );
    let determined = Maneuver::AllOutAttack(AoaOption::Determined);
    assert!(deceptive(determined, 4).is_ok());
    let err = deceptive(determined, 5).unwrap_err();
    assert!(err.contains("effective skill 18"), "{err}");
    let err = deceptive(Maneuver::MoveAndAttack, 1).unwrap_err();
    assert!(err.contains("at most 0 levels"), "{err}");
    // A Dual-Weapon Attack ("ATTACK/DEFENSE OPTIONS": −4 each, the off hand −4 more):
    // Shortsword 16 and Knife 16 strike at 12 and 8, so the off hand takes no level.
    let stats = GurpsStats {
        skills: [("Shortsword".to_string(), 16), ("Knife".to_string(), 16)]
            .into_iter()
            .collect(),
        weapons: vec!["shortsword".into(), "large knife".into()],
        ..stats
    };
    let dual = Fighter::new(Arc::new(resolve_sheet(&stats, Catalog::builtin()).unwrap()));
    let units = [
        (dual, Hex::ZERO, 0),
        (fighter(&["broadsword"]), Hex::new(1, 0), 1),
    ];
    let s = situation(&map, &units);
    let both = |levels: u8| {
        plan(
            &s,
            &Action {
                deceptive: levels,
                effort: Effort {
                    dual_weapon: Some(1),
                    ..Effort::default()
                },
                ..action(Maneuver::Attack, None, Some(1), Some(0))
            },
        )
    };
    assert!(both(0).is_ok());
    let err = both(1).unwrap_err();
    assert!(
        err.contains("large knife's effective skill 8 below 10: at most 0 levels"),
        "{err}"
    );
}

/// A crippled off arm (decision in `Fighter::off_arm_useless`: it holds no two-handed
/// weapon and bears the shield): after a knockdown drops everything
/// (gurps-lite-and-socs.txt, "Knockdown and Stunning"), Ready can take up the broadsword
/// but neither the quarterstaff nor the shield; with the arm whole, all three.
#[test]
fn a_crippled_off_arm_readies_no_two_handed_weapon_or_shield() {
    let map = hex_map(4);
    let stats = GurpsStats {
        st: Some(11),
        dx: Some(12),
        ht: Some(11),
        weapons: vec!["broadsword".into(), "quarterstaff".into()],
        shield: Some("medium shield".into()),
        ..Default::default()
    };
    let mut me = Fighter::new(Arc::new(resolve_sheet(&stats, Catalog::builtin()).unwrap()));
    assert!(me.knocked_down());
    me.stunned = false;
    me.shield_ready = false;
    let ready = |me: &Fighter, weapon: Option<u8>| {
        let units = [
            (me.clone(), Hex::ZERO, 0),
            (fighter(&[]), Hex::new(3, 0), 1),
        ];
        let s = situation(&map, &units);
        let listed = legal_options(&s).reloadable().to_vec();
        let checked = plan(
            &s,
            &Action {
                weapon,
                ..Action::simple(Maneuver::Ready)
            },
        );
        (listed, checked.map(|_| ()))
    };
    let (listed, shield) = ready(&me, None);
    assert_eq!(listed, [0, 1]);
    assert!(shield.is_ok());
    me.crippled
        .push(crate::rules::gurps::location::HitLocation::LeftArm);
    let (listed, shield) = ready(&me, None);
    assert_eq!(listed, [0], "the broadsword only");
    assert!(
        shield
            .unwrap_err()
            .contains("bears the shield, is crippled")
    );
    assert!(ready(&me, Some(0)).1.is_ok());
    let err = ready(&me, Some(1)).1.unwrap_err();
    assert_eq!(
        err,
        "quarterstaff needs two hands and its off arm is crippled"
    );
}

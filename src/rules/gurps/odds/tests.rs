//! Tests of the odds preview, with the rule texts' numbers worked by hand.

use super::*;
use crate::battle::Standing;
use crate::hexmap::{HexMap, MapShape, Orientation};
use crate::rules::gurps::actions::UnitView;
use crate::rules::gurps::equipment::Catalog;
use crate::rules::gurps::maneuver::Effort;
use crate::rules::gurps::sheet::{GurpsStats, resolve_sheet};
use std::sync::Arc;

fn fighter(skill: (&str, i32), weapons: &[&str]) -> Fighter {
    let stats = GurpsStats {
        st: Some(11),
        dx: Some(12),
        ht: Some(11),
        skills: [(skill.0.to_string(), skill.1)].into_iter().collect(),
        weapons: weapons.iter().map(|w| w.to_string().into()).collect(),
        ..Default::default()
    };
    Fighter::new(Arc::new(resolve_sheet(&stats, Catalog::builtin()).unwrap()))
}

/// `f` with its first weapon doing `damage` of `damage_type`.
fn armed(f: &Fighter, damage: &str, damage_type: DamageType) -> Fighter {
    let mut sheet = (*f.sheet).clone();
    sheet.weapons[0].damage = damage.parse().unwrap();
    sheet.weapons[0].damage_type = damage_type;
    Fighter::new(Arc::new(sheet))
}

/// `f` wearing DR `dr`.
fn armored(f: &Fighter, dr: i32) -> Fighter {
    let mut sheet = (*f.sheet).clone();
    sheet.dr = crate::rules::gurps::location::DrTable::uniform(dr);
    Fighter::new(Arc::new(sheet))
}

fn map() -> HexMap {
    HexMap::new(
        MapShape::Hexagon { radius: 6 },
        Orientation::Pointy,
        1.0,
        "yd",
    )
}

/// Units as (fighter, where, side, the hex it faces toward).
type Units = [(Fighter, Hex, u8, Hex)];

fn situation<'a>(map: &'a HexMap, units: &'a Units, locations: HitLocations) -> Situation<'a> {
    Situation {
        map,
        units: units
            .iter()
            .enumerate()
            .map(|(i, (f, pos, side, toward))| UnitView {
                id: UnitId(i as u32),
                name: ["Ann", "Bob", "Cat"][i % 3],
                side: *side,
                pos: *pos,
                standing: Standing::Fighting,
                fighter: f,
                facing: pos.main_direction_to(*toward),
            })
            .collect(),
        me: 0,
        extra_effort: false,
        grouped: false,
        hit_locations: locations,
        paths: Default::default(),
        entry: Default::default(),
    }
}

fn attack(maneuver: Maneuver) -> Action {
    Action {
        target: Some(UnitId(1)),
        weapon: Some(0),
        ..Action::simple(maneuver)
    }
}

/// A swordsman (skill 12) at (0, 0) and a foe at (1, 0) facing him (or away from him).
fn duel(foe: Fighter, facing_me: bool) -> Vec<(Fighter, Hex, u8, Hex)> {
    let foe_at = Hex::new(1, 0);
    let toward = if facing_me { Hex::ZERO } else { Hex::new(2, 0) };
    vec![
        (
            fighter(("Broadsword", 12), &["broadsword"]),
            Hex::ZERO,
            0,
            foe_at,
        ),
        (foe, foe_at, 1, toward),
    ]
}

fn one(odds: &Odds) -> &StrikeOdds {
    assert_eq!(odds.strikes.len(), 1, "{odds:?}");
    &odds.strikes[0]
}

/// gurps-lite-and-socs.txt "ATTACK" and "CRITICALS": an attack at skill 12 succeeds on
/// 3d6 rolls of 12 or less: 160 of the 216 rolls; 3 and 4 (4 rolls) are critical hits.
#[test]
fn to_hit_is_the_exact_3d6_chance() {
    let m = map();
    let units = duel(fighter(("Broadsword", 12), &["broadsword"]), true);
    let s = situation(&m, &units, HitLocations::Torso);
    let odds = estimate(&s, &attack(Maneuver::Attack)).unwrap();
    let strike = one(&odds);
    assert_eq!(strike.effective, 12);
    assert_eq!(strike.modifiers.len(), 1);
    assert_eq!(&*strike.modifiers[0].label, "Broadsword");
    assert_eq!(strike.to_hit, 160.0 / 216.0);
    assert!((strike.to_hit - 0.740_740_740_7).abs() < 1e-9);
    assert_eq!(strike.critical, 4.0 / 216.0);
    assert_eq!((strike.target, &*strike.target_name), (UnitId(1), "Bob"));
    assert_eq!(strike.weapon, "broadsword");
    // The foe (Broadsword 12: Parry 9; Basic Speed 5.75: Dodge 8) has room behind it:
    // Dodge and retreat, +3 (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS").
    let defense = strike.defense.as_ref().unwrap();
    assert_eq!(
        (defense.label.as_str(), defense.score),
        ("Dodge, retreating", 11)
    );
    assert_eq!(defense.chance, success_chance(11));
    let summary = odds.summary();
    assert!(
        summary.starts_with("hit 74% (skill 12), Dodge, retreating 11 stops 62%"),
        "{summary}"
    );
    assert!(summary.contains("expected injury"), "{summary}");
}

/// gurps-lite-and-socs.txt "ATTACK/DEFENSE OPTIONS", Deceptive Attack: each −2 to skill
/// gives −1 to the foe's defense against the attack.
#[test]
fn deceptive_attack_trades_two_to_hit_for_one_off_the_defense() {
    let m = map();
    let units = duel(fighter(("Broadsword", 12), &["broadsword"]), true);
    let s = situation(&m, &units, HitLocations::Torso);
    let plain = estimate(&s, &attack(Maneuver::Attack)).unwrap();
    let deceptive = estimate(
        &s,
        &Action {
            deceptive: 1,
            ..attack(Maneuver::Attack)
        },
    )
    .unwrap();
    let (a, b) = (one(&plain), one(&deceptive));
    assert_eq!(b.effective, a.effective - 2);
    assert_eq!(b.to_hit, success_chance(a.effective - 2));
    assert!(
        b.modifiers
            .iter()
            .any(|m| &*m.label == "Deceptive Attack" && m.value == -2)
    );
    let (da, db) = (a.defense.as_ref().unwrap(), b.defense.as_ref().unwrap());
    assert_eq!(db.label, da.label);
    assert_eq!(db.score, da.score - 1);
    assert_eq!(db.chance, success_chance(da.score - 1));
}

/// No active defense against an attack from behind (facing.rs; 4e Basic Set p. B391), and
/// none after an All-Out Attack (gurps-lite-and-socs.txt, "ALL-OUT ATTACK"): every hit
/// lands.
#[test]
fn no_defense_from_behind_or_after_an_all_out_attack() {
    let m = map();
    let units = duel(fighter(("Broadsword", 12), &["broadsword"]), false);
    let s = situation(&m, &units, HitLocations::Torso);
    let odds = estimate(&s, &attack(Maneuver::Attack)).unwrap();
    let strike = one(&odds);
    assert_eq!(strike.defense, None);
    assert!(odds.summary().contains("no defense"), "{}", odds.summary());
    assert!((strike.expected_injury - strike.to_hit * strike.injury_per_hit).abs() < 1e-12);
    let mut reckless = fighter(("Broadsword", 12), &["broadsword"]);
    reckless.guard = Guard::None;
    let units = duel(reckless, true);
    let s = situation(&m, &units, HitLocations::Torso);
    assert_eq!(
        one(&estimate(&s, &attack(Maneuver::Attack)).unwrap()).defense,
        None
    );
}

/// gurps-lite-and-socs.txt "ALL-OUT ATTACK": Determined, +4 to hit in melee.
#[test]
fn all_out_attack_determined_adds_four() {
    let m = map();
    let units = duel(fighter(("Broadsword", 12), &["broadsword"]), true);
    let s = situation(&m, &units, HitLocations::Torso);
    let odds = estimate(&s, &attack(Maneuver::AllOutAttack(AoaOption::Determined))).unwrap();
    let strike = one(&odds);
    assert_eq!(strike.effective, 16);
    assert!(
        strike
            .modifiers
            .iter()
            .any(|m| &*m.label == "All-Out Attack (Determined)" && m.value == 4)
    );
    assert_eq!(strike.to_hit, success_chance(16));
}

/// gurps-lite-and-socs.txt "WOUNDING MODIFIERS": a 1d+1 impaling blow against DR 4 gets
/// through with 0, 0, 0, 1, 2 or 3 points (mean 1.0), doubled for impaling: 2.0 a hit. At
/// skill 12 against a Dodge of 11: the 4 critical rolls of 216 land undefended, the other
/// 156 hits are stopped with the Dodge's chance. Cutting (×1.5, round down) turns 1, 2
/// and 3 points into 1, 3 and 4: 8/6 a hit, less than 1.5 × 1.0.
#[test]
fn expected_injury_through_dr_by_hand() {
    let m = map();
    let foe = armored(&fighter(("Broadsword", 12), &["broadsword"]), 4);
    let mut units = duel(foe, true);
    units[0].0 = armed(&units[0].0, "1d+1", DamageType::Impaling);
    let s = situation(&m, &units, HitLocations::Torso);
    let odds = estimate(&s, &attack(Maneuver::Attack)).unwrap();
    let strike = one(&odds);
    let dice = DiceExpr::d6(1, 1);
    assert_eq!(dice.mean_excess(4), 1.0);
    assert!((strike.injury_per_hit - 2.0 * dice.mean_excess(4)).abs() < 1e-12);
    let p_dodge = success_chance(11);
    let by_hand = 4.0 / 216.0 * 2.0 + 156.0 / 216.0 * (1.0 - p_dodge) * 2.0;
    assert!(
        (strike.expected_injury - by_hand).abs() < 1e-12,
        "{strike:?}"
    );

    units[0].0 = armed(&units[0].0, "1d+1", DamageType::Cutting);
    let s = situation(&m, &units, HitLocations::Torso);
    let odds = estimate(&s, &attack(Maneuver::Attack)).unwrap();
    assert!((one(&odds).injury_per_hit - 8.0 / 6.0).abs() < 1e-12);
}

/// gurps-lite-and-socs.txt "HIT LOCATIONS": an unaimed blow with random locations lands on
/// the 3d6 table, so its mean injury is the table's average; aimed at the skull (−7) it
/// goes through the skull's own DR 2 (gurps-traveller-gm-screen.txt, "BRAIN") and is
/// multiplied by 4: 1d+1 crushing gets 0 to 5 through, 2.5 on average, 10 a hit.
#[test]
fn hit_locations_and_the_skull() {
    let m = map();
    let mut units = duel(fighter(("Broadsword", 12), &["broadsword"]), true);
    units[0].0 = armed(&units[0].0, "1d+1", DamageType::Crushing);
    let s = situation(&m, &units, HitLocations::Random);
    let odds = estimate(&s, &attack(Maneuver::Attack)).unwrap();
    let hp = units[1].0.sheet.hp_max;
    let table: f64 = DiceExpr::d6(3, 0)
        .distribution()
        .iter()
        .map(|&(roll, p)| {
            let at = HitLocation::from_roll(roll);
            p * mean_injury(
                DiceExpr::d6(1, 1),
                0,
                DamageType::Crushing,
                (0, false),
                at,
                hp,
            )
        })
        .sum();
    assert!((one(&odds).injury_per_hit - table).abs() < 1e-12);
    assert!(
        (table - 4.5).abs() > 1e-6,
        "the table differs from the torso's 4.5"
    );

    let skull = estimate(
        &s,
        &Action {
            location: Some(HitLocation::Skull),
            ..attack(Maneuver::Attack)
        },
    )
    .unwrap();
    let strike = one(&skull);
    assert_eq!(strike.effective, 5);
    assert!((strike.injury_per_hit - 4.0 * DiceExpr::d6(1, 1).mean_excess(2)).abs() < 1e-12);
    assert!((strike.injury_per_hit - 10.0).abs() < 1e-12);
    // At skill 5 a roll of 6 misses the skull by 1 and lands on the torso.
    assert_eq!(strike.torso_instead, 10.0 / 216.0);
}

/// Damage bonuses (gurps-lite-and-socs.txt, "ALL-OUT ATTACK": Strong +2) and armor chinks
/// ("HIT LOCATIONS": DR halved): 1d+1+2 crushing through DR 4 is 0 to 5, 2.5 on average;
/// 1d+1 impaling at a chink in DR 6 meets DR 3: 10/6 through, doubled.
#[test]
fn damage_bonuses_and_chinks() {
    let m = map();
    let foe = armored(&fighter(("Broadsword", 12), &["broadsword"]), 4);
    let mut units = duel(foe, true);
    units[0].0 = armed(&units[0].0, "1d+1", DamageType::Crushing);
    let s = situation(&m, &units, HitLocations::Torso);
    let odds = estimate(&s, &attack(Maneuver::AllOutAttack(AoaOption::Strong))).unwrap();
    let strike = one(&odds);
    assert_eq!(strike.damage_bonus.len(), 1);
    assert_eq!(strike.damage_bonus[0].value, 2);
    assert!((strike.injury_per_hit - 2.5).abs() < 1e-12);

    let mut units = duel(
        armored(&fighter(("Broadsword", 12), &["broadsword"]), 6),
        true,
    );
    units[0].0 = armed(&units[0].0, "1d+1", DamageType::Impaling);
    let s = situation(&m, &units, HitLocations::Torso);
    let odds = estimate(
        &s,
        &Action {
            chink: true,
            ..attack(Maneuver::Attack)
        },
    )
    .unwrap();
    let strike = one(&odds);
    assert_eq!(strike.effective, 12 - 8);
    assert!((strike.injury_per_hit - 2.0 * 10.0 / 6.0).abs() < 1e-12);
}

/// gurps-lite-and-socs.txt "ALL-OUT ATTACK" (Double) and "ATTACK/DEFENSE OPTIONS" (Rapid
/// Strike −6 each; Dual-Weapon Attack −4 each, the off hand −4 more, the foe −1 to defend
/// when both strike it): two attack rolls. The second meets the foe after its first
/// defense: with a quarterstaff (reach 1-2) its retreat is used, so it parries (9) rather
/// than dodge (8); with a broadsword (reach 1) the retreat takes it out of reach ("Retreat":
/// a step away), and the second blow is lost.
#[test]
fn two_attack_rolls() {
    let m = map();
    let mut units = duel(fighter(("Broadsword", 12), &["broadsword"]), true);
    units[0].0 = fighter(("Staff", 12), &["quarterstaff"]);
    let s = situation(&m, &units, HitLocations::Torso);
    let double = estimate(&s, &attack(Maneuver::AllOutAttack(AoaOption::Double))).unwrap();
    assert_eq!(double.strikes.len(), 2);
    assert_eq!(double.strikes[0].effective, 12);
    let first = double.strikes[0].defense.as_ref().unwrap();
    let second = double.strikes[1].defense.as_ref().unwrap();
    assert_eq!(
        (first.label.as_str(), first.score),
        ("Dodge, retreating", 11)
    );
    assert_eq!(
        (second.label.as_str(), second.score),
        ("Parry (broadsword)", 9)
    );
    assert!(
        double.summary().contains("; in all"),
        "{}",
        double.summary()
    );
    assert_eq!(double.note, None);

    let rapid = estimate(
        &s,
        &Action {
            effort: Effort {
                rapid_strike: true,
                ..Effort::default()
            },
            ..attack(Maneuver::Attack)
        },
    )
    .unwrap();
    assert_eq!(rapid.strikes.len(), 2);
    assert!(rapid.strikes.iter().all(|s| s.effective == 6));

    let units = duel(fighter(("Broadsword", 12), &["broadsword"]), true);
    let s = situation(&m, &units, HitLocations::Torso);
    let double = estimate(&s, &attack(Maneuver::AllOutAttack(AoaOption::Double))).unwrap();
    let first = one(&double).defense.as_ref().unwrap();
    assert_eq!(first.label, "Dodge, retreating");
    assert_eq!(
        double.note.as_deref(),
        Some("Bob would retreat out of the broadsword's reach: the next blow is lost")
    );

    // A Dual-Weapon Attack: the first blow's retreat takes the foe out of the knife's
    // reach; a foe that has already retreated this turn stays for both.
    let mut units = duel(fighter(("Broadsword", 12), &["broadsword"]), true);
    units[0].0 = fighter(("Shortsword", 14), &["shortsword", "large knife"]);
    let dual_attack = Action {
        effort: Effort {
            dual_weapon: Some(1),
            ..Effort::default()
        },
        ..attack(Maneuver::Attack)
    };
    let dual = estimate(&situation(&m, &units, HitLocations::Torso), &dual_attack).unwrap();
    assert_eq!(one(&dual).weapon, "shortsword");
    assert_eq!(dual.strikes[0].effective, 14 - 4);
    let both = dual.strikes[0].defense.as_ref().unwrap();
    assert_eq!(both.score, 11 - 1, "Dodge 8, retreating +3, both at it −1");
    assert!(
        dual.note
            .as_deref()
            .is_some_and(|n| n.contains("the large knife's reach")),
        "{dual:?}"
    );
    units[1].0.retreated = true;
    let dual = estimate(&situation(&m, &units, HitLocations::Torso), &dual_attack).unwrap();
    let weapons: Vec<&str> = dual.strikes.iter().map(|s| s.weapon.as_str()).collect();
    assert_eq!(weapons, ["shortsword", "large knife"]);
    assert_eq!(dual.note, None);
}

/// Maneuvers that make no attack roll have no strike, with a note; an illegal action gives
/// the same reason as the check itself.
#[test]
fn no_attack_and_illegal_actions() {
    let m = map();
    let units = duel(fighter(("Broadsword", 12), &["broadsword"]), true);
    let s = situation(&m, &units, HitLocations::Torso);
    for maneuver in [Maneuver::Feint, Maneuver::Evaluate, Maneuver::DoNothing] {
        let action = if maneuver.needs_target() {
            attack(maneuver)
        } else {
            Action::simple(maneuver)
        };
        let odds = estimate(&s, &action).unwrap();
        assert!(odds.strikes.is_empty(), "{maneuver}");
        assert!(odds.note.is_some(), "{maneuver}");
        assert_eq!(odds.summary(), odds.note.clone().unwrap_or_default());
    }
    let wait = Action {
        weapon: Some(0),
        ..Action::simple(Maneuver::Wait)
    };
    assert!(estimate(&s, &wait).unwrap().strikes.is_empty());
    for bad in [
        attack(Maneuver::Aim),
        Action {
            target: Some(UnitId(7)),
            ..attack(Maneuver::Attack)
        },
        Action {
            to: Some(Hex::new(0, 3)),
            ..attack(Maneuver::Attack)
        },
        Action {
            deceptive: 2,
            ..attack(Maneuver::Attack)
        },
    ] {
        let expected = plan(&s, &bad).unwrap_err();
        assert_eq!(estimate(&s, &bad).unwrap_err(), expected);
    }
}

/// A shot: range and the figures in the way come from where the shooter stands
/// (gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS": behind someone else −4), and
/// a ranged attack allows no parry.
#[test]
fn shots_count_range_and_figures_in_the_way() {
    let m = map();
    let units = vec![
        (
            fighter(("Bow", 13), &["short bow"]),
            Hex::ZERO,
            0,
            Hex::new(4, 0),
        ),
        (
            fighter(("Broadsword", 12), &["broadsword"]),
            Hex::new(4, 0),
            1,
            Hex::ZERO,
        ),
        (
            fighter(("Broadsword", 12), &["broadsword"]),
            Hex::new(2, 0),
            0,
            Hex::new(4, 0),
        ),
    ];
    let s = situation(&m, &units, HitLocations::Torso);
    let odds = estimate(&s, &attack(Maneuver::Attack)).unwrap();
    let strike = one(&odds);
    let label = |m: &Modifier| m.label.to_string();
    let labels: Vec<String> = strike.modifiers.iter().map(label).collect();
    assert!(
        labels.contains(&"behind someone else".to_string()),
        "{labels:?}"
    );
    assert!(labels.contains(&"range/speed".to_string()), "{labels:?}");
    let defense = strike.defense.as_ref().unwrap();
    assert!(defense.label.starts_with("Dodge"), "{defense:?}");
}

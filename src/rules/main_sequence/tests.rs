//! The worked examples of main-sequence.txt, with the numbers as written, and the tables.

use super::character::{Attributes, Rank, creation_problems};
use super::chase::{ChaseResult, chase_band, chase_table};
use super::combat::{
    Band, Cover, Down, RateOfFire, attack_damage, brought_down, in_reach, soak, stabilize_dl,
    take_damage, totals_per_target,
};
use super::ships::{
    Destruction, ShipAttributes, armor_soak, detection_dl, failures_crossed, shield_points,
    ship_destruction, ship_hit,
};
use crate::dice::{Modifier, Scripted, exploding_d6};

/// "Unopposed Checks": Alex rolls 3 + Tech 4 + Hacking 4 = 11 against DL 11 (Hard) and
/// gets in, just barely.
#[test]
fn the_hacking_example() {
    let r = exploding_d6(
        &mut Scripted::new(&[3]),
        vec![Modifier::new("Tech", 4), Modifier::new("Hacking", 4)],
        Some(11),
    );
    assert_eq!(r.total, 11);
    assert!(r.succeeded());
}

/// "Opposed Checks": Lorenz 2 + Agent 3 + Stealth Basic 2 = 7 against the guard's 4 + Tech
/// 2 + 0 = 6: Lorenz sneaks by.
#[test]
fn the_sneaking_contest() {
    let lorenz = exploding_d6(
        &mut Scripted::new(&[2]),
        vec![
            Modifier::new("Agent", 3),
            Modifier::new("Stealth", Rank::Basic.bonus()),
        ],
        None,
    );
    let guard = exploding_d6(
        &mut Scripted::new(&[4]),
        vec![Modifier::new("Tech", 2)],
        None,
    );
    assert_eq!((lorenz.total, guard.total), (7, 6));
    assert!(lorenz.total > guard.total);
}

/// "Basic Task Resolution": a 6 counts 5 and rolls again: 6, 6, 2 = 5 + 5 + 2.
#[test]
fn sixes_explode() {
    let r = exploding_d6(&mut Scripted::new(&[6, 6, 2]), vec![], None);
    assert_eq!(r.total, 12);
}

/// "Character Creation": derived stats, and the creation limits.
#[test]
fn derived_stats_and_creation_limits() {
    let a = Attributes {
        soldier: 4,
        agent: 3,
        tech: 3,
    };
    assert_eq!(a.combat_rating(), 3);
    assert_eq!(a.hit_points(), 10);
    assert_eq!(a.initiative(), 3);
    assert_eq!(a.defense(), 7);
    assert!(
        creation_problems(
            a,
            &[Rank::Advanced, Rank::Advanced, Rank::Basic, Rank::Basic]
        )
        .is_empty()
    );
    assert_eq!(
        creation_problems(
            a,
            &[Rank::Advanced, Rank::Advanced, Rank::Advanced, Rank::Basic]
        )
        .len(),
        1
    );
    assert_eq!(creation_problems(a, &[Rank::Master]).len(), 1);
    let bad = Attributes {
        soldier: 7,
        agent: 2,
        tech: 0,
    };
    assert_eq!(creation_problems(bad, &[]).len(), 3);
}

/// "Damage" and "Armor and Cover": Bob's Light Pistol (4) rolls 12 against Defense 8: 8
/// damage; armored clothing soaks 2: 6 Hit Points lost.
#[test]
fn bobs_light_pistol() {
    assert_eq!(attack_damage(12, 8, Cover::None, 4), Some(8));
    assert_eq!(soak(&[2], false), 2);
    assert_eq!(take_damage(20, 8, 2), 14);
    assert_eq!(soak(&[1, 3], true), 5, "highest armor, plus Tough");
    assert_eq!(take_damage(3, 20, 0), 0, "never below zero");
}

/// "Rate of Fire": Ree's full-auto roll of 5 + 4 + 4 = 13 against four opponents of
/// Defense 7: 13, 11, 9, 7, all hits, each doing less damage.
#[test]
fn rees_full_auto_burst() {
    let totals = totals_per_target(5 + 4 + 4, RateOfFire::FullAuto, 4).expect("up to ten");
    assert_eq!(totals, vec![13, 11, 9, 7]);
    let damage: Vec<Option<i32>> = totals
        .iter()
        .map(|&t| attack_damage(t, 7, Cover::None, 6))
        .collect();
    assert_eq!(damage, vec![Some(12), Some(10), Some(8), Some(6)]);
    assert_eq!(totals_per_target(10, RateOfFire::Burst, 4), None);
    assert_eq!(
        totals_per_target(10, RateOfFire::SemiAuto, 2),
        Some(vec![10, 8])
    );
}

/// "Range Bands": a weapon hits at its band or closer.
#[test]
fn weapons_reach_their_band_or_closer() {
    assert!(in_reach(Band::Medium, Band::Close));
    assert!(in_reach(Band::Medium, Band::Medium));
    assert!(!in_reach(Band::Close, Band::Long));
}

/// "Example Combats": the Valkyrie detects the Katath (4 + 3 + 0 + 3 = 10 against DL 7);
/// the Katath's 1 + 3 + 2 + 5 = 11 misses Defense 14; the Valkyrie's torpedoes, 5 + 4 + 4 +
/// 5 = 18 against 14, deal 9 + 4 = 13; the Armor tag soaks 2; 11 damage destroys the
/// 11-Hit-Point Katath. With Shields (10) instead, decision 2: 13 − 10 = 3 through, 2
/// soaked, 1 Hit Point lost.
#[test]
fn the_valkyrie_against_the_katath() {
    let detect = exploding_d6(
        &mut Scripted::new(&[4]),
        vec![
            Modifier::new("Tech", 3),
            Modifier::new("Knowledge (Sensors)", 0),
            Modifier::new("Sensors", 3),
        ],
        Some(detection_dl(0)),
    );
    assert!(detect.succeeded() && detect.total == 10);
    assert_eq!(attack_damage(1 + 3 + 2 + 5, 14, Cover::None, 5), None);
    let valkyrie = ShipAttributes {
        tactical: 5,
        propulsion: 3,
        sensors: 3,
        tonnage: 3,
    };
    assert_eq!(valkyrie.defense(), 14);
    assert_eq!(valkyrie.torpedo_damage(), 9);
    let damage = attack_damage(5 + 4 + 4 + 5, 14, Cover::None, valkyrie.torpedo_damage());
    assert_eq!(damage, Some(13));
    assert_eq!(armor_soak(1), 2);
    assert_eq!(
        ship_hit(0, 11, 13, 2),
        (0, 0),
        "destroyed in a bright flash"
    );
    assert_eq!(shield_points(1), 10);
    assert_eq!(
        ship_hit(10, 11, 13, 2),
        (0, 10),
        "decision 2: shields, then soak"
    );
    assert_eq!(valkyrie.hit_points(), 32);
    assert_eq!(valkyrie.net_defense(), 12);
    assert_eq!(valkyrie.torpedoes(), 20);
}

/// "Example Combats", on the jungle planet: initiative 4 + 4 = 8 beats 3 + 4 = 7; Allen's
/// 2 + 3 + 2 = 7 misses Defense 8; the commander's 1 + 4 + 4 = 9 would hit Defense 8 but
/// not 8 + 4 behind the tree; Allen spends Edge for +2: 4 + 2 + 3 + 2 = 11 against 8, laser
/// pistol 5 + 3 = 8 damage: the commander's 11 Hit Points fall to 3.
#[test]
fn captain_allen_against_the_commander() {
    let allen = exploding_d6(
        &mut Scripted::new(&[4]),
        vec![Modifier::new("Initiative", 4)],
        None,
    );
    let commander = exploding_d6(
        &mut Scripted::new(&[3]),
        vec![Modifier::new("Initiative", 4)],
        None,
    );
    assert!(allen.total > commander.total);
    assert_eq!(attack_damage(2 + 3 + 2, 8, Cover::None, 5), None);
    assert!(attack_damage(1 + 4 + 4, 8, Cover::None, 6).is_some());
    assert_eq!(attack_damage(1 + 4 + 4, 8, Cover::Half, 6), None);
    let shot = exploding_d6(
        &mut Scripted::new(&[4]),
        vec![
            Modifier::new("Edge", 2),
            Modifier::new("Combat Rating", 3),
            Modifier::new("Ranged", 2),
        ],
        Some(8),
    );
    assert_eq!(shot.total, 11);
    let damage = attack_damage(shot.total, 8, Cover::None, 5).expect("a hit");
    assert_eq!(damage, 8);
    assert_eq!(take_damage(11, damage, 0), 3);
}

/// "Knockout and Death": bashing knocks out; lethal damage leaves Soldier rounds; the
/// stabilization DLs are 9, 11, 13.
#[test]
fn knockout_dying_and_stabilizing() {
    assert_eq!(brought_down(true, 4), Down::KnockedOut);
    assert_eq!(brought_down(false, 4), Down::Dying { rounds: 4 });
    let dls: Vec<Option<i32>> = (1..=4).map(stabilize_dl).collect();
    assert_eq!(dls, vec![Some(9), Some(11), Some(13), None]);
}

/// "Ship Destruction", "Ship Detection", "Optional Rule: Systems Failure".
#[test]
fn ship_destruction_detection_and_failures() {
    let mut edge = vec![2, 0, 1];
    assert_eq!(
        ship_destruction(&mut edge),
        Destruction::Survives { consoles: vec![1] }
    );
    assert_eq!(edge, vec![1, 0, 0]);
    let mut none = vec![0, 0];
    assert_eq!(ship_destruction(&mut none), Destruction::Destroyed);
    assert_eq!(
        (detection_dl(1), detection_dl(2), detection_dl(3)),
        (9, 11, 20)
    );
    assert_eq!(failures_crossed(40, 19, 40, true), 1);
    assert_eq!(failures_crossed(40, 9, 40, true), 2);
    assert_eq!(failures_crossed(40, 9, 40, false), 1);
}

/// "Chase Rules": the difference table, and escape beyond Far, capture at Melee.
#[test]
fn the_chase_table() {
    let t: Vec<ChaseResult> = [8, 7, 6, 5, 4, 3, 2, -2, -3, -4, -5, -6, -7]
        .into_iter()
        .map(chase_table)
        .collect();
    use ChaseResult::*;
    assert_eq!(
        t,
        vec![
            Escaped,
            Escaped,
            Gap(2),
            Gap(2),
            Gap(1),
            Gap(1),
            Gap(0),
            Gap(0),
            Gap(-1),
            Gap(-1),
            Gap(-2),
            Gap(-2),
            Caught
        ]
    );
    assert_eq!(chase_band(4, Gap(2)), Err(Escaped));
    assert_eq!(chase_band(3, Gap(-2)), Err(Caught));
    assert_eq!(chase_band(3, Gap(1)), Ok(4));
}

/// "Combat Actions", Initiative, with Captain Allen's fight on the jungle planet: Allen
/// rolls 4 + 4 = 8, the commander 3 + 4 = 7; Allen acts first. Equal totals go to the
/// higher rating, then to the order given.
#[test]
fn initiative_orders_by_total_then_rating() {
    use super::combat::{InitiativeRoll, initiative_order};
    let order = initiative_order(&[
        InitiativeRoll {
            total: 3 + 4,
            rating: 4,
            who: "commander",
        },
        InitiativeRoll {
            total: 4 + 4,
            rating: 4,
            who: "Allen",
        },
    ]);
    assert_eq!(order, vec!["Allen", "commander"]);
    let tied = initiative_order(&[
        InitiativeRoll {
            total: 7,
            rating: 2,
            who: "mooks",
        },
        InitiativeRoll {
            total: 7,
            rating: 3,
            who: "Ree",
        },
        InitiativeRoll {
            total: 7,
            rating: 3,
            who: "Bob",
        },
    ]);
    assert_eq!(tied, vec!["Ree", "Bob", "mooks"]);
}

/// "Range Bands" on the map (rules/README.md decision 6, 1 m hexes): the default sizes,
/// a weapon reaching its band or closer, and a move of one Close band.
#[test]
fn range_bands_from_hex_distance() {
    use super::combat::BandSizes;
    let b = BandSizes::default();
    assert_eq!(b.band(0), Band::SelfBand);
    assert_eq!(b.band(1), Band::Melee);
    assert_eq!(b.band(2), Band::Close);
    assert_eq!(b.band(10), Band::Close);
    assert_eq!(b.band(11), Band::Medium);
    assert_eq!(b.band(100), Band::Long);
    assert_eq!(b.band(101), Band::Far);
    assert_eq!(b.move_hexes(), 10);
    assert!(b.is_ordered());
    assert!(!BandSizes { close: 40, ..b }.is_ordered());
    // A Light Pistol (Close) reaches 10 hexes, not 11.
    let pistol = super::gear::weapon("Light Pistol").map(|w| w.range);
    assert_eq!(pistol, Some(Band::Close));
    assert!(pistol.is_some_and(|r| in_reach(r, b.band(10)) && !in_reach(r, b.band(11))));
}

/// "Combat Actions", Parrying and Dodging: a parry is 1d6 plus Soldier plus Melee and
/// needs a melee weapon against a melee attack; a dodge is Agent plus Acrobatics against
/// melee, Tech plus Acrobatics against ranged; the roll's total is the Defense against
/// that attack, cover added.
#[test]
fn parry_and_dodge_rolls() {
    use super::combat::{ActiveDefense, defended_against, defense_roll_of, may_parry};
    assert_eq!(
        defense_roll_of(ActiveDefense::Parry, false),
        ("Soldier", "Melee")
    );
    assert_eq!(
        defense_roll_of(ActiveDefense::Dodge, false),
        ("Agent", "Acrobatics")
    );
    assert_eq!(
        defense_roll_of(ActiveDefense::Dodge, true),
        ("Tech", "Acrobatics")
    );
    assert!(may_parry(true, false));
    assert!(!may_parry(true, true));
    assert!(!may_parry(false, false));
    // A dodge of 9 behind half cover: the attack must reach 13.
    assert_eq!(defended_against(9, Cover::Half), 13);
    assert_eq!(
        attack_damage(12, defended_against(9, Cover::Half), Cover::None, 4),
        None
    );
}

/// "Weapons, Armor & Gear": the table's rows the worked examples use (Bob's Light Pistol
/// damage 4, Allen's laser pistol 5, the alien's Armored Clothing soak 2), explosives
/// against everyone within Close of the point, flash-bangs blinding two rounds.
#[test]
fn the_gear_tables_and_explosions() {
    use super::combat::{BandSizes, FLASH_BLIND_ROUNDS, blast_victims};
    use super::gear::{armor, weapon, weapons};
    // The weapons table's nineteen rows and the gear table's Flaregun (Single Shot, 3).
    assert_eq!(weapons().len(), 20);
    assert_eq!(
        weapon("Flaregun").map(|w| (w.damage, w.rates)),
        Some((3, vec![RateOfFire::Single]))
    );
    assert_eq!(
        weapon("Light Pistol").map(|w| (w.damage, w.ammo)),
        Some((4, Some(15)))
    );
    assert_eq!(
        weapon("Laser Pistol").map(|w| (w.damage, w.ammo)),
        Some((5, None))
    );
    assert_eq!(armor("Armored Clothing").map(|a| a.soak), Some(2));
    assert_eq!(weapon("2H Blunt").map(|w| w.bash), Some(true));
    let grenade = weapon("Grenade");
    assert!(
        grenade
            .as_ref()
            .is_some_and(|g| g.explosive && !g.blinds && g.damage == 10)
    );
    assert!(weapon("Flash-bang").is_some_and(|f| f.explosive && f.blinds && f.bash));
    assert_eq!(FLASH_BLIND_ROUNDS, 2);
    // Three people 0, 10 and 11 hexes from the point: the first two are caught.
    assert_eq!(
        blast_victims(&[0, 10, 11], &BandSizes::default()),
        vec![0, 1]
    );
}

/// Ammunition ("Weapons, Armor & Gear" gives clip sizes; the rounds an attack uses are the
/// decision in `gear`): one round a target for single and semi-automatic fire, three a
/// target for bursts, ten a spray; lasers need none.
#[test]
fn ammunition_use() {
    use super::gear::{can_fire, rounds_used};
    assert_eq!(rounds_used(RateOfFire::SemiAuto, 2), 2);
    assert_eq!(rounds_used(RateOfFire::Burst, 3), 9);
    assert_eq!(rounds_used(RateOfFire::FullAuto, 4), 10);
    assert!(can_fire(Some(10), RateOfFire::FullAuto, 4));
    assert!(!can_fire(Some(9), RateOfFire::FullAuto, 4));
    assert!(can_fire(None, RateOfFire::Burst, 3));
}

/// "Basic Task Resolution": the exploding d6's chances, checked against every sequence of
/// up to four dice (a 6 counts 5 and rolls again).
#[test]
fn exploding_d6_chances_are_exact() {
    use super::edge::chance_at_least;
    fn enumerate(depth: u32, so_far: i32, p: f64, n: i32) -> f64 {
        let mut total = 0.0;
        for f in 1..=6 {
            let q = p / 6.0;
            if f == 6 && depth > 1 {
                total += enumerate(depth - 1, so_far + 5, q, n);
            } else if so_far + f >= n {
                total += q;
            }
        }
        total
    }
    for n in -1..=18 {
        let exact = enumerate(6, 0, 1.0, n);
        assert!((chance_at_least(n) - exact).abs() < 1e-6, "{n}: {exact}");
    }
    assert!((chance_at_least(7) - 5.0 / 36.0).abs() < 1e-12);
}

/// "Using Edge", with Captain Allen's shot: without Edge 1d6 + 3 + 2 must reach the
/// commander's Defense 8 (a 3 or better: 4/6); +2 makes any die hit (6/6), a gain of 1/3,
/// so the AI in his place spends it as he did. Allen rolled 4 + 2 + 3 + 2 = 11: 5 damage
/// plus 3, and the commander (11 HP, no soak) is left with 3. The last point is kept for a
/// killing attack, which is always ignored while Edge is left.
#[test]
fn edge_and_the_ai_policy() {
    use super::edge::{EdgeUse, after_failed_attack, against_killing_attack, before_attack};
    assert_eq!(before_attack(3, 3 + 2, 8), Some(EdgeUse::PlusTwo));
    assert_eq!(before_attack(1, 3 + 2, 8), None, "the last point is kept");
    assert_eq!(before_attack(3, 10, 8), None, "a sure hit needs no Edge");
    let damage = attack_damage(4 + 2 + 3 + 2, 8, Cover::None, 5);
    assert_eq!(damage, Some(8));
    assert_eq!(take_damage(11, 8, 0), 3);
    assert_eq!(
        against_killing_attack(1),
        Some(EdgeUse::IgnoreKillingAttack)
    );
    assert_eq!(against_killing_attack(0), None);
    // A failed roll of 2 + 5 against 8: a re-roll hits on 3 or better (4/6).
    assert_eq!(after_failed_attack(2, 7, 2, 8), Some(EdgeUse::Reroll));
    assert_eq!(after_failed_attack(2, 8, 3, 8), None, "it hit");
}

//! Tests of every dice mechanism against the rule texts' own statements and exact
//! probabilities.

use super::*;

/// Every way three dice can fall, in order.
fn all_3d6() -> impl Iterator<Item = [u32; 3]> {
    (1..=6).flat_map(|a| (1..=6).flat_map(move |b| (1..=6).map(move |c| [a, b, c])))
}

fn skill(value: i32) -> Vec<Modifier> {
    vec![Modifier::new("skill", value)]
}

/// gurps-lite-and-socs.txt "CRITICALS": 3 or 4 always critical; 5 at 15+; 6 at 16+.
#[test]
fn critical_successes_follow_the_quick_reference() {
    for eff in -5..=25 {
        assert_eq!(
            gurps_critical(3, eff),
            Some(Critical::Success),
            "3 at {eff}"
        );
        assert_eq!(
            gurps_critical(4, eff),
            Some(Critical::Success),
            "4 at {eff}"
        );
    }
    assert_eq!(gurps_critical(5, 14), None);
    assert_eq!(gurps_critical(5, 15), Some(Critical::Success));
    assert_eq!(gurps_critical(6, 15), None);
    assert_eq!(gurps_critical(6, 16), Some(Critical::Success));
    assert_eq!(gurps_critical(7, 30), None);
}

/// gurps-lite-and-socs.txt "CRITICALS": 18 always a critical failure; 17 one at skill 15 or
/// less; the Traveller screen: 10 or more over effective skill is a critical failure.
#[test]
fn critical_failures_follow_the_quick_reference() {
    for eff in -5..=30 {
        assert_eq!(
            gurps_critical(18, eff),
            Some(Critical::Failure),
            "18 at {eff}"
        );
    }
    assert_eq!(gurps_critical(17, 15), Some(Critical::Failure));
    assert_eq!(gurps_critical(17, 16), None);
    // "16+ on a skill of 6, 15+ on a skill of 5"
    assert_eq!(gurps_critical(16, 6), Some(Critical::Failure));
    assert_eq!(gurps_critical(15, 6), None);
    assert_eq!(gurps_critical(15, 5), Some(Critical::Failure));
    assert_eq!(gurps_critical(14, 5), None);
}

#[test]
fn seventeen_fails_even_at_high_skill() {
    let r = success_roll(&mut Scripted::new(&[6, 6, 5]), skill(20));
    assert_eq!(r.total, 17);
    assert_eq!(r.success, Some(false));
    assert_eq!(r.critical, None);
    let r = success_roll(&mut Scripted::new(&[6, 6, 5]), skill(15));
    assert_eq!(r.critical, Some(Critical::Failure));
}

#[test]
fn four_succeeds_even_at_skill_three() {
    let r = success_roll(&mut Scripted::new(&[1, 1, 2]), skill(2));
    assert_eq!(r.success, Some(true));
    assert_eq!(r.critical, Some(Critical::Success));
    assert_eq!(r.margin, Some(-2));
}

#[test]
fn success_roll_record_adds_up() {
    let mods = vec![
        Modifier::new("Broadsword", 13),
        Modifier::new("range/speed", -4),
        Modifier::new("Aim", 2),
    ];
    let r = success_roll(&mut Scripted::new(&[4, 2, 5]), mods);
    assert_eq!(r.faces, vec![4, 2, 5]);
    assert_eq!(r.total, 11);
    assert_eq!(r.target, Some(11));
    assert_eq!(r.margin, Some(0));
    assert_eq!(r.success, Some(true));
    assert_eq!(
        r.to_string(),
        "3d6 [4 2 5] = 11 vs 11 (Broadsword 13, range/speed -4, Aim +2): success by 0"
    );
}

/// Exact 3d6 distribution: 3d6 <= 10 is exactly 108/216; with criticals, skill 3 succeeds
/// only on 3 and 4 (4/216) and skill 20 fails only on 17 and 18 (4/216).
#[test]
fn exact_success_probabilities() {
    let count = |eff: i32| {
        all_3d6()
            .filter(|faces| success_roll(&mut Scripted::new(faces), skill(eff)).succeeded())
            .count()
    };
    assert_eq!(count(10), 108);
    assert_eq!(count(3), 4);
    assert_eq!(count(20), 212);
    assert_eq!(count(16), 212); // 17 and 18 always fail
    assert_eq!(count(12), 160);
}

/// Statistics tier: the seeded generator's 3d6 <= 10 rate against the exact 1/2, with a
/// tolerance of 4.5 standard errors for the sample size.
#[test]
fn seeded_generator_matches_exact_probability() {
    let mut rng = BattleRng::seeded(7);
    let n = 40_000;
    let hits = (0..n)
        .filter(|_| success_roll(&mut rng, skill(10)).succeeded())
        .count();
    let p = 0.5;
    let rate = hits as f64 / n as f64;
    let tolerance = 4.5 * (p * (1.0 - p) / n as f64).sqrt();
    assert!((rate - p).abs() < tolerance, "rate {rate}");
}

#[test]
fn same_seed_same_faces() {
    let mut a = BattleRng::seeded(99);
    let mut b = BattleRng::seeded(99);
    let fa: Vec<u32> = (0..50).map(|_| a.roll_die(6)).collect();
    let fb: Vec<u32> = (0..50).map(|_| b.roll_die(6)).collect();
    assert_eq!(fa, fb);
    let mut c = BattleRng::seeded(100);
    let fc: Vec<u32> = (0..50).map(|_| c.roll_die(6)).collect();
    assert_ne!(fa, fc);
}

#[test]
fn derived_seeds_differ() {
    let seeds: std::collections::BTreeSet<u64> = (0..1000).map(|i| derive_seed(42, i)).collect();
    assert_eq!(seeds.len(), 1000);
    assert_eq!(derive_seed(42, 3), derive_seed(42, 3));
}

#[test]
fn dice_expressions_parse_and_print() {
    let cases = [
        ("2d+1", DiceExpr::d6(2, 1), "2d+1"),
        ("1d-2", DiceExpr::d6(1, -2), "1d-2"),
        ("3d6", DiceExpr::d6(3, 0), "3d"),
        ("d12", DiceExpr::new(1, 12, 0), "1d12"),
        ("2d6+3", DiceExpr::d6(2, 3), "2d+3"),
        ("4", DiceExpr::new(0, 6, 4), "4"),
        ("1d − 3", DiceExpr::d6(1, -3), "1d-3"),
    ];
    for (text, expr, shown) in cases {
        assert_eq!(text.parse::<DiceExpr>(), Ok(expr), "{text}");
        assert_eq!(expr.to_string(), shown);
    }
    for bad in ["", "d", "2x+1", "2d+", "0d6", "2d1", "abc"] {
        assert!(bad.parse::<DiceExpr>().is_err(), "{bad} should not parse");
    }
}

/// "1d-2" style damage: a face of 1 gives -1, raised to the minimum; the raise is a labelled
/// modifier so faces plus modifiers still equal the total.
#[test]
fn damage_minimum_is_applied_and_shown() {
    let expr: DiceExpr = "1d-2".parse().unwrap();
    let r = expr.roll(&mut Scripted::new(&[1]), 1);
    assert_eq!(r.total, 1);
    assert_eq!(
        r.faces.iter().sum::<u32>() as i32 + r.modifier_sum(),
        r.total
    );
    assert_eq!(r.to_string(), "1d-2 [1] -2, minimum +2 = 1");
    let r = expr.roll(&mut Scripted::new(&[6]), 1);
    assert_eq!(r.total, 4);
    let r = expr.roll(&mut Scripted::new(&[2]), 0);
    assert_eq!(r.total, 0);
}

/// Exact mean of 2d+1 over all 36 outcomes is 8; with minimum 1, 1d-2 averages 11/6 + ... .
#[test]
fn damage_means_are_exact() {
    let expr = DiceExpr::d6(2, 1);
    let total: i32 = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| [a, b]))
        .map(|f| expr.roll(&mut Scripted::new(&f), 0).total)
        .sum();
    assert_eq!(total, 8 * 36);
    assert_eq!(expr.mean(), 8.0);
    // 1d-2 with minimum 1: faces 1,2,3 give 1; 4,5,6 give 2,3,4 -> 12/6 = 2
    let expr = DiceExpr::d6(1, -2);
    let total: i32 = (1..=6)
        .map(|f| expr.roll(&mut Scripted::new(&[f]), 1).total)
        .sum();
    assert_eq!(total, 12);
}

/// rules/README.md decision 3: a second die only when the first is under the total of
/// attribute and bonuses; the result is the dice alone.
#[test]
fn d12_second_die_only_under_the_total() {
    let mods = vec![Modifier::new("Piloting", 4), Modifier::new("edge", 3)];
    let r = d12_roll(&mut Scripted::new(&[5, 9]), mods.clone(), None, false);
    assert_eq!(r.faces, vec![5, 9]);
    assert_eq!(r.total, 14);
    let r = d12_roll(&mut Scripted::new(&[7]), mods.clone(), None, false);
    assert_eq!(r.faces, vec![7]);
    assert_eq!(r.total, 7);
    // gunnery: natural 1 always misses, natural 12 always hits
    let r = d12_roll(&mut Scripted::new(&[1, 12]), mods.clone(), Some(4), true);
    assert_eq!(r.total, 13);
    assert_eq!(r.success, Some(false));
    let r = d12_roll(&mut Scripted::new(&[12]), vec![], Some(20), true);
    assert_eq!(r.success, Some(true));
}

/// Exact probability over all 144 pairs: with bonus 5 against difficulty 9, success needs
/// a first die of 9+ (4/12) or a first die of 1..4 and a sum of 9+.
#[test]
fn d12_naturals_read_as_such() {
    let mods = vec![Modifier::new("gunner", 3)];
    let r = d12_roll(&mut Scripted::new(&[1, 11]), mods, Some(10), true);
    assert!(
        r.to_string().ends_with("vs 10: natural 1, a failure"),
        "{r}"
    );
    let r = d12_roll(&mut Scripted::new(&[12]), vec![], Some(20), true);
    assert!(
        r.to_string().ends_with("vs 20: natural 12, a success"),
        "{r}"
    );
}

#[test]
fn d12_exact_probability() {
    let bonus = vec![Modifier::new("skill", 5)];
    let mut successes = 0;
    for a in 1..=12u32 {
        for b in 1..=12u32 {
            let r = d12_roll(&mut Scripted::new(&[a, b]), bonus.clone(), Some(9), true);
            if r.succeeded() {
                successes += 1;
            }
        }
    }
    // first die 9..12: 4 * 12 = 48. First 2..4 (1 always fails): second die must reach
    // 9 - a: a=2: 6..12 (7), a=3: 6..12 (7)... a=3 needs 6+ -> 7, a=4 needs 5+ -> 8.
    // a=2 needs 7+ -> 6. First 5..8: no second die, 5..8 < 9 -> fail.
    assert_eq!(successes, 48 + 6 + 7 + 8);
}

/// vergeworlds-rough-methods.txt "Judging Actions": 12 rolls on up, 2 rolls on down.
#[test]
fn open_ended_rolls_both_ways() {
    let r = open_ended_2d6(&mut Scripted::new(&[6, 6, 5, 6, 2]), vec![], Some(14));
    assert_eq!(r.total, 14);
    assert_eq!(r.extra, vec![5, 6, 2]);
    assert_eq!(r.success, Some(true));
    let r = open_ended_2d6(&mut Scripted::new(&[1, 1, 2, 1, 4]), vec![], None);
    assert_eq!(r.total, 0);
    let r = open_ended_2d6(&mut Scripted::new(&[6, 6, 3]), vec![], None);
    assert_eq!(r.total, 12);
    let r = open_ended_2d6(
        &mut Scripted::new(&[3, 4]),
        vec![Modifier::new("Agility", 2)],
        Some(9),
    );
    assert_eq!(r.total, 9);
    assert_eq!(r.margin, Some(0));
    assert!(r.succeeded());
    // A target made of parts says them after it (a Vergeworlds difficulty and defense).
    let mut r = r;
    r.target_parts = vec![Modifier::new("base", 6), Modifier::new("defense", 3)];
    assert_eq!(
        r.to_string(),
        "2d6 [3 4] Agility +2 = 9 vs 9 (base 6, defense +3): success by 0"
    );
}

/// Exact: P(total = 12 + k) = (1/36)(1/3)^k(2/3) for k >= 0; check k = 1 statistically.
#[test]
fn open_ended_tail_matches_exact_probability() {
    let mut rng = BattleRng::seeded(3);
    let n = 200_000;
    let thirteen = (0..n)
        .filter(|_| open_ended_2d6(&mut rng, vec![], None).total == 13)
        .count();
    let p = (1.0 / 36.0) * (1.0 / 3.0) * (2.0 / 3.0);
    let rate = thirteen as f64 / n as f64;
    let tolerance = 4.5 * (p * (1.0 - p) / n as f64).sqrt();
    assert!((rate - p).abs() < tolerance, "rate {rate} vs {p}");
}

/// main-sequence.txt "Basic Task Resolution": a six counts 5 and rolls again, as often as it
/// comes up; the hacking example 3 + 4 + 4 = 11 beats DL 11 "just barely".
#[test]
fn exploding_d6_and_the_hacking_example() {
    let r = exploding_d6(&mut Scripted::new(&[6, 6, 3]), vec![], None);
    assert_eq!(r.total, 13);
    let r = exploding_d6(&mut Scripted::new(&[6, 1]), vec![], None);
    assert_eq!(r.total, 6);
    // Rolling on is no critical result: a 6 then a 1 against DL 8 misses, and says so.
    let r = exploding_d6(&mut Scripted::new(&[6, 1]), vec![], Some(8));
    assert_eq!(r.critical, None);
    assert!(r.to_string().ends_with(": failure by 2"), "{r}");
    let r = exploding_d6(
        &mut Scripted::new(&[3]),
        vec![Modifier::new("Tech", 4), Modifier::new("Hacking", 4)],
        Some(11),
    );
    assert_eq!(r.total, 11);
    assert!(r.succeeded());
    assert_eq!(r.margin, Some(0));
}

/// Exact: each value v >= 1 has probability 6^-ceil(v/5) (1..5: 1/6; 6..10: 1/36; ...).
#[test]
fn exploding_d6_matches_exact_probability() {
    let mut rng = BattleRng::seeded(11);
    let n = 100_000;
    let mut counts = [0usize; 12];
    for _ in 0..n {
        let t = exploding_d6(&mut rng, vec![], None).total as usize;
        if t < counts.len() {
            counts[t] += 1;
        }
    }
    assert_eq!(counts[0], 0);
    for (v, &c) in counts.iter().enumerate().skip(1) {
        let p = 6f64.powi(-((v as i32 + 4) / 5));
        let rate = c as f64 / n as f64;
        let tolerance = 4.5 * (p * (1.0 - p) / n as f64).sqrt();
        assert!((rate - p).abs() < tolerance, "value {v}: {rate} vs {p}");
    }
}

#[test]
fn quick_contest_margins() {
    let win = success_roll(&mut Scripted::new(&[2, 3, 3]), skill(14)); // 8: by 6
    let lose = success_roll(&mut Scripted::new(&[6, 6, 2]), skill(12)); // 14: fails
    let also = success_roll(&mut Scripted::new(&[3, 3, 3]), skill(12)); // 9: by 3
    assert_eq!(quick_contest_margin(&win, &lose), 6);
    assert_eq!(quick_contest_margin(&win, &also), 3);
    assert_eq!(quick_contest_margin(&lose, &win), 0);
}

/// Exact distributions: 3d6 has 27 ways of 216 to make 10 and 1 to make 18; 1d+1 through
/// a barrier of 4 gets 1, 2 or 3 through on a 4, 5 or 6: (1 + 2 + 3) / 6 = 1.
#[test]
fn distributions_and_mean_excess_are_exact() {
    let d = DiceExpr::d6(3, 0).distribution();
    assert_eq!(d.len(), 16);
    assert_eq!(d[0].0, 3);
    assert!(
        (d.iter().find(|(v, _)| *v == 10).map(|x| x.1).unwrap_or(0.0) - 27.0 / 216.0).abs() < 1e-12
    );
    assert!((d[15].1 - 1.0 / 216.0).abs() < 1e-12);
    assert!((d.iter().map(|x| x.1).sum::<f64>() - 1.0).abs() < 1e-12);
    assert!((DiceExpr::d6(1, 1).mean_excess(4) - 1.0).abs() < 1e-12);
    assert!((DiceExpr::d6(2, 0).mean_excess(0) - 7.0).abs() < 1e-12);
    assert_eq!(DiceExpr::d6(1, 0).mean_excess(6), 0.0);
}

/// Faces entered by hand replace the generator's for their dice only: the dice after them
/// are the same as without them, every die has an index, and a roll's record says where
/// its dice start and whether any was entered.
#[test]
fn entered_faces_replace_only_their_dice() {
    let mut plain = BattleRng::seeded(11);
    let free: Vec<u32> = (0..6).map(|_| plain.roll_die(6)).collect();
    let mut rng = BattleRng::seeded(11);
    rng.enter(1, &[6, 6]);
    let first = rng.roll_die(6);
    let record = success_roll(&mut rng, skill(12));
    assert_eq!(first, free[0]);
    assert_eq!(record.faces, vec![6, 6, free[3]]);
    assert_eq!(record.drawn.first, Some(1));
    assert!(record.drawn.entered);
    assert!(
        record.to_string().starts_with("3d6 entered [6 6 "),
        "{record}"
    );
    let after = success_roll(&mut rng, skill(12));
    assert_eq!(
        after.faces,
        free[4..6]
            .iter()
            .copied()
            .chain([after.faces[2]])
            .collect::<Vec<_>>()
    );
    assert!(!after.drawn.entered);
    assert_eq!(after.drawn.first, Some(4));
    assert_eq!(rng.count(), 7);
    // Scripted dice count nothing.
    let scripted = success_roll(&mut Scripted::new(&[1, 2, 3]), skill(12));
    assert_eq!(scripted.drawn, Drawn::default());
}

/// A face that is not on its die is not used: the generator's face is, and the misfit is
/// kept for the replay to report. Forgetting from an index drops the faces from there.
#[test]
fn a_face_off_its_die_is_a_misfit() {
    let mut plain = BattleRng::seeded(5);
    let free = plain.roll_die(6);
    let mut rng = BattleRng::seeded(5);
    rng.enter(0, &[9]);
    assert_eq!(rng.roll_die(6), free);
    assert_eq!(
        rng.misfit(),
        Some(Misfit {
            draw: 0,
            face: 9,
            sides: 6
        })
    );
    let mut rng = BattleRng::seeded(5);
    rng.enter(0, &[2, 2]);
    rng.forget_from(1);
    assert!(rng.is_entered(0) && !rng.is_entered(1));
}

/// The dice a roll starts with, from its name: 3d6, GURPS's 3d, a d12, a damage
/// expression; a level of damage rolls none.
#[test]
fn dice_names_give_their_shape() {
    assert_eq!(DiceName::Fixed("3d6").shape(), Some((3, 6)));
    assert_eq!(DiceName::Fixed("3d").shape(), Some((3, 6)));
    assert_eq!(DiceName::Fixed("d12").shape(), Some((1, 12)));
    assert_eq!(DiceName::Expr(DiceExpr::d6(2, 1)).shape(), Some((2, 6)));
    assert_eq!(DiceName::Fixed("firepower").shape(), None);
}

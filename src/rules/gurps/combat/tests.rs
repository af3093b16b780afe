//! Tests of the GURPS combat functions, with the rule texts' numbers.

use super::*;
use crate::dice::{Label, Scripted};
use crate::rules::gurps::equipment::Catalog;
use crate::rules::gurps::location::HitLocation;
use crate::rules::gurps::maneuver::CommitOption;
use crate::rules::gurps::sheet::{GurpsStats, resolve_sheet};
use std::sync::Arc;

fn fighter(skills: &[(&str, i32)], weapons: &[&str]) -> Fighter {
    let stats = GurpsStats {
        st: Some(11),
        dx: Some(12),
        ht: Some(12),
        skills: skills.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        weapons: weapons.iter().map(|w| w.to_string().into()).collect(),
        ..Default::default()
    };
    Fighter::new(Arc::new(resolve_sheet(&stats, Catalog::builtin()).unwrap()))
}

/// The situation of `f`'s strike of `plan` with weapon `w` from (0, 0) on a bare foe at
/// (1, 0) facing `facing` (`None`: towards the attacker), on a small map.
fn strike_from_next_hex(
    f: &Fighter,
    plan: &crate::rules::gurps::plan::Plan,
    w: usize,
    facing: Option<hexx::EdgeDirection>,
) -> AttackSituation {
    let map = HexMap::new(
        crate::hexmap::MapShape::Hexagon { radius: 4 },
        crate::hexmap::Orientation::Pointy,
        1.0,
        "yd",
    );
    let at = Hex::new(1, 0);
    attack_situation(
        &map,
        plan,
        (f, Hex::ZERO),
        (
            &fighter(&[], &[]),
            at,
            facing.unwrap_or_else(|| at.main_direction_to(Hex::ZERO)),
        ),
        &f.sheet.weapons[w],
        None,
        StrikeMoment::before_turn(f, None, Some(w)),
    )
}

fn situation(maneuver: Maneuver) -> AttackSituation {
    AttackSituation {
        maneuver,
        range_yards: 1.0,
        target_speed: 0.0,
        aim_turns: 0,
        braced: false,
        cover: None,
        posture: Posture::Standing,
        shock: 0,
        target_posture: Posture::Standing,
        aimed: None,
        one_eye: false,
        lame: false,
        from_behind: false,
        hexes_moved: 0,
        evaluate: 0,
        deceptive: 0,
        telegraphic: false,
        impairment: None,
        shots: 1,
        rapid_strike: None,
        heroic_charge: false,
        target_sm: 0,
        intervening: 0,
        large_shield: false,
        opportunity_fire: false,
        chink: false,
        dual_weapon: None,
        disarm: None,
    }
}

/// gurps-lite-and-socs.txt "MOVE AND ATTACK": melee −4 and a maximum skill of 9.
#[test]
fn move_and_attack_melee_is_capped_at_nine() {
    let f = fighter(&[("Broadsword", 15)], &["broadsword"]);
    let mods = attack_modifiers(&f.sheet.weapons[0], &situation(Maneuver::MoveAndAttack));
    assert_eq!(effective(&mods), 9);
    let f = fighter(&[("Broadsword", 12)], &["broadsword"]);
    let mods = attack_modifiers(&f.sheet.weapons[0], &situation(Maneuver::MoveAndAttack));
    assert_eq!(effective(&mods), 8);
    assert_eq!(mods[1], Modifier::new("Move and Attack", -4));
}

/// gurps-lite-and-socs.txt "MOVE AND ATTACK": ranged, the worse of −2 or the weapon's Bulk.
#[test]
fn move_and_attack_ranged_uses_bulk() {
    let f = fighter(
        &[("Guns (Pistol)", 14), ("Bow", 14)],
        &["pistol", "short bow"],
    );
    let mut s = situation(Maneuver::MoveAndAttack);
    s.range_yards = 2.0;
    let pistol = attack_modifiers(&f.sheet.weapons[0], &s);
    assert_eq!(effective(&pistol), 12); // Bulk −2
    let bow = attack_modifiers(&f.sheet.weapons[1], &s);
    assert_eq!(effective(&bow), 8); // Bulk −6
}

/// gurps-lite-and-socs.txt "ALL-OUT ATTACK": +4 melee, +1 ranged.
#[test]
fn all_out_attack_determined() {
    let f = fighter(
        &[("Broadsword", 12), ("Bow", 12)],
        &["broadsword", "short bow"],
    );
    let s = situation(Maneuver::AllOutAttack(AoaOption::Determined));
    assert_eq!(effective(&attack_modifiers(&f.sheet.weapons[0], &s)), 16);
    assert_eq!(effective(&attack_modifiers(&f.sheet.weapons[1], &s)), 13);
}

/// Range/speed from hex distance with the next larger row (decision 5: 8 yd is −4), Aim
/// (+Acc, +1, +2) and cover (gurps-traveller-gm-screen.txt target's position).
#[test]
fn ranged_modifiers() {
    let f = fighter(&[("Bow", 13)], &["longbow"]); // Acc 3
    let mut s = situation(Maneuver::Attack);
    s.range_yards = 8.0;
    assert_eq!(effective(&attack_modifiers(&f.sheet.weapons[0], &s)), 9);
    s.aim_turns = 1;
    assert_eq!(effective(&attack_modifiers(&f.sheet.weapons[0], &s)), 12);
    s.aim_turns = 3;
    s.cover = Some(Cover::Half);
    s.target_speed = 3.0; // 8 + 3 = 11 -> 15 yd row, −5
    let mods = attack_modifiers(&f.sheet.weapons[0], &s);
    assert_eq!(effective(&mods), 13 - 5 + 5 - 3);
    assert_eq!(aim_bonus(3, 0), 0);
    assert_eq!(aim_bonus(3, 1), 3);
    assert_eq!(aim_bonus(3, 2), 4);
    assert_eq!(aim_bonus(3, 5), 5);
}

#[test]
fn st_below_weapon_minimum() {
    // ST 11 against a halberd's minimum ST 13: −2
    let f = fighter(&[("Polearm", 13)], &["halberd"]);
    let mods = attack_modifiers(&f.sheet.weapons[0], &situation(Maneuver::Attack));
    assert_eq!(effective(&mods), 11);
}

/// gurps-lite-and-socs.txt "LOST HIT POINTS": below 1/3 HP, half Dodge (round up);
/// "ALL-OUT ATTACK": no defense; Parry only against melee.
#[test]
fn defenses() {
    let mut f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    // DX 12 + HT 12 = Basic Speed 6: Dodge 9; Parry 3 + 7 = 10
    let opts = defense_options(&f, false, &[]);
    assert_eq!(opts.len(), 2);
    assert_eq!(opts[0].score(), 9);
    assert_eq!(opts[1].score(), 10);
    assert_eq!(defense_options(&f, true, &[]).len(), 1);
    f.hp = 3; // HP 11: 3 * 3 < 11
    assert_eq!(defense_options(&f, false, &[])[0].score(), 5);
    f.hp = 4;
    assert_eq!(defense_options(&f, false, &[])[0].score(), 9);
    f.guard = Guard::IncreasedParry;
    assert_eq!(
        defense_options(&f, false, &[Modifier::new("feinted", -2)])[1].score(),
        10
    );
    f.guard = Guard::None;
    assert!(defense_options(&f, false, &[]).is_empty());
}

#[test]
fn current_move_halves_when_reeling() {
    let mut f = fighter(&[], &[]);
    assert_eq!(current_move(&f), 6);
    f.hp = 3;
    assert_eq!(current_move(&f), 3);
}

/// gurps-lite-and-socs.txt "WOUNDING MODIFIERS" applied after DR.
#[test]
fn injury_from_basic_damage() {
    let (steps, injury) = injury_steps(8, 2, DamageType::Cutting, false, HitLocation::Torso, 20);
    assert_eq!(injury, 9);
    assert_eq!(8 + steps.iter().map(|s| s.value).sum::<i32>(), 9);
    assert_eq!(
        injury_steps(
            7,
            0,
            DamageType::SmallPiercing,
            false,
            HitLocation::Torso,
            20
        )
        .1,
        3
    );
    assert_eq!(
        injury_steps(
            1,
            0,
            DamageType::SmallPiercing,
            false,
            HitLocation::Torso,
            20
        )
        .1,
        1
    );
    assert_eq!(
        injury_steps(5, 5, DamageType::Impaling, false, HitLocation::Torso, 20).1,
        0
    );
    assert_eq!(
        injury_steps(6, 1, DamageType::Impaling, false, HitLocation::Torso, 20).1,
        10
    );
    assert_eq!(
        injury_steps(
            5,
            0,
            DamageType::HugePiercing,
            false,
            HitLocation::Torso,
            20
        )
        .1,
        10
    );
    assert_eq!(
        injury_steps(
            5,
            1,
            DamageType::LargePiercing,
            false,
            HitLocation::Torso,
            20
        )
        .1,
        6
    );
    assert_eq!(
        injury_steps(0, 0, DamageType::Crushing, false, HitLocation::Torso, 20).1,
        0
    );
    let (steps, injury) = injury_steps(9, 0, DamageType::Piercing, true, HitLocation::Torso, 20);
    assert_eq!(injury, 4);
    assert_eq!(steps[0].value, -5);
}

/// gurps-lite-and-socs.txt "LOST HIT POINTS": HT roll every turn at 0 HP or less, −1 per
/// full multiple of HP below zero.
#[test]
fn consciousness_rolls() {
    assert_eq!(consciousness_modifier(1, 10), None);
    assert_eq!(consciousness_modifier(0, 10), Some(0));
    assert_eq!(consciousness_modifier(-9, 10), Some(0));
    assert_eq!(consciousness_modifier(-10, 10), Some(-1));
    assert_eq!(consciousness_modifier(-25, 10), Some(-2));
}

/// gurps-lite-and-socs.txt "LOST HIT POINTS": HT or die at −1×HP and every further
/// multiple; −5×HP is immediate death.
#[test]
fn death_checks() {
    assert_eq!(death_checks_crossed(5, -10, 10), vec![1]);
    assert_eq!(death_checks_crossed(5, -9, 10), Vec::<i32>::new());
    assert_eq!(death_checks_crossed(-5, -35, 10), vec![1, 2, 3]);
    assert_eq!(death_checks_crossed(-10, -19, 10), Vec::<i32>::new());
    assert_eq!(death_checks_crossed(-10, -20, 10), vec![2]);
    assert_eq!(death_checks_crossed(10, -60, 10), vec![1, 2, 3, 4]);
    assert!(dead_outright(-50, 10));
    assert!(!dead_outright(-49, 10));
}

fn strike(double: bool) -> StrikeInput {
    let f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    StrikeInput {
        attack: vec![Modifier::new("Broadsword", 12)],
        defenses: defense_options(&f, false, &[]),
        double_defense: double,
        damage: DiceExpr::d6(1, 2),
        damage_bonus: vec![],
        damage_type: DamageType::Cutting,
        half_damage: false,
        dr: crate::rules::gurps::location::DrTable::uniform(1),
        hp_max: 11,
        aimed: None,
        random_location: false,
        shots: 1,
        recoil: 1,
        chink: false,
        disarm: false,
        extra_damage: Vec::new(),
        stray: false,
    }
}

/// gurps-traveller-gm-screen.txt, "CRITICAL HITS" 18 (knocked out) and "CRITICAL HEAD
/// BLOWS" 3 (killed) and 4-5 (knocked out) take the victim out of the fight: no knockdown
/// roll follows; a stunning row (head blow 15+) or double damage (critical hit 5) do not.
#[test]
fn critical_rows_that_take_the_victim_out() {
    use crate::rules::gurps::criticals::{critical_head_blow, critical_hit};
    assert!(CriticalRow::Hit(critical_hit(18, HitLocation::Torso)).takes_out());
    assert!(CriticalRow::Head(critical_head_blow(3)).takes_out());
    assert!(CriticalRow::Head(critical_head_blow(5)).takes_out());
    assert!(!CriticalRow::Head(critical_head_blow(15)).takes_out());
    assert!(!CriticalRow::Hit(critical_hit(5, HitLocation::Torso)).takes_out());
}

/// A stray shot's roll (gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS", the
/// wrong target) has no critical effects: a 4 still hits, but the target defends and no
/// critical hit table is rolled; an 18 misses without a critical failure.
#[test]
fn a_stray_roll_has_no_criticals() {
    let stray = || StrikeInput {
        stray: true,
        ..strike(false)
    };
    // attack 1+1+2 = 4: a hit, not critical; Dodge 9 fails on 6+5+4; damage 5 + 2
    let mut dice = Scripted::new(&[1, 1, 2, 6, 5, 4, 5]);
    let out = resolve_strike(&mut dice, stray(), |_| vec![0]);
    assert_eq!(out.roll.critical, None);
    assert!(out.roll.succeeded());
    assert_eq!(out.result, AttackResult::Hit);
    assert_eq!(out.defenses.len(), 1);
    assert!(out.critical.is_none());
    assert_eq!(out.damage.map(|d| d.0.total), Some(7));
    let mut dice = Scripted::new(&[6, 6, 6]);
    let out = resolve_strike(&mut dice, stray(), |_| vec![0]);
    assert_eq!((out.roll.critical, out.result), (None, AttackResult::Miss));
}

/// "Critical hit: Target gets no active defense": 3 or 4 skips the defense roll.
#[test]
fn critical_hit_allows_no_defense() {
    // attack 1+1+2 = 4; critical hit table 3+3+4 = 10 (normal damage); damage 5 + 2
    let mut dice = Scripted::new(&[1, 1, 2, 3, 3, 4, 5]);
    let out = resolve_strike(&mut dice, strike(false), |_| panic!("no defense on a crit"));
    assert_eq!(out.result, AttackResult::CriticalHit);
    assert_eq!(
        out.critical.as_ref().map(|c| c.1),
        Some(CriticalRow::Hit(
            crate::rules::gurps::criticals::critical_hit(10, HitLocation::Torso)
        ))
    );
    let (roll, _, injury) = out.damage.unwrap();
    assert_eq!(roll.total, 7);
    assert_eq!(injury, 9); // (7 − 1) × 1.5
    assert_eq!(dice.remaining(), 0);
}

/// gurps-traveller-gm-screen.txt "CRITICAL HITS": 6 doubles the basic damage roll, 4
/// bypasses all armor; "CRITICAL HEAD BLOWS" 12: a cutting blow only scars (1 injury).
#[test]
fn critical_hit_rows_change_the_damage() {
    // table 1+2+3 = 6: double; damage 5 + 2 = 7, x2 = 14, DR 1, x1.5 = 19
    let mut dice = Scripted::new(&[1, 1, 2, 1, 2, 3, 5]);
    let (roll, _, injury) = resolve_strike(&mut dice, strike(false), |_| vec![])
        .damage
        .unwrap();
    assert_eq!(roll.total, 14);
    assert_eq!(injury, 19);
    // table 1+1+2 = 4: no DR; 7 x1.5 = 10
    let mut dice = Scripted::new(&[1, 1, 2, 1, 1, 2, 5]);
    let (_, _, injury) = resolve_strike(&mut dice, strike(false), |_| vec![])
        .damage
        .unwrap();
    assert_eq!(injury, 10);
    // aimed at the face: head blow table 4+4+4 = 12, a scar
    let mut input = strike(false);
    input.aimed = Some(HitLocation::Face);
    let mut dice = Scripted::new(&[1, 1, 2, 4, 4, 4, 5]);
    let out = resolve_strike(&mut dice, input, |_| vec![]);
    assert_eq!(
        out.critical.as_ref().map(|c| c.1),
        Some(CriticalRow::Head(HeadBlow::Scar(1)))
    );
    assert_eq!(out.damage.map(|d| d.2), Some(1));
}

#[test]
fn miss_defended_and_hit() {
    let out = resolve_strike(&mut Scripted::new(&[6, 6, 1]), strike(false), |_| vec![0]);
    assert_eq!(out.result, AttackResult::Miss);
    // hit on 10, Dodge 9 made with 8
    let out = resolve_strike(
        &mut Scripted::new(&[3, 3, 4, 2, 3, 3]),
        strike(false),
        |_| vec![0],
    );
    assert_eq!(out.result, AttackResult::Defended);
    assert_eq!(out.defenses.len(), 1);
    // hit on 10, Dodge fails with 12, damage 1d+2 with a 4: 6 − 1 = 5 × 1.5 = 7
    let out = resolve_strike(
        &mut Scripted::new(&[3, 3, 4, 6, 3, 3, 4]),
        strike(false),
        |_| vec![0],
    );
    assert_eq!(out.result, AttackResult::Hit);
    assert_eq!(out.damage.unwrap().2, 7);
}

/// "ALL-OUT DEFENSE ... attempt two different defenses against one attack": Dodge fails,
/// then Parry is tried; a second Dodge is never tried.
#[test]
fn double_defense_tries_a_different_defense() {
    // attack 10 hits; Dodge 12 fails; Parry (10) 9 succeeds
    let out = resolve_strike(
        &mut Scripted::new(&[3, 3, 4, 6, 3, 3, 3, 3, 3]),
        strike(true),
        |_| vec![0, 0, 1],
    );
    assert_eq!(out.result, AttackResult::Defended);
    assert_eq!(out.defenses.len(), 2);
    assert_eq!(&*out.defenses[1].0, "Parry (broadsword)");
    // without Double Defense only one try
    let out = resolve_strike(
        &mut Scripted::new(&[3, 3, 4, 6, 3, 3, 4]),
        strike(false),
        |_| vec![0, 1],
    );
    assert_eq!(out.result, AttackResult::Hit);
    assert_eq!(out.defenses.len(), 1);
}

#[test]
fn damage_minimum_and_bonus() {
    let r = roll_damage(
        &mut Scripted::new(&[1]),
        DiceExpr::d6(1, -3),
        vec![Modifier::new("All-Out Attack (Strong)", 2)],
        DamageType::Cutting,
    );
    // 1 − 3 + 2 = 0, raised to 1 for cutting
    assert_eq!(r.total, 1);
    let r = roll_damage(
        &mut Scripted::new(&[1]),
        DiceExpr::d6(1, -3),
        vec![],
        DamageType::Crushing,
    );
    assert_eq!(r.total, 0);
}

/// Death check: HP 10 at 3 takes 14 (to −11): crosses −1×HP, one HT roll; a 12 against HT
/// 11 fails and kills. At −5×HP death needs no roll.
#[test]
fn injury_effects() {
    // HT 11: 14 fails by 3 and kills
    let e = apply_injury(&mut Scripted::new(&[5, 5, 4]), 11, 3, 14, 10, false);
    assert_eq!(e.hp_after, -11);
    assert_eq!(e.death_checks.len(), 1);
    assert!(e.died.is_some());
    let e = apply_injury(&mut Scripted::new(&[3, 3, 4]), 11, 3, 14, 10, false);
    assert!(e.died.is_none() && !e.mortal);
    let e = apply_injury(&mut Scripted::new(&[]), 11, 3, 60, 10, false);
    assert_eq!(e.died.as_deref(), Some("reached -5 x HP"));
    let e = apply_injury(&mut Scripted::new(&[]), 11, 3, 5, 10, false);
    assert_eq!(e.hp_after, -2);
    assert!(e.death_checks.is_empty() && e.died.is_none());
}

/// gurps-lite-and-socs.txt "INJURY", Mortal Wounds: failing the roll to avoid death by 1
/// or 2 is a mortal wound; failing any further roll kills.
#[test]
fn mortal_wounds() {
    // HT 11: 12 and 13 fail by 1 and 2
    let e = apply_injury(&mut Scripted::new(&[4, 4, 4]), 11, 3, 14, 10, false);
    assert!(e.mortal && e.died.is_none());
    let e = apply_injury(&mut Scripted::new(&[4, 4, 5]), 11, 3, 14, 10, false);
    assert!(e.mortal && e.died.is_none());
    // already mortally wounded: a failure by 1 kills
    let e = apply_injury(&mut Scripted::new(&[4, 4, 4]), 11, 3, 14, 10, true);
    assert!(e.died.is_some());
    // two multiples at once: mortal on the first, dead on a second failure
    let e = apply_injury(
        &mut Scripted::new(&[4, 4, 4, 6, 6, 2]),
        11,
        3,
        24,
        10,
        false,
    );
    assert!(e.died.is_some());
    assert_eq!(e.death_checks.len(), 2);
}

#[test]
fn consciousness_roll_modifiers() {
    assert!(consciousness_roll(&mut Scripted::new(&[]), 11, 1, 10).is_none());
    let r = consciousness_roll(&mut Scripted::new(&[3, 3, 4]), 11, -12, 10).unwrap();
    assert_eq!(r.target, Some(10));
    assert!(r.succeeded());
}

/// The AI's quick defense score agrees with the full list of defenses, hale and at low
/// HP and FP (half Dodge each: gurps-lite-and-socs.txt, "LOST HIT POINTS" and "LOST
/// FATIGUE POINTS").
#[test]
fn best_defense_score_matches_defense_options() {
    let mut plain = fighter(
        &[("Broadsword", 14), ("Brawling", 12)],
        &["broadsword", "short bow", "punch"],
    );
    // A kick, for the Committed Attack that leaves no Dodge ("MANEUVERS").
    let mut sheet = (*plain.sheet).clone();
    sheet.weapons[2].name = Label::Static("kick");
    plain.sheet = Arc::new(sheet);
    let mut shielded = plain.clone();
    let mut sheet = (*shielded.sheet).clone();
    sheet.shield = Some(crate::rules::gurps::sheet::Shield {
        name: Label::Static("large shield"),
        db: 3,
        large: true,
        block: 12,
    });
    shielded.sheet = Arc::new(sheet);
    for mut f in [plain, shielded] {
        for (hp, posture, stunned) in [
            (11, Posture::Standing, false),
            (4, Posture::Kneeling, false),
            (3, Posture::Lying, true),
            (-2, Posture::Standing, true),
        ] {
            f.posture = posture;
            f.stunned = stunned;
            for guard in [
                Guard::Normal,
                Guard::None,
                Guard::IncreasedDodge,
                Guard::IncreasedParry,
                Guard::DoubleDefense,
                Guard::Committed(0),
                Guard::Committed(2),
                Guard::Defensive,
                Guard::MovedAttack(0),
            ] {
                for (ranged, fp) in [false, true].into_iter().flat_map(|r| [(r, 10), (r, 2)]) {
                    f.hp = hp;
                    f.fp = fp;
                    f.guard = guard;
                    let full = with_shield(
                        &f,
                        defense_options(&f, ranged, &[]),
                        true,
                        ranged,
                        &[],
                        false,
                    )
                    .iter()
                    .map(|o| o.score())
                    .max();
                    assert_eq!(
                        best_defense_score(&f, guard, ranged),
                        full,
                        "{hp} HP {fp} FP {guard:?} {ranged}"
                    );
                }
            }
        }
    }
}

/// Statistics tier: over many seeded strikes, skill 12 against Dodge 9 hits as often as the
/// exact chance says: a critical (3 or 4: 4/216) always, otherwise an ordinary success
/// (156/216) that the Dodge (81/216) fails to stop. Tolerance: 4.5 standard errors.
#[test]
fn strike_hit_rate_matches_the_exact_chance() {
    let mut rng = crate::dice::BattleRng::seeded(2024);
    let f = fighter(&[], &[]);
    let n = 40_000;
    let hits = (0..n)
        .filter(|_| {
            let input = StrikeInput {
                attack: vec![Modifier::new("skill", 12)],
                defenses: vec![DefenseOption {
                    kind: DefenseKind::Dodge,
                    label: Label::Static("Dodge"),
                    modifiers: vec![Modifier::new("Dodge", 9)],
                    step: DefenseStep::Stand,
                    feverish: false,
                    rapid_recovery: false,
                }],
                double_defense: false,
                damage: DiceExpr::d6(1, 0),
                damage_bonus: vec![],
                damage_type: DamageType::Crushing,
                half_damage: false,
                dr: f.sheet.dr,
                hp_max: 10,
                aimed: None,
                random_location: false,
                shots: 1,
                recoil: 1,
                chink: false,
                disarm: false,
                extra_damage: Vec::new(),
                stray: false,
            };
            resolve_strike(&mut rng, input, |_| vec![0]).result.hit()
        })
        .count();
    let p = 4.0 / 216.0 + (156.0 / 216.0) * (1.0 - 81.0 / 216.0);
    let rate = hits as f64 / n as f64;
    let tolerance = 4.5 * (p * (1.0 - p) / n as f64).sqrt();
    assert!((rate - p).abs() < tolerance, "rate {rate} vs exact {p}");
}

/// gurps-lite-and-socs.txt "POSTURES" (kneeling −2 defense, lying −3) and "INJURY",
/// Stunned (active defenses −4), on Dodge 9 and Parry 10.
#[test]
fn posture_and_stun_lower_every_defense() {
    let mut f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    f.posture = Posture::Kneeling;
    let scores: Vec<i32> = defense_options(&f, false, &[])
        .iter()
        .map(|o| o.score())
        .collect();
    assert_eq!(scores, vec![7, 8]);
    f.posture = Posture::Lying;
    f.stunned = true;
    let scores: Vec<i32> = defense_options(&f, false, &[])
        .iter()
        .map(|o| o.score())
        .collect();
    assert_eq!(scores, vec![2, 3]);
}

/// gurps-lite-and-socs.txt "POSTURES" (attacker kneeling −2, lying −4), "INJURY" (shock);
/// gurps-traveller-gm-screen.txt "RANGED ATTACK MODIFIERS", target's position (kneeling
/// without cover −2, prone without cover −4, prone behind cover head down −7).
#[test]
fn postures_and_shock_in_attack_rolls() {
    let f = fighter(&[("Bow", 13)], &["longbow"]);
    let bow = &f.sheet.weapons[0];
    let mut s = situation(Maneuver::Attack); // 1 yd: range 0
    s.posture = Posture::Kneeling;
    s.shock = 2;
    assert_eq!(effective(&attack_modifiers(bow, &s)), 13 - 2 - 2);
    s.posture = Posture::Standing;
    s.shock = 0;
    s.target_posture = Posture::Kneeling;
    assert_eq!(effective(&attack_modifiers(bow, &s)), 11);
    s.target_posture = Posture::Lying;
    assert_eq!(effective(&attack_modifiers(bow, &s)), 9);
    s.cover = Some(Cover::Light);
    assert_eq!(effective(&attack_modifiers(bow, &s)), 6);
    s.target_posture = Posture::Standing;
    assert_eq!(effective(&attack_modifiers(bow, &s)), 11);
    // melee ignores the target's posture and cover here
    let g = fighter(&[("Broadsword", 14)], &["broadsword"]);
    s.target_posture = Posture::Lying;
    assert_eq!(effective(&attack_modifiers(&g.sheet.weapons[0], &s)), 14);
}

/// Move follows posture (gurps-traveller-gm-screen.txt "POSITIONS"): Move 6 kneeling is 2.
#[test]
fn current_move_follows_posture() {
    let mut f = fighter(&[], &[]);
    f.posture = Posture::Kneeling;
    assert_eq!(current_move(&f), 2);
    f.posture = Posture::Sitting;
    assert_eq!(current_move(&f), 0);
}

/// gurps-lite-and-socs.txt "HIT LOCATIONS": wounding by location after DR, and "Injury >
/// HP/2 cripples limb (excess damage lost)". HP 10.
#[test]
fn injury_by_location() {
    use HitLocation::*;
    // skull x4 behind the skull's own DR 2 (gurps-traveller-gm-screen.txt, "BRAIN (3-4)"):
    // 7 cr through armor DR 2 and skull DR 2 is 3, x4 = 12
    let (steps, injury) = injury_steps(7, 2, DamageType::Crushing, false, Skull, 10);
    assert_eq!(injury, 12);
    assert_eq!(7 + steps.iter().map(|s| s.value).sum::<i32>(), 12);
    assert!(steps.iter().any(|s| &*s.label == "skull x4"));
    assert!(
        steps
            .iter()
            .any(|s| &*s.label == "skull DR" && s.value == -2)
    );
    // unarmored, 2 crushing bounce off the skull
    assert_eq!(
        injury_steps(2, 0, DamageType::Crushing, false, Skull, 10).1,
        0
    );
    // an arrow in the arm: impaling x1, and at most 6 (just over HP/2)
    assert_eq!(
        injury_steps(4, 0, DamageType::Impaling, false, LeftArm, 10).1,
        4
    );
    let (steps, injury) = injury_steps(12, 0, DamageType::Impaling, false, LeftArm, 10);
    assert_eq!(injury, 6);
    assert_eq!(steps.last().map(|s| s.value), Some(-6));
    // neck: cutting x2; vitals: piercing x3
    assert_eq!(
        injury_steps(5, 0, DamageType::Cutting, false, Neck, 10).1,
        10
    );
    assert_eq!(
        injury_steps(4, 1, DamageType::Piercing, false, Vitals, 30).1,
        9
    );
}

/// "* A miss by 1 hits the torso": skull aimed at effective 8, a roll of 9 hits the torso
/// (a defense is still allowed); a roll of 10 misses.
#[test]
fn aimed_blow_missing_by_one_hits_the_torso() {
    let mut input = strike(false);
    input.attack = vec![Modifier::new("Broadsword", 15), Modifier::new("skull", -7)];
    input.aimed = Some(HitLocation::Skull);
    // attack 3+3+3 = 9 vs 8, Dodge fails on 6+6+5, damage 4
    let mut dice = Scripted::new(&[3, 3, 3, 6, 6, 5, 4]);
    let out = resolve_strike(&mut dice, input.clone(), |_| vec![0]);
    assert!(out.torso_instead);
    assert_eq!(out.result, AttackResult::Hit);
    assert_eq!(out.location, HitLocation::Torso);
    let mut dice = Scripted::new(&[4, 3, 3]);
    let out = resolve_strike(&mut dice, input, |_| vec![0]);
    assert_eq!(out.result, AttackResult::Miss);
}

/// An unaimed hit with random locations rolls 3d6 on the table: 2+3+3 = 8, the right arm.
#[test]
fn random_location_roll() {
    let mut input = strike(false);
    input.random_location = true;
    // attack 2+2+2 hits, Dodge fails 6+6+5, location 2+3+3 = 8, damage 6
    let mut dice = Scripted::new(&[2, 2, 2, 6, 6, 5, 2, 3, 3, 6]);
    let out = resolve_strike(&mut dice, input, |_| vec![0]);
    assert_eq!(out.location, HitLocation::RightArm);
    assert_eq!(out.location_roll.map(|r| r.total), Some(8));
    // 1d+2 = 8 cut, DR 1 = 7, x1.5 = 10, capped at HP 11 / 2 + 1 = 6
    assert_eq!(out.damage.map(|d| d.2), Some(6));
}

/// gurps-lite-and-socs.txt "MANEUVERS": Committed Attack +2 melee (−2 to hit after moving
/// 2 hexes); Evaluate +1 per turn; "ATTACK/DEFENSE OPTIONS": Deceptive Attack −2 per level,
/// Telegraphic Attack +4.
#[test]
fn attack_options_in_the_roll() {
    let f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    let sword = &f.sheet.weapons[0];
    let mut s = situation(Maneuver::CommittedAttack(CommitOption::Determined));
    assert_eq!(effective(&attack_modifiers(sword, &s)), 16);
    s.hexes_moved = 2;
    assert_eq!(effective(&attack_modifiers(sword, &s)), 14);
    let mut s = situation(Maneuver::Attack);
    s.evaluate = 3;
    s.deceptive = 2;
    assert_eq!(effective(&attack_modifiers(sword, &s)), 14 + 3 - 4);
    s.telegraphic = true;
    assert_eq!(effective(&attack_modifiers(sword, &s)), 14 + 3 - 4 + 4);
    // none of these apply to a bow
    let b = fighter(&[("Bow", 13)], &["longbow"]);
    assert_eq!(effective(&attack_modifiers(&b.sheet.weapons[0], &s)), 13);
}

/// Committed Attack: −2 to defenses and no parry with the weapon used; Defensive Attack: +1
/// to Parry; a feint's margin and Deceptive Attack come off every defense.
#[test]
fn defenses_after_committed_and_defensive_attacks() {
    let mut f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    f.guard = Guard::Committed(0);
    let opts = defense_options(&f, false, &[]);
    assert_eq!(opts.len(), 1);
    assert_eq!(opts[0].score(), 9 - 2);
    f.guard = Guard::Defensive;
    let opts = defense_options(&f, false, &[]);
    assert_eq!(opts[1].score(), 11);
    assert_eq!(opts[0].score(), 9);
    f.guard = Guard::Normal;
    let against = [
        Modifier::new("feinted", -3),
        Modifier::new("Deceptive Attack", -1),
    ];
    let opts = defense_options(&f, false, &against);
    assert_eq!(opts[0].score(), 5);
    assert_eq!(opts[1].score(), 6);
}

/// gurps-lite-and-socs.txt "ATTACK/DEFENSE OPTIONS", Rapid Recovery: after a Move and
/// Attack the weapon that attacked parries only for 1 FP, and only where the scenario uses
/// extra effort; the other weapons and Dodge are untouched; the AI spends the FP only when
/// it has FP to spare.
#[test]
fn move_and_attack_parries_only_with_rapid_recovery() {
    let mut f = fighter(
        &[("Broadsword", 14), ("Knife", 12)],
        &["broadsword", "large knife"],
    );
    f.guard = guard_of(Maneuver::MoveAndAttack, Some(0));
    assert_eq!(f.guard, Guard::MovedAttack(0));
    let sword = f.sheet.weapons[0].clone();
    let front = crate::rules::gurps::facing::Arc::Front;
    let kinds = |opts: &[DefenseOption]| -> Vec<(DefenseKind, bool)> {
        opts.iter().map(|o| (o.kind, o.rapid_recovery)).collect()
    };
    // Without extra effort: Dodge and the knife's parry, not the broadsword's.
    let opts = defenses_against(&f, &sword, front, &Against::default(), false, false, false);
    assert_eq!(
        kinds(&opts),
        vec![(DefenseKind::Dodge, false), (DefenseKind::Parry(1), false)]
    );
    // With extra effort: the broadsword parries at its full 10, for 1 FP; with Feverish
    // Defense on top, +2 for 2 FP.
    let opts = defenses_against(&f, &sword, front, &Against::default(), false, true, false);
    let rr: Vec<&DefenseOption> = opts.iter().filter(|o| o.rapid_recovery).collect();
    assert_eq!(rr.len(), 2);
    assert_eq!(rr[0].kind, DefenseKind::Parry(0));
    assert_eq!(rr[0].score(), 10);
    assert_eq!(
        rr[0].label.to_string(),
        "Parry (broadsword), Rapid Recovery"
    );
    assert_eq!(rr[0].effort(), Some((1, "Rapid Recovery")));
    assert_eq!(rr[1].score(), 12);
    assert_eq!(
        rr[1].effort(),
        Some((2, "Rapid Recovery and Feverish Defense"))
    );
    // The AI passes it up without FP to spare: Dodge 9 then the knife's parry.
    let order = crate::rules::gurps::ai::choose_defenses(&opts, false, false);
    assert!(order.iter().all(|&i| opts[i].effort().is_none()));
    assert_eq!(opts[order[0]].kind, DefenseKind::Dodge);
    // Not against a ranged attack, and no restriction after a Move and Attack with no
    // weapon or after a plain Attack.
    assert!(with_rapid_recovery(&f, Vec::new(), true, &[], true, false).is_empty());
    assert_eq!(guard_of(Maneuver::MoveAndAttack, None), Guard::Normal);
    assert_eq!(guard_of(Maneuver::Attack, Some(0)), Guard::Normal);
}

/// gurps-lite-and-socs.txt "ATTACK/DEFENSE OPTIONS": a Telegraphic Attack gives "+2 to
/// target's Dodge" (every Dodge: standing, retreating) and nothing to a Parry; Deceptive
/// Attack's −1 per level comes off every defense. A ranged "telegraphic" plan does nothing.
#[test]
fn telegraphic_attack_raises_only_the_dodge() {
    let f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    let sword = f.sheet.weapons[0].clone();
    let mut plan = crate::rules::gurps::plan::Plan::simple(Maneuver::Attack, Hex::ZERO);
    plan.telegraphic = true;
    plan.deceptive = 1;
    let against = defense_against(
        &plan,
        (false, 1),
        crate::rules::gurps::facing::Arc::Front,
        false,
        0,
    );
    let opts = defenses_against(
        &f,
        &sword,
        crate::rules::gurps::facing::Arc::Front,
        &against,
        true,
        false,
        false,
    );
    let score = |kind: DefenseKind, step: DefenseStep| {
        opts.iter()
            .find(|o| o.kind == kind && o.step == step)
            .map(DefenseOption::score)
    };
    // Dodge 9, Parry 10, broadsword retreat +1, dodge retreat +3
    assert_eq!(
        score(DefenseKind::Dodge, DefenseStep::Stand),
        Some(9 + 2 - 1)
    );
    assert_eq!(
        score(DefenseKind::Dodge, DefenseStep::Retreat),
        Some(9 + 3 + 2 - 1)
    );
    assert_eq!(
        score(DefenseKind::Parry(0), DefenseStep::Stand),
        Some(10 - 1)
    );
    assert_eq!(
        score(DefenseKind::Parry(0), DefenseStep::Retreat),
        Some(10 + 1 - 1)
    );
    let ranged = defense_against(
        &plan,
        (true, 1),
        crate::rules::gurps::facing::Arc::Front,
        false,
        0,
    );
    assert_eq!(ranged, Against::default());
}

/// gurps-lite-and-socs.txt "ATTACK/DEFENSE OPTIONS": Deceptive Attack takes −2 to skill per
/// level "(min. of 10)" of the final effective skill: Broadsword 14 asking three levels
/// takes two (14 − 4 = 10); at shock −3 (11) none, at shock −2 (12) one; a Move and
/// Attack, capped at 9, none. The defense's −1 a level follows the levels taken.
#[test]
fn deceptive_attack_keeps_effective_skill_at_ten() {
    assert_eq!(deceptive_levels(14, 3), 2);
    assert_eq!(deceptive_levels(14, 1), 1);
    assert_eq!(deceptive_levels(11, 1), 0);
    assert_eq!(deceptive_levels(12, 2), 1);
    assert_eq!(deceptive_levels(9, 1), 0);
    assert_eq!(deceptive_levels(3, 0), 0);
    let mut f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    let mut plan = crate::rules::gurps::plan::Plan::simple(Maneuver::Attack, Hex::ZERO);
    plan.weapon = Some(0);
    plan.deceptive = 3;
    let at = |f: &Fighter, plan: &crate::rules::gurps::plan::Plan| {
        let s = strike_from_next_hex(f, plan, 0, None);
        (s.deceptive, attack_skill(&f.sheet.weapons[0], &s))
    };
    assert_eq!(at(&f, &plan), (2, 10));
    f.shock = 3;
    assert_eq!(at(&f, &plan), (0, 11));
    f.shock = 2;
    assert_eq!(at(&f, &plan), (1, 10));
    f.shock = 0;
    // The defense takes −1 a level the strike took: 2 of the 3 asked for, none after a
    // Move and Attack.
    let against = |plan: &crate::rules::gurps::plan::Plan| {
        let (levels, _) = at(&f, plan);
        defense_against(
            plan,
            (false, levels),
            crate::rules::gurps::facing::Arc::Front,
            false,
            0,
        )
        .every
    };
    assert_eq!(against(&plan), vec![Modifier::new("Deceptive Attack", -2)]);
    plan.maneuver = Maneuver::MoveAndAttack;
    assert_eq!(at(&f, &plan), (0, 9));
    assert_eq!(against(&plan), vec![]);
}

/// gurps-traveller-gm-screen.txt "MODIFIERS TO ACTIVE DEFENSE ROLLS", Unarmed parry vs.
/// weapon: a Brawling parry (Brawling 12: 12/2 + 3 = 9) takes −3 against a swung
/// broadsword, in a group attack too, none against a spear's thrust or another punch, and
/// none with Karate.
#[test]
fn a_bare_hand_parries_a_weapon_at_minus_three() {
    let f = fighter(&[("Brawling", 12)], &["punch"]);
    let foe = fighter(
        &[("Broadsword", 14), ("Spear", 12)],
        &["broadsword", "spear", "punch"],
    );
    let front = crate::rules::gurps::facing::Arc::Front;
    let parry = |attack: usize| {
        defenses_against(
            &f,
            &foe.sheet.weapons[attack],
            front,
            &Against::default(),
            false,
            false,
            false,
        )
        .iter()
        .find(|o| matches!(o.kind, DefenseKind::Parry(_)))
        .map(DefenseOption::score)
    };
    let bare = f.sheet.weapons[0].parry.expect("a punch parries");
    assert_eq!(bare, 9);
    assert_eq!(parry(0), Some(bare - 3));
    assert_eq!(parry(1), Some(bare), "a thrust");
    assert_eq!(parry(2), Some(bare), "a punch");
    assert_eq!(
        group_defenses(&f, &foe.sheet.weapons[0], front, false)
            .iter()
            .find(|o| matches!(o.kind, DefenseKind::Parry(_)))
            .map(DefenseOption::score),
        Some(bare - 3)
    );
    let mut karate = f.sheet.weapons[0].clone();
    karate.skill_name = "Karate".into();
    assert_eq!(unarmed_parry_penalty(&karate, &foe.sheet.weapons[0]), None);
    assert_eq!(
        unarmed_parry_penalty(&f.sheet.weapons[0], &foe.sheet.weapons[0]),
        Some(Modifier::new("unarmed parry against a weapon", -3))
    );
}

/// gurps-lite-and-socs.txt "ATTACK/DEFENSE OPTIONS": Retreat +3 to Dodge, +1 to a
/// broadsword parry, once; none when stunned or after a Committed Attack; Dodge and Drop +3
/// against ranged attacks.
#[test]
fn retreat_and_dodge_and_drop() {
    let mut f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    let opts = with_retreat_and_drop(&f, defense_options(&f, false, &[]), false, true, false);
    let scores: Vec<(i32, DefenseStep)> = opts.iter().map(|o| (o.score(), o.step)).collect();
    assert_eq!(
        scores,
        vec![
            (9, DefenseStep::Stand),
            (10, DefenseStep::Stand),
            (12, DefenseStep::Retreat),
            (11, DefenseStep::Retreat)
        ]
    );
    // no hex to go to, or already retreated: no retreat
    assert_eq!(
        with_retreat_and_drop(&f, defense_options(&f, false, &[]), false, false, false).len(),
        2
    );
    f.retreated = true;
    assert_eq!(
        with_retreat_and_drop(&f, defense_options(&f, false, &[]), false, true, false).len(),
        2
    );
    f.retreated = false;
    f.stunned = true;
    assert_eq!(
        with_retreat_and_drop(&f, defense_options(&f, false, &[]), false, true, false).len(),
        2
    );
    f.stunned = false;
    f.guard = Guard::Committed(0);
    assert_eq!(
        with_retreat_and_drop(&f, defense_options(&f, false, &[]), false, true, false).len(),
        1
    );
    f.guard = Guard::Normal;
    let opts = with_retreat_and_drop(&f, defense_options(&f, true, &[]), true, true, false);
    assert_eq!(opts.len(), 2);
    assert_eq!((opts[1].score(), opts[1].step), (12, DefenseStep::Drop));
    // the AI drops prone only when desperate
    assert_eq!(
        crate::rules::gurps::ai::choose_defenses(&opts, false, false),
        vec![0]
    );
    assert_eq!(
        crate::rules::gurps::ai::choose_defenses(&opts, true, false),
        vec![1, 0]
    );
}

/// gurps-lite-and-socs.txt "RAPID FIRE": +1 for 5-8 shots ... +6 for 50-99, +7 for
/// 100-199, +9 for 300-399.
#[test]
fn rapid_fire_bonus_table() {
    let table = [
        (1, 0),
        (4, 0),
        (5, 1),
        (8, 1),
        (9, 2),
        (12, 2),
        (13, 3),
        (16, 3),
        (17, 4),
        (24, 4),
        (25, 5),
        (49, 5),
        (50, 6),
        (99, 6),
        (100, 7),
        (199, 7),
        (200, 8),
        (300, 9),
    ];
    for (shots, bonus) in table {
        assert_eq!(rapid_fire_bonus(shots), bonus, "{shots}");
    }
}

/// Hits by recoil (one plus one per full Rcl of margin, at most the shots) and hits a
/// defense avoids (one plus its margin, "GROUP COMBAT").
#[test]
fn rapid_fire_hits_and_defense() {
    assert_eq!(rapid_fire_hits(12, 2, 0), 1);
    assert_eq!(rapid_fire_hits(12, 2, 5), 3);
    assert_eq!(rapid_fire_hits(3, 2, 9), 3);
    assert_eq!(hits_avoided(0), 1);
    assert_eq!(hits_avoided(2), 3);
    // 12 shots at skill 12 (+2 rapid fire in the modifiers already): roll 3+2+2 = 7,
    // margin 5, Rcl 2: 3 hits; Dodge 9 rolled 4+2+2 = 8 (margin 1) avoids 2; one hit.
    let mut input = strike(false);
    input.attack = vec![Modifier::new("Guns", 12)];
    input.shots = 12;
    input.recoil = 2;
    input.damage = DiceExpr::d6(1, 0);
    let mut dice = Scripted::new(&[3, 2, 2, 4, 2, 2, 6]);
    let out = resolve_strike(&mut dice, input.clone(), |_| vec![0]);
    assert_eq!(out.hits, (3, 2));
    assert_eq!(out.result, AttackResult::Hit);
    assert!(out.extra_hits.is_empty());
    // the same attack undefended: three hits, two of them extra
    let mut dice = Scripted::new(&[3, 2, 2, 6, 5, 4]);
    let out = resolve_strike(&mut dice, input, |_| vec![]);
    assert_eq!(out.hits, (3, 0));
    assert_eq!(out.extra_hits.len(), 2);
    assert_eq!(out.extra_hits[1].damage.0.total, 4);
}

/// gurps-lite-and-socs.txt "ATTACK/DEFENSE OPTIONS": Rapid Strike −6 each, −3 with Flurry
/// of Blows; Heroic Charge ignores the Move and Attack penalty and cap.
#[test]
fn rapid_strike_and_heroic_charge() {
    let f = fighter(&[("Broadsword", 15)], &["broadsword"]);
    let sword = &f.sheet.weapons[0];
    let mut s = situation(Maneuver::Attack);
    s.rapid_strike = Some(false);
    assert_eq!(effective(&attack_modifiers(sword, &s)), 9);
    s.rapid_strike = Some(true);
    assert_eq!(effective(&attack_modifiers(sword, &s)), 12);
    let mut s = situation(Maneuver::MoveAndAttack);
    assert_eq!(effective(&attack_modifiers(sword, &s)), 9);
    s.heroic_charge = true;
    assert_eq!(effective(&attack_modifiers(sword, &s)), 15);
}

/// gurps-lite-and-socs.txt "LOST FATIGUE POINTS": below 1/3 FP, half Move and Dodge
/// (round up); with low HP as well, both halvings apply.
#[test]
fn low_fatigue_halves_move_and_dodge() {
    let mut f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    // HT 12: FP 12; Move 6, Dodge 9
    f.fp = 3;
    assert_eq!(current_move(&f), 3);
    assert_eq!(defense_options(&f, false, &[])[0].score(), 5);
    f.hp = 3; // HP 11: below a third too
    assert_eq!(current_move(&f), 2);
    assert_eq!(defense_options(&f, false, &[])[0].score(), 3);
    assert_eq!(best_defense_score(&f, Guard::Normal, true), Some(3));
}

/// gurps-traveller-gm-screen.txt: the target's Size Modifier, and −4 per figure between
/// shooter and target; neither counts in melee.
#[test]
fn size_and_intervening_figures() {
    let b = fighter(&[("Bow", 13)], &["longbow"]);
    let mut s = situation(Maneuver::Attack);
    s.target_sm = 2;
    s.intervening = 1;
    assert_eq!(
        effective(&attack_modifiers(&b.sheet.weapons[0], &s)),
        13 + 2 - 4
    );
    let g = fighter(&[("Broadsword", 14)], &["broadsword"]);
    assert_eq!(effective(&attack_modifiers(&g.sheet.weapons[0], &s)), 14);
}

/// A shield (4e decisions in `with_shield`): DB on every defense from the front, Block
/// (here 3 + 12/2 + 2 = 11), no block against firearms, −1 to parries with a large shield.
#[test]
fn shields_add_db_and_block() {
    let mut f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    let mut sheet = (*f.sheet).clone();
    sheet.shield = Some(crate::rules::gurps::sheet::Shield {
        name: Label::Static("medium shield"),
        db: 2,
        large: false,
        block: crate::rules::gurps::sheet::block(12, 2),
    });
    f.sheet = Arc::new(sheet);
    let opts = with_shield(&f, defense_options(&f, false, &[]), true, false, &[], false);
    let scores: Vec<i32> = opts.iter().map(|o| o.score()).collect();
    assert_eq!(scores, vec![9 + 2, 10 + 2, 11]);
    assert_eq!(opts[2].kind, DefenseKind::Block);
    // from the side: no DB, but the block stays
    let opts = with_shield(
        &f,
        defense_options(&f, false, &[]),
        false,
        false,
        &[],
        false,
    );
    assert_eq!(
        opts.iter().map(|o| o.score()).collect::<Vec<_>>(),
        vec![9, 10, 11]
    );
    // against a firearm: DB on the dodge, no block
    let opts = with_shield(&f, defense_options(&f, true, &[]), true, true, &[], false);
    assert_eq!(opts.iter().map(|o| o.score()).collect::<Vec<_>>(), vec![11]);
    // shield not in hand: nothing
    f.shield_ready = false;
    assert_eq!(
        with_shield(&f, defense_options(&f, false, &[]), true, false, &[], false).len(),
        2
    );
    // on a crippled off arm (for good or for a while): nothing either
    f.shield_ready = true;
    f.numb.push((HitLocation::LeftArm, 3));
    assert_eq!(
        with_shield(&f, defense_options(&f, false, &[]), true, false, &[], false).len(),
        2
    );
    assert_eq!(best_defense_score(&f, Guard::Normal, false), Some(10));
}

/// A crippled off (left) arm (decision in `Fighter::off_arm_useless`): the two-handed
/// quarterstaff neither strikes nor parries, the one-handed broadsword does both, and no
/// Dual-Weapon Attack is open; a crippled weapon arm leaves only bare hands.
#[test]
fn a_crippled_off_arm_holds_no_two_handed_weapon() {
    let mut f = fighter(
        &[("Broadsword", 14), ("Staff", 13)],
        &["broadsword", "quarterstaff", "punch"],
    );
    assert_eq!(f.sheet.weapons[1].hands, 2);
    assert!(f.can_use(1) && f.wields(1));
    f.crippled.push(HitLocation::LeftArm);
    assert!(f.off_arm_useless());
    assert!(!f.can_use(1) && !f.wields(1));
    assert!(f.can_use(0) && f.can_use(2));
    let parries: Vec<DefenseKind> = defense_options(&f, false, &[])
        .iter()
        .map(|o| o.kind)
        .collect();
    assert_eq!(
        parries,
        vec![
            DefenseKind::Dodge,
            DefenseKind::Parry(0),
            DefenseKind::Parry(2)
        ]
    );
    f.crippled = vec![HitLocation::RightArm];
    assert!(!f.can_use(0) && !f.can_use(1) && f.can_use(2));
}

/// Aim braced (decision: 4e Basic Set p. B364): +1 on top of the Aim bonus.
#[test]
fn braced_aim() {
    let f = fighter(&[("Bow", 13)], &["longbow"]); // Acc 3
    let mut s = situation(Maneuver::Attack);
    s.aim_turns = 1;
    s.braced = true;
    assert_eq!(
        effective(&attack_modifiers(&f.sheet.weapons[0], &s)),
        13 + 3 + 1
    );
    s.aim_turns = 0;
    assert_eq!(effective(&attack_modifiers(&f.sheet.weapons[0], &s)), 13);
}

/// Repeated parries (decision: 4e, −4 for each after the first with the same weapon) and
/// blocks (one between turns, two under All-Out Defense: gurps-traveller-gm-screen.txt).
#[test]
fn repeated_parries_and_blocks() {
    let mut f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    f.parried[0] = 2;
    assert_eq!(defense_options(&f, false, &[])[1].score(), 10 - 8);
    let mut sheet = (*f.sheet).clone();
    sheet.shield = Some(crate::rules::gurps::sheet::Shield {
        name: Label::Static("small shield"),
        db: 1,
        large: false,
        block: 10,
    });
    f.sheet = Arc::new(sheet);
    f.blocked = 1;
    let n =
        |f: &Fighter| with_shield(f, defense_options(f, false, &[]), true, false, &[], false).len();
    assert_eq!(n(&f), 2);
    f.guard = Guard::DoubleDefense;
    assert_eq!(n(&f), 3);
    assert_eq!(blocks_allowed(Guard::Normal), 1);
}

/// gurps-lite-and-socs.txt "HIT LOCATIONS", Armor Chinks: −8 on the torso, −10 elsewhere;
/// a hit halves DR at the location.
#[test]
fn armor_chinks() {
    let f = fighter(&[("Spear", 14)], &["spear"]);
    let spear = &f.sheet.weapons[0];
    let mut s = situation(Maneuver::Attack);
    s.chink = true;
    assert_eq!(effective(&attack_modifiers(spear, &s)), 6);
    s.aimed = Some(HitLocation::LeftArm);
    assert_eq!(effective(&attack_modifiers(spear, &s)), 4);
    // 6 impaling against DR 5 halved to 2: 4 x2 = 8 (not 1 x2 = 2)
    let mut input = strike(false);
    input.damage = DiceExpr::d6(1, 0);
    input.damage_type = DamageType::Impaling;
    input.dr = crate::rules::gurps::location::DrTable::uniform(5);
    input.chink = true;
    let mut dice = Scripted::new(&[3, 3, 3, 6]);
    let out = resolve_strike(&mut dice, input, |_| vec![]);
    assert_eq!(out.damage.map(|d| d.2), Some(8));
}

/// gurps-lite-and-socs.txt "ATTACK/DEFENSE OPTIONS": Dual-Weapon Attack, each at −4, the
/// off hand at the usual −4 more.
#[test]
fn dual_weapon_attack() {
    let f = fighter(
        &[("Shortsword", 14), ("Knife", 13)],
        &["shortsword", "large knife"],
    );
    let mut s = situation(Maneuver::Attack);
    s.dual_weapon = Some(false);
    assert_eq!(effective(&attack_modifiers(&f.sheet.weapons[0], &s)), 10);
    s.dual_weapon = Some(true);
    assert_eq!(effective(&attack_modifiers(&f.sheet.weapons[1], &s)), 5);
}

/// gurps-lite-and-socs.txt "GROUP COMBAT": +2 for 2-4 attackers, +4 for 5-6, +6 for 7-8, +8
/// for 9-10; extra hits are half the margin (the rapid-fire machinery with recoil 2).
#[test]
fn group_combat_numbers() {
    let b: Vec<i32> = (1..=10).map(group_bonus).collect();
    assert_eq!(b, vec![0, 2, 2, 2, 4, 4, 6, 6, 8, 8]);
    assert_eq!(rapid_fire_hits(5, 2, 5), 3); // margin 5: 2 extra attacks connect
    assert_eq!(rapid_fire_hits(2, 2, 9), 2); // never more than the attackers
}

/// "GROUP COMBAT": each member's skill is figured with its own modifiers before the
/// average; for a ranged blow the target's Size Modifier is one of them
/// (gurps-traveller-gm-screen.txt, "RANGED WEAPON ATTACKS", size of target).
#[test]
fn a_group_member_shooting_counts_the_targets_size() {
    let archer = fighter(&[("Bow", 12)], &["short bow"]);
    let map = crate::hexmap::HexMap::new(
        crate::hexmap::MapShape::Hexagon { radius: 10 },
        crate::hexmap::Orientation::Pointy,
        1.0,
        "yd",
    );
    let bow = &archer.sheet.weapons[0];
    let at = |sm| {
        let s = group_member_situation(
            &map,
            (&archer, Hex::new(0, 0)),
            bow,
            Hex::new(2, 0),
            (0, Posture::Standing, sm),
        );
        effective(&attack_modifiers(bow, &s))
    };
    assert_eq!(at(2) - at(0), 2);
    assert!(
        attack_modifiers(
            bow,
            &group_member_situation(
                &map,
                (&archer, Hex::new(0, 0)),
                bow,
                Hex::new(2, 0),
                (0, Posture::Standing, 2)
            )
        )
        .iter()
        .any(|m| m.label.to_string() == "target's size")
    );
}

/// The AI's effective skill without labels is the sum of the labelled modifiers, for every
/// maneuver with a melee and a ranged weapon, in situations that add each kind of
/// modifier, including Move and Attack's cap at 9 (gurps-lite-and-socs.txt "MOVE AND
/// ATTACK").
#[test]
fn attack_skill_is_the_sum_of_the_attack_modifiers() {
    let f = fighter(
        &[("Broadsword", 16), ("Bow", 13)],
        &["broadsword", "short bow"],
    );
    let tweaks: [fn(&mut AttackSituation); 8] = [
        |_| {},
        |s| s.deceptive = 2,
        |s| {
            s.range_yards = 30.0;
            s.aim_turns = 2;
            s.braced = true;
            s.cover = Some(Cover::Half);
        },
        |s| {
            s.aimed = Some(HitLocation::Vitals);
            s.shock = 2;
            s.posture = Posture::Kneeling;
        },
        |s| {
            s.chink = true;
            s.one_eye = true;
            s.lame = true;
            s.large_shield = true;
        },
        |s| {
            s.rapid_strike = Some(true);
            s.dual_weapon = Some(true);
            s.evaluate = 2;
        },
        |s| {
            s.intervening = 1;
            s.target_posture = Posture::Lying;
            s.opportunity_fire = true;
            s.shots = 3;
        },
        |s| {
            s.disarm = Some(-3);
            s.hexes_moved = 2;
            s.telegraphic = true;
        },
    ];
    let mut kinds = 0;
    for maneuver in Maneuver::ALL {
        for weapon in &f.sheet.weapons {
            for tweak in tweaks {
                let mut s = situation(maneuver);
                tweak(&mut s);
                let mods = attack_modifiers(weapon, &s);
                assert_eq!(
                    attack_skill(weapon, &s),
                    effective(&mods),
                    "{maneuver:?} {s:?}"
                );
                kinds = kinds.max(mods.len());
            }
        }
    }
    assert!(kinds >= 6, "at most {kinds} modifiers in one attack");
}

/// gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS" (behind someone else; rolling
/// to hit the wrong target): the figures on a line of fire, counted from the figures
/// (`figures_on_line`) and found first (`first_figure_on_line`), are the hexes a walk of
/// every hex of the line finds, for every pair of hexes of a map with fighters scattered
/// over a third of it (one hex named twice).
#[test]
fn figures_on_a_line_of_fire_are_those_a_walk_finds() {
    use crate::hexmap::{MapShape, Orientation};
    let map = HexMap::new(
        MapShape::Hexagon { radius: 6 },
        Orientation::Pointy,
        1.0,
        "yd",
    );
    let hexes: Vec<Hex> = map.hexes().map(|(h, _)| h).collect();
    let mut figures: Vec<Hex> = hexes.iter().copied().step_by(3).collect();
    figures.push(figures[4]);
    let (mut counted, mut found) = (0, 0);
    for &from in &hexes {
        for &to in &hexes {
            let count = figures_on_line(&map, from, to, &figures);
            assert_eq!(
                count,
                figures_between(&map, from, to, |h| figures.contains(&h)),
                "{from:?} -> {to:?}"
            );
            let first = map
                .line(from, to)
                .filter(|&h| h != from && h != to)
                .find(|h| figures.contains(h));
            assert_eq!(first_figure_on_line(&map, from, to, &figures), first);
            counted += count;
            found += usize::from(first.is_some());
        }
    }
    // The lines do cross figures (the check above is not of empty answers only).
    assert!(counted > 10_000 && found > 10_000, "{counted} {found}");
}

/// gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS": Feverish Defense costs 1 FP a
/// defense; under All-Out Defense (Double Defense, "MANEUVERS") the second defense of
/// another kind pays for its own: Dodge 9 with Feverish (11) rolls 12 and fails, Parry 10
/// with Feverish (12) rolls 13 and fails: two payments, where one was taken. A defense
/// made without extra effort pays nothing.
#[test]
fn double_defense_pays_for_each_feverish_defense() {
    let option = |kind, name: &'static str, score: i32, feverish: bool| DefenseOption {
        kind,
        label: Label::Static(name),
        modifiers: if feverish {
            vec![
                Modifier::new(name, score),
                Modifier::new("Feverish Defense", 2),
            ]
        } else {
            vec![Modifier::new(name, score)]
        },
        step: DefenseStep::Stand,
        feverish,
        rapid_recovery: false,
    };
    let defend = |feverish: [bool; 2]| {
        let input = StrikeInput {
            attack: vec![Modifier::new("skill", 12)],
            defenses: vec![
                option(DefenseKind::Dodge, "Dodge", 9, feverish[0]),
                option(DefenseKind::Parry(0), "Parry (broadsword)", 10, feverish[1]),
            ],
            ..strike(true)
        };
        // Attack 9 (hits), Dodge 12, Parry 13 (both fail), damage 4.
        let mut dice = Scripted::new(&[3, 3, 3, 4, 4, 4, 5, 4, 4, 4]);
        let out = resolve_strike(&mut dice, input, |_| vec![0, 1]);
        assert_eq!(out.defenses.len(), 2);
        assert_eq!(out.result, AttackResult::Hit);
        out.defense_efforts
    };
    let feverish = Some((1, "Feverish Defense"));
    assert_eq!(defend([true, true]), vec![feverish, feverish]);
    assert_eq!(defend([false, true]), vec![None, feverish]);
    assert_eq!(defend([false, false]), vec![None, None]);
}

/// gurps-traveller-gm-screen.txt, "MODIFIERS TO ATTACK ROLLS": Lame (only for hand-weapon
/// attacks), crippled leg −3: a broadsword at 14 strikes at 11 with the left leg crippled
/// (and at 7 lying down, −4, "POSTURES", where a crippled leg leaves it); a bow shoots at
/// its 13 less the posture only.
#[test]
fn a_lame_fighter_strikes_at_minus_three() {
    let mut f = fighter(
        &[("Broadsword", 14), ("Bow", 13)],
        &["broadsword", "short bow"],
    );
    let plan = crate::rules::gurps::plan::Plan::simple(Maneuver::Attack, Hex::ZERO);
    let skill = |f: &Fighter, w: usize| {
        let s = strike_from_next_hex(f, &plan, w, None);
        (s.lame, attack_skill(&f.sheet.weapons[w], &s))
    };
    assert_eq!(skill(&f, 0), (false, 14));
    f.crippled.push(HitLocation::LeftLeg);
    assert_eq!(skill(&f, 0), (true, 14 + LAME));
    assert_eq!(LAME, -3);
    f.posture = Posture::Lying;
    assert_eq!(skill(&f, 0), (true, 14 - 3 - 4));
    assert_eq!(skill(&f, 1), (true, 13 - 4));
}

/// gurps-lite-and-socs.txt, "HIT LOCATIONS": skull −7 and face −5 from the front or side,
/// "Skull (from behind)" −5 and "Face (from behind)" −7 from the back arc (the foe at
/// (1, 0) facing away from the attacker at (0, 0)); the vitals −3 either way.
#[test]
fn skull_and_face_from_behind() {
    let f = fighter(&[("Broadsword", 14)], &["broadsword"]);
    let toward_me = Hex::new(1, 0).main_direction_to(Hex::ZERO);
    let mut plan = crate::rules::gurps::plan::Plan::simple(Maneuver::Attack, Hex::ZERO);
    plan.weapon = Some(0);
    let mut aimed_at = |location: HitLocation, facing| {
        plan.location = Some(location);
        let s = strike_from_next_hex(&f, &plan, 0, Some(facing));
        let mods = attack_modifiers(&f.sheet.weapons[0], &s);
        (mods[1].label.to_string(), effective(&mods))
    };
    assert_eq!(aimed_at(HitLocation::Skull, toward_me), ("skull".into(), 7));
    assert_eq!(aimed_at(HitLocation::Face, toward_me), ("face".into(), 9));
    let away = -toward_me;
    assert_eq!(
        aimed_at(HitLocation::Skull, away),
        ("skull (from behind)".into(), 9)
    );
    assert_eq!(
        aimed_at(HitLocation::Face, away),
        ("face (from behind)".into(), 7)
    );
    assert_eq!(aimed_at(HitLocation::Vitals, away), ("vitals".into(), 11));
    // From the side, as from the front.
    assert_eq!(
        aimed_at(HitLocation::Skull, toward_me.clockwise().clockwise()),
        ("skull".into(), 7)
    );
}

/// gurps-lite-and-socs.txt, "MANEUVERS", Committed Attack: "no Parry with the hand you
/// attacked with, no Dodge if you kicked". After one with a kick (GCS's Natural Attacks
/// (Kick) by name), the broadsword parries (its 10 less 2) and there is no Dodge, not even
/// against a shot (the Dodge and Drop comes from the Dodge); after one with the sword, the
/// Dodge (9 less 2) stays and the sword does not parry.
#[test]
fn no_dodge_after_a_committed_kick() {
    let mut f = fighter(
        &[("Broadsword", 14), ("Brawling", 12)],
        &["broadsword", "punch"],
    );
    let mut sheet = (*f.sheet).clone();
    sheet.weapons[1].name = Label::Static("Natural Attacks (Kick)");
    f.sheet = Arc::new(sheet);
    assert!(f.sheet.weapons[1].is_kick() && !f.sheet.weapons[0].is_kick());
    let mut boxer = f.sheet.weapons[1].clone();
    boxer.name = Label::Static("Kickboxing jab");
    assert!(!boxer.is_kick());
    let kinds = |f: &Fighter, ranged: bool| -> Vec<DefenseKind> {
        with_retreat_and_drop(f, defense_options(f, ranged, &[]), ranged, true, false)
            .iter()
            .map(|o| o.kind)
            .collect()
    };
    f.guard = Guard::Committed(1);
    assert_eq!(kinds(&f, false), vec![DefenseKind::Parry(0)]);
    assert_eq!(kinds(&f, true), Vec::<DefenseKind>::new());
    assert_eq!(best_defense_score(&f, f.guard, false), Some(10 - 2));
    assert_eq!(best_defense_score(&f, f.guard, true), None);
    f.guard = Guard::Committed(0);
    assert_eq!(
        kinds(&f, false),
        vec![DefenseKind::Dodge, DefenseKind::Parry(1)]
    );
    assert_eq!(best_defense_score(&f, f.guard, true), Some(9 - 2));
}

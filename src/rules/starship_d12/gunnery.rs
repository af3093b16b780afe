//! Gunnery and damage (starship-d12-quick-reference.txt, "Gunnery Difficulties", "After
//! the shot" and the damage paragraphs that follow): what a shot needs, the roll with
//! Sustain, the exact chance to hit and the expected damage, and how damage runs through
//! shields, outer armour, the chosen system, its side and the core.

use super::range::Band;
use super::sheet::{ShipFacing, ShipSheet, ShipState, SystemRef, WeaponStats};
use crate::dice::{Critical, DieRoller, Modifier, RollRecord, d12_roll};

/// The die total a shot needs at `band` before the target's defence: 4 at Tailing or
/// Short, 7 at Medium, 9 at Long ("Gunnery Difficulties"); a missile has its own number.
/// None at Escaped: nothing can be fired at a ship out of the fight.
pub fn base_difficulty(band: Band, weapon: &WeaponStats) -> Option<i32> {
    if band == Band::Escaped {
        return None;
    }
    if let Some(m) = weapon.missile {
        return Some(m.to_hit);
    }
    Some(match band {
        Band::Tailing | Band::Short => 4,
        Band::Medium => 7,
        Band::Long => 9,
        Band::Escaped => return None,
    })
}

/// The whole difficulty: the base number plus the target's defence.
pub fn difficulty(band: Band, weapon: &WeaponStats, defence: i32) -> Option<i32> {
    base_difficulty(band, weapon).map(|d| d + defence)
}

/// A shot after the roll and any Sustain.
#[derive(Clone, Debug, PartialEq)]
pub struct Shot {
    /// The to-hit roll (its modifiers: gunner, helpers, edges).
    pub roll: RollRecord,
    /// Points added to the die by Sustain.
    pub sustained: i32,
    /// Damage the hit does (after Sustain), 0 on a miss.
    pub damage: i32,
    /// Whether it hit.
    pub hit: bool,
}

/// Sustain after the roll ("After the shot"): the fewest +1s that make the die total reach
/// `need`, each costing `S` damage, when the weapon can sustain and some damage is left.
/// Returns the +1s and the damage left, or None when Sustain cannot make the shot hit.
pub fn sustain_to_hit(total: i32, need: i32, weapon: &WeaponStats) -> Option<(i32, i32)> {
    let short = need - total;
    if short <= 0 {
        return Some((0, weapon.damage));
    }
    let s = weapon.sustain?;
    let left = weapon.damage - short * s;
    (left > 0).then_some((short, left))
}

/// Rolls a shot: the d12 roll of decision 3 with the gunner's, helpers' and edges'
/// modifiers; a natural 1 misses and a natural 12 hits; otherwise the die total must reach
/// `need`, with as much Sustain as it takes.
pub fn shoot(
    dice: &mut impl DieRoller,
    modifiers: Vec<Modifier>,
    need: i32,
    weapon: &WeaponStats,
) -> Shot {
    let mut roll = d12_roll(dice, modifiers, Some(need), true);
    let (hit, sustained, damage) = match roll.critical {
        Some(Critical::Success) => (true, 0, weapon.damage),
        Some(Critical::Failure) => (false, 0, 0),
        None => match sustain_to_hit(roll.total, need, weapon) {
            Some((k, d)) => (true, k, d),
            None => (false, 0, 0),
        },
    };
    if sustained > 0 {
        roll.success = Some(true);
        roll.margin = Some(roll.total + sustained - need);
    }
    Shot {
        roll,
        sustained,
        damage,
        hit,
    }
}

/// Exact chance to hit and expected damage of a shot with modifiers summing to `bonus`
/// against `need`, over the 144 equally likely pairs of d12 faces (the second die only
/// counts when the first is under `bonus`).
pub fn odds(bonus: i32, need: i32, weapon: &WeaponStats) -> (f64, f64) {
    // Counted in integers: every partial sum of whole numbers this small is exact in an
    // f64, so the quotients are the same bits as summing 1.0s and damages pair by pair.
    // A pair's result depends only on the first die (1 misses, 12 hits) or the total:
    // a first die under `bonus` adds its twelve totals, the others (a run up to 11) their
    // own totals twelve times each.
    let (mut hits, mut damage) = (12, 12 * i64::from(weapon.damage)); // a first 12
    let under = bonus.saturating_sub(1).min(11); // the last first die under `bonus`
    for first in 2..=under {
        let (h, d) = totals(first + 1, first + 12, need, weapon);
        hits += h;
        damage += d;
    }
    let alone = under.max(1) + 1; // the first first die at `bonus` or over (from 2)
    if alone <= 11 {
        let (h, d) = totals(alone, 11, need, weapon);
        hits += 12 * h;
        damage += 12 * d;
    }
    (hits as f64 / 144.0, damage as f64 / 144.0)
}

/// The hits and their damage among the die totals `lo` to `hi`, one each, a first die of
/// 2 to 11 ([`sustain_to_hit`]): a total that reaches `need` does the full damage; one
/// `short` of it hits with `short` Sustains while damage is left.
fn totals(lo: i32, hi: i32, need: i32, weapon: &WeaponStats) -> (i64, i64) {
    let full = i64::from((hi - lo.max(need) + 1).max(0));
    let (mut hits, mut damage) = (full, full * i64::from(weapon.damage));
    match weapon.sustain {
        // D - short * S > 0 for the shorts 1 to (D - 1) / S: a run of whole numbers.
        Some(s) if s >= 1 && weapon.damage >= 1 => {
            let (first, last) = ((need - hi).max(1), (need - lo).min((weapon.damage - 1) / s));
            if first <= last {
                let (a, b) = (i64::from(first), i64::from(last));
                let k = b - a + 1;
                hits += k;
                damage += k * i64::from(weapon.damage) - i64::from(s) * ((a + b) * k / 2);
            }
        }
        // Numbers no sheet passes (a Sustain or damage under 1): total by total.
        Some(_) => {
            for t in lo..=hi.min(need - 1) {
                if let Some((_, d)) = sustain_to_hit(t, need, weapon) {
                    hits += 1;
                    damage += i64::from(d);
                }
            }
        }
        None => {}
    }
    (hits, damage)
}

/// One step of damage through a ship.
#[derive(Clone, Debug, PartialEq)]
pub struct DamageStep {
    /// What took it ("shields", "armour", a system's name).
    pub what: String,
    /// Points it took.
    pub amount: i32,
    /// A system that stopped working with this step.
    pub disabled: bool,
}

/// Where a hit's damage went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DamageReport {
    /// Each step in order.
    pub steps: Vec<DamageStep>,
    /// Damage that reached the systems (after shields and armour).
    pub to_systems: i32,
    /// The ship was destroyed by this hit.
    pub destroyed: bool,
}

/// Applies `damage` to a ship: first the shields, then the outer armour, then the chosen
/// system; what that system cannot take goes to the other systems on its side in sheet
/// order, then to the core's systems; damage left once the core has no system left
/// destroys the ship (the damage paragraphs after "After the shot"). Shields and armour
/// are pools that do not come back during a battle (a decision: the text says damage goes
/// to them first, not that they recover).
pub fn apply_damage(
    sheet: &ShipSheet,
    ship: &mut ShipState,
    damage: i32,
    chosen: SystemRef,
) -> DamageReport {
    let mut report = DamageReport::default();
    let mut left = damage.max(0);
    for (what, pool) in [("shields", &mut ship.shields), ("armour", &mut ship.armour)] {
        let taken = left.min(*pool);
        if taken > 0 {
            *pool -= taken;
            left -= taken;
            report.steps.push(DamageStep {
                what: what.into(),
                amount: taken,
                disabled: false,
            });
        }
    }
    report.to_systems = left;
    let left = spread(sheet, &mut ship.hp, left, chosen, |i, was, now| {
        let system = &sheet.systems[i];
        report.steps.push(DamageStep {
            what: system.name.clone(),
            amount: was - now,
            disabled: system.works(was) && !system.works(now),
        });
    });
    if left > 0 {
        ship.destroyed = true;
        report.destroyed = true;
    }
    report
}

/// Runs the `left` points of a hit that got past the shields and armour through the hit
/// points `hp` of `sheet`'s systems, from the system at `chosen` in [`damage_order`],
/// skipping systems already at 0 or less; `hit(i, was, now)` hears of each system hit.
/// Returns the points no system took (more than 0: the ship is destroyed). The one walk of
/// [`apply_damage`] and of the tries of [`defender_choice`].
fn spread(
    sheet: &ShipSheet,
    hp: &mut [i32],
    mut left: i32,
    chosen: SystemRef,
    mut hit: impl FnMut(usize, i32, i32),
) -> i32 {
    for i in damage_order(sheet, sheet.find(chosen), chosen.facing) {
        if left == 0 {
            break;
        }
        if hp[i] <= 0 {
            continue;
        }
        let taken = left.min(hp[i]);
        let was = hp[i];
        hp[i] -= taken;
        left -= taken;
        hit(i, was, hp[i]);
    }
    left
}

/// The systems a hit on the system at `chosen` (on facing `side`) runs through, in
/// order: that system, the other systems on its side in sheet order, then the core's.
fn damage_order(
    sheet: &ShipSheet,
    chosen: Option<usize>,
    side: ShipFacing,
) -> impl Iterator<Item = usize> + '_ {
    let n = sheet.systems.len();
    let facing = move |i: usize| sheet.systems[i].at.facing;
    chosen
        .into_iter()
        .chain((0..n).filter(move |&i| facing(i) == side && Some(i) != chosen))
        .chain((0..n).filter(move |&i| side != ShipFacing::Core && facing(i) == ShipFacing::Core))
}

/// What a system is worth to its ship when choosing where a hit goes: a weapon its
/// damage, an engine 5, anything else 1.
fn worth(sheet: &ShipSheet, i: usize) -> i32 {
    let s = &sheet.systems[i];
    s.weapon.as_ref().map_or(0, |w| w.damage) + if s.engine { 5 } else { 0 } + 1
}

/// The system the defender chooses for a hit of `damage`: each system that can still take
/// damage is tried with [`apply_damage`], and the choice is the one that loses least:
/// not destroyed first, then the smallest loss counting the worth of systems put out of
/// action (a weapon its damage, an engine 5, any other 1) and 2 for each core hit point
/// (the core is the last thing between a ship and destruction), then the fewest hit
/// points lost by systems that still work, then the sheet's order. So a hit goes where
/// systems already broken or of little use soak it, sized to the hit. A decision for the
/// AI and for players' ships alike; the text only says the ship hit chooses.
pub fn defender_choice(sheet: &ShipSheet, ship: &ShipState, damage: i32) -> SystemRef {
    // What reaches the systems, as apply_damage takes it from the shields and armour.
    let mut through = damage.max(0);
    for pool in [ship.shields, ship.armour] {
        let taken = through.min(pool);
        if taken > 0 {
            through -= taken;
        }
    }
    // Each try runs the hit through a copy of the hit points only, as apply_damage would.
    let mut after = ship.hp.clone();
    let mut loss = |i: usize| {
        after.copy_from_slice(&ship.hp);
        let left = spread(
            sheet,
            &mut after,
            through,
            sheet.systems[i].at,
            |_, _, _| {},
        );
        let mut lost_worth = 0;
        let mut lost_working_hp = 0;
        for (k, (system, (&was, &now))) in sheet
            .systems
            .iter()
            .zip(ship.hp.iter().zip(&after))
            .enumerate()
        {
            if system.at.facing == ShipFacing::Core {
                lost_worth += 2 * (was.max(0) - now.max(0));
            }
            if system.works(was) {
                lost_working_hp += was - now;
                if !system.works(now) {
                    lost_worth += worth(sheet, k);
                }
            }
        }
        (left > 0, lost_worth, lost_working_hp, i)
    };
    (0..sheet.systems.len())
        .filter(|&i| ship.hp[i] > 0)
        .min_by_key(|&i| loss(i))
        .map_or(sheet.systems[0].at, |i| sheet.systems[i].at)
}

/// The system an attacker who may choose (at Tailing, or with an edge) picks for a hit of
/// `damage`: the core when what reaches the systems would destroy the ship through it,
/// else the working weapon with the most damage that the hit puts out of action, else the
/// working weapon with the most damage, else the defender's least useful system's
/// opposite: the core.
pub fn attacker_choice(sheet: &ShipSheet, ship: &ShipState, damage: i32) -> SystemRef {
    let through = (damage - ship.shields - ship.armour).max(0);
    let core: Vec<usize> = (0..sheet.systems.len())
        .filter(|&i| sheet.systems[i].at.facing == ShipFacing::Core)
        .collect();
    let core_left: i32 = core.iter().map(|&i| ship.hp[i].max(0)).sum();
    if through > core_left
        && let Some(&i) = core.iter().find(|&&i| ship.hp[i] > 0)
    {
        return sheet.systems[i].at;
    }
    let weapons: Vec<usize> = (0..sheet.systems.len())
        .filter(|&i| sheet.systems[i].weapon.is_some() && ship.works(sheet, i))
        .collect();
    let disables = |i: usize| {
        let s = &sheet.systems[i];
        if s.works(ship.hp[i] - through) { 0 } else { 1 }
    };
    let best = weapons.iter().copied().max_by_key(|&i| {
        (
            disables(i),
            sheet.systems[i].weapon.as_ref().map_or(0, |w| w.damage),
            std::cmp::Reverse(i),
        )
    });
    match best {
        Some(i) => sheet.systems[i].at,
        None => core
            .iter()
            .find(|&&i| ship.hp[i] > 0)
            .map_or(sheet.systems[0].at, |&i| sheet.systems[i].at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::rules::starship_d12::sheet::{Build, CrewSpec, ShipStats, SystemSpec};

    fn laser(damage: i32, sustain: Option<i32>) -> WeaponStats {
        WeaponStats {
            damage,
            sustain,
            missile: None,
        }
    }

    /// "Gunnery Difficulties": 4 at short or tailing, 7 at medium, 9 at long, plus the
    /// enemy's defence; missiles have their own numbers.
    #[test]
    fn difficulty_by_range_plus_defence() {
        let w = laser(4, Some(1));
        assert_eq!(difficulty(Band::Tailing, &w, 2), Some(6));
        assert_eq!(difficulty(Band::Short, &w, 2), Some(6));
        assert_eq!(difficulty(Band::Medium, &w, 2), Some(9));
        assert_eq!(difficulty(Band::Long, &w, 2), Some(11));
        assert_eq!(difficulty(Band::Escaped, &w, 2), None);
        let missile = WeaponStats {
            damage: 6,
            sustain: None,
            missile: Some(crate::rules::starship_d12::sheet::MissileStats { to_hit: 5, ammo: 2 }),
        };
        assert_eq!(difficulty(Band::Long, &missile, 2), Some(7));
    }

    /// "After the shot": each S of damage given up adds one to the die; a natural 1
    /// misses, a natural 12 hits.
    #[test]
    fn sustain_buys_the_missing_points_with_damage() {
        let w = laser(5, Some(1));
        // Gunner +3: die 2 is under 3, so a second die (4) is added: total 6, need 9.
        let shot = shoot(
            &mut Scripted::new(&[2, 4]),
            vec![Modifier::new("gunner", 3)],
            9,
            &w,
        );
        assert_eq!(shot.roll.total, 6);
        assert!(shot.hit);
        assert_eq!((shot.sustained, shot.damage), (3, 2));
        // Short by 5 with D 5, S 1: nothing would be left, so it misses.
        let shot = shoot(&mut Scripted::new(&[4]), vec![], 9, &w);
        assert!(!shot.hit && shot.damage == 0);
        // A natural 1 misses whatever Sustain could buy.
        let shot = shoot(
            &mut Scripted::new(&[1, 12]),
            vec![Modifier::new("gunner", 3)],
            4,
            &w,
        );
        assert!(!shot.hit);
        // A natural 12 hits with full damage whatever the need.
        let shot = shoot(&mut Scripted::new(&[12]), vec![], 30, &laser(5, None));
        assert!(shot.hit && shot.damage == 5);
        // Without an S number there is no Sustain.
        assert_eq!(sustain_to_hit(6, 9, &laser(5, None)), None);
    }

    /// Exact odds, counted by hand: with no bonus the die stands alone; need 7, no
    /// sustain: faces 7 to 12 hit (6 of 12).
    #[test]
    fn exact_hit_chance() {
        let (p, d) = odds(0, 7, &laser(4, None));
        assert!((p - 0.5).abs() < 1e-12, "{p}");
        assert!((d - 2.0).abs() < 1e-12);
        // Bonus 3, need 9: first 12 hits (12 pairs); first 3..11 stands alone: 9..11 hit
        // (3 faces, 36 pairs); first 2 adds a second die: 2+s >= 9 for s >= 7 (6 pairs);
        // first 1 misses. 54 of 144.
        let (p, _) = odds(3, 9, &laser(4, None));
        assert!((p - 54.0 / 144.0).abs() < 1e-12, "{p}");
        // With S 1 and D 4, up to 3 short still hits: first 3..11 need 6+: faces 6..11
        // (6 faces, 72 pairs); first 2: 2+s >= 6 for s >= 4 (9 pairs); 12: 12 pairs. 93.
        let (p, _) = odds(3, 9, &laser(4, Some(1)));
        assert!((p - 93.0 / 144.0).abs() < 1e-12, "{p}");
    }

    /// The odds counted pair by pair, as the rule reads (the reference for [`odds`]).
    fn odds_pair_by_pair(bonus: i32, need: i32, weapon: &WeaponStats) -> (f64, f64) {
        let (mut hits, mut damage) = (0.0, 0.0);
        for first in 1..=12 {
            for second in 1..=12 {
                let total = if first < bonus { first + second } else { first };
                let (hit, d) = match first {
                    12 => (true, weapon.damage),
                    1 => (false, 0),
                    _ => sustain_to_hit(total, need, weapon).map_or((false, 0), |(_, d)| (true, d)),
                };
                if hit {
                    hits += 1.0;
                    damage += f64::from(d);
                }
            }
        }
        (hits / 144.0, damage / 144.0)
    }

    /// The count by runs of totals gives the same bits as the pair-by-pair one.
    #[test]
    fn odds_are_the_pair_by_pair_count() {
        for bonus in -1..=16 {
            for need in -2..=30 {
                for damage in [-1, 0, 1, 2, 3, 5, 9, 13] {
                    let sustains = [None, Some(-1), Some(0), Some(1), Some(2), Some(3), Some(4)];
                    for sustain in sustains {
                        let w = laser(damage, sustain);
                        let (p, d) = odds(bonus, need, &w);
                        let (q, e) = odds_pair_by_pair(bonus, need, &w);
                        assert_eq!((p.to_bits(), d.to_bits()), (q.to_bits(), e.to_bits()));
                    }
                }
            }
        }
    }

    fn ship() -> ShipSheet {
        let sys = |name: &str, facing, hp, build, weapon: Option<WeaponStats>| SystemSpec {
            name: name.into(),
            facing,
            hp,
            build,
            turret: false,
            engine: false,
            weapon,
        };
        ShipSheet::resolve(&ShipStats {
            class: "test".into(),
            defence: 1,
            shields: 2,
            armour: 1,
            systems: vec![
                sys(
                    "laser",
                    ShipFacing::Front,
                    2,
                    Build::Normal,
                    Some(laser(4, Some(1))),
                ),
                sys("sensors", ShipFacing::Front, 2, Build::Normal, None),
                sys("reactor", ShipFacing::Core, 3, Build::Heavy, None),
            ],
            crew: vec![CrewSpec {
                name: "Ann".into(),
                piloting: 3,
                gunnery: 3,
            }],
            edges: vec![],
        })
        .expect("valid")
    }

    /// Damage runs shields, armour, the chosen system, the rest of its side, the core;
    /// more damage once the core is gone destroys the ship.
    #[test]
    fn damage_runs_through_shields_armour_side_and_core() {
        let sheet = ship();
        let mut state = ShipState::new(&sheet);
        let laser = SystemRef {
            facing: ShipFacing::Front,
            index: 0,
        };
        let r = apply_damage(&sheet, &mut state, 4, laser);
        let steps: Vec<(&str, i32)> = r
            .steps
            .iter()
            .map(|s| (s.what.as_str(), s.amount))
            .collect();
        assert_eq!(steps, vec![("shields", 2), ("armour", 1), ("laser", 1)]);
        assert!(r.steps[2].disabled, "a damaged normal system stops working");
        assert_eq!(state.hp, vec![1, 2, 3]);
        // 1 more to the laser, 2 to the sensors, 3 to the reactor: the ship still stands.
        let r = apply_damage(&sheet, &mut state, 6, laser);
        assert!(!r.destroyed);
        assert_eq!(state.hp, vec![0, 0, 0]);
        // Any more damage destroys it.
        let r = apply_damage(&sheet, &mut state, 1, laser);
        assert!(r.destroyed && state.destroyed);
    }

    /// "After the shot": the ship hit chooses the system, and the choice counts the hit's
    /// size. With shields and armour gone: 2 damage goes to the sensors (the laser is
    /// spared); 6 into the reactor (3 HP, alone in the core) would leave 3 with nowhere
    /// to go and destroy the ship, so it goes to the front, which takes 4 before the core;
    /// a laser already out of action (1 of 2 HP) soaks a 1-point hit for nothing.
    #[test]
    fn the_defender_sizes_its_choice_to_the_hit() {
        let sheet = ship();
        let mut state = ShipState::new(&sheet);
        state.shields = 0;
        state.armour = 0;
        let front = |i| SystemRef {
            facing: ShipFacing::Front,
            index: i,
        };
        assert_eq!(defender_choice(&sheet, &state, 2), front(1));
        let big = defender_choice(&sheet, &state, 6);
        assert_eq!(big.facing, ShipFacing::Front);
        let mut after = state.clone();
        assert!(!apply_damage(&sheet, &mut after, 6, big).destroyed);
        state.hp[0] = 1;
        assert_eq!(defender_choice(&sheet, &state, 1), front(0));
    }

    #[test]
    fn the_defender_spares_weapons_and_the_attacker_aims_at_them() {
        let sheet = ship();
        let state = ShipState::new(&sheet);
        assert_eq!(
            defender_choice(&sheet, &state, 4).index,
            1,
            "sensors, not the laser"
        );
        assert_eq!(attacker_choice(&sheet, &state, 4).index, 0, "the laser");
        // A hit that gets through with more than the core has goes to the core.
        let mut hurt = state.clone();
        hurt.shields = 0;
        hurt.armour = 0;
        assert_eq!(attacker_choice(&sheet, &hurt, 9).facing, ShipFacing::Core);
    }
}

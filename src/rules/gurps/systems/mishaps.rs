//! GURPS critical misses and what follows them (gurps-traveller-gm-screen.txt, "CRITICAL
//! MISSES"; gurps-lite-and-socs.txt, "LOST HIT POINTS" for the death checks): dropped and
//! broken weapons, hurting oneself, stumbling, and the death checks of a blow.

use super::*;

pub(super) type Parts<'a> = (
    &'a mut HexPos,
    &'a mut Facing,
    &'a mut Standing,
    &'a mut Fighter,
);

/// Rolls on the critical miss table of weapon `w` and applies the row to the one who
/// fumbled (gurps-traveller-gm-screen.txt, "CRITICAL MISSES", "UNARMED CRITICAL MISSES",
/// "FIREARM CRITICAL MISSES"). Returns true when it stumbles past its foe (moved by the
/// caller, which can see the other fighters).
pub(super) fn mishap(
    rng: &mut BattleRng,
    parts: &mut Parts,
    unit: UnitId,
    w: usize,
    events: &mut Report,
) -> bool {
    let (_, _, standing, f) = parts;
    let Some(spec) = f.sheet.weapons.get(w) else {
        return false;
    };
    let (table, damage_type, ranged, damage) = (
        spec.miss_table(),
        spec.damage_type,
        spec.is_ranged(),
        spec.damage,
    );
    let st_margin = spec.st_margin;
    let mut roll = DiceExpr::d6(3, 0).roll(rng, i32::MIN);
    let mut row = critical_miss(table, roll.total, rng.roll_die(6));
    if row.rerolls(damage_type, ranged) {
        let again = DiceExpr::d6(3, 0).roll(rng, i32::MIN);
        let second = critical_miss(table, again.total, rng.roll_die(6));
        // A resistant weapon breaks only on a second "breaks" and is dropped otherwise; a
        // second roll after "hit yourself" counts whatever it says.
        row = match (row, second) {
            (Mishap::Breaks, Mishap::Breaks) => Mishap::Breaks,
            (Mishap::Breaks, _) => Mishap::Drops,
            (_, other) => other,
        };
        roll = again;
    }
    let row = row.adjusted(damage_type, ranged, st_margin);
    events.log_only(|| BattleEvent::Roll {
        unit,
        purpose: Cow::Borrowed(match table {
            MissTable::Weapon => "critical miss table",
            MissTable::Unarmed => "unarmed critical miss table",
            MissTable::Firearm => "firearm critical miss table",
        }),
        roll,
        result: Cow::Borrowed(row.describe()),
    });
    let mut self_harm: Option<(DiceExpr, bool, DamageType, HitLocation, bool)> = None;
    let mut stumbles = false;
    match row {
        Mishap::Breaks | Mishap::FliesAway => f.weapon_state[w] = WeaponState::Gone,
        Mishap::Unready | Mishap::Drops => f.weapon_state[w] = WeaponState::Unready,
        Mishap::Jams => f.weapon_state[w] = WeaponState::Jammed,
        Mishap::OffBalance | Mishap::GuardDown => f.off_balance = true,
        Mishap::StrainedShoulder => {
            if !f.crippled.contains(&HitLocation::RightArm) {
                f.crippled.push(HitLocation::RightArm);
            }
        }
        Mishap::FallsDown | Mishap::KnockedDown => f.posture = Posture::Lying,
        Mishap::Dud => {}
        Mishap::KnocksSelfOut => {
            **standing = Standing::Unconscious;
            events.write(BattleEvent::StatusChanged {
                unit,
                standing: Standing::Unconscious,
                cause: Cow::Borrowed("knocked itself out (critical miss)"),
            });
        }
        Mishap::HitsSelf { location, half } => {
            self_harm = Some((damage, half, damage_type, location, false));
        }
        Mishap::HitsObject { half } => {
            self_harm = Some((damage, half, damage_type, HitLocation::Hand, false));
        }
        Mishap::CripplesHand => {
            let injury = f.sheet.hp_max / 3 + 1;
            self_harm = Some((
                DiceExpr::d6(0, injury),
                false,
                DamageType::Crushing,
                HitLocation::Hand,
                true,
            ));
        }
        Mishap::PullsMuscle => {
            f.off_balance = true;
            self_harm = Some((
                DiceExpr::d6(1, -3),
                false,
                DamageType::Crushing,
                HitLocation::RightArm,
                true,
            ));
        }
        Mishap::Explodes => {
            f.weapon_state[w] = WeaponState::Gone;
            self_harm = Some((
                damage,
                false,
                DamageType::Crushing,
                HitLocation::Torso,
                false,
            ));
        }
        Mishap::Stumbles => stumbles = true,
        Mishap::Trips => {
            // "Make a DX roll to avoid falling down."
            let dx = Modifier::new("DX", f.sheet.dx);
            keep_feet(rng, f, unit, (dx, 0), "after tripping", events);
        }
    }
    if let Some((dice, half, damage_type, location, ignore_dr)) = self_harm {
        hurt_self(
            rng,
            standing,
            f,
            unit,
            (dice, half, damage_type, location, ignore_dr),
            events,
        );
    }
    stumbles
}

/// Damage a fighter does to itself on a critical miss: rolled, halved if asked, through
/// its own DR (unless ignored) at `location`.
pub(super) fn hurt_self(
    rng: &mut BattleRng,
    standing: &mut Standing,
    f: &mut Fighter,
    unit: UnitId,
    (dice, half, damage_type, location, ignore_dr): (DiceExpr, bool, DamageType, HitLocation, bool),
    events: &mut Report,
) {
    let mut roll = roll_damage(rng, dice, Vec::new(), damage_type);
    if half {
        let halved = roll.total / 2;
        roll.modifiers
            .push(Modifier::new("half damage", halved - roll.total));
        roll.total = halved;
    }
    let dr = if ignore_dr {
        0
    } else {
        f.sheet.dr.at(location)
    };
    let (steps, injury) =
        injury_steps(roll.total, dr, damage_type, false, location, f.sheet.hp_max);
    let hp_before = f.hp;
    let effect = apply_injury(rng, f.sheet.ht, hp_before, injury, f.sheet.hp_max, f.mortal);
    f.hp = effect.hp_after;
    events.write(BattleEvent::Damage {
        attacker: None,
        target: unit,
        roll,
        damage_type: Cow::Borrowed(damage_type.abbrev()),
        steps,
        injury,
        hp_before,
        hp_after: effect.hp_after,
        hp_max: f.sheet.hp_max,
        location: Some(Cow::Borrowed(location.name())),
    });
    let died = effect.died.is_some();
    report_death_checks(effect, standing, f, unit, events);
    if !died && injury > 0 && standing.fighting() {
        wound_effects(rng, f, unit, injury, location, true, events);
    }
}

/// "You stumble forward. Advance 1 hex past your opponent and end the turn facing away
/// from him" (gurps-traveller-gm-screen.txt, "UNARMED CRITICAL MISSES" 7 and 14): to the
/// hex beyond the foe on the line from the fighter, if it is open; facing away from the foe
/// either way.
pub(super) fn stumble_past(
    map: &HexMap,
    units: &mut UnitQuery,
    entity: bevy::ecs::entity::Entity,
    from: Hex,
    foe: Hex,
    events: &mut Report,
    unit: UnitId,
) {
    let beyond = foe + (foe - from);
    let open =
        map.move_cost(beyond).is_some() && !units.iter().any(|u| u.2.0 == beyond && u.4.fighting());
    let Ok((_, _, mut pos, mut facing, _, _, _)) = units.get_mut(entity) else {
        return;
    };
    if open && from.unsigned_distance_to(foe) == 1 {
        pos.0 = beyond;
        events.log_only(|| BattleEvent::Moved {
            unit,
            path: vec![hex_pair(from), hex_pair(beyond)],
            cost: 0,
        });
    }
    if pos.0 != foe {
        facing.0 = foe.main_direction_to(pos.0);
    }
}

/// Logs the rolls against death of an injury and applies their result: death, or a mortal
/// wound that takes the fighter out of the fight (gurps-lite-and-socs.txt, "LOST HIT
/// POINTS" and "INJURY", Mortal Wounds).
pub(super) fn report_death_checks(
    effect: InjuryEffect,
    standing: &mut Standing,
    f: &mut Fighter,
    unit: UnitId,
    events: &mut Report,
) {
    let last = effect.death_checks.len();
    for (i, (k, roll)) in effect.death_checks.into_iter().enumerate() {
        let result = if roll.succeeded() {
            "survives"
        } else if effect.died.is_some() && i + 1 == last {
            "dies"
        } else {
            "mortally wounded"
        };
        events.log_only(|| BattleEvent::Roll {
            unit,
            purpose: Cow::Owned(format!("HT to survive at -{k} x HP")),
            roll,
            result: Cow::Borrowed(result),
        });
    }
    if let Some(cause) = effect.died {
        *standing = Standing::Dead;
        events.write(BattleEvent::StatusChanged {
            unit,
            standing: Standing::Dead,
            cause,
        });
    } else if effect.mortal {
        f.mortal = true;
        if standing.fighting() {
            *standing = Standing::Unconscious;
            events.write(BattleEvent::StatusChanged {
                unit,
                standing: Standing::Unconscious,
                cause: Cow::Borrowed("mortally wounded: failed the roll against death by 1 or 2"),
            });
        }
    }
}

//! How a GURPS hit lands (gurps-lite-and-socs.txt, "HIT LOCATIONS", "INJURY", "LOST HIT
//! POINTS", "KNOCKBACK"; gurps-traveller-gm-screen.txt, "CRITICAL HITS", "CRITICAL HEAD
//! BLOWS"): damage through DR to injury, the wound's effects (shock, major wounds,
//! knockdown, crippling) and the critical tables' results, as events.

use super::*;

/// Who hit whom with what, for [`land_hit`].
#[derive(Clone)]
pub(super) struct LandedHit {
    pub(super) attacker: UnitId,
    pub(super) attacker_entity: bevy::ecs::entity::Entity,
    pub(super) target: UnitId,
    pub(super) target_entity: bevy::ecs::entity::Entity,
    pub(super) damage_type: DamageType,
}

/// One hit landing: injury and the rolls against death, the wound's effects, a critical
/// row's effects, and knockback.
#[allow(clippy::too_many_arguments)]
pub(super) fn land_hit(
    rng: &mut BattleRng,
    map: &HexMap,
    roster: &Roster,
    units: &mut UnitQuery,
    events: &mut Report,
    hit: &LandedHit,
    location: HitLocation,
    (roll, steps, injury): (crate::dice::RollRecord, Vec<Modifier>, i32),
    critical_row: Option<CriticalRow>,
) {
    let target = hit.target;
    let Ok([me, mut foe]) = units.get_many_mut([hit.attacker_entity, hit.target_entity]) else {
        return;
    };
    let basic = roll.total;
    let hp_before = foe.5.hp;
    let effect = apply_injury(
        rng,
        foe.5.sheet.ht,
        hp_before,
        injury,
        foe.5.sheet.hp_max,
        foe.5.mortal,
    );
    foe.5.hp = effect.hp_after;
    events.write(BattleEvent::Damage {
        attacker: Some(hit.attacker),
        target,
        roll,
        damage_type: Cow::Borrowed(hit.damage_type.abbrev()),
        steps,
        injury,
        hp_before,
        hp_after: effect.hp_after,
        hp_max: foe.5.sheet.hp_max,
        location: Some(Cow::Borrowed(location.name())),
    });
    let died = effect.died.is_some();
    report_death_checks(effect, &mut foe.4, &mut foe.5, target, events);
    if !died && injury > 0 && foe.4.fighting() {
        let knockdown = !critical_row.is_some_and(CriticalRow::takes_out);
        wound_effects(rng, &mut foe.5, target, injury, location, knockdown, events);
    }
    // Decision: a critical row's effects need a blow that got through (at least 1
    // injury); the texts do not say what an unhurt victim suffers.
    if let Some(row) = critical_row
        && foe.4.fighting()
        && injury > 0
    {
        critical_effects(row, location, &mut foe.4, &mut foe.5, target, events);
    }
    if causes_knockback(hit.damage_type, injury > 0) {
        let yards = knockback_yards(basic, Some(foe.5.sheet.st), foe.5.sheet.hp_max);
        if yards > 0 {
            let from = me.2.0;
            knock_back(rng, map, roster, units, events, target, from, yards);
        }
    }
}

/// Shock for the next turn; crippling; and on a major wound (or any wound to the head or
/// vitals) the HT roll against knockdown and stun (gurps-lite-and-socs.txt, "INJURY" and
/// "HIT LOCATIONS"), unless `knockdown` is false (a critical row that knocks the victim
/// out or kills it: the roll could change nothing).
#[allow(clippy::too_many_arguments)]
pub(super) fn wound_effects(
    rng: &mut BattleRng,
    f: &mut Fighter,
    unit: UnitId,
    injury: i32,
    location: HitLocation,
    knockdown: bool,
    events: &mut Report,
) {
    let pain = f.sheet.pain_threshold;
    let (factor, cap) = location.shock_factor_and_cap();
    f.pending_shock = shock_after(f.pending_shock, injury, factor, cap, pain);
    let crippled = location.cripples(injury, f.sheet.hp_max) && !f.crippled.contains(&location);
    if crippled {
        f.crippled.push(location);
        let effect = if location.is_leg() {
            f.posture = Posture::Lying;
            "falls and cannot stand"
        } else if location.is_weapon_arm() {
            f.aim = None;
            "drops its weapons"
        } else if location == HitLocation::Eye {
            "is blinded in one eye"
        } else {
            "it is useless"
        };
        events.log_only(|| BattleEvent::Note {
            unit: Some(unit),
            text: format!("{location} crippled: {effect}"),
        });
    }
    let major = crippled || is_major_wound(injury, f.sheet.hp_max);
    if !knockdown || !major && !location.knockdown_on_any_injury() {
        return;
    }
    let modifier = location
        .knockdown_modifier(major)
        .map(|(label, value)| Modifier::new(label, value));
    let roll = success_roll(rng, knockdown_modifiers(f.sheet.ht, modifier, pain));
    let ok = roll.succeeded();
    let dropped = !ok && f.knocked_down();
    let purpose = if major {
        "HT against knockdown (major wound)"
    } else {
        "HT against knockdown (blow to the head or vitals)"
    };
    events.log_only(|| BattleEvent::Roll {
        unit,
        purpose: Cow::Borrowed(purpose),
        roll,
        result: Cow::Borrowed(if ok {
            "keeps its feet"
        } else if dropped {
            "stunned and knocked down, drops what it holds"
        } else {
            "stunned and knocked down"
        }),
    });
}

/// Words for a critical table row in the log.
pub(super) fn describe_critical(row: CriticalRow) -> String {
    match row {
        CriticalRow::Hit(hit) => describe_hit(hit),
        CriticalRow::Head(head) => match head {
            HeadBlow::Killed => "killed instantly".into(),
            HeadBlow::KnockedOut => "knocked out".into(),
            HeadBlow::Blinded => "blinded and stunned: -10 to attacks for the battle".into(),
            HeadBlow::OneEye => "blinded in one eye and stunned: -2 to attacks".into(),
            HeadBlow::OffBalance => "knocked off balance: can only defend next turn".into(),
            HeadBlow::Normal => "normal head-blow damage".into(),
            HeadBlow::Scar(n) => format!("a scar: cutting or impaling does only {n} injury"),
            HeadBlow::DropWeapon => "flinches and drops its weapon".into(),
            HeadBlow::Stunned => "stunned".into(),
        },
    }
}

pub(super) fn describe_hit(hit: CriticalHit) -> String {
    let mut parts = Vec::new();
    match hit.times {
        Times::Normal => {}
        Times::Double => parts.push("double damage"),
        Times::Triple => parts.push("triple damage"),
    }
    if hit.ignore_dr {
        parts.push("bypasses all armor");
    }
    if hit.knockout {
        parts.push("knocked out");
    }
    if hit.stun {
        parts.push("stunned");
    }
    match hit.cripple {
        Some(true) => parts.push("the limb is numbed (crippled for 6 turns)"),
        Some(false) => parts.push("the limb is crippled"),
        None => {}
    }
    if hit.drop_weapon {
        parts.push("drops its weapon");
    }
    if parts.is_empty() {
        "normal damage".into()
    } else {
        parts.join(", ")
    }
}

/// Turns of a "funny-bone" crippling (decision, see [`super::criticals`]).
pub(super) const NUMB_TURNS: u8 = 6;

/// What a critical hit or head blow does besides damage, to a victim still in the fight.
pub(super) fn critical_effects(
    row: CriticalRow,
    location: HitLocation,
    standing: &mut Standing,
    f: &mut Fighter,
    unit: UnitId,
    events: &mut Report,
) {
    let mut knocked_out = false;
    let mut dead = false;
    match row {
        CriticalRow::Hit(hit) => {
            knocked_out = hit.knockout;
            if hit.stun {
                f.stunned = true;
            }
            match hit.cripple {
                Some(true) if !f.crippled.contains(&location) => {
                    f.numb.push((location, NUMB_TURNS));
                    if location.is_leg() {
                        f.posture = Posture::Lying;
                    }
                }
                Some(false) if !f.crippled.contains(&location) => {
                    f.crippled.push(location);
                    if location.is_leg() {
                        f.posture = Posture::Lying;
                    }
                }
                _ => {}
            }
            if hit.drop_weapon {
                drop_weapon(f);
            }
        }
        CriticalRow::Head(head) => match head {
            HeadBlow::Killed => dead = true,
            HeadBlow::KnockedOut => knocked_out = true,
            HeadBlow::Blinded => {
                f.stunned = true;
                f.impairment = Some(("blinded (critical head blow)", -10));
            }
            HeadBlow::OneEye => {
                f.stunned = true;
                f.impairment = Some(("blinded in one eye (critical head blow)", -2));
            }
            HeadBlow::OffBalance => f.lose_turn = true,
            HeadBlow::DropWeapon => drop_weapon(f),
            HeadBlow::Stunned => f.stunned = true,
            HeadBlow::Normal | HeadBlow::Scar(_) => {}
        },
    }
    if dead || knocked_out {
        let new = if dead {
            Standing::Dead
        } else {
            Standing::Unconscious
        };
        *standing = new;
        events.write(BattleEvent::StatusChanged {
            unit,
            standing: new,
            cause: Cow::Borrowed(if dead {
                "critical head blow"
            } else {
                "knocked out by a critical hit"
            }),
        });
    }
}

/// The victim lets go of the weapon in hand it would use first (not a punch or a kick:
/// [`Weapon::held`](crate::rules::gurps::sheet::Weapon::held)).
pub(super) fn drop_weapon(f: &mut Fighter) {
    if let Some(i) = (0..f.weapon_state.len()).find(|&i| f.ready(i) && f.sheet.weapons[i].held()) {
        f.weapon_state[i] = WeaponState::Unready;
    }
}

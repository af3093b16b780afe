//! The parts of a GURPS turn that the resolve system calls on the way (gurps-lite-and-socs.txt,
//! "MANEUVERS", "ATTACK/DEFENSE OPTIONS", "GROUP COMBAT", "LOST FATIGUE POINTS";
//! gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS"): retreats, fatigue paid for
//! extra effort, acting while hurt, moving past waiting foes, disarms, shots that miss
//! into another figure, group attacks and the report of an attack.

use super::*;

/// The hex the fighter `defender` could retreat to from the melee attacker `attacker`
/// ([`combat::retreat_hex`](crate::rules::gurps::combat::retreat_hex) with the fighters in the query).
pub(super) fn retreat_hex(
    map: &HexMap,
    units: &UnitQuery,
    attacker: bevy::ecs::entity::Entity,
    defender: bevy::ecs::entity::Entity,
) -> Option<Hex> {
    let from = units.get(attacker).ok()?.2.0;
    let at = units.get(defender).ok()?.2.0;
    // Only the fighters next to the defender can stand where it would retreat to.
    let near: Vec<Hex> = (units.iter())
        .filter(|u| u.4.fighting() && u.2.0.unsigned_distance_to(at) == 1)
        .map(|u| u.2.0)
        .collect();
    crate::rules::gurps::combat::retreat_hex(map, from, at, |n| near.contains(&n))
}

/// Pays `fp` fatigue for extra effort (gurps-lite-and-socs.txt, "LOST FATIGUE POINTS": at 0
/// FP or less each FP lost costs 1 HP too; at −1×FP the fighter falls unconscious). Returns
/// false if the fighter is out of the fight afterwards.
pub(super) fn pay_fatigue(
    rng: &mut BattleRng,
    units: &mut UnitQuery,
    entity: bevy::ecs::entity::Entity,
    unit: UnitId,
    (fp, what): (i32, &str),
    events: &mut Report,
) -> bool {
    let Ok((_, _, _, _, mut standing, mut f, _)) = units.get_mut(entity) else {
        return false;
    };
    let before = f.fp;
    let spent = spend_fatigue(f.fp, f.sheet.fp_max, fp);
    f.fp = spent.fp_after;
    events.log_only(|| {
        let mut text = format!(
            "spends {fp} FP on {what}: FP {before} -> {} of {}",
            spent.fp_after, f.sheet.fp_max
        );
        if spent.hp_lost > 0 {
            text.push_str(&format!(" and {} HP", spent.hp_lost));
        }
        BattleEvent::Note {
            unit: Some(unit),
            text,
        }
    });
    if spent.hp_lost > 0 {
        let effect = apply_injury(
            rng,
            f.sheet.ht,
            f.hp,
            spent.hp_lost,
            f.sheet.hp_max,
            f.mortal,
        );
        f.hp = effect.hp_after;
        report_death_checks(effect, &mut standing, &mut f, unit, events);
    }
    if spent.unconscious && standing.fighting() {
        *standing = Standing::Unconscious;
        events.write(BattleEvent::StatusChanged {
            unit,
            standing: Standing::Unconscious,
            cause: Cow::Borrowed("fatigue reached -1 x FP"),
        });
    }
    standing.fighting()
}

/// 1 HP of injury to an arm or a leg, no DR: the price of a critical failure with extra
/// effort (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS").
pub(super) fn strain(
    rng: &mut BattleRng,
    standing: &mut Standing,
    f: &mut Fighter,
    unit: UnitId,
    events: &mut Report,
) {
    let location = if rng.roll_die(2) == 1 {
        HitLocation::LeftArm
    } else {
        HitLocation::LeftLeg
    };
    events.log_only(|| BattleEvent::Note {
        unit: Some(unit),
        text: "critical failure with extra effort: a strained limb".into(),
    });
    hurt_self(
        rng,
        standing,
        f,
        unit,
        (
            DiceExpr::d6(0, 1),
            false,
            DamageType::Crushing,
            location,
            true,
        ),
        events,
    );
}

/// Fighters standing on the hex line strictly between an attacker and its target
/// ([`combat::figures_on_line`](crate::rules::gurps::combat::figures_on_line) with the
/// fighters in the query).
pub(super) fn figures_between(
    map: &HexMap,
    units: &UnitQuery,
    attacker: bevy::ecs::entity::Entity,
    target: bevy::ecs::entity::Entity,
) -> u32 {
    let (Ok(a), Ok(t)) = (units.get(attacker), units.get(target)) else {
        return 0;
    };
    crate::rules::gurps::combat::figures_on_line(map, a.2.0, t.2.0, &fighting_hexes(units))
}

/// Where the fighters still in the fight stand.
fn fighting_hexes(units: &UnitQuery) -> Vec<Hex> {
    units
        .iter()
        .filter(|u| u.4.fighting())
        .map(|u| u.2.0)
        .collect()
}

/// A roll a fighter must make to act at all, with its words for the log.
pub(super) struct ActingCheck {
    pub(super) purpose: &'static str,
    pub(super) words: (&'static str, &'static str),
    pub(super) cause: &'static str,
}

impl ActingCheck {
    /// Logs the roll; on a failure the fighter drops out of the fight. True if it acts.
    pub(super) fn passes(
        &self,
        roll: crate::dice::RollRecord,
        standing: &mut Standing,
        unit: UnitId,
        events: &mut Report,
    ) -> bool {
        let ok = roll.succeeded();
        events.log_only(|| BattleEvent::Roll {
            unit,
            purpose: Cow::Borrowed(self.purpose),
            roll,
            result: Cow::Borrowed(if ok { self.words.0 } else { self.words.1 }),
        });
        if !ok {
            *standing = Standing::Unconscious;
            events.write(BattleEvent::StatusChanged {
                unit,
                standing: Standing::Unconscious,
                cause: Cow::Borrowed(self.cause),
            });
        }
        ok
    }
}

/// Walks `plan`'s path hex by hex while foes are on Wait: the first waiting foe whose
/// weapon can reach the mover (melee) or see and reach it (ranged) attacks at once, with an
/// Attack maneuver (gurps-lite-and-socs.txt, "WAIT"; a ranged one is opportunity fire at −8,
/// gurps-traveller-gm-screen.txt). The mover goes on if it is still fighting, on its feet
/// and where it was; otherwise its move ends there. Returns true if the whole path was
/// walked.
#[allow(clippy::too_many_arguments)]
pub(super) fn move_past_waiters(
    rng: &mut BattleRng,
    map: &HexMap,
    rules: &GurpsRules,
    roster: &Roster,
    units: &mut UnitQuery,
    events: &mut Report,
    mover: UnitId,
    plan: &Plan,
) -> bool {
    let Some(entity) = roster.entity(mover) else {
        return false;
    };
    let path = &plan.path;
    let mut walked_from = 0;
    for i in 1..path.len() {
        let here = path[i];
        let Ok(mut me) = units.get_mut(entity) else {
            return false;
        };
        me.2.0 = here;
        if let Some(dir) = path[i - 1].neighbor_direction(here) {
            me.3.0 = dir;
        }
        let side = me.1.0;
        let mut trigger: Option<(UnitId, usize, bool, Hex)> = None;
        for u in units.iter() {
            if u.1.0 == side || !u.4.fighting() {
                continue;
            }
            let Some(w) = u.5.waiting.map(usize::from) else {
                continue;
            };
            if !u.5.can_use(w) || trigger.is_some_and(|t| t.0 < *u.0) {
                continue;
            }
            let Some(weapon) = u.5.sheet.weapons.get(w) else {
                continue;
            };
            let hexes = u.2.0.unsigned_distance_to(here);
            let in_reach = match weapon.mode {
                WeaponMode::Melee {
                    reach_min,
                    reach_max,
                    ..
                } => (reach_min..=reach_max).contains(&hexes),
                WeaponMode::Ranged { max, .. } => {
                    f64::from(hexes) * f64::from(map.scale) <= f64::from(max)
                        && map.line_of_sight(u.2.0, here)
                }
            };
            if in_reach {
                trigger = Some((*u.0, w, weapon.is_ranged(), u.2.0));
            }
        }
        let Some((waiter, w, ranged, at)) = trigger else {
            continue;
        };
        events.log_only(|| BattleEvent::Moved {
            unit: mover,
            path: path[walked_from..=i].iter().map(|&h| hex_pair(h)).collect(),
            cost: 0,
        });
        walked_from = i;
        let Some(waiter_entity) = roster.entity(waiter) else {
            continue;
        };
        let shots = match units.get_mut(waiter_entity) {
            Ok(mut u) => {
                u.5.waiting = None;
                if ranged {
                    u.5.sheet.weapons[w].rof_rcl().0.min(u.5.shots[w]).max(1)
                } else {
                    1
                }
            }
            Err(_) => continue,
        };
        events.log_only(|| BattleEvent::Note {
            unit: Some(waiter),
            text: if ranged {
                "its Wait is triggered: opportunity fire".into()
            } else {
                "its Wait is triggered".into()
            },
        });
        let attack = Plan {
            weapon: Some(w),
            shots,
            opportunity_fire: ranged,
            ..Plan::simple(Maneuver::Attack, at)
        };
        execute(
            rng,
            map,
            rules,
            roster,
            units,
            events,
            waiter,
            &attack,
            Some(mover),
        );
        let still_going = units.get(entity).is_ok_and(|m| {
            m.4.fighting() && m.2.0 == here && m.5.posture == Posture::Standing && !m.5.stunned
        });
        if !still_going {
            return false;
        }
    }
    if walked_from + 1 < path.len() {
        events.log_only(|| BattleEvent::Moved {
            unit: mover,
            path: path[walked_from..].iter().map(|&h| hex_pair(h)).collect(),
            cost: if walked_from == 0 { plan.cost } else { 0 },
        });
    }
    true
}

/// A disarm that hit: a Quick Contest of the attacker's weapon skill against the skill
/// with the weapon the foe holds; if the attacker wins, the weapon is knocked from its hand
/// (decision: 4e Basic Set p. B401; the quick reference refers to it without the rule).
pub(super) fn disarm_contest(
    rng: &mut BattleRng,
    me: &Fighter,
    foe: &mut Fighter,
    unit: UnitId,
    target: UnitId,
    w: usize,
    events: &mut Report,
) {
    let Some(held) =
        (0..foe.sheet.weapons.len()).find(|&i| foe.ready(i) && foe.sheet.weapons[i].held())
    else {
        return;
    };
    let mine = &me.sheet.weapons[w];
    let theirs = &foe.sheet.weapons[held];
    let a = success_roll(
        rng,
        vec![Modifier::named(mine.skill_name.clone(), mine.skill)],
    );
    let b = success_roll(
        rng,
        vec![Modifier::named(theirs.skill_name.clone(), theirs.skill)],
    );
    let won = quick_contest_margin(&a, &b) > 0;
    events.log_only(|| BattleEvent::Roll {
        unit,
        purpose: Cow::Borrowed("disarm (Quick Contest)"),
        roll: a,
        result: Cow::Borrowed(if won { "wins" } else { "does not win" }),
    });
    events.log_only(|| BattleEvent::Roll {
        unit: target,
        purpose: Cow::Owned(format!("to keep hold of {}", theirs.name)),
        roll: b,
        result: Cow::Borrowed(if won {
            "the weapon is knocked away"
        } else {
            "keeps it"
        }),
    });
    if won {
        foe.weapon_state[held] = WeaponState::Unready;
    }
}

/// Who a missed shot may hit instead: the first fighter standing between shooter and
/// target, else a fighter beside the target (in close combat with it), the lowest unit id
/// first.
pub(super) fn wrong_target(
    map: &HexMap,
    units: &UnitQuery,
    shooter: bevy::ecs::entity::Entity,
    target: bevy::ecs::entity::Entity,
) -> Option<UnitId> {
    let (from, to) = (units.get(shooter).ok()?.2.0, units.get(target).ok()?.2.0);
    let at = |h: Hex| {
        units
            .iter()
            .filter(|u| u.2.0 == h && u.4.fighting())
            .map(|u| *u.0)
            .min()
    };
    if let Some(h) =
        crate::rules::gurps::combat::first_figure_on_line(map, from, to, &fighting_hexes(units))
    {
        return at(h);
    }
    units
        .iter()
        .filter(|u| {
            u.4.fighting() && u.2.0 != to && u.2.0 != from && u.2.0.unsigned_distance_to(to) == 1
        })
        .map(|u| *u.0)
        .min()
}

/// The shooter of a stray shot.
pub(super) struct StrayShot {
    pub(super) attacker: UnitId,
    pub(super) attacker_entity: bevy::ecs::entity::Entity,
    pub(super) weapon: usize,
    pub(super) skill: i32,
    pub(super) random_location: bool,
}

/// A missed shot rolled again against `bystander` (gurps-traveller-gm-screen.txt, "RANGED
/// ATTACK MODIFIERS": rolling to hit the wrong target, normal roll, at most 9). The
/// bystander defends as usual; a hit lands as any other.
pub(super) fn stray_shot(
    rng: &mut BattleRng,
    map: &HexMap,
    roster: &Roster,
    units: &mut UnitQuery,
    events: &mut Report,
    shot: &StrayShot,
    bystander: UnitId,
) {
    let Some(b_entity) = roster.entity(bystander) else {
        return;
    };
    let Ok([me, by]) = units.get_many([shot.attacker_entity, b_entity]) else {
        return;
    };
    let weapon = me.5.sheet.weapons[shot.weapon].clone();
    let yards = f64::from(me.2.0.unsigned_distance_to(by.2.0)) * f64::from(map.scale);
    let half_damage = beyond_half_damage(&weapon, yards);
    let input = StrikeInput {
        attack: vec![Modifier::new(
            "wrong target: the attack roll, at most 9",
            shot.skill.min(9),
        )],
        defenses: defense_options(by.5, true, &[]),
        double_defense: by.5.guard == Guard::DoubleDefense,
        damage: weapon.damage,
        damage_bonus: Vec::new(),
        damage_type: weapon.damage_type,
        half_damage,
        dr: by.5.sheet.dr,
        hp_max: by.5.sheet.hp_max,
        aimed: None,
        random_location: shot.random_location,
        shots: 1,
        recoil: 1,
        chink: false,
        disarm: false,
        extra_damage: Vec::new(),
        stray: true,
    };
    let desperate = reeling(by.5.hp, by.5.sheet.hp_max);
    let outcome = resolve_strike(rng, input, |o| choose_defenses(o, desperate, false));
    report_attack(
        events,
        (shot.attacker, bystander, weapon.name.clone()),
        outcome.roll,
        outcome.defenses,
        outcome.result,
    );
    report_location(
        events,
        shot.attacker,
        outcome.location_roll,
        outcome.location,
    );
    let Some(first) = outcome.damage else {
        return;
    };
    let hit = LandedHit {
        attacker: shot.attacker,
        attacker_entity: shot.attacker_entity,
        target: bystander,
        target_entity: b_entity,
        damage_type: weapon.damage_type,
    };
    land_hit(
        rng,
        map,
        roster,
        units,
        events,
        &hit,
        outcome.location,
        first,
        None,
    );
}

/// A group attack (gurps-lite-and-socs.txt, "GROUP COMBAT"): one roll against the average
/// effective skill of the members striking, plus the group bonus; one hit and one more per
/// 2 points of margin, at most one per attacker; the target defends as against rapid fire
/// (a success avoids one hit plus one per point of margin). Each hit is one attacker's
/// blow, in order; every member who struck has spent its turn for the round.
#[allow(clippy::too_many_arguments)]
pub(super) fn group_attack(
    rng: &mut BattleRng,
    map: &HexMap,
    rules: &GurpsRules,
    roster: &Roster,
    units: &mut UnitQuery,
    events: &mut Report,
    plan: &Plan,
    target: Option<UnitId>,
) {
    let Some(target) = target else { return };
    let Some(target_entity) = roster.entity(target) else {
        return;
    };
    let Ok(foe) = units.get(target_entity) else {
        return;
    };
    let (foe_pos, foe_facing, foe_speed, foe_posture, foe_sm) = (
        foe.2.0,
        foe.3.0,
        foe.5.moved_yards,
        foe.5.posture,
        foe.5.sheet.sm,
    );
    // Units are in UnitId order in the situation the plan was made from, so index = id.
    let members: Vec<(UnitId, usize)> = plan
        .group
        .iter()
        .map(|&(i, w)| (UnitId(i as u32), usize::from(w)))
        .collect();
    let mut skills = Vec::with_capacity(members.len());
    let mut blows = Vec::with_capacity(members.len());
    let mut first_pos = foe_pos;
    for &(id, w) in &members {
        let Some(e) = roster.entity(id) else { continue };
        let Ok(mut u) = units.get_mut(e) else {
            continue;
        };
        u.5.spent = true;
        let weapon = u.5.sheet.weapons[w].clone();
        let situation = group_member_situation(
            map,
            (&u.5, u.2.0),
            &weapon,
            foe_pos,
            (foe_speed, foe_posture, foe_sm),
        );
        skills.push(attack_skill(&weapon, &situation));
        if blows.is_empty() {
            first_pos = u.2.0;
        }
        blows.push((id, e, weapon));
    }
    let n = blows.len();
    if n == 0 {
        return;
    }
    let attack = group_attack_modifiers(&skills, events.quiet);
    let Ok(foe) = units.get(target_entity) else {
        return;
    };
    let first = &blows[0].2;
    let arc = arc_of(foe_pos, foe_facing, first_pos);
    let defenses = group_defenses(foe.5, first, arc, events.quiet);
    let input = StrikeInput {
        attack,
        defenses,
        double_defense: foe.5.guard == Guard::DoubleDefense,
        damage: first.damage,
        damage_bonus: Vec::new(),
        damage_type: first.damage_type,
        half_damage: false,
        dr: foe.5.sheet.dr,
        hp_max: foe.5.sheet.hp_max,
        aimed: None,
        random_location: rules.hit_locations == HitLocations::Random,
        shots: n as u32,
        recoil: 2,
        chink: false,
        disarm: false,
        extra_damage: blows[1..]
            .iter()
            .map(|(_, _, w)| (w.damage, w.damage_type))
            .collect(),
        stray: false,
    };
    let desperate = reeling(foe.5.hp, foe.5.sheet.hp_max);
    let outcome = resolve_strike(rng, input, |o| choose_defenses(o, desperate, false));
    // Parries and blocks against the group count for the repeated-parry penalty as any
    // other ([`crate::rules::gurps::defense::REPEATED_PARRY`]).
    if let Ok(mut foe) = units.get_mut(target_entity) {
        count_defenses(&mut foe.5, &outcome.defense_kinds);
    }
    let label = Label::unless_quiet(events.quiet, || {
        let names: Vec<&str> = blows.iter().map(|(id, _, _)| roster.name(*id)).collect();
        format!("a group attack ({})", names.join(", "))
    });
    report_attack(
        events,
        (blows[0].0, target, label),
        outcome.roll,
        outcome.defenses,
        outcome.result,
    );
    if outcome.result.hit() {
        let (landed, avoided) = outcome.hits;
        events.log_only(|| BattleEvent::Note {
            unit: Some(blows[0].0),
            text: format!("group attack: {landed} of {n} blows land, {avoided} avoided"),
        });
    }
    report_location(events, blows[0].0, outcome.location_roll, outcome.location);
    let Some(first_hit) = outcome.damage else {
        return;
    };
    let critical_row = outcome.critical.as_ref().map(|c| c.1);
    report_critical(events, blows[0].0, outcome.critical);
    let landing = |k: usize| {
        let (id, e, w) = &blows[k.min(n - 1)];
        LandedHit {
            attacker: *id,
            attacker_entity: *e,
            target,
            target_entity,
            damage_type: w.damage_type,
        }
    };
    land_hit(
        rng,
        map,
        roster,
        units,
        events,
        &landing(0),
        outcome.location,
        first_hit,
        critical_row,
    );
    land_extra_hits(rng, map, roster, units, events, outcome.extra_hits, landing);
}

/// Counts the defenses just made (parries by weapon, blocks) towards the repeated-parry
/// and repeated-block penalties until the defender's next turn.
pub(super) fn count_defenses(f: &mut Fighter, kinds: &[DefenseKind]) {
    for kind in kinds {
        match *kind {
            DefenseKind::Parry(i) => {
                if let Some(n) = f.parried.get_mut(usize::from(i)) {
                    *n = n.saturating_add(1);
                }
            }
            DefenseKind::Block => f.blocked = f.blocked.saturating_add(1),
            DefenseKind::Dodge => {}
        }
    }
}

/// Logs the roll on the critical hit (or head blow) table, when there was one.
pub(super) fn report_critical(
    events: &mut Report,
    unit: UnitId,
    critical: Option<(crate::dice::RollRecord, CriticalRow)>,
) {
    if let Some((roll, row)) = critical {
        events.log_only(|| BattleEvent::Roll {
            unit,
            purpose: Cow::Borrowed(match row {
                CriticalRow::Hit(_) => "critical hit table",
                CriticalRow::Head(_) => "critical head blow table",
            }),
            roll,
            result: Cow::Owned(describe_critical(row)),
        });
    }
}

/// Logs an attack: (attacker, target, weapon), the roll, the defense rolls and the result.
pub(super) fn report_attack(
    events: &mut Report,
    (attacker, target, weapon): (UnitId, UnitId, Label),
    roll: crate::dice::RollRecord,
    defenses: Vec<(Label, crate::dice::RollRecord)>,
    result: crate::battle::AttackResult,
) {
    events.write(BattleEvent::Attack {
        attacker,
        target,
        weapon,
        roll,
        defenses: defenses
            .into_iter()
            .map(|(defense, roll)| DefenseRecord { defense, roll })
            .collect(),
        result,
    });
}

/// Logs the roll on the hit location table, when there was one.
pub(super) fn report_location(
    events: &mut Report,
    unit: UnitId,
    roll: Option<crate::dice::RollRecord>,
    location: HitLocation,
) {
    if let Some(roll) = roll {
        events.log_only(|| BattleEvent::Roll {
            unit,
            purpose: Cow::Borrowed("hit location"),
            roll,
            result: Cow::Borrowed(location.name()),
        });
    }
}

/// Lands the further hits of a rapid-fire or group attack in order, each with its location
/// roll, until the target is dead; `who(k)` says whose blow hit `k` (from 1) is.
pub(super) fn land_extra_hits(
    rng: &mut BattleRng,
    map: &HexMap,
    roster: &Roster,
    units: &mut UnitQuery,
    events: &mut Report,
    extra_hits: Vec<ExtraHit>,
    who: impl Fn(usize) -> LandedHit,
) {
    for (k, extra) in extra_hits.into_iter().enumerate() {
        let hit = who(k + 1);
        let dead = roster
            .entity(hit.target)
            .and_then(|e| units.get(e).ok())
            .is_some_and(|u| *u.4 == Standing::Dead);
        if dead {
            break;
        }
        report_location(events, hit.attacker, extra.location_roll, extra.location);
        land_hit(
            rng,
            map,
            roster,
            units,
            events,
            &hit,
            extra.location,
            extra.damage,
            None,
        );
    }
}

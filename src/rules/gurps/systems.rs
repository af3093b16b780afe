//! The thin GURPS systems: begin a fighter's turn in initiative order, let the AI decide,
//! and resolve the command by calling the rules functions and writing the events.

use super::GurpsRules;
use super::actions::{Plan, Situation, UnitView, legal_options, plan};
use super::ai::{GurpsAi, choose_defenses};
use super::combat::{
    AttackSituation, StrikeInput, apply_injury, attack_modifiers, consciousness_roll,
    defense_options, guard_of, resolve_strike,
};
use super::equipment::WeaponMode;
use super::facing::{Arc, arc_of, side_attack};
use super::injury::{is_major_wound, knockdown_modifiers, shock_after};
use super::knockback::{
    Stop, causes_knockback, keep_feet_modifiers, knockback_path, knockback_yards,
};
use super::location::{HitLocation, HitLocations};
use super::maneuver::{Action, AoaOption, CommitOption, Maneuver};
use super::posture::Posture;
use super::sheet::{Aim, Fighter, Guard};
use crate::battle::{
    AiStyle, Autopilot, BattleEvent, CombatLog, Command, Control, Controller, DefenseRecord,
    Facing, HexPos, Outcome, Policy, Roster, Side, Standing, TurnState, UnitId, hex_pair,
};
use crate::dice::{BattleRng, DieRoller, Modifier, quick_contest_margin, success_roll};
use crate::hexmap::HexMap;
use bevy::ecs::message::{MessageReader, MessageWriter};
use bevy::ecs::prelude::{Query, Res, ResMut};
use hexx::Hex;
use std::borrow::Cow;

type UnitQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static UnitId,
        &'static Side,
        &'static mut HexPos,
        &'static mut Facing,
        &'static mut Standing,
        &'static mut Fighter,
        &'static Controller,
    ),
>;

/// Initiative order: highest Basic Speed first, then highest DX (decision: 4e Basic Set p.
/// B363; the quick reference does not say), remaining ties in a random order drawn from the
/// battle's dice.
pub fn initiative_order(dice: &mut impl DieRoller, units: &mut [(UnitId, i32, i32)]) {
    units.sort_by_key(|&(id, speed, dx)| (-speed, -dx, id));
    let mut start = 0;
    while start < units.len() {
        let key = (units[start].1, units[start].2);
        let mut end = start + 1;
        while end < units.len() && (units[end].1, units[end].2) == key {
            end += 1;
        }
        // Fisher-Yates over the tied group.
        for i in (start + 1..end).rev() {
            let j = start + dice.roll_die((i - start + 1) as u32) as usize - 1;
            units.swap(i, j);
        }
        start = end;
    }
}

/// Starts the next fighter's turn (and a new round when the order runs out).
pub(super) fn begin_turn(
    mut turn: ResMut<TurnState>,
    outcome: Res<Outcome>,
    mut rng: ResMut<BattleRng>,
    roster: Res<Roster>,
    mut units: Query<(&UnitId, &Standing, &mut Fighter)>,
    mut events: MessageWriter<BattleEvent>,
) {
    if outcome.0.is_some() || turn.awaiting.is_some() {
        return;
    }
    if turn.round == 0 {
        let mut order: Vec<(UnitId, i32, i32)> = units
            .iter()
            .map(|(id, _, f)| (*id, f.sheet.speed_quarters, f.sheet.dx))
            .collect();
        initiative_order(&mut *rng, &mut order);
        let names: Vec<String> = order
            .iter()
            .map(|&(id, speed, _)| format!("{} ({})", roster.name(id), f64::from(speed) / 4.0))
            .collect();
        events.write(BattleEvent::Note {
            unit: None,
            text: format!("Initiative by Basic Speed: {}", names.join(", ")),
        });
        turn.order = order.into_iter().map(|(id, _, _)| id).collect();
        turn.phase = "turn";
        turn.cursor = turn.order.len();
    }
    if turn.cursor >= turn.order.len() {
        turn.round += 1;
        turn.cursor = 0;
        turn.round_over = false;
        events.write(BattleEvent::RoundStarted { round: turn.round });
    }
    let fighting = |id: UnitId| {
        roster
            .entity(id)
            .and_then(|e| units.get(e).ok())
            .is_some_and(|(_, s, _)| s.fighting())
    };
    while turn.cursor < turn.order.len() && !fighting(turn.order[turn.cursor]) {
        turn.cursor += 1;
    }
    let Some(&id) = turn.order.get(turn.cursor) else {
        turn.round_over = true;
        return;
    };
    turn.awaiting = Some(id);
    if let Some(mut f) = roster
        .entity(id)
        .and_then(|e| units.get_mut(e).ok())
        .map(|(_, _, f)| f)
    {
        // All-Out Attack and All-Out Defense last until the fighter's next turn; shock
        // from wounds since its last turn applies to this one only.
        f.guard = Guard::Normal;
        f.shock = std::mem::take(&mut f.pending_shock);
        f.feint_on = f.feint_ready.take();
    }
    events.write(BattleEvent::TurnStarted { unit: id });
}

/// Builds the situation for unit `me` from the query, units in [`UnitId`] order.
fn situation<'a>(
    map: &'a HexMap,
    views: &mut Vec<UnitView<'a>>,
    me: UnitId,
) -> Option<Situation<'a>> {
    views.sort_by_key(|v| v.id);
    let me = views.iter().position(|v| v.id == me)?;
    Some(Situation {
        map,
        units: std::mem::take(views),
        me,
    })
}

/// The AI's decision for the fighter whose turn it is, when the AI plays it.
pub(super) fn decide(
    turn: Res<TurnState>,
    autopilot: Res<Autopilot>,
    map: Res<HexMap>,
    units: Query<(&UnitId, &Side, &HexPos, &Standing, &Fighter, &Controller)>,
    mut commands: MessageWriter<Command<Action>>,
) {
    let Some(active) = turn.awaiting else { return };
    let mut style = None;
    let mut views = Vec::with_capacity(units.iter().len());
    for (id, side, pos, standing, fighter, controller) in &units {
        if *id == active {
            style = match controller.0 {
                Control::Ai(style) => Some(style),
                Control::Player if autopilot.0 => Some(AiStyle::Aggressive),
                Control::Player => None,
            };
        }
        views.push(UnitView {
            id: *id,
            side: side.0,
            pos: pos.0,
            standing: *standing,
            fighter,
        });
    }
    let Some(style) = style else { return };
    let Some(s) = situation(&map, &mut views, active) else {
        return;
    };
    let legal = legal_options(&s);
    let action = GurpsAi { style }.choose(&s, &legal);
    commands.write(Command {
        unit: active,
        action,
    });
}

/// Words for an action in the log.
fn describe(s: &Situation, action: &Action, roster: &Roster) -> String {
    let me = s.me().fighter;
    let weapon = action
        .weapon
        .and_then(|w| me.sheet.weapons.get(usize::from(w)))
        .map_or("", |w| &*w.name);
    let target = action.target.map_or("", |t| roster.name(t));
    let mut text = match action.maneuver {
        Maneuver::Aim => format!("Aim {weapon} at {target}"),
        Maneuver::Ready => format!("Ready (reload {weapon})"),
        m if m.attacks() => format!("{m} on {target} with {weapon}"),
        m => m.to_string(),
    };
    if let Some(to) = action.to
        && to != s.me().pos
    {
        text.push_str(&format!(", moving to ({}, {})", to.x, to.y));
    }
    text
}

/// Resolves the command of the fighter whose turn it is.
#[allow(clippy::too_many_arguments)] // a bevy system: each parameter is one world access
pub(super) fn resolve(
    mut turn: ResMut<TurnState>,
    autopilot: Res<Autopilot>,
    mut commands: MessageReader<Command<Action>>,
    map: Res<HexMap>,
    roster: Res<Roster>,
    mut rng: ResMut<BattleRng>,
    mut units: UnitQuery,
    log: Res<CombatLog>,
    rules: Res<GurpsRules>,
    mut events: MessageWriter<BattleEvent>,
) {
    let Some(active) = turn.awaiting else {
        for c in commands.read() {
            events.write(BattleEvent::Rejected {
                unit: c.unit,
                reason: "no turn is in progress".into(),
            });
        }
        return;
    };
    let mut chosen = None;
    for c in commands.read() {
        if c.unit != active {
            events.write(BattleEvent::Rejected {
                unit: c.unit,
                reason: format!("it is {}'s turn", roster.name(active)),
            });
        } else if chosen.is_none() {
            chosen = Some(c.action.clone());
        }
    }
    let Some(action) = chosen else { return };
    let Some(me_entity) = roster.entity(active) else {
        return;
    };
    let ai_played = units
        .get(me_entity)
        .is_ok_and(|u| autopilot.0 || matches!(u.6.0, Control::Ai(_)));

    // Check the command against the rules.
    let checked = {
        let mut views: Vec<UnitView> = units
            .iter()
            .map(|(id, side, pos, _, standing, fighter, _)| UnitView {
                id: *id,
                side: side.0,
                pos: pos.0,
                standing: *standing,
                fighter,
            })
            .collect();
        situation(&map, &mut views, active).map(|s| {
            // Words only when someone will read them (previews keep no log).
            let text = if log.keep {
                describe(&s, &action, &roster)
            } else {
                String::new()
            };
            let result = plan(&s, &action).map(|p| {
                let target = p.target.map(|t| s.units[t].id);
                (p, target)
            });
            (text, result)
        })
    };
    let Some((text, result)) = checked else {
        return;
    };
    let (plan, target) = match result {
        Ok(ok) => {
            events.write(BattleEvent::ActionChosen {
                unit: active,
                action: text,
            });
            ok
        }
        Err(reason) => {
            events.write(BattleEvent::Rejected {
                unit: active,
                reason,
            });
            if !ai_played {
                return; // a player chooses again
            }
            events.write(BattleEvent::ActionChosen {
                unit: active,
                action: "Do Nothing (its command was refused)".into(),
            });
            let pos = units.get(me_entity).map(|u| u.2.0).unwrap_or_default();
            (
                Plan {
                    maneuver: Maneuver::DoNothing,
                    path: vec![pos],
                    cost: 0,
                    target: None,
                    weapon: None,
                    location: None,
                    deceptive: 0,
                    telegraphic: false,
                },
                None,
            )
        }
    };

    execute(
        &mut rng,
        &map,
        *rules,
        &roster,
        &mut units,
        &mut events,
        active,
        &plan,
        target,
    );
    recover_from_stun(&mut rng, &mut units, me_entity, active, &mut events);
    end_turn(&mut turn, &roster, &units);
}

/// At the end of a stunned fighter's turn, the HT roll to act normally again
/// (gurps-lite-and-socs.txt, "INJURY", Stunned).
fn recover_from_stun(
    rng: &mut BattleRng,
    units: &mut UnitQuery,
    entity: bevy::ecs::entity::Entity,
    unit: UnitId,
    events: &mut MessageWriter<BattleEvent>,
) {
    let Ok((_, _, _, _, standing, mut f, _)) = units.get_mut(entity) else {
        return;
    };
    if !f.stunned || !standing.fighting() {
        return;
    }
    let roll = success_roll(rng, vec![Modifier::new("HT", f.sheet.ht)]);
    let ok = roll.succeeded();
    if ok {
        f.stunned = false;
    }
    events.write(BattleEvent::Roll {
        unit,
        purpose: Cow::Borrowed("HT to recover from stun"),
        roll,
        result: Cow::Borrowed(if ok {
            "recovers: acts normally next turn"
        } else {
            "still stunned"
        }),
    });
}

/// Throws `target` back `yards` from a blow struck at `from` along the hex line, stopping
/// at walls, the map's edge and fighters; then the roll to keep its feet
/// (gurps-lite-and-socs.txt, "KNOCKBACK").
#[allow(clippy::too_many_arguments)]
fn knock_back(
    rng: &mut BattleRng,
    map: &HexMap,
    roster: &Roster,
    units: &mut UnitQuery,
    events: &mut MessageWriter<BattleEvent>,
    target: UnitId,
    from: Hex,
    yards: u32,
) {
    let Some(entity) = roster.entity(target) else {
        return;
    };
    let Ok(start) = units.get(entity).map(|u| u.2.0) else {
        return;
    };
    let others: Vec<(UnitId, Hex)> = units
        .iter()
        .filter(|u| *u.0 != target && u.4.fighting())
        .map(|u| (*u.0, u.2.0))
        .collect();
    let hexes = (yards as f32 / map.scale.max(f32::EPSILON)).floor() as u32;
    let mut edge = false;
    let (path, stop) = knockback_path(from, start, hexes, |h| {
        if !map.contains(h) {
            edge = true;
            return Some(Stop::Obstacle);
        }
        if map.move_cost(h).is_none() {
            return Some(Stop::Obstacle);
        }
        others
            .iter()
            .find(|(_, at)| *at == h)
            .map(|&(id, _)| Stop::Unit(id))
    });
    let stopped_by = stop.map(|s| match s {
        Stop::Obstacle if edge => "the edge of the map".to_string(),
        Stop::Obstacle => "a wall".to_string(),
        Stop::Unit(id) => roster.name(id).to_string(),
    });
    events.write(BattleEvent::Knockback {
        unit: target,
        distance: yards,
        path: path.iter().map(|&h| hex_pair(h)).collect(),
        stopped_by,
    });
    let Ok((_, _, mut pos, _, standing, mut f, _)) = units.get_mut(entity) else {
        return;
    };
    pos.0 = *path.last().unwrap_or(&start);
    if !standing.fighting() || f.posture != Posture::Standing {
        return;
    }
    let (label, score) = f.sheet.keep_feet.clone();
    let roll = success_roll(
        rng,
        keep_feet_modifiers(Modifier::named(label, score), yards),
    );
    let ok = roll.succeeded();
    if !ok {
        f.posture = Posture::Lying;
    }
    events.write(BattleEvent::Roll {
        unit: target,
        purpose: Cow::Borrowed("to keep its feet after knockback"),
        roll,
        result: Cow::Borrowed(if ok { "stays up" } else { "falls down" }),
    });
}

/// Moves the turn on to the next fighter still standing; marks the round over when none is
/// left in the order.
fn end_turn(turn: &mut TurnState, roster: &Roster, units: &UnitQuery) {
    turn.awaiting = None;
    turn.cursor += 1;
    while let Some(&id) = turn.order.get(turn.cursor) {
        let fighting = roster
            .entity(id)
            .and_then(|e| units.get(e).ok())
            .is_some_and(|u| u.4.fighting());
        if fighting {
            return;
        }
        turn.cursor += 1;
    }
    turn.round_over = true;
}

#[allow(clippy::too_many_arguments)]
fn execute(
    rng: &mut BattleRng,
    map: &HexMap,
    rules: GurpsRules,
    roster: &Roster,
    units: &mut UnitQuery,
    events: &mut MessageWriter<BattleEvent>,
    active: UnitId,
    plan: &Plan,
    target: Option<UnitId>,
) {
    let Some(me_entity) = roster.entity(active) else {
        return;
    };
    let maneuver = plan.maneuver;

    // At 0 HP or less, any maneuver but Do Nothing needs a HT roll to stay conscious.
    if maneuver != Maneuver::DoNothing
        && let Ok((_, _, _, _, mut standing, f, _)) = units.get_mut(me_entity)
        && let Some(roll) = consciousness_roll(rng, f.sheet.ht, f.hp, f.sheet.hp_max)
    {
        let ok = roll.succeeded();
        events.write(BattleEvent::Roll {
            unit: active,
            purpose: Cow::Borrowed("HT to stay conscious at 0 HP or less"),
            roll,
            result: Cow::Borrowed(if ok { "stays conscious" } else { "passes out" }),
        });
        if !ok {
            *standing = Standing::Unconscious;
            events.write(BattleEvent::StatusChanged {
                unit: active,
                standing: Standing::Unconscious,
                cause: Cow::Borrowed("failed HT roll at 0 HP or less"),
            });
            return;
        }
    }

    // Guard, aim, movement and facing.
    let target_pos = target
        .and_then(|t| roster.entity(t))
        .and_then(|e| units.get(e).ok())
        .map(|u| u.2.0);
    let weapon = plan.weapon;
    let (aim_turns, acc_weapon, evaluated) = {
        let Ok((_, _, mut pos, mut facing, _, mut f, _)) = units.get_mut(me_entity) else {
            return;
        };
        f.guard = guard_of(maneuver, weapon);
        f.ran = maneuver == Maneuver::Move;
        // Evaluate builds up on one foe; anything else uses it up (gurps-lite-and-socs.txt,
        // "EVALUATE": +1 per turn, at most +3).
        let previous_evaluate = f.evaluate.take();
        let evaluated = match (previous_evaluate, target) {
            (Some((t, n)), Some(target)) if t == target => i32::from(n),
            _ => 0,
        };
        if maneuver == Maneuver::Evaluate
            && let Some(t) = target
        {
            f.evaluate = Some((t, (evaluated as u8 + 1).min(3)));
        }
        let previous_aim = f.aim.take();
        let aim_turns = match (previous_aim, target, weapon) {
            (Some(a), Some(t), Some(w)) if a.target == t && usize::from(a.weapon) == w => a.turns,
            _ => 0,
        };
        if maneuver == Maneuver::Aim
            && let (Some(t), Some(w)) = (target, weapon)
        {
            f.aim = Some(Aim {
                target: t,
                weapon: w as u8,
                turns: aim_turns.saturating_add(1),
            });
        }
        if plan.path.len() > 1 {
            let end = plan.end();
            let before = plan.path[plan.path.len() - 2];
            if let Some(dir) = before.neighbor_direction(end) {
                facing.0 = dir;
            }
            pos.0 = end;
            events.write(BattleEvent::Moved {
                unit: active,
                path: plan.path.iter().map(|&h| hex_pair(h)).collect(),
                cost: plan.cost,
            });
        }
        f.moved_yards = ((plan.path.len().saturating_sub(1)) as f32 * map.scale).round() as u32;
        if let Some(tp) = target_pos
            && tp != pos.0
        {
            facing.0 = pos.0.main_direction_to(tp);
        }
        (aim_turns, weapon, evaluated)
    };

    if let Maneuver::ChangePosture(to) = maneuver
        && let Ok((_, _, _, _, _, mut f, _)) = units.get_mut(me_entity)
    {
        f.posture = to;
        return;
    }

    // Ready: one more turn of reloading.
    if maneuver == Maneuver::Ready
        && let Some(w) = acc_weapon
        && let Ok((_, _, _, _, _, mut f, _)) = units.get_mut(me_entity)
    {
        let (name, capacity, reload) = {
            let spec = &f.sheet.weapons[w];
            match spec.mode {
                WeaponMode::Ranged { shots, reload, .. } => (spec.name.clone(), shots, reload),
                WeaponMode::Melee { .. } => return,
            }
        };
        f.reloading[w] += 1;
        let text = if f.reloading[w] >= reload {
            f.reloading[w] = 0;
            f.shots[w] = capacity;
            format!("{name} is loaded ({capacity} shots)")
        } else {
            format!("reloading {name}: {} of {reload} turns", f.reloading[w])
        };
        events.write(BattleEvent::Note {
            unit: Some(active),
            text,
        });
        return;
    }

    let is_feint = matches!(
        maneuver,
        Maneuver::Feint | Maneuver::AllOutAttack(AoaOption::Feint)
    );
    if !maneuver.attacks() && !is_feint {
        return;
    }
    let (Some(target), Some(w)) = (target, weapon) else {
        return;
    };
    let Some(target_entity) = roster.entity(target) else {
        return;
    };

    // A feint: a Quick Contest whose margin comes off the foe's defenses against this
    // attack (All-Out Attack (Feint)) or against the fighter's attacks next turn (Feint).
    let mut feint = 0;
    if is_feint {
        let Ok([mut me, foe]) = units.get_many_mut([me_entity, target_entity]) else {
            return;
        };
        let wpn = &me.5.sheet.weapons[w];
        let mut mods = vec![Modifier::named(wpn.skill_name.clone(), wpn.skill)];
        if evaluated > 0 {
            mods.push(Modifier::new("Evaluate", evaluated));
        }
        mods.extend(me.5.posture.attack_label());
        if me.5.shock > 0 {
            mods.push(Modifier::new("shock", -me.5.shock));
        }
        let mine = success_roll(rng, mods);
        let theirs = success_roll(
            rng,
            vec![Modifier::new(
                "best combat skill or DX",
                foe.5.sheet.feint_resistance(),
            )],
        );
        feint = quick_contest_margin(&mine, &theirs).max(0);
        let next_turn = maneuver == Maneuver::Feint;
        events.write(BattleEvent::Roll {
            unit: active,
            purpose: Cow::Borrowed("Feint (Quick Contest)"),
            roll: mine,
            result: Cow::Owned(if feint > 0 {
                format!("wins by {feint}")
            } else {
                "does not win".to_string()
            }),
        });
        events.write(BattleEvent::Roll {
            unit: target,
            purpose: Cow::Borrowed("resisting the feint"),
            roll: theirs,
            result: Cow::Owned(match (feint, next_turn) {
                (0, _) => "not fooled".to_string(),
                (m, false) => format!("defense -{m} against this attack"),
                (m, true) => format!("defense -{m} against its attacks next turn"),
            }),
        });
        if next_turn {
            me.5.feint_ready = (feint > 0).then_some((target, feint));
            return;
        }
    }
    // A feint won on the last turn counts against attacks on that foe now.
    if let Ok(me) = units.get(me_entity)
        && let Some((t, m)) = me.5.feint_on
        && t == target
    {
        feint = feint.max(m);
    }

    let strikes = if maneuver == Maneuver::AllOutAttack(AoaOption::Double) {
        2
    } else {
        1
    };
    for _ in 0..strikes {
        let Ok([mut me, mut foe]) = units.get_many_mut([me_entity, target_entity]) else {
            return;
        };
        if !foe.4.fighting() {
            break;
        }
        if !me.5.can_use(w) {
            break;
        }
        let sheet = me.5.sheet.clone();
        let weapon = &sheet.weapons[w];
        let ranged = weapon.is_ranged();
        let yards = f64::from(me.2.0.unsigned_distance_to(foe.2.0)) * f64::from(map.scale);
        let situation = AttackSituation {
            maneuver,
            range_yards: yards,
            target_speed: f64::from(foe.5.moved_yards),
            aim_turns,
            cover: if ranged {
                map.cover_between(me.2.0, foe.2.0)
            } else {
                None
            },
            posture: me.5.posture,
            shock: me.5.shock,
            target_posture: foe.5.posture,
            aimed: plan.location,
            one_eye: me.5.one_eye(),
            hexes_moved: plan.path.len().saturating_sub(1) as u32,
            evaluate: evaluated,
            deceptive: i32::from(plan.deceptive),
            telegraphic: plan.telegraphic,
        };
        let mut bonus = Vec::new();
        match maneuver {
            Maneuver::AllOutAttack(AoaOption::Strong) => {
                bonus.push(Modifier::new("All-Out Attack (Strong)", 2));
            }
            Maneuver::CommittedAttack(CommitOption::Strong) => {
                bonus.push(Modifier::new("Committed Attack (Strong)", 1));
            }
            Maneuver::DefensiveAttack => bonus.push(Modifier::new("Defensive Attack", -2)),
            _ => {}
        }
        let mut against = Vec::with_capacity(2);
        let arc = arc_of(foe.2.0, foe.3.0, me.2.0);
        if arc == Arc::Side {
            against.push(side_attack());
        }
        if feint > 0 {
            against.push(Modifier::new("feinted", -feint));
        }
        if !ranged && plan.deceptive > 0 {
            against.push(Modifier::new(
                "Deceptive Attack",
                -i32::from(plan.deceptive),
            ));
        }
        if !ranged && plan.telegraphic {
            against.push(Modifier::new("Telegraphic Attack", 2));
        }
        let half_damage = match weapon.mode {
            WeaponMode::Ranged { half_damage, .. } => yards >= f64::from(half_damage),
            WeaponMode::Melee { .. } => false,
        };
        let input = StrikeInput {
            attack: attack_modifiers(weapon, &situation),
            defenses: if arc == Arc::Back {
                Vec::new()
            } else {
                defense_options(&foe.5, ranged, &against)
            },
            double_defense: foe.5.guard == Guard::DoubleDefense,
            damage: weapon.damage,
            damage_bonus: bonus,
            damage_type: weapon.damage_type,
            half_damage,
            dr: foe.5.sheet.dr,
            hp_max: foe.5.sheet.hp_max,
            aimed: plan.location,
            random_location: rules.hit_locations == HitLocations::Random,
        };
        let outcome = resolve_strike(rng, input, choose_defenses);
        if ranged {
            me.5.shots[w] = me.5.shots[w].saturating_sub(1);
        }
        if !outcome.defenses.is_empty() {
            // Defending spoils aim (gurps-traveller-gm-screen.txt, MANEUVERS: Aim).
            foe.5.aim = None;
        }
        events.write(BattleEvent::Attack {
            attacker: active,
            target,
            weapon: weapon.name.clone(),
            roll: outcome.roll,
            defenses: outcome
                .defenses
                .into_iter()
                .map(|(defense, roll)| DefenseRecord { defense, roll })
                .collect(),
            result: outcome.result,
        });
        let location = outcome.location;
        if outcome.torso_instead && outcome.result.hit() {
            events.write(BattleEvent::Note {
                unit: Some(active),
                text: format!(
                    "missed the {} by 1: the blow lands on the torso",
                    plan.location.unwrap_or_default()
                ),
            });
        }
        if let Some(roll) = outcome.location_roll {
            events.write(BattleEvent::Roll {
                unit: active,
                purpose: Cow::Borrowed("hit location"),
                roll,
                result: Cow::Borrowed(location.name()),
            });
        }
        let Some((roll, steps, injury)) = outcome.damage else {
            continue;
        };
        let basic = roll.total;
        let hp_before = foe.5.hp;
        let effect = apply_injury(rng, foe.5.sheet.ht, hp_before, injury, foe.5.sheet.hp_max);
        foe.5.hp = effect.hp_after;
        events.write(BattleEvent::Damage {
            attacker: Some(active),
            target,
            roll,
            damage_type: Cow::Borrowed(weapon.damage_type.abbrev()),
            steps,
            injury,
            hp_before,
            hp_after: effect.hp_after,
            hp_max: foe.5.sheet.hp_max,
            location: Some(Cow::Borrowed(location.name())),
        });
        for (k, roll) in effect.death_checks {
            let survived = roll.succeeded();
            events.write(BattleEvent::Roll {
                unit: target,
                purpose: Cow::Owned(format!("HT to survive at -{k} x HP")),
                roll,
                result: Cow::Borrowed(if survived { "survives" } else { "dies" }),
            });
        }
        if let Some(cause) = effect.died {
            *foe.4 = Standing::Dead;
            events.write(BattleEvent::StatusChanged {
                unit: target,
                standing: Standing::Dead,
                cause,
            });
        } else if injury > 0 && foe.4.fighting() {
            wound_effects(rng, &mut foe.5, target, injury, location, events);
        }
        if causes_knockback(weapon.damage_type, injury > 0) {
            let yards = knockback_yards(basic, Some(foe.5.sheet.st), foe.5.sheet.hp_max);
            if yards > 0 {
                let from = me.2.0;
                knock_back(rng, map, roster, units, events, target, from, yards);
            }
        }
    }
}

/// Shock for the next turn; crippling; and on a major wound (or any wound to the head or
/// vitals) the HT roll against knockdown and stun (gurps-lite-and-socs.txt, "INJURY" and
/// "HIT LOCATIONS").
fn wound_effects(
    rng: &mut BattleRng,
    f: &mut Fighter,
    unit: UnitId,
    injury: i32,
    location: HitLocation,
    events: &mut MessageWriter<BattleEvent>,
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
        events.write(BattleEvent::Note {
            unit: Some(unit),
            text: format!("{location} crippled: {effect}"),
        });
    }
    let major = crippled || is_major_wound(injury, f.sheet.hp_max);
    if !major && !location.knockdown_on_any_injury() {
        return;
    }
    let modifier = (major && location.knockdown_modifier() != 0).then(|| {
        Modifier::new(
            match location {
                HitLocation::Skull | HitLocation::Eye => "major wound to skull or eye",
                _ => "major wound to face, vitals or groin",
            },
            location.knockdown_modifier(),
        )
    });
    let roll = success_roll(rng, knockdown_modifiers(f.sheet.ht, modifier, pain));
    let ok = roll.succeeded();
    if !ok {
        f.stunned = true;
        f.posture = Posture::Lying;
        f.aim = None;
    }
    let purpose = if major {
        "HT against knockdown (major wound)"
    } else {
        "HT against knockdown (blow to the head or vitals)"
    };
    events.write(BattleEvent::Roll {
        unit,
        purpose: Cow::Borrowed(purpose),
        roll,
        result: Cow::Borrowed(if ok {
            "keeps its feet"
        } else {
            "stunned and knocked down"
        }),
    });
}

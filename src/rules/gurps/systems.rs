//! The thin GURPS systems: begin a fighter's turn in initiative order, let the AI decide,
//! and resolve the command by calling the rules functions and writing the events (in a
//! battle that keeps no log, only those the battle itself reads: see `report`).

use super::actions::{Plan, Situation, UnitView, legal_options, plan};
use super::ai::{GurpsAi, choose_defenses, defender_choice};
use super::combat::{
    CriticalRow, DefenseKind, DefenseStep, ExtraHit, InjuryEffect, MAX_EVALUATE,
    MIN_DECEPTIVE_SKILL, StrikeInput, StrikeMoment, apply_injury, attack_modifiers,
    attack_situation, attack_skill, beyond_half_damage, consciousness_roll, current_move,
    damage_bonus, defense_against, defense_options, defenses_against, group_attack_modifiers,
    group_defenses, group_member_situation, guard_of, injury_steps, reeling, resolve_strike,
    resolve_strike_with, roll_damage,
};
use super::criticals::{
    CriticalHit, HeadBlow, Mishap, MissTable, Times, WeaponState, critical_miss,
};
use super::equipment::WeaponMode;
use super::facing::{arc_of, end_of_move_facing};
use super::fatigue::{spend_fatigue, will_roll_to_act};
use super::injury::{is_major_wound, knockdown_modifiers, shock_after};
use super::knockback::{
    Stop, causes_knockback, keep_feet_modifiers, knockback_path, knockback_yards,
};
use super::location::{HitLocation, HitLocations};
use super::maneuver::{Action, AoaOption, Maneuver};
use super::morale::{MoraleResponse, Reaction, morale_modifiers};
use super::posture::Posture;
use super::sheet::{Aim, Fighter, Guard};
use super::tables::DamageType;
use super::{GurpsRules, MoraleState};
use crate::battle::{
    AiStyle, Autopilot, BattleEvent, CombatLog, Command, Control, Controller, DefenseRecord,
    Facing, HexPos, Outcome, Policy, Roster, Side, Sides, Standing, TurnState, UnitId, hex_pair,
};
use crate::dice::Label;
use crate::dice::{
    BattleRng, Critical, DiceExpr, DieRoller, Modifier, quick_contest_margin, success_roll,
};
use crate::hexmap::HexMap;
use bevy::ecs::message::{MessageReader, MessageWriter};
use bevy::ecs::prelude::{Query, Res, ResMut};
use hexx::Hex;
use std::borrow::Cow;

mod hits;
mod mishaps;
mod report;
mod turn_parts;
use hits::*;
use mishaps::*;
use report::Report;
use turn_parts::*;

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
#[allow(clippy::too_many_arguments)] // a bevy system: each parameter is one world access
pub(super) fn begin_turn(
    mut turn: ResMut<TurnState>,
    outcome: Res<Outcome>,
    mut rng: ResMut<BattleRng>,
    roster: Res<Roster>,
    sides: Res<Sides>,
    map: Res<HexMap>,
    rules: Res<GurpsRules>,
    mut morale: ResMut<MoraleState>,
    mut units: Query<(&UnitId, &mut Standing, &mut Fighter, &HexPos)>,
    log: Res<CombatLog>,
    mut writer: MessageWriter<BattleEvent>,
) {
    if outcome.0.is_some() || turn.awaiting.is_some() {
        return;
    }
    let events = &mut Report::new(&mut writer, log.keep);
    if turn.round == 0 {
        let mut order: Vec<(UnitId, i32, i32)> = units
            .iter()
            .map(|(id, _, f, _)| (*id, f.sheet.speed_quarters, f.sheet.dx))
            .collect();
        initiative_order(&mut *rng, &mut order);
        events.log_only(|| {
            let names: Vec<String> = order
                .iter()
                .map(|&(id, speed, _)| format!("{} ({})", roster.name(id), f64::from(speed) / 4.0))
                .collect();
            BattleEvent::Note {
                unit: None,
                text: format!("Initiative by Basic Speed: {}", names.join(", ")),
            }
        });
        turn.order = order.into_iter().map(|(id, _, _)| id).collect();
        turn.phase = "turn";
        turn.cursor = turn.order.len();
    }
    if turn.cursor >= turn.order.len() {
        turn.round += 1;
        turn.cursor = 0;
        turn.round_over = false;
        let round = turn.round;
        events.log_only(|| BattleEvent::RoundStarted { round });
        for (_, _, mut f, _) in units.iter_mut() {
            f.spent = false;
        }
        if rules.morale.iter().any(Option::is_some) {
            morale_checks(
                &mut rng,
                &rules,
                &mut morale,
                &roster,
                &sides,
                &mut units,
                events,
            );
        }
    }
    let id = loop {
        while turn.cursor < turn.order.len() {
            // Fighters who joined a group attack this round have had their turn.
            let fighting = roster
                .entity(turn.order[turn.cursor])
                .and_then(|e| units.get(e).ok())
                .is_some_and(|u| u.1.fighting() && !u.2.spent);
            if fighting {
                break;
            }
            turn.cursor += 1;
        }
        let Some(&id) = turn.order.get(turn.cursor) else {
            turn.round_over = true;
            return;
        };
        // A fleeing fighter that has reached the map's edge leaves the battle.
        if let Some(e) = roster.entity(id)
            && let Ok((_, mut standing, f, pos)) = units.get_mut(e)
            && f.fleeing
            && map.is_edge(pos.0)
        {
            *standing = Standing::Escaped;
            events.write(BattleEvent::StatusChanged {
                unit: id,
                standing: Standing::Escaped,
                cause: Cow::Borrowed("fled the field"),
            });
            turn.cursor += 1;
            continue;
        }
        break id;
    };
    turn.awaiting = Some(id);
    if let Some(mut f) = roster
        .entity(id)
        .and_then(|e| units.get_mut(e).ok())
        .map(|u| u.2)
    {
        // All-Out Attack and All-Out Defense last until the fighter's next turn; shock
        // from wounds since its last turn applies to this one only.
        f.guard = Guard::Normal;
        f.shock = std::mem::take(&mut f.pending_shock);
        f.feint_on = f.feint_ready.take();
        f.off_balance = false;
        f.retreated = false;
        f.parried.iter_mut().for_each(|n| *n = 0);
        f.blocked = 0;
        // An unused Wait ends when the fighter's next turn comes.
        f.waiting = None;
        for (_, turns) in f.numb.iter_mut() {
            *turns = turns.saturating_sub(1);
        }
        if f.numb.iter().any(|(_, t)| *t == 0) {
            f.numb.retain(|(_, t)| *t > 0);
            events.log_only(|| BattleEvent::Note {
                unit: Some(id),
                text: "a numbed limb works again".into(),
            });
        }
    }
    events.write(BattleEvent::TurnStarted { unit: id });
}

/// At the start of a round, each side with a morale setting that has lost fighters since
/// its last check makes a morale check: a reaction roll, "Good" or better breaks it
/// (gurps-lite-and-socs.txt, "MORALE CHECKS"; the timing is decided in [`super::morale`]).
fn morale_checks(
    rng: &mut BattleRng,
    rules: &GurpsRules,
    state: &mut MoraleState,
    roster: &Roster,
    sides: &Sides,
    units: &mut Query<(&UnitId, &mut Standing, &mut Fighter, &HexPos)>,
    events: &mut Report,
) {
    for (side, spec) in rules.morale.iter().enumerate() {
        let Some(spec) = spec else { continue };
        if state.broken.get(side).copied().unwrap_or(true) {
            continue;
        }
        let side_of = |id: &UnitId| roster.units.get(id.0 as usize).map_or(u8::MAX, |u| u.side);
        let (mut losses, mut own, mut foes) = (0u32, 0.0, 0.0);
        let mut leader: Option<UnitId> = None;
        for (id, standing, f, _) in units.iter() {
            let mine = usize::from(side_of(id)) == side;
            if standing.fighting() {
                let share = f64::from(f.hp.max(0)) / f64::from(f.sheet.hp_max.max(1));
                if mine {
                    own += share;
                    leader = Some(leader.map_or(*id, |l| l.min(*id)));
                } else {
                    foes += share;
                }
            } else if mine {
                losses += 1;
            }
        }
        let Some(leader) = leader else { continue };
        if losses <= state.losses_seen[side] {
            continue;
        }
        state.losses_seen[side] = losses;
        let mut roll = DiceExpr::d6(3, 0).roll(rng, i32::MIN);
        for m in morale_modifiers(spec, own, foes) {
            roll.total += m.value;
            roll.modifiers.push(m);
        }
        let reaction = Reaction::of(roll.total);
        let breaks = reaction.breaks();
        let side_name = sides.0.get(side).map_or("?", |s| s.name.as_str());
        events.log_only(|| BattleEvent::Roll {
            unit: leader,
            purpose: Cow::Owned(format!("morale check for {side_name} (reaction roll)")),
            roll,
            result: Cow::Owned(match (breaks, spec.response) {
                (false, _) => format!("{}: they fight on", reaction.name()),
                (true, MoraleResponse::Flee) => format!("{}: they break and flee", reaction.name()),
                (true, MoraleResponse::Surrender) => {
                    format!("{}: they break and surrender", reaction.name())
                }
            }),
        });
        if !breaks {
            continue;
        }
        state.broken[side] = true;
        for (id, mut standing, mut f, _) in units.iter_mut() {
            if usize::from(side_of(id)) != side || !standing.fighting() {
                continue;
            }
            match spec.response {
                MoraleResponse::Flee => f.fleeing = true,
                MoraleResponse::Surrender => {
                    *standing = Standing::Surrendered;
                    events.write(BattleEvent::StatusChanged {
                        unit: *id,
                        standing: Standing::Surrendered,
                        cause: Cow::Borrowed("morale broke"),
                    });
                }
            }
        }
    }
}

/// The AI's decision for the fighter whose turn it is, when the AI plays it, with the
/// check of it that resolve then takes ([`CheckedCommand`]).
#[allow(clippy::too_many_arguments)] // a bevy system: each parameter is one world access
pub(super) fn decide(
    turn: Res<TurnState>,
    autopilot: Res<Autopilot>,
    map: Res<HexMap>,
    rules: Res<GurpsRules>,
    roster: Res<Roster>,
    log: Res<CombatLog>,
    mut to_resolve: ResMut<CheckedCommand>,
    units: Query<(
        &UnitId,
        &Side,
        &HexPos,
        &Standing,
        &Fighter,
        &Controller,
        &Facing,
    )>,
    mut commands: MessageWriter<Command<Action>>,
) {
    let Some(active) = turn.awaiting else { return };
    let mut style = None;
    let mut views = Vec::with_capacity(units.iter().len());
    for (id, side, pos, standing, fighter, controller, facing) in &units {
        if *id == active {
            style = match controller.0 {
                Control::Ai(style) => Some(style),
                Control::Player if autopilot.0 => Some(AiStyle::Aggressive),
                Control::Player => None,
            };
        }
        views.push(UnitView::of(
            &roster,
            id,
            (side, pos, standing, fighter, facing),
        ));
    }
    let Some(style) = style else { return };
    let Some(s) = Situation::new(&map, views, active, &rules) else {
        return;
    };
    let legal = legal_options(&s);
    let action = GurpsAi { style }.choose(&s, &legal);
    to_resolve.0 = Some(Checked {
        unit: active,
        action: action.clone(),
        check: check(&s, &action, &roster, log.keep),
    });
    commands.write(Command {
        unit: active,
        action,
    });
}

/// The check of the AI's command of this step, made by decide in the situation the AI
/// chose it in, for resolve to take instead of making that situation and the same check
/// again (every AI command was checked twice a step). Nothing changes the battle between
/// the two systems (the step's sets run one after the other, nothing between Decide and
/// Resolve), so the check is the one resolve would make; resolve uses it only for that
/// unit and that action (any other action, a player's or a replay's, is checked afresh)
/// and empties it every step.
#[derive(bevy::ecs::resource::Resource, Debug, Default)]
pub(super) struct CheckedCommand(Option<Checked>);

/// One [`CheckedCommand`].
#[derive(Debug)]
struct Checked {
    unit: UnitId,
    action: Action,
    check: Check,
}

/// What checking an action gives.
#[derive(Debug, PartialEq)]
struct Check {
    /// The words for the log (empty when no log is kept).
    text: String,
    /// The plan with its target's id, or why the action is refused.
    result: Result<(Plan, Option<UnitId>), String>,
}

/// Checks `action` in `s` ([`plan`]), with words for the log when it is kept (`words`).
fn check(s: &Situation, action: &Action, roster: &Roster, words: bool) -> Check {
    // Words only when someone will read them (previews keep no log).
    let text = if words {
        describe(s, action, roster)
    } else {
        String::new()
    };
    let result = plan(s, action).map(|p| {
        let target = p.target.map(|t| s.units[t].id);
        (p, target)
    });
    Check { text, result }
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
        Maneuver::Ready => match action
            .weapon
            .and_then(|w| me.weapon_state.get(usize::from(w)))
        {
            Some(WeaponState::Unready) => format!("Ready ({weapon} back in hand)"),
            Some(WeaponState::Jammed) => format!("Ready (clear the jam in {weapon})"),
            Some(_) => format!("Ready (reload {weapon})"),
            None if me.can_take_up_shield() => "Ready (take up the shield)".to_string(),
            None => "Ready".to_string(),
        },
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
    mut writer: MessageWriter<BattleEvent>,
    mut from_decide: ResMut<CheckedCommand>,
) {
    let decided = from_decide.0.take();
    let mut refused = Vec::new();
    let chosen = crate::battle::awaited_command(
        turn.awaiting,
        commands.read().cloned(),
        &roster,
        &mut refused,
    );
    writer.write_batch(refused);
    let (Some(active), Some(action)) = (turn.awaiting, chosen) else {
        return;
    };
    let events = &mut Report::new(&mut writer, log.keep);
    let Some(me_entity) = roster.entity(active) else {
        return;
    };
    let ai_played = units
        .get(me_entity)
        .is_ok_and(|u| autopilot.0 || matches!(u.6.0, Control::Ai(_)));

    // Check the command against the rules, unless decide checked this very command.
    let fresh = || {
        // Room for every unit at once (the query's iterator gives no size to collect by).
        let mut views = Vec::with_capacity(units.iter().len());
        views.extend(
            units
                .iter()
                .map(|(id, side, pos, facing, standing, fighter, _)| {
                    UnitView::of(&roster, id, (side, pos, standing, fighter, facing))
                }),
        );
        Situation::new(&map, views, active, &rules).map(|s| check(&s, &action, &roster, log.keep))
    };
    let checked = match decided {
        Some(d) if d.unit == active && d.action == action => {
            // Every debug build (the tests) checks afresh too and compares.
            debug_assert_eq!(fresh().as_ref(), Some(&d.check), "decide's check");
            Some(d.check)
        }
        _ => fresh(),
    };
    let Some(Check { text, result }) = checked else {
        return;
    };
    let (plan, target) = match result {
        Ok(ok) => {
            events.log_only(|| BattleEvent::ActionChosen {
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
            events.log_only(|| BattleEvent::ActionChosen {
                unit: active,
                action: "Do Nothing (its command was refused)".into(),
            });
            let pos = units.get(me_entity).map(|u| u.2.0).unwrap_or_default();
            (Plan::simple(Maneuver::DoNothing, pos), None)
        }
    };

    execute(
        &mut rng, &map, &rules, &roster, &mut units, events, active, &plan, target,
    );
    recover_from_stun(&mut rng, &mut units, me_entity, active, events);
    end_turn(&mut turn, &roster, &units);
}

/// At the end of a stunned fighter's turn, the HT roll to act normally again
/// (gurps-lite-and-socs.txt, "INJURY", Stunned).
fn recover_from_stun(
    rng: &mut BattleRng,
    units: &mut UnitQuery,
    entity: bevy::ecs::entity::Entity,
    unit: UnitId,
    events: &mut Report,
) {
    let Ok((_, _, _, _, standing, mut f, _)) = units.get_mut(entity) else {
        return;
    };
    // A head blow's lost turn is over once the turn is.
    f.lose_turn = false;
    if !f.stunned || !standing.fighting() {
        return;
    }
    let roll = success_roll(rng, vec![Modifier::new("HT", f.sheet.ht)]);
    let ok = roll.succeeded();
    if ok {
        f.stunned = false;
    }
    events.log_only(|| BattleEvent::Roll {
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
    events: &mut Report,
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
    let base = Modifier::named(label, score);
    keep_feet(
        rng,
        &mut f,
        target,
        (base, yards),
        "after knockback",
        events,
    );
}

/// The roll to stay on one's feet against `base` (gurps-lite-and-socs.txt, "KNOCKBACK":
/// −1 per yard of knockback after the first; "MOVE AND ATTACK": −2 until the fighter's next
/// turn); a failure means falling down.
fn keep_feet(
    rng: &mut BattleRng,
    f: &mut Fighter,
    unit: UnitId,
    (base, yards): (Modifier, u32),
    after: &'static str,
    events: &mut Report,
) {
    let mut mods = keep_feet_modifiers(base, yards);
    if f.unsteady() {
        mods.push(Modifier::new("after a Move and Attack", -2));
    }
    let roll = success_roll(rng, mods);
    let ok = roll.succeeded();
    if !ok {
        f.posture = Posture::Lying;
    }
    events.log_only(|| BattleEvent::Roll {
        unit,
        purpose: Cow::Owned(format!("to keep its feet {after}")),
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
    rules: &GurpsRules,
    roster: &Roster,
    units: &mut UnitQuery,
    events: &mut Report,
    active: UnitId,
    plan: &Plan,
    target: Option<UnitId>,
) {
    let Some(me_entity) = roster.entity(active) else {
        return;
    };
    let maneuver = plan.maneuver;

    // At 0 HP or less, any maneuver but Do Nothing needs a HT roll to stay conscious
    // ("LOST HIT POINTS"); at 0 FP or less a Will roll (Will = IQ, see `fatigue`) or the
    // fighter is incapacitated (gurps-lite-and-socs.txt, "LOST FATIGUE POINTS").
    if maneuver != Maneuver::DoNothing
        && let Ok((_, _, _, _, mut standing, f, _)) = units.get_mut(me_entity)
    {
        if let Some(roll) = consciousness_roll(rng, f.sheet.ht, f.hp, f.sheet.hp_max) {
            let check = ActingCheck {
                purpose: "HT to stay conscious at 0 HP or less",
                words: ("stays conscious", "passes out"),
                cause: "failed HT roll at 0 HP or less",
            };
            if !check.passes(roll, &mut standing, active, events) {
                return;
            }
        }
        if will_roll_to_act(f.fp) {
            let roll = success_roll(rng, vec![Modifier::new("Will (IQ)", f.sheet.iq)]);
            let check = ActingCheck {
                purpose: "Will to act at 0 FP or less",
                words: ("pushes on", "collapses"),
                cause: "incapacitated by fatigue",
            };
            if !check.passes(roll, &mut standing, active, events) {
                return;
            }
        }
    }

    // Guard, aim, movement and facing.
    let target_pos = target
        .and_then(|t| roster.entity(t))
        .and_then(|e| units.get(e).ok())
        .map(|u| u.2.0);
    let weapon = plan.weapon;
    // Fighters of other sides on Wait may interrupt this move.
    let my_side = units.get(me_entity).map(|u| u.1.0).unwrap_or(u8::MAX);
    let watched = plan.path.len() > 1
        && units
            .iter()
            .any(|u| u.1.0 != my_side && u.4.fighting() && u.5.waiting.is_some());
    let (moment, acc_weapon) = {
        let Ok((_, _, mut pos, mut facing, _, mut f, _)) = units.get_mut(me_entity) else {
            return;
        };
        // The Aim, Evaluate and won feint this attack uses, as the turn starts.
        let moment = StrikeMoment::before_turn(&f, target, weapon);
        f.guard = guard_of(maneuver, weapon);
        f.last_maneuver = Some(maneuver);
        f.waiting = if maneuver == Maneuver::Wait {
            weapon.map(|w| w as u8)
        } else {
            None
        };
        // Evaluate builds up on one foe; anything else uses it up (gurps-lite-and-socs.txt,
        // "EVALUATE": +1 per turn, at most +3).
        f.evaluate = None;
        if maneuver == Maneuver::Evaluate
            && let Some(t) = target
        {
            f.evaluate = Some((t, (moment.evaluate + 1).min(MAX_EVALUATE) as u8));
        }
        // Aim builds up on one target with one weapon, braced while every turn of it is.
        f.aim = None;
        if maneuver == Maneuver::Aim
            && let (Some(t), Some(w)) = (target, weapon)
        {
            f.aim = Some(Aim {
                target: t,
                weapon: w as u8,
                turns: moment.aim_turns.saturating_add(1),
                braced: (moment.aim_turns == 0 || moment.braced) && plan.brace,
            });
        }
        if plan.path.len() > 1 && !watched {
            let end = plan.end();
            let before = plan.path[plan.path.len() - 2];
            if let Some(dir) = before.neighbor_direction(end) {
                facing.0 = dir;
            }
            pos.0 = end;
            events.log_only(|| BattleEvent::Moved {
                unit: active,
                path: plan.path.iter().map(|&h| hex_pair(h)).collect(),
                cost: plan.cost,
            });
        }
        f.moved_yards = ((plan.path.len().saturating_sub(1)) as f32 * map.scale).round() as u32;
        if let Some(tp) = target_pos
            && tp != pos.0
        {
            let wanted = pos.0.main_direction_to(tp);
            facing.0 = if plan.path.len() > 1 && !watched {
                let move_ = u32::try_from(current_move(&f)).unwrap_or(0);
                end_of_move_facing(facing.0, wanted, plan.cost, move_)
            } else {
                wanted
            };
        }
        (moment, weapon)
    };
    if watched && !move_past_waiters(rng, map, rules, roster, units, events, active, plan) {
        events.log_only(|| BattleEvent::Note {
            unit: Some(active),
            text: "its move is cut short".into(),
        });
        return;
    }
    if watched
        && let Some(tp) = target_pos
        && let Ok(mut me) = units.get_mut(me_entity)
        && tp != me.2.0
    {
        let wanted = me.2.0.main_direction_to(tp);
        let move_ = u32::try_from(current_move(&me.5)).unwrap_or(0);
        me.3.0 = end_of_move_facing(me.3.0, wanted, plan.cost, move_);
    }

    if let Maneuver::ChangePosture(to) = maneuver
        && let Ok((_, _, _, _, _, mut f, _)) = units.get_mut(me_entity)
    {
        f.posture = to;
        return;
    }

    // Ready with no weapon named: take the shield in hand again.
    if maneuver == Maneuver::Ready
        && acc_weapon.is_none()
        && let Ok((_, _, _, _, _, mut f, _)) = units.get_mut(me_entity)
    {
        f.shield_ready = true;
        events.log_only(|| BattleEvent::Note {
            unit: Some(active),
            text: "readies its shield".into(),
        });
        return;
    }

    // Ready: one more turn of reloading.
    if maneuver == Maneuver::Ready
        && let Some(w) = acc_weapon
        && let Ok((_, _, _, _, _, mut f, _)) = units.get_mut(me_entity)
    {
        let name = f.sheet.weapons[w].name.clone();
        match f.weapon_state[w] {
            WeaponState::Unready => {
                f.weapon_state[w] = WeaponState::Ready;
                events.log_only(|| BattleEvent::Note {
                    unit: Some(active),
                    text: format!("{name} is ready again"),
                });
                return;
            }
            WeaponState::Jammed => {
                // Clearing a jam: a skill roll at −4 (gurps-traveller-gm-screen.txt,
                // "FIREARM CRITICAL MISSES" 9-11).
                let wpn = &f.sheet.weapons[w];
                let roll = success_roll(
                    rng,
                    vec![
                        Modifier::named(wpn.skill_name.clone(), wpn.skill),
                        Modifier::new("clearing a jam", -4),
                    ],
                );
                let ok = roll.succeeded();
                if ok {
                    f.weapon_state[w] = WeaponState::Ready;
                }
                events.log_only(|| BattleEvent::Roll {
                    unit: active,
                    purpose: Cow::Borrowed("to clear the jam"),
                    roll,
                    result: Cow::Borrowed(if ok { "cleared" } else { "still jammed" }),
                });
                return;
            }
            WeaponState::Ready | WeaponState::Gone => {}
        }
        let (name, capacity, reload) = {
            let spec = &f.sheet.weapons[w];
            match spec.mode {
                WeaponMode::Ranged { shots, reload, .. } => (spec.name.clone(), shots, reload),
                WeaponMode::Melee { .. } => return,
            }
        };
        f.reloading[w] += 1;
        let loaded = f.reloading[w] >= reload;
        if loaded {
            f.reloading[w] = 0;
            f.shots[w] = capacity;
        }
        let turns = f.reloading[w];
        events.log_only(|| BattleEvent::Note {
            unit: Some(active),
            text: if loaded {
                format!("{name} is loaded ({capacity} shots)")
            } else {
                format!("reloading {name}: {turns} of {reload} turns")
            },
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
        if moment.evaluate > 0 {
            mods.push(Modifier::new("Evaluate", moment.evaluate));
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
        events.log_only(|| BattleEvent::Roll {
            unit: active,
            purpose: Cow::Borrowed("Feint (Quick Contest)"),
            roll: mine,
            result: Cow::Owned(if feint > 0 {
                format!("wins by {feint}")
            } else {
                "does not win".to_string()
            }),
        });
        events.log_only(|| BattleEvent::Roll {
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
    feint = feint.max(moment.feint);

    if !plan.group.is_empty() {
        group_attack(rng, map, rules, roster, units, events, plan, Some(target));
        return;
    }

    // Extra effort is paid up front (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS").
    let fp_cost = plan.effort.fp_cost();
    if fp_cost > 0
        && !pay_fatigue(
            rng,
            units,
            me_entity,
            active,
            (fp_cost, &plan.effort.names()),
            events,
        )
    {
        return;
    }
    // Who is struck with what: twice the same foe for All-Out Attack (Double); a Rapid
    // Strike's two blows, or a Dual-Weapon Attack's two weapons, may go to two foes.
    let dual_same_foe = plan.dual_same_foe(target);
    let first_target = target;
    for strike in plan.strikes() {
        let (w, dual) = (strike.weapon, strike.dual);
        let target = if strike.second_target {
            plan.effort.second_target.unwrap_or(first_target)
        } else {
            first_target
        };
        let Some(target_entity) = roster.entity(target) else {
            break;
        };
        // A retreat is only against melee; only shots pass people in the way.
        let shooting = units
            .get(me_entity)
            .is_ok_and(|u| u.5.sheet.weapons[w].is_ranged());
        let (retreat_to, intervening) = if shooting {
            (None, figures_between(map, units, me_entity, target_entity))
        } else {
            (retreat_hex(map, units, me_entity, target_entity), 0)
        };
        let Ok([mut me, mut foe]) = units.get_many_mut([me_entity, target_entity]) else {
            return;
        };
        if !foe.4.fighting() {
            continue;
        }
        if !me.5.can_use(w) {
            break;
        }
        let sheet = me.5.sheet.clone();
        let weapon = &sheet.weapons[w];
        // A blow after another (All-Out Attack (Double), Rapid Strike) needs its reach
        // still: a foe knocked back or retreated out of it is not struck.
        let hexes = me.2.0.unsigned_distance_to(foe.2.0);
        if !weapon.reaches(hexes) {
            events.log_only(|| BattleEvent::Note {
                unit: Some(active),
                text: format!(
                    "{} is out of the {}'s reach now: the blow is lost",
                    roster.name(target),
                    weapon.name
                ),
            });
            continue;
        }
        let ranged = weapon.is_ranged();
        let yards = f64::from(hexes) * f64::from(map.scale);
        let situation = attack_situation(
            map,
            plan,
            (&me.5, me.2.0),
            (&foe.5, foe.2.0, foe.3.0),
            weapon,
            dual,
            StrikeMoment {
                intervening,
                ..moment
            },
        );
        if !weapon.is_ranged() && situation.deceptive < i32::from(plan.deceptive) {
            events.log_only(|| BattleEvent::Note {
                unit: Some(active),
                text: match situation.deceptive {
                    0 => format!(
                        "Deceptive Attack {} would bring skill below {MIN_DECEPTIVE_SKILL}: \
                         none taken",
                        plan.deceptive
                    ),
                    n => format!(
                        "Deceptive Attack {} would bring skill below {MIN_DECEPTIVE_SKILL}: \
                         {n} taken",
                        plan.deceptive
                    ),
                },
            });
        }
        let bonus = damage_bonus(plan);
        let arc = arc_of(foe.2.0, foe.3.0, me.2.0);
        let against = defense_against(
            plan,
            (ranged, situation.deceptive),
            arc,
            dual_same_foe,
            feint,
        );
        let half_damage = beyond_half_damage(weapon, yards);
        let input = StrikeInput {
            attack: attack_modifiers(weapon, &situation),
            // Worked out by `resolve_strike_with` only when the attack hits.
            defenses: Vec::new(),
            double_defense: foe.5.guard == Guard::DoubleDefense,
            damage: weapon.damage,
            damage_bonus: bonus,
            damage_type: weapon.damage_type,
            half_damage,
            dr: foe.5.sheet.dr,
            hp_max: foe.5.sheet.hp_max,
            aimed: plan.location,
            random_location: rules.hit_locations == HitLocations::Random,
            shots: plan.shots,
            recoil: weapon.rof_rcl().1,
            chink: plan.chink,
            disarm: plan.disarm.is_some(),
            extra_damage: Vec::new(),
            stray: false,
        };
        let mut retreat_move = None;
        let can_retreat = retreat_to.is_some();
        let outcome = resolve_strike_with(
            rng,
            input,
            || {
                defenses_against(
                    &foe.5,
                    weapon,
                    arc,
                    &against,
                    can_retreat,
                    rules.extra_effort,
                    events.quiet,
                )
            },
            |o| defender_choice(&foe.5, o),
        );
        turn_parts::count_defenses(&mut foe.5, &outcome.defense_kinds);
        match outcome.defense_step {
            DefenseStep::Stand => {}
            DefenseStep::Retreat => {
                if let Some(to) = retreat_to {
                    retreat_move = Some((foe.2.0, to));
                    foe.2.0 = to;
                }
                foe.5.retreated = true;
            }
            DefenseStep::Drop => {
                foe.5.posture = Posture::Lying;
                foe.5.retreated = true;
            }
        }
        if ranged {
            me.5.shots[w] = me.5.shots[w].saturating_sub(plan.shots);
        }
        if !outcome.defenses.is_empty() {
            // Defending spoils aim (gurps-traveller-gm-screen.txt, MANEUVERS: Aim).
            foe.5.aim = None;
        }
        // Critical misses, and criticals on defense rolls (gurps-traveller-gm-screen.txt,
        // "CRITICAL SUCCESS AND FAILURE ON DEFENSE ROLLS").
        let mut attacker_fumbles =
            outcome.roll.critical == Some(Critical::Failure) && !outcome.result.hit();
        // A shot that misses may hit someone in the way or beside the target.
        let stray =
            (ranged && outcome.result == crate::battle::AttackResult::Miss && !attacker_fumbles)
                .then(|| outcome.roll.target.unwrap_or(0));
        let effort_fumble = plan.effort.extra() && outcome.roll.critical == Some(Critical::Failure);
        // Only a defense made with extra effort strains on a critical failure.
        let defense_effort_fumbles = outcome
            .defense_efforts
            .iter()
            .zip(&outcome.defenses)
            .filter(|(effort, (_, r))| effort.is_some() && r.critical == Some(Critical::Failure))
            .count();
        let mut defender_fumbles = None;
        let mut defender_falls = false;
        let mut shield_lost = false;
        for (kind, (_, r)) in outcome.defense_kinds.iter().zip(&outcome.defenses) {
            match (r.critical, kind) {
                (Some(Critical::Success), _) if !ranged => attacker_fumbles = true,
                (Some(Critical::Failure), DefenseKind::Dodge) => defender_falls = true,
                (Some(Critical::Failure), DefenseKind::Parry(i)) => {
                    defender_fumbles = Some(usize::from(*i));
                }
                (Some(Critical::Failure), DefenseKind::Block) => shield_lost = true,
                _ => {}
            }
        }
        report_attack(
            events,
            (active, target, weapon.name.clone()),
            outcome.roll,
            outcome.defenses,
            outcome.result,
        );
        if let Some((from, to)) = retreat_move {
            events.log_only(|| BattleEvent::Moved {
                unit: target,
                path: vec![hex_pair(from), hex_pair(to)],
                cost: 0,
            });
        }
        let location = outcome.location;
        if plan.disarm.is_some() && outcome.result.hit() {
            disarm_contest(rng, &me.5, &mut foe.5, active, target, w, events);
        }
        if outcome.torso_instead && outcome.result.hit() {
            events.log_only(|| BattleEvent::Note {
                unit: Some(active),
                text: format!(
                    "missed the {} by 1: the blow lands on the torso",
                    plan.location.unwrap_or_default()
                ),
            });
        }
        report_location(events, active, outcome.location_roll, location);
        let mut stumble = None;
        // "A critical failure on these rolls causes an additional 1 HP of injury to arm or
        // leg, no DR" (gurps-lite-and-socs.txt, the extra-effort options).
        if effort_fumble {
            strain(rng, &mut me.4, &mut me.5, active, events);
        }
        for _ in 0..defense_effort_fumbles {
            strain(rng, &mut foe.4, &mut foe.5, target, events);
        }
        if attacker_fumbles {
            let foe_at = foe.2.0;
            let mut me_parts = (&mut *me.2, &mut *me.3, &mut *me.4, &mut *me.5);
            if mishap(rng, &mut me_parts, active, w, events) {
                stumble = Some((me_entity, me.2.0, foe_at));
            }
        }
        if shield_lost {
            // gurps-traveller-gm-screen.txt, "CRITICAL SUCCESS AND FAILURE ON DEFENSE
            // ROLLS": a critical failure on a block unreadies the shield.
            foe.5.shield_ready = false;
            events.log_only(|| BattleEvent::Note {
                unit: Some(target),
                text: "critical failure on the Block: loses its grip on the shield".into(),
            });
        }
        if defender_falls && foe.5.posture.falls_on_dodge_fumble() {
            foe.5.posture = Posture::Lying;
            events.log_only(|| BattleEvent::Note {
                unit: Some(target),
                text: "critical failure on the Dodge: loses its footing and falls".into(),
            });
        }
        if let Some(i) = defender_fumbles {
            let me_at = me.2.0;
            let mut foe_parts = (&mut *foe.2, &mut *foe.3, &mut *foe.4, &mut *foe.5);
            if mishap(rng, &mut foe_parts, target, i, events) {
                stumble = Some((target_entity, foe.2.0, me_at));
            }
        }
        let critical_row = outcome.critical.as_ref().map(|c| c.1);
        turn_parts::report_critical(events, active, outcome.critical);
        for &effort in outcome.defense_efforts.iter().flatten() {
            pay_fatigue(rng, units, target_entity, target, effort, events);
        }
        if let Some((entity, from, past)) = stumble {
            let who = if entity == me_entity { active } else { target };
            stumble_past(map, units, entity, from, past, events, who);
        }
        if let Some(skill) = stray
            && let Some(bystander) = wrong_target(map, units, me_entity, target_entity)
        {
            let shooter = StrayShot {
                attacker: active,
                attacker_entity: me_entity,
                weapon: w,
                skill,
                random_location: rules.hit_locations == HitLocations::Random,
            };
            stray_shot(rng, map, roster, units, events, &shooter, bystander);
        }
        if plan.shots > 1 && outcome.result.hit() {
            let (landed, avoided) = outcome.hits;
            events.log_only(|| BattleEvent::Note {
                unit: Some(active),
                text: format!(
                    "rapid fire: {landed} of {} shots hit, {avoided} avoided",
                    plan.shots
                ),
            });
        }
        let Some(first) = outcome.damage else {
            continue;
        };
        let hit = LandedHit {
            attacker: active,
            attacker_entity: me_entity,
            target,
            target_entity,
            damage_type: weapon.damage_type,
        };
        land_hit(
            rng,
            map,
            roster,
            units,
            events,
            &hit,
            location,
            first,
            critical_row,
        );
        land_extra_hits(rng, map, roster, units, events, outcome.extra_hits, |_| {
            hit.clone()
        });
    }
}

#[cfg(test)]
mod tests;

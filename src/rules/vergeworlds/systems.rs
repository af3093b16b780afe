//! The thin ECS systems of Vergeworlds: they hand the rules a [`Board`] of the shared
//! [`Fight`] and the characters' components, the dice and the decision, write the events,
//! and mirror standing, position, facing, velocity and altitude onto the entities.

use super::fight::{Action, Board, Fight, Prompt, Step, UnitState, VwUnits};
use super::sheet::VwStats;
use crate::battle::{
    Altitude, AwaitedDecision, BattleEvent, Facing, HexPos, Outcome, Standing, TurnState,
    UnitComponents, UnitId, Velocity,
};
use crate::dice::BattleRng;
use bevy::ecs::entity::Entity;
use bevy::ecs::message::MessageWriter;
use bevy::ecs::prelude::{Commands, Query, Res, ResMut};
use std::borrow::Borrow;

/// The characters' stat blocks and states, for the rules.
type UnitQuery<'w, 's> = UnitComponents<'w, 's, VwStats, UnitState>;

/// Where the map shows the characters, and their standing.
type Places<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static UnitId,
        &'static mut HexPos,
        &'static mut Facing,
        &'static mut Standing,
        Option<&'static Velocity>,
        Option<&'static Altitude>,
    ),
>;

fn mirror(
    fight: &Board<impl Borrow<Fight>, impl VwUnits>,
    places: &mut Places,
    commands: &mut Commands,
) {
    // Where each fighting character stands, by side, read once for every unit's facing.
    let fighters: Vec<(u8, hexx::Hex)> = fight
        .ids()
        .filter(|&x| fight.fighting(x))
        .map(|x| (fight.side(x), fight.state(x).pos))
        .collect();
    for (e, id, mut pos, mut facing, mut st, vel, alt) in places.iter_mut() {
        let Some(s) = fight.units.state_of(*id) else {
            continue;
        };
        let now = s.standing();
        if *st != now {
            *st = now;
        }
        if pos.0 != s.pos {
            pos.0 = s.pos;
        }
        let v = s.vector.map(|v| v.offset()).unwrap_or(hexx::Hex::ZERO);
        if vel.map(|x| x.0) != Some(v) {
            commands.entity(e).insert(Velocity(v));
        }
        let a = s.alt.round() as i32;
        if alt.map(|x| x.0) != Some(a) {
            commands.entity(e).insert(Altitude(a));
        }
        let f = if v != hexx::Hex::ZERO {
            Some(hexx::Hex::ZERO.main_direction_to(v))
        } else {
            let side = fight.side(*id);
            fighters
                .iter()
                .filter(|&&(other, h)| other != side && h != s.pos)
                .map(|&(_, h)| h)
                .min_by_key(|h| (h.unsigned_distance_to(s.pos), h.x, h.y))
                .map(|h| s.pos.main_direction_to(h))
        };
        if let Some(f) = f
            && facing.0 != f
        {
            facing.0 = f;
        }
    }
}

fn sync_turn(fight: &Fight, turn: &mut TurnState) {
    turn.round = fight.round;
    turn.phase = match fight.prompt {
        Some(Prompt::Defend(_)) => "defense",
        Some(Prompt::ManaAttack(_) | Prompt::ManaDefense(_) | Prompt::ManaLimit(_)) => "Mana",
        None if fight.active.is_none() => "round start",
        None => "turn",
    };
    turn.order = fight.order.clone();
    // The unit acting now (a resumed turn is not the last to start).
    turn.cursor = fight
        .active
        .and_then(|a| turn.order.iter().rposition(|&x| x == a))
        .unwrap_or(turn.order.len().saturating_sub(1));
}

/// Starts a round when the last is over and names the unit whose decision is awaited.
#[allow(clippy::too_many_arguments)]
pub(super) fn begin(
    mut turn: ResMut<TurnState>,
    outcome: Res<Outcome>,
    mut fight: ResMut<Fight>,
    mut rng: ResMut<BattleRng>,
    mut units: UnitQuery,
    mut places: Places,
    mut commands: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    if outcome.0.is_some() || turn.awaiting.is_some() {
        return;
    }
    let mut events = Vec::new();
    let mut fight = Board {
        fight: &mut *fight,
        units: units.gather(),
    };
    if turn.round == 0 || turn.round_over {
        turn.round_over = false;
        if turn.round > 0 {
            fight.end_round();
        }
        events.push(BattleEvent::RoundStarted {
            round: fight.round + 1,
        });
        fight.begin_round(&mut *rng, &mut events);
    }
    match fight.advance(&mut *rng, &mut events) {
        Step::Awaiting(id) => turn.awaiting = Some(id),
        Step::RoundOver => turn.round_over = true,
    }
    mirror(&fight, &mut places, &mut commands);
    sync_turn(&fight, &mut turn);
    out.write_batch(events);
}

/// Checks and applies the awaited unit's decision.
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve(
    mut decision: AwaitedDecision<Action>,
    mut fight: ResMut<Fight>,
    mut rng: ResMut<BattleRng>,
    mut units: UnitQuery,
    mut places: Places,
    mut commands: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    let mut events = Vec::new();
    let mut fight = Board {
        fight: &mut *fight,
        units: units.gather(),
    };
    let Some((active, action)) = decision.take(
        |unit, action| fight.check(unit, action),
        |unit| super::ai::choose(&fight, unit),
        &mut events,
    ) else {
        out.write_batch(events);
        return; // a player chooses again
    };
    if fight.check(active, &action).is_err() {
        // The fallback is refused too: end the turn so the battle moves on.
        let end = Action::EndTurn;
        if fight.check(active, &end).is_ok() {
            fight.apply(active, end, &mut *rng, &mut events);
        }
    } else {
        events.push(BattleEvent::ActionChosen {
            unit: active,
            action: fight.describe(active, &action),
        });
        fight.apply(active, action, &mut *rng, &mut events);
    }
    decision.turn.awaiting = None;
    mirror(&fight, &mut places, &mut commands);
    sync_turn(&fight, &mut decision.turn);
    out.write_batch(events);
}

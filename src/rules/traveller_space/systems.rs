//! The thin ECS systems of GURPS Traveller space combat: they hand the [`Space`] the dice,
//! the map and the decision, write its events, mirror standing, position, facing and
//! velocity onto the ship entities, and keep one projectile entity per missile in flight.

use super::Action;
use super::space::{Space, Step};
use crate::battle::{
    AwaitedDecision, BattleEvent, Facing, HexPos, Outcome, Projectile, Standing, TurnState, UnitId,
    Velocity,
};
use crate::dice::BattleRng;
use crate::hexmap::HexMap;
use bevy::ecs::component::Component;
use bevy::ecs::entity::Entity;
use bevy::ecs::message::MessageWriter;
use bevy::ecs::prelude::{Commands, Query, Res, ResMut, With, Without};
use hexx::{EdgeDirection, Hex};

/// A missile in flight, as a projectile entity: its number, target and velocity.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TravellerMissile {
    /// Its number in the battle.
    pub id: u32,
    /// Its target.
    pub target: UnitId,
    /// Its velocity, hexes a turn.
    pub vel: Hex,
}

type Ships<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static UnitId,
        &'static mut HexPos,
        &'static mut Facing,
        &'static mut Standing,
        Option<&'static Velocity>,
    ),
    Without<Projectile>,
>;

type Missiles<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static mut TravellerMissile,
        &'static mut HexPos,
        &'static mut Facing,
    ),
    With<Projectile>,
>;

/// The hex side nearest to the direction of `v` (a ship faces along its velocity).
fn facing_of(v: Hex) -> Option<EdgeDirection> {
    (v != Hex::ZERO).then(|| Hex::ZERO.main_direction_to(v))
}

fn mirror(space: &Space, ships: &mut Ships, missiles: &mut Missiles, commands: &mut Commands) {
    for (e, id, mut pos, mut facing, mut standing, vel) in ships.iter_mut() {
        let Some(st) = space.ships.get(id.0 as usize) else {
            continue;
        };
        let now = st.condition.standing();
        if *standing != now {
            *standing = now;
        }
        if pos.0 != st.pos {
            pos.0 = st.pos;
        }
        if let Some(f) = facing_of(st.vel)
            && facing.0 != f
        {
            facing.0 = f;
        }
        if vel.map(|v| v.0) != Some(st.vel) {
            commands.entity(e).insert(Velocity(st.vel));
        }
    }
    let mut seen = Vec::new();
    for (e, mut m, mut pos, mut facing) in missiles.iter_mut() {
        match space.missiles.iter().find(|x| x.id == m.id) {
            Some(x) => {
                seen.push(x.id);
                if pos.0 != x.hex() {
                    pos.0 = x.hex();
                }
                if m.vel != x.velocity() {
                    m.vel = x.velocity();
                }
                if let Some(f) = facing_of(x.velocity())
                    && facing.0 != f
                {
                    facing.0 = f;
                }
            }
            None => commands.entity(e).despawn(),
        }
    }
    for x in space.missiles.iter().filter(|x| !seen.contains(&x.id)) {
        commands.spawn((
            Projectile,
            TravellerMissile {
                id: x.id,
                target: x.target,
                vel: x.velocity(),
            },
            HexPos(x.hex()),
            Facing(facing_of(x.velocity()).unwrap_or(EdgeDirection::FLAT_NORTH)),
        ));
    }
}

/// What a step of the battle leaves for the turn state: a ship awaited, or the turn over.
fn record_step(step: Step, turn: &mut TurnState) {
    match step {
        Step::Awaiting(u) => turn.awaiting = Some(u),
        Step::RoundOver => turn.round_over = true,
        Step::Continue => {}
    }
}

fn sync_turn(space: &Space, turn: &mut TurnState) {
    turn.round = space.round;
    turn.phase = space.phase.word();
    turn.order = space.ids().filter(|&u| space.fighting(u)).collect();
    turn.cursor = space
        .awaiting()
        .and_then(|a| turn.order.iter().position(|&u| u == a))
        .unwrap_or(0);
}

/// Starts the next turn when the last is over, runs the phases without decisions, and
/// names the ship whose decision is awaited.
#[allow(clippy::too_many_arguments)]
pub(super) fn begin(
    mut turn: ResMut<TurnState>,
    outcome: Res<Outcome>,
    mut space: ResMut<Space>,
    mut rng: ResMut<BattleRng>,
    map: Res<HexMap>,
    mut ships: Ships,
    mut missiles: Missiles,
    mut commands: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    if outcome.0.is_some() || turn.awaiting.is_some() {
        return;
    }
    let mut events = Vec::new();
    if turn.round == 0 || turn.round_over {
        turn.round_over = false;
        events.push(BattleEvent::RoundStarted {
            round: space.round + 1,
        });
        // The detection phase is this step; the maneuver's decisions come next step.
        space.begin_turn(&mut *rng, &mut events);
    } else {
        let step = space.advance(&map, &mut *rng, &mut events);
        record_step(step, &mut turn);
    }
    mirror(&space, &mut ships, &mut missiles, &mut commands);
    sync_turn(&space, &mut turn);
    out.write_batch(events);
}

/// Checks and applies the awaited ship's decision, then runs the battle on to the next
/// decision.
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve(
    mut decision: AwaitedDecision<Action>,
    mut space: ResMut<Space>,
    mut rng: ResMut<BattleRng>,
    map: Res<HexMap>,
    mut ships: Ships,
    mut missiles: Missiles,
    mut commands: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    let mut events = Vec::new();
    let Some((active, action)) = decision.take(
        |unit, action| space.check(unit, action),
        |unit| super::ai::pass(&space, unit),
        &mut events,
    ) else {
        out.write_batch(events);
        return; // a player chooses again
    };
    events.push(BattleEvent::ActionChosen {
        unit: active,
        action: space.describe(active, &action),
    });
    space.apply(active, action, &mut events);
    decision.turn.awaiting = None;
    let step = space.advance(&map, &mut *rng, &mut events);
    record_step(step, &mut decision.turn);
    mirror(&space, &mut ships, &mut missiles, &mut commands);
    sync_turn(&space, &mut decision.turn);
    out.write_batch(events);
}

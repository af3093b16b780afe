//! The thin ECS systems of starship-d12: they hand the [`Fleet`] the dice and the command,
//! write its events, and mirror standing, position and facing onto the ship entities.

use super::fleet::{Action, Fleet, Phase, Step};
use super::place;
use crate::battle::Projectile;
use crate::battle::{
    AwaitedDecision, BattleEvent, Facing, HexPos, Outcome, Standing, TurnState, UnitId, hex_pair,
};
use crate::dice::BattleRng;
use crate::hexmap::HexMap;
use bevy::ecs::entity::Entity;
use bevy::ecs::message::MessageWriter;
use bevy::ecs::prelude::{Commands, Query, Res, ResMut, With};

/// The missiles in flight as projectile entities: one per missile, halfway along the line
/// from its launcher to its target, pointing at the target. They are replaced whenever the
/// fleet changes, and gone once the action round's shots are resolved.
#[derive(bevy::ecs::component::Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Missile {
    /// Who launched it.
    pub from: UnitId,
    /// Its target.
    pub target: UnitId,
}

fn sync_missiles(
    fleet: &Fleet,
    ships: &Ships,
    old: &Query<Entity, With<Projectile>>,
    commands: &mut Commands,
) {
    for e in old {
        commands.entity(e).despawn();
    }
    let at = |id: UnitId| ships.iter().find(|(i, ..)| **i == id).map(|(_, p, ..)| p.0);
    for &(from, target, _) in &fleet.missiles {
        let (Some(a), Some(b)) = (at(from), at(target)) else {
            continue;
        };
        let line: Vec<hexx::Hex> = a.line_to(b).collect();
        let mid = line[line.len() / 2];
        commands.spawn((
            Projectile,
            Missile { from, target },
            HexPos(mid),
            Facing(if mid == b {
                a.main_direction_to(b)
            } else {
                mid.main_direction_to(b)
            }),
        ));
    }
}

type Ships<'w, 's> = Query<
    'w,
    's,
    (
        &'static UnitId,
        &'static mut HexPos,
        &'static mut Facing,
        &'static mut Standing,
    ),
>;

/// Copies standing onto the entities, and moves the ships on the map to fit the bands
/// (each move a `Moved` event of cost 0, so the window animates it).
fn mirror(fleet: &Fleet, map: &HexMap, ships: &mut Ships, events: &mut Vec<BattleEvent>) {
    let mut at = vec![hexx::Hex::ZERO; fleet.ships.len()];
    for (id, pos, _, _) in ships.iter() {
        if let Some(h) = at.get_mut(id.0 as usize) {
            *h = pos.0;
        }
    }
    let placed = place::place(map, fleet, &at);
    let faces = place::facings(fleet, &placed);
    for (id, mut pos, mut facing, mut standing) in ships.iter_mut() {
        let i = id.0 as usize;
        let now = fleet.standing(*id);
        if *standing != now {
            *standing = now;
        }
        if let Some(&to) = placed.get(i)
            && to != pos.0
        {
            events.push(BattleEvent::Moved {
                unit: *id,
                path: pos.0.line_to(to).map(hex_pair).collect(),
                cost: 0,
            });
            pos.0 = to;
        }
        if let Some(Some(f)) = faces.get(i)
            && facing.0 != *f
        {
            facing.0 = *f;
        }
    }
}

fn sync_turn(fleet: &Fleet, turn: &mut TurnState) {
    turn.round = fleet.turn;
    turn.phase = match fleet.phase {
        Phase::Start => "turn over",
        Phase::Range { .. } => "range",
        Phase::Actions { .. } => "actions",
    };
    turn.order = fleet.cursor.order.clone();
    turn.cursor = fleet.cursor.next;
}

/// Starts the next turn when the last is over, moves the turn on, and names the ship
/// whose decision is awaited.
#[allow(clippy::too_many_arguments)]
pub(super) fn begin(
    mut turn: ResMut<TurnState>,
    outcome: Res<Outcome>,
    mut fleet: ResMut<Fleet>,
    mut rng: ResMut<BattleRng>,
    map: Res<HexMap>,
    mut ships: Ships,
    missiles: Query<Entity, With<Projectile>>,
    mut spawner: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    if outcome.0.is_some() || turn.awaiting.is_some() {
        return;
    }
    let mut events = Vec::new();
    if turn.round == 0 || turn.round_over {
        turn.round_over = false;
        events.push(BattleEvent::RoundStarted {
            round: fleet.turn + 1,
        });
        fleet.begin_turn(&mut *rng, &mut events);
    }
    loop {
        match fleet.advance(&mut *rng, &mut events) {
            Step::Awaiting(id) => {
                turn.awaiting = Some(id);
                events.push(BattleEvent::TurnStarted { unit: id });
                break;
            }
            Step::Advanced => {
                if let Phase::Actions { round, .. } = fleet.phase {
                    events.push(BattleEvent::Note {
                        unit: None,
                        text: format!("Action round {round}"),
                    });
                }
            }
            Step::TurnOver => {
                turn.round_over = true;
                break;
            }
        }
    }
    mirror(&fleet, &map, &mut ships, &mut events);
    sync_missiles(&fleet, &ships, &missiles, &mut spawner);
    sync_turn(&fleet, &mut turn);
    out.write_batch(events);
}

/// Checks and applies the awaited ship's command.
pub(super) fn resolve(
    mut decision: AwaitedDecision<Action>,
    mut fleet: ResMut<Fleet>,
    map: Res<HexMap>,
    mut ships: Ships,
    missiles: Query<Entity, With<Projectile>>,
    mut spawner: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    let mut events = Vec::new();
    let Some((active, action)) = decision.take(
        |unit, action| fleet.check(unit, action),
        |_| match fleet.phase {
            Phase::Range { .. } => Action::Hold,
            _ => Action::Pass,
        },
        &mut events,
    ) else {
        out.write_batch(events);
        return; // a player chooses again
    };
    events.push(BattleEvent::ActionChosen {
        unit: active,
        action: fleet.describe(active, &action),
    });
    fleet.apply(active, action, &mut events);
    decision.turn.awaiting = None;
    mirror(&fleet, &map, &mut ships, &mut events);
    sync_missiles(&fleet, &ships, &missiles, &mut spawner);
    sync_turn(&fleet, &mut decision.turn);
    out.write_batch(events);
}

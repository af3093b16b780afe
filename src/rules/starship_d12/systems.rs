//! The thin ECS systems of starship-d12: they hand the turn's functions ([`Fleet`]) the
//! ships' components, the dice and the command, write the events, give each launched
//! missile its entity (from launch to the end of the action round, when it strikes), and
//! mirror standing, position and facing onto the ship entities. When no log is kept (a
//! preview) the fleet is quiet ([`Fleet::quiet`]): events only the log reads are left out.

use super::fleet::{Action, Fleet, Missile, Phase, Ships, Step};
use super::place;
use super::sheet::{ShipSheet, ShipState};
use crate::battle::place::Placer;
use crate::battle::{
    AwaitedDecision, BattleEvent, CombatLog, Facing, HexPos, Homing, Outcome, Projectile, Standing,
    TurnState, UnitComponents, UnitId, hex_pair,
};
use crate::dice::BattleRng;
use crate::hexmap::HexMap;
use bevy::ecs::entity::Entity;
use bevy::ecs::message::MessageWriter;
use bevy::ecs::prelude::{Commands, Query, Res, ResMut, With};

/// The ships' sheets and states, for the turn's functions.
type ShipQuery<'w, 's> = UnitComponents<'w, 's, ShipSheet, ShipState>;

/// Where the map shows the ships, and their standing.
type Places<'w, 's> = Query<
    'w,
    's,
    (
        &'static UnitId,
        &'static mut HexPos,
        &'static mut Facing,
        &'static mut Standing,
    ),
>;

/// Gives a missile just launched its entity: halfway along the line from its launcher to
/// its target, pointing at the target.
fn launch(missile: Missile, places: &Places, commands: &mut Commands) {
    let at = |e: Entity| places.get(e).ok().map(|(_, p, ..)| p.0);
    let (Some(a), Some(b)) = (at(missile.from), at(missile.target)) else {
        return;
    };
    let line: Vec<hexx::Hex> = a.line_to(b).collect();
    let mid = line[line.len() / 2];
    commands.spawn((
        Projectile,
        Homing {
            from: missile.from,
            target: missile.target,
        },
        missile,
        HexPos(mid),
        Facing(if mid == b {
            a.main_direction_to(b)
        } else {
            mid.main_direction_to(b)
        }),
    ));
}

/// Copies standing onto the entities, and moves the ships on the map to fit the bands
/// (each move a `Moved` event of cost 0, so the window animates it). Where the map draws
/// the ships decides nothing in the battle's own turns (ranges are bands, kept by the
/// [`Fleet`]), so when nobody is shown the battle (a preview, which keeps no log:
/// `CombatLog::keep`) only the standing is copied: placing the ships was a third of a
/// preview's work. The GM's place and join do set bands from the map, so a preview that
/// replays them keeps the log while it does (`play::continue_from`).
fn mirror(
    placer: &mut Placer,
    fleet: &Fleet,
    ships: &impl Ships,
    (map, shown): (&HexMap, bool),
    places: &mut Places,
    events: &mut Vec<BattleEvent>,
) {
    if !shown {
        // Read-only first: a standing changes a few times a battle, and most steps change
        // none; a mutable pass would set up change detection for every ship each step.
        if places
            .iter()
            .all(|(id, _, _, standing)| *standing == ships.standing(*id))
        {
            return;
        }
        for (id, _, _, mut standing) in places.iter_mut() {
            let now = ships.standing(*id);
            if *standing != now {
                *standing = now;
            }
        }
        return;
    }
    let mut at = vec![hexx::Hex::ZERO; ships.count()];
    for (id, pos, _, _) in places.iter() {
        if let Some(h) = at.get_mut(id.0 as usize) {
            *h = pos.0;
        }
    }
    let ranges = place::Ranges::of(fleet, ships);
    let placed = place::place(placer, map, &ranges, ships, &at);
    let faces = place::facings(&ranges, ships, &placed);
    for (id, mut pos, mut facing, mut standing) in places.iter_mut() {
        let i = id.0 as usize;
        let now = ships.standing(*id);
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
        Phase::Range => "range",
        Phase::Actions { .. } => "actions",
    };
    turn.order.clone_from(&fleet.cursor.order);
    turn.cursor = fleet.cursor.next;
}

/// Starts the next turn when the last is over, moves the turn on (despawning the missiles
/// of each action round resolved), and names the ship whose decision is awaited.
#[allow(clippy::too_many_arguments)]
pub(super) fn begin(
    mut turn: ResMut<TurnState>,
    outcome: Res<Outcome>,
    mut fleet: ResMut<Fleet>,
    mut rng: ResMut<BattleRng>,
    (map, log): (Res<HexMap>, Res<CombatLog>),
    mut placer: ResMut<Placer>,
    mut ships: ShipQuery,
    mut places: Places,
    missiles: Query<Entity, With<Missile>>,
    mut commands: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    if outcome.0.is_some() || turn.awaiting.is_some() {
        return;
    }
    let mut events = Vec::new();
    let mut ships = ships.gather();
    // Words only when someone will read them (previews keep no log).
    if fleet.quiet == log.keep {
        fleet.quiet = !log.keep;
    }
    if turn.round == 0 || turn.round_over {
        turn.round_over = false;
        events.push(BattleEvent::RoundStarted {
            round: fleet.turn + 1,
        });
        fleet.begin_turn(&mut ships, &mut *rng, &mut events);
    }
    loop {
        let resolving = matches!(fleet.phase, Phase::Actions { .. });
        let step = fleet.advance(&mut ships, &mut *rng, &mut events);
        if resolving && !matches!(step, Step::Awaiting(_)) {
            // The round's shots are resolved: its missiles struck or were lost.
            for e in &missiles {
                commands.entity(e).despawn();
            }
        }
        match step {
            Step::Awaiting(id) => {
                turn.awaiting = Some(id);
                events.push(BattleEvent::TurnStarted { unit: id });
                break;
            }
            Step::Advanced => {
                if let Phase::Actions { round, .. } = fleet.phase
                    && !fleet.quiet
                {
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
    let shown = (&*map, log.keep);
    mirror(&mut placer, &fleet, &ships, shown, &mut places, &mut events);
    sync_turn(&fleet, &mut turn);
    out.write_batch(events);
}

/// Checks and applies the awaited ship's command; a missile launched gets its entity.
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve(
    mut decision: AwaitedDecision<Action>,
    mut fleet: ResMut<Fleet>,
    (map, log): (Res<HexMap>, Res<CombatLog>),
    mut placer: ResMut<Placer>,
    mut ships: ShipQuery,
    mut places: Places,
    mut commands: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    let mut events = Vec::new();
    let mut ships = ships.gather();
    if fleet.quiet == log.keep {
        fleet.quiet = !log.keep;
    }
    let Some((active, action)) = decision.take(
        |unit, action| fleet.check(&ships, unit, action),
        |_| match fleet.phase {
            Phase::Range => Action::Hold,
            _ => Action::Pass,
        },
        &mut events,
    ) else {
        out.write_batch(events);
        return; // a player chooses again
    };
    events.push(BattleEvent::ActionChosen {
        unit: active,
        // Words only when someone will read them (previews keep no log).
        action: if log.keep {
            Fleet::describe(&ships, active, &action)
        } else {
            String::new()
        },
    });
    if let Some(missile) = fleet.apply(&mut ships, active, action, &mut events) {
        launch(missile, &places, &mut commands);
    }
    decision.turn.awaiting = None;
    let shown = (&*map, log.keep);
    mirror(&mut placer, &fleet, &ships, shown, &mut places, &mut events);
    sync_turn(&fleet, &mut decision.turn);
    out.write_batch(events);
}

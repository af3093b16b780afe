//! The thin ECS systems of Vergeworlds: they hand the rules a [`Board`] of the shared
//! [`Fight`] and the characters' components, the dice and the decision, write the events,
//! and mirror standing, position, facing, velocity and altitude onto the entities.

use super::fight::{Action, Board, Fight, Prompt, Step, UnitState, VwUnits};
use super::sheet::VwStats;
use crate::battle::{
    Altitude, AwaitedDecision, BattleEvent, CombatLog, Facing, HexPos, Outcome, Standing,
    TurnState, UnitComponents, UnitId, Velocity,
};
use crate::dice::BattleRng;
use bevy::ecs::entity::Entity;
use bevy::ecs::message::MessageWriter;
use bevy::ecs::prelude::{Commands, Local, Query, Res, ResMut};
use hexx::{EdgeDirection, Hex};
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

/// Which way a character at `at` on side `side` faces when it is not moving: toward the
/// nearest of `fighters` (side and hex of each character still fighting) on another side
/// and in another hex, the lowest coordinates first among the nearest; `None` without one.
pub(super) fn facing_toward_nearest(
    at: Hex,
    side: u8,
    fighters: &[(u8, Hex)],
) -> Option<EdgeDirection> {
    fighters
        .iter()
        .filter(|&&(other, h)| other != side && h != at)
        .map(|&(_, h)| h)
        .min_by_key(|h| (h.unsigned_distance_to(at), h.x, h.y))
        .map(|h| at.main_direction_to(h))
}

/// The way each character faces when it is not moving ([`facing_toward_nearest`]),
/// remembered for the positions, standings and sides it was worked out for: the systems
/// mirror the battle onto the map at every step, most steps move no one, and every
/// character measured against every foe at each step was a fifth of a preview's time.
#[derive(Default)]
pub(super) struct Facings {
    /// By unit id: where it stands (`None`: no state), whether it fights, its side.
    key: Vec<(Option<Hex>, bool, u8)>,
    /// The key being checked, kept to reuse its memory.
    next: Vec<(Option<Hex>, bool, u8)>,
    /// By unit id: the facing worked out for `key`.
    faces: Vec<Option<EdgeDirection>>,
}

impl Facings {
    /// The facings of the characters of `fight` as they stand now, by unit id.
    pub(super) fn of(
        &mut self,
        fight: &Board<impl Borrow<Fight>, impl VwUnits>,
    ) -> &[Option<EdgeDirection>] {
        self.next.clear();
        self.next.extend(fight.ids().map(|u| {
            let s = fight.units.state_of(u);
            (
                s.map(|s| s.pos),
                s.is_some_and(UnitState::in_fight),
                fight.side(u),
            )
        }));
        if self.next != self.key {
            std::mem::swap(&mut self.key, &mut self.next);
            let fighters: Vec<(u8, Hex)> = self
                .key
                .iter()
                .filter_map(|&(at, fighting, side)| Some((side, at.filter(|_| fighting)?)))
                .collect();
            self.faces.clear();
            self.faces.extend(self.key.iter().map(|&(at, _, side)| {
                at.and_then(|at| facing_toward_nearest(at, side, &fighters))
            }));
        }
        &self.faces
    }
}

/// The altitude the map shows for `alt` meters: rounded to the nearest meter (halves away
/// from zero). Most characters stand on the ground, and rounding is a library call on the
/// processors a release build targets: 0 is answered without it.
pub(super) fn shown_altitude(alt: f64) -> i32 {
    if alt == 0.0 { 0 } else { alt.round() as i32 }
}

/// Copies standing onto the entities, and shows each unit on its hex with its vector,
/// altitude and facing. Only the standing decides anything in the battle's own turns
/// (the rules keep position, vector and altitude in the unit's state), so when nobody is
/// shown the battle (a preview, which keeps no log: `CombatLog::keep`) only the standing
/// is copied. The GM's edits read the drawn hex and facing, so a preview that replays
/// them keeps the log while it does (`play::continue_from`).
fn mirror(
    fight: &Board<impl Borrow<Fight>, impl VwUnits>,
    facings: &mut Facings,
    (places, shown): (&mut Places, bool),
    commands: &mut Commands,
) {
    if !shown {
        for (_, id, _, _, mut st, _, _) in places.iter_mut() {
            if let Some(s) = fight.units.state_of(*id) {
                let now = s.standing();
                if *st != now {
                    *st = now;
                }
            }
        }
        return;
    }
    let faces = facings.of(fight);
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
        let v = s.vector.map(|v| v.offset()).unwrap_or(Hex::ZERO);
        if vel.map(|x| x.0) != Some(v) {
            commands.entity(e).insert(Velocity(v));
        }
        let a = shown_altitude(s.alt);
        if alt.map(|x| x.0) != Some(a) {
            commands.entity(e).insert(Altitude(a));
        }
        let f = if v != Hex::ZERO {
            Some(Hex::ZERO.main_direction_to(v))
        } else {
            faces.get(id.0 as usize).copied().flatten()
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
        None if fight.active.is_none() && fight.order.is_empty() => "round start",
        // One turn has ended and the next has not begun (the window shows the battle
        // between steps).
        None if fight.active.is_none() => "between turns",
        None => "turn",
    };
    turn.order.clone_from(&fight.order);
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
    log: Res<CombatLog>,
    mut fight: ResMut<Fight>,
    mut rng: ResMut<BattleRng>,
    mut units: UnitQuery,
    mut places: Places,
    mut facings: Local<Facings>,
    mut commands: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    if outcome.0.is_some() || turn.awaiting.is_some() {
        return;
    }
    let mut events = Vec::new();
    fight.quiet = !log.keep;
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
    mirror(&fight, &mut facings, (&mut places, log.keep), &mut commands);
    sync_turn(&fight, &mut turn);
    out.write_batch(events);
}

/// Checks and applies the awaited unit's decision.
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve(
    mut decision: AwaitedDecision<Action>,
    log: Res<CombatLog>,
    mut fight: ResMut<Fight>,
    mut rng: ResMut<BattleRng>,
    mut units: UnitQuery,
    mut places: Places,
    mut facings: Local<Facings>,
    mut commands: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    let mut events = Vec::new();
    fight.quiet = !log.keep;
    let mut fight = Board {
        fight: &mut *fight,
        units: units.gather(),
    };
    // Whether the AI's choice replaced a refused decision: only that one is unchecked
    // (`take` returns any other after checking it; checking it again would give the same
    // answer, the fight being unchanged in between).
    let fell_back = std::cell::Cell::new(false);
    let Some((active, action)) = decision.take(
        |unit, action| fight.check(unit, action),
        |unit| {
            fell_back.set(true);
            super::ai::choose(&fight, unit)
        },
        &mut events,
    ) else {
        out.write_batch(events);
        return; // a player chooses again
    };
    if fell_back.get() && fight.check(active, &action).is_err() {
        // The fallback is refused too: end the turn so the battle moves on.
        let end = Action::EndTurn;
        if fight.check(active, &end).is_ok() {
            fight.apply(active, end, &mut *rng, &mut events);
        }
    } else {
        if !fight.quiet {
            events.push(BattleEvent::ActionChosen {
                unit: active,
                action: fight.describe(active, &action),
            });
        }
        fight.apply(active, action, &mut *rng, &mut events);
    }
    decision.turn.awaiting = None;
    mirror(&fight, &mut facings, (&mut places, log.keep), &mut commands);
    sync_turn(&fight, &mut decision.turn);
    out.write_batch(events);
}

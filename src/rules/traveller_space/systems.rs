//! The thin ECS systems of GURPS Traveller space combat: they hand the turn's functions
//! ([`Space`]) the ships' and missiles' components, the dice, the map and the decision,
//! write the events, give each missile launched its projectile entity (and take it away
//! when the missile is gone), and mirror standing onto the entities, with position, facing
//! and velocity when the battle is shown (a battle that keeps no log shows nothing).

use super::Action;
use super::sheet::TravellerShip;
use super::space::{
    MissileBay, MissileBayMut, MissileState, ShipState, Space, Step, Vessels, missile_bundle,
    missile_facing,
};
use crate::battle::{
    Autopilot, AwaitedDecision, BattleEvent, CombatLog, Command, Controller, Facing, Gathered,
    HexPos, Outcome, Roster, Standing, TurnState, UnitComponents, UnitId, Units, UnitsMut,
    Velocity, ai_decides,
};
use crate::dice::BattleRng;
use crate::hexmap::HexMap;
use bevy::ecs::entity::Entity;
use bevy::ecs::message::MessageWriter;
use bevy::ecs::prelude::{Commands, Local, Query, Res, ResMut, Without};
use std::sync::Arc;

/// The ships' sheets and states.
type ShipQuery<'w, 's> = UnitComponents<'w, 's, TravellerShip, ShipState>;

/// The missiles in flight, on their projectile entities.
type MissileQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static mut MissileState,
        &'static mut HexPos,
        &'static mut Facing,
    ),
>;

/// Where the map shows the ships, and their standing.
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
    ),
    Without<MissileState>,
>;

/// The ships and missiles of one system run, as the turn's functions see them
/// ([`Vessels`]): the ships gathered from their query, and the missiles copied from
/// theirs into a list by missile number (a lookup is a search in it, not a pass over the
/// query; the list is the system's own, kept from run to run so that it is not allocated
/// each time); when the run ends ([`SpaceParts::finish`]) the missiles' entities take their
/// changed states, the missiles launched get entities and those gone lose theirs.
struct SpaceParts<'a, 'v, 't> {
    ships: Gathered<'a, TravellerShip, ShipState>,
    query: &'a mut MissileQuery<'v, 't>,
    /// Every missile in flight, in missile-number order.
    missiles: &'a mut Vec<MissileState>,
}

impl<'a, 'v, 't> SpaceParts<'a, 'v, 't> {
    fn new(
        ships: &'a mut ShipQuery<'_, '_>,
        (query, missiles): (&'a mut MissileQuery<'v, 't>, &'a mut Vec<MissileState>),
    ) -> Self {
        missiles.clear();
        missiles.extend(query.iter().map(|(_, m, ..)| m.clone()));
        missiles.sort_unstable_by_key(|m| m.id);
        Self {
            ships: ships.gather(),
            query,
            missiles,
        }
    }

    /// Where missile `id` is in the list.
    fn find(&self, id: u32) -> Option<usize> {
        self.missiles.binary_search_by_key(&id, |m| m.id).ok()
    }

    /// Gives each missile's entity its state, position and facing (only its state when
    /// nobody is `shown` the battle: see [`mirror`]), despawns the entities of the
    /// missiles gone and spawns those launched.
    fn finish(self, commands: &mut Commands, shown: bool) {
        let mut on_entities: Vec<u32> = Vec::with_capacity(self.missiles.len());
        for (e, mut m, mut pos, mut facing) in self.query.iter_mut() {
            let Ok(k) = self.missiles.binary_search_by_key(&m.id, |x| x.id) else {
                commands.entity(e).despawn();
                continue;
            };
            let now = &self.missiles[k];
            on_entities.push(now.id);
            if *m != *now {
                *m = now.clone();
            }
            if !shown {
                continue;
            }
            if pos.0 != now.hex() {
                pos.0 = now.hex();
            }
            let f = missile_facing(now.velocity());
            if now.velocity() != hexx::Hex::ZERO && facing.0 != f {
                facing.0 = f;
            }
        }
        for m in self.missiles.iter() {
            if !on_entities.contains(&m.id) {
                commands.spawn(missile_bundle(m.clone()));
            }
        }
    }
}

impl Units<TravellerShip, ShipState> for SpaceParts<'_, '_, '_> {
    fn roster(&self) -> &Roster {
        self.ships.roster()
    }
    fn sheet_of(&self, id: UnitId) -> Option<&Arc<TravellerShip>> {
        self.ships.sheet_of(id)
    }
    fn state_of(&self, id: UnitId) -> Option<&ShipState> {
        self.ships.state_of(id)
    }
    fn unit_of(&self, entity: Entity) -> Option<UnitId> {
        self.ships.unit_of(entity)
    }
}

impl UnitsMut<TravellerShip, ShipState> for SpaceParts<'_, '_, '_> {
    fn state_mut(&mut self, id: UnitId) -> Option<&mut ShipState> {
        self.ships.state_mut(id)
    }
}

impl MissileBay for SpaceParts<'_, '_, '_> {
    fn missile_ids(&self) -> Vec<u32> {
        self.missiles.iter().map(|m| m.id).collect()
    }
    fn missile(&self, id: u32) -> Option<&MissileState> {
        self.find(id).map(|k| &self.missiles[k])
    }
}

impl MissileBayMut for SpaceParts<'_, '_, '_> {
    fn missile_mut(&mut self, id: u32) -> Option<&mut MissileState> {
        self.find(id).map(|k| &mut self.missiles[k])
    }
    fn launch(&mut self, missile: MissileState) {
        match self.missiles.binary_search_by_key(&missile.id, |m| m.id) {
            Ok(k) => self.missiles[k] = missile,
            Err(k) => self.missiles.insert(k, missile),
        }
    }
    fn remove_missile(&mut self, id: u32) {
        if let Some(k) = self.find(id) {
            self.missiles.remove(k);
        }
    }
}

/// Copies each ship's standing onto its entity, and shows it on its hex with its facing
/// and velocity. Only the standing decides anything in the battle's own turns (the rules
/// keep position and vector in the ship's state), so when nobody is shown the battle (a
/// preview, which keeps no log: [`Space::quiet`]) only the standing is copied. The GM's
/// edits read the drawn hex, so a preview that replays them keeps the log while it does
/// (`play::continue_from`).
fn mirror(ships: &impl Vessels, (places, shown): (&mut Places, bool), commands: &mut Commands) {
    for (e, id, mut pos, mut facing, mut standing, vel) in places.iter_mut() {
        let Some(st) = ships.state_of(*id) else {
            continue;
        };
        let now = st.condition.standing();
        if *standing != now {
            *standing = now;
        }
        if !shown {
            continue;
        }
        if pos.0 != st.pos {
            pos.0 = st.pos;
        }
        if st.vel != hexx::Hex::ZERO {
            let f = missile_facing(st.vel);
            if facing.0 != f {
                facing.0 = f;
            }
        }
        if vel.map(|v| v.0) != Some(st.vel) {
            commands.entity(e).insert(Velocity(st.vel));
        }
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

fn sync_turn(space: &Space, ships: &impl Vessels, turn: &mut TurnState) {
    turn.round = space.round;
    turn.phase = space.phase.word();
    turn.order.clear();
    turn.order
        .extend(ships.ids().filter(|&u| ships.fighting(u)));
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
    (map, log): (Res<HexMap>, Res<CombatLog>),
    mut ships: ShipQuery,
    (mut missiles, mut list): (MissileQuery, Local<Vec<MissileState>>),
    mut places: Places,
    mut commands: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    if outcome.0.is_some() || turn.awaiting.is_some() {
        return;
    }
    let mut events = Vec::new();
    space.quiet = !log.keep;
    let mut parts = SpaceParts::new(&mut ships, (&mut missiles, &mut list));
    if turn.round == 0 || turn.round_over {
        turn.round_over = false;
        events.push(BattleEvent::RoundStarted {
            round: space.round + 1,
        });
        // The detection phase is this step; the maneuver's decisions come next step.
        space.begin_turn(&mut parts, &mut *rng, &mut events);
    } else {
        let step = space.advance(&mut parts, &map, &mut *rng, &mut events);
        record_step(step, &mut turn);
    }
    mirror(&parts, (&mut places, !space.quiet), &mut commands);
    sync_turn(&space, &parts, &mut turn);
    parts.finish(&mut commands, !space.quiet);
    out.write_batch(events);
}

/// The AI's decision for the awaited ship when its side is the AI's (or under autopilot).
pub(super) fn decide(
    turn: Res<TurnState>,
    autopilot: Res<Autopilot>,
    space: Res<Space>,
    mut ships: ShipQuery,
    (mut missiles, mut list): (MissileQuery, Local<Vec<MissileState>>),
    controllers: Query<&Controller>,
    mut commands: MessageWriter<Command<Action>>,
) {
    let Some(active) = turn.awaiting else { return };
    let parts = SpaceParts::new(&mut ships, (&mut missiles, &mut list));
    if ai_decides(parts.roster(), &controllers, autopilot.0, active) {
        commands.write(Command {
            unit: active,
            action: super::ai::choose(&space, &parts, active),
        });
    }
}

/// Checks and applies the awaited ship's decision, then runs the battle on to the next
/// decision.
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve(
    mut decision: AwaitedDecision<Action>,
    mut space: ResMut<Space>,
    mut rng: ResMut<BattleRng>,
    (map, log): (Res<HexMap>, Res<CombatLog>),
    mut ships: ShipQuery,
    (mut missiles, mut list): (MissileQuery, Local<Vec<MissileState>>),
    mut places: Places,
    mut commands: Commands,
    mut out: MessageWriter<BattleEvent>,
) {
    let mut events = Vec::new();
    space.quiet = !log.keep;
    let mut parts = SpaceParts::new(&mut ships, (&mut missiles, &mut list));
    let Some((active, action)) = decision.take(
        |unit, action| space.check(&parts, unit, action),
        |unit| super::ai::pass(&space, &parts, unit),
        &mut events,
    ) else {
        out.write_batch(events);
        return; // a player chooses again
    };
    events.push(BattleEvent::ActionChosen {
        unit: active,
        // Words only when someone will read them (previews keep no log).
        action: if log.keep {
            space.describe(&parts, active, &action)
        } else {
            String::new()
        },
    });
    space.apply(&mut parts, active, action, &mut events);
    decision.turn.awaiting = None;
    let step = space.advance(&mut parts, &map, &mut *rng, &mut events);
    record_step(step, &mut decision.turn);
    mirror(&parts, (&mut places, !space.quiet), &mut commands);
    sync_turn(&space, &parts, &mut decision.turn);
    parts.finish(&mut commands, !space.quiet);
    out.write_batch(events);
}

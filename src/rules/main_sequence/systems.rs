//! The thin ECS systems of Main Sequence: they hand the rules a [`Board`] of the shared
//! [`Fight`] and the units' components, the dice, the map and the decision, write the
//! events, and mirror standing, position and facing onto the unit entities.

use super::fight::{Action, Board, Fight, MsUnits, Step, UnitState};
use super::sheet::MsSheet;
use crate::battle::{
    Autopilot, AwaitedDecision, BattleEvent, CombatLog, Command, Controller, Facing, HexPos,
    Outcome, OutcomeKind, Standing, TurnState, UnitComponents, UnitId, ai_decides, hex_pair,
};
use crate::dice::BattleRng;
use crate::hexmap::HexMap;
use bevy::ecs::message::MessageWriter;
use bevy::ecs::prelude::{Query, Res, ResMut, Resource};
use hexx::{EdgeDirection, Hex};
use std::borrow::Borrow;

/// The units' sheets and states, for the rules.
type UnitQuery<'w, 's> = UnitComponents<'w, 's, MsSheet, UnitState>;

/// Where the map shows the units, and their standing.
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

/// Where the map shows each unit: its own hex, except in a chase, where the quarry is
/// drawn at the chase band's distance from the pursuer.
fn shown_at(fight: &Board<impl Borrow<Fight>, impl MsUnits>, map: &HexMap) -> Vec<Hex> {
    let mut at: Vec<Hex> = fight.ids().map(|u| fight.state(u).pos).collect();
    if let Some(c) = &fight.chase {
        let (p, q) = (c.pursuer.0 as usize, c.quarry.0 as usize);
        let s = fight.sizes;
        let want = match c.band {
            super::combat::Band::SelfBand | super::combat::Band::Melee => s.melee,
            super::combat::Band::Close => s.close,
            super::combat::Band::Medium => s.medium,
            super::combat::Band::Long => s.long,
            super::combat::Band::Far => s.long + (s.long - s.medium),
        };
        let from = at[p];
        let dir = if at[q] == from {
            Hex::new(1, 0)
        } else {
            at[q] - from
        };
        let mut best = from + Hex::new(1, 0);
        for h in from.ring(want.max(1)) {
            if map.contains(h) && (h - from).dot(dir) > (best - from).dot(dir) {
                best = h;
            }
        }
        if !map.contains(best) {
            best = at[q];
        }
        at[q] = best;
    }
    at
}

/// Copies standing onto the entities, and shows each unit where [`shown_at`] draws it,
/// facing its nearest foe. Where the map draws a unit decides nothing in the battle's own
/// turns (a unit's hex is its state's), so when nobody is shown the battle (a preview,
/// which keeps no log: `CombatLog::keep`) only the standing is copied: drawing the chase
/// was a fifth of a chase's preview. The GM's edits read the drawn hexes, so a preview
/// that replays them keeps the log while it does (`play::continue_from`).
fn mirror(
    facings: &mut Facings,
    fight: &Board<impl Borrow<Fight>, impl MsUnits>,
    (map, shown): (&HexMap, bool),
    places: &mut Places,
    events: &mut Vec<BattleEvent>,
) {
    if !shown {
        for (id, _, _, mut standing) in places.iter_mut() {
            if let Some(st) = fight.units.state_of(*id) {
                let now = st.condition.standing();
                if *standing != now {
                    *standing = now;
                }
            }
        }
        return;
    }
    let at = shown_at(fight, map);
    let fighting: Vec<bool> = fight.ids().map(|u| fight.fighting(u)).collect();
    let sides: Vec<Option<u8>> = fight.ids().map(|u| fight.units.side_of(u)).collect();
    let faces = facings.of(&at, &fighting, &sides);
    for (id, mut pos, mut facing, mut standing) in places.iter_mut() {
        let i = id.0 as usize;
        let Some(st) = fight.units.state_of(*id) else {
            continue;
        };
        let now = st.condition.standing();
        if *standing != now {
            *standing = now;
        }
        let to = at[i];
        if pos.0 != to {
            if fight.chase.is_some() {
                events.push(BattleEvent::Moved {
                    unit: *id,
                    path: pos.0.line_to(to).map(hex_pair).collect(),
                    cost: 0,
                });
            }
            pos.0 = to;
        }
        if let Some(&Some(f)) = faces.get(i)
            && facing.0 != f
        {
            facing.0 = f;
        }
    }
}

/// The way each unit faces on the map: towards the nearest hex (then the lowest
/// coordinates) of a foe still fighting, remembered for the positions it was worked out
/// for. Every step redraws the map, and most change no position; worked out afresh each
/// time, every unit against every foe, it was nearly all of a battle of hundreds.
#[derive(Resource, Default)]
pub(super) struct Facings {
    at: Vec<Hex>,
    fighting: Vec<bool>,
    sides: Vec<Option<u8>>,
    faces: Vec<Option<EdgeDirection>>,
}

impl Facings {
    /// The facings of the units shown at `at` (by unit id), of whom `fighting` still
    /// fight, on `sides`.
    fn of(
        &mut self,
        at: &[Hex],
        fighting: &[bool],
        sides: &[Option<u8>],
    ) -> &[Option<EdgeDirection>] {
        if self.at != at || self.fighting != fighting || self.sides != sides {
            self.faces = (0..at.len())
                .map(|i| {
                    let here = at[i];
                    (0..at.len())
                        .filter(|&e| fighting[e] && sides[e] != sides[i])
                        .map(|e| at[e])
                        .filter(|&h| h != here)
                        .min_by_key(|h| (h.unsigned_distance_to(here), h.x, h.y))
                        .map(|h| here.main_direction_to(h))
                })
                .collect();
            self.at = at.to_vec();
            self.fighting = fighting.to_vec();
            self.sides = sides.to_vec();
        }
        &self.faces
    }
}

fn sync_turn(fight: &Fight, turn: &mut TurnState) {
    turn.round = fight.round;
    turn.phase = match fight.prompt {
        Some(super::fight::Prompt::Defend(_)) => "defense",
        Some(super::fight::Prompt::Reroll | super::fight::Prompt::RerollDefense(_)) => "re-roll",
        Some(super::fight::Prompt::Kill(_)) => "killing attack",
        Some(super::fight::Prompt::Boost | super::fight::Prompt::RerollCheck) => {
            match fight.check.as_ref().map(|c| &c.kind) {
                Some(super::fight::CheckKind::Chase { .. }) => "chase",
                Some(super::fight::CheckKind::Sweep { .. }) => "detection",
                Some(super::fight::CheckKind::Repair) => "repairs",
                Some(super::fight::CheckKind::StabilizeCrew { .. }) => "first aid",
                _ => "check",
            }
        }
        None if fight.order.is_empty() => "round start",
        None => "turn",
    };
    turn.order = fight.order.clone();
    turn.cursor = fight.next.saturating_sub(1);
}

/// "Chase Rules": a quarry beyond Far has escaped: the chase is its victory. True when
/// that ended the battle now.
fn escaped(
    fight: &Board<impl Borrow<Fight>, impl MsUnits>,
    outcome: &mut Outcome,
    events: &mut Vec<BattleEvent>,
) -> bool {
    let Some(c) = &fight.chase else { return false };
    if outcome.0.is_some() || fight.state(c.quarry).condition != super::fight::Condition::Escaped {
        return false;
    }
    let kind = OutcomeKind::Victory {
        side: fight.side(c.quarry),
    };
    outcome.0 = Some(kind);
    events.push(BattleEvent::BattleEnded {
        outcome: kind,
        round: fight.round,
    });
    true
}

/// "Knockout and Death": once the battle is decided, the knocked-out regain 1 Hit Point
/// and may get up (they stay out of this fight's count).
pub(super) fn aftermath(
    outcome: Res<Outcome>,
    mut fight: ResMut<Fight>,
    mut units: UnitQuery,
    mut out: MessageWriter<BattleEvent>,
) {
    if outcome.0.is_none() || fight.over {
        return;
    }
    let mut events = Vec::new();
    let mut fight = Board {
        fight: &mut *fight,
        units: units.gather(),
    };
    fight.end_of_combat(&mut events);
    out.write_batch(events);
}

/// Starts a round when the last is over and names the unit whose decision is awaited.
#[allow(clippy::too_many_arguments)]
pub(super) fn begin(
    mut turn: ResMut<TurnState>,
    mut outcome: ResMut<Outcome>,
    mut fight: ResMut<Fight>,
    mut rng: ResMut<BattleRng>,
    (map, log): (Res<HexMap>, Res<CombatLog>),
    mut units: UnitQuery,
    mut places: Places,
    mut facings: ResMut<Facings>,
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
        events.push(BattleEvent::RoundStarted {
            round: fight.round + 1,
        });
        fight.begin_round(&map, &mut *rng, &mut events);
        if escaped(&fight, &mut outcome, &mut events) {
            turn.round = fight.round;
            mirror(
                &mut facings,
                &fight,
                (&map, log.keep),
                &mut places,
                &mut events,
            );
            out.write_batch(events);
            return;
        }
    }
    match fight.advance(&mut events) {
        Step::Awaiting(id) => turn.awaiting = Some(id),
        Step::RoundOver => turn.round_over = true,
    }
    mirror(
        &mut facings,
        &fight,
        (&map, log.keep),
        &mut places,
        &mut events,
    );
    sync_turn(&fight, &mut turn);
    out.write_batch(events);
}

/// The AI's decision for the awaited unit when the AI decides for it.
pub(super) fn decide(
    turn: Res<TurnState>,
    autopilot: Res<Autopilot>,
    fight: Res<Fight>,
    map: Res<HexMap>,
    mut units: UnitQuery,
    controllers: Query<&Controller>,
    mut commands: MessageWriter<Command<Action>>,
) {
    let Some(active) = turn.awaiting else { return };
    if ai_decides(units.roster(), &controllers, autopilot.0, active) {
        let fight = Board {
            fight: &*fight,
            units: units.gather(),
        };
        commands.write(Command {
            unit: active,
            action: super::ai::choose(&fight, &map, active),
        });
    }
}

/// Checks and applies the awaited unit's decision.
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve(
    mut decision: AwaitedDecision<Action>,
    mut outcome: ResMut<Outcome>,
    mut fight: ResMut<Fight>,
    mut rng: ResMut<BattleRng>,
    (map, log): (Res<HexMap>, Res<CombatLog>),
    mut units: UnitQuery,
    mut places: Places,
    mut facings: ResMut<Facings>,
    mut out: MessageWriter<BattleEvent>,
) {
    let mut events = Vec::new();
    let mut fight = Board {
        fight: &mut *fight,
        units: units.gather(),
    };
    let Some((active, action)) = decision.take(
        |unit, action| fight.check(&map, unit, action),
        |_| match fight.prompt {
            Some(super::fight::Prompt::Defend(_)) => Action::Defend(None),
            Some(
                super::fight::Prompt::Reroll
                | super::fight::Prompt::RerollDefense(_)
                | super::fight::Prompt::RerollCheck,
            ) => Action::Reroll(None),
            Some(super::fight::Prompt::Kill(_)) => Action::SpendEdge(false),
            Some(super::fight::Prompt::Boost) => Action::PlusTwo(false),
            None => Action::EndTurn,
        },
        &mut events,
    ) else {
        out.write_batch(events);
        return; // a player chooses again
    };
    // The AI's answers to the battle's questions stay out of the log, as they always have;
    // a player's answer is a decision like any other: logged, so that the window and
    // `play` see it taken up (issue 26 item 12).
    let quiet = decision.by_ai(active)
        && matches!(
            action,
            Action::Defend(None)
                | Action::Reroll(None)
                | Action::SpendEdge(_)
                | Action::PlusTwo(false)
        );
    if !quiet {
        events.push(BattleEvent::ActionChosen {
            unit: active,
            // Words only when someone will read them (previews keep no log).
            action: if log.keep {
                fight.describe(active, &action)
            } else {
                String::new()
            },
        });
    }
    fight.apply(&map, active, action, &mut *rng, &mut events);
    escaped(&fight, &mut outcome, &mut events);
    decision.turn.awaiting = None;
    mirror(
        &mut facings,
        &fight,
        (&map, log.keep),
        &mut places,
        &mut events,
    );
    sync_turn(&fight, &mut decision.turn);
    out.write_batch(events);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each faces its nearest fighting foe (the lower coordinates on a tie); a foe out of
    /// the fight, or none at all, leaves the facing as it was. Asked again, the same answer;
    /// after a move, the new one.
    #[test]
    fn units_face_their_nearest_fighting_foe() {
        let mut facings = Facings::default();
        let at = [
            Hex::new(0, 0),
            Hex::new(3, 0),
            Hex::new(0, -2),
            Hex::new(-5, 0),
        ];
        let sides = [Some(0), Some(1), Some(1), Some(0)];
        let east = Hex::ZERO.main_direction_to(Hex::new(1, 0));
        let west = Hex::ZERO.main_direction_to(Hex::new(-1, 0));
        let north = Hex::ZERO.main_direction_to(Hex::new(0, -1));
        let all = [true; 4];
        let faces = facings.of(&at, &all, &sides).to_vec();
        assert_eq!(faces[0], Some(north)); // (0, -2) is 2 away, (3, 0) 3
        assert_eq!(faces[1], Some(west));
        assert_eq!(faces[3], Some(east));
        assert_eq!(facings.of(&at, &all, &sides), faces.as_slice());
        let out = [true, true, false, true];
        assert_eq!(facings.of(&at, &out, &sides)[0], Some(east));
        let alone = [true, false, false, true];
        assert_eq!(facings.of(&at, &alone, &sides)[0], None);
        let moved = [
            Hex::new(0, 0),
            Hex::new(-1, 0),
            Hex::new(0, -2),
            Hex::new(-5, 0),
        ];
        assert_eq!(facings.of(&moved, &all, &sides)[0], Some(west));
    }
}

//! The thin ECS systems of SOCS: they hand the turn's functions ([`Dogfight`]) the
//! craft's components, the dice and the command, write the events, and mirror standing,
//! position and facing onto the craft's entities.
//!
//! Positions and facings are a picture of the range bands (gurps-lite-and-socs.txt, SOCS
//! "COMBAT": range is kept per pair, not in hexes; [`SocsRange::hexes`] is a display
//! choice): no rule of a battle's own turns reads them back. A battle that keeps no log
//! (a preview, [`CombatLog::keep`]) is never looked at, so it mirrors only standing, which
//! the victory check reads, and skips redrawing the map, which was nearly half its time.
//! The GM's place and join do set ranges from the map, so a preview that replays them
//! keeps the log while it does (`play::continue_from`).

use super::dogfight::{Action, CraftState, Crafts, Dogfight, Phase, SocsRange, Step};
use super::sheet::Craft;
use crate::battle::place::{PairTable, Placer};
use crate::battle::{
    AwaitedDecision, BattleEvent, CombatLog, Facing, HexPos, Outcome, Standing, TurnState,
    UnitComponents, UnitId, hex_pair,
};
use crate::dice::BattleRng;
use crate::hexmap::HexMap;
use bevy::ecs::message::MessageWriter;
use bevy::ecs::prelude::{Query, Res, ResMut};

/// The craft's sheets and states, for the turn's functions.
type CraftQuery<'w, 's> = UnitComponents<'w, 's, Craft, CraftState>;

/// Where the map shows the craft, and their standing.
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

/// Copies standing onto the entities and, when the battle is `shown` (it keeps a log),
/// moves the craft on the map to fit the ranges (Short 3 hexes, Long 8), each move a
/// `Moved` event of cost 0, and turns each craft to face its nearest foe.
fn mirror(
    placer: &mut Placer,
    d: &Dogfight,
    crafts: &impl Crafts,
    map: &HexMap,
    places: &mut Places,
    events: &mut Vec<BattleEvent>,
    shown: bool,
) {
    if !shown {
        for (id, _, _, mut standing) in places.iter_mut() {
            let now = crafts.standing(*id);
            if *standing != now {
                *standing = now;
            }
        }
        return;
    }
    let mut at = vec![hexx::Hex::ZERO; crafts.count()];
    for (id, pos, _, _) in places.iter() {
        if let Some(h) = at.get_mut(id.0 as usize) {
            *h = pos.0;
        }
    }
    let fighting: Vec<bool> = crafts.ids().map(|i| crafts.in_fight(i)).collect();
    let sides: Vec<u8> = crafts
        .ids()
        .map(|i| crafts.side_of(i).unwrap_or(0))
        .collect();
    // Every pair's range read once: the placement and the facings below weigh every pair
    // many times over (a hundred craft spent nearly all their time asking pair by pair).
    let mut ranges = PairTable::new(crafts.count(), SocsRange::OutOfRange);
    for (&(ea, eb), &r) in &d.ranges {
        if let (Some(a), Some(b)) = (crafts.unit_of(ea), crafts.unit_of(eb)) {
            ranges.set(a, b, r);
        }
    }
    let range = |a: UnitId, b: UnitId| ranges.get(a, b);
    let placed = placer.place(map, &at, &fighting, &sides, |a, b| {
        let r = range(UnitId(a as u32), UnitId(b as u32));
        (r != SocsRange::OutOfRange).then(|| r.hexes())
    });
    for (id, mut pos, mut facing, mut standing) in places.iter_mut() {
        let i = id.0 as usize;
        let now = crafts.standing(*id);
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
        let nearest = crafts
            .foes(*id)
            .into_iter()
            .filter(|&f| range(*id, f) != SocsRange::OutOfRange)
            .min_by_key(|&f| (range(*id, f), f))
            .map(|f| placed[f.0 as usize]);
        if let Some(to) = nearest
            && to != pos.0
        {
            let f = pos.0.main_direction_to(to);
            if facing.0 != f {
                facing.0 = f;
            }
        }
    }
}

fn sync_turn(d: &Dogfight, turn: &mut TurnState) {
    turn.round = d.turn;
    turn.phase = match d.phase {
        Phase::Start => "turn over",
        Phase::Fire { .. } => "fire",
        Phase::Maneuvers { .. } => "maneuver",
    };
    turn.order = d.order.clone();
    turn.cursor = d.next;
}

/// Starts the next turn when the last is over, moves the turn on, and names the craft
/// whose decision is awaited.
#[allow(clippy::too_many_arguments)]
pub(super) fn begin(
    mut turn: ResMut<TurnState>,
    outcome: Res<Outcome>,
    mut d: ResMut<Dogfight>,
    mut rng: ResMut<BattleRng>,
    map: Res<HexMap>,
    mut placer: ResMut<Placer>,
    log: Res<CombatLog>,
    mut crafts: CraftQuery,
    mut places: Places,
    mut out: MessageWriter<BattleEvent>,
) {
    if outcome.0.is_some() || turn.awaiting.is_some() {
        return;
    }
    let mut events = Vec::new();
    let mut crafts = crafts.gather();
    // Rolls and notes in words only when someone will read them (previews keep no log).
    if d.quiet == log.keep {
        d.quiet = !log.keep;
    }
    if turn.round == 0 || turn.round_over {
        turn.round_over = false;
        events.push(BattleEvent::RoundStarted { round: d.turn + 1 });
        d.begin_turn(&mut crafts);
        events.push(BattleEvent::Note {
            unit: None,
            text: if crafts.furball() {
                "Fire phase (a furball: more than six craft)".into()
            } else {
                "Fire phase".into()
            },
        });
    }
    loop {
        match d.advance(&mut crafts, &mut *rng, &mut events) {
            Step::Awaiting(id) => {
                turn.awaiting = Some(id);
                events.push(BattleEvent::TurnStarted { unit: id });
                break;
            }
            Step::Advanced => {}
            Step::TurnOver => {
                turn.round_over = true;
                break;
            }
        }
    }
    let shown = log.keep;
    mirror(
        &mut placer,
        &d,
        &crafts,
        &map,
        &mut places,
        &mut events,
        shown,
    );
    sync_turn(&d, &mut turn);
    out.write_batch(events);
}

/// Checks and records the awaited craft's decision.
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve(
    mut decision: AwaitedDecision<Action>,
    mut d: ResMut<Dogfight>,
    map: Res<HexMap>,
    mut placer: ResMut<Placer>,
    log: Res<CombatLog>,
    mut crafts: CraftQuery,
    mut places: Places,
    mut out: MessageWriter<BattleEvent>,
) {
    let mut events = Vec::new();
    let crafts = crafts.gather();
    let Some((active, action)) = decision.take(
        |unit, action| d.check(&crafts, unit, action),
        |_| match d.phase {
            Phase::Fire { .. } => Action::Fire {
                shots: Vec::new(),
                gm_modifier: 0,
            },
            _ => Action::Maneuver {
                maneuver: super::dogfight::Maneuver::FlyStraight,
                gm_modifier: 0,
            },
        },
        &mut events,
    ) else {
        out.write_batch(events);
        return; // a player chooses again
    };
    // Words only when someone will read them (previews keep no log).
    let words = if log.keep {
        d.describe(&crafts, active, &action)
    } else {
        String::new()
    };
    events.push(BattleEvent::ActionChosen {
        unit: active,
        action: words,
    });
    d.apply(active, action);
    decision.turn.awaiting = None;
    let shown = log.keep;
    mirror(
        &mut placer,
        &d,
        &crafts,
        &map,
        &mut places,
        &mut events,
        shown,
    );
    sync_turn(&d, &mut decision.turn);
    out.write_batch(events);
}

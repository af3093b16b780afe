//! The AI never idles while it could fight (issue 28, item 5): over several seeds of every
//! shipped scenario, fought by the AI with each side's own style, no side that could fight
//! or close in passes for [`IDLE_ROUNDS`] rounds in a row while the battle is undecided.
//!
//! A side's round is idle when every turn decision its units made in it passed
//! ([`Engagement::Passes`]: Do Nothing, End Turn, Hold, an empty fire phase...) although,
//! for at least one of them, the rules then listed an attack ([`Engagement::Attacks`]), or
//! a move ([`Engagement::Moves`]) with no fighting foe in the next hex. Rounds in which the
//! side could do neither (stunned, unconscious, no engines, every foe out of reach above
//! it) or only answered questions (defenses) leave the count as it is; a round in which one
//! of its units took part sets it back to nought.
//!
//! `cargo test` fights [`SEEDS`] seeds a scenario; `SKIRMISH_IDLE_SEEDS=200 cargo test
//! --release --test integration idle` fights more.

use skirmish::battle::{
    Autopilot, Control, Controller, HexPos, Roster, Side, Standing, TurnState, UnitId,
};
use skirmish::scenario::{Engagement, Prepared};
use skirmish::session::{Session, SessionOptions};
use std::sync::Arc;

/// Idle rounds in a row that fail the test.
const IDLE_ROUNDS: u32 = 10;

/// Seeds a scenario in one `cargo test`.
const SEEDS: u64 = 3;

/// Steps after which a battle is given up on (no shipped battle comes near).
const MAX_STEPS: u32 = 400_000;

fn seeds() -> u64 {
    std::env::var("SKIRMISH_IDLE_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SEEDS)
        .max(1)
}

/// What a side did in the round under way.
#[derive(Clone, Copy, Default)]
struct RoundSoFar {
    /// One of its units took part.
    acted: bool,
    /// One of its units passed although it could have taken part.
    passed_with_a_choice: bool,
}

/// Each side's idle rounds in a row, and the longest run seen.
struct Watch {
    round: u32,
    now: Vec<RoundSoFar>,
    streak: Vec<u32>,
    /// For each side: the longest run and the round it ended in.
    longest: Vec<(u32, u32)>,
}

impl Watch {
    fn new(sides: usize) -> Self {
        Self {
            round: 0,
            now: vec![RoundSoFar::default(); sides],
            streak: vec![0; sides],
            longest: vec![(0, 0); sides],
        }
    }

    /// Closes the rounds before `round`.
    fn at_round(&mut self, round: u32) {
        if round == self.round {
            return;
        }
        for (side, so_far) in self.now.iter_mut().enumerate() {
            if so_far.acted {
                self.streak[side] = 0;
            } else if so_far.passed_with_a_choice {
                self.streak[side] += 1;
                if self.streak[side] > self.longest[side].0 {
                    self.longest[side] = (self.streak[side], self.round);
                }
            }
            *so_far = RoundSoFar::default();
        }
        self.round = round;
    }
}

/// Whether the rules list for `unit`, now, an attack, or a move while no fighting foe
/// stands next to it: a decision that would fight or close in.
fn could_fight_or_close(s: &mut Session, unit: UnitId) -> bool {
    let rules = s.prepared().rules;
    let legal: Vec<Engagement> = rules
        .legal_actions(&s.world, unit)
        .iter()
        .filter_map(|a| rules.engagement(&**a))
        .collect();
    if legal.contains(&Engagement::Attacks) {
        return true;
    }
    if !legal.contains(&Engagement::Moves) {
        return false;
    }
    let mut q = s.world.query::<(&UnitId, &Side, &HexPos, &Standing)>();
    let units: Vec<(UnitId, u8, hexx::Hex, bool)> = q
        .iter(&s.world)
        .map(|(id, side, pos, standing)| (*id, side.0, pos.0, standing.fighting()))
        .collect();
    let Some(&(_, mine, here, _)) = units.iter().find(|u| u.0 == unit) else {
        return false;
    };
    units
        .iter()
        .filter(|u| u.1 != mine && u.3)
        .map(|u| here.unsigned_distance_to(u.2))
        .min()
        .is_some_and(|d| d > 1)
}

/// Fights `prepared` with `seed`, every decision the AI's in the style of the unit's side
/// (a player side: the autopilot's), and returns each side's longest run of idle rounds
/// with the round it ended in.
fn longest_idle_runs(prepared: &Arc<Prepared>, seed: u64) -> Vec<(u32, u32)> {
    let rules = prepared.rules;
    let styles: Vec<Control> = prepared.sides.iter().map(|s| s.control).collect();
    // Every side waits for its decisions, so that the rules' list can be read in the very
    // state the AI decides in; the AI then decides in its own style for one step.
    let mut waiting = (**prepared).clone();
    for side in &mut waiting.sides {
        side.control = Control::Player;
    }
    let options = SessionOptions {
        keep_log: false,
        autopilot: false,
    };
    let mut s = Session::new(Arc::new(waiting), seed, options);
    let mut watch = Watch::new(styles.len());
    let mut steps = 0;
    while s.outcome().is_none() && steps < MAX_STEPS {
        steps += 1;
        let turn = s.world.resource::<TurnState>();
        watch.at_round(turn.round);
        let Some(unit) = turn.awaiting else {
            s.step();
            continue;
        };
        let roster = s.world.resource::<Roster>();
        let side = usize::from(roster.units[unit.0 as usize].side);
        let entity = roster.entity(unit).expect("the awaited unit has an entity");
        let could_act = could_fight_or_close(&mut s, unit);
        let cursor = rules.command_cursor(&s.world);
        match styles[side] {
            Control::Ai(style) => {
                s.world
                    .entity_mut(entity)
                    .insert(Controller(Control::Ai(style)));
            }
            Control::Player => s.world.insert_resource(Autopilot(true)),
        }
        s.step();
        s.world
            .entity_mut(entity)
            .insert(Controller(Control::Player));
        s.world.insert_resource(Autopilot(false));
        let Some(decision) = rules.command_since(&s.world, cursor, unit) else {
            continue;
        };
        match rules.engagement(&*decision) {
            Some(e) if e.takes_part() => watch.now[side].acted = true,
            Some(Engagement::Passes) if could_act => watch.now[side].passed_with_a_choice = true,
            _ => {}
        }
    }
    assert!(s.outcome().is_some(), "seed {seed}: no outcome");
    let round = s.world.resource::<TurnState>().round + 1;
    watch.at_round(round);
    watch.longest
}

/// No side of any shipped scenario idles for [`IDLE_ROUNDS`] rounds in a row while it could
/// fight.
#[test]
fn no_side_idles_while_it_could_fight() {
    let registry = skirmish::rules::builtin();
    let mut idle = Vec::new();
    for file in super::cli::scenarios() {
        let prepared = Arc::new(
            registry
                .load(&file)
                .unwrap_or_else(|e| panic!("{}", e.render(false))),
        );
        let mut longest = 0;
        for seed in 1..=seeds() {
            for (side, (run, round)) in longest_idle_runs(&prepared, seed).into_iter().enumerate() {
                longest = longest.max(run);
                if run >= IDLE_ROUNDS {
                    idle.push(format!(
                        "{} --seed {seed}: {} passed {run} rounds in a row up to round {round}",
                        file.display(),
                        prepared.sides[side].name
                    ));
                }
            }
        }
        eprintln!("{}: at most {longest} idle rounds in a row", file.display());
    }
    assert!(idle.is_empty(), "{}", idle.join("\n"));
}

/// The watch counts a side's rounds as the test means: passing with a choice counts, taking
/// part sets the count back, a round without a choice leaves it.
#[test]
fn the_watch_counts_idle_rounds_in_a_row() {
    let mut w = Watch::new(2);
    for round in 1..=12 {
        w.at_round(round);
        w.now[0].passed_with_a_choice = true;
        w.now[1].passed_with_a_choice = round != 5;
        w.now[1].acted = round == 3;
    }
    w.at_round(13);
    assert_eq!(w.longest[0], (12, 12));
    // side 1: acted in round 3, no choice in round 5: rounds 4 and 6..=12 are 8 in a row
    assert_eq!(w.longest[1], (8, 12));
}

//! A battle written out as `skirmish run` and `replay` print it: the sides, the log, the
//! outcome and each unit's state as text, or all that as JSON. The command line, the golden
//! logs (`tests/golden/`) and anyone embedding the library call the same functions, so that
//! what they compare is what a user sees.

use crate::battle::OutcomeKind;
use crate::scenario::Prepared;
use crate::session::{Session, SessionOptions};
use std::path::Path;
use std::sync::Arc;

/// Fights a battle of `prepared` headless from `seed` to its end, the AI playing every side,
/// as `skirmish run` does.
pub fn run_battle(prepared: Arc<Prepared>, seed: u64) -> Session {
    let mut session = Session::new(prepared, seed, SessionOptions::default());
    session.run();
    session
}

/// Each side with its units, as the head of `run`'s text writes it: "Name (id): A, B".
pub fn side_lines(prepared: &Prepared) -> Vec<String> {
    (prepared.sides.iter().enumerate())
        .map(|(i, side)| {
            let names: Vec<&str> = (prepared.units.iter())
                .filter(|u| usize::from(u.side) == i)
                .map(|u| u.name.as_str())
                .collect();
            format!("{} ({}): {}", side.name, side.id, names.join(", "))
        })
        .collect()
}

/// The outcome in words, as the end of `run`'s text says it ("victory for Red in round 4").
pub fn outcome_text(p: &Prepared, outcome: Option<OutcomeKind>, round: u32) -> String {
    match outcome {
        Some(OutcomeKind::Victory { side }) => format!(
            "victory for {} in round {round}",
            p.sides
                .get(usize::from(side))
                .map_or("?", |s| s.name.as_str())
        ),
        Some(OutcomeKind::Draw { reason }) => format!("draw in round {round} ({reason})"),
        None => "unfinished".to_string(),
    }
}

/// The battle as it stands in `run`'s text: a heading with the scenario, ruleset and seed,
/// each side's units, the log, the outcome and each unit's state.
pub fn battle_text(session: &mut Session) -> String {
    let prepared = session.prepared().clone();
    let seed = session.seed();
    let mut text = format!("{} ({}), seed {seed}\n", prepared.name, prepared.ruleset);
    for line in side_lines(&prepared) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str(&session.log_text());
    text.push_str(&format!(
        "\nOutcome: {}\n",
        outcome_text(&prepared, session.outcome(), session.round())
    ));
    for line in session.unit_lines() {
        text.push_str(&format!("  {line}\n"));
    }
    text
}

/// The battle as it stands in `run --json`'s document (`file` is the scenario's path as the
/// user named it), with the `extra` keys added; pretty-printed, with a final newline.
pub fn battle_json(
    session: &mut Session,
    file: &Path,
    extra: serde_json::Map<String, serde_json::Value>,
) -> Result<String, serde_json::Error> {
    let prepared = session.prepared().clone();
    let outcome = session.outcome();
    let round = session.round();
    let mut doc = serde_json::json!({
        "scenario": prepared.name,
        "file": file.display().to_string(),
        "ruleset": prepared.ruleset,
        "seed": session.seed(),
        "sides": session.sides().0,
        "units": session.roster().units,
        "events": session.log().entries,
        "outcome": outcome,
        "outcome_text": outcome_text(&prepared, outcome, round),
        "rounds": round,
        "final": session.unit_lines(),
    });
    let sheets = session.sheets();
    if let Some(map) = doc.as_object_mut() {
        if sheets.iter().any(|s| !s.is_null()) {
            map.insert("sheets".into(), serde_json::Value::Array(sheets));
        }
        map.extend(extra);
    }
    serde_json::to_string_pretty(&doc).map(|text| text + "\n")
}

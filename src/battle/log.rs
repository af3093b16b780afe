//! The combat log: every event of the battle in order with the round it happened in, and
//! its readable text form (each roll with its dice and labelled modifiers).

use super::{AttackResult, BattleEvent, OutcomeKind, Roster, Sides, Standing};
use bevy::ecs::resource::Resource;
use serde::Serialize;
use std::fmt::Write;

/// The "dice" of a damage event whose damage is a level, not a roll (a SOCS hit's
/// firepower): the log shows it as a change of the target's condition (intact, damaged,
/// out) rather than as hit points.
pub const LEVEL_DAMAGE: crate::dice::DiceName = crate::dice::DiceName::Fixed("firepower");

/// The "dice" of a damage event that records injuries with scores (Vergeworlds): the log
/// shows the injuries and the target's worst one before and after.
pub const INJURY_DAMAGE: crate::dice::DiceName = crate::dice::DiceName::Fixed("injury");

/// One logged event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogEntry {
    /// Round in which it happened.
    pub round: u32,
    /// The event.
    #[serde(flatten)]
    pub event: BattleEvent,
}

/// Every event of the battle, in order. Previews switch `keep` off: they need only the
/// statistics.
#[derive(Resource, Clone, Debug, Default)]
pub struct CombatLog {
    /// Whether events are kept.
    pub keep: bool,
    /// The events so far.
    pub entries: Vec<LogEntry>,
}

impl CombatLog {
    /// The whole log as text, one line per event line.
    pub fn to_text(&self, roster: &Roster, sides: &Sides) -> String {
        let mut out = String::new();
        for entry in &self.entries {
            out.push_str(&format_event(&entry.event, roster, sides));
        }
        out
    }
}

fn side_name(sides: &Sides, side: u8) -> &str {
    sides.0.get(side as usize).map_or("?", |s| s.name.as_str())
}

/// The text of one event: zero or more lines, each ending in a newline. Lines about a
/// turn are indented under the round heading.
pub fn format_event(event: &BattleEvent, roster: &Roster, sides: &Sides) -> String {
    let mut s = String::new();
    let name = |id| roster.name(id);
    // Writing to a String cannot fail.
    let _ = match event {
        BattleEvent::RoundStarted { round } => writeln!(s, "Round {round}"),
        BattleEvent::TurnStarted { .. } => Ok(()),
        BattleEvent::ActionChosen { unit, action } => writeln!(s, "  {}: {action}", name(*unit)),
        BattleEvent::Moved { unit, path, cost } => {
            let hexes: Vec<String> = path.iter().map(|(q, r)| format!("({q},{r})")).collect();
            // Ships on range bands move on the map without movement points.
            let cost = if *cost > 0 {
                format!(" [{cost} MP]")
            } else {
                String::new()
            };
            writeln!(s, "    {} moves {}{cost}", name(*unit), hexes.join(" > "))
        }
        BattleEvent::Knockback {
            unit,
            distance,
            path,
            stopped_by,
        } => {
            let hexes: Vec<String> = path.iter().map(|(q, r)| format!("({q},{r})")).collect();
            let _ = write!(
                s,
                "    {} is knocked back {distance} yd: {}",
                name(*unit),
                hexes.join(" > ")
            );
            match stopped_by {
                Some(what) => writeln!(s, ", stopped by {what}"),
                None => writeln!(s),
            }
        }
        BattleEvent::Roll {
            unit,
            purpose,
            roll,
            result,
        } => writeln!(s, "    {} rolls {purpose}: {roll} - {result}", name(*unit)),
        BattleEvent::Attack {
            target,
            weapon,
            roll,
            defenses,
            result,
            ..
        } => {
            let _ = writeln!(s, "    attack on {} with {weapon}: {roll}", name(*target));
            for d in defenses {
                let _ = writeln!(
                    s,
                    "    {} defends, {}: {}",
                    name(*target),
                    d.defense,
                    d.roll
                );
            }
            let word = match result {
                AttackResult::Miss => "miss",
                AttackResult::Defended => "defended",
                AttackResult::Hit => "hit",
                AttackResult::CriticalHit => "critical hit, no defense",
            };
            writeln!(s, "    -> {word}")
        }
        BattleEvent::Damage {
            target,
            roll,
            damage_type,
            hp_before,
            hp_after,
            ..
        } if roll.dice == LEVEL_DAMAGE => {
            // SOCS: a hit is a firepower level, and a craft is intact, damaged or out.
            let state = |c: &i32| match c {
                2.. => "intact",
                1 => "damaged",
                _ => "out",
            };
            writeln!(
                s,
                "    damage: a {damage_type} hit; {} {} -> {}",
                name(*target),
                state(hp_before),
                state(hp_after)
            )
        }
        BattleEvent::Damage {
            target,
            roll,
            damage_type,
            steps,
            hp_before,
            hp_after,
            location,
            ..
        } if roll.dice == INJURY_DAMAGE => {
            // Vergeworlds: injuries with scores, the worst one before and after.
            let scores: Vec<String> = steps.iter().map(|m| format!("+{}", m.value)).collect();
            writeln!(
                s,
                "    injury to the {}: {} ({damage_type}); {}'s worst injury +{hp_before} -> +{hp_after}",
                location.as_deref().unwrap_or("body"),
                scores.join(", "),
                name(*target),
            )
        }
        BattleEvent::Damage {
            target,
            roll,
            damage_type,
            steps,
            injury,
            hp_before,
            hp_after,
            hp_max,
            location,
            ..
        } => {
            let place = location
                .as_ref()
                .map_or(String::new(), |at| format!(" to the {at}"));
            if roll.is_behind_the_screen() {
                // No total to follow with the type: "rolled behind the screen cr" misread.
                let _ = write!(s, "    damage{place} ({damage_type}): {roll}");
            } else {
                let _ = write!(s, "    damage{place}: {roll} {damage_type}");
            }
            for step in steps {
                let _ = write!(s, ", {} {:+}", step.label, step.value);
            }
            writeln!(
                s,
                " = injury {injury}; {} HP {hp_before} -> {hp_after} of {hp_max}",
                name(*target)
            )
        }
        BattleEvent::StatusChanged {
            unit,
            standing,
            cause,
        } => {
            let what = match standing {
                Standing::Fighting => "is back in the fight",
                Standing::Unconscious => "is out: unconscious",
                Standing::Dead => "is dead",
                Standing::Escaped => "has left the battle",
                Standing::Surrendered => "surrenders",
                Standing::Disabled => "is out of action",
                Standing::Destroyed => "is destroyed",
            };
            writeln!(s, "    {} {what} ({cause})", name(*unit))
        }
        BattleEvent::Note { unit: None, text } => writeln!(s, "{text}"),
        BattleEvent::Note {
            unit: Some(unit),
            text,
        } => writeln!(s, "    {} - {text}", name(*unit)),
        BattleEvent::GameMaster {
            unit,
            change,
            reason,
        } => {
            if reason.is_empty() {
                writeln!(s, "  GM: {} {change}", name(*unit))
            } else {
                writeln!(s, "  GM: {} {change}, {reason}", name(*unit))
            }
        }
        BattleEvent::Rejected { unit, reason } => {
            writeln!(s, "    {}'s command refused: {reason}", name(*unit))
        }
        BattleEvent::BattleEnded { outcome, round } => match outcome {
            OutcomeKind::Victory { side } => writeln!(
                s,
                "Battle over in round {round}: victory for {}",
                side_name(sides, *side)
            ),
            OutcomeKind::Draw { reason } => {
                writeln!(s, "Battle over in round {round}: draw, {reason}")
            }
        },
    };
    s
}

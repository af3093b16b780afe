//! Where the GURPS systems write a battle's events ([`Report`]), and what a battle that keeps
//! no log (a preview) leaves out: the events only the combat log reads (notes, rolls that
//! are not an attack or damage, moves, the start of a round, the action chosen) and the
//! labels of the rest.
//! The battle's own readers (the tallies, `src/battle/stats.rs`, and the stalemate rule,
//! `src/battle/stalemate.rs`) read only attacks, damage, knockback, changes of standing and
//! turns begun, which are always written. The dice, decisions and outcomes are the same
//! either way.

use crate::battle::BattleEvent;
use bevy::ecs::message::MessageWriter;

/// The battle's event writer, and whether anyone will read the words.
pub(super) struct Report<'a, 'w> {
    events: &'a mut MessageWriter<'w, BattleEvent>,
    /// The battle keeps no log (`CombatLog::keep` is false): events only the log reads are
    /// left out, and labels nobody reads are not made.
    pub(super) quiet: bool,
}

impl<'a, 'w> Report<'a, 'w> {
    /// Writes into `events`; quiet unless the battle keeps its log (`keep`).
    pub(super) fn new(events: &'a mut MessageWriter<'w, BattleEvent>, keep: bool) -> Self {
        Self {
            events,
            quiet: !keep,
        }
    }

    /// Writes an event the battle itself reads (an attack, damage, knockback, a change of
    /// standing, a turn begun), or one a person must see (a refused command).
    pub(super) fn write(&mut self, event: BattleEvent) {
        self.events.write(event);
    }

    /// Writes the event `make` makes, one only the combat log reads, unless quiet.
    pub(super) fn log_only(&mut self, make: impl FnOnce() -> BattleEvent) {
        if !self.quiet {
            self.events.write(make());
        }
    }
}

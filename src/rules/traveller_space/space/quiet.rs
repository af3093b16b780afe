//! What a battle nobody reads leaves out ([`Space::quiet`]): the events only the combat
//! log reads, and the words of the rest (roll modifiers' labels, gathered with
//! [`RollModifiers`](crate::dice::RollModifiers)). Rolls, outcomes and statistics are the
//! same either way.

use super::*;

impl Space {
    /// Pushes the event `make` makes, one only the combat log reads (a note, a roll that
    /// is not an attack, a path moved), unless the battle is [`Space::quiet`].
    pub(super) fn log_only(
        &self,
        events: &mut Vec<BattleEvent>,
        make: impl FnOnce() -> BattleEvent,
    ) {
        crate::battle::log_only(events, self.quiet, make);
    }

    /// A modifier whose label `label` makes, unlabelled in a [`Space::quiet`] battle.
    pub(super) fn named(&self, value: i32, label: impl FnOnce() -> String) -> Modifier {
        Modifier::unless_quiet(self.quiet, value, label)
    }

    /// A label made by `make`, or none in a [`Space::quiet`] battle.
    pub(super) fn words(&self, make: impl FnOnce() -> String) -> String {
        if self.quiet { String::new() } else { make() }
    }
}

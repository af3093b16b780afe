//! What a battle nobody reads leaves out ([`Space::quiet`]): the events only the combat
//! log reads, and the words of the rest (roll modifiers' labels). Rolls, outcomes and
//! statistics are the same either way.

use super::*;
use crate::dice::Label;

/// A roll's modifiers as the rules gather them ([`Gather`]): labelled, or, for a
/// [`Space::quiet`] battle, the same values in the same order with no labels put together.
pub(super) struct Mods {
    /// The modifiers so far.
    pub list: Vec<Modifier>,
    quiet: bool,
}

impl Mods {
    /// The modifiers `gather` gathers, labelled unless `quiet`.
    pub fn of(quiet: bool, gather: impl FnOnce(&mut Mods)) -> Vec<Modifier> {
        let mut mods = Mods {
            list: Vec::with_capacity(6),
            quiet,
        };
        gather(&mut mods);
        mods.list
    }
}

impl Gather for Mods {
    fn push(&mut self, modifier: Modifier) {
        self.list.push(modifier);
    }

    fn push_named<L: Into<Label>>(&mut self, value: i32, label: impl FnOnce() -> L) {
        self.list.push(if self.quiet {
            Modifier::new("", value)
        } else {
            Modifier::named(label(), value)
        });
    }

    fn total(&self) -> i32 {
        self.list.total()
    }
}

impl Space {
    /// Pushes the event `make` makes, one only the combat log reads (a note, a roll that
    /// is not an attack, a path moved), unless the battle is [`Space::quiet`].
    pub(super) fn log_only(
        &self,
        events: &mut Vec<BattleEvent>,
        make: impl FnOnce() -> BattleEvent,
    ) {
        if !self.quiet {
            events.push(make());
        }
    }

    /// A modifier whose label `label` makes, unlabelled in a [`Space::quiet`] battle.
    pub(super) fn named(&self, value: i32, label: impl FnOnce() -> String) -> Modifier {
        if self.quiet {
            Modifier::new("", value)
        } else {
            Modifier::named(label(), value)
        }
    }

    /// A label made by `make`, or none in a [`Space::quiet`] battle.
    pub(super) fn words(&self, make: impl FnOnce() -> String) -> String {
        if self.quiet { String::new() } else { make() }
    }
}

//! The rulesets, one module each: pure resolution functions plus the systems that a battle
//! schedule runs, each behind the ruleset contract ([`crate::scenario::Ruleset`]). Each
//! ruleset cites its rule text (in ../shared/rules) in its doc comments.
//!
//! [`builtin`] is the one place that lists them.

pub mod gurps;
pub mod main_sequence;
pub mod socs;
pub mod starship_d12;
pub mod traveller_space;
pub mod vergeworlds;

#[cfg(test)]
pub(crate) mod testing;

use crate::scenario::Registry;
use std::sync::LazyLock;

/// The registry of the shipped rulesets, in the order the documentation lists them.
pub fn builtin() -> &'static Registry {
    static BUILTIN: LazyLock<Registry> = LazyLock::new(|| {
        Registry::new()
            .with::<gurps::Gurps>()
            .with::<starship_d12::StarshipD12>()
            .with::<socs::Socs>()
            .with::<main_sequence::MainSequence>()
            .with::<traveller_space::TravellerSpace>()
            .with::<vergeworlds::Vergeworlds>()
    });
    &BUILTIN
}

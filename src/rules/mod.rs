//! The rulesets, one module each: pure resolution functions plus the systems that a battle
//! schedule runs. Each ruleset cites its rule text (in ../shared/rules) in its doc comments.

pub mod gurps;
pub mod main_sequence;
pub mod socs;
pub mod starship_d12;
pub mod traveller_space;
pub mod vergeworlds;

//! Main Sequence (ruleset id `main-sequence`), from main-sequence.txt: the rules as plain
//! functions, each tested with the text's worked examples. Not yet wired into scenarios,
//! battles or the window (issue 6 builds on this).
//!
//! - [`character`]: attributes, derived stats, skills and the creation limits ("Character
//!   Creation").
//! - [`combat`]: attacks against Defense plus cover, damage plus margin minus soak, rates of
//!   fire with the stepped penalties on one roll, knockout and dying, initiative order,
//!   range bands from hex distance, parry and dodge, explosions ("Combat Actions", "Range
//!   Bands", "Rate of Fire", "Damage", "Armor and Cover", "Knockout and Death").
//! - [`ships`]: ship attributes and derived stats, lasers and torpedoes, shields and soak
//!   (rules/README.md decision 2), detection, destruction and systems failure ("Spaceships &
//!   Gear", "Ship Destruction", "Ship Detection", "Optional Rule: Systems Failure").
//! - [`chase`]: the chase table ("Chase Rules").
//! - [`gear`]: the weapons and armor tables and the ammunition they use ("Weapons, Armor &
//!   Gear", "Optional Rule: Cinematic Ammunition").
//! - [`edge`]: Edge and the AI's policy for spending it ("Using Edge").

pub mod character;
pub mod chase;
pub mod combat;
pub mod edge;
pub mod gear;
pub mod ships;

#[cfg(test)]
mod tests;

//! Skirmish: a tactical combat simulator for tabletop role-playing rules, on Bevy's ECS and
//! a hexx hex map.
//!
//! Layers, lowest first (a lower layer never uses a higher one): [`dice`], [`hexmap`],
//! [`battle`], [`rules`], [`scenario`], [`session`], [`preview`], then the command line and
//! (feature `gui`) the window.

pub mod battle;
pub mod dice;
pub mod format;
#[cfg(feature = "gui")]
pub mod gui;
pub mod hexmap;
pub mod preview;
pub mod rules;
pub mod scenario;
pub mod session;

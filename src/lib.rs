//! Skirmish: a tactical combat simulator for tabletop role-playing rules, on Bevy's ECS and
//! a hexx hex map.
//!
//! Layers, lowest first (a lower layer never uses a higher one): [`dice`], [`hexmap`],
//! [`battle`], [`rules`], [`scenario`], [`session`], [`play`] (an interactive battle that
//! records its decisions: undo, save, load, replay), [`preview`], [`editor`] (a scenario
//! being edited), [`share`] (a battle's log to share), then the command line and (feature
//! `gui`) the window.

pub mod battle;
pub mod dice;
pub mod editor;
pub mod format;
#[cfg(feature = "gui")]
pub mod gui;
pub mod hexmap;
pub mod play;
pub mod preview;
pub mod report;
pub mod rules;
pub mod scenario;
pub mod session;
pub mod share;

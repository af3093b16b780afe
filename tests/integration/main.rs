//! Every integration test in one test binary (each binary links the whole simulator and
//! its window, so one link instead of five): battles, the command line, play and saves,
//! the golden logs, scenario loading and its errors, and the conformance of every
//! registered ruleset.

mod audit;
mod battle;
mod cli;
mod compare;
mod conformance;
mod fuzz;
mod gcs;
mod golden;
mod idle;
mod play;
mod scenario;
mod table;

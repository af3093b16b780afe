//! What one battle step costs, and how much of it is the engine's own: the floor under
//! `skirmish preview` (README, "Preview speed"). For a scenario it fights the preview's
//! battles (its seeds, no log, the AI on every side) and prints:
//!
//! - the steps a battle takes (a step is one turn begun and resolved);
//! - the microseconds a step takes, the ruleset's work included (the resets between
//!   battles not);
//! - the microseconds an idle step takes: the same schedule run on a battle that is over,
//!   so that every system fetches its parameters and returns at once (what the engine
//!   costs a step whatever the rules do);
//! - the microseconds a reset takes (the preview resets one session for each battle).
//!
//! Not a test: timings depend on the machine. Run it in release mode:
//!
//! ```text
//! cargo run --release --no-default-features --example step_cost -- scenarios/gurps-skirmish-3v3.ron
//! cargo run --release --no-default-features --example step_cost -- FILE --battles 5000 --seed 1
//! ```

use clap::Parser;
use skirmish::dice::derive_seed;
use skirmish::session::{Session, SessionOptions};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The command line.
#[derive(Parser)]
#[command(about = "What a battle step costs, and the engine's share of it")]
struct Args {
    /// The scenario (a RON file).
    file: std::path::PathBuf,
    /// Battles to fight.
    #[arg(long, default_value_t = 2000)]
    battles: u64,
    /// The base seed (the preview's `--seed`).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Idle steps timed.
const IDLE_STEPS: u32 = 1_000_000;
/// Resets timed.
const RESETS: u32 = 100_000;
/// A cap on one battle's steps, far above any battle under the round limit.
const MAX_STEPS: u32 = 10_000_000;

fn main() -> ExitCode {
    let args = Args::parse();
    if args.battles == 0 {
        eprintln!("error: --battles must be at least 1");
        return ExitCode::from(2);
    }
    let prepared = match skirmish::rules::builtin().load(&args.file) {
        Ok(p) => Arc::new(p),
        Err(e) => {
            eprint!("{}", e.render(false));
            return ExitCode::from(1);
        }
    };
    let mut session = Session::new(prepared, 0, SessionOptions::PREVIEW);
    let mut steps = 0u64;
    // The steps alone: each battle's reset is timed apart, below.
    let mut fought = Duration::ZERO;
    for i in 0..args.battles {
        session.reset(derive_seed(args.seed, i));
        let began = Instant::now();
        let mut left = MAX_STEPS;
        while session.outcome().is_none() && left > 0 {
            session.step();
            steps += 1;
            left -= 1;
        }
        fought += began.elapsed();
    }
    if session.outcome().is_none() {
        eprintln!(
            "error: the last battle did not end within {MAX_STEPS} steps, so its steps are not idle"
        );
        return ExitCode::from(1);
    }
    // The last battle is over: every system now returns as soon as it looks.
    let began = Instant::now();
    for _ in 0..IDLE_STEPS {
        session.step();
    }
    let idle = began.elapsed().as_secs_f64();
    let began = Instant::now();
    for i in 0..RESETS {
        session.reset(derive_seed(args.seed, u64::from(i)));
    }
    let resets = began.elapsed().as_secs_f64();
    let per = |seconds: f64, n: f64| seconds * 1e6 / n;
    println!("{} ({} battles)", args.file.display(), args.battles);
    println!(
        "steps a battle     {:8.1}",
        steps as f64 / args.battles as f64
    );
    println!(
        "us a step          {:8.3}",
        per(fought.as_secs_f64(), steps.max(1) as f64)
    );
    println!(
        "us an idle step    {:8.3}",
        per(idle, f64::from(IDLE_STEPS))
    );
    println!("us a reset         {:8.3}", per(resets, f64::from(RESETS)));
    ExitCode::SUCCESS
}

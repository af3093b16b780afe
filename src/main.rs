//! The `skirmish` command line: open the window (default), or check, run and preview
//! scenario files and replay saved battles headless. See README.md for the reference.

use clap::{Parser, Subcommand};
use skirmish::play::Play;
use skirmish::preview::{PreviewConfig, compare, run_battles};
use skirmish::report;
use skirmish::scenario::{Prepared, ScenarioErrors};
use skirmish::session::Session;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Skirmish: a tactical combat simulator for tabletop role-playing rules.
///
/// Without a command it opens the window (the options below apply to it).
#[derive(Parser, Debug)]
#[command(name = "skirmish", version, about, long_about = None)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    window: WindowArgs,
    /// The most units a scenario may have (default 10000; at most 1000000), for a mass
    /// battle beyond the usual limit.
    #[arg(long, global = true, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=skirmish::scenario::MAX_UNITS_CEILING as i64))]
    max_units: Option<u32>,
}

/// How to open the window.
#[derive(clap::Args, Debug, Default, Clone)]
#[cfg_attr(not(feature = "gui"), allow(dead_code))]
struct WindowArgs {
    /// Scenario file to open (default: scenarios/gurps-duel.ron).
    #[arg(long, value_name = "FILE")]
    scenario: Option<PathBuf>,
    /// Saved battle to open instead of a scenario (see docs/save-format.md).
    #[arg(long, value_name = "SAVE", conflicts_with = "scenario")]
    load: Option<PathBuf>,
    /// Dice seed (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Save a PNG of the window to this path after --frames frames, then exit.
    #[arg(long, value_name = "PATH")]
    screenshot: Option<PathBuf>,
    /// Frames to render before the screenshot or the frame statistics.
    #[arg(long, default_value_t = 30)]
    frames: u32,
    /// Battle steps to play before the window opens (the AI decides for every side), to
    /// show a battle in progress.
    #[arg(long, default_value_t = 0)]
    steps: u32,
    /// Let the AI play every side, as a demonstration.
    #[arg(long)]
    autoplay: bool,
    /// Print frame-time statistics after --frames frames and exit (a benchmark; the window
    /// then draws without waiting for the display's refresh, so the times are the frames'
    /// own cost).
    #[arg(long)]
    frame_stats: bool,
    /// Click at this window position (pixels from the top left, e.g. `420,12`) before the
    /// screenshot, to show a menu open; repeat for several clicks, made in order.
    #[arg(long, value_name = "X,Y", value_parser = parse_point)]
    click: Vec<(f32, f32)>,
}

/// How `log` writes the battle.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum LogFormat {
    /// Markdown: a heading a round, nested lists; renders in forums and chats.
    Markdown,
    /// One self-contained HTML page with the map at the start and at the end.
    Html,
    /// Plain text, as `replay` prints it.
    Text,
}

/// What `balance --vary` turns.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum KnobArg {
    /// Copies of each of the side's units.
    Count,
    /// Steps of the side's main attack.
    Skill,
    /// Steps of the side's hit points (GURPS and Main Sequence NPCs: 2 HP; GURPS Traveller
    /// space and Main Sequence NPC ships: a tenth of the hull).
    Hp,
}

/// A rate from 0 to 1 for `--target`.
fn parse_rate(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| (0.0..=1.0).contains(v))
        .ok_or_else(|| format!("`{text}` is not a win rate: expected a number from 0 to 1"))
}

/// A number of battles for `--runs` of `preview` and `balance`: at least 1.
fn parse_battles(text: &str) -> Result<u64, String> {
    whole_number(
        text,
        1..=u64::MAX,
        ("battles", &format!("of 1 or more (at most {})", u64::MAX)),
    )
}

/// A number of battles of each file for `--runs` of `compare`: 2 to 1,000,000,000.
fn parse_pairs(text: &str) -> Result<u64, String> {
    whole_number(
        text,
        2..=1_000_000_000,
        ("battles to compare", "from 2 to 1000000000"),
    )
}

/// The most worker threads `--threads` takes: far more than any machine's cores (each
/// thread keeps a battle world of its own).
const MAX_THREADS: u64 = 1024;

/// A number of worker threads for `--threads`: 1 to [`MAX_THREADS`].
fn parse_threads(text: &str) -> Result<usize, String> {
    whole_number(
        text,
        1..=MAX_THREADS,
        ("worker threads", &format!("from 1 to {MAX_THREADS}")),
    )
    .map(|n| n as usize)
}

/// `text` as a whole number within `range`, or a sentence naming it a number of `what`
/// and the `bounds` expected.
fn whole_number(
    text: &str,
    range: std::ops::RangeInclusive<u64>,
    (what, bounds): (&str, &str),
) -> Result<u64, String> {
    use std::num::IntErrorKind::PosOverflow;
    let parsed = text.trim().parse::<u64>();
    // A whole number past the bounds, or too large to hold: say it is too large, not that
    // it is no number.
    let too_many = match &parsed {
        Ok(n) => n > range.end(),
        Err(e) => *e.kind() == PosOverflow,
    };
    match parsed {
        Ok(n) if range.contains(&n) => Ok(n),
        _ if too_many => Err(format!(
            "`{text}` is too many {what}: expected a whole number {bounds}"
        )),
        _ => Err(format!(
            "`{text}` is not a number of {what}: expected a whole number {bounds}"
        )),
    }
}

/// A window position `X,Y` for `--click`.
fn parse_point(text: &str) -> Result<(f32, f32), String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("`{text}` is not a position: expected X,Y (e.g. 420,12)"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| format!("`{s}` is not a pixel position: expected a number of 0 or more"))
    };
    Ok((number(x)?, number(y)?))
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Open the window (the default when no command is given).
    Gui {
        /// Scenario file to open (same as --scenario).
        file: Option<PathBuf>,
        #[command(flatten)]
        window: WindowArgs,
    },
    /// Open the scenario editor in the window: FILE (a file with problems opens to be
    /// mended), or a new scenario of a ruleset with --new (saved to FILE when given).
    Edit {
        /// Scenario file to edit (with --new: where the new one is saved).
        file: Option<PathBuf>,
        /// Start a new scenario of this ruleset: gurps, starship-d12, socs, main-sequence,
        /// traveller-space or vergeworlds.
        #[arg(long, value_name = "RULESET")]
        new: Option<String>,
        #[command(flatten)]
        window: WindowArgs,
    },
    /// Write a saved battle's log to share: Markdown, an HTML page with the map at the start
    /// and at the end, or text; every roll with its dice and modifiers, a heading a round.
    Log {
        /// Saved battle (docs/save-format.md).
        save: PathBuf,
        /// markdown (default), html or text.
        #[arg(long, value_enum, default_value_t = LogFormat::Markdown)]
        format: LogFormat,
        /// Let the AI fight on to the end after the saved decisions.
        #[arg(long)]
        finish: bool,
        /// Write to this new file instead of printing (an existing file is not replaced).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Keep the GM's rolls behind the screen: the rolls of the sides the scenario gives
        /// the AI show what they decided, not their dice.
        #[arg(long)]
        hide_gm_rolls: bool,
    },
    /// Check scenario files and report every problem with file, line and column.
    Check {
        /// Scenario files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Fight one battle headless and print its log and outcome.
    Run {
        /// Scenario file.
        file: PathBuf,
        /// Dice seed (default: from the clock; printed so the battle can be repeated).
        #[arg(long)]
        seed: Option<u64>,
        /// Print JSON (events, outcome, final state) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Replay a saved battle (its seed, recorded player decisions and table entries: dice
    /// rolled by hand, GM edits, take-overs) and print its log and state like `run`.
    Replay {
        /// Save file (RON, docs/save-format.md).
        file: PathBuf,
        /// Print JSON (events, outcome, final state) instead of text.
        #[arg(long)]
        json: bool,
        /// After the recorded decisions, let the AI play every side to the end.
        #[arg(long)]
        finish: bool,
    },
    /// Fight many battles headless and report win rates, battle length, casualties and
    /// what each combatant did.
    Preview {
        /// Scenario file.
        file: PathBuf,
        /// Number of battles (at least 1).
        #[arg(long, default_value_t = 1000, value_parser = parse_battles)]
        runs: u64,
        /// Base seed; battle i uses a seed derived from it (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads, 1 to 1024 (default: every core).
        #[arg(long, value_parser = parse_threads)]
        threads: Option<usize>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Also list every battle: its seed (for `run --seed`), outcome, rounds and each
        /// side's casualties (`battles` in the JSON).
        #[arg(long)]
        per_battle: bool,
        /// Also show who matters: for each unit, its side's win rate without it and with its
        /// main attack a step weaker and stronger, --runs battles each over the same seeds
        /// (`sensitivity` in the JSON).
        #[arg(long)]
        sensitivity: bool,
    },
    /// Fight two versions of an encounter over the same seeds and report how each side's
    /// win rate, the battle length and the casualties differ from A to B, with 95%
    /// intervals and p-values (a paired test when both share ruleset and seeds).
    Compare {
        /// The first scenario file (A).
        a: PathBuf,
        /// The second (B): the same side ids as A, any ruleset.
        b: PathBuf,
        /// Battles of each file (2 to 1,000,000,000: the paired test needs two, and each
        /// battle's result is kept for it).
        #[arg(long, default_value_t = 1000, value_parser = parse_pairs)]
        runs: u64,
        /// Base seed of both files' battles (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Another base seed for B's battles (the test is then unpaired).
        #[arg(long)]
        seed_b: Option<u64>,
        /// Worker threads, 1 to 1024 (default: every core).
        #[arg(long, value_parser = parse_threads)]
        threads: Option<usize>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Turn one knob of a side (its unit count, its main attack or its hit points) until
    /// its win rate is as near a target as the knob allows, a preview at each value over
    /// the same seeds, and write the balanced scenario with --out.
    Balance {
        /// Scenario file.
        file: PathBuf,
        /// The side to balance (its id or name).
        #[arg(long)]
        side: String,
        /// The win rate to aim at, from 0 to 1.
        #[arg(long, default_value_t = 0.5, value_parser = parse_rate, allow_negative_numbers = true)]
        target: f64,
        /// What to turn: `count` (how many of each of the side's units, 1 as written to 8), `skill`
        /// (the side's main attack, -5 to +5 steps) or `hp` (the side's hit points, -5 to
        /// +5 steps, where the ruleset has them); see the README for a step.
        #[arg(long, value_enum, default_value_t = KnobArg::Count)]
        vary: KnobArg,
        /// Battles per value (at least 1).
        #[arg(long, default_value_t = 1000, value_parser = parse_battles)]
        runs: u64,
        /// Base seed of every value's battles (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads, 1 to 1024 (default: every core).
        #[arg(long, value_parser = parse_threads)]
        threads: Option<usize>,
        /// Write the balanced scenario here (an existing file is not replaced).
        #[arg(long, value_name = "NEW.ron")]
        out: Option<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Read GURPS Character Sheet (GCS) files and print each character as a GURPS stat
    /// block for a scenario (RON), or all of them as one JSON array (docs/gcs-import.md).
    #[command(name = "import-gcs")]
    ImportGcs {
        /// GCS character files (`.gcs`, format version 5).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print one JSON array with an object per file instead of RON.
        #[arg(long)]
        json: bool,
    },
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_000)
}

fn load(path: &Path) -> Result<Prepared, ExitCode> {
    skirmish::rules::builtin()
        .load(path)
        .map_err(|e| report_errors(&e))
}

fn report_errors(e: &ScenarioErrors) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    eprint!("{}", e.render(color));
    let n = e.count();
    eprintln!("error: {n} problem{} found", if n == 1 { "" } else { "s" });
    ExitCode::from(1)
}

fn check(files: &[PathBuf]) -> ExitCode {
    let mut bad = 0;
    for f in files {
        match skirmish::rules::builtin().load(f) {
            Ok(p) => println!(
                "{}: ok ({}, {} units, {} sides, {} hexes)",
                f.display(),
                p.ruleset,
                p.units.len(),
                p.sides.len(),
                p.map.len()
            ),
            Err(e) => {
                report_errors(&e);
                bad += 1;
            }
        }
    }
    if bad > 0 {
        eprintln!("{bad} of {} files have problems", files.len());
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn run(file: &Path, seed: Option<u64>, json: bool) -> ExitCode {
    let prepared = match load(file) {
        Ok(p) => Arc::new(p),
        Err(code) => return code,
    };
    let seed = seed.unwrap_or_else(clock_seed);
    let mut session = report::run_battle(prepared, seed);
    print_battle(&mut session, file, json, serde_json::Map::new())
}

fn replay(file: &Path, json: bool, finish: bool) -> ExitCode {
    let mut play = match load_save(file) {
        Ok(play) => play,
        Err(code) => return code,
    };
    if finish {
        play.finish_by_ai();
    } else if let Some(request) = play.pending_dice() {
        eprintln!(
            "note: the battle waits for {}'s {} ({}), rolled at the table: open the save in \
             the window (skirmish --load) to enter the faces, or add --finish to let the AI \
             and the program's dice end it",
            play.session().roster().name(request.unit),
            request.dice,
            request.purpose
        );
    }
    let scenario = play.recording().scenario.clone();
    let mut extra = serde_json::Map::new();
    extra.insert("save".into(), file.display().to_string().into());
    extra.insert(
        "decisions".into(),
        serde_json::to_value(&play.recording().decisions).unwrap_or_default(),
    );
    print_battle(play.session_mut(), &scenario, json, extra)
}

/// A saved battle replayed to where it was saved, or its problems printed (exit status 1).
fn load_save(file: &Path) -> Result<Play, ExitCode> {
    Play::load(file).map_err(|e| {
        eprint!("{}", e.render(std::io::stderr().is_terminal()));
        let n = e.count();
        eprintln!("error: {n} problem{} found", if n == 1 { "" } else { "s" });
        ExitCode::from(1)
    })
}

/// `skirmish log`: the saved battle's log in `format`, printed or written to `out`.
fn share_log(
    file: &Path,
    format: LogFormat,
    finish: bool,
    out: Option<&Path>,
    hide_gm_rolls: bool,
) -> ExitCode {
    use skirmish::share::{Format, export_for_players};
    let mut play = match load_save(file) {
        Ok(play) => play,
        Err(code) => return code,
    };
    if finish {
        play.finish_by_ai();
    }
    let format = match format {
        LogFormat::Markdown => Format::Markdown,
        LogFormat::Html => Format::Html,
        LogFormat::Text => Format::Text,
    };
    let text = export_for_players(play.session_mut(), format, hide_gm_rolls);
    match out {
        None => interrupted_or(print_out(&text)),
        Some(out) => {
            let written = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(out)
                .and_then(|mut f| f.write_all(text.as_bytes()));
            match written {
                Ok(()) => {
                    eprintln!("Written to {}", out.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    let why = if out.is_dir() {
                        "it is a folder: name a file in it".to_string()
                    } else if e.kind() == std::io::ErrorKind::AlreadyExists {
                        "it exists, and log does not replace a file: name another".to_string()
                    } else {
                        e.to_string()
                    };
                    eprintln!("error: cannot write {}: {why}", out.display());
                    ExitCode::from(1)
                }
            }
        }
    }
}

/// Prints a battle as it stands, as `run` does: the sides, the log and the outcome with
/// each unit's state, or with `json` all that as JSON (with `extra` keys added).
fn print_battle(
    session: &mut Session,
    file: &Path,
    json: bool,
    extra: serde_json::Map<String, serde_json::Value>,
) -> ExitCode {
    let text = if json {
        match report::battle_json(session, file, extra) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return ExitCode::from(1);
            }
        }
    } else {
        report::battle_text(session)
    };
    print_out(&text)
}

/// Set by Ctrl-C during a preview or a comparison: the battles under way finish and the
/// report covers those fought.
static CANCEL: AtomicBool = AtomicBool::new(false);

/// Lets Ctrl-C stop the battles (a second Ctrl-C quits at once).
fn cancel_on_ctrl_c() -> &'static AtomicBool {
    let _ = ctrlc::set_handler(|| {
        if CANCEL.swap(true, std::sync::atomic::Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    &CANCEL
}

/// Worker threads: `--threads`, or every core.
fn threads_or_cores(threads: Option<usize>) -> usize {
    threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// A progress bar on stderr for `total` battles.
fn battle_bar(total: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(total),
        indicatif::ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} battles ({per_sec}, {eta} left) {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Writes `text` to stdout (a closed pipe, `skirmish run ... | head`, is no error).
fn print_out(text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write output: {e}");
            ExitCode::from(1)
        }
    }
}

/// `value` as pretty JSON with a newline.
fn json_text(value: &impl serde::Serialize) -> Result<String, ExitCode> {
    serde_json::to_string_pretty(value)
        .map(|t| t + "\n")
        .map_err(|e| {
            eprintln!("error: cannot write JSON: {e}");
            ExitCode::from(1)
        })
}

fn preview(
    file: &Path,
    runs: u64,
    seed: Option<u64>,
    threads: Option<usize>,
    (json, per_battle, sensitivity): (bool, bool, bool),
) -> ExitCode {
    let prepared = match load(file) {
        Ok(p) => Arc::new(p),
        Err(code) => return code,
    };
    let config = preview_config(runs, seed, threads);
    let bar = battle_bar(runs);
    let cancel = cancel_on_ctrl_c();
    let battles = std::sync::Mutex::new(Vec::new());
    let report = run_battles(
        prepared.clone(),
        (config, 0),
        &|session, seed| session.reset(seed),
        &|n| bar.set_position(n),
        cancel,
        &|r| {
            if per_battle && let Ok(mut v) = battles.lock() {
                v.push(r);
            }
        },
    );
    let who_matters =
        (sensitivity && !cancel.load(std::sync::atomic::Ordering::Relaxed)).then(|| {
            // The preview above, then the scenario again and three or four variants a unit.
            let variants = skirmish::preview::sensitivity::variants(&prepared.file);
            bar.set_length(runs.saturating_mul(variants + 2));
            skirmish::preview::sensitivity::sensitivity(
                &prepared,
                config,
                &|n| bar.set_position(runs + n),
                cancel,
            )
        });
    bar.finish_and_clear();
    if report.runs == 0 {
        eprintln!("{}: nothing to report", skirmish::preview::NOTHING_FOUGHT);
        return ExitCode::from(130);
    }
    let mut battles = battles.into_inner().unwrap_or_default();
    battles.sort_by_key(|r| r.index);
    let text = if json {
        let mut value = match serde_json::to_value(&report) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return ExitCode::from(1);
            }
        };
        if let Some(map) = value.as_object_mut() {
            if per_battle {
                map.insert(
                    "battles".into(),
                    serde_json::to_value(&battles).unwrap_or_default(),
                );
            }
            if let Some(w) = &who_matters {
                map.insert(
                    "sensitivity".into(),
                    serde_json::to_value(w).unwrap_or_default(),
                );
            }
        }
        match json_text(&value) {
            Ok(t) => t,
            Err(code) => return code,
        }
    } else {
        let mut text = report.to_text();
        if let Some(w) = &who_matters {
            text.push_str(&w.to_text());
        }
        if per_battle {
            text.push_str(&skirmish::preview::battle_lines(&prepared, &battles));
        }
        text
    };
    interrupted_or(print_out(&text))
}

/// 130 (as a shell reports Ctrl-C) when the battles were cancelled, else `code`.
fn interrupted_or(code: ExitCode) -> ExitCode {
    if CANCEL.load(std::sync::atomic::Ordering::Relaxed) {
        ExitCode::from(130)
    } else {
        code
    }
}

fn compare(
    a: &Path,
    b: &Path,
    runs: u64,
    (seed, seed_b): (Option<u64>, Option<u64>),
    threads: Option<usize>,
    json: bool,
) -> ExitCode {
    let (pa, pb) = match (load(a), load(b)) {
        (Ok(pa), Ok(pb)) => (Arc::new(pa), Arc::new(pb)),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    if let Some(why) = compare::mismatch(&pa, &pb) {
        eprintln!(
            "error: cannot compare {} with {}: {why}",
            a.display(),
            b.display()
        );
        return ExitCode::from(1);
    }
    let config = compare::CompareConfig {
        runs,
        seed: seed.unwrap_or_else(clock_seed),
        seed_b,
        threads: threads_or_cores(threads),
    };
    let bar = battle_bar(2 * runs);
    let cancel = cancel_on_ctrl_c();
    // Sides go by id; a side B names otherwise shows both names ("Patrol / Militia").
    let names: Vec<(String, String)> = pa
        .sides
        .iter()
        .map(|s| {
            let in_b = pb.sides.iter().find(|o| o.id == s.id).map(|o| &o.name);
            let name = match in_b {
                Some(other) if *other != s.name => format!("{} / {other}", s.name),
                _ => s.name.clone(),
            };
            (s.id.clone(), name)
        })
        .collect();
    let result = compare::compare(
        (pa, &a.display().to_string()),
        (pb, &b.display().to_string()),
        config,
        &|n| bar.set_position(n),
        cancel,
    );
    bar.finish_and_clear();
    if result.a.runs == 0 {
        eprintln!("cancelled before any pair of battles was fought to the end: nothing to report");
        return ExitCode::from(130);
    }
    let text = if json {
        match json_text(&result) {
            Ok(t) => t,
            Err(code) => return code,
        }
    } else {
        result.to_text(&names)
    };
    interrupted_or(print_out(&text))
}

/// The battles of `preview` and `balance`: `runs` of them from `seed` (the clock's when
/// none is given) on `threads` (every core when none).
fn preview_config(runs: u64, seed: Option<u64>, threads: Option<usize>) -> PreviewConfig {
    PreviewConfig {
        runs,
        seed: seed.unwrap_or_else(clock_seed),
        threads: threads_or_cores(threads),
    }
}

fn balance(
    file: &Path,
    (side, target, vary): (&str, f64, KnobArg),
    (runs, seed, threads): (u64, Option<u64>, Option<usize>),
    out: Option<PathBuf>,
    json: bool,
) -> ExitCode {
    use skirmish::preview::balance::{Knob, balance};
    let prepared = match load(file) {
        Ok(p) => Arc::new(p),
        Err(code) => return code,
    };
    if let Some(out) = &out
        && out.exists()
    {
        eprintln!(
            "error: {} exists: balance does not replace a file (name another with --out)",
            out.display()
        );
        return ExitCode::from(1);
    }
    // A file that cannot be made there (no such folder, no permission) is said now, not
    // after the search; so are the files the scenario names, which are relative to its
    // folder: written elsewhere, it would not load.
    if let Some(out) = &out
        && let Err(why) = skirmish::scenario::can_write_new(out)
            .and_then(|()| skirmish::scenario::checks_there(&prepared.file, out))
    {
        eprintln!("error: {why}");
        return ExitCode::from(1);
    }
    // The side by id, or by name.
    let side = prepared
        .sides
        .iter()
        .find(|s| s.id == side || s.name == side)
        .map_or(side.to_string(), |s| s.id.clone());
    let knob = match vary {
        KnobArg::Count => Knob::Count,
        KnobArg::Skill => Knob::Skill,
        KnobArg::Hp => Knob::Hp,
    };
    let config = preview_config(runs, seed, threads);
    let bar = battle_bar(runs);
    let cancel = cancel_on_ctrl_c();
    let result = balance(
        &prepared,
        (&side, knob, target),
        config,
        &|value, n| {
            bar.set_message(format!("value {value}"));
            bar.set_position(n);
        },
        cancel,
    );
    bar.finish_and_clear();
    let result = match result {
        Ok(r) => r,
        Err(why) if why == skirmish::preview::balance::CANCELLED => {
            eprintln!("{why}: nothing to report");
            return ExitCode::from(130);
        }
        Err(why) => {
            eprintln!("error: cannot balance {}: {why}", file.display());
            return interrupted_or(ExitCode::from(1));
        }
    };
    let cancelled = result.cancelled;
    let mut unwritten = None;
    let out = out.filter(|out| {
        if cancelled {
            eprintln!("cancelled: {} is not written", out.display());
        }
        !cancelled
    });
    if let Some(out) = &out {
        let header = format!(
            "{} balanced by `skirmish balance --side {} --target {target} --vary {}`: \
             {}, win rate {:.1}% in {} battles from seed {}",
            prepared.name,
            result.side,
            knob.name(),
            knob.amount(result.best.value),
            100.0 * result.best.win_rate.rate,
            runs,
            config.seed
        );
        // The comments of the file balanced are kept with the parts the knob left as
        // they were.
        let text = skirmish::format::read_text_file(file).ok();
        let original = text.as_deref().map(|text| skirmish::scenario::Original {
            text,
            file: &prepared.file,
        });
        let registry = skirmish::rules::builtin();
        // Should the file still fail to be written (the folder gone during the search),
        // the search's result is printed all the same, then the error.
        unwritten =
            skirmish::scenario::write_new(registry, &result.file, &header, original, out).err();
    }
    // What was written, for the report (a failed write is said below, not as a hint).
    let written = out.as_ref().filter(|_| unwritten.is_none());
    let text = if json {
        let mut value = match serde_json::to_value(&result) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return ExitCode::from(1);
            }
        };
        if let (Some(map), Some(out)) = (value.as_object_mut(), written) {
            map.insert("out".into(), out.display().to_string().into());
        }
        match json_text(&value) {
            Ok(t) => t,
            Err(code) => return code,
        }
    } else {
        let name = prepared
            .sides
            .iter()
            .find(|s| s.id == result.side)
            .map_or(result.side.as_str(), |s| s.name.as_str());
        let mut text = result.to_text(name);
        match written {
            Some(out) if result.as_written => text.push_str(&format!(
                "Written to {} (the scenario as written, with a header: no value tried came \
                 nearer)\n",
                out.display()
            )),
            Some(out) => text.push_str(&format!("Written to {}\n", out.display())),
            None if !cancelled && out.is_none() => {
                text.push_str("(--out NEW.ron writes the balanced scenario)\n");
            }
            None => {}
        }
        text
    };
    let printed = print_out(&text);
    if let Some(why) = unwritten {
        eprintln!("error: {why}");
        return ExitCode::from(1);
    }
    interrupted_or(printed)
}

/// The scenario the window opens when none is named, as shipped (used when the file is not
/// found from the working directory).
#[cfg(feature = "gui")]
const DEFAULT_SCENARIO: (&str, &str) = (
    "scenarios/gurps-duel.ron",
    include_str!("../scenarios/gurps-duel.ron"),
);

#[cfg(feature = "gui")]
fn gui(args: WindowArgs, started: std::time::Instant) -> ExitCode {
    let options = skirmish::gui::GuiOptions {
        screenshot: args.screenshot,
        frames: args.frames,
        steps: args.steps,
        frame_stats: args.frame_stats,
        autoplay: args.autoplay,
        started: Some(started),
        clicks: args.click,
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    if let Some(save) = args.load {
        return match skirmish::play::Play::load(&save) {
            Ok(play) => skirmish::gui::run_play(play, options),
            Err(e) => {
                eprint!("{}", e.render(std::io::stderr().is_terminal()));
                ExitCode::from(1)
            }
        };
    }
    let (loaded, path) = match args.scenario {
        Some(path) => (skirmish::rules::builtin().load(&path), path),
        None if Path::new(DEFAULT_SCENARIO.0).exists() => (
            skirmish::rules::builtin().load(Path::new(DEFAULT_SCENARIO.0)),
            PathBuf::from(DEFAULT_SCENARIO.0),
        ),
        None => (
            skirmish::rules::builtin().parse(DEFAULT_SCENARIO.0, DEFAULT_SCENARIO.1),
            PathBuf::from(DEFAULT_SCENARIO.0),
        ),
    };
    let prepared = match loaded {
        Ok(p) => Arc::new(p),
        Err(e) => return report_errors(&e),
    };
    skirmish::gui::run_with(prepared, path, seed, options)
}

/// `skirmish edit`: the editor on FILE, or on a new scenario of a ruleset.
fn edit(
    file: Option<PathBuf>,
    new: Option<String>,
    args: WindowArgs,
    started: std::time::Instant,
) -> ExitCode {
    use skirmish::editor::Editor;
    let registry = skirmish::rules::builtin();
    let editor = match (file, new) {
        (Some(path), None) if !path.exists() => Err(format!(
            "{} does not exist: `skirmish edit {} --new RULESET` starts a new scenario there",
            path.display(),
            path.display()
        )),
        // A file that cannot be read, or is not RON at all, is a bad file (exit 1, as for
        // `check`), not a wrong command line.
        (Some(path), None) => match Editor::open(registry, &path) {
            Ok(editor) => Ok(editor),
            // Unreadable: one line. Not RON: the located report `check` gives.
            Err(skirmish::editor::OpenError::Read(why)) => {
                eprintln!("error: {why}");
                return ExitCode::from(1);
            }
            Err(skirmish::editor::OpenError::NotRon(errors)) => return report_errors(&errors),
        },
        (Some(path), Some(_)) if path.exists() => Err(format!(
            "{} exists: leave out --new to edit it, or name a new file",
            path.display()
        )),
        (path, Some(ruleset)) => Editor::new(registry, &ruleset, path),
        (None, None) => Err(
            "name a scenario file to edit, or --new RULESET to start one (gurps, \
             starship-d12, socs, main-sequence, traveller-space, vergeworlds)"
                .into(),
        ),
    };
    let editor = match editor {
        Ok(e) => e,
        Err(why) => {
            eprintln!("error: {why}");
            return ExitCode::from(2);
        }
    };
    open_editor(editor, args, started)
}

#[cfg(feature = "gui")]
fn open_editor(
    editor: skirmish::editor::Editor,
    args: WindowArgs,
    started: std::time::Instant,
) -> ExitCode {
    let options = skirmish::gui::GuiOptions {
        screenshot: args.screenshot,
        frames: args.frames,
        steps: 0,
        frame_stats: args.frame_stats,
        autoplay: false,
        started: Some(started),
        clicks: args.click,
    };
    match skirmish::gui::run_edit(editor, options) {
        Ok(code) => code,
        Err(why) => {
            eprintln!("error: {why}");
            ExitCode::from(1)
        }
    }
}

#[cfg(not(feature = "gui"))]
fn open_editor(
    _editor: skirmish::editor::Editor,
    args: WindowArgs,
    started: std::time::Instant,
) -> ExitCode {
    gui(args, started)
}

#[cfg(not(feature = "gui"))]
fn gui(_args: WindowArgs, _started: std::time::Instant) -> ExitCode {
    eprintln!(
        "error: this build has no window (built without the `gui` feature); use `skirmish check`, `run` or `preview`, or see `skirmish --help`"
    );
    ExitCode::from(2)
}

fn import_gcs(files: &[PathBuf], json: bool) -> ExitCode {
    use skirmish::rules::gurps::{gcs, import};
    let mut read = Vec::new();
    let mut bad = 0;
    for f in files {
        let result = skirmish::format::read_text_file(f).and_then(|text| {
            gcs::read(&text).map_err(|e| {
                if e.line > 0 {
                    format!("line {}, column {}: {}", e.line, e.column, e.message)
                } else {
                    e.message
                }
            })
        });
        match result {
            Ok(c) => read.push((f, c)),
            Err(e) => {
                eprintln!("error: {}: {e}", f.display());
                bad += 1;
            }
        }
    }
    let text = if json {
        let all: Vec<gcs::GcsCharacter> = read
            .iter()
            .map(|(_, c)| gcs::GcsCharacter {
                warnings: import::checked_stats_of(c).1,
                ..c.clone()
            })
            .collect();
        match serde_json::to_string_pretty(&all) {
            Ok(t) => t + "\n",
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    } else {
        let mut out = String::new();
        for (f, c) in &read {
            match import::template_ron(&f.display().to_string(), c) {
                Ok(t) => out.push_str(&t),
                Err(e) => {
                    eprintln!("error: {}: {e}", f.display());
                    bad += 1;
                }
            }
            out.push('\n');
        }
        out
    };
    if let Err(e) = std::io::stdout().write_all(text.as_bytes())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    if bad > 0 {
        eprintln!("{bad} of {} files could not be read", files.len());
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    let cli = Cli::parse();
    if let Some(limit) = cli.max_units {
        skirmish::scenario::set_max_units(limit as usize);
    }
    match cli.command {
        None => gui(cli.window, started),
        Some(Command::Gui { file, mut window }) => {
            if window.scenario.is_none() {
                window.scenario = file;
            }
            gui(window, started)
        }
        Some(Command::Edit { file, new, window }) => edit(file, new, window, started),
        Some(Command::Log {
            save,
            format,
            finish,
            out,
            hide_gm_rolls,
        }) => share_log(&save, format, finish, out.as_deref(), hide_gm_rolls),
        Some(Command::Check { files }) => check(&files),
        Some(Command::Run { file, seed, json }) => run(&file, seed, json),
        Some(Command::Replay { file, json, finish }) => replay(&file, json, finish),
        Some(Command::Preview {
            file,
            runs,
            seed,
            threads,
            json,
            per_battle,
            sensitivity,
        }) => preview(&file, runs, seed, threads, (json, per_battle, sensitivity)),
        Some(Command::Compare {
            a,
            b,
            runs,
            seed,
            seed_b,
            threads,
            json,
        }) => compare(&a, &b, runs, (seed, seed_b), threads, json),
        Some(Command::Balance {
            file,
            side,
            target,
            vary,
            runs,
            seed,
            threads,
            out,
            json,
        }) => balance(
            &file,
            (&side, target, vary),
            (runs, seed, threads),
            out,
            json,
        ),
        Some(Command::ImportGcs { files, json }) => import_gcs(&files, json),
    }
}

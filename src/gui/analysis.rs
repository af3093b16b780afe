//! The analysis window (**Preview odds**): a preview of many headless battles from the start
//! or the current situation, **Compare** with a second scenario file or the edited variant,
//! and **Balance** of a side by a knob, with charts drawn by `egui_plot` (win rates with
//! their 95% intervals, histograms of battle length and casualties, each balance step).
//! Every run is the library's (`preview::run_preview_from`, `preview::compare::compare`,
//! `preview::balance::balance`: the numbers `skirmish preview`, `compare` and `balance`
//! print), on another thread, with a progress bar and **Cancel**; this module only asks and
//! shows.

use super::Game;
use crate::preview::balance::{Balance, Knob, balance};
use crate::preview::compare::{CompareConfig, Comparison, Estimate, compare, mismatch};
use crate::preview::sensitivity::{Outcome, Sensitivity, sensitivity, variants};
use crate::preview::{PreviewConfig, PreviewReport, Rate, run_preview_from};
use crate::scenario::Prepared;
use bevy_egui::egui;
use egui_plot::{Bar, BarChart, HLine, Legend, Line, MarkerShape, Plot, PlotPoints, Points};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The window's tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Tab {
    #[default]
    Preview,
    Compare,
    Balance,
    Matters,
}

/// A run on another thread: how far it got, its cancel flag and, once done, its result.
struct Job<T> {
    total: u64,
    done: Arc<AtomicU64>,
    cancel: Arc<AtomicBool>,
    result: Arc<Mutex<Option<Result<T, String>>>>,
    /// What it is doing now, in words (the balance's value being tried).
    doing: Arc<Mutex<String>>,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on a new thread; `work` reports the battles done and what it is doing.
    fn spawn(
        total: u64,
        work: impl FnOnce(&(dyn Fn(u64, String) + Sync), &AtomicBool) -> T + Send + 'static,
    ) -> Self {
        let job = Self {
            total: total.max(1),
            done: Arc::new(AtomicU64::new(0)),
            cancel: Arc::new(AtomicBool::new(false)),
            result: Arc::new(Mutex::new(None)),
            doing: Arc::new(Mutex::new(String::new())),
        };
        let (done, cancel, result, doing) = (
            job.done.clone(),
            job.cancel.clone(),
            job.result.clone(),
            job.doing.clone(),
        );
        std::thread::spawn(move || {
            let progress = |n: u64, what: String| {
                done.store(n, Ordering::Relaxed);
                if !what.is_empty()
                    && let Ok(mut d) = doing.lock()
                {
                    *d = what;
                }
            };
            // A run that fails (a bug) must still end the progress bar, with the reason.
            let out =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&progress, &cancel)))
                    .map_err(|e| {
                        let why = e
                            .downcast_ref::<&str>()
                            .map(|s| (*s).to_string())
                            .or_else(|| e.downcast_ref::<String>().cloned())
                            .unwrap_or_default();
                        format!("the run stopped on an internal error: {why}")
                    });
            if let Ok(mut slot) = result.lock() {
                *slot = Some(out);
            }
        });
        job
    }

    /// Draws its progress bar and Cancel; the result once it is done (or why it failed).
    fn poll(&self, ui: &mut egui::Ui) -> Option<Result<T, String>> {
        let done = self.done.load(Ordering::Relaxed).min(self.total);
        let doing = self.doing.lock().map(|d| d.clone()).unwrap_or_default();
        ui.horizontal(|ui| {
            ui.add(
                egui::ProgressBar::new(done as f32 / self.total as f32)
                    .desired_width(260.0)
                    .text(format!("{doing} {done} of {} battles", self.total)),
            );
            if ui.button("Cancel").clicked() {
                self.cancel.store(true, Ordering::Relaxed);
            }
        });
        ui.ctx().request_repaint();
        self.result.lock().ok().and_then(|mut r| r.take())
    }

    fn stop(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// What the analysis window keeps between frames.
pub struct AnalysisState {
    /// The window is open.
    pub show: bool,
    tab: Tab,
    runs: u64,
    from_now: bool,
    preview: Option<Job<PreviewReport>>,
    report: Option<PreviewReport>,
    /// Compare: B's file, or the edited variant.
    other: String,
    edited: bool,
    comparing: Option<Job<Comparison>>,
    comparison: Option<Comparison>,
    /// Balance: the side, the knob, the target and where to save.
    side: String,
    knob: Knob,
    target: f64,
    balancing: Option<Job<Result<Balance, String>>>,
    balance: Option<Result<Balance, String>>,
    out: String,
    message: String,
    /// Balance: what the last Balance or save said, and whether it failed (shown in red);
    /// kept when the file saved and opened is the battle shown (`opened`).
    saved: String,
    save_failed: bool,
    opened: Option<PathBuf>,
    /// The scenario the runs and results are of: another one clears them.
    of: Option<PathBuf>,
    /// The command line that fights the same battles as the last run of each tab
    /// (preview, compare, balance, who matters), when one does: the window's runs use the battle's
    /// dice seed, which they show.
    same_as: [Option<String>; 4],
    /// Who matters: the run, and its table.
    weighing: Option<Job<Sensitivity>>,
    weighed: Option<Sensitivity>,
    /// The dice seed of the last comparison.
    compare_seed: u64,
}

impl Default for AnalysisState {
    fn default() -> Self {
        Self {
            show: false,
            tab: Tab::Preview,
            runs: 1000,
            from_now: true,
            preview: None,
            report: None,
            other: String::new(),
            edited: false,
            comparing: None,
            comparison: None,
            side: String::new(),
            knob: Knob::Count,
            target: 0.5,
            balancing: None,
            balance: None,
            out: String::new(),
            message: String::new(),
            saved: String::new(),
            save_failed: false,
            opened: None,
            of: None,
            same_as: [None, None, None, None],
            weighing: None,
            weighed: None,
            compare_seed: 0,
        }
    }
}

/// The dice seed of the window's runs: the battle's, so that `--seed` with the same
/// number on the command line fights the same battles.
fn seed_of(game: &Game) -> u64 {
    game.play.session().seed()
}

/// Draws `job`'s progress while it runs; once it is done, clears it and returns its result
/// (or why it failed).
fn finished<T: Send + 'static>(
    job: &mut Option<Job<T>>,
    ui: &mut egui::Ui,
) -> Option<Result<T, String>> {
    let result = job.as_ref()?.poll(ui)?;
    *job = None;
    Some(result)
}

/// The tab's last message (a refusal, a failed run), in red, if there is one. (A tab's
/// code runs only while it is shown, and switching tabs clears the message.)
fn show_message(ui: &mut egui::Ui, message: &str) {
    if !message.is_empty() {
        ui.colored_label(egui::Color32::LIGHT_RED, message);
    }
}

/// True when the battle shown is its scenario file as the command line reads it: not the
/// editor's version, nor the built-in duel the window opens when no file is found.
fn on_file(game: &Game) -> bool {
    !game.editing() && game.scenario_path.is_file()
}

/// A path as a POSIX shell reads it: quoted when it holds anything but plain characters,
/// and led by `./` when it starts with `-` (which the command line would take for an
/// option).
fn shell_word(path: &std::path::Path) -> String {
    let mut text = path.display().to_string();
    if text.starts_with('-') {
        // Not to be read as an option.
        text.insert_str(0, "./");
    }
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:=@".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// The dice seed of a finished run and the command that fights the same battles, if
/// one does: selectable, so it can be copied.
fn seed_line(ui: &mut egui::Ui, seed: u64, same_as: Option<&String>) {
    match same_as {
        Some(command) => {
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("Dice seed {seed}; the same battles:"));
                ui.add(egui::Label::new(egui::RichText::new(command).monospace()).selectable(true));
            });
        }
        None => {
            ui.label(format!("Dice seed {seed}."));
        }
    }
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The analysis window, while it is open.
pub fn window(ctx: &egui::Context, game: &mut Game, state: &mut AnalysisState) {
    if !state.show {
        return;
    }
    if state.of.as_ref() != Some(&game.scenario_path) {
        // Another scenario: what was run was of the last one.
        state.stop();
        let show = state.show;
        *state = AnalysisState {
            show,
            tab: state.tab,
            runs: state.runs,
            from_now: state.from_now,
            side: state.side.clone(),
            knob: state.knob,
            target: state.target,
            other: state.other.clone(),
            // "Wrote and opened" stays with the file it opened, and only there.
            saved: if state.opened.as_ref() == Some(&game.scenario_path) {
                std::mem::take(&mut state.saved)
            } else {
                String::new()
            },
            of: Some(game.scenario_path.clone()),
            ..AnalysisState::default()
        };
    }
    let mut open = true;
    egui::Window::new("Battle preview")
        .open(&mut open)
        .default_width(520.0)
        // Tall enough for a tab's table and charts on a 720-pixel screen; scrolls beyond.
        .default_height(620.0)
        .show(ctx, |ui| {
            // A message is about the tab it was said on: another tab starts without it.
            let shown = state.tab;
            ui.horizontal(|ui| {
                ui.selectable_value(&mut state.tab, Tab::Preview, "Preview")
                    .on_hover_text("Who wins, how often and how fast (skirmish preview)");
                ui.selectable_value(&mut state.tab, Tab::Compare, "Compare")
                    .on_hover_text("This battle against another file or the edited variant, on the same dice (skirmish compare)");
                ui.selectable_value(&mut state.tab, Tab::Balance, "Balance")
                    .on_hover_text("The number of a side's units, its skill or its hit points for a win rate (skirmish balance)");
                ui.selectable_value(&mut state.tab, Tab::Matters, "Who matters")
                    .on_hover_text("Each unit's side without it, and with its main attack a step weaker and stronger (skirmish preview --sensitivity)");
                ui.separator();
                ui.label("Battles:");
                ui.add(egui::DragValue::new(&mut state.runs).range(10..=100_000));
            });
            if state.tab != shown {
                state.message.clear();
            }
            ui.separator();
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| match state.tab {
                Tab::Preview => preview_tab(ui, game, state),
                Tab::Compare => compare_tab(ui, game, state),
                Tab::Balance => balance_tab(ui, game, state),
                Tab::Matters => matters_tab(ui, game, state),
            });
        });
    if !open {
        state.stop();
        state.show = false;
    }
}

/// Who matters: for each unit, its side's win rate as written, without it and with its
/// main attack a step weaker and stronger, over the same seeds (`skirmish preview
/// --sensitivity`), the units whose removal changes most first; the scenario shown (the
/// edited version while editing), from its start.
fn matters_tab(ui: &mut egui::Ui, game: &mut Game, state: &mut AnalysisState) {
    let prepared = game.play.session().prepared().clone();
    let runs = state.runs.max(1);
    let total = runs * (1 + variants(&prepared.file));
    ui.label(format!(
        "{runs} battles for the scenario as written and for each unit's variants (without \
         it, a step weaker, a step stronger): {total} in all."
    ));
    if ui
        .add_enabled(state.weighing.is_none(), egui::Button::new("Run"))
        .clicked()
    {
        let config = PreviewConfig {
            runs,
            seed: seed_of(game),
            threads: threads(),
        };
        state.same_as[3] = on_file(game).then(|| {
            format!(
                "skirmish preview {} --sensitivity --seed {} --runs {}",
                shell_word(&game.scenario_path),
                config.seed,
                config.runs
            )
        });
        state.weighed = None;
        state.message.clear();
        let prepared = prepared.clone();
        state.weighing = Some(Job::spawn(total, move |progress, cancel| {
            sensitivity(&prepared, config, &|n| progress(n, String::new()), cancel)
        }));
    }
    match finished(&mut state.weighing, ui) {
        Some(Ok(w)) => state.weighed = Some(w),
        Some(Err(e)) => state.message = e,
        None => {}
    }
    show_message(ui, &state.message);
    let Some(w) = &state.weighed else {
        return;
    };
    if w.cancelled {
        ui.label("Cancelled: the units fought to the end are shown.");
    }
    seed_line(
        ui,
        w.seed,
        state.same_as[3].as_ref().filter(|_| !w.cancelled),
    );
    ui.label(format!(
        "The change in points from the scenario as written, bold where p < 5%{}.",
        if w.step.is_empty() {
            String::new()
        } else {
            format!("; a step is {}", w.step)
        }
    ));
    let sides = &prepared.sides;
    let cell = |ui: &mut egui::Ui, o: &Outcome| match o {
        Outcome::Fought(e) => {
            let text = egui::RichText::new(format!(
                "{:.1}% ({:+.1})",
                100.0 * e.win_rate,
                100.0 * e.change.difference
            ));
            ui.label(if e.change.significant() {
                text.strong()
            } else {
                text
            })
            .on_hover_text(format!(
                "95% interval of the change {:+.1} to {:+.1} points, p = {:.3}",
                100.0 * e.change.ci95[0],
                100.0 * e.change.ci95[1],
                e.change.p_value
            ));
        }
        Outcome::NotPossible(why) => {
            ui.label("n/a").on_hover_text(why);
        }
    };
    egui::Grid::new("matters-table")
        .striped(true)
        .show(ui, |ui| {
            for heading in [
                "unit",
                "as is",
                "without",
                "a step weaker",
                "a step stronger",
            ] {
                ui.strong(heading);
            }
            ui.end_row();
            for u in &w.units {
                let i = sides.iter().position(|s| s.id == u.side).unwrap_or(0);
                ui.colored_label(colour(sides, i), &u.name);
                ui.label(format!("{:.1}%", 100.0 * u.win_rate));
                cell(ui, &u.without);
                cell(ui, &u.weaker);
                cell(ui, &u.stronger);
                ui.end_row();
            }
        });
    let grouped: Vec<&str> = (w.units.iter())
        .filter(|u| u.out_of_group.is_some())
        .map(|u| u.name.as_str())
        .collect();
    if !grouped.is_empty() {
        ui.label(format!(
            "{} act with their template's group: their steps are measured against the unit \
             taken out of the group unchanged (skirmish preview --sensitivity shows those \
             rates).",
            grouped.join(", ")
        ));
    }
}

fn preview_tab(ui: &mut egui::Ui, game: &mut Game, state: &mut AnalysisState) {
    ui.horizontal(|ui| {
        // The editor's scenario is previewed from its start: no situation to start from.
        if !game.editing() {
            ui.checkbox(&mut state.from_now, "from the current situation");
        }
        if ui
            .add_enabled(state.preview.is_none(), egui::Button::new("Run"))
            .clicked()
        {
            start_preview(game, state);
        }
    });
    match finished(&mut state.preview, ui) {
        Some(Ok(r)) => state.report = Some(r),
        Some(Err(e)) => state.message = e,
        None => {}
    }
    show_message(ui, &state.message);
    let Some(r) = &state.report else {
        return;
    };
    ui.label(format!(
        "{} battles{} in {:.2} s",
        r.runs,
        if r.cancelled { " (cancelled)" } else { "" },
        r.seconds
    ));
    seed_line(
        ui,
        r.seed,
        state.same_as[0].as_ref().filter(|_| !r.cancelled),
    );
    let sides = &game.play.session().prepared().sides;
    let rates: Vec<(String, Rate, egui::Color32)> = r
        .sides
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.clone(), s.wins, colour(sides, i)))
        .chain([("draws".to_string(), r.draws, egui::Color32::from_gray(150))])
        .collect();
    win_rates(ui, "preview-rates", &rates);
    egui::Grid::new("preview-table")
        .striped(true)
        .show(ui, |ui| {
            for (i, side) in r.sides.iter().enumerate() {
                ui.colored_label(colour(sides, i), &side.name);
                ui.label(rate_text(side.wins));
                ui.label(format!(
                    "casualties {:.2} of {}",
                    side.casualties_mean, side.units
                ));
                ui.end_row();
            }
            ui.label("draws");
            ui.label(rate_text(r.draws));
            ui.end_row();
        });
    ui.label(format!(
        "Rounds: mean {:.1}, median {}, 90% within {}",
        r.rounds.mean, r.rounds.p50, r.rounds.p90
    ));
    histogram(
        ui,
        "preview-rounds",
        "Battle length (rounds)",
        &[(
            "battles".to_string(),
            r.rounds.histogram.clone(),
            egui::Color32::from_rgb(120, 170, 230),
        )],
    );
    let casualties: Vec<(String, Vec<u64>, egui::Color32)> = r
        .sides
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                s.name.clone(),
                s.casualties_histogram.clone(),
                colour(sides, i),
            )
        })
        .collect();
    histogram(ui, "preview-casualties", "Casualties per side", &casualties);
}

/// Starts a preview of the battle, from its start or from where it stands.
fn start_preview(game: &Game, state: &mut AnalysisState) {
    let prepared = game.play.session().prepared().clone();
    // The editor's scenario from its start (the box is not shown there).
    let start = (state.from_now && !game.editing()).then(|| game.play.recording().clone());
    if start.is_some() && game.play.session().outcome().is_some() {
        // Every battle from here would be this one, already over.
        state.report = None;
        state.message = "the battle is over: untick \"from the current situation\" to \
                         preview it from its start"
            .to_string();
        return;
    }
    state.message.clear();
    let steps = game.play.steps();
    let config = PreviewConfig {
        runs: state.runs.max(1),
        seed: seed_of(game),
        threads: threads(),
    };
    // A battle in progress, or the editor's version, is no file the command line reads.
    state.same_as[0] = (start.is_none() && on_file(game)).then(|| {
        format!(
            "skirmish preview {} --seed {} --runs {}",
            shell_word(&game.scenario_path),
            config.seed,
            config.runs
        )
    });
    state.report = None;
    state.preview = Some(Job::spawn(config.runs, move |progress, cancel| {
        let progress = |n| progress(n, String::new());
        match start {
            Some(recording) => run_preview_from(
                prepared,
                config,
                &|session, seed| crate::play::continue_from(session, &recording, steps, seed),
                &progress,
                cancel,
            ),
            None => run_preview_from(
                prepared,
                config,
                &|session, seed| session.reset(seed),
                &progress,
                cancel,
            ),
        }
    }));
}

fn compare_tab(ui: &mut egui::Ui, game: &mut Game, state: &mut AnalysisState) {
    let variant = game.edited_variant();
    ui.label(format!(
        "A: {} (as its file says)",
        game.scenario_path.display()
    ));
    ui.horizontal(|ui| {
        ui.label("B:");
        ui.add_enabled(
            !state.edited,
            egui::TextEdit::singleline(&mut state.other)
                .hint_text("scenarios/another.ron")
                .desired_width(260.0),
        );
        if variant.is_some() {
            ui.checkbox(&mut state.edited, "the edited variant");
        } else {
            state.edited = false;
        }
    });
    if ui
        .add_enabled(state.comparing.is_none(), egui::Button::new("Compare"))
        .on_hover_text(
            "Both fought on the same dice; the difference with its 95% interval and p-value",
        )
        .clicked()
    {
        state.message.clear();
        match compare_inputs(game, state, variant) {
            Ok((a, b, name_b)) => {
                let name_a = game.scenario_path.display().to_string();
                let config = CompareConfig {
                    runs: state.runs.max(1),
                    seed: seed_of(game),
                    seed_b: None,
                    threads: threads(),
                };
                state.compare_seed = config.seed;
                state.same_as[1] = (!state.edited && game.scenario_path.is_file()).then(|| {
                    format!(
                        "skirmish compare {} {} --seed {} --runs {}",
                        shell_word(&game.scenario_path),
                        shell_word(std::path::Path::new(state.other.trim())),
                        config.seed,
                        config.runs
                    )
                });
                state.comparison = None;
                state.comparing = Some(Job::spawn(2 * config.runs, move |progress, cancel| {
                    compare(
                        (a, &name_a),
                        (b, &name_b),
                        config,
                        &|n| progress(n, String::new()),
                        cancel,
                    )
                }));
            }
            Err(e) => state.message = e,
        }
    }
    show_message(ui, &state.message);
    match finished(&mut state.comparing, ui) {
        Some(Ok(c)) => state.comparison = Some(c),
        Some(Err(e)) => state.message = e,
        None => {}
    }
    let Some(c) = &state.comparison else {
        return;
    };
    ui.label(format!(
        "{} battles each{}; {}",
        c.a.runs,
        if c.cancelled { " (cancelled)" } else { "" },
        match &c.unpaired_because {
            None => "paired by seed (the same dice in A and B)".to_string(),
            Some(why) => format!("unpaired: {why}"),
        }
    ));
    seed_line(
        ui,
        state.compare_seed,
        state.same_as[1].as_ref().filter(|_| !c.cancelled),
    );
    let sides = &game.play.session().prepared().sides;
    let mut bars = Vec::new();
    egui::Grid::new("compare-table")
        .striped(true)
        .show(ui, |ui| {
            ui.label("");
            ui.label("A wins");
            ui.label("B wins");
            ui.label("B - A (95%)");
            ui.label("p");
            ui.end_row();
            for (i, side) in sides.iter().enumerate() {
                let (Some(&wa), Some(&wb), Some(d)) = (
                    c.a.wins.get(&side.id),
                    c.b.wins.get(&side.id),
                    c.difference.sides.get(&side.id),
                ) else {
                    continue;
                };
                let (ra, rb) = (Rate::wilson(wa, c.a.runs), Rate::wilson(wb, c.b.runs));
                bars.push((side.name.clone(), ra, rb, colour(sides, i)));
                let (ra, rb) = (ra.rate, rb.rate);
                ui.colored_label(colour(sides, i), &side.name);
                ui.label(format!("{:.1}%", 100.0 * ra));
                ui.label(format!("{:.1}%", 100.0 * rb));
                estimate_cells(ui, d.win_rate, &d.ci95, d.p_value, 100.0, " pts");
                ui.end_row();
            }
            ui.label("draws");
            ui.label(format!(
                "{:.1}%",
                100.0 * c.a.draws as f64 / c.a.runs.max(1) as f64
            ));
            ui.label(format!(
                "{:.1}%",
                100.0 * c.b.draws as f64 / c.b.runs.max(1) as f64
            ));
            let e: &Estimate = &c.difference.draws;
            estimate_cells(ui, e.difference, &e.ci95, e.p_value, 100.0, " pts");
            ui.end_row();
            ui.label("rounds");
            ui.label(format!("{:.2}", c.a.rounds.mean));
            ui.label(format!("{:.2}", c.b.rounds.mean));
            let e: &Estimate = &c.difference.rounds;
            estimate_cells(ui, e.difference, &e.ci95, e.p_value, 1.0, "");
            ui.end_row();
            // Fallen a battle, every side together, as `compare` counts them.
            ui.label("casualties");
            ui.label(format!("{:.2}", c.a.casualties.values().sum::<f64>()));
            ui.label(format!("{:.2}", c.b.casualties.values().sum::<f64>()));
            let e: &Estimate = &c.difference.casualties;
            estimate_cells(ui, e.difference, &e.ci95, e.p_value, 1.0, "");
            ui.end_row();
        });
    let names: Vec<String> = bars
        .iter()
        .flat_map(|b| [format!("{} A", b.0), format!("{} B", b.0), String::new()])
        .collect();
    Plot::new("compare-plot")
        .height(150.0)
        .x_axis_formatter(move |mark, _| name_at(&names, mark.value))
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(100.0)
        .y_axis_label("win rate, %")
        .show(ui, |plot| {
            for (i, (name, a, b, colour)) in bars.iter().enumerate() {
                let x = 3.0 * i as f64;
                plot.bar_chart(
                    BarChart::new(
                        format!("{name} in A, in B"),
                        vec![
                            Bar::new(x, 100.0 * a.rate)
                                .width(0.9)
                                .name(format!("{name}: A")),
                            Bar::new(x + 1.0, 100.0 * b.rate)
                                .width(0.9)
                                .name(format!("{name}: B")),
                        ],
                    )
                    .color(*colour),
                );
                for (dx, r, which) in [(0.0, a, "A"), (1.0, b, "B")] {
                    interval(plot, format!("{name} {which} 95%"), x + dx, r);
                }
            }
        });
}

/// A and B for a comparison: this battle's file as written, and B's file or the editor's
/// version; an error in words when they cannot be compared.
fn compare_inputs(
    game: &Game,
    state: &AnalysisState,
    variant: Option<Arc<Prepared>>,
) -> Result<(Arc<Prepared>, Arc<Prepared>, String), String> {
    let registry = crate::rules::builtin();
    let a = registry
        .load(&game.scenario_path)
        .map_err(|e| e.to_string())?;
    let variant_open = variant.is_some();
    let (b, name_b) = match variant.filter(|_| state.edited) {
        Some(v) => (v, "the edited variant".to_string()),
        None => {
            let path = PathBuf::from(state.other.trim());
            if state.other.trim().is_empty() {
                return Err(match variant_open {
                    true => "name B's file (or tick the edited variant)",
                    false => "name B's file",
                }
                .to_string());
            }
            // The problems as `file:line:col: message` lines (a label is no terminal).
            let b = registry.load(&path).map_err(|e| e.to_string())?;
            (Arc::new(b), path.display().to_string())
        }
    };
    if let Some(why) = mismatch(&a, &b) {
        return Err(why);
    }
    Ok((Arc::new(a), b, name_b))
}

/// A difference with its 95% interval and its p-value, both bold when p < 0.05 (as `*`
/// marks them in `skirmish compare`); `unit` after the difference (" pts": percentage
/// points).
fn estimate_cells(ui: &mut egui::Ui, d: f64, ci: &[f64; 2], p: f64, scale: f64, unit: &str) {
    let text = format!(
        "{:+.1}{unit} ({:+.1} to {:+.1})",
        scale * d,
        scale * ci[0],
        scale * ci[1]
    );
    let p_text = if p < 0.001 {
        "<0.001".to_string()
    } else {
        format!("{p:.3}")
    };
    if p < 0.05 {
        ui.strong(text);
        ui.strong(p_text);
    } else {
        ui.label(text);
        ui.label(p_text);
    }
}

fn balance_tab(ui: &mut egui::Ui, game: &mut Game, state: &mut AnalysisState) {
    let prepared = game.play.session().prepared().clone();
    if !prepared.sides.iter().any(|s| s.id == state.side)
        && let Some(first) = prepared.sides.first()
    {
        state.side = first.id.clone();
    }
    ui.horizontal(|ui| {
        ui.label("Side:");
        let shown = prepared
            .sides
            .iter()
            .find(|s| s.id == state.side)
            .map_or(state.side.clone(), |s| s.name.clone());
        egui::ComboBox::from_id_salt("balance-side")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for s in &prepared.sides {
                    ui.selectable_value(&mut state.side, s.id.clone(), &s.name);
                }
            });
        ui.label("by");
        // The knobs this ruleset can turn (skill and hit points where it says what a
        // step of them is).
        let ruleset = prepared.file.ruleset.ruleset();
        let knobs: Vec<Knob> = [Knob::Count, Knob::Skill, Knob::Hp]
            .into_iter()
            .filter(|k| k.turns_in(ruleset))
            .collect();
        if !knobs.contains(&state.knob) {
            state.knob = Knob::Count;
        }
        egui::ComboBox::from_id_salt("balance-knob")
            .selected_text(state.knob.words())
            .show_ui(ui, |ui| {
                for k in knobs {
                    ui.selectable_value(&mut state.knob, k, k.words());
                }
            });
    });
    ui.add(
        egui::Slider::new(&mut state.target, 0.05..=0.95)
            .text("win rate to aim at")
            .custom_formatter(|v, _| format!("{:.0}%", 100.0 * v)),
    )
    .on_hover_text("5% to 95% (the command line's --target takes 0 to 1)");
    if ui
        .add_enabled(state.balancing.is_none(), egui::Button::new("Balance"))
        .on_hover_text("Tries the knob a step at a time from the scenario shown (the edited version while editing)")
        .clicked()
    {
        let prepared = prepared.clone();
        let (side, knob, target) = (state.side.clone(), state.knob, state.target);
        let config = PreviewConfig {
            runs: state.runs.max(1),
            seed: seed_of(game),
            threads: threads(),
        };
        state.same_as[2] = on_file(game).then(|| {
            format!(
                "skirmish balance {} --side {} --target {} --vary {} --seed {} --runs {}",
                shell_word(&game.scenario_path),
                shell_word(std::path::Path::new(&side)),
                target,
                knob.name(),
                config.seed,
                config.runs
            )
        });
        state.balance = None;
        state.saved.clear();
        if state.out.trim().is_empty() {
            let stem = game.scenario_path.with_extension("");
            state.out = format!("{}-balanced.ron", stem.display());
        }
        state.balancing = Some(Job::spawn(config.runs, move |progress, cancel| {
            balance(
                &prepared,
                (&side, knob, target),
                config,
                &|value, n| progress(n, format!("value {value}:")),
                cancel,
            )
        }));
    }
    if let Some(result) = finished(&mut state.balancing, ui) {
        state.balance = Some(result.and_then(|r| r));
    }
    // What the last save said, also once the file written is the battle shown (which
    // clears the results).
    if !state.saved.is_empty() {
        if state.save_failed {
            ui.colored_label(egui::Color32::LIGHT_RED, &state.saved);
        } else {
            ui.label(&state.saved);
        }
    }
    let Some(result) = &state.balance else {
        return;
    };
    let b = match result {
        Ok(b) => b,
        Err(why) => {
            ui.colored_label(egui::Color32::LIGHT_RED, why);
            return;
        }
    };
    seed_line(
        ui,
        b.seed,
        state.same_as[2].as_ref().filter(|_| !b.cancelled),
    );
    let index = prepared.sides.iter().position(|s| s.id == b.side);
    let side_colour = index.map_or(egui::Color32::WHITE, |i| colour(&prepared.sides, i));
    // One step either side of the values tried, so a search that tried one value alone
    // (the scenario as written nearest, the knob at its limit) is not drawn on a wide
    // empty axis.
    let (low, high) = b.steps.iter().fold((i32::MAX, i32::MIN), |(lo, hi), s| {
        (lo.min(s.value), hi.max(s.value))
    });
    let mut plot = Plot::new("balance-plot")
        .height(170.0)
        .x_grid_spacer(whole_steps)
        .y_grid_spacer(whole_steps)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(100.0);
    if low == high {
        plot = plot
            .include_x(f64::from(low) - 1.0)
            .include_x(f64::from(high) + 1.0);
    }
    plot.x_axis_label(match b.step {
        Some(step) if !step.is_empty() => format!("{} (a step is {step})", b.knob.words()),
        _ => b.knob.words().to_string(),
    })
    .y_axis_label("win rate, %")
    .show(ui, |plot| {
        plot.hline(HLine::new("target", 100.0 * b.target).color(egui::Color32::from_gray(160)));
        // Each interval as a bar wider than the grid line it stands on.
        for step in &b.steps {
            let x = f64::from(step.value);
            plot.line(
                Line::new(
                    format!("{} interval", step.value),
                    PlotPoints::from(vec![
                        [x, 100.0 * step.win_rate.low],
                        [x, 100.0 * step.win_rate.high],
                    ]),
                )
                .color(side_colour.gamma_multiply(0.8))
                .width(4.0),
            );
        }
        let points: Vec<[f64; 2]> = b
            .steps
            .iter()
            .map(|s| [f64::from(s.value), 100.0 * s.win_rate.rate])
            .collect();
        plot.points(
            Points::new("win rate", PlotPoints::from(points))
                .radius(3.0)
                .color(egui::Color32::WHITE),
        );
        let nearest = [f64::from(b.best.value), 100.0 * b.best.win_rate.rate];
        plot.points(
            Points::new("nearest", PlotPoints::from(vec![nearest]))
                .shape(MarkerShape::Diamond)
                .filled(false)
                .radius(8.0)
                .color(egui::Color32::YELLOW),
        );
    });
    for step in &b.steps {
        let best = step.value == b.best.value;
        let mut text = format!("{:>3}: {}", step.value, rate_text(step.win_rate));
        if step.battles < b.runs {
            text.push_str(&format!("  ({} battles: cancelled)", step.battles));
        }
        if best {
            ui.label(
                egui::RichText::new(format!("{text}  (nearest)"))
                    .monospace()
                    .strong(),
            );
        } else {
            ui.monospace(text);
        }
    }
    if let Some(why) = &b.stopped {
        ui.label(format!("Stopped: {why}"));
    }
    if let Some(note) = &b.note {
        ui.label(note);
    }
    // A search cut short is not a balanced scenario (as `balance --out` writes none).
    if b.cancelled {
        ui.label("Cancelled: Balance again to finish the search before saving.");
        return;
    }
    ui.horizontal(|ui| {
        ui.label("Save as");
        ui.add(
            egui::TextEdit::singleline(&mut state.out)
                .hint_text("scenarios/balanced.ron")
                // As wide as the window leaves beside the button: a path is long.
                .desired_width((ui.available_width() - 120.0).max(160.0)),
        );
        if ui
            .button("Save and open")
            .on_hover_text("Writes the balanced scenario (a new file) and opens it")
            .clicked()
        {
            let out = PathBuf::from(state.out.trim());
            if state.out.trim().is_empty() {
                state.saved = "name the file to write".to_string();
                state.save_failed = true;
                return;
            }
            let header = format!(
                "{} balanced in the window: {} for {:.0}%, win rate {:.1}% in {} battles",
                prepared.name,
                b.knob.amount(b.best.value),
                100.0 * b.target,
                100.0 * b.best.win_rate.rate,
                b.runs
            );
            // The file on disk keeps its comments where the balanced one is unchanged, when
            // it is what was balanced (not while an edit differs from it).
            let editing = game.editing();
            let text = (!editing)
                .then(|| crate::format::read_text_file(&game.scenario_path).ok())
                .flatten();
            let original = text.as_deref().map(|text| crate::scenario::Original {
                text,
                file: &prepared.file,
            });
            let registry = crate::rules::builtin();
            state.save_failed = true;
            state.saved =
                match crate::scenario::write_new(registry, &b.file, &header, original, &out) {
                    Ok(()) if editing => {
                        state.save_failed = false;
                        format!(
                            "wrote {} (the edit stays open; Scenario opens the file)",
                            out.display()
                        )
                    }
                    Ok(()) => match registry.load(&out) {
                        Ok(p) => {
                            let seed = game.play.session().seed();
                            let play = crate::play::Play::new(Arc::new(p), out.clone(), seed);
                            game.replace(play, out.clone());
                            state.save_failed = false;
                            state.opened = Some(out.clone());
                            format!(
                                "wrote and opened {}: its battle is the one shown now",
                                out.display()
                            )
                        }
                        Err(e) => e.render(false),
                    },
                    Err(e) => e,
                };
        }
    });
}

/// The name of the bar at `x` (bars stand at whole numbers), or nothing between bars.
fn name_at(names: &[String], x: f64) -> String {
    if x.fract() != 0.0 || x < 0.0 {
        return String::new();
    }
    names.get(x as usize).cloned().unwrap_or_default()
}

fn rate_text(rate: Rate) -> String {
    format!(
        "{:.1}% ({:.1}% to {:.1}%)",
        100.0 * rate.rate,
        100.0 * rate.low,
        100.0 * rate.high
    )
}

fn colour(sides: &[crate::battle::SideInfo], i: usize) -> egui::Color32 {
    let c = super::side_colour(sides, i).to_srgba();
    egui::Color32::from_rgb(
        (c.red * 255.0) as u8,
        (c.green * 255.0) as u8,
        (c.blue * 255.0) as u8,
    )
}

/// Win rates as bars with their 95% intervals.
fn win_rates(ui: &mut egui::Ui, id: &str, rates: &[(String, Rate, egui::Color32)]) {
    let names: Vec<String> = rates.iter().map(|r| r.0.clone()).collect();
    Plot::new(id)
        .height(120.0)
        .x_axis_formatter(move |mark, _| name_at(&names, mark.value))
        .y_grid_spacer(whole_steps)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(100.0)
        .y_axis_label("wins, %")
        .show(ui, |plot| {
            for (i, (name, rate, colour)) in rates.iter().enumerate() {
                let x = i as f64;
                plot.bar_chart(
                    BarChart::new(
                        name.clone(),
                        vec![Bar::new(x, 100.0 * rate.rate).width(0.7).name(name)],
                    )
                    .color(*colour),
                );
                interval(plot, format!("{name} 95%"), x, rate);
            }
        });
}

/// A 95% interval drawn over the bar at `x`: a bar of its own, narrow and light, with
/// caps, so that it stands out from the grid line at `x` it would otherwise lie on.
fn interval(plot: &mut egui_plot::PlotUi, name: String, x: f64, rate: &Rate) {
    let (low, high) = (100.0 * rate.low, 100.0 * rate.high);
    let ink = egui::Color32::from_rgb(250, 230, 120);
    plot.line(
        Line::new(name.clone(), PlotPoints::from(vec![[x, low], [x, high]]))
            .color(ink)
            .width(3.0),
    );
    for y in [low, high] {
        plot.line(
            Line::new(
                format!("{name} cap {y}"),
                PlotPoints::from(vec![[x - 0.15, y], [x + 0.15, y]]),
            )
            .color(ink)
            .width(2.0),
        );
    }
}

/// Grid lines at whole numbers only, the finest 1, 2 or 5 times a power of ten apart and
/// at least the plot's least step, the coarser each a multiple of the finer (1, 5, 10;
/// 2, 10, 20; 5, 10, 50), so that the labels a plot has room for never crowd each other
/// (`egui_plot`'s default of powers of ten labels a narrow plot's axis at 0 alone: 10
/// rounds apart were too close for a label, 100 beyond it).
fn whole_steps(input: egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    // Never more marks than this (a plot's bounds are a few hundred at most here).
    const MOST: i64 = 1000;
    let (lo, hi) = input.bounds;
    if !(lo.is_finite() && hi.is_finite() && input.base_step_size.is_finite()) || hi < lo {
        return Vec::new();
    }
    let fine = round_up(input.base_step_size.ceil().clamp(1.0, 1e15) as u64) as i64;
    let mid = fine
        * if fine.to_string().starts_with('5') {
            2
        } else {
            5
        };
    let coarse = fine * 10;
    let first = (lo / fine as f64).ceil() as i64;
    let last = ((hi / fine as f64).floor() as i64).min(first.saturating_add(MOST));
    (first..=last)
        .filter_map(|k| {
            let v = k.checked_mul(fine)?;
            let step = [coarse, mid, fine]
                .into_iter()
                .find(|&s| v % s == 0)
                .unwrap_or(fine);
            Some(egui_plot::GridMark {
                value: v as f64,
                step_size: step as f64,
            })
        })
        .collect()
}

/// The top of a histogram's count axis: above the tallest bar `most` by `headroom` of it
/// (room for a legend over the bars), up to a whole number of a round step (about an
/// eighth of it, 1, 2 or 5 times a power of ten), so that the axis ends on a labelled
/// count without much empty space.
fn axis_top(most: u64, headroom: f64) -> u64 {
    let want = (most as f64 * (1.0 + headroom)).ceil().max(1.0) as u64;
    let step = round_up(want.div_ceil(8));
    want.div_ceil(step).saturating_mul(step)
}

/// The least of 1, 2 or 5 times a power of ten that is at least `n` (1 for 0).
fn round_up(n: u64) -> u64 {
    let mut step = 1u64;
    loop {
        for k in [1, 2, 5] {
            let round = step.saturating_mul(k);
            if round >= n {
                return round;
            }
        }
        step = step.saturating_mul(10);
    }
}

/// Histograms of counts from 0 up, one series a colour, side by side (named in a legend
/// when there are several).
fn histogram(
    ui: &mut egui::Ui,
    id: &str,
    title: &str,
    series: &[(String, Vec<u64>, egui::Color32)],
) {
    ui.label(title);
    let n = series.len().max(1) as f64;
    let most = series
        .iter()
        .flat_map(|s| s.1.iter().copied())
        .max()
        .unwrap_or(0);
    let legend = series.len() > 1;
    // A legend line more for each side beyond two makes the plot taller by about a line's
    // share, so that the legend keeps the same part of it as with two (and the headroom
    // below keeps the bars clear of it, however many sides there are).
    let extra_sides = series.len().saturating_sub(2) as f32;
    let mut plot = Plot::new(id)
        .height(115.0 + 40.0 * extra_sides)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .x_grid_spacer(whole_steps)
        .y_grid_spacer(whole_steps)
        .custom_x_axes(vec![
            egui_plot::AxisHints::new_x().label_spacing(24.0..=36.0),
        ])
        .include_y(0.0)
        // Up to a round count, with room above the bars for the legend when there is one:
        // it takes a little under half the plot between its axes (above, however many
        // sides), so the bars keep under the rest (with 0.7 of headroom, socs-dogfight's
        // tallest casualty bar sat under the legend).
        .include_y(axis_top(most, if legend { 1.1 } else { 0.0 }) as f64)
        .y_axis_label("battles");
    if legend {
        // The sides in their order, as everywhere else in the window.
        plot = plot.legend(Legend::default().follow_insertion_order(true));
    }
    plot.show(ui, |plot| {
        for (k, (name, counts, colour)) in series.iter().enumerate() {
            let bars = counts
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    Bar::new(i as f64 + (k as f64 - (n - 1.0) / 2.0) / n, c as f64).width(0.9 / n)
                })
                .collect();
            plot.bar_chart(BarChart::new(name.clone(), bars).color(*colour));
        }
    });
}

impl AnalysisState {
    /// Stops whatever runs (the window is closing).
    fn stop(&self) {
        if let Some(j) = &self.preview {
            j.stop();
        }
        if let Some(j) = &self.comparing {
            j.stop();
        }
        if let Some(j) = &self.balancing {
            j.stop();
        }
        if let Some(j) = &self.weighing {
            j.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{axis_top, name_at, round_up, shell_word, whole_steps};
    use std::path::Path;

    /// The command a run shows reads its file back in a shell: plain paths as they are,
    /// others quoted, a quote in them escaped.
    #[test]
    fn paths_are_quoted_for_the_shell_when_they_must_be() {
        assert_eq!(
            shell_word(Path::new("scenarios/gurps-duel.ron")),
            "scenarios/gurps-duel.ron"
        );
        assert_eq!(
            shell_word(Path::new("my battles/a.ron")),
            "'my battles/a.ron'"
        );
        assert_eq!(shell_word(Path::new("it's.ron")), "'it'\\''s.ron'");
        assert_eq!(shell_word(Path::new("")), "''");
        assert_eq!(shell_word(Path::new("-odd.ron")), "./-odd.ron");
    }

    /// A histogram's axis reaches a round count (1, 2 or 5 times a power of ten) at or
    /// above its tallest bar.
    #[test]
    fn counts_round_up_to_one_two_or_five_times_a_power_of_ten() {
        for (n, up) in [
            (0, 1),
            (1, 1),
            (3, 5),
            (7, 10),
            (95, 100),
            (101, 200),
            (420, 500),
        ] {
            assert_eq!(round_up(n), up, "{n}");
        }
        assert_eq!(round_up(u64::MAX), u64::MAX);
    }

    /// A histogram's count axis ends on a round count just above the tallest bar (270 on
    /// 0 to 300, not 500; 1,050 on 0 to 1,200, not 2,000), with room for a legend when
    /// asked (3 with 45% more: 0 to 5).
    #[test]
    fn a_count_axis_ends_just_above_the_tallest_bar() {
        for (most, headroom, top) in [
            (270, 0.0, 300),
            (1050, 0.0, 1200),
            (3, 0.0, 3),
            (0, 0.0, 1),
            (3, 0.45, 5),
            (270, 0.45, 400),
        ] {
            assert_eq!(axis_top(most, headroom), top, "{most} {headroom}");
        }
    }

    /// Grid marks stand at whole numbers only, the finest step at least the plot's least
    /// (2.3 rounds: every 5), each mark with the coarsest of 5, 10 and 50 it is a multiple
    /// of, so that a narrow plot of 0 to 78 rounds is labelled every 10 (the default powers
    /// of ten labelled only 0), and labels of one step never fall between those of another
    /// (with 2, 5 and 10, 4, 5 and 6 crowded each other).
    #[test]
    fn grid_marks_stand_at_whole_numbers() {
        let marks = whole_steps(egui_plot::GridInput {
            bounds: (-0.5, 78.5),
            base_step_size: 2.3,
        });
        let values: Vec<f64> = marks.iter().map(|m| m.value).collect();
        assert_eq!(values, (0..=15).map(|k| 5.0 * k as f64).collect::<Vec<_>>());
        let step = |v: f64| marks.iter().find(|m| m.value == v).map(|m| m.step_size);
        assert_eq!(
            (step(5.0), step(10.0), step(40.0), step(50.0)),
            (Some(5.0), Some(10.0), Some(10.0), Some(50.0))
        );
        // Finest 2: the others 10 and 20.
        let twos = whole_steps(egui_plot::GridInput {
            bounds: (0.0, 40.0),
            base_step_size: 1.5,
        });
        let sizes: Vec<f64> = twos.iter().map(|m| m.step_size).collect();
        assert_eq!(sizes[..6], [20.0, 2.0, 2.0, 2.0, 2.0, 10.0]);
        // A fraction of a round is never a mark.
        let fine = whole_steps(egui_plot::GridInput {
            bounds: (0.0, 3.0),
            base_step_size: 0.01,
        });
        assert_eq!(
            fine.iter().map(|m| m.value).collect::<Vec<_>>(),
            [0.0, 1.0, 2.0, 3.0]
        );
        // Bounds no plot here has still give a bounded list, or none.
        for (bounds, base) in [
            ((f64::NEG_INFINITY, 1.0), 1.0),
            ((0.0, f64::NAN), 1.0),
            ((5.0, 1.0), 1.0),
            ((0.0, 1.0), f64::INFINITY),
            ((-1e300, 1e300), 0.5),
        ] {
            let marks = whole_steps(egui_plot::GridInput {
                bounds,
                base_step_size: base,
            });
            assert!(marks.len() <= 1001, "{bounds:?} {base}");
        }
    }

    /// A bar's name stands under its bar (whole numbers) and nowhere else.
    #[test]
    fn bars_are_named_at_whole_numbers() {
        let names = vec!["Patrol".to_string(), "Raiders".to_string()];
        assert_eq!(name_at(&names, 1.0), "Raiders");
        assert_eq!(name_at(&names, 0.5), "");
        assert_eq!(name_at(&names, -1.0), "");
        assert_eq!(name_at(&names, 7.0), "");
    }
}

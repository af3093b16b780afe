//! The desktop window (cargo feature `gui`): the hex map with terrain, unit tokens and
//! overlays (module `map`), and egui panels (module `panels`) for the turn tracker, unit
//! sheets, the actions of the unit whose turn it is with an odds preview, the combat log
//! with every roll, battle previews, and the scenario menu (open, restart, save, load,
//! undo, replay).
//!
//! The battle lives in a [`Play`] kept in the [`Game`] resource: the window draws what its
//! world holds, sends the player's decisions to it and steps it for the AI at a watchable
//! pace. Nothing here decides a rule: actions are checked by the ruleset's `plan`, odds
//! come from the ruleset's odds code, the AI is the ruleset's policy.

mod analysis;
mod direct;
pub mod draft;
mod edit;
mod gurps;
mod layout;
mod map;
mod ms;
mod panels;
mod ruleset;
mod shading;
mod ships;
mod space;
mod space_map;
mod table;
mod verge;

use crate::battle::{TurnState, UnitId};
use crate::play::{Advance, Play};
use crate::scenario::Prepared;
use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::WindowResolution;
use bevy_egui::{EguiPlugin, EguiPrimaryContextPass, egui};
use hexx::Hex;
use map::{AnimationCursor, MapViewport, Pointer, Token};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// How the window is opened.
#[derive(Clone, Debug, Default)]
pub struct GuiOptions {
    /// Save a PNG of the window after `frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    /// Frames to render before the screenshot (or before exiting with `frame_stats`).
    pub frames: u32,
    /// Battle steps to play before the window opens (to show a battle in progress).
    pub steps: u32,
    /// Print frame-time statistics after `frames` frames and exit (a benchmark).
    pub frame_stats: bool,
    /// Let the AI play every side, as a demonstration.
    pub autoplay: bool,
    /// When the process started, for the time to the first drawn frame.
    pub started: Option<Instant>,
    /// Left clicks to make at these window positions (pixels from the top left), one
    /// every few frames from the tenth, before the screenshot: to show a menu open in
    /// a documentation screenshot.
    pub clicks: Vec<(f32, f32)>,
}

/// Whether the fog of sheets (`fog`) hides a unit of `side` from `viewer`, the player's
/// side at the table: only when both are known and differ.
fn hidden(fog: bool, viewer: Option<u8>, side: u8) -> bool {
    fog && viewer.is_some_and(|v| v != side)
}

/// Side `side`'s colour: the scenario's, or [`crate::battle::SIDE_PALETTE`]'s by its place
/// in the list.
pub fn side_colour(sides: &[crate::battle::SideInfo], side: usize) -> Color {
    colour_for(sides.get(side).and_then(|s| s.colour), side)
}

/// `colour` (red, green, blue), or the colour of the `index`-th side when it is `None`.
pub fn colour_for(colour: Option<(u8, u8, u8)>, index: usize) -> Color {
    let palette = crate::battle::SIDE_PALETTE;
    let (r, g, b) = colour.unwrap_or(palette[index % palette.len()]);
    Color::srgb_u8(r, g, b)
}

/// Which overlays are on.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Toggles {
    /// Hex coordinates.
    pub coordinates: bool,
    /// Reachable hexes of the acting unit.
    pub reachable: bool,
    /// Range rings of the selected unit's first weapon.
    pub ranges: bool,
    /// Every unit's name over its token that fits without covering another
    /// (the map's `show_names`); off, only the selected, the acting and the pointed-at unit's.
    pub names: bool,
}

impl Default for Toggles {
    fn default() -> Self {
        Self {
            coordinates: false,
            reachable: true,
            ranges: true,
            names: true,
        }
    }
}

/// The battle in the window and everything the player is doing with it.
#[derive(Resource)]
pub struct Game {
    /// The battle.
    pub play: Play,
    /// The scenario file it came from.
    pub scenario_path: PathBuf,
    /// The map and tokens must be drawn again (another scenario).
    pub rebuild: bool,
    /// AI turns play on by themselves.
    pub playing: bool,
    /// AI steps per second.
    pub speed: f32,
    since_step: f32,
    /// Play one AI step now.
    pub step_once: bool,
    /// Let the AI play the player's sides too (a demonstration).
    pub autoplay: bool,
    /// The unit whose sheet is shown.
    pub selected: Option<UnitId>,
    /// The last thing said to the player.
    pub status: String,
    /// An error to show in a window (bad file...).
    pub error: Option<String>,
    /// What the player is putting together in the ruleset's panels, of the type the
    /// ruleset's window keeps ([`Game::draft_mut`]): the shell holds it without knowing it.
    draft: Box<dyn std::any::Any + Send + Sync>,
    /// The scenario editor, while the window edits (`skirmish edit`, **Edit**).
    edit: Option<edit::EditState>,
    /// The edit set aside by Play, which Edit takes up again (unsaved changes and undo
    /// history included) while the battle is of its scenario.
    paused_edit: Option<edit::EditState>,
    /// Keep the camera where it is at the next redraw (an edit, not another scenario).
    pub keep_camera: bool,
    /// Hot seat: the sheets and states of sides other than the one deciding are hidden
    /// (View menu, "Fog of sheets").
    pub fog_of_sheets: bool,
    /// The side that decided last (or decides now), whose sheets the fog leaves open.
    pub viewer: Option<u8>,
}

impl Game {
    /// A game of `play`, from `path`.
    pub fn new(play: Play, path: PathBuf) -> Self {
        Self {
            play,
            scenario_path: path,
            rebuild: true,
            playing: true,
            speed: 3.0,
            since_step: 0.0,
            step_once: false,
            autoplay: false,
            selected: None,
            status: String::new(),
            error: None,
            draft: Box::new(()),
            edit: None,
            paused_edit: None,
            keep_camera: false,
            fog_of_sheets: false,
            viewer: None,
        }
    }

    /// True when the fog of sheets hides units of `side` now: the fog is on and a player's
    /// side other than `side` is the one at the table.
    pub fn hides(&self, side: u8) -> bool {
        hidden(self.fog_of_sheets, self.viewer, side)
    }

    /// Starts editing the scenario the window shows (its file as written), or says why it
    /// cannot.
    pub fn start_editing(&mut self) {
        if let Some(paused) = self.paused_edit.take()
            && paused.shown_path() == self.scenario_path
        {
            self.playing = false;
            self.edit = Some(paused);
            edit::sync(self);
            return;
        }
        match crate::editor::Editor::open(crate::rules::builtin(), &self.scenario_path) {
            Ok(editor) => {
                self.playing = false;
                self.edit = Some(edit::EditState::new(editor));
                edit::sync(self);
            }
            Err(why) => self.error = Some(why.render(false)),
        }
    }

    /// The window is editing a scenario.
    pub fn editing(&self) -> bool {
        self.edit.is_some()
    }

    /// Replaces the battle (another scenario, a loaded save) and redraws.
    pub fn replace(&mut self, play: Play, path: PathBuf) {
        self.play = play;
        self.scenario_path = path;
        self.rebuild = true;
        self.forget_draft();
        self.selected = None;
        // Another battle: nobody is at the table yet, and an edit set aside is not its.
        self.viewer = None;
        self.paused_edit = None;
    }

    /// Drops what the player was putting together, and everything computed from it.
    pub fn forget_draft(&mut self) {
        self.draft = Box::new(());
    }

    /// The ruleset window's draft, of the window's own type `T`: a fresh one when none is
    /// kept yet (or the one kept is another window's, after another scenario was opened).
    pub fn draft_mut<T: Default + Send + Sync + 'static>(&mut self) -> &mut T {
        if !self.draft.is::<T>() {
            self.draft = Box::new(T::default());
        }
        match self.draft.downcast_mut::<T>() {
            Some(draft) => draft,
            None => unreachable!("the draft was just made a {}", std::any::type_name::<T>()),
        }
    }

    /// The ruleset window's draft, if one of type `T` is kept.
    pub fn draft<T: 'static>(&self) -> Option<&T> {
        self.draft.downcast_ref::<T>()
    }

    /// Takes back the last decision.
    pub fn undo(&mut self) {
        if self.play.undo() {
            self.status = "took back the last decision".into();
        } else {
            self.status = "nothing to undo".into();
        }
        self.forget_draft();
    }

    /// The scenario as the editor has it now (being edited, or set aside by Play), checked;
    /// `None` without an edit, or while it has problems.
    pub fn edited_variant(&self) -> Option<Arc<Prepared>> {
        self.edit
            .as_ref()
            .or(self.paused_edit.as_ref())
            .and_then(|e| e.editor.shown())
    }

    fn log_len(&self) -> usize {
        self.play.session().log().entries.len()
    }
}

/// Frame times for `--frame-stats`.
#[derive(Resource, Default)]
struct FrameStats {
    enabled: bool,
    times: Vec<f32>,
    first_frame: Option<f64>,
    started: Option<Instant>,
}

#[derive(Resource, Default)]
struct ScreenshotPlan {
    path: Option<PathBuf>,
    frames: u32,
    frame: u32,
    taken_at: Option<u32>,
    clicks: Vec<(f32, f32)>,
}

/// Frames between the scripted clicks of [`GuiOptions::clicks`].
const CLICK_EVERY: u32 = 6;

/// Makes the scripted clicks of [`GuiOptions::clicks`]: for click `k`, the pointer moves
/// there at frame 10 + 6k, presses the next frame and releases the one after.
fn scripted_clicks(
    plan: Res<ScreenshotPlan>,
    contexts: Query<Entity, With<bevy_egui::PrimaryEguiContext>>,
    mut input: MessageWriter<bevy_egui::input::EguiInputEvent>,
) {
    let Some(frame) = plan.frame.checked_sub(10) else {
        return;
    };
    let Some(&(x, y)) = plan.clicks.get((frame / CLICK_EVERY) as usize) else {
        return;
    };
    let Ok(context) = contexts.single() else {
        return;
    };
    let pos = egui::pos2(x, y);
    let event = match frame % CLICK_EVERY {
        0 => egui::Event::PointerMoved(pos),
        1 | 2 => egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed: frame % CLICK_EVERY == 1,
            modifiers: egui::Modifiers::NONE,
        },
        _ => return,
    };
    input.write(bevy_egui::input::EguiInputEvent { context, event });
}

/// Opens the window on `prepared` and runs until it is closed.
pub fn run(prepared: Arc<Prepared>, path: PathBuf, seed: u64) -> ExitCode {
    run_with(prepared, path, seed, GuiOptions::default())
}

/// Opens the window with `options` (e.g. to take a screenshot and exit).
pub fn run_with(
    prepared: Arc<Prepared>,
    path: PathBuf,
    seed: u64,
    options: GuiOptions,
) -> ExitCode {
    let mut play = Play::new(prepared, path, seed);
    for _ in 0..options.steps {
        if play.awaiting_player().is_some() {
            // The AI decides for the player too; the decision is recorded like any other.
            if play.decide_by_ai().is_err() {
                break;
            }
        } else if matches!(play.advance(), Advance::Over(_) | Advance::ReplayFailed(_)) {
            break;
        }
    }
    run_play(play, options)
}

/// Makes glibc's malloc keep freed memory for reuse (README, "Window speed"): up to
/// 16 MiB above the top of each arena instead of 128 KiB, no trimming below 512 MiB, and
/// blocks under 32 MiB from the heap rather than from their own mappings (setting the
/// first two turns off glibc's sliding mapping threshold, so the third sets it).
/// Software Vulkan allocates and frees megabytes on its threads every frame; by default
/// glibc handed that memory back to the system after each frame and the next frame paid
/// page faults to touch it again: about 3,300 faults a frame with 200 fighters, a third
/// of the frame time (measured A/B; peak memory grew by 2 MB).
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `mallopt` only sets tuning parameters of glibc's allocator, these three
        // accept any non-negative value, and it takes the allocator's lock itself.
        let set = unsafe {
            libc::mallopt(libc::M_TOP_PAD, 16 << 20)
                & libc::mallopt(libc::M_TRIM_THRESHOLD, 512 << 20)
                & libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20)
        };
        if set != 1 {
            eprintln!("skirmish: could not tune malloc; frames may be slower");
        }
    }
}

/// Runs every schedule of the app and of its render world with Bevy's single-threaded
/// executor (README, "Window speed"). The systems of this app are small; spreading them
/// over the task pool's threads cost more in wake-ups than it saved, on a machine whose two
/// cores are busy with software rendering (brawl under Xvfb, three A/B pairs: mean frame
/// 15.7-16.2 ms → 12.2-14.1 ms). The app and the render world still run side by side
/// (pipelined rendering), and Bevy's parallel queries still use the pool. Add it last: its
/// `finish` sets the executors once every other plugin has added its schedules, before
/// pipelined rendering moves the render world to its own thread.
///
/// Two of Bevy's settings are kept: the extraction leaves its commands unapplied (the
/// render thread applies them, so the app waits less), and on macOS and iOS the render
/// world keeps its executor, which runs the window's surface set-up on the main thread.
struct SchedulesOnOneThread;

impl Plugin for SchedulesOnOneThread {
    fn build(&self, _app: &mut App) {}

    fn finish(&self, app: &mut App) {
        use bevy::ecs::schedule::{ScheduleLabel, Schedules, SingleThreadedExecutor};
        fn one_thread(world: &mut World) {
            let Some(mut schedules) = world.get_resource_mut::<Schedules>() else {
                return;
            };
            let extract = bevy::render::ExtractSchedule.intern();
            for (_, schedule) in schedules.iter_mut() {
                schedule.set_executor(SingleThreadedExecutor::new());
                if schedule.label() == extract {
                    schedule.set_apply_final_deferred(false);
                }
            }
        }
        one_thread(app.world_mut());
        #[cfg(not(any(target_os = "macos", target_os = "ios")))]
        if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
            one_thread(render.world_mut());
        }
    }
}

/// Opens the window on a battle already under way (e.g. a loaded save).
pub fn run_play(play: Play, options: GuiOptions) -> ExitCode {
    let path = play.scenario_file().to_path_buf();
    let mut game = Game::new(play, path);
    game.autoplay = options.autoplay;
    // A screenshot shows the battle as `--steps` left it: the AI waits (paused) however
    // many frames are drawn and clicks made first. Before, it went on at its pace for as
    // long as the frames took, so the picture depended on the machine's speed.
    if options.screenshot.is_some() && !options.frame_stats {
        game.playing = false;
    }
    run_game(game, options)
}

/// Opens the window as the scenario editor on `editor` (`skirmish edit`). A scenario with
/// problems shows on the map without the units that have them ([`Editor::shown`]), or,
/// when even that does not check, as its ruleset's new scenario until it does.
///
/// [`Editor::shown`]: crate::editor::Editor::shown
pub fn run_edit(editor: crate::editor::Editor, options: GuiOptions) -> Result<ExitCode, String> {
    let prepared = match editor.shown() {
        Some(p) => p,
        None => {
            let rules = editor.file().ruleset.ruleset();
            Arc::new(
                crate::rules::builtin()
                    .parse("new.ron", rules.new_scenario())
                    .map_err(|e| e.render(false))?,
            )
        }
    };
    let path = editor.path().map_or_else(
        || PathBuf::from("new-scenario.ron"),
        std::path::Path::to_path_buf,
    );
    let mut game = Game::new(Play::new(prepared, path.clone(), 1), path);
    game.playing = false;
    game.edit = Some(edit::EditState::new(editor));
    edit::sync(&mut game);
    Ok(run_game(game, options))
}

fn run_game(game: Game, options: GuiOptions) -> ExitCode {
    let title = format!("Skirmish - {}", game.play.session().prepared().name);
    keep_freed_memory();
    // Save writes where the battle was loaded from (`--load`), as after the Load button.
    let mut panel_state = panels::PanelState::default();
    if let Some(path) = game.play.loaded_from() {
        panel_state.save_path = path.display().to_string();
    }
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            resolution: WindowResolution::new(1280, 720),
            // A benchmark measures what a frame costs, not the display's refresh rate.
            present_mode: if options.frame_stats {
                bevy::window::PresentMode::AutoNoVsync
            } else {
                bevy::window::PresentMode::AutoVsync
            },
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .add_plugins(shading::ShadingPlugin)
    .add_plugins(direct::DirectPanelsPlugin)
    .add_plugins(SchedulesOnOneThread)
    .insert_resource(ClearColor(map::background_colour()))
    .insert_resource(game)
    .init_resource::<Toggles>()
    .init_resource::<Pointer>()
    .init_resource::<MapViewport>()
    .init_resource::<AnimationCursor>()
    .insert_resource(panel_state)
    .insert_resource(FrameStats {
        enabled: options.frame_stats,
        started: options.started,
        ..default()
    })
    .insert_resource(ScreenshotPlan {
        path: options.screenshot,
        frames: if options.frame_stats && options.frames == 0 {
            300
        } else {
            options.frames.max(1)
        },
        clicks: options.clicks,
        ..default()
    })
    .add_systems(Startup, map::spawn_camera)
    .add_systems(
        Update,
        (
            map::spawn_scene,
            map::track_pointer,
            map::camera_control,
            input,
            advance,
            refresh_draft,
            map::queue_walks,
            map::sync_tokens,
            map::keep_tokens_readable,
            map::show_coordinates,
            map::show_names,
            map::draw_overlays,
            frame_stats,
            scripted_clicks,
            screenshot,
        )
            .chain(),
    )
    .add_systems(EguiPrimaryContextPass, panels::panels)
    .add_systems(
        PostUpdate,
        map::confine_map_camera
            .after(bevy_egui::EguiPostUpdateSet::EndPass)
            .before(bevy::camera::CameraUpdateSystems),
    );
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Mouse and keyboard on the map: left click picks a target or a destination for the
/// acting unit, or selects a unit; right click cancels the move; Enter confirms, Escape
/// starts the draft over, Space pauses or resumes the AI, N steps it, Ctrl+Z undoes.
fn input(
    mut game: ResMut<Game>,
    pointer: Res<Pointer>,
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    egui_input: Res<bevy_egui::input::EguiWantsInput>,
) {
    let game = &mut *game;
    if game.editing() {
        let typing = egui_input.wants_keyboard_input();
        edit::input(game, pointer.hex, &buttons, &keys, typing);
        return;
    }
    if !egui_input.wants_keyboard_input() {
        if keys.just_pressed(KeyCode::Space) {
            game.playing = !game.playing;
        }
        if keys.just_pressed(KeyCode::KeyN) {
            game.step_once = true;
        }
        if keys.just_pressed(KeyCode::Enter) {
            window(game).confirm(game);
        }
        if keys.just_pressed(KeyCode::Escape) {
            game.forget_draft();
        }
        let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
        if ctrl && keys.just_pressed(KeyCode::KeyZ) {
            game.undo();
        }
    }
    let Some(hex) = pointer.hex else { return };
    if buttons.just_pressed(MouseButton::Left) {
        let clicked = unit_at(game, hex);
        if window(game).click(game, hex, clicked) {
            return;
        }
        if let Some(u) = clicked {
            game.selected = Some(u);
        }
    }
    if buttons.just_pressed(MouseButton::Right) && !buttons.pressed(MouseButton::Middle) {
        window(game).right_click(game);
    }
}

/// The living unit standing on `hex`, or any unit there.
fn unit_at(game: &mut Game, hex: Hex) -> Option<UnitId> {
    use crate::battle::{HexPos, Standing};
    let world = &mut game.play.session_mut().world;
    let mut q = world.query::<(&UnitId, &HexPos, &Standing)>();
    let mut found: Vec<(UnitId, bool)> = q
        .iter(world)
        .filter(|(_, p, _)| p.0 == hex)
        .map(|(id, _, s)| (*id, s.fighting()))
        .collect();
    found.sort_by_key(|(id, fighting)| (!*fighting, *id));
    found.first().map(|(id, _)| *id)
}

/// Steps the battle for the AI at the chosen pace, after the tokens finish walking; stops
/// at the player's turns.
fn advance(mut game: ResMut<Game>, time: Res<Time>, tokens: Query<&Token>) {
    let game = &mut *game;
    if game.play.session().outcome().is_some() || game.editing() {
        return;
    }
    if game.play.awaiting_player().is_some() && game.autoplay && game.play.replay_remaining() == 0 {
        if map::walking(&tokens) {
            return;
        }
        game.since_step += time.delta_secs();
        if game.playing && game.since_step >= 1.0 / game.speed.max(0.1) {
            game.since_step = 0.0;
            if let Err(e) = game.play.decide_by_ai() {
                game.status = e;
            }
        }
        return;
    }
    if let Some(unit) = game.play.awaiting_player()
        && game.play.replay_remaining() == 0
    {
        window(game).player_turn(game, unit);
        return;
    }
    if map::walking(&tokens) {
        return;
    }
    let step_now = std::mem::take(&mut game.step_once);
    if !game.playing && !step_now {
        return;
    }
    game.since_step += time.delta_secs();
    let interval = 1.0 / game.speed.max(0.1);
    if !step_now && game.since_step < interval {
        return;
    }
    game.since_step = 0.0;
    // Step until something is logged (a turn begun and resolved), the player is asked, or
    // the battle ends.
    let before = game.log_len();
    for _ in 0..64 {
        match game.play.advance() {
            Advance::Over(_) | Advance::AwaitingPlayer(_) | Advance::AwaitingDice(_) => break,
            Advance::ReplayFailed(e) => {
                game.error = Some(format!("the replay stops: {e}"));
                game.playing = false;
                break;
            }
            Advance::Stepped | Advance::Replayed { .. } => {}
        }
        if game.log_len() > before
            && game
                .play
                .session()
                .world
                .resource::<TurnState>()
                .awaiting
                .is_none()
        {
            break;
        }
    }
}

/// Keeps what the window shows of the player's decision up to date with the pointer
/// (the ruleset's side: GURPS checks its draft, prices it and finds the path to the
/// hovered hex).
fn refresh_draft(mut game: ResMut<Game>, pointer: Res<Pointer>) {
    let game = &mut *game;
    window(game).refresh(game, pointer.hex);
}

/// Prints frame-time statistics and exits after the planned number of frames.
fn frame_stats(
    mut stats: ResMut<FrameStats>,
    time: Res<Time>,
    plan: Res<ScreenshotPlan>,
    mut exit: MessageWriter<AppExit>,
) {
    if !stats.enabled {
        return;
    }
    if stats.first_frame.is_none() {
        stats.first_frame = stats.started.map(|s| s.elapsed().as_secs_f64());
    }
    stats.times.push(time.delta_secs());
    if stats.times.len() as u32 >= plan.frames + 10 {
        // The first ten frames (start-up, shader compilation) are left out.
        let mut t: Vec<f32> = stats.times[10..].to_vec();
        t.sort_by(f32::total_cmp);
        let mean = t.iter().sum::<f32>() / t.len() as f32;
        let p95 = t[((t.len() as f32 * 0.95) as usize).min(t.len() - 1)];
        println!(
            "frames: {}, mean {:.2} ms, median {:.2} ms, p95 {:.2} ms, max {:.2} ms; first frame {:.2} s after start",
            t.len(),
            mean * 1000.0,
            t[t.len() / 2] * 1000.0,
            p95 * 1000.0,
            t[t.len() - 1] * 1000.0,
            stats.first_frame.unwrap_or(0.0)
        );
        exit.write(AppExit::Success);
    }
}

/// Takes the screenshot asked for on the command line, then exits.
fn screenshot(
    mut commands: Commands,
    mut plan: ResMut<ScreenshotPlan>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(path) = plan.path.clone() else {
        return;
    };
    plan.frame += 1;
    match plan.taken_at {
        None if plan.frame >= plan.frames => {
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(path));
            plan.taken_at = Some(plan.frame);
        }
        // Give the capture a few frames to reach the disk.
        Some(at) if plan.frame >= at + 10 => {
            exit.write(AppExit::Success);
        }
        _ => {}
    }
}

/// The window side of every shipped ruleset.
static WINDOWS: [&dyn ruleset::RulesetWindow; 6] = [
    &gurps::GurpsWindow,
    &ships::D12Window,
    &ships::SocsWindow,
    &ms::MsWindow,
    &space_map::SpaceWindow,
    &verge::VergeWindow,
];

/// The window side of the ruleset with id `id`.
pub fn window_for(id: &str) -> &'static dyn ruleset::RulesetWindow {
    WINDOWS
        .iter()
        .copied()
        .find(|w| w.id() == id)
        .unwrap_or(&ruleset::Plain)
}

/// The window side of the battle's ruleset.
pub fn window(game: &Game) -> &'static dyn ruleset::RulesetWindow {
    window_for(game.play.session().prepared().ruleset)
}

#[cfg(test)]
mod window_tests {
    use super::*;

    /// The combat log wraps long lines at spaces to the panel's width, the rows after the
    /// first indented two more than the line; short lines and words longer than a row are
    /// kept whole or cut.
    #[test]
    fn log_lines_wrap_to_the_panel() {
        use super::panels::wrap_line;
        assert_eq!(wrap_line("  short", 20), vec!["  short"]);
        let rows = wrap_line(
            "    attack on Dai with Regular Bow: 3d6 [2 4 3] = 9 vs 8",
            24,
        );
        assert_eq!(
            rows,
            vec![
                "    attack on Dai with",
                "      Regular Bow: 3d6",
                "      [2 4 3] = 9 vs 8",
            ]
        );
        assert!(rows.iter().all(|r| r.chars().count() <= 24));
        let long = "x".repeat(30);
        assert_eq!(wrap_line(&long, 12).concat().replace(' ', ""), long);
    }
    use crate::scenario::ErasedRuleset;
    use std::path::Path;

    /// Every shipped ruleset has its window side, each once.
    #[test]
    fn every_shipped_ruleset_has_a_window() {
        let ids: Vec<&str> = crate::rules::builtin()
            .rulesets()
            .iter()
            .map(|r: &&'static dyn ErasedRuleset| r.id())
            .collect();
        for id in &ids {
            assert_eq!(window_for(id).id(), *id);
        }
        assert_eq!(WINDOWS.len(), ids.len());
        assert_eq!(window_for("d6-duel").id(), "");
    }

    /// The shell keeps one draft of the window's own type: asking for another type (another
    /// scenario's window) starts afresh, and forgetting drops it (so a draft of one battle
    /// never leaks into the next).
    #[test]
    fn the_draft_is_the_windows_own_and_is_forgotten() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/socs-dogfight.ron");
        let prepared = crate::rules::builtin()
            .load(&path)
            .expect("the scenario loads");
        let play = Play::new(Arc::new(prepared), path.clone(), 1);
        let mut game = Game::new(play, path);
        assert!(game.draft::<ships::SocsInputs>().is_none());
        game.draft_mut::<ships::SocsInputs>().gm_modifier = 3;
        assert_eq!(
            game.draft::<ships::SocsInputs>().map(|d| d.gm_modifier),
            Some(3)
        );
        game.draft_mut::<ms::MsInputs>();
        assert!(game.draft::<ships::SocsInputs>().is_none());
        assert!(game.draft::<ms::MsInputs>().is_some());
        game.forget_draft();
        assert!(game.draft::<ms::MsInputs>().is_none());
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_fog_of_sheets_hides_only_other_sides_from_a_known_viewer() {
        assert!(super::hidden(true, Some(0), 1));
        assert!(!super::hidden(true, Some(1), 1));
        assert!(
            !super::hidden(true, None, 1),
            "nobody at the table yet: all shown"
        );
        assert!(!super::hidden(false, Some(0), 1), "fog off");
    }
}

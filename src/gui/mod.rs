//! The desktop window (cargo feature `gui`): the hex map with its terrain, unit tokens
//! coloured by side with a facing marker and a health bar, and an egui panel to step or play
//! the battle and read the log.
//!
//! The battle itself lives in a [`Session`] kept as a resource: the window draws what the
//! session's world holds and asks it to step. Nothing here decides a rule.

use crate::battle::{HexPos, Roster, Side, Standing, TurnState, UnitId};
use crate::hexmap::{Cover, HexMap, Terrain};
use crate::rules::gurps::Fighter;
use crate::scenario::Prepared;
use crate::session::{Session, SessionOptions};
use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::WindowResolution;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use hexx::{HexLayout, HexOrientation};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// How the window is opened.
#[derive(Clone, Debug, Default)]
pub struct GuiOptions {
    /// Save a PNG of the window after `frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    /// Frames to render before the screenshot.
    pub frames: u32,
    /// Battle steps to play before the screenshot (to show a battle in progress).
    pub steps: u32,
}

/// The battle shown in the window.
#[derive(Resource)]
struct Battle {
    session: Session,
    playing: bool,
    /// Battle steps per second while playing.
    speed: f32,
    since_step: f32,
}

/// Hex layout in window pixels.
#[derive(Resource, Clone)]
struct Layout(HexLayout);

/// A unit's token on the map.
#[derive(Component)]
struct Token(UnitId);

/// The coloured body of a token.
#[derive(Component)]
struct TokenBody;

/// The facing marker of a token.
#[derive(Component)]
struct FacingMarker;

/// The health bar of a token.
#[derive(Component)]
struct HealthBar;

#[derive(Resource, Default)]
struct ScreenshotPlan {
    path: Option<PathBuf>,
    frames: u32,
    frame: u32,
    taken_at: Option<u32>,
}

const PANEL_WIDTH: f32 = 340.0;
const WINDOW: (u32, u32) = (1280, 720);

/// Side colours, in side order.
const SIDE_COLOURS: [Color; 6] = [
    Color::srgb(0.85, 0.25, 0.2),
    Color::srgb(0.2, 0.45, 0.9),
    Color::srgb(0.25, 0.7, 0.3),
    Color::srgb(0.9, 0.75, 0.2),
    Color::srgb(0.65, 0.35, 0.8),
    Color::srgb(0.2, 0.75, 0.75),
];

fn terrain_colour(t: Terrain) -> Color {
    match t {
        Terrain::Open => Color::srgb(0.42, 0.52, 0.33),
        Terrain::Difficult => Color::srgb(0.55, 0.45, 0.28),
        Terrain::Blocked => Color::srgb(0.22, 0.22, 0.24),
        Terrain::Cover(Cover::Light) => Color::srgb(0.3, 0.45, 0.22),
        Terrain::Cover(Cover::Half) => Color::srgb(0.5, 0.5, 0.46),
        Terrain::Cover(Cover::Heavy) => Color::srgb(0.38, 0.38, 0.36),
    }
}

/// A hex layout that fits `map` into the part of the window left of the panel.
fn fit_layout(map: &HexMap) -> HexLayout {
    let orientation = match map.orientation() {
        crate::hexmap::Orientation::Pointy => HexOrientation::Pointy,
        crate::hexmap::Orientation::Flat => HexOrientation::Flat,
    };
    let mut unit = HexLayout::new(orientation);
    // hexx names directions with y growing south; the window's y grows north.
    unit.invert_y();
    let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
    for (hex, _) in map.hexes() {
        let p = unit.hex_to_world_pos(hex);
        lo = lo.min(p);
        hi = hi.max(p);
    }
    let extent = (hi - lo) + Vec2::splat(2.2);
    let area = Vec2::new(WINDOW.0 as f32 - PANEL_WIDTH - 20.0, WINDOW.1 as f32 - 20.0);
    let size = (area.x / extent.x).min(area.y / extent.y).clamp(4.0, 60.0);
    let centre = (lo + hi) / 2.0 * size;
    let mut layout = HexLayout::new(orientation).with_hex_size(size);
    layout.invert_y();
    // Centre the map in the area left of the panel.
    layout.origin = Vec2::new(-PANEL_WIDTH / 2.0, 0.0) - centre;
    layout
}

/// Opens the window on `prepared` and runs until it is closed.
pub fn run(prepared: Arc<Prepared>, seed: u64) -> ExitCode {
    run_with(prepared, seed, GuiOptions::default())
}

/// Opens the window with `options` (e.g. to take a screenshot and exit).
pub fn run_with(prepared: Arc<Prepared>, seed: u64, options: GuiOptions) -> ExitCode {
    let mut session = Session::new(prepared.clone(), seed, SessionOptions::default());
    for _ in 0..options.steps {
        if session.outcome().is_some() {
            break;
        }
        session.step();
    }
    let layout = fit_layout(&prepared.map);
    let title = format!("Skirmish - {}", prepared.name);
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            resolution: WindowResolution::new(WINDOW.0, WINDOW.1),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .insert_resource(ClearColor(Color::srgb(0.1, 0.11, 0.12)))
    .insert_resource(Battle {
        session,
        playing: false,
        speed: 4.0,
        since_step: 0.0,
    })
    .insert_resource(Layout(layout))
    .insert_resource(ScreenshotPlan {
        path: options.screenshot,
        frames: options.frames.max(1),
        ..default()
    })
    .add_systems(Startup, (spawn_camera, spawn_map, spawn_tokens))
    .add_systems(Update, (play, sync_tokens, screenshot).chain())
    .add_systems(EguiPrimaryContextPass, panel);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn(Camera2d);
}

fn spawn_map(
    mut commands: Commands,
    battle: Res<Battle>,
    layout: Res<Layout>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let layout = &layout.0;
    let size = layout.scale.x.abs();
    let map = &battle.session.prepared().map;
    let hexagon = meshes.add(RegularPolygon::new(size * 0.96, 6));
    let rotation = match layout.orientation {
        HexOrientation::Pointy => Quat::IDENTITY,
        HexOrientation::Flat => Quat::from_rotation_z(std::f32::consts::FRAC_PI_6),
    };
    let mut palette: Vec<(Terrain, Handle<ColorMaterial>)> = Vec::new();
    for (hex, terrain) in map.hexes() {
        let material = match palette.iter().find(|(t, _)| *t == terrain) {
            Some((_, m)) => m.clone(),
            None => {
                let m = materials.add(terrain_colour(terrain));
                palette.push((terrain, m.clone()));
                m
            }
        };
        let p = layout.hex_to_world_pos(hex);
        commands.spawn((
            Mesh2d(hexagon.clone()),
            MeshMaterial2d(material),
            Transform::from_xyz(p.x, p.y, 0.0).with_rotation(rotation),
        ));
    }
}

fn spawn_tokens(
    mut commands: Commands,
    battle: Res<Battle>,
    layout: Res<Layout>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let size = layout.0.scale.x.abs();
    let body = meshes.add(Circle::new(size * 0.62));
    let marker = meshes.add(Triangle2d::new(
        Vec2::new(size * 0.95, 0.0),
        Vec2::new(size * 0.55, size * 0.28),
        Vec2::new(size * 0.55, -size * 0.28),
    ));
    let bar = meshes.add(Rectangle::new(size * 1.2, size * 0.16));
    let white = materials.add(Color::srgb(0.95, 0.95, 0.9));
    let green = materials.add(Color::srgb(0.3, 0.85, 0.35));
    let roster = battle.session.roster();
    for (i, entry) in roster.units.iter().enumerate() {
        let colour = SIDE_COLOURS[usize::from(entry.side) % SIDE_COLOURS.len()];
        commands
            .spawn((
                Token(UnitId(i as u32)),
                Transform::default(),
                Visibility::default(),
            ))
            .with_children(|t| {
                t.spawn((
                    TokenBody,
                    Mesh2d(body.clone()),
                    MeshMaterial2d(materials.add(colour)),
                    Transform::from_xyz(0.0, 0.0, 1.0),
                ));
                t.spawn((
                    FacingMarker,
                    Mesh2d(marker.clone()),
                    MeshMaterial2d(white.clone()),
                    Transform::from_xyz(0.0, 0.0, 1.5),
                ));
                t.spawn((
                    HealthBar,
                    Mesh2d(bar.clone()),
                    MeshMaterial2d(green.clone()),
                    Transform::from_xyz(0.0, -size * 0.85, 1.6),
                ));
                t.spawn((
                    Text2d::new(entry.name.clone()),
                    TextFont {
                        font_size: FontSize::Px((size * 0.42).clamp(9.0, 16.0)),
                        ..default()
                    },
                    TextColor(Color::WHITE),
                    Transform::from_xyz(0.0, size * 0.95, 2.0),
                ));
            });
    }
}

/// Steps the battle while playing.
fn play(mut battle: ResMut<Battle>, time: Res<Time>) {
    if !battle.playing || battle.session.outcome().is_some() {
        return;
    }
    battle.since_step += time.delta_secs();
    let interval = 1.0 / battle.speed.max(0.1);
    while battle.since_step >= interval {
        battle.since_step -= interval;
        battle.session.step();
        if battle.session.outcome().is_some() {
            battle.playing = false;
            break;
        }
    }
}

/// Places each token where its unit stands, turned to its facing, with its health bar.
#[allow(clippy::type_complexity)]
fn sync_tokens(
    mut battle: ResMut<Battle>,
    layout: Res<Layout>,
    mut tokens: Query<(&Token, &mut Transform, &Children)>,
    mut markers: Query<&mut Transform, (With<FacingMarker>, Without<Token>)>,
    mut bars: Query<&mut Transform, (With<HealthBar>, Without<Token>, Without<FacingMarker>)>,
    mut bodies: Query<&mut Visibility, With<TokenBody>>,
) {
    let world = &mut battle.session.world;
    let mut q = world.query::<(
        &UnitId,
        &HexPos,
        &crate::battle::Facing,
        &Standing,
        Option<&Fighter>,
    )>();
    let state: Vec<(UnitId, Vec2, Vec2, Standing, f32)> = q
        .iter(world)
        .map(|(id, pos, facing, standing, fighter)| {
            let p = layout.0.hex_to_world_pos(pos.0);
            let dir = facing.0.world_unit_vector(&layout.0);
            let health = fighter.map_or(1.0, |f| {
                (f.hp.max(0) as f32 / f.sheet.hp_max.max(1) as f32).clamp(0.0, 1.0)
            });
            (*id, p, dir, *standing, health)
        })
        .collect();
    for (token, mut transform, children) in &mut tokens {
        let Some(&(_, p, dir, standing, health)) = state.iter().find(|s| s.0 == token.0) else {
            continue;
        };
        transform.translation = Vec3::new(p.x, p.y, if standing.fighting() { 3.0 } else { 2.0 });
        for child in children.iter() {
            if let Ok(mut m) = markers.get_mut(child) {
                m.rotation = Quat::from_rotation_z(dir.y.atan2(dir.x));
                m.scale = Vec3::splat(if standing.fighting() { 1.0 } else { 0.0 });
            }
            if let Ok(mut b) = bars.get_mut(child) {
                b.scale = Vec3::new(health.max(0.001), 1.0, 1.0);
            }
            if let Ok(mut v) = bodies.get_mut(child) {
                *v = Visibility::Visible;
            }
        }
        // Fallen units shrink and lie under the living.
        transform.scale = Vec3::splat(if standing.fighting() { 1.0 } else { 0.6 });
    }
}

fn standing_word(s: Standing) -> &'static str {
    match s {
        Standing::Fighting => "fighting",
        Standing::Unconscious => "unconscious",
        Standing::Dead => "dead",
        Standing::Escaped => "escaped",
        Standing::Surrendered => "surrendered",
    }
}

/// The side panel: turn, controls, units and the latest log lines.
fn panel(mut contexts: EguiContexts, mut battle: ResMut<Battle>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let battle = &mut *battle;
    let name = battle.session.prepared().name.clone();
    let (round, awaiting) = {
        let t = battle.session.world.resource::<TurnState>();
        (t.round, t.awaiting)
    };
    let outcome = battle.session.outcome();
    let roster: Roster = battle.session.roster().clone();
    let sides = battle.session.sides().clone();
    let mut q = battle
        .session
        .world
        .query::<(&UnitId, &Side, &Standing, Option<&Fighter>)>();
    let mut units: Vec<(UnitId, u8, Standing, String)> = q
        .iter(&battle.session.world)
        .map(|(id, side, st, f)| {
            let hp = f.map_or(String::new(), |f| format!("{}/{} HP", f.hp, f.sheet.hp_max));
            (*id, side.0, *st, hp)
        })
        .collect();
    units.sort_by_key(|u| u.0);
    let log = battle.session.log_text();
    egui::Window::new(name)
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .default_width(PANEL_WIDTH - 24.0)
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            ui.label(format!(
                "Round {round}{}",
                awaiting.map_or(String::new(), |u| format!(" - {}'s turn", roster.name(u)))
            ));
            if let Some(o) = outcome {
                let text = match o {
                    crate::battle::OutcomeKind::Victory { side } => format!(
                        "{} wins",
                        sides
                            .0
                            .get(usize::from(side))
                            .map_or("?", |s| s.name.as_str())
                    ),
                    crate::battle::OutcomeKind::Draw { .. } => "Draw".to_string(),
                };
                ui.strong(text);
            }
            ui.horizontal(|ui| {
                if ui.button("Step").clicked() && outcome.is_none() {
                    battle.session.step();
                }
                let label = if battle.playing { "Pause" } else { "Play" };
                if ui.button(label).clicked() {
                    battle.playing = !battle.playing;
                }
                if ui.button("Restart").clicked() {
                    let seed = battle.session.seed().wrapping_add(1);
                    battle.session.reset(seed);
                    battle.playing = false;
                }
            });
            ui.add(egui::Slider::new(&mut battle.speed, 0.5..=30.0).text("steps/s"));
            ui.separator();
            for (id, side, st, hp) in &units {
                let colour = SIDE_COLOURS[usize::from(*side) % SIDE_COLOURS.len()].to_srgba();
                let c = egui::Color32::from_rgb(
                    (colour.red * 255.0) as u8,
                    (colour.green * 255.0) as u8,
                    (colour.blue * 255.0) as u8,
                );
                ui.horizontal(|ui| {
                    ui.colored_label(c, roster.name(*id));
                    ui.label(format!("{} {hp}", standing_word(*st)));
                });
            }
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height(300.0)
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    ui.monospace(&log);
                });
        });
    Ok(())
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

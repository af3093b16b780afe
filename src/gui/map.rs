//! The map view: hexes with their terrain, unit tokens (side colour, facing marker, name,
//! health bar) that walk along their paths instead of jumping, the camera (drag or arrow
//! keys to pan, wheel to zoom, fit to the map), the hex under the pointer, and the
//! overlays drawn with gizmos: the path to the hovered hex, the hexes the acting unit can
//! reach, range rings of the selected unit's weapon and the line of sight to a target.
//!
//! Animation only moves what is drawn: the battle has already moved the unit.

pub use super::layout::{HEX_SIZE, MapLayout};
use super::ruleset::Backdrop;
use super::shading::FlatMaterial;
use super::{Game, Toggles};
use crate::battle::{Altitude, BattleEvent, Facing, HexPos, Standing, TurnState, UnitId};
use crate::hexmap::{Cover, HexMap, Terrain};
use bevy::ecs::entity::EntityHashSet;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::render::view::Msaa;
use hexx::Hex;
use std::collections::VecDeque;

/// Hexes per second a token walks.
const WALK_SPEED: f32 = 6.0;

/// Where the pointer is.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct Pointer {
    /// The map hex under it, if any (and not over a panel).
    pub hex: Option<Hex>,
    /// Its position in the window, in logical pixels.
    pub screen: Option<Vec2>,
}

/// The part of the window the panels leave to the map, in logical window pixels (egui's
/// points times its zoom), kept by the panel system.
#[derive(Resource, Clone, Copy, Debug)]
pub struct MapViewport {
    /// Top left corner.
    pub min: Vec2,
    /// Size.
    pub size: Vec2,
    /// Frame the units on the next frame (a scenario was opened).
    pub fit: bool,
    /// Fit the camera to the whole map on the next frame (the Fit map button, or F).
    pub fit_map: bool,
    /// The pointer is over a panel or window (or egui is dragging), not the map.
    pub pointer_over_ui: bool,
    /// The panels have been laid out at least once (`min` and `size` are real).
    pub measured: bool,
}

impl Default for MapViewport {
    fn default() -> Self {
        Self {
            min: Vec2::ZERO,
            size: Vec2::new(1280.0, 720.0),
            fit: true,
            fit_map: false,
            pointer_over_ui: false,
            measured: false,
        }
    }
}

/// Everything drawn for a scenario's map and units (despawned when another is opened).
#[derive(Component)]
pub struct MapEntity;

/// A unit's token and where it is drawn.
#[derive(Component)]
pub struct Token {
    /// The unit.
    pub unit: UnitId,
    /// Where it is drawn now.
    pub shown: Vec2,
    /// Points still to walk through.
    pub queue: VecDeque<Vec2>,
    /// The hex it is drawn on while a roll waits for dice, its step having moved it there
    /// before the roll ([`crate::play::DiceRequest::moved`]): once the step is made, its
    /// walk there is not walked again.
    pub drawn_at: Option<Hex>,
}

/// The coloured disc of a token.
#[derive(Component)]
pub struct TokenBody {
    alive: Handle<FlatMaterial>,
    fallen: Handle<FlatMaterial>,
}

/// The facing marker of a token.
#[derive(Component)]
pub struct FacingMarker;

/// The health bar of a token.
#[derive(Component)]
pub struct HealthBar;

/// The name label of a token: the unit's name, with its altitude when it flies.
#[derive(Component)]
pub struct TokenLabel {
    /// The unit's name.
    pub name: String,
    /// The altitude shown, m (0: on the ground, no suffix).
    pub shown: i32,
}

/// A hex coordinate label (shown when coordinates are on).
#[derive(Component)]
pub struct CoordLabel;

/// How far the animation has read the combat log.
#[derive(Resource, Default)]
pub struct AnimationCursor {
    seen: usize,
}

/// Colour of a terrain, as the legend shows it.
pub fn terrain_colour(t: Terrain) -> Color {
    match t {
        Terrain::Open => Color::srgb(0.42, 0.52, 0.33),
        Terrain::Difficult => Color::srgb(0.58, 0.46, 0.26),
        Terrain::Blocked => Color::srgb(0.2, 0.2, 0.22),
        Terrain::Cover(Cover::Light) => Color::srgb(0.24, 0.42, 0.2),
        Terrain::Cover(Cover::Half) => Color::srgb(0.55, 0.55, 0.5),
        Terrain::Cover(Cover::Heavy) => Color::srgb(0.4, 0.38, 0.36),
    }
}

/// The words for a terrain, as the legend shows them.
pub fn terrain_name(t: Terrain) -> &'static str {
    match t {
        Terrain::Open => "open",
        Terrain::Difficult => "difficult (2 MP)",
        Terrain::Blocked => "blocked",
        Terrain::Cover(Cover::Light) => "light cover",
        Terrain::Cover(Cover::Half) => "half cover",
        Terrain::Cover(Cover::Heavy) => "heavy cover",
    }
}

/// The whole map as one mesh: every hex a fan of four triangles in its terrain's colour
/// (vertex colours), shrunk a little so the gaps between hexes show the grid. One draw for
/// the map instead of one per hex keeps a 60 x 60 map cheap to render. Open hexes are drawn
/// as the backdrop says: grass, night with a star in about one hex in four (placed by the
/// hex's coordinates, the same every time), or sky paler towards the bottom.
pub fn map_mesh(map: &HexMap, layout: &MapLayout, backdrop: Backdrop) -> Mesh {
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut colours: Vec<[f32; 4]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    let (low, high) = map
        .hexes()
        .fold((f32::MAX, f32::MIN), |(lo, hi), (hex, _)| {
            let y = layout.pos(hex).y;
            (lo.min(y), hi.max(y))
        });
    for (hex, terrain) in map.hexes() {
        let centre = layout.pos(hex);
        let open = terrain == Terrain::Open;
        let colour = match backdrop {
            Backdrop::Space if open => space_colour(),
            Backdrop::Sky if open => sky_colour((centre.y - low) / (high - low).max(1.0)),
            _ => terrain_colour(terrain),
        }
        .to_linear()
        .to_f32_array();
        let first = positions.len() as u32;
        for corner in layout.0.hex_corners(hex) {
            let p = centre + (corner - centre) * 0.97;
            positions.push([p.x, p.y, 0.0]);
            colours.push(colour);
        }
        for k in 1..5 {
            indices.extend([first, first + k, first + k + 1]);
        }
        if backdrop == Backdrop::Space
            && open
            && let Some((offset, size)) = star(hex)
        {
            let first = positions.len() as u32;
            let at = centre + offset * HEX_SIZE;
            let r = size * HEX_SIZE;
            for d in [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y] {
                let p = at + d * r;
                positions.push([p.x, p.y, 0.0]);
                colours.push(Color::srgb(0.95, 0.95, 1.0).to_linear().to_f32_array());
            }
            indices.extend([first, first + 1, first + 2, first, first + 2, first + 3]);
        }
    }
    Mesh::new(
        bevy::mesh::PrimitiveTopology::TriangleList,
        bevy::asset::RenderAssetUsages::RENDER_WORLD,
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colours)
    .with_inserted_indices(bevy::mesh::Indices::U32(indices))
}

/// Open space: night.
pub fn space_colour() -> Color {
    Color::srgb(0.07, 0.09, 0.16)
}

/// Open sky at `height` from the bottom of the map (0) to its top (1): deeper blue upwards.
pub fn sky_colour(height: f32) -> Color {
    let t = height.clamp(0.0, 1.0);
    Color::srgb(0.72 - 0.34 * t, 0.82 - 0.26 * t, 0.92 - 0.12 * t)
}

/// The star drawn in open space at `hex`, if it has one: its offset from the hex's centre
/// and its size, in hex sizes. About one hex in four has one; a hash of the coordinates
/// (not the battle's dice) places them, so the sky is the same every time.
pub fn star(hex: Hex) -> Option<(Vec2, f32)> {
    let mut h = (hex.x as u32).wrapping_mul(0x9E37_79B1) ^ (hex.y as u32).wrapping_mul(0x85EB_CA77);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    if !h.is_multiple_of(4) {
        return None;
    }
    let unit = |bits: u32| (bits & 0xFF) as f32 / 255.0 - 0.5;
    let offset = Vec2::new(unit(h >> 4), unit(h >> 12)) * 1.1;
    let size = 0.025 + 0.035 * ((h >> 20) & 0x3) as f32 / 3.0;
    Some((offset, size))
}

/// The camera of the map. It draws only inside the rectangle the panels leave free
/// ([`MapViewport`]) and then copies just that rectangle to the window, which it clears to
/// the panel colour first.
#[derive(Component)]
pub struct MapCamera;

/// The egui panels' own camera: it draws no world entity and copies nothing to the
/// window; its egui meshes are painted straight onto the window over the map's rectangle
/// (`direct.rs`).
#[derive(Component)]
pub struct PanelCamera;

/// The two cameras. Software rendering pays for every pixel a shader touches (README,
/// "Window speed"), so the map is not drawn under the panels, the panels have no fill of
/// their own (the window is cleared to their colour instead), only the map's rectangle is
/// copied from Bevy's intermediate texture to the window, and multisampling is off.
pub fn spawn_camera(mut commands: Commands, mut egui: ResMut<bevy_egui::EguiGlobalSettings>) {
    egui.auto_create_primary_context = false;
    commands.spawn((
        MapCamera,
        Camera2d,
        Camera {
            order: 0,
            // Writes to the window: clears it, then copies the viewport's rectangle.
            ..default()
        },
        Msaa::Off,
    ));
    commands.spawn((
        PanelCamera,
        Camera2d,
        Camera {
            order: 1,
            clear_color: ClearColorConfig::None,
            output_mode: bevy::camera::CameraOutputMode::Skip,
            ..default()
        },
        Msaa::Off,
        // A layer nothing is on: this camera draws only egui.
        bevy::camera::visibility::RenderLayers::layer(1),
        bevy_egui::PrimaryEguiContext,
        super::direct::PanelsOnWindow,
        // Only the panels' painting is rendered for this camera (no 2D passes).
        bevy::render::camera::CameraRenderGraph::new(super::direct::PanelsPass),
    ));
}

/// The colour the window is cleared to: egui's panel colour, so the panels need no fill.
pub fn background_colour() -> Color {
    let [r, g, b, _] = bevy_egui::egui::Visuals::dark().panel_fill.to_array();
    Color::srgb_u8(r, g, b)
}

/// Confines the map camera to the rectangle the panels leave free, right after the panels
/// are laid out (the whole window until they have been once).
pub fn confine_map_camera(
    viewport: Res<MapViewport>,
    windows: Query<&Window>,
    mut camera: Query<&mut Camera, With<MapCamera>>,
) {
    let (Ok(window), Ok(mut camera)) = (windows.single(), camera.single_mut()) else {
        return;
    };
    let full = UVec2::new(window.physical_width(), window.physical_height());
    if full.x == 0 || full.y == 0 {
        // Minimised: nothing is drawn.
        return;
    }
    let wanted = viewport.measured.then(|| {
        let scale = window.scale_factor();
        // Both edges rounded, so the picture meets the panels without a seam.
        let min = (viewport.min * scale)
            .round()
            .max(Vec2::ZERO)
            .as_uvec2()
            .min(full - UVec2::ONE);
        let max = ((viewport.min + viewport.size) * scale)
            .round()
            .max(Vec2::ZERO)
            .as_uvec2()
            .min(full)
            .max(min + UVec2::ONE);
        (min, max - min)
    });
    let current = camera
        .viewport
        .as_ref()
        .map(|v| (v.physical_position, v.physical_size));
    if wanted != current {
        camera.viewport = wanted.map(|(min, size)| bevy::camera::Viewport {
            physical_position: min,
            physical_size: size,
            ..default()
        });
    }
}

/// Draws the map and the tokens of the battle in `game` (again when a scenario is opened).
pub fn spawn_scene(
    mut commands: Commands,
    mut game: ResMut<Game>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<FlatMaterial>>,
    old: Query<Entity, With<MapEntity>>,
    mut viewport: ResMut<MapViewport>,
    mut cursor: ResMut<AnimationCursor>,
) {
    if !game.rebuild {
        return;
    }
    game.rebuild = false;
    // Framed on the units when a scenario opens; left where it is after an edit.
    let keep = std::mem::take(&mut game.keep_camera);
    viewport.fit |= !keep;
    for e in &old {
        commands.entity(e).despawn();
    }
    let session = game.play.session();
    let map = &session.prepared().map;
    let layout = MapLayout::for_map(map);
    commands.insert_resource(layout.clone());
    cursor.seen = session.log().entries.len();
    commands.spawn((
        MapEntity,
        Mesh2d(meshes.add(map_mesh(
            map,
            &layout,
            super::window_for(session.prepared().ruleset).backdrop(session.prepared()),
        ))),
        MeshMaterial2d(materials.add(Color::WHITE)),
        Transform::default(),
    ));
    for (hex, _) in map.hexes() {
        let p = layout.pos(hex);
        commands.spawn((
            MapEntity,
            CoordLabel,
            Text2d::new(format!("{},{}", hex.x, hex.y)),
            TextFont {
                font_size: FontSize::Px(9.0),
                ..default()
            },
            TextColor(Color::srgba(1.0, 1.0, 1.0, 0.55)),
            Transform::from_xyz(p.x, p.y - HEX_SIZE * 0.55, 0.5),
            Visibility::Hidden,
        ));
    }
    let size = HEX_SIZE;
    let body = meshes.add(Circle::new(size * TOKEN_RADIUS));
    let marker = meshes.add(Triangle2d::new(
        Vec2::new(size * 0.95, 0.0),
        Vec2::new(size * 0.55, size * 0.28),
        Vec2::new(size * 0.55, -size * 0.28),
    ));
    let bar = meshes.add(Rectangle::new(size * 1.2, size * 0.16));
    let white = materials.add(Color::srgb(0.95, 0.95, 0.9));
    let green = materials.add(Color::srgb(0.3, 0.85, 0.35));
    let fallen = materials.add(Color::srgba(0.35, 0.35, 0.35, 0.8));
    // One material per side, shared by its tokens, so that Bevy draws each side's discs in
    // one batch rather than one draw per token.
    let side_materials: Vec<Handle<FlatMaterial>> = (0..session.prepared().sides.len().max(1))
        .map(|i| materials.add(super::side_colour(&session.prepared().sides, i)))
        .collect();
    for (i, entry) in session.roster().units.iter().enumerate() {
        let alive = side_materials[usize::from(entry.side) % side_materials.len()].clone();
        let id = UnitId(i as u32);
        let at = session
            .world
            .get::<HexPos>(entry.entity)
            .map_or(Vec2::ZERO, |p| layout.pos(p.0));
        commands
            .spawn((
                MapEntity,
                Token {
                    unit: id,
                    shown: at,
                    queue: VecDeque::new(),
                    drawn_at: None,
                },
                Transform::from_xyz(at.x, at.y, 3.0),
                Visibility::default(),
            ))
            .with_children(|t| {
                t.spawn((
                    TokenBody {
                        alive: alive.clone(),
                        fallen: fallen.clone(),
                    },
                    Mesh2d(body.clone()),
                    MeshMaterial2d(alive),
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
                    TokenLabel {
                        name: entry.name.clone(),
                        shown: 0,
                    },
                    Text2d::new(entry.name.clone()),
                    TextFont {
                        font_size: FontSize::Px(13.0),
                        ..default()
                    },
                    TextColor(Color::WHITE),
                    Transform::from_xyz(0.0, NAME_RISE, 2.0),
                ));
            });
    }
}

/// A token disc's radius, in hex sizes.
pub const TOKEN_RADIUS: f32 = 0.62;

/// The smallest a token's disc is drawn, in pixels across, however far the map is zoomed
/// out.
pub const MIN_TOKEN_PX: f32 = 14.0;
/// The smallest a name is drawn, in pixels high.
pub const MIN_LABEL_PX: f32 = 11.0;

/// How much to enlarge a token (its disc, marker and bar) and then its name, at camera
/// scale `scale` (world units per pixel), so that neither is drawn smaller than
/// [`MIN_TOKEN_PX`] and [`MIN_LABEL_PX`]: 1 when zoomed in far enough.
pub fn readable_scales(scale: f32) -> (f32, f32) {
    let token_px = 2.0 * TOKEN_RADIUS * HEX_SIZE / scale;
    let token = (MIN_TOKEN_PX / token_px).max(1.0);
    let label_px = 13.0 / scale * token;
    let label = (MIN_LABEL_PX / label_px).max(1.0);
    (token, label)
}

/// Keeps tokens and their names readable at any zoom ([`readable_scales`]).
pub fn keep_tokens_readable(
    camera: Query<&Projection, With<MapCamera>>,
    mut tokens: Query<&mut Transform, With<Token>>,
    mut labels: Query<&mut Transform, (With<TokenLabel>, Without<Token>)>,
) {
    let Ok(Projection::Orthographic(ortho)) = camera.single() else {
        return;
    };
    let (token, label) = readable_scales(ortho.scale);
    // `sync_tokens` has just set each token's own scale (smaller when fallen).
    for mut t in &mut tokens {
        t.scale = Vec3::new(t.scale.x * token, t.scale.y * token, 1.0);
    }
    for mut t in &mut labels {
        t.scale = Vec3::new(label, label, 1.0);
    }
}

/// Shows or hides the hex coordinates.
pub fn show_coordinates(
    toggles: Res<Toggles>,
    mut labels: Query<&mut Visibility, With<CoordLabel>>,
) {
    if !toggles.is_changed() {
        return;
    }
    let v = if toggles.coordinates {
        Visibility::Visible
    } else {
        Visibility::Hidden
    };
    for mut vis in &mut labels {
        *vis = v;
    }
}

/// How far above its token's centre a name is drawn, in world units at the token's
/// natural size.
const NAME_RISE: f32 = HEX_SIZE * 0.95;

/// The height of a name at its natural size, in world units (13 px text).
const NAME_HEIGHT: f32 = 15.0;

/// The room a name of `chars` characters takes over the token at `at` (world units), the
/// token drawn at `token` times its natural size and the name at `label` times its own
/// ([`keep_tokens_readable`]), with a gap of half a character either side.
pub fn name_rect(at: Vec2, token: f32, label: f32, chars: usize) -> Rect {
    let centre = at + Vec2::new(0.0, NAME_RISE * token);
    let size = Vec2::new((chars as f32 + 1.0) * NAME_CHAR, NAME_HEIGHT) * (token * label);
    Rect::from_center_size(centre, size)
}

/// Which names to draw so that none covers another: `names[i]` is the room the name takes
/// ([`name_rect`]) and whether it must be drawn whatever it covers (the selected, acting
/// or pointed-at unit's). Those come first, then the others in the order given, each
/// drawn when it overlaps none drawn before it.
pub fn uncluttered(names: &[(Rect, bool)]) -> Vec<bool> {
    let mut drawn = vec![false; names.len()];
    let mut taken: Vec<Rect> = Vec::with_capacity(names.len());
    for must in [true, false] {
        for (i, &(rect, first)) in names.iter().enumerate() {
            if first != must {
                continue;
            }
            if must || taken.iter().all(|t| t.intersect(rect).is_empty()) {
                drawn[i] = true;
                taken.push(rect);
            }
        }
    }
    drawn
}

/// Draws the tokens' names that fit without covering one another ([`uncluttered`]: the
/// fighting before the fallen, in the roster's order), always the selected unit's, the
/// acting unit's and the one under the pointer; with names off (View) only those three.
#[allow(clippy::type_complexity)]
pub fn show_names(
    toggles: Res<Toggles>,
    game: Res<Game>,
    pointer: Res<Pointer>,
    tokens: Query<(&Token, &Transform, &Children)>,
    mut labels: Query<(&TokenLabel, &Text2d, &Transform, &mut Visibility), Without<Token>>,
) {
    let session = game.play.session();
    let acting = session.world.resource::<TurnState>().awaiting;
    // The unit under the pointer: the one fighting there, else one fallen there.
    let pointed = pointer.hex.and_then(|hex| {
        let world = &session.world;
        (session.roster().units.iter().enumerate())
            .filter(|(_, u)| world.get::<HexPos>(u.entity).is_some_and(|p| p.0 == hex))
            .min_by_key(|(_, u)| {
                !world
                    .get::<Standing>(u.entity)
                    .is_some_and(|s| s.fighting())
            })
            .map(|(i, _)| UnitId(i as u32))
    });
    // (fallen, unit, label entity, room, must be drawn)
    let mut names = Vec::with_capacity(tokens.iter().len());
    for (token, transform, children) in &tokens {
        let must = [game.selected, acting, pointed].contains(&Some(token.unit));
        for child in children.iter() {
            let Ok((_, text, label, _)) = labels.get(child) else {
                continue;
            };
            if !toggles.names && !must {
                continue;
            }
            let at = transform.translation.truncate();
            let rect = name_rect(at, transform.scale.x, label.scale.x, text.0.chars().count());
            let fallen = !(session.roster().entity(token.unit))
                .and_then(|e| session.world.get::<Standing>(e))
                .is_some_and(|s| s.fighting());
            names.push((fallen, token.unit, child, rect, must));
        }
    }
    names.sort_by_key(|n| (n.0, n.1));
    let rooms: Vec<(Rect, bool)> = names.iter().map(|n| (n.3, n.4)).collect();
    let drawn = uncluttered(&rooms);
    let shown: EntityHashSet = (names.iter().zip(drawn))
        .filter(|(_, d)| *d)
        .map(|(n, _)| n.2)
        .collect();
    for child in tokens.iter().flat_map(|(_, _, c)| c.iter()) {
        let Ok((_, _, _, mut vis)) = labels.get_mut(child) else {
            continue;
        };
        let want = if shown.contains(&child) {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        // Set only when it changes: a change marks the label for Bevy to look at again.
        if *vis != want {
            *vis = want;
        }
    }
}

/// Queues the paths of new moves and knockbacks for the tokens to walk.
pub fn queue_walks(
    game: Res<Game>,
    layout: Option<Res<MapLayout>>,
    mut cursor: ResMut<AnimationCursor>,
    mut tokens: Query<&mut Token>,
) {
    let Some(layout) = layout else { return };
    let entries = &game.play.session().log().entries;
    if cursor.seen > entries.len() {
        // The battle went back (undo, restart): snap instead of walking.
        cursor.seen = entries.len();
        for mut t in &mut tokens {
            t.queue.clear();
        }
        return;
    }
    for entry in &entries[cursor.seen..] {
        let (unit, path) = match &entry.event {
            BattleEvent::Moved { unit, path, .. } => (*unit, path),
            BattleEvent::Knockback { unit, path, .. } => (*unit, path),
            _ => continue,
        };
        if let Some(mut t) = tokens.iter_mut().find(|t| t.unit == unit) {
            // A token drawn at the walk's end while a roll waited for dice (see
            // `sync_tokens`) does not walk it again.
            let end = path.last().map(|&(q, r)| Hex::new(q, r));
            if t.drawn_at.is_some() && t.drawn_at == end {
                t.drawn_at = None;
                continue;
            }
            for &(q, r) in path.iter().skip(1) {
                t.queue.push_back(layout.pos(Hex::new(q, r)));
            }
        }
    }
    cursor.seen = entries.len();
}

/// Places each token: walking along its queued path, or where its unit stands; turned to
/// its facing, with its health bar; fallen units grey, small and under the living.
#[allow(clippy::type_complexity)]
#[allow(clippy::too_many_arguments)]
pub fn sync_tokens(
    game: Res<Game>,
    layout: Option<Res<MapLayout>>,
    time: Res<Time>,
    mut tokens: Query<(&mut Token, &mut Transform, &Children)>,
    mut markers: Query<&mut Transform, (With<FacingMarker>, Without<Token>)>,
    mut bars: Query<&mut Transform, (With<HealthBar>, Without<Token>, Without<FacingMarker>)>,
    mut bodies: Query<(&TokenBody, &mut MeshMaterial2d<FlatMaterial>)>,
    mut labels: Query<(&mut TokenLabel, &mut Text2d)>,
) {
    let Some(layout) = layout else { return };
    let session = game.play.session();
    let roster = session.roster();
    let step = WALK_SPEED * HEX_SIZE * 1.732 * time.delta_secs();
    for (mut token, mut transform, children) in &mut tokens {
        let Some(entity) = roster.entity(token.unit) else {
            continue;
        };
        let world = &session.world;
        let (Some(pos), Some(facing), Some(standing)) = (
            world.get::<HexPos>(entity),
            world.get::<Facing>(entity),
            world.get::<Standing>(entity),
        ) else {
            continue;
        };
        let health = session.prepared().rules.health(world, entity, token.unit);
        // While a roll waits for dice, the battle stands before the step that rolls: a
        // unit that step moved before the roll is drawn where it made it.
        let waiting_at = game
            .play
            .pending_dice()
            .and_then(|r| r.moved.iter().find(|(u, _)| *u == token.unit))
            .map(|&(_, hex)| hex);
        token.drawn_at = waiting_at;
        let target = layout.pos(waiting_at.unwrap_or(pos.0));
        // Walk towards the next queued point; snap when nothing is queued.
        let mut budget = step;
        while budget > 0.0 {
            let Some(&next) = token.queue.front() else {
                break;
            };
            let d = next - token.shown;
            if d.length() <= budget {
                token.shown = next;
                budget -= d.length();
                token.queue.pop_front();
            } else {
                token.shown += d.normalize_or_zero() * budget;
                budget = 0.0;
            }
        }
        if token.queue.is_empty() {
            let d = target - token.shown;
            // Close enough, or far off (undo, restart): snap.
            if d.length() <= step.max(0.01) || d.length() > HEX_SIZE * 12.0 {
                token.shown = target;
            } else {
                token.shown += d.normalize_or_zero() * step;
            }
        }
        let fighting = standing.fighting();
        transform.translation = Vec3::new(
            token.shown.x,
            token.shown.y,
            if fighting { 3.0 } else { 2.0 },
        );
        transform.scale = Vec3::splat(if fighting { 1.0 } else { 0.7 });
        let dir = facing.0.world_unit_vector(&layout.0);
        for child in children.iter() {
            if let Ok(mut m) = markers.get_mut(child) {
                m.rotation = Quat::from_rotation_z(dir.y.atan2(dir.x));
                m.scale = Vec3::splat(if fighting { 1.0 } else { 0.0 });
            }
            if let Ok(mut b) = bars.get_mut(child) {
                b.scale = Vec3::new(health.max(0.001), 1.0, 1.0);
            }
            if let Ok((mut label, mut text)) = labels.get_mut(child) {
                let alt = world.get::<Altitude>(entity).map_or(0, |a| a.0);
                if label.shown != alt {
                    label.shown = alt;
                    text.0 = if alt > 0 {
                        format!("{} ({alt} m up)", label.name)
                    } else {
                        label.name.clone()
                    };
                }
            }
            if let Ok((body, mut material)) = bodies.get_mut(child) {
                let want = if fighting { &body.alive } else { &body.fallen };
                if material.0 != *want {
                    material.0 = want.clone();
                }
            }
        }
    }
}

/// True while some token is still walking (the AI waits for it before the next step).
pub fn walking(tokens: &Query<&Token>) -> bool {
    tokens.iter().any(|t| !t.queue.is_empty())
}

/// Pan with a drag of the left, right or middle button (or the arrow keys and WASD), zoom
/// with the wheel (or + and -), fit to the map with F or when asked.
#[allow(clippy::too_many_arguments)]
pub fn camera_control(
    mut camera: Query<(&mut Transform, &mut Projection), With<MapCamera>>,
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    pointer: Res<Pointer>,
    mut viewport: ResMut<MapViewport>,
    game: Res<Game>,
    layout: Option<Res<MapLayout>>,
    windows: Query<&Window>,
    egui_input: Res<bevy_egui::input::EguiWantsInput>,
    time: Res<Time>,
) {
    let Ok((mut transform, mut projection)) = camera.single_mut() else {
        return;
    };
    let Projection::Orthographic(ortho) = &mut *projection else {
        return;
    };
    let Ok(window) = windows.single() else { return };
    // The map camera's picture is centred in the free rectangle (`confine_map_camera`).
    let view_centre = if viewport.measured {
        viewport.min + viewport.size / 2.0
    } else {
        Vec2::new(window.width(), window.height()) / 2.0
    };
    let whole_map = viewport.fit_map
        || (keys.just_pressed(KeyCode::KeyF) && !egui_input.wants_keyboard_input());
    if (viewport.fit || whole_map)
        && viewport.measured
        && let Some(layout) = layout.as_ref()
    {
        let opening = viewport.fit && !whole_map;
        viewport.fit = false;
        viewport.fit_map = false;
        let prepared = game.play.session().prepared();
        let map: Vec<Vec2> = prepared.map.hexes().map(|(h, _)| layout.pos(h)).collect();
        let units: Vec<Vec2> = if opening {
            prepared.units.iter().map(|u| layout.pos(u.at)).collect()
        } else {
            Vec::new()
        };
        // The widest name, with a flier's altitude after it (" (1200 m up)").
        let flying = matches!(super::window(&game).backdrop(prepared), Backdrop::Sky);
        let name_chars = (prepared.units.iter())
            .map(|u| u.name.chars().count() + if flying { 12 } else { 0 })
            .max()
            .unwrap_or(0);
        let view = viewport.size.max(Vec2::splat(50.0));
        let (centre, scale) = framing(&map, &units, view, name_chars);
        ortho.scale = scale;
        transform.translation.x = centre.x;
        transform.translation.y = centre.y;
        return;
    }
    let over_map = pointer.screen.is_some() && !viewport.pointer_over_ui;
    if over_map
        && buttons.any_pressed([MouseButton::Middle, MouseButton::Right])
        && motion.delta != Vec2::ZERO
    {
        transform.translation.x -= motion.delta.x * ortho.scale;
        transform.translation.y += motion.delta.y * ortho.scale;
    }
    if !egui_input.wants_keyboard_input() {
        let mut pan = Vec2::ZERO;
        if keys.any_pressed([KeyCode::ArrowLeft, KeyCode::KeyA]) {
            pan.x -= 1.0;
        }
        if keys.any_pressed([KeyCode::ArrowRight, KeyCode::KeyD]) {
            pan.x += 1.0;
        }
        if keys.any_pressed([KeyCode::ArrowUp, KeyCode::KeyW]) {
            pan.y += 1.0;
        }
        if keys.any_pressed([KeyCode::ArrowDown, KeyCode::KeyS]) {
            pan.y -= 1.0;
        }
        let speed = 600.0 * ortho.scale * time.delta_secs();
        transform.translation.x += pan.x * speed;
        transform.translation.y += pan.y * speed;
        let mut zoom = 0.0;
        if keys.just_pressed(KeyCode::Equal) || keys.just_pressed(KeyCode::NumpadAdd) {
            zoom -= 1.0;
        }
        if keys.just_pressed(KeyCode::Minus) || keys.just_pressed(KeyCode::NumpadSubtract) {
            zoom += 1.0;
        }
        if zoom != 0.0 {
            ortho.scale = (ortho.scale * 1.2f32.powf(zoom)).clamp(0.05, 20.0);
        }
    }
    if over_map && scroll.delta.y != 0.0 {
        let factor = 1.1f32.powf(-scroll.delta.y.signum());
        // Zoom around the pointer.
        if let Some(screen) = pointer.screen {
            let before = screen_to_world(screen, view_centre, &transform, ortho.scale);
            ortho.scale = (ortho.scale * factor).clamp(0.05, 20.0);
            let after = screen_to_world(screen, view_centre, &transform, ortho.scale);
            transform.translation.x += before.x - after.x;
            transform.translation.y += before.y - after.y;
        }
    }
}

/// The largest a hex is drawn, in pixels, when the window opens framing a few units.
pub const LARGEST_HEX: f32 = 80.0;

/// The advance of one character of a token's name at its natural size, in world units
/// (13 px Fira Mono, Bevy's default font: 0.6 em).
const NAME_CHAR: f32 = 7.8;

/// Where the camera looks and its scale (world units per pixel) in a view of `view`
/// pixels: the hexes at `units` (their centres) with four hexes around them and room for
/// names of up to `name_chars` characters centred over the outermost (as drawn at that
/// scale: [`readable_scales`]), no larger than [`LARGEST_HEX`] and no smaller than the
/// whole map (`map`, the centres of its hexes) needs; the whole map when no units are
/// given (F). Tokens and names keep a readable size however far out that is.
pub fn framing(map: &[Vec2], units: &[Vec2], view: Vec2, name_chars: usize) -> (Vec2, f32) {
    let bounds = |points: &[Vec2]| {
        points.iter().fold(
            (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
            |(lo, hi), &p| (lo.min(p), hi.max(p)),
        )
    };
    let fit = |(lo, hi): (Vec2, Vec2), margin: f32| {
        let extent = (hi - lo) + Vec2::splat(HEX_SIZE * margin);
        let scale = (extent.x / view.x).max(extent.y / view.y).max(0.05);
        ((lo + hi) / 2.0, scale)
    };
    if map.is_empty() {
        return (Vec2::ZERO, 1.0);
    }
    let whole = fit(bounds(map), 2.4);
    if units.is_empty() {
        return whole;
    }
    let (lo, hi) = bounds(units);
    let (centre, scale) = fit((lo, hi), 8.0);
    // Half a name beyond the outermost units on either side. A name is as wide as its
    // characters at its natural size, in the world, while zoomed in; zoomed out it is kept
    // at least MIN_LABEL_PX high on the screen ([`readable_scales`]). So the units' span
    // plus the name must fit the view at both sizes (the second only when it can).
    let span = hi.x - lo.x + HEX_SIZE;
    let name = name_chars as f32 * NAME_CHAR;
    let name_px = name * MIN_LABEL_PX / 13.0;
    let mut names = (span + name) / view.x;
    if name_px < view.x {
        names = names.max(span / (view.x - name_px));
    }
    let scale = scale.max(names).max(2.0 * HEX_SIZE / LARGEST_HEX);
    if scale >= whole.1 {
        // The units need the whole map, or the whole map is small: show it whole, zoomed
        // out further if the names need it.
        (whole.0, whole.1.max(names))
    } else {
        (centre, scale)
    }
}

/// World position under a window point for a 2D camera at `camera` with `scale` whose
/// picture is centred on the window point `view_centre`.
fn screen_to_world(screen: Vec2, view_centre: Vec2, camera: &Transform, scale: f32) -> Vec2 {
    let centred = (screen - view_centre) * Vec2::new(1.0, -1.0) * scale;
    camera.translation.truncate() + centred
}

/// Finds the hex under the pointer (none while it is over a panel).
pub fn track_pointer(
    windows: Query<&Window>,
    camera: Query<(&Camera, &GlobalTransform), With<MapCamera>>,
    layout: Option<Res<MapLayout>>,
    game: Res<Game>,
    viewport: Res<MapViewport>,
    mut pointer: ResMut<Pointer>,
) {
    *pointer = Pointer::default();
    let (Ok(window), Ok((camera, at)), Some(layout)) = (windows.single(), camera.single(), layout)
    else {
        return;
    };
    let Some(screen) = window.cursor_position() else {
        return;
    };
    if viewport.pointer_over_ui {
        return;
    }
    pointer.screen = Some(screen);
    let Ok(world) = camera.viewport_to_world_2d(at, screen) else {
        return;
    };
    let hex = layout.0.world_pos_to_hex(world);
    if game.play.session().prepared().map.contains(hex) {
        pointer.hex = Some(hex);
    }
}

/// The overlays: hovered hex, selected unit, the acting unit's reachable hexes, the path to
/// the hovered hex and the planned destination, range rings and the line of sight.
#[allow(clippy::too_many_arguments)]
pub fn draw_overlays(
    mut gizmos: Gizmos,
    game: Res<Game>,
    layout: Option<Res<MapLayout>>,
    pointer: Res<Pointer>,
    toggles: Res<Toggles>,
    time: Res<Time>,
    mut flights: Local<Vec<(bevy::ecs::entity::Entity, f32)>>,
    mut glide: Local<Vec<(bevy::ecs::entity::Entity, Vec2)>>,
) {
    let Some(layout) = layout else { return };
    let session = game.play.session();
    let ring = |gizmos: &mut Gizmos, hex: Hex, colour: Color, scale: f32| {
        let corners = layout.0.hex_corners(hex);
        let centre = layout.pos(hex);
        for i in 0..6 {
            let a = centre + (corners[i] - centre) * scale;
            let b = centre + (corners[(i + 1) % 6] - centre) * scale;
            gizmos.line_2d(a, b, colour);
        }
    };
    // Projectiles in flight (missiles): a small white dart flying from its launcher towards
    // its target (over 0.8 s, stopping short of it until the shots are resolved).
    let dt = time.delta_secs();
    let mut seen = Vec::new();
    let mut glided = Vec::new();
    if let Some(mut q) = session.world.try_query_filtered::<(
        bevy::ecs::entity::Entity,
        &HexPos,
        &Facing,
        Option<&crate::battle::Homing>,
    ), With<crate::battle::Projectile>>()
    {
        let token_at =
            |e: bevy::ecs::entity::Entity| session.world.get::<HexPos>(e).map(|p| layout.pos(p.0));
        for (entity, pos, facing, missile) in q.iter(&session.world) {
            let (c, dir) =
                match missile.and_then(|m| Some((m, token_at(m.from)?, token_at(m.target)?))) {
                    Some((_, from, to)) => {
                        let key = entity;
                        let age = match flights.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, age)) => {
                                *age += dt;
                                *age
                            }
                            None => {
                                flights.push((key, 0.0));
                                0.0
                            }
                        };
                        seen.push(key);
                        let t = (age / 0.8).min(1.0) * 0.75;
                        (from + (to - from) * t, (to - from).normalize_or_zero())
                    }
                    None => {
                        // A projectile with a place of its own glides to it (its flight is
                        // animated, not teleported; the rules have already moved it).
                        let target = layout.pos(pos.0);
                        let shown = match glide.iter_mut().find(|(e, _)| *e == entity) {
                            Some((_, at)) => {
                                *at += (target - *at) * (dt * 2.5).min(1.0);
                                *at
                            }
                            None => {
                                glide.push((entity, target));
                                target
                            }
                        };
                        glided.push(entity);
                        let c = layout.pos(pos.0);
                        (
                            shown,
                            (layout.pos(pos.0 + facing.0) - c).normalize_or_zero(),
                        )
                    }
                };
            let side = Vec2::new(-dir.y, dir.x) * HEX_SIZE * 0.18;
            let tip = c + dir * HEX_SIZE * 0.45;
            let back = c - dir * HEX_SIZE * 0.3;
            let white = Color::srgb(1.0, 1.0, 1.0);
            gizmos.line_2d(back + side, tip, white);
            gizmos.line_2d(back - side, tip, white);
            gizmos.line_2d(back + side, back - side, white);
        }
    }
    flights.retain(|(k, _)| seen.contains(k));
    glide.retain(|(e, _)| glided.contains(e));
    super::window(&game).map_marks(
        &mut gizmos,
        &layout,
        &game,
        &ring,
        super::ruleset::MapMarks {
            ranges: toggles.ranges,
            reachable: toggles.reachable,
            pointer: pointer.hex,
        },
    );
    if let Some(hex) = pointer.hex {
        ring(&mut gizmos, hex, Color::srgb(1.0, 1.0, 1.0), 0.95);
    }
    if let Some(sel) = game.selected
        && let Some(hex) = session
            .roster()
            .entity(sel)
            .and_then(|e| session.world.get::<HexPos>(e))
            .map(|p| p.0)
    {
        gizmos.circle_2d(layout.pos(hex), HEX_SIZE * 0.8, Color::srgb(1.0, 0.95, 0.3));
    }
}

#[cfg(test)]
mod framing_tests {
    use super::*;

    fn grid(n: i32) -> Vec<Vec2> {
        (0..n)
            .flat_map(|x| (0..n).map(move |y| Vec2::new(x as f32, y as f32) * HEX_SIZE * 1.5))
            .collect()
    }

    /// A large map (200 hexes a side, about 4 pixels a hex whole) opens on two units close
    /// together, at 80 pixels a hex at most; units spread over the map open the whole map,
    /// as does F (no units).
    #[test]
    fn the_window_opens_on_the_units() {
        let view = Vec2::new(800.0, 600.0);
        let large = grid(200);
        let units = [large[0], large[3]];
        let (centre, scale) = framing(&large, &units, view, 6);
        assert!(
            (centre - (units[0] + units[1]) / 2.0).length() < 1e-3,
            "{centre}"
        );
        assert!(2.0 * HEX_SIZE / scale <= LARGEST_HEX + 1e-3, "{scale}");
        assert!(2.0 * HEX_SIZE / scale > 20.0, "{scale}");
        let (_, whole) = framing(&large, &[], view, 6);
        assert!(2.0 * HEX_SIZE / whole < 5.0, "{whole}");
        // Units spread over the map: the whole map, zoomed out as far as their names need.
        let spread = [large[0], large[large.len() - 1]];
        let (centre, scale) = framing(&large, &spread, view, 6);
        assert_eq!(centre, framing(&large, &[], view, 6).0);
        assert!(scale >= whole, "{scale} {whole}");
        assert_eq!(framing(&large, &spread, view, 0).1, whole);
        // A small map in a large view: the whole map, not larger than it needs.
        let small = grid(5);
        let big_view = Vec2::new(1800.0, 1000.0);
        assert_eq!(
            framing(&small, &[small[0]], big_view, 6),
            framing(&small, &[], big_view, 6)
        );
        // Long names over units far apart are framed whole: half a name (as drawn at the
        // scale chosen) beyond each outermost unit still lies in the view.
        let apart = [large[0], large[60 * 200]];
        let (_, short) = framing(&large, &apart, view, 6);
        let (_, long) = framing(&large, &apart, view, 30);
        assert!(long > short, "{short} {long}");
        let (token, label) = readable_scales(long);
        let name = 30.0 * NAME_CHAR * token * label;
        let width = (apart[1].x - apart[0].x + name) / long;
        assert!(width <= view.x + 1e-3, "{width}");
        // Zoomed in as well: two units three hexes apart with long names.
        let near = [large[0], large[3 * 200]];
        let (_, scale) = framing(&large, &near, view, 30);
        let (token, label) = readable_scales(scale);
        let width = (near[1].x - near[0].x + 30.0 * NAME_CHAR * token * label) / scale;
        assert!(width <= view.x + 1e-3, "{width}");
        let one = [large[100]];
        let (_, close) = framing(&large, &one, view, 6);
        assert!(
            (2.0 * HEX_SIZE / close - LARGEST_HEX).abs() < 1e-3,
            "{close}"
        );
    }

    /// Zoomed in, tokens and names keep their size; zoomed out to 4 world units a pixel, a
    /// disc of about 40 units would be 10 pixels and is drawn at 14, its 13-unit name at 11.
    #[test]
    fn tokens_and_names_keep_a_readable_size() {
        assert_eq!(readable_scales(0.5), (1.0, 1.0));
        let (token, label) = readable_scales(4.0);
        assert!((2.0 * TOKEN_RADIUS * HEX_SIZE * token / 4.0 - MIN_TOKEN_PX).abs() < 1e-4);
        assert!((13.0 * token * label / 4.0 - MIN_LABEL_PX).abs() < 1e-4);
    }

    /// Names side by side in one row of hexes (pointy: centres 55 units apart) overlap
    /// when longer than about six characters; the second is left out, the third (clear of
    /// the first) drawn, and a name that must be drawn (selected, acting, pointed at) is
    /// drawn whatever it covers, before the others.
    #[test]
    fn names_that_would_cover_others_are_left_out() {
        let row = |i: i32| Vec2::new(i as f32 * HEX_SIZE * 3f32.sqrt(), 0.0);
        let room = |i: i32, chars: usize| name_rect(row(i), 1.0, 1.0, chars);
        // Six characters take 7 × 7.8 = 54.6 units with the gap: they fit.
        assert!(room(0, 6).intersect(room(1, 6)).is_empty());
        assert!(!room(0, 7).intersect(room(1, 7)).is_empty());
        let names = [
            (room(0, 10), false),
            (room(1, 10), false),
            (room(2, 10), false),
        ];
        assert_eq!(uncluttered(&names), vec![true, false, true]);
        // The middle one selected: drawn first, and its neighbours are left out.
        let names = [
            (room(0, 10), false),
            (room(1, 10), true),
            (room(2, 10), false),
        ];
        assert_eq!(uncluttered(&names), vec![false, true, false]);
        // Two that must be drawn are both drawn.
        let names = [(room(0, 10), true), (room(1, 10), true)];
        assert_eq!(uncluttered(&names), vec![true, true]);
        // Zoomed out, names grow against the map (readable_scales): the room scales too.
        let far = name_rect(row(1), 2.0, 1.5, 10);
        assert!((far.size() - room(1, 10).size() * 3.0).length() < 1e-3);
        assert!((far.center().y - 2.0 * room(1, 10).center().y).abs() < 1e-3);
    }

    /// About one open hex in four has a star, the same one every time.
    #[test]
    fn stars_are_fixed_and_sparse() {
        let hexes: Vec<Hex> = (-20..20)
            .flat_map(|q| (-20..20).map(move |r| Hex::new(q, r)))
            .collect();
        let stars = hexes.iter().filter(|&&h| star(h).is_some()).count();
        assert!((300..500).contains(&stars), "{stars} of 1600");
        assert_eq!(star(Hex::new(3, -7)), star(Hex::new(3, -7)));
        for h in &hexes {
            if let Some((offset, size)) = star(*h) {
                assert!(offset.length() + size < 0.85, "{offset} {size}");
            }
        }
    }
}

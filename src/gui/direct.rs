//! The egui panels painted straight onto the window (README, "Window speed").
//!
//! Bevy draws every camera into an intermediate texture and then copies that texture to
//! the window with a full-screen shader. Under software rendering the copy cost as much
//! as drawing the map. So the map camera copies only its own rectangle (after clearing the
//! window to the panel colour), and the panel camera copies nothing: this module paints
//! its egui meshes onto the window afterwards, in place of bevy_egui's pass into the
//! intermediate texture.
//!
//! The panel camera's render schedule is [`PanelsPass`], which holds nothing but that
//! painting: Bevy's 2D passes would draw nothing for it, yet they cleared a depth texture
//! the size of the window every frame (about 1 ms of CPU under llvmpipe).
//!
//! bevy_egui still lays out the panels, keeps egui's textures and the screen transform,
//! and supplies the pipeline layout and the shader (`shading.rs` replaces the latter);
//! this module takes the meshes before bevy_egui uploads them, uploads them itself and
//! draws them with the pipeline specialised for the window's format. Paint callbacks
//! (custom Bevy rendering inside egui) are not drawn; the app has none.

use bevy::math::URect;
use bevy::prelude::*;
use bevy::render::camera::ExtractedCamera;
use bevy::render::extract_component::{ExtractComponent, ExtractComponentPlugin};
use bevy::render::render_resource::{
    Buffer, BufferDescriptor, BufferUsages, CachedRenderPipelineId, IndexFormat, PipelineCache,
    RenderPassDescriptor, SpecializedRenderPipelines,
};
use bevy::render::renderer::{RenderContext, RenderDevice, RenderQueue, ViewQuery};
use bevy::render::sync_world::MainEntity;
use bevy::render::view::ViewTarget;
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy_egui::render::systems::{
    EguiTextureBindGroups, EguiTextureId, EguiTransforms, prepare_egui_render_target_data_system,
};
use bevy_egui::render::{EguiCameraView, EguiPipeline, EguiPipelineKey};
use bevy_egui::{EguiPixelsPerPoint, EguiRenderOutput, egui};

/// Marks the camera whose egui context is painted straight onto its window. Give that
/// camera `CameraRenderGraph::new(PanelsPass)`, so that Bevy runs only the painting for
/// it, `CameraOutputMode::Skip`, so that Bevy does not also copy its intermediate texture
/// over the window, and `ClearColorConfig::None`. A camera of lower order must
/// write to the same window (as the map camera does, clearing it first): Bevy gives a
/// skipping camera the window's texture only through that camera, and the panels are
/// painted over whatever the window holds.
#[derive(Component, Clone, Copy, Default, ExtractComponent)]
pub struct PanelsOnWindow;

/// The render schedule of a [`PanelsOnWindow`] camera: the painting of its panels and
/// nothing else.
#[derive(bevy::ecs::schedule::ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct PanelsPass;

/// Adds the direct painting of [`PanelsOnWindow`] cameras' egui. Add it after
/// `EguiPlugin`.
pub struct DirectPanelsPlugin;

impl Plugin for DirectPanelsPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(ExtractComponentPlugin::<PanelsOnWindow>::default());
        let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
            return;
        };
        render_app
            .init_resource::<WindowPanels>()
            .add_systems(
                Render,
                prepare_panels
                    .in_set(RenderSystems::Prepare)
                    .before(prepare_egui_render_target_data_system),
            )
            .add_schedule(bevy::ecs::schedule::Schedule::new(PanelsPass))
            .add_systems(PanelsPass, paint_panels);
    }
}

/// One egui mesh to draw: its texture, the window pixels it may touch and its indices in
/// the shared index buffer.
struct Draw {
    texture: egui::TextureId,
    scissor: URect,
    indices: std::ops::Range<u32>,
}

/// What one camera's panels need for drawing: filled in `Prepare`, read in [`PanelsPass`].
#[derive(Default)]
struct Panels {
    /// The camera's main-world entity (the key of its egui textures and transform) and
    /// the egui pipeline for the window's texture format.
    target: Option<(MainEntity, CachedRenderPipelineId)>,
    draws: Vec<Draw>,
    vertices: Vec<u8>,
    indices: Vec<u32>,
    vertex_buffer: Option<Buffer>,
    index_buffer: Option<Buffer>,
    /// Whether the camera was seen this frame (the others are dropped).
    seen: bool,
}

/// Panels by the render-world entity of their camera.
#[derive(Resource, Default)]
struct WindowPanels(bevy::platform::collections::HashMap<Entity, Panels>);

/// Takes the egui meshes of every [`PanelsOnWindow`] camera (so that bevy_egui does not
/// also copy and upload them), uploads them and specialises the egui pipeline for the
/// window. Warns once if such a camera does not render with [`PanelsPass`]: its panels
/// would not be drawn.
#[allow(clippy::too_many_arguments)]
fn prepare_panels(
    mut panels: ResMut<WindowPanels>,
    cameras: Query<
        (
            Entity,
            &MainEntity,
            &ExtractedCamera,
            &ViewTarget,
            &EguiCameraView,
        ),
        With<PanelsOnWindow>,
    >,
    mut egui_views: Query<(&mut EguiRenderOutput, &EguiPixelsPerPoint)>,
    device: Res<RenderDevice>,
    queue: Res<RenderQueue>,
    pipeline_cache: Res<PipelineCache>,
    egui_pipeline: Res<EguiPipeline>,
    mut pipelines: ResMut<SpecializedRenderPipelines<EguiPipeline>>,
) {
    for panel in panels.0.values_mut() {
        panel.seen = false;
    }
    for (entity, main, camera, target, egui_view) in &cameras {
        if camera.schedule != bevy::ecs::schedule::ScheduleLabel::intern(&PanelsPass) {
            warn_once!("a PanelsOnWindow camera renders without PanelsPass: no panels drawn");
        }
        let Ok((mut output, scale)) = egui_views.get_mut(egui_view.0) else {
            continue;
        };
        let jobs = std::mem::take(&mut output.paint_jobs);
        let Some(size) = camera.physical_target_size else {
            continue;
        };
        let Some(format) = target.out_texture_view_format() else {
            // For a frame while a screenshot is taken or the window closes, or for good
            // when no camera of lower order writes to the window.
            debug!("the panels have no window texture to paint on this frame");
            continue;
        };
        let panel = panels.0.entry(entity).or_default();
        panel.seen = true;
        let pipeline = pipelines.specialize(
            &pipeline_cache,
            &egui_pipeline,
            EguiPipelineKey {
                target_format: format,
            },
        );
        panel.target = Some((*main, pipeline));
        fill(panel, &jobs, scale.pixels_per_point, size);
        upload(panel, &device, &queue);
    }
    panels.0.retain(|_, panel| panel.seen);
}

/// The meshes of `jobs` as one vertex and one index array, and a [`Draw`] for each mesh
/// that is not clipped away entirely.
fn fill(panel: &mut Panels, jobs: &[egui::ClippedPrimitive], pixels_per_point: f32, size: UVec2) {
    panel.draws.clear();
    panel.vertices.clear();
    panel.indices.clear();
    let window = URect::from_corners(UVec2::ZERO, size);
    let mut first_vertex = 0u32;
    for job in jobs {
        let egui::epaint::Primitive::Mesh(mesh) = &job.primitive else {
            warn_once!("an egui paint callback is not drawn on the window (gui::direct)");
            continue;
        };
        let scissor = clip_pixels(job.clip_rect, pixels_per_point).intersect(window);
        if scissor.is_empty() || mesh.indices.is_empty() {
            continue;
        }
        let start = panel.indices.len() as u32;
        panel
            .vertices
            .extend_from_slice(bytemuck::cast_slice(mesh.vertices.as_slice()));
        panel
            .indices
            .extend(mesh.indices.iter().map(|i| i + first_vertex));
        first_vertex += mesh.vertices.len() as u32;
        panel.draws.push(Draw {
            texture: mesh.texture_id,
            scissor,
            indices: start..panel.indices.len() as u32,
        });
    }
}

/// An egui clip rectangle in window pixels, rounded as bevy_egui rounds it.
fn clip_pixels(clip: egui::Rect, pixels_per_point: f32) -> URect {
    let px = |v: f32| (v * pixels_per_point).round().max(0.0) as u32;
    URect {
        min: UVec2::new(px(clip.min.x), px(clip.min.y)),
        max: UVec2::new(px(clip.max.x), px(clip.max.y)),
    }
}

/// Writes the arrays into the GPU buffers, growing them to the next power of two when
/// they are too small.
fn upload(panel: &mut Panels, device: &RenderDevice, queue: &RenderQueue) {
    let index_bytes: &[u8] = bytemuck::cast_slice(panel.indices.as_slice());
    for (buffer, bytes, usage, label) in [
        (
            &mut panel.vertex_buffer,
            panel.vertices.as_slice(),
            BufferUsages::VERTEX,
            "panels vertex buffer",
        ),
        (
            &mut panel.index_buffer,
            index_bytes,
            BufferUsages::INDEX,
            "panels index buffer",
        ),
    ] {
        if bytes.is_empty() {
            continue;
        }
        if buffer
            .as_ref()
            .is_none_or(|b| b.size() < bytes.len() as u64)
        {
            *buffer = Some(device.create_buffer(&BufferDescriptor {
                label: Some(label),
                size: (bytes.len() as u64).next_power_of_two(),
                usage: usage | BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        if let Some(buffer) = buffer {
            queue.write_buffer(buffer, 0, bytes);
        }
    }
}

/// Paints the panels onto the window, over the map camera's copy of its rectangle: Bevy
/// runs the cameras' schedules in the cameras' order, so a camera of lower order has
/// written the window by then.
fn paint_panels(
    view: ViewQuery<(&ViewTarget, &ExtractedCamera), With<PanelsOnWindow>>,
    panels: Res<WindowPanels>,
    pipeline_cache: Res<PipelineCache>,
    textures: Res<EguiTextureBindGroups>,
    transforms: Res<EguiTransforms>,
    mut ctx: RenderContext,
) {
    let entity = view.entity();
    let (target, camera) = view.into_inner();
    let Some(panel) = panels.0.get(&entity) else {
        return;
    };
    let (Some((main, pipeline)), Some(vertices), Some(indices), Some(size)) = (
        panel.target,
        &panel.vertex_buffer,
        &panel.index_buffer,
        camera.physical_target_size,
    ) else {
        return;
    };
    let (Some(pipeline), Some(&offset), Some((_, transform))) = (
        pipeline_cache.get_render_pipeline(pipeline),
        transforms.offsets.get(&main),
        transforms.bind_group.as_ref(),
    ) else {
        return;
    };
    if panel.draws.is_empty() {
        return;
    }
    let Some(attachment) = target.out_texture_color_attachment(None) else {
        return;
    };
    let mut pass = ctx.begin_tracked_render_pass(RenderPassDescriptor {
        label: Some("panels_on_window"),
        color_attachments: &[Some(attachment)],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    pass.set_camera_viewport(&bevy::camera::Viewport {
        physical_position: UVec2::ZERO,
        physical_size: size,
        ..default()
    });
    pass.set_render_pipeline(pipeline);
    pass.set_bind_group(0, transform, &[offset]);
    pass.set_vertex_buffer(0, vertices.slice(..));
    pass.set_index_buffer(indices.slice(..), IndexFormat::Uint32);
    let mut last_scissor = None;
    let mut last_slot = None;
    for draw in &panel.draws {
        let key = match draw.texture {
            egui::TextureId::Managed(id) => EguiTextureId::Managed(main, id),
            egui::TextureId::User(id) => EguiTextureId::User(id),
        };
        let Some((bind_group, slot)) = textures.get(&key) else {
            continue;
        };
        if last_scissor != Some(draw.scissor) {
            last_scissor = Some(draw.scissor);
            pass.set_scissor_rect(
                draw.scissor.min.x,
                draw.scissor.min.y,
                draw.scissor.width(),
                draw.scissor.height(),
            );
        }
        pass.set_bind_group(1, bind_group, &[]);
        // Bindless mode: which texture of the bind group's array (an immediate value).
        if let Some(slot) = slot
            && last_slot != Some(*slot)
        {
            last_slot = Some(*slot);
            pass.set_immediates(0, bytemuck::bytes_of(slot));
        }
        pass.draw_indexed(draw.indices.clone(), 0, 0..1);
    }
}

#[cfg(test)]
mod tests {
    //! The meshes gathered for drawing; the drawing itself is seen in screenshots.

    use super::*;

    fn mesh(texture: u64, vertices: usize) -> egui::epaint::Mesh {
        let mut mesh = egui::epaint::Mesh::with_texture(egui::TextureId::Managed(texture));
        for _ in 0..vertices {
            mesh.vertices.push(egui::epaint::Vertex {
                pos: egui::pos2(1.0, 2.0),
                uv: egui::pos2(0.0, 0.0),
                color: egui::Color32::WHITE,
            });
        }
        mesh.indices = vec![0, 1, 2];
        mesh
    }

    fn job(clip: egui::Rect, mesh: egui::epaint::Mesh) -> egui::ClippedPrimitive {
        egui::ClippedPrimitive {
            clip_rect: clip,
            primitive: egui::epaint::Primitive::Mesh(mesh),
        }
    }

    #[test]
    fn meshes_share_one_index_buffer_offset_by_their_first_vertex() {
        let clip = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(100.0, 50.0));
        let mut panel = Panels::default();
        fill(
            &mut panel,
            &[job(clip, mesh(0, 3)), job(clip, mesh(1, 4))],
            1.0,
            UVec2::new(200, 100),
        );
        assert_eq!(panel.indices, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(
            panel.vertices.len(),
            7 * std::mem::size_of::<egui::epaint::Vertex>()
        );
        assert_eq!(panel.draws.len(), 2);
        assert_eq!(panel.draws[1].indices, 3..6);
        assert_eq!(panel.draws[1].texture, egui::TextureId::Managed(1));
    }

    #[test]
    fn clip_rectangles_scale_to_pixels_and_stop_at_the_window() {
        // At 1.5 pixels per point, (10, 20)-(1000, 30) points is (15, 30)-(1500, 45)
        // pixels, cut at the 800-pixel-wide window.
        let clip = egui::Rect::from_min_max(egui::pos2(10.0, 20.0), egui::pos2(1000.0, 30.0));
        let mut panel = Panels::default();
        fill(
            &mut panel,
            &[job(clip, mesh(0, 3))],
            1.5,
            UVec2::new(800, 600),
        );
        assert_eq!(panel.draws[0].scissor, URect::new(15, 30, 800, 45));
        // Wholly outside the window: nothing to draw.
        let outside = egui::Rect::from_min_max(egui::pos2(900.0, 0.0), egui::pos2(950.0, 10.0));
        fill(
            &mut panel,
            &[job(outside, mesh(0, 3))],
            1.0,
            UVec2::new(800, 600),
        );
        assert!(panel.draws.is_empty() && panel.indices.is_empty());
    }
}

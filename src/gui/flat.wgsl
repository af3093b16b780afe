// The fill of the map and the tokens: a flat colour times the vertex colours, nothing else
// (gui::shading::FlatMaterial).
#import bevy_sprite::mesh2d_vertex_output::VertexOutput

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> color: vec4<f32>;

@fragment
fn fragment(mesh: VertexOutput) -> @location(0) vec4<f32> {
#ifdef VERTEX_COLORS
    return color * mesh.color;
#else
    return color;
#endif
}

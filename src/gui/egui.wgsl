// bevy_egui 0.42's egui shader (MIT or Apache-2.0, the bevy_egui authors) with one change:
// the sRGB conversions use square roots and a short sum instead of pow, which software
// rendering pays for on every pixel of every panel. Within 1/255 of the exact conversion
// on every 8-bit texture and vertex colour (test `gui::shading::tests`).
struct Transform {
    scale: vec2<f32>,
    translation: vec2<f32>,
}

struct VertexInput {
    @location(0) position: vec2<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) color: vec4<f32>,
}

struct VertexOutput {
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) uv: vec2<f32>,
}

@group(0) @binding(0) var<uniform> transform: Transform;

#ifdef BINDLESS
@group(1) @binding(0) var image_texture: binding_array<texture_2d<f32>>;
@group(1) @binding(1) var image_sampler: binding_array<sampler>;

struct BindlessOffset {
    offset: u32,
};
var<immediate> offset: BindlessOffset;

#else //BINDLESS
@group(1) @binding(0) var image_texture: texture_2d<f32>;
@group(1) @binding(1) var image_sampler: sampler;
#endif // BINDLESS

// 0-1 linear from 0-1 sRGB gamma: x^2.4 as x^2 times a sum of x^(1/2), x^(1/4), x^(1/8).
fn linear_from_gamma_rgb(srgb: vec3<f32>) -> vec3<f32> {
    let y = (srgb + vec3<f32>(0.055)) / vec3<f32>(1.055);
    let s1 = sqrt(y);
    let s2 = sqrt(s1);
    let s3 = sqrt(s2);
    let higher = y * y * (0.484708733 * s1 + 0.757385999 * s2 - 0.241906825 * s3);
    let lower = srgb / vec3<f32>(12.92);
    return select(higher, lower, srgb <= vec3<f32>(0.04045));
}

// 0-1 sRGB gamma from 0-1 linear: a sum of x^(1/2), x^(1/4), x^(1/8).
fn gamma_from_linear_rgb(rgb: vec3<f32>) -> vec3<f32> {
    let s1 = sqrt(rgb);
    let s2 = sqrt(s1);
    let s3 = sqrt(s2);
    let higher = max(0.585122381 * s1 + 0.783140355 * s2 - 0.368262736 * s3, vec3<f32>(0.0));
    let lower = rgb * vec3<f32>(12.92);
    return select(higher, lower, rgb < vec3<f32>(0.0031308));
}

// 0-1 sRGBA gamma from 0-1 linear.
fn gamma_from_linear_rgba(linear_rgba: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(gamma_from_linear_rgb(linear_rgba.rgb), linear_rgba.a);
}

@vertex
fn vs_main(in: VertexInput) -> VertexOutput {
    let position = in.position * transform.scale + transform.translation;
    return VertexOutput(vec4<f32>(position, 0.0, 1.0), in.color, in.uv);
}

@fragment
fn fs_main(in: VertexOutput) -> @location(0) vec4<f32> {
    #ifdef BINDLESS
    let image_texture = image_texture[offset.offset];
    let image_sampler = image_sampler[offset.offset];
    #endif

    // Colours are multiplied in gamma space, as egui does.
    let texture_color_linear = textureSample(image_texture, image_sampler, in.uv);
    let texture_color_gamma = gamma_from_linear_rgba(texture_color_linear);
    let color_gamma = texture_color_gamma * in.color;

    return vec4<f32>(linear_from_gamma_rgb(color_gamma.rgb), color_gamma.a);
}

//! Cheaper shading for software rendering (README, "Window speed"): a flat-colour material
//! for the map and the tokens, and egui's shader with its sRGB conversions done by square
//! roots instead of `pow`.

use bevy::asset::{AssetPath, embedded_asset, embedded_path};
use bevy::prelude::*;
use bevy::render::render_resource::AsBindGroup;
use bevy::shader::{Shader, ShaderRef};
use bevy::sprite_render::{AlphaMode2d, Material2d, Material2dPlugin};

/// Registers [`FlatMaterial`] and puts `egui.wgsl` in place of bevy_egui's shader. Add it
/// after `EguiPlugin`.
pub struct ShadingPlugin;

impl Plugin for ShadingPlugin {
    fn build(&self, app: &mut App) {
        embedded_asset!(app, "flat.wgsl");
        app.add_plugins(Material2dPlugin::<FlatMaterial>::default());
        let shader = Shader::from_wgsl(include_str!("egui.wgsl"), file!());
        if let Some(mut shaders) = app.world_mut().get_resource_mut::<Assets<Shader>>()
            && shaders
                .insert(bevy_egui::render::EGUI_SHADER_HANDLE.id(), shader)
                .is_err()
        {
            warn!("egui's shader could not be replaced; panels are drawn with the original");
        }
    }
}

/// A colour (times the mesh's vertex colours, if it has any), opaque or blended. Bevy's
/// `ColorMaterial` also transforms texture coordinates and tests for a texture and alpha
/// on every pixel, which software rendering pays for.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub struct FlatMaterial {
    /// The colour, linear.
    #[uniform(0)]
    pub color: LinearRgba,
    /// Blended when the colour is translucent.
    pub alpha_mode: AlphaMode2d,
}

impl From<Color> for FlatMaterial {
    fn from(color: Color) -> Self {
        Self {
            color: color.to_linear(),
            alpha_mode: if color.alpha() < 1.0 {
                AlphaMode2d::Blend
            } else {
                AlphaMode2d::Opaque
            },
        }
    }
}

impl Material2d for FlatMaterial {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Path(
            AssetPath::from_path_buf(embedded_path!("flat.wgsl")).with_source("embedded"),
        )
    }

    fn alpha_mode(&self) -> AlphaMode2d {
        self.alpha_mode
    }
}

#[cfg(test)]
mod tests {
    //! The conversions of `egui.wgsl`, computed here the same way, against the exact sRGB
    //! formulas.

    const EGUI_WGSL: &str = include_str!("egui.wgsl");

    fn exact_linear(x: f64) -> f64 {
        if x <= 0.04045 {
            x / 12.92
        } else {
            ((x + 0.055) / 1.055).powf(2.4)
        }
    }

    fn exact_gamma(x: f64) -> f64 {
        if x < 0.0031308 {
            x * 12.92
        } else {
            1.055 * x.powf(1.0 / 2.4) - 0.055
        }
    }

    fn roots(x: f64) -> (f64, f64, f64) {
        let s1 = x.sqrt();
        let s2 = s1.sqrt();
        (s1, s2, s2.sqrt())
    }

    fn shader_linear(x: f64) -> f64 {
        if x <= 0.04045 {
            return x / 12.92;
        }
        let y = (x + 0.055) / 1.055;
        let (s1, s2, s3) = roots(y);
        y * y * (0.484708733 * s1 + 0.757385999 * s2 - 0.241906825 * s3)
    }

    fn shader_gamma(x: f64) -> f64 {
        if x < 0.0031308 {
            return x * 12.92;
        }
        let (s1, s2, s3) = roots(x);
        (0.585122381 * s1 + 0.783140355 * s2 - 0.368262736 * s3).max(0.0)
    }

    fn to_byte(x: f64) -> i32 {
        (x.clamp(0.0, 1.0) * 255.0).round() as i32
    }

    #[test]
    fn the_shader_uses_the_constants_checked_here() {
        for constant in [
            "0.484708733",
            "0.757385999",
            "0.241906825",
            "0.585122381",
            "0.783140355",
            "0.368262736",
            "0.04045",
            "0.0031308",
        ] {
            assert!(EGUI_WGSL.contains(constant), "{constant} missing");
        }
        assert!(!EGUI_WGSL.contains("pow("));
    }

    /// Every 8-bit texel (stored as sRGB, read back linear) times every 8-bit vertex
    /// colour channel comes out of the fragment shader's arithmetic, once written back as
    /// sRGB, within one step of 255 of egui's exact result.
    #[test]
    fn panel_colours_stay_within_one_step_of_exact() {
        let mut worst = 0;
        for texel in 0..=255 {
            let sampled = exact_linear(f64::from(texel) / 255.0);
            for colour in 0..=255 {
                let c = f64::from(colour) / 255.0;
                let exact = to_byte(exact_gamma(exact_linear(exact_gamma(sampled) * c)));
                let ours = to_byte(exact_gamma(shader_linear(
                    shader_gamma(sampled).min(1.0) * c,
                )));
                worst = worst.max((exact - ours).abs());
            }
        }
        assert!(worst <= 1, "worst difference {worst}/255");
    }
}

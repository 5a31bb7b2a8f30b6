//! Every choice the fragment reference makes where docs/specs/pica200-fragment-facts.md has no
//! hardware answer (its section 7 and appendix A), each in one place. The list with the evidence
//! for each is docs/pica-fragment.md "Decisions"; the identifiers D1-D15 are the same there.
//! D11 (cube-face ties) lives in `texture::cube_coords`, where the face is chosen.

use super::key::FogKey;
use super::Rgba;
use crate::regs::layouts::{FogMode, TexEnvScale, TextureType};

/// D1 (facts 7.1, appendix A "per-stage rounding"): the products of Modulate, Interpolate,
/// Multiply-add and Add-multiply are divided by 255 exactly and truncated, as Azahar's
/// integer software renderer does (sw_texturing.cpp); every stage output is a byte.
#[inline]
pub const fn div255(x: u32) -> u32 {
    x / 255
}

/// D2a (facts 2.5): the bias of Add signed on bytes is 128.
pub const ADD_SIGNED_BIAS: i32 = 128;

/// D2b (facts 7.2, 2.6, appendix A "Dot3 scale"): Dot3 on bytes is
/// `clamp8(sum over r,g,b of floor((2a-255)(2b-255) / 256))`: each product is taken to 1/256
/// by an arithmetic shift, with no rounding constant. The hardware results of appendix B say
/// the per-component precision is no better than 1/256 *and* that dot3((0x80,..),(0x7F,..))
/// differs from dot3((0x80,..),(0x80,..)); the two published formulas (Azahar's
/// `trunc((p + 128) / 256)` and Lectem's fitted `(p + 128) / 255`) both give 0 for p = 1 and
/// p = -1, so neither shows that difference, while the shift gives 0 and -1. Each term is
/// within 1 of Azahar's (its comment reports a worst case of +/-3 against hardware).
#[inline]
pub fn dot3(a: [u8; 3], b: [u8; 3]) -> u8 {
    let mut sum = 0i32;
    for ch in 0..3 {
        let x = 2 * i32::from(a[ch]) - 255;
        let y = 2 * i32::from(b[ch]) - 255;
        sum += (x * y) >> 8;
    }
    sum.clamp(0, 255) as u8
}

/// D3a (facts 7.3, 2.2, appendix A "stage-0 previous"): the "previous" value before stage 0.
/// Azahar's software renderer (since citra#7411) starts from zero.
pub const STAGE0_PREVIOUS: Rgba = [0; 4];

/// D3b (facts 2.3): stage 0 reading "previous buffer" gets zero (all three emulators agree).
pub const STAGE0_BUFFER: Rgba = [0; 4];

/// D3c (facts 2.2): in stage 0 only, an RGB source 0 or 1 equal to "previous" reads RGB source 2
/// instead; the alpha sources are left alone (Azahar's software renderer, WriteTevConfig; the
/// GLSL generator also substitutes alpha sources). Returns whether the substitution applies to
/// RGB slot `slot` of stage `stage`.
#[inline]
pub const fn stage0_substitutes_rgb(stage: usize, slot: usize) -> bool {
    stage == 0 && slot < 2
}

/// D4a (facts 7.4): TexEnv sources 7-12 read (0, 0, 0, 0) (Azahar).
pub const UNDEFINED_SOURCE: Rgba = [0; 4];

/// D4b (facts 2.4): RGB operands 6, 7, 10, 11, 14 and 15 give 0 (Azahar's shader generator;
/// Panda3DS gives 1).
pub const UNDEFINED_RGB_OPERAND: [u8; 3] = [0; 3];

/// D4c (facts 2.5, 2.6): combine values 10-15, and Dot3 RGB / Dot3 RGBA as the alpha combine of a
/// stage whose RGB combine is not Dot3 RGBA, give 0 (Azahar).
pub const UNDEFINED_COMBINE: u8 = 0;

/// D4d (facts 2.7): the scale field: 0, 1, 2 are x1, x2, x4; 3 is x1 (Azahar's
/// GetColorMultiplier). Returns the left shift.
#[inline]
pub const fn scale_shift(scale: TexEnvScale) -> u32 {
    match scale {
        TexEnvScale::X2 => 1,
        TexEnvScale::X4 => 2,
        _ => 0,
    }
}

/// D5 (facts 1): the interpolated primary colour becomes a byte by `round(c * 255)`, half away
/// from zero, after clamping to [0, 1] (the vertex stage already saturates; the clamp keeps the
/// reference total). NaN gives 0. For c in [0, 1] this equals `f + (c*255 - f >= 0.5)` with
/// `f = floor(c*255)`, which a shader computes exactly.
#[inline]
pub fn color_byte(c: f32) -> u8 {
    (clamp01(c) * 255.0).round() as u8
}

/// D6: a float clamped to [0, 1] maps NaN to 0 (the facts leave non-finite inputs open; a total
/// reference needs one answer, and 0 is what a shader's `max(x, 0)` then `min(x, 1)` with
/// NaN-discarding min/max gives).
#[inline]
pub fn clamp01(x: f32) -> f32 {
    if x >= 1.0 {
        1.0
    } else if x > 0.0 {
        x
    } else {
        0.0
    }
}

/// D7a (facts 4.1, 7.11): a fog LUT entry's value is bits 13-23 / 2047 and its delta the 13-bit
/// two's-complement bits 0-12 / 2047 (Azahar's decode; citro3d encodes with 2048).
#[inline]
pub fn fog_entry(raw: u32) -> (f32, f32) {
    let value = ((raw >> 13) & 0x7FF) as f32 / 2047.0;
    let delta = (((raw & 0x1FFF) << 19) as i32 >> 19) as f32 / 2047.0;
    (value, delta)
}

/// D7b (facts 4.1): the fog stage of fog mode `mode`; modes other than 0, 5 and 7 are off
/// (Azahar).
#[inline]
pub fn fog_key(mode: FogMode, z_flip: bool) -> FogKey {
    match mode {
        FogMode::Fog => FogKey::Fog { z_flip },
        FogMode::Gas => FogKey::Gas,
        _ => FogKey::Off,
    }
}

/// D8 (facts 4.2, 7.12, appendix A "gas"): gas shading (fog mode 7) has no public formula; the
/// combiner output passes through unchanged (Azahar's software renderer ignores gas; its shader
/// writes (0, 0, 0, 0), the alternative kept in `fog::apply`). The density-accumulation operation mode (COLOR_OPERATION mode 1) is
/// treated as the default mode.
pub const GAS_PASSES_THROUGH: bool = true;

/// D9 (facts 6.3, 7.14, appendix A "shadow compare"): a shadow texture is one nearest texel
/// compared with `z_ref >= z` (Azahar's software renderer), z = trunc(min(|w|, 1) * 0xFFFFFF) -
/// bias, not clamped at zero. Returns the intensity.
#[inline]
pub fn shadow_compare(texel: Rgba, z: i64) -> u8 {
    let z_ref = (i64::from(texel[3]) << 16) | (i64::from(texel[2]) << 8) | i64::from(texel[1]);
    if z_ref >= z {
        texel[0]
    } else {
        0
    }
}

/// D10 (facts 6.4, appendix A "alpha test in shadow mode"): in shadow-render mode the alpha test,
/// fog and everything after are skipped (Azahar's software renderer; the order of facts 0.4).
pub const SHADOW_MODE_SKIPS_ALPHA_TEST: bool = true;

/// D12 (facts 6.1, 6.2): texture types 6 and 7 are sampled as 2D (Azahar logs and samples with
/// the plain coordinates); only unit 0 honours the type field.
#[inline]
pub const fn unit0_type(t: TextureType) -> TextureType {
    match t {
        TextureType::Other(_) => TextureType::Tex2d,
        t => t,
    }
}

/// D13 (facts 6.4, 7.14): the shadow-map update's penumbra arithmetic is f32 on the f16
/// register values, clamped to [0, 255] and truncated (Azahar's DrawShadowMapPixel).
#[inline]
pub fn shadow_penumbra(s: u8, d: u32, z_ref: u32, constant: f32, linear: f32) -> u8 {
    let denom = constant + linear * d as f32 / z_ref as f32;
    let v = f32::from(s) / denom;
    if v >= 255.0 {
        255
    } else if v > 0.0 {
        v as u8
    } else {
        0
    }
}

/// D14 (facts 6.6, 7.15): the pipeline's colours are bytes throughout; fog converts its blend
/// back to a byte by truncation (Azahar's software renderer). The output is the byte value; no
/// further rounding happens.
#[inline]
pub fn fog_byte(v: f32) -> u8 {
    if v >= 255.0 {
        255
    } else if v > 0.0 {
        v as u8
    } else {
        0
    }
}

/// D15 (facts 4.1, 7.11): the fog index uses the depth after the [0, 1] clamp (Azahar's software
/// renderer clamps first; its shader relies on the index clamp).
pub const FOG_USES_CLAMPED_DEPTH: bool = true;

//! Every choice the fragment reference makes where docs/specs/pica200-fragment-facts.md has no
//! hardware answer (its section 7 and appendix A), each in one place. The list with the evidence
//! for each is docs/pica-fragment.md "Decisions"; the identifiers D1-D28 are the same there.
//! D11 (cube-face ties) lives in `texture::cube_coords`, where the face is chosen; D27's decoding
//! of undefined procedural-texture values in `proctex::ProcTexKey::decode`.

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
    trunc_byte(v)
}

/// A value in byte units clamped to [0, 255] and truncated; NaN gives 0 (D6's rule). The byte
/// conversion of D14 (fog) and D28 (the procedural texture's filtered colour).
#[inline]
pub fn trunc_byte(v: f32) -> u8 {
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

// ---- Fragment lighting (facts 3) and the procedural texture (facts 5): D16-D28. ----

/// D16 (facts 3.1, 7.6, appendix A "lighting gate"): lighting runs only when both gates say so,
/// GPUREG_LIGHTING_ENABLE0 (0x08F) bit 0 set *and* GPUREG_LIGHTING_ENABLE1 (0x1C6) bit 0 clear.
/// citro3d writes the two together (ENABLE0 = 1 with ENABLE1 = 0, or the reverse), so every
/// known writer agrees with both emulators' single test (Azahar reads 0x1C6, Panda3DS 0x08F);
/// requiring both keeps a zeroed register file unlit.
#[inline]
pub const fn lighting_enabled(enable0: u32, enable1: u32) -> bool {
    enable0 & 1 == 1 && enable1 & 1 == 0
}

/// D17 (facts 3.8, 7.5, appendix A "CONFIG1 bit 20 / 22"): LIGHTING_CONFIG1 bit 20 disables RB
/// and bit 22 RR, as 3dbrew, GBATEK, libctru (GPU_LC1_LUTBIT), citro3d and Panda3DS say; Azahar
/// alone decodes them the other way round.
pub const CONFIG1_RB_DISABLE_BIT: u32 = 20;
/// D17: bit 21 disables RG (all sources agree).
pub const CONFIG1_RG_DISABLE_BIT: u32 = 21;
/// D17: bit 22 disables RR.
pub const CONFIG1_RR_DISABLE_BIT: u32 = 22;

/// D18 (facts 3.7, 7.7, appendix A "LUT delta interpolation"): a lighting LUT entry's 12-bit value
/// is over 4095 and its 11-bit delta magnitude over 2047 (Azahar's decode), interpolated in f32 as
/// `value + f * delta` (`lut::lighting_value`). citro3d encodes with 4096 and 2048 (0.02 % and
/// 0.05 % apart); over 4095 a saturated table (0xFFF) is exactly 1.0, which the truncating byte
/// conversion of D19 needs to give 255 for full intensity.
pub const LIGHTING_LUT_VALUE_ONE: f32 = 4095.0;
/// D18: the delta's scale.
pub const LIGHTING_LUT_DELTA_ONE: f32 = 2047.0;

/// D19 (facts 3.10, 3.12, 7.7, appendix A "lighting -> u8"): the lighting datapath is f32 (as in
/// every public implementation; the hardware's reduced precision is not published), in the
/// order written in `lighting.rs`; the two colours are clamped to [0, 1] and become bytes by
/// truncation, `trunc(x * 255)` (Azahar's software renderer; its shader keeps the float), in
/// line with D1's bytes throughout. NaN gives 0.
#[inline]
pub fn lighting_byte(x: f32) -> u8 {
    (clamp01(x) * 255.0) as u8
}

/// D20 (facts 3.2, 7.8): light colour registers have three 10-bit fields (B 0-9, G 10-19, R 20-29)
/// and 255 is 1.0 (Azahar), so the bits 8-9 that citro3d's unclamped products spill into read as
/// extra magnitude (up to 1023/255). Returns R, G, B.
#[inline]
pub fn light_color(raw: u32) -> [f32; 3] {
    let field = |shift: u32| ((raw >> shift) & 0x3FF) as f32 / 255.0;
    [field(20), field(10), field(0)]
}

/// D21 (facts 3.8, 7.9): which LUTs a light-environment configuration (CONFIG0 bits 4-7) offers,
/// as the register page's table, value 8 being "configuration 7"; values 7 and 9-15 offer all but
/// RB and RG (Azahar's IsLightingSamplerSupported; Panda3DS offers none). `lut` is the index in
/// `lighting::LUTS` order: D0, D1, SP, FR, RB, RG, RR (DA is always available).
#[inline]
pub const fn lut_available(config: u32, lut: usize) -> bool {
    // One row per LUT, bit c = configuration value c offers it.
    const TABLE: [u16; 7] = [
        !(1 << 1),                         // D0: not in 1
        !((1 << 0) | (1 << 1) | (1 << 5)), // D1: not in 0, 1, 5
        !((1 << 2) | (1 << 3)),            // SP: not in 2, 3
        !((1 << 0) | (1 << 2) | (1 << 4)), // FR: not in 0, 2, 4
        (1 << 4) | (1 << 5) | (1 << 8),    // RB: 4, 5, 8
        (1 << 4) | (1 << 5) | (1 << 8),    // RG: 4, 5, 8
        !(1 << 3),                         // RR: not in 3
    ];
    lut < 7 && TABLE[lut] >> (config & 0xF) & 1 == 1
}

/// D21 (facts 3.5, 7.9): LUT input selectors 6 and 7 read 0 (Azahar logs and uses 0).
pub const UNDEFINED_LUT_INPUT: f32 = 0.0;

/// D21 (facts 3.6, 7.9): the LUT output scale of a 3-bit field: 0-3 are x1, x2, x4, x8, 6 and 7
/// x0.25 and x0.5; 4 and 5 give 0 (Azahar's GetScale).
#[inline]
pub const fn lut_scale(field: u32) -> f32 {
    match field & 7 {
        0 => 1.0,
        1 => 2.0,
        2 => 4.0,
        3 => 8.0,
        6 => 0.25,
        7 => 0.5,
        _ => 0.0,
    }
}

/// D22 (facts 3.2): the spot direction's 13-bit two's-complement fields are over 2047 (Azahar), not
/// 2048. (D22's other half, the distance of a directional light being |position| with distance
/// attenuation applied to it, lives where the distance is formed, `lighting::compute`.)
#[inline]
pub fn spot_component(raw13: u32) -> f32 {
    (((raw13 & 0x1FFF) << 19) as i32 >> 19) as f32 / 2047.0
}

/// D23 (facts 5.4, 7.13): the procedural texture's square root (mapping functions 6 and 9) is the
/// exact f32 square root. The hardware's is inaccurate near 0 (citra#2697, fincs' test) but its
/// approximation is not published; Citra chose the exact root on purpose.
#[inline]
pub fn proctex_sqrt(x: f32) -> f32 {
    x.sqrt()
}

/// D24 (facts 5.1, 5.2, 7.13): the noise amplitude (PROCTEX1/2 bits 0-15, fixed1.3.12) is the
/// signed field over 4096, its register format and citro3d's encoding (amplitude * 0x1000);
/// Azahar divides by 4095 (0.02 % apart). The map LUT value is clamped to [0, 1] (Azahar's shader;
/// its software path does not clamp, which lets a colour-LUT index leave the table).
#[inline]
pub fn noise_amplitude(raw16: u32) -> f32 {
    f32::from(raw16 as u16 as i16) / 4096.0
}

/// D25 (facts 5.1, 5.2, 7.13): the colour-LUT offsets of levels 4-7 are 0xF0, 0xF8, 0xFC, 0xFE
/// whatever 0xAE holds (Azahar, citra#3916: "seem to be hardcoded"; the mip level boundaries of
/// that change matched hardware).
pub const PROCTEX_LEVEL_OFFSETS_4_7: [u8; 4] = [0xF0, 0xF8, 0xFC, 0xFE];

/// D26 (facts 5.2, 7.13): the procedural texture's level of detail,
/// `lambda = log2(|width * bias| * (du + dv))`, 0 when the bias is 0, clamped to
/// [max(min_lod, 0), min(max_lod, 7)] (Azahar's shader; the OpenGL upper-bound footprint). `du`,
/// `dv` are max(|d/dx|, |d/dy|) of the absolute coordinates. NaN gives the lower bound; a lower
/// bound above the upper one gives the upper (the order of Azahar's clamp, min after max).
#[inline]
pub fn proctex_lod(width: u32, bias: f32, du: f32, dv: f32, min_lod: u32, max_lod: u32) -> f32 {
    let lambda = if bias == 0.0 { 0.0 } else { ((width as f32 * bias).abs() * (du + dv)).log2() };
    let lo = min_lod as f32;
    let hi = max_lod.min(7) as f32;
    let l = if lambda >= lo { lambda } else { lo };
    if l <= hi {
        l
    } else {
        hi
    }
}

/// D27 (facts 5.1-5.4, 7.13): procedural-texture register values the facts leave undefined:
/// clamp modes 5-7 clamp to the edge, shift 3 is no shift, mapping functions 10-15 give 0,
/// filters 6 and 7 are nearest without mipmaps (Azahar's software renderer for each), and
/// coordinate source 3 reads texture coordinate 0 (Azahar's shader logs and uses 0).
pub const PROCTEX_UNDEFINED_MAP: f32 = 0.0;

/// D28 (facts 5.2 step 7): a colour-LUT index is taken modulo 256 (the table's size; the facts do
/// not say what an offset plus width past 255 reads); level widths are `width >> level` and the
/// coordinate `m * max(width_level - 1, 0)`; a filtered colour (linear filter, linear mip) is
/// f32 in byte units, clamped to [0, 255] and truncated to a byte as the software renderer does
/// ([`trunc_byte`]).
pub const PROCTEX_INDEX_MASK: usize = 0xFF;

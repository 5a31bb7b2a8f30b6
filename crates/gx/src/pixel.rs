//! The per-pixel steps after the TEV stages (specs/hollywood-tev-more-facts.md §0 steps 6-8):
//! z texture, fog with range adjustment, dither, constant alpha and the EFB pixel format.
//!
//! Hardware's fixed-point fog path is unknown (more-facts §3.3, §6 item 8); Dolphin evaluates
//! fog in floats. This module defines one integer fog computation that follows Dolphin's
//! formulas step by step, with every quantisation written down here and in docs/gx-decisions.md
//! "Fog", so the CPU reference and the generated shader agree bit for bit. The register values
//! become the integers of [`PostParams`] once per material (they are the shader's uniforms); the
//! per-pixel part uses only i32 arithmetic, one truncating division and one integer square root.

use crate::bp::{Fog, TevState};

/// Fixed-point scale of the fog factor: `ifog` runs from 0 (no fog) to 256 (fog colour).
pub const FOG_ONE: i32 = 256;
/// |C| in 1/256 is saturated to this, and the eye-distance value `ze` to twice it, so that
/// `clamp(ze - c, 0, 256)` is unchanged by the saturation and no product overflows 32 bits.
pub const FOG_C_LIMIT: i32 = 1 << 18;
/// Saturation of `ze` (in 1/256) before range adjustment.
pub const FOG_ZE_LIMIT: i32 = 1 << 19;
/// Saturation of the orthographic A in 1/4096 (|A| below 8).
pub const FOG_ORTHO_A_LIMIT: i32 = (1 << 15) - 1;
/// The largest range-adjust factor, in 1/256 (x8).
pub const FOG_RANGE_ADJ_LIMIT: i32 = 1 << 11;
/// The normalised horizontal offset of range adjustment is saturated to this, in 1/256 (x64).
pub const FOG_RANGE_OFFSET_LIMIT: i32 = 1 << 14;
/// Depth values are 24-bit.
pub const Z_MASK: u32 = 0xFF_FFFF;
/// The viewport half-width range adjustment assumes when the host gives none: a 640-pixel EFB.
pub const DEFAULT_VIEWPORT_HALF_WIDTH: u16 = 320;

/// The 2x2 Bayer matrix of dither, `[y & 1][x & 1]` (more-facts §3.5).
pub const DITHER: [[u8; 2]; 2] = [[0, 2], [3, 1]];

/// The fog function of a `fsel` value as the code runs it: 0 off, 2 linear (also 1 and 3,
/// which Dolphin's generated shaders treat as linear: only `fsel == 0` skips fog), 4-7 the
/// exponential curves.
pub fn fog_function(fsel: u8) -> u8 {
    match fsel & 7 {
        1 | 3 => 2,
        f => f,
    }
}

/// `value * 2^shift` of a GX fog float (11-bit mantissa with the implicit one, 8-bit exponent)
/// as an integer truncated toward zero and saturated to `limit`; exponent 0 reads as zero.
fn fixed(mantissa: u16, exponent: u8, sign: bool, shift: i32, limit: i32) -> i32 {
    if exponent == 0 {
        return 0;
    }
    let m = (2048 + (mantissa & 0x7FF) as i64) as i128;
    // value = m * 2^(exponent - 127 - 11); times 2^shift.
    let e = exponent as i32 - 138 + shift;
    let mag = if e >= 0 {
        if e > 60 {
            i128::MAX
        } else {
            m << e
        }
    } else if e < -60 {
        0
    } else {
        m >> -e
    };
    let mag = mag.min(limit as i128) as i32;
    if sign {
        -mag
    } else {
        mag
    }
}

/// The integer fog parameters of a state: the shader's fog uniforms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FogParams {
    /// A in 1/2^32 (perspective) or 1/4096 (orthographic), truncated, saturated.
    pub a: i32,
    /// B magnitude (24-bit).
    pub b_mag: i32,
    /// B shift (0-31).
    pub b_shift: u32,
    /// C in 1/256, truncated, saturated to ±[`FOG_C_LIMIT`].
    pub c: i32,
    /// Fog colour RGB.
    pub color: [u8; 3],
    /// The range-adjust centre in pixels (`center - 342`).
    pub range_center: i32,
    /// Viewport half-width in pixels (at least 1).
    pub half_width: i32,
    /// The ten range-adjust factors k in 1/256: the 12-bit register value times 4 (the
    /// facts' "/256 x4").
    pub k: [i32; 10],
}

impl FogParams {
    /// The parameters of the fog registers (`proj`: 1 orthographic).
    pub fn new(fog: &Fog) -> Self {
        let (a, c) = (&fog.a, &fog.c);
        let ortho = c.proj == 1;
        let (a_shift, a_limit) = if ortho { (12, FOG_ORTHO_A_LIMIT) } else { (32, i32::MAX) };
        let (mut av, mut cv) = (
            fixed(a.mantissa, a.exponent, a.sign, a_shift, a_limit),
            fixed(c.mantissa, c.exponent, c.sign, 8, FOG_C_LIMIT),
        );
        // Both exponents 255 (inf / NaN): hardware fogs fully only when both signs are positive,
        // else not at all (BPMemory.cpp's hardware-derived table, more-facts §3.3).
        if a.exponent == 255 && c.exponent == 255 {
            av = 0;
            cv = if !a.sign && !c.sign { -FOG_C_LIMIT } else { FOG_C_LIMIT };
        }
        Self {
            a: av,
            b_mag: fog.b_magnitude.magnitude as i32,
            b_shift: fog.b_shift.shift as u32 & 31,
            c: cv,
            color: [fog.color.r, fog.color.g, fog.color.b],
            range_center: fog.range.center as i32 - 342,
            half_width: (fog.viewport_half_width as i32).max(1),
            k: std::array::from_fn(|j| fog.range_factor(j) as i32 * 4),
        }
    }
}

/// `floor(sqrt(n))` for `n >= 0`.
pub fn isqrt(n: i32) -> i32 {
    (n.max(0) as u32).isqrt() as i32
}

/// The range-adjust factor in 1/256 at pixel column `x`: sqrt(offset² + k²) / k with the
/// offset from the centre normalised by the viewport half-width and k interpolated between the
/// ten factors by that offset (Dolphin's software renderer, more-facts §3.3), in fixed point.
pub fn range_adjust(p: &FogParams, x: i32) -> i32 {
    let offset = (x - p.range_center).unsigned_abs().min(1 << 22) as i32;
    let on = ((offset << 8) / p.half_width).min(FOG_RANGE_OFFSET_LIMIT);
    // index = 9 - 9 * offset, in 1/256, clamped to [0, 9].
    let index = (9 * 256 - 9 * on).max(0);
    let (lower, frac) = ((index >> 8) as usize, index & 255);
    let upper = (lower + 1).min(9);
    let k = (p.k[lower] * (256 - frac) + p.k[upper] * frac) >> 8;
    let adj = (isqrt(on * on + k * k) << 8) / k.max(1);
    adj.min(FOG_RANGE_ADJ_LIMIT)
}

/// The fog factor (0-256) at depth `z` (24-bit) and pixel column `x`, before the curve.
pub fn fog_factor(p: &FogParams, ortho: bool, range: bool, z: u32, x: i32) -> i32 {
    let z = (z & Z_MASK) as i32;
    let ze = if ortho {
        // A * z / 2^24 in 1/256: (A in 1/4096) * (z >> 8) >> 20.
        (p.a * (z >> 8)) >> 20
    } else {
        // A * 2^24 / (B - (z >> shift)); a divisor below 1 reads as 1 (beyond the far plane).
        let d = (p.b_mag - (z >> p.b_shift)).max(1);
        p.a / d
    };
    let mut ze = ze.clamp(-FOG_ZE_LIMIT, FOG_ZE_LIMIT);
    if range {
        ze = (ze * range_adjust(p, x)) >> 8;
    }
    (ze - p.c).clamp(0, FOG_ONE)
}

/// The curve of fog function `f` (4 exp, 5 exp², 6 backward exp, 7 backward exp²) at every
/// factor 0-256, rounded to 1/256 (more-facts §3.3 step 4, Dolphin's formulas). Linear (2) is
/// the identity.
pub fn fog_curve(f: u8) -> [u16; 257] {
    std::array::from_fn(|i| {
        let x = i as f64 / 256.0;
        let v = match f {
            4 => 1.0 - (-8.0 * x).exp2(),
            5 => 1.0 - (-8.0 * x * x).exp2(),
            6 => (-8.0 * (1.0 - x)).exp2(),
            7 => (-8.0 * (1.0 - x) * (1.0 - x)).exp2(),
            _ => x,
        };
        (v * 256.0).round().clamp(0.0, 256.0) as u16
    })
}

/// Blends `rgb` toward the fog colour by `ifog` (0-256): `(c (256 - f) + fog f) >> 8`.
pub fn fog_blend(rgb: [u8; 3], color: [u8; 3], ifog: i32) -> [u8; 3] {
    std::array::from_fn(|k| ((rgb[k] as i32 * (256 - ifog) + color[k] as i32 * ifog) >> 8) as u8)
}

/// The z-texture weights of a texel type, applied to the unswapped RGBA texel (more-facts §3.2:
/// U8 = A, U16 = A << 8 | R, U24 = R << 16 | G << 8 | B); type 3 (invalid) reads as U24.
pub fn ztex_weights(kind: u8) -> [i32; 4] {
    match kind & 3 {
        0 => [0, 0, 0, 1],
        1 => [1, 0, 0, 256],
        _ => [65536, 256, 1, 0],
    }
}

/// The depth after the z texture: op 0 off, 1 add (texel + bias + z), 2 replace (texel +
/// bias); op 3 behaves as replace, as in Dolphin's software renderer (only `Add` adds z).
pub fn ztex(op: u8, weights: [i32; 4], bias: u32, texel: [u8; 4], z: u32) -> u32 {
    if op & 3 == 0 {
        return z & Z_MASK;
    }
    let t: u32 = (0..4).map(|k| (weights[k] as u32).wrapping_mul(texel[k] as u32)).fold(0, u32::wrapping_add);
    let v = t.wrapping_add(bias);
    let v = if op & 3 == 1 { v.wrapping_add(z) } else { v };
    v & Z_MASK
}

/// Dither of one channel with the matrix value `d`, to 6 bits (more-facts §3.5).
pub fn dither6(c: u8, d: u8) -> u8 {
    ((c as i32 - (c as i32 >> 6) + d as i32) >> 2) as u8
}

/// A 6-bit channel widened to 8 bits as the EFB copy does: `(v << 2) | (v >> 4)`.
pub fn widen6(v: u8) -> u8 {
    (v << 2) | (v >> 4)
}

/// The post-TEV settings of a state, gathered once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostParams {
    /// Fog function as run ([`fog_function`]).
    pub fog_fn: u8,
    /// Orthographic fog.
    pub fog_ortho: bool,
    /// Range adjustment enabled (only with fog on).
    pub fog_range: bool,
    /// The fog integers.
    pub fog: FogParams,
    /// The curve of `fog_fn` (identity for linear).
    pub fog_curve: [u16; 257],
    /// Z-texture op (0 off, 1 add, 2 replace; 3 is stored as 2).
    pub ztex_op: u8,
    /// Z-texture weights.
    pub ztex_weights: [i32; 4],
    /// Z-texture bias.
    pub ztex_bias: u32,
    /// EFB format RGBA6_Z24: every channel stored in 6 bits.
    pub rgba6: bool,
    /// Dither (only in RGBA6_Z24).
    pub dither: bool,
    /// Constant alpha: the stored alpha, when enabled.
    pub const_alpha: Option<u8>,
}

impl PostParams {
    /// The settings of `state`.
    pub fn new(state: &TevState) -> Self {
        let fog_fn = fog_function(state.fog.c.fsel);
        let rgba6 = state.pe_control.pixel_format == 1;
        Self {
            fog_fn,
            fog_ortho: fog_fn != 0 && state.fog.c.proj == 1,
            fog_range: fog_fn != 0 && state.fog.range.enable,
            fog: FogParams::new(&state.fog),
            fog_curve: fog_curve(fog_fn),
            ztex_op: match state.ztex2.op & 3 {
                3 => 2,
                op => op,
            },
            ztex_weights: ztex_weights(state.ztex2.kind),
            ztex_bias: state.ztex_bias.bias & Z_MASK,
            rgba6,
            dither: rgba6 && state.blend_mode.dither,
            const_alpha: state.const_alpha.enable.then_some(state.const_alpha.alpha),
        }
    }
}

/// What the post-TEV steps produce for one pixel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PostOutput {
    /// Depth after the z texture (24-bit).
    pub z: u32,
    /// Fog factor after the curve (0-256; 0 with fog off).
    pub ifog: u16,
    /// The RGBA the pixel stores, as 8-bit values (6-bit channels widened in RGBA6_Z24).
    pub rgba: [u8; 4],
}

impl PostParams {
    /// Runs z texture, fog, dither, constant alpha and the pixel format on the TEV output
    /// `rgba`, with the last stage's unswapped texel `texel`, the rasterized depth `z` and the
    /// pixel position `pos` (order: docs/gx-decisions.md "After the TEV").
    pub fn apply(&self, rgba: [u8; 4], texel: [u8; 4], z: u32, pos: [u32; 2]) -> PostOutput {
        let z = ztex(self.ztex_op, self.ztex_weights, self.ztex_bias, texel, z);
        let mut rgb = [rgba[0], rgba[1], rgba[2]];
        let mut ifog = 0;
        if self.fog_fn != 0 {
            let f = fog_factor(&self.fog, self.fog_ortho, self.fog_range, z, pos[0] as i32);
            ifog = self.fog_curve[f as usize] as i32;
            rgb = fog_blend(rgb, self.fog.color, ifog);
        }
        let a = self.const_alpha.unwrap_or(rgba[3]);
        let out = if self.rgba6 {
            let d = DITHER[pos[1] as usize & 1][pos[0] as usize & 1];
            let six = |c: u8| if self.dither { dither6(c, d) } else { c >> 2 };
            [widen6(six(rgb[0])), widen6(six(rgb[1])), widen6(six(rgb[2])), widen6(a >> 2)]
        } else {
            [rgb[0], rgb[1], rgb[2], a]
        };
        PostOutput { z, ifog: ifog as u16, rgba: out }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isqrt_is_floor() {
        for n in [0, 1, 2, 3, 4, 15, 16, 17, 1 << 28, (1 << 29) - 1, i32::MAX] {
            let r = isqrt(n) as i64;
            assert!(r * r <= n as i64 && (r + 1) * (r + 1) > n as i64, "{n}");
        }
    }

    #[test]
    fn fixed_point_fog_floats() {
        // 1.5 * 2^-20 in 1/2^32: 1.5 * 2^12 = 6144.
        assert_eq!(fixed(1024, 127 - 20, false, 32, i32::MAX), 6144);
        assert_eq!(fixed(0, 127, true, 8, FOG_C_LIMIT), -256);
        assert_eq!(fixed(0, 200, false, 8, FOG_C_LIMIT), FOG_C_LIMIT);
        assert_eq!(fixed(5, 0, false, 8, FOG_C_LIMIT), 0);
    }

    #[test]
    fn curves_run_from_0_to_full() {
        assert_eq!(fog_curve(2)[256], 256);
        assert_eq!(fog_curve(4)[0], 0);
        assert_eq!(fog_curve(4)[256], 255);
        assert_eq!(fog_curve(6)[256], 256);
        assert_eq!(fog_curve(7)[0], 1);
    }

    #[test]
    fn dither_and_widen() {
        assert_eq!(dither6(255, 3), 63);
        assert_eq!(dither6(0, 0), 0);
        assert_eq!(dither6(2, 2), 1);
        assert_eq!(widen6(63), 255);
        assert_eq!(widen6(32), 130);
    }

    #[test]
    fn ztex_types() {
        let t = [0x12, 0x34, 0x56, 0x78];
        assert_eq!(ztex(2, ztex_weights(0), 0, t, 9), 0x78);
        assert_eq!(ztex(2, ztex_weights(1), 0, t, 9), 0x7812);
        assert_eq!(ztex(1, ztex_weights(2), 1, t, 9), 0x123456 + 10);
        assert_eq!(ztex(0, ztex_weights(2), 1, t, 0x1234567), 0x234567);
        assert_eq!(ztex(1, ztex_weights(2), 0xFF_FFFF, [0, 0, 1, 0], 0), 0);
    }
}

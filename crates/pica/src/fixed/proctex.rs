//! Step 3, texture unit 3: the procedural texture (facts 5). f32 throughout, in the order of
//! facts 5.2 and of the code below; the colour is a byte (decision D28).
//!
//! What a translation reproduces, per fragment (`uv` the absolute coordinates of the set the key
//! names; `lerp(a, b, t) = a * (1 - t) + b * t`; no fused multiply-add):
//! 1. `u_shift` from `v` and `v_shift` from `u` ([`shift_offset`]), before the noise;
//! 2. noise ([`noise`]) if the key enables it: `u = |u + n * amplitude_u|`, the same for v;
//! 3. `u += u_shift`, `v += v_shift`, then each axis's clamp ([`clamp`]);
//! 4. the RGB mapping function ([`map_function`]) through the RGB map LUT ([`lut::proctex_map`]);
//! 5. the colour LUT at the level(s) the filter asks for ([`color`], decisions D25, D26, D28);
//! 6. with separate alpha, alpha = `trunc(255 * alpha-map LUT of the alpha function)`.

use std::sync::Arc;

use crate::regs::layouts::{ProcTexClamp, ProcTexFilter, ProcTexMap, ProcTexShift};
use crate::state::ProcTexLuts;

use super::uniforms::f16;
use super::{decisions, lut, FragmentInputs, Rgba};

/// The procedural texture's code-changing state (TEXUNIT_CONFIG bits 8-10, PROCTEX0 bits 0-19,
/// PROCTEX4 bits 0-2). Undefined values are mapped by decision D27 when decoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ProcTexKey {
    /// TEXUNIT_CONFIG bit 10 (and, in the canonical key, read by a used source).
    pub enabled: bool,
    /// The texture-coordinate set (0, 1, 2).
    pub coords: u8,
    pub u_clamp: ProcTexClamp,
    pub v_clamp: ProcTexClamp,
    pub rgb_func: ProcTexMap,
    /// Read only with `separate_alpha`.
    pub alpha_func: ProcTexMap,
    pub separate_alpha: bool,
    pub noise: bool,
    pub u_shift: ProcTexShift,
    pub v_shift: ProcTexShift,
    pub filter: ProcTexFilter,
}

impl ProcTexKey {
    /// Decodes TEXUNIT_CONFIG, PROCTEX0 and PROCTEX4 (decision D27 for undefined values).
    pub fn decode(texunit_config: u32, proctex0: u32, proctex4: u32) -> ProcTexKey {
        let clamp = |raw: u32| match ProcTexClamp::from_raw(raw & 7) {
            ProcTexClamp::Other(_) => ProcTexClamp::ClampToEdge,
            c => c,
        };
        let map = |raw: u32| match ProcTexMap::from_raw(raw & 0xF) {
            ProcTexMap::Other(_) => ProcTexMap::Other(10),
            m => m,
        };
        let shift = |raw: u32| match ProcTexShift::from_raw(raw & 3) {
            ProcTexShift::Other(_) => ProcTexShift::None,
            s => s,
        };
        let filter = match ProcTexFilter::from_raw(proctex4 & 7) {
            ProcTexFilter::Other(_) => ProcTexFilter::Nearest,
            f => f,
        };
        let coords = ((texunit_config >> 8) & 3) as u8;
        ProcTexKey {
            enabled: texunit_config & (1 << 10) != 0,
            coords: if coords == 3 { 0 } else { coords },
            u_clamp: clamp(proctex0),
            v_clamp: clamp(proctex0 >> 3),
            rgb_func: map(proctex0 >> 6),
            alpha_func: map(proctex0 >> 10),
            separate_alpha: proctex0 & (1 << 14) != 0,
            noise: proctex0 & (1 << 15) != 0,
            u_shift: shift(proctex0 >> 16),
            v_shift: shift(proctex0 >> 18),
            filter,
        }
    }

    /// The canonical form: a disabled unit is the default key; the alpha function only counts
    /// with separate alpha; a shift reads its clamp mode only through the mirrored-repeat offset,
    /// which is kept.
    pub fn canonicalise(&mut self) {
        if !self.enabled {
            *self = ProcTexKey::default();
            return;
        }
        if !self.separate_alpha {
            self.alpha_func = ProcTexMap::default();
        }
    }
}

/// The procedural texture's uniforms.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcTexUniforms {
    /// PROCTEX1 / PROCTEX2 bits 0-15 (decision D24), U and V.
    pub noise_amplitude: [f32; 2],
    /// PROCTEX1 / PROCTEX2 bits 16-31, f16.
    pub noise_phase: [f32; 2],
    /// PROCTEX3, f16, U and V.
    pub noise_frequency: [f32; 2],
    /// The LOD bias: the f16 of PROCTEX4 bits 19-26 (high byte) and PROCTEX0 bits 20-27 (low).
    pub lod_bias: f32,
    /// PROCTEX4 bits 3-6 and 7-10.
    pub min_lod: u32,
    pub max_lod: u32,
    /// PROCTEX4 bits 11-18: the colour-LUT width of level 0.
    pub width: u32,
    /// Colour-LUT offsets of levels 0-7: PROCTEX5's four bytes, then decision D25.
    pub offsets: [u8; 8],
    /// The five tables (noise, RGB map, alpha map, colour, colour difference) as uploaded.
    pub luts: Arc<ProcTexLuts>,
}

impl Default for ProcTexUniforms {
    fn default() -> Self {
        ProcTexUniforms::decode(&[0; 6], Arc::default())
    }
}

impl ProcTexUniforms {
    /// Decodes PROCTEX0-PROCTEX5 (`regs[i]` = PROCTEXi) and takes the tables.
    pub fn decode(regs: &[u32; 6], luts: Arc<ProcTexLuts>) -> ProcTexUniforms {
        let [p0, p1, p2, p3, p4, p5] = *regs;
        let bias_bits = ((p4 >> 19) & 0xFF) << 8 | ((p0 >> 20) & 0xFF);
        let o = p5.to_le_bytes();
        let [l4, l5, l6, l7] = decisions::PROCTEX_LEVEL_OFFSETS_4_7;
        ProcTexUniforms {
            noise_amplitude: [decisions::noise_amplitude(p1), decisions::noise_amplitude(p2)],
            noise_phase: [f16(p1 >> 16), f16(p2 >> 16)],
            noise_frequency: [f16(p3), f16(p3 >> 16)],
            lod_bias: f16(bias_bits),
            min_lod: (p4 >> 3) & 0xF,
            max_lod: (p4 >> 7) & 0xF,
            width: (p4 >> 11) & 0xFF,
            offsets: [o[0], o[1], o[2], o[3], l4, l5, l6, l7],
            luts,
        }
    }
}

#[inline]
fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}

/// Step 1: the shift of one axis from the other axis's coordinate `other` (>= 0): odd shifts
/// rows with `trunc(other) / 2` odd, even ones with `(trunc(other) + 1) / 2` odd, by 1 under
/// mirrored repeat and 0.5 otherwise (facts 5.2 step 2).
pub fn shift_offset(other: f32, shift: ProcTexShift, clamp: ProcTexClamp) -> f32 {
    let offset = if clamp == ProcTexClamp::MirroredRepeat { 1.0 } else { 0.5 };
    // `as` saturates, and NaN gives 0: the coordinate is non-negative.
    let k = other as u32;
    match shift {
        ProcTexShift::Odd => offset * ((k / 2) % 2) as f32,
        ProcTexShift::Even => offset * ((k / 2 + k % 2) % 2) as f32,
        _ => 0.0,
    }
}

/// The noise function's R1 (facts 5.2 step 3).
fn rand1(k: u32) -> u32 {
    const T1: [u32; 16] = [0, 4, 10, 8, 4, 9, 7, 12, 5, 15, 13, 14, 11, 15, 2, 11];
    ((((k % 9) + 2) * 3) & 0xF) ^ T1[((k / 9) & 0xF) as usize]
}

/// The noise function's R2, in [-1, 1]: `-1 + 2 b / 15`.
fn rand2(x: u32, y: u32) -> f32 {
    const T2: [u32; 16] = [10, 2, 15, 8, 0, 7, 4, 5, 5, 13, 2, 6, 13, 9, 3, 14];
    let a = rand1(x);
    let mut b = rand1(y);
    if a & 3 == 1 {
        b += 4;
    }
    b ^= 6 * (a & 1);
    b += 10 + a;
    b &= 0xF;
    b ^= T2[a as usize];
    -1.0 + b as f32 * 2.0 / 15.0
}

/// Step 2: the noise value at the absolute coordinates (u, v) (facts 5.2 step 3; the random
/// functions are fincs' hardware-verified ones, citra#2697).
pub fn noise(u: &ProcTexUniforms, uv: [f32; 2]) -> f32 {
    let grid = |axis: usize| 9.0 * u.noise_frequency[axis] * (uv[axis] + u.noise_phase[axis]).abs();
    let (gx, gy) = (grid(0), grid(1));
    let (xi, yi) = (gx.floor(), gy.floor());
    let (fx, fy) = (gx - xi, gy - yi);
    let (x, y) = (xi as u32, yi as u32);
    let g0 = rand2(x, y) * (fx + fy);
    let g1 = rand2(x.wrapping_add(1), y) * (fx + fy - 1.0);
    let g2 = rand2(x, y.wrapping_add(1)) * (fx + fy - 1.0);
    let g3 = rand2(x.wrapping_add(1), y.wrapping_add(1)) * (fx + fy - 2.0);
    let sx = lut::proctex_map(&u.luts.noise, fx);
    let sy = lut::proctex_map(&u.luts.noise, fy);
    lerp(lerp(g0, g1, sx), lerp(g2, g3, sx), sy)
}

/// Step 3: one axis's clamp mode (facts 5.3; D27 maps 5-7 to clamp-to-edge when decoding).
pub fn clamp(x: f32, mode: ProcTexClamp) -> f32 {
    match mode {
        ProcTexClamp::ClampToZero => {
            if x > 1.0 {
                0.0
            } else {
                x
            }
        }
        ProcTexClamp::SymmetricalRepeat => x - x.floor(),
        ProcTexClamp::MirroredRepeat => {
            let k = x.trunc();
            let frac = x - k;
            // k is non-negative; saturating `as` keeps huge values even.
            if (k as u32).is_multiple_of(2) {
                frac
            } else {
                1.0 - frac
            }
        }
        ProcTexClamp::Pulse => {
            if x <= 0.5 {
                0.0
            } else {
                1.0
            }
        }
        _ => x.min(1.0),
    }
}

/// Step 4: a mapping function of (u, v) (facts 5.4; D23 the square root, D27 undefined values).
pub fn map_function(f: ProcTexMap, u: f32, v: f32) -> f32 {
    match f {
        ProcTexMap::U => u,
        ProcTexMap::U2 => u * u,
        ProcTexMap::V => v,
        ProcTexMap::V2 => v * v,
        ProcTexMap::UPlusV => (u + v) * 0.5,
        ProcTexMap::U2PlusV2 => (u * u + v * v) * 0.5,
        ProcTexMap::Sqrt2 => decisions::proctex_sqrt(u * u + v * v).min(1.0),
        ProcTexMap::Min => u.min(v),
        ProcTexMap::Max => u.max(v),
        ProcTexMap::Rmax => (((u + v) * 0.5 + decisions::proctex_sqrt(u * u + v * v)) * 0.5).min(1.0),
        ProcTexMap::Other(_) => decisions::PROCTEX_UNDEFINED_MAP,
    }
}

/// Whether a filter interpolates between colour-LUT entries (1, 3, 5).
pub fn filter_is_linear(f: ProcTexFilter) -> bool {
    matches!(f, ProcTexFilter::Linear | ProcTexFilter::LinearMipNearest | ProcTexFilter::LinearMipLinear)
}

/// One level's colour at map value `m` in [0, 1], per channel in byte units (decision D28):
/// `t = m * max((width >> level) - 1, 0)`; linear: `C[o + trunc(t)] + fract(t) * 2 * D[o + trunc(t)]`;
/// nearest: `C[o + floor(t + 0.5)]` (rounding, not floor: citra#4174). Indices modulo 256.
pub fn level_color(u: &ProcTexUniforms, linear: bool, m: f32, level: usize) -> [f32; 4] {
    let level = level.min(7);
    let width = (u.width >> level).saturating_sub(1);
    let t = m * width as f32;
    let offset = u32::from(u.offsets[level]);
    let bytes = |raw: u32| raw.to_le_bytes();
    if linear {
        let i = t as u32;
        let f = t - i as f32;
        let index = (offset + i) as usize & decisions::PROCTEX_INDEX_MASK;
        let c = bytes(u.luts.color[index]);
        let d = bytes(u.luts.color_diff[index]);
        std::array::from_fn(|ch| f32::from(c[ch]) + f * (2.0 * f32::from(d[ch] as i8)))
    } else {
        let index = (offset + (t + 0.5).floor() as u32) as usize & decisions::PROCTEX_INDEX_MASK;
        bytes(u.luts.color[index]).map(f32::from)
    }
}

/// Step 5: the colour for map value `m` under the key's filter, with level of detail `lod`
/// (D26): levels 0 for the plain filters, `floor(lod + 0.5)` for mip-nearest, and
/// `lerp(level i, level i + 1, fract)` with `i = trunc(lod)` for mip-linear. Bytes (D28).
pub fn color(key: &ProcTexKey, u: &ProcTexUniforms, m: f32, lod: f32) -> Rgba {
    let linear = filter_is_linear(key.filter);
    let c = match key.filter {
        ProcTexFilter::NearestMipNearest | ProcTexFilter::LinearMipNearest => {
            level_color(u, linear, m, (lod + 0.5).floor() as usize)
        }
        ProcTexFilter::NearestMipLinear | ProcTexFilter::LinearMipLinear => {
            let i = lod as usize;
            let f = lod - i as f32;
            let a = level_color(u, linear, m, i);
            let b = level_color(u, linear, m, i + 1);
            std::array::from_fn(|ch| lerp(a[ch], b[ch], f))
        }
        _ => level_color(u, linear, m, 0),
    };
    c.map(decisions::trunc_byte)
}

/// Texture unit 3 for one fragment; (0, 0, 0, 0) when the key disables it (facts 2.2).
pub fn sample(key: &ProcTexKey, u: &ProcTexUniforms, inputs: &FragmentInputs) -> Rgba {
    if !key.enabled {
        return [0; 4];
    }
    let tc = inputs.texcoord[usize::from(key.coords.min(2))];
    let mut uv = [tc[0].abs(), tc[1].abs()];
    let u_shift = shift_offset(uv[1], key.u_shift, key.u_clamp);
    let v_shift = shift_offset(uv[0], key.v_shift, key.v_clamp);
    if key.noise {
        let n = noise(u, uv);
        uv = [(uv[0] + n * u.noise_amplitude[0]).abs(), (uv[1] + n * u.noise_amplitude[1]).abs()];
    }
    let s = clamp(uv[0] + u_shift, key.u_clamp);
    let t = clamp(uv[1] + v_shift, key.v_clamp);
    let m = lut::proctex_map(&u.luts.rgb_map, map_function(key.rgb_func, s, t));
    let [du, dv] = inputs.proctex_duv;
    let lod = decisions::proctex_lod(u.width, u.lod_bias, du, dv, u.min_lod, u.max_lod);
    let mut rgba = color(key, u, m, lod);
    if key.separate_alpha {
        let a = lut::proctex_map(&u.luts.alpha_map, map_function(key.alpha_func, s, t));
        rgba[3] = (a * 255.0) as u8;
    }
    rgba
}

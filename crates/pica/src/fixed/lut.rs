//! The lookup tables of fragment lighting (facts 3.6, 3.7) and of the procedural texture (facts
//! 5.1, 5.2 step 6): entry decoding, the index and fraction of an input, and the
//! delta-interpolated value.
//!
//! Arithmetic a translation reproduces (f32, IEEE single, no fused multiply-add):
//! - a lighting entry decodes to `(value, delta)` with [`lighting_entry`] (decision D18); a
//!   translator may upload the decoded pairs, so that the shader does no division;
//! - unsigned index: `s = x * 256` (exact), `i = clamp(floor(s), 0, 255)`, `f = s - i`;
//!   signed index: `s = x * 128`, `k = clamp(floor(s), -128, 127)`, `f = s - k`, entry `k & 255`;
//!   a NaN input reads entry 0 with `f = 0` (D6's rule for non-finite values);
//! - the value is `value + f * delta` (one multiply, one add).

use super::decisions;

/// Entries of a lighting LUT.
pub const LIGHTING_LUT_ENTRIES: usize = 256;

/// Index and fraction of an input for unsigned indexing (the absolute flag enabled, and the
/// distance attenuation): `i = clamp(floor(256 x), 0, 255)`, `f = 256 x - i`. For `x = 1`,
/// `i = 255` and `f = 1` (the last delta extrapolates to the end of the range).
#[inline]
pub fn unsigned_index(x: f32) -> (usize, f32) {
    if x.is_nan() {
        return (0, 0.0);
    }
    let s = x * 256.0;
    let i = s.floor().clamp(0.0, 255.0);
    (i as usize, s - i)
}

/// Index and fraction of an input for signed indexing (the absolute flag disabled):
/// `k = clamp(floor(128 x), -128, 127)`, `f = 128 x - k`, entry `k mod 256` (x in [0, 1) reads
/// entries 0-127, x in [-1, 0) entries 128-255).
#[inline]
pub fn signed_index(x: f32) -> (usize, f32) {
    if x.is_nan() {
        return (0, 0.0);
    }
    let s = x * 128.0;
    let k = s.floor().clamp(-128.0, 127.0);
    ((k as i32 & 0xFF) as usize, s - k)
}

/// A lighting LUT entry as (value, delta) (decision D18): bits 0-11 the value, bits 12-22 the
/// delta's magnitude, bit 23 its sign (sign-magnitude, facts 3.7).
#[inline]
pub fn lighting_entry(raw: u32) -> (f32, f32) {
    let value = (raw & 0xFFF) as f32 / decisions::LIGHTING_LUT_VALUE_ONE;
    let magnitude = ((raw >> 12) & 0x7FF) as f32 / decisions::LIGHTING_LUT_DELTA_ONE;
    let delta = if raw & (1 << 23) != 0 { -magnitude } else { magnitude };
    (value, delta)
}

/// The delta-interpolated value of entry `i` at fraction `f`: `value + f * delta` (facts 3.6; the
/// stored delta, not the next entry, is what hardware interpolates with, citra#1775).
#[inline]
pub fn lighting_value(table: &[u32; LIGHTING_LUT_ENTRIES], i: usize, f: f32) -> f32 {
    let (value, delta) = lighting_entry(table[i & 0xFF]);
    value + f * delta
}

/// Entries of the noise, RGB-map and alpha-map tables of the procedural texture.
pub const PROCTEX_MAP_ENTRIES: usize = 128;

/// A noise / map LUT entry as (value, delta): bits 0-11 unsigned, bits 12-23 a 12-bit two's
/// complement delta, both over 4095 (facts 5.1; citro3d encodes value * 0xFFF, so this is its
/// exact inverse).
#[inline]
pub fn proctex_entry(raw: u32) -> (f32, f32) {
    let value = (raw & 0xFFF) as f32 / 4095.0;
    let delta = ((((raw >> 12) & 0xFFF) << 20) as i32 >> 20) as f32 / 4095.0;
    (value, delta)
}

/// A noise / map LUT at `g` (facts 5.2 step 6): `c = 128 g`, `i = clamp(floor(c), 0, 127)`,
/// `f = c - i`, `m = value[i] + f * delta[i]`, clamped to [0, 1] (decision D24; `g = 1` reads
/// entry 127 with `f = 1`).
#[inline]
pub fn proctex_map(table: &[u32; PROCTEX_MAP_ENTRIES], g: f32) -> f32 {
    let c = if g.is_nan() { 0.0 } else { g * 128.0 };
    let i = c.floor().clamp(0.0, 127.0);
    let (value, delta) = proctex_entry(table[i as usize]);
    decisions::clamp01(value + (c - i) * delta)
}

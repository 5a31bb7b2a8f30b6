//! Random fragment-pipeline states and fragment inputs over `arbitrary::Unstructured`, for
//! differential tests of the fragment-shader translator against `crate::fixed` and for
//! `verify`. The few-valued fields are drawn so that every TexEnv source, operand, combine
//! function and scale, every alpha-test function, fog off / fog / gas, the shadow-render mode
//! and every texture-unit type turn up often; the undefined register values (sources 7-12,
//! operands past 9, combine values 10-15, scale 3, fog modes 1-4 and 6) turn up too.

use arbitrary::{Result, Unstructured};

use crate::fixed::key::ids;
use crate::fixed::FragmentInputs;
use crate::float24::F24;
use crate::state::GpuState;

/// A register value from `defined` most of the time, else any value below `limit`.
fn field(u: &mut Unstructured, defined: &[u32], limit: u32) -> Result<u32> {
    Ok(if u.ratio(7u8, 8u8)? { *u.choose(defined)? } else { u.int_in_range(0..=limit - 1)? })
}

const SOURCES: [u32; 10] = [0, 1, 2, 3, 4, 5, 6, 13, 14, 15];
const COMBINES: [u32; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/// A random state of the registers and memories the fragment pipeline reads (on a fresh
/// [`GpuState`]).
pub fn fragment_state(u: &mut Unstructured) -> Result<GpuState> {
    let mut s = GpuState::new();
    let r = &mut s.regs;
    // Depth: z-buffering or w-buffering, scale and offset as citro3d writes them or random.
    r[usize::from(ids::DEPTHMAP_ENABLE)] = u.int_in_range(0..=1)?;
    let (scale, offset) = if u.ratio(1u8, 2u8)? {
        (-1.0, 0.0)
    } else {
        (u.int_in_range(-400..=400)? as f32 / 128.0, u.int_in_range(-200..=200)? as f32 / 128.0)
    };
    r[usize::from(ids::DEPTHMAP_SCALE)] = F24::from_f32_truncate(scale).bits();
    r[usize::from(ids::DEPTHMAP_OFFSET)] = F24::from_f32_truncate(offset).bits();
    // Texture units: enable bits, unit 2's coordinates, unit 0's type, shadow settings.
    let config: u32 = u.int_in_range(0..=7)? | (u.int_in_range(0..=1)? << 13);
    r[usize::from(ids::TEXUNIT_CONFIG)] = config;
    for unit in 0..3 {
        let ty = if unit == 0 { field(u, &[0, 0, 0, 1, 2, 3, 4, 5], 8)? } else { 0 };
        let wrap_s: u32 = u.int_in_range(0..=3)?;
        let wrap_t: u32 = u.int_in_range(0..=3)?;
        r[usize::from(ids::TEXUNIT_PARAM[unit])] = (ty << 28) | (wrap_s << 12) | (wrap_t << 8);
        r[usize::from(ids::TEXUNIT_BORDER[unit])] = u.arbitrary()?;
    }
    r[usize::from(ids::TEXUNIT0_SHADOW)] = if u.ratio(1u8, 2u8)? {
        u.int_in_range(0..=1)? | (u.int_in_range(0..=64u32)? << 1)
    } else {
        u.arbitrary::<u32>()? & 0xFF_FFFF
    };
    // The six stages.
    for base in ids::TEXENV {
        let b = usize::from(base);
        let mut src = 0;
        for k in 0..6 {
            src |= field(u, &SOURCES, 16)? << (4 * k + if k >= 3 { 4 } else { 0 });
        }
        r[b] = src;
        let mut op = 0;
        for k in 0..3 {
            op |= field(u, &[0, 1, 2, 3, 4, 5, 8, 9, 12, 13], 16)? << (4 * k);
        }
        for k in 0..3 {
            op |= field(u, &[0, 1, 2, 3, 4, 5, 6, 7], 8)? << (12 + 4 * k);
        }
        r[b + 1] = op;
        r[b + 2] = field(u, &COMBINES, 16)? | (field(u, &COMBINES, 16)? << 16);
        r[b + 3] = u.arbitrary()?;
        r[b + 4] = field(u, &[0, 1, 2], 4)? | (field(u, &[0, 1, 2], 4)? << 16);
    }
    // Fog mode, z flip, buffer writes.
    let fog = field(u, &[0, 0, 5, 5, 7], 8)?;
    let writes: u32 = u.int_in_range(0..=0xFF)?;
    r[usize::from(ids::TEXENV_UPDATE_BUFFER)] =
        fog | (u.int_in_range(0..=1)? << 3) | (writes << 8) | (u.int_in_range(0..=1)? << 16);
    r[usize::from(ids::TEXENV_BUFFER_COLOR)] = u.arbitrary()?;
    r[usize::from(ids::FOG_COLOR)] = u.arbitrary::<u32>()? & 0xFF_FFFF;
    // Alpha test: enable, function, reference.
    let func: u32 = u.int_in_range(0..=7)?;
    r[usize::from(ids::ALPHA_TEST)] = u.int_in_range(0..=1)? | (func << 4) | (u.int_in_range(0..=255u32)? << 8);
    // Colour operation: default, gas accumulation or shadow mode.
    r[usize::from(ids::COLOR_OPERATION)] = field(u, &[0, 0, 0, 3, 3], 4)?;
    r[usize::from(ids::FRAGOP_SHADOW)] = u.arbitrary()?;
    let mut lut = [0u32; 128];
    for e in lut.iter_mut() {
        *e = u.arbitrary::<u32>()? & 0xFF_FFFF;
    }
    s.memories.fog = std::sync::Arc::new(lut);
    Ok(s)
}

/// A random f16 (bits): mostly a normal value of magnitude 2^(lo - 15) to 2^(hi - 15), positive
/// unless `signed`; one in sixteen any 16 bits (zero, subnormals, infinities and NaN).
fn half(u: &mut Unstructured, lo: u32, hi: u32, signed: bool) -> Result<u32> {
    if u.ratio(1u8, 16u8)? {
        return Ok(u32::from(u.arbitrary::<u16>()?));
    }
    let sign = if signed && u.ratio(1u8, 4u8)? { 1 << 15 } else { 0 };
    Ok(sign | (u.int_in_range(lo..=hi)? << 10) | u.int_in_range(0..=0x3FFu32)?)
}

/// A random state with the procedural texture (texture unit 3) enabled and read: a
/// [`fragment_state`], then TEXUNIT_CONFIG bits 8-10, PROCTEX0-5 and the five procedural-texture
/// LUTs (facts 5.1). Every coordinate set, clamp mode, mapping function, shift and filter turns
/// up, undefined values included (D27), with and without noise and separate alpha; the noise
/// and LOD parameters are mostly in the range a program uses, sometimes any f16. Unit 3 is the
/// last stage's colour and alpha half of the time (so that it reaches the output whatever the
/// other stages do), else one random source slot.
pub fn proctex_state(u: &mut Unstructured) -> Result<GpuState> {
    let mut s = fragment_state(u)?;
    proctex_registers(u, &mut s.regs)?;
    let r = &mut s.regs;
    // Unit 3 (source 6) where a stage reads it.
    if u.ratio(1u8, 2u8)? {
        let b = usize::from(ids::TEXENV[5]);
        r[b] = 0x0006_0006 | (r[b] & 0x0FF0_0FF0);
        r[b + 1] &= !0x700F;
        r[b + 2] = 0;
    } else {
        let b = usize::from(ids::TEXENV[usize::from(u.int_in_range(0..=5u8)?)]);
        let slot = 4 * u.int_in_range(0..=2u32)? + if u.ratio(1u8, 2u8)? { 16 } else { 0 };
        r[b] = (r[b] & !(0xF << slot)) | (6 << slot);
    }
    s.memories.proctex = std::sync::Arc::new(proctex_luts(u)?);
    Ok(s)
}

/// A [`lit_state`] with the procedural texture on as well ([`proctex_state`]'s registers and
/// LUTs): the last stage modulates the lighting colour it passes on by unit 3 (RGB and alpha),
/// so both reach the output together.
pub fn lit_proctex_state(u: &mut Unstructured) -> Result<GpuState> {
    let mut s = lit_state(u)?;
    proctex_registers(u, &mut s.regs)?;
    let b = usize::from(ids::TEXENV[5]);
    // Source 1 = 6 (unit 3) for RGB and alpha; combiner 1 (modulate) for both.
    s.regs[b] = (s.regs[b] & 0x000F_000F) | (6 << 4) | (6 << 20);
    s.regs[b + 2] = 1 | (1 << 16);
    s.memories.proctex = std::sync::Arc::new(proctex_luts(u)?);
    Ok(s)
}

/// TEXUNIT_CONFIG bits 8-10 (unit 3 on) and PROCTEX0-5 of [`proctex_state`].
fn proctex_registers(u: &mut Unstructured, r: &mut [u32]) -> Result<()> {
    let config = &mut r[usize::from(ids::TEXUNIT_CONFIG)];
    *config = (*config & !(7 << 8)) | (1 << 10) | (u.int_in_range(0..=3u32)? << 8);
    let clamp = |u: &mut Unstructured| field(u, &[0, 1, 2, 3, 4], 8);
    let map = |u: &mut Unstructured| field(u, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 16);
    let shift = |u: &mut Unstructured| field(u, &[0, 1, 2], 4);
    let bias = half(u, 12, 17, true)?;
    let p0 = clamp(u)?
        | (clamp(u)? << 3)
        | (map(u)? << 6)
        | (map(u)? << 10)
        | (u.int_in_range(0..=1u32)? << 14)
        | (u.int_in_range(0..=1u32)? << 15)
        | (shift(u)? << 16)
        | (shift(u)? << 18)
        | ((bias & 0xFF) << 20);
    let noise = |u: &mut Unstructured| -> Result<u32> {
        // Amplitude (fixed1.3.12) mostly within +/-1, phase mostly below 2.
        let amplitude = if u.ratio(3u8, 4u8)? { u.int_in_range(-4096..=4096i32)? as u32 } else { u.arbitrary()? };
        Ok((amplitude & 0xFFFF) | (half(u, 8, 15, true)? << 16))
    };
    let (p1, p2) = (noise(u)?, noise(u)?);
    let p3 = half(u, 10, 16, true)? | (half(u, 10, 16, true)? << 16);
    let width = match u.int_in_range(0..=3u8)? {
        0 => 128,
        1 => 1 << u.int_in_range(0..=7u32)?,
        _ => u.int_in_range(0..=255u32)?,
    };
    let (min_lod, max_lod) = if u.ratio(3u8, 4u8)? {
        (u.int_in_range(0..=2u32)?, u.int_in_range(4..=7u32)?)
    } else {
        (u.int_in_range(0..=15u32)?, u.int_in_range(0..=15u32)?)
    };
    let p4 = field(u, &[0, 1, 2, 3, 4, 5], 8)? | (min_lod << 3) | (max_lod << 7) | (width << 11) | ((bias >> 8) << 19);
    let p5 = if u.ratio(1u8, 2u8)? { 0xE0C0_8000 } else { u.arbitrary()? };
    for (id, v) in ids::PROCTEX.iter().zip([p0, p1, p2, p3, p4, p5]) {
        r[usize::from(*id)] = v;
    }
    Ok(())
}

/// The five procedural-texture LUTs of [`proctex_state`]: any entries.
fn proctex_luts(u: &mut Unstructured) -> Result<crate::state::ProcTexLuts> {
    let mut luts = crate::state::ProcTexLuts::default();
    for t in [&mut luts.noise, &mut luts.rgb_map, &mut luts.alpha_map] {
        for e in t.iter_mut() {
            *e = u.arbitrary::<u32>()? & 0xFF_FFFF;
        }
    }
    for t in [&mut luts.color, &mut luts.color_diff] {
        for e in t.iter_mut() {
            *e = u.arbitrary()?;
        }
    }
    Ok(luts)
}

/// [`fragment_inputs`] with the procedural texture's derivatives (`proctex_duv`): each axis
/// 0, or a positive value of magnitude 2^-12 to 1 (levels of detail 0-7 with the widths and
/// biases of [`proctex_state`]).
pub fn proctex_inputs(u: &mut Unstructured) -> Result<FragmentInputs> {
    let mut f = fragment_inputs(u)?;
    for d in f.proctex_duv.iter_mut() {
        *d = if u.ratio(1u8, 8u8)? {
            0.0
        } else {
            let m = 1.0 + u.int_in_range(0..=1u32 << 20)? as f32 / (1u32 << 20) as f32;
            m / (1u32 << u.int_in_range(0..=12u32)?) as f32
        };
    }
    Ok(f)
}

/// A float from a few exact points (0, 1, byte boundaries, half-byte points) or a uniform draw
/// in `[lo, hi]`.
fn value(u: &mut Unstructured, lo: f32, hi: f32) -> Result<f32> {
    Ok(match u.int_in_range(0..=7u8)? {
        0 => *u.choose(&[0.0, 1.0, -0.0, 0.5, 2.0, -1.0])?,
        1 => f32::from(u.int_in_range(0..=255u8)?) / 255.0,
        2 => (f32::from(u.int_in_range(0..=254u8)?) + 0.5) / 255.0,
        _ => lo + (hi - lo) * (u.int_in_range(0..=1u32 << 20)? as f32 / (1u32 << 20) as f32),
    })
}

/// Random interpolated inputs: colours mostly in [0, 1], texture coordinates in [-2, 3], w
/// away from zero and of either sign.
pub fn fragment_inputs(u: &mut Unstructured) -> Result<FragmentInputs> {
    let mut f = FragmentInputs::default();
    for c in f.color.iter_mut() {
        *c = value(u, -0.1, 1.1)?;
    }
    for tc in f.texcoord.iter_mut() {
        for x in tc.iter_mut() {
            *x = value(u, -2.0, 3.0)?;
        }
    }
    let w = value(u, 0.25, 4.0)?;
    f.texcoord0_w = if u.ratio(1u8, 4u8)? { -w } else { w };
    for x in f.normquat.iter_mut() {
        *x = value(u, -1.0, 1.0)?;
    }
    for x in f.view.iter_mut() {
        *x = value(u, -4.0, 4.0)?;
    }
    f.z_over_w = value(u, -1.0, 0.0)?;
    f.w = value(u, 0.25, 8.0)?;
    Ok(f)
}

/// A smooth random function on [-1, 1] with values in [0, 1]: the straight lines between nine
/// random knots at x = -1, -0.75, ..., 1.
fn smooth(u: &mut Unstructured) -> Result<[f32; 9]> {
    let mut knots = [0.0f32; 9];
    for k in knots.iter_mut() {
        *k = f32::from(u.int_in_range(0..=1000u16)?) / 1000.0;
    }
    Ok(knots)
}

fn at(knots: &[f32; 9], x: f32) -> f32 {
    let s = ((x.clamp(-1.0, 1.0) + 1.0) * 4.0).min(7.999);
    let i = s.floor() as usize;
    let f = s - i as f32;
    knots[i] + (knots[i + 1] - knots[i]) * f
}

/// A lighting LUT (facts 3.7) sampling `knots` as a program builds one (citro3d's lightlut.c:
/// each entry's delta is the step to the next entry): for signed indexing (`signed`) entry
/// `k & 255` holds x = k / 128, k in -128..127, else entry i holds x = i / 256.
fn lighting_lut(knots: &[f32; 9], signed: bool) -> [u32; 256] {
    let mut t = [0u32; 256];
    let x_of = |i: i32| if signed { i as f32 / 128.0 } else { i as f32 / 256.0 };
    let range = if signed { -128..128 } else { 0..256 };
    for i in range {
        let (a, b) = (at(knots, x_of(i)), at(knots, x_of(i + 1)));
        let value = ((a * 4095.0).round() as u32).min(0xFFF);
        let d = b - a;
        let magnitude = ((d.abs() * 2047.0).round() as u32).min(0x7FF);
        t[(i & 0xFF) as usize] = value | (magnitude << 12) | (u32::from(d < 0.0) << 23);
    }
    t
}

/// A random state with fragment lighting enabled (facts 3) and its colours reaching the output
/// unchanged: a [`fragment_state`], then the lighting registers and LUTs, and the last TexEnv
/// stage replacing the colour with the fragment primary or secondary colour and the alpha with
/// one of them, with fog, the alpha test and the shadow-render mode off (the other tests cover
/// those bit for bit on integer inputs; here the output is the lighting colours themselves).
///
/// Every light count 1-8, permutation, light-environment configuration (undefined ones too),
/// LUT enable, input selector (6 and 7 too), abs flag and scale, directional / positional,
/// two-sided, geometric factors, spot, distance attenuation, shadow (with invert, primary,
/// secondary, alpha), bump mode and unit, renormalisation, Fresnel to either alpha and
/// clamp-highlights turn up. Light colours use the 10-bit fields (mostly at most 255),
/// positions are f16 (one in sixteen any bits), spot directions any 13-bit value. The LUTs are
/// random smooth functions sampled as a program builds them (`lighting_lut`): with entries
/// that jump, an input one ulp either side of an entry boundary (division and square root are
/// not exact on a Vulkan device) would pick a different entry.
pub fn lit_state(u: &mut Unstructured) -> Result<GpuState> {
    use crate::fixed::lighting::ids as l;
    let mut s = fragment_state(u)?;
    let r = &mut s.regs;
    r[usize::from(l::LIGHTING_ENABLE0)] = 1;
    r[usize::from(l::LIGHTING_ENABLE1)] = 0;
    r[usize::from(l::NUM_LIGHTS)] = u.int_in_range(0..=7u32)?;
    let config = field(u, &[0, 1, 2, 3, 4, 5, 6, 8, 8, 8], 16)?;
    let bit = |u: &mut Unstructured| -> Result<u32> { Ok(u32::from(u.arbitrary::<bool>()?)) };
    let c0 = bit(u)?
        | (u.int_in_range(0..=3u32)? << 2)
        | (config << 4)
        | (bit(u)? << 16)
        | (bit(u)? << 17)
        | (bit(u)? << 18)
        | (bit(u)? << 19)
        | (u.int_in_range(0..=3u32)? << 22)
        | (u.int_in_range(0..=3u32)? << 24)
        | (bit(u)? << 27)
        | (u.int_in_range(0..=3u32)? << 28)
        | (bit(u)? << 30);
    r[usize::from(l::CONFIG0)] = c0;
    // CONFIG1: each LUT and each light's spot / DA / shadow mostly enabled (bits clear).
    let mut c1 = 0u32;
    for b in (0..32).filter(|&b| b != 18) {
        if u.ratio(1u8, 3u8)? {
            c1 |= 1 << b;
        }
    }
    r[usize::from(l::CONFIG1)] = c1 | (1 << 18);
    let (mut abs, mut select, mut scale) = (0u32, 0u32, 0u32);
    for k in 0..7 {
        abs |= bit(u)? << (4 * k + 1);
        select |= field(u, &[0, 1, 2, 3, 4, 5], 8)? << (4 * k);
        scale |= field(u, &[0, 0, 0, 1, 2, 6, 7, 3], 8)? << (4 * k);
    }
    r[usize::from(l::LUTINPUT_ABS)] = abs;
    r[usize::from(l::LUTINPUT_SELECT)] = select;
    r[usize::from(l::LUTINPUT_SCALE)] = scale;
    let mut perm = 0u32;
    for slot in 0..8 {
        perm |= u.int_in_range(0..=7u32)? << (4 * slot);
    }
    r[usize::from(l::LIGHT_PERMUTATION)] = perm;
    let color = |u: &mut Unstructured| -> Result<u32> {
        let limit = if u.ratio(7u8, 8u8)? { 255 } else { 1023 };
        let mut c = 0;
        for shift in [0, 10, 20] {
            c |= u.int_in_range(0..=limit)? << shift;
        }
        Ok(c)
    };
    r[usize::from(l::AMBIENT_GLOBAL)] = color(u)?;
    for id in 0..8u16 {
        let base = usize::from(l::LIGHT_BASE + l::LIGHT_STRIDE * id);
        for k in [l::SPECULAR0, l::SPECULAR1, l::DIFFUSE, l::AMBIENT] {
            r[base + usize::from(k)] = color(u)?;
        }
        r[base + usize::from(l::XY)] = half(u, 10, 17, true)? | (half(u, 10, 17, true)? << 16);
        r[base + usize::from(l::Z)] = half(u, 10, 17, true)?;
        r[base + usize::from(l::SPOTDIR_XY)] =
            (u.arbitrary::<u32>()? & 0x1FFF) | ((u.arbitrary::<u32>()? & 0x1FFF) << 16);
        r[base + usize::from(l::SPOTDIR_Z)] = u.arbitrary::<u32>()? & 0x1FFF;
        r[base + usize::from(l::CONFIG)] = u.int_in_range(0..=15u32)?;
        // f20 (bias 63): mostly magnitudes 2^-4 to 2^2.
        let f20 = |u: &mut Unstructured| -> Result<u32> {
            if u.ratio(1u8, 16u8)? {
                return Ok(u.arbitrary::<u32>()? & 0xF_FFFF);
            }
            let sign = u32::from(u.ratio(1u8, 4u8)?) << 19;
            Ok(sign | (u.int_in_range(59..=65u32)? << 12) | u.int_in_range(0..=0xFFFu32)?)
        };
        r[base + usize::from(l::ATTENUATION_BIAS)] = f20(u)?;
        r[base + usize::from(l::ATTENUATION_SCALE)] = f20(u)?;
    }
    // The last stage: RGB from the fragment primary or secondary colour, alpha from either.
    let b = usize::from(ids::TEXENV[5]);
    r[b] = u.int_in_range(1..=2u32)? | (u.int_in_range(1..=2u32)? << 16);
    r[b + 1] = 0;
    r[b + 2] = 0;
    r[b + 4] = 0;
    let fog = &mut r[usize::from(ids::TEXENV_UPDATE_BUFFER)];
    *fog &= !7;
    r[usize::from(ids::ALPHA_TEST)] &= !1;
    r[usize::from(ids::COLOR_OPERATION)] = 0;
    // The tables: D0, D1, FR, RB, RG, RR by their own abs flags, SP (8-15) by SP's, DA
    // (16-23) unsigned.
    let signed = |lut: usize| abs & (1 << (4 * lut + 1)) != 0;
    let mut luts = vec![[0u32; 256]; crate::state::LIGHTING_LUTS];
    for (n, t) in luts.iter_mut().enumerate() {
        let sg = match n {
            0 => signed(0),
            1 => signed(1),
            3..=6 => signed(n),
            8..=15 => signed(2),
            _ => false,
        };
        if u.ratio(1u8, 4u8)? {
            // Any entries (values and deltas that jump), which the shader must decode as the
            // reference does.
            for e in t.iter_mut() {
                *e = u.arbitrary::<u32>()? & 0xFF_FFFF;
            }
        } else {
            *t = lighting_lut(&smooth(u)?, sg);
        }
    }
    s.memories.lighting = std::sync::Arc::new(luts);
    Ok(s)
}

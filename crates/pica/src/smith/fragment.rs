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

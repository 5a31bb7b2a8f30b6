//! Random inputs for generated programs: uniform blocks, the constant file, the buffers and
//! textures they fetch, boolean constants, SQ_VTX_SEMANTIC, and initial registers.

use super::{SmithProgram, BLOCKS, BUFFER_IDS, DATA_REGS, TEXTURES, VTX_FORMATS};
use crate::interp::{Buffer, CpuTextures, Inputs, Invocation, Sampler, Stage, Texture2d, Wrap};
use arbitrary::{Result, Unstructured};
use std::sync::Arc;

/// A lane value: a small float, a small integer, 0, or any bit pattern.
fn value(u: &mut Unstructured<'_>) -> Result<u32> {
    Ok(match u.int_in_range(0..=4u8)? {
        0 => (u.int_in_range(-1000..=1000i32)? as f32 / 125.0).to_bits(),
        1 => u.int_in_range(0..=7u32)?,
        2 => (u.int_in_range(0..=1000u32)? as f32 / 1000.0).to_bits(),
        3 => 0,
        _ => u.arbitrary()?,
    })
}

/// Inputs for `p`: random uniform blocks 0-3 (64 vec4 each), constant file, host buffers for
/// every buffer id it may fetch (with a resource format for USE_CONST_FIELDS), 4x4-or-smaller
/// RGBA float textures with random samplers, boolean constants, SQ_VTX_SEMANTIC, and the
/// program's loop constants.
///
/// # Errors
/// Only the errors `arbitrary` reports for `u`.
pub fn inputs(u: &mut Unstructured<'_>, p: &SmithProgram) -> Result<Inputs> {
    let mut i = Inputs::default();
    for b in 0..BLOCKS {
        i.uniform_blocks.insert(b, (0..256).map(|_| value(u)).collect::<Result<_>>()?);
    }
    i.cfile = (0..256).map(|_| Ok([value(u)?, value(u)?, value(u)?, value(u)?])).collect::<Result<_>>()?;
    for id in BUFFER_IDS.into_iter().filter(|id| !(0x80..0x90).contains(id)) {
        let data = (0..256).map(|_| value(u)).collect::<Result<Vec<u32>>>()?;
        let format = (*u.choose(&VTX_FORMATS)?, u.int_in_range(0..=2)?, u.arbitrary()?, u.arbitrary()?);
        i.buffers.insert(
            id,
            Buffer {
                data: data.iter().flat_map(|w| w.to_le_bytes()).collect(),
                stride: 4 * u.int_in_range(1..=8u32)?,
                format: Some(format),
            },
        );
    }
    i.loop_consts = p.loop_consts.clone();
    i.bool_consts = u.arbitrary()?;
    i.vtx_semantic = (0..DATA_REGS - 2).map(|_| u.int_in_range(0..=16u8)).collect::<Result<_>>()?;
    let mut t = CpuTextures::default();
    for unit in 0..TEXTURES {
        let (w, h) = (u.int_in_range(1..=4u32)?, u.int_in_range(1..=4u32)?);
        let texels = (0..w * h)
            .map(|_| Ok([0; 4].map(|_| u.int_in_range(0..=255u8).map_or(0.0, |v| v as f32 / 255.0))))
            .collect::<Result<_>>()?;
        t.units.insert(unit, Texture2d { width: w, height: h, texels });
        let wraps = [Wrap::Repeat, Wrap::Mirror, Wrap::Clamp];
        t.samplers.insert(unit, Sampler { linear: u.arbitrary()?, wrap: [*u.choose(&wraps)?, *u.choose(&wraps)?] });
    }
    i.textures = Some(Arc::new(t));
    Ok(i)
}

/// `n` invocations with random R0-R15 (pixel programs: some lanes uncovered; run them four at
/// a time as quads).
///
/// # Errors
/// Only the errors `arbitrary` reports for `u`.
pub fn invocations(u: &mut Unstructured<'_>, p: &SmithProgram, n: usize) -> Result<Vec<Invocation>> {
    (0..n)
        .map(|_| {
            let gprs =
                (0..DATA_REGS).map(|r| Ok((r, [value(u)?, value(u)?, value(u)?, value(u)?]))).collect::<Result<_>>()?;
            let invalid = p.stage == Stage::Pixel && u.ratio(1, 8)?;
            Ok(Invocation { gprs, invalid })
        })
        .collect()
}

//! The geometry stage of a draw (GPUREG_GEOSTAGE_CONFIG mode 2): the vertex shader's outputs
//! fed to the translated geometry shader's compute form (docs/abi.md "Geometry shaders"), its
//! emitted triangles read back as output registers o0-o15 per vertex.
//!
//! How vertex shader outputs become geometry shader inputs, from the register page (3dbrew
//! "GPU/Internal Registers"): the vertex shader's output buffer holds its enabled output
//! registers (GPUREG_VSH_OUTMAP_MASK) in ascending order; the geometry unit's input buffer
//! holds GPUREG_GSH_INPUTBUFFER_CONFIG bits 0-3 + 1 attributes, attribute i going to input
//! register GPUREG_GSH_ATTRIBUTES_PERMUTATION nibble i. In point mode an invocation's input
//! buffer is the output buffers of as many consecutive vertices as fill it (the corpus
//! geometry shaders read three vertices of two outputs as v0-v5). Variable-primitive
//! (subdivision) and fixed-primitive (particle) modes write vertex data into the float
//! uniforms instead; they are refused.

use pica::state::ShaderUnit;
use translate::pica::{GS_IN_STRIDE, GS_MAX_PRIMS};

use crate::Gpu;

fn reg(regs: &[u32], id: usize) -> u32 {
    regs.get(id).copied().unwrap_or(0)
}

/// Output registers o0-o15 of one vertex.
pub type OutputRegs = [[f32; 4]; 16];

/// Invocations per dispatch: 26,128 output bytes each keep a batch's buffer under 64 MiB.
const BATCH: usize = 2048;

/// The input buffer layout of a point-mode draw: vertex shader outputs per vertex, vertices
/// per invocation, and the input register of each input attribute.
struct Inputs {
    outputs: Vec<usize>,
    vertices: usize,
    registers: Vec<usize>,
}

/// Checks that the draw's geometry stage is in a mode rendered here and reads its layout.
fn inputs(regs: &[u32]) -> Result<Inputs, String> {
    let config = reg(regs, 0x229);
    if config >> 31 != 0 {
        return Err(format!(
            "GPUREG_GEOSTAGE_CONFIG = 0x{config:08x}: reserved geometry shader subdivision is not rendered"
        ));
    }
    let misc = reg(regs, 0x252);
    if misc != 0 {
        return Err(format!(
            "GPUREG_GSH_MISC0 = 0x{misc:08x}: variable-primitive (subdivision) and fixed-primitive (particle) \
             geometry modes are not rendered, only point mode (0)"
        ));
    }
    let buffer = reg(regs, 0x289);
    if (buffer >> 8) & 0xFF != 0 || buffer >> 24 != 0x08 {
        return Err(format!(
            "GPUREG_GSH_INPUTBUFFER_CONFIG = 0x{buffer:08x}: only the geometry shader input buffer of point mode \
             (bits 24-31 = 0x08, no subdivision) is rendered"
        ));
    }
    let mask = reg(regs, 0x2BD) & 0xFFFF;
    let outputs: Vec<usize> = (0..16).filter(|o| mask >> o & 1 != 0).collect();
    let total = (reg(regs, 0x24A) & 0xF) as usize + 1;
    if outputs.is_empty() || total != outputs.len() {
        return Err(format!(
            "GPUREG_VSH_OUTMAP_TOTAL1 = {} but GPUREG_VSH_OUTMAP_MASK = 0x{mask:04x} enables {} output registers",
            total - 1,
            outputs.len()
        ));
    }
    let attributes = (buffer & 0xF) as usize + 1;
    if !attributes.is_multiple_of(outputs.len()) {
        return Err(format!(
            "GPUREG_GSH_INPUTBUFFER_CONFIG = 0x{buffer:08x}: {attributes} input attributes are not whole vertices \
             of {} vertex shader outputs",
            outputs.len()
        ));
    }
    let registers = (0..attributes)
        .map(|i| {
            let word = reg(regs, if i < 8 { 0x28B } else { 0x28C });
            ((word >> (4 * (i % 8))) & 0xF) as usize
        })
        .collect();
    Ok(Inputs { vertices: attributes / outputs.len(), outputs, registers })
}

/// Runs the geometry shader of `regs` and `unit` over `vs` (the vertex shader's o0-o15 per
/// vertex, in the order the draw sent them): the vertices of the emitted triangles, three per
/// triangle in their intended order (`pica::interp::Primitive::ordered`: slots 0, 2, 1 when
/// SETEMIT's winding flag was set). Vertices left over after the last full invocation are
/// dropped. b15 reads GPUREG_GSH_BOOLUNIFORM for the first invocation and true after it, as
/// `pica::interp::run_geometry` sets it.
///
/// # Errors
/// A message naming the register of a mode not rendered, or a translation or device error.
pub fn run(gpu: &Gpu, regs: &[u32], unit: &ShaderUnit, vs: &[OutputRegs]) -> Result<Vec<OutputRegs>, String> {
    let layout = inputs(regs)?;
    let mut setup = translate::pica::Setup::new(unit.code.to_vec(), unit.opdescs.to_vec(), reg(regs, 0x28A) & 0xFFFF);
    setup.input_mask = 0xFFFF;
    setup.output_mask = reg(regs, 0x28D) as u16;
    let t = translate::pica::geometry(&setup, &Default::default()).map_err(|e| format!("geometry shader: {e}"))?;
    let words = t.spirv().map_err(|e| format!("geometry shader: {e}"))?;
    let mut block = translate::pica::UniformBlock::default();
    for (c, v) in block.c.iter_mut().zip(unit.float_uniforms.iter()) {
        *c = v.map(|x| x.to_f32());
    }
    for (i, v) in block.i.iter_mut().enumerate() {
        *v = reg(regs, 0x281 + i).to_le_bytes().map(u32::from);
    }
    let bools = reg(regs, 0x280) & 0xFFFF;
    block.b = bools as u16;

    let groups: Vec<&[OutputRegs]> = vs.chunks_exact(layout.vertices).collect();
    let mut emitted = Vec::new();
    for (batch, chunk) in groups.chunks(BATCH).enumerate() {
        let mut records = Vec::with_capacity(chunk.len() * GS_IN_STRIDE as usize * 4);
        for (k, group) in chunk.iter().enumerate() {
            let mut v = [[0.0f32; 4]; 16];
            let attributes = group.iter().flat_map(|o| layout.outputs.iter().map(move |&r| o[r]));
            for (&r, value) in layout.registers.iter().zip(attributes) {
                v[r] = value;
            }
            records.extend(v.iter().flatten().map(|x| x.to_bits()));
            records.extend(block.c.iter().flatten().map(|x| x.to_bits()));
            let first = batch == 0 && k == 0;
            records.extend([if first { bools } else { bools | 1 << 15 }, 0, 0, 0]);
        }
        let out = gpu.run_geometry(&words, &block.to_bytes(), &records).map_err(|e| format!("geometry shader: {e}"))?;
        for (k, o) in out.iter().enumerate() {
            if o.count > GS_MAX_PRIMS as usize {
                let invocation = batch * BATCH + k;
                return Err(format!(
                    "geometry shader invocation {invocation} emitted {} primitives, more than the {GS_MAX_PRIMS} \
                     rendered per invocation",
                    o.count
                ));
            }
            for p in &o.primitives {
                let order = if p.inverted { [0, 2, 1] } else { [0, 1, 2] };
                for s in order {
                    emitted.push(p.vertices[s].map(|r| r.map(f32::from_bits)));
                }
            }
        }
    }
    Ok(emitted)
}

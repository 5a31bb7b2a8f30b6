//! A draw's vertices as the vertex shader sees them, and its triangles: the attribute loader
//! (GPUREG_ATTRIBBUFFERS_*, fixed attributes, GPUREG_VSH_ATTRIBUTES_PERMUTATION), the index
//! buffer and the primitive assembler (GPUREG_PRIMITIVE_CONFIG).
//!
//! The loader follows Citra's vertex loader and primitive assembler (video_core/vertex_loader.cpp,
//! primitive_assembly.cpp; facts only): each buffer component is either an attribute, aligned to
//! its element size, or 4/8/12/16 bytes of padding; integer elements become their value (no
//! normalisation), floats are cut to float24; missing components read (0, 0, 0, 1); fixed
//! attributes read the default attributes; loaded attribute i goes to input register
//! `permutation[i]`. docs/pica-render.md lists the choices.

use crate::float24::F24;
use crate::regs::layouts::AttribType;

use super::{Draw, DrawKind, Vec4};

/// Input registers v0-v15 of one vertex.
pub type InputRegs = [Vec4; 16];

/// What the loader could not do, naming the draw's vertex and the address.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// Vertex or index data the memory does not hold.
    #[error("vertex {vertex}: {what} at physical address 0x{address:08x} ({len} bytes) is not in memory")]
    Missing { vertex: u32, what: &'static str, address: u32, len: usize },
    /// A vertex count past [`MAX_VERTICES`].
    #[error("{count} vertices: more than the {MAX_VERTICES} a draw may have here")]
    TooMany { count: u32 },
}

/// Most vertices a draw may have (the count register is 32 bits; a hostile list must not cost
/// unbounded memory).
pub const MAX_VERTICES: u32 = 1 << 20;

/// A draw's vertices and triangles.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawVertices {
    /// One input register file per vertex the draw sent, in order.
    pub inputs: Vec<InputRegs>,
    /// Triangles as indices into `inputs`, in the order the assembler emits them.
    pub triangles: Vec<[u32; 3]>,
}

/// The input register that loaded attribute `i` goes to (GPUREG_VSH_ATTRIBUTES_PERMUTATION_LOW
/// and _HIGH, four bits per attribute).
pub fn attribute_register(regs: &[u32], i: usize) -> usize {
    let reg = |id: usize| regs.get(id).copied().unwrap_or(0);
    let word = if i < 8 { reg(0x2BB) } else { reg(0x2BC) };
    ((word >> (4 * (i % 8))) & 0xF) as usize
}

fn element_size(kind: AttribType) -> u32 {
    match kind {
        AttribType::Byte | AttribType::UnsignedByte => 1,
        AttribType::Short => 2,
        _ => 4,
    }
}

fn element(kind: AttribType, b: &[u8]) -> F24 {
    match kind {
        AttribType::Byte => F24::from_f32_truncate(f32::from(b[0] as i8)),
        AttribType::UnsignedByte => F24::from_f32_truncate(f32::from(b[0])),
        AttribType::Short => F24::from_f32_truncate(f32::from(i16::from_le_bytes([b[0], b[1]]))),
        _ => F24::from_f32_truncate(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
    }
}

const DEFAULT: Vec4 = [F24::ZERO, F24::ZERO, F24::ZERO, F24::ONE];

/// Loads vertex `index` of `draw` (an attribute-buffer draw) through `read`.
fn load_vertex(draw: &Draw, index: u32, read: &dyn Fn(u32, usize) -> Option<Vec<u8>>) -> Result<[Vec4; 12], LoadError> {
    let config = draw.vertex_config();
    let mut attrs = [DEFAULT; 12];
    let count = (config.attribute_count as usize).min(12);
    for (i, a) in attrs.iter_mut().enumerate().take(count) {
        if config.attributes[i].fixed {
            *a = draw.memories.default_attributes[i];
        }
    }
    for buffer in &config.buffers {
        if buffer.components.is_empty() {
            continue;
        }
        let start = config.base_address.wrapping_add(buffer.offset).wrapping_add(index.wrapping_mul(buffer.stride));
        let mut offset = 0u32;
        for component in &buffer.components {
            let raw = component.raw();
            if raw >= 12 {
                offset += 4 * (raw - 11);
                continue;
            }
            let i = raw as usize;
            let format = config.attributes[i];
            let size = element_size(format.kind);
            offset = offset.div_ceil(size) * size;
            let len = (size * format.components()) as usize;
            if format.fixed || i >= count {
                offset += len as u32;
                continue;
            }
            let address = start.wrapping_add(offset);
            let bytes =
                read(address, len).ok_or(LoadError::Missing { vertex: index, what: "attribute data", address, len })?;
            let mut v = DEFAULT;
            for (c, chunk) in bytes.chunks(size as usize).enumerate().take(4) {
                v[c] = element(format.kind, chunk);
            }
            attrs[i] = v;
            offset += len as u32;
        }
    }
    Ok(attrs)
}

fn to_registers(regs: &[u32], attrs: &[Vec4]) -> InputRegs {
    let mut inputs = [[F24::ZERO; 4]; 16];
    for (i, a) in attrs.iter().enumerate() {
        inputs[attribute_register(regs, i)] = *a;
    }
    inputs
}

/// The triangles the primitive assembler makes of `n` vertices in `mode` (GPUREG_PRIMITIVE_CONFIG
/// bits 8-9): lists, strips (every second triangle with its first two vertices swapped, as
/// Citra's assembler alternates its two-vertex buffer), fans; mode 3 (geometry primitives)
/// assembles as a list, as Citra does when no geometry shader runs.
pub fn assemble(mode: u32, n: u32) -> Vec<[u32; 3]> {
    match mode {
        1 => (2..n).map(|i| if i % 2 == 0 { [i - 2, i - 1, i] } else { [i - 1, i - 2, i] }).collect(),
        2 => (2..n).map(|i| [0, i - 1, i]).collect(),
        _ => (0..n / 3).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect(),
    }
}

/// The vertices and triangles of `draw`; `read(address, len)` gives `len` bytes at a physical
/// address as the draw saw them (`None` where the memory holds nothing).
///
/// # Errors
/// [`LoadError`] when vertex or index data is missing or the count is too large.
pub fn load(draw: &Draw, read: &dyn Fn(u32, usize) -> Option<Vec<u8>>) -> Result<DrawVertices, LoadError> {
    let n = draw.vertex_count;
    if n > MAX_VERTICES {
        return Err(LoadError::TooMany { count: n });
    }
    let inputs = match draw.kind {
        DrawKind::Immediate => draw.vertices.iter().map(|v| to_registers(&draw.regs, v)).collect(),
        DrawKind::Arrays => (0..n)
            .map(|i| load_vertex(draw, draw.vertex_offset.wrapping_add(i), read).map(|a| to_registers(&draw.regs, &a)))
            .collect::<Result<Vec<_>, _>>()?,
        DrawKind::Elements => {
            let base = draw.vertex_config().base_address.wrapping_add(draw.index_offset);
            let size = if draw.index_u16 { 2 } else { 1 };
            let len = n as usize * size;
            let bytes = if n == 0 {
                Vec::new()
            } else {
                read(base, len).ok_or(LoadError::Missing { vertex: 0, what: "the index buffer", address: base, len })?
            };
            bytes
                .chunks(size)
                .map(|c| {
                    let index = if size == 2 { u32::from(u16::from_le_bytes([c[0], c[1]])) } else { u32::from(c[0]) };
                    load_vertex(draw, index, read).map(|a| to_registers(&draw.regs, &a))
                })
                .collect::<Result<Vec<_>, _>>()?
        }
    };
    let triangles = assemble(draw.primitive, inputs.len() as u32);
    Ok(DrawVertices { inputs, triangles })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_alternate_and_fans_share_the_first_vertex() {
        assert_eq!(assemble(1, 5), [[0, 1, 2], [2, 1, 3], [2, 3, 4]]);
        assert_eq!(assemble(2, 5), [[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
        assert_eq!(assemble(0, 7), [[0, 1, 2], [3, 4, 5]]);
        assert_eq!(assemble(3, 3), [[0, 1, 2]]);
    }

    #[test]
    fn elements_decode_by_type() {
        let h = F24::from_f32_truncate(-3.0);
        assert_eq!(element(AttribType::Byte, &[0xFD]), h);
        assert_eq!(element(AttribType::UnsignedByte, &[0xFD]).to_f32(), 253.0);
        assert_eq!(element(AttribType::Short, &[0x00, 0x80]).to_f32(), -32768.0);
        assert_eq!(element(AttribType::Float, &1.5f32.to_le_bytes()).to_f32(), 1.5);
    }
}

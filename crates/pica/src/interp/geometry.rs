//! Geometry shaders: the emitter (SETEMIT/EMIT with the 4-vertex buffer, winding and primitive
//! flags) and the three ways input vertices reach an invocation (point, variable and fixed mode).

use super::exec::{Interpreter, RunError, Vec4};

/// A triangle emitted by a geometry shader: the o0-o15 of its three vertices, and whether
/// SETEMIT asked for the inverted winding.
#[derive(Clone, Debug, PartialEq)]
pub struct Primitive {
    pub vertices: [[Vec4; 16]; 3],
    pub inverted: bool,
}

impl Primitive {
    /// The vertices in the order that gives the intended facing: as emitted, or with the last
    /// two swapped when the winding flag was set.
    pub fn ordered(&self) -> [&[Vec4; 16]; 3] {
        let [a, b, c] = &self.vertices;
        if self.inverted {
            [a, c, b]
        } else {
            [a, b, c]
        }
    }
}

/// The emitter's state: it persists across the invocations of a batch (the ISA page: the vertex
/// buffer is not cleared when a primitive is emitted).
#[derive(Clone, Debug, Default)]
pub(crate) struct Emitter {
    buffer: [[Vec4; 16]; 4],
    vertex: u8,
    winding: bool,
    primitive: bool,
    pub primitives: Vec<Primitive>,
}

impl Emitter {
    pub fn set(&mut self, vertex: u8, winding: bool, primitive: bool) {
        self.vertex = vertex & 3;
        self.winding = winding;
        self.primitive = primitive;
    }

    /// Stores the outputs as vertex VTXID; with FLAG_PRIMEMIT, emits the triangle of buffer
    /// vertices 0, 1, 2 (vertex 3 is kept in the buffer but no triangle reads it).
    pub fn emit(&mut self, outputs: [Vec4; 16]) {
        self.buffer[self.vertex as usize] = outputs;
        if self.primitive {
            self.primitives
                .push(Primitive { vertices: [self.buffer[0], self.buffer[1], self.buffer[2]], inverted: self.winding });
        }
    }
}

/// How vertices reach a geometry shader (DVLE offset 0x14 and following).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeometryMode {
    /// Each invocation gets one set of input registers v0-v15.
    Point,
    /// A primitive of any number of vertices: c0 = the vertex count (all four components), then
    /// from c1 the first `full_vertices` vertices with all their attributes and the rest with
    /// attribute 0 only. Usually subdivision.
    Variable { full_vertices: u8 },
    /// `vertices` vertices per invocation, their attributes written from `c{start}` on.
    /// Usually particles.
    Fixed { start: u8, vertices: u8 },
}

/// Why a geometry batch cannot be fed to the shader.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GeometryError {
    #[error("geometry shader invocation {invocation}: {source}")]
    Run { invocation: usize, source: RunError },
    #[error("fixed mode takes {per} vertices per invocation; {left} vertices are left over")]
    Incomplete { per: usize, left: usize },
    #[error("{what}: vertex data would reach c{reg}, past c95")]
    PastConstants { what: &'static str, reg: usize },
    #[error("fixed mode with 0 vertices per primitive")]
    NoVertices,
    #[error("variable mode: primitive sizes add up to {sum}, but {have} vertices were given")]
    Counts { sum: usize, have: usize },
}

/// Feeds `vertices` (each the attributes 0-15 of one vertex, `stride` of them used) to a geometry
/// shader in `mode`, invocation after invocation, and returns the emitted primitives. `counts`
/// gives the sizes of the variable-mode primitives (default: one primitive of all vertices).
/// b15 is set to true after each invocation (as the hardware does; a program can use it to
/// spot the first invocation of a batch).
///
/// # Errors
/// [`GeometryError`]: vertex data that does not fit the mode, or an invocation's [`RunError`].
pub fn run_geometry(
    interp: &mut Interpreter<'_>,
    entry: u32,
    mode: GeometryMode,
    vertices: &[[Vec4; 16]],
    stride: usize,
    counts: Option<&[usize]>,
) -> Result<Vec<Primitive>, GeometryError> {
    let stride = stride.clamp(1, 16);
    let mut invocation = 0;
    let mut invoke = |interp: &mut Interpreter<'_>, inputs: &[Vec4; 16]| {
        let r = interp.run(entry, inputs).map_err(|source| GeometryError::Run { invocation, source });
        interp.set_bool(15, true);
        invocation += 1;
        r.map(|_| ())
    };
    let zero = [[0.0; 4]; 16];
    match mode {
        GeometryMode::Point => {
            for v in vertices {
                invoke(interp, v)?;
            }
        }
        GeometryMode::Fixed { start, vertices: per } => {
            let per = per as usize;
            if per == 0 {
                return Err(GeometryError::NoVertices);
            }
            #[allow(clippy::manual_is_multiple_of)] // is_multiple_of needs Rust 1.87; MSRV is 1.80
            if vertices.len() % per != 0 {
                return Err(GeometryError::Incomplete { per, left: vertices.len() % per });
            }
            let last = start as usize + per * stride;
            if last > 96 {
                return Err(GeometryError::PastConstants { what: "fixed mode", reg: last - 1 });
            }
            for group in vertices.chunks(per) {
                for (k, v) in group.iter().enumerate() {
                    for (a, attr) in v.iter().take(stride).enumerate() {
                        interp.set_float(start as usize + k * stride + a, *attr);
                    }
                }
                invoke(interp, &zero)?;
            }
        }
        GeometryMode::Variable { full_vertices } => {
            let all = [vertices.len()];
            let counts = counts.unwrap_or(&all);
            let sum: usize = counts.iter().sum();
            if sum != vertices.len() {
                return Err(GeometryError::Counts { sum, have: vertices.len() });
            }
            let mut rest = vertices;
            for &n in counts {
                let (group, tail) = rest.split_at(n);
                rest = tail;
                let full = (full_vertices as usize).min(n);
                let regs = 1 + full * stride + (n - full);
                if regs > 96 {
                    return Err(GeometryError::PastConstants { what: "variable mode", reg: regs - 1 });
                }
                let count = n as f32;
                interp.set_float(0, [count; 4]);
                let mut reg = 1;
                for (k, v) in group.iter().enumerate() {
                    let take = if k < full { stride } else { 1 };
                    for attr in v.iter().take(take) {
                        interp.set_float(reg, *attr);
                        reg += 1;
                    }
                }
                invoke(interp, &zero)?;
            }
        }
    }
    Ok(interp.take_primitives())
}

//! CiTraces built from code: register writes, memory loads and frame markers, with helpers for
//! the state a draw needs (a vertex shader from a SHBIN with its output map and constants, a
//! point-mode geometry shader likewise, float uniforms, one attribute buffer, draws, the viewport and output-merger defaults). Tests and
//! the demo assemble their scenes with it; `shaderport pica render` reads the result as any
//! trace.
//!
//! The register values follow ctrulib and citro3d (shaderProgramUse, C3D_* state): facts of the
//! register page (3dbrew "GPU/Internal Registers").

use super::citrace::replay::PICA_MMIO_BASE;
use super::citrace::{Element, LoadData, MemoryLoad, RegisterWrite, Trace};
use super::pack_f24x4;
use crate::float24::F24;
use crate::regs::layouts::AttribType;
use crate::shbin::{Constant, Dvle, OutputKind, Shbin};

/// float24 bits of `x` (truncating).
pub fn f24(x: f32) -> u32 {
    F24::from_f32_truncate(x).bits()
}

/// The GPUREG_SH_OUTMAP_Oi semantic of the `k`-th masked component of an output kind (0x1F:
/// unused). As ctrulib's DVLE_GenerateOutmap, the semantics count up over the components the
/// output's mask selects, so that `texcoord0w` on `.z` is semantic 0x10 in component z.
fn semantic(kind: OutputKind, k: usize) -> u32 {
    let base = match kind {
        OutputKind::Position => 0x00,
        OutputKind::NormalQuat => 0x04,
        OutputKind::Color => 0x08,
        OutputKind::TexCoord0 => 0x0C,
        OutputKind::TexCoord1 => 0x0E,
        OutputKind::TexCoord2 => 0x16,
        OutputKind::TexCoord0W => 0x10,
        OutputKind::View => 0x12,
        OutputKind::Other(_) => return 0x1F,
    };
    let count = match kind {
        OutputKind::TexCoord0 | OutputKind::TexCoord1 | OutputKind::TexCoord2 => 2,
        OutputKind::TexCoord0W => 1,
        OutputKind::View => 3,
        _ => 4,
    };
    if k < count {
        base + k as u32
    } else {
        0x1F
    }
}

/// A DVLE's output mask and its output map words (registers in ascending order fill output
/// slots 0, 1, ..., as ctrulib's DVLE_GenerateOutmap lays them out).
fn output_map(dvle: &Dvle) -> (u32, Vec<u32>) {
    let mut words = [0x1F1F_1F1Fu32; 16];
    let mut mask = 0u32;
    for o in &dvle.outputs {
        let r = usize::from(o.reg & 15);
        mask |= 1 << r;
        let mut k = 0;
        for c in 0..4 {
            if o.mask >> c & 1 != 0 {
                words[r] = (words[r] & !(0xFF << (8 * c))) | (semantic(o.kind, k) << (8 * c));
                k += 1;
            }
        }
    }
    (mask, (0..16).filter(|r| mask >> r & 1 != 0).map(|r| words[r]).collect())
}

/// A trace under construction.
#[derive(Clone, Debug, Default)]
pub struct Scene {
    stream: Vec<Element>,
}

impl Scene {
    pub fn new() -> Scene {
        Scene::default()
    }

    /// A write of internal register `id` straight from the CPU.
    pub fn write(&mut self, id: u16, value: u32) -> &mut Self {
        let address = PICA_MMIO_BASE + 4 * u32::from(id);
        self.stream.push(Element::RegisterWrite(RegisterWrite::u32(address, value)));
        self
    }

    /// Bytes at a physical address (vertex, index or texture data).
    pub fn load(&mut self, physical_address: u32, bytes: Vec<u8>) -> &mut Self {
        self.stream.push(Element::MemoryLoad(MemoryLoad { physical_address, data: LoadData::new(bytes), pad: 0 }));
        self
    }

    pub fn end_frame(&mut self) -> &mut Self {
        self.stream.push(Element::FrameMarker);
        self
    }

    /// Vertex float uniform c`reg` in f32 mode (the words go w first).
    pub fn float_uniform(&mut self, reg: u8, v: [f32; 4]) -> &mut Self {
        self.write(0x2C0, 0x8000_0000 | u32::from(reg));
        for x in [v[3], v[2], v[1], v[0]] {
            self.write(0x2C1, x.to_bits());
        }
        self
    }

    /// Geometry float uniform c`reg` in f32 mode (the words go w first).
    pub fn geometry_float_uniform(&mut self, reg: u8, v: [f32; 4]) -> &mut Self {
        self.write(0x290, 0x8000_0000 | u32::from(reg));
        for x in [v[3], v[2], v[1], v[0]] {
            self.write(0x291, x.to_bits());
        }
        self
    }

    /// The program and operand descriptors of `shbin` into the unit at `base` (0x2B0 vertex,
    /// 0x280 geometry) and the entry point of `dvle`.
    fn program(&mut self, base: u16, shbin: &Shbin, dvle: &Dvle) -> &mut Self {
        self.write(base + 0x1B, 0);
        for &w in &shbin.program.code {
            self.write(base + 0x1C, w);
        }
        self.write(base + 0x0F, 1);
        self.write(base + 0x25, 0);
        for d in &shbin.program.descriptors {
            self.write(base + 0x26, d[0]);
        }
        self.write(base + 0x0A, 0x7FFF_0000 | (dvle.main & 0xFFFF))
    }

    /// The output map registers (GPUREG_SH_OUTMAP_TOTAL and _Oi) of `slots`.
    fn output_slots(&mut self, slots: &[u32]) -> &mut Self {
        self.write(0x04F, slots.len().min(7) as u32);
        for (i, &w) in slots.iter().take(7).enumerate() {
            self.write(0x050 + i as u16, w);
        }
        self
    }

    /// Executable `entry` of `shbin` as the vertex shader: program and operand descriptors,
    /// entry point, the output mask, its count (GPUREG_VSH_OUTMAP_TOTAL1/2) and map (registers
    /// in ascending order fill output slots 0, 1, ..., as ctrulib's DVLE_GenerateOutmap lays
    /// them out), and the DVLE's constants.
    pub fn vertex_shader(&mut self, shbin: &Shbin, entry: usize) -> &mut Self {
        let dvle = &shbin.executables[entry];
        self.program(0x2B0, shbin, dvle);
        let (mask, slots) = output_map(dvle);
        let total = mask.count_ones().saturating_sub(1);
        self.write(0x2BD, mask).write(0x24A, total).write(0x251, total);
        self.output_slots(&slots);
        self.constants(0x2B0, dvle)
    }

    /// Executable `entry` of `shbin` as the geometry shader in point mode, `inputs` attributes
    /// per invocation (GPUREG_GSH_INPUTBUFFER_CONFIG: the vertex shader's outputs of
    /// consecutive vertices, input attribute a into v`a`): the geometry stage on
    /// (GPUREG_GEOSTAGE_CONFIG 2), the unit configured on its own (GPUREG_VSH_COM_MODE 1), its
    /// program, operand descriptors and entry point, GPUREG_GSH_OUTMAP_MASK, the output map
    /// (the geometry shader's outputs fill the slots now) and the DVLE's constants. Call it
    /// after [`Scene::vertex_shader`], whose output map it replaces.
    pub fn geometry_shader(&mut self, shbin: &Shbin, entry: usize, inputs: u32) -> &mut Self {
        let dvle = &shbin.executables[entry];
        self.write(0x244, 1).write(0x229, 2).write(0x252, 0);
        self.write(0x289, 0x0800_0000 | (inputs.clamp(1, 16) - 1));
        self.write(0x28B, 0x7654_3210).write(0x28C, 0xFEDC_BA98);
        self.program(0x280, shbin, dvle);
        let (mask, slots) = output_map(dvle);
        self.write(0x28D, mask);
        self.output_slots(&slots);
        self.constants(0x280, dvle)
    }

    fn constants(&mut self, base: u16, dvle: &Dvle) -> &mut Self {
        let mut bools = 0u32;
        for k in &dvle.constants {
            match *k {
                Constant::Float { reg, value } if reg < 96 => {
                    self.write(base + 0x10, u32::from(reg));
                    for w in pack_f24x4(value) {
                        self.write(base + 0x11, w);
                    }
                }
                Constant::Int { reg, value } if reg < 4 => {
                    self.write(base + 1 + u16::from(reg), u32::from_le_bytes(value));
                }
                Constant::Bool { reg, value } if reg < 16 => bools |= u32::from(value) << reg,
                _ => {}
            }
        }
        self.write(base, 0x7FFF_0000 | bools)
    }

    /// One attribute buffer at `address` (a multiple of 16) holding attributes 0.. in order,
    /// `stride` bytes per vertex, attribute i into v`i`.
    pub fn vertex_array(&mut self, address: u32, attributes: &[(AttribType, u32)], stride: u32) -> &mut Self {
        let n = attributes.len().clamp(1, 12);
        let mut low = 0u64;
        let mut comps = 0u64;
        for (i, &(kind, components)) in attributes.iter().take(12).enumerate() {
            low |= u64::from(kind.raw() | ((components.clamp(1, 4) - 1) << 2)) << (4 * i);
            comps |= (i as u64) << (4 * i);
        }
        self.write(0x200, address >> 3);
        self.write(0x201, low as u32);
        self.write(0x202, ((low >> 32) as u32 & 0xFFFF) | ((n as u32 - 1) << 28));
        self.write(0x203, 0);
        self.write(0x204, comps as u32);
        self.write(0x205, ((comps >> 32) as u32 & 0xFFFF) | ((stride & 0xFF) << 16) | ((n as u32) << 28));
        self.write(0x242, n as u32 - 1);
        self.write(0x2B9, 0xA000_0000 | ((1 << n) - 1));
        self.write(0x2BB, 0x7654_3210);
        self.write(0x2BC, 0xFEDC_BA98)
    }

    /// GPUREG_PRIMITIVE_CONFIG's mode (0 triangles, 1 strip, 2 fan, 3 geometry primitive).
    pub fn primitive(&mut self, mode: u32) -> &mut Self {
        self.write(0x25E, (mode & 3) << 8)
    }

    pub fn draw_arrays(&mut self, first: u32, count: u32) -> &mut Self {
        self.write(0x228, count).write(0x22A, first).write(0x22E, 1)
    }

    /// Indices at `offset` from the vertex array's base.
    pub fn draw_elements(&mut self, offset: u32, u16_indices: bool, count: u32) -> &mut Self {
        self.write(0x227, (offset & 0x0FFF_FFFF) | (u32::from(u16_indices) << 31)).write(0x228, count).write(0x22F, 1)
    }

    /// A `width` x `height` framebuffer and viewport; depth map scale -1 and offset 0 (the
    /// PICA's z/w in [-1, 0] to depth [0, 1]); colour, depth and stencil writes allowed; RGBA
    /// and depth masks on, depth test off; blending off (logic op copy); TexEnv stages 1-5 pass
    /// the previous stage on.
    pub fn defaults(&mut self, width: u32, height: u32) -> &mut Self {
        self.write(0x041, f24(width as f32 / 2.0))
            .write(0x042, (2.0 / width as f32).to_bits() >> 1)
            .write(0x043, f24(height as f32 / 2.0))
            .write(0x044, (2.0 / height as f32).to_bits() >> 1)
            .write(0x068, 0)
            .write(0x11E, width | ((height - 1) << 12) | (1 << 24))
            .write(0x04D, f24(-1.0))
            .write(0x04E, 0)
            .write(0x112, 0xF)
            .write(0x113, 0xF)
            .write(0x114, 3)
            .write(0x115, 3)
            .write(0x107, 0x1F00)
            .write(0x100, 0x00E4_0000)
            .write(0x102, 3);
        for stage in [0x0C8u16, 0x0D0, 0x0D8, 0x0F0, 0x0F8] {
            self.write(stage, 0x000F_000F).write(stage + 1, 0).write(stage + 2, 0).write(stage + 4, 0);
        }
        self
    }

    /// The trace (plain 32-bit register writes, empty initial state).
    pub fn trace(&self) -> Trace {
        Trace { stream: self.stream.clone(), ..Trace::default() }
    }
}

/// The float register a DVLE's uniform `name` starts at (c0-c95).
pub fn uniform(dvle: &Dvle, name: &str) -> Option<u8> {
    dvle.uniforms
        .iter()
        .find(|u| dvle.symbol(u.symbol) == Some(name))
        .and_then(|u| u.start.checked_sub(0x10))
        .map(|r| r as u8)
}

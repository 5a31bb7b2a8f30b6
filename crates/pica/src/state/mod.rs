//! The GPU state a command list builds: the register file, the memories behind the upload ports,
//! and the draws with the state each one saw.
//!
//! Behaviour per the register page (3dbrew "GPU/Internal Registers"), with the choices the page
//! leaves open made as Citra's command processor makes them (video_core/command_processor.cpp;
//! facts only). Every choice is listed in docs/pica-cmdlist.md "State tracker".

use std::sync::Arc;

pub mod citrace;
pub mod loader;
pub mod scene;
pub mod vertex;

pub use vertex::{AttributeBuffer, AttributeFormat, VertexConfig};

use crate::float24::F24;
use crate::regs::cmdlist::{CommandList, ReadError, Reader, Write};
use crate::regs::table::REGISTER_COUNT;

/// Register ids the tracker acts on.
pub mod ids {
    pub const FINALIZE: u16 = 0x010;
    pub const PROCTEX_LUT: u16 = 0x0AF;
    pub const PROCTEX_LUT_DATA: u16 = 0x0B0;
    pub const FOG_LUT_INDEX: u16 = 0x0E6;
    pub const FOG_LUT_DATA: u16 = 0x0E8;
    pub const GAS_LUT_INDEX: u16 = 0x123;
    pub const GAS_LUT_DATA: u16 = 0x124;
    pub const LIGHTING_LUT_INDEX: u16 = 0x1C5;
    pub const LIGHTING_LUT_DATA: u16 = 0x1C8;
    pub const INDEXBUFFER_CONFIG: u16 = 0x227;
    pub const NUMVERTICES: u16 = 0x228;
    pub const VERTEX_OFFSET: u16 = 0x22A;
    pub const DRAWARRAYS: u16 = 0x22E;
    pub const DRAWELEMENTS: u16 = 0x22F;
    pub const FIXEDATTRIB_INDEX: u16 = 0x232;
    pub const FIXEDATTRIB_DATA: u16 = 0x233;
    pub const VSH_NUM_ATTR: u16 = 0x242;
    pub const VSH_COM_MODE: u16 = 0x244;
    pub const GEOSTAGE_CONFIG2: u16 = 0x253;
    pub const PRIMITIVE_CONFIG: u16 = 0x25E;
    /// Base of the geometry shader unit's registers; the vertex unit's are 0x30 above.
    pub const GSH_BASE: u16 = 0x280;
    pub const VSH_BASE: u16 = 0x2B0;
    /// Offsets from a unit's base.
    pub const SH_FLOATUNIFORM_INDEX: u16 = 0x10;
    pub const SH_FLOATUNIFORM_DATA: u16 = 0x11;
    pub const SH_CODETRANSFER_INDEX: u16 = 0x1B;
    pub const SH_CODETRANSFER_DATA: u16 = 0x1C;
    pub const SH_OPDESCS_INDEX: u16 = 0x25;
    pub const SH_OPDESCS_DATA: u16 = 0x26;
}

/// Shader code memory, in words (the code index field is 12 bits).
pub const CODE_WORDS: usize = 4096;
/// Operand descriptor memory, in words (the index field is 12 bits).
pub const OPDESC_WORDS: usize = 4096;
/// Float uniforms per shader unit (c0-c95).
pub const FLOAT_UNIFORMS: usize = 96;
/// Default (fixed) vertex attributes; index 15 selects immediate mode.
pub const DEFAULT_ATTRIBUTES: usize = 15;
/// Lighting LUTs (the table field is 5 bits; 24 are named) of 256 entries.
pub const LIGHTING_LUTS: usize = 24;
/// Warnings kept (the count goes on).
pub const MAX_WARNINGS: usize = 1000;
/// Immediate-mode vertices kept per draw.
pub const MAX_IMMEDIATE_VERTICES: usize = 1 << 16;

/// One float uniform or attribute: x, y, z, w.
pub type Vec4 = [F24; 4];

/// The memories of one shader unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderUnit {
    pub code: Arc<Vec<u32>>,
    pub opdescs: Arc<Vec<u32>>,
    pub float_uniforms: Arc<Vec<Vec4>>,
    /// Next code word written through the data port.
    pub code_offset: u32,
    pub opdesc_offset: u32,
    /// Words of a float uniform received so far (3 in f24 mode, 4 in f32 mode make one).
    pub uniform_buffer: Vec<u32>,
}

impl Default for ShaderUnit {
    fn default() -> Self {
        ShaderUnit {
            code: Arc::new(vec![0; CODE_WORDS]),
            opdescs: Arc::new(vec![0; OPDESC_WORDS]),
            float_uniforms: Arc::new(vec![[F24::ZERO; 4]; FLOAT_UNIFORMS]),
            code_offset: 0,
            opdesc_offset: 0,
            uniform_buffer: Vec::new(),
        }
    }
}

/// The procedural texture LUTs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcTexLuts {
    pub noise: [u32; 128],
    pub rgb_map: [u32; 128],
    pub alpha_map: [u32; 128],
    pub color: [u32; 256],
    pub color_diff: [u32; 256],
}

impl Default for ProcTexLuts {
    fn default() -> Self {
        ProcTexLuts { noise: [0; 128], rgb_map: [0; 128], alpha_map: [0; 128], color: [0; 256], color_diff: [0; 256] }
    }
}

/// Everything behind the upload ports. Cloning is cheap (the large memories are shared until
/// written), so that each draw can keep the memories it saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memories {
    pub vs: ShaderUnit,
    pub gs: ShaderUnit,
    /// Lighting LUTs, indexed by the GPUREG_LIGHTING_LUT_INDEX table number.
    pub lighting: Arc<Vec<[u32; 256]>>,
    pub fog: Arc<[u32; 128]>,
    pub proctex: Arc<ProcTexLuts>,
    pub gas: [u32; 16],
    pub default_attributes: [Vec4; DEFAULT_ATTRIBUTES],
}

impl Default for Memories {
    fn default() -> Self {
        Memories {
            vs: ShaderUnit::default(),
            gs: ShaderUnit::default(),
            lighting: Arc::new(vec![[0; 256]; LIGHTING_LUTS]),
            fog: Arc::new([0; 128]),
            proctex: Arc::new(ProcTexLuts::default()),
            gas: [0; 16],
            default_attributes: [[F24::ZERO; 4]; DEFAULT_ATTRIBUTES],
        }
    }
}

/// What triggered a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawKind {
    /// GPUREG_DRAWARRAYS.
    Arrays,
    /// GPUREG_DRAWELEMENTS.
    Elements,
    /// Vertices sent through GPUREG_FIXEDATTRIB_DATA with index 15.
    Immediate,
}

/// One draw, with the state that applied to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Draw {
    pub kind: DrawKind,
    /// Byte offset of the command whose write triggered (or, for immediate draws, ended) it.
    pub offset: usize,
    /// GPUREG_NUMVERTICES, or the number of immediate vertices.
    pub vertex_count: u32,
    /// GPUREG_VERTEX_OFFSET (draw arrays).
    pub vertex_offset: u32,
    /// GPUREG_PRIMITIVE_CONFIG bits 8-9.
    pub primitive: u32,
    /// GPUREG_INDEXBUFFER_CONFIG (draw elements): offset and whether indices are 16-bit.
    pub index_offset: u32,
    pub index_u16: bool,
    /// Immediate-mode vertices, one attribute list each.
    pub vertices: Vec<Vec<Vec4>>,
    /// The register file at the draw.
    pub regs: Box<[u32]>,
    /// The upload memories at the draw (shared with the tracker until either changes).
    pub memories: Memories,
}

/// Something the tracker could not apply as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub offset: usize,
    pub message: String,
}

/// The state tracker.
#[derive(Clone, Debug)]
pub struct GpuState {
    /// The register file, ids 0x000-0x2FF, as the masked writes left it.
    pub regs: Box<[u32]>,
    pub memories: Memories,
    pub draws: Vec<Draw>,
    pub warnings: Vec<Warning>,
    pub warning_count: usize,
    /// Register writes applied.
    pub writes: usize,
    /// Byte offsets of the writes to GPUREG_FINALIZE.
    pub finalized_at: Vec<usize>,
    lighting_index: u32,
    lighting_table: usize,
    fog_index: u32,
    proctex_index: u32,
    proctex_table: u32,
    gas_index: u32,
    default_attr_index: u32,
    default_attr_buffer: Vec<u32>,
    immediate_attribute: usize,
    immediate_vertex: Vec<Vec4>,
    immediate_vertices: Vec<Vec<Vec4>>,
}

impl Default for GpuState {
    fn default() -> Self {
        GpuState::new()
    }
}

/// Unpacks four float24 values sent in three words, w first: word 0 holds w in bits 8-31 and
/// the high byte of z, word 1 the rest of z and the high 16 bits of y, word 2 the low byte of y
/// and x in bits 0-23. This is the page's layout of GPUREG_FIXEDATTRIB_DATA*i*; float uniforms
/// in f24 mode use it too, as Citra and Panda3DS read them (the page's "ZZWWWWWW" sketch for
/// uniforms reads the other way; docs/pica-cmdlist.md).
pub fn unpack_f24x4(w: [u32; 3]) -> Vec4 {
    let x = w[2] & 0xFF_FFFF;
    let y = ((w[1] & 0xFFFF) << 8) | (w[2] >> 24);
    let z = ((w[0] & 0xFF) << 16) | (w[1] >> 16);
    let wv = w[0] >> 8;
    [F24::from_bits(x), F24::from_bits(y), F24::from_bits(z), F24::from_bits(wv)]
}

/// The inverse of [`unpack_f24x4`].
pub fn pack_f24x4(v: Vec4) -> [u32; 3] {
    let [x, y, z, w] = v.map(F24::bits);
    [(w << 8) | (z >> 16), ((z & 0xFFFF) << 16) | (y >> 8), ((y & 0xFF) << 24) | x]
}

impl Draw {
    /// The attribute and index buffer configuration the draw used.
    pub fn vertex_config(&self) -> VertexConfig {
        VertexConfig::from_regs(&self.regs)
    }
}

impl GpuState {
    pub fn new() -> GpuState {
        GpuState {
            regs: vec![0; REGISTER_COUNT].into_boxed_slice(),
            memories: Memories::default(),
            draws: Vec::new(),
            warnings: Vec::new(),
            warning_count: 0,
            writes: 0,
            finalized_at: Vec::new(),
            lighting_index: 0,
            lighting_table: 0,
            fog_index: 0,
            proctex_index: 0,
            proctex_table: 0,
            gas_index: 0,
            default_attr_index: 0,
            default_attr_buffer: Vec::new(),
            immediate_attribute: 0,
            immediate_vertex: Vec::new(),
            immediate_vertices: Vec::new(),
        }
    }

    /// The register `id` (0 for ids outside the file).
    pub fn reg(&self, id: u16) -> u32 {
        self.regs.get(usize::from(id)).copied().unwrap_or(0)
    }

    /// Applies a whole list; byte offsets in warnings and draws count from its start.
    pub fn apply_list(&mut self, list: &CommandList) {
        let mut offset = 0;
        for c in &list.commands {
            for w in c.writes() {
                self.apply_write(w, offset);
            }
            offset += c.word_len() * 4;
        }
        self.finish(offset);
    }

    /// Reads and applies a list of words as it goes; on a read error the writes before it stay
    /// applied.
    pub fn apply_words(&mut self, words: &[u32]) -> Result<(), ReadError> {
        for located in Reader::new(words) {
            let located = located?;
            for w in located.command.writes() {
                self.apply_write(w, located.offset);
            }
        }
        self.finish(words.len() * 4);
        Ok(())
    }

    /// Ends an immediate-mode draw still open at the end of the input.
    pub fn finish(&mut self, offset: usize) {
        self.close_immediate(offset);
    }

    fn warn(&mut self, offset: usize, message: String) {
        self.warning_count += 1;
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(Warning { offset, message });
        }
    }

    /// Applies one register write made by the command at byte `offset`.
    pub fn apply_write(&mut self, w: Write, offset: usize) {
        let Some(slot) = self.regs.get_mut(usize::from(w.id)) else {
            self.warn(offset, format!("write to register 0x{:04x}, outside the register file; ignored", w.id));
            return;
        };
        *slot = w.apply(*slot);
        let value = *slot;
        self.writes += 1;
        // Upload ports take the parameter word as written (Citra does; what the byte mask does
        // to a port on hardware is not known).
        let data = w.value;
        use ids::*;
        match w.id {
            FINALIZE => {
                self.close_immediate(offset);
                self.finalized_at.push(offset);
            }
            PROCTEX_LUT => {
                self.proctex_index = value & 0xFF;
                self.proctex_table = (value >> 8) & 0xF;
            }
            0x0B0..=0x0B7 => self.proctex_data(data, offset),
            FOG_LUT_INDEX => self.fog_index = value & 0xFFFF,
            0x0E8..=0x0EF => {
                Arc::make_mut(&mut self.memories.fog)[(self.fog_index % 128) as usize] = data;
                self.fog_index = (self.fog_index + 1) & 0xFFFF;
            }
            GAS_LUT_INDEX => self.gas_index = value & 0xFFFF,
            GAS_LUT_DATA => {
                self.memories.gas[(self.gas_index % 16) as usize] = data;
                self.gas_index = (self.gas_index + 1) & 0xFFFF;
            }
            LIGHTING_LUT_INDEX => {
                self.lighting_index = value & 0xFF;
                self.lighting_table = ((value >> 8) & 0x1F) as usize;
            }
            0x1C8..=0x1CF => {
                if self.lighting_table < LIGHTING_LUTS {
                    Arc::make_mut(&mut self.memories.lighting)[self.lighting_table][self.lighting_index as usize] =
                        data;
                } else {
                    self.warn(offset, format!("lighting LUT {} does not exist; entry dropped", self.lighting_table));
                }
                self.lighting_index = (self.lighting_index + 1) & 0xFF;
            }
            DRAWARRAYS | DRAWELEMENTS => {
                self.close_immediate(offset);
                let kind = if w.id == DRAWARRAYS { DrawKind::Arrays } else { DrawKind::Elements };
                self.record_draw(kind, offset, Vec::new());
            }
            FIXEDATTRIB_INDEX => {
                self.close_immediate(offset);
                self.default_attr_index = value & 0xF;
                self.default_attr_buffer.clear();
                self.immediate_attribute = 0;
                self.immediate_vertex.clear();
            }
            0x233..=0x235 => self.default_attr_data(data, offset),
            GEOSTAGE_CONFIG2 if value & 1 == 0 => self.close_immediate(offset),
            0x280..=0x2DF => self.shader_write(w.id, value, data, offset),
            _ => {}
        }
    }

    fn proctex_data(&mut self, data: u32, offset: usize) {
        let i = self.proctex_index as usize;
        let p = &mut self.memories.proctex;
        match self.proctex_table {
            0 => Arc::make_mut(p).noise[i % 128] = data,
            2 => Arc::make_mut(p).rgb_map[i % 128] = data,
            3 => Arc::make_mut(p).alpha_map[i % 128] = data,
            4 => Arc::make_mut(p).color[i % 256] = data,
            5 => Arc::make_mut(p).color_diff[i % 256] = data,
            t => self.warn(offset, format!("procedural texture LUT {t} does not exist; entry dropped")),
        }
        self.proctex_index = (self.proctex_index + 1) & 0xFF;
    }

    fn default_attr_data(&mut self, data: u32, offset: usize) {
        self.default_attr_buffer.push(data);
        if self.default_attr_buffer.len() < 3 {
            return;
        }
        let b = [self.default_attr_buffer[0], self.default_attr_buffer[1], self.default_attr_buffer[2]];
        self.default_attr_buffer.clear();
        let v = unpack_f24x4(b);
        let index = self.default_attr_index as usize;
        if index < DEFAULT_ATTRIBUTES {
            self.memories.default_attributes[index] = v;
            // The index moves on after each attribute (as in Citra); from 14 it reaches 15,
            // immediate mode.
            self.default_attr_index += 1;
            return;
        }
        self.immediate_vertex.push(v);
        let last = (self.reg(ids::VSH_NUM_ATTR) & 0xF) as usize;
        if self.immediate_attribute < last {
            self.immediate_attribute += 1;
        } else {
            self.immediate_attribute = 0;
            let vertex = std::mem::take(&mut self.immediate_vertex);
            if self.immediate_vertices.len() < MAX_IMMEDIATE_VERTICES {
                self.immediate_vertices.push(vertex);
            } else {
                self.warn(offset, "too many immediate-mode vertices in one draw; vertex dropped".into());
            }
        }
    }

    fn close_immediate(&mut self, offset: usize) {
        if self.immediate_vertices.is_empty() {
            return;
        }
        let vertices = std::mem::take(&mut self.immediate_vertices);
        self.record_draw(DrawKind::Immediate, offset, vertices);
    }

    fn record_draw(&mut self, kind: DrawKind, offset: usize, vertices: Vec<Vec<Vec4>>) {
        let index = self.reg(ids::INDEXBUFFER_CONFIG);
        let vertex_count = if kind == DrawKind::Immediate { vertices.len() as u32 } else { self.reg(ids::NUMVERTICES) };
        self.draws.push(Draw {
            kind,
            offset,
            vertex_count,
            vertex_offset: self.reg(ids::VERTEX_OFFSET),
            primitive: (self.reg(ids::PRIMITIVE_CONFIG) >> 8) & 3,
            index_offset: index & 0x0FFF_FFFF,
            index_u16: index >> 31 != 0,
            vertices,
            regs: self.regs.clone(),
            memories: self.memories.clone(),
        });
    }

    /// Writes to the shader unit registers 0x280-0x2DF.
    fn shader_write(&mut self, id: u16, value: u32, data: u32, offset: usize) {
        use ids::*;
        let (vertex, rel) = if id >= VSH_BASE { (true, id - VSH_BASE) } else { (false, id - GSH_BASE) };
        // With GPUREG_VSH_COM_MODE bit 0 clear, code and operand descriptors sent to the vertex
        // unit also go to the geometry unit (Citra: gs_unit_exclusive_configuration).
        let mirror = vertex && self.reg(VSH_COM_MODE) & 1 == 0;
        let unit_name = if vertex { "vertex" } else { "geometry" };
        match rel {
            SH_FLOATUNIFORM_INDEX => {}
            0x11..=0x18 => {
                let index_reg = self.reg(if vertex { VSH_BASE } else { GSH_BASE } + SH_FLOATUNIFORM_INDEX);
                let f32_mode = index_reg >> 31 != 0;
                let unit = if vertex { &mut self.memories.vs } else { &mut self.memories.gs };
                unit.uniform_buffer.push(data);
                let need = if f32_mode { 4 } else { 3 };
                if unit.uniform_buffer.len() < need {
                    return;
                }
                let b = std::mem::take(&mut unit.uniform_buffer);
                let v = if f32_mode {
                    // Four f32 words, w first.
                    [b[3], b[2], b[1], b[0]].map(|bits| F24::from_f32_truncate(f32::from_bits(bits)))
                } else {
                    unpack_f24x4([b[0], b[1], b[2]])
                };
                let index = (index_reg & 0xFF) as usize;
                if index < FLOAT_UNIFORMS {
                    Arc::make_mut(&mut unit.float_uniforms)[index] = v;
                    // The index moves on to the next uniform (the page: "the target register
                    // index is incremented").
                    let reg_id = usize::from(if vertex { VSH_BASE } else { GSH_BASE } + SH_FLOATUNIFORM_INDEX);
                    self.regs[reg_id] = (index_reg & !0xFF) | ((index as u32 + 1) & 0xFF);
                } else {
                    self.warn(offset, format!("{unit_name} float uniform c{index} does not exist; dropped"));
                }
            }
            SH_CODETRANSFER_INDEX => {
                let unit = if vertex { &mut self.memories.vs } else { &mut self.memories.gs };
                unit.code_offset = value & 0xFFF;
                if mirror {
                    self.memories.gs.code_offset = value & 0xFFF;
                }
            }
            0x1C..=0x23 => {
                self.upload(vertex, false, data, offset);
                if mirror {
                    self.upload(false, false, data, offset);
                }
            }
            SH_OPDESCS_INDEX => {
                let unit = if vertex { &mut self.memories.vs } else { &mut self.memories.gs };
                unit.opdesc_offset = value & 0xFFF;
                if mirror {
                    self.memories.gs.opdesc_offset = value & 0xFFF;
                }
            }
            0x26..=0x2D => {
                self.upload(vertex, true, data, offset);
                if mirror {
                    self.upload(false, true, data, offset);
                }
            }
            _ => {}
        }
    }

    fn upload(&mut self, vertex: bool, opdesc: bool, data: u32, offset: usize) {
        let unit = if vertex { &mut self.memories.vs } else { &mut self.memories.gs };
        let (mem, at) =
            if opdesc { (&mut unit.opdescs, &mut unit.opdesc_offset) } else { (&mut unit.code, &mut unit.code_offset) };
        let i = *at as usize;
        if i < mem.len() {
            Arc::make_mut(mem)[i] = data;
            *at += 1;
        } else {
            let what = if opdesc { "operand descriptor" } else { "code" };
            let unit_name = if vertex { "vertex" } else { "geometry" };
            self.warn(offset, format!("{unit_name} shader {what} word {i} is past the end of its memory; dropped"));
        }
    }

    /// The current attribute and index buffer configuration.
    pub fn vertex_config(&self) -> VertexConfig {
        VertexConfig::from_regs(&self.regs)
    }

    /// The four integer uniforms of a unit (x, y, z, w each).
    pub fn int_uniforms(&self, vertex: bool) -> [[u8; 4]; 4] {
        let base = if vertex { ids::VSH_BASE } else { ids::GSH_BASE } + 1;
        std::array::from_fn(|i| self.reg(base + i as u16).to_le_bytes())
    }

    /// The sixteen boolean uniforms of a unit, b0 in bit 0.
    pub fn bool_uniforms(&self, vertex: bool) -> u16 {
        self.reg(if vertex { ids::VSH_BASE } else { ids::GSH_BASE }) as u16
    }

    /// Upload positions, for printing.
    pub fn lut_positions(&self) -> LutPositions {
        LutPositions {
            lighting_table: self.lighting_table as u32,
            lighting_index: self.lighting_index,
            fog_index: self.fog_index,
            proctex_table: self.proctex_table,
            proctex_index: self.proctex_index,
            default_attribute_index: self.default_attr_index,
        }
    }
}

/// Where the next LUT and attribute uploads go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LutPositions {
    pub lighting_table: u32,
    pub lighting_index: u32,
    pub fog_index: u32,
    pub proctex_table: u32,
    pub proctex_index: u32,
    pub default_attribute_index: u32,
}

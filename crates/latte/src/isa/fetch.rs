//! Fetch-clause instructions: TEX_WORD0-2 and VTX_WORD0-2, each followed by a padding word
//! (latte-semantics-facts.md §1.14, §1.15).

use super::table;
use super::{bit, bits, flag, put};

/// A texture instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TexInst {
    /// Opcode.
    pub op: u8,
    /// BC_FRAC_MODE.
    pub bc_frac_mode: bool,
    /// Word 0 bit 6 (reserved on R700).
    pub reserved6: bool,
    /// FETCH_WHOLE_QUAD.
    pub fetch_whole_quad: bool,
    /// RESOURCE_ID: texture resource.
    pub resource_id: u8,
    /// SRC_GPR.
    pub src_gpr: u8,
    /// SRC_REL.
    pub src_rel: bool,
    /// ALT_CONST: use the alternate constant set.
    pub alt_const: bool,
    /// Word 0 bits 31:25 (reserved).
    pub reserved0: u8,
    /// DST_GPR: destination register.
    pub dst_gpr: u8,
    /// DST_REL: destination relative to the index register.
    pub dst_rel: bool,
    /// Word 1 bit 8 (reserved).
    pub reserved8: bool,
    /// DST_SEL_X..W: 0-3 xyzw, 4 zero, 5 one, 7 not written.
    pub dst_sel: [u8; 4],
    /// Signed 7-bit LOD bias, 1.3.3 fixed point (value / 8).
    pub lod_bias: u8,
    /// 1 normalized, 0 unnormalized, per component.
    pub coord_type: [bool; 4],
    /// Signed 5-bit offsets in half texels.
    pub offset: [u8; 3],
    /// SAMPLER_ID.
    pub sampler_id: u8,
    /// SRC_SEL_X..W: 0-3 xyzw, 4 zero, 5 one, 7 unused.
    pub src_sel: [u8; 4],
    /// The fourth (padding) word.
    pub pad: u32,
}

/// A vertex fetch (in a VTX clause, or VTX_FETCH / VTX_SEMANTIC inside a TEX clause).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct VtxInst {
    /// 0 FETCH, 1 SEMANTIC (5 bits).
    pub op: u8,
    /// FETCH_TYPE: 0 vertex, 1 instance, 2 no index offset.
    pub fetch_type: u8,
    /// FETCH_WHOLE_QUAD.
    pub fetch_whole_quad: bool,
    /// BUFFER_ID: the vertex or uniform buffer resource.
    pub buffer_id: u8,
    /// SRC_GPR.
    pub src_gpr: u8,
    /// SRC_REL.
    pub src_rel: bool,
    /// SRC_SEL_X: channel that holds the index.
    pub src_sel_x: u8,
    /// MEGA_FETCH_COUNT: bytes minus one.
    pub mega_fetch_count: u8,
    /// Word 1 bits 7:0: DST_GPR (6:0) and DST_REL (7) for FETCH, SEMANTIC_ID for SEMANTIC.
    pub dst: u8,
    /// Word 1 bit 8 (reserved).
    pub reserved8: bool,
    /// DST_SEL_X..W: 0-3 xyzw, 4 zero, 5 one, 7 not written.
    pub dst_sel: [u8; 4],
    /// USE_CONST_FIELDS: take the format from the resource.
    pub use_const_fields: bool,
    /// DATA_FORMAT (e.g. 35 = 32_32_32_32_FLOAT).
    pub data_format: u8,
    /// NUM_FORMAT_ALL: 0 norm, 1 int, 2 scaled.
    pub num_format: u8,
    /// FORMAT_COMP_ALL: signed.
    pub format_comp: bool,
    /// SRF_MODE_ALL.
    pub srf_mode: bool,
    /// OFFSET: bytes added to the fetch address.
    pub offset: u16,
    /// ENDIAN_SWAP: 0 none, 1 8in16, 2 8in32.
    pub endian_swap: u8,
    /// CONST_BUF_NO_STRIDE.
    pub const_buf_no_stride: bool,
    /// MEGA_FETCH.
    pub mega_fetch: bool,
    /// ALT_CONST: use the alternate constant set.
    pub alt_const: bool,
    /// Word 2 bits 31:21 (reserved).
    pub reserved2: u16,
    /// The padding word after the three instruction words.
    pub pad: u32,
}

/// A fetch instruction of either layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FetchInst {
    /// A TEX clause / texture-fetch layout.
    Tex(TexInst),
    /// A VTX clause / vertex-fetch layout.
    Vtx(VtxInst),
}

impl TexInst {
    /// Decodes four words.
    pub fn decode(w: [u32; 4]) -> TexInst {
        TexInst {
            op: bits(w[0], 0, 5) as u8,
            bc_frac_mode: bit(w[0], 5),
            reserved6: bit(w[0], 6),
            fetch_whole_quad: bit(w[0], 7),
            resource_id: bits(w[0], 8, 8) as u8,
            src_gpr: bits(w[0], 16, 7) as u8,
            src_rel: bit(w[0], 23),
            alt_const: bit(w[0], 24),
            reserved0: bits(w[0], 25, 7) as u8,
            dst_gpr: bits(w[1], 0, 7) as u8,
            dst_rel: bit(w[1], 7),
            reserved8: bit(w[1], 8),
            dst_sel: [
                bits(w[1], 9, 3) as u8,
                bits(w[1], 12, 3) as u8,
                bits(w[1], 15, 3) as u8,
                bits(w[1], 18, 3) as u8,
            ],
            lod_bias: bits(w[1], 21, 7) as u8,
            coord_type: [bit(w[1], 28), bit(w[1], 29), bit(w[1], 30), bit(w[1], 31)],
            offset: [bits(w[2], 0, 5) as u8, bits(w[2], 5, 5) as u8, bits(w[2], 10, 5) as u8],
            sampler_id: bits(w[2], 15, 5) as u8,
            src_sel: [
                bits(w[2], 20, 3) as u8,
                bits(w[2], 23, 3) as u8,
                bits(w[2], 26, 3) as u8,
                bits(w[2], 29, 3) as u8,
            ],
            pad: w[3],
        }
    }
    /// Encodes to four words.
    pub fn encode(&self) -> [u32; 4] {
        let w0 = put(self.op as u32, 0, 5)
            | flag(self.bc_frac_mode, 5)
            | flag(self.reserved6, 6)
            | flag(self.fetch_whole_quad, 7)
            | put(self.resource_id as u32, 8, 8)
            | put(self.src_gpr as u32, 16, 7)
            | flag(self.src_rel, 23)
            | flag(self.alt_const, 24)
            | put(self.reserved0 as u32, 25, 7);
        let mut w1 = put(self.dst_gpr as u32, 0, 7)
            | flag(self.dst_rel, 7)
            | flag(self.reserved8, 8)
            | put(self.lod_bias as u32, 21, 7);
        for i in 0..4 {
            w1 |= put(self.dst_sel[i] as u32, 9 + 3 * i as u32, 3) | flag(self.coord_type[i], 28 + i as u32);
        }
        let mut w2 = put(self.sampler_id as u32, 15, 5);
        for i in 0..3 {
            w2 |= put(self.offset[i] as u32, 5 * i as u32, 5);
        }
        for i in 0..4 {
            w2 |= put(self.src_sel[i] as u32, 20 + 3 * i as u32, 3);
        }
        [w0, w1, w2, self.pad]
    }
    /// Mnemonic.
    pub fn name(&self) -> &'static str {
        table::TEX_OPS[self.op as usize & 31].1
    }
}

impl VtxInst {
    /// Decodes four words.
    pub fn decode(w: [u32; 4]) -> VtxInst {
        VtxInst {
            op: bits(w[0], 0, 5) as u8,
            fetch_type: bits(w[0], 5, 2) as u8,
            fetch_whole_quad: bit(w[0], 7),
            buffer_id: bits(w[0], 8, 8) as u8,
            src_gpr: bits(w[0], 16, 7) as u8,
            src_rel: bit(w[0], 23),
            src_sel_x: bits(w[0], 24, 2) as u8,
            mega_fetch_count: bits(w[0], 26, 6) as u8,
            dst: bits(w[1], 0, 8) as u8,
            reserved8: bit(w[1], 8),
            dst_sel: [
                bits(w[1], 9, 3) as u8,
                bits(w[1], 12, 3) as u8,
                bits(w[1], 15, 3) as u8,
                bits(w[1], 18, 3) as u8,
            ],
            use_const_fields: bit(w[1], 21),
            data_format: bits(w[1], 22, 6) as u8,
            num_format: bits(w[1], 28, 2) as u8,
            format_comp: bit(w[1], 30),
            srf_mode: bit(w[1], 31),
            offset: bits(w[2], 0, 16) as u16,
            endian_swap: bits(w[2], 16, 2) as u8,
            const_buf_no_stride: bit(w[2], 18),
            mega_fetch: bit(w[2], 19),
            alt_const: bit(w[2], 20),
            reserved2: bits(w[2], 21, 11) as u16,
            pad: w[3],
        }
    }
    /// Encodes to four words.
    pub fn encode(&self) -> [u32; 4] {
        let w0 = put(self.op as u32, 0, 5)
            | put(self.fetch_type as u32, 5, 2)
            | flag(self.fetch_whole_quad, 7)
            | put(self.buffer_id as u32, 8, 8)
            | put(self.src_gpr as u32, 16, 7)
            | flag(self.src_rel, 23)
            | put(self.src_sel_x as u32, 24, 2)
            | put(self.mega_fetch_count as u32, 26, 6);
        let mut w1 = put(self.dst as u32, 0, 8)
            | flag(self.reserved8, 8)
            | flag(self.use_const_fields, 21)
            | put(self.data_format as u32, 22, 6)
            | put(self.num_format as u32, 28, 2)
            | flag(self.format_comp, 30)
            | flag(self.srf_mode, 31);
        for i in 0..4 {
            w1 |= put(self.dst_sel[i] as u32, 9 + 3 * i as u32, 3);
        }
        let w2 = put(self.offset as u32, 0, 16)
            | put(self.endian_swap as u32, 16, 2)
            | flag(self.const_buf_no_stride, 18)
            | flag(self.mega_fetch, 19)
            | flag(self.alt_const, 20)
            | put(self.reserved2 as u32, 21, 11);
        [w0, w1, w2, self.pad]
    }
    /// Mnemonic in a VTX clause (`VTX_0x05` for codes without a name).
    pub fn name(&self) -> String {
        table::VTX_OPS
            .iter()
            .find(|o| o.0 == self.op)
            .map_or_else(|| format!("VTX_0x{:02X}", self.op), |o| o.1.to_string())
    }
}

impl FetchInst {
    /// Decodes a fetch in a TEX clause (`in_tex`: TEX_INST 0/1 use the VTX layout) or a VTX
    /// clause.
    pub fn decode(w: [u32; 4], in_tex: bool) -> FetchInst {
        if in_tex && bits(w[0], 0, 5) >= 2 {
            FetchInst::Tex(TexInst::decode(w))
        } else {
            FetchInst::Vtx(VtxInst::decode(w))
        }
    }
    /// Encodes to four words.
    pub fn encode(&self) -> [u32; 4] {
        match self {
            FetchInst::Tex(t) => t.encode(),
            FetchInst::Vtx(v) => v.encode(),
        }
    }
}

//! Fetch-clause instructions: TEX_WORD0-2 and VTX_WORD0-2, each followed by a padding word
//! (latte-semantics-facts.md §1.14, §1.15).

use super::fields::{word_layout, Field, Fields, Prop, Style};
use super::names::FETCH_TYPE;
use super::table;

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

word_layout! { TexInst = "tex" {
    op: w0[4:0] => (op),
    bc_frac_mode: w0[5:5] => (bc_frac_mode),
    reserved6: w0[6:6] => (reserved6),
    fetch_whole_quad: w0[7:7] => (fetch_whole_quad),
    resource_id: w0[15:8] => (resource_id),
    src_gpr: w0[22:16] => (src_gpr),
    src_rel: w0[23:23] => (src_rel),
    alt_const: w0[24:24] => (alt_const),
    reserved0: w0[31:25] => (reserved0),
    dst_gpr: w1[6:0] => (dst_gpr),
    dst_rel: w1[7:7] => (dst_rel),
    reserved8: w1[8:8] => (reserved8),
    dst_sel_x: w1[11:9] => (dst_sel[0]),
    dst_sel_y: w1[14:12] => (dst_sel[1]),
    dst_sel_z: w1[17:15] => (dst_sel[2]),
    dst_sel_w: w1[20:18] => (dst_sel[3]),
    lod_bias: w1[27:21] => (lod_bias),
    coord_type_x: w1[28:28] => (coord_type[0]),
    coord_type_y: w1[29:29] => (coord_type[1]),
    coord_type_z: w1[30:30] => (coord_type[2]),
    coord_type_w: w1[31:31] => (coord_type[3]),
    offset_x: w2[4:0] => (offset[0]),
    offset_y: w2[9:5] => (offset[1]),
    offset_z: w2[14:10] => (offset[2]),
    sampler_id: w2[19:15] => (sampler_id),
    src_sel_x: w2[22:20] => (src_sel[0]),
    src_sel_y: w2[25:23] => (src_sel[1]),
    src_sel_z: w2[28:26] => (src_sel[2]),
    src_sel_w: w2[31:29] => (src_sel[3]),
    pad: w3[31:0] => (pad),
} }

word_layout! { VtxInst = "vtx" {
    op: w0[4:0] => (op),
    fetch_type: w0[6:5] => (fetch_type),
    fetch_whole_quad: w0[7:7] => (fetch_whole_quad),
    buffer_id: w0[15:8] => (buffer_id),
    src_gpr: w0[22:16] => (src_gpr),
    src_rel: w0[23:23] => (src_rel),
    src_sel_x: w0[25:24] => (src_sel_x),
    mega_fetch_count: w0[31:26] => (mega_fetch_count),
    dst: w1[7:0] => (dst),
    reserved8: w1[8:8] => (reserved8),
    dst_sel_x: w1[11:9] => (dst_sel[0]),
    dst_sel_y: w1[14:12] => (dst_sel[1]),
    dst_sel_z: w1[17:15] => (dst_sel[2]),
    dst_sel_w: w1[20:18] => (dst_sel[3]),
    use_const_fields: w1[21:21] => (use_const_fields),
    data_format: w1[27:22] => (data_format),
    num_format: w1[29:28] => (num_format),
    format_comp: w1[30:30] => (format_comp),
    srf_mode: w1[31:31] => (srf_mode),
    offset: w2[15:0] => (offset),
    endian_swap: w2[17:16] => (endian_swap),
    const_buf_no_stride: w2[18:18] => (const_buf_no_stride),
    mega_fetch: w2[19:19] => (mega_fetch),
    alt_const: w2[20:20] => (alt_const),
    reserved2: w2[31:21] => (reserved2),
    pad: w3[31:0] => (pad),
} }

/// Flag and padding properties of a TEX line (after DENORM, LOD and the offsets), in print order.
pub static TEX_PROPS: &[Prop] = &[
    Prop::flag("BC_FRAC_MODE", "bc_frac_mode"),
    Prop::flag("WHOLE_QUAD_MODE", "fetch_whole_quad"),
    Prop::flag("ALT_CONST", "alt_const"),
    PAD,
];

/// The padding word after the three instruction words, when it is not zero (0x0DEADFEC in
/// files of several toolchains).
const PAD: Prop = Prop::num("PAD", "pad").styled(Style::Hex).called("padding word");

/// Properties of a VTX line, in print order.
pub static VTX_PROPS: &[Prop] = &[
    Prop::num("FETCH_TYPE", "fetch_type").styled(Style::Named(&FETCH_TYPE)).called("fetch type"),
    Prop::num("MFC", "mega_fetch_count"),
    Prop::num("OFFSET", "offset").called("offset"),
    Prop::num("FMT", "data_format").styled(Style::NumAlways).called("data format"),
    Prop::num("NUM", "num_format").styled(Style::NumAlways).called("number format"),
    Prop::flag("SIGNED", "format_comp"),
    Prop::flag("SRF_NO_ZERO", "srf_mode"),
    Prop::flag("UCF", "use_const_fields"),
    Prop::num("ENDIAN", "endian_swap").called("endian swap"),
    Prop::flag("CBNS", "const_buf_no_stride"),
    Prop::flag("MEGA_FETCH", "mega_fetch"),
    Prop::flag("ALT_CONST", "alt_const"),
    Prop::flag("WHOLE_QUAD_MODE", "fetch_whole_quad"),
    PAD,
];

fn unpacked<T: Fields + Default>(w: &[u32; 4]) -> T {
    let mut t = T::default();
    t.unpack(w);
    t
}

fn packed<T: Fields>(t: &T) -> [u32; 4] {
    let mut w = [0u32; 4];
    t.pack(&mut w);
    w
}

impl TexInst {
    /// Decodes four words.
    pub fn decode(w: [u32; 4]) -> TexInst {
        unpacked(&w)
    }
    /// Encodes to four words.
    pub fn encode(&self) -> [u32; 4] {
        packed(self)
    }
    /// Mnemonic.
    pub fn name(&self) -> &'static str {
        table::TEX_OPS[self.op as usize & 31].1
    }
}

impl VtxInst {
    /// Decodes four words.
    pub fn decode(w: [u32; 4]) -> VtxInst {
        unpacked(&w)
    }
    /// Encodes to four words.
    pub fn encode(&self) -> [u32; 4] {
        packed(self)
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
        if in_tex && TEX_INST.get(&w) >= 2 {
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

/// TEX_INST / VTX_INST (word 0 bits 4:0), read before the layout is known.
const TEX_INST: Field = Field { name: "inst", word: 0, hi: 4, lo: 0, shift: 0 };

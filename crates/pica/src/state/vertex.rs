//! The attribute buffer and index buffer configuration (GPUREG_ATTRIBBUFFERS_LOC through
//! GPUREG_INDEXBUFFER_CONFIG, 0x200-0x227) decoded from a register file.

use crate::regs::layouts::{
    AttribFormatHigh, AttribFormatLow, AttribType, BufferComponent, BufferConfig1, BufferConfig2, IndexType,
};

/// One of the 12 vertex attributes' format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttributeFormat {
    pub kind: AttribType,
    /// The two-bit size field; the component count is `size + 1` (as Citra reads it).
    pub size: u32,
    /// Whether the attribute comes from the default (fixed) attributes instead of a buffer.
    pub fixed: bool,
}

impl AttributeFormat {
    pub fn components(&self) -> u32 {
        self.size + 1
    }
}

/// One of the 12 attribute buffers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttributeBuffer {
    /// Offset from the base address.
    pub offset: u32,
    /// The buffer's components in order (attributes or padding), `count` of them.
    pub components: Vec<BufferComponent>,
    /// Bytes per vertex.
    pub stride: u32,
}

/// The whole vertex input configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexConfig {
    /// Physical base address of the vertex arrays (GPUREG_ATTRIBBUFFERS_LOC bits 1-28, times 16).
    pub base_address: u32,
    pub attributes: [AttributeFormat; 12],
    /// Number of attributes (GPUREG_ATTRIBBUFFERS_FORMAT_HIGH bits 28-31, plus one).
    pub attribute_count: u32,
    pub buffers: Vec<AttributeBuffer>,
    /// Offset of the index buffer from the base address.
    pub index_offset: u32,
    pub index_type: IndexType,
}

impl VertexConfig {
    /// Decodes from a register file of at least 0x228 registers.
    pub fn from_regs(regs: &[u32]) -> VertexConfig {
        let reg = |id: usize| regs.get(id).copied().unwrap_or(0);
        let low = AttribFormatLow::decode(reg(0x201));
        let high = AttribFormatHigh::decode(reg(0x202));
        let types = [
            low.type0,
            low.type1,
            low.type2,
            low.type3,
            low.type4,
            low.type5,
            low.type6,
            low.type7,
            high.type8,
            high.type9,
            high.type10,
            high.type11,
        ];
        let sizes = [
            low.size0,
            low.size1,
            low.size2,
            low.size3,
            low.size4,
            low.size5,
            low.size6,
            low.size7,
            high.size8,
            high.size9,
            high.size10,
            high.size11,
        ];
        let attributes = std::array::from_fn(|i| AttributeFormat {
            kind: types[i],
            size: sizes[i],
            fixed: high.fixed_mask.0 >> i & 1 != 0,
        });
        let buffers = (0..12)
            .map(|i| {
                let c1 = BufferConfig1::decode(reg(0x204 + 3 * i));
                let c2 = BufferConfig2::decode(reg(0x205 + 3 * i));
                let all = [
                    c1.comp0, c1.comp1, c1.comp2, c1.comp3, c1.comp4, c1.comp5, c1.comp6, c1.comp7, c2.comp8, c2.comp9,
                    c2.comp10, c2.comp11,
                ];
                let count = (c2.count as usize).min(12);
                AttributeBuffer {
                    offset: reg(0x203 + 3 * i) & 0x0FFF_FFFF,
                    components: all[..count].to_vec(),
                    stride: c2.stride,
                }
            })
            .collect();
        let index = reg(0x227);
        VertexConfig {
            base_address: ((reg(0x200) >> 1) & 0x0FFF_FFFF) * 16,
            attributes,
            attribute_count: high.count_minus_1 + 1,
            buffers,
            index_offset: index & 0x0FFF_FFFF,
            index_type: IndexType::from_raw(index >> 31),
        }
    }
}

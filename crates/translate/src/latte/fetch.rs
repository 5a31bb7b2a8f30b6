//! The fetch buffers of the compute form (docs/abi.md "Latte"): what VTX fetches read, as two
//! storage buffers of `u32` words in bind group [`FETCH_GROUP`], and the host's packing of
//! `latte::interp::Inputs` into them.
//!
//! Binding 0, the table ([`FETCH_TABLE_WORDS`] words): SQ_VTX_SEMANTIC_k at word k (k 0-126;
//! [`NO_SEMANTIC`] where unused, and at word 127), then four words per BUFFER_ID 0-255 at
//! [`FETCH_BUFFERS`] + 4·id: the first data word, the length in bytes, the stride, and the
//! resource word (bit 31 present, bit 30 has a format, DATA_FORMAT in 7:0, NUM_FORMAT in 15:8,
//! signed in 16, SRF_MODE in 17: [`format_word`]). Binding 1: every buffer's bytes, little-endian
//! words, each buffer starting on a word.
//!
//! A BUFFER_ID the host gives no buffer for reads uniform block id - 0x80 for ids 0x80-0x8F
//! (stride 16, no format), as `latte::interp`'s fetch does (latte-semantics-facts.md §4.4).

use ::latte::interp::Inputs;

/// A resource format: DATA_FORMAT, NUM_FORMAT, signed, SRF_MODE (`latte::interp::Buffer`).
type Format = (u8, u8, bool, bool);

/// Bind group of the fetch table and data.
pub const FETCH_GROUP: u32 = 3;
/// Binding of the fetch table (in [`FETCH_GROUP`]).
pub const FETCH_TABLE_BINDING: u32 = 0;
/// Binding of the fetch data words (in [`FETCH_GROUP`]).
pub const FETCH_DATA_BINDING: u32 = 1;
/// Table word of buffer id 0's four words.
pub const FETCH_BUFFERS: u32 = 128;
/// Words of the table.
pub const FETCH_TABLE_WORDS: u32 = FETCH_BUFFERS + 256 * 4;
/// A semantic table entry that matches no SEMANTIC_ID (ids are 8 bits).
pub const NO_SEMANTIC: u32 = 0x100;
/// Resource word bit: the buffer exists.
pub(crate) const RES_PRESENT: u32 = 1 << 31;
/// Resource word bit: the buffer has a format (for USE_CONST_FIELDS).
pub(crate) const RES_HAS_FORMAT: u32 = 1 << 30;

/// DATA_FORMAT, NUM_FORMAT, signed and SRF_MODE in one word (7:0, 15:8, 16, 17): the layout
/// of the table's resource word and of the translation's static fetch formats.
pub fn format_word(fmt: u8, num: u8, signed: bool, srf: bool) -> u32 {
    fmt as u32 | (num as u32) << 8 | (signed as u32) << 16 | (srf as u32) << 17
}

/// The two fetch buffers for one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FetchData {
    /// Binding 0: [`FETCH_TABLE_WORDS`] words.
    pub table: Vec<u32>,
    /// Binding 1: the buffers' words (at least one word).
    pub data: Vec<u32>,
}

impl FetchData {
    /// Packs the host buffers, the uniform blocks behind BUFFER_IDs 0x80-0x8F and
    /// SQ_VTX_SEMANTIC of `inputs`.
    pub fn from_inputs(inputs: &Inputs) -> FetchData {
        let mut table = vec![0u32; FETCH_TABLE_WORDS as usize];
        // The interpreter routes SEMANTIC_ID s to GPR k + 1 for the first k with
        // vtx_semantic[k] == s, and only while k + 1 < 128: entries from 127 on never match.
        for (k, w) in table.iter_mut().take(128).enumerate() {
            *w = match inputs.vtx_semantic.get(k) {
                Some(&s) if k < 127 => s as u32,
                _ => NO_SEMANTIC,
            };
        }
        let mut data = Vec::new();
        for id in 0..=255u8 {
            let (bytes, stride, format): (Vec<u8>, u32, Option<Format>) = if let Some(b) = inputs.buffers.get(&id) {
                (b.data.clone(), b.stride, b.format)
            } else if let Some(w) =
                (0x80..=0x8F).contains(&id).then(|| inputs.uniform_blocks.get(&(id - 0x80))).flatten()
            {
                (w.iter().flat_map(|x| x.to_le_bytes()).collect(), 16, None)
            } else {
                continue;
            };
            let t = (FETCH_BUFFERS + id as u32 * 4) as usize;
            table[t] = data.len() as u32;
            table[t + 1] = bytes.len() as u32;
            table[t + 2] = stride;
            table[t + 3] = RES_PRESENT | format.map_or(0, |(f, n, s, r)| RES_HAS_FORMAT | format_word(f, n, s, r));
            data.extend(bytes.chunks(4).map(|c| c.iter().rev().fold(0u32, |w, &b| w << 8 | b as u32)));
        }
        if data.is_empty() {
            data.push(0);
        }
        FetchData { table, data }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::latte::interp::Buffer;

    #[test]
    fn packs_buffers_blocks_and_semantics() {
        let mut i = Inputs::default();
        i.buffers.insert(1, Buffer { data: vec![1, 2, 3, 4, 5], stride: 8, format: Some((26, 0, true, false)) });
        i.uniform_blocks.insert(2, vec![0xAABB_CCDD]);
        i.vtx_semantic = vec![7, 9];
        let f = FetchData::from_inputs(&i);
        assert_eq!(&f.table[..3], &[7, 9, NO_SEMANTIC]);
        let b1 = (FETCH_BUFFERS + 4) as usize;
        assert_eq!(&f.table[b1..b1 + 4], &[0, 5, 8, RES_PRESENT | RES_HAS_FORMAT | format_word(26, 0, true, false)]);
        let b2 = (FETCH_BUFFERS + 0x82 * 4) as usize;
        assert_eq!(&f.table[b2..b2 + 4], &[2, 4, 16, RES_PRESENT]);
        assert_eq!(f.data, vec![0x0403_0201, 5, 0xAABB_CCDD]);
        assert_eq!(f.table[(FETCH_BUFFERS + 0x83 * 4 + 3) as usize], 0);
    }
}

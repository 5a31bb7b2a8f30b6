//! ETC1 blocks as the PICA200 stores them, and their decoder.
//!
//! The block format is Khronos OES_compressed_ETC1_RGB8_texture: a 64-bit word whose bits 63-32
//! hold the two base colours (individual mode: two 4-bit RGB colours; differential mode: a 5-bit
//! colour and a 3-bit signed delta), the two intensity-table indices (39-37, 36-34), the `diff`
//! bit (33) and the `flip` bit (32); bits 31-16 are the most significant and 15-0 the least
//! significant bits of the 16 texels' 2-bit modifier indices, texel (x, y) at bit x * 4 + y.
//!
//! On the 3DS the word is stored little-endian (the standard's byte order reversed), an 8x8 tile
//! holds four blocks in the order top-left, top-right, bottom-left, bottom-right, and ETC1A4
//! puts 64 bits of alpha (4 bits per texel, texel (x, y) at bit 4 * (x * 4 + y), little-endian)
//! before each block (Citra video_core/texture/texture_decode.cpp and etc1.cpp; the 3DS
//! programming manual, "Description of the ETC1 Compressed Texture Format": alpha before colour).

use super::packed::expand;
use super::Image;

/// The modifier tables of the ETC1 specification: `[a, b]` of each row (the four modifiers
/// are a, b, -a, -b).
pub const TABLES: [[i32; 2]; 8] = [[2, 8], [5, 17], [9, 29], [13, 42], [18, 60], [24, 80], [33, 106], [47, 183]];

/// The modifier of table row `table` for the 2-bit index `(msb << 1) | lsb`: 00 -> +a, 01 -> +b,
/// 10 -> -a, 11 -> -b (specification, "pixel index value" table).
pub const fn modifier(table: usize, index: usize) -> i32 {
    let [a, b] = TABLES[table];
    match index {
        0 => a,
        1 => b,
        2 => -a,
        _ => -b,
    }
}

/// Bytes of one block in a tile: 8, or 16 with the alpha half.
pub const fn block_bytes(alpha: bool) -> usize {
    if alpha {
        16
    } else {
        8
    }
}

/// The two base colours (expanded to 8 bits) of a block word.
pub fn base_colors(word: u64) -> [[u8; 3]; 2] {
    let hi = (word >> 32) as u32;
    if hi & 2 != 0 {
        let mut out = [[0; 3]; 2];
        for (c, shift) in [27u32, 19, 11].into_iter().enumerate() {
            let base = (hi >> shift) & 0x1F;
            let delta = (((hi >> (shift - 3)) & 7) as i32) << 29 >> 29;
            // A sum outside 0..31 is not a valid ETC1 block (ETC2 uses those patterns for its
            // other modes); the 5-bit adder wraps, a choice recorded in docs/pica-texture.md.
            let second = ((base as i32 + delta) & 0x1F) as u32;
            out[0][c] = expand(base, 5);
            out[1][c] = expand(second, 5);
        }
        out
    } else {
        let mut out = [[0; 3]; 2];
        for (c, shift) in [28u32, 20, 12].into_iter().enumerate() {
            out[0][c] = expand((hi >> shift) & 0xF, 4);
            out[1][c] = expand((hi >> (shift - 4)) & 0xF, 4);
        }
        out
    }
}

/// Decodes one block word to 16 RGB texels, indexed `y * 4 + x`.
///
/// ```
/// // Individual mode, both base colours (0x8, 0x8, 0x8) -> 136, table 0, every index 00 (+2).
/// let word = 0x8888_8800_0000_0000u64;
/// assert!(pica::texture::etc1::decode_block(word).iter().all(|&t| t == [138, 138, 138]));
/// ```
pub fn decode_block(word: u64) -> [[u8; 3]; 16] {
    let bases = base_colors(word);
    let hi = (word >> 32) as u32;
    let tables = [((hi >> 5) & 7) as usize, ((hi >> 2) & 7) as usize];
    let flip = hi & 1 != 0;
    // The four colours of each half, clamped once.
    let colors: [[[u8; 3]; 4]; 2] = [0, 1]
        .map(|h| [0, 1, 2, 3].map(|i| bases[h].map(|c| (i32::from(c) + modifier(tables[h], i)).clamp(0, 255) as u8)));
    let mut out = [[0; 3]; 16];
    for y in 0..4 {
        for x in 0..4 {
            let k = x * 4 + y;
            let index = ((((word >> (16 + k)) & 1) << 1) | ((word >> k) & 1)) as usize;
            let half = usize::from(if flip { y >= 2 } else { x >= 2 });
            out[y * 4 + x] = colors[half][index];
        }
    }
    out
}

/// The 16 alpha values (expanded to 8 bits) of an ETC1A4 alpha word, indexed `y * 4 + x`.
pub fn decode_alpha(word: u64) -> [u8; 16] {
    let mut out = [0; 16];
    for y in 0..4 {
        for x in 0..4 {
            out[y * 4 + x] = expand(((word >> (4 * (x * 4 + y))) & 0xF) as u32, 4);
        }
    }
    out
}

/// Top-left texel of block `b` (0..4) inside its tile.
pub const fn block_origin(b: usize) -> (u32, u32) {
    ((b as u32 & 1) * 4, (b as u32 >> 1) * 4)
}

fn word_at(bytes: &[u8]) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(w)
}

/// Decodes one 8x8 tile whose top-left texel is (x0, y0) into `image`.
pub(super) fn decode_tile(tile: &[u8], alpha: bool, image: &mut Image, x0: u32, y0: u32) {
    let size = block_bytes(alpha);
    let width = image.width as usize;
    for b in 0..4 {
        let block = &tile[b * size..(b + 1) * size];
        let (alphas, color) = if alpha { (decode_alpha(word_at(block)), &block[8..]) } else { ([255; 16], block) };
        let texels = decode_block(word_at(color));
        let (bx, by) = block_origin(b);
        for y in 0..4 {
            let row = (y0 + by) as usize + y;
            for x in 0..4 {
                let at = (row * width + (x0 + bx) as usize + x) * 4;
                let [r, g, bl] = texels[y * 4 + x];
                image.pixels[at..at + 4].copy_from_slice(&[r, g, bl, alphas[y * 4 + x]]);
            }
        }
    }
}

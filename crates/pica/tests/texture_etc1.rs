//! ETC1 and ETC1A4: decoding checked against blocks built by hand from the bit layout of the
//! ETC1 specification (Khronos OES_compressed_ETC1_RGB8_texture), whose texels are worked out
//! here from the specification's rules and tables: individual and differential mode, both
//! flips, all eight intensity tables, clamping; the 3DS byte and block order inside a tile; the
//! ETC1A4 alpha half; and the encoder's quality.

use pica::regs::layouts::TextureFormat;
use pica::texture::etc1::decode_block;
use pica::texture::etc1_encode::{encode_block, Quality};
use pica::texture::{decode, encode, encode_with, psnr_rgb, Image};

/// The modifier-index bits of a block (the word's low 32 bits): texel (x, y) is pixel number
/// k = x * 4 + y; its index's MSB is bit 16 + k and its LSB bit k (specification, "Texel
/// mapping"). Index 0 -> +a, 1 -> +b, 2 -> -a, 3 -> -b.
fn index_bits(index: impl Fn(u64, u64) -> u64) -> u64 {
    let mut lo = 0;
    for x in 0..4 {
        for y in 0..4 {
            let (k, i) = (x * 4 + y, index(x, y));
            lo |= (i >> 1) << (16 + k) | (i & 1) << k;
        }
    }
    lo
}

/// Individual mode: R1 63-60, R2 59-56, G1 55-52, G2 51-48, B1 47-44, B2 43-40, table 1 39-37,
/// table 2 36-34, diff 33 = 0, flip 32.
fn individual(c1: [u64; 3], c2: [u64; 3], tables: [u64; 2], flip: bool, index: impl Fn(u64, u64) -> u64) -> u64 {
    c1[0] << 60
        | c2[0] << 56
        | c1[1] << 52
        | c2[1] << 48
        | c1[2] << 44
        | c2[2] << 40
        | tables[0] << 37
        | tables[1] << 34
        | u64::from(flip) << 32
        | index_bits(index)
}

/// Differential mode: R 63-59, dR 58-56, G 55-51, dG 50-48, B 47-43, dB 42-40 (deltas
/// three-bit two's complement), diff 33 = 1.
fn differential(c1: [u64; 3], delta: [i64; 3], tables: [u64; 2], flip: bool, index: impl Fn(u64, u64) -> u64) -> u64 {
    let d = delta.map(|v| (v as u64) & 7);
    c1[0] << 59
        | d[0] << 56
        | c1[1] << 51
        | d[1] << 48
        | c1[2] << 43
        | d[2] << 40
        | tables[0] << 37
        | tables[1] << 34
        | 1 << 33
        | u64::from(flip) << 32
        | index_bits(index)
}

/// Expected texels, given row by row (y), four per row (x).
fn rows(r: [[[u8; 3]; 4]; 4]) -> [[u8; 3]; 16] {
    let mut out = [[0; 3]; 16];
    for y in 0..4 {
        for x in 0..4 {
            out[y * 4 + x] = r[y][x];
        }
    }
    out
}

/// Block A: individual, flip 0 (left/right halves); base 1 (A, 5, 3) -> 4-bit values times 17
/// = (170, 85, 51), base 2 (2, C, F) -> (34, 204, 255); tables 0 (+-2, +-8) and 1 (+-5, +-17);
/// index = y, so row 0 adds a, row 1 b, row 2 -a, row 3 -b. 255 + 5 clamps to 255.
fn block_a() -> (u64, [[u8; 3]; 16]) {
    let word = individual([0xA, 0x5, 0x3], [0x2, 0xC, 0xF], [0, 1], false, |_, y| y);
    let l = |d: i32| [170 + d, 85 + d, 51 + d].map(|v| v as u8);
    let expected = rows([
        [l(2), l(2), [39, 209, 255], [39, 209, 255]],
        [l(8), l(8), [51, 221, 255], [51, 221, 255]],
        [l(-2), l(-2), [29, 199, 250], [29, 199, 250]],
        [l(-8), l(-8), [17, 187, 238], [17, 187, 238]],
    ]);
    (word, expected)
}

/// Block B: individual, flip 1 (top/bottom halves); base 1 (0, 7, F) -> (0, 119, 255), base 2
/// (F, 1, 8) -> (255, 17, 136); tables 2 (+-9, +-29) and 3 (+-13, +-42); index = x.
fn block_b() -> (u64, [[u8; 3]; 16]) {
    let word = individual([0x0, 0x7, 0xF], [0xF, 0x1, 0x8], [2, 3], true, |x, _| x);
    let top = [[9, 128, 255], [29, 148, 255], [0, 110, 246], [0, 90, 226]];
    let bottom = [[255, 30, 149], [255, 59, 178], [242, 4, 123], [213, 0, 94]];
    (word, rows([top, top, bottom, bottom]))
}

/// Block C: differential, flip 0; base 1 (20, 10, 28) in 5 bits -> (x << 3 | x >> 2) = (165,
/// 82, 231); delta (+3, -4, -1) -> base 2 (23, 6, 27) -> (189, 49, 222); tables 4 (+-18, +-60)
/// and 5 (+-24, +-80); index = (x + y) mod 4.
fn block_c() -> (u64, [[u8; 3]; 16]) {
    let word = differential([20, 10, 28], [3, -4, -1], [4, 5], false, |x, y| (x + y) % 4);
    let (p18, p60, m18, m60) = ([183, 100, 249], [225, 142, 255], [147, 64, 213], [105, 22, 171]);
    let (p24, p80, m24, m80) = ([213, 73, 246], [255, 129, 255], [165, 25, 198], [109, 0, 142]);
    let expected = rows([[p18, p60, m24, m80], [p60, m18, m80, p24], [m18, m60, p24, p80], [m60, p18, p80, m24]]);
    (word, expected)
}

/// Block D: differential, flip 1; base 1 (4, 31, 16) -> (33, 255, 132); delta (-4, 0, +3) ->
/// base 2 (0, 31, 19) -> (0, 255, 156); tables 6 (+-33, +-106) and 7 (+-47, +-183); index = x.
fn block_d() -> (u64, [[u8; 3]; 16]) {
    let word = differential([4, 31, 16], [-4, 0, 3], [6, 7], true, |x, _| x);
    let top = [[66, 255, 165], [139, 255, 238], [0, 222, 99], [0, 149, 26]];
    let bottom = [[47, 255, 203], [183, 255, 255], [0, 208, 109], [0, 72, 0]];
    (word, rows([top, top, bottom, bottom]))
}

#[test]
fn individual_mode_flip_0_tables_0_and_1() {
    let (word, expected) = block_a();
    assert_eq!(decode_block(word), expected);
}

#[test]
fn individual_mode_flip_1_tables_2_and_3() {
    let (word, expected) = block_b();
    assert_eq!(decode_block(word), expected);
}

#[test]
fn differential_mode_flip_0_tables_4_and_5() {
    let (word, expected) = block_c();
    assert_eq!(decode_block(word), expected);
}

#[test]
fn differential_mode_flip_1_tables_6_and_7() {
    let (word, expected) = block_d();
    assert_eq!(decode_block(word), expected);
}

/// An 8x8 ETC1 tile as the 3DS stores it: blocks top-left, top-right, bottom-left,
/// bottom-right, each word little-endian (so the specification's first byte, bits 63-56, is the
/// block's last byte in memory).
fn tile(words: [u64; 4], alpha: Option<[u64; 4]>) -> Vec<u8> {
    let mut out = Vec::new();
    for (b, w) in words.iter().enumerate() {
        if let Some(a) = alpha {
            out.extend_from_slice(&a[b].to_le_bytes());
        }
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

fn blocks() -> [(u64, [[u8; 3]; 16]); 4] {
    [block_a(), block_b(), block_c(), block_d()]
}

#[test]
fn etc1_tile_order_and_byte_order_on_the_3ds() {
    let b = blocks();
    let bytes = tile(b.map(|(w, _)| w), None);
    assert_eq!(bytes[7], 0xA2, "block A's R1 R2 byte is the last of its 8 bytes");
    let image = decode(TextureFormat::Etc1, 8, 8, &bytes).unwrap();
    for (n, (_, expected)) in b.iter().enumerate() {
        let (bx, by) = ((n as u32 % 2) * 4, (n as u32 / 2) * 4);
        for y in 0..4 {
            for x in 0..4 {
                let [r, g, bl] = expected[(y * 4 + x) as usize];
                assert_eq!(image.pixel(bx + x, by + y), [r, g, bl, 255], "block {n} texel ({x}, {y})");
            }
        }
    }
}

#[test]
fn etc1a4_alpha_half_precedes_each_block_column_major() {
    // Alpha nibble of pixel k = x * 4 + y is bits 4k..4k+3 of a little-endian word; give
    // pixel k the value 15 - k, so (x, y) has alpha (15 - (4x + y)) * 17.
    let alpha_word: u64 = (0..16u64).map(|k| (15 - k) << (4 * k)).sum();
    let b = blocks();
    let bytes = tile(b.map(|(w, _)| w), Some([alpha_word, 0, u64::MAX, alpha_word]));
    assert_eq!(bytes.len(), 64);
    let image = decode(TextureFormat::Etc1a4, 8, 8, &bytes).unwrap();
    for y in 0..4 {
        for x in 0..4 {
            let a = ((15 - (4 * x + y)) * 17) as u8;
            assert_eq!(image.pixel(x, y)[3], a, "({x}, {y})");
            assert_eq!(image.pixel(4 + x, y)[3], 0);
            assert_eq!(image.pixel(x, 4 + y)[3], 255);
            assert_eq!(image.pixel(4 + x, 4 + y)[3], a);
            let [r, g, bl] = b[2].1[(y * 4 + x) as usize];
            assert_eq!(&image.pixel(x, 4 + y)[..3], &[r, g, bl]);
        }
    }
}

#[test]
fn encoder_recovers_each_known_block_exactly() {
    // Every hand-built block is representable, so the search must find an exact encoding.
    for (n, (_, texels)) in blocks().iter().enumerate() {
        let word = encode_block(texels, Quality::High);
        assert_eq!(decode_block(word), *texels, "block {n}");
    }
}

#[test]
fn encoder_keeps_alpha_to_4_bits() {
    let mut image = Image::new(8, 8);
    for (i, px) in image.pixels.chunks_exact_mut(4).enumerate() {
        px.copy_from_slice(&[200, 100, 50, (i * 4) as u8]);
    }
    let decoded = decode(TextureFormat::Etc1a4, 8, 8, &encode(TextureFormat::Etc1a4, &image).unwrap()).unwrap();
    for (p, q) in image.pixels.chunks_exact(4).zip(decoded.pixels.chunks_exact(4)) {
        assert!((i32::from(p[3]) - i32::from(q[3])).abs() <= 8, "alpha {} -> {}", p[3], q[3]);
    }
}

#[path = "../benches/texture_images.rs"]
mod images;

#[test]
fn encoder_quality_beats_the_fast_search_and_a_floor_on_the_three_pictures() {
    // Floors about 1 dB under the figures measured when the encoder was written (64x64: 37.4,
    // 33.7 and 31.2 dB; BENCHMARKS.md "PICA200 textures" has the 128x128 figures).
    for ((name, image), floor) in images::all(64).into_iter().zip([36.5, 32.5, 30.0]) {
        let psnr = |q| {
            let bytes = encode_with(TextureFormat::Etc1, &image, q).unwrap();
            psnr_rgb(&image, &decode(TextureFormat::Etc1, 64, 64, &bytes).unwrap()).unwrap()
        };
        let (high, fast) = (psnr(Quality::High), psnr(Quality::Fast));
        assert!(high >= fast, "{name}: high {high:.2} dB < fast {fast:.2} dB");
        assert!(high > floor, "{name}: {high:.2} dB, floor {floor} dB");
    }
}

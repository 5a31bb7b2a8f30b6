//! Tiles of the packed formats (every format but ETC1 and ETC1A4): one texel integer per Morton
//! index, its channels at the bit ranges of the format table.

use super::formats::{Channel, ChannelBits};
use super::morton::COORDS;
use super::Image;

/// `bits`-bit value -> 8 bits by repeating its bits (1 -> 0 or 255, 4 -> x * 17, 5 -> x << 3 |
/// x >> 2, 6 -> x << 2 | x >> 4), as Citra's Convert*To8.
pub const fn expand(value: u32, bits: u32) -> u8 {
    if bits >= 8 {
        return value as u8;
    }
    let mut out = 0u32;
    let mut filled = 0;
    while filled < 8 {
        out = (out << bits) | value;
        filled += bits;
    }
    (out >> (filled - 8)) as u8
}

/// 8 bits -> `bits` bits, rounded to the nearest representable level, so that
/// `quantize(expand(q, n), n) == q` for every `q`.
pub const fn quantize(value: u8, bits: u32) -> u32 {
    if bits >= 8 {
        return value as u32;
    }
    let max = (1u32 << bits) - 1;
    (value as u32 * max + 127) / 255
}

/// The intensity the I and IA formats store for an RGB colour: integer Rec. 601 luma, whose
/// weights sum to 256 so that grey (v, v, v) gives v back exactly.
pub const fn intensity(rgb: [u8; 3]) -> u8 {
    ((77 * rgb[0] as u32 + 150 * rgb[1] as u32 + 29 * rgb[2] as u32 + 128) >> 8) as u8
}

fn rgba_to_texel(px: [u8; 4], channels: &[ChannelBits]) -> u32 {
    let mut v = 0;
    for c in channels {
        let x = match c.channel {
            Channel::Red => px[0],
            Channel::Green => px[1],
            Channel::Blue => px[2],
            Channel::Alpha => px[3],
            Channel::Intensity => intensity([px[0], px[1], px[2]]),
        };
        v |= quantize(x, c.width()) << c.lo;
    }
    v
}

/// Reads texel `i` of a tile.
#[inline(always)]
fn read(tile: &[u8], i: usize, bits_per_texel: u32) -> u32 {
    match bits_per_texel {
        4 => u32::from(tile[i / 2] >> ((i & 1) * 4)) & 0xF,
        8 => u32::from(tile[i]),
        16 => u32::from(u16::from_le_bytes([tile[2 * i], tile[2 * i + 1]])),
        24 => u32::from_le_bytes([tile[3 * i], tile[3 * i + 1], tile[3 * i + 2], 0]),
        _ => u32::from_le_bytes([tile[4 * i], tile[4 * i + 1], tile[4 * i + 2], tile[4 * i + 3]]),
    }
}

/// Writes texel `i` of a tile (the nibble's other half is kept).
fn write(tile: &mut [u8], i: usize, bits_per_texel: u32, v: u32) {
    match bits_per_texel {
        4 => {
            let shift = (i & 1) * 4;
            tile[i / 2] = (tile[i / 2] & !(0xF << shift)) | (((v & 0xF) as u8) << shift);
        }
        8 => tile[i] = v as u8,
        16 => tile[2 * i..2 * i + 2].copy_from_slice(&(v as u16).to_le_bytes()),
        24 => tile[3 * i..3 * i + 3].copy_from_slice(&v.to_le_bytes()[..3]),
        _ => tile[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes()),
    }
}

/// A packed format's decoder, built once per texture from its table row: for each output
/// channel R, G, B, A the shift and mask of its bits and a table from those bits to 8 bits (an
/// absent channel has mask 0 and its constant in entry 0), so a texel costs four look-ups and
/// no branches.
pub(super) struct Decoder {
    bpp: u32,
    shift: [u32; 4],
    mask: [u32; 4],
    lut: [[u8; 256]; 4],
}

impl Decoder {
    pub(super) fn new(bpp: u32, channels: &[ChannelBits]) -> Decoder {
        let mut d = Decoder { bpp, shift: [0; 4], mask: [0; 4], lut: [[0; 256]; 4] };
        d.lut[3][0] = 255;
        for c in channels {
            let outputs: &[usize] = match c.channel {
                Channel::Red => &[0],
                Channel::Green => &[1],
                Channel::Blue => &[2],
                Channel::Alpha => &[3],
                Channel::Intensity => &[0, 1, 2],
            };
            for &k in outputs {
                d.shift[k] = u32::from(c.lo);
                d.mask[k] = (1 << c.width()) - 1;
                for v in 0..=d.mask[k] {
                    d.lut[k][v as usize] = expand(v, c.width());
                }
            }
        }
        d
    }

    /// Decodes one tile whose top-left texel is (x0, y0) into `image`.
    pub(super) fn tile(&self, tile: &[u8], image: &mut Image, x0: u32, y0: u32) {
        // One copy of the loop per texel size, so that reading a texel is not a branch.
        match self.bpp {
            4 => self.tile_with::<4>(tile, image, x0, y0),
            8 => self.tile_with::<8>(tile, image, x0, y0),
            16 => self.tile_with::<16>(tile, image, x0, y0),
            24 => self.tile_with::<24>(tile, image, x0, y0),
            _ => self.tile_with::<32>(tile, image, x0, y0),
        }
    }

    fn tile_with<const BPP: u32>(&self, tile: &[u8], image: &mut Image, x0: u32, y0: u32) {
        let width = image.width as usize;
        for (y, indices) in INDEX.iter().enumerate() {
            let start = ((y0 as usize + y) * width + x0 as usize) * 4;
            let row = &mut image.pixels[start..start + 32];
            for (out, &i) in row.chunks_exact_mut(4).zip(indices) {
                let v = read(tile, i as usize, BPP);
                let px = [0, 1, 2, 3].map(|k| self.lut[k][((v >> self.shift[k]) & self.mask[k]) as usize]);
                out.copy_from_slice(&px);
            }
        }
    }
}

/// Morton index of texel (x, y) of a tile, as `INDEX[y][x]`.
const INDEX: [[u8; 8]; 8] = {
    let mut t = [[0u8; 8]; 8];
    let mut y = 0;
    while y < 8 {
        let mut x = 0;
        while x < 8 {
            t[y][x] = super::morton::index(x as u32, y as u32) as u8;
            x += 1;
        }
        y += 1;
    }
    t
};

/// Encodes the tile of `image` whose top-left texel is (x0, y0).
pub(super) fn encode_tile(image: &Image, x0: u32, y0: u32, bpp: u32, channels: &[ChannelBits], tile: &mut [u8]) {
    for (i, &(x, y)) in COORDS.iter().enumerate() {
        let px = image.pixel(x0 + u32::from(x), y0 + u32::from(y));
        write(tile, i, bpp, rgba_to_texel(px, channels));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantize_inverts_expand_for_every_width_and_level() {
        for bits in 1..=8 {
            for q in 0..(1u32 << bits) {
                assert_eq!(quantize(expand(q, bits), bits), q, "{bits} bits, level {q}");
            }
        }
    }

    #[test]
    fn expand_replicates_bits_as_the_common_converters() {
        // Convert5To8(x) = x << 3 | x >> 2, Convert6To8(x) = x << 2 | x >> 4, Convert4To8 = x * 17.
        for x in 0..32 {
            assert_eq!(u32::from(expand(x, 5)), (x << 3) | (x >> 2));
        }
        for x in 0..64 {
            assert_eq!(u32::from(expand(x, 6)), (x << 2) | (x >> 4));
        }
        for x in 0..16 {
            assert_eq!(u32::from(expand(x, 4)), x * 17);
        }
        assert_eq!([expand(0, 1), expand(1, 1)], [0, 255]);
    }

    #[test]
    fn intensity_of_grey_is_exact() {
        for v in 0..=255u8 {
            assert_eq!(intensity([v, v, v]), v);
        }
    }
}

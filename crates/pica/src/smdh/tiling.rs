//! The icon pixel format and layout: RGB565 in 8x8 tiles, Morton order inside a tile.
//!
//! The Morton order and the channel widening and rounding are the texture module's
//! (`texture::morton`, `texture::packed`), as for the RGB565 texture format. Facts: smdh.md
//! "Icon graphics" (the recursive 2x2 order of the buffer, 8x8 tiles), RGB565 with red in the
//! high bits as the texture formats have it.

use crate::texture::{expand, morton, quantize};

/// Position in the tiled buffer of pixel (x, y) of an image `width` pixels wide (a multiple
/// of 8): tiles left to right, top to bottom; inside a tile the bits of the index interleave
/// x0 y0 x1 y1 x2 y2, lowest first (smdh.md: buffer 0 1 2 3 4 lie at (0,0) (1,0) (0,1) (1,1)
/// (2,0)).
pub(crate) fn tiled_index(x: usize, y: usize, width: usize) -> usize {
    let tile = (y / 8) * (width / 8) + x / 8;
    tile * 64 + morton::index((x % 8) as u32, (y % 8) as u32) as usize
}

/// Row-major pixels from the tiled buffer.
pub(crate) fn untile(tiled: &[u16], width: usize, height: usize) -> Vec<u16> {
    let mut out = vec![0; width * height];
    for y in 0..height {
        for x in 0..width {
            out[y * width + x] = tiled[tiled_index(x, y, width)];
        }
    }
    out
}

/// The tiled buffer from row-major pixels.
pub(crate) fn tile(linear: &[u16], width: usize, height: usize) -> Vec<u16> {
    let mut out = vec![0; width * height];
    for y in 0..height {
        for x in 0..width {
            out[tiled_index(x, y, width)] = linear[y * width + x];
        }
    }
    out
}

/// RGB565 to 8-bit RGB, each channel widened by repeating its high bits (so 31 gives 255 and
/// 0 gives 0).
pub(crate) fn rgb565_to_rgb8(p: u16) -> [u8; 3] {
    let p = u32::from(p);
    [expand((p >> 11) & 0x1F, 5), expand((p >> 5) & 0x3F, 6), expand(p & 0x1F, 5)]
}

/// 8-bit RGB to RGB565, each channel rounded to the nearest level. Every colour
/// [`rgb565_to_rgb8`] gives comes back unchanged.
pub(crate) fn rgb8_to_rgb565(c: [u8; 3]) -> u16 {
    ((quantize(c[0], 5) << 11) | (quantize(c[1], 6) << 5) | quantize(c[2], 5)) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_tile_follows_the_pages_order() {
        // smdh.md "Icon graphics": the rows of the sketch read 0 1 4 5 16 / 2 3 6 7 / 8 9 12 13
        // / 10 11 14 15 (16 is the next 4x4 block in x).
        let rows = [[0, 1, 4, 5, 16], [2, 3, 6, 7, 18], [8, 9, 12, 13, 24], [10, 11, 14, 15, 26]];
        for (y, row) in rows.iter().enumerate() {
            for (x, &i) in row.iter().enumerate() {
                assert_eq!(tiled_index(x, y, 48), i, "({x}, {y})");
            }
        }
        assert_eq!(tiled_index(8, 0, 48), 64);
        assert_eq!(tiled_index(0, 8, 48), 6 * 64);
    }

    #[test]
    fn tiling_is_a_bijection() {
        let linear: Vec<u16> = (0..48 * 48).map(|i| i as u16).collect();
        let t = tile(&linear, 48, 48);
        let mut seen = t.clone();
        seen.sort_unstable();
        assert_eq!(seen, linear);
        assert_eq!(untile(&t, 48, 48), linear);
    }

    #[test]
    fn every_rgb565_colour_survives_rgb8() {
        for p in 0..=u16::MAX {
            assert_eq!(rgb8_to_rgb565(rgb565_to_rgb8(p)), p);
        }
        assert_eq!(rgb565_to_rgb8(0xFFFF), [255, 255, 255]);
        assert_eq!(rgb8_to_rgb565([255, 0, 0]), 0xF800);
    }
}

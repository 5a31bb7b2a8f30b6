//! The PICA200 texture tiling: the picture is cut into 8x8 tiles stored left to right, top tile
//! row first; inside a tile the 64 texels follow a Z-order (Morton) curve, x in the even bits of
//! the index and y in the odd bits (pica200-gpu-registers.md, "GPUREG_TEXUNITi_ADDRi": "laid out
//! in memory as a Z-order curve"; bit assignment as Citra's MortonInterleave).
//!
//! Row 0 of memory is the top row of the picture as a PNG shows it: the sampler reads memory row
//! `height - 1 - t` for texel row `t` counted up from the bottom (docs/specs/pica200-fragment-facts.md
//! section 6.2, "Texel addressing note"), so t = height - 1, the top of the image, is row 0.

/// Texels per tile side.
pub const TILE: u32 = 8;

/// The Morton index of texel (x, y) of a tile, `x, y < 8`.
///
/// ```
/// use pica::texture::morton::index;
/// assert_eq!([index(1, 0), index(0, 1), index(2, 0), index(7, 7)], [1, 2, 4, 63]);
/// ```
pub const fn index(x: u32, y: u32) -> u32 {
    let mut i = 0;
    let mut bit = 0;
    while bit < 3 {
        i |= ((x >> bit) & 1) << (2 * bit);
        i |= ((y >> bit) & 1) << (2 * bit + 1);
        bit += 1;
    }
    i
}

/// For each Morton index 0..64, the texel (x, y) in the tile.
pub const COORDS: [(u8, u8); 64] = {
    let mut table = [(0u8, 0u8); 64];
    let mut y = 0;
    while y < TILE {
        let mut x = 0;
        while x < TILE {
            table[index(x, y) as usize] = (x as u8, y as u8);
            x += 1;
        }
        y += 1;
    }
    table
};

/// The tiles of a `width` x `height` picture (both multiples of 8) in memory order, as the
/// coordinates of their top-left texels.
pub fn tiles(width: u32, height: u32) -> impl Iterator<Item = (u32, u32)> {
    (0..height / TILE).flat_map(move |ty| (0..width / TILE).map(move |tx| (tx * TILE, ty * TILE)))
}

//! GX texture formats: TEX0 image data (tiled in 32-byte blocks) decoded to RGBA8, and encoded
//! back for the lossless formats.
//!
//! Texel expansion: specs/hollywood-tev-more-facts.md, Appendix (Dolphin's decoders): n-bit to
//! 8-bit repeats the bits; IA8 is A then I in memory; RGB5A3's top bit picks RGB555 (A = 255) or
//! A3 RGB444; CMPR is DXT1-like with the 3/8-5/8 blends and, for c0 <= c1, a fourth colour equal
//! to the third with A = 0. Tiling: blocks of 8x8 (4-bit), 8x4 (8-bit) or 4x4 (16- and 32-bit)
//! texels, 32 bytes each (RGBA8: 64, its AR half then its GB half), blocks left to right then
//! top to bottom, texels row by row inside a block; images are padded to whole blocks. CMPR
//! blocks are 8x8, four 4x4 DXT1 sub-blocks (top-left, top-right, bottom-left, bottom-right).
//!
//! ```
//! use gx::texture::{decode, encode, Format};
//! let texels = vec![[10, 10, 10, 10], [200, 200, 200, 200]];
//! let bytes = encode(Format::I8, 2, 1, &texels)?;
//! assert_eq!(bytes.len(), 32); // one 8x4 block
//! assert_eq!(decode(Format::I8, 2, 1, &bytes, None)?, texels);
//! # Ok::<(), gx::Error>(())
//! ```

use crate::error::{Error, ErrorKind, Result};

/// A TEX0 texture format (GX_TF_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// 4-bit intensity.
    I4,
    /// 8-bit intensity.
    I8,
    /// 4-bit intensity, 4-bit alpha.
    IA4,
    /// 8-bit intensity, 8-bit alpha.
    IA8,
    /// 16-bit RGB 5:6:5.
    Rgb565,
    /// 16-bit RGB555 or A3RGB444.
    Rgb5a3,
    /// 32-bit RGBA in two tiles.
    Rgba8,
    /// 4-bit palette index.
    C4,
    /// 8-bit palette index.
    C8,
    /// 14-bit palette index.
    C14x2,
    /// DXT1-like compressed.
    Cmpr,
}

/// A palette (PLT0) entry format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaletteFormat {
    /// As IA8.
    Ia8,
    /// As RGB565.
    Rgb565,
    /// As RGB5A3.
    Rgb5a3,
}

/// A palette: its entry format and the raw big-endian 16-bit entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Entry format.
    pub format: PaletteFormat,
    /// Entries.
    pub entries: Vec<u16>,
}

impl Format {
    /// The format of a TEX0 format code.
    pub fn from_code(code: u32) -> Option<Self> {
        Some(match code {
            0 => Self::I4,
            1 => Self::I8,
            2 => Self::IA4,
            3 => Self::IA8,
            4 => Self::Rgb565,
            5 => Self::Rgb5a3,
            6 => Self::Rgba8,
            8 => Self::C4,
            9 => Self::C8,
            10 => Self::C14x2,
            14 => Self::Cmpr,
            _ => return None,
        })
    }

    /// Block width and height in texels.
    pub fn block(self) -> (u32, u32) {
        match self {
            Self::I4 | Self::C4 | Self::Cmpr => (8, 8),
            Self::I8 | Self::IA4 | Self::C8 => (8, 4),
            _ => (4, 4),
        }
    }

    /// Bytes of one block.
    pub fn block_bytes(self) -> usize {
        if self == Self::Rgba8 {
            64
        } else {
            32
        }
    }

    /// Bytes of a `width` x `height` image (padded to whole blocks).
    pub fn size(self, width: u32, height: u32) -> usize {
        let (bw, bh) = self.block();
        width.div_ceil(bw) as usize * height.div_ceil(bh) as usize * self.block_bytes()
    }

    /// Whether the format needs a palette.
    pub fn indexed(self) -> bool {
        matches!(self, Self::C4 | Self::C8 | Self::C14x2)
    }
}

impl PaletteFormat {
    /// The format of a PLT0 format code.
    pub fn from_code(code: u32) -> Option<Self> {
        Some(match code {
            0 => Self::Ia8,
            1 => Self::Rgb565,
            2 => Self::Rgb5a3,
            _ => return None,
        })
    }
}

fn x4(v: u16) -> u8 {
    (v as u8 & 15) * 0x11
}
fn x5(v: u16) -> u8 {
    let v = v as u8 & 31;
    (v << 3) | (v >> 2)
}
fn x6(v: u16) -> u8 {
    let v = v as u8 & 63;
    (v << 2) | (v >> 4)
}
fn x3(v: u16) -> u8 {
    let v = v as u8 & 7;
    (v << 5) | (v << 2) | (v >> 1)
}

/// An RGB565 value as RGBA8.
pub fn rgb565(v: u16) -> [u8; 4] {
    [x5(v >> 11), x6(v >> 5), x5(v), 255]
}

/// An RGB5A3 value as RGBA8.
pub fn rgb5a3(v: u16) -> [u8; 4] {
    if v & 0x8000 != 0 {
        [x5(v >> 10), x5(v >> 5), x5(v), 255]
    } else {
        [x4(v >> 8), x4(v >> 4), x4(v), x3(v >> 12)]
    }
}

/// An IA8 value (A in the high byte, as in memory) as RGBA8.
pub fn ia8(v: u16) -> [u8; 4] {
    let (a, i) = ((v >> 8) as u8, v as u8);
    [i, i, i, a]
}

fn palette_entry(p: Option<&Palette>, index: usize, at: usize) -> Result<[u8; 4]> {
    let p = p.ok_or_else(|| Error::new(at as u64, ErrorKind::Invalid("a palette format without a palette".into())))?;
    let v = *p.entries.get(index).ok_or_else(|| {
        Error::new(
            at as u64,
            ErrorKind::Invalid(format!("palette index {index} past the palette's {} entries", p.entries.len())),
        )
    })?;
    Ok(match p.format {
        PaletteFormat::Ia8 => ia8(v),
        PaletteFormat::Rgb565 => rgb565(v),
        PaletteFormat::Rgb5a3 => rgb5a3(v),
    })
}

/// The four CMPR colours of a sub-block's endpoints.
pub fn cmpr_palette(c0: u16, c1: u16) -> [[u8; 4]; 4] {
    let (a, b) = (rgb565(c0), rgb565(c1));
    let mix = |f: &dyn Fn(u32, u32) -> u32| [0, 1, 2].map(|k| f(a[k] as u32, b[k] as u32) as u8);
    if c0 > c1 {
        let p = mix(&|x, y| (5 * x + 3 * y) >> 3);
        let q = mix(&|x, y| (3 * x + 5 * y) >> 3);
        [a, b, [p[0], p[1], p[2], 255], [q[0], q[1], q[2], 255]]
    } else {
        let h = mix(&|x, y| (x + y) / 2);
        [a, b, [h[0], h[1], h[2], 255], [h[0], h[1], h[2], 0]]
    }
}

/// Calls `f(x, y, texel_index_in_block_order, block_offset)` for every texel slot of the tiled
/// image (padding included), in memory order.
fn for_each_slot(format: Format, width: u32, height: u32, mut f: impl FnMut(u32, u32, usize, usize)) {
    let (bw, bh) = format.block();
    let mut block = 0usize;
    for by in 0..height.div_ceil(bh) {
        for bx in 0..width.div_ceil(bw) {
            let base = block * format.block_bytes();
            for i in 0..(bw * bh) as usize {
                let (x, y) = (bx * bw + (i as u32 % bw), by * bh + (i as u32 / bw));
                f(x, y, i, base);
            }
            block += 1;
        }
    }
}

fn be16(d: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([d[at], d[at + 1]])
}

/// Decodes level 0 of a `width` x `height` image to RGBA8 (row by row). Palette formats need
/// `palette`.
///
/// # Errors
/// Data shorter than the image (offset = where the missing bytes start), a zero size, a palette
/// format without a palette, an index past the palette.
pub fn decode(format: Format, width: u32, height: u32, data: &[u8], palette: Option<&Palette>) -> Result<Vec<[u8; 4]>> {
    if width == 0 || height == 0 || width > 1024 || height > 1024 {
        return Err(Error::new(0, ErrorKind::Invalid(format!("texture size {width}x{height} (1-1024 each)"))));
    }
    let need = format.size(width, height);
    if data.len() < need {
        return Err(Error::new(
            data.len() as u64,
            ErrorKind::Truncated { what: "texture data", need: need as u64, have: data.len() as u64 },
        ));
    }
    let mut out = vec![[0u8; 4]; (width * height) as usize];
    let mut err = None;
    for_each_slot(format, width, height, |x, y, i, base| {
        let texel = match format {
            Format::I4 | Format::C4 => {
                let b = data[base + i / 2];
                let n = if i % 2 == 0 { b >> 4 } else { b & 15 };
                if format == Format::I4 {
                    Ok([n * 0x11; 4])
                } else {
                    palette_entry(palette, n as usize, base + i / 2)
                }
            }
            Format::I8 => Ok([data[base + i]; 4]),
            Format::C8 => palette_entry(palette, data[base + i] as usize, base + i),
            Format::IA4 => {
                let b = data[base + i];
                let (a, v) = ((b >> 4) * 0x11, (b & 15) * 0x11);
                Ok([v, v, v, a])
            }
            Format::IA8 => Ok(ia8(be16(data, base + 2 * i))),
            Format::Rgb565 => Ok(rgb565(be16(data, base + 2 * i))),
            Format::Rgb5a3 => Ok(rgb5a3(be16(data, base + 2 * i))),
            Format::C14x2 => palette_entry(palette, (be16(data, base + 2 * i) & 0x3FFF) as usize, base + 2 * i),
            Format::Rgba8 => {
                let (ar, gb) = (base + 2 * i, base + 32 + 2 * i);
                Ok([data[ar + 1], data[gb], data[gb + 1], data[ar]])
            }
            Format::Cmpr => {
                // Sub-block s (TL, TR, BL, BR) of 4x4 texels, 8 bytes each.
                let (lx, ly) = (i % 8, i / 8);
                let s = (ly / 4) * 2 + lx / 4;
                let sb = base + 8 * s;
                let pal = cmpr_palette(be16(data, sb), be16(data, sb + 2));
                let row = data[sb + 4 + ly % 4];
                let idx = (row >> (6 - 2 * (lx % 4))) & 3;
                Ok(pal[idx as usize])
            }
        };
        match texel {
            Ok(t) => {
                if x < width && y < height {
                    out[(y * width + x) as usize] = t;
                }
            }
            Err(e) => {
                if x < width && y < height && err.is_none() {
                    err = Some(e);
                }
            }
        }
    });
    match err {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

fn unrepresentable(format: Format, x: u32, y: u32, t: [u8; 4]) -> Error {
    Error::new(0, ErrorKind::Invalid(format!("texel ({x}, {y}) = {t:?} is not representable in {format:?}")))
}

fn is4(v: u8) -> bool {
    v.is_multiple_of(0x11)
}
fn to5(v: u8) -> Option<u16> {
    let c = (v >> 3) as u16;
    (x5(c) == v).then_some(c)
}
fn to6(v: u8) -> Option<u16> {
    let c = (v >> 2) as u16;
    (x6(c) == v).then_some(c)
}
fn to3(v: u8) -> Option<u16> {
    let c = (v >> 5) as u16;
    (x3(c) == v).then_some(c)
}

/// The RGB5A3 encoding of a texel: RGB555 when opaque and representable, else A3RGB444.
pub fn encode_rgb5a3(t: [u8; 4]) -> Option<u16> {
    if t[3] == 255 {
        if let (Some(r), Some(g), Some(b)) = (to5(t[0]), to5(t[1]), to5(t[2])) {
            return Some(0x8000 | (r << 10) | (g << 5) | b);
        }
    }
    let a = to3(t[3])?;
    if !(is4(t[0]) && is4(t[1]) && is4(t[2])) {
        return None;
    }
    Some((a << 12) | ((t[0] as u16 / 0x11) << 8) | ((t[1] as u16 / 0x11) << 4) | (t[2] as u16 / 0x11))
}

/// Encodes an RGBA8 image (row by row) in a lossless format: I4, I8, IA4, IA8, RGB565, RGB5A3 or
/// RGBA8. Padding texels are zero.
///
/// # Errors
/// A texel the format cannot hold exactly (I formats need R = G = B, I4/I8 also A = I; 4-bit
/// channels need multiples of 0x11, ...), a lossy or palette format, a size mismatch.
pub fn encode(format: Format, width: u32, height: u32, texels: &[[u8; 4]]) -> Result<Vec<u8>> {
    if texels.len() != (width * height) as usize || width == 0 || height == 0 {
        return Err(Error::new(0, ErrorKind::Invalid(format!("{} texels for a {width}x{height} image", texels.len()))));
    }
    if format.indexed() || format == Format::Cmpr {
        return Err(Error::new(0, ErrorKind::Invalid(format!("{format:?} is not a lossless direct format"))));
    }
    let mut out = vec![0u8; format.size(width, height)];
    let mut err = None;
    for_each_slot(format, width, height, |x, y, i, base| {
        if x >= width || y >= height || err.is_some() {
            return;
        }
        let t = texels[(y * width + x) as usize];
        let grey = t[0] == t[1] && t[1] == t[2];
        let ok = match format {
            Format::I4 if grey && t[3] == t[0] && is4(t[0]) => {
                let n = t[0] / 0x11;
                out[base + i / 2] |= if i % 2 == 0 { n << 4 } else { n };
                true
            }
            Format::I8 if grey && t[3] == t[0] => {
                out[base + i] = t[0];
                true
            }
            Format::IA4 if grey && is4(t[0]) && is4(t[3]) => {
                out[base + i] = ((t[3] / 0x11) << 4) | (t[0] / 0x11);
                true
            }
            Format::IA8 if grey => {
                out[base + 2 * i] = t[3];
                out[base + 2 * i + 1] = t[0];
                true
            }
            Format::Rgb565 if t[3] == 255 => match (to5(t[0]), to6(t[1]), to5(t[2])) {
                (Some(r), Some(g), Some(b)) => {
                    out[base + 2 * i..base + 2 * i + 2].copy_from_slice(&((r << 11) | (g << 5) | b).to_be_bytes());
                    true
                }
                _ => false,
            },
            Format::Rgb5a3 => match encode_rgb5a3(t) {
                Some(v) => {
                    out[base + 2 * i..base + 2 * i + 2].copy_from_slice(&v.to_be_bytes());
                    true
                }
                None => false,
            },
            Format::Rgba8 => {
                out[base + 2 * i] = t[3];
                out[base + 2 * i + 1] = t[0];
                out[base + 32 + 2 * i] = t[1];
                out[base + 32 + 2 * i + 1] = t[2];
                true
            }
            _ => false,
        };
        if !ok {
            err = Some(unrepresentable(format, x, y, t));
        }
    });
    match err {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

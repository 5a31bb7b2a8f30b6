//! PICA200 textures: the 14 colour formats of GPUREG_TEXUNIT*i*_TYPE, tiled in 8x8 Morton
//! order, decoded to RGBA8 and encoded from RGBA8 (ETC1 and ETC1A4 with a real encoder); PNG in
//! and out; shadow maps and depth buffers decoded as values.
//!
//! Formats, byte orders, tiling and the encoder are described in docs/pica-texture.md. One table,
//! [`formats::FORMATS`], drives decoding, encoding, names and parsing.
//!
//! ```
//! use pica::regs::layouts::TextureFormat;
//! use pica::texture::{decode, encode, Image};
//! let mut image = Image::new(8, 8);
//! image.set_pixel(3, 5, [255, 0, 0, 255]);
//! let bytes = encode(TextureFormat::Rgb565, &image).unwrap();
//! assert_eq!(bytes.len(), 128);
//! assert_eq!(decode(TextureFormat::Rgb565, 8, 8, &bytes).unwrap().pixel(3, 5), [255, 0, 0, 255]);
//! ```

pub mod depth;
pub mod etc1;
pub mod etc1_encode;
pub mod formats;
pub mod morton;
mod packed;
pub mod png_io;

pub use depth::{decode_depth, decode_shadow, encode_depth, encode_shadow, DepthStencil, ShadowTexel};
pub use etc1_encode::Quality;
pub use formats::{FormatInfo, FORMATS};
pub use packed::{expand, intensity, quantize};

use crate::regs::layouts::TextureFormat;
use formats::Layout;
use thiserror::Error;

/// Largest width or height: the GPU's 1024 (citro3d's C3D_TexInit limit; the DIM register's
/// 11-bit fields could hold 2047).
pub const MAX_SIZE: u32 = 1024;

/// An RGBA8 picture, top row first, 4 bytes per texel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    /// `width * height * 4` bytes: R, G, B, A of each texel, row by row.
    pub pixels: Vec<u8>,
}

impl Image {
    /// A transparent black picture.
    pub fn new(width: u32, height: u32) -> Image {
        Image { width, height, pixels: vec![0; width as usize * height as usize * 4] }
    }

    /// The texel at (x, y); panics outside the picture.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let at = (y as usize * self.width as usize + x as usize) * 4;
        [self.pixels[at], self.pixels[at + 1], self.pixels[at + 2], self.pixels[at + 3]]
    }

    pub fn set_pixel(&mut self, x: u32, y: u32, rgba: [u8; 4]) {
        let at = (y as usize * self.width as usize + x as usize) * 4;
        self.pixels[at..at + 4].copy_from_slice(&rgba);
    }
}

/// What went wrong decoding or encoding a texture.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TextureError {
    #[error("texture size {width}x{height}: width and height must be multiples of 8 from 8 to {max}", max = MAX_SIZE)]
    Size { width: u32, height: u32 },
    #[error("{format} {width}x{height} needs {needed} bytes, found {found}")]
    Truncated { format: &'static str, width: u32, height: u32, needed: usize, found: usize },
    #[error("format value 0x{0:x} is not a texture format of the register page")]
    UnknownFormat(u32),
    #[error("RGBA8 picture {width}x{height} needs {needed} bytes of texels, has {found}")]
    Pixels { width: u32, height: u32, needed: usize, found: usize },
}

/// Checks a texture size.
pub fn check_size(width: u32, height: u32) -> Result<(), TextureError> {
    let ok = |v: u32| v.is_multiple_of(8) && (8..=MAX_SIZE).contains(&v);
    if ok(width) && ok(height) {
        Ok(())
    } else {
        Err(TextureError::Size { width, height })
    }
}

fn table_row(format: TextureFormat) -> Result<&'static FormatInfo, TextureError> {
    formats::info(format).ok_or(TextureError::UnknownFormat(format.raw()))
}

/// Bytes of a `width` x `height` texture (one level, no mipmaps).
///
/// ```
/// use pica::regs::layouts::TextureFormat;
/// assert_eq!(pica::texture::byte_size(TextureFormat::Etc1, 64, 64).unwrap(), 2048);
/// ```
pub fn byte_size(format: TextureFormat, width: u32, height: u32) -> Result<usize, TextureError> {
    check_size(width, height)?;
    let info = table_row(format)?;
    Ok((width / 8) as usize * (height / 8) as usize * info.tile_bytes())
}

/// Decodes a texture to RGBA8. `bytes` may be longer than the texture (mipmap levels follow
/// the base level in memory); the rest is ignored.
pub fn decode(format: TextureFormat, width: u32, height: u32, bytes: &[u8]) -> Result<Image, TextureError> {
    let needed = byte_size(format, width, height)?;
    let info = table_row(format)?;
    if bytes.len() < needed {
        return Err(TextureError::Truncated { format: info.name(), width, height, needed, found: bytes.len() });
    }
    let mut image = Image::new(width, height);
    let tile_bytes = info.tile_bytes();
    let tiles = bytes[..needed].chunks_exact(tile_bytes).zip(morton::tiles(width, height));
    match info.layout {
        Layout::Packed(channels) => {
            let decoder = packed::Decoder::new(info.bits_per_texel, channels);
            for (tile, (x0, y0)) in tiles {
                decoder.tile(tile, &mut image, x0, y0);
            }
        }
        Layout::Etc1 { alpha } => {
            for (tile, (x0, y0)) in tiles {
                etc1::decode_tile(tile, alpha, &mut image, x0, y0);
            }
        }
    }
    Ok(image)
}

/// Encodes an RGBA8 picture (ETC1 formats at [`Quality::High`]).
pub fn encode(format: TextureFormat, image: &Image) -> Result<Vec<u8>, TextureError> {
    encode_with(format, image, Quality::High)
}

/// Encodes an RGBA8 picture, with the ETC1 encoder at `quality`.
pub fn encode_with(format: TextureFormat, image: &Image, quality: Quality) -> Result<Vec<u8>, TextureError> {
    let (width, height) = (image.width, image.height);
    let size = byte_size(format, width, height)?;
    let needed = width as usize * height as usize * 4;
    if image.pixels.len() != needed {
        return Err(TextureError::Pixels { width, height, needed, found: image.pixels.len() });
    }
    let info = table_row(format)?;
    let mut out = vec![0u8; size];
    for (tile, (x0, y0)) in out.chunks_exact_mut(info.tile_bytes()).zip(morton::tiles(width, height)) {
        match info.layout {
            Layout::Packed(channels) => packed::encode_tile(image, x0, y0, info.bits_per_texel, channels, tile),
            Layout::Etc1 { alpha } => etc1_encode::encode_tile(image, x0, y0, alpha, quality, tile),
        }
    }
    Ok(out)
}

/// Peak signal-to-noise ratio of `b` against `a` over the RGB channels, in dB (infinite when
/// equal); `None` when the sizes differ.
pub fn psnr_rgb(a: &Image, b: &Image) -> Option<f64> {
    if a.width != b.width || a.height != b.height || a.pixels.len() != b.pixels.len() {
        return None;
    }
    let mut sum = 0u64;
    for (p, q) in a.pixels.chunks_exact(4).zip(b.pixels.chunks_exact(4)) {
        for c in 0..3 {
            let d = i64::from(p[c]) - i64::from(q[c]);
            sum += (d * d) as u64;
        }
    }
    let mse = sum as f64 / (a.pixels.len() / 4 * 3) as f64;
    Some(if mse == 0.0 { f64::INFINITY } else { 10.0 * (255.0f64 * 255.0 / mse).log10() })
}

//! Shadow maps and depth buffers, decoded as the values the GPU compares, not as colours.
//!
//! A shadow map is an RGBA8-format texture whose texel bytes are, in memory order, depth bits
//! 23-16, 15-8, 7-0 and an 8-bit intensity (docs/specs/pica200-fragment-facts.md section 6.3).
//! Depth buffers (GPUREG_DEPTHBUFFER_FORMAT: D16, D24, D24S8) are tiled like textures, each
//! texel a little-endian 16- or 24-bit depth, D24S8 with the stencil byte after the three depth
//! bytes (Citra common/color.h DecodeD16/DecodeD24/DecodeD24S8, facts only).

use super::morton::{self, COORDS};
use super::{check_size, TextureError};
use crate::regs::layouts::DepthFormat;

/// One texel of a shadow map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShadowTexel {
    /// 24-bit depth (z_ref of the shadow comparison).
    pub depth: u32,
    /// Shadow intensity.
    pub intensity: u8,
}

/// One texel of a depth buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DepthStencil {
    /// Depth, 16 or 24 bits wide as the format says.
    pub depth: u32,
    /// Stencil (D24S8 only).
    pub stencil: Option<u8>,
}

fn depth_bytes(format: DepthFormat) -> Option<usize> {
    match format {
        DepthFormat::D16 => Some(2),
        DepthFormat::D24 => Some(3),
        DepthFormat::D24S8 => Some(4),
        DepthFormat::Other(_) => None,
    }
}

fn format_name(format: DepthFormat) -> &'static str {
    match format {
        DepthFormat::D16 => "D16",
        DepthFormat::D24 => "D24",
        DepthFormat::D24S8 => "D24S8",
        DepthFormat::Other(_) => "depth format",
    }
}

/// Calls `f(texel index in memory, x, y)` for every texel of a tiled picture.
fn for_each_texel(width: u32, height: u32, mut f: impl FnMut(usize, usize)) {
    for (t, (x0, y0)) in morton::tiles(width, height).enumerate() {
        for (i, &(x, y)) in COORDS.iter().enumerate() {
            f(t * 64 + i, (y0 as usize + y as usize) * width as usize + x0 as usize + x as usize);
        }
    }
}

fn checked_len(name: &'static str, width: u32, height: u32, bpp: usize, found: usize) -> Result<usize, TextureError> {
    check_size(width, height)?;
    let needed = width as usize * height as usize * bpp;
    if found < needed {
        return Err(TextureError::Truncated { format: name, width, height, needed, found });
    }
    Ok(needed)
}

/// Decodes a shadow map (RGBA8 format) to depth and intensity per texel, top row first.
///
/// ```
/// // One tile whose first texel is depth 0x123456, intensity 0x80.
/// let mut bytes = vec![0u8; 256];
/// bytes[..4].copy_from_slice(&[0x12, 0x34, 0x56, 0x80]);
/// let texels = pica::texture::decode_shadow(8, 8, &bytes).unwrap();
/// assert_eq!((texels[0].depth, texels[0].intensity), (0x123456, 0x80));
/// ```
pub fn decode_shadow(width: u32, height: u32, bytes: &[u8]) -> Result<Vec<ShadowTexel>, TextureError> {
    checked_len("shadow RGBA8", width, height, 4, bytes.len())?;
    let mut out = vec![ShadowTexel::default(); width as usize * height as usize];
    for_each_texel(width, height, |m, at| {
        let b = &bytes[m * 4..m * 4 + 4];
        out[at] = ShadowTexel { depth: u32::from_be_bytes([0, b[0], b[1], b[2]]), intensity: b[3] };
    });
    Ok(out)
}

/// Encodes shadow texels (top row first) as a shadow map; depth is cut to 24 bits.
pub fn encode_shadow(width: u32, height: u32, texels: &[ShadowTexel]) -> Result<Vec<u8>, TextureError> {
    checked_len("shadow texel", width, height, 1, texels.len())?;
    let mut out = vec![0u8; width as usize * height as usize * 4];
    for_each_texel(width, height, |m, at| {
        let [_, d2, d1, d0] = texels[at].depth.to_be_bytes();
        out[m * 4..m * 4 + 4].copy_from_slice(&[d2, d1, d0, texels[at].intensity]);
    });
    Ok(out)
}

/// Decodes a depth buffer to depth (and stencil) values per texel, top row first.
pub fn decode_depth(
    format: DepthFormat,
    width: u32,
    height: u32,
    bytes: &[u8],
) -> Result<Vec<DepthStencil>, TextureError> {
    let bpp = depth_bytes(format).ok_or(TextureError::UnknownFormat(format.raw()))?;
    checked_len(format_name(format), width, height, bpp, bytes.len())?;
    let mut out = vec![DepthStencil::default(); width as usize * height as usize];
    for_each_texel(width, height, |m, at| {
        let b = &bytes[m * bpp..(m + 1) * bpp];
        out[at] = match bpp {
            2 => DepthStencil { depth: u32::from(u16::from_le_bytes([b[0], b[1]])), stencil: None },
            3 => DepthStencil { depth: u32::from_le_bytes([b[0], b[1], b[2], 0]), stencil: None },
            _ => DepthStencil { depth: u32::from_le_bytes([b[0], b[1], b[2], 0]), stencil: Some(b[3]) },
        };
    });
    Ok(out)
}

/// Encodes depth (and stencil) values (top row first) as a depth buffer; depth is cut to the
/// format's width, a missing stencil is 0.
pub fn encode_depth(
    format: DepthFormat,
    width: u32,
    height: u32,
    texels: &[DepthStencil],
) -> Result<Vec<u8>, TextureError> {
    let bpp = depth_bytes(format).ok_or(TextureError::UnknownFormat(format.raw()))?;
    checked_len("depth texel", width, height, 1, texels.len())?;
    let mut out = vec![0u8; width as usize * height as usize * bpp];
    for_each_texel(width, height, |m, at| {
        let t = texels[at];
        let mut b = t.depth.to_le_bytes();
        b[3] = t.stencil.unwrap_or(0);
        out[m * bpp..(m + 1) * bpp].copy_from_slice(&b[..bpp]);
    });
    Ok(out)
}

//! Texture instructions go to the host through [`Textures`]: the interpreter gathers the
//! source (SRC_SEL), the offsets, the LOD bias and the gradients of the clause (facts §4.1) and
//! applies DST_SEL to the four words the host returns. [`CpuTextures`] is a small host: 2D
//! float textures, nearest filtering, wrap (repeat) addressing.

use std::collections::BTreeMap;

/// One texture instruction, as the host sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexRequest {
    /// TEX_INST (facts §1.14: 0x03 LD, 0x04 GET_TEXTURE_RESINFO, 0x10-0x1F SAMPLE*).
    pub op: u8,
    /// Mnemonic.
    pub name: &'static str,
    /// RESOURCE_ID.
    pub resource: u8,
    /// SAMPLER_ID.
    pub sampler: u8,
    /// The source after SRC_SEL_X..W, as bit patterns (floats for SAMPLE*, integers for LD).
    pub src: [u32; 4],
    /// COORD_TYPE_X..W (true = normalized).
    pub normalized: [bool; 4],
    /// OFFSET_X/Y/Z in half texels (facts §1.14).
    pub offset: [i8; 3],
    /// LOD_BIAS (value / 8).
    pub lod_bias: f32,
    /// Gradients (SET_GRADIENTS_H, SET_GRADIENTS_V) set earlier in the clause.
    pub gradients: [[u32; 4]; 2],
}

/// A host's textures.
pub trait Textures {
    /// The four result words of `req` (before DST_SEL), or why it cannot be answered.
    ///
    /// # Errors
    /// A message the interpreter wraps into an input error naming the fetch.
    fn fetch(&self, req: &TexRequest) -> Result<[u32; 4], String>;
}

/// A 2D RGBA float texture.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Texture2d {
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Row-major texels.
    pub texels: Vec<[f32; 4]>,
}

/// Textures by RESOURCE_ID: SAMPLE* (nearest, repeat, LOD ignored), LD (texel integer
/// coordinates, clamped), GET_TEXTURE_RESINFO (width, height, 1, 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CpuTextures {
    /// Units.
    pub units: BTreeMap<u8, Texture2d>,
}

impl Textures for CpuTextures {
    fn fetch(&self, req: &TexRequest) -> Result<[u32; 4], String> {
        let t = self.units.get(&req.resource).ok_or_else(|| format!("no texture at resource {}", req.resource))?;
        if t.width == 0 || t.height == 0 || (t.texels.len() as u64) < t.width as u64 * t.height as u64 {
            return Err(format!("texture {} is empty or short", req.resource));
        }
        let texel = |x: i64, y: i64| t.texels[(y as usize) * t.width as usize + x as usize];
        let bits = |v: [f32; 4]| v.map(f32::to_bits);
        match req.op {
            0x03 => {
                let x = (req.src[0] as i32 as i64).clamp(0, t.width as i64 - 1);
                let y = (req.src[1] as i32 as i64).clamp(0, t.height as i64 - 1);
                Ok(bits(texel(x, y)))
            }
            0x04 => Ok([t.width, t.height, 1, 1]),
            0x10..=0x1F if req.op & 0x08 == 0 => {
                let c = |i: usize, size: u32| {
                    let v = f32::from_bits(req.src[i]) as f64;
                    let texels = if req.normalized[i] { v * size as f64 } else { v };
                    let texels = texels + req.offset[i] as f64 * 0.5;
                    let n = texels.floor();
                    if n.is_finite() {
                        (n as i64).rem_euclid(size as i64)
                    } else {
                        0
                    }
                };
                Ok(bits(texel(c(0, t.width), c(1, t.height))))
            }
            _ => Err(format!("{} is not implemented by CpuTextures", req.name)),
        }
    }
}

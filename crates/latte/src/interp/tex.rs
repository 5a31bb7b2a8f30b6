//! Texture instructions go to the host through [`Textures`]: the interpreter gathers the
//! source (SRC_SEL), the offsets, the LOD bias and the gradients of the clause (facts §4.1) and
//! applies DST_SEL to the four words the host returns. [`CpuTextures`] is a small host: 2D
//! float textures, one mip level, nearest or bilinear filtering, repeat / mirror / clamp.

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

/// Texture addressing outside [0, 1) (per axis).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wrap {
    /// Repeat.
    #[default]
    Repeat,
    /// Mirrored repeat.
    Mirror,
    /// Clamp to the edge texel.
    Clamp,
}

/// Sampler state of one SAMPLER_ID.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sampler {
    /// Bilinear filtering (else nearest).
    pub linear: bool,
    /// Addressing of s and t.
    pub wrap: [Wrap; 2],
}

/// Textures by RESOURCE_ID and samplers by SAMPLER_ID: SAMPLE* (nearest or bilinear, repeat /
/// mirror / clamp, one mip level so LOD, bias and gradients are ignored, no compare), LD
/// (integer texel coordinates, clamped), GET_TEXTURE_INFO (width, height, 1, 1). A sampler id
/// not given is nearest with repeat.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CpuTextures {
    /// Units.
    pub units: BTreeMap<u8, Texture2d>,
    /// Samplers.
    pub samplers: BTreeMap<u8, Sampler>,
}

fn wrap(i: i64, n: u32, w: Wrap) -> usize {
    let n = n as i64;
    (match w {
        Wrap::Repeat => i.rem_euclid(n),
        Wrap::Clamp => i.clamp(0, n - 1),
        Wrap::Mirror => {
            let m = i.rem_euclid(2 * n);
            if m < n {
                m
            } else {
                2 * n - 1 - m
            }
        }
    }) as usize
}

impl Textures for CpuTextures {
    fn fetch(&self, req: &TexRequest) -> Result<[u32; 4], String> {
        let t = self.units.get(&req.resource).ok_or_else(|| format!("no texture at resource {}", req.resource))?;
        if t.width == 0 || t.height == 0 || (t.texels.len() as u64) < t.width as u64 * t.height as u64 {
            return Err(format!("texture {} is empty or short", req.resource));
        }
        let texel = |x: usize, y: usize| t.texels[y * t.width as usize + x];
        let bits = |v: [f32; 4]| v.map(f32::to_bits);
        match req.op {
            0x03 => {
                let x = (req.src[0] as i32 as i64).clamp(0, t.width as i64 - 1) as usize;
                let y = (req.src[1] as i32 as i64).clamp(0, t.height as i64 - 1) as usize;
                Ok(bits(texel(x, y)))
            }
            0x04 => Ok([t.width, t.height, 1, 1]),
            0x10..=0x17 => {
                let smp = self.samplers.get(&req.sampler).copied().unwrap_or_default();
                // Texel-space coordinate of each axis (half-texel offsets included).
                let c = |i: usize, size: u32| {
                    let v = f32::from_bits(req.src[i]) as f64;
                    let v = if req.normalized[i] { v * size as f64 } else { v };
                    let v = v + req.offset[i] as f64 * 0.5;
                    if v.is_finite() {
                        v.clamp(-1e9, 1e9)
                    } else {
                        0.0
                    }
                };
                let (u, v) = (c(0, t.width), c(1, t.height));
                if !smp.linear {
                    let (x, y) = (u.floor() as i64, v.floor() as i64);
                    return Ok(bits(texel(wrap(x, t.width, smp.wrap[0]), wrap(y, t.height, smp.wrap[1]))));
                }
                let (u, v) = (u - 0.5, v - 0.5);
                let (x0, y0) = (u.floor(), v.floor());
                let (fx, fy) = ((u - x0) as f32, (v - y0) as f32);
                let (x0, y0) = (x0 as i64, y0 as i64);
                let at =
                    |dx: i64, dy: i64| texel(wrap(x0 + dx, t.width, smp.wrap[0]), wrap(y0 + dy, t.height, smp.wrap[1]));
                let (a, b, c2, d) = (at(0, 0), at(1, 0), at(0, 1), at(1, 1));
                let mut out = [0.0f32; 4];
                for k in 0..4 {
                    let top = a[k] + (b[k] - a[k]) * fx;
                    let bottom = c2[k] + (d[k] - c2[k]) * fx;
                    out[k] = top + (bottom - top) * fy;
                }
                Ok(bits(out))
            }
            _ => Err(format!("{} is not implemented by CpuTextures", req.name)),
        }
    }
}

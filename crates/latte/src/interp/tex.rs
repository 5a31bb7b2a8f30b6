//! Texture instructions go to the host through [`Textures`]: the interpreter gathers the
//! source (SRC_SEL), the offsets, the LOD bias and the gradients of the clause (facts §4.1) and
//! applies DST_SEL to the four words the host returns. [`CpuTextures`] is a small host: RGBA
//! float textures (2D, 2D array, 3D, cube) with mip levels, nearest or bilinear filtering,
//! repeat / mirror / clamp, depth compare; the sampling itself is in `image`.

use super::image::{self, View};
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
    /// Gradients d/dx, d/dy of the source: for SAMPLE_G* the SET_GRADIENTS_H / _V values set
    /// earlier in the clause; for the implicit-LOD SAMPLE, SAMPLE_LB, SAMPLE_C and SAMPLE_C_LB
    /// in a 2x2 quad the differences of the source across the quad (as GET_GRADIENTS computes
    /// them); else 0.
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

/// The shape of an [`Image`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TexKind {
    /// 2D: (s, t).
    #[default]
    D2,
    /// 2D array: (s, t, layer); the layer is z rounded to nearest even and clamped.
    D2Array,
    /// 3D: (s, t, r).
    D3,
    /// Cube: CUBE's face coordinates (s′, t′ in [1, 2], face in z; face + 8·cube for arrays),
    /// six layers per cube in the order +X, −X, +Y, −Y, +Z, −Z.
    Cube,
}

/// A depth compare function of SAMPLE_C*: passes when `reference OP texel.r`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// Never passes.
    Never,
    /// reference < texel.
    Less,
    /// reference == texel.
    Equal,
    /// reference <= texel (the default).
    LessEqual,
    /// reference > texel.
    Greater,
    /// reference != texel.
    NotEqual,
    /// reference >= texel.
    GreaterEqual,
    /// Always passes.
    Always,
}

/// A texture with mip levels: 2D, 2D array, 3D or cube, RGBA float texels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Image {
    /// Shape.
    pub kind: TexKind,
    /// Width of level 0.
    pub width: u32,
    /// Height of level 0.
    pub height: u32,
    /// Depth of level 0 (3D), layers (2D array), or 6 × cubes (cube); 1 for 2D.
    pub depth: u32,
    /// Levels, level 0 first. Level k has max(width >> k, 1) × max(height >> k, 1) ×
    /// (max(depth >> k, 1) for 3D, else depth) texels: x fastest, then y, then layer or slice.
    pub levels: Vec<Vec<[f32; 4]>>,
    /// Linear blend between the two nearest levels (else the nearest level).
    pub mip_linear: bool,
    /// The compare function SAMPLE_C* use (`None`: LessEqual).
    pub compare: Option<Compare>,
    /// Addressing of r (3D).
    pub wrap_r: Wrap,
}

/// Textures by RESOURCE_ID and samplers by SAMPLER_ID (docs/latte-interp.md, "Textures"):
/// SAMPLE* with level selection (explicit LOD, bias, LOD from gradients or, in quads, from the
/// coordinates' derivatives), nearest or bilinear (trilinear for 3D) filtering, repeat /
/// mirror / clamp, depth compare for SAMPLE_C*; LD (integer texel coordinates, clamped; level
/// in w); GET_TEXTURE_INFO (width, height, depth or layers, levels). A resource id is looked up
/// in `images` first, then in `units` (one-level 2D textures). A sampler id not given is
/// nearest with repeat.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CpuTextures {
    /// One-level 2D textures.
    pub units: BTreeMap<u8, Texture2d>,
    /// Textures with levels, arrays, 3D and cubes.
    pub images: BTreeMap<u8, Image>,
    /// Samplers.
    pub samplers: BTreeMap<u8, Sampler>,
}

impl Textures for CpuTextures {
    fn fetch(&self, req: &TexRequest) -> Result<[u32; 4], String> {
        let view = match (self.images.get(&req.resource), self.units.get(&req.resource)) {
            (Some(img), _) => View::of(img),
            (None, Some(t)) => View {
                kind: TexKind::D2,
                size: [t.width, t.height, 1],
                levels: vec![t.texels.as_slice()],
                mip_linear: false,
                compare: None,
                wrap_r: Wrap::Repeat,
            },
            (None, None) => return Err(format!("no texture at resource {}", req.resource)),
        };
        view.check(req.resource)?;
        match req.op {
            0x03 => Ok(image::load(&view, req)),
            0x04 => Ok(image::info(&view, req)),
            0x10..=0x1F => {
                let smp = self.samplers.get(&req.sampler).copied().unwrap_or_default();
                Ok(image::sample(&view, &smp, req))
            }
            _ => Err(format!("{} is not implemented by CpuTextures", req.name)),
        }
    }
}

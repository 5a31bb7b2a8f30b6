//! Step 3: texture units 0-2. The pipeline forms each unit's coordinates (2D, cube, shadow 2D
//! and cube, projection; facts 6.1-6.3) and asks a [`TexelSampler`] for the texel; decoding
//! formats, wrapping, filtering and the border colour are the sampler's (the texture module's).
//! For shadow types the sampler returns the stored shadow-map texel and the unit compares it.

use super::decisions;
use super::key::{TextureUnitKey, UnitKind};
use super::{FragmentInputs, FragmentUniforms, Rgba};

/// A cube-map face, in the order of TEXUNIT0_ADDR1..ADDR6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeFace {
    PositiveX,
    NegativeX,
    PositiveY,
    NegativeY,
    PositiveZ,
    NegativeZ,
}

/// Where to sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TexCoord {
    /// (s, t) on a 2D texture, in texture units (0..1 spans the texture; wrap is the
    /// sampler's). May be non-finite (a projection by w = 0).
    Plane { s: f32, t: f32 },
    /// (s, t) on one face of a cube map.
    Cube { face: CubeFace, s: f32, t: f32 },
}

/// One texel request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexelRequest {
    /// Texture unit 0, 1 or 2.
    pub unit: usize,
    pub coord: TexCoord,
    /// The unit is a shadow type: return the one nearest stored texel, unfiltered
    /// (decision D9); its bytes R = intensity, G, B, A = depth bits 0-7, 8-15, 16-23.
    pub shadow: bool,
}

/// The source of texels: a closure `FnMut(TexelRequest) -> Rgba` or the texture module.
pub trait TexelSampler {
    /// The RGBA8 texel for a request.
    fn sample(&mut self, request: TexelRequest) -> Rgba;
}

impl<F: FnMut(TexelRequest) -> Rgba> TexelSampler for F {
    fn sample(&mut self, request: TexelRequest) -> Rgba {
        self(request)
    }
}

/// Cube face selection and face coordinates for direction (u, v, w) (facts 6.2, Azahar's
/// ConvertCubeCoord). Returns the face, (s, t) and the shadow depth |z|.
///
/// Decision D11 (facts 7.14, ties): X only if |u| is strictly the largest, then Y if
/// |v| > |w|, else Z: equal magnitudes fall through to the later face, as in Azahar.
pub fn cube_coords(u: f32, v: f32, w: f32) -> (CubeFace, f32, f32, f32) {
    let (au, av, aw) = (u.abs(), v.abs(), w.abs());
    let (face, x, y, z) = if au > av && au > aw {
        if u > 0.0 {
            (CubeFace::PositiveX, -w, -v, u)
        } else {
            (CubeFace::NegativeX, -w, v, u)
        }
    } else if av > aw {
        if v > 0.0 {
            (CubeFace::PositiveY, u, w, v)
        } else {
            (CubeFace::NegativeY, -u, w, v)
        }
    } else if w > 0.0 {
        (CubeFace::PositiveZ, u, -v, w)
    } else {
        (CubeFace::NegativeZ, u, v, w)
    };
    (face, x / z * 0.5 + 0.5, y / z * 0.5 + 0.5, z.abs())
}

/// The integer reference depth of a shadow lookup: trunc(min(z, 1) * 0xFFFFFF) - bias
/// (facts 6.3; not clamped at zero, decision D9). `z` is non-negative or NaN (read as 0).
pub fn shadow_depth(z: f32, bias: u32) -> i64 {
    let z = if z >= 1.0 {
        1.0
    } else if z > 0.0 {
        z
    } else {
        0.0
    };
    (z * 16_777_215.0) as i64 - i64::from(bias)
}

/// The coordinates of a unit, and the shadow depth for shadow types; `None` when the unit
/// reads nothing.
pub fn unit_coords(key: &TextureUnitKey, inputs: &FragmentInputs) -> Option<(TexCoord, Option<f32>)> {
    let [u, v] = inputs.texcoord[usize::from(key.coords.min(2))];
    let w = inputs.texcoord0_w;
    let plane = |s, t| TexCoord::Plane { s, t };
    Some(match key.kind {
        UnitKind::Off => return None,
        UnitKind::Tex2d => (plane(u, v), None),
        UnitKind::Projection => (plane(u / w, v / w), None),
        UnitKind::Shadow2d { orthographic } => {
            let c = if orthographic { plane(u, v) } else { plane(u / w, v / w) };
            (c, Some(w.abs()))
        }
        UnitKind::Cube | UnitKind::ShadowCube => {
            let (face, s, t, z) = cube_coords(u, v, w);
            (TexCoord::Cube { face, s, t }, key.kind.is_shadow().then_some(z))
        }
    })
}

/// The colour unit `unit` gives the combiners.
pub fn unit_color(
    unit: usize,
    key: &TextureUnitKey,
    uniforms: &FragmentUniforms,
    inputs: &FragmentInputs,
    sampler: &mut (impl TexelSampler + ?Sized),
) -> Rgba {
    let Some((coord, shadow_z)) = unit_coords(key, inputs) else {
        return [0; 4];
    };
    let texel = sampler.sample(TexelRequest { unit, coord, shadow: shadow_z.is_some() });
    match shadow_z {
        None => texel,
        Some(z) => {
            let i = decisions::shadow_compare(texel, shadow_depth(z, uniforms.shadow_bias));
            [i; 4]
        }
    }
}

//! Steps 6 and 7: the shadow-render mode and the alpha test (facts 6.4, 6.5).

use crate::regs::layouts::CompareFunc;

use super::decisions;
use super::{FragmentUniforms, Rgba};

/// The alpha test: `alpha FUNC reference` on bytes (facts 6.5).
pub fn alpha_test(func: CompareFunc, alpha: u8, reference: u8) -> bool {
    use CompareFunc::*;
    match func {
        Never => false,
        Always | Other(_) => true,
        Equal => alpha == reference,
        NotEqual => alpha != reference,
        Less => alpha < reference,
        LessEqual => alpha <= reference,
        Greater => alpha > reference,
        GreaterEqual => alpha >= reference,
    }
}

/// What a fragment in shadow-render mode writes: its 24-bit depth and the combiner's green
/// channel (facts 6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShadowWrite {
    /// trunc(depth * 0xFFFFFF).
    pub depth: u32,
    pub intensity: u8,
}

impl ShadowWrite {
    /// The write of a fragment with depth in [0, 1] and combiner output `color`.
    pub fn new(depth: f32, color: Rgba) -> ShadowWrite {
        ShadowWrite { depth: (decisions::clamp01(depth) * 16_777_215.0) as u32, intensity: color[1] }
    }
}

/// The shadow-map texel after a shadow write over `dst` (stored bytes: R = intensity,
/// G, B, A = depth bits 0-7, 8-15, 16-23; facts 6.3, 6.4).
pub fn shadow_update(dst: Rgba, write: ShadowWrite, uniforms: &FragmentUniforms) -> Rgba {
    let z_ref = (u32::from(dst[3]) << 16) | (u32::from(dst[2]) << 8) | u32::from(dst[1]);
    let d = write.depth;
    if d >= z_ref {
        return dst;
    }
    if write.intensity == 0 {
        return [dst[0], d as u8, (d >> 8) as u8, (d >> 16) as u8];
    }
    let s = decisions::shadow_penumbra(write.intensity, d, z_ref, uniforms.shadow_constant, uniforms.shadow_linear);
    if s < dst[0] {
        [s, dst[1], dst[2], dst[3]]
    } else {
        dst
    }
}

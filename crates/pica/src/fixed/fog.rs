//! Step 2 (the fragment depth) and step 8 (fog, gas) of the pipeline (facts 4).

use super::decisions;
use super::key::FogKey;
use super::{FragmentUniforms, Rgba};

/// The fragment depth in [0, 1] (facts 4.1): `z/w * DEPTHMAP_SCALE + DEPTHMAP_OFFSET`, times
/// w when W-buffering, then clamped (decision D6 for NaN).
pub fn fragment_depth(w_buffer: bool, uniforms: &FragmentUniforms, z_over_w: f32, w: f32) -> f32 {
    let mut depth = z_over_w * uniforms.depth_scale + uniforms.depth_offset;
    if w_buffer {
        depth *= w;
    }
    decisions::clamp01(depth)
}

/// The fog factor for a depth in [0, 1]: the weight of the fragment colour (facts 4.1).
pub fn fog_factor(z_flip: bool, lut: &[u32; 128], depth: f32) -> f32 {
    let index = if z_flip { (1.0 - depth) * 128.0 } else { depth * 128.0 };
    // NaN (an unclamped NaN depth) reads entry 0.
    let i = if index >= 127.0 {
        127.0
    } else if index > 0.0 {
        index.floor()
    } else {
        0.0
    };
    let f = index - i;
    let (value, delta) = decisions::fog_entry(lut[i as usize]);
    decisions::clamp01(value + delta * f)
}

/// Fog or gas on the combiner output. Fog changes R, G, B only (HW, citra#1875).
pub fn apply(key: FogKey, uniforms: &FragmentUniforms, depth: f32, color: Rgba) -> Rgba {
    match key {
        FogKey::Off => color,
        FogKey::Gas if decisions::GAS_PASSES_THROUGH => color,
        // Azahar's shader: gas writes (0, 0, 0, 0).
        FogKey::Gas => [0; 4],
        FogKey::Fog { z_flip } => {
            let depth = if decisions::FOG_USES_CLAMPED_DEPTH { decisions::clamp01(depth) } else { depth };
            let f = fog_factor(z_flip, &uniforms.fog_lut, depth);
            let mut out = color;
            for ch in 0..3 {
                let c = f * f32::from(color[ch]) + (1.0 - f) * f32::from(uniforms.fog_color[ch]);
                out[ch] = decisions::fog_byte(c);
            }
            out
        }
    }
}

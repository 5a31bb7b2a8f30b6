//! The TEV key: exactly the state that changes a material's generated fragment code.
//!
//! Everything a register holds as a *value* (TEV colour and konst registers, indirect matrix
//! entries and scales, alpha-test references, fog parameters and colour, z-texture bias and
//! type, the constant alpha value) is a uniform and stays out of the key; what selects
//! *operations* (stage count, inputs, ops, bias, scale, clamp, destinations, swap tables, konst
//! selectors, texture maps and coordinates, indirect settings, alpha-test functions and logic,
//! fog function, projection and range adjustment, z-texture op, dither, constant alpha enable,
//! RGBA6 format) is in it. The rule follows Dolphin's pixel shader UID (docs/design.md,
//! "Models to learn from").
//!
//! Fields are normalised where the state cannot change the code: texture coordinates are
//! resolved against the texgen count (more-facts §2.1), a disabled texture keeps no map or swap
//! table, indirect settings of a stage that has no indirect stage keep only wrap and
//! add-previous, and `lb_utclod` (LOD only) is dropped. So two materials differing only in
//! uniform values or in dead fields have equal keys, and the translator, a pure function of the
//! key, writes byte-identical modules for them.
//!
//! ```
//! use gx::key::TevKey;
//! let mut a = gx::TevState::default();
//! let mut b = a.clone();
//! b.konst_regs[0] = [10, 20, 30, 40]; // a uniform
//! b.alpha_test.ref0 = 99; // a uniform
//! assert_eq!(TevKey::new(&a), TevKey::new(&b));
//! a.color_env[0].op = 1; // code
//! assert_ne!(TevKey::new(&a), TevKey::new(&b));
//! ```

use serde::Serialize;

use crate::bp::TevState;
use crate::regs::{AlphaCombiner, ColorCombiner, TevStageIndirect};

/// Most TEV stages.
pub const MAX_STAGES: usize = 16;
/// Most indirect stages.
pub const MAX_IND_STAGES: usize = 4;
/// Texture maps (bindings) a material can read.
pub const TEXMAPS: usize = 8;

/// The code-relevant settings of one combiner (colour or alpha): inputs a, b, c, d, bias (3 =
/// compare), op, clamp, scale and destination.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct CombinerKey {
    /// Inputs a, b, c, d (colour: 0-15, alpha: 0-7).
    pub inputs: [u8; 4],
    /// Bias; 3 selects compare mode.
    pub bias: u8,
    /// ADD/SUB, or GT/EQ in compare mode.
    pub op: u8,
    /// Clamp to [0, 255].
    pub clamp: bool,
    /// Scale, or the compare width.
    pub scale: u8,
    /// Destination register.
    pub dest: u8,
}

impl CombinerKey {
    fn color(c: &ColorCombiner) -> Self {
        Self { inputs: [c.a, c.b, c.c, c.d], bias: c.bias, op: c.op, clamp: c.clamp, scale: c.scale, dest: c.dest }
    }
    fn alpha(a: &AlphaCombiner) -> Self {
        Self { inputs: [a.a, a.b, a.c, a.d], bias: a.bias, op: a.op, clamp: a.clamp, scale: a.scale, dest: a.dest }
    }
}

/// The indirect settings of one TEV stage that change code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct StageIndKey {
    /// Whether the stage's indirect stage exists (`bt` below genMode's indirect count); when not,
    /// only `sw`, `tw` and `add_prev` matter and the rest is zero.
    pub active: bool,
    /// Indirect stage read.
    pub bt: u8,
    /// Format (ITF_8, 5, 4, 3).
    pub fmt: u8,
    /// Bias enables (S, T, U bits).
    pub bias: u8,
    /// Bump-alpha select.
    pub bs: u8,
    /// Matrix index (0 off, 1-3 matrix 0-2).
    pub mtx_index: u8,
    /// Matrix type (static, dynamic S, dynamic T, invalid).
    pub mtx_id: u8,
    /// Wrap of the regular S coordinate.
    pub sw: u8,
    /// Wrap of the regular T coordinate.
    pub tw: u8,
    /// Add the previous stage's coordinate.
    pub add_prev: bool,
}

impl StageIndKey {
    fn new(t: &TevStageIndirect, num_ind: usize) -> Self {
        // Wrap 7 behaves as 6 (docs/gx-decisions.md), so both give the same code.
        let (sw, tw) = (t.sw.min(6), t.tw.min(6));
        if (t.bt as usize) < num_ind {
            Self {
                active: true,
                bt: t.bt,
                fmt: t.fmt,
                bias: t.bias,
                bs: t.bs,
                mtx_index: t.mtx_index,
                mtx_id: if t.mtx_index == 0 { 0 } else { t.mtx_id },
                sw,
                tw,
                add_prev: t.fb_addprev,
            }
        } else {
            Self { sw, tw, add_prev: t.fb_addprev, ..Default::default() }
        }
    }
}

/// One TEV stage in the key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct StageKey {
    /// The regular texture coordinate the stage reads, resolved (`None`: no texgens, reads 0).
    pub texcoord: Option<u8>,
    /// Texture enable.
    pub tex_enable: bool,
    /// Texture map sampled (0 when the texture is disabled).
    pub texmap: u8,
    /// Rasterized colour channel; the invalid codes 2-4 are stored as 7 (zero), which they equal.
    pub colorchan: u8,
    /// Colour combiner.
    pub color: CombinerKey,
    /// Alpha combiner.
    pub alpha: CombinerKey,
    /// Konst colour selector.
    pub kcsel: u8,
    /// Konst alpha selector.
    pub kasel: u8,
    /// Swap table applied to the rasterized colour (source channel per R, G, B, A).
    pub ras_swap: [u8; 4],
    /// Swap table applied to the texel (identity when the texture is disabled).
    pub tex_swap: [u8; 4],
    /// Indirect settings.
    pub ind: StageIndKey,
}

/// One indirect stage in the key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct IndStageKey {
    /// Texture map sampled.
    pub texmap: u8,
    /// Texture coordinate, resolved (`None`: no texgens).
    pub texcoord: Option<u8>,
    /// Right shift of S (RAS1_SS).
    pub ss: u8,
    /// Right shift of T.
    pub ts: u8,
}

/// The alpha test's functions and logic (the references are uniforms).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct AlphaTestKey {
    /// Function of compare 0.
    pub comp0: u8,
    /// Function of compare 1.
    pub comp1: u8,
    /// AND, OR, XOR, XNOR.
    pub logic: u8,
}

/// The steps after the TEV that change code (their parameters are uniforms).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct PostKey {
    /// Fog function as run (`gx::pixel::fog_function`: 0 off, 2 linear, 4-7 the curves).
    pub fog: u8,
    /// Orthographic fog (false with fog off).
    pub fog_ortho: bool,
    /// Fog range adjustment (false with fog off).
    pub fog_range: bool,
    /// Z-texture op: 0 off, 1 add, 2 replace (3 is stored as 2, which it equals).
    pub ztex_op: u8,
    /// EFB format RGBA6_Z24 (6-bit channels).
    pub rgba6: bool,
    /// Dither (only with `rgba6`).
    pub dither: bool,
    /// Constant alpha replaces the stored alpha.
    pub const_alpha: bool,
}

impl PostKey {
    /// The post-TEV key of a state.
    pub fn new(state: &TevState) -> Self {
        let p = crate::pixel::PostParams::new(state);
        Self {
            fog: p.fog_fn,
            fog_ortho: p.fog_ortho,
            fog_range: p.fog_range,
            ztex_op: p.ztex_op,
            rgba6: p.rgba6,
            dither: p.dither,
            const_alpha: p.const_alpha.is_some(),
        }
    }
}

/// The TEV key of a material (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct TevKey {
    /// Texture coordinate generators (0-8): the inputs the module declares.
    pub num_texgens: u8,
    /// The TEV stages (1-16).
    pub stages: Vec<StageKey>,
    /// The indirect stages (0-4).
    pub ind: Vec<IndStageKey>,
    /// The alpha test.
    pub alpha_test: AlphaTestKey,
    /// Z texture, fog, dither, constant alpha and pixel format.
    pub post: PostKey,
}

/// The texcoord a stage or indirect stage reads: past numtexgens it reads texcoord 0; with no
/// texgens there is none (more-facts §2.1, as `indirect`).
fn resolve(num_texgens: u8, tc: u8) -> Option<u8> {
    match num_texgens.min(8) {
        0 => None,
        n if tc < n => Some(tc),
        _ => Some(0),
    }
}

impl TevKey {
    /// The key of a decoded state.
    pub fn new(state: &TevState) -> Self {
        let tg = state.gen_mode.num_texgens.min(8);
        let num_ind = (state.gen_mode.num_indstages as usize).min(MAX_IND_STAGES);
        let stages = (0..state.num_stages())
            .map(|i| {
                let v = state.stage(i);
                StageKey {
                    texcoord: resolve(tg, v.texcoord),
                    tex_enable: v.tex_enable,
                    texmap: if v.tex_enable { v.texmap } else { 0 },
                    colorchan: if (2..=4).contains(&v.colorchan) { 7 } else { v.colorchan },
                    color: CombinerKey::color(&v.color),
                    alpha: CombinerKey::alpha(&v.alpha),
                    kcsel: v.kcsel,
                    kasel: v.kasel,
                    ras_swap: state.swap_table(v.alpha.rswap as usize),
                    tex_swap: if v.tex_enable { state.swap_table(v.alpha.tswap as usize) } else { [0, 1, 2, 3] },
                    ind: StageIndKey::new(&v.ind, num_ind),
                }
            })
            .collect();
        let ind = (0..num_ind)
            .map(|n| {
                let (bi, bc) = state.ind_ref(n);
                let (ss, ts) = state.ind_scale(n);
                IndStageKey { texmap: bi, texcoord: resolve(tg, bc), ss, ts }
            })
            .collect();
        let t = &state.alpha_test;
        Self {
            num_texgens: tg,
            stages,
            ind,
            alpha_test: AlphaTestKey { comp0: t.comp0, comp1: t.comp1, logic: t.logic },
            post: PostKey::new(state),
        }
    }

    /// A stable byte encoding of the key (the same bytes on every machine and build), for
    /// hashing and caching.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = vec![self.num_texgens, self.stages.len() as u8, self.ind.len() as u8];
        let a = &self.alpha_test;
        b.extend([a.comp0, a.comp1, a.logic]);
        let comb = |b: &mut Vec<u8>, c: &CombinerKey| {
            b.extend(c.inputs);
            b.extend([c.bias, c.op, c.clamp as u8, c.scale, c.dest]);
        };
        for s in &self.stages {
            b.extend([s.texcoord.map_or(0xFF, |t| t), s.tex_enable as u8, s.texmap, s.colorchan, s.kcsel, s.kasel]);
            comb(&mut b, &s.color);
            comb(&mut b, &s.alpha);
            b.extend(s.ras_swap);
            b.extend(s.tex_swap);
            let i = &s.ind;
            b.extend([i.active as u8, i.bt, i.fmt, i.bias, i.bs, i.mtx_index, i.mtx_id, i.sw, i.tw, i.add_prev as u8]);
        }
        for n in &self.ind {
            b.extend([n.texmap, n.texcoord.map_or(0xFF, |t| t), n.ss, n.ts]);
        }
        let p = &self.post;
        b.extend([p.fog, p.fog_ortho as u8, p.fog_range as u8, p.ztex_op, p.rgba6 as u8, p.dither as u8]);
        b.push(p.const_alpha as u8);
        b
    }

    /// A 64-bit FNV-1a hash of [`TevKey::to_bytes`]: the key's name in listings and caches.
    pub fn hash64(&self) -> u64 {
        fnv1a(&self.to_bytes())
    }

    /// Texture maps the code samples (stage textures and indirect textures).
    pub fn texmaps_used(&self) -> [bool; TEXMAPS] {
        let mut used = [false; TEXMAPS];
        for s in self.stages.iter().filter(|s| s.tex_enable) {
            used[s.texmap as usize & 7] = true;
        }
        for n in &self.ind {
            used[n.texmap as usize & 7] = true;
        }
        used
    }
}

/// 64-bit FNV-1a (a stable, dependency-free hash for names).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_fields_are_normalised() {
        let mut a = TevState::default();
        a.tev_order[0].texmap0 = 5; // texture disabled: the map is dead
        a.tev_ind[0].lb_utclod = true;
        a.tev_ind[0].fmt = 2; // no indirect stages: dead
        a.ind_mtx[1].a.row0 = 77;
        assert_eq!(TevKey::new(&a), TevKey::new(&TevState::default()));
        a.tev_order[0].enable0 = true;
        assert_ne!(TevKey::new(&a), TevKey::new(&TevState::default()));
    }

    #[test]
    fn bytes_distinguish_keys() {
        let a = TevState::default();
        let mut b = a.clone();
        b.alpha_env[0].dest = 2;
        assert_ne!(TevKey::new(&a).to_bytes(), TevKey::new(&b).to_bytes());
        assert_ne!(TevKey::new(&a).hash64(), TevKey::new(&b).hash64());
    }
}

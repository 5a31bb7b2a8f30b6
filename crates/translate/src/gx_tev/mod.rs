//! Hollywood TEV materials to fragment shaders with integer math exactly as the CPU reference
//! (`gx::tev`, `gx::indirect`, `gx::sample`).
//!
//! The input is a [`gx::key::TevKey`]: the module is a pure function of it, so materials with the
//! same key get byte-identical modules; register values (TEV colour and konst registers,
//! indirect matrices, alpha-test references) are read from the uniform block
//! ([`UniformBlock`]). The binding ABI is in docs/abi.md, "Hollywood TEV".
//!
//! ```
//! use gx::key::TevKey;
//! use translate::{gx_tev, Target};
//! let state = gx::TevState::default();
//! let t = gx_tev::fragment(&TevKey::new(&state))?;
//! assert_eq!(t.spirv()?[0], 0x0723_0203);
//! let block = gx_tev::UniformBlock::from_state(&state).to_bytes();
//! assert_eq!(block.len(), gx_tev::UNIFORM_SIZE as usize);
//! # Ok::<(), translate::Error>(())
//! ```

mod coords;
mod gen;
mod ir;
mod post;

use gx::key::TevKey;
use gx::TevState;
use naga::valid::ModuleInfo;
use naga::{Module, ShaderStage};

use crate::{backend, Error, Output, Precision, Target};

/// The fragment entry point's name.
pub const ENTRY: &str = "main";
/// The name of the function that holds the TEV math (called by every entry point).
pub const TEV_FN: &str = "tev";
/// The compute entry point of [`Options::compute_wrapper`].
pub const COMPUTE_ENTRY: &str = "tev_compute";
/// Workgroup size of the compute entry point.
pub const COMPUTE_WORKGROUP: u32 = 64;
/// Binding of the compute entry point's input records (read-only storage).
pub const COMPUTE_IN_BINDING: u32 = 9;
/// Binding of the compute entry point's results (read-write storage).
pub const COMPUTE_OUT_BINDING: u32 = 10;
/// Binding of the uniform block.
pub const UNIFORM_BINDING: u32 = 0;
/// Binding of texture map 0 (map k is at `TEXMAP_BINDING + k`).
pub const TEXMAP_BINDING: u32 = 1;
/// Location of texture coordinate 0 (coordinate k is at location k).
pub const TEXCOORD_LOCATION: u32 = 0;
/// Location of rasterized colour channel 0 (channel 1 is at the next location).
pub const COLOR_LOCATION: u32 = 8;
/// Byte offset of `konst` in the uniform block.
pub const KONST_OFFSET: u32 = 64;
/// Byte offset of `ind_mtx` in the uniform block.
pub const IND_MTX_OFFSET: u32 = 128;
/// Byte offset of `alpha_ref` in the uniform block.
pub const ALPHA_REF_OFFSET: u32 = 224;
/// Byte offset of `fog` in the uniform block.
pub const FOG_OFFSET: u32 = 240;
/// Byte offset of `fog_color` in the uniform block.
pub const FOG_COLOR_OFFSET: u32 = 256;
/// Byte offset of `ztex` in the uniform block.
pub const ZTEX_OFFSET: u32 = 272;
/// Byte offset of `misc` in the uniform block.
pub const MISC_OFFSET: u32 = 288;
/// Byte offset of `fog_k` in the uniform block.
pub const FOG_K_OFFSET: u32 = 304;
/// Byte offset of `fog_curve` in the uniform block.
pub const FOG_CURVE_OFFSET: u32 = 352;
/// Size of the uniform block in bytes.
pub const UNIFORM_SIZE: u32 = 1392;

/// The uniform block of a TEV module (docs/abi.md, "Hollywood TEV"): std140, all `vec4<i32>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UniformBlock {
    /// Initial PREV, C0, C1, C2 (RGBA, signed 11-bit).
    pub regs: [[i32; 4]; 4],
    /// K0-K3 (RGBA).
    pub konst: [[i32; 4]; 4],
    /// Indirect matrix k, row r at `2k + r`: the three s0.10 entries and, in `w`, the shift
    /// `17 - scale` (right when positive, left when negative).
    pub ind_mtx: [[i32; 4]; 6],
    /// The alpha-test references 0 and 1 in `x` and `y`.
    pub alpha_ref: [i32; 4],
    /// Fog A (fixed point, `gx::pixel::FogParams`), B magnitude, B shift, C in 1/256.
    pub fog: [i32; 4],
    /// Fog colour RGB and, in `w`, the constant alpha.
    pub fog_color: [i32; 4],
    /// Z-texture weights applied to the unswapped RGBA texel.
    pub ztex: [i32; 4],
    /// Z-texture bias, range-adjust centre (`center - 342`), viewport half-width, 0.
    pub misc: [i32; 4],
    /// The ten range-adjust factors k in 1/256 (`k[j]` at `[j / 4][j % 4]`).
    pub fog_k: [[i32; 4]; 3],
    /// The fog curve at factors 0-256 (`curve[i]` at `[i / 4][i % 4]`).
    pub fog_curve: Vec<[i32; 4]>,
}

impl UniformBlock {
    /// The uniform values of a state.
    pub fn from_state(state: &TevState) -> Self {
        let widen = |c: [i16; 4]| c.map(i32::from);
        let mut ind_mtx = [[0; 4]; 6];
        for (k, m) in state.ind_mtx.iter().enumerate() {
            let e = m.entries();
            let shift = 17 - m.scale() as i32;
            for r in 0..2 {
                ind_mtx[2 * k + r] = [e[r][0] as i32, e[r][1] as i32, e[r][2] as i32, shift];
            }
        }
        let post = gx::pixel::PostParams::new(state);
        let f = &post.fog;
        let mut fog_k = [[0; 4]; 3];
        for (j, k) in f.k.iter().enumerate() {
            fog_k[j / 4][j % 4] = *k;
        }
        let mut fog_curve = vec![[0; 4]; 65];
        for (i, v) in post.fog_curve.iter().enumerate() {
            fog_curve[i / 4][i % 4] = *v as i32;
        }
        let c = f.color.map(i32::from);
        Self {
            regs: state.color_regs.map(widen),
            konst: state.konst_regs.map(widen),
            ind_mtx,
            alpha_ref: [state.alpha_test.ref0 as i32, state.alpha_test.ref1 as i32, 0, 0],
            fog: [f.a, f.b_mag, f.b_shift as i32, f.c],
            fog_color: [c[0], c[1], c[2], post.const_alpha.unwrap_or(0) as i32],
            ztex: post.ztex_weights,
            misc: [post.ztex_bias as i32, f.range_center, f.half_width, 0],
            fog_k,
            fog_curve,
        }
    }

    /// The block's bytes (little-endian).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(UNIFORM_SIZE as usize);
        let singles = [&self.alpha_ref, &self.fog, &self.fog_color, &self.ztex, &self.misc];
        let vectors = self.regs.iter().chain(&self.konst).chain(&self.ind_mtx).chain(singles);
        for v in vectors.chain(&self.fog_k).chain(&self.fog_curve) {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }
}

/// A validated TEV fragment module.
#[derive(Debug)]
pub struct Translation {
    module: Module,
    info: ModuleInfo,
    texmaps: [bool; gx::key::TEXMAPS],
}

impl Translation {
    /// The validated module.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The texture maps the module declares and samples (binding `TEXMAP_BINDING + k`).
    pub fn texmaps(&self) -> [bool; gx::key::TEXMAPS] {
        self.texmaps
    }

    /// SPIR-V 1.3 words. Written without the float post-passes (`NoContraction`,
    /// `SignedZeroInfNanPreserve`): the module's float work is exact for finite inputs
    /// (scaling by powers of two, `floor`, `round`, `clamp`; no sum a driver could fuse), so they
    /// would change nothing and cost a pass over the words each. Integer division is written
    /// without naga's zero-divisor wrappers: every integer divisor in the module is at least 1
    /// in the shader itself (the fog's `max(.., 1)` divisors, the range fog's half width
    /// clamped to 1 as `gx::pixel::FogParams` does) or a texture's size (at least 1 for any
    /// bound image), so the checks could never fire.
    ///
    /// # Errors
    /// [`Error::Backend`] when naga's writer fails.
    pub fn spirv(&self) -> Result<Vec<u32>, Error> {
        backend::spirv_with(&self.module, &self.info, Precision::Fast, backend::IntDivision::Unchecked)
    }

    /// Writes `target`.
    ///
    /// # Errors
    /// [`Error::Backend`] when the writer fails.
    pub fn write(&self, target: Target) -> Result<Output, Error> {
        backend::write_validated(&self.module, &self.info, target, (ShaderStage::Fragment, ENTRY), Precision::Compat)
    }
}

/// Translation options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// Adds the compute entry point [`COMPUTE_ENTRY`] beside the fragment entry point: the same
    /// TEV function over records of a storage buffer (device checks of many keys; docs/abi.md).
    pub compute_wrapper: bool,
}

/// Translates a TEV key to a fragment module.
///
/// # Errors
/// [`Error::Validation`] if the module does not validate (a bug in the translator).
pub fn fragment(key: &TevKey) -> Result<Translation, Error> {
    translate(key, &Options::default())
}

/// Translates a TEV key with options.
///
/// # Errors
/// As [`fragment`].
pub fn translate(key: &TevKey, options: &Options) -> Result<Translation, Error> {
    let module = gen::module(key, options.compute_wrapper);
    let info = backend::validate(&module)?;
    Ok(Translation { module, info, texmaps: key.texmaps_used() })
}

/// One target's bytes of a TEV translation, with the texture maps it samples.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// What [`crate::Output::to_bytes`] gives for the target.
    pub bytes: Vec<u8>,
    /// The texture maps the module declares and samples (binding `TEXMAP_BINDING + k`).
    pub texmaps: [bool; gx::key::TEXMAPS],
    /// Whether it came from the cache.
    pub hit: bool,
}

/// The cache key of a TEV translation: the key's stable bytes, the options and the target.
pub fn cache_key(key: &TevKey, options: &Options, target: Target) -> crate::cache::Key {
    crate::cache::Key::new("gx-tev")
        .part(&key.to_bytes())
        .part(&[options.compute_wrapper as u8])
        .part(target.name().as_bytes())
}

/// Translates a TEV key and writes `target`, through `cache` when there is one: a hit reads the
/// bytes from disk and translates nothing.
///
/// ```
/// use translate::{gx_tev, Target};
/// let key = gx::key::TevKey::new(&gx::TevState::default());
/// let out = gx_tev::compile(None, &key, &gx_tev::Options::default(), Target::Wgsl)?;
/// assert!(String::from_utf8(out.bytes).unwrap().contains("@fragment"));
/// # Ok::<(), translate::Error>(())
/// ```
///
/// # Errors
/// As [`translate`] and [`Translation::write`].
pub fn compile(
    cache: Option<&crate::cache::Cache>,
    key: &TevKey,
    options: &Options,
    target: Target,
) -> Result<Compiled, Error> {
    let make = || -> Result<Compiled, Error> {
        let t = translate(key, options)?;
        Ok(Compiled { bytes: t.write(target)?.to_bytes(), texmaps: t.texmaps(), hit: false })
    };
    let Some(cache) = cache else { return make() };
    let cache_key = cache_key(key, options, target);
    if let Some(value) = cache.get(&cache_key) {
        if let Some((&mask, bytes)) = value.split_first() {
            let texmaps = std::array::from_fn(|k| mask & (1 << k) != 0);
            return Ok(Compiled { bytes: bytes.to_vec(), texmaps, hit: true });
        }
    }
    let out = make()?;
    let mask = out.texmaps.iter().enumerate().fold(0u8, |m, (k, &used)| m | ((used as u8) << k));
    let mut value = vec![mask];
    value.extend_from_slice(&out.bytes);
    let _ = cache.put(&cache_key, &value);
    Ok(out)
}

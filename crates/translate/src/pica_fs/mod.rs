//! PICA200 fixed-function fragment pipelines to fragment shaders, integer-exact where the CPU
//! reference (`pica::fixed`) is integer.
//!
//! The input is a [`pica::fixed::FragmentKey`] and an [`InputMap`] (which vertex-shader output
//! register and component carries each interpolated attribute): the module is a pure function of
//! the two, so states with the same key and map get byte-identical modules. Everything else the
//! pipeline reads (constant colours, the buffer colour, the alpha reference, the fog colour and
//! LUT, depth scale and offset, shadow bias, wrap modes and border colours) comes from the
//! uniform block ([`UniformBlock`]). The binding ABI is in docs/abi.md, "PICA200 fragment
//! pipeline"; the arithmetic of every step follows `pica::fixed` and its decisions.
//!
//! ```
//! use pica::fixed::FragmentKey;
//! use translate::{pica_fs, Target};
//! let key = FragmentKey::default();
//! let t = pica_fs::fragment(&key, &pica_fs::InputMap::default())?;
//! assert_eq!(t.spirv()?[0], 0x0723_0203);
//! let block = pica_fs::UniformBlock::default().to_bytes();
//! assert_eq!(block.len(), pica_fs::UNIFORM_SIZE as usize);
//! # Ok::<(), translate::Error>(())
//! ```

mod gen;
pub mod lighting;
mod proctex;
mod stages;
mod values;

use naga::valid::ModuleInfo;
use naga::{Module, ShaderStage};
use pica::fixed::lighting::LutId;
use pica::fixed::{decisions, lut, FragmentKey, FragmentResult, FragmentUniforms, LightingUniforms, ProcTexUniforms};
use pica::regs::layouts::{OutputSemantic, TexParam, Wrap};

use crate::{backend, Error, Output, Precision, Target};

/// The fragment entry point's name.
pub const ENTRY: &str = "main";
/// The function that holds the pipeline (called by every entry point).
pub const PIPELINE_FN: &str = "pica_fragment";
/// The compute entry point of [`Options::compute_wrapper`].
pub const COMPUTE_ENTRY: &str = "pica_fragment_compute";
/// Workgroup size of the compute entry point.
pub const COMPUTE_WORKGROUP: u32 = 64;
/// Binding of the compute entry point's input records (read-only storage). The bindings are
/// contiguous (0-5): with a gap in the binding numbers (storage at 9 and 10 after textures at
/// 1-3) lavapipe (Mesa 22.3) dropped every storage write of the compute stage without an error.
pub const COMPUTE_IN_BINDING: u32 = 4;
/// Binding of the compute entry point's results (read-write storage).
pub const COMPUTE_OUT_BINDING: u32 = 5;
/// vec4s per input record of the compute entry point.
pub const RECORD_VEC4S: u32 = 6;
/// Binding of the uniform block.
pub const UNIFORM_BINDING: u32 = 0;
/// Binding of texture unit 0 (unit u is at `TEXTURE_BINDING + u`).
pub const TEXTURE_BINDING: u32 = 1;
/// Byte offsets of the uniform block's members.
pub const BUFFER_COLOR_OFFSET: u32 = 96;
pub const PARAMS_OFFSET: u32 = 112;
pub const FOG_COLOR_OFFSET: u32 = 128;
pub const DEPTH_OFFSET: u32 = 144;
pub const SAMPLERS_OFFSET: u32 = 160;
pub const FOG_LUT_OFFSET: u32 = 256;
/// The procedural texture's parameters: noise (2304), frequencies and LOD scale (2320), LOD
/// bounds (2336), the eight levels (2352).
pub const PROCTEX_OFFSET: u32 = 2304;
pub const PROCTEX_MAP_LUT_OFFSET: u32 = 2480;
pub const PROCTEX_ALPHA_LUT_OFFSET: u32 = 4528;
pub const PROCTEX_COLOR_LUT_OFFSET: u32 = 6576;
pub const PROCTEX_DIFF_LUT_OFFSET: u32 = 10672;
/// Fragment lighting: the global ambient and the LUT scales (3 vec4s), the eight light slots
/// (6 vec4s each), the 22 decoded LUTs (128 vec4s each); docs/abi.md.
pub const LIGHTING_OFFSET: u32 = 14768;
pub const LIGHTING_LIGHTS_OFFSET: u32 = 14816;
pub const LIGHTING_LUTS_OFFSET: u32 = 15584;
/// Size of the uniform block in bytes (under the 64 KiB of a uniform binding).
pub const UNIFORM_SIZE: u32 = 60640;

/// Values of [`ResultWord::kind`]: the three [`FragmentResult`] variants.
pub const KIND_COLOR: u32 = 0;
pub const KIND_DISCARDED: u32 = 1;
pub const KIND_SHADOW: u32 = 2;

/// The pipeline function's result (the compute entry point writes it per fragment):
/// `rgba` = R | G << 8 | B << 16 | A << 24 (colour only), `kind`, `depth` = the bits of the f32
/// depth (colour) or the 24-bit shadow depth (shadow), `intensity` (shadow). Unused words are 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ResultWord {
    pub rgba: u32,
    pub kind: u32,
    pub depth: u32,
    pub intensity: u32,
}

impl ResultWord {
    /// The encoding of a reference result.
    pub fn of(result: &FragmentResult) -> ResultWord {
        match *result {
            FragmentResult::Color { rgba, depth } => {
                ResultWord { rgba: u32::from_le_bytes(rgba), kind: KIND_COLOR, depth: depth.to_bits(), intensity: 0 }
            }
            FragmentResult::Discarded => ResultWord { kind: KIND_DISCARDED, ..Default::default() },
            FragmentResult::Shadow(w) => {
                ResultWord { rgba: 0, kind: KIND_SHADOW, depth: w.depth, intensity: u32::from(w.intensity) }
            }
        }
    }

    /// The four words as the device writes them.
    pub fn words(&self) -> [u32; 4] {
        [self.rgba, self.kind, self.depth, self.intensity]
    }

    /// From the four device words.
    pub fn from_words(w: [u32; 4]) -> ResultWord {
        ResultWord { rgba: w[0], kind: w[1], depth: w[2], intensity: w[3] }
    }
}

/// The interpolated attributes the fragment pipeline reads, as semantic components (the
/// GPUREG_SH_OUTMAP_Oi codes of `OutputSemantic`, facts 0.4 step 1).
pub const SEMANTICS: usize = 0x18;

/// Which vertex-shader output register and component carries each semantic component: the
/// GPUREG_SH_OUTMAP_TOTAL and GPUREG_SH_OUTMAP_O0-O6 registers. A component no register
/// carries reads 0. It changes the fragment entry point's inputs, so it is part of what a
/// module is a function of (beside the key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InputMap {
    /// `slots[semantic]` = (o register, component 0-3).
    pub slots: [Option<(u8, u8)>; SEMANTICS],
}

impl InputMap {
    /// The map of a register file: the first `SH_OUTMAP_TOTAL` (at most 7) output registers;
    /// where two registers name one semantic component, the first wins.
    pub fn from_regs(regs: &[u32]) -> InputMap {
        let reg = |id: usize| regs.get(id).copied().unwrap_or(0);
        let total = (reg(0x04F) & 7).min(7) as u8;
        let mut map = InputMap::default();
        for o in 0..total {
            let word = reg(0x050 + usize::from(o));
            for c in 0..4u8 {
                let sem = ((word >> (8 * c)) & 0x1F) as usize;
                if sem < SEMANTICS && !matches!(OutputSemantic::from_raw(sem as u32), OutputSemantic::Other(_)) {
                    map.slots[sem].get_or_insert((o, c));
                }
            }
        }
        map
    }

    /// The output map of a typical citro3d program: o0 position, o1 colour, o2 texcoord 0 with
    /// its w in z, o3 texcoord 1, o4 texcoord 2, o5 view, o6 normal quaternion.
    pub fn typical() -> InputMap {
        let mut regs = vec![0u32; 0x57];
        regs[0x04F] = 7;
        regs[0x050..0x057].copy_from_slice(&[
            0x0302_0100,
            0x0B0A_0908,
            0x1F10_0D0C,
            0x1F1F_0F0E,
            0x1F1F_1716,
            0x1F14_1312,
            0x0706_0504,
        ]);
        InputMap::from_regs(&regs)
    }

    /// The map of a list of (semantic component, o register, component).
    pub fn from_list(list: &[(OutputSemantic, u8, u8)]) -> InputMap {
        let mut map = InputMap::default();
        for &(sem, reg, comp) in list {
            let s = sem.raw() as usize;
            if s < SEMANTICS {
                map.slots[s].get_or_insert((reg & 15, comp & 3));
            }
        }
        map
    }

    /// The o registers read, ascending.
    pub fn registers(&self) -> Vec<u8> {
        let mut r: Vec<u8> = self.slots.iter().flatten().map(|&(reg, _)| reg).collect();
        r.sort_unstable();
        r.dedup();
        r
    }
}

/// The uniform block of a fragment module (docs/abi.md, "PICA200 fragment pipeline"): std140.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformBlock {
    /// TEXENVi_COLOR, RGBA bytes.
    pub texenv_constant: [[i32; 4]; 6],
    /// TEXENV_BUFFER_COLOR.
    pub buffer_color: [i32; 4],
    /// (alpha reference, shadow bias, 0, 0).
    pub params: [i32; 4],
    /// The fog colour (R, G, B, 0).
    pub fog_color: [i32; 4],
    /// (depth scale, depth offset, 0, 0).
    pub depth: [f32; 4],
    /// Per texture unit u: at `2u` (wrap s, wrap t, 0, 0) as the TEXUNITi_PARAM field values, at
    /// `2u + 1` the border colour RGBA.
    pub samplers: [[i32; 4]; 6],
    /// The fog LUT decoded by the reference (decision D7a): (value, delta, 0, 0) per entry, so
    /// the shader does no division.
    pub fog_lut: [[f32; 4]; 128],
    /// The procedural texture (unit 3); the tables decoded by the reference's own functions,
    /// so the shader does no division and reads the exact f32 values the reference does.
    pub proctex: ProcTexBlock,
    /// Fragment lighting.
    pub lighting: LightingBlock,
}

/// Fragment lighting's part of the uniform block (docs/abi.md): the tables decoded on the CPU
/// by `lut::lighting_entry` (decision D18), so the shader does no division and reads the exact
/// f32 values the reference does; SP and DA by slot, so the shader needs no light id.
#[derive(Clone, Debug, PartialEq)]
pub struct LightingBlock {
    /// (global ambient R, G, B, 0), (scale D0, D1, SP, FR), (scale RB, RG, RR, 0).
    pub global: [[f32; 4]; 3],
    /// Per slot s at `6 s`: specular 0, specular 1, diffuse, ambient (R, G, B, 0), (position,
    /// DA bias), (spot direction as stored, DA scale).
    pub lights: [[f32; 4]; 48],
    /// Table t entry i at `128 t + i / 2`, (value, delta) in components `2 (i & 1)` and
    /// `2 (i & 1) + 1`; tables D0, D1, FR, RB, RG, RR, SP of slots 0-7, DA of slots 0-7.
    pub luts: Vec<[f32; 4]>,
}

impl Default for LightingBlock {
    fn default() -> Self {
        LightingBlock {
            global: [[0.0; 4]; 3],
            lights: [[0.0; 4]; 48],
            luts: vec![[0.0; 4]; (lighting::LUT_TABLES * lighting::LUT_VEC4S) as usize],
        }
    }
}

impl LightingBlock {
    /// The block of the reference's lighting uniforms.
    pub fn from_uniforms(u: &LightingUniforms) -> LightingBlock {
        let mut b = LightingBlock::default();
        let s = u.lut_scale;
        b.global = [[u.ambient[0], u.ambient[1], u.ambient[2], 0.0], [s[0], s[1], s[2], s[3]], [s[4], s[5], s[6], 0.0]];
        let v3 = |v: [f32; 3], w: f32| [v[0], v[1], v[2], w];
        for (slot, l) in u.lights.iter().enumerate() {
            let at = 6 * slot;
            b.lights[at] = v3(l.specular0, 0.0);
            b.lights[at + 1] = v3(l.specular1, 0.0);
            b.lights[at + 2] = v3(l.diffuse, 0.0);
            b.lights[at + 3] = v3(l.ambient, 0.0);
            b.lights[at + 4] = v3(l.position, l.da_bias);
            b.lights[at + 5] = v3(l.spot_direction, l.da_scale);
        }
        let mut put = |t: u32, table: &[u32; lut::LIGHTING_LUT_ENTRIES]| {
            for (i, &raw) in table.iter().enumerate() {
                let (value, delta) = lut::lighting_entry(raw);
                let e = &mut b.luts[(t * lighting::LUT_VEC4S) as usize + i / 2];
                e[2 * (i & 1)] = value;
                e[2 * (i & 1) + 1] = delta;
            }
        };
        for l in [LutId::D0, LutId::D1, LutId::Fr, LutId::Rb, LutId::Rg, LutId::Rr] {
            put(lighting::shared_table(l), u.table(l.table()));
        }
        for (slot, l) in u.lights.iter().enumerate() {
            let id = usize::from(l.id & 7);
            put(lighting::sp_table(slot as u32), u.table(8 + id));
            put(lighting::da_table(slot as u32), u.table(16 + id));
        }
        b
    }

    fn write(&self, out: &mut Vec<u8>) {
        for v in self.global.iter().chain(&self.lights).chain(&self.luts) {
            v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
    }
}

/// The procedural texture's part of the uniform block (docs/abi.md).
#[derive(Clone, Debug, PartialEq)]
pub struct ProcTexBlock {
    /// (noise amplitude U, V (D24), noise phase U, V).
    pub noise: [f32; 4],
    /// (noise frequency U, V, `|width * bias|` (the f32 product D26's logarithm reads), 0).
    pub params: [f32; 4],
    /// (min LOD, min(max LOD, 7), 0, 0) as f32 (D26's bounds).
    pub lod: [f32; 4],
    /// Per level 0-7: (colour-LUT offset (PROCTEX5, then D25), `max((width >> level) - 1, 0)`,
    /// 0, 0) (D28).
    pub levels: [[u32; 4]; 8],
    /// Entry i: (noise value, noise delta, RGB-map value, RGB-map delta), `lut::proctex_entry`.
    pub map_lut: [[f32; 4]; 128],
    /// Entry i: (alpha-map value, alpha-map delta, 0, 0).
    pub alpha_lut: [[f32; 4]; 128],
    /// Entry i: the colour LUT's R, G, B, A bytes as f32.
    pub color_lut: [[f32; 4]; 256],
    /// Entry i: twice the colour-difference LUT's signed bytes (facts 5.1), as f32.
    pub diff_lut: [[f32; 4]; 256],
}

impl Default for ProcTexBlock {
    fn default() -> Self {
        ProcTexBlock {
            noise: [0.0; 4],
            params: [0.0; 4],
            lod: [0.0; 4],
            levels: [[0; 4]; 8],
            map_lut: [[0.0; 4]; 128],
            alpha_lut: [[0.0; 4]; 128],
            color_lut: [[0.0; 4]; 256],
            diff_lut: [[0.0; 4]; 256],
        }
    }
}

impl ProcTexBlock {
    /// The block of the reference's procedural-texture uniforms.
    pub fn from_uniforms(u: &ProcTexUniforms) -> ProcTexBlock {
        let luts = &u.luts;
        let entry = lut::proctex_entry;
        ProcTexBlock {
            noise: [u.noise_amplitude[0], u.noise_amplitude[1], u.noise_phase[0], u.noise_phase[1]],
            params: [u.noise_frequency[0], u.noise_frequency[1], (u.width as f32 * u.lod_bias).abs(), 0.0],
            lod: [u.min_lod as f32, u.max_lod.min(7) as f32, 0.0, 0.0],
            levels: std::array::from_fn(|l| [u32::from(u.offsets[l]), (u.width >> l).saturating_sub(1), 0, 0]),
            map_lut: std::array::from_fn(|i| {
                let ((nv, nd), (rv, rd)) = (entry(luts.noise[i]), entry(luts.rgb_map[i]));
                [nv, nd, rv, rd]
            }),
            alpha_lut: std::array::from_fn(|i| {
                let (v, d) = entry(luts.alpha_map[i]);
                [v, d, 0.0, 0.0]
            }),
            color_lut: std::array::from_fn(|i| luts.color[i].to_le_bytes().map(f32::from)),
            diff_lut: std::array::from_fn(|i| luts.color_diff[i].to_le_bytes().map(|d| 2.0 * f32::from(d as i8))),
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        let f = |out: &mut Vec<u8>, v: &[f32; 4]| v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        for v in [&self.noise, &self.params, &self.lod] {
            f(out, v);
        }
        for v in &self.levels {
            v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        let tables = [&self.map_lut[..], &self.alpha_lut[..], &self.color_lut[..], &self.diff_lut[..]];
        for v in tables.into_iter().flatten() {
            f(out, v);
        }
    }
}

impl Default for UniformBlock {
    fn default() -> Self {
        UniformBlock {
            texenv_constant: [[0; 4]; 6],
            buffer_color: [0; 4],
            params: [0; 4],
            fog_color: [0; 4],
            depth: [0.0; 4],
            samplers: [[0; 4]; 6],
            fog_lut: [[0.0; 4]; 128],
            proctex: ProcTexBlock::default(),
            lighting: LightingBlock::default(),
        }
    }
}

fn wrap_value(w: Wrap) -> i32 {
    w.raw() as i32
}

impl UniformBlock {
    /// The block of the reference's uniforms.
    pub fn from_uniforms(u: &FragmentUniforms) -> UniformBlock {
        let bytes = |c: [u8; 4]| c.map(i32::from);
        let mut samplers = [[0; 4]; 6];
        for (unit, s) in u.samplers.iter().enumerate() {
            let p = TexParam::decode(s.param);
            samplers[2 * unit] = [wrap_value(p.wrap_s), wrap_value(p.wrap_t), 0, 0];
            samplers[2 * unit + 1] = bytes(s.border_color.to_le_bytes());
        }
        UniformBlock {
            texenv_constant: u.texenv_constant.map(bytes),
            buffer_color: bytes(u.buffer_color),
            params: [i32::from(u.alpha_reference), u.shadow_bias as i32, 0, 0],
            fog_color: [i32::from(u.fog_color[0]), i32::from(u.fog_color[1]), i32::from(u.fog_color[2]), 0],
            depth: [u.depth_scale, u.depth_offset, 0.0, 0.0],
            samplers,
            fog_lut: u.fog_lut.map(|raw| {
                let (value, delta) = decisions::fog_entry(raw);
                [value, delta, 0.0, 0.0]
            }),
            proctex: ProcTexBlock::from_uniforms(&u.proctex),
            lighting: LightingBlock::from_uniforms(&u.lighting),
        }
    }

    /// The block's bytes (little-endian).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(UNIFORM_SIZE as usize);
        let ints = self.texenv_constant.iter().chain([&self.buffer_color, &self.params, &self.fog_color]);
        for v in ints {
            v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        self.depth.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        for v in &self.samplers {
            v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        for v in &self.fog_lut {
            v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        }
        self.proctex.write(&mut out);
        self.lighting.write(&mut out);
        out
    }
}

/// How a texture unit is bound: a 2D image, or a six-layer array (the cube faces in
/// `pica::fixed::CubeFace` order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureBinding {
    D2,
    Cube,
}

/// A validated fragment module.
#[derive(Debug)]
pub struct Translation {
    module: Module,
    info: ModuleInfo,
    textures: [Option<TextureBinding>; 3],
}

impl Translation {
    /// The validated module.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The texture units the module declares (binding `TEXTURE_BINDING + u`) and how.
    pub fn textures(&self) -> [Option<TextureBinding>; 3] {
        self.textures
    }

    /// SPIR-V 1.3 words (with `NoContraction` on every float operation: the float steps are
    /// written in the reference's order and must stay so). Integer division is written without
    /// naga's zero-divisor wrappers: the module's integer `/` divides by the constants 255
    /// (decision D1) and 9 (the proctex noise's R1), its `%` by 9 or by a texture's size or
    /// twice it, at least 1 for any bound image (Vulkan: an image's extent is at least 1), so
    /// the checks could never fire.
    ///
    /// # Errors
    /// [`Error::Backend`] when naga's writer fails.
    pub fn spirv(&self) -> Result<Vec<u32>, Error> {
        backend::spirv_with(&self.module, &self.info, Precision::Compat, backend::IntDivision::Unchecked)
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
    /// pipeline function over records of a storage buffer (device checks of many keys).
    pub compute_wrapper: bool,
}

/// Translates a fragment key to a fragment module.
///
/// # Errors
/// [`Error::Validation`] if the module does not validate (a bug in the translator).
pub fn fragment(key: &FragmentKey, inputs: &InputMap) -> Result<Translation, Error> {
    translate(key, inputs, &Options::default())
}

/// Translates a fragment key with options.
///
/// # Errors
/// As [`fragment`].
pub fn translate(key: &FragmentKey, inputs: &InputMap, options: &Options) -> Result<Translation, Error> {
    let (module, textures) = gen::module(key, inputs, options.compute_wrapper);
    let info = backend::validate(&module)?;
    Ok(Translation { module, info, textures })
}

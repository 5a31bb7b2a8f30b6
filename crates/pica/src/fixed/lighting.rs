//! Step 4: fragment lighting (facts 3), giving the primary and secondary fragment colours that
//! TexEnv sources 1 and 2 read.
//!
//! f32 throughout (decision D19), in exactly the order of the code; a translation reproduces it
//! operation for operation, without fused multiply-adds (SPIR-V `NoContraction`):
//! - `dot(a, b) = (a.x * b.x + a.y * b.y) + a.z * b.z`; `normalize(v) = v / sqrt(dot(v, v))`
//!   per component, and a vector of length 0 (or NaN) stays as it is; the quaternion likewise
//!   with the 4D dot product `((x*x + y*y) + z*z) + w*w`;
//! - `rotate(q, v) = v + 2 * cross(q.xyz, cross(q.xyz, v) + q.w * v)` (facts 3.3), with
//!   `cross(a, b) = (a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x)`;
//! - LUT lookups as `lut.rs` says; the scale multiplies the looked-up value;
//! - per light, with `d` the diffuse cosine:
//!   `diffuse += (((diffuse_colour * d) * Sp + ambient_colour) * DA) * SP`,
//!   `specular += ((((spec0 + spec1) * CH) * DA) * SP) * Ss`, where
//!   `spec0 = (D0 * specular0_colour) * G0`, `spec1 = ((D1 * reflect) * specular1_colour) * G1`;
//! - finally `primary.rgb = diffuse + global_ambient`, both colours clamped and truncated to
//!   bytes (D19).

use std::sync::Arc;

use crate::regs::layouts::{BumpMode, LutInput};
use crate::state::LIGHTING_LUTS;

use super::key::reg;
use super::lut::{self, LIGHTING_LUT_ENTRIES};
use super::uniforms::{f16, f20};
use super::{decisions, FragmentInputs, Rgba};

/// Fragment lighting's colours (facts 3.10; TexEnv sources 1 and 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LightingColors {
    pub primary: Rgba,
    pub secondary: Rgba,
}

/// The LUTs with an input selector, in the order of [`LightingKey::luts`] and
/// [`LightingUniforms::lut_scale`] (the 4-bit groups of LUTINPUT_ABS/SELECT/SCALE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LutId {
    D0 = 0,
    D1 = 1,
    Sp = 2,
    Fr = 3,
    Rb = 4,
    Rg = 5,
    Rr = 6,
}

impl LutId {
    pub const ALL: [LutId; 7] = [LutId::D0, LutId::D1, LutId::Sp, LutId::Fr, LutId::Rb, LutId::Rg, LutId::Rr];

    /// The table number (GPUREG_LIGHTING_LUT_INDEX bits 8-12) of the shared LUTs; SP is 8 plus
    /// the light's id.
    pub const fn table(self) -> usize {
        match self {
            LutId::D0 => 0,
            LutId::D1 => 1,
            LutId::Sp => 8,
            LutId::Fr => 3,
            LutId::Rb => 4,
            LutId::Rg => 5,
            LutId::Rr => 6,
        }
    }
}

/// One LUT's code-changing state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LutKey {
    /// The LUT is read: its CONFIG1 enable bit is clear (SP: always; its enables are per light)
    /// and, in the canonical key, the configuration offers it (D21).
    pub enabled: bool,
    /// LUTINPUT_SELECT's field.
    pub input: LutInput,
    /// LUTINPUT_ABS's field is 0: the input is made non-negative (facts 3.6).
    pub abs: bool,
}

impl Default for LutKey {
    fn default() -> Self {
        LutKey { enabled: false, input: LutInput::NH, abs: false }
    }
}

/// One light slot's code-changing state (the light's id is the slot's LIGHT_PERMUTATION entry;
/// the flags below are that id's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LightKey {
    /// LIGHTi_CONFIG bit 0.
    pub directional: bool,
    /// Bit 1.
    pub two_sided: bool,
    /// Bits 2 and 3: the geometric factor multiplies specular 0 / specular 1.
    pub geometric: [bool; 2],
    /// CONFIG1 bit 8+id clear (and SP available, in the canonical key).
    pub spot: bool,
    /// CONFIG1 bit 24+id clear.
    pub distance_attenuation: bool,
    /// CONFIG1 bit id clear (and shadows on, in the canonical key).
    pub shadow: bool,
}

/// Fragment lighting's code-changing state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LightingKey {
    /// Decision D16 (and, in the canonical key, a used TexEnv source reads a lighting colour).
    pub enabled: bool,
    /// NUM_LIGHTS + 1, 1-8.
    pub count: u8,
    /// Per slot; slots from `count` on are default in the canonical key.
    pub lights: [LightKey; 8],
    /// CONFIG0 bits 4-7, the light-environment configuration (decision D21).
    pub config: u8,
    /// D0, D1, SP, FR, RB, RG, RR ([`LutId`] order).
    pub luts: [LutKey; 7],
    /// CONFIG0 bits 2 and 3: Fresnel (and the shadow alpha) go to primary / secondary alpha.
    pub fresnel_primary: bool,
    pub fresnel_secondary: bool,
    /// CONFIG0 bits 28-29, 22-23 and 30 clear.
    pub bump: BumpMode,
    pub bump_unit: u8,
    pub bump_renorm: bool,
    /// CONFIG0 bit 0, 24-25, 16, 17, 18, 19.
    pub shadow: bool,
    pub shadow_unit: u8,
    pub shadow_primary: bool,
    pub shadow_secondary: bool,
    pub shadow_invert: bool,
    pub shadow_alpha: bool,
    /// CONFIG0 bit 27.
    pub clamp_highlights: bool,
}

/// Register ids of fragment lighting.
pub mod ids {
    pub const LIGHTING_ENABLE0: u16 = 0x08F;
    /// LIGHTi_SPECULAR0 at 0x140 + 0x10 i; the others follow at the offsets below.
    pub const LIGHT_BASE: u16 = 0x140;
    pub const LIGHT_STRIDE: u16 = 0x10;
    pub const SPECULAR0: u16 = 0;
    pub const SPECULAR1: u16 = 1;
    pub const DIFFUSE: u16 = 2;
    pub const AMBIENT: u16 = 3;
    pub const XY: u16 = 4;
    pub const Z: u16 = 5;
    pub const SPOTDIR_XY: u16 = 6;
    pub const SPOTDIR_Z: u16 = 7;
    pub const CONFIG: u16 = 9;
    pub const ATTENUATION_BIAS: u16 = 0xA;
    pub const ATTENUATION_SCALE: u16 = 0xB;
    pub const AMBIENT_GLOBAL: u16 = 0x1C0;
    pub const NUM_LIGHTS: u16 = 0x1C2;
    pub const CONFIG0: u16 = 0x1C3;
    pub const CONFIG1: u16 = 0x1C4;
    pub const LIGHTING_ENABLE1: u16 = 0x1C6;
    pub const LUTINPUT_ABS: u16 = 0x1D0;
    pub const LUTINPUT_SELECT: u16 = 0x1D1;
    pub const LUTINPUT_SCALE: u16 = 0x1D2;
    pub const LIGHT_PERMUTATION: u16 = 0x1D9;
}

/// The light id of each slot (LIGHT_PERMUTATION bits 4s..4s+2).
pub fn light_ids(regs: &[u32]) -> [u8; 8] {
    let p = reg(regs, ids::LIGHT_PERMUTATION);
    std::array::from_fn(|s| ((p >> (4 * s)) & 7) as u8)
}

fn light_reg(regs: &[u32], id: u8, offset: u16) -> u32 {
    reg(regs, ids::LIGHT_BASE + ids::LIGHT_STRIDE * u16::from(id) + offset)
}

impl LightingKey {
    /// Every field as the registers hold it (decisions D16, D17 applied).
    pub fn decode(regs: &[u32]) -> LightingKey {
        let c0 = reg(regs, ids::CONFIG0);
        let c1 = reg(regs, ids::CONFIG1);
        let abs = reg(regs, ids::LUTINPUT_ABS);
        let select = reg(regs, ids::LUTINPUT_SELECT);
        let bit = |v: u32, b: u32| (v >> b) & 1 != 0;
        let disable_bits = [
            16,
            17,
            u32::MAX,
            19,
            decisions::CONFIG1_RB_DISABLE_BIT,
            decisions::CONFIG1_RG_DISABLE_BIT,
            decisions::CONFIG1_RR_DISABLE_BIT,
        ];
        let luts = std::array::from_fn(|i| LutKey {
            enabled: disable_bits[i] == u32::MAX || !bit(c1, disable_bits[i]),
            input: LutInput::from_raw((select >> (4 * i)) & 7),
            abs: !bit(abs, 4 * i as u32 + 1),
        });
        let ids_ = light_ids(regs);
        let lights = ids_.map(|id| {
            let cfg = light_reg(regs, id, ids::CONFIG);
            let id = u32::from(id);
            LightKey {
                directional: bit(cfg, 0),
                two_sided: bit(cfg, 1),
                geometric: [bit(cfg, 2), bit(cfg, 3)],
                spot: !bit(c1, 8 + id),
                distance_attenuation: !bit(c1, 24 + id),
                shadow: !bit(c1, id),
            }
        });
        let fresnel = (c0 >> 2) & 3;
        LightingKey {
            enabled: decisions::lighting_enabled(reg(regs, ids::LIGHTING_ENABLE0), reg(regs, ids::LIGHTING_ENABLE1)),
            count: (reg(regs, ids::NUM_LIGHTS) & 7) as u8 + 1,
            lights,
            config: ((c0 >> 4) & 0xF) as u8,
            luts,
            fresnel_primary: fresnel & 1 != 0,
            fresnel_secondary: fresnel & 2 != 0,
            bump: match BumpMode::from_raw((c0 >> 28) & 3) {
                BumpMode::Other(_) => BumpMode::NotUsed,
                b => b,
            },
            bump_unit: ((c0 >> 22) & 3) as u8,
            bump_renorm: !bit(c0, 30),
            shadow: bit(c0, 0),
            shadow_unit: ((c0 >> 24) & 3) as u8,
            shadow_primary: bit(c0, 16),
            shadow_secondary: bit(c0, 17),
            shadow_invert: bit(c0, 18),
            shadow_alpha: bit(c0, 19),
            clamp_highlights: bit(c0, 27),
        }
    }

    /// Whether LUT `lut` is read: enabled and offered by the configuration (D21).
    pub fn lut_used(&self, lut: LutId) -> bool {
        self.luts[lut as usize].enabled && decisions::lut_available(u32::from(self.config), lut as usize)
    }

    /// The texture units (0-3) lighting reads: the bump unit and the shadow unit.
    pub fn units_read(&self) -> [Option<u8>; 2] {
        if !self.enabled {
            return [None; 2];
        }
        [(self.bump != BumpMode::NotUsed).then_some(self.bump_unit), self.shadow.then_some(self.shadow_unit)]
    }

    /// Sets every field that cannot change the output to one value. `read` says whether a used
    /// TexEnv source reads a lighting colour.
    pub fn canonicalise(&mut self, read: bool) {
        if !self.enabled || !read {
            *self = LightingKey::default();
            return;
        }
        for light in &mut self.lights[usize::from(self.count)..] {
            *light = LightKey::default();
        }
        for lut in LutId::ALL {
            let used = self.lut_used(lut);
            let k = &mut self.luts[lut as usize];
            if !used {
                *k = LutKey::default();
                continue;
            }
            // Undefined selectors read 0 (D21), as does CP outside configuration 8.
            let zero_input = matches!(k.input, LutInput::Other(_)) || (k.input == LutInput::Cp && self.config != 8);
            if zero_input {
                // Input 0 reads entry 0 with f = 0 under either indexing: abs does not matter.
                k.input = LutInput::Other(6);
                k.abs = false;
            }
        }
        let sp = self.luts[LutId::Sp as usize].enabled;
        let shadow = self.shadow;
        for light in &mut self.lights {
            light.spot &= sp;
            light.shadow &= shadow;
        }
        let count = usize::from(self.count);
        if !self.lights[..count].iter().any(|l| l.spot) {
            self.luts[LutId::Sp as usize] = LutKey::default();
        }
        if !(self.luts[LutId::Fr as usize].enabled || self.shadow && self.shadow_alpha) {
            self.fresnel_primary = false;
            self.fresnel_secondary = false;
        }
        if !shadow {
            self.shadow_unit = 0;
            self.shadow_primary = false;
            self.shadow_secondary = false;
            self.shadow_invert = false;
            self.shadow_alpha = false;
        }
        if self.bump == BumpMode::NotUsed {
            self.bump_unit = 0;
        }
        if self.bump != BumpMode::BumpMap {
            self.bump_renorm = false;
        }
        // Only configuration 8's CP and the availability table read the value; merging the
        // configurations with equal tables is left out (the inputs above already depend on it).
    }
}

/// One light slot's uniforms.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LightUniforms {
    /// The light id (which registers and SP/DA tables the slot reads).
    pub id: u8,
    /// R, G, B (decision D20).
    pub specular0: [f32; 3],
    pub specular1: [f32; 3],
    pub diffuse: [f32; 3],
    pub ambient: [f32; 3],
    /// LIGHTi_XY/Z, f16 as f32: the position (or direction).
    pub position: [f32; 3],
    /// LIGHTi_SPOTDIR, as stored (the negated direction), decision D22.
    pub spot_direction: [f32; 3],
    /// LIGHTi_ATTENUATION_BIAS / _SCALE, f20 as f32.
    pub da_bias: f32,
    pub da_scale: f32,
}

/// Fragment lighting's uniforms.
#[derive(Clone, Debug, PartialEq)]
pub struct LightingUniforms {
    /// Per slot.
    pub lights: [LightUniforms; 8],
    /// GPUREG_LIGHTING_AMBIENT, R, G, B (D20).
    pub ambient: [f32; 3],
    /// LUTINPUT_SCALE per LUT ([`LutId`] order), decision D21.
    pub lut_scale: [f32; 7],
    /// The 24 tables as uploaded, by table number (D18 decodes an entry).
    pub luts: Arc<Vec<[u32; LIGHTING_LUT_ENTRIES]>>,
}

impl Default for LightingUniforms {
    fn default() -> Self {
        LightingUniforms {
            lights: Default::default(),
            ambient: [0.0; 3],
            lut_scale: [1.0; 7],
            luts: Arc::new(vec![[0; LIGHTING_LUT_ENTRIES]; LIGHTING_LUTS]),
        }
    }
}

impl LightingUniforms {
    /// The uniforms of a register file and the uploaded tables.
    pub fn decode(regs: &[u32], luts: Arc<Vec<[u32; LIGHTING_LUT_ENTRIES]>>) -> LightingUniforms {
        let scale = reg(regs, ids::LUTINPUT_SCALE);
        let lights = light_ids(regs).map(|id| {
            let r = |offset| light_reg(regs, id, offset);
            let (xy, sxy) = (r(ids::XY), r(ids::SPOTDIR_XY));
            LightUniforms {
                id,
                specular0: decisions::light_color(r(ids::SPECULAR0)),
                specular1: decisions::light_color(r(ids::SPECULAR1)),
                diffuse: decisions::light_color(r(ids::DIFFUSE)),
                ambient: decisions::light_color(r(ids::AMBIENT)),
                position: [f16(xy), f16(xy >> 16), f16(r(ids::Z))],
                spot_direction: [
                    decisions::spot_component(sxy),
                    decisions::spot_component(sxy >> 16),
                    decisions::spot_component(r(ids::SPOTDIR_Z)),
                ],
                da_bias: f20(r(ids::ATTENUATION_BIAS)),
                da_scale: f20(r(ids::ATTENUATION_SCALE)),
            }
        });
        LightingUniforms {
            lights,
            ambient: decisions::light_color(reg(regs, ids::AMBIENT_GLOBAL)),
            lut_scale: std::array::from_fn(|i| decisions::lut_scale(scale >> (4 * i))),
            luts,
        }
    }

    /// Table `n` (0-23); a missing table reads zero entries.
    pub fn table(&self, n: usize) -> &[u32; LIGHTING_LUT_ENTRIES] {
        static ZERO: [u32; LIGHTING_LUT_ENTRIES] = [0; LIGHTING_LUT_ENTRIES];
        self.luts.get(n).unwrap_or(&ZERO)
    }
}

type Vec3 = [f32; 3];

#[inline]
fn dot(a: Vec3, b: Vec3) -> f32 {
    (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]
}

#[inline]
fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

#[inline]
fn add(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

#[inline]
fn scale(a: Vec3, s: f32) -> Vec3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

#[inline]
fn mul(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] * b[0], a[1] * b[1], a[2] * b[2]]
}

/// `v / |v|`; a vector of length 0 or NaN stays as it is.
pub fn normalize(v: Vec3) -> Vec3 {
    let len2 = dot(v, v);
    if len2 > 0.0 {
        let len = len2.sqrt();
        [v[0] / len, v[1] / len, v[2] / len]
    } else {
        v
    }
}

/// The quaternion normalised as a 4-vector (facts 3.3 step 2: lerp, normalise, then rotate;
/// citra#2726/#2729); length 0 or NaN stays as it is.
pub fn normalize_quaternion(q: [f32; 4]) -> [f32; 4] {
    let len2 = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
    if len2 > 0.0 {
        let len = len2.sqrt();
        q.map(|c| c / len)
    } else {
        q
    }
}

/// `v` rotated by the quaternion `q` (x, y, z, w): `v + 2 (q.xyz x (q.xyz x v + q.w v))`.
pub fn rotate(q: [f32; 4], v: Vec3) -> Vec3 {
    let axis = [q[0], q[1], q[2]];
    let inner = add(cross(axis, v), scale(v, q[3]));
    add(v, scale(cross(axis, inner), 2.0))
}

/// The surface normal and tangent of a fragment (facts 3.3): the interpolated quaternion
/// normalised, then the perturbed local vectors rotated.
pub fn normal_and_tangent(key: &LightingKey, normquat: [f32; 4], texture: &[Rgba; 4]) -> (Vec3, Vec3) {
    let mut n0 = [0.0, 0.0, 1.0];
    let mut t0 = [1.0, 0.0, 0.0];
    if key.bump != BumpMode::NotUsed {
        let tex = texture[usize::from(key.bump_unit & 3)];
        // 2 c / 255 - 1 with an exact numerator: (2c - 255) / 255.
        let p: Vec3 = std::array::from_fn(|i| (2 * i32::from(tex[i]) - 255) as f32 / 255.0);
        if key.bump == BumpMode::BumpMap {
            n0 = p;
            if key.bump_renorm {
                n0[2] = (1.0 - p[0] * p[0] - p[1] * p[1]).max(0.0).sqrt();
            }
        } else {
            // Tangent map: the renormalisation flag has no effect (citra#2762).
            t0 = p;
        }
    }
    let q = normalize_quaternion(normquat);
    (rotate(q, n0), rotate(q, t0))
}

/// A LUT's scaled value at input `x`, or `None` when the key does not read it (facts 3.6; the abs
/// rule follows the current light's two-sided bit, citra#3482).
fn lut_lookup(
    key: &LightingKey,
    u: &LightingUniforms,
    lut: LutId,
    table: usize,
    x: f32,
    two_sided: bool,
) -> Option<f32> {
    if !key.lut_used(lut) {
        return None;
    }
    let k = key.luts[lut as usize];
    let (i, f) =
        if k.abs { lut::unsigned_index(if two_sided { x.abs() } else { x.max(0.0) }) } else { lut::signed_index(x) };
    Some(lut::lighting_value(u.table(table), i, f) * u.lut_scale[lut as usize])
}

/// The six LUT inputs of one light (facts 3.5), indexed by the selector value.
struct Inputs {
    values: [f32; 6],
}

impl Inputs {
    fn get(&self, sel: LutInput) -> f32 {
        match sel {
            LutInput::Other(_) => decisions::UNDEFINED_LUT_INPUT,
            s => self.values[s.raw() as usize],
        }
    }
}

/// Step 4 for one fragment. `texture` holds units 0-3 (the bump and shadow inputs).
pub fn compute(
    key: &LightingKey,
    u: &LightingUniforms,
    inputs: &FragmentInputs,
    texture: &[Rgba; 4],
) -> LightingColors {
    if !key.enabled {
        return LightingColors::default();
    }
    let (n, t) = normal_and_tangent(key, inputs.normquat, texture);
    let v = normalize(inputs.view);
    let shadow: [f32; 4] = if key.shadow {
        let s = texture[usize::from(key.shadow_unit & 3)];
        std::array::from_fn(|i| {
            let x = f32::from(s[i]) / 255.0;
            if key.shadow_invert {
                1.0 - x
            } else {
                x
            }
        })
    } else {
        [1.0; 4]
    };
    let mut diffuse = [0.0f32; 3];
    let mut specular = [0.0f32; 3];
    let mut primary_alpha = 1.0f32;
    let mut secondary_alpha = 1.0f32;
    let count = usize::from(key.count.clamp(1, 8));
    for slot in 0..count {
        let lk = key.lights[slot];
        let lu = &u.lights[slot];
        let id = usize::from(lu.id & 7);
        // Facts 3.4: L from the position (plus the view vector for positional lights). Decision
        // D22 (facts 7.10): a directional light's distance is |position| too, and distance
        // attenuation applies to it.
        let l_raw = if lk.directional { lu.position } else { add(lu.position, inputs.view) };
        let dist = dot(l_raw, l_raw).sqrt();
        let l = normalize(l_raw);
        let ln = dot(l, n);
        let d = if lk.two_sided { ln.abs() } else { ln.max(0.0) };
        let h = add(l, v);
        let hh = dot(h, h);
        let h_unit = normalize(h);
        let nh = dot(n, h_unit);
        let cp = if key.config == 8 {
            // Facts 3.5 (citra#2762): the projection of H onto the surface, not normalised.
            dot(add(h_unit, scale(n, -nh)), t)
        } else {
            decisions::UNDEFINED_LUT_INPUT
        };
        let lin = Inputs { values: [nh, dot(v, h_unit), dot(n, v), ln, dot(l, lu.spot_direction), cp] };
        let look = |lut: LutId| {
            let table = if lut == LutId::Sp { LutId::Sp.table() + id } else { lut.table() };
            lut_lookup(key, u, lut, table, lin.get(key.luts[lut as usize].input), lk.two_sided)
        };
        let spot = if lk.spot { look(LutId::Sp).unwrap_or(1.0) } else { 1.0 };
        let da = if lk.distance_attenuation {
            // Facts 3.6: clamp(scale * dist + bias, 0, 1), unsigned, no scale or abs (D22).
            let x = decisions::clamp01(lu.da_scale * dist + lu.da_bias);
            let (i, f) = lut::unsigned_index(x);
            lut::lighting_value(u.table(16 + id), i, f)
        } else {
            1.0
        };
        // Facts 3.9 (citra#2776): G = min(1, d / |H|^2), 0 when |H| = 0.
        let g = if hh == 0.0 { 0.0 } else { (d / hh).min(1.0) };
        let g0 = if lk.geometric[0] { g } else { 1.0 };
        let g1 = if lk.geometric[1] { g } else { 1.0 };
        let d0 = look(LutId::D0).unwrap_or(1.0);
        let d1 = look(LutId::D1).unwrap_or(1.0);
        let rr = look(LutId::Rr).unwrap_or(1.0);
        let rg = look(LutId::Rg).unwrap_or(rr);
        let rb = look(LutId::Rb).unwrap_or(rr);
        let spec0 = scale(scale(lu.specular0, d0), g0);
        let spec1 = scale(mul(scale([rr, rg, rb], d1), lu.specular1), g1);
        let ch = if key.clamp_highlights && d == 0.0 { 0.0 } else { 1.0 };
        let sp_factor = if lk.shadow && key.shadow_primary { [shadow[0], shadow[1], shadow[2]] } else { [1.0; 3] };
        let ss_factor = if lk.shadow && key.shadow_secondary { [shadow[0], shadow[1], shadow[2]] } else { [1.0; 3] };
        let diff = scale(scale(add(mul(scale(lu.diffuse, d), sp_factor), lu.ambient), da), spot);
        let spec = mul(scale(scale(scale(add(spec0, spec1), ch), da), spot), ss_factor);
        diffuse = add(diffuse, diff);
        specular = add(specular, spec);
        // Facts 3.10 (citra#2914): only the last slot's Fresnel survives, replacing the alphas.
        if slot == count - 1 {
            if let Some(fr) = look(LutId::Fr) {
                if key.fresnel_primary {
                    primary_alpha = fr;
                }
                if key.fresnel_secondary {
                    secondary_alpha = fr;
                }
            }
        }
    }
    if key.shadow && key.shadow_alpha {
        if key.fresnel_primary {
            primary_alpha *= shadow[3];
        }
        if key.fresnel_secondary {
            secondary_alpha *= shadow[3];
        }
    }
    let primary = add(diffuse, u.ambient);
    let byte = decisions::lighting_byte;
    LightingColors {
        primary: [byte(primary[0]), byte(primary[1]), byte(primary[2]), byte(primary_alpha)],
        secondary: [byte(specular[0]), byte(specular[1]), byte(specular[2]), byte(secondary_alpha)],
    }
}

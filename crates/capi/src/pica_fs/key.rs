//! The PICA200 fragment key as plain C structs (`pica::fixed::FragmentKey` and the
//! `translate::pica_fs::InputMap`), and the way back: every field checked against the width of
//! the register field it comes from, then put in the canonical form `FragmentKey::from_regs`
//! gives, so that equal pipelines get equal keys whichever way the host filled the struct.
//!
//! Enumerated fields hold the register field's raw value (crates/pica/src/regs/layouts.rs):
//! values the register page does not list are kept and read as the reference's decisions say
//! (a TexEnv source 7-12 reads zero, decision D4a).

use pica::fixed::lighting::{LightKey, LutKey};
use pica::fixed::{
    BufferWrites, FogKey, FragmentKey, LightingKey, ProcTexKey, TexEnvStageKey, TextureUnitKey, UnitKind,
};
use pica::regs::layouts::{
    BumpMode, CompareFunc, LutInput, OutputSemantic, ProcTexClamp, ProcTexFilter, ProcTexMap, ProcTexShift,
    TexEnvAlphaOperand, TexEnvCombine, TexEnvRgbOperand, TexEnvScale, TexEnvSource,
};
use translate::pica_fs::InputMap;

use crate::error::Failure;
use crate::tev::{field, flag};

/// Semantic components of the input map (`SpPicaFragmentKey.inputs`): the GPUREG_SH_OUTMAP_Oi
/// codes 0x00-0x17.
pub const SP_PICA_FRAGMENT_SEMANTICS: usize = 0x18;
/// An input slot's `reg` when no output register carries the component (it reads 0).
pub const SP_PICA_NO_REGISTER: u8 = 0xFF;

/// A texture unit off (or read by no used source): it reads (0, 0, 0, 0).
pub const SP_PICA_UNIT_OFF: u8 = 0;
/// A 2D texture: coordinates (u, v).
pub const SP_PICA_UNIT_2D: u8 = 1;
/// Unit 0 only: a cube map.
pub const SP_PICA_UNIT_CUBE: u8 = 2;
/// Unit 0 only: a 2D shadow map (`orthographic` says whether (u, v) is divided by w).
pub const SP_PICA_UNIT_SHADOW_2D: u8 = 3;
/// Unit 0 only: a projective 2D texture, (u/w, v/w).
pub const SP_PICA_UNIT_PROJECTION: u8 = 4;
/// Unit 0 only: a shadow cube map.
pub const SP_PICA_UNIT_SHADOW_CUBE: u8 = 5;

/// Fog off.
pub const SP_PICA_FOG_OFF: u8 = 0;
/// Fog (fog mode 5; `fog_z_flip` indexes the LUT with 1 - depth).
pub const SP_PICA_FOG_FOG: u8 = 1;
/// Gas (fog mode 7: decision D8, the colour passes through).
pub const SP_PICA_FOG_GAS: u8 = 2;

/// One texture unit (0-2).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpPicaTextureUnit {
    /// `SP_PICA_UNIT_*`; units 1 and 2 are off or 2D.
    pub kind: u8,
    /// 0-1, `SP_PICA_UNIT_SHADOW_2D` only: the shadow map is read at (u, v), not (u/w, v/w).
    pub orthographic: u8,
    /// The texture coordinate set read: unit 0 reads 0, unit 1 reads 1, unit 2 reads 1 or 2
    /// (TEXUNIT_CONFIG bit 13); 0-2 for a unit that is off.
    pub coords: u8,
}

/// One TexEnv stage (TEXENVi_SOURCE, _OPERAND, _COMBINER and _SCALE; the constant colour is a
/// uniform).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpPicaTexEnvStage {
    /// Sources of the RGB inputs, 0-15.
    pub rgb_source: [u8; 3],
    /// Sources of the alpha inputs, 0-15.
    pub alpha_source: [u8; 3],
    /// RGB operands, 0-15.
    pub rgb_operand: [u8; 3],
    /// Alpha operands, 0-7.
    pub alpha_operand: [u8; 3],
    /// RGB combine function, 0-15.
    pub rgb_combine: u8,
    /// Alpha combine function, 0-15.
    pub alpha_combine: u8,
    /// RGB scale, 0-3.
    pub rgb_scale: u8,
    /// Alpha scale, 0-3.
    pub alpha_scale: u8,
}

/// One light slot of fragment lighting (the flags of the slot's light id).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpPicaLight {
    /// 0-1: LIGHTi_CONFIG bit 0.
    pub directional: u8,
    /// 0-1: bit 1.
    pub two_sided: u8,
    /// 0-1 each: bits 2 and 3, the geometric factor on specular 0 and 1.
    pub geometric: [u8; 2],
    /// 0-1: the spotlight LUT is read (CONFIG1 bit 8 + id clear).
    pub spot: u8,
    /// 0-1: distance attenuation (CONFIG1 bit 24 + id clear).
    pub distance_attenuation: u8,
    /// 0-1: the shadow applies (CONFIG1 bit id clear).
    pub shadow: u8,
}

/// One lighting LUT (D0, D1, SP, FR, RB, RG, RR).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpPicaLut {
    /// 0-1: the LUT is read.
    pub enabled: u8,
    /// The input selector (LUTINPUT_SELECT), 0-7.
    pub input: u8,
    /// 0-1: the input is made non-negative (LUTINPUT_ABS's bit clear).
    pub abs: u8,
}

/// Fragment lighting (`pica::fixed::LightingKey`). Not translated yet: a key with `enabled` set
/// (and a lighting colour read) is refused with `SP_ERROR_UNSUPPORTED`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpPicaLighting {
    /// 0-1.
    pub enabled: u8,
    /// Lights, 0-8: NUM_LIGHTS + 1 (the canonical key of lighting off has 0).
    pub count: u8,
    /// The light slots (the first `count` count).
    pub lights: [SpPicaLight; 8],
    /// The light-environment configuration, CONFIG0 bits 4-7 (0-15).
    pub config: u8,
    /// D0, D1, SP, FR, RB, RG, RR.
    pub luts: [SpPicaLut; 7],
    /// 0-1: Fresnel to the primary alpha.
    pub fresnel_primary: u8,
    /// 0-1: Fresnel to the secondary alpha.
    pub fresnel_secondary: u8,
    /// Bump mode 0-2 (not used, bump map, tangent map).
    pub bump: u8,
    /// Bump texture unit 0-3.
    pub bump_unit: u8,
    /// 0-1: renormalise the bump-mapped normal.
    pub bump_renorm: u8,
    /// 0-1: shadows on.
    pub shadow: u8,
    /// Shadow texture unit 0-3.
    pub shadow_unit: u8,
    /// 0-1: the shadow attenuates the primary colour (CONFIG0 bit 16).
    pub shadow_primary: u8,
    /// 0-1: ... the secondary colour (bit 17).
    pub shadow_secondary: u8,
    /// 0-1: the shadow is inverted (bit 18).
    pub shadow_invert: u8,
    /// 0-1: the shadow goes to the alpha (bit 19).
    pub shadow_alpha: u8,
    /// 0-1: CONFIG0 bit 27.
    pub clamp_highlights: u8,
}

/// The procedural texture (`pica::fixed::ProcTexKey`): texture unit 3, translated when
/// `enabled` is set and texture 3 is read.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpPicaProcTex {
    /// 0-1.
    pub enabled: u8,
    /// The texture coordinate set, 0-2.
    pub coords: u8,
    /// Clamp mode of u, 0-4.
    pub u_clamp: u8,
    /// Clamp mode of v, 0-4.
    pub v_clamp: u8,
    /// RGB mapping function, 0-10 (10: the undefined values, read as decision D27 says).
    pub rgb_func: u8,
    /// Alpha mapping function (read with `separate_alpha`), 0-10.
    pub alpha_func: u8,
    /// 0-1: the alpha has its own mapping function.
    pub separate_alpha: u8,
    /// 0-1: noise on.
    pub noise: u8,
    /// Shift of u, 0-2.
    pub u_shift: u8,
    /// Shift of v, 0-2.
    pub v_shift: u8,
    /// Minification filter, 0-5.
    pub filter: u8,
}

/// Which output register and component of the vertex stage carries one semantic component.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpPicaInputSlot {
    /// The o register 0-15 (read at location = its index), or `SP_PICA_NO_REGISTER`.
    pub reg: u8,
    /// The component 0-3 (x, y, z, w).
    pub component: u8,
}

impl Default for SpPicaInputSlot {
    fn default() -> Self {
        SpPicaInputSlot { reg: SP_PICA_NO_REGISTER, component: 0 }
    }
}

/// A PICA200 fragment key: exactly the state that changes the fragment shader's code
/// (`pica::fixed::FragmentKey`), and the input map (GPUREG_SH_OUTMAP_TOTAL, _O0-O6) that places
/// its inputs. Colours, LUT contents and the other parameters are uniforms
/// (`sp_pica_fragment_uniforms`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpPicaFragmentKey {
    /// 0-1: W-buffering (DEPTHMAP_ENABLE bit 0 clear) multiplies the depth by w.
    pub w_buffer: u8,
    /// 0-1: COLOR_OPERATION mode 3 (shadow rendering).
    pub shadow_render: u8,
    /// The alpha-test function 0-7 (1, always, when the test is off).
    pub alpha_test: u8,
    /// `SP_PICA_FOG_*`.
    pub fog: u8,
    /// 0-1, fog only: the LUT is indexed with 1 - depth.
    pub fog_z_flip: u8,
    /// Texture units 0-2.
    pub textures: [SpPicaTextureUnit; 3],
    /// The six TexEnv stages.
    pub texenv: [SpPicaTexEnvStage; 6],
    /// 0-1 each: stage j (0-3) writes the combiner buffer's RGB (TEXENV_UPDATE_BUFFER bits 8-11).
    pub buffer_write_rgb: [u8; 4],
    /// 0-1 each: ... its alpha (bits 12-15).
    pub buffer_write_alpha: [u8; 4],
    /// Fragment lighting.
    pub lighting: SpPicaLighting,
    /// The procedural texture (unit 3).
    pub proctex: SpPicaProcTex,
    /// `inputs[s]`: where semantic component `s` comes from (0x08-0x0B colour, 0x0C-0x0F and
    /// 0x16-0x17 texcoords, 0x10 texcoord0.w, 0x04-0x07 the normal quaternion, 0x12-0x14 view;
    /// 0x11 and 0x15 are not semantics and must be `SP_PICA_NO_REGISTER`).
    pub inputs: [SpPicaInputSlot; SP_PICA_FRAGMENT_SEMANTICS],
}

fn bit(b: bool) -> u8 {
    b as u8
}

fn raw(v: u32) -> u8 {
    v as u8
}

impl SpPicaFragmentKey {
    /// The C struct of a key and an input map.
    pub fn from_key(k: &FragmentKey, inputs: &InputMap) -> SpPicaFragmentKey {
        let unit = |u: &TextureUnitKey| {
            let (kind, orthographic) = match u.kind {
                UnitKind::Off => (SP_PICA_UNIT_OFF, false),
                UnitKind::Tex2d => (SP_PICA_UNIT_2D, false),
                UnitKind::Cube => (SP_PICA_UNIT_CUBE, false),
                UnitKind::Shadow2d { orthographic } => (SP_PICA_UNIT_SHADOW_2D, orthographic),
                UnitKind::Projection => (SP_PICA_UNIT_PROJECTION, false),
                UnitKind::ShadowCube => (SP_PICA_UNIT_SHADOW_CUBE, false),
            };
            SpPicaTextureUnit { kind, orthographic: bit(orthographic), coords: u.coords }
        };
        let stage = |s: &TexEnvStageKey| SpPicaTexEnvStage {
            rgb_source: s.rgb_source.map(|v| raw(v.raw())),
            alpha_source: s.alpha_source.map(|v| raw(v.raw())),
            rgb_operand: s.rgb_operand.map(|v| raw(v.raw())),
            alpha_operand: s.alpha_operand.map(|v| raw(v.raw())),
            rgb_combine: raw(s.rgb_combine.raw()),
            alpha_combine: raw(s.alpha_combine.raw()),
            rgb_scale: raw(s.rgb_scale.raw()),
            alpha_scale: raw(s.alpha_scale.raw()),
        };
        let (fog, fog_z_flip) = match k.fog {
            FogKey::Off => (SP_PICA_FOG_OFF, false),
            FogKey::Fog { z_flip } => (SP_PICA_FOG_FOG, z_flip),
            FogKey::Gas => (SP_PICA_FOG_GAS, false),
        };
        let l = &k.lighting;
        let lighting = SpPicaLighting {
            enabled: bit(l.enabled),
            count: l.count,
            lights: l.lights.map(|x| SpPicaLight {
                directional: bit(x.directional),
                two_sided: bit(x.two_sided),
                geometric: x.geometric.map(bit),
                spot: bit(x.spot),
                distance_attenuation: bit(x.distance_attenuation),
                shadow: bit(x.shadow),
            }),
            config: l.config,
            luts: l.luts.map(|x| SpPicaLut { enabled: bit(x.enabled), input: raw(x.input.raw()), abs: bit(x.abs) }),
            fresnel_primary: bit(l.fresnel_primary),
            fresnel_secondary: bit(l.fresnel_secondary),
            bump: raw(l.bump.raw()),
            bump_unit: l.bump_unit,
            bump_renorm: bit(l.bump_renorm),
            shadow: bit(l.shadow),
            shadow_unit: l.shadow_unit,
            shadow_primary: bit(l.shadow_primary),
            shadow_secondary: bit(l.shadow_secondary),
            shadow_invert: bit(l.shadow_invert),
            shadow_alpha: bit(l.shadow_alpha),
            clamp_highlights: bit(l.clamp_highlights),
        };
        let p = &k.proctex;
        let proctex = SpPicaProcTex {
            enabled: bit(p.enabled),
            coords: p.coords,
            u_clamp: raw(p.u_clamp.raw()),
            v_clamp: raw(p.v_clamp.raw()),
            rgb_func: raw(p.rgb_func.raw()),
            alpha_func: raw(p.alpha_func.raw()),
            separate_alpha: bit(p.separate_alpha),
            noise: bit(p.noise),
            u_shift: raw(p.u_shift.raw()),
            v_shift: raw(p.v_shift.raw()),
            filter: raw(p.filter.raw()),
        };
        SpPicaFragmentKey {
            w_buffer: bit(k.w_buffer),
            shadow_render: bit(k.shadow_render),
            alpha_test: raw(k.alpha_test.raw()),
            fog,
            fog_z_flip: bit(fog_z_flip),
            textures: k.textures.each_ref().map(unit),
            texenv: k.texenv.each_ref().map(stage),
            buffer_write_rgb: k.buffer_writes.rgb.map(bit),
            buffer_write_alpha: k.buffer_writes.alpha.map(bit),
            lighting,
            proctex,
            inputs: inputs.slots.map(|s| match s {
                Some((reg, component)) => SpPicaInputSlot { reg, component },
                None => SpPicaInputSlot::default(),
            }),
        }
    }

    /// The key (in its canonical form) and the input map, every field checked.
    pub(crate) fn key(&self) -> Result<(FragmentKey, InputMap), Failure> {
        let mut textures = [TextureUnitKey::default(); 3];
        for (u, (dst, t)) in textures.iter_mut().zip(&self.textures).enumerate() {
            let at = |f: &str| format!("textures[{u}].{f}");
            let kind = field(t.kind, if u == 0 { SP_PICA_UNIT_SHADOW_CUBE } else { SP_PICA_UNIT_2D }, || at("kind"))?;
            let orthographic = flag(t.orthographic, || at("orthographic"))?;
            // An unit that is off reads nothing: its set does not matter (the canonical key has 0).
            let coords_ok = match u {
                _ if kind == SP_PICA_UNIT_OFF => t.coords <= 2,
                0 => t.coords == 0,
                1 => t.coords == 1,
                _ => matches!(t.coords, 1 | 2),
            };
            if !coords_ok {
                let want = ["0", "1", "1 or 2"][u];
                return Err(Failure::invalid(format!("{} is {}: unit {u} reads set {want}", at("coords"), t.coords)));
            }
            let kind = match kind {
                SP_PICA_UNIT_OFF => UnitKind::Off,
                SP_PICA_UNIT_2D => UnitKind::Tex2d,
                SP_PICA_UNIT_CUBE => UnitKind::Cube,
                SP_PICA_UNIT_SHADOW_2D => UnitKind::Shadow2d { orthographic },
                SP_PICA_UNIT_PROJECTION => UnitKind::Projection,
                _ => UnitKind::ShadowCube,
            };
            *dst = TextureUnitKey { kind, coords: t.coords };
        }
        let mut texenv = [TexEnvStageKey::default(); 6];
        for (i, (dst, s)) in texenv.iter_mut().zip(&self.texenv).enumerate() {
            let at = |f: &str, j: usize| format!("texenv[{i}].{f}[{j}]");
            let three = |v: [u8; 3], max: u8, name: &str| -> Result<[u32; 3], Failure> {
                for (j, &x) in v.iter().enumerate() {
                    field(x, max, || at(name, j))?;
                }
                Ok(v.map(u32::from))
            };
            let one = |v: u8, max: u8, name: &str| field(v, max, || format!("texenv[{i}].{name}")).map(u32::from);
            *dst = TexEnvStageKey {
                rgb_source: three(s.rgb_source, 15, "rgb_source")?.map(TexEnvSource::from_raw),
                alpha_source: three(s.alpha_source, 15, "alpha_source")?.map(TexEnvSource::from_raw),
                rgb_operand: three(s.rgb_operand, 15, "rgb_operand")?.map(TexEnvRgbOperand::from_raw),
                alpha_operand: three(s.alpha_operand, 7, "alpha_operand")?.map(TexEnvAlphaOperand::from_raw),
                rgb_combine: TexEnvCombine::from_raw(one(s.rgb_combine, 15, "rgb_combine")?),
                alpha_combine: TexEnvCombine::from_raw(one(s.alpha_combine, 15, "alpha_combine")?),
                rgb_scale: TexEnvScale::from_raw(one(s.rgb_scale, 3, "rgb_scale")?),
                alpha_scale: TexEnvScale::from_raw(one(s.alpha_scale, 3, "alpha_scale")?),
            };
        }
        let mut buffer_writes = BufferWrites::default();
        for j in 0..4 {
            buffer_writes.rgb[j] = flag(self.buffer_write_rgb[j], || format!("buffer_write_rgb[{j}]"))?;
            buffer_writes.alpha[j] = flag(self.buffer_write_alpha[j], || format!("buffer_write_alpha[{j}]"))?;
        }
        let z_flip = flag(self.fog_z_flip, || "fog_z_flip".into())?;
        let fog = match field(self.fog, SP_PICA_FOG_GAS, || "fog".into())? {
            SP_PICA_FOG_OFF => FogKey::Off,
            SP_PICA_FOG_FOG => FogKey::Fog { z_flip },
            _ => FogKey::Gas,
        };
        let key = FragmentKey {
            w_buffer: flag(self.w_buffer, || "w_buffer".into())?,
            textures,
            texenv,
            buffer_writes,
            shadow_render: flag(self.shadow_render, || "shadow_render".into())?,
            alpha_test: CompareFunc::from_raw(field(self.alpha_test, 7, || "alpha_test".into())?.into()),
            fog,
            lighting: self.lighting.key()?,
            proctex: self.proctex.key()?,
        };
        let mut inputs = InputMap::default();
        for (s, (dst, slot)) in inputs.slots.iter_mut().zip(&self.inputs).enumerate() {
            if slot.reg == SP_PICA_NO_REGISTER {
                continue;
            }
            if matches!(OutputSemantic::from_raw(s as u32), OutputSemantic::Other(_)) {
                return Err(Failure::invalid(format!(
                    "inputs[{s}].reg is {}: {s:#x} is not a semantic (use SP_PICA_NO_REGISTER)",
                    slot.reg
                )));
            }
            let reg = field(slot.reg, 15, || format!("inputs[{s}].reg"))?;
            let component = field(slot.component, 3, || format!("inputs[{s}].component"))?;
            *dst = Some((reg, component));
        }
        Ok((key.canonical(), inputs))
    }

    /// A stable byte encoding of the canonical key and the map (every field in declaration
    /// order), for cache keys.
    pub(crate) fn key_bytes(&self) -> Vec<u8> {
        let mut b = vec![self.w_buffer, self.shadow_render, self.alpha_test, self.fog, self.fog_z_flip];
        for t in &self.textures {
            b.extend_from_slice(&[t.kind, t.orthographic, t.coords]);
        }
        for s in &self.texenv {
            for v in [s.rgb_source, s.alpha_source, s.rgb_operand, s.alpha_operand] {
                b.extend_from_slice(&v);
            }
            b.extend_from_slice(&[s.rgb_combine, s.alpha_combine, s.rgb_scale, s.alpha_scale]);
        }
        b.extend_from_slice(&self.buffer_write_rgb);
        b.extend_from_slice(&self.buffer_write_alpha);
        let l = &self.lighting;
        b.extend_from_slice(&[l.enabled, l.count]);
        for x in &l.lights {
            b.extend_from_slice(&[
                x.directional,
                x.two_sided,
                x.geometric[0],
                x.geometric[1],
                x.spot,
                x.distance_attenuation,
                x.shadow,
            ]);
        }
        b.push(l.config);
        for x in &l.luts {
            b.extend_from_slice(&[x.enabled, x.input, x.abs]);
        }
        b.extend_from_slice(&[
            l.fresnel_primary,
            l.fresnel_secondary,
            l.bump,
            l.bump_unit,
            l.bump_renorm,
            l.shadow,
            l.shadow_unit,
            l.shadow_primary,
            l.shadow_secondary,
            l.shadow_invert,
            l.shadow_alpha,
            l.clamp_highlights,
        ]);
        let p = &self.proctex;
        b.extend_from_slice(&[
            p.enabled,
            p.coords,
            p.u_clamp,
            p.v_clamp,
            p.rgb_func,
            p.alpha_func,
            p.separate_alpha,
            p.noise,
            p.u_shift,
            p.v_shift,
            p.filter,
        ]);
        for s in &self.inputs {
            b.extend_from_slice(&[s.reg, s.component]);
        }
        b
    }
}

impl SpPicaLighting {
    fn key(&self) -> Result<LightingKey, Failure> {
        let at = |f: &str| format!("lighting.{f}");
        let mut lights = [LightKey::default(); 8];
        for (n, (dst, x)) in lights.iter_mut().zip(&self.lights).enumerate() {
            let at = |f: &str| format!("lighting.lights[{n}].{f}");
            *dst = LightKey {
                directional: flag(x.directional, || at("directional"))?,
                two_sided: flag(x.two_sided, || at("two_sided"))?,
                geometric: [flag(x.geometric[0], || at("geometric[0]"))?, flag(x.geometric[1], || at("geometric[1]"))?],
                spot: flag(x.spot, || at("spot"))?,
                distance_attenuation: flag(x.distance_attenuation, || at("distance_attenuation"))?,
                shadow: flag(x.shadow, || at("shadow"))?,
            };
        }
        let mut luts = [LutKey::default(); 7];
        for (n, (dst, x)) in luts.iter_mut().zip(&self.luts).enumerate() {
            let at = |f: &str| format!("lighting.luts[{n}].{f}");
            *dst = LutKey {
                enabled: flag(x.enabled, || at("enabled"))?,
                input: LutInput::from_raw(field(x.input, 7, || at("input"))?.into()),
                abs: flag(x.abs, || at("abs"))?,
            };
        }
        Ok(LightingKey {
            enabled: flag(self.enabled, || at("enabled"))?,
            count: field(self.count, 8, || at("count"))?,
            lights,
            config: field(self.config, 15, || at("config"))?,
            luts,
            fresnel_primary: flag(self.fresnel_primary, || at("fresnel_primary"))?,
            fresnel_secondary: flag(self.fresnel_secondary, || at("fresnel_secondary"))?,
            bump: BumpMode::from_raw(field(self.bump, 2, || at("bump"))?.into()),
            bump_unit: field(self.bump_unit, 3, || at("bump_unit"))?,
            bump_renorm: flag(self.bump_renorm, || at("bump_renorm"))?,
            shadow: flag(self.shadow, || at("shadow"))?,
            shadow_unit: field(self.shadow_unit, 3, || at("shadow_unit"))?,
            shadow_primary: flag(self.shadow_primary, || at("shadow_primary"))?,
            shadow_secondary: flag(self.shadow_secondary, || at("shadow_secondary"))?,
            shadow_invert: flag(self.shadow_invert, || at("shadow_invert"))?,
            shadow_alpha: flag(self.shadow_alpha, || at("shadow_alpha"))?,
            clamp_highlights: flag(self.clamp_highlights, || at("clamp_highlights"))?,
        })
    }
}

impl SpPicaProcTex {
    fn key(&self) -> Result<ProcTexKey, Failure> {
        let at = |f: &str| format!("proctex.{f}");
        let small = |v: u8, max: u8, name: &str| field(v, max, || at(name)).map(u32::from);
        Ok(ProcTexKey {
            enabled: flag(self.enabled, || at("enabled"))?,
            coords: field(self.coords, 2, || at("coords"))?,
            u_clamp: ProcTexClamp::from_raw(small(self.u_clamp, 4, "u_clamp")?),
            v_clamp: ProcTexClamp::from_raw(small(self.v_clamp, 4, "v_clamp")?),
            rgb_func: ProcTexMap::from_raw(small(self.rgb_func, 10, "rgb_func")?),
            alpha_func: ProcTexMap::from_raw(small(self.alpha_func, 10, "alpha_func")?),
            separate_alpha: flag(self.separate_alpha, || at("separate_alpha"))?,
            noise: flag(self.noise, || at("noise"))?,
            u_shift: ProcTexShift::from_raw(small(self.u_shift, 2, "u_shift")?),
            v_shift: ProcTexShift::from_raw(small(self.v_shift, 2, "v_shift")?),
            filter: ProcTexFilter::from_raw(small(self.filter, 5, "filter")?),
        })
    }
}

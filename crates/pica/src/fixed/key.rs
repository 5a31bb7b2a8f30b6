//! The fragment key: exactly the register state that changes the code of a generated fragment
//! shader (Dolphin's shader-UID idea: colours, LUT contents and parameters live in
//! [`FragmentUniforms`](super::FragmentUniforms)).
//!
//! [`FragmentKey::from_regs`] canonicalises: fields that cannot affect the output (the operands
//! of a combiner's unused inputs, the alpha combiner of a Dot3 RGBA stage, texture units no used
//! source reads, buffer-update bits no later stage can see, the alpha test and fog in
//! shadow-render mode) are set to one fixed value, so that states that generate the same code
//! share a key. [`FragmentKey::decode_raw`] decodes every field as written; the reference gives
//! the same output for both (tests/fixed_key.rs).

use crate::regs::layouts::{
    AlphaTest, BufferInput, ColorOperation, CompareFunc, FragmentOpMode, Tex2Coords, TexEnvAlphaOperand, TexEnvCombine,
    TexEnvCombinerReg, TexEnvOperandReg, TexEnvRgbOperand, TexEnvScale, TexEnvScaleReg, TexEnvSource, TexEnvSourceReg,
    TexEnvUpdateBuffer, TexParam, TexShadow, TexUnitConfig, TextureType,
};
use crate::state::{Draw, GpuState};

use super::decisions;
use super::lighting::LightingKey;
use super::proctex::ProcTexKey;

/// Register ids the fragment pipeline reads.
pub mod ids {
    pub const DEPTHMAP_SCALE: u16 = 0x04D;
    pub const DEPTHMAP_OFFSET: u16 = 0x04E;
    pub const DEPTHMAP_ENABLE: u16 = 0x06D;
    pub const TEXUNIT_CONFIG: u16 = 0x080;
    /// BORDER_COLOR, DIM, PARAM, LOD, ADDR1 and TYPE of units 0, 1, 2.
    pub const TEXUNIT_BORDER: [u16; 3] = [0x081, 0x091, 0x099];
    pub const TEXUNIT_DIM: [u16; 3] = [0x082, 0x092, 0x09A];
    pub const TEXUNIT_PARAM: [u16; 3] = [0x083, 0x093, 0x09B];
    pub const TEXUNIT_LOD: [u16; 3] = [0x084, 0x094, 0x09C];
    pub const TEXUNIT_ADDR: [u16; 3] = [0x085, 0x095, 0x09D];
    pub const TEXUNIT_TYPE: [u16; 3] = [0x08E, 0x096, 0x09E];
    pub const TEXUNIT0_ADDR2_6: u16 = 0x086;
    pub const TEXUNIT0_SHADOW: u16 = 0x08B;
    /// TEXENVi_SOURCE; OPERAND, COMBINER, COLOR and SCALE follow at +1..+4.
    pub const TEXENV: [u16; 6] = [0x0C0, 0x0C8, 0x0D0, 0x0D8, 0x0F0, 0x0F8];
    pub const TEXENV_UPDATE_BUFFER: u16 = 0x0E0;
    pub const FOG_COLOR: u16 = 0x0E1;
    pub const GAS_ATTENUATION: u16 = 0x0E4;
    pub const GAS_ACCMAX: u16 = 0x0E5;
    pub const TEXENV_BUFFER_COLOR: u16 = 0x0FD;
    pub const COLOR_OPERATION: u16 = 0x100;
    pub const ALPHA_TEST: u16 = 0x104;
    pub const GAS_LIGHT_XY: u16 = 0x120;
    pub const GAS_LIGHT_Z: u16 = 0x121;
    pub const GAS_LIGHT_Z_COLOR: u16 = 0x122;
    pub const GAS_DELTAZ_DEPTH: u16 = 0x126;
    pub const FRAGOP_SHADOW: u16 = 0x130;
    /// PROCTEX0-PROCTEX5.
    pub const PROCTEX: [u16; 6] = [0x0A8, 0x0A9, 0x0AA, 0x0AB, 0x0AC, 0x0AD];
}

/// How a texture unit's coordinates are formed (facts 6.2). Units 1 and 2 are always
/// [`UnitKind::Tex2d`] or [`UnitKind::Off`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// Disabled (TEXUNIT_CONFIG bit clear, or unit 0 type "disabled"), or read by no used
    /// source: the unit reads (0, 0, 0, 0).
    #[default]
    Off,
    /// (u, v).
    Tex2d,
    /// Direction (u, v, tc0.w), a face and (s, t) on it.
    Cube,
    /// Shadow comparison of the texel at (u/w, v/w), or (u, v) when `orthographic`; reference
    /// depth |w|.
    Shadow2d { orthographic: bool },
    /// (u/w, v/w).
    Projection,
    /// Cube face selection, then the shadow comparison.
    ShadowCube,
}

impl UnitKind {
    /// Whether the unit compares depth (its texel is a shadow-map texel).
    pub fn is_shadow(self) -> bool {
        matches!(self, UnitKind::Shadow2d { .. } | UnitKind::ShadowCube)
    }
}

/// One texture unit (0-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TextureUnitKey {
    pub kind: UnitKind,
    /// The texture coordinate set read: 0, 1 or 2 (unit 2 reads set 1 when TEXUNIT_CONFIG
    /// bit 13 is set).
    pub coords: u8,
}

/// One TexEnv stage: sources, operands, combiners and scales (the constant colour is a uniform).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TexEnvStageKey {
    pub rgb_source: [TexEnvSource; 3],
    pub alpha_source: [TexEnvSource; 3],
    pub rgb_operand: [TexEnvRgbOperand; 3],
    pub alpha_operand: [TexEnvAlphaOperand; 3],
    pub rgb_combine: TexEnvCombine,
    pub alpha_combine: TexEnvCombine,
    pub rgb_scale: TexEnvScale,
    pub alpha_scale: TexEnvScale,
}

impl Default for TexEnvStageKey {
    /// The pass-through stage: RGB and alpha replaced by "previous".
    fn default() -> Self {
        TexEnvStageKey {
            rgb_source: [TexEnvSource::Previous; 3],
            alpha_source: [TexEnvSource::Previous; 3],
            rgb_operand: [TexEnvRgbOperand::SrcColor; 3],
            alpha_operand: [TexEnvAlphaOperand::SrcAlpha; 3],
            rgb_combine: TexEnvCombine::Replace,
            alpha_combine: TexEnvCombine::Replace,
            rgb_scale: TexEnvScale::X1,
            alpha_scale: TexEnvScale::X1,
        }
    }
}

/// The canonical source of an input no combiner reads.
const UNUSED_SOURCE: TexEnvSource = TexEnvSource::Constant;
/// The canonical form of every combine value that yields 0 (decision D4c).
pub const ZERO_COMBINE: TexEnvCombine = TexEnvCombine::Other(10);
/// The canonical form of every source that reads (0, 0, 0, 0) (decision D4a).
pub const ZERO_SOURCE: TexEnvSource = TexEnvSource::Other(7);
/// The canonical form of every RGB operand that yields 0 (decision D4b).
pub const ZERO_RGB_OPERAND: TexEnvRgbOperand = TexEnvRgbOperand::Other(6);

/// How many of the three inputs a combine function reads (0 for the ones that yield 0).
pub fn combine_arity(c: TexEnvCombine) -> usize {
    use TexEnvCombine::*;
    match c {
        Replace => 1,
        Modulate | Add | AddSigned | Subtract | Dot3Rgb | Dot3Rgba => 2,
        Interpolate | MultiplyAdd | AddMultiply => 3,
        Other(_) => 0,
    }
}

/// Which stages write the combiner buffer (TEXENV_UPDATE_BUFFER bits 8-11 and 12-15): index j
/// is stage j, j = 0..3 (facts 2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BufferWrites {
    pub rgb: [bool; 4],
    pub alpha: [bool; 4],
}

/// What follows the combiners (facts 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FogKey {
    #[default]
    Off,
    /// Fog mode 5; `z_flip` indexes the LUT with 1 - depth.
    Fog { z_flip: bool },
    /// Fog mode 7 (decision D8: passes the colour through).
    Gas,
}

/// The fragment key, in the order of the pipeline (facts 0.4). The default is the key of a
/// pipeline that passes "previous" through every stage with nothing enabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FragmentKey {
    /// Step 2: W-buffering (GPUREG_DEPTHMAP_ENABLE bit 0 clear) multiplies the depth by w.
    pub w_buffer: bool,
    /// Step 3: texture units 0-2 (unit 3, the procedural texture, comes with its own step).
    pub textures: [TextureUnitKey; 3],
    /// Step 5: the six TexEnv stages and the buffer updates.
    pub texenv: [TexEnvStageKey; 6],
    pub buffer_writes: BufferWrites,
    /// Step 6: COLOR_OPERATION mode 3.
    pub shadow_render: bool,
    /// Step 7: the alpha-test function ([`CompareFunc::Always`] when the test is disabled).
    pub alpha_test: CompareFunc,
    /// Step 8.
    pub fog: FogKey,
    /// Step 4: fragment lighting (its own canonical form, `LightingKey::canonicalise`).
    pub lighting: LightingKey,
    /// Step 3, unit 3: the procedural texture.
    pub proctex: ProcTexKey,
}

impl Default for FragmentKey {
    fn default() -> Self {
        FragmentKey {
            w_buffer: false,
            textures: Default::default(),
            texenv: Default::default(),
            buffer_writes: BufferWrites::default(),
            shadow_render: false,
            alpha_test: CompareFunc::Always,
            fog: FogKey::Off,
            lighting: LightingKey::default(),
            proctex: ProcTexKey::default(),
        }
    }
}

/// Register `id` of a register file (ids past its end read 0).
pub(crate) fn reg(regs: &[u32], id: u16) -> u32 {
    regs.get(usize::from(id)).copied().unwrap_or(0)
}

impl FragmentKey {
    /// The canonical key of a register file (ids 0x000-0x2FF; missing ids read 0).
    pub fn from_regs(regs: &[u32]) -> FragmentKey {
        let mut key = FragmentKey::decode_raw(regs);
        key.canonicalise();
        key
    }

    /// The canonical form of a key filled by other means than [`FragmentKey::from_regs`] (a
    /// host's plain struct): the same normal form, so that keys that generate the same code are
    /// equal. Canonical keys are fixed points.
    pub fn canonical(mut self) -> FragmentKey {
        self.canonicalise();
        self
    }

    /// The key of the current state of a tracker.
    pub fn from_state(state: &GpuState) -> FragmentKey {
        FragmentKey::from_regs(&state.regs)
    }

    /// The key of the state a draw saw.
    pub fn from_draw(draw: &Draw) -> FragmentKey {
        FragmentKey::from_regs(&draw.regs)
    }

    /// Every field as the registers hold it, without canonicalisation (decisions still apply
    /// when the reference reads it). Used to check that canonicalisation keeps the output.
    pub fn decode_raw(regs: &[u32]) -> FragmentKey {
        let config = TexUnitConfig::decode(reg(regs, ids::TEXUNIT_CONFIG));
        let param0 = TexParam::decode(reg(regs, ids::TEXUNIT_PARAM[0]));
        let shadow = TexShadow::decode(reg(regs, ids::TEXUNIT0_SHADOW));
        let kind0 = if !config.texture0 {
            UnitKind::Off
        } else {
            match decisions::unit0_type(param0.texture_type) {
                TextureType::CubeMap => UnitKind::Cube,
                TextureType::Shadow2d => UnitKind::Shadow2d { orthographic: shadow.orthographic },
                TextureType::Projection => UnitKind::Projection,
                TextureType::ShadowCube => UnitKind::ShadowCube,
                TextureType::Disabled => UnitKind::Off,
                _ => UnitKind::Tex2d,
            }
        };
        let on = |b: bool| if b { UnitKind::Tex2d } else { UnitKind::Off };
        let coords2 = if config.texture2_coords == Tex2Coords::Texture1 { 1 } else { 2 };
        let textures = [
            TextureUnitKey { kind: kind0, coords: 0 },
            TextureUnitKey { kind: on(config.texture1), coords: 1 },
            TextureUnitKey { kind: on(config.texture2), coords: coords2 },
        ];
        let texenv = std::array::from_fn(|i| {
            let base = ids::TEXENV[i];
            let src = TexEnvSourceReg::decode(reg(regs, base));
            let op = TexEnvOperandReg::decode(reg(regs, base + 1));
            let comb = TexEnvCombinerReg::decode(reg(regs, base + 2));
            let scale = TexEnvScaleReg::decode(reg(regs, base + 4));
            TexEnvStageKey {
                rgb_source: [src.rgb0, src.rgb1, src.rgb2],
                alpha_source: [src.alpha0, src.alpha1, src.alpha2],
                rgb_operand: [op.rgb0, op.rgb1, op.rgb2],
                alpha_operand: [op.alpha0, op.alpha1, op.alpha2],
                rgb_combine: comb.rgb,
                alpha_combine: comb.alpha,
                rgb_scale: scale.rgb,
                alpha_scale: scale.alpha,
            }
        });
        let upd = TexEnvUpdateBuffer::decode(reg(regs, ids::TEXENV_UPDATE_BUFFER));
        let w = |b: BufferInput| b == BufferInput::Previous;
        let buffer_writes = BufferWrites {
            rgb: [w(upd.rgb1), w(upd.rgb2), w(upd.rgb3), w(upd.rgb4)],
            alpha: [w(upd.alpha1), w(upd.alpha2), w(upd.alpha3), w(upd.alpha4)],
        };
        let fog = decisions::fog_key(upd.fog_mode, upd.z_flip);
        let at = AlphaTest::decode(reg(regs, ids::ALPHA_TEST));
        let op = ColorOperation::decode(reg(regs, ids::COLOR_OPERATION));
        FragmentKey {
            w_buffer: reg(regs, ids::DEPTHMAP_ENABLE) & 1 == 0,
            textures,
            texenv,
            buffer_writes,
            shadow_render: op.mode == FragmentOpMode::Shadow,
            alpha_test: if at.enabled { at.func } else { CompareFunc::Always },
            fog,
            lighting: LightingKey::decode(regs),
            proctex: ProcTexKey::decode(
                reg(regs, ids::TEXUNIT_CONFIG),
                reg(regs, ids::PROCTEX[0]),
                reg(regs, ids::PROCTEX[4]),
            ),
        }
    }

    /// Sets every field that cannot change the output to its canonical value.
    fn canonicalise(&mut self) {
        if self.shadow_render {
            // Decision D10: nothing after the combiners runs.
            self.alpha_test = CompareFunc::Always;
            self.fog = FogKey::Off;
        } else if self.alpha_test == CompareFunc::Never {
            // Every fragment is discarded: nothing else is read but the depth mode.
            *self = FragmentKey { w_buffer: self.w_buffer, alpha_test: CompareFunc::Never, ..Default::default() };
            return;
        }
        let textures = self.textures;
        let producers = Producers { textures, lighting: self.lighting.enabled, proctex: self.proctex.enabled };
        let mut read = [false; 3];
        let (mut lighting_read, mut proctex_read) = (false, false);
        let mut last_buffer_reader = 0usize;
        for (i, st) in self.texenv.iter_mut().enumerate() {
            canonical_stage(st, i, &producers);
            let used_rgb = combine_arity(st.rgb_combine);
            let used_alpha = combine_arity(st.alpha_combine);
            let sources = st.rgb_source[..used_rgb].iter().chain(&st.alpha_source[..used_alpha]);
            for s in sources {
                match s {
                    TexEnvSource::Texture0 => read[0] = true,
                    TexEnvSource::Texture1 => read[1] = true,
                    TexEnvSource::Texture2 => read[2] = true,
                    TexEnvSource::Texture3 => proctex_read = true,
                    TexEnvSource::FragmentPrimaryColor | TexEnvSource::FragmentSecondaryColor => lighting_read = true,
                    TexEnvSource::PreviousBuffer => last_buffer_reader = last_buffer_reader.max(i),
                    _ => {}
                }
            }
        }
        // Lighting reads its bump and shadow units (0-3) itself.
        self.lighting.canonicalise(lighting_read);
        for unit in self.lighting.units_read().into_iter().flatten() {
            match unit {
                3 => proctex_read = true,
                u => read[usize::from(u)] = true,
            }
        }
        if !proctex_read {
            self.proctex = ProcTexKey::default();
        }
        self.proctex.canonicalise();
        for (unit, r) in self.textures.iter_mut().zip(read) {
            if !r || unit.kind == UnitKind::Off {
                *unit = TextureUnitKey::default();
            }
        }
        // Stage k reads the buffer as stages 0..k-2 left it (facts 2.3).
        for j in 0..4 {
            if j + 2 > last_buffer_reader {
                self.buffer_writes.rgb[j] = false;
                self.buffer_writes.alpha[j] = false;
            }
        }
    }
}

/// The canonical form of one stage (see the module comment).
/// Which sources produce something (a source whose producer is off reads (0, 0, 0, 0)).
struct Producers {
    textures: [TextureUnitKey; 3],
    lighting: bool,
    proctex: bool,
}

fn canonical_stage(st: &mut TexEnvStageKey, index: usize, producers: &Producers) {
    let textures = &producers.textures;
    // Decision D3c: resolve the stage-0 substitution before the unused inputs are cleared.
    for slot in 0..3 {
        if decisions::stage0_substitutes_rgb(index, slot) && st.rgb_source[slot] == TexEnvSource::Previous {
            st.rgb_source[slot] = st.rgb_source[2];
        }
    }
    if combine_arity(st.rgb_combine) == 0 {
        st.rgb_combine = ZERO_COMBINE;
    }
    let dot3_rgba = st.rgb_combine == TexEnvCombine::Dot3Rgba;
    if dot3_rgba
        || combine_arity(st.alpha_combine) == 0
        || matches!(st.alpha_combine, TexEnvCombine::Dot3Rgb | TexEnvCombine::Dot3Rgba)
    {
        // Dot3 RGBA ignores the alpha combiner (facts 2.6); the others give 0 (D4c).
        st.alpha_combine = ZERO_COMBINE;
    }
    let zero_source = |s: TexEnvSource| {
        let unit = match s {
            TexEnvSource::Texture0 => Some(0),
            TexEnvSource::Texture1 => Some(1),
            TexEnvSource::Texture2 => Some(2),
            _ => None,
        };
        let off_producer = match s {
            TexEnvSource::FragmentPrimaryColor | TexEnvSource::FragmentSecondaryColor => !producers.lighting,
            TexEnvSource::Texture3 => !producers.proctex,
            _ => false,
        };
        matches!(s, TexEnvSource::Other(_)) || off_producer || unit.is_some_and(|u| textures[u].kind == UnitKind::Off)
    };
    // In stage 0, "previous" and "previous buffer" read constants (D3a, D3b); where those are
    // the zero of the undefined sources, the canonical form is the zero source.
    let stage0_zero = |s: TexEnvSource| {
        index == 0
            && ((s == TexEnvSource::Previous && decisions::STAGE0_PREVIOUS == decisions::UNDEFINED_SOURCE)
                || (s == TexEnvSource::PreviousBuffer && decisions::STAGE0_BUFFER == decisions::UNDEFINED_SOURCE))
    };
    let zero_source = |s: TexEnvSource| zero_source(s) || stage0_zero(s);
    let n_rgb = combine_arity(st.rgb_combine);
    for slot in 0..3 {
        if slot >= n_rgb {
            st.rgb_source[slot] = UNUSED_SOURCE;
            st.rgb_operand[slot] = TexEnvRgbOperand::SrcColor;
        } else {
            if zero_source(st.rgb_source[slot]) {
                st.rgb_source[slot] = ZERO_SOURCE;
            }
            if matches!(st.rgb_operand[slot], TexEnvRgbOperand::Other(_)) {
                st.rgb_operand[slot] = ZERO_RGB_OPERAND;
            }
        }
    }
    let n_alpha = if dot3_rgba { 0 } else { combine_arity(st.alpha_combine) };
    for slot in 0..3 {
        if slot >= n_alpha {
            st.alpha_source[slot] = UNUSED_SOURCE;
            st.alpha_operand[slot] = TexEnvAlphaOperand::SrcAlpha;
        } else if zero_source(st.alpha_source[slot]) {
            st.alpha_source[slot] = ZERO_SOURCE;
        }
    }
    let canon_scale = |s: TexEnvScale| match s {
        TexEnvScale::X2 | TexEnvScale::X4 => s,
        _ => TexEnvScale::X1,
    };
    st.rgb_scale = if st.rgb_combine == ZERO_COMBINE { TexEnvScale::X1 } else { canon_scale(st.rgb_scale) };
    // Dot3 RGBA's alpha is the dot product scaled by the alpha scale (facts 2.7).
    st.alpha_scale =
        if st.alpha_combine == ZERO_COMBINE && !dot3_rgba { TexEnvScale::X1 } else { canon_scale(st.alpha_scale) };
}

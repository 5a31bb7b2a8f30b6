//! The register table: every id 0x000-0x2FF with its name (as the register page spells it) and
//! its layout. One entry covers a run of ids: `count` instances `stride` ids apart, named by
//! replacing `#` with `first + instance`. Alias runs (`alias: true`) are several ids for one
//! register, such as the LUT and upload data ports, which exist so that a consecutive command can
//! stream data into them.

use std::sync::OnceLock;

use super::fields::Layout;
use super::layouts::*;

/// Number of register ids the table covers (0x000-0x2FF).
pub const REGISTER_COUNT: usize = 0x300;

/// One run of register ids.
#[derive(Clone, Copy, Debug)]
pub struct Def {
    pub id: u16,
    pub count: u16,
    pub stride: u16,
    /// The number that replaces `#` for the first instance.
    pub first: u16,
    pub name: &'static str,
    pub layout: &'static Layout,
    /// The instances are aliases of one register (a data port).
    pub alias: bool,
}

const fn one(id: u16, name: &'static str, layout: &'static Layout) -> Def {
    Def { id, count: 1, stride: 1, first: 0, name, layout, alias: false }
}

const fn run(id: u16, count: u16, stride: u16, first: u16, name: &'static str, layout: &'static Layout) -> Def {
    Def { id, count, stride, first, name, layout, alias: false }
}

const fn port(id: u16, count: u16, name: &'static str, layout: &'static Layout) -> Def {
    Def { id, count, stride: 1, first: 0, name, layout, alias: true }
}

/// The named registers of the page, in id order within each section. Ids not listed are the
/// page's placeholders (`GPUREG_xxxx`) with the [`Raw`] layout.
pub static DEFS: &[Def] = &[
    // Miscellaneous.
    one(0x010, "GPUREG_FINALIZE", &Trigger::LAYOUT),
    // Rasterizer.
    one(0x040, "GPUREG_FACECULLING_CONFIG", &CullConfig::LAYOUT),
    one(0x041, "GPUREG_VIEWPORT_WIDTH", &FloatValue24::LAYOUT),
    one(0x042, "GPUREG_VIEWPORT_INVW", &FloatValue31::LAYOUT),
    one(0x043, "GPUREG_VIEWPORT_HEIGHT", &FloatValue24::LAYOUT),
    one(0x044, "GPUREG_VIEWPORT_INVH", &FloatValue31::LAYOUT),
    one(0x047, "GPUREG_FRAGOP_CLIP", &Enable::LAYOUT),
    run(0x048, 4, 1, 0, "GPUREG_FRAGOP_CLIP_DATA#", &FloatValue24::LAYOUT),
    one(0x04D, "GPUREG_DEPTHMAP_SCALE", &FloatValue24::LAYOUT),
    one(0x04E, "GPUREG_DEPTHMAP_OFFSET", &FloatValue24::LAYOUT),
    one(0x04F, "GPUREG_SH_OUTMAP_TOTAL", &OutmapTotal::LAYOUT),
    run(0x050, 7, 1, 0, "GPUREG_SH_OUTMAP_O#", &Outmap::LAYOUT),
    one(0x061, "GPUREG_EARLYDEPTH_FUNC", &EarlyDepthFuncReg::LAYOUT),
    one(0x062, "GPUREG_EARLYDEPTH_TEST1", &Enable::LAYOUT),
    one(0x063, "GPUREG_EARLYDEPTH_CLEAR", &TriggerBit::LAYOUT),
    one(0x064, "GPUREG_SH_OUTATTR_MODE", &OutattrMode::LAYOUT),
    one(0x065, "GPUREG_SCISSORTEST_MODE", &ScissorMode::LAYOUT),
    one(0x066, "GPUREG_SCISSORTEST_POS", &Xy10::LAYOUT),
    one(0x067, "GPUREG_SCISSORTEST_DIM", &Xy10::LAYOUT),
    one(0x068, "GPUREG_VIEWPORT_XY", &SignedXy10::LAYOUT),
    one(0x06A, "GPUREG_EARLYDEPTH_DATA", &Value24::LAYOUT),
    one(0x06D, "GPUREG_DEPTHMAP_ENABLE", &Enable::LAYOUT),
    one(0x06E, "GPUREG_RENDERBUF_DIM", &BufferDim::LAYOUT),
    one(0x06F, "GPUREG_SH_OUTATTR_CLOCK", &OutattrClock::LAYOUT),
    // Texturing.
    one(0x080, "GPUREG_TEXUNIT_CONFIG", &TexUnitConfig::LAYOUT),
    one(0x081, "GPUREG_TEXUNIT0_BORDER_COLOR", &Rgba8::LAYOUT),
    one(0x082, "GPUREG_TEXUNIT0_DIM", &TexDim::LAYOUT),
    one(0x083, "GPUREG_TEXUNIT0_PARAM", &TexParam::LAYOUT),
    one(0x084, "GPUREG_TEXUNIT0_LOD", &TexLod::LAYOUT),
    one(0x085, "GPUREG_TEXUNIT0_ADDR1", &TexAddr1::LAYOUT),
    run(0x086, 5, 1, 2, "GPUREG_TEXUNIT0_ADDR#", &TexAddrN::LAYOUT),
    one(0x08B, "GPUREG_TEXUNIT0_SHADOW", &TexShadow::LAYOUT),
    one(0x08E, "GPUREG_TEXUNIT0_TYPE", &TexType::LAYOUT),
    one(0x08F, "GPUREG_LIGHTING_ENABLE0", &Enable::LAYOUT),
    run(0x091, 2, 8, 1, "GPUREG_TEXUNIT#_BORDER_COLOR", &Rgba8::LAYOUT),
    run(0x092, 2, 8, 1, "GPUREG_TEXUNIT#_DIM", &TexDim::LAYOUT),
    run(0x093, 2, 8, 1, "GPUREG_TEXUNIT#_PARAM", &TexParam::LAYOUT),
    run(0x094, 2, 8, 1, "GPUREG_TEXUNIT#_LOD", &TexLod::LAYOUT),
    run(0x095, 2, 8, 1, "GPUREG_TEXUNIT#_ADDR", &TexAddr1::LAYOUT),
    run(0x096, 2, 8, 1, "GPUREG_TEXUNIT#_TYPE", &TexType::LAYOUT),
    one(0x0A8, "GPUREG_TEXUNIT3_PROCTEX0", &ProcTex0::LAYOUT),
    one(0x0A9, "GPUREG_TEXUNIT3_PROCTEX1", &ProcTexNoise::LAYOUT),
    one(0x0AA, "GPUREG_TEXUNIT3_PROCTEX2", &ProcTexNoise::LAYOUT),
    one(0x0AB, "GPUREG_TEXUNIT3_PROCTEX3", &ProcTex3::LAYOUT),
    one(0x0AC, "GPUREG_TEXUNIT3_PROCTEX4", &ProcTex4::LAYOUT),
    one(0x0AD, "GPUREG_TEXUNIT3_PROCTEX5", &ProcTex5::LAYOUT),
    one(0x0AF, "GPUREG_PROCTEX_LUT", &ProcTexLutIndex::LAYOUT),
    port(0x0B0, 8, "GPUREG_PROCTEX_LUT_DATA#", &LutData::LAYOUT),
    run(0x0C0, 4, 8, 0, "GPUREG_TEXENV#_SOURCE", &TexEnvSourceReg::LAYOUT),
    run(0x0C1, 4, 8, 0, "GPUREG_TEXENV#_OPERAND", &TexEnvOperandReg::LAYOUT),
    run(0x0C2, 4, 8, 0, "GPUREG_TEXENV#_COMBINER", &TexEnvCombinerReg::LAYOUT),
    run(0x0C3, 4, 8, 0, "GPUREG_TEXENV#_COLOR", &Rgba8::LAYOUT),
    run(0x0C4, 4, 8, 0, "GPUREG_TEXENV#_SCALE", &TexEnvScaleReg::LAYOUT),
    one(0x0E0, "GPUREG_TEXENV_UPDATE_BUFFER", &TexEnvUpdateBuffer::LAYOUT),
    one(0x0E1, "GPUREG_FOG_COLOR", &Rgb8::LAYOUT),
    one(0x0E4, "GPUREG_GAS_ATTENUATION", &Float16Value::LAYOUT),
    one(0x0E5, "GPUREG_GAS_ACCMAX", &Float16Value::LAYOUT),
    one(0x0E6, "GPUREG_FOG_LUT_INDEX", &LutIndex16::LAYOUT),
    port(0x0E8, 8, "GPUREG_FOG_LUT_DATA#", &LutData::LAYOUT),
    run(0x0F0, 2, 8, 4, "GPUREG_TEXENV#_SOURCE", &TexEnvSourceReg::LAYOUT),
    run(0x0F1, 2, 8, 4, "GPUREG_TEXENV#_OPERAND", &TexEnvOperandReg::LAYOUT),
    run(0x0F2, 2, 8, 4, "GPUREG_TEXENV#_COMBINER", &TexEnvCombinerReg::LAYOUT),
    run(0x0F3, 2, 8, 4, "GPUREG_TEXENV#_COLOR", &Rgba8::LAYOUT),
    run(0x0F4, 2, 8, 4, "GPUREG_TEXENV#_SCALE", &TexEnvScaleReg::LAYOUT),
    one(0x0FD, "GPUREG_TEXENV_BUFFER_COLOR", &Rgba8::LAYOUT),
    // Framebuffer.
    one(0x100, "GPUREG_COLOR_OPERATION", &ColorOperation::LAYOUT),
    one(0x101, "GPUREG_BLEND_FUNC", &BlendFunc::LAYOUT),
    one(0x102, "GPUREG_LOGIC_OP", &LogicOpReg::LAYOUT),
    one(0x103, "GPUREG_BLEND_COLOR", &Rgba8::LAYOUT),
    one(0x104, "GPUREG_FRAGOP_ALPHA_TEST", &AlphaTest::LAYOUT),
    one(0x105, "GPUREG_STENCIL_TEST", &StencilTest::LAYOUT),
    one(0x106, "GPUREG_STENCIL_OP", &StencilOpReg::LAYOUT),
    one(0x107, "GPUREG_DEPTH_COLOR_MASK", &DepthColorMask::LAYOUT),
    one(0x110, "GPUREG_FRAMEBUFFER_INVALIDATE", &TriggerBit::LAYOUT),
    one(0x111, "GPUREG_FRAMEBUFFER_FLUSH", &TriggerBit::LAYOUT),
    one(0x112, "GPUREG_COLORBUFFER_READ", &Access4::LAYOUT),
    one(0x113, "GPUREG_COLORBUFFER_WRITE", &Access4::LAYOUT),
    one(0x114, "GPUREG_DEPTHBUFFER_READ", &DepthStencilAccess::LAYOUT),
    one(0x115, "GPUREG_DEPTHBUFFER_WRITE", &DepthStencilAccess::LAYOUT),
    one(0x116, "GPUREG_DEPTHBUFFER_FORMAT", &DepthFormatReg::LAYOUT),
    one(0x117, "GPUREG_COLORBUFFER_FORMAT", &ColorFormatReg::LAYOUT),
    one(0x118, "GPUREG_EARLYDEPTH_TEST2", &Enable::LAYOUT),
    one(0x11B, "GPUREG_FRAMEBUFFER_BLOCK32", &Block32::LAYOUT),
    one(0x11C, "GPUREG_DEPTHBUFFER_LOC", &Address28::LAYOUT),
    one(0x11D, "GPUREG_COLORBUFFER_LOC", &Address28::LAYOUT),
    one(0x11E, "GPUREG_FRAMEBUFFER_DIM", &BufferDim::LAYOUT),
    one(0x120, "GPUREG_GAS_LIGHT_XY", &GasLight::LAYOUT),
    one(0x121, "GPUREG_GAS_LIGHT_Z", &GasLight::LAYOUT),
    one(0x122, "GPUREG_GAS_LIGHT_Z_COLOR", &GasLightZColor::LAYOUT),
    one(0x123, "GPUREG_GAS_LUT_INDEX", &LutIndex16::LAYOUT),
    one(0x124, "GPUREG_GAS_LUT_DATA", &LutData::LAYOUT),
    one(0x126, "GPUREG_GAS_DELTAZ_DEPTH", &GasDeltaZ::LAYOUT),
    one(0x130, "GPUREG_FRAGOP_SHADOW", &FragopShadow::LAYOUT),
    // Fragment lighting: eight lights, 0x10 ids apart.
    run(0x140, 8, 0x10, 0, "GPUREG_LIGHT#_SPECULAR0", &LightColor::LAYOUT),
    run(0x141, 8, 0x10, 0, "GPUREG_LIGHT#_SPECULAR1", &LightColor::LAYOUT),
    run(0x142, 8, 0x10, 0, "GPUREG_LIGHT#_DIFFUSE", &LightColor::LAYOUT),
    run(0x143, 8, 0x10, 0, "GPUREG_LIGHT#_AMBIENT", &LightColor::LAYOUT),
    run(0x144, 8, 0x10, 0, "GPUREG_LIGHT#_XY", &LightXy::LAYOUT),
    run(0x145, 8, 0x10, 0, "GPUREG_LIGHT#_Z", &LightZ::LAYOUT),
    run(0x146, 8, 0x10, 0, "GPUREG_LIGHT#_SPOTDIR_XY", &SpotXy::LAYOUT),
    run(0x147, 8, 0x10, 0, "GPUREG_LIGHT#_SPOTDIR_Z", &SpotZ::LAYOUT),
    run(0x149, 8, 0x10, 0, "GPUREG_LIGHT#_CONFIG", &LightConfig::LAYOUT),
    run(0x14A, 8, 0x10, 0, "GPUREG_LIGHT#_ATTENUATION_BIAS", &Float20Value::LAYOUT),
    run(0x14B, 8, 0x10, 0, "GPUREG_LIGHT#_ATTENUATION_SCALE", &Float20Value::LAYOUT),
    one(0x1C0, "GPUREG_LIGHTING_AMBIENT", &LightColor::LAYOUT),
    one(0x1C2, "GPUREG_LIGHTING_NUM_LIGHTS", &NumLights::LAYOUT),
    one(0x1C3, "GPUREG_LIGHTING_CONFIG0", &LightingConfig0::LAYOUT),
    one(0x1C4, "GPUREG_LIGHTING_CONFIG1", &LightingConfig1::LAYOUT),
    one(0x1C5, "GPUREG_LIGHTING_LUT_INDEX", &LightingLutIndex::LAYOUT),
    one(0x1C6, "GPUREG_LIGHTING_ENABLE1", &Disabled::LAYOUT),
    port(0x1C8, 8, "GPUREG_LIGHTING_LUT_DATA#", &LutData::LAYOUT),
    one(0x1D0, "GPUREG_LIGHTING_LUTINPUT_ABS", &LutInputAbs::LAYOUT),
    one(0x1D1, "GPUREG_LIGHTING_LUTINPUT_SELECT", &LutInputSelect::LAYOUT),
    one(0x1D2, "GPUREG_LIGHTING_LUTINPUT_SCALE", &LutInputScale::LAYOUT),
    one(0x1D9, "GPUREG_LIGHTING_LIGHT_PERMUTATION", &LightPermutation::LAYOUT),
    // Geometry pipeline.
    one(0x200, "GPUREG_ATTRIBBUFFERS_LOC", &AttribBuffersLoc::LAYOUT),
    one(0x201, "GPUREG_ATTRIBBUFFERS_FORMAT_LOW", &AttribFormatLow::LAYOUT),
    one(0x202, "GPUREG_ATTRIBBUFFERS_FORMAT_HIGH", &AttribFormatHigh::LAYOUT),
    run(0x203, 12, 3, 0, "GPUREG_ATTRIBBUFFER#_OFFSET", &Offset28::LAYOUT),
    run(0x204, 12, 3, 0, "GPUREG_ATTRIBBUFFER#_CONFIG1", &BufferConfig1::LAYOUT),
    run(0x205, 12, 3, 0, "GPUREG_ATTRIBBUFFER#_CONFIG2", &BufferConfig2::LAYOUT),
    one(0x227, "GPUREG_INDEXBUFFER_CONFIG", &IndexBufferConfig::LAYOUT),
    one(0x228, "GPUREG_NUMVERTICES", &Number::LAYOUT),
    one(0x229, "GPUREG_GEOSTAGE_CONFIG", &GeostageConfig::LAYOUT),
    one(0x22A, "GPUREG_VERTEX_OFFSET", &Number::LAYOUT),
    one(0x22D, "GPUREG_POST_VERTEX_CACHE_NUM", &CacheNum::LAYOUT),
    one(0x22E, "GPUREG_DRAWARRAYS", &Trigger::LAYOUT),
    one(0x22F, "GPUREG_DRAWELEMENTS", &Trigger::LAYOUT),
    one(0x231, "GPUREG_VTX_FUNC", &Trigger::LAYOUT),
    one(0x232, "GPUREG_FIXEDATTRIB_INDEX", &FixedAttribIndex::LAYOUT),
    one(0x233, "GPUREG_FIXEDATTRIB_DATA0", &FixedAttribData0::LAYOUT),
    one(0x234, "GPUREG_FIXEDATTRIB_DATA1", &FixedAttribData1::LAYOUT),
    one(0x235, "GPUREG_FIXEDATTRIB_DATA2", &FixedAttribData2::LAYOUT),
    run(0x238, 2, 1, 0, "GPUREG_CMDBUF_SIZE#", &CmdbufSize::LAYOUT),
    run(0x23A, 2, 1, 0, "GPUREG_CMDBUF_ADDR#", &CmdbufAddr::LAYOUT),
    run(0x23C, 2, 1, 0, "GPUREG_CMDBUF_JUMP#", &Trigger::LAYOUT),
    one(0x242, "GPUREG_VSH_NUM_ATTR", &Count4::LAYOUT),
    one(0x244, "GPUREG_VSH_COM_MODE", &ComMode::LAYOUT),
    one(0x245, "GPUREG_START_DRAW_FUNC0", &StartDrawFunc0::LAYOUT),
    one(0x24A, "GPUREG_VSH_OUTMAP_TOTAL1", &Count4::LAYOUT),
    one(0x251, "GPUREG_VSH_OUTMAP_TOTAL2", &Count4::LAYOUT),
    one(0x252, "GPUREG_GSH_MISC0", &Trigger::LAYOUT),
    one(0x253, "GPUREG_GEOSTAGE_CONFIG2", &GeostageConfig2::LAYOUT),
    one(0x254, "GPUREG_GSH_MISC1", &GshMisc1::LAYOUT),
    one(0x25E, "GPUREG_PRIMITIVE_CONFIG", &PrimitiveConfig::LAYOUT),
    one(0x25F, "GPUREG_RESTART_PRIMITIVE", &TriggerBit::LAYOUT),
    // Shader units: geometry at 0x280, vertex at 0x2B0, same layout.
    run(0x280, 2, 0x30, 0, "GPUREG_#SH_BOOLUNIFORM", &BoolUniform::LAYOUT),
    run(0x281, 2, 0x30, 0, "GPUREG_#SH_INTUNIFORM_I0", &IntUniform::LAYOUT),
    run(0x282, 2, 0x30, 0, "GPUREG_#SH_INTUNIFORM_I1", &IntUniform::LAYOUT),
    run(0x283, 2, 0x30, 0, "GPUREG_#SH_INTUNIFORM_I2", &IntUniform::LAYOUT),
    run(0x284, 2, 0x30, 0, "GPUREG_#SH_INTUNIFORM_I3", &IntUniform::LAYOUT),
    run(0x289, 2, 0x30, 0, "GPUREG_#SH_INPUTBUFFER_CONFIG", &InputBufferConfig::LAYOUT),
    run(0x28A, 2, 0x30, 0, "GPUREG_#SH_ENTRYPOINT", &EntryPoint::LAYOUT),
    run(0x28B, 2, 0x30, 0, "GPUREG_#SH_ATTRIBUTES_PERMUTATION_LOW", &Permutation::LAYOUT),
    run(0x28C, 2, 0x30, 0, "GPUREG_#SH_ATTRIBUTES_PERMUTATION_HIGH", &Permutation::LAYOUT),
    run(0x28D, 2, 0x30, 0, "GPUREG_#SH_OUTMAP_MASK", &OutmapMask::LAYOUT),
    run(0x28F, 2, 0x30, 0, "GPUREG_#SH_CODETRANSFER_END", &Trigger::LAYOUT),
    run(0x290, 2, 0x30, 0, "GPUREG_#SH_FLOATUNIFORM_INDEX", &FloatUniformIndex::LAYOUT),
    port(0x291, 8, "GPUREG_GSH_FLOATUNIFORM_DATA#", &LutData::LAYOUT),
    port(0x2C1, 8, "GPUREG_VSH_FLOATUNIFORM_DATA#", &LutData::LAYOUT),
    run(0x29B, 2, 0x30, 0, "GPUREG_#SH_CODETRANSFER_INDEX", &Offset12::LAYOUT),
    port(0x29C, 8, "GPUREG_GSH_CODETRANSFER_DATA#", &LutData::LAYOUT),
    port(0x2CC, 8, "GPUREG_VSH_CODETRANSFER_DATA#", &LutData::LAYOUT),
    run(0x2A5, 2, 0x30, 0, "GPUREG_#SH_OPDESCS_INDEX", &Offset12::LAYOUT),
    port(0x2A6, 8, "GPUREG_GSH_OPDESCS_DATA#", &LutData::LAYOUT),
    port(0x2D6, 8, "GPUREG_VSH_OPDESCS_DATA#", &LutData::LAYOUT),
];

/// One register id, as the table names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Register {
    pub id: u16,
    /// The page's name (placeholders `GPUREG_xxxx` for undocumented ids).
    pub name: String,
    pub layout: &'static Layout,
    /// For alias ids: the first id of the run (the port's base).
    pub alias_of: Option<u16>,
    /// The number in the name (texture unit, light, TexEnv stage, attribute buffer, port slot).
    pub instance: Option<u16>,
    /// Whether the page documents the register (false for placeholders).
    pub documented: bool,
}

fn slots() -> &'static [Option<(u16, u16)>] {
    static SLOTS: OnceLock<Vec<Option<(u16, u16)>>> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let mut v = vec![None; REGISTER_COUNT];
        for (d, def) in DEFS.iter().enumerate() {
            for i in 0..def.count {
                let id = usize::from(def.id + i * def.stride);
                assert!(v[id].is_none(), "register 0x{id:03x} listed twice");
                v[id] = Some((d as u16, i));
            }
        }
        v
    })
}

/// The shader unit names: `#SH` instance 0 is the geometry shader, 1 the vertex shader.
fn instance_name(def: &Def, i: u16) -> String {
    if def.name.contains("#SH") {
        return def.name.replace("#SH", if i == 0 { "GSH" } else { "VSH" });
    }
    def.name.replace('#', &(def.first + i).to_string())
}

/// The register at `id`, or `None` for ids above 0x2FF.
pub fn lookup(id: u16) -> Option<Register> {
    let slot = *slots().get(usize::from(id))?;
    Some(match slot {
        None => Register {
            id,
            name: format!("GPUREG_{id:04X}"),
            layout: &Raw::LAYOUT,
            alias_of: None,
            instance: None,
            documented: false,
        },
        Some((d, i)) => {
            let def = &DEFS[usize::from(d)];
            Register {
                id,
                name: instance_name(def, i),
                layout: def.layout,
                alias_of: def.alias.then_some(def.id),
                instance: (def.count > 1 || def.first != 0).then_some(def.first + i),
                documented: true,
            }
        }
    })
}

/// The layout of `id` (the raw layout for ids outside the table).
pub fn layout(id: u16) -> &'static Layout {
    match slots().get(usize::from(id)).copied().flatten() {
        Some((d, _)) => DEFS[usize::from(d)].layout,
        None => &Raw::LAYOUT,
    }
}

/// The name of `id`: the page's, or `GPUREG_xxxx` for ids outside the table.
pub fn name(id: u16) -> String {
    lookup(id).map(|r| r.name).unwrap_or_else(|| format!("GPUREG_{id:04X}"))
}

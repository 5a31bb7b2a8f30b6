//! Every register layout of the register page (3dbrew "GPU/Internal Registers", the per-register
//! sections), one `pica_register!` per layout, and the enumerations of their values.

use super::fields::{pica_enum, pica_register, Fixed, Hex, Signed, F16, F20, F24, F31};

pica_enum! {
    /// GPUREG_FACECULLING_CONFIG culling mode.
    CullMode { 0 => None "none", 1 => FrontCcw "front_ccw", 2 => BackCcw "back_ccw" }
}
pica_enum! {
    /// Compare functions of the alpha, stencil and depth tests.
    CompareFunc {
        0 => Never "never", 1 => Always "always", 2 => Equal "equal", 3 => NotEqual "not_equal",
        4 => Less "less", 5 => LessEqual "less_equal", 6 => Greater "greater", 7 => GreaterEqual "greater_equal",
    }
}
pica_enum! {
    /// GPUREG_EARLYDEPTH_FUNC.
    EarlyDepthFunc { 0 => GreaterEqual "greater_equal", 1 => Greater "greater", 2 => LessEqual "less_equal", 3 => Less "less" }
}
pica_enum! {
    /// GPUREG_SH_OUTMAP_O*i* component semantics.
    OutputSemantic {
        0x00 => PositionX "position.x", 0x01 => PositionY "position.y", 0x02 => PositionZ "position.z", 0x03 => PositionW "position.w",
        0x04 => NormquatX "normquat.x", 0x05 => NormquatY "normquat.y", 0x06 => NormquatZ "normquat.z", 0x07 => NormquatW "normquat.w",
        0x08 => ColorR "color.r", 0x09 => ColorG "color.g", 0x0A => ColorB "color.b", 0x0B => ColorA "color.a",
        0x0C => Texcoord0U "texcoord0.u", 0x0D => Texcoord0V "texcoord0.v", 0x0E => Texcoord1U "texcoord1.u", 0x0F => Texcoord1V "texcoord1.v",
        0x10 => Texcoord0W "texcoord0.w", 0x12 => ViewX "view.x", 0x13 => ViewY "view.y", 0x14 => ViewZ "view.z",
        0x16 => Texcoord2U "texcoord2.u", 0x17 => Texcoord2V "texcoord2.v", 0x1F => Unused "unused",
    }
}
pica_enum! {
    /// Texture 3 (procedural) coordinate source.
    Tex3Coords { 0 => Texture0 "texture0", 1 => Texture1 "texture1", 2 => Texture2 "texture2" }
}
pica_enum! {
    /// Texture 2 coordinate source.
    Tex2Coords { 0 => Texture2 "texture2", 1 => Texture1 "texture1" }
}
pica_enum! {
    /// Texture filters.
    Filter { 0 => Nearest "nearest", 1 => Linear "linear" }
}
pica_enum! {
    /// Texture wrap modes.
    Wrap { 0 => ClampToEdge "clamp_to_edge", 1 => ClampToBorder "clamp_to_border", 2 => Repeat "repeat", 3 => MirroredRepeat "mirrored_repeat" }
}
pica_enum! {
    /// Texture unit 0 type.
    TextureType {
        0 => Tex2d "2d", 1 => CubeMap "cube_map", 2 => Shadow2d "shadow_2d", 3 => Projection "projection",
        4 => ShadowCube "shadow_cube", 5 => Disabled "disabled",
    }
}
pica_enum! {
    /// Texture formats (GPUREG_TEXUNIT*i*_TYPE).
    TextureFormat {
        0x0 => Rgba8 "RGBA8", 0x1 => Rgb8 "RGB8", 0x2 => Rgba5551 "RGBA5551", 0x3 => Rgb565 "RGB565",
        0x4 => Rgba4 "RGBA4", 0x5 => Ia8 "IA8", 0x6 => Hilo8 "HILO8", 0x7 => I8 "I8", 0x8 => A8 "A8",
        0x9 => Ia4 "IA4", 0xA => I4 "I4", 0xB => A4 "A4", 0xC => Etc1 "ETC1", 0xD => Etc1a4 "ETC1A4",
    }
}
pica_enum! {
    /// Procedural texture clamp modes.
    ProcTexClamp { 0 => ClampToZero "clamp_to_zero", 1 => ClampToEdge "clamp_to_edge", 2 => SymmetricalRepeat "symmetrical_repeat", 3 => MirroredRepeat "mirrored_repeat", 4 => Pulse "pulse" }
}
pica_enum! {
    /// Procedural texture mapping functions.
    ProcTexMap {
        0 => U "u", 1 => U2 "u2", 2 => V "v", 3 => V2 "v2", 4 => UPlusV "u+v", 5 => U2PlusV2 "u2+v2",
        6 => Sqrt2 "sqrt(u2*u2+v2*v2)", 7 => Min "min", 8 => Max "max", 9 => Rmax "rmax",
    }
}
pica_enum! {
    /// Procedural texture shifts.
    ProcTexShift { 0 => None "none", 1 => Odd "odd", 2 => Even "even" }
}
pica_enum! {
    /// Procedural texture minification filters.
    ProcTexFilter {
        0 => Nearest "nearest", 1 => Linear "linear", 2 => NearestMipNearest "nearest_mipmap_nearest",
        3 => LinearMipNearest "linear_mipmap_nearest", 4 => NearestMipLinear "nearest_mipmap_linear", 5 => LinearMipLinear "linear_mipmap_linear",
    }
}
pica_enum! {
    /// GPUREG_PROCTEX_LUT reference tables.
    ProcTexLut { 0 => Noise "noise", 2 => RgbMap "rgb_map", 3 => AlphaMap "alpha_map", 4 => Color "color", 5 => ColorDiff "color_diff" }
}
pica_enum! {
    /// TexEnv combiner sources.
    TexEnvSource {
        0 => PrimaryColor "primary_color", 1 => FragmentPrimaryColor "fragment_primary_color",
        2 => FragmentSecondaryColor "fragment_secondary_color", 3 => Texture0 "texture0", 4 => Texture1 "texture1",
        5 => Texture2 "texture2", 6 => Texture3 "texture3", 13 => PreviousBuffer "previous_buffer",
        14 => Constant "constant", 15 => Previous "previous",
    }
}
pica_enum! {
    /// TexEnv RGB operands.
    TexEnvRgbOperand {
        0 => SrcColor "src_color", 1 => OneMinusSrcColor "one_minus_src_color", 2 => SrcAlpha "src_alpha",
        3 => OneMinusSrcAlpha "one_minus_src_alpha", 4 => SrcRed "src_r", 5 => OneMinusSrcRed "one_minus_src_r",
        8 => SrcGreen "src_g", 9 => OneMinusSrcGreen "one_minus_src_g", 12 => SrcBlue "src_b", 13 => OneMinusSrcBlue "one_minus_src_b",
    }
}
pica_enum! {
    /// TexEnv alpha operands.
    TexEnvAlphaOperand {
        0 => SrcAlpha "src_alpha", 1 => OneMinusSrcAlpha "one_minus_src_alpha", 2 => SrcRed "src_r", 3 => OneMinusSrcRed "one_minus_src_r",
        4 => SrcGreen "src_g", 5 => OneMinusSrcGreen "one_minus_src_g", 6 => SrcBlue "src_b", 7 => OneMinusSrcBlue "one_minus_src_b",
    }
}
pica_enum! {
    /// TexEnv combine functions.
    TexEnvCombine {
        0 => Replace "replace", 1 => Modulate "modulate", 2 => Add "add", 3 => AddSigned "add_signed",
        4 => Interpolate "interpolate", 5 => Subtract "subtract", 6 => Dot3Rgb "dot3_rgb", 7 => Dot3Rgba "dot3_rgba",
        8 => MultiplyAdd "multiply_add", 9 => AddMultiply "add_multiply",
    }
}
pica_enum! {
    /// TexEnv scales.
    TexEnvScale { 0 => X1 "1x", 1 => X2 "2x", 2 => X4 "4x" }
}
pica_enum! {
    /// Gas/fog mode.
    FogMode { 0 => Disabled "disabled", 5 => Fog "fog", 7 => Gas "gas" }
}
pica_enum! {
    /// Gas shading density source.
    DensitySource { 0 => Plain "plain", 1 => Depth "depth" }
}
pica_enum! {
    /// TexEnv buffer inputs.
    BufferInput { 0 => PreviousBuffer "previous_buffer", 1 => Previous "previous" }
}
pica_enum! {
    /// Fragment operation modes.
    FragmentOpMode { 0 => Default "default", 1 => Gas "gas", 3 => Shadow "shadow" }
}
pica_enum! {
    /// Logic op or blend.
    BlendMode { 0 => LogicOp "logic_op", 1 => Blend "blend" }
}
pica_enum! {
    /// Blend equations.
    BlendEquation { 0 => Add "add", 1 => Subtract "subtract", 2 => ReverseSubtract "reverse_subtract", 3 => Min "min", 4 => Max "max" }
}
pica_enum! {
    /// Blend factors.
    BlendFactor {
        0 => Zero "zero", 1 => One "one", 2 => SrcColor "src_color", 3 => OneMinusSrcColor "one_minus_src_color",
        4 => DstColor "dst_color", 5 => OneMinusDstColor "one_minus_dst_color", 6 => SrcAlpha "src_alpha",
        7 => OneMinusSrcAlpha "one_minus_src_alpha", 8 => DstAlpha "dst_alpha", 9 => OneMinusDstAlpha "one_minus_dst_alpha",
        10 => ConstantColor "constant_color", 11 => OneMinusConstantColor "one_minus_constant_color",
        12 => ConstantAlpha "constant_alpha", 13 => OneMinusConstantAlpha "one_minus_constant_alpha", 14 => SrcAlphaSaturate "src_alpha_saturate",
    }
}
pica_enum! {
    /// Logic ops.
    LogicOp {
        0 => Clear "clear", 1 => And "and", 2 => AndReverse "and_reverse", 3 => Copy "copy", 4 => Set "set",
        5 => CopyInverted "copy_inverted", 6 => Noop "noop", 7 => Invert "invert", 8 => Nand "nand", 9 => Or "or",
        10 => Nor "nor", 11 => Xor "xor", 12 => Equiv "equiv", 13 => AndInverted "and_inverted", 14 => OrReverse "or_reverse", 15 => OrInverted "or_inverted",
    }
}
pica_enum! {
    /// Stencil operations.
    StencilOp {
        0 => Keep "keep", 1 => Zero "zero", 2 => Replace "replace", 3 => Increment "increment", 4 => Decrement "decrement",
        5 => Invert "invert", 6 => IncrementWrap "increment_wrap", 7 => DecrementWrap "decrement_wrap",
    }
}
pica_enum! {
    /// Depth buffer formats.
    DepthFormat { 0 => D16 "d16", 2 => D24 "d24", 3 => D24S8 "d24s8" }
}
pica_enum! {
    /// Color buffer pixel sizes.
    PixelSize { 0 => Bits16 "16bit", 2 => Bits32 "32bit" }
}
pica_enum! {
    /// Color buffer formats.
    ColorFormat { 0 => Rgba8 "RGBA8", 2 => Rgb5a1 "RGB5A1", 3 => Rgb565 "RGB565", 4 => Rgba4 "RGBA4" }
}
pica_enum! {
    /// Framebuffer block modes.
    BlockMode { 0 => Blocks8 "8x8", 1 => Blocks32 "32x32" }
}
pica_enum! {
    /// Fresnel selector.
    FresnelSelector { 0 => None "none", 1 => PrimaryAlpha "primary_alpha", 2 => SecondaryAlpha "secondary_alpha", 3 => Both "both" }
}
pica_enum! {
    /// Light environment configurations (the LUTs available).
    LightEnvConfig {
        0 => Config0 "config0", 1 => Config1 "config1", 2 => Config2 "config2", 3 => Config3 "config3",
        4 => Config4 "config4", 5 => Config5 "config5", 6 => Config6 "config6", 8 => Config7 "config7",
    }
}
pica_enum! {
    /// Bump modes.
    BumpMode { 0 => NotUsed "not_used", 1 => BumpMap "bump_map", 2 => TangentMap "tangent_map" }
}
pica_enum! {
    /// Lighting LUTs (GPUREG_LIGHTING_LUT_INDEX).
    LightingLut {
        0 => D0 "D0", 1 => D1 "D1", 3 => Fr "FR", 4 => Rb "RB", 5 => Rg "RG", 6 => Rr "RR",
        8 => Sp0 "SP0", 9 => Sp1 "SP1", 10 => Sp2 "SP2", 11 => Sp3 "SP3", 12 => Sp4 "SP4", 13 => Sp5 "SP5", 14 => Sp6 "SP6", 15 => Sp7 "SP7",
        16 => Da0 "DA0", 17 => Da1 "DA1", 18 => Da2 "DA2", 19 => Da3 "DA3", 20 => Da4 "DA4", 21 => Da5 "DA5", 22 => Da6 "DA6", 23 => Da7 "DA7",
    }
}
pica_enum! {
    /// Lighting LUT inputs.
    LutInput { 0 => NH "N.H", 1 => VH "V.H", 2 => NV "N.V", 3 => LN "L.N", 4 => Sp "-L.P", 5 => Cp "cos_phi" }
}
pica_enum! {
    /// Lighting LUT output scales.
    LutScale { 0 => X1 "1x", 1 => X2 "2x", 2 => X4 "4x", 3 => X8 "8x", 6 => Quarter "0.25x", 7 => Half "0.5x" }
}
pica_enum! {
    /// Vertex attribute component types.
    AttribType { 0 => Byte "byte", 1 => UnsignedByte "ubyte", 2 => Short "short", 3 => Float "float" }
}
pica_enum! {
    /// Attribute buffer components: an attribute, or padding.
    BufferComponent {
        0 => Attr0 "attr0", 1 => Attr1 "attr1", 2 => Attr2 "attr2", 3 => Attr3 "attr3", 4 => Attr4 "attr4", 5 => Attr5 "attr5",
        6 => Attr6 "attr6", 7 => Attr7 "attr7", 8 => Attr8 "attr8", 9 => Attr9 "attr9", 10 => Attr10 "attr10", 11 => Attr11 "attr11",
        12 => Pad4 "pad4", 13 => Pad8 "pad8", 14 => Pad12 "pad12", 15 => Pad16 "pad16",
    }
}
pica_enum! {
    /// Index buffer element types.
    IndexType { 0 => U8 "u8", 1 => U16 "u16" }
}
pica_enum! {
    /// Primitive modes.
    PrimitiveMode { 0 => Triangles "triangles", 1 => TriangleStrip "triangle_strip", 2 => TriangleFan "triangle_fan", 3 => GeometryPrimitive "geometry_primitive" }
}
pica_enum! {
    /// Float uniform transfer modes.
    FloatMode { 0 => F24 "f24", 1 => F32 "f32" }
}

pica_register! { /// Any register with no documented fields: the whole word.
Raw = "raw" { value: Hex = [31:0] } }
pica_register! { /// A trigger or a plain 32-bit number.
Trigger = "trigger" { value: Hex = [31:0] } }
pica_register! { /// A 32-bit count or index.
Number = "number" { value: u32 = [31:0] } }
pica_register! { CullConfig = "faceculling_config" { mode: CullMode = [1:0] } }
pica_register! { /// One f24 value in bits 0-23.
FloatValue24 = "f24" { value: F24 = [23:0] } }
pica_register! { /// float1.7.23 in bits 1-31.
FloatValue31 = "f31" { value: F31 = [31:1] } }
pica_register! { Enable = "enable" { enabled: bool = [0:0] } }
pica_register! { OutmapTotal = "sh_outmap_total" { count: u32 = [2:0] } }
pica_register! { Outmap = "sh_outmap" { x: OutputSemantic = [4:0], y: OutputSemantic = [12:8], z: OutputSemantic = [20:16], w: OutputSemantic = [28:24] } }
pica_register! { EarlyDepthFuncReg = "earlydepth_func" { func: EarlyDepthFunc = [1:0] } }
pica_register! { OutattrMode = "sh_outattr_mode" { use_texcoords: bool = [0:0] } }
pica_register! { ScissorMode = "scissortest_mode" { mode: u32 = [1:0] } }
pica_register! { Xy10 = "xy" { x: u32 = [9:0], y: u32 = [25:16] } }
pica_register! { SignedXy10 = "signed_xy" { x: Signed = [9:0], y: Signed = [25:16] } }
pica_register! { Value24 = "u24" { value: Hex = [23:0] } }
pica_register! { BufferDim = "buffer_dim" { width: u32 = [10:0], height_minus_1: u32 = [21:12], one: Hex = [24:24] } }
pica_register! { OutattrClock = "sh_outattr_clock" {
    position_z: bool = [0:0], color: bool = [1:1], texcoord0: bool = [8:8], texcoord1: bool = [9:9],
    texcoord2: bool = [10:10], texcoord0_w: bool = [16:16], normquat_or_view: bool = [24:24],
} }
pica_register! { TexUnitConfig = "texunit_config" {
    texture0: bool = [0:0], texture1: bool = [1:1], texture2: bool = [2:2], zero3: Hex = [3:3],
    texture3_coords: Tex3Coords = [9:8], texture3: bool = [10:10], one12: Hex = [12:12],
    texture2_coords: Tex2Coords = [13:13], clear_cache: bool = [16:16], zero17: Hex = [31:17],
} }
pica_register! { /// RGBA, 8 bits each.
Rgba8 = "rgba8" { r: u32 = [7:0], g: u32 = [15:8], b: u32 = [23:16], a: u32 = [31:24] } }
pica_register! { Rgb8 = "rgb8" { r: u32 = [7:0], g: u32 = [15:8], b: u32 = [23:16] } }
pica_register! { TexDim = "texunit_dim" { height: u32 = [10:0], width: u32 = [26:16] } }
pica_register! { TexParam = "texunit_param" {
    mag_filter: Filter = [1:1], min_filter: Filter = [2:2], etc1: Hex = [5:4], wrap_t: Wrap = [10:8],
    wrap_s: Wrap = [14:12], zero16: Hex = [17:16], shadow: bool = [20:20], mip_filter: Filter = [24:24],
    texture_type: TextureType = [30:28],
} }
pica_register! { TexLod = "texunit_lod" { bias: Fixed<true, 4, 8> = [12:0], max_level: u32 = [19:16], min_level: u32 = [27:24] } }
pica_register! { TexAddr1 = "texunit_addr1" { address_div8: Hex = [27:0] } }
pica_register! { TexAddrN = "texunit_addr" { address_div8: Hex = [21:0] } }
pica_register! {
    /// Bit 0 set means no perspective divide: the page labels it "1 = perspective", but citro3d
    /// writes 0 for perspective (docs/specs/pica200-fragment-facts.md 6.3). Bits 1-23 are the upper
    /// 23 bits of a 24-bit bias, so the field read as fixed0.0.23 is the bias.
    TexShadow = "texunit_shadow" { orthographic: bool = [0:0], z_bias: Fixed<false, 0, 23> = [23:1] }
}
pica_register! { TexType = "texunit_type" { format: TextureFormat = [3:0] } }
pica_register! { ProcTex0 = "proctex0" {
    u_clamp: ProcTexClamp = [2:0], v_clamp: ProcTexClamp = [5:3], rgb_func: ProcTexMap = [9:6], alpha_func: ProcTexMap = [13:10],
    separate_alpha: bool = [14:14], noise: bool = [15:15], u_shift: ProcTexShift = [17:16], v_shift: ProcTexShift = [19:18],
    bias_low: Hex = [27:20],
} }
pica_register! { ProcTexNoise = "proctex_noise" { amplitude: Fixed<true, 3, 12> = [15:0], phase: F16 = [31:16] } }
pica_register! { ProcTex3 = "proctex3" { u_frequency: F16 = [15:0], v_frequency: F16 = [31:16] } }
pica_register! { ProcTex4 = "proctex4" { min_filter: ProcTexFilter = [2:0], const_0x60: Hex = [10:3], width: u32 = [18:11], bias_high: Hex = [26:19] } }
pica_register! { ProcTex5 = "proctex5" { offset: Hex = [7:0], const_0xe0c080: Hex = [31:8] } }
pica_register! { ProcTexLutIndex = "proctex_lut" { index: u32 = [7:0], table: ProcTexLut = [11:8] } }
pica_register! { TexEnvSourceReg = "texenv_source" {
    rgb0: TexEnvSource = [3:0], rgb1: TexEnvSource = [7:4], rgb2: TexEnvSource = [11:8],
    alpha0: TexEnvSource = [19:16], alpha1: TexEnvSource = [23:20], alpha2: TexEnvSource = [27:24],
} }
pica_register! { TexEnvOperandReg = "texenv_operand" {
    rgb0: TexEnvRgbOperand = [3:0], rgb1: TexEnvRgbOperand = [7:4], rgb2: TexEnvRgbOperand = [11:8],
    alpha0: TexEnvAlphaOperand = [14:12], alpha1: TexEnvAlphaOperand = [18:16], alpha2: TexEnvAlphaOperand = [22:20],
} }
pica_register! { TexEnvCombinerReg = "texenv_combiner" { rgb: TexEnvCombine = [3:0], alpha: TexEnvCombine = [19:16] } }
pica_register! { TexEnvScaleReg = "texenv_scale" { rgb: TexEnvScale = [1:0], alpha: TexEnvScale = [17:16] } }
pica_register! { TexEnvUpdateBuffer = "texenv_update_buffer" {
    fog_mode: FogMode = [2:0], density_source: DensitySource = [3:3],
    rgb1: BufferInput = [8:8], rgb2: BufferInput = [9:9], rgb3: BufferInput = [10:10], rgb4: BufferInput = [11:11],
    alpha1: BufferInput = [12:12], alpha2: BufferInput = [13:13], alpha3: BufferInput = [14:14], alpha4: BufferInput = [15:15],
    z_flip: bool = [16:16], zero24: Hex = [25:24],
} }
pica_register! { Float16Value = "f16" { value: F16 = [15:0] } }
pica_register! { LutIndex16 = "lut_index" { index: u32 = [15:0] } }
pica_register! { /// A write to a LUT data port (the entry's meaning depends on the table selected).
LutData = "lut_data" { data: Hex = [31:0] } }
pica_register! { ColorOperation = "color_operation" { mode: FragmentOpMode = [1:0], blend: BlendMode = [8:8], const_0xe4: Hex = [25:16] } }
pica_register! { BlendFunc = "blend_func" {
    rgb_equation: BlendEquation = [2:0], alpha_equation: BlendEquation = [10:8],
    rgb_src: BlendFactor = [19:16], rgb_dst: BlendFactor = [23:20], alpha_src: BlendFactor = [27:24], alpha_dst: BlendFactor = [31:28],
} }
pica_register! { LogicOpReg = "logic_op" { op: LogicOp = [3:0] } }
pica_register! { AlphaTest = "alpha_test" { enabled: bool = [0:0], func: CompareFunc = [6:4], reference: u32 = [15:8] } }
pica_register! { StencilTest = "stencil_test" {
    enabled: bool = [0:0], func: CompareFunc = [6:4], buffer_mask: Hex = [15:8], reference: Signed = [23:16], mask: Hex = [31:24],
} }
pica_register! { StencilOpReg = "stencil_op" { fail: StencilOp = [2:0], z_fail: StencilOp = [6:4], z_pass: StencilOp = [10:8] } }
pica_register! { DepthColorMask = "depth_color_mask" {
    depth_test: bool = [0:0], depth_func: CompareFunc = [6:4], red: bool = [8:8], green: bool = [9:9],
    blue: bool = [10:10], alpha: bool = [11:11], depth_write: bool = [12:12],
} }
pica_register! { TriggerBit = "trigger_bit" { trigger: bool = [0:0], zero: Hex = [31:1] } }
pica_register! { Access4 = "buffer_access" { allow: Hex = [3:0] } }
pica_register! { DepthStencilAccess = "depth_stencil_access" { stencil: bool = [0:0], depth: bool = [1:1] } }
pica_register! { DepthFormatReg = "depthbuffer_format" { format: DepthFormat = [1:0] } }
pica_register! { ColorFormatReg = "colorbuffer_format" { pixel_size: PixelSize = [1:0], format: ColorFormat = [18:16] } }
pica_register! { Block32 = "framebuffer_block32" { mode: BlockMode = [0:0] } }
pica_register! { Address28 = "address_div8" { address_div8: Hex = [27:0] } }
pica_register! { GasLight = "gas_light" { min: u32 = [7:0], max: u32 = [15:8], attenuation: u32 = [23:16] } }
pica_register! { GasLightZColor = "gas_light_z_color" { effect: u32 = [7:0] } }
pica_register! { GasDeltaZ = "gas_deltaz_depth" { proportion: Fixed<false, 16, 8> = [23:0] } }
pica_register! { FragopShadow = "fragop_shadow" { scale_plus_bias: F16 = [15:0], negated_scale: F16 = [31:16] } }
pica_register! { /// Lighting colors: blue, green, red in 8-bit fields 10 bits apart.
LightColor = "light_color" { b: u32 = [7:0], g: u32 = [17:10], r: u32 = [27:20] } }
pica_register! { LightXy = "light_xy" { x: F16 = [15:0], y: F16 = [31:16] } }
pica_register! { LightZ = "light_z" { z: F16 = [15:0] } }
pica_register! { SpotXy = "light_spotdir_xy" { x: Fixed<true, 1, 11> = [12:0], y: Fixed<true, 1, 11> = [28:16] } }
pica_register! { SpotZ = "light_spotdir_z" { z: Fixed<true, 1, 11> = [12:0] } }
pica_register! { LightConfig = "light_config" { directional: bool = [0:0], two_side_diffuse: bool = [1:1], geometric_factor0: bool = [2:2], geometric_factor1: bool = [3:3] } }
pica_register! { Float20Value = "f20" { value: F20 = [19:0] } }
pica_register! { NumLights = "lighting_num_lights" { count_minus_1: u32 = [2:0] } }
pica_register! { LightingConfig0 = "lighting_config0" {
    shadow_factor: bool = [0:0], fresnel: FresnelSelector = [3:2], config: LightEnvConfig = [7:4], const_4: Hex = [11:8],
    shadow_primary: bool = [16:16], shadow_secondary: bool = [17:17], shadow_invert: bool = [18:18], shadow_alpha: bool = [19:19],
    bump_unit: u32 = [23:22], shadow_unit: u32 = [25:24], clamp_highlights: bool = [27:27], bump_mode: BumpMode = [29:28],
    bump_renorm_disabled: bool = [30:30], one31: Hex = [31:31],
} }
pica_register! { LightingConfig1 = "lighting_config1" {
    shadow_disabled: Hex = [7:0], spot_disabled: Hex = [15:8], d0_disabled: bool = [16:16], d1_disabled: bool = [17:17],
    one18: Hex = [18:18], fr_disabled: bool = [19:19], rb_disabled: bool = [20:20], rg_disabled: bool = [21:21],
    rr_disabled: bool = [22:22], distance_attenuation_disabled: Hex = [31:24],
} }
pica_register! { LightingLutIndex = "lighting_lut_index" { index: u32 = [7:0], table: LightingLut = [12:8] } }
pica_register! { Disabled = "disable" { disabled: bool = [0:0] } }
pica_register! { LutInputAbs = "lighting_lutinput_abs" {
    d0_abs_disabled: bool = [1:1], d1_abs_disabled: bool = [5:5], sp_abs_disabled: bool = [9:9], fr_abs_disabled: bool = [13:13],
    rb_abs_disabled: bool = [17:17], rg_abs_disabled: bool = [21:21], rr_abs_disabled: bool = [25:25],
} }
pica_register! { LutInputSelect = "lighting_lutinput_select" {
    d0: LutInput = [2:0], d1: LutInput = [6:4], sp: LutInput = [10:8], fr: LutInput = [14:12], rb: LutInput = [18:16], rg: LutInput = [22:20], rr: LutInput = [26:24],
} }
pica_register! { LutInputScale = "lighting_lutinput_scale" {
    d0: LutScale = [2:0], d1: LutScale = [6:4], sp: LutScale = [10:8], fr: LutScale = [14:12], rb: LutScale = [18:16], rg: LutScale = [22:20], rr: LutScale = [26:24],
} }
pica_register! { LightPermutation = "lighting_light_permutation" {
    light0: u32 = [2:0], light1: u32 = [6:4], light2: u32 = [10:8], light3: u32 = [14:12],
    light4: u32 = [18:16], light5: u32 = [22:20], light6: u32 = [26:24], light7: u32 = [30:28],
} }
pica_register! { AttribBuffersLoc = "attribbuffers_loc" { address_div16: Hex = [28:1] } }
pica_register! { AttribFormatLow = "attribbuffers_format_low" {
    type0: AttribType = [1:0], size0: u32 = [3:2], type1: AttribType = [5:4], size1: u32 = [7:6],
    type2: AttribType = [9:8], size2: u32 = [11:10], type3: AttribType = [13:12], size3: u32 = [15:14],
    type4: AttribType = [17:16], size4: u32 = [19:18], type5: AttribType = [21:20], size5: u32 = [23:22],
    type6: AttribType = [25:24], size6: u32 = [27:26], type7: AttribType = [29:28], size7: u32 = [31:30],
} }
pica_register! { AttribFormatHigh = "attribbuffers_format_high" {
    type8: AttribType = [1:0], size8: u32 = [3:2], type9: AttribType = [5:4], size9: u32 = [7:6],
    type10: AttribType = [9:8], size10: u32 = [11:10], type11: AttribType = [13:12], size11: u32 = [15:14],
    fixed_mask: Hex = [27:16], count_minus_1: u32 = [31:28],
} }
pica_register! { Offset28 = "offset" { offset: Hex = [27:0] } }
pica_register! { BufferConfig1 = "attribbuffer_config1" {
    comp0: BufferComponent = [3:0], comp1: BufferComponent = [7:4], comp2: BufferComponent = [11:8], comp3: BufferComponent = [15:12],
    comp4: BufferComponent = [19:16], comp5: BufferComponent = [23:20], comp6: BufferComponent = [27:24], comp7: BufferComponent = [31:28],
} }
pica_register! { BufferConfig2 = "attribbuffer_config2" {
    comp8: BufferComponent = [3:0], comp9: BufferComponent = [7:4], comp10: BufferComponent = [11:8], comp11: BufferComponent = [15:12],
    stride: u32 = [23:16], count: u32 = [31:28],
} }
pica_register! { IndexBufferConfig = "indexbuffer_config" { offset: Hex = [27:0], index_type: IndexType = [31:31] } }
pica_register! { GeostageConfig = "geostage_config" { geometry_shader: u32 = [1:0], triangle_elements: bool = [8:8], zero9: Hex = [9:9], subdivision: bool = [31:31] } }
pica_register! { CacheNum = "post_vertex_cache_num" { entries: u32 = [7:0] } }
pica_register! { FixedAttribIndex = "fixedattrib_index" { index: u32 = [3:0] } }
pica_register! { FixedAttribData0 = "fixedattrib_data0" { z_high: Hex = [7:0], w: F24 = [31:8] } }
pica_register! { FixedAttribData1 = "fixedattrib_data1" { y_high: Hex = [15:0], z_low: Hex = [31:16] } }
pica_register! { FixedAttribData2 = "fixedattrib_data2" { x: F24 = [23:0], y_low: Hex = [31:24] } }
pica_register! { CmdbufSize = "cmdbuf_size" { size_div8: Hex = [20:0] } }
pica_register! { CmdbufAddr = "cmdbuf_addr" { address_div8: Hex = [28:0] } }
pica_register! { Count4 = "count_minus_1" { count_minus_1: u32 = [3:0] } }
pica_register! { ComMode = "vsh_com_mode" { geometry_config: bool = [0:0] } }
pica_register! { StartDrawFunc0 = "start_draw_func0" { configuration_mode: bool = [0:0], zero: Hex = [7:1] } }
pica_register! { GeostageConfig2 = "geostage_config2" { function: bool = [0:0], triangle_elements: bool = [8:8] } }
pica_register! { GshMisc1 = "gsh_misc1" { subdivision_type: u32 = [4:0] } }
pica_register! { PrimitiveConfig = "primitive_config" { outmap_count_minus_1: u32 = [3:0], mode: PrimitiveMode = [9:8] } }
pica_register! { BoolUniform = "booluniform" { bools: Hex = [15:0], const_0x7fff: Hex = [31:16] } }
pica_register! { IntUniform = "intuniform" { x: u32 = [7:0], y: u32 = [15:8], z: u32 = [23:16], w: u32 = [31:24] } }
pica_register! { InputBufferConfig = "inputbuffer_config" { count_minus_1: u32 = [3:0], subdivision: u32 = [15:8], zero16: Hex = [23:16], use_geometry: Hex = [31:24] } }
pica_register! { EntryPoint = "entrypoint" { offset: Hex = [15:0], const_0x7fff: Hex = [31:16] } }
pica_register! { Permutation = "attributes_permutation" {
    attr0: u32 = [3:0], attr1: u32 = [7:4], attr2: u32 = [11:8], attr3: u32 = [15:12],
    attr4: u32 = [19:16], attr5: u32 = [23:20], attr6: u32 = [27:24], attr7: u32 = [31:28],
} }
pica_register! { OutmapMask = "outmap_mask" { outputs: Hex = [15:0], zero16: Hex = [31:16] } }
pica_register! { FloatUniformIndex = "floatuniform_index" { index: u32 = [7:0], mode: FloatMode = [31:31] } }
pica_register! { Offset12 = "transfer_index" { offset: Hex = [11:0] } }

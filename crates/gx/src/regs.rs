//! The BP register layouts used by materials, as one table each.
//!
//! Bit ranges follow specs/hollywood-tev-facts.md, "Register layouts" (the hardware layout, also
//! Dolphin's BPMemory.h); the MDL0 wiki page's BP register tables are superseded.
//! Value names follow specs/hollywood-tev-more-facts.md §2-§3.

use crate::fields::{bp_register, RegisterLayout};

/// Colour combiner inputs (facts "Inputs", more-facts §2.5).
pub const COLOR_INPUTS: &[&str] = &[
    "CPREV", "APREV", "C0", "A0", "C1", "A1", "C2", "A2", "TEXC", "TEXA", "RASC", "RASA", "ONE", "HALF", "KONST",
    "ZERO",
];
/// Alpha combiner inputs.
pub const ALPHA_INPUTS: &[&str] = &["APREV", "A0", "A1", "A2", "TEXA", "RASA", "KONST", "ZERO"];
/// Bias field; 3 selects compare mode.
pub const BIAS: &[&str] = &["ZERO", "ADDHALF", "SUBHALF", "COMPARE"];
/// Op bit: ADD/SUB in regular mode, GT/EQ in compare mode.
pub const OP: &[&str] = &["ADD_GT", "SUB_EQ"];
/// Scale field: the multiplier in regular mode, the compare width in compare mode.
pub const SCALE: &[&str] = &["X1_R8", "X2_GR16", "X4_BGR24", "DIV2_RGB8"];
/// Destination registers.
pub const DEST: &[&str] = &["PREV", "C0", "C1", "C2"];
/// Swap-table channel selectors.
pub const CHANNEL: &[&str] = &["R", "G", "B", "A"];
/// Konst colour selectors (more-facts §2.4, hardware-tested).
pub const KCSEL: &[&str] = &[
    "1", "7_8", "3_4", "5_8", "1_2", "3_8", "1_4", "1_8", "ZERO8", "ZERO9", "ZERO10", "ZERO11", "K0", "K1", "K2", "K3",
    "K0_R", "K1_R", "K2_R", "K3_R", "K0_G", "K1_G", "K2_G", "K3_G", "K0_B", "K1_B", "K2_B", "K3_B", "K0_A", "K1_A",
    "K2_A", "K3_A",
];
/// Konst alpha selectors: 12..15 read as zero for alpha.
pub const KASEL: &[&str] = &[
    "1", "7_8", "3_4", "5_8", "1_2", "3_8", "1_4", "1_8", "ZERO8", "ZERO9", "ZERO10", "ZERO11", "ZERO12", "ZERO13",
    "ZERO14", "ZERO15", "K0_R", "K1_R", "K2_R", "K3_R", "K0_G", "K1_G", "K2_G", "K3_G", "K0_B", "K1_B", "K2_B", "K3_B",
    "K0_A", "K1_A", "K2_A", "K3_A",
];
/// Rasterized colour channel of a TEV order (more-facts §2.3).
pub const COLOR_CHAN: &[&str] =
    &["COLOR0", "COLOR1", "INVALID2", "INVALID3", "INVALID4", "ALPHA_BUMP", "ALPHA_BUMP_N", "ZERO"];
/// Indirect texture formats.
pub const IND_FORMAT: &[&str] = &["ITF_8", "ITF_5", "ITF_4", "ITF_3"];
/// Indirect bias enables as (S, T, U) bits.
pub const IND_BIAS: &[&str] = &["NONE", "S", "T", "ST", "U", "SU", "TU", "STU"];
/// Bump-alpha select.
pub const IND_ALPHA: &[&str] = &["OFF", "S", "T", "U"];
/// Indirect matrix index.
pub const IND_MTX_INDEX: &[&str] = &["OFF", "MTX0", "MTX1", "MTX2"];
/// Indirect matrix type.
pub const IND_MTX_ID: &[&str] = &["STATIC", "DYNAMIC_S", "DYNAMIC_T", "INVALID"];
/// Indirect wrap of the regular coordinate.
pub const IND_WRAP: &[&str] = &["OFF", "256", "128", "64", "32", "16", "0", "INVALID7"];
/// Compare functions of the z test and the alpha test.
pub const COMPARE: &[&str] = &["NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER", "NEQUAL", "GEQUAL", "ALWAYS"];
/// Alpha-test combining logic.
pub const ALPHA_LOGIC: &[&str] = &["AND", "OR", "XOR", "XNOR"];
/// Blend factors (Dolphin's names; SRCCLR means the destination colour when used as the source factor).
pub const BLEND_FACTOR: &[&str] =
    &["ZERO", "ONE", "SRCCLR", "INVSRCCLR", "SRCALPHA", "INVSRCALPHA", "DSTALPHA", "INVDSTALPHA"];
/// Logic operations.
pub const LOGIC_OP: &[&str] = &[
    "CLEAR",
    "AND",
    "AND_REVERSE",
    "COPY",
    "AND_INVERTED",
    "NOOP",
    "XOR",
    "OR",
    "NOR",
    "EQUIV",
    "INVERT",
    "OR_REVERSE",
    "COPY_INVERTED",
    "OR_INVERTED",
    "NAND",
    "SET",
];
/// Cull modes of genMode.
pub const CULL: &[&str] = &["NONE", "BACK", "FRONT", "ALL"];
/// Fog function select.
pub const FOG_FSEL: &[&str] =
    &["OFF", "RESERVED1", "LINEAR", "RESERVED3", "EXP", "EXP2", "BACKWARD_EXP", "BACKWARD_EXP2"];
/// Fog projection.
pub const FOG_PROJ: &[&str] = &["PERSPECTIVE", "ORTHOGRAPHIC"];
/// EFB pixel formats of PE control.
pub const PIXEL_FORMAT: &[&str] = &["RGB8_Z24", "RGBA6_Z24", "RGB565_Z16", "Z24", "Y8", "U8", "V8", "YUV420"];
/// Z-texture texel types.
pub const ZTEX_TYPE: &[&str] = &["U8", "U16", "U24", "INVALID3"];
/// Z-texture operations.
pub const ZTEX_OP: &[&str] = &["DISABLE", "ADD", "REPLACE", "INVALID3"];

bp_register! {
    /// BP 0x00 genMode. Real MDL0 lists never write it: counts come from the material header.
    GenMode = "gen_mode" {
        /// Number of texture coordinate generators.
        num_texgens: u8 = [3:0],
        /// Number of colour channels.
        num_colchans: u8 = [6:4],
        /// Number of TEV stages minus one.
        num_tevstages_minus_1: u8 = [13:10],
        /// Cull mode.
        cull_mode: u8 = [15:14] @ CULL,
        /// Number of indirect stages.
        num_indstages: u8 = [18:16],
    }
}

bp_register! {
    /// BP 0x06 + 3k (column A) and 0x07 + 3k (column B) of indirect matrix k.
    IndMtxAB = "ind_mtx" {
        /// Row 0 entry, s0.10.
        row0: i16 = [10:0],
        /// Row 1 entry, s0.10.
        row1: i16 = [21:11],
        /// Two bits of the 5-bit scale (A: bits 0-1, B: bits 2-3).
        scale_bits: u8 = [23:22],
    }
}

bp_register! {
    /// BP 0x08 + 3k, column C of indirect matrix k.
    IndMtxC = "ind_mtx_c" {
        /// Row 0 entry, s0.10.
        row0: i16 = [10:0],
        /// Row 1 entry, s0.10.
        row1: i16 = [21:11],
        /// Scale bit 4.
        scale_bit4: u8 = [22:22],
        /// The SDK's sixth scale bit; ignored by hardware (#9863).
        scale_bit5_ignored: u8 = [23:23],
    }
}

bp_register! {
    /// BP 0x10 + i, the indirect settings of TEV stage i.
    TevStageIndirect = "tev_ind" {
        /// Indirect stage used.
        bt: u8 = [1:0],
        /// Indirect texture format.
        fmt: u8 = [3:2] @ IND_FORMAT,
        /// Bias enables (S, T, U).
        bias: u8 = [6:4] @ IND_BIAS,
        /// Bump-alpha select.
        bs: u8 = [8:7] @ IND_ALPHA,
        /// Matrix index (0 = off).
        mtx_index: u8 = [10:9] @ IND_MTX_INDEX,
        /// Matrix type (static, dynamic S, dynamic T).
        mtx_id: u8 = [12:11] @ IND_MTX_ID,
        /// Wrap of the regular S coordinate.
        sw: u8 = [15:13] @ IND_WRAP,
        /// Wrap of the regular T coordinate.
        tw: u8 = [18:16] @ IND_WRAP,
        /// Use unmodified texture coordinates for LOD.
        lb_utclod: bool = [19:19],
        /// Add the previous stage's texture coordinate.
        fb_addprev: bool = [20:20],
    }
}

bp_register! {
    /// BP 0x25 / 0x26 RAS1_SS: coordinate scales of two indirect stages.
    Ras1Ss = "ras1_ss" {
        /// S shift of the even stage.
        ss0: u8 = [3:0],
        /// T shift of the even stage.
        ts0: u8 = [7:4],
        /// S shift of the odd stage.
        ss1: u8 = [11:8],
        /// T shift of the odd stage.
        ts1: u8 = [15:12],
    }
}

bp_register! {
    /// BP 0x27 RAS1_IREF: texture map and coordinate of the four indirect stages.
    Ras1Iref = "ras1_iref" {
        /// Texture map of indirect stage 0.
        bi0: u8 = [2:0],
        /// Texture coordinate of indirect stage 0.
        bc0: u8 = [5:3],
        /// Texture map of indirect stage 1.
        bi1: u8 = [8:6],
        /// Texture coordinate of indirect stage 1.
        bc1: u8 = [11:9],
        /// Texture map of indirect stage 2.
        bi2: u8 = [14:12],
        /// Texture coordinate of indirect stage 2.
        bc2: u8 = [17:15],
        /// Texture map of indirect stage 3.
        bi3: u8 = [20:18],
        /// Texture coordinate of indirect stage 3.
        bc3: u8 = [23:21],
    }
}

bp_register! {
    /// BP 0x28 + k TwoTevStageOrders: texture and colour inputs of stages 2k and 2k+1.
    TwoTevStageOrders = "tev_order" {
        /// Texture map of the even stage.
        texmap0: u8 = [2:0],
        /// Texture coordinate of the even stage.
        texcoord0: u8 = [5:3],
        /// Texture enable of the even stage.
        enable0: bool = [6:6],
        /// Rasterized colour of the even stage.
        colorchan0: u8 = [9:7] @ COLOR_CHAN,
        /// Texture map of the odd stage.
        texmap1: u8 = [14:12],
        /// Texture coordinate of the odd stage.
        texcoord1: u8 = [17:15],
        /// Texture enable of the odd stage.
        enable1: bool = [18:18],
        /// Rasterized colour of the odd stage.
        colorchan1: u8 = [21:19] @ COLOR_CHAN,
    }
}

bp_register! {
    /// BP 0x40 z mode.
    ZMode = "z_mode" {
        /// Depth test enable.
        test: bool = [0:0],
        /// Depth compare function.
        func: u8 = [3:1] @ COMPARE,
        /// Depth write enable.
        update: bool = [4:4],
    }
}

bp_register! {
    /// BP 0x41 blend mode.
    BlendMode = "blend_mode" {
        /// Blend enable.
        blend: bool = [0:0],
        /// Logic-op enable.
        logic: bool = [1:1],
        /// Dither enable.
        dither: bool = [2:2],
        /// Colour update.
        colorupd: bool = [3:3],
        /// Alpha update.
        alphaupd: bool = [4:4],
        /// Destination factor.
        dst: u8 = [7:5] @ BLEND_FACTOR,
        /// Source factor.
        src: u8 = [10:8] @ BLEND_FACTOR,
        /// Subtractive blending.
        subtract: bool = [11:11],
        /// Logic operation.
        logicop: u8 = [15:12] @ LOGIC_OP,
    }
}

bp_register! {
    /// BP 0x42 constant (destination) alpha.
    ConstAlpha = "const_alpha" {
        /// The alpha stored in the framebuffer when enabled.
        alpha: u8 = [7:0],
        /// Enable.
        enable: bool = [8:8],
    }
}

bp_register! {
    /// BP 0x43 PE control: the EFB pixel format and where the depth test runs.
    PeControl = "pe_control" {
        /// EFB pixel format (RGBA6_Z24 is the one that dithers and stores 6-bit alpha).
        pixel_format: u8 = [2:0] @ PIXEL_FORMAT,
        /// Depth format.
        zformat: u8 = [5:3],
        /// Depth test before texturing.
        early_ztest: bool = [6:6],
    }
}

bp_register! {
    /// BP 0xC0 + 2i, colour combiner of stage i.
    ColorCombiner = "tev_color_env" {
        /// Input d (signed 11-bit).
        d: u8 = [3:0] @ COLOR_INPUTS,
        /// Input c (the lerp factor).
        c: u8 = [7:4] @ COLOR_INPUTS,
        /// Input b.
        b: u8 = [11:8] @ COLOR_INPUTS,
        /// Input a.
        a: u8 = [15:12] @ COLOR_INPUTS,
        /// Bias (3 = compare mode).
        bias: u8 = [17:16] @ BIAS,
        /// Op: subtract, or EQ in compare mode.
        op: u8 = [18:18] @ OP,
        /// Clamp to [0, 255].
        clamp: bool = [19:19],
        /// Scale, or the compare width.
        scale: u8 = [21:20] @ SCALE,
        /// Destination register.
        dest: u8 = [23:22] @ DEST,
    }
}

bp_register! {
    /// BP 0xC1 + 2i, alpha combiner of stage i.
    AlphaCombiner = "tev_alpha_env" {
        /// Swap table applied to the rasterized colour.
        rswap: u8 = [1:0],
        /// Swap table applied to the texture colour.
        tswap: u8 = [3:2],
        /// Input d.
        d: u8 = [6:4] @ ALPHA_INPUTS,
        /// Input c.
        c: u8 = [9:7] @ ALPHA_INPUTS,
        /// Input b.
        b: u8 = [12:10] @ ALPHA_INPUTS,
        /// Input a.
        a: u8 = [15:13] @ ALPHA_INPUTS,
        /// Bias (3 = compare mode).
        bias: u8 = [17:16] @ BIAS,
        /// Op: subtract, or EQ in compare mode.
        op: u8 = [18:18] @ OP,
        /// Clamp to [0, 255].
        clamp: bool = [19:19],
        /// Scale, or the compare width.
        scale: u8 = [21:20] @ SCALE,
        /// Destination register.
        dest: u8 = [23:22] @ DEST,
    }
}

bp_register! {
    /// BP 0xE0 + 2n: red and alpha of TEV register n (bit 23 selects the konst bank).
    TevRegRa = "tev_reg_ra" {
        /// Red, signed 11-bit.
        r: i16 = [10:0],
        /// Alpha, signed 11-bit.
        a: i16 = [22:12],
        /// 1: konst register K n; 0: colour register (PREV, C0, C1, C2).
        konst: bool = [23:23],
    }
}

bp_register! {
    /// BP 0xE1 + 2n: blue and green of TEV register n (bit 23 selects the konst bank).
    TevRegBg = "tev_reg_bg" {
        /// Blue, signed 11-bit.
        b: i16 = [10:0],
        /// Green, signed 11-bit.
        g: i16 = [22:12],
        /// 1: konst register K n; 0: colour register.
        konst: bool = [23:23],
    }
}

bp_register! {
    /// BP 0xE8 fog range adjustment: centre and enable (more-facts §3.3).
    FogRange = "fog_range" {
        /// Horizontal centre of the viewport plus 342.
        center: u16 = [9:0],
        /// Range adjustment enable.
        enable: bool = [10:10],
    }
}

bp_register! {
    /// BP 0xE9-0xED: two of the ten 12-bit range-adjust factors each.
    FogRangeK = "fog_range_k" {
        /// Factor 2j + 1 of register 0xE9 + j.
        lo: u16 = [11:0],
        /// Factor 2j of register 0xE9 + j.
        hi: u16 = [23:12],
    }
}

bp_register! {
    /// BP 0xEE fog parameter A (a float with an 11-bit mantissa).
    FogA = "fog_a" {
        /// Mantissa (top 11 bits of a float32 mantissa).
        mantissa: u16 = [10:0],
        /// Exponent (float32 biased exponent).
        exponent: u8 = [18:11],
        /// Sign.
        sign: bool = [19:19],
    }
}

bp_register! {
    /// BP 0xEF fog parameter B magnitude.
    FogBMagnitude = "fog_b_magnitude" {
        /// Magnitude.
        magnitude: u32 = [23:0],
    }
}

bp_register! {
    /// BP 0xF0 fog parameter B shift.
    FogBShift = "fog_b_shift" {
        /// Shift.
        shift: u8 = [4:0],
    }
}

bp_register! {
    /// BP 0xF1 fog parameter C, projection and function.
    FogC = "fog_c" {
        /// Mantissa of C.
        mantissa: u16 = [10:0],
        /// Exponent of C.
        exponent: u8 = [18:11],
        /// Sign of C.
        sign: bool = [19:19],
        /// Projection.
        proj: u8 = [20:20] @ FOG_PROJ,
        /// Fog function.
        fsel: u8 = [23:21] @ FOG_FSEL,
    }
}

bp_register! {
    /// BP 0xF2 fog colour.
    FogColor = "fog_color" {
        /// Blue.
        b: u8 = [7:0],
        /// Green.
        g: u8 = [15:8],
        /// Red.
        r: u8 = [23:16],
    }
}

bp_register! {
    /// BP 0xF3 alpha test.
    AlphaTest = "alpha_test" {
        /// Reference of compare 0.
        ref0: u8 = [7:0],
        /// Reference of compare 1.
        ref1: u8 = [15:8],
        /// Function of compare 0.
        comp0: u8 = [18:16] @ COMPARE,
        /// Function of compare 1.
        comp1: u8 = [21:19] @ COMPARE,
        /// How the two results combine.
        logic: u8 = [23:22] @ ALPHA_LOGIC,
    }
}

bp_register! {
    /// BP 0xF4 z-texture bias.
    ZTexBias = "ztex_bias" {
        /// Bias added to the texel's depth (24-bit).
        bias: u32 = [23:0],
    }
}

bp_register! {
    /// BP 0xF5 z-texture type and operation (more-facts §3.2).
    ZTex2 = "ztex2" {
        /// How the texel forms a depth value.
        kind: u8 = [1:0] @ ZTEX_TYPE,
        /// Disabled, add to the rasterized depth, or replace it.
        op: u8 = [3:2] @ ZTEX_OP,
    }
}

bp_register! {
    /// BP 0xF6 + k TevKSel: swap-table bits and konst selectors of stages 2k and 2k+1.
    TevKSel = "tev_ksel" {
        /// Swap table bits (R of table k/2 when k is even, B when odd).
        swap1: u8 = [1:0] @ CHANNEL,
        /// Swap table bits (G when k is even, A when odd).
        swap2: u8 = [3:2] @ CHANNEL,
        /// Konst colour selector of the even stage.
        kcsel0: u8 = [8:4] @ KCSEL,
        /// Konst alpha selector of the even stage.
        kasel0: u8 = [13:9] @ KASEL,
        /// Konst colour selector of the odd stage.
        kcsel1: u8 = [18:14] @ KCSEL,
        /// Konst alpha selector of the odd stage.
        kasel1: u8 = [23:19] @ KASEL,
    }
}

bp_register! {
    /// BP 0xFE, the write mask of the next BP write.
    BpMask = "bp_mask" {
        /// Bits of the next write that take effect.
        mask: u32 = [23:0],
    }
}

/// BP addresses this crate knows.
pub mod addr {
    /// genMode.
    pub const GEN_MODE: u8 = 0x00;
    /// First indirect matrix register (matrix 0, column A).
    pub const IND_MTX: u8 = 0x06;
    /// Indirect settings of TEV stage 0.
    pub const TEV_IND: u8 = 0x10;
    /// RAS1_SS0 (indirect stages 0-1).
    pub const RAS1_SS0: u8 = 0x25;
    /// RAS1_SS1 (indirect stages 2-3).
    pub const RAS1_SS1: u8 = 0x26;
    /// RAS1_IREF.
    pub const RAS1_IREF: u8 = 0x27;
    /// TEV orders of stages 0 and 1.
    pub const TEV_ORDER: u8 = 0x28;
    /// z mode.
    pub const Z_MODE: u8 = 0x40;
    /// Blend mode.
    pub const BLEND_MODE: u8 = 0x41;
    /// Constant alpha.
    pub const CONST_ALPHA: u8 = 0x42;
    /// PE control.
    pub const PE_CONTROL: u8 = 0x43;
    /// Colour combiner of stage 0 (alpha combiner at +1, stage i at +2i).
    pub const TEV_COLOR_ENV: u8 = 0xC0;
    /// TEV register 0 RA (BG at +1, register n at +2n).
    pub const TEV_REG: u8 = 0xE0;
    /// Fog range adjustment (centre, enable).
    pub const FOG_RANGE: u8 = 0xE8;
    /// First fog range-adjust factor register (five in all).
    pub const FOG_RANGE_K: u8 = 0xE9;
    /// Fog A.
    pub const FOG_A: u8 = 0xEE;
    /// Fog B magnitude.
    pub const FOG_B_MAG: u8 = 0xEF;
    /// Fog B shift.
    pub const FOG_B_SHIFT: u8 = 0xF0;
    /// Fog C / function.
    pub const FOG_C: u8 = 0xF1;
    /// Fog colour.
    pub const FOG_COLOR: u8 = 0xF2;
    /// Alpha test.
    pub const ALPHA_TEST: u8 = 0xF3;
    /// Z-texture bias.
    pub const ZTEX_BIAS: u8 = 0xF4;
    /// Z-texture type and operation.
    pub const ZTEX2: u8 = 0xF5;
    /// TevKSel 0.
    pub const TEV_KSEL: u8 = 0xF6;
    /// BP mask.
    pub const BP_MASK: u8 = 0xFE;
}

/// The name (with index) and layout of a BP address, or `None` for addresses this crate does not decode.
/// For 0xE0-0xE7 the name says colour or konst bank according to bit 23 of `raw`.
pub fn layout_of(address: u8, raw: u32) -> Option<(String, RegisterLayout)> {
    let a = address;
    Some(match a {
        0x00 => ("gen_mode".into(), GenMode::LAYOUT),
        0x06..=0x0E => {
            let (k, col) = ((a - 0x06) / 3, (a - 0x06) % 3);
            let name = format!("ind_mtx{}[{k}]", ["a", "b", "c"][col as usize]);
            (name, if col == 2 { IndMtxC::LAYOUT } else { IndMtxAB::LAYOUT })
        }
        0x10..=0x1F => (format!("tev_ind[{}]", a - 0x10), TevStageIndirect::LAYOUT),
        0x25 | 0x26 => (format!("ras1_ss[{}]", a - 0x25), Ras1Ss::LAYOUT),
        0x27 => ("ras1_iref".into(), Ras1Iref::LAYOUT),
        0x28..=0x2F => (format!("tev_order[{}]", a - 0x28), TwoTevStageOrders::LAYOUT),
        0x40 => ("z_mode".into(), ZMode::LAYOUT),
        0x41 => ("blend_mode".into(), BlendMode::LAYOUT),
        0x42 => ("const_alpha".into(), ConstAlpha::LAYOUT),
        0x43 => ("pe_control".into(), PeControl::LAYOUT),
        0xC0..=0xDF if a.is_multiple_of(2) => (format!("tev_color_env[{}]", (a - 0xC0) / 2), ColorCombiner::LAYOUT),
        0xC0..=0xDF => (format!("tev_alpha_env[{}]", (a - 0xC1) / 2), AlphaCombiner::LAYOUT),
        0xE0..=0xE7 => {
            let n = ((a - 0xE0) / 2) as usize;
            let reg = if raw & (1 << 23) != 0 { ["k0", "k1", "k2", "k3"][n] } else { ["prev", "c0", "c1", "c2"][n] };
            if a.is_multiple_of(2) {
                (format!("tev_reg_ra[{reg}]"), TevRegRa::LAYOUT)
            } else {
                (format!("tev_reg_bg[{reg}]"), TevRegBg::LAYOUT)
            }
        }
        0xE8 => ("fog_range".into(), FogRange::LAYOUT),
        0xE9..=0xED => (format!("fog_range_k[{}]", a - 0xE9), FogRangeK::LAYOUT),
        0xEE => ("fog_a".into(), FogA::LAYOUT),
        0xEF => ("fog_b_magnitude".into(), FogBMagnitude::LAYOUT),
        0xF0 => ("fog_b_shift".into(), FogBShift::LAYOUT),
        0xF1 => ("fog_c".into(), FogC::LAYOUT),
        0xF2 => ("fog_color".into(), FogColor::LAYOUT),
        0xF3 => ("alpha_test".into(), AlphaTest::LAYOUT),
        0xF4 => ("ztex_bias".into(), ZTexBias::LAYOUT),
        0xF5 => ("ztex2".into(), ZTex2::LAYOUT),
        0xF6..=0xFD => (format!("tev_ksel[{}]", a - 0xF6), TevKSel::LAYOUT),
        0xFE => ("bp_mask".into(), BpMask::LAYOUT),
        _ => return None,
    })
}

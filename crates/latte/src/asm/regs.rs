//! Register-block layouts of GX2VertexShader / GX2PixelShader and the register fields the
//! `; $REG.FIELD = value` directives name (wut gx2/shaders.h word order; field positions from
//! latte-semantics-facts.md §2.4, §5 and decaf's register definitions).

/// A register of a stage's register block: name, first word, number of words (arrays).
pub struct RegSlot {
    /// Register name.
    pub name: &'static str,
    /// First word in the register block.
    pub word: usize,
    /// Length in words.
    pub len: usize,
}

/// Vertex-shader register block (52 words).
pub static VS_REGS: &[RegSlot] = &[
    RegSlot { name: "SQ_PGM_RESOURCES_VS", word: 0, len: 1 },
    RegSlot { name: "VGT_PRIMITIVEID_EN", word: 1, len: 1 },
    RegSlot { name: "SPI_VS_OUT_CONFIG", word: 2, len: 1 },
    RegSlot { name: "NUM_SPI_VS_OUT_ID", word: 3, len: 1 },
    RegSlot { name: "SPI_VS_OUT_ID", word: 4, len: 10 },
    RegSlot { name: "PA_CL_VS_OUT_CNTL", word: 14, len: 1 },
    RegSlot { name: "SQ_VTX_SEMANTIC_CLEAR", word: 15, len: 1 },
    RegSlot { name: "NUM_SQ_VTX_SEMANTIC", word: 16, len: 1 },
    RegSlot { name: "SQ_VTX_SEMANTIC", word: 17, len: 32 },
    RegSlot { name: "VGT_STRMOUT_BUFFER_EN", word: 49, len: 1 },
    RegSlot { name: "VGT_VERTEX_REUSE_BLOCK_CNTL", word: 50, len: 1 },
    RegSlot { name: "VGT_HOS_REUSE_DEPTH", word: 51, len: 1 },
];

/// Pixel-shader register block (41 words).
pub static PS_REGS: &[RegSlot] = &[
    RegSlot { name: "SQ_PGM_RESOURCES_PS", word: 0, len: 1 },
    RegSlot { name: "SQ_PGM_EXPORTS_PS", word: 1, len: 1 },
    RegSlot { name: "SPI_PS_IN_CONTROL_0", word: 2, len: 1 },
    RegSlot { name: "SPI_PS_IN_CONTROL_1", word: 3, len: 1 },
    RegSlot { name: "NUM_SPI_PS_INPUT_CNTL", word: 4, len: 1 },
    RegSlot { name: "SPI_PS_INPUT_CNTL", word: 5, len: 32 },
    RegSlot { name: "CB_SHADER_MASK", word: 37, len: 1 },
    RegSlot { name: "CB_SHADER_CONTROL", word: 38, len: 1 },
    RegSlot { name: "DB_SHADER_CONTROL", word: 39, len: 1 },
    RegSlot { name: "SPI_INPUT_Z", word: 40, len: 1 },
];

/// Geometry-shader register block (19 words).
pub static GS_REGS: &[RegSlot] = &[
    RegSlot { name: "SQ_PGM_RESOURCES_GS", word: 0, len: 1 },
    RegSlot { name: "VGT_GS_OUT_PRIM_TYPE", word: 1, len: 1 },
    RegSlot { name: "VGT_GS_MODE", word: 2, len: 1 },
    RegSlot { name: "PA_CL_VS_OUT_CNTL", word: 3, len: 1 },
    RegSlot { name: "SQ_PGM_RESOURCES_VS", word: 4, len: 1 },
    RegSlot { name: "SQ_GS_VERT_ITEMSIZE", word: 5, len: 1 },
    RegSlot { name: "SPI_VS_OUT_CONFIG", word: 6, len: 1 },
    RegSlot { name: "NUM_SPI_VS_OUT_ID", word: 7, len: 1 },
    RegSlot { name: "SPI_VS_OUT_ID", word: 8, len: 10 },
    RegSlot { name: "VGT_STRMOUT_BUFFER_EN", word: 18, len: 1 },
];

/// (register, field, low bit, width). Registers not listed take only whole values.
pub static FIELDS: &[(&str, &str, u32, u32)] = &[
    ("SQ_PGM_RESOURCES", "NUM_GPRS", 0, 8), ("SQ_PGM_RESOURCES", "STACK_SIZE", 8, 8),
    ("SQ_PGM_RESOURCES", "DX10_CLAMP", 21, 1), ("SQ_PGM_RESOURCES", "PRIME_CACHE_PGM_EN", 22, 1),
    ("SQ_PGM_RESOURCES", "PRIME_CACHE_ON_DRAW", 23, 1), ("SQ_PGM_RESOURCES", "FETCH_CACHE_LINES", 24, 3),
    ("SQ_PGM_RESOURCES", "UNCACHED_FIRST_INST", 28, 1), ("SQ_PGM_RESOURCES", "PRIME_CACHE_ENABLE", 29, 1),
    ("SQ_PGM_RESOURCES", "PRIME_CACHE_ON_CONST", 30, 1), ("SQ_PGM_RESOURCES", "CLAMP_CONSTS", 31, 1),
    ("VGT_PRIMITIVEID_EN", "PRIMITIVEID_EN", 0, 1),
    ("SPI_VS_OUT_CONFIG", "VS_PER_COMPONENT", 0, 1), ("SPI_VS_OUT_CONFIG", "VS_EXPORT_COUNT", 1, 5),
    ("SPI_VS_OUT_CONFIG", "VS_EXPORTS_FOG", 8, 1), ("SPI_VS_OUT_CONFIG", "VS_OUT_FOG_VEC_ADDR", 9, 5),
    ("SPI_VS_OUT_ID", "SEMANTIC_0", 0, 8), ("SPI_VS_OUT_ID", "SEMANTIC_1", 8, 8),
    ("SPI_VS_OUT_ID", "SEMANTIC_2", 16, 8), ("SPI_VS_OUT_ID", "SEMANTIC_3", 24, 8),
    ("PA_CL_VS_OUT_CNTL", "CLIP_DIST_ENA_0", 0, 1), ("PA_CL_VS_OUT_CNTL", "CLIP_DIST_ENA_1", 1, 1),
    ("PA_CL_VS_OUT_CNTL", "CLIP_DIST_ENA_2", 2, 1), ("PA_CL_VS_OUT_CNTL", "CLIP_DIST_ENA_3", 3, 1),
    ("PA_CL_VS_OUT_CNTL", "CLIP_DIST_ENA_4", 4, 1), ("PA_CL_VS_OUT_CNTL", "CLIP_DIST_ENA_5", 5, 1),
    ("PA_CL_VS_OUT_CNTL", "CLIP_DIST_ENA_6", 6, 1), ("PA_CL_VS_OUT_CNTL", "CLIP_DIST_ENA_7", 7, 1),
    ("PA_CL_VS_OUT_CNTL", "CULL_DIST_ENA_0", 8, 1), ("PA_CL_VS_OUT_CNTL", "CULL_DIST_ENA_1", 9, 1),
    ("PA_CL_VS_OUT_CNTL", "CULL_DIST_ENA_2", 10, 1), ("PA_CL_VS_OUT_CNTL", "CULL_DIST_ENA_3", 11, 1),
    ("PA_CL_VS_OUT_CNTL", "CULL_DIST_ENA_4", 12, 1), ("PA_CL_VS_OUT_CNTL", "CULL_DIST_ENA_5", 13, 1),
    ("PA_CL_VS_OUT_CNTL", "CULL_DIST_ENA_6", 14, 1), ("PA_CL_VS_OUT_CNTL", "CULL_DIST_ENA_7", 15, 1),
    ("PA_CL_VS_OUT_CNTL", "USE_VTX_POINT_SIZE", 16, 1), ("PA_CL_VS_OUT_CNTL", "USE_VTX_EDGE_FLAG", 17, 1),
    ("PA_CL_VS_OUT_CNTL", "USE_VTX_RENDER_TARGET_INDX", 18, 1), ("PA_CL_VS_OUT_CNTL", "USE_VTX_VIEWPORT_INDX", 19, 1),
    ("PA_CL_VS_OUT_CNTL", "USE_VTX_KILL_FLAG", 20, 1), ("PA_CL_VS_OUT_CNTL", "VS_OUT_MISC_VEC_ENA", 21, 1),
    ("PA_CL_VS_OUT_CNTL", "VS_OUT_CCDIST0_VEC_ENA", 22, 1), ("PA_CL_VS_OUT_CNTL", "VS_OUT_CCDIST1_VEC_ENA", 23, 1),
    ("PA_CL_VS_OUT_CNTL", "VS_OUT_MISC_SIDE_BUS_ENA", 24, 1), ("PA_CL_VS_OUT_CNTL", "USE_VTX_GS_CUT_FLAG", 25, 1),
    ("SQ_VTX_SEMANTIC_CLEAR", "CLEAR", 0, 32),
    ("SQ_VTX_SEMANTIC", "SEMANTIC_ID", 0, 8),
    ("VGT_STRMOUT_BUFFER_EN", "BUFFER_0_EN", 0, 1), ("VGT_STRMOUT_BUFFER_EN", "BUFFER_1_EN", 1, 1),
    ("VGT_STRMOUT_BUFFER_EN", "BUFFER_2_EN", 2, 1), ("VGT_STRMOUT_BUFFER_EN", "BUFFER_3_EN", 3, 1),
    ("VGT_VERTEX_REUSE_BLOCK_CNTL", "VTX_REUSE_DEPTH", 0, 8),
    ("VGT_HOS_REUSE_DEPTH", "REUSE_DEPTH", 0, 8),
    ("SQ_PGM_EXPORTS_PS", "EXPORT_MODE", 0, 5),
    ("SPI_PS_IN_CONTROL_0", "NUM_INTERP", 0, 6), ("SPI_PS_IN_CONTROL_0", "POSITION_ENA", 8, 1),
    ("SPI_PS_IN_CONTROL_0", "POSITION_CENTROID", 9, 1), ("SPI_PS_IN_CONTROL_0", "POSITION_ADDR", 10, 5),
    ("SPI_PS_IN_CONTROL_0", "PARAM_GEN", 15, 4), ("SPI_PS_IN_CONTROL_0", "PARAM_GEN_ADDR", 19, 7),
    ("SPI_PS_IN_CONTROL_0", "BARYC_SAMPLE_CNTL", 26, 2), ("SPI_PS_IN_CONTROL_0", "PERSP_GRADIENT_ENA", 28, 1),
    ("SPI_PS_IN_CONTROL_0", "LINEAR_GRADIENT_ENA", 29, 1), ("SPI_PS_IN_CONTROL_0", "POSITION_SAMPLE", 30, 1),
    ("SPI_PS_IN_CONTROL_0", "BARYC_AT_SAMPLE_ENA", 31, 1),
    ("SPI_PS_IN_CONTROL_1", "GEN_INDEX_PIX", 0, 1), ("SPI_PS_IN_CONTROL_1", "GEN_INDEX_PIX_ADDR", 1, 7),
    ("SPI_PS_IN_CONTROL_1", "FRONT_FACE_ENA", 8, 1), ("SPI_PS_IN_CONTROL_1", "FRONT_FACE_CHAN", 9, 2),
    ("SPI_PS_IN_CONTROL_1", "FRONT_FACE_ALL_BITS", 11, 1), ("SPI_PS_IN_CONTROL_1", "FRONT_FACE_ADDR", 12, 5),
    ("SPI_PS_IN_CONTROL_1", "FOG_ADDR", 17, 7), ("SPI_PS_IN_CONTROL_1", "FIXED_PT_POSITION_ENA", 24, 1),
    ("SPI_PS_IN_CONTROL_1", "FIXED_PT_POSITION_ADDR", 25, 5),
    ("SPI_PS_INPUT_CNTL", "SEMANTIC", 0, 8), ("SPI_PS_INPUT_CNTL", "DEFAULT_VAL", 8, 2),
    ("SPI_PS_INPUT_CNTL", "FLAT_SHADE", 10, 1), ("SPI_PS_INPUT_CNTL", "SEL_CENTROID", 11, 1),
    ("SPI_PS_INPUT_CNTL", "SEL_LINEAR", 12, 1), ("SPI_PS_INPUT_CNTL", "CYL_WRAP", 13, 4),
    ("SPI_PS_INPUT_CNTL", "PT_SPRITE_TEX", 17, 1), ("SPI_PS_INPUT_CNTL", "SEL_SAMPLE", 18, 1),
    ("CB_SHADER_MASK", "OUTPUT0_ENABLE", 0, 4), ("CB_SHADER_MASK", "OUTPUT1_ENABLE", 4, 4),
    ("CB_SHADER_MASK", "OUTPUT2_ENABLE", 8, 4), ("CB_SHADER_MASK", "OUTPUT3_ENABLE", 12, 4),
    ("CB_SHADER_MASK", "OUTPUT4_ENABLE", 16, 4), ("CB_SHADER_MASK", "OUTPUT5_ENABLE", 20, 4),
    ("CB_SHADER_MASK", "OUTPUT6_ENABLE", 24, 4), ("CB_SHADER_MASK", "OUTPUT7_ENABLE", 28, 4),
    ("CB_SHADER_CONTROL", "RT0_ENABLE", 0, 1), ("CB_SHADER_CONTROL", "RT1_ENABLE", 1, 1),
    ("CB_SHADER_CONTROL", "RT2_ENABLE", 2, 1), ("CB_SHADER_CONTROL", "RT3_ENABLE", 3, 1),
    ("CB_SHADER_CONTROL", "RT4_ENABLE", 4, 1), ("CB_SHADER_CONTROL", "RT5_ENABLE", 5, 1),
    ("CB_SHADER_CONTROL", "RT6_ENABLE", 6, 1), ("CB_SHADER_CONTROL", "RT7_ENABLE", 7, 1),
    ("DB_SHADER_CONTROL", "Z_EXPORT_ENABLE", 0, 1), ("DB_SHADER_CONTROL", "STENCIL_REF_EXPORT_ENABLE", 1, 1),
    ("DB_SHADER_CONTROL", "Z_ORDER", 4, 2), ("DB_SHADER_CONTROL", "KILL_ENABLE", 6, 1),
    ("DB_SHADER_CONTROL", "COVERAGE_TO_MASK_ENABLE", 7, 1), ("DB_SHADER_CONTROL", "MASK_EXPORT_ENABLE", 8, 1),
    ("DB_SHADER_CONTROL", "DUAL_EXPORT_ENABLE", 9, 1), ("DB_SHADER_CONTROL", "EXEC_ON_HIER_FAIL", 10, 1),
    ("DB_SHADER_CONTROL", "EXEC_ON_NOOP", 11, 1), ("DB_SHADER_CONTROL", "ALPHA_TO_MASK_DISABLE", 12, 1),
    ("SPI_INPUT_Z", "PROVIDE_Z_TO_SPI", 0, 1),
];

/// The (low bit, width) of `reg.field`.
pub fn field(reg: &str, field: &str) -> Option<(u32, u32)> {
    let reg = if reg.starts_with("SQ_PGM_RESOURCES_") { "SQ_PGM_RESOURCES" } else { reg };
    FIELDS.iter().find(|f| f.0 == reg && f.1 == field).map(|f| (f.2, f.3))
}

//! Names shared by the printer and the assembler, kept in one place so the two stay inverse.

/// Swizzle characters of selector codes 0-7 (6 is reserved; Mesa prints it as '?').
pub const SEL_CHARS: &[u8; 8] = b"xyzw01?_";
/// Channel letters.
pub const CHAN: &[u8; 4] = b"xyzw";
/// Slot letters (4 = trans).
pub const SLOT: &[u8; 5] = b"xyzwt";
/// CF COND values.
pub const COND: [&str; 4] = ["ACTIVE", "ALWAYS_FALSE", "CF_BOOL", "CF_NOT_BOOL"];
/// Vector-slot bank swizzles (0-5).
pub const VEC_BANK: [&str; 6] = ["VEC_012", "VEC_021", "VEC_120", "VEC_102", "VEC_201", "VEC_210"];
/// Trans-slot bank swizzles (0-3).
pub const SCL_BANK: [&str; 4] = ["SCL_210", "SCL_122", "SCL_212", "SCL_221"];
/// ALU index modes (INDEX_MODE 0-4; 5-7 print as IDX5-IDX7).
pub const INDEX_MODE: [&str; 5] = ["AR.x", "AR.y", "AR.z", "AR.w", "AL"];
/// Output modifiers (1-3) as opcode suffixes.
pub const OMOD: [&str; 4] = ["", "*2", "*4", "/2"];
/// Export targets by TYPE (PIXEL, POS, PARAM) and memory-write types.
pub const MEM_TYPE: [&str; 4] = ["WRITE", "WRITE_IND", "READ", "READ_IND"];
/// VTX fetch types.
pub const FETCH_TYPE: [&str; 4] = ["VERTEX", "INSTANCE", "NO_INDEX", "TYPE3"];

/// Mesa's r600 listing spelling of a mnemonic this crate prints differently (the latte-mesa
/// corpus listings use these); names not listed are spelled the same. CLAMP prints as a `_sat`
/// suffix there.
pub const MESA_NAMES: [(&str, &str); 6] = [
    ("EXP", "EXPORT"),
    ("EXP_DONE", "EXPORT_DONE"),
    ("GET_TEXTURE_INFO", "GET_TEXTURE_RESINFO"),
    ("GET_SAMPLE_INFO", "GET_NUMBER_OF_SAMPLES"),
    ("GET_COMP_TEX_LOD", "GET_LOD"),
    ("VTX_FETCH", "VFETCH"),
];

/// `name` as Mesa's listings spell it.
pub fn mesa_mnemonic(name: &str) -> &str {
    MESA_NAMES.iter().find(|(ours, _)| *ours == name).map_or(name, |(_, m)| m)
}

/// A Mesa spelling turned into this crate's (the assembler accepts both).
pub fn from_mesa_mnemonic(name: &str) -> &str {
    MESA_NAMES.iter().find(|(_, m)| *m == name).map_or(name, |(ours, _)| ours)
}

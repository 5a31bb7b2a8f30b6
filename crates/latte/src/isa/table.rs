//! The Latte (R700) instruction set as tables: one row per opcode, driving decode, encode,
//! print and assemble (STYLE.md "One table per instruction set").
//!
//! Values: latte-semantics-facts.md §1.6 (CF), §1.13 (ALU OP2/OP3, slot restrictions), §1.14
//! (TEX), §1.15 (VTX); names as the AMD ISA documents and Mesa's r600 listings print them.

/// How a plain-encoding CF instruction uses its fields (selects printing and assembling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfClass {
    /// Takes no address (NOP, RETURN, EMIT_VERTEX, CALL_FS, ...).
    Plain,
    /// ADDR is a CF target (jumps, loops, calls, PUSH/POP/ELSE).
    Branch,
    /// Runs a TEX clause at ADDR.
    Tex,
    /// Runs a VTX clause at ADDR.
    Vtx,
}

/// A plain CF opcode (CF_WORD1.CF_INST, 7 bits, values below 0x20).
#[derive(Clone, Copy, Debug)]
pub struct CfOp {
    /// Opcode value.
    pub code: u8,
    /// Mnemonic.
    pub name: &'static str,
    /// How the instruction uses its fields.
    pub class: CfClass,
}

macro_rules! cf {
    ($($code:literal $name:ident $class:ident;)*) => {
        /// Every plain CF opcode of R700.
        pub static CF_OPS: &[CfOp] = &[$(CfOp { code: $code, name: stringify!($name), class: CfClass::$class }),*];
    };
}
cf! {
    0x00 NOP Plain; 0x01 TEX Tex; 0x02 VTX Vtx; 0x03 VTX_TC Vtx;
    0x04 LOOP_START Branch; 0x05 LOOP_END Branch; 0x06 LOOP_START_DX10 Branch; 0x07 LOOP_START_NO_AL Branch;
    0x08 LOOP_CONTINUE Branch; 0x09 LOOP_BREAK Branch; 0x0A JUMP Branch; 0x0B PUSH Branch;
    0x0C PUSH_ELSE Branch; 0x0D ELSE Branch; 0x0E POP Branch; 0x0F POP_JUMP Branch;
    0x10 POP_PUSH Branch; 0x11 POP_PUSH_ELSE Branch; 0x12 CALL Branch; 0x13 CALL_FS Plain;
    0x14 RETURN Plain; 0x15 EMIT_VERTEX Plain; 0x16 EMIT_CUT_VERTEX Plain; 0x17 CUT_VERTEX Plain;
    0x18 KILL Branch; 0x19 END_PROGRAM Plain; 0x1A WAIT_ACK Plain; 0x1B TEX_ACK Tex;
    0x1C VTX_ACK Vtx; 0x1D VTX_TC_ACK Vtx;
}

/// ALU clause CF opcodes (CF_ALU_WORD1.CF_INST, 4 bits, 8-15).
pub static CF_ALU_OPS: &[(u8, &str)] = &[
    (8, "ALU"),
    (9, "ALU_PUSH_BEFORE"),
    (10, "ALU_POP_AFTER"),
    (11, "ALU_POP2_AFTER"),
    (12, "ALU_EXT"),
    (13, "ALU_CONTINUE"),
    (14, "ALU_BREAK"),
    (15, "ALU_ELSE_AFTER"),
];

/// Whether an export-class CF opcode uses the BUF form of word 1 (memory writes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpClass {
    /// EXPORT / EXPORT_DONE: SWIZ form, targets PIXEL/POS/PARAM.
    Export,
    /// MEM_*: BUF form (array size, component mask).
    Mem,
}

/// Export-class CF opcodes (CF_ALLOC_EXPORT_WORD1.CF_INST, 0x20-0x3F). The assembler also
/// accepts decaf's EXP / EXP_DONE for 0x27 / 0x28.
pub static CF_EXP_OPS: &[(u8, &str, ExpClass)] = &[
    (0x20, "MEM_STREAM0", ExpClass::Mem),
    (0x21, "MEM_STREAM1", ExpClass::Mem),
    (0x22, "MEM_STREAM2", ExpClass::Mem),
    (0x23, "MEM_STREAM3", ExpClass::Mem),
    (0x24, "MEM_SCRATCH", ExpClass::Mem),
    (0x25, "MEM_REDUCTION", ExpClass::Mem),
    (0x26, "MEM_RING", ExpClass::Mem),
    (0x27, "EXP", ExpClass::Export),
    (0x28, "EXP_DONE", ExpClass::Export),
    (0x3A, "MEM_EXPORT", ExpClass::Mem),
];

/// Which slots of a VLIW group an ALU opcode may use (R700 column of Mesa's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slots {
    /// x, y, z, w or t.
    Any,
    /// Vector slots only.
    Vector,
    /// The trans slot only.
    Trans,
    /// All four vector slots with the same opcode (DOT4, CUBE, MAX4).
    Quad,
}

/// One ALU opcode.
#[derive(Clone, Copy, Debug)]
pub struct AluOp {
    /// OP2: the 11-bit ALU_INST; OP3: the 5-bit ALU_INST.
    pub code: u16,
    /// Mnemonic.
    pub name: &'static str,
    /// Number of source operands.
    pub srcs: u8,
    /// Slots the opcode may use.
    pub slots: Slots,
    /// What the opcode does to control state (the class column; `Plain` where a row has none).
    pub class: AluClass,
}

macro_rules! alu {
    ($table:ident, $doc:literal, $($code:literal $name:ident $srcs:literal $slots:ident $($class:ident)?;)*) => {
        #[doc = $doc]
        pub static $table: &[AluOp] = &[$(AluOp {
            code: $code,
            name: stringify!($name),
            srcs: $srcs,
            slots: Slots::$slots,
            class: { #[allow(unused_mut, unused_assignments)] let mut c = AluClass::Plain; $( c = AluClass::$class; )? c },
        }),*];
    };
}

alu! { ALU_OP2, "OP2 opcodes (R700 values, sorted by code).",
    0x00 ADD 2 Any; 0x01 MUL 2 Any; 0x02 MUL_IEEE 2 Any; 0x03 MAX 2 Any; 0x04 MIN 2 Any;
    0x05 MAX_DX10 2 Any; 0x06 MIN_DX10 2 Any;
    0x08 SETE 2 Any; 0x09 SETGT 2 Any; 0x0A SETGE 2 Any; 0x0B SETNE 2 Any;
    0x0C SETE_DX10 2 Any; 0x0D SETGT_DX10 2 Any; 0x0E SETGE_DX10 2 Any; 0x0F SETNE_DX10 2 Any;
    0x10 FRACT 1 Any; 0x11 TRUNC 1 Any; 0x12 CEIL 1 Any; 0x13 RNDNE 1 Any; 0x14 FLOOR 1 Any;
    0x15 MOVA 1 Vector Mova; 0x16 MOVA_FLOOR 1 Vector Mova; 0x18 MOVA_INT 1 Vector Mova;
    0x19 MOV 1 Any; 0x1A NOP 0 Any Nop;
    0x1E PRED_SETGT_UINT 2 Any PredSet; 0x1F PRED_SETGE_UINT 2 Any PredSet;
    0x20 PRED_SETE 2 Any PredSet; 0x21 PRED_SETGT 2 Any PredSet; 0x22 PRED_SETGE 2 Any PredSet; 0x23 PRED_SETNE 2 Any PredSet;
    0x24 PRED_SET_INV 1 Any PredSet; 0x25 PRED_SET_POP 2 Any PredSet; 0x26 PRED_SET_CLR 0 Any PredSet; 0x27 PRED_SET_RESTORE 1 Any PredSet;
    0x28 PRED_SETE_PUSH 2 Any PredSetPush; 0x29 PRED_SETGT_PUSH 2 Any PredSetPush; 0x2A PRED_SETGE_PUSH 2 Any PredSetPush; 0x2B PRED_SETNE_PUSH 2 Any PredSetPush;
    0x2C KILLE 2 Any Kill; 0x2D KILLGT 2 Any Kill; 0x2E KILLGE 2 Any Kill; 0x2F KILLNE 2 Any Kill;
    0x30 AND_INT 2 Any; 0x31 OR_INT 2 Any; 0x32 XOR_INT 2 Any; 0x33 NOT_INT 1 Any;
    0x34 ADD_INT 2 Any; 0x35 SUB_INT 2 Any; 0x36 MAX_INT 2 Any; 0x37 MIN_INT 2 Any;
    0x38 MAX_UINT 2 Any; 0x39 MIN_UINT 2 Any;
    0x3A SETE_INT 2 Any; 0x3B SETGT_INT 2 Any; 0x3C SETGE_INT 2 Any; 0x3D SETNE_INT 2 Any;
    0x3E SETGT_UINT 2 Any; 0x3F SETGE_UINT 2 Any; 0x40 KILLGT_UINT 2 Any Kill; 0x41 KILLGE_UINT 2 Any Kill;
    0x42 PRED_SETE_INT 2 Any PredSet; 0x43 PRED_SETGT_INT 2 Any PredSet; 0x44 PRED_SETGE_INT 2 Any PredSet; 0x45 PRED_SETNE_INT 2 Any PredSet;
    0x46 KILLE_INT 2 Any Kill; 0x47 KILLGT_INT 2 Any Kill; 0x48 KILLGE_INT 2 Any Kill; 0x49 KILLNE_INT 2 Any Kill;
    0x4A PRED_SETE_PUSH_INT 2 Any PredSetPush; 0x4B PRED_SETGT_PUSH_INT 2 Any PredSetPush; 0x4C PRED_SETGE_PUSH_INT 2 Any PredSetPush;
    0x4D PRED_SETNE_PUSH_INT 2 Any PredSetPush; 0x4E PRED_SETLT_PUSH_INT 2 Any PredSetPush; 0x4F PRED_SETLE_PUSH_INT 2 Any PredSetPush;
    0x50 DOT4 2 Quad Reduction; 0x51 DOT4_IEEE 2 Quad Reduction; 0x52 CUBE 2 Quad Cube; 0x53 MAX4 1 Quad Reduction;
    0x60 MOVA_GPR_INT 1 Trans Mova;
    0x61 EXP_IEEE 1 Trans; 0x62 LOG_CLAMPED 1 Trans; 0x63 LOG_IEEE 1 Trans;
    0x64 RECIP_CLAMPED 1 Trans; 0x65 RECIP_FF 1 Trans; 0x66 RECIP_IEEE 1 Trans;
    0x67 RECIPSQRT_CLAMPED 1 Trans; 0x68 RECIPSQRT_FF 1 Trans; 0x69 RECIPSQRT_IEEE 1 Trans;
    0x6A SQRT_IEEE 1 Trans; 0x6B FLT_TO_INT 1 Trans; 0x6C INT_TO_FLT 1 Trans; 0x6D UINT_TO_FLT 1 Trans;
    0x6E SIN 1 Trans; 0x6F COS 1 Trans;
    0x70 ASHR_INT 2 Any; 0x71 LSHR_INT 2 Any; 0x72 LSHL_INT 2 Any;
    0x73 MULLO_INT 2 Trans; 0x74 MULHI_INT 2 Trans; 0x75 MULLO_UINT 2 Trans; 0x76 MULHI_UINT 2 Trans;
    0x77 RECIP_INT 1 Trans; 0x78 RECIP_UINT 1 Trans; 0x79 FLT_TO_UINT 1 Trans;
}

alu! { ALU_OP3, "OP3 opcodes (R700 values, sorted by code).",
    0x0C MUL_LIT 3 Trans; 0x0D MUL_LIT_M2 3 Trans; 0x0E MUL_LIT_M4 3 Trans; 0x0F MUL_LIT_D2 3 Trans;
    0x10 MULADD 3 Any; 0x11 MULADD_M2 3 Any; 0x12 MULADD_M4 3 Any; 0x13 MULADD_D2 3 Any;
    0x14 MULADD_IEEE 3 Any; 0x15 MULADD_IEEE_M2 3 Any; 0x16 MULADD_IEEE_M4 3 Any; 0x17 MULADD_IEEE_D2 3 Any;
    0x18 CNDE 3 Any; 0x19 CNDGT 3 Any; 0x1A CNDGE 3 Any;
    0x1C CNDE_INT 3 Any; 0x1D CNDGT_INT 3 Any; 0x1E CNDGE_INT 3 Any;
}

/// Aliases the decaf-emu latte-assembler accepts for ALU opcodes.
pub static ALU_ALIASES: &[(&str, &str)] = &[
    ("SQRT_e", "SQRT_IEEE"),
    ("EXP_e", "EXP_IEEE"),
    ("LOG_e", "LOG_IEEE"),
    ("RSQ_e", "RECIPSQRT_IEEE"),
    ("RCP_e", "RECIP_IEEE"),
    ("LOG_sat", "LOG_CLAMPED"),
    ("MUL_e", "MUL_IEEE"),
    ("DOT4_e", "DOT4_IEEE"),
    ("MULADD_e", "MULADD_IEEE"),
];

/// TEX_INST values (TEX_WORD0 bits 4:0). 0 and 1 are vertex fetches in TEX clauses and use the
/// VTX layout.
pub static TEX_OPS: &[(u8, &str)] = &[
    (0x00, "VTX_FETCH"),
    (0x01, "VTX_SEMANTIC"),
    (0x02, "MEM"),
    (0x03, "LD"),
    (0x04, "GET_TEXTURE_INFO"),
    (0x05, "GET_SAMPLE_INFO"),
    (0x06, "GET_COMP_TEX_LOD"),
    (0x07, "GET_GRADIENTS_H"),
    (0x08, "GET_GRADIENTS_V"),
    (0x09, "GET_LERP"),
    (0x0A, "KEEP_GRADIENTS"),
    (0x0B, "SET_GRADIENTS_H"),
    (0x0C, "SET_GRADIENTS_V"),
    (0x0D, "PASS"),
    (0x0E, "SET_CUBEMAP_INDEX"),
    (0x0F, "FETCH4"),
    (0x10, "SAMPLE"),
    (0x11, "SAMPLE_L"),
    (0x12, "SAMPLE_LB"),
    (0x13, "SAMPLE_LZ"),
    (0x14, "SAMPLE_G"),
    (0x15, "SAMPLE_G_L"),
    (0x16, "SAMPLE_G_LB"),
    (0x17, "SAMPLE_G_LZ"),
    (0x18, "SAMPLE_C"),
    (0x19, "SAMPLE_C_L"),
    (0x1A, "SAMPLE_C_LB"),
    (0x1B, "SAMPLE_C_LZ"),
    (0x1C, "SAMPLE_C_G"),
    (0x1D, "SAMPLE_C_G_L"),
    (0x1E, "SAMPLE_C_G_LB"),
    (0x1F, "SAMPLE_C_G_LZ"),
];

/// VTX_INST values (VTX_WORD0 bits 4:0).
pub static VTX_OPS: &[(u8, &str)] = &[(0x00, "VFETCH"), (0x01, "SEMANTIC")];

/// The plain CF opcode `code`, if R700 defines it.
pub fn cf_op(code: u8) -> Option<&'static CfOp> {
    CF_OPS.get(code as usize).filter(|o| o.code == code)
}

/// The OP2 opcode `code`.
pub fn alu_op2(code: u16) -> Option<&'static AluOp> {
    ALU_OP2.binary_search_by_key(&code, |o| o.code).ok().map(|i| &ALU_OP2[i])
}

/// The OP3 opcode `code`.
pub fn alu_op3(code: u16) -> Option<&'static AluOp> {
    ALU_OP3.binary_search_by_key(&code, |o| o.code).ok().map(|i| &ALU_OP3[i])
}

/// Looks an ALU mnemonic up (aliases included): (is OP3, opcode).
pub fn alu_by_name(name: &str) -> Option<(bool, u16)> {
    let name = ALU_ALIASES.iter().find(|(a, _)| *a == name).map_or(name, |(_, n)| *n);
    if let Some(o) = ALU_OP2.iter().find(|o| o.name == name) {
        return Some((false, o.code));
    }
    if let Some(o) = ALU_OP3.iter().find(|o| o.name == name) {
        return Some((true, o.code));
    }
    // Raw forms printed for codes without a name.
    if let Some(h) = name.strip_prefix("OP2_0x") {
        return u16::from_str_radix(h, 16).ok().filter(|&c| c < 0x800).map(|c| (false, c));
    }
    if let Some(h) = name.strip_prefix("OP3_0x") {
        return u16::from_str_radix(h, 16).ok().filter(|&c| c < 0x20).map(|c| (true, c));
    }
    None
}

/// What an ALU opcode does to control state, for the interpreter and the translator
/// (latte-semantics-facts.md §2.5, §2.6, §1.11, §2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluClass {
    /// An ordinary computation.
    Plain,
    /// KILL*: clears the pixel's valid bit when the comparison holds.
    Kill,
    /// PRED_SET* (PRED_SET_INV/POP/CLR/RESTORE included): may update the predicate and the
    /// exec mask.
    PredSet,
    /// PRED_SET*_PUSH: the predicate-counter push forms (an ALU-level counter, no CF stack;
    /// docs/latte-interp.md).
    PredSetPush,
    /// MOVA*: loads AR.
    Mova,
    /// DOT4, DOT4_IEEE, MAX4: one result replicated to the four vector slots.
    Reduction,
    /// CUBE: four slots, one value each.
    Cube,
    /// NOP.
    Nop,
}

impl AluOp {
    /// The opcode's class (the table's class column).
    pub fn class(&self) -> AluClass {
        self.class
    }
}

/// The opcodes of one class, OP2 and OP3 rows together (the lists the interpreter, the
/// translator and the generators take).
pub fn alu_ops_of(class: AluClass) -> impl Iterator<Item = &'static AluOp> {
    ALU_OP2.iter().chain(ALU_OP3).filter(move |o| o.class == class)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_unique() {
        for t in [ALU_OP2, ALU_OP3] {
            assert!(t.windows(2).all(|w| w[0].code < w[1].code));
        }
        let mut names: Vec<&str> = ALU_OP2.iter().chain(ALU_OP3).map(|o| o.name).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n);
        assert!(CF_OPS.iter().enumerate().all(|(i, o)| o.code as usize == i));
        assert!(TEX_OPS.iter().enumerate().all(|(i, o)| o.0 as usize == i));
    }

    #[test]
    fn names_round_trip_and_classes() {
        for o in ALU_OP2 {
            assert_eq!(alu_by_name(o.name), Some((false, o.code)));
        }
        for o in ALU_OP3 {
            assert_eq!(alu_by_name(o.name), Some((true, o.code)));
        }
        assert_eq!(alu_by_name("EXP_e"), Some((false, 0x61)));
        assert_eq!(alu_by_name("OP2_0x7A"), Some((false, 0x7A)));
        assert_eq!(alu_op2(0x2D).unwrap().class(), AluClass::Kill);
        assert_eq!(alu_op2(0x21).unwrap().class(), AluClass::PredSet);
        assert_eq!(alu_op2(0x4B).unwrap().class(), AluClass::PredSetPush);
        assert_eq!(alu_op2(0x51).unwrap().class(), AluClass::Reduction);
        assert_eq!(alu_op2(0x18).unwrap().class(), AluClass::Mova);
        // Facts §1.13: R700 values of a few opcodes.
        assert_eq!(alu_op2(0x66).unwrap().name, "RECIP_IEEE");
        assert_eq!(alu_op3(0x14).unwrap().name, "MULADD_IEEE");
        assert_eq!(alu_op2(0x70).unwrap().slots, Slots::Any);
        assert_eq!(alu_op2(0x6E).unwrap().slots, Slots::Trans);
    }

    #[test]
    fn class_column_lists_each_class() {
        assert_eq!(alu_ops_of(AluClass::Cube).map(|o| o.name).collect::<Vec<_>>(), ["CUBE"]);
        assert_eq!(alu_ops_of(AluClass::Kill).count(), 10);
        assert!(alu_ops_of(AluClass::Kill).all(|o| o.name.starts_with("KILL")));
        assert_eq!(alu_ops_of(AluClass::Reduction).count(), 3);
        assert_eq!(alu_ops_of(AluClass::Mova).count(), 4);
        assert_eq!(alu_ops_of(AluClass::PredSetPush).count(), 10);
        assert!(ALU_OP3.iter().all(|o| o.class == AluClass::Plain));
    }
}

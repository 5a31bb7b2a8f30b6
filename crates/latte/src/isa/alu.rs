//! ALU instructions: ALU_WORD0 and ALU_WORD1 in its OP2 and OP3 forms
//! (latte-semantics-facts.md §1.7-§1.13).

use super::fields::{word_layout, Field, Fields, Layout, Prop};
use super::table::{self, AluOp, Slots};

/// Source selector values (§1.8).
pub mod sel {
    /// First kcache set 0 constant.
    pub const KCACHE0: u16 = 128;
    /// First kcache set 1 constant.
    pub const KCACHE1: u16 = 160;
    /// 0.0f.
    pub const ZERO: u16 = 248;
    /// 1.0f.
    pub const ONE: u16 = 249;
    /// Integer 1.
    pub const ONE_INT: u16 = 250;
    /// Integer -1.
    pub const MINUS_ONE_INT: u16 = 251;
    /// 0.5f.
    pub const HALF: u16 = 252;
    /// A literal constant of the group (chan selects X-W).
    pub const LITERAL: u16 = 253;
    /// Previous group vector result (chan selects x-w).
    pub const PV: u16 = 254;
    /// Previous group trans result.
    pub const PS: u16 = 255;
    /// First entry of the ALU constant file (uniform-register mode).
    pub const CFILE: u16 = 256;
}

/// One source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AluSrc {
    /// 9-bit selector (§1.8).
    pub sel: u16,
    /// REL: relative to the index register.
    pub rel: bool,
    /// Channel (0-3 = x-w).
    pub chan: u8,
    /// NEG: negate the source.
    pub neg: bool,
}

/// The OP2 part of word 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Op2 {
    /// 11-bit ALU_INST (bits 17:7; its top three bits are ENCODING and are 0).
    pub op: u16,
    /// SRC0_ABS / SRC1_ABS: take the absolute value of source 0 / 1.
    pub abs: [bool; 2],
    /// UPDATE_EXECUTE_MASK.
    pub update_exec_mask: bool,
    /// UPDATE_PRED.
    pub update_pred: bool,
    /// WRITE_MASK: write the GPR (PV/PS are produced either way).
    pub write_mask: bool,
    /// 0 off, 1 ×2, 2 ×4, 3 ÷2.
    pub omod: u8,
}

/// The OP3 part of word 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Op3 {
    /// 5-bit ALU_INST (bits 17:13; includes the non-zero ENCODING).
    pub op: u16,
    /// Source 2.
    pub src2: AluSrc,
}

/// OP2 or OP3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluKind {
    /// OP2 encoding.
    Op2(Op2),
    /// OP3 encoding.
    Op3(Op3),
}

/// One ALU instruction (one 64-bit slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AluInst {
    /// Source 0.
    pub src0: AluSrc,
    /// Source 1.
    pub src1: AluSrc,
    /// INDEX_MODE: 0-3 AR.x-w, 4 loop index, 5-7 global modes.
    pub index_mode: u8,
    /// PRED_SEL: 0 off, 2 run if predicate is 0, 3 run if 1.
    pub pred_sel: u8,
    /// LAST: ends the instruction group.
    pub last: bool,
    /// BANK_SWIZZLE: read cycle of each GPR source (no effect on results).
    pub bank_swizzle: u8,
    /// DST_GPR: destination register.
    pub dst_gpr: u8,
    /// DST_REL: destination relative to the index register.
    pub dst_rel: bool,
    /// DST_CHAN: destination channel.
    pub dst_chan: u8,
    /// CLAMP: clamp the result to [0, 1].
    pub clamp: bool,
    /// The OP2 or OP3 part of word 1.
    pub kind: AluKind,
}

impl Default for AluKind {
    fn default() -> Self {
        AluKind::Op2(Op2::default())
    }
}

word_layout! { AluInst = "alu" {
    src0_sel: w0[8:0] => (src0.sel),
    src0_rel: w0[9:9] => (src0.rel),
    src0_chan: w0[11:10] => (src0.chan),
    src0_neg: w0[12:12] => (src0.neg),
    src1_sel: w0[21:13] => (src1.sel),
    src1_rel: w0[22:22] => (src1.rel),
    src1_chan: w0[24:23] => (src1.chan),
    src1_neg: w0[25:25] => (src1.neg),
    index_mode: w0[28:26] => (index_mode),
    pred_sel: w0[30:29] => (pred_sel),
    last: w0[31:31] => (last),
    bank_swizzle: w1[20:18] => (bank_swizzle),
    dst_gpr: w1[27:21] => (dst_gpr),
    dst_rel: w1[28:28] => (dst_rel),
    dst_chan: w1[30:29] => (dst_chan),
    clamp: w1[31:31] => (clamp),
} }

word_layout! { Op2 = "alu_op2" {
    src0_abs: w1[0:0] => (abs[0]),
    src1_abs: w1[1:1] => (abs[1]),
    update_exec_mask: w1[2:2] => (update_exec_mask),
    update_pred: w1[3:3] => (update_pred),
    write_mask: w1[4:4] => (write_mask),
    omod: w1[6:5] => (omod),
    op: w1[17:7] => (op),
} }

word_layout! { Op3 = "alu_op3" {
    src2_sel: w1[8:0] => (src2.sel),
    src2_rel: w1[9:9] => (src2.rel),
    src2_chan: w1[11:10] => (src2.chan),
    src2_neg: w1[12:12] => (src2.neg),
    op: w1[17:13] => (op),
} }

/// ENCODING (word 1 bits 17:15): 0 selects OP2, anything else OP3 (the top bits of its ALU_INST).
pub const ENCODING: Field = Field { name: "encoding", word: 1, hi: 17, lo: 15, shift: 0 };

/// Properties of an ALU instruction line that stand for one field of either encoding.
pub static ALU_PROPS: &[Prop] = &[Prop::flag("CLAMP", "clamp")];

/// Properties of an OP2 instruction line that stand for one OP2 field.
pub static OP2_PROPS: &[Prop] = &[
    Prop::flag("UPDATE_EXEC_MASK", "update_exec_mask").or(&["UPDATE_EXEC_MASK(DEACTIVATE)"]),
    Prop::flag("UPDATE_PRED", "update_pred"),
];

impl AluInst {
    /// Decodes (word0, word1). OP3 when ENCODING (bits 17:15) is non-zero (§1.7).
    pub fn decode(w0: u32, w1: u32) -> AluInst {
        let w = [w0, w1];
        let mut i = AluInst::default();
        i.unpack(&w);
        i.kind = if ENCODING.get(&w) != 0 {
            let mut o = Op3::default();
            o.unpack(&w);
            AluKind::Op3(o)
        } else {
            let mut o = Op2::default();
            o.unpack(&w);
            AluKind::Op2(o)
        };
        i
    }

    /// Encodes back to (word0, word1).
    pub fn encode(&self) -> (u32, u32) {
        let mut w = [0u32; 2];
        self.pack(&mut w);
        match &self.kind {
            AluKind::Op2(o) => o.pack(&mut w),
            AluKind::Op3(o) => o.pack(&mut w),
        }
        (w[0], w[1])
    }

    /// The field table of this instruction's OP2 or OP3 part.
    pub fn kind_layout(&self) -> &'static Layout {
        match &self.kind {
            AluKind::Op2(_) => &<Op2 as Fields>::LAYOUT,
            AluKind::Op3(_) => &<Op3 as Fields>::LAYOUT,
        }
    }

    /// The table row of this opcode, if it has one.
    pub fn op_info(&self) -> Option<&'static AluOp> {
        match &self.kind {
            AluKind::Op2(o) => table::alu_op2(o.op),
            AluKind::Op3(o) => table::alu_op3(o.op),
        }
    }

    /// Mnemonic (`OP2_0x7A` / `OP3_0x05` for codes without a name).
    pub fn name(&self) -> String {
        match (&self.kind, self.op_info()) {
            (_, Some(i)) => i.name.to_string(),
            (AluKind::Op2(o), None) => format!("OP2_0x{:02X}", o.op),
            (AluKind::Op3(o), None) => format!("OP3_0x{:02X}", o.op),
        }
    }

    /// Number of sources the instruction reads (unknown opcodes: 2 for OP2, 3 for OP3).
    pub fn src_count(&self) -> usize {
        match (&self.kind, self.op_info()) {
            (_, Some(i)) => i.srcs as usize,
            (AluKind::Op2(_), None) => 2,
            (AluKind::Op3(_), None) => 3,
        }
    }

    /// The slot restriction of the opcode.
    pub fn slots(&self) -> Slots {
        self.op_info().map_or(Slots::Any, |i| i.slots)
    }

    /// Sources as a slice-like array (src2 is only meaningful for OP3).
    pub fn srcs(&self) -> [AluSrc; 3] {
        let s2 = match &self.kind {
            AluKind::Op3(o) => o.src2,
            AluKind::Op2(_) => AluSrc::default(),
        };
        [self.src0, self.src1, s2]
    }

    /// Whether the instruction writes its GPR (OP3 always writes).
    pub fn writes_gpr(&self) -> bool {
        match &self.kind {
            AluKind::Op2(o) => o.write_mask,
            AluKind::Op3(_) => true,
        }
    }
}

/// Assigns slots to the instructions of one group, in encoding order (§2.1): trans-only ops go
/// to t, vector-only ops to their DST_CHAN, other ops to DST_CHAN if free, else t. Slot 4 is t.
/// Returns `None` when two instructions need the same slot or there are more than five; entries
/// past the group's length are 0.
pub fn assign_slots(insts: &[AluInst]) -> Option<[u8; 5]> {
    let mut used = [false; 5];
    let mut out = [0u8; 5];
    if insts.len() > 5 {
        return None;
    }
    for (k, i) in insts.iter().enumerate() {
        let c = i.dst_chan as usize;
        let slot = match i.slots() {
            Slots::Trans => 4,
            Slots::Vector | Slots::Quad => c,
            Slots::Any => {
                if used[c] {
                    4
                } else {
                    c
                }
            }
        };
        if used[slot] {
            return None;
        }
        used[slot] = true;
        out[k] = slot as u8;
    }
    Some(out)
}

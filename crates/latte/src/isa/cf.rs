//! Control-flow instructions: the plain CF, CF_ALU and CF_ALLOC_EXPORT encodings
//! (latte-semantics-facts.md §1.2-§1.6).

use super::fields::{word_layout, Field, Fields, Prop, Style};
use super::names::COND;
use super::table::{self, CfClass, ExpClass};

/// CF_WORD0/CF_WORD1 (plain encoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CfNormal {
    /// CF_INST (7 bits, below 0x20).
    pub op: u8,
    /// ADDR in 64-bit units.
    pub addr: u32,
    /// POP_COUNT: stack entries to pop.
    pub pop_count: u8,
    /// CF_CONST: boolean or loop constant index.
    pub cf_const: u8,
    /// COND: 0 active, 1 always false, 2 CF_BOOL, 3 CF_NOT_BOOL.
    pub cond: u8,
    /// Fetch-clause count − 1, COUNT_3 included (4 bits).
    pub count: u8,
    /// CALL_COUNT (CALL only).
    pub call_count: u8,
    /// Word 1 bit 20 (reserved).
    pub reserved20: bool,
    /// END_OF_PROGRAM.
    pub end_of_program: bool,
    /// VALID_PIXEL_MODE: deactivate invalid (killed) pixels for this instruction.
    pub valid_pixel_mode: bool,
    /// WHOLE_QUAD_MODE: run whole quads.
    pub whole_quad_mode: bool,
    /// BARRIER: wait for earlier clauses to finish.
    pub barrier: bool,
}

/// One kcache set of a CF_ALU instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Kcache {
    /// Constant buffer (0-15).
    pub bank: u8,
    /// 0 NOP, 1 LOCK_1, 2 LOCK_2, 3 LOCK_LOOP_INDEX.
    pub mode: u8,
    /// Line index (16 constants per line).
    pub addr: u8,
}

/// CF_ALU_WORD0/1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CfAlu {
    /// CF_INST (4 bits, 8-15).
    pub op: u8,
    /// ADDR in 64-bit units (22 bits).
    pub addr: u32,
    /// The two kcache sets.
    pub kcache: [Kcache; 2],
    /// Slots − 1, literals included (7 bits).
    pub count: u8,
    /// Bit 25: ALT_CONST on R700 (decaf's USES_WATERFALL).
    pub alt_const: bool,
    /// WHOLE_QUAD_MODE: run whole quads.
    pub whole_quad_mode: bool,
    /// BARRIER: wait for earlier clauses to finish.
    pub barrier: bool,
}

/// CF_ALLOC_EXPORT_WORD0/1 (EXPORT and MEM_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CfExport {
    /// CF_INST (7 bits, 0x20-0x3F).
    pub op: u8,
    /// ARRAY_BASE: export target, or dword offset of a memory write.
    pub array_base: u16,
    /// EXPORT: 0 PIXEL, 1 POS, 2 PARAM. MEM: 0 WRITE, 1 WRITE_IND, 2 READ, 3 READ_IND.
    pub kind: u8,
    /// RW_GPR: first source register.
    pub rw_gpr: u8,
    /// RW_REL: source relative to the loop index.
    pub rw_rel: bool,
    /// INDEX_GPR: index register of *_IND memory writes.
    pub index_gpr: u8,
    /// ELEM_SIZE: dwords per element minus one.
    pub elem_size: u8,
    /// Word 1 bits 16:0: SEL_X..W (3 bits each) and reserved bits for EXPORT; ARRAY_SIZE (12
    /// bits), COMP_MASK (4 bits) and a reserved bit for MEM_*.
    pub low: u32,
    /// BURST_COUNT: exports of consecutive GPRs to consecutive targets, minus one.
    pub burst_count: u8,
    /// END_OF_PROGRAM.
    pub end_of_program: bool,
    /// VALID_PIXEL_MODE: deactivate invalid (killed) pixels for this instruction.
    pub valid_pixel_mode: bool,
    /// WHOLE_QUAD_MODE: run whole quads.
    pub whole_quad_mode: bool,
    /// BARRIER: wait for earlier clauses to finish.
    pub barrier: bool,
}

word_layout! { CfNormal = "cf" {
    addr: w0[31:0] => (addr),
    pop_count: w1[2:0] => (pop_count),
    cf_const: w1[7:3] => (cf_const),
    cond: w1[9:8] => (cond),
    count: w1[12:10] => (count),
    call_count: w1[18:13] => (call_count),
    count_3: w1[19:19] << 3 => (count),
    reserved20: w1[20:20] => (reserved20),
    end_of_program: w1[21:21] => (end_of_program),
    valid_pixel_mode: w1[22:22] => (valid_pixel_mode),
    op: w1[29:23] => (op),
    whole_quad_mode: w1[30:30] => (whole_quad_mode),
    barrier: w1[31:31] => (barrier),
} }

word_layout! { CfAlu = "cf_alu" {
    addr: w0[21:0] => (addr),
    kcache0_bank: w0[25:22] => (kcache[0].bank),
    kcache1_bank: w0[29:26] => (kcache[1].bank),
    kcache0_mode: w0[31:30] => (kcache[0].mode),
    kcache1_mode: w1[1:0] => (kcache[1].mode),
    kcache0_addr: w1[9:2] => (kcache[0].addr),
    kcache1_addr: w1[17:10] => (kcache[1].addr),
    count: w1[24:18] => (count),
    alt_const: w1[25:25] => (alt_const),
    op: w1[29:26] => (op),
    whole_quad_mode: w1[30:30] => (whole_quad_mode),
    barrier: w1[31:31] => (barrier),
} }

word_layout! { CfExport = "cf_alloc_export" {
    array_base: w0[12:0] => (array_base),
    kind: w0[14:13] => (kind),
    rw_gpr: w0[21:15] => (rw_gpr),
    rw_rel: w0[22:22] => (rw_rel),
    index_gpr: w0[29:23] => (index_gpr),
    elem_size: w0[31:30] => (elem_size),
    low: w1[16:0] => (low),
    burst_count: w1[20:17] => (burst_count),
    end_of_program: w1[21:21] => (end_of_program),
    valid_pixel_mode: w1[22:22] => (valid_pixel_mode),
    op: w1[29:23] => (op),
    whole_quad_mode: w1[30:30] => (whole_quad_mode),
    barrier: w1[31:31] => (barrier),
} }

/// Word 1 bits 16:0 of an EXPORT (SWIZ form): the four component selectors.
pub const EXPORT_SWIZ: [Field; 5] = [
    Field { name: "sel_x", word: 0, hi: 2, lo: 0, shift: 0 },
    Field { name: "sel_y", word: 0, hi: 5, lo: 3, shift: 0 },
    Field { name: "sel_z", word: 0, hi: 8, lo: 6, shift: 0 },
    Field { name: "sel_w", word: 0, hi: 11, lo: 9, shift: 0 },
    Field { name: "reserved", word: 0, hi: 16, lo: 12, shift: 0 },
];

/// Word 1 bits 16:0 of a MEM_* write (BUF form).
pub const MEM_BUF: [Field; 3] = [
    Field { name: "array_size", word: 0, hi: 11, lo: 0, shift: 0 },
    Field { name: "comp_mask", word: 0, hi: 15, lo: 12, shift: 0 },
    Field { name: "reserved", word: 0, hi: 16, lo: 16, shift: 0 },
];

/// Properties of a plain CF line, in print order.
pub static CF_PROPS: &[Prop] = &[
    Prop::num("POP_CNT", "pop_count"),
    Prop::num("CF_CONST", "cf_const"),
    Prop::num("CND", "cond").styled(Style::Named(&COND)).called("condition"),
    Prop::num("CALL_CNT", "call_count"),
    VALID_PIX,
    WHOLE_QUAD_MODE,
    NO_BARRIER,
];

/// Properties of a CF_ALU line after ADDR, CNT and KCACHE, in print order.
pub static CF_ALU_PROPS: &[Prop] =
    &[Prop::flag("USES_WATERFALL", "alt_const").or(&["ALT_CONST"]), WHOLE_QUAD_MODE, NO_BARRIER];

/// Properties of an EXPORT / MEM_* line after ARRAY_SIZE and COMP_MASK, in print order.
pub static CF_EXPORT_PROPS: &[Prop] = &[
    Prop::num("INDEX_GPR", "index_gpr"),
    Prop::num("ELEM_SIZE", "elem_size"),
    Prop::num("BURSTCNT", "burst_count"),
    VALID_PIX,
    WHOLE_QUAD_MODE,
    NO_BARRIER,
];

const VALID_PIX: Prop = Prop::flag("VALID_PIX", "valid_pixel_mode");
const WHOLE_QUAD_MODE: Prop = Prop::flag("WHOLE_QUAD_MODE", "whole_quad_mode").or(&["WHOLE_QUAD"]);
const NO_BARRIER: Prop = Prop::flag("NO_BARRIER", "barrier").styled(Style::NotFlag);

impl CfExport {
    /// SEL of component `i` (EXPORT form): 0-3 xyzw, 4 zero, 5 one, 7 masked.
    pub fn sel(&self, i: usize) -> u8 {
        EXPORT_SWIZ[i].get(&[self.low]) as u8
    }
    /// Sets the four component selectors (EXPORT form).
    pub fn set_sels(&mut self, s: [u8; 4]) {
        let mut w = [self.low];
        for (f, v) in EXPORT_SWIZ.iter().zip(s) {
            f.set(&mut w, v as u32);
        }
        self.low = w[0];
    }
    /// ARRAY_SIZE (MEM form).
    pub fn array_size(&self) -> u16 {
        MEM_BUF[0].get(&[self.low]) as u16
    }
    /// COMP_MASK (MEM form).
    pub fn comp_mask(&self) -> u8 {
        MEM_BUF[1].get(&[self.low]) as u8
    }
    /// Sets ARRAY_SIZE (MEM form).
    pub fn set_array_size(&mut self, v: u32) {
        let mut w = [self.low];
        MEM_BUF[0].set(&mut w, v);
        self.low = w[0];
    }
    /// Sets COMP_MASK (MEM form).
    pub fn set_comp_mask(&mut self, v: u32) {
        let mut w = [self.low];
        MEM_BUF[1].set(&mut w, v);
        self.low = w[0];
    }
    /// The reserved bits of `low`: bits 16:12 (export form) or bit 16 (memory form).
    pub fn reserved(&self) -> u32 {
        let f = if self.class() == ExpClass::Mem { &MEM_BUF[2] } else { &EXPORT_SWIZ[4] };
        f.get(&[self.low])
    }
    /// Which word-1 form the opcode uses (unknown opcodes print in the export form).
    pub fn class(&self) -> ExpClass {
        table::CF_EXP_OPS.iter().find(|o| o.0 == self.op).map_or(ExpClass::Export, |o| o.2)
    }
}

/// The CF_INST field common to the plain and export encodings (word 1 bits 29:23); 0x40 and up
/// is CF_ALU (bit 29 set), 0x20-0x3F CF_ALLOC_EXPORT.
const CF_INST: Field = Field { name: "cf_inst", word: 1, hi: 29, lo: 23, shift: 0 };

fn unpacked<T: Fields + Default>(w: &[u32]) -> T {
    let mut t = T::default();
    t.unpack(w);
    t
}

fn packed<T: Fields>(t: &T) -> (u32, u32) {
    let mut w = [0u32; 2];
    t.pack(&mut w);
    (w[0], w[1])
}

/// A decoded CF instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfInst {
    /// The plain CF encoding.
    Normal(CfNormal),
    /// An ALU clause / the CF_ALU encoding.
    Alu(CfAlu),
    /// The CF_ALLOC_EXPORT encoding.
    Export(CfExport),
}

impl CfInst {
    /// Decodes one 64-bit CF slot (§1.2: word1 bit 29 selects CF_ALU, then 0x20-0x3F export).
    pub fn decode(w0: u32, w1: u32) -> CfInst {
        let w = [w0, w1];
        match CF_INST.get(&w) {
            0x40.. => CfInst::Alu(unpacked(&w)),
            0x20.. => CfInst::Export(unpacked(&w)),
            _ => CfInst::Normal(unpacked(&w)),
        }
    }

    /// Encodes back to (word0, word1).
    pub fn encode(&self) -> (u32, u32) {
        match self {
            // Bit 29 (the top bit of CF_INST) marks the CF_ALU encoding.
            CfInst::Alu(a) => {
                let (w0, w1) = packed(a);
                (w0, w1 | 1 << CF_INST.hi)
            }
            CfInst::Export(e) => packed(e),
            CfInst::Normal(n) => packed(n),
        }
    }

    /// END_OF_PROGRAM set (CF_ALU has none).
    pub fn end_of_program(&self) -> bool {
        match self {
            CfInst::Normal(n) => n.end_of_program,
            CfInst::Export(e) => e.end_of_program,
            CfInst::Alu(_) => false,
        }
    }

    /// The mnemonic (`CF_0x1E`, `EXP_0x2B` for codes without a name).
    pub fn name(&self) -> String {
        match self {
            CfInst::Normal(n) => {
                table::cf_op(n.op).map_or_else(|| format!("CF_0x{:02X}", n.op), |o| o.name.to_string())
            }
            CfInst::Alu(a) => table::CF_ALU_OPS.iter().find(|o| o.0 == a.op).map_or("ALU", |o| o.1).to_string(),
            CfInst::Export(e) => table::CF_EXP_OPS
                .iter()
                .find(|o| o.0 == e.op)
                .map_or_else(|| format!("EXP_0x{:02X}", e.op), |o| o.1.to_string()),
        }
    }

    /// The clause this instruction runs, if any: (kind, address in 64-bit units, count).
    /// Count is instructions for fetch clauses and slots for ALU clauses.
    pub fn clause(&self) -> Option<(ClauseKind, u32, u32)> {
        match self {
            CfInst::Alu(a) => Some((ClauseKind::Alu, a.addr, a.count as u32 + 1)),
            CfInst::Normal(n) => match table::cf_op(n.op).map(|o| o.class) {
                Some(CfClass::Tex) => Some((ClauseKind::Tex, n.addr, n.count as u32 + 1)),
                Some(CfClass::Vtx) => Some((ClauseKind::Vtx, n.addr, n.count as u32 + 1)),
                _ => None,
            },
            CfInst::Export(_) => None,
        }
    }
}

/// The kind of a clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ClauseKind {
    /// An ALU clause / the CF_ALU encoding.
    Alu,
    /// A TEX clause / texture-fetch layout.
    Tex,
    /// A VTX clause / vertex-fetch layout.
    Vtx,
}

//! Control-flow instructions: the plain CF, CF_ALU and CF_ALLOC_EXPORT encodings
//! (latte-semantics-facts.md §1.2-§1.6).

use super::table::{self, CfClass, ExpClass};
use super::{bit, bits, flag, put};

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

impl CfExport {
    /// SEL of component `i` (EXPORT form): 0-3 xyzw, 4 zero, 5 one, 7 masked.
    pub fn sel(&self, i: usize) -> u8 {
        bits(self.low, 3 * i as u32, 3) as u8
    }
    /// ARRAY_SIZE (MEM form).
    pub fn array_size(&self) -> u16 {
        bits(self.low, 0, 12) as u16
    }
    /// COMP_MASK (MEM form).
    pub fn comp_mask(&self) -> u8 {
        bits(self.low, 12, 4) as u8
    }
    /// Which word-1 form the opcode uses (unknown opcodes print in the export form).
    pub fn class(&self) -> ExpClass {
        table::CF_EXP_OPS.iter().find(|o| o.0 == self.op).map_or(ExpClass::Export, |o| o.2)
    }
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
        let top = bits(w1, 23, 7);
        if top >= 0x40 {
            CfInst::Alu(CfAlu {
                op: bits(w1, 26, 4) as u8,
                addr: bits(w0, 0, 22),
                kcache: [
                    Kcache { bank: bits(w0, 22, 4) as u8, mode: bits(w0, 30, 2) as u8, addr: bits(w1, 2, 8) as u8 },
                    Kcache { bank: bits(w0, 26, 4) as u8, mode: bits(w1, 0, 2) as u8, addr: bits(w1, 10, 8) as u8 },
                ],
                count: bits(w1, 18, 7) as u8,
                alt_const: bit(w1, 25),
                whole_quad_mode: bit(w1, 30),
                barrier: bit(w1, 31),
            })
        } else if top >= 0x20 {
            CfInst::Export(CfExport {
                op: top as u8,
                array_base: bits(w0, 0, 13) as u16,
                kind: bits(w0, 13, 2) as u8,
                rw_gpr: bits(w0, 15, 7) as u8,
                rw_rel: bit(w0, 22),
                index_gpr: bits(w0, 23, 7) as u8,
                elem_size: bits(w0, 30, 2) as u8,
                low: bits(w1, 0, 17),
                burst_count: bits(w1, 17, 4) as u8,
                end_of_program: bit(w1, 21),
                valid_pixel_mode: bit(w1, 22),
                whole_quad_mode: bit(w1, 30),
                barrier: bit(w1, 31),
            })
        } else {
            CfInst::Normal(CfNormal {
                op: top as u8,
                addr: w0,
                pop_count: bits(w1, 0, 3) as u8,
                cf_const: bits(w1, 3, 5) as u8,
                cond: bits(w1, 8, 2) as u8,
                count: (bits(w1, 10, 3) | (bits(w1, 19, 1) << 3)) as u8,
                call_count: bits(w1, 13, 6) as u8,
                reserved20: bit(w1, 20),
                end_of_program: bit(w1, 21),
                valid_pixel_mode: bit(w1, 22),
                whole_quad_mode: bit(w1, 30),
                barrier: bit(w1, 31),
            })
        }
    }

    /// Encodes back to (word0, word1).
    pub fn encode(&self) -> (u32, u32) {
        match self {
            CfInst::Alu(a) => {
                let w0 = put(a.addr, 0, 22)
                    | put(a.kcache[0].bank as u32, 22, 4)
                    | put(a.kcache[1].bank as u32, 26, 4)
                    | put(a.kcache[0].mode as u32, 30, 2);
                let w1 = put(a.kcache[1].mode as u32, 0, 2)
                    | put(a.kcache[0].addr as u32, 2, 8)
                    | put(a.kcache[1].addr as u32, 10, 8)
                    | put(a.count as u32, 18, 7)
                    | flag(a.alt_const, 25)
                    | put(a.op as u32, 26, 4)
                    | flag(a.whole_quad_mode, 30)
                    | flag(a.barrier, 31);
                (w0, w1 | (1 << 29))
            }
            CfInst::Export(e) => {
                let w0 = put(e.array_base as u32, 0, 13)
                    | put(e.kind as u32, 13, 2)
                    | put(e.rw_gpr as u32, 15, 7)
                    | flag(e.rw_rel, 22)
                    | put(e.index_gpr as u32, 23, 7)
                    | put(e.elem_size as u32, 30, 2);
                let w1 = put(e.low, 0, 17)
                    | put(e.burst_count as u32, 17, 4)
                    | flag(e.end_of_program, 21)
                    | flag(e.valid_pixel_mode, 22)
                    | put(e.op as u32, 23, 7)
                    | flag(e.whole_quad_mode, 30)
                    | flag(e.barrier, 31);
                (w0, w1)
            }
            CfInst::Normal(n) => {
                let w1 = put(n.pop_count as u32, 0, 3)
                    | put(n.cf_const as u32, 3, 5)
                    | put(n.cond as u32, 8, 2)
                    | put(n.count as u32, 10, 3)
                    | put(n.call_count as u32, 13, 6)
                    | put((n.count >> 3) as u32, 19, 1)
                    | flag(n.reserved20, 20)
                    | flag(n.end_of_program, 21)
                    | flag(n.valid_pixel_mode, 22)
                    | put(n.op as u32, 23, 7)
                    | flag(n.whole_quad_mode, 30)
                    | flag(n.barrier, 31);
                (n.addr, w1)
            }
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

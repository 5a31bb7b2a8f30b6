//! The pre-decoded program: every instruction word decoded once, with its operand descriptor
//! resolved into swizzle tables, negation flags and a write mask, so the executor does no bit
//! fiddling per step.

use super::blocks::block_lengths;
use crate::isa::{
    AddrIndex, CmpOp, Condition, DstReg, Instruction, Opcode, OperandDescriptor, Operands, RelativeSource, SrcReg,
};

/// Program memory holds 4096 words (12-bit jump targets); longer programs are refused.
pub const MAX_CODE_WORDS: usize = 4096;
/// The operand descriptor table has 128 entries (7-bit DESC field).
pub const MAX_DESCRIPTORS: usize = 128;

/// Index of `o0` in the interpreter's register file (v0-v15, r0-r15 and c0-c95 are at their raw
/// source numbers 0x00-0x7F, the outputs after them).
pub(crate) const OUTPUT_BASE: u8 = 0x80;

/// Why a program cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    #[error("program has {0} instruction words; program memory holds {MAX_CODE_WORDS}")]
    TooLong(usize),
    #[error("operand descriptor table has {0} entries; the hardware holds {MAX_DESCRIPTORS}")]
    TooManyDescriptors(usize),
}

/// One source operand, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Src {
    /// Raw register number (0x00-0x7F), which is also its index in the register file.
    pub reg: u8,
    /// Address register to add: only kept for constant registers (on inputs and temporaries the
    /// index is ignored, 3dbrew "GPU/Shader Instruction Set" "Relative addressing").
    pub rel: AddrIndex,
    /// Source component read for each result component.
    pub swz: [u8; 4],
    pub neg: bool,
}

impl Src {
    fn new(reg: SrcReg, idx: AddrIndex, desc: OperandDescriptor, n: usize) -> Src {
        let raw = reg.raw();
        let sw = desc.swizzle(n);
        Src {
            reg: raw,
            rel: if matches!(reg, SrcReg::Const(_)) { idx } else { AddrIndex::None },
            swz: [0, 1, 2, 3].map(|i| sw.component(i) as u8),
            neg: desc.negate(n),
        }
    }

    fn plain(reg: SrcReg, desc: OperandDescriptor, n: usize) -> Src {
        Src::new(reg, AddrIndex::None, desc, n)
    }
}

/// A decoded instruction, ready to execute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Op {
    /// Formats 1, 1i and 1u but MOVA; `op` is the plain form (an inverted twin runs as it).
    Alu {
        op: Opcode,
        dst: u8,
        mask: u8,
        s1: Src,
        s2: Src,
    },
    Mad {
        dst: u8,
        mask: u8,
        s1: Src,
        s2: Src,
        s3: Src,
    },
    Mova {
        mask: u8,
        s1: Src,
    },
    Cmp {
        s1: Src,
        s2: Src,
        x: CmpOp,
        y: CmpOp,
    },
    Nop,
    End,
    Break,
    BreakC {
        cond: Condition,
    },
    Call {
        dst: u16,
        num: u8,
    },
    CallC {
        dst: u16,
        num: u8,
        cond: Condition,
    },
    CallU {
        dst: u16,
        num: u8,
        b: u8,
    },
    IfC {
        dst: u16,
        num: u8,
        cond: Condition,
    },
    IfU {
        dst: u16,
        num: u8,
        b: u8,
    },
    JmpC {
        dst: u16,
        cond: Condition,
    },
    /// JMPU; `invert` is NUM bit 0 (jump when the boolean is false).
    JmpU {
        dst: u16,
        b: u8,
        invert: bool,
    },
    Loop {
        dst: u16,
        i: u8,
    },
    Emit,
    SetEmit {
        vertex: u8,
        winding: bool,
        primitive: bool,
    },
    /// An instruction that cannot run: an unassigned opcode or a descriptor past the table.
    Invalid(Invalid),
}

/// Why an instruction cannot run (reported when it is reached, not at load: words after END may
/// be data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    UnknownOpcode(u8),
    MissingDescriptor(u8),
}

/// A program: instructions decoded once, descriptors resolved.
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) ops: Vec<Op>,
    words: Vec<u32>,
    pub(crate) usage: Usage,
    /// Per instruction, the instructions to the end of its straight-line block
    /// ([`super::blocks::block_lengths`]).
    pub(crate) blocks: Vec<u32>,
}

/// The lane-wise registers any instruction names (bit N = register N): the batched executor
/// loads only the inputs read, clears only the temporaries read and the outputs written, and
/// writes zero for the other outputs, which is what a full reset would leave there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    pub inputs: u16,
    pub temps: u16,
    pub outputs: u16,
}

impl Usage {
    fn of(ops: &[Op]) -> Usage {
        let mut u = Usage::default();
        let mut src = |s: &Src| match s.reg {
            0x00..=0x0F => u.inputs |= 1 << s.reg,
            0x10..=0x1F => u.temps |= 1 << (s.reg - 0x10),
            _ => {}
        };
        let mut dsts = Vec::new();
        for op in ops {
            match op {
                Op::Alu { dst, s1, s2, .. } => {
                    src(s1);
                    src(s2);
                    dsts.push(*dst);
                }
                Op::Mad { dst, s1, s2, s3, .. } => {
                    src(s1);
                    src(s2);
                    src(s3);
                    dsts.push(*dst);
                }
                Op::Mova { s1, .. } => src(s1),
                Op::Cmp { s1, s2, .. } => {
                    src(s1);
                    src(s2);
                }
                _ => {}
            }
        }
        for d in dsts {
            if d >= OUTPUT_BASE {
                u.outputs |= 1 << (d - OUTPUT_BASE);
            }
        }
        u
    }
}

fn dst_index(dst: DstReg) -> u8 {
    match dst {
        DstReg::Output(i) => OUTPUT_BASE + i,
        DstReg::Temp(i) => 0x10 + i,
    }
}

impl Program {
    /// Decodes `code` (instruction words) against `descriptors` (operand descriptor words; the
    /// low 32 bits of each 8-byte SHBIN entry).
    ///
    /// # Errors
    /// When `code` is longer than program memory or `descriptors` than the descriptor table.
    pub fn new(code: &[u32], descriptors: &[u32]) -> Result<Program, ProgramError> {
        if code.len() > MAX_CODE_WORDS {
            return Err(ProgramError::TooLong(code.len()));
        }
        if descriptors.len() > MAX_DESCRIPTORS {
            return Err(ProgramError::TooManyDescriptors(descriptors.len()));
        }
        let ops: Vec<Op> = code.iter().map(|&w| decode(Instruction::decode(w), descriptors)).collect();
        let usage = Usage::of(&ops);
        let blocks = block_lengths(&ops);
        Ok(Program { ops, words: code.to_vec(), usage, blocks })
    }

    /// The number of instruction words.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// The instruction word at `pc`.
    pub fn word(&self, pc: usize) -> Option<u32> {
        self.words.get(pc).copied()
    }
}

fn decode(inst: Instruction, descriptors: &[u32]) -> Op {
    let desc = |d: u8| descriptors.get(d as usize).map(|&w| OperandDescriptor(w));
    let rel = inst.relative_source();
    match (inst.opcode, inst.operands) {
        (Opcode::Unknown(b), _) => Op::Invalid(Invalid::UnknownOpcode(b)),
        (Opcode::Mova, Operands::Arith { src1, idx, desc: d, .. }) => match desc(d) {
            Some(od) => Op::Mova { mask: od.dest_mask(), s1: Src::new(src1, idx, od, 1) },
            None => Op::Invalid(Invalid::MissingDescriptor(d)),
        },
        (op, Operands::Arith { dst, src1, src2, idx, desc: d }) => {
            let Some(od) = desc(d) else { return Op::Invalid(Invalid::MissingDescriptor(d)) };
            // Format 1i puts the index on SRC2 (3dbrew "GPU/Shader Instruction Set" "Format 1i").
            let (s1, s2) = if rel == Some(RelativeSource::Src2) {
                (Src::plain(src1, od, 1), Src::new(src2, idx, od, 2))
            } else {
                (Src::new(src1, idx, od, 1), Src::plain(src2, od, 2))
            };
            Op::Alu { op: op.plain(), dst: dst_index(dst), mask: od.dest_mask(), s1, s2 }
        }
        (Opcode::Cmp, Operands::Cmp { src1, src2, idx, cmp_x, cmp_y, desc: d }) => match desc(d) {
            Some(od) => Op::Cmp { s1: Src::new(src1, idx, od, 1), s2: Src::plain(src2, od, 2), x: cmp_x, y: cmp_y },
            None => Op::Invalid(Invalid::MissingDescriptor(d)),
        },
        (_, Operands::Mad { dst, src1, src2, src3, idx, desc: d }) => {
            let Some(od) = desc(d) else { return Op::Invalid(Invalid::MissingDescriptor(d)) };
            // MAD indexes SRC2 (format 5), MADI indexes SRC3 (format 5i).
            let (s2, s3) = if rel == Some(RelativeSource::Src3) {
                (Src::plain(src2, od, 2), Src::new(src3, idx, od, 3))
            } else {
                (Src::new(src2, idx, od, 2), Src::plain(src3, od, 3))
            };
            Op::Mad { dst: dst_index(dst), mask: od.dest_mask(), s1: Src::plain(src1, od, 1), s2, s3 }
        }
        (Opcode::Nop, _) => Op::Nop,
        (Opcode::End, _) => Op::End,
        (Opcode::Break, _) => Op::Break,
        (Opcode::Emit, _) => Op::Emit,
        (Opcode::Breakc, Operands::Flow { cond, .. }) => Op::BreakC { cond },
        (Opcode::Call, Operands::Flow { dst, num, .. }) => Op::Call { dst, num },
        (Opcode::Callc, Operands::Flow { dst, num, cond }) => Op::CallC { dst, num, cond },
        (Opcode::Ifc, Operands::Flow { dst, num, cond }) => Op::IfC { dst, num, cond },
        (Opcode::Jmpc, Operands::Flow { dst, cond, .. }) => Op::JmpC { dst, cond },
        (Opcode::Callu, Operands::Uniform { dst, num, id }) => Op::CallU { dst, num, b: id },
        (Opcode::Ifu, Operands::Uniform { dst, num, id }) => Op::IfU { dst, num, b: id },
        (Opcode::Jmpu, Operands::Uniform { dst, num, id }) => Op::JmpU { dst, b: id, invert: num & 1 != 0 },
        // LOOP's 4-bit id names an integer uniform; only i0-i3 exist, so the top bits are dropped.
        (Opcode::Loop, Operands::Uniform { dst, id, .. }) => Op::Loop { dst, i: id & 3 },
        (Opcode::Setemit, Operands::SetEmit { vertex, winding, primitive }) => {
            Op::SetEmit { vertex, winding, primitive }
        }
        (op, _) => Op::Invalid(Invalid::UnknownOpcode(op.first_bits6())),
    }
}

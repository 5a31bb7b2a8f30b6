//! A small program builder: instructions plus a deduplicated operand descriptor table, encoded
//! with [`Instruction::encode`]. Used by the generator and by tests that write programs by hand.

use crate::isa::{
    AddrIndex, CmpOp, Condition, DstReg, EncodeError, Instruction, Opcode, OperandDescriptor, Operands, SrcReg,
};

/// Builds a program instruction by instruction.
#[derive(Clone, Debug, Default)]
pub struct Builder {
    code: Vec<Instruction>,
    descriptors: Vec<OperandDescriptor>,
}

/// A finished program: instruction words and descriptor words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    pub instructions: Vec<Instruction>,
    pub descriptors: Vec<OperandDescriptor>,
    pub code: Vec<u32>,
    pub descriptor_words: Vec<u32>,
}

impl Builder {
    pub fn new() -> Builder {
        Builder::default()
    }

    /// The index the next instruction gets.
    pub fn here(&self) -> u16 {
        self.code.len() as u16
    }

    /// The descriptor table index of `d`, adding it if new. Past 128 distinct descriptors the
    /// index keeps growing and [`Builder::finish`] fails.
    pub fn desc(&mut self, d: OperandDescriptor) -> u8 {
        match self.descriptors.iter().position(|&x| x == d) {
            Some(i) => i as u8,
            None => {
                self.descriptors.push(d);
                (self.descriptors.len() - 1).min(255) as u8
            }
        }
    }

    /// Replaces the descriptor table as it is (no deduplication): for instructions that already
    /// hold indices into it.
    pub fn set_descriptors(&mut self, table: Vec<OperandDescriptor>) {
        self.descriptors = table;
    }

    /// Appends an instruction; returns its index.
    pub fn push(&mut self, i: Instruction) -> u16 {
        self.code.push(i);
        self.code.len() as u16 - 1
    }

    /// Replaces the operands of instruction `at` (to fill in forward branch targets).
    pub fn patch(&mut self, at: u16, operands: Operands) {
        self.code[at as usize].operands = operands;
    }

    /// The instruction at `at`.
    pub fn get(&self, at: u16) -> Instruction {
        self.code[at as usize]
    }

    /// A format 1 / 1i / 1u instruction. For 1i forms (`dphi`, `dsti`, `sgei`, `slti`) `idx`
    /// applies to `src2`, otherwise to `src1`.
    pub fn alu(
        &mut self,
        op: Opcode,
        dst: DstReg,
        src1: SrcReg,
        src2: SrcReg,
        idx: AddrIndex,
        d: OperandDescriptor,
    ) -> u16 {
        let desc = self.desc(d);
        self.push(Instruction { opcode: op, operands: Operands::Arith { dst, src1, src2, idx, desc }, extra: 0 })
    }

    /// A unary instruction (format 1u); the unused SRC2 field is 0.
    pub fn unary(&mut self, op: Opcode, dst: DstReg, src1: SrcReg, idx: AddrIndex, d: OperandDescriptor) -> u16 {
        self.alu(op, dst, src1, SrcReg::Input(0), idx, d)
    }

    /// MAD (idx on src2) or MADI (idx on src3).
    #[allow(clippy::too_many_arguments)]
    pub fn mad(
        &mut self,
        op: Opcode,
        dst: DstReg,
        src1: SrcReg,
        src2: SrcReg,
        src3: SrcReg,
        idx: AddrIndex,
        d: OperandDescriptor,
    ) -> u16 {
        let desc = self.desc(d);
        self.push(Instruction { opcode: op, operands: Operands::Mad { dst, src1, src2, src3, idx, desc }, extra: 0 })
    }

    /// CMP.
    pub fn cmp(
        &mut self,
        src1: SrcReg,
        src2: SrcReg,
        idx: AddrIndex,
        cmp_x: CmpOp,
        cmp_y: CmpOp,
        d: OperandDescriptor,
    ) -> u16 {
        let desc = self.desc(d);
        self.push(Instruction {
            opcode: Opcode::Cmp,
            operands: Operands::Cmp { src1, src2, idx, cmp_x, cmp_y, desc },
            extra: 0,
        })
    }

    /// A format 2 instruction (BREAKC, CALL, CALLC, IFC, JMPC).
    pub fn flow(&mut self, op: Opcode, dst: u16, num: u8, cond: Condition) -> u16 {
        self.push(Instruction { opcode: op, operands: Operands::Flow { dst, num, cond }, extra: 0 })
    }

    /// A format 3 instruction (CALLU, IFU, JMPU, LOOP).
    pub fn uniform(&mut self, op: Opcode, dst: u16, num: u8, id: u8) -> u16 {
        self.push(Instruction { opcode: op, operands: Operands::Uniform { dst, num, id }, extra: 0 })
    }

    /// SETEMIT.
    pub fn setemit(&mut self, vertex: u8, winding: bool, primitive: bool) -> u16 {
        self.push(Instruction {
            opcode: Opcode::Setemit,
            operands: Operands::SetEmit { vertex, winding, primitive },
            extra: 0,
        })
    }

    /// An instruction without operands (NOP, END, BREAK, EMIT).
    pub fn plain(&mut self, op: Opcode) -> u16 {
        self.push(Instruction { opcode: op, operands: Operands::None, extra: 0 })
    }

    /// Encodes the program.
    ///
    /// # Errors
    /// An instruction that does not encode ([`EncodeError`]), e.g. more than 128 descriptors
    /// (reported as a descriptor out of range).
    pub fn finish(&self) -> Result<Built, EncodeError> {
        let code = self.code.iter().map(|i| i.encode()).collect::<Result<Vec<_>, _>>()?;
        Ok(Built {
            instructions: self.code.clone(),
            descriptors: self.descriptors.clone(),
            code,
            descriptor_words: self.descriptors.iter().map(|d| d.0).collect(),
        })
    }
}

/// A descriptor writing `mask` with identity swizzles and no negation.
pub fn plain_desc(mask: u8) -> OperandDescriptor {
    OperandDescriptor::new(mask, &[])
}

//! PICA200 instruction decode and encode (specs/pica200-shader-isa.md).
//!
//! `decode` never fails: unassigned opcodes become `Opcode::Unknown` with the whole word kept, and
//! bits that no field of a format covers are kept in `Instruction::extra`, so
//! `decode(w).encode() == Ok(w)` for every 32-bit word.

mod opcodes;
mod operands;

pub use opcodes::{Format, Opcode};
pub use operands::{mask_name, AddrIndex, CmpOp, CondOp, Condition, DstReg, OperandDescriptor, SrcReg, Swizzle};

/// The operands of an instruction, by format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operands {
    /// Formats 1, 1i and 1u. In format 1u `src2` is the raw content of the unused SRC2 bits
    /// (always 5 bits wide) and means nothing.
    Arith { dst: DstReg, src1: SrcReg, src2: SrcReg, idx: AddrIndex, desc: u8 },
    /// Format 1c (CMP).
    Cmp { src1: SrcReg, src2: SrcReg, idx: AddrIndex, cmp_x: CmpOp, cmp_y: CmpOp, desc: u8 },
    /// Formats 5 and 5i (MAD, MADI); `desc` has 5 bits.
    Mad { dst: DstReg, src1: SrcReg, src2: SrcReg, src3: SrcReg, idx: AddrIndex, desc: u8 },
    /// Format 2: `num` instructions at `dst`, on a condition (unused by CALL but kept).
    Flow { dst: u16, num: u8, cond: Condition },
    /// Format 3: `num` instructions at `dst`, on boolean (IFU, CALLU, JMPU) or integer (LOOP)
    /// uniform `id`.
    Uniform { dst: u16, num: u8, id: u8 },
    /// Format 4 (SETEMIT).
    SetEmit { vertex: u8, winding: bool, primitive: bool },
    /// Format 0, and unknown opcodes (their bits are all in `extra`).
    None,
}

/// Which source register an `idx` field offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelativeSource {
    Src1,
    Src2,
    Src3,
}

/// A decoded instruction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    pub opcode: Opcode,
    pub operands: Operands,
    /// Bits of the word that no field of its format covers (already in place), kept so that
    /// encoding gives back the decoded word.
    pub extra: u32,
}

/// Why an instruction cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("{opcode}: {what} must be an input or temporary register (v0-v15, r0-r15), got {reg}")]
    NarrowSource { opcode: &'static str, what: &'static str, reg: SrcReg },
    #[error("{opcode}: operand descriptor {desc} out of range (max {max})")]
    Descriptor { opcode: &'static str, desc: u8, max: u8 },
    #[error("{opcode}: {what} {value} out of range (max {max})")]
    Field { opcode: &'static str, what: &'static str, value: u32, max: u32 },
    #[error("{opcode}: operands of the wrong kind for its format")]
    WrongOperands { opcode: &'static str },
}

fn bits(word: u32, lo: u32, len: u32) -> u32 {
    (word >> lo) & ((1 << len) - 1)
}

/// Mask of the bits a format's fields cover (opcode included).
fn covered(format: Option<Format>) -> u32 {
    match format {
        Some(Format::F1 | Format::F1i | Format::F1u | Format::F1c | Format::F5 | Format::F5i) => !0,
        Some(Format::F2 | Format::F3) => !0x300,
        Some(Format::F4) => 0xFFC0_0000,
        Some(Format::F0) | None => 0xFC00_0000,
    }
}

impl Instruction {
    /// Decodes one instruction word. Never fails.
    ///
    /// ```
    /// use pica::isa::{Instruction, Opcode};
    /// assert_eq!(Instruction::decode(0x8800_0000).opcode, Opcode::End);
    /// ```
    pub fn decode(word: u32) -> Instruction {
        let opcode = Opcode::from_bits6((word >> 26) as u8);
        let format = opcode.format();
        let extra = word & !covered(format);
        let src = |lo, len| SrcReg::from_raw(bits(word, lo, len) as u8);
        let dst = |lo| DstReg::from_raw(bits(word, lo, 5) as u8);
        let idx = |lo| AddrIndex::from_raw(bits(word, lo, 2) as u8);
        let operands = match format {
            Some(Format::F1 | Format::F1u) => Operands::Arith {
                dst: dst(21),
                src1: src(12, 7),
                src2: src(7, 5),
                idx: idx(19),
                desc: bits(word, 0, 7) as u8,
            },
            Some(Format::F1i) => Operands::Arith {
                dst: dst(21),
                src1: src(14, 5),
                src2: src(7, 7),
                idx: idx(19),
                desc: bits(word, 0, 7) as u8,
            },
            Some(Format::F1c) => Operands::Cmp {
                src1: src(12, 7),
                src2: src(7, 5),
                idx: idx(19),
                cmp_y: CmpOp::from_raw(bits(word, 21, 3) as u8),
                cmp_x: CmpOp::from_raw(bits(word, 24, 3) as u8),
                desc: bits(word, 0, 7) as u8,
            },
            Some(Format::F5) => Operands::Mad {
                dst: dst(24),
                src1: src(17, 5),
                src2: src(10, 7),
                src3: src(5, 5),
                idx: idx(22),
                desc: bits(word, 0, 5) as u8,
            },
            Some(Format::F5i) => Operands::Mad {
                dst: dst(24),
                src1: src(17, 5),
                src2: src(12, 5),
                src3: src(5, 7),
                idx: idx(22),
                desc: bits(word, 0, 5) as u8,
            },
            Some(Format::F2) => Operands::Flow {
                num: bits(word, 0, 8) as u8,
                dst: bits(word, 10, 12) as u16,
                cond: Condition {
                    op: CondOp::from_raw(bits(word, 22, 2) as u8),
                    refy: bits(word, 24, 1) != 0,
                    refx: bits(word, 25, 1) != 0,
                },
            },
            Some(Format::F3) => Operands::Uniform {
                num: bits(word, 0, 8) as u8,
                dst: bits(word, 10, 12) as u16,
                id: bits(word, 22, 4) as u8,
            },
            Some(Format::F4) => Operands::SetEmit {
                winding: bits(word, 22, 1) != 0,
                primitive: bits(word, 23, 1) != 0,
                vertex: bits(word, 24, 2) as u8,
            },
            Some(Format::F0) | None => Operands::None,
        };
        // The low opcode bits of CMP/MAD/MADI ranges are operand fields, decoded above.
        Instruction { opcode, operands, extra }
    }

    /// Encodes the instruction; the inverse of [`Instruction::decode`].
    ///
    /// # Errors
    /// When a field does not fit its format: a constant register in a 5-bit source field, a
    /// descriptor index past the format's width, a target past 12 bits, or operands of another
    /// format's kind.
    pub fn encode(&self) -> Result<u32, EncodeError> {
        let name = self.opcode.mnemonic().unwrap_or("unknown");
        let format = self.opcode.format();
        let op_bits = (self.opcode.first_bits6() as u32) << 26;
        let narrow = |what, reg: SrcReg| {
            if reg.fits_narrow() {
                Ok(reg.raw() as u32)
            } else {
                Err(EncodeError::NarrowSource { opcode: name, what, reg })
            }
        };
        let desc_check = |desc: u8, max: u8| {
            if desc <= max {
                Ok(desc as u32)
            } else {
                Err(EncodeError::Descriptor { opcode: name, desc, max })
            }
        };
        let target = |value: u16| {
            if value < 0x1000 {
                Ok((value as u32) << 10)
            } else {
                Err(EncodeError::Field { opcode: name, what: "target", value: value as u32, max: 0xFFF })
            }
        };
        let fields = match (format, self.operands) {
            (Some(Format::F1 | Format::F1u), Operands::Arith { dst, src1, src2, idx, desc }) => {
                (dst.raw() as u32) << 21
                    | (idx.raw() as u32) << 19
                    | (src1.raw() as u32) << 12
                    | narrow("src2", src2)? << 7
                    | desc_check(desc, 0x7F)?
            }
            (Some(Format::F1i), Operands::Arith { dst, src1, src2, idx, desc }) => {
                (dst.raw() as u32) << 21
                    | (idx.raw() as u32) << 19
                    | narrow("src1", src1)? << 14
                    | (src2.raw() as u32) << 7
                    | desc_check(desc, 0x7F)?
            }
            (Some(Format::F1c), Operands::Cmp { src1, src2, idx, cmp_x, cmp_y, desc }) => {
                (cmp_x.raw() as u32) << 24
                    | (cmp_y.raw() as u32) << 21
                    | (idx.raw() as u32) << 19
                    | (src1.raw() as u32) << 12
                    | narrow("src2", src2)? << 7
                    | desc_check(desc, 0x7F)?
            }
            (Some(Format::F5), Operands::Mad { dst, src1, src2, src3, idx, desc }) => {
                (dst.raw() as u32) << 24
                    | (idx.raw() as u32) << 22
                    | narrow("src1", src1)? << 17
                    | (src2.raw() as u32) << 10
                    | narrow("src3", src3)? << 5
                    | desc_check(desc, 0x1F)?
            }
            (Some(Format::F5i), Operands::Mad { dst, src1, src2, src3, idx, desc }) => {
                (dst.raw() as u32) << 24
                    | (idx.raw() as u32) << 22
                    | narrow("src1", src1)? << 17
                    | narrow("src2", src2)? << 12
                    | (src3.raw() as u32) << 5
                    | desc_check(desc, 0x1F)?
            }
            (Some(Format::F2), Operands::Flow { dst, num, cond }) => {
                (cond.refx as u32) << 25
                    | (cond.refy as u32) << 24
                    | (cond.op.raw() as u32) << 22
                    | target(dst)?
                    | num as u32
            }
            (Some(Format::F3), Operands::Uniform { dst, num, id }) => {
                if id > 15 {
                    return Err(EncodeError::Field { opcode: name, what: "uniform id", value: id as u32, max: 15 });
                }
                (id as u32) << 22 | target(dst)? | num as u32
            }
            (Some(Format::F4), Operands::SetEmit { vertex, winding, primitive }) => {
                if vertex > 3 {
                    return Err(EncodeError::Field { opcode: name, what: "vertex id", value: vertex as u32, max: 3 });
                }
                (vertex as u32) << 24 | (primitive as u32) << 23 | (winding as u32) << 22
            }
            (Some(Format::F0) | None, Operands::None) => 0,
            _ => return Err(EncodeError::WrongOperands { opcode: name }),
        };
        Ok(op_bits | fields | (self.extra & !covered(format)))
    }

    /// The source that the `idx` field offsets, for formats that have one.
    pub fn relative_source(&self) -> Option<RelativeSource> {
        match self.opcode.format()? {
            Format::F1 | Format::F1u | Format::F1c => Some(RelativeSource::Src1),
            Format::F1i | Format::F5 => Some(RelativeSource::Src2),
            Format::F5i => Some(RelativeSource::Src3),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn decodes_known_words() {
        // end
        assert_eq!(Instruction::decode(0x8800_0000).opcode, Opcode::End);
        // mad r0, v0, c1, r2 (format 5)
        let word = (0x38u32 << 26 | 0x10 << 24) | 0x21 << 10 | 0x12 << 5 | 3;
        let i = Instruction::decode(word);
        assert_eq!(
            i.operands,
            Operands::Mad {
                dst: DstReg::Temp(0),
                src1: SrcReg::Input(0),
                src2: SrcReg::Const(1),
                src3: SrcReg::Temp(2),
                idx: AddrIndex::None,
                desc: 3
            }
        );
    }

    #[test]
    fn narrow_fields_reject_constants() {
        let i = Instruction {
            opcode: Opcode::Add,
            operands: Operands::Arith {
                dst: DstReg::Temp(0),
                src1: SrcReg::Const(0),
                src2: SrcReg::Const(1),
                idx: AddrIndex::None,
                desc: 0,
            },
            extra: 0,
        };
        assert!(matches!(i.encode(), Err(EncodeError::NarrowSource { .. })));
    }

    proptest! {
        /// Every word of every format decodes and encodes back to itself.
        #[test]
        fn decode_encode_is_identity(word in any::<u32>()) {
            prop_assert_eq!(Instruction::decode(word).encode(), Ok(word));
        }

        /// The same, with the opcode drawn from each format so every format is hit evenly.
        #[test]
        fn identity_per_opcode(op in 0u32..64, rest in 0u32..(1 << 26)) {
            let word = op << 26 | rest;
            prop_assert_eq!(Instruction::decode(word).encode(), Ok(word));
        }
    }
}

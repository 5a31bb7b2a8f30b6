//! PICA200 instruction decode and encode (3dbrew "GPU/Shader Instruction Set").
//!
//! `decode` never fails: unassigned opcodes become `Opcode::Unknown` with the whole word kept, and
//! bits that no field of a format covers are kept in `Instruction::extra`, so
//! `decode(w).encode() == Ok(w)` for every 32-bit word.

mod fields;
mod opcodes;
mod operands;

use fields::instruction_formats;
pub use fields::Field;

pub use opcodes::{DescUse, Flow, Format, Opcode, Output};
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

// One line per format, from the most significant field; every bit of an instruction word is
// placed here and nowhere else (3dbrew "GPU/Shader Instruction Set" "Instruction formats").
instruction_formats! {
    F1 | F1u => Arith rel Src1 { dst: DstReg = [25:21], idx: AddrIndex = [20:19], src1: SrcReg = [18:12], src2: SrcReg = [11:7], desc: u8 = [6:0] }
    F1i => Arith rel Src2 { dst: DstReg = [25:21], idx: AddrIndex = [20:19], src1: SrcReg = [18:14], src2: SrcReg = [13:7], desc: u8 = [6:0] }
    F1c => Cmp rel Src1 { cmp_x: CmpOp = [26:24], cmp_y: CmpOp = [23:21], idx: AddrIndex = [20:19], src1: SrcReg = [18:12], src2: SrcReg = [11:7], desc: u8 = [6:0] }
    F5 => Mad rel Src2 { dst: DstReg = [28:24], idx: AddrIndex = [23:22], src1: SrcReg = [21:17], src2: SrcReg = [16:10], src3: SrcReg = [9:5], desc: u8 = [4:0] }
    F5i => Mad rel Src3 { dst: DstReg = [28:24], idx: AddrIndex = [23:22], src1: SrcReg = [21:17], src2: SrcReg = [16:12], src3: SrcReg = [11:5], desc: u8 = [4:0] }
    F2 => Flow rel none { cond: Condition = [25:22], dst: u16 = [21:10] "target", num: u8 = [7:0] }
    F3 => Uniform rel none { id: u8 = [25:22] "uniform id", dst: u16 = [21:10] "target", num: u8 = [7:0] }
    F4 => SetEmit rel none { vertex: u8 = [25:24] "vertex id", primitive: bool = [23:23], winding: bool = [22:22] }
    F0 => None rel none {}
}

/// The opcode field: the top six bits (an opcode spanning a range owns fewer; the low bits of
/// its range are operand bits, which its format's fields cover).
const OPCODE_BITS: u32 = 0xFC00_0000;

/// Mask of the bits a format's fields cover (opcode included).
fn covered(format: Option<Format>) -> u32 {
    format.map_or(&[][..], Format::fields).iter().fold(OPCODE_BITS, |m, f| m | f.mask())
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
        // The low opcode bits of CMP/MAD/MADI ranges are operand fields, decoded here.
        let operands = format.map_or(Operands::None, |f| decode_operands(f, word));
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
        let fields = match (format, self.operands) {
            (Some(f), operands) => encode_operands(f, operands, name)?,
            (None, Operands::None) => 0,
            (None, _) => return Err(EncodeError::WrongOperands { opcode: name }),
        };
        Ok(op_bits | fields | (self.extra & !covered(format)))
    }

    /// The source that the `idx` field offsets, for formats that have one.
    pub fn relative_source(&self) -> Option<RelativeSource> {
        self.opcode.relative_source()
    }

    /// Every field of `word` in its format's table, by name, with its raw value (the opcode
    /// first, `extra` last when bits outside every field are set).
    ///
    /// ```
    /// use pica::isa::Instruction;
    /// let fields = Instruction::raw_fields(0x4C00_0400 | 5);
    /// assert_eq!(fields[0], ("opcode", 0x13));
    /// assert!(fields.contains(&("src1", 0)) && fields.contains(&("desc", 5)));
    /// ```
    pub fn raw_fields(word: u32) -> Vec<(&'static str, u32)> {
        let format = Opcode::from_bits6((word >> 26) as u8).format();
        let mut out = vec![("opcode", word >> 26)];
        out.extend(format.map_or(&[][..], Format::fields).iter().map(|f| (f.name, f.get(word))));
        let extra = word & !covered(format);
        if extra != 0 {
            out.push(("extra", extra));
        }
        out
    }
}

#[cfg(test)]
// Words are written field by field, zero fields included.
#[allow(clippy::identity_op)]
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

    #[test]
    fn field_tables_cover_what_the_formats_define() {
        use Format::*;
        for (format, mask) in [
            (F1, !0),
            (F1i, !0),
            (F1u, !0),
            (F1c, !0),
            (F5, !0),
            (F5i, !0),
            (F2, !0x300),
            (F3, !0x300),
            (F4, 0xFFC0_0000),
            (F0, 0xFC00_0000),
        ] {
            assert_eq!(covered(Some(format)), mask, "{format:?}");
            // No two fields share a bit, and none reaches into the opcode beyond its range.
            let fields = format.fields();
            for (i, a) in fields.iter().enumerate() {
                assert!(a.hi < 29 && a.lo <= a.hi, "{format:?} {}", a.name);
                for b in &fields[i + 1..] {
                    assert_eq!(a.mask() & b.mask(), 0, "{format:?}: {} and {} overlap", a.name, b.name);
                }
            }
        }
    }

    #[test]
    fn fields_sit_where_the_isa_page_puts_them() {
        // cmp src1=c2 (0x22), src2=r1 (0x11), idx=a0.y, cmp_x=gt, cmp_y=le, desc 9
        let word = 0x2Eu32 << 26 | 4 << 24 | 3 << 21 | 2 << 19 | 0x22 << 12 | 0x11 << 7 | 9;
        assert_eq!(
            Instruction::decode(word).operands,
            Operands::Cmp {
                src1: SrcReg::Const(2),
                src2: SrcReg::Temp(1),
                idx: AddrIndex::A0y,
                cmp_x: CmpOp::Gt,
                cmp_y: CmpOp::Le,
                desc: 9
            }
        );
        // dphi r3, v1, c5[aL] (format 1i)
        let word = 0x18u32 << 26 | 0x13 << 21 | 3 << 19 | 0x01 << 14 | 0x25 << 7 | 2;
        assert_eq!(
            Instruction::decode(word).operands,
            Operands::Arith {
                dst: DstReg::Temp(3),
                src1: SrcReg::Input(1),
                src2: SrcReg::Const(5),
                idx: AddrIndex::AL,
                desc: 2
            }
        );
        // ifc !cmp.x && cmp.y, dst 0x123, num 7 (format 2)
        let word = 0x28u32 << 26 | 0 << 25 | 1 << 24 | 1 << 22 | 0x123 << 10 | 7;
        assert_eq!(
            Instruction::decode(word).operands,
            Operands::Flow { dst: 0x123, num: 7, cond: Condition { op: CondOp::And, refx: false, refy: true } }
        );
        // setemit 2, prim (format 4)
        let word = 0x2Bu32 << 26 | 2 << 24 | 1 << 23;
        assert_eq!(
            Instruction::decode(word).operands,
            Operands::SetEmit { vertex: 2, winding: false, primitive: true }
        );
        // madi r0, v0, r1, c3 (format 5i)
        let word = 0x30u32 << 26 | 0x10 << 24 | 0x11 << 12 | 0x23 << 5 | 4;
        assert_eq!(
            Instruction::decode(word).operands,
            Operands::Mad {
                dst: DstReg::Temp(0),
                src1: SrcReg::Input(0),
                src2: SrcReg::Temp(1),
                src3: SrcReg::Const(3),
                idx: AddrIndex::None,
                desc: 4
            }
        );
    }

    #[test]
    fn out_of_range_fields_are_refused() {
        let flow = |dst| Instruction {
            opcode: Opcode::Jmpc,
            operands: Operands::Flow { dst, num: 0, cond: Condition { op: CondOp::Or, refx: false, refy: false } },
            extra: 0,
        };
        assert_eq!(flow(0xFFF).encode(), Ok(0x2Cu32 << 26 | 0xFFF << 10));
        assert_eq!(
            flow(0x1000).encode(),
            Err(EncodeError::Field { opcode: "jmpc", what: "target", value: 0x1000, max: 0xFFF })
        );
        let mad = Instruction {
            opcode: Opcode::Mad,
            operands: Operands::Mad {
                dst: DstReg::Temp(0),
                src1: SrcReg::Input(0),
                src2: SrcReg::Const(1),
                src3: SrcReg::Temp(2),
                idx: AddrIndex::None,
                desc: 32,
            },
            extra: 0,
        };
        assert_eq!(mad.encode(), Err(EncodeError::Descriptor { opcode: "mad", desc: 32, max: 31 }));
        let uniform =
            Instruction { opcode: Opcode::Ifu, operands: Operands::Uniform { dst: 0, num: 0, id: 16 }, extra: 0 };
        assert!(matches!(uniform.encode(), Err(EncodeError::Field { what: "uniform id", max: 15, .. })));
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

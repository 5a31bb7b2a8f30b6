//! The one table of PICA200 opcodes (specs/pica200-shader-isa.md "Instructions").
//!
//! Every fact about an opcode (its number range, its format, its mnemonic) is written once, in
//! `for_each_opcode!`; the `Opcode` enum, the decoder's 64-entry lookup and the mnemonic table are
//! generated from it. Adding an opcode is one line.

/// Instruction formats of specs/pica200-shader-isa.md "Instruction formats".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Register operation: SRC1 7 bits (with IDX), SRC2 5 bits.
    F1,
    /// Inverted register operation: SRC1 5 bits, SRC2 7 bits (with IDX).
    F1i,
    /// Unary register operation: SRC1 7 bits (with IDX), no SRC2.
    F1u,
    /// Comparison (CMP): two 3-bit operators instead of DST, 5-bit opcode.
    F1c,
    /// Flow control with a condition on cmp.x / cmp.y.
    F2,
    /// Flow control on a boolean or integer uniform.
    F3,
    /// SETEMIT.
    F4,
    /// MAD: SRC2 7 bits (with IDX), 3-bit opcode.
    F5,
    /// MADI: SRC3 7 bits (with IDX), 3-bit opcode.
    F5i,
    /// No operands (NOP, END, BREAK, EMIT).
    F0,
}

/// Calls `$m!` with the table: `Variant first_opcode last_opcode Format "mnemonic"`.
///
/// An opcode spanning a range (CMP 0x2E-0x2F, MADI 0x30-0x37, MAD 0x38-0x3F) has a shorter opcode
/// field; the low bits of the range belong to its operands.
#[macro_export]
macro_rules! for_each_opcode {
    ($m:ident) => {
        $m! {
            Add 0x00 0x00 F1 "add",
            Dp3 0x01 0x01 F1 "dp3",
            Dp4 0x02 0x02 F1 "dp4",
            Dph 0x03 0x03 F1 "dph",
            Dst 0x04 0x04 F1 "dst",
            Ex2 0x05 0x05 F1u "ex2",
            Lg2 0x06 0x06 F1u "lg2",
            Litp 0x07 0x07 F1u "litp",
            Mul 0x08 0x08 F1 "mul",
            Sge 0x09 0x09 F1 "sge",
            Slt 0x0A 0x0A F1 "slt",
            Flr 0x0B 0x0B F1u "flr",
            Max 0x0C 0x0C F1 "max",
            Min 0x0D 0x0D F1 "min",
            Rcp 0x0E 0x0E F1u "rcp",
            Rsq 0x0F 0x0F F1u "rsq",
            Mova 0x12 0x12 F1u "mova",
            Mov 0x13 0x13 F1u "mov",
            Dphi 0x18 0x18 F1i "dphi",
            Dsti 0x19 0x19 F1i "dsti",
            Sgei 0x1A 0x1A F1i "sgei",
            Slti 0x1B 0x1B F1i "slti",
            Break 0x20 0x20 F0 "break",
            Nop 0x21 0x21 F0 "nop",
            End 0x22 0x22 F0 "end",
            Breakc 0x23 0x23 F2 "breakc",
            Call 0x24 0x24 F2 "call",
            Callc 0x25 0x25 F2 "callc",
            Callu 0x26 0x26 F3 "callu",
            Ifu 0x27 0x27 F3 "ifu",
            Ifc 0x28 0x28 F2 "ifc",
            Loop 0x29 0x29 F3 "loop",
            Emit 0x2A 0x2A F0 "emit",
            Setemit 0x2B 0x2B F4 "setemit",
            Jmpc 0x2C 0x2C F2 "jmpc",
            Jmpu 0x2D 0x2D F3 "jmpu",
            Cmp 0x2E 0x2F F1c "cmp",
            Madi 0x30 0x37 F5i "madi",
            Mad 0x38 0x3F F5 "mad",
        }
    };
}

macro_rules! define_opcodes {
    ($($name:ident $first:literal $last:literal $format:ident $mnemonic:literal,)*) => {
        /// A PICA200 opcode. `Unknown` holds the 6-bit value of an unassigned opcode
        /// (0x10, 0x11, 0x14-0x17, 0x1C-0x1F).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Opcode {
            $(
                #[doc = concat!("`", $mnemonic, "`")]
                $name,
            )*
            Unknown(u8),
        }

        impl Opcode {
            /// Every known opcode, in table order.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$name,)*];

            /// The opcode of a 6-bit opcode field value (the instruction word's top 6 bits).
            pub fn from_bits6(bits: u8) -> Opcode {
                let bits = bits & 0x3F;
                $(if matches!(bits, $first..=$last) { return Opcode::$name; })*
                Opcode::Unknown(bits)
            }

            /// The first 6-bit value of this opcode's range.
            pub fn first_bits6(self) -> u8 {
                match self { $(Opcode::$name => $first,)* Opcode::Unknown(b) => b & 0x3F }
            }

            /// The format of its operands; unknown opcodes have none (the whole word is kept raw).
            pub fn format(self) -> Option<Format> {
                match self { $(Opcode::$name => Some(Format::$format),)* Opcode::Unknown(_) => None }
            }

            /// picasso's mnemonic (lower case); `None` for unknown opcodes.
            pub fn mnemonic(self) -> Option<&'static str> {
                match self { $(Opcode::$name => Some($mnemonic),)* Opcode::Unknown(_) => None }
            }

            /// The opcode named by a mnemonic (case-insensitive).
            pub fn from_mnemonic(name: &str) -> Option<Opcode> {
                $(if name.eq_ignore_ascii_case($mnemonic) { return Some(Opcode::$name); })*
                None
            }
        }
    };
}

for_each_opcode!(define_opcodes);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_6bit_value_maps_back_into_its_range() {
        for bits in 0..64u8 {
            let op = Opcode::from_bits6(bits);
            assert!(op.first_bits6() <= bits);
            assert_eq!(Opcode::from_bits6(op.first_bits6()), op);
        }
        assert_eq!(Opcode::from_bits6(0x10), Opcode::Unknown(0x10));
        assert_eq!(Opcode::from_bits6(0x3B), Opcode::Mad);
        assert_eq!(Opcode::from_bits6(0x2F), Opcode::Cmp);
    }

    #[test]
    fn mnemonics_are_unique() {
        for a in Opcode::ALL {
            assert_eq!(Opcode::from_mnemonic(a.mnemonic().unwrap()), Some(*a));
        }
    }
}

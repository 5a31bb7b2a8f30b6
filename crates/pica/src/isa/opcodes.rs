//! The one table of PICA200 opcodes (3dbrew "GPU/Shader Instruction Set" "Instructions").
//!
//! Every fact about an opcode (its number range, its format, its mnemonic, its inverted twin, how
//! it uses its operand descriptor, what its result is, its flow-control kind) is written once, in
//! `for_each_opcode!`; the `Opcode` enum, the decoder's 64-entry lookup, the mnemonic table and
//! the column accessors are generated from it, and the assembler, the disassembler, the
//! interpreter, the translator and the generators take their opcode lists from these. Adding an
//! opcode is one line.

/// Instruction formats of 3dbrew "GPU/Shader Instruction Set" "Instruction formats".
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

/// How an opcode uses its operand descriptor: which source components it reads, as picasso's
/// descriptor sharing judges it (picasso `optimizeOpdesc`; a component it does not read is
/// don't-care, so instructions that differ only there share one descriptor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DescUse {
    /// No operand descriptor (flow control, NOP, END, EMIT, SETEMIT).
    None,
    /// Every component of every source (DP4, DST, LITP).
    All,
    /// Componentwise: each source component only where the destination mask writes.
    Lanes,
    /// DP3: not the w of SRC1 and SRC2.
    Dp3,
    /// DPH: not the w of SRC1.
    Dph,
    /// EX2, LG2, RCP, RSQ: only the x of SRC1.
    X,
    /// MOVA: x and y of SRC1 where the a0 mask writes, never z and w.
    Mova,
    /// CMP: not the z and w of SRC1 (picasso's rule; SRC2 counts whole).
    Cmp,
}

/// Where an opcode sends the program: the flow-control kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flow {
    /// On to the next instruction.
    Next,
    /// END.
    End,
    /// BREAK, BREAKC: out of the innermost loop.
    Break,
    /// CALL, CALLC, CALLU: a procedure at DST, NUM long.
    Call,
    /// IFC, IFU: a block up to DST, an else part NUM long.
    If,
    /// LOOP: a body up to DST.
    Loop,
    /// JMPC, JMPU: to DST.
    Jump,
}

/// What an opcode's result is and where it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Output {
    /// No result.
    None,
    /// Each component from the same components of the sources (the written ones).
    Lanes,
    /// One value in every component: a dot product, or a function of SRC1.x.
    Broadcast,
    /// A component layout of its own: DST (1, a.y*b.y, a.z, b.w) and LITP (which also sets the
    /// cmp flags).
    Special,
    /// The address register a0, x and y by the descriptor's mask (MOVA; DST is unused, 0).
    Address,
    /// The cmp flags (CMP).
    Flags,
}

/// Calls `$m!` with the table, one opcode a line:
/// `Variant first last Format "mnemonic" plain DescUse Output Flow`.
///
/// An opcode spanning a range (CMP 0x2E-0x2F, MADI 0x30-0x37, MAD 0x38-0x3F) has a shorter opcode
/// field; the low bits of the range belong to its operands. `plain` names the opcode an inverted
/// form (`...i`, format 1i or 5i, the wide field on the other source) is the twin of, `-` for the
/// rest; picasso picks between the twins from the operands.
#[macro_export]
macro_rules! for_each_opcode {
    ($m:ident) => {
        $m! {
            Add 0x00 0x00 F1 "add" - Lanes Lanes Next,
            Dp3 0x01 0x01 F1 "dp3" - Dp3 Broadcast Next,
            Dp4 0x02 0x02 F1 "dp4" - All Broadcast Next,
            Dph 0x03 0x03 F1 "dph" - Dph Broadcast Next,
            Dst 0x04 0x04 F1 "dst" - All Special Next,
            Ex2 0x05 0x05 F1u "ex2" - X Broadcast Next,
            Lg2 0x06 0x06 F1u "lg2" - X Broadcast Next,
            Litp 0x07 0x07 F1u "litp" - All Special Next,
            Mul 0x08 0x08 F1 "mul" - Lanes Lanes Next,
            Sge 0x09 0x09 F1 "sge" - Lanes Lanes Next,
            Slt 0x0A 0x0A F1 "slt" - Lanes Lanes Next,
            Flr 0x0B 0x0B F1u "flr" - Lanes Lanes Next,
            Max 0x0C 0x0C F1 "max" - Lanes Lanes Next,
            Min 0x0D 0x0D F1 "min" - Lanes Lanes Next,
            Rcp 0x0E 0x0E F1u "rcp" - X Broadcast Next,
            Rsq 0x0F 0x0F F1u "rsq" - X Broadcast Next,
            Mova 0x12 0x12 F1u "mova" - Mova Address Next,
            Mov 0x13 0x13 F1u "mov" - Lanes Lanes Next,
            Dphi 0x18 0x18 F1i "dphi" Dph Dph Broadcast Next,
            Dsti 0x19 0x19 F1i "dsti" Dst All Special Next,
            Sgei 0x1A 0x1A F1i "sgei" Sge Lanes Lanes Next,
            Slti 0x1B 0x1B F1i "slti" Slt Lanes Lanes Next,
            Break 0x20 0x20 F0 "break" - None None Break,
            Nop 0x21 0x21 F0 "nop" - None None Next,
            End 0x22 0x22 F0 "end" - None None End,
            Breakc 0x23 0x23 F2 "breakc" - None None Break,
            Call 0x24 0x24 F2 "call" - None None Call,
            Callc 0x25 0x25 F2 "callc" - None None Call,
            Callu 0x26 0x26 F3 "callu" - None None Call,
            Ifu 0x27 0x27 F3 "ifu" - None None If,
            Ifc 0x28 0x28 F2 "ifc" - None None If,
            Loop 0x29 0x29 F3 "loop" - None None Loop,
            Emit 0x2A 0x2A F0 "emit" - None None Next,
            Setemit 0x2B 0x2B F4 "setemit" - None None Next,
            Jmpc 0x2C 0x2C F2 "jmpc" - None None Jump,
            Jmpu 0x2D 0x2D F3 "jmpu" - None None Jump,
            Cmp 0x2E 0x2F F1c "cmp" - Cmp Flags Next,
            Madi 0x30 0x37 F5i "madi" Mad Lanes Lanes Next,
            Mad 0x38 0x3F F5 "mad" - Lanes Lanes Next,
        }
    };
}

macro_rules! define_opcodes {
    ($($name:ident $first:literal $last:literal $format:ident $mnemonic:literal $plain:tt $desc:ident $output:ident $flow:ident,)*) => {
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

            /// For an inverted form (DPHI, DSTI, SGEI, SLTI, MADI), the opcode it is the twin
            /// of; every other opcode is its own plain form.
            pub fn plain(self) -> Opcode {
                match self { $(Opcode::$name => define_opcodes!(@plain $name $plain),)* Opcode::Unknown(b) => Opcode::Unknown(b) }
            }

            /// The inverted twin of a plain opcode (DPH gives DPHI, MAD gives MADI, ...).
            pub fn inverted(self) -> Option<Opcode> {
                Opcode::ALL.iter().copied().find(|&i| i != self && i.plain() == self)
            }

            /// True for the inverted forms (the twins whose wide source is the other one).
            pub fn is_inverted(self) -> bool {
                self.plain() != self
            }

            /// How it uses its operand descriptor ([`DescUse`]).
            pub fn desc_use(self) -> DescUse {
                match self { $(Opcode::$name => DescUse::$desc,)* Opcode::Unknown(_) => DescUse::None }
            }

            /// What its result is and where it goes ([`Output`]).
            pub fn output(self) -> Output {
                match self { $(Opcode::$name => Output::$output,)* Opcode::Unknown(_) => Output::None }
            }

            /// Its flow-control kind ([`Flow`]); unknown opcodes go on.
            pub fn flow(self) -> Flow {
                match self { $(Opcode::$name => Flow::$flow,)* Opcode::Unknown(_) => Flow::Next }
            }
        }
    };
    (@plain $name:ident -) => { Opcode::$name };
    (@plain $name:ident $plain:ident) => { Opcode::$plain };
}

impl Opcode {
    /// Number of source operands: 1 for format 1u (SRC2's bits are unused), 2 for formats 1,
    /// 1i and 1c, 3 for formats 5 and 5i, 0 for the rest.
    pub fn sources(self) -> usize {
        self.format().map_or(0, Format::sources)
    }

    /// True for the opcodes whose result goes to a destination register (not MOVA, CMP, flow
    /// control).
    pub fn writes_register(self) -> bool {
        matches!(self.output(), Output::Lanes | Output::Broadcast | Output::Special)
    }

    /// The plain (not inverted) opcodes with `sources` sources whose result goes to a register,
    /// in table order: the arithmetic picasso source names (1: MOV, FLR, ...; 2: ADD, DP3, ...;
    /// 3: MAD).
    pub fn arithmetic(sources: usize) -> impl Iterator<Item = Opcode> {
        Opcode::ALL.iter().copied().filter(move |o| o.writes_register() && !o.is_inverted() && o.sources() == sources)
    }

    /// True for the one-source arithmetic opcodes (format 1u: EX2, LG2, LITP, FLR, RCP, RSQ,
    /// MOVA, MOV).
    pub fn is_unary(self) -> bool {
        self.sources() == 1
    }

    /// The source register its IDX field offsets, for formats that have one.
    pub fn relative_source(self) -> Option<super::RelativeSource> {
        self.format()?.relative_source()
    }
}

impl Format {
    /// Number of source operands of the format (see [`Opcode::sources`]).
    pub const fn sources(self) -> usize {
        match self {
            Format::F1u => 1,
            Format::F1 | Format::F1i | Format::F1c => 2,
            Format::F5 | Format::F5i => 3,
            Format::F2 | Format::F3 | Format::F4 | Format::F0 => 0,
        }
    }
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
    fn twins_agree_on_everything_but_the_wide_source() {
        let inverted: Vec<_> = Opcode::ALL.iter().filter(|o| o.is_inverted()).copied().collect();
        assert_eq!(inverted, [Opcode::Dphi, Opcode::Dsti, Opcode::Sgei, Opcode::Slti, Opcode::Madi]);
        for &i in &inverted {
            let p = i.plain();
            assert_eq!(p.inverted(), Some(i));
            assert!(!p.is_inverted() && p.plain() == p);
            assert_eq!(
                (p.desc_use(), p.output(), p.flow(), p.sources()),
                (i.desc_use(), i.output(), i.flow(), i.sources())
            );
            assert_ne!(p.relative_source(), i.relative_source(), "{i:?}");
        }
        assert_eq!(Opcode::Add.inverted(), None);
    }

    #[test]
    fn columns_follow_the_format() {
        for &op in Opcode::ALL {
            let has_desc = op.desc_use() != DescUse::None;
            assert_eq!(has_desc, op.sources() > 0, "{op:?}");
            assert_eq!(op.output() == Output::None, !has_desc, "{op:?}");
            let flow_format = matches!(op.format(), Some(Format::F0 | Format::F2 | Format::F3 | Format::F4));
            assert_eq!(flow_format, !has_desc, "{op:?}");
            if op.flow() != Flow::Next {
                assert!(flow_format, "{op:?}");
            }
        }
        let unary: Vec<_> = Opcode::ALL.iter().filter(|o| o.is_unary()).filter_map(|o| o.mnemonic()).collect();
        assert_eq!(unary, ["ex2", "lg2", "litp", "flr", "rcp", "rsq", "mova", "mov"]);
    }

    #[test]
    fn mnemonics_are_unique() {
        for a in Opcode::ALL {
            assert_eq!(Opcode::from_mnemonic(a.mnemonic().unwrap()), Some(*a));
        }
    }
}

//! Registers, address indices, comparison and condition operators, operand descriptors
//! (3dbrew "GPU/Shader Instruction Set" "Registers", "Relative addressing", "Comparison operator",
//! "Conditions", "Operand descriptors").

use std::fmt;

/// A source register, from its 7-bit (or 5-bit) raw value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SrcReg {
    /// v0-v15 (raw 0x00-0x0F).
    Input(u8),
    /// r0-r15 (raw 0x10-0x1F).
    Temp(u8),
    /// c0-c95 (raw 0x20-0x7F).
    Const(u8),
}

impl SrcReg {
    /// Decodes a raw source field (7 bits; a 5-bit field never reaches the constants).
    pub fn from_raw(raw: u8) -> SrcReg {
        match raw & 0x7F {
            r @ 0x00..=0x0F => SrcReg::Input(r),
            r @ 0x10..=0x1F => SrcReg::Temp(r - 0x10),
            r => SrcReg::Const(r - 0x20),
        }
    }

    /// The raw 7-bit field value.
    pub fn raw(self) -> u8 {
        match self {
            SrcReg::Input(i) => i,
            SrcReg::Temp(i) => 0x10 + i,
            SrcReg::Const(i) => 0x20 + i,
        }
    }

    /// True when the register fits a 5-bit source field (inputs and temporaries).
    pub fn fits_narrow(self) -> bool {
        self.raw() < 0x20
    }
}

impl fmt::Display for SrcReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SrcReg::Input(i) => write!(f, "v{i}"),
            SrcReg::Temp(i) => write!(f, "r{i}"),
            SrcReg::Const(i) => write!(f, "c{i}"),
        }
    }
}

/// A destination register, from its 5-bit raw value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DstReg {
    /// o0-o15 (raw 0x00-0x0F).
    Output(u8),
    /// r0-r15 (raw 0x10-0x1F).
    Temp(u8),
}

impl DstReg {
    pub fn from_raw(raw: u8) -> DstReg {
        match raw & 0x1F {
            r @ 0x00..=0x0F => DstReg::Output(r),
            r => DstReg::Temp(r - 0x10),
        }
    }

    pub fn raw(self) -> u8 {
        match self {
            DstReg::Output(i) => i,
            DstReg::Temp(i) => 0x10 + i,
        }
    }
}

impl fmt::Display for DstReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DstReg::Output(i) => write!(f, "o{i}"),
            DstReg::Temp(i) => write!(f, "r{i}"),
        }
    }
}

/// The address register added to the relative source (IDX field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum AddrIndex {
    #[default]
    None,
    A0x,
    A0y,
    /// The loop counter.
    AL,
}

impl AddrIndex {
    pub fn from_raw(raw: u8) -> AddrIndex {
        match raw & 3 {
            0 => AddrIndex::None,
            1 => AddrIndex::A0x,
            2 => AddrIndex::A0y,
            _ => AddrIndex::AL,
        }
    }

    pub fn raw(self) -> u8 {
        self as u8
    }

    /// picasso's name (`a0.x`, `a0.y`, `aL`); `None` for no index.
    pub fn name(self) -> Option<&'static str> {
        match self {
            AddrIndex::None => None,
            AddrIndex::A0x => Some("a0.x"),
            AddrIndex::A0y => Some("a0.y"),
            AddrIndex::AL => Some("aL"),
        }
    }
}

/// CMP operators (raw 6 and 7 compare as always true on hardware).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Raw 6 or 7: always true.
    True(u8),
}

impl CmpOp {
    pub fn from_raw(raw: u8) -> CmpOp {
        match raw & 7 {
            0 => CmpOp::Eq,
            1 => CmpOp::Ne,
            2 => CmpOp::Lt,
            3 => CmpOp::Le,
            4 => CmpOp::Gt,
            5 => CmpOp::Ge,
            r => CmpOp::True(r),
        }
    }

    pub fn raw(self) -> u8 {
        match self {
            CmpOp::Eq => 0,
            CmpOp::Ne => 1,
            CmpOp::Lt => 2,
            CmpOp::Le => 3,
            CmpOp::Gt => 4,
            CmpOp::Ge => 5,
            CmpOp::True(r) => r & 7,
        }
    }

    /// picasso's operator name (`eq`, `ne`, `lt`, `le`, `gt`, `ge`); raw 6/7 print as `true6`/`true7`
    /// is not picasso syntax, so callers must handle `True` themselves.
    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Lt => "lt",
            CmpOp::Le => "le",
            CmpOp::Gt => "gt",
            CmpOp::Ge => "ge",
            CmpOp::True(6) => "true6",
            CmpOp::True(_) => "true7",
        }
    }
}

/// How the two cmp flag tests combine (CONDOP).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CondOp {
    Or,
    And,
    X,
    Y,
}

impl CondOp {
    pub fn from_raw(raw: u8) -> CondOp {
        match raw & 3 {
            0 => CondOp::Or,
            1 => CondOp::And,
            2 => CondOp::X,
            _ => CondOp::Y,
        }
    }

    pub fn raw(self) -> u8 {
        self as u8
    }
}

/// The condition of format-2 instructions: `cmp.x == refx` and/or `cmp.y == refy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Condition {
    pub op: CondOp,
    pub refx: bool,
    pub refy: bool,
}

impl Condition {
    /// Evaluates the condition on the cmp flags.
    pub fn eval(self, cmp_x: bool, cmp_y: bool) -> bool {
        let x = cmp_x == self.refx;
        let y = cmp_y == self.refy;
        match self.op {
            CondOp::Or => x || y,
            CondOp::And => x && y,
            CondOp::X => x,
            CondOp::Y => y,
        }
    }
}

/// A component selector: four 2-bit fields, component 0 in the top bits (0x1B = .xyzw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle(pub u8);

impl Swizzle {
    pub const IDENTITY: Swizzle = Swizzle(0x1B);

    /// The source component (0 = x .. 3 = w) read for result component `i`.
    pub fn component(self, i: usize) -> usize {
        ((self.0 >> (6 - 2 * i)) & 3) as usize
    }

    /// The selector of four components.
    pub fn from_components(c: [u8; 4]) -> Swizzle {
        Swizzle((c[0] & 3) << 6 | (c[1] & 3) << 4 | (c[2] & 3) << 2 | (c[3] & 3))
    }
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..4 {
            f.write_str(["x", "y", "z", "w"][self.component(i)])?;
        }
        Ok(())
    }
}

/// An operand descriptor: destination mask, and negation and swizzle of up to three sources.
/// Bits 31..=31 (above SRC3's selector) are kept as they were.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct OperandDescriptor(pub u32);

impl OperandDescriptor {
    /// Destination component mask: bit 3 = x, 2 = y, 1 = z, 0 = w.
    pub fn dest_mask(self) -> u8 {
        (self.0 & 0xF) as u8
    }

    /// True when result component `i` (0 = x) is written.
    pub fn writes(self, i: usize) -> bool {
        self.0 & (8 >> i) != 0
    }

    /// Negation bit of source `n` (1, 2 or 3).
    pub fn negate(self, n: usize) -> bool {
        self.0 & (1 << Self::base(n)) != 0
    }

    /// Component selector of source `n` (1, 2 or 3).
    pub fn swizzle(self, n: usize) -> Swizzle {
        Swizzle(((self.0 >> (Self::base(n) + 1)) & 0xFF) as u8)
    }

    fn base(n: usize) -> u32 {
        match n {
            1 => 4,
            2 => 13,
            _ => 22,
        }
    }

    /// Builds a descriptor from its parts; sources not given are `.xyzw` without negation.
    pub fn new(dest_mask: u8, sources: &[(bool, Swizzle)]) -> OperandDescriptor {
        let mut word = (dest_mask & 0xF) as u32;
        for n in 1..=3 {
            let (neg, swz) = sources.get(n - 1).copied().unwrap_or((false, Swizzle::IDENTITY));
            word |= (neg as u32) << Self::base(n) | (swz.0 as u32) << (Self::base(n) + 1);
        }
        OperandDescriptor(word)
    }
}

/// Destination mask as picasso prints it (`xyzw`, `xz`, ...).
pub fn mask_name(mask: u8) -> String {
    (0..4).filter(|i| mask & (8 >> i) != 0).map(|i| ['x', 'y', 'z', 'w'][i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzle_examples_from_isa_page() {
        assert_eq!(Swizzle(0x1B).to_string(), "xyzw");
        assert_eq!(Swizzle(0x55).to_string(), "yyyy");
    }

    #[test]
    fn descriptor_fields() {
        let d = OperandDescriptor::new(0b1010, &[(true, Swizzle(0x55)), (false, Swizzle(0xE4))]);
        assert_eq!(d.dest_mask(), 0b1010);
        assert!(d.writes(0) && !d.writes(1) && d.writes(2) && !d.writes(3));
        assert!(d.negate(1) && !d.negate(2) && !d.negate(3));
        assert_eq!(d.swizzle(1), Swizzle(0x55));
        assert_eq!(d.swizzle(2), Swizzle(0xE4));
        assert_eq!(d.swizzle(3), Swizzle::IDENTITY);
    }

    #[test]
    fn registers_round_trip() {
        for raw in 0..0x80u8 {
            assert_eq!(SrcReg::from_raw(raw).raw(), raw);
        }
        for raw in 0..0x20u8 {
            assert_eq!(DstReg::from_raw(raw).raw(), raw);
        }
    }
}

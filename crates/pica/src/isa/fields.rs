//! Bit fields of instruction words, and the macro that turns one field table per instruction
//! format into the decoder, the encoder and the raw field listing (the `gx::fields` pattern).
//!
//! Every bit position of an instruction format is written once, as a `[hi:lo]` range in the
//! `instruction_formats!` table of `isa/mod.rs`; decoding, encoding (with its range checks), the
//! covered-bits mask and [`Format::fields`](super::Format::fields) are generated from it.

use super::operands::{AddrIndex, CmpOp, CondOp, Condition, DstReg, SrcReg};
use super::EncodeError;

/// One named bit field of an instruction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name: the `Operands` member it fills.
    pub name: &'static str,
    /// Highest bit (inclusive).
    pub hi: u8,
    /// Lowest bit.
    pub lo: u8,
    /// What an encoding error calls a value that does not fit.
    pub what: &'static str,
}

impl Field {
    /// Width in bits.
    pub const fn width(&self) -> u32 {
        (self.hi - self.lo) as u32 + 1
    }

    /// The largest value the field holds.
    pub const fn max(&self) -> u32 {
        ((1u64 << self.width()) - 1) as u32
    }

    /// Mask of the field's bits in place.
    pub const fn mask(&self) -> u32 {
        self.max() << self.lo
    }

    /// The field's value in `word`.
    pub const fn get(&self, word: u32) -> u32 {
        (word & self.mask()) >> self.lo
    }
}

/// Conversion between a field's bits and the type of its `Operands` member.
pub(crate) trait FieldValue: Copy {
    fn from_bits(bits: u32) -> Self;
    /// The value to place; the encoder refuses it when it exceeds the field.
    fn to_bits(self) -> u32;
    /// The error for a value that does not fit `field`.
    fn overflow(self, opcode: &'static str, field: &Field) -> EncodeError {
        let value = self.to_bits();
        if field.name == "desc" {
            EncodeError::Descriptor { opcode, desc: value.min(255) as u8, max: field.max() as u8 }
        } else {
            EncodeError::Field { opcode, what: field.what, value, max: field.max() }
        }
    }
}

/// Places `value` in `field`, or says why it does not fit.
pub(crate) fn put<T: FieldValue>(field: &Field, value: T, opcode: &'static str) -> Result<u32, EncodeError> {
    let bits = value.to_bits();
    if bits > field.max() {
        return Err(value.overflow(opcode, field));
    }
    Ok(bits << field.lo)
}

impl FieldValue for SrcReg {
    fn from_bits(bits: u32) -> Self {
        SrcReg::from_raw(bits as u8)
    }
    fn to_bits(self) -> u32 {
        self.raw() as u32
    }
    fn overflow(self, opcode: &'static str, field: &Field) -> EncodeError {
        EncodeError::NarrowSource { opcode, what: field.what, reg: self }
    }
}

/// Register and operator fields: the type's own `from_raw(u8)` and `raw() -> u8`.
macro_rules! raw_field_value {
    ($($t:ty),*) => {$(
        impl FieldValue for $t {
            fn from_bits(bits: u32) -> Self {
                <$t>::from_raw(bits as u8)
            }
            fn to_bits(self) -> u32 {
                self.raw() as u32
            }
        }
    )*};
}
raw_field_value!(DstReg, AddrIndex, CmpOp);

/// A condition is one 4-bit field: REFX (bit 3), REFY (bit 2), CONDOP (bits 1-0).
impl FieldValue for Condition {
    fn from_bits(bits: u32) -> Self {
        Condition { op: CondOp::from_raw(bits as u8), refy: bits & 4 != 0, refx: bits & 8 != 0 }
    }
    fn to_bits(self) -> u32 {
        (self.refx as u32) << 3 | (self.refy as u32) << 2 | self.op.raw() as u32
    }
}

/// Plain numbers.
macro_rules! int_field_value {
    ($($t:ty),*) => {$(
        impl FieldValue for $t {
            fn from_bits(bits: u32) -> Self {
                bits as $t
            }
            fn to_bits(self) -> u32 {
                self as u32
            }
        }
    )*};
}
int_field_value!(u8, u16);

impl FieldValue for bool {
    fn from_bits(bits: u32) -> Self {
        bits != 0
    }
    fn to_bits(self) -> u32 {
        self as u32
    }
}

/// Declares the field table of every instruction format: for each format (or formats sharing a
/// layout), the `Operands` variant it decodes to, the source its IDX field offsets, and each
/// field as `name: Type = [hi:lo]` with an optional error label. Generates `Format::fields`,
/// `Format::relative_source`, and the operand decoder and encoder used by `Instruction`.
macro_rules! instruction_formats {
    (
        $(
            $fmt:ident $(| $more:ident)* => $variant:ident rel $rel:ident {
                $( $field:ident : $ty:ty = [$hi:literal : $lo:literal] $($what:literal)? ),* $(,)?
            }
        )*
    ) => {
        impl Format {
            /// The format's field table, opcode excluded, from the most significant field.
            pub const fn fields(self) -> &'static [$crate::isa::fields::Field] {
                match self {
                    $( Format::$fmt $(| Format::$more)* => &[ $( $crate::isa::fields::Field {
                        name: stringify!($field),
                        hi: $hi,
                        lo: $lo,
                        what: instruction_formats!(@what $field $($what)?),
                    } ),* ], )*
                }
            }

            /// The source register that the IDX field offsets, for formats that have one.
            pub const fn relative_source(self) -> Option<RelativeSource> {
                match self {
                    $( Format::$fmt $(| Format::$more)* => instruction_formats!(@rel $rel), )*
                }
            }
        }

        /// The operands of `word`, read field by field from `format`'s table.
        fn decode_operands(format: Format, word: u32) -> Operands {
            match format {
                $( Format::$fmt $(| Format::$more)* => {
                    #[allow(unused_variables, unused_mut)]
                    let mut fields = format.fields().iter();
                    $( let $field = <$ty as $crate::isa::fields::FieldValue>::from_bits(
                        fields.next().map_or(0, |f| f.get(word)),
                    ); )*
                    Operands::$variant { $( $field, )* }
                } )*
            }
        }

        /// The field bits of `operands` in `format`; each value checked against its field.
        fn encode_operands(format: Format, operands: Operands, opcode: &'static str) -> Result<u32, EncodeError> {
            match (format, operands) {
                $( (Format::$fmt $(| Format::$more)*, Operands::$variant { $( $field, )* }) => {
                    #[allow(unused_mut)]
                    let mut word = 0u32;
                    #[allow(unused_variables, unused_mut)]
                    let mut fields = format.fields().iter();
                    $( if let Some(f) = fields.next() {
                        word |= $crate::isa::fields::put::<$ty>(f, $field, opcode)?;
                    } )*
                    Ok(word)
                } )*
                _ => Err(EncodeError::WrongOperands { opcode }),
            }
        }
    };
    (@what $field:ident) => { stringify!($field) };
    (@what $field:ident $what:literal) => { $what };
    (@rel none) => { None };
    (@rel $src:ident) => { Some(RelativeSource::$src) };
}
pub(crate) use instruction_formats;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_masks() {
        let f = Field { name: "x", hi: 21, lo: 10, what: "x" };
        assert_eq!(f.width(), 12);
        assert_eq!(f.mask(), 0x003F_FC00);
        assert_eq!(f.get(0xFFFF_FFFF), 0xFFF);
        assert!(put(&f, 0x1000u16, "op").is_err());
        assert_eq!(put(&f, 0xFFFu16, "op"), Ok(0x003F_FC00));
    }

    #[test]
    fn condition_bits() {
        for bits in 0..16 {
            assert_eq!(Condition::from_bits(bits).to_bits(), bits);
        }
    }
}

//! Bit fields of 24-bit BP register values, and the macro that turns one table per register into
//! its typed struct, decoder, encoder and field printer.
//!
//! Every register layout in this crate is written exactly once, as a `bp_register!` invocation
//! (name, `[high:low]` bit range, optional value-name table). Decoding, encoding, the printer and
//! the JSON field listing are all generated from that one line, so they cannot disagree
//! (STYLE.md, "One table per instruction set").

/// One named bit field of a 24-bit BP register value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Field name as printed (`snake_case`).
    pub name: &'static str,
    /// Highest bit of the field (inclusive).
    pub hi: u8,
    /// Lowest bit of the field.
    pub lo: u8,
    /// Whether the field is a two's-complement signed value.
    pub signed: bool,
    /// Names of the field's values, indexed by the raw value, where the field is an enumeration.
    pub names: Option<&'static [&'static str]>,
}

impl Field {
    /// Width of the field in bits.
    pub const fn width(&self) -> u32 {
        (self.hi - self.lo) as u32 + 1
    }

    /// Mask of the field's bits in place.
    pub const fn mask(&self) -> u32 {
        (((1u64 << self.width()) - 1) as u32) << self.lo
    }

    /// The field's value in `raw`, sign-extended when the field is signed.
    pub const fn get(&self, raw: u32) -> i64 {
        let bits = (raw & self.mask()) >> self.lo;
        if self.signed {
            let shift = 64 - self.width();
            ((bits as i64) << shift) >> shift
        } else {
            bits as i64
        }
    }

    /// `raw` with this field replaced by `value` (truncated to the field's width).
    pub const fn set(&self, raw: u32, value: i64) -> u32 {
        (raw & !self.mask()) | (((value as u32) << self.lo) & self.mask())
    }

    /// The name of `value` when the field has a value-name table and the value is in it.
    pub fn value_name(&self, value: i64) -> Option<&'static str> {
        let names = self.names?;
        usize::try_from(value).ok().and_then(|v| names.get(v)).copied()
    }
}

/// A field's value as listed by [`RegisterLayout::describe`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FieldValue {
    /// Field name.
    pub name: &'static str,
    /// Decoded value (sign-extended for signed fields).
    pub value: i64,
    /// The value's name, for enumerated fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<&'static str>,
}

/// The static description of one register layout: its name and field table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterLayout {
    /// Layout name (e.g. `tev_color_env`).
    pub name: &'static str,
    /// The fields, from the least significant end.
    pub fields: &'static [Field],
}

impl RegisterLayout {
    /// Bits covered by some field.
    pub fn known_mask(&self) -> u32 {
        self.fields.iter().fold(0, |m, f| m | f.mask())
    }

    /// Every field of `raw` with its value and value name.
    pub fn describe(&self, raw: u32) -> Vec<FieldValue> {
        self.fields
            .iter()
            .map(|f| {
                let value = f.get(raw);
                FieldValue { name: f.name, value, meaning: f.value_name(value) }
            })
            .collect()
    }

    /// One line `name=value(meaning) ...`, plus `unused=0x..` when bits outside every field are set.
    pub fn format(&self, raw: u32) -> String {
        let mut out = String::new();
        for (i, fv) in self.describe(raw).into_iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(fv.name);
            out.push('=');
            out.push_str(&fv.value.to_string());
            if let Some(m) = fv.meaning {
                out.push('(');
                out.push_str(m);
                out.push(')');
            }
        }
        let unused = raw & 0xFF_FFFF & !self.known_mask();
        if unused != 0 {
            out.push_str(&format!(" unused=0x{unused:06x}"));
        }
        out
    }
}

/// Conversion between a field's raw bits and the Rust type of the struct member.
pub trait FieldType: Copy {
    /// Build from the decoded field value.
    fn from_value(v: i64) -> Self;
    /// The value to encode.
    fn to_value(self) -> i64;
    /// Whether the bits are two's complement.
    const SIGNED: bool;
}

macro_rules! field_type {
    ($($t:ty => $signed:expr),*) => {$(
        impl FieldType for $t {
            fn from_value(v: i64) -> Self { v as $t }
            fn to_value(self) -> i64 { self as i64 }
            const SIGNED: bool = $signed;
        }
    )*};
}
field_type!(u8 => false, u16 => false, u32 => false, i16 => true);

impl FieldType for bool {
    fn from_value(v: i64) -> Self {
        v != 0
    }
    fn to_value(self) -> i64 {
        self as i64
    }
    const SIGNED: bool = false;
}

/// Declares a BP register layout: a plain-data struct with one member per field, its
/// [`RegisterLayout`] (`LAYOUT`), `decode(raw)` and `encode()`. Each field is written as
/// `name: type = [hi:lo]` with an optional `@ NAMES` value-name table.
macro_rules! bp_register {
    (
        $(#[$meta:meta])*
        $name:ident = $lname:literal {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = [$hi:literal : $lo:literal] $(@ $names:expr)? ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl $name {
            /// The field table of this register (the single source of its layout).
            pub const LAYOUT: $crate::fields::RegisterLayout = $crate::fields::RegisterLayout {
                name: $lname,
                fields: &[ $( $crate::fields::Field {
                    name: stringify!($field),
                    hi: $hi,
                    lo: $lo,
                    signed: <$ty as $crate::fields::FieldType>::SIGNED,
                    names: { #[allow(unused_mut, unused_assignments)] let mut n: Option<&'static [&'static str]> = None; $( n = Some($names); )? n },
                } ),* ],
            };

            /// Decodes a 24-bit register value (bits above 23 are ignored).
            pub fn decode(raw: u32) -> Self {
                let mut _i = 0usize;
                $( let $field = <$ty as $crate::fields::FieldType>::from_value(Self::LAYOUT.fields[_i].get(raw)); _i += 1; )*
                Self { $( $field, )* }
            }

            /// Encodes back to a 24-bit register value.
            pub fn encode(&self) -> u32 {
                let mut raw = 0u32;
                let mut _i = 0usize;
                $( raw = Self::LAYOUT.fields[_i].set(raw, $crate::fields::FieldType::to_value(self.$field)); _i += 1; )*
                raw
            }
        }
    };
}
pub(crate) use bp_register;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_field_sign_extends() {
        let f = Field { name: "x", hi: 10, lo: 0, signed: true, names: None };
        assert_eq!(f.get(0x400), -1024);
        assert_eq!(f.get(0x3FF), 1023);
        assert_eq!(f.set(0, -1), 0x7FF);
    }
}

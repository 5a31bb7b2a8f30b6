//! Bit fields of 32-bit PICA200 register values, and the macros that turn one table per register
//! layout into its typed struct, decoder, encoder, printer and JSON field listing.
//!
//! Each layout is written once, as a `pica_register!` invocation: one `name: Type = [hi:lo]` line
//! per field (the same idea as `gx::bp_register!`). Enumerated values are declared once with
//! `pica_enum!`; the value names printed and put in JSON come from that declaration.

use serde::Serialize;

/// How a field's bits are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Unsigned integer, printed in decimal.
    Uint,
    /// Unsigned integer printed in hex (addresses, offsets, masks, raw data).
    Hex,
    /// Two's-complement signed integer.
    Int,
    /// One-bit flag.
    Bool,
    /// Enumeration: raw value -> name.
    Enum(&'static [(u32, &'static str)]),
    /// Float with one sign bit, `exp` exponent bits (bias 2^(exp-1)-1) and `mant` mantissa bits.
    Float { exp: u8, mant: u8 },
    /// Fixed point: optional sign, `int` integer and `frac` fraction bits (two's complement).
    Fixed { signed: bool, int: u8, frac: u8 },
}

/// One named bit field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Field name (`snake_case`).
    pub name: &'static str,
    /// Highest bit (inclusive).
    pub hi: u8,
    /// Lowest bit.
    pub lo: u8,
    pub kind: Kind,
}

impl Field {
    pub const fn width(&self) -> u32 {
        (self.hi - self.lo) as u32 + 1
    }

    /// The field's bits in place.
    pub const fn mask(&self) -> u32 {
        (((1u64 << self.width()) - 1) as u32) << self.lo
    }

    /// The raw (unsigned, shifted down) bits of the field.
    pub const fn get(&self, raw: u32) -> u32 {
        (raw & self.mask()) >> self.lo
    }

    /// `raw` with the field set to `bits` (truncated to the field's width).
    pub const fn set(&self, raw: u32, bits: u32) -> u32 {
        (raw & !self.mask()) | ((bits << self.lo) & self.mask())
    }

    /// The typed value of the field's bits.
    pub fn value(&self, bits: u32) -> Value {
        match self.kind {
            Kind::Uint => Value::Uint(bits),
            Kind::Hex => Value::Hex(bits),
            Kind::Bool => Value::Bool(bits != 0),
            Kind::Int => Value::Int(sign_extend(bits, self.width())),
            Kind::Enum(names) => match names.iter().find(|(v, _)| *v == bits) {
                Some((_, n)) => Value::Enum { raw: bits, name: n },
                None => Value::Uint(bits),
            },
            Kind::Float { exp, mant } => Value::Float { raw: bits, value: float_value(bits, exp, mant) },
            Kind::Fixed { signed, int: _, frac } => {
                let v = if signed { sign_extend(bits, self.width()) as f64 } else { bits as f64 };
                Value::Float { raw: bits, value: v / (1u64 << frac) as f64 }
            }
        }
    }
}

fn sign_extend(bits: u32, width: u32) -> i64 {
    let shift = 64 - width;
    ((bits as i64) << shift) >> shift
}

/// The value of a `1.exp.mant` float (IEEE-style: bias 2^(exp-1)-1, all-ones exponent is
/// infinity or NaN, zero exponent subnormal).
pub fn float_value(bits: u32, exp: u8, mant: u8) -> f64 {
    let (e_bits, m_bits) = (u32::from(exp), u32::from(mant));
    let sign = if (bits >> (e_bits + m_bits)) & 1 != 0 { -1.0 } else { 1.0 };
    let e = (bits >> m_bits) & ((1 << e_bits) - 1);
    let m = bits & ((1u32 << m_bits) - 1);
    let bias = (1i32 << (e_bits - 1)) - 1;
    let frac = m as f64 / (1u64 << m_bits) as f64;
    if e == (1 << e_bits) - 1 {
        if m == 0 {
            sign * f64::INFINITY
        } else {
            f64::NAN
        }
    } else if e == 0 {
        sign * frac * 2f64.powi(1 - bias)
    } else {
        sign * (1.0 + frac) * 2f64.powi(e as i32 - bias)
    }
}

/// A decoded field value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Uint(u32),
    Hex(u32),
    Int(i64),
    Bool(bool),
    Enum { raw: u32, name: &'static str },
    Float { raw: u32, value: f64 },
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Value::Uint(v) => write!(f, "{v}"),
            Value::Hex(v) => write!(f, "0x{v:x}"),
            Value::Int(v) => write!(f, "{v}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Enum { name, .. } => f.write_str(name),
            Value::Float { value, .. } => write!(f, "{value}"),
        }
    }
}

/// A field of a register value, for printing and JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldValue {
    pub name: &'static str,
    /// The raw bits of the field.
    pub raw: u32,
    /// The value: a number, a bool, or a float (JSON has no NaN or infinity: those print as
    /// strings).
    pub value: serde_json_value::Json,
    /// The value's name, for enumerations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<&'static str>,
}

/// A tiny JSON value type, so that the crate needs no JSON library.
pub mod serde_json_value {
    use serde::{Serialize, Serializer};

    #[derive(Clone, Debug, PartialEq)]
    pub enum Json {
        Uint(u64),
        Int(i64),
        Bool(bool),
        Float(f64),
        Str(String),
    }

    impl Serialize for Json {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                Json::Uint(v) => s.serialize_u64(*v),
                Json::Int(v) => s.serialize_i64(*v),
                Json::Bool(v) => s.serialize_bool(*v),
                Json::Float(v) => s.serialize_f64(*v),
                Json::Str(v) => s.serialize_str(v),
            }
        }
    }
}

use serde_json_value::Json;

/// A register layout: its name and fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub name: &'static str,
    /// The fields, from the least significant end.
    pub fields: &'static [Field],
}

impl Layout {
    /// Bits covered by some field.
    pub fn known_mask(&self) -> u32 {
        self.fields.iter().fold(0, |m, f| m | f.mask())
    }

    /// Every field of `raw`, with its value.
    pub fn describe(&self, raw: u32) -> Vec<FieldValue> {
        self.fields
            .iter()
            .map(|f| {
                let bits = f.get(raw);
                let (value, meaning) = match f.value(bits) {
                    Value::Uint(v) | Value::Hex(v) => (Json::Uint(v.into()), None),
                    Value::Int(v) => (Json::Int(v), None),
                    Value::Bool(b) => (Json::Bool(b), None),
                    Value::Enum { raw, name } => (Json::Uint(raw.into()), Some(name)),
                    Value::Float { value, .. } if value.is_finite() => (Json::Float(value), None),
                    Value::Float { value, .. } => (Json::Str(value.to_string()), None),
                };
                FieldValue { name: f.name, raw: bits, value, meaning }
            })
            .collect()
    }

    /// One line `name=value ...`, plus `unknown=0x..` when bits outside every field are set.
    pub fn format(&self, raw: u32) -> String {
        let mut out = String::new();
        for f in self.fields {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(f.name);
            out.push('=');
            out.push_str(&f.value(f.get(raw)).to_string());
        }
        let unknown = raw & !self.known_mask();
        if unknown != 0 {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&format!("unknown=0x{unknown:08x}"));
        }
        out
    }
}

/// Conversion between a field's bits and the Rust type of the struct member.
pub trait FieldType: Copy {
    const KIND: Kind;
    fn from_bits(bits: u32) -> Self;
    fn to_bits(self) -> u32;
}

impl FieldType for u32 {
    const KIND: Kind = Kind::Uint;
    fn from_bits(bits: u32) -> Self {
        bits
    }
    fn to_bits(self) -> u32 {
        self
    }
}

/// An unsigned field printed in hex.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hex(pub u32);

impl FieldType for Hex {
    const KIND: Kind = Kind::Hex;
    fn from_bits(bits: u32) -> Self {
        Hex(bits)
    }
    fn to_bits(self) -> u32 {
        self.0
    }
}

impl FieldType for bool {
    const KIND: Kind = Kind::Bool;
    fn from_bits(bits: u32) -> Self {
        bits != 0
    }
    fn to_bits(self) -> u32 {
        self as u32
    }
}

/// A two's-complement field, sign-extended; the width comes from the field's bit range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Signed(pub u32);

impl FieldType for Signed {
    const KIND: Kind = Kind::Int;
    fn from_bits(bits: u32) -> Self {
        Signed(bits)
    }
    fn to_bits(self) -> u32 {
        self.0
    }
}

/// A `1.E.M` float field, kept as its bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Float<const E: u8, const M: u8>(pub u32);

impl<const E: u8, const M: u8> Float<E, M> {
    pub fn value(self) -> f64 {
        float_value(self.0, E, M)
    }
}

impl<const E: u8, const M: u8> FieldType for Float<E, M> {
    const KIND: Kind = Kind::Float { exp: E, mant: M };
    fn from_bits(bits: u32) -> Self {
        Float(bits)
    }
    fn to_bits(self) -> u32 {
        self.0
    }
}

/// float1.7.16, the shader float.
pub type F24 = Float<7, 16>;
/// float1.5.10.
pub type F16 = Float<5, 10>;
/// float1.7.12.
pub type F20 = Float<7, 12>;
/// float1.7.23.
pub type F31 = Float<7, 23>;

/// A fixed-point field (`S` sign bits, `I` integer bits, `F` fraction bits), kept as its bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fixed<const S: bool, const I: u8, const F: u8>(pub u32);

impl<const S: bool, const I: u8, const F: u8> FieldType for Fixed<S, I, F> {
    const KIND: Kind = Kind::Fixed { signed: S, int: I, frac: F };
    fn from_bits(bits: u32) -> Self {
        Fixed(bits)
    }
    fn to_bits(self) -> u32 {
        self.0
    }
}

/// Declares an enumeration of field values: the enum (with `Other(raw)` for values the page does
/// not list, so decoding keeps every bit), its name table and its `FieldType`.
macro_rules! pica_enum {
    (
        $(#[$meta:meta])*
        $name:ident { $( $raw:literal => $variant:ident $lname:literal ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $variant, )*
            /// A value the register page does not list.
            Other(u32),
        }

        impl $name {
            /// Raw value -> printed name, for every listed value.
            pub const NAMES: &'static [(u32, &'static str)] = &[ $( ($raw, $lname) ),* ];

            pub const fn from_raw(raw: u32) -> Self {
                match raw { $( $raw => $name::$variant, )* other => $name::Other(other) }
            }

            pub const fn raw(self) -> u32 {
                match self { $( $name::$variant => $raw, )* $name::Other(v) => v }
            }

            /// The printed name, `None` for `Other`.
            pub fn name(self) -> Option<&'static str> {
                let raw = self.raw();
                Self::NAMES.iter().find(|(v, _)| *v == raw).map(|(_, n)| *n)
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name::from_raw(0)
            }
        }

        impl $crate::regs::fields::FieldType for $name {
            const KIND: $crate::regs::fields::Kind = $crate::regs::fields::Kind::Enum(Self::NAMES);
            fn from_bits(bits: u32) -> Self {
                Self::from_raw(bits)
            }
            fn to_bits(self) -> u32 {
                self.raw()
            }
        }
    };
}
pub(crate) use pica_enum;

/// Declares a register layout: a struct with one member per field plus `unknown` (the bits no
/// field covers, kept so that `decode` then `encode` gives the same word), its [`Layout`]
/// (`LAYOUT`), `decode(raw)` and `encode()`.
macro_rules! pica_register {
    (
        $(#[$meta:meta])*
        $name:ident = $lname:literal {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = [$hi:literal : $lo:literal] ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
            /// Bits outside every field, as written.
            pub unknown: u32,
        }

        impl $name {
            /// The field table of this layout (the single source of its bits).
            pub const LAYOUT: $crate::regs::fields::Layout = $crate::regs::fields::Layout {
                name: $lname,
                fields: &[ $( $crate::regs::fields::Field {
                    name: stringify!($field),
                    hi: $hi,
                    lo: $lo,
                    kind: <$ty as $crate::regs::fields::FieldType>::KIND,
                } ),* ],
            };

            pub fn decode(raw: u32) -> Self {
                let mut _i = 0usize;
                $( let $field = <$ty as $crate::regs::fields::FieldType>::from_bits(Self::LAYOUT.fields[_i].get(raw)); _i += 1; )*
                Self { $( $field, )* unknown: raw & !Self::LAYOUT.known_mask() }
            }

            pub fn encode(&self) -> u32 {
                let mut raw = self.unknown & !Self::LAYOUT.known_mask();
                let mut _i = 0usize;
                $( raw = Self::LAYOUT.fields[_i].set(raw, $crate::regs::fields::FieldType::to_bits(self.$field)); _i += 1; )*
                raw
            }
        }
    };
}
pub(crate) use pica_register;

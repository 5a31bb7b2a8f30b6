//! Bit fields of the Latte instruction words, and the macro that turns one table per encoding
//! into its decoder, encoder and by-name field access.
//!
//! Every encoding (CF, CF_ALU, CF_ALLOC_EXPORT, ALU OP2/OP3, TEX, VTX) is written exactly once,
//! as a `word_layout!` invocation: each field once, as `name: wN[hi:lo] => member`. Decoding,
//! encoding, the JSON field listing and the properties the disassembler prints and the assembler
//! parses ([`Prop`]) are all driven from that table, so they cannot disagree (STYLE.md, "One
//! table per instruction set"). This is the scheme of `gx::fields` / `bp_register!`, for
//! multi-word instructions whose structs keep arrays and nested operands.

/// One named bit field of an instruction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Field name (`snake_case`, the struct member's name where they are one to one).
    pub name: &'static str,
    /// Word of the instruction the field lies in (0 = first).
    pub word: u8,
    /// Highest bit of the field (inclusive).
    pub hi: u8,
    /// Lowest bit of the field.
    pub lo: u8,
    /// Bit of the member's value the field's lowest bit holds (non-zero for the upper part of a
    /// value split over two fields, such as CF COUNT_3).
    pub shift: u8,
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

    /// The field's bits in `words`.
    pub const fn get(&self, words: &[u32]) -> u32 {
        (words[self.word as usize] & self.mask()) >> self.lo
    }

    /// Replaces the field's bits in `words` by `value` (truncated to the field's width).
    pub fn set(&self, words: &mut [u32], value: u32) {
        let w = &mut words[self.word as usize];
        *w = (*w & !self.mask()) | ((value << self.lo) & self.mask());
    }
}

/// The static description of one encoding: its name, word count and field table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Layout name (`cf`, `cf_alu`, `tex`, ...).
    pub name: &'static str,
    /// The fields, in table order.
    pub fields: &'static [Field],
}

impl Layout {
    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The largest value the member behind `name` can hold (all its parts together).
    pub fn max(&self, name: &str) -> u32 {
        let bits = self.field(name).map_or(0, |f| f.width() + f.shift as u32);
        let bits = self
            .fields
            .iter()
            .filter(|f| f.shift != 0 && f.name.starts_with(name))
            .fold(bits, |b, f| b.max(f.width() + f.shift as u32));
        ((1u64 << bits) - 1) as u32
    }

    /// Every field's raw bits in `words`, in table order.
    pub fn describe(&self, words: &[u32]) -> Vec<(&'static str, u32)> {
        self.fields.iter().map(|f| (f.name, f.get(words))).collect()
    }
}

/// Conversion between a field's bits and the Rust type of the struct member.
pub trait Bits: Copy {
    /// Builds from the bits.
    fn from_bits(v: u32) -> Self;
    /// The bits to encode.
    fn to_bits(self) -> u32;
}

macro_rules! bits_type {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            fn from_bits(v: u32) -> Self { v as $t }
            fn to_bits(self) -> u32 { self as u32 }
        }
    )*};
}
bits_type!(u8, u16, u32);

impl Bits for bool {
    fn from_bits(v: u32) -> Self {
        v != 0
    }
    fn to_bits(self) -> u32 {
        self as u32
    }
}

/// A type whose fields are listed in a [`Layout`] and can be read and written by name.
pub trait Fields {
    /// The field table.
    const LAYOUT: Layout;
    /// The member behind field `name` (0 when there is none).
    fn get(&self, name: &str) -> u32;
    /// Sets the member behind field `name`; false when there is none.
    fn set(&mut self, name: &str, v: u32) -> bool;
    /// Decodes the table's fields of `words` into `self` (other members are left as they are).
    fn unpack(&mut self, words: &[u32]);
    /// Encodes the table's fields of `self` into `words` (other bits are left as they are).
    fn pack(&self, words: &mut [u32]);
}

/// Declares the field table of an instruction struct: `Fields` with its `LAYOUT`, `unpack`,
/// `pack` and by-name access. Each field is `name: wN[hi:lo] => member` (the member a path such
/// as `kcache[0].bank`), with `<< n` for the upper part of a member split over two fields.
macro_rules! word_layout {
    (@w w0) => { 0 };
    (@w w1) => { 1 };
    (@w w2) => { 2 };
    (@w w3) => { 3 };
    (
        $ty:ty = $lname:literal {
            $( $fname:ident : $w:ident [$hi:literal : $lo:literal] $(<< $shift:literal)? => ($($m:tt)+) ),* $(,)?
        }
    ) => {
        impl $crate::isa::fields::Fields for $ty {
            const LAYOUT: $crate::isa::fields::Layout = $crate::isa::fields::Layout {
                name: $lname,
                fields: &[ $( $crate::isa::fields::Field {
                    name: stringify!($fname),
                    word: word_layout!(@w $w),
                    hi: $hi,
                    lo: $lo,
                    shift: 0 $(+ $shift)?,
                } ),* ],
            };

            fn get(&self, name: &str) -> u32 {
                $( if name == stringify!($fname) {
                    return $crate::isa::fields::Bits::to_bits(self.$($m)+);
                } )*
                0
            }

            fn set(&mut self, name: &str, v: u32) -> bool {
                $( if name == stringify!($fname) {
                    self.$($m)+ = $crate::isa::fields::Bits::from_bits(v);
                    return true;
                } )*
                false
            }

            fn unpack(&mut self, words: &[u32]) {
                use $crate::isa::fields::Bits;
                let mut _i = 0usize;
                $(
                    let f = &<Self as $crate::isa::fields::Fields>::LAYOUT.fields[_i];
                    let v = if f.shift == 0 { f.get(words) } else { self.$($m)+.to_bits() | f.get(words) << f.shift };
                    self.$($m)+ = Bits::from_bits(v);
                    _i += 1;
                )*
            }

            fn pack(&self, words: &mut [u32]) {
                use $crate::isa::fields::Bits;
                let mut _i = 0usize;
                $(
                    let f = &<Self as $crate::isa::fields::Fields>::LAYOUT.fields[_i];
                    f.set(words, self.$($m)+.to_bits() >> f.shift);
                    _i += 1;
                )*
            }
        }
    };
}
pub(crate) use word_layout;

/// How a property spells its field in the listing (`NAME`, `NAME(v)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `NAME` when the bit is set.
    Flag,
    /// `NAME` when the bit is clear (`NO_BARRIER`).
    NotFlag,
    /// `NAME(v)` when the value is not zero.
    Num,
    /// `NAME(v)`, always printed.
    NumAlways,
    /// `NAME(0x%08X)` when the value is not zero.
    Hex,
    /// `NAME(name)` when the value is not zero, the value named by the table.
    Named(&'static [&'static str]),
}

/// One property of a listing line that stands for one field: printed by the disassembler and
/// parsed by the assembler from this one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prop {
    /// The spelling the disassembler prints.
    pub text: &'static str,
    /// Other spellings the assembler accepts (decaf-emu's).
    pub aliases: &'static [&'static str],
    /// The field (a name of the encoding's [`Layout`]).
    pub field: &'static str,
    /// How the value is spelled.
    pub style: Style,
    /// What error messages call the value.
    pub what: &'static str,
}

impl Prop {
    /// A flag property.
    pub const fn flag(text: &'static str, field: &'static str) -> Prop {
        Prop { text, aliases: &[], field, style: Style::Flag, what: text }
    }
    /// A numeric property.
    pub const fn num(text: &'static str, field: &'static str) -> Prop {
        Prop { text, aliases: &[], field, style: Style::Num, what: text }
    }
    /// The same property with other accepted spellings.
    pub const fn or(self, aliases: &'static [&'static str]) -> Prop {
        Prop { aliases, ..self }
    }
    /// The same property with another spelling style.
    pub const fn styled(self, style: Style) -> Prop {
        Prop { style, ..self }
    }
    /// The same property with another name in error messages.
    pub const fn called(self, what: &'static str) -> Prop {
        Prop { what, ..self }
    }

    fn text_of<T: Fields>(&self, t: &T) -> Option<String> {
        let v = t.get(self.field);
        match self.style {
            Style::Flag => (v != 0).then(|| self.text.to_string()),
            Style::NotFlag => (v == 0).then(|| self.text.to_string()),
            Style::Num => (v != 0).then(|| format!("{}({v})", self.text)),
            Style::NumAlways => Some(format!("{}({v})", self.text)),
            Style::Hex => (v != 0).then(|| format!("{}(0x{v:08X})", self.text)),
            Style::Named(names) => {
                (v != 0).then(|| format!("{}({})", self.text, names.get(v as usize).copied().unwrap_or("?")))
            }
        }
    }

    /// Whether `p` is this property (`NAME` or `NAME(..)`, any accepted spelling): `Some` with
    /// the argument if it is.
    fn arg<'a>(&self, p: &'a str) -> Option<Option<&'a str>> {
        let mut names = std::iter::once(self.text).chain(self.aliases.iter().copied());
        if names.clone().any(|n| n == p) {
            return Some(None);
        }
        names.find_map(|n| Some(Some(p.strip_prefix(n)?.strip_prefix('(')?.strip_suffix(')')?)))
    }

    /// Whether `p` is a spelling of this property.
    pub fn spells(&self, p: &str) -> bool {
        self.arg(p).is_some()
    }

    /// Parses `p` into `t` if it is this property: `None` when it is not, else the outcome.
    fn parse<T: Fields>(&self, t: &mut T, p: &str) -> Option<Result<(), String>> {
        let arg = self.arg(p)?;
        let r = match (self.style, arg) {
            (Style::Flag, None) => Ok(1),
            (Style::NotFlag, None) => Ok(0),
            (Style::Num | Style::NumAlways | Style::Hex, Some(a)) => {
                crate::asm::lex::bounded(a, T::LAYOUT.max(self.field) as i64, self.what)
            }
            (Style::Named(names), Some(a)) => {
                names.iter().position(|n| *n == a).map(|v| v as u32).ok_or_else(|| format!("bad {} '{a}'", self.what))
            }
            _ => return None,
        };
        Some(r.map(|v| {
            t.set(self.field, v);
        }))
    }
}

/// The properties of `t` that `props` prints, in table order.
pub fn print_props<T: Fields>(t: &T, props: &[Prop]) -> Vec<String> {
    props.iter().filter_map(|p| p.text_of(t)).collect()
}

/// Parses property `p` into `t` if one of `props` spells it: `None` when none does.
pub fn parse_prop<T: Fields>(t: &mut T, props: &[Prop], p: &str) -> Option<Result<(), String>> {
    props.iter().find_map(|pr| pr.parse(t, p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_get_and_set_in_their_word() {
        let f = Field { name: "x", word: 1, hi: 29, lo: 23, shift: 0 };
        let mut w = [0u32, 0xFFFF_FFFF];
        assert_eq!(f.get(&w), 0x7F);
        f.set(&mut w, 0x1_05);
        assert_eq!(w[1], !f.mask() | 0x05 << 23);
        assert_eq!(w[0], 0);
    }

    /// Every bit of every word of each encoding lies in exactly one field of its table.
    #[test]
    fn every_encoding_covers_each_bit_once() {
        use crate::isa::{AluInst, CfAlu, CfExport, CfNormal, Op2, Op3, TexInst, VtxInst};
        let cases: [(&str, usize, Vec<&Layout>); 7] = [
            ("cf", 2, vec![&CfNormal::LAYOUT]),
            ("cf_alu", 2, vec![&CfAlu::LAYOUT]),
            ("cf_alloc_export", 2, vec![&CfExport::LAYOUT]),
            ("alu op2", 2, vec![&AluInst::LAYOUT, &Op2::LAYOUT]),
            ("alu op3", 2, vec![&AluInst::LAYOUT, &Op3::LAYOUT]),
            ("tex", 4, vec![&TexInst::LAYOUT]),
            ("vtx", 4, vec![&VtxInst::LAYOUT]),
        ];
        for (name, words, layouts) in cases {
            let mut seen = vec![0u32; words];
            for f in layouts.iter().flat_map(|l| l.fields) {
                assert!(f.hi >= f.lo && f.hi < 32, "{name}.{}", f.name);
                let w = &mut seen[f.word as usize];
                assert_eq!(*w & f.mask(), 0, "{name}.{} overlaps another field", f.name);
                *w |= f.mask();
            }
            assert!(seen.iter().all(|&w| w == u32::MAX), "{name}: bits outside every field {seen:08x?}");
        }
    }

    #[test]
    fn props_print_and_parse_through_the_table() {
        use crate::isa::cf::{CfNormal, CF_PROPS};
        let mut n = CfNormal { pop_count: 2, cond: 3, barrier: true, ..Default::default() };
        assert_eq!(print_props(&n, CF_PROPS), ["POP_CNT(2)", "CND(CF_NOT_BOOL)"]);
        assert_eq!(parse_prop(&mut n, CF_PROPS, "CALL_CNT(5)"), Some(Ok(())));
        assert_eq!(n.call_count, 5);
        assert_eq!(parse_prop(&mut n, CF_PROPS, "NO_BARRIER"), Some(Ok(())));
        assert!(!n.barrier);
        assert_eq!(parse_prop(&mut n, CF_PROPS, "WHOLE_QUAD"), Some(Ok(())));
        assert!(n.whole_quad_mode);
        assert!(parse_prop(&mut n, CF_PROPS, "POP_CNT(8)").unwrap().is_err());
        assert!(parse_prop(&mut n, CF_PROPS, "CND(SOMETIMES)").unwrap().is_err());
        assert_eq!(parse_prop(&mut n, CF_PROPS, "BOGUS"), None);
        // COUNT is split over two fields; its range is both together.
        assert_eq!(CfNormal::LAYOUT.max("count"), 15);
    }
}

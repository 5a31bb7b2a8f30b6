//! Register operands in picasso syntax: `-name[idx+off].swizzle`, aliases with swizzle
//! composition, index registers (`a0.x`, `a0.y`, `aL`, and the legacy `a0`, `a1`, `a2`/`lcnt`),
//! and condition expressions (`!cmp.x && cmp.y`). picasso's Manual.md "Basic concepts".

use std::collections::HashMap;

use super::error::ErrorKind;
use super::text::{c_atoi, c_strtoll, trim};

/// The register files an operand can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegKind {
    /// v0-v15.
    Input,
    /// o0-o15.
    Output,
    /// r0-r15.
    Temp,
    /// c0-c95.
    Float,
    /// i0-i3.
    Int,
    /// b0-b15.
    Bool,
}

impl RegKind {
    /// Number of registers of the kind (outputs depend on the shader type; see `max_output`).
    pub fn count(self) -> u32 {
        match self {
            RegKind::Input | RegKind::Output | RegKind::Temp | RegKind::Bool => 16,
            RegKind::Float => 96,
            RegKind::Int => 4,
        }
    }

    fn name(self) -> &'static str {
        match self {
            RegKind::Input => "input",
            RegKind::Output => "output",
            RegKind::Temp => "temporary",
            RegKind::Float => "floating-point vector uniform",
            RegKind::Int => "integer vector uniform",
            RegKind::Bool => "boolean uniform",
        }
    }
}

/// A register: kind and index within its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reg {
    pub kind: RegKind,
    pub index: u32,
}

impl Reg {
    /// The raw 7-bit source field value (v 0x00, r 0x10, c 0x20), for source-capable kinds.
    pub fn src_raw(self) -> Option<u8> {
        match self.kind {
            RegKind::Input => Some(self.index as u8),
            RegKind::Temp => Some(0x10 + self.index as u8),
            RegKind::Float => Some(0x20 + self.index as u8),
            _ => None,
        }
    }

    /// The raw 5-bit destination field value (o 0x00, r 0x10).
    pub fn dst_raw(self) -> Option<u8> {
        match self.kind {
            RegKind::Output => Some(self.index as u8),
            RegKind::Temp => Some(0x10 + self.index as u8),
            _ => None,
        }
    }

    /// The index in the DVLE's unified uniform space (3dbrew "SHBIN" "Uniform Table
    /// Entry": v 0x00, c 0x10, i 0x70, b 0x78).
    pub fn unified(self) -> u32 {
        match self.kind {
            RegKind::Input | RegKind::Output | RegKind::Temp => self.index,
            RegKind::Float => 0x10 + self.index,
            RegKind::Int => 0x70 + self.index,
            RegKind::Bool => 0x78 + self.index,
        }
    }
}

/// The identity selector `.xyzw` (component 0 in the top bits).
pub const IDENTITY: u8 = 0x1B;

/// A parsed operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    pub reg: Reg,
    /// Component selector, component 0 in bits 7..6.
    pub swizzle: u8,
    pub negate: bool,
    /// Relative index: 0 none, 1 a0.x, 2 a0.y, 3 aL.
    pub idx: u8,
}

impl Operand {
    /// picasso's 9-bit source field of an operand descriptor: negation bit, then the selector.
    pub fn src_bits(self) -> u32 {
        self.negate as u32 | (self.swizzle as u32) << 1
    }

    /// Destination mask from the selector (bit 3 = x): every component named is written.
    pub fn dest_mask(self) -> u8 {
        (0..4).fold(0, |m, i| m | 8 >> ((self.swizzle >> (6 - 2 * i)) & 3))
    }

    /// Output-table mask from the selector (bit 0 = x), as `.out` records it.
    pub fn out_mask(self) -> u8 {
        (0..4).fold(0, |m, i| m | 1 << ((self.swizzle >> (6 - 2 * i)) & 3))
    }
}

/// An alias: what `.alias`, `.fvec`, `.out`, `.in`, `.constf` ... bind a name to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alias {
    pub reg: Reg,
    pub swizzle: u8,
    pub negate: bool,
}

/// The aliases of the file being assembled.
pub type Aliases = HashMap<String, Alias>;

/// Parses a swizzle: 1 to 4 of `xyzw`/`rgba`/`stpq`, the last repeated to fill four.
pub fn parse_swizzle(text: &str) -> Option<u8> {
    let b = text.as_bytes();
    if b.is_empty() || b.len() > 4 {
        return None;
    }
    let mut out = 0u8;
    let mut last = 0u8;
    for i in 0..4 {
        if let Some(&c) = b.get(i) {
            last = match c.to_ascii_lowercase() {
                b'x' | b'r' | b's' => 0,
                b'y' | b'g' | b't' => 1,
                b'z' | b'b' | b'p' => 2,
                b'w' | b'a' | b'q' => 3,
                _ => return None,
            };
        }
        out |= last << (6 - 2 * i);
    }
    Some(out)
}

/// The index register named by `name`, new names and legacy ones.
pub fn index_register(name: &str) -> Option<u8> {
    match name {
        "a0.x" | "a0" => Some(1),
        "a0.y" | "a1" => Some(2),
        "aL" | "al" | "a2" | "lcnt" => Some(3),
        _ => None,
    }
}

/// Parses a bare register name (`r3`, `c95`, ...) with the shader's output count.
pub fn parse_register(text: &str, max_output: u32) -> Result<Reg, ErrorKind> {
    let mut chars = text.chars();
    let kind = match chars.next() {
        Some('o') => RegKind::Output,
        Some('v') => RegKind::Input,
        Some('r') => RegKind::Temp,
        Some('c') => RegKind::Float,
        Some('i') => RegKind::Int,
        Some('b') => RegKind::Bool,
        _ => return Err(ErrorKind::InvalidRegister(text.to_string())),
    };
    let digits = chars.as_str();
    if !digits.starts_with(|c: char| c.is_ascii_digit()) || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(ErrorKind::InvalidRegister(text.to_string()));
    }
    let value = c_strtoll(digits).unwrap_or(i64::MAX);
    let max = if kind == RegKind::Output { max_output } else { kind.count() };
    if value < 0 || value >= max as i64 {
        return Err(ErrorKind::RegisterOutOfRange { what: kind.name(), text: text.to_string() });
    }
    Ok(Reg { kind, index: value as u32 })
}

/// Parses an operand. `allow_idx` says whether a relative index register may appear.
pub fn parse_operand(text: &str, aliases: &Aliases, allow_idx: bool, max_output: u32) -> Result<Operand, ErrorKind> {
    let full = text;
    let (negate, text) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text),
    };
    let (base, index_text, swizzle_text) = match text.find('[') {
        Some(open) => {
            let close =
                text[open..].find(']').map(|c| open + c).ok_or_else(|| ErrorKind::MissingBracket(full.to_string()))?;
            let after = &text[close + 1..];
            let swz = match after.strip_prefix('.') {
                Some(s) => Some(s),
                None if after.is_empty() => None,
                None => return Err(ErrorKind::InvalidRegister(full.to_string())),
            };
            (&text[..open], Some(trim(&text[open + 1..close])), swz)
        }
        None => match text.find('.') {
            Some(dot) => (&text[..dot], None, Some(&text[dot + 1..])),
            None => (text, None, None),
        },
    };
    let mut swizzle = IDENTITY;
    if let Some(s) = swizzle_text {
        swizzle = parse_swizzle(s).ok_or_else(|| ErrorKind::InvalidSwizzle(s.to_string()))?;
    }
    let mut idx = 0;
    let mut offset = 0u32;
    if let Some(inner) = index_text {
        let offset_text = if let Some(i) = index_register(inner) {
            idx = i;
            None
        } else if let Some(plus) = inner.find('+') {
            let name = trim(&inner[..plus]);
            idx = index_register(name)
                .ok_or_else(|| ErrorKind::Invalid { what: "index register", text: name.to_string() })?;
            Some(trim(&inner[plus + 1..]))
        } else {
            Some(inner)
        };
        if idx != 0 && !allow_idx {
            return Err(ErrorKind::IndexNotAllowed(inner.to_string()));
        }
        if let Some(o) = offset_text {
            match c_atoi(o) {
                Some(v) if (0..=255).contains(&v) && o.chars().all(|c| c.is_ascii_digit()) => offset = v as u32,
                _ => return Err(ErrorKind::InvalidOffset(o.to_string())),
            }
        }
    }
    let (reg, negate, swizzle) = if let Some(a) = aliases.get(base) {
        // Compose: the operand's selector picks among the alias's components.
        let mut composed = 0u8;
        for j in 0..4 {
            let comp = (swizzle >> (6 - 2 * j)) & 3;
            composed |= ((a.swizzle >> (6 - 2 * comp)) & 3) << (6 - 2 * j);
        }
        (a.reg, negate ^ a.negate, composed)
    } else {
        (parse_register(base, max_output)?, negate, swizzle)
    };
    // picasso indexes only float uniforms (c registers): the hardware adds the address register
    // to constant sources alone.
    if idx != 0 && reg.kind != RegKind::Float {
        return Err(ErrorKind::IndexNotAllowedWithKind);
    }
    let max = if reg.kind == RegKind::Output { max_output } else { reg.kind.count() };
    let index = reg.index + offset;
    if index >= max {
        return Err(ErrorKind::RegisterOutOfRange { what: reg.kind.name(), text: full.to_string() });
    }
    Ok(Operand { reg: Reg { kind: reg.kind, index }, swizzle, negate, idx })
}

/// A parsed condition expression: the format-2 CONDOP and reference bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CondExpr {
    /// 0 OR, 1 AND, 2 X only, 3 Y only.
    pub op: u8,
    pub refx: bool,
    pub refy: bool,
}

fn cond_flag(text: &str) -> Result<(u8, bool), ErrorKind> {
    let negations = text.len() - text.trim_start_matches('!').len();
    let name = &text[negations..];
    let which = if name.eq_ignore_ascii_case("cmp.x") {
        0
    } else if name.eq_ignore_ascii_case("cmp.y") {
        1
    } else {
        return Err(ErrorKind::InvalidCondition(name.to_string()));
    };
    Ok((which, negations & 1 == 0))
}

/// Parses `flag`, `flag && flag` (or `&`), `flag || flag` (or `|`); a flag is `cmp.x` or `cmp.y`
/// with any number of `!`.
pub fn parse_condition(text: &str) -> Result<CondExpr, ErrorKind> {
    let mut refs = [true, true];
    match text.find(['&', '|']) {
        Some(pos) => {
            let kind = text.as_bytes()[pos];
            let mut second = &text[pos + 1..];
            if second.as_bytes().first() == Some(&kind) {
                second = &second[1..];
            }
            let (a, ra) = cond_flag(trim(&text[..pos]))?;
            let (b, rb) = cond_flag(trim(second))?;
            if a == b {
                return Err(ErrorKind::ConditionTwice);
            }
            refs[a as usize] = ra;
            refs[b as usize] = rb;
            Ok(CondExpr { op: if kind == b'&' { 1 } else { 0 }, refx: refs[0], refy: refs[1] })
        }
        None => {
            let (a, ra) = cond_flag(trim(text))?;
            refs[a as usize] = ra;
            Ok(CondExpr { op: 2 + a, refx: refs[0], refy: refs[1] })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzles_fill_with_last_component() {
        assert_eq!(parse_swizzle("xyzw"), Some(0x1B));
        assert_eq!(parse_swizzle("y"), Some(0x55));
        assert_eq!(parse_swizzle("xy"), Some(0x15));
        assert_eq!(parse_swizzle("rgba"), Some(0x1B));
        assert_eq!(parse_swizzle("xyzwx"), None);
        assert_eq!(parse_swizzle("q"), Some(0xFF));
    }

    #[test]
    fn alias_swizzles_compose() {
        // Manual.md: someAlias = c0.wyxz, someAlias.xxww == c0.wwzz
        let mut aliases = Aliases::new();
        let wyxz = parse_swizzle("wyxz").unwrap();
        aliases.insert(
            "someAlias".into(),
            Alias { reg: Reg { kind: RegKind::Float, index: 0 }, swizzle: wyxz, negate: false },
        );
        let op = parse_operand("someAlias.xxww", &aliases, true, 16).unwrap();
        assert_eq!(op.swizzle, parse_swizzle("wwzz").unwrap());
        let op = parse_operand("-someAlias[2]", &aliases, true, 16).unwrap();
        assert_eq!((op.reg.index, op.negate), (2, true));
    }

    #[test]
    fn relative_addressing() {
        let a = Aliases::new();
        let op = parse_operand("c10[a0.x+1].x", &a, true, 16).unwrap();
        assert_eq!((op.reg.index, op.idx, op.swizzle), (11, 1, 0));
        assert_eq!(parse_operand("c10[lcnt]", &a, true, 16).unwrap().idx, 3);
        assert_eq!(parse_operand("c10[aL + 2]", &a, true, 16).unwrap().reg.index, 12);
        assert!(matches!(parse_operand("c10[a0.x]", &a, false, 16), Err(ErrorKind::IndexNotAllowed(_))));
        assert!(matches!(parse_operand("c10[-1]", &a, true, 16), Err(ErrorKind::InvalidOffset(_))));
        assert!(parse_operand("c95[1]", &a, true, 16).is_err());
        // Only float uniforms take an index register; an offset alone is fine on any kind.
        for text in ["r0[a0.x]", "v3[aL]", "r2[a0.y+1]"] {
            assert_eq!(parse_operand(text, &a, true, 16), Err(ErrorKind::IndexNotAllowedWithKind), "{text}");
        }
        assert_eq!(parse_operand("r0[1]", &a, true, 16).unwrap().reg, Reg { kind: RegKind::Temp, index: 1 });
    }

    #[test]
    fn conditions() {
        assert_eq!(parse_condition("cmp.x").unwrap(), CondExpr { op: 2, refx: true, refy: true });
        assert_eq!(parse_condition("!cmp.y").unwrap(), CondExpr { op: 3, refx: true, refy: false });
        assert_eq!(parse_condition("cmp.x || !cmp.y").unwrap(), CondExpr { op: 0, refx: true, refy: false });
        assert_eq!(parse_condition("!cmp.x & cmp.y").unwrap(), CondExpr { op: 1, refx: false, refy: true });
        assert!(parse_condition("cmp.x && cmp.x").is_err());
        assert!(parse_condition("cmp.z").is_err());
    }
}

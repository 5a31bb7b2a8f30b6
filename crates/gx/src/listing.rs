//! Reading back the register listing that [`BpRegs::print`] writes, so that printer and parser
//! are inverses (STYLE.md): every line gives its address, its raw value and every field; the
//! parser rebuilds the value from the fields and checks it against the raw value.

use crate::bp::{format_register, BpRegs};
use crate::regs::layout_of;

/// A listing error: the 1-based line and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ListingError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn hex(s: &str, what: &str) -> Result<u32, String> {
    let t = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .ok_or_else(|| format!("{what} {s:?} does not start with 0x"))?;
    u32::from_str_radix(t, 16).map_err(|_| format!("{what} {s:?} is not hexadecimal"))
}

/// Parses one line as [`format_register`] writes it; returns (address, value).
///
/// # Errors
/// A malformed line, an unknown field, a value name that does not match its value, or fields
/// that disagree with the raw value.
pub fn parse_line(line: &str) -> Result<(u8, u32), String> {
    let (head, fields) = match line.split_once(": ") {
        Some((h, f)) => (h, Some(f)),
        None => (line, None),
    };
    let mut parts = head.split_whitespace();
    let address = hex(parts.next().ok_or("empty line")?, "address")?;
    let address = u8::try_from(address).map_err(|_| format!("address {address:#x} is above 0xFF"))?;
    let name = parts.next().ok_or("missing register name")?;
    if parts.next() != Some("=") {
        return Err("expected `=` after the register name".into());
    }
    let raw = hex(parts.next().ok_or("missing raw value")?, "value")?;
    if raw > 0xFF_FFFF {
        return Err(format!("value {raw:#x} is wider than 24 bits"));
    }
    let Some((expected_name, layout)) = layout_of(address, raw) else {
        if fields.is_some() || name != format!("bp_{address:02x}") {
            return Err(format!("register 0x{address:02X} has no fields; expected `bp_{address:02x}`"));
        }
        return Ok((address, raw));
    };
    if name != expected_name {
        return Err(format!("register 0x{address:02X} with value {raw:#08x} is {expected_name}, not {name}"));
    }
    let mut rebuilt = 0u32;
    let mut seen = vec![false; layout.fields.len()];
    for tok in fields.ok_or("missing fields after `:`")?.split_whitespace() {
        let (fname, rest) = tok.split_once('=').ok_or_else(|| format!("field {tok:?} has no `=`"))?;
        if fname == "unused" {
            rebuilt |= hex(rest, "unused bits")?;
            continue;
        }
        let (num, meaning) = match rest.split_once('(') {
            Some((n, m)) => (n, Some(m.strip_suffix(')').ok_or_else(|| format!("field {tok:?}: unclosed `(`"))?)),
            None => (rest, None),
        };
        let i = layout
            .fields
            .iter()
            .position(|f| f.name == fname)
            .ok_or_else(|| format!("{expected_name} has no field {fname:?}"))?;
        let f = &layout.fields[i];
        let value: i64 = num.parse().map_err(|_| format!("field {fname}: {num:?} is not a number"))?;
        if f.get(f.set(0, value)) != value {
            return Err(format!("field {fname}: {value} does not fit in {} bits", f.width()));
        }
        if let Some(m) = meaning {
            if f.value_name(value) != Some(m) {
                return Err(format!("field {fname}: value {value} is not named {m:?}"));
            }
        }
        seen[i] = true;
        rebuilt = f.set(rebuilt, value);
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(format!("field {} is missing", layout.fields[i].name));
    }
    if rebuilt != raw {
        return Err(format!("fields give {rebuilt:#08x} but the raw value is {raw:#08x}"));
    }
    Ok((address, raw))
}

/// Parses a whole listing (blank lines and lines starting with `#` are skipped).
///
/// # Errors
/// The first bad line, with its number.
pub fn parse(text: &str) -> Result<Vec<(u8, u32)>, ListingError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push(parse_line(t).map_err(|message| ListingError { line: i + 1, message })?);
    }
    Ok(out)
}

/// Applies a parsed listing to a fresh register file.
///
/// # Errors
/// As [`parse`].
pub fn to_regs(text: &str) -> Result<BpRegs, ListingError> {
    let mut regs = BpRegs::new();
    for (a, v) in parse(text)? {
        regs.write(a, v);
    }
    Ok(regs)
}

/// The listing line of one write (the same as [`format_register`]).
pub fn line(address: u8, value: u32) -> String {
    format_register(address, value)
}

//! Lexing the way picasso does: one statement per line, `;` comments, `label:` prefixes, then the
//! command word and its arguments split on `,` (or spaces, or `(` for some directives), and C's
//! number syntax for values (picasso reads them with `atoi`, `atof` and `strtoll`).

/// C's `isspace` in the "C" locale.
pub fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0B' | '\x0C' | '\r')
}

/// Trims C whitespace at both ends.
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// The part of a line before its `;` comment.
pub fn strip_comment(line: &str) -> &str {
    match line.find(';') {
        Some(i) => &line[..i],
        None => line,
    }
}

/// picasso's identifier rule: letters, `_`, `$`, and digits after the first character.
/// Unlike picasso, the empty string is not an identifier.
pub fn is_identifier(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .enumerate()
            .all(|(i, c)| c.is_ascii_alphabetic() || c == '_' || c == '$' || (i > 0 && c.is_ascii_digit()))
}

/// A cursor over a statement's arguments with picasso's `strtok`-like splitting: a token runs to
/// the first delimiter, which is consumed; nothing is left once the rest is empty.
#[derive(Debug, Clone)]
pub struct Args<'a> {
    rest: &'a str,
}

impl<'a> Args<'a> {
    pub fn new(rest: &'a str) -> Args<'a> {
        Args { rest }
    }

    /// The unconsumed text.
    pub fn rest(&self) -> &'a str {
        self.rest
    }

    /// The next token up to any of `delims`, untrimmed; `None` when nothing is left.
    pub fn raw(&mut self, delims: &[char]) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        match self.rest.find(delims) {
            Some(i) => {
                let tok = &self.rest[..i];
                let d = self.rest[i..].chars().next().map_or(1, char::len_utf8);
                self.rest = &self.rest[i + d..];
                Some(tok)
            }
            None => {
                let tok = self.rest;
                self.rest = "";
                Some(tok)
            }
        }
    }

    /// The next comma-separated argument, trimmed.
    pub fn comma(&mut self) -> Option<&'a str> {
        self.raw(&[',']).map(trim)
    }

    /// The next space-separated word, trimmed; following whitespace is skipped.
    pub fn word(&mut self) -> Option<&'a str> {
        let tok = self.raw(&[' ', '\t'])?;
        self.rest = self.rest.trim_start_matches(is_space);
        Some(trim(tok))
    }

    /// The text up to the next `(`, trimmed.
    pub fn until_paren(&mut self) -> Option<&'a str> {
        self.raw(&['(']).map(trim)
    }

    /// True when no further comma-separated argument exists (picasso's "too many parameters" test).
    pub fn is_done(&mut self) -> bool {
        self.clone().comma().is_none()
    }
}

/// The longest prefix of `s` (after leading whitespace) that C's `strtod` reads, as f64; `None`
/// when there is no number at all. Handles decimal and hexadecimal floats, `inf` and `nan`.
pub fn c_atof(s: &str) -> Option<f64> {
    let s = s.trim_start_matches(is_space);
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let neg = b.first() == Some(&b'-');
    let body = &s[i..];
    let lower = body.to_ascii_lowercase();
    if lower.starts_with("inf") {
        return Some(if neg { f64::NEG_INFINITY } else { f64::INFINITY });
    }
    if lower.starts_with("nan") {
        return Some(f64::NAN);
    }
    if lower.starts_with("0x") {
        return hex_float(&body[2..]).map(|v| if neg { -v } else { v });
    }
    let start = i;
    let digits = |i: &mut usize| {
        let s0 = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - s0
    };
    let mut n = digits(&mut i);
    if i < b.len() && b[i] == b'.' {
        i += 1;
        n += digits(&mut i);
    }
    if n == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if digits(&mut j) > 0 {
            i = j;
        }
    }
    let _ = start;
    s[..i].parse::<f64>().ok()
}

fn hex_float(s: &str) -> Option<f64> {
    let mut value = 0f64;
    let mut any = false;
    let mut scale = 0i32;
    let mut chars = s.chars().peekable();
    while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
        value = value * 16.0 + d as f64;
        any = true;
        chars.next();
    }
    if chars.peek() == Some(&'.') {
        chars.next();
        while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
            value = value * 16.0 + d as f64;
            scale -= 4;
            any = true;
            chars.next();
        }
    }
    if !any {
        return Some(0.0); // "0x" alone reads as 0 followed by garbage
    }
    if matches!(chars.peek(), Some('p' | 'P')) {
        let rest: String = chars.skip(1).collect();
        let (sign, digits) = match rest.strip_prefix('-') {
            Some(d) => (-1, d),
            None => (1, rest.strip_prefix('+').unwrap_or(&rest)),
        };
        let n: String = digits.chars().take_while(char::is_ascii_digit).take(6).collect();
        if let Ok(e) = n.parse::<i32>() {
            scale += sign * e;
        }
    }
    Some(value * 2f64.powi(scale.clamp(-2000, 2000)))
}

/// C's `atoi` (decimal prefix after whitespace, saturating instead of overflowing); `None` when
/// there are no digits.
pub fn c_atoi(s: &str) -> Option<i64> {
    let s = s.trim_start_matches(is_space);
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let n: &str = &digits[..digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len())];
    if n.is_empty() {
        return None;
    }
    let mut v: i64 = 0;
    for d in n.bytes() {
        v = v.saturating_mul(10).saturating_add((d - b'0') as i64);
    }
    Some(if neg { -v } else { v })
}

/// C's `strtoll(s, _, 0)` on the whole of `s`: decimal, `0x` hex or leading-`0` octal; `None`
/// unless some digits were read. Trailing text is ignored as picasso does.
pub fn c_strtoll(s: &str) -> Option<i64> {
    let s = s.trim_start_matches(is_space);
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if h.starts_with(|c: char| c.is_ascii_hexdigit()) {
            (16, h)
        } else {
            (10, "0")
        }
    } else if body.starts_with('0') {
        (8, body)
    } else {
        (10, body)
    };
    let n: &str = &digits[..digits.find(|c: char| !c.is_digit(radix)).unwrap_or(digits.len())];
    if n.is_empty() {
        return None;
    }
    let mut v: i64 = 0;
    for c in n.chars() {
        v = v.saturating_mul(radix as i64).saturating_add(c.to_digit(radix).unwrap_or(0) as i64);
    }
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_split_like_strtok() {
        let mut a = Args::new("r0.xyz, inpos ,  c1");
        assert_eq!(a.comma(), Some("r0.xyz"));
        assert_eq!(a.comma(), Some("inpos"));
        assert!(!a.is_done());
        assert_eq!(a.comma(), Some("c1"));
        assert!(a.is_done());
        assert_eq!(a.comma(), None);
        let mut w = Args::new("zeros   myconst.xxxx");
        assert_eq!(w.word(), Some("zeros"));
        assert_eq!(w.word(), Some("myconst.xxxx"));
        assert_eq!(w.word(), None);
    }

    #[test]
    fn c_numbers() {
        assert_eq!(c_atof("0.003921568393707275390625"), Some(0.003_921_568_393_707_275));
        assert_eq!(c_atof(" -1.5e2x"), Some(-150.0));
        assert_eq!(c_atof("1e"), Some(1.0));
        assert_eq!(c_atof(".5"), Some(0.5));
        assert_eq!(c_atof("0x1p4"), Some(16.0));
        assert_eq!(c_atof("abc"), None);
        assert_eq!(c_atoi(" 12abc"), Some(12));
        assert_eq!(c_atoi("-3"), Some(-3));
        assert_eq!(c_atoi("x"), None);
        assert_eq!(c_strtoll("0x1F"), Some(31));
        assert_eq!(c_strtoll("010"), Some(8));
        assert_eq!(c_strtoll("7"), Some(7));
    }

    #[test]
    fn identifiers() {
        assert!(is_identifier("my$Name_2"));
        assert!(!is_identifier("2abc"));
        assert!(!is_identifier(""));
        assert!(!is_identifier("a.b"));
    }
}

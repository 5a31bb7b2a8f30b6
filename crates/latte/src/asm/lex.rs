//! Line lexing for the assembler: operands split at top-level commas, then properties.

/// One source line broken into its parts.
#[derive(Debug, Clone)]
pub(crate) struct Parts {
    /// Operands (as many as asked for).
    pub ops: Vec<String>,
    /// Whitespace-separated properties after the last operand.
    pub props: Vec<String>,
}

/// Removes whitespace inside (), [] so that `KCACHE0( CB1 : 0 - 15 )` is one token.
fn squeeze(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if depth > 0 && c.is_whitespace() {
            continue;
        }
        out.push(c);
    }
    out
}

/// Splits `s` into `n` comma-separated operands and trailing properties.
pub(crate) fn split(s: &str, n: usize) -> Result<Parts, String> {
    let s = squeeze(s);
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    parts.push(cur);
    if n == 0 {
        if parts.len() > 1 {
            return Err(format!("unexpected operands: {}", s.trim()));
        }
        let props = parts[0].split_whitespace().map(str::to_string).collect();
        return Ok(Parts { ops: vec![], props });
    }
    if parts.len() != n {
        return Err(format!("expected {n} operands, found {}: {}", parts.len(), s.trim()));
    }
    let mut ops: Vec<String> = Vec::with_capacity(n);
    for p in &parts[..n - 1] {
        let t = p.trim();
        if t.is_empty() || t.contains(char::is_whitespace) && !t.starts_with('|') {
            return Err(format!("bad operand '{t}'"));
        }
        ops.push(t.replace(' ', ""));
    }
    let last = parts[n - 1].trim();
    let mut it = last.split_whitespace();
    let first = it.next().ok_or("missing operand")?;
    ops.push(first.to_string());
    let props = it.map(str::to_string).collect();
    Ok(Parts { ops, props })
}

/// A decimal or 0x-hex number, optionally negative.
pub(crate) fn num(s: &str) -> Result<i64, String> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16)
    } else {
        t.parse::<i64>()
    }
    .map_err(|_| format!("bad number '{s}'"))?;
    Ok(if neg { -v } else { v })
}

/// `NAME(arg)` -> arg.
pub(crate) fn arg<'a>(prop: &'a str, name: &str) -> Option<&'a str> {
    prop.strip_prefix(name)?.strip_prefix('(')?.strip_suffix(')')
}

/// A number that must fit `max`.
pub(crate) fn bounded(s: &str, max: i64, what: &str) -> Result<u32, String> {
    let v = num(s)?;
    if v < 0 || v > max {
        return Err(format!("{what} {v} out of range 0..={max}"));
    }
    Ok(v as u32)
}

//! Parsing ALU instruction lines (operands, literals, relative addressing, properties).

use super::lex::{arg, bounded, num, split};
use crate::isa::alu::{sel, AluInst, AluKind, AluSrc, Op2, Op3, ALU_PROPS, OP2_PROPS};
use crate::isa::fields::parse_prop;
use crate::isa::names::*;
use crate::isa::table;

pub(crate) type R<T> = std::result::Result<T, String>;

/// Literal constants of the group being assembled, by channel.
#[derive(Default, Clone, Debug)]
pub(crate) struct LitCtx {
    pub lits: [Option<u32>; 4],
    /// Float literals 0.0, 1.0 and 0.5 become the inline constants ([`Literals::Inline`]).
    pub inline: bool,
}

/// How a float literal equal to an inline constant (0.0, 1.0, 0.5) is assembled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Literals {
    /// In a literal slot, as every literal (the latte-assembler that wrote the corpus files).
    #[default]
    Slots,
    /// As the inline constant IMM_0 / IMM_1 / IMM_0_5 (ALU_SRC_0, ALU_SRC_1, ALU_SRC_0_5), as the
    /// newer latte-assembler does: a literal written with a float part (`0.0f`, `1.0`, `(0x0,
    /// 0.0)`) whose value is 0.0 (and whose hex part, if any, is 0), 1.0 or 0.5. Hex-only
    /// literals always take a slot.
    Inline,
}

impl LitCtx {
    /// The channel a literal without an explicit channel gets: the first free one (the
    /// latte-assembler numbers literals in order of appearance).
    pub fn natural(&self) -> Option<u8> {
        self.lits.iter().position(|l| l.is_none()).map(|c| c as u8)
    }
    fn place(&mut self, chan: Option<u8>, v: u32) -> R<u8> {
        let c = match chan {
            Some(c) => c,
            None => self.natural().ok_or("more than 4 literal constants in one group")?,
        };
        match self.lits[c as usize] {
            Some(old) if old != v => {
                return Err(format!("literal {} given two values ({old:#x}, {v:#x})", CHAN[c as usize] as char))
            }
            _ => self.lits[c as usize] = Some(v),
        }
        Ok(c)
    }
}

/// One parsed ALU line.
#[derive(Debug, Clone)]
pub(crate) struct AluLine {
    pub inst: AluInst,
    pub nolast: bool,
    pub lit_override: Option<Vec<u32>>,
}

pub(crate) fn chan_of(c: char) -> R<u8> {
    match c.to_ascii_lowercase() {
        'x' => Ok(0),
        'y' => Ok(1),
        'z' => Ok(2),
        'w' => Ok(3),
        _ => Err(format!("bad channel '{c}'")),
    }
}

fn index_mode(s: &str) -> R<u8> {
    let t = s.strip_prefix('[').and_then(|t| t.strip_suffix(']')).ok_or("bad relative index")?;
    if let Some(i) = INDEX_MODE.iter().position(|m| m.eq_ignore_ascii_case(t)) {
        return Ok(i as u8);
    }
    if let Some(n) = t.strip_prefix("IDX") {
        return Ok(bounded(n, 7, "index mode")? as u8);
    }
    Err(format!("bad relative index '{s}'"))
}

/// Splits a source operand into its base (`R3`, `KC0[4]`, `0x3F800000`, `(0x..,1.0)`, `2.5f`,
/// `PV1`), its relative index (`[AR.x]`) and its channel letter.
fn split_operand(t: &str) -> Option<(&str, Option<&str>, Option<char>)> {
    let bytes = t.as_bytes();
    let end = if t.starts_with('(') {
        t.find(')')? + 1
    } else if t.starts_with("0x") || t.starts_with("0X") {
        2 + t[2..].find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(t.len() - 2)
    } else if t.starts_with(|c: char| c.is_ascii_digit()) {
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            let dot_chan = c == b'.' && bytes.get(i + 1).is_some_and(|n| b"xyzwXYZW".contains(n));
            if dot_chan || !(c.is_ascii_digit() || b".e+-f".contains(&c)) {
                break;
            }
            i += 1;
        }
        i
    } else if t.starts_with("KC") {
        t.find(']')? + 1
    } else {
        t.find(['[', '.']).unwrap_or(t.len())
    };
    let (base, mut rest) = t.split_at(end);
    let mut rel = None;
    if rest.starts_with('[') {
        let e = rest.find(']')? + 1;
        rel = Some(&rest[..e]);
        rest = &rest[e..];
    }
    let chan = match rest {
        "" => None,
        r if r.len() == 2 && r.starts_with('.') => r.chars().nth(1),
        _ => return None,
    };
    Some((base, rel, chan))
}

/// Splits "BASE[REL].c" into (base, rel, chan).
fn split_rel_chan(s: &str) -> (String, Option<String>, Option<char>) {
    let mut base = s.to_string();
    let mut chan = None;
    if let Some(p) = base.rfind('.') {
        let tail = &base[p + 1..];
        if tail.len() == 1
            && "xyzwXYZW".contains(tail)
            && !base[..p]
                .ends_with(|c: char| c.is_ascii_digit() && base.starts_with(|c: char| c.is_ascii_digit() || c == '-'))
        {
            chan = tail.chars().next();
            base.truncate(p);
        }
    }
    let mut rel = None;
    if base.ends_with(']') && !base.starts_with("KC") {
        if let Some(p) = base.rfind('[') {
            rel = Some(base[p..].to_string());
            base.truncate(p);
        }
    } else if base.starts_with("KC") {
        // KC0[n][AR.x]
        if let Some(p) = base.find("][") {
            rel = Some(base[p + 1..].to_string());
            base.truncate(p + 1);
        }
    }
    (base, rel, chan)
}

pub(crate) fn parse_float(s: &str) -> Option<f32> {
    let t = s.strip_suffix('f').unwrap_or(s);
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'e' || b == b'+') {
        return None;
    }
    t.parse::<f32>().ok()
}

/// Parses one ALU source operand.
fn alu_src(s: &str, default_chan: u8, lits: &mut LitCtx, index: &mut Option<u8>) -> R<(AluSrc, bool)> {
    let mut t = s;
    let mut src = AluSrc { chan: default_chan, ..Default::default() };
    if let Some(r) = t.strip_prefix('-') {
        src.neg = true;
        t = r;
    }
    let mut abs = false;
    let owned;
    if let Some(r) = t.strip_prefix('|') {
        let end = r.find('|').ok_or("unclosed |")?;
        owned = format!("{}{}", &r[..end], &r[end + 1..]);
        t = &owned;
        abs = true;
    }
    let (base, rel, chan) = split_operand(t).ok_or_else(|| format!("bad operand '{s}'"))?;
    if let Some(r) = rel {
        src.rel = true;
        let m = index_mode(r)?;
        if index.is_some_and(|i| i != m) {
            return Err("two different relative index modes in one instruction".into());
        }
        *index = Some(m);
    }
    // Literal forms: (0xHEX, float), 0xHEX, float.
    if base.starts_with('(')
        || base.starts_with("0x")
        || base.starts_with("0X")
        || base.starts_with(|c: char| c.is_ascii_digit())
    {
        let chan = chan.map(chan_of).transpose()?;
        let (hex, float) = if let Some(inner) = base.strip_prefix('(').and_then(|b| b.strip_suffix(')')) {
            let (h, f) = inner.split_once(',').ok_or("literal (hex, float) needs a comma")?;
            (Some(num(h)? as u32), parse_float(f))
        } else if base.starts_with("0x") || base.starts_with("0X") {
            (Some(num(base)? as u32), None)
        } else {
            (None, Some(parse_float(base).ok_or_else(|| format!("bad operand '{s}'"))?))
        };
        // By default every literal written in the source takes a literal slot, as in the
        // latte-assembler that wrote the corpus files; the newer one turns 0.0, 0.5 and 1.0
        // into inline constants (`Literals::Inline`).
        if lits.inline {
            let inline = match float {
                Some(f) if f == 0.0 && hex.is_none_or(|h| h == 0) => Some(sel::ZERO),
                Some(1.0) => Some(sel::ONE),
                Some(0.5) => Some(sel::HALF),
                _ => None,
            };
            if let Some(s) = inline {
                src.sel = s;
                if let Some(c) = chan {
                    src.chan = c;
                }
                return Ok((src, abs));
            }
        }
        let v = hex.unwrap_or_else(|| float.unwrap_or(0.0).to_bits());
        src.sel = sel::LITERAL;
        src.chan = lits.place(chan, v)?;
        return Ok((src, abs));
    }
    if let Some(c) = chan {
        src.chan = chan_of(c)?;
    }
    let b = base;
    src.sel = if let Some(n) = b.strip_prefix("KC0[").and_then(|n| n.strip_suffix(']')) {
        sel::KCACHE0 + bounded(n, 31, "kcache index")? as u16
    } else if let Some(n) = b.strip_prefix("KC1[").and_then(|n| n.strip_suffix(']')) {
        sel::KCACHE1 + bounded(n, 31, "kcache index")? as u16
    } else if b == "IMM_0" {
        sel::ZERO
    } else if b == "IMM_1" {
        sel::ONE
    } else if b == "IMM_0_5" {
        sel::HALF
    } else if b == "INT_1" {
        sel::ONE_INT
    } else if b == "INT_M1" {
        sel::MINUS_ONE_INT
    } else if let Some(n) = b.strip_prefix("PV") {
        if !n.is_empty() {
            num(n)?;
        }
        sel::PV
    } else if let Some(n) = b.strip_prefix("PS") {
        if !n.is_empty() {
            num(n)?;
        }
        sel::PS
    } else if let Some(n) = b.strip_prefix("SRC") {
        bounded(n, 511, "source selector")? as u16
    } else if let Some(n) = b.strip_prefix('R').or_else(|| b.strip_prefix('r')) {
        bounded(n, 127, "GPR")? as u16
    } else if let Some(n) = b.strip_prefix('C').or_else(|| b.strip_prefix('c')) {
        sel::CFILE + bounded(n, 255, "constant")? as u16
    } else {
        return Err(format!("bad operand '{s}'"));
    };
    Ok((src, abs))
}

/// Parses an ALU instruction after its slot letter: `OP[omod] dst, srcs... props`.
pub(crate) fn parse_alu(unit: u8, text: &str, lits: &mut LitCtx) -> R<AluLine> {
    let text = text.trim();
    let (name, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let (name, omod) = match OMOD.iter().enumerate().skip(1).find(|(_, m)| name.ends_with(*m)) {
        Some((i, m)) => (&name[..name.len() - m.len()], i as u8),
        None => (name, 0),
    };
    let (op3, code) = table::alu_by_name(name).ok_or_else(|| format!("unknown ALU instruction '{name}'"))?;
    let nsrc = if op3 {
        table::alu_op3(code).map_or(3, |o| o.srcs as usize)
    } else {
        table::alu_op2(code).map_or(2, |o| o.srcs as usize)
    };
    let parts = split(rest, nsrc + 1)?;
    let natural_chan = if unit < 4 { unit } else { 0 };
    let mut inst = AluInst {
        dst_chan: natural_chan,
        kind: if op3 {
            AluKind::Op3(Op3 { op: code, src2: AluSrc::default() })
        } else {
            AluKind::Op2(Op2 { op: code, write_mask: true, omod, ..Default::default() })
        },
        ..Default::default()
    };
    if op3 && omod != 0 {
        return Err("output modifiers are OP2 only".into());
    }
    let mut index = None;
    // Destination.
    let d = parts.ops[0].as_str();
    if d.chars().all(|c| c == '_') {
        match &mut inst.kind {
            AluKind::Op2(o) => o.write_mask = false,
            AluKind::Op3(_) => return Err("write mask ____ is only valid on an OP2 instruction".into()),
        }
    } else {
        let (base, rel, chan) = split_rel_chan(d);
        let g = base.strip_prefix('R').ok_or_else(|| format!("bad destination '{d}'"))?;
        inst.dst_gpr = bounded(g, 127, "GPR")? as u8;
        if let Some(c) = chan {
            inst.dst_chan = chan_of(c)?;
        }
        if let Some(r) = rel {
            inst.dst_rel = true;
            index = Some(index_mode(&r)?);
        }
    }
    let mut abs = [false; 2];
    let mut srcs = [AluSrc::default(); 3];
    for k in 0..nsrc {
        let (s, a) = alu_src(&parts.ops[k + 1], inst.dst_chan, lits, &mut index)?;
        if a && (op3 || k >= 2) {
            return Err("|abs| is only valid on OP2 sources 0 and 1".into());
        }
        if k < 2 {
            abs[k] = a;
        }
        srcs[k] = s;
    }
    inst.src0 = srcs[0];
    inst.src1 = srcs[1];
    match &mut inst.kind {
        AluKind::Op2(o) => o.abs = abs,
        AluKind::Op3(o) => o.src2 = srcs[2],
    }
    let mut line = AluLine { inst, nolast: false, lit_override: None };
    let mut raw = None;
    for p in &parts.props {
        let p = p.as_str();
        let i = &mut line.inst;
        if let Some(b) = VEC_BANK.iter().position(|n| *n == p) {
            i.bank_swizzle = b as u8;
        } else if let Some(b) = SCL_BANK.iter().position(|n| *n == p) {
            i.bank_swizzle = b as u8;
        } else if let Some(pr) = OP2_PROPS.iter().find(|pr| pr.spells(p)) {
            match &mut i.kind {
                AluKind::Op2(o) => parse_prop(o, OP2_PROPS, p).unwrap_or(Ok(()))?,
                AluKind::Op3(_) => return Err(format!("{} is OP2 only", pr.text)),
            }
        } else if p == "PRED_SEL_OFF" {
            i.pred_sel = 0;
        } else if p == "PRED_SEL_ZERO" {
            i.pred_sel = 2;
        } else if p == "PRED_SEL_ONE" {
            i.pred_sel = 3;
        } else if let Some(r) = parse_prop(i, ALU_PROPS, p) {
            r?;
        } else if p == "NO_WRITE" {
            match &mut i.kind {
                AluKind::Op2(o) => o.write_mask = false,
                AluKind::Op3(_) => return Err("NO_WRITE is OP2 only".into()),
            }
        } else if p == "NOLAST" {
            line.nolast = true;
        } else if let Some(a) = arg(p, "IDX") {
            index = Some(bounded(a, 7, "index mode")? as u8);
        } else if let Some(a) = arg(p, "BS") {
            i.bank_swizzle = bounded(a, 7, "bank swizzle")? as u8;
        } else if let Some(a) = arg(p, "RAW") {
            let (a, b) = a.split_once(',').ok_or("RAW needs two words")?;
            raw = Some((num(a)? as u32, num(b)? as u32));
        } else if let Some(a) = arg(p, "LIT") {
            let v: R<Vec<u32>> = a.split(',').map(|w| num(w).map(|v| v as u32)).collect();
            line.lit_override = Some(v?);
        } else {
            return Err(format!("unknown ALU property '{p}'"));
        }
    }
    line.inst.index_mode = index.unwrap_or(0);
    if let Some((a, b)) = raw {
        line.inst = AluInst::decode(a, b);
        line.inst.last = false;
    }
    Ok(line)
}

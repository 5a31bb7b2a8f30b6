//! Assembling program text: the syntax of decaf-emu's latte-assembler (CF lines `NN NAME ...`,
//! clause bodies with group numbers and slot letters, `END_OF_PROGRAM`), extended so that every
//! field the disassembler prints has a spelling (docs/latte-asm.md).

use super::lex::{arg, bounded, num, split};
use crate::error::{Error, Result};
use crate::isa::alu::{sel, AluInst, AluKind, AluSrc, Op2, Op3};
use crate::isa::cf::{CfAlu, CfExport, CfInst, CfNormal, ClauseKind, Kcache};
use crate::isa::fetch::{FetchInst, TexInst, VtxInst};
use crate::isa::names::*;
use crate::isa::program::{literal_words, AluGroup, Clause, ClauseBody, Program};
use crate::isa::table::{self, CfClass, ExpClass};

type R<T> = std::result::Result<T, String>;

/// Literal constants of the group being assembled, by channel.
#[derive(Default, Clone, Debug)]
pub(crate) struct LitCtx {
    pub lits: [Option<u32>; 4],
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
            Some(old) if old != v => return Err(format!("literal {} given two values ({old:#x}, {v:#x})", CHAN[c as usize] as char)),
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

fn chan_of(c: char) -> R<u8> {
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

/// Splits "BASE[REL].c" into (base, rel, chan).
fn split_rel_chan(s: &str) -> (String, Option<String>, Option<char>) {
    let mut base = s.to_string();
    let mut chan = None;
    if let Some(p) = base.rfind('.') {
        let tail = &base[p + 1..];
        if tail.len() == 1 && "xyzwXYZW".contains(tail) && !base[..p].ends_with(|c: char| c.is_ascii_digit() && base.starts_with(|c: char| c.is_ascii_digit() || c == '-')) {
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

fn parse_float(s: &str) -> Option<f32> {
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
    // Literal forms first: they may contain '.' and ','.
    let lit_form = t.starts_with('(') || t.starts_with("0x") || t.starts_with("0X") || t.starts_with(|c: char| c.is_ascii_digit());
    if lit_form {
        let (body, chan) = match t.rfind(").") {
            Some(p) if t.starts_with('(') => (&t[..p + 1], t[p + 2..].chars().next()),
            _ => match t.rfind('.') {
                Some(p) if t.starts_with("0x") && t.len() == p + 2 => (&t[..p], t[p + 1..].chars().next()),
                _ => (t, None),
            },
        };
        let chan = chan.map(chan_of).transpose()?;
        let (hex, float) = if let Some(inner) = body.strip_prefix('(').and_then(|b| b.strip_suffix(')')) {
            let (h, f) = inner.split_once(',').ok_or("literal (hex, float) needs a comma")?;
            (Some(num(h)? as u32), parse_float(f))
        } else if body.starts_with("0x") || body.starts_with("0X") {
            (Some(num(body)? as u32), None)
        } else {
            (None, Some(parse_float(body).ok_or_else(|| format!("bad operand '{s}'"))?))
        };
        // Every literal written in the source takes a literal slot, as in the latte-assembler
        // that wrote the corpus files (newer versions turn 0.0, 0.5 and 1.0 into inline
        // constants; write IMM_0, IMM_0_5, IMM_1 for those).
        let v = hex.unwrap_or_else(|| float.unwrap_or(0.0).to_bits());
        src.sel = sel::LITERAL;
        src.chan = lits.place(chan, v)?;
        return Ok((src, abs));
    }
    let (base, rel, chan) = split_rel_chan(t);
    if let Some(c) = chan {
        src.chan = chan_of(c)?;
    }
    if let Some(r) = rel {
        src.rel = true;
        let m = index_mode(&r)?;
        if index.is_some_and(|i| i != m) {
            return Err("two different relative index modes in one instruction".into());
        }
        *index = Some(m);
    }
    let b = base.as_str();
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
        src0: AluSrc::default(),
        src1: AluSrc::default(),
        index_mode: 0,
        pred_sel: 0,
        last: false,
        bank_swizzle: 0,
        dst_gpr: 0,
        dst_rel: false,
        dst_chan: natural_chan,
        clamp: false,
        kind: if op3 {
            AluKind::Op3(Op3 { op: code, src2: AluSrc::default() })
        } else {
            AluKind::Op2(Op2 { op: code, write_mask: true, omod, ..Default::default() })
        },
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
        } else if p == "UPDATE_EXEC_MASK" || p == "UPDATE_EXEC_MASK(DEACTIVATE)" {
            match &mut i.kind {
                AluKind::Op2(o) => o.update_exec_mask = true,
                AluKind::Op3(_) => return Err("UPDATE_EXEC_MASK is OP2 only".into()),
            }
        } else if p == "UPDATE_PRED" {
            match &mut i.kind {
                AluKind::Op2(o) => o.update_pred = true,
                AluKind::Op3(_) => return Err("UPDATE_PRED is OP2 only".into()),
            }
        } else if p == "PRED_SEL_OFF" {
            i.pred_sel = 0;
        } else if p == "PRED_SEL_ZERO" {
            i.pred_sel = 2;
        } else if p == "PRED_SEL_ONE" {
            i.pred_sel = 3;
        } else if p == "CLAMP" {
            i.clamp = true;
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

fn gpr_rel(s: &str) -> R<(u8, bool, &str)> {
    // R5, R5.xyzw, R5[AL].xy, R[AL+5]
    if let Some(r) = s.strip_prefix("R[AL+") {
        let end = r.find(']').ok_or("unclosed [")?;
        return Ok((bounded(&r[..end], 127, "GPR")? as u8, true, &r[end + 1..]));
    }
    let r = s.strip_prefix('R').ok_or_else(|| format!("expected a GPR, found '{s}'"))?;
    let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
    let n = bounded(&r[..end], 127, "GPR")? as u8;
    let rest = &r[end..];
    if let Some(t) = rest.strip_prefix("[AL]") {
        return Ok((n, true, t));
    }
    Ok((n, false, rest))
}

/// Four selectors from ".xyzw"-style text; missing components take `default`.
fn swizzle(s: &str, default: [u8; 4]) -> R<[u8; 4]> {
    let mut out = default;
    let Some(t) = s.strip_prefix('.') else {
        return if s.is_empty() { Ok(out) } else { Err(format!("bad swizzle '{s}'")) };
    };
    if t.len() > 4 || t.is_empty() {
        return Err(format!("bad swizzle '{s}'"));
    }
    for (i, c) in t.chars().enumerate() {
        let c = c.to_ascii_lowercase();
        out[i] = SEL_CHARS.iter().position(|&x| x as char == c).ok_or_else(|| format!("bad swizzle '{s}'"))? as u8;
    }
    Ok(out)
}

const XYZW: [u8; 4] = [0, 1, 2, 3];

fn fixed(v: f32, scale: f32, bits: u32, what: &str) -> R<u8> {
    let n = (v * scale).round() as i32;
    let lim = 1i32 << (bits - 1);
    if n < -lim || n >= lim || (n as f32) != v * scale {
        return Err(format!("{what} {v} is not a multiple of {} in range", 1.0 / scale));
    }
    Ok((n as u32 & ((1 << bits) - 1)) as u8)
}

fn parse_vtx_props(v: &mut VtxInst, props: &[String]) -> R<Option<[u32; 4]>> {
    let mut raw = None;
    for p in props {
        let p = p.as_str();
        if let Some(a) = arg(p, "FETCH_TYPE") {
            v.fetch_type = FETCH_TYPE.iter().position(|n| *n == a).ok_or_else(|| format!("bad fetch type '{a}'"))? as u8;
        } else if let Some(a) = arg(p, "MFC") {
            v.mega_fetch_count = bounded(a, 63, "MFC")? as u8;
        } else if let Some(a) = arg(p, "OFFSET") {
            v.offset = bounded(a, 0xFFFF, "offset")? as u16;
        } else if let Some(a) = arg(p, "FMT") {
            v.data_format = bounded(a, 63, "data format")? as u8;
        } else if let Some(a) = arg(p, "NUM") {
            v.num_format = bounded(a, 3, "number format")? as u8;
        } else if let Some(a) = arg(p, "ENDIAN") {
            v.endian_swap = bounded(a, 3, "endian swap")? as u8;
        } else if p == "SIGNED" {
            v.format_comp = true;
        } else if p == "SRF_NO_ZERO" {
            v.srf_mode = true;
        } else if p == "UCF" {
            v.use_const_fields = true;
        } else if p == "CBNS" {
            v.const_buf_no_stride = true;
        } else if p == "MEGA_FETCH" {
            v.mega_fetch = true;
        } else if p == "ALT_CONST" {
            v.alt_const = true;
        } else if p == "WHOLE_QUAD_MODE" {
            v.fetch_whole_quad = true;
        } else if let Some(a) = arg(p, "RAW") {
            let w: R<Vec<u32>> = a.split(',').map(|x| num(x).map(|v| v as u32)).collect();
            let w = w?;
            if w.len() != 4 {
                return Err("RAW needs four words".into());
            }
            raw = Some([w[0], w[1], w[2], w[3]]);
        } else {
            return Err(format!("unknown fetch property '{p}'"));
        }
    }
    Ok(raw)
}

/// Parses a fetch instruction (`name` already split off). `in_tex`: inside a TEX clause.
pub(crate) fn parse_fetch(name: &str, rest: &str, in_tex: bool) -> R<FetchInst> {
    let vtx_name = if in_tex {
        match name {
            "VTX_FETCH" | "VFETCH" => Some(0u8),
            "VTX_SEMANTIC" => Some(1),
            _ => None,
        }
    } else {
        match name {
            "VFETCH" | "VTX_FETCH" => Some(0),
            "SEMANTIC" | "VTX_SEMANTIC" => Some(1),
            n => n.strip_prefix("VTX_0x").and_then(|h| u8::from_str_radix(h, 16).ok()).filter(|&c| c < 32),
        }
    };
    if let Some(op) = vtx_name {
        let parts = split(rest, 3)?;
        let mut v = VtxInst { op, ..Default::default() };
        let d = parts.ops[0].as_str();
        if let Some(a) = d.strip_prefix("SID(") {
            let end = a.find(')').ok_or("unclosed SID(")?;
            v.dst = bounded(&a[..end], 255, "semantic id")? as u8;
            v.dst_sel = swizzle(&a[end + 1..], XYZW)?;
        } else {
            let (g, rel, sw) = gpr_rel(d)?;
            v.dst = g | ((rel as u8) << 7);
            v.dst_sel = swizzle(sw, XYZW)?;
        }
        let (g, rel, sw) = gpr_rel(&parts.ops[1])?;
        v.src_gpr = g;
        v.src_rel = rel;
        let s = swizzle(sw, [0, 1, 2, 3])?;
        if sw.len() > 2 || s[0] > 3 {
            return Err(format!("vertex fetch index must be one channel, found '{sw}'"));
        }
        v.src_sel_x = s[0];
        v.buffer_id = bounded(parts.ops[2].strip_prefix('b').ok_or("expected b<buffer>")?, 255, "buffer id")? as u8;
        if let Some(raw) = parse_vtx_props(&mut v, &parts.props)? {
            return Ok(FetchInst::decode(raw, in_tex));
        }
        return Ok(FetchInst::Vtx(v));
    }
    if !in_tex {
        return Err(format!("unknown VTX instruction '{name}'"));
    }
    let op = table::TEX_OPS.iter().find(|o| o.1 == name).map(|o| o.0).ok_or_else(|| format!("unknown TEX instruction '{name}'"))?;
    let parts = split(rest, 4)?;
    let mut t = TexInst { op, coord_type: [true; 4], ..Default::default() };
    let (g, rel, sw) = gpr_rel(&parts.ops[0])?;
    t.dst_gpr = g;
    t.dst_rel = rel;
    t.dst_sel = swizzle(sw, XYZW)?;
    let (g, rel, sw) = gpr_rel(&parts.ops[1])?;
    t.src_gpr = g;
    t.src_rel = rel;
    t.src_sel = swizzle(sw, XYZW)?;
    t.resource_id = bounded(parts.ops[2].strip_prefix('t').ok_or("expected t<resource>")?, 255, "resource id")? as u8;
    t.sampler_id = bounded(parts.ops[3].strip_prefix('s').ok_or("expected s<sampler>")?, 31, "sampler id")? as u8;
    for p in &parts.props {
        let p = p.as_str();
        let comps = |a: &str| -> R<Vec<usize>> { a.chars().map(|c| chan_of(c).map(|c| c as usize)).collect() };
        if p == "BC_FRAC_MODE" {
            t.bc_frac_mode = true;
        } else if p == "WHOLE_QUAD_MODE" {
            t.fetch_whole_quad = true;
        } else if p == "ALT_CONST" {
            t.alt_const = true;
        } else if let Some(a) = arg(p, "DENORM") {
            for c in comps(a)? {
                t.coord_type[c] = false;
            }
        } else if let Some(a) = arg(p, "NORM") {
            for c in comps(a)? {
                t.coord_type[c] = true;
            }
        } else if let Some(a) = arg(p, "LOD") {
            t.lod_bias = fixed(parse_float(a).ok_or("bad LOD")?, 8.0, 7, "LOD bias")?;
        } else if let Some((k, a)) = ["XOFFSET", "YOFFSET", "ZOFFSET"].iter().enumerate().find_map(|(k, n)| arg(p, n).map(|a| (k, a))) {
            t.offset[k] = fixed(parse_float(a).ok_or("bad offset")?, 2.0, 5, "offset")?;
        } else if let Some(a) = arg(p, "RAW") {
            let w: R<Vec<u32>> = a.split(',').map(|x| num(x).map(|v| v as u32)).collect();
            let w = w?;
            if w.len() != 4 {
                return Err("RAW needs four words".into());
            }
            return Ok(FetchInst::decode([w[0], w[1], w[2], w[3]], true));
        } else {
            return Err(format!("unknown TEX property '{p}'"));
        }
    }
    Ok(FetchInst::Tex(t))
}

/// What a CF line asks for besides the instruction itself.
#[derive(Debug, Clone, Default)]
pub(crate) struct CfExtra {
    pub clause: Option<ClauseKind>,
    pub addr: Option<u32>,
    pub cnt: Option<u32>,
}

/// Parses a CF line after its index: `NAME[:] operands props`.
pub(crate) fn parse_cf(text: &str) -> R<(CfInst, CfExtra)> {
    let text = text.trim();
    let (name, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let colon = name.ends_with(':');
    let name = name.trim_end_matches(':');
    let mut extra = CfExtra::default();
    let mut raw: Option<(u32, u32)> = None;
    let mut take_raw = |p: &str| -> R<bool> {
        if let Some(a) = arg(p, "RAW") {
            let (a, b) = a.split_once(',').ok_or("RAW needs two words")?;
            raw = Some((num(a)? as u32, num(b)? as u32));
            return Ok(true);
        }
        Ok(false)
    };
    // ALU clauses.
    if let Some(&(op, _)) = table::CF_ALU_OPS.iter().find(|o| o.1 == name) {
        let parts = split(rest, 0)?;
        let mut a = CfAlu { op, barrier: true, ..Default::default() };
        extra.clause = Some(ClauseKind::Alu);
        for p in &parts.props {
            let p = p.as_str();
            if let Some(v) = arg(p, "ADDR") {
                extra.addr = Some(bounded(v, (1 << 22) - 1, "ADDR")?);
            } else if let Some(v) = arg(p, "CNT") {
                extra.cnt = Some(bounded(v, 128, "CNT")?);
            } else if let Some((k, v)) = ["KCACHE0", "KCACHE1"].iter().enumerate().find_map(|(k, n)| arg(p, n).map(|v| (k, v))) {
                let v = v.strip_prefix("CB").ok_or("KCACHE needs CBn:start-end")?;
                let (b, range) = v.split_once(':').ok_or("KCACHE needs CBn:start-end")?;
                let (s, e) = range.split_once('-').ok_or("KCACHE needs CBn:start-end")?;
                let (s, e) = (bounded(s, 4095, "kcache start")?, bounded(e, 4095, "kcache end")?);
                let mode = match e.wrapping_sub(s) {
                    15 => 1,
                    31 => 2,
                    _ => 0,
                };
                if s % 16 != 0 {
                    return Err("kcache start must be a multiple of 16".into());
                }
                a.kcache[k] = Kcache { bank: bounded(b, 15, "kcache bank")? as u8, mode, addr: (s / 16).min(255) as u8 };
            } else if p == "USES_WATERFALL" || p == "ALT_CONST" {
                a.alt_const = true;
            } else if p == "WHOLE_QUAD_MODE" || p == "WHOLE_QUAD" {
                a.whole_quad_mode = true;
            } else if p == "NO_BARRIER" {
                a.barrier = false;
            } else if !take_raw(p)? {
                return Err(format!("unknown ALU clause property '{p}'"));
            }
        }
        let mut inst = CfInst::Alu(a);
        if let Some((w0, w1)) = raw {
            inst = CfInst::decode(w0, w1);
        }
        return Ok((inst, extra));
    }
    // Exports and memory writes.
    let exp = match name {
        "EXPORT" => Some(0x27),
        "EXPORT_DONE" => Some(0x28),
        n => table::CF_EXP_OPS.iter().find(|o| o.1 == n).map(|o| o.0).or_else(|| {
            n.strip_prefix("EXP_0x").and_then(|h| u8::from_str_radix(h, 16).ok()).filter(|c| (0x20..0x40).contains(c))
        }),
    };
    if let Some(op) = exp {
        let parts = split(rest, 2)?;
        let mut e = CfExport { op, barrier: true, ..Default::default() };
        let class = e.class();
        let tgt = parts.ops[0].as_str();
        let (kind, base) = if class == ExpClass::Mem {
            let (k, v) = MEM_TYPE.iter().enumerate().find_map(|(k, n)| arg(tgt, n).map(|v| (k, v))).ok_or_else(|| format!("bad memory target '{tgt}'"))?;
            (k as u8, bounded(v, 8191, "array base")?)
        } else if let Some(n) = tgt.strip_prefix("PIX") {
            (0, bounded(n, 8191, "pixel target")?)
        } else if let Some(n) = tgt.strip_prefix("POS") {
            (1, bounded(n, 8191 - 60, "position target")? + 60)
        } else if let Some(n) = tgt.strip_prefix("PARAM") {
            (2, bounded(n, 8191, "parameter target")?)
        } else {
            return Err(format!("bad export target '{tgt}'"));
        };
        e.kind = kind;
        e.array_base = base as u16;
        let (g, rel, sw) = gpr_rel(&parts.ops[1])?;
        e.rw_gpr = g;
        e.rw_rel = rel;
        if class == ExpClass::Export {
            // decaf: no swizzle means xyzw; a partial one fills the rest with 0, 0, 0, 1.
            let s = if sw.is_empty() { XYZW } else { swizzle(sw, [4, 4, 4, 5])? };
            e.low = (s[0] as u32) | (s[1] as u32) << 3 | (s[2] as u32) << 6 | (s[3] as u32) << 9;
        } else if !sw.is_empty() {
            return Err("memory writes take no swizzle (use COMP_MASK)".into());
        }
        for p in &parts.props {
            let p = p.as_str();
            if p == "NO_BARRIER" {
                e.barrier = false;
            } else if p == "WHOLE_QUAD_MODE" || p == "WHOLE_QUAD" {
                e.whole_quad_mode = true;
            } else if p == "VALID_PIX" {
                e.valid_pixel_mode = true;
            } else if let Some(v) = arg(p, "ELEM_SIZE") {
                e.elem_size = bounded(v, 3, "ELEM_SIZE")? as u8;
            } else if let Some(v) = arg(p, "BURSTCNT") {
                e.burst_count = bounded(v, 15, "BURSTCNT")? as u8;
            } else if let Some(v) = arg(p, "INDEX_GPR") {
                e.index_gpr = bounded(v, 127, "INDEX_GPR")? as u8;
            } else if let Some(v) = arg(p, "ARRAY_SIZE") {
                e.low = (e.low & !0xFFF) | bounded(v, 4095, "ARRAY_SIZE")?;
            } else if let Some(v) = arg(p, "COMP_MASK") {
                e.low = (e.low & !0xF000) | bounded(v, 15, "COMP_MASK")? << 12;
            } else if !take_raw(p)? {
                return Err(format!("unknown export property '{p}'"));
            }
        }
        let mut inst = CfInst::Export(e);
        if let Some((w0, w1)) = raw {
            inst = CfInst::decode(w0, w1);
        }
        return Ok((inst, extra));
    }
    let op = table::CF_OPS.iter().find(|o| o.name == name).map(|o| o.code).or_else(|| {
        name.strip_prefix("CF_0x").and_then(|h| u8::from_str_radix(h, 16).ok()).filter(|&c| c < 0x20)
    });
    let op = op.ok_or_else(|| format!("unknown CF instruction '{name}'"))?;
    let class = table::cf_op(op).map_or(CfClass::Plain, |o| o.class);
    if matches!(class, CfClass::Tex | CfClass::Vtx) {
        extra.clause = Some(if class == CfClass::Tex { ClauseKind::Tex } else { ClauseKind::Vtx });
        if !colon {
            return Err(format!("clause instruction {name} needs a ':'"));
        }
    }
    let parts = split(rest, 0)?;
    let mut n = CfNormal { op, barrier: true, ..Default::default() };
    for p in &parts.props {
        let p = p.as_str();
        if let Some(v) = arg(p, "ADDR") {
            let a = num(v)?;
            if !(0..=u32::MAX as i64).contains(&a) {
                return Err("ADDR out of range".into());
            }
            extra.addr = Some(a as u32);
        } else if let Some(v) = arg(p, "CNT") {
            extra.cnt = Some(bounded(v, 16, "CNT")?);
        } else if let Some(v) = arg(p, "POP_CNT") {
            n.pop_count = bounded(v, 7, "POP_CNT")? as u8;
        } else if let Some(v) = arg(p, "CF_CONST") {
            n.cf_const = bounded(v, 31, "CF_CONST")? as u8;
        } else if let Some(v) = arg(p, "CALL_CNT") {
            n.call_count = bounded(v, 63, "CALL_CNT")? as u8;
        } else if let Some(v) = arg(p, "CND") {
            n.cond = COND.iter().position(|c| *c == v).ok_or_else(|| format!("bad condition '{v}'"))? as u8;
        } else if p == "NO_BARRIER" {
            n.barrier = false;
        } else if p == "WHOLE_QUAD_MODE" || p == "WHOLE_QUAD" {
            n.whole_quad_mode = true;
        } else if p == "VALID_PIX" {
            n.valid_pixel_mode = true;
        } else if !take_raw(p)? {
            return Err(format!("unknown CF property '{p}'"));
        }
    }
    if extra.clause.is_none() {
        n.addr = extra.addr.take().unwrap_or(0);
        if let Some(c) = extra.cnt.take() {
            if c == 0 {
                return Err("CNT must be at least 1".into());
            }
            n.count = (c - 1) as u8;
        }
    }
    let mut inst = CfInst::Normal(n);
    if let Some((w0, w1)) = raw {
        inst = CfInst::decode(w0, w1);
    }
    Ok((inst, extra))
}

/// A clause being assembled.
struct PendingClause {
    cf_index: usize,
    kind: ClauseKind,
    addr: Option<u32>,
    cnt: Option<u32>,
    line: usize,
    groups: Vec<(Vec<AluLine>, LitCtx, usize)>,
    fetches: Vec<FetchInst>,
}

/// The result of assembling program text.
#[derive(Debug, Clone)]
pub struct Assembled {
    pub program: Program,
    /// Comment lines (without the ';'), in order: the header directives live here.
    pub comments: Vec<(usize, String)>,
}

fn align_up(v: u32, a: u32) -> u32 {
    v.div_ceil(a) * a
}

/// Assembles program text. Clauses without an explicit ADDR are placed as the latte-assembler
/// does: ALU clauses from the first 256-byte boundary after the CF program, TEX and then VTX
/// clauses from the next 128-byte boundary.
///
/// # Errors
/// The first error, with its line number.
pub fn assemble(text: &str) -> Result<Assembled> {
    let mut cf: Vec<CfInst> = Vec::new();
    let mut clauses: Vec<PendingClause> = Vec::new();
    let mut comments = Vec::new();
    let mut eop = false;
    let mut extra_words: Vec<(usize, u32)> = Vec::new();
    let mut size: Option<usize> = None;
    for (ln, raw_line) in text.lines().enumerate() {
        let ln = ln + 1;
        let (code, comment) = match raw_line.find(';') {
            Some(p) => (&raw_line[..p], Some(&raw_line[p + 1..])),
            None => (raw_line, None),
        };
        if let Some(c) = comment {
            comments.push((ln, c.trim().to_string()));
        }
        let line = code.trim();
        if line.is_empty() {
            continue;
        }
        let err = |m: String| Error::asm(ln, m);
        if line == "END_OF_PROGRAM" {
            eop = true;
            continue;
        }
        if let Some(r) = line.strip_prefix("#WORD") {
            let mut it = r.split_whitespace();
            let (Some(i), Some(v)) = (it.next(), it.next()) else { return Err(err("#WORD needs an index and a value".into())) };
            let i = bounded(i, 1 << 20, "word index").map_err(err)? as usize;
            extra_words.push((i, num(v).map_err(err)? as u32));
            continue;
        }
        if let Some(r) = line.strip_prefix("#SIZE") {
            size = Some(bounded(r.trim(), 1 << 20, "program size").map_err(err)? as usize);
            continue;
        }
        if eop {
            return Err(err("instruction after END_OF_PROGRAM".into()));
        }
        // Slot continuation line: "y: MUL ...".
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some(unit) = unit_of(first) {
            let cl = clauses.last_mut().filter(|c| c.kind == ClauseKind::Alu && !c.groups.is_empty()).ok_or_else(|| err("ALU instruction outside an ALU group".into()))?;
            let g = cl.groups.last_mut().unwrap();
            let l = parse_alu(unit, &line[first.len()..], &mut g.1).map_err(err)?;
            g.0.push(l);
            continue;
        }
        let (idx, rest) = line.split_once(char::is_whitespace).ok_or_else(|| err(format!("cannot parse '{line}'")))?;
        if !idx.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(format!("expected an instruction number, found '{idx}'")));
        }
        let rest = rest.trim_start();
        let second = rest.split_whitespace().next().unwrap_or("");
        if let Some(unit) = unit_of(second) {
            let cl = clauses.last_mut().filter(|c| c.kind == ClauseKind::Alu && c.cf_index + 1 == cf.len()).ok_or_else(|| err("ALU group outside an ALU clause".into()))?;
            let mut ctx = LitCtx::default();
            let l = parse_alu(unit, &rest[second.len()..], &mut ctx).map_err(err)?;
            cl.groups.push((vec![l], ctx, ln));
            continue;
        }
        let name = second.trim_end_matches(':');
        let in_fetch = clauses.last().filter(|c| c.kind != ClauseKind::Alu && c.cf_index + 1 == cf.len());
        let is_cf = table::CF_OPS.iter().any(|o| o.name == name) || table::CF_ALU_OPS.iter().any(|o| o.1 == name)
            || table::CF_EXP_OPS.iter().any(|o| o.1 == name) || name.starts_with("CF_0x") || name.starts_with("EXP_0x")
            || name == "EXPORT" || name == "EXPORT_DONE";
        if let (Some(c), false) = (in_fetch, is_cf) {
            let in_tex = c.kind == ClauseKind::Tex;
            let f = parse_fetch(name, &rest[second.len()..], in_tex).map_err(err)?;
            clauses.last_mut().unwrap().fetches.push(f);
            continue;
        }
        let n: usize = idx.parse().map_err(|_| err("bad instruction number".into()))?;
        if n != cf.len() {
            return Err(err(format!("CF instruction number {n}, expected {}", cf.len())));
        }
        let (inst, extra) = parse_cf(rest).map_err(err)?;
        if let Some(kind) = extra.clause {
            clauses.push(PendingClause { cf_index: cf.len(), kind, addr: extra.addr, cnt: extra.cnt, line: ln, groups: vec![], fetches: vec![] });
        }
        cf.push(inst);
    }
    if eop {
        match cf.last_mut() {
            Some(CfInst::Normal(n)) => n.end_of_program = true,
            Some(CfInst::Export(e)) => e.end_of_program = true,
            _ => cf.push(CfInst::Normal(CfNormal { end_of_program: true, ..Default::default() })),
        }
    }
    // Build clause bodies and lay them out.
    let ncf = cf.len() as u32;
    let mut alu_cursor = align_up(ncf, 32);
    let mut built: Vec<Clause> = Vec::new();
    let mut end = ncf;
    for c in clauses.iter().filter(|c| c.kind == ClauseKind::Alu) {
        let mut groups = Vec::new();
        let mut slots = 0u32;
        for (lines, ctx, gl) in &c.groups {
            let mut insts: Vec<AluInst> = lines.iter().map(|l| l.inst).collect();
            if insts.len() > 5 {
                return Err(Error::asm(*gl, "more than 5 instructions in one group"));
            }
            let last = insts.len() - 1;
            insts[last].last = !lines[last].nolast;
            let lit = match lines.iter().rev().find_map(|l| l.lit_override.clone()) {
                Some(v) => v,
                None => {
                    let n = literal_words(&insts);
                    (0..n).map(|i| ctx.lits.get(i).copied().flatten().unwrap_or(0)).collect()
                }
            };
            slots += insts.len() as u32 + lit.len() as u32 / 2;
            let slots_of = crate::isa::alu::assign_slots(&insts);
            groups.push(AluGroup { insts, slots: slots_of, literals: lit });
        }
        if slots == 0 || slots > 128 {
            return Err(Error::asm(c.line, format!("ALU clause of {slots} slots (1..=128)")));
        }
        if let Some(n) = c.cnt {
            if n != slots {
                return Err(Error::asm(c.line, format!("CNT({n}) but the clause has {slots} slots")));
            }
        }
        let addr = c.addr.unwrap_or(alu_cursor);
        alu_cursor = addr + slots;
        end = end.max(alu_cursor);
        if let CfInst::Alu(a) = &mut cf[c.cf_index] {
            a.addr = addr;
            a.count = (slots - 1) as u8;
        }
        built.push(Clause { cf_index: c.cf_index, kind: c.kind, addr, body: ClauseBody::Alu(groups) });
    }
    let mut fetch_cursor = align_up(alu_cursor.max(ncf), 16);
    for kind in [ClauseKind::Tex, ClauseKind::Vtx] {
        for c in clauses.iter().filter(|c| c.kind == kind) {
            let n = c.fetches.len() as u32;
            if n == 0 || n > 16 {
                return Err(Error::asm(c.line, format!("fetch clause of {n} instructions (1..=16)")));
            }
            if let Some(k) = c.cnt {
                if k != n {
                    return Err(Error::asm(c.line, format!("CNT({k}) but the clause has {n} instructions")));
                }
            }
            let addr = c.addr.unwrap_or(fetch_cursor);
            fetch_cursor = addr + 2 * n;
            end = end.max(fetch_cursor);
            if let CfInst::Normal(x) = &mut cf[c.cf_index] {
                x.addr = addr;
                x.count = (n - 1) as u8;
            }
            built.push(Clause { cf_index: c.cf_index, kind, addr, body: ClauseBody::Fetch(c.fetches.clone()) });
        }
    }
    built.sort_by_key(|c| c.cf_index);
    let mut len = 2 * end as usize;
    for &(i, _) in &extra_words {
        len = len.max(i + 1);
    }
    if let Some(s) = size {
        len = len.max(s);
    }
    if len > 1 << 22 {
        return Err(Error::asm(0, "program larger than 16 MiB"));
    }
    let program = Program { cf, clauses: built, len, extra: extra_words };
    Ok(Assembled { program, comments })
}

/// "x:" .. "t:" -> slot number.
pub(crate) fn unit_of(tok: &str) -> Option<u8> {
    let t = tok.strip_suffix(':')?;
    if t.len() != 1 {
        return None;
    }
    let ch = t.chars().next()?.to_ascii_lowercase();
    SLOT.iter().position(|&c| c as char == ch).map(|p| p as u8)
}

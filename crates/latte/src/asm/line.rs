//! Parsing CF lines and fetch (TEX / VTX) instruction lines.

use super::lex::{arg, bounded, num, split};
use crate::isa::cf::{CfAlu, CfExport, CfInst, CfNormal, ClauseKind, Kcache, CF_ALU_PROPS, CF_EXPORT_PROPS, CF_PROPS};
use crate::isa::fetch::{FetchInst, TexInst, VtxInst, TEX_PROPS, VTX_PROPS};
use crate::isa::fields::parse_prop;
use crate::isa::names::*;
use crate::isa::table::{self, CfClass, ExpClass};

pub(crate) type R<T> = std::result::Result<T, String>;

use super::alu::{chan_of, parse_float};

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
        if let Some(r) = parse_prop(v, VTX_PROPS, p) {
            r?;
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
    let canon = from_mesa_mnemonic(name);
    let op = table::TEX_OPS
        .iter()
        .find(|o| o.1 == canon)
        .map(|o| o.0)
        .ok_or_else(|| format!("unknown TEX instruction '{name}'"))?;
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
        if let Some(r) = parse_prop(&mut t, TEX_PROPS, p) {
            r?;
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
        } else if let Some((k, a)) =
            ["XOFFSET", "YOFFSET", "ZOFFSET"].iter().enumerate().find_map(|(k, n)| arg(p, n).map(|a| (k, a)))
        {
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
            } else if let Some((k, v)) =
                ["KCACHE0", "KCACHE1"].iter().enumerate().find_map(|(k, n)| arg(p, n).map(|v| (k, v)))
            {
                let v = v.strip_prefix("CB").ok_or("KCACHE needs CBn:start-end")?;
                let (b, range) = v.split_once(':').ok_or("KCACHE needs CBn:start-end")?;
                let (s, e) = range.split_once('-').ok_or("KCACHE needs CBn:start-end")?;
                let (s, e) = (bounded(s, 8191, "kcache start")?, bounded(e, 8191, "kcache end")?);
                let mode = match e.wrapping_sub(s) {
                    15 => 1,
                    31 => 2,
                    _ => 0,
                };
                if s % 16 != 0 {
                    return Err("kcache start must be a multiple of 16".into());
                }
                a.kcache[k] =
                    Kcache { bank: bounded(b, 15, "kcache bank")? as u8, mode, addr: (s / 16).min(255) as u8 };
            } else if let Some(r) = parse_prop(&mut a, CF_ALU_PROPS, p) {
                r?;
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
            let (k, v) = MEM_TYPE
                .iter()
                .enumerate()
                .find_map(|(k, n)| arg(tgt, n).map(|v| (k, v)))
                .ok_or_else(|| format!("bad memory target '{tgt}'"))?;
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
            e.set_sels(s);
        } else if !sw.is_empty() {
            return Err("memory writes take no swizzle (use COMP_MASK)".into());
        }
        for p in &parts.props {
            let p = p.as_str();
            if let Some(r) = parse_prop(&mut e, CF_EXPORT_PROPS, p) {
                r?;
            } else if let Some(v) = arg(p, "ARRAY_SIZE") {
                e.set_array_size(bounded(v, 4095, "ARRAY_SIZE")?);
            } else if let Some(v) = arg(p, "COMP_MASK") {
                e.set_comp_mask(bounded(v, 15, "COMP_MASK")?);
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
    let op = table::CF_OPS
        .iter()
        .find(|o| o.name == name)
        .map(|o| o.code)
        .or_else(|| name.strip_prefix("CF_0x").and_then(|h| u8::from_str_radix(h, 16).ok()).filter(|&c| c < 0x20));
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
        } else if let Some(r) = parse_prop(&mut n, CF_PROPS, p) {
            r?;
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

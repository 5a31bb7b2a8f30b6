//! The disassembler. Its text follows the decaf-emu / AMD listing conventions (CF lines `NN
//! NAME`, clause headers with ADDR/CNT, group numbers, slot letters, PV/PS, literals) and is
//! exactly what [`crate::asm::assemble`] reads: every printed line is parsed back while
//! printing, and a field the text cannot spell is kept as a RAW(...) property (STYLE.md
//! "Printer and parser as inverses").

use crate::asm::program::{parse_alu, parse_cf, parse_fetch, LitCtx};
use crate::isa::alu::{sel, AluInst, AluKind, AluSrc, ALU_PROPS, OP2_PROPS};
use crate::isa::cf::{CfInst, ClauseKind, CF_ALU_PROPS, CF_EXPORT_PROPS, CF_PROPS};
use crate::isa::fetch::{FetchInst, TexInst, VtxInst, TEX_PROPS, VTX_PROPS};
use crate::isa::fields::print_props;
use crate::isa::names::*;
use crate::isa::program::{literal_words, AluGroup, ClauseBody, Program};
use crate::isa::table::{self, CfClass, ExpClass};
use std::fmt::Write;

fn swz(sel: impl IntoIterator<Item = u8>) -> String {
    sel.into_iter().map(|s| SEL_CHARS[s as usize & 7] as char).collect()
}

fn cf_text(inst: &CfInst, clause: Option<(u32, u32)>) -> String {
    let mut s = inst.name();
    let mut props: Vec<String> = Vec::new();
    match inst {
        CfInst::Alu(a) => {
            s.push(':');
            let (addr, cnt) = clause.unwrap_or((a.addr, a.count as u32 + 1));
            props.push(format!("ADDR({addr})"));
            props.push(format!("CNT({cnt})"));
            for (k, kc) in a.kcache.iter().enumerate() {
                let lines = match kc.mode {
                    1 => 16,
                    2 => 32,
                    _ => continue,
                };
                let start = kc.addr as u32 * 16;
                props.push(format!("KCACHE{k}(CB{}:{}-{})", kc.bank, start, start + lines - 1));
            }
            props.extend(print_props(a, CF_ALU_PROPS));
        }
        CfInst::Export(e) => {
            s.push(':');
            let target = if e.class() == ExpClass::Mem {
                format!("{}({})", MEM_TYPE[e.kind as usize & 3], e.array_base)
            } else {
                match e.kind {
                    0 => format!("PIX{}", e.array_base),
                    1 if e.array_base >= 60 => format!("POS{}", e.array_base - 60),
                    _ => format!("PARAM{}", e.array_base),
                }
            };
            let gpr = if e.rw_rel { format!("R[AL+{}]", e.rw_gpr) } else { format!("R{}", e.rw_gpr) };
            let src = if e.class() == ExpClass::Mem {
                gpr
            } else {
                let sels: Vec<u8> = (0..4).map(|i| e.sel(i)).collect();
                if sels == [0, 1, 2, 3] {
                    gpr
                } else {
                    format!("{gpr}.{}", swz(sels))
                }
            };
            s = format!("{s} {target}, {src}");
            if e.class() == ExpClass::Mem {
                props.push(format!("ARRAY_SIZE({})", e.array_size()));
                props.push(format!("COMP_MASK({})", e.comp_mask()));
            }
            props.extend(print_props(e, CF_EXPORT_PROPS));
        }
        CfInst::Normal(n) => {
            let class = table::cf_op(n.op).map_or(CfClass::Plain, |o| o.class);
            match class {
                CfClass::Tex | CfClass::Vtx => {
                    s.push(':');
                    let (addr, cnt) = clause.unwrap_or((n.addr, n.count as u32 + 1));
                    props.push(format!("ADDR({addr})"));
                    props.push(format!("CNT({cnt})"));
                }
                CfClass::Branch => props.push(format!("ADDR({})", n.addr)),
                CfClass::Plain => {
                    if n.addr != 0 {
                        props.push(format!("ADDR({})", n.addr));
                    }
                }
            }
            if !matches!(class, CfClass::Tex | CfClass::Vtx) && n.count != 0 {
                props.push(format!("CNT({})", n.count as u32 + 1));
            }
            props.extend(print_props(n, CF_PROPS));
        }
    }
    push_props(&mut s, props);
    s
}

fn with_eop(inst: &CfInst, eop: bool) -> CfInst {
    let mut i = *inst;
    match &mut i {
        CfInst::Normal(n) => n.end_of_program = eop,
        CfInst::Export(e) => e.end_of_program = eop,
        CfInst::Alu(_) => {}
    }
    i
}

/// One CF line (without its index), RAW added when the text cannot hold every field.
fn cf_line(inst: &CfInst, clause: Option<(u32, u32)>) -> String {
    let mut s = cf_text(inst, clause);
    let ok = match parse_cf(&s) {
        Ok((mut p, extra)) => {
            match (&mut p, extra.addr, extra.cnt) {
                (CfInst::Alu(a), Some(addr), Some(cnt)) => {
                    a.addr = addr;
                    a.count = (cnt.max(1) - 1) as u8;
                }
                (CfInst::Normal(n), Some(addr), Some(cnt)) if extra.clause.is_some() => {
                    n.addr = addr;
                    n.count = (cnt.max(1) - 1) as u8;
                }
                _ => {}
            }
            with_eop(&p, inst.end_of_program()) == *inst
        }
        Err(_) => false,
    };
    if !ok {
        let (a, b) = inst.encode();
        let _ = write!(s, " RAW(0x{a:08X},0x{b:08X})");
    }
    s
}

fn src_text(s: &AluSrc, abs: bool, index_mode: u8, dst_chan: u8, group: usize, lits: &[u32], ctx: &LitCtx) -> String {
    let chan = CHAN[s.chan as usize & 3] as char;
    let mut show_chan = true;
    let base = match s.sel {
        0..=127 => format!("R{}", s.sel),
        128..=159 => format!("KC0[{}]", s.sel - 128),
        160..=191 => format!("KC1[{}]", s.sel - 160),
        sel::ZERO => "IMM_0".into(),
        sel::ONE => "IMM_1".into(),
        sel::HALF => "IMM_0_5".into(),
        sel::ONE_INT => "INT_1".into(),
        sel::MINUS_ONE_INT => "INT_M1".into(),
        sel::LITERAL => {
            let v = lits.get(s.chan as usize).copied().unwrap_or(0);
            let natural = ctx.natural() == Some(s.chan) && ctx.lits[s.chan as usize].is_none();
            show_chan = !natural;
            format!("0x{v:08X}")
        }
        sel::PV => format!("PV{}", group.saturating_sub(1)),
        sel::PS => {
            show_chan = s.chan != dst_chan;
            format!("PS{}", group.saturating_sub(1))
        }
        256..=511 => format!("C{}", s.sel - 256),
        other => format!("SRC{other}"),
    };
    let mut out = String::new();
    if s.neg {
        out.push('-');
    }
    if abs {
        let _ = write!(out, "|{base}|");
    } else {
        out.push_str(&base);
    }
    if s.rel {
        match INDEX_MODE.get(index_mode as usize) {
            Some(m) => {
                let _ = write!(out, "[{m}]");
            }
            None => {
                let _ = write!(out, "[IDX{index_mode}]");
            }
        }
    }
    if show_chan {
        out.push('.');
        out.push(chan);
    }
    out
}

fn alu_text(i: &AluInst, unit: u8, group: usize, lits: &[u32], ctx: &LitCtx) -> String {
    let mut s = i.name();
    let (abs, omod, wm) = match &i.kind {
        AluKind::Op2(o) => (o.abs, o.omod, o.write_mask),
        AluKind::Op3(_) => ([false; 2], 0, true),
    };
    s.push_str(OMOD[omod as usize & 3]);
    while s.len() < 14 {
        s.push(' ');
    }
    let natural_chan = if unit < 4 { unit } else { 0 };
    let dst = if !wm && i.dst_gpr == 0 && !i.dst_rel && i.dst_chan == natural_chan {
        "____".to_string()
    } else {
        let rel = if i.dst_rel {
            INDEX_MODE.get(i.index_mode as usize).map_or(format!("[IDX{}]", i.index_mode), |m| format!("[{m}]"))
        } else {
            String::new()
        };
        format!("R{}{rel}.{}", i.dst_gpr, CHAN[i.dst_chan as usize & 3] as char)
    };
    s.push(' ');
    s.push_str(&dst);
    // Literal placement must mirror the parser, which runs over this text right after.
    let mut ctx = ctx.clone();
    let srcs = i.srcs();
    let mut any_rel = i.dst_rel;
    for k in 0..i.src_count() {
        let src = &srcs[k];
        any_rel |= src.rel;
        let t = src_text(src, k < 2 && abs[k], i.index_mode, i.dst_chan, group, lits, &ctx);
        if src.sel == sel::LITERAL {
            let natural = ctx.natural();
            let c = if t.ends_with(|c: char| "xyzw".contains(c)) && t.contains('.') {
                src.chan
            } else {
                natural.unwrap_or(0)
            };
            ctx.lits[c as usize] = Some(lits.get(c as usize).copied().unwrap_or(0));
        }
        s.push_str(", ");
        s.push_str(&t);
    }
    if i.bank_swizzle != 0 {
        let name =
            if unit == 4 { SCL_BANK.get(i.bank_swizzle as usize) } else { VEC_BANK.get(i.bank_swizzle as usize) };
        match name {
            Some(n) => {
                let _ = write!(s, " {n}");
            }
            None => {
                let _ = write!(s, " BS({})", i.bank_swizzle);
            }
        }
    }
    if let AluKind::Op2(o) = &i.kind {
        push_props(&mut s, print_props(o, OP2_PROPS));
    }
    match i.pred_sel {
        2 => s.push_str(" PRED_SEL_ZERO"),
        3 => s.push_str(" PRED_SEL_ONE"),
        _ => {}
    }
    push_props(&mut s, print_props(i, ALU_PROPS));
    if !wm && dst != "____" {
        s.push_str(" NO_WRITE");
    }
    if i.index_mode != 0 && !any_rel {
        let _ = write!(s, " IDX({})", i.index_mode);
    }
    s
}

fn tex_text(t: &TexInst) -> String {
    let reg = |g: u8, rel: bool| if rel { format!("R{g}[AL]") } else { format!("R{g}") };
    let dst = if t.dst_sel == [0, 1, 2, 3] {
        reg(t.dst_gpr, t.dst_rel)
    } else {
        format!("{}.{}", reg(t.dst_gpr, t.dst_rel), swz(t.dst_sel))
    };
    let mut s = format!(
        "{:<14} {dst}, {}.{}, t{}, s{}",
        t.name(),
        reg(t.src_gpr, t.src_rel),
        swz(t.src_sel),
        t.resource_id,
        t.sampler_id
    );
    let denorm: String = (0..4).filter(|&i| !t.coord_type[i]).map(|i| CHAN[i] as char).collect();
    if !denorm.is_empty() {
        let _ = write!(s, " DENORM({denorm})");
    }
    if t.lod_bias != 0 {
        let v = ((t.lod_bias as i8) << 1 >> 1) as f32 / 8.0;
        let _ = write!(s, " LOD({v:?})");
    }
    for (k, n) in ["XOFFSET", "YOFFSET", "ZOFFSET"].iter().enumerate() {
        if t.offset[k] != 0 {
            let v = (((t.offset[k] as i8) << 3) >> 3) as f32 / 2.0;
            let _ = write!(s, " {n}({v:?})");
        }
    }
    push_props(&mut s, print_props(t, TEX_PROPS));
    s
}

fn vtx_text(v: &VtxInst, in_tex: bool) -> String {
    let name = if in_tex {
        if v.op == 0 {
            "VTX_FETCH".to_string()
        } else {
            "VTX_SEMANTIC".to_string()
        }
    } else {
        v.name()
    };
    let dst = if v.op == 1 {
        format!("SID({}).{}", v.dst, swz(v.dst_sel))
    } else {
        let g = v.dst & 0x7F;
        let r = if v.dst & 0x80 != 0 { format!("R{g}[AL]") } else { format!("R{g}") };
        format!("{r}.{}", swz(v.dst_sel))
    };
    let src = if v.src_rel { format!("R{}[AL]", v.src_gpr) } else { format!("R{}", v.src_gpr) };
    let mut s = format!("{name:<14} {dst}, {src}.{}, b{}", CHAN[v.src_sel_x as usize & 3] as char, v.buffer_id);
    push_props(&mut s, print_props(v, VTX_PROPS));
    s
}

fn push_props(s: &mut String, props: Vec<String>) {
    for p in props {
        s.push(' ');
        s.push_str(&p);
    }
}

fn fetch_line(f: &FetchInst, in_tex: bool) -> String {
    let mut s = match f {
        FetchInst::Tex(t) => tex_text(t),
        FetchInst::Vtx(v) => vtx_text(v, in_tex),
    };
    let (name, rest) = s.split_once(' ').unwrap_or((&s, ""));
    let ok = parse_fetch(name, rest, in_tex).is_ok_and(|p| p == *f);
    if !ok {
        let w = f.encode();
        let _ = write!(s, " RAW(0x{:08X},0x{:08X},0x{:08X},0x{:08X})", w[0], w[1], w[2], w[3]);
    }
    s
}

fn group_lines(out: &mut String, g: &AluGroup, number: usize) {
    let mut ctx = LitCtx::default();
    let n = g.insts.len();
    for (k, inst) in g.insts.iter().enumerate() {
        let unit = match &g.slots {
            Some(s) => s[k],
            None => inst.dst_chan,
        };
        let mut s = alu_text(inst, unit, number, &g.literals, &ctx);
        let mut want = *inst;
        want.last = false;
        let mut check_ctx = ctx.clone();
        let ok = parse_alu(unit, &s, &mut check_ctx).is_ok_and(|l| l.inst == want);
        if !ok {
            let (a, b) = inst.encode();
            let _ = write!(s, " RAW(0x{a:08X},0x{b:08X})");
            check_ctx = ctx.clone();
            let _ = parse_alu(unit, &s, &mut check_ctx);
        }
        ctx = check_ctx;
        if k == n - 1 {
            if !inst.last {
                s.push_str(" NOLAST");
            }
            let nl = literal_words(&g.insts);
            let rebuilt: Vec<u32> = (0..nl).map(|i| ctx.lits[i].unwrap_or(0)).collect();
            if rebuilt != g.literals {
                let v: Vec<String> = g.literals.iter().map(|l| format!("0x{l:08X}")).collect();
                let _ = write!(s, " LIT({})", v.join(","));
            }
        }
        let prefix = if k == 0 { format!("{number:>7}  ") } else { " ".repeat(9) };
        let _ = writeln!(out, "{prefix}{}: {s}", SLOT[unit as usize] as char);
    }
}

/// Disassembles a program into assembler text.
pub fn disassemble(p: &Program) -> String {
    let mut out = String::new();
    let mut number = 0usize;
    let mut end = p.cf.len() as u32;
    for (ci, inst) in p.cf.iter().enumerate() {
        let clause = p.clauses.iter().find(|c| c.cf_index == ci);
        let info = clause.map(|c| {
            let n = match &c.body {
                ClauseBody::Alu(g) => g.iter().map(|g| g.insts.len() as u32 + g.literals.len() as u32 / 2).sum(),
                ClauseBody::Fetch(v) => v.len() as u32,
            };
            end = end.max(c.addr + if c.kind == ClauseKind::Alu { n } else { 2 * n });
            (c.addr, n)
        });
        let _ = writeln!(out, "{ci:02} {}", cf_line(inst, info));
        if let Some(c) = clause {
            match &c.body {
                ClauseBody::Alu(groups) => {
                    for g in groups {
                        group_lines(&mut out, g, number);
                        number += 1;
                    }
                }
                ClauseBody::Fetch(v) => {
                    for f in v {
                        let _ = writeln!(out, "{number:>7}  {}", fetch_line(f, c.kind == ClauseKind::Tex));
                        number += 1;
                    }
                }
            }
        }
        if inst.end_of_program() {
            out.push_str("END_OF_PROGRAM\n");
        }
    }
    for &(i, v) in &p.extra {
        let _ = writeln!(out, "#WORD {i} 0x{v:08X}");
    }
    if p.len != 2 * end as usize {
        let _ = writeln!(out, "#SIZE {}", p.len);
    }
    out
}

/// Header directives of a shader, in the `; $KEY = value` syntax the assembler reads: variable
/// arrays by name, mode, ring and stream-out fields, and every register word as `$REG[i]`.
pub fn header_directives(h: &crate::gfd::ShaderHeader) -> String {
    let mut o = String::new();
    let q = |s: &str| format!("\"{}\"", s.replace('"', "'"));
    use crate::asm::header::{MODE_NAMES, SAMPLER_TYPE_NAMES, VAR_TYPE_NAMES};
    let named = |names: &[&str], v: u32| match names.get(v as usize) {
        Some(n) if !n.is_empty() => format!("\"{n}\""),
        _ => v.to_string(),
    };
    let _ = writeln!(o, "; $MODE = {}", named(&MODE_NAMES, h.mode));
    for (i, v) in h.uniform_blocks.iter().enumerate() {
        let _ = writeln!(
            o,
            "; $UNIFORM_BLOCKS[{i}].NAME = {}\n; $UNIFORM_BLOCKS[{i}].OFFSET = {}\n; $UNIFORM_BLOCKS[{i}].SIZE = {}",
            q(&v.name),
            v.offset,
            v.size
        );
    }
    for (i, v) in h.uniform_vars.iter().enumerate() {
        let _ = writeln!(
            o,
            "; $UNIFORM_VARS[{i}].NAME = {}\n; $UNIFORM_VARS[{i}].TYPE = {}\n; $UNIFORM_VARS[{i}].COUNT = {}\n; $UNIFORM_VARS[{i}].OFFSET = {}\n; $UNIFORM_VARS[{i}].BLOCK = {}",
            q(&v.name), named(&VAR_TYPE_NAMES, v.var_type), v.count, v.offset, v.block
        );
    }
    for (i, v) in h.initial_values.iter().enumerate() {
        for k in 0..4 {
            let _ = writeln!(o, "; $INITIAL_VALUES[{i}].VALUE[{k}] = 0x{:08X}", v.value[k]);
        }
        let _ = writeln!(o, "; $INITIAL_VALUES[{i}].OFFSET = {}", v.offset);
    }
    for (i, v) in h.loop_vars.iter().enumerate() {
        let _ = writeln!(o, "; $LOOP_VARS[{i}].OFFSET = {}\n; $LOOP_VARS[{i}].VALUE = 0x{:08X}", v.offset, v.value);
    }
    for (i, v) in h.sampler_vars.iter().enumerate() {
        let _ = writeln!(
            o,
            "; $SAMPLER_VARS[{i}].NAME = {}\n; $SAMPLER_VARS[{i}].TYPE = {}\n; $SAMPLER_VARS[{i}].LOCATION = {}",
            q(&v.name),
            named(&SAMPLER_TYPE_NAMES, v.var_type),
            v.location
        );
    }
    for (i, v) in h.attrib_vars.iter().enumerate() {
        let _ = writeln!(
            o,
            "; $ATTRIB_VARS[{i}].NAME = {}\n; $ATTRIB_VARS[{i}].TYPE = {}\n; $ATTRIB_VARS[{i}].COUNT = {}\n; $ATTRIB_VARS[{i}].LOCATION = {}",
            q(&v.name), named(&VAR_TYPE_NAMES, v.var_type), v.count, v.location
        );
    }
    if h.stage != crate::gfd::Stage::Pixel {
        let _ = writeln!(o, "; $RING_ITEM_SIZE = {}\n; $HAS_STREAM_OUT = {}", h.ring_item_size, h.has_stream_out);
        for (i, s) in h.stream_out_stride.iter().enumerate() {
            let _ = writeln!(o, "; $STREAM_OUT_STRIDE[{i}] = {s}");
        }
    }
    for (i, r) in h.regs.iter().enumerate() {
        let _ = writeln!(o, "; $REG[{i}] = 0x{r:08X}");
    }
    o
}

/// The disassembly of one shader (header directives, then program) as a stand-alone source that
/// `assemble` + `vertex_header` / `pixel_header` turn back into the same header and program.
///
/// # Errors
/// Program decode errors, with their byte offsets.
pub fn shader_source(s: &crate::gfd::GfdShader) -> crate::Result<String> {
    let mut o = header_directives(&s.header);
    match &s.program {
        Some(p) => o.push_str(&disassemble(&Program::decode_bytes(p, s.program_offset)?)),
        None => {
            let _ = writeln!(
                o,
                "; (no program block: the file has the {} shader's header block only)",
                s.header.stage.name()
            );
        }
    }
    Ok(o)
}

/// Disassembles every shader of a GFD file: for each, a banner, its header directives and its
/// program (and a geometry shader's copy program). Each section assembles back on its own.
///
/// # Errors
/// Header or program decode errors, with their byte offsets.
pub fn disassemble_gfd(file: &crate::gfd::GfdFile) -> crate::Result<String> {
    let mut o = String::new();
    for (n, s) in file.shaders()?.iter().enumerate() {
        let _ = writeln!(o, "; ======== shader {n}: {} ========", s.header.stage.name());
        o.push_str(&shader_source(s)?);
        if let Some(c) = &s.copy_program {
            let _ = writeln!(o, "; ======== shader {n}: geometry copy program ========");
            o.push_str(&disassemble(&Program::decode_bytes(c, 0)?));
        }
    }
    for u in file.unpaired_programs() {
        let _ = writeln!(o, "; ======== {} (block {}) without a header block ========", u.what(), u.block);
        o.push_str(&disassemble(&Program::decode_bytes(&u.program, u.program_offset)?));
    }
    if o.is_empty() {
        let _ = writeln!(o, "; (no shader: the file has no shader header or program block)");
    }
    Ok(o)
}

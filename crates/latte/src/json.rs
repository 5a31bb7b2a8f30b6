//! A decoded program as JSON: one object per instruction, in address order, with every decoded
//! field (docs/latte-json.md). The `addr` of an instruction is its dword index in the program
//! and `op` its mnemonic as Mesa's r600 listings print it, so each object lines up with one line
//! of such a listing (the answer keys of the latte-mesa corpus).

use crate::isa::alu::{sel, AluInst, AluKind, AluSrc};
use crate::isa::cf::{CfAlu, CfExport, CfInst, CfNormal, ClauseKind};
use crate::isa::fetch::{FetchInst, TexInst, VtxInst};
use crate::isa::names::{mesa_mnemonic, CHAN, COND, FETCH_TYPE, MEM_TYPE, SEL_CHARS, SLOT};
use crate::isa::program::{AluGroup, ClauseBody, Program};
use crate::isa::table::{self, CfClass, ExpClass};
use serde_json::{json, Map, Value};

/// Export targets by TYPE, as Mesa's listings name them.
const EXPORT_TYPE: [&str; 4] = ["PIXEL", "POS", "PARAM", "TYPE3"];

fn swz(s: impl IntoIterator<Item = u8>) -> String {
    s.into_iter().map(|c| SEL_CHARS[c as usize & 7] as char).collect()
}

fn hex(w: &[u32]) -> Value {
    Value::Array(w.iter().map(|w| json!(format!("0x{w:08X}"))).collect())
}

/// Sign-extends the low `bits` bits of `v`.
fn signed(v: u8, bits: u32) -> i32 {
    let s = 32 - bits;
    ((v as i32) << s) >> s
}

/// The whole program: `{"instructions": [...]}` sorted by `addr`, plus `"words"` (the program
/// length in dwords) and, when there are any, `"extra_words"` that no instruction covers.
pub fn program_json(p: &Program) -> Value {
    let mut v: Vec<Value> = Vec::with_capacity(p.instruction_count());
    for (i, c) in p.cf.iter().enumerate() {
        v.push(cf_json(i, c));
    }
    let mut group = 0usize;
    for cl in &p.clauses {
        let kc = match p.cf.get(cl.cf_index) {
            Some(CfInst::Alu(a)) => Some(a),
            _ => None,
        };
        let mut w = 2 * cl.addr as usize;
        match &cl.body {
            ClauseBody::Alu(groups) => {
                for g in groups {
                    group += 1;
                    for (k, inst) in g.insts.iter().enumerate() {
                        v.push(alu_json(w, group, k, g, inst, kc));
                        w += 2;
                    }
                    w += g.literals.len();
                }
            }
            ClauseBody::Fetch(f) => {
                for inst in f {
                    v.push(fetch_json(w, inst, cl.kind == ClauseKind::Tex));
                    w += 4;
                }
            }
        }
    }
    v.sort_by_key(|i| i["addr"].as_u64().unwrap_or(0));
    let mut out = Map::new();
    out.insert("words".into(), json!(p.len));
    out.insert("instructions".into(), Value::Array(v));
    if !p.extra.is_empty() {
        out.insert("extra_words".into(), Value::Array(p.extra.iter().map(|(k, w)| json!({"addr": k, "value": format!("0x{w:08X}")})).collect()));
    }
    Value::Object(out)
}

fn cf_json(i: usize, c: &CfInst) -> Value {
    let (w0, w1) = c.encode();
    let name = c.name();
    let mut m = Map::new();
    m.insert("addr".into(), json!(2 * i));
    let kind = match c {
        CfInst::Export(e) if e.class() == ExpClass::Mem => "mem",
        _ => "cf",
    };
    m.insert("kind".into(), json!(kind));
    m.insert("op".into(), json!(mesa_mnemonic(&name)));
    m.insert("index".into(), json!(i));
    m.insert("words".into(), hex(&[w0, w1]));
    match c {
        CfInst::Normal(n) => normal_fields(&mut m, n),
        CfInst::Alu(a) => alu_cf_fields(&mut m, a),
        CfInst::Export(e) => export_fields(&mut m, e),
    }
    Value::Object(m)
}

fn normal_fields(m: &mut Map<String, Value>, n: &CfNormal) {
    m.insert("encoding".into(), json!("cf"));
    m.insert("opcode".into(), json!(n.op));
    let class = table::cf_op(n.op).map_or(CfClass::Plain, |o| o.class);
    m.insert("cf_addr".into(), json!(n.addr));
    match class {
        CfClass::Tex | CfClass::Vtx => {
            m.insert("clause_addr".into(), json!(2 * n.addr as u64));
            m.insert("count".into(), json!(n.count as u32 + 1));
        }
        CfClass::Branch | CfClass::Plain => {
            m.insert("target".into(), json!(2 * n.addr as u64));
            m.insert("count".into(), json!(n.count));
        }
    }
    m.insert("pop_count".into(), json!(n.pop_count));
    m.insert("cf_const".into(), json!(n.cf_const));
    m.insert("cond".into(), json!(COND[n.cond as usize & 3]));
    m.insert("call_count".into(), json!(n.call_count));
    m.insert("reserved20".into(), json!(n.reserved20));
    flags(m, n.end_of_program, n.valid_pixel_mode, n.whole_quad_mode, n.barrier);
}

fn flags(m: &mut Map<String, Value>, eop: bool, vpm: bool, wqm: bool, barrier: bool) {
    m.insert("end_of_program".into(), json!(eop));
    m.insert("valid_pixel_mode".into(), json!(vpm));
    m.insert("whole_quad_mode".into(), json!(wqm));
    m.insert("barrier".into(), json!(barrier));
}

fn alu_cf_fields(m: &mut Map<String, Value>, a: &CfAlu) {
    m.insert("encoding".into(), json!("cf_alu"));
    m.insert("opcode".into(), json!(a.op));
    m.insert("cf_addr".into(), json!(a.addr));
    m.insert("clause_addr".into(), json!(2 * a.addr as u64));
    m.insert("count".into(), json!(a.count as u32 + 1));
    let kc: Vec<Value> = a
        .kcache
        .iter()
        .map(|k| {
            // LOCK_1 locks one line of 16 constants, LOCK_2 two (§1.3).
            let lines = match k.mode {
                1 => 1,
                2 => 2,
                _ => 0,
            };
            json!({"bank": k.bank, "mode": k.mode, "line": k.addr, "first": k.addr as u32 * 16, "constants": lines * 16})
        })
        .collect();
    m.insert("kcache".into(), Value::Array(kc));
    m.insert("alt_const".into(), json!(a.alt_const));
    m.insert("whole_quad_mode".into(), json!(a.whole_quad_mode));
    m.insert("barrier".into(), json!(a.barrier));
}

fn export_fields(m: &mut Map<String, Value>, e: &CfExport) {
    m.insert("encoding".into(), json!("cf_alloc_export"));
    m.insert("opcode".into(), json!(e.op));
    let mem = e.class() == ExpClass::Mem;
    let ty = if mem { MEM_TYPE[e.kind as usize & 3] } else { EXPORT_TYPE[e.kind as usize & 3] };
    m.insert("type".into(), json!(ty));
    m.insert("array_base".into(), json!(e.array_base));
    m.insert("gpr".into(), json!(e.rw_gpr));
    m.insert("rel".into(), json!(e.rw_rel));
    m.insert("index_gpr".into(), json!(e.index_gpr));
    m.insert("elem_size".into(), json!(e.elem_size));
    m.insert("burst_count".into(), json!(e.burst_count));
    if mem {
        m.insert("array_size".into(), json!(e.array_size()));
        m.insert("comp_mask".into(), json!(e.comp_mask()));
        m.insert("reserved16".into(), json!(e.low >> 16 & 1));
    } else {
        m.insert("swizzle".into(), json!(swz((0..4).map(|i| e.sel(i)))));
        m.insert("reserved12".into(), json!(e.low >> 12));
    }
    flags(m, e.end_of_program, e.valid_pixel_mode, e.whole_quad_mode, e.barrier);
}

fn src_json(s: &AluSrc, abs: bool, g: &AluGroup, kc: Option<&CfAlu>) -> Value {
    let mut m = Map::new();
    m.insert("sel".into(), json!(s.sel));
    m.insert("chan".into(), json!((CHAN[s.chan as usize & 3] as char).to_string()));
    m.insert("neg".into(), json!(s.neg));
    m.insert("abs".into(), json!(abs));
    m.insert("rel".into(), json!(s.rel));
    let kind = match s.sel {
        0..=127 => {
            m.insert("gpr".into(), json!(s.sel));
            "gpr"
        }
        128..=191 => {
            let set = if s.sel < sel::KCACHE1 { 0 } else { 1 };
            let index = s.sel - if set == 0 { sel::KCACHE0 } else { sel::KCACHE1 };
            m.insert("kcache_set".into(), json!(set));
            m.insert("kcache_index".into(), json!(index));
            if let Some(k) = kc.map(|a| a.kcache[set]) {
                // The constant buffer and the constant this selects (16 per locked line).
                m.insert("bank".into(), json!(k.bank));
                m.insert("constant".into(), json!(k.addr as u32 * 16 + index as u32));
            }
            "kcache"
        }
        sel::ZERO | sel::ONE | sel::ONE_INT | sel::MINUS_ONE_INT | sel::HALF => {
            let (name, bits) = match s.sel {
                sel::ZERO => ("0", 0u32),
                sel::ONE => ("1.0", 0x3F80_0000),
                sel::ONE_INT => ("1", 1),
                sel::MINUS_ONE_INT => ("-1", 0xFFFF_FFFF),
                _ => ("0.5", 0x3F00_0000),
            };
            m.insert("inline".into(), json!(name));
            m.insert("value".into(), json!(format!("0x{bits:08X}")));
            "inline"
        }
        sel::LITERAL => {
            if let Some(v) = g.literals.get(s.chan as usize) {
                m.insert("value".into(), json!(format!("0x{v:08X}")));
            }
            "literal"
        }
        sel::PV => "pv",
        sel::PS => "ps",
        256..=511 => {
            m.insert("cfile".into(), json!(s.sel - sel::CFILE));
            "cfile"
        }
        _ => "other",
    };
    m.insert("kind".into(), json!(kind));
    Value::Object(m)
}

fn alu_json(addr: usize, group: usize, k: usize, g: &AluGroup, i: &AluInst, kc: Option<&CfAlu>) -> Value {
    let (w0, w1) = i.encode();
    let mut m = Map::new();
    m.insert("addr".into(), json!(addr));
    m.insert("kind".into(), json!("alu"));
    m.insert("op".into(), json!(i.name()));
    m.insert("words".into(), hex(&[w0, w1]));
    m.insert("group".into(), json!(group));
    let slot = g.slots.and_then(|s| SLOT.get(s[k] as usize)).map(|c| (*c as char).to_string());
    m.insert("slot".into(), json!(slot));
    let (abs, omod) = match &i.kind {
        AluKind::Op2(o) => {
            m.insert("encoding".into(), json!("op2"));
            m.insert("opcode".into(), json!(o.op));
            m.insert("update_exec_mask".into(), json!(o.update_exec_mask));
            m.insert("update_pred".into(), json!(o.update_pred));
            (o.abs, o.omod)
        }
        AluKind::Op3(o) => {
            m.insert("encoding".into(), json!("op3"));
            m.insert("opcode".into(), json!(o.op));
            ([false; 2], 0)
        }
    };
    m.insert("dst".into(), json!({
        "gpr": i.dst_gpr,
        "chan": (CHAN[i.dst_chan as usize & 3] as char).to_string(),
        "rel": i.dst_rel,
        "write": i.writes_gpr(),
    }));
    let srcs = i.srcs();
    let v: Vec<Value> = (0..i.src_count()).map(|s| src_json(&srcs[s], s < 2 && abs[s], g, kc)).collect();
    m.insert("srcs".into(), Value::Array(v));
    m.insert("clamp".into(), json!(i.clamp));
    m.insert("omod".into(), json!(omod));
    m.insert("pred_sel".into(), json!(i.pred_sel));
    m.insert("index_mode".into(), json!(i.index_mode));
    m.insert("bank_swizzle".into(), json!(i.bank_swizzle));
    m.insert("last".into(), json!(i.last));
    m.insert("literals".into(), hex(&g.literals));
    Value::Object(m)
}

fn fetch_json(addr: usize, f: &FetchInst, in_tex: bool) -> Value {
    let mut m = Map::new();
    m.insert("addr".into(), json!(addr));
    let w = f.encode();
    match f {
        FetchInst::Tex(t) => {
            m.insert("kind".into(), json!("tex"));
            m.insert("op".into(), json!(mesa_mnemonic(t.name())));
            m.insert("words".into(), hex(&w));
            tex_fields(&mut m, t);
        }
        FetchInst::Vtx(v) => {
            m.insert("kind".into(), json!("vtx"));
            let name = if v.op == 0 { "VFETCH".to_string() } else if in_tex && v.op == 1 { "SEMANTIC".to_string() } else { v.name() };
            m.insert("op".into(), json!(name));
            m.insert("words".into(), hex(&w));
            m.insert("in_tex_clause".into(), json!(in_tex));
            vtx_fields(&mut m, v);
        }
    }
    Value::Object(m)
}

fn tex_fields(m: &mut Map<String, Value>, t: &TexInst) {
    m.insert("opcode".into(), json!(t.op));
    m.insert("dst_gpr".into(), json!(t.dst_gpr));
    m.insert("dst_rel".into(), json!(t.dst_rel));
    m.insert("dst_sel".into(), json!(swz(t.dst_sel)));
    m.insert("src_gpr".into(), json!(t.src_gpr));
    m.insert("src_rel".into(), json!(t.src_rel));
    m.insert("src_sel".into(), json!(swz(t.src_sel)));
    m.insert("resource_id".into(), json!(t.resource_id));
    m.insert("sampler_id".into(), json!(t.sampler_id));
    m.insert("lod_bias".into(), json!(signed(t.lod_bias, 7)));
    let ct: String = t.coord_type.iter().map(|&n| if n { 'N' } else { 'U' }).collect();
    m.insert("coord_type".into(), json!(ct));
    m.insert("offset".into(), json!([signed(t.offset[0], 5), signed(t.offset[1], 5), signed(t.offset[2], 5)]));
    m.insert("bc_frac_mode".into(), json!(t.bc_frac_mode));
    m.insert("fetch_whole_quad".into(), json!(t.fetch_whole_quad));
    m.insert("alt_const".into(), json!(t.alt_const));
    m.insert("reserved".into(), json!({"w0_6": t.reserved6, "w0_25": t.reserved0, "w1_8": t.reserved8}));
    m.insert("pad".into(), json!(format!("0x{:08X}", t.pad)));
}

fn vtx_fields(m: &mut Map<String, Value>, v: &VtxInst) {
    m.insert("opcode".into(), json!(v.op));
    if v.op == 1 {
        m.insert("semantic_id".into(), json!(v.dst));
    } else {
        m.insert("dst_gpr".into(), json!(v.dst & 0x7F));
        m.insert("dst_rel".into(), json!(v.dst & 0x80 != 0));
    }
    m.insert("dst_sel".into(), json!(swz(v.dst_sel)));
    m.insert("src_gpr".into(), json!(v.src_gpr));
    m.insert("src_rel".into(), json!(v.src_rel));
    m.insert("src_sel".into(), json!((CHAN[v.src_sel_x as usize & 3] as char).to_string()));
    m.insert("buffer_id".into(), json!(v.buffer_id));
    m.insert("fetch_type".into(), json!(FETCH_TYPE[v.fetch_type as usize & 3]));
    m.insert("mega_fetch_count".into(), json!(v.mega_fetch_count));
    m.insert("offset".into(), json!(v.offset));
    m.insert("use_const_fields".into(), json!(v.use_const_fields));
    m.insert("data_format".into(), json!(v.data_format));
    m.insert("num_format".into(), json!(v.num_format));
    m.insert("format_comp".into(), json!(v.format_comp));
    m.insert("srf_mode".into(), json!(v.srf_mode));
    m.insert("endian_swap".into(), json!(v.endian_swap));
    m.insert("const_buf_no_stride".into(), json!(v.const_buf_no_stride));
    m.insert("mega_fetch".into(), json!(v.mega_fetch));
    m.insert("alt_const".into(), json!(v.alt_const));
    m.insert("fetch_whole_quad".into(), json!(v.fetch_whole_quad));
    m.insert("reserved".into(), json!({"w1_8": v.reserved8, "w2_21": v.reserved2}));
    m.insert("pad".into(), json!(format!("0x{:08X}", v.pad)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_program() {
        // ALU clause of one MUL with a literal, then EXP_DONE with END_OF_PROGRAM.
        let alu = AluInst::decode(0x001F_A000 | 0x8000_0000, 0x0020_0110);
        let (a0, a1) = alu.encode();
        let words = [0x0000_0002, 0xA000_0000 | (1 << 18), 0xC000_0000, 0x9420_0688, a0, a1, 0x4000_0000, 0];
        let p = Program::decode(&words, 0).unwrap();
        let j = program_json(&p);
        let v = j["instructions"].as_array().unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v[0]["op"], "ALU");
        assert_eq!(v[0]["clause_addr"], 4);
        assert_eq!(v[0]["count"], 2);
        assert_eq!(v[1]["op"], "EXPORT_DONE");
        assert_eq!(v[1]["end_of_program"], true);
        assert_eq!(v[2]["addr"], 4);
        assert_eq!(v[2]["op"], "MUL_IEEE");
        assert_eq!(v[2]["slot"], "x");
        assert_eq!(v[2]["srcs"][1]["kind"], "literal");
        assert_eq!(v[2]["srcs"][1]["value"], "0x40000000");
        assert_eq!(v[2]["literals"][0], "0x40000000");
    }
}

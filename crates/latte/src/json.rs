//! A decoded program as JSON: one object per instruction, in address order, with every decoded
//! field (docs/latte-json.md). The `addr` of an instruction is its dword index in the program
//! and `op` its mnemonic as Mesa's r600 listings print it, so each object lines up with one line
//! of such a listing (the answer keys of the latte-mesa corpus).
//!
//! The objects are typed structs serialized by serde: keys come out in declaration order
//! (`addr`, `kind`, `op`, `words` first), and printing needs no intermediate `Value` tree.

use crate::isa::alu::{sel, AluInst, AluKind, AluSrc};
use crate::isa::cf::{CfAlu, CfExport, CfInst, CfNormal, ClauseKind};
use crate::isa::fetch::{FetchInst, TexInst, VtxInst};
use crate::isa::fields::{Fields as Layouts, Layout};
use crate::isa::names::{mesa_mnemonic, CHAN, COND, FETCH_TYPE, MEM_TYPE, SEL_CHARS, SLOT};
use crate::isa::program::{AluGroup, ClauseBody, Program};
use crate::isa::table::{self, CfClass, ExpClass};
use serde::{Serialize, Serializer};
use std::borrow::Cow;

/// Export targets by TYPE, as Mesa's listings name them.
const EXPORT_TYPE: [&str; 4] = ["PIXEL", "POS", "PARAM", "TYPE3"];

/// A dword printed as `"0x0000000C"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hex(pub u32);

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("0x{:08X}", self.0))
    }
}

/// A swizzle or mask as letters (`xyzw01?_`), or a channel letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Letters {
    buf: [u8; 4],
    len: u8,
}

impl Letters {
    fn sel(s: &[u8]) -> Letters {
        let mut buf = [0u8; 4];
        for (b, c) in buf.iter_mut().zip(s) {
            *b = SEL_CHARS[*c as usize & 7];
        }
        Letters { buf, len: s.len().min(4) as u8 }
    }
    fn chan(c: u8) -> Letters {
        Letters { buf: [CHAN[c as usize & 3], 0, 0, 0], len: 1 }
    }
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("?")
    }
}

impl Serialize for Letters {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// The JSON of a whole program.
#[derive(Clone, Debug, Serialize)]
pub struct ProgramJson {
    /// Program length in dwords.
    pub words: usize,
    /// Every instruction, sorted by `addr`.
    pub instructions: Vec<Inst>,
    /// Non-zero words outside every instruction.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra_words: Vec<ExtraWord>,
}

/// A word no instruction covers.
#[derive(Clone, Debug, Serialize)]
pub struct ExtraWord {
    /// Dword index.
    pub addr: usize,
    /// Its value.
    pub value: Hex,
}

/// One instruction: the common part, then the fields of its encoding.
#[derive(Clone, Debug, Serialize)]
pub struct Inst {
    /// Dword index of the instruction's first word.
    pub addr: usize,
    /// `cf`, `mem`, `alu`, `tex` or `vtx`.
    pub kind: &'static str,
    /// Mnemonic as Mesa's listings spell it.
    pub op: Cow<'static, str>,
    /// The instruction's words (2 for CF and ALU, 4 for fetches).
    pub words: Vec<Hex>,
    /// Fields of its encoding.
    #[serde(flatten)]
    pub fields: Fields,
    /// Every field of the encoding's field table with its raw bits, in table order
    /// (`isa::fields`): the key `fields`.
    #[serde(rename = "fields")]
    pub raw: RawFields,
}

/// The raw fields of an instruction, named as its field table names them; serialized as an
/// object `{"name": bits, ...}` in table order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawFields(pub Vec<(&'static str, u32)>);

impl RawFields {
    fn of(layouts: &[&Layout], words: &[u32]) -> RawFields {
        RawFields(layouts.iter().flat_map(|l| l.describe(words)).collect())
    }
}

impl Serialize for RawFields {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// The fields of each encoding.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Fields {
    /// Plain CF encoding.
    Cf(CfJson),
    /// CF_ALU encoding.
    CfAlu(CfAluJson),
    /// CF_ALLOC_EXPORT encoding (EXPORT and MEM_*).
    Export(ExportJson),
    /// ALU instruction.
    Alu(AluJson),
    /// Texture fetch.
    Tex(TexJson),
    /// Vertex fetch.
    Vtx(VtxJson),
}

/// Plain CF fields: those of [`CfNormal`] under the same names, plus derived addresses.
#[derive(Clone, Debug, Serialize)]
pub struct CfJson {
    /// Index in the CF program.
    pub index: usize,
    pub encoding: &'static str,
    pub opcode: u8,
    /// ADDR as stored (64-bit units).
    pub cf_addr: u32,
    /// TEX/VTX clauses: 2 × ADDR.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clause_addr: Option<u64>,
    /// Other CF: 2 × ADDR, the dword a branch or loop goes to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<u64>,
    /// Fetch clauses: instructions; others: the raw COUNT field.
    pub count: u32,
    pub pop_count: u8,
    pub cf_const: u8,
    pub cond: &'static str,
    pub call_count: u8,
    pub reserved20: bool,
    pub end_of_program: bool,
    pub valid_pixel_mode: bool,
    pub whole_quad_mode: bool,
    pub barrier: bool,
}

/// One kcache set of a CF_ALU instruction ([`crate::isa::Kcache`]; `line` is its ADDR).
#[derive(Clone, Debug, Serialize)]
pub struct KcacheJson {
    pub bank: u8,
    pub mode: u8,
    pub line: u8,
    /// First constant locked (16 × line).
    pub first: u32,
    /// Constants locked: 16 per line (LOCK_1: 16, LOCK_2: 32, otherwise 0).
    pub constants: u32,
}

/// CF_ALU fields: those of [`CfAlu`] under the same names, plus derived addresses.
#[derive(Clone, Debug, Serialize)]
pub struct CfAluJson {
    pub index: usize,
    pub encoding: &'static str,
    pub opcode: u8,
    pub cf_addr: u32,
    /// 2 × ADDR.
    pub clause_addr: u64,
    /// Slots, literals included.
    pub count: u32,
    pub kcache: [KcacheJson; 2],
    pub alt_const: bool,
    pub whole_quad_mode: bool,
    pub barrier: bool,
}

/// EXPORT / MEM_* fields: those of [`CfExport`] (`gpr` = RW_GPR, `rel` = RW_REL, `type` = TYPE).
#[derive(Clone, Debug, Serialize)]
pub struct ExportJson {
    pub index: usize,
    pub encoding: &'static str,
    pub opcode: u8,
    /// PIXEL, POS, PARAM; WRITE, WRITE_IND, READ, READ_IND for MEM_*.
    #[serde(rename = "type")]
    pub ty: &'static str,
    pub array_base: u16,
    pub gpr: u8,
    pub rel: bool,
    pub index_gpr: u8,
    pub elem_size: u8,
    /// The BURST_COUNT field (exports − 1).
    pub burst_count: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swizzle: Option<Letters>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub array_size: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comp_mask: Option<u8>,
    /// Word 1 bits 16:12 (export form) or bit 16 (memory form).
    pub reserved: u32,
    pub end_of_program: bool,
    pub valid_pixel_mode: bool,
    pub whole_quad_mode: bool,
    pub barrier: bool,
}

/// An ALU destination: DST_GPR, DST_CHAN, DST_REL and whether the GPR is written.
#[derive(Clone, Debug, Serialize)]
pub struct DstJson {
    pub gpr: u8,
    pub chan: Letters,
    pub rel: bool,
    pub write: bool,
}

/// An ALU source operand: SEL, CHAN, NEG, ABS, REL and what the selector names.
#[derive(Clone, Debug, Serialize)]
pub struct SrcJson {
    /// `gpr`, `kcache`, `inline`, `literal`, `pv`, `ps`, `cfile` or `other`.
    pub kind: &'static str,
    pub sel: u16,
    pub chan: Letters,
    pub neg: bool,
    pub abs: bool,
    pub rel: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpr: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kcache_set: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kcache_index: Option<u16>,
    /// The constant buffer of a kcache source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank: Option<u8>,
    /// The constant a kcache source selects (16 per locked line).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constant: Option<u32>,
    /// An inline constant as Mesa spells it: `0`, `1.0`, `1`, `-1`, `0.5`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inline: Option<&'static str>,
    /// Bits of an inline constant or literal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Hex>,
    /// Those bits as a float (beside `value`; null for NaN and infinities).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub float: Option<Float>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cfile: Option<u16>,
}

/// ALU instruction fields: those of [`AluInst`] and its OP2/OP3 part under the same names.
#[derive(Clone, Debug, Serialize)]
pub struct AluJson {
    /// ALU groups counted from 1 through the program, as Mesa numbers them.
    pub group: usize,
    /// x, y, z, w, t; None when two instructions claim one slot.
    pub slot: Option<char>,
    pub encoding: &'static str,
    pub opcode: u16,
    pub dst: DstJson,
    pub srcs: Vec<SrcJson>,
    pub clamp: bool,
    pub omod: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update_exec_mask: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update_pred: Option<bool>,
    pub pred_sel: u8,
    pub index_mode: u8,
    pub bank_swizzle: u8,
    pub last: bool,
    /// The literal dwords of the group (0, 2 or 4, padding included).
    pub literals: Vec<Hex>,
    /// The same dwords as floats, beside `literals`.
    pub literal_floats: Vec<Float>,
}

/// A dword's bits as an f32, printed as a JSON number (null where JSON has none: NaN, ±inf).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Float(pub u32);

impl Serialize for Float {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = f32::from_bits(self.0);
        if f.is_finite() {
            s.serialize_f32(f)
        } else {
            s.serialize_none()
        }
    }
}

/// Texture fetch fields: those of [`TexInst`] under the same names.
#[derive(Clone, Debug, Serialize)]
pub struct TexJson {
    pub opcode: u8,
    pub dst_gpr: u8,
    pub dst_rel: bool,
    pub dst_sel: Letters,
    pub src_gpr: u8,
    pub src_rel: bool,
    pub src_sel: Letters,
    pub resource_id: u8,
    pub sampler_id: u8,
    /// The signed LOD_BIAS field.
    pub lod_bias: i32,
    /// N normalized / U unnormalized, per component (Mesa's CT:).
    pub coord_type: Letters,
    /// The signed 5-bit OFFSET_X/Y/Z fields (half texels).
    pub offset: [i32; 3],
    pub bc_frac_mode: bool,
    pub fetch_whole_quad: bool,
    pub alt_const: bool,
    /// Reserved bits: word 0 bit 6, word 0 bits 31:25, word 1 bit 8.
    pub reserved: [u32; 3],
    pub pad: Hex,
}

/// Vertex fetch fields: those of [`VtxInst`] under the same names.
#[derive(Clone, Debug, Serialize)]
pub struct VtxJson {
    pub opcode: u8,
    /// A VTX_FETCH / VTX_SEMANTIC inside a TEX clause.
    pub in_tex_clause: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dst_gpr: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dst_rel: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic_id: Option<u8>,
    pub dst_sel: Letters,
    pub src_gpr: u8,
    pub src_rel: bool,
    pub src_sel: Letters,
    pub buffer_id: u8,
    pub fetch_type: &'static str,
    pub mega_fetch_count: u8,
    /// Bytes added to the fetch address.
    pub offset: u16,
    pub use_const_fields: bool,
    pub data_format: u8,
    pub num_format: u8,
    pub format_comp: bool,
    pub srf_mode: bool,
    pub endian_swap: u8,
    pub const_buf_no_stride: bool,
    pub mega_fetch: bool,
    pub alt_const: bool,
    pub fetch_whole_quad: bool,
    /// Reserved bits: word 1 bit 8, word 2 bits 31:21.
    pub reserved: [u32; 2],
    pub pad: Hex,
}

/// Sign-extends the low `bits` bits of `v`.
fn signed(v: u8, bits: u32) -> i32 {
    let s = 32 - bits;
    ((v as i32) << s) >> s
}

/// The typed JSON of a program (serialize it with serde_json).
pub fn program(p: &Program) -> ProgramJson {
    let mut v: Vec<Inst> = Vec::with_capacity(p.instruction_count());
    for (i, c) in p.cf.iter().enumerate() {
        v.push(cf_inst(i, c));
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
                        v.push(alu_inst(w, group, k, g, inst, kc));
                        w += 2;
                    }
                    w += g.literals.len();
                }
            }
            ClauseBody::Fetch(f) => {
                for inst in f {
                    v.push(fetch_inst(w, inst, cl.kind == ClauseKind::Tex));
                    w += 4;
                }
            }
        }
    }
    v.sort_by_key(|i| i.addr);
    ProgramJson {
        words: p.len,
        instructions: v,
        extra_words: p.extra.iter().map(|&(addr, w)| ExtraWord { addr, value: Hex(w) }).collect(),
    }
}

/// The whole program as a JSON value: `{"words", "instructions": [...]}` (and `"extra_words"`
/// when words lie outside every instruction).
pub fn program_json(p: &Program) -> serde_json::Value {
    // Serializing plain structs of numbers, strings and bools cannot fail.
    serde_json::to_value(program(p)).unwrap_or(serde_json::Value::Null)
}

fn cf_inst(i: usize, c: &CfInst) -> Inst {
    let (w0, w1) = c.encode();
    let name = c.name();
    let op = Cow::Owned(mesa_mnemonic(&name).to_string());
    let (kind, fields, layout) = match c {
        CfInst::Normal(n) => ("cf", Fields::Cf(normal_fields(i, n)), &<CfNormal as Layouts>::LAYOUT),
        CfInst::Alu(a) => ("cf", Fields::CfAlu(alu_cf_fields(i, a)), &<CfAlu as Layouts>::LAYOUT),
        CfInst::Export(e) => (
            if e.class() == ExpClass::Mem { "mem" } else { "cf" },
            Fields::Export(export_fields(i, e)),
            &<CfExport as Layouts>::LAYOUT,
        ),
    };
    let raw = RawFields::of(&[layout], &[w0, w1]);
    Inst { addr: 2 * i, kind, op, words: vec![Hex(w0), Hex(w1)], fields, raw }
}

fn normal_fields(index: usize, n: &CfNormal) -> CfJson {
    let class = table::cf_op(n.op).map_or(CfClass::Plain, |o| o.class);
    let clause = matches!(class, CfClass::Tex | CfClass::Vtx);
    CfJson {
        index,
        encoding: "cf",
        opcode: n.op,
        cf_addr: n.addr,
        clause_addr: clause.then_some(2 * n.addr as u64),
        target: (!clause).then_some(2 * n.addr as u64),
        count: if clause { n.count as u32 + 1 } else { n.count as u32 },
        pop_count: n.pop_count,
        cf_const: n.cf_const,
        cond: COND[n.cond as usize & 3],
        call_count: n.call_count,
        reserved20: n.reserved20,
        end_of_program: n.end_of_program,
        valid_pixel_mode: n.valid_pixel_mode,
        whole_quad_mode: n.whole_quad_mode,
        barrier: n.barrier,
    }
}

fn alu_cf_fields(index: usize, a: &CfAlu) -> CfAluJson {
    let kc = |k: usize| {
        let s = a.kcache[k];
        // LOCK_1 locks one line of 16 constants, LOCK_2 two (§1.3).
        let lines = if matches!(s.mode, 1 | 2) { s.mode as u32 } else { 0 };
        KcacheJson { bank: s.bank, mode: s.mode, line: s.addr, first: s.addr as u32 * 16, constants: lines * 16 }
    };
    CfAluJson {
        index,
        encoding: "cf_alu",
        opcode: a.op,
        cf_addr: a.addr,
        clause_addr: 2 * a.addr as u64,
        count: a.count as u32 + 1,
        kcache: [kc(0), kc(1)],
        alt_const: a.alt_const,
        whole_quad_mode: a.whole_quad_mode,
        barrier: a.barrier,
    }
}

fn export_fields(index: usize, e: &CfExport) -> ExportJson {
    let mem = e.class() == ExpClass::Mem;
    let sels = [e.sel(0), e.sel(1), e.sel(2), e.sel(3)];
    ExportJson {
        index,
        encoding: "cf_alloc_export",
        opcode: e.op,
        ty: if mem { MEM_TYPE[e.kind as usize & 3] } else { EXPORT_TYPE[e.kind as usize & 3] },
        array_base: e.array_base,
        gpr: e.rw_gpr,
        rel: e.rw_rel,
        index_gpr: e.index_gpr,
        elem_size: e.elem_size,
        burst_count: e.burst_count,
        swizzle: (!mem).then(|| Letters::sel(&sels)),
        array_size: mem.then(|| e.array_size()),
        comp_mask: mem.then(|| e.comp_mask()),
        reserved: e.reserved(),
        end_of_program: e.end_of_program,
        valid_pixel_mode: e.valid_pixel_mode,
        whole_quad_mode: e.whole_quad_mode,
        barrier: e.barrier,
    }
}

fn src_json(s: &AluSrc, abs: bool, g: &AluGroup, kc: Option<&CfAlu>) -> SrcJson {
    let mut o = SrcJson {
        kind: "other",
        sel: s.sel,
        chan: Letters::chan(s.chan),
        neg: s.neg,
        abs,
        rel: s.rel,
        gpr: None,
        kcache_set: None,
        kcache_index: None,
        bank: None,
        constant: None,
        inline: None,
        value: None,
        float: None,
        cfile: None,
    };
    match s.sel {
        0..=127 => {
            o.kind = "gpr";
            o.gpr = Some(s.sel);
        }
        128..=191 => {
            let set = if s.sel < sel::KCACHE1 { 0 } else { 1 };
            let index = s.sel - if set == 0 { sel::KCACHE0 } else { sel::KCACHE1 };
            o.kind = "kcache";
            o.kcache_set = Some(set as u8);
            o.kcache_index = Some(index);
            if let Some(k) = kc.map(|a| a.kcache[set]) {
                o.bank = Some(k.bank);
                o.constant = Some(k.addr as u32 * 16 + index as u32);
            }
        }
        sel::ZERO | sel::ONE | sel::ONE_INT | sel::MINUS_ONE_INT | sel::HALF => {
            let (name, bits) = match s.sel {
                sel::ZERO => ("0", 0u32),
                sel::ONE => ("1.0", 0x3F80_0000),
                sel::ONE_INT => ("1", 1),
                sel::MINUS_ONE_INT => ("-1", 0xFFFF_FFFF),
                _ => ("0.5", 0x3F00_0000),
            };
            o.kind = "inline";
            o.inline = Some(name);
            o.value = Some(Hex(bits));
            o.float = Some(Float(bits));
        }
        sel::LITERAL => {
            o.kind = "literal";
            o.value = g.literals.get(s.chan as usize).map(|&v| Hex(v));
            o.float = g.literals.get(s.chan as usize).map(|&v| Float(v));
        }
        sel::PV => o.kind = "pv",
        sel::PS => o.kind = "ps",
        256..=511 => {
            o.kind = "cfile";
            o.cfile = Some(s.sel - sel::CFILE);
        }
        _ => {}
    }
    o
}

fn alu_inst(addr: usize, group: usize, k: usize, g: &AluGroup, i: &AluInst, kc: Option<&CfAlu>) -> Inst {
    let (w0, w1) = i.encode();
    let (encoding, opcode, abs, omod, uem, up) = match &i.kind {
        AluKind::Op2(o) => ("op2", o.op, o.abs, o.omod, Some(o.update_exec_mask), Some(o.update_pred)),
        AluKind::Op3(o) => ("op3", o.op, [false; 2], 0, None, None),
    };
    let srcs = i.srcs();
    let fields = AluJson {
        group,
        slot: g.slots.and_then(|s| SLOT.get(s[k] as usize)).map(|&c| c as char),
        encoding,
        opcode,
        dst: DstJson { gpr: i.dst_gpr, chan: Letters::chan(i.dst_chan), rel: i.dst_rel, write: i.writes_gpr() },
        srcs: (0..i.src_count()).map(|s| src_json(&srcs[s], s < 2 && abs[s], g, kc)).collect(),
        clamp: i.clamp,
        omod,
        update_exec_mask: uem,
        update_pred: up,
        pred_sel: i.pred_sel,
        index_mode: i.index_mode,
        bank_swizzle: i.bank_swizzle,
        last: i.last,
        literals: g.literals.iter().map(|&l| Hex(l)).collect(),
        literal_floats: g.literals.iter().map(|&l| Float(l)).collect(),
    };
    let op = match i.op_info() {
        Some(info) => Cow::Borrowed(info.name),
        None => Cow::Owned(i.name()),
    };
    let raw = RawFields::of(&[&<AluInst as Layouts>::LAYOUT, i.kind_layout()], &[w0, w1]);
    Inst { addr, kind: "alu", op, words: vec![Hex(w0), Hex(w1)], fields: Fields::Alu(fields), raw }
}

fn fetch_inst(addr: usize, f: &FetchInst, in_tex: bool) -> Inst {
    let w = f.encode();
    let words = w.iter().map(|&w| Hex(w)).collect();
    match f {
        FetchInst::Tex(t) => Inst {
            addr,
            kind: "tex",
            op: Cow::Borrowed(mesa_mnemonic(t.name())),
            words,
            fields: Fields::Tex(tex_fields(t)),
            raw: RawFields::of(&[&<TexInst as Layouts>::LAYOUT], &w),
        },
        FetchInst::Vtx(v) => {
            let op = match v.op {
                0 => Cow::Borrowed("VFETCH"),
                1 => Cow::Borrowed("SEMANTIC"),
                _ => Cow::Owned(v.name()),
            };
            let raw = RawFields::of(&[&<VtxInst as Layouts>::LAYOUT], &w);
            Inst { addr, kind: "vtx", op, words, fields: Fields::Vtx(vtx_fields(v, in_tex)), raw }
        }
    }
}

fn tex_fields(t: &TexInst) -> TexJson {
    let ct: Vec<u8> = t.coord_type.iter().map(|&n| if n { b'N' } else { b'U' }).collect();
    TexJson {
        opcode: t.op,
        dst_gpr: t.dst_gpr,
        dst_rel: t.dst_rel,
        dst_sel: Letters::sel(&t.dst_sel),
        src_gpr: t.src_gpr,
        src_rel: t.src_rel,
        src_sel: Letters::sel(&t.src_sel),
        resource_id: t.resource_id,
        sampler_id: t.sampler_id,
        lod_bias: signed(t.lod_bias, 7),
        coord_type: Letters { buf: [ct[0], ct[1], ct[2], ct[3]], len: 4 },
        offset: [signed(t.offset[0], 5), signed(t.offset[1], 5), signed(t.offset[2], 5)],
        bc_frac_mode: t.bc_frac_mode,
        fetch_whole_quad: t.fetch_whole_quad,
        alt_const: t.alt_const,
        reserved: [t.reserved6 as u32, t.reserved0 as u32, t.reserved8 as u32],
        pad: Hex(t.pad),
    }
}

fn vtx_fields(v: &VtxInst, in_tex: bool) -> VtxJson {
    let semantic = v.op == 1;
    VtxJson {
        opcode: v.op,
        in_tex_clause: in_tex,
        dst_gpr: (!semantic).then_some(v.dst & 0x7F),
        dst_rel: (!semantic).then_some(v.dst & 0x80 != 0),
        semantic_id: semantic.then_some(v.dst),
        dst_sel: Letters::sel(&v.dst_sel),
        src_gpr: v.src_gpr,
        src_rel: v.src_rel,
        src_sel: Letters::chan(v.src_sel_x),
        buffer_id: v.buffer_id,
        fetch_type: FETCH_TYPE[v.fetch_type as usize & 3],
        mega_fetch_count: v.mega_fetch_count,
        offset: v.offset,
        use_const_fields: v.use_const_fields,
        data_format: v.data_format,
        num_format: v.num_format,
        format_comp: v.format_comp,
        srf_mode: v.srf_mode,
        endian_swap: v.endian_swap,
        const_buf_no_stride: v.const_buf_no_stride,
        mega_fetch: v.mega_fetch,
        alt_const: v.alt_const,
        fetch_whole_quad: v.fetch_whole_quad,
        reserved: [v.reserved8 as u32, v.reserved2 as u32],
        pad: Hex(v.pad),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ALU clause of one MUL with a literal, then EXP_DONE with END_OF_PROGRAM.
    fn small_program() -> Program {
        let alu = AluInst::decode(0x001F_A000 | 0x8000_0000, 0x0020_0110);
        let (a0, a1) = alu.encode();
        let words = [0x0000_0002, 0xA000_0000 | (1 << 18), 0xC000_0000, 0x9420_0688, a0, a1, 0x4000_0000, 0];
        Program::decode(&words, 0).unwrap()
    }

    #[test]
    fn a_small_program() {
        let p = small_program();
        let j = program_json(&p);
        let v = j["instructions"].as_array().unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v[0]["op"], "ALU");
        assert_eq!(v[0]["clause_addr"], 4);
        assert_eq!(v[0]["count"], 2);
        assert_eq!(v[1]["op"], "EXPORT_DONE");
        assert_eq!(v[1]["end_of_program"], true);
        assert_eq!(v[1]["swizzle"], "xyzw");
        assert_eq!(v[2]["addr"], 4);
        assert_eq!(v[2]["op"], "MUL_IEEE");
        assert_eq!(v[2]["slot"], "x");
        assert_eq!(v[2]["srcs"][1]["kind"], "literal");
        assert_eq!(v[2]["srcs"][1]["value"], "0x40000000");
        assert_eq!(v[2]["literals"][0], "0x40000000");
        // Keys in declaration order: addr, kind, op, words first.
        let text = serde_json::to_string(&program(&p)).unwrap();
        assert!(
            text.starts_with(r#"{"words":8,"instructions":[{"addr":0,"kind":"cf","op":"ALU","words":["0x00000002","#),
            "{text}"
        );
    }

    #[test]
    fn raw_fields_come_from_the_field_tables() {
        let p = small_program();
        let j = program_json(&p);
        let v = j["instructions"].as_array().unwrap();
        assert_eq!(v[0]["fields"]["count"], 1);
        assert_eq!(v[0]["fields"]["barrier"], 1);
        assert_eq!(v[1]["fields"]["end_of_program"], 1);
        assert_eq!(v[1]["fields"]["op"], 0x28);
        assert_eq!(v[2]["fields"]["src1_sel"], 253);
        assert_eq!(v[2]["fields"]["write_mask"], 1);
        // In table order, after the typed keys.
        let text = serde_json::to_string(&program(&p)).unwrap();
        assert!(text.contains(r#""fields":{"src0_sel":"#), "{text}");
    }

    #[test]
    fn literals_carry_their_float_value() {
        let p = small_program();
        let j = program_json(&p);
        let v = &j["instructions"][2];
        assert_eq!(v["srcs"][1]["value"], "0x40000000");
        assert_eq!(v["srcs"][1]["float"], 2.0);
        assert_eq!(v["literal_floats"][0], 2.0);
        assert_eq!(v["literal_floats"][1], 0.0);
        assert_eq!(serde_json::to_string(&Float(0x7FC0_0000)).unwrap(), "null");
    }
}

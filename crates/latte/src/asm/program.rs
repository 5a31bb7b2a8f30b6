//! Assembling program text: the syntax of decaf-emu's latte-assembler (CF lines `NN NAME ...`,
//! clause bodies with group numbers and slot letters, `END_OF_PROGRAM`), extended so that every
//! field the disassembler prints has a spelling (docs/latte-asm.md).

pub use super::alu::Literals;
pub(crate) use super::alu::{parse_alu, AluLine, LitCtx};
use super::lex::{bounded, num};
pub(crate) use super::line::{parse_cf, parse_fetch};
use crate::error::{Error, Result};
use crate::isa::alu::AluInst;
use crate::isa::cf::{CfInst, CfNormal, ClauseKind};
use crate::isa::fetch::FetchInst;
use crate::isa::names::*;
use crate::isa::program::{literal_words, AluGroup, Clause, ClauseBody, Program};
use crate::isa::table;

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
    /// The assembled program.
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
    assemble_with(text, Literals::Slots)
}

/// [`assemble`], with float literals equal to an inline constant assembled as `literals` says
/// (the newer latte-assembler's sources want [`Literals::Inline`]).
///
/// # Errors
/// The first error, with its line number.
pub fn assemble_with(text: &str, literals: Literals) -> Result<Assembled> {
    let mut cf: Vec<CfInst> = Vec::new();
    let mut clauses: Vec<PendingClause> = Vec::new();
    let mut comments = Vec::new();
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
            // END_OF_PROGRAM belongs to the CF instruction before it; subroutines may follow.
            match cf.last_mut() {
                Some(CfInst::Normal(n)) => n.end_of_program = true,
                Some(CfInst::Export(e)) => e.end_of_program = true,
                _ => cf.push(CfInst::Normal(CfNormal { end_of_program: true, ..Default::default() })),
            }
            continue;
        }
        if let Some(r) = line.strip_prefix("#WORD") {
            let mut it = r.split_whitespace();
            let (Some(i), Some(v)) = (it.next(), it.next()) else {
                return Err(err("#WORD needs an index and a value".into()));
            };
            let i = bounded(i, 1 << 20, "word index").map_err(err)? as usize;
            extra_words.push((i, num(v).map_err(err)? as u32));
            continue;
        }
        if let Some(r) = line.strip_prefix("#SIZE") {
            size = Some(bounded(r.trim(), 1 << 20, "program size").map_err(err)? as usize);
            continue;
        }
        // Slot continuation line: "y: MUL ...".
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some(unit) = unit_of(first) {
            let cl = clauses
                .last_mut()
                .filter(|c| c.kind == ClauseKind::Alu && !c.groups.is_empty())
                .ok_or_else(|| err("ALU instruction outside an ALU group".into()))?;
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
            let cl = clauses
                .last_mut()
                .filter(|c| c.kind == ClauseKind::Alu && c.cf_index + 1 == cf.len())
                .ok_or_else(|| err("ALU group outside an ALU clause".into()))?;
            let mut ctx = LitCtx { inline: literals == Literals::Inline, ..Default::default() };
            let l = parse_alu(unit, &rest[second.len()..], &mut ctx).map_err(err)?;
            cl.groups.push((vec![l], ctx, ln));
            continue;
        }
        let name = second.trim_end_matches(':');
        let in_fetch = clauses.last().filter(|c| c.kind != ClauseKind::Alu && c.cf_index + 1 == cf.len());
        let is_cf = name == "EXPORT"
            || name == "EXPORT_DONE"
            || table::CF_OPS.iter().any(|o| o.name == name)
            || table::CF_ALU_OPS.iter().any(|o| o.1 == name)
            || table::CF_EXP_OPS.iter().any(|o| o.1 == name)
            || name.starts_with("CF_0x")
            || name.starts_with("EXP_0x");
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
            clauses.push(PendingClause {
                cf_index: cf.len(),
                kind,
                addr: extra.addr,
                cnt: extra.cnt,
                line: ln,
                groups: vec![],
                fetches: vec![],
            });
        }
        cf.push(inst);
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

//! Random structurally valid programs from an `arbitrary::Unstructured` byte source (wasm-smith
//! style, STYLE.md "Random valid programs"): CF instructions with ALU, TEX and VTX clauses,
//! groups with literals, exports and branches, every other field random. Decoding the encoded
//! words gives back the same `Program`, which the tests check together with disassemble ->
//! assemble.

use super::alu::{assign_slots, AluInst};
use super::cf::{CfInst, ClauseKind};
use super::fetch::FetchInst;
use super::program::{literal_words, AluGroup, Clause, ClauseBody, Program};
use super::table::{self, CfClass};
use arbitrary::{Result, Unstructured};

/// Knobs of the generator.
#[derive(Clone, Debug)]
pub struct Config {
    /// Most CF instructions (the last one ends the program).
    pub max_cf: usize,
    /// Most groups per ALU clause.
    pub max_groups: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config { max_cf: 12, max_groups: 6 }
    }
}

fn cf_word1_plain(u: &mut Unstructured<'_>, op: u8) -> Result<u32> {
    // Random flags, the given opcode, END_OF_PROGRAM clear (set on the last CF only).
    let w: u32 = u.arbitrary()?;
    Ok((w & !(0x7F << 23) & !(1 << 21)) | ((op as u32) << 23))
}

fn alu_group(u: &mut Unstructured<'_>) -> Result<AluGroup> {
    let n = u.int_in_range(1..=5)?;
    let mut insts = Vec::with_capacity(n);
    for k in 0..n {
        let mut i = AluInst::decode(u.arbitrary()?, u.arbitrary()?);
        i.last = k == n - 1;
        insts.push(i);
    }
    let nl = literal_words(&insts);
    let mut literals = Vec::with_capacity(nl);
    for _ in 0..nl {
        literals.push(u.arbitrary()?);
    }
    let slots = assign_slots(&insts);
    Ok(AluGroup { insts, slots, literals })
}

/// A random program.
///
/// # Errors
/// Only when `u` runs out in a way `arbitrary` reports.
pub fn program(u: &mut Unstructured<'_>, cfg: &Config) -> Result<Program> {
    let ncf = u.int_in_range(1..=cfg.max_cf.max(1))?;
    let mut cf = Vec::with_capacity(ncf);
    let mut bodies: Vec<Option<(ClauseKind, ClauseBody)>> = Vec::with_capacity(ncf);
    let plain: Vec<u8> =
        table::CF_OPS.iter().filter(|o| matches!(o.class, CfClass::Plain | CfClass::Branch)).map(|o| o.code).collect();
    for i in 0..ncf {
        let last = i == ncf - 1;
        let choice = if last { u.int_in_range(0..=1)? } else { u.int_in_range(0..=4)? };
        match choice {
            0 => {
                let op = *u.choose(&plain)?;
                let w1 = cf_word1_plain(u, op)?;
                // A CALL past END_OF_PROGRAM would make the decoder read on (subroutines);
                // keep generated calls inside the program.
                let w0 = if op == 0x12 { u.int_in_range(0..=ncf as u32 - 1)? } else { u.arbitrary()? };
                cf.push(CfInst::decode(w0, w1));
                bodies.push(None);
            }
            1 => {
                let op = u.int_in_range(0x20u8..=0x3F)?;
                let w1 = cf_word1_plain(u, op)?;
                cf.push(CfInst::decode(u.arbitrary()?, w1));
                bodies.push(None);
            }
            2 => {
                let w1: u32 = u.arbitrary()?;
                cf.push(CfInst::decode(u.arbitrary()?, w1 | (1 << 29)));
                let ng = u.int_in_range(1..=cfg.max_groups.max(1))?;
                let groups = (0..ng).map(|_| alu_group(u)).collect::<Result<Vec<_>>>()?;
                bodies.push(Some((ClauseKind::Alu, ClauseBody::Alu(groups))));
            }
            _ => {
                let tex = choice == 3;
                let op = if tex { *u.choose(&[0x01u8, 0x1B])? } else { *u.choose(&[0x02u8, 0x03, 0x1C, 0x1D])? };
                let w1 = cf_word1_plain(u, op)?;
                cf.push(CfInst::decode(u.arbitrary()?, w1));
                let n = u.int_in_range(1..=16)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(FetchInst::decode(u.arbitrary()?, tex));
                }
                bodies.push(Some((if tex { ClauseKind::Tex } else { ClauseKind::Vtx }, ClauseBody::Fetch(v))));
            }
        }
    }
    match cf.last_mut() {
        Some(CfInst::Normal(n)) => n.end_of_program = true,
        Some(CfInst::Export(e)) => e.end_of_program = true,
        _ => {}
    }
    // Lay the clauses out after the CF program, with random gaps and alignment.
    let mut at = ncf as u32 + u.int_in_range(0..=8)?;
    let mut clauses = Vec::new();
    for (ci, b) in bodies.into_iter().enumerate() {
        let Some((kind, body)) = b else { continue };
        if kind != ClauseKind::Alu && u.arbitrary()? {
            at = at.div_ceil(2) * 2;
        }
        let units = match &body {
            ClauseBody::Alu(g) => g.iter().map(|g| g.insts.len() as u32 + g.literals.len() as u32 / 2).sum::<u32>(),
            ClauseBody::Fetch(v) => 2 * v.len() as u32,
        };
        let count = match &body {
            ClauseBody::Alu(_) => units,
            ClauseBody::Fetch(v) => v.len() as u32,
        };
        if kind == ClauseKind::Alu && count > 128 {
            continue;
        }
        match &mut cf[ci] {
            CfInst::Alu(a) => {
                a.addr = at;
                a.count = (count - 1) as u8;
            }
            CfInst::Normal(n) => {
                n.addr = at;
                n.count = (count - 1) as u8;
            }
            CfInst::Export(_) => {}
        }
        clauses.push(Clause { cf_index: ci, kind, addr: at, body });
        at += units + u.int_in_range(0..=4)?;
    }
    // An ALU clause dropped for size leaves its CF without a clause: make it a NOP.
    for (ci, c) in cf.iter_mut().enumerate() {
        if c.clause().is_some() && !clauses.iter().any(|cl| cl.cf_index == ci) {
            let (w0, w1) = (0, cf_word1_plain(u, 0)?);
            *c = CfInst::decode(w0, w1);
        }
    }
    let len = 2 * at as usize;
    Ok(Program { cf, clauses, len, extra: Vec::new() })
}

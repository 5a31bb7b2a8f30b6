//! A whole Latte program: the CF instructions from word 0 up to END_OF_PROGRAM, and the
//! clauses they run (latte-semantics-facts.md §1.1, §1.9).

use super::alu::{assign_slots, sel, AluInst};
use super::cf::{CfInst, ClauseKind};
use super::fetch::FetchInst;
use crate::error::{Error, Result};

/// One VLIW instruction group and the literal constants that follow it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AluGroup {
    /// The instructions in encoding order.
    pub insts: Vec<AluInst>,
    /// Slot of each instruction (0-3 x-w, 4 t; entries past `insts.len()` unused); `None` when
    /// two instructions claim a slot.
    pub slots: Option<[u8; 5]>,
    /// Literal dwords (0, 2 or 4: one or two 64-bit slots, padding included).
    pub literals: Vec<u32>,
}

/// The body of a clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClauseBody {
    /// An ALU clause / the CF_ALU encoding.
    Alu(Vec<AluGroup>),
    /// Fetch instructions.
    Fetch(Vec<FetchInst>),
}

/// A clause run by CF instruction `cf_index`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// Index of the CF instruction that runs the clause.
    pub cf_index: usize,
    /// Clause kind.
    pub kind: ClauseKind,
    /// Start in 64-bit units.
    pub addr: u32,
    /// Its instructions.
    pub body: ClauseBody,
}

/// A decoded program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// CF instructions from word 0 to END_OF_PROGRAM.
    pub cf: Vec<CfInst>,
    /// One per clause-running CF instruction, in CF order.
    pub clauses: Vec<Clause>,
    /// Program length in words.
    pub len: usize,
    /// Non-zero words that no instruction covers (word index, value), kept so that encoding
    /// gives back every word.
    pub extra: Vec<(usize, u32)>,
}

/// Literal dwords that follow a group: two if only X/Y are read, four if Z or W are (§1.9,
/// Cemu's rule; Mesa and the latte-assembler agree on it).
pub fn literal_words(insts: &[AluInst]) -> usize {
    let mut n = 0;
    for i in insts {
        let srcs = i.srcs();
        for s in &srcs[..i.src_count().min(3)] {
            if s.sel == sel::LITERAL {
                n = n.max(if s.chan >= 2 { 4 } else { 2 });
            }
        }
    }
    n
}

impl Program {
    /// Decodes `words`; `base` is the byte offset of word 0 in its file (for error positions).
    ///
    /// # Errors
    /// A clause that lies outside the program, or an ALU group whose literals run past the
    /// clause, with the byte offset of the CF instruction or word concerned.
    pub fn decode(words: &[u32], base: usize) -> Result<Program> {
        let len = words.len();
        let mut covered = vec![false; len];
        let mut cf: Vec<CfInst> = Vec::new();
        let mut i = 0;
        // The CF program ends at END_OF_PROGRAM (§1.1). Subroutines that CALL targets past it
        // (Nintendo's compiler may place them there) are decoded too, up to their RETURN and
        // never into clause memory.
        let mut target: Option<usize> = None;
        let mut past_eop = false;
        while 2 * i + 1 < len {
            let inst = CfInst::decode(words[2 * i], words[2 * i + 1]);
            cf.push(inst);
            covered[2 * i] = true;
            covered[2 * i + 1] = true;
            i += 1;
            if let CfInst::Normal(n) = &inst {
                if n.op == 0x12 {
                    target = target.max(Some(n.addr as usize));
                }
            }
            past_eop |= inst.end_of_program();
            let ends = inst.end_of_program() || (past_eop && matches!(&inst, CfInst::Normal(n) if n.op == 0x14));
            if ends {
                let first_clause =
                    cf.iter().filter_map(|c| c.clause()).map(|c| c.1 as usize).min().unwrap_or(usize::MAX);
                match target {
                    Some(t) if t >= i && t < first_clause && 2 * t + 1 < len => {}
                    _ => break,
                }
            }
        }
        let mut clauses = Vec::new();
        for (ci, inst) in cf.iter().enumerate() {
            let Some((kind, addr, count)) = inst.clause() else { continue };
            let at = base + ci * 8;
            let start = 2 * addr as usize;
            let body = match kind {
                ClauseKind::Alu => {
                    let end = start + 2 * count as usize;
                    if end > len {
                        return Err(Error::invalid(
                            at,
                            format!(
                                "CF {ci}: ALU clause at {addr} of {count} slots runs past the program ({len} words)"
                            ),
                        ));
                    }
                    let mut groups = Vec::new();
                    let mut p = start;
                    while p < end {
                        let mut insts = Vec::with_capacity(5);
                        loop {
                            let inst = AluInst::decode(words[p], words[p + 1]);
                            covered[p] = true;
                            covered[p + 1] = true;
                            p += 2;
                            insts.push(inst);
                            if inst.last || p >= end || insts.len() == 5 {
                                break;
                            }
                        }
                        let n = literal_words(&insts);
                        if p + n > end {
                            return Err(Error::invalid(
                                base + 4 * p,
                                format!(
                                    "CF {ci}: literal constants of an ALU group run past the clause end (word {end})"
                                ),
                            ));
                        }
                        let literals = words[p..p + n].to_vec();
                        covered[p..p + n].iter_mut().for_each(|c| *c = true);
                        p += n;
                        let slots = assign_slots(&insts);
                        groups.push(AluGroup { insts, slots, literals });
                    }
                    ClauseBody::Alu(groups)
                }
                ClauseKind::Tex | ClauseKind::Vtx => {
                    let end = start + 4 * count as usize;
                    if end > len {
                        return Err(Error::invalid(at, format!("CF {ci}: fetch clause at {addr} of {count} instructions runs past the program ({len} words)")));
                    }
                    let mut v = Vec::with_capacity(count as usize);
                    for p in (start..end).step_by(4) {
                        let w = [words[p], words[p + 1], words[p + 2], words[p + 3]];
                        covered[p..p + 4].iter_mut().for_each(|c| *c = true);
                        v.push(FetchInst::decode(w, kind == ClauseKind::Tex));
                    }
                    ClauseBody::Fetch(v)
                }
            };
            clauses.push(Clause { cf_index: ci, kind, addr, body });
        }
        let extra = (0..len).filter(|&k| !covered[k] && words[k] != 0).map(|k| (k, words[k])).collect();
        Ok(Program { cf, clauses, len, extra })
    }

    /// Decodes little-endian program bytes.
    ///
    /// # Errors
    /// See [`Program::decode`]; also a length that is not a multiple of 4.
    pub fn decode_bytes(bytes: &[u8], base: usize) -> Result<Program> {
        if !bytes.len().is_multiple_of(4) {
            return Err(Error::invalid(
                base + bytes.len(),
                format!("program size {} is not a multiple of 4", bytes.len()),
            ));
        }
        Program::decode(&crate::gfd::program_words(bytes), base)
    }

    /// Encodes back to words.
    pub fn encode(&self) -> Vec<u32> {
        let mut out = vec![0u32; self.len];
        let mut set = |k: usize, v: u32| {
            if k >= out.len() {
                out.resize(k + 1, 0);
            }
            out[k] = v;
        };
        for (i, c) in self.cf.iter().enumerate() {
            let (a, b) = c.encode();
            set(2 * i, a);
            set(2 * i + 1, b);
        }
        for cl in &self.clauses {
            let mut p = 2 * cl.addr as usize;
            match &cl.body {
                ClauseBody::Alu(groups) => {
                    for g in groups {
                        for inst in &g.insts {
                            let (a, b) = inst.encode();
                            set(p, a);
                            set(p + 1, b);
                            p += 2;
                        }
                        for &l in &g.literals {
                            set(p, l);
                            p += 1;
                        }
                    }
                }
                ClauseBody::Fetch(v) => {
                    for f in v {
                        for w in f.encode() {
                            set(p, w);
                            p += 1;
                        }
                    }
                }
            }
        }
        for &(k, v) in &self.extra {
            set(k, v);
        }
        out
    }

    /// Encodes to little-endian bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.encode().iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// Number of instructions (CF + ALU + fetch).
    pub fn instruction_count(&self) -> usize {
        self.cf.len()
            + self
                .clauses
                .iter()
                .map(|c| match &c.body {
                    ClauseBody::Alu(g) => g.iter().map(|g| g.insts.len()).sum(),
                    ClauseBody::Fetch(v) => v.len(),
                })
                .sum::<usize>()
    }
}

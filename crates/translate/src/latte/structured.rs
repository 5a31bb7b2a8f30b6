//! The structured form of a program's control flow (docs/latte-translate.md "Control-flow
//! forms"): the CF instructions in order, with the program counter kept as in the dispatch
//! loop, but without the `loop { switch pc }` that drivers compile slowly.
//!
//! Every CF instruction still stores pc + 1 and runs the code of [`Em::cf`], which sets the
//! pc of a jump, so the lane state, the stack and the error flags are the dispatch loop's.
//! What changes is how the next instruction is found:
//! - a run of instructions that only fall through shares one block; an instruction that
//!   follows one that can leave its successor, or that a jump targets, starts a block guarded
//!   by `if pc == k`. A forward jump sets pc past the blocks it skips, whose guards fail, up
//!   to the block of its target;
//! - a LOOP_END whose ADDR b is at or before it closes the loop [b, LOOP_END]: `if pc == b {
//!   loop { body; if pc != b { break } } }`. Its back edge leaves pc = b; any other pc (the
//!   fall-through after the loop, a jump past it, the end) leaves the loop.
//!
//! This runs the dispatch loop's instruction sequence when the loops nest, no jump enters a
//! loop other than at its first instruction, and no jump but a LOOP_END goes backward
//! ([`plan`]). CALL and RETURN (with a CALL in the program) take the dispatch loop.
//!
//! The step budget: `steps` counts CF instructions as the dispatch loop does; the check is at
//! each loop's back edge and at the end of the program, where a count past [`MAX_CF_STEPS`]
//! sets [`ERR_STEP_BUDGET`]. Where the dispatch loop would stop at an error, this form goes on
//! to the next back edge (which then leaves every loop) or the end: the error word is non-zero
//! in both forms exactly then, and where it is zero both ran the same instructions.

use std::collections::{BTreeMap, BTreeSet};

use ::latte::isa::{CfInst, Program};
use naga::{BinaryOperator as B, Block, Statement};

use super::flow::{Em, Sink, END_PC, ERR_INVALID, ERR_STEP_BUDGET, MAX_CF_STEPS};
use super::ops::H;

/// Where control can go after CF instruction `k` besides the end of the program.
#[derive(Clone, Copy)]
struct Succ {
    /// It can go on to k + 1.
    falls: bool,
    /// It can jump to this CF index.
    jump: Option<u32>,
}

/// The shape of a program that takes the structured form.
pub(crate) struct Plan {
    /// Loops by first instruction: the LOOP_END indices of the loops starting there.
    loops: BTreeMap<usize, BTreeSet<usize>>,
    /// Per instruction: the target of its forward jump, at most the program's length.
    jump: Vec<Option<usize>>,
    /// Per instruction: whether it can only end the program.
    ends: Vec<bool>,
    /// Per instruction: whether pc can be the end after it (it ends, or it is a LOOP_END,
    /// whose loop leaves at an error).
    may_end: Vec<bool>,
}

/// One instruction's successors; `None` for what only the dispatch loop runs (CALL, and
/// RETURN in a program that calls).
fn succ(prog: &Program, k: usize, calls: bool) -> Option<Succ> {
    let c = &prog.cf[k];
    let end = Succ { falls: false, jump: None };
    if c.end_of_program() {
        return Some(end);
    }
    Some(match c {
        CfInst::Alu(a) if matches!(a.op, 8..=11 | 13..=15) => Succ { falls: true, jump: None },
        CfInst::Alu(_) => end,
        CfInst::Export(_) => Succ { falls: true, jump: None },
        CfInst::Normal(n) => match n.op {
            0x00..=0x03 | 0x0E | 0x13 | 0x15..=0x18 | 0x1A..=0x1D => Succ { falls: true, jump: None },
            0x04..=0x0D | 0x0F..=0x11 => Succ { falls: true, jump: Some(n.addr) },
            0x12 => return None,
            // RETURN without a call frame ends the program.
            0x14 if calls => return None,
            _ => end,
        },
    })
}

/// The structured shape of `prog`, when it has one (module docs).
pub(crate) fn plan(prog: &Program) -> Option<Plan> {
    let n = prog.cf.len();
    let calls = prog.cf.iter().any(|c| matches!(c, CfInst::Normal(n) if n.op == 0x12));
    let succs = (0..n).map(|k| succ(prog, k, calls)).collect::<Option<Vec<_>>>()?;
    let mut loops: Vec<(usize, usize)> = Vec::new();
    let mut jumps: Vec<(usize, usize)> = Vec::new();
    let mut jump = vec![None; n];
    for (k, s) in succs.iter().enumerate() {
        let Some(t) = s.jump else { continue };
        let is_loop_end = matches!(prog.cf[k], CfInst::Normal(n) if n.op == 0x05);
        if (t as usize) > k {
            // Past the program is past the last instruction (the end test flags it).
            let t = (t as usize).min(n);
            jumps.push((k, t));
            jump[k] = Some(t);
        } else if is_loop_end {
            loops.push((t as usize, k));
        } else {
            return None;
        }
    }
    // Loops nest or are apart.
    for (i, &(b1, e1)) in loops.iter().enumerate() {
        for &(b2, e2) in &loops[i + 1..] {
            let apart = e1 < b2 || e2 < b1;
            let nested = (b1 <= b2 && e2 <= e1) || (b2 <= b1 && e1 <= e2);
            if !apart && !nested {
                return None;
            }
        }
    }
    // A jump inside a loop lands inside it (at most its LOOP_END); one from outside does not
    // land past its first instruction.
    for &(j, t) in &jumps {
        for &(b, e) in &loops {
            let from_inside = b <= j && j <= e;
            if from_inside && t > e || !from_inside && b < t && t <= e {
                return None;
            }
        }
    }
    // The instructions a jump skips, j+1..t, hold every jump made among them whole.
    for &(j1, t1) in &jumps {
        if jumps.iter().any(|&(j2, t2)| j1 < j2 && j2 < t1 && t2 > t1) {
            return None;
        }
    }
    let mut by_start: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for &(b, e) in &loops {
        by_start.entry(b).or_default().insert(e);
    }
    let ends: Vec<bool> = succs.iter().map(|s| !s.falls && s.jump.is_none()).collect();
    let may_end = (0..n).map(|k| ends[k] || loops.iter().any(|&(_, e)| e == k)).collect();
    Some(Plan { loops: by_start, jump, ends, may_end })
}

impl Em<'_, '_> {
    /// The structured form of `plan`'s program.
    pub(crate) fn structured(&mut self, plan: &Plan, sink: &mut dyn Sink) {
        let u = self.t.u32;
        let zero = self.fb.u32(0);
        let pc = self.fb.local("pc", u, Some(zero));
        let zero = self.fb.u32(0);
        let steps = self.fb.local("steps", u, Some(zero));
        self.pc = Some(pc);
        self.range(plan, 0, self.prog.cf.len(), None, steps, sink);
        self.over_budget(steps);
        // Falling or jumping past the program (PcOutOfRange in the interpreter).
        let p = self.fb.load(pc);
        let end = self.k(END_PC);
        let past = self.b(B::NotEqual, p, end);
        self.fail_if(past, ERR_INVALID);
    }

    /// Sets [`ERR_STEP_BUDGET`] when more than [`MAX_CF_STEPS`] CF instructions ran.
    fn over_budget(&mut self, steps: H) {
        let s = self.fb.load(steps);
        let max = self.k(MAX_CF_STEPS);
        let over = self.b(B::Greater, s, max);
        self.fail_if(over, ERR_STEP_BUDGET);
    }

    /// Instructions `lo..hi`, entered with pc = `lo`; `inside` is the loop whose body this is.
    fn range(&mut self, plan: &Plan, lo: usize, hi: usize, inside: Option<(usize, usize)>, steps: H, sink: &mut dyn Sink) {
        let mut k = lo;
        while k < hi {
            let outer_loop = plan
                .loops
                .get(&k)
                .and_then(|es| es.iter().rev().find(|&&e| e < hi && inside != Some((k, e))).copied());
            if let Some(e) = outer_loop {
                self.structured_loop(plan, k, e, steps, sink);
                // The loop leaves with pc past its LOOP_END or at the end.
                self.guarded(plan, e + 1, hi, inside, steps, sink);
                return;
            }
            let next = self.k(k as u32 + 1);
            let pc = self.pc.expect("the structured form keeps a pc");
            self.fb.store(pc, next);
            let one = self.k(1);
            self.fb.add_assign(steps, one);
            self.cf(k, sink);
            if plan.ends[k] {
                // Nothing after it in this range is reached: a jump over it holds it whole.
                return;
            }
            if let Some(t) = plan.jump[k] {
                let t = t.min(hi);
                self.guarded(plan, k + 1, t, inside, steps, sink);
                if (k + 1..t).any(|i| plan.may_end[i]) {
                    self.guarded(plan, t, hi, inside, steps, sink);
                    return;
                }
                k = t;
            } else {
                k += 1;
            }
        }
    }

    /// `lo..hi` under `if pc == lo` (nothing for an empty range).
    fn guarded(&mut self, plan: &Plan, lo: usize, hi: usize, inside: Option<(usize, usize)>, steps: H, sink: &mut dyn Sink) {
        if lo >= hi {
            return;
        }
        let pc = self.pc.expect("the structured form keeps a pc");
        let p = self.fb.load(pc);
        let s = self.k(lo as u32);
        let c = self.b(B::Equal, p, s);
        self.fb.open();
        self.range(plan, lo, hi, inside, steps, sink);
        let body = self.fb.close();
        self.fb.stmt(Statement::If { condition: c, accept: body, reject: Block::new() });
    }

    /// The loop [b, e], entered with pc = b: again while its LOOP_END leaves pc = b and no
    /// error is flagged.
    fn structured_loop(&mut self, plan: &Plan, b: usize, e: usize, steps: H, sink: &mut dyn Sink) {
        let pc = self.pc.expect("the structured form keeps a pc");
        self.fb.open();
        self.range(plan, b, e + 1, Some((b, e)), steps, sink);
        self.over_budget(steps);
        let err = self.fb.load(self.err);
        let z = self.k(0);
        let bad = self.b(B::NotEqual, err, z);
        self.fb.if_(bad, |fb| {
            let end = fb.u32(END_PC);
            fb.store(pc, end);
        });
        let p = self.fb.load(pc);
        let bk = self.k(b as u32);
        let out = self.b(B::NotEqual, p, bk);
        self.fb.if_(out, |fb| fb.stmt(Statement::Break));
        let body = self.fb.close();
        self.fb.stmt(Statement::Loop { body, continuing: Block::new(), break_if: None });
    }
}

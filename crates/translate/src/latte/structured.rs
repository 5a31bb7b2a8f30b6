//! The structured form of a program's control flow (docs/latte-translate.md "Control-flow
//! forms"): the CF instructions in order, with the program counter kept as in the dispatch
//! loop, but without the `loop { switch pc }` that drivers compile slowly.
//!
//! Every CF instruction still stores pc + 1 and runs the code of [`Em::cf`], which sets the
//! pc of a jump, so the lane state, the stack and the error flags are the dispatch loop's.
//! What changes is how the next instruction is found ([`plan`] builds the shape):
//! - after a forward jump at j to t, the instructions it skips run under `if pc == j + 1`;
//! - a LOOP_END whose ADDR b is at or before it closes the loop [b, LOOP_END]: `loop { body;
//!   if pc != b { break } }`. Its back edge leaves pc = b; any other pc (the fall-through,
//!   a jump past the loop, the end) leaves the loop;
//! - where pc may hold something else than the next instruction (a jump from a skipped part
//!   past its end, such as a LOOP_BREAK inside an `if`; the end of the program; after a loop),
//!   the code goes on under `if pc == k`, closed before the next instruction such a jump
//!   lands on.
//!
//! The shape fails, and the dispatch loop is taken, when a jump lands inside a part already
//! skipped (inside an `if` it did not enter, or a loop past its first instruction), when a
//! jump other than a LOOP_END goes backward, when a loop is not whole inside the parts around
//! it, and for CALL (and RETURN in a program that calls).
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
    nodes: Vec<Node>,
}

/// A part of the structured form.
enum Node {
    /// CF instruction k.
    Inst(usize),
    /// `if pc == k { ... }`.
    Guard(usize, Vec<Node>),
    /// The loop whose back edge leaves pc = b.
    Loop(usize, Vec<Node>),
}

/// What [`Shaper`] knows of one program.
struct Shaper {
    /// Per instruction: the target of its forward jump.
    jump: Vec<Option<usize>>,
    /// Per instruction: it can only end the program.
    ends: Vec<bool>,
    /// Loops by first instruction: their LOOP_END indices.
    loops: BTreeMap<usize, BTreeSet<usize>>,
    /// Loops placed so far.
    placed: usize,
}

/// The nodes of one range being built: those at its level and the guard block open.
struct Level {
    out: Vec<Node>,
    open: Option<(usize, Vec<Node>)>,
}

impl Level {
    fn push(&mut self, n: Node) {
        match &mut self.open {
            Some((_, b)) => b.push(n),
            None => self.out.push(n),
        }
    }

    fn close(&mut self) {
        if let Some((g, b)) = self.open.take() {
            self.out.push(Node::Guard(g, b));
        }
    }
}

/// A built range: its nodes, the pcs past it that a jump inside may leave, and whether pc
/// may be the end after it.
struct Built {
    nodes: Vec<Node>,
    escapes: BTreeSet<usize>,
    may_end: bool,
}

impl Shaper {
    /// Instructions `lo..hi`, entered with pc = `lo`; `inside` is the loop whose body this is.
    fn build(&mut self, lo: usize, hi: usize, inside: Option<(usize, usize)>) -> Option<Built> {
        let mut lv = Level { out: Vec::new(), open: None };
        // pcs a jump left that lie ahead.
        let mut pending: BTreeSet<usize> = BTreeSet::new();
        let mut may_end = false;
        let mut need_guard = false;
        let mut k = lo;
        while k < hi {
            if pending.remove(&k) {
                need_guard = true;
            }
            if need_guard {
                lv.close();
                lv.open = Some((k, Vec::new()));
                need_guard = false;
            }
            let lp = self.loops.get(&k).and_then(|es| es.iter().rev().find(|&&e| e < hi && inside != Some((k, e))));
            if let Some(&e) = lp {
                if pending.range(k + 1..=e).next().is_some() {
                    return None;
                }
                let body = self.build(k, e + 1, Some((k, e)))?;
                self.placed += 1;
                lv.push(Node::Loop(k, body.nodes));
                pending.extend(body.escapes);
                may_end = true;
                need_guard = true;
                k = e + 1;
                continue;
            }
            lv.push(Node::Inst(k));
            if self.ends[k] {
                may_end = true;
                need_guard = true;
                // Only a pending jump reaches what follows.
                k = pending.iter().next().copied().unwrap_or(hi).min(hi);
                continue;
            }
            match self.jump[k] {
                Some(t) if t > k + 1 => {
                    let r = t.min(hi);
                    if pending.range(k + 2..r).next().is_some() {
                        return None;
                    }
                    // A pending jump to k + 1 enters the skipped part too: its guard goes
                    // outside the block that holds k.
                    let landing = pending.remove(&(k + 1));
                    if landing {
                        lv.close();
                    }
                    let region = self.build(k + 1, r, inside)?;
                    lv.push(Node::Guard(k + 1, region.nodes));
                    pending.insert(t);
                    pending.extend(region.escapes);
                    // After the skipped part pc is r, the end, or a pc past r.
                    pending.remove(&r);
                    may_end |= region.may_end;
                    need_guard = landing || region.may_end || !pending.is_empty();
                    k = r;
                }
                _ => k += 1,
            }
        }
        lv.close();
        Some(Built { nodes: lv.out, escapes: pending, may_end })
    }
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
    let mut loops: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    let mut count = 0;
    let mut jump = vec![None; n];
    for (k, s) in succs.iter().enumerate() {
        let Some(t) = s.jump else { continue };
        let t = t as usize;
        if t > k {
            jump[k] = Some(t);
        } else if matches!(prog.cf[k], CfInst::Normal(n) if n.op == 0x05) {
            loops.entry(t).or_default().insert(k);
            count += 1;
        } else {
            return None;
        }
    }
    let ends = succs.iter().map(|s| !s.falls && s.jump.is_none()).collect();
    let mut sh = Shaper { jump, ends, loops, placed: 0 };
    let built = sh.build(0, n, None)?;
    // Every loop whole inside the parts around it.
    (sh.placed == count).then_some(Plan { nodes: built.nodes })
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
        self.nodes(&plan.nodes, steps, sink);
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

    fn nodes(&mut self, nodes: &[Node], steps: H, sink: &mut dyn Sink) {
        let pc = self.pc.expect("the structured form keeps a pc");
        for n in nodes {
            match n {
                Node::Inst(k) => {
                    let next = self.k(*k as u32 + 1);
                    self.fb.store(pc, next);
                    let one = self.k(1);
                    self.fb.add_assign(steps, one);
                    self.cf(*k, sink);
                }
                Node::Guard(g, body) => {
                    let p = self.fb.load(pc);
                    let s = self.k(*g as u32);
                    let c = self.b(B::Equal, p, s);
                    self.fb.open();
                    self.nodes(body, steps, sink);
                    let body = self.fb.close();
                    self.fb.stmt(Statement::If { condition: c, accept: body, reject: Block::new() });
                }
                Node::Loop(b, body) => self.structured_loop(*b, body, steps, sink),
            }
        }
    }

    /// A loop, entered with pc = b: again while its LOOP_END leaves pc = b and no error is
    /// flagged.
    fn structured_loop(&mut self, b: usize, body: &[Node], steps: H, sink: &mut dyn Sink) {
        let pc = self.pc.expect("the structured form keeps a pc");
        self.fb.open();
        self.nodes(body, steps, sink);
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

//! Structured control flow: IF/ELSE, LOOP (with BREAK) and CALL nests become naga `If` and
//! `Loop` statements and inlined callees, when that is provably the same as the four stacks of
//! 3dbrew "GPU/Shader Instruction Set" "Control Flow" (as pica::interp runs them). Anything else goes to
//! the dispatch loop (flow.rs).
//!
//! A region `[s, e)` is structured when, executed from `s`, no stack can pop anywhere but at its
//! own end:
//! - every construct inside ends strictly before `e` (IF: DST+NUM, LOOP: DST+1, CALL: the CALL
//!   itself is not the region's last instruction), so no two stack entries trigger at the same
//!   address (the IF and LOOP stacks pop one entry per instruction, and a LOOP popping at an IF's
//!   trigger would win and enter the else block);
//! - no trigger of an enclosing construct lies in `(s, e]` (callees live elsewhere in the code);
//! - nesting stays within the stack depths (8 IF, 4 LOOP, 4 CALL), so nothing overflows;
//! - BREAK/BREAKC only directly in a loop body (inside an IF or a callee its JMP-priority update
//!   can lose against a pop, ISA page: "do not use while in nested IF/CALL block inside LOOP");
//! - JMPC/JMPU only forward inside the region, onto a statement boundary before its end (an
//!   `if !cond` around the skipped statements); the top level reaches an END, and no END lies
//!   inside a loop (a `return` there is left to the dispatch loop).
//!
//! Small IF, CALL and forward-jump bodies without loops, BREAK, END or EMIT are flattened: their
//! instructions run unconditionally with every write under the condition (`cond ? new : old`),
//! which lavapipe compiles much faster than branches (docs/pica-translate.md "Driver facts").
//!
//! Loops are bounded like the interpreter's step budget from below: each iteration counts one
//! step, and after [`super::MAX_STEPS`] iterations every loop breaks at its next iteration, which
//! only a run the interpreter also stops (it counts at least one instruction per iteration) can
//! reach; the outputs of such a run are undefined either way.

use naga::{BinaryOperator as B, Expression, Handle, Statement};
use pica::isa::{Instruction, Opcode, Operands};

use super::flow::MAX_STEPS;
use super::Gen;
use crate::pica::flow::{CALL_DEPTH, IF_DEPTH, LOOP_DEPTH};

type H = Handle<Expression>;

/// Instructions inlined at most (callees are copied per call site).
const MAX_INLINED: usize = 8192;

/// A structured program.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// A non-flow instruction at this index.
    Inst(usize),
    /// END.
    End,
    /// IFU/IFC at `at`.
    If { at: usize, then: Vec<Node>, els: Vec<Node> },
    /// LOOP over integer uniform `id`.
    Loop { id: u8, body: Vec<Node> },
    /// CALL/CALLC/CALLU at `at`, its callee inlined.
    Call { at: usize, body: Vec<Node> },
    /// BREAK/BREAKC at `at`, directly in a loop body.
    Break { at: usize },
    /// A forward JMPC/JMPU at `at` within the region: `if !cond { body }`.
    Skip { at: usize, body: Vec<Node> },
}

#[derive(Clone)]
struct Ctx {
    active: Vec<u32>,
    ifs: u32,
    loops: u32,
    calls: u32,
    loop_body: bool,
}

struct Analyzer<'a> {
    code: &'a [u32],
    inlined: usize,
    /// Deepest loop nesting seen (callees inlined).
    loop_depth: u32,
}

impl Analyzer<'_> {
    /// `ctx.active` holds the triggers of enclosing constructs; `own` is this region's (its
    /// construct's trigger, active inside it).
    fn region(&mut self, s: usize, e: usize, ctx: &Ctx, own: Option<u32>, top: bool) -> Option<Vec<Node>> {
        if ctx.active.iter().any(|&t| (s as u32) < t && t as usize <= e) {
            return None;
        }
        let mut here = ctx.clone();
        here.active.extend(own);
        let ctx = &here;
        let mut nodes = Vec::new();
        let mut p = s;
        while p < e {
            self.inlined += 1;
            if self.inlined > MAX_INLINED {
                return None;
            }
            let inst = Instruction::decode(*self.code.get(p)?);
            use Opcode::*;
            match (inst.opcode, inst.operands) {
                // An END inside a loop would need an exit through every enclosing loop: that
                // goes to the dispatch loop (see `Gen::structured_loop`).
                (End, _) if ctx.loops > 0 => return None,
                (End, _) => {
                    nodes.push(Node::End);
                    return Some(nodes);
                }
                (Ifu | Ifc, Operands::Flow { dst, num, .. } | Operands::Uniform { dst, num, .. }) => {
                    let (dst, end) = (dst as usize, dst as usize + num as usize);
                    if dst < p + 1 || end >= e || ctx.ifs >= IF_DEPTH {
                        return None;
                    }
                    let mut inner = ctx.clone();
                    inner.ifs += 1;
                    inner.loop_body = false;
                    let then = self.region(p + 1, dst, &inner, Some(dst as u32), false)?;
                    let mut other = ctx.clone();
                    other.loop_body = false;
                    let els = self.region(dst, end, &other, None, false)?;
                    nodes.push(Node::If { at: p, then, els });
                    p = end;
                }
                (Loop, Operands::Uniform { dst, id, .. }) => {
                    let end = dst as usize + 1;
                    if end < p + 1 || end >= e || ctx.loops >= LOOP_DEPTH {
                        return None;
                    }
                    let mut inner = ctx.clone();
                    inner.loops += 1;
                    inner.loop_body = true;
                    self.loop_depth = self.loop_depth.max(inner.loops);
                    let body = self.region(p + 1, end, &inner, Some(end as u32), false)?;
                    nodes.push(Node::Loop { id: id & 3, body });
                    p = end;
                }
                (Call | Callc | Callu, Operands::Flow { dst, num, .. } | Operands::Uniform { dst, num, .. }) => {
                    let (dst, end) = (dst as usize, dst as usize + num as usize);
                    if num == 0 || p + 1 >= e || ctx.calls >= CALL_DEPTH || end > self.code.len() {
                        return None;
                    }
                    let mut inner = ctx.clone();
                    inner.calls += 1;
                    inner.loop_body = false;
                    let body = self.region(dst, end, &inner, Some(end as u32), false)?;
                    nodes.push(Node::Call { at: p, body });
                    p += 1;
                }
                (Break | Breakc, _) => {
                    if !ctx.loop_body {
                        return None;
                    }
                    nodes.push(Node::Break { at: p });
                    p += 1;
                }
                // A forward jump inside the region skips whole statements. The jump is a
                // JMP-priority update: it must not be the region's last instruction (its own end
                // could pop), nor land on the end (that would skip the pop).
                (Jmpc | Jmpu, Operands::Flow { dst, .. } | Operands::Uniform { dst, .. }) => {
                    let t = dst as usize;
                    if t <= p || t >= e || p + 1 >= e {
                        return None;
                    }
                    let body = self.region(p + 1, t, ctx, None, false)?;
                    nodes.push(Node::Skip { at: p, body });
                    p = t;
                }
                _ => {
                    nodes.push(Node::Inst(p));
                    p += 1;
                }
            }
        }
        // The top level must end with END (running off the program is an error).
        if top {
            return None;
        }
        Some(nodes)
    }
}

/// Deepest loop nesting (callees inlined) that `exact` translates in structured form; deeper
/// programs would take the dispatch loop there. It is the LOOP stack's depth, so every
/// structurable program takes the structured form. It was 2 while smith seeds 153 and 1663 (loops
/// nested four deep) did not finish compiling on lavapipe (Mesa 22.3.6) in `exact`: the cause
/// was RSQ's chain of four dependent correction tests, now four independent ones
/// (exact.rs `rsq_corrected`), after which seed 153 builds in 0.9 s of CPU
/// (docs/pica-translate.md "Driver facts").
pub const EXACT_MAX_LOOP_DEPTH: u32 = LOOP_DEPTH;

/// The structured form of the program from `main` and its deepest loop nesting, or `None` when
/// the dispatch loop is needed (also when inlining callees per call site would pass
/// [`MAX_INLINED`] instructions).
pub(crate) fn analyze(code: &[u32], main: u32) -> Option<(Vec<Node>, u32)> {
    let ctx = Ctx { active: Vec::new(), ifs: 0, loops: 0, calls: 0, loop_body: false };
    let mut a = Analyzer { code, inlined: 0, loop_depth: 0 };
    let nodes = a.region(main as usize, code.len(), &ctx, None, true)?;
    Some((nodes, a.loop_depth))
}

/// The number of instructions in `nodes` when they can be flattened (no loop, BREAK, END, EMIT
/// or SETEMIT, which need real control flow), else `None`.
fn flat_size(code: &[u32], nodes: &[Node]) -> Option<usize> {
    let mut n = 0;
    for node in nodes {
        n += match node {
            Node::Inst(k) => match Instruction::decode(code[*k]).opcode {
                Opcode::Emit | Opcode::Setemit => return None,
                _ => 1,
            },
            Node::If { then, els, .. } => 1 + flat_size(code, then)? + flat_size(code, els)?,
            Node::Call { body, .. } | Node::Skip { body, .. } => 1 + flat_size(code, body)?,
            Node::End | Node::Loop { .. } | Node::Break { .. } => return None,
        };
    }
    Some(n)
}

/// Whether an IF, CALL or forward jump with these bodies is flattened.
fn flattens(code: &[u32], bodies: &[&[Node]]) -> bool {
    bodies.iter().map(|b| flat_size(code, b)).sum::<Option<usize>>().is_some_and(|n| n <= MAX_FLAT)
}

/// State of the structured emission.
struct Emit {
    /// Loop iterations so far (the step budget).
    iters: H,
    /// The aL counter of each enclosing loop, innermost last.
    owns: Vec<H>,
}

/// Instructions an IF, CALL or forward jump may hold (nested ones included) to be flattened:
/// executed unconditionally, with every write under its condition.
const MAX_FLAT: usize = 256;

impl Gen<'_> {
    /// Emits a structured program.
    pub(super) fn structured(&mut self, nodes: &[Node]) {
        let u = self.abi.u32;
        let zero = self.fb.u32(0);
        let iters = self.fb.local("iterations", u, Some(zero));
        let mut ctx = Emit { iters, owns: Vec::new() };
        // Without loops, and with every construct flattened, the program is straight code over
        // SSA values with selects, as a straight program is.
        let flat = nodes.iter().all(|n| match n {
            Node::Inst(_) | Node::End => true,
            Node::If { then, els, .. } => flattens(self.code, &[then, els]),
            Node::Call { body, .. } | Node::Skip { body, .. } => flattens(self.code, &[body]),
            Node::Loop { .. } | Node::Break { .. } => false,
        });
        if flat {
            self.ssa = Some([None; 48]);
        }
        self.nodes(nodes, &mut ctx);
        self.ssa = None;
    }

    /// `nodes` executed unconditionally, their writes taking effect where `cond` (and the
    /// enclosing predicate) holds.
    fn predicated(&mut self, cond: H, nodes: &[Node], ctx: &mut Emit) {
        let outer = self.pred;
        let p = match outer {
            Some(o) => self.fb.bin(B::LogicalAnd, o, cond),
            None => cond,
        };
        self.pred = Some(p);
        self.nodes(nodes, ctx);
        self.pred = outer;
    }

    fn nodes(&mut self, nodes: &[Node], ctx: &mut Emit) {
        for n in nodes {
            match n {
                Node::Inst(k) => {
                    let inst = Instruction::decode(self.code[*k]);
                    self.simple(&inst);
                }
                Node::End => {
                    self.flush_outputs();
                    self.fb.stmt(Statement::Return { value: None })
                }
                Node::If { at, then, els } if flattens(self.code, &[then, els]) => {
                    let inst = Instruction::decode(self.code[*at]);
                    let cond = self.flow_condition(&inst);
                    self.predicated(cond, then, ctx);
                    let not = self.fb.not(cond);
                    self.predicated(not, els, ctx);
                }
                Node::Call { at, body } if flattens(self.code, &[body]) => {
                    let inst = Instruction::decode(self.code[*at]);
                    let cond = self.flow_condition(&inst);
                    self.predicated(cond, body, ctx);
                }
                Node::Skip { at, body } if flattens(self.code, &[body]) => {
                    let inst = Instruction::decode(self.code[*at]);
                    let cond = self.flow_condition(&inst);
                    let run = self.fb.not(cond);
                    self.predicated(run, body, ctx);
                }
                Node::If { at, then, els } => {
                    let inst = Instruction::decode(self.code[*at]);
                    let cond = self.flow_condition(&inst);
                    self.fb.open();
                    self.nodes(then, ctx);
                    let accept = self.fb.close();
                    self.fb.open();
                    self.nodes(els, ctx);
                    let reject = self.fb.close();
                    self.fb.stmt(Statement::If { condition: cond, accept, reject });
                }
                Node::Call { at, body } => {
                    let inst = Instruction::decode(self.code[*at]);
                    let cond = self.flow_condition(&inst);
                    self.fb.open();
                    self.nodes(body, ctx);
                    let accept = self.fb.close();
                    self.fb.stmt(Statement::If { condition: cond, accept, reject: Default::default() });
                }
                Node::Break { at } => {
                    let inst = Instruction::decode(self.code[*at]);
                    let cond = self.flow_condition(&inst);
                    self.fb.if_(cond, |fb| fb.stmt(Statement::Break));
                }
                Node::Loop { id, body, .. } => self.structured_loop(*id, body, ctx),
                Node::Skip { at, body } => {
                    let inst = Instruction::decode(self.code[*at]);
                    let cond = self.flow_condition(&inst);
                    let run = self.fb.not(cond);
                    self.fb.open();
                    self.nodes(body, ctx);
                    let accept = self.fb.close();
                    self.fb.stmt(Statement::If { condition: run, accept, reject: Default::default() });
                }
            }
        }
    }

    /// LOOP: aL = i.y, i.x + 1 iterations, aL += i.z after each; the loop's own counter is
    /// restored into aL by the end of an inner loop (pica::interp's per-entry aL).
    fn structured_loop(&mut self, id: u8, body: &[Node], ctx: &mut Emit) {
        let g = self.fb.global(self.abi.uniforms);
        let ip = self.fb.at(g, 1);
        let ip = self.fb.at(ip, id as u32);
        let i = self.fb.load(ip);
        let ff = self.fb.u32(0xFF);
        let (x, y, z) = (self.fb.at(i, 0), self.fb.at(i, 1), self.fb.at(i, 2));
        let x = self.fb.bin(B::And, x, ff);
        let y = self.fb.bin(B::And, y, ff);
        let z = self.fb.bin(B::And, z, ff);
        let y = self.fb.bitcast(y, naga::ScalarKind::Sint);
        let z = self.fb.bitcast(z, naga::ScalarKind::Sint);
        let own = self.fb.local("loop_al", self.abi.i32, None);
        let cnt = self.fb.local("loop_count", self.abi.u32, None);
        self.fb.store(own, y);
        self.fb.store(cnt, x);
        let al = self.fb.global(self.abi.al);
        self.fb.store(al, y);

        self.fb.open();
        // Step budget from below: one step per iteration.
        let one = self.fb.u32(1);
        self.fb.add_assign(ctx.iters, one);
        let n = self.fb.load(ctx.iters);
        let max = self.fb.u32(MAX_STEPS);
        let spent = self.fb.bin(B::GreaterEqual, n, max);
        // A spent budget leaves this loop, and every loop at its next iteration: the program
        // then ends after finite straight code, with outputs the interpreter does not define (it
        // stops such a run with an error). A `return` here, or an exit flag tested after each
        // inner loop, made lavapipe (Mesa 22.3) compile smith seed 153 in exact for minutes; as
        // breaks it takes under a second (docs/pica-translate.md).
        self.fb.if_(spent, |fb| fb.stmt(Statement::Break));
        ctx.owns.push(own);
        self.nodes(body, ctx);
        ctx.owns.pop();
        self.fb.add_assign(own, z);
        let o = self.fb.load(own);
        let al = self.fb.global(self.abi.al);
        self.fb.store(al, o);
        let c = self.fb.load(cnt);
        let zero = self.fb.u32(0);
        let last = self.fb.bin(B::Equal, c, zero);
        self.fb.if_(last, |fb| fb.stmt(Statement::Break));
        let one = self.fb.u32(1);
        let c1 = self.fb.bin(B::Subtract, c, one);
        self.fb.store(cnt, c1);
        let body = self.fb.close();
        self.fb.stmt(Statement::Loop { body, continuing: Default::default(), break_if: None });
        if let Some(&outer) = ctx.owns.last() {
            let o = self.fb.load(outer);
            let al = self.fb.global(self.abi.al);
            self.fb.store(al, o);
        }
    }
}

//! Control flow: straight-line programs inline, everything else through a dispatch loop over the
//! program counter that keeps the four stacks of 3dbrew "GPU/Shader Instruction Set" "Control Flow".
//!
//! The dispatch loop is `loop { if done || steps == MAX_STEPS { break } switch pc { case k: ... }
//! advance }`. Each case executes instruction k and sets `nxt` (the PC copy the stacks see) and
//! `jmp` (a JMPC/JMPU target); `advance` then checks the stacks exactly as the ISA page says:
//! - after every instruction, before a jump takes effect, each stack compares its copy of the PC
//!   with its top entry; the IF and LOOP stacks pop at most one entry per instruction, the CALL
//!   stack pops while it matches, and its fourth pop in a row does not update its copy;
//! - the updated copy with the highest priority wins: LOOP, IF, CALL, JMP, then the plain PC;
//! - a jump (JMPC/JMPU, a CALL's target, a false IF's else, BREAK) takes effect only when no
//!   stack matched;
//! - a stack overflow discards the oldest entry (ring buffers of 8 IF, 4 LOOP and 4 CALL entries).
//!
//! Every program terminates: the loop runs at most [`MAX_STEPS`] instructions, the same bound as
//! the reference interpreter (docs/pica-translate.md "Control flow").

use naga::{BinaryOperator as B, Expression, Handle, Statement, SwitchCase, SwitchValue};
use pica::isa::{CondOp, Condition, Instruction, Opcode, Operands};

use super::Gen;
use crate::builder::array;

type H = Handle<Expression>;

/// Instructions executed at most per invocation; a program still running then stops.
pub const MAX_STEPS: u32 = pica::interp::DEFAULT_STEP_LIMIT as u32;
/// Depth of the IF stack.
pub const IF_DEPTH: u32 = 8;
/// Depth of the LOOP stack.
pub const LOOP_DEPTH: u32 = 4;
/// Depth of the CALL stack.
pub const CALL_DEPTH: u32 = 4;
const NONE: u32 = u32::MAX;

/// True for instructions that change the flow (anything but straight-line execution).
pub fn is_flow(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, Break | Breakc | Call | Callc | Callu | Ifu | Ifc | Loop | Jmpc | Jmpu)
}

/// The instructions `main..=end` when the program runs straight from `main` to an END without
/// any flow instruction, else `None`.
pub fn straight_line(code: &[u32], main: u32) -> Option<std::ops::Range<usize>> {
    let start = main as usize;
    for (k, &w) in code.iter().enumerate().skip(start) {
        let op = Instruction::decode(w).opcode;
        if op == Opcode::End {
            return Some(start..k);
        }
        if is_flow(op) {
            return None;
        }
    }
    None
}

/// Instructions the dispatch loop can reach from `main`, a superset: every successor a stack or a
/// jump could produce (the next instruction, jump and call targets, IF targets, call triggers,
/// loop starts and ends; BREAK may reach any loop's end). Unreached instructions get no switch
/// case, which keeps the module small; reaching one anyway ends the program like a PC past the
/// code, which cannot happen since the set is closed under every transfer.
pub fn reachable(code: &[u32], main: u32) -> Vec<bool> {
    use Opcode::*;
    let n = code.len();
    let mut seen = vec![false; n];
    let loop_ends: Vec<usize> = code
        .iter()
        .filter_map(|&w| match Instruction::decode(w) {
            Instruction { opcode: Loop, operands: Operands::Uniform { dst, .. }, .. } => Some(dst as usize + 1),
            _ => None,
        })
        .collect();
    let mut work = vec![main as usize];
    while let Some(k) = work.pop() {
        if k >= n || seen[k] {
            continue;
        }
        seen[k] = true;
        let inst = Instruction::decode(code[k]);
        if inst.opcode != End {
            work.push(k + 1);
        }
        match (inst.opcode, inst.operands) {
            (
                Ifu | Ifc | Call | Callc | Callu,
                Operands::Flow { dst, num, .. } | Operands::Uniform { dst, num, .. },
            ) => {
                work.push(dst as usize);
                work.push(dst as usize + num as usize);
            }
            (Jmpc | Jmpu, Operands::Flow { dst, .. } | Operands::Uniform { dst, .. }) => work.push(dst as usize),
            (Loop, Operands::Uniform { dst, .. }) => work.push(dst as usize + 1),
            (Break | Breakc, _) => work.extend(&loop_ends),
            _ => {}
        }
    }
    seen
}

/// A ring-buffer stack of `depth` entries with one local array per field.
struct Stack {
    fields: Vec<H>,
    n: H,
    top: H,
    depth: u32,
}

/// Local state of the dispatch loop.
struct Dispatch {
    pc: H,
    nxt: H,
    jmp: H,
    done: H,
    steps: H,
    ifs: Stack,
    loops: Stack,
    calls: Stack,
}

impl Gen<'_> {
    fn new_stack(&mut self, name: &str, fields: usize, depth: u32) -> Stack {
        let u = self.abi.u32;
        let arr = array(self.fb.module, u, depth, 4);
        let fields = (0..fields).map(|f| self.fb.local(&format!("{name}{f}"), arr, None)).collect();
        let zero = self.fb.u32(0);
        let n = self.fb.local(&format!("{name}_n"), u, Some(zero));
        let top = self.fb.local(&format!("{name}_top"), u, Some(zero));
        Stack { fields, n, top, depth }
    }

    /// Index of the top entry: (top + depth - 1) mod depth.
    fn peek(&mut self, s: &Stack) -> H {
        let top = self.fb.load(s.top);
        let d = self.fb.u32(s.depth - 1);
        let sum = self.fb.bin(B::Add, top, d);
        self.fb.bin(B::And, sum, d)
    }

    fn push(&mut self, s: &Stack, values: &[H]) {
        let top = self.fb.load(s.top);
        for (f, &v) in s.fields.iter().zip(values) {
            let p = self.fb.index(*f, top);
            self.fb.store(p, v);
        }
        let one = self.fb.u32(1);
        let mask = self.fb.u32(s.depth - 1);
        let t1 = self.fb.bin(B::Add, top, one);
        let t1 = self.fb.bin(B::And, t1, mask);
        self.fb.store(s.top, t1);
        let n = self.fb.load(s.n);
        let n1 = self.fb.bin(B::Add, n, one);
        let d = self.fb.u32(s.depth);
        let n1 = self.fb.math2(naga::MathFunction::Min, n1, d);
        self.fb.store(s.n, n1);
    }

    fn pop(&mut self, s: &Stack, peek: H) {
        self.fb.store(s.top, peek);
        let n = self.fb.load(s.n);
        let one = self.fb.u32(1);
        let n1 = self.fb.bin(B::Subtract, n, one);
        self.fb.store(s.n, n1);
    }

    fn field(&mut self, s: &Stack, f: usize, at: H) -> H {
        let p = self.fb.index(s.fields[f], at);
        self.fb.load(p)
    }

    fn nonempty(&mut self, s: &Stack) -> H {
        let n = self.fb.load(s.n);
        let zero = self.fb.u32(0);
        self.fb.bin(B::NotEqual, n, zero)
    }

    /// After a LOOP entry is popped: aL is the enclosing loop's counter, if there is one; else it
    /// keeps its value ("aL stays readable after the loop ends").
    fn restore_al(&mut self, loops: &Stack) {
        let ne = self.nonempty(loops);
        self.fb.open();
        let top = self.peek(loops);
        let own = self.field(loops, 4, top);
        let own = self.fb.bitcast(own, naga::ScalarKind::Sint);
        let al = self.fb.global(self.abi.al);
        self.fb.store(al, own);
        let body = self.fb.close();
        self.fb.stmt(Statement::If { condition: ne, accept: body, reject: Default::default() });
    }

    /// The condition of a format-2 instruction on cmp.x / cmp.y.
    pub(super) fn condition(&mut self, c: Condition) -> H {
        let gx = self.fb.global(self.abi.cmp_x);
        let x = self.fb.load(gx);
        let gy = self.fb.global(self.abi.cmp_y);
        let y = self.fb.load(gy);
        let rx = self.fb.bool(c.refx);
        let ry = self.fb.bool(c.refy);
        let tx = self.fb.bin(B::Equal, x, rx);
        let ty = self.fb.bin(B::Equal, y, ry);
        match c.op {
            CondOp::Or => self.fb.bin(B::LogicalOr, tx, ty),
            CondOp::And => self.fb.bin(B::LogicalAnd, tx, ty),
            CondOp::X => tx,
            CondOp::Y => ty,
        }
    }

    /// Boolean uniform `id` (bit `id` of `b`).
    pub(super) fn bool_uniform(&mut self, id: u8) -> H {
        let b = match self.gs_bools() {
            Some(b) => b,
            None => {
                let g = self.fb.global(self.abi.uniforms);
                let p = self.fb.at(g, 2);
                self.fb.load(p)
            }
        };
        let sh = self.fb.u32(id as u32 & 15);
        let s = self.fb.bin(B::ShiftRight, b, sh);
        let one = self.fb.u32(1);
        let bit = self.fb.bin(B::And, s, one);
        let zero = self.fb.u32(0);
        self.fb.bin(B::NotEqual, bit, zero)
    }

    /// Executes the instructions of a straight-line program.
    pub(super) fn straight(&mut self, range: std::ops::Range<usize>) {
        self.ssa = Some([None; 48]);
        for k in range {
            let inst = Instruction::decode(self.code[k]);
            self.simple(&inst);
        }
        self.flush_outputs();
        self.ssa = None;
    }

    /// Instructions that do not change the flow: arithmetic, NOP, EMIT, SETEMIT, unknown opcodes
    /// (executed as NOP, docs/pica-translate.md).
    pub(super) fn simple(&mut self, inst: &Instruction) {
        if self.arith(inst) {
            return;
        }
        match (inst.opcode, inst.operands) {
            (Opcode::Emit, _) => match self.emit_pending {
                Some(flag) => {
                    let t = self.fb.bool(true);
                    self.fb.store(flag, t);
                }
                None => {
                    self.flush_outputs();
                    self.emit()
                }
            },
            (Opcode::Setemit, Operands::SetEmit { vertex, winding, primitive }) => {
                self.setemit(vertex, winding, primitive)
            }
            _ => {}
        }
    }

    /// The dispatch loop from `main`.
    pub(super) fn dispatch(&mut self, main: u32) {
        let u = self.abi.u32;
        let b = self.abi.bool;
        let start = self.fb.u32(main);
        let zero = self.fb.u32(0);
        let none = self.fb.u32(NONE);
        let f = self.fb.bool(false);
        let d = Dispatch {
            pc: self.fb.local("pc", u, Some(start)),
            nxt: self.fb.local("nxt", u, Some(zero)),
            jmp: self.fb.local("jmp", u, Some(none)),
            done: self.fb.local("done", b, Some(f)),
            steps: self.fb.local("steps", u, Some(zero)),
            ifs: self.new_stack("if", 2, IF_DEPTH),
            loops: self.new_stack("loop", 5, LOOP_DEPTH),
            calls: self.new_stack("call", 2, CALL_DEPTH),
        };
        // Every EMIT case only sets this flag; the one EMIT after the switch does the copy. Each
        // inlined EMIT is about a hundred stores, and the driver's compile time grew with their
        // number (docs/pica-translate.md "Driver facts").
        if self.gs.is_some() {
            self.emit_pending = Some(self.fb.local("emit_pending", b, Some(f)));
        }

        self.fb.open(); // loop body
        let done = self.fb.load(d.done);
        let steps = self.fb.load(d.steps);
        let max = self.fb.u32(MAX_STEPS);
        let spent = self.fb.bin(B::GreaterEqual, steps, max);
        let stop = self.fb.bin(B::LogicalOr, done, spent);
        self.fb.if_(stop, |fb| fb.stmt(Statement::Break));
        let one = self.fb.u32(1);
        let s1 = self.fb.bin(B::Add, steps, one);
        self.fb.store(d.steps, s1);
        let pc = self.fb.load(d.pc);
        let n1 = self.fb.bin(B::Add, pc, one);
        self.fb.store(d.nxt, n1);
        let none = self.fb.u32(NONE);
        self.fb.store(d.jmp, none);

        let mut cases = Vec::with_capacity(self.code.len() + 1);
        let live = reachable(self.code, main);
        for (k, _) in live.iter().enumerate().filter(|(_, &l)| l) {
            self.fb.open();
            self.case(&d, k as u32);
            let body = self.fb.close();
            cases.push(SwitchCase { value: SwitchValue::U32(k as u32), body, fall_through: false });
        }
        self.fb.open();
        let t = self.fb.bool(true);
        self.fb.store(d.done, t);
        let body = self.fb.close();
        cases.push(SwitchCase { value: SwitchValue::Default, body, fall_through: false });
        self.fb.stmt(Statement::Switch { selector: pc, cases });
        if let Some(flag) = self.emit_pending.take() {
            let pending = self.fb.load(flag);
            self.fb.open();
            let f = self.fb.bool(false);
            self.fb.store(flag, f);
            self.flush_outputs();
            self.emit();
            let body = self.fb.close();
            self.fb.stmt(Statement::If { condition: pending, accept: body, reject: Default::default() });
        }

        self.fb.open();
        self.advance(&d);
        let body = self.fb.close();
        let done = self.fb.load(d.done);
        let running = self.fb.not(done);
        self.fb.stmt(Statement::If { condition: running, accept: body, reject: Default::default() });
        let body = self.fb.close();
        self.fb.stmt(Statement::Loop { body, continuing: Default::default(), break_if: None });
    }

    /// Instruction `k` inside its switch case.
    fn case(&mut self, d: &Dispatch, k: u32) {
        let inst = Instruction::decode(self.code[k as usize]);
        use Opcode::*;
        match (inst.opcode, inst.operands) {
            (End, _) => {
                let t = self.fb.bool(true);
                self.fb.store(d.done, t);
            }
            (Ifu | Ifc, Operands::Flow { dst, num, .. } | Operands::Uniform { dst, num, .. }) => {
                // True: run to DST, then go to DST+NUM (an IF entry). False: jump to DST (a
                // JMP-priority update; the else block runs into DST+NUM by itself).
                let cond = self.flow_condition(&inst);
                let (dst, num) = (dst as u32, num as u32);
                self.fb.open();
                let e = self.fb.u32(dst);
                let t = self.fb.u32(dst + num);
                self.push(&d.ifs, &[e, t]);
                let accept = self.fb.close();
                self.fb.open();
                let to = self.fb.u32(dst);
                self.fb.store(d.jmp, to);
                let reject = self.fb.close();
                self.fb.stmt(Statement::If { condition: cond, accept, reject });
            }
            (Loop, Operands::Uniform { dst, id, .. }) => {
                let g = self.fb.global(self.abi.uniforms);
                let ip = self.fb.at(g, 1);
                let ip = self.fb.at(ip, id as u32 & 3);
                let i = self.fb.load(ip);
                let ff = self.fb.u32(0xFF);
                let (x, y, z) = (self.fb.at(i, 0), self.fb.at(i, 1), self.fb.at(i, 2));
                let x = self.fb.bin(B::And, x, ff);
                let y = self.fb.bin(B::And, y, ff);
                let z = self.fb.bin(B::And, z, ff);
                let end = self.fb.u32(dst as u32 + 1);
                let start = self.fb.u32(k + 1);
                // Each loop keeps its own counter (field 4), restored when an inner loop ends.
                self.push(&d.loops, &[end, start, x, z, y]);
                let y = self.fb.bitcast(y, naga::ScalarKind::Sint);
                let al = self.fb.global(self.abi.al);
                self.fb.store(al, y);
            }
            (Call | Callc | Callu, Operands::Flow { dst, num, .. } | Operands::Uniform { dst, num, .. }) => {
                let cond = self.flow_condition(&inst);
                self.fb.open();
                let e = self.fb.u32(dst as u32 + num as u32);
                let r = self.fb.u32(k + 1);
                self.push(&d.calls, &[e, r]);
                // The call target is a JMP-priority update: a stack popping at pc+1 wins.
                let to = self.fb.u32(dst as u32);
                self.fb.store(d.jmp, to);
                let accept = self.fb.close();
                self.fb.stmt(Statement::If { condition: cond, accept, reject: Default::default() });
            }
            (Jmpc | Jmpu, Operands::Flow { dst, .. } | Operands::Uniform { dst, .. }) => {
                let cond = self.flow_condition(&inst);
                self.fb.open();
                let to = self.fb.u32(dst as u32);
                self.fb.store(d.jmp, to);
                let accept = self.fb.close();
                self.fb.stmt(Statement::If { condition: cond, accept, reject: Default::default() });
            }
            (Break | Breakc, _) => {
                let cond = self.flow_condition(&inst);
                self.fb.open();
                // BREAK on an empty LOOP stack hangs the GPU (ISA page); we end the program.
                let ne = self.nonempty(&d.loops);
                self.fb.open();
                let top = self.peek(&d.loops);
                let end = self.field(&d.loops, 0, top);
                self.pop(&d.loops, top);
                self.restore_al(&d.loops);
                self.fb.store(d.jmp, end);
                let accept = self.fb.close();
                self.fb.open();
                let t = self.fb.bool(true);
                self.fb.store(d.done, t);
                let reject = self.fb.close();
                self.fb.stmt(Statement::If { condition: ne, accept, reject });
                let accept = self.fb.close();
                self.fb.stmt(Statement::If { condition: cond, accept, reject: Default::default() });
            }
            _ => self.simple(&inst),
        }
    }

    /// The condition of a flow instruction (true for the unconditional ones).
    pub(super) fn flow_condition(&mut self, inst: &Instruction) -> H {
        use Opcode::*;
        match (inst.opcode, inst.operands) {
            (Ifc | Callc | Jmpc | Breakc, Operands::Flow { cond, .. }) => self.condition(cond),
            (Ifu | Callu, Operands::Uniform { id, .. }) => self.bool_uniform(id),
            (Jmpu, Operands::Uniform { id, num, .. }) => {
                // NUM bit 0 inverts the test (ISA page, JMPU).
                let b = self.bool_uniform(id);
                if num & 1 != 0 {
                    self.fb.not(b)
                } else {
                    b
                }
            }
            _ => self.fb.bool(true),
        }
    }

    /// The stack checks after an instruction, then the new PC.
    fn advance(&mut self, d: &Dispatch) {
        let u = self.abi.u32;
        let b = self.abi.bool;
        let nxt = self.fb.load(d.nxt);
        let f = self.fb.bool(false);
        // LOOP stack: at most one entry per instruction.
        let l_hit = self.fb.local("l_hit", b, Some(f));
        let l_pc = self.fb.local("l_pc", u, None);
        let i_hit = self.fb.local("i_hit", b, Some(f));
        let i_pc = self.fb.local("i_pc", u, None);
        let c_hit = self.fb.local("c_hit", b, Some(f));
        let c_pc = self.fb.local("c_pc", u, None);
        let c_pops = self.fb.local("c_pops", u, None);
        self.fb.store(l_pc, nxt);
        self.fb.store(i_pc, nxt);
        self.fb.store(c_pc, nxt);
        let zero = self.fb.u32(0);
        self.fb.store(c_pops, zero);
        let f = self.fb.bool(false);
        self.fb.store(l_hit, f);
        self.fb.store(i_hit, f);
        self.fb.store(c_hit, f);

        let ne = self.nonempty(&d.loops);
        self.fb.open();
        let top = self.peek(&d.loops);
        let end = self.field(&d.loops, 0, top);
        let m = self.fb.bin(B::Equal, end, nxt);
        self.fb.open();
        let t = self.fb.bool(true);
        self.fb.store(l_hit, t);
        // aL += increment, then another iteration or out.
        // The entry's counter grows by its step (wrapping, as u32 bits) and becomes aL.
        let inc = self.field(&d.loops, 3, top);
        let own = self.field(&d.loops, 4, top);
        let own = self.fb.bin(B::Add, own, inc);
        let p = self.fb.index(d.loops.fields[4], top);
        self.fb.store(p, own);
        let own = self.fb.bitcast(own, naga::ScalarKind::Sint);
        let al = self.fb.global(self.abi.al);
        self.fb.store(al, own);
        let cnt = self.field(&d.loops, 2, top);
        let zero = self.fb.u32(0);
        let last = self.fb.bin(B::Equal, cnt, zero);
        self.fb.open();
        self.pop(&d.loops, top);
        self.restore_al(&d.loops);
        let accept = self.fb.close();
        self.fb.open();
        let one = self.fb.u32(1);
        let c1 = self.fb.bin(B::Subtract, cnt, one);
        let p = self.fb.index(d.loops.fields[2], top);
        self.fb.store(p, c1);
        let start = self.field(&d.loops, 1, top);
        self.fb.store(l_pc, start);
        let reject = self.fb.close();
        self.fb.stmt(Statement::If { condition: last, accept, reject });
        let body = self.fb.close();
        self.fb.stmt(Statement::If { condition: m, accept: body, reject: Default::default() });
        let body = self.fb.close();
        self.fb.stmt(Statement::If { condition: ne, accept: body, reject: Default::default() });

        // IF stack: at most one entry per instruction.
        let ne = self.nonempty(&d.ifs);
        self.fb.open();
        let top = self.peek(&d.ifs);
        let end = self.field(&d.ifs, 0, top);
        let m = self.fb.bin(B::Equal, end, nxt);
        self.fb.open();
        let t = self.fb.bool(true);
        self.fb.store(i_hit, t);
        let tgt = self.field(&d.ifs, 1, top);
        self.fb.store(i_pc, tgt);
        self.pop(&d.ifs, top);
        let body = self.fb.close();
        self.fb.stmt(Statement::If { condition: m, accept: body, reject: Default::default() });
        let body = self.fb.close();
        self.fb.stmt(Statement::If { condition: ne, accept: body, reject: Default::default() });

        // CALL stack: pops while it matches; the fourth pop in a row misses its update.
        self.fb.open();
        let ne = self.nonempty(&d.calls);
        let empty = self.fb.not(ne);
        self.fb.if_(empty, |fb| fb.stmt(Statement::Break));
        let top = self.peek(&d.calls);
        let end = self.field(&d.calls, 0, top);
        let cp = self.fb.load(c_pc);
        let m = self.fb.bin(B::NotEqual, end, cp);
        self.fb.if_(m, |fb| fb.stmt(Statement::Break));
        let t = self.fb.bool(true);
        self.fb.store(c_hit, t);
        let ret = self.field(&d.calls, 1, top);
        self.pop(&d.calls, top);
        let one = self.fb.u32(1);
        self.fb.add_assign(c_pops, one);
        let pops = self.fb.load(c_pops);
        let four = self.fb.u32(4);
        let upd = self.fb.bin(B::NotEqual, pops, four);
        self.fb.open();
        self.fb.store(c_pc, ret);
        let accept = self.fb.close();
        self.fb.stmt(Statement::If { condition: upd, accept, reject: Default::default() });
        let body = self.fb.close();
        self.fb.stmt(Statement::Loop { body, continuing: Default::default(), break_if: None });

        // Priority: LOOP, IF, CALL, JMP, the plain PC.
        let jmp = self.fb.load(d.jmp);
        let none = self.fb.u32(NONE);
        let has_jmp = self.fb.bin(B::NotEqual, jmp, none);
        let pc = self.fb.select(has_jmp, jmp, nxt);
        let ch = self.fb.load(c_hit);
        let cp = self.fb.load(c_pc);
        let pc = self.fb.select(ch, cp, pc);
        let ih = self.fb.load(i_hit);
        let ip = self.fb.load(i_pc);
        let pc = self.fb.select(ih, ip, pc);
        let lh = self.fb.load(l_hit);
        let lp = self.fb.load(l_pc);
        let pc = self.fb.select(lh, lp, pc);
        self.fb.store(d.pc, pc);
    }
}

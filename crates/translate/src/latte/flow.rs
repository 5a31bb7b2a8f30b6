//! Control flow for one invocation: the lane state and the stack of latte-semantics-facts.md
//! §2.3-§2.5 as `latte::interp` (cf.rs) keeps them, and the forms of the program:
//! - straight code, when no CF instruction can leave the next one (ALU clauses, including
//!   the stack-only ALU_PUSH_BEFORE / ALU_POP_AFTER / ALU_ELSE_AFTER, POP, KILL, exports);
//! - the structured form (structured.rs) when the CF graph nests;
//! - a dispatch loop `loop { switch pc { case k: ... } }` for every other program, so that any
//!   valid program translates.
//!
//! The stack holds two words per entry: A = kind (0 push, 1 loop, 2 call) | state << 2 |
//! sets_al << 4 | has_counter << 5 | counter << 8 (13 bits) | inc << 21 (8 bits); B = the
//! saved loop index of a loop frame or the return address of a call.

use std::collections::BTreeMap;

use ::latte::isa::program::ClauseBody;
use ::latte::isa::table::{self, ExpClass};
use ::latte::isa::{CfExport, CfInst, CfNormal, Program};
use naga::{BinaryOperator as B, Block, Handle, Statement, SwitchCase, SwitchValue};

use super::ops::H;
use crate::builder::FnBuilder;

/// Lane states (§2.3).
pub(crate) const S_ACTIVE: u32 = 0;
pub(crate) const S_BRANCH: u32 = 1;
pub(crate) const S_CONTINUE: u32 = 2;
pub(crate) const S_BREAK: u32 = 3;

/// Error flags of an invocation (docs/latte-translate.md "Errors"): what makes
/// `latte::interp` stop with an error, reported in the status word instead.
pub const ERR_INVALID: u32 = 1;
/// An opcode or mode the interpreter does not implement.
pub const ERR_UNSUPPORTED: u32 = 2;
/// The stack overflowed.
pub const ERR_STACK_OVERFLOW: u32 = 4;
/// A pop, ELSE, LOOP_END, break or continue without the entry it needs.
pub const ERR_STACK_UNDERFLOW: u32 = 8;
/// The dispatch loop ran [`MAX_CF_STEPS`] CF instructions.
pub const ERR_STEP_BUDGET: u32 = 16;

/// CF instructions the dispatch loop runs before it stops with [`ERR_STEP_BUDGET`]: the
/// interpreter's step budget, which also counts ALU groups and fetches, so a run the
/// interpreter finishes is never cut short.
pub const MAX_CF_STEPS: u32 = 1_000_000;
/// Iterations of a DX10 loop (LOOP_START_DX10, no loop constant) after which it exits as if
/// its LOOP_END found no active lane (the port's translator's cap; the interpreter has none).
pub const DX10_LOOP_CAP: u32 = 4096;
/// The most stack entries (the interpreter's default `stack_limit`).
pub const STACK_LIMIT: u32 = 1024;

pub(crate) const END_PC: u32 = u32::MAX;
const KIND_PUSH: u32 = 0;
const KIND_LOOP: u32 = 1;
const KIND_CALL: u32 = 2;

/// Types the emitter uses.
#[derive(Clone, Copy)]
pub(crate) struct Types {
    pub u32: Handle<naga::Type>,
    pub vec4u: Handle<naga::Type>,
    pub vec4i: Handle<naga::Type>,
}

/// Where GPRs live: one local per register the program names, or (with relative addressing)
/// the invocation's output words of the compute form (`OUT_GPRS`: register r component c at
/// `base + 4r + c`), holding all 128.
pub(crate) enum Gprs {
    Each(BTreeMap<u32, H>),
    Words { out: H, base: H },
}

/// A GPR reference: static, or computed (relative addressing).
#[derive(Clone, Copy)]
pub(crate) enum Gpr {
    Static(u32),
    Dyn(H),
}

/// Where exports and memory writes go.
pub(crate) trait Sink {
    /// An export of `value` (SEL-applied, masked components 0) with its component mask.
    fn export(&mut self, em: &mut Em<'_, '_>, kind: u8, index: u16, value: H, mask: u8);
    /// A memory write (MEM_*).
    fn mem(&mut self, em: &mut Em<'_, '_>, op: u8, addr: H, comp_mask: u8, index: Option<H>, value: H);
    /// A geometry event in a program that is not a geometry program.
    fn gs_event(&mut self, em: &mut Em<'_, '_>);
}

/// The emitter of one program's body.
pub(crate) struct Em<'p, 'm> {
    pub fb: FnBuilder<'m>,
    pub prog: &'p Program,
    pub t: Types,
    pub gprs: Gprs,
    pub state: H,
    pub valid: H,
    pub pred: H,
    pub killed: H,
    pub al: H,
    pub sp: H,
    pub stk_a: H,
    pub stk_b: H,
    pub err: H,
    pub ar: H,
    pub pv: H,
    pub ps: H,
    pub exec_fail: H,
    pub pc: Option<H>,
    pub tmp_k: H,
    pub tmp_found: H,
    pub blocks: BTreeMap<u8, Handle<naga::GlobalVariable>>,
    pub cfile: Option<Handle<naga::GlobalVariable>>,
    pub block_vec4s: u32,
    pub cap: u32,
    pub loop_consts: BTreeMap<u8, u32>,
    pub bool_consts: u32,
    /// The fetch buffers and helpers (programs with VTX fetches).
    pub vtx: Option<super::vtx::Vtx>,
    /// `Precision::Exact`: the transcendentals are `latte::transc`'s algorithm (transc.rs).
    pub exact: bool,
    /// The transcendental functions built so far (exact precision).
    pub transc: BTreeMap<::latte::transc::Op, Handle<naga::Function>>,
    /// A u32 0 read from the input record ([`Em::opaque`]).
    pub opaque_zero: H,
}

impl Em<'_, '_> {
    // ---- errors ----

    pub(crate) fn fail_always(&mut self, bit: u32) {
        let e = self.fb.load(self.err);
        let k = self.k(bit);
        let n = self.b(B::InclusiveOr, e, k);
        self.fb.store(self.err, n);
    }

    pub(crate) fn fail_if(&mut self, c: H, bit: u32) {
        let e = self.fb.load(self.err);
        let k = self.k(bit);
        let z = self.k(0);
        let v = self.sel(c, k, z);
        let n = self.b(B::InclusiveOr, e, v);
        self.fb.store(self.err, n);
    }

    // ---- registers and constants ----

    /// A pointer to component `chan` of GPR `r`.
    fn gpr_ptr(&mut self, r: Gpr, chan: u32) -> H {
        match (&self.gprs, r) {
            (Gprs::Each(m), Gpr::Static(n)) => {
                let p = *m.get(&n).expect("every named GPR has a local");
                self.fb.at(p, chan)
            }
            (&Gprs::Words { out, base }, r) => {
                let word = match r {
                    Gpr::Static(n) => self.k(n * 4 + chan),
                    Gpr::Dyn(i) => {
                        let two = self.k(2);
                        let w = self.b(B::ShiftLeft, i, two);
                        let c = self.k(chan);
                        self.b(B::Add, w, c)
                    }
                };
                let i = self.b(B::Add, base, word);
                self.fb.index(out, i)
            }
            (Gprs::Each(_), Gpr::Dyn(_)) => unreachable!("relative addressing uses the words form"),
        }
    }

    pub(crate) fn gpr_load(&mut self, r: Gpr, chan: u32) -> H {
        let c = self.gpr_ptr(r, chan);
        self.fb.load(c)
    }

    pub(crate) fn gpr_load4(&mut self, r: Gpr) -> H {
        if let (Gprs::Each(m), Gpr::Static(n)) = (&self.gprs, r) {
            let p = *m.get(&n).expect("every named GPR has a local");
            return self.fb.load(p);
        }
        let c: Vec<H> = (0..4).map(|chan| self.gpr_load(r, chan)).collect();
        let ty = self.t.vec4u;
        self.fb.compose(ty, c)
    }

    pub(crate) fn gpr_store(&mut self, r: Gpr, chan: u32, v: H) {
        let c = self.gpr_ptr(r, chan);
        self.fb.store(c, v);
    }

    /// Component `chan` of vec4 `ci` of uniform block `bank`: 0 outside the block.
    pub(crate) fn block_read(&mut self, bank: u8, ci: H, chan: u32) -> H {
        let Some(&g) = self.blocks.get(&bank) else { return self.k(0) };
        let n = self.block_vec4s;
        self.vec4_table_read(g, n, ci, chan)
    }

    /// Component `chan` of c`i` of the constant file: 0 outside c0-c255.
    pub(crate) fn cfile_read(&mut self, i: H, chan: u32) -> H {
        let Some(g) = self.cfile else { return self.k(0) };
        self.vec4_table_read(g, 256, i, chan)
    }

    fn vec4_table_read(&mut self, g: Handle<naga::GlobalVariable>, len: u32, i: H, chan: u32) -> H {
        let u = self.u(i);
        let n = self.k(len);
        let ok = self.b(B::Less, u, n);
        let z = self.k(0);
        let idx = self.sel(ok, u, z);
        let gp = self.fb.global(g);
        let p = self.fb.index(gp, idx);
        let c = self.fb.at(p, chan);
        let v = self.fb.load(c);
        let v = self.u(v);
        self.sel(ok, v, z)
    }

    // ---- the stack ----

    fn stack_at(&mut self, arr: H, i: H) -> H {
        let m = self.and_k(i, self.cap - 1);
        self.fb.index(arr, m)
    }

    fn field(&mut self, a: H, shift: u32, bits: u32) -> H {
        let s = self.k(shift);
        let v = self.b(B::ShiftRight, a, s);
        self.and_k(v, (1 << bits) - 1)
    }

    fn push_entry(&mut self, a: H, b: H) {
        let sp = self.fb.load(self.sp);
        let cap = self.k(self.cap.min(STACK_LIMIT));
        let full = self.b(B::GreaterEqual, sp, cap);
        let (sa, sb, spp) = (self.stk_a, self.stk_b, self.sp);
        self.fail_if(full, ERR_STACK_OVERFLOW);
        let room = self.fb.not(full);
        let pa = self.stack_at(sa, sp);
        let pb = self.stack_at(sb, sp);
        let one = self.k(1);
        let nsp = self.b(B::Add, sp, one);
        self.fb.if_(room, |fb| {
            fb.store(pa, a);
            fb.store(pb, b);
            fb.store(spp, nsp);
        });
    }

    /// A push entry saving the lane's state.
    fn push_state(&mut self, st: H) {
        let two = self.k(2);
        let a = self.b(B::ShiftLeft, st, two);
        let z = self.k(0);
        self.push_entry(a, z);
    }

    /// POP `n` (§2.3): the state saved by the deepest entry popped comes back, except that a
    /// lane inactive by break or continue stays so; under VALID_PIXEL_MODE an invalid lane is
    /// deactivated.
    fn pop(&mut self, n: u8, vpm: bool) {
        if n > 0 {
            let sp = self.fb.load(self.sp);
            let nk = self.k(n as u32);
            let short = self.b(B::Less, sp, nk);
            let mut bad = short;
            let sa = self.stk_a;
            for j in 1..=n as u32 {
                let jk = self.k(j);
                let i = self.b(B::Subtract, sp, jk);
                let p = self.stack_at(sa, i);
                let a = self.fb.load(p);
                let kind = self.and_k(a, 3);
                let kp = self.k(KIND_PUSH);
                let np = self.b(B::NotEqual, kind, kp);
                bad = self.b(B::LogicalOr, bad, np);
            }
            self.fail_if(bad, ERR_STACK_UNDERFLOW);
            let i = self.b(B::Subtract, sp, nk);
            let p = self.stack_at(sa, i);
            let a = self.fb.load(p);
            let saved = self.field(a, 2, 2);
            let st = self.fb.load(self.state);
            let brk = self.eq_k(st, S_BREAK);
            let cont = self.eq_k(st, S_CONTINUE);
            let bc = self.b(B::LogicalOr, brk, cont);
            let sa_act = self.eq_k(saved, S_ACTIVE);
            let keep = self.b(B::LogicalAnd, bc, sa_act);
            let keep = self.b(B::LogicalOr, keep, bad);
            let ns = self.sel(keep, st, saved);
            self.fb.store(self.state, ns);
            let nsp = self.sel(bad, sp, i);
            self.fb.store(self.sp, nsp);
        }
        if vpm {
            let v = self.fb.load(self.valid);
            let nv = self.fb.not(v);
            let act = self.active();
            let c = self.b(B::LogicalAnd, nv, act);
            let st = self.fb.load(self.state);
            let b = self.k(S_BRANCH);
            let ns = self.sel(c, b, st);
            self.fb.store(self.state, ns);
        }
    }

    /// ELSE relative to `saved`: a lane active there swaps Active and Inactive-branch (the
    /// latter only when COND passes).
    fn else_swap(&mut self, saved: H, cond: bool) {
        let st = self.fb.load(self.state);
        let was = self.eq_k(saved, S_ACTIVE);
        let act = self.eq_k(st, S_ACTIVE);
        let br = self.eq_k(st, S_BRANCH);
        let (a, b) = (self.k(S_ACTIVE), self.k(S_BRANCH));
        let mut n = self.sel(act, b, st);
        if cond {
            n = self.sel(br, a, n);
        }
        let ns = self.sel(was, n, st);
        self.fb.store(self.state, ns);
    }

    /// The state saved by the entry `below` entries under the top (a loop frame's too); a call
    /// or nothing reads Active when `below > 0`, else it is a stack underflow.
    fn top_states(&mut self, below: u32) -> H {
        let sp = self.fb.load(self.sp);
        let k = self.k(below + 1);
        let none = self.b(B::Less, sp, k);
        let i = self.b(B::Subtract, sp, k);
        let sa = self.stk_a;
        let p = self.stack_at(sa, i);
        let a = self.fb.load(p);
        let kind = self.and_k(a, 3);
        let call = self.eq_k(kind, KIND_CALL);
        let st = self.field(a, 2, 2);
        let other = self.b(B::LogicalOr, none, call);
        if below == 0 {
            self.fail_if(other, ERR_STACK_UNDERFLOW);
        }
        let act = self.k(S_ACTIVE);
        self.sel(other, act, st)
    }

    /// Finds the innermost entry of `kind`: (found, index) in the scratch locals.
    fn find_innermost(&mut self, kind: u32) -> (H, H) {
        let sp = self.fb.load(self.sp);
        self.fb.store(self.tmp_k, sp);
        let f = self.fb.bool(false);
        self.fb.store(self.tmp_found, f);
        let (tk, tf, sa, cap) = (self.tmp_k, self.tmp_found, self.stk_a, self.cap);
        self.fb.open();
        let k = self.fb.load(tk);
        let zero = self.fb.u32(0);
        let done = self.fb.bin(B::Equal, k, zero);
        self.fb.if_(done, |fb| fb.stmt(Statement::Break));
        let one = self.fb.u32(1);
        let k1 = self.fb.bin(B::Subtract, k, one);
        self.fb.store(tk, k1);
        let m = self.fb.u32(cap - 1);
        let km = self.fb.bin(B::And, k1, m);
        let p = self.fb.index(sa, km);
        let a = self.fb.load(p);
        let three = self.fb.u32(3);
        let kd = self.fb.bin(B::And, a, three);
        let want = self.fb.u32(kind);
        let hit = self.fb.bin(B::Equal, kd, want);
        self.fb.if_(hit, |fb| {
            let t = fb.bool(true);
            fb.store(tf, t);
            fb.stmt(Statement::Break);
        });
        let body = self.fb.close();
        self.fb.stmt(Statement::Loop { body, continuing: Block::new(), break_if: None });
        let found = self.fb.load(tf);
        let k = self.fb.load(tk);
        (found, k)
    }

    // ---- program counter ----

    fn goto_k(&mut self, target: u32) {
        if let Some(pc) = self.pc {
            let t = self.k(target);
            self.fb.store(pc, t);
        }
    }

    fn goto_if(&mut self, c: H, target: u32) {
        if let Some(pc) = self.pc {
            let cur = self.fb.load(pc);
            let t = self.k(target);
            let n = self.sel(c, t, cur);
            self.fb.store(pc, n);
        }
    }

    fn cond(&self, n: &CfNormal) -> bool {
        let b = self.bool_consts >> (n.cf_const & 31) & 1 == 1;
        match n.cond {
            0 => true,
            1 => false,
            2 => b,
            _ => !b,
        }
    }

    /// Lanes that run an instruction: active (and valid, under VALID_PIXEL_MODE).
    pub(crate) fn runs(&mut self, vpm: bool) -> H {
        let a = self.active();
        if vpm {
            let v = self.fb.load(self.valid);
            self.b(B::LogicalAnd, a, v)
        } else {
            a
        }
    }

    fn clause(&self, pc: usize) -> Option<&ClauseBody> {
        self.prog.clauses.iter().find(|c| c.cf_index == pc).map(|c| &c.body)
    }

    /// The code of CF instruction `pc`; in the dispatch form it leaves the next pc in `pc`
    /// (set to pc + 1 before).
    pub(crate) fn cf(&mut self, pc: usize, sink: &mut dyn Sink) {
        let inst = self.prog.cf[pc];
        match &inst {
            CfInst::Alu(a) => {
                let on_fail = match a.op {
                    8..=11 | 15 => S_BRANCH,
                    13 => S_CONTINUE,
                    14 => S_BREAK,
                    _ => {
                        self.fail_always(ERR_UNSUPPORTED);
                        self.goto_k(END_PC);
                        return;
                    }
                };
                if a.op == 9 {
                    let st = self.fb.load(self.state);
                    self.push_state(st);
                }
                let groups = match self.clause(pc) {
                    Some(ClauseBody::Alu(g)) => Some(g.clone()),
                    _ => None,
                };
                let Some(groups) = groups else {
                    self.fail_always(ERR_INVALID);
                    return;
                };
                let act = self.active();
                let a2 = *a;
                self.fb.open();
                self.alu_clause(&a2, &groups, on_fail);
                let body = self.fb.close();
                self.fb.stmt(Statement::If { condition: act, accept: body, reject: Block::new() });
                match a.op {
                    10 => self.pop(1, false),
                    11 => self.pop(2, false),
                    15 => {
                        let saved = self.top_states(0);
                        self.else_swap(saved, true);
                    }
                    _ => {}
                }
            }
            CfInst::Export(e) => self.export(e, sink),
            CfInst::Normal(n) => self.cf_normal(pc, n, sink),
        }
        if inst.end_of_program() {
            self.goto_k(END_PC);
        }
    }

    fn jump_if_none_active(&mut self, n: &CfNormal) {
        let act = self.active();
        let none = self.fb.not(act);
        let (pop, vpm, addr) = (n.pop_count, n.valid_pixel_mode, n.addr);
        self.fb.open();
        self.pop(pop, vpm);
        self.goto_k(addr);
        let body = self.fb.close();
        self.fb.stmt(Statement::If { condition: none, accept: body, reject: Block::new() });
    }

    fn push(&mut self, n: &CfNormal, cond: bool) {
        // With a static COND, a failing COND deactivates the lane: nothing is pushed, the
        // state stays, POP_COUNT entries are popped and the jump is taken.
        let act = self.active();
        let go = if cond { act } else { self.fb.bool(false) };
        let st = self.fb.load(self.state);
        self.fb.open();
        self.push_state(st);
        let accept = self.fb.close();
        self.fb.open();
        self.pop(n.pop_count, n.valid_pixel_mode);
        self.goto_k(n.addr);
        let reject = self.fb.close();
        self.fb.stmt(Statement::If { condition: go, accept, reject });
    }

    fn push_else(&mut self, n: &CfNormal, cond: bool) {
        let st = self.fb.load(self.state);
        self.push_state(st);
        let saved = self.top_states(1);
        self.else_swap(saved, cond);
        self.jump_if_none_active(n);
    }

    fn cf_normal(&mut self, pc: usize, n: &CfNormal, sink: &mut dyn Sink) {
        let cond = self.cond(n);
        match n.op {
            0x00 | 0x1A | 0x13 => {}
            0x01 | 0x02 | 0x03 | 0x1B | 0x1C | 0x1D => self.fetch_clause(pc, n),
            0x04 | 0x06 | 0x07 => {
                let dx9 = n.op != 0x06;
                let c = self.loop_consts.get(&n.cf_const).copied().unwrap_or(::latte::interp::DEFAULT_LOOP_CONST);
                let (count, init, inc) = (c & 0xFFF, (c >> 12 & 0xFFF) as i32, (c >> 24) as u8);
                if dx9 && count == 0 {
                    self.goto_k(n.addr);
                    return;
                }
                let act = self.active();
                let sets_al = n.op == 0x04;
                let st = self.fb.load(self.state);
                let two = self.k(2);
                let sts = self.b(B::ShiftLeft, st, two);
                let word = KIND_LOOP
                    | (sets_al as u32) << 4
                    | (dx9 as u32) << 5
                    | (if dx9 { count } else { 0 }) << 8
                    | (inc as u32) << 21;
                let w = self.k(word);
                let a = self.b(B::InclusiveOr, w, sts);
                let al = self.fb.load(self.al);
                let b = self.u(al);
                let (al_p, addr) = (self.al, n.addr);
                self.fb.open();
                self.push_entry(a, b);
                if sets_al {
                    let i = self.fb.i32(init);
                    self.fb.store(al_p, i);
                }
                let accept = self.fb.close();
                self.fb.open();
                self.goto_k(addr);
                let reject = self.fb.close();
                self.fb.stmt(Statement::If { condition: act, accept, reject });
            }
            0x05 => self.loop_end(pc, n),
            0x08 | 0x09 => {
                let (found, k) = self.find_innermost(KIND_LOOP);
                let nf = self.fb.not(found);
                self.fail_if(nf, ERR_STACK_UNDERFLOW);
                if cond {
                    let act = self.active();
                    let to = self.k(if n.op == 0x08 { S_CONTINUE } else { S_BREAK });
                    let st = self.fb.load(self.state);
                    let ns = self.sel(act, to, st);
                    self.fb.store(self.state, ns);
                }
                let sa = self.stk_a;
                let p = self.stack_at(sa, k);
                let a = self.fb.load(p);
                let at_start = self.field(a, 2, 2);
                let act = self.active();
                let st = self.fb.load(self.state);
                let br = self.eq_k(st, S_BRANCH);
                let sa_act = self.eq_k(at_start, S_ACTIVE);
                let wake = self.b(B::LogicalAnd, br, sa_act);
                let wake = self.b(B::LogicalOr, act, wake);
                let jump = self.fb.not(wake);
                self.goto_if(jump, n.addr);
            }
            0x0A => {
                let act = self.active();
                let go = if cond { act } else { self.fb.bool(false) };
                let ng = self.fb.not(go);
                let (pop, vpm, addr) = (n.pop_count, n.valid_pixel_mode, n.addr);
                self.fb.open();
                self.pop(pop, vpm);
                self.goto_k(addr);
                let body = self.fb.close();
                self.fb.stmt(Statement::If { condition: ng, accept: body, reject: Block::new() });
            }
            0x0B => self.push(n, cond),
            0x0C => self.push_else(n, cond),
            0x0F..=0x11 => {
                self.pop(n.pop_count, n.valid_pixel_mode);
                let rest = CfNormal { pop_count: 0, ..*n };
                match n.op {
                    0x0F => {
                        let act = self.active();
                        let go = if cond { act } else { self.fb.bool(false) };
                        let ng = self.fb.not(go);
                        self.goto_if(ng, n.addr);
                    }
                    0x10 => self.push(&rest, cond),
                    _ => self.push_else(&rest, cond),
                }
            }
            0x0D => {
                let saved = self.top_states(0);
                self.else_swap(saved, cond);
                self.jump_if_none_active(n);
            }
            0x0E => self.pop(n.pop_count, n.valid_pixel_mode),
            0x12 => {
                if cond {
                    let act = self.active();
                    let w = self.k(KIND_CALL);
                    let ret = self.k(pc as u32 + 1);
                    let addr = n.addr;
                    self.fb.open();
                    self.push_entry(w, ret);
                    self.goto_k(addr);
                    let body = self.fb.close();
                    self.fb.stmt(Statement::If { condition: act, accept: body, reject: Block::new() });
                }
            }
            0x14 => {
                let (found, k) = self.find_innermost(KIND_CALL);
                let sb = self.stk_b;
                let p = self.stack_at(sb, k);
                let ret = self.fb.load(p);
                let end = self.k(END_PC);
                let target = self.sel(found, ret, end);
                let sp = self.fb.load(self.sp);
                let nsp = self.sel(found, k, sp);
                self.fb.store(self.sp, nsp);
                if let Some(pcv) = self.pc {
                    self.fb.store(pcv, target);
                }
            }
            0x15..=0x17 => {
                let act = self.active();
                self.fb.open();
                sink.gs_event(self);
                let body = self.fb.close();
                self.fb.stmt(Statement::If { condition: act, accept: body, reject: Block::new() });
            }
            0x18 => {
                if cond {
                    let act = self.active();
                    let v = self.fb.load(self.valid);
                    let na = self.fb.not(act);
                    let nv = self.b(B::LogicalAnd, v, na);
                    self.fb.store(self.valid, nv);
                    let k = self.fb.load(self.killed);
                    let nk = self.b(B::LogicalOr, k, act);
                    self.fb.store(self.killed, nk);
                }
            }
            0x19 => self.goto_k(END_PC),
            _ => {
                self.fail_always(ERR_UNSUPPORTED);
                self.goto_k(END_PC);
            }
        }
    }

    fn loop_end(&mut self, _pc: usize, n: &CfNormal) {
        let (found, k) = self.find_innermost(KIND_LOOP);
        let nf = self.fb.not(found);
        self.fail_if(nf, ERR_STACK_UNDERFLOW);
        self.goto_if(nf, END_PC);
        // Entries above the frame are dropped; continue lanes become active.
        let one = self.k(1);
        let k1 = self.b(B::Add, k, one);
        let sp = self.fb.load(self.sp);
        let nsp = self.sel(found, k1, sp);
        self.fb.store(self.sp, nsp);
        let st = self.fb.load(self.state);
        let c = self.eq_k(st, S_CONTINUE);
        let a = self.k(S_ACTIVE);
        let st = self.sel(c, a, st);
        self.fb.store(self.state, st);
        let sa = self.stk_a;
        let p = self.stack_at(sa, k);
        let w = self.fb.load(p);
        let has_counter = self.field(w, 5, 1);
        let has_counter = self.eq_k(has_counter, 1);
        let counter = self.field(w, 8, 13);
        // DX9: the counter counts down (saturating); DX10: it counts iterations up to the cap.
        let z = self.k(0);
        let c0 = self.eq_k(counter, 0);
        let dec = self.b(B::Subtract, counter, one);
        let dec = self.sel(c0, z, dec);
        let inc1 = self.b(B::Add, counter, one);
        let nc = self.sel(has_counter, dec, inc1);
        let nz = self.b(B::NotEqual, nc, z);
        let cap = self.k(DX10_LOOP_CAP);
        let below = self.b(B::Less, nc, cap);
        let more = self.sel(has_counter, nz, below);
        let sets_al = self.field(w, 4, 1);
        let sets_al = self.eq_k(sets_al, 1);
        let incb = self.field(w, 21, 8);
        let s24 = self.k(24);
        let inc = self.b(B::ShiftLeft, incb, s24);
        let inc = self.i(inc);
        let s24i = self.k(24);
        let inc = self.b(B::ShiftRight, inc, s24i);
        let al = self.fb.load(self.al);
        let al_inc = self.b(B::Add, al, inc);
        let al1 = self.sel(sets_al, al_inc, al);
        self.fb.store(self.al, al1);
        let act = self.active();
        let again = self.b(B::LogicalAnd, more, act);
        let again = self.b(B::LogicalAnd, again, found);
        // Loop again: store the counter back. Exit: restore the state (and aL) from the frame.
        let mask = self.k(!(0x1FFF << 8));
        let wm = self.b(B::And, w, mask);
        let s8 = self.k(8);
        let ncs = self.b(B::ShiftLeft, nc, s8);
        let nw = self.b(B::InclusiveOr, wm, ncs);
        let saved_state = self.field(w, 2, 2);
        let sb = self.stk_b;
        let pb = self.stack_at(sb, k);
        let saved_al = self.fb.load(pb);
        let saved_al = self.i(saved_al);
        let exit_al = self.sel(sets_al, saved_al, al1);
        let (state_p, al_p, sp_p, addr) = (self.state, self.al, self.sp, n.addr);
        let pcv = self.pc;
        self.fb.open();
        self.fb.store(p, nw);
        if let Some(pcv) = pcv {
            let t = self.fb.u32(addr);
            self.fb.store(pcv, t);
        }
        let accept = self.fb.close();
        self.fb.open();
        self.fb.if_(found, |fb| {
            fb.store(state_p, saved_state);
            fb.store(al_p, exit_al);
            fb.store(sp_p, k);
        });
        let reject = self.fb.close();
        self.fb.stmt(Statement::If { condition: again, accept, reject });
    }

    fn export(&mut self, e: &CfExport, sink: &mut dyn Sink) {
        let Some(&(_, _, class)) = table::CF_EXP_OPS.iter().find(|o| o.0 == e.op) else {
            self.fail_always(ERR_UNSUPPORTED);
            return;
        };
        let run = self.runs(e.valid_pixel_mode);
        let e = *e;
        self.fb.open();
        for i in 0..=e.burst_count as u32 {
            if e.rw_gpr as u32 + i >= 128 {
                self.fail_always(ERR_INVALID);
                break;
            }
            let g = (e.rw_gpr as u32 + i) & 0x7F;
            let r = if e.rw_rel {
                let al = self.fb.load(self.al);
                Gpr::Dyn(self.rel_gpr(g, al))
            } else {
                Gpr::Static(g)
            };
            let src = self.gpr_load4(r);
            match class {
                ExpClass::Export => {
                    let mut comps = Vec::with_capacity(4);
                    let mut mask = 0u8;
                    let mut bad = false;
                    for c in 0..4 {
                        let v = match e.sel(c) {
                            s @ 0..=3 => self.fb.at(src, s as u32),
                            4 => self.k(0),
                            5 => self.k(1.0f32.to_bits()),
                            7 => {
                                comps.push(self.k(0));
                                continue;
                            }
                            _ => {
                                bad = true;
                                self.k(0)
                            }
                        };
                        comps.push(v);
                        mask |= 1 << c;
                    }
                    if bad {
                        self.fail_always(ERR_UNSUPPORTED);
                        continue;
                    }
                    let value = self.fb.compose(self.t.vec4u, comps);
                    sink.export(self, e.kind & 3, e.array_base + i as u16, value, mask);
                }
                ExpClass::Mem => {
                    let elem = e.elem_size as u32 + 1;
                    let ind = match e.kind {
                        0 => None,
                        1 => Some(self.gpr_load(Gpr::Static(e.index_gpr as u32 & 127), 0)),
                        _ => {
                            self.fail_always(ERR_UNSUPPORTED);
                            continue;
                        }
                    };
                    let base = self.k((e.array_base as u32).wrapping_add(i * elem));
                    let addr = match ind {
                        None => base,
                        Some(x) => {
                            let el = self.k(elem);
                            let m = self.b(B::Multiply, x, el);
                            self.b(B::Add, base, m)
                        }
                    };
                    sink.mem(self, e.op, addr, e.comp_mask(), ind, src);
                }
            }
        }
        let body = self.fb.close();
        self.fb.stmt(Statement::If { condition: run, accept: body, reject: Block::new() });
    }

    // ---- the two forms ----

    /// Whether the program runs as straight code: no CF instruction before the end can leave
    /// its successor.
    pub(crate) fn is_straight(prog: &Program) -> bool {
        prog.cf.iter().all(|c| match c {
            CfInst::Alu(a) => matches!(a.op, 8..=11 | 15),
            CfInst::Export(_) => true,
            CfInst::Normal(n) => matches!(n.op, 0x00..=0x03 | 0x0E | 0x13 | 0x15..=0x1D),
        })
    }

    /// Straight code: every CF instruction in order up to the end.
    pub(crate) fn straight(&mut self, sink: &mut dyn Sink) {
        for pc in 0..self.prog.cf.len() {
            self.cf(pc, sink);
            let c = self.prog.cf[pc];
            if c.end_of_program() || matches!(c, CfInst::Normal(n) if n.op == 0x19) {
                break;
            }
        }
    }

    /// The dispatch loop.
    pub(crate) fn dispatch(&mut self, sink: &mut dyn Sink) {
        let u = self.t.u32;
        let zero = self.fb.u32(0);
        let pc = self.fb.local("pc", u, Some(zero));
        let zero = self.fb.u32(0);
        let steps = self.fb.local("steps", u, Some(zero));
        self.pc = Some(pc);
        let err = self.err;
        self.fb.open();
        let p = self.fb.load(pc);
        let end = self.fb.u32(END_PC);
        let done = self.fb.bin(B::Equal, p, end);
        let e = self.fb.load(err);
        let z = self.fb.u32(0);
        let bad = self.fb.bin(B::NotEqual, e, z);
        let stop = self.fb.bin(B::LogicalOr, done, bad);
        self.fb.if_(stop, |fb| fb.stmt(Statement::Break));
        let one = self.fb.u32(1);
        self.fb.add_assign(steps, one);
        let s = self.fb.load(steps);
        let max = self.fb.u32(MAX_CF_STEPS);
        let over = self.fb.bin(B::Greater, s, max);
        self.fb.if_(over, |fb| {
            let e = fb.load(err);
            let k = fb.u32(ERR_STEP_BUDGET);
            let n = fb.bin(B::InclusiveOr, e, k);
            fb.store(err, n);
            fb.stmt(Statement::Break);
        });
        let mut cases = Vec::with_capacity(self.prog.cf.len() + 1);
        for k in 0..self.prog.cf.len() {
            self.fb.open();
            let next = self.fb.u32(k as u32 + 1);
            self.fb.store(pc, next);
            self.cf(k, sink);
            let body = self.fb.close();
            cases.push(SwitchCase { value: SwitchValue::U32(k as u32), body, fall_through: false });
        }
        // A pc past the program (PcOutOfRange in the interpreter).
        self.fb.open();
        self.fail_always(ERR_INVALID);
        let body = self.fb.close();
        cases.push(SwitchCase { value: SwitchValue::Default, body, fall_through: false });
        let sel = self.fb.load(pc);
        self.fb.stmt(Statement::Switch { selector: sel, cases });
        let body = self.fb.close();
        self.fb.stmt(Statement::Loop { body, continuing: Block::new(), break_if: None });
    }
}

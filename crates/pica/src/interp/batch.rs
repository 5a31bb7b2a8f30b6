//! Batched execution: [`LANES`] vertex invocations through each instruction together
//! (docs/pica-interp.md, "Batched execution").
//!
//! Registers that differ per invocation (v, r, o, a0, the cmp flags) are stored lane-wise, one
//! array of lanes per register component, so the float24 operations of [`super::lanes`] work on
//! all lanes at once. Constants, integer and boolean uniforms are shared and read as scalars.
//!
//! Control flow is held by a *group*: a set of lanes (a bit mask) with one PC, one set of
//! stacks, one aL and one step count. Flow that depends on uniforms only (CALL, CALLU, IFU,
//! JMPU, LOOP, BREAK) is the same for every lane, so the group follows it as the scalar
//! executor does. Flow that depends on the cmp flags (IFC, JMPC, CALLC, BREAKC) is evaluated as a
//! lane mask; when the lanes of a group disagree, the group splits in two at that instruction,
//! each half carrying a copy of the control state, and every write of a group is masked to its
//! lanes. A group that runs alone is exactly a scalar invocation of each of its lanes, so the
//! results (outputs, errors, step counts) are those of [`Interpreter::run`], bit for bit.

use super::exec::{relative_index, Interpreter, RunError, ShaderKind, Vec4};
use super::f24ops as f;
use super::flow::{CallEntry, IfEntry, LoopEntry, Stacks};
use super::lanes::{self as l, Lanes, LANES};
use super::program::{Invalid, Op, Src, OUTPUT_BASE};
use super::reset::reset_for;
use crate::isa::{AddrIndex, CmpOp, CondOp, Condition, Opcode};

/// A lane mask: bit i is lane i.
type Mask = u64;

/// Lane-wise registers: v0-v15 at 0-15, r0-r15 at 16-31, o0-o15 at 32-47.
const FILE: usize = 48;
const OUT: usize = 32;

struct Lanewise {
    file: [[Lanes; 4]; FILE],
    a0: [[i32; LANES]; 2],
    cmp: [Mask; 2],
}

/// Control state shared by the lanes of `mask`.
#[derive(Clone, Copy)]
struct Group {
    mask: Mask,
    pc: u32,
    stacks: Stacks,
    al: i32,
    steps: u64,
}

/// Groups still to run; never more than one per lane.
struct Pending {
    items: [Option<Group>; LANES],
    len: usize,
}

impl Pending {
    fn push(&mut self, g: Group) {
        self.items[self.len] = Some(g);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<Group> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        self.items[self.len].take()
    }
}

/// The lane index of a register number of the decoded program (v, r: their raw number; o:
/// after them).
#[inline(always)]
fn lane_reg(raw: u8) -> usize {
    if raw >= OUTPUT_BASE {
        (raw - OUTPUT_BASE) as usize + OUT
    } else {
        raw as usize
    }
}

#[inline(always)]
fn bits_of(lanes: impl Fn(usize) -> bool) -> Mask {
    (0..LANES).fold(0, |m, i| m | ((lanes(i) as Mask) << i))
}

/// The condition for every lane, as a mask (Condition::eval on each lane's flags).
#[inline(always)]
fn cond_mask(c: Condition, cmp: [Mask; 2]) -> Mask {
    let x = if c.refx { cmp[0] } else { !cmp[0] };
    let y = if c.refy { cmp[1] } else { !cmp[1] };
    match c.op {
        CondOp::Or => x | y,
        CondOp::And => x & y,
        CondOp::X => x,
        CondOp::Y => y,
    }
}

#[inline(always)]
fn compare(op: CmpOp, a: &Lanes, b: &Lanes) -> Mask {
    match op {
        CmpOp::Eq => bits_of(|i| a[i] == b[i]),
        CmpOp::Ne => bits_of(|i| a[i] != b[i]),
        CmpOp::Lt => bits_of(|i| a[i] < b[i]),
        CmpOp::Le => bits_of(|i| a[i] <= b[i]),
        CmpOp::Gt => bits_of(|i| a[i] > b[i]),
        CmpOp::Ge => bits_of(|i| a[i] >= b[i]),
        CmpOp::True(_) => Mask::MAX,
    }
}

impl<'p> Interpreter<'p> {
    /// Runs one invocation per element of `inputs` (v0-v15 each) from `entry` and writes each
    /// one's o0-o15 to the same index of `outputs`: the results of [`Interpreter::run`] on each
    /// input in turn, bit for bit, computed [`LANES`] vertices at a time.
    ///
    /// Returns the invocations that stopped with an error, by index, in ascending order (empty
    /// when all ended); the outputs of those hold the o registers as they were when the error
    /// stopped them. [`Interpreter::last_steps`] is the total over all invocations. Geometry
    /// shaders run one invocation at a time (their emitted vertices are shared state), through
    /// the scalar path.
    ///
    /// ```
    /// use pica::interp::{Interpreter, Program, ShaderKind};
    /// // add o0, v0, v0 ; end
    /// let program = Program::new(&[0x0000_0000, 0x8800_0000], &[0x0D86_C36F]).unwrap();
    /// let mut it = Interpreter::new(&program, ShaderKind::Vertex);
    /// let inputs: Vec<_> = (0..20).map(|k| [[k as f32; 4]; 16]).collect();
    /// let mut outputs = vec![[[0.0; 4]; 16]; 20];
    /// assert!(it.run_batch(0, &inputs, &mut outputs).is_empty());
    /// assert_eq!(outputs[7][0], [14.0; 4]);
    /// ```
    ///
    /// # Panics
    /// When `outputs` is shorter than `inputs`.
    pub fn run_batch(
        &mut self,
        entry: u32,
        inputs: &[[Vec4; 16]],
        outputs: &mut [[Vec4; 16]],
    ) -> Vec<(usize, RunError)> {
        assert!(outputs.len() >= inputs.len(), "run_batch: {} outputs for {} inputs", outputs.len(), inputs.len());
        let mut errors = Vec::new();
        let mut total = 0;
        if self.kind() == ShaderKind::Geometry {
            for (k, (input, out)) in inputs.iter().zip(outputs.iter_mut()).enumerate() {
                match self.run(entry, input) {
                    Ok(o) => *out = o,
                    Err(e) => errors.push((k, e)),
                }
                total += self.last_steps;
            }
            self.last_steps = total;
            return errors;
        }
        let mut regs = Lanewise { file: [[[0.0; LANES]; 4]; FILE], a0: [[0; LANES]; 2], cmp: [0; 2] };
        let usage = self.program().usage;
        let reset = reset_for(self.program(), entry, self.step_limit);
        // Both are empty again after every chunk (each group is popped, each error taken), so they
        // are made once per call.
        let mut lane_errors: [Option<RunError>; LANES] = Default::default();
        let mut pending = Pending { items: [None; LANES], len: 0 };
        // The outputs a program writes are copied out of the lanes, the others are zero.
        let (written, unwritten): (Vec<usize>, Vec<usize>) = (0..16).partition(|r| usage.outputs & (1 << r) != 0);
        for (chunk, (ins, outs)) in inputs.chunks(LANES).zip(outputs.chunks_mut(LANES)).enumerate() {
            let n = ins.len();
            let full: Mask = (1 << n) - 1;
            for r in 0..16 {
                if usage.inputs & (1 << r) != 0 {
                    for (lane, input) in ins.iter().enumerate() {
                        for (c, x) in input[r].iter().enumerate() {
                            regs.file[r][c][lane] = *x;
                        }
                    }
                }
                for c in 0..4 {
                    if reset.temps & (1 << (4 * r + c)) != 0 {
                        regs.file[16 + r][c] = [0.0; LANES];
                    }
                    if reset.outputs & (1 << (4 * r + c)) != 0 {
                        regs.file[OUT + r][c] = [0.0; LANES];
                    }
                }
            }
            regs.a0 = [[0; LANES]; 2];
            regs.cmp = [0; 2];
            pending.push(Group { mask: full, pc: entry, stacks: Stacks::default(), al: 0, steps: 0 });
            while let Some(mut g) = pending.pop() {
                let result = self.execute_group(&mut regs, &mut g, full, &mut pending);
                total += g.steps * g.mask.count_ones() as u64;
                if let Err(e) = result {
                    for (lane, slot) in lane_errors.iter_mut().enumerate() {
                        if g.mask & (1 << lane) != 0 {
                            *slot = Some(e.clone());
                        }
                    }
                }
            }
            for (lane, out) in outs.iter_mut().enumerate().take(n) {
                for &r in &written {
                    let v = &regs.file[OUT + r];
                    out[r] = [v[0][lane], v[1][lane], v[2][lane], v[3][lane]];
                }
                for &r in &unwritten {
                    out[r] = [0.0; 4];
                }
                if let Some(e) = lane_errors[lane].take() {
                    errors.push((chunk * LANES + lane, e));
                }
            }
        }
        self.last_steps = total;
        errors
    }

    /// Component `c` of source `s` (after swizzle and negation) in every lane.
    #[inline(always)]
    fn lanes_of(&self, regs: &Lanewise, al: i32, s: &Src, c: usize) -> Lanes {
        let k = (s.swz[c] & 3) as usize;
        let mut v = if s.reg < 0x20 {
            regs.file[s.reg as usize][k]
        } else {
            match s.rel {
                AddrIndex::None => [self.constant(s.reg as usize - 0x20)[k]; LANES],
                AddrIndex::AL => [self.relative_constant(s.reg, al)[k]; LANES],
                AddrIndex::A0x => self.gather(s.reg, &regs.a0[0], k),
                AddrIndex::A0y => self.gather(s.reg, &regs.a0[1], k),
            }
        };
        if s.neg {
            l::neg(&mut v);
        }
        v
    }

    #[inline(always)]
    fn relative_constant(&self, reg: u8, off: i32) -> Vec4 {
        match relative_index(reg, off) {
            Some(i) => *self.constant(i),
            None => [1.0; 4],
        }
    }

    /// Component `k` of the constant each lane's address register selects.
    fn gather(&self, reg: u8, a0: &[i32; LANES], k: usize) -> Lanes {
        let mut v = [0.0; LANES];
        for (v, off) in v.iter_mut().zip(a0) {
            *v = self.relative_constant(reg, *off)[k];
        }
        v
    }

    /// All four components of a source.
    #[inline(always)]
    fn lanes4(&self, regs: &Lanewise, al: i32, s: &Src) -> [Lanes; 4] {
        let mut v = [[0.0; LANES]; 4];
        for (c, v) in v.iter_mut().enumerate() {
            *v = self.lanes_of(regs, al, s, c);
        }
        v
    }

    /// An instruction that only computes ([`super::blocks::is_plain`]), in the lanes of `lanes`;
    /// any other does nothing here.
    #[inline(always)]
    fn plain_lanes(&self, regs: &mut Lanewise, al: i32, lanes: Mask, op: &Op) {
        match *op {
            Op::Alu { op, dst, mask, s1, s2 } => self.alu_lanes(regs, al, lanes, op, dst, mask, &s1, &s2),
            Op::Mad { dst, mask, s1, s2, s3 } => {
                let v = per_component(mask, |c| {
                    let a = self.lanes_of(regs, al, &s1, c);
                    let b = self.lanes_of(regs, al, &s2, c);
                    let d = self.lanes_of(regs, al, &s3, c);
                    l::mad(&a, &b, &d)
                });
                write(regs, dst, mask, lanes, &v);
            }
            Op::Mova { mask, s1 } => {
                // Both components are read before a0 changes (the source may be indexed by a0).
                let a = [self.lanes_of(regs, al, &s1, 0), self.lanes_of(regs, al, &s1, 1)];
                for (c, bit) in [(0, 8), (1, 4)] {
                    if mask & bit != 0 {
                        let a = a[c];
                        for (i, slot) in regs.a0[c].iter_mut().enumerate() {
                            if lanes & (1 << i) != 0 {
                                *slot = f::to_address(a[i]);
                            }
                        }
                    }
                }
            }
            Op::Cmp { s1, s2, x, y } => {
                for (c, op) in [(0, x), (1, y)] {
                    let a = self.lanes_of(regs, al, &s1, c);
                    let b = self.lanes_of(regs, al, &s2, c);
                    regs.cmp[c] = (regs.cmp[c] & !lanes) | (compare(op, &a, &b) & lanes);
                }
            }
            _ => {}
        }
    }

    fn execute_group(
        &self,
        regs: &mut Lanewise,
        g: &mut Group,
        full: Mask,
        pending: &mut Pending,
    ) -> Result<(), RunError> {
        let program = self.program();
        let ops = &program.ops[..];
        let limit = self.step_limit;
        // Writes of a group that holds every lane need no blending.
        let mut whole = g.mask == full;
        loop {
            let mut pc = g.pc;
            let Some(mut op) = ops.get(pc as usize) else {
                return Err(RunError::RanOffEnd { pc, len: ops.len() });
            };
            // The step budget once per block, as in the scalar executor (`Interpreter::execute`):
            // a block that fits runs its plain instructions unchecked, one that does not goes one
            // checked instruction at a time. A group only splits at a condition, which ends a
            // block, so its lanes are the same throughout the unchecked part.
            let run = program.blocks[pc as usize] as u64;
            if limit - g.steps >= run {
                let last = pc + run as u32 - 1;
                let lanes = if whole { Mask::MAX } else { g.mask };
                for op in &ops[pc as usize..last as usize] {
                    self.plain_lanes(regs, g.al, lanes, op);
                }
                g.steps += run - 1;
                pc = last;
                op = &ops[pc as usize];
            } else if g.steps >= limit {
                return Err(RunError::StepLimit { pc, limit });
            }
            // A condition the lanes disagree on: the lanes where it is false go on as a group of
            // their own from this instruction; this group keeps the others.
            let taken = match *op {
                Op::IfC { cond, .. } | Op::JmpC { cond, .. } | Op::CallC { cond, .. } | Op::BreakC { cond } => {
                    let m = cond_mask(cond, regs.cmp) & g.mask;
                    if m != 0 && m != g.mask {
                        pending.push(Group { mask: g.mask & !m, pc, ..*g });
                        g.mask = m;
                        whole = false;
                    }
                    m != 0
                }
                _ => false,
            };
            g.steps += 1;
            let mut jump = None;
            let lanes = if whole { Mask::MAX } else { g.mask };
            match *op {
                Op::Alu { .. } | Op::Mad { .. } | Op::Mova { .. } | Op::Cmp { .. } | Op::Nop => {
                    self.plain_lanes(regs, g.al, lanes, op)
                }
                Op::End => return Ok(()),
                Op::Break => match break_loop(g) {
                    Some(target) => jump = Some(target),
                    None => return Err(RunError::BreakOutsideLoop { pc }),
                },
                Op::BreakC { .. } => {
                    if taken {
                        match break_loop(g) {
                            Some(target) => jump = Some(target),
                            None => return Err(RunError::BreakOutsideLoop { pc }),
                        }
                    }
                }
                Op::Call { dst, num } => jump = Some(call(g, pc, dst, num)),
                Op::CallC { dst, num, .. } => {
                    if taken {
                        jump = Some(call(g, pc, dst, num));
                    }
                }
                Op::CallU { dst, num, b } => {
                    if self.bool_uniform(b) {
                        jump = Some(call(g, pc, dst, num));
                    }
                }
                Op::IfC { dst, num, .. } => jump = branch(g, taken, dst, num),
                Op::IfU { dst, num, b } => jump = branch(g, self.bool_uniform(b), dst, num),
                Op::JmpC { dst, .. } => {
                    if taken {
                        jump = Some(dst as u32);
                    }
                }
                Op::JmpU { dst, b, invert } => {
                    if self.bool_uniform(b) != invert {
                        jump = Some(dst as u32);
                    }
                }
                Op::Loop { dst, i } => {
                    let [x, y, z, _] = self.int_uniform(i);
                    g.al = y as i32;
                    g.stacks.loops.push(LoopEntry {
                        trigger: dst as u32 + 1,
                        start: pc + 1,
                        remaining: x as u32,
                        step: z as i32,
                        al: y as i32,
                    });
                }
                Op::Emit => return Err(RunError::GeometryOnly { pc, what: "EMIT" }),
                Op::SetEmit { .. } => return Err(RunError::GeometryOnly { pc, what: "SETEMIT" }),
                Op::Invalid(Invalid::UnknownOpcode(opcode)) => return Err(RunError::UnknownOpcode { pc, opcode }),
                Op::Invalid(Invalid::MissingDescriptor(desc)) => return Err(RunError::MissingDescriptor { pc, desc }),
            }
            let next = pc + 1;
            g.pc = if g.stacks.is_empty() { jump.unwrap_or(next) } else { g.stacks.next_pc(next, jump, &mut g.al) };
        }
    }

    /// The arithmetic instructions: only the components the mask writes are computed (the
    /// operations are pure, so the others could not be seen).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn alu_lanes(&self, regs: &mut Lanewise, al: i32, lanes: Mask, op: Opcode, dst: u8, mask: u8, s1: &Src, s2: &Src) {
        // Every source component is read before the destination is written (it may be a source).
        #[inline(always)]
        fn each(
            it: &Interpreter<'_>,
            regs: &mut Lanewise,
            (al, lanes, dst, mask, s1, s2): (i32, Mask, u8, u8, &Src, &Src),
            f: impl Fn(&Lanes, &Lanes) -> Lanes,
        ) {
            let v = per_component(mask, |c| f(&it.lanes_of(regs, al, s1, c), &it.lanes_of(regs, al, s2, c)));
            write(regs, dst, mask, lanes, &v);
        }
        let args = (al, lanes, dst, mask, s1, s2);
        let splat = |regs: &mut Lanewise, v: Lanes| write_splat(regs, dst, mask, lanes, &v);
        let scalar_x = |regs: &Lanewise, f: fn(f32) -> f32| -> Lanes {
            let mut a = self.lanes_of(regs, al, s1, 0);
            for x in a.iter_mut() {
                *x = f(*x);
            }
            a
        };
        match op {
            Opcode::Mov => {
                let v = per_component(mask, |c| self.lanes_of(regs, al, s1, c));
                write(regs, dst, mask, lanes, &v);
            }
            Opcode::Add => each(self, regs, args, l::add),
            Opcode::Mul => each(self, regs, args, l::mul),
            Opcode::Max => each(self, regs, args, l::max),
            Opcode::Min => each(self, regs, args, l::min),
            Opcode::Sge => each(self, regs, args, l::sge),
            Opcode::Slt => each(self, regs, args, l::slt),
            Opcode::Dp3 | Opcode::Dp4 | Opcode::Dph => {
                if mask != 0 {
                    // Component products straight from the sources (DPH: 1 for src1.w).
                    let p = |c: usize| {
                        let b = self.lanes_of(regs, al, s2, c);
                        let a = if op == Opcode::Dph && c == 3 { [1.0; LANES] } else { self.lanes_of(regs, al, s1, c) };
                        l::mul(&a, &b)
                    };
                    let v = if op == Opcode::Dp3 { l::dp3_of(p) } else { l::dp4_of(p) };
                    splat(regs, v);
                }
            }
            Opcode::Dst => {
                let v = per_component(mask, |c| match c {
                    0 => [1.0; LANES],
                    1 => l::mul(&self.lanes_of(regs, al, s1, 1), &self.lanes_of(regs, al, s2, 1)),
                    2 => self.lanes_of(regs, al, s1, 2),
                    _ => self.lanes_of(regs, al, s2, 3),
                });
                write(regs, dst, mask, lanes, &v);
            }
            Opcode::Rcp | Opcode::Rsq => {
                if mask != 0 {
                    let a = self.lanes_of(regs, al, s1, 0);
                    let v = if op == Opcode::Rcp { l::rcp(&a) } else { l::rsq(&a) };
                    splat(regs, v);
                }
            }
            Opcode::Ex2 | Opcode::Lg2 => {
                if mask != 0 {
                    let v = scalar_x(regs, if op == Opcode::Ex2 { f::ex2 } else { f::lg2 });
                    splat(regs, v);
                }
            }
            Opcode::Flr => {
                let v = per_component(mask, |c| l::flr(&self.lanes_of(regs, al, s1, c)));
                write(regs, dst, mask, lanes, &v);
            }
            Opcode::Litp => {
                let a = self.lanes4(regs, al, s1);
                // cmp.x / cmp.y from src.x >= 0 and src.w >= 0, whatever the mask (ISA page, LITP).
                let zero = [0.0; LANES];
                regs.cmp[0] = (regs.cmp[0] & !lanes) | (compare(CmpOp::Ge, &a[0], &zero) & lanes);
                regs.cmp[1] = (regs.cmp[1] & !lanes) | (compare(CmpOp::Ge, &a[3], &zero) & lanes);
                let clamp = [f::LITP_CLAMP; LANES];
                let v = [
                    l::max(&a[0], &zero),
                    l::max(&l::min(&a[1], &clamp), &[-f::LITP_CLAMP; LANES]),
                    zero,
                    l::max(&a[3], &zero),
                ];
                write(regs, dst, mask, lanes, &v);
            }
            other => unreachable!("Op::Alu holds a plain arithmetic opcode, not {other:?}"),
        }
    }
}

/// The components of a result that `mask` writes (x = bit 3), computed by `f`; the others are
/// left zero and never written.
#[inline(always)]
fn per_component(mask: u8, mut f: impl FnMut(usize) -> Lanes) -> [Lanes; 4] {
    let mut v = [[0.0; LANES]; 4];
    for (c, slot) in v.iter_mut().enumerate() {
        if mask & (8 >> c) != 0 {
            *slot = f(c);
        }
    }
    v
}

/// Writes the components of `v` that `mask` selects into register `dst`, in the lanes of `lanes`.
#[inline(always)]
fn write(regs: &mut Lanewise, dst: u8, mask: u8, lanes: Mask, v: &[Lanes; 4]) {
    let d = &mut regs.file[lane_reg(dst)];
    for (c, (d, v)) in d.iter_mut().zip(v).enumerate() {
        if mask & (8 >> c) == 0 {
            continue;
        }
        if lanes == Mask::MAX {
            *d = *v;
        } else {
            for (i, (slot, x)) in d.iter_mut().zip(v).enumerate() {
                if lanes & (1 << i) != 0 {
                    *slot = *x;
                }
            }
        }
    }
}

/// Writes `v` into the components of register `dst` that `mask` selects, in the lanes of
/// `lanes` (the results that are one value for all components: dot products, RCP, RSQ, EX2, LG2).
#[inline(always)]
fn write_splat(regs: &mut Lanewise, dst: u8, mask: u8, lanes: Mask, v: &Lanes) {
    let d = &mut regs.file[lane_reg(dst)];
    for (c, d) in d.iter_mut().enumerate() {
        if mask & (8 >> c) == 0 {
            continue;
        }
        if lanes == Mask::MAX {
            *d = *v;
        } else {
            for (i, (slot, x)) in d.iter_mut().zip(v).enumerate() {
                if lanes & (1 << i) != 0 {
                    *slot = *x;
                }
            }
        }
    }
}

/// BREAK (as `Interpreter::break_loop`).
fn break_loop(g: &mut Group) -> Option<u32> {
    let top = g.stacks.loops.pop()?;
    g.stacks.restore_al(&mut g.al);
    Some(top.trigger)
}

#[inline]
fn call(g: &mut Group, pc: u32, dst: u16, num: u8) -> u32 {
    g.stacks.call.push(CallEntry { trigger: dst as u32 + num as u32, ret: pc + 1 });
    dst as u32
}

#[inline]
fn branch(g: &mut Group, taken: bool, dst: u16, num: u8) -> Option<u32> {
    if taken {
        g.stacks.ifs.push(IfEntry { trigger: dst as u32, target: dst as u32 + num as u32 });
        None
    } else {
        Some(dst as u32)
    }
}

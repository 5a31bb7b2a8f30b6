//! The executor: registers, uniforms, the step loop and the semantics of each instruction
//! (3dbrew "GPU/Shader Instruction Set" "Instructions"; float rules in [`super::f24ops`]).

use super::f24ops as f;
use super::flow::{CallEntry, IfEntry, LoopEntry, Stacks};
use super::geometry::{Emitter, Primitive};
use super::program::{Invalid, Op, Program, Src, OUTPUT_BASE};
use crate::isa::{AddrIndex, CmpOp, Condition, Opcode};

/// A four-component register value; each component an f32 holding a float24 value. Values given
/// to the interpreter (inputs, uniforms) should be float24 values (`F24::to_f32`,
/// `f24ops::from_f64_nearest`): arithmetic rounds whatever it gets, but MOV and the comparisons
/// pass other f32 values through as they are.
pub type Vec4 = [f32; 4];

/// The default step budget: instructions per invocation before the run is stopped as runaway.
pub const DEFAULT_STEP_LIMIT: u64 = 1_000_000;

/// Emitted primitives an interpreter holds before [`Interpreter::take_primitives`]: a runaway
/// geometry shader that emits in a loop stops here instead of filling memory (768 bytes each).
pub const MAX_PRIMITIVES: usize = 1 << 16;

/// Which unit runs the program: EMIT and SETEMIT only exist in geometry shaders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ShaderKind {
    #[default]
    Vertex,
    Geometry,
}

/// Why an invocation stopped with an error. `pc` is the instruction index (in words).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    #[error("instruction {pc}: step budget of {limit} instructions used up (runaway program?)")]
    StepLimit { pc: u32, limit: u64 },
    #[error("instruction {pc}: past the end of the program ({len} words) without END")]
    RanOffEnd { pc: u32, len: usize },
    #[error("instruction {pc}: BREAK with no active LOOP (hangs the hardware)")]
    BreakOutsideLoop { pc: u32 },
    #[error("instruction {pc}: unknown opcode {opcode:#04x}")]
    UnknownOpcode { pc: u32, opcode: u8 },
    #[error("instruction {pc}: operand descriptor {desc} is past the descriptor table")]
    MissingDescriptor { pc: u32, desc: u8 },
    #[error("instruction {pc}: {what} in a vertex shader (geometry shaders only)")]
    GeometryOnly { pc: u32, what: &'static str },
    #[error("instruction {pc}: more than {MAX_PRIMITIVES} primitives emitted and not taken")]
    TooManyPrimitives { pc: u32 },
}

/// The values a program reads but never writes: c0-c95, i0-i3 and b0-b15.
#[derive(Clone, Debug, PartialEq)]
pub struct Uniforms {
    pub float: [Vec4; 96],
    /// x (iteration count - 1), y (initial aL), z (aL step), w (unused) of i0-i3.
    pub int: [[u8; 4]; 4],
    pub bools: [bool; 16],
}

impl Default for Uniforms {
    fn default() -> Self {
        Uniforms { float: [[0.0; 4]; 96], int: [[0; 4]; 4], bools: [false; 16] }
    }
}

const ONES: Vec4 = [1.0; 4];
/// 256 entries so that any `u8` register index is in bounds (no bounds checks in the hot loop);
/// only 0x00-0x8F are used.
const FILE: usize = 256;
const OUT: std::ops::Range<usize> = OUTPUT_BASE as usize..OUTPUT_BASE as usize + 16;

/// An interpreter for one program. Uniforms persist between invocations; inputs, temporaries,
/// outputs, address registers, cmp flags and the stacks start afresh (all zero) each time.
pub struct Interpreter<'p> {
    program: &'p Program,
    kind: ShaderKind,
    /// Instructions allowed per invocation.
    pub step_limit: u64,
    /// v0-v15, r0-r15, c0-c95 at their raw source numbers, then o0-o15.
    regs: [Vec4; FILE],
    int: [[u8; 4]; 4],
    bools: [bool; 16],
    a0: [i32; 2],
    al: i32,
    cmp: [bool; 2],
    stacks: Stacks,
    pub(crate) emitter: Emitter,
    /// Instructions executed by the last invocation.
    pub last_steps: u64,
}

impl<'p> Interpreter<'p> {
    pub fn new(program: &'p Program, kind: ShaderKind) -> Self {
        Interpreter {
            program,
            kind,
            step_limit: DEFAULT_STEP_LIMIT,
            regs: [[0.0; 4]; FILE],
            int: [[0; 4]; 4],
            bools: [false; 16],
            a0: [0; 2],
            al: 0,
            cmp: [false; 2],
            stacks: Stacks::default(),
            emitter: Emitter::default(),
            last_steps: 0,
        }
    }

    pub fn kind(&self) -> ShaderKind {
        self.kind
    }

    /// Replaces all uniforms.
    pub fn set_uniforms(&mut self, u: &Uniforms) {
        self.regs[0x20..0x80].copy_from_slice(&u.float);
        self.int = u.int;
        self.bools = u.bools;
    }

    /// The current uniforms.
    pub fn uniforms(&self) -> Uniforms {
        let mut float = [[0.0; 4]; 96];
        float.copy_from_slice(&self.regs[0x20..0x80]);
        Uniforms { float, int: self.int, bools: self.bools }
    }

    /// Sets float uniform `c{index}` (index < 96).
    pub fn set_float(&mut self, index: usize, v: Vec4) {
        self.regs[0x20 + index] = v;
    }

    pub fn set_int(&mut self, index: usize, v: [u8; 4]) {
        self.int[index] = v;
    }

    pub fn set_bool(&mut self, index: usize, v: bool) {
        self.bools[index] = v;
    }

    /// The primitives emitted so far (geometry shaders), oldest first.
    pub fn take_primitives(&mut self) -> Vec<Primitive> {
        std::mem::take(&mut self.emitter.primitives)
    }

    /// Address registers a0.x, a0.y and the loop counter aL after the last invocation.
    pub fn address_registers(&self) -> (i32, i32, i32) {
        (self.a0[0], self.a0[1], self.al)
    }

    /// The cmp flags after the last invocation.
    pub fn cmp_flags(&self) -> [bool; 2] {
        self.cmp
    }

    /// Temporary register `r{index}` after the last invocation.
    pub fn temp(&self, index: usize) -> Vec4 {
        self.regs[0x10 + index]
    }

    /// Runs one invocation from `entry` with `inputs` in v0-v15 and returns o0-o15.
    ///
    /// # Errors
    /// [`RunError`]: the step budget, running past the program, BREAK outside a loop, an
    /// instruction that cannot run, EMIT/SETEMIT in a vertex shader.
    pub fn run(&mut self, entry: u32, inputs: &[Vec4; 16]) -> Result<[Vec4; 16], RunError> {
        self.regs[..16].copy_from_slice(inputs);
        self.regs[0x10..0x20].fill([0.0; 4]);
        self.regs[OUT].fill([0.0; 4]);
        self.a0 = [0; 2];
        self.al = 0;
        self.cmp = [false; 2];
        self.stacks.clear();
        let result = self.execute(entry);
        let mut out = [[0.0; 4]; 16];
        out.copy_from_slice(&self.regs[OUT]);
        result.map(|()| out)
    }

    #[inline(always)]
    fn read(&self, s: &Src) -> Vec4 {
        let v = if s.rel == AddrIndex::None { &self.regs[s.reg as usize] } else { self.relative(s) };
        let r = [
            v[(s.swz[0] & 3) as usize],
            v[(s.swz[1] & 3) as usize],
            v[(s.swz[2] & 3) as usize],
            v[(s.swz[3] & 3) as usize],
        ];
        if s.neg {
            r.map(|x| -x)
        } else {
            r
        }
    }

    /// A constant read through an address register (3dbrew "GPU/Shader Instruction Set" "Relative
    /// addressing"; cases in specs/pica200-facts.md): an offset outside -128..=127 is ignored,
    /// the sum is masked to 7 bits, and an index past c95 reads (1, 1, 1, 1).
    #[cold]
    fn relative(&self, s: &Src) -> &Vec4 {
        let off = match s.rel {
            AddrIndex::None => 0,
            AddrIndex::A0x => self.a0[0],
            AddrIndex::A0y => self.a0[1],
            AddrIndex::AL => self.al,
        };
        match relative_index(s.reg, off) {
            Some(index) => &self.regs[0x20 + index],
            None => &ONES,
        }
    }

    /// The program being run.
    pub(super) fn program(&self) -> &'p Program {
        self.program
    }

    /// Float uniform `c{index}` (index < 96).
    #[inline(always)]
    pub(super) fn constant(&self, index: usize) -> &Vec4 {
        &self.regs[0x20 + index]
    }

    #[inline(always)]
    pub(super) fn bool_uniform(&self, b: u8) -> bool {
        self.bools[b as usize & 15]
    }

    #[inline(always)]
    pub(super) fn int_uniform(&self, i: u8) -> [u8; 4] {
        self.int[i as usize & 3]
    }

    #[inline(always)]
    fn write(&mut self, dst: u8, mask: u8, v: Vec4) {
        let d = &mut self.regs[dst as usize];
        for (i, (slot, x)) in d.iter_mut().zip(v).enumerate() {
            if mask & (8 >> i) != 0 {
                *slot = x;
            }
        }
    }

    #[inline(always)]
    fn cond(&self, c: Condition) -> bool {
        c.eval(self.cmp[0], self.cmp[1])
    }

    /// An instruction that only computes ([`super::blocks::is_plain`]); any other does nothing
    /// here.
    #[inline(always)]
    fn plain(&mut self, op: &Op) {
        match *op {
            Op::Alu { op, dst, mask, s1, s2 } => {
                let v = self.alu(op, &s1, &s2);
                self.write(dst, mask, v);
            }
            Op::Mad { dst, mask, s1, s2, s3 } => {
                let (a, b, c) = (self.read(&s1), self.read(&s2), self.read(&s3));
                let v = [0, 1, 2, 3].map(|i| f::mad(a[i], b[i], c[i]));
                self.write(dst, mask, v);
            }
            Op::Mova { mask, s1 } => {
                let a = self.read(&s1);
                if mask & 8 != 0 {
                    self.a0[0] = f::to_address(a[0]);
                }
                if mask & 4 != 0 {
                    self.a0[1] = f::to_address(a[1]);
                }
            }
            Op::Cmp { s1, s2, x, y } => {
                let (a, b) = (self.read(&s1), self.read(&s2));
                self.cmp = [compare(x, a[0], b[0]), compare(y, a[1], b[1])];
            }
            _ => {}
        }
    }

    fn execute(&mut self, entry: u32) -> Result<(), RunError> {
        let program = self.program;
        let ops = &program.ops[..];
        let mut pc = entry;
        let mut steps: u64 = 0;
        let limit = self.step_limit;
        let result = loop {
            let Some(mut op) = ops.get(pc as usize) else {
                break Err(RunError::RanOffEnd { pc, len: ops.len() });
            };
            // The step budget, once per block: when the whole block fits, its plain instructions
            // run without a check (and without the stack check, which cannot match inside a
            // block); else this block goes one checked instruction at a time, so the budget
            // stops the run at the same instruction as a check before every one.
            let run = program.blocks[pc as usize] as u64;
            if limit - steps >= run {
                let last = pc + run as u32 - 1;
                for op in &ops[pc as usize..last as usize] {
                    self.plain(op);
                }
                steps += run - 1;
                pc = last;
                op = &ops[pc as usize];
            } else if steps >= limit {
                break Err(RunError::StepLimit { pc, limit });
            }
            steps += 1;
            let mut jump = None;
            match *op {
                Op::Alu { .. } | Op::Mad { .. } | Op::Mova { .. } | Op::Cmp { .. } | Op::Nop => self.plain(op),
                Op::End => break Ok(()),
                Op::Break => match self.break_loop() {
                    Some(target) => jump = Some(target),
                    None => break Err(RunError::BreakOutsideLoop { pc }),
                },
                Op::BreakC { cond } => {
                    if self.cond(cond) {
                        match self.break_loop() {
                            Some(target) => jump = Some(target),
                            None => break Err(RunError::BreakOutsideLoop { pc }),
                        }
                    }
                }
                Op::Call { dst, num } => jump = Some(self.call(pc, dst, num)),
                Op::CallC { dst, num, cond } => {
                    if self.cond(cond) {
                        jump = Some(self.call(pc, dst, num));
                    }
                }
                Op::CallU { dst, num, b } => {
                    if self.bools[b as usize & 15] {
                        jump = Some(self.call(pc, dst, num));
                    }
                }
                Op::IfC { dst, num, cond } => jump = self.branch(self.cond(cond), dst, num),
                Op::IfU { dst, num, b } => jump = self.branch(self.bools[b as usize & 15], dst, num),
                Op::JmpC { dst, cond } => {
                    if self.cond(cond) {
                        jump = Some(dst as u32);
                    }
                }
                Op::JmpU { dst, b, invert } => {
                    if self.bools[b as usize & 15] != invert {
                        jump = Some(dst as u32);
                    }
                }
                Op::Loop { dst, i } => {
                    let [x, y, z, _] = self.int[i as usize];
                    self.al = y as i32;
                    self.stacks.loops.push(LoopEntry {
                        trigger: dst as u32 + 1,
                        start: pc + 1,
                        remaining: x as u32,
                        step: z as i32,
                        al: y as i32,
                    });
                }
                Op::Emit => {
                    if self.kind != ShaderKind::Geometry {
                        break Err(RunError::GeometryOnly { pc, what: "EMIT" });
                    }
                    if self.emitter.primitives.len() >= MAX_PRIMITIVES {
                        break Err(RunError::TooManyPrimitives { pc });
                    }
                    let mut out = [[0.0; 4]; 16];
                    out.copy_from_slice(&self.regs[OUT]);
                    self.emitter.emit(out);
                }
                Op::SetEmit { vertex, winding, primitive } => {
                    if self.kind != ShaderKind::Geometry {
                        break Err(RunError::GeometryOnly { pc, what: "SETEMIT" });
                    }
                    self.emitter.set(vertex, winding, primitive);
                }
                Op::Invalid(Invalid::UnknownOpcode(opcode)) => break Err(RunError::UnknownOpcode { pc, opcode }),
                Op::Invalid(Invalid::MissingDescriptor(desc)) => break Err(RunError::MissingDescriptor { pc, desc }),
            }
            let next = pc + 1;
            pc = if self.stacks.is_empty() {
                jump.unwrap_or(next)
            } else {
                self.stacks.next_pc(next, jump, &mut self.al)
            };
        };
        self.last_steps = steps;
        result
    }

    /// BREAK: pops the innermost loop and gives the PC after its body (a JMP-priority update);
    /// `None` on an empty LOOP stack.
    fn break_loop(&mut self) -> Option<u32> {
        let top = self.stacks.loops.pop()?;
        self.stacks.restore_al(&mut self.al);
        Some(top.trigger)
    }

    /// CALL: pushes the return and gives the jump target (a JMP-priority PC update).
    #[inline]
    fn call(&mut self, pc: u32, dst: u16, num: u8) -> u32 {
        self.stacks.call.push(CallEntry { trigger: dst as u32 + num as u32, ret: pc + 1 });
        dst as u32
    }

    /// IFC/IFU: a true condition pushes (run to DST, then go to DST+NUM); a false one jumps to DST
    /// (the else block, which then runs into DST+NUM by itself).
    #[inline]
    fn branch(&mut self, taken: bool, dst: u16, num: u8) -> Option<u32> {
        if taken {
            self.stacks.ifs.push(IfEntry { trigger: dst as u32, target: dst as u32 + num as u32 });
            None
        } else {
            Some(dst as u32)
        }
    }

    #[inline(always)]
    fn alu(&mut self, op: Opcode, s1: &Src, s2: &Src) -> Vec4 {
        let a = self.read(s1);
        match op {
            Opcode::Mov => a,
            Opcode::Add => {
                let b = self.read(s2);
                [0, 1, 2, 3].map(|i| f::add(a[i], b[i]))
            }
            Opcode::Mul => {
                let b = self.read(s2);
                [0, 1, 2, 3].map(|i| f::mul(a[i], b[i]))
            }
            Opcode::Dp3 => [f::dp3(a, self.read(s2)); 4],
            Opcode::Dp4 => [f::dp4(a, self.read(s2)); 4],
            Opcode::Dph => [f::dph(a, self.read(s2)); 4],
            Opcode::Dst => {
                let b = self.read(s2);
                [1.0, f::mul(a[1], b[1]), a[2], b[3]]
            }
            Opcode::Ex2 => [f::ex2(a[0]); 4],
            Opcode::Lg2 => [f::lg2(a[0]); 4],
            Opcode::Rcp => [f::rcp(a[0]); 4],
            Opcode::Rsq => [f::rsq(a[0]); 4],
            Opcode::Flr => a.map(f::flr),
            Opcode::Max => {
                let b = self.read(s2);
                [0, 1, 2, 3].map(|i| f::max(a[i], b[i]))
            }
            Opcode::Min => {
                let b = self.read(s2);
                [0, 1, 2, 3].map(|i| f::min(a[i], b[i]))
            }
            Opcode::Sge => {
                let b = self.read(s2);
                [0, 1, 2, 3].map(|i| f::sge(a[i], b[i]))
            }
            Opcode::Slt => {
                let b = self.read(s2);
                [0, 1, 2, 3].map(|i| f::slt(a[i], b[i]))
            }
            Opcode::Litp => {
                // cmp.x / cmp.y from src.x >= 0 and src.w >= 0 (ISA page, LITP).
                self.cmp = [a[0] >= 0.0, a[3] >= 0.0];
                [f::max(a[0], 0.0), f::max(f::min(a[1], f::LITP_CLAMP), -f::LITP_CLAMP), 0.0, f::max(a[3], 0.0)]
            }
            other => unreachable!("Op::Alu holds a plain arithmetic opcode, not {other:?}"),
        }
    }
}

/// The constant (index from c0) that source register `reg` (0x20-0x7F) names with offset `off`
/// added, or `None` for an index past c95, which reads (1, 1, 1, 1). An offset outside
/// -128..=127 is ignored; the sum is masked to 7 bits (specs/pica200-facts.md, relative
/// addressing).
#[inline(always)]
pub(super) fn relative_index(reg: u8, off: i32) -> Option<usize> {
    let off = if (-128..=127).contains(&off) { off } else { 0 };
    let index = ((reg as i32 - 0x20 + off) & 0x7F) as usize;
    (index <= 95).then_some(index)
}

/// One CMP operator on two values as they are (no flushing; IEEE comparisons, NaN unordered).
/// Raw operators 6 and 7 are always true (ISA page, "Comparison operator").
#[inline(always)]
fn compare(op: CmpOp, a: f32, b: f32) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
        CmpOp::True(_) => true,
    }
}

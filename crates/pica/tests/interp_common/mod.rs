//! Helpers shared by the interp_* tests: short names for registers and a one-call runner.
#![allow(dead_code)]

use pica::float24::F24;
use pica::interp::{f24ops, Interpreter, Program, RunError, ShaderKind, Uniforms, Vec4};
pub use pica::isa::Opcode;
use pica::isa::{AddrIndex, CmpOp, CondOp, Condition, DstReg, OperandDescriptor, SrcReg, Swizzle};
pub use pica::smith::{plain_desc, Builder};

pub const NONE: AddrIndex = AddrIndex::None;

pub fn v(i: u8) -> SrcReg {
    SrcReg::Input(i)
}
pub fn r(i: u8) -> SrcReg {
    SrcReg::Temp(i)
}
pub fn c(i: u8) -> SrcReg {
    SrcReg::Const(i)
}
pub fn o(i: u8) -> DstReg {
    DstReg::Output(i)
}
pub fn rd(i: u8) -> DstReg {
    DstReg::Temp(i)
}

/// xyzw, no negation.
pub fn all() -> OperandDescriptor {
    plain_desc(0xF)
}

/// Descriptor with src2 negated.
pub fn neg2() -> OperandDescriptor {
    OperandDescriptor::new(0xF, &[(false, Swizzle::IDENTITY), (true, Swizzle::IDENTITY)])
}

pub fn cond(op: CondOp, refx: bool, refy: bool) -> Condition {
    Condition { op, refx, refy }
}

/// cmp.x == true.
pub fn if_x() -> Condition {
    cond(CondOp::X, true, false)
}

pub const EQ: CmpOp = CmpOp::Eq;

/// A float24 bit pattern as the interpreter's f32.
pub fn f24(bits: u32) -> f32 {
    F24::from_bits(bits).to_f32()
}

pub fn bits(x: f32) -> u32 {
    f24ops::to_bits24(x)
}

/// Runs the built program as a vertex shader from instruction 0.
pub fn run_with(b: &Builder, uniforms: &Uniforms, inputs: &[Vec4; 16]) -> Result<[Vec4; 16], RunError> {
    let built = b.finish().expect("program encodes");
    let program = Program::new(&built.code, &built.descriptor_words).unwrap();
    let mut it = Interpreter::new(&program, ShaderKind::Vertex);
    it.set_uniforms(uniforms);
    it.run(0, inputs)
}

/// Runs with the given float constants (c0, c1, ...) and zero inputs.
pub fn run_consts(b: &Builder, consts: &[Vec4]) -> Result<[Vec4; 16], RunError> {
    let mut u = Uniforms::default();
    u.float[..consts.len()].copy_from_slice(consts);
    run_with(b, &u, &[[0.0; 4]; 16])
}

pub fn splat(x: f32) -> Vec4 {
    [x; 4]
}

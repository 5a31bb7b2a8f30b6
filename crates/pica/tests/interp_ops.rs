//! Each instruction of the ISA page's table through the interpreter, bits checked: the vector
//! operations, the scalar-broadcast ones, LITP's clamps and flags, DST, the I forms, CMP's
//! operators, MAD/MADI.

mod interp_common;
use interp_common::*;
use pica::interp::{Interpreter, Program, ShaderKind, Uniforms};
use pica::isa::{CmpOp, OperandDescriptor, Swizzle};

/// Runs `op o0, c0, r0(=c1)` (or the I form `op o0, r0(=c0), c1`) and returns o0.
fn op2(op: Opcode, a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    let mut p = Builder::new();
    let inverted = op.is_inverted();
    if inverted {
        p.unary(Opcode::Mov, rd(0), c(0), NONE, all());
        p.alu(op, o(0), r(0), c(1), NONE, all());
    } else {
        p.unary(Opcode::Mov, rd(0), c(1), NONE, all());
        p.alu(op, o(0), c(0), r(0), NONE, all());
    }
    p.plain(Opcode::End);
    run_consts(&p, &[a, b]).unwrap()[0]
}

fn op1(op: Opcode, a: [f32; 4]) -> [f32; 4] {
    let mut p = Builder::new();
    p.unary(op, o(0), c(0), NONE, all());
    p.plain(Opcode::End);
    run_consts(&p, &[a]).unwrap()[0]
}

#[test]
fn componentwise_operations() {
    let a = [1.5, -2.0, 0.25, 8.0];
    let b = [0.5, 3.0, 0.25, -1.0];
    assert_eq!(op2(Opcode::Add, a, b), [2.0, 1.0, 0.5, 7.0]);
    assert_eq!(op2(Opcode::Mul, a, b), [0.75, -6.0, 0.0625, -8.0]);
    assert_eq!(op2(Opcode::Max, a, b), [1.5, 3.0, 0.25, 8.0]);
    assert_eq!(op2(Opcode::Min, a, b), [0.5, -2.0, 0.25, -1.0]);
    assert_eq!(op2(Opcode::Sge, a, b), [1.0, 0.0, 1.0, 1.0]);
    assert_eq!(op2(Opcode::Slt, a, b), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(op1(Opcode::Flr, [1.5, -1.5, -0.0, 3.0]), [1.0, -2.0, 0.0, 3.0]);
    assert_eq!(op1(Opcode::Mov, a), a);
}

#[test]
fn inverted_forms_compute_the_same() {
    let a = [1.5, -2.0, 0.25, 8.0];
    let b = [0.5, 3.0, 0.25, -1.0];
    assert_eq!(op2(Opcode::Sgei, a, b), op2(Opcode::Sge, a, b));
    assert_eq!(op2(Opcode::Slti, a, b), op2(Opcode::Slt, a, b));
    assert_eq!(op2(Opcode::Dphi, a, b), op2(Opcode::Dph, a, b));
    assert_eq!(op2(Opcode::Dsti, a, b), op2(Opcode::Dst, a, b));
}

#[test]
fn dot_products_broadcast() {
    let a = [1.0, 2.0, 3.0, 4.0];
    let b = [5.0, 6.0, 7.0, 8.0];
    assert_eq!(op2(Opcode::Dp3, a, b), [38.0; 4]);
    assert_eq!(op2(Opcode::Dp4, a, b), [70.0; 4]);
    assert_eq!(op2(Opcode::Dph, a, b), [46.0; 4], "a.w replaced by 1");
}

#[test]
fn dst_is_1_yy_z_w() {
    assert_eq!(op2(Opcode::Dst, [9.0, 2.0, 3.0, 9.0], [9.0, 5.0, 9.0, 7.0]), [1.0, 10.0, 3.0, 7.0]);
}

#[test]
fn scalar_operations_read_the_first_selected_component() {
    let a = [4.0, 100.0, 100.0, 100.0];
    assert_eq!(op1(Opcode::Rcp, a), [0.25; 4]);
    assert_eq!(op1(Opcode::Rsq, a), [0.5; 4]);
    assert_eq!(op1(Opcode::Ex2, [3.0, 0.0, 0.0, 0.0]), [8.0; 4]);
    assert_eq!(op1(Opcode::Lg2, [0.125, 0.0, 0.0, 0.0]), [-3.0; 4]);
    // With a swizzle, the first *selected* component: rcp c0.y.
    let mut p = Builder::new();
    p.unary(
        Opcode::Rcp,
        o(0),
        c(0),
        NONE,
        OperandDescriptor::new(0xF, &[(false, Swizzle::from_components([1, 0, 0, 0]))]),
    );
    p.plain(Opcode::End);
    assert_eq!(run_consts(&p, &[[4.0, 8.0, 0.0, 0.0]]).unwrap()[0], [0.125; 4]);
}

fn litp(a: [f32; 4]) -> ([f32; 4], [bool; 2]) {
    let mut p = Builder::new();
    p.unary(Opcode::Litp, o(0), c(0), NONE, all());
    p.plain(Opcode::End);
    let b = p.finish().unwrap();
    let program = Program::new(&b.code, &b.descriptor_words).unwrap();
    let mut it = Interpreter::new(&program, ShaderKind::Vertex);
    let mut u = Uniforms::default();
    u.float[0] = a;
    it.set_uniforms(&u);
    let out = it.run(0, &[[0.0; 4]; 16]).unwrap();
    (out[0], it.cmp_flags())
}

#[test]
fn litp_clamps_and_sets_the_flags() {
    assert_eq!(litp([0.5, 200.0, 7.0, 3.0]), ([0.5, 127.996_09, 0.0, 3.0], [true, true]));
    assert_eq!(litp([-0.5, -200.0, 7.0, -3.0]), ([0.0, -127.996_09, 0.0, 0.0], [false, false]));
    assert_eq!(litp([1.0, 2.0, 7.0, -1.0]), ([1.0, 2.0, 0.0, 0.0], [true, false]));
    assert_eq!(bits(litp([0.0, 1e30, 0.0, 0.0]).0[1]), 0x45FFFC, "the clamp is 128 - 2^-8");
}

fn cmp_flags(x: CmpOp, y: CmpOp, a: [f32; 4], b: [f32; 4]) -> [bool; 2] {
    let mut p = Builder::new();
    p.unary(Opcode::Mov, rd(0), c(1), NONE, all());
    p.cmp(c(0), r(0), NONE, x, y, all());
    p.plain(Opcode::End);
    let b2 = p.finish().unwrap();
    let program = Program::new(&b2.code, &b2.descriptor_words).unwrap();
    let mut it = Interpreter::new(&program, ShaderKind::Vertex);
    let mut u = Uniforms::default();
    u.float[0] = a;
    u.float[1] = b;
    it.set_uniforms(&u);
    it.run(0, &[[0.0; 4]; 16]).unwrap();
    it.cmp_flags()
}

#[test]
fn cmp_operators() {
    let a = [1.0, 2.0, 0.0, 0.0];
    let b = [1.0, 3.0, 0.0, 0.0];
    let cases = [
        (CmpOp::Eq, [true, false]),
        (CmpOp::Ne, [false, true]),
        (CmpOp::Lt, [false, true]),
        (CmpOp::Le, [true, true]),
        (CmpOp::Gt, [false, false]),
        (CmpOp::Ge, [true, false]),
        (CmpOp::True(6), [true, true]),
        (CmpOp::True(7), [true, true]),
    ];
    for (op, want) in cases {
        assert_eq!(cmp_flags(op, op, a, b), want, "{op:?}");
    }
    // x and y use their own operators.
    assert_eq!(cmp_flags(CmpOp::Eq, CmpOp::Gt, a, b), [true, false]);
    // NaN is unordered: only NE holds.
    let nan = [f32::NAN; 4];
    assert_eq!(cmp_flags(CmpOp::Eq, CmpOp::Ne, nan, b), [false, true]);
}

#[test]
fn mad_and_madi() {
    let mut p = Builder::new();
    p.unary(Opcode::Mov, rd(0), c(0), NONE, all());
    p.unary(Opcode::Mov, rd(1), c(2), NONE, all());
    p.mad(Opcode::Mad, o(0), r(0), c(1), r(1), NONE, all());
    p.mad(Opcode::Madi, o(1), r(0), r(1), c(1), NONE, all());
    p.plain(Opcode::End);
    let out = run_consts(&p, &[[2.0; 4], [3.0, 4.0, 5.0, 6.0], [1.0; 4]]).unwrap();
    assert_eq!(out[0], [7.0, 9.0, 11.0, 13.0], "2 * c1 + 1");
    assert_eq!(out[1], [5.0, 6.0, 7.0, 8.0], "2 * 1 + c1");
}

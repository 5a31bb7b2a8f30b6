//! One test per row of 3dbrew "GPU/Shader Instruction Set" "Floating-Point Behavior", run through real
//! instructions and checked bit for bit (float24 patterns of o0.x).

mod interp_common;
use interp_common::*;

const INF: u32 = 0x7F0000;
const NEG_INF: u32 = 0xFF0000;
const NAN: u32 = 0x7F8000;
const ONE: u32 = 0x3F0000;
/// s: the largest subnormal; n: the smallest positive normal.
const S: u32 = 0x00FFFF;
const N: u32 = 0x010000;

/// `op o0, c0, c1` with c0.x = a, c1.x = b (all components the same); returns o0.x's bits.
fn binary(op: Opcode, a: u32, b: u32) -> u32 {
    // src2 is 5 bits wide: load c1 into r0 first.
    let mut q = Builder::new();
    q.unary(Opcode::Mov, rd(0), c(1), NONE, all());
    q.alu(op, o(0), c(0), r(0), NONE, all());
    q.plain(Opcode::End);
    bits(run_consts(&q, &[splat(f24(a)), splat(f24(b))]).unwrap()[0][0])
}

fn unary(op: Opcode, a: u32) -> u32 {
    let mut p = Builder::new();
    p.unary(op, o(0), c(0), NONE, all());
    p.plain(Opcode::End);
    bits(run_consts(&p, &[splat(f24(a))]).unwrap()[0][0])
}

/// `mad o0, r0(=c0), r1(=c1), r2(=c2)`: c0 * c1 + c2.
fn mad(a: u32, b: u32, add: u32) -> u32 {
    let mut p = Builder::new();
    for i in 0..3 {
        p.unary(Opcode::Mov, rd(i), c(i), NONE, all());
    }
    p.mad(Opcode::Mad, o(0), r(0), r(1), r(2), NONE, all());
    p.plain(Opcode::End);
    bits(run_consts(&p, &[splat(f24(a)), splat(f24(b)), splat(f24(add))]).unwrap()[0][0])
}

#[test]
fn inf_times_zero_is_zero_in_mul_mad_and_dot_products() {
    assert_eq!(binary(Opcode::Mul, INF, 0), 0);
    assert_eq!(binary(Opcode::Mul, 0, NEG_INF), 0);
    assert_eq!(mad(INF, 0, ONE), ONE);
    for op in [Opcode::Dp3, Opcode::Dp4, Opcode::Dph] {
        assert_eq!(binary(op, INF, 0), 0, "{op:?}");
    }
}

#[test]
fn nan_times_zero_is_nan() {
    assert_eq!(binary(Opcode::Mul, NAN, 0), NAN);
    assert_eq!(mad(NAN, 0, ONE), NAN);
}

#[test]
fn inf_minus_inf_is_nan() {
    // add with src2 negated: +inf + -(+inf).
    let mut p = Builder::new();
    p.unary(Opcode::Mov, rd(0), c(1), NONE, all());
    p.alu(Opcode::Add, o(0), c(0), r(0), NONE, neg2());
    p.plain(Opcode::End);
    let out = run_consts(&p, &[splat(f24(INF)), splat(f24(INF))]).unwrap();
    assert_eq!(bits(out[0][0]), NAN);
}

#[test]
fn rsq_of_rcp_of_minus_inf_is_plus_inf() {
    let mut p = Builder::new();
    p.unary(Opcode::Rcp, rd(0), c(0), NONE, all());
    p.unary(Opcode::Rsq, o(0), r(0), NONE, all());
    p.plain(Opcode::End);
    let out = run_consts(&p, &[splat(f24(NEG_INF))]).unwrap();
    assert_eq!(bits(out[0][0]), INF);
}

#[test]
fn rcp_rows() {
    assert_eq!(unary(Opcode::Rcp, 0x800000), INF, "rcp(-0)");
    assert_eq!(unary(Opcode::Rcp, 0), INF, "rcp(0)");
    assert_eq!(unary(Opcode::Rcp, INF), 0, "rcp(+inf)");
    assert_eq!(unary(Opcode::Rcp, NAN), NAN, "rcp(NaN)");
}

#[test]
fn rsq_rows() {
    assert_eq!(unary(Opcode::Rsq, 0x800000), INF, "rsq(-0)");
    assert_eq!(unary(Opcode::Rsq, 0xC00000), NAN, "rsq(-2)");
    assert_eq!(unary(Opcode::Rsq, INF), 0, "rsq(+inf)");
    assert_eq!(unary(Opcode::Rsq, NEG_INF), NAN, "rsq(-inf)");
    assert_eq!(unary(Opcode::Rsq, NAN), NAN, "rsq(NaN)");
}

/// The MAX and MIN rows with the results measured on hardware: the ISA page's table, except
/// `max(0, -inf)`, which a hardware floating-point test expects to be 0 (docs/pica-float.md).
#[test]
fn max_of_zero_and_neg_inf_is_zero_as_on_hardware() {
    assert_eq!(binary(Opcode::Max, 0, NEG_INF), 0, "max(0, -inf)");
    assert_eq!(binary(Opcode::Max, NEG_INF, 0), 0, "max(-inf, 0)");
    assert_eq!(binary(Opcode::Max, ONE, NEG_INF), ONE, "max(1, -inf)");
    assert_eq!(binary(Opcode::Max, NEG_INF, NEG_INF), NEG_INF, "max(-inf, -inf)");
}

#[test]
fn max_rows() {
    assert_eq!(binary(Opcode::Max, 0, INF), INF);
    assert_eq!(binary(Opcode::Max, 0, NAN), NAN);
    assert_eq!(binary(Opcode::Max, NAN, 0), 0);
    assert_eq!(binary(Opcode::Max, NEG_INF, INF), INF);
}

#[test]
fn min_rows() {
    assert_eq!(binary(Opcode::Min, 0, INF), 0);
    assert_eq!(binary(Opcode::Min, 0, NEG_INF), NEG_INF);
    assert_eq!(binary(Opcode::Min, 0, NAN), NAN);
    assert_eq!(binary(Opcode::Min, NAN, 0), 0);
    assert_eq!(binary(Opcode::Min, NEG_INF, INF), NEG_INF);
}

#[test]
fn cmp_does_not_flush_subnormals() {
    // cmp c0(=s), eq, eq, r0(=0); ifc cmp.x: o0 = 1 when s == 0.
    let mut p = Builder::new();
    p.unary(Opcode::Mov, rd(0), c(1), NONE, all());
    p.cmp(c(0), r(0), NONE, EQ, EQ, all());
    p.flow(Opcode::Ifc, 4, 0, if_x());
    p.unary(Opcode::Mov, o(0), c(2), NONE, all());
    p.plain(Opcode::End);
    let consts = [splat(f24(S)), splat(0.0), splat(1.0)];
    assert_eq!(bits(run_consts(&p, &consts).unwrap()[0][0]), 0, "cmp(s, 0) is false");
    let consts = [splat(0.0), splat(0.0), splat(1.0)];
    assert_eq!(bits(run_consts(&p, &consts).unwrap()[0][0]), ONE, "control: cmp(0, 0) is true");
}

#[test]
fn max_keeps_subnormals() {
    assert_eq!(binary(Opcode::Max, S, 0), S);
}

#[test]
fn arithmetic_flushes_subnormal_inputs() {
    assert_eq!(binary(Opcode::Mul, S, 0x400000), 0, "mul(s, 2)");
}

#[test]
fn arithmetic_flushes_subnormal_outputs() {
    assert_eq!(binary(Opcode::Mul, N, 0x3E0000), 0, "mul(n, 0.5)");
    assert_eq!(binary(Opcode::Mul, N | 0x800000, 0x3E0000), 0, "no -0 either");
}

/// "1.0 can be multiplied 63 times by 0.5 until the result compares equal zero": a LOOP of
/// INT.x + 1 multiplications, then `cmp r0 == 0`.
fn halvings(times: u8) -> (u32, bool) {
    let mut p = Builder::new();
    p.unary(Opcode::Mov, rd(0), c(0), NONE, all()); // r0 = 1
    p.unary(Opcode::Mov, rd(1), c(1), NONE, all()); // r1 = 0.5
    p.uniform(Opcode::Loop, 3, 0, 0);
    p.alu(Opcode::Mul, rd(0), r(0), r(1), NONE, all());
    p.unary(Opcode::Mov, rd(2), c(2), NONE, all()); // r2 = 0
    p.cmp(r(0), r(2), NONE, EQ, EQ, all());
    p.unary(Opcode::Mov, o(0), r(0), NONE, all());
    p.plain(Opcode::End);
    let mut u = pica::interp::Uniforms::default();
    u.float[0] = splat(1.0);
    u.float[1] = splat(0.5);
    u.int[0] = [times - 1, 0, 0, 0];
    let built = p.finish().unwrap();
    let program = pica::interp::Program::new(&built.code, &built.descriptor_words).unwrap();
    let mut it = pica::interp::Interpreter::new(&program, pica::interp::ShaderKind::Vertex);
    it.set_uniforms(&u);
    let out = it.run(0, &[[0.0; 4]; 16]).unwrap();
    (bits(out[0][0]), it.cmp_flags()[0])
}

#[test]
fn one_halved_63_times_compares_equal_zero() {
    assert_eq!(halvings(62), (0x010000, false), "2^-62 is the smallest normal");
    assert_eq!(halvings(63), (0, true));
}

#[test]
fn mad_is_not_fused() {
    // (1 + 2^-16) * (1 + 2^-16) = 1 + 2^-15 + 2^-32: the product rounds to 1 + 2^-15 first, so
    // subtracting 1 + 2^-15 gives exactly 0 (a fused MAD would give 2^-32).
    let a = 0x3F0001;
    let minus = 0xBF0002;
    assert_eq!(mad(a, a, minus), 0);
}

#[test]
fn results_round_to_nearest_even() {
    // 1 + 2^-17 is half-way between 1 and 1 + 2^-16: to the even 1.0.
    assert_eq!(binary(Opcode::Add, ONE, 0x2E0000), ONE);
    // 1 + 2^-16 + 2^-17: half-way between 1 + 2^-16 (odd) and 1 + 2^-15 (even): up.
    assert_eq!(binary(Opcode::Add, 0x3F0001, 0x2E0000), 0x3F0002);
}

#[test]
fn rounding_sees_below_f32_precision() {
    // 1 + 2^-17 + 2^-33: its f32 sum is the tie 1 + 2^-17, the exact sum is above it: up.
    assert_eq!(binary(Opcode::Add, ONE, 0x2E0001), 0x3F0001);
    // 1 + 2^-16 + 2^-17 - 2^-34: f32 gives the tie, the exact sum is below it: down (plain
    // ties-to-even on the f32 sum would go up to 0x3F0002).
    assert_eq!(binary(Opcode::Add, 0x3F0001, 0x2DFFFF), 0x3F0001);
}

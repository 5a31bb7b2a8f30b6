//! `exact` precision: the float24 algorithms of `pica::interp::f24ops` as shader functions, step
//! for step, so the device computes the interpreter's bits (docs/pica-translate.md "Precision").
//!
//! Every step is an operation the Vulkan environment defines exactly: f32 add, sub and mul
//! (correctly rounded; the SPIR-V post-pass adds NoContraction so nothing is fused or
//! reassociated), integer and bit operations, comparisons and selects. Division and square root,
//! which Vulkan allows to be inexact, only make first guesses that exact integer tests correct,
//! exactly as f24ops does. No intermediate of a result that matters is an f32 subnormal, so
//! devices that flush f32 subnormals agree (f24ops documents the ranges).
//!
//! The functions work on `vec4<f32>` (ADD, MUL, FLR, the products of the dot products) or f32
//! (RCP, RSQ, EX2, LG2, which read one component).

use naga::{
    BinaryOperator as B, Expression, Function, FunctionResult, Handle, MathFunction as M, Module, ScalarKind, Span,
    Statement, Type,
};

use pica::interp::f24ops::{EX2_POLY, LG2_POLY};

use super::abi::Abi;
use crate::builder::FnBuilder;

type H = Handle<Expression>;

// The constants of the algorithms are pica::interp::f24ops' own, so interpreter and shader
// cannot drift apart.
/// f32 bits of 2^-62, the smallest normal float24.
const MIN_NORMAL_BITS: u32 = pica::interp::f24ops::MIN_NORMAL.to_bits();
/// f32 bits of 2^64, where float24 overflows.
const OVERFLOW_BITS: u32 = pica::interp::f24ops::OVERFLOW.to_bits();
/// The NaN every arithmetic instruction returns.
const NAN_BITS: u32 = pica::interp::f24ops::NAN.to_bits();

/// The helper functions of one module.
#[derive(Clone, Copy)]
pub(crate) struct ExactFns {
    pub add: Handle<Function>,
    pub mul: Handle<Function>,
    pub flr: Handle<Function>,
    pub rcp: Handle<Function>,
    pub rsq: Handle<Function>,
    pub ex2: Handle<Function>,
    pub lg2: Handle<Function>,
}

/// Scalar or vec4 constants of the right shape.
struct Shape {
    vec: bool,
}

impl Shape {
    fn u(&self, fb: &mut FnBuilder, v: u32) -> H {
        if self.vec {
            fb.u32x4(v)
        } else {
            fb.u32(v)
        }
    }
    fn f(&self, fb: &mut FnBuilder, v: f32) -> H {
        if self.vec {
            fb.f32x4(v)
        } else {
            fb.f32(v)
        }
    }
    fn fbits(&self, fb: &mut FnBuilder, bits: u32) -> H {
        let u = self.u(fb, bits);
        fb.bitcast(u, ScalarKind::Float)
    }
}

fn abs(fb: &mut FnBuilder, s: &Shape, x: H) -> H {
    let b = fb.bitcast(x, ScalarKind::Uint);
    let m = s.u(fb, 0x7FFF_FFFF);
    let a = fb.bin(B::And, b, m);
    fb.bitcast(a, ScalarKind::Float)
}

fn is_nan(fb: &mut FnBuilder, s: &Shape, x: H) -> H {
    let b = fb.bitcast(x, ScalarKind::Uint);
    let m = s.u(fb, 0x7FFF_FFFF);
    let a = fb.bin(B::And, b, m);
    let inf = s.u(fb, 0x7F80_0000);
    fb.bin(B::Greater, a, inf)
}

/// f24ops::flush: subnormals and -0 become +0 (NaN fails the comparison and is kept).
fn flush(fb: &mut FnBuilder, s: &Shape, x: H) -> H {
    let a = abs(fb, s, x);
    let min = s.fbits(fb, MIN_NORMAL_BITS);
    let small = fb.bin(B::Less, a, min);
    let zero = s.f(fb, 0.0);
    fb.select(small, zero, x)
}

/// f24ops::round(hi, lo) followed by finish; `lo` is the exact remainder (only read on a tie).
fn round(fb: &mut FnBuilder, s: &Shape, hi: H, lo: H) -> H {
    let bits = fb.bitcast(hi, ScalarKind::Uint);
    let m7 = s.u(fb, 0x7F);
    let dropped = fb.bin(B::And, bits, m7);
    let mk = s.u(fb, !0x7F);
    let kept = fb.bin(B::And, bits, mk);
    let half = s.u(fb, 0x40);
    let gt = fb.bin(B::Greater, dropped, half);
    let tie = fb.bin(B::Equal, dropped, half);
    let zero = s.f(fb, 0.0);
    let lo_zero = fb.bin(B::Equal, lo, zero);
    let b80 = s.u(fb, 0x80);
    let odd = fb.bin(B::And, kept, b80);
    let zu = s.u(fb, 0);
    let even_up = fb.bin(B::NotEqual, odd, zu);
    let lo_neg = fb.bin(B::Less, lo, zero);
    let hi_neg = fb.bin(B::Less, hi, zero);
    let hi_pos = fb.not(hi_neg);
    let same_side = fb.select(lo_neg, hi_neg, hi_pos);
    let tie_up = fb.select(lo_zero, even_up, same_side);
    let up = fb.select(tie, tie_up, gt);
    let bumped = fb.bin(B::Add, kept, b80);
    let rb = fb.select(up, bumped, kept);
    let r = fb.bitcast(rb, ScalarKind::Float);
    let fin = finish(fb, s, r);
    let nan = is_nan(fb, s, hi);
    let qnan = s.fbits(fb, NAN_BITS);
    fb.select(nan, qnan, fin)
}

/// f24ops::finish: below 2^-62 -> +0, 2^64 and above -> infinity of the sign.
fn finish(fb: &mut FnBuilder, s: &Shape, r: H) -> H {
    let a = abs(fb, s, r);
    let min = s.fbits(fb, MIN_NORMAL_BITS);
    let small = fb.bin(B::Less, a, min);
    let over = s.fbits(fb, OVERFLOW_BITS);
    let big = fb.bin(B::GreaterEqual, a, over);
    let bits = fb.bitcast(r, ScalarKind::Uint);
    let sm = s.u(fb, 0x8000_0000);
    let sign = fb.bin(B::And, bits, sm);
    let infb = s.u(fb, 0x7F80_0000);
    let inf = fb.bin(B::InclusiveOr, sign, infb);
    let inf = fb.bitcast(inf, ScalarKind::Float);
    let r2 = fb.select(big, inf, r);
    let zero = s.f(fb, 0.0);
    fb.select(small, zero, r2)
}

fn function(module: &mut Module, f: Function, result: Handle<Type>) -> Handle<Function> {
    let mut f = f;
    f.result = Some(FunctionResult { ty: result, binding: None });
    module.functions.append(f, Span::UNDEFINED)
}

fn ret(fb: &mut FnBuilder, v: H) {
    fb.stmt(Statement::Return { value: Some(v) });
}

/// `f24_add(a, b)`: f24ops::add on four components.
fn build_add(module: &mut Module, abi: &Abi) -> Handle<Function> {
    let s = Shape { vec: true };
    let mut fb = FnBuilder::new(module, "f24_add");
    let a = fb.arg("a", abi.vec4f);
    let b = fb.arg("b", abi.vec4f);
    let a = flush(&mut fb, &s, a);
    let b = flush(&mut fb, &s, b);
    let sum = fb.bin(B::Add, a, b);
    // TwoSum: the exact error of the f32 sum.
    let bb = fb.bin(B::Subtract, sum, a);
    let aa = fb.bin(B::Subtract, sum, bb);
    let ea = fb.bin(B::Subtract, a, aa);
    let eb = fb.bin(B::Subtract, b, bb);
    let lo = fb.bin(B::Add, ea, eb);
    let r = round(&mut fb, &s, sum, lo);
    // NaN operands give NaN explicitly: a driver that sees a constant operand may fold the f32
    // operation (lavapipe turned NaN * 0.0 into 0.0 for a register the program never writes).
    let na = is_nan(&mut fb, &s, a);
    let nb = is_nan(&mut fb, &s, b);
    let nab = fb.bin(B::InclusiveOr, na, nb);
    let q = s.fbits(&mut fb, NAN_BITS);
    let r = fb.select(nab, q, r);
    ret(&mut fb, r);
    let f = fb.finish();
    function(module, f, abi.vec4f)
}

/// `f24_mul(a, b)`: f24ops::mul on four components (inf * 0 = 0).
fn build_mul(module: &mut Module, abi: &Abi) -> Handle<Function> {
    let s = Shape { vec: true };
    let mut fb = FnBuilder::new(module, "f24_mul");
    let a = fb.arg("a", abi.vec4f);
    let b = fb.arg("b", abi.vec4f);
    let a = flush(&mut fb, &s, a);
    let b = flush(&mut fb, &s, b);
    let p = fb.bin(B::Multiply, a, b);
    // Dekker: 12-bit halves, every partial product exact.
    let split = |fb: &mut FnBuilder, x: H| {
        let bits = fb.bitcast(x, ScalarKind::Uint);
        let m = s.u(fb, 0xFFFF_F000);
        let hb = fb.bin(B::And, bits, m);
        let hi = fb.bitcast(hb, ScalarKind::Float);
        let lo = fb.bin(B::Subtract, x, hi);
        (hi, lo)
    };
    let (ah, al) = split(&mut fb, a);
    let (bh, bl) = split(&mut fb, b);
    let hh = fb.bin(B::Multiply, ah, bh);
    let t = fb.bin(B::Subtract, hh, p);
    let hl = fb.bin(B::Multiply, ah, bl);
    let t = fb.bin(B::Add, t, hl);
    let lh = fb.bin(B::Multiply, al, bh);
    let t = fb.bin(B::Add, t, lh);
    let ll = fb.bin(B::Multiply, al, bl);
    let lo = fb.bin(B::Add, t, ll);
    let r = round(&mut fb, &s, p, lo);
    let np = is_nan(&mut fb, &s, p);
    let na = is_nan(&mut fb, &s, a);
    let nb = is_nan(&mut fb, &s, b);
    let nab = fb.bin(B::InclusiveOr, na, nb);
    let ok = fb.not(nab);
    let bad = fb.bin(B::And, np, ok);
    let zero = s.f(&mut fb, 0.0);
    let r = fb.select(bad, zero, r);
    // NaN operands give NaN explicitly (see f24_add).
    let q = s.fbits(&mut fb, NAN_BITS);
    let r = fb.select(nab, q, r);
    ret(&mut fb, r);
    let f = fb.finish();
    function(module, f, abi.vec4f)
}

/// `f24_flr(a)`: floor of the flushed input, NaN canonical.
fn build_flr(module: &mut Module, abi: &Abi) -> Handle<Function> {
    let s = Shape { vec: true };
    let mut fb = FnBuilder::new(module, "f24_flr");
    let a = fb.arg("a", abi.vec4f);
    let a = flush(&mut fb, &s, a);
    let fl = fb.math1(M::Floor, a);
    let nan = is_nan(&mut fb, &s, a);
    let q = s.fbits(&mut fb, NAN_BITS);
    let r = fb.select(nan, q, fl);
    ret(&mut fb, r);
    let f = fb.finish();
    function(module, f, abi.vec4f)
}

/// 2^e as f32 for e in -126..=127 (an i32 expression).
fn pow2(fb: &mut FnBuilder, e: H) -> H {
    let b = fb.i32(127);
    let x = fb.bin(B::Add, e, b);
    let x = fb.bitcast(x, ScalarKind::Uint);
    let sh = fb.u32(23);
    let x = fb.bin(B::ShiftLeft, x, sh);
    fb.bitcast(x, ScalarKind::Float)
}

/// Unbiased exponent and the 16 significand bits below the hidden one: (e: i32, bits: u32).
fn exponent(fb: &mut FnBuilder, bits: H) -> H {
    let sh = fb.u32(23);
    let e = fb.bin(B::ShiftRight, bits, sh);
    let ff = fb.u32(0xFF);
    let e = fb.bin(B::And, e, ff);
    let e = fb.bitcast(e, ScalarKind::Sint);
    let b = fb.i32(127);
    fb.bin(B::Subtract, e, b)
}

fn significand17(fb: &mut FnBuilder, bits: H) -> H {
    let sh = fb.u32(7);
    let m = fb.bin(B::ShiftRight, bits, sh);
    let ffff = fb.u32(0xFFFF);
    let m = fb.bin(B::And, m, ffff);
    let hidden = fb.u32(1 << 16);
    fb.bin(B::InclusiveOr, m, hidden)
}

/// The special-case wrapper of RCP/RSQ/LG2: NaN, zero, infinity results around `v`.
fn specials(fb: &mut FnBuilder, nan: H, zero: H, zero_val: u32, inf: H, inf_val: u32, v: H) -> H {
    let iv = fb.f32_bits(inf_val);
    let v = fb.select(inf, iv, v);
    let zv = fb.f32_bits(zero_val);
    let v = fb.select(zero, zv, v);
    let q = fb.f32_bits(NAN_BITS);
    fb.select(nan, q, v)
}

/// R * 2^scale with the carry of f24ops (R = 2^17 becomes 2^16 one binade up), then finish.
fn scale_result(fb: &mut FnBuilder, r: H, scale: H) -> H {
    let top = fb.u32(1 << 17);
    let carry = fb.bin(B::Equal, r, top);
    let half = fb.u32(1 << 16);
    let r = fb.select(carry, half, r);
    let one = fb.i32(1);
    let s1 = fb.bin(B::Add, scale, one);
    let scale = fb.select(carry, s1, scale);
    let rf = fb.convert(r, ScalarKind::Float);
    let p = pow2(fb, scale);
    fb.bin(B::Multiply, rf, p)
}

fn scalar_flags(fb: &mut FnBuilder, a: H) -> (H, H, H, H) {
    let s = Shape { vec: false };
    let nan = is_nan(fb, &s, a);
    let zero_f = fb.f32(0.0);
    let zero = fb.bin(B::Equal, a, zero_f);
    let ab = abs(fb, &s, a);
    let inf_f = fb.f32_bits(0x7F80_0000);
    let inf = fb.bin(B::Equal, ab, inf_f);
    let bits = fb.bitcast(a, ScalarKind::Uint);
    (nan, zero, inf, bits)
}

/// `f24_rcp(a)`: f24ops::rcp.
fn build_rcp(module: &mut Module) -> Handle<Function> {
    let s = Shape { vec: false };
    let f32t =
        module.types.insert(Type { name: None, inner: naga::TypeInner::Scalar(naga::Scalar::F32) }, Span::UNDEFINED);
    let mut fb = FnBuilder::new(module, "f24_rcp");
    let a = fb.arg("a", f32t);
    let a = flush(&mut fb, &s, a);
    let (nan, zero, inf, bits) = scalar_flags(&mut fb, a);
    let e = exponent(&mut fb, bits);
    let big_a = significand17(&mut fb, bits);
    // Guess 2^33 / A, then the exact midpoint tests in wrapping u32 arithmetic.
    let num = fb.f32(8_589_934_592.0);
    let af = fb.convert(big_a, ScalarKind::Float);
    let guess = fb.bin(B::Divide, num, af);
    let h = fb.f32(0.5);
    let g = fb.bin(B::Add, guess, h);
    let mut r = fb.convert(g, ScalarKind::Uint);
    let one = fb.u32(1);
    let two = fb.u32(2);
    let zi = fb.i32(0);
    for _ in 0..2 {
        let t = fb.bin(B::Multiply, two, r);
        let t = fb.bin(B::Add, t, one);
        let t = fb.bin(B::Multiply, t, big_a);
        let t = fb.bitcast(t, ScalarKind::Sint);
        let up = fb.bin(B::Less, t, zi);
        let r1 = fb.bin(B::Add, r, one);
        r = fb.select(up, r1, r);
    }
    for _ in 0..2 {
        let t = fb.bin(B::Multiply, two, r);
        let t = fb.bin(B::Subtract, t, one);
        let t = fb.bin(B::Multiply, t, big_a);
        let t = fb.bitcast(t, ScalarKind::Sint);
        let down = fb.bin(B::Greater, t, zi);
        let r1 = fb.bin(B::Subtract, r, one);
        r = fb.select(down, r1, r);
    }
    let pow = fb.u32(1 << 16);
    let is_pow = fb.bin(B::Equal, big_a, pow);
    let top = fb.u32(1 << 17);
    let r = fb.select(is_pow, top, r);
    let m17 = fb.i32(-17);
    let scale = fb.bin(B::Subtract, m17, e);
    let v = scale_result(&mut fb, r, scale);
    // The sign of a.
    let vb = fb.bitcast(v, ScalarKind::Uint);
    let sm = fb.u32(0x8000_0000);
    let sign = fb.bin(B::And, bits, sm);
    let vb = fb.bin(B::InclusiveOr, vb, sign);
    let v = fb.bitcast(vb, ScalarKind::Float);
    let v = finish(&mut fb, &s, v);
    let v = specials(&mut fb, nan, zero, 0x7F80_0000, inf, 0, v);
    ret(&mut fb, v);
    let f = fb.finish();
    function(module, f, f32t)
}

/// `f24_rsq_cmp(m, a2)`: the sign of m^2 * a2 - 2^52 (-1, 0, 1), exactly, with 16-bit limbs.
fn build_rsq_cmp(module: &mut Module, abi: &Abi) -> Handle<Function> {
    let i32t =
        module.types.insert(Type { name: None, inner: naga::TypeInner::Scalar(naga::Scalar::I32) }, Span::UNDEFINED);
    let mut fb = FnBuilder::new(module, "f24_rsq_cmp");
    let m = fb.arg("m", abi.u32);
    let a2 = fb.arg("a2", abi.u32);
    // (hi, lo) = x * y for 32-bit x, y.
    let mul = |fb: &mut FnBuilder, x: H, y: H| {
        let ffff = fb.u32(0xFFFF);
        let sh = fb.u32(16);
        let xl = fb.bin(B::And, x, ffff);
        let xh = fb.bin(B::ShiftRight, x, sh);
        let yl = fb.bin(B::And, y, ffff);
        let yh = fb.bin(B::ShiftRight, y, sh);
        let ll = fb.bin(B::Multiply, xl, yl);
        let lh = fb.bin(B::Multiply, xl, yh);
        let hl = fb.bin(B::Multiply, xh, yl);
        let hh = fb.bin(B::Multiply, xh, yh);
        let ll_hi = fb.bin(B::ShiftRight, ll, sh);
        let lh_lo = fb.bin(B::And, lh, ffff);
        let hl_lo = fb.bin(B::And, hl, ffff);
        let mid = fb.bin(B::Add, ll_hi, lh_lo);
        let mid = fb.bin(B::Add, mid, hl_lo);
        let ll_lo = fb.bin(B::And, ll, ffff);
        let mid_sh = fb.bin(B::ShiftLeft, mid, sh);
        let lo = fb.bin(B::InclusiveOr, ll_lo, mid_sh);
        let lh_hi = fb.bin(B::ShiftRight, lh, sh);
        let hl_hi = fb.bin(B::ShiftRight, hl, sh);
        let mid_hi = fb.bin(B::ShiftRight, mid, sh);
        let hi = fb.bin(B::Add, hh, lh_hi);
        let hi = fb.bin(B::Add, hi, hl_hi);
        let hi = fb.bin(B::Add, hi, mid_hi);
        (hi, lo)
    };
    let (qh, ql) = mul(&mut fb, m, m);
    let (h2, l2) = mul(&mut fb, ql, a2);
    let t = fb.bin(B::Multiply, qh, a2);
    let th = fb.bin(B::Add, t, h2);
    let two52 = fb.u32(1 << 20);
    let less = fb.bin(B::Less, th, two52);
    let more = fb.bin(B::Greater, th, two52);
    let zu = fb.u32(0);
    let lo_nz = fb.bin(B::NotEqual, l2, zu);
    let eq = fb.bin(B::Equal, th, two52);
    let eq_more = fb.bin(B::LogicalAnd, eq, lo_nz);
    let gt = fb.bin(B::LogicalOr, more, eq_more);
    let one = fb.i32(1);
    let m1 = fb.i32(-1);
    let z = fb.i32(0);
    let v = fb.select(gt, one, z);
    let v = fb.select(less, m1, v);
    ret(&mut fb, v);
    let f = fb.finish();
    function(module, f, i32t)
}

/// `f24_rsq(a)`: f24ops::rsq.
fn build_rsq(module: &mut Module, abi: &Abi) -> Handle<Function> {
    let cmp = build_rsq_cmp(module, abi);
    let s = Shape { vec: false };
    let f32t =
        module.types.insert(Type { name: None, inner: naga::TypeInner::Scalar(naga::Scalar::F32) }, Span::UNDEFINED);
    let mut fb = FnBuilder::new(module, "f24_rsq");
    let a = fb.arg("a", f32t);
    let a = flush(&mut fb, &s, a);
    let (nan, zero, inf, bits) = scalar_flags(&mut fb, a);
    let zf = fb.f32(0.0);
    let neg = fb.bin(B::Less, a, zf);
    let nan = fb.bin(B::LogicalOr, nan, neg);
    let e = exponent(&mut fb, bits);
    let sig = significand17(&mut fb, bits);
    let one_i = fb.i32(1);
    let odd = fb.bin(B::And, e, one_i);
    let zi = fb.i32(0);
    let odd = fb.bin(B::NotEqual, odd, zi);
    let two = fb.u32(2);
    let sig2 = fb.bin(B::Multiply, sig, two);
    let a2 = fb.select(odd, sig2, sig);
    let sh1 = fb.u32(1);
    let k = fb.bin(B::ShiftRight, e, sh1);
    let num = fb.f32(33_554_432.0);
    let af = fb.convert(a2, ScalarKind::Float);
    let sq = fb.math1(M::Sqrt, af);
    let guess = fb.bin(B::Divide, num, sq);
    let h = fb.f32(0.5);
    let g = fb.bin(B::Add, guess, h);
    let r0 = fb.convert(g, ScalarKind::Uint);
    let r = rsq_corrected(&mut fb, cmp, r0, a2);
    let pow = fb.u32(1 << 16);
    let is_pow = fb.bin(B::Equal, a2, pow);
    let top = fb.u32(1 << 17);
    let r = fb.select(is_pow, top, r);
    let m17 = fb.i32(-17);
    let scale = fb.bin(B::Subtract, m17, k);
    let v = scale_result(&mut fb, r, scale);
    let v = finish(&mut fb, &s, v);
    let v = specials(&mut fb, nan, zero, 0x7F80_0000, inf, 0, v);
    ret(&mut fb, v);
    let f = fb.finish();
    function(module, f, f32t)
}

/// f24ops::rsq's corrections of the first guess `r0` (`r += 1` while (2r+1)^2 a2 < 2^52, then
/// `r -= 1` while (2r-1)^2 a2 > 2^52; at most two steps each, the f32 guess being that close),
/// as four independent tests of `r0` instead of a chain of four. The test is monotonic in m
/// (m^2 a2 grows with m; r0 is 2^16-2^17, so no m wraps), hence: the second step up happens only
/// after the first and tests m = 2 r0 + 3; a step up leaves (2r-1)^2 a2 < 2^52, so steps down
/// happen only when no step up did, and test m = 2 r0 - 1 and 2 r0 - 3. A chain of four
/// `f24_rsq_cmp` calls made lavapipe's NIR compiler (Mesa 22.3) run for minutes on smith
/// programs with RSQ inside four nested loops (docs/pica-translate.md "Driver facts").
fn rsq_corrected(fb: &mut FnBuilder, cmp: Handle<Function>, r0: H, a2: H) -> H {
    let two = fb.u32(2);
    let zi = fb.i32(0);
    let twice = fb.bin(B::Multiply, two, r0);
    let test = |fb: &mut FnBuilder, add: bool, k: u32, up: bool| {
        let kk = fb.u32(k);
        let m = fb.bin(if add { B::Add } else { B::Subtract }, twice, kk);
        let c = fb.call_value(cmp, vec![m, a2]);
        let step = fb.bin(if up { B::Less } else { B::Greater }, c, zi);
        let one = fb.u32(1);
        let zu = fb.u32(0);
        (step, fb.select(step, one, zu))
    };
    let (up1, u1) = test(fb, true, 1, true);
    let (_, u2) = test(fb, true, 3, true);
    let (_, d1) = test(fb, false, 1, false);
    let (_, d2) = test(fb, false, 3, false);
    let zu = fb.u32(0);
    let d1 = fb.select(up1, zu, d1);
    let d2 = fb.select(up1, zu, d2);
    let r = fb.bin(B::Add, r0, u1);
    let r = fb.bin(B::Add, r, u2);
    let r = fb.bin(B::Subtract, r, d1);
    fb.bin(B::Subtract, r, d2)
}

/// Horner's rule with one rounded mul and one rounded add per step (f24ops::horner).
fn horner(fb: &mut FnBuilder, c: &[f32], x: H) -> H {
    let mut acc = fb.f32(c[c.len() - 1]);
    for &k in c[..c.len() - 1].iter().rev() {
        let p = fb.bin(B::Multiply, acc, x);
        let kk = fb.f32(k);
        acc = fb.bin(B::Add, p, kk);
    }
    acc
}

/// Rounds a scalar with a zero remainder (f24ops: `round(p, || 0.0)`).
fn round_scalar(fb: &mut FnBuilder, x: H) -> H {
    let s = Shape { vec: false };
    let z = fb.f32(0.0);
    round(fb, &s, x, z)
}

/// `f24_ex2(a)`: f24ops::ex2.
fn build_ex2(module: &mut Module) -> Handle<Function> {
    let s = Shape { vec: false };
    let f32t =
        module.types.insert(Type { name: None, inner: naga::TypeInner::Scalar(naga::Scalar::F32) }, Span::UNDEFINED);
    let mut fb = FnBuilder::new(module, "f24_ex2");
    let a = fb.arg("a", f32t);
    let a = flush(&mut fb, &s, a);
    let nan = is_nan(&mut fb, &s, a);
    let c64 = fb.f32(64.0);
    let big = fb.bin(B::GreaterEqual, a, c64);
    let cm64 = fb.f32(-64.0);
    let small = fb.bin(B::Less, a, cm64);
    let h = fb.f32(0.5);
    let ah = fb.bin(B::Add, a, h);
    let n = fb.math1(M::Floor, ah);
    let f = fb.bin(B::Subtract, a, n);
    let p = horner(&mut fb, &EX2_POLY, f);
    // n is in -64..=64 here; clamp so the conversion is defined for the inputs selected away.
    let lo = fb.f32(-100.0);
    let hi = fb.f32(100.0);
    let nc = fb.math3(M::Clamp, n, lo, hi);
    let ni = fb.convert(nc, ScalarKind::Sint);
    let pw = pow2(&mut fb, ni);
    let p = fb.bin(B::Multiply, p, pw);
    let v = round_scalar(&mut fb, p);
    let zero = fb.f32(0.0);
    let v = fb.select(small, zero, v);
    let inf = fb.f32_bits(0x7F80_0000);
    let v = fb.select(big, inf, v);
    let q = fb.f32_bits(NAN_BITS);
    let v = fb.select(nan, q, v);
    ret(&mut fb, v);
    let func = fb.finish();
    function(module, func, f32t)
}

/// `f24_lg2(a)`: f24ops::lg2.
fn build_lg2(module: &mut Module) -> Handle<Function> {
    let s = Shape { vec: false };
    let f32t =
        module.types.insert(Type { name: None, inner: naga::TypeInner::Scalar(naga::Scalar::F32) }, Span::UNDEFINED);
    let mut fb = FnBuilder::new(module, "f24_lg2");
    let a = fb.arg("a", f32t);
    let a = flush(&mut fb, &s, a);
    let (nan, zero, inf, bits) = scalar_flags(&mut fb, a);
    let zf = fb.f32(0.0);
    let neg = fb.bin(B::Less, a, zf);
    let nan = fb.bin(B::LogicalOr, nan, neg);
    let e = exponent(&mut fb, bits);
    let mm = fb.u32(0x7F_FFFF);
    let mb = fb.bin(B::And, bits, mm);
    let one_b = fb.u32(0x3F80_0000);
    let mb = fb.bin(B::InclusiveOr, mb, one_b);
    let m = fb.bitcast(mb, ScalarKind::Float);
    let sqrt2 = fb.f32(std::f32::consts::SQRT_2);
    let big = fb.bin(B::Greater, m, sqrt2);
    let half = fb.f32(0.5);
    let mh = fb.bin(B::Multiply, m, half);
    let m = fb.select(big, mh, m);
    let one_i = fb.i32(1);
    let e1 = fb.bin(B::Add, e, one_i);
    let e = fb.select(big, e1, e);
    let one = fb.f32(1.0);
    let t = fb.bin(B::Subtract, m, one);
    let q = horner(&mut fb, &LG2_POLY, t);
    let y = fb.bin(B::Multiply, t, q);
    let ef = fb.convert(e, ScalarKind::Float);
    let sum = fb.bin(B::Add, ef, y);
    let v = round_scalar(&mut fb, sum);
    let v = specials(&mut fb, nan, zero, 0xFF80_0000, inf, 0x7F80_0000, v);
    ret(&mut fb, v);
    let func = fb.finish();
    function(module, func, f32t)
}

/// Adds the helper functions to `module` (before any caller, as naga requires).
pub(crate) fn build(module: &mut Module, abi: &Abi) -> ExactFns {
    ExactFns {
        add: build_add(module, abi),
        mul: build_mul(module, abi),
        flr: build_flr(module, abi),
        rcp: build_rcp(module),
        rsq: build_rsq(module, abi),
        ex2: build_ex2(module),
        lg2: build_lg2(module),
    }
}

//! The algorithms, generic over [`Exact`]. Comments give the exactness argument of each step.

use super::{Exact, Form};

const SIGN: u32 = 0x8000_0000;
const ABS: u32 = 0x7FFF_FFFF;
const INF: u32 = 0x7F80_0000;
const NINF: u32 = 0xFF80_0000;
const FLT_MAX: u32 = 0x7F7F_FFFF;
/// The NaN an invalid operation (log of a negative, sin of inf, ...) returns.
const QNAN: u32 = 0x7FC0_0000;
/// The quiet bit, set on a NaN input that passes through.
const QUIET: u32 = 0x0040_0000;
const ONE: u32 = 0x3F80_0000;
const HALF: u32 = 0x3F00_0000;
/// 1.5·2^23: `x + MAGIC - MAGIC` rounds |x| < 2^22 to an integer (nearest even), and the bits
/// of `x + MAGIC` are `MAGIC_BITS + round(x)`.
const MAGIC: u32 = 0x4B40_0000;
/// 2^23: at and above it every f32 is an integer.
const TWO23: u32 = 0x4B00_0000;

/// (2^f - 1) / f on [-0.5, 0.5], coefficients of f^0..f^6 (Chebyshev-node interpolation,
/// max relative error 0.09 ulp before f32 evaluation).
const EXP_POLY: [u32; 7] = [0x3f317218, 0x3e75fdf0, 0x3d635847, 0x3c1d950e, 0x3aaec3cf, 0x39222000, 0x378052c1];
/// log2(1 + f) / f on [√½ - 1, √2 - 1], f^0..f^10 (max relative error 0.27 ulp).
const LOG_POLY: [u32; 11] = [
    0x3fb8aa3b, 0xbf38aa3b, 0x3ef63840, 0xbeb8aa59, 0x3e93c02e, 0xbe7637e3, 0x3e51f603, 0xbe377ec8, 0x3e307a94,
    0xbe2bac94, 0x3dc23046,
];
/// sin(2π·t) / t as a polynomial in u = t², t in [-1/8, 1/8] (max relative error 0.55 ulp,
/// mostly the rounding of 2π).
const SIN_POLY: [u32; 5] = [0x40c90fdb, 0xc2255de7, 0x42a335dd, 0xc299654f, 0x4225e42e];
/// (cos(2π·t) - 1) / u, u = t², t in [-1/8, 1/8] (max relative error 0.49 ulp).
const COS_POLY: [u32; 5] = [0xc19de9e6, 0x4281e0f8, 0xc2aae9e1, 0x4270f639, 0xc1d0f426];

fn horner<E: Exact>(e: &mut E, c: &[u32], x: E::V) -> E::V {
    let mut acc = e.k(c[c.len() - 1]);
    for &ci in c[..c.len() - 1].iter().rev() {
        let p = e.fmul(acc, x);
        let k = e.k(ci);
        acc = e.fadd(p, k);
    }
    acc
}

fn and_k<E: Exact>(e: &mut E, a: E::V, v: u32) -> E::V {
    let k = e.k(v);
    e.and(a, k)
}

fn eq_k<E: Exact>(e: &mut E, a: E::V, v: u32) -> E::B {
    let k = e.k(v);
    e.ieq(a, k)
}

fn add_k<E: Exact>(e: &mut E, a: E::V, v: u32) -> E::V {
    let k = e.k(v);
    e.iadd(a, k)
}

fn sel_k<E: Exact>(e: &mut E, c: E::B, v: u32, b: E::V) -> E::V {
    let k = e.k(v);
    e.sel(c, k, b)
}

fn shl_k<E: Exact>(e: &mut E, a: E::V, n: u32) -> E::V {
    let k = e.k(n);
    e.shl(a, k)
}

fn shr_k<E: Exact>(e: &mut E, a: E::V, n: u32) -> E::V {
    let k = e.k(n);
    e.shr(a, k)
}

/// `x` is a NaN, by its bits.
fn is_nan<E: Exact>(e: &mut E, x: E::V) -> E::B {
    let a = and_k(e, x, ABS);
    let inf = e.k(INF);
    e.ult(inf, a)
}

/// A NaN input passed through, quieted.
fn quiet<E: Exact>(e: &mut E, x: E::V) -> E::V {
    let q = e.k(QUIET);
    e.or(x, q)
}

/// For a positive finite nonzero magnitude `a`: `(y, n)` with a = y·2^n, y in [1, 2) (f32
/// bits) and n an i32. A subnormal is normalised exactly by converting its mantissa (< 2^23)
/// to f32: a = m·2^-149.
fn decompose<E: Exact>(e: &mut E, a: E::V) -> (E::V, E::V) {
    let frac_mask = 0x007F_FFFF;
    let sub = {
        let k = e.k(0x0080_0000);
        e.ult(a, k)
    };
    let m = and_k(e, a, frac_mask);
    let fm = e.i2f(m);
    let src = e.sel(sub, fm, a);
    let ex = shr_k(e, src, 23);
    let bias = e.k(127);
    let bias_sub = e.k(127 + 149);
    let b = e.sel(sub, bias_sub, bias);
    let n = e.isub(ex, b);
    let fr = and_k(e, src, frac_mask);
    let one = e.k(ONE);
    let y = e.or(fr, one);
    (y, n)
}

/// p·2^n for a positive normal f32 `p` and an i32 `n`, rounded once (to nearest even) where the
/// result is subnormal: the mantissa is shifted right in integers. Overflow gives +inf.
fn ldexp<E: Exact>(e: &mut E, p: E::V, n: E::V) -> E::V {
    let pe = shr_k(e, p, 23);
    let be = e.iadd(pe, n);
    // Normal: the exponent field moves by n.
    let sn = shl_k(e, n, 23);
    let normal = e.iadd(p, sn);
    let zero = e.k(0);
    let is_normal = e.ilt(zero, be);
    let k254 = e.k(254);
    let over = e.ilt(k254, be);
    // Subnormal: D = mant >> (1 - be), rounded to nearest even; shifts past 31 give 0.
    let one = e.k(1);
    let sh = e.isub(one, be);
    let k31 = e.k(31);
    let far = e.ult(k31, sh);
    let sh = e.sel(far, k31, sh);
    let fr = and_k(e, p, 0x007F_FFFF);
    let mant = add_k(e, fr, 0x0080_0000);
    let d = e.shr(mant, sh);
    let bit = e.shl(one, sh);
    let low = e.isub(bit, one);
    let rem = e.and(mant, low);
    let half = e.shr(bit, one);
    let above = e.ult(half, rem);
    let tie = e.ieq(rem, half);
    let odd = e.and(d, one);
    let odd = e.ieq(odd, one);
    let tie_odd = e.band(tie, odd);
    let up = e.bor(above, tie_odd);
    let d1 = e.iadd(d, one);
    let sub = e.sel(up, d1, d);
    let r = e.sel(is_normal, normal, sub);
    sel_k(e, over, INF, r)
}

/// EXP_IEEE: 2^x. n = round(x), f = x - n (exact), 2^f = 1 + f·P(f), then ldexp. x >= 128 is
/// +inf, x < -152 is +0, a NaN passes through quieted.
pub fn exp<E: Exact>(e: &mut E, x: E::V) -> E::V {
    let lo = e.k((-152.0f32).to_bits());
    let hi = e.k(128.0f32.to_bits());
    let small = e.flt(x, lo);
    let below = e.flt(x, hi);
    let big = e.bnot(below);
    let xc = e.sel(small, lo, x);
    let xc = e.sel(below, xc, hi);
    let magic = e.k(MAGIC);
    let s = e.fadd(xc, magic);
    let nf = e.fsub(s, magic);
    // |xc| <= 152 < 2^22: the sum is in [2^23, 2^24), its bits are MAGIC + n.
    let n = e.isub(s, magic);
    let f = e.fsub(xc, nf);
    let g = horner(e, &EXP_POLY, f);
    let fg = e.fmul(f, g);
    let one = e.k(ONE);
    let p = e.fadd(one, fg);
    let r = ldexp(e, p, n);
    let r = sel_k(e, small, 0, r);
    let r = sel_k(e, big, INF, r);
    let nan = is_nan(e, x);
    let q = quiet(e, x);
    e.sel(nan, q, r)
}

/// LOG_IEEE / LOG_CLAMPED: log2(x) = n + log2(y), y in [√½, √2), log2(y) = f·P(f) with f = y - 1
/// (exact, Sterbenz). ±0 is -inf, +inf is +inf, negative inputs are NaN. CLAMPED first makes a
/// negative or NaN input +0 (Cemu) and turns -inf into -FLT_MAX (§3).
pub fn log<E: Exact>(e: &mut E, x: E::V, clamped: bool) -> E::V {
    let x = if clamped {
        let zero = e.k(0);
        let neg = e.flt(x, zero);
        let nan = is_nan(e, x);
        let bad = e.bor(neg, nan);
        e.sel(bad, zero, x)
    } else {
        x
    };
    let a = and_k(e, x, ABS);
    let (y, n) = decompose(e, a);
    let sqrt2 = e.k(0x3FB5_04F3);
    let big = e.ult(sqrt2, y);
    let y_half = add_k(e, y, 0xFF80_0000); // y / 2: the exponent field minus one
    let y = e.sel(big, y_half, y);
    let n1 = add_k(e, n, 1);
    let n = e.sel(big, n1, n);
    let one = e.k(ONE);
    let f = e.fsub(y, one);
    let g = horner(e, &LOG_POLY, f);
    let p = e.fmul(f, g);
    let nf = e.i2f(n);
    let r = e.fadd(nf, p);
    let zero = eq_k(e, a, 0);
    let r = sel_k(e, zero, NINF, r);
    let inf = eq_k(e, x, INF);
    let r = sel_k(e, inf, INF, r);
    let s = and_k(e, x, SIGN);
    let neg = eq_k(e, s, SIGN);
    let nz = e.bnot(zero);
    let neg = e.band(neg, nz);
    let r = sel_k(e, neg, QNAN, r);
    let nan = is_nan(e, x);
    let q = quiet(e, x);
    let r = e.sel(nan, q, r);
    if clamped {
        let ninf = eq_k(e, r, NINF);
        sel_k(e, ninf, 0xFF7F_FFFF, r)
    } else {
        r
    }
}

/// For z in [1, 4): r ≈ 1/√z in (0.5, 1], within a few ulp: the bit-pattern first guess and three
/// Newton steps, the last written r + r·(½ - ½z·r²) so its rounding error stays small.
fn rsq_core<E: Exact>(e: &mut E, z: E::V) -> E::V {
    let magic = e.k(0x5F37_59DF);
    let one = e.k(1);
    let zh = e.shr(z, one);
    let mut r = e.isub(magic, zh);
    let half = e.k(HALF);
    let hz = e.fmul(half, z);
    let three_half = e.k(1.5f32.to_bits());
    for _ in 0..2 {
        let rr = e.fmul(r, r);
        let t = e.fmul(hz, rr);
        let d = e.fsub(three_half, t);
        r = e.fmul(r, d);
    }
    let rr = e.fmul(r, r);
    let t = e.fmul(hz, rr);
    let d = e.fsub(half, t);
    let rd = e.fmul(r, d);
    e.fadd(r, rd)
}

/// (z, j, y) for a positive finite nonzero `a` = z·4^j, z in [1, 4); y its [1, 2) mantissa.
fn even_split<E: Exact>(e: &mut E, a: E::V) -> (E::V, E::V, E::V, E::V) {
    let (y, n) = decompose(e, a);
    let odd = and_k(e, n, 1);
    let sh = shl_k(e, odd, 23);
    let z = e.iadd(y, sh);
    let ne = e.isub(n, odd);
    let one = e.k(1);
    let j = e.sar(ne, one);
    (z, j, y, odd)
}

/// The ±inf rule of `form` on a result.
fn inf_rule<E: Exact>(e: &mut E, r: E::V, form: Form) -> E::V {
    let repl = match form {
        Form::Ieee => return r,
        Form::Clamped => FLT_MAX,
        Form::Ff => 0,
    };
    let a = and_k(e, r, ABS);
    let inf = eq_k(e, a, INF);
    let s = and_k(e, r, SIGN);
    let k = e.k(repl);
    let v = e.or(s, k);
    e.sel(inf, v, r)
}

/// RECIPSQRT_*: 1/√x = rsq_core(z)·2^-j for x = z·4^j. +0 / -0 give +inf / -inf (1/√-0 = 1/-0),
/// +inf gives +0, negative inputs NaN; then the form's ±inf rule.
pub fn rsq<E: Exact>(e: &mut E, x: E::V, form: Form) -> E::V {
    let a = and_k(e, x, ABS);
    let (z, j, _, _) = even_split(e, a);
    let r = rsq_core(e, z);
    // r in (0.5, 1] and |j| <= 75: the result stays normal.
    let js = shl_k(e, j, 23);
    let r = e.isub(r, js);
    let zero = eq_k(e, a, 0);
    let s = and_k(e, x, SIGN);
    let sinf = add_k(e, s, INF);
    let r = e.sel(zero, sinf, r);
    let inf = eq_k(e, x, INF);
    let r = sel_k(e, inf, 0, r);
    let neg = eq_k(e, s, SIGN);
    let nz = e.bnot(zero);
    let neg = e.band(neg, nz);
    let r = sel_k(e, neg, QNAN, r);
    let nan = is_nan(e, x);
    let q = quiet(e, x);
    let r = e.sel(nan, q, r);
    inf_rule(e, r, form)
}

/// SQRT_IEEE, correctly rounded. With x = M·2^(2j-46-odd) (M the 24-bit mantissa), √x = Q·2^(j-23)
/// where Q = round(√X), X = M·2^(23+odd) in [2^46, 2^48). The guess Q from z·rsq_core(z) is
/// within a few units; Q is right when -Q < X - Q² <= Q, and X - Q² is small, so its low 32 bits
/// (wrapping arithmetic) are the exact value. ±0, +inf pass, negative inputs are NaN.
pub fn sqrt<E: Exact>(e: &mut E, x: E::V) -> E::V {
    let a = and_k(e, x, ABS);
    let (z, j, y, odd) = even_split(e, a);
    let r = rsq_core(e, z);
    let s = e.fmul(z, r);
    // s in [1, 2]: its bits minus 0x3F000000 are s·2^23.
    let mut q = add_k(e, s, 0xC100_0000);
    let fr = and_k(e, y, 0x007F_FFFF);
    let m = add_k(e, fr, 0x0080_0000);
    let k23 = e.k(23);
    let sh = e.iadd(k23, odd);
    let xl = e.shl(m, sh);
    let one = e.k(1);
    for _ in 0..3 {
        let qq = e.imul(q, q);
        let rem = e.isub(xl, qq);
        let up = e.ilt(q, rem);
        let nq = e.isub(one, q);
        let down = e.ilt(rem, nq);
        let q1 = e.iadd(q, one);
        let q0 = e.isub(q, one);
        let t = e.sel(down, q0, q);
        q = e.sel(up, q1, t);
    }
    let jb = add_k(e, j, 127);
    let ex = shl_k(e, jb, 23);
    let qm = add_k(e, q, 0xFF80_0000);
    let r = e.iadd(ex, qm);
    let zero = eq_k(e, a, 0);
    let r = e.sel(zero, x, r);
    let inf = eq_k(e, x, INF);
    let r = sel_k(e, inf, INF, r);
    let sgn = and_k(e, x, SIGN);
    let neg = eq_k(e, sgn, SIGN);
    let nz = e.bnot(zero);
    let neg = e.band(neg, nz);
    let r = sel_k(e, neg, QNAN, r);
    let nan = is_nan(e, x);
    let q = quiet(e, x);
    e.sel(nan, q, r)
}

/// RECIP_*, correctly rounded (equal to IEEE 1/x). With |x| = M·2^(n-23), 1/|x| = Q·2^(-24-n),
/// Q = round(2^47 / M) in (2^23, 2^24]; where the result is subnormal (n >= 126) Q =
/// round(2^(47-s) / M), s = n - 125, is the subnormal's integer. The f32 Newton guess is within
/// a few units; Q is right when -M < 2·(2^K - M·Q) <= M, and 2^K - M·Q is small and 2^K ≡ 0
/// (mod 2^32), so the wrapping -M·Q is its exact value. ±0 gives ±inf, ±inf ±0; then the form's
/// ±inf rule.
pub fn recip<E: Exact>(e: &mut E, x: E::V, form: Form) -> E::V {
    let sgn = and_k(e, x, SIGN);
    let a = and_k(e, x, ABS);
    let (y, n) = decompose(e, a);
    // r ≈ 1/y in (0.5, 1]: bit guess and three Newton steps r + r·(1 - y·r).
    let magic = e.k(0x7EF3_11C3);
    let mut r = e.isub(magic, y);
    let one_f = e.k(ONE);
    for _ in 0..3 {
        let yr = e.fmul(y, r);
        let d = e.fsub(one_f, yr);
        let rd = e.fmul(r, d);
        r = e.fadd(r, rd);
    }
    // r in [0.5, 1]: its bits minus 0x3E800000 are r·2^24.
    let q0 = add_k(e, r, 0xC180_0000);
    let k125 = e.k(125);
    let subn = e.ilt(k125, n);
    let s = e.isub(n, k125);
    let zero = e.k(0);
    let s = e.sel(subn, s, zero);
    let mut q = e.shr(q0, s);
    let fr = and_k(e, y, 0x007F_FFFF);
    let m = add_k(e, fr, 0x0080_0000);
    let one = e.k(1);
    let nm = e.isub(one, m);
    for _ in 0..3 {
        let mq = e.imul(m, q);
        let rem = e.isub(zero, mq);
        let r2 = e.iadd(rem, rem);
        let up = e.ilt(m, r2);
        let down = e.ilt(r2, nm);
        let q1 = e.iadd(q, one);
        let qd = e.isub(q, one);
        let t = e.sel(down, qd, q);
        q = e.sel(up, q1, t);
    }
    // Normal: exponent field 126 - n, and Q - 2^23 (Q = 2^24 carries into the exponent).
    let k126 = e.k(126);
    let eb = e.isub(k126, n);
    let ex = shl_k(e, eb, 23);
    let qm = add_k(e, q, 0xFF80_0000);
    let normal = e.iadd(ex, qm);
    let r = e.sel(subn, q, normal);
    let k254 = e.k(254);
    let over = e.ilt(k254, eb);
    let r = sel_k(e, over, INF, r);
    let r = e.or(r, sgn);
    let zr = eq_k(e, a, 0);
    let sinf = add_k(e, sgn, INF);
    let r = e.sel(zr, sinf, r);
    let inf = eq_k(e, a, INF);
    let r = e.sel(inf, sgn, r);
    let nan = is_nan(e, x);
    let qn = quiet(e, x);
    let r = e.sel(nan, qn, r);
    inf_rule(e, r, form)
}

/// SIN / COS of an input in revolutions: sin(2π·x) = sin(2π·(t + q/4)) with r = x - round(x),
/// q = round(4r), t = r - q/4 (each step exact: Sterbenz, or both operands multiples of ulp(x)),
/// |t| <= 1/8, and the quadrant picks ±sin(2πt) = ±t·S(t²) or ±cos(2πt) = ±(1 + t²·C(t²)). For
/// |x| < 2^-32, sin is 2π·x (rounded once through `ldexp`, so no subnormal arithmetic) and cos
/// is 1. ±inf gives NaN.
fn trig<E: Exact>(e: &mut E, x: E::V, cos: bool) -> E::V {
    let sgn = and_k(e, x, SIGN);
    let a = and_k(e, x, ABS);
    let two23 = e.k(TWO23);
    let s = e.fadd(a, two23);
    let ra = e.fsub(s, two23);
    let lt = e.ult(a, two23);
    let ra = e.sel(lt, ra, a);
    let rr = e.fsub(a, ra);
    let r = e.xor(rr, sgn);
    let four = e.k(4.0f32.to_bits());
    let r4 = e.fmul(r, four);
    let magic = e.k(MAGIC);
    let s4 = e.fadd(r4, magic);
    let qf = e.fsub(s4, magic);
    let quarter = e.k(0.25f32.to_bits());
    let qq = e.fmul(qf, quarter);
    let t = e.fsub(r, qq);
    let mut quad = e.isub(s4, magic);
    if cos {
        quad = add_k(e, quad, 1);
    }
    let u = e.fmul(t, t);
    let sp = horner(e, &SIN_POLY, u);
    let sv = e.fmul(t, sp);
    let cp = horner(e, &COS_POLY, u);
    let cu = e.fmul(u, cp);
    let one = e.k(ONE);
    let cv = e.fadd(one, cu);
    let q1 = and_k(e, quad, 1);
    let use_cos = eq_k(e, q1, 1);
    let v = e.sel(use_cos, cv, sv);
    let q2 = and_k(e, quad, 2);
    let neg = eq_k(e, q2, 2);
    let nv = {
        let k = e.k(SIGN);
        e.xor(v, k)
    };
    let mut v = e.sel(neg, nv, v);
    let tiny = {
        let k = e.k(0x2F80_0000);
        e.ult(a, k)
    };
    let tv = if cos {
        e.k(ONE)
    } else {
        let (y, n) = decompose(e, a);
        let c0 = e.k(SIN_POLY[0]);
        let p = e.fmul(y, c0);
        let l = ldexp(e, p, n);
        let z = eq_k(e, a, 0);
        let zero = e.k(0);
        let l = e.sel(z, zero, l);
        e.or(l, sgn)
    };
    v = e.sel(tiny, tv, v);
    let k = e.k(FLT_MAX);
    let bad = e.ult(k, a);
    let v = sel_k(e, bad, QNAN, v);
    let nan = is_nan(e, x);
    let q = quiet(e, x);
    e.sel(nan, q, v)
}

/// SIN: sin(2π·x).
pub fn sin<E: Exact>(e: &mut E, x: E::V) -> E::V {
    trig(e, x, false)
}

/// COS: cos(2π·x).
pub fn cos<E: Exact>(e: &mut E, x: E::V) -> E::V {
    trig(e, x, true)
}

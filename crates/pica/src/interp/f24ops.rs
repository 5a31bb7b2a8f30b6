//! Float24 arithmetic: every operation of the shader unit as one small algorithm over IEEE f32.
//!
//! Values travel as `f32` holding an exact float24 value (every float24 is an f32; see
//! `float24.rs`). Each operation below uses only exactly rounded f32 add, sub and mul, integer
//! arithmetic and bit manipulation, so the translator (`exact` mode) can emit the same
//! steps as shader code and get the same bits. Where a step uses an f32 division or square root it
//! is only a first guess that an exact integer test then corrects, so an inexact GPU division gives
//! the same result. The rules (docs/pica-float.md):
//!
//! - Rounding: round to nearest, ties to even, on the 17-bit significand, with an unbounded
//!   exponent; then results below 2^-62 (float24 subnormals) become +0 and results of 2^64 or more
//!   become infinity of their sign. This is the one rounding rule ([`round`]).
//! - Arithmetic flushes subnormal inputs and -0 to +0 ([`flush`]) and never produces -0
//!   (3dbrew "GPU/Shader Instruction Set" "Floating-Point Behavior": "Input and output subnormals are
//!   flushed to +0", "does not seem to have negative 0").
//! - NaN results are the one quiet NaN float24 0x7F8000 (f32 0x7FC00000).
//! - CMP, SGE/SLT, MAX and MIN compare the values as they are, subnormals included (same table:
//!   "cmp does not flush input subnormals", "max does not flush input or output subnormals").

/// The smallest positive normal float24, 2^-62.
pub const MIN_NORMAL: f32 = f32::from_bits((127 - 62) << 23);
/// 2^64: the first magnitude past the largest float24, (2 - 2^-16) * 2^63.
pub const OVERFLOW: f32 = f32::from_bits((127 + 64) << 23);
/// The NaN every arithmetic instruction returns (float24 0x7F8000).
pub const NAN: f32 = f32::from_bits(0x7FC0_0000);
/// The clamp of LITP's y component: 127.99609375 = 128 - 2^-8 (the ISA page's "127.9961").
pub const LITP_CLAMP: f32 = 128.0 - 1.0 / 256.0;

/// Flushes an arithmetic input: subnormals and -0 become +0; everything else is kept.
#[inline(always)]
pub fn flush(x: f32) -> f32 {
    // NaN fails the comparison and is kept.
    if x.abs() < MIN_NORMAL {
        0.0
    } else {
        x
    }
}

/// Range check after rounding: below 2^-62 becomes +0 (no subnormal, no -0 results); 2^64 and
/// above become infinity of the same sign.
#[inline(always)]
fn finish(r: f32) -> f32 {
    let a = r.abs();
    if a < MIN_NORMAL {
        0.0
    } else if a >= OVERFLOW {
        f32::INFINITY.copysign(r)
    } else {
        r
    }
}

/// Rounds the exact value `hi + lo` to float24, where `hi` is the f32 rounding of that value and
/// `lo` the (exact) remainder. `lo` is only needed when `hi` lies exactly half-way between two
/// float24 values: then its sign says on which side the exact value is. Otherwise `hi` alone
/// decides (the float24 half-way points are f32 values, so `hi` is on the same side of them as the
/// exact value). Round to nearest, ties to even; then `finish`.
#[inline(always)]
pub fn round(hi: f32, lo: impl FnOnce() -> f32) -> f32 {
    if hi.is_nan() {
        return NAN;
    }
    let bits = hi.to_bits();
    // f32 keeps 23 fraction bits, float24 16: the low 7 go.
    let dropped = bits & 0x7F;
    let kept = bits & !0x7F;
    let up = if dropped != 0x40 {
        dropped > 0x40
    } else {
        let lo = lo();
        if lo == 0.0 {
            kept & 0x80 != 0
        } else {
            (lo < 0.0) == (hi < 0.0)
        }
    };
    // Sign-magnitude: adding one float24 ulp to the bits raises the magnitude, carrying into the
    // exponent when the significand overflows (and into infinity's pattern at the top).
    finish(f32::from_bits(if up { kept + 0x80 } else { kept }))
}

/// The exact error of `s = a + b` (Knuth's TwoSum; exact for any f32 inputs without overflow).
#[inline(always)]
pub(crate) fn two_sum_err(a: f32, b: f32, s: f32) -> f32 {
    let bb = s - a;
    let aa = s - bb;
    (a - aa) + (b - bb)
}

/// Splits an f32 into a high part with the top 12 significand bits and the exact rest.
#[inline(always)]
pub(crate) fn split(a: f32) -> (f32, f32) {
    let hi = f32::from_bits(a.to_bits() & 0xFFFF_F000);
    (hi, a - hi)
}

/// The exact error of `p = a * b` (Dekker's product; both parts of each split have at most 12
/// significant bits, so every partial product is exact in f32).
#[inline(always)]
pub(crate) fn two_prod_err(a: f32, b: f32, p: f32) -> f32 {
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    (((ah * bh - p) + ah * bl) + al * bh) + al * bl
}

/// ADD: `a + b`, rounded once.
#[inline(always)]
pub fn add(a: f32, b: f32) -> f32 {
    add_rounded(flush(a), flush(b))
}

/// ADD of two values that are already results of arithmetic (normal or +0, so flushing them
/// would change nothing): the dot products' partial sums.
#[inline(always)]
fn add_rounded(a: f32, b: f32) -> f32 {
    let s = a + b;
    round(s, || two_sum_err(a, b, s))
}

/// MUL: `a * b`, rounded once; inf * 0 = 0 (NaN * 0 stays NaN).
#[inline(always)]
pub fn mul(a: f32, b: f32) -> f32 {
    let (a, b) = (flush(a), flush(b));
    let p = a * b;
    if p.is_nan() && !a.is_nan() && !b.is_nan() {
        return 0.0;
    }
    round(p, || two_prod_err(a, b, p))
}

/// MAD / MADI: `a * b + c` with the product rounded first (not fused).
#[inline(always)]
pub fn mad(a: f32, b: f32, c: f32) -> f32 {
    add_rounded(mul(a, b), flush(c))
}

/// DP3: products rounded, summed left to right, each sum rounded.
#[inline(always)]
pub fn dp3(a: [f32; 4], b: [f32; 4]) -> f32 {
    add_rounded(add_rounded(mul(a[0], b[0]), mul(a[1], b[1])), mul(a[2], b[2]))
}

/// DP4: as [`dp3`] with the w product added last.
#[inline(always)]
pub fn dp4(a: [f32; 4], b: [f32; 4]) -> f32 {
    add_rounded(dp3(a, b), mul(a[3], b[3]))
}

/// DPH: DP4 with `a.w` replaced by 1.0 (the w product is `mul(1, b.w)`, which flushes it).
#[inline(always)]
pub fn dph(a: [f32; 4], b: [f32; 4]) -> f32 {
    add_rounded(dp3(a, b), mul(1.0, b[3]))
}

/// The f32 `2^e` for `e` in -126..=127.
#[inline(always)]
fn pow2(e: i32) -> f32 {
    f32::from_bits(((e + 127) as u32) << 23)
}

/// RCP: `1 / a` correctly rounded. rcp(±0) = +inf (no -0), rcp(±inf) = +0, rcp(NaN) = NaN.
///
/// For a normal `a = A * 2^(e-16)` with the 17-bit significand `A`, `1/a = (2^33 / A) * 2^(-17-e)`
/// and the result's significand is `R = round(2^33 / A)`. A first guess of `R` from an f32
/// division is corrected with the exact midpoint tests `(2R-1) A < 2^34 < (2R+1) A`, computed in
/// wrapping 32-bit integers: 2^34 is 0 modulo 2^32 and the differences stay far below 2^31.
/// `2^33 / A` is never a half-way value (A would have to be a power of two), so no tie arises.
pub fn rcp(a: f32) -> f32 {
    let a = flush(a);
    if a.is_nan() {
        return NAN;
    }
    if a == 0.0 {
        return f32::INFINITY;
    }
    if a.is_infinite() {
        return 0.0;
    }
    let bits = a.to_bits();
    let e = ((bits >> 23) & 0xFF) as i32 - 127;
    let big_a = (1 << 16) | ((bits >> 7) & 0xFFFF);
    let mut r = if big_a == 1 << 16 {
        1 << 17
    } else {
        let guess = pow2(33) / big_a as f32;
        let mut r = (guess + 0.5) as u32;
        // x = 2^33 / A; raise R while x > R + 1/2, lower it while x < R - 1/2.
        while ((2 * r + 1).wrapping_mul(big_a) as i32) < 0 {
            r += 1;
        }
        while ((2 * r - 1).wrapping_mul(big_a) as i32) > 0 {
            r -= 1;
        }
        r
    };
    let mut scale = -17 - e;
    if r == 1 << 17 {
        r = 1 << 16;
        scale += 1;
    }
    // R * 2^scale: R has 17 bits, the power of two is an f32 normal (scale in -80..=46).
    finish((r as f32 * pow2(scale)).copysign(a))
}

/// RSQ: `1 / sqrt(a)` correctly rounded. rsq(±0) = +inf, rsq(+inf) = +0, rsq(negative) = NaN,
/// rsq(NaN) = NaN.
///
/// With `a = A2 * 2^(2k-16)`, `A2` in [2^16, 2^18) (the significand, doubled when the exponent is
/// odd), `1/sqrt(a) = (2^25 / sqrt(A2)) * 2^(-17-k)`, and the significand `R = round(2^25 /
/// sqrt(A2))` is corrected from an f32 guess with the exact tests `(2R-1)^2 A2 < 2^52 <
/// (2R+1)^2 A2` (54-bit integer products; in shader code, 16-bit limbs in 32-bit integers give
/// the same exact comparison). No tie arises: `(2R+1)^2 A2 = 2^52` has no odd solution but 1.
pub fn rsq(a: f32) -> f32 {
    let a = flush(a);
    if a.is_nan() || a < 0.0 {
        return NAN;
    }
    if a == 0.0 {
        return f32::INFINITY;
    }
    if a.is_infinite() {
        return 0.0;
    }
    let bits = a.to_bits();
    let e = ((bits >> 23) & 0xFF) as i32 - 127;
    let sig = (1u64 << 16) | ((bits as u64 >> 7) & 0xFFFF);
    let (a2, k) = if e & 1 == 0 { (sig, e / 2) } else { (sig * 2, (e - 1).div_euclid(2)) };
    let mut r = if a2 == 1 << 16 {
        1u64 << 17
    } else {
        let guess = pow2(25) / (a2 as f32).sqrt();
        let mut r = (guess + 0.5) as u64;
        const TWO52: u64 = 1 << 52;
        while (2 * r + 1) * (2 * r + 1) * a2 < TWO52 {
            r += 1;
        }
        while (2 * r - 1) * (2 * r - 1) * a2 > TWO52 {
            r -= 1;
        }
        r
    };
    let mut scale = -17 - k;
    if r == 1 << 17 {
        r = 1 << 16;
        scale += 1;
    }
    finish(r as f32 * pow2(scale))
}

// The low coefficients are close to ln 2 and log2(e) because they approximate them, as fitted.
#[allow(clippy::approx_constant)]
/// Coefficients of `2^f` on [-1/2, 1/2] (degree 6, Chebyshev interpolation; relative error of the
/// polynomial 2.6e-9, below f32's own rounding).
pub const EX2_POLY: [f32; 7] =
    [1.0, 0.693_147_2, 0.240_226_5, 0.055_503_27, 0.009_618_057, 0.001_340_042_8, 0.000_154_614_45];

#[allow(clippy::approx_constant)]
/// Coefficients of `log2(1+t) / t` on [sqrt(1/2)-1, sqrt(2)-1] (degree 10, Chebyshev
/// interpolation; relative error 7.4e-10).
pub const LG2_POLY: [f32; 11] = [
    1.442_695,
    -0.721_347_5,
    0.480_897_9,
    -0.360_674_65,
    0.288_575_6,
    -0.240_447_57,
    0.205_040_02,
    -0.179_194_57,
    0.172_342_58,
    -0.167_650_52,
    0.094_818_65,
];

/// Horner's rule, highest coefficient first, one rounded mul and one rounded add per step (no
/// fused multiply-add: the shader must keep the two roundings, e.g. SPIR-V NoContraction).
#[inline(always)]
fn horner(c: &[f32], x: f32) -> f32 {
    let mut acc = c[c.len() - 1];
    for &k in c[..c.len() - 1].iter().rev() {
        acc = acc * x + k;
    }
    acc
}

/// EX2: `2^a`, as the defined algorithm: `n = floor(a + 1/2)`, `f = a - n` (exact),
/// `round(2^n * P(f))` with [`EX2_POLY`] in f32. Within 1 float24 ulp of the exact value
/// (tested on every input). ex2(+inf) = +inf, ex2(-inf) = +0, ex2(NaN) = NaN.
pub fn ex2(a: f32) -> f32 {
    let a = flush(a);
    if a.is_nan() {
        return NAN;
    }
    if a >= 64.0 {
        return f32::INFINITY;
    }
    if a < -64.0 {
        return 0.0;
    }
    let n = (a + 0.5).floor();
    let f = a - n;
    let p = horner(&EX2_POLY, f) * pow2(n as i32);
    round(p, || 0.0)
}

/// LG2: `log2(a)`, as the defined algorithm: `a = 2^e * m` with m in [sqrt(1/2), sqrt(2)] taken
/// from the bits, `t = m - 1` (exact), `round(e + t * Q(t))` with [`LG2_POLY`] in f32. Within
/// 1 float24 ulp of the exact value (tested on every input). lg2(±0) = -inf, lg2(negative) = NaN,
/// lg2(+inf) = +inf, lg2(NaN) = NaN.
pub fn lg2(a: f32) -> f32 {
    let a = flush(a);
    if a.is_nan() || a < 0.0 {
        return NAN;
    }
    if a == 0.0 {
        return f32::NEG_INFINITY;
    }
    if a.is_infinite() {
        return f32::INFINITY;
    }
    let bits = a.to_bits();
    let mut e = ((bits >> 23) & 0xFF) as i32 - 127;
    let mut m = f32::from_bits((bits & 0x7F_FFFF) | 0x3F80_0000);
    if m > std::f32::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    let t = m - 1.0;
    let y = t * horner(&LG2_POLY, t);
    round(e as f32 + y, || 0.0)
}

/// FLR: `floor(a)` of the flushed input (exact; NaN canonical).
#[inline(always)]
pub fn flr(a: f32) -> f32 {
    let a = flush(a);
    if a.is_nan() {
        NAN
    } else {
        // floor of a value below 1 in magnitude is 0 or -1; no -0 can come out of a flushed input
        // except floor(-0.0), which flush already turned into +0.
        a.floor()
    }
}

/// MAX: `a > b ? a : b` (max(0, NaN) = NaN, max(NaN, 0) = 0). No flushing. A `-inf` second
/// operand is not returned: a hardware floating-point test expects `max(0, -inf) = 0` on a real
/// console, where the ISA page's table says -inf (docs/pica-float.md, specs/pica200-facts.md).
#[inline(always)]
pub fn max(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

/// MIN: `a < b ? a : b` (min(0, NaN) = NaN, min(NaN, 0) = 0). No flushing.
#[inline(always)]
pub fn min(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

/// SGE: 1.0 when `a >= b`, else 0.0 (compared as they are, like CMP).
#[inline(always)]
pub fn sge(a: f32, b: f32) -> f32 {
    if a >= b {
        1.0
    } else {
        0.0
    }
}

/// SLT: 1.0 when `a < b`, else 0.0.
#[inline(always)]
pub fn slt(a: f32, b: f32) -> f32 {
    if a < b {
        1.0
    } else {
        0.0
    }
}

/// MOVA's float to integer: truncation toward zero (specs/pica200-facts.md); NaN gives 0 and
/// magnitudes past the i32 range saturate (any value past ±127 is ignored as an offset anyway).
#[inline(always)]
pub fn to_address(a: f32) -> i32 {
    a as i32
}

/// The float24 bit pattern of an f32 that holds a float24 value (anything the interpreter keeps).
/// Subnormal float24 values (from inputs) encode as subnormals; bits below float24 precision, if
/// any, are truncated.
pub fn to_bits24(x: f32) -> u32 {
    let bits = x.to_bits();
    let sign = (bits >> 31) << 23;
    let a = x.abs();
    if x.is_nan() {
        let mant = (bits >> 7) & 0xFFFF;
        return sign | 0x7F_0000 | if mant == 0 { 0x8000 } else { mant };
    }
    if a >= OVERFLOW {
        return sign | 0x7F_0000;
    }
    if a < MIN_NORMAL {
        // Subnormal: the value in units of 2^-78 (exact for float24 values).
        return sign | (a * pow2(78)) as u32;
    }
    let exp = ((bits >> 23) & 0xFF) - 127 + 63;
    sign | exp << 16 | ((bits >> 7) & 0xFFFF)
}

/// The float24 nearest to `x` (ties to even), subnormals kept, overflow to infinity: how the
/// command line turns a decimal number into a float24 input.
pub fn from_f64_nearest(x: f64) -> u32 {
    if x.is_nan() {
        return 0x7F_8000;
    }
    let sign = if x.is_sign_negative() { 0x80_0000 } else { 0 };
    let a = x.abs();
    if a < f64::from_bits(((1023 - 62) as u64) << 52) {
        // Subnormal range: round to a multiple of 2^-78 (which may reach the smallest normal).
        let units = (a * 2f64.powi(78)).round_ties_even();
        return sign | units as u32;
    }
    let bits = a.to_bits();
    // Round the 52-bit fraction to 16 bits, ties to even.
    let dropped = bits & ((1 << 36) - 1);
    let half = 1u64 << 35;
    let mut kept = bits >> 36;
    if dropped > half || (dropped == half && kept & 1 == 1) {
        kept += 1;
    }
    let exp = (kept >> 16) as i64 - 1023 + 63;
    if exp >= 0x7F {
        return sign | 0x7F_0000;
    }
    sign | (exp as u32) << 16 | (kept & 0xFFFF) as u32
}

#[cfg(test)]
mod tests;

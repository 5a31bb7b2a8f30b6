//! The float24 operations of [`super::f24ops`] on [`LANES`] values at once, for the batched
//! executor (`batch.rs`).
//!
//! Each function computes, lane by lane, exactly the bits its scalar twin computes; the property
//! test `batched_runs_match_scalar_runs` and the unit tests below check that. The scalar versions
//! branch (the rounding remainder is only computed on a tie, NaN returns early); these compute
//! every step for every lane and select at the end (ties, overflow and NaN, which need the
//! remainder or special results, send the whole operation the full way), so that the loops over the lanes have no branches and the compiler turns them into SIMD code (SSE2 on the x86-64 baseline: each
//! 32-lane operation is eight 4-wide vector operations). No SIMD crate and no `unsafe`: plain
//! fixed-size array loops, checked in the generated code (docs/pica-interp.md, "Batched
//! execution").

use super::f24ops::{two_prod_err, two_sum_err, MIN_NORMAL, NAN, OVERFLOW};

/// Vertices per batch: 32 measured faster than 8 and 16 on the four benchmark shaders
/// (docs/pica-interp.md).
pub const LANES: usize = 32;

/// One register component across the lanes.
pub(crate) type Lanes = [f32; LANES];

// Plain loops over output arrays: `std::array::from_fn` and `map` are not always inlined, and a
// call per lane defeats the vectorisation.
#[inline(always)]
fn map1(a: &Lanes, f: impl Fn(f32) -> f32) -> Lanes {
    let mut r = [0.0; LANES];
    for (r, a) in r.iter_mut().zip(a) {
        *r = f(*a);
    }
    r
}

#[inline(always)]
fn map2(a: &Lanes, b: &Lanes, f: impl Fn(f32, f32) -> f32) -> Lanes {
    let mut r = [0.0; LANES];
    for ((r, a), b) in r.iter_mut().zip(a).zip(b) {
        *r = f(*a, *b);
    }
    r
}

/// `select(c, x, y)` on f32 bits, written so that it lowers to a mask blend.
#[inline(always)]
fn sel(c: bool, x: f32, y: f32) -> f32 {
    let m = (c as u32).wrapping_neg();
    f32::from_bits((x.to_bits() & m) | (y.to_bits() & !m))
}

#[inline(always)]
fn abs(x: f32) -> f32 {
    f32::from_bits(x.to_bits() & 0x7FFF_FFFF)
}

/// [`super::f24ops::flush`].
#[inline(always)]
fn flush(x: f32) -> f32 {
    sel(abs(x) < MIN_NORMAL, 0.0, x)
}

/// `f24ops::finish`.
#[inline(always)]
fn finish(r: f32) -> f32 {
    let a = abs(r);
    let inf = f32::from_bits((r.to_bits() & 0x8000_0000) | 0x7F80_0000);
    sel(a < MIN_NORMAL, 0.0, sel(a >= OVERFLOW, inf, r))
}

/// [`super::f24ops::round`] with the remainder `lo` always computed (it is only looked at on a
/// tie, as there).
#[inline(always)]
fn round(hi: f32, lo: f32) -> f32 {
    let bits = hi.to_bits();
    let dropped = bits & 0x7F;
    let kept = bits & !0x7F;
    let tie_up = if lo == 0.0 { kept & 0x80 != 0 } else { (lo < 0.0) == (hi < 0.0) };
    let up = (dropped > 0x40) | ((dropped == 0x40) & tie_up);
    let r = finish(f32::from_bits(kept.wrapping_add((up as u32) << 7)));
    sel(hi.is_nan(), NAN, r)
}

#[inline(always)]
fn add_rounded1(a: f32, b: f32) -> f32 {
    let s = a + b;
    round(s, two_sum_err(a, b, s))
}

#[inline(always)]
fn mul1(a: f32, b: f32) -> f32 {
    let (a, b) = (flush(a), flush(b));
    let p = a * b;
    let r = round(p, two_prod_err(a, b, p));
    sel(p.is_nan() & !a.is_nan() & !b.is_nan(), 0.0, r)
}

/// The rounding of [`round`] for a finite value below 2^64 that is not half-way between two
/// float24 values: adding 0x3F carries into the kept bits exactly when the dropped ones are above
/// half. Then the underflow check (`finish` without its overflow case, which is excluded).
#[inline(always)]
fn round_plain(hi: f32) -> f32 {
    let r = f32::from_bits(hi.to_bits().wrapping_add(0x3F) & !0x7F);
    sel(abs(r) < MIN_NORMAL, 0.0, r)
}

/// 1 when [`round_plain`] does not apply to `hi`: a tie (dropped bits exactly 0x40), or a
/// magnitude near 2^64 or above, infinity or NaN (one integer comparison on the magnitude bits,
/// from just below the largest float24's rounding boundary up).
#[inline(always)]
fn is_special(hi: f32) -> u32 {
    let bits = hi.to_bits();
    ((bits & 0x7F == 0x40) | (((bits & 0x7FFF_FFFF) as i32) >= 0x5F7F_0000)) as u32
}

// Each operation first rounds every lane the plain way and notes whether any lane is special;
// ties, overflow and NaN are rare (a tie is one result in 128 at random), and only then are all
// lanes redone by the full rule, as the scalar operation does it.

/// ADD.
#[inline(always)]
pub(crate) fn add(a: &Lanes, b: &Lanes) -> Lanes {
    let mut r = [0.0; LANES];
    let mut special = 0;
    for i in 0..LANES {
        let s = flush(a[i]) + flush(b[i]);
        special |= is_special(s);
        r[i] = round_plain(s);
    }
    if special != 0 {
        return map2(a, b, |a, b| add_rounded1(flush(a), flush(b)));
    }
    r
}

/// MUL (a NaN product of two numbers, inf * 0, is special and goes the full way).
#[inline(always)]
pub(crate) fn mul(a: &Lanes, b: &Lanes) -> Lanes {
    let mut r = [0.0; LANES];
    let mut special = 0;
    for i in 0..LANES {
        let p = flush(a[i]) * flush(b[i]);
        special |= is_special(p);
        r[i] = round_plain(p);
    }
    if special != 0 {
        return map2(a, b, mul1);
    }
    r
}

/// MAD / MADI.
#[inline(always)]
pub(crate) fn mad(a: &Lanes, b: &Lanes, c: &Lanes) -> Lanes {
    add_rounded(&mul(a, b), &map1(c, flush))
}

/// Sum of rounded results (no flush: they are normal or +0 already).
#[inline(always)]
fn add_rounded(a: &Lanes, b: &Lanes) -> Lanes {
    let mut r = [0.0; LANES];
    let mut special = 0;
    for i in 0..LANES {
        let s = a[i] + b[i];
        special |= is_special(s);
        r[i] = round_plain(s);
    }
    if special != 0 {
        return map2(a, b, add_rounded1);
    }
    r
}

/// DP3 of the component products `p(0)`, `p(1)`, `p(2)` (each `mul` of the two sources'
/// components): the executor passes products of sources it reads component by component, so
/// that no four-component copy of a source is made.
#[inline(always)]
pub(crate) fn dp3_of(p: impl Fn(usize) -> Lanes) -> Lanes {
    add_rounded(&add_rounded(&p(0), &p(1)), &p(2))
}

/// DP4 (and DPH, whose `p(3)` is `mul(1, b.w)`, as in [`super::f24ops::dph`]) of the component
/// products, as [`dp3_of`].
#[inline(always)]
pub(crate) fn dp4_of(p: impl Fn(usize) -> Lanes) -> Lanes {
    add_rounded(&dp3_of(&p), &p(3))
}

/// DP3.
#[cfg(test)]
fn dp3(a: &[Lanes; 4], b: &[Lanes; 4]) -> Lanes {
    dp3_of(|c| mul(&a[c], &b[c]))
}

/// DP4.
#[cfg(test)]
fn dp4(a: &[Lanes; 4], b: &[Lanes; 4]) -> Lanes {
    dp4_of(|c| mul(&a[c], &b[c]))
}

/// DPH: the w product is `mul(1, b.w)`, as in [`super::f24ops::dph`].
#[cfg(test)]
fn dph(a: &[Lanes; 4], b: &[Lanes; 4]) -> Lanes {
    dp4_of(|c| if c < 3 { mul(&a[c], &b[c]) } else { mul(&[1.0; LANES], &b[3]) })
}

/// MAX.
#[inline(always)]
pub(crate) fn max(a: &Lanes, b: &Lanes) -> Lanes {
    map2(a, b, |a, b| sel(a > b, a, b))
}

/// MIN.
#[inline(always)]
pub(crate) fn min(a: &Lanes, b: &Lanes) -> Lanes {
    map2(a, b, |a, b| sel(a < b, a, b))
}

/// SGE.
#[inline(always)]
pub(crate) fn sge(a: &Lanes, b: &Lanes) -> Lanes {
    map2(a, b, |a, b| sel(a >= b, 1.0, 0.0))
}

/// SLT.
#[inline(always)]
pub(crate) fn slt(a: &Lanes, b: &Lanes) -> Lanes {
    map2(a, b, |a, b| sel(a < b, 1.0, 0.0))
}

/// FLR: `floor` without a float-to-integer conversion (SSE2 has no vector floor, and the
/// saturating `as i32` does not vectorise): below 2^23 in magnitude, adding and subtracting
/// 2^23 (with the value's sign) rounds to the nearest integer, which is lowered by one when it
/// went up; larger values are integers already. No -0 comes out: `t` is +0 when `a + m == m`.
#[inline(always)]
pub(crate) fn flr(a: &Lanes) -> Lanes {
    map1(a, |a| {
        let a = flush(a);
        let m = f32::from_bits((a.to_bits() & 0x8000_0000) | 0x4B00_0000);
        let t = (a + m) - m;
        let f = sel(t > a, t - 1.0, t);
        let r = sel(abs(a) < 8_388_608.0, f, a);
        sel(a.is_nan(), NAN, r)
    })
}

/// The float24 rounding (17 significant bits, to nearest) of an f64 `y` that approximates a
/// reciprocal or reciprocal square root to within a few f64 ulps, and 1 when `y` lies within
/// 16 ulps of a float24 half-way point: only then could the approximation and the exact value
/// round differently. The exact results of RCP and RSQ are never half-way values (`f24ops::rcp`,
/// `f24ops::rsq`), so half-up rounding of the bits is the rule elsewhere. 64-bit integer adds,
/// masks and shifts only (SSE2 has them; it has no 64-bit comparison, hence the shift test).
#[inline(always)]
fn round_recip(y: f64) -> (f32, u32) {
    const DROP: u64 = (1 << 36) - 1; // f64 keeps 52 fraction bits, float24 16: 36 go.
    const HALF: u64 = 1 << 35;
    let bits = y.to_bits();
    let near = (((bits.wrapping_sub(HALF - 16) & DROP) >> 5) as u32 == 0) as u32;
    let r = f64::from_bits(bits.wrapping_add(HALF) & !DROP);
    // 17 significant bits in the f32 range: the conversion is exact.
    (r as f32, near)
}

/// The input bits RCP and RSQ look at: the float24 part of the flushed value (the scalar
/// operations read the 16 significand bits below bit 7 and ignore the rest). A NaN whose payload
/// lies in the low bits reads as infinity here: the callers test NaN on the flushed value.
#[inline(always)]
fn recip_input(a: f32) -> f32 {
    f32::from_bits(flush(a).to_bits() & !0x7F)
}

/// RCP: `1 / a` in f64 (a correctly rounded division of an exact input), rounded to float24 by
/// [`round_recip`]. Zero, infinity and NaN take their results by selection; a lane near a
/// half-way point, or a finite input of 2^64 or more (not a float24 value; the scalar operation's
/// exponent arithmetic is not meant for it), sends the operation to [`super::f24ops::rcp`].
#[inline(always)]
pub(crate) fn rcp(a: &Lanes) -> Lanes {
    let mut r = [0.0; LANES];
    let mut special = 0;
    for i in 0..LANES {
        let x = recip_input(a[i]);
        let nan = flush(a[i]).is_nan();
        let (v, near) = round_recip(1.0 / x as f64);
        let mag = x.to_bits() & 0x7FFF_FFFF;
        // 2^64 <= |x| < infinity, as one unsigned comparison.
        special |= near | (mag.wrapping_sub(0x5F80_0000) < 0x7F80_0000 - 0x5F80_0000) as u32;
        let v = finish(v);
        let v = sel(x == 0.0, f32::INFINITY, sel(mag == 0x7F80_0000, 0.0, v));
        r[i] = sel(nan, NAN, v);
    }
    if special != 0 {
        return map1(a, super::f24ops::rcp);
    }
    r
}

/// RSQ: `1 / sqrt(a)` in f64 (a square root and a division, each correctly rounded: within
/// two f64 ulps of the exact value), rounded to float24 by [`round_recip`]. Zero, infinity,
/// negative inputs and NaN take their results by selection; a lane near a half-way point sends
/// the operation to [`super::f24ops::rsq`].
#[inline(always)]
pub(crate) fn rsq(a: &Lanes) -> Lanes {
    let mut r = [0.0; LANES];
    let mut special = 0;
    for i in 0..LANES {
        let x = recip_input(a[i]);
        let nan = flush(a[i]).is_nan();
        let (v, near) = round_recip(1.0 / (x as f64).sqrt());
        special |= near;
        let v = finish(v);
        let v = sel(x == 0.0, f32::INFINITY, sel(x == f32::INFINITY, 0.0, v));
        r[i] = sel(nan | (x < 0.0), NAN, v);
    }
    if special != 0 {
        return map1(a, super::f24ops::rsq);
    }
    r
}

/// Negation of every lane (a sign flip, NaN included, as the scalar `-x`).
#[inline(always)]
pub(crate) fn neg(a: &mut Lanes) {
    for x in a.iter_mut() {
        *x = f32::from_bits(x.to_bits() ^ 0x8000_0000);
    }
}

#[cfg(test)]
mod tests {
    use super::super::f24ops as f;
    use super::*;
    use crate::float24::F24;

    /// Values that hit every branch of the scalar operations: zeros, subnormals, the normal
    /// limits, ties, large values, infinities and NaNs (with payloads), plus a pseudo-random
    /// spread of float24 and raw f32 patterns.
    fn values() -> Vec<f32> {
        let mut v = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -0.5,
            1.5,
            -2.5,
            MIN_NORMAL,
            -MIN_NORMAL,
            MIN_NORMAL / 2.0,
            OVERFLOW,
            -OVERFLOW,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::from_bits(0xFFFF_FFFF),
            f32::from_bits(0x7F80_0001),
            8_388_608.0,
            -8_388_607.5,
            1e30,
            -1e-30,
            f32::from_bits(0x3F80_0040),
            f32::from_bits(0x3F80_00C0),
            f32::from_bits(0x3F80_0041),
            // Past the float24 range and at its top, where RCP takes the scalar way.
            f32::from_bits(0x5F7F_FF80),
            f32::from_bits(0x5F80_0000),
            f32::from_bits(0x7F7F_FFFF),
            -f32::MAX,
            f32::MIN_POSITIVE,
            -4.0,
        ];
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..4000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let bits = s as u32;
            // Half raw patterns, half float24 values (low 7 bits clear, exponent near 1).
            v.push(if s & (1 << 40) != 0 {
                f32::from_bits(bits)
            } else {
                f32::from_bits((bits & 0x81FF_FF80) | 0x3E00_0000)
            });
        }
        v
    }

    type Scalar3 = fn(f32, f32, f32) -> f32;
    type Dot = fn([f32; 4], [f32; 4]) -> f32;

    fn same(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits()
    }

    #[test]
    fn lane_ops_match_scalar_ops_bit_for_bit() {
        let v = values();
        let n = v.len();
        for k in 0..n {
            let a: Lanes = std::array::from_fn(|i| v[(k + i) % n]);
            let b: Lanes = std::array::from_fn(|i| v[(k * 7 + i * 13 + 1) % n]);
            let c: Lanes = std::array::from_fn(|i| v[(k * 3 + i * 5 + 2) % n]);
            let checks: [(&str, Lanes, Scalar3); 11] = [
                ("rcp", rcp(&a), |a, _, _| f::rcp(a)),
                ("rsq", rsq(&a), |a, _, _| f::rsq(a)),
                ("add", add(&a, &b), |a, b, _| f::add(a, b)),
                ("mul", mul(&a, &b), |a, b, _| f::mul(a, b)),
                ("mad", mad(&a, &b, &c), f::mad),
                ("max", max(&a, &b), |a, b, _| f::max(a, b)),
                ("min", min(&a, &b), |a, b, _| f::min(a, b)),
                ("sge", sge(&a, &b), |a, b, _| f::sge(a, b)),
                ("slt", slt(&a, &b), |a, b, _| f::slt(a, b)),
                ("flr", flr(&a), |a, _, _| f::flr(a)),
                (
                    "neg",
                    {
                        let mut x = a;
                        neg(&mut x);
                        x
                    },
                    |a, _, _| -a,
                ),
            ];
            for (name, got, want) in checks {
                for i in 0..LANES {
                    let w = want(a[i], b[i], c[i]);
                    assert!(same(got[i], w), "{name}({:?}, {:?}, {:?}) = {:?}, scalar {w:?}", a[i], b[i], c[i], got[i]);
                }
            }
            let a4 = [a, b, c, a];
            let b4 = [c, a, b, b];
            let dots: [(&str, Lanes, Dot); 3] =
                [("dp3", dp3(&a4, &b4), f::dp3), ("dp4", dp4(&a4, &b4), f::dp4), ("dph", dph(&a4, &b4), f::dph)];
            for (name, got, want) in dots {
                for i in 0..LANES {
                    let (x, y) = (a4.map(|l| l[i]), b4.map(|l| l[i]));
                    assert!(same(got[i], want(x, y)), "{name}({x:?}, {y:?})");
                }
            }
        }
    }

    /// RCP and RSQ on every float24 bit pattern (both signs, subnormals, infinities, NaNs). This
    /// holds every significand (with both exponent parities for RSQ) and so the inputs whose exact
    /// results lie nearest a float24 half-way point: the test also finds how near the f64
    /// approximations come to one, in f64 ulps (45,064 when this was written), and checks that it
    /// is past the window in which `round_recip` hands an operation to the scalar way (so the f64
    /// rounding alone decides for every input; the window is a safeguard). Then raw f32 patterns
    /// (bits below float24 precision, magnitudes past its range), pseudo-random.
    #[test]
    fn lane_rcp_and_rsq_match_scalar_on_every_float24_input() {
        let check = |x: &Lanes| {
            let (r, q) = (rcp(x), rsq(x));
            for i in 0..LANES {
                assert!(
                    same(r[i], f::rcp(x[i])),
                    "rcp({:?} = {:#x}) = {:?}, scalar {:?}",
                    x[i],
                    x[i].to_bits(),
                    r[i],
                    f::rcp(x[i])
                );
                assert!(
                    same(q[i], f::rsq(x[i])),
                    "rsq({:?} = {:#x}) = {:?}, scalar {:?}",
                    x[i],
                    x[i].to_bits(),
                    q[i],
                    f::rsq(x[i])
                );
            }
        };
        let mut nearest = u64::MAX;
        for chunk in 0..(1u32 << 24) / LANES as u32 {
            let x: Lanes = std::array::from_fn(|i| F24::from_bits(chunk * LANES as u32 + i as u32).to_f32());
            for &x in &x {
                let x = recip_input(x);
                if x.is_finite() && x > 0.0 {
                    nearest = nearest.min(half_distance(1.0 / x as f64)).min(half_distance(1.0 / (x as f64).sqrt()));
                }
            }
            check(&x);
        }
        assert!(nearest > 16, "an f64 approximation within {nearest} ulps of a half-way point");
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            let x: Lanes = std::array::from_fn(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                f32::from_bits(s as u32)
            });
            check(&x);
        }
    }

    /// How many f64 ulps `y` lies from the nearest float24 half-way point.
    fn half_distance(y: f64) -> u64 {
        let d = y.to_bits() & ((1 << 36) - 1);
        d.abs_diff(1 << 35)
    }

    /// `round_recip` around a half-way point: flagged within 16 ulps on either side, rounded
    /// to the nearer float24 value outside.
    #[test]
    fn round_recip_flags_values_near_half_way() {
        let half = f64::from_bits(1.5f64.to_bits() + (1 << 35)); // between 1.5 and 1.5 + 2^-16
        for k in -40i64..=40 {
            let y = f64::from_bits((half.to_bits() as i64 + k) as u64);
            let (r, near) = round_recip(y);
            assert_eq!(near == 1, (-16..16).contains(&k), "{k}");
            if k.abs() > 16 {
                assert_eq!(r, if k > 0 { 1.5 + 1.0 / 65536.0 } else { 1.5 }, "{k}");
            }
        }
    }
}

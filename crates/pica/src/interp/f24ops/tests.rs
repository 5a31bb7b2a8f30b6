//! The algorithms against an f64 reference. For add, mul and rcp, an f64 result rounded once more
//! to 17 bits equals the exact result rounded to 17 bits (53 >= 2*17 + 2: double rounding is
//! innocuous for +, *, /), so the reference is exact for them.

use super::*;
use crate::float24::F24;

/// Rounds an f64 to float24 by the documented rule (nearest even, unbounded exponent, then flush
/// below 2^-62 and overflow at 2^64).
fn ref_round(x: f64) -> f32 {
    if x.is_nan() {
        return NAN;
    }
    if x.is_infinite() {
        return x as f32;
    }
    if x == 0.0 {
        return 0.0;
    }
    let bits = x.to_bits();
    let dropped = bits & ((1 << 36) - 1);
    let half = 1u64 << 35;
    let mut kept = bits >> 36;
    if dropped > half || (dropped == half && kept & 1 == 1) {
        kept += 1;
    }
    let r = f64::from_bits(kept << 36);
    if r.abs() < 2f64.powi(-62) {
        0.0
    } else if r.abs() >= 2f64.powi(64) {
        f32::INFINITY.copysign(r as f32)
    } else {
        r as f32
    }
}

/// Reproducible sweeps over the shared seeded source.
struct Rng(testkit::Rng);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0.next_u32()
    }
    /// A normal float24 with the exponent field in `lo..=hi`.
    fn f24(&mut self, lo: u32, hi: u32) -> f32 {
        let r = self.next();
        let exp = lo + r % (hi - lo + 1);
        let sign = (self.next() & 1) << 23;
        F24::from_bits(sign | exp << 16 | (self.next() & 0xFFFF)).to_f32()
    }
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits()
}

#[test]
fn add_is_correctly_rounded() {
    let mut rng = Rng(testkit::Rng::new(0x1234_5678_9abc_def1));
    let mut ties = 0;
    for i in 0..400_000 {
        // Narrow exponent windows make exact ties and cancellation frequent.
        let base = 1 + rng.next() % 124;
        let (a, b) = if i % 2 == 0 {
            (rng.f24(base, base + 1), rng.f24(base, base + 20))
        } else {
            (rng.f24(1, 126), rng.f24(1, 126))
        };
        let want = ref_round(a as f64 + b as f64);
        let got = add(a, b);
        assert!(same(got, want), "add({a:e}, {b:e}) = {got:e}, want {want:e}");
        if (a + b).to_bits() & 0x7F == 0x40 {
            ties += 1;
        }
    }
    assert!(ties > 1000, "the sweep must reach the half-way cases ({ties})");
}

#[test]
fn mul_is_correctly_rounded_including_f32_half_way_products() {
    let mut rng = Rng(testkit::Rng::new(0x0bad_cafe_f00d_1234));
    let mut hard = 0;
    for _ in 0..600_000 {
        let e = 30 + rng.next() % 60;
        let a = rng.f24(e, e + 2);
        let b = rng.f24(126 - e - 3, 126 - e);
        let want = ref_round(a as f64 * b as f64);
        let got = mul(a, b);
        assert!(same(got, want), "mul({a:e}, {b:e}) = {got:e}, want {want:e}");
        let p = a * b;
        if p.to_bits() & 0x7F == 0x40 && (a as f64 * b as f64) != p as f64 {
            hard += 1;
        }
    }
    // Products whose f32 rounding lands exactly half-way between float24 values while the exact
    // product does not: only Dekker's error term decides them.
    assert!(hard > 10, "hard cases reached: {hard}");
}

#[test]
fn mul_range_ends() {
    let big = F24::from_bits(0x7EFFFF).to_f32();
    assert_eq!(mul(big, big), f32::INFINITY);
    assert_eq!(mul(big, -big), f32::NEG_INFINITY);
    assert!(same(mul(MIN_NORMAL, 0.5), 0.0));
    assert!(same(mul(-MIN_NORMAL, 0.5), 0.0), "no -0");
    assert!(same(mul(MIN_NORMAL, 1.0), MIN_NORMAL));
    assert!(same(mul(f32::INFINITY, 0.0), 0.0));
    assert!(same(mul(NAN, 0.0), NAN));
}

#[test]
fn rounding_is_to_nearest_even() {
    let one = 1.0f32;
    let ulp = 2f32.powi(-16);
    // 1 + ulp/2: a tie, goes to the even 1.0. 1 + 3ulp/2: tie, goes to 1 + 2ulp.
    assert!(same(add(one, ulp / 2.0 * 1.0), one) || ulp / 2.0 < MIN_NORMAL);
    assert!(same(round(one + ulp / 2.0, || 0.0), one));
    assert!(same(round(one + 1.5 * ulp, || 0.0), one + 2.0 * ulp));
    // Just above the tie goes up; just below goes down.
    assert!(same(round(one + ulp / 2.0, || 1e-30), one + ulp));
    assert!(same(round(one + ulp / 2.0, || -1e-30), one));
}

#[test]
fn rcp_is_correctly_rounded_for_every_significand() {
    for e in [1u32, 2, 30, 62, 63, 64, 100, 125, 126] {
        for m in 0..=0xFFFFu32 {
            for sign in [0, 0x80_0000] {
                let a = F24::from_bits(sign | e << 16 | m).to_f32();
                let want = ref_round(1.0 / a as f64);
                let got = rcp(a);
                assert!(same(got, want), "rcp({a:e}) = {got:e}, want {want:e}");
            }
        }
    }
}

#[test]
fn rsq_matches_the_f64_reference_for_every_significand_and_parity() {
    for e in [1u32, 2, 3, 62, 63, 64, 65, 125, 126] {
        for m in 0..=0xFFFFu32 {
            let a = F24::from_bits(e << 16 | m).to_f32();
            let want = ref_round(1.0 / (a as f64).sqrt());
            let got = rsq(a);
            assert!(same(got, want), "rsq({a:e}) = {got:e}, want {want:e}");
        }
    }
}

/// Distance in float24 ulps of the result (ulp taken at the reference's binade).
fn ulps(got: f32, exact: f64) -> f64 {
    let e = exact.abs().log2().floor();
    ((got as f64 - exact) / 2f64.powf(e - 16.0)).abs()
}

#[test]
fn ex2_is_within_one_ulp_everywhere() {
    let mut worst = 0.0f64;
    let mut not_nearest = 0u32;
    let mut total = 0u32;
    for bits in 0..0x100_0000u32 {
        let v = F24::from_bits(bits);
        let a = v.to_f32();
        // Inputs in [-62, 64): every float24 of magnitude >= 2^-20 (smaller ones give 1.0).
        if !(a.abs() >= 2f32.powi(-20) && (-62.0..64.0).contains(&a)) || v.is_subnormal() {
            continue;
        }
        let exact = (a as f64).exp2();
        let got = ex2(a);
        total += 1;
        if exact >= 2f64.powi(64) {
            assert_eq!(got, f32::INFINITY);
            continue;
        }
        if !same(got, ref_round(exact)) {
            not_nearest += 1;
        }
        worst = worst.max(ulps(got, exact));
    }
    assert!(worst < 1.0, "worst ex2 error {worst} ulp");
    // docs/pica-float.md quotes these figures.
    eprintln!("ex2: worst {worst:.4} ulp, {not_nearest} of {total} results not the nearest float24");
    assert_eq!(ex2(0.0), 1.0);
    assert_eq!(ex2(1e-30), 1.0);
    assert_eq!(ex2(-1e-7), 1.0);
    assert_eq!(ex2(f32::INFINITY), f32::INFINITY);
    assert!(same(ex2(f32::NEG_INFINITY), 0.0));
    assert!(same(ex2(-70.0), 0.0));
    for k in -62..64 {
        assert_eq!(ex2(k as f32), 2f32.powi(k), "ex2({k}) is exact");
    }
}

#[test]
fn lg2_is_within_one_ulp_everywhere() {
    let mut worst = 0.0f64;
    let mut not_nearest = 0u32;
    let mut total = 0u32;
    for bits in 0x01_0000..0x7F_0000u32 {
        let a = F24::from_bits(bits).to_f32();
        let exact = (a as f64).log2();
        let got = lg2(a);
        total += 1;
        if exact == 0.0 {
            assert!(same(got, 0.0));
            continue;
        }
        if !same(got, ref_round(exact)) {
            not_nearest += 1;
        }
        worst = worst.max(ulps(got, exact));
    }
    assert!(worst < 1.0, "worst lg2 error {worst} ulp");
    eprintln!("lg2: worst {worst:.4} ulp, {not_nearest} of {total} results not the nearest float24");
    for k in -62..64 {
        assert_eq!(lg2(2f32.powi(k)), k as f32, "lg2(2^{k}) is exact");
    }
    assert_eq!(lg2(0.0), f32::NEG_INFINITY);
    assert_eq!(lg2(-0.0), f32::NEG_INFINITY);
    assert!(same(lg2(-1.0), NAN));
    assert_eq!(lg2(f32::INFINITY), f32::INFINITY);
}

#[test]
fn bits_round_trip_for_every_float24() {
    for bits in (0..0x100_0000u32).step_by(7) {
        let v = F24::from_bits(bits);
        let x = v.to_f32();
        if x.is_nan() {
            assert_eq!(to_bits24(x) & 0x7F_0000, 0x7F_0000);
            continue;
        }
        assert_eq!(to_bits24(x), bits, "{bits:#08x}");
        assert_eq!(from_f64_nearest(x as f64), bits, "{bits:#08x}");
    }
}

#[test]
fn nearest_conversion_rounds_ties_to_even() {
    // 1 + 2^-17 is half-way between 1 and 1 + 2^-16: to even (1.0).
    assert_eq!(from_f64_nearest(1.0 + 2f64.powi(-17)), 0x3F0000);
    assert_eq!(from_f64_nearest(1.0 + 3.0 * 2f64.powi(-17)), 0x3F0002);
    assert_eq!(from_f64_nearest(1e300), 0x7F0000);
    assert_eq!(from_f64_nearest(-0.0), 0x800000);
    assert_eq!(from_f64_nearest(0.1), 0x3B999A);
}

#[test]
fn flr_and_comparisons() {
    assert_eq!(flr(-0.5), -1.0);
    assert!(same(flr(-1e-30), 0.0), "subnormal input flushed, then floor");
    assert_eq!(flr(2.75), 2.0);
    assert!(same(flr(NAN), NAN));
    let s = F24::from_bits(0x00FFFF).to_f32();
    assert!(same(max(s, 0.0), s));
    assert_eq!(sge(s, 0.0), 1.0);
    assert_eq!(slt(0.0, s), 1.0);
}

//! latte::transc against the true functions: the error in ulp over a sweep of f32 bit patterns
//! (every LATTE_TRANSC_STEP-th pattern, default 251; 1 sweeps all 2^32), the special cases of
//! latte-semantics-facts.md §3, and RECIP / SQRT equal to IEEE 1/x and √x bit for bit.
//! The bounds asserted are the measured maxima of docs/latte-interp.md ("Transcendentals")
//! rounded up.

use latte::transc::{Form, Op};

fn step() -> u64 {
    std::env::var("LATTE_TRANSC_STEP").ok().and_then(|s| s.parse().ok()).filter(|&n| n > 0).unwrap_or(251)
}

/// The ulp of f32 at |v| (subnormal spacing below 2^-126).
fn ulp(v: f64) -> f64 {
    let v = v.abs();
    if v < f64::from(f32::MIN_POSITIVE) {
        return 2f64.powi(-149);
    }
    2f64.powi(v.log2().floor() as i32 - 23)
}

/// The true value (f64) of `op` at x, or None where the result is a special value checked
/// separately or outside f32's finite range.
fn truth(op: Op, x: f32) -> Option<f64> {
    let d = f64::from(x);
    if !x.is_finite() {
        return None;
    }
    let v = match op {
        Op::Exp => d.exp2(),
        Op::Log(_) => {
            if x <= 0.0 {
                return None;
            }
            d.log2()
        }
        Op::Rsq(_) => {
            if x <= 0.0 {
                return None;
            }
            1.0 / d.sqrt()
        }
        Op::Sin | Op::Cos => {
            // Reduced exactly in f64 so that the zeros and ±1 of sin(2πx) are exact.
            let r = d - d.round();
            let q = (4.0 * r).round();
            let t = std::f64::consts::TAU * (r - q / 4.0);
            let q = (q as i64 + i64::from(op == Op::Cos)).rem_euclid(4);
            match q {
                0 => t.sin(),
                1 => t.cos(),
                2 => -t.sin(),
                _ => -t.cos(),
            }
        }
        Op::Recip(_) | Op::Sqrt => return None,
    };
    (v.abs() <= f64::from(f32::MAX)).then_some(v)
}

/// Max ulp error of `op` over the sweep, and the input where it is reached.
fn sweep(op: Op) -> (f64, u32) {
    let mut worst = (0.0f64, 0u32);
    let mut bits: u64 = 0;
    while bits <= u64::from(u32::MAX) {
        let b = bits as u32;
        let x = f32::from_bits(b);
        if let Some(t) = truth(op, x) {
            let r = f64::from(f32::from_bits(op.eval(b)));
            let e = (r - t).abs() / ulp(t);
            if e > worst.0 || e.is_nan() {
                worst = (e, b);
            }
        }
        bits += step();
    }
    worst
}

#[test]
fn error_bounds_over_the_sweep() {
    // Bounds: the measured maxima (docs/latte-interp.md) with a margin for other sweeps.
    let cases = [(Op::Exp, 1.5), (Op::Log(false), 2.5), (Op::Rsq(Form::Ieee), 1.5), (Op::Sin, 2.0), (Op::Cos, 2.0)];
    let mut report = String::new();
    let mut bad = Vec::new();
    for (op, bound) in cases {
        let (e, at) = sweep(op);
        report.push_str(&format!("{}: max {:.3} ulp at {:#010x} ({:e})\n", op.name(), e, at, f32::from_bits(at)));
        if e > bound || e.is_nan() {
            bad.push(op.name());
        }
    }
    println!("step {}\n{report}", step());
    assert!(bad.is_empty(), "over the bound: {bad:?}\n{report}");
}

#[test]
fn recip_and_sqrt_are_ieee() {
    let mut bits: u64 = 0;
    let mut n = 0u64;
    while bits <= u64::from(u32::MAX) {
        let b = bits as u32;
        let x = f32::from_bits(b);
        for (op, want) in [(Op::Recip(Form::Ieee), 1.0 / x), (Op::Sqrt, x.sqrt())] {
            let got = op.eval(b);
            let ok = if want.is_nan() { f32::from_bits(got).is_nan() } else { got == want.to_bits() };
            assert!(ok, "{} of {b:#010x} ({x:e}): {got:#010x}, IEEE {:#010x}", op.name(), want.to_bits());
        }
        n += 1;
        bits += step();
    }
    // Every subnormal input and every input whose reciprocal is subnormal or near overflow.
    for b in (0..0x0080_0000u32).step_by(97).chain(0x7E80_0000..0x7F80_0000).chain([0x0080_0000, 0x7F00_0000]) {
        for s in [0, 0x8000_0000] {
            let x = f32::from_bits(b | s);
            let got = Op::Recip(Form::Ieee).eval(b | s);
            assert_eq!(got, (1.0 / x).to_bits(), "recip of {:#010x}", b | s);
            if s == 0 {
                assert_eq!(Op::Sqrt.eval(b), x.sqrt().to_bits(), "sqrt of {b:#010x}");
            }
        }
    }
    assert!(n > 1000);
}

fn ev(op: Op, x: f32) -> f32 {
    f32::from_bits(op.eval(x.to_bits()))
}

#[test]
fn special_cases() {
    let inf = f32::INFINITY;
    let bits = |v: f32| v.to_bits();
    // EXP
    assert_eq!(bits(ev(Op::Exp, 0.0)), bits(1.0));
    assert_eq!(bits(ev(Op::Exp, -0.0)), bits(1.0));
    assert_eq!(ev(Op::Exp, inf), inf);
    assert_eq!(bits(ev(Op::Exp, -inf)), 0);
    assert_eq!(ev(Op::Exp, 128.0), inf);
    assert_eq!(ev(Op::Exp, 10.0), 1024.0);
    assert_eq!(ev(Op::Exp, -149.0), f32::from_bits(1));
    assert_eq!(ev(Op::Exp, -126.0), f32::MIN_POSITIVE);
    assert_eq!(bits(ev(Op::Exp, -200.0)), 0);
    // LOG
    assert_eq!(ev(Op::Log(false), 0.0), -inf);
    assert_eq!(ev(Op::Log(false), -0.0), -inf);
    assert_eq!(ev(Op::Log(false), inf), inf);
    assert!(ev(Op::Log(false), -1.0).is_nan());
    assert!(ev(Op::Log(false), -inf).is_nan());
    assert_eq!(bits(ev(Op::Log(false), 1.0)), 0);
    assert_eq!(ev(Op::Log(false), 8.0), 3.0);
    assert_eq!(ev(Op::Log(false), f32::from_bits(1)), -149.0);
    assert_eq!(ev(Op::Log(true), 0.0), -f32::MAX);
    assert_eq!(ev(Op::Log(true), -5.0), -f32::MAX);
    assert_eq!(ev(Op::Log(true), f32::NAN), -f32::MAX);
    assert_eq!(ev(Op::Log(true), 0.25), -2.0);
    // RECIPSQRT
    assert_eq!(ev(Op::Rsq(Form::Ieee), 0.0), inf);
    assert_eq!(ev(Op::Rsq(Form::Ieee), -0.0), -inf);
    assert_eq!(ev(Op::Rsq(Form::Clamped), 0.0), f32::MAX);
    assert_eq!(bits(ev(Op::Rsq(Form::Ff), -0.0)), bits(-0.0));
    assert_eq!(bits(ev(Op::Rsq(Form::Ieee), inf)), 0);
    assert!(ev(Op::Rsq(Form::Ieee), -4.0).is_nan());
    assert_eq!(ev(Op::Rsq(Form::Ieee), 4.0), 0.5);
    assert_eq!(ev(Op::Rsq(Form::Ieee), 0.25), 2.0);
    assert_eq!(ev(Op::Rsq(Form::Ieee), 1.0), 1.0);
    // RECIP and SQRT
    assert_eq!(ev(Op::Recip(Form::Clamped), -0.0), -f32::MAX);
    assert_eq!(bits(ev(Op::Recip(Form::Ff), 0.0)), 0);
    assert_eq!(bits(ev(Op::Recip(Form::Ieee), -inf)), bits(-0.0));
    assert!(ev(Op::Sqrt, -1.0).is_nan());
    assert_eq!(bits(ev(Op::Sqrt, -0.0)), bits(-0.0));
    // SIN / COS in revolutions
    assert_eq!(ev(Op::Sin, 0.25), 1.0);
    assert_eq!(ev(Op::Sin, -0.25), -1.0);
    assert_eq!(ev(Op::Cos, 0.5), -1.0);
    assert_eq!(ev(Op::Cos, 0.0), 1.0);
    assert_eq!(ev(Op::Cos, 1e30), 1.0);
    assert_eq!(bits(ev(Op::Sin, -0.0)), bits(-0.0));
    assert_eq!(bits(ev(Op::Sin, 3.0)), 0);
    assert!(ev(Op::Sin, inf).is_nan());
    assert!(ev(Op::Cos, -inf).is_nan());
    let tiny = f32::from_bits(0x0000_1000);
    assert!(ev(Op::Sin, tiny) > 0.0 && ev(Op::Sin, -tiny) < 0.0);
    // A NaN passes through quieted, sign and payload kept.
    for op in [Op::Exp, Op::Log(false), Op::Rsq(Form::Ieee), Op::Recip(Form::Ieee), Op::Sqrt, Op::Sin, Op::Cos] {
        assert_eq!(op.eval(0xFF80_0001), 0xFFC0_0001, "{}", op.name());
    }
}

//! Floats for `.constf` / `.setf`: the shortest decimal that picasso's conversion maps back to the
//! same float24 bits.
//!
//! picasso reads a constant with `atof` (correctly rounded to double), stores it as a C `float`
//! (round to nearest) and converts that to float24 by truncating the mantissa, flushing underflow
//! to a signed zero and saturating overflow to infinity (specs/pica200-facts.md, "float24
//! encoding" and "picasso"). So every f32 whose top bits equal the pattern maps to it, and we look
//! for the shortest decimal whose f32 lands in that range. Two more rules of picasso's
//! `f32tof24` (kept the same as `pica::asm`, docs/pica-asm.md): a zero of either sign gives +0,
//! and infinities and NaN give a signed infinity. So -0 is written as a tiny negative number
//! that underflows, and NaN patterns cannot be written at all.

use crate::float24::F24;

/// What picasso stores for the decimal text `s`.
fn picasso_f24(s: &str) -> Option<F24> {
    let v = s.parse::<f64>().ok()? as f32;
    Some(if v == 0.0 {
        F24::ZERO
    } else if !v.is_finite() {
        F24::from_bits(((v.to_bits() >> 31) << 23) | 0x7F_0000)
    } else {
        F24::from_f32_truncate(v)
    })
}

/// The decimal text for `value`, or `None` when no decimal gives these bits (NaN payloads other
/// than the default quiet NaN).
pub(crate) fn f24_text(value: F24) -> Option<String> {
    let bits = value.bits();
    let sign = if value.is_sign_negative() { "-" } else { "" };
    let exp = (bits >> 16) & 0x7F;
    let mant = bits & 0xFFFF;
    if bits == 0 {
        return Some("0".into());
    }
    if bits == 0x80_0000 {
        // -0: only an underflowing negative number gives it.
        return Some("-1e-30".into());
    }
    if exp == 0x7F {
        // Infinity; NaN patterns have no text (picasso saturates NaN to infinity).
        return (mant == 0).then(|| format!("{sign}inf"));
    }
    // The f32 range that truncates to these bits: exponent (exp - 63 + 127), mantissa mant << 7
    // plus any of the 7 low bits. Note that exponent 0 is not a subnormal here: the truncating
    // encoder maps 1.m * 2^-63 to it.
    let lo_bits = ((exp + 64) << 23) | (mant << 7);
    let lo = f32::from_bits(lo_bits) as f64;
    let hi = f32::from_bits(lo_bits | 0x7F) as f64;
    let mid = (lo + hi) / 2.0;
    for digits in 1..=17 {
        for candidate in [mid, lo] {
            let text = format!("{:.*e}", digits - 1, candidate);
            if picasso_f24(&format!("{sign}{text}")) == Some(value) {
                return Some(format!("{sign}{}", plain(&text)));
            }
        }
    }
    None
}

/// `1.25e-1` as `0.125` where that stays short; very large or small values keep the exponent.
fn plain(sci: &str) -> String {
    let v: f64 = sci.parse().unwrap_or(0.0);
    let exp = v.abs().log10().floor();
    if (-5.0..=15.0).contains(&exp) {
        format!("{v}")
    } else {
        sci.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::approx_constant)] // 3.14159 as sources write it
    fn common_values_print_as_written() {
        let f = |x: f32| f24_text(F24::from_f32_truncate(x)).unwrap();
        assert_eq!(f(1.0), "1");
        assert_eq!(f(0.5), "0.5");
        assert_eq!(f(-1.0), "-1");
        assert_eq!(f(0.1), "0.1");
        // float24 keeps 16 mantissa bits: 3.1416 already gives the bits of 3.14159.
        assert_eq!(f(3.14159), "3.1416");
        assert_eq!(f(0.0), "0");
        assert_eq!(f(f32::INFINITY), "inf");
        assert_eq!(f24_text(F24::from_bits(0x80_0000)).unwrap(), "-1e-30");
        assert_eq!(f24_text(F24::NAN), None);
    }

    /// Every float24 pattern except NaN payloads prints to text that maps back to it.
    #[test]
    fn every_pattern_round_trips() {
        for bits in (0..=0xFF_FFFFu32).step_by(97) {
            let v = F24::from_bits(bits);
            let nan = (bits >> 16) & 0x7F == 0x7F && bits & 0xFFFF != 0;
            match f24_text(v) {
                Some(t) => assert_eq!(picasso_f24(&t), Some(v), "{bits:#08x} -> {t}"),
                None => assert!(nan, "{bits:#08x} has no text"),
            }
        }
    }
}

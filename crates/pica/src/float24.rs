//! The PICA200 24-bit float: 1 sign, 7 exponent (bias 63), 16 mantissa bits.
//!
//! Layout and decode vectors: specs/pica200-facts.md "float24 encoding". Decoding is exact (every
//! float24, subnormals included, is an f32 value); flushing of subnormals belongs to arithmetic and
//! is done by the interpreter, not here.

/// A float24 bit pattern in the low 24 bits.
///
/// ```
/// use pica::float24::F24;
/// assert_eq!(F24::from_bits(0x3F0000).to_f32(), 1.0);
/// assert_eq!(F24::from_f32_truncate(3.0).bits(), 0x408000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct F24(u32);

const SIGN: u32 = 1 << 23;
const EXP_MASK: u32 = 0x7F;
const MANT_BITS: u32 = 16;
const MANT_MASK: u32 = (1 << MANT_BITS) - 1;
/// Exponent bias of float24 (f32's is 127).
const BIAS: i32 = 63;

impl F24 {
    /// +0.0.
    pub const ZERO: F24 = F24(0);
    /// 1.0.
    pub const ONE: F24 = F24(0x3F0000);
    /// +infinity.
    pub const INFINITY: F24 = F24(0x7F0000);
    /// The quiet NaN the hardware produces (and 0x7F8000 decodes to).
    pub const NAN: F24 = F24(0x7F8000);

    /// The float of these 24 bits (higher bits are ignored).
    pub const fn from_bits(bits: u32) -> F24 {
        F24(bits & 0xFF_FFFF)
    }

    /// The 24-bit pattern.
    pub const fn bits(self) -> u32 {
        self.0
    }

    pub const fn is_sign_negative(self) -> bool {
        self.0 & SIGN != 0
    }

    const fn exponent(self) -> u32 {
        (self.0 >> MANT_BITS) & EXP_MASK
    }

    const fn mantissa(self) -> u32 {
        self.0 & MANT_MASK
    }

    /// True for exponent 0 with a non-zero mantissa.
    pub const fn is_subnormal(self) -> bool {
        self.exponent() == 0 && self.mantissa() != 0
    }

    /// The exact f32 value. Every float24 is representable: subnormals included (2^-78 is an
    /// f32 normal), infinities and NaN keep their sign and NaN its payload in the top mantissa bits.
    pub fn to_f32(self) -> f32 {
        let sign = (self.0 & SIGN) << 8;
        let exp = self.exponent();
        let mant = self.mantissa();
        if exp == EXP_MASK {
            return f32::from_bits(sign | 0x7F80_0000 | (mant << 7));
        }
        if exp == 0 {
            // 0.mant * 2^(1-63): scale the integer mantissa exactly.
            let magnitude = mant as f32 * f32::from_bits(((1 - BIAS - MANT_BITS as i32 + 127) as u32) << 23);
            return f32::from_bits(sign | magnitude.to_bits());
        }
        let exp32 = exp as i32 - BIAS + 127;
        f32::from_bits(sign | ((exp32 as u32) << 23) | (mant << 7))
    }

    /// picasso's conversion (used for `.constf`, `.constfa`, `.setf`): truncate the mantissa,
    /// flush underflow to a signed zero, saturate overflow to infinity (specs/pica200-facts.md).
    /// NaN keeps its top mantissa bits.
    pub fn from_f32_truncate(value: f32) -> F24 {
        let bits = value.to_bits();
        let sign = (bits >> 31) << 23;
        let exp32 = ((bits >> 23) & 0xFF) as i32;
        let mant = (bits & 0x7F_FFFF) >> 7;
        if exp32 == 0xFF {
            let mant = if bits & 0x7F_FFFF != 0 && mant == 0 { 1 << 15 } else { mant };
            return F24(sign | (EXP_MASK << MANT_BITS) | mant);
        }
        let exp = exp32 - 127 + BIAS;
        if exp < 0 {
            F24(sign)
        } else if exp > EXP_MASK as i32 {
            F24(sign | (EXP_MASK << MANT_BITS))
        } else {
            F24(sign | ((exp as u32) << MANT_BITS) | mant)
        }
    }
}

impl From<F24> for f32 {
    fn from(v: F24) -> f32 {
        v.to_f32()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decode vectors of specs/pica200-facts.md "float24 encoding".
    #[test]
    fn decode_vectors_from_facts() {
        assert_eq!(F24::from_bits(0x3F0000).to_f32(), 1.0);
        assert_eq!(F24::from_bits(0x408000).to_f32(), 3.0);
        assert_eq!(F24::from_bits(0x7F0000).to_f32(), f32::INFINITY);
        assert!(F24::from_bits(0x7F8000).to_f32().is_nan());
        assert_eq!(F24::from_bits(0x010000).to_f32().to_bits(), 0x2080_0000);
        assert_eq!(F24::from_bits(0x7EFFFF).to_f32().to_bits(), 0x5F7F_FF80);
    }

    #[test]
    fn subnormals_decode_exactly() {
        // Largest subnormal: (2^16 - 1) * 2^-78.
        let s = F24::from_bits(0x00FFFF).to_f32();
        assert_eq!(s as f64, 65535.0 * 2f64.powi(-78));
        assert_eq!(F24::from_bits(0x800001).to_f32() as f64, -(2f64.powi(-78)));
    }

    #[test]
    fn truncating_encoder_matches_picasso_rules() {
        assert_eq!(F24::from_f32_truncate(1.0).bits(), 0x3F0000);
        assert_eq!(F24::from_f32_truncate(0.0).bits(), 0);
        // 1 + 2^-17 has a mantissa bit below float24's precision: truncated.
        assert_eq!(F24::from_f32_truncate(1.0 + 2f32.powi(-17)).bits(), 0x3F0000);
        assert_eq!(F24::from_f32_truncate(1e30).bits(), 0x7F0000);
        assert_eq!(F24::from_f32_truncate(-1e30).bits(), 0xFF0000);
        assert_eq!(F24::from_f32_truncate(1e-30).bits(), 0);
        assert_eq!(F24::from_f32_truncate(-2.5).bits(), 0xC04000);
    }

    #[test]
    fn every_normal_pattern_round_trips_through_f32() {
        for bits in 0..=0xFF_FFFFu32 {
            let v = F24::from_bits(bits);
            if v.is_subnormal() || v.exponent() == EXP_MASK || (v.exponent() == 0 && v.mantissa() == 0) {
                continue;
            }
            assert_eq!(F24::from_f32_truncate(v.to_f32()), v, "{bits:#08x}");
        }
    }
}

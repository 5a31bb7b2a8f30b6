//! The transcendental ALU operations (EXP_IEEE, LOG_IEEE / LOG_CLAMPED, RECIP_*, RECIPSQRT_*,
//! SQRT_IEEE, SIN, COS; latte-semantics-facts.md §3), written once over the [`Exact`] trait.
//!
//! Every step is an operation whose result a Vulkan device defines to the bit: f32 add, sub and
//! mul (correctly rounded; the translation marks them `NoContraction`), 32-bit integer
//! arithmetic and bit operations, comparisons, selects and small integer to float conversions.
//! No division and no device math function is used, so the interpreter ([`Scalar`]) and the
//! shader the translation emits (crates/translate, its `Exact` implementation) compute the same
//! bits. No intermediate that reaches a result is an f32 subnormal (inputs are normalised with
//! integer steps, subnormal results built by integer rounding), so devices that flush
//! subnormals in arithmetic agree as well.
//!
//! RECIP_* and SQRT_IEEE are correctly rounded (an f32 first guess corrected by exact integer
//! residuals), so they equal IEEE `1/x` and `sqrt(x)`. EXP, LOG, RECIPSQRT, SIN and COS are
//! range reduction plus a polynomial; their measured error bounds are in docs/latte-interp.md
//! ("Transcendentals").

mod algo;
mod scalar;

pub use algo::{cos, exp, log, recip, rsq, sin, sqrt};
pub use scalar::Scalar;

/// The operations an algorithm is built from: values are 32-bit lanes (floats as their bits),
/// conditions are booleans. Float operations round to nearest even and are never fused.
pub trait Exact {
    /// A 32-bit lane.
    type V: Copy;
    /// A condition.
    type B: Copy;
    /// The constant `bits`.
    fn k(&mut self, bits: u32) -> Self::V;
    /// f32 `a + b`.
    fn fadd(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// f32 `a - b`.
    fn fsub(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// f32 `a * b`.
    fn fmul(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Wrapping integer `a + b`.
    fn iadd(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Wrapping integer `a - b`.
    fn isub(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// The low 32 bits of `a * b`.
    fn imul(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Bitwise and.
    fn and(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Bitwise or.
    fn or(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Bitwise exclusive or.
    fn xor(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// `a << n`, for `n < 32`.
    fn shl(&mut self, a: Self::V, n: Self::V) -> Self::V;
    /// Logical `a >> n`, for `n < 32`.
    fn shr(&mut self, a: Self::V, n: Self::V) -> Self::V;
    /// Arithmetic `a >> n` (of the i32 value), for `n < 32`.
    fn sar(&mut self, a: Self::V, n: Self::V) -> Self::V;
    /// The i32 value `a` as an f32; used only where |a| < 2^24, so exact.
    fn i2f(&mut self, a: Self::V) -> Self::V;
    /// f32 `a < b` (false when either is NaN).
    fn flt(&mut self, a: Self::V, b: Self::V) -> Self::B;
    /// `a == b` as integers.
    fn ieq(&mut self, a: Self::V, b: Self::V) -> Self::B;
    /// `a < b` as i32.
    fn ilt(&mut self, a: Self::V, b: Self::V) -> Self::B;
    /// `a < b` as u32.
    fn ult(&mut self, a: Self::V, b: Self::V) -> Self::B;
    /// `c ? a : b`.
    fn sel(&mut self, c: Self::B, a: Self::V, b: Self::V) -> Self::V;
    /// `a && b`.
    fn band(&mut self, a: Self::B, b: Self::B) -> Self::B;
    /// `a || b`.
    fn bor(&mut self, a: Self::B, b: Self::B) -> Self::B;
    /// `!a`.
    fn bnot(&mut self, a: Self::B) -> Self::B;
}

/// The ±inf rule of the RECIP and RECIPSQRT forms (§3): IEEE keeps ±inf, CLAMPED gives
/// ±FLT_MAX, FF gives ±0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// The _IEEE form.
    Ieee,
    /// The _CLAMPED form.
    Clamped,
    /// The _FF form.
    Ff,
}

/// One transcendental operation, as the ALU opcode names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// EXP_IEEE: 2^x.
    Exp,
    /// LOG_IEEE (`false`) or LOG_CLAMPED (`true`): log2(x).
    Log(bool),
    /// RECIP_*: 1/x, correctly rounded.
    Recip(Form),
    /// RECIPSQRT_*: 1/√x.
    Rsq(Form),
    /// SQRT_IEEE: √x, correctly rounded.
    Sqrt,
    /// SIN: sin(2π·x).
    Sin,
    /// COS: cos(2π·x).
    Cos,
}

impl Op {
    /// The operation of an OP2 opcode (R700 values, §1.13), if it is one of these.
    pub fn from_op2(code: u16) -> Option<Op> {
        Some(match code {
            0x61 => Op::Exp,
            0x62 => Op::Log(true),
            0x63 => Op::Log(false),
            0x64 => Op::Recip(Form::Clamped),
            0x65 => Op::Recip(Form::Ff),
            0x66 => Op::Recip(Form::Ieee),
            0x67 => Op::Rsq(Form::Clamped),
            0x68 => Op::Rsq(Form::Ff),
            0x69 => Op::Rsq(Form::Ieee),
            0x6A => Op::Sqrt,
            0x6E => Op::Sin,
            0x6F => Op::Cos,
            _ => return None,
        })
    }

    /// A short lower-case name (for shader function names and reports).
    pub fn name(self) -> &'static str {
        match self {
            Op::Exp => "exp_ieee",
            Op::Log(false) => "log_ieee",
            Op::Log(true) => "log_clamped",
            Op::Recip(Form::Ieee) => "recip_ieee",
            Op::Recip(Form::Clamped) => "recip_clamped",
            Op::Recip(Form::Ff) => "recip_ff",
            Op::Rsq(Form::Ieee) => "recipsqrt_ieee",
            Op::Rsq(Form::Clamped) => "recipsqrt_clamped",
            Op::Rsq(Form::Ff) => "recipsqrt_ff",
            Op::Sqrt => "sqrt_ieee",
            Op::Sin => "sin",
            Op::Cos => "cos",
        }
    }

    /// Builds the operation on `x` with `e`.
    pub fn emit<E: Exact>(self, e: &mut E, x: E::V) -> E::V {
        match self {
            Op::Exp => exp(e, x),
            Op::Log(c) => log(e, x, c),
            Op::Recip(f) => recip(e, x, f),
            Op::Rsq(f) => rsq(e, x, f),
            Op::Sqrt => sqrt(e, x),
            Op::Sin => sin(e, x),
            Op::Cos => cos(e, x),
        }
    }

    /// The operation on the bits `x`, computed on the CPU.
    pub fn eval(self, x: u32) -> u32 {
        self.emit(&mut Scalar, x)
    }
}

//! [`Exact`] on the CPU: the interpreter's implementation.

use super::Exact;

/// Evaluates the algorithms on `u32` lanes with Rust's f32 arithmetic (IEEE binary32, round to
/// nearest even, never fused).
#[derive(Clone, Copy, Debug, Default)]
pub struct Scalar;

#[inline]
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

impl Exact for Scalar {
    type V = u32;
    type B = bool;
    fn k(&mut self, bits: u32) -> u32 {
        bits
    }
    fn fadd(&mut self, a: u32, b: u32) -> u32 {
        (f(a) + f(b)).to_bits()
    }
    fn fsub(&mut self, a: u32, b: u32) -> u32 {
        (f(a) - f(b)).to_bits()
    }
    fn fmul(&mut self, a: u32, b: u32) -> u32 {
        (f(a) * f(b)).to_bits()
    }
    fn iadd(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_add(b)
    }
    fn isub(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_sub(b)
    }
    fn imul(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_mul(b)
    }
    fn and(&mut self, a: u32, b: u32) -> u32 {
        a & b
    }
    fn or(&mut self, a: u32, b: u32) -> u32 {
        a | b
    }
    fn xor(&mut self, a: u32, b: u32) -> u32 {
        a ^ b
    }
    fn shl(&mut self, a: u32, n: u32) -> u32 {
        a << (n & 31)
    }
    fn shr(&mut self, a: u32, n: u32) -> u32 {
        a >> (n & 31)
    }
    fn sar(&mut self, a: u32, n: u32) -> u32 {
        ((a as i32) >> (n & 31)) as u32
    }
    fn i2f(&mut self, a: u32) -> u32 {
        (a as i32 as f32).to_bits()
    }
    fn flt(&mut self, a: u32, b: u32) -> bool {
        f(a) < f(b)
    }
    fn ieq(&mut self, a: u32, b: u32) -> bool {
        a == b
    }
    fn ilt(&mut self, a: u32, b: u32) -> bool {
        (a as i32) < (b as i32)
    }
    fn ult(&mut self, a: u32, b: u32) -> bool {
        a < b
    }
    fn sel(&mut self, c: bool, a: u32, b: u32) -> u32 {
        if c {
            a
        } else {
            b
        }
    }
    fn band(&mut self, a: bool, b: bool) -> bool {
        a && b
    }
    fn bor(&mut self, a: bool, b: bool) -> bool {
        a || b
    }
    fn bnot(&mut self, a: bool) -> bool {
        !a
    }
}

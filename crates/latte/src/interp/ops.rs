//! ALU arithmetic on 32-bit lanes (latte-semantics-facts.md §3). Every function takes and
//! returns bit patterns; "float" means the lane reinterpreted as IEEE binary32.
//!
//! The choices for the open points of §3 / §6.4 are written once here and in
//! docs/latte-interp.md ("Arithmetic decisions").

use crate::transc::Op;

/// A result: its bits, and whether it is a float (OMOD and CLAMP apply only to floats, §1.12).
pub(crate) type Val = (u32, bool);

#[inline]
pub(crate) fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

#[inline]
fn fv(x: f32) -> Val {
    (x.to_bits(), true)
}

#[inline]
fn iv(x: u32) -> Val {
    (x, false)
}

/// The non-IEEE multiply of MUL, MULADD and DOT4 (§3): 0 × anything = +0, even inf or NaN
/// (decision: the zero is +0.0, as Cemu writes it).
#[inline]
pub(crate) fn mul_legacy(a: f32, b: f32) -> f32 {
    if a == 0.0 || b == 0.0 {
        0.0
    } else {
        a * b
    }
}

/// Comparison kinds of SET*, PRED_SET*, KILL* and CND*.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// Equal.
    E,
    /// Greater than.
    Gt,
    /// Greater or equal.
    Ge,
    /// Not equal (unordered for floats).
    Ne,
}

/// Operand types of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// IEEE binary32.
    F,
    /// Signed 32-bit integer.
    I,
    /// Unsigned 32-bit integer.
    U,
}

/// `a op b`. Floats: IEEE ordered E/GT/GE, and NE *unordered* (NaN != x is true; decision on
/// §3 SETNE, docs/latte-interp.md).
pub(crate) fn compare(c: Cmp, t: Ty, a: u32, b: u32) -> bool {
    match t {
        Ty::F => {
            let (a, b) = (f(a), f(b));
            match c {
                Cmp::E => a == b,
                Cmp::Gt => a > b,
                Cmp::Ge => a >= b,
                Cmp::Ne => a != b,
            }
        }
        Ty::I => {
            let (a, b) = (a as i32, b as i32);
            match c {
                Cmp::E => a == b,
                Cmp::Gt => a > b,
                Cmp::Ge => a >= b,
                Cmp::Ne => a != b,
            }
        }
        Ty::U => match c {
            Cmp::E => a == b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Ne => a != b,
        },
    }
}

const CMP4: [Cmp; 4] = [Cmp::E, Cmp::Gt, Cmp::Ge, Cmp::Ne];

/// The comparison of a SET* opcode (OP2 code) and whether it writes 1.0f/0.0f (true) or
/// 0xFFFFFFFF/0 (false) (§3).
pub fn set_cmp(code: u16) -> Option<(Cmp, Ty, bool)> {
    Some(match code {
        0x08..=0x0B => (CMP4[(code - 0x08) as usize], Ty::F, true),
        0x0C..=0x0F => (CMP4[(code - 0x0C) as usize], Ty::F, false),
        0x3A..=0x3D => (CMP4[(code - 0x3A) as usize], Ty::I, false),
        0x3E => (Cmp::Gt, Ty::U, false),
        0x3F => (Cmp::Ge, Ty::U, false),
        _ => return None,
    })
}

/// The comparison of a PRED_SET* opcode (E/GT/GE/NE forms only; §2.5).
pub fn pred_cmp(code: u16) -> Option<(Cmp, Ty)> {
    Some(match code {
        0x20..=0x23 => (CMP4[(code - 0x20) as usize], Ty::F),
        0x42..=0x45 => (CMP4[(code - 0x42) as usize], Ty::I),
        0x1E => (Cmp::Gt, Ty::U),
        0x1F => (Cmp::Ge, Ty::U),
        _ => return None,
    })
}

/// The comparison of a KILL* opcode (§2.6).
pub fn kill_cmp(code: u16) -> Option<(Cmp, Ty)> {
    Some(match code {
        0x2C..=0x2F => (CMP4[(code - 0x2C) as usize], Ty::F),
        0x46..=0x49 => (CMP4[(code - 0x46) as usize], Ty::I),
        0x40 => (Cmp::Gt, Ty::U),
        0x41 => (Cmp::Ge, Ty::U),
        _ => return None,
    })
}

/// FLT_TO_INT / FLT_TO_UINT: truncation (§3, inferred); NaN gives 0 and out-of-range values
/// saturate (decision).
fn flt_to_int(x: f32) -> u32 {
    x as i32 as u32
}

/// MAX / MIN in their DX9 form: `a >= b ? a : b` / `a < b ? a : b` (§3; a NaN operand yields
/// b, decision).
fn max_dx9(a: f32, b: f32) -> f32 {
    if a >= b {
        a
    } else {
        b
    }
}

fn min_dx9(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

/// MAX_DX10 / MIN_DX10: a NaN operand yields the other one (§3, MS-MAX); denormals kept
/// (decision: IEEE).
fn max_dx10(a: f32, b: f32, max: bool) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() {
        a
    } else if max {
        max_dx9(a, b)
    } else {
        min_dx9(a, b)
    }
}

/// An OP2 opcode of class Plain (the table's class column, `isa::table::AluClass::Plain`) on
/// its sources. `None`: not implemented (the caller reports it as unsupported, by name).
pub(crate) fn op2_plain(code: u16, s: [u32; 3]) -> Option<Val> {
    let (a, b) = (f(s[0]), f(s[1]));
    let (ia, ib) = (s[0] as i32, s[1] as i32);
    // The transcendentals: one algorithm shared with the translation (crate::transc).
    if let Some(op) = Op::from_op2(code) {
        return Some((op.eval(s[0]), true));
    }
    if let Some((c, t, float)) = set_cmp(code) {
        let r = compare(c, t, s[0], s[1]);
        return Some(if float { fv(if r { 1.0 } else { 0.0 }) } else { iv(if r { !0 } else { 0 }) });
    }
    Some(match code {
        0x00 => fv(a + b),
        0x01 => fv(mul_legacy(a, b)),
        0x02 => fv(a * b),
        0x03 => fv(max_dx9(a, b)),
        0x04 => fv(min_dx9(a, b)),
        0x05 => fv(max_dx10(a, b, true)),
        0x06 => fv(max_dx10(a, b, false)),
        0x10 => fv(a - a.floor()),
        0x11 => fv(a.trunc()),
        0x12 => fv(a.ceil()),
        0x13 => fv(a.round_ties_even()),
        0x14 => fv(a.floor()),
        0x19 => (s[0], true),
        0x30 => iv(s[0] & s[1]),
        0x31 => iv(s[0] | s[1]),
        0x32 => iv(s[0] ^ s[1]),
        0x33 => iv(!s[0]),
        0x34 => iv(s[0].wrapping_add(s[1])),
        // SUB_INT is src0 - src1 (§3, Cemu's tests).
        0x35 => iv(s[0].wrapping_sub(s[1])),
        0x36 => iv(ia.max(ib) as u32),
        0x37 => iv(ia.min(ib) as u32),
        0x38 => iv(s[0].max(s[1])),
        0x39 => iv(s[0].min(s[1])),
        0x6B => iv(flt_to_int(a)),
        0x6C => fv(ia as f32),
        0x6D => fv(s[0] as f32),
        // Shift counts use their low 5 bits (§3, decision).
        0x70 => iv((ia >> (s[1] & 31)) as u32),
        0x71 => iv(s[0] >> (s[1] & 31)),
        0x72 => iv(s[0] << (s[1] & 31)),
        0x73 => iv(ia.wrapping_mul(ib) as u32),
        0x74 => iv(((ia as i64 * ib as i64) >> 32) as u32),
        0x75 => iv(s[0].wrapping_mul(s[1])),
        0x76 => iv(((s[0] as u64 * s[1] as u64) >> 32) as u32),
        0x77 => iv(recip_int(ia)),
        0x78 => iv(recip_uint(s[0])),
        0x79 => iv(a as u32),
        _ => return None,
    })
}

/// RECIP_UINT: the exact reciprocal estimate floor(2^32 / x) as a 0.32 fixed-point value,
/// saturated to 0xFFFFFFFF (x = 0 and x = 1); facts §3 leave it open (decision,
/// docs/latte-interp.md).
fn recip_uint(x: u32) -> u32 {
    if x <= 1 {
        u32::MAX
    } else {
        ((1u64 << 32) / x as u64) as u32
    }
}

/// RECIP_INT: trunc(2^31 / x) as a signed 1.31 fixed-point value, saturated to the i32 range;
/// x = 0 gives i32::MAX (decision).
fn recip_int(x: i32) -> u32 {
    if x == 0 {
        return i32::MAX as u32;
    }
    ((1i64 << 31) / x as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32
}

/// PRED_SET_INV / PRED_SET_POP / PRED_SET_CLR / PRED_SET_RESTORE (OP2 0x24-0x27): the
/// predicate-counter forms of the R600 family, where a counter of 0.0 means "run". Returns the
/// result value and the predicate (facts §2.5 leave them open; decision, docs/latte-interp.md):
/// - INV: src0 == 1.0 gives (0.0, true), anything else (1.0, false);
/// - POP: src0 <= 0.0 gives (0.0, true), else (src0 - src1, false);
/// - CLR: (FLT_MAX, false);
/// - RESTORE: src0 == 0.0 gives (0.0, true), else (src0, false).
pub(crate) fn pred_counter(code: u16, s: [u32; 3]) -> Option<(u32, bool)> {
    let (a, b) = (f(s[0]), f(s[1]));
    let z = 0.0f32.to_bits();
    Some(match code {
        0x24 => {
            if a == 1.0 {
                (z, true)
            } else {
                (1.0f32.to_bits(), false)
            }
        }
        0x25 => {
            if a <= 0.0 {
                (z, true)
            } else {
                ((a - b).to_bits(), false)
            }
        }
        0x26 => (f32::MAX.to_bits(), false),
        0x27 => {
            if a == 0.0 {
                (z, true)
            } else {
                (s[0], false)
            }
        }
        _ => return None,
    })
}

/// PRED_SETx_PUSH (0x28-0x2B, float) and PRED_SETx_PUSH_INT (0x4A-0x4F): the nested
/// predicate-counter push. src1 is the counter (0 = running), src0 the value compared with 0:
/// when the counter is 0 and `src0 op 0` holds the result is 0 and the predicate true, else the
/// result is counter + 1 and the predicate false (decision, docs/latte-interp.md; they change no
/// CF stack). The float forms count in floats, the integer forms in integers.
pub(crate) fn pred_push(code: u16, s: [u32; 3]) -> Option<(u32, bool, bool)> {
    let (cmp, ty) = match code {
        0x28..=0x2B => (CMP4[(code - 0x28) as usize], Ty::F),
        0x4A..=0x4D => (CMP4[(code - 0x4A) as usize], Ty::I),
        0x4E | 0x4F => (Cmp::Gt, Ty::I),
        _ => return None,
    };
    let float = ty == Ty::F;
    let pass = match code {
        // LT / LE: 0 > src0 / !(src0 > 0), with the operands swapped as the compiler would.
        0x4E => compare(Cmp::Gt, Ty::I, 0, s[0]),
        0x4F => !compare(Cmp::Gt, Ty::I, s[0], 0),
        _ => compare(cmp, ty, s[0], if float { 0.0f32.to_bits() } else { 0 }),
    };
    let zero = if float { f(s[1]) == 0.0 } else { s[1] == 0 };
    Some(if zero && pass {
        (if float { 0.0f32.to_bits() } else { 0 }, true, float)
    } else if float {
        ((f(s[1]) + 1.0).to_bits(), false, true)
    } else {
        (s[1].wrapping_add(1), false, false)
    })
}

/// An OP3 opcode. `None`: not implemented.
pub(crate) fn op3(code: u16, s: [u32; 3]) -> Option<Val> {
    let (a, b, c) = (f(s[0]), f(s[1]), f(s[2]));
    let scale = |x: f32, k: u16| match k & 3 {
        1 => x * 2.0,
        2 => x * 4.0,
        3 => x * 0.5,
        _ => x,
    };
    Some(match code {
        // MULADD(_M2/_M4/_D2): MUL's zero rule, unfused, the scale after the add (§3).
        0x10..=0x13 => fv(scale(mul_legacy(a, b) + c, code)),
        0x14..=0x17 => fv(scale(a * b + c, code)),
        // MUL_LIT(_M2/_M4/_D2), the LIT helper (src0 = the exponent w, src1 = log2 of y, src2 =
        // x): -FLT_MAX when src1 is -FLT_MAX, -inf or NaN, or src2 <= 0 or NaN; else src0 * src1
        // with MUL's zero rule, then the scale (decision after the R600-family description,
        // docs/latte-interp.md).
        0x0C..=0x0F => {
            let dead = b == -f32::MAX || b == f32::NEG_INFINITY || b.is_nan() || c.is_nan() || c <= 0.0;
            fv(if dead { -f32::MAX } else { scale(mul_legacy(a, b), code) })
        }
        // CNDx: src0 compared with 0.0 (-0 counts as 0; NaN fails) selects src1 or src2.
        0x18 => (if a == 0.0 { s[1] } else { s[2] }, true),
        0x19 => (if a > 0.0 { s[1] } else { s[2] }, true),
        0x1A => (if a >= 0.0 { s[1] } else { s[2] }, true),
        0x1C => iv(if s[0] as i32 == 0 { s[1] } else { s[2] }),
        0x1D => iv(if s[0] as i32 > 0 { s[1] } else { s[2] }),
        0x1E => iv(if s[0] as i32 >= 0 { s[1] } else { s[2] }),
        _ => return None,
    })
}

/// OMOD (0 off, 1 ×2, 2 ×4, 3 ÷2) then CLAMP to [0, 1] (§1.12, Cemu's order); under
/// DX10_CLAMP a NaN clamps to 0 (decision).
pub(crate) fn modify(v: Val, omod: u8, clamp: bool, arith: bool) -> u32 {
    let (bits, float) = v;
    if !float || (omod == 0 && !clamp) {
        return if float && arith { canonical_nan(bits) } else { bits };
    }
    let mut x = f(bits);
    x = match omod {
        1 => x * 2.0,
        2 => x * 4.0,
        3 => x * 0.5,
        _ => x,
    };
    if clamp {
        x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    }
    // OMOD is a float multiply: its NaN is as unspecified as an arithmetic op's.
    canonical_nan(x.to_bits())
}

/// The one NaN an arithmetic float result carries ([`nan_canonical_op`]): positive, quiet, no
/// payload.
pub const CANONICAL_NAN: u32 = 0x7FC0_0000;

/// `bits`, or [`CANONICAL_NAN`] when `bits` is any NaN.
pub fn canonical_nan(bits: u32) -> u32 {
    if bits & 0x7FFF_FFFF > 0x7F80_0000 {
        CANONICAL_NAN
    } else {
        bits
    }
}

/// Whether the ALU opcode `name` computes its result with float arithmetic (add, multiply,
/// rounding, the transcendentals, CUBE, DOT4, and the subtraction / increment of the float
/// predicate counters PRED_SET_POP and PRED_SETx_PUSH), so a NaN result becomes
/// [`CANONICAL_NAN`].
/// Neither IEEE 754 (§6.3: a NaN result's sign is unspecified but for copy, negate, abs and
/// copySign), Rust's float semantics nor Vulkan fix the sign or payload of such a NaN, and
/// lavapipe's compiler does fold `a + (-b)` into `a - b`, which keeps `b`'s sign where the
/// unfolded form flips it (docs/latte-interp.md "NaN results"). Moves, selects, MAX/MIN and
/// the integer opcodes keep their bits.
pub fn nan_canonical_op(name: &str) -> bool {
    const ARITH: [&str; 15] = [
        "ADD", "MUL", "DOT4", "FRACT", "TRUNC", "CEIL", "RNDNE", "FLOOR", "CUBE", "EXP_IEEE", "LOG_", "RECIP", "SQRT",
        "SIN", "COS",
    ];
    let counter = name == "PRED_SET_POP" || (name.starts_with("PRED_SET") && name.ends_with("_PUSH"));
    !name.contains("INT") && (counter || ARITH.iter().any(|a| name.starts_with(a)))
}

/// CUBE (§3, NIR `cube_amd`): from the vector v, (tc, sc, 2·ma, face id), the later axis
/// winning ties.
pub(crate) fn cube(v: [f32; 3]) -> [f32; 4] {
    let [x, y, z] = v;
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let mut out = [0.0f32; 4];
    if ax >= ay && ax >= az {
        out = if x >= 0.0 { [-y, -z, 2.0 * x, 0.0] } else { [-y, z, 2.0 * x, 1.0] };
    }
    if ay >= ax && ay >= az {
        out = if y >= 0.0 { [z, x, 2.0 * y, 2.0] } else { [-z, x, 2.0 * y, 3.0] };
    }
    if az >= ax && az >= ay {
        out = if z >= 0.0 { [-y, x, 2.0 * z, 4.0] } else { [-y, -x, 2.0 * z, 5.0] };
    }
    out
}

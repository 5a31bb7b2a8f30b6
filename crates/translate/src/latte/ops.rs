//! ALU arithmetic as naga expressions on 32-bit lanes, one function per rule of
//! latte-semantics-facts.md §3 and docs/latte-interp.md ("ALU"): each mirrors the function of
//! `latte::interp` (ops.rs) that it is checked against on the device. Values are `u32` bit
//! patterns; floats are bitcast at each use.
//!
//! Selects work on bit patterns, never on floats: a float select of a comparison of the same
//! operands is what compilers turn into min/max instructions, which may return either sign of
//! zero (docs/pica-translate.md "Driver facts"). NaN tests are integer tests of the bits, which
//! no driver folds away.

use naga::{BinaryOperator as B, MathFunction as M, ScalarKind};

use super::flow::Em;

pub(crate) type H = naga::Handle<naga::Expression>;

pub(crate) use ::latte::interp::{kill_cmp, pred_cmp, set_cmp, Cmp, Ty};
use ::latte::transc::{Form, Op};

const CMP4: [Cmp; 4] = [Cmp::E, Cmp::Gt, Cmp::Ge, Cmp::Ne];

const SIGN: u32 = 0x8000_0000;
const ONE: u32 = 0x3F80_0000;
const FLT_MAX: u32 = 0x7F7F_FFFF;

/// Builder helpers on bit patterns.
impl Em<'_, '_> {
    pub(crate) fn f(&mut self, x: H) -> H {
        self.fb.bitcast(x, ScalarKind::Float)
    }
    pub(crate) fn u(&mut self, x: H) -> H {
        self.fb.bitcast(x, ScalarKind::Uint)
    }
    pub(crate) fn i(&mut self, x: H) -> H {
        self.fb.bitcast(x, ScalarKind::Sint)
    }
    pub(crate) fn k(&mut self, v: u32) -> H {
        self.fb.u32(v)
    }
    /// The constant `v` as a value the driver's compiler cannot see through: `v | zero` with
    /// the input record's zero word. lavapipe (Mesa 22.3) folds float operations on constant
    /// operands against the IEEE rules even with `NoContraction` and `SignedZeroInfNanPreserve`:
    /// `0 + -0` became -0 (MULADD with the inline 0) and `-x * 0` became +0 (MUL_IEEE of an
    /// unproduced PS); its constant matching compares as floats, so +0.0 meets its rules for
    /// -0.0 (docs/latte-translate.md "Precision"). ALU constant operands (inline constants,
    /// literals, PV/PS of slots without a result) go through here.
    pub(crate) fn opaque(&mut self, v: u32) -> H {
        let k = self.k(v);
        self.fb.bin(B::InclusiveOr, k, self.opaque_zero)
    }
    pub(crate) fn b(&mut self, op: B, a: H, b: H) -> H {
        self.fb.bin(op, a, b)
    }
    pub(crate) fn sel(&mut self, c: H, a: H, b: H) -> H {
        self.fb.select(c, a, b)
    }
    pub(crate) fn and_k(&mut self, a: H, v: u32) -> H {
        let k = self.k(v);
        self.b(B::And, a, k)
    }
    pub(crate) fn eq_k(&mut self, a: H, v: u32) -> H {
        let k = self.k(v);
        self.b(B::Equal, a, k)
    }
    /// `x` is a NaN, by its bits.
    pub(crate) fn is_nan(&mut self, x: H) -> H {
        let m = self.and_k(x, 0x7FFF_FFFF);
        let inf = self.k(0x7F80_0000);
        self.b(B::Greater, m, inf)
    }
    /// `x` is ±0.0, by its bits.
    pub(crate) fn is_zero(&mut self, x: H) -> H {
        let m = self.and_k(x, 0x7FFF_FFFF);
        self.eq_k(m, 0)
    }
    pub(crate) fn is_inf(&mut self, x: H) -> H {
        let m = self.and_k(x, 0x7FFF_FFFF);
        self.eq_k(m, 0x7F80_0000)
    }
    /// A float binary operation on bit patterns.
    pub(crate) fn fop(&mut self, op: B, a: H, b: H) -> H {
        let (fa, fb_) = (self.f(a), self.f(b));
        let r = self.b(op, fa, fb_);
        self.u(r)
    }
    /// A float one-argument math function on bit patterns.
    pub(crate) fn fmath(&mut self, fun: M, a: H) -> H {
        let fa = self.f(a);
        let r = self.fb.math1(fun, fa);
        self.u(r)
    }
    /// `a op b` (the interpreter's `ops::compare`): floats ordered, NE unordered.
    pub(crate) fn compare(&mut self, c: Cmp, t: Ty, a: H, b: H) -> H {
        let (x, y) = match t {
            Ty::F => (self.f(a), self.f(b)),
            Ty::I => (self.i(a), self.i(b)),
            Ty::U => (a, b),
        };
        match c {
            Cmp::E => self.b(B::Equal, x, y),
            Cmp::Gt => self.b(B::Greater, x, y),
            Cmp::Ge => self.b(B::GreaterEqual, x, y),
            // NaN != x is true: naga's float NotEqual is ordered in SPIR-V, so negate Equal.
            Cmp::Ne => {
                let e = self.b(B::Equal, x, y);
                self.fb.not(e)
            }
        }
    }
    /// 1.0f / 0.0f, or ~0 / 0.
    pub(crate) fn bool_val(&mut self, c: H, float: bool) -> H {
        let (t, f) = if float { (self.k(ONE), self.k(0)) } else { (self.k(u32::MAX), self.k(0)) };
        self.sel(c, t, f)
    }
    /// MUL's zero rule (§3): 0 × anything = +0, even inf or NaN.
    pub(crate) fn mul_legacy(&mut self, a: H, b: H) -> H {
        let p = self.fop(B::Multiply, a, b);
        let za = self.is_zero(a);
        let zb = self.is_zero(b);
        let z = self.b(B::LogicalOr, za, zb);
        let zero = self.k(0);
        self.sel(z, zero, p)
    }
    /// `a >= b ? a : b` (MAX, DX9 form).
    pub(crate) fn max_dx9(&mut self, a: H, b: H) -> H {
        let c = self.compare(Cmp::Ge, Ty::F, a, b);
        self.sel(c, a, b)
    }
    /// `a < b ? a : b` (MIN, DX9 form).
    pub(crate) fn min_dx9(&mut self, a: H, b: H) -> H {
        let c = self.compare(Cmp::Gt, Ty::F, b, a);
        self.sel(c, a, b)
    }
    /// MAX_DX10 / MIN_DX10: a NaN operand yields the other one.
    pub(crate) fn dx10(&mut self, a: H, b: H, max: bool) -> H {
        let m = if max { self.max_dx9(a, b) } else { self.min_dx9(a, b) };
        let nb = self.is_nan(b);
        let m = self.sel(nb, a, m);
        let na = self.is_nan(a);
        self.sel(na, b, m)
    }
    /// ±inf results made ±FLT_MAX (`clamped`) or ±0.
    pub(crate) fn inf_rule(&mut self, r: H, clamped: bool) -> H {
        let inf = self.is_inf(r);
        let s = self.and_k(r, SIGN);
        let repl = if clamped {
            let m = self.k(FLT_MAX);
            self.b(B::InclusiveOr, s, m)
        } else {
            s
        };
        self.sel(inf, repl, r)
    }
    /// f32 × a power of two (OMOD and the MULADD scales).
    pub(crate) fn scale(&mut self, x: H, k: u16) -> H {
        let m = match k & 3 {
            1 => 2.0f32,
            2 => 4.0,
            3 => 0.5,
            _ => return x,
        };
        let fx = self.f(x);
        let c = self.fb.f32(m);
        let r = self.b(B::Multiply, fx, c);
        self.u(r)
    }
    /// OMOD then CLAMP to [0, 1], NaN to 0 (the interpreter's `ops::modify`, float results).
    /// `arith` (`latte::interp::nan_canonical_op`) or an OMOD makes a NaN result the
    /// canonical NaN, as the interpreter does: the device fixes no NaN sign or payload of its
    /// float arithmetic (docs/latte-interp.md "NaN results").
    pub(crate) fn modify(&mut self, x: H, omod: u8, clamp: bool, arith: bool) -> H {
        let x = self.scale(x, omod as u16);
        if !clamp {
            if !arith && omod & 3 == 0 {
                return x;
            }
            let n = self.is_nan(x);
            let c = self.k(::latte::interp::CANONICAL_NAN);
            return self.sel(n, c, x);
        }
        let fx = self.f(x);
        let zero = self.fb.f32(0.0);
        let one = self.fb.f32(1.0);
        let lt = self.b(B::Less, fx, zero);
        let gt = self.b(B::Greater, fx, one);
        let (z, o) = (self.k(0), self.k(ONE));
        let r = self.sel(lt, z, x);
        let r = self.sel(gt, o, r);
        let n = self.is_nan(x);
        self.sel(n, z, r)
    }
    /// Float to integer with Rust's `as` rules: truncation, NaN to 0, saturation.
    pub(crate) fn flt_to_int(&mut self, a: H, unsigned: bool) -> H {
        let fa = self.f(a);
        let (lo, hi, hi_val, lo_val) = if unsigned {
            (0.0f32, 4_294_967_040.0f32, u32::MAX, 0u32)
        } else {
            (-2_147_483_648.0f32, 2_147_483_520.0f32, i32::MAX as u32, i32::MIN as u32)
        };
        let l = self.fb.f32(lo);
        let h = self.fb.f32(hi);
        let c = self.fb.math3(M::Clamp, fa, l, h);
        let conv = if unsigned {
            self.fb.convert(c, ScalarKind::Uint)
        } else {
            let s = self.fb.convert(c, ScalarKind::Sint);
            self.u(s)
        };
        let big = self.b(B::Greater, fa, h);
        let hv = self.k(hi_val);
        let r = self.sel(big, hv, conv);
        let small = self.b(B::Less, fa, l);
        let lv = self.k(lo_val);
        let r = self.sel(small, lv, r);
        let n = self.is_nan(a);
        let z = self.k(0);
        self.sel(n, z, r)
    }
    /// The high 32 bits of the 64-bit product (`signed`: of the i32 values), from 16-bit
    /// limbs (no 64-bit integers needed).
    pub(crate) fn mul_hi(&mut self, a: H, b: H, signed: bool) -> H {
        let m16 = 0xFFFF;
        let s16 = self.k(16);
        let al = self.and_k(a, m16);
        let ah = self.b(B::ShiftRight, a, s16);
        let bl = self.and_k(b, m16);
        let bh = self.b(B::ShiftRight, b, s16);
        let ll = self.b(B::Multiply, al, bl);
        let lh = self.b(B::Multiply, al, bh);
        let hl = self.b(B::Multiply, ah, bl);
        let hh = self.b(B::Multiply, ah, bh);
        // mid = (ll >> 16) + (lh & 0xFFFF) + (hl & 0xFFFF) fits in 18 bits.
        let ll_hi = self.b(B::ShiftRight, ll, s16);
        let lh_lo = self.and_k(lh, m16);
        let hl_lo = self.and_k(hl, m16);
        let mid = self.b(B::Add, ll_hi, lh_lo);
        let mid = self.b(B::Add, mid, hl_lo);
        let lh_hi = self.b(B::ShiftRight, lh, s16);
        let hl_hi = self.b(B::ShiftRight, hl, s16);
        let mid_hi = self.b(B::ShiftRight, mid, s16);
        let r = self.b(B::Add, hh, lh_hi);
        let r = self.b(B::Add, r, hl_hi);
        let mut r = self.b(B::Add, r, mid_hi);
        if signed {
            // hi_s(a, b) = hi_u(a, b) - (a < 0 ? b : 0) - (b < 0 ? a : 0) (mod 2^32).
            let z = self.k(0);
            let sa = self.and_k(a, SIGN);
            let na = self.b(B::NotEqual, sa, z);
            let sb = self.and_k(b, SIGN);
            let nb = self.b(B::NotEqual, sb, z);
            let ta = self.sel(na, b, z);
            let tb = self.sel(nb, a, z);
            r = self.b(B::Subtract, r, ta);
            r = self.b(B::Subtract, r, tb);
        }
        r
    }
    /// RECIP_UINT: floor(2^32 / x), 0xFFFFFFFF for x <= 1.
    pub(crate) fn recip_uint(&mut self, x: H) -> H {
        let one = self.k(1);
        let safe = self.fb.math2(M::Max, x, one);
        let m = self.k(u32::MAX);
        let q = self.b(B::Divide, m, safe);
        let r = self.b(B::Modulo, m, safe);
        let xm1 = self.b(B::Subtract, safe, one);
        let bump = self.b(B::Equal, r, xm1);
        let z = self.k(0);
        let inc = self.sel(bump, one, z);
        let q = self.b(B::Add, q, inc);
        let small = self.b(B::LessEqual, x, one);
        self.sel(small, m, q)
    }
    /// RECIP_INT: trunc(2^31 / x) saturated to i32; x = 0 gives i32::MAX.
    pub(crate) fn recip_int(&mut self, x: H) -> H {
        let z = self.k(0);
        let neg = {
            let s = self.and_k(x, SIGN);
            self.b(B::NotEqual, s, z)
        };
        let mag = {
            let n = self.b(B::Subtract, z, x);
            self.sel(neg, n, x)
        };
        let one = self.k(1);
        let safe = self.fb.math2(M::Max, mag, one);
        let top = self.k(SIGN);
        let q = self.b(B::Divide, top, safe);
        let nq = self.b(B::Subtract, z, q);
        let r = self.sel(neg, nq, q);
        let max = self.k(i32::MAX as u32);
        // x = 1 (2^31) and x = 0 saturate to i32::MAX.
        let le1 = self.b(B::LessEqual, x, one);
        self.sel(le1, max, r)
    }
    /// CUBE of v (§3, the interpreter's `ops::cube`): (tc, sc, 2·ma, face), later axes
    /// winning ties.
    pub(crate) fn cube(&mut self, v: [H; 3]) -> [H; 4] {
        let [x, y, z] = v;
        let neg = |s: &mut Self, a: H| {
            let k = s.k(SIGN);
            s.b(B::ExclusiveOr, a, k)
        };
        let abs = |s: &mut Self, a: H| s.and_k(a, 0x7FFF_FFFF);
        let (ax, ay, az) = (abs(self, x), abs(self, y), abs(self, z));
        let ge = |s: &mut Self, a: H, b: H| s.compare(Cmp::Ge, Ty::F, a, b);
        let two = |s: &mut Self, a: H| {
            let fa = s.f(a);
            let t = s.fb.f32(2.0);
            let r = s.b(B::Multiply, t, fa);
            s.u(r)
        };
        let zero = self.k(0);
        let face = |s: &mut Self, v: f32| s.k(v.to_bits());
        let mut out = [zero; 4];
        let pick = |s: &mut Self, c: H, pos: H, a: [H; 4], b: [H; 4], out: &mut [H; 4]| {
            for k in 0..4 {
                let v = s.sel(pos, a[k], b[k]);
                out[k] = s.sel(c, v, out[k]);
            }
        };
        // x major
        let c1 = ge(self, ax, ay);
        let c2 = ge(self, ax, az);
        let cx = self.b(B::LogicalAnd, c1, c2);
        let px = ge(self, x, zero);
        let (ny, nz) = (neg(self, y), neg(self, z));
        let x2 = two(self, x);
        let (f0, f1) = (face(self, 0.0), face(self, 1.0));
        pick(self, cx, px, [ny, nz, x2, f0], [ny, z, x2, f1], &mut out);
        let c1 = ge(self, ay, ax);
        let c2 = ge(self, ay, az);
        let cy = self.b(B::LogicalAnd, c1, c2);
        let py = ge(self, y, zero);
        let nz = neg(self, z);
        let y2 = two(self, y);
        let (f2, f3) = (face(self, 2.0), face(self, 3.0));
        pick(self, cy, py, [z, x, y2, f2], [nz, x, y2, f3], &mut out);
        let c1 = ge(self, az, ax);
        let c2 = ge(self, az, ay);
        let cz = self.b(B::LogicalAnd, c1, c2);
        let pz = ge(self, z, zero);
        let (ny, nx) = (neg(self, y), neg(self, x));
        let z2 = two(self, z);
        let (f4, f5) = (face(self, 4.0), face(self, 5.0));
        pick(self, cz, pz, [ny, x, z2, f4], [ny, nx, z2, f5], &mut out);
        out
    }
}

impl Em<'_, '_> {
    /// An OP2 opcode of class Plain (`latte::interp` ops::op2_plain): its value and whether
    /// it is a float (OMOD and CLAMP apply). `None`: not implemented (the interpreter reports
    /// it unsupported, and so does the translation, at run time).
    pub(crate) fn op2_plain(&mut self, code: u16, s: [H; 3]) -> Option<(H, bool)> {
        let (a, b) = (s[0], s[1]);
        if let Some(op) = Op::from_op2(code) {
            return Some((self.transc_op(op, a), true));
        }
        if let Some((c, t, float)) = set_cmp(code) {
            let r = self.compare(c, t, a, b);
            return Some((self.bool_val(r, float), float));
        }
        let fv = |x: H| Some((x, true));
        let iv = |x: H| Some((x, false));
        match code {
            0x00 => fv(self.fop(B::Add, a, b)),
            0x01 => fv(self.mul_legacy(a, b)),
            0x02 => fv(self.fop(B::Multiply, a, b)),
            0x03 => fv(self.max_dx9(a, b)),
            0x04 => fv(self.min_dx9(a, b)),
            0x05 => fv(self.dx10(a, b, true)),
            0x06 => fv(self.dx10(a, b, false)),
            0x10 => {
                let fl = self.fmath(M::Floor, a);
                fv(self.fop(B::Subtract, a, fl))
            }
            0x11 => fv(self.fmath(M::Trunc, a)),
            0x12 => fv(self.fmath(M::Ceil, a)),
            // naga's Round rounds half to even (GLSL.std.450 RoundEven).
            0x13 => fv(self.fmath(M::Round, a)),
            0x14 => fv(self.fmath(M::Floor, a)),
            0x19 => fv(a),
            0x30 => iv(self.b(B::And, a, b)),
            0x31 => iv(self.b(B::InclusiveOr, a, b)),
            0x32 => iv(self.b(B::ExclusiveOr, a, b)),
            0x33 => iv(self.fb.expr(naga::Expression::Unary { op: naga::UnaryOperator::BitwiseNot, expr: a })),
            0x34 => iv(self.b(B::Add, a, b)),
            0x35 => iv(self.b(B::Subtract, a, b)),
            0x36 | 0x37 => {
                let (ia, ib) = (self.i(a), self.i(b));
                let r = self.fb.math2(if code == 0x36 { M::Max } else { M::Min }, ia, ib);
                iv(self.u(r))
            }
            0x38 => iv(self.fb.math2(M::Max, a, b)),
            0x39 => iv(self.fb.math2(M::Min, a, b)),
            0x6B => iv(self.flt_to_int(a, false)),
            0x6C => {
                let ia = self.i(a);
                let r = self.fb.convert(ia, ScalarKind::Float);
                fv(self.u(r))
            }
            0x6D => {
                let r = self.fb.convert(a, ScalarKind::Float);
                fv(self.u(r))
            }
            0x70..=0x72 => {
                let sh = self.and_k(b, 31);
                iv(match code {
                    0x70 => {
                        let ia = self.i(a);
                        let r = self.b(B::ShiftRight, ia, sh);
                        self.u(r)
                    }
                    0x71 => self.b(B::ShiftRight, a, sh),
                    _ => self.b(B::ShiftLeft, a, sh),
                })
            }
            0x73 | 0x75 => iv(self.b(B::Multiply, a, b)),
            0x74 => iv(self.mul_hi(a, b, true)),
            0x76 => iv(self.mul_hi(a, b, false)),
            0x77 => iv(self.recip_int(a)),
            0x78 => iv(self.recip_uint(a)),
            0x79 => iv(self.flt_to_int(a, true)),
            _ => None,
        }
    }

    /// An OP3 opcode (`latte::interp` ops::op3). `None`: not implemented.
    pub(crate) fn op3(&mut self, code: u16, s: [H; 3]) -> Option<(H, bool)> {
        let (a, b, c) = (s[0], s[1], s[2]);
        Some(match code {
            0x10..=0x17 => {
                let p = if code < 0x14 { self.mul_legacy(a, b) } else { self.fop(B::Multiply, a, b) };
                let r = self.fop(B::Add, p, c);
                (self.scale(r, code), true)
            }
            0x0C..=0x0F => {
                let m = self.mul_legacy(a, b);
                let r = self.scale(m, code);
                let d1 = self.eq_k(b, 0xFF7F_FFFF);
                let d2 = self.eq_k(b, 0xFF80_0000);
                let d3 = self.is_nan(b);
                let d4 = self.is_nan(c);
                let zero = self.k(0);
                let d5 = self.compare(Cmp::Ge, Ty::F, zero, c);
                let mut dead = self.b(B::LogicalOr, d1, d2);
                for d in [d3, d4, d5] {
                    dead = self.b(B::LogicalOr, dead, d);
                }
                let fm = self.k(0xFF7F_FFFF);
                (self.sel(dead, fm, r), true)
            }
            0x18..=0x1A => {
                let zero = self.k(0);
                let cmp = [Cmp::E, Cmp::Gt, Cmp::Ge][(code - 0x18) as usize];
                let t = self.compare(cmp, Ty::F, a, zero);
                (self.sel(t, b, c), true)
            }
            0x1C..=0x1E => {
                let zero = self.k(0);
                let cmp = [Cmp::E, Cmp::Gt, Cmp::Ge][(code - 0x1C) as usize];
                let t = self.compare(cmp, Ty::I, a, zero);
                (self.sel(t, b, c), false)
            }
            _ => return None,
        })
    }

    /// PRED_SET_INV / POP / CLR / RESTORE: (result bits, predicate).
    pub(crate) fn pred_counter(&mut self, code: u16, s: [H; 3]) -> Option<(H, H)> {
        let (a, b) = (s[0], s[1]);
        let z = self.k(0);
        let t = self.fb.bool(true);
        let f = self.fb.bool(false);
        Some(match code {
            0x24 => {
                let one = self.k(ONE);
                let c = self.compare(Cmp::E, Ty::F, a, one);
                (self.sel(c, z, one), c)
            }
            0x25 => {
                let c = self.compare(Cmp::Ge, Ty::F, z, a);
                let d = self.fop(B::Subtract, a, b);
                (self.sel(c, z, d), c)
            }
            0x26 => (self.k(FLT_MAX), f),
            0x27 => {
                let c = self.compare(Cmp::E, Ty::F, a, z);
                (self.sel(c, z, a), c)
            }
            _ => {
                let _ = t;
                return None;
            }
        })
    }

    /// PRED_SETx_PUSH(_INT): (result bits, predicate, float result).
    pub(crate) fn pred_push(&mut self, code: u16, s: [H; 3]) -> Option<(H, H, bool)> {
        let (cmp, ty) = match code {
            0x28..=0x2B => (CMP4[(code - 0x28) as usize], Ty::F),
            0x4A..=0x4D => (CMP4[(code - 0x4A) as usize], Ty::I),
            0x4E | 0x4F => (Cmp::Gt, Ty::I),
            _ => return None,
        };
        let float = ty == Ty::F;
        let z = self.k(0);
        let pass = match code {
            0x4E => self.compare(Cmp::Gt, Ty::I, z, s[0]),
            0x4F => {
                let g = self.compare(Cmp::Gt, Ty::I, s[0], z);
                self.fb.not(g)
            }
            _ => self.compare(cmp, ty, s[0], z),
        };
        let zero = if float { self.compare(Cmp::E, Ty::F, s[1], z) } else { self.eq_k(s[1], 0) };
        let ok = self.b(B::LogicalAnd, zero, pass);
        let inc = if float {
            let one = self.k(ONE);
            self.fop(B::Add, s[1], one)
        } else {
            let one = self.k(1);
            self.b(B::Add, s[1], one)
        };
        Some((self.sel(ok, z, inc), ok, float))
    }
}

impl Em<'_, '_> {
    /// EXP_IEEE, LOG_*, RECIP_*, RECIPSQRT_*, SQRT_IEEE, SIN and COS (inputs in revolutions).
    /// `exact`: a call of `latte::transc`'s algorithm as a shader function (transc.rs), the
    /// interpreter's bits. Otherwise the device's f32 functions and division
    /// (docs/latte-translate.md "Precision" gives their tolerance).
    pub(crate) fn transc_op(&mut self, op: Op, a: H) -> H {
        if self.exact {
            let f = match self.transc.get(&op) {
                Some(&f) => f,
                None => {
                    let f = super::transc::build(&mut *self.fb.module, op, self.t.u32);
                    self.transc.insert(op, f);
                    f
                }
            };
            return self.fb.call_value(f, vec![a]);
        }
        match op {
            Op::Exp => self.fmath(M::Exp2, a),
            Op::Log(clamped) => {
                if !clamped {
                    return self.fmath(M::Log2, a);
                }
                // LOG_CLAMPED: a negative or NaN input is +0, -inf -> -FLT_MAX.
                let z = self.k(0);
                let m = self.max_dx9(a, z);
                let r = self.fmath(M::Log2, m);
                let ninf = self.eq_k(r, 0xFF80_0000);
                let fm = self.k(0xFF7F_FFFF);
                self.sel(ninf, fm, r)
            }
            Op::Recip(form) => {
                let one = self.k(ONE);
                let r = self.fop(B::Divide, one, a);
                self.form(r, form)
            }
            Op::Rsq(form) => {
                let r = self.fmath(M::InverseSqrt, a);
                self.form(r, form)
            }
            Op::Sqrt => self.fmath(M::Sqrt, a),
            Op::Sin | Op::Cos => {
                let fa = self.f(a);
                let tau = self.fb.f32(std::f32::consts::TAU);
                let x = self.b(B::Multiply, fa, tau);
                let r = self.fb.math1(if op == Op::Sin { M::Sin } else { M::Cos }, x);
                self.u(r)
            }
        }
    }

    fn form(&mut self, r: H, form: Form) -> H {
        match form {
            Form::Ieee => r,
            Form::Clamped => self.inf_rule(r, true),
            Form::Ff => self.inf_rule(r, false),
        }
    }
}

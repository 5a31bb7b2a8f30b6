//! Arithmetic instructions: operand fetch (swizzle, negation, relative addressing), the
//! operations, and masked destination writes (3dbrew "GPU/Shader Instruction Set" "Instructions",
//! "Relative addressing", "Floating-Point Behavior"; specs/pica200-facts.md).

use naga::{BinaryOperator as B, Expression, Handle, MathFunction as M, ScalarKind, SwizzleComponent, VectorSize};
use pica::isa::{AddrIndex, CmpOp, DstReg, Instruction, Opcode, OperandDescriptor, Operands, RelativeSource, SrcReg};

use super::Gen;
use crate::builder::FnBuilder;
use crate::Precision;

type H = Handle<Expression>;

const COMPONENTS: [SwizzleComponent; 4] =
    [SwizzleComponent::X, SwizzleComponent::Y, SwizzleComponent::Z, SwizzleComponent::W];

impl Gen<'_> {
    /// The value of a source register before swizzle and negation. `idx` is the address register
    /// of the instruction when this source is its relative one.
    fn read_reg(&mut self, reg: SrcReg, idx: AddrIndex) -> H {
        if let (Some(_), SrcReg::Input(_) | SrcReg::Temp(_)) = (&self.ssa, reg) {
            let slot = reg.raw() as usize;
            if let Some(h) = self.ssa.as_ref().and_then(|s| s[slot]) {
                return h;
            }
            // First read: v from the private copy the entry point filled, r is zero.
            let h = match reg {
                SrcReg::Input(i) => {
                    let g = self.fb.global(self.abi.v);
                    let p = self.fb.at(g, i as u32);
                    self.fb.load(p)
                }
                _ => self.fb.f32x4(0.0),
            };
            if let Some(s) = self.ssa.as_mut() {
                s[slot] = Some(h);
            }
            return h;
        }
        match reg {
            SrcReg::Input(i) => {
                let g = self.fb.global(self.abi.v);
                let p = self.fb.at(g, i as u32);
                self.fb.load(p)
            }
            SrcReg::Temp(i) => {
                let g = self.fb.global(self.abi.r);
                let p = self.fb.at(g, i as u32);
                self.fb.load(p)
            }
            SrcReg::Const(i) if idx == AddrIndex::None => {
                if self.gs.is_some() {
                    let k = self.fb.u32(i as u32);
                    return self.gs_const(k).expect("geometry");
                }
                let g = self.fb.global(self.abi.uniforms);
                let c = self.fb.at(g, 0);
                let p = self.fb.at(c, i as u32);
                self.fb.load(p)
            }
            SrcReg::Const(i) => self.read_relative(i, idx),
        }
    }

    /// c[i + offset] as 3dbrew "GPU/Shader Instruction Set" "Relative addressing" says: an offset outside
    /// -128..=127 is ignored, the sum is masked with 0x7F, and indices past 95 read (1, 1, 1, 1).
    /// The same rule is applied to aL (decision recorded in docs/pica-translate.md).
    fn read_relative(&mut self, i: u8, idx: AddrIndex) -> H {
        let off = match idx {
            AddrIndex::A0x | AddrIndex::A0y => {
                let g = self.fb.global(self.abi.a0);
                let a = self.fb.load(g);
                self.fb.at(a, (idx == AddrIndex::A0y) as u32)
            }
            _ => {
                let g = self.fb.global(self.abi.al);
                self.fb.load(g)
            }
        };
        let lo = self.fb.i32(-128);
        let hi = self.fb.i32(127);
        let below = self.fb.bin(B::Less, off, lo);
        let above = self.fb.bin(B::Greater, off, hi);
        let out = self.fb.bin(B::LogicalOr, below, above);
        let zero = self.fb.i32(0);
        let off = self.fb.select(out, zero, off);
        let base = self.fb.i32(i as i32);
        let sum = self.fb.bin(B::Add, base, off);
        let sum = self.fb.bitcast(sum, ScalarKind::Uint);
        let mask = self.fb.u32(0x7F);
        let index = self.fb.bin(B::And, sum, mask);
        let last = self.fb.u32(95);
        let clamped = self.fb.math2(M::Min, index, last);
        let value = match self.gs.is_some() {
            true => self.gs_const(clamped).expect("geometry"),
            false => {
                let g = self.fb.global(self.abi.uniforms);
                let c = self.fb.at(g, 0);
                let p = self.fb.index(c, clamped);
                self.fb.load(p)
            }
        };
        let past = self.fb.bin(B::Greater, index, last);
        let ones = self.fb.f32x4(1.0);
        self.fb.select(past, ones, value)
    }

    /// Source `n` (1-3) of an instruction after swizzle and negation.
    pub(super) fn source(&mut self, inst: &Instruction, desc: OperandDescriptor, n: usize, reg: SrcReg) -> H {
        let rel = match (inst.relative_source(), n) {
            (Some(RelativeSource::Src1), 1) | (Some(RelativeSource::Src2), 2) | (Some(RelativeSource::Src3), 3) => {
                match inst.operands {
                    Operands::Arith { idx, .. } | Operands::Cmp { idx, .. } | Operands::Mad { idx, .. } => idx,
                    _ => AddrIndex::None,
                }
            }
            _ => AddrIndex::None,
        };
        let value = self.read_reg(reg, rel);
        let swz = desc.swizzle(n);
        let value = if swz == pica::isa::Swizzle::IDENTITY {
            value
        } else {
            let pattern = [0, 1, 2, 3].map(|i| COMPONENTS[swz.component(i)]);
            self.fb.expr(Expression::Swizzle { size: VectorSize::Quad, vector: value, pattern })
        };
        if !desc.negate(n) {
            value
        } else if self.exact.is_some() {
            // The sign bit flips, NaN included (f32 negation may not keep a NaN's bits).
            let bits = self.fb.bitcast(value, ScalarKind::Uint);
            let m = self.fb.u32x4(0x8000_0000);
            let x = self.fb.bin(B::ExclusiveOr, bits, m);
            self.fb.bitcast(x, ScalarKind::Float)
        } else {
            self.fb.neg(value)
        }
    }

    /// Writes the components of `value` selected by the destination mask.
    pub(super) fn write_dst(&mut self, dst: DstReg, mask: u8, value: H) {
        if mask & 0xF == 0 {
            return;
        }
        if self.ssa.is_some() {
            // Straight code: registers are SSA values; outputs are stored at the end (and
            // before each EMIT).
            let slot = match dst {
                DstReg::Output(i) => 32 + i as usize,
                DstReg::Temp(i) => 16 + i as usize,
            };
            let v = if mask & 0xF == 0xF && self.pred.is_none() {
                value
            } else {
                let old = match self.ssa.as_ref().and_then(|s| s[slot]) {
                    Some(h) => h,
                    None => self.fb.f32x4(0.0),
                };
                let v = if mask & 0xF == 0xF {
                    value
                } else {
                    let comps = (0..4)
                        .map(|k| {
                            let from = if mask & (8 >> k) != 0 { value } else { old };
                            self.fb.at(from, k)
                        })
                        .collect();
                    self.fb.compose(self.abi.vec4f, comps)
                };
                self.guard(v, old)
            };
            if let Some(s) = self.ssa.as_mut() {
                s[slot] = Some(v);
            }
            return;
        }
        let (g, i) = match dst {
            DstReg::Output(i) => (self.abi.o, i),
            DstReg::Temp(i) => (self.abi.r, i),
        };
        let g = self.fb.global(g);
        let p = self.fb.at(g, i as u32);
        if mask & 0xF == 0xF && self.pred.is_none() {
            self.fb.store(p, value);
            return;
        }
        let old = self.fb.load(p);
        let v = if mask & 0xF == 0xF {
            value
        } else {
            let comps = (0..4)
                .map(|k| {
                    let from = if mask & (8 >> k) != 0 { value } else { old };
                    self.fb.at(from, k)
                })
                .collect();
            self.fb.compose(self.abi.vec4f, comps)
        };
        let v = self.guard(v, old);
        self.fb.store(p, v);
    }

    /// Inside a flattened IF (structured.rs): `pred ? new : old` on the bit patterns of a vec4
    /// register value, so that the instruction takes effect only where the condition holds;
    /// else `new`.
    fn guard(&mut self, new: H, old: H) -> H {
        match self.pred {
            Some(p) => {
                let p = self.fb.splat(p);
                self.select_bits(p, new, old)
            }
            None => new,
        }
    }

    /// Stores cmp.x and cmp.y (under the predicate of a flattened IF, where it holds).
    fn store_flags(&mut self, x: H, y: H) {
        let gx = self.fb.global(self.abi.cmp_x);
        let gy = self.fb.global(self.abi.cmp_y);
        let (x, y) = match self.pred {
            Some(p) => {
                let ox = self.fb.load(gx);
                let oy = self.fb.load(gy);
                (self.fb.select(p, x, ox), self.fb.select(p, y, oy))
            }
            None => (x, y),
        };
        self.fb.store(gx, x);
        self.fb.store(gy, y);
    }

    /// `cond ? a : b` on the bit patterns: a float select of a comparison of the same operands is
    /// what compilers turn into min/max instructions, which may return either sign of zero
    /// (lavapipe gave -0 for min(-0, +0), where `a < b ? a : b` is +0).
    fn select_bits(&mut self, cond: H, a: H, b: H) -> H {
        let ab = self.fb.bitcast(a, ScalarKind::Uint);
        let bb = self.fb.bitcast(b, ScalarKind::Uint);
        let r = self.fb.select(cond, ab, bb);
        self.fb.bitcast(r, ScalarKind::Float)
    }

    /// Stores the SSA values of the o registers to the private `o` (straight code).
    pub(super) fn flush_outputs(&mut self) {
        let Some(cache) = self.ssa else { return };
        for i in 0..16u32 {
            if let Some(v) = cache[32 + i as usize] {
                let g = self.fb.global(self.abi.o);
                let p = self.fb.at(g, i);
                self.fb.store(p, v);
            }
        }
    }

    /// Component-wise addition (float24-rounded in `exact`).
    fn add4(&mut self, a: H, b: H) -> H {
        match self.exact {
            Some(x) => self.fb.call_value(x.add, vec![a, b]),
            None => self.fb.bin(B::Add, a, b),
        }
    }

    /// PICA multiplication: inf * 0 = 0 (NaN * 0 stays NaN) in `compat` (one shared function,
    /// [`build_compat_mul`]); float24 in `exact`; plain f32 in `fast`.
    fn mul4(&mut self, a: H, b: H) -> H {
        if let Some(x) = self.exact {
            return self.fb.call_value(x.mul, vec![a, b]);
        }
        match self.compat_mul {
            Some(f) => self.fb.call_value(f, vec![a, b]),
            None => self.fb.bin(B::Multiply, a, b),
        }
    }

    /// Dot product of the first `n` components, summed left to right.
    fn dot(&mut self, a: H, b: H, n: u32, homogeneous: bool) -> H {
        let a = if homogeneous {
            let one = self.fb.f32(1.0);
            let comps = vec![self.fb.at(a, 0), self.fb.at(a, 1), self.fb.at(a, 2), one];
            self.fb.compose(self.abi.vec4f, comps)
        } else {
            a
        };
        let p = self.mul4(a, b);
        if self.exact.is_some() {
            // Products rounded, summed left to right, each sum rounded (f24ops::dp3/dp4).
            let c0 = self.fb.at(p, 0);
            let mut sum = self.fb.splat(c0);
            for k in 1..n {
                let c = self.fb.at(p, k);
                let c = self.fb.splat(c);
                sum = self.add4(sum, c);
            }
            return sum;
        }
        let mut sum = self.fb.at(p, 0);
        for k in 1..n {
            let c = self.fb.at(p, k);
            sum = self.fb.bin(B::Add, sum, c);
        }
        self.fb.splat(sum)
    }

    fn cmp(&mut self, op: CmpOp, a: H, b: H) -> H {
        let bop = match op {
            CmpOp::Eq => B::Equal,
            // NaN != x is true (IEEE unordered, as pica::interp compares); naga's float
            // NotEqual is the ordered SPIR-V comparison, so negate Equal instead.
            CmpOp::Ne => {
                let eq = self.fb.bin(B::Equal, a, b);
                return self.fb.not(eq);
            }
            CmpOp::Lt => B::Less,
            CmpOp::Le => B::LessEqual,
            CmpOp::Gt => B::Greater,
            CmpOp::Ge => B::GreaterEqual,
            CmpOp::True(_) => return self.fb.bool(true),
        };
        self.fb.bin(bop, a, b)
    }

    /// Float to a0 register value: truncation toward zero (specs/pica200-facts.md), NaN to 0 and
    /// a clamp so the conversion is defined on every back end (any |value| > 255 is out of the
    /// addressing range either way).
    fn address_of(&mut self, x: H) -> H {
        let lo = self.fb.f32(-1024.0);
        let hi = self.fb.f32(1024.0);
        let c = self.fb.math3(M::Clamp, x, lo, hi);
        let bits = self.fb.bitcast(x, ScalarKind::Uint);
        let m = self.fb.u32(0x7FFF_FFFF);
        let abs = self.fb.bin(B::And, bits, m);
        let inf = self.fb.u32(0x7F80_0000);
        let nan = self.fb.bin(B::Greater, abs, inf);
        let zero = self.fb.f32(0.0);
        let c = self.fb.select(nan, zero, c);
        self.fb.convert(c, ScalarKind::Sint)
    }

    /// Emits one arithmetic or comparison instruction. Returns false for anything else.
    pub(super) fn arith(&mut self, inst: &Instruction) -> bool {
        use Opcode::*;
        let desc_of = |d: u8| OperandDescriptor(self.descriptors.get(d as usize).copied().unwrap_or(0));
        match (inst.opcode, inst.operands) {
            (Cmp, Operands::Cmp { src1, src2, cmp_x, cmp_y, desc, .. }) => {
                let d = desc_of(desc);
                let a = self.source(inst, d, 1, src1);
                let b = self.source(inst, d, 2, src2);
                let (ax, bx) = (self.fb.at(a, 0), self.fb.at(b, 0));
                let (ay, by) = (self.fb.at(a, 1), self.fb.at(b, 1));
                let x = self.cmp(cmp_x, ax, bx);
                let y = self.cmp(cmp_y, ay, by);
                self.store_flags(x, y);
                true
            }
            (Mad | Madi, Operands::Mad { dst, src1, src2, src3, desc, .. }) => {
                let d = desc_of(desc);
                let a = self.source(inst, d, 1, src1);
                let b = self.source(inst, d, 2, src2);
                let c = self.source(inst, d, 3, src3);
                let p = self.mul4(a, b);
                let v = self.add4(p, c);
                self.write_dst(dst, d.dest_mask(), v);
                true
            }
            (op, Operands::Arith { dst, src1, src2, desc, .. }) => {
                let d = desc_of(desc);
                let unary = op.is_unary();
                let a = self.source(inst, d, 1, src1);
                let b = if unary { a } else { self.source(inst, d, 2, src2) };
                let v = match op {
                    Add => self.add4(a, b),
                    Mul => self.mul4(a, b),
                    Dp3 => self.dot(a, b, 3, false),
                    Dp4 => self.dot(a, b, 4, false),
                    Dph | Dphi => self.dot(a, b, 4, true),
                    Dst | Dsti => {
                        let p = self.mul4(a, b);
                        let one = self.fb.f32(1.0);
                        let comps = vec![one, self.fb.at(p, 1), self.fb.at(a, 2), self.fb.at(b, 3)];
                        self.fb.compose(self.abi.vec4f, comps)
                    }
                    Ex2 | Lg2 | Rcp | Rsq if self.exact.is_some() => {
                        let x = self.exact.expect("exact");
                        let f = match op {
                            Ex2 => x.ex2,
                            Lg2 => x.lg2,
                            Rcp => x.rcp,
                            _ => x.rsq,
                        };
                        let c = self.fb.at(a, 0);
                        let r = self.fb.call_value(f, vec![c]);
                        self.fb.splat(r)
                    }
                    Flr if self.exact.is_some() => {
                        let x = self.exact.expect("exact");
                        self.fb.call_value(x.flr, vec![a])
                    }
                    Ex2 | Lg2 => {
                        let x = self.fb.at(a, 0);
                        let r = self.fb.math1(if op == Ex2 { M::Exp2 } else { M::Log2 }, x);
                        self.fb.splat(r)
                    }
                    Rcp | Rsq => {
                        let x = self.fb.at(a, 0);
                        let r = if op == Rcp {
                            let one = self.fb.f32(1.0);
                            self.fb.bin(B::Divide, one, x)
                        } else {
                            self.fb.math1(M::InverseSqrt, x)
                        };
                        let r = if self.precision == Precision::Fast {
                            r
                        } else {
                            // No -0 on the PICA: rcp(+-0) = rsq(+-0) = +inf (ISA page table).
                            let zero = self.fb.f32(0.0);
                            let is0 = self.fb.bin(B::Equal, x, zero);
                            let inf = self.fb.f32_bits(0x7F80_0000);
                            self.fb.select(is0, inf, r)
                        };
                        self.fb.splat(r)
                    }
                    Litp => {
                        // DST = {max(x, 0), clamp(y, -127.99609375, 127.99609375), 0, max(w, 0)};
                        // cmp.x = x >= 0, cmp.y = w >= 0 (ISA page, LITP).
                        let zero = self.fb.f32(0.0);
                        let x = self.fb.at(a, 0);
                        let y = self.fb.at(a, 1);
                        let w = self.fb.at(a, 3);
                        // max(v, 0) with the MAX rule.
                        let xgt = self.fb.bin(B::Greater, x, zero);
                        let mx = self.select_bits(xgt, x, zero);
                        let wgt = self.fb.bin(B::Greater, w, zero);
                        let mw = self.select_bits(wgt, w, zero);
                        let lim = self.fb.f32(pica::interp::f24ops::LITP_CLAMP);
                        let nlim = self.fb.f32(-pica::interp::f24ops::LITP_CLAMP);
                        let ylt = self.fb.bin(B::Less, y, lim);
                        let y1 = self.select_bits(ylt, y, lim);
                        let ygt = self.fb.bin(B::Greater, y1, nlim);
                        let y2 = self.select_bits(ygt, y1, nlim);
                        let cx = self.fb.bin(B::GreaterEqual, x, zero);
                        let cw = self.fb.bin(B::GreaterEqual, w, zero);
                        self.store_flags(cx, cw);
                        let zero2 = self.fb.f32(0.0);
                        self.fb.compose(self.abi.vec4f, vec![mx, y2, zero2, mw])
                    }
                    Sge | Sgei | Slt | Slti => {
                        let c = if matches!(op, Sge | Sgei) { B::GreaterEqual } else { B::Less };
                        let t = self.fb.bin(c, a, b);
                        let one = self.fb.f32x4(1.0);
                        let zero = self.fb.f32x4(0.0);
                        self.fb.select(t, one, zero)
                    }
                    Flr => self.fb.math1(M::Floor, a),
                    // max(a, b) = a > b ? a : b and min(a, b) = a < b ? a : b give the ISA page's
                    // NaN order: max(0, NaN) = NaN, max(NaN, 0) = 0, and the same for min.
                    // max(0, -inf) = 0 as measured on hardware (pica::interp::f24ops::max).
                    Max => {
                        let t = self.fb.bin(B::Greater, a, b);
                        self.select_bits(t, a, b)
                    }
                    Min => {
                        let t = self.fb.bin(B::Less, a, b);
                        self.select_bits(t, a, b)
                    }
                    Mova => {
                        let mask = d.dest_mask();
                        let g = self.fb.global(self.abi.a0);
                        let old = self.fb.load(g);
                        let mut comps = Vec::new();
                        for k in 0..2 {
                            if mask & (8 >> k) != 0 {
                                let x = self.fb.at(a, k);
                                comps.push(self.address_of(x));
                            } else {
                                comps.push(self.fb.at(old, k));
                            }
                        }
                        let nv = self.fb.compose(self.abi.vec2i, comps);
                        let nv = match self.pred {
                            Some(p) => {
                                let p = self.fb.expr(Expression::Splat { size: VectorSize::Bi, value: p });
                                self.fb.select(p, nv, old)
                            }
                            None => nv,
                        };
                        let g = self.fb.global(self.abi.a0);
                        self.fb.store(g, nv);
                        return true;
                    }
                    Mov => a,
                    _ => return false,
                };
                self.write_dst(dst, d.dest_mask(), v);
                true
            }
            _ => false,
        }
    }
}

/// NaN test by bits, so no driver can fold it away: `(bits & 0x7FFFFFFF) > 0x7F800000`.
fn is_nan4(fb: &mut FnBuilder, x: H) -> H {
    let bits = fb.bitcast(x, ScalarKind::Uint);
    let m = fb.u32x4(0x7FFF_FFFF);
    let abs = fb.bin(B::And, bits, m);
    let inf = fb.u32x4(0x7F80_0000);
    fb.bin(B::Greater, abs, inf)
}

/// `pica_mul(a, b)`, the `compat` multiplication: f32 product, inf * 0 = 0, NaN operands give
/// NaN explicitly (a driver that sees a constant zero operand may fold the product to 0: lavapipe
/// did, for a register the program never writes).
pub(crate) fn build_compat_mul(
    module: &mut naga::Module,
    vec4f: naga::Handle<naga::Type>,
) -> naga::Handle<naga::Function> {
    let mut fb = FnBuilder::new(module, "pica_mul");
    let a = fb.arg("a", vec4f);
    let b = fb.arg("b", vec4f);
    let p = fb.bin(B::Multiply, a, b);
    // A NaN product of two non-NaN factors is inf * 0.
    let np = is_nan4(&mut fb, p);
    let na = is_nan4(&mut fb, a);
    let nb = is_nan4(&mut fb, b);
    let nab = fb.bin(B::InclusiveOr, na, nb);
    let ok = fb.not(nab);
    let bad = fb.bin(B::And, np, ok);
    let zero = fb.f32x4(0.0);
    let r = fb.select(bad, zero, p);
    let nan = fb.select(na, a, b);
    let r = fb.select(nab, nan, r);
    fb.stmt(naga::Statement::Return { value: Some(r) });
    let mut f = fb.finish();
    f.result = Some(naga::FunctionResult { ty: vec4f, binding: None });
    module.functions.append(f, naga::Span::UNDEFINED)
}

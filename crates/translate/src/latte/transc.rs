//! `exact` precision for the transcendentals: `latte::transc`'s algorithms emitted as naga
//! code through its [`Exact`] trait, so the device runs the interpreter's steps and computes
//! its bits (docs/latte-translate.md "Precision"). Each operation is one shader function
//! `u32 -> u32` on bit patterns, built the first time a program uses it and called where used,
//! which keeps the module (and the driver's compile) small.
//!
//! Every step is one the Vulkan environment defines to the bit: f32 add, sub and mul (correctly
//! rounded; the SPIR-V post-pass adds NoContraction), integer and bit operations, comparisons,
//! selects and i32-to-f32 conversion of values below 2^24. Selects work on bit patterns
//! (docs/pica-translate.md "Driver facts": float selects may become min/max).

use ::latte::transc::{Exact, Op};
use naga::{BinaryOperator as B, Function, FunctionResult, Handle, Module, ScalarKind, Span, Statement, Type};

use crate::builder::FnBuilder;

type H = Handle<naga::Expression>;

/// [`Exact`] on naga expressions: values are u32 expressions, conditions bool expressions.
struct Naga<'a, 'm> {
    fb: &'a mut FnBuilder<'m>,
}

impl Naga<'_, '_> {
    fn fop(&mut self, op: B, a: H, b: H) -> H {
        let fa = self.fb.bitcast(a, ScalarKind::Float);
        let fb_ = self.fb.bitcast(b, ScalarKind::Float);
        let r = self.fb.bin(op, fa, fb_);
        self.fb.bitcast(r, ScalarKind::Uint)
    }
    fn sop(&mut self, op: B, a: H, b: H) -> H {
        let ia = self.fb.bitcast(a, ScalarKind::Sint);
        let ib = self.fb.bitcast(b, ScalarKind::Sint);
        self.fb.bin(op, ia, ib)
    }
}

impl Exact for Naga<'_, '_> {
    type V = H;
    type B = H;
    fn k(&mut self, bits: u32) -> H {
        self.fb.u32(bits)
    }
    fn fadd(&mut self, a: H, b: H) -> H {
        self.fop(B::Add, a, b)
    }
    fn fsub(&mut self, a: H, b: H) -> H {
        self.fop(B::Subtract, a, b)
    }
    fn fmul(&mut self, a: H, b: H) -> H {
        self.fop(B::Multiply, a, b)
    }
    fn iadd(&mut self, a: H, b: H) -> H {
        self.fb.bin(B::Add, a, b)
    }
    fn isub(&mut self, a: H, b: H) -> H {
        self.fb.bin(B::Subtract, a, b)
    }
    fn imul(&mut self, a: H, b: H) -> H {
        self.fb.bin(B::Multiply, a, b)
    }
    fn and(&mut self, a: H, b: H) -> H {
        self.fb.bin(B::And, a, b)
    }
    fn or(&mut self, a: H, b: H) -> H {
        self.fb.bin(B::InclusiveOr, a, b)
    }
    fn xor(&mut self, a: H, b: H) -> H {
        self.fb.bin(B::ExclusiveOr, a, b)
    }
    fn shl(&mut self, a: H, n: H) -> H {
        self.fb.bin(B::ShiftLeft, a, n)
    }
    fn shr(&mut self, a: H, n: H) -> H {
        self.fb.bin(B::ShiftRight, a, n)
    }
    fn sar(&mut self, a: H, n: H) -> H {
        let ia = self.fb.bitcast(a, ScalarKind::Sint);
        let r = self.fb.bin(B::ShiftRight, ia, n);
        self.fb.bitcast(r, ScalarKind::Uint)
    }
    fn i2f(&mut self, a: H) -> H {
        let ia = self.fb.bitcast(a, ScalarKind::Sint);
        let f = self.fb.convert(ia, ScalarKind::Float);
        self.fb.bitcast(f, ScalarKind::Uint)
    }
    fn flt(&mut self, a: H, b: H) -> H {
        let fa = self.fb.bitcast(a, ScalarKind::Float);
        let fb_ = self.fb.bitcast(b, ScalarKind::Float);
        self.fb.bin(B::Less, fa, fb_)
    }
    fn ieq(&mut self, a: H, b: H) -> H {
        self.fb.bin(B::Equal, a, b)
    }
    fn ilt(&mut self, a: H, b: H) -> H {
        self.sop(B::Less, a, b)
    }
    fn ult(&mut self, a: H, b: H) -> H {
        self.fb.bin(B::Less, a, b)
    }
    fn sel(&mut self, c: H, a: H, b: H) -> H {
        self.fb.select(c, a, b)
    }
    fn band(&mut self, a: H, b: H) -> H {
        self.fb.bin(B::LogicalAnd, a, b)
    }
    fn bor(&mut self, a: H, b: H) -> H {
        self.fb.bin(B::LogicalOr, a, b)
    }
    fn bnot(&mut self, a: H) -> H {
        self.fb.not(a)
    }
}

/// Builds `op` as the function `latte_<name>(x: u32) -> u32` in `module`.
pub(crate) fn build(module: &mut Module, op: Op, u32_ty: Handle<Type>) -> Handle<Function> {
    let mut fb = FnBuilder::new(module, &format!("latte_{}", op.name()));
    let x = fb.arg("x", u32_ty);
    let r = op.emit(&mut Naga { fb: &mut fb }, x);
    fb.stmt(Statement::Return { value: Some(r) });
    let mut f = fb.finish();
    f.result = Some(FunctionResult { ty: u32_ty, binding: None });
    module.functions.append(f, Span::UNDEFINED)
}

//! Integer-vector helpers over the function builder: the few shapes the TEV code is made of
//! (i32 scalars, `vec2<i32>`, `vec3<i32>`, `vec4<i32>`), so the generator reads as the math.

use std::collections::HashMap;

use naga::{BinaryOperator as Op, Expression, Handle, MathFunction, ScalarKind, SwizzleComponent, Type, VectorSize};

use crate::builder::{vector, FnBuilder, BOOL, I32, U32};

pub(super) type H = Handle<Expression>;

/// The types the generator uses.
#[derive(Clone, Copy)]
pub(super) struct Types {
    pub i2: Handle<Type>,
    pub i3: Handle<Type>,
    pub i4: Handle<Type>,
    pub u2: Handle<Type>,
    pub u3: Handle<Type>,
    pub u4: Handle<Type>,
    pub b3: Handle<Type>,
    pub f4: Handle<Type>,
}

impl Types {
    pub fn new(m: &mut naga::Module) -> Self {
        Self {
            i2: vector(m, VectorSize::Bi, I32),
            i3: vector(m, VectorSize::Tri, I32),
            i4: vector(m, VectorSize::Quad, I32),
            u2: vector(m, VectorSize::Bi, U32),
            u3: vector(m, VectorSize::Tri, U32),
            u4: vector(m, VectorSize::Quad, U32),
            b3: vector(m, VectorSize::Tri, BOOL),
            f4: vector(m, VectorSize::Quad, naga::Scalar::F32),
        }
    }

    fn by_size(&self, size: usize, unsigned: bool) -> Handle<Type> {
        match (size, unsigned) {
            (2, false) => self.i2,
            (3, false) => self.i3,
            (4, false) => self.i4,
            (2, true) => self.u2,
            (3, true) => self.u3,
            _ => self.u4,
        }
    }
}

/// The builder plus the types, and the constants made so far: every literal and constant
/// vector is made once per function and reused (the TEV function is one straight-line block, so
/// a handle made earlier is in scope everywhere after it). The module's expression count is
/// what naga's validation and SPIR-V writer cost in proportion to.
pub(super) struct Ir<'m> {
    pub fb: FnBuilder<'m>,
    pub t: Types,
    /// Keyed by (unsigned, component count, components).
    consts: HashMap<(bool, usize, [i64; 4]), H>,
}

const COMP: [SwizzleComponent; 4] =
    [SwizzleComponent::X, SwizzleComponent::Y, SwizzleComponent::Z, SwizzleComponent::W];

fn size_of(n: usize) -> VectorSize {
    match n {
        2 => VectorSize::Bi,
        3 => VectorSize::Tri,
        _ => VectorSize::Quad,
    }
}

impl<'m> Ir<'m> {
    pub fn new(fb: FnBuilder<'m>, t: Types) -> Self {
        Self { fb, t, consts: HashMap::new() }
    }

    /// The constant `v` (one component: a scalar), made once.
    fn constant(&mut self, unsigned: bool, v: &[i64]) -> H {
        let mut comps = [0; 4];
        comps[..v.len()].copy_from_slice(v);
        let key = (unsigned, v.len(), comps);
        if let Some(&h) = self.consts.get(&key) {
            return h;
        }
        let h = if v.len() == 1 {
            if unsigned {
                self.fb.u32(v[0] as u32)
            } else {
                self.fb.i32(v[0] as i32)
            }
        } else if v.iter().all(|&x| x == v[0]) {
            // A splat of the scalar.
            let s = self.constant(unsigned, &v[..1]);
            self.fb.expr(Expression::Splat { size: size_of(v.len()), value: s })
        } else {
            let c = v.iter().map(|&x| self.constant(unsigned, &[x])).collect();
            let ty = self.t.by_size(v.len(), unsigned);
            self.fb.compose(ty, c)
        };
        self.consts.insert(key, h);
        h
    }
    pub fn i(&mut self, v: i32) -> H {
        self.constant(false, &[v as i64])
    }
    /// A vector of i32 literals (a splat when they are all equal).
    pub fn iv(&mut self, v: &[i32]) -> H {
        let mut c = [0; 4];
        for (k, &x) in v.iter().enumerate() {
            c[k] = x as i64;
        }
        self.constant(false, &c[..v.len()])
    }
    /// A vector of u32 literals (shift amounts).
    pub fn uv(&mut self, v: &[u32]) -> H {
        let mut c = [0; 4];
        for (k, &x) in v.iter().enumerate() {
            c[k] = x as i64;
        }
        self.constant(true, &c[..v.len()])
    }
    pub fn splat(&mut self, n: usize, value: H) -> H {
        self.fb.expr(Expression::Splat { size: size_of(n), value })
    }
    pub fn bin(&mut self, op: Op, a: H, b: H) -> H {
        self.fb.bin(op, a, b)
    }
    pub fn add(&mut self, a: H, b: H) -> H {
        self.bin(Op::Add, a, b)
    }
    pub fn sub(&mut self, a: H, b: H) -> H {
        self.bin(Op::Subtract, a, b)
    }
    pub fn mul(&mut self, a: H, b: H) -> H {
        self.bin(Op::Multiply, a, b)
    }
    pub fn and(&mut self, a: H, b: H) -> H {
        self.bin(Op::And, a, b)
    }
    pub fn or(&mut self, a: H, b: H) -> H {
        self.bin(Op::InclusiveOr, a, b)
    }
    /// `a << n` for an `n`-component value (`n` = 1 for scalars) by a constant.
    pub fn shl(&mut self, a: H, n: usize, by: u32) -> H {
        let s = self.uv(&[by; 4][..n]);
        self.bin(Op::ShiftLeft, a, s)
    }
    /// Arithmetic `a >> by` for an `n`-component value by a constant.
    pub fn shr(&mut self, a: H, n: usize, by: u32) -> H {
        let s = self.uv(&[by; 4][..n]);
        self.bin(Op::ShiftRight, a, s)
    }
    /// Sign-wraps to 24 bits: `(a << 8) >> 8`.
    pub fn wrap24(&mut self, a: H, n: usize) -> H {
        let l = self.shl(a, n, 8);
        self.shr(l, n, 8)
    }
    pub fn swz(&mut self, v: H, pattern: &[u8]) -> H {
        let mut p = [SwizzleComponent::X; 4];
        for (k, &c) in pattern.iter().enumerate() {
            p[k] = COMP[c as usize & 3];
        }
        self.fb.expr(Expression::Swizzle { size: size_of(pattern.len()), vector: v, pattern: p })
    }
    pub fn comp(&mut self, v: H, k: u32) -> H {
        self.fb.at(v, k)
    }
    pub fn compose4(&mut self, parts: Vec<H>) -> H {
        let t = self.t.i4;
        self.fb.compose(t, parts)
    }
    pub fn compose(&mut self, n: usize, parts: Vec<H>) -> H {
        let t = self.t.by_size(n, false);
        self.fb.compose(t, parts)
    }
    pub fn select(&mut self, cond: H, accept: H, reject: H) -> H {
        self.fb.select(cond, accept, reject)
    }
    pub fn clamp(&mut self, v: H, lo: H, hi: H) -> H {
        self.fb.math3(MathFunction::Clamp, v, lo, hi)
    }
    pub fn as_i32(&mut self, v: H) -> H {
        self.fb.convert(v, ScalarKind::Sint)
    }
    pub fn as_u32(&mut self, v: H) -> H {
        self.fb.convert(v, ScalarKind::Uint)
    }
}

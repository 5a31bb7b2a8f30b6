//! Integer-vector helpers over the function builder: the few shapes the TEV code is made of
//! (i32 scalars, `vec2<i32>`, `vec3<i32>`, `vec4<i32>`), so the generator reads as the math.

use rustc_hash::FxHashMap;

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
    pub b4: Handle<Type>,
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
            b4: vector(m, VectorSize::Quad, BOOL),
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
    consts: FxHashMap<(bool, usize, [i64; 4]), H>,
    /// `vec4<bool>` lane masks.
    masks: FxHashMap<[bool; 4], H>,
    /// Components, swizzles and globals made so far, by what they are (made once, like the
    /// constants: the function holds no stores, so each has one value everywhere).
    components: FxHashMap<(H, u32), H>,
    swizzles: FxHashMap<(H, [u8; 4], usize), H>,
    globals: FxHashMap<Handle<naga::GlobalVariable>, H>,
    /// The value of every constant made, by handle: operations on constants are folded here
    /// (a stage that reads ZERO or ONE, a disabled texture's 255), so the module holds no code
    /// whose result the key decides.
    /// Indexed by the handle's index (a look-up per operation made: no hashing).
    values: Vec<Option<Value>>,
}

/// A constant: unsigned, component count, components (each the i32 or u32 value).
type Value = (bool, usize, [i64; 4]);

/// `op` on two constants of the same shape, lane by lane, in the shader's 32-bit wrapping
/// arithmetic; `None` for operators the folder does not cover.
fn fold(op: Op, (ua, na, a): Value, (ub, nb, b): Value) -> Option<Value> {
    if na != nb {
        return None;
    }
    let mut out = [0i64; 4];
    for k in 0..na {
        let (x, y) = (a[k], b[k]);
        out[k] = if ua {
            let (x, y) = (x as u32, y as u32);
            i64::from(match op {
                Op::Add => x.wrapping_add(y),
                Op::Subtract => x.wrapping_sub(y),
                Op::Multiply => x.wrapping_mul(y),
                Op::And => x & y,
                Op::InclusiveOr => x | y,
                Op::ShiftLeft if ub && y < 32 => x << y,
                Op::ShiftRight if ub && y < 32 => x >> y,
                _ => return None,
            })
        } else {
            let (x, yi) = (x as i32, y as i32);
            i64::from(match op {
                Op::Add if !ub => x.wrapping_add(yi),
                Op::Subtract if !ub => x.wrapping_sub(yi),
                Op::Multiply if !ub => x.wrapping_mul(yi),
                Op::And if !ub => x & yi,
                Op::InclusiveOr if !ub => x | yi,
                Op::ShiftLeft if ub && (y as u32) < 32 => x.wrapping_shl(y as u32),
                Op::ShiftRight if ub && (y as u32) < 32 => x >> (y as u32),
                _ => return None,
            })
        };
    }
    Some((ua, na, out))
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
        Self {
            fb,
            t,
            consts: FxHashMap::default(),
            masks: FxHashMap::default(),
            components: FxHashMap::default(),
            swizzles: FxHashMap::default(),
            globals: FxHashMap::default(),
            values: Vec::new(),
        }
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
        let i = h.index();
        if self.values.len() <= i {
            self.values.resize(i + 1, None);
        }
        self.values[i] = Some(key);
        h
    }

    /// The value of `h` when it is a constant.
    fn value(&self, h: H) -> Option<Value> {
        self.values.get(h.index()).copied().flatten()
    }

    /// The constant of a folded value.
    fn of_value(&mut self, (unsigned, n, c): Value) -> H {
        self.constant(unsigned, &c[..n])
    }
    /// The constant `vec4<bool>` `lanes`, made once (the condition of a per-lane `select`).
    pub fn lanes(&mut self, lanes: [bool; 4]) -> H {
        if let Some(&h) = self.masks.get(&lanes) {
            return h;
        }
        let c = lanes.iter().map(|&b| self.fb.bool(b)).collect();
        let ty = self.t.b4;
        let h = self.fb.compose(ty, c);
        self.masks.insert(lanes, h);
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
        let (va, vb) = (self.value(a), self.value(b));
        if let (Some(x), Some(y)) = (va, vb) {
            if let Some(v) = fold(op, x, y) {
                return self.of_value(v);
            }
        }
        // Identities with a zero operand (these operators take operands of one shape in naga's
        // IR, so the other operand has the result's type).
        let zero = |v: Option<Value>| v.is_some_and(|(_, n, c)| c[..n].iter().all(|&x| x == 0));
        match op {
            Op::Add | Op::Subtract | Op::InclusiveOr | Op::ShiftLeft | Op::ShiftRight if zero(vb) => return a,
            Op::Add | Op::InclusiveOr if zero(va) => return b,
            _ => {}
        }
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
        if let Some((u, _, c)) = self.value(v) {
            let mut out = [0; 4];
            for (k, &p) in pattern.iter().enumerate() {
                out[k] = c[p as usize & 3];
            }
            return self.of_value((u, pattern.len(), out));
        }
        let mut p = [SwizzleComponent::X; 4];
        let mut key = [0; 4];
        for (k, &c) in pattern.iter().enumerate() {
            p[k] = COMP[c as usize & 3];
            key[k] = c & 3;
        }
        let key = (v, key, pattern.len());
        if let Some(&h) = self.swizzles.get(&key) {
            return h;
        }
        let h = self.fb.expr(Expression::Swizzle { size: size_of(pattern.len()), vector: v, pattern: p });
        self.swizzles.insert(key, h);
        h
    }
    pub fn comp(&mut self, v: H, k: u32) -> H {
        if let Some((u, _, c)) = self.value(v) {
            return self.of_value((u, 1, [c[k as usize & 3], 0, 0, 0]));
        }
        if let Some(&h) = self.components.get(&(v, k)) {
            return h;
        }
        let h = self.fb.at(v, k);
        self.components.insert((v, k), h);
        h
    }
    /// The expression of global `g`, made once.
    pub fn global(&mut self, g: Handle<naga::GlobalVariable>) -> H {
        if let Some(&h) = self.globals.get(&g) {
            return h;
        }
        let h = self.fb.global(g);
        self.globals.insert(g, h);
        h
    }
    /// The constant of `parts` concatenated, when every part is a signed constant.
    fn fold_compose(&mut self, parts: &[H]) -> Option<H> {
        let mut out = [0; 4];
        let mut n = 0;
        for p in parts {
            let (u, len, c) = self.value(*p)?;
            if u || n + len > 4 {
                return None;
            }
            out[n..n + len].copy_from_slice(&c[..len]);
            n += len;
        }
        Some(self.of_value((false, n, out)))
    }
    pub fn compose4(&mut self, parts: Vec<H>) -> H {
        if let Some(h) = self.fold_compose(&parts) {
            return h;
        }
        let t = self.t.i4;
        self.fb.compose(t, parts)
    }
    pub fn compose(&mut self, n: usize, parts: Vec<H>) -> H {
        if let Some(h) = self.fold_compose(&parts) {
            return h;
        }
        let t = self.t.by_size(n, false);
        self.fb.compose(t, parts)
    }
    pub fn select(&mut self, cond: H, accept: H, reject: H) -> H {
        if accept == reject {
            return accept;
        }
        self.fb.select(cond, accept, reject)
    }
    pub fn clamp(&mut self, v: H, lo: H, hi: H) -> H {
        let vals = [v, lo, hi].map(|h| self.value(h));
        if let [Some((false, n, x)), Some((false, n1, l)), Some((false, n2, h))] = vals {
            if n == n1 && n == n2 {
                let mut out = [0; 4];
                for k in 0..n {
                    out[k] = x[k].max(l[k]).min(h[k]);
                }
                return self.of_value((false, n, out));
            }
        }
        self.fb.math3(MathFunction::Clamp, v, lo, hi)
    }
    pub fn as_i32(&mut self, v: H) -> H {
        self.fb.convert(v, ScalarKind::Sint)
    }
    pub fn as_u32(&mut self, v: H) -> H {
        self.fb.convert(v, ScalarKind::Uint)
    }
}

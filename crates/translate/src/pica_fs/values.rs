//! The pipeline function's small expression helpers, and its values made once: literals,
//! splats, components and swizzles are shared by every use.

use naga::{BinaryOperator as Op, Expression, Literal, MathFunction, SwizzleComponent};
use rustc_hash::FxHashMap;

use super::gen::{member, size_of, Gen, COMP, H};

/// The pipeline function's literals, splats, components and swizzles by what they are, each
/// made once. The function is one block without stores, so an expression made anywhere in it
/// is in scope and has the same value at every later use; sharing it saves naga's validator
/// and SPIR-V writer one expression per repeat (their cost goes by expression count).
#[derive(Default)]
pub(super) struct Shared {
    /// By (component count, literal kind, bits).
    literals: FxHashMap<(u8, u8, u32), H>,
    /// By (value, component count).
    splats: FxHashMap<(H, u8), H>,
    /// By (vector, component).
    components: FxHashMap<(H, u32), H>,
    /// By (vector, pattern, size).
    swizzles: FxHashMap<(H, [u8; 4], u8), H>,
}

impl Gen<'_> {
    pub fn bin(&mut self, op: Op, a: H, b: H) -> H {
        self.fb.bin(op, a, b)
    }
    /// A literal, or a vector of `n` of it (made once per function).
    pub(super) fn literal(&mut self, n: usize, l: Literal) -> H {
        let (kind, bits) = match l {
            Literal::I32(v) => (0, v as u32),
            Literal::U32(v) => (1, v),
            Literal::F32(v) => (2, v.to_bits()),
            Literal::Bool(v) => (3, u32::from(v)),
            _ => unreachable!("the pipeline's literals are 32-bit or bool"),
        };
        if let Some(&h) = self.shared.literals.get(&(n as u8, kind, bits)) {
            return h;
        }
        let h = if n == 1 {
            self.fb.expr(Expression::Literal(l))
        } else {
            let s = self.literal(1, l);
            self.splat(n, s)
        };
        self.shared.literals.insert((n as u8, kind, bits), h);
        h
    }
    /// `value` in each of `n` components (made once per value).
    pub fn splat(&mut self, n: usize, value: H) -> H {
        if let Some(&h) = self.shared.splats.get(&(value, n as u8)) {
            return h;
        }
        let h = self.fb.expr(Expression::Splat { size: size_of(n), value });
        self.shared.splats.insert((value, n as u8), h);
        h
    }
    /// An i32 literal, or a vector of `n` of them.
    pub fn int(&mut self, n: usize, v: i32) -> H {
        self.literal(n, Literal::I32(v))
    }
    /// An f32 literal, or a vector of `n` of them.
    pub fn float(&mut self, n: usize, v: f32) -> H {
        self.literal(n, Literal::F32(v))
    }
    /// A u32 literal.
    pub fn uint(&mut self, v: u32) -> H {
        self.literal(1, Literal::U32(v))
    }
    /// A bool literal.
    pub fn boolean(&mut self, v: bool) -> H {
        self.literal(1, Literal::Bool(v))
    }
    /// A `vec4<i32>` of four literals.
    pub fn int4(&mut self, v: [u8; 4]) -> H {
        if v.iter().all(|&x| x == v[0]) {
            return self.int(4, i32::from(v[0]));
        }
        let c = v.iter().map(|&x| self.int(1, i32::from(x))).collect();
        let ty = self.t.i4;
        self.fb.compose(ty, c)
    }
    pub fn swz(&mut self, v: H, pattern: &[usize]) -> H {
        let mut p = [SwizzleComponent::X; 4];
        let mut key = [0u8; 4];
        for (k, &c) in pattern.iter().enumerate() {
            p[k] = COMP[c & 3];
            key[k] = (c & 3) as u8;
        }
        let key = (v, key, pattern.len() as u8);
        if let Some(&h) = self.shared.swizzles.get(&key) {
            return h;
        }
        let h = self.fb.expr(Expression::Swizzle { size: size_of(pattern.len()), vector: v, pattern: p });
        self.shared.swizzles.insert(key, h);
        h
    }
    pub fn comp(&mut self, v: H, k: u32) -> H {
        if let Some(&h) = self.shared.components.get(&(v, k)) {
            return h;
        }
        let h = self.fb.at(v, k);
        self.shared.components.insert((v, k), h);
        h
    }
    /// `cond ? a : b` where `cond` is a scalar bool and `a`, `b` have `n` components (the
    /// condition is splatted: SPIR-V 1.3 wants a vector condition for vector operands).
    pub fn sel(&mut self, n: usize, cond: H, a: H, b: H) -> H {
        let c = if n == 1 { cond } else { self.splat(n, cond) };
        self.fb.select(c, a, b)
    }
    pub fn min(&mut self, a: H, b: H) -> H {
        self.fb.math2(MathFunction::Min, a, b)
    }
    pub fn max(&mut self, a: H, b: H) -> H {
        self.fb.math2(MathFunction::Max, a, b)
    }
    pub fn clamp(&mut self, v: H, lo: H, hi: H) -> H {
        self.fb.math3(MathFunction::Clamp, v, lo, hi)
    }
    pub fn ivec(&mut self, n: usize, parts: Vec<H>) -> H {
        let ty = match n {
            2 => self.t.i2,
            3 => self.t.i3,
            _ => self.t.i4,
        };
        self.fb.compose(ty, parts)
    }

    /// Decision D6's clamp to [0, 1] of an `n`-component float: `x >= 1 ? 1 : x > 0 ? x : 0`
    /// with ordered compares, so NaN gives 0 as in `decisions::clamp01`.
    pub(super) fn clamp01(&mut self, n: usize, x: H) -> H {
        let (zero, one) = (self.float(n, 0.0), self.float(n, 1.0));
        let pos = self.bin(Op::Greater, x, zero);
        let big = self.bin(Op::GreaterEqual, x, one);
        let low = self.fb.select(pos, x, zero);
        self.fb.select(big, one, low)
    }

    /// Loads `member[index]` of the uniform block once (`index` ignored for single members).
    pub fn uniform(&mut self, member: u32, index: u32) -> H {
        if let Some(&h) = self.loaded.get(&(member, index)) {
            return h;
        }
        let fb = &mut self.fb;
        let g = fb.global(self.uniforms);
        let p = fb.at(g, member);
        let array = matches!(
            member,
            member::TEXENV_CONSTANT
                | member::SAMPLERS
                | member::FOG_LUT
                | member::LIGHTING_GLOBAL
                | member::LIGHTING_LIGHTS
        );
        let p = if array { fb.at(p, index) } else { p };
        let h = fb.load(p);
        self.loaded.insert((member, index), h);
        h
    }
}

//! The steps after the TEV, exactly as `gx::pixel` computes them: z texture, fog with range
//! adjustment, constant alpha, dither and the RGBA6 format. Only the key's switches decide what
//! code is written; every parameter is read from the uniform block.

use gx::pixel::{FOG_ONE, FOG_RANGE_ADJ_LIMIT, FOG_RANGE_OFFSET_LIMIT, FOG_ZE_LIMIT, Z_MASK};
use naga::{BinaryOperator as Op, MathFunction, ScalarKind};

use super::gen::Gen;
use super::ir::H;

/// Uniform members (see `gen::module`).
const FOG: u32 = 4;
const FOG_COLOR: u32 = 5;
const ZTEX: u32 = 6;
const MISC: u32 = 7;
const FOG_K: u32 = 8;
const FOG_CURVE: u32 = 9;

impl Gen<'_> {
    /// `member[i / 4][i % 4]` of an array-of-vec4 member at a computed index `i` (i32).
    fn uniform_at(&mut self, member: u32, i: H) -> H {
        let uniforms = self.uniforms;
        let ir = &mut self.ir;
        let outer = ir.shr(i, 1, 2);
        let three = ir.i(3);
        let inner = ir.and(i, three);
        let g = ir.global(uniforms);
        let p = ir.fb.at(g, member);
        let p = ir.fb.index(p, outer);
        let p = ir.fb.index(p, inner);
        ir.fb.load(p)
    }

    fn min(&mut self, a: H, b: H) -> H {
        self.ir.fb.math2(MathFunction::Min, a, b)
    }

    fn max(&mut self, a: H, b: H) -> H {
        self.ir.fb.math2(MathFunction::Max, a, b)
    }

    /// `floor(sqrt(n))` for 0 <= n < 2^29: the float square root, then one correction step
    /// each way (its error is far below one there), so the result is exact on every device.
    fn isqrt(&mut self, n: H) -> H {
        let ir = &mut self.ir;
        let f = ir.fb.convert(n, ScalarKind::Float);
        let f = ir.fb.math1(MathFunction::Sqrt, f);
        let s = ir.as_i32(f);
        let one = ir.i(1);
        let sq = ir.mul(s, s);
        let over = ir.bin(Op::Greater, sq, n);
        let down = ir.sub(s, one);
        let s = ir.select(over, down, s);
        let up = ir.add(s, one);
        let sq = ir.mul(up, up);
        let under = ir.bin(Op::LessEqual, sq, n);
        ir.select(under, up, s)
    }

    /// gx::pixel::range_adjust at pixel column `x`.
    fn range_adjust(&mut self, x: H) -> H {
        let misc = self.uniform(MISC, 0);
        let ir = &mut self.ir;
        let (center, half_width) = (ir.comp(misc, 1), ir.comp(misc, 2));
        let d = ir.sub(x, center);
        let d = ir.fb.math1(MathFunction::Abs, d);
        let cap = ir.i(1 << 22);
        let offset = self.min(d, cap);
        let ir = &mut self.ir;
        let o8 = ir.shl(offset, 1, 8);
        // The host writes the half width at least 1 (`FogParams`); clamped here too, so the
        // division needs no zero check (`Translation::spirv`).
        let one = ir.i(1);
        let half_width = self.max(half_width, one);
        let ir = &mut self.ir;
        let on = ir.bin(Op::Divide, o8, half_width);
        let cap = ir.i(FOG_RANGE_OFFSET_LIMIT);
        let on = self.min(on, cap);
        let ir = &mut self.ir;
        let nine = ir.i(9);
        let full = ir.i(9 * 256);
        let o9 = ir.mul(on, nine);
        let index = ir.sub(full, o9);
        let zero = ir.i(0);
        let index = self.max(index, zero);
        let ir = &mut self.ir;
        let lower = ir.shr(index, 1, 8);
        let m255 = ir.i(255);
        let frac = ir.and(index, m255);
        let one = ir.i(1);
        let up = ir.add(lower, one);
        let upper = self.min(up, nine);
        let kl = self.uniform_at(FOG_K, lower);
        let ku = self.uniform_at(FOG_K, upper);
        let ir = &mut self.ir;
        let k256 = ir.i(256);
        let inv = ir.sub(k256, frac);
        let a = ir.mul(kl, inv);
        let b = ir.mul(ku, frac);
        let s = ir.add(a, b);
        let k = ir.shr(s, 1, 8);
        let on2 = ir.mul(on, on);
        let k2 = ir.mul(k, k);
        let n = ir.add(on2, k2);
        let r = self.isqrt(n);
        let ir = &mut self.ir;
        let r8 = ir.shl(r, 1, 8);
        let one = ir.i(1);
        let kd = self.max(k, one);
        let adj = self.ir.bin(Op::Divide, r8, kd);
        let cap = self.ir.i(FOG_RANGE_ADJ_LIMIT);
        self.min(adj, cap)
    }

    /// The fog factor after the curve (gx::pixel::fog_factor and the curve), as i32 0-256.
    fn fog_factor(&mut self, z: H, x: H) -> H {
        let post = self.key.post;
        let fog = self.uniform(FOG, 0);
        let ir = &mut self.ir;
        let (a, b_mag, b_shift, c) = (ir.comp(fog, 0), ir.comp(fog, 1), ir.comp(fog, 2), ir.comp(fog, 3));
        let ze = if post.fog_ortho {
            let z8 = ir.shr(z, 1, 8);
            let p = ir.mul(a, z8);
            ir.shr(p, 1, 20)
        } else {
            let sh = ir.as_u32(b_shift);
            let zs = ir.bin(Op::ShiftRight, z, sh);
            let d = ir.sub(b_mag, zs);
            let one = ir.i(1);
            let d = self.max(d, one);
            self.ir.bin(Op::Divide, a, d)
        };
        let (lo, hi) = (self.ir.i(-FOG_ZE_LIMIT), self.ir.i(FOG_ZE_LIMIT));
        let mut ze = self.ir.clamp(ze, lo, hi);
        if post.fog_range {
            let adj = self.range_adjust(x);
            let p = self.ir.mul(ze, adj);
            ze = self.ir.shr(p, 1, 8);
        }
        let ir = &mut self.ir;
        let f = ir.sub(ze, c);
        let (lo, hi) = (ir.i(0), ir.i(FOG_ONE));
        let f = ir.clamp(f, lo, hi);
        if post.fog == 2 {
            f
        } else {
            self.uniform_at(FOG_CURVE, f)
        }
    }

    /// Runs the steps after the TEV on `rgba` (`vec4<i32>`, 8-bit values) with the last stage's
    /// unswapped texel (`None`: no texture, texel 0); returns the stored RGBA (`vec4<i32>`), the
    /// depth and the fog factor (i32).
    pub(super) fn post(&mut self, rgba: H, texel: Option<H>) -> (H, H, H) {
        let post = self.key.post;
        let pixel = self.pixel;
        let ir = &mut self.ir;
        let (x, y, z_in) = (ir.comp(pixel, 0), ir.comp(pixel, 1), ir.comp(pixel, 2));
        let zmask = ir.i(Z_MASK as i32);
        let z = if post.ztex_op != 0 {
            let misc = self.uniform(MISC, 0);
            let bias = self.ir.comp(misc, 0);
            let mut v = match texel {
                Some(t) => {
                    let w = self.uniform(ZTEX, 0);
                    let ir = &mut self.ir;
                    let p = ir.mul(t, w);
                    let (p0, p1, p2, p3) = (ir.comp(p, 0), ir.comp(p, 1), ir.comp(p, 2), ir.comp(p, 3));
                    let s = ir.add(p0, p1);
                    let s = ir.add(s, p2);
                    let s = ir.add(s, p3);
                    ir.add(s, bias)
                }
                None => bias,
            };
            if post.ztex_op == 1 {
                v = self.ir.add(v, z_in);
            }
            self.ir.and(v, zmask)
        } else {
            ir.and(z_in, zmask)
        };
        let mut rgb = self.ir.swz(rgba, &[0, 1, 2]);
        let mut alpha = self.ir.comp(rgba, 3);
        let ifog = if post.fog != 0 {
            let f = self.fog_factor(z, x);
            let color = self.uniform(FOG_COLOR, 0);
            let ir = &mut self.ir;
            let fc = ir.swz(color, &[0, 1, 2]);
            let fv = ir.splat(3, f);
            let k256 = ir.iv(&[256; 3]);
            let inv = ir.sub(k256, fv);
            let a = ir.mul(rgb, inv);
            let b = ir.mul(fc, fv);
            let s = ir.add(a, b);
            rgb = ir.shr(s, 3, 8);
            f
        } else {
            self.ir.i(0)
        };
        if post.const_alpha {
            let color = self.uniform(FOG_COLOR, 0);
            alpha = self.ir.comp(color, 3);
        }
        let out = if post.rgba6 {
            let ir = &mut self.ir;
            let six = if post.dither {
                // d = |3 (y & 1) - 2 (x & 1)|: the matrix {{0, 2}, {3, 1}}.
                let one = ir.i(1);
                let (xb, yb) = (ir.and(x, one), ir.and(y, one));
                let (k3, k2) = (ir.i(3), ir.i(2));
                let (a, b) = (ir.mul(yb, k3), ir.mul(xb, k2));
                let d = ir.sub(a, b);
                let d = ir.fb.math1(MathFunction::Abs, d);
                let d = ir.splat(3, d);
                let hi = ir.shr(rgb, 3, 6);
                let v = ir.sub(rgb, hi);
                let v = ir.add(v, d);
                ir.shr(v, 3, 2)
            } else {
                ir.shr(rgb, 3, 2)
            };
            let a6 = ir.shr(alpha, 1, 2);
            let v = ir.compose4(vec![six, a6]);
            let l = ir.shl(v, 4, 2);
            let r = ir.shr(v, 4, 4);
            ir.or(l, r)
        } else {
            self.ir.compose4(vec![rgb, alpha])
        };
        (out, z, ifog)
    }
}

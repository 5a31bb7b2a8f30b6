//! Step 3, texture unit 3: the procedural texture (facts 5), operation for operation as
//! `pica::fixed::proctex::sample` (the order its module comment lists, facts 5.2): shifts from
//! the pre-noise coordinates, the noise, the clamps, the mapping function through the RGB map
//! LUT, the colour LUT at the level(s) the filter asks for, separate alpha. Only what the key
//! uses is built: no noise code without noise, no LOD without a mipmapped filter, one mapping
//! function per distinct function.
//!
//! Every float operation carries `NoContraction` in the SPIR-V (naga-wgpu-facts, "Float
//! arithmetic on the device"), so the products and sums round as the reference's do. Where the
//! reference relies on Rust semantics a shader lacks, the code spells them out: `as u32`
//! saturates (NaN gives 0), `f32::min`/`max` ignore a NaN operand, and the reference's
//! compares are ordered.

use naga::{BinaryOperator as Op, Expression, Literal, MathFunction as Mf, ScalarKind};
use pica::fixed::proctex::filter_is_linear;
use pica::fixed::ProcTexKey;
use pica::regs::layouts::{ProcTexClamp, ProcTexFilter, ProcTexMap, ProcTexShift};

use super::gen::{member, Gen, H};

/// The noise function's tables T1 and T2 (facts 5.2 step 3, the hardware-verified random
/// functions of citra#2697, as `pica::fixed::proctex`), 4 bits an entry, packed into two words
/// each (entries 0-7, 8-15) so that the shader looks them up with a shift.
const T1: [u32; 16] = [0, 4, 10, 8, 4, 9, 7, 12, 5, 15, 13, 14, 11, 15, 2, 11];
const T2: [u32; 16] = [10, 2, 15, 8, 0, 7, 4, 5, 5, 13, 2, 6, 13, 9, 3, 14];

const fn pack(t: &[u32; 16], half: usize) -> u32 {
    let mut w = 0;
    let mut i = 0;
    while i < 8 {
        w |= t[8 * half + i] << (4 * i);
        i += 1;
    }
    w
}

/// Which map LUT: (uniform member, value component; the delta is the next component).
#[derive(Clone, Copy)]
struct MapLut(u32, u32);
const NOISE_LUT: MapLut = MapLut(member::PROCTEX_MAP_LUT, 0);
const RGB_LUT: MapLut = MapLut(member::PROCTEX_MAP_LUT, 2);
const ALPHA_LUT: MapLut = MapLut(member::PROCTEX_ALPHA_LUT, 0);

/// The mapping functions' shared terms of one (u, v).
#[derive(Default)]
struct Terms {
    uu: Option<H>,
    vv: Option<H>,
    sum_sq: Option<H>,
    half_sum: Option<H>,
    root: Option<H>,
}

impl Gen<'_> {
    /// Texture unit 3 as the combiners see it (`vec4<i32>` bytes); (0, 0, 0, 0) when disabled.
    pub fn procedural_texture(&mut self) -> H {
        let key: ProcTexKey = self.key.proctex;
        if !key.enabled {
            return self.int(4, 0);
        }
        // 1. The absolute coordinates; the shifts from the other axis before the noise.
        let tc = self.args.texcoord[usize::from(key.coords.min(2))];
        let mut uv = self.fb.math1(Mf::Abs, tc);
        let (u0, v0) = (self.comp(uv, 0), self.comp(uv, 1));
        let u_shift = self.shift_offset(v0, key.u_shift, key.u_clamp);
        let v_shift = self.shift_offset(u0, key.v_shift, key.v_clamp);
        // 2. Noise: uv = |uv + n * amplitude|.
        if key.noise {
            let n = self.noise(uv);
            let p = self.uniform(member::PROCTEX_NOISE, 0);
            let amplitude = self.swz(p, &[0, 1]);
            let n2 = self.splat(2, n);
            let d = self.bin(Op::Multiply, n2, amplitude);
            let s = self.bin(Op::Add, uv, d);
            uv = self.fb.math1(Mf::Abs, s);
        }
        // 3. Shift (an absent shift adds 0.0, which changes no value of a non-negative or NaN
        // coordinate, so it is left out), then clamp.
        let mut s = self.comp(uv, 0);
        let mut t = self.comp(uv, 1);
        if let Some(o) = u_shift {
            s = self.bin(Op::Add, s, o);
        }
        if let Some(o) = v_shift {
            t = self.bin(Op::Add, t, o);
        }
        let s = self.clamp_mode(s, key.u_clamp);
        let t = self.clamp_mode(t, key.v_clamp);
        // 4. The RGB mapping function through the RGB map LUT; 5. the colour LUT.
        let mut terms = Terms::default();
        let g = self.map_function(key.rgb_func, s, t, &mut terms);
        let m = self.map_lut(g, RGB_LUT);
        let rgba = self.color_lut(key.filter, m);
        if !key.separate_alpha {
            return rgba;
        }
        // 6. Separate alpha: trunc(255 * alpha-map LUT of the alpha function), in [0, 255].
        let ga = if key.alpha_func == key.rgb_func { g } else { self.map_function(key.alpha_func, s, t, &mut terms) };
        let a = self.map_lut(ga, ALPHA_LUT);
        let k255 = self.float(1, 255.0);
        let a = self.bin(Op::Multiply, a, k255);
        let a = self.fb.convert(a, ScalarKind::Sint);
        let rgb = self.swz(rgba, &[0, 1, 2]);
        self.fb.compose(self.t.i4, vec![rgb, a])
    }

    /// `x as u32` with Rust's saturation: NaN and negatives give 0, 2^32 and above u32::MAX
    /// (a shader's float-to-unsigned conversion is undefined out of range).
    fn saturating_u32(&mut self, x: H) -> H {
        let zero = self.float(1, 0.0);
        let pos = self.bin(Op::Greater, x, zero);
        let x0 = self.fb.select(pos, x, zero);
        let k = self.fb.convert(x0, ScalarKind::Uint);
        let big = self.float(1, 4_294_967_296.0);
        let over = self.bin(Op::GreaterEqual, x, big);
        let max = self.uint(u32::MAX);
        self.fb.select(over, max, k)
    }

    /// `proctex::shift_offset`: `None` for no shift (D27 maps shift 3 to none), else the
    /// offset (1 under mirrored repeat, else 0.5) where the row parity asks for it, else 0.
    fn shift_offset(&mut self, other: H, shift: ProcTexShift, clamp: ProcTexClamp) -> Option<H> {
        let odd = match shift {
            ProcTexShift::Odd => true,
            ProcTexShift::Even => false,
            _ => return None,
        };
        let offset = if clamp == ProcTexClamp::MirroredRepeat { 1.0 } else { 0.5 };
        let k = self.saturating_u32(other);
        let one = self.uint(1);
        let half = self.bin(Op::ShiftRight, k, one);
        // Odd: (k / 2) % 2; even: (k / 2 + k % 2) % 2 (no overflow: k / 2 < 2^31).
        let bit = if odd {
            self.bin(Op::And, half, one)
        } else {
            let low = self.bin(Op::And, k, one);
            let sum = self.bin(Op::Add, half, low);
            self.bin(Op::And, sum, one)
        };
        let set = self.bin(Op::Equal, bit, one);
        // `offset * 1.0` and `offset * 0.0` are exactly these.
        let (on, off) = (self.float(1, offset), self.float(1, 0.0));
        Some(self.fb.select(set, on, off))
    }

    /// A 4-bit table entry of each component of `index` (< 16), from the packed words.
    fn table4(&mut self, table: &[u32; 16], index: H) -> H {
        let (lo, hi) = (self.literal(4, Literal::U32(pack(table, 0))), self.literal(4, Literal::U32(pack(table, 1))));
        let eight = self.literal(4, Literal::U32(8));
        let low = self.bin(Op::Less, index, eight);
        let word = self.fb.select(low, lo, hi);
        let seven = self.literal(4, Literal::U32(7));
        let two = self.literal(4, Literal::U32(2));
        let pos = self.bin(Op::And, index, seven);
        let shift = self.bin(Op::ShiftLeft, pos, two);
        let entry = self.bin(Op::ShiftRight, word, shift);
        let fifteen = self.literal(4, Literal::U32(15));
        self.bin(Op::And, entry, fifteen)
    }

    /// `proctex::noise` at the absolute coordinates `uv` (facts 5.2 step 3): the four random
    /// values R2 of the cell corners side by side in a `vec4<u32>`.
    fn noise(&mut self, uv: H) -> H {
        let p = self.uniform(member::PROCTEX_NOISE, 0);
        let q = self.uniform(member::PROCTEX_PARAMS, 0);
        let (phase, frequency) = (self.swz(p, &[2, 3]), self.swz(q, &[0, 1]));
        // 9 * frequency * |uv + phase|, left to right.
        let nine = self.float(2, 9.0);
        let a = self.bin(Op::Multiply, nine, frequency);
        let b = self.bin(Op::Add, uv, phase);
        let b = self.fb.math1(Mf::Abs, b);
        let grid = self.bin(Op::Multiply, a, b);
        let cell = self.fb.math1(Mf::Floor, grid);
        let frac = self.bin(Op::Subtract, grid, cell);
        let (fx, fy) = (self.comp(frac, 0), self.comp(frac, 1));
        let (cx, cy) = (self.comp(cell, 0), self.comp(cell, 1));
        let (x, y) = (self.saturating_u32(cx), self.saturating_u32(cy));
        let one = self.uint(1);
        let (x1, y1) = (self.bin(Op::Add, x, one), self.bin(Op::Add, y, one));
        let k = self.fb.compose(self.t.u4, vec![x, x1, y, y1]);
        // R1(k) = ((((k % 9) + 2) * 3) & 15) ^ T1[(k / 9) & 15].
        let u = |g: &mut Self, v: u32| g.literal(4, Literal::U32(v));
        let (k9, k2, k3, k15) = (u(self, 9), u(self, 2), u(self, 3), u(self, 15));
        let r = self.bin(Op::Modulo, k, k9);
        let r = self.bin(Op::Add, r, k2);
        let r = self.bin(Op::Multiply, r, k3);
        let r = self.bin(Op::And, r, k15);
        let q9 = self.bin(Op::Divide, k, k9);
        let q9 = self.bin(Op::And, q9, k15);
        let t1 = self.table4(&T1, q9);
        let r1 = self.bin(Op::ExclusiveOr, r, t1);
        // R2 of (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1).
        let a = self.swz(r1, &[0, 1, 0, 1]);
        let b = self.swz(r1, &[2, 2, 3, 3]);
        let (k1, k4, k6, k10) = (u(self, 1), u(self, 4), u(self, 6), u(self, 10));
        let zero = u(self, 0);
        let a3 = self.bin(Op::And, a, k3);
        let is1 = self.bin(Op::Equal, a3, k1);
        let add4 = self.fb.select(is1, k4, zero);
        let b = self.bin(Op::Add, b, add4);
        let a1 = self.bin(Op::And, a, k1);
        let x6 = self.bin(Op::Multiply, k6, a1);
        let b = self.bin(Op::ExclusiveOr, b, x6);
        let a10 = self.bin(Op::Add, k10, a);
        let b = self.bin(Op::Add, b, a10);
        let b = self.bin(Op::And, b, k15);
        let t2 = self.table4(&T2, a);
        let b = self.bin(Op::ExclusiveOr, b, t2);
        // -1 + b * 2 / 15.
        let bf = self.fb.convert(b, ScalarKind::Float);
        let (two, fifteen, minus1) = (self.float(4, 2.0), self.float(4, 15.0), self.float(4, -1.0));
        let r2 = self.bin(Op::Multiply, bf, two);
        let r2 = self.bin(Op::Divide, r2, fifteen);
        let r2 = self.bin(Op::Add, minus1, r2);
        // g = R2 * (fx + fy - (0, 1, 1, 2)).
        let s = self.bin(Op::Add, fx, fy);
        let s4 = self.splat(4, s);
        let steps = [0.0, 1.0, 1.0, 2.0].map(|v| self.float(1, v));
        let steps = self.fb.compose(self.t.f4, steps.to_vec());
        let w = self.bin(Op::Subtract, s4, steps);
        let g = self.bin(Op::Multiply, r2, w);
        let sx = self.map_lut(fx, NOISE_LUT);
        let sy = self.map_lut(fy, NOISE_LUT);
        // lerp(lerp(g0, g1, sx), lerp(g2, g3, sx), sy), the inner two side by side.
        let (g02, g13) = (self.swz(g, &[0, 2]), self.swz(g, &[1, 3]));
        let sx2 = self.splat(2, sx);
        let inner = self.lerp(2, g02, g13, sx2);
        let (l0, l1) = (self.comp(inner, 0), self.comp(inner, 1));
        self.lerp(1, l0, l1, sy)
    }

    /// `a * (1 - t) + b * t` on `n` components.
    fn lerp(&mut self, n: usize, a: H, b: H, t: H) -> H {
        let one = self.float(n, 1.0);
        let inv = self.bin(Op::Subtract, one, t);
        let x = self.bin(Op::Multiply, a, inv);
        let y = self.bin(Op::Multiply, b, t);
        self.bin(Op::Add, x, y)
    }

    /// `proctex::clamp` (facts 5.3; D27 maps 5-7 to clamp to edge).
    fn clamp_mode(&mut self, x: H, mode: ProcTexClamp) -> H {
        let (zero, one) = (self.float(1, 0.0), self.float(1, 1.0));
        match mode {
            ProcTexClamp::ClampToZero => {
                let over = self.bin(Op::Greater, x, one);
                self.fb.select(over, zero, x)
            }
            ProcTexClamp::SymmetricalRepeat => {
                let f = self.fb.math1(Mf::Floor, x);
                self.bin(Op::Subtract, x, f)
            }
            ProcTexClamp::MirroredRepeat => {
                let k = self.fb.math1(Mf::Trunc, x);
                let frac = self.bin(Op::Subtract, x, k);
                let back = self.bin(Op::Subtract, one, frac);
                let ku = self.saturating_u32(k);
                let bit = self.uint(1);
                let low = self.bin(Op::And, ku, bit);
                let odd = self.bin(Op::Equal, low, bit);
                self.fb.select(odd, back, frac)
            }
            ProcTexClamp::Pulse => {
                let half = self.float(1, 0.5);
                let low = self.bin(Op::LessEqual, x, half);
                self.fb.select(low, zero, one)
            }
            _ => self.min_one(x),
        }
    }

    /// `x.min(1.0)`: 1 for NaN, as Rust's `min`.
    fn min_one(&mut self, x: H) -> H {
        let one = self.float(1, 1.0);
        let below = self.bin(Op::Less, x, one);
        self.fb.select(below, x, one)
    }

    /// Rust's `a.min(b)` (`less`) or `a.max(b)`: the other operand where one is NaN.
    fn min_max(&mut self, a: H, b: H, less: bool) -> H {
        let pick_a = self.bin(if less { Op::Less } else { Op::Greater }, a, b);
        let m = self.fb.select(pick_a, a, b);
        let b_ok = self.bin(Op::Equal, b, b);
        self.fb.select(b_ok, m, a)
    }

    /// `proctex::map_function` (facts 5.4; D23 the exact square root; D27 undefined values).
    fn map_function(&mut self, f: ProcTexMap, u: H, v: H, terms: &mut Terms) -> H {
        let half = self.float(1, 0.5);
        let uu = |g: &mut Self, terms: &mut Terms| *terms.uu.get_or_insert_with(|| g.bin(Op::Multiply, u, u));
        let vv = |g: &mut Self, terms: &mut Terms| *terms.vv.get_or_insert_with(|| g.bin(Op::Multiply, v, v));
        let sum_sq = |g: &mut Self, terms: &mut Terms| {
            if let Some(h) = terms.sum_sq {
                return h;
            }
            let (a, b) = (uu(g, terms), vv(g, terms));
            *terms.sum_sq.insert(g.bin(Op::Add, a, b))
        };
        let half_sum = |g: &mut Self, terms: &mut Terms| {
            *terms.half_sum.get_or_insert_with(|| {
                let s = g.bin(Op::Add, u, v);
                g.bin(Op::Multiply, s, half)
            })
        };
        let root = |g: &mut Self, terms: &mut Terms| {
            if let Some(h) = terms.root {
                return h;
            }
            let s = sum_sq(g, terms);
            *terms.root.insert(g.fb.math1(Mf::Sqrt, s))
        };
        match f {
            ProcTexMap::U => u,
            ProcTexMap::U2 => uu(self, terms),
            ProcTexMap::V => v,
            ProcTexMap::V2 => vv(self, terms),
            ProcTexMap::UPlusV => half_sum(self, terms),
            ProcTexMap::U2PlusV2 => {
                let s = sum_sq(self, terms);
                self.bin(Op::Multiply, s, half)
            }
            ProcTexMap::Sqrt2 => {
                let r = root(self, terms);
                self.min_one(r)
            }
            ProcTexMap::Min => self.min_max(u, v, true),
            ProcTexMap::Max => self.min_max(u, v, false),
            ProcTexMap::Rmax => {
                let (h, r) = (half_sum(self, terms), root(self, terms));
                let x = self.bin(Op::Add, h, r);
                let x = self.bin(Op::Multiply, x, half);
                self.min_one(x)
            }
            ProcTexMap::Other(_) => self.float(1, pica::fixed::decisions::PROCTEX_UNDEFINED_MAP),
        }
    }

    /// `lut::proctex_map` (facts 5.2 step 6, D24): `c = 128 g` (0 for NaN),
    /// `i = clamp(floor(c), 0, 127)`, `clamp01(value[i] + (c - i) * delta[i])`; the entries
    /// arrive decoded (`lut::proctex_entry`), so the shader does no division.
    fn map_lut(&mut self, g: H, lut: MapLut) -> H {
        let k128 = self.float(1, 128.0);
        let c = self.bin(Op::Multiply, g, k128);
        let ordered = self.bin(Op::Equal, g, g);
        let zero = self.float(1, 0.0);
        let c = self.fb.select(ordered, c, zero);
        let fl = self.fb.math1(Mf::Floor, c);
        let k127 = self.float(1, 127.0);
        let i = self.clamp(fl, zero, k127);
        let f = self.bin(Op::Subtract, c, i);
        let index = self.fb.convert(i, ScalarKind::Uint);
        let entry = self.entry(lut.0, index);
        let (value, delta) = (self.comp(entry, lut.1), self.comp(entry, lut.1 + 1));
        let d = self.bin(Op::Multiply, f, delta);
        let m = self.bin(Op::Add, value, d);
        self.clamp01(1, m)
    }

    /// `member[index]` of the uniform block for a dynamic index.
    fn entry(&mut self, member: u32, index: H) -> H {
        let g = self.fb.global(self.uniforms);
        let p = self.fb.at(g, member);
        let p = self.fb.index(p, index);
        self.fb.load(p)
    }

    /// D26's level of detail (`decisions::proctex_lod`): `log2(|width * bias| * (du + dv))`,
    /// 0 for bias 0, then `max` with the lower bound and `min` with the upper one in that order
    /// (NaN gives the lower bound). `|width * bias|` arrives from the CPU (the same f32
    /// product); it is 0 exactly when the bias is 0 or the width 0, and both give the lower
    /// bound whatever the logarithm says, as 0 and -inf do in the reference (the lower bound
    /// is at least 0).
    fn lod(&mut self) -> H {
        let q = self.uniform(member::PROCTEX_PARAMS, 0);
        let r = self.uniform(member::PROCTEX_LOD, 0);
        let scale = self.comp(q, 2);
        let (lo, hi) = (self.comp(r, 0), self.comp(r, 1));
        let duv = self.args.proctex_duv;
        let (du, dv) = (self.comp(duv, 0), self.comp(duv, 1));
        let sum = self.bin(Op::Add, du, dv);
        let x = self.bin(Op::Multiply, scale, sum);
        let lambda = self.fb.math1(Mf::Log2, x);
        let zero = self.float(1, 0.0);
        let no_bias = self.bin(Op::Equal, scale, zero);
        let lambda = self.fb.select(no_bias, zero, lambda);
        let above = self.bin(Op::GreaterEqual, lambda, lo);
        let l = self.fb.select(above, lambda, lo);
        let below = self.bin(Op::LessEqual, l, hi);
        self.fb.select(below, l, hi)
    }

    /// `proctex::color`: the colour LUT at the levels the filter reads (D26), as bytes (D28's
    /// clamp and truncation, NaN 0).
    fn color_lut(&mut self, filter: ProcTexFilter, m: H) -> H {
        let linear = filter_is_linear(filter);
        let seven = self.uint(7);
        let c = match filter {
            ProcTexFilter::NearestMipNearest | ProcTexFilter::LinearMipNearest => {
                // floor(lod + 0.5), lod in [0, 7].
                let lod = self.lod();
                let half = self.float(1, 0.5);
                let x = self.bin(Op::Add, lod, half);
                let x = self.fb.math1(Mf::Floor, x);
                let level = self.fb.convert(x, ScalarKind::Uint);
                let level = self.min(level, seven);
                self.level_color(linear, m, level)
            }
            ProcTexFilter::NearestMipLinear | ProcTexFilter::LinearMipLinear => {
                let lod = self.lod();
                let i = self.fb.convert(lod, ScalarKind::Uint);
                let fi = self.fb.convert(i, ScalarKind::Float);
                let f = self.bin(Op::Subtract, lod, fi);
                let i0 = self.min(i, seven);
                let one = self.uint(1);
                let i1 = self.bin(Op::Add, i, one);
                let i1 = self.min(i1, seven);
                let a = self.level_color(linear, m, i0);
                let b = self.level_color(linear, m, i1);
                let f4 = self.splat(4, f);
                self.lerp(4, a, b, f4)
            }
            _ => {
                let zero = self.uint(0);
                self.level_color(linear, m, zero)
            }
        };
        // D28: v >= 255 ? 255 : v > 0 ? trunc(v) : 0.
        let (k255, z4) = (self.float(4, 255.0), self.float(4, 0.0));
        let pos = self.bin(Op::Greater, c, z4);
        let top = self.bin(Op::GreaterEqual, c, k255);
        let v = self.fb.select(pos, c, z4);
        let v = self.fb.select(top, k255, v);
        self.fb.convert(v, ScalarKind::Sint)
    }

    /// `proctex::level_color` of level `level` (u32, at most 7): per channel in byte units.
    /// The level's offset and `max((width >> level) - 1, 0)` arrive from the CPU.
    fn level_color(&mut self, linear: bool, m: H, level: H) -> H {
        let e = self.entry(member::PROCTEX_LEVELS, level);
        let (offset, width) = (self.comp(e, 0), self.comp(e, 1));
        let wf = self.fb.convert(width, ScalarKind::Float);
        let t = self.bin(Op::Multiply, m, wf);
        let mask = self.uint(decisions_mask());
        if linear {
            // t in [0, 254]: the conversion truncates as `as u32` does.
            let i = self.fb.convert(t, ScalarKind::Uint);
            let fi = self.fb.convert(i, ScalarKind::Float);
            let f = self.bin(Op::Subtract, t, fi);
            let index = self.bin(Op::Add, offset, i);
            let index = self.bin(Op::And, index, mask);
            let c = self.entry(member::PROCTEX_COLOR_LUT, index);
            let d = self.entry(member::PROCTEX_DIFF_LUT, index);
            let f4 = self.splat(4, f);
            let fd = self.bin(Op::Multiply, f4, d);
            self.bin(Op::Add, c, fd)
        } else {
            let half = self.float(1, 0.5);
            let x = self.bin(Op::Add, t, half);
            let x = self.fb.math1(Mf::Floor, x);
            let i = self.fb.convert(x, ScalarKind::Uint);
            let index = self.bin(Op::Add, offset, i);
            let index = self.bin(Op::And, index, mask);
            self.entry(member::PROCTEX_COLOR_LUT, index)
        }
    }
}

fn decisions_mask() -> u32 {
    pica::fixed::decisions::PROCTEX_INDEX_MASK as u32
}

/// The fragment entry point's `proctex_duv` (decision D26): max(|d/dx|, |d/dy|) of the
/// absolute coordinates unit 3 reads, per axis; only mipmapped filters read it.
pub(super) fn reads_duv(key: &ProcTexKey) -> bool {
    key.enabled
        && matches!(
            key.filter,
            ProcTexFilter::NearestMipNearest
                | ProcTexFilter::LinearMipNearest
                | ProcTexFilter::NearestMipLinear
                | ProcTexFilter::LinearMipLinear
        )
}

/// The derivative expression of `e` along `axis` (coarse or fine is the driver's choice, as a
/// plain `dpdx` / `dpdy`).
pub(super) fn derivative(axis: naga::DerivativeAxis, expr: H) -> Expression {
    Expression::Derivative { axis, ctrl: naga::DerivativeControl::None, expr }
}

//! Step 4: fragment lighting (facts 3), operation for operation as `pica::fixed::lighting::
//! compute` (the order its module comment lists, decision D19): the normal and tangent from the
//! normalised quaternion and the bump unit (facts 3.3), per light slot the light, view and half
//! vectors (3.4), the LUT inputs the key's LUTs select (3.5), the lookups with their abs rule,
//! indexing and scale (3.6), spot, distance attenuation, the geometric factor and shadow (3.9),
//! the last slot's Fresnel and the shadow alpha (3.10), then clamp and truncation to bytes.
//!
//! Every float operation carries `NoContraction` in the SPIR-V, so products and sums round as
//! the reference's do; `dot` is written out as `(x*x + y*y) + z*z` (naga's `Dot` leaves the
//! order to the driver). Division and square root are not exact on the device (naga-wgpu-facts,
//! "Float arithmetic on the device"): that is the source of the documented tolerance
//! (docs/pica-fragment.md, "Fragment lighting in the shader"). Only what the key reads is
//! built: an input no used LUT selects, the distance, the geometric factor, a multiplication by
//! a factor the key fixes at 1.0 (exact, so leaving it out changes no value) are all left out.
//! The light parameters and the LUTs (decoded on the CPU by `lut::lighting_entry`) are in the
//! uniform block (docs/abi.md).

use naga::{BinaryOperator as Op, MathFunction as Mf, ScalarKind};
use pica::fixed::lighting::{LightKey, LutId};
use pica::fixed::{decisions, LightingKey};
use pica::regs::layouts::{BumpMode, LutInput};

use super::gen::{member, Gen, H};

/// Vec4s per light slot in `lighting_lights` (docs/abi.md).
pub const LIGHT_VEC4S: u32 = 6;
/// Vec4s per LUT in `lighting_luts`: two decoded (value, delta) entries a vec4.
pub const LUT_VEC4S: u32 = 128;
/// Tables in `lighting_luts`: D0, D1, FR, RB, RG, RR, then SP of slots 0-7, DA of slots 0-7.
pub const LUT_TABLES: u32 = 22;

/// The `lighting_luts` table of a shared LUT (SP is per slot: [`sp_table`]).
pub const fn shared_table(lut: LutId) -> u32 {
    match lut {
        LutId::D0 => 0,
        LutId::D1 => 1,
        LutId::Fr => 2,
        LutId::Rb => 3,
        LutId::Rg => 4,
        LutId::Rr => 5,
        LutId::Sp => 6,
    }
}

/// The `lighting_luts` table of slot `slot`'s spot LUT (table 8 + the slot's light id).
pub const fn sp_table(slot: u32) -> u32 {
    6 + slot
}

/// The `lighting_luts` table of slot `slot`'s distance-attenuation LUT (table 16 + id).
pub const fn da_table(slot: u32) -> u32 {
    14 + slot
}

/// The per-fragment vectors every light shares.
struct Surface {
    n: H,
    t: H,
    v: H,
    /// The shadow factor (`vec4<f32>`), when the key enables shadows.
    shadow: Option<H>,
}

impl Gen<'_> {
    /// Fragment lighting's primary and secondary colours (`vec4<i32>` bytes); (0, 0, 0, 0) when
    /// the key disables it. `procedural` caches texture unit 3 for the combiners.
    pub fn lighting(&mut self, procedural: &mut Option<H>) -> (H, H) {
        let key: LightingKey = self.key.lighting;
        if !key.enabled {
            let z = self.int(4, 0);
            return (z, z);
        }
        let surface = self.surface(&key, procedural);
        let mut diffuse: Option<H> = None;
        let mut specular: Option<H> = None;
        let mut alpha = [None::<H>; 2];
        let count = usize::from(key.count.clamp(1, 8));
        for slot in 0..count {
            let (diff, spec, fresnel) = self.light(&key, slot, &surface, slot == count - 1);
            // The reference starts the sums at 0.0; 0.0 + x is x but for x = -0.0, whose sign the
            // later sum with the ambient (or the clamp) removes.
            diffuse = Some(match diffuse {
                Some(a) => self.bin(Op::Add, a, diff),
                None => diff,
            });
            specular = Some(match specular {
                Some(a) => self.bin(Op::Add, a, spec),
                None => spec,
            });
            if let Some(fr) = fresnel {
                if key.fresnel_primary {
                    alpha[0] = Some(fr);
                }
                if key.fresnel_secondary {
                    alpha[1] = Some(fr);
                }
            }
        }
        let one = self.float(1, 1.0);
        let mut alpha = alpha.map(|a| a.unwrap_or(one));
        if let (true, Some(shadow)) = (key.shadow_alpha, surface.shadow) {
            // Facts 3.10 (citra#3516): the shadow alpha multiplies the alphas Fresnel goes to.
            let sa = self.comp(shadow, 3);
            for (a, on) in alpha.iter_mut().zip([key.fresnel_primary, key.fresnel_secondary]) {
                if on {
                    *a = self.bin(Op::Multiply, *a, sa);
                }
            }
        }
        let global = self.uniform(member::LIGHTING_GLOBAL, 0);
        let ambient = self.swz(global, &[0, 1, 2]);
        let diffuse = diffuse.expect("at least one light");
        let primary = self.bin(Op::Add, diffuse, ambient);
        let specular = specular.expect("at least one light");
        let p = self.fb.compose(self.t.f4, vec![primary, alpha[0]]);
        let s = self.fb.compose(self.t.f4, vec![specular, alpha[1]]);
        (self.lighting_bytes(p), self.lighting_bytes(s))
    }

    /// `decisions::lighting_byte` per component: `trunc(clamp01(x) * 255)` (D19; NaN 0).
    fn lighting_bytes(&mut self, x: H) -> H {
        let c = self.clamp01(4, x);
        let k = self.float(4, 255.0);
        let y = self.bin(Op::Multiply, c, k);
        self.fb.convert(y, ScalarKind::Sint)
    }

    /// A unit's colour as lighting reads it (units 0-3; unit 3 is the procedural texture).
    fn lighting_unit(&mut self, unit: u8, procedural: &mut Option<H>) -> H {
        match unit & 3 {
            3 => *procedural.get_or_insert_with(|| self.procedural_texture()),
            u => self.unit(usize::from(u)),
        }
    }

    /// `lighting::normal_and_tangent`, `normalize(view)` and the shadow factor.
    fn surface(&mut self, key: &LightingKey, procedural: &mut Option<H>) -> Surface {
        let (z, o) = (self.float(1, 0.0), self.float(1, 1.0));
        let mut n0 = self.fb.compose(self.t.f3, vec![z, z, o]);
        let mut t0 = self.fb.compose(self.t.f3, vec![o, z, z]);
        if key.bump != BumpMode::NotUsed {
            let tex = self.lighting_unit(key.bump_unit, procedural);
            // 2 c / 255 - 1 with an exact numerator, (2c - 255) / 255, as the reference.
            let rgb = self.swz(tex, &[0, 1, 2]);
            let two = self.int(3, 2);
            let k255 = self.int(3, 255);
            let x = self.bin(Op::Multiply, rgb, two);
            let x = self.bin(Op::Subtract, x, k255);
            let x = self.fb.convert(x, ScalarKind::Float);
            let f255 = self.float(3, 255.0);
            let p = self.bin(Op::Divide, x, f255);
            if key.bump == BumpMode::BumpMap {
                n0 = p;
                if key.bump_renorm {
                    let (px, py) = (self.comp(p, 0), self.comp(p, 1));
                    let xx = self.bin(Op::Multiply, px, px);
                    let yy = self.bin(Op::Multiply, py, py);
                    let r = self.bin(Op::Subtract, o, xx);
                    let r = self.bin(Op::Subtract, r, yy);
                    let r = self.max(r, z);
                    let r = self.fb.math1(Mf::Sqrt, r);
                    n0 = self.fb.compose(self.t.f3, vec![px, py, r]);
                }
            } else {
                // Tangent map: the renormalisation flag has no effect (facts 3.3, citra#2762).
                t0 = p;
            }
        }
        let q = self.normalize(4, self.args.normquat);
        let n = self.rotate(q, n0);
        // The tangent is read only by the CP input (configuration 8).
        let t = if self.reads_input(key, LutInput::Cp) { self.rotate(q, t0) } else { t0 };
        let v = self.normalize(3, self.args.view);
        let shadow = key.shadow.then(|| {
            let s = self.lighting_unit(key.shadow_unit, procedural);
            let s = self.fb.convert(s, ScalarKind::Float);
            let k = self.float(4, 255.0);
            let x = self.bin(Op::Divide, s, k);
            if key.shadow_invert {
                let one = self.float(4, 1.0);
                self.bin(Op::Subtract, one, x)
            } else {
                x
            }
        });
        Surface { n, t, v, shadow }
    }

    /// Whether a used LUT selects `input`.
    fn reads_input(&self, key: &LightingKey, input: LutInput) -> bool {
        LutId::ALL.iter().any(|&l| key.lut_used(l) && key.luts[l as usize].input == input)
    }

    /// `((a.x * b.x + a.y * b.y) + a.z * b.z)` (and `+ a.w * b.w` for `n = 4`), in that order.
    fn dot(&mut self, n: usize, a: H, b: H) -> H {
        let m = self.bin(Op::Multiply, a, b);
        let mut s = self.comp(m, 0);
        for k in 1..n as u32 {
            let c = self.comp(m, k);
            s = self.bin(Op::Add, s, c);
        }
        s
    }

    /// `lighting::normalize` (and `normalize_quaternion` for `n = 4`): `v / sqrt(dot(v, v))`
    /// when the squared length is above 0, else `v` (0 and NaN stay as they are).
    fn normalize(&mut self, n: usize, v: H) -> H {
        let len2 = self.dot(n, v, v);
        self.normalize_with(n, v, len2)
    }

    fn normalize_with(&mut self, n: usize, v: H, len2: H) -> H {
        let zero = self.float(1, 0.0);
        let pos = self.bin(Op::Greater, len2, zero);
        let len = self.fb.math1(Mf::Sqrt, len2);
        let len = self.splat(n, len);
        let u = self.bin(Op::Divide, v, len);
        self.sel(n, pos, u, v)
    }

    /// `(a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x)`.
    fn cross(&mut self, a: H, b: H) -> H {
        let (a1, b1) = (self.swz(a, &[1, 2, 0]), self.swz(b, &[2, 0, 1]));
        let (a2, b2) = (self.swz(a, &[2, 0, 1]), self.swz(b, &[1, 2, 0]));
        let x = self.bin(Op::Multiply, a1, b1);
        let y = self.bin(Op::Multiply, a2, b2);
        self.bin(Op::Subtract, x, y)
    }

    /// `lighting::rotate`: `v + 2 (q.xyz x (q.xyz x v + q.w v))`.
    fn rotate(&mut self, q: H, v: H) -> H {
        let axis = self.swz(q, &[0, 1, 2]);
        let w = self.comp(q, 3);
        let c = self.cross(axis, v);
        let w3 = self.splat(3, w);
        let vw = self.bin(Op::Multiply, v, w3);
        let inner = self.bin(Op::Add, c, vw);
        let c2 = self.cross(axis, inner);
        let two = self.float(3, 2.0);
        let c2 = self.bin(Op::Multiply, c2, two);
        self.bin(Op::Add, v, c2)
    }

    /// Light vec4 `k` of slot `slot` (docs/abi.md).
    fn light_param(&mut self, slot: usize, k: u32) -> H {
        self.uniform(member::LIGHTING_LIGHTS, LIGHT_VEC4S * slot as u32 + k)
    }

    /// One slot's diffuse and specular terms (`vec3<f32>`) and, for the last slot, the scaled
    /// FR value if the key reads FR.
    fn light(&mut self, key: &LightingKey, slot: usize, s: &Surface, last: bool) -> (H, H, Option<H>) {
        let lk: LightKey = key.lights[slot];
        let specular0 = self.light_param(slot, 0);
        let specular1 = self.light_param(slot, 1);
        let diffuse_c = self.light_param(slot, 2);
        let ambient_c = self.light_param(slot, 3);
        let pos = self.light_param(slot, 4);
        let spot_dir = self.light_param(slot, 5);
        let position = self.swz(pos, &[0, 1, 2]);
        // Facts 3.4 and decision D22: L from the position, plus the view for positional lights.
        let l_raw = if lk.directional { position } else { self.bin(Op::Add, position, self.args.view) };
        let len2 = self.dot(3, l_raw, l_raw);
        let l = self.normalize_with(3, l_raw, len2);
        let ln = self.dot(3, l, s.n);
        let zero = self.float(1, 0.0);
        let d = if lk.two_sided {
            self.fb.math1(Mf::Abs, ln)
        } else {
            // Rust's `ln.max(0.0)`: NaN gives 0.
            let pos = self.bin(Op::Greater, ln, zero);
            self.fb.select(pos, ln, zero)
        };
        let h = self.bin(Op::Add, l, s.v);
        let hh = self.dot(3, h, h);
        let h_unit = self.normalize_with(3, h, hh);
        let mut inputs: [Option<H>; 6] = [None; 6];
        let mut input = |g: &mut Self, sel: LutInput| -> H {
            let i = match sel {
                LutInput::Other(_) => return g.float(1, decisions::UNDEFINED_LUT_INPUT),
                s => s.raw() as usize,
            };
            if let Some(x) = inputs[i] {
                return x;
            }
            let x = match sel {
                LutInput::NH => g.dot(3, s.n, h_unit),
                LutInput::VH => g.dot(3, s.v, h_unit),
                LutInput::NV => g.dot(3, s.n, s.v),
                LutInput::LN => ln,
                LutInput::Sp => {
                    let sd = g.swz(spot_dir, &[0, 1, 2]);
                    g.dot(3, l, sd)
                }
                LutInput::Cp if key.config == 8 => {
                    // Facts 3.5 (citra#2762): (H - N (N.H)) . T, not normalised.
                    let nh = match inputs[0] {
                        Some(x) => x,
                        None => g.dot(3, s.n, h_unit),
                    };
                    inputs[0] = Some(nh);
                    let m = g.fb.neg(nh);
                    let m3 = g.splat(3, m);
                    let p = g.bin(Op::Multiply, s.n, m3);
                    let p = g.bin(Op::Add, h_unit, p);
                    g.dot(3, p, s.t)
                }
                _ => g.float(1, decisions::UNDEFINED_LUT_INPUT),
            };
            inputs[i] = Some(x);
            x
        };
        let mut look = |g: &mut Self, lut: LutId| -> Option<H> {
            if !key.lut_used(lut) {
                return None;
            }
            let k = key.luts[lut as usize];
            let x = input(g, k.input);
            let table = if lut == LutId::Sp { sp_table(slot as u32) } else { shared_table(lut) };
            let v = g.lut_value(table, x, k.abs, lk.two_sided);
            let scales = g.uniform(member::LIGHTING_GLOBAL, 1 + lut as u32 / 4);
            let scale = g.comp(scales, lut as u32 % 4);
            Some(g.bin(Op::Multiply, v, scale))
        };
        let spot = if lk.spot { look(self, LutId::Sp) } else { None };
        let da = lk.distance_attenuation.then(|| {
            // Facts 3.6: clamp01(scale * dist + bias), unsigned, no scale or abs (D22).
            let dist = self.fb.math1(Mf::Sqrt, len2);
            let (bias, scale) = (self.comp(pos, 3), self.comp(spot_dir, 3));
            let x = self.bin(Op::Multiply, scale, dist);
            let x = self.bin(Op::Add, x, bias);
            let x = self.clamp01(1, x);
            let (i, f) = self.unsigned_index(x);
            self.lut_entry_value(da_table(slot as u32), i, f)
        });
        // Facts 3.9 (citra#2776): G = min(1, d / |H|^2), 0 when |H| = 0.
        let g = (lk.geometric[0] || lk.geometric[1]).then(|| {
            let q = self.bin(Op::Divide, d, hh);
            let one = self.float(1, 1.0);
            let below = self.bin(Op::Less, q, one);
            let m = self.fb.select(below, q, one);
            let is0 = self.bin(Op::Equal, hh, zero);
            self.fb.select(is0, zero, m)
        });
        let d0 = look(self, LutId::D0);
        let d1 = look(self, LutId::D1);
        let rr = look(self, LutId::Rr);
        let rg = look(self, LutId::Rg);
        let rb = look(self, LutId::Rb);
        let fr = if last { look(self, LutId::Fr) } else { None };
        // A factor of exactly 1.0 (`None`) is left out: x * 1.0 is x.
        let mul = |g: &mut Self, a: H, b: Option<H>, n: usize| match b {
            Some(b) => {
                let b = g.splat(n, b);
                g.bin(Op::Multiply, a, b)
            }
            None => a,
        };
        let s0 = self.swz(specular0, &[0, 1, 2]);
        let spec0 = mul(self, s0, d0, 3);
        let spec0 = mul(self, spec0, if lk.geometric[0] { g } else { None }, 3);
        let spec1 = if rr.is_none() && rg.is_none() && rb.is_none() {
            None
        } else {
            let one = self.float(1, 1.0);
            let rr = rr.unwrap_or(one);
            let rgb = vec![rr, rg.unwrap_or(rr), rb.unwrap_or(rr)];
            Some(self.fb.compose(self.t.f3, rgb))
        };
        let s1 = self.swz(specular1, &[0, 1, 2]);
        let spec1 = match spec1 {
            // ((reflect * D1) * specular1): the reference's `mul(scale(reflect, d1), s1)`.
            Some(r) => {
                let r = mul(self, r, d1, 3);
                self.bin(Op::Multiply, r, s1)
            }
            // reflect = (1, 1, 1): (1 * D1) * s1 = D1 * s1, as the products are exact.
            None => mul(self, s1, d1, 3),
        };
        let spec1 = mul(self, spec1, if lk.geometric[1] { g } else { None }, 3);
        let ch = key.clamp_highlights.then(|| {
            let is0 = self.bin(Op::Equal, d, zero);
            let one = self.float(1, 1.0);
            self.fb.select(is0, zero, one)
        });
        let shadow_rgb = s.shadow.filter(|_| lk.shadow).map(|sh| self.swz(sh, &[0, 1, 2]));
        let mul3 = |g: &mut Self, a: H, b: Option<H>| match b {
            Some(b) => g.bin(Op::Multiply, a, b),
            None => a,
        };
        let dc = self.swz(diffuse_c, &[0, 1, 2]);
        let ac = self.swz(ambient_c, &[0, 1, 2]);
        let diff = mul(self, dc, Some(d), 3);
        let diff = mul3(self, diff, shadow_rgb.filter(|_| key.shadow_primary));
        let diff = self.bin(Op::Add, diff, ac);
        let diff = mul(self, diff, da, 3);
        let diff = mul(self, diff, spot, 3);
        let spec = self.bin(Op::Add, spec0, spec1);
        let spec = mul(self, spec, ch, 3);
        let spec = mul(self, spec, da, 3);
        let spec = mul(self, spec, spot, 3);
        let spec = mul3(self, spec, shadow_rgb.filter(|_| key.shadow_secondary));
        (diff, spec, fr)
    }

    /// `lut::unsigned_index`: `s = 256 x` (0 for NaN), `i = clamp(floor(s), 0, 255)`, `f = s - i`;
    /// `i` as u32.
    fn unsigned_index(&mut self, x: H) -> (H, H) {
        let k = self.float(1, 256.0);
        let s = self.bin(Op::Multiply, x, k);
        let ordered = self.bin(Op::Equal, x, x);
        let zero = self.float(1, 0.0);
        let s = self.fb.select(ordered, s, zero);
        let fl = self.fb.math1(Mf::Floor, s);
        let hi = self.float(1, 255.0);
        let i = self.clamp(fl, zero, hi);
        let f = self.bin(Op::Subtract, s, i);
        (self.fb.convert(i, ScalarKind::Uint), f)
    }

    /// `lut::signed_index`: `s = 128 x` (0 for NaN), `k = clamp(floor(s), -128, 127)`,
    /// `f = s - k`, entry `k & 255` (u32).
    fn signed_index(&mut self, x: H) -> (H, H) {
        let k = self.float(1, 128.0);
        let s = self.bin(Op::Multiply, x, k);
        let ordered = self.bin(Op::Equal, x, x);
        let zero = self.float(1, 0.0);
        let s = self.fb.select(ordered, s, zero);
        let fl = self.fb.math1(Mf::Floor, s);
        let (lo, hi) = (self.float(1, -128.0), self.float(1, 127.0));
        let kk = self.clamp(fl, lo, hi);
        let f = self.bin(Op::Subtract, s, kk);
        let ki = self.fb.convert(kk, ScalarKind::Sint);
        let ki = self.fb.bitcast(ki, ScalarKind::Uint);
        let mask = self.uint(255);
        (self.bin(Op::And, ki, mask), f)
    }

    /// `lut_lookup` without the scale: the abs rule of the current light's two-sided bit
    /// (facts 3.6, citra#3482), the indexing, `value + f * delta`.
    fn lut_value(&mut self, table: u32, x: H, abs: bool, two_sided: bool) -> H {
        let (i, f) = if abs {
            let a = if two_sided {
                self.fb.math1(Mf::Abs, x)
            } else {
                // `x.max(0.0)`: NaN gives 0.
                let zero = self.float(1, 0.0);
                let pos = self.bin(Op::Greater, x, zero);
                self.fb.select(pos, x, zero)
            };
            self.unsigned_index(a)
        } else {
            self.signed_index(x)
        };
        self.lut_entry_value(table, i, f)
    }

    /// `value[i] + f * delta[i]` of `lighting_luts` table `table` (entry i at vec4
    /// `128 table + i / 2`, components `2 (i & 1)` and `2 (i & 1) + 1`).
    fn lut_entry_value(&mut self, table: u32, i: H, f: H) -> H {
        let one = self.uint(1);
        let half = self.bin(Op::ShiftRight, i, one);
        let base = self.uint(LUT_VEC4S * table);
        let index = self.bin(Op::Add, base, half);
        let g = self.fb.global(self.uniforms);
        let p = self.fb.at(g, member::LIGHTING_LUTS);
        let p = self.fb.index(p, index);
        let e = self.fb.load(p);
        let odd = self.bin(Op::And, i, one);
        let odd = self.bin(Op::Equal, odd, one);
        let (lo, hi) = (self.swz(e, &[0, 1]), self.swz(e, &[2, 3]));
        let pair = self.sel(2, odd, hi, lo);
        let (value, delta) = (self.comp(pair, 0), self.comp(pair, 1));
        let fd = self.bin(Op::Multiply, f, delta);
        self.bin(Op::Add, value, fd)
    }
}

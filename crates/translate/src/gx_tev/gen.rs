//! The fragment module of a TEV key: globals, the entry point, and the combiner stages as
//! straight-line SSA code (registers are expression handles, never locals), with every key
//! field folded in as a constant. Arithmetic: specs/hollywood-tev-facts.md "Integer combiner
//! math", exactly as `gx::tev::regular` / `compare_color` / `compare_alpha`.

use rustc_hash::FxHashMap;

use gx::key::{CombinerKey, StageKey, TevKey, TEXMAPS};
use gx::tev::KONST_FIXED;
use naga::{
    AddressSpace, BinaryOperator as Op, Binding, Expression, FunctionArgument, FunctionResult, GlobalVariable, Handle,
    ImageClass, ImageDimension, Interpolation, MathFunction, Module, Sampling, ScalarKind, ShaderStage, Span,
    Statement, StructMember, Type, TypeInner,
};

use super::ir::{Ir, Types, H};
use super::{ALPHA_REF_OFFSET, COLOR_LOCATION, ENTRY, IND_MTX_OFFSET, KONST_OFFSET, TEXCOORD_LOCATION, TEXMAP_BINDING};
use super::{COMPUTE_ENTRY, COMPUTE_IN_BINDING, COMPUTE_OUT_BINDING, COMPUTE_WORKGROUP, TEV_FN};
use super::{FOG_COLOR_OFFSET, FOG_CURVE_OFFSET, FOG_K_OFFSET, FOG_OFFSET, MISC_OFFSET, ZTEX_OFFSET};
use super::{UNIFORM_BINDING, UNIFORM_SIZE};
use crate::builder::{array, entry_point, global, FnBuilder};

/// The generator of one module.
pub(super) struct Gen<'m> {
    pub ir: Ir<'m>,
    pub key: &'m TevKey,
    pub uniforms: Handle<GlobalVariable>,
    pub maps: [Option<Handle<GlobalVariable>>; TEXMAPS],
    /// Sign-wrapped s17.7 coordinates (`vec2<i32>`) of the texgens.
    pub texcoords: Vec<H>,
    /// Rasterized colours 0 and 1 (`vec4<i32>`, 0-255).
    colors: [H; 2],
    /// The pixel's column, row and 24-bit depth (`vec4<i32>`, w unused).
    pub pixel: H,
    /// Loaded uniform vec4s by (member, index).
    loaded: FxHashMap<(u32, u32), H>,
    /// Per texture map: the image, its size and `size << 16` (`texel`'s lift), made once.
    pub images: [Option<(H, H, H)>; TEXMAPS],
}

fn location(location: u32, interpolate: bool) -> Binding {
    Binding::Location {
        location,
        interpolation: interpolate.then_some(Interpolation::Perspective),
        sampling: interpolate.then_some(Sampling::Center),
        blend_src: None,
        per_primitive: false,
    }
}

/// The module of `key`.
pub(super) fn module(key: &TevKey, compute: bool) -> Module {
    let mut m = Module::default();
    let t = Types::new(&mut m);
    let member = |m: &mut Module, name: &str, len: u32, offset: u32| {
        let ty = if len == 1 { t.i4 } else { array(m, t.i4, len, 16) };
        StructMember { name: Some(name.into()), ty, binding: None, offset }
    };
    let members = vec![
        member(&mut m, "regs", 4, 0),
        member(&mut m, "konst", 4, KONST_OFFSET),
        member(&mut m, "ind_mtx", 6, IND_MTX_OFFSET),
        member(&mut m, "alpha_ref", 1, ALPHA_REF_OFFSET),
        member(&mut m, "fog", 1, FOG_OFFSET),
        member(&mut m, "fog_color", 1, FOG_COLOR_OFFSET),
        member(&mut m, "ztex", 1, ZTEX_OFFSET),
        member(&mut m, "misc", 1, MISC_OFFSET),
        member(&mut m, "fog_k", 3, FOG_K_OFFSET),
        member(&mut m, "fog_curve", 65, FOG_CURVE_OFFSET),
    ];
    let block = m.types.insert(
        Type { name: Some("TevUniforms".into()), inner: TypeInner::Struct { members, span: UNIFORM_SIZE } },
        Span::UNDEFINED,
    );
    let uniforms = global(&mut m, "tev", AddressSpace::Uniform, UNIFORM_BINDING, block);
    let image = m.types.insert(
        Type {
            name: None,
            inner: TypeInner::Image {
                dim: ImageDimension::D2,
                arrayed: false,
                class: ImageClass::Sampled { kind: ScalarKind::Uint, multi: false },
            },
        },
        Span::UNDEFINED,
    );
    let mut maps = [None; TEXMAPS];
    for (k, used) in key.texmaps_used().into_iter().enumerate() {
        if used {
            maps[k] =
                Some(global(&mut m, &format!("texmap{k}"), AddressSpace::Handle, TEXMAP_BINDING + k as u32, image));
        }
    }
    let v2f = crate::builder::vector(&mut m, naga::VectorSize::Bi, naga::Scalar::F32);
    // The TEV function: the inputs as the fragment stage receives them, the result as
    // vec4<u32>(r, g, b, a | pass << 8).
    let mut fb = FnBuilder::new(&mut m, TEV_FN);
    let texcoords: Vec<H> = (0..key.num_texgens).map(|k| fb.arg(&format!("texcoord{k}"), v2f)).collect();
    let colors = [fb.arg("color0", t.f4), fb.arg("color1", t.f4)];
    let pixel = fb.arg("pixel", t.u4);
    let mut ir = Ir::new(fb, t);
    // s17.7 = floor(x * 128), sign-wrapped to 24 bits (gx::indirect::coord_of).
    let texcoords = texcoords
        .into_iter()
        .map(|a| {
            let k = ir.fb.f32(128.0);
            let k = ir.fb.expr(Expression::Splat { size: naga::VectorSize::Bi, value: k });
            let x = ir.fb.bin(Op::Multiply, a, k);
            let x = ir.fb.math1(MathFunction::Floor, x);
            let x = ir.as_i32(x);
            ir.wrap24(x, 2)
        })
        .collect();
    // Colours: round(clamp(x, 0, 1) * 255).
    let colors = colors.map(|c| {
        let (z, o, k) = (ir.fb.f32x4(0.0), ir.fb.f32x4(1.0), ir.fb.f32x4(255.0));
        let c = ir.fb.math3(MathFunction::Clamp, c, z, o);
        let c = ir.fb.bin(Op::Multiply, c, k);
        let c = ir.fb.math1(MathFunction::Round, c);
        ir.as_i32(c)
    });
    let pixel = ir.as_i32(pixel);
    let mut g = Gen {
        ir,
        key,
        uniforms,
        maps,
        texcoords,
        colors,
        pixel,
        loaded: FxHashMap::default(),
        images: [None; TEXMAPS],
    };
    g.body();
    let mut function = g.ir.fb.finish();
    function.result = Some(FunctionResult { ty: t.u4, binding: None });
    let tev = m.functions.append(function, Span::UNDEFINED);
    fragment_entry(&mut m, &t, tev, key.num_texgens as u32, v2f, key.post.ztex_op != 0);
    if compute {
        compute_entry(&mut m, &t, tev, key.num_texgens as u32);
    }
    m
}

/// `main`: the inputs at their locations and the fragment position, the TEV function, discard
/// on a failed alpha test, the colour as unorm floats at location 0 and, with a z texture, the
/// depth.
fn fragment_entry(m: &mut Module, t: &Types, tev: Handle<naga::Function>, texgens: u32, v2f: Handle<Type>, ztex: bool) {
    let mut fb = FnBuilder::new(m, ENTRY);
    let mut args = Vec::new();
    for k in 0..texgens {
        let i = fb.func.arguments.len() as u32;
        fb.func.arguments.push(FunctionArgument {
            name: Some(format!("texcoord{k}")),
            ty: v2f,
            binding: Some(location(TEXCOORD_LOCATION + k, true)),
        });
        args.push(fb.expr(Expression::FunctionArgument(i)));
    }
    for k in 0..2u32 {
        let i = fb.func.arguments.len() as u32;
        fb.func.arguments.push(FunctionArgument {
            name: Some(format!("color{k}")),
            ty: t.f4,
            binding: Some(location(COLOR_LOCATION + k, true)),
        });
        args.push(fb.expr(Expression::FunctionArgument(i)));
    }
    let i = fb.func.arguments.len() as u32;
    fb.func.arguments.push(FunctionArgument {
        name: Some("position".into()),
        ty: t.f4,
        binding: Some(Binding::BuiltIn(naga::BuiltIn::Position { invariant: false })),
    });
    let position = fb.expr(Expression::FunctionArgument(i));
    // Column and row of the pixel centre; depth as 24 bits (z * 2^24, at most 2^24 - 1).
    let (x, y, z) = (fb.at(position, 0), fb.at(position, 1), fb.at(position, 2));
    let k24 = fb.f32(16_777_216.0);
    let z = fb.bin(Op::Multiply, z, k24);
    let (x, y, z) = (fb.convert(x, ScalarKind::Uint), fb.convert(y, ScalarKind::Uint), fb.convert(z, ScalarKind::Uint));
    let zmax = fb.u32(gx::pixel::Z_MASK);
    let z = fb.math2(MathFunction::Min, z, zmax);
    let zero = fb.u32(0);
    args.push(fb.compose(t.u4, vec![x, y, z, zero]));
    let r = fb.call_value(tev, args);
    let pass = fb.at(r, 1);
    let fail = fb.bin(Op::Equal, pass, zero);
    fb.if_(fail, |fb| fb.stmt(Statement::Kill));
    // Unpack r | g << 8 | b << 16 | a << 24.
    let packed = fb.at(r, 0);
    let packed = fb.splat(packed);
    let (s8, s16, s24) = (fb.u32(8), fb.u32(16), fb.u32(24));
    let shifts = fb.compose(t.u4, vec![zero, s8, s16, s24]);
    let v = fb.bin(Op::ShiftRight, packed, shifts);
    let mask = fb.u32x4(255);
    let rgba = fb.bin(Op::And, v, mask);
    let f = fb.convert(rgba, ScalarKind::Float);
    let k = fb.f32x4(255.0);
    let f = fb.bin(Op::Divide, f, k);
    let color_binding = Some(location(0, false));
    let result = if ztex {
        // The z texture's depth goes to the depth attachment (late depth: more-facts §3.2).
        let depth = fb.at(r, 2);
        let depth = fb.convert(depth, ScalarKind::Float);
        let depth = fb.bin(Op::Divide, depth, k24);
        let f32_ty = crate::builder::scalar(fb.module, naga::Scalar::F32);
        let out_ty = fb.module.types.insert(
            Type {
                name: Some("FragmentOutput".into()),
                inner: TypeInner::Struct {
                    members: vec![
                        StructMember { name: Some("color".into()), ty: t.f4, binding: color_binding, offset: 0 },
                        StructMember {
                            name: Some("depth".into()),
                            ty: f32_ty,
                            binding: Some(Binding::BuiltIn(naga::BuiltIn::FragDepth)),
                            offset: 16,
                        },
                    ],
                    span: 32,
                },
            },
            Span::UNDEFINED,
        );
        let v = fb.compose(out_ty, vec![f, depth]);
        fb.stmt(Statement::Return { value: Some(v) });
        FunctionResult { ty: out_ty, binding: None }
    } else {
        fb.stmt(Statement::Return { value: Some(f) });
        FunctionResult { ty: t.f4, binding: color_binding }
    };
    let mut function = fb.finish();
    function.result = Some(result);
    m.entry_points.push(entry_point(ENTRY, ShaderStage::Fragment, [0; 3], function));
}

/// `tev_compute` (workgroup 64): invocation i reads record i of binding 9 (the fragment
/// inputs: texcoords 0-7 as four vec4s, colours 0 and 1, then depth, column and row) and writes
/// the TEV function's result to element i of binding 10.
fn compute_entry(m: &mut Module, t: &Types, tev: Handle<naga::Function>, texgens: u32) {
    let rec = array(m, t.f4, 7, 16);
    let recs = m.types.insert(
        Type { name: None, inner: TypeInner::Array { base: rec, size: naga::ArraySize::Dynamic, stride: 112 } },
        Span::UNDEFINED,
    );
    let outs = m.types.insert(
        Type { name: None, inner: TypeInner::Array { base: t.u4, size: naga::ArraySize::Dynamic, stride: 16 } },
        Span::UNDEFINED,
    );
    let vin =
        global(m, "pixels_in", AddressSpace::Storage { access: naga::StorageAccess::LOAD }, COMPUTE_IN_BINDING, recs);
    let vout = global(
        m,
        "pixels_out",
        AddressSpace::Storage { access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE },
        COMPUTE_OUT_BINDING,
        outs,
    );
    let uvec3 = crate::builder::vector(m, naga::VectorSize::Tri, naga::Scalar::U32);
    let mut fb = FnBuilder::new(m, COMPUTE_ENTRY);
    fb.func.arguments.push(FunctionArgument {
        name: Some("gid".into()),
        ty: uvec3,
        binding: Some(Binding::BuiltIn(naga::BuiltIn::GlobalInvocationId)),
    });
    let gid = fb.expr(Expression::FunctionArgument(0));
    let i = fb.at(gid, 0);
    let vin_p = fb.global(vin);
    let n = fb.expr(Expression::ArrayLength(vin_p));
    let past = fb.bin(Op::GreaterEqual, i, n);
    fb.if_(past, |fb| fb.stmt(Statement::Return { value: None }));
    let rec_p = fb.index(vin_p, i);
    let mut args = Vec::new();
    for k in 0..texgens {
        let p = fb.at(rec_p, k / 2);
        let v = fb.load(p);
        use naga::SwizzleComponent::{W, X, Y, Z};
        let pattern = if k % 2 == 0 { [X, Y, X, X] } else { [Z, W, X, X] };
        args.push(fb.expr(Expression::Swizzle { size: naga::VectorSize::Bi, vector: v, pattern }));
    }
    for k in 0..2 {
        let p = fb.at(rec_p, 4 + k);
        args.push(fb.load(p));
    }
    // Record vec4 6: depth, column, row.
    let p = fb.at(rec_p, 6);
    let v = fb.load(p);
    use naga::SwizzleComponent::{W, X, Y, Z};
    let v = fb.expr(Expression::Swizzle { size: naga::VectorSize::Quad, vector: v, pattern: [Y, Z, X, W] });
    args.push(fb.convert(v, ScalarKind::Uint));
    let r = fb.call_value(tev, args);
    let vout_p = fb.global(vout);
    let o = fb.index(vout_p, i);
    fb.store(o, r);
    let function = fb.finish();
    m.entry_points.push(entry_point(COMPUTE_ENTRY, ShaderStage::Compute, [COMPUTE_WORKGROUP, 1, 1], function));
}

/// Colour input slot and alpha broadcast (gx::tev's table, more-facts §2.5).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Reg(usize),
    Tex,
    Ras,
    Konst,
    Const(i32),
}

fn color_slot(sel: u8) -> (Slot, bool) {
    match sel & 15 {
        s @ 0..=7 => (Slot::Reg(s as usize / 2), s % 2 == 1),
        8 => (Slot::Tex, false),
        9 => (Slot::Tex, true),
        10 => (Slot::Ras, false),
        11 => (Slot::Ras, true),
        12 => (Slot::Const(255), false),
        13 => (Slot::Const(128), false),
        14 => (Slot::Konst, false),
        _ => (Slot::Const(0), false),
    }
}

fn alpha_slot(sel: u8) -> Slot {
    match sel & 7 {
        s @ 0..=3 => Slot::Reg(s as usize),
        4 => Slot::Tex,
        5 => Slot::Ras,
        6 => Slot::Konst,
        _ => Slot::Const(0),
    }
}

/// Uniform members that are one vector, not an array: alpha_ref, fog, fog_color, ztex, misc.
const SINGLE_MEMBERS: [u32; 5] = [3, 4, 5, 6, 7];

/// Per-stage values computed on first use.
struct StageVals {
    /// The texel before the swap (the z texture reads it).
    raw_tex: Option<H>,
    tex: Option<H>,
    ras: Option<H>,
    konst: Option<H>,
}

impl Gen<'_> {
    /// Loads `member[index]` of the uniform block once.
    pub(super) fn uniform(&mut self, member: u32, index: u32) -> H {
        if let Some(&h) = self.loaded.get(&(member, index)) {
            return h;
        }
        let g = self.ir.global(self.uniforms);
        let fb = &mut self.ir.fb;
        let p = fb.at(g, member);
        let p = if SINGLE_MEMBERS.contains(&member) { p } else { fb.at(p, index) };
        let h = fb.load(p);
        self.loaded.insert((member, index), h);
        h
    }

    fn konst(&mut self, st: &StageKey) -> H {
        let kc = match st.kcsel {
            s @ 0..=7 => self.ir.iv(&[KONST_FIXED[s as usize] as i32; 3]),
            s @ 12..=15 => {
                let k = self.uniform(1, (s - 12) as u32);
                self.ir.swz(k, &[0, 1, 2])
            }
            s @ 16..=31 => {
                let k = self.uniform(1, (s % 4) as u32);
                let v = self.ir.comp(k, ((s - 16) / 4) as u32);
                self.ir.splat(3, v)
            }
            _ => self.ir.iv(&[0; 3]),
        };
        let ka = match st.kasel {
            s @ 0..=7 => self.ir.i(KONST_FIXED[s as usize] as i32),
            s @ 16..=31 => {
                let k = self.uniform(1, (s % 4) as u32);
                self.ir.comp(k, ((s - 16) / 4) as u32)
            }
            _ => self.ir.i(0),
        };
        self.ir.compose4(vec![kc, ka])
    }

    fn slot(
        &mut self,
        slot: Slot,
        regs: &[H; 4],
        vals: &mut StageVals,
        st: &StageKey,
        coord: Option<H>,
        bump: Option<H>,
    ) -> H {
        match slot {
            Slot::Reg(r) => regs[r],
            Slot::Const(c) => self.ir.iv(&[c; 4]),
            Slot::Tex => {
                if let Some(h) = vals.tex {
                    return h;
                }
                let h = if st.tex_enable {
                    let t = self.fetch(st.texmap, coord.expect("a sampling stage has a coordinate"));
                    vals.raw_tex = Some(t);
                    if st.tex_swap == [0, 1, 2, 3] {
                        t
                    } else {
                        self.ir.swz(t, &st.tex_swap)
                    }
                } else {
                    // Disabled textures read 255 (docs/gx-decisions.md).
                    self.ir.iv(&[255; 4])
                };
                vals.tex = Some(h);
                h
            }
            Slot::Ras => {
                if let Some(h) = vals.ras {
                    return h;
                }
                let h = match st.colorchan {
                    c @ (0 | 1) => {
                        let c = self.colors[c as usize];
                        if st.ras_swap == [0, 1, 2, 3] {
                            c
                        } else {
                            self.ir.swz(c, &st.ras_swap)
                        }
                    }
                    5 => {
                        let b = bump.expect("bump alpha computed for ras 5");
                        self.ir.splat(4, b)
                    }
                    6 => {
                        let b = bump.expect("bump alpha computed for ras 6");
                        let s = self.ir.shr(b, 1, 5);
                        let b = self.ir.or(b, s);
                        self.ir.splat(4, b)
                    }
                    _ => self.ir.iv(&[0; 4]),
                };
                vals.ras = Some(h);
                h
            }
            Slot::Konst => {
                if let Some(h) = vals.konst {
                    return h;
                }
                let h = self.konst(st);
                vals.konst = Some(h);
                h
            }
        }
    }

    /// Whether a slot's values are known to lie in 0-255, so that the 8-bit wrap of inputs a,
    /// b and c is a no-op: textures, rasterized colours and constants are bytes; registers and
    /// the konst registers are signed 11-bit (gx::tev).
    fn is_byte(slot: Slot, st: &StageKey) -> bool {
        match slot {
            Slot::Reg(_) => false,
            Slot::Konst => !(12..=31).contains(&st.kcsel) && !(16..=31).contains(&st.kasel),
            Slot::Tex | Slot::Ras | Slot::Const(_) => true,
        }
    }

    /// Operand a, b, c or d of a stage as one `vec4<i32>`: rgb from colour input `csel`, w from
    /// alpha input `asel`, wrapped to 8 bits when `wrap` (a, b and c; d keeps 11 bits).
    #[allow(clippy::too_many_arguments)]
    fn operand(
        &mut self,
        csel: u8,
        asel: u8,
        wrap: bool,
        regs: &[H; 4],
        vals: &mut StageVals,
        st: &StageKey,
        coord: Option<H>,
        bump: Option<H>,
    ) -> H {
        let (cs, bcast) = color_slot(csel);
        let as_ = alpha_slot(asel);
        let v = match (cs, as_) {
            // Constants are bytes already.
            (Slot::Const(x), Slot::Const(y)) => return self.ir.iv(&[x, x, x, y]),
            _ if cs == as_ => {
                let v = self.slot(cs, regs, vals, st, coord, bump);
                if bcast {
                    self.ir.swz(v, &[3, 3, 3, 3])
                } else {
                    v
                }
            }
            _ => {
                let rgb = match cs {
                    Slot::Const(x) => self.ir.iv(&[x; 3]),
                    _ => {
                        let v = self.slot(cs, regs, vals, st, coord, bump);
                        self.ir.swz(v, if bcast { &[3, 3, 3] } else { &[0, 1, 2] })
                    }
                };
                let w = match as_ {
                    Slot::Const(y) => self.ir.i(y),
                    _ => {
                        let v = self.slot(as_, regs, vals, st, coord, bump);
                        self.ir.comp(v, 3)
                    }
                };
                self.ir.compose4(vec![rgb, w])
            }
        };
        if wrap && !(Self::is_byte(cs, st) && Self::is_byte(as_, st)) {
            let m = self.ir.iv(&[255; 4]);
            self.ir.and(v, m)
        } else {
            v
        }
    }

    /// The whole body: indirect coordinates, the stages, output selection, the alpha test and
    /// the steps after it; returns `(r | g << 8 | b << 16 | a << 24, pass, z, ifog)`.
    fn body(&mut self) {
        let samples = self.indirect_samples();
        let (coords, bumps) = self.stage_coords(&samples);
        let mut regs = [0, 1, 2, 3].map(|r| self.uniform(0, r));
        let stages = self.key.stages.clone();
        let mut last_raw = None;
        for (i, st) in stages.iter().enumerate() {
            let mut vals = StageVals { raw_tex: None, tex: None, ras: None, konst: None };
            let (c, a) = (&st.color, &st.alpha);
            // The operands a, b, c, d as vec4s: rgb from the colour input, w from the alpha input.
            let mut ops = [self.ir.i(0); 4];
            for (k, op) in ops.iter_mut().enumerate() {
                *op = self.operand(c.inputs[k], a.inputs[k], k < 3, &regs, &mut vals, st, coords[i], bumps[i]);
            }
            let res = self.combine(ops, c, a);
            let (cdst, adst) = (c.dest as usize & 3, a.dest as usize & 3);
            if cdst == adst {
                regs[cdst] = res;
            } else {
                // Each combiner writes its lanes of its destination (a per-lane select).
                let rgb = self.ir.lanes([true, true, true, false]);
                regs[cdst] = self.ir.select(rgb, res, regs[cdst]);
                let w = self.ir.lanes([false, false, false, true]);
                regs[adst] = self.ir.select(w, res, regs[adst]);
            }
            last_raw = vals.raw_tex;
        }
        let last = stages.last().expect("a key has at least one stage");
        let (cdst, adst) = (last.color.dest as usize & 3, last.alpha.dest as usize & 3);
        let out = if cdst == adst {
            regs[cdst]
        } else {
            let rgb = self.ir.lanes([true, true, true, false]);
            self.ir.select(rgb, regs[cdst], regs[adst])
        };
        let mask = self.ir.iv(&[255; 4]);
        let out = self.ir.and(out, mask);
        let alpha = self.ir.comp(out, 3);
        let pass = self.alpha_test(alpha);
        // The z texture reads the last stage's texel before its swap.
        let texel = if self.key.post.ztex_op != 0 && last.tex_enable {
            Some(match last_raw {
                Some(t) => t,
                None => {
                    let c = coords[stages.len() - 1].expect("a sampling stage has a coordinate");
                    self.fetch(last.texmap, c)
                }
            })
        } else {
            None
        };
        let (rgba, z, ifog) = self.post(out, texel);
        // r | g << 8 | b << 16 | a << 24.
        let rgba = self.ir.as_u32(rgba);
        let sh = self.ir.uv(&[0, 8, 16, 24]);
        let v = self.ir.bin(Op::ShiftLeft, rgba, sh);
        let (r, g, b, a) = (self.ir.comp(v, 0), self.ir.comp(v, 1), self.ir.comp(v, 2), self.ir.comp(v, 3));
        let rg = self.ir.or(r, g);
        let ba = self.ir.or(b, a);
        let packed = self.ir.or(rg, ba);
        let rest = self.ir.compose(3, vec![pass, z, ifog]);
        let rest = self.ir.as_u32(rest);
        let (pass, z, ifog) = (self.ir.comp(rest, 0), self.ir.comp(rest, 1), self.ir.comp(rest, 2));
        let t = self.ir.t.u4;
        let out = self.ir.fb.compose(t, vec![packed, pass, z, ifog]);
        self.ir.fb.stmt(Statement::Return { value: Some(out) });
    }

    /// The regular combiner on all four lanes (rgb from `cl`, alpha from `al`):
    /// gx::tev::regular steps 1-8.
    fn regular(&mut self, a: H, b: H, c: H, d: H, cl: &CombinerKey, al: &CombinerKey) -> H {
        let lanes = [cl, cl, cl, al];
        let ir = &mut self.ir;
        // 1. c' = c + (c >> 7).
        let c7 = ir.shr(c, 4, 7);
        let c1 = ir.add(c, c7);
        // 2. lerp = a (256 - c') + b c'.
        let k256 = ir.iv(&[256; 4]);
        let inv = ir.sub(k256, c1);
        let pa = ir.mul(a, inv);
        let pb = ir.mul(b, c1);
        let mut lerp = ir.add(pa, pb);
        // 3. scale shift.
        let shifts: Vec<u32> = lanes.iter().map(|l| [0, 1, 2, 0][l.scale as usize & 3]).collect();
        let any_shift = shifts.iter().any(|&s| s != 0);
        if any_shift {
            let s = ir.uv(&shifts);
            lerp = ir.bin(Op::ShiftLeft, lerp, s);
        }
        // 4.-5. rounding constant, shift, negate for SUB: -(lerp >> 8).
        let rnd: Vec<i32> = lanes
            .iter()
            .map(|l| {
                if l.scale == 3 {
                    0
                } else if l.op != 0 {
                    127
                } else {
                    128
                }
            })
            .collect();
        if rnd.iter().any(|&r| r != 0) {
            let r = ir.iv(&rnd);
            lerp = ir.add(lerp, r);
        }
        lerp = ir.shr(lerp, 4, 8);
        if lanes.iter().any(|l| l.op != 0) {
            let sgn: Vec<i32> = lanes.iter().map(|l| if l.op != 0 { -1 } else { 1 }).collect();
            let sgn = ir.iv(&sgn);
            lerp = ir.mul(lerp, sgn);
        }
        // 6. bias added to d, shifted with it.
        let bias: Vec<i32> = lanes.iter().map(|l| [0, 128, -128, 0][l.bias as usize & 3]).collect();
        let mut dd = d;
        if bias.iter().any(|&b| b != 0) {
            let b = ir.iv(&bias);
            dd = ir.add(dd, b);
        }
        if any_shift {
            let s = ir.uv(&shifts);
            dd = ir.bin(Op::ShiftLeft, dd, s);
        }
        let mut r = ir.add(dd, lerp);
        // 7. divide by two.
        if lanes.iter().any(|l| l.scale == 3) {
            let s: Vec<u32> = lanes.iter().map(|l| (l.scale == 3) as u32).collect();
            let s = ir.uv(&s);
            r = ir.bin(Op::ShiftRight, r, s);
        }
        // 8. clamp.
        let lo: Vec<i32> = lanes.iter().map(|l| if l.clamp { 0 } else { -1024 }).collect();
        let hi: Vec<i32> = lanes.iter().map(|l| if l.clamp { 255 } else { 1023 }).collect();
        let (lo, hi) = (ir.iv(&lo), ir.iv(&hi));
        ir.clamp(r, lo, hi)
    }

    /// R8 / GR16 / BGR24 key of the wrapped rgb lanes of `v` (gx::tev::compare_key).
    fn compare_key(&mut self, v: H, scale: u8) -> H {
        let ir = &mut self.ir;
        let r = ir.comp(v, 0);
        if scale == 0 {
            return r;
        }
        let g = ir.comp(v, 1);
        let g = ir.shl(g, 1, 8);
        let k = ir.or(g, r);
        if scale == 1 {
            return k;
        }
        let b = ir.comp(v, 2);
        let b = ir.shl(b, 1, 16);
        ir.or(b, k)
    }

    /// The condition of a compare combiner: per lane (`vec4<bool>`) for RGB8 / A8 (scale 3),
    /// else one bool from the keys of the colour operands (gx::tev::compare_color /
    /// compare_alpha: the alpha compare's wide keys read the colour inputs too).
    fn compare_cond(&mut self, a: H, b: H, k: &CombinerKey) -> (H, bool) {
        let op = if k.op == 0 { Op::Greater } else { Op::Equal };
        if k.scale == 3 {
            (self.ir.bin(op, a, b), true)
        } else {
            let (x, y) = (self.compare_key(a, k.scale), self.compare_key(b, k.scale));
            (self.ir.bin(op, x, y), false)
        }
    }

    /// One stage's combiners on vec4 operands (rgb lanes: colour combiner, w: alpha combiner).
    fn combine(&mut self, [a, b, c, d]: [H; 4], ck: &CombinerKey, ak: &CombinerKey) -> H {
        let (ccmp, acmp) = (ck.bias == 3, ak.bias == 3);
        // A lane of the other kind takes this kind's settings (its result is not used).
        let regular = (!ccmp || !acmp).then(|| {
            let (cl, al) = (if ccmp { ak } else { ck }, if acmp { ck } else { ak });
            self.regular(a, b, c, d, cl, al)
        });
        if !ccmp && !acmp {
            return regular.expect("regular lanes");
        }
        let (cl, al) = (if ccmp { ck } else { ak }, if acmp { ak } else { ck });
        // d + (cond ? c : 0), clamped per lane.
        let (cc, cvec) = self.compare_cond(a, b, cl);
        let same = (cl.op, cl.scale) == (al.op, al.scale);
        let cond = match (same, cvec) {
            (true, true) => cc,
            (true, false) => self.ir.splat(4, cc),
            (false, _) => {
                let (ac, avec) = self.compare_cond(a, b, al);
                let rgb = if cvec { self.ir.swz(cc, &[0, 1, 2]) } else { self.ir.splat(3, cc) };
                let w = if avec { self.ir.comp(ac, 3) } else { ac };
                let t = self.ir.t.b4;
                self.ir.fb.compose(t, vec![rgb, w])
            }
        };
        let zero = self.ir.iv(&[0; 4]);
        let add = self.ir.select(cond, c, zero);
        let v = self.ir.add(d, add);
        let lanes = [cl, cl, cl, al];
        let lo: Vec<i32> = lanes.iter().map(|l| if l.clamp { 0 } else { -1024 }).collect();
        let hi: Vec<i32> = lanes.iter().map(|l| if l.clamp { 255 } else { 1023 }).collect();
        let (lo, hi) = (self.ir.iv(&lo), self.ir.iv(&hi));
        let compared = self.ir.clamp(v, lo, hi);
        match regular {
            None => compared,
            Some(r) => {
                let m = self.ir.lanes([ccmp, ccmp, ccmp, acmp]);
                self.ir.select(m, compared, r)
            }
        }
    }

    /// One alpha compare: `Some(cond)`, or the constant result of NEVER / ALWAYS.
    fn alpha_compare(&mut self, alpha: H, reference: u32, func: u8) -> Result<H, bool> {
        let op = match func & 7 {
            0 => return Err(false),
            1 => Op::Less,
            2 => Op::Equal,
            3 => Op::LessEqual,
            4 => Op::Greater,
            5 => Op::NotEqual,
            6 => Op::GreaterEqual,
            _ => return Err(true),
        };
        let refs = self.uniform(3, 0);
        let r = self.ir.comp(refs, reference);
        Ok(self.ir.bin(op, alpha, r))
    }

    /// The alpha test (gx::tev::alpha_test) as an i32: 1 when it passes, else 0; constant
    /// when the functions make it so.
    fn alpha_test(&mut self, alpha: H) -> H {
        let t = self.key.alpha_test;
        let x = self.alpha_compare(alpha, 0, t.comp0);
        let y = self.alpha_compare(alpha, 1, t.comp1);
        let fb = &mut self.ir.fb;
        let lit = |fb: &mut FnBuilder, r: Result<H, bool>| match r {
            Ok(h) => h,
            Err(b) => fb.bool(b),
        };
        // Fold the constant cases so that an always-passing test leaves no branch.
        let pass: Result<H, bool> = match (t.logic & 3, x, y) {
            (0, Err(false), _) | (0, _, Err(false)) => Err(false),
            (0, Err(true), o) | (0, o, Err(true)) => o,
            (1, Err(true), _) | (1, _, Err(true)) => Err(true),
            (1, Err(false), o) | (1, o, Err(false)) => o,
            (0, Ok(p), Ok(q)) => Ok(fb.bin(Op::LogicalAnd, p, q)),
            (1, Ok(p), Ok(q)) => Ok(fb.bin(Op::LogicalOr, p, q)),
            (l, p, q) => {
                let (p, q) = (lit(fb, p), lit(fb, q));
                Ok(fb.bin(if l == 2 { Op::NotEqual } else { Op::Equal }, p, q))
            }
        };
        match pass {
            Err(b) => fb.i32(b as i32),
            Ok(p) => {
                let (yes, no) = (fb.i32(1), fb.i32(0));
                fb.select(p, yes, no)
            }
        }
    }
}

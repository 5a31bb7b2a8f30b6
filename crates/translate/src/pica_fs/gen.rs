//! The module of a fragment key: globals, the pipeline function (steps 1-8 of
//! `pica::fixed::trace`, straight-line code with every key field folded in), and the fragment
//! and compute entry points around it. The TexEnv stages are in `stages`.

use rustc_hash::FxHashMap;

use naga::{
    AddressSpace, BinaryOperator as Op, Binding, Expression, FunctionArgument, FunctionResult, GlobalVariable, Handle,
    ImageClass, ImageDimension, ImageQuery, Interpolation, MathFunction, Module, Sampling, Scalar, ScalarKind,
    ShaderStage, Span, Statement, StructMember, SwizzleComponent, Type, TypeInner, VectorSize,
};
use pica::fixed::{decisions, FogKey, FragmentKey, TextureUnitKey, UnitKind};
use pica::regs::layouts::{CompareFunc, OutputSemantic as S};

use super::lighting::{LIGHT_VEC4S, LUT_TABLES, LUT_VEC4S};
use super::values::Shared;
use super::PROCTEX_OFFSET;
use super::{InputMap, TextureBinding};
use super::{BUFFER_COLOR_OFFSET, DEPTH_OFFSET, FOG_COLOR_OFFSET, FOG_LUT_OFFSET, PARAMS_OFFSET, SAMPLERS_OFFSET};
use super::{COMPUTE_ENTRY, COMPUTE_IN_BINDING, COMPUTE_OUT_BINDING, COMPUTE_WORKGROUP, ENTRY, PIPELINE_FN};
use super::{KIND_COLOR, KIND_DISCARDED, KIND_SHADOW, RECORD_VEC4S, TEXTURE_BINDING, UNIFORM_BINDING, UNIFORM_SIZE};
use super::{LIGHTING_LIGHTS_OFFSET, LIGHTING_LUTS_OFFSET, LIGHTING_OFFSET};
use super::{PROCTEX_ALPHA_LUT_OFFSET, PROCTEX_COLOR_LUT_OFFSET, PROCTEX_DIFF_LUT_OFFSET, PROCTEX_MAP_LUT_OFFSET};
use crate::builder::{array, entry_point, global, vector, FnBuilder, F32, I32, U32};

pub(super) type H = Handle<Expression>;

/// Members of the uniform block, in order.
pub(super) mod member {
    pub const TEXENV_CONSTANT: u32 = 0;
    pub const BUFFER_COLOR: u32 = 1;
    pub const PARAMS: u32 = 2;
    pub const FOG_COLOR: u32 = 3;
    pub const DEPTH: u32 = 4;
    pub const SAMPLERS: u32 = 5;
    pub const FOG_LUT: u32 = 6;
    pub const PROCTEX_NOISE: u32 = 7;
    pub const PROCTEX_PARAMS: u32 = 8;
    pub const PROCTEX_LOD: u32 = 9;
    pub const PROCTEX_LEVELS: u32 = 10;
    pub const PROCTEX_MAP_LUT: u32 = 11;
    pub const PROCTEX_ALPHA_LUT: u32 = 12;
    pub const PROCTEX_COLOR_LUT: u32 = 13;
    pub const PROCTEX_DIFF_LUT: u32 = 14;
    pub const LIGHTING_GLOBAL: u32 = 15;
    pub const LIGHTING_LIGHTS: u32 = 16;
    pub const LIGHTING_LUTS: u32 = 17;
}

/// The types the generator uses.
#[derive(Clone, Copy)]
pub(super) struct Types {
    pub f32: Handle<Type>,
    pub f2: Handle<Type>,
    pub f3: Handle<Type>,
    pub f4: Handle<Type>,
    pub i2: Handle<Type>,
    pub i3: Handle<Type>,
    pub i4: Handle<Type>,
    pub u4: Handle<Type>,
}

impl Types {
    fn new(m: &mut Module) -> Self {
        Types {
            f32: crate::builder::scalar(m, F32),
            f2: vector(m, VectorSize::Bi, F32),
            f3: vector(m, VectorSize::Tri, F32),
            f4: vector(m, VectorSize::Quad, F32),
            i2: vector(m, VectorSize::Bi, I32),
            i3: vector(m, VectorSize::Tri, I32),
            i4: vector(m, VectorSize::Quad, I32),
            u4: vector(m, VectorSize::Quad, U32),
        }
    }
}

/// The pipeline function's arguments.
pub(super) struct Args {
    pub color: H,
    pub texcoord: [H; 3],
    pub texcoord0_w: H,
    /// Read by fragment lighting.
    pub normquat: H,
    pub view: H,
    pub z_over_w: H,
    pub w: H,
    /// `FragmentInputs::proctex_duv` (read by the mipmapped procedural-texture filters).
    pub proctex_duv: H,
}

/// The generator of the pipeline function.
pub(super) struct Gen<'m> {
    pub fb: FnBuilder<'m>,
    pub t: Types,
    pub key: &'m FragmentKey,
    pub(super) uniforms: Handle<GlobalVariable>,
    images: [Option<Handle<GlobalVariable>>; 3],
    pub(super) args: Args,
    pub(super) loaded: FxHashMap<(u32, u32), H>,
    /// Texture units 0-2 as the combiners see them (`vec4<i32>`), computed on first use.
    units: [Option<H>; 3],
    /// Values made once and shared by every use (`values::Shared`).
    pub(super) shared: Shared,
}

pub(super) const COMP: [SwizzleComponent; 4] =
    [SwizzleComponent::X, SwizzleComponent::Y, SwizzleComponent::Z, SwizzleComponent::W];

pub(super) fn size_of(n: usize) -> VectorSize {
    match n {
        2 => VectorSize::Bi,
        3 => VectorSize::Tri,
        _ => VectorSize::Quad,
    }
}

fn location(location: u32) -> Binding {
    Binding::Location {
        location,
        interpolation: Some(Interpolation::Perspective),
        sampling: Some(Sampling::Center),
        blend_src: None,
        per_primitive: false,
    }
}

fn output_location(location: u32) -> Binding {
    Binding::Location { location, interpolation: None, sampling: None, blend_src: None, per_primitive: false }
}

/// The texture units the pipeline samples: enabled units read by a source a combine function
/// reads or by fragment lighting as its bump or shadow unit (the reference samples an enabled
/// unit only for its colour, so an unread unit changes nothing).
pub(super) fn units_read(key: &FragmentKey) -> [bool; 3] {
    let mut read = [false; 3];
    for u in key.lighting.units_read().into_iter().flatten() {
        if u < 3 {
            read[usize::from(u)] |= key.textures[usize::from(u)].kind != UnitKind::Off;
        }
    }
    for (i, st) in key.texenv.iter().enumerate() {
        for s in super::stages::sources_read(i, st) {
            match super::stages::texture_unit(s) {
                Some(u) if u < 3 => read[u] |= key.textures[u].kind != UnitKind::Off,
                _ => {}
            }
        }
    }
    read
}

/// The module of `key` and the texture bindings it declares.
pub(super) fn module(key: &FragmentKey, inputs: &InputMap, compute: bool) -> (Module, [Option<TextureBinding>; 3]) {
    let mut m = Module::default();
    let t = Types::new(&mut m);
    let member = |m: &mut Module, name: &str, base: Handle<Type>, len: u32, offset: u32| {
        let ty = if len == 1 { base } else { array(m, base, len, 16) };
        StructMember { name: Some(name.into()), ty, binding: None, offset }
    };
    let members = vec![
        member(&mut m, "texenv_constant", t.i4, 6, 0),
        member(&mut m, "buffer_color", t.i4, 1, BUFFER_COLOR_OFFSET),
        member(&mut m, "params", t.i4, 1, PARAMS_OFFSET),
        member(&mut m, "fog_color", t.i4, 1, FOG_COLOR_OFFSET),
        member(&mut m, "depth", t.f4, 1, DEPTH_OFFSET),
        member(&mut m, "samplers", t.i4, 6, SAMPLERS_OFFSET),
        member(&mut m, "fog_lut", t.f4, 128, FOG_LUT_OFFSET),
        member(&mut m, "proctex_noise", t.f4, 1, PROCTEX_OFFSET),
        member(&mut m, "proctex_params", t.f4, 1, PROCTEX_OFFSET + 16),
        member(&mut m, "proctex_lod", t.f4, 1, PROCTEX_OFFSET + 32),
        member(&mut m, "proctex_levels", t.u4, 8, PROCTEX_OFFSET + 48),
        member(&mut m, "proctex_map_lut", t.f4, 128, PROCTEX_MAP_LUT_OFFSET),
        member(&mut m, "proctex_alpha_lut", t.f4, 128, PROCTEX_ALPHA_LUT_OFFSET),
        member(&mut m, "proctex_color_lut", t.f4, 256, PROCTEX_COLOR_LUT_OFFSET),
        member(&mut m, "proctex_diff_lut", t.f4, 256, PROCTEX_DIFF_LUT_OFFSET),
        member(&mut m, "lighting_global", t.f4, 3, LIGHTING_OFFSET),
        member(&mut m, "lighting_lights", t.f4, 8 * LIGHT_VEC4S, LIGHTING_LIGHTS_OFFSET),
        member(&mut m, "lighting_luts", t.f4, LUT_TABLES * LUT_VEC4S, LIGHTING_LUTS_OFFSET),
    ];
    let block = m.types.insert(
        Type { name: Some("PicaFragmentUniforms".into()), inner: TypeInner::Struct { members, span: UNIFORM_SIZE } },
        Span::UNDEFINED,
    );
    let uniforms = global(&mut m, "pica", AddressSpace::Uniform, UNIFORM_BINDING, block);
    let mut images = [None; 3];
    let mut bindings = [None; 3];
    for (u, read) in units_read(key).into_iter().enumerate() {
        if !read {
            continue;
        }
        let cube = matches!(key.textures[u].kind, UnitKind::Cube | UnitKind::ShadowCube);
        let image = m.types.insert(
            Type {
                name: None,
                inner: TypeInner::Image {
                    dim: ImageDimension::D2,
                    arrayed: cube,
                    class: ImageClass::Sampled { kind: ScalarKind::Uint, multi: false },
                },
            },
            Span::UNDEFINED,
        );
        images[u] =
            Some(global(&mut m, &format!("texture{u}"), AddressSpace::Handle, TEXTURE_BINDING + u as u32, image));
        bindings[u] = Some(if cube { TextureBinding::Cube } else { TextureBinding::D2 });
    }
    let mut fb = FnBuilder::new(&mut m, PIPELINE_FN);
    let args = Args {
        color: fb.arg("color", t.f4),
        texcoord: [fb.arg("texcoord0", t.f2), fb.arg("texcoord1", t.f2), fb.arg("texcoord2", t.f2)],
        texcoord0_w: fb.arg("texcoord0_w", t.f32),
        normquat: fb.arg("normquat", t.f4),
        view: fb.arg("view", t.f3),
        z_over_w: fb.arg("z_over_w", t.f32),
        w: fb.arg("w", t.f32),
        proctex_duv: fb.arg("proctex_duv", t.f2),
    };
    let mut g = Gen {
        fb,
        t,
        key,
        uniforms,
        images,
        args,
        loaded: FxHashMap::default(),
        units: [None; 3],
        shared: Shared::default(),
    };
    let result = g.body();
    g.fb.stmt(Statement::Return { value: Some(result) });
    let mut function = g.fb.finish();
    function.result = Some(FunctionResult { ty: t.u4, binding: None });
    let pipeline = m.functions.append(function, Span::UNDEFINED);
    fragment_entry(&mut m, &t, pipeline, inputs, key);
    if compute {
        compute_entry(&mut m, &t, pipeline);
    }
    // The generator builds the values each path of a stage may read (every operand of a
    // source, the wrap modes of a texture) and the key then picks among them: what it did not
    // pick is dead, and validating and writing it was over a third of the cost per key
    // (BENCHMARKS.md "PICA200 fixed-function fragment translation"). naga's compaction drops
    // unreferenced expressions and re-indexes the rest, emit ranges included.
    naga::compact::compact(&mut m, naga::compact::KeepUnused::Yes);
    (m, bindings)
}

// ---- the pipeline ----

impl Gen<'_> {
    /// Steps 1-8; returns the result word (`vec4<u32>`, `super::ResultWord`).
    fn body(&mut self) -> H {
        let primary = self.primary_color();
        let depth = self.fragment_depth();
        let combined = self.texenv(primary);
        let zero = self.uint(0);
        let key = self.key;
        if key.shadow_render {
            // 6. (D10.)
            let depth_bits = self.shadow_write_depth(depth);
            let intensity = self.comp(combined, 1);
            let intensity = self.fb.convert(intensity, ScalarKind::Uint);
            let kind = self.uint(KIND_SHADOW);
            let shadow = self.fb.compose(self.t.u4, vec![zero, kind, depth_bits, intensity]);
            if decisions::SHADOW_MODE_SKIPS_ALPHA_TEST {
                return shadow;
            }
            let pass = self.alpha_test(combined);
            let discarded = self.discarded();
            return self.sel(4, pass, shadow, discarded);
        }
        // 7.
        let pass = self.alpha_test(combined);
        // 8.
        let out = self.fog(depth, combined);
        let rgba = self.pack(out);
        let kind = self.uint(KIND_COLOR);
        let depth_bits = self.fb.bitcast(depth, ScalarKind::Uint);
        let color = self.fb.compose(self.t.u4, vec![rgba, kind, depth_bits, zero]);
        let discarded = self.discarded();
        self.sel(4, pass, color, discarded)
    }

    fn discarded(&mut self) -> H {
        let (zero, kind) = (self.uint(0), self.uint(KIND_DISCARDED));
        self.fb.compose(self.t.u4, vec![zero, kind, zero, zero])
    }

    /// Step 1 (decision D5): `round(clamp01(c) * 255)` half away from zero, as
    /// `f + (x - f >= 0.5)` with `f = floor(x)` (exact: x - f is exact in f32).
    fn primary_color(&mut self) -> H {
        let c = self.clamp01(4, self.args.color);
        let k = self.float(1, 255.0);
        let x = self.bin(Op::Multiply, c, k);
        let f = self.fb.math1(MathFunction::Floor, x);
        let frac = self.bin(Op::Subtract, x, f);
        let half = self.float(4, 0.5);
        let up = self.bin(Op::GreaterEqual, frac, half);
        let (one, zero) = (self.float(4, 1.0), self.float(4, 0.0));
        let add = self.fb.select(up, one, zero);
        let r = self.bin(Op::Add, f, add);
        self.fb.convert(r, ScalarKind::Sint)
    }

    /// Step 2 (`fog::fragment_depth`).
    fn fragment_depth(&mut self) -> H {
        let d = self.uniform(member::DEPTH, 0);
        let (scale, offset) = (self.comp(d, 0), self.comp(d, 1));
        let x = self.bin(Op::Multiply, self.args.z_over_w, scale);
        let mut x = self.bin(Op::Add, x, offset);
        if self.key.w_buffer {
            x = self.bin(Op::Multiply, x, self.args.w);
        }
        self.clamp01(1, x)
    }

    /// `trunc(clamp01(depth) * 0xFFFFFF)` as u32 (`output::ShadowWrite::new`).
    fn shadow_write_depth(&mut self, depth: H) -> H {
        let d = self.clamp01(1, depth);
        let k = self.float(1, 16_777_215.0);
        let x = self.bin(Op::Multiply, d, k);
        self.fb.convert(x, ScalarKind::Uint)
    }

    /// Step 3: texture unit `unit` as the combiners see it (`texture::unit_color`).
    pub fn unit(&mut self, unit: usize) -> H {
        if let Some(h) = self.units[unit] {
            return h;
        }
        let key: TextureUnitKey = self.key.textures[unit];
        let h = if key.kind == UnitKind::Off || self.images[unit].is_none() {
            self.int(4, 0)
        } else {
            self.unit_color(unit, key)
        };
        self.units[unit] = Some(h);
        h
    }

    fn unit_color(&mut self, unit: usize, key: TextureUnitKey) -> H {
        let tc = self.args.texcoord[usize::from(key.coords.min(2))];
        let (u, v) = (self.comp(tc, 0), self.comp(tc, 1));
        let w = self.args.texcoord0_w;
        let divide = |g: &mut Self| (g.bin(Op::Divide, u, w), g.bin(Op::Divide, v, w));
        let (s, t, layer, shadow_z) = match key.kind {
            UnitKind::Off => unreachable!("an enabled unit"),
            UnitKind::Tex2d => (u, v, None, None),
            UnitKind::Projection => {
                let (s, t) = divide(self);
                (s, t, None, None)
            }
            UnitKind::Shadow2d { orthographic } => {
                let (s, t) = if orthographic { (u, v) } else { divide(self) };
                let z = self.fb.math1(MathFunction::Abs, w);
                (s, t, None, Some(z))
            }
            UnitKind::Cube | UnitKind::ShadowCube => {
                let (face, s, t, z) = self.cube_coords(u, v, w);
                (s, t, Some(face), key.kind.is_shadow().then_some(z))
            }
        };
        let texel = self.fetch(unit, s, t, layer);
        match shadow_z {
            None => texel,
            Some(z) => self.shadow_compare(texel, z),
        }
    }

    /// `texture::cube_coords` (decision D11): the face index (i32, `CubeFace` order), (s, t)
    /// and |z| of the major axis.
    fn cube_coords(&mut self, u: H, v: H, w: H) -> (H, H, H, H) {
        let (au, av, aw) = (
            self.fb.math1(MathFunction::Abs, u),
            self.fb.math1(MathFunction::Abs, v),
            self.fb.math1(MathFunction::Abs, w),
        );
        let gt_v = self.bin(Op::Greater, au, av);
        let gt_w = self.bin(Op::Greater, au, aw);
        let is_x = self.bin(Op::LogicalAnd, gt_v, gt_w);
        let is_y = self.bin(Op::Greater, av, aw);
        let zero = self.float(1, 0.0);
        let (nu, nv, nw) = (self.fb.neg(u), self.fb.neg(v), self.fb.neg(w));
        let (pu, pv, pw) =
            (self.bin(Op::Greater, u, zero), self.bin(Op::Greater, v, zero), self.bin(Op::Greater, w, zero));
        // (x, y, z, face) of each axis.
        let xy = self.fb.select(pu, nv, v);
        let yx = self.fb.select(pv, u, nu);
        let zy = self.fb.select(pw, nv, v);
        let face = |g: &mut Self, c: H, a: i32, b: i32| {
            let (a, b) = (g.int(1, a), g.int(1, b));
            g.fb.select(c, a, b)
        };
        let (fx, fy, fz) = (face(self, pu, 0, 1), face(self, pv, 2, 3), face(self, pw, 4, 5));
        let pick = |g: &mut Self, x: H, y: H, z: H| {
            let yz = g.fb.select(is_y, y, z);
            g.fb.select(is_x, x, yz)
        };
        let x = pick(self, nw, yx, u);
        let y = pick(self, xy, w, zy);
        let z = pick(self, u, v, w);
        let f = pick(self, fx, fy, fz);
        let half = self.float(1, 0.5);
        let st = |g: &mut Self, a: H| {
            let q = g.bin(Op::Divide, a, z);
            let q = g.bin(Op::Multiply, q, half);
            g.bin(Op::Add, q, half)
        };
        let (s, t) = (st(self, x), st(self, y));
        let az = self.fb.math1(MathFunction::Abs, z);
        (f, s, t, az)
    }

    /// The texel fetch of docs/abi.md: nearest texel `floor(s * width)`, `floor(t * height)`
    /// (products outside +/-2^24, NaN included, read as 0), wrapped by the unit's wrap modes
    /// (clamp to edge, clamp to border, repeat, mirrored repeat; values 4-7 clamp to edge), as
    /// `vec4<i32>`.
    fn fetch(&mut self, unit: usize, s: H, t: H, layer: Option<H>) -> H {
        let image = self.images[unit].expect("a declared unit");
        let img = self.fb.global(image);
        let level = self.int(1, 0);
        let dims = self.fb.expr(Expression::ImageQuery { image: img, query: ImageQuery::Size { level: Some(level) } });
        let size = self.fb.convert(dims, ScalarKind::Sint);
        let size_f = self.fb.convert(dims, ScalarKind::Float);
        let st = self.fb.compose(self.t.f2, vec![s, t]);
        let p = self.bin(Op::Multiply, st, size_f);
        let (lo, hi) = (self.float(2, -16_777_216.0), self.float(2, 16_777_216.0));
        let above = self.bin(Op::Greater, p, lo);
        let below = self.bin(Op::Less, p, hi);
        let ok = self.bin(Op::And, above, below);
        let zero = self.float(2, 0.0);
        let p = self.fb.select(ok, p, zero);
        let p = self.fb.math1(MathFunction::Floor, p);
        let x = self.fb.convert(p, ScalarKind::Sint);
        let modes = self.uniform(member::SAMPLERS, 2 * unit as u32);
        let modes = self.swz(modes, &[0, 1]);
        let (i0, i1) = (self.int(2, 0), self.int(2, 1));
        // Clamp to edge.
        let last = self.bin(Op::Subtract, size, i1);
        let edge = self.clamp(x, i0, last);
        // Repeat: Euclidean remainder.
        let rem = |g: &mut Self, x: H, n: H| {
            let r = g.bin(Op::Modulo, x, n);
            let neg = g.bin(Op::Less, r, i0);
            let up = g.bin(Op::Add, r, n);
            g.fb.select(neg, up, r)
        };
        let repeat = rem(self, x, size);
        // Mirrored repeat.
        let two = self.int(2, 2);
        let period = self.bin(Op::Multiply, size, two);
        let m = rem(self, x, period);
        let back = self.bin(Op::Subtract, period, i1);
        let back = self.bin(Op::Subtract, back, m);
        let upper = self.bin(Op::GreaterEqual, m, size);
        let mirror = self.fb.select(upper, back, m);
        let (k2, k3, k1) = (self.int(2, 2), self.int(2, 3), self.int(2, 1));
        let is_repeat = self.bin(Op::Equal, modes, k2);
        let is_mirror = self.bin(Op::Equal, modes, k3);
        let is_border = self.bin(Op::Equal, modes, k1);
        let c = self.fb.select(is_mirror, mirror, edge);
        let c = self.fb.select(is_repeat, repeat, c);
        let before = self.bin(Op::Less, x, i0);
        let after = self.bin(Op::GreaterEqual, x, size);
        let outside = self.bin(Op::InclusiveOr, before, after);
        let outside = self.bin(Op::And, outside, is_border);
        let border = self.fb.expr(Expression::Relational { fun: naga::RelationalFunction::Any, argument: outside });
        let img = self.fb.global(image);
        let level = self.int(1, 0);
        let texel = self.fb.expr(Expression::ImageLoad {
            image: img,
            coordinate: c,
            array_index: layer,
            sample: None,
            level: Some(level),
        });
        let texel = self.fb.convert(texel, ScalarKind::Sint);
        let border_color = self.uniform(member::SAMPLERS, 2 * unit as u32 + 1);
        self.sel(4, border, border_color, texel)
    }

    /// Decision D9 on a stored shadow texel: `z_ref >= trunc(min(z, 1) * 0xFFFFFF) - bias`
    /// gives R on all four channels, else 0 (`texture::shadow_depth`).
    fn shadow_compare(&mut self, texel: H, z: H) -> H {
        let z = self.clamp01(1, z);
        let k = self.float(1, 16_777_215.0);
        let zi = self.bin(Op::Multiply, z, k);
        let zi = self.fb.convert(zi, ScalarKind::Sint);
        let params = self.uniform(member::PARAMS, 0);
        let bias = self.comp(params, 1);
        let zi = self.bin(Op::Subtract, zi, bias);
        let (g, b, a) = (self.comp(texel, 1), self.comp(texel, 2), self.comp(texel, 3));
        let a = self.shl(a, 16);
        let b = self.shl(b, 8);
        let z_ref = self.bin(Op::InclusiveOr, a, b);
        let z_ref = self.bin(Op::InclusiveOr, z_ref, g);
        let pass = self.bin(Op::GreaterEqual, z_ref, zi);
        let r = self.comp(texel, 0);
        let zero = self.int(1, 0);
        let i = self.fb.select(pass, r, zero);
        self.splat(4, i)
    }

    pub fn shl(&mut self, a: H, by: u32) -> H {
        let s = self.uint(by);
        self.bin(Op::ShiftLeft, a, s)
    }

    /// Step 7 (`output::alpha_test`) on the combiner's alpha: a bool.
    fn alpha_test(&mut self, combined: H) -> H {
        use CompareFunc::*;
        let op = match self.key.alpha_test {
            Never => return self.boolean(false),
            Always | Other(_) => return self.boolean(true),
            Equal => Op::Equal,
            NotEqual => Op::NotEqual,
            Less => Op::Less,
            LessEqual => Op::LessEqual,
            Greater => Op::Greater,
            GreaterEqual => Op::GreaterEqual,
        };
        let alpha = self.comp(combined, 3);
        let params = self.uniform(member::PARAMS, 0);
        let reference = self.comp(params, 0);
        self.bin(op, alpha, reference)
    }

    /// Step 8 (`fog::apply`).
    fn fog(&mut self, depth: H, color: H) -> H {
        match self.key.fog {
            FogKey::Off => color,
            FogKey::Gas if decisions::GAS_PASSES_THROUGH => color,
            FogKey::Gas => self.int(4, 0),
            FogKey::Fog { z_flip } => {
                let depth = if decisions::FOG_USES_CLAMPED_DEPTH { self.clamp01(1, depth) } else { depth };
                let k128 = self.float(1, 128.0);
                let index = if z_flip {
                    let one = self.float(1, 1.0);
                    let d = self.bin(Op::Subtract, one, depth);
                    self.bin(Op::Multiply, d, k128)
                } else {
                    self.bin(Op::Multiply, depth, k128)
                };
                // i = index >= 127 ? 127 : index > 0 ? floor(index) : 0 (`fog::fog_factor`).
                let (k127, zero) = (self.float(1, 127.0), self.float(1, 0.0));
                let fl = self.fb.math1(MathFunction::Floor, index);
                let pos = self.bin(Op::Greater, index, zero);
                let top = self.bin(Op::GreaterEqual, index, k127);
                let i = self.fb.select(pos, fl, zero);
                let i = self.fb.select(top, k127, i);
                let f = self.bin(Op::Subtract, index, i);
                let iu = self.fb.convert(i, ScalarKind::Uint);
                let g = self.fb.global(self.uniforms);
                let lut = self.fb.at(g, member::FOG_LUT);
                let entry = self.fb.index(lut, iu);
                let entry = self.fb.load(entry);
                let (value, delta) = (self.comp(entry, 0), self.comp(entry, 1));
                let df = self.bin(Op::Multiply, delta, f);
                let factor = self.bin(Op::Add, value, df);
                let factor = self.clamp01(1, factor);
                let rgb = self.swz(color, &[0, 1, 2]);
                let rgb = self.fb.convert(rgb, ScalarKind::Float);
                let fog_color = self.uniform(member::FOG_COLOR, 0);
                let fog_rgb = self.swz(fog_color, &[0, 1, 2]);
                let fog_rgb = self.fb.convert(fog_rgb, ScalarKind::Float);
                let one = self.float(1, 1.0);
                let inv = self.bin(Op::Subtract, one, factor);
                let a = self.bin(Op::Multiply, rgb, factor);
                let b = self.bin(Op::Multiply, fog_rgb, inv);
                let v = self.bin(Op::Add, a, b);
                // Decision D14: v >= 255 ? 255 : v > 0 ? trunc(v) : 0.
                let (k255, z3) = (self.float(3, 255.0), self.float(3, 0.0));
                let pos = self.bin(Op::Greater, v, z3);
                let top = self.bin(Op::GreaterEqual, v, k255);
                let v = self.fb.select(pos, v, z3);
                let v = self.fb.select(top, k255, v);
                let v = self.fb.convert(v, ScalarKind::Sint);
                let alpha = self.comp(color, 3);
                self.fb.compose(self.t.i4, vec![v, alpha])
            }
        }
    }

    /// R | G << 8 | B << 16 | A << 24 of a `vec4<i32>` of bytes, as u32.
    fn pack(&mut self, c: H) -> H {
        let mut acc = self.comp(c, 0);
        for k in 1..4u32 {
            let x = self.comp(c, k);
            let x = self.shl(x, 8 * k);
            acc = self.bin(Op::InclusiveOr, acc, x);
        }
        self.fb.bitcast(acc, ScalarKind::Uint)
    }
}

/// `main`: the output registers the input map reads at their locations and the fragment
/// position; the pipeline function; discard when the alpha test fails; the colour (or the
/// shadow write as R = intensity, G, B, A = depth bytes) as unorm floats at location 0 and the
/// fragment depth.
fn fragment_entry(m: &mut Module, t: &Types, pipeline: Handle<naga::Function>, inputs: &InputMap, key: &FragmentKey) {
    let out_ty = m.types.insert(
        Type {
            name: Some("FragmentOutput".into()),
            inner: TypeInner::Struct {
                members: vec![
                    StructMember { name: Some("color".into()), ty: t.f4, binding: Some(output_location(0)), offset: 0 },
                    StructMember {
                        name: Some("depth".into()),
                        ty: t.f32,
                        binding: Some(Binding::BuiltIn(naga::BuiltIn::FragDepth)),
                        offset: 16,
                    },
                ],
                span: 32,
            },
        },
        Span::UNDEFINED,
    );
    let mut fb = FnBuilder::new(m, ENTRY);
    fb.func.arguments.push(FunctionArgument {
        name: Some("frag_coord".into()),
        ty: t.f4,
        binding: Some(Binding::BuiltIn(naga::BuiltIn::Position { invariant: false })),
    });
    let frag_coord = fb.expr(Expression::FunctionArgument(0));
    let mut regs = FxHashMap::default();
    for r in inputs.registers() {
        let i = fb.func.arguments.len() as u32;
        fb.func.arguments.push(FunctionArgument {
            name: Some(format!("o{r}")),
            ty: t.f4,
            binding: Some(location(u32::from(r))),
        });
        regs.insert(r, fb.expr(Expression::FunctionArgument(i)));
    }
    let sem = |fb: &mut FnBuilder, s: S| match inputs.slots[s.raw() as usize] {
        Some((r, c)) => fb.at(regs[&r], u32::from(c)),
        None => fb.f32(0.0),
    };
    let vec_of = |fb: &mut FnBuilder, ty: Handle<Type>, list: &[S]| {
        let parts = list.iter().map(|&s| sem(fb, s)).collect();
        fb.compose(ty, parts)
    };
    let color = vec_of(&mut fb, t.f4, &[S::ColorR, S::ColorG, S::ColorB, S::ColorA]);
    let tc0 = vec_of(&mut fb, t.f2, &[S::Texcoord0U, S::Texcoord0V]);
    let tc1 = vec_of(&mut fb, t.f2, &[S::Texcoord1U, S::Texcoord1V]);
    let tc2 = vec_of(&mut fb, t.f2, &[S::Texcoord2U, S::Texcoord2V]);
    let normquat = vec_of(&mut fb, t.f4, &[S::NormquatX, S::NormquatY, S::NormquatZ, S::NormquatW]);
    let view = vec_of(&mut fb, t.f3, &[S::ViewX, S::ViewY, S::ViewZ]);
    let tc0w = match inputs.slots[S::Texcoord0W.raw() as usize] {
        Some((r, c)) => fb.at(regs[&r], u32::from(c)),
        None => fb.f32(0.0),
    };
    let z_over_w = fb.at(frag_coord, 2);
    let inv_w = fb.at(frag_coord, 3);
    let one = fb.f32(1.0);
    let w = fb.bin(Op::Divide, one, inv_w);
    // D26's derivatives: max(|d/dx|, |d/dy|) of the absolute coordinates unit 3 reads, taken
    // here in uniform control flow (before the discard); 0 where no filter reads them.
    let duv = if super::proctex::reads_duv(&key.proctex) {
        let tc = [tc0, tc1, tc2][usize::from(key.proctex.coords.min(2))];
        let a = fb.math1(MathFunction::Abs, tc);
        let dx = fb.expr(super::proctex::derivative(naga::DerivativeAxis::X, a));
        let dy = fb.expr(super::proctex::derivative(naga::DerivativeAxis::Y, a));
        let dx = fb.math1(MathFunction::Abs, dx);
        let dy = fb.math1(MathFunction::Abs, dy);
        fb.math2(MathFunction::Max, dx, dy)
    } else {
        fb.zero(t.f2)
    };
    let r = fb.call_value(pipeline, vec![color, tc0, tc1, tc2, tc0w, normquat, view, z_over_w, w, duv]);
    let kind = fb.at(r, 1);
    let k = fb.u32(KIND_DISCARDED);
    let discard = fb.bin(Op::Equal, kind, k);
    fb.if_(discard, |fb| fb.stmt(Statement::Kill));
    let u4 = t.u4;
    let bytes = |fb: &mut FnBuilder, word: H| {
        let parts = (0..4u32)
            .map(|k| {
                let s = fb.u32(8 * k);
                let x = fb.bin(Op::ShiftRight, word, s);
                let m = fb.u32(255);
                fb.bin(Op::And, x, m)
            })
            .collect();
        fb.compose(u4, parts)
    };
    let rgba = fb.at(r, 0);
    let color_bytes = bytes(&mut fb, rgba);
    let depth_word = fb.at(r, 2);
    let intensity = fb.at(r, 3);
    let eight = fb.u32(8);
    let shifted = fb.bin(Op::ShiftLeft, depth_word, eight);
    let shadow_word = fb.bin(Op::InclusiveOr, shifted, intensity);
    let shadow_bytes = bytes(&mut fb, shadow_word);
    let ks = fb.u32(KIND_SHADOW);
    let is_shadow = fb.bin(Op::Equal, kind, ks);
    let cond = fb.expr(Expression::Splat { size: VectorSize::Quad, value: is_shadow });
    let out = fb.select(cond, shadow_bytes, color_bytes);
    let out = fb.convert(out, ScalarKind::Float);
    let k255 = fb.f32x4(255.0);
    let out = fb.bin(Op::Divide, out, k255);
    let color_depth = fb.bitcast(depth_word, ScalarKind::Float);
    let dz = fb.convert(depth_word, ScalarKind::Float);
    let kz = fb.f32(16_777_215.0);
    let shadow_depth = fb.bin(Op::Divide, dz, kz);
    let depth = fb.select(is_shadow, shadow_depth, color_depth);
    let result = fb.compose(out_ty, vec![out, depth]);
    fb.stmt(Statement::Return { value: Some(result) });
    let mut function = fb.finish();
    function.result = Some(FunctionResult { ty: out_ty, binding: None });
    m.entry_points.push(entry_point(ENTRY, ShaderStage::Fragment, [0; 3], function));
}

/// The compute entry point (docs/abi.md): invocation i reads record i of binding 4 (colour;
/// texcoord 0 and 1; texcoord 2, tc0.w, z/w; normal quaternion; view and w; the procedural
/// texture's du, dv) and writes the pipeline's result word to element i of binding 5.
fn compute_entry(m: &mut Module, t: &Types, pipeline: Handle<naga::Function>) {
    let rec = array(m, t.f4, RECORD_VEC4S, 16);
    let recs = m.types.insert(
        Type {
            name: None,
            inner: TypeInner::Array { base: rec, size: naga::ArraySize::Dynamic, stride: 16 * RECORD_VEC4S },
        },
        Span::UNDEFINED,
    );
    let outs = m.types.insert(
        Type { name: None, inner: TypeInner::Array { base: t.u4, size: naga::ArraySize::Dynamic, stride: 16 } },
        Span::UNDEFINED,
    );
    let vin = global(
        m,
        "fragments_in",
        AddressSpace::Storage { access: naga::StorageAccess::LOAD },
        COMPUTE_IN_BINDING,
        recs,
    );
    let vout = global(
        m,
        "fragments_out",
        AddressSpace::Storage { access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE },
        COMPUTE_OUT_BINDING,
        outs,
    );
    let uvec3 = vector(m, VectorSize::Tri, Scalar::U32);
    let mut fb = FnBuilder::new(m, COMPUTE_ENTRY);
    fb.func.arguments.push(FunctionArgument {
        name: Some("gid".into()),
        ty: uvec3,
        binding: Some(Binding::BuiltIn(naga::BuiltIn::GlobalInvocationId)),
    });
    let gid = fb.expr(Expression::FunctionArgument(0));
    let i = fb.at(gid, 0);
    let vin_p = fb.global(vin);
    let vout_p = fb.global(vout);
    let n = fb.expr(Expression::ArrayLength(vout_p));
    let past = fb.bin(Op::GreaterEqual, i, n);
    fb.if_(past, |fb| fb.stmt(Statement::Return { value: None }));
    let rec_p = fb.index(vin_p, i);
    let r: Vec<H> = (0..RECORD_VEC4S)
        .map(|k| {
            let p = fb.at(rec_p, k);
            fb.load(p)
        })
        .collect();
    use SwizzleComponent::{W, X, Y, Z};
    let swz = |fb: &mut FnBuilder, v: H, size: VectorSize, p: [SwizzleComponent; 4]| {
        fb.expr(Expression::Swizzle { size, vector: v, pattern: p })
    };
    let tc0 = swz(&mut fb, r[1], VectorSize::Bi, [X, Y, X, X]);
    let tc1 = swz(&mut fb, r[1], VectorSize::Bi, [Z, W, X, X]);
    let tc2 = swz(&mut fb, r[2], VectorSize::Bi, [X, Y, X, X]);
    let view = swz(&mut fb, r[4], VectorSize::Tri, [X, Y, Z, X]);
    let tc0w = fb.at(r[2], 2);
    let z_over_w = fb.at(r[2], 3);
    let w = fb.at(r[4], 3);
    let duv = swz(&mut fb, r[5], VectorSize::Bi, [X, Y, X, X]);
    let result = fb.call_value(pipeline, vec![r[0], tc0, tc1, tc2, tc0w, r[3], view, z_over_w, w, duv]);
    let o = fb.index(vout_p, i);
    fb.store(o, result);
    let function = fb.finish();
    m.entry_points.push(entry_point(COMPUTE_ENTRY, ShaderStage::Compute, [COMPUTE_WORKGROUP, 1, 1], function));
}

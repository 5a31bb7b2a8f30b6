//! Geometry shaders as compute shaders (docs/design.md: naga has no geometry stage).
//!
//! SETEMIT sets the vertex slot (0-3), the winding flag and the primitive flag; EMIT copies
//! o0-o15 into that slot of a 4-vertex buffer that is never cleared (ISA page, SETEMIT) and, when
//! the primitive flag is set, writes a primitive made of slots 0, 1, 2 to the output buffer.
//!
//! Output buffer (binding 2, `vec4<f32>`), per invocation i, at `i * GS_STRIDE`:
//! - record 0: `(primitive count, 0, 0, 0)` (count as a float, exact);
//! - then up to [`GS_MAX_PRIMS`] primitives of [`GS_PRIM_VEC4S`] vec4s each:
//!   `(winding flag, 0, 0, 0)`, then slots 0, 1, 2 with o0-o15 each.
//!
//! Primitives past the capacity are counted but not written.

use naga::{AddressSpace, BinaryOperator as B, Expression, Function, GlobalVariable, Handle, Module, Span, Statement};

use super::abi::{self, Abi, REGS};
use super::{call, compute_prologue, push_compute, Gen, ENTRY};

/// vec4s per invocation in the input buffer of a geometry shader: v0-v15, then c0-c95 (the
/// hardware writes fixed- and variable-mode vertex data into the float uniforms, so they are per
/// invocation), then `(b0-b15 bits, 0, 0, 0)` with the bits as u32 patterns.
pub const GS_IN_STRIDE: u32 = REGS + 96 + 1;
/// Primitives one invocation can write.
pub const GS_MAX_PRIMS: u32 = 32;
/// vec4s per primitive record: a flag record and three vertices of 16 registers.
pub const GS_PRIM_VEC4S: u32 = 1 + 3 * REGS;
/// First vec4 of the invocation's scratch area in the output buffer: the four vertex slots of
/// SETEMIT/EMIT, 16 registers each (not results; the host ignores them).
pub const GS_SCRATCH: u32 = 1 + GS_MAX_PRIMS * GS_PRIM_VEC4S;
/// vec4s per invocation in the output buffer.
pub const GS_STRIDE: u32 = GS_SCRATCH + 4 * REGS;

/// Globals of the geometry translation.
#[derive(Clone)]
pub(crate) struct GsState {
    vtx: Handle<GlobalVariable>,
    wind: Handle<GlobalVariable>,
    prim: Handle<GlobalVariable>,
    count: Handle<GlobalVariable>,
    base: Handle<GlobalVariable>,
    out: Handle<GlobalVariable>,
    /// The input records.
    pub(crate) vin: Handle<GlobalVariable>,
    /// First vec4 index of this invocation's input record.
    pub(crate) in_base: Handle<GlobalVariable>,
    pub(crate) emit_fn: Option<Handle<Function>>,
}

fn private(module: &mut Module, name: &str, ty: Handle<naga::Type>) -> Handle<GlobalVariable> {
    module.global_variables.append(
        GlobalVariable {
            name: Some(name.into()),
            space: AddressSpace::Private,
            binding: None,
            ty,
            init: None,
            memory_decorations: Default::default(),
        },
        Span::UNDEFINED,
    )
}

impl GsState {
    pub(crate) fn new(module: &mut Module, a: &Abi) -> GsState {
        GsState {
            vtx: private(module, "gs_vtx", a.u32),
            wind: private(module, "gs_winding", a.bool),
            prim: private(module, "gs_primitive", a.bool),
            count: private(module, "gs_count", a.u32),
            base: private(module, "gs_base", a.u32),
            out: abi::storage(module, "gout", 2, true),
            vin: abi::storage(module, "vin", 1, false),
            in_base: private(module, "gs_in_base", a.u32),
            emit_fn: None,
        }
    }
}

/// `pica_emit()`: the EMIT instruction.
///
/// The four vertex slots live in the invocation's scratch area of the output buffer, not in a
/// private array: a private array indexed by the slot number is lowered by the driver into a
/// branch per slot, and its 256 floats stay live through the whole program, which made
/// geometry shaders several times slower to compile than vertex shaders of the same size
/// (docs/pica-translate.md "Driver facts").
pub(crate) fn emit_function(module: &mut Module, abi: &Abi, g: &GsState) -> Handle<Function> {
    let mut fb = abi.builder(module, "pica_emit");
    let out = fb.global(g.out);
    let basep = fb.global(g.base);
    let base = fb.load(basep);
    let scratch = fb.u32(GS_SCRATCH);
    let scratch = fb.bin(B::Add, base, scratch);
    let vtxp = fb.global(g.vtx);
    let vtx = fb.load(vtxp);
    let regs = fb.u32(REGS);
    let slot = fb.bin(B::Multiply, vtx, regs);
    let slot = fb.bin(B::Add, scratch, slot);
    let og = fb.global(abi.o);
    for k in 0..REGS {
        let kk = fb.u32(k);
        let idx = fb.bin(B::Add, slot, kk);
        let p = fb.index(out, idx);
        let rp = fb.at(og, k);
        let val = fb.load(rp);
        fb.store(p, val);
    }
    let primp = fb.global(g.prim);
    let prim = fb.load(primp);
    fb.open();
    let countp = fb.global(g.count);
    let count = fb.load(countp);
    let max = fb.u32(GS_MAX_PRIMS);
    let room = fb.bin(B::Less, count, max);
    fb.open();
    let stride = fb.u32(GS_PRIM_VEC4S);
    let off = fb.bin(B::Multiply, count, stride);
    let one = fb.u32(1);
    let rec = fb.bin(B::Add, base, off);
    let rec = fb.bin(B::Add, rec, one);
    let windp = fb.global(g.wind);
    let wind = fb.load(windp);
    let w1 = fb.f32(1.0);
    let w0 = fb.f32(0.0);
    let wf = fb.select(wind, w1, w0);
    let z = fb.f32(0.0);
    let flag = fb.compose(abi.vec4f, vec![wf, z, z, z]);
    let p = fb.index(out, rec);
    fb.store(p, flag);
    // One copy in a loop: every EMIT is inlined, and 48 unrolled copies per EMIT were most
    // of a geometry shader's compile time.
    let u32_ty = abi.u32;
    fb.for_range(3 * REGS, u32_ty, |fb, k| {
        let from = fb.bin(B::Add, scratch, k);
        let from = fb.index(out, from);
        let val = fb.load(from);
        let to = fb.bin(B::Add, rec, k);
        let to = fb.bin(B::Add, to, one);
        let p = fb.index(out, to);
        fb.store(p, val);
    });
    let body = fb.close();
    fb.stmt(Statement::If { condition: room, accept: body, reject: Default::default() });
    let one = fb.u32(1);
    fb.add_assign(countp, one);
    let body = fb.close();
    fb.stmt(Statement::If { condition: prim, accept: body, reject: Default::default() });
    let f = fb.finish();
    module.functions.append(f, Span::UNDEFINED)
}

impl Gen<'_> {
    /// Float uniform `c[index]` of this invocation's input record (`index` a u32 expression).
    pub(super) fn gs_const(&mut self, index: Handle<Expression>) -> Option<Handle<Expression>> {
        let g = self.gs.clone()?;
        let vin = self.fb.global(g.vin);
        let bp = self.fb.global(g.in_base);
        let base = self.fb.load(bp);
        let off = self.fb.u32(REGS);
        let at = self.fb.bin(B::Add, base, off);
        let at = self.fb.bin(B::Add, at, index);
        let p = self.fb.index(vin, at);
        Some(self.fb.load(p))
    }

    /// The boolean uniforms of this invocation's input record.
    pub(super) fn gs_bools(&mut self) -> Option<Handle<Expression>> {
        let g = self.gs.clone()?;
        let vin = self.fb.global(g.vin);
        let bp = self.fb.global(g.in_base);
        let base = self.fb.load(bp);
        let off = self.fb.u32(REGS + 96);
        let at = self.fb.bin(B::Add, base, off);
        let p = self.fb.index(vin, at);
        let v = self.fb.load(p);
        let x = self.fb.at(v, 0);
        Some(self.fb.bitcast(x, naga::ScalarKind::Uint))
    }

    /// EMIT (a no-op in vertex shaders).
    pub(super) fn emit(&mut self) {
        if let Some(f) = self.gs.as_ref().and_then(|g| g.emit_fn) {
            call(&mut self.fb, f);
        }
    }

    /// SETEMIT (a no-op in vertex shaders).
    pub(super) fn setemit(&mut self, vertex: u8, winding: bool, primitive: bool) {
        let Some(g) = self.gs.clone() else { return };
        let v = self.fb.u32(vertex as u32 & 3);
        let p = self.fb.global(g.vtx);
        self.fb.store(p, v);
        let w = self.fb.bool(winding);
        let p = self.fb.global(g.wind);
        self.fb.store(p, w);
        let pr = self.fb.bool(primitive);
        let p = self.fb.global(g.prim);
        self.fb.store(p, pr);
    }
}

/// `main` of a geometry shader: compute, one invocation per input record.
pub(crate) fn entry_point(module: &mut Module, abi: &Abi, g: &GsState, main_fn: Handle<Function>) {
    let (mut fb, i, in_base) = compute_prologue(module, abi, ENTRY, g.vin, GS_IN_STRIDE);
    let p = fb.global(g.in_base);
    fb.store(p, in_base);
    let stride = fb.u32(GS_STRIDE);
    let base = fb.bin(B::Multiply, i, stride);
    let p = fb.global(g.base);
    fb.store(p, base);
    // The vertex slots start at zero, as the interpreter's.
    let out = fb.global(g.out);
    let zero = fb.zero(abi.vec4f);
    let first = fb.u32(GS_SCRATCH);
    let first = fb.bin(B::Add, base, first);
    let u32_ty = abi.u32;
    fb.for_range(4 * REGS, u32_ty, |fb, k| {
        let idx = fb.bin(B::Add, first, k);
        let p = fb.index(out, idx);
        fb.store(p, zero);
    });
    let zu = fb.u32(0);
    for h in [g.vtx, g.count] {
        let p = fb.global(h);
        fb.store(p, zu);
    }
    let f = fb.bool(false);
    for h in [g.wind, g.prim] {
        let p = fb.global(h);
        fb.store(p, f);
    }
    call(&mut fb, main_fn);
    let cp = fb.global(g.count);
    let c = fb.load(cp);
    let cf = fb.convert(c, naga::ScalarKind::Float);
    let z = fb.f32(0.0);
    let head = fb.compose(abi.vec4f, vec![cf, z, z, z]);
    let p = fb.index(out, base);
    fb.store(p, head);
    let function = fb.finish();
    push_compute(module, ENTRY, function);
}

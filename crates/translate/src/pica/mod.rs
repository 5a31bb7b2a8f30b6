//! PICA200 vertex and geometry shaders (a DVLE of a SHBIN) to `naga::Module`.
//!
//! The program runs in one function, `pica_main`, over private registers (v, r, o, a0, aL, cmp);
//! entry points move data in and out of them (docs/abi.md "PICA200"):
//! - vertex DVLEs get a vertex entry point `main` (inputs at location = v index, position as the
//!   builtin, other outputs at location = o index) and a compute entry point `pica_compute` that
//!   reads v0-v15 from a storage buffer and writes o0-o15 back, for differential tests;
//! - geometry DVLEs get a compute entry point `main` that writes vertices and primitives to a
//!   storage buffer (naga has no geometry stage).

mod abi;
mod exact;
mod flow;
mod gs;
mod ops;
mod structured;

pub use abi::{UniformBlock, REGS, UNIFORM_B_OFFSET, UNIFORM_I_OFFSET, UNIFORM_SIZE, UNIFORM_ZERO_OFFSET};
pub use flow::{CALL_DEPTH, IF_DEPTH, LOOP_DEPTH, MAX_STEPS};
pub use gs::{GS_IN_STRIDE, GS_MAX_PRIMS, GS_PRIM_VEC4S, GS_STRIDE};
pub use structured::EXACT_MAX_LOOP_DEPTH;

use naga::{
    Binding, BuiltIn, Expression, Function, FunctionArgument, FunctionResult, Handle, Interpolation, Module, Sampling,
    ShaderStage, Span, Statement, StructMember, Type, TypeInner, VectorSize,
};
use pica::isa::{Instruction, Operands, SrcReg};
use pica::shbin::{Dvle, OutputKind, ShaderType, Shbin};

use crate::builder::{vector, FnBuilder, U32};
use crate::{Error, Precision};
use abi::Abi;

/// Name of the vertex entry point, and of the geometry compute entry point.
pub const ENTRY: &str = "main";
/// Name of the compute wrapper of a vertex shader.
pub const COMPUTE_ENTRY: &str = "pica_compute";
/// Workgroup size of the compute entry points.
pub const WORKGROUP: u32 = 64;

/// Translation options.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Float precision.
    pub precision: Precision,
    /// Always use the dispatch loop (for differential tests of the structured translation).
    pub dispatch_only: bool,
}

/// How the control flow was translated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowKind {
    /// No flow instruction between `main` and the first END: straight code.
    Straight,
    /// IF/LOOP/CALL nests as structured statements (callees inlined).
    Structured,
    /// The dispatch loop over the program counter.
    Dispatch,
}

/// What the host needs to know to use a translation.
#[derive(Clone, Debug)]
pub struct Interface {
    /// Vertex or geometry.
    pub shader_type: ShaderType,
    /// v registers read as vertex inputs (location = index).
    pub inputs: Vec<u8>,
    /// The o register written to the position builtin.
    pub position: Option<u8>,
    /// o registers written at location = index (all mapped outputs but the position).
    pub outputs: Vec<u8>,
    /// How the control flow was translated.
    pub flow: FlowKind,
}

/// A translated DVLE.
pub struct Translation {
    /// The module (not yet validated; [`crate::write`] validates it).
    pub module: Module,
    /// Its interface.
    pub interface: Interface,
}

impl Translation {
    /// The entry point a back end that writes one stage uses: the vertex `main`, or the
    /// geometry shader's compute `main`.
    pub fn entry(&self) -> (ShaderStage, &'static str) {
        match self.interface.shader_type {
            ShaderType::Geometry => (ShaderStage::Compute, ENTRY),
            _ => (ShaderStage::Vertex, ENTRY),
        }
    }
}

/// The code generator of one function.
pub(crate) struct Gen<'m> {
    pub(crate) fb: FnBuilder<'m>,
    pub(crate) abi: Abi,
    pub(crate) precision: Precision,
    pub(crate) code: &'m [u32],
    pub(crate) descriptors: Vec<u32>,
    pub(crate) gs: Option<gs::GsState>,
    /// The float24 helper functions (`exact` precision only).
    pub(crate) exact: Option<exact::ExactFns>,
    /// In straight code, the current value of v0-v15, r0-r15, o0-o15 (slots 0-47) as SSA
    /// expressions: no loads and stores of private registers per instruction.
    pub(crate) ssa: Option<[Option<Handle<Expression>>; 48]>,
    /// The shared `compat` multiplication.
    pub(crate) compat_mul: Option<Handle<Function>>,
    /// Inside a flattened IF (structured.rs): the condition under which writes take effect.
    pub(crate) pred: Option<Handle<Expression>>,
}

/// Translates executable `entry` of a SHBIN.
///
/// # Errors
/// [`Error::Input`] when `entry` does not exist, its shader type is neither vertex nor geometry,
/// or its entry point lies outside the code.
pub fn translate(shbin: &Shbin, entry: usize, options: Options) -> Result<Translation, Error> {
    let dvle = shbin
        .executables
        .get(entry)
        .ok_or_else(|| Error::Input(format!("no executable {entry}: the file has {}", shbin.executables.len())))?;
    let code = &shbin.program.code;
    if dvle.main as usize >= code.len() {
        return Err(Error::Input(format!(
            "executable {entry}: entry point {} is outside the program ({} instructions)",
            dvle.main,
            code.len()
        )));
    }
    let geometry = match dvle.shader_type {
        ShaderType::Vertex => false,
        ShaderType::Geometry => true,
        ShaderType::Other(t) => {
            return Err(Error::Input(format!("executable {entry}: unknown shader type {t}")));
        }
    };
    let mut module = Module::default();
    let mut abi = Abi::new(&mut module);
    if options.precision == Precision::Exact {
        abi.hide_constants();
    }
    let gs_state = if geometry { Some(gs::GsState::new(&mut module, &abi, dvle)) } else { None };
    let descriptors = shbin.program.descriptors.iter().map(|d| d[0]).collect::<Vec<_>>();

    // Helpers come first: functions must precede their callers.
    let exact_fns = (options.precision == Precision::Exact).then(|| exact::build(&mut module, &abi));
    let compat_mul = (options.precision == Precision::Compat).then(|| ops::build_compat_mul(&mut module, abi.vec4f));
    let emit_fn = match &gs_state {
        Some(g) => Some(gs::emit_function(&mut module, &abi, g)),
        None => None,
    };
    let straight = if options.dispatch_only { None } else { flow::straight_line(code, dvle.main) };
    let tree = if straight.is_some() || options.dispatch_only { None } else { structured::analyze(code, dvle.main) };
    let tree = tree
        .filter(|&(_, depth)| options.precision != Precision::Exact || depth <= structured::EXACT_MAX_LOOP_DEPTH)
        .map(|(nodes, _)| nodes);
    let flow_kind = match (&straight, &tree) {
        (Some(_), _) => FlowKind::Straight,
        (None, Some(_)) => FlowKind::Structured,
        _ => FlowKind::Dispatch,
    };
    let main_fn = {
        let fb = abi.builder(&mut module, "pica_main");
        let mut g = Gen {
            fb,
            abi,
            precision: options.precision,
            code,
            descriptors,
            gs: gs_state.clone().map(|mut s| {
                s.emit_fn = emit_fn;
                s
            }),
            exact: exact_fns,
            ssa: None,
            compat_mul,
            pred: None,
        };
        g.reset(straight.is_none());
        match (straight, tree) {
            (Some(range), _) => g.straight(range),
            (None, Some(nodes)) => g.structured(&nodes),
            _ => g.dispatch(dvle.main),
        }
        g.fb.finish()
    };
    let main_fn = module.functions.append(main_fn, Span::UNDEFINED);

    let inputs = used_inputs(code, dvle);
    let (position, outputs) = output_map(dvle);
    if let Some(g) = &gs_state {
        gs::entry_point(&mut module, &abi, g, main_fn);
    } else {
        vertex_entry(&mut module, &abi, main_fn, &inputs, position, &outputs);
        compute_entry(&mut module, &abi, main_fn);
    }
    Ok(Translation {
        module,
        interface: Interface { shader_type: dvle.shader_type, inputs, position, outputs, flow: flow_kind },
    })
}

impl Gen<'_> {
    /// Registers start at zero in every invocation (o, r, a0, aL, cmp).
    /// (Straight code never reads r from memory, so `with_temps` is false there.)
    fn reset(&mut self, with_temps: bool) {
        let zero4 = self.fb.zero(self.abi.regs);
        let regs: &[_] = if with_temps { &[self.abi.r, self.abi.o] } else { &[self.abi.o] };
        for &g in regs {
            let p = self.fb.global(g);
            self.fb.store(p, zero4);
        }
        let z2 = self.fb.expr(Expression::ZeroValue(self.abi.vec2i));
        let a0 = self.fb.global(self.abi.a0);
        self.fb.store(a0, z2);
        let z = self.fb.i32(0);
        let al = self.fb.global(self.abi.al);
        self.fb.store(al, z);
        let f = self.fb.bool(false);
        for g in [self.abi.cmp_x, self.abi.cmp_y] {
            let p = self.fb.global(g);
            self.fb.store(p, f);
        }
    }
}

/// v registers the vertex entry point takes: the DVLE's input mask and every v the code reads.
fn used_inputs(code: &[u32], dvle: &Dvle) -> Vec<u8> {
    let mut mask = dvle.input_mask as u32;
    for &w in code {
        let i = Instruction::decode(w);
        let regs: &[SrcReg] = match &i.operands {
            Operands::Arith { src1, src2, .. } | Operands::Cmp { src1, src2, .. } => &[*src1, *src2],
            Operands::Mad { src1, src2, src3, .. } => &[*src1, *src2, *src3],
            _ => &[],
        };
        for r in regs {
            if let SrcReg::Input(n) = r {
                mask |= 1 << n;
            }
        }
    }
    (0..16).filter(|n| mask & (1 << n) != 0).collect()
}

/// The position register and the other mapped o registers (output table and output mask).
fn output_map(dvle: &Dvle) -> (Option<u8>, Vec<u8>) {
    let position = dvle.outputs.iter().find(|o| o.kind == OutputKind::Position).map(|o| (o.reg & 15) as u8);
    let mut mask = dvle.output_mask as u32;
    for o in &dvle.outputs {
        mask |= 1 << (o.reg & 15);
    }
    let outs = (0..16u8).filter(|&n| mask & (1 << n) != 0 && Some(n) != position).collect();
    (position, outs)
}

fn location(location: u32, interpolate: bool) -> Binding {
    Binding::Location {
        location,
        interpolation: if interpolate { Some(Interpolation::Perspective) } else { None },
        sampling: if interpolate { Some(Sampling::Center) } else { None },
        blend_src: None,
        per_primitive: false,
    }
}

fn call(fb: &mut FnBuilder, f: Handle<Function>) {
    fb.stmt(Statement::Call { function: f, arguments: vec![], result: None });
}

/// `main`: vertex stage, inputs at their v locations, outputs per the output map.
fn vertex_entry(
    module: &mut Module,
    abi: &Abi,
    main_fn: Handle<Function>,
    inputs: &[u8],
    position: Option<u8>,
    outputs: &[u8],
) {
    let mut members = vec![StructMember {
        name: Some("position".into()),
        ty: abi.vec4f,
        binding: Some(Binding::BuiltIn(BuiltIn::Position { invariant: false })),
        offset: 0,
    }];
    for (k, &o) in outputs.iter().enumerate() {
        members.push(StructMember {
            name: Some(format!("o{o}")),
            ty: abi.vec4f,
            binding: Some(location(o as u32, true)),
            offset: 16 * (k as u32 + 1),
        });
    }
    let span = 16 * members.len() as u32;
    let out_ty = module.types.insert(
        Type { name: Some("VertexOutput".into()), inner: TypeInner::Struct { members, span } },
        Span::UNDEFINED,
    );
    let mut fb = abi.builder(module, ENTRY);
    for &v in inputs {
        fb.func.arguments.push(FunctionArgument {
            name: Some(format!("v{v}")),
            ty: abi.vec4f,
            binding: Some(location(v as u32, false)),
        });
    }
    let zero = fb.zero(abi.regs);
    let vg = fb.global(abi.v);
    fb.store(vg, zero);
    for (k, &v) in inputs.iter().enumerate() {
        let arg = fb.expr(Expression::FunctionArgument(k as u32));
        let p = fb.at(vg, v as u32);
        fb.store(p, arg);
    }
    call(&mut fb, main_fn);
    let og = fb.global(abi.o);
    let mut comps = Vec::new();
    comps.push(match position {
        Some(p) => {
            let ptr = fb.at(og, p as u32);
            fb.load(ptr)
        }
        None => fb.zero(abi.vec4f),
    });
    for &o in outputs {
        let ptr = fb.at(og, o as u32);
        comps.push(fb.load(ptr));
    }
    let value = fb.compose(out_ty, comps);
    fb.stmt(Statement::Return { value: Some(value) });
    let mut function = fb.finish();
    function.result = Some(FunctionResult { ty: out_ty, binding: None });
    module.entry_points.push(naga::EntryPoint {
        name: ENTRY.into(),
        stage: ShaderStage::Vertex,
        early_depth_test: None,
        workgroup_size: [0; 3],
        workgroup_size_overrides: None,
        function,
        mesh_info: None,
        task_payload: None,
        incoming_ray_payload: None,
    });
}

/// Starts a compute entry point: `gid.x` as the invocation index, returning early past the
/// number of input records (`arrayLength(vin) / stride`); v0-v15 are the first 16 vec4s of the
/// record. Returns the builder, the index and the record's first vec4 index.
pub(crate) fn compute_prologue<'m>(
    module: &'m mut Module,
    abi: &Abi,
    name: &str,
    vin_g: Handle<naga::GlobalVariable>,
    stride: u32,
) -> (FnBuilder<'m>, Handle<Expression>, Handle<Expression>) {
    let uvec3 = vector(module, VectorSize::Tri, U32);
    let mut fb = abi.builder(module, name);
    fb.func.arguments.push(FunctionArgument {
        name: Some("gid".into()),
        ty: uvec3,
        binding: Some(Binding::BuiltIn(BuiltIn::GlobalInvocationId)),
    });
    let gid = fb.expr(Expression::FunctionArgument(0));
    let i = fb.at(gid, 0);
    let vin = fb.global(vin_g);
    let len = fb.expr(Expression::ArrayLength(vin));
    let st = fb.u32(stride);
    let n = fb.bin(naga::BinaryOperator::Divide, len, st);
    let past = fb.bin(naga::BinaryOperator::GreaterEqual, i, n);
    fb.if_(past, |fb| fb.stmt(Statement::Return { value: None }));
    let base = fb.bin(naga::BinaryOperator::Multiply, i, st);
    let vg = fb.global(abi.v);
    fb.for_range(REGS, abi.u32, |fb, k| {
        let idx = fb.bin(naga::BinaryOperator::Add, base, k);
        let p = fb.index(vin, idx);
        let val = fb.load(p);
        let d = fb.index(vg, k);
        fb.store(d, val);
    });
    (fb, i, base)
}

/// Pushes a compute entry point.
pub(crate) fn push_compute(module: &mut Module, name: &str, function: Function) {
    module.entry_points.push(naga::EntryPoint {
        name: name.into(),
        stage: ShaderStage::Compute,
        early_depth_test: None,
        workgroup_size: [WORKGROUP, 1, 1],
        workgroup_size_overrides: None,
        function,
        mesh_info: None,
        task_payload: None,
        incoming_ray_payload: None,
    });
}

/// `pica_compute`: v0-v15 of invocation i from `vin[16 i ..]`, o0-o15 to `vout[16 i ..]`.
fn compute_entry(module: &mut Module, abi: &Abi, main_fn: Handle<Function>) {
    let vout_g = abi::storage(module, "vout", 2, true);
    let vin_g = abi::storage(module, "vin", 1, false);
    let (mut fb, i, _) = compute_prologue(module, abi, COMPUTE_ENTRY, vin_g, REGS);
    call(&mut fb, main_fn);
    let regs = fb.u32(REGS);
    let base = fb.bin(naga::BinaryOperator::Multiply, i, regs);
    let vout = fb.global(vout_g);
    let og = fb.global(abi.o);
    fb.for_range(REGS, abi.u32, |fb, k| {
        let idx = fb.bin(naga::BinaryOperator::Add, base, k);
        let p = fb.index(vout, idx);
        let s = fb.index(og, k);
        let val = fb.load(s);
        fb.store(p, val);
    });
    let function = fb.finish();
    push_compute(module, COMPUTE_ENTRY, function);
}

//! PICA200 vertex and geometry shaders (a DVLE of a SHBIN) to `naga::Module`.
//!
//! The program runs in one function, `pica_main`, over private registers (v, r, o, a0, aL, cmp);
//! entry points move data in and out of them (docs/abi.md "PICA200"):
//! - vertex programs ([`vertex`]) get a vertex entry point `main` (inputs at location = v index,
//!   position as the builtin, other outputs at location = o index) and, with
//!   [`Options::compute_wrapper`], a compute entry point `pica_compute` that reads v0-v15 from a
//!   storage buffer and writes o0-o15 back, for differential tests;
//! - geometry programs ([`geometry`]) get a compute entry point `main` that writes vertices and
//!   primitives to a storage buffer (naga has no geometry stage).
//!
//! The input is a [`Setup`], what an emulator holds at draw time; [`Setup::from_shbin`] makes one
//! from a DVLE and [`translate`] does both steps. The result, a validated [`Translation`], writes
//! every target with the options it was made with.

mod abi;
mod cached;
mod exact;
mod flow;
mod gs;
mod ops;
mod structured;

pub use abi::{UniformBlock, REGS, UNIFORM_B_OFFSET, UNIFORM_I_OFFSET, UNIFORM_SIZE, UNIFORM_ZERO_OFFSET};
pub use cached::{cache_key, compile, Compiled};
pub use flow::{CALL_DEPTH, IF_DEPTH, LOOP_DEPTH, MAX_STEPS};
pub use gs::{GS_IN_STRIDE, GS_MAX_PRIMS, GS_PRIM_VEC4S, GS_SCRATCH, GS_STRIDE};
pub use structured::EXACT_MAX_LOOP_DEPTH;

use naga::valid::ModuleInfo;
use naga::{
    Binding, BuiltIn, Expression, Function, FunctionArgument, FunctionResult, Handle, Interpolation, Module, Sampling,
    ShaderStage, Span, Statement, StructMember, Type, TypeInner, VectorSize,
};
use pica::isa::{Instruction, Operands, SrcReg};
use pica::shbin::Shbin;
pub use pica::shbin::{GeometryMode, OutputKind, ShaderType};

use crate::builder::{vector, FnBuilder, U32};
use crate::{backend, Error, Output, Precision, Target};
use abi::Abi;

/// Name of the vertex entry point, and of the geometry compute entry point.
pub const ENTRY: &str = "main";
/// Name of the compute wrapper of a vertex shader ([`Options::compute_wrapper`]).
pub const COMPUTE_ENTRY: &str = "pica_compute";
/// Workgroup size of the compute entry points.
pub const WORKGROUP: u32 = 64;

/// Translation options.
///
/// ```
/// use translate::pica::Options;
/// use translate::Precision;
///
/// let options = Options { precision: Precision::Exact, ..Options::default() };
/// assert!(!options.compute_wrapper);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// Float precision.
    pub precision: Precision,
    /// Always use the dispatch loop (for differential tests of the structured translation).
    pub dispatch_only: bool,
    /// Vertex shaders only: add the compute entry point [`COMPUTE_ENTRY`] and its two storage
    /// buffers (group 0, bindings 1 and 2: docs/abi.md), which run the program over v0-v15 read
    /// from a buffer and write o0-o15 back. For differential tests; off by default, so a module
    /// for a render pipeline carries only the vertex stage and the uniform block.
    pub compute_wrapper: bool,
}

/// What the PICA200 shader unit holds when it runs a program, as an emulator has it at draw
/// time: program memory, the operand descriptor table, the entry point, which v registers are
/// fed, the output map and the geometry mode. [`Setup::from_shbin`] makes one from a DVLE.
///
/// ```
/// use pica::shbin::OutputKind;
/// use translate::pica::Setup;
///
/// // mov o0, v0; mov o1, v1; end
/// let code = vec![0x4C00_0000, 0x4C20_1000, 0x8800_0000];
/// let setup = Setup::new(code, vec![0x0000_036F], 0)
///     .output(0, OutputKind::Position)
///     .output(1, OutputKind::Color);
/// assert_eq!(setup.outputs.len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Setup {
    /// Program memory, one instruction per word.
    pub code: Vec<u32>,
    /// Operand descriptor words (bits 0-30 of each table entry).
    pub descriptors: Vec<u32>,
    /// Entry point, in words.
    pub main: u32,
    /// v registers the host feeds (bit n = vn); every v register the code reads is fed too.
    pub input_mask: u16,
    /// The output map: o register and its semantic. The position goes to the position builtin,
    /// every other mapped register to location = its index.
    pub outputs: Vec<(u8, OutputKind)>,
    /// o registers written at location = index besides the mapped ones (bit n = on).
    pub output_mask: u16,
    /// The geometry shader's vertex mode. It does not change the generated code: it says how
    /// the host fills each invocation's input record (docs/abi.md "Geometry").
    pub geometry_mode: GeometryMode,
    /// Names of uniform and input registers, in the unified register space of a DVLE's uniform
    /// table (0x00-0x0F v, 0x10-0x6F c, 0x70-0x73 i, 0x78-0x87 b): `(name, first, last)`. They
    /// name inputs and annotate the text targets; the ABI does not change.
    pub names: Vec<(String, u16, u16)>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            code: Vec::new(),
            descriptors: Vec::new(),
            main: 0,
            input_mask: 0,
            outputs: Vec::new(),
            output_mask: 0,
            geometry_mode: GeometryMode::Point,
            names: Vec::new(),
        }
    }
}

impl Setup {
    /// A program with entry point `main`, no output map and no names.
    ///
    /// ```
    /// let setup = translate::pica::Setup::new(vec![0x8800_0000], vec![], 0);
    /// assert_eq!(setup.main, 0);
    /// ```
    pub fn new(code: Vec<u32>, descriptors: Vec<u32>, main: u32) -> Setup {
        Setup { code, descriptors, main, ..Setup::default() }
    }

    /// Maps o register `reg` to `semantic`.
    ///
    /// ```
    /// use pica::shbin::OutputKind;
    /// let setup = translate::pica::Setup::new(vec![0x8800_0000], vec![], 0).output(3, OutputKind::TexCoord0);
    /// assert_eq!(setup.outputs, [(3, OutputKind::TexCoord0)]);
    /// ```
    pub fn output(mut self, reg: u8, semantic: OutputKind) -> Setup {
        self.outputs.push((reg & 15, semantic));
        self
    }

    /// The setup of executable `entry` of a SHBIN: the shared program, the DVLE's entry point,
    /// input and output masks, output table, geometry mode and uniform names. Returns it with
    /// the DVLE's shader type.
    ///
    /// ```
    /// # let shbin = pica::asm::assemble(
    /// #     &[pica::asm::Source { name: "a.v.pica", text: ".out outpos position\n.proc main\n  mov outpos, v0\n  end\n.end\n" }],
    /// #     &pica::asm::Options::default(),
    /// # ).unwrap().shbin;
    /// use translate::pica::{Options, Setup};
    ///
    /// let (setup, shader_type) = Setup::from_shbin(&shbin, 0)?;
    /// assert_eq!(shader_type, pica::shbin::ShaderType::Vertex);
    /// let t = translate::pica::vertex(&setup, &Options::default())?;
    /// assert_eq!(t.interface().position, Some(0));
    /// # Ok::<(), translate::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::NoExecutable`] when `entry` does not exist.
    pub fn from_shbin(shbin: &Shbin, entry: usize) -> Result<(Setup, ShaderType), Error> {
        let dvle =
            shbin.executables.get(entry).ok_or(Error::NoExecutable { index: entry, count: shbin.executables.len() })?;
        let names = dvle
            .uniforms
            .iter()
            .filter_map(|u| Some((dvle.symbol(u.symbol)?.to_string(), u.start, u.end)))
            .filter(|(n, _, _)| !n.is_empty())
            .collect();
        let setup = Setup {
            code: shbin.program.code.clone(),
            descriptors: shbin.program.descriptors.iter().map(|d| d[0]).collect(),
            main: dvle.main,
            input_mask: dvle.input_mask,
            outputs: dvle.outputs.iter().map(|o| ((o.reg & 15) as u8, o.kind)).collect(),
            output_mask: dvle.output_mask,
            geometry_mode: dvle.geometry_mode,
            names,
        };
        Ok((setup, dvle.shader_type))
    }
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

/// A translated, validated program. It keeps the options it was made with, so every target is
/// written in the same precision.
///
/// ```
/// use translate::pica::{self, Options, Setup};
/// use translate::{Precision, Target};
///
/// let setup = Setup::new(vec![0x4C00_0000, 0x8800_0000], vec![0x0000_036F], 0);
/// let t = pica::vertex(&setup, &Options { precision: Precision::Exact, ..Options::default() })?;
/// assert_eq!(t.options().precision, Precision::Exact);
/// for target in Target::ALL {
///     assert!(!t.write(target)?.to_bytes().is_empty());
/// }
/// # Ok::<(), translate::Error>(())
/// ```
#[derive(Debug)]
pub struct Translation {
    module: Module,
    info: ModuleInfo,
    interface: Interface,
    options: Options,
    /// Comment lines the text targets start with (register names).
    notes: Vec<String>,
}

impl Translation {
    /// The validated module.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// What the host needs to bind it.
    pub fn interface(&self) -> &Interface {
        &self.interface
    }

    /// The options it was made with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The entry point a back end that writes one stage uses: the vertex `main`, or the
    /// geometry shader's compute `main`.
    pub fn entry(&self) -> (ShaderStage, &'static str) {
        match self.interface.shader_type {
            ShaderType::Geometry => (ShaderStage::Compute, ENTRY),
            _ => (ShaderStage::Vertex, ENTRY),
        }
    }

    /// SPIR-V 1.3 words, with `NoContraction` and `SignedZeroInfNanPreserve` unless the
    /// precision is `fast`.
    ///
    /// ```
    /// # let setup = translate::pica::Setup::new(vec![0x8800_0000], vec![], 0);
    /// let words = translate::pica::vertex(&setup, &Default::default())?.spirv()?;
    /// assert_eq!(words[0], 0x0723_0203);
    /// # Ok::<(), translate::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Backend`] when naga's writer fails.
    pub fn spirv(&self) -> Result<Vec<u32>, Error> {
        backend::spirv(&self.module, &self.info, self.options.precision)
    }

    /// Writes `target`.
    ///
    /// ```
    /// use translate::{Output, Target};
    /// # let setup = translate::pica::Setup::new(vec![0x8800_0000], vec![], 0);
    /// let t = translate::pica::vertex(&setup, &Default::default())?;
    /// let Output::Text(glsl) = t.write(Target::Glsl)? else { unreachable!() };
    /// assert!(glsl.starts_with("#version 450"));
    /// # Ok::<(), translate::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Backend`] when the writer fails.
    pub fn write(&self, target: Target) -> Result<Output, Error> {
        self.write_entry(target, self.entry())
    }

    /// Writes `target` for another entry point of the module: the compute wrapper
    /// ([`COMPUTE_ENTRY`], when [`Options::compute_wrapper`] is set) for a text target that
    /// writes one stage.
    ///
    /// # Errors
    /// [`Error::Backend`] when the writer fails (also for an entry point the module lacks).
    pub fn write_entry(&self, target: Target, entry: (ShaderStage, &str)) -> Result<Output, Error> {
        let out = backend::write_validated(&self.module, &self.info, target, entry, self.options.precision)?;
        Ok(match out {
            Output::Text(text) if !self.notes.is_empty() => Output::Text(annotate(&text, &self.notes)),
            out => out,
        })
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
    /// In the dispatch loop of a geometry shader: the local flag an EMIT sets, so that the
    /// EMIT itself is written once, after the switch (flow.rs).
    pub(crate) emit_pending: Option<Handle<Expression>>,
}

/// Translates a vertex program.
///
/// ```
/// use translate::pica::{self, Options, Setup};
///
/// // mov o0, v0; end
/// let setup = Setup::new(vec![0x4C00_0000, 0x8800_0000], vec![0x0000_036F], 0)
///     .output(0, pica::OutputKind::Position);
/// let t = pica::vertex(&setup, &Options::default())?;
/// assert_eq!(t.interface().inputs, [0]);
/// let words = t.spirv()?;
/// assert_eq!(words[0], 0x0723_0203);
/// # Ok::<(), translate::Error>(())
/// ```
///
/// # Errors
/// [`Error::EntryOutsideProgram`] when the entry point lies outside the code.
pub fn vertex(setup: &Setup, options: &Options) -> Result<Translation, Error> {
    build(setup, false, options)
}

/// Translates a geometry program: a compute shader `main`, one invocation per input record
/// (docs/abi.md "Geometry").
///
/// ```
/// use translate::pica::{self, Options, Setup};
///
/// // setemit 0, prim; emit; end
/// let setup = Setup::new(vec![0xAC80_0000, 0xA800_0000, 0x8800_0000], vec![], 0);
/// let t = pica::geometry(&setup, &Options::default())?;
/// assert_eq!(t.entry(), (naga::ShaderStage::Compute, "main"));
/// # Ok::<(), translate::Error>(())
/// ```
///
/// # Errors
/// [`Error::EntryOutsideProgram`] when the entry point lies outside the code.
pub fn geometry(setup: &Setup, options: &Options) -> Result<Translation, Error> {
    build(setup, true, options)
}

/// Translates executable `entry` of a SHBIN, vertex or geometry as its DVLE says: a shorthand
/// for [`Setup::from_shbin`] and [`vertex`] or [`geometry`].
///
/// ```
/// # let shbin = pica::asm::assemble(
/// #     &[pica::asm::Source { name: "a.v.pica", text: ".out outpos position\n.proc main\n  mov outpos, v0\n  end\n.end\n" }],
/// #     &pica::asm::Options::default(),
/// # ).unwrap().shbin;
/// use translate::pica::{translate, Options};
/// use translate::Target;
///
/// let glsl = translate(&shbin, 0, Options::default())?.write(Target::Glsl)?;
/// # Ok::<(), translate::Error>(())
/// ```
///
/// # Errors
/// [`Error::NoExecutable`] when `entry` does not exist, [`Error::UnknownShaderType`] when its
/// shader type is neither vertex nor geometry, [`Error::EntryOutsideProgram`] when its entry
/// point lies outside the code.
pub fn translate(shbin: &Shbin, entry: usize, options: Options) -> Result<Translation, Error> {
    let (setup, shader_type) = Setup::from_shbin(shbin, entry)?;
    match shader_type {
        ShaderType::Vertex => vertex(&setup, &options),
        ShaderType::Geometry => geometry(&setup, &options),
        ShaderType::Other(t) => Err(Error::UnknownShaderType(t)),
    }
}

/// Text output with comment lines in front (after GLSL's `#version`, which must come first).
fn annotate(text: &str, notes: &[String]) -> String {
    let (first, rest) = match text.split_once('\n') {
        Some((first, rest)) if first.starts_with("#version") => (Some(first), rest),
        _ => (None, text),
    };
    let mut out = String::with_capacity(text.len() + notes.iter().map(|n| n.len() + 4).sum::<usize>() + 1);
    if let Some(first) = first {
        out.push_str(first);
        out.push('\n');
    }
    for n in notes {
        out.push_str("// ");
        out.push_str(n);
        out.push('\n');
    }
    out.push('\n');
    out.push_str(rest);
    out
}

fn build(setup: &Setup, geometry: bool, options: &Options) -> Result<Translation, Error> {
    let code = &setup.code[..];
    if setup.main as usize >= code.len() {
        return Err(Error::EntryOutsideProgram { entry: setup.main, len: code.len() });
    }
    let mut module = Module::default();
    let mut abi = Abi::new(&mut module);
    if options.precision == Precision::Exact {
        abi.hide_constants();
    }
    let gs_state = if geometry { Some(gs::GsState::new(&mut module, &abi)) } else { None };
    let descriptors = setup.descriptors.clone();

    // Helpers come first: functions must precede their callers.
    let exact_fns = (options.precision == Precision::Exact).then(|| exact::build(&mut module, &abi));
    let compat_mul = (options.precision == Precision::Compat).then(|| ops::build_compat_mul(&mut module, abi.vec4f));
    let emit_fn = gs_state.as_ref().map(|g| gs::emit_function(&mut module, &abi, g));
    let straight = if options.dispatch_only { None } else { flow::straight_line(code, setup.main) };
    let tree = if straight.is_some() || options.dispatch_only { None } else { structured::analyze(code, setup.main) };
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
            emit_pending: None,
        };
        g.reset(straight.is_none());
        match (straight, tree) {
            (Some(range), _) => g.straight(range),
            (None, Some(nodes)) => g.structured(&nodes),
            _ => g.dispatch(setup.main),
        }
        g.fb.finish()
    };
    let main_fn = module.functions.append(main_fn, Span::UNDEFINED);

    let inputs = used_inputs(code, setup.input_mask);
    let (position, outputs) = output_map(setup);
    let names = Names::new(setup);
    if let Some(g) = &gs_state {
        gs::entry_point(&mut module, &abi, g, main_fn);
    } else {
        vertex_entry(&mut module, &abi, main_fn, &inputs, position, &outputs, &names);
        if options.compute_wrapper {
            compute_entry(&mut module, &abi, main_fn);
        }
    }
    let info = backend::validate(&module)?;
    let shader_type = if geometry { ShaderType::Geometry } else { ShaderType::Vertex };
    Ok(Translation {
        module,
        info,
        interface: Interface { shader_type, inputs, position, outputs, flow: flow_kind },
        options: *options,
        notes: names.notes,
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

/// v registers the vertex entry point takes: the input mask and every v the code reads.
fn used_inputs(code: &[u32], input_mask: u16) -> Vec<u8> {
    let mut mask = input_mask as u32;
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

/// The position register and the other mapped o registers (output map and output mask).
fn output_map(setup: &Setup) -> (Option<u8>, Vec<u8>) {
    let position = setup.outputs.iter().find(|o| o.1 == OutputKind::Position).map(|o| o.0 & 15);
    let mut mask = setup.output_mask as u32;
    for o in &setup.outputs {
        mask |= 1 << (o.0 & 15);
    }
    let outs = (0..16u8).filter(|&n| mask & (1 << n) != 0 && Some(n) != position).collect();
    (position, outs)
}

/// Readable names of a setup's registers: inputs and outputs as naga names, the rest as comment
/// lines of the text targets.
struct Names {
    inputs: [Option<String>; 16],
    outputs: [Option<String>; 16],
    notes: Vec<String>,
}

impl Names {
    fn new(setup: &Setup) -> Names {
        use pica::shbin::UniformReg;
        let mut names = Names { inputs: Default::default(), outputs: Default::default(), notes: Vec::new() };
        for &(reg, kind) in &setup.outputs {
            let slot = &mut names.outputs[(reg & 15) as usize];
            if slot.is_none() {
                *slot = kind.name().map(str::to_string);
            }
        }
        for (reg, name) in names.outputs.iter().enumerate() {
            if let Some(name) = name {
                names.notes.push(format!("o{reg}: {name}"));
            }
        }
        for (name, first, last) in &setup.names {
            let (first, last) = (*first, (*last).max(*first));
            if last < 0x10 {
                for r in first..=last {
                    let slot = &mut names.inputs[r as usize];
                    if slot.is_none() {
                        *slot = Some(if first == last { name.clone() } else { format!("{name}{}", r - first) });
                    }
                }
            }
            let range = if first == last {
                UniformReg::from_raw(first).to_string()
            } else {
                format!("{}-{}", UniformReg::from_raw(first), UniformReg::from_raw(last))
            };
            names.notes.push(format!("{range}: {name}"));
        }
        names
    }
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
    names: &Names,
) {
    let mut members = vec![StructMember {
        name: Some("position".into()),
        ty: abi.vec4f,
        binding: Some(Binding::BuiltIn(BuiltIn::Position { invariant: false })),
        offset: 0,
    }];
    for (k, &o) in outputs.iter().enumerate() {
        members.push(StructMember {
            name: Some(names.outputs[o as usize].clone().unwrap_or_else(|| format!("o{o}"))),
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
            name: Some(names.inputs[v as usize].clone().unwrap_or_else(|| format!("v{v}"))),
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

//! A small function builder over naga's IR.
//!
//! naga wants every expression other than literals, constants, globals, locals and arguments to be
//! covered by an `Emit` statement in a block that encloses its uses
//! (docs/specs/naga-wgpu-facts.md "naga IR by hand"). The builder keeps an emitter running over
//! the current block: appending a statement or opening a block first closes the running `Emit`
//! range, and expressions that must not be emitted are appended with the emitter paused.

use naga::{
    proc::Emitter, BinaryOperator, Block, Expression, Function, Handle, Literal, LocalVariable, MathFunction, Module,
    Scalar, ScalarKind, Span, Statement, Type, TypeInner, VectorSize,
};

/// Scalar kinds used by the translations.
pub const F32: Scalar = Scalar::F32;
/// 32-bit unsigned integer.
pub const U32: Scalar = Scalar::U32;
/// 32-bit signed integer.
pub const I32: Scalar = Scalar::I32;
/// Boolean.
pub const BOOL: Scalar = Scalar::BOOL;

/// Inserts (or finds) a type in the module.
pub fn ty(module: &mut Module, inner: TypeInner) -> Handle<Type> {
    module.types.insert(Type { name: None, inner }, Span::UNDEFINED)
}

/// A scalar type.
pub fn scalar(module: &mut Module, s: Scalar) -> Handle<Type> {
    ty(module, TypeInner::Scalar(s))
}

/// A vector type.
pub fn vector(module: &mut Module, size: VectorSize, s: Scalar) -> Handle<Type> {
    ty(module, TypeInner::Vector { size, scalar: s })
}

/// A fixed-size array type with the given stride.
pub fn array(module: &mut Module, base: Handle<Type>, len: u32, stride: u32) -> Handle<Type> {
    ty(
        module,
        TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(std::num::NonZeroU32::new(len).expect("array length is not zero")),
            stride,
        },
    )
}

/// A global of group 0 at `binding`.
pub fn global(
    m: &mut Module,
    name: &str,
    space: naga::AddressSpace,
    binding: u32,
    ty: Handle<Type>,
) -> Handle<naga::GlobalVariable> {
    m.global_variables.append(
        naga::GlobalVariable {
            name: Some(name.into()),
            space,
            binding: Some(naga::ResourceBinding { group: 0, binding }),
            ty,
            init: None,
            memory_decorations: Default::default(),
        },
        Span::UNDEFINED,
    )
}

/// An entry point of `stage` around `function`.
pub fn entry_point(
    name: &str,
    stage: naga::ShaderStage,
    workgroup_size: [u32; 3],
    function: naga::Function,
) -> naga::EntryPoint {
    naga::EntryPoint {
        name: name.into(),
        stage,
        early_depth_test: None,
        workgroup_size,
        workgroup_size_overrides: None,
        function,
        mesh_info: None,
        task_payload: None,
        incoming_ray_payload: None,
    }
}

/// Builds one function body.
pub struct FnBuilder<'m> {
    /// The module the function belongs to (types are added to it).
    pub module: &'m mut Module,
    /// The function being built.
    pub func: Function,
    blocks: Vec<Block>,
    emitter: Emitter,
    opaque_zero: Option<OpaqueZero>,
}

/// A u32 the shader reads from a uniform (member `member` of the struct in `global`) and that
/// the host keeps at zero. With it set, float literals are written as `bitcast(bits | zero)`:
/// values the driver cannot fold. Mesa 22.3's NIR matched the constant 0.0 against its rule
/// `bcsel(a, -1.0, -0.0) -> fneg(b2f(a))` (its constant match compares as floats, so +0.0 ==
/// -0.0) and turned `c ? -1.0 : 0.0` into -0.0 for a false `c`, SignedZeroInfNanPreserve or not
/// (docs/pica-translate.md "Driver facts").
#[derive(Clone, Copy, Debug)]
pub struct OpaqueZero {
    /// The uniform block.
    pub global: Handle<naga::GlobalVariable>,
    /// Index of the zero member in the block's struct.
    pub member: u32,
}

impl<'m> FnBuilder<'m> {
    /// Starts a function with the given name.
    pub fn new(module: &'m mut Module, name: &str) -> Self {
        let func = Function { name: Some(name.to_string()), ..Function::default() };
        let mut b =
            FnBuilder { module, func, blocks: vec![Block::new()], emitter: Emitter::default(), opaque_zero: None };
        b.emitter.start(&b.func.expressions);
        b
    }

    /// Writes every float literal (and [`FnBuilder::zero`]) through `zero`, hiding its value from
    /// the driver's compiler; `None` writes plain literals.
    pub fn set_opaque_zero(&mut self, zero: Option<OpaqueZero>) {
        self.opaque_zero = zero;
    }

    fn flush(&mut self) {
        if let Some((stmt, span)) = self.emitter.finish(&self.func.expressions) {
            self.blocks.last_mut().expect("a block is open").push(stmt, span);
        }
    }

    /// Appends an expression, emitting it when naga requires.
    pub fn expr(&mut self, e: Expression) -> Handle<Expression> {
        if e.needs_pre_emit() {
            self.flush();
            let h = self.func.expressions.append(e, Span::UNDEFINED);
            self.emitter.start(&self.func.expressions);
            h
        } else {
            self.func.expressions.append(e, Span::UNDEFINED)
        }
    }

    /// Appends a statement to the current block.
    pub fn stmt(&mut self, s: Statement) {
        self.flush();
        self.blocks.last_mut().expect("a block is open").push(s, Span::UNDEFINED);
        self.emitter.start(&self.func.expressions);
    }

    /// Opens a nested block (for `If`, `Loop`, `Switch` bodies).
    pub fn open(&mut self) {
        self.flush();
        self.blocks.push(Block::new());
        self.emitter.start(&self.func.expressions);
    }

    /// Closes the innermost block and returns it.
    pub fn close(&mut self) -> Block {
        self.flush();
        let b = self.blocks.pop().expect("a block is open");
        self.emitter.start(&self.func.expressions);
        b
    }

    /// Finishes the function.
    pub fn finish(mut self) -> Function {
        self.flush();
        self.func.body = self.blocks.pop().expect("the body block is open");
        self.func
    }

    // ---- literals and variables ----

    /// An f32 literal (opaque to the driver when [`FnBuilder::set_opaque_zero`] is set).
    pub fn f32(&mut self, v: f32) -> Handle<Expression> {
        match self.opaque_zero {
            Some(_) => self.f32_bits(v.to_bits()),
            None => self.expr(Expression::Literal(Literal::F32(v))),
        }
    }
    /// An f32 of any bit pattern (naga rejects infinite and NaN literals): a bitcast u32
    /// (opaque to the driver when [`FnBuilder::set_opaque_zero`] is set).
    pub fn f32_bits(&mut self, bits: u32) -> Handle<Expression> {
        let mut u = self.u32(bits);
        if let Some(OpaqueZero { global, member }) = self.opaque_zero {
            let g = self.global(global);
            let p = self.at(g, member);
            let zero = self.load(p);
            u = self.bin(BinaryOperator::InclusiveOr, u, zero);
        }
        self.bitcast(u, ScalarKind::Float)
    }
    /// The zero value of `ty`; floats, float vectors and arrays of them built from
    /// [`FnBuilder::f32`] when the builder writes opaque literals.
    pub fn zero(&mut self, ty: Handle<Type>) -> Handle<Expression> {
        if self.opaque_zero.is_some() {
            match self.module.types[ty].inner {
                TypeInner::Scalar(F32) => return self.f32(0.0),
                TypeInner::Vector { size, scalar: F32 } => {
                    let z = self.f32(0.0);
                    return self.expr(Expression::Splat { size, value: z });
                }
                TypeInner::Array { base, size: naga::ArraySize::Constant(n), .. } => {
                    let e = self.zero(base);
                    return self.compose(ty, vec![e; n.get() as usize]);
                }
                _ => {}
            }
        }
        self.expr(Expression::ZeroValue(ty))
    }
    /// A u32 literal.
    pub fn u32(&mut self, v: u32) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::U32(v)))
    }
    /// An i32 literal.
    pub fn i32(&mut self, v: i32) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::I32(v)))
    }
    /// A bool literal.
    pub fn bool(&mut self, v: bool) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::Bool(v)))
    }
    /// A `vec4<f32>` of one value.
    pub fn f32x4(&mut self, v: f32) -> Handle<Expression> {
        let s = self.f32(v);
        self.splat(s)
    }
    /// A `vec4<u32>` of one value.
    pub fn u32x4(&mut self, v: u32) -> Handle<Expression> {
        let s = self.u32(v);
        self.splat(s)
    }

    /// A new local variable with an optional constant initialiser.
    pub fn local(&mut self, name: &str, ty: Handle<Type>, init: Option<Handle<Expression>>) -> Handle<Expression> {
        let lv =
            self.func.local_variables.append(LocalVariable { name: Some(name.to_string()), ty, init }, Span::UNDEFINED);
        self.expr(Expression::LocalVariable(lv))
    }

    /// A pointer to a global.
    pub fn global(&mut self, g: Handle<naga::GlobalVariable>) -> Handle<Expression> {
        self.expr(Expression::GlobalVariable(g))
    }

    // ---- expressions ----

    /// `load(pointer)`.
    pub fn load(&mut self, pointer: Handle<Expression>) -> Handle<Expression> {
        self.expr(Expression::Load { pointer })
    }
    /// `store(pointer, value)`.
    pub fn store(&mut self, pointer: Handle<Expression>, value: Handle<Expression>) {
        self.stmt(Statement::Store { pointer, value })
    }
    /// `base[index]` with a constant index.
    pub fn at(&mut self, base: Handle<Expression>, index: u32) -> Handle<Expression> {
        self.expr(Expression::AccessIndex { base, index })
    }
    /// `base[index]` with a dynamic index.
    pub fn index(&mut self, base: Handle<Expression>, index: Handle<Expression>) -> Handle<Expression> {
        self.expr(Expression::Access { base, index })
    }
    /// A binary operation.
    pub fn bin(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        self.expr(Expression::Binary { op, left, right })
    }
    /// `condition ? accept : reject`.
    pub fn select(
        &mut self,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Handle<Expression> {
        self.expr(Expression::Select { condition, accept, reject })
    }
    /// A vec4 of one scalar.
    pub fn splat(&mut self, value: Handle<Expression>) -> Handle<Expression> {
        self.expr(Expression::Splat { size: VectorSize::Quad, value })
    }
    /// A vector of the given components.
    pub fn compose(&mut self, ty: Handle<Type>, components: Vec<Handle<Expression>>) -> Handle<Expression> {
        self.expr(Expression::Compose { ty, components })
    }
    /// A one-argument math function.
    pub fn math1(&mut self, fun: MathFunction, arg: Handle<Expression>) -> Handle<Expression> {
        self.expr(Expression::Math { fun, arg, arg1: None, arg2: None, arg3: None })
    }
    /// A two-argument math function.
    pub fn math2(
        &mut self,
        fun: MathFunction,
        arg: Handle<Expression>,
        arg1: Handle<Expression>,
    ) -> Handle<Expression> {
        self.expr(Expression::Math { fun, arg, arg1: Some(arg1), arg2: None, arg3: None })
    }
    /// A three-argument math function.
    pub fn math3(
        &mut self,
        fun: MathFunction,
        a: Handle<Expression>,
        b: Handle<Expression>,
        c: Handle<Expression>,
    ) -> Handle<Expression> {
        self.expr(Expression::Math { fun, arg: a, arg1: Some(b), arg2: Some(c), arg3: None })
    }
    /// Bit reinterpretation to another scalar kind.
    pub fn bitcast(&mut self, expr: Handle<Expression>, kind: ScalarKind) -> Handle<Expression> {
        self.expr(Expression::As { expr, kind, convert: None })
    }
    /// Value conversion to another scalar kind (4-byte).
    pub fn convert(&mut self, expr: Handle<Expression>, kind: ScalarKind) -> Handle<Expression> {
        self.expr(Expression::As { expr, kind, convert: Some(4) })
    }
    /// Logical not.
    pub fn not(&mut self, expr: Handle<Expression>) -> Handle<Expression> {
        self.expr(Expression::Unary { op: naga::UnaryOperator::LogicalNot, expr })
    }
    /// Arithmetic negation.
    pub fn neg(&mut self, expr: Handle<Expression>) -> Handle<Expression> {
        self.expr(Expression::Unary { op: naga::UnaryOperator::Negate, expr })
    }

    // ---- statements ----

    /// `if cond { accept } else { reject }` with bodies built by closures.
    pub fn if_else(
        &mut self,
        cond: Handle<Expression>,
        accept: impl FnOnce(&mut Self),
        reject: impl FnOnce(&mut Self),
    ) {
        self.open();
        accept(self);
        let a = self.close();
        self.open();
        reject(self);
        let r = self.close();
        self.stmt(Statement::If { condition: cond, accept: a, reject: r });
    }

    /// `if cond { accept }`.
    pub fn if_(&mut self, cond: Handle<Expression>, accept: impl FnOnce(&mut Self)) {
        self.if_else(cond, accept, |_| {})
    }

    /// Calls `function` and returns its result (`CallResult` must not be emitted).
    pub fn call_value(&mut self, function: Handle<Function>, arguments: Vec<Handle<Expression>>) -> Handle<Expression> {
        self.flush();
        let h = self.func.expressions.append(Expression::CallResult(function), Span::UNDEFINED);
        self.blocks
            .last_mut()
            .expect("a block is open")
            .push(Statement::Call { function, arguments, result: Some(h) }, Span::UNDEFINED);
        self.emitter.start(&self.func.expressions);
        h
    }

    /// Adds an argument and returns its expression.
    pub fn arg(&mut self, name: &str, ty: Handle<Type>) -> Handle<Expression> {
        let i = self.func.arguments.len() as u32;
        self.func.arguments.push(naga::FunctionArgument { name: Some(name.to_string()), ty, binding: None });
        self.expr(Expression::FunctionArgument(i))
    }

    /// `for k in 0..n { body(k) }` as a naga loop over a u32 local (`body` gets the loaded k).
    pub fn for_range(&mut self, n: u32, u32_ty: Handle<Type>, body: impl FnOnce(&mut Self, Handle<Expression>)) {
        let zero = self.u32(0);
        let k = self.local("k", u32_ty, Some(zero));
        self.open();
        let kv = self.load(k);
        let end = self.u32(n);
        let done = self.bin(BinaryOperator::GreaterEqual, kv, end);
        self.if_(done, |fb| fb.stmt(Statement::Break));
        body(self, kv);
        let one = self.u32(1);
        self.add_assign(k, one);
        let b = self.close();
        self.stmt(Statement::Loop { body: b, continuing: Block::new(), break_if: None });
    }

    /// Increments an integer variable by a literal of the same type.
    pub fn add_assign(&mut self, pointer: Handle<Expression>, amount: Handle<Expression>) {
        let v = self.load(pointer);
        let n = self.bin(BinaryOperator::Add, v, amount);
        self.store(pointer, n);
    }
}

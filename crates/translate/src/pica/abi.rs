//! The binding ABI of translated PICA200 shaders (docs/abi.md "PICA200").
//!
//! Group 0:
//! - binding 0: uniform block `PicaUniforms { c: array<vec4<f32>, 96>, i: array<vec4<u32>, 4>,
//!   b: u32, zero: u32 }` (std140 offsets 0, 1536, 1600, 1604; 1616 bytes). Bit n of `b` is
//!   boolean register bn; `zero` must be 0 (`exact` builds its float constants from it).
//! - binding 1: read-only storage `array<vec4<f32>>`: inputs of the compute entry points, 16
//!   registers (v0-v15) per invocation.
//! - binding 2: read-write storage `array<vec4<f32>>`: outputs of the compute entry points
//!   (layouts in docs/abi.md).

use naga::{
    AddressSpace, GlobalVariable, Handle, Module, ResourceBinding, Span, StorageAccess, StructMember, Type, TypeInner,
    VectorSize,
};

use crate::builder::{array, scalar, ty, vector, FnBuilder, OpaqueZero, BOOL, F32, I32, U32};

/// Byte offset of `i` in the uniform block.
pub const UNIFORM_I_OFFSET: u32 = 96 * 16;
/// Byte offset of `b` in the uniform block.
pub const UNIFORM_B_OFFSET: u32 = UNIFORM_I_OFFSET + 4 * 16;
/// Byte offset of `zero` in the uniform block: a u32 the host keeps at 0.
pub const UNIFORM_ZERO_OFFSET: u32 = UNIFORM_B_OFFSET + 4;
/// Index of `zero` among the members of the uniform block's struct (the fourth, as `Abi::new` lists them).
const ZERO_MEMBER: u32 = 3;
/// Size of the uniform block in bytes.
pub const UNIFORM_SIZE: u32 = UNIFORM_B_OFFSET + 16;
/// vec4 registers per invocation in the input and output buffers of the compute entry points.
pub const REGS: u32 = 16;

/// The types and globals every PICA translation uses.
#[derive(Clone, Copy)]
pub struct Abi {
    pub u32: Handle<Type>,
    pub i32: Handle<Type>,
    pub bool: Handle<Type>,
    pub vec4f: Handle<Type>,
    pub vec2i: Handle<Type>,
    pub regs: Handle<Type>,
    /// The uniform block.
    pub uniforms: Handle<GlobalVariable>,
    /// Private v0-v15.
    pub v: Handle<GlobalVariable>,
    /// Private r0-r15.
    pub r: Handle<GlobalVariable>,
    /// Private o0-o15.
    pub o: Handle<GlobalVariable>,
    /// Private a0.x, a0.y.
    pub a0: Handle<GlobalVariable>,
    /// Private aL.
    pub al: Handle<GlobalVariable>,
    /// Private cmp.x, cmp.y.
    pub cmp_x: Handle<GlobalVariable>,
    pub cmp_y: Handle<GlobalVariable>,
    /// Set in `exact`: functions write their float constants through the block's `zero`.
    pub opaque: Option<OpaqueZero>,
}

fn private(module: &mut Module, name: &str, ty: Handle<Type>) -> Handle<GlobalVariable> {
    module.global_variables.append(
        GlobalVariable {
            name: Some(name.to_string()),
            space: AddressSpace::Private,
            binding: None,
            ty,
            init: None,
            memory_decorations: Default::default(),
        },
        Span::UNDEFINED,
    )
}

/// A storage buffer of vec4<f32> at group 0, `binding`.
pub fn storage(module: &mut Module, name: &str, binding: u32, write: bool) -> Handle<GlobalVariable> {
    let vec4f = vector(module, VectorSize::Quad, F32);
    let arr = ty(module, TypeInner::Array { base: vec4f, size: naga::ArraySize::Dynamic, stride: 16 });
    let access = if write { StorageAccess::LOAD | StorageAccess::STORE } else { StorageAccess::LOAD };
    module.global_variables.append(
        GlobalVariable {
            name: Some(name.to_string()),
            space: AddressSpace::Storage { access },
            binding: Some(ResourceBinding { group: 0, binding }),
            ty: arr,
            init: None,
            memory_decorations: Default::default(),
        },
        Span::UNDEFINED,
    )
}

impl Abi {
    /// Adds the types and globals to `module`.
    pub fn new(module: &mut Module) -> Abi {
        let u32 = scalar(module, U32);
        let i32 = scalar(module, I32);
        let bool = scalar(module, BOOL);
        let vec4f = vector(module, VectorSize::Quad, F32);
        let vec4u = vector(module, VectorSize::Quad, U32);
        let vec2i = vector(module, VectorSize::Bi, I32);
        let consts = array(module, vec4f, 96, 16);
        let ints = array(module, vec4u, 4, 16);
        let block = module.types.insert(
            Type {
                name: Some("PicaUniforms".into()),
                inner: TypeInner::Struct {
                    members: vec![
                        StructMember { name: Some("c".into()), ty: consts, binding: None, offset: 0 },
                        StructMember { name: Some("i".into()), ty: ints, binding: None, offset: UNIFORM_I_OFFSET },
                        StructMember { name: Some("b".into()), ty: u32, binding: None, offset: UNIFORM_B_OFFSET },
                        StructMember { name: Some("zero".into()), ty: u32, binding: None, offset: UNIFORM_ZERO_OFFSET },
                    ],
                    span: UNIFORM_SIZE,
                },
            },
            Span::UNDEFINED,
        );
        let uniforms = module.global_variables.append(
            GlobalVariable {
                name: Some("pica".into()),
                space: AddressSpace::Uniform,
                binding: Some(ResourceBinding { group: 0, binding: 0 }),
                ty: block,
                init: None,
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        );
        let regs = array(module, vec4f, REGS, 16);
        let v = private(module, "v", regs);
        let r = private(module, "r", regs);
        let o = private(module, "o", regs);
        let a0 = private(module, "a0", vec2i);
        let al = private(module, "aL", i32);
        let cmp_x = private(module, "cmp_x", bool);
        let cmp_y = private(module, "cmp_y", bool);
        Abi { u32, i32, bool, vec4f, vec2i, regs, uniforms, v, r, o, a0, al, cmp_x, cmp_y, opaque: None }
    }

    /// Makes every function built from here on write opaque float constants (`exact`).
    pub fn hide_constants(&mut self) {
        self.opaque = Some(OpaqueZero { global: self.uniforms, member: ZERO_MEMBER });
    }

    /// A function builder that writes float constants as this ABI asks.
    pub fn builder<'m>(&self, module: &'m mut Module, name: &str) -> FnBuilder<'m> {
        let mut fb = FnBuilder::new(module, name);
        fb.set_opaque_zero(self.opaque);
        fb
    }
}

/// Host-side contents of the uniform block, in the layout above.
///
/// ```
/// use translate::pica::{UniformBlock, UNIFORM_SIZE};
///
/// let mut u = UniformBlock::default();
/// u.c[0] = [1.0, 0.0, 0.0, 0.0];
/// u.b = 1 << 15;
/// let bytes = u.to_bytes(); // upload to group 0, binding 0
/// assert_eq!(bytes.len(), UNIFORM_SIZE as usize);
/// assert_eq!(&bytes[..4], &1.0f32.to_le_bytes());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct UniformBlock {
    /// c0-c95.
    pub c: [[f32; 4]; 96],
    /// i0-i3 (x = iteration count - 1, y = initial aL, z = aL increment; bytes).
    pub i: [[u32; 4]; 4],
    /// b0-b15, bit n = bn.
    pub b: u16,
}

impl Default for UniformBlock {
    fn default() -> Self {
        UniformBlock { c: [[0.0; 4]; 96], i: [[0; 4]; 4], b: 0 }
    }
}

impl UniformBlock {
    /// The bytes to upload (std140, [`UNIFORM_SIZE`] bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(UNIFORM_SIZE as usize);
        for v in &self.c {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        for v in &self.i {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out.extend_from_slice(&(self.b as u32).to_le_bytes());
        // `zero` and the padding stay 0.
        out.resize(UNIFORM_SIZE as usize, 0);
        out
    }

    /// Writes the DVLE's constants over the registers they name, as the 3DS runtime does when
    /// it binds a program (the translation reads constants from the uniform block, never inlines
    /// them: docs/abi.md).
    pub fn apply_constants(&mut self, dvle: &pica::shbin::Dvle) {
        use pica::shbin::Constant;
        for k in &dvle.constants {
            match *k {
                Constant::Bool { reg, value } if reg < 16 => {
                    self.b = (self.b & !(1 << reg)) | ((value as u16) << reg);
                }
                Constant::Int { reg, value } if reg < 4 => self.i[reg as usize] = value.map(u32::from),
                Constant::Float { reg, value } if reg < 96 => self.c[reg as usize] = value.map(|f| f.to_f32()),
                _ => {}
            }
        }
    }
}

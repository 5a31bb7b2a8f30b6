//! What every translator takes besides its input: the target, the precision and flags.

use translate::{Precision, Target};

use crate::error::Failure;

/// SPIR-V 1.3 words (little-endian bytes).
pub const SP_TARGET_SPIRV: u32 = 0;
/// GLSL 450 for Vulkan.
pub const SP_TARGET_GLSL: u32 = 1;
/// GLSL ES 3.10.
pub const SP_TARGET_GLSL_ES: u32 = 2;
/// Metal Shading Language 2.1.
pub const SP_TARGET_MSL: u32 = 3;
/// HLSL shader model 5.1.
pub const SP_TARGET_HLSL: u32 = 4;
/// WGSL.
pub const SP_TARGET_WGSL: u32 = 5;

/// Host f32 plus the source's special cases (the default: docs/design.md "Semantics").
pub const SP_PRECISION_COMPAT: u32 = 0;
/// Host f32 arithmetic, no special cases.
pub const SP_PRECISION_FAST: u32 = 1;
/// Bit-identical to the reference interpreter (PICA float24 emulated in the shader).
pub const SP_PRECISION_EXACT: u32 = 2;

/// Add the compute entry point that runs the program over storage buffers (differential tests;
/// docs/abi.md).
pub const SP_FLAG_COMPUTE_WRAPPER: u32 = 1;
/// PICA only: always translate control flow to the dispatch loop.
pub const SP_FLAG_DISPATCH_ONLY: u32 = 2;

/// Options of a translation. A null `SpOptions *` means all zero: SPIR-V, compat precision, no
/// flags.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SpOptions {
    /// One of `SP_TARGET_*`.
    pub target: u32,
    /// One of `SP_PRECISION_*` (TEV translations are integer-exact and ignore it).
    pub precision: u32,
    /// `SP_FLAG_*` bits.
    pub flags: u32,
}

/// The options, checked.
pub(crate) struct Checked {
    pub(crate) target: Target,
    pub(crate) precision: Precision,
    pub(crate) compute_wrapper: bool,
    pub(crate) dispatch_only: bool,
}

impl SpOptions {
    pub(crate) fn check(&self) -> Result<Checked, Failure> {
        let target = match self.target {
            SP_TARGET_SPIRV => Target::SpirV,
            SP_TARGET_GLSL => Target::Glsl,
            SP_TARGET_GLSL_ES => Target::GlslEs,
            SP_TARGET_MSL => Target::Msl,
            SP_TARGET_HLSL => Target::Hlsl,
            SP_TARGET_WGSL => Target::Wgsl,
            t => return Err(Failure::invalid(format!("unknown target {t} (SP_TARGET_SPIRV..SP_TARGET_WGSL are 0-5)"))),
        };
        let precision = match self.precision {
            SP_PRECISION_COMPAT => Precision::Compat,
            SP_PRECISION_FAST => Precision::Fast,
            SP_PRECISION_EXACT => Precision::Exact,
            p => return Err(Failure::invalid(format!("unknown precision {p} (compat 0, fast 1, exact 2)"))),
        };
        let known = SP_FLAG_COMPUTE_WRAPPER | SP_FLAG_DISPATCH_ONLY;
        if self.flags & !known != 0 {
            return Err(Failure::invalid(format!("unknown flags {:#x}", self.flags & !known)));
        }
        Ok(Checked {
            target,
            precision,
            compute_wrapper: self.flags & SP_FLAG_COMPUTE_WRAPPER != 0,
            dispatch_only: self.flags & SP_FLAG_DISPATCH_ONLY != 0,
        })
    }
}

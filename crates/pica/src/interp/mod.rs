//! The PICA200 reference interpreter: bit-exact float24 arithmetic ([`f24ops`]), the control-flow
//! stacks, vertex and geometry shaders (docs/pica-interp.md).
//!
//! ```
//! use pica::interp::{Interpreter, Program, ShaderKind};
//! // mov o0, v0 ; end   (descriptor 0: mask xyzw, identity swizzles)
//! let program = Program::new(&[0x4C00_0000, 0x8800_0000], &[0x0D86_C36F]).unwrap();
//! let mut it = Interpreter::new(&program, ShaderKind::Vertex);
//! let mut inputs = [[0.0; 4]; 16];
//! inputs[0] = [1.0, 2.0, 3.0, 4.0];
//! assert_eq!(it.run(0, &inputs).unwrap()[0], [1.0, 2.0, 3.0, 4.0]);
//! ```

mod batch;
mod blocks;
mod exec;
pub mod f24ops;
mod flow;
mod geometry;
mod lanes;
mod program;
mod reset;
mod shader;

pub use exec::{Interpreter, RunError, ShaderKind, Uniforms, Vec4, DEFAULT_STEP_LIMIT, MAX_PRIMITIVES};
pub use geometry::{run_geometry, GeometryError, GeometryMode, Primitive};
pub use lanes::LANES;
pub use program::{Invalid, Program, ProgramError, MAX_CODE_WORDS, MAX_DESCRIPTORS};
pub use shader::{LoadError, OutputSemantic, Shader};

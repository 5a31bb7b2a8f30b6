//! Random valid PICA200 programs ("smith"), for differential tests of the translator, and the
//! program builder they are made with.
//!
//! ```
//! use pica::interp::{Interpreter, Program};
//! use pica::smith::{generate, Config};
//! let p = generate(7, &Config::default());
//! let program = Program::new(&p.built.code, &p.built.descriptor_words).unwrap();
//! let mut it = Interpreter::new(&program, p.kind);
//! let mut u = it.uniforms();
//! u.int = p.int_uniforms;
//! u.bools = p.bool_uniforms;
//! it.set_uniforms(&u);
//! it.run(0, &[[0.5; 4]; 16]).unwrap();
//! ```

mod ast;
mod builder;
mod fragment;
mod gen;
mod rng;
mod shbin;

pub use ast::{Ast, Stmt, Test};
pub use builder::{plain_desc, Builder, Built};
pub use fragment::{fragment_inputs, fragment_state, lit_proctex_state, lit_state, proctex_inputs, proctex_state};
pub use gen::{arbitrary_program, generate, Config, SmithProgram};
pub use rng::Rng;

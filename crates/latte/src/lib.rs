//! Latte (Wii U GPU, R600/R700 family) machine layer: GFD containers, MT Framework shader
//! containers, shader keys, microcode decode/encode, disassembler and assembler.
//!
//! The specs this crate follows are in `../shared/specs/` (gx2-gfd-facts.md,
//! latte-semantics-facts.md, latte-shader-translation.md); docs/latte-*.md record decisions.

#![forbid(unsafe_code)]

pub mod error;
pub mod gfd;
pub mod isa;
pub mod key;
pub mod mt;
pub mod asm;
pub mod disasm;
pub(crate) mod reader;

pub use error::{Error, Result};

//! Latte (Wii U GPU, R600/R700 family) machine layer: GFD containers, MT Framework shader
//! containers, shader keys, microcode decode/encode, disassembler and assembler.
//!
//! - [`gfd`]: GFD (.gsh) files and the GX2 shader header structs, read and written byte-exact.
//! - [`mt`]: `.es`, `.spkg`, `.lfx` containers (readers, writers, a magic scan).
//! - [`key`]: FNV-1a 64 shader keys and SHA-1 inventories of directory trees.
//! - [`isa`]: the R700 instruction tables, decode/encode of every encoding, whole programs,
//!   and a random-program generator.
//! - [`json`]: a decoded program as JSON, one object per instruction with every field.
//! - [`interp`]: the reference interpreter; [`smith`]: random valid, terminating programs.
//! - [`disasm`] / [`asm`]: text in the decaf-emu latte-assembler syntax, each the inverse of the
//!   other; `asm` also builds GFD files from `.vsh` / `.psh` sources.
//!
//! The specs this crate follows are in `docs/specs/` (gx2-gfd-facts.md,
//! latte-semantics-facts.md, the Wii U port's translator notes, docs/specs/README.md); docs/latte-*.md record decisions.

#![forbid(unsafe_code)]

pub mod asm;
pub mod disasm;
pub mod dump;
pub mod error;
pub mod gfd;
pub mod interp;
pub mod isa;
pub mod json;
pub mod key;
pub mod mt;
pub(crate) mod reader;
pub mod smith;
pub mod transc;

pub use error::{Error, Result};

//! The 3DS PICA200 machine layer: float24, the shader ISA, SHBIN containers, the picasso-syntax
//! assembler and disassembler, the reference interpreter, the command-list reader and GPU state
//! tracker, textures, SMDH files, and the fixed-function fragment pipeline's CPU reference and key
//! ([`fixed`]).
//!
//! Knows nothing of any shader IR: the translate crate builds on these types.

#![forbid(unsafe_code)]

pub mod asm;
pub mod disasm;
pub mod fixed;
pub mod float24;
pub mod interp;
pub mod isa;
pub mod regs;
pub mod shbin;
pub mod smdh;
pub mod smith;
pub mod state;
pub mod texture;

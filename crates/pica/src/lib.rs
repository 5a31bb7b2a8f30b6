//! The 3DS PICA200 machine layer: float24, the shader ISA, SHBIN containers, the picasso-syntax
//! assembler and disassembler, the reference interpreter, GPU command lists and state, and textures.
//!
//! Knows nothing of any shader IR: the translate crate builds on these types.

#![forbid(unsafe_code)]

pub mod asm;
pub mod disasm;
pub mod float24;
pub mod interp;
pub mod isa;
pub mod regs;
pub mod shbin;
pub mod smith;
pub mod state;
pub mod texture;

//! The assembler: program text (decaf-emu latte-assembler syntax) to microcode, and `.vsh` /
//! `.psh` sources with their `; $KEY = value` header directives to GFD files.

pub(crate) mod lex;
pub mod program;

pub use program::{assemble, Assembled};

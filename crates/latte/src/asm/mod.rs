//! The assembler: program text (decaf-emu latte-assembler syntax) to microcode, and `.vsh` /
//! `.psh` sources with their `; $KEY = value` header directives to GFD files.

pub(crate) mod alu;
pub mod header;
pub(crate) mod lex;
pub(crate) mod line;
pub mod program;
pub mod regs;

pub use header::{assemble_gfd, assemble_gfd_as, assemble_gfd_with, Flavor};
pub use program::{assemble, assemble_with, Assembled, Literals};

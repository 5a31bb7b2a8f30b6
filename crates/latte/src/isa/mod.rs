//! Latte microcode: instruction encodings (CF, ALU, TEX, VTX) decoded into typed fields and
//! encoded back, bit for bit. Field layouts are those of latte-semantics-facts.md §1 (R700).
//!
//! Every bit of every word lands in some field (reserved bits included), so `encode(decode(w))
//! == w` for any word, and an encoding the tables do not name still decodes, prints and
//! re-encodes.

pub mod alu;
pub mod cf;
pub mod fetch;
pub mod fields;
pub mod names;
pub mod program;
pub mod smith;
pub mod table;

pub use alu::{AluInst, AluKind, AluSrc, Op2, Op3};
pub use cf::{CfAlu, CfExport, CfInst, CfNormal, Kcache};
pub use fetch::{FetchInst, TexInst, VtxInst};
pub use program::{AluGroup, Clause, Program};

//! Latte microcode: instruction encodings (CF, ALU, TEX, VTX) decoded into typed fields and
//! encoded back, bit for bit. Field layouts are those of latte-semantics-facts.md §1 (R700).
//!
//! Every bit of every word lands in some field (reserved bits included), so `encode(decode(w))
//! == w` for any word, and an encoding the tables do not name still decodes, prints and
//! re-encodes.

pub mod alu;
pub mod cf;
pub mod fetch;
pub mod names;
pub mod program;
pub mod smith;
pub mod table;

pub use alu::{AluInst, AluKind, AluSrc, Op2, Op3};
pub use cf::{CfAlu, CfExport, CfInst, CfNormal, Kcache};
pub use fetch::{FetchInst, TexInst, VtxInst};
pub use program::{AluGroup, Clause, Program};

/// Bits `lo..lo+len` of `w`.
#[inline]
pub(crate) fn bits(w: u32, lo: u32, len: u32) -> u32 {
    (w >> lo) & ((1u32 << len) - 1)
}

/// `v` placed at bits `lo..lo+len` (masked).
#[inline]
pub(crate) fn put(v: u32, lo: u32, len: u32) -> u32 {
    (v & ((1u32 << len) - 1)) << lo
}

#[inline]
pub(crate) fn bit(w: u32, b: u32) -> bool {
    (w >> b) & 1 != 0
}

#[inline]
pub(crate) fn flag(v: bool, b: u32) -> u32 {
    (v as u32) << b
}

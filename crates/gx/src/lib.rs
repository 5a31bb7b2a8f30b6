//! gx: the Wii / GameCube (Hollywood / Flipper) machine layer.
//!
//! - [`regs`]: BP register layouts, one table each ([`fields`] holds the table machinery);
//! - [`bp`]: the register file with the BP mask, and the decoded [`bp::TevState`];
//! - [`dl`]: GX display lists (BP loads, with CP/XF loads skipped by length);
//! - [`tev`] and [`indirect`]: the integer-exact TEV reference;
//! - [`brres`]: BRRES files, MDL0 materials and shaders (reader and a writer for tests).
//!
//! Sources: specs/hollywood-tev-facts.md (primary), hollywood-tev-more-facts.md; decisions where
//! the specs are silent are in docs/gx-decisions.md.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bp;
pub mod brres;
pub mod dl;
pub mod error;
pub mod fields;
pub mod indirect;
pub mod reader;
pub mod regs;
pub mod tev;

pub use bp::{BpRegs, TevState};
pub use error::{Error, ErrorKind, Result};
pub use tev::{Evaluator, PixelInputs, PixelOutput};

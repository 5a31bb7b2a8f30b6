//! gx: the Wii / GameCube (Hollywood / Flipper) machine layer.
//!
//! - [`regs`]: BP register layouts, one table each ([`fields`] holds the table machinery);
//! - [`bp`]: the register file with the BP mask, and the decoded [`bp::TevState`];
//! - [`dl`]: GX display lists (BP loads, with CP/XF loads skipped by length);
//! - [`listing`]: the register listing the printer writes, read back (printer and parser are inverses);
//! - [`smith`]: random valid TEV states from `arbitrary::Unstructured`;
//! - [`tev`] and [`indirect`]: the integer-exact TEV reference;
//! - [`pixel`]: the steps after the TEV (z texture, fog, dither, constant alpha, pixel format);
//! - [`key`]: the TEV key (the state that changes generated code); [`sample`]: the texel fetch
//!   that completes the reference for whole materials;
//! - [`texture`]: the TEX0 formats decoded to RGBA8 (and encoded back for the lossless ones);
//! - [`brres`]: BRRES files, MDL0 materials and shaders (reader and a writer for tests).
//!
//! ```
//! use gx::{dl, BpRegs, Evaluator, PixelInputs};
//!
//! // One stage: colour = TEXC * RASC, alpha = TEXA (BP loads as a display list would hold them).
//! let mut list = Vec::new();
//! for (address, value) in [(0xC0, 0x08F8AF), (0xC1, 0x08FFC0), (0x28, 0x000040), (0xF6, 0x4), (0xF7, 0xE)] {
//!     list.extend_from_slice(&dl::bp_load(address, value));
//! }
//! let mut regs = BpRegs::new();
//! dl::apply(&mut regs, &list, 0)?;
//! let out = Evaluator::new(&regs.state()).eval(&PixelInputs {
//!     tex: vec![[200, 100, 50, 77]],
//!     ras: [[255, 128, 0, 255], [0; 4]],
//!     ..Default::default()
//! });
//! assert_eq!(out.color, [200, 50, 0]);
//! assert_eq!(out.alpha, 77);
//! # Ok::<(), gx::Error>(())
//! ```
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
pub mod key;
pub mod listing;
pub mod pixel;
pub mod reader;
pub mod regs;
pub mod sample;
pub mod smith;
pub mod tev;
pub mod texture;

pub use bp::{BpRegs, TevState};
pub use error::{Error, ErrorKind, Result};
pub use tev::{Evaluator, PixelInputs, PixelOutput};

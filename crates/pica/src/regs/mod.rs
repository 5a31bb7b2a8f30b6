//! PICA200 GPU command lists and the internal register table.
//!
//! Source: 3dbrew "GPU/Internal Registers" (revision of 2016-05-03); formats and decisions in
//! docs/pica-cmdlist.md. [`cmdlist`] reads and writes command lists; [`table`] names every
//! register id 0x000-0x2FF and gives its field layout; [`layouts`] holds the layouts and the
//! typed enumerations of field values.

pub mod cmdlist;
pub mod fields;
pub mod layouts;
pub mod table;

pub use cmdlist::{Command, CommandList, Limits, ReadError, Reader, Write, Writer};
pub use fields::{Field, FieldValue, Kind, Layout, Value};
pub use table::{lookup, Register, REGISTER_COUNT};

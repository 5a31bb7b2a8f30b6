//! Positioned errors of every parser in this crate.

/// An error with the absolute byte offset (in the file or buffer given to the parser) where it was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("byte offset {offset:#x}: {kind}")]
pub struct Error {
    /// Absolute byte offset.
    pub offset: u64,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl Error {
    /// Builds an error at `offset`.
    #[cold]
    pub fn new(offset: u64, kind: ErrorKind) -> Self {
        Self { offset, kind }
    }
}

/// The kinds of parse errors.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    /// The data ends inside a structure.
    #[error("unexpected end of data reading {what} ({need} bytes needed, {have} left)")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Bytes needed.
        need: u64,
        /// Bytes left.
        have: u64,
    },
    /// A magic number did not match.
    #[error("bad magic {found:?} for {what}, expected {expected:?}")]
    BadMagic {
        /// The structure.
        what: &'static str,
        /// Expected magic.
        expected: &'static str,
        /// Found bytes (lossy text).
        found: String,
    },
    /// An unknown display-list opcode.
    #[error("unknown display-list command {0:#04x}")]
    UnknownCommand(u8),
    /// A draw command inside a register display list.
    #[error("draw command {0:#04x} in a register display list (its vertex data size depends on the vertex format)")]
    DrawCommand(u8),
    /// A count read from the file is above the cap.
    #[error("{what} count {count} exceeds the limit {limit}")]
    TooMany {
        /// What is counted.
        what: &'static str,
        /// The count found.
        count: u64,
        /// The cap.
        limit: u64,
    },
    /// An offset points outside the data.
    #[error("{what} offset {target:#x} is outside the data (size {size:#x})")]
    OutOfBounds {
        /// What the offset locates.
        what: &'static str,
        /// The absolute target.
        target: i64,
        /// Size of the data.
        size: u64,
    },
    /// Anything else that makes the data invalid.
    #[error("{0}")]
    Invalid(String),
}

/// Result with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

//! Errors of the Latte machine layer. Every error names where it happened: a byte offset in
//! the file being read, or a line of assembly text.

use thiserror::Error;

/// A failure to read, decode or assemble Latte data.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// The input ended before a structure that starts or continues at `offset`.
    #[error("byte offset {offset:#x}: truncated: {what} needs {need} bytes, {have} left")]
    Truncated {
        /// Absolute byte offset.
        offset: usize,
        /// What was being read.
        what: &'static str,
        /// Bytes needed.
        need: usize,
        /// Bytes left.
        have: usize,
    },
    /// A field holds a value this reader does not accept.
    #[error("byte offset {offset:#x}: {what}")]
    Invalid {
        /// Absolute byte offset.
        offset: usize,
        /// What is wrong.
        what: String,
    },
    /// A count read from the file is larger than the data could hold.
    #[error("byte offset {offset:#x}: {what} count {count} exceeds the limit {limit}")]
    TooMany {
        /// Absolute byte offset of the count.
        offset: usize,
        /// What was counted.
        what: &'static str,
        /// The count read.
        count: u64,
        /// The largest count accepted there.
        limit: u64,
    },
    /// An assembly source error.
    #[error("line {line}: {msg}")]
    Asm {
        /// Source line (1-based; 0 for a value no line set).
        line: usize,
        /// What went wrong.
        msg: String,
    },
    /// A program could not be encoded (e.g. a field value out of range).
    #[error("instruction {index}: {msg}")]
    Encode {
        /// Instruction index.
        index: usize,
        /// What went wrong.
        msg: String,
    },
}

impl Error {
    #[cold]
    pub(crate) fn invalid(offset: usize, what: impl Into<String>) -> Self {
        Error::Invalid { offset, what: what.into() }
    }
    #[cold]
    pub(crate) fn asm(line: usize, msg: impl Into<String>) -> Self {
        Error::Asm { line, msg: msg.into() }
    }
}

/// Result alias of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

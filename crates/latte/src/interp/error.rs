//! Interpreter errors: every one names where it happened, a CF instruction, an ALU group or a
//! fetch (the numbering of the disassembly listing: CF index, and groups and fetches counted
//! through the whole program).

use thiserror::Error;

/// Where in a program an error happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// CF instruction `cf`.
    Cf(usize),
    /// ALU group `group` (listing numbering) of the clause run by CF `cf`.
    Alu {
        /// CF index.
        cf: usize,
        /// Group number as the disassembler prints it.
        group: usize,
    },
    /// Fetch `fetch` (listing numbering) of the clause run by CF `cf`.
    Fetch {
        /// CF index.
        cf: usize,
        /// Fetch number as the disassembler prints it.
        fetch: usize,
    },
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            At::Cf(c) => write!(f, "CF {c}"),
            At::Alu { cf, group } => write!(f, "CF {cf}, ALU group {group}"),
            At::Fetch { cf, fetch } => write!(f, "CF {cf}, fetch {fetch}"),
        }
    }
}

/// A program the interpreter cannot run (it never panics and never hangs on one).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum InterpError {
    /// An opcode, mode or field value this interpreter does not implement.
    #[error("{at}: unsupported: {what}")]
    Unsupported {
        /// Where.
        at: At,
        /// What (names the opcode or field).
        what: String,
    },
    /// A program that breaks a rule of the machine (register out of range, bad operand, ...).
    #[error("{at}: {what}")]
    Invalid {
        /// Where.
        at: At,
        /// What is wrong.
        what: String,
    },
    /// A POP, ELSE, LOOP_END or RETURN found no matching stack entry.
    #[error("{at}: stack underflow: {what}")]
    StackUnderflow {
        /// Where.
        at: At,
        /// Which instruction and what it expected.
        what: String,
    },
    /// The stack grew past the configured limit.
    #[error("{at}: stack overflow ({limit} entries)")]
    StackOverflow {
        /// Where.
        at: At,
        /// The limit.
        limit: usize,
    },
    /// The step budget (CF instructions plus ALU groups plus fetches) ran out.
    #[error("{at}: step budget of {budget} exhausted")]
    StepBudget {
        /// The instruction that would have run next.
        at: At,
        /// The budget.
        budget: u64,
    },
    /// The CF program counter left the program.
    #[error("CF {pc}: past the end of the CF program ({len} instructions)")]
    PcOutOfRange {
        /// The program counter.
        pc: usize,
        /// Number of CF instructions.
        len: usize,
    },
    /// The host inputs do not fit the program (a buffer or texture it fetches is missing).
    #[error("{at}: input: {what}")]
    Input {
        /// Where.
        at: At,
        /// What is missing.
        what: String,
    },
}

/// Result alias of the interpreter.
pub type Result<T, E = InterpError> = std::result::Result<T, E>;

pub(crate) fn unsupported<T>(at: At, what: impl Into<String>) -> Result<T> {
    Err(InterpError::Unsupported { at, what: what.into() })
}

pub(crate) fn invalid<T>(at: At, what: impl Into<String>) -> Result<T> {
    Err(InterpError::Invalid { at, what: what.into() })
}

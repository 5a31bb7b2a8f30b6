//! Assembler errors: every error names the source file and line, and says what picasso would say.

use std::fmt;

/// An assembly error at `file:line`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: error: {kind}")]
pub struct AsmError {
    /// The file name as given (or as set by a `# LINE "file"` marker).
    pub file: String,
    /// 1-based line number.
    pub line: u32,
    /// What went wrong.
    pub kind: ErrorKind,
}

/// What went wrong; the messages follow picasso's wording so that users of picasso recognise them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    #[error("invalid label name: {0}")]
    InvalidLabel(String),
    #[error("duplicate label: {0}")]
    DuplicateLabel(String),
    #[error("label '{0}' is undefined")]
    UndefinedLabel(String),
    #[error("procedure '{0}' is undefined")]
    UndefinedProc(String),
    #[error("entrypoint '{0}' is undefined")]
    UndefinedEntry(String),
    #[error("no DVLEs can be generated from the given input file(s)")]
    NoDvle,
    #[error("unclosed block(s)")]
    UnclosedBlock,
    #[error("instruction outside block")]
    OutsideBlock,
    #[error("invalid instruction: {0}")]
    InvalidInstruction(String),
    #[error("invalid directive: .{0}")]
    InvalidDirective(String),
    #[error("missing parameter")]
    MissingParam,
    #[error("too many parameters")]
    TooManyParams,
    #[error("identifier already used: {0}")]
    DuplicateIdentifier(String),
    #[error("invalid {what}: {text}")]
    Invalid { what: &'static str, text: String },
    #[error("invalid swizzling mask: {0}")]
    InvalidSwizzle(String),
    #[error("missing closing bracket: {0}")]
    MissingBracket(String),
    #[error("index register not allowed here: {0}")]
    IndexNotAllowed(String),
    #[error("index register not allowed with this kind of register")]
    IndexNotAllowedWithKind,
    #[error("index register not allowed in source{0}")]
    IndexNotAllowedInSource(u8),
    #[error("invalid register offset: {0}")]
    InvalidOffset(String),
    #[error("invalid register: {0}")]
    InvalidRegister(String),
    #[error("invalid {what} register: {text}")]
    RegisterOutOfRange { what: &'static str, text: String },
    #[error("invalid destination register: {0}")]
    InvalidDest(String),
    #[error("invalid source{n} register: {text}")]
    InvalidSource { n: u8, text: String },
    #[error("negation is not allowed on a destination: {0}")]
    NegatedDest(String),
    #[error("source operands must be different input registers (v0..v15)")]
    BadInputCombination,
    #[error("two consecutive MOVA instructions are not supported by the hardware")]
    ConsecutiveMova,
    #[error("invalid condition register: {0}")]
    InvalidCondition(String),
    #[error("condition register checked twice")]
    ConditionTwice,
    #[error("invalid conditional operator: {0}")]
    InvalidCondOp(String),
    #[error("Inverting the condition is not supported by {0}")]
    NoInversion(&'static str),
    #[error("unknown setemit flag: {0}")]
    SetemitFlag(String),
    #[error("Invalid value: {0}")]
    InvalidValue(String),
    #[error("Value out of range ({min}..{max}): {value}")]
    OutOfRange { min: i64, max: i64, value: i64 },
    #[error("too many nested blocks")]
    TooManyBlocks,
    #[error(".else with unmatched IF")]
    UnmatchedElse,
    #[error("spurious .else")]
    SpuriousElse,
    #[error(".end with unmatched block")]
    UnmatchedEnd,
    #[error("proc already exists: {0}")]
    DuplicateProc(String),
    #[error("cannot redefine register")]
    RedefineRegister,
    #[error("mismatched uniform type: {0}")]
    UniformType(String),
    #[error("uniform '{name}' previously declared as having size {size}")]
    UniformSize { name: String, size: u32 },
    #[error("invalid uniform size: {0}")]
    UniformSizeInvalid(String),
    #[error("not enough uniform space: {name}[{size}]")]
    NoUniformSpace { name: String, size: u32 },
    #[error("not enough space for local constant '{0}'")]
    NoConstantSpace(String),
    #[error("too many {0}")]
    TooMany(&'static str),
    #[error("invalid syntax")]
    Syntax,
    #[error("garbage found: {0}")]
    Garbage(String),
    #[error("no elements have been specified in array '{0}'")]
    EmptyArray(String),
    #[error("too many elements in the array, expected {0}")]
    ArrayFull(u32),
    #[error("instructions are not allowed inside a .constfa array")]
    InstructionInArray,
    #[error("this output collides with another one previously defined")]
    OutputCollision,
    #[error("this register (o{0}) can only be a dummy output")]
    DummyOnly(u32),
    #[error(".gsh had already been used")]
    GshTwice,
    #[error(".gsh must be used before any constant, uniform or output is declared")]
    GshTooLate,
    #[error("specified location overlaps uniform allocation pool: {0}")]
    GshOverlap(String),
    #[error("instruction outside vertex shader code memory (max 512 instructions, currently {0})")]
    ProgramTooLong(usize),
    #[error("too many operand descriptors (limit is 128)")]
    TooManyOpdescs,
    #[error("opdesc allocation error")]
    OpdescAlloc,
    #[error("cannot encode the instruction: {0}")]
    Encode(String),
}

/// A warning (picasso prints these and goes on), e.g. a padding NOP that `-n` left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub file: String,
    pub line: u32,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: warning: {}", self.file, self.line, self.message)
    }
}

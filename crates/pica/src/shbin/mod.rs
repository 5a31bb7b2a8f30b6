//! SHBIN containers: DVLB (the file), DVLP (the shared program) and DVLE (executables), read and
//! written byte for byte (3dbrew "SHBIN"); DVOJ (unlinked objects) read.
//!
//! The writer lays tables out the way picasso does (docs/pica-shbin.md): DVLB header, DVLP
//! header, code, operand descriptors, the filename symbol table, then each DVLE at a 4-byte
//! boundary with its header and its constant, label, output, uniform and symbol tables in that
//! order; the file ends at a 4-byte boundary. Every file picasso writes reads and writes back to
//! the same bytes.

mod dvoj;
mod read;
mod reader;
mod write;

pub use dvoj::Dvoj;

use crate::float24::F24;

/// A SHBIN file: one program and the executables that share it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Shbin {
    pub program: Dvlp,
    pub executables: Vec<Dvle>,
}

/// The shared program (DVLP).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Dvlp {
    /// Header word 0x04 (0 in picasso's files; probably a version).
    pub version: u32,
    /// Instruction words.
    pub code: Vec<u32>,
    /// Operand descriptor entries: the descriptor word and the second word (0 in picasso's files).
    pub descriptors: Vec<[u32; 2]>,
    /// Header word 0x18 (picasso writes the offset of the end of the descriptor table).
    pub unknown_18: u32,
    /// Header word 0x1C (always zero so far).
    pub unknown_1c: u32,
    /// Header word 0x20, the filename symbol table's offset as stored (0 in picasso's files).
    pub filename_table_offset: u32,
    /// The filename symbol table's bytes (empty in picasso's files).
    pub filename_table: Vec<u8>,
}

/// Shader type of an executable (DVLE byte 0x06).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderType {
    Vertex,
    Geometry,
    /// Any other value, kept.
    Other(u8),
}

impl ShaderType {
    pub fn from_raw(raw: u8) -> ShaderType {
        match raw {
            0 => ShaderType::Vertex,
            1 => ShaderType::Geometry,
            r => ShaderType::Other(r),
        }
    }

    pub fn raw(self) -> u8 {
        match self {
            ShaderType::Vertex => 0,
            ShaderType::Geometry => 1,
            ShaderType::Other(r) => r,
        }
    }
}

/// Geometry shader primitive mode (DVLE byte 0x14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GeometryMode {
    Point,
    Variable,
    Fixed,
    Other(u8),
}

impl GeometryMode {
    pub fn from_raw(raw: u8) -> GeometryMode {
        match raw {
            0 => GeometryMode::Point,
            1 => GeometryMode::Variable,
            2 => GeometryMode::Fixed,
            r => GeometryMode::Other(r),
        }
    }

    pub fn raw(self) -> u8 {
        match self {
            GeometryMode::Point => 0,
            GeometryMode::Variable => 1,
            GeometryMode::Fixed => 2,
            GeometryMode::Other(r) => r,
        }
    }
}

/// An executable (DVLE).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dvle {
    /// Header u16 at 0x04 (0x1002 for current picasso, 0 for 2015 builds).
    pub version: u16,
    pub shader_type: ShaderType,
    /// Byte 0x07: merge vertex and geometry output maps (kept as stored).
    pub merge_outmaps: u8,
    /// Entry point, in instruction words.
    pub main: u32,
    /// End of `main` (one past its last instruction), in words.
    pub endmain: u32,
    pub input_mask: u16,
    pub output_mask: u16,
    pub geometry_mode: GeometryMode,
    /// First float uniform of the fixed-mode vertex array.
    pub gs_fixed_start: u8,
    /// Fully-defined vertices in variable mode.
    pub gs_variable_num: u8,
    /// Vertices in the fixed-mode array.
    pub gs_fixed_num: u8,
    pub constants: Vec<Constant>,
    pub labels: Vec<Label>,
    pub outputs: Vec<Output>,
    pub uniforms: Vec<Uniform>,
    /// The symbol table's bytes (NUL-terminated names; labels and uniforms point into it).
    pub symbols: Vec<u8>,
}

impl Default for Dvle {
    fn default() -> Self {
        Dvle {
            version: 0x1002,
            shader_type: ShaderType::Vertex,
            merge_outmaps: 0,
            main: 0,
            endmain: 0,
            input_mask: 0,
            output_mask: 0,
            geometry_mode: GeometryMode::Point,
            gs_fixed_start: 0,
            gs_variable_num: 0,
            gs_fixed_num: 0,
            constants: Vec::new(),
            labels: Vec::new(),
            outputs: Vec::new(),
            uniforms: Vec::new(),
            symbols: Vec::new(),
        }
    }
}

impl Dvle {
    /// The NUL-terminated name at `offset` in the symbol table.
    pub fn symbol(&self, offset: u32) -> Option<&str> {
        let rest = self.symbols.get(offset as usize..)?;
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        std::str::from_utf8(&rest[..end]).ok()
    }
}

/// A constant table entry (0x14 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constant {
    /// b`reg` = value.
    Bool { reg: u8, value: bool },
    /// i`reg` = (x, y, z, w) as unsigned bytes.
    Int { reg: u8, value: [u8; 4] },
    /// c`reg` = (x, y, z, w).
    Float { reg: u8, value: [F24; 4] },
    /// An entry that is none of the above in canonical form (unknown type or stray bits), kept.
    Raw([u8; 20]),
}

/// A label table entry (0x10 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    pub id: u16,
    /// The u16 at 0x02 (always 1 so far).
    pub unknown: u16,
    /// Location in the program, in words.
    pub offset: u32,
    /// Size in words, or 0xFFFFFFFF for none.
    pub size: u32,
    /// Offset of its name in the symbol table.
    pub symbol: u32,
}

/// Output semantics (output table type field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputKind {
    Position,
    NormalQuat,
    Color,
    TexCoord0,
    TexCoord0W,
    TexCoord1,
    TexCoord2,
    View,
    /// 7 and anything above 8.
    Other(u16),
}

impl OutputKind {
    pub fn from_raw(raw: u16) -> OutputKind {
        match raw {
            0 => OutputKind::Position,
            1 => OutputKind::NormalQuat,
            2 => OutputKind::Color,
            3 => OutputKind::TexCoord0,
            4 => OutputKind::TexCoord0W,
            5 => OutputKind::TexCoord1,
            6 => OutputKind::TexCoord2,
            8 => OutputKind::View,
            r => OutputKind::Other(r),
        }
    }

    pub fn raw(self) -> u16 {
        match self {
            OutputKind::Position => 0,
            OutputKind::NormalQuat => 1,
            OutputKind::Color => 2,
            OutputKind::TexCoord0 => 3,
            OutputKind::TexCoord0W => 4,
            OutputKind::TexCoord1 => 5,
            OutputKind::TexCoord2 => 6,
            OutputKind::View => 8,
            OutputKind::Other(r) => r,
        }
    }

    /// picasso's name for the semantic (`position`, `normalquat`, `color`, `texcoord0`, ...).
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            OutputKind::Position => "position",
            OutputKind::NormalQuat => "normalquat",
            OutputKind::Color => "color",
            OutputKind::TexCoord0 => "texcoord0",
            OutputKind::TexCoord0W => "texcoord0w",
            OutputKind::TexCoord1 => "texcoord1",
            OutputKind::TexCoord2 => "texcoord2",
            OutputKind::View => "view",
            OutputKind::Other(_) => return None,
        })
    }
}

/// An output table entry (8 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    pub kind: OutputKind,
    /// The o register.
    pub reg: u16,
    /// Component mask (bit 0 = x).
    pub mask: u16,
    /// The u16 at 0x06, kept.
    pub unknown: u16,
}

/// A uniform table entry (8 bytes): registers `start..=end` in the unified register space
/// (0x00-0x0F v, 0x10-0x6F c, 0x70-0x73 i, 0x78-0x87 b).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Uniform {
    /// Offset of its name in the symbol table.
    pub symbol: u32,
    pub start: u16,
    pub end: u16,
}

/// A register of the unified uniform register space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UniformReg {
    Input(u8),
    Float(u8),
    Int(u8),
    Bool(u8),
    Other(u16),
}

impl UniformReg {
    pub fn from_raw(raw: u16) -> UniformReg {
        match raw {
            0x00..=0x0F => UniformReg::Input(raw as u8),
            0x10..=0x6F => UniformReg::Float((raw - 0x10) as u8),
            0x70..=0x73 => UniformReg::Int((raw - 0x70) as u8),
            0x78..=0x87 => UniformReg::Bool((raw - 0x78) as u8),
            r => UniformReg::Other(r),
        }
    }
}

impl std::fmt::Display for UniformReg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UniformReg::Input(i) => write!(f, "v{i}"),
            UniformReg::Float(i) => write!(f, "c{i}"),
            UniformReg::Int(i) => write!(f, "i{i}"),
            UniformReg::Bool(i) => write!(f, "b{i}"),
            UniformReg::Other(r) => write!(f, "reg{r:#x}"),
        }
    }
}

/// An error reading a SHBIN or DVOJ, at a byte offset of the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("byte offset {offset:#x}: {kind}")]
pub struct ShbinError {
    pub offset: usize,
    pub kind: ShbinErrorKind,
}

impl ShbinError {
    #[cold]
    pub(crate) fn new(offset: usize, kind: ShbinErrorKind) -> Self {
        ShbinError { offset, kind }
    }
}

/// What went wrong reading a SHBIN or DVOJ.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShbinErrorKind {
    #[error("expected magic {expected:?}, found {found:?}")]
    Magic { expected: &'static str, found: [u8; 4] },
    #[error("file ends inside {what} ({len} bytes needed)")]
    OutOfBounds { what: &'static str, len: usize },
    #[error("{what}: {count} entries do not fit in the {left} bytes left")]
    Count { what: &'static str, count: u32, left: usize },
}

/// The magic of a file, for format sniffing.
pub fn is_shbin(bytes: &[u8]) -> bool {
    bytes.starts_with(b"DVLB")
}

/// True for a DVOJ object.
pub fn is_dvoj(bytes: &[u8]) -> bool {
    bytes.starts_with(b"DVOJ")
}

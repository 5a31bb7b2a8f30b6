//! CiTrace, the GPU trace format of Citra and its successors ("CiTr", version 1): a header, an
//! initial state (GPU, LCD and PICA registers, default attributes, shader code, swizzle data and
//! float uniforms), and a stream of memory loads, register writes and frame markers.
//!
//! Facts (layout, element codes, the two register-write layouts) and where each came from are in
//! docs/pica-citrace.md. [`Trace::read`] and [`Trace::to_bytes`] read and write the file;
//! [`replay()`] runs a trace through the state tracker.
//!
//! ```
//! use pica::state::citrace::{Element, RegisterWrite, Trace, WriteSize};
//! let mut trace = Trace::default();
//! trace.stream.push(Element::RegisterWrite(RegisterWrite::u32(0x1040_1000 + 4 * 0x228, 36)));
//! trace.stream.push(Element::FrameMarker);
//! let bytes = trace.to_bytes().unwrap();
//! assert_eq!(Trace::read(&bytes).unwrap(), trace);
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use thiserror::Error;

pub mod replay;

pub use replay::{replay, Event, EventKind, Frame, PhysicalMemory, Replay, ReplayLimits};

/// The magic at offset 0.
pub const MAGIC: [u8; 4] = *b"CiTr";
/// The only version there is.
pub const VERSION: u32 = 1;
/// Bytes of the header Citra writes (`sizeof(CTHeader)`, packed).
pub const HEADER_SIZE: usize = 0x64;
/// Bytes of one stream element (a u32 type and a 16-byte union, packed).
pub const ELEMENT_SIZE: usize = 20;
/// Header offsets of the stream offset and the element count.
pub const STREAM_OFFSET_FIELD: usize = 0x5C;
pub const STREAM_SIZE_FIELD: usize = 0x60;

/// Stream element type codes.
pub const FRAME_MARKER: u32 = 0xE1;
pub const MEMORY_LOAD: u32 = 0xE2;
pub const REGISTER_WRITE: u32 = 0xE3;

/// Names of the initial state sections, in header (and file) order.
pub const SECTIONS: [&str; 10] = [
    "gpu_registers",
    "lcd_registers",
    "pica_registers",
    "default_attributes",
    "vs_program_binary",
    "vs_swizzle_data",
    "vs_float_uniforms",
    "gs_program_binary",
    "gs_swizzle_data",
    "gs_float_uniforms",
];

/// The initial state: each section a list of words as the header sizes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InitialState {
    /// The GPU's external registers from physical 0x10400000, one word each.
    pub gpu_registers: Vec<u32>,
    /// The LCD registers.
    pub lcd_registers: Vec<u32>,
    /// The internal registers 0x000-0x2FF.
    pub pica_registers: Vec<u32>,
    /// Four words per attribute (x, y, z, w), each a float24 in bits 0-23.
    pub default_attributes: Vec<u32>,
    pub vs_program_binary: Vec<u32>,
    /// The operand descriptors.
    pub vs_swizzle_data: Vec<u32>,
    /// Four words per uniform (x, y, z, w), each a float24 in bits 0-23.
    pub vs_float_uniforms: Vec<u32>,
    pub gs_program_binary: Vec<u32>,
    pub gs_swizzle_data: Vec<u32>,
    pub gs_float_uniforms: Vec<u32>,
}

impl InitialState {
    /// The sections in [`SECTIONS`] order.
    pub fn sections(&self) -> [&Vec<u32>; 10] {
        [
            &self.gpu_registers,
            &self.lcd_registers,
            &self.pica_registers,
            &self.default_attributes,
            &self.vs_program_binary,
            &self.vs_swizzle_data,
            &self.vs_float_uniforms,
            &self.gs_program_binary,
            &self.gs_swizzle_data,
            &self.gs_float_uniforms,
        ]
    }

    fn sections_mut(&mut self) -> [&mut Vec<u32>; 10] {
        [
            &mut self.gpu_registers,
            &mut self.lcd_registers,
            &mut self.pica_registers,
            &mut self.default_attributes,
            &mut self.vs_program_binary,
            &mut self.vs_swizzle_data,
            &mut self.vs_float_uniforms,
            &mut self.gs_program_binary,
            &mut self.gs_swizzle_data,
            &mut self.gs_float_uniforms,
        ]
    }
}

/// The bytes of a memory load. Loads read from a file share the file's bytes; equality compares
/// the contents.
#[derive(Clone)]
pub struct LoadData {
    buf: Arc<[u8]>,
    start: usize,
    len: usize,
    from_file: bool,
}

impl LoadData {
    pub fn new(bytes: Vec<u8>) -> LoadData {
        let len = bytes.len();
        LoadData { buf: bytes.into(), start: 0, len, from_file: false }
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.buf[self.start..self.start + self.len]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where the bytes lie in the trace file they were read from.
    pub fn file_offset(&self) -> Option<usize> {
        self.from_file.then_some(self.start)
    }
}

impl PartialEq for LoadData {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for LoadData {}

impl std::fmt::Debug for LoadData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LoadData({} bytes", self.len)?;
        if let Some(o) = self.file_offset() {
            write!(f, " at file offset 0x{o:x}")?;
        }
        write!(f, ")")
    }
}

/// Memory the GPU read while the trace was recorded: command lists, vertex, index and texture
/// data, at their physical address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryLoad {
    pub physical_address: u32,
    pub data: LoadData,
    /// The element's last word (Citra writes 0).
    pub pad: u32,
}

/// Width of a register write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WriteSize {
    U8,
    U16,
    U32,
    U64,
}

impl WriteSize {
    /// The size code of the sized layout (0xD1-0xD4).
    pub fn code(self) -> u32 {
        match self {
            WriteSize::U8 => 0xD1,
            WriteSize::U16 => 0xD2,
            WriteSize::U32 => 0xD3,
            WriteSize::U64 => 0xD4,
        }
    }

    pub fn from_code(code: u32) -> Option<WriteSize> {
        Some(match code {
            0xD1 => WriteSize::U8,
            0xD2 => WriteSize::U16,
            0xD3 => WriteSize::U32,
            0xD4 => WriteSize::U64,
            _ => return None,
        })
    }

    pub fn bits(self) -> u32 {
        match self {
            WriteSize::U8 => 8,
            WriteSize::U16 => 16,
            WriteSize::U32 => 32,
            WriteSize::U64 => 64,
        }
    }
}

/// A write the CPU made to a GPU or LCD register, at its physical address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegisterWrite {
    pub physical_address: u32,
    pub size: WriteSize,
    pub value: u64,
}

impl RegisterWrite {
    /// A 32-bit write.
    pub fn u32(physical_address: u32, value: u32) -> RegisterWrite {
        RegisterWrite { physical_address, size: WriteSize::U32, value: u64::from(value) }
    }
}

/// One stream element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// The end of a frame.
    FrameMarker,
    MemoryLoad(MemoryLoad),
    RegisterWrite(RegisterWrite),
}

/// How register writes are laid out in the 16 bytes after the element type. Both carry version
/// 1 (docs/pica-citrace.md "Register writes").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WriteLayout {
    /// Address, size code 0xD1-0xD4, 64-bit value (Citra 2016-2017).
    Sized,
    /// Address and a 32-bit value, the rest zero (Citra from 2018, its successors).
    #[default]
    Plain32,
}

/// A whole trace.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub initial: InitialState,
    pub stream: Vec<Element>,
    pub layout: WriteLayout,
    /// Where the stream started in the file it was read from (set by [`Trace::read`]; not
    /// part of equality).
    pub stream_offset: Option<usize>,
}

impl PartialEq for Trace {
    fn eq(&self, other: &Self) -> bool {
        // The layout only shows in register writes.
        let writes = self.stream.iter().any(|e| matches!(e, Element::RegisterWrite(_)));
        self.initial == other.initial && self.stream == other.stream && (!writes || self.layout == other.layout)
    }
}

/// Caps the reader enforces beyond the file's own length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most words in one initial state section.
    pub max_section_words: usize,
    /// Most stream elements.
    pub max_elements: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_section_words: 1 << 20, max_elements: 1 << 24 }
    }
}

/// What went wrong reading a trace; every error carries the byte offset at fault.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReadError {
    #[error("byte offset 0: magic {found:02x?} is not \"CiTr\"")]
    Magic { found: Vec<u8> },
    #[error("byte offset {offset}: file ends inside the {HEADER_SIZE}-byte header")]
    TruncatedHeader { offset: usize },
    #[error("byte offset 4: version {version}, only version 1 is known")]
    Version { version: u32 },
    #[error("byte offset 8: header size {size} is smaller than the {HEADER_SIZE} bytes of the fields")]
    HeaderSize { size: u32 },
    #[error(
        "byte offset {offset}: {section} of {words} words at 0x{start:x} runs past the end of the file ({len} bytes)"
    )]
    Section { offset: usize, section: &'static str, start: u32, words: u32, len: usize },
    #[error("byte offset {offset}: {section} has {words} words, more than the limit of {limit}")]
    SectionTooLarge { offset: usize, section: &'static str, words: u32, limit: usize },
    #[error("byte offset {offset}: stream of {elements} elements at 0x{start:x} runs past the end of the file ({len} bytes)")]
    Stream { offset: usize, start: u32, elements: u32, len: usize },
    #[error("byte offset {offset}: {elements} stream elements, more than the limit of {limit}")]
    TooManyElements { offset: usize, elements: u32, limit: usize },
    #[error("byte offset {offset}: unknown stream element type 0x{kind:x} (0xE1 frame, 0xE2 load, 0xE3 write)")]
    ElementType { offset: usize, kind: u32 },
    #[error("byte offset {offset}: memory load of {size} bytes from file offset 0x{data:x} runs past the end of the file ({len} bytes)")]
    LoadData { offset: usize, data: u32, size: u32, len: usize },
    #[error("byte offset {offset}: register write fits neither layout (no size code 0xD1-0xD4, and the bytes after a 32-bit value are not zero)")]
    WriteLayout { offset: usize },
}

impl ReadError {
    /// Byte offset of the fault.
    pub fn offset(&self) -> usize {
        match *self {
            ReadError::Magic { .. } => 0,
            ReadError::Version { .. } => 4,
            ReadError::HeaderSize { .. } => 8,
            ReadError::TruncatedHeader { offset }
            | ReadError::Section { offset, .. }
            | ReadError::SectionTooLarge { offset, .. }
            | ReadError::Stream { offset, .. }
            | ReadError::TooManyElements { offset, .. }
            | ReadError::ElementType { offset, .. }
            | ReadError::LoadData { offset, .. }
            | ReadError::WriteLayout { offset } => offset,
        }
    }
}

/// What stops a trace from being written.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WriteError {
    #[error("stream element {index}: a {bits}-bit register write needs the sized layout")]
    NotPlain32 { index: usize, bits: u32 },
    #[error("the trace takes more than 4 GiB, past what 32-bit offsets reach")]
    TooLarge,
}

/// Whether `bytes` start with the CiTrace magic.
pub fn is_citrace(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}

impl Trace {
    /// Reads a trace with the default [`Limits`].
    pub fn read(bytes: &[u8]) -> Result<Trace, ReadError> {
        Trace::read_with(bytes, Limits::default())
    }

    pub fn read_with(bytes: &[u8], limits: Limits) -> Result<Trace, ReadError> {
        if !is_citrace(bytes) {
            if bytes.len() < 4 && MAGIC.starts_with(bytes) {
                return Err(ReadError::TruncatedHeader { offset: bytes.len() });
            }
            return Err(ReadError::Magic { found: bytes[..bytes.len().min(4)].to_vec() });
        }
        if bytes.len() < HEADER_SIZE {
            return Err(ReadError::TruncatedHeader { offset: bytes.len() });
        }
        let version = u32_at(bytes, 4);
        if version != VERSION {
            return Err(ReadError::Version { version });
        }
        let header_size = u32_at(bytes, 8);
        if (header_size as usize) < HEADER_SIZE {
            return Err(ReadError::HeaderSize { size: header_size });
        }
        let len = bytes.len();
        let mut initial = InitialState::default();
        for (i, section) in initial.sections_mut().into_iter().enumerate() {
            let field = 12 + 8 * i;
            let (start, words) = (u32_at(bytes, field), u32_at(bytes, field + 4));
            let name = SECTIONS[i];
            if words as usize > limits.max_section_words {
                return Err(ReadError::SectionTooLarge {
                    offset: field + 4,
                    section: name,
                    words,
                    limit: limits.max_section_words,
                });
            }
            if words == 0 {
                continue;
            }
            let end = u64::from(start) + 4 * u64::from(words);
            if end > len as u64 {
                return Err(ReadError::Section { offset: field, section: name, start, words, len });
            }
            let s = start as usize;
            *section = (0..words as usize).map(|k| u32_at(bytes, s + 4 * k)).collect();
        }
        let (start, elements) = (u32_at(bytes, STREAM_OFFSET_FIELD), u32_at(bytes, STREAM_SIZE_FIELD));
        if elements as usize > limits.max_elements {
            return Err(ReadError::TooManyElements { offset: STREAM_SIZE_FIELD, elements, limit: limits.max_elements });
        }
        if u64::from(start) + ELEMENT_SIZE as u64 * u64::from(elements) > len as u64 {
            return Err(ReadError::Stream { offset: STREAM_OFFSET_FIELD, start, elements, len });
        }
        let base = start as usize;
        let at = |i: usize| base + ELEMENT_SIZE * i;
        // The register-write layout is one per file: sized when every write carries a size code.
        let mut any_write = false;
        let mut all_sized = true;
        for i in 0..elements as usize {
            if u32_at(bytes, at(i)) == REGISTER_WRITE {
                any_write = true;
                all_sized &= WriteSize::from_code(u32_at(bytes, at(i) + 8)).is_some();
            }
        }
        let layout = if any_write && all_sized { WriteLayout::Sized } else { WriteLayout::Plain32 };
        let file: Arc<[u8]> = bytes.into();
        let mut stream = Vec::with_capacity(elements as usize);
        for i in 0..elements as usize {
            let o = at(i);
            let w = |k: usize| u32_at(bytes, o + 4 + 4 * k);
            stream.push(match u32_at(bytes, o) {
                FRAME_MARKER => Element::FrameMarker,
                MEMORY_LOAD => {
                    let (data, size, physical_address, pad) = (w(0), w(1), w(2), w(3));
                    if u64::from(data) + u64::from(size) > len as u64 {
                        return Err(ReadError::LoadData { offset: o + 4, data, size, len });
                    }
                    let data =
                        LoadData { buf: file.clone(), start: data as usize, len: size as usize, from_file: true };
                    Element::MemoryLoad(MemoryLoad { physical_address, data, pad })
                }
                REGISTER_WRITE => Element::RegisterWrite(match layout {
                    WriteLayout::Sized => RegisterWrite {
                        physical_address: w(0),
                        size: WriteSize::from_code(w(1)).unwrap_or(WriteSize::U32),
                        value: u64::from(w(2)) | (u64::from(w(3)) << 32),
                    },
                    WriteLayout::Plain32 => {
                        if w(2) != 0 || w(3) != 0 {
                            return Err(ReadError::WriteLayout { offset: o + 12 });
                        }
                        RegisterWrite::u32(w(0), w(1))
                    }
                }),
                kind => return Err(ReadError::ElementType { offset: o, kind }),
            });
        }
        Ok(Trace { initial, stream, layout, stream_offset: Some(base) })
    }

    /// Byte offset of stream element `index` in the file the trace was read from.
    pub fn element_offset(&self, index: usize) -> Option<usize> {
        self.stream_offset.map(|s| s + ELEMENT_SIZE * index)
    }

    /// The file: header, the initial state sections in order, the bytes of the memory loads
    /// (each distinct content once), then the stream.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WriteError> {
        let mut out = vec![0u8; HEADER_SIZE];
        out[..4].copy_from_slice(&MAGIC);
        out[4..8].copy_from_slice(&VERSION.to_le_bytes());
        out[8..12].copy_from_slice(&(HEADER_SIZE as u32).to_le_bytes());
        let offset32 = |n: usize| u32::try_from(n).map_err(|_| WriteError::TooLarge);
        for (i, section) in self.initial.sections().into_iter().enumerate() {
            let field = 12 + 8 * i;
            let start = offset32(out.len())?;
            out[field..field + 4].copy_from_slice(&start.to_le_bytes());
            out[field + 4..field + 8].copy_from_slice(&offset32(section.len())?.to_le_bytes());
            for w in section {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let mut placed: HashMap<&[u8], u32> = HashMap::new();
        let mut load_offsets = Vec::new();
        for e in &self.stream {
            if let Element::MemoryLoad(m) = e {
                let data = m.data.as_slice();
                let at = match placed.get(data) {
                    Some(&at) => at,
                    None => {
                        let at = offset32(out.len())?;
                        out.extend_from_slice(data);
                        placed.insert(data, at);
                        at
                    }
                };
                load_offsets.push(at);
            }
        }
        let stream_start = offset32(out.len())?;
        out[STREAM_OFFSET_FIELD..STREAM_OFFSET_FIELD + 4].copy_from_slice(&stream_start.to_le_bytes());
        out[STREAM_SIZE_FIELD..STREAM_SIZE_FIELD + 4].copy_from_slice(&offset32(self.stream.len())?.to_le_bytes());
        let mut loads = load_offsets.into_iter();
        for (index, e) in self.stream.iter().enumerate() {
            let words: [u32; 5] = match e {
                Element::FrameMarker => [FRAME_MARKER, 0, 0, 0, 0],
                Element::MemoryLoad(m) => {
                    let at = loads.next().unwrap_or(0);
                    [MEMORY_LOAD, at, offset32(m.data.len())?, m.physical_address, m.pad]
                }
                Element::RegisterWrite(r) => match self.layout {
                    WriteLayout::Sized => {
                        [REGISTER_WRITE, r.physical_address, r.size.code(), r.value as u32, (r.value >> 32) as u32]
                    }
                    WriteLayout::Plain32 => {
                        if r.size != WriteSize::U32 || r.value > u64::from(u32::MAX) {
                            return Err(WriteError::NotPlain32 { index, bits: r.size.bits() });
                        }
                        [REGISTER_WRITE, r.physical_address, r.value as u32, 0, 0]
                    }
                },
            };
            for w in words {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        offset32(out.len())?;
        Ok(out)
    }
}

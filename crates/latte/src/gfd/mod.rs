//! GFD ("Gfx2") containers: file header, blocks, and the GX2 shader structs inside them.
//!
//! Layouts follow specs/gx2-gfd-facts.md ("File header", "Block header"). Every block is kept
//! with its exact bytes, so writing a parsed file gives back the same bytes; the typed shader
//! view lives in [`shader`].

pub mod shader;

use crate::error::{Error, Result};
use crate::reader::Reader;
use serde::Serialize;

pub use shader::{AttribVar, LoopVar, SamplerVar, ShaderHeader, Stage, UniformBlock, UniformInitialValue, UniformVar};

/// "Gfx2".
pub const FILE_MAGIC: u32 = 0x4766_7832;
/// "BLK{".
pub const BLOCK_MAGIC: u32 = 0x424C_4B7B;
/// Largest number of blocks accepted in one file (each block header is 32 bytes, so a real file
/// hits the byte limit long before; the cap keeps hostile inputs bounded).
pub const MAX_BLOCKS: usize = 1 << 16;

/// The 0x20-byte file header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileHeader {
    /// Major version: 7, or 6 for older files.
    pub major: u32,
    /// Minor version (1).
    pub minor: u32,
    /// GPU version (2).
    pub gpu_version: u32,
    /// Align mode (0/1; reserved in 6.0).
    pub align_mode: u32,
    /// The two reserved words.
    pub reserved: [u32; 2],
}

impl Default for FileHeader {
    fn default() -> Self {
        FileHeader { major: 7, minor: 1, gpu_version: 2, align_mode: 0, reserved: [0, 0] }
    }
}

/// What a block holds. The table depends on the block's own major version (gx2-gfd-facts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BlockKind {
    /// End of file.
    EndOfFile,
    /// Padding.
    Padding,
    /// GX2VertexShader header.
    VertexHeader,
    /// Vertex program.
    VertexProgram,
    /// GX2PixelShader header.
    PixelHeader,
    /// Pixel program.
    PixelProgram,
    /// GX2GeometryShader header.
    GeometryHeader,
    /// Geometry program.
    GeometryProgram,
    /// Geometry copy program.
    GeometryCopyProgram,
    /// Texture header.
    TextureHeader,
    /// Texture image.
    TextureImage,
    /// Texture mip levels.
    TextureMip,
    /// Compute header.
    ComputeHeader,
    /// Compute program.
    ComputeProgram,
    /// User data.
    User,
    /// A type number the table does not list.
    Unknown,
}

impl BlockKind {
    /// Classifies block `kind` under block major version `major` (gx2-gfd-facts "Block header").
    pub fn classify(major: u32, kind: u32) -> BlockKind {
        use BlockKind::*;
        match (kind, major) {
            (1, _) => EndOfFile,
            (2, _) => Padding,
            (3, _) => VertexHeader,
            (5, _) => VertexProgram,
            (6, _) => PixelHeader,
            (7, _) => PixelProgram,
            (8, _) => GeometryHeader,
            (9, _) => GeometryProgram,
            (10, 0) => TextureHeader,
            (10, _) => GeometryCopyProgram,
            (11, 0) => TextureImage,
            (11, _) => TextureHeader,
            (12, 0) => TextureMip,
            (12, _) => TextureImage,
            (13, 0) => GeometryCopyProgram,
            (13, _) => TextureMip,
            (14, 0) | (15, 0) => Unknown,
            (14, _) => ComputeHeader,
            (15, _) => ComputeProgram,
            (16, _) => User,
            _ => Unknown,
        }
    }
    /// The type number of this kind under block major version `major`, if it has one.
    pub fn type_number(self, major: u32) -> Option<u32> {
        (1..=16).find(|&t| BlockKind::classify(major, t) == self && self != BlockKind::Unknown)
    }
}

/// One block: its header fields and its data bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Block major version (0 or 1): selects the type table.
    pub major: u32,
    /// Block minor version.
    pub minor: u32,
    /// The raw type number.
    pub kind: u32,
    /// Block id.
    pub id: u32,
    /// Block index.
    pub index: u32,
    /// The data that follows the 0x20-byte header.
    pub data: Vec<u8>,
    /// Absolute offset of the data in the file it was read from (0 for built blocks).
    pub data_offset: usize,
}

impl Block {
    /// A block of the current (major 1) table.
    pub fn new(kind: BlockKind, id: u32, data: Vec<u8>) -> Block {
        Block { major: 1, minor: 0, kind: kind.type_number(1).unwrap_or(0), id, index: 0, data, data_offset: 0 }
    }
    /// What this block holds.
    pub fn block_kind(&self) -> BlockKind {
        BlockKind::classify(self.major, self.kind)
    }
}

/// A whole GFD file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GfdFile {
    /// The header.
    pub header: FileHeader,
    /// Blocks in file order, the end-of-file block included.
    pub blocks: Vec<Block>,
    /// Bytes after the end-of-file block (kept so that writing gives the same bytes).
    pub trailing: Vec<u8>,
}

/// Whether `bytes` start with the GFD magic.
pub fn is_gfd(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) == FILE_MAGIC
}

impl GfdFile {
    /// Parses a GFD file that lies at absolute offset `base` of its container (0 for a plain
    /// .gsh).
    ///
    /// # Errors
    /// Bad magics or header sizes, and blocks whose data runs past the end, with their offset.
    pub fn parse_at(bytes: &[u8], base: usize) -> Result<GfdFile> {
        let mut r = Reader::new(bytes, base);
        let at = r.offset();
        let magic = r.be32("GFD magic")?;
        if magic != FILE_MAGIC {
            return Err(Error::invalid(
                at,
                format!("not a GFD file: magic {magic:#010x}, expected 0x47667832 \"Gfx2\""),
            ));
        }
        let at = r.offset();
        let hsize = r.be32("GFD header size")?;
        if hsize != 0x20 {
            return Err(Error::invalid(at, format!("GFD header size {hsize:#x}, expected 0x20")));
        }
        let header = FileHeader {
            major: r.be32("GFD major version")?,
            minor: r.be32("GFD minor version")?,
            gpu_version: r.be32("GFD GPU version")?,
            align_mode: r.be32("GFD align mode")?,
            reserved: [r.be32("GFD reserved")?, r.be32("GFD reserved")?],
        };
        let mut blocks = Vec::new();
        loop {
            if r.remaining() == 0 {
                return Err(Error::Truncated {
                    offset: r.offset(),
                    what: "GFD end-of-file block",
                    need: 0x20,
                    have: 0,
                });
            }
            if blocks.len() >= MAX_BLOCKS {
                return Err(Error::TooMany {
                    offset: r.offset(),
                    what: "GFD block",
                    count: blocks.len() as u64 + 1,
                    limit: MAX_BLOCKS as u64,
                });
            }
            let at = r.offset();
            let magic = r.be32("block magic")?;
            if magic != BLOCK_MAGIC {
                return Err(Error::invalid(at, format!("block magic {magic:#010x}, expected 0x424C4B7B \"BLK{{\"")));
            }
            let at_size = r.offset();
            let bh = r.be32("block header size")?;
            if bh != 0x20 {
                return Err(Error::invalid(at_size, format!("block header size {bh:#x}, expected 0x20")));
            }
            let major = r.be32("block major version")?;
            let minor = r.be32("block minor version")?;
            let kind = r.be32("block type")?;
            let at_size = r.offset();
            let size = r.be32("block data size")? as u64;
            let id = r.be32("block id")?;
            let index = r.be32("block index")?;
            let size = r.check_count(size, r.remaining() as u64, at_size, "block data byte")?;
            let data_offset = r.offset();
            let data = r.bytes(size, "block data")?.to_vec();
            let block = Block { major, minor, kind, id, index, data, data_offset };
            let eof = block.block_kind() == BlockKind::EndOfFile;
            blocks.push(block);
            if eof {
                break;
            }
        }
        let trailing = r.bytes(r.remaining(), "trailing bytes")?.to_vec();
        Ok(GfdFile { header, blocks, trailing })
    }

    /// Parses a GFD that starts at the beginning of `bytes` and may be followed by other data
    /// (as inside MT containers): returns the file (without trailing bytes) and its length.
    ///
    /// # Errors
    /// See [`GfdFile::parse_at`].
    pub fn parse_prefix(bytes: &[u8], base: usize) -> Result<(GfdFile, usize)> {
        let mut f = GfdFile::parse_at(bytes, base)?;
        let len = bytes.len() - f.trailing.len();
        f.trailing.clear();
        Ok((f, len))
    }

    /// Parses a .gsh file.
    ///
    /// # Errors
    /// See [`GfdFile::parse_at`].
    pub fn parse(bytes: &[u8]) -> Result<GfdFile> {
        Self::parse_at(bytes, 0)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(0x20 + self.blocks.iter().map(|b| 0x20 + b.data.len()).sum::<usize>());
        let h = &self.header;
        for w in [FILE_MAGIC, 0x20, h.major, h.minor, h.gpu_version, h.align_mode, h.reserved[0], h.reserved[1]] {
            out.extend_from_slice(&w.to_be_bytes());
        }
        for b in &self.blocks {
            for w in [BLOCK_MAGIC, 0x20, b.major, b.minor, b.kind, b.data.len() as u32, b.id, b.index] {
                out.extend_from_slice(&w.to_be_bytes());
            }
            out.extend_from_slice(&b.data);
        }
        out.extend_from_slice(&self.trailing);
        out
    }

    /// Every shader of the file: each header block paired with the program block(s) that
    /// follow it (the n-th header of a stage goes with the n-th program of that stage).
    ///
    /// # Errors
    /// A header block that does not parse.
    pub fn shaders(&self) -> Result<Vec<GfdShader>> {
        let mut out = Vec::new();
        let mut programs: [Vec<&Block>; 4] = Default::default();
        for b in &self.blocks {
            match b.block_kind() {
                BlockKind::VertexProgram => programs[0].push(b),
                BlockKind::PixelProgram => programs[1].push(b),
                BlockKind::GeometryProgram => programs[2].push(b),
                BlockKind::GeometryCopyProgram => programs[3].push(b),
                _ => {}
            }
        }
        let mut used = [0usize; 4];
        for b in &self.blocks {
            let stage = match b.block_kind() {
                BlockKind::VertexHeader => Stage::Vertex,
                BlockKind::PixelHeader => Stage::Pixel,
                BlockKind::GeometryHeader => Stage::Geometry,
                _ => continue,
            };
            let header = ShaderHeader::parse(stage, b)?;
            let si = stage as usize;
            let prog = programs[si].get(used[si]);
            used[si] += 1;
            let copy = if stage == Stage::Geometry {
                let c = programs[3].get(used[3]).map(|c| c.data.clone());
                used[3] += 1;
                c
            } else {
                None
            };
            out.push(GfdShader {
                header,
                program: prog.map(|p| p.data.clone()),
                program_offset: prog.map_or(0, |p| p.data_offset),
                copy_program: copy,
            });
        }
        Ok(out)
    }
}

/// One shader of a GFD file: its header struct and program bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct GfdShader {
    /// The header.
    pub header: ShaderHeader,
    /// Program bytes (little-endian words); `None` for a header-only file.
    pub program: Option<Vec<u8>>,
    /// Absolute offset of the program in its file.
    pub program_offset: usize,
    /// For a geometry shader: the copy (DMA) program run as the hardware VS.
    pub copy_program: Option<Vec<u8>>,
}

/// A program block that no header block claims (a file of program blocks only, or more program
/// blocks of a stage than headers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnpairedProgram {
    /// The stage of the block's type.
    pub stage: Stage,
    /// A geometry shader's copy program.
    pub copy: bool,
    /// Index of the block in the file.
    pub block: usize,
    /// Program bytes (little-endian words).
    pub program: Vec<u8>,
    /// Absolute offset of the program in its file.
    pub program_offset: usize,
}

impl UnpairedProgram {
    /// `vertex program`, `geometry copy program`, ...
    pub fn what(&self) -> String {
        format!("{} {}program", self.stage.name(), if self.copy { "copy " } else { "" })
    }
}

impl GfdFile {
    /// The program blocks [`GfdFile::shaders`] pairs with no header: those past the number of
    /// header blocks of their stage (copy programs: past the number of geometry headers).
    pub fn unpaired_programs(&self) -> Vec<UnpairedProgram> {
        let count = |k: BlockKind| self.blocks.iter().filter(|b| b.block_kind() == k).count();
        let headers = [
            count(BlockKind::VertexHeader),
            count(BlockKind::PixelHeader),
            count(BlockKind::GeometryHeader),
            count(BlockKind::GeometryHeader),
        ];
        let mut seen = [0usize; 4];
        let mut out = Vec::new();
        for (i, b) in self.blocks.iter().enumerate() {
            let (k, stage, copy) = match b.block_kind() {
                BlockKind::VertexProgram => (0, Stage::Vertex, false),
                BlockKind::PixelProgram => (1, Stage::Pixel, false),
                BlockKind::GeometryProgram => (2, Stage::Geometry, false),
                BlockKind::GeometryCopyProgram => (3, Stage::Geometry, true),
                _ => continue,
            };
            seen[k] += 1;
            if seen[k] > headers[k] {
                out.push(UnpairedProgram {
                    stage,
                    copy,
                    block: i,
                    program: b.data.clone(),
                    program_offset: b.data_offset,
                });
            }
        }
        out
    }
}

/// Little-endian program words of `bytes` (a trailing partial word is ignored).
pub fn program_words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

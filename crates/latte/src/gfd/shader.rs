//! GX2VertexShader / GX2PixelShader / GX2GeometryShader header blocks (gx2-gfd-facts.md,
//! "Pointers inside shader header blocks" and "Structs").
//!
//! A header block is: the fixed struct, variable arrays, strings, patch table, relocation header.
//! [`ShaderHeader::parse`] reads the typed view and keeps the block's exact bytes, so writing a
//! parsed header gives the same bytes whatever writer made it. [`ShaderHeader::canonical_bytes`]
//! lays the typed view out afresh in the order the latte-assembler (libgfd) uses; the corpus
//! tests check that this layout reproduces that writer's files byte for byte.

use crate::error::{Error, Result};
use crate::gfd::Block;
use crate::reader::Reader;
use serde::Serialize;

/// Tag of pointers into the data area.
pub const TAG_DATA: u32 = 0xD060_0000;
/// Tag of pointers into the string area.
pub const TAG_TEXT: u32 = 0xCA70_0000;
const TAG_MASK: u32 = 0xFFF0_0000;
/// "}BLK": magic of the relocation header that ends a header block.
pub const RELOC_MAGIC: u32 = 0x7D42_4C4B;
const RELOC_SIZE: usize = 0x28;
/// Longest variable name accepted.
const MAX_NAME: usize = 1024;

/// The shader stage of a header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Vertex shader.
    Vertex = 0,
    /// Pixel shader.
    Pixel = 1,
    /// Geometry shader.
    Geometry = 2,
}

impl Stage {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Pixel => "pixel",
            Stage::Geometry => "geometry",
        }
    }
    /// Number of u32 registers in the stage's register block (VS 0xD0, PS 0xA4, GS 0x4C bytes).
    pub fn reg_count(self) -> usize {
        match self {
            Stage::Vertex => 52,
            Stage::Pixel => 41,
            Stage::Geometry => 19,
        }
    }
    /// Number of (count, pointer) variable pairs (attribs only in the VS).
    fn pairs(self) -> usize {
        if self == Stage::Vertex {
            6
        } else {
            5
        }
    }
    /// Byte size of the fixed struct for a block of major version `block_major`.
    pub fn struct_size(self, block_major: u32) -> usize {
        match self {
            Stage::Vertex => 0x134,
            Stage::Pixel => {
                if block_major == 0 {
                    0xD8
                } else {
                    0xE8
                }
            }
            Stage::Geometry => 0xC0,
        }
    }
}

/// GX2UniformBlock (0xC bytes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UniformBlock {
    /// Name.
    pub name: String,
    /// Offset (bytes in a block, or register index).
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
}
/// GX2UniformVar (0x14 bytes). `block` -1 means a uniform register.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UniformVar {
    /// Name.
    pub name: String,
    /// GX2ShaderVarType / GX2SamplerVarType value.
    pub var_type: u32,
    /// Array count.
    pub count: u32,
    /// Offset (bytes in a block, or register index).
    pub offset: u32,
    /// Uniform block index, -1 for a uniform register.
    pub block: i32,
}
/// GX2UniformInitialValue (0x14 bytes): four floats as bit patterns, then the offset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UniformInitialValue {
    /// Value (floats as bit patterns for initial values).
    pub value: [u32; 4],
    /// Offset (bytes in a block, or register index).
    pub offset: u32,
}
/// GX2LoopVar (8 bytes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoopVar {
    /// Offset (bytes in a block, or register index).
    pub offset: u32,
    /// Value (floats as bit patterns for initial values).
    pub value: u32,
}
/// GX2SamplerVar (0xC bytes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SamplerVar {
    /// Name.
    pub name: String,
    /// GX2ShaderVarType / GX2SamplerVarType value.
    pub var_type: u32,
    /// Attribute location or sampler slot.
    pub location: u32,
}
/// GX2AttribVar (0x10 bytes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AttribVar {
    /// Name.
    pub name: String,
    /// GX2ShaderVarType / GX2SamplerVarType value.
    pub var_type: u32,
    /// Array count.
    pub count: u32,
    /// Attribute location or sampler slot.
    pub location: u32,
}

/// A parsed shader header block.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShaderHeader {
    /// Shader stage.
    pub stage: Stage,
    /// Major version of the block it came from (selects the pixel struct size).
    pub block_major: u32,
    /// Byte size of the fixed struct (0xB0 or 0xC0 for geometry headers, see `struct_size_of`).
    pub struct_size: usize,
    /// The register block (stage.reg_count() words).
    pub regs: Vec<u32>,
    /// Program size in bytes.
    pub program_size: u32,
    /// The program pointer as stored (0 in files: the program is its own block).
    pub program_ptr: u32,
    /// Geometry only: copy-program size and pointer.
    pub copy_program_size: u32,
    /// Geometry only: copy-program pointer as stored.
    pub copy_program_ptr: u32,
    /// 0 uniform register, 1 uniform block, 2 geometry, 3 compute.
    pub mode: u32,
    /// Uniform blocks.
    pub uniform_blocks: Vec<UniformBlock>,
    /// Uniform variables.
    pub uniform_vars: Vec<UniformVar>,
    /// Initial values of uniform registers.
    pub initial_values: Vec<UniformInitialValue>,
    /// Loop constants.
    pub loop_vars: Vec<LoopVar>,
    /// Sampler variables.
    pub sampler_vars: Vec<SamplerVar>,
    /// Attribute variables (vertex shaders only).
    pub attrib_vars: Vec<AttribVar>,
    /// VS and GS: ringItemSize, hasStreamOut, `streamOutStride[4]`.
    pub ring_item_size: u32,
    /// hasStreamOut (VS, GS).
    pub has_stream_out: u32,
    /// `streamOutStride[4]` (VS, GS).
    pub stream_out_stride: [u32; 4],
    /// The GX2RBuffer words at the end of the struct, as stored.
    pub gx2r: Vec<u32>,
    /// The block's exact bytes when it was read from a file; `to_bytes` writes these back.
    #[serde(skip)]
    pub raw: Option<Vec<u8>>,
}

fn resolve(v: u32, at: usize, what: &str) -> Result<Option<usize>> {
    if v == 0 {
        return Ok(None);
    }
    match v & TAG_MASK {
        TAG_DATA | TAG_TEXT => Ok(Some((v & !TAG_MASK) as usize)),
        _ => Err(Error::invalid(at, format!("{what} pointer {v:#010x} has no 0xD0600000/0xCA700000 tag"))),
    }
}

struct Area<'a> {
    data: &'a [u8],
    base: usize,
}

impl Area<'_> {
    fn string(&self, v: u32, at: usize) -> Result<String> {
        let Some(off) = resolve(v, at, "name")? else { return Ok(String::new()) };
        if off >= self.data.len() {
            return Err(Error::invalid(
                at,
                format!("name pointer {v:#010x} points past the block ({} bytes)", self.data.len()),
            ));
        }
        let s = &self.data[off..];
        let end = s.iter().take(MAX_NAME).position(|&c| c == 0).ok_or_else(|| {
            Error::invalid(self.base + off, "name has no NUL terminator within 1024 bytes of the block")
        })?;
        Ok(String::from_utf8_lossy(&s[..end]).into_owned())
    }
    /// Entries of an array: `count` records of `size` bytes at pointer `ptr`.
    fn array(
        &self,
        count: u32,
        ptr: u32,
        size: usize,
        at: usize,
        what: &'static str,
    ) -> Result<Vec<(usize, Vec<u32>)>> {
        if count == 0 {
            return Ok(Vec::new());
        }
        let off = resolve(ptr, at + 4, what)?
            .ok_or_else(|| Error::invalid(at, format!("{what}: count {count} with a null pointer")))?;
        let limit = (self.data.len().saturating_sub(off) / size) as u64;
        let r = Reader::new(self.data, self.base);
        let n = r.check_count(count as u64, limit, at, what)?;
        let mut out = Vec::with_capacity(n);
        let mut r = Reader::new(self.data, self.base);
        r.seek(off, what)?;
        for _ in 0..n {
            let pos = r.offset();
            let mut words = Vec::with_capacity(size / 4);
            for _ in 0..size / 4 {
                words.push(r.be32(what)?);
            }
            out.push((pos, words));
        }
        Ok(out)
    }
}

impl ShaderHeader {
    /// A header with the given register block and everything else zero/empty (block major 1).
    pub fn new(stage: Stage, regs: Vec<u32>) -> ShaderHeader {
        let gx2r = vec![0; (stage.struct_size(1) - fixed_end(stage)) / 4];
        ShaderHeader {
            stage,
            block_major: 1,
            struct_size: stage.struct_size(1),
            regs,
            program_size: 0,
            program_ptr: 0,
            copy_program_size: 0,
            copy_program_ptr: 0,
            mode: 0,
            uniform_blocks: vec![],
            uniform_vars: vec![],
            initial_values: vec![],
            loop_vars: vec![],
            sampler_vars: vec![],
            attrib_vars: vec![],
            ring_item_size: 0,
            has_stream_out: 0,
            stream_out_stride: [0; 4],
            gx2r,
            raw: None,
        }
    }

    /// Parses a header block of `stage`.
    ///
    /// # Errors
    /// A block shorter than the struct, pointers outside the block or without a tag, counts
    /// larger than the block could hold, names without a terminator.
    pub fn parse(stage: Stage, block: &Block) -> Result<ShaderHeader> {
        let data = &block.data[..];
        let base = block.data_offset;
        let size = struct_size_of(stage, block);
        let mut r = Reader::new(data, base);
        let mut st = r.sub(size, "shader header struct")?;
        let mut words = Vec::with_capacity(size / 4);
        for _ in 0..size / 4 {
            words.push(st.be32("shader header struct")?);
        }
        let area = Area { data, base };
        let nreg = stage.reg_count();
        let mut h = ShaderHeader::new(stage, words[..nreg].to_vec());
        h.block_major = block.major;
        h.struct_size = size;
        let mut i = nreg;
        h.program_size = words[i];
        h.program_ptr = words[i + 1];
        i += 2;
        if stage == Stage::Geometry {
            h.copy_program_size = words[i];
            h.copy_program_ptr = words[i + 1];
            i += 2;
        }
        h.mode = words[i];
        i += 1;
        let at = |i: usize| base + i * 4;
        let pair = |k: usize| (words[i + 2 * k], words[i + 2 * k + 1], at(i + 2 * k));
        let (c, p, a) = pair(0);
        for (_, w) in area.array(c, p, 0xC, a, "uniform block")? {
            h.uniform_blocks.push(UniformBlock { name: area.string(w[0], a)?, offset: w[1], size: w[2] });
        }
        let (c, p, a) = pair(1);
        for (_, w) in area.array(c, p, 0x14, a, "uniform var")? {
            h.uniform_vars.push(UniformVar {
                name: area.string(w[0], a)?,
                var_type: w[1],
                count: w[2],
                offset: w[3],
                block: w[4] as i32,
            });
        }
        let (c, p, a) = pair(2);
        for (_, w) in area.array(c, p, 0x14, a, "initial value")? {
            h.initial_values.push(UniformInitialValue { value: [w[0], w[1], w[2], w[3]], offset: w[4] });
        }
        let (c, p, a) = pair(3);
        for (_, w) in area.array(c, p, 0x8, a, "loop var")? {
            h.loop_vars.push(LoopVar { offset: w[0], value: w[1] });
        }
        let (c, p, a) = pair(4);
        for (_, w) in area.array(c, p, 0xC, a, "sampler var")? {
            h.sampler_vars.push(SamplerVar { name: area.string(w[0], a)?, var_type: w[1], location: w[2] });
        }
        if stage == Stage::Vertex {
            let (c, p, a) = pair(5);
            for (_, w) in area.array(c, p, 0x10, a, "attrib var")? {
                h.attrib_vars.push(AttribVar {
                    name: area.string(w[0], a)?,
                    var_type: w[1],
                    count: w[2],
                    location: w[3],
                });
            }
        }
        i += 2 * stage.pairs();
        if stage != Stage::Pixel {
            h.ring_item_size = words[i];
            h.has_stream_out = words[i + 1];
            h.stream_out_stride = [words[i + 2], words[i + 3], words[i + 4], words[i + 5]];
            i += 6;
        }
        h.gx2r = words[i..].to_vec();
        h.raw = Some(data.to_vec());
        Ok(h)
    }

    /// The block bytes: the original bytes for a parsed header, the canonical layout otherwise.
    pub fn to_bytes(&self) -> Vec<u8> {
        match &self.raw {
            Some(raw) => raw.clone(),
            None => self.canonical_bytes(true),
        }
    }

    /// Lays the typed view out as the latte-assembler's GFD writer does: struct, arrays (uniform
    /// blocks, uniform vars, initial values, loop vars, sampler vars, attrib vars), strings
    /// (each NUL-terminated, padded to 4 bytes when `pad_strings`), patch table (array pointer
    /// fields, then name fields), relocation header.
    pub fn canonical_bytes(&self, pad_strings: bool) -> Vec<u8> {
        let stage = self.stage;
        let ssize = self.struct_size;
        let mut words: Vec<u32> = self.regs.clone();
        words.resize(stage.reg_count(), 0);
        words.push(self.program_size);
        words.push(self.program_ptr);
        if stage == Stage::Geometry {
            words.push(self.copy_program_size);
            words.push(self.copy_program_ptr);
        }
        words.push(self.mode);
        let pair_index = words.len();
        words.resize(words.len() + 2 * stage.pairs(), 0);
        if stage != Stage::Pixel {
            words.push(self.ring_item_size);
            words.push(self.has_stream_out);
            words.extend_from_slice(&self.stream_out_stride);
        }
        words.extend_from_slice(&self.gx2r);
        words.resize(ssize / 4, 0);

        // Arrays, each recorded as (pair k, records); names are patched in after the strings.
        let mut arrays: Vec<Vec<u32>> = Vec::new();
        let mut names: Vec<(usize, usize, &str)> = Vec::new(); // (array k, record index, name)
        arrays.push(self.uniform_blocks.iter().flat_map(|v| [0, v.offset, v.size]).collect());
        names.extend(self.uniform_blocks.iter().enumerate().map(|(i, v)| (0, i, v.name.as_str())));
        arrays
            .push(self.uniform_vars.iter().flat_map(|v| [0, v.var_type, v.count, v.offset, v.block as u32]).collect());
        names.extend(self.uniform_vars.iter().enumerate().map(|(i, v)| (1, i, v.name.as_str())));
        arrays.push(
            self.initial_values
                .iter()
                .flat_map(|v| [v.value[0], v.value[1], v.value[2], v.value[3], v.offset])
                .collect(),
        );
        arrays.push(self.loop_vars.iter().flat_map(|v| [v.offset, v.value]).collect());
        arrays.push(self.sampler_vars.iter().flat_map(|v| [0, v.var_type, v.location]).collect());
        names.extend(self.sampler_vars.iter().enumerate().map(|(i, v)| (4, i, v.name.as_str())));
        if stage == Stage::Vertex {
            arrays.push(self.attrib_vars.iter().flat_map(|v| [0, v.var_type, v.count, v.location]).collect());
            names.extend(self.attrib_vars.iter().enumerate().map(|(i, v)| (5, i, v.name.as_str())));
        }
        let counts = [
            self.uniform_blocks.len(),
            self.uniform_vars.len(),
            self.initial_values.len(),
            self.loop_vars.len(),
            self.sampler_vars.len(),
            self.attrib_vars.len(),
        ];
        let rec_words = [3usize, 5, 5, 2, 3, 4];
        let mut patches = Vec::new();
        let mut off = ssize;
        let mut array_off = [0usize; 6];
        for (k, a) in arrays.iter().enumerate() {
            array_off[k] = off;
            if counts[k] > 0 {
                words[pair_index + 2 * k] = counts[k] as u32;
                words[pair_index + 2 * k + 1] = TAG_DATA | off as u32;
                patches.push(TAG_DATA | ((pair_index + 2 * k + 1) * 4) as u32);
            }
            off += a.len() * 4;
        }
        let mut text = Vec::new();
        let text_off = off;
        for &(k, i, name) in &names {
            let field = array_off[k] + i * rec_words[k] * 4;
            let w = (field - ssize) / 4;
            let ptr = TAG_TEXT | (text_off + text.len()) as u32;
            arrays_set(&mut arrays, k, w - (array_off[k] - ssize) / 4, ptr);
            patches.push(TAG_TEXT | field as u32);
            text.extend_from_slice(name.as_bytes());
            text.push(0);
            if pad_strings {
                while text.len() % 4 != 0 {
                    text.push(0);
                }
            }
        }
        let mut out = Vec::new();
        for w in &words {
            out.extend_from_slice(&w.to_be_bytes());
        }
        for a in &arrays {
            for w in a {
                out.extend_from_slice(&w.to_be_bytes());
            }
        }
        out.extend_from_slice(&text);
        let patch_off = out.len();
        for p in &patches {
            out.extend_from_slice(&p.to_be_bytes());
        }
        let text_size = text.len() as u32;
        let text_ptr = TAG_DATA | text_off as u32;
        for w in [
            RELOC_MAGIC,
            RELOC_SIZE as u32,
            0,
            patch_off as u32,
            TAG_DATA,
            text_size,
            text_ptr,
            0,
            patches.len() as u32,
            TAG_DATA | patch_off as u32,
        ] {
            out.extend_from_slice(&w.to_be_bytes());
        }
        out
    }
}

fn arrays_set(arrays: &mut [Vec<u32>], k: usize, w: usize, v: u32) {
    arrays[k][w] = v;
}

/// Byte offset where the struct's GX2RBuffer words start.
fn fixed_end(stage: Stage) -> usize {
    match stage {
        Stage::Vertex => 0x124,
        Stage::Pixel => 0xD8,
        Stage::Geometry => 0xA0,
    }
}

/// The struct size of a header block. Geometry headers come in two sizes (gx2-gfd-facts: "one
/// header stops at 0xB0; files use 0xC0"): when the first array or the string area starts at
/// 0xB0, the struct is 0xB0 bytes.
fn struct_size_of(stage: Stage, block: &Block) -> usize {
    let nominal = stage.struct_size(block.major);
    if stage != Stage::Geometry {
        return nominal;
    }
    let d = &block.data;
    let word = |o: usize| d.get(o..o + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
    let mut lowest = usize::MAX;
    for k in 0..5 {
        let o = 0x60 + 8 * k;
        if let (Some(c), Some(p)) = (word(o), word(o + 4)) {
            if c != 0 && p & TAG_MASK == TAG_DATA {
                lowest = lowest.min((p & !TAG_MASK) as usize);
            }
        }
    }
    if d.len() >= RELOC_SIZE {
        let r = d.len() - RELOC_SIZE;
        if word(r) == Some(RELOC_MAGIC) {
            if let Some(t) = word(r + 0x18) {
                lowest = lowest.min((t & !TAG_MASK) as usize);
            }
        }
    }
    if lowest == 0xB0 {
        0xB0
    } else {
        nominal
    }
}

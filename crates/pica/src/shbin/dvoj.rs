//! DVOJ, the unlinked shader object (3dbrew "SHBIN" "DVOJ"), read only.
//!
//! The spec's table places the output mask at 0x10, which collides with the constant table
//! offset; we read it at 0x0A, right after the input mask (docs/pica-shbin.md).

use super::read::{
    magic, read_constant, read_label, read_output, read_uniform, table, CONSTANT_SIZE, LABEL_SIZE, OUTPUT_SIZE,
    UNIFORM_SIZE,
};
use super::reader::Reader;
use super::*;

/// An unlinked shader object. All offsets in the file are relative to its start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dvoj {
    pub version: u16,
    pub shader_type: ShaderType,
    pub merge_outmaps: u8,
    pub input_mask: u16,
    pub output_mask: u16,
    /// The word at 0x0C (usually 0xFFFFFFFF).
    pub unknown_0c: u32,
    pub code: Vec<u32>,
    pub descriptors: Vec<[u32; 2]>,
    pub constants: Vec<Constant>,
    pub labels: Vec<Label>,
    pub outputs: Vec<Output>,
    pub uniforms: Vec<Uniform>,
    pub symbols: Vec<u8>,
    /// Unknown block 1: per instruction (symbol offset of a file name, line number).
    pub line_info: Vec<[u32; 2]>,
    /// Unknown block 2: 12-byte items, one per instruction with operands.
    pub unknown_block2: Vec<[u32; 3]>,
}

impl Dvoj {
    /// Reads a DVOJ object.
    ///
    /// # Errors
    /// As [`Shbin::read`]: wrong magic, truncated header or tables, impossible counts.
    pub fn read(bytes: &[u8]) -> Result<Dvoj, ShbinError> {
        let file = Reader::new(bytes);
        let mut r = file.clone();
        magic(&mut r, "DVOJ")?;
        let version = r.u16("DVOJ version")?;
        let shader_type = ShaderType::from_raw(r.u8("shader type")?);
        let merge_outmaps = r.u8("merge flag")?;
        let input_mask = r.u16("input mask")?;
        let output_mask = r.u16("output mask")?;
        let unknown_0c = r.u32("DVOJ 0x0C")?;
        let mut pairs = [(0u32, 0u32); 9];
        for p in &mut pairs {
            *p = (r.u32("DVOJ table offset")?, r.u32("DVOJ table count")?);
        }
        let [consts, labels, code, descs, block1, block2, outputs, uniforms, symbols] = pairs;
        let word = |r: &mut Reader<'_>| r.u32("DVOJ table entry");
        Ok(Dvoj {
            version,
            shader_type,
            merge_outmaps,
            input_mask,
            output_mask,
            unknown_0c,
            constants: table(&file, 0, consts.0, consts.1, CONSTANT_SIZE, "constant table", read_constant)?,
            labels: table(&file, 0, labels.0, labels.1, LABEL_SIZE, "label table", read_label)?,
            code: table(&file, 0, code.0, code.1, 4, "code", word)?,
            descriptors: table(&file, 0, descs.0, descs.1, 8, "operand descriptors", |r| Ok([word(r)?, word(r)?]))?,
            line_info: table(&file, 0, block1.0, block1.1, 8, "unknown block 1", |r| Ok([word(r)?, word(r)?]))?,
            unknown_block2: table(&file, 0, block2.0, block2.1, 12, "unknown block 2", |r| {
                Ok([word(r)?, word(r)?, word(r)?])
            })?,
            outputs: table(&file, 0, outputs.0, outputs.1, OUTPUT_SIZE, "output table", read_output)?,
            uniforms: table(&file, 0, uniforms.0, uniforms.1, UNIFORM_SIZE, "uniform table", read_uniform)?,
            symbols: table(&file, 0, symbols.0, symbols.1, 1, "symbol table", |r| r.u8("symbol table"))?,
        })
    }
}

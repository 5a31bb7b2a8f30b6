//! SHBIN reading (3dbrew "SHBIN"). Every count is checked against the bytes left before
//! anything is allocated; every error carries the absolute byte offset.

use super::reader::Reader;
use super::*;

/// Bytes of one entry of each table.
pub(crate) const CONSTANT_SIZE: usize = 0x14;
pub(crate) const LABEL_SIZE: usize = 0x10;
pub(crate) const OUTPUT_SIZE: usize = 8;
pub(crate) const UNIFORM_SIZE: usize = 8;

pub(crate) fn magic(r: &mut Reader<'_>, expected: &'static str) -> Result<(), ShbinError> {
    let at = r.pos();
    let found = r.bytes(4, "magic")?;
    if found != expected.as_bytes() {
        let found = [found[0], found[1], found[2], found[3]];
        return Err(ShbinError::new(at, ShbinErrorKind::Magic { expected, found }));
    }
    Ok(())
}

/// Reads `count` entries of `size` bytes at `base + offset` with `entry`.
pub(crate) fn table<'a, T>(
    file: &Reader<'a>,
    base: usize,
    offset: u32,
    count: u32,
    size: usize,
    what: &'static str,
    mut entry: impl FnMut(&mut Reader<'a>) -> Result<T, ShbinError>,
) -> Result<Vec<T>, ShbinError> {
    let start = base.saturating_add(offset as usize);
    let mut r = file.at(start, what)?;
    let count = r.check_count(count, size, what)?;
    (0..count).map(|_| entry(&mut r)).collect()
}

impl Shbin {
    /// Reads a SHBIN file.
    ///
    /// # Errors
    /// A wrong magic, a table or header past the end of the file, or a count that cannot fit,
    /// each with the byte offset where it was found.
    pub fn read(bytes: &[u8]) -> Result<Shbin, ShbinError> {
        let file = Reader::new(bytes);
        let mut r = file.clone();
        magic(&mut r, "DVLB")?;
        let count = r.u32("DVLE count")?;
        let count = r.check_count(count, 4, "DVLE offset table")?;
        let dvle_offsets: Vec<u32> = (0..count).map(|_| r.u32("DVLE offset")).collect::<Result<_, _>>()?;
        let program = read_dvlp(&file, r.pos())?;
        let executables =
            dvle_offsets.iter().map(|&offset| read_dvle(&file, offset as usize)).collect::<Result<_, _>>()?;
        Ok(Shbin { program, executables })
    }
}

fn read_dvlp(file: &Reader<'_>, base: usize) -> Result<Dvlp, ShbinError> {
    let mut r = file.at(base, "DVLP header")?;
    magic(&mut r, "DVLP")?;
    let version = r.u32("DVLP version")?;
    let code_offset = r.u32("code offset")?;
    let code_count = r.u32("code size")?;
    let desc_offset = r.u32("operand descriptor offset")?;
    let desc_count = r.u32("operand descriptor count")?;
    let unknown_18 = r.u32("DVLP 0x18")?;
    let unknown_1c = r.u32("DVLP 0x1C")?;
    let filename_table_offset = r.u32("filename table offset")?;
    let filename_size = r.u32("filename table size")?;
    let code = table(file, base, code_offset, code_count, 4, "code", |r| r.u32("instruction"))?;
    let descriptors = table(file, base, desc_offset, desc_count, 8, "operand descriptors", |r| {
        Ok([r.u32("operand descriptor")?, r.u32("operand descriptor")?])
    })?;
    let filename_table = if filename_size == 0 {
        Vec::new()
    } else {
        table(file, base, filename_table_offset, filename_size, 1, "filename table", |r| r.u8("filename table"))?
    };
    Ok(Dvlp { version, code, descriptors, unknown_18, unknown_1c, filename_table_offset, filename_table })
}

fn read_dvle(file: &Reader<'_>, base: usize) -> Result<Dvle, ShbinError> {
    let mut r = file.at(base, "DVLE header")?;
    magic(&mut r, "DVLE")?;
    let version = r.u16("DVLE version")?;
    let shader_type = ShaderType::from_raw(r.u8("shader type")?);
    let merge_outmaps = r.u8("merge flag")?;
    let main = r.u32("main offset")?;
    let endmain = r.u32("endmain offset")?;
    let input_mask = r.u16("input mask")?;
    let output_mask = r.u16("output mask")?;
    let geometry_mode = GeometryMode::from_raw(r.u8("geometry mode")?);
    let gs_fixed_start = r.u8("fixed vertex start")?;
    let gs_variable_num = r.u8("variable vertex count")?;
    let gs_fixed_num = r.u8("fixed vertex count")?;
    let mut pair = |what| -> Result<(u32, u32), ShbinError> { Ok((r.u32(what)?, r.u32(what)?)) };
    let (const_off, const_n) = pair("constant table")?;
    let (label_off, label_n) = pair("label table")?;
    let (out_off, out_n) = pair("output table")?;
    let (unif_off, unif_n) = pair("uniform table")?;
    let (sym_off, sym_size) = pair("symbol table")?;
    let constants = table(file, base, const_off, const_n, CONSTANT_SIZE, "constant table", read_constant)?;
    let labels = table(file, base, label_off, label_n, LABEL_SIZE, "label table", read_label)?;
    let outputs = table(file, base, out_off, out_n, OUTPUT_SIZE, "output table", read_output)?;
    let uniforms = table(file, base, unif_off, unif_n, UNIFORM_SIZE, "uniform table", read_uniform)?;
    let symbols = table(file, base, sym_off, sym_size, 1, "symbol table", |r| r.u8("symbol table"))?;
    Ok(Dvle {
        version,
        shader_type,
        merge_outmaps,
        main,
        endmain,
        input_mask,
        output_mask,
        geometry_mode,
        gs_fixed_start,
        gs_variable_num,
        gs_fixed_num,
        constants,
        labels,
        outputs,
        uniforms,
        symbols,
    })
}

pub(crate) fn read_constant(r: &mut Reader<'_>) -> Result<Constant, ShbinError> {
    let raw: [u8; 20] = r.bytes(20, "constant")?.try_into().expect("20 bytes");
    Ok(Constant::from_bytes(raw))
}

pub(crate) fn read_label(r: &mut Reader<'_>) -> Result<Label, ShbinError> {
    Ok(Label {
        id: r.u16("label id")?,
        unknown: r.u16("label")?,
        offset: r.u32("label offset")?,
        size: r.u32("label size")?,
        symbol: r.u32("label symbol")?,
    })
}

pub(crate) fn read_output(r: &mut Reader<'_>) -> Result<Output, ShbinError> {
    Ok(Output {
        kind: OutputKind::from_raw(r.u16("output type")?),
        reg: r.u16("output register")?,
        mask: r.u16("output mask")?,
        unknown: r.u16("output")?,
    })
}

pub(crate) fn read_uniform(r: &mut Reader<'_>) -> Result<Uniform, ShbinError> {
    Ok(Uniform { symbol: r.u32("uniform symbol")?, start: r.u16("uniform start")?, end: r.u16("uniform end")? })
}

impl Constant {
    /// Interprets a 0x14-byte constant table entry; anything not in canonical form stays `Raw`.
    pub fn from_bytes(b: [u8; 20]) -> Constant {
        let zero = |range: std::ops::Range<usize>| b[range].iter().all(|&x| x == 0);
        if b[1] != 0 || b[3] != 0 {
            return Constant::Raw(b);
        }
        let reg = b[2];
        match b[0] {
            0 if b[4] <= 1 && zero(5..20) => Constant::Bool { reg, value: b[4] == 1 },
            1 if zero(8..20) => Constant::Int { reg, value: [b[4], b[5], b[6], b[7]] },
            2 if (0..4).all(|i| b[7 + 4 * i] == 0) => {
                let word = |i: usize| u32::from_le_bytes([b[4 + 4 * i], b[5 + 4 * i], b[6 + 4 * i], b[7 + 4 * i]]);
                Constant::Float { reg, value: [0, 1, 2, 3].map(|i| F24::from_bits(word(i))) }
            }
            _ => Constant::Raw(b),
        }
    }

    /// The 0x14 bytes of the entry.
    pub fn to_bytes(&self) -> [u8; 20] {
        let mut b = [0u8; 20];
        match *self {
            Constant::Bool { reg, value } => {
                b[2] = reg;
                b[4] = value as u8;
            }
            Constant::Int { reg, value } => {
                b[0] = 1;
                b[2] = reg;
                b[4..8].copy_from_slice(&value);
            }
            Constant::Float { reg, value } => {
                b[0] = 2;
                b[2] = reg;
                for (i, v) in value.iter().enumerate() {
                    b[4 + 4 * i..8 + 4 * i].copy_from_slice(&v.bits().to_le_bytes());
                }
            }
            Constant::Raw(raw) => b = raw,
        }
        b
    }
}

//! What the assembler produces, before it becomes SHBIN bytes: the shared program (code and
//! operand descriptors) and one executable per DVLE with its tables
//! (specs/pica200-shbin.md "DVLP", "DVLE").

use crate::float24::F24;

/// A DVLE constant-table entry's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstValue {
    Bool(bool),
    Int([u8; 4]),
    Float([F24; 4]),
}

/// A DVLE constant: register index within its file (b, i or c) and value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constant {
    pub reg: u8,
    pub value: ConstValue,
}

/// A DVLE output-table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputEntry {
    /// Semantic (0 position .. 8 view, 9 dummy).
    pub kind: u16,
    pub reg: u16,
    /// Component mask, bit 0 = x.
    pub mask: u16,
}

/// A DVLE uniform-table entry, in the unified register space (v 0x00, c 0x10, i 0x70, b 0x78).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniformEntry {
    /// The name as written into the DVLE symbol table.
    pub name: String,
    pub start: u16,
    pub end: u16,
}

/// One executable.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Executable {
    pub geometry: bool,
    /// Merge vertex and geometry shader outmaps.
    pub merge: bool,
    pub entry_start: u32,
    pub entry_end: u32,
    pub input_mask: u16,
    pub output_mask: u16,
    /// 0 point, 1 variable, 2 fixed.
    pub gsh_type: u8,
    pub gsh_fixed_start: u8,
    pub gsh_variable_num: u8,
    pub gsh_fixed_num: u8,
    pub constants: Vec<Constant>,
    pub outputs: Vec<OutputEntry>,
    pub uniforms: Vec<UniformEntry>,
}

/// The whole assembled product.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Program {
    pub code: Vec<u32>,
    pub opdescs: Vec<u32>,
    pub executables: Vec<Executable>,
}

/// DVLE version word written by picasso 2.7 (specs/pica200-facts.md "picasso").
pub const DVLE_VERSION: u16 = 0x1002;

fn w32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn w16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

impl Executable {
    fn symbol_size(&self) -> usize {
        self.uniforms.iter().map(|u| u.name.len() + 1).sum()
    }

    /// Size in bytes, padded to a word.
    fn size(&self) -> usize {
        let raw = 0x40 + self.constants.len() * 20 + self.outputs.len() * 8 + self.uniforms.len() * 8 + self.symbol_size();
        (raw + 3) & !3
    }

    fn write(&self, out: &mut Vec<u8>) {
        let start = out.len();
        let consts_off = 0x40u32;
        let outputs_off = consts_off + self.constants.len() as u32 * 20;
        let uniforms_off = outputs_off + self.outputs.len() as u32 * 8;
        let symbols_off = uniforms_off + self.uniforms.len() as u32 * 8;
        out.extend_from_slice(b"DVLE");
        w16(out, DVLE_VERSION);
        out.push(self.geometry as u8);
        out.push(self.merge as u8);
        w32(out, self.entry_start);
        w32(out, self.entry_end);
        w16(out, self.input_mask);
        w16(out, self.output_mask);
        out.extend_from_slice(&[self.gsh_type, self.gsh_fixed_start, self.gsh_variable_num, self.gsh_fixed_num]);
        for (off, n) in [
            (consts_off, self.constants.len()),
            (outputs_off, 0), // label table: picasso writes none
            (outputs_off, self.outputs.len()),
            (uniforms_off, self.uniforms.len()),
        ] {
            w32(out, off);
            w32(out, n as u32);
        }
        w32(out, symbols_off);
        w32(out, self.symbol_size() as u32);
        for c in &self.constants {
            match c.value {
                ConstValue::Bool(b) => {
                    w16(out, 0);
                    w16(out, c.reg as u16);
                    w32(out, b as u32);
                    out.extend_from_slice(&[0; 12]);
                }
                ConstValue::Int(v) => {
                    w16(out, 1);
                    w16(out, c.reg as u16);
                    out.extend_from_slice(&v);
                    out.extend_from_slice(&[0; 12]);
                }
                ConstValue::Float(v) => {
                    w16(out, 2);
                    w16(out, c.reg as u16);
                    for f in v {
                        w32(out, f.bits());
                    }
                }
            }
        }
        for o in &self.outputs {
            w16(out, o.kind);
            w16(out, o.reg);
            w16(out, o.mask);
            w16(out, 0);
        }
        let mut sym = 0u32;
        for u in &self.uniforms {
            w32(out, sym);
            sym += u.name.len() as u32 + 1;
            w16(out, u.start);
            w16(out, u.end);
        }
        for u in &self.uniforms {
            out.extend_from_slice(u.name.as_bytes());
            out.push(0);
        }
        while (out.len() - start) % 4 != 0 {
            out.push(0);
        }
    }
}

impl Program {
    /// The SHBIN bytes, laid out as picasso 2.7 lays them out: DVLB header, DVLP with code and
    /// descriptors (no filename table), then the DVLEs.
    pub fn to_shbin(&self) -> Vec<u8> {
        let n = self.executables.len();
        let dvlp_size = 10 * 4 + self.code.len() * 4 + self.opdescs.len() * 8;
        let total = 8 + 4 * n + dvlp_size + self.executables.iter().map(Executable::size).sum::<usize>();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"DVLB");
        w32(&mut out, n as u32);
        let mut off = 8 + 4 * n + dvlp_size;
        for e in &self.executables {
            w32(&mut out, off as u32);
            off += e.size();
        }
        out.extend_from_slice(b"DVLP");
        w32(&mut out, 0);
        w32(&mut out, 40);
        w32(&mut out, self.code.len() as u32);
        w32(&mut out, 40 + self.code.len() as u32 * 4);
        w32(&mut out, self.opdescs.len() as u32);
        w32(&mut out, dvlp_size as u32);
        w32(&mut out, 0);
        w32(&mut out, 0);
        w32(&mut out, 0);
        for w in &self.code {
            w32(&mut out, *w);
        }
        for d in &self.opdescs {
            w32(&mut out, *d);
            w32(&mut out, 0);
        }
        for e in &self.executables {
            e.write(&mut out);
        }
        out
    }
}

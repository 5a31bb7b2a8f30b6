//! SHBIN writing, in picasso's layout (see the module documentation of `shbin`).

use super::read::{CONSTANT_SIZE, LABEL_SIZE, OUTPUT_SIZE, UNIFORM_SIZE};
use super::*;

const DVLP_HEADER: usize = 0x28;
const DVLE_HEADER: usize = 0x40;

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn pad4(out: &mut Vec<u8>) {
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
}

impl Shbin {
    /// The file's bytes. `Shbin::read(b).unwrap().to_bytes() == b` for every file picasso writes.
    ///
    /// ```
    /// use pica::shbin::{Dvle, Shbin};
    /// let mut shbin = Shbin::default();
    /// shbin.program.code = vec![0x8800_0000]; // end
    /// shbin.executables.push(Dvle { endmain: 1, ..Dvle::default() });
    /// let bytes = shbin.to_bytes();
    /// assert_eq!(Shbin::read(&bytes).unwrap(), shbin);
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(b"DVLB");
        put32(&mut out, self.executables.len() as u32);
        let offsets_at = out.len();
        out.resize(out.len() + 4 * self.executables.len(), 0);
        write_dvlp(&mut out, &self.program);
        for (i, dvle) in self.executables.iter().enumerate() {
            pad4(&mut out);
            let start = out.len() as u32;
            out[offsets_at + 4 * i..offsets_at + 4 * i + 4].copy_from_slice(&start.to_le_bytes());
            write_dvle(&mut out, dvle);
        }
        pad4(&mut out);
        out
    }
}

fn write_dvlp(out: &mut Vec<u8>, p: &Dvlp) {
    let code_offset = DVLP_HEADER;
    let desc_offset = code_offset + 4 * p.code.len();
    out.extend_from_slice(b"DVLP");
    put32(out, p.version);
    put32(out, code_offset as u32);
    put32(out, p.code.len() as u32);
    put32(out, desc_offset as u32);
    put32(out, p.descriptors.len() as u32);
    put32(out, p.unknown_18);
    put32(out, p.unknown_1c);
    put32(out, p.filename_table_offset);
    put32(out, p.filename_table.len() as u32);
    p.code.iter().for_each(|&w| put32(out, w));
    p.descriptors.iter().flatten().for_each(|&w| put32(out, w));
    out.extend_from_slice(&p.filename_table);
}

fn write_dvle(out: &mut Vec<u8>, d: &Dvle) {
    out.extend_from_slice(b"DVLE");
    put16(out, d.version);
    out.push(d.shader_type.raw());
    out.push(d.merge_outmaps);
    put32(out, d.main);
    put32(out, d.endmain);
    put16(out, d.input_mask);
    put16(out, d.output_mask);
    out.extend_from_slice(&[d.geometry_mode.raw(), d.gs_fixed_start, d.gs_variable_num, d.gs_fixed_num]);
    let mut offset = DVLE_HEADER;
    for (count, size) in [
        (d.constants.len(), CONSTANT_SIZE),
        (d.labels.len(), LABEL_SIZE),
        (d.outputs.len(), OUTPUT_SIZE),
        (d.uniforms.len(), UNIFORM_SIZE),
        (d.symbols.len(), 1),
    ] {
        put32(out, offset as u32);
        put32(out, count as u32);
        offset += count * size;
    }
    d.constants.iter().for_each(|c| out.extend_from_slice(&c.to_bytes()));
    for l in &d.labels {
        put16(out, l.id);
        put16(out, l.unknown);
        put32(out, l.offset);
        put32(out, l.size);
        put32(out, l.symbol);
    }
    for o in &d.outputs {
        put16(out, o.kind.raw());
        put16(out, o.reg);
        put16(out, o.mask);
        put16(out, o.unknown);
    }
    for u in &d.uniforms {
        put32(out, u.symbol);
        put16(out, u.start);
        put16(out, u.end);
    }
    out.extend_from_slice(&d.symbols);
}

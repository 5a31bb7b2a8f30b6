//! A picasso-compatible assembler (devkitPro picasso 2.7.1; its Manual.md is the syntax
//! reference). Several files make one program: procedures and shared uniforms are common, each
//! file gives one DVLE unless it says `.nodvle`. The output is byte for byte what picasso writes,
//! SHBIN and `-h` header (see docs/pica-asm.md for the rules reproduced and the decisions taken
//! where picasso's behaviour is an accident).
//!
//! ```
//! use pica::asm::{assemble, Options, Source};
//! let src = ".out pos position\n.proc main\n  mov pos, v0\n  end\n.end\n";
//! let out = assemble(&[Source { name: "a.pica", text: src }], &Options::default()).unwrap();
//! assert_eq!(out.shbin.program.code.len(), 2);
//! assert_eq!(&out.to_bytes()[..4], b"DVLB");
//! ```

mod core;
mod directive;
mod error;
mod header;
mod instr;
pub(crate) mod opdesc;
mod operand;
pub mod smith;
mod text;

use crate::shbin::{Dvle, Dvlp, GeometryMode, ShaderType, Shbin, Uniform};
pub(crate) use directive::padding_after;
pub use error::{AsmError, ErrorKind, Warning};

/// Assembler switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Insert the padding NOPs flow control needs (picasso's default; `-n` turns it off and warns).
    pub auto_nop: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { auto_nop: true }
    }
}

/// One input file.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The name used in errors (and as the DVLE's file).
    pub name: &'a str,
    pub text: &'a str,
}

/// DVLE version word written by picasso 2.7 (specs/pica200-facts.md "picasso").
pub const DVLE_VERSION: u16 = 0x1002;

/// The result of an assembly.
#[derive(Clone, Debug)]
pub struct Assembly {
    /// The container, laid out as picasso lays it out.
    pub shbin: Shbin,
    /// The `-h` header text.
    pub header: String,
    pub warnings: Vec<Warning>,
}

impl Assembly {
    /// The SHBIN bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.shbin.to_bytes()
    }
}

/// Assembles the files of one invocation, in order.
///
/// # Errors
/// The first error, with the file and line it concerns and picasso's wording.
pub fn assemble(sources: &[Source], options: &Options) -> Result<Assembly, AsmError> {
    let mut asm = core::Asm::new(*options);
    for s in sources {
        asm.assemble_file(s.name, s.text)?;
    }
    asm.relocate()?;
    let mut code = Vec::with_capacity(asm.code.len());
    for slot in &asm.code {
        let word = slot.inst.encode().map_err(|e| AsmError {
            file: slot.file.to_string(),
            line: slot.line,
            kind: ErrorKind::Encode(e.to_string()),
        })?;
        code.push(word);
    }
    let executables = asm.dvles.iter().filter(|d| !d.nodvle).map(|d| executable(d, &asm.procs)).collect();
    let geometry = asm.dvles.first().is_some_and(|d| d.geometry);
    Ok(Assembly {
        shbin: Shbin {
            program: Dvlp {
                code,
                descriptors: asm.opdescs.descs().iter().map(|&d| [d, 0]).collect(),
                // picasso stores the end of the descriptor table here and no filename table.
                unknown_18: (0x28 + 4 * asm.code.len() + 8 * asm.opdescs.descs().len()) as u32,
                ..Dvlp::default()
            },
            executables,
        },
        header: header::header(&asm.shared, geometry),
        warnings: asm.warnings,
    })
}

/// The DVLE of one file, with its uniforms sorted by register as picasso lists them (inputs, then
/// c, i, b) and `$` written as `.` in the symbol table.
fn executable(d: &core::Dvle, procs: &std::collections::HashMap<String, (u32, u32)>) -> Dvle {
    let (start, size) = procs.get(&d.entry).copied().unwrap_or((0, 0));
    let mut entries = d.uniforms.clone();
    entries.sort_by_key(|u| u.start);
    let mut symbols = Vec::new();
    let mut uniforms = Vec::with_capacity(entries.len());
    for u in &entries {
        uniforms.push(Uniform { symbol: symbols.len() as u32, start: u.start, end: u.end });
        symbols.extend_from_slice(u.name.as_bytes());
        symbols.push(0);
    }
    Dvle {
        version: DVLE_VERSION,
        shader_type: if d.geometry { ShaderType::Geometry } else { ShaderType::Vertex },
        merge_outmaps: d.merge as u8,
        main: start,
        endmain: start + size,
        input_mask: d.input_mask,
        output_mask: d.output_mask,
        geometry_mode: GeometryMode::from_raw(d.gsh_type),
        gs_fixed_start: d.gsh_fixed_start,
        gs_variable_num: d.gsh_variable_num,
        gs_fixed_num: d.gsh_fixed_num,
        constants: d.constants.clone(),
        labels: Vec::new(),
        outputs: d.outputs.clone(),
        uniforms,
        symbols,
    }
}

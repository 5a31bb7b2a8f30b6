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
//! assert_eq!(out.program.code.len(), 2);
//! assert_eq!(&out.shbin()[..4], b"DVLB");
//! ```

mod core;
mod directive;
mod error;
mod header;
mod instr;
mod opdesc;
mod operand;
mod program;
mod text;

pub use error::{AsmError, ErrorKind, Warning};
pub use program::{ConstValue, Constant, Executable, OutputEntry, Program, UniformEntry, DVLE_VERSION};

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

/// The result of an assembly.
#[derive(Clone, Debug)]
pub struct Assembly {
    pub program: Program,
    /// The `-h` header text.
    pub header: String,
    pub warnings: Vec<Warning>,
}

impl Assembly {
    /// The SHBIN bytes.
    pub fn shbin(&self) -> Vec<u8> {
        self.program.to_shbin()
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
        let word = slot
            .inst
            .encode()
            .map_err(|e| AsmError { file: slot.file.clone(), line: slot.line, kind: ErrorKind::Encode(e.to_string()) })?;
        code.push(word);
    }
    let executables = asm
        .dvles
        .iter()
        .filter(|d| !d.nodvle)
        .map(|d| {
            let (start, size) = asm.procs.get(&d.entry).copied().unwrap_or((0, 0));
            let mut uniforms = d.uniforms.clone();
            // picasso lists uniforms by register (inputs first, then c, i, b).
            uniforms.sort_by_key(|u| u.start);
            Executable {
                geometry: d.geometry,
                merge: d.merge,
                entry_start: start,
                entry_end: start + size,
                input_mask: d.input_mask,
                output_mask: d.output_mask,
                gsh_type: d.gsh_type,
                gsh_fixed_start: d.gsh_fixed_start,
                gsh_variable_num: d.gsh_variable_num,
                gsh_fixed_num: d.gsh_fixed_num,
                constants: d.constants.clone(),
                outputs: d.outputs.clone(),
                uniforms,
            }
        })
        .collect();
    let geometry = asm.dvles.first().is_some_and(|d| d.geometry);
    Ok(Assembly {
        program: Program { code, opdescs: asm.opdescs.descs().to_vec(), executables },
        header: header::header(&asm.shared, geometry),
        warnings: asm.warnings,
    })
}

//! Disassembly of SHBIN files into picasso syntax that assembles back to the same bytes.
//!
//! The printer rebuilds what picasso needs to write the same file (docs/pica-disasm.md):
//! procedures, IF/ELSE and FOR blocks and labels from the control flow; uniform, input,
//! constant, output and `.gsh` directives that make picasso's allocators land on the stored
//! registers and table order; every swizzle and mask of the stored operand descriptors, so that
//! picasso's descriptor allocation rebuilds the same table (checked by a model of it); padding
//! NOPs as explicit `nop` lines. Whatever picasso could not have written is reported as a
//! [`Warning`], and printed as a comment where it stands.
//!
//! ```
//! use pica::shbin::{Dvle, Shbin};
//! let mut shbin = Shbin::default();
//! shbin.program.code = vec![0x8800_0000]; // end
//! shbin.program.unknown_18 = 0x28 + 4;
//! shbin.executables.push(Dvle { endmain: 1, ..Dvle::default() });
//! let text = pica::disasm::disassemble(&shbin).unwrap();
//! assert!(text.contains(".proc main\n\tend\n.end"));
//! ```

mod directives;
mod float;
mod instr;
mod opdesc;
mod structure;

use std::fmt::{self, Write};

use crate::isa::{Instruction, Opcode};
use crate::shbin::{Dvle, Dvlp, Dvoj, ShaderType, Shbin};
use structure::Open;

/// Where a [`Warning`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// The DVLP header or the shared code and descriptor tables.
    Program,
    /// One executable, by index.
    Dvle(usize),
    /// One instruction, by word index.
    Instruction(u32),
}

/// Something in the file that picasso could not have written, so the printed text does not
/// assemble back to the same bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Where the problem is.
    pub location: Location,
    /// What picasso could not write, in words.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::Program => write!(f, "program: {}", self.message),
            Location::Dvle(i) => write!(f, "DVLE {i}: {}", self.message),
            Location::Instruction(pc) => write!(f, "instruction {pc}: {}", self.message),
        }
    }
}

/// Why [`disassemble`] refused a file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DisasmError {
    /// The text would not assemble back to the same bytes.
    #[error("not reproducible in picasso syntax: {first} ({count} problem(s) in all)")]
    NotReproducible {
        /// The first reason.
        first: Warning,
        /// How many reasons there are.
        count: usize,
    },
}

/// Text and the list of what it cannot reproduce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disassembly {
    /// picasso source; one file, or several separated by `; ---- next file` lines when the
    /// SHBIN has several DVLEs (picasso makes one DVLE per input file).
    pub text: String,
    /// Empty when the text assembles back to the same bytes.
    pub warnings: Vec<Warning>,
}

/// Printing choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Print raw registers (`c4`) in the code instead of the declared names (`projection[0]`).
    pub raw_registers: bool,
}

/// The line prefix that starts each file after the first in a disassembly of several DVLEs.
pub const FILE_MARKER: &str = "; ---- next file";

/// The source files of a printed disassembly, split at its [`FILE_MARKER`] lines (picasso makes
/// one DVLE per input file, so a SHBIN of N executables prints as N files).
///
/// ```
/// let files = pica::disasm::split_files("a\n; ---- next file: DVLE 1 ----\nb\n");
/// assert_eq!(files, vec!["a\n".to_string(), "; ---- next file: DVLE 1 ----\nb\n".to_string()]);
/// ```
pub fn split_files(text: &str) -> Vec<String> {
    let mut files = vec![String::new()];
    for line in text.lines() {
        if line.starts_with(FILE_MARKER) {
            files.push(String::new());
        }
        let file = files.last_mut().expect("at least one file");
        file.push_str(line);
        file.push('\n');
    }
    files
}

/// Assembles a printed disassembly, all its files in order (named `dvle0.pica`, `dvle1.pica`, ...),
/// with the picasso-compatible assembler and default options.
///
/// # Errors
/// The assembler's first error.
pub fn reassemble(text: &str) -> Result<crate::asm::Assembly, crate::asm::AsmError> {
    let files = split_files(text);
    let names: Vec<String> = (0..files.len()).map(|i| format!("dvle{i}.pica")).collect();
    let sources: Vec<crate::asm::Source> =
        files.iter().zip(&names).map(|(text, name)| crate::asm::Source { name, text }).collect();
    crate::asm::assemble(&sources, &crate::asm::Options::default())
}

/// picasso syntax for `shbin` that assembles back to identical bytes.
///
/// # Errors
/// [`DisasmError::NotReproducible`] when the file holds something picasso cannot write (unknown
/// opcodes, unstructured control flow, raw constant entries, tables out of picasso's order, ...);
/// [`disassemble_lossy`] prints such files anyway.
pub fn disassemble(shbin: &Shbin) -> Result<String, DisasmError> {
    let d = disassemble_lossy(shbin);
    match d.warnings.first() {
        None => Ok(d.text),
        Some(first) => Err(DisasmError::NotReproducible { first: first.clone(), count: d.warnings.len() }),
    }
}

/// picasso syntax for `shbin`, as close as picasso syntax allows: what it cannot express is
/// listed in [`Disassembly::warnings`] and printed as comments (raw words for instructions).
pub fn disassemble_lossy(shbin: &Shbin) -> Disassembly {
    disassemble_with(shbin, &Options::default())
}

/// [`disassemble_lossy`] with [`Options`].
pub fn disassemble_with(shbin: &Shbin, options: &Options) -> Disassembly {
    let code: Vec<Instruction> = shbin.program.code.iter().map(|&w| Instruction::decode(w)).collect();
    let mut warnings = Vec::new();
    check_program(shbin, &code, &mut warnings);
    let layout = structure::layout(&code, &shbin.executables);

    // picasso gives the DVLE of the file holding a SETEMIT the geometry type, so the code goes
    // with the first geometry shader when there is one.
    let code_file = shbin.executables.iter().position(|d| d.shader_type == ShaderType::Geometry).unwrap_or(0);
    let code_in_vertex_file =
        !matches!(shbin.executables.get(code_file), Some(d) if d.shader_type == ShaderType::Geometry);
    if let Some(pc) = code.iter().position(|i| i.opcode == Opcode::Setemit).filter(|_| code_in_vertex_file) {
        warnings.push(Warning {
            location: Location::Instruction(pc as u32),
            message: "SETEMIT without a geometry shader DVLE (picasso would make the file's DVLE one)".into(),
        });
    }
    let mut text = String::from("; picasso source printed by shaderport pica disasm\n");
    let mut shared = directives::Shared::default();
    if shbin.executables.is_empty() {
        warnings.push(Warning { location: Location::Program, message: "no DVLE (picasso writes at least one)".into() });
        let names = instr::RegNames::default();
        text.push_str(&code_text(shbin, &code, &layout, &names, 16, &mut warnings));
    }
    for (i, dvle) in shbin.executables.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(text, "\n{FILE_MARKER}: DVLE {i} ----");
        }
        let kind = match dvle.shader_type {
            ShaderType::Vertex => "vertex shader".to_string(),
            ShaderType::Geometry => "geometry shader".to_string(),
            ShaderType::Other(t) => format!("shader type {t}"),
        };
        let _ = writeln!(text, "; DVLE {i}: {kind}, entry {}..{}\n", dvle.main, dvle.endmain);
        let mut warn = |message| warnings.push(Warning { location: Location::Dvle(i), message });
        let mut names =
            directives::print_dvle(dvle, &layout.entries[i], i == code_file, &mut shared, &mut text, &mut warn);
        if options.raw_registers {
            names = instr::RegNames::default();
        }
        if i == code_file {
            text.push('\n');
            let max_output = if dvle.shader_type == ShaderType::Geometry { 7 } else { 16 };
            text.push_str(&code_text(shbin, &code, &layout, &names, max_output, &mut warnings));
        }
    }
    if !warnings.is_empty() {
        let mut head = String::from("; WARNING: this text does not assemble back to the same bytes:\n");
        for w in &warnings {
            let _ = writeln!(head, ";   {w}");
        }
        text.insert_str(0, &head);
    }
    Disassembly { text, warnings }
}

/// A DVOJ object (an unlinked shader, 3dbrew "SHBIN" "DVOJ") printed as the one-DVLE
/// SHBIN it would make: its code and descriptors as the program, its tables as the DVLE, its
/// entry point the first instruction and the whole code its `main`. The warnings say what of the
/// object picasso could not write (its line-number blocks are not printed at all).
pub fn disassemble_dvoj(dvoj: &Dvoj, options: &Options) -> Disassembly {
    let program = Dvlp {
        code: dvoj.code.clone(),
        descriptors: dvoj.descriptors.clone(),
        unknown_18: (0x28 + 4 * dvoj.code.len() + 8 * dvoj.descriptors.len()) as u32,
        ..Dvlp::default()
    };
    let dvle = Dvle {
        shader_type: dvoj.shader_type,
        merge_outmaps: dvoj.merge_outmaps,
        main: 0,
        endmain: dvoj.code.len() as u32,
        input_mask: dvoj.input_mask,
        output_mask: dvoj.output_mask,
        constants: dvoj.constants.clone(),
        labels: dvoj.labels.clone(),
        outputs: dvoj.outputs.clone(),
        uniforms: dvoj.uniforms.clone(),
        symbols: dvoj.symbols.clone(),
        ..Dvle::default()
    };
    let mut d = disassemble_with(&Shbin { program, executables: vec![dvle] }, options);
    d.text.insert_str(0, "; a DVOJ object, printed as the SHBIN with one DVLE that it makes\n");
    d
}

/// Header fields and tables of the DVLP that picasso writes in one way only.
fn check_program(shbin: &Shbin, code: &[Instruction], warnings: &mut Vec<Warning>) {
    let p = &shbin.program;
    let mut warn = |message: String| warnings.push(Warning { location: Location::Program, message });
    let expected_18 = 0x28 + 4 * p.code.len() as u64 + 8 * p.descriptors.len() as u64;
    if p.version != 0 || p.unknown_1c != 0 || p.unknown_18 as u64 != expected_18 {
        warn(format!(
            "DVLP header words {:#x}, {:#x}, {:#x} (picasso writes 0, {expected_18:#x}, 0)",
            p.version, p.unknown_18, p.unknown_1c
        ));
    }
    if p.filename_table_offset != 0 || !p.filename_table.is_empty() {
        warn("filename symbol table present (picasso writes none)".into());
    }
    if p.code.len() > 4096 {
        warn(format!("{} instructions: targets past 4095 cannot be encoded", p.code.len()));
    }
    if let Err((pc, message)) = opdesc::check(code, &p.descriptors) {
        let location = pc.map_or(Location::Program, Location::Instruction);
        warnings.push(Warning { location, message });
    }
}

/// The program: structured when picasso's blocks can express it, flat otherwise.
fn code_text(
    shbin: &Shbin,
    code: &[Instruction],
    layout: &structure::Layout,
    names: &instr::RegNames,
    max_output: u8,
    warnings: &mut Vec<Warning>,
) -> String {
    let cx = instr::Context { descs: &shbin.program.descriptors, targets: layout, names, max_output };
    let mut local = Vec::new();
    match structured(shbin, code, layout, &cx, &mut local) {
        Ok(text) => {
            warnings.extend(local);
            text
        }
        Err((pc, reason)) => {
            warnings.push(Warning {
                location: Location::Instruction(pc),
                message: format!("control flow picasso blocks cannot express: {reason}; printed flat"),
            });
            flat(shbin, code, &cx, warnings)
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push('\t');
    }
}

/// Opcodes after which picasso puts a padding NOP before `.else`/`.end` (the assembler's rule).
fn needs_padding_after(op: Option<Opcode>, in_for: bool) -> bool {
    op.is_some_and(|op| crate::asm::padding_after(op, in_for))
}

/// Structured printing; `Err((pc, reason))` when the blocks do not nest.
fn structured(
    shbin: &Shbin,
    code: &[Instruction],
    layout: &structure::Layout,
    cx: &instr::Context,
    warnings: &mut Vec<Warning>,
) -> Result<String, (u32, String)> {
    let len = code.len() as u32;
    for p in &layout.procs {
        if p.end <= p.start || p.end > len {
            return Err((p.start, format!("procedure {} covers {}..{} of {len} instructions", p.name, p.start, p.end)));
        }
    }
    let mut out = String::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut next_proc = 0;
    let mut last_was_end = false;
    let mut last_op: Option<Opcode> = None;
    let pad = |pc: u32, what: &str, warnings: &mut Vec<Warning>| {
        warnings.push(Warning {
            location: Location::Instruction(pc),
            message: format!("picasso would insert a padding NOP before this {what}"),
        })
    };
    for pc in 0..=len {
        // Close the blocks and switch to the else-parts that end here, innermost first.
        while let Some(&top) = stack.last() {
            if top.region_end() != pc {
                break;
            }
            let depth = stack.len() - 1;
            match top {
                Open::If { pos, split, end, in_else: false } if end > split => {
                    if last_was_end || needs_padding_after(last_op, false) || pc - pos < 2 {
                        pad(pc, ".else", warnings);
                    }
                    last_was_end = false;
                    indent(&mut out, depth);
                    out.push_str(".else\n");
                    *stack.last_mut().expect("top exists") = Open::If { pos, split, end, in_else: true };
                }
                _ => {
                    let (start, min, in_for) = match top {
                        Open::Proc { start, .. } => (start, 1, false),
                        Open::If { pos, .. } => (pos, 2, false),
                        Open::For { pos, .. } => (pos, 2, true),
                    };
                    if last_was_end || needs_padding_after(last_op, in_for) || pc - start < min {
                        pad(pc, ".end", warnings);
                    }
                    last_was_end = !matches!(top, Open::Proc { .. });
                    stack.pop();
                    indent(&mut out, depth);
                    out.push_str(".end\n");
                }
            }
        }
        if pc == len {
            break;
        }
        let region = stack.last().map_or(len, |t| t.region_end());
        while let Some(p) = layout.procs.get(next_proc).filter(|p| p.start == pc) {
            if p.end > region {
                return Err((
                    pc,
                    format!("procedure {} ({}..{}) crosses the end of its block at {region}", p.name, p.start, p.end),
                ));
            }
            indent(&mut out, stack.len());
            let _ = writeln!(out, ".proc {}", p.name);
            stack.push(Open::Proc { start: pc, end: p.end });
            next_proc += 1;
        }
        if let Some(p) = layout.procs.get(next_proc) {
            if p.start < pc {
                return Err((p.start, format!("procedure {} starts inside a block", p.name)));
            }
        }
        if stack.is_empty() {
            // Code that no entry point or call reaches still needs a procedure around it.
            let end = layout.procs.get(next_proc).map_or(len, |p| p.start);
            let _ = writeln!(out, ".proc code_{pc}");
            stack.push(Open::Proc { start: pc, end });
        }
        if let Some(label) = layout.labels.get(&pc) {
            let _ = writeln!(out, "{label}:");
        }
        let ins = &code[pc as usize];
        indent(&mut out, stack.len());
        match instr::instruction_text(ins, cx) {
            Ok(line) => out.push_str(&line),
            Err(problem) => {
                out.push_str(&instr::raw_comment(shbin.program.code[pc as usize], &problem));
                warnings.push(Warning { location: Location::Instruction(pc), message: problem });
            }
        }
        out.push('\n');
        if ins.opcode == Opcode::Mova && last_op == Some(Opcode::Mova) {
            warnings.push(Warning {
                location: Location::Instruction(pc),
                message: "two MOVA in a row, which picasso rejects".into(),
            });
        }
        let region = stack.last().map_or(len, |t| t.region_end());
        if let Some(block) = structure::block_of(ins, pc, region).map_err(|e| (pc, e))? {
            stack.push(block);
        }
        last_op = Some(ins.opcode);
        last_was_end = false;
    }
    for (&pos, name) in layout.labels.range(len..) {
        if pos == len {
            let _ = writeln!(out, "{name}:");
        } else {
            return Err((pos, format!("jump target {name} past the end of the code")));
        }
    }
    Ok(out)
}

/// A flat listing for control flow picasso's blocks cannot express: flow instructions become
/// comments with their targets, every target gets a label.
fn flat(shbin: &Shbin, code: &[Instruction], cx: &instr::Context, warnings: &mut Vec<Warning>) -> String {
    use crate::isa::Operands;
    let mut out = String::from(".proc main\n");
    let targets: std::collections::BTreeSet<u32> = code
        .iter()
        .filter_map(|i| match i.operands {
            Operands::Flow { dst, .. } | Operands::Uniform { dst, .. } => Some(dst as u32),
            _ => None,
        })
        .collect();
    for (pc, ins) in code.iter().enumerate() {
        let pc = pc as u32;
        if targets.contains(&pc) {
            let _ = writeln!(out, "label_{pc}:");
        }
        let word = shbin.program.code[pc as usize];
        let line = match ins.operands {
            Operands::Flow { dst, num, .. } | Operands::Uniform { dst, num, .. } => {
                let head = instr::instruction_text(ins, cx)
                    .unwrap_or_else(|_| ins.opcode.mnemonic().unwrap_or("?").to_string());
                format!("; {head} (target {dst}, count {num}, raw {word:#010x})")
            }
            _ => match instr::instruction_text(ins, cx) {
                Ok(line) => line,
                Err(problem) => {
                    warnings.push(Warning { location: Location::Instruction(pc), message: problem.clone() });
                    instr::raw_comment(word, &problem)
                }
            },
        };
        let _ = writeln!(out, "\t{line}");
    }
    out.push_str(".end\n");
    out
}

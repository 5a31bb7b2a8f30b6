//! The assembler's state and its statement loop. Global across the files of one invocation: the
//! code, the descriptor table, procedures, shared uniforms and their allocator. Per file: labels,
//! aliases, the block stack and the file's DVLE (picasso Manual.md "Linking Model").

use std::collections::HashMap;
use std::rc::Rc;

use super::error::{AsmError, ErrorKind, Warning};
use super::opdesc::{OpdescError, OpdescTable};
use super::operand::{Aliases, RegKind};
use super::text::{c_atoi, is_identifier, is_space, strip_comment, trim, Args};
use super::Options;
use crate::isa::{Instruction, Opcode};
use crate::shbin::{Constant, Output};

/// Vertex shaders have 512 instruction slots.
pub const MAX_VSH_SIZE: usize = 512;
/// picasso's nesting limit.
pub const MAX_STACK: usize = 32;
/// picasso's per-DVLE table limits.
pub const MAX_UNIFORM: usize = 0x60;
pub const MAX_CONSTANT: usize = 0x60;
pub const MAX_OUTPUT: usize = 16;

/// One allocator of uniform registers of a kind: shared uniforms grow up from `start`, a file's
/// constants grow down from `end`; `bound` keeps uniforms below every constant ever placed.
#[derive(Clone, Copy, Debug)]
pub struct Alloc {
    start: u32,
    end: u32,
    bound: u32,
    top: u32,
}

impl Alloc {
    pub fn new(start: u32, end: u32) -> Alloc {
        Alloc { start, end, bound: end, top: end }
    }

    pub fn clear_local(&mut self) {
        self.end = self.top;
    }

    pub fn global(&mut self, size: u32) -> Option<u32> {
        if self.start + size > self.bound {
            return None;
        }
        let r = self.start;
        self.start += size;
        Some(r)
    }

    pub fn local(&mut self, size: u32) -> Option<u32> {
        let pos = self.end.checked_sub(size)?;
        if pos < self.start {
            return None;
        }
        self.bound = self.bound.min(pos);
        self.end = pos;
        Some(pos)
    }
}

/// Allocators for float, integer and boolean uniforms.
#[derive(Clone, Copy, Debug)]
pub struct Allocs {
    pub float: Alloc,
    pub int: Alloc,
    pub bool: Alloc,
}

impl Allocs {
    pub fn shared() -> Allocs {
        Allocs { float: Alloc::new(0, 96), int: Alloc::new(0, 4), bool: Alloc::new(0, 16) }
    }

    /// Geometry shaders with `.gsh MODE cN` get their own space from cN up; b15 is the
    /// hardware's.
    pub fn geometry(first_free: u32) -> Allocs {
        Allocs { float: Alloc::new(first_free, 96), int: Alloc::new(0, 4), bool: Alloc::new(0, 15) }
    }

    pub fn get(&mut self, kind: RegKind) -> &mut Alloc {
        match kind {
            RegKind::Int => &mut self.int,
            RegKind::Bool => &mut self.bool,
            _ => &mut self.float,
        }
    }
}

/// A uniform of the shared space (listed in the -h header).
#[derive(Clone, Debug)]
pub struct SharedUniform {
    pub name: String,
    pub kind: RegKind,
    pub index: u32,
    pub size: u32,
}

/// The DVLE being built for one file.
#[derive(Clone, Debug, Default)]
pub struct Dvle {
    pub file: String,
    pub nodvle: bool,
    pub geometry: bool,
    /// `.gsh` without a mode or `setemit`: a geometry shader using the shared uniform space.
    pub compat_geometry: bool,
    pub merge: bool,
    pub gsh_type: u8,
    pub gsh_fixed_start: u8,
    pub gsh_variable_num: u8,
    pub gsh_fixed_num: u8,
    pub entry: String,
    pub constants: Vec<Constant>,
    pub outputs: Vec<Output>,
    pub uniforms: Vec<UniformEntry>,
    pub input_mask: u16,
    pub output_mask: u16,
    pub output_used: u64,
}

impl Dvle {
    pub fn uses_gsh_space(&self) -> bool {
        self.geometry && !self.compat_geometry
    }

    pub fn max_output(&self) -> u32 {
        if self.geometry {
            7
        } else {
            16
        }
    }
}

/// A DVLE uniform-table entry before symbol offsets are assigned: the name as written into the
/// symbol table and its registers in the unified space (v 0x00, c 0x10, i 0x70, b 0x78).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniformEntry {
    pub name: String,
    pub start: u16,
    pub end: u16,
}

/// An open block.
#[derive(Clone, Debug)]
pub enum Block {
    Proc { name: String, start: u32 },
    If { pos: u32, else_start: Option<u32> },
    For { pos: u32 },
    Array,
}

/// A reference to a label or procedure, resolved later.
#[derive(Clone, Debug)]
pub struct Reloc {
    pub at: usize,
    pub name: String,
    pub file: Rc<str>,
    pub line: u32,
}

/// An emitted instruction and where it came from.
#[derive(Clone, Debug)]
pub struct Slot {
    pub inst: Instruction,
    pub file: Rc<str>,
    pub line: u32,
}

/// A `.constfa` array being collected.
#[derive(Clone, Debug, Default)]
pub struct ConstArray {
    pub name: String,
    pub size: Option<u32>,
    pub values: Vec<[f32; 4]>,
}

/// The assembler.
pub struct Asm {
    pub options: Options,
    pub code: Vec<Slot>,
    pub opdescs: OpdescTable,
    pub procs: HashMap<String, (u32, u32)>,
    pub proc_relocs: Vec<Reloc>,
    pub shared: Vec<SharedUniform>,
    /// [0]: the shared space; [1]: the current geometry shader's own space.
    pub allocs: [Allocs; 2],
    pub dvles: Vec<Dvle>,
    pub dvle_count: usize,
    pub warnings: Vec<Warning>,
    pub last_was_end: bool,
    // Per file.
    pub file: Rc<str>,
    pub line: u32,
    pub labels: HashMap<String, u32>,
    pub label_relocs: Vec<Reloc>,
    pub aliases: Aliases,
    pub cur_dvle: Option<usize>,
    pub stack: Vec<Block>,
    /// The line that opened each block of `stack`.
    pub stack_lines: Vec<u32>,
    pub array: Option<ConstArray>,
}

impl Asm {
    pub fn new(options: Options) -> Asm {
        Asm {
            options,
            code: Vec::new(),
            opdescs: OpdescTable::default(),
            procs: HashMap::new(),
            proc_relocs: Vec::new(),
            shared: Vec::new(),
            allocs: [Allocs::shared(), Allocs::shared()],
            dvles: Vec::new(),
            dvle_count: 0,
            warnings: Vec::new(),
            last_was_end: false,
            file: Rc::from(""),
            line: 0,
            labels: HashMap::new(),
            label_relocs: Vec::new(),
            aliases: Aliases::new(),
            cur_dvle: None,
            stack: Vec::new(),
            stack_lines: Vec::new(),
            array: None,
        }
    }

    /// An error at the current file and line.
    #[cold]
    pub fn err(&self, kind: ErrorKind) -> AsmError {
        AsmError { file: self.file.to_string(), line: self.line, kind }
    }

    /// The current file's DVLE, created on first use.
    pub fn dvle(&mut self) -> &mut Dvle {
        let i = match self.cur_dvle {
            Some(i) => i,
            None => {
                self.dvles.push(Dvle { file: self.file.to_string(), entry: "main".into(), ..Dvle::default() });
                self.dvle_count += 1;
                self.cur_dvle = Some(self.dvles.len() - 1);
                self.dvles.len() - 1
            }
        };
        &mut self.dvles[i]
    }

    /// The number of output registers operands may name here.
    pub fn max_output(&self) -> u32 {
        self.cur_dvle.map_or(16, |i| self.dvles[i].max_output())
    }

    /// Opens a block (picasso allows 32 levels).
    pub fn push_block(&mut self, block: Block) -> Result<(), AsmError> {
        if self.stack.len() >= MAX_STACK {
            return Err(self.err(ErrorKind::TooManyBlocks));
        }
        self.stack.push(block);
        self.stack_lines.push(self.line);
        Ok(())
    }

    /// Closes the innermost block.
    pub fn pop_block(&mut self) -> Option<Block> {
        self.stack_lines.pop();
        self.stack.pop()
    }

    pub fn pc(&self) -> u32 {
        self.code.len() as u32
    }

    pub fn emit(&mut self, inst: Instruction) {
        self.code.push(Slot { inst, file: self.file.clone(), line: self.line });
    }

    pub fn opdesc_err(&self, e: OpdescError) -> AsmError {
        self.err(match e {
            OpdescError::Full => ErrorKind::TooManyOpdescs,
            OpdescError::MadSlot => ErrorKind::OpdescAlloc,
        })
    }

    /// A padding NOP, or with `-n` a warning that one is needed.
    pub fn padding_nop(&mut self) {
        if self.options.auto_nop {
            self.emit(Instruction { opcode: Opcode::Nop, operands: crate::isa::Operands::None, extra: 0 });
        } else {
            self.warnings.push(Warning {
                file: self.file.to_string(),
                line: self.line,
                message: "a padding NOP is required here".into(),
            });
        }
    }

    /// Assembles one source file into the shared state.
    pub fn assemble_file(&mut self, name: &str, text: &str) -> Result<(), AsmError> {
        self.file = Rc::from(name);
        self.line = 1;
        self.allocs[0].float.clear_local();
        self.allocs[0].int.clear_local();
        self.allocs[0].bool.clear_local();
        self.labels.clear();
        self.label_relocs.clear();
        self.aliases.clear();
        self.cur_dvle = None;
        self.array = None;
        let mut next_line = 1u32;
        for raw in text.split('\n') {
            self.line = next_line;
            next_line = next_line.saturating_add(1);
            let mut line = trim(strip_comment(raw));
            while let Some(colon) = line.find(':') {
                let label = &line[..colon];
                line = trim(&line[colon + 1..]);
                if !is_identifier(label) {
                    return Err(self.err(ErrorKind::InvalidLabel(label.to_string())));
                }
                if self.labels.insert(label.to_string(), self.pc()).is_some() {
                    return Err(self.err(ErrorKind::DuplicateLabel(label.to_string())));
                }
            }
            if line.is_empty() {
                continue;
            }
            if let Some(marker) = line.strip_prefix('#') {
                // A C preprocessor line marker: `# LINE "file"`; the next line is LINE.
                let marker = trim(marker);
                let (num, rest) = marker.split_at(marker.find([' ', '\t']).unwrap_or(marker.len()));
                next_line = c_atoi(num).unwrap_or(1).clamp(1, u32::MAX as i64) as u32;
                let rest = trim(rest);
                let rest = rest.strip_prefix('"').map_or(rest, |r| r.strip_suffix('"').unwrap_or(r));
                if !rest.is_empty() {
                    self.file = Rc::from(rest);
                }
                continue;
            }
            let split = line.find([' ', '\t']).unwrap_or(line.len());
            let cmd = &line[..split];
            let args = Args::new(line[split..].trim_start_matches(is_space));
            self.statement(cmd, args)?;
        }
        if let Some(&line) = self.stack_lines.last() {
            // picasso reports the end of the file; the line that opened the block says more.
            return Err(AsmError { file: self.file.to_string(), line, kind: ErrorKind::UnclosedBlock });
        }
        self.fix_labels()
    }

    fn statement(&mut self, cmd: &str, args: Args) -> Result<(), AsmError> {
        if let Some(dir) = cmd.strip_prefix('.') {
            return self.directive(dir, args);
        }
        match self.stack.last() {
            None => return Err(self.err(ErrorKind::OutsideBlock)),
            Some(Block::Array) => return Err(self.err(ErrorKind::InstructionInArray)),
            _ => {}
        }
        self.last_was_end = false;
        let geometry = self.dvle().geometry;
        if !geometry && self.code.len() >= MAX_VSH_SIZE {
            return Err(self.err(ErrorKind::ProgramTooLong(self.code.len())));
        }
        self.instruction(cmd, args)
    }

    fn fix_labels(&mut self) -> Result<(), AsmError> {
        for r in std::mem::take(&mut self.label_relocs) {
            let Some(&target) = self.labels.get(&r.name) else {
                return Err(AsmError {
                    file: r.file.to_string(),
                    line: r.line,
                    kind: ErrorKind::UndefinedLabel(r.name),
                });
            };
            set_target(&mut self.code[r.at].inst, target, None);
        }
        Ok(())
    }

    /// After every file: procedure calls, entry points.
    pub fn relocate(&mut self) -> Result<(), AsmError> {
        for r in std::mem::take(&mut self.proc_relocs) {
            let Some(&(start, size)) = self.procs.get(&r.name) else {
                return Err(AsmError {
                    file: r.file.to_string(),
                    line: r.line,
                    kind: ErrorKind::UndefinedProc(r.name),
                });
            };
            if size > 0xFF {
                return Err(AsmError {
                    file: r.file.to_string(),
                    line: r.line,
                    kind: ErrorKind::Encode(format!(
                        "procedure '{}' is {size} instructions long, a call reaches at most 255",
                        r.name
                    )),
                });
            }
            set_target(&mut self.code[r.at].inst, start, Some(size as u8));
        }
        if self.dvle_count == 0 {
            return Err(self.err(ErrorKind::NoDvle));
        }
        for d in &self.dvles {
            if !d.nodvle && !self.procs.contains_key(&d.entry) {
                return Err(AsmError {
                    file: d.file.clone(),
                    line: 1,
                    kind: ErrorKind::UndefinedEntry(d.entry.clone()),
                });
            }
        }
        Ok(())
    }

    /// Parses a C-style integer argument within a range.
    pub fn int_arg(&self, text: &str, min: i64, max: i64) -> Result<i64, AsmError> {
        let v = super::text::c_strtoll(text).ok_or_else(|| self.err(ErrorKind::InvalidValue(text.to_string())))?;
        if v < min || v > max {
            return Err(self.err(ErrorKind::OutOfRange { min, max, value: v }));
        }
        Ok(v)
    }
}

/// Sets the DST (and NUM) field of a flow-control instruction.
pub fn set_target(inst: &mut Instruction, dst: u32, num: Option<u8>) {
    use crate::isa::Operands;
    match &mut inst.operands {
        Operands::Flow { dst: d, num: n, .. } | Operands::Uniform { dst: d, num: n, .. } => {
            *d = dst.min(u16::MAX as u32) as u16;
            if let Some(v) = num {
                *n = v;
            }
        }
        _ => {}
    }
}

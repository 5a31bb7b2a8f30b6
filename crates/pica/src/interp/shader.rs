//! Loading an executable of a SHBIN: the program of its DVLP, the entry point, kind and geometry
//! settings of a DVLE, its constant table (applied before any user uniform) and its output map
//! (the semantics of the o registers).

use super::exec::{Interpreter, ShaderKind, Uniforms, Vec4};
use super::geometry::GeometryMode;
use super::program::{Program, ProgramError};
use crate::shbin::{self, Constant, Dvle, ShaderType, Shbin};

/// Why an executable cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("executable {index} does not exist (the file has {count} DVLE)")]
    NoSuchExecutable { index: usize, count: usize },
    #[error("DVLE {index}: shader type {raw} is neither vertex (0) nor geometry (1)")]
    ShaderType { index: usize, raw: u8 },
    #[error("DVLE {index}: geometry mode {raw} is not point (0), variable (1) or fixed (2)")]
    GeometryMode { index: usize, raw: u8 },
    #[error("DVLE {index}: entry point {main} is past the program ({len} words)")]
    Entry { index: usize, main: u32, len: usize },
    #[error("DVLE {index}: constant table entry {entry} names {what}{reg}, which does not exist")]
    ConstantRegister { index: usize, entry: usize, what: &'static str, reg: u8 },
    #[error("{0}")]
    Program(#[from] ProgramError),
}

/// One output of the DVLE's output map: a semantic, its o register and the components it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputSemantic {
    /// picasso's name (`position`, `color`, `texcoord0`, ...), or `output{N}` for an unknown type.
    pub name: String,
    pub reg: u8,
    /// Components of the register, x = bit 0 (the DVLE's mask).
    pub mask: u8,
}

/// An executable ready to run.
#[derive(Clone, Debug)]
pub struct Shader {
    pub program: Program,
    pub kind: ShaderKind,
    /// Entry point in words (DVLE `main`).
    pub entry: u32,
    /// How vertices reach it (geometry shaders only).
    pub geometry: Option<GeometryMode>,
    /// The output map, in table order.
    pub outputs: Vec<OutputSemantic>,
    /// The uniforms after the DVLE's constant table (all else zero / false).
    pub uniforms: Uniforms,
    /// The DVLE's mask of used output registers (bit N = oN).
    pub output_mask: u16,
}

impl Shader {
    /// Loads executable `index` of `file`.
    ///
    /// # Errors
    /// [`LoadError`]: a missing executable, an unknown shader type or geometry mode, an entry past
    /// the program, a constant naming a register that does not exist, or a program too large.
    pub fn from_shbin(file: &Shbin, index: usize) -> Result<Shader, LoadError> {
        let dvle =
            file.executables.get(index).ok_or(LoadError::NoSuchExecutable { index, count: file.executables.len() })?;
        let descriptors: Vec<u32> = file.program.descriptors.iter().map(|d| d[0]).collect();
        let program = Program::new(&file.program.code, &descriptors)?;
        Shader::from_dvle(program, dvle, index)
    }

    /// Builds a shader from an already decoded program and its DVLE (`index` is for messages).
    ///
    /// # Errors
    /// As [`Shader::from_shbin`].
    pub fn from_dvle(program: Program, dvle: &Dvle, index: usize) -> Result<Shader, LoadError> {
        let kind = match dvle.shader_type {
            ShaderType::Vertex => ShaderKind::Vertex,
            ShaderType::Geometry => ShaderKind::Geometry,
            ShaderType::Other(raw) => return Err(LoadError::ShaderType { index, raw }),
        };
        if dvle.main as usize >= program.len() {
            return Err(LoadError::Entry { index, main: dvle.main, len: program.len() });
        }
        let geometry = match (kind, dvle.geometry_mode) {
            (ShaderKind::Vertex, _) => None,
            (_, shbin::GeometryMode::Point) => Some(GeometryMode::Point),
            (_, shbin::GeometryMode::Variable) => Some(GeometryMode::Variable { full_vertices: dvle.gs_variable_num }),
            (_, shbin::GeometryMode::Fixed) => {
                Some(GeometryMode::Fixed { start: dvle.gs_fixed_start, vertices: dvle.gs_fixed_num })
            }
            (_, shbin::GeometryMode::Other(raw)) => return Err(LoadError::GeometryMode { index, raw }),
        };
        let mut uniforms = Uniforms::default();
        for (entry, c) in dvle.constants.iter().enumerate() {
            let bad = |what, reg| LoadError::ConstantRegister { index, entry, what, reg };
            match *c {
                Constant::Float { reg, value } => {
                    let slot = uniforms.float.get_mut(reg as usize).ok_or(bad("c", reg))?;
                    *slot = value.map(|v| v.to_f32());
                }
                Constant::Int { reg, value } => *uniforms.int.get_mut(reg as usize).ok_or(bad("i", reg))? = value,
                Constant::Bool { reg, value } => *uniforms.bools.get_mut(reg as usize).ok_or(bad("b", reg))? = value,
                // An entry of unknown type sets nothing (the loader in ctrulib skips those too).
                Constant::Raw(_) => {}
            }
        }
        let outputs = dvle
            .outputs
            .iter()
            .map(|o| OutputSemantic {
                name: match o.kind.name() {
                    Some(n) => n.to_string(),
                    None => format!("output{}", o.kind.raw()),
                },
                reg: (o.reg & 15) as u8,
                mask: (o.mask & 15) as u8,
            })
            .collect();
        Ok(Shader { program, kind, entry: dvle.main, geometry, outputs, uniforms, output_mask: dvle.output_mask })
    }

    /// An interpreter for this shader with the DVLE's constants loaded.
    pub fn interpreter(&self) -> Interpreter<'_> {
        let mut it = Interpreter::new(&self.program, self.kind);
        it.set_uniforms(&self.uniforms);
        it
    }

    /// The o registers the shader outputs: those of the output map; else the DVLE's output mask;
    /// else all sixteen.
    pub fn output_registers(&self) -> Vec<u8> {
        let mut regs: Vec<u8> = self.outputs.iter().map(|o| o.reg).collect();
        if regs.is_empty() {
            regs = (0..16).filter(|r| self.output_mask & (1 << r) != 0).collect();
        }
        if regs.is_empty() {
            regs = (0..16).collect();
        }
        regs.sort_unstable();
        regs.dedup();
        regs
    }

    /// The outputs by semantic: each output map entry with the components of its register that
    /// its mask selects, in x, y, z, w order.
    pub fn semantics(&self, outputs: &[Vec4; 16]) -> Vec<(String, Vec<f32>)> {
        self.outputs
            .iter()
            .map(|o| {
                let v = outputs[o.reg as usize];
                (o.name.clone(), (0..4).filter(|i| o.mask & (1 << i) != 0).map(|i| v[i]).collect())
            })
            .collect()
    }
}

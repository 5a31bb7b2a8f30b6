//! Latte (Wii U R700) vertex and pixel programs to `naga::Module`
//! (docs/latte-translate.md).
//!
//! A decoded [`Program`] (from a .gsh through `latte::gfd`, an MT container entry or raw
//! words) runs in one function over the invocation's GPRs, kept as `vec4<u32>` bit patterns and
//! bitcast at each use, with the lane state and stack of `latte::interp` for one invocation:
//! - `ops`: the arithmetic of each ALU opcode; `alu`: ALU clauses (the group rule, PV/PS,
//!   AR, predication); `flow`: control flow, straight code or a dispatch loop; `structured`: the
//!   structured form (guarded blocks and loops) where the CF graph nests;
//! - `io`: the entry points. Today the compute form ([`COMPUTE_ENTRY`]): each invocation reads
//!   its initial GPRs from a storage buffer and writes its final GPRs, exports and memory
//!   writes back (the layout below), for the differential test against the interpreter;
//! - [`interface`]: the shader interface of the port's ABI (`<key>.<stage>.meta`) and the
//!   game-wide [`Varyings`] map (`varyings.txt`).
//!
//! Loop and boolean constants (SQ_LOOP_CONST, SQ_BOOL_CONST) are draw-time state that changes
//! the code: they are part of [`Options`].

mod alu;
mod fetch;
mod flow;
pub mod interface;
mod io;
mod ops;
mod structured;
mod transc;
mod varyings;
mod vtx;

use std::collections::BTreeMap;

pub use interface::{gfd_interfaces, header_semantics, Interface, InterfaceError};
pub use varyings::{Varyings, VaryingsError, MAX_VARYING_LOCATIONS};

use ::latte::isa::program::ClauseBody;
use ::latte::isa::{FetchInst, Program};
use naga::valid::ModuleInfo;
use naga::{Module, ShaderStage};

pub use flow::{
    DX10_LOOP_CAP, ERR_INVALID, ERR_STACK_OVERFLOW, ERR_STACK_UNDERFLOW, ERR_STEP_BUDGET, ERR_UNSUPPORTED,
    MAX_CF_STEPS, STACK_LIMIT,
};
pub use io::{
    export_slot, BLOCK_VEC4S, CFILE_GROUP, COMPUTE_ENTRY, EXPORT_SLOTS, IN_BINDING, IN_STRIDE, IO_GROUP, MEM_MAX,
    OUT_BINDING, OUT_ERR, OUT_EXPORTS, OUT_GPRS, OUT_KILLED, OUT_MEM, OUT_MEM_COUNT, OUT_UNMAPPED, OUT_WORDS,
    WORKGROUP,
};

pub use fetch::{
    format_word, FetchData, FETCH_BUFFERS, FETCH_DATA_BINDING, FETCH_GROUP, FETCH_TABLE_BINDING, FETCH_TABLE_WORDS,
    NO_SEMANTIC,
};

use crate::{backend, Error, Output, Precision, Target};

/// The stage a program is translated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// A vertex program.
    Vertex,
    /// A pixel program.
    Pixel,
}

/// Translation options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Float precision: `exact` emits the interpreter's transcendental algorithm, `compat`
    /// (and `fast`) the device's f32 functions (docs/latte-translate.md "Precision").
    pub precision: Precision,
    /// SQ_LOOP_CONST_n values (COUNT 11:0, INIT 23:12, INC 31:24); absent ones read as
    /// `latte::interp::DEFAULT_LOOP_CONST`.
    pub loop_consts: BTreeMap<u8, u32>,
    /// The boolean constants (bit n = constant n) for COND = CF_BOOL / CF_NOT_BOOL.
    pub bool_consts: u32,
}

/// How the control flow was translated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowKind {
    /// No CF instruction leaves its successor: straight code.
    Straight,
    /// Forward jumps as guarded blocks and loops as loops (the CF graph nests).
    Structured,
    /// The dispatch loop over the CF program counter.
    Dispatch,
}

/// A validated translation.
#[derive(Debug)]
pub struct Translation {
    module: Module,
    info: ModuleInfo,
    precision: Precision,
    flow: FlowKind,
    stage: Stage,
    blocks: Vec<u8>,
    cfile: bool,
    fetches: bool,
}

impl Translation {
    /// The validated module.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// How the control flow was translated.
    pub fn flow(&self) -> FlowKind {
        self.flow
    }

    /// The uniform blocks (kcache banks) the program reads, each bound at its index.
    pub fn uniform_blocks(&self) -> &[u8] {
        &self.blocks
    }

    /// Whether the program reads the constant file (bound in group [`CFILE_GROUP`]).
    pub fn reads_cfile(&self) -> bool {
        self.cfile
    }

    /// Whether the program reads the fetch buffers (group [`FETCH_GROUP`]: VTX fetches).
    pub fn reads_fetch_buffers(&self) -> bool {
        self.fetches
    }

    /// The stage it was translated for.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The entry point: the compute form's.
    pub fn entry(&self) -> (ShaderStage, &'static str) {
        (ShaderStage::Compute, COMPUTE_ENTRY)
    }

    /// SPIR-V 1.3 words, with `NoContraction` and `SignedZeroInfNanPreserve` unless the
    /// precision is `fast`.
    ///
    /// # Errors
    /// [`Error::Backend`] when naga's writer fails.
    pub fn spirv(&self) -> Result<Vec<u32>, Error> {
        backend::spirv(&self.module, &self.info, self.precision)
    }

    /// Writes `target`.
    ///
    /// # Errors
    /// [`Error::Backend`] when the writer fails.
    pub fn write(&self, target: Target) -> Result<Output, Error> {
        backend::write_validated(&self.module, &self.info, target, self.entry(), self.precision)
    }
}

/// The first thing of `prog` the translation does not cover yet, with the CF index: TEX
/// fetches.
pub fn unsupported(prog: &Program) -> Option<(usize, String)> {
    prog.clauses.iter().find_map(|c| match &c.body {
        ClauseBody::Fetch(f) if f.iter().any(|i| matches!(i, FetchInst::Tex(_))) => {
            Some((c.cf_index, "TEX fetch".to_string()))
        }
        _ => None,
    })
}

/// Translates `prog` for `stage`.
///
/// # Errors
/// [`Error::LatteUnsupported`] for what [`unsupported`] names; [`Error::Validation`] if the
/// module does not validate (a bug).
pub fn translate(prog: &Program, stage: Stage, options: &Options) -> Result<Translation, Error> {
    if let Some((cf, what)) = unsupported(prog) {
        return Err(Error::LatteUnsupported { cf, what });
    }
    let (module, flow, blocks, cfile) = io::compute_module(prog, stage, options);
    let info = backend::validate(&module)?;
    let fetches = vtx::has_vtx(prog);
    Ok(Translation { module, info, precision: options.precision, flow, stage, blocks, cfile, fetches })
}

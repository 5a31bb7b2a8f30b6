//! The Latte reference interpreter: runs decoded vertex, pixel and geometry programs on the
//! CPU, lane group by lane group, following docs/specs/latte-semantics-facts.md section by
//! section. GPRs are 32-bit bit patterns; each VLIW group reads every operand before it writes
//! (§2.2); control flow keeps the per-lane state and the stack of §2.3-§2.5. Decisions on the
//! open questions of §6 are in docs/latte-interp.md, each in one place in the code.
//!
//! - [`state`]: inputs, limits, per-invocation results; [`gs`]: geometry programs with their
//!   copy program run per emitted vertex;
//! - `ops`: ALU arithmetic (§3); `alu`: ALU clauses; `cf`: control flow; `fetch`: VTX
//!   fetches (§4.2); `export`: fetch clauses, exports and memory writes; [`tex`]: the host's
//!   textures.
//!
//! A bad program is an [`InterpError`] naming the CF instruction, ALU group or fetch; a step
//! budget (default 1,000,000) bounds every run.

mod alu;
mod cf;
pub mod error;
mod export;
mod fetch;
pub mod gs;
mod image;
mod ops;
pub mod state;
pub mod tex;

pub use error::{At, InterpError, Result};
/// The component layout of each VTX DATA_FORMAT, shared with the translation.
pub use fetch::data_format;
pub use gs::{run_geometry, GsOutput};
/// The comparison of each SET*, PRED_SET* and KILL* opcode, shared with the translation.
pub use ops::{canonical_nan, kill_cmp, nan_canonical_op, pred_cmp, set_cmp, Cmp, Ty, CANONICAL_NAN};
pub use state::{
    Buffer, Config, Export, ExportKind, FaultInjection, GsEvent, Inputs, Invocation, InvocationResult, LaneState,
    MemWrite, Stage, DEFAULT_LOOP_CONST, NUM_GPRS,
};
pub use tex::{Compare, CpuTextures, Image, Sampler, TexKind, TexRequest, Texture2d, Textures, Wrap};

use crate::isa::program::ClauseBody;
use crate::isa::Program;
use state::Lane;

/// What a run executed, counted per lane group (a step of a quad counts once): the figures
/// behind the throughput benchmark (BENCHMARKS.md, "Latte interpreter").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// CF instructions.
    pub cf: u64,
    /// ALU groups.
    pub alu_groups: u64,
    /// Fetch instructions.
    pub fetches: u64,
}

impl std::ops::AddAssign for RunStats {
    fn add_assign(&mut self, o: RunStats) {
        self.cf += o.cf;
        self.alu_groups += o.alu_groups;
        self.fetches += o.fetches;
    }
}

/// A program prepared for running.
#[derive(Clone, Debug)]
pub struct Vm<'p> {
    prog: &'p Program,
    clause_of: Vec<Option<usize>>,
    numbers: Vec<usize>,
}

impl<'p> Vm<'p> {
    /// Prepares `prog`.
    pub fn new(prog: &'p Program) -> Vm<'p> {
        let mut clause_of = vec![None; prog.cf.len()];
        let mut numbers = Vec::with_capacity(prog.clauses.len());
        let mut n = 0;
        for (ci, c) in prog.clauses.iter().enumerate() {
            if let Some(slot) = clause_of.get_mut(c.cf_index) {
                *slot = Some(ci);
            }
            numbers.push(n);
            n += match &c.body {
                ClauseBody::Alu(g) => g.len(),
                ClauseBody::Fetch(f) => f.len(),
            };
        }
        Vm { prog, clause_of, numbers }
    }

    /// Runs one lane group (a single invocation, or a 2x2 quad of pixels when `quad` is true
    /// and four invocations are given).
    ///
    /// # Errors
    /// See [`InterpError`].
    pub fn run_group(
        &self,
        inputs: &Inputs,
        config: &Config,
        invocations: &[Invocation],
        quad: bool,
    ) -> Result<Vec<InvocationResult>> {
        self.run_group_stats(inputs, config, invocations, quad).map(|r| r.0)
    }

    /// [`Vm::run_group`], also returning what it executed.
    ///
    /// # Errors
    /// See [`InterpError`].
    pub fn run_group_stats(
        &self,
        inputs: &Inputs,
        config: &Config,
        invocations: &[Invocation],
        quad: bool,
    ) -> Result<(Vec<InvocationResult>, RunStats)> {
        let mut m = cf::Machine {
            prog: self.prog,
            clause_of: &self.clause_of,
            numbers: &self.numbers,
            inputs,
            config: *config,
            lanes: invocations.iter().map(Lane::new).collect(),
            stack: Vec::new(),
            al: 0,
            steps: 0,
            quads: quad && invocations.len() == 4,
            stats: RunStats::default(),
        };
        m.run()?;
        let stats = m.stats;
        let out = m
            .lanes
            .into_iter()
            .map(|l| {
                let mut r = l.result;
                r.gprs = l.gpr;
                r
            })
            .collect();
        Ok((out, stats))
    }

    /// Runs every invocation: pixel programs four at a time as 2x2 quads (a short last quad is
    /// filled with invalid helper lanes whose results are dropped), other stages one at a time.
    ///
    /// # Errors
    /// The first error of any lane group.
    pub fn run(
        &self,
        stage: Stage,
        inputs: &Inputs,
        config: &Config,
        invocations: &[Invocation],
    ) -> Result<Vec<InvocationResult>> {
        self.run_stats(stage, inputs, config, invocations).map(|r| r.0)
    }

    /// [`Vm::run`], also returning what it executed (summed over the lane groups).
    ///
    /// # Errors
    /// The first error of any lane group.
    pub fn run_stats(
        &self,
        stage: Stage,
        inputs: &Inputs,
        config: &Config,
        invocations: &[Invocation],
    ) -> Result<(Vec<InvocationResult>, RunStats)> {
        let mut out = Vec::with_capacity(invocations.len());
        let mut stats = RunStats::default();
        if stage == Stage::Pixel {
            for q in invocations.chunks(4) {
                let mut lanes = q.to_vec();
                while lanes.len() < 4 {
                    lanes.push(Invocation { gprs: Vec::new(), invalid: true });
                }
                let (r, s) = self.run_group_stats(inputs, config, &lanes, true)?;
                stats += s;
                out.extend(r.into_iter().take(q.len()));
            }
        } else {
            for inv in invocations {
                let (r, s) = self.run_group_stats(inputs, config, std::slice::from_ref(inv), false)?;
                stats += s;
                out.extend(r);
            }
        }
        Ok((out, stats))
    }
}

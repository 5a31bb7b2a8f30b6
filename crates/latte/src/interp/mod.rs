//! The Latte reference interpreter: runs decoded vertex, pixel and geometry programs on the
//! CPU, lane group by lane group, following docs/specs/latte-semantics-facts.md section by
//! section. GPRs are 32-bit bit patterns; each VLIW group reads every operand before it writes
//! (§2.2); control flow keeps the per-lane state and the stack of §2.3-§2.5. Decisions on the
//! open questions of §6 are in docs/latte-interp.md, each in one place in the code.
//!
//! - [`state`]: inputs, limits, per-invocation results;
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
mod ops;
pub mod state;
pub mod tex;

pub use error::{At, InterpError, Result};
pub use state::{
    Buffer, Config, Export, ExportKind, FaultInjection, GsEvent, Inputs, Invocation, InvocationResult, LaneState,
    MemWrite, Stage, DEFAULT_LOOP_CONST, NUM_GPRS,
};
pub use tex::{CpuTextures, Sampler, TexRequest, Texture2d, Textures, Wrap};

use crate::isa::program::ClauseBody;
use crate::isa::Program;
use state::Lane;

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
        };
        m.run()?;
        Ok(m.lanes
            .into_iter()
            .map(|l| {
                let mut r = l.result;
                r.gprs = l.gpr;
                r
            })
            .collect())
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
        let mut out = Vec::with_capacity(invocations.len());
        if stage == Stage::Pixel {
            for q in invocations.chunks(4) {
                let mut lanes = q.to_vec();
                while lanes.len() < 4 {
                    lanes.push(Invocation { gprs: Vec::new(), invalid: true });
                }
                let r = self.run_group(inputs, config, &lanes, true)?;
                out.extend(r.into_iter().take(q.len()));
            }
        } else {
            for inv in invocations {
                out.extend(self.run_group(inputs, config, std::slice::from_ref(inv), false)?);
            }
        }
        Ok(out)
    }
}

//! Control flow per lane group with the active-mask stack of latte-semantics-facts.md
//! §2.3-§2.5: PUSH/POP/ELSE/JUMP with POP_COUNT, the ALU_* stack forms, DX9 and DX10 loops with
//! break and continue, CALL/RETURN, KILL, and the step budget (docs/latte-interp.md).

use super::error::{unsupported, At, InterpError, Result};
use super::state::{Config, GsEvent, Inputs, Lane, LaneState, DEFAULT_LOOP_CONST};
use crate::isa::program::ClauseBody;
use crate::isa::{CfInst, CfNormal, Program};

/// A loop frame (facts §2.3 "Loops").
#[derive(Clone, Debug)]
pub(crate) struct LoopFrame {
    states: Vec<LaneState>,
    /// Iterations left (DX9 LOOP_START / LOOP_START_NO_AL); `None` for DX10 loops.
    counter: Option<u32>,
    inc: i32,
    saved_al: i32,
    sets_al: bool,
}

/// One entry of the stack (pushes, loop frames and return addresses share it, §2.3).
#[derive(Clone, Debug)]
pub(crate) enum Entry {
    Push(Vec<LaneState>),
    Loop(LoopFrame),
    Call(usize),
}

/// The machine running one lane group through one program.
pub(crate) struct Machine<'a> {
    pub prog: &'a Program,
    pub clause_of: &'a [Option<usize>],
    pub numbers: &'a [usize],
    pub inputs: &'a Inputs,
    pub config: Config,
    pub lanes: Vec<Lane>,
    pub stack: Vec<Entry>,
    /// The loop index aL (uniform over the group).
    pub al: i32,
    pub steps: u64,
    /// Lanes form 2x2 quads (pixel programs).
    pub quads: bool,
    /// Steps by kind, for [`super::RunStats`].
    pub stats: super::RunStats,
}

enum Flow {
    Next(usize),
    End,
}

impl<'a> Machine<'a> {
    /// Counts one step; errors when the budget is spent.
    pub(crate) fn step(&mut self, at: At) -> Result<()> {
        self.steps += 1;
        match at {
            At::Cf(_) => self.stats.cf += 1,
            At::Alu { .. } => self.stats.alu_groups += 1,
            At::Fetch { .. } => self.stats.fetches += 1,
        }
        if self.steps > self.config.step_budget {
            return Err(InterpError::StepBudget { at, budget: self.config.step_budget });
        }
        Ok(())
    }

    /// Lanes that execute an instruction: active ones (and valid ones, under
    /// VALID_PIXEL_MODE); under WHOLE_QUAD_MODE a quad runs whole if one lane runs (§2.7).
    pub(crate) fn run_mask(&self, wqm: bool, vpm: bool) -> Vec<bool> {
        let mut m: Vec<bool> = self.lanes.iter().map(|l| l.active() && (!vpm || l.valid)).collect();
        if wqm && self.quads {
            for q in m.chunks_mut(4) {
                if q.iter().any(|&b| b) {
                    q.iter_mut().for_each(|b| *b = true);
                }
            }
        }
        m
    }

    fn any_active(&self) -> bool {
        self.lanes.iter().any(|l| l.active())
    }

    fn states(&self) -> Vec<LaneState> {
        self.lanes.iter().map(|l| l.state).collect()
    }

    /// COND (§2.3): 0 active, 1 always false, 2/3 boolean constant CF_CONST set / clear.
    fn cond(&self, n: &CfNormal) -> bool {
        let b = self.inputs.bool_consts >> (n.cf_const & 31) & 1 == 1;
        match n.cond {
            0 => true,
            1 => false,
            2 => b,
            _ => !b,
        }
    }

    fn push_entry(&mut self, e: Entry, at: At) -> Result<()> {
        if self.stack.len() >= self.config.stack_limit {
            return Err(InterpError::StackOverflow { at, limit: self.config.stack_limit });
        }
        self.stack.push(e);
        Ok(())
    }

    /// POP `n`: restore the state saved by the deepest entry popped. A lane inactive by break
    /// or continue stays so until its loop ends (§2.3); with VALID_PIXEL_MODE invalid lanes are
    /// deactivated after the restore (§2.7).
    fn pop(&mut self, n: u8, vpm: bool, at: At) -> Result<()> {
        let mut last = None;
        for _ in 0..n {
            match self.stack.pop() {
                Some(Entry::Push(s)) => last = Some(s),
                Some(_) => {
                    return Err(InterpError::StackUnderflow { at, what: "POP reached a loop or call frame".into() })
                }
                None => return Err(InterpError::StackUnderflow { at, what: format!("POP {n} on a shorter stack") }),
            }
        }
        if let Some(saved) = last {
            for (lane, s) in self.lanes.iter_mut().zip(saved) {
                let keep = matches!(lane.state, LaneState::InactiveBreak | LaneState::InactiveContinue)
                    && s == LaneState::Active;
                if !keep {
                    lane.state = s;
                }
            }
        }
        if vpm {
            for lane in &mut self.lanes {
                if !lane.valid && lane.active() {
                    lane.state = LaneState::InactiveBranch;
                }
            }
        }
        Ok(())
    }

    /// ELSE relative to `saved` (the state at the last surviving push): lanes active there
    /// swap Active and Inactive-branch, the latter only when COND passes (§2.3).
    fn else_swap(&mut self, saved: &[LaneState], cond: bool) {
        for (lane, s) in self.lanes.iter_mut().zip(saved) {
            if *s != LaneState::Active {
                continue;
            }
            lane.state = match lane.state {
                LaneState::Active => LaneState::InactiveBranch,
                LaneState::InactiveBranch if cond => LaneState::Active,
                other => other,
            };
        }
    }

    fn top_states(&self, below: usize, at: At) -> Result<Vec<LaneState>> {
        let k = self.stack.len().checked_sub(1 + below);
        match k.map(|k| &self.stack[k]) {
            Some(Entry::Push(s)) => Ok(s.clone()),
            Some(Entry::Loop(f)) => Ok(f.states.clone()),
            Some(Entry::Call(_)) | None if below > 0 => Ok(vec![LaneState::Active; self.lanes.len()]),
            _ => Err(InterpError::StackUnderflow { at, what: "ELSE without a push".into() }),
        }
    }

    /// Jump rule of JUMP / ELSE / PUSH (§2.3, open question §6.1): POP_COUNT applies only when
    /// the jump is taken.
    fn jump_if_none_active(&mut self, n: &CfNormal, pc: usize, at: At) -> Result<Flow> {
        if self.any_active() {
            return Ok(Flow::Next(pc + 1));
        }
        self.pop(n.pop_count, n.valid_pixel_mode, at)?;
        Ok(Flow::Next(n.addr as usize))
    }

    fn clause_body(&self, pc: usize) -> Result<(&'a ClauseBody, usize)> {
        let prog: &'a Program = self.prog;
        match self.clause_of.get(pc).copied().flatten() {
            Some(ci) => Ok((&prog.clauses[ci].body, self.numbers[ci])),
            None => Err(InterpError::Invalid { at: At::Cf(pc), what: "no clause decoded for this CF".into() }),
        }
    }

    /// Runs the lane group to the end of the program.
    pub(crate) fn run(&mut self) -> Result<()> {
        let mut pc = 0usize;
        loop {
            let len = self.prog.cf.len();
            let inst = *self.prog.cf.get(pc).ok_or(InterpError::PcOutOfRange { pc, len })?;
            let at = At::Cf(pc);
            self.step(at)?;
            let flow = match &inst {
                CfInst::Alu(a) => {
                    let on_fail = match a.op {
                        8..=11 | 15 => LaneState::InactiveBranch,
                        13 => LaneState::InactiveContinue,
                        14 => LaneState::InactiveBreak,
                        op => return unsupported(at, format!("CF_ALU opcode {op} ({})", inst.name())),
                    };
                    if a.op == 9 {
                        self.push_entry(Entry::Push(self.states()), at)?;
                    }
                    if self.run_mask(a.whole_quad_mode, false).contains(&true) {
                        let (body, base) = self.clause_body(pc)?;
                        let ClauseBody::Alu(groups) = body else {
                            return Err(InterpError::Invalid { at, what: "ALU CF with a fetch clause".into() });
                        };
                        self.run_alu(pc, a, groups, base, on_fail)?;
                    }
                    match a.op {
                        10 => self.pop(1, false, at)?,
                        11 => self.pop(2, false, at)?,
                        15 => {
                            let saved = self.top_states(0, at)?;
                            self.else_swap(&saved, true);
                        }
                        _ => {}
                    }
                    Flow::Next(pc + 1)
                }
                CfInst::Export(e) => {
                    self.export(pc, e)?;
                    Flow::Next(pc + 1)
                }
                CfInst::Normal(n) => self.cf_normal(pc, n, &inst)?,
            };
            match flow {
                Flow::End => break,
                Flow::Next(_) if inst.end_of_program() => break,
                Flow::Next(p) => pc = p,
            }
        }
        Ok(())
    }

    fn cf_normal(&mut self, pc: usize, n: &CfNormal, inst: &CfInst) -> Result<Flow> {
        let at = At::Cf(pc);
        let cond = self.cond(n);
        let next = Flow::Next(pc + 1);
        Ok(match n.op {
            0x00 | 0x1A => next,
            0x01 | 0x02 | 0x03 | 0x1B | 0x1C | 0x1D => {
                let run = self.run_mask(n.whole_quad_mode, n.valid_pixel_mode);
                if run.contains(&true) {
                    let (body, base) = self.clause_body(pc)?;
                    let ClauseBody::Fetch(fetches) = body else {
                        return Err(InterpError::Invalid { at, what: "fetch CF with an ALU clause".into() });
                    };
                    self.run_fetch(pc, fetches, base, &run)?;
                }
                next
            }
            // LOOP_START (DX9), LOOP_START_DX10, LOOP_START_NO_AL.
            0x04 | 0x06 | 0x07 => {
                let dx9 = n.op != 0x06;
                let c = self.inputs.loop_consts.get(&n.cf_const).copied().unwrap_or(DEFAULT_LOOP_CONST);
                let (count, init, inc) = (c & 0xFFF, (c >> 12 & 0xFFF) as i32, (c >> 24) as u8 as i8 as i32);
                if !self.any_active() || (dx9 && count == 0) {
                    return Ok(Flow::Next(n.addr as usize));
                }
                let sets_al = n.op == 0x04;
                let frame =
                    LoopFrame { states: self.states(), counter: dx9.then_some(count), inc, saved_al: self.al, sets_al };
                self.push_entry(Entry::Loop(frame), at)?;
                if sets_al {
                    self.al = init;
                }
                next
            }
            0x05 => {
                let Some(k) = self.stack.iter().rposition(|e| matches!(e, Entry::Loop(_))) else {
                    return Err(InterpError::StackUnderflow { at, what: "LOOP_END outside a loop".into() });
                };
                self.stack.truncate(k + 1);
                for lane in &mut self.lanes {
                    if lane.state == LaneState::InactiveContinue {
                        lane.state = LaneState::Active;
                    }
                }
                let Some(Entry::Loop(frame)) = self.stack.last_mut() else { unreachable_frame(at)? };
                if let Some(c) = &mut frame.counter {
                    *c = c.saturating_sub(1);
                }
                let more = frame.counter != Some(0);
                if frame.sets_al {
                    self.al = self.al.wrapping_add(frame.inc);
                }
                if more && self.lanes.iter().any(|l| l.active()) {
                    Flow::Next(n.addr as usize)
                } else {
                    let Some(Entry::Loop(frame)) = self.stack.pop() else { unreachable_frame(at)? };
                    for (lane, s) in self.lanes.iter_mut().zip(frame.states) {
                        lane.state = s;
                    }
                    if frame.sets_al {
                        self.al = frame.saved_al;
                    }
                    next
                }
            }
            // LOOP_CONTINUE / LOOP_BREAK.
            0x08 | 0x09 => {
                if !self.stack.iter().any(|e| matches!(e, Entry::Loop(_))) {
                    return Err(InterpError::StackUnderflow { at, what: format!("{} outside a loop", inst.name()) });
                }
                let to = if n.op == 0x08 { LaneState::InactiveContinue } else { LaneState::InactiveBreak };
                for lane in &mut self.lanes {
                    if lane.active() && cond {
                        lane.state = to;
                    }
                }
                // The jump to LOOP_END is taken only when no lane can run again before it: none
                // is active, and none is Inactive-branch by a push inside this loop (a POP on
                // the way would wake it; decision for divergent lanes, docs/latte-interp.md).
                let at_start = match self.stack.iter().rev().find(|e| matches!(e, Entry::Loop(_))) {
                    Some(Entry::Loop(f)) => f.states.clone(),
                    _ => Vec::new(),
                };
                let can_wake = self
                    .lanes
                    .iter()
                    .zip(&at_start)
                    .any(|(l, s)| l.active() || (l.state == LaneState::InactiveBranch && *s == LaneState::Active));
                if can_wake {
                    next
                } else {
                    Flow::Next(n.addr as usize)
                }
            }
            0x0A => {
                if self.any_active() && cond {
                    next
                } else {
                    self.pop(n.pop_count, n.valid_pixel_mode, at)?;
                    Flow::Next(n.addr as usize)
                }
            }
            0x0B => self.push(n, pc, cond, at)?,
            0x0C => self.push_else(n, pc, cond, at)?,
            // POP_JUMP, POP_PUSH, POP_PUSH_ELSE (facts §1.6; R600 forms Mesa's R700 code never
            // emits): POP_COUNT entries are popped first, always, then the instruction acts as
            // JUMP (without a second pop), PUSH or PUSH_ELSE (decision, docs/latte-interp.md).
            0x0F..=0x11 => {
                self.pop(n.pop_count, n.valid_pixel_mode, at)?;
                let rest = CfNormal { pop_count: 0, ..*n };
                match n.op {
                    0x0F if !(self.any_active() && cond) => Flow::Next(n.addr as usize),
                    0x0F => next,
                    0x10 => self.push(&rest, pc, cond, at)?,
                    _ => self.push_else(&rest, pc, cond, at)?,
                }
            }
            0x0D => {
                let saved = self.top_states(0, at)?;
                self.else_swap(&saved, cond);
                self.jump_if_none_active(n, pc, at)?
            }
            0x0E => {
                self.pop(n.pop_count, n.valid_pixel_mode, at)?;
                next
            }
            0x12 => {
                if self.any_active() && cond {
                    self.push_entry(Entry::Call(pc + 1), at)?;
                    Flow::Next(n.addr as usize)
                } else {
                    next
                }
            }
            // CALL_FS: the fetch shader is the host's (attributes come as initial GPRs,
            // decision), so the call does nothing.
            0x13 => next,
            0x14 => match self.stack.iter().rposition(|e| matches!(e, Entry::Call(_))) {
                Some(k) => {
                    let Entry::Call(ret) = self.stack[k] else { unreachable_frame(at)? };
                    self.stack.truncate(k);
                    Flow::Next(ret)
                }
                // RETURN outside a call ends the program (a fetch shader run on its own).
                None => Flow::End,
            },
            0x15..=0x17 => {
                let ev = [GsEvent::Emit, GsEvent::EmitCut, GsEvent::Cut][(n.op - 0x15) as usize];
                for lane in &mut self.lanes {
                    if lane.active() {
                        let k = lane.result.mem_writes.len();
                        lane.result.gs_events.push((ev, k));
                    }
                }
                next
            }
            0x18 => {
                for lane in &mut self.lanes {
                    if lane.active() && cond {
                        lane.valid = false;
                        lane.result.killed = true;
                    }
                }
                next
            }
            0x19 => Flow::End,
            _ => return unsupported(at, format!("CF opcode {}", inst.name())),
        })
    }

    /// PUSH (§2.3): lanes failing COND become Inactive-branch; when every lane fails nothing
    /// is pushed, the states stay, POP_COUNT entries are popped and the jump is taken.
    fn push(&mut self, n: &CfNormal, pc: usize, cond: bool, at: At) -> Result<Flow> {
        let saved = self.states();
        for lane in &mut self.lanes {
            if lane.active() && !cond {
                lane.state = LaneState::InactiveBranch;
            }
        }
        if self.any_active() {
            self.push_entry(Entry::Push(saved), at)?;
            Ok(Flow::Next(pc + 1))
        } else {
            // Every lane fails: nothing is pushed and the states stay (decision).
            for (lane, s) in self.lanes.iter_mut().zip(saved) {
                lane.state = s;
            }
            self.pop(n.pop_count, n.valid_pixel_mode, at)?;
            Ok(Flow::Next(n.addr as usize))
        }
    }

    /// PUSH_ELSE: push, then ELSE relative to the entry below the new one (decision).
    fn push_else(&mut self, n: &CfNormal, pc: usize, cond: bool, at: At) -> Result<Flow> {
        self.push_entry(Entry::Push(self.states()), at)?;
        let saved = self.top_states(1, at)?;
        self.else_swap(&saved, cond);
        self.jump_if_none_active(n, pc, at)
    }
}

fn unreachable_frame<T>(at: At) -> Result<T> {
    Err(InterpError::Invalid { at, what: "internal: stack frame vanished".into() })
}

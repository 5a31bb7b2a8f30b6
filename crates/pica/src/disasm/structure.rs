//! Control flow as picasso writes it: procedures (`.proc` ... `.end`) for the DVLE entry points
//! and every CALL target, IF blocks with `.else`, FOR loops, and labels for jump targets.
//!
//! picasso encodes (source/picasso_assembler.cpp, `.else`/`.end` directives): IFU/IFC at `p`
//! with `.else` at `e` and `.end` at `n`: DST = e, NUM = n - e (no `.else`: DST = n, NUM = 0);
//! LOOP: DST = last instruction of the body, NUM = 0; CALL/CALLC/CALLU: DST and NUM = start
//! and size of the procedure; JMPC/JMPU: DST = the label. Blocks nest on one stack, so every
//! block, procedure included, must nest inside the region (then-part, else-part, body) that
//! encloses it. Anything else is reported and the program is printed flat.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::instr::Targets;
use crate::isa::{Flow, Instruction, Operands};
use crate::shbin::Dvle;

/// A procedure: `[start, end)` and its name.
#[derive(Clone, Debug)]
pub(crate) struct Proc {
    pub start: u32,
    pub end: u32,
    pub name: String,
}

/// Procedures and labels of a program.
#[derive(Default)]
pub(crate) struct Layout {
    /// Sorted by start, longest first (outer before inner).
    pub procs: Vec<Proc>,
    names: HashMap<(u32, u32), String>,
    pub labels: BTreeMap<u32, String>,
    /// Entry procedure name of each DVLE.
    pub entries: Vec<String>,
}

impl Targets for Layout {
    fn proc_name(&self, dst: u32, num: u32) -> Option<&str> {
        self.names.get(&(dst, num)).map(String::as_str)
    }
    fn label_name(&self, dst: u32) -> Option<&str> {
        self.labels.get(&dst).map(String::as_str)
    }
}

/// DST and NUM of a flow instruction of kind `flow`.
fn flow_fields(ins: &Instruction, flow: Flow) -> Option<(u32, u32)> {
    match ins.operands {
        Operands::Flow { dst, num, .. } | Operands::Uniform { dst, num, .. } if ins.opcode.flow() == flow => {
            Some((dst as u32, num as u32))
        }
        _ => None,
    }
}

/// The (start, size) of a procedure called by `ins`.
fn call_target(ins: &Instruction) -> Option<(u32, u32)> {
    flow_fields(ins, Flow::Call)
}

/// The label a jump goes to.
pub(crate) fn jump_target(ins: &Instruction) -> Option<u32> {
    flow_fields(ins, Flow::Jump).map(|(dst, _)| dst)
}

/// Names the entry points (`main`, `main1`, ...), the called procedures (`proc_START`, or
/// `proc_START_SIZE` when several share a start) and the jump targets (`label_POS`).
pub(crate) fn layout(code: &[Instruction], dvles: &[Dvle]) -> Layout {
    let mut out = Layout::default();
    let mut keys: Vec<(u32, u32)> = Vec::new();
    // Membership of `keys`, so a program full of calls stays linear.
    let mut seen: HashSet<(u32, u32)> = HashSet::new();
    for (i, d) in dvles.iter().enumerate() {
        let key = (d.main, d.endmain.saturating_sub(d.main));
        let name = match out.names.get(&key) {
            Some(n) => n.clone(),
            None => {
                let n = if i == 0 { "main".to_string() } else { format!("main{i}") };
                out.names.insert(key, n.clone());
                keys.push(key);
                seen.insert(key);
                n
            }
        };
        out.entries.push(name);
    }
    let calls: Vec<(u32, u32)> = code.iter().filter_map(call_target).collect();
    for &key in &calls {
        if seen.insert(key) {
            keys.push(key);
        }
    }
    let mut per_start: HashMap<u32, usize> = HashMap::new();
    for k in &keys {
        *per_start.entry(k.0).or_default() += 1;
    }
    for &key in &keys {
        out.names.entry(key).or_insert_with(|| {
            if per_start[&key.0] > 1 {
                format!("proc_{}_{}", key.0, key.1)
            } else {
                format!("proc_{}", key.0)
            }
        });
    }
    out.procs = keys
        .iter()
        .map(|&(start, size)| Proc { start, end: start.saturating_add(size), name: out.names[&(start, size)].clone() })
        .collect();
    out.procs.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    for ins in code {
        if let Some(dst) = jump_target(ins) {
            out.labels.insert(dst, format!("label_{dst}"));
        }
    }
    out
}

/// An open block while printing.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Open {
    Proc { start: u32, end: u32 },
    If { pos: u32, split: u32, end: u32, in_else: bool },
    For { pos: u32, end: u32 },
}

impl Open {
    /// Where the region that is open now (procedure, then-part, else-part, loop body) ends.
    pub fn region_end(self) -> u32 {
        match self {
            Open::Proc { end, .. } | Open::For { end, .. } => end,
            Open::If { split, end, in_else, .. } => {
                if in_else {
                    end
                } else {
                    split
                }
            }
        }
    }
}

/// The block an IFU/IFC/LOOP at `pc` opens, checked against the region it must fit in.
pub(crate) fn block_of(ins: &Instruction, pc: u32, region_end: u32) -> Result<Option<Open>, String> {
    let (dst, num) = match (ins.opcode.flow(), ins.operands) {
        (Flow::If, Operands::Flow { dst, num, .. } | Operands::Uniform { dst, num, .. }) => (dst as u32, num as u32),
        (Flow::Loop, Operands::Uniform { dst, .. }) => {
            let dst = dst as u32;
            if dst <= pc || dst + 1 > region_end {
                return Err(format!(
                    "loop body {}..={dst} does not nest in the enclosing block (ends at {region_end})",
                    pc + 1
                ));
            }
            return Ok(Some(Open::For { pos: pc, end: dst + 1 }));
        }
        _ => return Ok(None),
    };
    if dst <= pc || dst + num > region_end {
        return Err(format!(
            "if block {}..{} (else at {dst}) does not nest in the enclosing block (ends at {region_end})",
            pc + 1,
            dst + num
        ));
    }
    Ok(Some(Open::If { pos: pc, split: dst, end: dst + num, in_else: false }))
}

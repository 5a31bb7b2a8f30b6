//! Which lane-wise temporaries and outputs a batch must clear before each chunk of
//! invocations (docs/pica-interp.md, "Batched execution").
//!
//! `Interpreter::run` starts every invocation with r0-r15 and o0-o15 at zero. A batch keeps one
//! register file for all its chunks, so a component that a chunk could see from the chunk before
//! must be cleared: a temporary read before it is written, an output not certainly written. From
//! the entry point the stacks are empty, so no stack can redirect the PC and the plain
//! instructions up to the first other one run in order (3dbrew "GPU/Shader Instruction Set"
//! "Control Flow"); a component written there before any read of it is defined on every path
//! after, and needs no clearing, provided the step budget lets every invocation run that far.

use super::blocks::is_plain;
use super::program::{Op, Program, Src, OUTPUT_BASE};

/// Components to clear, bit `4 * r + c` for component c (x = 0) of r`r` / o`r`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reset {
    pub temps: u64,
    pub outputs: u64,
}

/// Bit `4 * r + c` for the four components of every register of `regs` (bit r).
fn all_components(regs: u16) -> u64 {
    (0..16).filter(|r| regs & (1 << r) != 0).fold(0, |m, r| m | (0xF << (4 * r)))
}

/// The components of a temporary that `s` may read (all four swizzle selections).
fn temp_reads(s: &Src) -> u64 {
    match s.reg {
        0x10..=0x1F => s.swz.iter().fold(0, |m, &k| m | (1 << (4 * (s.reg - 0x10) as u64 + (k & 3) as u64))),
        _ => 0,
    }
}

/// The components register `dst` gets from write mask `mask` (x = bit 3), as (temps, outputs).
fn writes(dst: u8, mask: u8) -> (u64, u64) {
    let comps = (0..4).filter(|c| mask & (8 >> c) != 0).fold(0u64, |m, c| m | (1 << c));
    match dst {
        0x10..=0x1F => (comps << (4 * (dst - 0x10) as u64), 0),
        d if d >= OUTPUT_BASE => (0, comps << (4 * (d - OUTPUT_BASE) as u64)),
        _ => (0, 0),
    }
}

/// What a batch from `entry` under `step_limit` must clear before each chunk.
pub(crate) fn reset_for(program: &Program, entry: u32, step_limit: u64) -> Reset {
    let usage = program.usage;
    let mut need = Reset { temps: all_components(usage.temps), outputs: all_components(usage.outputs) };
    let ops = program.ops.get(entry as usize..).unwrap_or(&[]);
    let prefix = ops.iter().take_while(|op| is_plain(op)).count();
    if (prefix as u64) > step_limit {
        // The budget may stop an invocation inside the prefix: clear everything it names.
        return need;
    }
    let (mut read, mut written) = (0u64, 0u64);
    for op in &ops[..prefix] {
        let (srcs, dst): (&[&Src], _) = match op {
            Op::Alu { dst, mask, s1, s2, .. } => (&[s1, s2], Some((*dst, *mask))),
            Op::Mad { dst, mask, s1, s2, s3 } => (&[s1, s2, s3], Some((*dst, *mask))),
            Op::Mova { s1, .. } => (&[s1], None),
            Op::Cmp { s1, s2, .. } => (&[s1, s2], None),
            _ => (&[], None),
        };
        // Sources first: an instruction reads before it writes.
        for s in srcs {
            read |= temp_reads(s) & !written;
        }
        if let Some((dst, mask)) = dst {
            let (t, o) = writes(dst, mask);
            written |= t;
            need.outputs &= !o;
        }
    }
    need.temps &= !(written & !read);
    need
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESC: u32 = 0x0D86_C36F; // mask xyzw, identity swizzles

    fn reset(code: &[u32], limit: u64) -> Reset {
        reset_for(&Program::new(code, &[DESC, 0x0D86_C368]).unwrap(), 0, limit)
    }

    // mov r0, v0 / mov o0, r0 / mov o1, r1 / end; mov o2.x, v0 (desc 1: mask x) after END.
    const MOV_R0_V0: u32 = (0x13 << 26) | (0x10 << 21);
    const MOV_O0_R0: u32 = (0x13 << 26) | (0x10 << 12);
    const MOV_O1_R1: u32 = (0x13 << 26) | (0x01 << 21) | (0x11 << 12);
    const END: u32 = 0x8800_0000;
    const MOV_O2X_V0: u32 = (0x13 << 26) | (0x02 << 21) | 1;

    #[test]
    fn registers_written_before_read_need_no_clearing() {
        let r = reset(&[MOV_R0_V0, MOV_O0_R0, MOV_O1_R1, END, MOV_O2X_V0], 100);
        // r0 is written before it is read; r1 is read unwritten.
        assert_eq!(r.temps, 0xF0);
        // o0 and o1 are written in the prefix; o2 (x only, after END) is not.
        assert_eq!(r.outputs, 0xF00);
    }

    #[test]
    fn a_budget_inside_the_prefix_clears_everything_named() {
        let r = reset(&[MOV_R0_V0, MOV_O0_R0, MOV_O1_R1, END, MOV_O2X_V0], 2);
        assert_eq!((r.temps, r.outputs), (0xFF, 0xFFF));
    }

    #[test]
    fn an_entry_past_the_end_clears_everything_named() {
        let p = Program::new(&[MOV_O1_R1, END], &[DESC]).unwrap();
        assert_eq!(reset_for(&p, 9, 100), Reset { temps: 0xF0, outputs: 0xF0 });
    }
}

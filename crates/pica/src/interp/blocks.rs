//! The straight-line blocks of a program, found once at decode, so that both executors can
//! check the step budget once per block instead of once per instruction
//! (docs/pica-interp.md, "The step budget").
//!
//! A block ends at every instruction that is not plain arithmetic (flow, END, EMIT, SETEMIT, an
//! instruction that cannot run) and before every address control can arrive at other than by
//! running on: the targets of JMPC/JMPU, CALL*/IF* (DST), the IF and CALL stack triggers
//! (DST+NUM) and the LOOP trigger (DST+1). Returns and loop starts follow a flow instruction,
//! which ends a block anyway. The stacks compare their top entry with the incremented PC after
//! every instruction (3dbrew "GPU/Shader Instruction Set" "Control Flow"), and every trigger a
//! stack can hold is one of these static addresses, so inside a block no stack can take over
//! and the PC simply runs on: its plain instructions need neither the budget check nor the
//! stack check.

use super::program::Op;

/// Whether an instruction only computes (no control flow, no way to stop the invocation).
#[inline(always)]
pub(crate) fn is_plain(op: &Op) -> bool {
    matches!(op, Op::Alu { .. } | Op::Mad { .. } | Op::Mova { .. } | Op::Cmp { .. } | Op::Nop)
}

/// For every instruction, the number of instructions from it to the end of its block, itself
/// and the block's last instruction included (at least 1). All but the last of those are plain.
pub(crate) fn block_lengths(ops: &[Op]) -> Vec<u32> {
    let n = ops.len();
    // starts[a]: control can arrive at address a other than from a - 1 running on.
    let mut starts = vec![false; n + 1];
    let mut mark = |a: u32| {
        if let Some(s) = starts.get_mut(a as usize) {
            *s = true;
        }
    };
    for op in ops {
        match *op {
            Op::JmpC { dst, .. } | Op::JmpU { dst, .. } => mark(dst as u32),
            Op::IfC { dst, num, .. }
            | Op::IfU { dst, num, .. }
            | Op::Call { dst, num }
            | Op::CallC { dst, num, .. }
            | Op::CallU { dst, num, .. } => {
                mark(dst as u32);
                mark(dst as u32 + num as u32);
            }
            Op::Loop { dst, .. } => mark(dst as u32 + 1),
            _ => {}
        }
    }
    let mut len = vec![1u32; n];
    for i in (0..n.saturating_sub(1)).rev() {
        if is_plain(&ops[i]) && !starts[i + 1] {
            len[i] = len[i + 1] + 1;
        }
    }
    len
}

#[cfg(test)]
mod tests {
    use crate::interp::Program;

    /// The blocks of a program, as (first instruction, length).
    fn blocks(code: &[u32]) -> Vec<(usize, u32)> {
        let p = Program::new(code, &[0x0D86_C36F]).unwrap();
        let mut out = Vec::new();
        let mut i = 0;
        while i < p.blocks.len() {
            out.push((i, p.blocks[i]));
            i += p.blocks[i] as usize;
        }
        out
    }

    const MOV: u32 = 0x4C00_0000; // mov o0, v0
    const END: u32 = 0x8800_0000;
    const NOP: u32 = 0x8400_0000;

    #[test]
    fn blocks_end_at_flow_and_before_targets() {
        // 0 mov; 1 mov; 2 ifu b0, dst 5, num 2; 3 mov; 4 mov; 5 mov (else); 6 mov; 7 mov; 8 end
        let ifu = (0x27 << 26) | (5 << 10) | 2;
        let code = [MOV, MOV, ifu, MOV, MOV, MOV, MOV, MOV, END];
        // Block ends: the IFU (2); before its DST (5) and DST+NUM (7); END.
        assert_eq!(blocks(&code), [(0, 3), (3, 2), (5, 2), (7, 2)]);
    }

    #[test]
    fn loop_trigger_and_jump_targets_start_blocks() {
        // 0 loop i0, dst 2; 1 mov; 2 mov (last of the body); 3 nop; 4 jmpc dst 1; 5 mov; 6 end
        let lp = (0x29 << 26) | (2 << 10);
        let jmpc = (0x2C << 26) | (1 << 10);
        let code = [lp, MOV, MOV, NOP, jmpc, MOV, END];
        // The LOOP trigger is 3 (DST+1); the JMPC target 1 starts a block too.
        assert_eq!(blocks(&code), [(0, 1), (1, 2), (3, 2), (5, 2)]);
    }

    /// xorshift64, for reproducible random programs.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Bit patterns (NaN outputs compare as patterns).
    fn bits(regs: &[[f32; 4]]) -> Vec<[u32; 4]> {
        regs.iter().map(|v| v.map(f32::to_bits)).collect()
    }

    /// Random words, jump fields within the program, so that control goes anywhere: backward
    /// jumps and loops that only the step budget stops, calls and IFs whose ends fall anywhere,
    /// unknown opcodes and missing descriptors. Each runs with and without the blocks (all of
    /// length 1 is the check before every instruction), scalar and batched, as vertex and
    /// geometry shaders, under random step budgets: every result must be the same.
    #[test]
    fn blocks_change_no_result() {
        use crate::interp::{Interpreter, RunError, ShaderKind};
        let mut rng = 0x2545_F491_4F6C_DD1D_u64;
        // Invocations that ended, stopped at the step budget, stopped otherwise.
        let mut stopped = [0usize; 3];
        for seed in 0..5000 {
            let n = 4 + (next(&mut rng) % 60) as u32;
            let code: Vec<u32> = (0..n)
                .map(|_| {
                    if next(&mut rng).is_multiple_of(8) {
                        return END;
                    }
                    let w = next(&mut rng) as u32;
                    let (dst, num) = (next(&mut rng) as u32 % (n + 2), next(&mut rng) as u32 % 8);
                    (w & !(0xFFF << 10) & !0xFF) | (dst << 10) | num
                })
                .collect();
            let descriptors: Vec<u32> = (0..120).map(|_| next(&mut rng) as u32).collect();
            let fast = Program::new(&code, &descriptors).unwrap();
            let mut checked = fast.clone();
            checked.blocks = vec![1; checked.len()];
            let limit = if seed % 3 == 0 { 1_000 } else { next(&mut rng) % 24 };
            let kind = if seed % 4 == 0 { ShaderKind::Geometry } else { ShaderKind::Vertex };
            let mut its = [&fast, &checked].map(|p| {
                let mut it = Interpreter::new(p, kind);
                it.step_limit = limit;
                it
            });
            let mut u = its[0].uniforms();
            for c in u.float.iter_mut() {
                *c = [0; 4].map(|_| (next(&mut rng) % 9) as f32 - 4.0);
            }
            u.int = [0; 4].map(|_| [0; 4].map(|_| next(&mut rng) as u8 % 4));
            u.bools = [0; 16].map(|_| next(&mut rng) & 1 != 0);
            for it in &mut its {
                it.set_uniforms(&u);
            }
            let inputs: Vec<[[f32; 4]; 16]> =
                (0..40).map(|_| [[0; 4]; 16].map(|v| v.map(|_| (next(&mut rng) % 5) as f32 - 2.0))).collect();
            let entry = next(&mut rng) as u32 % n;
            let what = format!("seed {seed}: {code:08x?}, entry {entry}, limit {limit}");
            for input in &inputs[..3] {
                let [a, b] = its.each_mut().map(|it| {
                    let r = it.run(entry, input).map(|o| bits(&o));
                    let temps: Vec<_> = (0..16).map(|r| it.temp(r)).collect();
                    (r, it.last_steps, it.address_registers(), it.cmp_flags(), bits(&temps))
                });
                stopped[match a.0 {
                    Ok(_) => 0,
                    Err(RunError::StepLimit { .. }) => 1,
                    Err(_) => 2,
                }] += 1;
                assert_eq!(a, b, "{what}: run");
            }
            let [a, b] = its.each_mut().map(|it| {
                let mut out = vec![[[0.0; 4]; 16]; inputs.len()];
                let errors = it.run_batch(entry, &inputs, &mut out);
                let emitted: Vec<_> =
                    it.take_primitives().iter().map(|p| (p.inverted, p.vertices.map(|v| bits(&v)))).collect();
                (out.iter().map(|o| bits(o)).collect::<Vec<_>>(), errors, it.last_steps, emitted)
            });
            assert_eq!(a, b, "{what}: run_batch");
        }
        // Each ending must be common for the comparison to mean something.
        eprintln!("ended / step budget / other error: {stopped:?}");
        assert!(stopped.iter().all(|&k| k > 1000), "ended / step budget / other error: {stopped:?}");
    }

    #[test]
    fn targets_past_the_end_are_ignored() {
        let jmpu = (0x2D << 26) | (4000 << 10);
        assert_eq!(blocks(&[MOV, jmpu, MOV]), [(0, 2), (2, 1)]);
    }
}

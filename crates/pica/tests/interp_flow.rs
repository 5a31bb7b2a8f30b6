//! Control flow as 3dbrew "GPU/Shader Instruction Set" "Control Flow" describes it: stack overflow as
//! rings, the priority of stack updates, CALL multi-pop and its fourth-pop quirk, JMP after the
//! stack checks, LOOP/BREAK, and the step budget. Each program marks the blocks it runs by
//! counting in temporaries (`add rK, c0, rK` with c0 = 1) and the tests check the counts.

mod interp_common;
use interp_common::*;
use pica::interp::{Interpreter, Program, RunError, ShaderKind, Uniforms};
use pica::isa::{CondOp, Operands};

/// rK += 1.
fn mark(p: &mut Builder, k: u8) -> u16 {
    p.alu(Opcode::Add, rd(k), c(0), r(k), NONE, all())
}

fn uniforms() -> Uniforms {
    let mut u = Uniforms::default();
    u.float[0] = [1.0; 4];
    u.bools[0] = true;
    u
}

/// Runs and returns r0-r15's x components (the marks) and the interpreter's aL.
fn run_marks(p: &Builder, u: &Uniforms) -> Result<([f32; 16], i32), RunError> {
    let built = p.finish().unwrap();
    let program = Program::new(&built.code, &built.descriptor_words).unwrap();
    let mut it = Interpreter::new(&program, ShaderKind::Vertex);
    it.set_uniforms(u);
    it.run(0, &[[0.0; 4]; 16])?;
    Ok((std::array::from_fn(|i| it.temp(i)[0]), it.address_registers().2))
}

fn set_target(p: &mut Builder, at: u16, dst: u16, num: u8) {
    let operands = match p.get(at).operands {
        Operands::Flow { cond, .. } => Operands::Flow { dst, num, cond },
        Operands::Uniform { id, .. } => Operands::Uniform { dst, num, id },
        other => other,
    };
    p.patch(at, operands);
}

/// `depth` nested IFU b0 (true), each with a one-instruction else block marking r(1+level); the
/// innermost body marks r0. A NOP ends each then-block so that no two blocks end together.
fn nested_ifs(depth: u8) -> Builder {
    let mut p = Builder::new();
    let ifs: Vec<u16> = (0..depth).map(|_| p.uniform(Opcode::Ifu, 0, 0, 0)).collect();
    mark(&mut p, 0);
    for level in (0..depth).rev() {
        p.plain(Opcode::Nop);
        let else_at = p.here();
        set_target(&mut p, ifs[level as usize], else_at, 1);
        mark(&mut p, 1 + level);
    }
    p.plain(Opcode::End);
    p
}

#[test]
fn if_stack_holds_eight() {
    let (m, _) = run_marks(&nested_ifs(8), &uniforms()).unwrap();
    assert_eq!(m[0], 1.0);
    assert!(m[1..9].iter().all(|&x| x == 0.0), "no else block runs: {m:?}");
}

#[test]
fn if_stack_overflow_drops_the_oldest() {
    // The ninth push drops the outermost IF: its then-block runs into its else block.
    let (m, _) = run_marks(&nested_ifs(9), &uniforms()).unwrap();
    assert_eq!(m[0], 1.0);
    assert_eq!(m[1], 1.0, "outermost else block ran");
    assert!(m[2..10].iter().all(|&x| x == 0.0), "{m:?}");
}

/// main: `call F1; mark r0; end`, then F1..F_depth, each `call F(k+1) (or nop); mark rk; nop`,
/// then END.
fn nested_calls(depth: u8) -> Builder {
    let mut p = Builder::new();
    let main_call = p.flow(Opcode::Call, 0, 3, if_x());
    mark(&mut p, 0);
    p.plain(Opcode::End);
    let mut prev = main_call;
    for k in 1..=depth {
        let start = p.here();
        set_target(&mut p, prev, start, 3);
        prev = if k < depth { p.flow(Opcode::Call, 0, 3, if_x()) } else { p.plain(Opcode::Nop) };
        mark(&mut p, k);
        p.plain(Opcode::Nop);
    }
    p.plain(Opcode::End);
    p
}

#[test]
fn call_stack_holds_four() {
    let (m, _) = run_marks(&nested_calls(4), &uniforms()).unwrap();
    assert_eq!(&m[..5], &[1.0; 5]);
}

#[test]
fn call_stack_overflow_drops_the_oldest() {
    // Five nested calls: main's return is lost, F1 falls through into F2 at its end, and the run
    // reaches the END after the functions without coming back to main.
    let (m, _) = run_marks(&nested_calls(5), &uniforms()).unwrap();
    assert_eq!(m[0], 0.0, "main's return was dropped");
    assert_eq!(m[1], 1.0);
    // F2..F5 run once called, then again by falling through (F2 calls F3 ... again).
    assert!(m[2] >= 2.0, "{m:?}");
}

/// main: `call F1; mark r0; end`; F_k = `mark rk; call F(k+1)` (the leaf: `mark rk; nop`), each
/// call the last instruction of its caller, so all the returns line up at one PC.
fn chained_calls(depth: u8) -> Builder {
    let mut p = Builder::new();
    let mut prev = p.flow(Opcode::Call, 0, 2, if_x());
    mark(&mut p, 0);
    p.plain(Opcode::End);
    for k in 1..=depth {
        let start = p.here();
        set_target(&mut p, prev, start, 2);
        mark(&mut p, k);
        prev = if k < depth { p.flow(Opcode::Call, 0, 2, if_x()) } else { p.plain(Opcode::Nop) };
    }
    p.plain(Opcode::End);
    p
}

#[test]
fn call_stack_pops_repeatedly_in_one_step() {
    // Three returns in one step: F3 -> F2 -> F1 -> main.
    let (m, _) = run_marks(&chained_calls(3), &uniforms()).unwrap();
    assert_eq!(&m[..4], &[1.0; 4]);
}

#[test]
fn fourth_call_pop_in_a_row_misses_its_update() {
    // Four pops in a row: the fourth (back to main) is missed and the PC is the third's return,
    // the start of F2... which runs again: F2 (calls F3, F3 calls F4, two pops land on F3), F3
    // again (calls F4, one pop lands on F4), F4 again, then the END after it.
    let (m, _) = run_marks(&chained_calls(4), &uniforms()).unwrap();
    assert_eq!(&m[..5], &[0.0, 1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn loop_beats_if_when_both_end_together() {
    // 0 loop (to 3), 1 ifu b0 (then 2-3, else 4), 2 mark r0, 3 mark r1, 4 mark r2, 5 mark r3, 6 end.
    let mut p = Builder::new();
    p.uniform(Opcode::Loop, 3, 0, 0);
    p.uniform(Opcode::Ifu, 4, 1, 0);
    for k in 0..4 {
        mark(&mut p, k);
    }
    p.plain(Opcode::End);
    let mut u = uniforms();
    u.int[0] = [1, 0, 0, 0];
    let (m, _) = run_marks(&p, &u).unwrap();
    // Both iterations run the then-block; the IF's jump past the else block is lost to the LOOP
    // each time (a loop-back the first time, the loop exit the second), so the else block runs.
    assert_eq!(&m[..4], &[2.0, 2.0, 1.0, 1.0]);
}

#[test]
fn if_beats_call_when_both_end_together() {
    // 0 call 3 (3-5), 1 mark r0, 2 end, 3 ifu b0 (then 4-5, else 6), 4 mark r1, 5 mark r2,
    // 6 mark r3, 7 mark r4, 8 end.
    let mut p = Builder::new();
    p.flow(Opcode::Call, 3, 3, if_x());
    mark(&mut p, 0);
    p.plain(Opcode::End);
    p.uniform(Opcode::Ifu, 6, 1, 0);
    for k in 1..5 {
        mark(&mut p, k);
    }
    p.plain(Opcode::End);
    let (m, _) = run_marks(&p, &uniforms()).unwrap();
    // The IF's target (7) wins over the CALL's return (1); the call entry is popped anyway.
    assert_eq!(&m[..5], &[0.0, 1.0, 1.0, 0.0, 1.0]);
}

/// 0 call 3 (3-4), 1 mark r0, 2 end, 3 `jmpu` or mark, 4 `jmpu` or nop, 5 end, 6 mark r2, 7 end.
fn jump_in_call(jump_last: bool) -> Builder {
    let mut p = Builder::new();
    p.flow(Opcode::Call, 3, 2, if_x());
    mark(&mut p, 0);
    p.plain(Opcode::End);
    if jump_last {
        mark(&mut p, 1);
        p.uniform(Opcode::Jmpu, 6, 0, 0);
    } else {
        p.uniform(Opcode::Jmpu, 6, 0, 0);
        mark(&mut p, 1);
    }
    p.plain(Opcode::End);
    mark(&mut p, 2);
    p.plain(Opcode::End);
    p
}

#[test]
fn jmp_applies_only_when_no_stack_popped() {
    let (m, _) = run_marks(&jump_in_call(true), &uniforms()).unwrap();
    assert_eq!(&m[..3], &[1.0, 1.0, 0.0], "the return wins over the JMPU at the end of the call");
    let (m, _) = run_marks(&jump_in_call(false), &uniforms()).unwrap();
    assert_eq!(&m[..3], &[0.0, 0.0, 1.0], "control: a JMPU inside the body jumps");
}

#[test]
fn jmpu_num_bit_0_inverts() {
    for (b0, invert, jumps) in [(true, false, true), (false, false, false), (false, true, true), (true, true, false)] {
        let mut p = Builder::new();
        p.uniform(Opcode::Jmpu, 2, invert as u8, 0);
        mark(&mut p, 0);
        p.plain(Opcode::End);
        let mut u = uniforms();
        u.bools[0] = b0;
        let (m, _) = run_marks(&p, &u).unwrap();
        assert_eq!(m[0], if jumps { 0.0 } else { 1.0 }, "b0={b0} invert={invert}");
    }
}

/// `depth` nested loops on i0 = (1, 0, 0) (two iterations each); each body ends with a mark of its
/// level, the innermost body marks r9.
fn nested_loops(depth: u8) -> Builder {
    let mut p = Builder::new();
    let loops: Vec<u16> = (0..depth).map(|_| p.uniform(Opcode::Loop, 0, 0, 0)).collect();
    mark(&mut p, 9);
    for level in (0..depth).rev() {
        let end = mark(&mut p, level);
        set_target(&mut p, loops[level as usize], end, 0);
    }
    p.plain(Opcode::End);
    p
}

#[test]
fn loop_stack_holds_four() {
    let mut u = uniforms();
    u.int[0] = [1, 0, 0, 0];
    let (m, _) = run_marks(&nested_loops(4), &u).unwrap();
    assert_eq!(m[9], 16.0);
    assert_eq!(&m[..4], &[2.0, 4.0, 8.0, 16.0]);
}

#[test]
fn loop_stack_overflow_drops_the_oldest() {
    let mut u = uniforms();
    u.int[0] = [1, 0, 0, 0];
    let (m, _) = run_marks(&nested_loops(5), &u).unwrap();
    assert_eq!(m[0], 1.0, "the outermost loop lost its entry and ran once");
    assert_eq!(&m[1..5], &[2.0, 4.0, 8.0, 16.0]);
}

/// The nested-loop cases of Citra's shader tests: `loop i0 { loop i1 { add } }`; iterations are
/// (x0+1)(x1+1) and aL ends as y + (x+1)z of the outer loop (specs/pica200-facts.md).
#[test]
fn nested_loops_count_and_final_al() {
    for (x0, z0) in [(4u8, 1u8), (4, 2), (9, 1), (9, 2)] {
        for x1 in [4u8, 7] {
            let mut p = Builder::new();
            p.uniform(Opcode::Loop, 3, 0, 0);
            p.uniform(Opcode::Loop, 2, 0, 1);
            mark(&mut p, 0);
            p.plain(Opcode::Nop);
            p.plain(Opcode::End);
            let mut u = uniforms();
            u.int[0] = [x0, 0, z0, 0];
            u.int[1] = [x1, 0, 1, 0];
            let (m, al) = run_marks(&p, &u).unwrap();
            assert_eq!(m[0], ((x0 as u32 + 1) * (x1 as u32 + 1)) as f32);
            assert_eq!(al, (x0 as i32 + 1) * z0 as i32);
        }
    }
}

#[test]
fn loop_counter_starts_at_y_and_steps_by_z() {
    // o0 = sum of aL over the iterations, read as c[aL] with c_i = i.
    let mut p = Builder::new();
    p.uniform(Opcode::Loop, 1, 0, 2);
    p.alu(Opcode::Add, rd(0), c(0), r(0), pica::isa::AddrIndex::AL, all());
    p.plain(Opcode::End);
    let mut u = Uniforms::default();
    for (i, c) in u.float.iter_mut().enumerate() {
        *c = [i as f32; 4];
    }
    u.int[2] = [3, 7, 5, 0]; // aL = 7, 12, 17, 22
    let (m, al) = run_marks(&p, &u).unwrap();
    assert_eq!(m[0], 58.0);
    assert_eq!(al, 27, "aL stays readable after the loop: y + (x+1)z");
}

#[test]
fn break_leaves_the_loop_and_breakc_tests_the_condition() {
    // loop i0 (x = 9) { mark r0; cmp r0 == c1(3) ; breakc cmp.x ; mark r1 } ; mark r2
    let mut p = Builder::new();
    p.uniform(Opcode::Loop, 5, 0, 0);
    mark(&mut p, 0);
    p.unary(Opcode::Mov, rd(5), c(1), NONE, all());
    p.cmp(r(0), r(5), NONE, EQ, EQ, all());
    p.flow(Opcode::Breakc, 0, 0, cond(CondOp::X, true, false));
    mark(&mut p, 1);
    mark(&mut p, 2);
    p.plain(Opcode::End);
    let mut u = uniforms();
    u.float[1] = [3.0; 4];
    u.int[0] = [9, 0, 0, 0];
    let (m, _) = run_marks(&p, &u).unwrap();
    assert_eq!(&m[..3], &[3.0, 2.0, 1.0]);
}

#[test]
fn break_on_an_empty_loop_stack_is_an_error() {
    let mut p = Builder::new();
    p.plain(Opcode::Nop);
    p.plain(Opcode::Break);
    p.plain(Opcode::End);
    assert_eq!(run_marks(&p, &uniforms()).unwrap_err(), RunError::BreakOutsideLoop { pc: 1 });
}

#[test]
fn runaway_programs_hit_the_step_budget() {
    let mut p = Builder::new();
    p.plain(Opcode::Nop);
    p.uniform(Opcode::Jmpu, 0, 0, 0);
    let err = run_marks(&p, &uniforms()).unwrap_err();
    assert!(matches!(err, RunError::StepLimit { limit: 1_000_000, .. }), "{err}");
}

#[test]
fn running_off_the_end_is_an_error() {
    let mut p = Builder::new();
    p.plain(Opcode::Nop);
    assert_eq!(run_marks(&p, &uniforms()).unwrap_err(), RunError::RanOffEnd { pc: 1, len: 1 });
}

#[test]
fn conditions_combine_as_the_isa_page_says() {
    // Citra's "Conditional" cases: IFC with each CONDOP against every cmp/ref combination.
    for op in [CondOp::Or, CondOp::And, CondOp::X, CondOp::Y] {
        for bits in 0..16u8 {
            let (cx, cy, rx, ry) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0, bits & 8 != 0);
            // cmp c2, c3 (eq, eq) sets cmp.x = cx, cmp.y = cy through the values.
            let mut p = Builder::new();
            p.unary(Opcode::Mov, rd(5), c(3), NONE, all());
            p.cmp(c(2), r(5), NONE, EQ, EQ, all());
            p.flow(Opcode::Ifc, 4, 1, cond(op, rx, ry));
            mark(&mut p, 0);
            mark(&mut p, 1);
            p.plain(Opcode::End);
            let mut u = uniforms();
            u.float[2] = [0.0, 0.0, 0.0, 0.0];
            u.float[3] = [if cx { 0.0 } else { 1.0 }, if cy { 0.0 } else { 1.0 }, 0.0, 0.0];
            let (m, _) = run_marks(&p, &u).unwrap();
            let (x, y) = (cx == rx, cy == ry);
            let want = match op {
                CondOp::Or => x || y,
                CondOp::And => x && y,
                CondOp::X => x,
                CondOp::Y => y,
            };
            assert_eq!((m[0], m[1]), if want { (1.0, 0.0) } else { (0.0, 1.0) }, "{op:?} {bits:04b}");
        }
    }
}

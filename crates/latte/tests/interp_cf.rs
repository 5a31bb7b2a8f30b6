//! Control-flow facts of docs/specs/latte-semantics-facts.md §2.3-§2.7, one test each: the
//! stack instructions, the POP_COUNT decision, loops with break and continue, calls, KILL,
//! the exec-mask timing, quads and derivatives, the step budget and errors.

mod interp;
use interp::*;
use latte::interp::{At, Config, Inputs, InterpError, Invocation, Stage, Vm};

/// A quad whose lanes have R0 = `r0[i]`.
fn quad(r0: [[f32; 2]; 4]) -> Vec<Invocation> {
    r0.iter().map(|v| inv(&[(0, [fb(v[0]), fb(v[1]), 0, 0])])).collect()
}

fn quad_int(r0: [[u32; 2]; 4]) -> Vec<Invocation> {
    r0.iter().map(|v| inv(&[(0, [v[0], v[1], 0, 0])])).collect()
}

fn r1(text: &str, invs: &[Invocation]) -> Vec<[u32; 4]> {
    run(text, Stage::Pixel, &Inputs::default(), invs).iter().map(|r| r.gprs[1]).collect()
}

const IF: &str = "00 ALU_PUSH_BEFORE:\n0 x: PRED_SETGT R127.x, R0.x, IMM_0.x UPDATE_EXEC_MASK UPDATE_PRED NO_WRITE\n";

/// §2.3: ALU_PUSH_BEFORE pushes, the PRED_SET deactivates failing lanes, JUMP skips when none
/// passes (popping POP_COUNT), ALU_POP_AFTER pops.
#[test]
fn alu_push_before_jump_and_pop_after() {
    let text = format!(
        "{IF}01 JUMP ADDR(3) POP_CNT(1)\n02 ALU_POP_AFTER:\n1 x: MOV R1.x, IMM_1.x\n03 ALU:\n2 y: MOV R1.y, IMM_1.x\nEND_OF_PROGRAM\n"
    );
    let r = r1(&text, &quad([[1.0, 0.0], [-1.0, 0.0], [2.0, 0.0], [0.0, 0.0]]));
    assert_eq!(
        r.iter().map(|g| (g[0], g[1])).collect::<Vec<_>>(),
        [(fb(1.0), fb(1.0)), (0, fb(1.0)), (fb(1.0), fb(1.0)), (0, fb(1.0))]
    );
    let r = r1(&text, &quad([[-1.0, 0.0]; 4]));
    assert!(r.iter().all(|g| g[0] == 0 && g[1] == fb(1.0)), "JUMP taken, its POP_COUNT balances the push");
}

/// §2.3 note and §6.1: Mesa's if/else shape `ALU_PUSH_BEFORE; JUMP @ELSE; then; ELSE POP:1;
/// else; ALU_POP_AFTER` runs for mixed, all-then and all-else quads: ELSE pops only when its
/// jump is taken (an ELSE that always popped would underflow at ALU_POP_AFTER).
#[test]
fn else_pop_count_applies_only_to_a_taken_jump() {
    let text = format!(
        "{IF}01 JUMP ADDR(3)\n02 ALU:\n1 x: MOV R1.x, IMM_1.x\n03 ELSE ADDR(5) POP_CNT(1)\n\
         04 ALU_POP_AFTER:\n2 x: MOV R1.x, 0x40000000\n05 ALU:\n3 y: MOV R1.y, 0x40400000\nEND_OF_PROGRAM\n"
    );
    for (xs, want) in [([1.0, -1.0, 1.0, -1.0], [1.0, 2.0, 1.0, 2.0]), ([1.0; 4], [1.0; 4]), ([-1.0; 4], [2.0; 4])] {
        let r = r1(&text, &quad(xs.map(|x| [x, 0.0])));
        assert_eq!(r.iter().map(|g| bf(g[0])).collect::<Vec<_>>(), want, "{xs:?}");
        assert!(r.iter().all(|g| g[1] == fb(3.0)), "every lane is active again after the if");
    }
}

/// §2.3: PUSH applies COND (here a boolean constant); when every lane fails it pushes nothing
/// and jumps; POP restores.
#[test]
fn push_and_pop_with_a_boolean_condition() {
    let text = "00 PUSH ADDR(3) CND(CF_BOOL) CF_CONST(2)\n01 ALU:\n0 x: MOV R1.x, IMM_1.x\n02 POP ADDR(3) POP_CNT(1)\n03 ALU:\n1 y: MOV R1.y, IMM_1.x\nEND_OF_PROGRAM\n";
    let p = latte::asm::assemble(text).unwrap().program;
    for (bools, x) in [(1u32 << 2, fb(1.0)), (0, 0)] {
        let inputs = Inputs { bool_consts: bools, ..Inputs::default() };
        let r = Vm::new(&p).run(Stage::Vertex, &inputs, &Config::default(), &[inv(&[])]).unwrap();
        assert_eq!((r[0].gprs[1][0], r[0].gprs[1][1]), (x, fb(1.0)));
    }
}

/// §2.3: nested pushes with ALU_ELSE_AFTER (ELSE after the clause) and ALU_POP2_AFTER (two pops).
#[test]
fn alu_else_after_and_pop2_after() {
    let text = format!(
        "{IF}01 ALU_PUSH_BEFORE:\n1 x: PRED_SETGT R127.x, R0.y, IMM_0.x UPDATE_EXEC_MASK NO_WRITE\n\
         02 ALU_ELSE_AFTER:\n2 x: MOV R1.x, IMM_1.x\n03 ALU_POP2_AFTER:\n3 x: MOV R1.x, 0x40000000\n\
         04 ALU:\n4 y: MOV R1.y, IMM_1.x\nEND_OF_PROGRAM\n"
    );
    let r = r1(&text, &quad([[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]]));
    assert_eq!(r.iter().map(|g| bf(g[0])).collect::<Vec<_>>(), [1.0, 2.0, 0.0, 0.0]);
    assert!(r.iter().all(|g| g[1] == fb(1.0)));
}

/// A DX10 loop in Mesa's shape (corpus t04): `i = 0; while (true) { if (i >= n) break;
/// [if (i == skip) continue;] sum += i; i++ }`, lanes with different n and skip.
fn dx10_loop(with_continue: bool) -> String {
    let brk = "02 ALU_PUSH_BEFORE:\n1 x: SETGE_INT R2.x, R1.x, R0.x\n2 x: PRED_SETNE_INT R127.x, PV1.x, IMM_0.x UPDATE_EXEC_MASK UPDATE_PRED NO_WRITE\n";
    if with_continue {
        format!(
            "00 ALU:\n0 x: MOV R1.x, IMM_0.x\n  y: MOV R1.y, IMM_0.x\n01 LOOP_START_DX10 ADDR(13)\n{brk}\
             03 JUMP ADDR(6) POP_CNT(1)\n04 LOOP_BREAK ADDR(12)\n05 POP ADDR(6) POP_CNT(1)\n\
             06 ALU:\n3 x: ADD_INT R1.x, R1.x, INT_1.x\n  y: MOV R2.y, R1.x\n\
             07 ALU_PUSH_BEFORE:\n4 x: PRED_SETE_INT R127.x, R2.y, R0.y UPDATE_EXEC_MASK UPDATE_PRED NO_WRITE\n\
             08 JUMP ADDR(11) POP_CNT(1)\n09 LOOP_CONTINUE ADDR(12)\n10 POP ADDR(11) POP_CNT(1)\n\
             11 ALU:\n5 y: ADD_INT R1.y, R1.y, R2.y\n12 LOOP_END ADDR(2)\n13 ALU:\n6 z: MOV R1.z, IMM_1.x\nEND_OF_PROGRAM\n"
        )
    } else {
        format!(
            "00 ALU:\n0 x: MOV R1.x, IMM_0.x\n  y: MOV R1.y, IMM_0.x\n01 LOOP_START_DX10 ADDR(8)\n{brk}\
             03 JUMP ADDR(6) POP_CNT(1)\n04 LOOP_BREAK ADDR(7)\n05 POP ADDR(6) POP_CNT(1)\n\
             06 ALU:\n3 x: ADD_INT R1.x, R1.x, INT_1.x\n  y: ADD_INT R1.y, R1.y, R1.x\n\
             07 LOOP_END ADDR(2)\n08 ALU:\n6 z: MOV R1.z, IMM_1.x\nEND_OF_PROGRAM\n"
        )
    }
}

/// §2.3 loops: LOOP_BREAK takes a lane out until the loop exits, across the POP between
/// it and LOOP_END; the loop ends when no lane is left; every lane is back after it.
#[test]
fn dx10_loop_break() {
    let r = r1(&dx10_loop(false), &quad_int([[0, 9], [1, 9], [3, 9], [5, 9]]));
    assert_eq!(
        r.iter().map(|g| (g[0], g[1], g[2])).collect::<Vec<_>>(),
        [(0, 0, fb(1.0)), (1, 0, fb(1.0)), (3, 3, fb(1.0)), (5, 10, fb(1.0))]
    );
}

/// §2.3 loops: LOOP_CONTINUE skips the rest of the body for a lane, which comes back at
/// LOOP_END; lanes continue on different iterations.
#[test]
fn dx10_loop_continue_with_divergent_lanes() {
    let r = r1(&dx10_loop(true), &quad_int([[0, 9], [1, 0], [3, 1], [5, 2]]));
    assert_eq!(
        r.iter().map(|g| (g[0], g[1], g[2])).collect::<Vec<_>>(),
        [(0, 0, fb(1.0)), (1, 0, fb(1.0)), (3, 2, fb(1.0)), (5, 8, fb(1.0))]
    );
    // One lane alone (a vertex program) gives the same.
    for (n, skip, sum) in [(5u32, 2u32, 8u32), (4, 0, 6)] {
        let r = run(&dx10_loop(true), Stage::Vertex, &Inputs::default(), &[inv(&[(0, [n, skip, 0, 0])])]);
        assert_eq!(r[0].gprs[1][1], sum);
    }
}

/// §2.3: ALU_BREAK turns lanes a PRED_SET deactivates into Inactive-break, ALU_CONTINUE into
/// Inactive-continue.
#[test]
fn alu_break_and_alu_continue() {
    let text = "00 LOOP_START_DX10 ADDR(5)\n01 ALU_BREAK:\n0 x: ADD_INT R1.x, R1.x, INT_1.x\n\
        1 x: PRED_SETGE_INT R127.x, R0.x, PV0.x UPDATE_EXEC_MASK NO_WRITE\n\
        02 ALU_CONTINUE:\n2 x: AND_INT R2.x, R1.x, INT_1.x\n3 x: PRED_SETE_INT R127.x, PV2.x, IMM_0.x UPDATE_EXEC_MASK NO_WRITE\n\
        03 ALU:\n4 y: ADD_INT R1.y, R1.y, R1.x\n04 LOOP_END ADDR(1)\n05 NOP\nEND_OF_PROGRAM\n";
    let r = r1(text, &quad_int([[1, 0], [2, 0], [4, 0], [5, 0]]));
    assert_eq!(r.iter().map(|g| (g[0], g[1])).collect::<Vec<_>>(), [(2, 0), (3, 2), (5, 6), (6, 6)]);
}

/// §2.3: LOOP_START (DX9) takes COUNT, INIT, INC from SQ_LOOP_CONST and maintains aL for
/// INDEX_MODE 4; LOOP_START_NO_AL honours the count without aL (decision); COUNT 0 skips.
#[test]
fn dx9_loops_with_the_loop_index() {
    let text = "00 LOOP_START ADDR(3) CF_CONST(1)\n01 ALU:\n0 x: ADD_INT R1.x, R1.x, R0[AL].x\n  y: ADD_INT R1.y, R1.y, INT_1.x\n\
                02 LOOP_END ADDR(1)\n03 LOOP_START_NO_AL ADDR(6) CF_CONST(2)\n04 ALU:\n1 z: ADD_INT R1.z, R1.z, INT_1.x\n\
                05 LOOP_END ADDR(4)\n06 NOP\nEND_OF_PROGRAM\n";
    let p = latte::asm::assemble(text).unwrap().program;
    let mut inputs = Inputs::default();
    inputs.loop_consts.insert(1, 3 | 2 << 12 | 1 << 24);
    inputs.loop_consts.insert(2, 5);
    let regs = [(2, [1, 0, 0, 0]), (3, [10, 0, 0, 0]), (4, [100, 0, 0, 0]), (5, [1000, 0, 0, 0])];
    let r = Vm::new(&p).run(Stage::Vertex, &inputs, &Config::default(), &[inv(&regs)]).unwrap();
    assert_eq!(r[0].gprs[1][..3], [111, 3, 5]);
    inputs.loop_consts.insert(1, 0);
    let r = Vm::new(&p).run(Stage::Vertex, &inputs, &Config::default(), &[inv(&regs)]).unwrap();
    assert_eq!(r[0].gprs[1][..2], [0, 0], "COUNT 0 skips the loop");
}

/// §2.3: CALL pushes the return address and jumps to a subroutine placed after
/// END_OF_PROGRAM; RETURN comes back.
#[test]
fn call_and_return() {
    let text = "00 CALL ADDR(3)\n01 ALU:\n0 y: ADD R1.y, R1.x, IMM_1.x\n02 NOP\nEND_OF_PROGRAM\n03 ALU:\n1 x: MOV R1.x, 0x40000000\n04 RETURN\n";
    let r = run(text, Stage::Vertex, &Inputs::default(), &[inv(&[])]);
    assert_eq!(r[0].gprs[1][..2], [fb(2.0), fb(3.0)]);
}

/// §2.6 / §2.7: KILL* clears the valid bit; the pixel keeps running (its later writes happen)
/// and VALID_PIXEL_MODE exports skip it; the CF KILL kills under its condition.
#[test]
fn kill_keeps_running_and_valid_pixel_mode_drops_it() {
    let text = "00 ALU:\n0 x: KILLGT R127.x, R0.x, IMM_0.x NO_WRITE\n1 y: MOV R1.y, IMM_1.x\n\
                01 EXP_DONE: PIX0, R1 VALID_PIX\nEND_OF_PROGRAM\n";
    let r = run(text, Stage::Pixel, &Inputs::default(), &quad([[1.0, 0.0], [-1.0, 0.0], [0.0, 0.0], [3.0, 0.0]]));
    assert_eq!(r.iter().map(|x| x.killed).collect::<Vec<_>>(), [true, false, false, true]);
    assert!(r.iter().all(|x| x.gprs[1][1] == fb(1.0)), "killed pixels keep executing");
    assert_eq!(r.iter().map(|x| x.exports.len()).collect::<Vec<_>>(), [0, 1, 1, 0]);
    let text = "00 KILL ADDR(0) CND(CF_NOT_BOOL) CF_CONST(0)\n01 NOP\nEND_OF_PROGRAM\n";
    let r = run(text, Stage::Pixel, &Inputs::default(), &quad([[0.0; 2]; 4]));
    assert!(r.iter().all(|x| x.killed));
}

/// §2.5 / §6.3 decision: the exec-mask update of a PRED_SET takes effect at the end of its
/// clause; later groups of the same clause still run for the failing lane.
#[test]
fn exec_mask_update_takes_effect_at_clause_end() {
    let text = format!("{IF}1 x: MOV R1.x, IMM_1.x\n01 ALU_POP_AFTER:\n2 y: MOV R1.y, IMM_1.x\n02 ALU:\n3 z: MOV R1.z, IMM_1.x\nEND_OF_PROGRAM\n");
    let r = r1(&text, &quad([[1.0, 0.0], [-1.0, 0.0], [1.0, 0.0], [-1.0, 0.0]]));
    assert!(r.iter().all(|g| g[0] == fb(1.0) && g[2] == fb(1.0)));
    assert_eq!(r.iter().map(|g| g[1]).collect::<Vec<_>>(), [fb(1.0), 0, fb(1.0), 0]);
}

/// §2.7 / §4.1: pixel programs run as 2x2 quads; GET_GRADIENTS_H/V are differences across the
/// quad's row and column.
#[test]
fn quads_give_derivatives() {
    let text = "00 TEX:\n0 GET_GRADIENTS_H R1.xy__, R0.xy__, t0, s0\n1 GET_GRADIENTS_V R2.xy__, R0.xy__, t0, s0\nEND_OF_PROGRAM\n";
    // Lanes TL, TR, BL, BR with x = 2·column + 10·row, y = x².
    let xs = [0.0f32, 2.0, 10.0, 12.0];
    let r = run(text, Stage::Pixel, &Inputs::default(), &quad(xs.map(|x| [x, x * x])));
    let h: Vec<[f32; 2]> = r.iter().map(|x| [bf(x.gprs[1][0]), bf(x.gprs[1][1])]).collect();
    let v: Vec<[f32; 2]> = r.iter().map(|x| [bf(x.gprs[2][0]), bf(x.gprs[2][1])]).collect();
    assert_eq!(h, [[2.0, 4.0], [2.0, 4.0], [2.0, 44.0], [2.0, 44.0]]);
    assert_eq!(v, [[10.0, 100.0], [10.0, 140.0], [10.0, 100.0], [10.0, 140.0]]);
}

/// Issue item 4: a loop without an exit stops at the step budget, an error naming where.
#[test]
fn endless_loop_stops_at_the_step_budget() {
    let text = "00 LOOP_START_DX10 ADDR(3)\n01 ALU:\n0 x: ADD R1.x, R1.x, IMM_1.x\n02 LOOP_END ADDR(1)\n03 NOP\nEND_OF_PROGRAM\n";
    let e = try_run(text, Stage::Vertex, &Inputs::default(), &[inv(&[])]).unwrap_err();
    assert!(matches!(e, InterpError::StepBudget { budget: 1_000_000, .. }), "{e}");
    assert!(e.to_string().contains("CF ") && e.to_string().contains("budget"), "{e}");
}

/// Errors name the CF instruction or ALU group: an unknown opcode, an unsupported one, a POP
/// on an empty stack, a relative GPR past R127.
#[test]
fn bad_programs_are_errors_naming_where() {
    let e = try_run(
        "00 ALU:\n0 x: MOV R1.x, R0.x\n1 x: OP2_0x7A R1.x, R0.x, R0.y\nEND_OF_PROGRAM\n",
        Stage::Vertex,
        &Inputs::default(),
        &[inv(&[])],
    )
    .unwrap_err();
    assert!(matches!(e, InterpError::Unsupported { at: At::Alu { cf: 0, group: 1 }, .. }), "{e}");
    assert_eq!(e.to_string(), "CF 0, ALU group 1: unsupported: ALU opcode OP2_0x7A");
    let e = try_run(
        "00 ALU:\n0 x: OP2_0x17 R1.x, R0.x, R0.y\nEND_OF_PROGRAM\n",
        Stage::Vertex,
        &Inputs::default(),
        &[inv(&[])],
    )
    .unwrap_err();
    assert!(e.to_string().contains("OP2_0x17"), "a 64-bit op: {e}");
    let e = try_run(
        "00 NOP\n01 POP ADDR(2) POP_CNT(1)\n02 NOP\nEND_OF_PROGRAM\n",
        Stage::Vertex,
        &Inputs::default(),
        &[inv(&[])],
    )
    .unwrap_err();
    assert!(matches!(e, InterpError::StackUnderflow { at: At::Cf(1), .. }), "{e}");
    let e = try_run(
        "00 ALU:\n0 x: MOVA_INT ____, R0.x\n1 x: MOV R1.x, R100[AR.x].x\nEND_OF_PROGRAM\n",
        Stage::Vertex,
        &Inputs::default(),
        &[inv(&[(0, [50, 0, 0, 0])])],
    )
    .unwrap_err();
    assert!(matches!(e, InterpError::Invalid { at: At::Alu { cf: 0, group: 1 }, .. }), "{e}");
    let e = try_run("00 CF_0x1E ADDR(1)\n01 NOP\nEND_OF_PROGRAM\n", Stage::Vertex, &Inputs::default(), &[inv(&[])])
        .unwrap_err();
    assert!(matches!(e, InterpError::Unsupported { at: At::Cf(0), .. }), "{e}");
}

/// §2.7: VALID_PIXEL_MODE on a POP deactivates killed lanes after the restore, which makes the
/// kill permanent for the rest of the program's clauses.
#[test]
fn valid_pixel_mode_pop_deactivates_killed_lanes() {
    let body = |vpm: &str| {
        format!(
            "00 ALU_PUSH_BEFORE:\n0 x: PRED_SETGE R127.x, R0.x, IMM_0.x UPDATE_EXEC_MASK NO_WRITE\n\
             01 ALU:\n1 x: KILLGT R127.x, R0.x, IMM_1.x NO_WRITE\n02 POP ADDR(3) POP_CNT(1){vpm}\n\
             03 ALU:\n2 y: MOV R1.y, IMM_1.x\nEND_OF_PROGRAM\n"
        )
    };
    let lanes = quad([[0.0, 0.0], [2.0, 0.0], [0.5, 0.0], [3.0, 0.0]]);
    let r = r1(&body(" VALID_PIX"), &lanes);
    assert_eq!(r.iter().map(|g| g[1]).collect::<Vec<_>>(), [fb(1.0), 0, fb(1.0), 0]);
    let r = r1(&body(""), &lanes);
    assert!(r.iter().all(|g| g[1] == fb(1.0)), "without VPM killed lanes stay active");
}

/// §2.7: WHOLE_QUAD_MODE runs a clause for the whole quad when one of its lanes is active.
#[test]
fn whole_quad_mode_runs_the_whole_quad() {
    let body = |wqm: &str| format!("{IF}01 ALU_POP_AFTER:{wqm}\n1 x: MOV R1.x, IMM_1.x\nEND_OF_PROGRAM\n");
    let lanes = quad([[1.0, 0.0], [-1.0, 0.0], [-1.0, 0.0], [-1.0, 0.0]]);
    let r = r1(&body(" WHOLE_QUAD_MODE"), &lanes);
    assert!(r.iter().all(|g| g[0] == fb(1.0)));
    let r = r1(&body(""), &lanes);
    assert_eq!(r.iter().map(|g| g[0]).collect::<Vec<_>>(), [fb(1.0), 0, 0, 0]);
}

/// §2.3: LOOP_START_DX10 with no active lane jumps past its LOOP_END without pushing; RETURN
/// outside a call ends the program (decision); PUSH_ELSE pushes and swaps relative to the entry
/// below (decision).
#[test]
fn loop_skip_return_at_top_level_and_push_else() {
    let text = format!(
        "{IF}01 LOOP_START_DX10 ADDR(4)\n02 ALU:\n1 x: MOV R1.x, IMM_1.x\n03 LOOP_END ADDR(2)\n\
         04 POP ADDR(5) POP_CNT(1)\n05 RETURN\n06 ALU:\n2 y: MOV R1.y, IMM_1.x\nEND_OF_PROGRAM\n"
    );
    let r = r1(&text, &quad([[-1.0, 0.0]; 4]));
    assert!(r.iter().all(|g| g[0] == 0 && g[1] == 0), "loop skipped, RETURN ended the program");
    let text = format!(
        "{IF}01 PUSH_ELSE ADDR(3)\n02 ALU:\n1 x: MOV R1.x, IMM_1.x\n03 POP ADDR(4) POP_CNT(2)\n\
         04 ALU:\n2 y: MOV R1.y, IMM_1.x\nEND_OF_PROGRAM\n"
    );
    let r = r1(&text, &quad([[1.0, 0.0], [-1.0, 0.0], [1.0, 0.0], [-1.0, 0.0]]));
    assert_eq!(r.iter().map(|g| g[0]).collect::<Vec<_>>(), [0, fb(1.0), 0, fb(1.0)]);
    assert!(r.iter().all(|g| g[1] == fb(1.0)));
}

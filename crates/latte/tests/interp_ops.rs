//! The opcodes and modes Mesa's R700 code never emits, each with the decision
//! docs/latte-interp.md records (latte-semantics-facts.md §1.6, §1.11, §1.13, §2.5 and §3 mark
//! them open): RECIP_INT / RECIP_UINT, MUL_LIT*, MOVA_GPR_INT, the predicate-counter PRED_SET
//! forms, INDEX_MODE 5-7, KCACHE LOCK_LOOP_INDEX, POP_JUMP / POP_PUSH / POP_PUSH_ELSE and
//! CONST_BUF_NO_STRIDE.

mod interp;
use interp::*;
use latte::interp::{Buffer, Inputs, InterpError, Invocation, Stage};

/// §3 RECIP_UINT (open): floor(2^32 / x), saturated; 0 and 1 give 0xFFFFFFFF.
#[test]
fn recip_uint_is_the_fixed_point_reciprocal() {
    assert_eq!(unary("RECIP_UINT", 3), 0x5555_5555);
    assert_eq!(unary("RECIP_UINT", 0x8000_0000), 2);
    assert_eq!(unary("RECIP_UINT", 7), ((1u64 << 32) / 7) as u32);
    assert_eq!(unary("RECIP_UINT", 1), u32::MAX);
    assert_eq!(unary("RECIP_UINT", 0), u32::MAX);
}

/// §3 RECIP_INT (open): trunc(2^31 / x) as a signed 1.31 value, saturated; 0 gives i32::MAX.
#[test]
fn recip_int_is_the_signed_fixed_point_reciprocal() {
    assert_eq!(unary("RECIP_INT", 4) as i32, 1 << 29);
    assert_eq!(unary("RECIP_INT", (-4i32) as u32) as i32, -(1 << 29));
    assert_eq!(unary("RECIP_INT", 3) as i32, 715_827_882);
    assert_eq!(unary("RECIP_INT", 1) as i32, i32::MAX);
    assert_eq!(unary("RECIP_INT", u32::MAX) as i32, i32::MIN);
    assert_eq!(unary("RECIP_INT", 0) as i32, i32::MAX);
}

/// §1.13 OP3 0x0C-0x0F MUL_LIT(_M2/_M4/_D2): src0·src1 with MUL's zero rule and the scale,
/// or -FLT_MAX when src1 is -FLT_MAX / -inf / NaN or src2 <= 0 / NaN (the LIT helper; decision).
#[test]
fn mul_lit_and_its_scaled_forms() {
    let (two, three, one) = (fb(2.0), fb(3.0), fb(1.0));
    assert_eq!(bf(ternary("MUL_LIT", two, three, one)), 6.0);
    assert_eq!(bf(ternary("MUL_LIT_M2", two, three, one)), 12.0);
    assert_eq!(bf(ternary("MUL_LIT_M4", two, three, one)), 24.0);
    assert_eq!(bf(ternary("MUL_LIT_D2", two, three, one)), 3.0);
    assert_eq!(ternary("MUL_LIT", 0, fb(f32::INFINITY), one), 0, "0 x inf = 0 as in MUL");
    for (b, c) in
        [(-f32::MAX, 1.0), (f32::NEG_INFINITY, 1.0), (f32::NAN, 1.0), (1.0, 0.0), (1.0, -2.0), (1.0, f32::NAN)]
    {
        assert_eq!(bf(ternary("MUL_LIT", two, fb(b), fb(c))), -f32::MAX, "src1 {b}, src2 {c}");
    }
}

/// §1.13 MOVA_GPR_INT (R600's trans form, 0x60): loads AR from an integer like MOVA_INT.
#[test]
fn mova_gpr_int_loads_ar() {
    let g = alu(
        "0 t: MOVA_GPR_INT ____, R0.x\n1 x: MOV R1.x, R2[AR.x].y",
        &[(0, [3, 0, 0, 0]), (5, [0, 77, 0, 0]), (2, [0, 11, 0, 0])],
    );
    assert_eq!(g[1][0], 77, "R2[AR.x] with AR.x = 3 is R5");
}

/// §2.5 (open): PRED_SET_INV / POP / CLR / RESTORE as predicate counters (0.0 = run): result
/// value and predicate of each, and the predicate driving PRED_SEL.
#[test]
fn predicate_counter_forms() {
    // (op, src0, src1) -> (result, predicate)
    let cases: [(&str, f32, f32, f32, bool); 9] = [
        ("PRED_SET_INV", 1.0, 0.0, 0.0, true),
        ("PRED_SET_INV", 0.0, 0.0, 1.0, false),
        ("PRED_SET_INV", 3.0, 0.0, 1.0, false),
        ("PRED_SET_POP", 0.0, 1.0, 0.0, true),
        ("PRED_SET_POP", -2.0, 1.0, 0.0, true),
        ("PRED_SET_POP", 3.0, 1.0, 2.0, false),
        ("PRED_SET_RESTORE", 0.0, 0.0, 0.0, true),
        ("PRED_SET_RESTORE", 5.0, 0.0, 5.0, false),
        ("PRED_SET_CLR", 0.0, 0.0, f32::MAX, false),
    ];
    for (op, a, b, want, pred) in cases {
        let srcs = if op == "PRED_SET_CLR" {
            String::new()
        } else if op.ends_with("POP") {
            ", R0.x, R0.y".into()
        } else {
            ", R0.x".into()
        };
        let body = format!("0 x: {op} R1.x{srcs} UPDATE_PRED\n1 x: MOV R2.x, IMM_1.x PRED_SEL_ONE");
        let g = alu(&body, &[(0, [fb(a), fb(b), 0, 0])]);
        assert_eq!((bf(g[1][0]), g[2][0] == fb(1.0)), (want, pred), "{op} {a} {b}");
    }
}

/// §2.5 (open): PRED_SETx_PUSH(_INT) push a predicate counter: counter (src1) 0 and
/// `src0 op 0` give (0, true), else (counter + 1, false); with UPDATE_EXECUTE_MASK a false
/// predicate deactivates the lane at clause end like any PRED_SET.
#[test]
fn predicate_counter_push_forms() {
    let run2 = |op: &str, a: u32, b: u32| {
        let body = format!("0 x: {op} R1.x, R0.x, R0.y UPDATE_PRED\n1 x: MOV R2.x, IMM_1.x PRED_SEL_ONE");
        let g = alu(&body, &[(0, [a, b, 0, 0])]);
        (g[1][0], g[2][0] == fb(1.0))
    };
    assert_eq!(run2("PRED_SETGT_PUSH", fb(1.0), 0), (0, true));
    assert_eq!(run2("PRED_SETGT_PUSH", fb(-1.0), 0), (fb(1.0), false));
    assert_eq!(run2("PRED_SETGT_PUSH", fb(1.0), fb(2.0)), (fb(3.0), false), "a counter above 0 counts up");
    assert_eq!(run2("PRED_SETE_PUSH", 0, 0), (0, true));
    assert_eq!(run2("PRED_SETNE_PUSH", fb(2.0), 0), (0, true));
    assert_eq!(run2("PRED_SETGE_PUSH", fb(-0.5), 0), (fb(1.0), false));
    assert_eq!(run2("PRED_SETE_PUSH_INT", 0, 0), (0, true));
    assert_eq!(run2("PRED_SETGT_PUSH_INT", 5, 0), (0, true));
    assert_eq!(run2("PRED_SETGE_PUSH_INT", (-1i32) as u32, 0), (1, false));
    assert_eq!(run2("PRED_SETNE_PUSH_INT", 0, 4), (5, false));
    assert_eq!(run2("PRED_SETLT_PUSH_INT", (-3i32) as u32, 0), (0, true));
    assert_eq!(run2("PRED_SETLT_PUSH_INT", 3, 0), (1, false));
    assert_eq!(run2("PRED_SETLE_PUSH_INT", 0, 0), (0, true));
    assert_eq!(run2("PRED_SETLE_PUSH_INT", 1, 0), (1, false));
    // The exec-mask update of a push form, in an ALU_PUSH_BEFORE clause.
    let text = "00 ALU_PUSH_BEFORE:\n0 x: PRED_SETGT_PUSH R127.x, R0.x, IMM_0.x UPDATE_EXEC_MASK NO_WRITE\n\
                01 ALU_POP_AFTER:\n1 x: MOV R1.x, IMM_1.x\nEND_OF_PROGRAM\n";
    let invs: Vec<Invocation> = [1.0f32, -1.0].iter().map(|&x| inv(&[(0, [fb(x), 0, 0, 0])])).collect();
    let r = run(text, Stage::Vertex, &Inputs::default(), &invs);
    assert_eq!((r[0].gprs[1][0], r[1].gprs[1][0]), (fb(1.0), 0));
}

/// §1.11 INDEX_MODE 5 (GLOBAL) reads the selector absolutely, 6 (GLOBAL_AR_X) relative to
/// AR.x, 7 is reserved (decisions).
#[test]
fn index_modes_five_to_seven() {
    let gprs = [(0, [2, 0, 0, 0]), (3, [30, 0, 0, 0]), (5, [50, 0, 0, 0])];
    let g = alu("0 x: MOVA_INT ____, R0.x\n1 x: MOV R1.x, R3[IDX5].x\n  y: MOV R1.y, R3[IDX6].x", &gprs);
    assert_eq!(g[1][..2], [30, 50]);
    let e = try_run(
        "00 ALU:\n0 x: MOV R1.x, R3[IDX7].x\nEND_OF_PROGRAM\n",
        Stage::Vertex,
        &Inputs::default(),
        &[inv(&gprs)],
    )
    .unwrap_err();
    assert!(matches!(e, InterpError::Invalid { .. }) && e.to_string().contains("INDEX_MODE 7"), "{e}");
}

/// §1.4 KCACHE_MODE 3 (LOCK_LOOP_INDEX): two lines at ADDR·16 + aL (decision).
#[test]
fn kcache_lock_loop_index() {
    let mut inputs = Inputs::default();
    inputs.uniform_blocks.insert(1, (0..64 * 4).map(|k| k as u32).collect());
    // LOOP_START (DX9) with INIT 3: aL = 3 inside the loop; one iteration.
    inputs.loop_consts.insert(0, 1 | (3 << 12) | (1 << 24));
    let text = "00 LOOP_START CF_CONST(0) ADDR(3)\n01 ALU: KCACHE0(CB1:16-47)\n0 x: MOV R1.x, KC0[2].y\n\
                02 LOOP_END CF_CONST(0) ADDR(1)\nEND_OF_PROGRAM\n";
    let r = run(text, Stage::Vertex, &inputs, &[inv(&[])]);
    // Whatever mode the assembler gives KCACHE0, force LOCK_LOOP_INDEX and rerun.
    let mut prog = latte::asm::assemble(text).unwrap().program;
    if let latte::isa::CfInst::Alu(a) = &mut prog.cf[1] {
        a.kcache[0].mode = 3;
    }
    let r3 = latte::interp::Vm::new(&prog)
        .run(Stage::Vertex, &inputs, &latte::interp::Config::default(), &[inv(&[])])
        .unwrap();
    // Constant 16 + 2 (+3 under LOCK_LOOP_INDEX), channel y.
    assert_eq!(r[0].gprs[1][0], (16 + 2) * 4 + 1);
    assert_eq!(r3[0].gprs[1][0], (16 + 3 + 2) * 4 + 1);
}

/// §1.6 POP_JUMP / POP_PUSH / POP_PUSH_ELSE: POP_COUNT entries are popped first, then the
/// instruction is JUMP, PUSH or PUSH_ELSE (decision).
#[test]
fn pop_jump_pop_push_and_pop_push_else() {
    let lanes = |xs: [f32; 4]| -> Vec<Invocation> { xs.iter().map(|&x| inv(&[(0, [fb(x), 0, 0, 0])])).collect() };
    let if_ = "00 ALU_PUSH_BEFORE:\n0 x: PRED_SETGT R127.x, R0.x, IMM_0.x UPDATE_EXEC_MASK NO_WRITE\n";
    // POP_JUMP: after the pop every lane is active again, so the jump is not taken and 02 runs
    // for all; POP_JUMP with CND(ALWAYS_FALSE) jumps over it.
    for (cond, want) in [("", [1.0, 1.0, 1.0, 1.0]), (" CND(ALWAYS_FALSE)", [0.0; 4])] {
        let text = format!(
            "{if_}01 POP_JUMP ADDR(3) POP_CNT(1){cond}\n02 ALU:\n1 x: MOV R1.x, IMM_1.x\n03 NOP\nEND_OF_PROGRAM\n"
        );
        let r = run(&text, Stage::Pixel, &Inputs::default(), &lanes([1.0, -1.0, 1.0, -1.0]));
        assert_eq!(r.iter().map(|r| bf(r.gprs[1][0])).collect::<Vec<_>>(), want, "{cond}");
    }
    // POP_PUSH: the pop restores every lane, the push with CF_BOOL (constant 0 clear) keeps
    // none, so nothing is pushed and it jumps.
    let text = format!(
        "{if_}01 POP_PUSH ADDR(4) POP_CNT(1) CND(CF_BOOL) CF_CONST(0)\n02 ALU:\n1 x: MOV R1.x, IMM_1.x\n\
         03 POP ADDR(4) POP_CNT(1)\n04 ALU:\n2 y: MOV R1.y, IMM_1.x\nEND_OF_PROGRAM\n"
    );
    let r = run(&text, Stage::Pixel, &Inputs::default(), &lanes([1.0, -1.0, 1.0, -1.0]));
    assert!(r.iter().all(|r| r.gprs[1][0] == 0 && r.gprs[1][1] == fb(1.0)));
    let inputs = Inputs { bool_consts: 1, ..Inputs::default() };
    let r = run(&text, Stage::Pixel, &inputs, &lanes([1.0, -1.0, 1.0, -1.0]));
    assert!(r.iter().all(|r| r.gprs[1][0] == fb(1.0) && r.gprs[1][1] == fb(1.0)), "pushed for all lanes");
    // POP_PUSH_ELSE inside an if: the pop restores all lanes, the push-else flips them to
    // inactive (relative to the state below), so it jumps; the final POP balances the push.
    let text = format!(
        "{if_}01 POP_PUSH_ELSE ADDR(3) POP_CNT(1)\n02 ALU:\n1 x: MOV R1.x, IMM_1.x\n\
         03 POP ADDR(4) POP_CNT(1)\n04 ALU:\n2 y: MOV R1.y, IMM_1.x\nEND_OF_PROGRAM\n"
    );
    let r = run(&text, Stage::Pixel, &Inputs::default(), &lanes([1.0, -1.0, 1.0, -1.0]));
    assert!(r.iter().all(|r| r.gprs[1][0] == 0 && r.gprs[1][1] == fb(1.0)), "{:?}", r[0].gprs[1]);
}

/// §4.2 CONST_BUF_NO_STRIDE: the stride is 0, every index reads the element at OFFSET
/// (decision).
#[test]
fn const_buf_no_stride_reads_offset_only() {
    let mut inputs = Inputs::default();
    inputs
        .buffers
        .insert(5, Buffer { data: (0..64u32).flat_map(|k| k.to_le_bytes()).collect(), stride: 16, format: None });
    let text = "00 VTX:\n0 VFETCH R1.x___, R0.x, b5 OFFSET(8) FMT(13) NUM(1) CBNS\n\
                1 VFETCH R1._x__, R0.x, b5 OFFSET(8) FMT(13) NUM(1)\nEND_OF_PROGRAM\n";
    let r = run(text, Stage::Vertex, &inputs, &[inv(&[(0, [3, 0, 0, 0])])]);
    assert_eq!(r[0].gprs[1][..2], [2, 3 * 4 + 2], "word 2 with no stride, word 14 with stride 16");
}

//! ALU facts of docs/specs/latte-semantics-facts.md, one test each (section in the name's
//! doc comment): the group rule, PV/PS, literals, constants, relative addressing, modifiers,
//! and the arithmetic of §3 with its edge cases.

mod interp;
use interp::*;
use latte::interp::Inputs;

/// §2.2: every slot of a group reads its operands before any slot writes (a swap in one group).
#[test]
fn group_reads_every_operand_before_any_write() {
    let g =
        alu("0 x: MOV R1.x, R1.y\n  y: MOV R1.y, R1.x\n  t: ADD R1.z, R1.x, R1.y", &[(1, [fb(1.0), fb(2.0), 0, 0])]);
    assert_eq!(g[1][..3], [fb(2.0), fb(1.0), fb(3.0)]);
}

/// §2.2: PV.c is the previous group's slot-c result and PS its trans result, also when
/// WRITE_MASK is 0; a slot the previous group left unused reads 0 (decision).
#[test]
fn pv_and_ps_are_the_previous_groups_results() {
    let g = alu(
        "0 x: ADD R127.x, R0.x, R0.y NO_WRITE\n  t: MUL_IEEE R5.x, R0.x, R0.y\n\
         1 x: MOV R1.x, PV0.x\n  y: MOV R1.y, PS0\n  z: MOV R1.z, PV0.z\n\
         2 x: MOV R2.x, PV1.y",
        &[(0, [fb(3.0), fb(4.0), 0, 0]), (127, [7, 7, 7, 7]), (1, [9, 9, 9, 9])],
    );
    assert_eq!(g[127][0], 7, "WRITE_MASK=0 writes no GPR");
    assert_eq!(g[1][..3], [fb(7.0), fb(12.0), 0]);
    assert_eq!(g[2][0], fb(12.0), "PV of a MOV of PS");
}

/// §2.2 / §3: DOT4 writes its one value to every slot that writes and to PV.x-w.
#[test]
fn dot4_broadcasts_to_every_slot_and_pv() {
    let g = alu(
        "0 x: DOT4_IEEE R1.x, R0.x, R2.x\n  y: DOT4_IEEE R127.y, R0.y, R2.y NO_WRITE\n  \
         z: DOT4_IEEE R1.z, R0.z, R2.z\n  w: DOT4_IEEE R127.w, R0.w, R2.w NO_WRITE\n\
         1 x: MOV R3.x, PV0.y\n  w: MOV R3.w, PV0.w",
        &[(0, [fb(1.0), fb(2.0), fb(3.0), fb(4.0)]), (2, [fb(1.0), fb(1.0), fb(1.0), fb(2.0)])],
    );
    assert_eq!((g[1][0], g[1][2], g[3][0], g[3][3]), (fb(14.0), fb(14.0), fb(14.0), fb(14.0)));
}

/// §1.9: literals are addressed by channel; a hex literal's channel can be forced.
#[test]
fn literals_are_read_by_channel() {
    let g = alu("0 x: ADD R1.x, 0x3F800000, 0x40000000\n  y: MOV R1.y, 0x40000000.y\n  z: MOV R1.z, 0x40400000.z", &[]);
    assert_eq!(g[1][..3], [fb(3.0), fb(2.0), fb(3.0)]);
}

/// §1.4 / §1.8: kcache sel 128+k reads constant KCACHE_ADDR·16+k of bank KCACHE_BANK; sel
/// 256+i reads c_i of the constant file; inline constants.
#[test]
fn kcache_constant_file_and_inline_constants() {
    let mut inputs = Inputs::default();
    let mut block = vec![0u32; 32 * 4];
    block[17 * 4 + 1] = fb(5.0);
    inputs.uniform_blocks.insert(2, block);
    inputs.cfile = vec![[0; 4]; 8];
    inputs.cfile[5] = [fb(0.25), 0, 0, 0];
    let text = "00 ALU: KCACHE0(CB2:16-31)\n0 x: MOV R1.x, KC0[1].y\n  y: MOV R1.y, C5.x\n  z: ADD R1.z, IMM_0_5.x, IMM_1.x\n  w: ADD_INT R1.w, INT_1.x, INT_M1.x\nEND_OF_PROGRAM\n";
    let r = run(text, latte::interp::Stage::Vertex, &inputs, &[inv(&[])]);
    assert_eq!(r[0].gprs[1], [fb(5.0), fb(0.25), fb(1.5), 0]);
}

/// §1.11: MOVA_INT loads AR.x for later groups; REL operands and destinations add it.
#[test]
fn relative_addressing_through_ar() {
    let g = alu(
        "0 x: MOVA_INT ____, R0.x\n1 x: MOV R3[AR.x].x, R0.y\n  y: MOV R1.y, R3[AR.x].z",
        &[(0, [2, fb(9.0), 0, 0]), (5, [0, 0, fb(4.0), 0])],
    );
    assert_eq!(g[5][0], fb(9.0));
    assert_eq!(g[1][1], fb(4.0));
}

/// §1.11: AR does not survive into the next clause (it reads 0 there, decision).
#[test]
fn ar_resets_at_clause_end() {
    let text = "00 ALU:\n0 x: MOVA_INT ____, R0.x\n01 ALU:\n1 x: MOV R1.x, R3[AR.x].x\nEND_OF_PROGRAM\n";
    let r = run(
        text,
        latte::interp::Stage::Vertex,
        &Inputs::default(),
        &[inv(&[(0, [2, 0, 0, 0]), (3, [11, 0, 0, 0]), (5, [55, 0, 0, 0])])],
    );
    assert_eq!(r[0].gprs[1][0], 11);
}

/// §1.12: OMOD scales, then CLAMP clamps to [0, 1]; neither touches integer results.
#[test]
fn omod_then_clamp_on_float_results_only() {
    let g = alu(
        "0 x: ADD*2 R1.x, R0.x, R0.y\n  y: ADD*4 R1.y, R0.x, R0.y CLAMP\n  z: MUL/2 R1.z, R0.x, R0.y\n  w: ADD_INT*2 R1.w, R0.z, R0.z",
        &[(0, [fb(0.25), fb(0.5), 3, 0])],
    );
    assert_eq!(g[1], [fb(1.5), fb(1.0), fb(0.0625), 6]);
}

/// §1.8: abs then neg, as bit operations on the source.
#[test]
fn neg_and_abs_modify_the_float_bits() {
    let g = alu(
        "0 x: MOV R1.x, -|R0|.x\n  y: MOV R1.y, -R0.y\n  z: ADD R1.z, |R0|.x, R0.y",
        &[(0, [fb(-2.0), fb(3.0), 0, 0])],
    );
    assert_eq!(g[1][..3], [fb(-2.0), fb(-3.0), fb(5.0)]);
}

/// §1.12 write masks: NO_WRITE leaves the GPR, the destination channel selects the component.
#[test]
fn write_mask_and_destination_channel() {
    let g = alu("0 x: MOV R1.x, R0.y NO_WRITE\n  w: MOV R1.w, R0.y", &[(0, [0, 5, 0, 0]), (1, [1, 2, 3, 4])]);
    assert_eq!(g[1], [1, 2, 3, 5]);
}

/// §3: MUL, MULADD and DOT4 give 0 for 0 × anything (inf and NaN included); the _IEEE forms
/// do not.
#[test]
fn mul_family_zero_times_anything_is_zero() {
    let (inf, nan) = (fb(f32::INFINITY), fb(f32::NAN));
    assert_eq!(binary("MUL", 0, inf), 0);
    assert_eq!(binary("MUL", nan, fb(-0.0)), 0);
    assert!(bf(binary("MUL_IEEE", 0, inf)).is_nan());
    assert_eq!(ternary("MULADD", inf, 0, fb(2.0)), fb(2.0));
    assert!(bf(ternary("MULADD_IEEE", inf, 0, fb(2.0))).is_nan());
    assert_eq!(ternary("MULADD_M2", fb(1.5), fb(2.0), fb(1.0)), fb(8.0));
    assert_eq!(ternary("MULADD_D2", fb(1.5), fb(2.0), fb(1.0)), fb(2.0));
    let g = alu(
        "0 x: DOT4 R1.x, R0.x, R2.x\n  y: DOT4 R1.y, R0.y, R2.y\n  z: DOT4 R1.z, R0.z, R2.z\n  w: DOT4 R1.w, R0.w, R2.w",
        &[(0, [0, fb(1.0), fb(2.0), 0]), (2, [inf, fb(3.0), fb(4.0), nan])],
    );
    assert_eq!(g[1][0], fb(11.0), "each product of DOT4 follows the zero rule");
}

/// §3: SIN and COS take revolutions: sin(2π·x).
#[test]
fn sin_cos_take_revolutions() {
    assert_eq!(unary("SIN", fb(0.25)), fb(1.0));
    assert_eq!(unary("COS", fb(0.5)), fb(-1.0));
    assert!((bf(unary("SIN", fb(1.0 / 12.0))) - 0.5).abs() < 1e-6);
    assert!((bf(unary("COS", fb(1.0 / 6.0))) - 0.5).abs() < 1e-6);
}

/// §3: the reciprocal family's infinity rules, LOG/EXP, SQRT.
#[test]
fn transcendental_edge_cases() {
    let inf = f32::INFINITY;
    assert_eq!(unary("RECIP_IEEE", fb(0.0)), fb(inf));
    assert_eq!(unary("RECIP_IEEE", fb(-0.0)), fb(-inf));
    assert_eq!(unary("RECIP_CLAMPED", fb(0.0)), fb(f32::MAX));
    assert_eq!(unary("RECIP_CLAMPED", fb(-0.0)), fb(-f32::MAX));
    assert_eq!(unary("RECIP_FF", fb(0.0)), fb(0.0));
    assert_eq!(unary("RECIP_IEEE", fb(4.0)), fb(0.25));
    assert_eq!(unary("RECIPSQRT_IEEE", fb(4.0)), fb(0.5));
    assert_eq!(unary("RECIPSQRT_IEEE", fb(0.0)), fb(inf));
    assert_eq!(unary("RECIPSQRT_CLAMPED", fb(0.0)), fb(f32::MAX));
    assert_eq!(unary("RECIPSQRT_FF", fb(0.0)), fb(0.0));
    assert!(bf(unary("RECIPSQRT_IEEE", fb(-1.0))).is_nan());
    assert_eq!(unary("SQRT_IEEE", fb(9.0)), fb(3.0));
    assert!(bf(unary("SQRT_IEEE", fb(-1.0))).is_nan());
    assert_eq!(unary("EXP_IEEE", fb(3.0)), fb(8.0));
    assert_eq!(unary("EXP_IEEE", fb(-inf)), fb(0.0));
    assert_eq!(unary("LOG_IEEE", fb(8.0)), fb(3.0));
    assert_eq!(unary("LOG_IEEE", fb(0.0)), fb(-inf));
    assert!(bf(unary("LOG_IEEE", fb(-1.0))).is_nan());
    assert_eq!(unary("LOG_CLAMPED", fb(0.0)), fb(-f32::MAX));
    assert_eq!(unary("LOG_CLAMPED", fb(-4.0)), fb(-f32::MAX), "negative input clamped to 0 (decision)");
    assert_eq!(unary("LOG_CLAMPED", fb(0.5)), fb(-1.0));
}

/// §3: conversions: FLT_TO_INT truncates; NaN gives 0, out of range saturates (decision).
#[test]
fn conversions_truncate_and_saturate() {
    assert_eq!(unary("FLT_TO_INT", fb(-2.7)) as i32, -2);
    assert_eq!(unary("FLT_TO_INT", fb(2.7)), 2);
    assert_eq!(unary("FLT_TO_INT", fb(f32::NAN)), 0);
    assert_eq!(unary("FLT_TO_INT", fb(3e9)) as i32, i32::MAX);
    assert_eq!(unary("FLT_TO_INT", fb(-3e9)) as i32, i32::MIN);
    assert_eq!(unary("FLT_TO_UINT", fb(-1.0)), 0);
    assert_eq!(unary("FLT_TO_UINT", fb(3e9)), 3_000_000_000);
    assert_eq!(unary("INT_TO_FLT", (-3i32) as u32), fb(-3.0));
    assert_eq!(unary("UINT_TO_FLT", u32::MAX), fb(4294967296.0));
    assert_eq!(unary("INT_TO_FLT", 16_777_217), fb(16_777_216.0), "round to nearest even");
}

/// §3: rounding ops.
#[test]
fn rounding_ops() {
    assert_eq!(unary("FRACT", fb(-1.25)), fb(0.75));
    assert_eq!(unary("TRUNC", fb(-1.75)), fb(-1.0));
    assert_eq!(unary("CEIL", fb(-1.75)), fb(-1.0));
    assert_eq!(unary("FLOOR", fb(-1.25)), fb(-2.0));
    assert_eq!(unary("RNDNE", fb(2.5)), fb(2.0));
    assert_eq!(unary("RNDNE", fb(3.5)), fb(4.0));
}

/// §3: DX9 MAX/MIN (`a >= b ? a : b`) against MAX_DX10/MIN_DX10 (a NaN operand yields the
/// other).
#[test]
fn max_min_dx9_and_dx10_with_nan() {
    let nan = fb(f32::NAN);
    assert_eq!(binary("MAX", fb(1.0), fb(2.0)), fb(2.0));
    assert_eq!(binary("MAX", nan, fb(2.0)), fb(2.0));
    assert!(bf(binary("MAX", fb(2.0), nan)).is_nan(), "DX9 MAX: a >= NaN is false, so NaN");
    assert_eq!(binary("MAX_DX10", fb(2.0), nan), fb(2.0));
    assert_eq!(binary("MIN_DX10", nan, fb(-2.0)), fb(-2.0));
    assert_eq!(binary("MIN", fb(1.0), fb(2.0)), fb(1.0));
}

/// A NaN result of float arithmetic is the canonical NaN 0x7FC00000 (docs/latte-interp.md "NaN
/// results": no device fixes that NaN's sign or payload), whatever NaN went in: here a
/// negative signalling one, and `a + -NaN` (lavapipe folds it into `a - NaN`). Moves, selects
/// and MAX/MIN keep a NaN's bits, and so do integer opcodes on NaN patterns.
#[test]
fn arithmetic_nan_results_are_canonical() {
    let snan = 0xFFA8_F63B;
    for op in ["MUL_IEEE", "MUL", "ADD", "DOT4_IEEE"] {
        let r = alu(&format!("0 x: {op} R1.x, R0.x, R0.y\n  y: {op} R1.y, R0.y, R0.y\n  z: {op} R1.z, R0.z, R0.z\n  w: {op} R1.w, R0.w, R0.w"), &[(0, [snan, fb(2.0), 0, 0])]);
        assert_eq!(r[1][0], 0x7FC0_0000, "{op}");
    }
    assert_eq!(binary("ADD", fb(1.0), 0x7FE8_F63B), 0x7FC0_0000);
    let neg = alu("0 x: ADD R1.x, R0.x, -R0.y", &[(0, [fb(1.0), 0x7FE8_F63B, 0, 0])]);
    assert_eq!(neg[1][0], 0x7FC0_0000, "a + -NaN");
    assert_eq!(ternary("MULADD_IEEE", fb(1.0), fb(1.0), snan), 0x7FC0_0000);
    for op in ["FRACT", "FLOOR", "SQRT_IEEE", "SIN", "EXP_IEEE", "LOG_IEEE", "RECIP_IEEE"] {
        assert_eq!(unary(op, snan), 0x7FC0_0000, "{op}");
    }
    // Bits kept: moves, selects, MAX/MIN, integer opcodes.
    assert_eq!(unary("MOV", snan), snan);
    assert_eq!(alu("0 x: MOV R1.x, -R0.x", &[(0, [snan, 0, 0, 0])])[1][0], snan ^ 0x8000_0000);
    assert_eq!(binary("MAX_DX10", snan, snan), snan);
    assert_eq!(binary("AND_INT", snan, u32::MAX), snan);
    assert_eq!(ternary("CNDE_INT", 0, snan, 0), snan);
}

/// §3: SET* write 1.0f/0.0f, SET*_DX10 and the integer forms 0xFFFFFFFF/0; SETNE with NaN is
/// true (unordered, decision); CND* compare with 0.0 (−0 counts as 0).
#[test]
fn set_and_cnd_results() {
    let nan = fb(f32::NAN);
    assert_eq!(binary("SETGT", fb(2.0), fb(1.0)), fb(1.0));
    assert_eq!(binary("SETGE", fb(1.0), fb(2.0)), 0);
    assert_eq!(binary("SETE_DX10", fb(1.0), fb(1.0)), u32::MAX);
    assert_eq!(binary("SETNE", nan, nan), fb(1.0));
    assert_eq!(binary("SETE", nan, nan), 0);
    assert_eq!(binary("SETGT_INT", (-1i32) as u32, 0), 0);
    assert_eq!(binary("SETGT_UINT", (-1i32) as u32, 0), u32::MAX);
    assert_eq!(ternary("CNDE", fb(-0.0), 1, 2), 1);
    assert_eq!(ternary("CNDGT", fb(0.5), 1, 2), 1);
    assert_eq!(ternary("CNDGE", nan, 1, 2), 2);
    assert_eq!(ternary("CNDE_INT", 0, 1, 2), 1);
    assert_eq!(ternary("CNDGT_INT", (-5i32) as u32, 1, 2), 2);
}

/// §3: integer ops: SUB_INT is src0 − src1; shifts use the count's low 5 bits (decision);
/// MULHI / MULLO.
#[test]
fn integer_and_shift_ops() {
    assert_eq!(binary("SUB_INT", 5, 7) as i32, -2);
    assert_eq!(binary("LSHL_INT", 1, 33), 2);
    assert_eq!(binary("LSHR_INT", 0x8000_0000, 31), 1);
    assert_eq!(binary("ASHR_INT", 0x8000_0000, 31), u32::MAX);
    assert_eq!(binary("MULHI_UINT", 0x8000_0000, 4), 2);
    assert_eq!(binary("MULHI_INT", (-2i32) as u32, 0x8000_0000), 1);
    assert_eq!(binary("MULLO_INT", 0x10001, 0x10001), 0x20001);
    assert_eq!(binary("MAX_INT", (-2i32) as u32, 1), 1);
    assert_eq!(binary("MAX_UINT", (-2i32) as u32, 1), (-2i32) as u32);
    assert_eq!(unary("NOT_INT", 0), u32::MAX);
}

/// §3: CUBE gives (tc, sc, 2·ma, face) per NIR's cube_amd, from slot sources x: (z,y),
/// y: (z,x), z: (x,z), w: (y,z).
#[test]
fn cube_face_and_coordinates() {
    let cube = |v: [f32; 3]| {
        let g = alu(
            "0 x: CUBE R1.x, R0.z, R0.y\n  y: CUBE R1.y, R0.z, R0.x\n  z: CUBE R1.z, R0.x, R0.z\n  w: CUBE R1.w, R0.y, R0.z",
            &[(0, [fb(v[0]), fb(v[1]), fb(v[2]), 0])],
        );
        g[1].map(bf)
    };
    assert_eq!(cube([2.0, 0.5, 0.25]), [-0.5, -0.25, 4.0, 0.0]);
    assert_eq!(cube([-2.0, 0.5, 0.25]), [-0.5, 0.25, -4.0, 1.0]);
    assert_eq!(cube([0.5, 3.0, 0.25]), [0.25, 0.5, 6.0, 2.0]);
    assert_eq!(cube([0.5, 0.25, -3.0]), [-0.25, -0.5, -6.0, 5.0]);
    assert_eq!(cube([1.0, 1.0, 1.0])[3], 4.0, "ties go to the later axis");
}

/// §3: MAX4 is the maximum of the four slots' src0, broadcast.
#[test]
fn max4_reduces_four_slots() {
    let g = alu(
        "0 x: MAX4 R1.x, R0.x\n  y: MAX4 R1.y, R0.y\n  z: MAX4 R1.z, R0.z\n  w: MAX4 R1.w, R0.w",
        &[(0, [fb(1.0), fb(-7.0), fb(5.0), fb(2.0)])],
    );
    assert_eq!(g[1], [fb(5.0); 4]);
}

/// §3 / §1.11: MOVA rounds half up, MOVA_FLOOR floors, MOVA_INT takes the integer; AR is
/// clamped to [-256, 255] (decisions).
#[test]
fn mova_forms() {
    let ar = |op: &str, x: u32| {
        let g = alu(
            &format!("0 x: {op} ____, R0.x\n1 x: MOV R1.x, R10[AR.x].x"),
            &[(0, [x, 0, 0, 0]), (10, [10, 0, 0, 0]), (11, [11, 0, 0, 0]), (12, [12, 0, 0, 0]), (9, [9, 0, 0, 0])],
        );
        g[1][0]
    };
    assert_eq!(ar("MOVA", fb(1.5)), 12);
    assert_eq!(ar("MOVA", fb(0.49)), 10);
    assert_eq!(ar("MOVA_FLOOR", fb(1.9)), 11);
    assert_eq!(ar("MOVA_FLOOR", fb(-0.5)), 9);
    assert_eq!(ar("MOVA_INT", 2), 12);
    let g = alu("0 x: MOVA_INT R2.x, R0.x\n1 x: MOV R1.x, R0.y", &[(0, [1000, 0, 0, 0])]);
    assert_eq!(g[2][0], 255, "clamped AR, written as an integer (decision)");
}

/// §1.12 / §2.5: UPDATE_PRED sets the predicate; PRED_SEL runs an instruction on predicate 0 or
/// 1 only.
#[test]
fn predicate_selects_instructions() {
    let body = "0 x: PRED_SETGT R1.x, R0.x, R0.y UPDATE_PRED\n1 x: MOV R2.x, IMM_1.x PRED_SEL_ONE\n  y: MOV R2.y, IMM_1.x PRED_SEL_ZERO";
    let g = alu(body, &[(0, [fb(2.0), fb(1.0), 0, 0])]);
    assert_eq!((g[1][0], g[2][0], g[2][1]), (fb(1.0), fb(1.0), 0));
    let g = alu(body, &[(0, [fb(1.0), fb(2.0), 0, 0])]);
    assert_eq!((g[1][0], g[2][0], g[2][1]), (0, 0, fb(1.0)));
    assert_eq!(binary("PRED_SETE_INT", 3, 3), u32::MAX, "integer forms write -1 (decaf, decision)");
}

/// §2.2: PV/PS do not cross clause boundaries (they read 0 at clause start, decision); the
/// clause temporaries T0-T3 (R124-R127) are GPRs of the invocation.
#[test]
fn pv_does_not_cross_clauses_and_temporaries_are_gprs() {
    let text =
        "00 ALU:\n0 x: ADD R124.x, R0.x, R0.x\n01 ALU:\n1 x: MOV R1.x, PV0.x\n  y: MOV R1.y, R124.x\nEND_OF_PROGRAM\n";
    let r = run(text, latte::interp::Stage::Vertex, &Inputs::default(), &[inv(&[(0, [fb(2.0), 0, 0, 0])])]);
    assert_eq!(r[0].gprs[1][..2], [0, fb(4.0)]);
}

//! The TEV evaluator against the formula of specs/hollywood-tev-facts.md ("Integer combiner
//! math"), hand-computed compare cases for every width, konst/swap/ras selection, output
//! selection, the alpha test and the indirect unit.

// Register values are written out field by field (`0 << 7 | ...`) on purpose.
#![allow(
    clippy::too_many_arguments,
    clippy::identity_op,
    clippy::needless_range_loop,
    clippy::field_reassign_with_default
)]

use gx::bp::BpRegs;
use gx::indirect::{self, format_split, wrap};
use gx::regs::*;
use gx::tev::{self, Evaluator, PixelInputs};

/// The facts file's eight steps, written out literally and independently of the crate, in i64.
fn facts_formula(a: i64, b: i64, c: i64, d: i64, bias: u8, op: u8, scale: u8, clamp: bool) -> i64 {
    let c2 = c + (c >> 7); // 1
    let mut lerp = a * (256 - c2) + b * c2; // 2
    let s = [0, 1, 2, 0][scale as usize]; // 3
    lerp <<= s;
    if scale != 3 {
        lerp += if op == 1 { 127 } else { 128 }; // 4
    }
    lerp >>= 8; // 5
    if op == 1 {
        lerp = -lerp;
    }
    let bias_v = [0, 128, -128][bias as usize];
    let mut result = ((d + bias_v) << s) + lerp; // 6
    if scale == 3 {
        result >>= 1; // 7
    }
    if clamp {
        result.clamp(0, 255) // 8
    } else {
        result.clamp(-1024, 1023)
    }
}

/// d values spread over the signed 11-bit range, including both ends and the 8-bit edges.
const D_SPREAD: [i16; 16] = [-1024, -1023, -512, -256, -129, -128, -1, 0, 1, 127, 128, 255, 256, 511, 1000, 1023];

/// Every (a, b, c) with d rotating through D_SPREAD, for every bias 0-2, op, scale and clamp:
/// 3 x 2 x 4 x 2 x 2^24 = 805 million combiner evaluations, in a few seconds in --release.
#[test]
fn regular_combiner_matches_the_facts_formula_on_a_dense_sweep() {
    let mut checked = 0u64;
    for bias in 0..3u8 {
        for op in 0..2u8 {
            for scale in 0..4u8 {
                for clamp in [false, true] {
                    for a in 0..=255u8 {
                        for b in 0..=255u8 {
                            // Rotating d with (a, b) so that every d meets every c.
                            let base = (a as usize * 7 + b as usize) % 16;
                            for c in 0..=255u8 {
                                let d = D_SPREAD[(base + c as usize) % 16];
                                let got = tev::regular(a, b, c, d, bias, op, scale, clamp);
                                let want =
                                    facts_formula(a as i64, b as i64, c as i64, d as i64, bias, op, scale, clamp);
                                if got as i64 != want {
                                    panic!("a={a} b={b} c={c} d={d} bias={bias} op={op} scale={scale} clamp={clamp}: got {got}, want {want}");
                                }
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 3 * 2 * 4 * 2 * (1 << 24));
}

#[test]
fn regular_combiner_hand_values() {
    // c = 255 selects b exactly: c' = 256, lerp = 256 b, +128 >> 8 = b.
    assert_eq!(tev::regular(10, 200, 255, 0, 0, 0, 0, true), 200);
    // c = 0 selects a.
    assert_eq!(tev::regular(10, 200, 0, 5, 0, 0, 0, true), 15);
    // SUB: d - lerp; 100 - (128*128 + 127)>>8 (c=128 -> c'=129: 128*127+128*129 = 32768) -> 100 - 128.
    assert_eq!(tev::regular(128, 128, 128, 100, 0, 1, 0, false), -28);
    assert_eq!(tev::regular(128, 128, 128, 100, 0, 1, 0, true), 0);
    // Scale x4 with ADDHALF: ((0 + 128) << 2) + ((255*256 << 2) + 128 >> 8) = 512 + 1020 -> clamped 1023.
    assert_eq!(tev::regular(255, 0, 0, 0, 1, 0, 2, false), 1023);
    // Divide by two: (d + lerp) >> 1 with no rounding constant: (3 + 0) >> 1 = 1.
    assert_eq!(tev::regular(0, 0, 0, 3, 0, 0, 3, true), 1);
    // SUBHALF on d = 0 with clamp: -128 -> 0; without: -128.
    assert_eq!(tev::regular(0, 0, 0, 0, 2, 0, 0, true), 0);
    assert_eq!(tev::regular(0, 0, 0, 0, 2, 0, 0, false), -128);
}

#[test]
fn compare_mode_r8() {
    // GT on red only: 10 > 9 although green and blue are smaller.
    assert_eq!(tev::compare_color([10, 0, 0], [9, 255, 255], [1, 2, 3], [100, 100, 100], 0, 0, false), [101, 102, 103]);
    assert_eq!(tev::compare_color([9, 0, 0], [9, 255, 255], [1, 2, 3], [100, 100, 100], 0, 0, false), [100, 100, 100]);
    // EQ on red only.
    assert_eq!(tev::compare_color([9, 0, 0], [9, 255, 255], [1, 2, 3], [100, 100, 100], 1, 0, false), [101, 102, 103]);
}

#[test]
fn compare_mode_gr16() {
    // (G << 8) | R: 0x0200 > 0x01FF, green decides although red is smaller.
    assert_eq!(tev::compare_color([0, 2, 0], [255, 1, 9], [5, 5, 5], [0, 0, 0], 0, 1, true), [5, 5, 5]);
    assert_eq!(tev::compare_color([255, 1, 9], [0, 2, 0], [5, 5, 5], [0, 0, 0], 0, 1, true), [0, 0, 0]);
    // EQ ignores blue.
    assert_eq!(tev::compare_color([5, 6, 7], [5, 6, 9], [5, 5, 5], [1, 1, 1], 1, 1, true), [6, 6, 6]);
}

#[test]
fn compare_mode_bgr24() {
    // Blue decides first: 0x020000 > 0x01FFFF.
    assert_eq!(tev::compare_color([0, 0, 2], [255, 255, 1], [7, 8, 9], [0, 0, 0], 0, 2, true), [7, 8, 9]);
    // EQ sees blue: not equal.
    assert_eq!(tev::compare_color([5, 6, 7], [5, 6, 9], [7, 8, 9], [0, 0, 0], 1, 2, true), [0, 0, 0]);
    assert_eq!(tev::compare_color([5, 6, 9], [5, 6, 9], [7, 8, 9], [0, 0, 0], 1, 2, true), [7, 8, 9]);
}

#[test]
fn compare_mode_rgb8_per_channel() {
    // GT per channel: (10>20, 20>20, 30>10) = (no, no, yes).
    assert_eq!(tev::compare_color([10, 20, 30], [20, 20, 10], [50, 60, 70], [1, 2, 3], 0, 3, true), [1, 2, 73]);
    // EQ per channel: (no, yes, no).
    assert_eq!(tev::compare_color([10, 20, 30], [20, 20, 10], [50, 60, 70], [1, 2, 3], 1, 3, true), [1, 62, 3]);
    // Clamp: 250 + 10 -> 255 with clamp, 260 without.
    assert_eq!(tev::compare_color([1, 1, 1], [0, 0, 0], [10, 10, 10], [250, 250, 250], 0, 3, true), [255; 3]);
    assert_eq!(tev::compare_color([1, 1, 1], [0, 0, 0], [10, 10, 10], [250, 250, 250], 0, 3, false), [260; 3]);
}

#[test]
fn compare_mode_alpha_widths() {
    // A8 compares the alpha inputs.
    assert_eq!(tev::compare_alpha(200, 100, 9, 1, [0; 3], [0; 3], 0, 3, true), 10);
    assert_eq!(tev::compare_alpha(100, 100, 9, 1, [0; 3], [0; 3], 1, 3, true), 10);
    assert_eq!(tev::compare_alpha(99, 100, 9, 1, [0; 3], [0; 3], 1, 3, true), 1);
    // R8 / GR16 / BGR24 compare the colour combiner's A and B, not the alpha inputs.
    assert_eq!(tev::compare_alpha(0, 255, 9, 1, [10, 0, 0], [9, 0, 0], 0, 0, true), 10);
    assert_eq!(tev::compare_alpha(255, 0, 9, 1, [0, 1, 0], [255, 0, 0], 0, 1, true), 10);
    assert_eq!(tev::compare_alpha(255, 0, 9, 1, [255, 255, 0], [0, 0, 1], 0, 2, true), 1);
}

/// Builds a state from BP writes (genMode first).
fn state(writes: &[(u8, u32)]) -> gx::TevState {
    let mut r = BpRegs::new();
    for &(a, v) in writes {
        r.write(a, v);
    }
    r.state()
}

fn color_env(a: u8, b: u8, c: u8, d: u8, bias: u8, op: u8, clamp: bool, scale: u8, dest: u8) -> u32 {
    ColorCombiner { a, b, c, d, bias, op, clamp, scale, dest }.encode()
}

fn alpha_env(a: u8, b: u8, c: u8, d: u8, bias: u8, op: u8, clamp: bool, scale: u8, dest: u8) -> u32 {
    AlphaCombiner { rswap: 0, tswap: 0, a, b, c, d, bias, op, clamp, scale, dest }.encode()
}

/// The whole evaluator path (register selection, 8-bit wrap of a/b/c, 11-bit d) on a one-stage
/// material, against the facts formula, over a spread of register values.
#[test]
fn evaluator_stage_uses_the_formula_with_register_wrap() {
    let values: [i16; 9] = [-1024, -300, -3, 0, 1, 127, 128, 255, 1023];
    for &(bias, op, scale, clamp) in &[(0u8, 0u8, 0u8, false), (1, 1, 1, true), (2, 0, 2, false), (0, 1, 3, false)] {
        for &va in &values {
            for &vb in &values {
                for &vd in &values {
                    // a = C0, b = C1, c = TEXC, d = C2; alpha: a = A0, b = A1, c = TEXA, d = A2.
                    let reg = |v: i16| ((v as u32) & 0x7FF) | (((v as u32) & 0x7FF) << 12);
                    let st = state(&[
                        (0x00, 0),
                        (0xE2, reg(va)),
                        (0xE3, reg(va)),
                        (0xE4, reg(vb)),
                        (0xE5, reg(vb)),
                        (0xE6, reg(vd)),
                        (0xE7, reg(vd)),
                        (0x28, 0x40),
                        (0xC0, color_env(2, 4, 8, 6, bias, op, clamp, scale, 0)),
                        (0xC1, alpha_env(1, 2, 4, 3, bias, op, clamp, scale, 0)),
                        (0xF6, 0x4), // swap table 0 = RGBA (swap1=R, swap2=G) ...
                        (0xF7, 0xE), // ... (swap1=B, swap2=A)
                    ]);
                    let ev = Evaluator::new(&st);
                    let tex = [17u8, 128, 255, 77];
                    let out = ev.eval(&PixelInputs { tex: vec![tex], ..Default::default() });
                    for ch in 0..4 {
                        let c = tex[ch] as i64;
                        let want =
                            facts_formula((va as u8) as i64, (vb as u8) as i64, c, vd as i64, bias, op, scale, clamp);
                        assert_eq!(out.regs[0][ch] as i64, want, "ch {ch} va {va} vb {vb} vd {vd}");
                    }
                    assert_eq!(out.color[0], out.regs[0][0] as u8);
                    assert_eq!(out.alpha, out.regs[0][3] as u8);
                }
            }
        }
    }
}

#[test]
fn konst_selection_table() {
    let k = [[1, 2, 3, 4], [11, 12, 13, 14], [21, 22, 23, 24], [-31, 32, 33, 1023]];
    assert_eq!(tev::konst_color(0, &k), [255; 3]);
    assert_eq!(tev::konst_color(7, &k), [32; 3]);
    assert_eq!(tev::konst_color(9, &k), [0; 3]);
    assert_eq!(tev::konst_color(13, &k), [11, 12, 13]);
    assert_eq!(tev::konst_color(19, &k), [-31; 3]); // K3.r
    assert_eq!(tev::konst_color(22, &k), [22; 3]); // K2.g
    assert_eq!(tev::konst_color(24, &k), [3; 3]); // K0.b
    assert_eq!(tev::konst_color(31, &k), [1023; 3]); // K3.a
    assert_eq!(tev::konst_alpha(4, &k), 128);
    assert_eq!(tev::konst_alpha(12, &k), 0, "alpha selectors 12-15 read zero (hardware-tested)");
    assert_eq!(tev::konst_alpha(15, &k), 0);
    assert_eq!(tev::konst_alpha(17, &k), 11);
    assert_eq!(tev::konst_alpha(29, &k), 14);
}

#[test]
fn konst_swap_and_ras_through_the_evaluator() {
    // Stage 0: colour = KONST (K1 via kcsel 13) + RASC (d), alpha = TEXA * 1 (a=0,b=TEXA,c=KONST 1).
    let st = state(&[
        (0x00, 0),
        (0xE2, 0x800000 | 40 | (50 << 12)), // K1 r=40 a=50
        (0xE3, 0x800000 | 60 | (70 << 12)), // K1 b=60 g=70
        (0x28, (0 << 7) | 0x40),            // tex enabled, colour channel 0
        (0xC0, color_env(15, 15, 15, 10, 0, 0, true, 0, 0) & !0xF000 | (14 << 12)), // a=KONST c=ZERO -> KONST + RASC
        (
            0xC1,
            AlphaCombiner { rswap: 1, tswap: 2, a: 7, b: 4, c: 6, d: 7, clamp: true, ..Default::default() }.encode(),
        ),
        (0xF6, 0x00D0),          // kcsel0 = 13 (K1), swap table 0 lo = (R, R)
        (0xF7, 0x0000),          // kasel0 = 0 (1.0) ... table 0 hi = (R, R)
        (0xF8, 0x0000 | 0b0101), // table 1: R <- G, G <- G
        (0xF9, 0b1101),          // table 1: B <- G, A <- A  => GGGA
        (0xFA, 0b1010),          // table 2: R <- B, G <- B
        (0xFB, 0b1110),          // table 2: B <- B, A <- A  => BBBA
    ]);
    assert_eq!(st.swap_table(1), [1, 1, 1, 3]);
    assert_eq!(st.swap_table(2), [2, 2, 2, 3]);
    let ev = Evaluator::new(&st);
    let out = ev.eval(&PixelInputs { tex: vec![[1, 2, 3, 99]], ras: [[5, 6, 7, 8], [0; 4]], ..Default::default() });
    // RASC with swap table 1 (GGGA) = (6, 6, 6); KONST K1 = (40, 70, 60).
    assert_eq!(out.color, [46, 76, 66]);
    // TEXA after swap table 2 (BBBA) is still 99; times konst 1.0 (255 -> c' 256) = 99.
    assert_eq!(out.alpha, 99);
}

#[test]
fn output_is_the_last_stages_destinations_wrapped_to_8_bits() {
    // Two stages; stage 1 writes colour to C1 and alpha to C2. C1 gets ONE*4 unclamped = 1020,
    // which wraps to 252 at the output.
    let st = state(&[
        (0x00, 1 << 10),
        (0xC0, color_env(15, 15, 15, 12, 0, 0, false, 0, 0)),
        (0xC1, alpha_env(7, 7, 7, 7, 0, 0, false, 0, 0)),
        (0xC2, color_env(15, 15, 15, 12, 0, 0, false, 2, 2)),
        (0xC3, alpha_env(7, 7, 7, 0, 1, 0, false, 0, 3)),
    ]);
    let out = Evaluator::new(&st).eval(&PixelInputs::default());
    assert_eq!(out.regs[2][..3], [1020, 1020, 1020]);
    assert_eq!(out.color, [252, 252, 252]);
    // Alpha: APREV (0) + 128 into C2.a.
    assert_eq!(out.alpha, 128);
    assert_eq!(out.regs[0][..3], [255, 255, 255]);
}

#[test]
fn disabled_texture_reads_255_and_bump_alpha_ras() {
    let st = state(&[
        (0x00, 0 | (1 << 16) | 1), // 1 texgen, 1 indirect stage
        (0x10, TevStageIndirect { bt: 0, fmt: 0, bs: 1, ..Default::default() }.encode()),
        (0x28, 6 << 7), // texture disabled, ras = normalized bump alpha
        (0xC0, color_env(15, 15, 15, 8, 0, 0, true, 0, 0)), // TEXC
        (0xC1, alpha_env(7, 7, 7, 5, 0, 0, true, 0, 0)), // RASA
    ]);
    let mut input = PixelInputs { tex: vec![[1, 2, 3, 4]], ..Default::default() };
    input.ind_tex[0] = [0, 0, 0, 0xAF]; // S = alpha byte 0xAF -> bump alpha 0xA8, normalized 0xA8 | 0x05
    let out = Evaluator::new(&st).eval(&input);
    assert_eq!(out.color, [255, 255, 255]);
    assert_eq!(out.indirect.bump_alpha[0], 0xA8);
    assert_eq!(out.alpha, 0xAD);
}

#[test]
fn alpha_test_functions_and_logic() {
    let mut st = gx::TevState::default();
    st.alpha_test = AlphaTest { ref0: 100, ref1: 200, comp0: 4, comp1: 1, logic: 0 }; // a > 100 AND a < 200
    assert!(tev::alpha_test(&st, 150));
    assert!(!tev::alpha_test(&st, 100));
    assert!(!tev::alpha_test(&st, 200));
    st.alpha_test.logic = 1; // OR
    assert!(tev::alpha_test(&st, 250));
    st.alpha_test = AlphaTest { ref0: 5, ref1: 5, comp0: 2, comp1: 5, logic: 2 }; // EQ XOR NEQ: always true
    assert!(tev::alpha_test(&st, 5) && tev::alpha_test(&st, 6));
    st.alpha_test.logic = 3; // XNOR: always false
    assert!(!tev::alpha_test(&st, 5) && !tev::alpha_test(&st, 6));
    for (func, want) in [(0, false), (1, false), (2, true), (3, true), (4, false), (5, false), (6, true), (7, true)] {
        assert_eq!(tev::alpha_compare(7, 7, func), want, "func {func}");
    }
}

#[test]
fn indirect_worked_example_from_the_facts() {
    // ITF_8, bias STU, matrix 0 = 0.5 on the diagonal, scale field 17 (exponent 0), alpha 200:
    // s = 72, off_s = (512 * 72) >> 3 = 4608 (36 texels in s17.7).
    let st = state(&[
        (0x00, 1 | (1 << 16)),
        (0x06, 512 | (1 << 22)),         // A: row0 512, scale bits 0-1 = 1
        (0x07, (512 << 11) | (0 << 22)), // B: row1 512, scale bits 2-3 = 0
        (0x08, 1 << 22),                 // C: scale bit 4 = 1 -> scale 17
        (0x10, TevStageIndirect { bias: 7, mtx_index: 1, ..Default::default() }.encode()),
    ]);
    assert_eq!(st.ind_mtx[0].exponent(), 0);
    let mut input = PixelInputs::default();
    input.ind_tex[0] = [0, 0, 200, 200]; // U = green 0 -> -128, T = blue 200 -> 72, S = alpha 200 -> 72
    let r = indirect::compute(&st, &input);
    assert_eq!(r.tevcoord[0], [4608, 4608]);
}

#[test]
fn indirect_formats_bias_and_dynamic_matrices() {
    assert_eq!(format_split(0xAF, 0), (0xAF, 0xA8));
    assert_eq!(format_split(0xAF, 1), (0x15, 0xE0)); // ITF_5: 0xAF >> 3, low 3 bits (111) moved up
    assert_eq!(format_split(0xAF, 2), (0x0A, 0xF0));
    assert_eq!(format_split(0xAF, 3), (0x05, 0x78));
    let mut m = [gx::bp::IndMatrix::default(); 3];
    // Scale 15 (exponent -2): shift right by 2 after the >> 3.
    m[2].a.scale_bits = 3;
    m[2].b.scale_bits = 3;
    assert_eq!(m[2].scale(), 15);
    m[2].a.row0 = -1024; // -1.0
    m[2].b.row1 = 256; // 0.25
    let ind = TevStageIndirect { fmt: 1, bias: 0b011, mtx_index: 3, ..Default::default() };
    // ITF_5: S = (alpha 0x80 >> 3) + 1 = 17, T = (blue 0x40 >> 3) + 1 = 9, U = (0x20 >> 3) = 4.
    let (off, _) = indirect::stage_offset(&ind, [0, 0x20, 0x40, 0x80], &m, [0, 0]);
    // s: (-1024 * 17) >> 3 = -2176, >> 2 = -544; t: (256 * 9) >> 3 = 288, >> 2 = 72.
    assert_eq!(off, [-544, 72]);
    // Scale 19 (exponent +2) shifts left instead.
    m[2].c.scale_bit4 = 1;
    m[2].b.scale_bits = 0;
    assert_eq!(m[2].scale(), 19);
    let (off, _) = indirect::stage_offset(&ind, [0, 0x20, 0x40, 0x80], &m, [0, 0]);
    assert_eq!(off, [-2176 << 2, 288 << 2]);
    // Dynamic S with scale 17 (no shift): (coord * s) >> 8, flooring.
    let mut m0 = [gx::bp::IndMatrix::default(); 3];
    m0[0].a.scale_bits = 1;
    m0[0].c.scale_bit4 = 1;
    let ind = TevStageIndirect { fmt: 0, bias: 0b001, mtx_index: 1, mtx_id: 1, ..Default::default() };
    // S = 100 - 128 = -28; coord (1000, -5): (1000 * -28) >> 8 = -110 (floor of -109.4); (-5 * -28) >> 8 = 0.
    let (off, _) = indirect::stage_offset(&ind, [0, 0, 0, 100], &m0, [1000, -5]);
    assert_eq!(off, [-110, 0]);
}

#[test]
fn indirect_wrap_and_add_previous() {
    assert_eq!(wrap(-1, 1), (256 << 7) - 1);
    assert_eq!(wrap(5000, 5), 5000 & ((16 << 7) - 1));
    assert_eq!(wrap(5000, 6), 0);
    assert_eq!(wrap(5000, 7), 0);
    // Two stages on texcoord 0; the second adds the first's coordinate.
    let st = state(&[
        (0x00, 1 | (1 << 10)),
        (0x10, TevStageIndirect { sw: 5, tw: 0, bt: 3, ..Default::default() }.encode()),
        (0x11, TevStageIndirect { sw: 0, tw: 6, fb_addprev: true, ..Default::default() }.encode()),
    ]);
    let mut input = PixelInputs::default();
    input.texcoords[0] = [3000, -70];
    let r = indirect::compute(&st, &input);
    assert_eq!(r.tevcoord[0], [3000 & 2047, -70]);
    assert_eq!(r.tevcoord[1], [(3000 & 2047) + 3000, -70]);
    // The result is sign-wrapped to 24 bits.
    input.texcoords[0] = [0x7F_FFFF, 0];
    let r = indirect::compute(&st, &input);
    assert_eq!(r.tevcoord[1][0], 0x7F_FFFF + 2047 - (1 << 24));
}

#[test]
fn compare_stages_through_the_evaluator() {
    // Colour: GR16 GT of TEXC vs RASC, adding KONST (K0 via kcsel 12) to C0.
    // Alpha: R8 EQ on the colour combiner's A and B inputs (TEXC.r vs RASC.r), adding TEXA to A0.
    let st = state(&[
        (0x00, 0),
        (0xE0, 0x800000 | 7 | (9 << 12)), // K0 r = 7, a = 9
        (0xE1, 0x800000 | 5 | (6 << 12)), // K0 b = 5, g = 6
        (0xE2, 100 | (50 << 12)),         // C0 r = 100, a = 50
        (0xE3, 100 | (100 << 12)),        // C0 b = g = 100
        (0x28, 0x40),
        (0xC0, color_env(8, 10, 14, 2, 3, 0, true, 1, 0)),
        (0xC1, alpha_env(7, 7, 4, 1, 3, 1, true, 0, 0)),
        (0xF6, 0x00C4), // kcsel0 = 12 (K0), swap table 0 = R, G ...
        (0xF7, 0x000E), // ... B, A
    ]);
    let ev = Evaluator::new(&st);
    // TEXC (10, 2, 0) vs RASC (200, 1, 9): GR16 0x020A > 0x01C8 -> adds K0 = (7, 6, 5).
    // Alpha: TEXC.r 10 == RASC.r 200? no -> A0 = 50.
    let out = ev.eval(&PixelInputs { tex: vec![[10, 2, 0, 30]], ras: [[200, 1, 9, 0], [0; 4]], ..Default::default() });
    assert_eq!(out.color, [107, 106, 105]);
    assert_eq!(out.alpha, 50);
    // Equal reds: the alpha compare passes and adds TEXA (30); GR16 of (200, 1) vs (200, 1) is not GT.
    let out = ev.eval(&PixelInputs { tex: vec![[200, 1, 0, 30]], ras: [[200, 1, 9, 0], [0; 4]], ..Default::default() });
    assert_eq!(out.color, [100, 100, 100]);
    assert_eq!(out.alpha, 80);
}

//! The catalogue: one named test per hardware-tested fact of docs/specs/pica200-fragment-facts.md
//! appendix B that concerns TexEnv, fog, the alpha test or shadows, each asserting the
//! reference's exact output with values computed by hand from the facts' formulas.
//!
//! Appendix B lists no hardware-tested fact about the alpha test or shadows (their behaviour in
//! the facts is documentation or emulator behaviour); fixed_pipeline.rs covers those, and the
//! facts of appendix B about lighting, quaternions and procedural textures belong to the
//! lighting and procedural-texture steps.

mod fixed_common;

use fixed_common::*;
use pica::fixed::decisions;
use pica::regs::layouts::{TexEnvCombine, TexEnvScale, TexEnvSource as S};
use pica::regs::Writer;

/// Appendix B "combiner buffer lags one stage" (citra#1140, citra#1261; facts 2.3). The facts'
/// own example: bits 8 and 10 set (stages 0 and 2 write the buffer's RGB). Stage k reading the
/// buffer sees: stage 0 -> 0, stage 1 -> TEXENV_BUFFER_COLOR, stages 2 and 3 -> stage 0's
/// output, stages 4 and 5 -> stage 2's output.
#[test]
fn b1_combiner_buffer_lags_one_stage() {
    let constants: [[u8; 4]; 6] = std::array::from_fn(|j| [10 + j as u8, 20 + j as u8, 30 + j as u8, 40 + j as u8]);
    let buffer_color = [0xB0, 0xB1, 0xB2, 0xB3];
    let expected_rgb = [[0, 0, 0], [0xB0, 0xB1, 0xB2], [10, 20, 30], [10, 20, 30], [12, 22, 32], [12, 22, 32]];
    for (k, want) in expected_rgb.iter().enumerate() {
        let mut s = state();
        for (j, c) in constants.iter().enumerate() {
            let stage =
                if j == k { Stage { constant: *c, ..Stage::replace(S::PreviousBuffer) } } else { Stage::constant(*c) };
            stage.write(&mut s.regs, j);
        }
        s.regs[0x0E0] = (1 << 8) | (1 << 10);
        s.regs[0x0FD] = u32::from_le_bytes(buffer_color);
        let t = trace(&s, &inputs([0.0; 4]), &mut flat([0; 4]));
        let out = t.texenv[k];
        assert_eq!(&out[..3], want, "stage {k} reading the buffer");
        // No alpha bit is set: the buffer's alpha stays the initial colour's from stage 1 on.
        assert_eq!(out[3], if k == 0 { 0 } else { 0xB3 }, "stage {k} buffer alpha");
    }
}

/// The same lag for alpha (bits 12-15): stage 3 writes alpha, so stage 5 sees it and stage 4
/// does not (facts 2.3: b_j takes out_{j-1} when bit 12+(j-1) is set).
#[test]
fn b1_combiner_buffer_alpha_lags_one_stage() {
    let mut s = state();
    for j in 0..4 {
        Stage::constant([1, 2, 3, 50 + j as u8]).write(&mut s.regs, j);
    }
    Stage::replace(S::PreviousBuffer).write(&mut s.regs, 4);
    s.regs[0x0E0] = 1 << 15;
    s.regs[0x0FD] = 0x7700_0000;
    let t = trace(&s, &inputs([0.0; 4]), &mut flat([0; 4]));
    assert_eq!(t.texenv[4][3], 0x77);
    let mut s5 = s.clone();
    Stage::pass().write(&mut s5.regs, 4);
    Stage::replace(S::PreviousBuffer).write(&mut s5.regs, 5);
    let t5 = trace(&s5, &inputs([0.0; 4]), &mut flat([0; 4]));
    assert_eq!(t5.texenv[5][3], 53);
}

/// Appendix B "Dot3 RGBA copies dot to alpha, ignores alpha combiner" (citra#2671; facts 2.6).
/// a = (200, 100, 128), b = (180, 60, 128): (2a-255)(2b-255) = 145*105, (-55)(-135), 1*1 =
/// 15225, 7425, 1; shifted by 8 (decision D2b): 59, 29, 0; dot = 88. The alpha combiner
/// (Add of constant alpha 10 and primary alpha 255 = 255) is ignored; the alpha scale (x2)
/// applies to the copied dot: 176.
#[test]
fn b2_dot3_rgba_copies_the_dot_product_to_alpha_and_ignores_the_alpha_combiner() {
    let stage = Stage {
        rgb_source: [S::Constant, S::PrimaryColor, S::Constant],
        alpha_source: [S::Constant, S::PrimaryColor, S::Constant],
        rgb_combine: TexEnvCombine::Dot3Rgba,
        alpha_combine: TexEnvCombine::Add,
        alpha_scale: TexEnvScale::X2,
        constant: [200, 100, 128, 10],
        ..Stage::pass()
    };
    let s = one_stage(stage);
    let primary = [180.0 / 255.0, 60.0 / 255.0, 128.0 / 255.0, 1.0];
    assert_eq!(color(run(&s, &inputs(primary), &mut flat([0; 4]))), [88, 88, 88, 176]);
    // Dot3 RGB leaves the alpha combiner in charge: 10 + 255 -> 255, x2 -> 255.
    let mut rgb = stage;
    rgb.rgb_combine = TexEnvCombine::Dot3Rgb;
    assert_eq!(color(run(&one_stage(rgb), &inputs(primary), &mut flat([0; 4]))), [88, 88, 88, 255]);
}

/// Appendix B "Dot3 per-component precision <= 1/256; 0x80 vs 0x7F differ" (Azahar's
/// sw_texturing.cpp comment, citra#767). With g = (255, 200), b = (128, 128): the G term is
/// (255)(145) = 36975 >> 8 = 144, the B term 1 >> 8 = 0; the R term is 1*1 >> 8 = 0 for
/// (0x80, 0x80) and 1*(-1) >> 8 = -1 for (0x80, 0x7F): 144 against 143 (decision D2b).
#[test]
fn b3_dot3_distinguishes_0x80_from_0x7f_at_1_256_precision() {
    assert_eq!(decisions::dot3([0x80, 255, 128], [0x80, 200, 128]), 144);
    assert_eq!(decisions::dot3([0x80, 255, 128], [0x7F, 200, 128]), 143);
    // Precision 1/256: products below 256 contribute nothing, 256 contributes one.
    // 255 * 1 + 1 + 1: every term below 256.
    assert_eq!(decisions::dot3([255, 128, 128], [128, 128, 128]), 0);
    // 255 * 3 = 765 >> 8 = 2.
    assert_eq!(decisions::dot3([255, 128, 128], [0x81, 128, 128]), 2);
    // Through a stage: the same two cases give 144 and 143 on every RGB channel.
    for (r, want) in [(0x80u8, 144u8), (0x7F, 143)] {
        let stage = Stage {
            rgb_source: [S::Constant, S::PrimaryColor, S::Constant],
            rgb_combine: TexEnvCombine::Dot3Rgb,
            constant: [0x80, 255, 128, 0],
            ..Stage::pass()
        };
        let primary = [f32::from(r) / 255.0, 200.0 / 255.0, 128.0 / 255.0, 0.0];
        let out = color(run(&one_stage(stage), &inputs(primary), &mut flat([0; 4])));
        assert_eq!(&out[..3], &[want; 3]);
    }
}

/// A fog state: the combiner outputs `tev`; fog on with colour (10, 20, 30); identity depth.
fn fog_state(tev: [u8; 4], lut: &[(usize, u32)]) -> pica::state::GpuState {
    let mut s = one_stage(Stage::constant(tev));
    identity_depth(&mut s);
    s.regs[0x0E0] = 5;
    s.regs[0x0E1] = 0x1E140A;
    for &(i, v) in lut {
        std::sync::Arc::make_mut(&mut s.memories.fog)[i] = v;
    }
    s
}

/// Appendix B "fog: RGB-only final combiner" (citra#1875, JayFoxRox's fog test; facts 4.1).
/// At depth 0.25 the index is 32.0 (entry 32, f = 0); entry 32 holds value 1023 (bits 13-23),
/// delta 0: F = 1023/2047. rgb = trunc(F*c + (1-F)*fog): (200, 100, 50) over fog (10, 20, 30)
/// give 104, 59, 39 (104.95, 59.98, 39.99); alpha 77 is untouched.
#[test]
fn b4_fog_blends_rgb_only_and_leaves_alpha() {
    let s = fog_state([200, 100, 50, 77], &[(32, 1023 << 13)]);
    let mut i = inputs([0.0; 4]);
    i.z_over_w = 0.25;
    assert_eq!(color(run(&s, &i, &mut flat([0; 4]))), [104, 59, 39, 77]);
    // Hand-check of the first channel's float arithmetic.
    let f = 1023.0f32 / 2047.0;
    assert_eq!((f * 200.0 + (1.0 - f) * 10.0) as u8, 104);
}

/// Appendix B "fog index wraps at 128" (citra#1875; facts 4.1: FOG_LUT_INDEX is effectively 7
/// bits). Uploading two entries from index 127 writes entries 127 and 0; depth 0 reads entry 0.
/// Entry 0 = value 2047 (F = 1) with delta -2047 (bits 0-12 = 0x1801): at depth 1/256 (index
/// 0.5) F = 1 - 0.5 = 0.5: (200 + 10) / 2 = 105, (100 + 20) / 2 = 60, (50 + 30) / 2 = 40.
#[test]
fn b5_fog_lut_upload_index_wraps_at_128() {
    let mut w = Writer::new();
    w.write(0x0E6, 127).write(0x0E8, 0x1234).write(0x0E8, (2047 << 13) | 0x1801);
    let mut s = fog_state([200, 100, 50, 77], &[]);
    s.apply_list(&w.finish());
    assert_eq!(s.memories.fog[127], 0x1234);
    assert_eq!(s.memories.fog[0], (2047 << 13) | 0x1801);
    let mut i = inputs([0.0; 4]);
    i.z_over_w = 0.0;
    assert_eq!(color(run(&s, &i, &mut flat([0; 4]))), [200, 100, 50, 77]);
    i.z_over_w = 1.0 / 256.0;
    assert_eq!(color(run(&s, &i, &mut flat([0; 4]))), [105, 60, 40, 77]);
}

/// Appendix B "fog LUT uninitialised at boot" (citra#1875): the reference has no LUT of its
/// own; the factor is exactly what was uploaded. Entry 64 = value 0 gives the fog colour,
/// value 2047 the fragment colour, at depth 0.5 (index 64.0).
#[test]
fn b6_fog_factor_comes_only_from_the_uploaded_lut() {
    let mut i = inputs([0.0; 4]);
    i.z_over_w = 0.5;
    let zero = fog_state([200, 100, 50, 77], &[(64, 0)]);
    assert_eq!(color(run(&zero, &i, &mut flat([0; 4]))), [10, 20, 30, 77]);
    let one = fog_state([200, 100, 50, 77], &[(64, 2047 << 13)]);
    assert_eq!(color(run(&one, &i, &mut flat([0; 4]))), [200, 100, 50, 77]);
    // Z flip indexes with 1 - depth: depth 0.25 -> index 96.
    let mut flip = fog_state([200, 100, 50, 77], &[(96, 0), (32, 2047 << 13)]);
    flip.regs[0x0E0] |= 1 << 16;
    i.z_over_w = 0.25;
    assert_eq!(color(run(&flip, &i, &mut flat([0; 4]))), [10, 20, 30, 77]);
}

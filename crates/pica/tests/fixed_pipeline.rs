//! Hand-computed outputs of the fragment reference for every combiner, operand, source and scale,
//! the decisions of docs/pica-fragment.md, the texture-unit coordinate types, the alpha test,
//! shadow textures and shadow rendering (docs/specs/pica200-fragment-facts.md sections cited).

mod fixed_common;

use std::cell::RefCell;

use fixed_common::*;
use pica::fixed::output::shadow_update;
use pica::fixed::texenv::{alpha_operand, combine_alpha, combine_channel, combine_rgb, rgb_operand};
use pica::fixed::texture::cube_coords;
use pica::fixed::{CubeFace, FragmentResult, FragmentUniforms, ShadowWrite, TexCoord, TexelRequest};
use pica::regs::layouts::{
    TexEnvAlphaOperand as AOp, TexEnvCombine as C, TexEnvRgbOperand as ROp, TexEnvScale, TexEnvSource as S,
};

/// Facts 2.5, the integer column (decision D1: products divided by 255, truncated).
#[test]
fn combine_functions_on_bytes() {
    let cases: &[(C, u8, u8, u8, u8)] = &[
        (C::Replace, 77, 1, 2, 77),
        (C::Modulate, 200, 200, 0, 156), // 40000 / 255 = 156.86 (the facts' example)
        (C::Modulate, 255, 255, 0, 255),
        (C::Modulate, 128, 128, 0, 64), // 16384 / 255 = 64.25
        (C::Modulate, 255, 1, 0, 1),
        (C::Add, 200, 100, 0, 255),
        (C::Add, 20, 30, 0, 50),
        (C::AddSigned, 200, 100, 0, 172),
        (C::AddSigned, 10, 20, 0, 0),
        (C::AddSigned, 255, 255, 0, 255),
        (C::Interpolate, 200, 100, 128, 150), // (25600 + 12700) / 255 = 150.2
        (C::Interpolate, 200, 100, 255, 200),
        (C::Interpolate, 200, 100, 0, 100),
        (C::Subtract, 100, 200, 0, 0),
        (C::Subtract, 200, 100, 0, 100),
        (C::MultiplyAdd, 200, 200, 100, 255), // 65500 / 255 = 256.9, clamped
        (C::MultiplyAdd, 100, 100, 50, 89),   // 22750 / 255 = 89.2
        (C::AddMultiply, 100, 100, 128, 100), // 200 * 128 / 255 = 100.4
        (C::AddMultiply, 200, 100, 128, 128), // min(300, 255) * 128 / 255
        (C::Other(10), 200, 100, 50, 0),
        (C::Other(15), 200, 100, 50, 0),
    ];
    for &(op, a, b, c, want) in cases {
        assert_eq!(combine_channel(op, a, b, c), want, "{op:?}({a}, {b}, {c})");
        assert_eq!(combine_alpha(op, a, b, c), want, "alpha {op:?}({a}, {b}, {c})");
        assert_eq!(combine_rgb(op, [a; 3], [b; 3], [c; 3]), [want; 3]);
    }
    // Dot3 as an alpha combine gives 0 (decision D4c).
    assert_eq!(combine_alpha(C::Dot3Rgb, 255, 255, 0), 0);
    assert_eq!(combine_alpha(C::Dot3Rgba, 255, 255, 0), 0);
    // Dot3 RGB of (255, 128, 128) with itself: 65025 >> 8 = 254, then 0, 0.
    assert_eq!(combine_rgb(C::Dot3Rgb, [255, 128, 128], [255, 128, 128], [0; 3]), [254; 3]);
    // Opposite vectors clamp at 0.
    assert_eq!(combine_rgb(C::Dot3Rgb, [255, 255, 255], [0, 0, 0], [0; 3]), [0; 3]);
}

/// The same values through a whole stage, per channel: a = constant, b = primary colour,
/// c = texture 0.
#[test]
fn combine_functions_through_a_stage() {
    let mut s = one_stage(Stage {
        constant: [200, 100, 10, 255],
        ..Stage::op(C::Interpolate, [S::Constant, S::PrimaryColor, S::Texture0])
    });
    s.regs[0x080] = 1;
    let primary = [100.0 / 255.0, 200.0 / 255.0, 1.0, 0.0];
    // c = (128, 255, 0, 64): (200*128 + 100*127)/255 = 150, (100*255 + 0)/255 = 100, 255,
    // alpha (255*64 + 0*191)/255 = 64.
    assert_eq!(color(run(&s, &inputs(primary), &mut flat([128, 255, 0, 64]))), [150, 100, 255, 64]);
}

/// Facts 2.4: RGB and alpha operands; undefined RGB operands give 0 (decision D4b).
#[test]
fn operands_select_and_invert_channels() {
    let v = [10, 20, 30, 40];
    let cases: &[(ROp, [u8; 3])] = &[
        (ROp::SrcColor, [10, 20, 30]),
        (ROp::OneMinusSrcColor, [245, 235, 225]),
        (ROp::SrcAlpha, [40; 3]),
        (ROp::OneMinusSrcAlpha, [215; 3]),
        (ROp::SrcRed, [10; 3]),
        (ROp::OneMinusSrcRed, [245; 3]),
        (ROp::SrcGreen, [20; 3]),
        (ROp::OneMinusSrcGreen, [235; 3]),
        (ROp::SrcBlue, [30; 3]),
        (ROp::OneMinusSrcBlue, [225; 3]),
    ];
    for &(op, want) in cases {
        assert_eq!(rgb_operand(op, v), want, "{op:?}");
    }
    for raw in [6, 7, 10, 11, 14, 15] {
        assert_eq!(rgb_operand(ROp::from_raw(raw), v), [0; 3], "operand {raw}");
    }
    let alpha: &[(AOp, u8)] = &[
        (AOp::SrcAlpha, 40),
        (AOp::OneMinusSrcAlpha, 215),
        (AOp::SrcRed, 10),
        (AOp::OneMinusSrcRed, 245),
        (AOp::SrcGreen, 20),
        (AOp::OneMinusSrcGreen, 235),
        (AOp::SrcBlue, 30),
        (AOp::OneMinusSrcBlue, 225),
    ];
    for &(op, want) in alpha {
        assert_eq!(alpha_operand(op, v), want, "{op:?}");
    }
}

/// Facts 2.7 and decision D4d: x1, x2, x4 saturate at 255; field value 3 is x1.
#[test]
fn scales_multiply_and_saturate() {
    let base = Stage::constant([60, 100, 200, 70]);
    for (scale, want) in
        [(0u32, [60, 100, 200, 70]), (1, [120, 200, 255, 140]), (2, [240, 255, 255, 255]), (3, [60, 100, 200, 70])]
    {
        let st = Stage { rgb_scale: TexEnvScale::from_raw(scale), alpha_scale: TexEnvScale::from_raw(scale), ..base };
        assert_eq!(color(run(&one_stage(st), &inputs([0.0; 4]), &mut flat([0; 4]))), want, "scale {scale}");
    }
    // Modulate(200, 200) = 156, x2 = 255.
    let st = Stage {
        constant: [200; 4],
        rgb_scale: TexEnvScale::X2,
        ..Stage::op(C::Modulate, [S::Constant, S::Constant, S::Constant])
    };
    assert_eq!(color(run(&one_stage(st), &inputs([0.0; 4]), &mut flat([0; 4]))), [255, 255, 255, 156]);
}

/// Decision D3: in stage 0 "previous" starts at 0; RGB sources 0 and 1 equal to "previous"
/// read RGB source 2; alpha sources do not; "previous buffer" is 0.
#[test]
fn stage0_previous_and_buffer() {
    let st = Stage {
        rgb_source: [S::Previous, S::Constant, S::PrimaryColor],
        alpha_source: [S::Previous, S::Constant, S::PrimaryColor],
        constant: [9; 4],
        ..Stage::pass()
    };
    let primary = [1.0, 0.0, 1.0, 1.0];
    assert_eq!(color(run(&one_stage(st), &inputs(primary), &mut flat([0; 4]))), [255, 0, 255, 0]);
    // Source 2 itself "previous": reads 0.
    let st = Stage { rgb_source: [S::Previous, S::Constant, S::Previous], ..st };
    assert_eq!(color(run(&one_stage(st), &inputs(primary), &mut flat([0; 4]))), [0, 0, 0, 0]);
    let mut s = one_stage(Stage::replace(S::PreviousBuffer));
    s.regs[0x0FD] = 0xFFFF_FFFF;
    assert_eq!(color(run(&s, &inputs(primary), &mut flat([0; 4]))), [0, 0, 0, 0]);
    // From stage 1 on, "previous" is the previous stage's output.
    let mut s = one_stage(Stage::constant([1, 2, 3, 4]));
    Stage::op(C::Add, [S::Previous, S::Previous, S::Constant]).write(&mut s.regs, 1);
    assert_eq!(color(run(&s, &inputs(primary), &mut flat([0; 4]))), [2, 4, 6, 8]);
}

/// Facts 2.2 and decision D4a: sources 7-12 read 0; sources 0-6, 13-15 what they name.
#[test]
fn sources_read_what_they_name() {
    let mut s = state();
    s.regs[0x080] = 0b111;
    let primary = [1.0, 0.0, 0.0, 1.0];
    let texel = |r: TexelRequest| [10 + r.unit as u8, 20, 30, 40];
    let cases: &[(S, [u8; 4])] = &[
        (S::PrimaryColor, [255, 0, 0, 255]),
        (S::FragmentPrimaryColor, [0; 4]), // lighting disabled (D16: ENABLE0 reads 0)
        (S::FragmentSecondaryColor, [0; 4]),
        (S::Texture0, [10, 20, 30, 40]),
        (S::Texture1, [11, 20, 30, 40]),
        (S::Texture2, [12, 20, 30, 40]),
        (S::Texture3, [0; 4]), // unit 3 disabled (TEXUNIT_CONFIG bit 10)
        (S::Constant, [5, 6, 7, 8]),
    ];
    for &(src, want) in cases {
        let mut st = s.clone();
        Stage { constant: [5, 6, 7, 8], ..Stage::replace(src) }.write(&mut st.regs, 0);
        assert_eq!(color(run(&st, &inputs(primary), &mut { texel })), want, "{src:?}");
    }
    for raw in 7..=12 {
        let mut st = s.clone();
        Stage { constant: [5, 6, 7, 8], ..Stage::replace(S::from_raw(raw)) }.write(&mut st.regs, 0);
        assert_eq!(color(run(&st, &inputs(primary), &mut { texel })), [0; 4], "source {raw}");
    }
}

/// Decision D5: primary colour bytes round half away from zero; out-of-range and NaN clamp.
#[test]
fn primary_colour_rounds_to_bytes() {
    let s = one_stage(Stage::replace(S::PrimaryColor));
    let r = |c: [f32; 4]| color(run(&s, &inputs(c), &mut flat([0; 4])));
    assert_eq!(r([0.5, 1.0 / 510.0, 2.0, -1.0]), [128, 1, 255, 0]); // 127.5, 0.5
    assert_eq!(r([f32::NAN, 0.499 / 255.0, 254.5 / 255.0, 1.0]), [0, 0, 255, 255]);
}

/// Facts 6.5: the alpha test compares the combiner's alpha byte with the reference.
#[test]
fn alpha_test_functions() {
    let want: [(u32, [bool; 3]); 8] = [
        (0, [false, false, false]), // never
        (1, [true, true, true]),    // always
        (2, [false, true, false]),  // equal
        (3, [true, false, true]),   // not equal
        (4, [true, false, false]),  // less
        (5, [true, true, false]),   // less or equal
        (6, [false, false, true]),  // greater
        (7, [false, true, true]),   // greater or equal
    ];
    for (func, passes) in want {
        for (alpha, pass) in [127u8, 128, 129].into_iter().zip(passes) {
            let mut s = one_stage(Stage::constant([1, 2, 3, alpha]));
            s.regs[0x104] = 1 | (func << 4) | (128 << 8);
            let r = run(&s, &inputs([0.0; 4]), &mut flat([0; 4]));
            let expect = if pass {
                FragmentResult::Color { rgba: [1, 2, 3, alpha], depth: 0.0 }
            } else {
                FragmentResult::Discarded
            };
            assert_eq!(r, expect, "func {func} alpha {alpha}");
        }
    }
    // Disabled: passes whatever the function.
    let mut s = one_stage(Stage::constant([1, 2, 3, 4]));
    s.regs[0x104] = 128 << 8;
    assert_eq!(color(run(&s, &inputs([0.0; 4]), &mut flat([0; 4]))), [1, 2, 3, 4]);
}

/// A state whose combiner output is texture 0, with unit 0 of type `ty`.
fn texture0_state(ty: u32) -> pica::state::GpuState {
    let mut s = one_stage(Stage::replace(S::Texture0));
    s.regs[0x080] = 1;
    s.regs[0x083] = ty << 28;
    s
}

/// Facts 6.2: 2D reads (u, v); projection (u/w, v/w); a disabled unit or type "disabled"
/// reads 0 without sampling; unit 2 reads texture coordinate 1 when TEXUNIT_CONFIG bit 13 is set.
#[test]
fn texture_coordinates_per_type() {
    let seen = RefCell::new(Vec::new());
    let mut sampler = |r: TexelRequest| {
        seen.borrow_mut().push(r);
        [1, 2, 3, 4]
    };
    let mut i = inputs([0.0; 4]);
    i.texcoord = [[0.25, 0.75], [0.5, 0.125], [0.375, 0.625]];
    i.texcoord0_w = 2.0;
    assert_eq!(color(run(&texture0_state(0), &i, &mut sampler)), [1, 2, 3, 4]);
    assert_eq!(seen.borrow()[0].coord, TexCoord::Plane { s: 0.25, t: 0.75 });
    assert!(!seen.borrow()[0].shadow);
    run(&texture0_state(3), &i, &mut sampler);
    assert_eq!(seen.borrow()[1].coord, TexCoord::Plane { s: 0.125, t: 0.375 });
    let n = seen.borrow().len();
    assert_eq!(color(run(&texture0_state(5), &i, &mut sampler)), [0; 4]);
    let mut off = texture0_state(0);
    off.regs[0x080] = 0;
    assert_eq!(color(run(&off, &i, &mut sampler)), [0; 4]);
    assert_eq!(seen.borrow().len(), n, "disabled units are not sampled");
    // Unit 2 on texture coordinate 1.
    let mut u2 = one_stage(Stage::replace(S::Texture2));
    u2.regs[0x080] = 0b100 | (1 << 13);
    run(&u2, &i, &mut sampler);
    assert_eq!(seen.borrow()[n].unit, 2);
    assert_eq!(seen.borrow()[n].coord, TexCoord::Plane { s: 0.5, t: 0.125 });
    u2.regs[0x080] = 0b100;
    run(&u2, &i, &mut sampler);
    assert_eq!(seen.borrow()[n + 1].coord, TexCoord::Plane { s: 0.375, t: 0.625 });
    // Units 1 and 2 ignore the type field (only unit 0 honours it).
    let mut u1 = one_stage(Stage::replace(S::Texture1));
    u1.regs[0x080] = 0b10;
    u1.regs[0x093] = 3 << 28;
    run(&u1, &i, &mut sampler);
    assert_eq!(seen.borrow()[n + 2].coord, TexCoord::Plane { s: 0.5, t: 0.125 });
}

/// Facts 6.2 cube-face selection and decision D11 (ties fall through to the later face).
#[test]
fn cube_faces_and_ties() {
    let (face, s, t, z) = cube_coords(0.2, -0.9, 0.1);
    assert_eq!(face, CubeFace::NegativeY);
    // x = -u, y = w, z = v.
    assert_eq!((s, t, z), (-0.2f32 / -0.9 * 0.5 + 0.5, 0.1f32 / -0.9 * 0.5 + 0.5, 0.9));
    assert_eq!(cube_coords(-2.0, 1.0, 0.5).0, CubeFace::NegativeX);
    let (face, s, t, _) = cube_coords(2.0, 1.0, 0.5);
    assert_eq!(face, CubeFace::PositiveX);
    assert_eq!((s, t), (-0.5f32 / 2.0 * 0.5 + 0.5, -1.0f32 / 2.0 * 0.5 + 0.5)); // x = -w, y = -v
    assert_eq!(cube_coords(0.0, 0.0, 1.0).0, CubeFace::PositiveZ);
    assert_eq!(cube_coords(0.0, 0.0, -1.0).0, CubeFace::NegativeZ);
    assert_eq!(cube_coords(1.0, 1.0, 0.5).0, CubeFace::PositiveY); // |u| = |v|: not X
    assert_eq!(cube_coords(1.0, 1.0, 1.0).0, CubeFace::PositiveZ); // all equal: Z
    assert_eq!(cube_coords(-1.0, 0.5, -1.0).0, CubeFace::NegativeZ); // |u| = |w|: Z
}

/// Facts 6.3 and decision D9: shadow 2D compares z_ref = A.B.G of the stored texel with
/// trunc(min(|w|, 1) * 0xFFFFFF) - bias, z_ref >= z giving the intensity R on all channels.
#[test]
fn shadow_texture_compare() {
    let texel = [200, 0x56, 0x34, 0x12]; // z_ref = 0x123456 = 1193046
    let mut i = inputs([0.0; 4]);
    i.texcoord[0] = [0.5, 0.25];
    let seen = RefCell::new(Vec::new());
    let mut sampler = |r: TexelRequest| {
        seen.borrow_mut().push(r);
        texel
    };
    let s = texture0_state(2);
    // w = 0.0625: z = trunc(1048575.94) = 1048575 <= z_ref.
    i.texcoord0_w = 0.0625;
    assert_eq!(color(run(&s, &i, &mut sampler)), [200; 4]);
    assert_eq!(seen.borrow()[0].coord, TexCoord::Plane { s: 8.0, t: 4.0 }); // perspective divide
    assert!(seen.borrow()[0].shadow);
    // w = -0.5 (|w| is used): z = 8388607 > z_ref.
    i.texcoord0_w = -0.5;
    assert_eq!(color(run(&s, &i, &mut sampler)), [0; 4]);
    // Bias 0x7FFFFF - 0x123456 = 7190953 makes them equal: passes (>=). Field = bias / 2.
    let mut biased = s.clone();
    let bias = 8_388_607u32 - 0x123456;
    assert_eq!(bias % 2, 1);
    biased.regs[0x08B] = (bias / 2) << 1; // bias 7190952: z = 1193047 > z_ref
    assert_eq!(color(run(&biased, &i, &mut sampler)), [0; 4]);
    biased.regs[0x08B] = bias.div_ceil(2) << 1; // bias 7190954: z = 1193045
    assert_eq!(color(run(&biased, &i, &mut sampler)), [200; 4]);
    // Orthographic (bit 0): no divide.
    let mut ortho = s.clone();
    ortho.regs[0x08B] = 1;
    let n = seen.borrow().len();
    run(&ortho, &i, &mut sampler);
    assert_eq!(seen.borrow()[n].coord, TexCoord::Plane { s: 0.5, t: 0.25 });
    // Shadow cube: face selection, depth |z| of the major axis. (0.1, 0.2, 0.05): +Y, z = 0.2:
    // trunc(0.2 * 0xFFFFFF) = 3355443 > z_ref.
    let cube = texture0_state(4);
    i.texcoord[0] = [0.1, 0.2];
    i.texcoord0_w = 0.05;
    assert_eq!(color(run(&cube, &i, &mut sampler)), [0; 4]);
    let last = *seen.borrow().last().unwrap();
    assert!(matches!(last.coord, TexCoord::Cube { face: CubeFace::PositiveY, .. }) && last.shadow);
    i.texcoord0_w = 0.01; // still +Y, same depth
    i.texcoord[0] = [0.01, 0.05]; // z = 0.05: 838860 <= z_ref
    assert_eq!(color(run(&cube, &i, &mut sampler)), [200; 4]);
}

/// Facts 6.4 and decision D10: shadow-render mode hands the output merger the 24-bit depth and
/// the green channel, and skips the alpha test and fog.
#[test]
fn shadow_render_mode_writes_depth_and_green() {
    let mut s = one_stage(Stage::constant([1, 99, 3, 0]));
    identity_depth(&mut s);
    s.regs[0x100] = 3;
    s.regs[0x104] = 1; // alpha test "never": skipped
    s.regs[0x0E0] = 5; // fog: skipped
    let mut i = inputs([0.0; 4]);
    i.z_over_w = 0.25;
    assert_eq!(run(&s, &i, &mut flat([0; 4])), FragmentResult::Shadow(ShadowWrite { depth: 4_194_303, intensity: 99 }));
    // W-buffering multiplies by w: 0.25 * 2 = 0.5 -> trunc(8388607.5).
    s.regs[0x06D] = 0;
    i.w = 2.0;
    assert_eq!(run(&s, &i, &mut flat([0; 4])), FragmentResult::Shadow(ShadowWrite { depth: 8_388_607, intensity: 99 }));
}

/// Facts 6.4 and decision D13: the shadow-map update.
#[test]
fn shadow_map_update() {
    let mut s = state();
    s.regs[0x130] = 0x3C00 | (0xB800 << 16); // constant 1.0, linear -0.5
    let u = FragmentUniforms::from_state(&s);
    assert_eq!((u.shadow_constant, u.shadow_linear), (1.0, -0.5));
    let dst = [255, 0x00, 0x00, 0x80]; // z_ref = 0x800000, intensity 255
                                       // Farther: unchanged.
    assert_eq!(shadow_update(dst, ShadowWrite { depth: 0x800000, intensity: 0 }, &u), dst);
    // Nearer, intensity 0: new depth, intensity kept.
    assert_eq!(shadow_update(dst, ShadowWrite { depth: 0x400001, intensity: 0 }, &u), [255, 0x01, 0x00, 0x40]);
    // Nearer, intensity 100: 100 / (1 - 0.5 * 0x400000 / 0x800000) = 133.3 -> 133 < 255.
    assert_eq!(shadow_update(dst, ShadowWrite { depth: 0x400000, intensity: 100 }, &u), [133, 0x00, 0x00, 0x80]);
    // Not below the stored intensity: unchanged.
    let low = [120, 0x00, 0x00, 0x80];
    assert_eq!(shadow_update(low, ShadowWrite { depth: 0x400000, intensity: 100 }, &u), low);
}

/// Decision D8: gas (fog mode 7) passes the combiner output through; other fog modes are off
/// (D7b).
#[test]
fn gas_and_undefined_fog_modes_pass_through() {
    for mode in [1, 2, 3, 4, 6, 7] {
        let mut s = one_stage(Stage::constant([10, 20, 30, 40]));
        s.regs[0x0E0] = mode;
        s.regs[0x0E1] = 0xFFFFFF;
        assert_eq!(color(run(&s, &inputs([0.0; 4]), &mut flat([0; 4]))), [10, 20, 30, 40], "mode {mode}");
    }
}

/// Facts 4.1: the depth is z/w * scale + offset, clamped to [0, 1]; an always-failing alpha
/// test still discards.
#[test]
fn depth_and_discard() {
    let mut s = one_stage(Stage::constant([1, 2, 3, 4]));
    s.regs[0x04D] = 0xBF0000; // -1.0
    s.regs[0x04E] = 0x3F0000; // 1.0
    let mut i = inputs([0.0; 4]);
    i.z_over_w = 0.25;
    assert_eq!(run(&s, &i, &mut flat([0; 4])), FragmentResult::Color { rgba: [1, 2, 3, 4], depth: 0.75 });
    i.z_over_w = -3.0;
    assert_eq!(run(&s, &i, &mut flat([0; 4])), FragmentResult::Color { rgba: [1, 2, 3, 4], depth: 1.0 });
    s.regs[0x104] = 1;
    assert_eq!(run(&s, &i, &mut flat([0; 4])), FragmentResult::Discarded);
}

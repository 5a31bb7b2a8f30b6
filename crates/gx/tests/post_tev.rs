//! The steps after the TEV (z texture, fog, range adjustment, dither, constant alpha, RGBA6)
//! through the whole evaluator, against values worked out by hand from docs/gx-decisions.md
//! "After the TEV".

use gx::regs::*;
use gx::{BpRegs, Evaluator, PixelInputs, TevState};

/// One stage passing RASC / RASA through (identity swap table), plus `extra` writes.
fn state(extra: &[(u8, u32)], tex: bool) -> TevState {
    let mut r = BpRegs::new();
    let color = ColorCombiner { a: 15, b: 15, c: 15, d: 10, bias: 0, op: 0, clamp: true, scale: 0, dest: 0 };
    let alpha =
        AlphaCombiner { rswap: 0, tswap: 0, a: 7, b: 7, c: 7, d: 5, bias: 0, op: 0, clamp: true, scale: 0, dest: 0 };
    r.write(addr::GEN_MODE, GenMode { num_texgens: 1, ..Default::default() }.encode());
    r.write(addr::TEV_COLOR_ENV, color.encode());
    r.write(addr::TEV_COLOR_ENV + 1, alpha.encode());
    r.write(addr::TEV_ORDER, TwoTevStageOrders { enable0: tex, ..Default::default() }.encode());
    r.write(addr::TEV_KSEL, 0x4);
    r.write(addr::TEV_KSEL + 1, 0xE);
    for &(a, v) in extra {
        r.write(a, v);
    }
    r.state()
}

/// Perspective linear fog: A = 2^-12 (A32 = 2^20), B = 8192, shift 0, C = 0.5 (128/256), fog
/// colour blue.
fn fog_writes(fsel: u8) -> Vec<(u8, u32)> {
    vec![
        (addr::FOG_A, FogA { mantissa: 0, exponent: 115, sign: false }.encode()),
        (addr::FOG_B_MAG, FogBMagnitude { magnitude: 8192 }.encode()),
        (addr::FOG_B_SHIFT, FogBShift { shift: 0 }.encode()),
        (addr::FOG_C, FogC { mantissa: 0, exponent: 126, sign: false, proj: 0, fsel }.encode()),
        (addr::FOG_COLOR, FogColor { r: 0, g: 0, b: 255 }.encode()),
    ]
}

fn pixel(z: u32, pos: [u32; 2]) -> PixelInputs {
    PixelInputs { ras: [[200, 100, 0, 77], [0; 4]], z, pos, ..Default::default() }
}

#[test]
fn linear_fog_blends_halfway() {
    let ev = Evaluator::new(&state(&fog_writes(2), false));
    // D = 8192 - 4096: ze = 2^20 / 4096 = 256 (1.0); f = 256 - 128 = 128.
    let o = ev.eval(&pixel(4096, [0, 0]));
    assert_eq!(o.post.ifog, 128);
    assert_eq!(o.post.rgba, [100, 50, 127, 77]);
    // Nearer: D = 8192, ze = 128, f = 0: no fog.
    let o = ev.eval(&pixel(0, [0, 0]));
    assert_eq!((o.post.ifog, o.post.rgba), (0, [200, 100, 0, 77]));
    // Beyond the far plane: the divisor reads as 1, full fog.
    let o = ev.eval(&pixel(9000, [0, 0]));
    assert_eq!((o.post.ifog, o.post.rgba), (256, [0, 0, 255, 77]));
}

#[test]
fn exponential_curve_and_unnamed_functions() {
    // exp: 1 - 2^(-8 * 0.5) = 0.9375 = 240/256.
    let o = Evaluator::new(&state(&fog_writes(4), false)).eval(&pixel(4096, [0, 0]));
    assert_eq!(o.post.ifog, 240);
    // fsel 3 (unnamed) runs as linear.
    let o = Evaluator::new(&state(&fog_writes(3), false)).eval(&pixel(4096, [0, 0]));
    assert_eq!(o.post.ifog, 128);
    // Backward exp at f = 0.5: 2^-4 = 16/256.
    let o = Evaluator::new(&state(&fog_writes(6), false)).eval(&pixel(4096, [0, 0]));
    assert_eq!(o.post.ifog, 16);
}

#[test]
fn range_adjustment_grows_with_the_offset() {
    let mut w = fog_writes(2);
    // Centre at pixel 100; factor 0 = 64 (k = 1.0), factor 9 = 1024 (k = 16.0).
    w.push((addr::FOG_RANGE, FogRange { center: 342 + 100, enable: true }.encode()));
    w.push((addr::FOG_RANGE_K, FogRangeK { hi: 64, lo: 0 }.encode()));
    w.push((addr::FOG_RANGE_K + 4, FogRangeK { hi: 0, lo: 1024 }.encode()));
    let mut s = state(&w, false);
    s.fog.viewport_half_width = 256;
    let ev = Evaluator::new(&s);
    // At the centre: index 9, k = 16, sqrt(0 + k^2) / k = 1: unchanged.
    assert_eq!(ev.eval(&pixel(4096, [100, 0])).post.ifog, 128);
    // One half-width away: index 0, k = 1, adj = isqrt(256^2 + 256^2) / 256 = 362/256;
    // ze = 256 * 362 >> 8 = 362, f = 362 - 128 = 234.
    assert_eq!(ev.eval(&pixel(4096, [356, 0])).post.ifog, 234);
}

#[test]
fn the_nan_case_fogs_fully_only_with_both_signs_positive() {
    let nan = |a_sign: bool| {
        vec![
            (addr::FOG_A, FogA { mantissa: 1, exponent: 255, sign: a_sign }.encode()),
            (addr::FOG_C, FogC { mantissa: 1, exponent: 255, sign: false, proj: 0, fsel: 2 }.encode()),
        ]
    };
    assert_eq!(Evaluator::new(&state(&nan(false), false)).eval(&pixel(5, [0, 0])).post.ifog, 256);
    assert_eq!(Evaluator::new(&state(&nan(true), false)).eval(&pixel(5, [0, 0])).post.ifog, 0);
}

#[test]
fn z_texture_reads_the_unswapped_texel_of_the_last_stage() {
    let w = [
        (addr::ZTEX_BIAS, ZTexBias { bias: 0x100 }.encode()),
        (addr::ZTEX2, ZTex2 { kind: 1, op: 1 }.encode()),
        // Swap table 0 reversed: the TEV sees ABGR, the z texture still RGBA.
        (addr::TEV_KSEL, TevKSel { swap1: 3, swap2: 2, ..Default::default() }.encode()),
        (addr::TEV_KSEL + 1, TevKSel { swap1: 1, swap2: 0, ..Default::default() }.encode()),
    ];
    let ev = Evaluator::new(&state(&w, true));
    let mut px = pixel(7, [0, 0]);
    px.tex = vec![[0x12, 0x34, 0x56, 0x78]];
    // U16 = A << 8 | R = 0x7812; add: + bias + z.
    assert_eq!(ev.eval(&px).post.z, 0x7812 + 0x100 + 7);
    // A disabled texture gives texel 0: z = bias + z.
    let ev = Evaluator::new(&state(&w, false));
    assert_eq!(ev.eval(&px).post.z, 0x100 + 7);
}

#[test]
fn rgba6_dither_and_constant_alpha() {
    let w = [
        (addr::PE_CONTROL, PeControl { pixel_format: 1, ..Default::default() }.encode()),
        (addr::BLEND_MODE, BlendMode { dither: true, ..Default::default() }.encode()),
        (addr::CONST_ALPHA, ConstAlpha { alpha: 0x80, enable: true }.encode()),
    ];
    let ev = Evaluator::new(&state(&w, false));
    // Pixel (1, 0): d = 2. 200 -> (200 - 3 + 2) >> 2 = 49 -> 199; 100 -> (100 - 1 + 2) >> 2 = 25
    // -> 101; 0 -> (0 + 2) >> 2 = 0; constant alpha 128 -> 32 -> 130.
    assert_eq!(ev.eval(&pixel(0, [1, 0])).post.rgba, [199, 101, 0, 130]);
    // Pixel (0, 1): d = 3. 200 -> 50 -> 203; 100 -> 25 -> 101; 0 -> 0.
    assert_eq!(ev.eval(&pixel(0, [0, 1])).post.rgba, [203, 101, 0, 130]);
    // RGB8 keeps every bit and the TEV alpha when constant alpha is off.
    assert_eq!(Evaluator::new(&state(&[], false)).eval(&pixel(0, [1, 0])).post.rgba, [200, 100, 0, 77]);
}

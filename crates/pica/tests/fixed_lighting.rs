//! Hand-computed outputs of fragment lighting and the procedural texture for the behaviour that
//! appendix B of the facts does not cover: positional lights, distance attenuation, spotlights,
//! clamp highlights, the reflection LUTs and CONFIG1's bits (D17), LUT scales (D21), shadow
//! attenuation, bump maps, the global ambient, the procedural texture's clamp modes, shifts,
//! mapping functions and separate alpha, and the key's canonical form.
//!
//! Byte values: lighting truncates `x * 255` (D19), so the expected values below are chosen away
//! from integers (a factor k/255 times 255 may land an ulp under k).

mod fixed_common;

use fixed_common::*;
use pica::fixed::{lighting, proctex, FragmentKey};
use pica::regs::layouts::{ProcTexClamp as C, ProcTexMap as M, ProcTexShift, TexEnvSource as S};

/// f20 (1.7.12) bits of a power of two.
fn f20_pow2(e: i32) -> u32 {
    ((e + 63) as u32) << 12
}

/// Positional lights add the view vector (facts 3.4): position (3, 0, 0) and view (0, 0, 4):
/// L = (3, 0, 4) / 5, d = 0.8 -> 204 (0.8f32 * 255 = 204.000003). As a directional light the
/// same position gives L = (1, 0, 0), d = 0.
#[test]
fn positional_lights_add_the_view_vector() {
    let mut s = lit(0, ALL_DISABLED, 1);
    light(&mut s, 0, false, [3.0, 0.0, 0.0], 0);
    assert_eq!(colors(&s, IDENTITY, [0.0, 0.0, 4.0], [0; 4]).0, [204, 0, 0, 255]);
    light(&mut s, 0, true, [3.0, 0.0, 0.0], 0);
    assert_eq!(colors(&s, IDENTITY, [0.0, 0.0, 4.0], [0; 4]).0, [0, 0, 0, 255]);
}

/// Distance attenuation (facts 3.6, D22): x = clamp(scale * dist + bias, 0, 1) indexes DA table
/// 16 + id unsigned. Positional at (3, 0, 0) with view (0, 0, 4): dist = 5, scale 1/8, bias 0:
/// x = 0.625, 256 x = 160: entry 160 = 0x800 (0.5001221): diffuse 0.8 * 0.5001221 = 0.4000977 ->
/// 102. Directional at (0, 0, 3): dist = |position| = 3, x = 0.375 -> entry 96 = 0xC00
/// (0.7501832), d = 1 -> trunc(191.30) = 191. A bias of 1 saturates x: entry 255 + f = 1.
#[test]
fn distance_attenuation_reads_the_light_table() {
    let mut s = lit(0, ALL_DISABLED & !(1 << 24), 1);
    s.regs[0x14B] = f20_pow2(-3);
    upload(&mut s, 16, &[(160, entry(0x800, 0)), (96, entry(0xC00, 0)), (255, entry(0x100, 0x200))]);
    light(&mut s, 0, false, [3.0, 0.0, 0.0], 0);
    assert_eq!(colors(&s, IDENTITY, [0.0, 0.0, 4.0], [0; 4]).0, [102, 0, 0, 255]);
    light(&mut s, 0, true, [0.0, 0.0, 3.0], 0);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).0, [191, 0, 0, 255]);
    // Bias 1.0 (f20 2^0): x = 1, entry 255 with f = 1: 256/4095 + 512/2047 = 0.3126380 -> 79.
    s.regs[0x14A] = f20_pow2(0);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).0, [79, 0, 0, 255]);
    // Light 0's DA disabled again: 255.
    s.regs[0x1C4] = ALL_DISABLED;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).0, [255, 0, 0, 255]);
}

/// Spotlights (facts 3.5, 3.9, D22): SP table 8 + id with input L.S, S = stored direction / 2047.
/// L = (0.6, 0, 0.8), S = (0, 0, 2047/2047): L.S = 0.8 -> entry 204 = 0x400 (0.2500611): diffuse
/// 0.8 * 0.2500611 = 0.2000489 -> 51. Configuration 2 offers no SP: 204. Light 0's spot disabled:
/// 204.
#[test]
fn spotlights_read_the_light_table_with_l_dot_s() {
    let mut s = lit(0, ALL_DISABLED & !(1 << 8), 1);
    s.regs[0x1D1] = 4 << 8; // SP input: L.S
    s.regs[0x147] = 0x7FF;
    light(&mut s, 0, true, [3.0, 0.0, 4.0], 0);
    upload(&mut s, 8, &[(204, entry(0x400, 0))]);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).0, [51, 0, 0, 255]);
    let mut c2 = s.clone();
    c2.regs[0x1C3] = 2 << 4;
    assert_eq!(colors(&c2, IDENTITY, TOWARD_Z, [0; 4]).0, [204, 0, 0, 255]);
    s.regs[0x1C4] = ALL_DISABLED;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).0, [204, 0, 0, 255]);
}

/// Clamp highlights (CONFIG0 bit 27, facts 3.9): a light behind a one-sided surface has d = 0;
/// its specular (D0 off: 1.0 * specular 0 red 1.0 -> 255) is zeroed only with the bit set.
#[test]
fn clamp_highlights_zero_the_specular_of_unlit_sides() {
    let mut s = lit(0, ALL_DISABLED, 1);
    light(&mut s, 0, true, [3.0, 0.0, -4.0], 0);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [255, 0, 0, 255]);
    s.regs[0x1C3] |= 1 << 27;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [0, 0, 0, 255]);
}

/// The reflection LUTs (facts 3.8, D17): specular 1 white, specular 0 zero, D1 off, input L.N =
/// 0.8 (entry 204) for RR (table 6: 0x800 -> 127), RG (5: 0x400 -> 63), RB (4: 0xC00 -> 191).
/// Configuration 4 offers all three. RG and RB disabled read RR's value; CONFIG1 bit 20 disables
/// RB and bit 22 RR (D17): with bit 22 set RR reads 1.0 (255) and RB keeps 191. Configuration 0
/// offers no RG/RB: they read RR whatever their bits.
#[test]
fn reflection_luts_fall_back_to_rr_and_config1_bit_22_is_rr() {
    let rr_only = ALL_DISABLED & !(1 << 22);
    let mut s = lit(4, rr_only, 1);
    s.regs[0x1D1] = 3 << 16 | 3 << 20 | 3 << 24;
    light(&mut s, 0, true, [3.0, 0.0, 4.0], 0);
    s.regs[0x140] = 0;
    s.regs[0x141] = 255 << 20 | 255 << 10 | 255;
    upload(&mut s, 6, &[(204, entry(0x800, 0))]);
    upload(&mut s, 5, &[(204, entry(0x400, 0))]);
    upload(&mut s, 4, &[(204, entry(0xC00, 0))]);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [127, 127, 127, 255]);
    s.regs[0x1C4] = rr_only & !(1 << 21);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [127, 63, 127, 255]);
    s.regs[0x1C4] = rr_only & !(1 << 21) & !(1 << 20);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [127, 63, 191, 255]);
    s.regs[0x1C4] = ALL_DISABLED & !(1 << 21) & !(1 << 20);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [255, 63, 191, 255]);
    s.regs[0x1C3] = 0;
    s.regs[0x1C4] = 0xFF00_FFFF & !(1 << 16) | 1 << 18 | 1 << 19 | 1 << 17;
    s.regs[0x1D1] |= 2; // D0 reads N.V = 1: entry 255 of table 0 (zero) + 1 * 0 = 0
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [127, 127, 127, 255]);
}

/// LUT scales (0x1D2, D21): D0 of b8 (0.9003175) x2 -> 1.8 clamped -> 255; x0.5 -> 0.4501588 ->
/// 114; x0.25 -> 0.2250794 -> 57; value 4 -> 0.
#[test]
fn lut_scales_multiply_the_value() {
    let mut s = lit(0, ALL_DISABLED & D0_ON, 1);
    s.regs[0x1D1] = 3;
    light(&mut s, 0, true, [3.0, 0.0, 4.0], 0);
    upload(&mut s, 0, &[(204, entry(0x800, 0x400))]);
    for (scale, want) in [(0, 229), (1, 255), (7, 114), (6, 57), (4, 0), (5, 0)] {
        s.regs[0x1D2] = scale;
        assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1[0], want, "scale {scale}");
    }
}

/// Shadow attenuation (facts 3.9-3.11): texture 0 = (128, 64, 255, 102) as the shadow input,
/// diffuse red 200/255, ambient red 20/255, specular 0 red 200/255, light (0, 0, 1): d = 1.
/// Primary: (0.7843137 * 0.5019608 + 0.0784314) * 255 = 120.39 -> 120 (the ambient term is not
/// shadowed); inverted (1 - 128/255 = 0.4980392): 119.61 -> 119. Secondary with bit 17:
/// 0.7843137 * 0.5019608 * 255 = 100.39 -> 100. Shadow alpha (bit 19, to primary alpha with
/// Fresnel bit 2; configuration 1 offers FR, entry 255 of FR = 0x800 for N.V = 1 + f = 1:
/// 0.5001221 * 102/255 = 0.2000489 -> 51. With light 0's shadow disabled (CONFIG1 bit 0), a
/// light at (3, 0, 4) (d = 0.8) and diffuse red 201: (201 * 0.8 + 20) / 255 * 255 = 180.8 -> 180.
#[test]
fn shadow_attenuation_scales_diffuse_specular_and_alpha() {
    let mut s = lit(1, ALL_DISABLED & !1 & FR_ON, 1);
    s.regs[0x080] |= 1;
    s.regs[0x1C3] = 1 << 4 | 1 | 1 << 16;
    s.regs[0x1D1] = 2 << 12; // FR input N.V
    light(&mut s, 0, true, [0.0, 0.0, 1.0], 0);
    s.regs[0x140] = 200 << 20;
    s.regs[0x142] = 200 << 20;
    s.regs[0x143] = 20 << 20;
    upload(&mut s, 3, &[(255, entry(0x800, 0))]);
    let texel = [128, 64, 255, 102];
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, texel).0[0], 120);
    s.regs[0x1C3] |= 1 << 18;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, texel).0[0], 119);
    s.regs[0x1C3] = 1 << 4 | 1 | 1 << 17;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, texel).1[0], 100);
    s.regs[0x1C3] = 1 << 4 | 1 | 1 << 19 | 1 << 2;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, texel).0[3], 51);
    // Without the shadow-alpha bit, the Fresnel value alone: 127.
    s.regs[0x1C3] = 1 << 4 | 1 | 1 << 2;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, texel).0[3], 127);
    s.regs[0x1C3] = 1 << 4 | 1 | 1 << 16;
    s.regs[0x1C4] |= 1;
    light(&mut s, 0, true, [3.0, 0.0, 4.0], 0);
    s.regs[0x142] = 201 << 20;
    s.regs[0x143] = 20 << 20;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, texel).0[0], 180);
}

/// Bump mapping (facts 3.3): texture 0 = (128, 128, 200) gives p = (1, 1, 145) / 255. Without
/// renormalisation N = p: d = 145/255 = 0.5686275, diffuse red 200/255: 0.4459824 * 255 =
/// 113.73 -> 113. With it (CONFIG0 bit 30 clear), z = sqrt(1 - 2/65025) = 0.9999846: 199.997 ->
/// 199.
#[test]
fn bump_maps_replace_the_normal_and_renormalise() {
    let mut s = lit(0, ALL_DISABLED, 1);
    s.regs[0x080] |= 1;
    light(&mut s, 0, true, [0.0, 0.0, 1.0], 0);
    s.regs[0x142] = 200 << 20;
    s.regs[0x1C3] = 1 << 28 | 1 << 30;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [128, 128, 200, 0]).0[0], 113);
    s.regs[0x1C3] = 1 << 28;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [128, 128, 200, 0]).0[0], 199);
}

/// Two lights sum, the global ambient (0x1C0) adds to the primary colour only: lights at (3, 0, 4)
/// and (4, 0, 3) with diffuse blue 91/255: (0.8 + 0.6) * 91/255 = 0.4996078, plus ambient blue
/// 7/255: (127.4 + 7) / 255 * 255 = 134.4 -> 134.
#[test]
fn lights_sum_and_the_global_ambient_adds() {
    let mut s = lit(0, ALL_DISABLED, 2);
    light(&mut s, 0, true, [3.0, 0.0, 4.0], 0);
    light(&mut s, 1, true, [4.0, 0.0, 3.0], 0);
    s.regs[0x142] = 91;
    s.regs[0x152] = 91;
    s.regs[0x1C0] = 7;
    let (primary, secondary) = colors(&s, IDENTITY, TOWARD_Z, [0; 4]);
    assert_eq!(primary, [0, 0, 134, 255]);
    // Specular 0 red of each light (D0 off: 1.0 each, summed and clamped): 255; no ambient.
    assert_eq!(secondary, [255, 0, 0, 255]);
}

/// The key holds lighting only when a used source reads it, and keeps the texture units lighting
/// reads; the light permutation only matters through the flags it brings to each slot.
#[test]
fn the_lighting_key_is_canonical() {
    let mut s = lit(0, ALL_DISABLED, 1);
    light(&mut s, 0, true, [0.0, 0.0, 1.0], 0);
    let lit_key = FragmentKey::from_state(&s);
    assert!(lit_key.lighting.enabled);
    let mut unread = s.clone();
    Stage::replace(S::PrimaryColor).write(&mut unread.regs, 0);
    assert!(!FragmentKey::from_state(&unread).lighting.enabled);
    // Light 3 with the same flags in slot 0: the same key.
    let mut moved = s.clone();
    moved.regs[0x1D9] = 3;
    moved.regs[0x149 + 0x30] = moved.regs[0x149];
    assert_eq!(FragmentKey::from_state(&moved), lit_key);
    // A bump map from unit 1 keeps unit 1 on although no TexEnv source reads it.
    s.regs[0x080] |= 2;
    s.regs[0x1C3] = 1 << 28 | 1 << 22;
    let key = FragmentKey::from_state(&s);
    assert_eq!(key.textures[1].kind, pica::fixed::UnitKind::Tex2d);
    assert_eq!(key.lighting.bump_unit, 1);
    // Unused LUT selectors do not split keys.
    let mut t = s.clone();
    t.regs[0x1D1] = 0x0555_5555;
    t.regs[0x1D0] = 0x0222_2222;
    assert_eq!(FragmentKey::from_state(&t), key);
}

/// Clamp modes (facts 5.3, D27).
#[test]
fn proctex_clamp_modes() {
    let cases = [
        (C::ClampToZero, [(1.25, 0.0), (0.75, 0.75), (1.0, 1.0)]),
        (C::ClampToEdge, [(1.25, 1.0), (0.75, 0.75), (1.0, 1.0)]),
        (C::SymmetricalRepeat, [(1.25, 0.25), (2.75, 0.75), (1.0, 0.0)]),
        (C::MirroredRepeat, [(1.25, 0.75), (2.25, 0.25), (0.5, 0.5)]),
        (C::Pulse, [(0.5, 0.0), (0.625, 1.0), (1.5, 1.0)]),
    ];
    for (mode, pairs) in cases {
        for (x, want) in pairs {
            assert_eq!(proctex::clamp(x, mode), want, "{mode:?} {x}");
        }
    }
    // Undefined modes decode as clamp to edge.
    assert_eq!(proctex::ProcTexKey::decode(1 << 10, 6 | 7 << 3, 0).u_clamp, C::ClampToEdge);
}

/// Shifts (facts 5.2 step 2): odd shifts rows where trunc(other) / 2 is odd, even where
/// (trunc(other) + 1) / 2 is; by 0.5, or 1 under mirrored repeat.
#[test]
fn proctex_shifts() {
    use ProcTexShift::*;
    assert_eq!(proctex::shift_offset(2.5, Odd, C::ClampToEdge), 0.5);
    assert_eq!(proctex::shift_offset(1.5, Odd, C::ClampToEdge), 0.0);
    assert_eq!(proctex::shift_offset(1.5, Even, C::ClampToEdge), 0.5);
    assert_eq!(proctex::shift_offset(1.5, Even, C::MirroredRepeat), 1.0);
    assert_eq!(proctex::shift_offset(2.5, Even, C::MirroredRepeat), 1.0);
    assert_eq!(proctex::shift_offset(3.5, Even, C::MirroredRepeat), 0.0);
    assert_eq!(proctex::shift_offset(2.5, None, C::MirroredRepeat), 0.0);
}

/// Mapping functions (facts 5.4) at (u, v) = (0.25, 0.5).
#[test]
fn proctex_mapping_functions() {
    let r = 0.3125f32.sqrt();
    let cases = [
        (M::U, 0.25),
        (M::U2, 0.0625),
        (M::V, 0.5),
        (M::V2, 0.25),
        (M::UPlusV, 0.375),
        (M::U2PlusV2, 0.15625),
        (M::Sqrt2, r),
        (M::Min, 0.25),
        (M::Max, 0.5),
        (M::Rmax, (0.375 + r) * 0.5),
        (M::Other(10), 0.0),
    ];
    for (f, want) in cases {
        assert_eq!(proctex::map_function(f, 0.25, 0.5), want, "{f:?}");
    }
}

/// Separate alpha (PROCTEX0 bit 14, facts 5.2 step 8): alpha skips the colour LUT:
/// trunc(255 * alpha-map(V at v = 0.5)) with the identity map: 4096 * 0.5 / 4095 = 0.5001221 ->
/// 127.53 -> 127; RGB still from the colour LUT (U at u = 0.25: 127 * 0.2500611 = 31.76 -> 32).
/// The alpha function is not in the key without separate alpha.
#[test]
fn proctex_separate_alpha_maps_alpha_directly() {
    let mut s = proctex_state(EDGE | 2 << 10 | 1 << 14, 128 << 11, identity_map);
    std::sync::Arc::make_mut(&mut s.memories.proctex).alpha_map = std::array::from_fn(identity_map);
    assert_eq!(proctex_color(&s, [0.25, 0.5], [0.0; 2]), [32, 0, 0, 127]);
    s.regs[0x0A8] = EDGE | 2 << 10;
    assert_eq!(proctex_color(&s, [0.25, 0.5], [0.0; 2]), [32, 0, 0, 255]);
    let key = FragmentKey::from_state(&s);
    s.regs[0x0A8] = EDGE | 5 << 10;
    assert_eq!(FragmentKey::from_state(&s), key);
    // A disabled unit 3 reads (0, 0, 0, 0) and leaves the key.
    s.regs[0x080] = 0;
    assert_eq!(proctex_color(&s, [0.25, 0.5], [0.0; 2]), [0; 4]);
    assert!(!FragmentKey::from_state(&s).proctex.enabled);
}

/// The lighting LUT selectors decode per LUT (LUTINPUT_SELECT nibbles).
#[test]
fn lut_selectors_decode_per_lut() {
    let mut regs = vec![0u32; 0x300];
    regs[0x1D1] = 0x0543_2105;
    regs[0x1D0] = 1 << 1 | 1 << 25;
    let key = lighting::LightingKey::decode(&regs);
    let inputs: Vec<u32> = key.luts.iter().map(|l| l.input.raw()).collect();
    assert_eq!(inputs, [5, 0, 1, 2, 3, 4, 5]);
    let abs: Vec<bool> = key.luts.iter().map(|l| l.abs).collect();
    assert_eq!(abs, [false, true, true, true, true, true, false]);
}

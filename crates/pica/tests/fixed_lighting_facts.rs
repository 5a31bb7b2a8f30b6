//! The catalogue for fragment lighting and the procedural texture: one named test per
//! hardware-tested fact of docs/specs/pica200-fragment-facts.md appendix B about them, each
//! asserting the reference's exact bytes, with the derivation from the facts' formulas in its
//! comment; then properties of the LUT arithmetic (no panic, bounded, deterministic).
//!
//! Conventions of the derivations: LUT entries are `value | magnitude << 12 | sign << 23`, read
//! as value / 4095 and magnitude / 2047 (decision D18); lighting colours become bytes by
//! truncation (D19); a light's colour field of 255 is 1.0 (D20).

mod fixed_common;

use std::sync::Arc;

use fixed_common::*;
use pica::fixed::{self, lighting, lut, proctex, FragmentKey, FragmentUniforms};
use pica::regs::layouts::ProcTexMap;
use proptest::prelude::*;

/// Appendix B "quaternion: lerp, normalise, then rotate" (citra#2726, citra#2729; facts 3.3).
/// The rasteriser lerps between the identity and a 90-degree turn about y,
/// (0, sin 45, 0, cos 45), at t = 1/4: q = (0, 0.1767767, 0, 0.9267767), |q| = 0.9434846.
/// Normalised, q' = (0, 0.1873660, 0, 0.9822917) and N = rot(q', (0, 0, 1)) has
/// N.x = 2 q'y q'w = 0.3680970. A directional light along +x gives d = N.x: primary red =
/// trunc(0.3680970 * 255 = 93.86) = 93. Slerp would turn by 22.5 degrees (sin = 0.38268 -> 97);
/// rotating by the unnormalised q then normalising gives N.x = 0.327665 / 0.993111 = 0.32994
/// (-> 84).
#[test]
fn b7_quaternion_is_lerped_normalised_then_rotates() {
    let mut s = lit(0, ALL_DISABLED, 1);
    light(&mut s, 0, true, [1.0, 0.0, 0.0], 0);
    let a = 0.25 * std::f32::consts::FRAC_1_SQRT_2;
    let q = [0.0, a, 0.0, 0.75 + a];
    let (primary, _) = colors(&s, q, TOWARD_Z, [0; 4]);
    assert_eq!(primary, [93, 0, 0, 255]);
    // The quaternion's length does not matter: the same direction at twice the length.
    let (primary2, _) = colors(&s, q.map(|c| 2.0 * c), TOWARD_Z, [0; 4]);
    assert_eq!(primary2, primary);
}

/// Appendix B "LUT uses stored delta for interpolation" (citra#1775 -> #2792/#2800; facts 3.6).
/// D0 reads L.N with the absolute flag on. A directional light at (3, 0, 4) gives L = (0.6, 0,
/// 0.8), N = (0, 0, 1): x = 0.8, 256 x = 204.8: entry 204, f = 0.8. Entry 204 = value 0x800
/// (0.5001221) with delta +0x400 (0.5002443), entry 205 = 0: D0 = 0.5001221 + 0.8 * 0.5002443 =
/// 0.9003175, secondary red = trunc(229.58) = 229 (specular 0 red 1.0, specular 1 zero).
/// Interpolating toward entry 205 instead would give 0.10002 (-> 25), the entry alone 127.
/// The table is uploaded through the LUT ports.
#[test]
fn b8_lighting_luts_interpolate_with_the_stored_delta() {
    let mut s = lit(0, ALL_DISABLED & D0_ON, 1);
    s.regs[0x1D1] = 3; // D0 input L.N
    light(&mut s, 0, true, [3.0, 0.0, 4.0], 0);
    upload(&mut s, 0, &[(204, entry(0x800, 0x400)), (205, 0)]);
    assert_eq!(s.memories.lighting[0][204], entry(0x800, 0x400));
    let (primary, secondary) = colors(&s, IDENTITY, TOWARD_Z, [0; 4]);
    assert_eq!(secondary, [229, 0, 0, 255]);
    // The diffuse term: d = 0.8 -> trunc(204.0000) = 204.
    assert_eq!(primary, [204, 0, 0, 255]);
    // A negative delta interpolates downward: 0.5001221 - 0.8 * 0.5002443 = 0.09993 -> 25.
    upload(&mut s, 0, &[(204, entry(0x800, -0x400))]);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [25, 0, 0, 255]);
}

/// Appendix B "abs LUT input depends on two-sided diffuse" (citra#3482; facts 3.6). A light behind
/// the surface, L = (0.6, 0, -0.8), L.N = -0.8, D0 reading L.N:
/// - abs on, two-sided: x = |-0.8| = 0.8 -> entry 204 as in b8 -> 229; diffuse d = 0.8 -> 204;
/// - abs on, one-sided: x = max(-0.8, 0) = 0 -> entry 0 = 0 -> 0; d = 0 -> 0;
/// - abs off (either): signed, 128 x = -102.4, k = -103, f = 0.6 -> entry 153 (= 256 - 103),
///   value 0x400 = 0.2500611, delta 0 -> trunc(63.77) = 63.
#[test]
fn b9_abs_lut_input_follows_the_two_sided_bit() {
    let mut s = lit(0, ALL_DISABLED & D0_ON, 1);
    s.regs[0x1D1] = 3;
    upload(&mut s, 0, &[(0, 0), (204, entry(0x800, 0x400)), (153, entry(0x400, 0))]);
    light(&mut s, 0, true, [3.0, 0.0, -4.0], 1 << 1);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]), ([204, 0, 0, 255], [229, 0, 0, 255]));
    light(&mut s, 0, true, [3.0, 0.0, -4.0], 0);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]), ([0, 0, 0, 255], [0, 0, 0, 255]));
    s.regs[0x1D0] = 1 << 1; // D0's abs flag off
    for two_sided in [0, 1 << 1] {
        light(&mut s, 0, true, [3.0, 0.0, -4.0], two_sided);
        assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [63, 0, 0, 255], "two-sided {two_sided}");
    }
}

/// Appendix B "geometric factor = min(1, 1/2 |L.N| / (1 + L.V))" (citra#2776, ctrhwtest
/// geo_factor; facts 3.9). L = (0.6, 0, 0.8), V = (0, 0, 1): H = (0.6, 0, 1.8), |H|^2 = 3.6 =
/// 2 (1 + 0.8); G = 0.8 / 3.6 = 0.2222 = 1/2 * 0.8 / 1.8. With D0 off (1.0) and G0 on, secondary
/// red = trunc(56.67) = 56; with G0 off, 255. A two-sided light at (3, 0, -4): H = (0.6, 0, 0.2),
/// |H|^2 = 0.4, d / |H|^2 = 2, clamped to 1 -> 255. G1 scales specular 1 the same way:
/// specular 1 red 1.0 with D1 and the reflection LUTs off (1.0) and specular 0 zero gives 56.
#[test]
fn b10_geometric_factor_is_half_ln_over_one_plus_lv() {
    let mut s = lit(0, ALL_DISABLED, 1);
    light(&mut s, 0, true, [3.0, 0.0, 4.0], 1 << 2);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [56, 0, 0, 255]);
    light(&mut s, 0, true, [3.0, 0.0, 4.0], 0);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [255, 0, 0, 255]);
    light(&mut s, 0, true, [3.0, 0.0, -4.0], 1 << 1 | 1 << 2);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [255, 0, 0, 255]);
    light(&mut s, 0, true, [3.0, 0.0, 4.0], 1 << 3);
    s.regs[0x140] = 0;
    s.regs[0x141] = 255 << 20;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [56, 0, 0, 255]);
}

/// Appendix B "Fresnel from last permutation slot only" (citra#2914, ctrhwtest fresnel-test;
/// facts 3.10). Two lights, slot 0 = light 1 at (3, 0, 4) (L.N = 0.8), slot 1 = light 0 at
/// (4, 0, 3) (L.N = 0.6); FR reads L.N (abs), configuration 6 offers it. FR entry 204 = 0x800
/// (0.5001221), entry 153 (256 * 0.6 = 153.6) = 0xC00 (0.7501832). Fresnel to both alphas:
/// the last slot's value replaces them: trunc(0.7501832 * 255 = 191.30) = 191. The first slot's
/// would be 127, the product 0.37518 -> 95, and the highest light id (slot 0) 127.
#[test]
fn b11_fresnel_comes_from_the_last_permutation_slot() {
    let mut s = lit(6, ALL_DISABLED & FR_ON, 2);
    s.regs[0x1C3] |= 3 << 2;
    s.regs[0x1D9] = 0x0000_0001; // slot 0: light 1, slot 1: light 0
    s.regs[0x1D1] = 3 << 12; // FR input L.N
    light(&mut s, 1, true, [3.0, 0.0, 4.0], 0);
    light(&mut s, 0, true, [4.0, 0.0, 3.0], 0);
    upload(&mut s, 3, &[(204, entry(0x800, 0)), (153, entry(0xC00, 0))]);
    let (primary, secondary) = colors(&s, IDENTITY, TOWARD_Z, [0; 4]);
    assert_eq!((primary[3], secondary[3]), (191, 191));
    // Diffuse: 0.8 + 0.6 = 1.4, clamped -> 255.
    assert_eq!(primary[0], 255);
    // Fresnel to the primary alpha only.
    s.regs[0x1C3] = 6 << 4 | 1 << 2;
    let (primary, secondary) = colors(&s, IDENTITY, TOWARD_Z, [0; 4]);
    assert_eq!((primary[3], secondary[3]), (191, 255));
    // The other order: slot 1 is light 1, whose 0.8 reads entry 204.
    s.regs[0x1D9] = 0x0000_0010;
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).0[3], 127);
}

/// Appendix B "CP input = unnormalised projected half-vector . tangent; tangent-map renorm
/// irrelevant" (citra#2762, ctrhwtest lighting-cp; facts 3.5). Configuration 8, D0 reads CP (abs).
/// L = (0.6, 0, 0.8), V = (0, 0, 1): H/|H| = (0.3162278, 0, 0.9486833); N = (0, 0, 1), so the
/// projection H' - N (N.H') = (0.3162278, 0, 0) and CP = H'.x = 0.3162278 with T = (1, 0, 0);
/// 256 x = 80.95: entry 80 = 0x400 (0.2500611) -> trunc(63.77) = 63. Normalising the projection
/// would give cos phi = 1 (entry 255 with f = 1, 0xFFF -> 255). In configuration 6 CP reads 0:
/// entry 0 = 0x200 (0.1250305) -> 31.
/// Tangent map from texture 0 = (255, 128, 128): T = (1, 1/255, 1/255) rotated by the identity,
/// CP = 0.3162278 -> 63 whatever the renormalisation bit; (128, 255, 128) gives T = (1/255, 1,
/// 1/255), CP = 0.00124 -> entry 0 -> 31.
#[test]
fn b12_cp_input_is_the_unnormalised_projection_onto_the_tangent() {
    let mut s = lit(8, ALL_DISABLED & D0_ON, 1);
    s.regs[0x1D1] = 5; // D0 input CP
    light(&mut s, 0, true, [3.0, 0.0, 4.0], 0);
    upload(&mut s, 0, &[(0, entry(0x200, 0)), (80, entry(0x400, 0)), (255, entry(0xFFF, 0))]);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).1, [63, 0, 0, 255]);
    let mut s6 = s.clone();
    s6.regs[0x1C3] = 6 << 4;
    assert_eq!(colors(&s6, IDENTITY, TOWARD_Z, [0; 4]).1, [31, 0, 0, 255]);
    // Tangent map from texture unit 0 (CONFIG0 bits 28-29 = 2, unit bits 22-23 = 0).
    s.regs[0x080] |= 1;
    for renorm_disabled in [0, 1 << 30] {
        s.regs[0x1C3] = 8 << 4 | 2 << 28 | renorm_disabled;
        assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [255, 128, 128, 255]).1, [63, 0, 0, 255]);
        assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [128, 255, 128, 255]).1, [31, 0, 0, 255]);
    }
}

/// Appendix B "proctex noise/clamp/map behaviour" (citra#2697, fincs' test; facts 5.2 step 3).
/// Frequencies 1.0, phases 0, at (u, v) = (0.5, 0.25): X = 9 * 0.5 = 4.5, Y = 9 * 0.25 = 2.25,
/// (xi, yi) = (4, 2), (fx, fy) = (0.5, 0.25). R1(k) = (((k mod 9) + 2) * 3 & 15) ^ T1[k / 9]:
/// R1(4) = 18 & 15 = 2, R1(5) = 21 & 15 = 5, R1(2) = 12, R1(3) = 15 (T1[0] = 0). R2:
/// (4, 2): a = 2, b = 12 + 12 = 24 & 15 = 8, ^ T2[2] = 15 -> 7 -> -1 + 14/15 = -0.0666667;
/// (5, 2): a = 5, b = 12 + 4 = 16, ^ 6 = 22, + 15 = 37 & 15 = 5, ^ T2[5] = 7 -> 2 -> -0.7333333;
/// (4, 3): b = 15 + 12 = 27 & 15 = 11, ^ 15 -> 4 -> -0.4666667;
/// (5, 3): b = 15 + 4 = 19, ^ 6 = 21, + 15 = 36 & 15 = 4, ^ 7 -> 3 -> -0.6.
/// g0 = -0.0666667 * 0.75 = -0.05, g1 = -0.7333333 * -0.25 = 0.1833333, g2 = -0.4666667 * -0.25
/// = 0.1166667, g3 = -0.6 * -1.25 = 0.75. A noise LUT of 0x800 everywhere gives sx = sy = s =
/// 2048/4095 = 0.5001221: lerp(g0, g1, s) = 0.0666952, lerp(g2, g3, s) = 0.4334107,
/// n = 0.2500978.
/// With U amplitude 0x800 / 4096 = 0.5 (D24): u = 0.5 + 0.5 n = 0.6250489; the map U through the
/// identity map LUT: m = 4096 * 0.6250489 / 4095 = 0.6252015; nearest colour at 127 m = 79.40 ->
/// entry 79. Without noise, u = 0.5, m = 0.5001221, 127 m = 63.52 -> entry 64.
#[test]
fn b13_proctex_noise_follows_the_hardware_random_functions() {
    let mut s = proctex_state(EDGE | 1 << 15, 128 << 11, identity_map);
    s.regs[0x0A9] = 0x800; // U amplitude 0.5, phase 0
    s.regs[0x0AA] = 0; // V amplitude 0, phase 0
    s.regs[0x0AB] = f16(1.0) | f16(1.0) << 16;
    Arc::make_mut(&mut s.memories.proctex).noise = [0x800; 128];
    let u = FragmentUniforms::from_state(&s);
    let n = proctex::noise(&u.proctex, [0.5, 0.25]);
    assert!((n - 0.250_097_8).abs() < 1e-6, "noise {n}");
    assert_eq!(proctex_color(&s, [0.5, 0.25], [0.0; 2]), [79, 0, 0, 255]);
    // The coordinates' signs do not matter (|u|, |v| first).
    assert_eq!(proctex_color(&s, [-0.5, -0.25], [0.0; 2]), [79, 0, 0, 255]);
    s.regs[0x0A8] = EDGE;
    assert_eq!(proctex_color(&s, [0.5, 0.25], [0.0; 2]), [64, 0, 0, 255]);
}

/// Appendix B "sqrt inaccurate for small inputs" (citra#2697): the hardware's square root is not
/// published, so decision D23 takes the exact one, and the mapping sqrt(u^2 + v^2) at
/// (0.03, 0.04) is 0.05 (the innermost ring of fincs' "wood" sample is where hardware differs).
/// Through the identity map and a 128-wide nearest colour LUT: m = 4096 * 0.05 / 4095 =
/// 0.0500122, 127 m = 6.35 -> entry 6.
#[test]
fn b14_proctex_sqrt_is_the_exact_root_by_decision() {
    assert!((proctex::map_function(ProcTexMap::Sqrt2, 0.03, 0.04) - 0.05).abs() < 1e-7);
    let s = proctex_state(EDGE | 6 << 6, 128 << 11, identity_map);
    assert_eq!(proctex_color(&s, [0.03, 0.04], [0.0; 2]), [6, 0, 0, 255]);
}

/// PROCTEX4 with filter `filter`, LOD range 0-7, width 128 and LOD bias 1.0 (f16 0x3C00: the
/// high byte 0x3C in bits 19-26, the low byte 0 in PROCTEX0 bits 20-27).
fn mip_p4(filter: u32) -> u32 {
    filter | 7 << 7 | 128 << 11 | 0x3C << 19
}

/// Derivatives that give LOD `lambda`: log2(128 * 1.0 * (du + dv)) = lambda.
fn duv_for(lambda: f32) -> [f32; 2] {
    let d = lambda.exp2() / 256.0;
    [d, d]
}

/// Appendix B "proctex mip level boundaries" (citra#3916, wwylele's test; facts 5.2). With m = 1
/// (map LUT 0xFFF everywhere) level l reads entry offset_l + (128 >> l) - 1, offsets 0, 0x80, 0xC0,
/// 0xE0 (PROCTEX5) and 0xF0, 0xF8, 0xFC, 0xFE (D25): 127, 191, 223, 239, 247, 251, 253, 254; with
/// m = 0 the offsets themselves. Nearest-mip-nearest rounds the LOD: 0.45 -> level 0, 0.55 ->
/// level 1; nearest-mip-linear at LOD 1.3 mixes levels 1 and 2: 191 * 0.7 + 223 * 0.3 = 200.6 ->
/// 200. A LOD below the range's minimum reads the minimum level; a bias of 0 is LOD 0 (D26).
#[test]
fn b15_proctex_mip_levels_have_the_hardware_boundaries() {
    let mut one = proctex_state(EDGE, mip_p4(2), |_| 0xFFF);
    let zero = proctex_state(EDGE, mip_p4(2), |_| 0);
    let ends = [127, 191, 223, 239, 247, 251, 253, 254];
    let starts = [0, 0x80, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC, 0xFE];
    for level in 0..8 {
        let duv = duv_for(level as f32);
        assert_eq!(proctex_color(&one, [0.5, 0.5], duv)[0], ends[level], "level {level}, m = 1");
        assert_eq!(proctex_color(&zero, [0.5, 0.5], duv)[0], starts[level], "level {level}, m = 0");
    }
    assert_eq!(proctex_color(&one, [0.5, 0.5], duv_for(0.45))[0], 127);
    assert_eq!(proctex_color(&one, [0.5, 0.5], duv_for(0.55))[0], 191);
    assert_eq!(proctex_color(&one, [0.5, 0.5], duv_for(-3.0))[0], 127);
    let mut linear = proctex_state(EDGE, mip_p4(4), |_| 0xFFF);
    assert_eq!(proctex_color(&linear, [0.5, 0.5], duv_for(1.3))[0], 200);
    // Minimum LOD 2 (PROCTEX4 bits 3-6).
    linear.regs[0x0AC] |= 2 << 3;
    assert_eq!(proctex_color(&linear, [0.5, 0.5], duv_for(0.0))[0], 223);
    // Bias 0: LOD 0 whatever the derivatives.
    one.regs[0x0AC] &= !(0xFF << 19);
    assert_eq!(proctex_color(&one, [0.5, 0.5], duv_for(5.0))[0], 127);
}

/// Appendix B "nearest uses round" (commit 99f4ea999, citra#4174; facts 5.2 step 7). Width 11,
/// nearest: t = m * 10. A map LUT of value 1474 gives m = 1474/4095 = 0.3599512, t = 3.5995 ->
/// round -> entry 4 (floor would read 3); value 1433 gives t = 3.4994 -> entry 3. Linear reads
/// entry 3 plus 0.5995 of its difference: difference bytes 5 (half of 10) -> 3 + 0.5995 * 10 =
/// 8.995 -> 8.
#[test]
fn b16_proctex_nearest_filter_rounds() {
    let up = proctex_state(EDGE, 11 << 11, |_| 1474);
    assert_eq!(proctex_color(&up, [0.5, 0.5], [0.0; 2])[0], 4);
    let down = proctex_state(EDGE, 11 << 11, |_| 1433);
    assert_eq!(proctex_color(&down, [0.5, 0.5], [0.0; 2])[0], 3);
    let mut linear = proctex_state(EDGE, 1 | 11 << 11, |_| 1474);
    Arc::make_mut(&mut linear.memories.proctex).color_diff[3] = 5;
    assert_eq!(proctex_color(&linear, [0.5, 0.5], [0.0; 2])[0], 8);
}

/// The lighting key of a lit state reads the lighting state; an unlit one does not.
#[test]
fn lighting_runs_only_when_both_gates_open() {
    let mut s = lit(0, ALL_DISABLED, 1);
    light(&mut s, 0, true, [0.0, 0.0, 1.0], 0);
    assert!(FragmentKey::from_state(&s).lighting.enabled);
    assert_eq!(colors(&s, IDENTITY, TOWARD_Z, [0; 4]).0, [255, 0, 0, 255]);
    for (id, value) in [(0x08F, 0), (0x1C6, 1)] {
        let mut t = s.clone();
        t.regs[id] = value;
        assert!(!FragmentKey::from_state(&t).lighting.enabled);
        assert_eq!(colors(&t, IDENTITY, TOWARD_Z, [0; 4]), ([0; 4], [0; 4]));
    }
}

fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![4 => -2.0f32..2.0, 1 => prop::num::f32::ANY]
}

proptest! {
    /// LUT indices stay in their tables for any input; for inputs in range the fraction is in
    /// [0, 1] and the value within [-1, 2] (value in [0, 1], delta in [-1, 1]).
    #[test]
    fn lut_lookups_are_bounded(x in any_f32(), raw in any::<u32>(), table in prop::array::uniform32(any::<u32>())) {
        let (i, f) = lut::unsigned_index(x);
        prop_assert!(i <= 255);
        let (j, g) = lut::signed_index(x);
        prop_assert!(j <= 255);
        if (0.0..=1.0).contains(&x) {
            prop_assert!((0.0..=1.0).contains(&f));
        }
        if (-1.0..=1.0).contains(&x) {
            prop_assert!((0.0..=1.0).contains(&g));
        }
        let (value, delta) = lut::lighting_entry(raw);
        prop_assert!((0.0..=1.0).contains(&value) && (-1.0..=1.0).contains(&delta));
        let mut t = [0u32; 128];
        for (k, e) in t.iter_mut().enumerate() {
            *e = table[k % 32];
        }
        let m = lut::proctex_map(&t, x);
        prop_assert!((0.0..=1.0).contains(&m));
        prop_assert_eq!(m.to_bits(), lut::proctex_map(&t, x).to_bits());
    }

    /// Lighting and the procedural texture on their own: random keys and uniforms from random
    /// registers and tables, random vectors: no panic, the same bytes twice, and (0, 0, 0, 0)
    /// whenever the key disables them.
    #[test]
    fn lighting_and_proctex_are_total_and_deterministic(
        regs in prop::collection::vec(any::<u32>(), 0x300),
        tables in prop::collection::vec(any::<u32>(), 256),
        q in prop::array::uniform4(any_f32()),
        view in prop::array::uniform3(any_f32()),
        uv in prop::array::uniform2(any_f32()),
        duv in prop::array::uniform2(any_f32()),
        texture in prop::array::uniform4(any::<[u8; 4]>()),
    ) {
        let mut memories = pica::state::Memories::default();
        for (k, t) in Arc::make_mut(&mut memories.lighting).iter_mut().enumerate() {
            for (e, r) in t.iter_mut().zip(tables.iter().cycle().skip(k)) {
                *e = *r;
            }
        }
        let p = Arc::make_mut(&mut memories.proctex);
        for (e, r) in p.color.iter_mut().chain(p.color_diff.iter_mut()).zip(tables.iter().cycle()) {
            *e = *r;
        }
        for (e, r) in p.noise.iter_mut().chain(p.rgb_map.iter_mut()).chain(p.alpha_map.iter_mut()).zip(tables.iter().rev().cycle()) {
            *e = *r;
        }
        let key = lighting::LightingKey::decode(&regs);
        let u = FragmentUniforms::from_regs(&regs, &memories);
        let mut i = inputs([0.0; 4]);
        i.normquat = q;
        i.view = view;
        i.texcoord[0] = uv;
        i.texcoord[1] = uv;
        i.texcoord[2] = uv;
        i.proctex_duv = duv;
        let a = lighting::compute(&key, &u.lighting, &i, &texture);
        prop_assert_eq!(a, lighting::compute(&key, &u.lighting, &i, &texture));
        if !key.enabled {
            prop_assert_eq!(a, fixed::LightingColors::default());
        }
        let pk = proctex::ProcTexKey::decode(regs[0x080], regs[0x0A8], regs[0x0AC]);
        let c = proctex::sample(&pk, &u.proctex, &i);
        prop_assert_eq!(c, proctex::sample(&pk, &u.proctex, &i));
        if !pk.enabled {
            prop_assert_eq!(c, [0; 4]);
        }
    }
}

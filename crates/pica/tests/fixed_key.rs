//! Properties of the fragment key and the reference over random register states and inputs:
//! no uniform-only register changes the key; the canonical key gives the output of the key
//! decoded as written (the full state); random states and inputs never panic; the reference
//! is deterministic.

use std::collections::HashSet;
use std::sync::Arc;

use pica::fixed::{self, FragmentInputs, FragmentKey, FragmentUniforms, Rgba, TexCoord, TexelRequest};
use pica::state::GpuState;
use proptest::prelude::*;

/// A texel that depends on every bit of the request, so that a changed request shows.
fn texel(r: TexelRequest) -> Rgba {
    let (face, s, t) = match r.coord {
        TexCoord::Plane { s, t } => (7u64, s, t),
        TexCoord::Cube { face, s, t } => (face as u64, s, t),
    };
    let mut h = (r.unit as u64) << 40 ^ face << 36 ^ u64::from(r.shadow) << 35;
    h ^= u64::from(s.to_bits()).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(t.to_bits()).rotate_left(17);
    h = (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let b = (h ^ (h >> 29)).to_le_bytes();
    [b[0], b[1], b[2], b[3]]
}

fn float() -> impl Strategy<Value = f32> {
    prop_oneof![6 => -1.5f32..1.5, 1 => Just(0.0f32), 1 => Just(1.0f32), 1 => prop::num::f32::ANY]
}

fn fragment() -> impl Strategy<Value = FragmentInputs> {
    (
        (
            prop::array::uniform4(float()),
            prop::array::uniform3(prop::array::uniform2(float())),
            float(),
            float(),
            float(),
        ),
        (prop::array::uniform4(float()), prop::array::uniform3(float()), prop::array::uniform2(float())),
    )
        .prop_map(|((color, texcoord, w0, z, w), (normquat, view, duv))| FragmentInputs {
            color,
            texcoord,
            texcoord0_w: w0,
            z_over_w: z,
            w,
            normquat,
            view,
            proctex_duv: duv.map(f32::abs),
        })
}

/// Random lighting and procedural-texture tables.
fn tables() -> impl Strategy<Value = (Vec<u32>, Vec<u32>)> {
    (prop::collection::vec(any::<u32>(), 24 * 256), prop::collection::vec(any::<u32>(), 3 * 128 + 2 * 256))
}

fn set_tables(s: &mut GpuState, (lighting, proctex): &(Vec<u32>, Vec<u32>)) {
    let l = Arc::make_mut(&mut s.memories.lighting);
    for (t, chunk) in l.iter_mut().zip(lighting.chunks(256)) {
        t.copy_from_slice(chunk);
    }
    let p = Arc::make_mut(&mut s.memories.proctex);
    p.noise.copy_from_slice(&proctex[..128]);
    p.rgb_map.copy_from_slice(&proctex[128..256]);
    p.alpha_map.copy_from_slice(&proctex[256..384]);
    p.color.copy_from_slice(&proctex[384..640]);
    p.color_diff.copy_from_slice(&proctex[640..896]);
}

/// A register file with the fragment registers random, biased toward the interesting values
/// of the few-valued fields (fog modes 5 and 7, shadow rendering, defined sources).
fn state() -> impl Strategy<Value = GpuState> {
    (
        prop::collection::vec(any::<u32>(), 0x300),
        prop::collection::vec(any::<u32>(), 128),
        prop::sample::select(vec![0u32, 5, 7, 1]),
        prop::sample::select(vec![0u32, 3, 1]),
        prop::collection::vec(prop::sample::select(vec![0u32, 1, 2, 3, 4, 5, 6, 13, 14, 15, 7]), 36),
        any::<bool>(),
        (any::<bool>(), any::<bool>(), tables()),
    )
        .prop_map(|(regs, fog, fog_mode, op_mode, sources, defined, (lit, proctex, luts))| {
            let mut s = GpuState::new();
            s.regs.copy_from_slice(&regs);
            Arc::make_mut(&mut s.memories.fog).copy_from_slice(&fog);
            s.regs[0x0E0] = (s.regs[0x0E0] & !7) | fog_mode;
            s.regs[0x100] = (s.regs[0x100] & !3) | op_mode;
            set_tables(&mut s, &luts);
            if lit {
                // Half of the states pass both lighting gates (decision D16).
                s.regs[0x08F] |= 1;
                s.regs[0x1C6] &= !1;
            }
            if proctex {
                s.regs[0x080] |= 1 << 10;
                // Filters 0-5, clamp modes 0-4, mapping functions 0-9.
                let p0 = s.regs[0x0A8];
                let field = |shift: u32, mask: u32, n: u32| (((p0 >> shift) & mask) % n) << shift;
                s.regs[0x0A8] = (p0 & !0x3FFF) | field(0, 7, 5) | field(3, 7, 5) | field(6, 15, 10) | field(10, 15, 10);
                s.regs[0x0AC] = (s.regs[0x0AC] & !7) | ((s.regs[0x0AC] & 7) % 6);
            }
            if defined {
                // Half of the states use only defined sources, combiners 0-9 and scales 0-2.
                for (i, base) in [0x0C0usize, 0x0C8, 0x0D0, 0x0D8, 0x0F0, 0x0F8].into_iter().enumerate() {
                    let src = &sources[i * 6..i * 6 + 6];
                    s.regs[base] = src[0] | src[1] << 4 | src[2] << 8 | src[3] << 16 | src[4] << 20 | src[5] << 24;
                    let c = s.regs[base + 2];
                    s.regs[base + 2] = ((c & 0xF) % 10) | ((((c >> 16) & 0xF) % 10) << 16);
                    let k = s.regs[base + 4];
                    s.regs[base + 4] = ((k & 3) % 3) | ((((k >> 16) & 3) % 3) << 16);
                }
                // Alpha test "never" would hide everything else.
                if (s.regs[0x104] >> 4) & 7 == 0 {
                    s.regs[0x104] |= 1 << 4;
                }
            }
            s
        })
}

/// Register bits that only uniforms read: (id, mask).
const UNIFORM_BITS: &[(u16, u32)] = &[
    (0x04D, !0),
    (0x04E, !0),
    (0x081, !0),
    (0x082, !0),
    (0x083, !(7 << 28)),
    (0x084, !0),
    (0x085, !0),
    (0x086, !0),
    (0x087, !0),
    (0x088, !0),
    (0x089, !0),
    (0x08A, !0),
    (0x08B, !1),
    (0x08E, !0),
    (0x091, !0),
    (0x092, !0),
    (0x093, !0),
    (0x094, !0),
    (0x095, !0),
    (0x096, !0),
    (0x099, !0),
    (0x09A, !0),
    (0x09B, !0),
    (0x09C, !0),
    (0x09D, !0),
    (0x09E, !0),
    (0x0C3, !0),
    (0x0CB, !0),
    (0x0D3, !0),
    (0x0DB, !0),
    (0x0F3, !0),
    (0x0FB, !0),
    (0x0E0, 1 << 3),
    (0x0E1, !0),
    (0x0E4, !0),
    (0x0E5, !0),
    (0x0FD, !0),
    (0x104, 0xFF << 8),
    (0x120, !0),
    (0x121, !0),
    (0x122, !0),
    (0x126, !0),
    (0x130, !0),
    // Fragment lighting: the global ambient, the LUT scales.
    (0x1C0, !0),
    (0x1D2, !0),
    // The procedural texture: the LOD bias's low byte, noise, LOD range, width, high bias byte,
    // level offsets.
    (0x0A8, 0xFF << 20),
    (0x0A9, !0),
    (0x0AA, !0),
    (0x0AB, !0),
    (0x0AC, 0x07FF_FFF8),
    (0x0AD, !0),
];

/// [`UNIFORM_BITS`] and every light's colour, position, spot direction and attenuation
/// registers, and the bits of LIGHTi_CONFIG above 3.
fn uniform_bits() -> Vec<(u16, u32)> {
    let mut bits = UNIFORM_BITS.to_vec();
    for light in 0..8u16 {
        let base = 0x140 + 0x10 * light;
        bits.extend([0, 1, 2, 3, 4, 5, 6, 7, 0xA, 0xB].map(|k| (base + k, !0)));
        bits.push((base + 9, !0xF));
    }
    bits
}

proptest! {
    #[test]
    fn uniform_only_state_does_not_change_the_key(
        s in state(),
        noise in prop::collection::vec(any::<u32>(), 200),
        fog in prop::collection::vec(any::<u32>(), 128),
        gas in prop::array::uniform16(any::<u32>()),
        luts in tables(),
    ) {
        let key = FragmentKey::from_state(&s);
        let mut t = s.clone();
        let bits = uniform_bits();
        prop_assert!(bits.len() <= noise.len());
        for (&(id, mask), n) in bits.iter().zip(&noise) {
            let r = &mut t.regs[usize::from(id)];
            *r = (*r & !mask) | (n & mask);
        }
        Arc::make_mut(&mut t.memories.fog).copy_from_slice(&fog);
        t.memories.gas = gas;
        set_tables(&mut t, &luts);
        prop_assert_eq!(FragmentKey::from_state(&t), key);
        // The same changes reach the uniforms (so the list above is not of dead bits).
        let after = FragmentUniforms::from_state(&t);
        prop_assert_eq!(after.fog_lut.to_vec(), fog);
        prop_assert_eq!(after.gas.lut, gas);
        prop_assert_eq!(after.lighting.luts.concat(), luts.0);
        prop_assert_eq!(&after.proctex.luts.color_diff[..], &luts.1[640..]);
    }

    #[test]
    fn the_canonical_key_gives_the_output_of_the_full_state(
        s in state(),
        frags in prop::collection::vec(fragment(), 8),
    ) {
        let key = FragmentKey::from_state(&s);
        let raw = FragmentKey::decode_raw(&s.regs);
        let u = FragmentUniforms::from_state(&s);
        for f in &frags {
            // Every step's value, not only the result (a later stage often hides an earlier).
            let a = fixed::trace(&key, &u, f, &mut texel);
            let b = fixed::trace(&raw, &u, f, &mut texel);
            prop_assert_eq!(a.result, b.result, "key {:?}\nraw {:?}\ninputs {:?}", key, raw, f);
            // Stage outputs are compared unless the alpha test always fails (the canonical key
            // then drops the stages).
            if key.alpha_test != pica::regs::layouts::CompareFunc::Never {
                prop_assert_eq!(a.texenv, b.texenv, "key {:?}\nraw {:?}\ninputs {:?}", key, raw, f);
            }
        }
        // Canonicalising is idempotent, and `canonical` of the key as written is the key.
        prop_assert_eq!(FragmentKey::from_regs(&s.regs), key);
        prop_assert_eq!(key.canonical(), key);
        prop_assert_eq!(raw.canonical(), key);
    }

    #[test]
    fn random_states_and_inputs_never_panic_and_are_deterministic(
        s in state(),
        frags in prop::collection::vec(fragment(), 8),
    ) {
        let key = FragmentKey::from_state(&s);
        let u = FragmentUniforms::from_state(&s);
        for f in &frags {
            let a = fixed::trace(&key, &u, f, &mut texel);
            let b = fixed::trace(&key, &u, f, &mut texel);
            prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
            prop_assert!((0.0..=1.0).contains(&a.depth));
            let dst = texel(TexelRequest { unit: 0, coord: TexCoord::Plane { s: f.z_over_w, t: f.w }, shadow: true });
            if let fixed::FragmentResult::Shadow(w) = a.result {
                let out = fixed::output::shadow_update(dst, w, &u);
                prop_assert_eq!(out, fixed::output::shadow_update(dst, w, &u));
            }
        }
    }
}

proptest! {
    /// Register files of any length (missing ids read 0) decode without a panic.
    #[test]
    fn short_register_files_decode(regs in prop::collection::vec(any::<u32>(), 0..0x140)) {
        let key = FragmentKey::from_regs(&regs);
        let u = FragmentUniforms::from_regs(&regs, &pica::state::Memories::default());
        let mut full = regs.clone();
        full.resize(0x300, 0);
        prop_assert_eq!(key, FragmentKey::from_regs(&full));
        // Debug text: f24 register values can be NaN.
        let v = FragmentUniforms::from_regs(&full, &pica::state::Memories::default());
        prop_assert_eq!(format!("{u:?}"), format!("{v:?}"));
    }
}

/// Keys hash: different code-changing state gives different keys, equal state equal keys.
#[test]
fn keys_are_hashable_and_tell_states_apart() {
    let mut s = GpuState::new();
    let mut set = HashSet::new();
    set.insert(FragmentKey::from_state(&s));
    s.regs[0x0C2] = 1; // stage 0 RGB modulate
    set.insert(FragmentKey::from_state(&s));
    s.regs[0x0C3] = 0x1234_5678; // its constant colour: a uniform
    set.insert(FragmentKey::from_state(&s));
    s.regs[0x0E0] = 5; // fog
    set.insert(FragmentKey::from_state(&s));
    assert_eq!(set.len(), 3);
}

/// Canonicalisation: state that cannot change the output does not split keys, and state that
/// can does (hand-picked cases of each rule of docs/pica-fragment.md).
#[test]
fn canonical_keys_merge_only_equivalent_states() {
    let mut base = GpuState::new();
    base.regs[0x06D] = 1;
    // Stage 0: Replace(texture 0); unit 0 enabled.
    base.regs[0x0C0] = 0x0003_0003;
    base.regs[0x080] = 1;
    let key = |f: &dyn Fn(&mut GpuState)| {
        let mut s = base.clone();
        f(&mut s);
        FragmentKey::from_state(&s)
    };
    let k0 = key(&|_| {});
    // Unused inputs of Replace: their sources and operands.
    assert_eq!(key(&|s| s.regs[0x0C0] |= 0x0ED0_0ED0), k0);
    assert_eq!(key(&|s| s.regs[0x0C1] |= 0x0077_0990), k0);
    // Units 1 and 2 enabled but read by no source.
    assert_eq!(key(&|s| s.regs[0x080] |= 0b110 | 1 << 13), k0);
    // Buffer writes no later stage reads.
    assert_eq!(key(&|s| s.regs[0x0E0] |= 0xFF00), k0);
    // Scale 3 is x1.
    assert_eq!(key(&|s| s.regs[0x0C4] = 0x0003_0003), k0);
    // The orthographic bit of a non-shadow unit.
    assert_eq!(key(&|s| s.regs[0x08B] = 1), k0);
    // Undefined combine values are all 0.
    assert_eq!(key(&|s| s.regs[0x0C2] = 10), key(&|s| s.regs[0x0C2] = 15));
    // Undefined sources all read 0, as does a disabled unit.
    assert_eq!(key(&|s| s.regs[0x0C0] = 0x0003_0007), key(&|s| s.regs[0x0C0] = 0x0003_000C));
    assert_eq!(key(&|s| s.regs[0x0C0] = 0x0003_0004), key(&|s| s.regs[0x0C0] = 0x0003_0008));

    // And what does change the output splits keys.
    assert_ne!(key(&|s| s.regs[0x0C2] = 1), k0); // Modulate
    assert_ne!(key(&|s| s.regs[0x0C4] = 1), k0); // x2
    assert_ne!(key(&|s| s.regs[0x083] = 3 << 28), k0); // projection
    assert_ne!(key(&|s| s.regs[0x080] = 0), k0); // unit 0 off
    assert_ne!(key(&|s| s.regs[0x104] = 0x51), k0); // alpha test less
    assert_ne!(key(&|s| s.regs[0x0E0] = 5), k0); // fog
    assert_ne!(key(&|s| s.regs[0x100] = 3), k0); // shadow rendering
    assert_ne!(key(&|s| s.regs[0x06D] = 0), k0); // W-buffer
                                                 // A buffer write that stage 2 reads.
    let reads_buffer = |s: &mut GpuState| s.regs[0x0D0] = 0x000D_000D;
    assert_ne!(
        key(&|s| {
            reads_buffer(s);
            s.regs[0x0E0] = 1 << 8;
        }),
        key(&reads_buffer)
    );
    // ... and one it cannot see (stage 1's write reaches stage 3 at the earliest).
    assert_eq!(
        key(&|s| {
            reads_buffer(s);
            s.regs[0x0E0] = 1 << 9;
        }),
        key(&reads_buffer)
    );
}

/// The random states above reach fragment lighting and the procedural texture in the canonical
/// key (so the properties cover them), with every light count and every defined configuration.
#[test]
fn random_states_reach_lighting_and_the_procedural_texture() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut lit, mut proc_on) = (0, 0);
    let mut counts = HashSet::new();
    let mut configs = HashSet::new();
    for _ in 0..400 {
        let s = state().new_tree(&mut runner).unwrap().current();
        let key = FragmentKey::from_state(&s);
        if key.lighting.enabled {
            lit += 1;
            counts.insert(key.lighting.count);
            configs.insert(key.lighting.config);
        }
        proc_on += usize::from(key.proctex.enabled);
    }
    assert!(lit >= 40 && proc_on >= 40, "lit {lit}, proctex {proc_on} of 400");
    assert_eq!(counts.len(), 8, "{counts:?}");
    assert!(configs.len() >= 12, "{configs:?}");
}

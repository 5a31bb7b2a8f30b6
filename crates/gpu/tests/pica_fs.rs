//! PICA200 fragment modules on the Vulkan device against the CPU reference, bit for bit: random
//! fragment states (pica::smith::fragment_state: every TexEnv source, operand, combine
//! function and scale, undefined values included; every alpha-test function; fog off, fog and
//! gas; shadow-render mode; every texture-unit type with every wrap mode) x 64 random fragments
//! each, with random unit images of random sizes. Each fragment's result word (colour and
//! depth bits, discard, or the shadow write) is compared with the reference's.
//!
//! The keys run through the modules' compute entry point (a compute pipeline costs lavapipe
//! much less to compile than a render pipeline; docs/pica-fragment-shaders.md). Keys whose
//! modules are the same words share one pipeline.
//!
//! PICA_FS_DEVICE_KEYS sets the number of keys (default 5,000; 300 with SHADERPORT_QUICK).

use arbitrary::Unstructured;
use gpu::pica_fs::{check_state, FragmentRunner, UnitTextures};
use pica::fixed::{FogKey, FragmentKey, FragmentUniforms, UnitKind};
use pica::regs::layouts::{CompareFunc, TexEnvCombine};
use pica::smith::{fragment_inputs, fragment_state};

mod common;
use common::device;

fn bytes(seed: u64, n: usize) -> Vec<u8> {
    pica::smith::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x3C6E_F372_FE94_F82B).bytes(n)
}

const FRAGMENTS: usize = 64;

/// The state, its uniforms and the fragments of seed `seed`.
fn case(seed: u64) -> (pica::state::GpuState, FragmentUniforms, Vec<pica::fixed::FragmentInputs>) {
    let data = bytes(seed, 16384);
    let mut u = Unstructured::new(&data);
    let state = fragment_state(&mut u).unwrap();
    let fragments = (0..FRAGMENTS).map(|_| fragment_inputs(&mut u).unwrap_or_default()).collect();
    let uniforms = FragmentUniforms::from_state(&state);
    (state, uniforms, fragments)
}
/// Keys per set of unit images.
const KEYS_PER_TEXTURES: u64 = 500;

/// What a set of keys covered.
#[derive(Default, Debug)]
struct Coverage {
    combines: [u32; 11],
    alpha_tests: [u32; 8],
    fog: [u32; 3],
    shadow_render: u32,
    unit0: [u32; 7],
}

impl Coverage {
    fn add(&mut self, k: &FragmentKey) {
        for st in &k.texenv {
            for c in [st.rgb_combine, st.alpha_combine] {
                let i = match c {
                    TexEnvCombine::Other(_) => 10,
                    c => c.raw() as usize,
                };
                self.combines[i.min(10)] += 1;
            }
        }
        let f = match k.alpha_test {
            CompareFunc::Other(_) => 1,
            f => f.raw() as usize,
        };
        self.alpha_tests[f & 7] += 1;
        self.fog[match k.fog {
            FogKey::Off => 0,
            FogKey::Fog { .. } => 1,
            FogKey::Gas => 2,
        }] += 1;
        self.shadow_render += k.shadow_render as u32;
        self.unit0[match k.textures[0].kind {
            UnitKind::Off => 0,
            UnitKind::Tex2d => 1,
            UnitKind::Cube => 2,
            UnitKind::Shadow2d { orthographic: false } => 3,
            UnitKind::Shadow2d { orthographic: true } => 4,
            UnitKind::Projection => 5,
            UnitKind::ShadowCube => 6,
        }] += 1;
    }
}

#[test]
fn random_keys_match_the_reference_bit_for_bit() {
    let Some(gpu) = device() else { return };
    let keys = testkit::count("PICA_FS_DEVICE_KEYS", if testkit::quick() { 300 } else { 5000 });
    let start = std::time::Instant::now();
    let cpu = testkit::cpu_seconds();
    let (mut passed, mut failed, mut bits, mut compiles) = (0usize, 0usize, 0u32, 0usize);
    let mut examples = Vec::new();
    let mut coverage = Coverage::default();
    for chunk in 0..keys.div_ceil(KEYS_PER_TEXTURES) {
        let textures = UnitTextures::random(&mut Unstructured::new(&bytes(0xF500 + chunk, 32768)));
        let runner = FragmentRunner::new(&gpu, &textures);
        let seeds: Vec<u64> = (chunk * KEYS_PER_TEXTURES..((chunk + 1) * KEYS_PER_TEXTURES).min(keys)).collect();
        let results = testkit::par_map(&seeds, |&seed| {
            let (state, uniforms, fragments) = case(seed);
            let c = check_state(&runner, &textures, &state.regs, &uniforms, &fragments)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            (seed, FragmentKey::from_state(&state), c)
        });
        compiles += runner.compiles();
        for (seed, key, c) in results {
            coverage.add(&key);
            passed += c.passed;
            failed += c.failed;
            bits += c.mismatched_bits;
            if let Some(f) = c.first {
                if examples.len() < 8 {
                    examples.push(format!(
                        "seed {seed}: fragment {} device {:?} reference {:?}\n  key {key:?}",
                        f.0, f.1, f.2
                    ));
                }
            }
        }
    }
    eprintln!(
        "{keys} keys x {FRAGMENTS} fragments: {passed} passed, {failed} failed in {:.1} s ({:.1} CPU s, {compiles} pipelines compiled); {coverage:?}",
        start.elapsed().as_secs_f64(),
        testkit::cpu_seconds() - cpu,
    );
    assert_eq!(bits, 0, "{failed} fragments, {bits} bits mismatched:\n{}", examples.join("\n"));
    assert_eq!(passed as u64, keys * FRAGMENTS as u64);
    // Every combine function, alpha-test function and fog kind turned up.
    assert!(coverage.combines.iter().all(|&n| n > 0), "{coverage:?}");
    assert!(coverage.alpha_tests.iter().all(|&n| n > 0), "{coverage:?}");
    assert!(coverage.fog.iter().all(|&n| n > 0) && coverage.shadow_render > 0, "{coverage:?}");
}

/// The fragment entry point in a render pass: PICA_FS_RENDER_KEYS keys (default 40) of the same
/// generator, 64 fragments each drawn as points through a harness vertex stage that writes the
/// output registers of `render_input_map`; each pixel's RGBA8 (colour, shadow write, or the
/// clear colour where the reference discards) must equal the reference's. A render pipeline
/// costs lavapipe several times a compute pipeline, hence the smaller count.
#[test]
fn the_fragment_entry_point_renders_the_reference_colours() {
    let Some(gpu) = device() else { return };
    let keys = testkit::count("PICA_FS_RENDER_KEYS", 40);
    let textures = UnitTextures::random(&mut Unstructured::new(&bytes(0xF5FF, 32768)));
    let runner = FragmentRunner::new(&gpu, &textures);
    let seeds: Vec<u64> = (0..keys).map(|k| 0x1_0000 + k).collect();
    let cpu = testkit::cpu_seconds();
    let results = testkit::par_map(&seeds, |&seed| {
        let (state, uniforms, fragments) = case(seed);
        let r = gpu::pica_fs::check_render(&runner, &textures, &state.regs, &uniforms, &fragments)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        (seed, r)
    });
    let (mut passed, mut failed) = (0, 0);
    let mut examples = Vec::new();
    for (seed, (p, f, first)) in results {
        passed += p;
        failed += f;
        if let Some(x) = first {
            examples.push(format!("seed {seed}: pixel {} device {:?} reference {:?}", x.0, x.1, x.2));
        }
    }
    eprintln!(
        "{keys} keys rendered x {FRAGMENTS} fragments: {passed} passed, {failed} failed ({:.1} CPU s)",
        testkit::cpu_seconds() - cpu
    );
    assert_eq!(failed, 0, "{}", examples.join("\n"));
    assert_eq!(passed as u64, keys * FRAGMENTS as u64);
}

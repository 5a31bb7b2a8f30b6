//! TEV modules on the Vulkan device against the CPU reference, bit for bit: random valid
//! materials (gx::smith: 1-16 stages, every input, op, bias, scale, clamp, compare mode, swap
//! and konst selector, indirect stages with every format, bias, matrix and wrap, alpha compare)
//! x 64 random pixels each, with random texture maps of random sizes.
//!
//! Every key runs through the compute entry point (the module's TEV function over a storage
//! buffer: colour and alpha-test result of every pixel); the first GX_TEV_RENDER_KEYS keys
//! (default 100) also run through the fragment entry point in a render pass, which proves the
//! fragment stage's own inputs, discard and RGBA8 output. Why both: lavapipe compiles a render
//! pipeline's vertex stage, setup and fragment variants at the first draw, a fixed cost of
//! about 200 ms each on this machine, against about 35 ms for a compute pipeline (measured by
//! `pipeline_compile_time`; docs/gx-translate.md has the figures).
//!
//! GX_TEV_DEVICE_KEYS sets the number of keys (default 5,000; `scripts/test --quick` runs 500).
//! Cold (MESA_SHADER_CACHE_DISABLE=true) on a 2-core machine shared with other builds: see
//! docs/gx-translate.md "Device check".

use arbitrary::Unstructured;
use gpu::tev::{check_state, random_maps, Path, TevPixel, TevRunner};
use gx::key::TevKey;
use gx::smith::{self, Config};
use gx::PixelInputs;
use translate::gx_tev;

mod common;
use common::device;

fn bytes(seed: u64, n: usize) -> Vec<u8> {
    pica::smith::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x2545_F491_4F6C_DD1D).bytes(n)
}

const PIXELS: usize = 64;
/// Keys per set of texture maps.
const KEYS_PER_MAPS: u64 = 500;

fn pixels(u: &mut Unstructured, stages: usize) -> Vec<PixelInputs> {
    (0..PIXELS).map(|_| smith::pixel(u, stages).unwrap_or_default()).collect()
}

fn state_with_stages(seed: u64, stages: u8) -> gx::TevState {
    let cfg = Config { max_stages: stages, ..Config::default() };
    // Seeds until the generator picks the maximum stage count.
    (0..)
        .map(|k| smith::state(&mut Unstructured::new(&bytes(seed * 1000 + k, 4096)), &cfg).unwrap())
        .find(|s| s.num_stages() == stages as usize)
        .unwrap()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Prints the cold cost of a pipeline (creation plus the first run, where lavapipe compiles)
/// for 4- and 16-stage keys on both paths.
#[test]
fn pipeline_compile_time() {
    let Some(gpu) = device() else { return };
    let maps = random_maps(&mut Unstructured::new(&bytes(1, 8192)));
    let runner = TevRunner::new(&gpu, &maps).unwrap();
    let px = vec![TevPixel::default(); PIXELS];
    for stages in [1u8, 4, 16] {
        let (mut render, mut compute, mut words) = (Vec::new(), Vec::new(), Vec::new());
        for seed in 0..8 {
            let state = state_with_stages(seed + 100 * stages as u64, stages);
            let key = TevKey::new(&state);
            let block = gx_tev::UniformBlock::from_state(&state).to_bytes();
            let w = gx_tev::fragment(&key).unwrap().spirv().unwrap();
            words.push(w.len() as f64);
            let t = std::time::Instant::now();
            let p = runner.pipeline(&w).unwrap();
            runner.draw(&p, &block, &px, [0; 4]).unwrap();
            render.push(t.elapsed().as_secs_f64() * 1000.0);
            let w = gx_tev::translate(&key, &gx_tev::Options { compute_wrapper: true }).unwrap().spirv().unwrap();
            let t = std::time::Instant::now();
            let p = runner.compute_pipeline(&w).unwrap();
            runner.dispatch(&p, &block, &px).unwrap();
            compute.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        eprintln!(
            "{stages} stages ({:.0} SPIR-V words): render pipeline + first draw {:.1} ms, compute pipeline + first dispatch {:.1} ms (medians of 8)",
            median(words),
            median(render),
            median(compute)
        );
    }
}

#[test]
fn random_keys_match_the_reference_bit_for_bit() {
    let Some(gpu) = device() else { return };
    let keys = testkit::count("GX_TEV_DEVICE_KEYS", if testkit::quick() { 500 } else { 5000 });
    let render_keys = testkit::count("GX_TEV_RENDER_KEYS", 100);
    let start = std::time::Instant::now();
    let cpu = testkit::cpu_seconds();
    let (mut passed, mut failed, mut bits) = (0usize, 0usize, 0u32);
    let mut examples = Vec::new();
    let mut stage_counts = [0u32; 17];
    for chunk in 0..keys.div_ceil(KEYS_PER_MAPS) {
        let maps = random_maps(&mut Unstructured::new(&bytes(0xAB00 + chunk, 8192)));
        let runner = TevRunner::new(&gpu, &maps).unwrap();
        let seeds: Vec<u64> = (chunk * KEYS_PER_MAPS..((chunk + 1) * KEYS_PER_MAPS).min(keys)).collect();
        // Pipelines compile on every core (the driver compiles on the calling thread).
        let results = testkit::par_map(&seeds, |&seed| {
            let data = bytes(seed, 8192);
            let mut u = Unstructured::new(&data);
            let state = smith::state(&mut u, &Config::default()).unwrap();
            let inputs = pixels(&mut u, state.num_stages());
            let paths: &[Path] = if seed < render_keys { &[Path::Compute, Path::Render] } else { &[Path::Compute] };
            let checks: Vec<_> = paths
                .iter()
                .map(|&path| {
                    let c = check_state(&runner, &maps, &state, &inputs, path)
                        .unwrap_or_else(|e| panic!("seed {seed} {path:?}: {e}"));
                    (path, c)
                })
                .collect();
            (seed, state.num_stages(), checks)
        });
        for (seed, stages, checks) in results {
            stage_counts[stages] += 1;
            for (path, c) in checks {
                passed += c.passed;
                failed += c.failed;
                bits += c.mismatched_bits;
                if let Some(f) = c.first {
                    if examples.len() < 5 {
                        examples
                            .push(format!("seed {seed} {path:?}: pixel {} device {:?} reference {:?}", f.0, f.1, f.2));
                    }
                }
            }
        }
    }
    eprintln!(
        "{keys} keys ({} also rendered) x {PIXELS} pixels: {passed} passed, {failed} failed in {:.1} s ({:.1} CPU s); keys by stage count {:?}",
        render_keys.min(keys),
        start.elapsed().as_secs_f64(),
        testkit::cpu_seconds() - cpu,
        &stage_counts[1..]
    );
    assert_eq!(bits, 0, "{failed} pixels, {bits} bits mismatched:\n{}", examples.join("\n"));
    assert_eq!(passed as u64, (keys + render_keys.min(keys)) * PIXELS as u64);
}

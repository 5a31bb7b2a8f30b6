//! The C entry points called from 8 threads at once over the corpus give the same bytes and
//! interfaces as the Rust API, with and without a shared cache handle.

mod common;

use std::sync::Barrier;

use common::{latte, latte_gsh, latte_program, pica, pica_fragment, pica_shbin, tev, CProgram, CallResult};
use pica::shbin::{ShaderType, Shbin};
use shaderport::*;
use translate::latte as latte_tr;
use translate::pica::{compile, Options, Setup};
use translate::{gx_tev, pica_fs, Precision, Target};

const THREADS: usize = 8;

/// One call through the C ABI and the bytes the Rust API gives for it.
enum Job {
    Words { program: Box<CProgram>, shader_type: u32, options: SpOptions },
    Shbin { bytes: std::sync::Arc<Vec<u8>>, executable: u32, options: SpOptions },
    Tev { key: Box<SpTevKey>, options: SpOptions },
    Fragment { key: Box<SpPicaFragmentKey>, options: SpOptions },
    Latte { bytes: std::sync::Arc<Vec<u8>>, stage: u32, options: SpOptions },
    LatteGsh { bytes: std::sync::Arc<Vec<u8>>, stage: u32, index: u32, options: SpOptions },
}

// SAFETY: the raw pointers a job's program holds point into its own vectors, which no thread
// writes.
unsafe impl Sync for Job {}

impl Job {
    fn call(&self, cache: *const SpCache) -> CallResult {
        match self {
            Job::Words { program, shader_type, options } => pica(&program.program(*shader_type), options, cache),
            Job::Shbin { bytes, executable, options } => pica_shbin(bytes, *executable, options, cache),
            Job::Tev { key, options } => tev(key, options, cache),
            Job::Fragment { key, options } => pica_fragment(key, options, cache),
            Job::Latte { bytes, stage, options } => latte(&latte_program(bytes, *stage), options, cache),
            Job::LatteGsh { bytes, stage, index, options } => latte_gsh(bytes, *stage, *index, options, cache),
        }
    }
}

/// A job, the bytes the Rust API gives for it, and the interface's input mask, position and
/// texture-map mask.
type Expected = (Job, Vec<u8>, (u32, i32, u32));

const TARGETS: [(u32, Target); 6] = [
    (SP_TARGET_SPIRV, Target::SpirV),
    (SP_TARGET_GLSL, Target::Glsl),
    (SP_TARGET_GLSL_ES, Target::GlslEs),
    (SP_TARGET_MSL, Target::Msl),
    (SP_TARGET_HLSL, Target::Hlsl),
    (SP_TARGET_WGSL, Target::Wgsl),
];

/// Every job with the bytes the Rust API gives (and the interface as the C struct describes it).
fn jobs() -> Vec<Expected> {
    let mut jobs = Vec::new();
    let mut n = 0usize;
    for path in testkit::files(&testkit::corpus("pica/golden"), "shbin") {
        let bytes = std::sync::Arc::new(std::fs::read(&path).unwrap());
        let shbin = Shbin::read(&bytes).unwrap();
        for e in 0..shbin.executables.len() {
            let (named, ty) = Setup::from_shbin(&shbin, e).unwrap();
            // The words entry point takes no register names (they only annotate text).
            let mut setup = named.clone();
            setup.names.clear();
            let c_type = if ty == ShaderType::Geometry { SP_PICA_GEOMETRY } else { SP_PICA_VERTEX };
            // Every target in compat; SPIR-V in fast and exact too.
            let mut variants: Vec<(u32, u32, Target, Precision)> =
                TARGETS.iter().map(|&(c, t)| (c, SP_PRECISION_COMPAT, t, Precision::Compat)).collect();
            variants.push((SP_TARGET_SPIRV, SP_PRECISION_FAST, Target::SpirV, Precision::Fast));
            variants.push((SP_TARGET_SPIRV, SP_PRECISION_EXACT, Target::SpirV, Precision::Exact));
            for (c_target, c_precision, target, precision) in variants {
                let options = SpOptions { target: c_target, precision: c_precision, flags: 0 };
                let rust = Options { precision, ..Options::default() };
                n += 1;
                // Alternate the two PICA entry points.
                if n.is_multiple_of(2) {
                    let want = compile(None, &setup, ty, &rust, target).unwrap();
                    let i = &want.interface;
                    let mask = i.inputs.iter().fold(0u32, |m, &r| m | 1 << r);
                    let pos = i.position.map_or(-1, i32::from);
                    let program = Box::new(CProgram::new(&setup));
                    jobs.push((Job::Words { program, shader_type: c_type, options }, want.bytes, (mask, pos, 0)));
                } else {
                    let want = compile(None, &named, ty, &rust, target).unwrap();
                    let i = &want.interface;
                    let mask = i.inputs.iter().fold(0u32, |m, &r| m | 1 << r);
                    let pos = i.position.map_or(-1, i32::from);
                    let job = Job::Shbin { bytes: bytes.clone(), executable: e as u32, options };
                    jobs.push((job, want.bytes, (mask, pos, 0)));
                }
            }
        }
    }
    let keys = testkit::count("CAPI_TEV_KEYS", if testkit::quick() { 32 } else { 64 });
    for seed in 0..keys {
        let key = gx::key::TevKey::new(&common::tev_state(seed));
        for &(c_target, target) in &TARGETS[..2] {
            let want = gx_tev::compile(None, &key, &gx_tev::Options::default(), target).unwrap();
            let mask = want.texmaps.iter().enumerate().fold(0u32, |m, (k, &u)| m | (u as u32) << k);
            let options = SpOptions { target: c_target, precision: 0, flags: 0 };
            jobs.push((Job::Tev { key: Box::new(SpTevKey::from_key(&key)), options }, want.bytes, (0, -1, mask)));
        }
    }
    let keys = testkit::count("CAPI_FRAGMENT_KEYS", if testkit::quick() { 24 } else { 48 });
    let mut refused = 0;
    for seed in 0..keys {
        let regs = common::fragment_regs(seed);
        let (key, inputs) = (pica::fixed::FragmentKey::from_regs(&regs), pica_fs::InputMap::from_regs(&regs));
        // Keys with lighting or the procedural texture are refused by both (tests/malformed.rs).
        let Ok(t) = pica_fs::translate(&key, &inputs, &pica_fs::Options::default()) else {
            refused += 1;
            continue;
        };
        let c_key = Box::new(common::pica_fragment_key(&regs).unwrap());
        let mask = inputs.registers().iter().fold(0u32, |m, &r| m | 1 << r);
        let texmaps = t.textures().iter().enumerate().fold(0u32, |m, (u, b)| m | (b.is_some() as u32) << u);
        for &(c_target, target) in &TARGETS[..3] {
            let want = t.write(target).unwrap().to_bytes();
            let options = SpOptions { target: c_target, precision: 0, flags: 0 };
            jobs.push((Job::Fragment { key: c_key.clone(), options }, want, (mask, -1, texmaps)));
        }
    }
    assert!(refused < keys / 2, "{refused} of {keys} random fragment keys refused");
    // The corpus's Latte programs that translate (the others use TEX fetches: tests/malformed.rs),
    // alternately as program bytes and as a .gsh shader.
    let mut files = std::collections::BTreeMap::new();
    let mut latte_jobs = 0;
    for (path, stage, index, program, offset) in common::latte_corpus() {
        let prog = latte::isa::Program::decode_bytes(&program, offset).unwrap();
        let rust_stage = if stage == SP_LATTE_PIXEL { latte_tr::Stage::Pixel } else { latte_tr::Stage::Vertex };
        for &(c_precision, precision) in
            &[(SP_PRECISION_COMPAT, Precision::Compat), (SP_PRECISION_EXACT, Precision::Exact)]
        {
            let options = latte_tr::Options { precision, ..Default::default() };
            let Ok(t) = latte_tr::translate(&prog, rust_stage, &options) else { continue };
            for &(c_target, target) in &TARGETS[..2] {
                let want = t.write(target).unwrap().to_bytes();
                let options = SpOptions { target: c_target, precision: c_precision, flags: 0 };
                latte_jobs += 1;
                let job = if latte_jobs % 2 == 0 {
                    Job::Latte { bytes: std::sync::Arc::new(program.clone()), stage, options }
                } else {
                    let bytes =
                        files.entry(path.clone()).or_insert_with(|| std::sync::Arc::new(std::fs::read(&path).unwrap()));
                    Job::LatteGsh { bytes: bytes.clone(), stage, index, options }
                };
                jobs.push((job, want, (0, -1, 0)));
            }
        }
    }
    assert!(latte_jobs >= 40, "{latte_jobs} Latte jobs");
    eprintln!(
        "{} jobs: {} random fragment keys of {keys} translated (x 3 targets), {latte_jobs} Latte jobs",
        jobs.len(),
        keys - refused
    );
    jobs
}

/// Runs every job on 8 threads started together, thread t taking jobs t, t + 8, ... shifted by
/// `shift`; returns the failures.
fn run_all(jobs: &[Expected], cache: Option<&CacheHandle>, shift: usize) -> Vec<String> {
    let barrier = Barrier::new(THREADS);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (barrier, failures) = (&barrier, &failures);
            s.spawn(move || {
                barrier.wait();
                // Odd threads share the cache handle; even ones pass none.
                let cache = if t % 2 == 1 { cache.map_or(std::ptr::null(), |c| c.0) } else { std::ptr::null() };
                for (j, (job, want, (inputs, position, texmaps))) in jobs.iter().enumerate() {
                    if (j + shift) % THREADS != t {
                        continue;
                    }
                    match job.call(cache) {
                        Ok((bytes, i)) => {
                            if &bytes != want
                                || i.input_mask != *inputs
                                || i.position != *position
                                || i.texmap_mask != *texmaps
                            {
                                failures.lock().unwrap().push(format!("job {j}: differs from the Rust API"));
                            }
                        }
                        Err((code, m)) => failures.lock().unwrap().push(format!("job {j}: code {code}: {m}")),
                    }
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

struct CacheHandle(*mut SpCache);
// SAFETY: SpCache is documented thread-safe; the handle outlives the threads.
unsafe impl Sync for CacheHandle {}

#[test]
fn eight_threads_match_the_rust_api() {
    let jobs = jobs();
    assert!(jobs.len() > 300, "{} jobs", jobs.len());
    let dir = testkit::temp_dir("capi-threads");
    let _ = std::fs::remove_dir_all(&dir);
    let path = std::ffi::CString::new(dir.to_str().unwrap()).unwrap();
    let mut cache = std::ptr::null_mut();
    let mut error = common::new_error();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { sp_cache_open(path.as_ptr(), 256 << 20, &mut cache, &mut error) }, SP_OK);
    let handle = CacheHandle(cache);

    let failures = run_all(&jobs, Some(&handle), 0);
    assert!(failures.is_empty(), "{} of {} calls failed:\n{}", failures.len(), jobs.len(), failures.join("\n"));
    // Again, each job on another thread of the same parity: the cached half now hits, with the
    // same results.
    let failures = run_all(&jobs, Some(&handle), 2);
    assert!(failures.is_empty(), "{} of {} calls failed:\n{}", failures.len(), jobs.len(), failures.join("\n"));

    let mut stats = SpCacheStats::default();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { sp_cache_stats(cache, &mut stats) }, SP_OK);
    let cached = (0..jobs.len()).filter(|j| j % 2 == 1).count() as u64;
    assert_eq!(stats.hits + stats.misses, 2 * cached, "{stats:?}");
    assert!(stats.hits >= cached && stats.writes > 0, "{stats:?}");
    assert_eq!(stats.corrupt, 0);
    // SAFETY: closed once, no call in flight.
    unsafe { sp_cache_close(cache) };
}

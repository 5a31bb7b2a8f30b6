//! Interpreter throughput on the four corpus vertex shaders that BENCHMARKS.md compares with
//! other interpreters (simple_tri, lenny, textured_cube, normal_mapping), as a plain timing
//! harness whose output two builds can be compared by: `scripts/bench-interp-baseline` builds
//! this file in an older checkout of the crate too (with `--cfg pica_baseline`, which leaves out
//! what that checkout lacks) and runs the two binaries in turn, several rounds, so that the load
//! of a shared machine falls on both alike.
//!
//! `cargo bench -p pica --bench interp_rounds -- [--seconds S]`
//!
//! Prints one line per shader and path: `SHADER PATH M_INSTR_PER_S INSTR_PER_VERTEX`, where PATH
//! is `scalar` (`Interpreter::run`, one vertex per call) or `batch` (`Interpreter::run_batch`
//! over the 1024 vertices). Time is the thread's CPU time (`/proc/thread-self/schedstat`), as in
//! `benches/interp.rs`, else wall-clock time; each figure is the best of three runs of about
//! `S` / 3 seconds (default S = 1).

use pica::interp::{Interpreter, Shader, Vec4};
use pica::shbin::Shbin;
use std::time::Instant;

const SHADERS: [(&str, &str); 4] = [
    ("simple_tri", "3ds-examples__graphics__gpu__simple_tri__source__vshader.v.pica.shbin"),
    ("lenny", "3ds-examples__graphics__gpu__lenny__source__vshader.v.pica.shbin"),
    ("textured_cube", "3ds-examples__graphics__gpu__textured_cube__source__vshader.v.pica.shbin"),
    ("normal_mapping", "3ds-examples__graphics__gpu__normal_mapping__source__vshader.v.pica.shbin"),
];

fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Nanoseconds of CPU time (or wall-clock time) that `f` takes.
fn time(f: &mut dyn FnMut()) -> u64 {
    let (cpu, wall) = (thread_cpu_ns(), Instant::now());
    f();
    match (cpu, thread_cpu_ns()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed().as_nanos() as u64,
    }
}

/// The inputs of `benches/interp.rs`: smooth values, w = 1.
fn vertices(n: usize) -> Vec<[Vec4; 16]> {
    (0..n)
        .map(|k| {
            let t = k as f32 / 64.0;
            std::array::from_fn(|i| [t + i as f32, 0.5 - t, 0.25 * t, 1.0])
        })
        .collect()
}

/// Best throughput (instructions per second) of `pass`, which runs all vertices once and returns
/// the instructions it executed.
fn measure(seconds: f64, pass: &mut dyn FnMut() -> u64) -> f64 {
    let steps = pass();
    // Passes per run: about seconds / 3, calibrated on wall-clock time (the CPU-time counter
    // moves at scheduler ticks, too coarse for one pass).
    let start = Instant::now();
    let mut calibration = 0u64;
    while start.elapsed().as_secs_f64() < 0.05 {
        std::hint::black_box(pass());
        calibration += 1;
    }
    let per_pass = start.elapsed().as_secs_f64() / calibration as f64;
    let reps = (seconds / 3.0 / per_pass).ceil().max(1.0) as u64;
    (0..3)
        .map(|_| {
            let ns = time(&mut || {
                for _ in 0..reps {
                    std::hint::black_box(pass());
                }
            });
            (steps * reps) as f64 / (ns.max(1) as f64 * 1e-9)
        })
        .fold(0.0, f64::max)
}

fn interpreter(shader: &Shader) -> Interpreter<'_> {
    let mut it = shader.interpreter();
    for i in 0..96 {
        it.set_float(i, [0.5, -0.25, 0.125, 1.0]);
    }
    for (i, v) in shader.uniforms.float.iter().enumerate() {
        if *v != [0.0; 4] {
            it.set_float(i, *v);
        }
    }
    it
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds = args
        .iter()
        .position(|a| a == "--seconds")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let inputs = vertices(1024);
    let dir = testkit::corpus("pica/golden");
    for (label, file) in SHADERS {
        let shbin = Shbin::read(&std::fs::read(dir.join(file)).unwrap()).unwrap();
        let shader = Shader::from_shbin(&shbin, 0).unwrap();
        let mut it = interpreter(&shader);
        let mut scalar = || {
            let mut steps = 0;
            for v in &inputs {
                std::hint::black_box(it.run(shader.entry, v).unwrap());
                steps += it.last_steps;
            }
            steps
        };
        let per_vertex = scalar() as f64 / inputs.len() as f64;
        let ips = measure(seconds, &mut scalar);
        println!("{label} scalar {:.1} {per_vertex}", ips / 1e6);
        #[cfg(not(pica_baseline))]
        {
            let mut it = interpreter(&shader);
            let mut outputs = vec![[[0.0; 4]; 16]; inputs.len()];
            let mut batch = || {
                assert!(it.run_batch(shader.entry, &inputs, &mut outputs).is_empty());
                std::hint::black_box(&outputs);
                it.last_steps
            };
            let ips = measure(seconds, &mut batch);
            println!("{label} batch {:.1} {per_vertex}", ips / 1e6);
        }
    }
}

//! The batched executor (`Interpreter::run_batch`) against the scalar one (`Interpreter::run`):
//! the same outputs bit for bit, the same errors at the same instructions, the same step counts.

use pica::interp::{Interpreter, Program, RunError, ShaderKind, Vec4, LANES};
use pica::smith::{generate, Config};

/// xorshift64: the tests' own inputs, reproducible from the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Mostly float24 values around 1 (both signs), with zeros, small integers, subnormals,
    /// infinities, NaN and a few raw f32 patterns, so that comparisons split the lanes and the
    /// special cases of the float rules are reached.
    fn value(&mut self) -> f32 {
        let r = self.next();
        match r % 16 {
            0 => 0.0,
            1 => [-0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN][(r >> 8) as usize % 4],
            2 => ((r >> 8) % 9) as f32 - 4.0,
            3 => f32::from_bits((r >> 16) as u32 & 0x8000_0000 | ((r >> 20) as u32 & 0x007F_FF80)).max(-1e-30),
            4 => f32::from_bits((r >> 16) as u32),
            _ => f32::from_bits(((r >> 16) as u32 & 0x83FF_FF80) | 0x3C00_0000),
        }
    }
}

/// One program on `inputs`, both ways; panics with the seed and the vertex on any difference.
fn compare(what: &str, it: &mut Interpreter<'_>, entry: u32, inputs: &[[Vec4; 16]]) {
    let mut outputs = vec![[[f32::from_bits(0x7FAB_CDEF); 4]; 16]; inputs.len()];
    let errors = it.run_batch(entry, inputs, &mut outputs);
    let batch_steps = it.last_steps;
    let mut steps = 0;
    let mut want_errors: Vec<(usize, RunError)> = Vec::new();
    for (k, input) in inputs.iter().enumerate() {
        let r = it.run(entry, input);
        steps += it.last_steps;
        match r {
            Ok(o) => {
                for (reg, (got, want)) in outputs[k].iter().zip(&o).enumerate() {
                    let (g, w) = (got.map(f32::to_bits), want.map(f32::to_bits));
                    assert_eq!(g, w, "{what}: vertex {k}: o{reg} batched {g:08x?}, scalar {w:08x?}");
                }
            }
            Err(e) => want_errors.push((k, e)),
        }
    }
    assert_eq!(errors, want_errors, "{what}: errors");
    assert_eq!(batch_steps, steps, "{what}: instructions executed");
}

/// 10,000 smith programs (BATCH_PROGRAMS overrides the count) through both paths, each on 35
/// random input sets (four full batches and a partial one) with random float uniforms. One in five
/// is generated as a geometry shader and run as a vertex shader, so EMIT stops it with an error;
/// one in four runs with a small step budget, so the step limit stops some lanes mid-program.
/// Takes about 3 s in release on one core (2.4 s measured on the shared 2-core machine).
#[test]
fn batched_runs_match_scalar_runs() {
    let count = testkit::count("BATCH_PROGRAMS", 10_000);
    let (mut errors, mut vertices) = (0, 0);
    for seed in 0..count {
        let config = Config { geometry: seed % 5 == 0, ..Config::default() };
        let p = generate(seed, &config);
        let program = Program::new(&p.built.code, &p.built.descriptor_words).unwrap();
        let mut it = Interpreter::new(&program, ShaderKind::Vertex);
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut u = it.uniforms();
        for c in u.float.iter_mut() {
            *c = [0; 4].map(|_| rng.value());
        }
        u.int = p.int_uniforms;
        u.bools = p.bool_uniforms;
        if seed % 7 == 3 {
            u.bools = std::array::from_fn(|_| rng.next() & 1 != 0);
        }
        it.set_uniforms(&u);
        if seed % 4 == 1 {
            it.step_limit = 1 + rng.next() % 120;
        }
        let inputs: Vec<[Vec4; 16]> =
            (0..4 * LANES + 3).map(|_| [0; 16].map(|_| [0; 4].map(|_| rng.value()))).collect();
        compare(&format!("seed {seed}"), &mut it, 0, &inputs);
        let mut out = vec![[[0.0; 4]; 16]; inputs.len()];
        errors += it.run_batch(0, &inputs, &mut out).len();
        vertices += inputs.len();
    }
    eprintln!("{count} programs, {vertices} invocations, {errors} stopped with an error");
    // The check above could pass with every invocation failing the same way: make sure most ran.
    assert!(errors * 3 < vertices, "{errors} of {vertices} invocations failed");
}

/// Every vertex shader of corpus/pica (the four BENCHMARKS.md measures among them) on 100
/// vertices of random inputs, batched against scalar.
#[test]
fn corpus_shaders_batched_match_scalar() {
    for file in testkit::walk(&testkit::corpus("pica"), "shbin") {
        let bytes = std::fs::read(&file).unwrap();
        let Ok(shbin) = pica::shbin::Shbin::read(&bytes) else { continue };
        for index in 0..shbin.executables.len() {
            let Ok(shader) = pica::interp::Shader::from_shbin(&shbin, index) else { continue };
            if shader.kind != ShaderKind::Vertex {
                continue;
            }
            let mut it = shader.interpreter();
            let mut rng = Rng(index as u64 + 7);
            for c in 0..96 {
                if shader.uniforms.float[c] == [0.0; 4] {
                    it.set_float(c, [0; 4].map(|_| rng.value()));
                }
            }
            let inputs: Vec<[Vec4; 16]> = (0..100).map(|_| [0; 16].map(|_| [0; 4].map(|_| rng.value()))).collect();
            compare(&format!("{}: DVLE {index}", file.display()), &mut it, shader.entry, &inputs);
        }
    }
}

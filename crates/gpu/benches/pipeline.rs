//! The driver's compile of translated PICA200 programs on the Vulkan device (lavapipe in CI),
//! cold: shader module, compute pipeline and first dispatch (llvmpipe compiles the LLVM code of
//! a compute shader at its first dispatch, docs/pica-translate.md "Driver facts"), beside
//! glslangValidator's SPIR-V of our own GLSL for the same module, in the same run.
//!
//! `cargo bench -p gpu --bench pipeline -- --warm-up-time 1 --measurement-time 5`
//!
//! The bench switches Mesa's shader cache off for itself (`MESA_SHADER_CACHE_DISABLE=true`), so
//! every build is cold. Before criterion's groups, one-shot summaries print, per shader, the
//! median of three builds of ours and three of glslang's, interleaved so that machine noise hits
//! both alike, and the ratio ours / glslang: per corpus shader (with the median and the worst
//! ratio), for the 40-block program in each precision, and for `pica::smith` programs by size
//! (the growth with size). Only a ratio measured in one run counts.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use gpu::Gpu;
use pica::shbin::{ShaderType, Shbin};
use translate::pica::{translate, Options, Translation, COMPUTE_ENTRY, ENTRY, GS_IN_STRIDE, REGS};
use translate::{Output, Precision, Target};

/// Sizes (`pica::smith::Config::max_instructions`) of the smith programs, and programs per size.
const SMITH_SIZES: [usize; 5] = [16, 32, 64, 128, 256];
const SMITH_PER_SIZE: u64 = 4;
/// Builds per shader and side in the summaries.
const REPEATS: usize = 3;

/// A shader to build: its name, the translation and the two SPIR-V modules.
struct Case {
    name: String,
    geometry: bool,
    ours: Vec<u32>,
    glslang: Vec<u32>,
}

/// glslangValidator's SPIR-V of our GLSL of the compute entry point.
fn glslang(t: &Translation, entry: &str) -> Vec<u32> {
    let text = match t.write_entry(Target::Glsl, (naga::ShaderStage::Compute, entry)).expect("GLSL") {
        Output::Text(s) => s,
        Output::Words(_) => unreachable!("GLSL is text"),
    };
    testkit::glslang_spirv(&text, "comp")
}

fn case(name: String, shbin: &Shbin, precision: Precision) -> Case {
    let options = Options { precision, dispatch_only: false, compute_wrapper: true };
    let t = translate(shbin, 0, options).expect("translate");
    let geometry = t.interface().shader_type == ShaderType::Geometry;
    let entry = if geometry { ENTRY } else { COMPUTE_ENTRY };
    Case { name, geometry, ours: t.spirv().expect("SPIR-V"), glslang: glslang(&t, entry) }
}

/// Pipeline creation and the first dispatch of one invocation of `words`.
fn build(gpu: &Gpu, words: &[u32], entry: &str, geometry: bool) -> Duration {
    let block = translate::pica::UniformBlock::default().to_bytes();
    let t = Instant::now();
    if geometry {
        let record = vec![0u32; GS_IN_STRIDE as usize * 4];
        gpu.run_geometry(words, &block, &record).expect("geometry dispatch");
    } else {
        let n = REGS as usize * 4;
        gpu.run_compute(words, entry, &block, &vec![0; n], 1, n).expect("dispatch");
    }
    t.elapsed()
}

fn ours(gpu: &Gpu, c: &Case) -> Duration {
    build(gpu, &c.ours, if c.geometry { ENTRY } else { COMPUTE_ENTRY }, c.geometry)
}

fn theirs(gpu: &Gpu, c: &Case) -> Duration {
    build(gpu, &c.glslang, "main", c.geometry)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Medians of ours and glslang's, interleaved.
fn measure(gpu: &Gpu, c: &Case) -> (Duration, Duration) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..REPEATS {
        a.push(ours(gpu, c));
        b.push(theirs(gpu, c));
    }
    (median(a), median(b))
}

fn corpus() -> Vec<(String, Shbin)> {
    let mut v: Vec<_> = testkit::files(&testkit::corpus("pica/golden"), "shbin")
        .into_iter()
        .map(|p: PathBuf| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, Shbin::read(&std::fs::read(&p).unwrap()).unwrap())
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

fn ifc40() -> Shbin {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ifc40.v.pica");
    let text = std::fs::read_to_string(&path).unwrap();
    let src = pica::asm::Source { name: "ifc40.v.pica", text: &text };
    pica::asm::assemble(&[src], &Default::default()).expect("assemble").shbin
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn summary(gpu: &Gpu) {
    let mut ratios = Vec::new();
    for (name, shbin) in corpus() {
        let c = case(name, &shbin, Precision::Compat);
        let (a, b) = measure(gpu, &c);
        let r = a.as_secs_f64() / b.as_secs_f64();
        println!(
            "summary: corpus {:<40} compat: ours {:>8.1} ms, glslang {:>8.1} ms, ratio {r:.2}",
            c.name,
            ms(a),
            ms(b)
        );
        ratios.push((r, c.name));
    }
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    let worst = ratios.last().expect("corpus");
    println!(
        "summary: corpus, {} shaders, compat, ours / glslang: median {:.2}, worst {:.2} ({})",
        ratios.len(),
        ratios[ratios.len() / 2].0,
        worst.0,
        worst.1
    );
    let shbin = ifc40();
    for precision in [Precision::Fast, Precision::Compat, Precision::Exact] {
        let c = case("ifc40".into(), &shbin, precision);
        let (a, b) = measure(gpu, &c);
        println!(
            "summary: 40-block program {precision:?}: ours {:.1} ms, glslang {:.1} ms, ratio {:.2}",
            ms(a),
            ms(b),
            a.as_secs_f64() / b.as_secs_f64()
        );
    }
    for size in SMITH_SIZES {
        let config = pica::smith::Config { max_instructions: size, ..Default::default() };
        let (mut a, mut b, mut n) = (Duration::ZERO, Duration::ZERO, 0usize);
        for seed in 0..SMITH_PER_SIZE {
            let shbin = pica::smith::generate(seed, &config).to_shbin();
            let c = case(format!("smith-{size}-{seed}"), &shbin, Precision::Exact);
            n += c.ours.len();
            // One build each: the larger ones take seconds.
            a += ours(gpu, &c);
            b += theirs(gpu, &c);
        }
        println!(
            "summary: smith size {size:>3} ({SMITH_PER_SIZE} vertex programs, exact, {} words on average): ours {:.1} ms, glslang {:.1} ms per program, ratio {:.2}",
            n / SMITH_PER_SIZE as usize,
            ms(a) / SMITH_PER_SIZE as f64,
            ms(b) / SMITH_PER_SIZE as f64,
            a.as_secs_f64() / b.as_secs_f64()
        );
    }
}

fn benches(cr: &mut Criterion) {
    // Before the device opens: lavapipe reads these once.
    std::env::set_var("MESA_SHADER_CACHE_DISABLE", "true");
    let _runtime = gpu::private_runtime_dir().expect("runtime folder");
    let gpu = Gpu::new().expect("a Vulkan device (apt-get install mesa-vulkan-drivers)");
    summary(&gpu);
    let shbin = ifc40();
    let mut g = cr.benchmark_group("pipeline_ifc40");
    g.sample_size(10);
    for precision in [Precision::Fast, Precision::Compat, Precision::Exact] {
        let c = case("ifc40".into(), &shbin, precision);
        let p = format!("{precision:?}").to_lowercase();
        g.bench_function(format!("{p}/ours"), |b| b.iter_custom(|n| (0..n).map(|_| ours(&gpu, &c)).sum()));
        g.bench_function(format!("{p}/glslang"), |b| b.iter_custom(|n| (0..n).map(|_| theirs(&gpu, &c)).sum()));
    }
    g.finish();
    let mut g = cr.benchmark_group("pipeline_corpus");
    g.sample_size(10);
    for (name, shbin) in corpus().into_iter().filter(|(n, _)| n.contains("lenny") || n.contains("particle.g")) {
        let c = case(name.clone(), &shbin, Precision::Compat);
        g.bench_function(format!("{name}/ours"), |b| b.iter_custom(|n| (0..n).map(|_| ours(&gpu, &c)).sum()));
        g.bench_function(format!("{name}/glslang"), |b| b.iter_custom(|n| (0..n).map(|_| theirs(&gpu, &c)).sum()));
    }
    g.finish();
}

criterion_group!(pipeline, benches);
criterion_main!(pipeline);

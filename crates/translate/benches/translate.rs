//! SHBIN bytes to validated SPIR-V words, per shader, over the corpus and over `pica::smith`
//! programs by size; beside it the time glslangValidator needs for our GLSL of the same shaders,
//! and the cost of `exact` against `compat` in SPIR-V instructions.
//!
//! `cargo bench -p translate --bench translate -- --warm-up-time 1 --measurement-time 3`
//!
//! Before criterion's groups, one-shot summaries print per-shader medians of both paths measured
//! in the same run (the ratio that counts) and the instruction counts. glslangValidator
//! is timed per process, as a GLSL pipeline that calls it pays; its start-up alone (the same
//! command on an empty shader) is printed too, and the ratio net of it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use pica::shbin::Shbin;
use translate::pica::{translate, Options};
use translate::{Output, Precision, Target};

/// Sizes (`pica::smith::Config::max_instructions`) of the smith programs, and programs per size.
const SMITH_SIZES: [usize; 6] = [16, 32, 64, 128, 256, 512];
const SMITH_PER_SIZE: u64 = 24;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = testkit::corpus("pica/golden");
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "shbin"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    v.sort();
    v
}

/// Vertex programs of `size` instruction words at most, fixed seeds.
fn smith(size: usize) -> Vec<(String, Vec<u8>)> {
    let config = pica::smith::Config { max_instructions: size, ..Default::default() };
    (0..SMITH_PER_SIZE)
        .map(|seed| (format!("smith-{size}-{seed}"), pica::smith::generate(seed, &config).to_shbin().to_bytes()))
        .collect()
}

/// The whole path: bytes -> SHBIN -> module of executable 0 -> validation -> SPIR-V words.
fn to_spirv(bytes: &[u8], precision: Precision) -> Vec<u32> {
    let shbin = Shbin::read(bytes).unwrap();
    let t = translate(&shbin, 0, Options { precision, ..Options::default() }).unwrap();
    t.spirv().unwrap()
}

fn instructions(words: &[u32]) -> usize {
    let mut n = 0;
    let mut pos = 5;
    while pos < words.len() {
        n += 1;
        pos += ((words[pos] >> 16) as usize).max(1);
    }
    n
}

fn median<T: Ord + Copy>(mut v: Vec<T>) -> T {
    v.sort();
    v[v.len() / 2]
}

/// Median of `reps` runs of `f`.
fn timed(reps: usize, mut f: impl FnMut()) -> Duration {
    median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

fn glslang_available() -> bool {
    Command::new("glslangValidator").arg("--version").output().is_ok()
}

/// `glslangValidator -V` on one file, median of three processes.
fn glslang_time(file: &Path, dir: &Path) -> Duration {
    timed(3, || {
        let o =
            Command::new("glslangValidator").arg("-V").arg("-o").arg(dir.join("out.spv")).arg(file).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    })
}

/// The process start-up of glslangValidator: the same command on an empty vertex shader.
fn glslang_startup(dir: &Path) -> Duration {
    let f = dir.join("empty.vert");
    std::fs::write(&f, "#version 450\nvoid main() {}\n").unwrap();
    timed(5, || {
        Command::new("glslangValidator").arg("-V").arg("-o").arg(dir.join("out.spv")).arg(&f).output().unwrap();
    })
}

/// Our GLSL 450 of `bytes`, written to `dir`.
fn glsl_file(name: &str, bytes: &[u8], dir: &Path) -> PathBuf {
    let shbin = Shbin::read(bytes).unwrap();
    let t = translate(&shbin, 0, Options::default()).unwrap();
    let Output::Text(text) = t.write(Target::Glsl).unwrap() else { unreachable!() };
    let stage = if t.entry().0 == naga::ShaderStage::Vertex { "vert" } else { "comp" };
    let f = dir.join(format!("{name}.{stage}"));
    std::fs::write(&f, text).unwrap();
    f
}

/// Per-shader medians of one set of shaders.
struct Measured {
    ours: Duration,
    ours_max: Duration,
    exact: Duration,
    glslang: Option<Duration>,
    compat_insts: usize,
    exact_insts: usize,
    words: usize,
}

fn measure(shaders: &[(String, Vec<u8>)], dir: Option<&Path>) -> Measured {
    let ours: Vec<Duration> =
        shaders.iter().map(|(_, b)| timed(30, || drop(std::hint::black_box(to_spirv(b, Precision::Compat))))).collect();
    let exact: Vec<Duration> =
        shaders.iter().map(|(_, b)| timed(10, || drop(std::hint::black_box(to_spirv(b, Precision::Exact))))).collect();
    let glslang =
        dir.map(|dir| median(shaders.iter().map(|(n, b)| glslang_time(&glsl_file(n, b, dir), dir)).collect()));
    Measured {
        ours: median(ours.clone()),
        ours_max: *ours.iter().max().unwrap(),
        exact: median(exact),
        glslang,
        compat_insts: shaders.iter().map(|(_, b)| instructions(&to_spirv(b, Precision::Compat))).sum(),
        exact_insts: shaders.iter().map(|(_, b)| instructions(&to_spirv(b, Precision::Exact))).sum(),
        words: median(shaders.iter().map(|(_, b)| Shbin::read(b).unwrap().program.code.len()).collect()),
    }
}

fn ratios(m: &Measured, startup: Option<Duration>) -> String {
    match (m.glslang, startup) {
        (Some(g), Some(s)) => testkit::glslang_ratios(g, s, m.ours),
        _ => "glslangValidator not installed".into(),
    }
}

fn summary() {
    let dir = std::env::temp_dir().join(format!("translate-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dir = glslang_available().then_some(dir.as_path());
    let startup = dir.map(glslang_startup);

    let shaders = corpus();
    let m = measure(&shaders, dir);
    println!(
        "summary: {} corpus shaders, SHBIN bytes -> validated SPIR-V, median per shader {:?} (max {:?}; exact {:?}); {}",
        shaders.len(),
        m.ours,
        m.ours_max,
        m.exact,
        ratios(&m, startup)
    );
    println!(
        "summary: SPIR-V instructions over the corpus: compat {}, exact {} ({:.2}x)",
        m.compat_insts,
        m.exact_insts,
        m.exact_insts as f64 / m.compat_insts as f64
    );
    for size in SMITH_SIZES {
        let m = measure(&smith(size), dir);
        println!(
            "summary: smith size {size:>3} ({SMITH_PER_SIZE} vertex programs, median {} words): median per shader {:?} (max {:?}; exact {:?}, {:.2}x the instructions); {}",
            m.words,
            m.ours,
            m.ours_max,
            m.exact,
            m.exact_insts as f64 / m.compat_insts as f64,
            ratios(&m, startup)
        );
    }
}

fn benches(c: &mut Criterion) {
    summary();
    let shaders = corpus();
    let mut g = c.benchmark_group("corpus");
    for precision in [Precision::Compat, Precision::Exact] {
        g.bench_function(format!("all 31 shaders, bytes to validated SPIR-V ({precision:?})"), |b| {
            b.iter(|| {
                for (_, bytes) in &shaders {
                    std::hint::black_box(to_spirv(bytes, precision));
                }
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("smith");
    for size in SMITH_SIZES {
        let shaders = smith(size);
        g.bench_function(
            format!("{SMITH_PER_SIZE} programs of size {size}, bytes to validated SPIR-V (compat)"),
            |b| {
                b.iter(|| {
                    for (_, bytes) in &shaders {
                        std::hint::black_box(to_spirv(bytes, Precision::Compat));
                    }
                })
            },
        );
    }
    g.finish();
}

criterion_group!(translate_benches, benches);
criterion_main!(translate_benches);

//! SHBIN bytes to validated SPIR-V words, per shader, over the corpus; beside it the time
//! glslangValidator needs for our GLSL of the same shaders, and the cost of `exact` against
//! `compat` in SPIR-V instructions.
//!
//! `cargo bench -p translate --bench translate -- --warm-up-time 1 --measurement-time 3`
//!
//! Before criterion's groups, a one-shot summary prints per-shader medians of both paths measured
//! in the same run (the ratio the issue asks for) and the instruction counts.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use pica::shbin::Shbin;
use translate::pica::{translate, Options};
use translate::{backend, Output, Precision, Target};

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/pica/golden"));
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "shbin"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    v.sort();
    v
}

/// The whole path: bytes -> SHBIN -> module of executable 0 -> validation -> SPIR-V words.
fn to_spirv(bytes: &[u8], precision: Precision) -> Vec<u32> {
    let shbin = Shbin::read(bytes).unwrap();
    let t = translate(&shbin, 0, Options { precision, ..Options::default() }).unwrap();
    let info = backend::validate(&t.module).unwrap();
    backend::spirv(&t.module, &info, precision).unwrap()
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

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn summary(shaders: &[(String, Vec<u8>)]) {
    let dir = std::env::temp_dir().join(format!("translate-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let glslang = Command::new("glslangValidator").arg("--version").output().is_ok();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let (mut compat_insts, mut exact_insts) = (0usize, 0usize);
    for (name, bytes) in shaders {
        let reps: Vec<Duration> = (0..50)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(to_spirv(bytes, Precision::Compat));
                t.elapsed()
            })
            .collect();
        ours.push(median(reps));
        compat_insts += instructions(&to_spirv(bytes, Precision::Compat));
        exact_insts += instructions(&to_spirv(bytes, Precision::Exact));
        if glslang {
            let shbin = Shbin::read(bytes).unwrap();
            let t = translate(&shbin, 0, Options::default()).unwrap();
            let Output::Text(text) = backend::write(&t.module, Target::Glsl, t.entry(), Precision::Compat).unwrap() else {
                unreachable!()
            };
            let stage = if t.entry().0 == naga::ShaderStage::Vertex { "vert" } else { "comp" };
            let f = dir.join(format!("{name}.{stage}"));
            std::fs::write(&f, text).unwrap();
            let reps: Vec<Duration> = (0..3)
                .map(|_| {
                    let t = Instant::now();
                    let o = Command::new("glslangValidator").arg("-V").arg("-o").arg(dir.join("out.spv")).arg(&f).output().unwrap();
                    assert!(o.status.success());
                    t.elapsed()
                })
                .collect();
            theirs.push(median(reps));
        }
    }
    let ours_med = median(ours.clone());
    println!("summary: {} corpus shaders, SHBIN bytes -> validated SPIR-V, median per shader {:?} (max {:?})", shaders.len(), ours_med, ours.iter().max().unwrap());
    if glslang {
        let theirs_med = median(theirs);
        println!(
            "summary: glslangValidator -V on our GLSL, median per shader {:?}; ratio {:.0}x",
            theirs_med,
            theirs_med.as_secs_f64() / ours_med.as_secs_f64()
        );
    }
    println!(
        "summary: SPIR-V instructions over the corpus: compat {compat_insts}, exact {exact_insts} ({:.2}x)",
        exact_insts as f64 / compat_insts as f64
    );
}

fn benches(c: &mut Criterion) {
    let shaders = corpus();
    summary(&shaders);
    let mut g = c.benchmark_group("corpus");
    g.bench_function("all 31 shaders, bytes to validated SPIR-V (compat)", |b| {
        b.iter(|| {
            for (_, bytes) in &shaders {
                std::hint::black_box(to_spirv(bytes, Precision::Compat));
            }
        })
    });
    g.bench_function("all 31 shaders, bytes to validated SPIR-V (exact)", |b| {
        b.iter(|| {
            for (_, bytes) in &shaders {
                std::hint::black_box(to_spirv(bytes, Precision::Exact));
            }
        })
    });
    g.finish();
}

criterion_group!(translate_benches, benches);
criterion_main!(translate_benches);

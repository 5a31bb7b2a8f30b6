//! Latte programs to validated SPIR-V words, per shader: every vertex and pixel program of the
//! corpus .gsh files (corpus/latte, corpus/latte-mesa) from the file's bytes, and `latte::smith`
//! programs by size from the decoded program; beside them glslangValidator compiling our GLSL
//! output of the same shaders, one process per shader, in the same run, and its start-up alone
//! (the same command on an empty compute shader).
//!
//! `cargo bench -p translate --bench latte -- --warm-up-time 1 --measurement-time 3`
//!
//! The `summary:` lines print per-shader medians and ratios; programs the translator does not
//! cover yet (TEX fetches, geometry) are counted and left out. `LATTE_BENCH_SUMMARY_ONLY=1`
//! prints only those lines.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use arbitrary::Unstructured;
use criterion::{criterion_group, criterion_main, Criterion};
use latte::gfd::{GfdFile, Stage as GStage};
use latte::isa::Program;
use translate::latte::{translate, Options, Stage};
use translate::{Output, Target};

/// `latte::smith::Config::max_nodes` of the smith programs (seeds cycle through them), how many
/// seeds, and the program sizes (words, as `Program::len`) the summaries group them by.
const SMITH_NODES: [usize; 4] = [8, 16, 32, 64];
const SMITH_SEEDS: u64 = 200;
const SMITH_BUCKETS: [(usize, usize); 4] = [(0, 64), (64, 128), (128, 256), (256, usize::MAX)];

/// One corpus shader: its file's bytes and which of the file's shaders it is.
struct CorpusShader {
    name: String,
    file: Vec<u8>,
    index: usize,
    stage: Stage,
}

fn corpus() -> (Vec<CorpusShader>, usize) {
    let mut files = testkit::walk(&testkit::corpus("latte"), "gsh");
    files.extend(testkit::walk(&testkit::corpus("latte-mesa"), "gsh"));
    files.sort();
    let mut out = Vec::new();
    let mut skipped = 0;
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let gfd = GfdFile::parse(&bytes).unwrap();
        for (index, s) in gfd.shaders().unwrap().into_iter().enumerate() {
            let stage = match s.header.stage {
                GStage::Vertex => Stage::Vertex,
                GStage::Pixel => Stage::Pixel,
                GStage::Geometry => {
                    skipped += 1;
                    continue;
                }
            };
            let Some(code) = s.program else { continue };
            let p = Program::decode_bytes(&code, s.program_offset).unwrap();
            if translate::latte::unsupported(&p).is_some() {
                skipped += 1;
                continue;
            }
            let name = format!("{}#{index}", f.file_name().unwrap().to_string_lossy());
            out.push(CorpusShader { name, file: bytes.clone(), index, stage });
        }
    }
    (out, skipped)
}

/// The whole path of a corpus shader: .gsh bytes -> GFD blocks -> the program's words ->
/// `Program` -> module -> validation -> SPIR-V words.
fn corpus_spirv(s: &CorpusShader) -> Vec<u32> {
    let gfd = GfdFile::parse(&s.file).unwrap();
    let shader = gfd.shaders().unwrap().swap_remove(s.index);
    let p = Program::decode_bytes(shader.program.as_deref().unwrap(), shader.program_offset).unwrap();
    translate(&p, s.stage, &Options::default()).unwrap().spirv().unwrap()
}

/// The smith programs the translator covers, fixed seeds, and how many of the seeds it does
/// not cover yet (TEX fetches).
fn smith() -> (Vec<(Program, Stage, Options)>, usize) {
    let mut out = Vec::new();
    let mut skipped = 0;
    for seed in 0..SMITH_SEEDS {
        let cfg =
            latte::smith::Config { max_nodes: SMITH_NODES[seed as usize % SMITH_NODES.len()], ..Default::default() };
        let data = latte::smith::seeded_bytes(seed, 4096);
        let sp = latte::smith::program(&mut Unstructured::new(&data), &cfg).unwrap();
        let stage = match sp.stage {
            latte::interp::Stage::Pixel => Stage::Pixel,
            _ => Stage::Vertex,
        };
        if translate::latte::unsupported(&sp.program).is_some() {
            skipped += 1;
            continue;
        }
        out.push((sp.program, stage, Options { loop_consts: sp.loop_consts, ..Options::default() }));
    }
    (out, skipped)
}

fn glsl(p: &Program, stage: Stage, options: &Options) -> String {
    let Output::Text(text) = translate(p, stage, options).unwrap().write(Target::Glsl).unwrap() else {
        unreachable!("GLSL is text")
    };
    text
}

/// glslangValidator's median per shader over `sources` (written to `dir`).
fn glslang_median(dir: &Path, tag: &str, sources: &[String]) -> Duration {
    testkit::median(
        sources
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let f = dir.join(format!("{tag}-{i}.comp"));
                std::fs::write(&f, text).unwrap();
                testkit::glslang_time(&f, dir)
            })
            .collect(),
    )
}

fn words_median(words: impl Iterator<Item = usize>) -> usize {
    let mut v: Vec<usize> = words.collect();
    v.sort();
    v[v.len() / 2]
}

fn summaries(corpus: &[CorpusShader], skipped: usize) {
    let dir = std::env::temp_dir().join(format!("latte-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let startup = Command::new("glslangValidator").arg("--version").output().is_ok().then(|| {
        let f = dir.join("empty.comp");
        std::fs::write(&f, "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n").unwrap();
        testkit::glslang_time(&f, &dir)
    });
    let line = |ours: Duration, sources: &dyn Fn() -> Vec<String>, tag: &str| match startup {
        Some(start) => testkit::glslang_ratios(glslang_median(&dir, tag, &sources()), start, ours),
        None => "glslangValidator not installed".to_string(),
    };

    let ours = testkit::median(
        corpus.iter().map(|s| testkit::timed(15, || drop(std::hint::black_box(corpus_spirv(s))))).collect(),
    );
    let words = words_median(corpus.iter().map(|s| corpus_spirv(s).len()));
    let sources = || {
        corpus
            .iter()
            .map(|s| {
                let gfd = GfdFile::parse(&s.file).unwrap();
                let sh = gfd.shaders().unwrap().swap_remove(s.index);
                let p = Program::decode_bytes(sh.program.as_deref().unwrap(), sh.program_offset).unwrap();
                glsl(&p, s.stage, &Options::default())
            })
            .collect()
    };
    let slowest = corpus
        .iter()
        .map(|s| (testkit::timed(5, || drop(std::hint::black_box(corpus_spirv(s)))), &s.name))
        .max()
        .unwrap();
    println!(
        "summary: corpus, {} vertex and pixel programs (.gsh bytes -> validated SPIR-V; {skipped} geometry or \
         TEX-fetch programs not covered), median per shader {ours:?} (median {words} words, slowest {} {:?}); {}",
        corpus.len(),
        slowest.1,
        slowest.0,
        line(ours, &sources, "corpus")
    );

    let (all, skipped) = smith();
    println!(
        "summary: smith, {} seeds: {} programs translated, {skipped} with TEX fetches passed over",
        SMITH_SEEDS,
        all.len()
    );
    for (lo, hi) in SMITH_BUCKETS {
        let programs: Vec<_> = all.iter().filter(|(p, _, _)| (lo..hi).contains(&p.len)).collect();
        if programs.is_empty() {
            continue;
        }
        let spirv = |(p, stage, o): &&(Program, Stage, Options)| translate(p, *stage, o).unwrap().spirv().unwrap();
        let ours = testkit::median(
            programs.iter().map(|x| testkit::timed(15, || drop(std::hint::black_box(spirv(x))))).collect(),
        );
        let words = words_median(programs.iter().map(|x| spirv(x).len()));
        let sources = || programs.iter().map(|(p, s, o)| glsl(p, *s, o)).collect();
        let size = if hi == usize::MAX { format!("{lo} words and more") } else { format!("{lo}-{} words", hi - 1) };
        println!(
            "summary: smith, {} programs of {size} (Program -> validated SPIR-V), median per shader {ours:?} \
             (median {words} SPIR-V words); {}",
            programs.len(),
            line(ours, &sources, &format!("smith{lo}"))
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn benches(c: &mut Criterion) {
    let (corpus, skipped) = corpus();
    summaries(&corpus, skipped);
    if std::env::var_os("LATTE_BENCH_SUMMARY_ONLY").is_some() {
        return;
    }
    let mut g = c.benchmark_group("latte");
    g.bench_function(format!("{} corpus shaders, .gsh bytes to validated SPIR-V", corpus.len()), |b| {
        b.iter(|| {
            for s in &corpus {
                std::hint::black_box(corpus_spirv(s));
            }
        })
    });
    g.finish();
}

criterion_group!(latte, benches);
criterion_main!(latte);

//! The translation cache: a hit (read the entry file, check it, touch it) beside the translation
//! it saves (build the naga module, validate, write SPIR-V), in the same run, for every distinct
//! executable of the corpus's golden SHBINs in `compat` and `exact`, and for 16-stage TEV keys.
//!
//! `cargo bench -p translate --bench cache -- --warm-up-time 1 --measurement-time 3`
//!
//! The `summary:` lines print the ratio of the medians.

use std::time::{Duration, Instant};

use arbitrary::Unstructured;
use criterion::{criterion_group, criterion_main, Criterion};
use gx::key::TevKey;
use translate::cache::Cache;
use translate::pica::{compile, Options, Setup, ShaderType};
use translate::{gx_tev, Precision, Target};

fn corpus() -> Vec<(Setup, ShaderType)> {
    let mut out: Vec<(Setup, ShaderType)> = Vec::new();
    for path in testkit::files(&testkit::corpus("pica/golden"), "shbin") {
        let shbin = pica::shbin::Shbin::read(&std::fs::read(path).unwrap()).unwrap();
        for e in 0..shbin.executables.len() {
            let (s, ty) = Setup::from_shbin(&shbin, e).unwrap();
            if !out.iter().any(|(o, _)| o.key_bytes() == s.key_bytes()) {
                out.push((s, ty));
            }
        }
    }
    out
}

fn tev_keys() -> Vec<TevKey> {
    let cfg = gx::smith::Config { max_stages: 16, ..gx::smith::Config::default() };
    (0..)
        .map(|seed: u64| {
            let bytes = pica::smith::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 16).bytes(4096);
            gx::smith::state(&mut Unstructured::new(&bytes), &cfg).unwrap()
        })
        .filter(|s| s.num_stages() == 16)
        .take(24)
        .map(|s| TevKey::new(&s))
        .collect()
}

fn median_of(reps: usize, mut f: impl FnMut()) -> Duration {
    let mut v: Vec<Duration> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    v.sort();
    v[reps / 2]
}

fn bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("shaderport-cache-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = Cache::open(&dir, 1 << 30).unwrap();
    let setups = corpus();
    let keys = tev_keys();
    let mut summary = Vec::new();
    for precision in [Precision::Compat, Precision::Exact] {
        let o = Options { precision, ..Options::default() };
        let translate_all = || {
            for (s, ty) in &setups {
                std::hint::black_box(compile(None, s, *ty, &o, Target::SpirV).unwrap());
            }
        };
        let hit_all = || {
            for (s, ty) in &setups {
                let out = compile(Some(&cache), s, *ty, &o, Target::SpirV).unwrap();
                assert!(out.hit);
                std::hint::black_box(out);
            }
        };
        // Fill the cache.
        for (s, ty) in &setups {
            compile(Some(&cache), s, *ty, &o, Target::SpirV).unwrap();
        }
        let name = format!("{precision:?}").to_lowercase();
        let mut g = c.benchmark_group(format!("cache/pica_corpus_{name}"));
        g.bench_function("translate", |b| b.iter(translate_all));
        g.bench_function("hit", |b| b.iter(hit_all));
        g.finish();
        let (t, h) = (median_of(15, translate_all), median_of(15, hit_all));
        summary.push(format!(
            "summary: pica corpus ({} executables, {name}): translate {:.2?}, hit {:.2?}, translation / hit = {:.1}",
            setups.len(),
            t,
            h,
            t.as_secs_f64() / h.as_secs_f64()
        ));
    }
    let to = gx_tev::Options::default();
    for k in &keys {
        gx_tev::compile(Some(&cache), k, &to, Target::SpirV).unwrap();
    }
    let translate_all = || {
        for k in &keys {
            std::hint::black_box(gx_tev::compile(None, k, &to, Target::SpirV).unwrap());
        }
    };
    let hit_all = || {
        for k in &keys {
            let out = gx_tev::compile(Some(&cache), k, &to, Target::SpirV).unwrap();
            assert!(out.hit);
            std::hint::black_box(out);
        }
    };
    let mut g = c.benchmark_group("cache/tev_16_stages");
    g.bench_function("translate", |b| b.iter(translate_all));
    g.bench_function("hit", |b| b.iter(hit_all));
    g.finish();
    let (t, h) = (median_of(15, translate_all), median_of(15, hit_all));
    summary.push(format!(
        "summary: TEV ({} keys of 16 stages): translate {:.2?}, hit {:.2?}, translation / hit = {:.1}",
        keys.len(),
        t,
        h,
        t.as_secs_f64() / h.as_secs_f64()
    ));
    for line in summary {
        println!("{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);

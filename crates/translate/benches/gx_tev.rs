//! A material's decoded TEV state -> key -> naga module -> validation -> SPIR-V words, per
//! material, over random 4- and 16-stage materials of `gx::smith`; beside it
//! `glslangValidator -V` on our GLSL 450 output of the same materials, in the same run.
//!
//! `cargo bench -p translate --bench gx_tev -- --warm-up-time 1 --measurement-time 2`
//!
//! The `summary:` lines print the per-material medians and the ratios (per glslang process, and
//! net of its start-up: the same command on an empty fragment shader); the `phases:` lines where
//! the time goes (the key, building the module, naga's validation, naga's SPIR-V writer), each
//! timed alone over the same materials. `GX_TEV_BENCH_PHASES_ONLY=1` prints only those (for a
//! run under `valgrind --tool=callgrind`).

use std::process::Command;

use arbitrary::Unstructured;
use criterion::{criterion_group, criterion_main, Criterion};
use gx::key::TevKey;
use gx::smith::{self, Config};
use gx::TevState;
use translate::{gx_tev, Output, Target};

/// Materials per stage count.
const PER_SIZE: u64 = 24;

fn bytes(seed: u64, n: usize) -> Vec<u8> {
    pica::smith::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)).bytes(n)
}

/// `PER_SIZE` random materials of exactly `stages` stages (fixed seeds).
fn materials(stages: u8) -> Vec<TevState> {
    let cfg = Config { max_stages: stages, ..Config::default() };
    (0..)
        .map(|seed| smith::state(&mut Unstructured::new(&bytes(seed + 1000 * stages as u64, 4096)), &cfg).unwrap())
        .filter(|s| s.num_stages() == stages as usize)
        .take(PER_SIZE as usize)
        .collect()
}

/// The whole path from the decoded state.
fn to_spirv(state: &TevState) -> Vec<u32> {
    gx_tev::fragment(&TevKey::new(state)).unwrap().spirv().unwrap()
}

use testkit::{glslang_time as glslang, median, timed};

/// Times each phase of `to_spirv` alone (medians per material) and prints one line.
fn phases(stages: u8, mats: &[TevState], reps: usize) {
    let per = |f: &dyn Fn(&TevState)| median(mats.iter().map(|s| timed(reps, || f(s))).collect());
    let key = per(&|s| drop(std::hint::black_box(TevKey::new(s))));
    let translate = per(&|s| drop(std::hint::black_box(gx_tev::fragment(&TevKey::new(s)).unwrap())));
    let each = |f: &dyn Fn(&gx_tev::Translation)| {
        median(
            mats.iter()
                .map(|s| {
                    let t = gx_tev::fragment(&TevKey::new(s)).unwrap();
                    timed(reps, || f(&t))
                })
                .collect(),
        )
    };
    let validate = each(&|t| {
        let v = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty())
            .validate(t.module());
        std::hint::black_box(v.unwrap());
    });
    let write = each(&|t| drop(std::hint::black_box(t.spirv().unwrap())));
    let t = gx_tev::fragment(&TevKey::new(&mats[0])).unwrap();
    let exprs: usize = t.module().functions.iter().map(|(_, f)| f.expressions.len()).sum();
    println!(
        "phases: {stages}-stage materials, median per material: key {key:?}, building the module {:?}, naga validation \
         {validate:?}, SPIR-V write {write:?} (first material: {exprs} expressions in the TEV function, {} words)",
        translate.saturating_sub(validate).saturating_sub(key),
        t.spirv().unwrap().len()
    );
}

fn summary() {
    let dir = std::env::temp_dir().join(format!("gx-tev-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let have_glslang = Command::new("glslangValidator").arg("--version").output().is_ok();
    let startup = have_glslang.then(|| {
        let f = dir.join("empty.frag");
        std::fs::write(&f, "#version 450\nvoid main() {}\n").unwrap();
        glslang(&f, &dir)
    });
    for stages in [4u8, 16] {
        let mats = materials(stages);
        let ours = median(mats.iter().map(|s| timed(30, || drop(std::hint::black_box(to_spirv(s))))).collect());
        let words = to_spirv(&mats[0]).len();
        let line = match startup {
            Some(start) => {
                let g = median(
                    mats.iter()
                        .enumerate()
                        .map(|(i, s)| {
                            let Output::Text(text) =
                                gx_tev::fragment(&TevKey::new(s)).unwrap().write(Target::Glsl).unwrap()
                            else {
                                unreachable!()
                            };
                            let f = dir.join(format!("m{stages}-{i}.frag"));
                            std::fs::write(&f, text).unwrap();
                            glslang(&f, &dir)
                        })
                        .collect(),
                );
                testkit::glslang_ratios(g, start, ours)
            }
            None => "glslangValidator not installed".into(),
        };
        println!(
            "summary: {PER_SIZE} random {stages}-stage materials, state -> validated SPIR-V, median per material {ours:?} (first: {words} words); {line}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn benches(c: &mut Criterion) {
    for stages in [4u8, 16] {
        phases(stages, &materials(stages), 30);
    }
    if std::env::var_os("GX_TEV_BENCH_PHASES_ONLY").is_some() {
        return;
    }
    summary();
    let mut g = c.benchmark_group("gx_tev");
    for stages in [4u8, 16] {
        let mats = materials(stages);
        g.bench_function(format!("{PER_SIZE} materials of {stages} stages, state to validated SPIR-V"), |b| {
            b.iter(|| {
                for s in &mats {
                    std::hint::black_box(to_spirv(s));
                }
            })
        });
    }
    g.finish();
}

criterion_group!(gx_tev, benches);
criterion_main!(gx_tev);

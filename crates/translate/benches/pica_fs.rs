//! A PICA200 fixed-function state -> fragment key -> naga module -> validation -> SPIR-V words,
//! per key, over random states of `pica::smith::fragment_state` (and, in the summaries, of
//! `proctex_state` and `lit_state`); beside it
//! `glslangValidator -V` on our GLSL 450 output of the same keys, in the same run.
//!
//! `cargo bench -p translate --bench pica_fs -- --warm-up-time 1 --measurement-time 2`
//!
//! The `summary:` line prints the per-key median and the ratios (per glslang process, and net
//! of its start-up: the same command on an empty fragment shader); the `phases:` line where the
//! time goes (the key and input map, building and validating the module, naga's SPIR-V writer
//! with the `NoContraction` pass), each timed alone over the same keys.
//! `PICA_FS_BENCH_PHASES_ONLY=1` prints only that line (for a run under
//! `valgrind --tool=callgrind`).

use std::process::Command;

use arbitrary::Unstructured;
use criterion::{criterion_group, criterion_main, Criterion};
use pica::fixed::FragmentKey;
use pica::state::GpuState;
use testkit::{glslang_time, median, timed};
use translate::pica_fs::{self, InputMap};
use translate::{Output, Target};

/// Random states in the run.
const KEYS: u64 = 48;

/// A generator of random states (`pica::smith`).
type Generator = fn(&mut Unstructured) -> arbitrary::Result<GpuState>;

/// The kinds of state the summaries cover: the pipeline without lighting and procedural texture
/// (the criterion loop and the phases use these), with the procedural texture on and read, and
/// with fragment lighting on.
const KINDS: [(&str, Generator); 3] = [
    ("fragment", pica::smith::fragment_state),
    ("procedural-texture", pica::smith::proctex_state),
    ("lit", pica::smith::lit_state),
];

fn states_of(generate: Generator) -> Vec<GpuState> {
    (0..KEYS)
        .map(|seed| {
            let data = pica::smith::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x51ED).bytes(4096);
            generate(&mut Unstructured::new(&data)).unwrap()
        })
        .collect()
}

fn states() -> Vec<GpuState> {
    states_of(KINDS[0].1)
}

/// The whole path from the register file.
fn to_spirv(state: &GpuState) -> Vec<u32> {
    let key = FragmentKey::from_regs(&state.regs);
    pica_fs::fragment(&key, &InputMap::from_regs(&state.regs)).unwrap().spirv().unwrap()
}

/// Times each phase of `to_spirv` alone (medians per key) and prints one line.
fn phases(states: &[GpuState], reps: usize) {
    let per = |f: &dyn Fn(&GpuState)| median(states.iter().map(|s| timed(reps, || f(s))).collect());
    let key = per(&|s| {
        std::hint::black_box((FragmentKey::from_regs(&s.regs), InputMap::from_regs(&s.regs)));
    });
    let translate = per(&|s| {
        let key = FragmentKey::from_regs(&s.regs);
        drop(std::hint::black_box(pica_fs::fragment(&key, &InputMap::from_regs(&s.regs)).unwrap()));
    });
    let write = median(
        states
            .iter()
            .map(|s| {
                let t = pica_fs::fragment(&FragmentKey::from_regs(&s.regs), &InputMap::from_regs(&s.regs)).unwrap();
                timed(reps, || drop(std::hint::black_box(t.spirv().unwrap())))
            })
            .collect(),
    );
    let s = &states[0];
    let t = pica_fs::fragment(&FragmentKey::from_regs(&s.regs), &InputMap::from_regs(&s.regs)).unwrap();
    let exprs: usize = t.module().functions.iter().map(|(_, f)| f.expressions.len()).sum();
    println!(
        "phases: {KEYS} fragment states, median per key: key and map {key:?}, building and validating the module \
         {:?}, SPIR-V write {write:?} (first key: {exprs} expressions in the pipeline function, {} words)",
        translate.saturating_sub(key),
        t.spirv().unwrap().len()
    );
}

fn summary(kind: &str, states: &[GpuState]) {
    let dir = std::env::temp_dir().join(format!("pica-fs-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let have_glslang = Command::new("glslangValidator").arg("--version").output().is_ok();
    let startup = have_glslang.then(|| {
        let f = dir.join("empty.frag");
        std::fs::write(&f, "#version 450\nvoid main() {}\n").unwrap();
        glslang_time(&f, &dir)
    });
    let ours = median(states.iter().map(|s| timed(30, || drop(std::hint::black_box(to_spirv(s))))).collect());
    let words = median(states.iter().map(|s| std::time::Duration::from_nanos(to_spirv(s).len() as u64)).collect());
    let line = match startup {
        Some(start) => {
            let g = median(
                states
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let key = FragmentKey::from_regs(&s.regs);
                        let t = pica_fs::fragment(&key, &InputMap::from_regs(&s.regs)).unwrap();
                        let Output::Text(text) = t.write(Target::Glsl).unwrap() else { unreachable!() };
                        let f = dir.join(format!("k{i}.frag"));
                        std::fs::write(&f, text).unwrap();
                        glslang_time(&f, &dir)
                    })
                    .collect(),
            );
            testkit::glslang_ratios(g, start, ours)
        }
        None => "glslangValidator not installed".into(),
    };
    println!(
        "summary: {KEYS} random {kind} states, registers -> validated SPIR-V, median per key {ours:?} (median {} words); {line}",
        words.as_nanos()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn benches(c: &mut Criterion) {
    let states = states();
    phases(&states, 30);
    if std::env::var_os("PICA_FS_BENCH_PHASES_ONLY").is_some() {
        return;
    }
    for (kind, generate) in KINDS {
        summary(kind, &states_of(generate));
    }
    let mut g = c.benchmark_group("pica_fs");
    g.bench_function(format!("{KEYS} fragment states, registers to validated SPIR-V"), |b| {
        b.iter(|| {
            for s in &states {
                std::hint::black_box(to_spirv(s));
            }
        })
    });
    g.finish();
}

criterion_group!(pica_fs, benches);
criterion_main!(pica_fs);

//! `batch` over the game-sized synthetic dump (668 keys) with SPIR-V output, beside the spec's
//! way of doing the same work: our GLSL, then one glslangValidator process per shader. Both on
//! two threads. The glslang side runs over every tenth shader (67 of them) so one sample takes
//! seconds, not minutes; BENCHMARKS.md scales it per shader.

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn dump() -> PathBuf {
    let root = std::env::temp_dir().join(format!("shaderport-batch-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    latte::dump::generate(&latte::dump::DumpConfig::game(1)).write_to(&root.join("dump")).expect("write the dump");
    root
}

fn opts(targets: Vec<translate::Target>) -> batch::Options {
    batch::Options { targets, jobs: Some(2), ..batch::Options::default() }
}

fn glslang_each(files: &[PathBuf], out: &Path) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(f) = files.get(i) else { break };
                let o = Command::new("glslangValidator")
                    .args(["-V", "--target-env", "vulkan1.1", "-o"])
                    .arg(out.join(format!("{i}.spv")))
                    .arg(f)
                    .output()
                    .expect("glslangValidator runs");
                assert!(o.status.success(), "{}: {}", f.display(), String::from_utf8_lossy(&o.stdout));
            });
        }
    });
}

fn bench(c: &mut Criterion) {
    let root = dump();
    let dir = root.join("dump");
    let out = root.join("out");
    let mut g = c.benchmark_group("batch_668");
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(15));
    g.bench_function("shaderport_batch_spirv_cold", |b| {
        b.iter(|| {
            let _ = std::fs::remove_dir_all(&out);
            let r = batch::run(&dir, &out, &opts(vec![translate::Target::SpirV]), &|_, _, _| {}).expect("batch");
            assert_eq!(r.totals.ok, 661);
        })
    });
    g.bench_function("shaderport_batch_spirv_rerun", |b| {
        b.iter(|| {
            let r = batch::run(&dir, &out, &opts(vec![translate::Target::SpirV]), &|_, _, _| {}).expect("batch");
            assert_eq!(r.totals.files_written, 0);
        })
    });
    // The reference: our GLSL (written once, outside the timing), glslangValidator per shader.
    let glsl_out = root.join("glsl");
    batch::run(&dir, &glsl_out, &opts(vec![translate::Target::Glsl]), &|_, _, _| {}).expect("batch GLSL");
    let mut glsl: Vec<PathBuf> = std::fs::read_dir(&glsl_out)
        .expect("GLSL folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "comp"))
        .collect();
    glsl.sort();
    let every_tenth: Vec<PathBuf> = glsl.iter().step_by(10).cloned().collect();
    eprintln!("glslang reference: {} of {} GLSL files", every_tenth.len(), glsl.len());
    let spv = root.join("glslang-spv");
    std::fs::create_dir_all(&spv).expect("folder");
    g.bench_function("glsl_then_glslang_per_shader_every_tenth", |b| b.iter(|| glslang_each(&every_tenth, &spv)));
    g.finish();
    let _ = std::fs::remove_dir_all(root);
}

criterion_group!(benches, bench);
criterion_main!(benches);

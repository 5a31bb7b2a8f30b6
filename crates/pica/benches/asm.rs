//! Assembler throughput on the corpus: every source picasso accepts (the 31 golden sources),
//! assembled one file per invocation, SHBIN and header included. Throughput is reported in
//! instructions (words of code produced) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica::asm::{assemble, Options, Source};

fn corpus() -> Vec<(String, String)> {
    let root = &testkit::corpus("pica");
    let mut out = Vec::new();
    for e in std::fs::read_dir(root.join("golden")).expect("golden dir").flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if let Some(stem) = name.strip_suffix(".shbin") {
            let path = root.join(stem.replace("__", "/"));
            out.push((path.display().to_string(), std::fs::read_to_string(&path).expect("source")));
        }
    }
    out.sort();
    out
}

fn bench(c: &mut Criterion) {
    let files = corpus();
    let opts = Options::default();
    let instructions: usize = files
        .iter()
        .map(|(n, t)| {
            assemble(&[Source { name: n, text: t }], &opts).expect("corpus assembles").shbin.program.code.len()
        })
        .sum();
    let mut g = c.benchmark_group("asm");
    g.throughput(Throughput::Elements(instructions as u64));
    g.bench_function("corpus_31_files", |b| {
        b.iter(|| {
            let mut bytes = 0;
            for (n, t) in &files {
                let out = assemble(&[Source { name: n, text: t }], &opts).expect("corpus assembles");
                bytes += out.to_bytes().len() + out.header.len();
            }
            bytes
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Disassembler throughput on the corpus: the 31 golden SHBIN files (picasso 2.7.1 outputs),
//! already parsed, printed as picasso source with every check (structure, directives, the
//! descriptor model). Throughput is in instructions (code words) per second; a second bench
//! includes reading the bytes.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica::disasm::disassemble;
use pica::shbin::Shbin;

fn corpus() -> Vec<Vec<u8>> {
    let dir = testkit::corpus("pica/golden");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("golden dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "shbin"))
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).expect("read")).collect()
}

fn bench(c: &mut Criterion) {
    let files = corpus();
    let parsed: Vec<Shbin> = files.iter().map(|b| Shbin::read(b).expect("golden reads")).collect();
    let instructions: usize = parsed.iter().map(|s| s.program.code.len()).sum();
    let mut g = c.benchmark_group("disasm");
    g.throughput(Throughput::Elements(instructions as u64));
    g.bench_function("corpus_31_files", |b| {
        b.iter(|| parsed.iter().map(|s| disassemble(s).expect("reproducible").len()).sum::<usize>())
    });
    g.bench_function("corpus_31_files_read_and_print", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|bytes| disassemble(&Shbin::read(bytes).expect("reads")).expect("reproducible").len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

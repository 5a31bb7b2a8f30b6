//! Decode, decode + disassemble and decode + JSON (`latte disasm --json`) throughput over every corpus program, in instructions per
//! second (CF + ALU + fetch instructions).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use latte::gfd::GfdFile;
use latte::isa::Program;

fn programs() -> Vec<Vec<u32>> {
    let root = testkit::corpus("");
    let mut files = testkit::walk(&root.join("latte"), "gsh");
    files.extend(testkit::walk(&root.join("latte-mesa"), "gsh"));
    let mut out = Vec::new();
    for f in files {
        let g = GfdFile::parse(&std::fs::read(f).unwrap()).unwrap();
        for s in g.shaders().unwrap() {
            if let Some(p) = s.program {
                out.push(latte::gfd::program_words(&p));
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let progs = programs();
    let insts: usize = progs.iter().map(|w| Program::decode(w, 0).unwrap().instruction_count()).sum();
    let mut g = c.benchmark_group("latte_corpus");
    g.throughput(Throughput::Elements(insts as u64));
    g.bench_function("decode", |b| {
        b.iter(|| {
            for w in &progs {
                std::hint::black_box(Program::decode(w, 0).unwrap());
            }
        })
    });
    g.bench_function("decode_disassemble", |b| {
        b.iter(|| {
            for w in &progs {
                let p = Program::decode(w, 0).unwrap();
                std::hint::black_box(latte::disasm::disassemble(&p));
            }
        })
    });
    g.bench_function("decode_json", |b| {
        b.iter(|| {
            for w in &progs {
                let p = Program::decode(w, 0).unwrap();
                std::hint::black_box(serde_json::to_string(&latte::json::program(&p)).unwrap());
            }
        })
    });
    g.finish();
    eprintln!("corpus: {} programs, {insts} instructions", progs.len());
}

criterion_group!(benches, bench);
criterion_main!(benches);

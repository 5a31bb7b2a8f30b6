//! Decode, decode + disassemble and decode + JSON (`latte disasm --json`) throughput over every corpus program, in instructions per
//! second (CF + ALU + fetch instructions).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use latte::gfd::GfdFile;
use latte::isa::Program;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut e: Vec<_> = rd.map(|e| e.unwrap().path()).collect();
    e.sort();
    for p in e {
        if p.is_dir() {
            walk(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

fn programs() -> Vec<Vec<u32>> {
    let root = testkit::corpus("");
    let mut files = Vec::new();
    walk(&root.join("latte"), "gsh", &mut files);
    walk(&root.join("latte-mesa"), "gsh", &mut files);
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

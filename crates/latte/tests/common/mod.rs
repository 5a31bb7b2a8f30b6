//! Corpus helpers shared by the integration tests.
#![allow(dead_code)]

use latte::gfd::GfdFile;
use std::path::PathBuf;

pub fn corpus() -> PathBuf {
    testkit::corpus("")
}

pub fn walk(dir: &std::path::Path, ext: &str, out: &mut Vec<PathBuf>) {
    let mut e: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    e.sort();
    for p in e {
        if p.is_dir() {
            walk(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// Every program of the corpus: the .gsh programs and the latte-mesa .bin files.
pub fn corpus_programs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut files = Vec::new();
    walk(&corpus().join("latte"), "gsh", &mut files);
    walk(&corpus().join("latte-mesa"), "gsh", &mut files);
    for f in files {
        let gfd = GfdFile::parse(&std::fs::read(&f).unwrap()).unwrap();
        for b in &gfd.blocks {
            use latte::gfd::BlockKind::*;
            if matches!(b.block_kind(), VertexProgram | PixelProgram | GeometryProgram | GeometryCopyProgram) {
                out.push((format!("{}@{:#x}", f.display(), b.data_offset), b.data.clone()));
            }
        }
    }
    let mut bins = Vec::new();
    walk(&corpus().join("latte-mesa/programs"), "bin", &mut bins);
    for f in bins {
        out.push((f.display().to_string(), std::fs::read(&f).unwrap()));
    }
    out
}

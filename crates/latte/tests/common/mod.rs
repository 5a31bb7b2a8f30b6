//! Corpus helpers shared by the integration tests.
#![allow(dead_code)]

use latte::gfd::GfdFile;
use std::path::PathBuf;

pub fn corpus() -> PathBuf {
    testkit::corpus("")
}

pub fn walk(dir: &std::path::Path, ext: &str, out: &mut Vec<PathBuf>) {
    out.extend(testkit::walk(dir, ext));
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

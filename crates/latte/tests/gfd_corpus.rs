//! Every .gsh of the corpus parses and writes back to identical bytes.

use latte::gfd::{GfdFile, Stage};
use std::path::{Path, PathBuf};

pub fn corpus() -> PathBuf {
    testkit::corpus("")
}

fn gsh_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            gsh_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "gsh") {
            out.push(p);
        }
    }
}

fn all_gsh() -> Vec<PathBuf> {
    let mut v = Vec::new();
    gsh_files(&corpus().join("latte"), &mut v);
    gsh_files(&corpus().join("latte-mesa"), &mut v);
    v
}

#[test]
fn every_gsh_round_trips() {
    let files = all_gsh();
    assert!(files.len() >= 50, "corpus files found: {}", files.len());
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let gfd = GfdFile::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(gfd.to_bytes(), bytes, "{}", f.display());
        let shaders = gfd.shaders().unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for s in &shaders {
            assert_eq!(s.header.to_bytes(), s.header.raw.clone().unwrap());
            if let Some(p) = &s.program {
                assert_eq!(s.header.program_size as usize, p.len(), "{}", f.display());
            }
        }
    }
}

/// The canonical layout reproduces every header block the latte-assembler wrote and every header
/// of the latte-mesa files (CafeGLSL-style writer): all but the rust-wiiu gfd/ files.
#[test]
fn canonical_layout_matches_latte_assembler() {
    let mut checked = 0;
    for f in all_gsh() {
        let rel = f.strip_prefix(corpus()).unwrap().to_string_lossy().into_owned();
        let s = rel.as_str();
        if s.contains("/gfd/") {
            continue;
        }
        let bytes = std::fs::read(&f).unwrap();
        let gfd = GfdFile::parse(&bytes).unwrap();
        let pad = !s.contains("/wut/");
        for sh in gfd.shaders().unwrap() {
            let raw = sh.header.raw.clone().unwrap();
            assert_eq!(sh.header.canonical_bytes(pad), raw, "{} {:?}", f.display(), sh.header.stage);
            checked += 1;
        }
    }
    assert_eq!(checked, 30 + 62);
}

#[test]
fn vertex_header_fields() {
    let bytes = std::fs::read(corpus().join("latte/ClassiCube/coloured_none.gsh")).unwrap();
    let gfd = GfdFile::parse(&bytes).unwrap();
    let sh = gfd.shaders().unwrap();
    assert_eq!(sh.len(), 2);
    let vs = &sh[0].header;
    assert_eq!(vs.stage, Stage::Vertex);
    assert_eq!(vs.uniform_vars.len(), 1);
    assert_eq!(vs.uniform_vars[0].name, "mvp");
    assert_eq!(vs.uniform_vars[0].block, -1);
    let names: Vec<_> = vs.attrib_vars.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["in_pos", "in_col"]);
    assert_eq!(sh[1].header.stage, Stage::Pixel);
}

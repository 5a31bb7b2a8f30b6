//! The translator's identity (`batch::TRANSLATOR`): a 128-bit xxh3 hash of the sources that
//! decide what a shader translates to, so that the translation cache never serves output of
//! other code under the same package version (docs/batch.md "Reruns and the cache").
//!
//! Hashed, in sorted path order, each file's path (relative to crates/, `/`-separated) and
//! bytes: crates/translate/src, crates/latte/src (the translator and the decoder, listings and
//! GFD reader it rests on), crates/batch/src (file names and the cache value's layout), and the
//! workspace's Cargo.lock (naga's back ends write the bytes).

use std::path::{Path, PathBuf};

/// The source folders hashed, relative to crates/.
const ROOTS: [&str; 3] = ["translate/src", "latte/src", "batch/src"];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for e in entries {
        let path = e.unwrap_or_else(|e| panic!("{}: {e}", dir.display())).path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Appends `bytes` length-prefixed, so that one file's end cannot pass for another's start.
fn part(buf: &mut Vec<u8>, bytes: &[u8]) {
    buf.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    buf.extend_from_slice(bytes);
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let crates = manifest.parent().expect("crates/batch has a parent").to_path_buf();
    let mut named = Vec::new();
    for root in ROOTS {
        let dir = crates.join(root);
        // A folder: cargo reruns this script when anything under it changes.
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut found = Vec::new();
        files(&dir, &mut found);
        for f in found {
            let rel = f.strip_prefix(&crates).expect("under crates/");
            let name: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            named.push((name.join("/"), f));
        }
    }
    let lock = crates.parent().expect("the workspace").join("Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    if lock.is_file() {
        named.push(("Cargo.lock".to_string(), lock));
    }
    named.sort();
    let mut buf = Vec::new();
    for (name, path) in &named {
        part(&mut buf, name.as_bytes());
        part(&mut buf, &std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
    }
    let hash = xxhash_rust::xxh3::xxh3_128(&buf);
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("translator.rs");
    let text = format!(
        "/// The translator's identity: a hash of its sources ({} files), computed at build time.\npub const TRANSLATOR: &str = \"{hash:032x}\";\n",
        named.len()
    );
    std::fs::write(&out, text).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

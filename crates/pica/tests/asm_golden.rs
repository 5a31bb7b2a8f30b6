//! Every corpus source that picasso 2.7.1 accepted assembles to its golden .shbin and .h, byte
//! for byte (corpus/pica/golden, made by picasso; SOURCES.md there).

use std::path::PathBuf;

use pica::asm::{assemble, Options, Source};

fn corpus() -> PathBuf {
    testkit::corpus("pica")
}

/// (source path relative to the corpus, golden stem) for every golden pair.
fn golden_pairs() -> Vec<(PathBuf, PathBuf)> {
    let root = corpus();
    let mut pairs = Vec::new();
    for entry in std::fs::read_dir(root.join("golden")).expect("golden directory") {
        let path = entry.expect("entry").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if let Some(stem) = name.strip_suffix(".shbin") {
            let source = root.join(stem.replace("__", "/"));
            pairs.push((source, root.join("golden").join(stem)));
        }
    }
    pairs.sort();
    pairs
}

#[test]
fn corpus_assembles_to_golden_bytes() {
    let pairs = golden_pairs();
    assert_eq!(pairs.len(), 31, "expected the 31 golden pairs of SOURCES.md");
    let mut failures = Vec::new();
    for (source, golden) in &pairs {
        let text = std::fs::read_to_string(source).expect("source");
        let name = source.to_string_lossy();
        let want_shbin =
            std::fs::read(golden.with_extension(format!("{}.shbin", golden.extension().unwrap().to_string_lossy())))
                .unwrap();
        let want_h = std::fs::read_to_string(
            golden.with_extension(format!("{}.h", golden.extension().unwrap().to_string_lossy())),
        )
        .unwrap();
        match assemble(&[Source { name: &name, text: &text }], &Options::default()) {
            Ok(out) => {
                let shbin = out.to_bytes();
                if shbin != want_shbin {
                    let at = shbin
                        .iter()
                        .zip(&want_shbin)
                        .position(|(a, b)| a != b)
                        .unwrap_or(shbin.len().min(want_shbin.len()));
                    failures.push(format!(
                        "{name}: shbin differs at byte {at:#x} (len {} vs {})",
                        shbin.len(),
                        want_shbin.len()
                    ));
                }
                if out.header != want_h {
                    failures.push(format!("{name}: header differs:\n{}\n--- want\n{}", out.header, want_h));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), pairs.len(), failures.join("\n"));
}

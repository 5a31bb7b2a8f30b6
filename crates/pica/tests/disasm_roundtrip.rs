//! Issue 2, "Done when": `shaderport pica disasm` of every golden .shbin assembles back to
//! identical bytes. The golden files are picasso 2.7.1 outputs (corpus/pica/SOURCES.md).

use pica::asm::{assemble, Options, Source};
use pica::disasm::disassemble;
use pica::shbin::Shbin;

fn golden_dir() -> std::path::PathBuf {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/pica/golden").into()
}

/// The files of a disassembly (one per DVLE, split at the `; ---- next file` lines).
fn files(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    for line in text.lines() {
        if line.starts_with("; ---- next file") {
            out.push(String::new());
        }
        let last = out.last_mut().expect("at least one file");
        last.push_str(line);
        last.push('\n');
    }
    out
}

fn reassemble(text: &str) -> Result<Vec<u8>, String> {
    let files = files(text);
    let names: Vec<String> = (0..files.len()).map(|i| format!("dvle{i}.pica")).collect();
    let sources: Vec<Source> = files.iter().zip(&names).map(|(t, n)| Source { name: n, text: t }).collect();
    assemble(&sources, &Options::default()).map(|a| a.to_bytes()).map_err(|e| e.to_string())
}

#[test]
fn every_golden_shbin_reassembles_to_identical_bytes() {
    let mut paths: Vec<_> = std::fs::read_dir(golden_dir())
        .expect("corpus golden directory")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "shbin"))
        .collect();
    paths.sort();
    assert_eq!(paths.len(), 31, "the corpus holds 31 golden SHBIN files");
    let mut failures = Vec::new();
    for path in &paths {
        let bytes = std::fs::read(path).expect("read golden");
        let shbin = Shbin::read(&bytes).expect("golden reads");
        let text = match disassemble(&shbin) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        match reassemble(&text) {
            Ok(again) if again == bytes => {}
            Ok(again) => {
                let at = again.iter().zip(&bytes).position(|(a, b)| a != b).unwrap_or(again.len().min(bytes.len()));
                failures.push(format!("{}: bytes differ from offset {at:#x} ({} vs {} bytes)", path.display(), again.len(), bytes.len()));
            }
            Err(e) => failures.push(format!("{}: reassembly failed: {e}\n{text}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{} of {} did not round-trip:\n{}", failures.len(), paths.len(), failures.join("\n"));
}

/// The committed older-picasso file also prints without warnings and reassembles to itself.
#[test]
fn committed_shbin_reassembles() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/pica/normal_mapping/source/vshader.shbin");
    let bytes = std::fs::read(path).expect("read");
    let text = disassemble(&Shbin::read(&bytes).expect("reads")).expect("reproducible");
    assert_eq!(reassemble(&text).expect("assembles"), bytes);
}

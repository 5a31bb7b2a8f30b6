//! `shaderport pica disasm` of every golden .shbin assembles back to
//! identical bytes. The golden files are picasso 2.7.1 outputs (corpus/pica/SOURCES.md).

use pica::disasm::{disassemble, disassemble_with};
use pica::shbin::Shbin;

fn golden_dir() -> std::path::PathBuf {
    testkit::corpus("pica/golden")
}

fn reassemble(text: &str) -> Result<Vec<u8>, String> {
    pica::disasm::reassemble(text).map(|a| a.to_bytes()).map_err(|e| e.to_string())
}

/// The default form names uniforms in the code (`projection[2]`), as the sources did.
#[test]
fn default_form_uses_uniform_names() {
    let bytes = std::fs::read(golden_dir().join("citro2d__source__render2d.v.pica.shbin")).expect("read");
    let text = disassemble(&Shbin::read(&bytes).expect("reads")).expect("reproducible");
    assert!(text.contains("\tdp4 r1.x, mdlvMtx[0], r0\n"), "{text}");
    assert!(text.contains("\tmov r0.xyz, iPosition\n"), "{text}");
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
                failures.push(format!(
                    "{}: bytes differ from offset {at:#x} ({} vs {} bytes)",
                    path.display(),
                    again.len(),
                    bytes.len()
                ));
            }
            Err(e) => failures.push(format!("{}: reassembly failed: {e}\n{text}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{} of {} did not round-trip:\n{}", failures.len(), paths.len(), failures.join("\n"));
}

/// The committed older-picasso file also prints without warnings and reassembles to itself.
#[test]
fn committed_shbin_reassembles() {
    let path = testkit::corpus("pica/normal_mapping/source/vshader.shbin");
    let bytes = std::fs::read(path).expect("read");
    let text = disassemble(&Shbin::read(&bytes).expect("reads")).expect("reproducible");
    assert_eq!(reassemble(&text).expect("assembles"), bytes);
}

/// With raw registers instead of declared names the text reassembles just the same.
#[test]
fn raw_register_form_reassembles_too() {
    for entry in std::fs::read_dir(golden_dir()).expect("golden dir") {
        let path = entry.expect("entry").path();
        if path.extension() != Some(std::ffi::OsStr::new("shbin")) {
            continue;
        }
        let bytes = std::fs::read(&path).expect("read");
        let d = disassemble_with(&Shbin::read(&bytes).expect("reads"), &pica::disasm::Options { raw_registers: true });
        assert!(d.warnings.is_empty(), "{}: {:?}", path.display(), d.warnings);
        let code_uses_names = d.text.lines().any(|l| l.starts_with('\t') && l.contains("projection"));
        assert!(!code_uses_names, "raw form prints no uniform names in the code");
        assert_eq!(reassemble(&d.text).expect("assembles"), bytes, "{}", path.display());
    }
}

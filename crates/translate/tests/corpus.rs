//! Every corpus SHBIN (picasso's golden outputs) translates to every back end; naga validates
//! each module; spirv-val accepts the SPIR-V and glslangValidator the GLSL when the tools are
//! installed (scripts/test installs them; CI fails without them, see `testkit::tool`).

use std::path::PathBuf;
use std::process::Command;

use pica::shbin::Shbin;
use translate::pica::{translate, Options};
use translate::{Output, Precision, Target};

fn shbins() -> Vec<PathBuf> {
    testkit::files(&testkit::corpus("pica/golden"), "shbin")
}

fn tmp(name: &str) -> PathBuf {
    testkit::temp_dir("translate-tests").join(name)
}

#[test]
fn every_corpus_shader_translates_to_every_backend() {
    let files = shbins();
    assert_eq!(files.len(), 31, "corpus golden SHBIN count");
    let spirv_val = testkit::tool("spirv-val");
    let glslang = testkit::tool("glslangValidator");
    let mut count = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let shbin = Shbin::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for entry in 0..shbin.executables.len() {
            for precision in [Precision::Fast, Precision::Compat] {
                // The compute wrapper in one precision, the vertex stage alone in the other.
                let compute_wrapper = precision == Precision::Fast;
                let t = translate(&shbin, entry, Options { precision, compute_wrapper, ..Options::default() })
                    .unwrap_or_else(|e| panic!("{} entry {entry}: {e}", path.display()));
                for target in Target::ALL {
                    let out = t
                        .write(target)
                        .unwrap_or_else(|e| panic!("{} entry {entry} {}: {e}", path.display(), target.name()));
                    let name = format!(
                        "{}-{entry}-{:?}.{}",
                        path.file_stem().unwrap().to_string_lossy(),
                        precision,
                        target.extension()
                    );
                    match (&out, target) {
                        (Output::Words(w), Target::SpirV) => {
                            assert_eq!(w[0], 0x0723_0203);
                            if spirv_val {
                                let f = tmp(&name);
                                std::fs::write(&f, out.to_bytes()).unwrap();
                                let o = Command::new("spirv-val")
                                    .arg("--target-env")
                                    .arg("vulkan1.1")
                                    .arg(&f)
                                    .output()
                                    .unwrap();
                                assert!(
                                    o.status.success(),
                                    "spirv-val {}: {}",
                                    name,
                                    String::from_utf8_lossy(&o.stderr)
                                );
                            }
                        }
                        (Output::Text(text), Target::Glsl | Target::GlslEs) if glslang => {
                            let stage = if t.entry().0 == naga::ShaderStage::Vertex { "vert" } else { "comp" };
                            let f = tmp(&format!("{name}.{stage}"));
                            std::fs::write(&f, text).unwrap();
                            let mut cmd = Command::new("glslangValidator");
                            if target == Target::Glsl {
                                cmd.arg("-V").arg("-o").arg(tmp(&format!("{name}.glslang.spv")));
                            }
                            let o = cmd.arg(&f).output().unwrap();
                            assert!(
                                o.status.success(),
                                "glslangValidator {}: {}{}",
                                name,
                                String::from_utf8_lossy(&o.stdout),
                                String::from_utf8_lossy(&o.stderr)
                            );
                        }
                        (Output::Text(text), _) => assert!(!text.is_empty()),
                        _ => panic!("{}: wrong output kind", target.name()),
                    }
                    count += 1;
                }
            }
        }
    }
    assert!(count >= 31 * 2 * 6, "{count} outputs");
}

/// How the corpus' control flow translates: straight code, structured, and the dispatch loop only
/// for the particle shader (its loops are backward JMPCs); the dispatch loop (forced) also
/// validates for every program.
#[test]
fn corpus_flow_kinds_and_forced_dispatch() {
    use translate::pica::FlowKind;
    let mut kinds = std::collections::BTreeMap::new();
    for path in shbins() {
        let shbin = Shbin::read(&std::fs::read(&path).unwrap()).unwrap();
        for entry in 0..shbin.executables.len() {
            let t = translate(&shbin, entry, Options::default()).unwrap();
            *kinds.entry(format!("{:?}", t.interface().flow)).or_insert(0) += 1;
            if t.interface().flow == FlowKind::Dispatch {
                eprintln!("dispatch: {}", path.display());
            }
            let d = translate(&shbin, entry, Options { dispatch_only: true, ..Options::default() }).unwrap();
            assert_eq!(d.interface().flow, FlowKind::Dispatch);
            for target in Target::ALL {
                d.write(target).unwrap_or_else(|e| panic!("{} dispatch {}: {e}", path.display(), target.name()));
            }
        }
    }
    eprintln!("corpus flow kinds: {kinds:?}");
    assert_eq!(kinds.get("Dispatch"), Some(&1), "{kinds:?}");
    assert_eq!(kinds.get("Structured"), Some(&10), "{kinds:?}");
    assert_eq!(kinds.get("Straight"), Some(&20), "{kinds:?}");
}

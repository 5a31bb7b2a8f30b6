//! `shaderport translate` and `verify` on Latte files (docs/latte-translate.md "Command line"):
//! a corpus .gsh per stage to every target (spirv-val and glslang accept the output), an MT
//! container entry, a raw program, the device check against the interpreter, and the errors
//! (wrong or truncated file, a stage the file lacks, an entry out of range, a program the
//! translation does not cover yet), each naming the file and the entry or instruction.

use std::path::PathBuf;
use std::process::{Command, Output};

use latte::gfd::{GfdFile, Stage};
use latte::mt::{Entry, Spkg};

fn shaderport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderport")).args(args).output().expect("run shaderport")
}

fn corpus(path: &str) -> String {
    testkit::corpus(path).to_string_lossy().into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Straight-code vertex and pixel programs without fetch clauses: what the translation covers.
const COLOR: &str = "latte/MultiDRCSpaceDemo/colorShader.gsh";
const POS_COL: &str = "latte/wut/pos_col_shader.gsh";
/// Its pixel program samples a texture (a TEX fetch clause).
const TEXTURED: &str = "latte/ClassiCube/textured_none.gsh";

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", stderr(out));
    stdout(out)
}

/// Runs `args`, expects failure without a panic, returns stderr.
fn refused(args: &[&str]) -> String {
    let out = shaderport(args);
    let err = stderr(&out);
    assert!(!out.status.success(), "{args:?} succeeded: {}", stdout(&out));
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn a_corpus_gsh_translates_per_stage_to_every_target_and_the_tools_accept_it() {
    let dir = testkit::temp_dir("latte-translate-all");
    let gsh = corpus(COLOR);
    let mut glsl = Vec::new();
    for stage in ["vs", "ps"] {
        for (to, ext) in [("spirv", "spv"), ("glsl", "comp"), ("msl", "metal"), ("hlsl", "hlsl"), ("wgsl", "wgsl")] {
            let path = dir.join(format!("{stage}.{ext}"));
            let out = shaderport(&["translate", &gsh, "--stage", stage, "--to", to, "-o", path.to_str().unwrap()]);
            ok(&out);
            let bytes = std::fs::read(&path).unwrap();
            assert!(bytes.len() > 100, "{stage} {to}: {} bytes", bytes.len());
            match to {
                "spirv" => {
                    assert_eq!(&bytes[..4], &0x0723_0203u32.to_le_bytes(), "SPIR-V magic");
                    assert_eq!(testkit::spirv_val(&path), None);
                }
                "glsl" => glsl.push(path.clone()),
                _ => assert!(String::from_utf8(bytes).unwrap().contains("latte_compute"), "{stage} {to}"),
            }
        }
        // GLSL ES to stdout: the same program, a `#version 310 es` header.
        let out = ok(&shaderport(&["translate", &gsh, "--stage", stage, "--to", "glsl-es"]));
        assert!(out.starts_with("#version 310 es"), "{out}");
        let es = dir.join(format!("{stage}-es.comp"));
        std::fs::write(&es, out).unwrap();
        glsl.push(es);
    }
    assert_eq!(testkit::glslang(&glsl), None);
    // The stages are different programs.
    assert_ne!(std::fs::read(dir.join("vs.spv")).unwrap(), std::fs::read(dir.join("ps.spv")).unwrap());
    let _ = std::fs::remove_dir_all(dir);
}

/// The vertex program's bytes of a corpus .gsh.
fn program_of(path: &str, stage: Stage) -> Vec<u8> {
    let gfd = GfdFile::parse(&std::fs::read(corpus(path)).unwrap()).unwrap();
    gfd.shaders().unwrap().into_iter().find(|s| s.header.stage == stage).unwrap().program.unwrap()
}

/// A .spkg holding colorShader (id 7) then pos_col_shader (id 9).
fn spkg(dir: &std::path::Path) -> String {
    let entries = [(7, COLOR), (9, POS_COL)]
        .map(|(id, f)| Entry { id, name: None, gfd: std::fs::read(corpus(f)).unwrap(), offset: 0 })
        .to_vec();
    let total: usize = entries.iter().map(|e| e.gfd.len()).sum();
    let bytes = Spkg { header_words: [total as u32, 8, 0], entries }.to_bytes();
    let path = dir.join("pack.spkg");
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn an_mt_entry_and_a_raw_program_translate_as_the_gsh_does() {
    let dir = testkit::temp_dir("latte-translate-entry");
    let pack = spkg(&dir);
    let direct = ok(&shaderport(&["translate", &corpus(POS_COL), "--stage", "vs", "--to", "wgsl"]));
    let from_pack = ok(&shaderport(&["translate", &pack, "--entry", "1", "--stage", "vs", "--to", "wgsl"]));
    assert_eq!(from_pack, direct);
    let first = ok(&shaderport(&["translate", &pack, "--entry", "0", "--stage", "vs", "--to", "wgsl"]));
    assert_ne!(first, direct, "entry 0 is another shader");
    // Without --entry: entry 0, as for a SHBIN's executables.
    assert_eq!(ok(&shaderport(&["translate", &pack, "--stage", "vs", "--to", "wgsl"])), first);

    let raw = dir.join("vs.bin");
    std::fs::write(&raw, program_of(POS_COL, Stage::Vertex)).unwrap();
    let raw = raw.to_str().unwrap();
    assert_eq!(ok(&shaderport(&["translate", raw, "--raw", "--stage", "vs", "--to", "wgsl"])), direct);
    let err = refused(&["translate", raw, "--raw", "--to", "wgsl"]);
    assert!(err.contains(raw) && err.contains("--stage"), "{err}");
    let err = refused(&["translate", raw, "--raw", "--stage", "gs", "--to", "wgsl"]);
    assert!(err.contains(raw) && err.contains("geometry programs are not translated yet"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn translate_errors_name_the_file_and_the_entry_or_instruction() {
    let dir = testkit::temp_dir("latte-translate-errors");
    let gsh = corpus(COLOR);
    // Two shaders and no --stage.
    let err = refused(&["translate", &gsh, "--to", "glsl"]);
    assert!(err.contains(&gsh) && err.contains("vertex and pixel") && err.contains("--stage"), "{err}");
    // A stage the file lacks.
    let err = refused(&["translate", &gsh, "--stage", "gs", "--to", "glsl"]);
    assert!(err.contains(&gsh) && err.contains("no geometry shader (the file has: vertex, pixel)"), "{err}");
    let only_vs = corpus("latte/gfd/vertex-program.gsh");
    let err = refused(&["translate", &only_vs, "--stage", "ps", "--to", "glsl"]);
    assert!(err.contains(&only_vs) && err.contains("no pixel shader"), "{err}");
    // An entry out of range.
    let pack = spkg(&dir);
    let err = refused(&["translate", &pack, "--entry", "2", "--stage", "vs", "--to", "glsl"]);
    assert!(err.contains(&pack) && err.contains("entry 2 out of range: the .spkg has 2 entries (0-1)"), "{err}");
    let err = refused(&["translate", &gsh, "--entry", "1", "--stage", "vs", "--to", "glsl"]);
    assert!(err.contains("entry 1 out of range: the GFD has 1 entry (0-0)"), "{err}");
    // A truncated file: the GFD reader names the byte offset.
    let bytes = std::fs::read(&gsh).unwrap();
    let cut = dir.join("cut.gsh");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let cut = cut.to_str().unwrap();
    let err = refused(&["translate", cut, "--stage", "vs", "--to", "glsl"]);
    assert!(err.contains(cut) && err.contains("0x"), "{err}");
    // A program the translation does not cover yet: the CF instruction is named.
    let textured = corpus(TEXTURED);
    let err = refused(&["translate", &textured, "--stage", "ps", "--to", "glsl"]);
    assert!(
        err.contains(&textured) && err.contains("pixel shader: CF ") && err.contains("not translated yet"),
        "{err}"
    );
    assert!(err.contains("TEX fetch"), "{err}");
    // --stage on a file that is not Latte.
    let shbin = corpus("pica/golden/3ds-examples__graphics__gpu__simple_tri__source__vshader.v.pica.shbin");
    let err = refused(&["translate", &shbin, "--stage", "vs", "--to", "glsl"]);
    assert!(err.contains(&shbin) && err.contains("--stage"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `verify` with the device required when SHADERPORT_REQUIRE_GPU is set.
fn verify(args: &[&str]) -> Option<Output> {
    let out = Command::new(env!("CARGO_BIN_EXE_shaderport")).arg("verify").args(args).output().expect("run");
    let none = stderr(&out).contains("no Vulkan device");
    assert!(!(none && testkit::required()), "{}", stderr(&out));
    (!none).then_some(out)
}

/// The `N passed, M failed` line's numbers.
fn tally(out: &str) -> (usize, usize) {
    let last = out.lines().last().unwrap_or_default();
    let w: Vec<&str> = last.split_whitespace().collect();
    assert_eq!((w.len(), w.get(1), w.get(3)), (4, Some(&"passed,"), Some(&"failed")), "{out}");
    (w[0].trim_end_matches(',').parse().unwrap(), w[2].parse().unwrap())
}

#[test]
fn verify_runs_a_corpus_gsh_on_the_device_against_the_interpreter() {
    let gsh = corpus(COLOR);
    let Some(out) = verify(&[&gsh, "--cases", "16"]) else { return };
    let text = ok(&out);
    let (passed, failed) = tally(&text);
    // 16 vertex invocations, and the pixel ones that are not helper lanes.
    assert!(passed > 16 && passed <= 32, "{text}");
    assert_eq!(failed, 0, "{text}");
    // One stage of an MT entry, and a raw program.
    let dir = testkit::temp_dir("latte-verify");
    let pack = spkg(&dir);
    let Some(out) = verify(&[&pack, "--entry", "1", "--stage", "vs", "--cases", "8"]) else { return };
    assert!(ok(&out).ends_with("8 passed, 0 failed\n"), "{}", stdout(&out));
    let raw = dir.join("ps.bin");
    std::fs::write(&raw, program_of(COLOR, Stage::Pixel)).unwrap();
    let Some(out) = verify(&[raw.to_str().unwrap(), "--raw", "--stage", "ps", "--cases", "8"]) else { return };
    let (passed, failed) = tally(&ok(&out));
    assert!(passed > 0 && failed == 0, "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn verify_of_a_program_with_a_fetch_clause_fails_naming_it() {
    let textured = corpus(TEXTURED);
    let Some(out) = verify(&[&textured, "--stage", "ps", "--cases", "4"]) else { return };
    assert!(!out.status.success(), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains(&textured) && err.contains("pixel shader: CF ") && err.contains("TEX fetch"), "{err}");
    assert!(stdout(&out).ends_with("0 passed, 0 failed\n"), "{}", stdout(&out));
    let missing: PathBuf = testkit::corpus("latte/gfd/vertex-program.gsh");
    let Some(out) = verify(&[missing.to_str().unwrap(), "--stage", "ps"]) else { return };
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no pixel shader"), "{}", stderr(&out));
}

#[test]
fn translate_meta_writes_the_interface_keyed_as_batch_keys_it() {
    let dir = testkit::temp_dir("latte-translate-meta");
    let gsh = corpus(POS_COL);
    let gfd = GfdFile::parse(&std::fs::read(&gsh).unwrap()).unwrap();
    let shaders = gfd.shaders().unwrap();
    let mut metas = Vec::new();
    for (stage, want) in [("vs", Stage::Vertex), ("ps", Stage::Pixel)] {
        let (spv, meta) = (dir.join(format!("{stage}.spv")), dir.join(format!("{stage}.meta")));
        let (spv, meta) = (spv.to_str().unwrap(), meta.to_str().unwrap());
        ok(&shaderport(&["translate", &gsh, "--stage", stage, "--to", "spirv", "-o", spv, "--meta", meta]));
        let m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(meta).unwrap()).unwrap();
        let s = shaders.iter().find(|s| s.header.stage == want).unwrap();
        let key = format!("{:016x}", latte::key::shader_key(&s.header.regs, s.program.as_ref().unwrap()));
        assert_eq!(m["key"], key.as_str(), "{m}");
        assert_eq!(m["origin"], "header", "{m}");
        assert_eq!(m["stage"], if want == Stage::Vertex { "vertex" } else { "pixel" }, "{m}");
        metas.push(m);
    }
    // The vertex shader feeds the pixel shader: every semantic the pixel shader reads sits at
    // the location the vertex shader writes it to.
    let (vs, ps) = (&metas[0], &metas[1]);
    assert!(!vs["attributes"].as_array().unwrap().is_empty(), "{vs}");
    let ps_varyings = ps["varyings"].as_array().unwrap();
    assert!(!ps_varyings.is_empty(), "{ps}");
    for v in ps_varyings {
        let w = vs["varyings"].as_array().unwrap().iter().find(|w| w["semantic"] == v["semantic"]);
        assert_eq!(w.map(|w| &w["location"]), Some(&v["location"]), "{vs}\n{ps}");
    }
    // A raw program gets the documented defaults; a SHBIN has no Latte interface.
    let raw = dir.join("vs.bin");
    std::fs::write(&raw, program_of(COLOR, Stage::Vertex)).unwrap();
    let meta = dir.join("raw.meta");
    let spv = dir.join("raw.spv");
    let args = ["translate", raw.to_str().unwrap(), "--raw", "--stage", "vs", "--to", "spirv", "-o"];
    ok(&shaderport(&[&args[..], &[spv.to_str().unwrap(), "--meta", meta.to_str().unwrap()]].concat()));
    let m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&meta).unwrap()).unwrap();
    assert_eq!(m["origin"], "program", "{m}");
    let shbin = testkit::walk(&testkit::corpus("pica"), "shbin").remove(0);
    let err = refused(&["translate", shbin.to_str().unwrap(), "--to", "glsl", "--meta", meta.to_str().unwrap()]);
    assert!(err.contains("--meta") && err.contains("not a Latte file"), "{err}");
}

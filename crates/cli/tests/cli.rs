//! The `shaderport` binary end to end: the command-line contracts of the issues (flags, output
//! formats, error lines, exit codes), run on corpus files.

use std::path::PathBuf;
use std::process::{Command, Output};

fn shaderport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderport")).args(args).output().expect("run shaderport")
}

fn corpus(path: &str) -> String {
    format!("{}/../../corpus/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shaderport-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const SIMPLE_TRI: &str = "pica/3ds-examples/graphics/gpu/simple_tri/source/vshader.v.pica";
const SIMPLE_TRI_GOLDEN: &str = "pica/golden/3ds-examples__graphics__gpu__simple_tri__source__vshader.v.pica";

#[test]
fn pica_asm_writes_picassos_shbin_and_header() {
    let dir = temp_dir("asm");
    let (shbin, header) = (dir.join("out.shbin"), dir.join("out.h"));
    let out = shaderport(&[
        "pica",
        "asm",
        "-o",
        shbin.to_str().unwrap(),
        "-h",
        header.to_str().unwrap(),
        &corpus(SIMPLE_TRI),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&shbin).unwrap(), std::fs::read(corpus(&format!("{SIMPLE_TRI_GOLDEN}.shbin"))).unwrap());
    assert_eq!(std::fs::read(&header).unwrap(), std::fs::read(corpus(&format!("{SIMPLE_TRI_GOLDEN}.h"))).unwrap());
}

#[test]
fn pica_asm_error_names_file_and_line_and_fails() {
    let bad = corpus("pica/citro3d-rs/citro3d-macros/tests/bad-shader.pica");
    let dir = temp_dir("bad");
    let out = shaderport(&["pica", "asm", "-o", dir.join("x.shbin").to_str().unwrap(), &bad]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains(&format!("{bad}:7: error:")), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn pica_disasm_output_reassembles_through_the_cli() {
    let dir = temp_dir("disasm");
    let golden = corpus(&format!("{SIMPLE_TRI_GOLDEN}.shbin"));
    let out = shaderport(&["pica", "disasm", &golden]);
    assert!(out.status.success(), "{}", stderr(&out));
    let src = dir.join("back.pica");
    std::fs::write(&src, &out.stdout).unwrap();
    let shbin = dir.join("back.shbin");
    let out = shaderport(&["pica", "asm", "-o", shbin.to_str().unwrap(), src.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&shbin).unwrap(), std::fs::read(&golden).unwrap());
}

#[test]
fn inspect_summarises_a_shbin_as_json() {
    let out = shaderport(&["inspect", &corpus(&format!("{SIMPLE_TRI_GOLDEN}.shbin"))]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let text = json.to_string();
    assert!(text.contains("projection"), "{text}");
    assert!(text.contains("c95"), "{text}");
}

#[test]
fn inspect_rejects_unknown_files_with_the_file_name() {
    let dir = temp_dir("unknown");
    let file = dir.join("hello.bin");
    std::fs::write(&file, b"hello, world").unwrap();
    let out = shaderport(&["inspect", file.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("hello.bin"), "{}", stderr(&out));
}

#[test]
fn pica_run_prints_outputs_as_numbers_or_hex() {
    let dir = temp_dir("run");
    let input = dir.join("in.json");
    std::fs::write(
        &input,
        r#"{"uniforms": {"c0": [1,0,0,0], "c1": [0,1,0,0], "c2": [0,0,1,0], "c3": [0,0,0,1]},
            "vertices": [{"v0": [1, 2, 3, 1], "v1": [0.5, 0.25, "inf", 1]}]}"#,
    )
    .unwrap();
    let golden = corpus(&format!("{SIMPLE_TRI_GOLDEN}.shbin"));
    let out = shaderport(&["pica", "run", &golden, "--input", input.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // projection = identity, so o0 = (v0.xyz, 1) and o1 = v1.
    assert_eq!(json["vertices"][0]["o0"], serde_json::json!([1.0, 2.0, 3.0, 1.0]));
    assert_eq!(json["vertices"][0]["o1"], serde_json::json!([0.5, 0.25, "inf", 1.0]));
    let out = shaderport(&["pica", "run", &golden, "--input", input.to_str().unwrap(), "--hex"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["vertices"][0]["o0"], serde_json::json!(["0x3f0000", "0x400000", "0x408000", "0x3f0000"]));
}

#[test]
fn latte_disasm_prints_a_corpus_gsh() {
    let out = shaderport(&["latte", "disasm", &corpus("latte/ClassiCube/textured_exp.gsh")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("EXP_DONE") || stdout(&out).contains("EXPORT_DONE"), "{}", stdout(&out));
}

#[test]
fn demo_runs_and_every_check_passes() {
    let out = shaderport(&["demo"]);
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    assert!(!stdout(&out).contains("FAILED"), "{}", stdout(&out));
}

// `translate`, `verify` and `pica disasm` on files that are not SHBINs: the format is named, with
// what to do instead, and the magic is never printed as a list of numbers.

/// Runs `args` then the file, expects failure, returns stderr.
fn refused(args: &[&str], file: &str) -> String {
    let mut all = args.to_vec();
    all.push(file);
    let out = shaderport(&all);
    assert!(!out.status.success(), "{all:?} succeeded");
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("found ["), "magic printed as numbers: {err}");
    assert!(err.contains(file), "file not named: {err}");
    err
}

fn write_temp(name: &str, bytes: &[u8]) -> String {
    let path = temp_dir("formats").join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

const TRANSLATE: &[&str] = &["translate", "--to", "glsl"];
const VERIFY: &[&str] = &["verify", "--cases", "1"];

#[test]
fn translate_and_verify_name_a_gfd_and_point_to_latte_disasm() {
    let gsh = corpus("latte/librw/skin.gsh");
    for args in [TRANSLATE, VERIFY] {
        let err = refused(args, &gsh);
        assert!(err.contains("a GX2 shader (GFD)"), "{err}");
        assert!(err.contains("Latte translation is not available yet"), "{err}");
        assert!(err.contains("shaderport latte disasm"), "{err}");
    }
}

#[test]
fn translate_and_disasm_on_picasso_source_suggest_pica_asm() {
    let source = corpus(SIMPLE_TRI);
    for args in [TRANSLATE, VERIFY, &["pica", "disasm"][..]] {
        let err = refused(args, &source);
        assert!(err.contains("picasso assembly source"), "{err}");
        assert!(err.contains("shaderport pica asm"), "{err}");
    }
}

#[test]
fn translate_names_brres_latte_source_dvoj_json_and_unknown_files() {
    let brres = write_temp("model.brres", b"bres\xfe\xff\x00\x00\x00\x00\x00\x40");
    let err = refused(TRANSLATE, &brres);
    assert!(err.contains("a BRRES archive") && err.contains("GX translation is not available yet"), "{err}");
    let latte = corpus("latte/librw/asm/skin.vsh");
    let err = refused(TRANSLATE, &latte);
    assert!(err.contains("Latte assembly source") && err.contains("shaderport latte asm"), "{err}");
    let dvoj = write_temp("object.obj", b"DVOJ\x00\x00\x00\x00");
    assert!(refused(TRANSLATE, &dvoj).contains("a picasso object (DVOJ)"));
    let json = write_temp("job.json", b"{ \"stages\": [] }\n");
    assert!(refused(TRANSLATE, &json).contains("a JSON file"));
    let spirv = write_temp("shader.spv", &[0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0]);
    let err = refused(TRANSLATE, &spirv);
    assert!(err.contains("not a file format shaderport reads") && err.contains("bytes 03 02 23 07"), "{err}");
    let text = write_temp("notes.txt", b"hello, world\n");
    let err = refused(TRANSLATE, &text);
    assert!(err.contains("a text file") && err.contains("\"hell\""), "{err}");
}

#[test]
fn translate_still_reads_a_shbin() {
    let shbin = corpus(&format!("{SIMPLE_TRI_GOLDEN}.shbin"));
    let out = shaderport(&["translate", "--to", "wgsl", &shbin]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("@vertex"));
}

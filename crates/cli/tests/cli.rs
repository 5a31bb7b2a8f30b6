//! The `shaderport` binary end to end: the command-line contracts (flags, output
//! formats, error lines, exit codes), run on corpus files.

use std::path::PathBuf;
use std::process::{Command, Output};

fn shaderport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderport")).args(args).output().expect("run shaderport")
}

fn corpus(path: &str) -> String {
    testkit::corpus(path).to_string_lossy().into_owned()
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
    let dir = temp_dir("demo");
    let out = shaderport(&["demo", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("FAILED") && !text.contains("MISMATCH"), "{text}");
    // Every source has its table, and the TEV picture is a PNG of the stated size.
    for section in ["sample ", "translation ", "latte sample ", "latte translation ", "gx material "] {
        assert!(text.contains(section), "{section}: {text}");
    }
    // The Latte sample's two programs, each to every back end.
    for stage in [" vs ", " ps "] {
        let row = text.lines().find(|l| l.starts_with("MultiDRC colorShader") && l.contains(stage));
        assert!(row.is_some_and(|r| r.ends_with("spirv glsl glsl-es msl hlsl wgsl")), "{stage}: {text}");
    }
    let png = std::fs::read(dir.join("tev.png")).expect("the demo writes tev.png");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 128, "width");
    // The ETC1 picture is the TEV picture through the lossy texture format: close, not equal.
    assert!(text.contains("pica texture "), "{text}");
    let rgb = |name: &str| {
        let file = std::fs::File::open(dir.join(name)).expect(name);
        let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect(name);
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).expect(name);
        assert_eq!((info.width, info.height, info.color_type), (128, 128, png::ColorType::Rgb), "{name}");
        buf.truncate(info.buffer_size());
        buf
    };
    let (tev, etc1) = (rgb("tev.png"), rgb("etc1.png"));
    let mse = tev.iter().zip(&etc1).map(|(&a, &b)| (a as f64 - b as f64).powi(2)).sum::<f64>() / tev.len() as f64;
    assert!(mse > 0.0, "ETC1 is lossy on this picture");
    assert!(10.0 * (255.0f64 * 255.0 / mse).log10() > 30.0, "PSNR of etc1.png against tev.png, mse {mse}");
    // The PICA scene (crates/cli/src/demo/pica_scene.rs): a red quad at depth 0.25, a green
    // triangle at 0.75 and a blue one at 0.5, depth test "greater". Pixel (x, y) from the top
    // left is clip ((x + 0.5) / 64 - 1, 1 - (y + 0.5) / 64).
    if !testkit::required() && gpu::Gpu::new().is_err() {
        assert!(text.contains("pica scene"), "{text}");
        return;
    }
    let row = text.lines().find(|l| l.starts_with("3 draws, depth test")).unwrap_or_default();
    assert!(row.contains("0 differing pixels"), "{text}");
    let scene = pica::texture::png_io::read_png(&std::fs::read(dir.join("pica-scene.png")).unwrap()).unwrap();
    assert_eq!((scene.width, scene.height), (128, 128));
    // Clip (-0.84, 0.84): the quad alone.
    assert_eq!(scene.pixel(10, 10), [255, 0, 0, 255]);
    // Clip (-0.6, -0.70): green alone (blue's bottom edge is y = -0.6).
    assert_eq!(scene.pixel(25, 108), [0, 255, 0, 255]);
    // Clip (0.01, -0.40): green and blue overlap; green is nearer in "greater" terms.
    assert_eq!(scene.pixel(64, 89), [0, 255, 0, 255]);
    // Clip (0.40, -0.01): blue alone (green's right edge there is x = -0.09).
    assert_eq!(scene.pixel(89, 64), [0, 0, 255, 255]);
}

// `verify`'s time limit and environment.

const SIMPLE_TRI_GOLDEN_SHBIN: &str =
    "pica/golden/3ds-examples__graphics__gpu__simple_tri__source__vshader.v.pica.shbin";

/// `verify` with the device required, XDG_RUNTIME_DIR removed from its environment.
fn verify(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderport"))
        .arg("verify")
        .args(args)
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .expect("run shaderport")
}

/// Whether there is a device to verify on: without one `verify` fails with "no Vulkan device",
/// which these tests accept only when SHADERPORT_REQUIRE_GPU is unset.
fn no_device(out: &Output) -> bool {
    let none = stderr(out).contains("no Vulkan device");
    assert!(!(none && std::env::var_os("SHADERPORT_REQUIRE_GPU").is_some()), "{}", stderr(out));
    none
}

#[test]
fn verify_prints_no_runtime_folder_complaints_without_xdg_runtime_dir() {
    let out = verify(&[&corpus(SIMPLE_TRI_GOLDEN_SHBIN), "--cases", "8"]);
    if no_device(&out) {
        return;
    }
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).ends_with("8 passed, 0 failed\n"), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(!err.contains("XDG_RUNTIME_DIR"), "{err}");
    // Not a terminal: the device line and nothing else for a quick run.
    assert_eq!(err.lines().filter(|l| !l.starts_with("device: ")).count(), 0, "{err}");
}

#[test]
fn verify_timeout_fails_naming_the_shader_and_the_phase() {
    let file = corpus(SIMPLE_TRI_GOLDEN_SHBIN);
    let out = verify(&[&file, "--cases", "8", "--timeout", "0.000001"]);
    if no_device(&out) {
        return;
    }
    assert!(!out.status.success(), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains(&format!("error: {file}: executable 0: timed out after 0.000001 s in ")), "{err}");
    let phases = ["translation", "pipeline creation", "run", "read-back", "comparison with the interpreter"];
    assert!(phases.iter().any(|p| err.contains(&format!(" s in {p} "))), "names the phase: {err}");
    assert!(err.contains("--timeout"), "says how to change the limit: {err}");
    assert!(!stdout(&out).contains("passed"), "{}", stdout(&out));
    // A generous limit and no limit pass.
    for limit in ["600", "0"] {
        let out = verify(&[&file, "--cases", "8", "--timeout", limit]);
        assert!(out.status.success(), "--timeout {limit}: {}", stderr(&out));
    }
    let out = verify(&[&file, "--timeout=-1"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("expected a number of seconds"), "{}", stderr(&out));
}

// `pica run` with the DVLE's names and short attributes.

const LENNY_GOLDEN: &str = "pica/golden/3ds-examples__graphics__gpu__lenny__source__vshader.v.pica.shbin";
const IDENTITY: &str = "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]";

/// Runs `pica run FILE --input` over `json` (written to a file named `name.json`).
fn pica_run(file: &str, name: &str, json: &str) -> Output {
    let dir = temp_dir(&format!("run-{name}"));
    let input = dir.join(format!("{name}.json"));
    std::fs::write(&input, json).unwrap();
    shaderport(&["pica", "run", &corpus(file), "--input", input.to_str().unwrap()])
}

fn run_json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn pica_run_takes_the_dvles_uniform_and_input_names() {
    // lenny: `.fvec projection[4], modelView[4]`, `.in inpos v0`, `.in innrm v1`.
    let out = pica_run(
        LENNY_GOLDEN,
        "names",
        &format!(
            r#"{{"uniforms": {{"projection": {IDENTITY}, "modelView": {IDENTITY}}}, "vertices": [{{"inpos": [1, 2, 3, 9], "innrm": [0, 0, 1, 0]}}]}}"#
        ),
    );
    let json = run_json(&out);
    // outpos = projection * modelView * (inpos.xyz, 1); outview = -(modelView * ...).
    assert_eq!(json["vertices"][0]["o0"], serde_json::json!([1.0, 2.0, 3.0, 1.0]));
    assert_eq!(json["vertices"][0]["o2"], serde_json::json!([-1.0, -2.0, -3.0, -1.0]));
    // The same through registers gives the same output.
    let regs = pica_run(
        LENNY_GOLDEN,
        "regs",
        r#"{"uniforms": {"c0": [1,0,0,0], "c1": [0,1,0,0], "c2": [0,0,1,0], "c3": [0,0,0,1],
            "c4": [1,0,0,0], "c5": [0,1,0,0], "c6": [0,0,1,0], "c7": [0,0,0,1]},
            "vertices": [{"v0": [1, 2, 3, 9], "v1": [0, 0, 1, 0]}]}"#,
    );
    assert_eq!(run_json(&regs), json);
}

#[test]
fn pica_run_sets_one_register_of_an_array_uniform_by_index() {
    // Only projection[3] = (0, 0, 0, 2) is set, the other rows stay 0: outpos = (0, 0, 0, 2 * 1).
    let out = pica_run(
        SIMPLE_TRI_GOLDEN_SHBIN,
        "index",
        r#"{"uniforms": {"projection[3]": [0, 0, 0, 2]}, "vertices": [{"v0": [5, 6, 7, 8]}]}"#,
    );
    assert_eq!(run_json(&out)["vertices"][0]["o0"], serde_json::json!([0.0, 0.0, 0.0, 2.0]));
}

#[test]
fn pica_run_fills_short_attributes_with_0_0_0_1() {
    // simple_tri: o1 = v1 unchanged, o0 = projection * (v0.xyz, 1).
    let out = pica_run(
        SIMPLE_TRI_GOLDEN_SHBIN,
        "short",
        &format!(
            r#"{{"uniforms": {{"projection": {IDENTITY}}}, "vertices": [{{"v0": [4, 5], "v1": [0.5]}}, {{"v0": [1, 2, 3], "v1": [1, 2, 3]}}, {{"v1": [1, 2]}}]}}"#
        ),
    );
    let json = run_json(&out);
    let v = &json["vertices"];
    assert_eq!(v[0]["o0"], serde_json::json!([4.0, 5.0, 0.0, 1.0]));
    assert_eq!(v[0]["o1"], serde_json::json!([0.5, 0.0, 0.0, 1.0]));
    assert_eq!(v[1]["o1"], serde_json::json!([1.0, 2.0, 3.0, 1.0]));
    assert_eq!(v[2]["o1"], serde_json::json!([1.0, 2.0, 0.0, 1.0]));
    // v0 not given at all is (0, 0, 0, 0), as before (the shader itself sets w = 1).
    assert_eq!(v[2]["o0"], serde_json::json!([0.0, 0.0, 0.0, 1.0]));
}

#[test]
fn pica_run_errors_name_the_file_the_key_and_the_names_there_are() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            r#"{"uniforms": {"projecton": [0, 0, 0, 1]}}"#,
            "uniforms.projecton",
            &["no uniform named \"projecton\"", "projection (c0-c3)", "modelView (c4-c7)"],
        ),
        (
            r#"{"uniforms": {"projection": [0, 0, 0, 1]}}"#,
            "uniforms.projection",
            &["spans 4 registers", "projection[k]"],
        ),
        (
            r#"{"uniforms": {"projection": [[0, 0, 0, 1]]}}"#,
            "uniforms.projection",
            &["expected a list of 4", "found 1"],
        ),
        (
            r#"{"uniforms": {"modelView[4]": [0, 0, 0, 1]}}"#,
            "uniforms.modelView[4]",
            &["past the end of modelView (c4-c7)"],
        ),
        (
            r#"{"uniforms": {"projection": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,"one"]]}}"#,
            "uniforms.projection[3]: component w",
            &["\"one\""],
        ),
        (
            r#"{"uniforms": {"modelView[0]": [1, 0, 0, 0], "c4": [1, 0, 0, 0]}}"#,
            "uniforms.modelView[0]",
            &["c4", "uniforms.c4"],
        ),
        (r#"{"uniforms": {"inpos": [1, 0, 0, 0]}}"#, "uniforms.inpos", &["no uniform named \"inpos\""]),
        (
            r#"{"vertices": [{}, {"inpo": [1, 2]}]}"#,
            "vertices[1].inpo",
            &["no input named \"inpo\"", "inpos (v0)", "innrm (v1)"],
        ),
        (
            r#"{"vertices": [{"inpos": [1, 2, 3, 4, 5]}]}"#,
            "vertices[0].inpos",
            &["expected 1 to 4 components, found 5"],
        ),
        (r#"{"vertices": [{"innrm": []}]}"#, "vertices[0].innrm", &["expected 1 to 4 components, found 0"]),
        (r#"{"vertices": [{"inpos": [1], "v0": [2]}]}"#, "vertices[0]", &["sets v0"]),
    ];
    for (n, (json, path, words)) in cases.iter().enumerate() {
        let out = pica_run(LENNY_GOLDEN, &format!("bad{n}"), json);
        assert!(!out.status.success(), "{json}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.contains(&format!("bad{n}.json: {path}")), "{json}: names the file and the key: {err}");
        for w in *words {
            assert!(err.contains(w), "{json}: {w}: {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    }
}

// ---- Latte and GX: what a file holds, said plainly ----

#[test]
fn latte_gfd_with_a_program_block_but_no_header_says_so() {
    let f = corpus("latte/gfd/vertex-program.gsh");
    let out = shaderport(&["latte", "disasm", &f]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("; ======== vertex program (block 0) without a header block ========"), "{text}");
    assert!(text.contains("END_OF_PROGRAM"), "{text}");
    let out = shaderport(&["inspect", &f]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let g = &v["gfds"][0];
    assert_eq!(g["shaders"].as_array().unwrap().len(), 0);
    assert_eq!(g["programs_without_header"][0]["stage"], "vertex");
    assert_eq!(g["programs_without_header"][0]["block"], 0);
    assert_eq!(g["contents"], "vertex program block without a header block");
    let out = shaderport(&["latte", "disasm", "--json", &f]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["shaders"][0]["unpaired_block"], 0);
    assert_eq!(v["shaders"][0]["stage"], "vs");
}

#[test]
fn latte_gfd_with_a_header_but_no_program_block_says_so() {
    let f = corpus("latte/gfd/vertex-header.gsh");
    let out = shaderport(&["latte", "disasm", &f]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("; (no program block: the file has the vertex shader's header block only)"), "{text}");
    let out = shaderport(&["inspect", &f]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["gfds"][0]["shaders"][0]["has_program_block"], false);
    assert_eq!(v["gfds"][0]["contents"], "vertex shader header without a program block");
    let out = shaderport(&["latte", "disasm", &corpus("latte/gfd/header-only.gsh")]);
    assert!(stdout(&out).contains("(no shader: the file has no shader header or program block)"), "{}", stdout(&out));
}

#[test]
fn gx_tev_on_a_brres_names_the_job_it_expects() {
    let dir = temp_dir("tev-brres");
    let f = dir.join("model.brres");
    std::fs::write(&f, b"bres\xFE\xFF\x00\x00\x00\x00\x00\x40\x00\x10\x00\x01").unwrap();
    let out = shaderport(&["gx", "tev", f.to_str().unwrap()]);
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(e.contains("BRRES") && e.contains("JSON job") && e.contains("gx inspect"), "{e}");
    assert!(!e.contains("valid UTF-8"), "{e}");
}

#[test]
fn latte_extract_scan_reports_a_damaged_gfd_and_extracts_the_rest() {
    let dir = temp_dir("scan-damaged");
    let good = std::fs::read(corpus("latte/ClassiCube/coloured_none.gsh")).unwrap();
    let mut bad = good.clone();
    bad[0x20..0x24].copy_from_slice(b"XXXX");
    let mut bytes = vec![0u8; 16];
    bytes.extend_from_slice(&bad);
    bytes.extend_from_slice(&[0u8; 8]);
    bytes.extend_from_slice(&good);
    let f = dir.join("pack.bin");
    std::fs::write(&f, &bytes).unwrap();
    let out_dir = dir.join("out");
    let out = shaderport(&["latte", "extract", "--scan", f.to_str().unwrap(), "-o", out_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(e.contains("pack.bin: GFD magic at byte 0x10 skipped") && e.contains("block magic"), "{e}");
    assert_eq!(std::fs::read(out_dir.join("00000000.gsh")).unwrap(), good);
    // Nothing extractable: the error carries what was met.
    let f2 = dir.join("only-bad.bin");
    std::fs::write(&f2, &bad).unwrap();
    let out = shaderport(&["latte", "extract", "--scan", f2.to_str().unwrap(), "-o", out_dir.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("GFD magic at byte 0x0 skipped"), "{}", stderr(&out));
}

#[test]
fn latte_asm_inline_constants_flag_turns_float_zero_and_one_into_inline_constants() {
    let dir = temp_dir("asm-inline");
    let src = dir.join("p.txt");
    std::fs::write(&src, "00 ALU:\n      0  x: MUL R1.x, R0.x, 1.0f\n         y: ADD R1.y, R0.y, 0.0f\n01 EXP_DONE: POS0, R1\nEND_OF_PROGRAM\n")
        .unwrap();
    let words = |flag: Option<&str>| {
        let out = dir.join("p.bin");
        let mut args = vec!["latte", "asm", "--raw", src.to_str().unwrap(), "-o", out.to_str().unwrap()];
        args.extend(flag);
        let o = shaderport(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read(&out).unwrap()
    };
    let (slots, inline) = (words(None), words(Some("--inline-constants")));
    // ALU word 0 of the first instruction: SRC1_SEL (bits 21:13) is 253 (literal) or 249 (1.0).
    let w0 = |b: &[u8]| u32::from_le_bytes(b[256..260].try_into().unwrap());
    assert_eq!(w0(&slots) >> 13 & 0x1FF, 253);
    assert_eq!(w0(&inline) >> 13 & 0x1FF, 249);
    assert_ne!(slots, inline);
}

#[test]
fn latte_inspect_names_types_and_lists_registers_in_word_order() {
    let out = shaderport(&["inspect", &corpus("latte/ClassiCube/textured_exp.gsh")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let vs = &v["gfds"][0]["shaders"][0];
    assert_eq!(vs["attributes"][0]["type"], "FLOAT3");
    assert_eq!(vs["attributes"][0]["var_type"], 10);
    let ps = &v["gfds"][0]["shaders"][1];
    assert_eq!(ps["samplers"][0]["type"], "SAMPLER2D");
    let list = vs["register_list"].as_array().unwrap();
    let words: Vec<u64> = list.iter().map(|r| r["word"].as_u64().unwrap()).collect();
    assert!(words.windows(2).all(|w| w[0] < w[1]), "{words:?}");
    let names: Vec<&str> = list.iter().map(|r| r["name"].as_str().unwrap()).collect();
    let at = |n: &str| names.iter().position(|x| *x == n).unwrap();
    assert!(at("SQ_VTX_SEMANTIC[2]") < at("SQ_VTX_SEMANTIC[10]"));
    // The map keeps its keys and values.
    assert_eq!(vs["registers"]["SQ_VTX_SEMANTIC[10]"], list[at("SQ_VTX_SEMANTIC[10]")]["value"]);
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
fn translate_and_verify_take_a_gfd_and_name_the_stage_and_instruction_they_cannot_translate() {
    // librw's skin.gsh: a vertex and a pixel shader; its pixel shader samples a texture.
    let gsh = corpus("latte/librw/skin.gsh");
    for args in [TRANSLATE, VERIFY] {
        let err = refused(args, &gsh);
        assert!(!err.contains("not available yet"), "{err}");
        match args[0] {
            // One program per translation: the file's two shaders need --stage.
            "translate" => assert!(err.contains("vertex and pixel shaders: give --stage"), "{err}"),
            // Every shader is verified: the pixel shader's fetch clause is named.
            _ if err.contains("no Vulkan device") => {}
            _ => assert!(err.contains("pixel shader: CF ") && err.contains("TEX fetch"), "{err}"),
        }
    }
    let out = shaderport(&["translate", "--to", "glsl", "--stage", "vs", &gsh]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("GL_ARB_compute_shader"), "{}", stdout(&out));
    let err = refused(&["translate", "--to", "glsl", "--stage", "ps"], &gsh);
    assert!(err.contains("pixel shader: CF ") && err.contains("not translated yet: TEX fetch"), "{err}");
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
    // A BRRES goes to the BRRES reader: this one is truncated.
    assert!(err.contains("model.brres") && err.contains("byte offset"), "{err}");
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

// ---- pica cmdlist ----

fn cmdlist_file(dir: &std::path::Path, name: &str, words: &[u32]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    path.to_string_lossy().into_owned()
}

/// TexEnv0 source, a masked depth/colour mask write, the lighting LUT index with two data words
/// through consecutive ids, a vertex count, draw arrays, finalize.
const CMDLIST: &[u32] = &[
    0x000E_0003,
    0x000F_00C0,
    0x1F00,
    0x0003_0107,
    0x100,
    0x000F_01C5,
    0xA,
    0x801F_01C8,
    0xB,
    0,
    36,
    0x000F_0228,
    1,
    0x000F_022E,
    0x1234_5678,
    0x000F_0010,
];

#[test]
fn pica_cmdlist_prints_one_line_per_write_with_names_and_fields() {
    let dir = temp_dir("cmdlist-text");
    let file = cmdlist_file(&dir, "list.bin", CMDLIST);
    let out = shaderport(&["pica", "cmdlist", &file]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "{text}");
    assert!(lines[0].starts_with("000000: GPUREG_TEXENV0_SOURCE (0x0c0) = 0x000e0003  rgb0=texture0"), "{text}");
    assert!(lines[1].contains("GPUREG_DEPTH_COLOR_MASK (0x107) mask=0x3 = 0x00001f00"), "{text}");
    assert!(lines[2].contains("table=D1"), "{text}");
    assert!(lines[3].starts_with("000018: GPUREG_LIGHTING_LUT_DATA0 (0x1c8)"), "{text}");
    assert!(lines[4].starts_with("000018: GPUREG_LIGHTING_LUT_DATA1 (0x1c9)"), "{text}");
    assert!(lines[7].starts_with("000038: GPUREG_FINALIZE (0x010)"), "{text}");
}

#[test]
fn pica_cmdlist_json_lists_writes_with_fields() {
    let dir = temp_dir("cmdlist-json");
    let file = cmdlist_file(&dir, "list.bin", CMDLIST);
    let out = shaderport(&["pica", "cmdlist", &file, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let writes = v["writes"].as_array().unwrap();
    assert_eq!(writes.len(), 8);
    assert_eq!(writes[0]["name"], "GPUREG_TEXENV0_SOURCE");
    assert_eq!(writes[0]["fields"][3]["name"], "alpha0");
    assert_eq!(writes[0]["fields"][3]["meaning"], "constant");
    assert_eq!(writes[1]["mask"], 3);
    assert_eq!(writes[4]["alias_of"], 0x1C8);
    assert_eq!(writes[4]["offset"], 0x18);
}

#[test]
fn pica_cmdlist_state_prints_the_final_state_and_the_draws() {
    let dir = temp_dir("cmdlist-state");
    let file = cmdlist_file(&dir, "list.bin", CMDLIST);
    let out = shaderport(&["pica", "cmdlist", &file, "--state"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("lighting LUT D1: 2 entries"), "{text}");
    assert!(text.contains("draw 0: arrays at 0x000030, 36 vertices from 0, triangles"), "{text}");
    let out = shaderport(&["pica", "cmdlist", &file, "--state", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["lighting_luts"]["D1"][0], 0xA);
    assert_eq!(v["lighting_luts"]["D1"][1], 0xB);
    assert_eq!(v["draws"][0]["kind"], "arrays");
    assert_eq!(v["draws"][0]["vertex_count"], 36);
    assert_eq!(v["draws"][0]["vertex_input"]["attributes"][0]["type"], "byte");
    assert_eq!(v["finalized_at"][0], 0x38);
    let regs = v["registers"].as_array().unwrap();
    let mask = regs.iter().find(|r| r["name"] == "GPUREG_DEPTH_COLOR_MASK").unwrap();
    assert_eq!(mask["value"], 0x1F00);
}

#[test]
fn pica_cmdlist_errors_name_the_file_and_the_byte_offset() {
    let dir = temp_dir("cmdlist-error");
    // The second header announces three extra parameters; none follow.
    let file = cmdlist_file(&dir, "cut.bin", &[0, 0x000F_0010, 5, 0x003F_02CC]);
    let out = shaderport(&["pica", "cmdlist", &file]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains(&format!("{file}: byte offset 12:")), "{err}");
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, [0u8; 6]).unwrap();
    let out = shaderport(&["pica", "cmdlist", odd.to_str().unwrap(), "--state"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("odd.bin: byte offset 4: list length 6 is not a multiple of 4"), "{}", stderr(&out));
}

// ---- latte run: the reference interpreter (docs/latte-interp.md "Command line") ----

const LATTE_RUN_PROGRAM: &str = "00 ALU: KCACHE0(CB0:0-15)\n0 x: MUL R1.x, R0.x, KC0[0].x\n  y: ADD R1.y, R0.y, KC0[0].y\n  z: MOV R1.z, IMM_1.x\n  w: RECIP_IEEE R1.w, R0.z\n01 EXP_DONE: POS0, R1\n02 EXP_DONE: PARAM0, R0.xy01\nEND_OF_PROGRAM\n";

const LATTE_RUN_INPUT: &str = r#"{
  "uniform_blocks": { "0": [2.0, 0.5, 0, 0] },
  "invocations": [
    { "gprs": { "R0": [1.5, -1.0, 0.0, 0] } },
    { "gprs": { "R0": ["inf", 3.0, 4.0, "0x00000000"] } }
  ]
}"#;

fn latte_run_files(name: &str) -> (PathBuf, PathBuf) {
    let dir = temp_dir(name);
    let (txt, bin, input) = (dir.join("p.txt"), dir.join("p.bin"), dir.join("in.json"));
    std::fs::write(&txt, LATTE_RUN_PROGRAM).unwrap();
    std::fs::write(&input, LATTE_RUN_INPUT).unwrap();
    let out = shaderport(&["latte", "asm", "--raw", txt.to_str().unwrap(), "-o", bin.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    (bin, input)
}

#[test]
fn latte_run_prints_each_invocations_exports() {
    let (bin, input) = latte_run_files("latte-run");
    let out = shaderport(&["latte", "run", bin.to_str().unwrap(), "--stage", "vs", "--input", input.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let inv = v["invocations"].as_array().unwrap();
    assert_eq!(inv.len(), 2);
    assert_eq!(inv[0]["exports"]["pos0"], serde_json::json!([3.0, -0.5, 1.0, "inf"]));
    assert_eq!(inv[0]["exports"]["param0"], serde_json::json!([1.5, -1.0, 0.0, 1.0]));
    assert_eq!(inv[1]["exports"]["pos0"], serde_json::json!(["inf", 3.5, 1.0, 0.25]));
    assert_eq!(inv[1]["killed"], false);
    let out = shaderport(&[
        "latte",
        "run",
        bin.to_str().unwrap(),
        "--stage",
        "vs",
        "--input",
        input.to_str().unwrap(),
        "--hex",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["invocations"][0]["exports"]["pos0"][0], "0x40400000");
}

#[test]
fn latte_run_errors_name_the_file_and_the_instruction() {
    let (bin, input) = latte_run_files("latte-run-errors");
    std::fs::write(&input, r#"{ "invocations": [ { "gprs": { "R0": [1, 2, 3] } } ] }"#).unwrap();
    let out = shaderport(&["latte", "run", bin.to_str().unwrap(), "--stage", "vs", "--input", input.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("expected 4 values"), "{}", stderr(&out));
    // A pixel program that samples, without textures: the error names the fetch.
    let out = shaderport(&["latte", "run", &corpus("latte-mesa/gsh/t07_discard.gsh"), "--stage", "ps"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("t07_discard.gsh") && stderr(&out).contains("fetch 0"), "{}", stderr(&out));
}

#[test]
fn latte_run_geometry_program_lists_ring_writes_and_emits() {
    // corpus t18: a point expanded to a 4-vertex strip; its input vertex (position, colour)
    // comes from the ESGS ring, Mesa's buffer 17.
    let dir = temp_dir("latte-run-gs");
    let input = dir.join("in.json");
    std::fs::write(
        &input,
        r#"{ "uniform_blocks": {"0": [0.5, 0.25, 0, 0]},
             "buffers": {"17": {"stride": 16, "words": [1.0, 2.0, 3.0, 1.0, 0.5, 0.5, 0.5, 1.0]}},
             "invocations": [{"gprs": {"R0": [0, 0, 3, 0]}}] }"#,
    )
    .unwrap();
    let gsh = corpus("latte-mesa/gsh/t18_gs_points.gsh");
    let out = shaderport(&["latte", "run", &gsh, "--stage", "gs", "--input", input.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let inv = &v["invocations"][0];
    let events: Vec<&str> = inv["gs_events"].as_array().unwrap().iter().map(|e| e["event"].as_str().unwrap()).collect();
    assert_eq!(events, ["emit", "emit", "emit", "emit", "cut"]);
    // gl_Position of the first vertex: c + (-u_size.x, -u_size.y, 0, 0).
    let first_pos = inv["mem_writes"].as_array().unwrap().iter().find(|m| m["addr"] == 0).unwrap();
    assert_eq!(first_pos["value"], serde_json::json!([0.5, 1.75, 3.0, 1.0]));
    // The .gsh's copy program ran once per EMIT_VERTEX: the vertices and their strip.
    assert_eq!(inv["vertices"].as_array().unwrap().len(), 4);
    assert_eq!(inv["strips"], serde_json::json!([[0, 1, 2, 3]]));
    assert_eq!(inv["vertices"][0]["exports"]["pos0"], serde_json::json!([0.5, 1.75, 3.0, 1.0]));
}

#[test]
fn latte_run_on_a_truncated_gfd_names_the_offset() {
    let dir = temp_dir("latte-run-truncated");
    let full = std::fs::read(corpus("latte/ClassiCube/textured_exp.gsh")).unwrap();
    let path = dir.join("truncated.gsh");
    std::fs::write(&path, &full[..40]).unwrap();
    let out = shaderport(&["latte", "run", path.to_str().unwrap(), "--stage", "ps"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("truncated.gsh") && err.contains("byte offset 0x28") && err.contains("truncated"), "{err}");
}

// ---- smdh (docs/smdh.md) ----

/// A 48x48 RGB PNG whose colours are all RGB565 levels widened to 8 bits.
fn smdh_test_png(dir: &std::path::Path) -> (PathBuf, Vec<[u8; 3]>) {
    let widen5 = |v: u32| ((v << 3) | (v >> 2)) as u8;
    let widen6 = |v: u32| ((v << 2) | (v >> 4)) as u8;
    let pixels: Vec<[u8; 3]> =
        (0..48 * 48u32).map(|i| [widen5(i % 32), widen6((i / 7) % 64), widen5((i / 48) % 32)]).collect();
    let path = dir.join("icon.png");
    let file = std::fs::File::create(&path).unwrap();
    let mut enc = png::Encoder::new(file, 48, 48);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header().unwrap().write_image_data(pixels.as_flattened()).unwrap();
    (path, pixels)
}

fn read_png_rgb(path: &std::path::Path) -> (u32, Vec<u8>) {
    let dec = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, buf)
}

fn smdh_make(dir: &std::path::Path, extra: &[&str]) -> (String, Vec<[u8; 3]>) {
    let (png, pixels) = smdh_test_png(dir);
    let out = dir.join("out.smdh").to_string_lossy().into_owned();
    let mut args = vec!["smdh", "make", "--icon", png.to_str().unwrap(), "--title", "Cube", "--publisher", "Someone"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-o", &out]);
    let run = shaderport(&args);
    assert!(run.status.success(), "{}", stderr(&run));
    (out, pixels)
}

#[test]
fn smdh_make_then_list_shows_the_title_and_the_same_icon() {
    let dir = temp_dir("smdh-make");
    let (file, pixels) = smdh_make(&dir, &["--description", "A spinning cube"]);
    assert_eq!(std::fs::metadata(&file).unwrap().len(), 0x36C0);
    let big = dir.join("big.png");
    let small = dir.join("small.png");
    let out = shaderport(&["smdh", &file, "--icon", big.to_str().unwrap(), "--small-icon", small.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("title (all languages): \"Cube\" / \"A spinning cube\" / \"Someone\""), "{text}");
    assert!(text.contains("region lockout: 0x7fffffff (region free)"), "{text}");
    assert!(!text.contains("unused12"), "{text}");
    let (w, data) = read_png_rgb(&big);
    assert_eq!(w, 48);
    assert_eq!(data, pixels.as_flattened());
    assert_eq!(read_png_rgb(&small).0, 24);
}

#[test]
fn smdh_json_lists_every_language_and_the_settings() {
    let dir = temp_dir("smdh-json");
    let (file, _) = smdh_make(&dir, &[]);
    let out = shaderport(&["smdh", &file, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["titles"]["japanese"]["short_description"], "Cube");
    // Without --description the long description is the title.
    assert_eq!(v["titles"]["traditional_chinese"]["long_description"], "Cube");
    assert_eq!(v["titles"]["english"]["publisher"], "Someone");
    assert_eq!(v["region_lockout"]["region_free"], true);
    assert_eq!(v["flags"]["names"][0], "visible");
    assert_eq!(v["ratings"][0]["board"], "CERO");
    let out = shaderport(&["inspect", &file]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["format"], "SMDH");
    assert_eq!(v["title"], "Cube");
}

#[test]
fn smdh_a_file_named_make_is_listed_through_its_path() {
    let dir = temp_dir("smdh-named-make");
    let (file, _) = smdh_make(&dir, &[]);
    std::fs::copy(&file, dir.join("make")).unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_shaderport")).args(["smdh", "./make"]).current_dir(&dir).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("./make: SMDH version 0"), "{}", stdout(&out));
}

#[test]
fn smdh_wrong_and_truncated_files_name_the_offset_and_fail() {
    let dir = temp_dir("smdh-bad");
    let (file, _) = smdh_make(&dir, &[]);
    let bytes = std::fs::read(&file).unwrap();
    let cut = write_temp("cut.smdh", &bytes[..0x2100]);
    for args in [vec!["smdh", cut.as_str()], vec!["inspect", cut.as_str()]] {
        let out = shaderport(&args);
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(err.contains(&format!("{cut}: byte offset 8448: file ends after 8448 bytes")), "{err}");
    }
    let shbin = corpus(&format!("{SIMPLE_TRI_GOLDEN}.shbin"));
    let out = shaderport(&["smdh", &shbin]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("byte offset 0: magic"), "{}", stderr(&out));
    // A PNG that is not one, and a title that does not fit.
    let out = shaderport(&["smdh", "make", "--icon", &file, "--title", "t", "--publisher", "p", "-o", "/dev/null"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains(&format!("{file}: not a readable PNG")), "{}", stderr(&out));
    let (png, _) = smdh_test_png(&dir);
    let long = "x".repeat(65);
    let out = shaderport(&[
        "smdh",
        "make",
        "--icon",
        png.to_str().unwrap(),
        "--title",
        &long,
        "--publisher",
        "p",
        "-o",
        "/dev/null",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("takes 65 UTF-16 units, the field holds 64"), "{}", stderr(&out));
}

// ---- pica cmdlist --trace: CiTrace (docs/pica-citrace.md) ----

/// A two-frame trace: frame 0 runs the CMDLIST above from physical 0x18000000 (the size
/// register in bytes, as Citra writes it), frame 1 writes a register straight from the CPU.
fn citrace_file(name: &str) -> (String, Vec<u8>) {
    use pica::state::citrace::{Element, LoadData, MemoryLoad, RegisterWrite, Trace};
    let list: Vec<u8> = CMDLIST.iter().flat_map(|w| w.to_le_bytes()).collect();
    let reg = |id: u32, v: u32| Element::RegisterWrite(RegisterWrite::u32(0x1040_1000 + 4 * id, v));
    let trace = Trace {
        stream: vec![
            Element::MemoryLoad(MemoryLoad {
                physical_address: 0x1800_0000,
                data: LoadData::new(list.clone()),
                pad: 0,
            }),
            reg(0x23A, 0x1800_0000 >> 3),
            reg(0x238, list.len() as u32),
            reg(0x23C, 1),
            Element::FrameMarker,
            reg(0x0C1, 0x1234),
            Element::RegisterWrite(RegisterWrite::u32(0x1040_0010, 7)),
            Element::FrameMarker,
        ],
        ..Trace::default()
    };
    let bytes = trace.to_bytes().unwrap();
    (write_temp(name, &bytes), bytes)
}

#[test]
fn pica_cmdlist_trace_lists_writes_loads_and_frames() {
    let (file, _) = citrace_file("two-frames.ctf");
    let out = shaderport(&["pica", "cmdlist", &file, "--trace"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].ends_with(": memory load 0x18000000, 64 bytes"), "{text}");
    assert!(lines[3].contains("GPUREG_CMDBUF_JUMP0 (0x23c) = 0x00000001"), "{text}");
    assert!(lines[4].ends_with(": command list 0x18000000, 64 bytes (GPUREG_CMDBUF_JUMP0)"), "{text}");
    // The list's writes print as for a raw list, at their offset in the trace file.
    assert!(lines[5].contains(": GPUREG_TEXENV0_SOURCE (0x0c0) = 0x000e0003  rgb0=texture0"), "{text}");
    assert!(lines[6].contains("GPUREG_DEPTH_COLOR_MASK (0x107) mask=0x3 = 0x00001f00"), "{text}");
    assert!(lines[12].contains("GPUREG_FINALIZE (0x010)"), "{text}");
    assert!(lines[13].ends_with(": end of frame 0"), "{text}");
    assert!(lines[14].contains("GPUREG_TEXENV0_OPERAND (0x0c1) = 0x00001234"), "{text}");
    assert!(lines[15].ends_with(": register 0x10400010 (32-bit) = 0x00000007"), "{text}");
    assert!(lines[16].ends_with(": end of frame 1"), "{text}");
    assert_eq!(lines.len(), 17, "{text}");
    // The offset of the list's first write is the list data's place in the file (0x64, right
    // after the header: the trace has no initial state).
    assert!(lines[5].starts_with("000064: "), "{text}");

    let out = shaderport(&["pica", "cmdlist", &file, "--trace", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["format"], "CiTrace");
    let events = v["events"].as_array().unwrap();
    assert_eq!(events.len(), 17);
    assert_eq!(events[5]["kind"], "register");
    assert_eq!(events[5]["name"], "GPUREG_TEXENV0_SOURCE");
    assert_eq!(events[5]["fields"][3]["meaning"], "constant");
    assert_eq!(events[5]["list_address"], 0x1800_0000);
    assert_eq!(events[14]["list_address"], serde_json::Value::Null);
    assert_eq!(events[13]["kind"], "frame_end");
    assert_eq!(events[4]["kind"], "command_list");
}

#[test]
fn pica_cmdlist_trace_state_prints_the_final_state_draws_and_frames() {
    let (file, _) = citrace_file("state.ctf");
    let out = shaderport(&["pica", "cmdlist", &file, "--trace", "--state"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("lighting LUT D1: 2 entries"), "{text}");
    assert!(text.contains("draw 0: arrays at 0x000094, 36 vertices from 0, triangles"), "{text}");
    assert!(text.contains("GPUREG_TEXENV0_OPERAND (0x0c1) = 0x00001234"), "{text}");
    assert!(text.contains("2 frames\n  frame 0: 1 draws (0-0)\n  frame 1: 0 draws\n"), "{text}");
    assert!(text.contains("1 command lists run, 1 memory loads, 1 other register writes"), "{text}");
    let out = shaderport(&["pica", "cmdlist", &file, "--trace", "--state", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["draws"][0]["vertex_count"], 36);
    assert_eq!(v["lighting_luts"]["D1"][1], 0xB);
    assert_eq!(v["frames"][0]["draws"], serde_json::json!([0, 1]));
    assert_eq!(v["trace"]["command_lists_run"], 1);

    let out = shaderport(&["inspect", &file]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["format"], "CiTrace");
    assert_eq!(v["frames"], 2);
    assert_eq!(v["draws"], 1);
    assert_eq!(v["memory_loads"], 1);
}

#[test]
fn pica_cmdlist_trace_wrong_and_truncated_files_name_the_offset_and_fail() {
    let (_, bytes) = citrace_file("for-cut.ctf");
    let cut = write_temp("cut.ctf", &bytes[..bytes.len() - 3]);
    for args in [vec!["pica", "cmdlist", cut.as_str(), "--trace"], vec!["inspect", cut.as_str()]] {
        let out = shaderport(&args);
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(err.contains(&format!("{cut}: byte offset 92: stream of 8 elements")), "{err}");
    }
    let header = write_temp("header.ctf", &bytes[..40]);
    let out = shaderport(&["pica", "cmdlist", &header, "--trace", "--state"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("byte offset 40: file ends inside the 100-byte header"), "{}", stderr(&out));
    let shbin = corpus(&format!("{SIMPLE_TRI_GOLDEN}.shbin"));
    let out = shaderport(&["pica", "cmdlist", &shbin, "--trace"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("byte offset 0: magic"), "{}", stderr(&out));
    // Without --trace a CiTrace is read as raw words; the error says what the file looks like.
    let whole = write_temp("whole.ctf", &bytes);
    let out = shaderport(&["pica", "cmdlist", &whole]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("add --trace"), "{}", stderr(&out));
}

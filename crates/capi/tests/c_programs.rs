//! The C program (examples/translate.c, static library), the C++ program (examples/translate.cpp,
//! shared library) and the complete example of docs/capi.md build with the system compilers
//! against include/shaderport.h, run on corpus shaders, and write SPIR-V that spirv-val accepts.

use std::path::{Path, PathBuf};
use std::process::Command;

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The folder holding the libshaderport this test was built with (cargo builds the cdylib and
/// staticlib beside the test's own dependencies).
fn lib_dir() -> PathBuf {
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    for name in ["libshaderport.a", "libshaderport.so"] {
        assert!(deps.join(name).exists(), "{name} not built in {}", deps.display());
    }
    deps
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

/// Builds a C or C++ source against the static (`static_link`) or shared library.
fn build(compiler: &str, std: &str, source: &Path, exe: &Path, static_link: bool) {
    let lib = lib_dir();
    let mut cmd = Command::new(compiler);
    cmd.arg(format!("-std={std}"))
        .args(["-Wall", "-Wextra", "-Werror", "-pedantic"])
        .arg("-I")
        .arg(manifest().join("include"))
        .arg(source)
        .arg("-o")
        .arg(exe);
    if static_link {
        // What a Rust static library needs from the C runtime on Linux (rustc
        // --print native-static-libs).
        cmd.arg(lib.join("libshaderport.a")).args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"]);
    } else {
        cmd.arg("-L").arg(&lib).arg("-lshaderport").arg(format!("-Wl,-rpath,{}", lib.display()));
    }
    run(&mut cmd);
}

fn spirv_val(file: &Path) {
    let bytes = std::fs::read(file).unwrap();
    assert_eq!(&bytes[..4], &[0x03, 0x02, 0x23, 0x07], "{} is not SPIR-V", file.display());
    if let Some(err) = testkit::spirv_val(file) {
        panic!("spirv-val rejects {}: {err}", file.display());
    }
}

fn tools() {
    for tool in ["cc", "c++", "spirv-val"] {
        assert!(testkit::tool(tool), "{tool} is not installed (scripts/test installs gcc, g++ and spirv-tools)");
    }
}

/// The first vertex program of a corpus .gsh.
fn latte_vertex_program(name: &str) -> Vec<u8> {
    let bytes = std::fs::read(testkit::corpus(&format!("latte-mesa/gsh/{name}.gsh"))).unwrap();
    let shaders = latte::gfd::GfdFile::parse(&bytes).unwrap().shaders().unwrap();
    shaders.into_iter().find(|s| s.header.stage == latte::gfd::Stage::Vertex).unwrap().program.unwrap()
}

#[test]
fn the_c_program_writes_valid_spirv() {
    tools();
    let dir = testkit::temp_dir("capi-c");
    let exe = dir.join("translate_c");
    build("cc", "c99", &manifest().join("examples/translate.c"), &exe, true);
    // Latte: a .gsh whose pixel shader translates, and the vertex program bytes of another.
    let gsh = testkit::corpus("latte-mesa/gsh/t10_ubo_multi.gsh");
    let latte_bin = dir.join("t30_vs_loop_branch.vs.bin");
    let vertex = latte_vertex_program("t30_vs_loop_branch");
    std::fs::write(&latte_bin, &vertex).unwrap();
    for shader in
        ["citro2d__source__render2d.v.pica", "3ds-examples__graphics__gpu__particles__source__particle.g.pica"]
    {
        let shbin = testkit::corpus(&format!("pica/golden/{shader}.shbin"));
        let out = dir.join(shader);
        std::fs::create_dir_all(&out).unwrap();
        let text = run(Command::new(&exe).arg(&shbin).arg(&out).arg(dir.join("cache")).arg(&gsh).arg(&latte_bin));
        assert!(text.contains("refused: entry point 99 is outside the program"), "{text}");
        spirv_val(&out.join("shbin.spv"));
        spirv_val(&out.join("words.spv"));
        spirv_val(&out.join("fragment.spv"));
        assert!(text.contains("lit fragment: translated"), "{text}");
        spirv_val(&out.join("fragment_lit.spv"));
        spirv_val(&out.join("latte_gsh.spv"));
        spirv_val(&out.join("latte.spv"));
        assert!(text.contains("unsupported: Latte geometry programs are not translated yet"), "{text}");
        // The same bytes as the Rust API (loop constant 0 set as the program sets it).
        let prog = latte::isa::Program::decode_bytes(&vertex, 0).unwrap();
        let options =
            translate::latte::Options { loop_consts: [(0, 3 | 1 << 24)].into_iter().collect(), ..Default::default() };
        let want = translate::latte::translate(&prog, translate::latte::Stage::Vertex, &options).unwrap();
        let want = want.write(translate::Target::SpirV).unwrap().to_bytes();
        assert!(std::fs::read(out.join("latte.spv")).unwrap() == want, "{shader}: latte.spv differs from the Rust API");
        // The same bytes as the Rust API.
        let shbin = pica::shbin::Shbin::read(&std::fs::read(&shbin).unwrap()).unwrap();
        let want = translate::pica::translate(&shbin, 0, Default::default()).unwrap().spirv().unwrap();
        let want: Vec<u8> = want.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(std::fs::read(out.join("shbin.spv")).unwrap(), want, "{shader}");
    }
}

#[test]
fn the_cpp_program_writes_valid_spirv() {
    tools();
    let dir = testkit::temp_dir("capi-cpp");
    let _ = std::fs::remove_dir_all(dir.join("cache"));
    let exe = dir.join("translate_cpp");
    build("c++", "c++17", &manifest().join("examples/translate.cpp"), &exe, false);
    let shbin = testkit::corpus("pica/golden/3ds-examples__graphics__gpu__lenny__source__vshader.v.pica.shbin");
    let gsh = testkit::corpus("latte-mesa/gsh/t30_vs_loop_branch.gsh");
    let text = run(Command::new(&exe).arg(&shbin).arg(&dir).arg(dir.join("cache")).arg(&gsh));
    assert!(text.contains("3 hits, 4 misses, 4 writes"), "{text}");
    spirv_val(&dir.join("latte.spv"));
    spirv_val(&dir.join("shbin.spv"));
    spirv_val(&dir.join("tev.spv"));
    spirv_val(&dir.join("fragment.spv"));
}

#[test]
fn the_documented_example_builds_and_runs() {
    tools();
    let doc = std::fs::read_to_string(manifest().join("../../docs/capi.md")).unwrap();
    let start = doc.find("```c\n").expect("a C block in docs/capi.md") + 5;
    let end = start + doc[start..].find("```").unwrap();
    let dir = testkit::temp_dir("capi-doc");
    let source = dir.join("example.c");
    std::fs::write(&source, &doc[start..end]).unwrap();
    let exe = dir.join("example");
    build("cc", "c11", &source, &exe, true);
    let gsh = testkit::corpus("latte-mesa/gsh/t10_ubo_multi.gsh");
    let text = run(Command::new(&exe).arg(&dir).arg(&gsh));
    assert!(text.contains("fragment: texture units 0x1, inputs 0x7, 60640 uniform bytes"), "{text}");
    for name in ["vertex.spv", "fragment.spv", "latte.spv"] {
        spirv_val(&dir.join(name));
    }
}

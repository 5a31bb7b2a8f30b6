//! Latte translation: every vertex and pixel program of corpus/latte and corpus/latte-mesa and
//! `latte::smith` programs either translate to a module naga validates and every back end
//! writes, or name what is not translated yet (TEX fetches). LATTE_TRANSLATE_PROGRAMS sets the
//! number of smith programs (quick tier 50, full 1,000; docs/testing.md).

use arbitrary::Unstructured;
use latte::gfd::{GfdFile, Stage as GStage};
use latte::isa::Program;
use latte::smith::seeded_bytes as bytes;
use translate::latte::{translate, Options, Stage};
use translate::{Error, Target};

fn corpus_programs() -> Vec<(String, Stage, Program)> {
    let mut out = Vec::new();
    let mut files = testkit::walk(&testkit::corpus("latte"), "gsh");
    files.extend(testkit::walk(&testkit::corpus("latte-mesa"), "gsh"));
    for f in files {
        let gfd = GfdFile::parse(&std::fs::read(&f).unwrap()).unwrap();
        for (k, s) in gfd.shaders().unwrap().into_iter().enumerate() {
            let stage = match s.header.stage {
                GStage::Vertex => Stage::Vertex,
                GStage::Pixel => Stage::Pixel,
                GStage::Geometry => continue,
            };
            let Some(bytes) = s.program else { continue };
            let p = Program::decode_bytes(&bytes, s.program_offset).unwrap();
            out.push((format!("{}#{k}", f.display()), stage, p));
        }
    }
    out
}

/// Where the SPIR-V and GLSL files of a test go, for spirv-val and glslangValidator.
struct Files {
    dir: std::path::PathBuf,
    spv: Vec<std::path::PathBuf>,
    glsl: Vec<std::path::PathBuf>,
}

impl Files {
    fn new(name: &str) -> Files {
        Files { dir: testkit::temp_dir(name), spv: Vec::new(), glsl: Vec::new() }
    }

    /// Runs spirv-val on every SPIR-V file and glslangValidator on every GLSL file (when the
    /// tools are installed; CI requires them).
    fn validate(&self) {
        if testkit::tool("spirv-val") {
            for f in &self.spv {
                assert_eq!(testkit::spirv_val(f), None);
            }
        }
        if testkit::tool("glslangValidator") {
            for chunk in self.glsl.chunks(64) {
                assert_eq!(testkit::glslang(chunk), None);
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn check(name: &str, p: &Program, stage: Stage, options: &Options, files: &mut Files) -> bool {
    match translate(p, stage, options) {
        Ok(t) => {
            for target in Target::ALL {
                let out = t.write(target).unwrap_or_else(|e| panic!("{name}: {target:?}: {e}"));
                let k = files.spv.len() + files.glsl.len();
                match target {
                    Target::SpirV => {
                        let f = files.dir.join(format!("{k}.spv"));
                        std::fs::write(&f, out.to_bytes()).unwrap();
                        files.spv.push(f);
                    }
                    Target::Glsl => {
                        let f = files.dir.join(format!("{k}.comp"));
                        std::fs::write(&f, out.to_bytes()).unwrap();
                        files.glsl.push(f);
                    }
                    _ => {}
                }
            }
            true
        }
        Err(Error::LatteUnsupported { .. }) => false,
        Err(e) => {
            let mut s = format!("{name}: {e}");
            let mut src = std::error::Error::source(&e);
            while let Some(x) = src {
                s += &format!(": {x}");
                src = x.source();
            }
            panic!("{s}")
        }
    }
}

#[test]
fn corpus_programs_translate_and_validate() {
    let progs = corpus_programs();
    let mut ok = 0;
    let mut files = Files::new("latte-corpus");
    for (name, stage, p) in &progs {
        ok += check(name, p, *stage, &Options::default(), &mut files) as usize;
    }
    files.validate();
    eprintln!("{ok} of {} corpus vertex/pixel programs translated (the rest use TEX fetches)", progs.len());
    assert!(progs.len() > 50 && ok > 0);
}

#[test]
fn smith_programs_translate_and_validate() {
    let count = testkit::count("LATTE_TRANSLATE_PROGRAMS", if testkit::quick() { 50 } else { 1_000 });
    let mut ok = 0;
    let mut n = 0;
    let mut files = Files::new("latte-smith");
    for seed in 0..count {
        let data = bytes(seed, 4096);
        let mut u = Unstructured::new(&data);
        let sp = latte::smith::program(&mut u, &latte::smith::Config::default()).unwrap();
        let stage = match sp.stage {
            latte::interp::Stage::Pixel => Stage::Pixel,
            _ => Stage::Vertex,
        };
        let options = Options { loop_consts: sp.loop_consts.clone(), ..Options::default() };
        n += 1;
        ok += check(&format!("smith seed {seed}"), &sp.program, stage, &options, &mut files) as usize;
    }
    files.validate();
    eprintln!("{ok} of {n} smith programs translated (the rest use TEX fetches)");
    assert!(ok > 0);
}

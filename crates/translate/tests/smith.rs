//! 10,000 random programs of `pica::smith` (fixed seeds 0..10,000, one in five a geometry
//! shader) translate to every back end; naga validates every module, spirv-val accepts every
//! SPIR-V file and glslangValidator every GLSL 450 and GLSL ES 310 file.
//!
//! The external tools run after the translations: spirv-val once per file on every core, and
//! glslangValidator on batches of files (one process compiles each file of its command line as
//! its own unit; its start-up, about 0.1 s, would otherwise dominate).

use std::path::PathBuf;

use testkit::{glslang, par_map, spirv_val, tool};

use pica::smith::{generate, Config};
use translate::pica::{translate, FlowKind, Options};
use translate::{Output, Precision, Target};

/// Programs of the full run; `scripts/test --quick` translates a tenth.
const PROGRAMS: u64 = 10_000;
/// Files per glslangValidator process.
const GLSLANG_BATCH: usize = 250;

#[test]
fn ten_thousand_smith_programs_translate_to_every_backend() {
    let programs = if testkit::quick() { PROGRAMS / 10 } else { PROGRAMS };
    let check_spv = tool("spirv-val");
    let check_glsl = tool("glslangValidator");
    let dir = testkit::temp_dir("translate-smith");
    let seeds: Vec<u64> = (0..programs).collect();
    // Translation on every core too; each program gives its flow kind and the files it wrote.
    let written = par_map(&seeds, |&seed| {
        let config = Config { geometry: seed % 5 == 0, ..Config::default() };
        let shbin = generate(seed, &config).to_shbin();
        // Precision and flow alternate so every combination is covered many times.
        let precision = [Precision::Compat, Precision::Exact, Precision::Fast][(seed % 3) as usize];
        let dispatch_only = seed % 7 == 0;
        let compute_wrapper = seed % 2 == 0;
        let t = translate(&shbin, 0, Options { precision, dispatch_only, compute_wrapper })
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let stage = if t.entry().0 == naga::ShaderStage::Vertex { "vert" } else { "comp" };
        let mut files = Vec::new();
        for target in Target::ALL {
            let out = t.write(target).unwrap_or_else(|e| panic!("seed {seed} {}: {e}", target.name()));
            let file = match (&out, target) {
                (Output::Words(_), Target::SpirV) if check_spv => dir.join(format!("{seed}.spv")),
                (Output::Text(_), Target::Glsl) if check_glsl => dir.join(format!("{seed}.{stage}")),
                (Output::Text(_), Target::GlslEs) if check_glsl => dir.join(format!("{seed}.es.{stage}")),
                _ => continue,
            };
            std::fs::write(&file, out.to_bytes()).unwrap();
            files.push((target, file));
        }
        (format!("{:?}", t.interface().flow), files)
    });
    let mut kinds = std::collections::BTreeMap::new();
    let (mut spv_files, mut glsl_files) = (Vec::new(), Vec::new());
    for (kind, files) in written {
        *kinds.entry(kind).or_insert(0u32) += 1;
        for (target, file) in files {
            if target == Target::SpirV {
                spv_files.push(file)
            } else {
                glsl_files.push(file)
            }
        }
    }
    eprintln!("smith flow kinds: {kinds:?}");
    // The generator makes structured programs; most must take the structured path.
    assert!(
        kinds.get(&format!("{:?}", FlowKind::Structured)).is_some_and(|&n| n as u64 > programs * 3 / 10),
        "{kinds:?}"
    );

    if check_spv {
        let failures: Vec<String> = par_map(&spv_files, |f| spirv_val(f)).into_iter().flatten().collect();
        assert!(failures.is_empty(), "spirv-val rejected {} files; first: {}", failures.len(), failures[0]);
        assert_eq!(spv_files.len() as u64, programs);
        eprintln!("spirv-val accepted {} SPIR-V files", spv_files.len());
    }
    if check_glsl {
        let batches: Vec<&[PathBuf]> = glsl_files.chunks(GLSLANG_BATCH).collect();
        let failures: Vec<String> = par_map(&batches, |b| glslang(b)).into_iter().flatten().collect();
        assert!(failures.is_empty(), "glslangValidator failed {} batches; first: {}", failures.len(), failures[0]);
        assert_eq!(glsl_files.len() as u64, 2 * programs);
        eprintln!("glslangValidator accepted {} GLSL files (450 and ES 310)", glsl_files.len());
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The batch check fails when one file of a batch is bad (it could not, if glslangValidator
/// stopped at the first file or ignored later ones).
#[test]
fn a_bad_file_fails_its_glslang_batch() {
    if !tool("glslangValidator") {
        return;
    }
    let dir = testkit::temp_dir("translate-glslang");
    let good = "#version 450\nvoid main() { gl_Position = vec4(1.0); }\n";
    let bad = "#version 450\nvoid main() { gl_Position = undefined_name; }\n";
    let files: Vec<PathBuf> = (0..3).map(|k| dir.join(format!("{k}.vert"))).collect();
    for (k, f) in files.iter().enumerate() {
        std::fs::write(f, if k == 2 { bad } else { good }).unwrap();
    }
    assert!(glslang(&files[..2]).is_none());
    let failure = glslang(&files).expect("the bad last file fails the batch");
    assert!(failure.contains("undefined_name"), "{failure}");
    std::fs::remove_dir_all(&dir).ok();
}

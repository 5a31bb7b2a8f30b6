//! 10,000 random programs of `pica::smith` (fixed seeds 0..10,000, one in five a geometry
//! shader) translate to every back end, and naga validates every module; a sample of the SPIR-V
//! goes through spirv-val and of the GLSL through glslangValidator.

use std::process::Command;

use pica::smith::{generate, Config};
use translate::pica::{translate, FlowKind, Options};
use translate::{backend, Output, Precision, Target};

fn tool(name: &str) -> bool {
    let ok = Command::new(name).arg("--version").output().is_ok();
    if !ok && (std::env::var_os("SHADERPORT_REQUIRE_GPU").is_some() || std::env::var_os("CI").is_some()) {
        panic!("{name} is not installed (scripts/test installs it)");
    }
    ok
}

#[test]
fn ten_thousand_smith_programs_translate_to_every_backend() {
    let spirv_val = tool("spirv-val");
    let glslang = tool("glslangValidator");
    let dir = std::env::temp_dir().join(format!("translate-smith-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut kinds = std::collections::BTreeMap::new();
    let (mut checked_spv, mut checked_glsl) = (0, 0);
    for seed in 0..10_000u64 {
        let config = Config { geometry: seed % 5 == 0, ..Config::default() };
        let shbin = generate(seed, &config).to_shbin();
        // Precision and flow alternate so every combination is covered many times.
        let precision = [Precision::Compat, Precision::Exact, Precision::Fast][(seed % 3) as usize];
        let dispatch_only = seed % 7 == 0;
        let t = translate(&shbin, 0, Options { precision, dispatch_only })
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        *kinds.entry(format!("{:?}", t.interface.flow)).or_insert(0u32) += 1;
        let info = backend::validate(&t.module).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        for target in Target::ALL {
            let out = backend::write_validated(&t.module, &info, target, t.entry(), precision)
                .unwrap_or_else(|e| panic!("seed {seed} {}: {e}", target.name()));
            match (&out, target) {
                (Output::Words(_), Target::SpirV) if spirv_val && seed % 50 == 0 => {
                    let f = dir.join(format!("{seed}.spv"));
                    std::fs::write(&f, out.to_bytes()).unwrap();
                    let o = Command::new("spirv-val").args(["--target-env", "vulkan1.1"]).arg(&f).output().unwrap();
                    assert!(o.status.success(), "seed {seed}: {}", String::from_utf8_lossy(&o.stderr));
                    checked_spv += 1;
                }
                (Output::Text(text), Target::Glsl) if glslang && seed % 100 == 0 => {
                    let stage = if t.entry().0 == naga::ShaderStage::Vertex { "vert" } else { "comp" };
                    let f = dir.join(format!("{seed}.{stage}"));
                    std::fs::write(&f, text).unwrap();
                    let o = Command::new("glslangValidator").arg("-V").arg("-o").arg(dir.join("g.spv")).arg(&f).output().unwrap();
                    assert!(o.status.success(), "seed {seed}: {}", String::from_utf8_lossy(&o.stdout));
                    checked_glsl += 1;
                }
                _ => {}
            }
        }
    }
    eprintln!("smith flow kinds: {kinds:?}; spirv-val {checked_spv}, glslangValidator {checked_glsl}");
    // The generator makes structured programs; most must take the structured path.
    assert!(kinds.get(&format!("{:?}", FlowKind::Structured)).is_some_and(|&n| n > 3_000), "{kinds:?}");
    if spirv_val {
        assert_eq!(checked_spv, 200);
    }
    if glslang {
        assert_eq!(checked_glsl, 100);
    }
}

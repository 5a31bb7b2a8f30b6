//! The Latte part of the demo: GX2 shaders of real homebrew (corpus/latte, built by decaf-emu's
//! latte-assembler; provenance in corpus/latte/SOURCES.md), assembled from their sources to the
//! same GFD bytes, then disassembled and reassembled to the same program words; and one of them
//! (MultiDRC colorShader, no fetch clauses) translated per stage to every back end.

use std::fmt::Write;
use std::time::Instant;

use latte::asm::{assemble, assemble_gfd};
use latte::gfd::{GfdFile, Stage};

/// A sample: a name, the vertex and pixel sources, and the GFD the project's own build wrote.
struct Sample {
    name: &'static str,
    vsh: &'static str,
    psh: &'static str,
    gsh: &'static [u8],
}

const SAMPLES: &[Sample] = &[
    Sample {
        name: "ClassiCube textured_exp",
        vsh: include_str!("../../../../corpus/latte/ClassiCube/asm/vs_textured.vsh"),
        psh: include_str!("../../../../corpus/latte/ClassiCube/asm/ps_textured_exp.psh"),
        gsh: include_bytes!("../../../../corpus/latte/ClassiCube/textured_exp.gsh"),
    },
    Sample {
        name: "MultiDRC textureShader",
        vsh: include_str!("../../../../corpus/latte/MultiDRCSpaceDemo/asm/textureShader.vsh"),
        psh: include_str!("../../../../corpus/latte/MultiDRCSpaceDemo/asm/textureShader.psh"),
        gsh: include_bytes!("../../../../corpus/latte/MultiDRCSpaceDemo/textureShader.gsh"),
    },
];

/// Assembles, compares and round-trips each sample; one table row each. True when a check failed.
pub fn demo(table: &mut String) -> bool {
    let _ = writeln!(
        table,
        "\n{:<24} {:>7} {:>6} {:>10}  {:<10} {:<10}",
        "latte sample", "shaders", "words", "time", "asm==gsh", "disasm"
    );
    let mut failed = false;
    for s in SAMPLES {
        let t0 = Instant::now();
        let built = assemble_gfd(Some(s.vsh), Some(s.psh));
        let elapsed = t0.elapsed();
        let (asm, words, shaders) = match &built {
            Ok(gfd) => {
                let same = if gfd.to_bytes() == s.gsh { "ok" } else { "MISMATCH" };
                let shaders = gfd.shaders().map(|v| v.len()).unwrap_or(0);
                let words = gfd
                    .shaders()
                    .map(|v| v.iter().filter_map(|s| s.program.as_ref()).map(|p| p.len() / 4).sum())
                    .unwrap_or(0);
                (same.to_string(), words, shaders)
            }
            Err(e) => (format!("FAILED {e}"), 0, 0),
        };
        let disasm = match round_trip(s.gsh) {
            Ok(()) => "ok".to_string(),
            Err(e) => format!("FAILED {e}"),
        };
        failed |= asm != "ok" || disasm != "ok";
        let _ = writeln!(
            table,
            "{:<24} {:>7} {:>6} {:>8.1}us  {:<10} {:<10}",
            s.name,
            shaders,
            words,
            elapsed.as_secs_f64() * 1e6,
            asm,
            disasm
        );
    }
    failed
}

/// Disassembles every vertex and pixel program of the GFD and reassembles it to the same words.
fn round_trip(gsh: &[u8]) -> Result<(), String> {
    let gfd = GfdFile::parse(gsh).map_err(|e| e.to_string())?;
    for shader in gfd.shaders().map_err(|e| e.to_string())? {
        let Some(program) = &shader.program else { continue };
        if shader.header.stage == Stage::Geometry {
            continue;
        }
        let text = latte::disasm::shader_source(&shader).map_err(|e| e.to_string())?;
        let again = assemble(&text).map_err(|e| e.to_string())?;
        if &again.program.to_bytes() != program {
            return Err(format!("{:?} program differs after reassembly", shader.header.stage));
        }
    }
    Ok(())
}

/// The translated sample: a corpus .gsh whose vertex and pixel programs use no fetch clause
/// (what the Latte translation covers today, docs/latte-translate.md).
const TRANSLATED: (&str, &[u8]) =
    ("MultiDRC colorShader", include_bytes!("../../../../corpus/latte/MultiDRCSpaceDemo/colorShader.gsh"));

/// Translates each program of the sample to every back end (compat, validated); one row per
/// stage. True when a check failed.
pub fn translate_demo(table: &mut String) -> bool {
    use translate::latte::{translate, Options};
    use translate::Target;
    let _ = writeln!(
        table,
        "\n{:<24} {:<6} {:>6} {:<10} {:>10}  targets",
        "latte translation", "stage", "words", "flow", "to SPIR-V"
    );
    let (name, gsh) = TRANSLATED;
    let shaders = match GfdFile::parse(gsh).and_then(|g| g.shaders()) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(table, "{name:<24} FAILED {e}");
            return true;
        }
    };
    let mut failed = false;
    for s in shaders {
        let (stage, short) = match s.header.stage {
            Stage::Vertex => (translate::latte::Stage::Vertex, "vs"),
            Stage::Pixel => (translate::latte::Stage::Pixel, "ps"),
            Stage::Geometry => continue,
        };
        let Some(bytes) = &s.program else { continue };
        let program = match latte::isa::Program::decode_bytes(bytes, s.program_offset) {
            Ok(p) => p,
            Err(e) => {
                let _ = writeln!(table, "{name:<24} {short:<6} FAILED {e}");
                failed = true;
                continue;
            }
        };
        let t0 = Instant::now();
        let tr = translate(&program, stage, &Options::default()).and_then(|t| t.spirv().map(|_| t));
        let elapsed = t0.elapsed();
        let tr = match tr {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(table, "{name:<24} {short:<6} FAILED {e}");
                failed = true;
                continue;
            }
        };
        let mut ok = vec![];
        for target in Target::ALL {
            match tr.write(target) {
                Ok(_) => ok.push(target.name()),
                Err(e) => {
                    let _ = writeln!(table, "{name:<24} {short:<6} {}: FAILED {e}", target.name());
                    failed = true;
                }
            }
        }
        let _ = writeln!(
            table,
            "{name:<24} {short:<6} {:>6} {:<10} {:>8.1}us  {}",
            bytes.len() / 4,
            format!("{:?}", tr.flow()),
            elapsed.as_secs_f64() * 1e6,
            ok.join(" ")
        );
    }
    failed
}

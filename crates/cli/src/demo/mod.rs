//! `shaderport demo`: the main job on the samples built into the binary, one table per source;
//! any failed check makes the exit status non-zero.
//!
//! - PICA200: the samples of crates/cli/samples (written for shaderport) are assembled, their
//!   SHBIN read back and compared, disassembled and reassembled to the same bytes, and translated
//!   to every back end.
//! - Latte: real GX2 shaders assembled to the same GFD bytes and round-tripped, and a corpus
//!   .gsh translated per stage to every back end ([`latte`]).
//! - GX: a TEV material evaluated by the integer reference into a picture ([`gx`]).

use std::fmt::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use pica::asm::{assemble, Options, Source};
use pica::shbin::Shbin;
use std::path::PathBuf;

mod gx;
mod latte;
mod pica_scene;

#[derive(Args)]
pub struct DemoArgs {
    /// Folder for the pictures the demo draws.
    #[arg(long, default_value = "shaderport-demo")]
    out: PathBuf,
}

/// A built-in sample: a name and its files (several files make one program).
struct Sample {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
}

const SAMPLES: &[Sample] = &[
    Sample { name: "transform", files: &[("transform.v.pica", include_str!("../../samples/transform.v.pica"))] },
    Sample { name: "flow", files: &[("flow.v.pica", include_str!("../../samples/flow.v.pica"))] },
    Sample { name: "points (GS)", files: &[("points.g.pica", include_str!("../../samples/points.g.pica"))] },
    Sample {
        name: "lit + common",
        files: &[
            ("common.pica", include_str!("../../samples/common.pica")),
            ("lit.v.pica", include_str!("../../samples/lit.v.pica")),
        ],
    },
];

/// Disassembly round trip: disassemble (one file per DVLE), reassemble, compare bytes.
fn disasm_round_trip(shbin: &Shbin, bytes: &[u8]) -> Result<(), String> {
    let text = pica::disasm::disassemble(shbin).map_err(|e| e.to_string())?;
    let again = pica::disasm::reassemble(&text).map_err(|e| e.to_string())?;
    if again.to_bytes() == bytes {
        Ok(())
    } else {
        Err("reassembled bytes differ".into())
    }
}

pub fn run(args: DemoArgs) -> anyhow::Result<ExitCode> {
    let mut table = String::new();
    let _ = writeln!(
        table,
        "{:<14} {:>5} {:>12} {:>6} {:>10}  {:<10} {:<10}",
        "sample", "DVLEs", "instructions", "bytes", "time", "container", "disasm"
    );
    let mut failed = false;
    for s in SAMPLES {
        let sources: Vec<Source> = s.files.iter().map(|(name, text)| Source { name, text }).collect();
        let t0 = Instant::now();
        let result = assemble(&sources, &Options::default()).map(|out| {
            let bytes = out.to_bytes();
            (out, bytes)
        });
        let elapsed = t0.elapsed();
        let (out, bytes) = match result {
            Ok(r) => r,
            Err(e) => {
                let _ = writeln!(table, "{:<14} assembly failed: {e}", s.name);
                failed = true;
                continue;
            }
        };
        // The SHBIN must read back to the model it was written from, and write the same bytes.
        let container = match Shbin::read(&bytes) {
            Ok(back) if back == out.shbin && back.to_bytes() == bytes => "ok".to_string(),
            Ok(_) => "MISMATCH".to_string(),
            Err(e) => format!("ERROR {e}"),
        };
        let disasm = match disasm_round_trip(&out.shbin, &bytes) {
            Ok(()) => "ok".to_string(),
            Err(e) => format!("FAILED {e}"),
        };
        failed |= container != "ok" || disasm.starts_with("FAILED");
        let _ = writeln!(
            table,
            "{:<14} {:>5} {:>12} {:>6} {:>8.1}us  {:<10} {:<10}",
            s.name,
            out.shbin.executables.len(),
            out.shbin.program.code.len(),
            bytes.len(),
            elapsed.as_secs_f64() * 1e6,
            container,
            disasm
        );
    }
    // Every sample translated to every back end.
    failed |= crate::translate::demo(&mut table, SAMPLES.iter().map(|s| (s.name, s.files)));
    failed |= latte::demo(&mut table);
    failed |= latte::translate_demo(&mut table);
    failed |= gx::demo(&mut table, &args.out);
    failed |= !pica_scene::demo(&mut table, &args.out);
    crate::output::emit(&table)?;
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

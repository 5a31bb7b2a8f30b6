//! `shaderport inspect FILE`: a JSON summary of any supported file.
//!
//! Each source module recognises its own files (by magic) and returns `None` otherwise.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

#[derive(Args)]
pub struct InspectArgs {
    /// The file to summarise.
    file: PathBuf,
}

pub fn run(args: InspectArgs) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(&args.file).with_context(|| format!("{}: cannot read", args.file.display()))?;
    let inspectors = [crate::pica::inspect, crate::smdh::inspect, crate::latte::inspect, crate::gx::inspect];
    for inspect in inspectors {
        if let Some(summary) = inspect(&args.file, &bytes) {
            let summary = summary.with_context(|| format!("{}", args.file.display()))?;
            crate::output::emit_json(&summary)?;
            return Ok(ExitCode::SUCCESS);
        }
    }
    anyhow::bail!(
        "{}: not a file format shaderport knows (checked SHBIN, DVOJ, SMDH, CiTrace, GFD, MT containers, BRRES)",
        args.file.display()
    )
}

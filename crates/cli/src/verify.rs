//! `shaderport verify FILE.shbin [--entry N] [--cases N] [--precision P] [--seed S]`: the
//! translation on the Vulkan device against the reference interpreter, over random uniforms and
//! inputs (crates/gpu/src/verify.rs); for geometry shaders each case is one invocation and its
//! primitives. Ends with the line `N passed, M failed`; exits non-zero
//! when a case failed.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use gpu::verify::{verify_geometry, verify_vertex, Settings};
use gpu::Gpu;
use pica::shbin::ShaderType;
use translate::Precision;

#[derive(Args)]
pub struct VerifyArgs {
    /// The SHBIN to verify.
    file: PathBuf,
    /// Which executable (DVLE); default: every executable of the file.
    #[arg(long)]
    entry: Option<usize>,
    /// Random input sets per executable.
    #[arg(long, default_value_t = 64)]
    cases: usize,
    /// Float precision of the translation: fast, compat or exact.
    #[arg(long, default_value = "compat")]
    precision: Precision,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let shbin = crate::translate::read_shbin(&args.file)?;
    let entries: Vec<usize> = match args.entry {
        Some(e) => vec![e],
        None => (0..shbin.executables.len()).collect(),
    };
    if entries.is_empty() {
        anyhow::bail!("{}: the file has no executable", args.file.display());
    }
    let gpu = Gpu::new()?;
    eprintln!("device: {}", gpu.adapter);
    let (mut passed, mut failed) = (0, 0);
    for entry in entries {
        let settings = Settings {
            cases: args.cases,
            precision: args.precision,
            seed: args.seed.wrapping_add(entry as u64),
            dispatch_only: false,
        };
        let geometry = shbin.executables.get(entry).is_some_and(|d| d.shader_type == ShaderType::Geometry);
        let report = if geometry {
            verify_geometry(&gpu, &shbin, entry, settings)
        } else {
            verify_vertex(&gpu, &shbin, entry, settings)
        }
        .with_context(|| format!("{}: executable {entry}", args.file.display()))?;
        for e in &report.examples {
            println!("{}: executable {entry}: {e}", args.file.display());
        }
        if report.skipped > 0 {
            println!(
                "{}: executable {entry}: {} cases skipped (the interpreter stops with an error)",
                args.file.display(),
                report.skipped
            );
        }
        passed += report.passed;
        failed += report.failed;
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

//! `shaderport translate FILE.shbin [--entry N] --to spirv|glsl|msl|hlsl|wgsl [-o OUT]
//! [--precision fast|compat|exact]`: a PICA200 executable to a validated shader
//! (docs/pica-translate.md). Without `-o` the output goes to stdout; SPIR-V (binary) is refused
//! when stdout is a terminal.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use pica::shbin::Shbin;
use translate::pica::{translate, Options};
use translate::{backend, Precision, Target};

#[derive(Args)]
pub struct TranslateArgs {
    /// The SHBIN to translate.
    file: PathBuf,
    /// Which executable (DVLE) of the file.
    #[arg(long, default_value_t = 0)]
    entry: usize,
    /// Output language: spirv, glsl (450), glsl-es (ES 310), msl, hlsl or wgsl.
    #[arg(long = "to")]
    to: Target,
    /// Output file (default: stdout).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Float precision: fast, compat or exact.
    #[arg(long, default_value = "compat")]
    precision: Precision,
}

/// Reads and translates executable `entry` of `file`, returning the output bytes.
pub fn translate_file(
    file: &std::path::Path,
    entry: usize,
    to: Target,
    precision: Precision,
) -> anyhow::Result<Vec<u8>> {
    let bytes = std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))?;
    let shbin = Shbin::read(&bytes).with_context(|| format!("{}", file.display()))?;
    translate_shbin(&shbin, entry, to, precision).with_context(|| format!("{}: executable {entry}", file.display()))
}

/// Translates executable `entry` of a read SHBIN.
pub fn translate_shbin(shbin: &Shbin, entry: usize, to: Target, precision: Precision) -> anyhow::Result<Vec<u8>> {
    let t = translate(shbin, entry, Options { precision, ..Options::default() })?;
    let out = backend::write(&t.module, to, t.entry(), precision)?;
    Ok(out.to_bytes())
}

pub fn run(args: TranslateArgs) -> anyhow::Result<ExitCode> {
    let out = translate_file(&args.file, args.entry, args.to, args.precision)?;
    match &args.output {
        Some(path) => std::fs::write(path, &out).with_context(|| format!("{}: cannot write", path.display()))?,
        None => {
            if args.to == Target::SpirV && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                bail!("SPIR-V is binary: give -o FILE.spv (or redirect stdout)");
            }
            std::io::stdout().write_all(&out).context("stdout")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `shaderport demo`'s translation table (called at the end of demo.rs): each sample assembled,
/// each executable translated to every back end in `compat` and validated. Returns true when a
/// translation failed.
pub fn demo(
    table: &mut String,
    samples: impl Iterator<Item = (&'static str, &'static [(&'static str, &'static str)])>,
) -> bool {
    use std::fmt::Write as _;
    let _ = writeln!(table, "\n{:<14} {:>5} {:<10} {:>10}  targets", "translation", "DVLE", "flow", "to SPIR-V");
    let mut failed = false;
    for (name, files) in samples {
        let sources: Vec<pica::asm::Source> =
            files.iter().map(|(n, text)| pica::asm::Source { name: n, text }).collect();
        let Ok(out) = pica::asm::assemble(&sources, &pica::asm::Options::default()) else {
            let _ = writeln!(table, "{name:<14} assembly failed");
            failed = true;
            continue;
        };
        for entry in 0..out.shbin.executables.len() {
            let t0 = std::time::Instant::now();
            let spirv = translate_shbin(&out.shbin, entry, Target::SpirV, Precision::Compat);
            let elapsed = t0.elapsed();
            let flow = translate(&out.shbin, entry, Options::default()).map(|t| format!("{:?}", t.interface.flow));
            let mut ok = vec![];
            for target in Target::ALL {
                match translate_shbin(&out.shbin, entry, target, Precision::Compat) {
                    Ok(_) => ok.push(target.name()),
                    Err(e) => {
                        let _ = writeln!(table, "{name:<14} {entry:>5} {}: {e:#}", target.name());
                        failed = true;
                    }
                }
            }
            let _ = writeln!(
                table,
                "{name:<14} {entry:>5} {:<10} {:>8.1}us  {}",
                flow.unwrap_or_else(|e| format!("error: {e}")),
                elapsed.as_secs_f64() * 1e6,
                ok.join(" ")
            );
            failed |= spirv.is_err();
        }
    }
    failed
}

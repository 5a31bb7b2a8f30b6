//! `shaderport verify FILE.shbin [--entry N] [--cases N] [--precision P] [--seed S]`: the
//! translation on the Vulkan device against the reference interpreter, over random uniforms and
//! inputs (crates/gpu/src/verify.rs); for geometry shaders each case is one invocation and its
//! primitives. Ends with the line `N passed, M failed`; exits non-zero
//! when a case failed.
//!
//! `shaderport verify FILE.gsh|.es|.spkg|.lfx [--raw] [--stage S] [--entry N]`: Latte programs
//! against `latte::interp` (crates/cli/src/latte/verify.rs).
//!
//! Each executable runs on a worker thread (gpu::verify::verify_with_limit) so that a pipeline
//! the driver takes too long to build ends the run after `--timeout` seconds with the file, the
//! executable and the phase named. Progress goes to stderr: a status line redrawn in place on a
//! terminal, else a plain line when a pipeline has taken `QUIET` (and again each time as long again
//! passes).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use gpu::verify::{verify_with_limit, Settings};
use gpu::{Gpu, Phase};
use translate::Precision;

#[derive(Args)]
pub struct VerifyArgs {
    /// The SHBIN, Latte file (.gsh, .es, .spkg, .lfx; bare words with --raw), BRRES or
    /// fixed-function state (JSON of `pica cmdlist --state --json`) to verify.
    file: PathBuf,
    /// Latte: the file is bare little-endian program words (give --stage).
    #[arg(long)]
    raw: bool,
    /// Latte: the shader to verify (vs, ps); default: every vertex and pixel shader.
    #[arg(long, value_enum)]
    stage: Option<crate::latte::select::LatteStage>,
    /// BRRES: the material to verify (repeatable; default: every material).
    #[arg(long = "material", value_name = "NAME")]
    materials: Vec<String>,
    /// Which executable (DVLE), or which GFD of an MT container; default: every one.
    #[arg(long)]
    entry: Option<usize>,
    /// Random input sets per executable or Latte program (BRRES: pixels per material).
    #[arg(long, default_value_t = 64)]
    cases: usize,
    /// Float precision of the translation: fast, compat or exact.
    #[arg(long, default_value = "compat")]
    precision: Precision,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Seconds each pipeline may take, from translation to read-back; 0: no limit.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: f64,
}

fn parse_timeout(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        _ => Err(format!("expected a number of seconds (0 for no limit), found {s:?}")),
    }
}

/// Without a terminal, a pipeline that takes this long gets a line on stderr (and again each
/// time as long again passes).
const QUIET: Duration = Duration::from_secs(10);

/// `verify` of a BRRES file: every selected material's translation in a render pass on the
/// device against the CPU reference, `--cases` random pixels each.
fn run_brres(args: &VerifyArgs, bytes: &[u8]) -> anyhow::Result<ExitCode> {
    let b = crate::gx_shader::read(&args.file, bytes)?;
    let picked = crate::gx_shader::select(&args.file, &b, &args.materials, args.materials.is_empty())?;
    let (passed, failed) = crate::gx_shader::verify(&args.file, &picked, args.cases, args.seed)?;
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(&args.file).with_context(|| format!("{}: cannot read", args.file.display()))?;
    let limit = (args.timeout > 0.0).then(|| Duration::from_secs_f64(args.timeout));
    if args.raw || crate::latte::select::is_container(&bytes) {
        return crate::latte::verify::run(crate::latte::verify::Request {
            file: &args.file,
            bytes: &bytes,
            selection: crate::latte::select::Selection { raw: args.raw, stage: args.stage, entry: args.entry },
            cases: args.cases,
            precision: args.precision,
            seed: args.seed,
            limit,
        });
    }
    if args.stage.is_some() {
        anyhow::bail!(
            "{}: --stage picks the shader of a Latte file (or --raw program); this is not one",
            args.file.display()
        );
    }
    if bytes.starts_with(b"bres") {
        return run_brres(&args, &bytes);
    }
    if crate::pica::fragment::is_state_json(&bytes) {
        let (passed, failed) = crate::pica::fragment::verify(&args.file, &bytes, args.cases, args.seed)?;
        println!("{passed} passed, {failed} failed");
        return Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE });
    }
    if !args.materials.is_empty() {
        anyhow::bail!("{}: --material selects BRRES materials; this is not a BRRES file", args.file.display());
    }
    let shbin = crate::translate::read_shbin(&args.file)?;
    let entries: Vec<usize> = match args.entry {
        Some(e) => vec![e],
        None => (0..shbin.executables.len()).collect(),
    };
    if entries.is_empty() {
        anyhow::bail!("{}: the file has no executable", args.file.display());
    }
    // Before the device opens and before any thread starts: the environment changes here.
    let _runtime = gpu::private_runtime_dir().context("cannot create a runtime folder for the Vulkan driver")?;
    let gpu = Arc::new(Gpu::new()?);
    eprintln!("device: {}", gpu.adapter);
    let shbin = Arc::new(shbin);
    let mut status = Status::new(std::io::stderr().is_terminal());
    let (mut passed, mut failed) = (0, 0);
    let count = entries.len();
    for (n, entry) in entries.into_iter().enumerate() {
        let settings = Settings {
            cases: args.cases,
            precision: args.precision,
            seed: args.seed.wrapping_add(entry as u64),
            dispatch_only: false,
        };
        let what = format!("[{}/{count}] {}: executable {entry}", n + 1, args.file.display());
        let result = verify_with_limit(Arc::clone(&gpu), Arc::clone(&shbin), entry, settings, limit, |phase, t| {
            status.show(&what, phase, t)
        });
        status.clear();
        let report = match result {
            Ok(report) => report,
            Err(e @ gpu::verify::VerifyError::Timeout { .. }) => anyhow::bail!(
                "{}: executable {entry}: {e}; --timeout SECONDS sets the limit (0: none)",
                args.file.display()
            ),
            Err(e) => return Err(e).with_context(|| format!("{}: executable {entry}", args.file.display())),
        };
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

/// The progress report on stderr.
struct Status {
    terminal: bool,
    /// A status line is drawn (terminal).
    drawn: bool,
    /// Plain lines printed for the current pipeline (no terminal).
    lines: u32,
    /// The pipeline time of the last report: a smaller one is a new pipeline.
    last: Duration,
}

impl Status {
    fn new(terminal: bool) -> Status {
        Status { terminal, drawn: false, lines: 0, last: Duration::ZERO }
    }

    /// Reports that `what` is in `phase`, its current pipeline at `t`.
    fn show(&mut self, what: &str, phase: Phase, t: Duration) {
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r\x1b[K{what}: {phase} ({:.1} s)", t.as_secs_f64());
            let _ = err.flush();
            self.drawn = true;
            return;
        }
        if t < self.last {
            self.lines = 0;
        }
        self.last = t;
        if t >= QUIET * (self.lines + 1) {
            let _ = writeln!(err, "{what}: {phase}, {} s so far", t.as_secs());
            self.lines += 1;
        }
    }

    /// Removes the status line before results are printed.
    fn clear(&mut self) {
        if self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
            self.drawn = false;
        }
        self.lines = 0;
        self.last = Duration::ZERO;
    }
}

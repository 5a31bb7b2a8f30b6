//! `shaderport batch DIR --out OUTDIR`: a whole dump through the `batch` library, with a
//! progress bar on a terminal and plain progress lines otherwise (docs/batch.md).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::Args;
use translate::{Precision, Target};

#[derive(Args)]
pub struct BatchArgs {
    /// The dump: a directory tree of .gsh/.gfd, .es, .spkg and .lfx files.
    dir: PathBuf,
    /// Where the translations, listings and report.json go.
    #[arg(long)]
    out: PathBuf,
    /// Targets, comma-separated: spirv, glsl, msl, hlsl, wgsl (glsl-es too).
    #[arg(long, value_delimiter = ',', default_value = "spirv")]
    to: Vec<Target>,
    /// Float precision: fast, compat or exact.
    #[arg(long, default_value = "compat")]
    precision: Precision,
    /// Worker threads (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Also write `<key>.<stage>.txt` listings.
    #[arg(long)]
    disasm: bool,
    /// Run each translation against the interpreter on the Vulkan device.
    #[arg(long)]
    verify: bool,
    /// Also find GFDs embedded in other files by their magic.
    #[arg(long)]
    scan: bool,
}

pub fn run(args: BatchArgs) -> anyhow::Result<ExitCode> {
    if args.verify {
        bail!("--verify: not available yet: the device check of Latte translations in batch is not built");
    }
    if args.jobs == Some(0) {
        bail!("--jobs: at least 1");
    }
    let opts = batch::Options {
        targets: args.to.clone(),
        precision: args.precision,
        jobs: args.jobs,
        disasm: args.disasm,
        scan: args.scan,
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(0);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} shaders {elapsed} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let progress = |done: usize, total: usize, key: &str| match &bar {
        Some(b) => {
            b.set_length(total as u64);
            b.set_position(done as u64);
            b.set_message(key.to_string());
        }
        // One line per tenth, and the last.
        None if done == total || (done * 10 / total.max(1)) != ((done - 1) * 10 / total.max(1)) => {
            eprintln!("batch: {done}/{total} shaders");
        }
        None => {}
    };
    let report = batch::run(&args.dir, &args.out, &opts, &progress)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    for e in &report.file_errors {
        match e.entry {
            Some(id) => eprintln!("error: {}: entry {id:#x}: {}", e.file, e.error),
            None => eprintln!("error: {}: {}", e.file, e.error),
        }
    }
    for s in report.shaders.iter().filter(|s| s.status == batch::Status::Failed) {
        let from = s.sources.first().map(|x| format!(" ({} entry {:#x})", x.file, x.id)).unwrap_or_default();
        eprintln!("error: {}.{}{from}: {}", s.key, s.stage, s.error.as_deref().unwrap_or("failed"));
    }
    let t = &report.totals;
    let stages: Vec<String> = t.by_stage.iter().map(|(s, n)| format!("{n} {s}")).collect();
    println!(
        "{} shaders ({}) from {} GFDs in {} files: {} translated, {} unchanged, {} failed, {} file errors; {} files written; {:.3} s",
        t.shaders,
        stages.join(", "),
        report.unique_gfds,
        report.containers,
        t.ok,
        t.cached,
        t.failed,
        t.file_errors,
        t.files_written,
        t.wall_us as f64 / 1e6
    );
    println!("report: {}", args.out.join("report.json").display());
    Ok(if report.failed() { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

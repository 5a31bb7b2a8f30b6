//! `shaderport batch DIR --out OUTDIR`: a whole dump through the `batch` library, with a
//! progress bar on a terminal and plain progress lines otherwise (docs/batch.md). With
//! `--verify` each translated shader also runs on the Vulkan device against `latte::interp`
//! (gpu::latte_verify, the runner of `shaderport verify`), `--cases` invocations each.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
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
    /// With --verify: random input sets per shader.
    #[arg(long, default_value_t = 64, requires = "verify")]
    cases: usize,
    /// With --verify: seed of the random inputs (each shader's inputs follow from it and its key).
    #[arg(long, default_value_t = 1, requires = "verify")]
    seed: u64,
    /// Also find GFDs embedded in other files by their magic.
    #[arg(long)]
    scan: bool,
    /// The translation cache's folder (default: OUTDIR/.cache).
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    cache: Option<PathBuf>,
    /// Translate every shader, without the translation cache.
    #[arg(long)]
    no_cache: bool,
}

pub fn run(args: BatchArgs) -> anyhow::Result<ExitCode> {
    if args.jobs == Some(0) {
        bail!("--jobs: at least 1");
    }
    let opts = batch::Options {
        targets: args.to.clone(),
        precision: args.precision,
        jobs: args.jobs,
        disasm: args.disasm,
        scan: args.scan,
        cache: match (&args.cache, args.no_cache) {
            (_, true) => batch::CacheDir::Off,
            (Some(dir), false) => batch::CacheDir::At(dir.clone()),
            (None, false) => batch::CacheDir::InOutput,
        },
        ..batch::Options::default()
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
    // Before the device opens and before any thread starts: the environment changes here.
    let _runtime = match args.verify {
        true => gpu::private_runtime_dir().context("cannot create a runtime folder for the Vulkan driver")?,
        false => None,
    };
    let gpu = match args.verify {
        true => {
            let g = gpu::Gpu::new().context("--verify")?;
            eprintln!("device: {}", g.adapter);
            Some(g)
        }
        false => None,
    };
    let verifier = gpu.as_ref().map(|g| {
        let settings = (args.cases, args.precision, args.seed);
        move |p: &latte::isa::Program, stage: translate::latte::Stage| check(g, p, stage, settings)
    });
    let report = batch::run_verified(
        &args.dir,
        &args.out,
        &opts,
        &progress,
        verifier.as_ref().map(|v| v as &batch::Verifier<'_>),
    )?;
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
        "{} shaders ({}) from {} GFDs in {} files: {} translated, {} from the cache, {} failed, {} file errors; {} files written; {:.3} s",
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
    if let Some(v) = &t.verify {
        for s in &report.shaders {
            let Some(c) = &s.verify else { continue };
            if c.status != batch::VerifyStatus::Passed {
                let from = s.sources.first().map(|x| format!(" ({} entry {:#x})", x.file, x.id)).unwrap_or_default();
                let what = if c.status == batch::VerifyStatus::Failed { "verify failed" } else { "verify error" };
                eprintln!("error: {}.{}{from}: {what}: {}", s.key, s.stage, c.error.as_deref().unwrap_or(""));
            }
        }
        println!(
            "verify: {} shaders: {} passed, {} failed, {} errors; {} cases passed, {} failed; {:.3} s",
            v.shaders,
            v.passed,
            v.failed,
            v.errors,
            v.cases_passed,
            v.cases_failed,
            v.us as f64 / 1e6
        );
    }
    if let Some(c) = &report.cache {
        println!(
            "cache: {}: {} hits, {} misses ({} unusable), {} entries written, {:.1} MiB",
            c.dir,
            c.hits,
            c.misses,
            c.corrupt,
            c.written,
            c.bytes as f64 / f64::from(1 << 20)
        );
    }
    println!("report: {}", args.out.join("report.json").display());
    Ok(if report.failed() { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// One shader's device check: the seed is mixed with a hash of the program so that each shader
/// draws its own inputs, the same in every run.
fn check(
    gpu: &gpu::Gpu,
    p: &latte::isa::Program,
    stage: translate::latte::Stage,
    (cases, precision, seed): (usize, Precision, u64),
) -> batch::Verified {
    let words = p.to_bytes();
    let hash = words.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    let settings = gpu::LatteSettings { cases, precision, seed: seed ^ hash };
    match gpu::verify_latte(gpu, p, stage, settings) {
        Ok(r) => batch::Verified {
            status: if r.failed == 0 { batch::VerifyStatus::Passed } else { batch::VerifyStatus::Failed },
            passed: r.passed,
            failed: r.failed,
            skipped: r.skipped,
            error: r.examples.first().cloned(),
            us: 0,
        },
        Err(e) => batch::Verified {
            status: batch::VerifyStatus::Error,
            passed: 0,
            failed: 0,
            skipped: 0,
            error: Some(e.to_string()),
            us: 0,
        },
    }
}

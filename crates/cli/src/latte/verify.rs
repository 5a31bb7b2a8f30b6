//! `shaderport verify` on a Latte file: each picked vertex and pixel program translated and run
//! on the Vulkan device against `latte::interp` (gpu::latte_verify), `--cases` random input
//! sets each; the SHBIN verify's `N passed, M failed` line at the end.
//!
//! Each program runs on a worker thread so that a pipeline the driver takes too long to build
//! ends the run after `--timeout` seconds, naming the file and the program.

use std::path::Path;
use std::process::ExitCode;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use anyhow::{bail, Context};
use gpu::{Gpu, LatteSettings, LatteVerifyError};
use translate::Precision;

use super::select::{pick, Selection};

/// What `verify` was asked, for a Latte file.
pub struct Request<'a> {
    pub file: &'a Path,
    pub bytes: &'a [u8],
    pub selection: Selection,
    pub cases: usize,
    pub precision: Precision,
    pub seed: u64,
    /// Seconds each program may take on the device (None: no limit).
    pub limit: Option<Duration>,
}

/// Verifies every program `req` picks; prints mismatches, then `N passed, M failed`.
pub fn run(req: Request) -> anyhow::Result<ExitCode> {
    let picked = pick(req.file, req.bytes, req.selection, true)?;
    let name = req.file.display();
    // Before the device opens and before any thread starts: the environment changes here.
    let _runtime = gpu::private_runtime_dir().context("cannot create a runtime folder for the Vulkan driver")?;
    let gpu = Arc::new(Gpu::new()?);
    eprintln!("device: {}", gpu.adapter);
    let (mut passed, mut failed, mut refused) = (0, 0, 0);
    for (n, p) in picked.into_iter().enumerate() {
        let settings =
            LatteSettings { cases: req.cases, precision: req.precision, seed: req.seed.wrapping_add(n as u64) };
        let (tx, rx) = mpsc::channel();
        let g = Arc::clone(&gpu);
        let (program, stage) = (p.program, p.stage);
        let worker = std::thread::spawn(move || {
            let _ = tx.send(gpu::verify_latte(&g, &program, stage, settings));
        });
        let result = match req.limit {
            Some(limit) => match rx.recv_timeout(limit) {
                Ok(r) => r,
                Err(mpsc::RecvTimeoutError::Timeout) => bail!(
                    "{name}: {}: timed out after {} s on the device; --timeout SECONDS sets the limit (0: none)",
                    p.what,
                    limit.as_secs_f64()
                ),
                Err(mpsc::RecvTimeoutError::Disconnected) => bail!("{name}: {}: the device run stopped", p.what),
            },
            None => rx.recv().with_context(|| format!("{name}: {}: the device run stopped", p.what))?,
        };
        // The worker's handle on the device is dropped before the device is: a device torn
        // down from a thread still running at exit crashed lavapipe.
        let _ = worker.join();
        let report = match result {
            Ok(r) => r,
            Err(LatteVerifyError::Translate(e @ translate::Error::LatteUnsupported { .. })) => {
                eprintln!("error: {name}: {}: {e}", p.what);
                refused += 1;
                continue;
            }
            Err(e) => return Err(e).with_context(|| format!("{name}: {}", p.what)),
        };
        for e in &report.examples {
            println!("{name}: {}: {e}", p.what);
        }
        if report.skipped > 0 {
            println!("{name}: {}: {} cases skipped (the interpreter stops with an error)", p.what, report.skipped);
        }
        if report.within_tolerance > 0 {
            println!(
                "{name}: {}: {} cases matched within {} ulp (transcendentals, not bit-exact yet)",
                p.what,
                report.within_tolerance,
                gpu::latte_verify::TRANSCENDENTAL_ULPS
            );
        }
        passed += report.passed;
        failed += report.failed;
    }
    println!("{passed} passed, {failed} failed");
    if refused > 0 {
        bail!("{name}: {refused} program(s) not verified: they use what the translation does not cover yet");
    }
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

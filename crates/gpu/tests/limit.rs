//! `gpu::verify::verify_with_limit` on the device: the time limit names the phase it passed in,
//! runs within the limit (or without one) report as `verify_vertex`/`verify_geometry` do, and
//! `Progress` follows a run through its phases. Without a Vulkan device these tests skip, unless
//! SHADERPORT_REQUIRE_GPU is set (CI).

use std::sync::Arc;
use std::time::Duration;

use gpu::verify::{verify_with_limit, Settings, VerifyError};
use gpu::{Phase, Progress};

mod common;
use common::device;
use pica::shbin::Shbin;
use translate::Precision;

fn golden(name: &str) -> Arc<Shbin> {
    let path = testkit::corpus("pica/golden").join(name);
    Arc::new(Shbin::read(&std::fs::read(&path).unwrap()).unwrap())
}

const SIMPLE: &str = "3ds-examples__graphics__gpu__simple_tri__source__vshader.v.pica.shbin";
const GEOMETRY: &str = "3ds-examples__graphics__gpu__geoshader__source__program.g.pica.shbin";

fn settings(cases: usize) -> Settings {
    Settings { cases, precision: Precision::Compat, seed: 3, dispatch_only: false }
}

#[test]
fn a_limit_of_zero_times_out_and_names_the_phase() {
    let Some(gpu) = device() else { return };
    let gpu = Arc::new(gpu);
    let mut ticks = 0;
    let err = verify_with_limit(gpu, golden(SIMPLE), 0, settings(8), Some(Duration::ZERO), |_, _| ticks += 1)
        .expect_err("no run finishes in zero time");
    let VerifyError::Timeout { phase, limit } = err else { panic!("expected a timeout, got {err}") };
    assert_eq!(limit, Duration::ZERO);
    assert_eq!(ticks, 0, "the limit is checked before any progress report");
    let text = VerifyError::Timeout { phase, limit }.to_string();
    assert_eq!(text, format!("timed out after 0 s in {} (the limit per pipeline)", phase.name()));
}

#[test]
fn runs_within_the_limit_or_without_one_report_every_case() {
    let Some(gpu) = device() else { return };
    let gpu = Arc::new(gpu);
    for limit in [None, Some(Duration::from_secs(600))] {
        // 130 cases: three batches, three pipelines, each with its own time.
        let mut times = Vec::new();
        let report =
            verify_with_limit(Arc::clone(&gpu), golden(SIMPLE), 0, settings(130), limit, |p, t| times.push((p, t)))
                .unwrap();
        assert_eq!((report.passed, report.failed, report.skipped), (130, 0, 0), "{limit:?}: {:?}", report.examples);
        assert!(times.iter().all(|&(_, t)| limit.is_none_or(|l| t < l)), "{times:?}");
        let report = verify_with_limit(Arc::clone(&gpu), golden(GEOMETRY), 0, settings(8), limit, |_, _| {}).unwrap();
        assert_eq!((report.passed, report.failed), (8, 0), "geometry {limit:?}: {:?}", report.examples);
    }
}

#[test]
fn progress_follows_a_run_through_its_phases() {
    let Some(gpu) = device() else { return };
    let progress = Progress::default();
    assert_eq!((progress.phase(), progress.pipelines()), (Phase::Translation, 0));
    let shbin = golden(SIMPLE);
    let report = gpu::verify::verify_executable(&gpu, &shbin, 0, settings(130), &progress).unwrap();
    assert_eq!(report.passed, 130);
    assert_eq!((progress.phase(), progress.pipelines()), (Phase::Comparison, 3), "one pipeline per batch of 64");
    let progress = Progress::default();
    gpu::verify::verify_executable(&gpu, &golden(GEOMETRY), 0, settings(4), &progress).unwrap();
    assert_eq!((progress.phase(), progress.pipelines()), (Phase::Comparison, 1));
}

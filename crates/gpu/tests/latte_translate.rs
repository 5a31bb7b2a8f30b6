//! Latte translations on the Vulkan device against `latte::interp`, bit for bit: every vertex
//! and pixel program of corpus/latte and corpus/latte-mesa and `latte::smith` programs
//! (LATTE_TRANSLATE_PROGRAMS: full 10, quick 3; docs/testing.md), 64 input sets each, run
//! by the compute form through the runner `shaderport verify` shares (gpu::latte_verify; each
//! invocation one input set; final GPRs, exports, memory writes, the kill bit and the error
//! flags compared), in `exact`: 0 mismatched bits, transcendentals included. A second test runs
//! the corpus in `compat`, where only programs with transcendentals may differ. Programs the
//! translation does not cover yet (TEX fetches) are counted and printed. Without a Vulkan device the test skips, unless
//! SHADERPORT_REQUIRE_GPU is set.

use arbitrary::Unstructured;
use gpu::latte_verify::{seeded_bytes as bytes, verify_smith};
use gpu::LatteVerifyError;
use latte::gfd::{GfdFile, Stage as GStage};
use latte::interp::Stage as IStage;
use latte::isa::Program;
use latte::smith::SmithProgram;
use translate::{Error, Precision};

mod common;

const CASES: usize = 64;

fn corpus() -> Vec<(String, SmithProgram)> {
    let mut out = Vec::new();
    let mut files = testkit::walk(&testkit::corpus("latte"), "gsh");
    files.extend(testkit::walk(&testkit::corpus("latte-mesa"), "gsh"));
    for f in files {
        let gfd = GfdFile::parse(&std::fs::read(&f).unwrap()).unwrap();
        for (k, s) in gfd.shaders().unwrap().into_iter().enumerate() {
            let stage = match s.header.stage {
                GStage::Vertex => IStage::Vertex,
                GStage::Pixel => IStage::Pixel,
                GStage::Geometry => continue,
            };
            let Some(b) = s.program else { continue };
            let program = Program::decode_bytes(&b, s.program_offset).unwrap();
            out.push((
                format!("{}#{k}", f.display()),
                SmithProgram { program, stage, loop_consts: Default::default() },
            ));
        }
    }
    out
}

#[derive(Default, Debug)]
struct Tally {
    programs: usize,
    translated: usize,
    unsupported: usize,
    compared: usize,
    interp_errors: usize,
    mismatched_invocations: usize,
    mismatched_bits: u64,
    /// `compat` only: invocations of programs with transcendentals (which `compat` computes with
    /// the device's f32 functions, docs/latte-translate.md "Precision") that differ beyond the
    /// runner's tolerance.
    compat_differing: usize,
    /// Programs with transcendentals, and their pipeline build + run time.
    transc_programs: usize,
    transc_build: std::time::Duration,
    /// Programs that read the VTX fetch buffers, and their compared invocations.
    vtx_programs: usize,
    vtx_compared: usize,
    failures: Vec<String>,
    build: std::time::Duration,
    /// Translated programs by control-flow form (docs/latte-translate.md "Control-flow forms").
    flows: std::collections::BTreeMap<String, usize>,
}

/// The control-flow form `p` takes (it does not depend on the constants verify draws).
fn flow(p: &SmithProgram) -> translate::latte::FlowKind {
    let stage = match p.stage {
        IStage::Pixel => translate::latte::Stage::Pixel,
        _ => translate::latte::Stage::Vertex,
    };
    let options = translate::latte::Options { loop_consts: p.loop_consts.clone(), ..Default::default() };
    translate::latte::translate(&p.program, stage, &options).expect("verified programs translate").flow()
}

/// One program through the shared runner (gpu::latte_verify): in `exact` nothing is tolerated;
/// in `compat` differences in programs with transcendentals are counted apart.
fn run_one(gpu: &gpu::Gpu, name: &str, mut u: Unstructured, p: &SmithProgram, precision: Precision, t: &mut Tally) {
    t.programs += 1;
    let r = match verify_smith(gpu, p, &mut u, CASES, precision) {
        Ok(r) => r,
        Err(LatteVerifyError::Translate(Error::LatteUnsupported { .. })) => {
            t.unsupported += 1;
            return;
        }
        Err(e) => panic!("{name}: {e}"),
    };
    t.translated += 1;
    *t.flows.entry(format!("{:?}", flow(p))).or_default() += 1;
    t.build += r.device_time;
    t.compared += r.passed + r.failed;
    t.vtx_programs += r.vtx as usize;
    t.vtx_compared += if r.vtx { r.passed + r.failed } else { 0 };
    t.interp_errors += r.skipped;
    if r.transcendentals {
        t.transc_programs += 1;
        t.transc_build += r.device_time;
    }
    let exact = precision == Precision::Exact;
    if exact {
        assert_eq!(r.within_tolerance, 0, "{name}: exact tolerates nothing");
    }
    // A set error word is a failure in every program; in `compat`, other differences in programs
    // with transcendentals are counted apart.
    let apart = !exact && r.transcendentals;
    let (counted, bits) = if apart { (r.failed_with_error_flag, 0) } else { (r.failed, r.mismatched_bits) };
    t.compat_differing += r.failed - counted;
    t.mismatched_invocations += counted;
    t.mismatched_bits += bits;
    if counted > 0 {
        for e in r.examples.iter().take(12usize.saturating_sub(t.failures.len())) {
            t.failures.push(format!("{name} ({:?}): {e}", p.stage));
        }
    }
}

#[test]
fn latte_translations_match_the_interpreter() {
    let Some(gpu) = common::device() else { return };
    let count = testkit::count("LATTE_TRANSLATE_PROGRAMS", if testkit::quick() { 3 } else { 10 });
    let start = std::time::Instant::now();
    let mut t = Tally::default();
    for (k, (name, p)) in corpus().iter().enumerate() {
        let data = bytes(0xC0_0000 + k as u64, 65536);
        run_one(&gpu, name, Unstructured::new(&data), p, Precision::Exact, &mut t);
    }
    let corpus_tally = format!("{t:?}");
    let corpus_flows = t.flows.clone();
    for seed in 0..count {
        let data = bytes(seed, 65536);
        let mut u = Unstructured::new(&data);
        let p = latte::smith::program(&mut u, &latte::smith::Config::default()).unwrap();
        run_one(&gpu, &format!("smith seed {seed}"), u, &p, Precision::Exact, &mut t);
    }
    eprintln!("corpus part: {corpus_tally}");
    let mut smith_flows = t.flows.clone();
    for (k, n) in &corpus_flows {
        *smith_flows.get_mut(k).unwrap() -= n;
    }
    eprintln!("control-flow forms of the translated programs: corpus {corpus_flows:?}, smith {smith_flows:?}");
    // t06_while (Mesa's unrolled while loop) and the random programs with jumps nest.
    assert!(corpus_flows.get("Structured").is_some_and(|&n| n > 0), "{corpus_flows:?}");
    assert!(
        count < 10 || smith_flows.get("Structured").is_some_and(|&n| n > 0),
        "no random program took the structured form: {smith_flows:?}"
    );
    eprintln!(
        "{} programs: {} translated ({} not yet: TEX fetches), {} with VTX fetches ({} of their invocations compared), {} invocations compared, {} skipped (interpreter error), {} mismatched ({} bits); pipeline build + run {:.1} s; total {:.1} s",
        t.programs,
        t.translated,
        t.unsupported,
        t.vtx_programs,
        t.vtx_compared,
        t.compared,
        t.interp_errors,
        t.mismatched_invocations,
        t.mismatched_bits,
        t.build.as_secs_f64(),
        start.elapsed().as_secs_f64()
    );
    eprintln!(
        "exact: {} programs with transcendentals, pipeline build + run {:.1} s",
        t.transc_programs,
        t.transc_build.as_secs_f64()
    );
    for f in &t.failures {
        eprintln!("  {f}");
    }
    assert!(t.translated > 0 && t.compared > 0);
    assert!(t.transc_programs > 0, "no program with transcendentals ran");
    assert_eq!(t.mismatched_invocations, 0, "{:#?}", t.failures);
}

/// `compat` over the corpus: programs without transcendentals must still match to the bit;
/// those with them may differ where the device's f32 functions do (docs/latte-translate.md
/// "Precision": per-op tolerance; a program's outputs carry those differences through its
/// later arithmetic, so no per-output bound is asserted).
#[test]
fn latte_compat_translations_match_outside_transcendentals() {
    let Some(gpu) = common::device() else { return };
    let start = std::time::Instant::now();
    let mut t = Tally::default();
    for (k, (name, p)) in corpus().iter().enumerate() {
        let data = bytes(0xC0_0000 + k as u64, 65536);
        run_one(&gpu, name, Unstructured::new(&data), p, Precision::Compat, &mut t);
    }
    eprintln!(
        "compat: {} programs: {} translated, {} invocations compared, {} mismatched outside transcendental programs, {} differing beyond the runner's tolerance in programs with transcendentals; total {:.1} s",
        t.programs,
        t.translated,
        t.compared,
        t.mismatched_invocations,
        t.compat_differing,
        start.elapsed().as_secs_f64()
    );
    eprintln!(
        "compat: {} programs with transcendentals, pipeline build + run {:.1} s",
        t.transc_programs,
        t.transc_build.as_secs_f64()
    );
    for f in &t.failures {
        eprintln!("  {f}");
    }
    assert!(t.translated > 0 && t.compared > 0);
    assert_eq!(t.mismatched_invocations, 0, "{:#?}", t.failures);
}

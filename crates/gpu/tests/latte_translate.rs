//! Latte translations on the Vulkan device against `latte::interp`, bit for bit: every vertex
//! and pixel program of corpus/latte and corpus/latte-mesa and `latte::smith` programs
//! (LATTE_TRANSLATE_PROGRAMS: full 10, quick 3; docs/testing.md), 64 input sets each, run
//! by the compute form (each invocation one input set; final GPRs, exports, memory writes, the
//! kill bit and the error flags compared), in `exact`: 0 mismatched bits, transcendentals
//! included. A second test runs the corpus in `compat`, where only programs with
//! transcendentals may differ. Programs the translation does not cover yet (fetch clauses) are
//! counted and printed. Without a Vulkan device the test skips, unless
//! SHADERPORT_REQUIRE_GPU is set.

use arbitrary::Unstructured;
use gpu::LatteRun;
use latte::gfd::{GfdFile, Stage as GStage};
use latte::interp::{Config, ExportKind, Inputs, Invocation, InvocationResult, Stage as IStage, Vm};
use latte::isa::Program;
use latte::smith::SmithProgram;
use translate::latte::{
    export_slot, translate, Options, Stage, EXPORT_SLOTS, IN_STRIDE, MEM_MAX, OUT_ERR, OUT_EXPORTS, OUT_GPRS,
    OUT_KILLED, OUT_MEM, OUT_MEM_COUNT, OUT_UNMAPPED, OUT_WORDS,
};
use translate::{Error, Precision};

mod common;

const CASES: usize = 64;

fn bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

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

/// The output record the interpreter's result stands for.
fn expected(r: &InvocationResult) -> Vec<u32> {
    let mut w = vec![0u32; OUT_WORDS as usize];
    w[OUT_KILLED as usize] = r.killed as u32;
    for (i, g) in r.gprs.iter().enumerate().take(128) {
        w[OUT_GPRS as usize + i * 4..OUT_GPRS as usize + i * 4 + 4].copy_from_slice(g);
    }
    let mut unmapped = r.gs_events.len() as u32;
    for e in &r.exports {
        let kind = match e.kind {
            ExportKind::Pixel => 0,
            ExportKind::Pos => 1,
            ExportKind::Param => 2,
            ExportKind::Reserved => 3,
        };
        match export_slot(kind, e.index) {
            Some(s) => {
                let b = (OUT_EXPORTS + s * 8) as usize;
                w[b..b + 4].copy_from_slice(&e.value);
                w[b + 4] = e.mask as u32;
                w[b + 5] += 1;
            }
            None => unmapped += 1,
        }
    }
    w[OUT_UNMAPPED as usize] = unmapped;
    w[OUT_MEM_COUNT as usize] = r.mem_writes.len() as u32;
    for (k, m) in r.mem_writes.iter().take(MEM_MAX as usize).enumerate() {
        let b = OUT_MEM as usize + k * 8;
        w[b] = m.op as u32;
        w[b + 1] = m.addr;
        w[b + 2] = m.comp_mask as u32 | if m.index.is_some() { 0x100 } else { 0 };
        w[b + 3] = m.index.unwrap_or(0);
        w[b + 4..b + 8].copy_from_slice(&m.value);
    }
    let _ = EXPORT_SLOTS;
    w
}

/// Interpreter results per invocation (`None` where its lane group stopped with an error).
fn reference(p: &SmithProgram, inputs: &Inputs, invs: &[Invocation]) -> Vec<Option<InvocationResult>> {
    let vm = Vm::new(&p.program);
    let cfg = Config::default();
    let mut out = Vec::new();
    if p.stage == IStage::Pixel {
        for q in invs.chunks(4) {
            match vm.run_group(inputs, &cfg, q, q.len() == 4) {
                Ok(r) => out.extend(r.into_iter().map(Some)),
                Err(_) => out.extend(q.iter().map(|_| None)),
            }
        }
    } else {
        for inv in invs {
            out.push(vm.run_group(inputs, &cfg, std::slice::from_ref(inv), false).ok().and_then(|mut r| r.pop()));
        }
    }
    out
}

/// Whether the program uses a transcendental (`latte::transc::Op`): `compat` computes those with
/// the device's f32 functions and division.
fn uses_transcendentals(p: &Program) -> bool {
    use latte::isa::program::ClauseBody;
    p.clauses.iter().any(|c| match &c.body {
        ClauseBody::Alu(groups) => groups
            .iter()
            .flat_map(|g| &g.insts)
            .any(|i| matches!(&i.kind, latte::isa::AluKind::Op2(o) if latte::transc::Op::from_op2(o.op).is_some())),
        ClauseBody::Fetch(_) => false,
    })
}

/// The distance of two f32 bit patterns in units in the last place (ordered as integers, so
/// 0 and -0 are 1 apart); None when either is a NaN or their signs differ.
fn ulp_distance(a: u32, b: u32) -> Option<u64> {
    let nan = |x: u32| x & 0x7FFF_FFFF > 0x7F80_0000;
    if nan(a) || nan(b) || (a ^ b) & 0x8000_0000 != 0 {
        return None;
    }
    Some(u64::from((a & 0x7FFF_FFFF).abs_diff(b & 0x7FFF_FFFF)))
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
    /// `compat` only: invocations of programs with transcendentals that differ, and the largest
    /// ulp distance of a differing word (u64::MAX: a NaN, sign or integer difference).
    compat_differing: usize,
    compat_max_ulp: u64,
    failures: Vec<String>,
    build: std::time::Duration,
    /// Programs with transcendentals, and their pipeline build + run time.
    transc_programs: usize,
    transc_build: std::time::Duration,
}

fn run_one(gpu: &gpu::Gpu, name: &str, mut u: Unstructured, p: &SmithProgram, precision: Precision, t: &mut Tally) {
    t.programs += 1;
    let inputs = latte::smith::inputs(&mut u, p).unwrap_or_default();
    let invs = latte::smith::invocations(&mut u, p, CASES).unwrap();
    let stage = if p.stage == IStage::Pixel { Stage::Pixel } else { Stage::Vertex };
    let options = Options { precision, loop_consts: inputs.loop_consts.clone(), bool_consts: inputs.bool_consts };
    let tr = match translate(&p.program, stage, &options) {
        Ok(tr) => tr,
        Err(Error::LatteUnsupported { .. }) => {
            t.unsupported += 1;
            return;
        }
        Err(e) => panic!("{name}: {e}"),
    };
    t.translated += 1;
    let words = tr.spirv().unwrap();
    let mut input = vec![0u32; invs.len() * IN_STRIDE as usize * 4];
    for (i, inv) in invs.iter().enumerate() {
        let b = i * IN_STRIDE as usize * 4;
        for &(r, v) in &inv.gprs {
            if (r as usize) < 128 {
                input[b + r as usize * 4..b + r as usize * 4 + 4].copy_from_slice(&v);
            }
        }
        input[b + 128 * 4] = inv.invalid as u32;
    }
    let blocks: Vec<(u8, &[u32])> = inputs.uniform_blocks.iter().map(|(k, v)| (*k, v.as_slice())).collect();
    let run = LatteRun {
        blocks: &blocks,
        bind_blocks: tr.uniform_blocks(),
        cfile: &inputs.cfile,
        input: &input,
        invocations: invs.len() as u32,
    };
    let (out, took) = gpu.run_latte_compute(&words, &run).unwrap_or_else(|e| panic!("{name}: {e}"));
    t.build += took;
    if uses_transcendentals(&p.program) {
        t.transc_programs += 1;
        t.transc_build += took;
    }
    let want = reference(p, &inputs, &invs);
    for (i, w) in want.iter().enumerate() {
        if invs[i].invalid && p.stage == IStage::Pixel {
            // Helper lanes: nothing of theirs is visible.
            continue;
        }
        let got = &out[i * OUT_WORDS as usize..(i + 1) * OUT_WORDS as usize];
        let Some(r) = w else {
            t.interp_errors += 1;
            continue;
        };
        t.compared += 1;
        let e = expected(r);
        let bits: u64 = e.iter().zip(got).map(|(a, b)| (a ^ b).count_ones() as u64).sum();
        if bits != 0 || got[OUT_ERR as usize] != 0 {
            if precision == Precision::Compat && uses_transcendentals(&p.program) && got[OUT_ERR as usize] == 0 {
                t.compat_differing += 1;
                let d =
                    e.iter().zip(got).filter(|(a, b)| a != b).map(|(&a, &b)| ulp_distance(a, b).unwrap_or(u64::MAX));
                t.compat_max_ulp = t.compat_max_ulp.max(d.max().unwrap_or(0));
                continue;
            }
            t.mismatched_invocations += 1;
            t.mismatched_bits += bits;
            if t.failures.len() < 12 {
                let diffs: Vec<String> = e
                    .iter()
                    .zip(got)
                    .enumerate()
                    .filter(|(_, (a, b))| a != b)
                    .take(4)
                    .map(|(k, (a, b))| format!("word {k}: want {a:#010x} got {b:#010x}"))
                    .collect();
                t.failures.push(format!(
                    "{name} invocation {i} ({:?}): err {:#x}; {}",
                    p.stage,
                    got[0],
                    diffs.join(", ")
                ));
            }
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
    for seed in 0..count {
        let data = bytes(seed, 65536);
        let mut u = Unstructured::new(&data);
        let p = latte::smith::program(&mut u, &latte::smith::Config::default()).unwrap();
        run_one(&gpu, &format!("smith seed {seed}"), u, &p, Precision::Exact, &mut t);
    }
    eprintln!("corpus part: {corpus_tally}");
    eprintln!(
        "{} programs: {} translated ({} not yet: fetch clauses), {} invocations compared, {} skipped (interpreter error), {} mismatched ({} bits); pipeline build + run {:.1} s; total {:.1} s",
        t.programs,
        t.translated,
        t.unsupported,
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
    assert_eq!(t.mismatched_invocations, 0, "{:#?}", t.failures);
}

/// `compat` over the corpus: programs without transcendentals must still match to the bit;
/// those with them may differ where the device's f32 functions do (docs/latte-translate.md
/// "Precision": per-op tolerance; a program's outputs carry those differences through its
/// later arithmetic, so no per-output bound is asserted, the largest is printed).
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
        "compat: {} programs: {} translated, {} invocations compared, {} mismatched outside transcendental programs, {} differing in programs with transcendentals (max {} ulp); total {:.1} s",
        t.programs,
        t.translated,
        t.compared,
        t.mismatched_invocations,
        t.compat_differing,
        t.compat_max_ulp,
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

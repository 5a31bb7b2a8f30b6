//! Differential verification of a Latte translation: the compute form
//! ([`Gpu::run_latte_compute`]) on the Vulkan device against `latte::interp`, over random
//! uniform blocks, constant file and initial GPRs (`latte::smith::inputs` / `invocations`).
//!
//! Each invocation is one case. The record compared is the compute form's output
//! (docs/abi.md "Latte"): final R0-R127, the last value, mask and count of each export slot,
//! the memory writes, the kill bit and the error word. A case passes when every word matches
//! bit for bit and the device's error word is 0; pixel programs run in the interpreter as 2x2
//! quads and on the device one invocation each, and helper (invalid) lanes are not compared
//! (nothing of theirs is visible). A program that sets WHOLE_QUAD_MODE runs in the
//! interpreter one invocation per group as well: the compute form has no quads, so a quad's
//! inactive lanes running there (facts §2.7) is not what it models (docs/latte-translate.md
//! "Whole-quad mode"). Cases where the interpreter stops with an error are skipped:
//! the hardware has no defined result for them.
//!
//! The one tolerance (docs/latte-translate.md "Precision"): EXP_IEEE, LOG_*, RECIPSQRT_* and
//! SIN/COS use the device's f32 functions, so in a program that uses them, at `fast` or
//! `compat`, a GPR, export or memory value word whose two sides are both normal floats of the
//! same sign within [`TRANSCENDENTAL_ULPS`] ulp matches. At `exact` nothing is tolerated.

use arbitrary::Unstructured;
use latte::interp::{Config, ExportKind, Inputs, Invocation, InvocationResult, Stage as IStage, Vm};
use latte::isa::Program;
use latte::smith::SmithProgram;
use translate::latte::{
    export_slot, translate, FetchData, Options, Stage, IN_STRIDE, MEM_MAX, OUT_ERR, OUT_EXPORTS, OUT_GPRS, OUT_KILLED,
    OUT_MEM, OUT_MEM_COUNT, OUT_UNMAPPED, OUT_WORDS,
};
use translate::Precision;

use crate::{Gpu, GpuError, LatteRun};

/// Ulp distance tolerated in value words of programs with transcendentals (not at `exact`).
/// The device test measured 1-2 ulp on lavapipe (docs/latte-translate.md "Device test").
pub const TRANSCENDENTAL_ULPS: u32 = 4;

/// Bytes of random data [`verify_latte`] draws inputs from: enough for every uniform block,
/// the constant file, the buffers and 64 invocations' GPRs several times over.
const DATA_BYTES: usize = 1 << 20;

/// Mismatch descriptions a report keeps.
const MAX_EXAMPLES: usize = 8;

/// Settings of one verification.
#[derive(Clone, Copy, Debug)]
pub struct LatteSettings {
    /// Invocations (input sets).
    pub cases: usize,
    /// Precision of the translation (and whether the transcendental tolerance applies).
    pub precision: Precision,
    /// Seed of the random inputs.
    pub seed: u64,
}

/// The outcome of one program's verification.
#[derive(Clone, Debug, Default)]
pub struct LatteReport {
    /// Invocations that matched.
    pub passed: usize,
    /// Invocations that differed (or whose device error word was set).
    pub failed: usize,
    /// Of the failed ones, those whose device error word was set.
    pub failed_with_error_flag: usize,
    /// Invocations the interpreter could not run (no defined result).
    pub skipped: usize,
    /// Helper (invalid) pixel lanes, not compared.
    pub helpers: usize,
    /// Passed invocations that matched only through the transcendental tolerance.
    pub within_tolerance: usize,
    /// Differing bits over the failed invocations.
    pub mismatched_bits: u64,
    /// Whether the program uses EXP/LOG/RECIPSQRT/SIN/COS (not bit-exact yet).
    pub transcendentals: bool,
    /// Whether the translation reads the VTX fetch buffers (vertex buffers, VFETCH'd blocks).
    pub vtx: bool,
    /// Whether the program sets WHOLE_QUAD_MODE (compared one invocation per group).
    pub wqm: bool,
    /// The first mismatches, described.
    pub examples: Vec<String>,
    /// Pipeline creation plus the dispatch.
    pub device_time: std::time::Duration,
}

/// Why a verification could not run.
#[derive(Debug, thiserror::Error)]
pub enum LatteVerifyError {
    /// The translation failed (`LatteUnsupported` for what it does not cover yet).
    #[error(transparent)]
    Translate(#[from] translate::Error),
    /// The device failed.
    #[error(transparent)]
    Device(#[from] GpuError),
    /// The random inputs could not be drawn (too little data).
    #[error("random inputs: {0}")]
    Inputs(String),
}

pub use latte::smith::seeded_bytes;

/// The interpreter's stage of a translation stage.
pub fn interp_stage(stage: Stage) -> IStage {
    match stage {
        Stage::Vertex => IStage::Vertex,
        Stage::Pixel => IStage::Pixel,
    }
}

/// Verifies `program` for `stage` with inputs drawn from `settings.seed`. Loop constants are
/// the interpreter's default (`latte::interp::DEFAULT_LOOP_CONST`) on both sides.
///
/// # Errors
/// See [`LatteVerifyError`].
pub fn verify_latte(
    gpu: &Gpu,
    program: &Program,
    stage: Stage,
    settings: LatteSettings,
) -> Result<LatteReport, LatteVerifyError> {
    let p = SmithProgram { program: program.clone(), stage: interp_stage(stage), loop_consts: Default::default() };
    let data = seeded_bytes(settings.seed, DATA_BYTES);
    verify_smith(gpu, &p, &mut Unstructured::new(&data), settings.cases, settings.precision)
}

/// Verifies `p` with its inputs and `cases` invocations drawn from `u` (`latte::smith::inputs`,
/// then `invocations`).
///
/// # Errors
/// See [`LatteVerifyError`].
pub fn verify_smith(
    gpu: &Gpu,
    p: &SmithProgram,
    u: &mut Unstructured,
    cases: usize,
    precision: Precision,
) -> Result<LatteReport, LatteVerifyError> {
    let inputs = latte::smith::inputs(u, p).map_err(|e| LatteVerifyError::Inputs(e.to_string()))?;
    let invs = latte::smith::invocations(u, p, cases).map_err(|e| LatteVerifyError::Inputs(e.to_string()))?;
    let stage = if p.stage == IStage::Pixel { Stage::Pixel } else { Stage::Vertex };
    let options = Options { precision, loop_consts: inputs.loop_consts.clone(), bool_consts: inputs.bool_consts };
    let tr = translate(&p.program, stage, &options)?;
    let words = tr.spirv()?;
    let input = input_records(&invs);
    let blocks: Vec<(u8, &[u32])> = inputs.uniform_blocks.iter().map(|(k, v)| (*k, v.as_slice())).collect();
    let fetch = FetchData::from_inputs(&inputs);
    let run = LatteRun {
        fetch: Some(&fetch),
        blocks: &blocks,
        bind_blocks: tr.uniform_blocks(),
        cfile: &inputs.cfile,
        input: &input,
        invocations: invs.len() as u32,
    };
    let (out, took) = gpu.run_latte_compute(&words, &run)?;
    let want = reference(p, &inputs, &invs);
    let mut report = LatteReport {
        transcendentals: uses_transcendentals(&p.program),
        vtx: tr.reads_fetch_buffers(),
        wqm: uses_whole_quad_mode(&p.program),
        device_time: took,
        ..Default::default()
    };
    let tolerant = report.transcendentals && precision != Precision::Exact;
    for (i, w) in want.iter().enumerate() {
        if invs[i].invalid && p.stage == IStage::Pixel {
            report.helpers += 1;
            continue;
        }
        let got = &out[i * OUT_WORDS as usize..(i + 1) * OUT_WORDS as usize];
        let Some(r) = w else {
            report.skipped += 1;
            continue;
        };
        compare(&mut report, i, &expected(r), got, tolerant);
    }
    Ok(report)
}

/// Counts invocation `i`: `want` (the interpreter's record) against `got` (the device's).
fn compare(report: &mut LatteReport, i: usize, want: &[u32], got: &[u32], tolerant: bool) {
    let err = got[OUT_ERR as usize];
    let differing: Vec<usize> = (0..want.len()).filter(|&k| want[k] != got[k]).collect();
    let beyond: Vec<usize> =
        differing.iter().copied().filter(|&k| !(tolerant && value_word(k) && close(want[k], got[k]))).collect();
    if err == 0 && beyond.is_empty() {
        report.passed += 1;
        if !differing.is_empty() {
            report.within_tolerance += 1;
        }
        return;
    }
    report.failed += 1;
    if err != 0 {
        report.failed_with_error_flag += 1;
    }
    report.mismatched_bits += differing.iter().map(|&k| (want[k] ^ got[k]).count_ones() as u64).sum::<u64>();
    if report.examples.len() < MAX_EXAMPLES {
        let diffs: Vec<String> = beyond
            .iter()
            .take(4)
            .map(|&k| format!("{}: want {:#010x} got {:#010x}", word_name(k), want[k], got[k]))
            .collect();
        let err = if err != 0 { format!("error word {err:#x}; ") } else { String::new() };
        report.examples.push(format!("invocation {i}: {err}{}", diffs.join(", ")));
    }
}

/// Whether output word `k` holds a value a program computes (a GPR, an export value or a
/// memory-write value), as opposed to a count, mask, address or flag.
fn value_word(k: usize) -> bool {
    let k = k as u32;
    let gprs = OUT_GPRS..OUT_GPRS + 128 * 4;
    let in_record = |base: u32, count: u32| (base..base + count * 8).contains(&k) && (k - base) % 8 < 4;
    let mem = (OUT_MEM..OUT_MEM + MEM_MAX * 8).contains(&k) && (k - OUT_MEM) % 8 >= 4;
    gprs.contains(&k) || in_record(OUT_EXPORTS, translate::latte::EXPORT_SLOTS) || mem
}

/// Both normal floats of the same sign within [`TRANSCENDENTAL_ULPS`] ulp.
fn close(a: u32, b: u32) -> bool {
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    fa.is_normal() && fb.is_normal() && (a >> 31) == (b >> 31) && a.abs_diff(b) <= TRANSCENDENTAL_ULPS
}

/// A readable name of output word `k`.
fn word_name(k: usize) -> String {
    let k32 = k as u32;
    if (OUT_GPRS..OUT_GPRS + 512).contains(&k32) {
        let r = (k32 - OUT_GPRS) / 4;
        return format!("R{r}.{}", ['x', 'y', 'z', 'w'][((k32 - OUT_GPRS) % 4) as usize]);
    }
    if k32 == OUT_ERR {
        return "error word".into();
    }
    if k32 == OUT_KILLED {
        return "kill bit".into();
    }
    format!("word {k}")
}

/// The compute form's input records: initial R0-R127 and the invalid flag per invocation.
pub fn input_records(invs: &[Invocation]) -> Vec<u32> {
    let stride = IN_STRIDE as usize * 4;
    let mut input = vec![0u32; invs.len() * stride];
    for (i, inv) in invs.iter().enumerate() {
        let b = i * stride;
        for &(r, v) in &inv.gprs {
            if (r as usize) < 128 {
                input[b + r as usize * 4..b + r as usize * 4 + 4].copy_from_slice(&v);
            }
        }
        input[b + 128 * 4] = inv.invalid as u32;
    }
    input
}

/// The output record the interpreter's result stands for.
pub fn expected(r: &InvocationResult) -> Vec<u32> {
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
    w
}

/// Interpreter results per invocation (`None` where its lane group stopped with an error).
/// Pixel programs run as 2x2 quads (a short last group without derivatives), others, and
/// pixel programs with WHOLE_QUAD_MODE ([`uses_whole_quad_mode`]), one invocation per group.
pub fn reference(p: &SmithProgram, inputs: &Inputs, invs: &[Invocation]) -> Vec<Option<InvocationResult>> {
    let vm = Vm::new(&p.program);
    let cfg = Config::default();
    let mut out = Vec::new();
    if p.stage == IStage::Pixel && !uses_whole_quad_mode(&p.program) {
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

/// Whether a CF instruction of `p` sets WHOLE_QUAD_MODE: a quad's inactive lanes run that
/// clause or export when one of its lanes does (facts §2.7), which the compute form, one
/// invocation alone, does not model.
pub fn uses_whole_quad_mode(p: &Program) -> bool {
    use latte::isa::CfInst;
    p.cf.iter().any(|c| match c {
        CfInst::Normal(n) => n.whole_quad_mode,
        CfInst::Alu(a) => a.whole_quad_mode,
        CfInst::Export(e) => e.whole_quad_mode,
    })
}

/// Whether the program uses an opcode the translation does not compute bit-exactly yet
/// (EXP_IEEE, LOG_CLAMPED, LOG_IEEE, RECIPSQRT_*, SIN, COS: OP2 0x61-0x63, 0x67-0x69, 0x6E, 0x6F).
pub fn uses_transcendentals(p: &Program) -> bool {
    use latte::isa::program::ClauseBody;
    p.clauses.iter().any(|c| {
        match &c.body {
        ClauseBody::Alu(groups) => groups.iter().flat_map(|g| &g.insts).any(|i| {
            matches!(&i.kind, latte::isa::AluKind::Op2(o) if matches!(o.op, 0x61..=0x63 | 0x67..=0x69 | 0x6E | 0x6F))
        }),
        ClauseBody::Fetch(_) => false,
    }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerance_takes_only_close_normal_floats_of_one_sign() {
        let one = 1.0f32.to_bits();
        assert!(close(one, one + TRANSCENDENTAL_ULPS));
        assert!(!close(one, one + TRANSCENDENTAL_ULPS + 1));
        assert!(!close(one, (-1.0f32).to_bits()));
        // Small integers are denormal bit patterns: never tolerated.
        assert!(!close(3, 4));
        assert!(!close(f32::NAN.to_bits(), f32::NAN.to_bits() + 1));
    }

    #[test]
    fn value_words_are_gprs_export_values_and_memory_values() {
        assert!(value_word(OUT_GPRS as usize));
        assert!(value_word(OUT_EXPORTS as usize + 3));
        assert!(!value_word(OUT_EXPORTS as usize + 4), "the export mask");
        assert!(!value_word(OUT_EXPORTS as usize + 5), "the export count");
        assert!(!value_word(OUT_ERR as usize));
        assert!(!value_word(OUT_KILLED as usize));
        assert!(!value_word(OUT_MEM as usize + 1), "a memory address");
        assert!(value_word(OUT_MEM as usize + 4));
    }

    #[test]
    fn a_tolerated_difference_passes_only_when_tolerant() {
        let mut want = vec![0u32; OUT_WORDS as usize];
        want[OUT_GPRS as usize] = 1.0f32.to_bits();
        let mut got = want.clone();
        got[OUT_GPRS as usize] += 2;
        let mut r = LatteReport::default();
        compare(&mut r, 0, &want, &got, true);
        assert_eq!((r.passed, r.within_tolerance, r.failed), (1, 1, 0));
        compare(&mut r, 1, &want, &got, false);
        assert_eq!((r.passed, r.failed, r.mismatched_bits), (1, 1, 1));
        assert!(r.examples[0].contains("R0.x"), "{:?}", r.examples);
        got[OUT_GPRS as usize] -= 2;
        got[OUT_ERR as usize] = 1;
        compare(&mut r, 2, &want, &got, true);
        assert_eq!((r.failed, r.failed_with_error_flag), (2, 1));
    }
}

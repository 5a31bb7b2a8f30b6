//! Differential verification: a translated vertex shader on the Vulkan device against
//! `pica::interp`, over random uniforms and inputs.
//!
//! Each case is one vertex: random uniforms (the DVLE's constants applied over them, as the 3DS
//! runtime does) and random v0-v15. The case passes when every o register the shader outputs
//! matches: bit for bit in `exact` (and in `fast`/`compat` for NaN, infinities and equal values),
//! else within the tolerance of [`compat_match`]. Cases where the interpreter stops with an error
//! (runaway loop, BREAK outside a loop, unknown opcode) are skipped: the hardware has no defined
//! result for them.

use pica::float24::F24;
use pica::interp::{Interpreter, Shader, ShaderKind, Uniforms, Vec4};
use pica::shbin::Shbin;
use translate::pica::{translate, Options, UniformBlock, REGS};
use translate::Precision;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::{Gpu, GpuError, Phase, Progress};

/// Relative tolerance of `fast`/`compat` results (host f32 against float24 rounding at each
/// step; docs/pica-translate.md "Precision"). Most programs stay within 2^-12; programs that
/// amplify rounding differences (the corpus particle shader's floor-based PRNG) reach about 1%.
pub const COMPAT_REL_TOLERANCE: f32 = 1.0 / 64.0;
/// Absolute tolerance floor (values near zero after cancellation).
pub const COMPAT_ABS_TOLERANCE: f32 = 1.0 / 256.0;

/// The outcome of a verification.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Cases whose outputs matched.
    pub passed: usize,
    /// Cases with at least one mismatched output component.
    pub failed: usize,
    /// Cases the interpreter could not run (no defined result).
    pub skipped: usize,
    /// Mismatched components (bits), over all cases.
    pub mismatched_components: usize,
    /// The first mismatches, described.
    pub examples: Vec<String>,
}

/// Mismatch descriptions a report keeps.
const MAX_EXAMPLES: usize = 8;

impl Report {
    /// Keeps the description of a mismatch while fewer than [`MAX_EXAMPLES`] are kept.
    fn example(&mut self, text: impl FnOnce() -> String) {
        if self.examples.len() < MAX_EXAMPLES {
            self.examples.push(text());
        }
    }

    /// Counts a finished case with `bad` mismatched components.
    fn case(&mut self, bad: usize) {
        self.mismatched_components += bad;
        if bad == 0 {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
    }
}

/// Whether a component matches: bit for bit in `exact`, else within the `compat` tolerance.
fn component_matches(exact: bool, got: f32, want: f32) -> bool {
    if exact {
        exact_match(got, want)
    } else {
        compat_match(got, want)
    }
}

/// Verification settings.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Input sets.
    pub cases: usize,
    /// Precision of the translation.
    pub precision: Precision,
    /// Seed of the random inputs.
    pub seed: u64,
    /// Translate with the dispatch loop only (tests of the structured translation).
    pub dispatch_only: bool,
}

/// Why verification could not run.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The executable cannot be loaded by the interpreter.
    #[error("reference interpreter: {0}")]
    Load(#[from] pica::interp::LoadError),
    /// The translation failed.
    #[error("translation: {0}")]
    Translate(#[from] translate::Error),
    /// The device failed.
    #[error("{0}")]
    Gpu(#[from] GpuError),
    /// The executable is of the other kind: geometry shaders are verified with [`verify_geometry`],
    /// vertex shaders with [`verify_vertex`].
    #[error("{0}")]
    Unsupported(String),
    /// A pipeline took longer than the limit of [`verify_with_limit`].
    #[error("timed out after {} s in {phase} (the limit per pipeline)", limit.as_secs_f64())]
    Timeout {
        /// The phase the run was in when the limit passed.
        phase: Phase,
        /// The limit.
        limit: Duration,
    },
}

/// Random verification inputs over the seeded source of `pica::smith`.
pub struct Rng(pica::smith::Rng);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(pica::smith::Rng::new(seed))
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// A value below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0.below(n)
    }
    /// A float24 value: mostly in [-4, 4], sometimes 0, 1, -1, a power of two, or (when
    /// `special`, for `exact`) any float24 bit pattern, infinity or NaN. `compat` does not model
    /// the float24 range (results past 2^64 overflow only in f32), so it gets moderate values.
    pub fn f24(&mut self, special: bool) -> f32 {
        let r = self.below(64);
        match r {
            0 => 0.0,
            1 => 1.0,
            2 => -1.0,
            3 if special => f32::INFINITY,
            4 if special => f32::NEG_INFINITY,
            5 if special => f32::NAN,
            6 => 2f32.powi(self.below(40) as i32 - 20),
            // Any finite float24 with a normal exponent (over- and underflow paths).
            7..=12 if special => F24::from_bits(self.below(1 << 24) as u32 & 0xFFFFFF).to_f32(),
            _ => {
                let bits = (self.below(1 << 16) as u32) | ((60 + self.below(5) as u32) << 16);
                F24::from_bits(bits | ((self.below(2) as u32) << 23)).to_f32()
            }
        }
    }
}

/// Random uniforms: floats as [`Rng::f24`], loop counts small (x < 4, y < 16, z < 4), booleans
/// random.
pub fn random_uniforms(rng: &mut Rng, special: bool) -> Uniforms {
    let mut u = Uniforms::default();
    for c in u.float.iter_mut() {
        *c = [0, 1, 2, 3].map(|_| rng.f24(special));
    }
    for i in u.int.iter_mut() {
        *i = [rng.below(4) as u8, rng.below(16) as u8, rng.below(4) as u8, 0];
    }
    for b in u.bools.iter_mut() {
        *b = rng.below(2) == 1;
    }
    u
}

/// The uniform block of interpreter uniforms.
pub fn block_of(u: &Uniforms) -> UniformBlock {
    let mut b = UniformBlock { c: u.float, ..UniformBlock::default() };
    for (k, i) in u.int.iter().enumerate() {
        b.i[k] = i.map(u32::from);
    }
    for (k, &on) in u.bools.iter().enumerate() {
        b.b |= (on as u16) << k;
    }
    b
}

/// True when a `fast`/`compat` component `got` is acceptable for the reference `want`: equal
/// bits, both NaN, an infinity the host f32 did not reach (float24 overflows at 2^64), a zero the
/// host did not flush (float24 underflows at 2^-62), or within [`COMPAT_REL_TOLERANCE`] relative
/// / [`COMPAT_ABS_TOLERANCE`] absolute.
pub fn compat_match(got: f32, want: f32) -> bool {
    if got.to_bits() == want.to_bits() || got == want || (got.is_nan() && want.is_nan()) {
        return true;
    }
    if want.is_infinite() {
        return got.is_sign_negative() == want.is_sign_negative() && got.abs() >= 2f32.powi(63);
    }
    if want == 0.0 && got.abs() < 2f32.powi(-61) {
        return true;
    }
    if got.is_nan() || got.is_infinite() {
        return false;
    }
    (got - want).abs() <= COMPAT_ABS_TOLERANCE.max(COMPAT_REL_TOLERANCE * want.abs())
}

/// True when `got` is the interpreter's value bit for bit (the exact mode's criterion).
pub fn exact_match(got: f32, want: f32) -> bool {
    got.to_bits() == want.to_bits()
}

/// Verifies vertex executable `entry` of `shbin`.
///
/// # Errors
/// [`VerifyError`] when the interpreter cannot load it, the translation fails, or the device
/// fails.
pub fn verify_vertex(gpu: &Gpu, shbin: &Shbin, entry: usize, settings: Settings) -> Result<Report, VerifyError> {
    verify_vertex_tracked(gpu, shbin, entry, settings, &Progress::default())
}

/// [`verify_vertex`], reporting its phases to `progress`.
///
/// # Errors
/// As [`verify_vertex`].
pub fn verify_vertex_tracked(
    gpu: &Gpu,
    shbin: &Shbin,
    entry: usize,
    settings: Settings,
    progress: &Progress,
) -> Result<Report, VerifyError> {
    progress.set(Phase::Translation);
    let shader = Shader::from_shbin(shbin, entry)?;
    if shader.kind != ShaderKind::Vertex {
        return Err(VerifyError::Unsupported(format!("executable {entry} is a geometry shader: use verify_geometry")));
    }
    let words = spirv_words(shbin, entry, &settings)?;
    let mut rng = Rng::new(settings.seed);
    let special = settings.precision == Precision::Exact;
    let outputs = shader.output_registers();

    // One uniform set per batch of cases: the device run takes one uniform block.
    let mut report = Report::default();
    let batch = 64.min(settings.cases.max(1));
    let mut done = 0;
    while done < settings.cases {
        let n = batch.min(settings.cases - done);
        let mut uniforms = random_uniforms(&mut rng, special);
        // The DVLE's constants over the random values, as the runtime uploads them.
        let base = shader.uniforms.clone();
        apply_dvle_constants(&mut uniforms, &base, shbin, entry);
        let inputs: Vec<[Vec4; 16]> = (0..n).map(|_| [0; 16].map(|_| [0, 1, 2, 3].map(|_| rng.f24(special)))).collect();
        let flat: Vec<u32> = inputs.iter().flatten().flatten().map(|x| x.to_bits()).collect();
        let out = gpu.run_compute_tracked(
            &words,
            translate::pica::COMPUTE_ENTRY,
            &block_of(&uniforms).to_bytes(),
            &flat,
            n as u32,
            n * REGS as usize * 4,
            progress,
        )?;
        progress.set(Phase::Comparison);
        let mut it = Interpreter::new(&shader.program, ShaderKind::Vertex);
        it.set_uniforms(&uniforms);
        let mut reference = vec![[[0.0; 4]; 16]; n];
        let failed = it.run_batch(shader.entry, &inputs, &mut reference);
        for (case, want) in reference.iter().enumerate() {
            if failed.binary_search_by_key(&case, |e| e.0).is_ok() {
                report.skipped += 1;
                continue;
            }
            let mut bad = 0;
            for &reg in &outputs {
                for k in 0..4 {
                    let got = f32::from_bits(out[(case * REGS as usize + reg as usize) * 4 + k]);
                    let w = want[reg as usize][k];
                    if !component_matches(special, got, w) {
                        bad += 1;
                        report.example(|| {
                            format!(
                                "case {}: o{reg}.{} = {got:e} ({:#010x}), reference {w:e} ({:#010x})",
                                done + case,
                                ["x", "y", "z", "w"][k],
                                got.to_bits(),
                                w.to_bits()
                            )
                        });
                    }
                }
            }
            report.case(bad);
        }
        done += n;
    }
    Ok(report)
}

/// The validated SPIR-V words the CLI would write for this executable and settings.
fn spirv_words(shbin: &Shbin, entry: usize, settings: &Settings) -> Result<Vec<u32>, VerifyError> {
    // The vertex check runs the compute wrapper.
    let options =
        Options { precision: settings.precision, dispatch_only: settings.dispatch_only, compute_wrapper: true };
    Ok(translate(shbin, entry, options)?.spirv()?)
}

/// Writes the constants of the DVLE over `u`: every register the loader set in `loaded` (the
/// interpreter's view of the constant table) keeps its loaded value.
fn apply_dvle_constants(u: &mut Uniforms, loaded: &Uniforms, shbin: &Shbin, entry: usize) {
    use pica::shbin::Constant;
    for c in &shbin.executables[entry].constants {
        match *c {
            Constant::Float { reg, .. } if (reg as usize) < 96 => u.float[reg as usize] = loaded.float[reg as usize],
            Constant::Int { reg, .. } if (reg as usize) < 4 => u.int[reg as usize] = loaded.int[reg as usize],
            Constant::Bool { reg, .. } if (reg as usize) < 16 => u.bools[reg as usize] = loaded.bools[reg as usize],
            _ => {}
        }
    }
}

/// Verifies geometry executable `entry` of `shbin`: each case is one invocation, fed as
/// `pica::interp::run_geometry` feeds it in the DVLE's mode (point: random v0-v15; fixed and
/// variable: random vertices written into the float uniforms), run by a fresh interpreter (the
/// compute translation's invocations are independent: docs/pica-translate.md "Geometry
/// shaders"), and compared primitive by primitive: count, winding flag, and the output registers
/// of all three vertices.
///
/// # Errors
/// As [`verify_vertex`].
pub fn verify_geometry(gpu: &Gpu, shbin: &Shbin, entry: usize, settings: Settings) -> Result<Report, VerifyError> {
    verify_geometry_tracked(gpu, shbin, entry, settings, &Progress::default())
}

/// [`verify_geometry`], reporting its phases to `progress`.
///
/// # Errors
/// As [`verify_vertex`].
pub fn verify_geometry_tracked(
    gpu: &Gpu,
    shbin: &Shbin,
    entry: usize,
    settings: Settings,
    progress: &Progress,
) -> Result<Report, VerifyError> {
    use pica::interp::GeometryMode;
    progress.set(Phase::Translation);
    use translate::pica::{GS_IN_STRIDE, GS_MAX_PRIMS};
    let shader = Shader::from_shbin(shbin, entry)?;
    let Some(mode) = shader.geometry else {
        return Err(VerifyError::Unsupported(format!("executable {entry} is a vertex shader: use verify_vertex")));
    };
    let words = spirv_words(shbin, entry, &settings)?;
    let mut rng = Rng::new(settings.seed);
    let special = settings.precision == Precision::Exact;
    let outputs = shader.output_registers();

    // Per case: the uniforms the invocation sees and its input registers.
    let mut setups: Vec<(Uniforms, [Vec4; 16])> = Vec::new();
    let mut base = random_uniforms(&mut rng, special);
    apply_dvle_constants(&mut base, &shader.uniforms, shbin, entry);
    for _ in 0..settings.cases {
        // Float and boolean uniforms travel in each input record, so each case draws its own
        // (the integer uniforms are shared through the uniform block).
        let mut u = random_uniforms(&mut rng, special);
        u.int = base.int;
        apply_dvle_constants(&mut u, &shader.uniforms, shbin, entry);
        let mut v = [[0.0f32; 4]; 16];
        match mode {
            GeometryMode::Point => v = [0; 16].map(|_| [0, 1, 2, 3].map(|_| rng.f24(special))),
            GeometryMode::Fixed { start, vertices } => {
                let per = vertices.max(1) as usize;
                let stride = ((96usize.saturating_sub(start as usize)) / per).clamp(1, 16);
                for k in 0..per * stride {
                    if let Some(c) = u.float.get_mut(start as usize + k) {
                        *c = [0, 1, 2, 3].map(|_| rng.f24(special));
                    }
                }
            }
            GeometryMode::Variable { full_vertices } => {
                let n = 3 + rng.below(4) as usize;
                let full = (full_vertices as usize).min(n);
                let stride = ((95 - (n - full)) / full.max(1)).clamp(1, 8);
                u.float[0] = [n as f32; 4];
                let regs = 1 + full * stride + (n - full);
                for c in u.float.iter_mut().take(regs.min(96)).skip(1) {
                    *c = [0, 1, 2, 3].map(|_| rng.f24(special));
                }
            }
        }
        setups.push((u, v));
    }
    let mut records = Vec::with_capacity(setups.len() * GS_IN_STRIDE as usize * 4);
    for (u, v) in &setups {
        records.extend(v.iter().flatten().map(|x| x.to_bits()));
        records.extend(u.float.iter().flatten().map(|x| x.to_bits()));
        let bits = u.bools.iter().enumerate().fold(0u32, |acc, (k, &b)| acc | (b as u32) << k);
        records.extend([bits, 0, 0, 0]);
    }
    let got = gpu.run_geometry_tracked(&words, &block_of(&base).to_bytes(), &records, progress)?;
    progress.set(Phase::Comparison);

    let mut report = Report::default();
    for (case, ((u, v), g)) in setups.iter().zip(&got).enumerate() {
        let mut it = Interpreter::new(&shader.program, ShaderKind::Geometry);
        it.set_uniforms(u);
        if it.run(shader.entry, v).is_err() {
            report.skipped += 1;
            continue;
        }
        let want = it.take_primitives();
        let mut bad = 0;
        if want.len() != g.count {
            bad += 1;
            report.example(|| format!("case {case}: {} primitives, reference {}", g.count, want.len()));
        }
        for (p, (w, gp)) in want.iter().zip(&g.primitives).take(GS_MAX_PRIMS as usize).enumerate() {
            if w.inverted != gp.inverted {
                bad += 1;
            }
            for s in 0..3 {
                for &reg in &outputs {
                    for k in 0..4 {
                        let gv = f32::from_bits(gp.vertices[s][reg as usize][k]);
                        let wv = w.vertices[s][reg as usize][k];
                        if !component_matches(special, gv, wv) {
                            bad += 1;
                            report.example(|| {
                                format!(
                                    "case {case}: primitive {p} vertex {s} o{reg}.{} = {gv:e}, reference {wv:e}",
                                    ["x", "y", "z", "w"][k]
                                )
                            });
                        }
                    }
                }
            }
        }
        report.case(bad);
    }
    Ok(report)
}

/// Verifies executable `entry` as [`verify_vertex`] or [`verify_geometry`], by its type.
///
/// # Errors
/// As [`verify_vertex`].
pub fn verify_executable(
    gpu: &Gpu,
    shbin: &Shbin,
    entry: usize,
    settings: Settings,
    progress: &Progress,
) -> Result<Report, VerifyError> {
    let geometry = shbin.executables.get(entry).is_some_and(|d| d.shader_type == pica::shbin::ShaderType::Geometry);
    if geometry {
        verify_geometry_tracked(gpu, shbin, entry, settings, progress)
    } else {
        verify_vertex_tracked(gpu, shbin, entry, settings, progress)
    }
}

/// How often [`verify_with_limit`] wakes to check the clock and call its `tick`.
pub const TICK: Duration = Duration::from_millis(100);

/// [`verify_executable`] on a worker thread, watched from this one: every [`TICK`], `tick` gets
/// the current phase and the time the current pipeline has taken so far (from the translation
/// for the first pipeline, from its creation for each later one). When that time passes `limit`
/// the wait ends with [`VerifyError::Timeout`] naming the phase; the worker is left behind (a
/// driver's pipeline creation cannot be interrupted) and ends with the process. `None`: no limit.
///
/// # Errors
/// As [`verify_vertex`], and [`VerifyError::Timeout`].
///
/// # Panics
/// When the worker panics (the panic is carried over).
pub fn verify_with_limit(
    gpu: Arc<Gpu>,
    shbin: Arc<Shbin>,
    entry: usize,
    settings: Settings,
    limit: Option<Duration>,
    mut tick: impl FnMut(Phase, Duration),
) -> Result<Report, VerifyError> {
    let progress = Arc::new(Progress::default());
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = {
        let progress = Arc::clone(&progress);
        std::thread::Builder::new()
            .name(format!("verify executable {entry}"))
            .spawn(move || {
                let _ = tx.send(verify_executable(&gpu, &shbin, entry, settings, &progress));
            })
            .map_err(|e| VerifyError::Gpu(GpuError::Device(format!("cannot start a worker thread: {e}"))))?
    };
    let mut started = Instant::now();
    let mut pipelines = 0;
    loop {
        let wait = match limit {
            Some(limit) => limit.saturating_sub(started.elapsed()).min(TICK),
            None => TICK,
        };
        match rx.recv_timeout(wait) {
            Ok(result) => {
                let _ = worker.join();
                return result;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                if let Err(panic) = worker.join() {
                    std::panic::resume_unwind(panic);
                }
                return Err(VerifyError::Gpu(GpuError::Device(
                    "the verification thread ended without a result".into(),
                )));
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        let now = progress.pipelines();
        if now != pipelines {
            if pipelines > 0 {
                started = Instant::now();
            }
            pipelines = now;
        }
        let phase = progress.phase();
        if let Some(limit) = limit {
            if started.elapsed() >= limit {
                return Err(VerifyError::Timeout { phase, limit });
            }
        }
        tick(phase, started.elapsed());
    }
}

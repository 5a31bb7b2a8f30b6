//! A whole shader dump to keyed translations, listings and a report (docs/batch.md).
//!
//! [`run`] reads every container of a directory tree once ([`collect()`]), deduplicates by GFD
//! SHA-1 and by runtime key, translates each unique shader in parallel on a rayon pool, writes
//! `<key>.<stage>.<ext>` files that changed (with each shader's interface, `<key>.<stage>.meta`,
//! and the game-wide `varyings.txt`) and returns the [`Report`] (also written as
//! `report.json`). One bad file or shader never stops the run: it is reported.
//!
//! With a [`Verifier`] ([`run_verified`], `shaderport batch --verify`) every translated or
//! cached shader is also checked on the device, and the outcome goes into its report entry and
//! the totals.
//!
//! An unchanged dump costs little the second time: each shader's output files are kept in the
//! translation cache (`translate::cache`, by default in `OUTDIR/.cache`) under a key of
//! everything they depend on, the translator's own sources included ([`TRANSLATOR`]); a hit
//! writes the files that are missing or differ and translates nothing, and a file whose bytes
//! are already on disk is not written.

#![forbid(unsafe_code)]

mod cached;
pub mod collect;
mod report;

pub use collect::{collect, Collection, FileError, Shader, Source};
pub use report::{
    CacheReport, Config, Report, ShaderReport, Slow, Status, Times, Totals, VaryingsReport, Verified, VerifyStatus,
    VerifyTotals,
};

use latte::gfd::Stage;
use latte::key::sha1_hex;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use translate::cache::{Cache, CacheError};
use translate::latte::{Interface, Varyings};
use translate::{Precision, Target};

include!(concat!(env!("OUT_DIR"), "/translator.rs"));

/// The translation cache's folder inside the output folder, by default.
pub const CACHE_DIR: &str = ".cache";

/// The translation cache's default size cap: 1 GiB (the least recently used entries go first).
pub const CACHE_MAX_BYTES: u64 = 1 << 30;

/// Where a run keeps its translation cache.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CacheDir {
    /// [`CACHE_DIR`] in the output folder.
    #[default]
    InOutput,
    /// This folder (created if needed; several runs and processes may share it).
    At(PathBuf),
    /// No cache: every shader is translated.
    Off,
}

/// What a run writes besides `report.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Targets, in the order asked for.
    pub targets: Vec<Target>,
    /// Float precision of the translations.
    pub precision: Precision,
    /// Worker threads (`None`: one per core).
    pub jobs: Option<usize>,
    /// Also write `<key>.<stage>.txt` listings.
    pub disasm: bool,
    /// Also find GFDs embedded in files of no known container, by their magic.
    pub scan: bool,
    /// The translation cache's folder, or none.
    pub cache: CacheDir,
    /// The cache's size cap in bytes.
    pub cache_max_bytes: u64,
    /// The translator's identity in cache keys: [`TRANSLATOR`]. Another value never reads the
    /// entries of this one (tests use it to stand for another build of the translator).
    pub translator: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            targets: vec![Target::SpirV],
            precision: Precision::default(),
            jobs: None,
            disasm: false,
            scan: false,
            cache: CacheDir::InOutput,
            cache_max_bytes: CACHE_MAX_BYTES,
            translator: TRANSLATOR.to_string(),
        }
    }
}

/// Why a run could not go on (single shaders and files never stop it: they are reported).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The dump directory cannot be walked.
    #[error("{path}: cannot read the dump: {source}")]
    Dump {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The output directory or report cannot be written.
    #[error("{path}: cannot write: {source}")]
    Write {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The worker pool cannot be started.
    #[error("cannot start {0} worker threads")]
    Pool(usize),
    /// The translation cache's folder cannot be created or read.
    #[error("translation cache: {0}")]
    Cache(#[from] CacheError),
}

/// The file-name stage of a shader: `vert`, `frag`, `geom`.
pub fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Vertex => "vert",
        Stage::Pixel => "frag",
        Stage::Geometry => "geom",
    }
}

/// Where the shader interfaces are (the report's `interface`): each shader's
/// `<key>.<stage>.meta` (`translate::latte::Interface` as JSON, docs/latte-translate.md
/// "Interface files") and the game-wide varying map [`VARYINGS_FILE`].
pub const INTERFACE: &str = "<key>.<stage>.meta per shader (translate::latte::Interface as JSON, also for shaders that fail to translate), varyings.txt for the whole dump (docs/latte-translate.md \"Interface files\")";

/// The game-wide varying map's file in the output folder (`translate::latte::Varyings::to_text`).
pub const VARYINGS_FILE: &str = "varyings.txt";

/// The game-wide varying map: every semantic of every shader's header (headers with bad
/// semantic tables add nothing; their shaders fail with the same error when their interface is
/// built).
pub fn varyings(c: &Collection) -> Varyings {
    let mut sems = Vec::new();
    for s in c.shaders.values() {
        let file = s.sources.first().map(|x| x.file.as_str()).unwrap_or_default();
        sems.extend(translate::latte::header_semantics(file, &s.header).unwrap_or_default());
    }
    Varyings::from_semantics(sems)
}

/// The file extension of a target's output. GLSL takes glslang's stage extension of the entry
/// point written (today the compute form: `comp`), so `glslangValidator -V` reads the file as is.
pub fn extension(target: Target, entry: naga::ShaderStage) -> &'static str {
    match target {
        Target::Glsl | Target::GlslEs => match entry {
            naga::ShaderStage::Vertex => "vert",
            naga::ShaderStage::Fragment => "frag",
            _ => "comp",
        },
        t => t.extension(),
    }
}

struct Done {
    key: String,
    outputs: Vec<(String, Vec<u8>)>,
    error: Option<String>,
    times: Times,
    sizes: BTreeMap<String, usize>,
}

/// Translates one shader into its output files: first its `.meta` (the header's interface,
/// written even when the translation fails, like the listing), then the targets.
fn translate_one(s: &Shader, opts: &Options, varyings: &Varyings) -> Done {
    let stage = stage_name(s.stage);
    let mut times = Times::default();
    let mut sizes = BTreeMap::from([("program".to_string(), s.program.len())]);
    let mut outputs = Vec::new();
    let fail = |error: String, times: Times, sizes, outputs| Done {
        key: s.key.clone(),
        outputs,
        error: Some(error),
        times,
        sizes,
    };
    let t0 = Instant::now();
    let file = s.sources.first().map(|x| x.file.as_str()).unwrap_or_default();
    match Interface::from_header(file, &s.key, &s.header, varyings) {
        Ok(i) => outputs.push((format!("{}.{stage}.meta", s.key), i.to_json().into_bytes())),
        Err(e) => return fail(format!("interface: {e}"), times, sizes, outputs),
    }
    let prog = match latte::isa::Program::decode_bytes(&s.program, s.program_offset) {
        Ok(p) => p,
        Err(e) => return fail(format!("decode: {e}"), times, sizes, outputs),
    };
    times.decode_us = t0.elapsed().as_micros() as u64;
    sizes.insert("instructions".into(), prog.instruction_count());
    if opts.disasm {
        let t = latte::disasm::disassemble(&prog).into_bytes();
        outputs.push((format!("{}.{stage}.txt", s.key), t));
    }
    let tstage = match s.stage {
        Stage::Vertex => translate::latte::Stage::Vertex,
        Stage::Pixel => translate::latte::Stage::Pixel,
        Stage::Geometry => {
            return fail("geometry programs are not translated yet".into(), times, sizes, outputs);
        }
    };
    let t1 = Instant::now();
    let topts = translate::latte::Options { precision: opts.precision, ..Default::default() };
    let tr = translate::latte::translate(&prog, tstage, &topts);
    times.translate_us = t1.elapsed().as_micros() as u64;
    let tr = match tr {
        Ok(t) => t,
        Err(e) => return fail(format!("translate: {e}"), times, sizes, outputs),
    };
    let t2 = Instant::now();
    let entry = tr.entry().0;
    for &target in &opts.targets {
        match tr.write(target) {
            Ok(o) => {
                let bytes = o.to_bytes();
                sizes.insert(target.name().to_string(), bytes.len());
                outputs.push((format!("{}.{stage}.{}", s.key, extension(target, entry)), bytes));
            }
            Err(e) => {
                times.emit_us = t2.elapsed().as_micros() as u64;
                return fail(format!("{}: {e}", target.name()), times, sizes, outputs);
            }
        }
    }
    times.emit_us = t2.elapsed().as_micros() as u64;
    Done { key: s.key.clone(), outputs, error: None, times, sizes }
}

/// Writes `bytes` to `path` unless the file already holds them; true when written.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<bool, Error> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    std::fs::write(path, bytes).map_err(|source| Error::Write { path: path.to_path_buf(), source })?;
    Ok(true)
}

/// A device check of one shader: its decoded program and stage (translated again by the
/// checker, with the run's precision). Called from the worker threads.
pub type Verifier<'a> = dyn Fn(&latte::isa::Program, translate::latte::Stage) -> Verified + Sync + 'a;

/// Batch-translates the dump under `dir` into `out`. `progress(done, total, key)` is called
/// after each shader, from the worker threads.
///
/// # Errors
/// See [`Error`]; problems with single files and shaders are in the report.
pub fn run(
    dir: &Path,
    out: &Path,
    opts: &Options,
    progress: &(dyn Fn(usize, usize, &str) + Sync),
) -> Result<Report, Error> {
    run_verified(dir, out, opts, progress, None)
}

/// [`run`], and each shader that translated (this run or cached) checked by `verify`.
///
/// # Errors
/// See [`Error`].
pub fn run_verified(
    dir: &Path,
    out: &Path,
    opts: &Options,
    progress: &(dyn Fn(usize, usize, &str) + Sync),
    verify: Option<&Verifier<'_>>,
) -> Result<Report, Error> {
    let start = Instant::now();
    std::fs::create_dir_all(out).map_err(|source| Error::Write { path: out.to_path_buf(), source })?;
    let t_collect = Instant::now();
    let c = collect(dir, opts.scan).map_err(|source| Error::Dump { path: dir.to_path_buf(), source })?;
    let map = varyings(&c);
    let varyings_text = map.to_text();
    let collect_us = t_collect.elapsed().as_micros() as u64;
    // The map is part of every cache key: when it changes, every .meta may change, so no
    // entry of another map is used (files whose bytes come out the same are not rewritten).
    let varyings_sha = sha1_hex(varyings_text.as_bytes());
    let config = Config::of(opts, &varyings_sha);
    let cache = match &opts.cache {
        CacheDir::InOutput => Some(Cache::open(out.join(CACHE_DIR), opts.cache_max_bytes)?),
        CacheDir::At(dir) => Some(Cache::open(dir, opts.cache_max_bytes)?),
        CacheDir::Off => None,
    };
    let ctx = Context { opts, varyings: &map, varyings_sha: &varyings_sha, out, cache: cache.as_ref() };
    let shaders: Vec<&Shader> = c.shaders.values().collect();
    let total = shaders.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let work = || -> Vec<Result<ShaderReport, Error>> {
        shaders
            .par_iter()
            .map(|s| {
                let r = shader_report(s, &ctx).map(|mut r| {
                    if let Some(v) = verify {
                        r.verify = check(s, &r, v);
                    }
                    r
                });
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(n, total, &s.key);
                r
            })
            .collect()
    };
    let results = match opts.jobs {
        Some(j) => rayon::ThreadPoolBuilder::new().num_threads(j).build().map_err(|_| Error::Pool(j))?.install(work),
        None => work(),
    };
    let shaders = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    let vr = VaryingsReport {
        file: VARYINGS_FILE.to_string(),
        semantics: map.len(),
        written: write_if_changed(&out.join(VARYINGS_FILE), varyings_text.as_bytes())?,
    };
    let mut report = Report::new(config, &c, shaders, vr, collect_us, start.elapsed().as_micros() as u64);
    report.cache = cache.as_ref().map(CacheReport::of);
    let json = serde_json::to_vec_pretty(&report).expect("the report serialises");
    let path = out.join("report.json");
    std::fs::write(&path, json).map_err(|source| Error::Write { path, source })?;
    Ok(report)
}

/// The device check of a shader that translated; `None` for one that did not.
fn check(s: &Shader, r: &ShaderReport, verify: &Verifier<'_>) -> Option<Verified> {
    if r.status == Status::Failed {
        return None;
    }
    let stage = match s.stage {
        Stage::Vertex => translate::latte::Stage::Vertex,
        Stage::Pixel => translate::latte::Stage::Pixel,
        Stage::Geometry => return None,
    };
    let t = Instant::now();
    let mut v = match latte::isa::Program::decode_bytes(&s.program, s.program_offset) {
        Ok(p) => verify(&p, stage),
        Err(e) => Verified {
            status: VerifyStatus::Error,
            passed: 0,
            failed: 0,
            skipped: 0,
            error: Some(format!("decode: {e}")),
            us: 0,
        },
    };
    v.us = t.elapsed().as_micros() as u64;
    Some(v)
}

/// What every shader of a run shares.
struct Context<'a> {
    opts: &'a Options,
    varyings: &'a Varyings,
    /// SHA-1 of `varyings.txt`.
    varyings_sha: &'a str,
    out: &'a Path,
    cache: Option<&'a Cache>,
}

/// Writes a shader's outputs (those whose bytes are not on disk already) into its report entry.
fn write_outputs(r: &mut ShaderReport, outputs: &[(String, Vec<u8>)], out: &Path) -> Result<(), Error> {
    let t = Instant::now();
    for (name, bytes) in outputs {
        if write_if_changed(&out.join(name), bytes)? {
            r.written += 1;
        }
        r.outputs.insert(name.clone(), sha1_hex(bytes));
    }
    r.times.write_us = t.elapsed().as_micros() as u64;
    r.times.total_us = r.times.decode_us + r.times.translate_us + r.times.emit_us + r.times.write_us;
    Ok(())
}

/// One shader: its outputs from the cache (`cached`), or translated (`ok`, then stored in the
/// cache) or not (`failed`, never stored: it is tried again every run).
fn shader_report(s: &Shader, ctx: &Context<'_>) -> Result<ShaderReport, Error> {
    let mut r = ShaderReport::new(s);
    let key = ctx.cache.map(|_| cached::key(s, ctx.opts, ctx.varyings_sha));
    if let (Some(cache), Some(key)) = (ctx.cache, &key) {
        // A value of another layout is a miss as well: translated again and replaced.
        if let Some(e) = cache.get(key).and_then(|v| cached::Entry::decode(&v)) {
            r.status = Status::Cached;
            r.sizes = e.sizes;
            write_outputs(&mut r, &e.outputs, ctx.out)?;
            return Ok(r);
        }
    }
    let d = translate_one(s, ctx.opts, ctx.varyings);
    debug_assert_eq!(d.key, s.key);
    r.times = d.times;
    r.sizes = d.sizes;
    write_outputs(&mut r, &d.outputs, ctx.out)?;
    match d.error {
        Some(e) => {
            r.status = Status::Failed;
            r.error = Some(e);
            // A failed shader is not cached: its partial outputs are not a translation.
            r.outputs.clear();
        }
        None => {
            r.status = Status::Ok;
            if let (Some(cache), Some(key)) = (ctx.cache, &key) {
                // A failed write (disk full) is counted in the cache's stats; the run goes on.
                let _ = cache.put(key, &cached::Entry { outputs: d.outputs, sizes: r.sizes.clone() }.encode());
            }
        }
    }
    Ok(r)
}

//! `report.json`: per shader its key, SHA-1, sources, stage, status, error, sizes and phase
//! times, and with `--verify` its device check; the files that could not be read; totals and
//! the slowest ten (docs/batch.md).

use crate::collect::{Collection, FileError, Shader, Source};
use crate::{stage_name, Options, INTERFACE};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the outputs depend on besides the shader (each is also in every cache key).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Config {
    /// shaderport's version.
    pub version: String,
    /// The translator's identity (`batch::TRANSLATOR`: a hash of its sources at build time).
    #[serde(default)]
    pub translator: String,
    /// Targets by name.
    pub targets: Vec<String>,
    /// Precision by name.
    pub precision: String,
    /// Listings written.
    pub disasm: bool,
    /// Embedded GFDs scanned for.
    pub scan: bool,
    /// SHA-1 of the game-wide `varyings.txt`: every `.meta` depends on it.
    pub varyings: String,
}

impl Config {
    /// The config of `opts` with the varying map whose `varyings.txt` has SHA-1 `varyings`.
    pub fn of(opts: &Options, varyings: &str) -> Config {
        Config {
            version: env!("CARGO_PKG_VERSION").to_string(),
            translator: opts.translator.clone(),
            targets: opts.targets.iter().map(|t| t.name().to_string()).collect(),
            precision: format!("{:?}", opts.precision).to_lowercase(),
            disasm: opts.disasm,
            scan: opts.scan,
            varyings: varyings.to_string(),
        }
    }
}

/// A shader's outcome.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Translated this run.
    Ok,
    /// Served from the translation cache: not translated again (missing or differing
    /// output files written from the cache entry).
    Cached,
    /// Not translated: see `error`.
    Failed,
}

/// Microseconds spent in each phase of one shader (0 for phases not reached or cached).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Times {
    /// Microcode decode.
    pub decode_us: u64,
    /// Translation to a validated naga module.
    pub translate_us: u64,
    /// Back ends (SPIR-V and the other targets).
    pub emit_us: u64,
    /// Comparing with and writing the files.
    pub write_us: u64,
    /// The sum.
    pub total_us: u64,
}

/// The outcome of a shader's device check.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum VerifyStatus {
    /// Every compared invocation matched the interpreter.
    Passed,
    /// At least one invocation differed.
    Failed,
    /// The check could not run (see `error`).
    Error,
}

/// A shader's device check (`--verify`): its translation on the Vulkan device against
/// `latte::interp`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Verified {
    /// Outcome.
    pub status: VerifyStatus,
    /// Invocations that matched.
    pub passed: usize,
    /// Invocations that differed.
    pub failed: usize,
    /// Invocations the interpreter could not run (not compared).
    pub skipped: usize,
    /// Why the check could not run, or the first mismatch.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<String>,
    /// Microseconds the check took.
    pub us: u64,
}

/// Totals of the device checks of a run.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct VerifyTotals {
    /// Shaders checked.
    pub shaders: usize,
    /// Shaders whose every invocation matched.
    pub passed: usize,
    /// Shaders with a differing invocation.
    pub failed: usize,
    /// Shaders whose check could not run.
    pub errors: usize,
    /// Invocations that matched, over all shaders.
    pub cases_passed: usize,
    /// Invocations that differed, over all shaders.
    pub cases_failed: usize,
    /// Microseconds of all checks (summed over the workers).
    pub us: u64,
}

/// One unique shader's entry.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ShaderReport {
    /// Runtime key.
    pub key: String,
    /// SHA-1 of the first GFD it was found in (every source has its own).
    pub sha1: String,
    /// `vert`, `frag` or `geom`.
    pub stage: String,
    /// Outcome.
    pub status: Status,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<String>,
    /// Sizes in bytes by what (`program`, each target), and `instructions`.
    pub sizes: BTreeMap<String, usize>,
    /// Phase times.
    pub times: Times,
    /// Files written for it, each with the SHA-1 of its bytes.
    pub outputs: BTreeMap<String, String>,
    /// Of those, how many this run wrote (the others were on disk already).
    pub written: usize,
    /// Every file and container entry it came from.
    pub sources: Vec<Source>,
    /// Its device check (`--verify` only; a shader that failed to translate has none).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub verify: Option<Verified>,
}

impl ShaderReport {
    pub(crate) fn new(s: &Shader) -> ShaderReport {
        ShaderReport {
            key: s.key.clone(),
            sha1: s.sources.first().map(|x| x.sha1.clone()).unwrap_or_default(),
            stage: stage_name(s.stage).to_string(),
            status: Status::Failed,
            error: None,
            sizes: BTreeMap::new(),
            times: Times::default(),
            outputs: BTreeMap::new(),
            written: 0,
            sources: s.sources.clone(),
            verify: None,
        }
    }
}

/// A slow shader.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Slow {
    /// Key.
    pub key: String,
    /// Stage.
    pub stage: String,
    /// Its total microseconds.
    pub total_us: u64,
}

/// Totals of a run.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Totals {
    /// Unique shaders.
    pub shaders: usize,
    /// Translated this run.
    pub ok: usize,
    /// Served from the translation cache.
    pub cached: usize,
    /// Failed.
    pub failed: usize,
    /// Files that could not be read (or entries of them).
    pub file_errors: usize,
    /// Output files written this run (report.json aside; varyings.txt included).
    pub files_written: usize,
    /// Unique shaders by stage name.
    pub by_stage: BTreeMap<String, usize>,
    /// Summed phase times of every shader.
    pub phases: Times,
    /// Reading and deduplicating the dump, microseconds.
    pub collect_us: u64,
    /// The whole run, microseconds.
    pub wall_us: u64,
    /// The device checks (`--verify` only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub verify: Option<VerifyTotals>,
}

/// The game-wide varying map of a run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct VaryingsReport {
    /// The file in the output folder (`varyings.txt`).
    pub file: String,
    /// Semantics (= locations) in it.
    pub semantics: usize,
    /// Whether this run wrote it (false: on disk unchanged).
    pub written: bool,
}

/// The translation cache of a run (this run's use of it, not the folder's history).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CacheReport {
    /// The folder.
    pub dir: String,
    /// Shaders served from it.
    pub hits: u64,
    /// Lookups that found no usable entry (failed shaders miss every run: they are not stored).
    pub misses: u64,
    /// Of the misses, entry files found unusable (truncated, garbage): replaced when written.
    pub corrupt: u64,
    /// Entries written (one per shader translated this run).
    pub written: u64,
    /// Entries that could not be written (the run goes on without them).
    pub write_errors: u64,
    /// Entries removed to keep the size cap.
    pub evictions: u64,
    /// Bytes of entries in the folder at the end of the run (as counted when opened, plus
    /// what this run wrote, less what it evicted).
    pub bytes: u64,
    /// The size cap.
    pub max_bytes: u64,
}

impl CacheReport {
    pub(crate) fn of(c: &translate::cache::Cache) -> CacheReport {
        let s = c.stats();
        CacheReport {
            dir: c.dir().display().to_string(),
            hits: s.hits,
            misses: s.misses,
            corrupt: s.corrupt,
            written: s.writes,
            write_errors: s.write_errors,
            evictions: s.evictions,
            bytes: c.bytes(),
            max_bytes: c.max_bytes(),
        }
    }
}

/// The whole report.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Report {
    /// Options the outputs depend on.
    pub config: Config,
    /// The entry point the translations carry (the compute form today).
    pub form: String,
    /// Where the shader interfaces are: `<key>.<stage>.meta` per shader, `varyings.txt`.
    pub interface: String,
    /// The game-wide varying map.
    pub varyings: VaryingsReport,
    /// The translation cache (none with `--no-cache`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cache: Option<CacheReport>,
    /// Regular files read.
    pub files_scanned: usize,
    /// Files holding shaders.
    pub containers: usize,
    /// GFDs read, duplicates included.
    pub entries: usize,
    /// Unique GFDs by SHA-1.
    pub unique_gfds: usize,
    /// Unique shaders by key.
    pub unique_keys: usize,
    /// Files and entries that could not be read.
    pub file_errors: Vec<FileError>,
    /// Totals.
    pub totals: Totals,
    /// The ten slowest shaders of this run.
    pub slowest: Vec<Slow>,
    /// Every unique shader, by key.
    pub shaders: Vec<ShaderReport>,
}

impl Report {
    pub(crate) fn new(
        config: Config,
        c: &Collection,
        shaders: Vec<ShaderReport>,
        varyings: VaryingsReport,
        collect_us: u64,
        wall_us: u64,
    ) -> Report {
        let mut t =
            Totals { shaders: shaders.len(), file_errors: c.errors.len(), collect_us, wall_us, ..Totals::default() };
        for s in &shaders {
            match s.status {
                Status::Ok => t.ok += 1,
                Status::Cached => t.cached += 1,
                Status::Failed => t.failed += 1,
            }
            *t.by_stage.entry(s.stage.clone()).or_default() += 1;
            t.files_written += s.written;
            t.phases.decode_us += s.times.decode_us;
            t.phases.translate_us += s.times.translate_us;
            t.phases.emit_us += s.times.emit_us;
            t.phases.write_us += s.times.write_us;
            t.phases.total_us += s.times.total_us;
            if let Some(v) = &s.verify {
                let vt = t.verify.get_or_insert_with(VerifyTotals::default);
                vt.shaders += 1;
                match v.status {
                    VerifyStatus::Passed => vt.passed += 1,
                    VerifyStatus::Failed => vt.failed += 1,
                    VerifyStatus::Error => vt.errors += 1,
                }
                vt.cases_passed += v.passed;
                vt.cases_failed += v.failed;
                vt.us += v.us;
            }
        }
        t.files_written += varyings.written as usize;
        let mut slow: Vec<Slow> = shaders
            .iter()
            .filter(|s| s.times.total_us > 0)
            .map(|s| Slow { key: s.key.clone(), stage: s.stage.clone(), total_us: s.times.total_us })
            .collect();
        slow.sort_by(|a, b| b.total_us.cmp(&a.total_us).then_with(|| a.key.cmp(&b.key)));
        slow.truncate(10);
        Report {
            config,
            form: "compute (the translation's entry point; see docs/latte-translate.md)".into(),
            interface: INTERFACE.into(),
            varyings,
            cache: None,
            files_scanned: c.files_scanned,
            containers: c.containers,
            entries: c.entries,
            unique_gfds: c.unique_gfds,
            unique_keys: c.shaders.len(),
            file_errors: c.errors.clone(),
            totals: t,
            slowest: slow,
            shaders,
        }
    }

    /// Whether anything failed (a file, an entry, a shader or a device check): the run's exit
    /// status.
    pub fn failed(&self) -> bool {
        let verify = self.totals.verify.as_ref().is_some_and(|v| v.failed + v.errors > 0);
        self.totals.failed > 0 || !self.file_errors.is_empty() || verify
    }
}

//! What the workspace's tests share, and nothing a library user needs: the corpus, a seeded
//! random source, the external tools (spirv-val, glslangValidator) and a parallel map.
//!
//! A dev-dependency only; no library crate depends on it.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Set by `scripts/test`: a missing Vulkan device or tool fails the test instead of skipping it.
pub const REQUIRE_ENV: &str = "SHADERPORT_REQUIRE_GPU";

/// Set by `scripts/test --quick`: long sweeps run a smaller count.
pub const QUICK_ENV: &str = "SHADERPORT_QUICK";

/// The repository's `corpus/` folder, or a path below it.
///
/// ```
/// assert!(testkit::corpus("pica/golden").is_dir());
/// ```
pub fn corpus(rel: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    if rel.is_empty() {
        root
    } else {
        root.join(rel)
    }
}

/// The files directly in `dir` whose names end in `.{ext}`, sorted; panics when `dir` cannot be
/// read, so a moved corpus fails loudly rather than testing nothing.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no .{ext} files in {}", dir.display());
    v
}

/// Every file below `dir` (recursively, in sorted order) whose name ends in `.{ext}`.
pub fn walk(dir: &Path, ext: &str) -> Vec<PathBuf> {
    fn visit(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                visit(&p, ext, out);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    visit(dir, ext, &mut out);
    out
}

/// True when a long sweep should run its quick count (`scripts/test --quick`).
pub fn quick() -> bool {
    std::env::var_os(QUICK_ENV).is_some()
}

/// A count from the environment variable `name`, else `default`.
pub fn count(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// True when the device or a tool is required (`scripts/test`, or CI).
pub fn required() -> bool {
    std::env::var_os(REQUIRE_ENV).is_some() || std::env::var_os("CI").is_some()
}

/// True when `tool --version` runs; panics when it does not and [`required`] is true.
pub fn tool(name: &str) -> bool {
    let ok = Command::new(name).arg("--version").output().is_ok();
    if !ok && required() {
        panic!("{name} is not installed (scripts/test installs it)");
    }
    ok
}

/// `spirv-val --target-env vulkan1.1` on one file: `None` when it accepts it, else its message.
pub fn spirv_val(file: &Path) -> Option<String> {
    let o = Command::new("spirv-val").args(["--target-env", "vulkan1.1"]).arg(file).output().expect("spirv-val runs");
    (!o.status.success()).then(|| format!("{}: {}", file.display(), String::from_utf8_lossy(&o.stderr)))
}

/// glslangValidator on a batch of files (each its own compilation unit; the stage comes from the
/// extension): `None` when it accepts all, else the lines naming errors (they carry file names).
pub fn glslang(files: &[PathBuf]) -> Option<String> {
    let o = Command::new("glslangValidator").args(files).output().expect("glslangValidator runs");
    (!o.status.success()).then(|| {
        let text = String::from_utf8_lossy(&o.stdout);
        let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("ERROR")).take(10).collect();
        format!(
            "batch from {}: {}",
            files.first().map_or(String::new(), |f| f.display().to_string()),
            errors.join("\n")
        )
    })
}

/// glslangValidator's Vulkan 1.1 SPIR-V words of one GLSL source (`ext` names the stage as the
/// file extension does: "comp", "vert", "frag"). Panics when glslangValidator rejects it.
pub fn glslang_spirv(glsl: &str, ext: &str) -> Vec<u32> {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = temp_dir(&format!("glslang-{}", CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    let (src, spv) = (dir.join(format!("shader.{ext}")), dir.join("shader.spv"));
    std::fs::write(&src, glsl).expect("write GLSL");
    let o = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1", "-o"])
        .arg(&spv)
        .arg(&src)
        .output()
        .expect("glslangValidator runs (apt-get install glslang-tools)");
    assert!(o.status.success(), "glslangValidator rejected the GLSL: {}", String::from_utf8_lossy(&o.stdout));
    let bytes = std::fs::read(&spv).expect("read SPIR-V");
    let _ = std::fs::remove_dir_all(dir);
    bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// A fresh folder for a test's files, below the system's temporary folder.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shaderport-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    dir
}

/// `f` over `items` on every core (at most 16 threads); results in the order of `items`.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    par_map_with(items, || (), |(), item| f(item))
}

/// [`par_map`] with one `init()` per worker thread, lent to every call of `f` on that thread:
/// for state that must not be shared, such as a Vulkan device whose queue would otherwise
/// serialise the workers (lavapipe compiles a compute shader at its first dispatch, on the
/// queue's thread).
pub fn par_map_with<T: Sync, S, R: Send>(
    items: &[T],
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 16).min(items.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    let mut state = None;
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(k) else { break };
                        let state = state.get_or_insert_with(&init);
                        done.push((k, f(state, item)));
                    }
                    done
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("worker thread")).collect()
    });
    out.sort_by_key(|(k, _)| *k);
    out.into_iter().map(|(_, r)| r).collect()
}

/// CPU time (user and system) of this process so far, in seconds (Linux `/proc/self/stat`, in
/// ticks of 1/100 s; 0 elsewhere). On the shared, loaded machine CPU time is steadier than wall
/// time for comparing the driver's compile costs.
pub fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let f: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 of the file (utime, stime) are the 12th and 13th after the name.
    let tick = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

/// The seeded random source of test inputs (SplitMix64; the one `pica::smith` generates with).
pub use pica::smith::Rng;

/// The median of some durations (the upper one of an even count).
pub fn median(mut v: Vec<std::time::Duration>) -> std::time::Duration {
    v.sort();
    v[v.len() / 2]
}

/// The median time of `reps` runs of `f`.
pub fn timed(reps: usize, mut f: impl FnMut()) -> std::time::Duration {
    median(
        (0..reps)
            .map(|_| {
                let t = std::time::Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

/// The median wall time of three whole `glslangValidator -V` processes compiling `file` into
/// `dir` (the reference point of the translation benchmarks). Panics when it rejects the file.
pub fn glslang_time(file: &Path, dir: &Path) -> std::time::Duration {
    timed(3, || {
        let o =
            Command::new("glslangValidator").arg("-V").arg("-o").arg(dir.join("out.spv")).arg(file).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    })
}

/// The line a benchmark prints for glslangValidator's time `g` on a shader against ours: the
/// ratio per process, and net of its start-up `start` (the same command on an empty shader).
/// Where the start-up measured as long as the compile, the net ratio is noise and says so
/// rather than printing 0x.
///
/// ```
/// use std::time::Duration;
/// let ms = Duration::from_millis;
/// let line = testkit::glslang_ratios(ms(90), ms(80), Duration::from_micros(100));
/// assert_eq!(line, "glslangValidator -V 90ms (900x; net of its 80ms start-up 100x)");
/// assert!(testkit::glslang_ratios(ms(80), ms(90), ms(1)).contains("not resolvable"));
/// ```
pub fn glslang_ratios(g: std::time::Duration, start: std::time::Duration, ours: std::time::Duration) -> String {
    let per_process = g.as_secs_f64() / ours.as_secs_f64();
    let net = g.saturating_sub(start);
    if net.is_zero() {
        format!(
            "glslangValidator -V {g:?} ({per_process:.0}x; net of its {start:?} start-up not resolvable: \
             the start-up measured as long as the compile)"
        )
    } else {
        format!(
            "glslangValidator -V {g:?} ({per_process:.0}x; net of its {start:?} start-up {:.0}x)",
            net.as_secs_f64() / ours.as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn par_map_keeps_the_order() {
        let items: Vec<u32> = (0..1000).collect();
        assert_eq!(par_map(&items, |x| x * 2), items.iter().map(|x| x * 2).collect::<Vec<_>>());
    }

    #[test]
    fn par_map_with_makes_one_state_per_worker() {
        let items: Vec<u32> = (0..1000).collect();
        let inits = std::sync::atomic::AtomicUsize::new(0);
        let init = || inits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let out = par_map_with(&items, init, |_, x| x + 1);
        assert_eq!(out, items.iter().map(|x| x + 1).collect::<Vec<_>>());
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 16);
        assert!((1..=workers).contains(&inits.into_inner()));
    }

    #[test]
    fn the_corpus_is_in_the_repository() {
        assert!(files(&corpus("pica/golden"), "shbin").len() >= 31);
        assert!(corpus("latte-mesa/programs").is_dir());
    }
}

//! Reruns through the translation cache (docs/batch.md "Reruns and the cache") over a small
//! synthetic dump (`latte::dump`) with a geometry pair, so that one shader fails every run:
//! a second run serves every translated shader from the cache and writes nothing, a deleted or
//! altered output file is rewritten from the cache, another translator identity translates
//! everything again, and a cache folder of damaged files still gives the outputs of a run
//! without the cache, byte for byte.

use batch::{CacheDir, Options, Report, Status};
use latte::dump::{generate, DumpConfig};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A fresh folder with a small dump in `dump/`, one of its vertex shaders with a geometry
/// shader (which fails: not translated yet).
fn setup(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("shaderport-bcache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let cfg = DumpConfig {
        seed: 7,
        es_files: 12,
        es_unique: 5,
        spkg_differing: 1,
        vertex: 3,
        geometry_pairs: 1,
        fetches: false,
    };
    generate(&cfg).write_to(&root.join("dump")).expect("write the dump");
    root
}

fn opts() -> Options {
    Options { jobs: Some(2), disasm: true, ..Options::default() }
}

fn run(root: &Path, out: &str, opts: &Options) -> Report {
    batch::run(&root.join("dump"), &root.join(out), opts, &|_, _, _| {}).expect("batch runs")
}

/// The output folder's files (the cache folder and report.json aside): bytes and mtime.
fn outputs(out: &Path) -> BTreeMap<String, (Vec<u8>, SystemTime)> {
    std::fs::read_dir(out)
        .expect("output folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file() && !p.ends_with("report.json"))
        .map(|p| {
            let mtime = std::fs::metadata(&p).and_then(|m| m.modified()).expect("mtime");
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, (std::fs::read(&p).expect("read"), mtime))
        })
        .collect()
}

fn bytes_only(files: &BTreeMap<String, (Vec<u8>, SystemTime)>) -> BTreeMap<String, Vec<u8>> {
    files.iter().map(|(n, (b, _))| (n.clone(), b.clone())).collect()
}

/// The cache folder's entry files: name and bytes.
fn entries(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("cache folder")
        .map(|e| e.expect("entry").path())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).expect("read")))
        .collect()
}

#[test]
fn a_second_run_serves_every_translated_shader_from_the_cache_and_writes_nothing() {
    let root = setup("rerun");
    let first = run(&root, "out", &opts());
    let n = first.shaders.len();
    assert_eq!((first.totals.ok, first.totals.failed), (n - 1, 1), "{:?}", first.totals);
    let c = first.cache.as_ref().expect("the cache is on by default");
    assert_eq!(Path::new(&c.dir), root.join("out").join(batch::CACHE_DIR));
    assert_eq!((c.hits, c.misses, c.written, c.corrupt), (0, n as u64, (n - 1) as u64, 0));
    assert!(c.bytes > 0 && c.max_bytes == batch::CACHE_MAX_BYTES, "{c:?}");
    assert_eq!(first.config.translator, batch::TRANSLATOR);
    assert_eq!(batch::TRANSLATOR.len(), 32);
    let files = outputs(&root.join("out"));
    let cache_dir = root.join("out").join(batch::CACHE_DIR);
    let cache_files = entries(&cache_dir);
    assert_eq!(cache_files.len(), n - 1);

    let second = run(&root, "out", &opts());
    for s in &second.shaders {
        let want = if s.stage == "geom" { Status::Failed } else { Status::Cached };
        assert_eq!(s.status, want, "{s:?}");
        assert_eq!(s.times.translate_us, 0, "{s:?}");
    }
    let c = second.cache.as_ref().unwrap();
    assert_eq!(c.hits as usize, first.totals.ok);
    assert_eq!((c.misses, c.written, c.corrupt), (1, 0, 0), "only the failed shader misses: {c:?}");
    assert_eq!((second.totals.cached, second.totals.files_written), (n - 1, 0));
    // Nothing written but report.json: the outputs with their mtimes, and the cache's entries.
    assert_eq!(outputs(&root.join("out")), files);
    assert_eq!(entries(&cache_dir), cache_files);
    // The report describes the files as the first one did.
    for (a, b) in first.shaders.iter().zip(&second.shaders) {
        assert_eq!((&a.key, &a.sizes), (&b.key, &b.sizes));
        if a.status == Status::Ok {
            assert_eq!(a.outputs, b.outputs, "{}", a.key);
        }
    }
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn a_deleted_or_altered_output_is_rewritten_from_the_cache_without_translating() {
    let root = setup("deleted");
    let first = run(&root, "out", &opts());
    let want = bytes_only(&outputs(&root.join("out")));
    let ok: Vec<_> = first.shaders.iter().filter(|s| s.status == Status::Ok).collect();
    let (a, b) = (&ok[0], &ok[1]);
    let spv = format!("{}.{}.spv", a.key, a.stage);
    let meta = format!("{}.{}.meta", a.key, a.stage);
    let txt = format!("{}.{}.txt", b.key, b.stage);
    std::fs::remove_file(root.join("out").join(&spv)).unwrap();
    std::fs::remove_file(root.join("out").join(&meta)).unwrap();
    std::fs::write(root.join("out").join(&txt), b"not the listing").unwrap();

    let second = run(&root, "out", &opts());
    assert_eq!(bytes_only(&outputs(&root.join("out"))), want);
    let by_key: BTreeMap<_, _> = second.shaders.iter().map(|s| (s.key.clone(), s)).collect();
    let (ra, rb) = (by_key[&a.key], by_key[&b.key]);
    assert_eq!((ra.status, ra.written, ra.times.translate_us, ra.times.decode_us), (Status::Cached, 2, 0, 0));
    assert_eq!((rb.status, rb.written, rb.times.translate_us), (Status::Cached, 1, 0));
    assert_eq!(second.totals.files_written, 3);
    let c = second.cache.as_ref().unwrap();
    assert_eq!((c.hits as usize, c.written), (ok.len(), 0));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn another_translator_identity_misses_every_entry_and_translates_again() {
    let root = setup("identity");
    let first = run(&root, "out", &opts());
    let n = first.shaders.len() as u64;
    let other = Options { translator: "another build of the translator".into(), ..opts() };
    let second = run(&root, "out", &other);
    let c = second.cache.as_ref().unwrap();
    assert_eq!((c.hits, c.misses, c.written), (0, n, n - 1), "{c:?}");
    assert_eq!(second.totals.ok, first.totals.ok);
    assert!(second.shaders.iter().all(|s| s.status != Status::Cached));
    assert!(second.totals.phases.translate_us > 0);
    assert_eq!(second.config.translator, "another build of the translator");
    // The entries of both identities live side by side: the first one's are still there.
    let third = run(&root, "out", &opts());
    assert_eq!(third.cache.as_ref().unwrap().hits as usize, first.totals.ok);
    assert_eq!(entries(&root.join("out").join(batch::CACHE_DIR)).len(), 2 * first.totals.ok);
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn damaged_cache_files_give_the_outputs_of_a_run_without_the_cache() {
    let root = setup("damaged");
    let plain = run(&root, "plain", &Options { cache: CacheDir::Off, ..opts() });
    assert!(plain.cache.is_none());
    assert!(!root.join("plain").join(batch::CACHE_DIR).exists());
    let want = bytes_only(&outputs(&root.join("plain")));

    // A separate cache folder filled by one run, then every entry damaged in its own way,
    // beside files that are no entries at all.
    let dir = root.join("shared-cache");
    let cached = Options { cache: CacheDir::At(dir.clone()), ..opts() };
    run(&root, "filler", &cached);
    assert!(!root.join("filler").join(batch::CACHE_DIR).exists(), "a cache folder elsewhere leaves none in OUTDIR");
    let names: Vec<String> = entries(&dir).into_keys().collect();
    assert_eq!(names.len(), plain.totals.ok);
    for (i, name) in names.iter().enumerate() {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap();
        let damaged = match i % 5 {
            0 => bytes[..bytes.len() / 2].to_vec(),
            1 => Vec::new(),
            2 => (0..bytes.len()).map(|j| (j * 7 + 13) as u8).collect(),
            3 => {
                let mut b = bytes.clone();
                let mid = b.len() / 2;
                b[mid] ^= 0x40;
                b
            }
            _ => bytes[..bytes.len() - 1].to_vec(),
        };
        std::fs::write(&path, damaged).unwrap();
    }
    std::fs::write(dir.join("garbage.spc"), b"SPCACHE1 and then nothing that fits").unwrap();
    std::fs::write(dir.join("notes.txt"), b"not an entry").unwrap();

    let r = run(&root, "out", &cached);
    assert_eq!(bytes_only(&outputs(&root.join("out"))), want);
    assert_eq!(r.totals.ok, plain.totals.ok);
    let c = r.cache.as_ref().unwrap();
    assert_eq!((c.hits, c.corrupt as usize, c.written as usize), (0, names.len(), names.len()), "{c:?}");
    // The damaged entries were replaced: the next run is served from them.
    let again = run(&root, "out", &cached);
    let c = again.cache.as_ref().unwrap();
    assert_eq!((c.hits as usize, c.corrupt), (plain.totals.ok, 0));
    assert_eq!(bytes_only(&outputs(&root.join("out"))), want);
    let _ = std::fs::remove_dir_all(root);
}

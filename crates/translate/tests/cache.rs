//! The translation cache: a second translation of a key is a disk read (counted), unusable entry
//! files are misses that get replaced, the size cap evicts the least recently used entries, and
//! several processes writing the same folder at once never leave an unusable entry.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use translate::cache::{Cache, Key};
use translate::pica::{compile, Options, Setup, ShaderType};
use translate::{gx_tev, Target};

/// Every distinct executable of the golden SHBINs as (setup, shader type).
fn corpus_setups() -> Vec<(Setup, ShaderType)> {
    let mut out: Vec<(Setup, ShaderType)> = Vec::new();
    for path in testkit::files(&testkit::corpus("pica/golden"), "shbin") {
        let shbin = pica::shbin::Shbin::read(&std::fs::read(&path).unwrap()).unwrap();
        for e in 0..shbin.executables.len() {
            let (setup, ty) = Setup::from_shbin(&shbin, e).unwrap();
            if !out.iter().any(|(s, _)| s.key_bytes() == setup.key_bytes()) {
                out.push((setup, ty));
            }
        }
    }
    assert!(out.len() >= 20, "{} executables", out.len());
    out
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = testkit::temp_dir(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn entry_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "spc"))
        .collect();
    v.sort();
    v
}

#[test]
fn a_second_translation_reads_from_disk() {
    let dir = fresh_dir("cache-hits");
    let cache = Cache::open(&dir, 64 << 20).unwrap();
    let setups = corpus_setups();
    let o = Options::default();
    let first: Vec<_> =
        setups.iter().map(|(s, ty)| compile(Some(&cache), s, *ty, &o, Target::SpirV).unwrap()).collect();
    assert!(first.iter().all(|c| !c.hit));
    assert_eq!(entry_files(&dir).len(), setups.len());
    assert_eq!(cache.stats().writes, setups.len() as u64);

    // A new handle (a second boot) answers everything from disk, with the same bytes and interface.
    let cache = Cache::open(&dir, 64 << 20).unwrap();
    for ((s, ty), want) in setups.iter().zip(&first) {
        let got = compile(Some(&cache), s, *ty, &o, Target::SpirV).unwrap();
        assert!(got.hit);
        assert_eq!(got.bytes, want.bytes);
        assert_eq!(format!("{:?}", got.interface), format!("{:?}", want.interface));
        let uncached = compile(None, s, *ty, &o, Target::SpirV).unwrap();
        assert_eq!(got.bytes, uncached.bytes);
    }
    let stats = cache.stats();
    assert_eq!((stats.hits, stats.misses, stats.writes), (setups.len() as u64, 0, 0));

    // Another target or precision is another entry.
    let glsl = compile(Some(&cache), &setups[0].0, setups[0].1, &o, Target::Glsl).unwrap();
    assert!(!glsl.hit);
    assert_eq!(cache.stats().misses, 1);

    // TEV keys share the same cache.
    let key = gx::key::TevKey::new(&gx::TevState::default());
    let a = gx_tev::compile(Some(&cache), &key, &gx_tev::Options::default(), Target::SpirV).unwrap();
    let b = gx_tev::compile(Some(&cache), &key, &gx_tev::Options::default(), Target::SpirV).unwrap();
    assert!(!a.hit && b.hit);
    assert_eq!((a.bytes, a.texmaps), (b.bytes, b.texmaps));
}

#[test]
fn truncated_and_garbage_entries_are_misses_and_get_replaced() {
    let dir = fresh_dir("cache-garbage");
    let setups = corpus_setups();
    let o = Options::default();
    let want: Vec<Vec<u8>> = {
        let cache = Cache::open(&dir, 64 << 20).unwrap();
        setups.iter().map(|(s, ty)| compile(Some(&cache), s, *ty, &o, Target::SpirV).unwrap().bytes).collect()
    };
    // Damage every entry a different way: truncate, flip a byte, empty, garbage, another key.
    let files = entry_files(&dir);
    for (i, f) in files.iter().enumerate() {
        let mut bytes = std::fs::read(f).unwrap();
        match i % 5 {
            0 => bytes.truncate(bytes.len() / 2),
            1 => {
                let at = bytes.len() - 20;
                bytes[at] ^= 0x40;
            }
            2 => bytes.clear(),
            3 => bytes = (0..bytes.len()).map(|k| (k * 7919 % 251) as u8).collect(),
            _ => bytes = std::fs::read(&files[(i + 1) % files.len()]).unwrap(),
        }
        std::fs::write(f, bytes).unwrap();
    }
    // Stray files in the folder are ignored.
    std::fs::write(dir.join("notes.txt"), b"not an entry").unwrap();
    std::fs::write(dir.join(".tmp-left-behind"), b"half").unwrap();

    let cache = Cache::open(&dir, 64 << 20).unwrap();
    for ((s, ty), want) in setups.iter().zip(&want) {
        assert_eq!(&compile(Some(&cache), s, *ty, &o, Target::SpirV).unwrap().bytes, want);
    }
    let stats = cache.stats();
    assert_eq!(stats.corrupt, files.len() as u64, "{stats:?}");
    assert_eq!(stats.writes, files.len() as u64, "{stats:?}");
    // Replaced: a new handle hits everything.
    let cache = Cache::open(&dir, 64 << 20).unwrap();
    for ((s, ty), want) in setups.iter().zip(&want) {
        let got = compile(Some(&cache), s, *ty, &o, Target::SpirV).unwrap();
        assert!(got.hit);
        assert_eq!(&got.bytes, want);
    }
    assert_eq!(cache.stats().corrupt, 0);
}

#[test]
fn the_size_cap_evicts_the_least_recently_used() {
    let dir = fresh_dir("cache-lru");
    let value = vec![0xAB; 1000];
    // Entries are 1000 bytes of value plus header, key and checksum: about 1.1 KB each.
    let cache = Cache::open(&dir, 10_000).unwrap();
    let key = |i: u32| Key::new("lru-test").part(&i.to_le_bytes());
    let old = SystemTime::now() - Duration::from_secs(1000);
    for i in 0..8 {
        cache.put(&key(i), &value).unwrap();
        // Modification times one second apart, oldest first, without sleeping.
        let f = std::fs::File::options().append(true).open(dir.join(entry_name(&dir, &key(i)))).unwrap();
        f.set_modified(old + Duration::from_secs(i as u64)).unwrap();
    }
    // Entry 0 is used again: it becomes the most recent.
    assert!(cache.get(&key(0)).is_some());
    cache.put(&key(8), &value).unwrap();
    cache.put(&key(9), &value).unwrap();
    assert!(cache.stats().evictions >= 2, "{:?}", cache.stats());
    let total: u64 = entry_files(&dir).iter().map(|f| f.metadata().unwrap().len()).sum();
    assert!(total <= 10_000, "{total} bytes kept");
    assert!(cache.get(&key(0)).is_some(), "the recently used entry was evicted");
    assert!(cache.get(&key(9)).is_some());
    assert!(cache.get(&key(1)).is_none(), "the least recently used entry survived");
}

/// The file an entry was written to: the only one whose contents hold the key.
fn entry_name(dir: &Path, key: &Key) -> String {
    entry_files(dir)
        .into_iter()
        .find(|f| {
            let b = std::fs::read(f).unwrap();
            b.windows(key.as_bytes().len()).any(|w| w == key.as_bytes())
        })
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

const WORKER_ENV: &str = "SHADERPORT_CACHE_WORKER_DIR";
const WORKERS: usize = 4;
const ROUNDS: u32 = 60;

/// The body of one writer process (run by `processes_writing_at_once_leave_whole_entries`):
/// every process writes and reads the same keys, with values that differ per round and process.
#[test]
fn cache_worker_process() {
    let Ok(dir) = std::env::var(WORKER_ENV) else { return };
    let id: u32 = std::env::var("SHADERPORT_CACHE_WORKER_ID").unwrap().parse().unwrap();
    let cache = Cache::open(&dir, 1 << 30).unwrap();
    for round in 0..ROUNDS {
        for k in 0..8u32 {
            let key = Key::new("race").part(&k.to_le_bytes());
            cache.put(&key, &worker_value(k, id, round)).unwrap();
            if let Some(v) = cache.get(&key) {
                assert!(valid_value(k, &v), "process {id} read a value that no writer wrote");
            }
        }
    }
    // Renames are atomic: no reader ever saw a partly written entry.
    assert_eq!(cache.stats().corrupt, 0, "process {id} read a torn entry");
}

fn worker_value(k: u32, id: u32, round: u32) -> Vec<u8> {
    // Sizes vary so that a torn write would show in the length.
    let len = 5000 + ((id * 131 + round * 17) % 3000) as usize;
    let mut v = Vec::with_capacity(len);
    v.extend_from_slice(&k.to_le_bytes());
    v.extend_from_slice(&id.to_le_bytes());
    v.extend_from_slice(&round.to_le_bytes());
    v.resize(len, (k ^ id ^ round) as u8);
    v
}

fn valid_value(k: u32, v: &[u8]) -> bool {
    let word = |at: usize| u32::from_le_bytes(v[at..at + 4].try_into().unwrap());
    v.len() >= 12 && word(0) == k && v == worker_value(k, word(4), word(8)).as_slice()
}

#[test]
fn processes_writing_at_once_leave_whole_entries() {
    let dir = fresh_dir("cache-processes");
    std::fs::create_dir_all(&dir).unwrap();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..WORKERS)
        .map(|id| {
            Command::new(&exe)
                .args(["--exact", "cache_worker_process", "--test-threads=1"])
                .env(WORKER_ENV, &dir)
                .env("SHADERPORT_CACHE_WORKER_ID", id.to_string())
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success(), "a writer process failed");
    }
    let cache = Cache::open(&dir, 1 << 30).unwrap();
    for k in 0..8u32 {
        let v = cache.get(&Key::new("race").part(&k.to_le_bytes())).expect("entry present and whole");
        assert!(valid_value(k, &v));
    }
    assert_eq!(cache.stats().corrupt, 0);
    assert_eq!(entry_files(&dir).len(), 8);
    let temps = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with(".tmp"))
        .count();
    assert_eq!(temps, 0, "temporary files left behind");
}

proptest::proptest! {
    /// The entry reader is a parser of files anyone can damage: any change to a whole entry
    /// (bytes flipped, cut, extended) reads as a miss or, when the change left it whole, the
    /// value written; never another value, never a panic.
    #[test]
    fn damaged_entries_read_as_misses(
        value in proptest::collection::vec(proptest::num::u8::ANY, 0..300),
        flips in proptest::collection::vec((0usize..400, 1u8..=255), 0..4),
        cut in proptest::option::of(0usize..400),
        tail in proptest::collection::vec(proptest::num::u8::ANY, 0..8),
    ) {
        let dir = testkit::temp_dir("cache-prop");
        let cache = Cache::open(&dir, 1 << 20).unwrap();
        let key = Key::new("prop").part(&value.len().to_le_bytes());
        cache.put(&key, &value).unwrap();
        let file = dir.join(entry_name(&dir, &key));
        let mut bytes = std::fs::read(&file).unwrap();
        let whole = bytes.clone();
        for (at, x) in &flips {
            let n = bytes.len();
            bytes[at % n] ^= x;
        }
        if let Some(cut) = cut {
            bytes.truncate(cut);
        }
        bytes.extend_from_slice(&tail);
        std::fs::write(&file, &bytes).unwrap();
        match cache.get(&key) {
            Some(read) => {
                proptest::prop_assert_eq!(&bytes, &whole);
                proptest::prop_assert_eq!(read, value);
            }
            None => proptest::prop_assert_ne!(bytes, whole),
        }
        std::fs::remove_file(&file).unwrap();
    }
}

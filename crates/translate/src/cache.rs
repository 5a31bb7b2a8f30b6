//! A disk cache of translations, for hosts that translate per state and want a second run to
//! translate nothing (docs/cache.md).
//!
//! One file per entry, named by a 128-bit hash of its [`Key`]; the key holds the source's key
//! bytes, the options, the target and this crate's version, so a new release never reads an old
//! release's output. Entries are written to a temporary file in the same folder and renamed into
//! place, so a reader (in this process or another) sees a whole entry or none. Every entry holds
//! its full key and a checksum: a truncated, garbage or colliding file is a miss, and the next
//! write replaces it. A size cap is kept by evicting the least recently used entries (a hit
//! touches the file's modification time).
//!
//! ```
//! use translate::cache::{Cache, Key};
//! let dir = std::env::temp_dir().join(format!("sp-cache-doc-{}", std::process::id()));
//! let cache = Cache::open(&dir, 1 << 20)?;
//! let key = Key::new("example").part(b"program words").part(b"options");
//! let (value, hit) = cache.get_or_insert_with(&key, || Ok::<_, ()>(b"translated".to_vec())).unwrap();
//! assert_eq!((value.as_slice(), hit), (&b"translated"[..], false));
//! let (_, hit) = cache.get_or_insert_with(&key, || Err(())).unwrap();
//! assert!(hit);
//! assert_eq!(cache.stats().hits, 1);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), translate::cache::CacheError>(())
//! ```

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use xxhash_rust::xxh3::{xxh3_128, xxh3_64};

/// The first bytes of every entry file.
const MAGIC: &[u8; 8] = b"SPCACHE1";
/// Magic, key length, value length.
const HEADER: usize = 16;
/// The checksum after the value.
const TRAILER: usize = 8;
/// The extension of entry files; temporary files start with `.tmp`.
const EXTENSION: &str = "spc";
/// Temporary files older than this were left by a process that died mid-write.
const STALE_TEMP: Duration = Duration::from_secs(3600);
/// The largest entry read back: a bound on what a corrupt length field can ask for.
pub const MAX_ENTRY: u64 = 256 << 20;

/// Why the cache could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CacheError {
    /// The folder could not be created or read.
    #[error("cache folder {}: {source}", path.display())]
    Io {
        /// The folder.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: io::Error,
    },
}

/// What an entry is stored under: the name of the source, then length-prefixed parts (key bytes,
/// options, target), and always this crate's version.
///
/// ```
/// use translate::cache::Key;
/// let a = Key::new("pica").part(b"ab").part(b"c");
/// let b = Key::new("pica").part(b"a").part(b"bc");
/// assert_ne!(a.as_bytes(), b.as_bytes());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key(Vec<u8>);

impl Key {
    /// A key for `source` (a translator's name), tagged with this crate's version.
    pub fn new(source: &str) -> Key {
        Key(Vec::new()).part(b"shaderport-translate").part(env!("CARGO_PKG_VERSION").as_bytes()).part(source.as_bytes())
    }

    /// Appends one part, length-prefixed so that parts cannot run into each other.
    pub fn part(mut self, bytes: &[u8]) -> Key {
        self.0.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        self.0.extend_from_slice(bytes);
        self
    }

    /// The key's bytes, as stored in the entry.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The entry's file name: the key's 128-bit xxh3 hash in hex.
    fn file_name(&self) -> String {
        format!("{:032x}.{EXTENSION}", xxh3_128(&self.0))
    }
}

/// Counters of one [`Cache`] handle (this process's use of it, not the folder's history).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Lookups answered from disk.
    pub hits: u64,
    /// Lookups that found no usable entry.
    pub misses: u64,
    /// Entry files found unusable (truncated, bad checksum, another key): counted among the
    /// misses, and replaced by the next write.
    pub corrupt: u64,
    /// Entries written.
    pub writes: u64,
    /// Writes that failed (disk full, permissions): the value is still returned.
    pub write_errors: u64,
    /// Entries removed to keep the size cap.
    pub evictions: u64,
}

#[derive(Default)]
struct Counters {
    hits: AtomicU64,
    misses: AtomicU64,
    corrupt: AtomicU64,
    writes: AtomicU64,
    write_errors: AtomicU64,
    evictions: AtomicU64,
}

/// A cache folder with a size cap. `Sync`: one handle serves every thread; several processes
/// may use the same folder at once.
pub struct Cache {
    dir: PathBuf,
    max_bytes: u64,
    /// Bytes of entries in the folder as last counted, plus what this handle wrote since.
    bytes: AtomicU64,
    /// One eviction scan at a time per handle.
    evicting: Mutex<()>,
    counters: Counters,
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache").field("dir", &self.dir).field("max_bytes", &self.max_bytes).finish()
    }
}

impl Cache {
    /// Opens (creating it if needed) the cache folder `dir`, holding at most `max_bytes` of
    /// entries.
    ///
    /// # Errors
    /// [`CacheError::Io`] when the folder cannot be created or listed.
    pub fn open(dir: impl AsRef<Path>, max_bytes: u64) -> Result<Cache, CacheError> {
        let dir = dir.as_ref().to_path_buf();
        fs::create_dir_all(&dir).map_err(|source| CacheError::Io { path: dir.clone(), source })?;
        let cache =
            Cache { dir, max_bytes, bytes: AtomicU64::new(0), evicting: Mutex::new(()), counters: Counters::default() };
        let entries = cache.scan().map_err(|source| CacheError::Io { path: cache.dir.clone(), source })?;
        cache.bytes.store(entries.iter().map(|e| e.size).sum(), Ordering::Relaxed);
        Ok(cache)
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The size cap in bytes.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// Bytes of entries in the folder: as counted when opened or at the last eviction, plus
    /// what this handle wrote since (other processes' writes are not seen until then).
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// This handle's counters.
    pub fn stats(&self) -> Stats {
        let c = &self.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        Stats {
            hits: get(&c.hits),
            misses: get(&c.misses),
            corrupt: get(&c.corrupt),
            writes: get(&c.writes),
            write_errors: get(&c.write_errors),
            evictions: get(&c.evictions),
        }
    }

    /// The value stored under `key`, or `None` (a miss) when there is none or its file is
    /// unusable. A hit marks the entry as recently used.
    pub fn get(&self, key: &Key) -> Option<Vec<u8>> {
        let path = self.dir.join(key.file_name());
        match read_entry(&path, key) {
            Ok(Some(value)) => {
                self.counters.hits.fetch_add(1, Ordering::Relaxed);
                // LRU order is the modification time; failing to touch only ages the entry.
                if let Ok(f) = fs::File::options().append(true).open(&path) {
                    let _ = f.set_modified(SystemTime::now());
                }
                Some(value)
            }
            Ok(None) => {
                self.counters.misses.fetch_add(1, Ordering::Relaxed);
                None
            }
            Err(Unusable) => {
                self.counters.misses.fetch_add(1, Ordering::Relaxed);
                self.counters.corrupt.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }

    /// Stores `value` under `key` (write to a temporary file, then rename), then evicts the least
    /// recently used entries if the folder is over its cap.
    ///
    /// # Errors
    /// The system's error when the entry cannot be written.
    pub fn put(&self, key: &Key, value: &[u8]) -> io::Result<()> {
        let result = self.write_entry(key, value);
        match &result {
            Ok(size) => {
                self.counters.writes.fetch_add(1, Ordering::Relaxed);
                let total = self.bytes.fetch_add(*size, Ordering::Relaxed) + size;
                if total > self.max_bytes {
                    self.evict();
                }
            }
            Err(_) => {
                self.counters.write_errors.fetch_add(1, Ordering::Relaxed);
            }
        }
        result.map(|_| ())
    }

    /// The value under `key`, or `make()`'s value, stored; with whether it was a hit. A failed
    /// write is counted in [`Stats::write_errors`] and does not fail the call.
    ///
    /// # Errors
    /// `make`'s error (nothing is stored then).
    pub fn get_or_insert_with<E>(
        &self,
        key: &Key,
        make: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<(Vec<u8>, bool), E> {
        if let Some(value) = self.get(key) {
            return Ok((value, true));
        }
        let value = make()?;
        let _ = self.put(key, &value);
        Ok((value, false))
    }

    fn write_entry(&self, key: &Key, value: &[u8]) -> io::Result<u64> {
        let mut bytes = Vec::with_capacity(HEADER + key.0.len() + value.len() + TRAILER);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&len32(key.0.len())?.to_le_bytes());
        bytes.extend_from_slice(&len32(value.len())?.to_le_bytes());
        bytes.extend_from_slice(&key.0);
        bytes.extend_from_slice(value);
        let sum = xxh3_64(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        let mut tmp = tempfile::Builder::new().prefix(".tmp").tempfile_in(&self.dir)?;
        tmp.write_all(&bytes)?;
        // rename() is atomic: another process sees the old entry or this one, whole.
        tmp.persist(self.dir.join(key.file_name())).map_err(|e| e.error)?;
        Ok(bytes.len() as u64)
    }

    /// Removes the oldest entries until the folder holds at most 90% of the cap (so that the
    /// next writes do not scan again at once), and stale temporary files.
    fn evict(&self) {
        let Ok(_guard) = self.evicting.try_lock() else { return };
        let Ok(mut entries) = self.scan() else { return };
        let mut total: u64 = entries.iter().map(|e| e.size).sum();
        let target = self.max_bytes - self.max_bytes / 10;
        entries.sort_by_key(|e| e.modified);
        for e in entries {
            if total <= target {
                break;
            }
            // Another process may have removed it first; either way it is gone.
            match fs::remove_file(&e.path) {
                Ok(()) => {
                    self.counters.evictions.fetch_add(1, Ordering::Relaxed);
                    total -= e.size;
                }
                Err(err) if err.kind() == io::ErrorKind::NotFound => total -= e.size,
                Err(_) => {}
            }
        }
        self.bytes.store(total, Ordering::Relaxed);
    }

    /// The entry files of the folder; removes temporary files left by dead writers on the way.
    fn scan(&self) -> io::Result<Vec<EntryFile>> {
        let now = SystemTime::now();
        let mut out = Vec::new();
        for dirent in fs::read_dir(&self.dir)? {
            let Ok(dirent) = dirent else { continue };
            let path = dirent.path();
            let Ok(meta) = dirent.metadata() else { continue };
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            let name = dirent.file_name();
            let name = name.to_string_lossy();
            if name.starts_with(".tmp") {
                if now.duration_since(modified).is_ok_and(|age| age > STALE_TEMP) {
                    let _ = fs::remove_file(&path);
                }
            } else if meta.is_file() && path.extension().is_some_and(|e| e == EXTENSION) {
                out.push(EntryFile { path, size: meta.len(), modified });
            }
        }
        Ok(out)
    }
}

struct EntryFile {
    path: PathBuf,
    size: u64,
    modified: SystemTime,
}

/// An entry file that exists but cannot be used.
struct Unusable;

fn len32(n: usize) -> io::Result<u32> {
    u32::try_from(n).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "cache entry over 4 GiB"))
}

/// The value of the entry at `path` if it is whole and stored under `key`.
fn read_entry(path: &Path, key: &Key) -> Result<Option<Vec<u8>>, Unusable> {
    let bytes = match fs::File::open(path) {
        Ok(f) => {
            let len = f.metadata().map_err(|_| Unusable)?.len();
            if len > MAX_ENTRY {
                return Err(Unusable);
            }
            let mut bytes = Vec::with_capacity(len as usize);
            io::Read::read_to_end(&mut io::Read::take(f, MAX_ENTRY), &mut bytes).map_err(|_| Unusable)?;
            bytes
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(_) => return Err(Unusable),
    };
    if bytes.len() < HEADER + TRAILER || &bytes[..8] != MAGIC {
        return Err(Unusable);
    }
    let word = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize;
    let (key_len, value_len) = (word(8), word(12));
    let body_end = HEADER.checked_add(key_len).and_then(|n| n.checked_add(value_len)).ok_or(Unusable)?;
    if body_end.checked_add(TRAILER) != Some(bytes.len()) {
        return Err(Unusable);
    }
    let sum = u64::from_le_bytes(bytes[body_end..].try_into().map_err(|_| Unusable)?);
    if xxh3_64(&bytes[..body_end]) != sum {
        return Err(Unusable);
    }
    if &bytes[HEADER..HEADER + key_len] != key.as_bytes() {
        // A hash collision: the file belongs to another key; this key is a miss.
        return Err(Unusable);
    }
    Ok(Some(bytes[HEADER + key_len..body_end].to_vec()))
}

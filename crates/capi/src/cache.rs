//! The cache handle: the only state the library keeps, and only when the caller asks for it.

use std::ffi::c_char;

use translate::cache::Cache;

use crate::error::{guard, Failure, SpError, SP_ERROR_IO};
use crate::ffi;

/// An open cache folder (opaque): `sp_cache_open`, `sp_cache_close`. One handle may serve
/// every thread at once, and several processes may share the folder.
pub struct SpCache {
    pub(crate) cache: Cache,
}

/// Counters of one handle since it was opened.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SpCacheStats {
    /// Translations answered from disk.
    pub hits: u64,
    /// Lookups that found no usable entry (then translated and stored).
    pub misses: u64,
    /// Unusable entry files met (truncated, garbage, another key): counted among the misses and
    /// replaced.
    pub corrupt: u64,
    /// Entries written.
    pub writes: u64,
    /// Writes that failed (the translation was still returned).
    pub write_errors: u64,
    /// Entries removed to keep the size cap (least recently used first).
    pub evictions: u64,
}

/// Opens (creating it if needed) the cache folder `dir` (UTF-8 path, NUL-terminated) with a cap
/// of `max_bytes` bytes of entries. On success `*cache` is a handle for `sp_cache_close`; on
/// failure it is null and the code is `SP_ERROR_IO` (or a pointer or argument error).
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_cache_open(
    dir: *const c_char,
    max_bytes: u64,
    cache: *mut *mut SpCache,
    error: *mut SpError,
) -> i32 {
    guard(error, || {
        // SAFETY: header contract for `cache` and `dir`.
        let out = unsafe { ffi::out_ref(cache) }.ok_or_else(|| Failure::null("cache"))?;
        *out = std::ptr::null_mut();
        let dir = unsafe { ffi::string(dir, "dir") }?;
        let opened = Cache::open(dir, max_bytes).map_err(|e| Failure::new(SP_ERROR_IO, e.to_string()))?;
        *out = ffi::give_box(SpCache { cache: opened });
        Ok(())
    })
}

/// Closes a cache handle (the folder stays). Null is allowed; no translation may be using the
/// handle.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_cache_close(cache: *mut SpCache) {
    // SAFETY: `cache` is null or a handle of sp_cache_open not closed before.
    drop(unsafe { ffi::take_box(cache) });
}

/// Writes the handle's counters to `*stats`.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_cache_stats(cache: *const SpCache, stats: *mut SpCacheStats) -> i32 {
    guard(std::ptr::null_mut(), || {
        // SAFETY: header contract for both pointers.
        let cache = unsafe { ffi::input(cache, "cache") }?;
        let stats = unsafe { ffi::out_ref(stats) }.ok_or_else(|| Failure::null("stats"))?;
        let s = cache.cache.stats();
        *stats = SpCacheStats {
            hits: s.hits,
            misses: s.misses,
            corrupt: s.corrupt,
            writes: s.writes,
            write_errors: s.write_errors,
            evictions: s.evictions,
        };
        Ok(())
    })
}

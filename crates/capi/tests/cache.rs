//! Each entry point through a cache handle: the second call with the same input is a hit with
//! the same bytes and interface, and a change of target is another entry.

mod common;

use std::ptr::null_mut;

use common::{new_error, pica_fragment, pica_fragment_key, CallResult};
use shaderport::*;

/// A fresh cache folder and its handle.
fn open(name: &str) -> *mut SpCache {
    let dir = testkit::temp_dir(name);
    let _ = std::fs::remove_dir_all(&dir);
    let path = std::ffi::CString::new(dir.to_str().unwrap()).unwrap();
    let (mut cache, mut error) = (null_mut(), new_error());
    // SAFETY: valid pointers.
    assert_eq!(unsafe { sp_cache_open(path.as_ptr(), 64 << 20, &mut cache, &mut error) }, SP_OK);
    cache
}

fn stats(cache: *mut SpCache) -> SpCacheStats {
    let mut s = SpCacheStats::default();
    // SAFETY: a live handle, a writable record.
    assert_eq!(unsafe { sp_cache_stats(cache, &mut s) }, SP_OK);
    s
}

/// Calls `call` twice with SPIR-V and once with GLSL through one handle and checks the counts.
fn hits_on_the_second_call(name: &str, call: impl Fn(&SpOptions, *const SpCache) -> CallResult) {
    let cache = open(name);
    let spirv = SpOptions::default();
    let (first, i1) = call(&spirv, cache).unwrap();
    let (second, i2) = call(&spirv, cache).unwrap();
    assert_eq!((i1.from_cache, i2.from_cache), (0, 1), "{name}");
    assert_eq!(first, second, "{name}");
    assert_eq!(
        (i1.stage, i1.input_mask, i1.flow, i1.texmap_mask, i1.texture_cube_mask, i1.uniform_block_mask),
        (i2.stage, i2.input_mask, i2.flow, i2.texmap_mask, i2.texture_cube_mask, i2.uniform_block_mask),
        "{name}"
    );
    let glsl = SpOptions { target: SP_TARGET_GLSL, ..SpOptions::default() };
    assert_eq!(call(&glsl, cache).unwrap().1.from_cache, 0, "{name}");
    let s = stats(cache);
    assert_eq!((s.hits, s.misses, s.writes, s.corrupt), (1, 2, 2, 0), "{name}: {s:?}");
    // SAFETY: closed once, no call in flight.
    unsafe { sp_cache_close(cache) };
}

#[test]
fn pica_fragment_keys_hit_on_the_second_call() {
    let key = pica_fragment_key(&common::fragment_regs(7)).unwrap();
    hits_on_the_second_call("capi-cache-fragment", |o, c| pica_fragment(&key, o, c));
}

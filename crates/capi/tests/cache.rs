//! The new entry points through a cache handle: the second call with the same input is a hit
//! with the same bytes and interface; a change of target, or of a Latte loop constant, is
//! another entry.

mod common;

use std::ptr::null_mut;

use common::{latte, latte_gsh, latte_program, new_error, pica_fragment, pica_fragment_key, CallResult};
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

fn gsh(name: &str) -> Vec<u8> {
    std::fs::read(testkit::corpus(&format!("latte-mesa/gsh/{name}.gsh"))).unwrap()
}

/// The vertex program of a corpus file (the first vertex shader).
fn vertex_program(name: &str) -> Vec<u8> {
    let file = latte::gfd::GfdFile::parse(&gsh(name)).unwrap();
    let shaders = file.shaders().unwrap();
    shaders.into_iter().find(|s| s.header.stage == latte::gfd::Stage::Vertex).unwrap().program.unwrap()
}

#[test]
fn latte_programs_hit_on_the_second_call() {
    let program = vertex_program("t30_vs_loop_branch");
    hits_on_the_second_call("capi-cache-latte", |o, c| latte(&latte_program(&program, SP_LATTE_VERTEX), o, c));
    let file = gsh("t10_ubo_multi");
    hits_on_the_second_call("capi-cache-gsh", |o, c| latte_gsh(&file, SP_LATTE_PIXEL, 0, o, c));
}

#[test]
fn latte_loop_constants_are_part_of_the_key() {
    let program = vertex_program("t03_loop_const");
    let cache = open("capi-cache-latte-consts");
    let d = SpOptions::default();
    let base = latte_program(&program, SP_LATTE_VERTEX);
    let (default_bytes, _) = latte(&base, &d, cache).unwrap();
    // Setting a constant to the default is the same entry.
    let mut same = base;
    same.loop_consts[0] = 0xFFF | 1 << 24;
    same.loop_const_mask = 1;
    assert_eq!(latte(&same, &d, cache).unwrap().1.from_cache, 1);
    // Other constants: another entry, with the Rust API's bytes for those constants.
    let mut other = base;
    other.loop_consts = [3 | 1 << 24; SP_LATTE_LOOP_CONSTS];
    other.loop_const_mask = u32::MAX;
    other.bool_consts = 5;
    let (bytes, i) = latte(&other, &d, cache).unwrap();
    assert_eq!(i.from_cache, 0);
    let prog = latte::isa::Program::decode_bytes(&program, 0).unwrap();
    let options = translate::latte::Options {
        loop_consts: (0..32).map(|n| (n, 3 | 1 << 24)).collect(),
        bool_consts: 5,
        ..Default::default()
    };
    let t = translate::latte::translate(&prog, translate::latte::Stage::Vertex, &options).unwrap();
    assert!(bytes == t.spirv().unwrap().iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>());
    assert!(latte(&base, &d, std::ptr::null()).unwrap().0 == default_bytes);
    let s = stats(cache);
    assert_eq!((s.hits, s.misses), (1, 2), "{s:?}");
    // SAFETY: closed once, no call in flight.
    unsafe { sp_cache_close(cache) };
}

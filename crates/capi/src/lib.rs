//! The C ABI of shaderport: `libshaderport` (`.so`/`.a`) and its header `include/shaderport.h`,
//! written by cbindgen from this crate (docs/capi.md has the guide and a complete C example).
//!
//! Every translator has one entry point of the same shape:
//!
//! ```c
//! int32_t sp_<source>_translate(const <Input> *input, const SpOptions *options,
//!                               const SpCache *cache, SpOutput **out, SpError *error);
//! ```
//!
//! taking what an emulator holds (program words and descriptors, a key as a plain struct), and
//! returning through `out` the bytes of the target chosen in `options` with the interface the
//! host binds it by; `sp_output_free` frees it. It returns `SP_OK` or an error code, and the
//! same code and a message in `error` when that is not null. `cache` is null or a handle of
//! `sp_cache_open`; the library holds no other state, so every function may be called from any
//! thread at once. No panic crosses the boundary: each entry point runs under `catch_unwind` and
//! a panic comes back as `SP_ERROR_INTERNAL`.
//!
//! Sources in the ABI: PICA200 vertex and geometry programs (`sp_pica_translate`,
//! `sp_pica_translate_shbin`), Hollywood TEV keys (`sp_tev_translate`, `sp_tev_key_from_bp`),
//! PICA200 fixed-function fragment keys (`sp_pica_fragment_translate`,
//! `sp_pica_fragment_key_from_regs`, `sp_pica_fragment_uniforms`) and Wii U Latte vertex and
//! pixel programs (`sp_latte_translate`, `sp_latte_translate_gsh`).
//!
//! `unsafe` lives in `ffi` only: the few functions that turn C pointers into references, each
//! with the contract the header documents.

mod cache;
mod error;
mod ffi;
mod latte;
mod options;
mod output;
mod pica;
mod pica_fs;
mod tev;

pub use cache::{sp_cache_close, sp_cache_open, sp_cache_stats, SpCache, SpCacheStats};
pub use error::{
    SpError, SP_ERROR_INTERNAL, SP_ERROR_INVALID_ARGUMENT, SP_ERROR_IO, SP_ERROR_NULL_POINTER, SP_ERROR_PARSE,
    SP_ERROR_TRANSLATE, SP_ERROR_UNSUPPORTED, SP_MESSAGE_CAPACITY, SP_OK,
};
pub use latte::{
    sp_latte_translate, sp_latte_translate_gsh, SpLatteProgram, SP_LATTE_GEOMETRY, SP_LATTE_LOOP_CONSTS,
    SP_LATTE_MAX_PROGRAM_BYTES, SP_LATTE_PIXEL, SP_LATTE_VERTEX,
};
pub use options::{
    SpOptions, SP_FLAG_COMPUTE_WRAPPER, SP_FLAG_DISPATCH_ONLY, SP_PRECISION_COMPAT, SP_PRECISION_EXACT,
    SP_PRECISION_FAST, SP_TARGET_GLSL, SP_TARGET_GLSL_ES, SP_TARGET_HLSL, SP_TARGET_MSL, SP_TARGET_SPIRV,
    SP_TARGET_WGSL,
};
pub use output::{
    sp_output_bytes, sp_output_free, sp_output_interface, SpInterface, SpOutput, SP_FLOW_DISPATCH, SP_FLOW_NONE,
    SP_FLOW_STRAIGHT, SP_FLOW_STRUCTURED, SP_STAGE_COMPUTE, SP_STAGE_FRAGMENT, SP_STAGE_VERTEX,
};
pub use pica::{
    sp_pica_translate, sp_pica_translate_shbin, SpPicaOutputMap, SpPicaProgram, SP_PICA_GEOMETRY,
    SP_PICA_MAX_CODE_WORDS, SP_PICA_MAX_DESCRIPTORS, SP_PICA_VERTEX,
};
pub use pica_fs::{
    sp_pica_fragment_key_from_regs, sp_pica_fragment_translate, sp_pica_fragment_uniforms, SpPicaFragmentKey,
    SpPicaInputSlot, SpPicaLight, SpPicaLighting, SpPicaLut, SpPicaProcTex, SpPicaTexEnvStage, SpPicaTextureUnit,
    SP_PICA_FOG_FOG, SP_PICA_FOG_GAS, SP_PICA_FOG_LUT_WORDS, SP_PICA_FOG_OFF, SP_PICA_FRAGMENT_SEMANTICS,
    SP_PICA_FRAGMENT_UNIFORM_SIZE, SP_PICA_NO_REGISTER, SP_PICA_REGISTERS, SP_PICA_UNIT_2D, SP_PICA_UNIT_CUBE,
    SP_PICA_UNIT_OFF, SP_PICA_UNIT_PROJECTION, SP_PICA_UNIT_SHADOW_2D, SP_PICA_UNIT_SHADOW_CUBE,
};
pub use tev::{
    sp_tev_key_from_bp, sp_tev_translate, SpTevCombiner, SpTevIndStage, SpTevKey, SpTevStage, SpTevStageIndirect,
    SP_TEV_BP_REGISTERS, SP_TEV_MAX_IND_STAGES, SP_TEV_MAX_STAGES, SP_TEV_NO_TEXCOORD,
};

/// The library's version, a NUL-terminated string owned by the library (`"0.1.0"`).
#[no_mangle]
pub extern "C" fn sp_version() -> *const std::ffi::c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

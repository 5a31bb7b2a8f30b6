//! A translation's result as the caller holds it: an opaque handle with the target's bytes and
//! the interface, freed by `sp_output_free`.

use std::ffi::c_char;

use crate::cache::SpCache;
use crate::error::{guard, Failure, SpError};
use crate::ffi;
use crate::options::{Checked, SpOptions};

/// A vertex shader.
pub const SP_STAGE_VERTEX: u32 = 0;
/// A fragment shader.
pub const SP_STAGE_FRAGMENT: u32 = 1;
/// A compute shader (PICA geometry programs: docs/abi.md "Geometry"; Latte programs, whose
/// translation is the compute form of docs/latte-translate.md).
pub const SP_STAGE_COMPUTE: u32 = 2;

/// A fixed-function key (TEV, PICA fragment): no control flow to report.
pub const SP_FLOW_NONE: u32 = 0;
/// Straight code.
pub const SP_FLOW_STRAIGHT: u32 = 1;
/// Structured IF/LOOP/CALL.
pub const SP_FLOW_STRUCTURED: u32 = 2;
/// The dispatch loop over the program counter (PICA) or the CF program counter (Latte).
pub const SP_FLOW_DISPATCH: u32 = 3;

/// What the host needs to bind a translation (docs/abi.md has the bindings behind each field).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SpInterface {
    /// `SP_STAGE_*` of the entry point.
    pub stage: u32,
    /// The entry point's name, NUL-terminated, owned by the library (`"main"`).
    pub entry_point: *const c_char,
    /// PICA vertex and geometry programs: the v registers read as vertex inputs, bit n =
    /// location n. PICA fragment shaders: the vertex stage's o registers read, bit n = oN at
    /// location n. TEV, Latte: 0.
    pub input_mask: u32,
    /// PICA vertex and geometry programs: the o registers written at location = index, bit n =
    /// location n. Others: 0 (a fragment shader writes location 0 and, PICA, the depth).
    pub output_mask: u32,
    /// PICA vertex and geometry programs: the o register written to the position builtin, or
    /// -1. Others: -1.
    pub position: i32,
    /// `SP_FLOW_*`: PICA and Latte programs straight, structured or dispatch;
    /// fixed-function keys (TEV, PICA fragment) `SP_FLOW_NONE`.
    pub flow: u32,
    /// Fragment shaders (TEV, PICA fragment): the texture maps or units sampled, bit k = binding
    /// `1 + k` of group 0. Others: 0.
    pub texmap_mask: u32,
    /// Bytes of the uniform block at group 0, binding 0 (Latte: of each uniform block binding
    /// of `uniform_block_mask`, 0 when it reads none).
    pub uniform_size: u32,
    /// 1 when the result was read from the cache.
    pub from_cache: u32,
    /// PICA fragment shaders: the texture units of `texmap_mask` bound as a six-layer 2D array
    /// of cube faces (+X, -X, +Y, -Y, +Z, -Z) rather than a 2D image, bit k = unit k. Others: 0.
    pub texture_cube_mask: u32,
    /// Latte: the uniform blocks (kcache banks) read, bit n = block n at group 0, binding n.
    /// Others: 0.
    pub uniform_block_mask: u32,
    /// Latte: 1 when the program reads the constant file c0-c255 (group 2, binding 0).
    /// Others: 0.
    pub constant_file: u32,
    /// Latte: 1 when the program reads the vertex fetch buffers (group 3: VTX fetches).
    /// Others: 0.
    pub fetch_buffers: u32,
}

/// A translation's result (opaque): `sp_output_bytes`, `sp_output_interface`,
/// `sp_output_free`.
pub struct SpOutput {
    pub(crate) bytes: Vec<u8>,
    pub(crate) interface: SpInterface,
}

// SAFETY: the only pointer in it, `entry_point`, points to a static string: the handle may move
// between threads and be read from several (Rust cannot see that through the raw pointer).
unsafe impl Send for SpOutput {}
// SAFETY: as for Send.
unsafe impl Sync for SpOutput {}

/// The name every entry point has (pica::ENTRY, gx_tev::ENTRY).
pub(crate) const ENTRY_POINT: &std::ffi::CStr = c"main";

/// The target's bytes (SPIR-V: little-endian words; text targets: UTF-8, no NUL), with their
/// count in `*len`. Owned by the output: valid until `sp_output_free`. Null `output` gives
/// null and 0.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_output_bytes(output: *const SpOutput, len: *mut usize) -> *const u8 {
    // SAFETY: `output` is null or a live handle of this library; `len` null or writable.
    let output = unsafe { ffi::input(output, "output") }.ok();
    let (ptr, n) = output.map_or((std::ptr::null(), 0), |o| (o.bytes.as_ptr(), o.bytes.len()));
    // SAFETY: as above.
    if let Some(len) = unsafe { ffi::out_ref(len) } {
        *len = n;
    }
    ptr
}

/// The interface of the output, owned by it (valid until `sp_output_free`); null for null.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_output_interface(output: *const SpOutput) -> *const SpInterface {
    // SAFETY: `output` is null or a live handle of this library.
    unsafe { ffi::input(output, "output") }.map_or(std::ptr::null(), |o| &o.interface)
}

/// Frees an output. Null is allowed and does nothing; freeing twice is undefined.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_output_free(output: *mut SpOutput) {
    // SAFETY: `output` is null or a handle this library gave out and the caller did not free.
    drop(unsafe { ffi::take_box(output) });
}

/// The part every `sp_<source>_translate` shares: clears `*out`, checks the options, takes the
/// optional cache handle, runs `body` under the guard and hands its output to the caller.
///
/// # Safety
/// `out`, `options`, `cache` and `error` are as the header documents for the entry points.
pub(crate) unsafe fn translate_call(
    error: *mut SpError,
    out: *mut *mut SpOutput,
    options: *const SpOptions,
    cache: *const SpCache,
    body: impl FnOnce(Checked, Option<&SpCache>) -> Result<SpOutput, Failure>,
) -> i32 {
    guard(error, || {
        // SAFETY: the caller's contract for each pointer.
        let out = unsafe { ffi::out_ref(out) }.ok_or_else(|| Failure::null("out"))?;
        *out = std::ptr::null_mut();
        let options = unsafe { ffi::optional(options) }.copied().unwrap_or_default().check()?;
        let cache = unsafe { ffi::optional(cache) };
        *out = ffi::give_box(body(options, cache)?);
        Ok(())
    })
}

//! PICA200 vertex and geometry programs: from the words an emulator holds, or from a SHBIN.

use pica::shbin::{GeometryMode, OutputKind, ShaderType, Shbin};
use translate::pica::{compile, Options, Setup};

use crate::cache::SpCache;
use crate::error::{Failure, SpError};
use crate::ffi;
use crate::options::{Checked, SpOptions};
use crate::output::{
    translate_call, SpInterface, SpOutput, ENTRY_POINT, SP_FLOW_DISPATCH, SP_FLOW_STRAIGHT, SP_FLOW_STRUCTURED,
    SP_STAGE_COMPUTE, SP_STAGE_VERTEX,
};

/// A vertex program.
pub const SP_PICA_VERTEX: u32 = 0;
/// A geometry program (translated to a compute shader).
pub const SP_PICA_GEOMETRY: u32 = 1;
/// Most program words taken (the shader unit's program memory holds 512; the cap bounds what a
/// wrong length can make the library read and allocate).
pub const SP_PICA_MAX_CODE_WORDS: usize = 4096;
/// Most operand descriptors taken (the 7-bit descriptor index reaches 128).
pub const SP_PICA_MAX_DESCRIPTORS: usize = 128;

/// One entry of the output map: an o register and its semantic.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SpPicaOutputMap {
    /// The o register, 0-15.
    pub reg: u8,
    /// The semantic as the SHBIN output table and the GPU's output-map registers code it:
    /// 0 position, 1 normal quaternion, 2 colour, 3 texcoord0, 4 texcoord0.w, 5 texcoord1,
    /// 6 texcoord2, 8 view. Other codes (picasso's 9, `dummy`) are kept: like every semantic
    /// but the position, the register is written at location = its index.
    pub semantic: u8,
}

/// What the shader unit holds at draw time (see `translate::pica::Setup`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SpPicaProgram {
    /// Program memory, one instruction per word (`code_len` words, at most
    /// `SP_PICA_MAX_CODE_WORDS`).
    pub code: *const u32,
    /// Words at `code`.
    pub code_len: usize,
    /// Operand descriptors (bits 0-30 of each table entry; at most `SP_PICA_MAX_DESCRIPTORS`).
    pub descriptors: *const u32,
    /// Words at `descriptors`.
    pub descriptors_len: usize,
    /// The entry point, in words.
    pub entry: u32,
    /// `SP_PICA_VERTEX` or `SP_PICA_GEOMETRY`.
    pub shader_type: u32,
    /// v registers the host feeds (bit n = vn); the ones the code reads are fed too.
    pub input_mask: u16,
    /// o registers written at location = index besides the mapped ones (bit n = on).
    pub output_mask: u16,
    /// The geometry mode (0 point, 1 variable, 2 fixed): says how the host fills the inputs of
    /// a geometry invocation; the code does not depend on it.
    pub geometry_mode: u32,
    /// The output map (`outputs_len` entries, at most 16; null when 0).
    pub outputs: *const SpPicaOutputMap,
    /// Entries at `outputs`.
    pub outputs_len: usize,
}

/// Translates a PICA200 program to the target of `options` (null: SPIR-V, compat).
///
/// `cache` is null or a handle of `sp_cache_open`. On success `*out` is a new output for
/// `sp_output_free`; on failure it is set to null. Returns `SP_OK` or an error code (also in
/// `*error` with a message when `error` is not null).
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_pica_translate(
    program: *const SpPicaProgram,
    options: *const SpOptions,
    cache: *const SpCache,
    out: *mut *mut SpOutput,
    error: *mut SpError,
) -> i32 {
    // SAFETY: header contract for each pointer argument.
    unsafe {
        translate_call(error, out, options, cache, |options, cache| {
            let (setup, shader_type) = setup(ffi::input(program, "program")?)?;
            translate(&setup, shader_type, &options, cache)
        })
    }
}

/// Translates executable `executable` of a SHBIN (`len` bytes at `bytes`) to the target of
/// `options`; the shader type, entry point and output map come from its DVLE. Otherwise as
/// `sp_pica_translate`; malformed bytes give `SP_ERROR_PARSE` with the byte offset.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_pica_translate_shbin(
    bytes: *const u8,
    len: usize,
    executable: u32,
    options: *const SpOptions,
    cache: *const SpCache,
    out: *mut *mut SpOutput,
    error: *mut SpError,
) -> i32 {
    // SAFETY: header contract for each pointer argument.
    unsafe {
        translate_call(error, out, options, cache, |options, cache| {
            let bytes = ffi::slice(bytes, len, "bytes")?;
            let shbin = Shbin::read(bytes).map_err(|e| Failure::new(crate::SP_ERROR_PARSE, format!("SHBIN: {e}")))?;
            let (setup, shader_type) = Setup::from_shbin(&shbin, executable as usize)?;
            translate(&setup, shader_type, &options, cache)
        })
    }
}

/// The setup of a C program, checked.
fn setup(p: &SpPicaProgram) -> Result<(Setup, ShaderType), Failure> {
    if p.code_len > SP_PICA_MAX_CODE_WORDS {
        return Err(Failure::invalid(format!(
            "code_len {} is over SP_PICA_MAX_CODE_WORDS ({SP_PICA_MAX_CODE_WORDS})",
            p.code_len
        )));
    }
    if p.descriptors_len > SP_PICA_MAX_DESCRIPTORS {
        return Err(Failure::invalid(format!(
            "descriptors_len {} is over SP_PICA_MAX_DESCRIPTORS ({SP_PICA_MAX_DESCRIPTORS})",
            p.descriptors_len
        )));
    }
    if p.outputs_len > 16 {
        return Err(Failure::invalid(format!("outputs_len {} is over 16", p.outputs_len)));
    }
    let shader_type = match p.shader_type {
        SP_PICA_VERTEX => ShaderType::Vertex,
        SP_PICA_GEOMETRY => ShaderType::Geometry,
        t => return Err(Failure::invalid(format!("unknown shader_type {t} (vertex 0, geometry 1)"))),
    };
    let geometry_mode = match p.geometry_mode {
        0..=2 => GeometryMode::from_raw(p.geometry_mode as u8),
        m => return Err(Failure::invalid(format!("unknown geometry_mode {m} (point 0, variable 1, fixed 2)"))),
    };
    // SAFETY: header contract: each pointer is valid for its length (bounded above).
    let code = unsafe { ffi::slice(p.code, p.code_len, "code") }?;
    let descriptors = unsafe { ffi::slice(p.descriptors, p.descriptors_len, "descriptors") }?;
    let outputs = unsafe { ffi::slice(p.outputs, p.outputs_len, "outputs") }?;
    let mut setup = Setup::new(code.to_vec(), descriptors.to_vec(), p.entry);
    setup.input_mask = p.input_mask;
    setup.output_mask = p.output_mask;
    setup.geometry_mode = geometry_mode;
    for (i, o) in outputs.iter().enumerate() {
        if o.reg > 15 {
            return Err(Failure::invalid(format!("outputs[{i}].reg {} is not an o register (0-15)", o.reg)));
        }
        setup = setup.output(o.reg, OutputKind::from_raw(o.semantic.into()));
    }
    Ok((setup, shader_type))
}

fn translate(
    setup: &Setup,
    shader_type: ShaderType,
    options: &Checked,
    cache: Option<&SpCache>,
) -> Result<SpOutput, Failure> {
    let pica_options = Options {
        precision: options.precision,
        dispatch_only: options.dispatch_only,
        compute_wrapper: options.compute_wrapper,
    };
    let compiled = compile(cache.map(|c| &c.cache), setup, shader_type, &pica_options, options.target)?;
    let i = &compiled.interface;
    let mask = |regs: &[u8]| regs.iter().fold(0u32, |m, &r| m | 1 << (r & 15));
    let interface = SpInterface {
        stage: if shader_type == ShaderType::Geometry { SP_STAGE_COMPUTE } else { SP_STAGE_VERTEX },
        entry_point: ENTRY_POINT.as_ptr(),
        input_mask: mask(&i.inputs),
        output_mask: mask(&i.outputs),
        position: i.position.map_or(-1, i32::from),
        flow: match i.flow {
            translate::pica::FlowKind::Straight => SP_FLOW_STRAIGHT,
            translate::pica::FlowKind::Structured => SP_FLOW_STRUCTURED,
            translate::pica::FlowKind::Dispatch => SP_FLOW_DISPATCH,
        },
        texmap_mask: 0,
        uniform_size: translate::pica::UNIFORM_SIZE,
        from_cache: compiled.hit as u32,
        texture_cube_mask: 0,
        uniform_block_mask: 0,
        constant_file: 0,
        fetch_buffers: 0,
    };
    Ok(SpOutput { bytes: compiled.bytes, interface })
}

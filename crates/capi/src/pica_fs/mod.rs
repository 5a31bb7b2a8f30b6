//! PICA200 fixed-function fragment pipelines: the key as a plain struct (what changes the code;
//! register values are uniforms: docs/abi.md "PICA200 fragment pipeline"), made from the
//! register file or filled by the host, and the uniform block's bytes.

mod key;

pub use key::{
    SpPicaFragmentKey, SpPicaInputSlot, SpPicaLight, SpPicaLighting, SpPicaLut, SpPicaProcTex, SpPicaTexEnvStage,
    SpPicaTextureUnit, SP_PICA_FOG_FOG, SP_PICA_FOG_GAS, SP_PICA_FOG_OFF, SP_PICA_FRAGMENT_SEMANTICS,
    SP_PICA_NO_REGISTER, SP_PICA_UNIT_2D, SP_PICA_UNIT_CUBE, SP_PICA_UNIT_OFF, SP_PICA_UNIT_PROJECTION,
    SP_PICA_UNIT_SHADOW_2D, SP_PICA_UNIT_SHADOW_CUBE,
};

use std::sync::Arc;

use pica::fixed::{FragmentKey, FragmentUniforms};
use pica::state::Memories;
use translate::cache::Key;
use translate::pica_fs::{translate, InputMap, Options, TextureBinding, UniformBlock, UNIFORM_SIZE};

use crate::cache::SpCache;
use crate::error::{guard, Failure, SpError};
use crate::ffi;
use crate::options::{Checked, SpOptions};
use crate::output::{translate_call, SpInterface, SpOutput, ENTRY_POINT, SP_FLOW_NONE, SP_STAGE_FRAGMENT};

/// Registers of the register file `sp_pica_fragment_key_from_regs` and
/// `sp_pica_fragment_uniforms` read (ids 0x000-0x2FF, register n at index n).
pub const SP_PICA_REGISTERS: usize = 0x300;
/// Words of the fog LUT (what the host uploaded through GPUREG_FOG_LUT_DATA).
pub const SP_PICA_FOG_LUT_WORDS: usize = 128;
/// Bytes of the uniform block `sp_pica_fragment_uniforms` writes.
pub const SP_PICA_FRAGMENT_UNIFORM_SIZE: usize = 60640;

// The header's numbers are literals (cbindgen does not read other crates' constants): they
// must stay the library's.
const _: () = assert!(SP_PICA_REGISTERS == pica::regs::REGISTER_COUNT);
const _: () = assert!(SP_PICA_FRAGMENT_UNIFORM_SIZE == UNIFORM_SIZE as usize);
const _: () = assert!(SP_PICA_FRAGMENT_SEMANTICS == translate::pica_fs::SEMANTICS);

/// Fills `*key` from a register file of `SP_PICA_REGISTERS` words (the 32-bit values as the
/// GPU holds them, register n at index n): the canonical key (`FragmentKey::from_regs`) and the
/// input map of GPUREG_SH_OUTMAP_TOTAL and _O0-O6.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_pica_fragment_key_from_regs(
    regs: *const u32,
    key: *mut SpPicaFragmentKey,
    error: *mut SpError,
) -> i32 {
    guard(error, || {
        // SAFETY: header contract: `regs` points to SP_PICA_REGISTERS words, `key` is writable.
        let regs = unsafe { ffi::slice(regs, SP_PICA_REGISTERS, "regs") }?;
        let key = unsafe { ffi::out_ref(key) }.ok_or_else(|| Failure::null("key"))?;
        *key = SpPicaFragmentKey::from_key(&FragmentKey::from_regs(regs), &InputMap::from_regs(regs));
        Ok(())
    })
}

/// Writes the fragment shader's uniform block (std140, `SP_PICA_FRAGMENT_UNIFORM_SIZE` bytes:
/// the TexEnv constants, buffer colour, alpha reference, fog colour and decoded fog LUT, depth
/// scale and offset, wrap modes and border colours, the procedural texture's parameters,
/// fragment lighting's light parameters, ambient and LUT scales) for a register file of `SP_PICA_REGISTERS` words and the `SP_PICA_FOG_LUT_WORDS` words of the fog
/// LUT (null: all zero) to `buf`, which holds `len` bytes. The procedural texture's five LUTs
/// are not inputs of this call and are written as zeros: a caller that uses unit 3 writes them
/// at the offsets of docs/abi.md (2480-14767); fragment lighting's 24 LUTs likewise (15584 to
/// the end). `*written` (when not null) is set to the block's size, also when `len` is too
/// small (then the code is `SP_ERROR_INVALID_ARGUMENT` and nothing is written).
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_pica_fragment_uniforms(
    regs: *const u32,
    fog_lut: *const u32,
    buf: *mut u8,
    len: usize,
    written: *mut usize,
    error: *mut SpError,
) -> i32 {
    guard(error, || {
        // SAFETY: header contract for each pointer.
        if let Some(w) = unsafe { ffi::out_ref(written) } {
            *w = SP_PICA_FRAGMENT_UNIFORM_SIZE;
        }
        let regs = unsafe { ffi::slice(regs, SP_PICA_REGISTERS, "regs") }?;
        let mut memories = Memories::default();
        if let Some(lut) = unsafe { ffi::optional(fog_lut) } {
            // SAFETY: a non-null `fog_lut` points to SP_PICA_FOG_LUT_WORDS words.
            let words = unsafe { ffi::slice(lut, SP_PICA_FOG_LUT_WORDS, "fog_lut") }?;
            let mut fog = [0u32; SP_PICA_FOG_LUT_WORDS];
            fog.copy_from_slice(words);
            memories.fog = Arc::new(fog);
        }
        if len < SP_PICA_FRAGMENT_UNIFORM_SIZE {
            return Err(Failure::invalid(format!(
                "len {len} is under SP_PICA_FRAGMENT_UNIFORM_SIZE ({SP_PICA_FRAGMENT_UNIFORM_SIZE})"
            )));
        }
        let buf = unsafe { ffi::out_slice(buf, SP_PICA_FRAGMENT_UNIFORM_SIZE, "buf") }?;
        let block = UniformBlock::from_uniforms(&FragmentUniforms::from_regs(regs, &memories)).to_bytes();
        buf.copy_from_slice(&block);
        Ok(())
    })
}

/// Translates a PICA200 fragment key to a fragment shader in the target of `options` (precision
/// is ignored: the float steps follow the reference's order in every precision). Otherwise as
/// `sp_pica_translate`.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_pica_fragment_translate(
    key: *const SpPicaFragmentKey,
    options: *const SpOptions,
    cache: *const SpCache,
    out: *mut *mut SpOutput,
    error: *mut SpError,
) -> i32 {
    // SAFETY: header contract for each pointer argument.
    unsafe {
        translate_call(error, out, options, cache, |options, cache| {
            let (key, inputs) = ffi::input(key, "key")?.key()?;
            compile(&key, &inputs, &options, cache)
        })
    }
}

/// The textures of a translation as one byte: 2 bits per unit (0 none, 1 2D, 2 cube).
fn texture_code(textures: [Option<TextureBinding>; 3]) -> u8 {
    textures.iter().enumerate().fold(0, |b, (u, t)| {
        let code = match t {
            None => 0,
            Some(TextureBinding::D2) => 1,
            Some(TextureBinding::Cube) => 2,
        };
        b | code << (2 * u)
    })
}

/// Translates and writes the target, through the cache when there is one: the key is the
/// canonical key and map's bytes, the options and the target; the value is the texture byte
/// and the target's bytes.
fn compile(
    key: &FragmentKey,
    inputs: &InputMap,
    options: &Checked,
    cache: Option<&SpCache>,
) -> Result<SpOutput, Failure> {
    let fs_options = Options { compute_wrapper: options.compute_wrapper };
    let make = || -> Result<(u8, Vec<u8>), Failure> {
        let t = translate(key, inputs, &fs_options)?;
        Ok((texture_code(t.textures()), t.write(options.target)?.to_bytes()))
    };
    let ((textures, bytes), hit) = match cache {
        None => (make()?, false),
        Some(c) => {
            let cache_key = Key::new("pica-fragment")
                .part(&SpPicaFragmentKey::from_key(key, inputs).key_bytes())
                .part(&[options.compute_wrapper as u8])
                .part(options.target.name().as_bytes());
            let cached = c.cache.get(&cache_key).and_then(|v| v.split_first().map(|(&t, b)| (t, b.to_vec())));
            match cached {
                Some(value) => (value, true),
                None => {
                    let (t, bytes) = make()?;
                    let mut value = vec![t];
                    value.extend_from_slice(&bytes);
                    let _ = c.cache.put(&cache_key, &value);
                    ((t, bytes), false)
                }
            }
        }
    };
    let unit = |u: u32| (textures >> (2 * u)) & 3;
    let interface = SpInterface {
        stage: SP_STAGE_FRAGMENT,
        entry_point: ENTRY_POINT.as_ptr(),
        input_mask: inputs.registers().iter().fold(0u32, |m, &r| m | 1 << (r & 15)),
        output_mask: 0,
        position: -1,
        flow: SP_FLOW_NONE,
        texmap_mask: (0..3).fold(0, |m, u| m | u32::from(unit(u) != 0) << u),
        uniform_size: UNIFORM_SIZE,
        from_cache: hit as u32,
        texture_cube_mask: (0..3).fold(0, |m, u| m | u32::from(unit(u) == 2) << u),
        uniform_block_mask: 0,
        constant_file: 0,
        fetch_buffers: 0,
    };
    Ok(SpOutput { bytes, interface })
}

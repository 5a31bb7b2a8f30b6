//! Wii U Latte (R700) vertex and pixel programs: from the program bytes and draw-time constants
//! an emulator holds, or from a GFD (.gsh) file. The translation is the compute form of
//! docs/latte-translate.md (entry point `latte_compute`).

use std::collections::BTreeMap;

use latte::gfd::{GfdFile, Stage as GfdStage};
use latte::interp::DEFAULT_LOOP_CONST;
use latte::isa::Program;
use translate::cache::Key;
use translate::latte::{translate, FlowKind, Options, Stage, BLOCK_VEC4S};
use translate::Precision;

use crate::cache::SpCache;
use crate::error::{Failure, SpError, SP_ERROR_PARSE, SP_ERROR_TRANSLATE, SP_ERROR_UNSUPPORTED};
use crate::ffi;
use crate::options::{Checked, SpOptions};
use crate::output::{
    translate_call, SpInterface, SpOutput, SP_FLOW_DISPATCH, SP_FLOW_STRAIGHT, SP_FLOW_STRUCTURED, SP_STAGE_COMPUTE,
};

/// A vertex program.
pub const SP_LATTE_VERTEX: u32 = 0;
/// A pixel program.
pub const SP_LATTE_PIXEL: u32 = 1;
/// A geometry program (not translated yet: `SP_ERROR_UNSUPPORTED`).
pub const SP_LATTE_GEOMETRY: u32 = 2;
/// Loop constants a program can name (the CF instruction's 5-bit CF_CONST).
pub const SP_LATTE_LOOP_CONSTS: usize = 32;
/// Most program bytes taken (a bound on what a wrong length can make the library read and
/// allocate; GX2 programs are a few KiB).
pub const SP_LATTE_MAX_PROGRAM_BYTES: usize = 1 << 20;

/// The name of the compute form's entry point (translate::latte::COMPUTE_ENTRY).
const LATTE_ENTRY: &std::ffi::CStr = c"latte_compute";

/// A Latte program and the draw-time state that changes its code.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SpLatteProgram {
    /// The program: little-endian 32-bit words as GX2 and .gsh files hold them (`len` bytes, a
    /// multiple of 4, at most `SP_LATTE_MAX_PROGRAM_BYTES`).
    pub bytes: *const u8,
    /// Bytes at `bytes`.
    pub len: usize,
    /// `SP_LATTE_VERTEX`, `SP_LATTE_PIXEL` or `SP_LATTE_GEOMETRY`.
    pub stage: u32,
    /// SQ_LOOP_CONST_n of the stage (COUNT bits 0-11, INIT 12-23, INC 24-31), n = the LOOP
    /// instruction's CF_CONST; only those of `loop_const_mask` are read.
    pub loop_consts: [u32; SP_LATTE_LOOP_CONSTS],
    /// Bit n: `loop_consts[n]` is set; the others are the interpreter's default (count 4095,
    /// init 0, increment 1).
    pub loop_const_mask: u32,
    /// SQ_BOOL_CONST of the stage: bit n = boolean constant n (CF_BOOL / CF_NOT_BOOL).
    pub bool_consts: u32,
}

/// Translates a Latte program to the target of `options` (flags are ignored; precision: `exact`
/// runs the interpreter's transcendental algorithm, `compat` and `fast` the device's f32
/// functions). Malformed program bytes give `SP_ERROR_PARSE`; instructions not translated yet (TEX fetches)
/// and geometry programs give `SP_ERROR_UNSUPPORTED`, named. Otherwise as `sp_pica_translate`.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_latte_translate(
    program: *const SpLatteProgram,
    options: *const SpOptions,
    cache: *const SpCache,
    out: *mut *mut SpOutput,
    error: *mut SpError,
) -> i32 {
    // SAFETY: header contract for each pointer argument.
    unsafe {
        translate_call(error, out, options, cache, |options, cache| {
            let p = ffi::input(program, "program")?;
            if p.len > SP_LATTE_MAX_PROGRAM_BYTES {
                return Err(Failure::invalid(format!(
                    "len {} is over SP_LATTE_MAX_PROGRAM_BYTES ({SP_LATTE_MAX_PROGRAM_BYTES})",
                    p.len
                )));
            }
            let stage = stage(p.stage)?;
            let bytes = ffi::slice(p.bytes, p.len, "bytes")?;
            let mut loop_consts = BTreeMap::new();
            for (n, &value) in p.loop_consts.iter().enumerate() {
                // An entry equal to the default is no entry: the same code, the same cache key.
                if p.loop_const_mask & (1 << n) != 0 && value != DEFAULT_LOOP_CONST {
                    loop_consts.insert(n as u8, value);
                }
            }
            let latte_options = Options { precision: options.precision, loop_consts, bool_consts: p.bool_consts };
            compile(bytes, 0, stage, &latte_options, &options, cache)
        })
    }
}

/// Translates shader `index` of `stage` (the n-th header block of that stage) of a GFD file
/// (`len` bytes at `bytes`, a .gsh) with the default loop and boolean constants (all loop
/// constants the interpreter's default, booleans 0: draws that set them go through
/// `sp_latte_translate`). Malformed bytes give `SP_ERROR_PARSE` with the byte offset; a shader
/// the file lacks, or a header without a program, `SP_ERROR_TRANSLATE`. Otherwise as
/// `sp_latte_translate`.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_latte_translate_gsh(
    bytes: *const u8,
    len: usize,
    stage: u32,
    index: u32,
    options: *const SpOptions,
    cache: *const SpCache,
    out: *mut *mut SpOutput,
    error: *mut SpError,
) -> i32 {
    // SAFETY: header contract for each pointer argument.
    unsafe {
        translate_call(error, out, options, cache, |options, cache| {
            let bytes = ffi::slice(bytes, len, "bytes")?;
            let want = match stage {
                SP_LATTE_VERTEX => GfdStage::Vertex,
                SP_LATTE_PIXEL => GfdStage::Pixel,
                SP_LATTE_GEOMETRY => GfdStage::Geometry,
                s => return Err(stage_error(s)),
            };
            let parse = |e: latte::Error| Failure::new(SP_ERROR_PARSE, format!("GFD: {e}"));
            let shaders = GfdFile::parse(bytes).and_then(|f| f.shaders()).map_err(parse)?;
            let of_stage: Vec<_> = shaders.iter().filter(|s| s.header.stage == want).collect();
            let shader = of_stage.get(index as usize).ok_or_else(|| {
                Failure::new(
                    SP_ERROR_TRANSLATE,
                    format!("no {} shader {index}: the file has {}", want.name(), of_stage.len()),
                )
            })?;
            let program = shader.program.as_deref().ok_or_else(|| {
                Failure::new(SP_ERROR_TRANSLATE, format!("{} shader {index} has no program block", want.name()))
            })?;
            let stage = self::stage(stage)?;
            let latte_options = Options { precision: options.precision, ..Options::default() };
            compile(program, shader.program_offset, stage, &latte_options, &options, cache)
        })
    }
}

fn stage_error(s: u32) -> Failure {
    Failure::invalid(format!("unknown stage {s} (vertex 0, pixel 1, geometry 2)"))
}

/// The translator's stage; geometry programs are refused (not translated yet).
fn stage(s: u32) -> Result<Stage, Failure> {
    match s {
        SP_LATTE_VERTEX => Ok(Stage::Vertex),
        SP_LATTE_PIXEL => Ok(Stage::Pixel),
        SP_LATTE_GEOMETRY => Err(Failure::new(SP_ERROR_UNSUPPORTED, "Latte geometry programs are not translated yet")),
        s => Err(stage_error(s)),
    }
}

/// What a cached Latte translation is besides its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Facts {
    /// `SP_FLOW_*`.
    flow: u8,
    blocks: u32,
    constant_file: bool,
    fetch_buffers: bool,
}

impl Facts {
    fn encode(&self) -> [u8; 7] {
        let b = self.blocks.to_le_bytes();
        [self.flow, self.constant_file as u8, self.fetch_buffers as u8, b[0], b[1], b[2], b[3]]
    }

    fn decode(value: &[u8]) -> Option<(Facts, &[u8])> {
        let (head, rest) = value.split_first_chunk::<7>()?;
        // A flow code the translator never writes marks a damaged entry: a miss, not a value.
        if !matches!(u32::from(head[0]), SP_FLOW_STRAIGHT | SP_FLOW_STRUCTURED | SP_FLOW_DISPATCH) {
            return None;
        }
        let facts = Facts {
            flow: head[0],
            constant_file: head[1] != 0,
            fetch_buffers: head[2] != 0,
            blocks: u32::from_le_bytes([head[3], head[4], head[5], head[6]]),
        };
        Some((facts, rest))
    }
}

/// The cache key of a translation: the program bytes, the stage, the constants, the precision
/// and the target.
fn cache_key(bytes: &[u8], stage: Stage, options: &Options, target: translate::Target) -> Key {
    let mut consts = Vec::with_capacity(5 * options.loop_consts.len() + 4);
    for (&n, &v) in &options.loop_consts {
        consts.push(n);
        consts.extend_from_slice(&v.to_le_bytes());
    }
    consts.extend_from_slice(&options.bool_consts.to_le_bytes());
    let precision = match options.precision {
        Precision::Fast => 0,
        Precision::Compat => 1,
        Precision::Exact => 2,
    };
    // The second part names the layout of the cached value (`Facts`), so a value written
    // before a layout change is never read as the new one.
    Key::new("latte")
        .part(b"facts: flow code")
        .part(bytes)
        .part(&[(stage == Stage::Pixel) as u8])
        .part(&consts)
        .part(&[precision])
        .part(target.name().as_bytes())
}

/// Decodes, translates and writes the target, through the cache when there is one.
fn compile(
    bytes: &[u8],
    base: usize,
    stage: Stage,
    latte_options: &Options,
    options: &Checked,
    cache: Option<&SpCache>,
) -> Result<SpOutput, Failure> {
    let make = || -> Result<(Facts, Vec<u8>), Failure> {
        let prog = Program::decode_bytes(bytes, base)
            .map_err(|e| Failure::new(SP_ERROR_PARSE, format!("Latte program: {e}")))?;
        let t = translate(&prog, stage, latte_options)?;
        let facts = Facts {
            flow: match t.flow() {
                FlowKind::Straight => SP_FLOW_STRAIGHT,
                FlowKind::Structured => SP_FLOW_STRUCTURED,
                FlowKind::Dispatch => SP_FLOW_DISPATCH,
            } as u8,
            blocks: t.uniform_blocks().iter().fold(0, |m, &b| m | 1 << (b & 31)),
            constant_file: t.reads_cfile(),
            fetch_buffers: t.reads_fetch_buffers(),
        };
        Ok((facts, t.write(options.target)?.to_bytes()))
    };
    let ((facts, bytes), hit) = match cache {
        None => (make()?, false),
        Some(c) => {
            let key = cache_key(bytes, stage, latte_options, options.target);
            match c.cache.get(&key).and_then(|v| Facts::decode(&v).map(|(f, b)| (f, b.to_vec()))) {
                Some(value) => (value, true),
                None => {
                    let (facts, bytes) = make()?;
                    let mut value = facts.encode().to_vec();
                    value.extend_from_slice(&bytes);
                    let _ = c.cache.put(&key, &value);
                    ((facts, bytes), false)
                }
            }
        }
    };
    let interface = SpInterface {
        stage: SP_STAGE_COMPUTE,
        entry_point: LATTE_ENTRY.as_ptr(),
        input_mask: 0,
        output_mask: 0,
        position: -1,
        flow: facts.flow as u32,
        texmap_mask: 0,
        uniform_size: if facts.blocks != 0 { BLOCK_VEC4S * 16 } else { 0 },
        from_cache: hit as u32,
        texture_cube_mask: 0,
        uniform_block_mask: facts.blocks,
        constant_file: facts.constant_file as u32,
        fetch_buffers: facts.fetch_buffers as u32,
    };
    Ok(SpOutput { bytes, interface })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_point_is_the_translators() {
        assert_eq!(LATTE_ENTRY.to_str().unwrap(), translate::latte::COMPUTE_ENTRY);
    }

    #[test]
    fn facts_round_trip() {
        let f = Facts { flow: SP_FLOW_DISPATCH as u8, blocks: 0b1010, constant_file: false, fetch_buffers: true };
        let mut value = f.encode().to_vec();
        value.extend_from_slice(b"spv");
        assert_eq!(Facts::decode(&value), Some((f, &b"spv"[..])));
        assert!(Facts::decode(&value[..6]).is_none());
        value[0] = 0;
        assert!(Facts::decode(&value).is_none(), "flow code 0 is no translation's");
    }
}

//! Calling the C entry points from Rust as a C caller does: raw pointers in, an output handle and
//! an error record out.
#![allow(dead_code)]

use shaderport::*;
use translate::pica::Setup;

/// A call's result: the target's bytes and the interface, or the code and message.
pub type CallResult = Result<(Vec<u8>, SpInterface), (i32, String)>;

pub fn new_error() -> SpError {
    SpError { code: -1, message: [0; SP_MESSAGE_CAPACITY] }
}

pub fn message(e: &SpError) -> String {
    let bytes: Vec<u8> = e.message.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    String::from_utf8(bytes).expect("UTF-8 message")
}

/// Takes an output handle's contents and frees it.
pub fn take(code: i32, out: *mut SpOutput, error: &SpError) -> CallResult {
    assert_eq!(error.code, code, "the error record has the returned code");
    if code != SP_OK {
        assert!(out.is_null(), "a failed call left an output");
        let m = message(error);
        assert!(!m.is_empty(), "code {code} without a message");
        return Err((code, m));
    }
    assert!(!out.is_null(), "success without an output");
    let mut len = 0;
    // SAFETY: `out` is a live handle; its bytes and interface live until the free below.
    let result = unsafe {
        let bytes = sp_output_bytes(out, &mut len);
        let bytes = std::slice::from_raw_parts(bytes, len).to_vec();
        (bytes, *sp_output_interface(out))
    };
    // SAFETY: freed once.
    unsafe { sp_output_free(out) };
    Ok(result)
}

/// The C form of a setup: the program struct and the arrays it points into.
pub struct CProgram {
    pub setup: Setup,
    pub outputs: Vec<SpPicaOutputMap>,
}

impl CProgram {
    pub fn new(setup: &Setup) -> CProgram {
        let outputs =
            setup.outputs.iter().map(|&(reg, kind)| SpPicaOutputMap { reg, semantic: kind.raw() as u8 }).collect();
        CProgram { setup: setup.clone(), outputs }
    }

    pub fn program(&self, shader_type: u32) -> SpPicaProgram {
        SpPicaProgram {
            code: self.setup.code.as_ptr(),
            code_len: self.setup.code.len(),
            descriptors: self.setup.descriptors.as_ptr(),
            descriptors_len: self.setup.descriptors.len(),
            entry: self.setup.main,
            shader_type,
            input_mask: self.setup.input_mask,
            output_mask: self.setup.output_mask,
            geometry_mode: self.setup.geometry_mode.raw() as u32,
            outputs: self.outputs.as_ptr(),
            outputs_len: self.outputs.len(),
        }
    }
}

pub fn pica(program: &SpPicaProgram, options: &SpOptions, cache: *const SpCache) -> CallResult {
    let mut out = std::ptr::null_mut();
    let mut error = new_error();
    // SAFETY: every pointer is valid for the call.
    let code = unsafe { sp_pica_translate(program, options, cache, &mut out, &mut error) };
    take(code, out, &error)
}

pub fn pica_shbin(bytes: &[u8], executable: u32, options: &SpOptions, cache: *const SpCache) -> CallResult {
    let mut out = std::ptr::null_mut();
    let mut error = new_error();
    // SAFETY: every pointer is valid for the call.
    let code = unsafe {
        sp_pica_translate_shbin(bytes.as_ptr(), bytes.len(), executable, options, cache, &mut out, &mut error)
    };
    take(code, out, &error)
}

pub fn tev(key: &SpTevKey, options: &SpOptions, cache: *const SpCache) -> CallResult {
    let mut out = std::ptr::null_mut();
    let mut error = new_error();
    // SAFETY: every pointer is valid for the call.
    let code = unsafe { sp_tev_translate(key, options, cache, &mut out, &mut error) };
    take(code, out, &error)
}

pub fn pica_fragment(key: &SpPicaFragmentKey, options: &SpOptions, cache: *const SpCache) -> CallResult {
    let mut out = std::ptr::null_mut();
    let mut error = new_error();
    // SAFETY: every pointer is valid for the call.
    let code = unsafe { sp_pica_fragment_translate(key, options, cache, &mut out, &mut error) };
    take(code, out, &error)
}

/// The key of a register file through the C ABI.
pub fn pica_fragment_key(regs: &[u32]) -> Result<SpPicaFragmentKey, (i32, String)> {
    assert_eq!(regs.len(), SP_PICA_REGISTERS);
    let mut key = SpPicaFragmentKey::default();
    let mut error = new_error();
    // SAFETY: `regs` holds SP_PICA_REGISTERS words; `key` is writable.
    let code = unsafe { sp_pica_fragment_key_from_regs(regs.as_ptr(), &mut key, &mut error) };
    assert_eq!(error.code, code);
    if code != SP_OK {
        return Err((code, message(&error)));
    }
    Ok(key)
}

/// A random fragment-pipeline register file (pica::smith::fragment_state).
pub fn fragment_regs(seed: u64) -> Vec<u32> {
    let state = pica::smith::fragment_state(&mut arbitrary::Unstructured::new(&bytes(seed, 4096))).unwrap();
    let mut regs = state.regs.to_vec();
    // The output map of a typical citro3d program (translate::pica_fs::InputMap::typical).
    regs[0x04F] = 7;
    regs[0x050..0x057].copy_from_slice(&[
        0x0302_0100,
        0x0B0A_0908,
        0x1F10_0D0C,
        0x1F1F_0F0E,
        0x1F1F_1716,
        0x1F14_1312,
        0x0706_0504,
    ]);
    regs
}

/// A Latte program as a C caller passes it (default constants).
pub fn latte_program(bytes: &[u8], stage: u32) -> SpLatteProgram {
    SpLatteProgram {
        bytes: bytes.as_ptr(),
        len: bytes.len(),
        stage,
        loop_consts: [0; SP_LATTE_LOOP_CONSTS],
        loop_const_mask: 0,
        bool_consts: 0,
    }
}

pub fn latte(program: &SpLatteProgram, options: &SpOptions, cache: *const SpCache) -> CallResult {
    let mut out = std::ptr::null_mut();
    let mut error = new_error();
    // SAFETY: every pointer is valid for the call.
    let code = unsafe { sp_latte_translate(program, options, cache, &mut out, &mut error) };
    take(code, out, &error)
}

pub fn latte_gsh(bytes: &[u8], stage: u32, index: u32, options: &SpOptions, cache: *const SpCache) -> CallResult {
    let mut out = std::ptr::null_mut();
    let mut error = new_error();
    // SAFETY: every pointer is valid for the call.
    let code = unsafe {
        sp_latte_translate_gsh(bytes.as_ptr(), bytes.len(), stage, index, options, cache, &mut out, &mut error)
    };
    take(code, out, &error)
}

/// The vertex and pixel programs of the corpus .gsh files: (file, C stage, index within the
/// stage, program bytes, program offset).
pub fn latte_corpus() -> Vec<(std::path::PathBuf, u32, u32, Vec<u8>, usize)> {
    let mut out = Vec::new();
    for path in testkit::files(&testkit::corpus("latte-mesa/gsh"), "gsh") {
        let file = latte::gfd::GfdFile::parse(&std::fs::read(&path).unwrap()).unwrap();
        let mut counts = [0u32; 3];
        for s in file.shaders().unwrap() {
            let stage = s.header.stage as u32;
            let index = counts[stage as usize];
            counts[stage as usize] += 1;
            if let (Some(program), true) = (s.program, stage != SP_LATTE_GEOMETRY) {
                out.push((path.clone(), stage, index, program, s.program_offset));
            }
        }
    }
    out
}

/// A deterministic byte source (splitmix64, as the other tests' seeds).
pub fn bytes(seed: u64, n: usize) -> Vec<u8> {
    pica::smith::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03).bytes(n)
}

/// A random valid TEV state (gx::smith).
pub fn tev_state(seed: u64) -> gx::TevState {
    gx::smith::state(&mut arbitrary::Unstructured::new(&bytes(seed, 4096)), &gx::smith::Config::default()).unwrap()
}

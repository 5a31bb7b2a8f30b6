//! Malformed input through the C ABI gives an error code and a message naming what is wrong,
//! never a crash: null pointers, unknown options, lengths over their caps, out-of-range key
//! fields, and random SHBIN bytes, program words, register files and keys (bounded by
//! PROPTEST_CASES).

mod common;

use std::ptr::{null, null_mut};

use common::{
    latte, latte_gsh, latte_program, message, new_error, pica, pica_fragment, pica_fragment_key, pica_shbin, tev,
    CProgram,
};
use proptest::prelude::*;
use shaderport::*;
use translate::pica::Setup;

fn mov_program() -> CProgram {
    CProgram::new(&Setup::new(vec![0x4C00_0000, 0x8800_0000], vec![0x0000_036F], 0))
}

fn err(r: common::CallResult) -> (i32, String) {
    r.expect_err("the call was refused")
}

#[test]
fn null_pointers_are_errors() {
    let p = mov_program();
    let program = p.program(SP_PICA_VERTEX);
    let mut error = new_error();
    let mut out = null_mut();
    // SAFETY (all calls below): every non-null pointer is valid.
    let code = unsafe { sp_pica_translate(&program, null(), null(), null_mut(), &mut error) };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "out is null"));
    let code = unsafe { sp_pica_translate(null(), null(), null(), &mut out, &mut error) };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "program is null"));
    assert!(out.is_null());
    // No error record: the code alone.
    assert_eq!(unsafe { sp_pica_translate(null(), null(), null(), &mut out, null_mut()) }, SP_ERROR_NULL_POINTER);
    let mut missing_code = program;
    missing_code.code = null();
    assert_eq!(err(pica(&missing_code, &SpOptions::default(), null())), (SP_ERROR_NULL_POINTER, "code is null".into()));
    let code = unsafe { sp_pica_translate_shbin(null(), 4, 0, null(), null(), &mut out, &mut error) };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "bytes is null"));
    let code = unsafe { sp_tev_translate(null(), null(), null(), &mut out, &mut error) };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "key is null"));
    let code = unsafe { sp_tev_key_from_bp(null(), null_mut(), &mut error) };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "bp is null"));
    let mut cache = null_mut();
    let code = unsafe { sp_cache_open(null(), 0, &mut cache, &mut error) };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "dir is null"));
    assert_eq!(unsafe { sp_cache_stats(null(), null_mut()) }, SP_ERROR_NULL_POINTER);
    // Accessors and frees take null.
    let mut len = 7;
    assert!(unsafe { sp_output_bytes(null(), &mut len) }.is_null());
    assert_eq!(len, 0);
    assert!(unsafe { sp_output_interface(null()) }.is_null());
    unsafe { sp_output_free(null_mut()) };
    unsafe { sp_cache_close(null_mut()) };
    // A null options pointer is the default: SPIR-V.
    let code = unsafe { sp_pica_translate(&program, null(), null(), &mut out, &mut error) };
    let (bytes, _) = common::take(code, out, &error).unwrap();
    assert_eq!(&bytes[..4], &[0x03, 0x02, 0x23, 0x07]);
}

#[test]
fn arguments_out_of_range_are_named() {
    let p = mov_program();
    let program = p.program(SP_PICA_VERTEX);
    let bad_options = [
        (SpOptions { target: 6, ..SpOptions::default() }, "unknown target 6"),
        (SpOptions { precision: 3, ..SpOptions::default() }, "unknown precision 3"),
        (SpOptions { flags: 0x10, ..SpOptions::default() }, "unknown flags 0x10"),
    ];
    for (options, want) in bad_options {
        let (code, m) = err(pica(&program, &options, null()));
        assert_eq!(code, SP_ERROR_INVALID_ARGUMENT);
        assert!(m.starts_with(want), "{m}");
    }
    let d = SpOptions::default();
    let mut q = program;
    q.shader_type = 2;
    assert!(err(pica(&q, &d, null())).1.starts_with("unknown shader_type 2"));
    let mut q = program;
    q.geometry_mode = 3;
    assert!(err(pica(&q, &d, null())).1.starts_with("unknown geometry_mode 3"));
    let mut q = program;
    q.code_len = SP_PICA_MAX_CODE_WORDS + 1;
    assert!(err(pica(&q, &d, null())).1.starts_with("code_len 4097 is over SP_PICA_MAX_CODE_WORDS"));
    let mut q = program;
    q.descriptors_len = 129;
    assert!(err(pica(&q, &d, null())).1.starts_with("descriptors_len 129"));
    let outputs = [SpPicaOutputMap { reg: 16, semantic: 0 }];
    let mut q = program;
    q.outputs = outputs.as_ptr();
    q.outputs_len = 1;
    assert_eq!(err(pica(&q, &d, null())).1, "outputs[0].reg 16 is not an o register (0-15)");
    let mut q = program;
    q.entry = 2;
    assert_eq!(
        err(pica(&q, &d, null())),
        (SP_ERROR_TRANSLATE, "entry point 2 is outside the program (2 instructions)".into())
    );
    // A SHBIN: garbage, and an executable it lacks.
    let (code, m) = err(pica_shbin(b"not a shbin at all", 0, &d, null()));
    assert_eq!(code, SP_ERROR_PARSE);
    assert!(m.starts_with("SHBIN: "), "{m}");
    let golden = std::fs::read(testkit::corpus("pica/golden/citro2d__source__render2d.v.pica.shbin")).unwrap();
    assert_eq!(err(pica_shbin(&golden, 5, &d, null())), (SP_ERROR_TRANSLATE, "no executable 5: the file has 1".into()));
    // TEV key fields.
    let key = SpTevKey::from_key(&gx::key::TevKey::new(&gx::TevState::default()));
    type Edit = fn(&mut SpTevKey);
    let cases: [(Edit, &str); 5] = [
        (|k| k.num_stages = 0, "num_stages is 0, not 1-16"),
        (|k| k.num_stages = 17, "num_stages is 17, not 1-16"),
        (|k| k.stages[0].color.inputs[1] = 16, "stages[0].color.inputs[1] is 16, over its largest value 15"),
        (|k| k.stages[0].texcoord = 0, "stages[0].texcoord is 0: with 0 texgens it must be SP_TEV_NO_TEXCOORD"),
        (|k| k.alpha_logic = 4, "alpha_logic is 4, over its largest value 3"),
    ];
    for (mutate, want) in cases {
        let mut k = key;
        mutate(&mut k);
        assert_eq!(err(tev(&k, &d, null())), (SP_ERROR_INVALID_ARGUMENT, want.to_string()));
    }
    // A cache folder that is a file.
    let file = testkit::temp_dir("capi-bad-cache").join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let path = std::ffi::CString::new(file.to_str().unwrap()).unwrap();
    let (mut cache, mut error) = (null_mut(), new_error());
    // SAFETY: valid pointers.
    assert_eq!(unsafe { sp_cache_open(path.as_ptr(), 1 << 20, &mut cache, &mut error) }, SP_ERROR_IO);
    assert!(cache.is_null());
    assert!(message(&error).starts_with("cache folder"), "{}", message(&error));
}

#[test]
fn fragment_calls_name_what_is_wrong() {
    let (mut out, mut error) = (null_mut(), new_error());
    // SAFETY (all calls below): every non-null pointer is valid for its length.
    let code = unsafe { sp_pica_fragment_translate(null(), null(), null(), &mut out, &mut error) };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "key is null"));
    let code = unsafe { sp_pica_fragment_key_from_regs(null(), null_mut(), &mut error) };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "regs is null"));
    let regs = vec![0u32; SP_PICA_REGISTERS];
    let code = unsafe { sp_pica_fragment_key_from_regs(regs.as_ptr(), null_mut(), &mut error) };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "key is null"));

    // The uniform block: a short buffer is refused with the size needed; a null LUT is zeros.
    let mut buf = vec![0u8; SP_PICA_FRAGMENT_UNIFORM_SIZE];
    let mut written = 0;
    let code =
        unsafe { sp_pica_fragment_uniforms(regs.as_ptr(), null(), buf.as_mut_ptr(), 100, &mut written, &mut error) };
    assert_eq!(code, SP_ERROR_INVALID_ARGUMENT);
    assert_eq!(message(&error), "len 100 is under SP_PICA_FRAGMENT_UNIFORM_SIZE (60640)");
    assert_eq!(written, SP_PICA_FRAGMENT_UNIFORM_SIZE);
    let code = unsafe {
        sp_pica_fragment_uniforms(
            regs.as_ptr(),
            null(),
            null_mut(),
            SP_PICA_FRAGMENT_UNIFORM_SIZE,
            &mut written,
            &mut error,
        )
    };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "buf is null"));
    let regs = common::fragment_regs(3);
    let lut: Vec<u32> = (0..SP_PICA_FOG_LUT_WORDS as u32).map(|i| i.wrapping_mul(0x9E37_79B9)).collect();
    let code = unsafe {
        sp_pica_fragment_uniforms(regs.as_ptr(), lut.as_ptr(), buf.as_mut_ptr(), buf.len(), &mut written, &mut error)
    };
    assert_eq!((code, written), (SP_OK, 60640));
    let memories = pica::state::Memories { fog: std::sync::Arc::new(lut.try_into().unwrap()), ..Default::default() };
    let want =
        translate::pica_fs::UniformBlock::from_uniforms(&pica::fixed::FragmentUniforms::from_regs(&regs, &memories));
    assert_eq!(buf, want.to_bytes());

    // Key fields past their width, named.
    let key = pica_fragment_key(&common::fragment_regs(1)).unwrap();
    let d = SpOptions::default();
    type Edit = fn(&mut SpPicaFragmentKey);
    let cases: [(Edit, &str); 9] = [
        (|k| k.w_buffer = 2, "w_buffer is 2, over its largest value 1"),
        (|k| k.alpha_test = 8, "alpha_test is 8, over its largest value 7"),
        (|k| k.fog = 3, "fog is 3, over its largest value 2"),
        (|k| k.textures[1].kind = SP_PICA_UNIT_CUBE, "textures[1].kind is 2, over its largest value 1"),
        (
            |k| k.textures[0] = SpPicaTextureUnit { kind: 1, orthographic: 0, coords: 1 },
            "textures[0].coords is 1: unit 0 reads set 0",
        ),
        (|k| k.texenv[5].alpha_operand[2] = 8, "texenv[5].alpha_operand[2] is 8, over its largest value 7"),
        (|k| k.lighting.luts[3].input = 8, "lighting.luts[3].input is 8, over its largest value 7"),
        (|k| k.proctex.rgb_func = 11, "proctex.rgb_func is 11, over its largest value 10"),
        (|k| k.inputs[0x11].reg = 0, "inputs[17].reg is 0: 0x11 is not a semantic (use SP_PICA_NO_REGISTER)"),
    ];
    for (mutate, want) in cases {
        let mut k = key;
        mutate(&mut k);
        assert_eq!(pica_fragment(&k, &d, null()).unwrap_err(), (SP_ERROR_INVALID_ARGUMENT, want.to_string()));
    }
    let mut k = key;
    k.inputs[8] = SpPicaInputSlot { reg: 16, component: 0 };
    assert_eq!(pica_fragment(&k, &d, null()).unwrap_err().1, "inputs[8].reg is 16, over its largest value 15");

    // Lighting read by stage 0 is translated.
    let mut k = key;
    k.lighting.enabled = 1;
    k.lighting.count = 1;
    k.texenv[0].rgb_source[0] = 1; // fragment primary colour
    k.texenv[0].rgb_combine = 0; // replace
    k.alpha_test = 1;
    k.shadow_render = 0;
    assert!(pica_fragment(&k, &d, null()).is_ok());
    let mut k = key;
    k.proctex.enabled = 1;
    k.texenv[0].rgb_source[0] = 6; // texture 3
    k.texenv[0].rgb_combine = 0;
    k.alpha_test = 1;
    k.shadow_render = 0;
    // The procedural texture is translated.
    assert!(pica_fragment(&k, &d, null()).is_ok());
}

fn gsh(name: &str) -> Vec<u8> {
    std::fs::read(testkit::corpus(&format!("latte-mesa/gsh/{name}.gsh"))).unwrap()
}

#[test]
fn latte_calls_name_what_is_wrong() {
    let d = SpOptions::default();
    let (mut out, mut error) = (null_mut(), new_error());
    // SAFETY (both calls): every non-null pointer is valid for its length.
    let code = unsafe { sp_latte_translate(null(), null(), null(), &mut out, &mut error) };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "program is null"));
    let code = unsafe { sp_latte_translate_gsh(null(), 4, 0, 0, null(), null(), &mut out, &mut error) };
    assert_eq!((code, message(&error).as_str()), (SP_ERROR_NULL_POINTER, "bytes is null"));

    let words = [0u8; 5];
    let mut p = latte_program(&words, SP_LATTE_VERTEX);
    assert_eq!(
        latte(&p, &d, null()).unwrap_err(),
        (SP_ERROR_PARSE, "Latte program: byte offset 0x5: program size 5 is not a multiple of 4".into())
    );
    p.stage = 3;
    assert_eq!(
        latte(&p, &d, null()).unwrap_err(),
        (SP_ERROR_INVALID_ARGUMENT, "unknown stage 3 (vertex 0, pixel 1, geometry 2)".into())
    );
    p.stage = SP_LATTE_GEOMETRY;
    assert_eq!(
        latte(&p, &d, null()).unwrap_err(),
        (SP_ERROR_UNSUPPORTED, "Latte geometry programs are not translated yet".into())
    );
    p.stage = SP_LATTE_VERTEX;
    p.len = SP_LATTE_MAX_PROGRAM_BYTES + 4;
    assert!(latte(&p, &d, null()).unwrap_err().1.starts_with("len 1048580 is over SP_LATTE_MAX_PROGRAM_BYTES"));

    // .gsh files: garbage, a shader the file lacks, a geometry shader, a TEX fetch.
    let (code, m) = latte_gsh(b"not a gfd file", SP_LATTE_VERTEX, 0, &d, null()).unwrap_err();
    assert_eq!(code, SP_ERROR_PARSE);
    assert!(m.starts_with("GFD: byte offset 0x0: not a GFD file"), "{m}");
    let file = gsh("t02_nested_if");
    assert_eq!(
        latte_gsh(&file, SP_LATTE_VERTEX, 5, &d, null()).unwrap_err(),
        (SP_ERROR_TRANSLATE, "no vertex shader 5: the file has 1".into())
    );
    assert_eq!(latte_gsh(&file, 7, 0, &d, null()).unwrap_err().0, SP_ERROR_INVALID_ARGUMENT);
    let (code, m) = latte_gsh(&gsh("t17_gs_passthrough"), SP_LATTE_GEOMETRY, 0, &d, null()).unwrap_err();
    assert_eq!((code, m.as_str()), (SP_ERROR_UNSUPPORTED, "Latte geometry programs are not translated yet"));
    let (code, m) = latte_gsh(&gsh("t12_tex2d_variants"), SP_LATTE_PIXEL, 0, &d, null()).unwrap_err();
    assert_eq!(code, SP_ERROR_UNSUPPORTED);
    assert!(m.starts_with("CF ") && m.ends_with(": not translated yet: TEX fetch"), "{m}");
    // Both stages of a file that translates: the vertex program is straight code, the pixel
    // program a structured loop reading uniform blocks 1 and 2.
    let file = gsh("t10_ubo_multi");
    let (bytes, i) = latte_gsh(&file, SP_LATTE_VERTEX, 0, &d, null()).unwrap();
    assert_eq!(&bytes[..4], &[0x03, 0x02, 0x23, 0x07]);
    assert_eq!((i.stage, i.flow, i.uniform_block_mask, i.uniform_size), (SP_STAGE_COMPUTE, SP_FLOW_STRAIGHT, 0, 0));
    // SAFETY: a NUL-terminated static string.
    assert_eq!(unsafe { std::ffi::CStr::from_ptr(i.entry_point) }.to_str().unwrap(), "latte_compute");
    let (_, i) = latte_gsh(&file, SP_LATTE_PIXEL, 0, &d, null()).unwrap();
    assert_eq!(
        (i.flow, i.uniform_block_mask, i.uniform_size, i.input_mask, i.position),
        (SP_FLOW_STRUCTURED, 6, 65536, 0, -1)
    );
}

/// One byte of a fragment key, picked by index: the fields random fragment keys mutate.
fn fragment_field(k: &mut SpPicaFragmentKey, i: usize) -> &mut u8 {
    let s = &mut k.texenv[i / 32 % 6];
    let j = i / 7 % 3;
    match i % 32 {
        0 => &mut k.w_buffer,
        1 => &mut k.shadow_render,
        2 => &mut k.alpha_test,
        3 => &mut k.fog,
        4 => &mut k.fog_z_flip,
        5 => &mut k.textures[j].kind,
        6 => &mut k.textures[j].orthographic,
        7 => &mut k.textures[j].coords,
        8 => &mut s.rgb_source[j],
        9 => &mut s.alpha_source[j],
        10 => &mut s.rgb_operand[j],
        11 => &mut s.alpha_operand[j],
        12 => &mut s.rgb_combine,
        13 => &mut s.alpha_combine,
        14 => &mut s.rgb_scale,
        15 => &mut s.alpha_scale,
        16 => &mut k.buffer_write_rgb[j],
        17 => &mut k.buffer_write_alpha[j + 1],
        18 => &mut k.lighting.enabled,
        19 => &mut k.lighting.count,
        20 => &mut k.lighting.config,
        21 => &mut k.lighting.luts[i / 32 % 7].input,
        22 => &mut k.lighting.lights[i / 32 % 8].spot,
        23 => &mut k.lighting.bump,
        24 => &mut k.lighting.shadow_unit,
        25 => &mut k.proctex.enabled,
        26 => &mut k.proctex.coords,
        27 => &mut k.proctex.u_clamp,
        28 => &mut k.proctex.rgb_func,
        29 => &mut k.proctex.filter,
        30 => &mut k.inputs[i / 32 % SP_PICA_FRAGMENT_SEMANTICS].reg,
        _ => &mut k.inputs[i / 32 % SP_PICA_FRAGMENT_SEMANTICS].component,
    }
}

/// One byte of a key, picked by index: the fields random keys mutate.
fn key_field(k: &mut SpTevKey, i: usize) -> &mut u8 {
    let s = &mut k.stages[i / 40 % 16];
    match i % 40 {
        0 => &mut k.num_texgens,
        1 => &mut k.num_stages,
        2 => &mut k.num_ind_stages,
        3 => &mut k.alpha_comp0,
        4 => &mut k.alpha_logic,
        5 => &mut s.texcoord,
        6 => &mut s.tex_enable,
        7 => &mut s.texmap,
        8 => &mut s.colorchan,
        9..=12 => &mut s.color.inputs[i % 40 - 9],
        13 => &mut s.color.bias,
        14 => &mut s.color.op,
        15 => &mut s.color.clamp,
        16 => &mut s.color.scale,
        17 => &mut s.color.dest,
        18..=21 => &mut s.alpha.inputs[i % 40 - 18],
        22 => &mut s.alpha.bias,
        23 => &mut s.alpha.dest,
        24 => &mut s.kcsel,
        25 => &mut s.kasel,
        26..=29 => &mut s.ras_swap[i % 40 - 26],
        30 => &mut s.tex_swap[0],
        31 => &mut s.ind.active,
        32 => &mut s.ind.bt,
        33 => &mut s.ind.fmt,
        34 => &mut s.ind.bias,
        35 => &mut s.ind.mtx_index,
        36 => &mut s.ind.sw,
        37 => &mut k.ind_stages[i / 40 % 4].texcoord,
        38 => &mut k.ind_stages[i / 40 % 4].ss,
        _ => &mut k.ind_stages[i / 40 % 4].texmap,
    }
}

proptest! {
    #[test]
    fn random_shbin_bytes_are_errors_or_translations(
        cut in 0usize..2000,
        flips in prop::collection::vec((0usize..2000, any::<u8>()), 0..4),
        executable in 0u32..3,
    ) {
        let mut bytes = std::fs::read(testkit::corpus(
            "pica/golden/3ds-examples__graphics__gpu__particles__source__particle.g.pica.shbin",
        )).unwrap();
        for (at, v) in flips {
            let n = bytes.len();
            bytes[at % n] ^= v;
        }
        bytes.truncate(cut.min(bytes.len()));
        if let Err((code, m)) = pica_shbin(&bytes, executable, &SpOptions::default(), null()) {
            prop_assert!(matches!(code, SP_ERROR_PARSE | SP_ERROR_TRANSLATE), "code {code}: {m}");
        }
    }

    #[test]
    fn random_program_words_are_errors_or_translations(
        code in prop::collection::vec(any::<u32>(), 0..24),
        descriptors in prop::collection::vec(any::<u32>(), 0..6),
        entry in 0u32..6,
        geometry in any::<bool>(),
        masks in any::<(u16, u16)>(),
        outputs in prop::collection::vec((0u8..16, any::<u8>()), 0..4),
        precision in 0u32..3,
    ) {
        let mut setup = Setup::new(code.clone(), descriptors, entry);
        (setup.input_mask, setup.output_mask) = masks;
        let mut c = CProgram::new(&setup);
        c.outputs = outputs.iter().map(|&(reg, semantic)| SpPicaOutputMap { reg, semantic }).collect();
        let program = c.program(if geometry { SP_PICA_GEOMETRY } else { SP_PICA_VERTEX });
        let options = SpOptions { target: SP_TARGET_SPIRV, precision, flags: 0 };
        match pica(&program, &options, null()) {
            Ok((bytes, _)) => prop_assert_eq!(&bytes[..4], &[0x03, 0x02, 0x23, 0x07]),
            Err((code, m)) => {
                prop_assert_eq!(code, SP_ERROR_TRANSLATE, "{}", m);
                prop_assert!(entry as usize >= setup.code.len());
            }
        }
    }

    #[test]
    fn random_key_fields_are_errors_or_translations(
        seed in 0u64..1000,
        edits in prop::collection::vec((0usize..640, any::<u8>()), 1..4),
    ) {
        let mut key = SpTevKey::from_key(&gx::key::TevKey::new(&common::tev_state(seed)));
        for (field, value) in edits {
            *key_field(&mut key, field) = value;
        }
        if let Err((code, m)) = tev(&key, &SpOptions::default(), null()) {
            prop_assert_eq!(code, SP_ERROR_INVALID_ARGUMENT, "{}", m);
        }
    }

    #[test]
    fn random_fragment_key_fields_are_errors_or_translations(
        seed in 0u64..1000,
        edits in prop::collection::vec((0usize..768, any::<u8>()), 1..4),
    ) {
        let mut key = pica_fragment_key(&common::fragment_regs(seed)).unwrap();
        for (field, value) in edits {
            *fragment_field(&mut key, field) = value;
        }
        if let Err((code, m)) = pica_fragment(&key, &SpOptions::default(), null()) {
            prop_assert!(matches!(code, SP_ERROR_INVALID_ARGUMENT | SP_ERROR_UNSUPPORTED), "code {code}: {m}");
        }
    }

    #[test]
    fn any_register_file_makes_a_fragment_key_that_translates_or_is_unsupported(
        words in prop::collection::vec(any::<u32>(), SP_PICA_REGISTERS),
    ) {
        let key = pica_fragment_key(&words).unwrap();
        // The key of a register file is canonical: it translates as the Rust API's key does.
        let rust = translate::pica_fs::translate(
            &pica::fixed::FragmentKey::from_regs(&words),
            &translate::pica_fs::InputMap::from_regs(&words),
            &Default::default(),
        );
        match (pica_fragment(&key, &SpOptions::default(), null()), rust) {
            (Ok((bytes, _)), Ok(t)) => prop_assert_eq!(bytes, t.write(translate::Target::SpirV).unwrap().to_bytes()),
            (Err((code, _)), Err(_)) => prop_assert_eq!(code, SP_ERROR_UNSUPPORTED),
            (c, r) => prop_assert!(false, "C {:?} but Rust {:?}", c.map(|_| ()), r.map(|_| ())),
        }
    }

    #[test]
    fn random_gsh_bytes_are_errors_or_translations(
        file in 0usize..4,
        cut in 0usize..4000,
        flips in prop::collection::vec((0usize..4000, any::<u8>()), 0..4),
        stage in 0u32..4,
        index in 0u32..2,
    ) {
        let mut bytes = gsh(["t01_if_else", "t03_loop_const", "t06_while", "t17_gs_passthrough"][file]);
        for (at, v) in flips {
            let n = bytes.len();
            bytes[at % n] ^= v;
        }
        bytes.truncate(cut.min(bytes.len()));
        if let Err((code, m)) = latte_gsh(&bytes, stage, index, &SpOptions::default(), null()) {
            prop_assert!(
                matches!(code, SP_ERROR_PARSE | SP_ERROR_TRANSLATE | SP_ERROR_UNSUPPORTED | SP_ERROR_INVALID_ARGUMENT),
                "code {code}: {m}"
            );
        }
    }

    #[test]
    fn random_latte_words_and_constants_are_errors_or_translations(
        words in prop::collection::vec(any::<u32>(), 0..48),
        stage in 0u32..3,
        loop_consts in prop::array::uniform32(any::<u32>()),
        masks in any::<(u32, u32)>(),
        precision in 0u32..3,
    ) {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut p = latte_program(&bytes, stage);
        (p.loop_consts, p.loop_const_mask, p.bool_consts) = (loop_consts, masks.0, masks.1);
        let options = SpOptions { precision, ..SpOptions::default() };
        if let Err((code, m)) = latte(&p, &options, null()) {
            prop_assert!(matches!(code, SP_ERROR_PARSE | SP_ERROR_UNSUPPORTED), "code {code}: {m}");
        }
    }

    #[test]
    fn any_bp_block_makes_a_key_that_translates(words in prop::collection::vec(any::<u32>(), 256)) {
        let mut key = SpTevKey::default();
        let mut error = new_error();
        // SAFETY: 256 words, a writable key.
        let code = unsafe { sp_tev_key_from_bp(words.as_ptr(), &mut key, &mut error) };
        prop_assert_eq!(code, SP_OK);
        let translated = tev(&key, &SpOptions::default(), null());
        prop_assert!(translated.is_ok(), "{:?}", translated.err());
    }
}

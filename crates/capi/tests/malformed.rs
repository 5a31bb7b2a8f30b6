//! Malformed input through the C ABI gives an error code and a message naming what is wrong,
//! never a crash: null pointers, unknown options, lengths over their caps, out-of-range key
//! fields, and random SHBIN bytes, program words and keys (bounded by PROPTEST_CASES).

mod common;

use std::ptr::{null, null_mut};

use common::{message, new_error, pica, pica_shbin, tev, CProgram};
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

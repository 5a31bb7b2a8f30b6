//! include_pica! gives picasso's golden bytes and `-h` header for every corpus source that
//! picasso accepts (corpus/pica/golden; SOURCES.md there), and the module form's constants are
//! the header's `#define`s.

use pica_macros::include_pica;

/// One call per golden pair: the macro runs at compile time, so each source is written out.
mod golden {
    use super::include_pica;
    include_pica!(pub mod s00 = "../../../corpus/pica/3ds-examples/fragment_light/source/vshader.pica");
    include_pica!(pub mod s01 = "../../../corpus/pica/3ds-examples/geoshader/source/program.g.pica");
    include_pica!(pub mod s02 = "../../../corpus/pica/3ds-examples/graphics/gpu/cubemap/source/skybox.v.pica");
    include_pica!(pub mod s03 = "../../../corpus/pica/3ds-examples/graphics/gpu/fragment_light/source/vshader.v.pica");
    include_pica!(pub mod s04 = "../../../corpus/pica/3ds-examples/graphics/gpu/geoshader/source/gshader.pica");
    include_pica!(pub mod s05 = "../../../corpus/pica/3ds-examples/graphics/gpu/geoshader/source/program.g.pica");
    include_pica!(pub mod s06 = "../../../corpus/pica/3ds-examples/graphics/gpu/geoshader/source/program.v.pica");
    include_pica!(pub mod s07 = "../../../corpus/pica/3ds-examples/graphics/gpu/geoshader/source/vshader.pica");
    include_pica!(pub mod s08 = "../../../corpus/pica/3ds-examples/graphics/gpu/gpusprites/source/vshader.v.pica");
    include_pica!(pub mod s09 = "../../../corpus/pica/3ds-examples/graphics/gpu/immediate/source/vshader.v.pica");
    include_pica!(pub mod s10 = "../../../corpus/pica/3ds-examples/graphics/gpu/lenny/source/vshader.v.pica");
    include_pica!(pub mod s11 = "../../../corpus/pica/3ds-examples/graphics/gpu/loop_subdivision/source/program.g.pica");
    include_pica!(pub mod s12 = "../../../corpus/pica/3ds-examples/graphics/gpu/loop_subdivision/source/program.v.pica");
    include_pica!(pub mod s13 = "../../../corpus/pica/3ds-examples/graphics/gpu/normal_mapping/source/vshader.v.pica");
    include_pica!(pub mod s14 = "../../../corpus/pica/3ds-examples/graphics/gpu/particles/source/particle.g.pica");
    include_pica!(pub mod s15 = "../../../corpus/pica/3ds-examples/graphics/gpu/particles/source/particle.v.pica");
    include_pica!(pub mod s16 = "../../../corpus/pica/3ds-examples/graphics/gpu/proctex/source/vshader.v.pica");
    include_pica!(pub mod s17 = "../../../corpus/pica/3ds-examples/graphics/gpu/simple_tri/source/vshader.pica");
    include_pica!(pub mod s18 = "../../../corpus/pica/3ds-examples/graphics/gpu/simple_tri/source/vshader.v.pica");
    include_pica!(pub mod s19 = "../../../corpus/pica/3ds-examples/graphics/gpu/textured_cube/source/vshader.pica");
    include_pica!(pub mod s20 = "../../../corpus/pica/3ds-examples/graphics/gpu/textured_cube/source/vshader.v.pica");
    include_pica!(pub mod s21 = "../../../corpus/pica/3ds-examples/graphics/printing/system-font/source/vshader.v.pica");
    include_pica!(pub mod s22 = "../../../corpus/pica/3ds-examples/textured_cube/source/vshader.pica");
    include_pica!(pub mod s23 = "../../../corpus/pica/citro2d/source/render2d.v.pica");
    include_pica!(pub mod s24 = "../../../corpus/pica/citro3d-rs/citro3d-macros/tests/integration.pica");
    include_pica!(pub mod s25 = "../../../corpus/pica/citro3d-rs/citro3d/examples/assets/frag-shader.pica");
    include_pica!(pub mod s26 = "../../../corpus/pica/citro3d-rs/citro3d/examples/assets/vshader.pica");
    include_pica!(pub mod s27 = "../../../corpus/pica/citro3d-rs/citro3d/examples/assets/vshader_textured.pica");
    include_pica!(pub mod s28 = "../../../corpus/pica/citro3d/test/3ds/source/vshader.v.pica");
    include_pica!(pub mod s29 = "../../../corpus/pica/normal_mapping/source/vshader.v.pica");
    include_pica!(pub mod s30 = "../../../corpus/pica/picasso/example.vsh");

    /// (golden stem, SHBIN, header) of every call above.
    pub fn all() -> Vec<(&'static str, &'static [u8], &'static str)> {
        vec![
            ("3ds-examples__fragment_light__source__vshader.pica", s00::SHBIN, s00::HEADER),
            ("3ds-examples__geoshader__source__program.g.pica", s01::SHBIN, s01::HEADER),
            ("3ds-examples__graphics__gpu__cubemap__source__skybox.v.pica", s02::SHBIN, s02::HEADER),
            ("3ds-examples__graphics__gpu__fragment_light__source__vshader.v.pica", s03::SHBIN, s03::HEADER),
            ("3ds-examples__graphics__gpu__geoshader__source__gshader.pica", s04::SHBIN, s04::HEADER),
            ("3ds-examples__graphics__gpu__geoshader__source__program.g.pica", s05::SHBIN, s05::HEADER),
            ("3ds-examples__graphics__gpu__geoshader__source__program.v.pica", s06::SHBIN, s06::HEADER),
            ("3ds-examples__graphics__gpu__geoshader__source__vshader.pica", s07::SHBIN, s07::HEADER),
            ("3ds-examples__graphics__gpu__gpusprites__source__vshader.v.pica", s08::SHBIN, s08::HEADER),
            ("3ds-examples__graphics__gpu__immediate__source__vshader.v.pica", s09::SHBIN, s09::HEADER),
            ("3ds-examples__graphics__gpu__lenny__source__vshader.v.pica", s10::SHBIN, s10::HEADER),
            ("3ds-examples__graphics__gpu__loop_subdivision__source__program.g.pica", s11::SHBIN, s11::HEADER),
            ("3ds-examples__graphics__gpu__loop_subdivision__source__program.v.pica", s12::SHBIN, s12::HEADER),
            ("3ds-examples__graphics__gpu__normal_mapping__source__vshader.v.pica", s13::SHBIN, s13::HEADER),
            ("3ds-examples__graphics__gpu__particles__source__particle.g.pica", s14::SHBIN, s14::HEADER),
            ("3ds-examples__graphics__gpu__particles__source__particle.v.pica", s15::SHBIN, s15::HEADER),
            ("3ds-examples__graphics__gpu__proctex__source__vshader.v.pica", s16::SHBIN, s16::HEADER),
            ("3ds-examples__graphics__gpu__simple_tri__source__vshader.pica", s17::SHBIN, s17::HEADER),
            ("3ds-examples__graphics__gpu__simple_tri__source__vshader.v.pica", s18::SHBIN, s18::HEADER),
            ("3ds-examples__graphics__gpu__textured_cube__source__vshader.pica", s19::SHBIN, s19::HEADER),
            ("3ds-examples__graphics__gpu__textured_cube__source__vshader.v.pica", s20::SHBIN, s20::HEADER),
            ("3ds-examples__graphics__printing__system-font__source__vshader.v.pica", s21::SHBIN, s21::HEADER),
            ("3ds-examples__textured_cube__source__vshader.pica", s22::SHBIN, s22::HEADER),
            ("citro2d__source__render2d.v.pica", s23::SHBIN, s23::HEADER),
            ("citro3d-rs__citro3d-macros__tests__integration.pica", s24::SHBIN, s24::HEADER),
            ("citro3d-rs__citro3d__examples__assets__frag-shader.pica", s25::SHBIN, s25::HEADER),
            ("citro3d-rs__citro3d__examples__assets__vshader.pica", s26::SHBIN, s26::HEADER),
            ("citro3d-rs__citro3d__examples__assets__vshader_textured.pica", s27::SHBIN, s27::HEADER),
            ("citro3d__test__3ds__source__vshader.v.pica", s28::SHBIN, s28::HEADER),
            ("normal_mapping__source__vshader.v.pica", s29::SHBIN, s29::HEADER),
            ("picasso__example.vsh", s30::SHBIN, s30::HEADER),
        ]
    }
}

#[test]
fn every_golden_source_assembles_to_picassos_bytes_and_header() {
    let dir = testkit::corpus("pica/golden");
    let all = golden::all();
    let mut stems: Vec<String> = testkit::files(&dir, "shbin")
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().trim_end_matches(".shbin").to_string())
        .collect();
    stems.sort();
    assert_eq!(all.iter().map(|(s, _, _)| s.to_string()).collect::<Vec<_>>(), stems, "a golden pair without a call");
    for (stem, shbin, header) in all {
        assert_eq!(shbin, std::fs::read(dir.join(format!("{stem}.shbin"))).unwrap().as_slice(), "{stem}");
        assert_eq!(header, std::fs::read_to_string(dir.join(format!("{stem}.h"))).unwrap(), "{stem}");
        assert_eq!(shbin.as_ptr() as usize % 4, 0, "{stem}: not word-aligned");
    }
}

#[test]
fn the_expression_form_is_the_same_bytes() {
    static BYTES: &[u8] = include_pica!("../../../corpus/pica/citro3d-rs/citro3d-macros/tests/integration.pica");
    assert_eq!(BYTES, golden::s24::SHBIN);
}

#[test]
fn constants_are_the_headers_defines() {
    let header = std::fs::read_to_string(testkit::corpus("pica/golden/citro2d__source__render2d.v.pica.h")).unwrap();
    assert!(header.contains("#define VSH_FVEC_projMtx 0x04"));
    use golden::s23 as render2d;
    assert_eq!((render2d::VSH_FVEC_mdlvMtx, render2d::VSH_ULEN_mdlvMtx), (0x00, 4));
    assert_eq!((render2d::VSH_FVEC_projMtx, render2d::VSH_ULEN_projMtx), (0x04, 4));
    // `BIT(n)` is the flag's mask.
    use golden::s09 as immediate;
    assert_eq!((immediate::VSH_FLAG_test, immediate::VSH_ULEN_test), (1, 1));
}

//! The run-time API: a program given as words, the compute wrapper as an option, typed errors,
//! the output map and register names in the text targets.

use ::pica::shbin::Shbin;
use translate::pica::{self, translate, Options, OutputKind, Setup, ShaderType, COMPUTE_ENTRY};
use translate::{Error, Output, Precision, Target};

/// mov o0, v0; mov o1, v1; end, with descriptor 0 (xyzw, no swizzle).
fn setup() -> Setup {
    Setup::new(vec![0x4C00_0000, 0x4C20_1000, 0x8800_0000], vec![0x0000_036F], 0)
        .output(0, OutputKind::Position)
        .output(1, OutputKind::Color)
}

fn text(t: &pica::Translation, target: Target) -> String {
    match t.write(target).unwrap() {
        Output::Text(s) => s,
        Output::Words(_) => panic!("words for {target:?}"),
    }
}

#[test]
fn words_translate_without_a_shbin() {
    let t = pica::vertex(&setup(), &Options::default()).unwrap();
    assert_eq!(t.interface().inputs, [0, 1]);
    assert_eq!(t.interface().position, Some(0));
    assert_eq!(t.interface().outputs, [1]);
    assert_eq!(t.interface().shader_type, ShaderType::Vertex);
    assert_eq!(t.spirv().unwrap()[0], 0x0723_0203);
}

#[test]
fn the_compute_wrapper_is_an_option() {
    let plain = pica::vertex(&setup(), &Options::default()).unwrap();
    assert_eq!(plain.module().entry_points.len(), 1);
    assert!(plain.module().global_variables.iter().all(|(_, g)| g.binding.is_none_or(|b| b.binding == 0)));
    let wrapped = pica::vertex(&setup(), &Options { compute_wrapper: true, ..Options::default() }).unwrap();
    let names: Vec<&str> = wrapped.module().entry_points.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["main", COMPUTE_ENTRY]);
    let bindings: Vec<u32> =
        wrapped.module().global_variables.iter().filter_map(|(_, g)| g.binding.map(|b| b.binding)).collect();
    assert_eq!(bindings.len(), 3, "{bindings:?}");
}

#[test]
fn the_translation_keeps_its_precision() {
    // NoContraction (decoration 42) appears in compat and exact SPIR-V, never in fast.
    let no_contraction = |words: &[u32]| words.windows(3).any(|w| w[0] == (3 << 16 | 71) && w[2] == 42);
    // mul o0, v0, v1; end
    let mul = Setup::new(vec![0x2000_0080, 0x8800_0000], vec![0x0000_036F], 0).output(0, OutputKind::Position);
    for (precision, decorated) in [(Precision::Fast, false), (Precision::Compat, true), (Precision::Exact, true)] {
        let t = pica::vertex(&mul, &Options { precision, ..Options::default() }).unwrap();
        assert_eq!(t.options().precision, precision);
        let words = t.spirv().unwrap();
        assert_eq!(no_contraction(&words), decorated, "{precision:?}");
        let Output::Words(w) = t.write(Target::SpirV).unwrap() else { panic!() };
        assert_eq!(w, words);
    }
}

#[test]
fn errors_are_typed() {
    let past = Setup::new(vec![0x8800_0000], vec![], 5);
    assert!(matches!(pica::vertex(&past, &Options::default()), Err(Error::EntryOutsideProgram { entry: 5, len: 1 })));
    let empty = Shbin::default();
    assert!(matches!(translate(&empty, 0, Options::default()), Err(Error::NoExecutable { index: 0, count: 0 })));
    assert!(matches!(Setup::from_shbin(&empty, 2), Err(Error::NoExecutable { index: 2, count: 0 })));
}

#[test]
fn text_targets_name_outputs_by_semantic_and_registers_by_name() {
    let mut s = setup().output(2, OutputKind::TexCoord0);
    s.names = vec![("inpos".into(), 0x00, 0x00), ("projection".into(), 0x10, 0x13)];
    let t = pica::vertex(&s, &Options::default()).unwrap();
    let wgsl = text(&t, Target::Wgsl);
    assert!(wgsl.contains("color: vec4<f32>"), "{wgsl}");
    assert!(wgsl.contains("texcoord0_: vec4<f32>"), "{wgsl}"); // naga separates a final digit
    assert!(wgsl.contains("inpos: vec4<f32>"), "{wgsl}");
    assert!(wgsl.contains("// c0-c3: projection"), "{wgsl}");
    assert!(!wgsl.contains("o1_"), "{wgsl}");
    for target in [Target::Glsl, Target::GlslEs, Target::Msl, Target::Hlsl] {
        let out = text(&t, target);
        assert!(out.contains("// o1: color") && out.contains("// c0-c3: projection"), "{target:?}: {out}");
    }
    let glsl = text(&t, Target::Glsl);
    assert!(glsl.starts_with("#version 450 core\n// o0: position\n"), "{glsl}");
    assert!(wgsl.starts_with("// o0: position\n"), "{wgsl}");
    // Names change neither the SPIR-V nor the interface.
    let unnamed = pica::vertex(&setup().output(2, OutputKind::TexCoord0), &Options::default()).unwrap();
    assert_eq!(t.spirv().unwrap(), unnamed.spirv().unwrap());
    assert_eq!(t.interface().outputs, unnamed.interface().outputs);
}

#[test]
fn a_shbin_setup_carries_the_dvle_names() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/pica/golden");
    let path = format!("{dir}/3ds-examples__graphics__gpu__simple_tri__source__vshader.v.pica.shbin");
    let shbin = Shbin::read(&std::fs::read(path).unwrap()).unwrap();
    let (setup, ty) = Setup::from_shbin(&shbin, 0).unwrap();
    assert_eq!(ty, ShaderType::Vertex);
    assert!(setup.names.iter().any(|(n, first, _)| n == "projection" && *first == 0x10), "{:?}", setup.names);
    let t = translate(&shbin, 0, Options::default()).unwrap();
    let msl = text(&t, Target::Msl);
    assert!(msl.contains("projection"), "{msl}");
}

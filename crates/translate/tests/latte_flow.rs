//! Which control-flow form (docs/latte-translate.md "Control-flow forms") the Latte programs of
//! corpus/latte, corpus/latte-mesa and `latte::smith` take: the corpus's branch and loop
//! programs (Mesa's unrolled while loop t06_while among them) take the structured form, and so
//! do most random programs with jumps. The device test (crates/gpu/tests/latte_translate.rs)
//! runs them against the interpreter. LATTE_TRANSLATE_PROGRAMS sets the number of smith
//! programs (quick tier 50, full 1,000; docs/testing.md).

use std::collections::BTreeMap;

use arbitrary::Unstructured;
use latte::gfd::{GfdFile, Stage as GStage};
use latte::isa::Program;
use latte::smith::seeded_bytes as bytes;
use translate::latte::{translate, FlowKind, Options, Stage};
use translate::Error;

/// The form `p` takes, or `None` when it is not translated yet (TEX fetches).
fn flow(p: &Program, stage: Stage, options: &Options) -> Option<FlowKind> {
    match translate(p, stage, options) {
        Ok(t) => Some(t.flow()),
        Err(Error::LatteUnsupported { .. }) => None,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn corpus_branch_and_loop_programs_take_the_structured_form() {
    let mut files = testkit::walk(&testkit::corpus("latte"), "gsh");
    files.extend(testkit::walk(&testkit::corpus("latte-mesa"), "gsh"));
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut t06 = Vec::new();
    for f in files {
        let gfd = GfdFile::parse(&std::fs::read(&f).unwrap()).unwrap();
        for s in gfd.shaders().unwrap() {
            let stage = match s.header.stage {
                GStage::Vertex => Stage::Vertex,
                GStage::Pixel => Stage::Pixel,
                GStage::Geometry => continue,
            };
            let Some(b) = s.program else { continue };
            let p = Program::decode_bytes(&b, s.program_offset).unwrap();
            let k = flow(&p, stage, &Options::default());
            if k == Some(FlowKind::Dispatch) {
                eprintln!("dispatch: {}", f.display());
            }
            if f.ends_with("t06_while.gsh") {
                t06.push(k);
            }
            *kinds.entry(k.map_or("untranslated".to_string(), |k| format!("{k:?}"))).or_default() += 1;
        }
    }
    eprintln!("corpus control-flow forms: {kinds:?}");
    assert!(!t06.is_empty());
    assert!(t06.iter().any(|&k| k == Some(FlowKind::Structured)), "t06_while: {t06:?}");
    assert!(t06.iter().all(|&k| k != Some(FlowKind::Dispatch)), "t06_while: {t06:?}");
    assert_eq!(kinds.get("Dispatch"), None, "{kinds:?}");
    assert_eq!(kinds.get("Structured"), Some(&3), "{kinds:?}");
}

/// The smith programs of the device test (the same seeds and byte counts).
#[test]
fn smith_programs_with_jumps_take_the_structured_form() {
    let count = testkit::count("LATTE_TRANSLATE_PROGRAMS", if testkit::quick() { 50 } else { 1_000 });
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 0..count {
        let data = bytes(seed, 65536);
        let mut u = Unstructured::new(&data);
        let sp = latte::smith::program(&mut u, &latte::smith::Config::default()).unwrap();
        let stage = match sp.stage {
            latte::interp::Stage::Pixel => Stage::Pixel,
            _ => Stage::Vertex,
        };
        let options = Options { loop_consts: sp.loop_consts.clone(), ..Options::default() };
        let k = flow(&sp.program, stage, &options);
        *kinds.entry(k.map_or("untranslated".to_string(), |k| format!("{k:?}"))).or_default() += 1;
    }
    eprintln!("{count} smith programs, control-flow forms: {kinds:?}");
    let structured = kinds.get("Structured").copied().unwrap_or(0);
    let dispatch = kinds.get("Dispatch").copied().unwrap_or(0);
    assert!(count < 20 || structured > dispatch, "{kinds:?}");
}

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
    assert!(t06.contains(&Some(FlowKind::Structured)), "t06_while: {t06:?}");
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

/// Hand-written programs on each side of the rule (docs/latte-translate.md "The structured
/// rule").
#[test]
fn the_structured_rule_on_written_programs() {
    let form = |text: &str| {
        let p = latte::asm::assemble(text).unwrap().program;
        flow(&p, Stage::Vertex, &Options::default()).unwrap()
    };
    // Loops, a break inside an `if` (it leaves the skipped part), ALU_BREAK.
    let loops = "00 LOOP_START ADDR(3) CF_CONST(1)\n01 ALU:\n0 x: ADD_INT R1.x, R1.x, INT_1.x\n\
                 02 LOOP_END ADDR(1)\n03 LOOP_START_NO_AL ADDR(6) CF_CONST(2)\n04 ALU:\n1 z: ADD_INT R1.z, R1.z, INT_1.x\n\
                 05 LOOP_END ADDR(4)\n06 NOP\nEND_OF_PROGRAM\n";
    assert_eq!(form(loops), FlowKind::Structured);
    let brk = "00 LOOP_START_DX10 ADDR(6)\n01 ALU_PUSH_BEFORE:\n0 x: PRED_SETGT R127.x, R0.x, IMM_0.x UPDATE_EXEC_MASK NO_WRITE\n\
               02 JUMP ADDR(4) POP_CNT(1)\n03 LOOP_BREAK ADDR(5)\n04 POP ADDR(5) POP_CNT(1)\n05 LOOP_END ADDR(1)\n06 NOP\nEND_OF_PROGRAM\n";
    assert_eq!(form(brk), FlowKind::Structured);
    // CALL, a backward JUMP, a jump into a loop past its first instruction.
    let call = "00 CALL ADDR(3)\n01 ALU:\n0 y: ADD R1.y, R1.x, IMM_1.x\n02 NOP\nEND_OF_PROGRAM\n03 ALU:\n1 x: MOV R1.x, 0x40000000\n04 RETURN\n";
    assert_eq!(form(call), FlowKind::Dispatch);
    let back = "00 ALU:\n0 x: ADD_INT R1.x, R1.x, INT_1.x\n01 JUMP ADDR(0)\n02 NOP\nEND_OF_PROGRAM\n";
    assert_eq!(form(back), FlowKind::Dispatch);
    let into = "00 JUMP ADDR(3)\n01 LOOP_START_DX10 ADDR(4)\n02 NOP\n03 LOOP_END ADDR(2)\n04 NOP\nEND_OF_PROGRAM\n";
    assert_eq!(form(into), FlowKind::Dispatch);
}

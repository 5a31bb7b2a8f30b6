//! Robustness: any instruction words and descriptors, run as a vertex or a geometry shader, end
//! with outputs or a `RunError`, never a panic or a hang (the step budget bounds every run).

use pica::interp::{run_geometry, GeometryMode, Interpreter, Program, ShaderKind, Uniforms};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn random_programs_never_panic(
        code in prop::collection::vec(any::<u32>(), 0..64),
        descs in prop::collection::vec(any::<u32>(), 0..8),
        ints in any::<[[u8; 4]; 4]>(),
        bools in any::<[bool; 16]>(),
        input in any::<[u32; 4]>(),
        entry in 0u32..70,
        geometry in any::<bool>(),
    ) {
        let program = Program::new(&code, &descs).unwrap();
        let kind = if geometry { ShaderKind::Geometry } else { ShaderKind::Vertex };
        let mut it = Interpreter::new(&program, kind);
        it.step_limit = 20_000;
        let mut u = Uniforms::default();
        for (i, c) in u.float.iter_mut().enumerate() {
            *c = input.map(|b| pica::float24::F24::from_bits(b.wrapping_add(i as u32)).to_f32());
        }
        u.int = ints;
        u.bools = bools;
        it.set_uniforms(&u);
        let inputs = [input.map(|b| pica::float24::F24::from_bits(b).to_f32()); 16];
        if geometry {
            let _ = run_geometry(&mut it, entry, GeometryMode::Point, &[inputs], 1, None);
        } else {
            let _ = it.run(entry, &inputs);
        }
        prop_assert!(it.last_steps <= 20_000);
    }

    #[test]
    fn oversized_inputs_are_refused(extra in 1usize..16) {
        let code = vec![0x8800_0000u32; pica::interp::MAX_CODE_WORDS + extra];
        prop_assert!(Program::new(&code, &[]).is_err());
        let descs = vec![0u32; pica::interp::MAX_DESCRIPTORS + extra];
        prop_assert!(Program::new(&[], &descs).is_err());
    }
}

#[test]
fn corpus_programs_mutated_never_panic() {
    let dir = &testkit::corpus("pica/golden");
    let mut runs = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension() != Some(std::ffi::OsStr::new("shbin")) {
            continue;
        }
        let file = pica::shbin::Shbin::read(&std::fs::read(&path).unwrap()).unwrap();
        let descs: Vec<u32> = file.program.descriptors.iter().map(|d| d[0]).collect();
        // Flip one bit of one word at a time (a deterministic sample of positions and bits).
        for (k, _) in file.program.code.iter().enumerate().step_by(3) {
            let mut code = file.program.code.clone();
            code[k] ^= 1 << ((k * 7) % 32);
            let program = Program::new(&code, &descs).unwrap();
            let mut it = Interpreter::new(&program, ShaderKind::Geometry);
            it.step_limit = 20_000;
            let _ = it.run(file.executables[0].main, &[[0.5; 4]; 16]);
            runs += 1;
        }
    }
    assert!(runs > 100);
}

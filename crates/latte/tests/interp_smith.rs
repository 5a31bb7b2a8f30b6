//! Random programs never make the interpreter panic or hang: `isa::smith` programs (random
//! fields everywhere) and corpus programs with random bit flips run to a result or an error,
//! within the step budget.

mod common;
use arbitrary::Unstructured;
use latte::interp::{Buffer, Config, CpuTextures, Inputs, Invocation, Stage, Texture2d, Vm};
use latte::isa::smith::{program, Config as SmithConfig};
use latte::isa::Program;
use proptest::prelude::*;
use std::sync::Arc;

fn inputs() -> Inputs {
    let mut i = Inputs::default();
    for b in 0..16u8 {
        i.uniform_blocks.insert(b, (0..64u32).map(|k| k * 0x0101_0101).collect());
    }
    i.cfile = vec![[1, 2, 3, 4]; 256];
    for id in [0u8, 1, 2, 5, 17, 0x80, 0x9F, 160, 161] {
        i.buffers.insert(id, Buffer { data: (0..512u32).map(|k| k as u8).collect(), stride: 16, format: None });
    }
    let mut t = CpuTextures::default();
    for unit in 0..18u8 {
        t.units.insert(unit, Texture2d { width: 2, height: 1, texels: vec![[0.5; 4], [1.0; 4]] });
    }
    i.textures = Some(Arc::new(t));
    i
}

fn run_all(p: &Program, inputs: &Inputs) {
    let vm = Vm::new(p);
    let cfg = Config { step_budget: 20_000, ..Config::default() };
    let lanes: Vec<Invocation> = (0..4u32)
        .map(|k| Invocation { gprs: vec![(0, [k, 1, 2, 3]), (1, [0x3F80_0000, 0, k, 0])], invalid: k == 3 })
        .collect();
    for stage in [Stage::Vertex, Stage::Pixel] {
        // Either outcome is fine; a panic or a hang is not.
        let _ = vm.run(stage, inputs, &cfg, &lanes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]
    #[test]
    fn smith_programs_never_panic(bytes in proptest::collection::vec(any::<u8>(), 64..4096)) {
        let mut u = Unstructured::new(&bytes);
        if let Ok(p) = program(&mut u, &SmithConfig::default()) {
            run_all(&p, &inputs());
        }
    }
}

#[test]
fn flipped_corpus_programs_never_panic() {
    let inputs = inputs();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for (_, bytes) in common::corpus_programs().iter().step_by(3) {
        let words = latte::gfd::program_words(bytes);
        for _ in 0..8 {
            let mut w = words.clone();
            for _ in 0..4 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let k = (seed % w.len() as u64) as usize;
                w[k] ^= 1 << (seed >> 59);
            }
            if let Ok(p) = Program::decode(&w, 0) {
                run_all(&p, &inputs);
            }
        }
    }
}

//! `json::program_json` on random and mutated programs: never panics, one object per
//! instruction, addresses in order and inside the program (a malformed program may place a
//! clause over its CF instructions, so two objects can share an address).

mod common;
use latte::isa::Program;
use proptest::prelude::*;

fn check(words: &[u32]) -> Result<(), TestCaseError> {
    let Ok(p) = Program::decode(words, 0) else { return Ok(()) };
    let j = latte::json::program_json(&p);
    let v = j["instructions"].as_array().unwrap();
    prop_assert_eq!(v.len(), p.instruction_count());
    let addrs: Vec<u64> = v.iter().map(|i| i["addr"].as_u64().unwrap()).collect();
    prop_assert!(addrs.windows(2).all(|w| w[0] <= w[1]), "{:?}", addrs);
    prop_assert!(addrs.iter().all(|&a| (a as usize) < p.len.max(1)));
    for i in v {
        prop_assert!(matches!(i["kind"].as_str(), Some("cf" | "mem" | "alu" | "tex" | "vtx")));
        prop_assert!(i["op"].as_str().is_some_and(|o| !o.is_empty()));
    }
    Ok(())
}

fn mesa_program() -> Vec<u32> {
    let b = std::fs::read(common::corpus().join("latte-mesa/programs/t17_gs_passthrough/gs.bin")).unwrap();
    latte::gfd::program_words(&b)
}

proptest! {
    #[test]
    fn random_words(words in proptest::collection::vec(any::<u32>(), 0..300)) {
        check(&words)?;
    }

    #[test]
    fn mutated_and_truncated_mesa_program(edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u32>()), 0..8), cut in any::<prop::sample::Index>()) {
        let mut w = mesa_program();
        for (i, v) in edits {
            let k = i.index(w.len());
            w[k] = v;
        }
        let n = cut.index(w.len() + 1);
        check(&w[..n])?;
    }
}

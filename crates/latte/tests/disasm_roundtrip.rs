//! disassemble -> assemble reproduces the program words of every corpus shader, and of random
//! word sequences that decode.

use latte::asm::assemble;
use latte::disasm::disassemble;
use latte::isa::Program;
use proptest::prelude::*;

mod common;

fn round_trip(words: &[u32]) -> Result<(), String> {
    let p = Program::decode(words, 0).map_err(|e| e.to_string())?;
    let text = disassemble(&p);
    let a = assemble(&text).map_err(|e| format!("{e}\n{text}"))?;
    let back = a.program.encode();
    if back != words {
        let first = back.iter().zip(words).position(|(a, b)| a != b).unwrap_or(back.len().min(words.len()));
        return Err(format!("word {first} differs (len {} vs {})\n{text}", back.len(), words.len()));
    }
    Ok(())
}

#[test]
fn corpus_programs_round_trip_through_text() {
    let progs = common::corpus_programs();
    let mut n = 0;
    for (name, bytes) in &progs {
        let words = latte::gfd::program_words(bytes);
        if let Err(e) = round_trip(&words) {
            panic!("{name}: {e}");
        }
        n += 1;
    }
    assert!(n > 150);
}

proptest! {
    #[test]
    fn random_programs_round_trip_through_text(words in proptest::collection::vec(any::<u32>(), 0..200)) {
        if Program::decode(&words, 0).is_ok() {
            if let Err(e) = round_trip(&words) {
                prop_assert!(false, "{}", e);
            }
        }
    }
}

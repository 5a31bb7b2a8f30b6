//! Sources of the newer latte-assembler (float literals 0.0, 1.0 and 0.5 written as the inline
//! constants) and fetch padding words that are not zero (0x0DEADFEC).

use latte::asm::{assemble, assemble_with, Literals};
use latte::isa::alu::sel;
use latte::isa::program::ClauseBody;
use latte::isa::{FetchInst, Program};

fn alu_of(p: &Program) -> Vec<latte::isa::AluGroup> {
    p.clauses
        .iter()
        .find_map(|c| match &c.body {
            ClauseBody::Alu(g) => Some(g.clone()),
            ClauseBody::Fetch(_) => None,
        })
        .unwrap()
}

const SRC: &str = "00 ALU:
      0  x: MUL R1.x, R0.x, 1.0f
         y: ADD R1.y, R0.y, 0.0f
         z: MUL R1.z, R0.z, 0.5
         w: MOV R1.w, 2.0f
01 EXP_DONE: POS0, R1
END_OF_PROGRAM
";

#[test]
fn inline_flavour_turns_zero_one_and_half_into_inline_constants() {
    let p = assemble_with(SRC, Literals::Inline).unwrap().program;
    let g = &alu_of(&p)[0];
    let sels: Vec<u16> = g.insts.iter().map(|i| i.src1.sel).collect();
    assert_eq!(sels, [sel::ONE, sel::ZERO, sel::HALF, 0]);
    assert_eq!(g.insts[3].src0.sel, sel::LITERAL);
    // Only 2.0 takes a literal slot; the inline constants keep the destination's channel.
    assert_eq!(g.literals, [2.0f32.to_bits(), 0]);
    assert_eq!(g.insts[0].src1.chan, 0);
    assert_eq!(g.insts[1].src1.chan, 1);
    assert_eq!(g.insts[2].src1.chan, 2);
    assert_eq!(g.insts[3].src0.chan, 0);
}

#[test]
fn default_flavour_keeps_every_literal_in_a_slot() {
    let p = assemble(SRC).unwrap().program;
    let g = &alu_of(&p)[0];
    assert!(g.insts[..3].iter().all(|i| i.src1.sel == sel::LITERAL));
    assert_eq!(g.literals, [1.0f32.to_bits(), 0, 0.5f32.to_bits(), 2.0f32.to_bits()]);
}

#[test]
fn inline_flavour_leaves_hex_literals_and_other_zeros_alone() {
    let src = "00 ALU:
      0  x: MUL R1.x, R0.x, 0x3F800000
         y: ADD R1.y, R0.y, (0x80000000, 0.0)
         z: ADD R1.z, R0.z, (0x00000000, 0.0)
01 EXP_DONE: POS0, R1
END_OF_PROGRAM
";
    let p = assemble_with(src, Literals::Inline).unwrap().program;
    let g = &alu_of(&p)[0];
    let sels: Vec<u16> = g.insts.iter().map(|i| i.src1.sel).collect();
    assert_eq!(sels, [sel::LITERAL, sel::LITERAL, sel::ZERO]);
}

/// A TEX program whose fetch padding word is 0x0DEADFEC: the disassembly assembles back to the
/// same words.
#[test]
fn tex_padding_word_is_written_back() {
    let src = "00 TEX: ADDR(16) CNT(1)
      0  SAMPLE R1, R0.xy0x, t0, s0
01 EXP_DONE: PIX0, R1
END_OF_PROGRAM
";
    let mut p = assemble(src).unwrap().program;
    let ClauseBody::Fetch(f) = &mut p.clauses[0].body else { panic!("a TEX clause") };
    let FetchInst::Tex(t) = &mut f[0] else { panic!("a TEX fetch") };
    t.pad = 0x0DEA_DFEC;
    let words = p.encode();
    assert!(words.contains(&0x0DEA_DFEC));
    let text = latte::disasm::disassemble(&Program::decode(&words, 0).unwrap());
    assert!(text.contains("PAD(0x0DEADFEC)"), "{text}");
    assert!(!text.contains("RAW("), "{text}");
    assert_eq!(assemble(&text).unwrap().program.encode(), words, "{text}");
}

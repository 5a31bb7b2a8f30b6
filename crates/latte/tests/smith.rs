//! Random valid programs (isa::smith): decode(encode(p)) == p, and disassemble -> assemble gives
//! the same words.

use arbitrary::Unstructured;
use latte::isa::smith::{program, Config};
use latte::isa::Program;
use proptest::prelude::*;

proptest! {
    #[test]
    fn smith_programs_decode_to_themselves(bytes in proptest::collection::vec(any::<u8>(), 64..4096)) {
        let mut u = Unstructured::new(&bytes);
        if let Ok(p) = program(&mut u, &Config::default()) {
            let words = p.encode();
            let back = Program::decode(&words, 0).unwrap();
            prop_assert_eq!(&back, &p);
            let text = latte::disasm::disassemble(&p);
            let a = latte::asm::assemble(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(a.program.encode(), words, "{}", text);
        }
    }
}

/// Regressions found by the generator: a literal operand with a relative index printed as
/// `0x..[IDX7]` did not parse; a kcache line 255 locked for 32 constants printed an end of 4111,
/// beyond the parser's bound.
#[test]
fn literal_with_relative_index_and_high_kcache_lines() {
    use latte::isa::alu::{sel, AluInst};
    use latte::isa::cf::CfInst;
    // ALU clause at 2, 2 slots, kcache set 0: bank 3, LOCK_2, line 255.
    let (c0, c1) = (2 | (3 << 22) | (2 << 30), (1 << 18) | (255 << 2) | (8 << 26) | (1u32 << 29));
    let mut i = AluInst::decode(0, 0x0000_0010); // ADD R0.x, R0.x, R0.x (write)
    i.src0.sel = sel::LITERAL;
    i.src0.rel = true;
    i.index_mode = 7;
    i.last = true;
    let (a0, a1) = i.encode();
    let eop = CfInst::decode(0, (1 << 21) | (1 << 31)).encode();
    let words = vec![c0, c1, eop.0, eop.1, a0, a1, 0x1242_842E, 0];
    let p = Program::decode(&words, 0).unwrap();
    let text = latte::disasm::disassemble(&p);
    assert!(text.contains("0x1242842E[IDX7]") && text.contains("KCACHE0(CB3:4080-4111)"), "{text}");
    assert_eq!(latte::asm::assemble(&text).unwrap().program.encode(), words, "{text}");
}

/// A subroutine placed after END_OF_PROGRAM and reached by CALL is decoded up to its RETURN,
/// printed after the END_OF_PROGRAM line and assembled back.
#[test]
fn call_to_a_subroutine_after_end_of_program() {
    use latte::isa::cf::CfInst;
    let cf = |op: u32, addr: u32, eop: bool| {
        let (a, b) = CfInst::decode(addr, (op << 23) | ((eop as u32) << 21) | (1 << 31)).encode();
        [a, b]
    };
    let exp_done = [0x0000_0000, (0x28 << 23) | (1 << 21) | 0x688];
    let mut words = Vec::new();
    words.extend(cf(0x12, 2, false)); // 0 CALL ADDR(2)
    words.extend(exp_done); // 1 EXP_DONE ... END_OF_PROGRAM
    words.extend(cf(0x00, 0, false)); // 2 NOP (subroutine body)
    words.extend(cf(0x14, 0, false)); // 3 RETURN
    let p = Program::decode(&words, 0).unwrap();
    assert_eq!(p.cf.len(), 4);
    assert!(p.extra.is_empty());
    let text = latte::disasm::disassemble(&p);
    assert!(text.contains("END_OF_PROGRAM\n02 NOP\n03 RETURN"), "{text}");
    assert_eq!(latte::asm::assemble(&text).unwrap().program.encode(), words, "{text}");
}

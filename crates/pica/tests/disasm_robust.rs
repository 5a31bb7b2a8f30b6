//! Robustness of read -> decode -> disassemble: random bytes and corrupted or truncated SHBIN
//! files give errors or warnings, never panics; and whenever `disassemble` says a file is
//! reproducible, its text really assembles back to the same container.
//!
//! Case counts follow PROPTEST_CASES (CI sets 256).

use pica::disasm::{disassemble, disassemble_lossy};
use pica::isa::Instruction;
use pica::shbin::Shbin;
use proptest::prelude::*;

fn goldens() -> &'static [Vec<u8>] {
    static FILES: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    FILES.get_or_init(read_goldens)
}

fn read_goldens() -> Vec<Vec<u8>> {
    testkit::files(&testkit::corpus("pica/golden"), "shbin").iter().map(|p| std::fs::read(p).expect("read")).collect()
}

/// Splits at the file markers and assembles; the container picasso would write.
fn reassemble(text: &str) -> Result<Shbin, String> {
    pica::disasm::reassemble(text).map(|a| a.shbin).map_err(|e| e.to_string())
}

/// Disassembles without panicking; when the strict form accepts, reassembly must agree.
fn check(shbin: &Shbin) -> Result<(), TestCaseError> {
    let lossy = disassemble_lossy(shbin);
    for word in &shbin.program.code {
        let _ = Instruction::decode(*word);
    }
    match disassemble(shbin) {
        Ok(text) => {
            prop_assert!(lossy.warnings.is_empty());
            let again = reassemble(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(&again, shbin, "text:\n{}", text);
        }
        Err(_) => prop_assert!(!lossy.warnings.is_empty()),
    }
    Ok(())
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        if let Ok(shbin) = Shbin::read(&bytes) {
            check(&shbin)?;
        }
    }

    #[test]
    fn random_bytes_after_magic_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let mut file = b"DVLB\x01\x00\x00\x00".to_vec();
        file.extend_from_slice(&bytes);
        if let Ok(shbin) = Shbin::read(&file) {
            check(&shbin)?;
        }
    }

    #[test]
    fn random_dvoj_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let mut file = b"DVOJ".to_vec();
        file.extend_from_slice(&bytes);
        if let Ok(dvoj) = pica::shbin::Dvoj::read(&file) {
            let _ = pica::disasm::disassemble_dvoj(&dvoj, &pica::disasm::Options::default());
        }
    }

    /// Golden files with bytes overwritten, then cut short.
    #[test]
    fn corrupted_goldens_never_panic(
        which in 0usize..31,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..16),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut bytes = goldens()[which].clone();
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        if let Ok(shbin) = Shbin::read(&bytes) {
            check(&shbin)?;
        }
    }

    /// Golden programs with instruction or descriptor words replaced: the disassembler's
    /// structure recovery, operand printing and descriptor model see every kind of word.
    #[test]
    fn replaced_words_never_panic(
        which in 0usize..31,
        code_edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u32>()), 1..6),
        desc_edit in proptest::option::of((any::<prop::sample::Index>(), any::<u32>())),
    ) {
        let mut shbin = Shbin::read(&goldens()[which]).expect("golden reads");
        for (at, word) in code_edits {
            let i = at.index(shbin.program.code.len());
            shbin.program.code[i] = word;
        }
        if let Some((at, word)) = desc_edit {
            let i = at.index(shbin.program.descriptors.len());
            shbin.program.descriptors[i][0] = word;
        }
        check(&shbin)?;
    }
}

/// A regression seed kept as a plain test: a file whose DVLE offset points into itself.
#[test]
fn self_referencing_offsets_error() {
    let mut bytes = b"DVLB\x01\x00\x00\x00\x00\x00\x00\x00".to_vec();
    bytes.extend_from_slice(&[0; 64]);
    assert!(Shbin::read(&bytes).is_err());
}

/// A large program of distinct calls (a megabyte of code, 2^18 different procedures) gets
/// printed: the procedure and label bookkeeping is linear, where a quadratic one would not
/// finish in the test's lifetime. (No timing is asserted; speed is for the criterion bench.)
#[test]
fn large_programs_are_printed() {
    let mut shbin = Shbin::read(&goldens()[0]).expect("golden reads");
    let n = 1u32 << 18;
    // call DST = i mod 4096, NUM = 1 + i / 4096: every word calls a different procedure.
    shbin.program.code = (0..n).map(|i| 0x24u32 << 26 | (i % 4096) << 10 | (1 + i / 4096)).collect();
    let d = disassemble_lossy(&shbin);
    assert!(!d.warnings.is_empty(), "overlapping procedures cannot be printed as picasso blocks");
    assert!(d.text.lines().count() > n as usize);
}

//! SHBIN read/write and ISA decode/encode over every SHBIN of the corpus, and robustness of the
//! reader on random, truncated and corrupted files.

use std::path::PathBuf;

use pica::isa::Instruction;
use pica::shbin::{Dvoj, Shbin, ShbinErrorKind};
use proptest::prelude::*;

fn corpus() -> PathBuf {
    testkit::corpus("pica")
}

/// Every SHBIN of the corpus: picasso's golden outputs and the one committed by a project.
fn corpus_shbins() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus().join("golden"))
        .expect("corpus golden folder")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "shbin"))
        .collect();
    files.push(corpus().join("normal_mapping/source/vshader.shbin"));
    files.sort();
    files.into_iter().map(|p| (p.display().to_string(), std::fs::read(&p).unwrap())).collect()
}

#[test]
fn every_corpus_shbin_writes_back_identically() {
    let files = corpus_shbins();
    assert_eq!(files.len(), 32, "31 golden SHBINs + normal_mapping's committed one");
    for (name, bytes) in &files {
        let shbin = Shbin::read(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!shbin.executables.is_empty(), "{name}");
        assert_eq!(&shbin.to_bytes(), bytes, "{name}");
    }
}

#[test]
fn every_corpus_word_decodes_and_encodes_back() {
    let mut words = 0;
    for (name, bytes) in corpus_shbins() {
        let shbin = Shbin::read(&bytes).unwrap();
        for (i, &w) in shbin.program.code.iter().enumerate() {
            let inst = Instruction::decode(w);
            assert!(inst.opcode.mnemonic().is_some(), "{name}: instruction {i} ({w:#010x}) has an unknown opcode");
            assert_eq!(inst.encode(), Ok(w), "{name}: instruction {i}");
            words += 1;
        }
    }
    assert!(words > 900, "only {words} words checked");
}

#[test]
fn dvle_fields_of_a_known_file() {
    // graphics/gpu/simple_tri vshader.v.pica: 8 instructions, two outputs, projection[4] at c0-c3,
    // two .constf at c95 and c94 (picasso allocates constants from the top).
    let bytes =
        std::fs::read(corpus().join("golden/3ds-examples__graphics__gpu__simple_tri__source__vshader.v.pica.shbin"))
            .unwrap();
    let shbin = Shbin::read(&bytes).unwrap();
    assert_eq!(shbin.program.code.len(), 8);
    let dvle = &shbin.executables[0];
    assert_eq!((dvle.main, dvle.endmain, dvle.version), (0, 8, 0x1002));
    assert_eq!(dvle.outputs.len(), 2);
    assert_eq!(dvle.uniforms.len(), 1);
    assert_eq!(dvle.symbol(dvle.uniforms[0].symbol), Some("projection"));
    assert_eq!((dvle.uniforms[0].start, dvle.uniforms[0].end), (0x10, 0x13));
    assert!(matches!(dvle.constants[0], pica::shbin::Constant::Float { reg: 95, .. }));
}

#[test]
fn errors_carry_offsets() {
    let err = Shbin::read(b"DVLX").unwrap_err();
    assert_eq!(err.offset, 0);
    assert!(matches!(err.kind, ShbinErrorKind::Magic { .. }));
    // A DVLE count that cannot fit is refused before allocation.
    let err = Shbin::read(b"DVLB\xff\xff\xff\xff").unwrap_err();
    assert!(matches!(err.kind, ShbinErrorKind::Count { .. }), "{err}");
    assert!(err.to_string().contains("byte offset 0x8"), "{err}");
}

#[test]
fn dvoj_reads_a_hand_built_object() {
    // Header (0x58 bytes), then 2 code words, 1 descriptor, 1 output, 4 symbol bytes.
    let mut b = Vec::new();
    b.extend_from_slice(b"DVOJ");
    b.extend_from_slice(&[0x02, 0x10, 0, 0, 0x01, 0x00, 0x03, 0x00]);
    b.extend_from_slice(&0xFFFF_FFFFu32.to_le_bytes());
    let tables: [(u32, u32); 9] =
        [(0x58, 0), (0x58, 0), (0x58, 2), (0x60, 1), (0x68, 0), (0x68, 0), (0x68, 1), (0x70, 0), (0x70, 4)];
    for (o, n) in tables {
        b.extend_from_slice(&o.to_le_bytes());
        b.extend_from_slice(&n.to_le_bytes());
    }
    assert_eq!(b.len(), 0x58);
    for w in [0x4C00_0000u32, 0x8800_0000, 0x36E, 0] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.extend_from_slice(&[0, 0, 0, 0, 0xF, 0, 0, 0]);
    b.extend_from_slice(b"abc\0");
    let dvoj = Dvoj::read(&b).unwrap();
    assert_eq!(dvoj.code, vec![0x4C00_0000, 0x8800_0000]);
    assert_eq!(dvoj.descriptors, vec![[0x36E, 0]]);
    assert_eq!((dvoj.input_mask, dvoj.output_mask), (1, 3));
    assert_eq!(dvoj.outputs[0].mask, 0xF);
    assert_eq!(dvoj.symbols, b"abc\0");
    // Truncations are errors, not panics.
    for len in 0..b.len() {
        assert!(Dvoj::read(&b[..len]).is_err(), "truncated to {len}");
    }
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = Shbin::read(&bytes);
        let _ = Dvoj::read(&bytes);
    }

    #[test]
    fn random_bytes_after_magic_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let mut shbin = b"DVLB".to_vec();
        shbin.extend_from_slice(&bytes);
        let _ = Shbin::read(&shbin);
        let mut dvoj = b"DVOJ".to_vec();
        dvoj.extend_from_slice(&bytes);
        let _ = Dvoj::read(&dvoj);
    }

    /// Truncated and corrupted corpus files: an error or a value, never a panic; a value still
    /// writes back (and, when only table contents changed, identically).
    #[test]
    fn corrupted_corpus_files_never_panic(
        file in 0usize..32,
        cut in any::<prop::sample::Index>(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
    ) {
        let files = corpus_shbins();
        let mut bytes = files[file].1.clone();
        for (at, value) in flips {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        if let Ok(shbin) = Shbin::read(&bytes) {
            let again = Shbin::read(&shbin.to_bytes()).expect("written file reads back");
            prop_assert_eq!(again, shbin);
        }
    }
}

//! Malformed and truncated GFD files give positioned errors, never panics (bounded by
//! PROPTEST_CASES), and fixed regression cases.

mod common;
use latte::error::Error;
use latte::gfd::GfdFile;
use latte::isa::Program;
use proptest::prelude::*;

fn corpus_files() -> Vec<Vec<u8>> {
    let mut f = Vec::new();
    common::walk(&common::corpus().join("latte"), "gsh", &mut f);
    common::walk(&common::corpus().join("latte-mesa"), "gsh", &mut f);
    f.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Everything a reader of a GFD does: parse, shaders, decode, disassemble.
fn exercise(b: &[u8]) -> Result<(), Error> {
    let f = GfdFile::parse(b)?;
    for s in f.shaders()? {
        if let Some(p) = &s.program {
            let p = Program::decode_bytes(p, s.program_offset)?;
            let _ = latte::disasm::disassemble(&p);
        }
    }
    let _ = latte::disasm::disassemble_gfd(&f);
    Ok(())
}

#[test]
fn every_truncation_of_two_files_errors_with_an_offset() {
    let files = corpus_files();
    for b in [&files[0], &files[files.len() - 1]] {
        for n in 0..b.len() {
            match GfdFile::parse(&b[..n]) {
                Ok(_) => panic!("truncated to {n} of {} bytes parsed", b.len()),
                Err(Error::Truncated { offset, .. })
                | Err(Error::Invalid { offset, .. })
                | Err(Error::TooMany { offset, .. }) => {
                    assert!(offset <= n.max(4), "offset {offset:#x} for {n} bytes");
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
}

#[test]
fn error_messages_name_offsets() {
    let mut b = corpus_files()[0].clone();
    b[0x20] = b'X';
    let e = GfdFile::parse(&b).unwrap_err().to_string();
    assert!(e.contains("0x20") && e.contains("block magic"), "{e}");
    // A header block whose uniform-var count is absurd.
    let b = std::fs::read(common::corpus().join("latte/ClassiCube/coloured_none.gsh")).unwrap();
    let mut m = b.clone();
    let at = 0x40 + 0xE4; // VS uniform-var count
    m[at..at + 4].copy_from_slice(&0x7FFF_FFFFu32.to_be_bytes());
    let e = GfdFile::parse(&m).unwrap().shaders().unwrap_err();
    assert!(matches!(e, Error::TooMany { offset, .. } if offset == at), "{e}");
}

/// Regression: a pointer without a tag in a header block must be an error, not a panic.
#[test]
fn untagged_pointer_is_an_error() {
    let b = std::fs::read(common::corpus().join("latte/ClassiCube/coloured_none.gsh")).unwrap();
    let mut m = b.clone();
    let at = 0x40 + 0xE8; // VS uniform-var pointer
    m[at..at + 4].copy_from_slice(&0x1234_5678u32.to_be_bytes());
    let e = GfdFile::parse(&m).unwrap().shaders().unwrap_err().to_string();
    assert!(e.contains("tag") && e.contains("0x128"), "{e}");
}

proptest! {
    #[test]
    fn mutated_gfds_never_panic(file in any::<prop::sample::Index>(), edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8), cut in any::<prop::sample::Index>()) {
        let files = corpus_files();
        let mut b = files[file.index(files.len())].clone();
        for (i, v) in edits {
            let k = i.index(b.len());
            b[k] = v;
        }
        let n = cut.index(b.len() + 1);
        let _ = exercise(&b[..n]);
        let _ = exercise(&b);
    }

    #[test]
    fn random_gfd_bytes_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut b = vec![0x47, 0x66, 0x78, 0x32, 0, 0, 0, 0x20];
        b.extend(tail);
        let _ = exercise(&b);
    }
}

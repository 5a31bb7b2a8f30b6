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

/// The disassembly of each vertex/pixel shader of every corpus .gsh assembles back to the same
/// header (registers, variables) and program.
#[test]
fn gfd_sections_reassemble() {
    use latte::asm::header::{pixel_header, vertex_header};
    use latte::gfd::{GfdFile, Stage};
    let mut files = Vec::new();
    common::walk(&common::corpus().join("latte"), "gsh", &mut files);
    common::walk(&common::corpus().join("latte-mesa"), "gsh", &mut files);
    let mut n = 0;
    for f in files {
        let gfd = GfdFile::parse(&std::fs::read(&f).unwrap()).unwrap();
        let text = latte::disasm::disassemble_gfd(&gfd).unwrap();
        for (s, section) in gfd
            .shaders()
            .unwrap()
            .iter()
            .zip(text.split("; ======== shader ").skip(1).filter(|t| !t.contains("copy program")))
        {
            let Some(prog) = &s.program else { continue };
            if s.header.stage == Stage::Geometry {
                continue;
            }
            let section = format!(";{section}");
            let a = assemble(&section).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert_eq!(&a.program.to_bytes(), prog, "{}", f.display());
            let h = if s.header.stage == Stage::Vertex { vertex_header(&a) } else { pixel_header(&a) }.unwrap();
            let mut want = s.header.clone();
            want.raw = None;
            let mut got = h;
            got.program_size = want.program_size;
            got.gx2r = want.gx2r.clone();
            got.block_major = want.block_major;
            got.struct_size = want.struct_size;
            assert_eq!(got, want, "{}", f.display());
            n += 1;
        }
    }
    assert!(n > 80, "{n}");
}

fn some_text() -> String {
    let root = common::corpus().join("latte");
    let mut t = std::fs::read_to_string(root.join("ClassiCube/asm/ps_textured_exp.psh")).unwrap();
    let words = latte::gfd::program_words(
        &std::fs::read(common::corpus().join("latte-mesa/programs/t17_gs_passthrough/gs.bin")).unwrap(),
    );
    t.push_str(&disassemble(&Program::decode(&words, 0).unwrap()));
    t
}

proptest! {
    /// Mutated assembly text gives an error with a line, never a panic.
    #[test]
    fn mutated_text_never_panics(edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<char>(), 0u8..3), 1..6)) {
        let mut t: Vec<char> = some_text().chars().collect();
        for (i, c, op) in edits {
            let k = i.index(t.len().max(1));
            match op {
                0 if !t.is_empty() => t[k] = c,
                1 => t.insert(k.min(t.len()), c),
                _ if !t.is_empty() => { t.remove(k); }
                _ => {}
            }
        }
        let s: String = t.into_iter().collect();
        if let Err(e) = assemble(&s) {
            prop_assert!(e.to_string().starts_with("line "), "{}", e);
        }
        let _ = latte::asm::assemble_gfd(Some(&s), Some(&s));
    }

    #[test]
    fn random_lines_never_panic(lines in proptest::collection::vec("[0-9A-Za-z_:.,\\[\\]()| +-]{0,40}", 0..20)) {
        let s = lines.join("\n");
        let _ = assemble(&s);
        let _ = latte::asm::assemble_gfd(None, Some(&s));
    }
}

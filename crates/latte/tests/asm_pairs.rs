//! `latte asm` of each pair in PAIRS.tsv reproduces its .gsh byte for byte.
//!
//! 14 files were written by the current latte-assembler and come out identical with the default
//! flavor. wut/pos_col_shader.gsh was written by an older latte-assembler: with the default
//! flavor its program words and header fields match but the file differs (program padding to
//! 256 bytes, unused SQ_VTX_SEMANTIC entries 0 instead of 0xFF, unpadded names, align mode 1,
//! end block id); `Flavor::Legacy` reproduces those and gives identical bytes too.

mod common;
use latte::asm::{assemble_gfd, assemble_gfd_as, Flavor};
use latte::gfd::GfdFile;

#[test]
fn pairs_reproduce_their_gsh() {
    let root = common::corpus().join("latte");
    let pairs = std::fs::read_to_string(root.join("PAIRS.tsv")).unwrap();
    let mut identical = 0;
    for l in pairs.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = l.split('\t').collect();
        let orig = std::fs::read(root.join(f[0])).unwrap();
        let vs = std::fs::read_to_string(root.join(f[1])).unwrap();
        let ps = std::fs::read_to_string(root.join(f[2])).unwrap();
        let legacy = f[0].starts_with("wut/");
        let current = assemble_gfd(Some(&vs), Some(&ps)).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
        // Program words and register values agree in every file, whatever the flavor.
        let theirs = GfdFile::parse(&orig).unwrap().shaders().unwrap();
        let ours = current.shaders().unwrap();
        assert_eq!(theirs.len(), ours.len());
        for (t, o) in theirs.iter().zip(&ours) {
            let (tp, op) = (t.program.clone().unwrap(), o.program.clone().unwrap());
            assert_eq!(&tp[..op.len()], &op[..], "{} {:?} program", f[0], t.header.stage);
            assert!(tp[op.len()..].iter().all(|&b| b == 0), "{}", f[0]);
            for (i, (a, b)) in t.header.regs.iter().zip(&o.header.regs).enumerate() {
                let unused_semantic = legacy
                    && t.header.stage == latte::gfd::Stage::Vertex
                    && (17 + o.header.regs[16] as usize..49).contains(&i);
                if !unused_semantic {
                    assert_eq!(a, b, "{} {:?} register word {i}", f[0], t.header.stage);
                }
            }
            assert_eq!(t.header.uniform_vars, o.header.uniform_vars, "{}", f[0]);
            assert_eq!(t.header.sampler_vars, o.header.sampler_vars, "{}", f[0]);
            assert_eq!(t.header.attrib_vars, o.header.attrib_vars, "{}", f[0]);
        }
        let bytes = if legacy {
            assert_ne!(current.to_bytes(), orig);
            assemble_gfd_as(Some(&vs), Some(&ps), Flavor::Legacy).unwrap().to_bytes()
        } else {
            current.to_bytes()
        };
        assert_eq!(bytes, orig, "{}", f[0]);
        identical += 1;
    }
    assert_eq!(identical, 15);
}

#[test]
fn header_errors_name_their_line() {
    let src = "; $MODE = \"UniformRegister\"\n; $ATTRIB_VARS[0].bogus = 1\n00 CALL_FS\nEND_OF_PROGRAM\n";
    let e = assemble_gfd(Some(src), None).unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("BOGUS"), "{e}");
    let e = assemble_gfd(None, Some("00 EXP_DONE: PIX0, R0\n01 FOO\n")).unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("FOO"), "{e}");
}

#[test]
fn header_checks_point_at_their_directive() {
    let src = "; $MODE = \"UniformRegister\"\n; $SQ_PGM_RESOURCES_VS.NUM_GPRS = 7\n00 CALL_FS\n01 EXP_DONE: POS0, R1\nEND_OF_PROGRAM\n";
    let e = assemble_gfd(Some(src), None).unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("NUM_GPRS 7, expected 2"), "{e}");
}

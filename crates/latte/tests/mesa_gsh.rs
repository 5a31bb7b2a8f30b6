//! The 30 .gsh files of the latte-mesa corpus: each parses, writes back to identical bytes,
//! disassembles (every shader, the GS copy program included) without a RAW escape, and its
//! programs are the compiler's programs (`programs/tNN/*.bin`) as CafeGLSL remaps them: texture
//! resource ids shifted by -18 and uniform-block fetch buffers by +0x80 (corpus README); every
//! other word identical.

mod common;
use common::{corpus, walk};
use latte::gfd::{GfdFile, Stage};
use latte::isa::program::ClauseBody;
use latte::isa::{FetchInst, Program};

fn stage_file(s: Stage) -> &'static str {
    match s {
        Stage::Vertex => "vs",
        Stage::Pixel => "ps",
        Stage::Geometry => "gs",
    }
}

/// The .gsh program `gsh` against the compiler's `bin`: same CF and ALU words, fetches equal
/// but for the remapped ids. Returns the number of remapped fetches.
fn same_program_remapped(gsh: &[u8], bin: &[u8], what: &str) -> usize {
    let a = Program::decode_bytes(gsh, 0).unwrap_or_else(|e| panic!("{what}: {e}"));
    let b = Program::decode_bytes(bin, 0).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(a.len, b.len, "{what}: length");
    assert_eq!(a.cf, b.cf, "{what}: CF program");
    assert_eq!(a.clauses.len(), b.clauses.len(), "{what}: clauses");
    let mut remapped = 0;
    for (ca, cb) in a.clauses.iter().zip(&b.clauses) {
        match (&ca.body, &cb.body) {
            (ClauseBody::Alu(x), ClauseBody::Alu(y)) => assert_eq!(x, y, "{what}: ALU clause at {}", ca.addr),
            (ClauseBody::Fetch(x), ClauseBody::Fetch(y)) => {
                assert_eq!(x.len(), y.len(), "{what}");
                for (fa, fb) in x.iter().zip(y) {
                    match (fa, fb) {
                        (FetchInst::Tex(ta), FetchInst::Tex(tb)) => {
                            assert_eq!(ta.resource_id as u32 + 18, tb.resource_id as u32, "{what}: texture resource");
                            let mut t = *ta;
                            t.resource_id = tb.resource_id;
                            assert_eq!(t, *tb, "{what}");
                            remapped += 1;
                        }
                        (FetchInst::Vtx(va), FetchInst::Vtx(vb)) => {
                            // Uniform-block buffers (0-15) move up by 0x80; ring and vertex
                            // buffers keep their ids.
                            let want = if vb.buffer_id < 16 { vb.buffer_id + 0x80 } else { vb.buffer_id };
                            assert_eq!(va.buffer_id, want, "{what}: buffer id");
                            let mut v = *va;
                            v.buffer_id = vb.buffer_id;
                            assert_eq!(v, *vb, "{what}");
                            remapped += (va.buffer_id != vb.buffer_id) as usize;
                        }
                        _ => panic!("{what}: fetch layouts differ"),
                    }
                }
            }
            _ => panic!("{what}: clause kinds differ"),
        }
    }
    remapped
}

#[test]
fn mesa_gsh_files_parse_print_write_back_and_hold_the_programs() {
    let mut files = Vec::new();
    walk(&corpus().join("latte-mesa/gsh"), "gsh", &mut files);
    assert_eq!(files.len(), 30);
    let (mut shaders, mut copies, mut remapped) = (0, 0, 0);
    for f in &files {
        let name = f.display().to_string();
        let bytes = std::fs::read(f).unwrap();
        let gfd = GfdFile::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(gfd.to_bytes(), bytes, "{name}: write back");
        let text = latte::disasm::disassemble_gfd(&gfd).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!text.contains("RAW("), "{name}");
        let test = f.file_stem().unwrap().to_str().unwrap();
        let dir = corpus().join("latte-mesa/programs").join(test);
        let list = gfd.shaders().unwrap();
        let stages: Vec<Stage> = list.iter().map(|s| s.header.stage).collect();
        let gs = dir.join("gs.bin").exists();
        let want: &[Stage] =
            if gs { &[Stage::Vertex, Stage::Pixel, Stage::Geometry] } else { &[Stage::Vertex, Stage::Pixel] };
        assert_eq!(stages, want, "{name}");
        for s in &list {
            let prog = s.program.as_ref().unwrap_or_else(|| panic!("{name}: no program"));
            assert_eq!(s.header.program_size as usize, prog.len(), "{name}");
            assert!(text.contains(&format!(": {} ========", s.header.stage.name())), "{name}");
            let bin = std::fs::read(dir.join(format!("{}.bin", stage_file(s.header.stage)))).unwrap();
            remapped += same_program_remapped(prog, &bin, &format!("{name} {:?}", s.header.stage));
            shaders += 1;
            if let Some(c) = &s.copy_program {
                let bin = std::fs::read(dir.join("gscopy.bin")).unwrap();
                same_program_remapped(c, &bin, &format!("{name} copy program"));
                assert!(text.contains("geometry copy program"), "{name}");
                copies += 1;
            }
        }
    }
    assert_eq!((shaders, copies), (62, 2));
    assert!(remapped > 100, "{remapped}");
}

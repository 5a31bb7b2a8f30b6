//! Named cases of the disassembler: what picasso syntax cannot express is reported with its
//! location and printed as a comment, and multi-file (several DVLE) programs split back into
//! files that reassemble to the same SHBIN.

use pica::asm::{assemble, Options, Source};
use pica::disasm::{disassemble, disassemble_lossy, DisasmError, Location};
use pica::shbin::{Constant, Shbin};

fn asm(sources: &[(&str, &str)], auto_nop: bool) -> Shbin {
    let sources: Vec<Source> = sources.iter().map(|&(name, text)| Source { name, text }).collect();
    assemble(&sources, &Options { auto_nop }).expect("test source assembles").shbin
}

fn one(text: &str) -> Shbin {
    asm(&[("t.pica", text)], true)
}

const SIMPLE: &str = ".fvec m[4]\n.out - position o0\n.proc main\n\tdp4 o0.x, m, v0\n\tend\n.end\n";

fn first_warning(shbin: &Shbin) -> (Location, String) {
    let d = disassemble_lossy(shbin);
    let w = d.warnings.first().expect("a warning");
    (w.location, w.message.clone())
}

#[test]
fn unknown_opcode_is_a_raw_comment_at_its_index() {
    let mut s = one(SIMPLE);
    s.program.code[0] = 0x10 << 26 | 0x1234;
    let d = disassemble_lossy(&s);
    let w = d.warnings.iter().find(|w| w.location == Location::Instruction(0)).expect("warning at 0");
    assert!(w.message.contains("unknown opcode 0x10"), "{w}");
    assert!(d.text.contains("; raw 0x40001234: unknown opcode 0x10"));
    assert!(matches!(disassemble(&s), Err(DisasmError::NotReproducible { .. })));
}

/// Found by `corrupted_goldens_never_panic`: picasso rejects o7-o15 in geometry shaders, so a
/// geometry program writing o7 cannot be printed as is.
#[test]
fn geometry_output_past_o6_is_reported() {
    let mut s = one(".gsh point c0\n.out - position o0\n.proc main\n\tmov o0, v0\n\tend\n.end\n");
    // mov o7, v0: DST is bits 21-25.
    s.program.code[0] = (s.program.code[0] & !(0x1F << 21)) | 7 << 21;
    let (at, msg) = first_warning(&s);
    assert_eq!(at, Location::Instruction(0));
    assert!(msg.contains("o7"), "{msg}");
}

#[test]
fn backward_if_prints_flat() {
    let mut s = one(".proc main\n\tifu b0\n\t\tnop\n\t.end\n\tend\n.end\n");
    // ifu b0 with its target before itself.
    s.program.code[0] &= !(0xFFF << 10);
    let d = disassemble_lossy(&s);
    assert!(d.warnings.iter().any(|w| w.message.contains("printed flat")), "{:?}", d.warnings);
    assert!(d.text.contains("; ifu b0 (target 0, count 0"));
}

#[test]
fn raw_constant_is_reported() {
    let mut s = one(SIMPLE);
    s.executables[0].constants.push(Constant::Raw([7; 20]));
    let (at, msg) = first_warning(&s);
    assert_eq!(at, Location::Dvle(0));
    assert!(msg.contains("not a canonical"), "{msg}");
}

#[test]
fn uniform_named_like_a_register_is_reported() {
    let s = one(".fvec c3\n.out - position o0\n.proc main\n\tmov o0, c3\n\tend\n.end\n");
    let (_, msg) = first_warning(&s);
    assert!(msg.contains("hides the register"), "{msg}");
}

#[test]
fn missing_padding_nop_is_reported() {
    // Without auto-NOP a call ends the procedure; picasso's default would pad it.
    let s = asm(&[("t.pica", ".proc f\n\tnop\n.end\n.proc main\n\tcall f\n.end\n")], false);
    let d = disassemble_lossy(&s);
    assert!(d.warnings.iter().any(|w| w.message.contains("padding NOP")), "{:?}", d.warnings);
}

#[test]
fn padding_nops_print_as_instructions() {
    let s =
        one(".proc f\n\tnop\n.end\n.proc main\n\tifu b1\n\t\tcall f\n\t.else\n\t\tmov r0, v0\n\t.end\n\tend\n.end\n");
    let text = disassemble(&s).expect("reproducible");
    assert!(text.contains("call proc_0\n\t\tnop\n\t.else"), "{text}");
}

#[test]
fn several_dvles_split_into_files() {
    let vs = ".fvec proj[4]\n.out - position o0\n.entry vmain\n.proc vmain\n\tdp4 o0, proj, v0\n\tend\n.end\n";
    let vs2 = ".fvec proj[4], tint\n.out - color o1\n.out - position o0\n.entry v2\n.proc v2\n\tmul o1, tint, v1\n\tend\n.end\n";
    let s = asm(&[("a.pica", vs), ("b.pica", vs2)], true);
    assert_eq!(s.executables.len(), 2);
    let text = disassemble(&s).expect("reproducible");
    let at = text.find("; ---- next file").expect("file marker");
    let (first, second) = text.split_at(at);
    let again = asm(&[("x.pica", first), ("y.pica", second)], true);
    assert_eq!(again.to_bytes(), s.to_bytes());
}

#[test]
fn shortest_floats_in_constants() {
    let s = one(".constf k(0.1, -2.5, 1e-3, 100)\n.out - position o0\n.proc main\n\tmov o0, k\n\tend\n.end\n");
    let text = disassemble(&s).expect("reproducible");
    assert!(text.contains(".constf const95(0.1, -2.5, 0.001, 100)"), "{text}");
}

/// Found by the smith: a vertex DVLE whose file holds no directive and no code (the code went to
/// the geometry shader's file) vanished on reassembly, since picasso makes a DVLE only for a file
/// with a statement; such a file now gets `.entry`.
#[test]
fn file_without_code_keeps_its_dvle() {
    let s = asm(
        &[("a.pica", ".proc main\n\tend\n.end\n"), ("b.pica", ".gsh point c0\n.entry g\n.proc g\n\tend\n.end\n")],
        true,
    );
    let text = disassemble(&s).expect("reproducible");
    let at = text.find("; ---- next file").expect("file marker");
    let (first, second) = text.split_at(at);
    assert!(first.contains(".entry main"), "{first}");
    let again = asm(&[("x.pica", first), ("y.pica", second)], true);
    assert_eq!(again, s);
}

/// picasso stores `$` in a uniform name as `.`; the printer writes `$` back.
#[test]
fn dollar_names_come_back() {
    let s = one(".fvec my$mat[4]\n.out - position o0\n.proc main\n\tdp4 o0.x, my$mat[1], v0\n\tend\n.end\n");
    assert_eq!(s.executables[0].symbol(0), Some("my.mat"));
    let text = disassemble(&s).expect("reproducible");
    assert!(text.contains(".fvec my$mat[4]") && text.contains("dp4 o0.x, my$mat[1], v0"), "{text}");
    assert_eq!(one(&text), s);
}

/// A `.constfa` array comes back as an array, and relative reads of it name it.
#[test]
fn constant_arrays_come_back() {
    let src = ".constfa tbl[]\n.constfa (1, 2, 3, 4)\n.constfa (5, 6, 7, 8)\n.end\n.constf k(0.5, 0, 0, 0)\n\
               .out - position o0\n.proc main\n\tmova a0.x, v0\n\tmov o0, tbl[a0.x+1]\n\tend\n.end\n";
    let s = one(src);
    let text = disassemble(&s).expect("reproducible");
    assert!(
        text.contains(
            ".constfa array94[2]\n.constfa (1, 2, 3, 4)\n.constfa (5, 6, 7, 8)\n.end\n.constf const93(0.5, 0, 0, 0)"
        ),
        "{text}"
    );
    assert!(text.contains("mov o0, array94[a0.x+1]"), "{text}");
    assert_eq!(one(&text), s);
}

/// A SETEMIT turns the DVLE of its file into a geometry shader in picasso, so one in a program
/// whose only DVLE is a vertex shader cannot be printed as is.
#[test]
fn setemit_in_a_vertex_shader_is_reported() {
    let mut s = one(".proc main\n\tnop\n\tend\n.end\n");
    s.program.code[0] = 0x2B << 26; // setemit 0
    let d = disassemble_lossy(&s);
    assert!(
        d.warnings.iter().any(|w| w.location == Location::Instruction(0) && w.message.contains("SETEMIT")),
        "{:?}",
        d.warnings
    );
}

/// A DVOJ object holding what a golden SHBIN holds prints as that SHBIN.
#[test]
fn dvoj_prints_as_its_shbin() {
    let bytes = std::fs::read(testkit::corpus("pica/golden/citro2d__source__render2d.v.pica.shbin")).expect("golden");
    let s = Shbin::read(&bytes).expect("reads");
    let d = &s.executables[0];
    let dvoj = pica::shbin::Dvoj {
        version: 0,
        shader_type: d.shader_type,
        merge_outmaps: d.merge_outmaps,
        input_mask: d.input_mask,
        output_mask: d.output_mask,
        unknown_0c: 0xFFFF_FFFF,
        code: s.program.code.clone(),
        descriptors: s.program.descriptors.clone(),
        constants: d.constants.clone(),
        labels: vec![],
        outputs: d.outputs.clone(),
        uniforms: d.uniforms.clone(),
        symbols: d.symbols.clone(),
        line_info: vec![],
        unknown_block2: vec![],
    };
    let out = pica::disasm::disassemble_dvoj(&dvoj, &pica::disasm::Options::default());
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert!(out.text.starts_with("; a DVOJ object"));
    assert_eq!(one(&out.text).to_bytes(), bytes);
}

/// Found by `corrupted_goldens_never_panic` (a long run): a `$` stored in a uniform name cannot
/// come from picasso, which writes every `$` as `.`.
#[test]
fn stored_dollar_is_reported() {
    let mut s = one(".fvec projection[4]\n.out - position o0\n.proc main\n\tdp4 o0, projection, v0\n\tend\n.end\n");
    s.executables[0].symbols[0] = b'$';
    let d = disassemble_lossy(&s);
    assert!(d.warnings.iter().any(|w| w.message.contains("holds `$`")), "{:?}", d.warnings);
}

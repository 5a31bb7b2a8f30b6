//! Sources picasso rejects are rejected here too, with an error naming the file and the line
//! (corpus/pica/SOURCES.md: citro3d-rs's bad-shader.pica, the aemstro and nihstro
//! syntax files).

use std::path::PathBuf;

use pica::asm::{assemble, AsmError, ErrorKind, Options, Source};

fn corpus(rel: &str) -> PathBuf {
    testkit::corpus("pica").join(rel)
}

fn fails(rel: &str) -> AsmError {
    let path = corpus(rel);
    let text = std::fs::read_to_string(&path).expect("corpus file");
    let name = path.to_string_lossy().to_string();
    let err = assemble(&[Source { name: &name, text: &text }], &Options::default()).expect_err(rel);
    assert_eq!(err.file, name, "{rel}: the error names the file");
    let line_text =
        text.split('\n').nth(err.line as usize - 1).unwrap_or_else(|| panic!("{rel}: line {} exists", err.line));
    assert!(!line_text.trim().is_empty(), "{rel}: the error points at a statement, got line {}", err.line);
    assert!(err.to_string().starts_with(&format!("{name}:{}: error: ", err.line)));
    err
}

#[test]
fn citro3d_rs_bad_shader_names_its_line() {
    let err = fails("citro3d-rs/citro3d-macros/tests/bad-shader.pica");
    // `mov outpos, 1`: "1" is no register.
    assert_eq!(err.line, 7);
    assert_eq!(err.kind, ErrorKind::InvalidRegister("1".into()));
}

#[test]
fn aemstro_syntax_is_rejected() {
    for rel in ["3ds-examples/gpu/data/test.vsh", "3ds-examples/gpu/source/test.vsh"] {
        let err = fails(rel);
        // The first statement, `.const c20, ...`, is not a picasso directive.
        assert_eq!(err.kind, ErrorKind::InvalidDirective("const".into()), "{rel}");
    }
}

#[test]
fn nihstro_syntax_is_rejected() {
    for rel in
        ["nihstro/examples/assembler/cube/data/test.vsh", "nihstro/examples/assembler/cube_lighting/data/test.vsh"]
    {
        let err = fails(rel);
        // `// setup constants`: `//` is no comment in picasso (`;` is), so this is an instruction.
        assert_eq!((err.line, &err.kind), (1, &ErrorKind::OutsideBlock), "{rel}: {err}");
    }
}

fn asm_err(text: &str) -> AsmError {
    assemble(&[Source { name: "t.pica", text }], &Options::default()).expect_err(text)
}

fn asm_ok(text: &str) -> pica::asm::Assembly {
    assemble(&[Source { name: "t.pica", text }], &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn picasso_error_meanings() {
    let e = asm_err(".proc main\n  mov o1.xyz, r0[a0.x]\n  end\n.end\n");
    assert_eq!(e.to_string(), "t.pica:2: error: index register not allowed with this kind of register");
    let cases: &[(&str, u32, ErrorKind)] = &[
        ("mov r0, r1\n", 1, ErrorKind::OutsideBlock),
        (".proc main\n  add r0, v0, v1\n  end\n.end\n", 2, ErrorKind::BadInputCombination),
        (".proc main\n  mova a0.x, r0\n  mova a0.y, r1\n  end\n.end\n", 3, ErrorKind::ConsecutiveMova),
        (".proc main\n  jmpc cmp.x, nowhere\n  end\n.end\n", 2, ErrorKind::UndefinedLabel("nowhere".into())),
        (".proc main\n  call nowhere\n  end\n.end\n", 2, ErrorKind::UndefinedProc("nowhere".into())),
        (".proc main\n  end\n", 1, ErrorKind::UnclosedBlock),
        (".proc other\n  end\n.end\n", 1, ErrorKind::UndefinedEntry("main".into())),
        (".proc main\n  ifu !b0\n  .end\n  end\n.end\n", 2, ErrorKind::NoInversion("IFU")),
        (".proc main\n  add r0, r1, c0\n  end\n.end\n", 2, ErrorKind::InvalidSource { n: 2, text: "c0".into() }),
        (".fvec a\n.fvec a\n", 2, ErrorKind::DuplicateIdentifier("a".into())),
        (
            ".proc main\n  mov r0, c0[a0.x+1]\n  mov r1, c1[a0.x]\n  cmp r0, eq, ne, c0\n.end\n",
            4,
            ErrorKind::InvalidSource { n: 2, text: "c0".into() },
        ),
        ("l: l:\n", 1, ErrorKind::DuplicateLabel("l".into())),
        // Relative addressing on anything but a float uniform (picasso's words).
        (".proc main\n  mov o1.xyz, r0[a0.x]\n  end\n.end\n", 2, ErrorKind::IndexNotAllowedWithKind),
        (".alias t r3\n.proc main\n  nop\n  add r0, t[aL], r1\n  end\n.end\n", 4, ErrorKind::IndexNotAllowedWithKind),
        (".proc main\n  mad r0, v0, r1, v0[a0.y]\n  end\n.end\n", 2, ErrorKind::IndexNotAllowedWithKind),
        (".else\n", 1, ErrorKind::UnmatchedElse),
    ];
    for (src, line, kind) in cases {
        let e = asm_err(src);
        assert_eq!((e.line, &e.kind), (*line, kind), "{src}");
    }
}

#[test]
fn several_files_share_procedures_and_uniforms() {
    let lib = ".nodvle\n.fvec shared[2]\n.proc helper\n  mov r0, shared[1]\n.end\n";
    let a = ".fvec shared[2], own\n.out pos position\n.proc main\n  call helper\n  mov pos, own\n  end\n.end\n";
    let b = ".fvec other, shared[2]\n.constf k(1.0, 2.0, 3.0, 4.0)\n.out pos position\n.entry bmain\n.proc bmain\n  call helper\n  mov pos, k\n  end\n.end\n";
    let out = assemble(
        &[
            Source { name: "lib.pica", text: lib },
            Source { name: "a.pica", text: a },
            Source { name: "b.pica", text: b },
        ],
        &Options::default(),
    )
    .unwrap();
    let s = &out.shbin;
    assert_eq!(s.executables.len(), 2, ".nodvle makes no DVLE");
    // helper is one instruction; main = call, nop (padding after CALL is not needed mid-block), ...
    let (ea, eb) = (&s.executables[0], &s.executables[1]);
    assert!(ea.main > 0 && eb.main > ea.main);
    // `shared` is at c0 for both files, `own` c2, `other` c3.
    let names = |d: &pica::shbin::Dvle| {
        d.uniforms.iter().map(|u| (d.symbol(u.symbol).unwrap().to_string(), u.start)).collect::<Vec<_>>()
    };
    assert_eq!(names(ea), vec![("shared".to_string(), 0x10), ("own".to_string(), 0x12)]);
    assert_eq!(names(eb), vec![("shared".to_string(), 0x10), ("other".to_string(), 0x13)]);
    // The constant of b is allocated from the top: c95.
    assert_eq!(eb.constants.len(), 1);
    assert!(out.header.contains("#define VSH_FVEC_shared 0x00\n#define VSH_ULEN_shared 2\n"));
    assert!(out.header.contains("#define VSH_FVEC_other 0x03\n"));
}

#[test]
fn padding_nops_and_no_nop_warnings() {
    // A CALL as the last instruction of an IF body needs a NOP before the block ends.
    let src = ".proc f\n  nop\n.end\n.bool b\n.proc main\n  ifu b\n    call f\n  .end\n  end\n.end\n";
    let with = asm_ok(src);
    let without = assemble(&[Source { name: "t.pica", text: src }], &Options { auto_nop: false }).unwrap();
    assert_eq!(with.shbin.program.code.len(), without.shbin.program.code.len() + 1);
    assert_eq!(without.warnings.len(), 1);
    assert_eq!(without.warnings[0].line, 8);
    // An empty procedure still gets one instruction.
    let empty = asm_ok(".proc e\n.end\n.proc main\n  end\n.end\n");
    assert_eq!(empty.shbin.program.code[0], 0x8400_0000);
}

#[test]
fn legacy_and_new_index_register_names_agree() {
    let code = |idx: &str, mova: &str| {
        let src = format!(".fvec arr[4]\n.proc main\n  mova {mova}, r0\n  mov r1, arr[{idx}+1]\n  end\n.end\n");
        asm_ok(&src).shbin.program.code
    };
    assert_eq!(code("a0.x", "a0.x"), code("a0", "a0"));
    assert_eq!(code("a0.y", "a0.y"), code("a1", "a1"));
    assert_eq!(code("aL", "a0.xy"), code("lcnt", "a01"));
}

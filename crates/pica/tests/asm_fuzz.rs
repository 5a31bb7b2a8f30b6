//! The assembler never panics: random text, statement soup built from picasso's vocabulary, and
//! mutated corpus sources either assemble (and then the SHBIN reads back to the same model) or
//! fail with an error at a line of the input. Case count from PROPTEST_CASES (CI: 256).

use pica::asm::{assemble, Options, Source};
use pica::shbin::Shbin;
use proptest::prelude::*;

fn corpus_sources() -> Vec<String> {
    let root = &testkit::corpus("pica");
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).expect("corpus dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                if !p.ends_with("golden") {
                    dirs.push(p);
                }
            } else if matches!(p.extension().and_then(|x| x.to_str()), Some("pica" | "vsh")) {
                out.push(std::fs::read_to_string(&p).expect("source"));
            }
        }
    }
    out.sort();
    out
}

/// Assembles and checks the invariants that hold for any input.
fn check(texts: &[&str], auto_nop: bool) -> Result<(), TestCaseError> {
    let names: Vec<String> = (0..texts.len()).map(|i| format!("f{i}.pica")).collect();
    let sources: Vec<Source> = texts.iter().zip(&names).map(|(t, n)| Source { name: n, text: t }).collect();
    match assemble(&sources, &Options { auto_nop }) {
        Ok(out) => {
            let bytes = out.to_bytes();
            let back = Shbin::read(&bytes)
                .map_err(|e| TestCaseError::fail(format!("written SHBIN does not read back: {e}")))?;
            prop_assert_eq!(back, out.shbin);
        }
        Err(e) => {
            prop_assert!(e.line >= 1, "error without a line: {}", e);
            prop_assert!(!e.file.is_empty());
        }
    }
    Ok(())
}

const WORDS: &[&str] = &[
    ".proc main",
    ".proc f",
    ".end",
    ".else",
    ".fvec a[4], b",
    ".ivec i",
    ".bool flag, fl[2]",
    ".constf k(1.0, -2.5, 0.1, 3)",
    ".consti n(4, 0, 1, 0)",
    ".constfa arr[2]",
    ".constfa (1, 2, 3, 4)",
    ".out o position",
    ".out - dummy o7",
    ".out t texcoord0.xy",
    ".in p v0",
    ".in q",
    ".alias x r3.wzyx",
    ".entry f",
    ".nodvle",
    ".gsh",
    ".gsh point c10",
    ".gsh fixed c20 c0 4",
    ".gsh variable c8 3",
    ".setf c5(1, 2, 3, 4)",
    ".seti i1(1, 2, 3, 4)",
    ".setb b1 true",
    "mov r0, v0",
    "mov o, a[1].x",
    "add r1, -r0.yyyy, c3",
    "dp4 r0.x, a[a0.x+2], r1",
    "mad r2, v1, c4, r3",
    "mad r2, v1, r4, c4",
    "mova a0.xy, r0",
    "cmp r0, lt, ge, r1",
    "ifc cmp.x && !cmp.y",
    "ifu flag",
    "jmpc cmp.x, lab",
    "jmpu !flag, lab",
    "lab:",
    "call f",
    "callc cmp.y, f",
    "callu flag, f",
    "for i",
    "loop n",
    "breakc cmp.x",
    "break",
    "setemit 1, prim inv",
    "emit",
    "nop",
    "end",
    "sge r0, v1, c3",
    "slt r0, r1, r2",
    "rcp r0, c1.x",
    "rsq r0.w, r1",
    "flr r1, r1",
    "litp r0, r1",
    "ex2 r0, r1",
    "lg2 r0, r1",
    "dst r0, r1, c1",
    "dph r0, r1, c2",
    "min r0, r1, r2",
    "max r0, c1, r2",
    "; comment",
    "",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 0..40).prop_map(|w| w.join("\n"))
}

#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, &'static str),
    Truncate(usize),
    Byte(usize, u8),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<usize>(), 0usize..20).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), prop::sample::select(WORDS)).prop_map(|(a, w)| Edit::Insert(a, w)),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), prop::sample::select(&b"[]().,;:!-+&|$#\n 0123xyzwvorcib"[..]))
            .prop_map(|(a, b)| Edit::Byte(a, b)),
    ];
    prop::collection::vec(edit, 1..6)
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut b = text.as_bytes().to_vec();
    for e in edits {
        let len = b.len().max(1);
        match *e {
            Edit::Delete(a, n) => {
                let a = a % len;
                let end = (a + n).min(b.len());
                if a < end {
                    b.drain(a..end);
                }
            }
            Edit::Insert(a, w) => {
                let a = a % (b.len() + 1);
                let mut s = format!("\n{w}\n").into_bytes();
                s.extend_from_slice(&b[a..]);
                b.truncate(a);
                b.extend_from_slice(&s);
            }
            Edit::Truncate(a) => b.truncate(a % len),
            Edit::Byte(a, c) => {
                if !b.is_empty() {
                    let a = a % b.len();
                    b[a] = c;
                }
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

proptest! {
    #[test]
    fn random_text_never_panics(text in "\\PC{0,400}", auto_nop in any::<bool>()) {
        check(&[&text], auto_nop)?;
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check(&[&String::from_utf8_lossy(&bytes)], true)?;
    }

    #[test]
    fn statement_soup_never_panics(a in soup(), b in soup(), auto_nop in any::<bool>()) {
        check(&[&a, &b], auto_nop)?;
    }

    #[test]
    fn mutated_corpus_sources_never_panic(pick in any::<prop::sample::Index>(), edits in edits()) {
        let sources = corpus_sources();
        let text = &sources[pick.index(sources.len())];
        check(&[&apply(text, &edits)], true)?;
    }
}

/// Inputs that once broke an invariant, kept as regressions.
#[test]
fn regressions() {
    for text in [
        "\u{80}:",
        ".proc main\n:\n.end",
        ".out o0 pos o15",
        ".gsh fixed c0 c0 4",
        ".constfa a[]\n.end",
        ".fvec x[0]",
        "#\x0b\n",
        "# 0 \"x\"\nnop",
    ] {
        check(&[text], true).unwrap();
    }
}

proptest! {
    /// Every program of the smith generator is valid picasso: it assembles, and its SHBIN reads
    /// back to the same model.
    #[test]
    fn smith_programs_assemble(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        let mut u = arbitrary::Unstructured::new(&bytes);
        let text = pica::asm::smith::program(&mut u, &pica::asm::smith::Config::default()).expect("generator");
        let out = assemble(&[Source { name: "smith.pica", text: &text }], &Options::default());
        let out = out.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let bytes = out.to_bytes();
        prop_assert_eq!(Shbin::read(&bytes).expect("reads back"), out.shbin);
    }
}

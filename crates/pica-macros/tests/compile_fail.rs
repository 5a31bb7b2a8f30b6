//! An assembler error stops the build at the macro call, naming the file and line (trybuild
//! compares the compiler's output with tests/ui/*.stderr; `TRYBUILD=overwrite` rewrites them).

#[test]
fn the_corpus_bad_shader_fails_at_the_call() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}

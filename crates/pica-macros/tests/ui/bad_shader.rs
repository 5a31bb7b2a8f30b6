// The corpus's negative test (citro3d-rs's bad-shader.pica, which picasso rejects): the build
// stops at the call with the file, the line and the assembler's message.
static SHADER: &[u8] = pica_macros::include_pica!("../../../../corpus/pica/citro3d-rs/citro3d-macros/tests/bad-shader.pica");

fn main() {
    let _ = SHADER;
}

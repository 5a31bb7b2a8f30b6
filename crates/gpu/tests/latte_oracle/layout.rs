//! What the oracle needs to know of the compiler's register allocation, read off each program
//! (its EXPORT PARAM instructions and the values they carry): which GLSL output component each
//! exported vertex-program component holds, the pixel program's extra inputs (position, face),
//! and each stage's operation class. Written with `LATTE_ORACLE_DISCOVER=1` (which prints,
//! for each export component, the GLSL output it equals) and checked against the disassembly.

use super::Class;

/// The vertex program's exports (other than pos0 = gl_Position) and the GLSL output component of
/// each of their four components (`-`: not a GLSL output).
pub fn vertex(test: &str) -> &'static [(&'static str, [&'static str; 4])] {
    match test {
        _ => &[],
    }
}

/// Pixel-program input GPRs that are no VS parameter: (GPR, the four values).
pub fn pixel_extra(test: &str) -> &'static [(usize, [&'static str; 4])] {
    match test {
        "t20_mrt_fragdepth" => &[(3, ["fragcoord.x", "fragcoord.y", "fragcoord.z", "fragcoord.w"]), (4, ["face", "-", "-", "-"])],
        _ => &[],
    }
}

/// The operation class of a test's stage: the least exact operation on a path to its outputs.
pub fn class(test: &str, stage: &str) -> Class {
    let _ = (test, stage);
    Class::Exact
}

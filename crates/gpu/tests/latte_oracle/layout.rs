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
        "t01_if_else" => &[
            ("param0", ["v_uv.x", "v_uv.y", "v_col.x", "v_col.y"]),
            ("param1", ["v_col.z", "v_col.w", "v_nrm.x", "v_nrm.y"]),
            ("param2", ["v_nrm.z", "-", "-", "-"]),
        ],
        "t02_nested_if" => &[
            ("param0", ["v_uv.x", "v_uv.y", "v_col.x", "v_col.y"]),
            ("param1", ["v_col.z", "v_col.w", "v_nrm.x", "v_nrm.y"]),
            ("param2", ["v_nrm.z", "-", "-", "-"]),
        ],
        "t03_loop_const" => &[("param0", ["v_uv.x", "v_uv.y", "-", "-"])],
        "t04_loop_uniform" => &[("param0", ["v_uv.x", "v_uv.y", "-", "-"])],
        "t05_break_continue" => &[("param0", ["v_uv.x", "v_uv.y", "v_col.x", "v_col.w"])],
        "t06_while" => &[("param0", ["v_uv.x", "v_uv.y", "v_col.x", "v_col.y"])],
        "t07_discard" => {
            &[("param0", ["v_uv.x", "v_uv.y", "v_col.x", "v_col.y"]), ("param1", ["v_col.z", "v_col.w", "-", "-"])]
        }
        "t08_discard_loop" => &[("param0", ["v_uv.x", "v_uv.y", "v_col.z", "-"])],
        "t09_ubo_dynamic" => &[("param0", ["v_uv.x", "v_uv.y", "v_col.x", "v_nrm.x"])],
        "t10_ubo_multi" => &[("param0", ["-", "-", "-", "-"]), ("param1", ["v_nrm.x", "v_nrm.y", "v_nrm.z", "-"])],
        "t11_int_bitops" => &[("param0", ["v_ia.x", "v_ia.y", "-", "v_ub.x"]), ("param1", ["v_ub.y", "-", "-", "-"])],
        "t12_tex2d_variants" => {
            &[("param0", ["v_uv.x", "v_uv.y", "-", "v_col.y"]), ("param1", ["v_col.z", "-", "-", "-"])]
        }
        "t13_texcube" => &[("param0", ["-", "-", "-", "-"]), ("param1", ["v_nrm.x", "v_nrm.y", "v_nrm.z", "-"])],
        "t14_shadow" => &[
            ("param0", ["v_uv.x", "v_uv.y", "v_col.y", "v_col.z"]),
            ("param1", ["-", "v_nrm.x", "v_nrm.y", "v_nrm.z"]),
        ],
        "t15_tex_array_3d" => {
            &[("param0", ["v_uv.x", "v_uv.y", "-", "v_col.y"]), ("param1", ["v_col.z", "-", "-", "-"])]
        }
        "t16_derivatives" => {
            &[("param0", ["v_uv.x", "v_uv.y", "v_col.x", "-"]), ("param1", ["v_nrm.x", "v_nrm.y", "v_nrm.z", "-"])]
        }
        "t19_many_varyings" => &[
            ("param0", ["gl_ClipDistance[0]", "v0.z", "-", "-"]),
            ("param1", ["v3.w", "v0.x", "v0.y", "v0.z"]),
            ("param10", ["-", "-", "-", "-"]),
            ("param2", ["v0.w", "v1.x", "v1.y", "v1.z"]),
            ("param3", ["v1.w", "v2.x", "v2.y", "v2.z"]),
            ("param4", ["v2.w", "-", "-", "-"]),
            ("param5", ["v4.x", "v4.y", "v4.z", "v4.w"]),
            ("param6", ["v5.x", "v5.y", "v5.z", "v5.w"]),
            ("param7", ["v6.x", "v6.y", "v6.z", "-"]),
            ("param8", ["v11.x", "v11.y", "v11.z", "v11.w"]),
            ("param9", ["v10.x", "v10.y", "v10.z", "v10.w"]),
            ("pos1", ["gl_ClipDistance[0]", "v0.z", "-", "-"]),
        ],
        "t20_mrt_fragdepth" => &[
            ("param0", ["v_uv.x", "v_uv.y", "v_col.x", "v_col.y"]),
            ("param1", ["v_col.z", "v_col.w", "-", "-"]),
            ("param2", ["-", "-", "-", "-"]),
        ],
        "t21_vertexid_instanceid" => &[("param0", ["v_uv.x", "v_col.y", "v_col.x", "v_col.y"])],
        "t22_switch" => &[("param0", ["v_uv.x", "v_uv.y", "-", "-"]), ("param1", ["v_mode", "-", "-", "-"])],
        "t23_transcendental" => {
            &[("param0", ["v_uv.x", "-", "-", "v_col.y"]), ("param1", ["v_col.z", "v_col.w", "-", "-"])]
        }
        "t24_indirect_temp" => &[
            ("param0", ["v_col.x", "v_col.y", "v_col.z", "v_col.w"]),
            ("param1", ["v_uv.x", "v_uv.y", "-", "-"]),
            ("param2", ["v_idx", "-", "-", "-"]),
        ],
        "t25_nested_loops" => &[("param0", ["v_uv.x", "v_uv.y", "v_col.y", "v_col.w"])],
        "t26_bool_select" => &[
            ("param0", ["v_uv.x", "v_uv.y", "v_col.x", "v_col.y"]),
            ("param1", ["v_col.z", "v_col.w", "v_nrm.x", "v_nrm.y"]),
            ("param2", ["v_nrm.z", "-", "-", "-"]),
        ],
        "t27_vs_texture_loop" => &[("param0", ["v_uv.x", "v_uv.y", "v_col.x", "v_nrm.x"])],
        "t28_func_calls" => {
            &[("param0", ["v_uv.x", "v_uv.y", "v_col.x", "v_col.y"]), ("param1", ["v_col.z", "-", "-", "-"])]
        }
        "t29_stream_out" => &[
            ("param0", ["v_uv.x", "v_uv.y", "x_world.x", "x_world.y"]),
            ("param1", ["x_world.z", "x_world.w", "x_len", "x_world.x"]),
            ("param2", ["x_world.y", "x_world.z", "x_world.w", "x_uv.x"]),
            ("param3", ["x_uv.y", "x_len", "-", "-"]),
        ],
        "t30_vs_loop_branch" => &[
            ("param0", ["v_uv.x", "v_uv.y", "v_col.x", "v_col.y"]),
            ("param1", ["v_col.z", "v_col.w", "v_nrm.x", "-"]),
        ],
        _ => &[],
    }
}

/// Pixel programs whose inputs are not GLSL varyings: Mesa moved arithmetic across the stages
/// (t10's VS exports `v_uv.x * 15.0` and `-v_col.xyz`, vs.disasm.txt group 1), so a `-` in the
/// vertex table above is a value the table cannot feed from the varyings.
pub fn pixel_blocked(test: &str) -> Option<&'static str> {
    match test {
        "t10_ubo_multi"
        | "t12_tex2d_variants"
        | "t13_texcube"
        | "t15_tex_array_3d"
        | "t21_vertexid_instanceid"
        | "t23_transcendental" => {
            Some("the compiler moved arithmetic into the vertex program; its inputs are not the varyings")
        }
        _ => None,
    }
}

/// Pixel stages that run and are reported but are known not to agree yet, and why. The test
/// requires them to disagree still (a row that starts agreeing must leave this list).
///
/// All are the harness's linkage, not the interpreter: the pixel program reads a vertex-program
/// export that the table above cannot name, because Mesa's linker folded what the vertex program
/// writes into both stages (a constant, a value written to several varyings, a derived value),
/// while the GLSL pixel stage gets independent inputs for every varying component.
pub fn pixel_open(test: &str) -> Option<&'static str> {
    match test {
        // common.frag reads v_uv, v_col and v_nrm.x; the vertex program exports one parameter:
        // t06 writes v_col = vec4(n, f, 0, 1), t09 v_col = vec4(distance), t27 v_col = vec4(h)
        // and a constant v_nrm, t29 v_col = x_world and v_nrm = vec3(x_len).
        "t06_while" | "t09_ubo_dynamic" | "t27_vs_texture_loop" | "t29_stream_out" => {
            Some("linkage: the vertex program's constant or repeated varyings were folded into the pixel program")
        }
        // Parameters (components) the pixel program reads that no GLSL output equals ("-"
        // above): t11 param0.z and param1.yzw, t16 param0.w, t19 param4.yzw and param10,
        // t20 param2 (v_nrm).
        "t11_int_bitops" | "t16_derivatives" | "t19_many_varyings" | "t20_mrt_fragdepth" => {
            Some("linkage: the pixel program reads vertex-program exports the table cannot name")
        }
        _ => None,
    }
}

/// Pixel-program input GPRs that are no VS parameter: (GPR, the four values).
pub fn pixel_extra(test: &str) -> &'static [(usize, [&'static str; 4])] {
    match test {
        "t20_mrt_fragdepth" => {
            &[(3, ["fragcoord.x", "fragcoord.y", "fragcoord.z", "fragcoord.w"]), (4, ["face", "-", "-", "-"])]
        }
        _ => &[],
    }
}

/// Uniform-buffer words the compiler's program reads that no GLSL uniform holds: constant
/// arrays Mesa moved into the uniform buffer (the host must upload them; the .gsh has no initial
/// values for them). (bank, first word, values.)
pub fn uniform_extra(test: &str) -> Vec<(u8, usize, Vec<f32>)> {
    match test {
        // `corners[gl_VertexID & 3]`: VFETCH of buffer 0 at byte 0x80 + 16 * index, 32_32 float
        // (vs.disasm.txt groups 1-4).
        "t21_vertexid_instanceid" => {
            vec![(0, 32, vec![-1.0, -1.0, 0.0, 0.0, 1.0, -1.0, 0.0, 0.0, -1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0])]
        }
        _ => Vec::new(),
    }
}

/// The operation class of a test's stage: the least exact operation on a path to its outputs
/// (read off the GLSL; docs/latte-oracle.md "Tolerances").
pub fn class(test: &str, stage: &str) -> Class {
    let n = &test[..3];
    match (stage, n) {
        // common.vert's normalize (RECIPSQRT_IEEE); t23's sin, cos, exp, log, pow, inversesqrt,
        // inverse(), asin, atan; t30's normalize.
        ("vs", "t01" | "t02" | "t07" | "t10" | "t13" | "t14" | "t16" | "t23" | "t26" | "t30") => Class::Transcendental,
        // The skinning sum of four weighted matrices: Mesa reorders the products and sums.
        ("vs", "t09") => Class::Reordered,
        ("vs", _) => Class::Exact,
        // sqrt; exp2, log2, division; normalize; derivatives with normalize and smoothstep; sin, cos.
        ("ps", "t01" | "t02" | "t10" | "t16" | "t22") => Class::Transcendental,
        // 1 / (fi + 1), acc / float(n), gl_FragCoord.w = 1 / w.
        ("ps", "t03" | "t04" | "t20") => Class::Divide,
        _ => Class::Exact,
    }
}

//! Geometry programs with their copy program (latte-semantics-facts.md §4.5): corpus t17's
//! geometry program (three vertices, EndPrimitive, then three more when v_col[0].x > 0.5) and
//! its copy program, run per emitted vertex through `run_geometry`. The expected outputs follow
//! the GLSL (corpus/latte-mesa/glsl/t17_gs_passthrough.geom) and the compiler's packing of the
//! ESGS ring read off the program: slot 0 is gl_Position, slot 1 holds g_col in its z...; the
//! copy program exports ring slot 0 as POS0 and slots 1, 2 as PARAM0, PARAM1.

mod common;
mod interp;
use interp::*;
use latte::interp::{run_geometry, Buffer, Config, Inputs, Invocation, Vm};
use latte::isa::Program;

fn program(name: &str) -> Program {
    let bytes =
        std::fs::read(common::corpus().join(format!("latte-mesa/programs/t17_gs_passthrough/{name}.bin"))).unwrap();
    Program::decode_bytes(&bytes, 0).unwrap()
}

/// ESGS ring value of input vertex v, slot s, component c.
fn esgs(v: usize, s: usize, c: usize) -> f32 {
    (100 * v + 10 * s + c) as f32
}

fn run(col_x: f32) -> Vec<latte::interp::GsOutput> {
    let (gs, copy) = (program("gs"), program("gscopy"));
    let mut words = Vec::new();
    for v in 0..3 {
        for s in 0..4 {
            for c in 0..4 {
                words.push(if (v, s, c) == (0, 1, 2) { fb(col_x) } else { fb(esgs(v, s, c)) });
            }
        }
    }
    let mut inputs = Inputs::default();
    inputs
        .buffers
        .insert(17, Buffer { data: words.iter().flat_map(|w| w.to_le_bytes()).collect(), stride: 16, format: None });
    inputs.uniform_blocks.insert(0, vec![fb(0.5), 0, 0, 0]);
    // The per-vertex ESGS offsets in R0.x, R0.y, R0.w (vec4 units: 64 bytes per vertex).
    let invs = [Invocation { gprs: vec![(0, [0, 4, 0, 8])], invalid: false }];
    run_geometry(&Vm::new(&gs), &Vm::new(&copy), &inputs, &Config::default(), &invs).unwrap()
}

#[test]
fn copy_program_runs_per_emitted_vertex() {
    let out = run(0.25);
    assert_eq!(out.len(), 1);
    let o = &out[0];
    assert_eq!(o.vertices.len(), 3, "v_col[0].x <= 0.5: one triangle");
    assert_eq!(o.strips, [vec![0, 1, 2]]);
    for (k, v) in o.vertices.iter().enumerate() {
        let pos = export(v, "pos0").unwrap().map(bf);
        assert_eq!(pos, [0, 1, 2, 3].map(|c| esgs(k, 0, c)), "vertex {k}: gl_Position passes through");
        let p0 = export(v, "param0").unwrap().map(bf);
        let want: [f32; 4] = std::array::from_fn(|c| if (k, c) == (0, 2) { 0.25 } else { esgs(k, 1, c) });
        assert_eq!(p0, want, "vertex {k}: slot 1");
        let p1 = export(v, "param1").unwrap().map(bf);
        assert_eq!(p1[..2], [esgs(k, 2, 0), esgs(k, 2, 1)], "vertex {k}: slot 2.xy");
    }
}

#[test]
fn second_primitive_when_the_condition_holds() {
    let out = run(0.75);
    let o = &out[0];
    assert_eq!(o.vertices.len(), 6);
    assert_eq!(o.strips, [vec![0, 1, 2], vec![3, 4, 5]]);
    for k in 0..3 {
        let pos = export(&o.vertices[3 + k], "pos0").unwrap().map(bf);
        assert_eq!(pos, [esgs(k, 0, 0) + 0.5, esgs(k, 0, 1), esgs(k, 0, 2), esgs(k, 0, 3)], "u_offset added to x");
    }
    assert_eq!(o.gs.gs_events.len(), 8, "6 EMIT_VERTEX and 2 CUT_VERTEX");
}

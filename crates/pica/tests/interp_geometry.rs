//! Geometry shader machinery: SETEMIT/EMIT and the vertex buffer, winding, b15 after each
//! invocation, and how point, fixed and variable modes feed vertices.

mod interp_common;
use interp_common::*;
use pica::interp::{run_geometry, GeometryError, GeometryMode, Interpreter, Program, RunError, ShaderKind};

fn program(p: &Builder) -> Program {
    let b = p.finish().unwrap();
    Program::new(&b.code, &b.descriptor_words).unwrap()
}

/// `mov o0, <src>; setemit k (flags); emit` for k = 0, 1, 2 with o0 = v0, v1, v2.
fn triangle(inverted: bool) -> Builder {
    let mut p = Builder::new();
    for k in 0..3u8 {
        p.unary(Opcode::Mov, o(0), v(k), NONE, all());
        p.setemit(k, inverted && k == 2, k == 2);
        p.plain(Opcode::Emit);
    }
    p.plain(Opcode::End);
    p
}

#[test]
fn emit_builds_a_triangle_and_winding_reverses_it() {
    for inverted in [false, true] {
        let prog = program(&triangle(inverted));
        let mut it = Interpreter::new(&prog, ShaderKind::Geometry);
        let mut v = [[0.0; 4]; 16];
        v[0] = [1.0; 4];
        v[1] = [2.0; 4];
        v[2] = [3.0; 4];
        let prims = run_geometry(&mut it, 0, GeometryMode::Point, &[v], 3, None).unwrap();
        assert_eq!(prims.len(), 1);
        assert_eq!(prims[0].inverted, inverted);
        let xs: Vec<f32> = prims[0].vertices.iter().map(|v| v[0][0]).collect();
        assert_eq!(xs, vec![1.0, 2.0, 3.0]);
        let ordered: Vec<f32> = prims[0].ordered().iter().map(|v| v[0][0]).collect();
        assert_eq!(ordered, if inverted { vec![1.0, 3.0, 2.0] } else { vec![1.0, 2.0, 3.0] });
    }
}

#[test]
fn the_vertex_buffer_persists_between_primitives_and_invocations() {
    // Invocation 1 emits a triangle; invocation 2 only replaces vertex 0 and emits again.
    // 0 ifu b15 (then: 1; else: 2-8), 1 nop, 2-7 vertices 0 and 1, 8 nop, 9-11 vertex 2 + prim.
    let mut p = Builder::new();
    p.uniform(Opcode::Ifu, 2, 7, 15);
    p.plain(Opcode::Nop);
    for k in 0..2u8 {
        p.unary(Opcode::Mov, o(0), v(k), NONE, all());
        p.setemit(k, false, false);
        p.plain(Opcode::Emit);
    }
    p.plain(Opcode::Nop);
    p.unary(Opcode::Mov, o(0), v(2), NONE, all());
    p.setemit(2, false, true);
    p.plain(Opcode::Emit);
    p.plain(Opcode::End);
    let prog = program(&p);
    let mut it = Interpreter::new(&prog, ShaderKind::Geometry);
    let mut first = [[0.0; 4]; 16];
    first[0] = [1.0; 4];
    first[1] = [2.0; 4];
    first[2] = [3.0; 4];
    let mut second = first;
    second[2] = [9.0; 4];
    let prims = run_geometry(&mut it, 0, GeometryMode::Point, &[first, second], 3, None).unwrap();
    assert_eq!(prims.len(), 2);
    let xs = |i: usize| -> Vec<f32> { prims[i].vertices.iter().map(|v| v[0][0]).collect() };
    assert_eq!(xs(0), vec![1.0, 2.0, 3.0]);
    // b15 is true in the second invocation: only vertex 2 is replaced; 0 and 1 are kept.
    assert_eq!(xs(1), vec![1.0, 2.0, 9.0]);
    assert!(it.uniforms().bools[15]);
}

#[test]
fn emit_in_a_vertex_shader_is_an_error() {
    let prog = program(&triangle(false));
    let mut it = Interpreter::new(&prog, ShaderKind::Vertex);
    assert_eq!(it.run(0, &[[0.0; 4]; 16]).unwrap_err(), RunError::GeometryOnly { pc: 1, what: "SETEMIT" });
}

/// `mov o0, c{k}` for each of the first `n` constants, then emit as one triangle.
fn dump_constants(n: u8) -> Builder {
    let mut p = Builder::new();
    for k in 0..n {
        p.unary(Opcode::Mov, o(k), c(k), NONE, all());
    }
    p.setemit(0, false, true);
    p.plain(Opcode::Emit);
    p.plain(Opcode::End);
    p
}

#[test]
fn fixed_mode_writes_vertex_attributes_from_the_start_register() {
    let prog = program(&dump_constants(7));
    let mut it = Interpreter::new(&prog, ShaderKind::Geometry);
    let vert = |k: f32| {
        let mut v = [[0.0; 4]; 16];
        v[0] = [k; 4];
        v[1] = [10.0 + k; 4];
        v
    };
    let mode = GeometryMode::Fixed { start: 1, vertices: 3 };
    let prims = run_geometry(&mut it, 0, mode, &[vert(1.0), vert(2.0), vert(3.0)], 2, None).unwrap();
    let got: Vec<f32> = (0..7).map(|k| prims[0].vertices[0][k][0]).collect();
    // c0 untouched; c1.. = v0 attr0, attr1, v1 attr0, attr1, v2 attr0, attr1.
    assert_eq!(got, vec![0.0, 1.0, 11.0, 2.0, 12.0, 3.0, 13.0]);
    let err = run_geometry(&mut it, 0, mode, &[vert(1.0)], 2, None).unwrap_err();
    assert_eq!(err, GeometryError::Incomplete { per: 3, left: 1 });
}

#[test]
fn variable_mode_puts_the_count_in_c0_and_full_vertices_first() {
    let prog = program(&dump_constants(7));
    let mut it = Interpreter::new(&prog, ShaderKind::Geometry);
    let vert = |k: f32| {
        let mut v = [[0.0; 4]; 16];
        v[0] = [k; 4];
        v[1] = [10.0 + k; 4];
        v
    };
    let mode = GeometryMode::Variable { full_vertices: 2 };
    let verts = [vert(1.0), vert(2.0), vert(3.0), vert(4.0)];
    let prims = run_geometry(&mut it, 0, mode, &verts, 2, Some(&[4])).unwrap();
    let got: Vec<f32> = (0..7).map(|k| prims[0].vertices[0][k][0]).collect();
    // c0 = count; two full vertices (2 attributes each), then attribute 0 of the others.
    assert_eq!(got, vec![4.0, 1.0, 11.0, 2.0, 12.0, 3.0, 4.0]);
    let err = run_geometry(&mut it, 0, mode, &verts, 2, Some(&[3])).unwrap_err();
    assert_eq!(err, GeometryError::Counts { sum: 3, have: 4 });
}

#[test]
fn runaway_emitting_stops_at_the_primitive_cap() {
    // setemit 0, prim ; emit ; jmpu b0 (true) back to the emit.
    let mut p = Builder::new();
    p.setemit(0, false, true);
    p.plain(Opcode::Emit);
    p.uniform(Opcode::Jmpu, 1, 0, 0);
    let prog = program(&p);
    let mut it = Interpreter::new(&prog, ShaderKind::Geometry);
    it.set_bool(0, true);
    let err = it.run(0, &[[0.0; 4]; 16]).unwrap_err();
    assert_eq!(err, RunError::TooManyPrimitives { pc: 1 });
    assert_eq!(it.take_primitives().len(), pica::interp::MAX_PRIMITIVES);
}

//! Every executable of every golden SHBIN of the corpus runs on random inputs without error, and
//! two geometry shaders emit the primitives their sources describe (checked by hand).

use std::path::{Path, PathBuf};

use pica::interp::{run_geometry, GeometryMode, Primitive, Shader, ShaderKind, Vec4};
use pica::shbin::{Shbin, UniformReg};

fn golden() -> PathBuf {
    testkit::corpus("pica/golden")
}

fn shbins() -> Vec<PathBuf> {
    testkit::files(&golden(), "shbin")
}

/// Reproducible random inputs over the shared seeded source.
struct Rng(testkit::Rng);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// A float24 value in [-4, 4) with a few bits of fraction (exact).
    fn value(&mut self) -> f32 {
        ((self.next() % 1024) as f32 - 512.0) / 128.0
    }
    fn vec4(&mut self) -> Vec4 {
        [self.value(), self.value(), self.value(), self.value()]
    }
}

/// Uniforms that steer a program's loops, given values its application would give (random
/// garbage there is a runaway program by design, not an interpreter failure): the particle
/// shader's particle count and the parameters of its PRNG, whose rejection loop never ends when
/// `m` is not positive.
fn control_uniforms(path: &Path, rng: &mut Rng) -> Vec<(&'static str, Vec4)> {
    if path.to_string_lossy().contains("particle.g.pica") {
        let particles = (1 + rng.next() % 4) as f32;
        vec![("param", [particles, 0.25, 1.0, 0.0]), ("randParam", [5.0, 3.0, 16.0, 0.0625])]
    } else {
        Vec::new()
    }
}

fn random_vertices(rng: &mut Rng, n: usize) -> Vec<[Vec4; 16]> {
    (0..n).map(|_| std::array::from_fn(|_| rng.vec4())).collect()
}

#[test]
fn every_corpus_executable_runs_on_random_inputs() {
    let mut executables = 0;
    let mut invocations = 0;
    let mut primitives = 0;
    for path in shbins() {
        let file = Shbin::read(&std::fs::read(&path).unwrap()).unwrap();
        for index in 0..file.executables.len() {
            let shader = Shader::from_shbin(&file, index).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let dvle = &file.executables[index];
            let mut rng = Rng(testkit::Rng::new(0x9E37_79B9_7F4A_7C15 ^ executables as u64));
            for round in 0..8 {
                let mut it = shader.interpreter();
                // Random values for every float uniform the DVLE declares (its constants stay) and
                // random booleans; integer uniforms keep their declared values.
                for u in &dvle.uniforms {
                    for raw in u.start..=u.end {
                        match UniformReg::from_raw(raw) {
                            UniformReg::Float(i) if (i as usize) < 96 => it.set_float(i as usize, rng.vec4()),
                            UniformReg::Bool(i) if i < 16 => it.set_bool(i as usize, rng.next() & 1 == 1),
                            _ => {}
                        }
                    }
                }
                for (name, value) in control_uniforms(&path, &mut rng) {
                    let dvle_u = dvle.uniforms.iter().find(|u| dvle.symbol(u.symbol) == Some(name)).unwrap();
                    if let UniformReg::Float(i) = UniformReg::from_raw(dvle_u.start) {
                        it.set_float(i as usize, value);
                    }
                }
                match (shader.kind, shader.geometry) {
                    (ShaderKind::Vertex, _) => {
                        for v in random_vertices(&mut rng, 16) {
                            it.run(shader.entry, &v)
                                .unwrap_or_else(|e| panic!("{} round {round}: {e}", path.display()));
                            invocations += 1;
                        }
                    }
                    (_, Some(mode)) => {
                        let (vertices, counts) = match mode {
                            GeometryMode::Point => (random_vertices(&mut rng, 4), None),
                            GeometryMode::Fixed { vertices, .. } => {
                                (random_vertices(&mut rng, 2 * vertices as usize), None)
                            }
                            GeometryMode::Variable { full_vertices } => {
                                // One primitive of the full vertices plus a few neighbours.
                                let n = full_vertices as usize + 6;
                                (random_vertices(&mut rng, n), Some(vec![n]))
                            }
                        };
                        let stride = 3;
                        let out = run_geometry(&mut it, shader.entry, mode, &vertices, stride, counts.as_deref())
                            .unwrap_or_else(|e| panic!("{} round {round}: {e}", path.display()));
                        primitives += out.len();
                        invocations += 1;
                    }
                    (ShaderKind::Geometry, None) => unreachable!(),
                }
            }
            executables += 1;
        }
    }
    eprintln!("{executables} executables, {invocations} invocations, {primitives} primitives");
    assert!(executables >= 31, "corpus executables found: {executables}");
    assert!(primitives > 0);
}

fn load(name: &str) -> (Shbin, Shader) {
    let file = Shbin::read(&std::fs::read(golden().join(name)).unwrap()).unwrap();
    let shader = Shader::from_shbin(&file, 0).unwrap();
    (file, shader)
}

/// The first float register of uniform `name`.
fn uniform(file: &Shbin, name: &str) -> usize {
    let dvle = &file.executables[0];
    let u = dvle.uniforms.iter().find(|u| dvle.symbol(u.symbol) == Some(name)).expect("uniform declared");
    match UniformReg::from_raw(u.start) {
        UniformReg::Float(i) => i as usize,
        other => panic!("{name} is {other}"),
    }
}

fn reg_of(shader: &Shader, semantic: &str) -> usize {
    shader.outputs.iter().find(|o| o.name == semantic).unwrap().reg as usize
}

/// 3ds-examples geoshader: one triangle in (v0-v5: position/colour of three vertices), split into
/// three triangles at the edge midpoints; each vertex projected by `projection` (identity here)
/// and coloured with the colour of the corner it belongs to.
#[test]
fn geoshader_example_splits_a_triangle_into_three() {
    let (file, shader) = load("3ds-examples__graphics__gpu__geoshader__source__program.g.pica.shbin");
    assert_eq!(shader.geometry, Some(GeometryMode::Point));
    let mut it = shader.interpreter();
    let proj = uniform(&file, "projection");
    for row in 0..4 {
        let mut v = [0.0; 4];
        v[row] = 1.0;
        it.set_float(proj + row, v);
    }
    let a = [0.0, 0.0, 0.5, 1.0];
    let b = [2.0, 0.0, 0.5, 1.0];
    let c = [0.0, 4.0, 0.5, 1.0];
    let (ca, cb, cc) = ([1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]);
    let mut v = [[0.0; 4]; 16];
    v[..6].copy_from_slice(&[a, ca, b, cb, c, cc]);
    let prims = run_geometry(&mut it, shader.entry, GeometryMode::Point, &[v], 2, None).unwrap();
    let (pos, col) = (reg_of(&shader, "position"), reg_of(&shader, "color"));
    let tri = |p: &Primitive| -> Vec<(Vec4, Vec4)> { p.ordered().iter().map(|v| (v[pos], v[col])).collect() };
    let mid = |p: Vec4, q: Vec4| -> Vec4 { std::array::from_fn(|i| (p[i] + q[i]) * 0.5) };
    let (ab, bc, ca_) = (mid(a, b), mid(b, c), mid(c, a));
    assert_eq!(prims.len(), 3);
    assert!(prims.iter().all(|p| !p.inverted));
    assert_eq!(tri(&prims[0]), vec![(a, ca), (ab, cb), (ca_, cc)]);
    assert_eq!(tri(&prims[1]), vec![(ab, ca), (b, cb), (bc, cc)]);
    assert_eq!(tri(&prims[2]), vec![(ca_, ca), (bc, cb), (c, cc)]);
}

/// 3ds-examples particles: fixed mode, four control points from c0; for each of `param.x`
/// particles it emits a quad as two triangles, the second with SETEMIT's inverted winding,
/// reusing buffer vertices 1 and 2 (the vertex buffer is not cleared between primitives).
#[test]
fn particle_example_emits_quads_as_two_triangles() {
    let (file, shader) = load("3ds-examples__graphics__gpu__particles__source__particle.g.pica.shbin");
    assert_eq!(shader.geometry, Some(GeometryMode::Fixed { start: 0, vertices: 4 }));
    let mut it = shader.interpreter();
    let (param, rand_param, seed, uv) =
        (uniform(&file, "param"), uniform(&file, "randParam"), uniform(&file, "randSeed"), uniform(&file, "uvCoords"));
    it.set_float(param, [3.0, 0.25, 1.0, 0.0]); // 3 particles, t = 0.25 * (r.w + 0)
    it.set_float(rand_param, [5.0, 3.0, 16.0, 0.0625]);
    it.set_float(seed, [1.0, 2.0, 3.0, 4.0]);
    it.set_float(uv, [0.0, 0.0, 1.0, 0.0]);
    it.set_float(uv + 1, [0.0, 1.0, 1.0, 1.0]);
    // Control points: position (k, 0, 0, 1), attributes (size 0.5, 0.25, 0, colour 0.75), no spread.
    let vertices: Vec<[Vec4; 16]> = (0..4)
        .map(|k| {
            let mut v = [[0.0; 4]; 16];
            v[0] = [k as f32, 0.0, 0.0, 1.0];
            v[1] = [0.5, 0.25, 0.0, 0.75];
            v
        })
        .collect();
    let mode = shader.geometry.unwrap();
    let prims = run_geometry(&mut it, shader.entry, mode, &vertices, 6, None).unwrap();
    let (pos, col, tex) = (reg_of(&shader, "position"), reg_of(&shader, "color"), reg_of(&shader, "texcoord0"));
    assert_eq!(prims.len(), 6, "two triangles per particle");
    for quad in prims.chunks(2) {
        let (first, second) = (&quad[0], &quad[1]);
        assert!(!first.inverted && second.inverted);
        // Texture corners: BL (0,0), BR (1,0), TL (0,1); the second triangle replaces vertex 0
        // with TR (1,1) and keeps BR and TL.
        let uvs = |p: &Primitive| -> Vec<[f32; 2]> { p.vertices.iter().map(|v| [v[tex][0], v[tex][1]]).collect() };
        assert_eq!(uvs(first), vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]);
        assert_eq!(uvs(second), vec![[1.0, 1.0], [1.0, 0.0], [0.0, 1.0]]);
        assert_eq!(first.vertices[1], second.vertices[1]);
        assert_eq!(first.vertices[2], second.vertices[2]);
        // Colour is the interpolated attribute w (0.75 everywhere); corners sit at centre -/+ size.
        for v in first.vertices.iter().chain(second.vertices.iter()) {
            assert_eq!(v[col], [0.75; 4]);
        }
        let bl = first.vertices[0][pos];
        let tr = second.vertices[0][pos];
        assert_eq!([tr[0] - bl[0], tr[1] - bl[1]], [1.0, 0.5], "quad spans 2 * (0.5, 0.25)");
        assert_eq!(bl[3], 1.0);
    }
}

/// The DVLE output map gives the o registers their semantics, and its constants apply first.
#[test]
fn output_map_and_constants_of_a_vertex_shader() {
    let (file, shader) = load("3ds-examples__graphics__gpu__textured_cube__source__vshader.v.pica.shbin");
    let names: Vec<&str> = shader.outputs.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, vec!["position", "texcoord0", "color"]);
    // myconst (0, 1, -1, -0.5) from the constant table.
    let c = file.executables[0].constants.iter().find_map(|c| match c {
        pica::shbin::Constant::Float { reg, value } if value[1].to_f32() == 1.0 => Some(*reg as usize),
        _ => None,
    });
    assert_eq!(shader.uniforms.float[c.unwrap()], [0.0, 1.0, -1.0, -0.5]);
    // Identity matrices, no light: position = input with w forced to 1; texcoord = input.
    let mut it = shader.interpreter();
    for name in ["projection", "modelView"] {
        let base = uniform(&file, name);
        for row in 0..4 {
            let mut v = [0.0; 4];
            v[row] = 1.0;
            it.set_float(base + row, v);
        }
    }
    let mut v = [[0.0; 4]; 16];
    v[0] = [0.5, -2.0, 3.0, 9.0];
    v[1] = [0.25, 0.75, 0.0, 0.0];
    v[2] = [0.0, 0.0, 1.0, 0.0];
    let out = it.run(shader.entry, &v).unwrap();
    let sem = shader.semantics(&out);
    assert_eq!(sem[0], ("position".to_string(), vec![0.5, -2.0, 3.0, 1.0]));
    assert_eq!(sem[1], ("texcoord0".to_string(), vec![0.25, 0.75, 0.0, 0.0]));
}

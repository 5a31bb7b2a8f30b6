//! The generator's promises: programs encode (and decode back to the same instructions), keep
//! their blocks well formed, use every instruction kind, and end on random inputs without error.

use pica::interp::{run_geometry, GeometryMode, Interpreter, Program, RunError};
use pica::isa::{Instruction, Opcode};
use pica::smith::{arbitrary_program, generate, Config, SmithProgram, Stmt};

fn run(p: &SmithProgram, inputs: &[[f32; 4]; 16], floats: f32) -> Result<u64, RunError> {
    let program = Program::new(&p.built.code, &p.built.descriptor_words).unwrap();
    let mut it = Interpreter::new(&program, p.kind);
    let mut u = it.uniforms();
    for (i, c) in u.float.iter_mut().enumerate() {
        *c = [floats * i as f32, 1.0 - floats, floats - 0.5, 2.0];
    }
    u.int = p.int_uniforms;
    u.bools = p.bool_uniforms;
    it.set_uniforms(&u);
    it.run(0, inputs)?;
    Ok(it.last_steps)
}

fn check_blocks(stmts: &[Stmt], what: &str) {
    match stmts.last() {
        Some(Stmt::Plain(i)) => assert!(
            !matches!(i.opcode, Opcode::Break | Opcode::Breakc | Opcode::End),
            "{what} ends with a flow instruction"
        ),
        other => panic!("{what} must end with a plain instruction, ends with {other:?}"),
    }
    for s in stmts {
        match s {
            Stmt::If { then, otherwise, .. } => {
                check_blocks(then, "then block");
                if !otherwise.is_empty() {
                    check_blocks(otherwise, "else block");
                }
            }
            Stmt::Loop { body, .. } => check_blocks(body, "loop body"),
            Stmt::Jump { skip, .. } => check_blocks(skip, "jumped-over block"),
            _ => {}
        }
    }
}

#[test]
fn programs_encode_and_decode_back() {
    for seed in 0..300 {
        let p = generate(seed, &Config::default());
        assert!(p.built.code.len() <= Config::default().max_instructions, "seed {seed}: {} words", p.built.code.len());
        assert!(p.built.descriptors.len() <= 32);
        for (w, i) in p.built.code.iter().zip(&p.built.instructions) {
            assert_eq!(Instruction::decode(*w), *i, "seed {seed}");
        }
        check_blocks(&p.ast.main, "main");
        for s in &p.ast.subs {
            check_blocks(s, "subroutine");
        }
    }
}

#[test]
fn programs_terminate_on_random_inputs() {
    let mut max_steps = 0;
    for seed in 0..400 {
        let p = generate(seed, &Config::default());
        for (k, x) in [0.0f32, 0.75, -3.5, 1e10].into_iter().enumerate() {
            let mut inputs = [[x; 4]; 16];
            inputs[0] = [x, -x, 0.5, k as f32];
            let steps = run(&p, &inputs, x).unwrap_or_else(|e| panic!("seed {seed} input {x}: {e}"));
            max_steps = max_steps.max(steps);
            // The documented bound: 256 iterations of every instruction at most.
            assert!(steps <= 256 * p.built.code.len() as u64, "seed {seed}: {steps} steps");
        }
    }
    eprintln!("longest run: {max_steps} steps");
}

#[test]
fn same_seed_same_program() {
    assert_eq!(generate(42, &Config::default()).built, generate(42, &Config::default()).built);
    assert_ne!(generate(42, &Config::default()).built, generate(43, &Config::default()).built);
}

#[test]
fn every_instruction_kind_appears() {
    let mut seen = std::collections::HashSet::new();
    let mut relative = false;
    for seed in 0..300 {
        for geometry in [false, true] {
            let p = generate(seed, &Config { geometry, ..Config::default() });
            for i in &p.built.instructions {
                seen.insert(i.opcode);
                if let pica::isa::Operands::Arith { idx, .. } | pica::isa::Operands::Mad { idx, .. } = i.operands {
                    relative |= idx != pica::isa::AddrIndex::None;
                }
            }
        }
    }
    for op in Opcode::ALL {
        assert!(seen.contains(op), "{op:?} never generated");
    }
    assert!(relative);
}

#[test]
fn geometry_programs_run_and_emit() {
    let mut prims = 0;
    for seed in 0..200 {
        let p = generate(seed, &Config { geometry: true, ..Config::default() });
        let program = Program::new(&p.built.code, &p.built.descriptor_words).unwrap();
        let mut it = Interpreter::new(&program, p.kind);
        let mut u = it.uniforms();
        u.int = p.int_uniforms;
        u.bools = p.bool_uniforms;
        it.set_uniforms(&u);
        let verts = vec![[[0.25; 4]; 16]; 3];
        let out = run_geometry(&mut it, 0, GeometryMode::Point, &verts, 1, None)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        prims += out.len();
    }
    assert!(prims > 0, "some programs emit primitives");
}

#[test]
fn arbitrary_bytes_give_valid_programs() {
    // Short or patterned byte strings (what a fuzzer hands over) still give programs that run.
    for len in [0usize, 1, 7, 64, 300] {
        for fill in [0u8, 0xFF, 0x55] {
            let bytes = vec![fill; len];
            let mut u = arbitrary::Unstructured::new(&bytes);
            let p = arbitrary_program(&mut u, &Config::default()).unwrap();
            run(&p, &[[1.0; 4]; 16], 1.0).unwrap();
        }
    }
}

/// The picasso text of a generated program assembles, and the assembled program computes the same
/// bits (outputs of vertex programs, primitives of geometry programs) as the generated one.
#[test]
fn picasso_text_assembles_to_an_equivalent_program() {
    use pica::asm::{assemble, Options, Source};
    use pica::interp::{Shader, ShaderKind};
    let bits = |v: &[[f32; 4]; 16]| -> Vec<u32> { v.iter().flatten().map(|x| x.to_bits()).collect() };
    for seed in 0..120 {
        for geometry in [false, true] {
            let p = generate(seed, &Config { geometry, ..Config::default() });
            let text = p.to_picasso();
            let assembled = assemble(&[Source { name: "smith.pica", text: &text }], &Options::default())
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            let original = Shader::from_shbin(&p.to_shbin(), 0).unwrap();
            let reassembled = Shader::from_shbin(&assembled.shbin, 0).unwrap();
            assert_eq!(reassembled.program.len(), original.program.len(), "seed {seed}: same layout");
            assert_eq!(reassembled.uniforms.int, p.int_uniforms);
            for k in 0..3 {
                let x = [0.5f32, -1.25, 3.0][k];
                let mut inputs = [[x; 4]; 16];
                inputs[0] = [x, 2.0 * x, -x, 1.0];
                let (mut a, mut b) = (original.interpreter(), reassembled.interpreter());
                for it in [&mut a, &mut b] {
                    for c in 0..96 {
                        it.set_float(c, [x * c as f32, 1.0, -0.5, x]);
                    }
                }
                if p.kind == ShaderKind::Vertex {
                    let (oa, ob) = (a.run(0, &inputs).unwrap(), b.run(reassembled.entry, &inputs).unwrap());
                    assert_eq!(bits(&oa), bits(&ob), "seed {seed} input {x}");
                } else {
                    let pa = run_geometry(&mut a, 0, GeometryMode::Point, &[inputs], 1, None).unwrap();
                    let pb = run_geometry(&mut b, reassembled.entry, GeometryMode::Point, &[inputs], 1, None).unwrap();
                    assert_eq!(pa.len(), pb.len(), "seed {seed}");
                    for (qa, qb) in pa.iter().zip(&pb) {
                        assert_eq!(qa.inverted, qb.inverted);
                        for (va, vb) in qa.vertices.iter().zip(&qb.vertices) {
                            assert_eq!(bits(va), bits(vb), "seed {seed}");
                        }
                    }
                }
            }
        }
    }
}

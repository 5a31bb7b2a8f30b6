//! Translated programs on the Vulkan device, checked against values the ISA page states
//! (3dbrew "GPU/Shader Instruction Set"), and the render pipeline against the compute wrapper.
//! Without a Vulkan device these tests skip, unless SHADERPORT_REQUIRE_GPU is set (CI).

use gpu::Gpu;
use pica::isa::{
    AddrIndex, CondOp, Condition, DstReg, Instruction, Opcode, OperandDescriptor, Operands, SrcReg, Swizzle,
};
use pica::shbin::{Dvle, Dvlp, Output, OutputKind, Shbin};
use translate::pica::{translate, Options, UniformBlock, REGS};
use translate::Precision;

mod common;
use common::device;

const INF: f32 = f32::INFINITY;

/// A program under construction: instructions and their operand descriptors.
#[derive(Default)]
struct Prog {
    code: Vec<u32>,
    descs: Vec<u32>,
}

impl Prog {
    fn desc(&mut self, mask: u8, srcs: &[(bool, Swizzle)]) -> u8 {
        let d = OperandDescriptor::new(mask, srcs).0;
        let i = self.descs.iter().position(|&x| x == d).unwrap_or_else(|| {
            self.descs.push(d);
            self.descs.len() - 1
        });
        i as u8
    }
    fn arith(&mut self, opcode: Opcode, dst: DstReg, src1: SrcReg, src2: SrcReg, idx: AddrIndex, mask: u8) {
        let desc = self.desc(mask, &[]);
        self.push(Instruction { opcode, operands: Operands::Arith { dst, src1, src2, idx, desc }, extra: 0 });
    }
    fn op2(&mut self, opcode: Opcode, dst: DstReg, src1: SrcReg, src2: SrcReg) {
        self.arith(opcode, dst, src1, src2, AddrIndex::None, 0xF);
    }
    fn flow(&mut self, opcode: Opcode, dst: u16, num: u8, cond: Condition) {
        self.push(Instruction { opcode, operands: Operands::Flow { dst, num, cond }, extra: 0 });
    }
    fn uni(&mut self, opcode: Opcode, dst: u16, num: u8, id: u8) {
        self.push(Instruction { opcode, operands: Operands::Uniform { dst, num, id }, extra: 0 });
    }
    fn end(&mut self) {
        self.push(Instruction { opcode: Opcode::End, operands: Operands::None, extra: 0 });
    }
    fn push(&mut self, i: Instruction) {
        self.code.push(i.encode().unwrap());
    }
    fn here(&self) -> u16 {
        self.code.len() as u16
    }
    fn shbin(&self, outputs: &[u8]) -> Shbin {
        let dvle = Dvle {
            main: 0,
            endmain: self.code.len() as u32,
            outputs: outputs
                .iter()
                .map(|&r| Output {
                    kind: if r == 0 { OutputKind::Position } else { OutputKind::Color },
                    reg: r as u16,
                    mask: 0xF,
                    unknown: 0,
                })
                .collect(),
            ..Dvle::default()
        };
        Shbin {
            program: Dvlp {
                code: self.code.clone(),
                descriptors: self.descs.iter().map(|&d| [d, 0]).collect(),
                ..Dvlp::default()
            },
            executables: vec![dvle],
        }
    }
}

fn o(i: u8) -> DstReg {
    DstReg::Output(i)
}
fn r(i: u8) -> DstReg {
    DstReg::Temp(i)
}
fn v(i: u8) -> SrcReg {
    SrcReg::Input(i)
}
fn rs(i: u8) -> SrcReg {
    SrcReg::Temp(i)
}
fn c(i: u8) -> SrcReg {
    SrcReg::Const(i)
}

/// Runs the vertex compute wrapper over input sets; returns o0-o15 per invocation as f32.
fn run(
    gpu: &Gpu,
    shbin: &Shbin,
    precision: Precision,
    uniforms: &UniformBlock,
    inputs: &[[[f32; 4]; 16]],
) -> Vec<Vec<[f32; 4]>> {
    run_with(gpu, shbin, Options { precision, ..Options::default() }, uniforms, inputs)
}

fn run_with(
    gpu: &Gpu,
    shbin: &Shbin,
    options: Options,
    uniforms: &UniformBlock,
    inputs: &[[[f32; 4]; 16]],
) -> Vec<Vec<[f32; 4]>> {
    let t = translate(shbin, 0, Options { compute_wrapper: true, ..options }).unwrap();
    let words = t.spirv().unwrap();
    let flat: Vec<u32> = inputs.iter().flatten().flatten().map(|x| x.to_bits()).collect();
    let out = gpu
        .run_compute(
            &words,
            translate::pica::COMPUTE_ENTRY,
            &uniforms.to_bytes(),
            &flat,
            inputs.len() as u32,
            inputs.len() * REGS as usize * 4,
        )
        .unwrap();
    out.chunks(REGS as usize * 4)
        .map(|inv| inv.chunks(4).map(|c| [0, 1, 2, 3].map(|k| f32::from_bits(c[k]))).collect())
        .collect()
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn assert_vec(got: [f32; 4], want: [f32; 4], what: &str) {
    assert!((0..4).all(|k| same(got[k], want[k])), "{what}: got {got:?}, want {want:?}");
}

#[test]
fn special_cases_of_the_isa_page_in_compat() {
    let Some(gpu) = device() else { return };
    let mut p = Prog::default();
    p.op2(Opcode::Mul, o(1), v(0), v(1));
    p.op2(Opcode::Rcp, o(2), v(2), v(2));
    p.op2(Opcode::Rsq, o(3), v(2), v(2));
    p.op2(Opcode::Max, o(4), v(3), v(4));
    p.op2(Opcode::Min, o(5), v(3), v(4));
    p.op2(Opcode::Dp4, o(6), v(0), v(1));
    p.op2(Opcode::Rcp, o(7), v(5), v(5));
    p.op2(Opcode::Rsq, o(8), v(5), v(5));
    p.op2(Opcode::Max, o(9), v(6), v(7));
    p.end();
    let shbin = p.shbin(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let mut regs = [[0.0f32; 4]; 16];
    regs[0] = [INF, 0.0, f32::NAN, 2.0];
    regs[1] = [0.0, -INF, 0.0, 3.0];
    regs[2] = [-0.0, 1.0, 1.0, 1.0];
    regs[3] = [0.0, f32::NAN, 0.0, -INF];
    regs[4] = [f32::NAN, 0.0, INF, INF];
    regs[5] = [INF, 0.0, 0.0, 0.0];
    regs[6] = [0.0; 4];
    regs[7] = [-INF; 4];
    let out = run(&gpu, &shbin, Precision::Compat, &UniformBlock::default(), &[regs]);
    let o = &out[0];
    // inf * 0 = 0; NaN * 0 = NaN (ISA page, Floating-Point Behavior).
    assert_vec(o[1], [0.0, 0.0, f32::NAN, 6.0], "mul");
    assert_vec(o[2], [INF; 4], "rcp(-0)");
    assert_vec(o[3], [INF; 4], "rsq(-0)");
    // max(0, NaN) = NaN, max(NaN, 0) = 0, max(0, +inf) = +inf, max(-inf, +inf) = +inf.
    assert_vec(o[4], [f32::NAN, 0.0, INF, INF], "max");
    assert_vec(o[5], [f32::NAN, 0.0, 0.0, -INF], "min");
    // The NaN product poisons the dot product.
    assert!(o[6].iter().all(|x| x.is_nan()), "dp4 {:?}", o[6]);
    assert_vec(o[7], [0.0; 4], "rcp(+inf)");
    assert_vec(o[8], [0.0; 4], "rsq(+inf)");
    // max(0, -inf) = 0, as measured on hardware (docs/pica-float.md).
    assert_vec(o[9], [0.0; 4], "max(0, -inf)");
}

/// The MAX and MIN rows of the ISA page's table, with the hardware's `max(0, -inf) = 0`, in
/// `compat` and `exact`, and the interpreter on the same inputs.
#[test]
fn max_and_min_rows_give_the_hardware_results_in_compat_and_exact() {
    let Some(gpu) = device() else { return };
    let nan = f32::from_bits(0x7FC0_0000);
    // (a, b, max(a, b), min(a, b)), one row per component.
    let rows: [[(f32, f32, f32, f32); 4]; 2] = [
        [(0.0, INF, INF, 0.0), (0.0, -INF, 0.0, -INF), (0.0, nan, nan, nan), (nan, 0.0, 0.0, 0.0)],
        [(-INF, INF, INF, -INF), (1.0, -INF, 1.0, -INF), (-INF, 0.0, 0.0, -INF), (-INF, -INF, -INF, -INF)],
    ];
    let mut p = Prog::default();
    for (i, _) in rows.iter().enumerate() {
        let (a, b) = (v(2 * i as u8), v(2 * i as u8 + 1));
        p.op2(Opcode::Max, o(1 + 2 * i as u8), a, b);
        p.op2(Opcode::Min, o(2 + 2 * i as u8), a, b);
    }
    p.end();
    let shbin = p.shbin(&[1, 2, 3, 4]);
    let mut regs = [[0.0f32; 4]; 16];
    for (i, row) in rows.iter().enumerate() {
        regs[2 * i] = row.map(|r| r.0);
        regs[2 * i + 1] = row.map(|r| r.1);
    }
    let shader = pica::interp::Shader::from_shbin(&shbin, 0).unwrap();
    let mut it = pica::interp::Interpreter::new(&shader.program, pica::interp::ShaderKind::Vertex);
    let reference = it.run(shader.entry, &regs).unwrap();
    let runs = [
        ("interpreter", reference.to_vec()),
        ("compat", run(&gpu, &shbin, Precision::Compat, &UniformBlock::default(), &[regs]).remove(0)),
        ("exact", run(&gpu, &shbin, Precision::Exact, &UniformBlock::default(), &[regs]).remove(0)),
    ];
    for (name, out) in runs {
        for (i, row) in rows.iter().enumerate() {
            assert_vec(out[1 + 2 * i], row.map(|r| r.2), &format!("max, {name}, row {i}"));
            assert_vec(out[2 + 2 * i], row.map(|r| r.3), &format!("min, {name}, row {i}"));
        }
    }
}

#[test]
fn loops_calls_ifs_and_relative_addressing_through_the_dispatch_loop() {
    let Some(gpu) = device() else { return };
    let mut p = Prog::default();
    // 0: loop i0 { add r0, r0, c[aL] }   (i0 = (x=3, y=10, z=2): aL = 10, 12, 14, 16)
    p.uni(Opcode::Loop, 1, 0, 0);
    p.arith(Opcode::Add, r(0), c(0), rs(0), AddrIndex::AL, 0xF);
    // 2: mov o1, r0
    p.op2(Opcode::Mov, o(1), rs(0), rs(0));
    // 3: call 8 (2 instructions: mul r1, r0, v0 ; mov o2, r1)
    p.flow(Opcode::Call, 8, 2, Condition { op: CondOp::Or, refx: true, refy: true });
    // 4: cmp v1.x lt v0.x (cmp.x), eq (cmp.y)
    let desc = p.desc(0xF, &[]);
    p.push(Instruction {
        opcode: Opcode::Cmp,
        operands: Operands::Cmp {
            src1: v(1),
            src2: v(0),
            idx: AddrIndex::None,
            cmp_x: pica::isa::CmpOp::Lt,
            cmp_y: pica::isa::CmpOp::Eq,
            desc,
        },
        extra: 0,
    });
    // 5: ifc cmp.x: then 6 (mov o3, v0), else 7..8 (mov o3, v1)
    p.flow(Opcode::Ifc, 7, 1, Condition { op: CondOp::X, refx: true, refy: false });
    p.op2(Opcode::Mov, o(3), v(0), v(0));
    p.op2(Opcode::Mov, o(3), v(1), v(1));
    // 8: end is jumped over by the IF's else; the CALL target follows.
    let end_at = p.here();
    assert_eq!(end_at, 8);
    // Calls land here: put the subroutine after an END so straight execution stops first.
    p.end();
    // Fix the call target: subroutine at 9..11.
    p.op2(Opcode::Mul, r(1), rs(0), v(0));
    p.op2(Opcode::Mov, o(2), rs(1), rs(1));
    let call = Instruction {
        opcode: Opcode::Call,
        operands: Operands::Flow { dst: 9, num: 2, cond: Condition { op: CondOp::Or, refx: true, refy: true } },
        extra: 0,
    };
    p.code[3] = call.encode().unwrap();
    // ifc: condition true runs 6 then jumps to dst+num = 8 (END); false runs 7 then 8.
    let shbin = p.shbin(&[1, 2, 3]);
    let mut u = UniformBlock::default();
    for k in 0..96 {
        u.c[k] = [k as f32; 4];
    }
    u.i[0] = [3, 10, 2, 0];
    let mut a = [[0.0f32; 4]; 16];
    a[0] = [2.0, 2.0, 2.0, 2.0];
    a[1] = [1.0, 5.0, 5.0, 5.0];
    let mut b = a;
    b[1] = [3.0, 7.0, 7.0, 7.0];
    let structured = translate(&shbin, 0, Options::default()).unwrap();
    assert_eq!(structured.interface().flow, translate::pica::FlowKind::Structured);
    for dispatch_only in [false, true] {
        let out = run_with(
            &gpu,
            &shbin,
            Options { precision: Precision::Compat, dispatch_only, ..Options::default() },
            &u,
            &[a, b],
        );
        let sum = (10 + 12 + 14 + 16) as f32;
        for case in &out {
            assert_vec(case[1], [sum; 4], "loop sum over c[aL]");
            assert_vec(case[2], [sum * 2.0; 4], "call");
        }
        assert_vec(out[0][3], a[0], "if taken (1 < 2)");
        assert_vec(out[1][3], b[1], "else (3 < 2 is false)");
    }
}

#[test]
fn relative_addressing_edges_from_the_facts_page() {
    let Some(gpu) = device() else { return };
    // mova a0.x, v0 ; mov o1, c40[a0.x]
    let mut p = Prog::default();
    p.arith(Opcode::Mova, r(0), v(0), v(0), AddrIndex::None, 0x8);
    p.arith(Opcode::Mov, o(1), c(40), v(0), AddrIndex::A0x, 0xF);
    p.end();
    let shbin = p.shbin(&[1]);
    let mut u = UniformBlock::default();
    for k in 0..96 {
        u.c[k] = [k as f32; 4];
    }
    // specs/pica200-facts.md "Relative addressing (source c40 indexed by a0.x)".
    let cases = [
        (0.0, 40.0),
        (13.0, 53.0),
        (60.0, 1.0),
        (88.0, 0.0),
        (128.0, 40.0),
        (-40.0, 0.0),
        (-73.0, 95.0),
        (-127.0, 41.0),
        (-129.0, 40.0),
        (13.7, 53.0),
        (-0.5, 40.0),
    ];
    let inputs: Vec<_> = cases
        .iter()
        .map(|&(a, _)| {
            let mut r = [[0.0f32; 4]; 16];
            r[0] = [a; 4];
            r
        })
        .collect();
    let out = run(&gpu, &shbin, Precision::Compat, &u, &inputs);
    for (o, &(a, want)) in out.iter().zip(&cases) {
        assert_vec(o[1], [want; 4], &format!("c40[a0.x = {a}]"));
    }
}

/// Every executable of the given kind in the corpus SHBINs: (file, SHBIN, executable index).
fn corpus_executables(kind: pica::shbin::ShaderType) -> Vec<(std::path::PathBuf, Shbin, usize)> {
    let paths = testkit::files(&testkit::corpus("pica/golden"), "shbin");
    let mut out = Vec::new();
    for path in paths {
        let shbin = Shbin::read(&std::fs::read(&path).unwrap()).unwrap();
        for entry in 0..shbin.executables.len() {
            if shbin.executables[entry].shader_type == kind {
                out.push((path.clone(), shbin.clone(), entry));
            }
        }
    }
    out
}

#[test]
fn corpus_vertex_shaders_render_like_the_compute_wrapper() {
    let Some(gpu) = device() else { return };
    let mut checked = 0;
    for (path, shbin, entry) in corpus_executables(pica::shbin::ShaderType::Vertex) {
        let t = translate(&shbin, entry, Options { compute_wrapper: true, ..Options::default() }).unwrap();
        let words = t.spirv().unwrap();
        // Identity-like uniforms: c[k] = e_(k mod 4) keeps positions small and in view.
        let mut u = UniformBlock::default();
        for k in 0..96 {
            u.c[k] = [0.0; 4];
            u.c[k][k % 4] = 1.0;
        }
        u.apply_constants(&shbin.executables[entry]);
        let n = 32;
        let inputs: Vec<u32> = (0..n * 16 * 4)
            .map(|i| {
                let x = ((i * 37 % 101) as f32 / 101.0 - 0.5) * 0.8;
                // w = 1, z in front of the camera (Vulkan clips z < 0), x and y in view.
                match i % 4 {
                    3 => 1.0f32,
                    2 => x.abs() + 0.1,
                    _ => x,
                }
                .to_bits()
            })
            .collect();
        let compute =
            gpu.run_compute(&words, translate::pica::COMPUTE_ENTRY, &u.to_bytes(), &inputs, n as u32, n * 64).unwrap();
        let render = gpu.run_vertex(&words, t.interface(), &u.to_bytes(), &inputs).unwrap();
        let shown = render.vertices.iter().filter(|v| v.is_some()).count();
        eprintln!("{} entry {entry}: {shown} of {n} vertices rasterized", path.display());
        for (i, vtx) in render.vertices.iter().enumerate() {
            let Some(outs) = vtx else { continue };
            for (k, &reg) in t.interface().outputs.iter().enumerate() {
                let base = i * 64 + reg as usize * 4;
                assert_eq!(outs[k][..], compute[base..base + 4], "{} entry {entry} vertex {i} o{reg}", path.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} vertices rasterized");
}

/// Every arithmetic instruction in `exact` against pica::interp, bit for bit, over random
/// inputs with infinities, NaN, zeros and powers of two.
#[test]
fn exact_mode_matches_the_interpreter_bit_for_bit_on_every_operation() {
    let Some(gpu) = device() else { return };
    let mut p = Prog::default();
    let ops = [
        Opcode::Add,
        Opcode::Mul,
        Opcode::Dp3,
        Opcode::Dp4,
        Opcode::Dph,
        Opcode::Dst,
        Opcode::Ex2,
        Opcode::Lg2,
        Opcode::Rcp,
        Opcode::Rsq,
        Opcode::Flr,
        Opcode::Max,
        Opcode::Min,
        Opcode::Sge,
        Opcode::Slt,
    ];
    for (k, &op) in ops.iter().enumerate() {
        let (a, b) = (v((k % 8) as u8), v((k % 8 + 8) as u8));
        p.op2(op, o(k as u8 % 15 + 1), a, b);
        // Chains: results feed the next operations through r registers.
        p.op2(op, r(k as u8), a, b);
    }
    let desc = p.desc(0xF, &[(true, Swizzle(0x1B)), (false, Swizzle(0x1B)), (true, Swizzle(0xE4))]);
    p.push(Instruction {
        opcode: Opcode::Mad,
        operands: Operands::Mad { dst: o(0), src1: rs(0), src2: rs(1), src3: rs(2), idx: AddrIndex::None, desc },
        extra: 0,
    });
    p.op2(Opcode::Litp, o(15), rs(3), rs(3));
    p.end();
    let shbin = p.shbin(&(0..16).collect::<Vec<_>>());
    let settings = gpu::verify::Settings { cases: 2048, precision: Precision::Exact, seed: 7, dispatch_only: false };
    let report = gpu::verify::verify_vertex(&gpu, &shbin, 0, settings).unwrap();
    assert_eq!(report.failed, 0, "{:?}", report.examples);
    assert_eq!(report.passed, 2048);
}

/// `verify` over every corpus vertex shader, 64 input sets each, in `exact` (0 mismatched bits)
/// and in `compat` (within the documented tolerance).
#[test]
fn corpus_verifies_in_exact_and_compat() {
    let Some(gpu) = device() else { return };
    let mut executables = 0;
    for (path, shbin, entry) in corpus_executables(pica::shbin::ShaderType::Vertex) {
        // Exact through the chosen flow translation and through the dispatch loop alone.
        let runs = [(Precision::Exact, false), (Precision::Exact, true), (Precision::Compat, false)];
        for (precision, dispatch_only) in runs {
            let settings = gpu::verify::Settings { cases: 64, precision, seed: entry as u64 + 1, dispatch_only };
            let report = gpu::verify::verify_vertex(&gpu, &shbin, entry, settings).unwrap();
            assert_eq!(
                report.failed,
                0,
                "{} {precision:?} dispatch {dispatch_only}: {:?}",
                path.display(),
                report.examples
            );
            assert_eq!(report.mismatched_components, 0);
            assert_eq!(report.passed + report.skipped, 64);
        }
        executables += 1;
    }
    assert_eq!(executables, 26, "corpus vertex executables");
}

/// The corpus geometry shaders produce, through the compute translation, the same primitives
/// as the interpreter (count, winding, every output register of every vertex).
#[test]
fn corpus_geometry_shaders_emit_the_interpreters_primitives() {
    let Some(gpu) = device() else { return };
    let mut executables = 0;
    for (path, shbin, entry) in corpus_executables(pica::shbin::ShaderType::Geometry) {
        for precision in [Precision::Exact, Precision::Compat] {
            let settings = gpu::verify::Settings { cases: 64, precision, seed: 11, dispatch_only: false };
            let report = gpu::verify::verify_geometry(&gpu, &shbin, entry, settings).unwrap();
            assert_eq!(report.failed, 0, "{} {precision:?}: {:?}", path.display(), report.examples);
            assert!(report.passed >= 32, "{} {precision:?}: only {} cases ran", path.display(), report.passed);
        }
        executables += 1;
    }
    assert_eq!(executables, 5, "corpus geometry executables");
}

/// Random programs (random instruction words of every known opcode, forward flow targets so
/// every program ends, random descriptors) against the interpreter in `exact`, through the chosen
/// flow translation and through the dispatch loop alone. Cases the interpreter refuses (BREAK
/// outside a loop, missing descriptors) are skipped; the rest must match bit for bit.
#[test]
fn random_programs_match_the_interpreter_in_exact() {
    let Some(gpu) = device() else { return };
    let ops: Vec<Opcode> =
        Opcode::ALL.iter().copied().filter(|o| !matches!(o, Opcode::Emit | Opcode::Setemit)).collect();
    let mut rng = gpu::verify::Rng::new(2024);
    let (mut programs, mut passed, mut kinds) = (0, 0, std::collections::BTreeMap::new());
    for _ in 0..100 {
        let len = 4 + rng.below(36) as usize;
        let mut code = Vec::with_capacity(len + 1);
        for k in 0..len {
            let op = ops[rng.below(ops.len() as u64) as usize];
            let word = (op.first_bits6() as u32) << 26 | (rng.next_u64() as u32 & 0x03FF_FFFF);
            let mut inst = Instruction::decode(word);
            // Forward targets only, inside the program: every program terminates.
            let fwd = |rng: &mut gpu::verify::Rng| (k + 1 + rng.below((len - k) as u64) as usize) as u16;
            match &mut inst.operands {
                Operands::Flow { dst, num, .. } => {
                    *dst = fwd(&mut rng);
                    *num = rng.below(4) as u8;
                }
                Operands::Uniform { dst, num, .. } => {
                    *dst = fwd(&mut rng);
                    *num = rng.below(4) as u8;
                }
                Operands::Arith { desc, .. } | Operands::Cmp { desc, .. } => *desc %= 8,
                Operands::Mad { desc, .. } => *desc %= 8,
                _ => {}
            }
            code.push(inst.encode().unwrap());
        }
        code.push(Instruction { opcode: Opcode::End, operands: Operands::None, extra: 0 }.encode().unwrap());
        let descs: Vec<u32> = (0..8).map(|_| rng.next_u64() as u32 | 0xF).collect();
        let p = Prog { code, descs };
        let shbin = p.shbin(&[]);
        let kind = translate(&shbin, 0, Options::default()).unwrap().interface().flow;
        *kinds.entry(format!("{kind:?}")).or_insert(0) += 1;
        for dispatch_only in [false, true] {
            let settings =
                gpu::verify::Settings { cases: 8, precision: Precision::Exact, seed: programs, dispatch_only };
            let report = gpu::verify::verify_vertex(&gpu, &shbin, 0, settings).unwrap();
            if report.failed != 0 {
                let f = std::env::temp_dir().join(format!("random-program-{programs}.shbin"));
                std::fs::write(&f, shbin.to_bytes()).unwrap();
                eprintln!("written to {}", f.display());
            }
            assert_eq!(
                report.failed, 0,
                "program {programs} ({kind:?}, dispatch {dispatch_only}) {:08x?}: {:?}",
                p.code, report.examples
            );
            passed += report.passed;
        }
        programs += 1;
    }
    eprintln!("random programs: {programs}, flow kinds {kinds:?}, {passed} cases matched");
    assert!(passed > 900, "only {passed} cases ran");
}

/// NaN * 0 = NaN also when the zero is a register the program never writes (the driver sees a
/// constant): found by the random-program test.
#[test]
fn nan_times_an_unwritten_register_stays_nan() {
    let Some(gpu) = device() else { return };
    for precision in [Precision::Exact, Precision::Compat] {
        let mut p = Prog::default();
        p.op2(Opcode::Dp4, o(1), c(5), rs(2));
        p.op2(Opcode::Mul, o(2), c(5), rs(2));
        p.end();
        let shbin = p.shbin(&[1, 2]);
        let mut u = UniformBlock::default();
        u.c[5] = [f32::NAN, 1.0, INF, 0.0];
        let out = run(&gpu, &shbin, precision, &u, &[[[0.0; 4]; 16]]);
        assert!(out[0][1].iter().all(|x| x.is_nan()), "{precision:?} dp4 {:?}", out[0][1]);
        assert_vec(out[0][2], [f32::NAN, 0.0, 0.0, 0.0], &format!("{precision:?} mul"));
    }
}

/// A register that keeps its reset zero on one path and takes a constant on the other: the
/// driver sees a select between two constants, which lavapipe's rules once turned into the wrong
/// zero (`c ? -1.0 : 0.0` gave -0.0, `c ? 1.0 : -0.0` gave +0.0; smith seed 359,
/// docs/pica-translate.md "Driver facts"). `exact` must keep both zeros in the structured form.
#[test]
fn exact_keeps_the_sign_of_zero_where_a_constant_write_is_skipped() {
    let Some(gpu) = device() else { return };
    let mut p = Prog::default();
    let neg = p.desc(0xF, &[(true, Swizzle::IDENTITY)]);
    // 0: dst r0, c0, r3 (r0 = (1.0, 0, 0, 0): x a constant; c0 and r3 are zero)
    p.op2(Opcode::Dst, r(0), c(0), rs(3));
    // 1: mov r1, -r2 (r1 = -0.0: r2 is never written)
    p.arith(Opcode::Mov, r(1), rs(2), rs(2), AddrIndex::None, 0xF);
    p.code[1] = {
        let mut i = Instruction::decode(p.code[1]);
        if let Operands::Arith { desc, .. } = &mut i.operands {
            *desc = neg;
        }
        i.encode().unwrap()
    };
    // 2: jmpu b0, 5 (jump when b0 is true)
    p.uni(Opcode::Jmpu, 5, 0, 0);
    // 3: mov o1, -r0 (-1.0 in x when run)
    let mut i = Instruction::decode(p.code[1]);
    if let Operands::Arith { dst, src1, src2, .. } = &mut i.operands {
        (*dst, *src1, *src2) = (o(1), rs(0), rs(0));
    }
    p.push(i);
    // 4: dst r1, c0, r3 (r1 = (1.0, 0, 0, 0) when run)
    p.op2(Opcode::Dst, r(1), c(0), rs(3));
    // 5: mov o2, r1; end
    p.op2(Opcode::Mov, o(2), rs(1), rs(1));
    p.end();
    let shbin = p.shbin(&[0, 1, 2]);
    let options = Options { precision: Precision::Exact, ..Options::default() };
    assert_eq!(translate(&shbin, 0, options).unwrap().interface().flow, translate::pica::FlowKind::Structured);
    for jump in [true, false] {
        let u = UniformBlock { b: jump as u16, ..UniformBlock::default() };
        let out = run(&gpu, &shbin, Precision::Exact, &u, &[[[0.0; 4]; 16]]);
        let (o1, o2) = if jump {
            ([0.0, 0.0, 0.0, 0.0], [-0.0, -0.0, -0.0, -0.0])
        } else {
            ([-1.0, -0.0, -0.0, -0.0], [1.0, 0.0, 0.0, 0.0])
        };
        assert_vec(out[0][1], o1, &format!("o1, jump {jump}"));
        assert_vec(out[0][2], o2, &format!("o2, jump {jump}"));
    }
}

/// `verify` in `exact` on smith programs (fixed seeds; one in five a geometry shader; every
/// seventh through the forced dispatch loop, the others straight or structured as chosen), 64
/// input sets each: 0 mismatched bits.
/// SMITH_PROGRAMS overrides the count (default 200; the full test run sets `SMITH_PROGRAMS=2000`). Pipeline creation on lavapipe dominates,
/// so the programs are spread over the available cores.
/// The program of tests/data/ifc40.v.pica (40 consecutive IFC blocks, each a few float ops and a
/// MOV, then a classification tail), assembled from picasso syntax: bit for bit in `exact`,
/// within the tolerance in `compat`, through the structured translation. Its pipeline build time
/// on lavapipe is in BENCHMARKS.md (`cargo bench -p gpu`).
#[test]
fn ifc_block_program_verifies_in_exact_and_compat() {
    let Some(gpu) = device() else { return };
    let text = include_str!("data/ifc40.v.pica");
    let src = pica::asm::Source { name: "ifc40.v.pica", text };
    let shbin = pica::asm::assemble(&[src], &Default::default()).unwrap().shbin;
    let t = translate(&shbin, 0, Options { precision: Precision::Exact, ..Options::default() }).unwrap();
    assert_eq!(t.interface().flow, translate::pica::FlowKind::Structured);
    for precision in [Precision::Exact, Precision::Compat] {
        let settings = gpu::verify::Settings { cases: 256, precision, seed: 12, dispatch_only: false };
        let report = gpu::verify::verify_vertex(&gpu, &shbin, 0, settings).unwrap();
        assert_eq!(report.failed, 0, "{precision:?}: {:?}", report.examples);
        assert_eq!(report.passed, 256);
    }
}

#[test]
fn smith_programs_verify_bit_exact() {
    let Some(first) = device() else { return };
    let count: u64 = std::env::var("SMITH_PROGRAMS").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    let seeds: Vec<u64> = (0..count).collect();
    // One device per worker: lavapipe compiles a compute shader at its first dispatch, on the
    // thread of the device's one queue, so workers sharing a device would compile one at a time.
    let spare = std::sync::Mutex::new(Some(first));
    let init = || spare.lock().unwrap().take().unwrap_or_else(|| device().expect("a second device"));
    let totals = testkit::par_map_with(&seeds, init, |gpu, &seed| {
        let config = pica::smith::Config { geometry: seed % 5 == 0, ..Default::default() };
        let shbin = pica::smith::generate(seed, &config).to_shbin();
        let settings =
            gpu::verify::Settings { cases: 64, precision: Precision::Exact, seed, dispatch_only: seed % 7 == 0 };
        let report = if config.geometry {
            gpu::verify::verify_geometry(gpu, &shbin, 0, settings)
        } else {
            gpu::verify::verify_vertex(gpu, &shbin, 0, settings)
        }
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(report.failed, 0, "smith seed {seed}: {:?}", report.examples);
        assert_eq!(report.mismatched_components, 0);
        (report.passed, report.skipped)
    });
    let passed: usize = totals.iter().map(|t| t.0).sum();
    let skipped: usize = totals.iter().map(|t| t.1).sum();
    eprintln!("smith: {count} programs, {passed} cases matched bit for bit, {skipped} skipped");
    assert!(passed as u64 >= count * 60, "{passed} of {} cases ran", count * 64);
}

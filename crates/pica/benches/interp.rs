//! Interpreter throughput in PICA instructions per second (one core), on three corpus shaders:
//! a simple transform, per-vertex lighting, and the loop-subdivision geometry shader, which reads
//! its vertex array through a0 relative addressing; plus a synthetic skinning vertex shader
//! (four bone matrices picked with MOVA and read as c[a0.x + k]). The two vertex shaders also run
//! through `Interpreter::run_batch` (`*_batch`), on the same inputs in the same run.
//!
//! `cargo bench -p pica --bench interp -- --warm-up-time 1 --measurement-time 3`
//! Criterion's "thrpt" column is instructions per second (elements = instructions executed).
//!
//! Time is the benchmark thread's CPU time (`/proc/thread-self/schedstat`, nanoseconds on the
//! CPU), not wall-clock time: the project machine is shared by several jobs, and wall-clock
//! figures there swing by a factor of two with the load. The kernel updates that counter at
//! scheduler ticks, so each group takes 10 equal samples of about 0.3 s (tick error below 2%).
//! Where the file does not exist (not Linux), wall-clock time is used instead.

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode, Throughput};
use pica::interp::{run_geometry, Interpreter, Program, Shader, ShaderKind, Vec4};
use pica::isa::Opcode;
use pica::isa::{AddrIndex, DstReg, OperandDescriptor, SrcReg, Swizzle};
use pica::shbin::Shbin;
use pica::smith::{plain_desc, Builder};

/// CPU time of the calling thread, in nanoseconds.
struct CpuTime;

fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

impl Measurement for CpuTime {
    type Intermediate = (u64, std::time::Instant);
    type Value = u64;

    fn start(&self) -> Self::Intermediate {
        (thread_cpu_ns().unwrap_or(0), std::time::Instant::now())
    }

    fn end(&self, (cpu, wall): Self::Intermediate) -> u64 {
        match thread_cpu_ns() {
            Some(now) if cpu != 0 => now - cpu,
            _ => wall.elapsed().as_nanos() as u64,
        }
    }

    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }

    fn zero(&self) -> u64 {
        0
    }

    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        // Values are nanoseconds, exactly like wall-clock ones: reuse its formatting.
        WallTime.formatter()
    }
}

type C = Criterion<CpuTime>;

/// A group with few, long, equal samples (see the module comment).
fn group(c: &mut C) -> BenchmarkGroup<'_, CpuTime> {
    let mut g = c.benchmark_group("interp");
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    g
}

fn golden(name: &str) -> Shbin {
    let path = testkit::corpus("pica/golden").join(name);
    Shbin::read(&std::fs::read(path).unwrap()).unwrap()
}

fn vertices(n: usize) -> Vec<[Vec4; 16]> {
    (0..n)
        .map(|k| {
            let t = k as f32 / 64.0;
            std::array::from_fn(|i| [t + i as f32, 0.5 - t, 0.25 * t, 1.0])
        })
        .collect()
}

/// Runs `inputs` through a vertex shader; returns instructions executed.
fn run_all(it: &mut Interpreter<'_>, entry: u32, inputs: &[[Vec4; 16]]) -> u64 {
    let mut steps = 0;
    for v in inputs {
        std::hint::black_box(it.run(entry, v).unwrap());
        steps += it.last_steps;
    }
    steps
}

fn bench_vertex(c: &mut C, label: &str, file: &str) {
    let shbin = golden(file);
    let shader = Shader::from_shbin(&shbin, 0).unwrap();
    let mut it = shader.interpreter();
    for i in 0..96 {
        it.set_float(i, [0.5, -0.25, 0.125, 1.0]);
    }
    // Keep the DVLE's constants on top of the filler.
    for (i, v) in shader.uniforms.float.iter().enumerate() {
        if *v != [0.0; 4] {
            it.set_float(i, *v);
        }
    }
    let inputs = vertices(256);
    let steps = run_all(&mut it, shader.entry, &inputs);
    let mut g = group(c);
    g.throughput(Throughput::Elements(steps));
    g.bench_function(label, |b| b.iter(|| run_all(&mut it, shader.entry, &inputs)));
    // The same vertices through the batched path, beside it.
    let mut outputs = vec![[[0.0; 4]; 16]; inputs.len()];
    g.bench_function(format!("{label}_batch"), |b| {
        b.iter(|| {
            assert!(it.run_batch(shader.entry, &inputs, &mut outputs).is_empty());
            std::hint::black_box(&outputs);
        })
    });
    g.finish();
}

fn bench_subdivision(c: &mut C) {
    let shbin = golden("3ds-examples__graphics__gpu__loop_subdivision__source__program.g.pica.shbin");
    let shader = Shader::from_shbin(&shbin, 0).unwrap();
    let mode = shader.geometry.unwrap();
    let mut it = shader.interpreter();
    // The subdivision pass count (`passes`) and a triangle with three neighbours per edge; the
    // third attribute's x of each corner is its neighbour count, read back through a0.
    let mut verts = vertices(9);
    for (k, v) in verts.iter_mut().enumerate().take(3) {
        v[2] = [2.0, 0.0, 0.0, 0.0];
        v[0] = [k as f32, (k * k) as f32, 0.0, 1.0];
    }
    let counts = [9usize];
    let run = |it: &mut Interpreter<'_>| {
        let mut steps = 0;
        for _ in 0..16 {
            let p = run_geometry(it, shader.entry, mode, &verts, 3, Some(&counts)).unwrap();
            std::hint::black_box(p);
            steps += it.last_steps;
        }
        steps
    };
    let steps = run(&mut it);
    let mut g = group(c);
    g.throughput(Throughput::Elements(steps));
    g.bench_function("loop_subdivision_gs_relative", |b| b.iter(|| run(&mut it)));
    g.finish();
}

/// Four-bone skinning: for each bone k, a0.x = v1[k] * 3 (MOVA), then the bone's 3x4 matrix
/// c[a0.x + 0..3] transforms the position, weighted by v2[k] with MAD.
fn skinning_program() -> (Vec<u32>, Vec<u32>) {
    let mut p = Builder::new();
    let all = plain_desc(0xF);
    let sel = |k: u8| OperandDescriptor::new(0xF, &[(false, Swizzle::from_components([k; 4]))]);
    let r = SrcReg::Temp;
    let rd = DstReg::Temp;
    // r0 = accumulated position, r1 = bone indices * 3, r2 = weights, r3 = position (w = 1).
    p.unary(Opcode::Mov, rd(3), SrcReg::Input(0), AddrIndex::None, all);
    p.alu(Opcode::Mul, rd(1), SrcReg::Const(95), SrcReg::Input(1), AddrIndex::None, all);
    p.unary(Opcode::Mov, rd(2), SrcReg::Input(2), AddrIndex::None, all);
    p.alu(Opcode::Mul, rd(0), SrcReg::Const(94), r(0), AddrIndex::None, all);
    for k in 0..4u8 {
        p.unary(Opcode::Mova, rd(0), r(1), AddrIndex::None, sel(k));
        for row in 0..3u8 {
            let mask = 8 >> row;
            p.alu(Opcode::Dp4, rd(4), SrcReg::Const(row), r(3), AddrIndex::A0x, plain_desc(mask));
        }
        p.alu(Opcode::Mov, rd(4), SrcReg::Const(93), r(4), AddrIndex::None, plain_desc(0b0001));
        let weight =
            OperandDescriptor::new(0xF, &[(false, Swizzle::IDENTITY), (false, Swizzle::from_components([k; 4]))]);
        p.mad(Opcode::Mad, rd(0), r(4), r(2), r(0), AddrIndex::None, weight);
    }
    for row in 0..4u8 {
        p.alu(Opcode::Dp4, DstReg::Output(0), SrcReg::Const(80 + row), r(0), AddrIndex::None, plain_desc(8 >> row));
    }
    p.unary(Opcode::Mov, DstReg::Output(1), r(2), AddrIndex::None, all);
    p.plain(Opcode::End);
    let b = p.finish().unwrap();
    (b.code, b.descriptor_words)
}

fn bench_skinning(c: &mut C) {
    let (code, descs) = skinning_program();
    let program = Program::new(&code, &descs).unwrap();
    let mut it = Interpreter::new(&program, ShaderKind::Vertex);
    for i in 0..96 {
        it.set_float(i, [0.5 + i as f32, -0.25, 0.125, 1.0]);
    }
    it.set_float(95, [3.0; 4]);
    it.set_float(94, [0.0; 4]);
    it.set_float(93, [1.0; 4]);
    let mut inputs = vertices(256);
    for (k, v) in inputs.iter_mut().enumerate() {
        v[1] = [(k % 8) as f32, ((k + 1) % 8) as f32, ((k + 3) % 8) as f32, ((k + 5) % 8) as f32];
        v[2] = [0.5, 0.25, 0.125, 0.125];
    }
    let steps = run_all(&mut it, 0, &inputs);
    let mut g = group(c);
    g.throughput(Throughput::Elements(steps));
    g.bench_function("skinning_synthetic_relative", |b| b.iter(|| run_all(&mut it, 0, &inputs)));
    g.finish();
}

fn benches(c: &mut C) {
    bench_vertex(c, "simple_transform", "3ds-examples__graphics__gpu__simple_tri__source__vshader.v.pica.shbin");
    bench_vertex(c, "vertex_lighting", "3ds-examples__graphics__gpu__textured_cube__source__vshader.v.pica.shbin");
    bench_subdivision(c);
    bench_skinning(c);
}

criterion_group! {
    name = interp;
    config = Criterion::default().with_measurement(CpuTime);
    targets = benches
}
criterion_main!(interp);

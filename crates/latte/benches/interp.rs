//! Interpreter throughput in ALU groups per second (one lane group step of a quad or a vertex
//! counts once), on one core, for three programs of corpus/latte-mesa/programs: t05's pixel
//! program (a loop with per-pixel break and continue: divergent branches in quads), t25's pixel
//! program (nested loops with a texture fetch per inner iteration), and t30's vertex program (a
//! loop over a uniform array read through kcache and VFETCH, with a break). The reference in
//! the same run is `decode`: decoding the same program once per iteration, the fixed cost a
//! user of `Vm::new` pays per program. BENCHMARKS.md, "Latte interpreter", has the figures.
//!
//! Time is the benchmark thread's CPU time (`/proc/thread-self/schedstat`), as in the pica
//! interpreter bench: wall-clock figures on the shared project machine swing with its load.
//! Groups take 10 equal samples. Where the file does not exist, wall-clock time is used.
//!
//! `cargo bench -p latte --bench interp -- --warm-up-time 1 --measurement-time 3`

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use latte::interp::{Buffer, Config, CpuTextures, Inputs, Invocation, Stage, Texture2d, Vm};
use latte::isa::Program;
use std::sync::Arc;

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
        WallTime.formatter()
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f32 {
        (self.next() % 10_000) as f32 / 10_000.0
    }
}

fn bytes(test: &str, stage: &str) -> Vec<u8> {
    std::fs::read(testkit::corpus(&format!("latte-mesa/programs/{test}/{stage}.bin"))).unwrap()
}

/// Inputs and 256 invocations for one of the three programs.
fn workload(test: &str, rng: &mut Rng) -> (Stage, Inputs, Vec<Invocation>) {
    let f = |x: f32| x.to_bits();
    let mut inputs = Inputs::default();
    let mut tex = CpuTextures::default();
    tex.units.insert(
        18,
        Texture2d {
            width: 4,
            height: 4,
            texels: (0..16).map(|_| [rng.unit(), rng.unit(), rng.unit(), rng.unit()]).collect(),
        },
    );
    inputs.textures = Some(Arc::new(tex));
    match test {
        "t30_vs_loop_branch" => {
            let mut block: Vec<u32> =
                (0..32).flat_map(|_| [rng.unit() * 0.5, rng.unit() * 0.5, rng.unit() * 0.5, 0.0].map(f)).collect();
            block.extend([8, f(6.0), 0, 0]);
            inputs.buffers.insert(
                1,
                Buffer { data: block.iter().flat_map(|w| w.to_le_bytes()).collect(), stride: 16, format: None },
            );
            inputs.uniform_blocks.insert(1, block);
            let invs = (0..256)
                .map(|_| {
                    let mut v = || [0; 4].map(|_| f(rng.unit()));
                    let (a, b, c) = (v(), v(), v());
                    Invocation { gprs: vec![(1, a), (2, b), (3, c)], invalid: false }
                })
                .collect();
            (Stage::Vertex, inputs, invs)
        }
        _ => {
            // t05: u_max in block 0 word 0; t25: the two loop bounds in words 0 and 4.
            inputs.uniform_blocks.insert(0, vec![6, 0, 0, 0, 4, 0, 0, 0]);
            let invs = (0..256)
                .map(|_| Invocation {
                    gprs: vec![(0, [rng.unit(), rng.unit(), rng.unit() * 3.0, rng.unit()].map(f))],
                    invalid: false,
                })
                .collect();
            (Stage::Pixel, inputs, invs)
        }
    }
}

fn bench(c: &mut Criterion<CpuTime>) {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for (test, stage) in [("t05_break_continue", "ps"), ("t25_nested_loops", "ps"), ("t30_vs_loop_branch", "vs")] {
        let raw = bytes(test, stage);
        let p = Program::decode_bytes(&raw, 0).unwrap();
        let vm = Vm::new(&p);
        let (st, inputs, invs) = workload(test, &mut rng);
        let (_, stats) = vm.run_stats(st, &inputs, &Config::default(), &invs).unwrap();
        eprintln!("{test} {stage}: 256 invocations run {stats:?} per iteration");
        let mut g = c.benchmark_group(format!("latte_interp_{test}"));
        g.sample_size(10).sampling_mode(SamplingMode::Flat);
        g.throughput(Throughput::Elements(stats.alu_groups));
        g.bench_function("run_256", |b| {
            b.iter(|| std::hint::black_box(vm.run(st, &inputs, &Config::default(), &invs).unwrap()))
        });
        g.throughput(Throughput::Elements(1));
        g.bench_function("decode", |b| b.iter(|| std::hint::black_box(Program::decode_bytes(&raw, 0).unwrap())));
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = bench
}
criterion_main!(benches);

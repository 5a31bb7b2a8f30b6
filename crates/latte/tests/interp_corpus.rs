//! Every program of the corpus (the .gsh programs of corpus/latte and corpus/latte-mesa, and
//! the 64 compiler-written .bin programs of corpus/latte-mesa/programs) runs on random inputs
//! without an error: random uniform blocks, constant file, registers, a buffer behind every
//! BUFFER_ID it fetches and a procedural texture host (docs/latte-interp.md).

mod common;
use common::{corpus, walk};
use latte::gfd::{BlockKind, GfdFile};
use latte::interp::{Buffer, Config, Inputs, InterpError, Invocation, Stage, TexRequest, Textures, Vm};
use latte::isa::program::ClauseBody;
use latte::isa::{FetchInst, Program};
use std::sync::Arc;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A lane value: a small float, a small integer (indices, counts, booleans) or 0.
    fn value(&mut self) -> u32 {
        match self.next() % 4 {
            0 => ((self.next() % 2000) as f32 / 250.0 - 4.0).to_bits(),
            1 => (self.next() % 6) as u32,
            2 => ((self.next() % 1000) as f32 / 1000.0).to_bits(),
            _ => 0,
        }
    }
}

/// Textures whose texels are a hash of the request (never an error).
struct Procedural;
impl Textures for Procedural {
    fn fetch(&self, r: &TexRequest) -> Result<[u32; 4], String> {
        let mut h = 0xcbf2_9ce4_8422_2325u64 ^ r.op as u64 ^ (r.resource as u64) << 8;
        for w in r.src {
            h = (h ^ w as u64).wrapping_mul(0x1000_0000_01b3);
        }
        Ok([0, 1, 2, 3].map(|k| (((h >> (k * 16)) & 0xFFFF) as f32 / 65535.0).to_bits()))
    }
}

fn programs() -> Vec<(String, Stage, Vec<u8>)> {
    let mut out = Vec::new();
    let mut files = Vec::new();
    walk(&corpus().join("latte"), "gsh", &mut files);
    walk(&corpus().join("latte-mesa"), "gsh", &mut files);
    for f in files {
        let gfd = GfdFile::parse(&std::fs::read(&f).unwrap()).unwrap();
        for b in &gfd.blocks {
            let stage = match b.block_kind() {
                BlockKind::VertexProgram => Stage::Vertex,
                BlockKind::PixelProgram => Stage::Pixel,
                BlockKind::GeometryProgram => Stage::Geometry,
                BlockKind::GeometryCopyProgram => Stage::GsCopy,
                _ => continue,
            };
            out.push((format!("{}@{:#x}", f.display(), b.data_offset), stage, b.data.clone()));
        }
    }
    let mut bins = Vec::new();
    walk(&corpus().join("latte-mesa/programs"), "bin", &mut bins);
    for f in bins {
        let stage = match f.file_stem().unwrap().to_str().unwrap() {
            "vs" => Stage::Vertex,
            "ps" => Stage::Pixel,
            "gs" => Stage::Geometry,
            _ => Stage::GsCopy,
        };
        out.push((f.display().to_string(), stage, std::fs::read(&f).unwrap()));
    }
    out
}

/// Random inputs; with `ints`, uniform blocks hold only small integers (loop bounds that a
/// float's bit pattern would make a billion iterations long).
fn random_inputs(p: &Program, rng: &mut Rng, ints: bool) -> Inputs {
    let mut inputs = Inputs::default();
    for b in 0..16u8 {
        inputs
            .uniform_blocks
            .insert(b, (0..256).map(|_| if ints { (rng.next() % 6) as u32 } else { rng.value() }).collect());
    }
    inputs.cfile = (0..256).map(|_| [rng.value(), rng.value(), rng.value(), rng.value()]).collect();
    for c in &p.clauses {
        if let ClauseBody::Fetch(f) = &c.body {
            for fi in f {
                if let FetchInst::Vtx(v) = fi {
                    inputs.buffers.entry(v.buffer_id).or_insert_with(|| Buffer {
                        data: (0..4096).flat_map(|_| rng.value().to_le_bytes()).collect(),
                        stride: 16,
                        format: None,
                    });
                }
            }
        }
    }
    inputs.textures = Some(Arc::new(Procedural));
    inputs
}

fn invocations(stage: Stage, rng: &mut Rng) -> Vec<Invocation> {
    (0..4)
        .map(|i| Invocation {
            gprs: (0..16u8)
                .map(|r| {
                    let mut v = [rng.value(), rng.value(), rng.value(), rng.value()];
                    if r == 0 && stage == Stage::Vertex {
                        v = [i, 0, 0, 0];
                    }
                    (r, v)
                })
                .collect(),
            invalid: false,
        })
        .collect()
}

#[test]
fn every_corpus_program_runs_on_random_inputs() {
    let progs = programs();
    assert!(progs.len() >= 96 + 64, "{} programs", progs.len());
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut runs, mut exports, mut retried) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for (name, stage, bytes) in &progs {
        let p = Program::decode_bytes(bytes, 0).unwrap_or_else(|e| panic!("{name}: {e}"));
        let vm = Vm::new(&p);
        for case in 0..8 {
            let ints = case % 2 == 1;
            let inputs = random_inputs(&p, &mut rng, ints);
            let mut result = vm.run(*stage, &inputs, &Config::default(), &invocations(*stage, &mut rng));
            // Inputs can make a program loop for ever (t06's `do f *= 0.5; while (f > y)` with
            // y < 0) or a billion times (a float's bits read as a loop bound): the budget stops
            // it, an error and not a hang. Fresh inputs with integer uniforms must then run.
            for _ in 0..8 {
                if !matches!(result, Err(InterpError::StepBudget { .. })) {
                    break;
                }
                retried += 1;
                let inputs = random_inputs(&p, &mut rng, true);
                result = vm.run(*stage, &inputs, &Config::default(), &invocations(*stage, &mut rng));
            }
            match result {
                Ok(r) => {
                    runs += r.len();
                    exports += r.iter().map(|x| x.exports.len() + x.mem_writes.len()).sum::<usize>();
                }
                Err(e) => {
                    failures.push(format!("{name} ({stage:?}): {e}"));
                    break;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} programs failed:\n{}", failures.len(), progs.len(), failures.join("\n"));
    assert!(exports > runs, "{exports} exports for {runs} invocations");
    eprintln!(
        "{} programs, {runs} invocations, {exports} exports and memory writes, {retried} cases stopped by the budget and rerun",
        progs.len()
    );
}

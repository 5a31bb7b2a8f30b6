//! Translates one Latte .gsh shader (index N) and prints the first output words of
//! the compute form on the device: `cargo run -p gpu --release --example latte_one FILE.gsh [N]`.

use latte::gfd::{GfdFile, Stage as GStage};
use latte::isa::Program;
use translate::latte::{translate, Options, Stage, IN_STRIDE, OUT_WORDS};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let gfd = GfdFile::parse(&std::fs::read(&args[1]).unwrap()).unwrap();
    let k: usize = args.get(2).map_or(0, |s| s.parse().unwrap());
    let s = &gfd.shaders().unwrap()[k];
    let stage = if s.header.stage == GStage::Pixel { Stage::Pixel } else { Stage::Vertex };
    let bytes = s.program.clone().unwrap();
    let p = Program::decode_bytes(&bytes, 0).unwrap();
    let precision =
        if std::env::var_os("FAST").is_some() { translate::Precision::Fast } else { translate::Precision::Exact };
    let t = translate(&p, stage, &Options { precision, ..Options::default() }).unwrap();

    let gpu = gpu::Gpu::new().unwrap();
    let mut input = vec![0u32; 2 * IN_STRIDE as usize * 4];
    for (i, x) in input.iter_mut().enumerate() {
        *x = i as u32;
    }
    let blocks: Vec<(u8, &[u32])> = Vec::new();
    let run = gpu::LatteRun {
        blocks: &blocks,
        bind_blocks: t.uniform_blocks(),
        cfile: &[],
        input: &input,
        invocations: 2,
        fetch: None,
    };
    println!("blocks {:?} cfile {} flow {:?}", t.uniform_blocks(), t.reads_cfile(), t.flow());
    let (out, took) = gpu.run_latte_compute(&t.spirv().unwrap(), &run).unwrap();
    println!("{:?} in {took:?}", &out[..16]);
    println!("{:?}", &out[OUT_WORDS as usize..OUT_WORDS as usize + 16]);
}

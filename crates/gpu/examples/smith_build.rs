//! Pipeline creation alone (lavapipe's NIR passes, without the LLVM compile of the first
//! dispatch) of the smith vertex programs as the device test translates them, slowest first: `cargo run -p
//! gpu --release --example smith_build FIRST COUNT`. A quick screen for programs the driver's
//! NIR compiler takes long over (set `MESA_SHADER_CACHE_DISABLE=true`).
fn main() {
    let first: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let n: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let gpu = gpu::Gpu::new().expect("device");
    let mut times = Vec::new();
    for seed in first..first + n {
        let config = pica::smith::Config { geometry: seed % 5 == 0, ..Default::default() };
        if config.geometry {
            continue;
        }
        let shbin = pica::smith::generate(seed, &config).to_shbin();
        let options = translate::pica::Options {
            precision: translate::Precision::Exact,
            dispatch_only: seed % 7 == 0,
            compute_wrapper: true,
        };
        let t = translate::pica::translate(&shbin, 0, options).expect("translate");
        let words = t.spirv().expect("SPIR-V");
        let cpu = testkit::cpu_seconds();
        gpu.build_compute_pipeline(&words, translate::pica::COMPUTE_ENTRY).expect("pipeline");
        let cpu = testkit::cpu_seconds() - cpu;
        if cpu > 0.5 {
            eprintln!("seed {seed}: {cpu:.2} s of CPU ({:?})", t.interface().flow);
        }
        times.push((cpu, seed, t.interface().flow));
    }
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = times.iter().map(|t| t.0).sum();
    println!("{} programs, {total:.1} s of CPU", times.len());
    for t in times.iter().take(10) {
        println!("{:.2} s seed {} {:?}", t.0, t.1, t.2);
    }
}

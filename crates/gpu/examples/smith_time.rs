//! Per-program verification time of smith programs, slowest first: `cargo run -p gpu --release
//! --example smith_time FIRST COUNT [build]`. With `build`, the CPU time of pipeline creation
//! alone (lavapipe's NIR passes, without the LLVM compile of the first dispatch) of the vertex
//! programs as the device test translates them: a quick screen for programs the driver's NIR
//! compiler takes long over (set `MESA_SHADER_CACHE_DISABLE=true`).
fn main() {
    let first: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let n: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let build_only = std::env::args().nth(3).is_some_and(|a| a == "build");
    let gpu = gpu::Gpu::new().expect("device");
    let mut times = Vec::new();
    for seed in first..first + n {
        let config = pica::smith::Config { geometry: seed % 5 == 0, ..Default::default() };
        let shbin = pica::smith::generate(seed, &config).to_shbin();
        let settings = gpu::verify::Settings {
            cases: 64,
            precision: translate::Precision::Exact,
            seed,
            dispatch_only: seed % 7 == 0,
        };
        if build_only {
            if config.geometry {
                continue;
            }
            let options = translate::pica::Options {
                precision: settings.precision,
                dispatch_only: settings.dispatch_only,
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
            times.push((cpu, seed, Ok((0, 0, 0))));
            continue;
        }
        let t = std::time::Instant::now();
        let r = if config.geometry {
            gpu::verify::verify_geometry(&gpu, &shbin, 0, settings)
        } else {
            gpu::verify::verify_vertex(&gpu, &shbin, 0, settings)
        };
        times.push((
            t.elapsed().as_secs_f64(),
            seed,
            r.map(|r| (r.passed, r.failed, r.skipped)).map_err(|e| e.to_string()),
        ));
        eprintln!("seed {seed}: {:.2}s", times.last().unwrap().0);
    }
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = times.iter().map(|t| t.0).sum();
    println!("{} programs, {total:.1} s in total", times.len());
    for t in times.iter().take(10) {
        println!("{:.2}s seed {} {:?}", t.0, t.1, t.2);
    }
}

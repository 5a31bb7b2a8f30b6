//! Per-program verification time of smith programs, slowest first: `cargo run -p gpu --release
//! --example smith_time FIRST COUNT`.
fn main() {
    let first: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let n: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(20);
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
    times.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    for t in times.iter().take(10) {
        println!("{:.2}s seed {} {:?}", t.0, t.1, t.2);
    }
}

//! Verifies executable 0 of a SHBIN in `exact`, through the chosen flow or the dispatch loop:
//! `cargo run -p gpu --example verify_one FILE.shbin [dispatch]`.
fn main() {
    let path = std::env::args().nth(1).expect("FILE.shbin");
    let dispatch_only = std::env::args().nth(2).is_some();
    let shbin = pica::shbin::Shbin::read(&std::fs::read(path).expect("read")).expect("SHBIN");
    let gpu = gpu::Gpu::new().expect("device");
    let settings = gpu::verify::Settings { cases: 4, precision: translate::Precision::Exact, seed: 1, dispatch_only };
    let t = std::time::Instant::now();
    let r = gpu::verify::verify_vertex(&gpu, &shbin, 0, settings).expect("verify");
    println!("{} passed, {} failed in {:.2}s", r.passed, r.failed, t.elapsed().as_secs_f64());
}

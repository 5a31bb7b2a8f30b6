//! The translated form of smith programs as the device test makes them: `cargo run -p gpu
//! --release --example smith_forms FIRST COUNT` prints `seed kind flow words` per program.
fn main() {
    let first: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let n: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    for seed in first..first + n {
        let config = pica::smith::Config { geometry: seed % 5 == 0, ..Default::default() };
        let shbin = pica::smith::generate(seed, &config).to_shbin();
        let options = translate::pica::Options {
            precision: translate::Precision::Exact,
            dispatch_only: seed % 7 == 0,
            compute_wrapper: true,
        };
        match translate::pica::translate(&shbin, 0, options) {
            Ok(t) => {
                let words = t.spirv().map(|w| w.len()).unwrap_or(0);
                let kind = if config.geometry { "gs" } else { "vs" };
                println!("{seed} {kind} {:?} {words}", t.interface().flow);
            }
            Err(e) => println!("{seed} error {e}"),
        }
    }
}

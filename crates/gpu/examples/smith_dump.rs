//! Writes smith program SEED as a SHBIN: `cargo run -p gpu --example smith_dump SEED OUT.shbin`.
fn main() {
    let seed: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).expect("SEED");
    let out = std::env::args().nth(2).expect("OUT.shbin");
    let config = pica::smith::Config { geometry: seed.is_multiple_of(5), ..Default::default() };
    std::fs::write(out, pica::smith::generate(seed, &config).to_shbin().to_bytes()).expect("write");
}

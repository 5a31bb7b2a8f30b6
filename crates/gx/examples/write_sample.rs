//! Writes the built-in sample BRRES (gx::brres::sample) to the path given as the first argument.
//!
//! `cargo run -p gx --example write_sample -- sample.brres`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: write_sample OUT.brres")?;
    let bytes = gx::brres::write(&gx::brres::sample::sample_brres())?;
    std::fs::write(&path, &bytes)?;
    println!("{path}: {} bytes", bytes.len());
    Ok(())
}

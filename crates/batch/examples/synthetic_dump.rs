//! Writes the synthetic game dump (`latte::dump`) to a directory: `synthetic_dump DIR [SEED]`.

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: synthetic_dump DIR [SEED]");
        std::process::exit(2);
    };
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let dump = latte::dump::generate(&latte::dump::DumpConfig::game(seed));
    if let Err(e) = dump.write_to(std::path::Path::new(&dir)) {
        eprintln!("{dir}: {e}");
        std::process::exit(1);
    }
    let e = &dump.expected;
    println!("{} files, {} entries, {} GFDs, {} keys", e.files, e.entries, e.gfds.len(), e.keys.len());
}

//! Where the time of one translation goes (read, build and validate, write), averaged over the
//! corpus: `cargo run -p translate --release --example phases`.
fn main() {
    let dir = testkit::corpus("pica/golden");
    let mut t = [0f64; 3];
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "shbin") {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        for _ in 0..20 {
            let a = std::time::Instant::now();
            let shbin = pica::shbin::Shbin::read(&bytes).unwrap();
            let b = std::time::Instant::now();
            let tr = translate::pica::translate(&shbin, 0, Default::default()).unwrap();
            let c = std::time::Instant::now();
            let w = tr.spirv().unwrap();
            let d = std::time::Instant::now();
            std::hint::black_box(w);
            t[0] += (b - a).as_secs_f64();
            t[1] += (c - b).as_secs_f64();
            t[2] += (d - c).as_secs_f64();
            n += 1;
        }
    }
    let us = |x: f64| x / n as f64 * 1e6;
    println!("mean per shader: read {:.1}us, build and validate {:.1}us, SPIR-V {:.1}us", us(t[0]), us(t[1]), us(t[2]));
}

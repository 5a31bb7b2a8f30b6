//! Prints the instruction trace of executable 0 of a SHBIN in the reference interpreter (for
//! debugging translations): `cargo run -p gpu --example trace FILE.shbin`.
fn main() {
    let bytes = std::fs::read(std::env::args().nth(1).expect("FILE.shbin")).expect("read");
    let shbin = pica::shbin::Shbin::read(&bytes).expect("SHBIN");
    let shader = pica::interp::Shader::from_shbin(&shbin, 0).expect("load");
    for b in [false, true] {
        let mut trace = Vec::new();
        for n in 1..200 {
            let mut it = shader.interpreter();
            let mut u = it.uniforms();
            u.bools = [b; 16];
            u.int[0] = [1, 0, 1, 0];
            it.set_uniforms(&u);
            it.step_limit = n;
            match it.run(shader.entry, &[[1.0; 4]; 16]) {
                Err(pica::interp::RunError::StepLimit { pc, .. }) => trace.push(pc),
                other => {
                    println!("bools {b}: stops after {n} steps: {:?}", other.map(|_| ()));
                    break;
                }
            }
        }
        println!("bools {b}: {trace:?}");
    }
}

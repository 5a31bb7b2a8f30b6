fn main() {
    let path = std::env::args().nth(1).unwrap();
    let gfd = latte::gfd::GfdFile::parse(&std::fs::read(&path).unwrap()).unwrap();
    for s in gfd.shaders().unwrap() {
        println!("; ---- {:?}", s.header.stage);
        if let Some(p) = s.program {
            let p = latte::isa::Program::decode_bytes(&p, s.program_offset).unwrap();
            print!("{}", latte::disasm::disassemble(&p));
        }
    }
}

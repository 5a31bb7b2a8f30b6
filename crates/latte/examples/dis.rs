fn main() {
    let path = std::env::args().nth(1).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let words = latte::gfd::program_words(&bytes);
    let p = latte::isa::Program::decode(&words, 0).unwrap();
    print!("{}", latte::disasm::disassemble(&p));
}

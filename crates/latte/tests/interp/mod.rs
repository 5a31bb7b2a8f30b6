//! Helpers of the interpreter tests: assemble text, run it, read registers and exports.
#![allow(dead_code)]

use latte::interp::{Config, Inputs, InterpError, Invocation, InvocationResult, Stage, Vm};
use latte::isa::table::{self, Slots};

pub fn fb(x: f32) -> u32 {
    x.to_bits()
}

pub fn bf(u: u32) -> f32 {
    f32::from_bits(u)
}

pub fn inv(gprs: &[(u8, [u32; 4])]) -> Invocation {
    Invocation { gprs: gprs.to_vec(), invalid: false }
}

/// Assembles `text` (docs/latte-asm.md syntax) and runs it.
pub fn try_run(
    text: &str,
    stage: Stage,
    inputs: &Inputs,
    invs: &[Invocation],
) -> Result<Vec<InvocationResult>, InterpError> {
    let p = latte::asm::assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}")).program;
    Vm::new(&p).run(stage, inputs, &Config::default(), invs)
}

pub fn run(text: &str, stage: Stage, inputs: &Inputs, invs: &[Invocation]) -> Vec<InvocationResult> {
    try_run(text, stage, inputs, invs).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Runs one ALU clause (group lines with group numbers) on one invocation; the final GPRs.
pub fn alu(body: &str, gprs: &[(u8, [u32; 4])]) -> Vec<[u32; 4]> {
    alu_with(body, gprs, &Inputs::default())
}

pub fn alu_with(body: &str, gprs: &[(u8, [u32; 4])], inputs: &Inputs) -> Vec<[u32; 4]> {
    let text = format!("00 ALU:\n{body}\nEND_OF_PROGRAM\n");
    run(&text, Stage::Vertex, inputs, &[inv(gprs)]).remove(0).gprs
}

fn slot_of(op: &str) -> &'static str {
    match table::alu_by_name(op) {
        Some((false, c)) if table::alu_op2(c).is_some_and(|o| o.slots == Slots::Trans) => "t",
        Some((true, c)) if table::alu_op3(c).is_some_and(|o| o.slots == Slots::Trans) => "t",
        _ => "x",
    }
}

/// `op R1.x, R0.x` on `x`.
pub fn unary(op: &str, x: u32) -> u32 {
    alu(&format!("0 {}: {op} R1.x, R0.x", slot_of(op)), &[(0, [x, 0, 0, 0])])[1][0]
}

/// `op R1.x, R0.x, R0.y` on `a`, `b`.
pub fn binary(op: &str, a: u32, b: u32) -> u32 {
    alu(&format!("0 {}: {op} R1.x, R0.x, R0.y", slot_of(op)), &[(0, [a, b, 0, 0])])[1][0]
}

/// `op R1.x, R0.x, R0.y, R0.z` on `a`, `b`, `c`.
pub fn ternary(op: &str, a: u32, b: u32, c: u32) -> u32 {
    alu(&format!("0 {}: {op} R1.x, R0.x, R0.y, R0.z", slot_of(op)), &[(0, [a, b, c, 0])])[1][0]
}

/// The value of export `name` (`pos0`, `param1`, `pix0`) of `r`.
pub fn export(r: &InvocationResult, name: &str) -> Option<[u32; 4]> {
    r.exports.iter().rev().find(|e| e.name() == name).map(|e| e.value)
}

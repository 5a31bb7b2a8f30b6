//! The structured form of a generated program, and its layout into instructions.
//!
//! Blocks are laid out as picasso lays out `.proc`, `ifc`/`.else`/`.end` and `for`/`.end`; the
//! generator guarantees that every block ends with a plain (non-flow) instruction, so no two
//! blocks end at the same address and no flow instruction is the last of a block (the layouts
//! picasso pads with NOPs; see docs/pica-interp.md "Control flow").

use crate::isa::{Condition, Instruction, Opcode};

use super::builder::Builder;

/// How a CALL, IF or JMP decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// Unconditional (CALL only).
    Always,
    /// On the cmp flags (CALLC, IFC, JMPC).
    Cmp(Condition),
    /// On boolean uniform b`n` (CALLU, IFU, JMPU); `invert` is JMPU's NUM bit 0.
    Bool { b: u8, invert: bool },
}

/// A statement of a generated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// One instruction that needs no layout (arithmetic, CMP, MOVA, NOP, SETEMIT, EMIT, BREAK,
    /// BREAKC: BREAK targets come from the LOOP stack, not the encoding).
    Plain(Instruction),
    If {
        test: Test,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
    },
    /// LOOP on integer uniform i`i`.
    Loop {
        i: u8,
        body: Vec<Stmt>,
    },
    /// CALL / CALLC / CALLU of subroutine `sub`.
    Call {
        test: Test,
        sub: usize,
    },
    /// A forward JMPC / JMPU over `skip`.
    Jump {
        test: Test,
        skip: Vec<Stmt>,
    },
}

/// A whole program: the main body (END is appended) and the subroutines, laid out after it, and
/// the operand descriptor table its instructions index.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Ast {
    pub main: Vec<Stmt>,
    pub subs: Vec<Vec<Stmt>>,
    pub descriptors: Vec<crate::isa::OperandDescriptor>,
}

fn size(stmts: &[Stmt]) -> usize {
    stmts
        .iter()
        .map(|s| match s {
            Stmt::Plain(_) | Stmt::Call { .. } => 1,
            Stmt::If { then, otherwise, .. } => 1 + size(then) + size(otherwise),
            Stmt::Loop { body, .. } => 1 + size(body),
            Stmt::Jump { skip, .. } => 1 + size(skip),
        })
        .sum()
}

impl Ast {
    /// Instruction words the layout takes.
    pub fn len(&self) -> usize {
        size(&self.main) + 1 + self.subs.iter().map(|s| size(s)).sum::<usize>()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// Words of the main body, END included (where the subroutines start).
    pub fn main_len(&self) -> usize {
        size(&self.main) + 1
    }

    /// Lays the program out into `b` (which must be empty): main, END, then each subroutine.
    pub fn lay_out(&self, b: &mut Builder) {
        let mut sub_at = Vec::with_capacity(self.subs.len());
        let mut at = size(&self.main) + 1;
        for s in &self.subs {
            sub_at.push((at as u16, size(s) as u8));
            at += size(s);
        }
        b.set_descriptors(self.descriptors.clone());
        emit(&self.main, b, &sub_at);
        b.plain(Opcode::End);
        for s in &self.subs {
            emit(s, b, &sub_at);
        }
    }
}

fn uniform_id(test: Test) -> (u8, bool) {
    match test {
        Test::Bool { b, invert } => (b, invert),
        _ => (0, false),
    }
}

fn emit(stmts: &[Stmt], b: &mut Builder, subs: &[(u16, u8)]) {
    for s in stmts {
        match s {
            Stmt::Plain(i) => {
                b.push(*i);
            }
            Stmt::If { test, then, otherwise } => {
                let at = b.here();
                let dst = at + 1 + size(then) as u16;
                let num = size(otherwise) as u8;
                match *test {
                    Test::Bool { b: id, .. } => b.uniform(Opcode::Ifu, dst, num, id),
                    Test::Cmp(cond) => b.flow(Opcode::Ifc, dst, num, cond),
                    Test::Always => unreachable!("the generator makes no unconditional IF"),
                };
                emit(then, b, subs);
                emit(otherwise, b, subs);
            }
            Stmt::Loop { i, body } => {
                let dst = b.here() + size(body) as u16;
                b.uniform(Opcode::Loop, dst, 0, *i);
                emit(body, b, subs);
            }
            Stmt::Call { test, sub } => {
                let (dst, num) = subs[*sub];
                match *test {
                    Test::Always => b.flow(
                        Opcode::Call,
                        dst,
                        num,
                        Condition { op: crate::isa::CondOp::Or, refx: false, refy: false },
                    ),
                    Test::Cmp(cond) => b.flow(Opcode::Callc, dst, num, cond),
                    Test::Bool { .. } => b.uniform(Opcode::Callu, dst, num, uniform_id(*test).0),
                };
            }
            Stmt::Jump { test, skip } => {
                let dst = b.here() + 1 + size(skip) as u16;
                match *test {
                    Test::Cmp(cond) => b.flow(Opcode::Jmpc, dst, 0, cond),
                    Test::Bool { b: id, invert } => b.uniform(Opcode::Jmpu, dst, invert as u8, id),
                    Test::Always => unreachable!("the generator makes no unconditional JMP"),
                };
                emit(skip, b, subs);
            }
        }
    }
}

//! The generator: random structured programs over `arbitrary::Unstructured` (the wasm-smith
//! shape), valid by construction:
//!
//! - nesting stays within the stacks (CALL 4, IF 8, LOOP 4), counted across calls;
//! - every loop count comes from an integer uniform the generator sets (x <= 3), jumps only go
//!   forward and calls form a tree (one subroutine per call site), so every program ends, on any
//!   float and boolean inputs, within 256 * its length steps;
//! - BREAK/BREAKC sit directly in a loop body, never inside a nested IF or CALL (the ISA page);
//! - every block ends with a plain instruction (no two blocks end together, no flow instruction
//!   ends a block), as picasso's padding NOPs ensure;
//! - no instruction reads two different input registers and no two MOVA follow each other
//!   (picasso refuses both), MAD descriptors fit the 5-bit field (the pool has 32 entries).

use arbitrary::{Result, Unstructured};

use super::ast::{Ast, Stmt, Test};
use super::builder::{Builder, Built};
use crate::interp::ShaderKind;
use crate::isa::{
    AddrIndex, CmpOp, CondOp, Condition, DstReg, Instruction, Opcode, OperandDescriptor, Operands, SrcReg, Swizzle,
};

/// Knobs of the generator.
#[derive(Clone, Debug)]
pub struct Config {
    /// Upper bound on instruction words (the layout never exceeds it).
    pub max_instructions: usize,
    /// Statements per block, at most.
    pub max_block: usize,
    /// Generate a geometry shader (SETEMIT/EMIT). Outputs are o0-o6 in either kind.
    pub geometry: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config { max_instructions: 160, max_block: 8, geometry: false }
    }
}

/// A generated program with the uniforms its loops need.
#[derive(Clone, Debug)]
pub struct SmithProgram {
    pub ast: Ast,
    pub built: Built,
    pub kind: ShaderKind,
    /// i0-i3: the loop counts (x <= 3), initial aL (y) and step (z) the program was made for.
    pub int_uniforms: [[u8; 4]; 4],
    /// Suggested booleans (any values terminate).
    pub bool_uniforms: [bool; 16],
}

/// Generates a program from a seed (deterministic).
pub fn generate(seed: u64, config: &Config) -> SmithProgram {
    // The seeded source expands the seed into the byte stream Unstructured reads.
    let mut rng = super::Rng::new(seed);
    let bytes: Vec<u8> = (0..8192).flat_map(|_| rng.next_u64().to_le_bytes()).collect();
    let mut u = Unstructured::new(&bytes);
    arbitrary_program(&mut u, config).expect("generation only fails on exhausted input, which yields defaults")
}

/// Generates a program from raw bytes (for fuzzers and proptest); short input gives short
/// programs.
///
/// # Errors
/// Only those of `Unstructured` (none in practice: exhausted input reads as zeros).
pub fn arbitrary_program(u: &mut Unstructured<'_>, config: &Config) -> Result<SmithProgram> {
    let mut pool = Vec::with_capacity(32);
    pool.push(OperandDescriptor::new(0xF, &[]));
    // Entries 1-3 are MOVA's: a0 has only x and y.
    while pool.len() < 32 {
        let mask = if pool.len() <= 3 { [8, 4, 12][pool.len() - 1] } else { u.int_in_range(1..=15)? };
        let mut sources = [(false, Swizzle::IDENTITY); 3];
        for s in &mut sources {
            *s = (u.ratio(1, 4)?, if u.ratio(1, 2)? { Swizzle::IDENTITY } else { Swizzle(u.arbitrary()?) });
        }
        pool.push(OperandDescriptor::new(mask, &sources));
    }
    let mut int_uniforms = [[0u8; 4]; 4];
    for i in &mut int_uniforms {
        *i = [u.int_in_range(0..=3)?, u.int_in_range(0..=40)?, u.int_in_range(0..=4)?, 0];
    }
    let mut bool_uniforms = [false; 16];
    for b in &mut bool_uniforms {
        *b = u.arbitrary()?;
    }
    // One word for END, one reserved for the main block's closing instruction.
    let mut g =
        Gen { u, config, pool, budget: config.max_instructions.saturating_sub(2), subs: Vec::new(), last_mova: false };
    let main = g.block(Ctx::default())?;
    let ast = Ast { main, subs: g.subs, descriptors: g.pool };
    let mut b = Builder::new();
    ast.lay_out(&mut b);
    let built = b.finish().expect("generated instructions encode");
    let kind = if config.geometry { ShaderKind::Geometry } else { ShaderKind::Vertex };
    Ok(SmithProgram { ast, built, kind, int_uniforms, bool_uniforms })
}

/// Stack use around the block being generated.
#[derive(Clone, Copy, Debug, Default)]
struct Ctx {
    calls: u8,
    ifs: u8,
    loops: u8,
    /// Directly in a loop body (BREAK allowed).
    loop_body: bool,
}

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    config: &'a Config,
    pool: Vec<OperandDescriptor>,
    /// Instruction words still allowed.
    budget: usize,
    subs: Vec<Vec<Stmt>>,
    last_mova: bool,
}

/// The arithmetic opcodes of formats 1, 1i and 1u but MOVA (whose destination is a0), in table
/// order: plain forms, then the inverted ones.
fn alu_ops() -> impl Iterator<Item = Opcode> {
    Opcode::ALL.iter().copied().filter(|op| op.writes_register() && op.sources() <= 2)
}

impl Gen<'_, '_> {
    /// A block: up to `max_block` statements, then a plain closing instruction.
    /// The caller has already taken the word of the closing instruction from the budget.
    fn block(&mut self, ctx: Ctx) -> Result<Vec<Stmt>> {
        let n = self.u.int_in_range(0..=self.config.max_block)?;
        let mut out = Vec::new();
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            out.push(self.stmt(ctx)?);
        }
        // The closing instruction: plain arithmetic, never flow.
        out.push(Stmt::Plain(self.arith()?));
        Ok(out)
    }

    fn stmt(&mut self, ctx: Ctx) -> Result<Stmt> {
        // The statement's own word (the caller checked there is one); a compound statement also
        // takes one word per block it opens, for their closing instructions, before filling them.
        self.budget -= 1;
        let roomy = self.budget > 6;
        if roomy && matches!(self.u.int_in_range(0..=99)?, 0..=35) {
            return self.compound(ctx);
        }
        let pick = self.u.int_in_range(0..=99)?;
        let stmt = match pick {
            23..=25 if ctx.loop_body => {
                let i = if self.u.ratio(1, 4)? {
                    plain(Opcode::Break)
                } else {
                    Instruction {
                        opcode: Opcode::Breakc,
                        operands: Operands::Flow { dst: 0, num: 0, cond: self.condition()? },
                        extra: 0,
                    }
                };
                Stmt::Plain(i)
            }
            26..=31 if self.config.geometry => Stmt::Plain(if self.u.arbitrary()? {
                plain(Opcode::Emit)
            } else {
                Instruction {
                    opcode: Opcode::Setemit,
                    operands: Operands::SetEmit {
                        vertex: self.u.int_in_range(0..=2)?,
                        winding: self.u.arbitrary()?,
                        primitive: self.u.arbitrary()?,
                    },
                    extra: 0,
                }
            }),
            32..=39 => Stmt::Plain(self.cmp()?),
            40..=45 if !self.last_mova => {
                let desc = self.u.int_in_range(1..=3)?;
                let (src1, idx) = self.wide()?;
                // picasso writes 0 in MOVA's unused destination field.
                let op = Operands::Arith { dst: DstReg::Output(0), src1, src2: SrcReg::Input(0), idx, desc };
                Stmt::Plain(Instruction { opcode: Opcode::Mova, operands: op, extra: 0 })
            }
            46..=47 => Stmt::Plain(plain(Opcode::Nop)),
            _ => Stmt::Plain(self.arith()?),
        };
        self.last_mova = matches!(stmt, Stmt::Plain(Instruction { opcode: Opcode::Mova, .. }));
        Ok(stmt)
    }

    /// IF (with or without ELSE), LOOP, CALL or a forward JMP, within the stack depths; a plain
    /// instruction when the depth is used up.
    fn compound(&mut self, ctx: Ctx) -> Result<Stmt> {
        let stmt = match self.u.int_in_range(0..=3)? {
            0 if ctx.ifs < 8 => {
                let test = self.branch_test()?;
                let inner = Ctx { ifs: ctx.ifs + 1, loop_body: false, ..ctx };
                let has_else = self.u.ratio(1, 2)?;
                self.budget -= 1 + has_else as usize;
                let then = self.block(inner)?;
                let otherwise = if has_else { self.block(inner)? } else { Vec::new() };
                Stmt::If { test, then, otherwise }
            }
            1 if ctx.loops < 4 => {
                let i = self.u.int_in_range(0..=3)?;
                self.budget -= 1;
                let body = self.block(Ctx { loops: ctx.loops + 1, loop_body: true, ..ctx })?;
                Stmt::Loop { i, body }
            }
            2 if ctx.calls < 4 => {
                let test = match self.u.int_in_range(0..=2)? {
                    0 => Test::Always,
                    1 => Test::Cmp(self.condition()?),
                    _ => Test::Bool { b: self.u.int_in_range(0..=15)?, invert: false },
                };
                self.budget -= 1;
                let body = self.block(Ctx { calls: ctx.calls + 1, loop_body: false, ..ctx })?;
                self.subs.push(body);
                Stmt::Call { test, sub: self.subs.len() - 1 }
            }
            3 => {
                let test = match self.u.int_in_range(0..=1)? {
                    0 => Test::Cmp(self.condition()?),
                    _ => Test::Bool { b: self.u.int_in_range(0..=15)?, invert: self.u.arbitrary()? },
                };
                self.budget -= 1;
                let skip = self.block(Ctx { loop_body: false, ..ctx })?;
                Stmt::Jump { test, skip }
            }
            _ => Stmt::Plain(self.arith()?),
        };
        self.last_mova = false;
        Ok(stmt)
    }

    fn branch_test(&mut self) -> Result<Test> {
        Ok(if self.u.arbitrary()? {
            Test::Cmp(self.condition()?)
        } else {
            Test::Bool { b: self.u.int_in_range(0..=15)?, invert: false }
        })
    }

    /// A condition as picasso writes it: a single-flag test keeps the other reference bit set.
    fn condition(&mut self) -> Result<Condition> {
        let op = CondOp::from_raw(self.u.int_in_range(0..=3)?);
        let (refx, refy) = (self.u.arbitrary()?, self.u.arbitrary()?);
        Ok(match op {
            CondOp::X => Condition { op, refx, refy: true },
            CondOp::Y => Condition { op, refx: true, refy },
            _ => Condition { op, refx, refy },
        })
    }

    /// A descriptor from the pool; MAD/MADI can only reach the first 32 (all of it).
    fn desc(&mut self, _mad: bool) -> Result<u8> {
        self.u.int_in_range(0..=(self.pool.len() as u8 - 1))
    }

    fn dst(&mut self) -> Result<DstReg> {
        // o0-o6: the registers a geometry shader has, and the seven semantics `to_shbin` names.
        let outputs = 7;
        Ok(if self.u.ratio(1, 4)? {
            DstReg::Output(self.u.int_in_range(0..=outputs - 1)?)
        } else {
            DstReg::Temp(self.u.int_in_range(0..=15)?)
        })
    }

    /// A source for a 7-bit field, with an address register on constants; inputs are always v0
    /// so that no instruction reads two different input registers.
    fn wide(&mut self) -> Result<(SrcReg, AddrIndex)> {
        self.wide_from(0)
    }

    /// A constant (maybe indexed): where picasso picks the format from the operand (MADI's SRC3,
    /// the I forms' SRC2), only a constant makes it pick the form generated.
    fn wide_const(&mut self) -> Result<(SrcReg, AddrIndex)> {
        self.wide_from(6)
    }

    fn wide_from(&mut self, first: u8) -> Result<(SrcReg, AddrIndex)> {
        Ok(match self.u.int_in_range(first..=9)? {
            0..=1 => (SrcReg::Input(0), AddrIndex::None),
            2..=5 => (SrcReg::Temp(self.u.int_in_range(0..=15)?), AddrIndex::None),
            _ => {
                let idx = AddrIndex::from_raw(if self.u.ratio(1, 2)? { 0 } else { self.u.int_in_range(1..=3)? });
                (SrcReg::Const(self.u.int_in_range(0..=95)?), idx)
            }
        })
    }

    /// A source for a 5-bit field (v0 or r0-r15).
    fn narrow(&mut self) -> Result<SrcReg> {
        Ok(if self.u.ratio(1, 4)? { SrcReg::Input(0) } else { SrcReg::Temp(self.u.int_in_range(0..=15)?) })
    }

    fn arith(&mut self) -> Result<Instruction> {
        self.last_mova = false;
        let count = alu_ops().count();
        let which = self.u.int_in_range(0..=count + 1)?;
        let dst = self.dst()?;
        if which >= count {
            let op = if which == count { Opcode::Mad } else { Opcode::Madi };
            let desc = self.desc(true)?;
            let src1 = self.narrow()?;
            let (src2, src3, idx) = if op == Opcode::Mad {
                let (w, idx) = self.wide()?;
                (w, self.narrow()?, idx)
            } else {
                let n = self.narrow()?;
                let (w, idx) = self.wide_const()?;
                (n, w, idx)
            };
            return Ok(Instruction {
                opcode: op,
                operands: Operands::Mad { dst, src1, src2, src3, idx, desc },
                extra: 0,
            });
        }
        let op = alu_ops().nth(which).unwrap_or(Opcode::Add);
        let desc = self.desc(false)?;
        let inverted = op.is_inverted();
        let unary = op.is_unary();
        let (src1, src2, idx) = if inverted {
            let n = self.narrow()?;
            let (w, idx) = self.wide_const()?;
            (n, w, idx)
        } else if unary {
            // Format 1u has no SRC2: its bits stay 0.
            let (w, idx) = self.wide()?;
            (w, SrcReg::Input(0), idx)
        } else {
            let (w, idx) = self.wide()?;
            (w, self.narrow()?, idx)
        };
        Ok(Instruction { opcode: op, operands: Operands::Arith { dst, src1, src2, idx, desc }, extra: 0 })
    }

    fn cmp(&mut self) -> Result<Instruction> {
        let desc = self.desc(false)?;
        let (src1, idx) = self.wide()?;
        let src2 = self.narrow()?;
        // Operators 0-5: picasso has no syntax for the raw "always true" 6 and 7.
        let cmp_x = CmpOp::from_raw(self.u.int_in_range(0..=5)?);
        let cmp_y = CmpOp::from_raw(self.u.int_in_range(0..=5)?);
        Ok(Instruction {
            opcode: Opcode::Cmp,
            operands: Operands::Cmp { src1, src2, idx, cmp_x, cmp_y, desc },
            extra: 0,
        })
    }
}

fn plain(op: Opcode) -> Instruction {
    Instruction { opcode: op, operands: Operands::None, extra: 0 }
}

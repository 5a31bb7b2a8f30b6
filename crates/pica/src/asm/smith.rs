//! Random valid picasso programs from an `arbitrary::Unstructured` byte source (the wasm-smith
//! pattern, docs/design.md "Models to learn from"): uniforms, constants, inputs and outputs, helper procedures, and a
//! `main` with arithmetic in every operand form (swizzles, negation, relative addressing, the
//! inverted forms), IF/ELSE and FOR blocks, calls, jumps and MOVA. Every program it makes obeys
//! picasso's rules, so [`super::assemble`] must accept it; the disassembler's round trip and the
//! interpreter can use the same programs.

use std::fmt::Write;

use arbitrary::{Result, Unstructured};

use crate::isa::Opcode;

/// Knobs of the generator.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Statements in `main` (blocks count their bodies too).
    pub max_statements: usize,
    /// Nesting depth of IF/FOR blocks.
    pub max_depth: usize,
    /// Helper procedures besides `main`.
    pub max_procs: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config { max_statements: 40, max_depth: 3, max_procs: 2 }
    }
}

const COMPS: [char; 4] = ['x', 'y', 'z', 'w'];
const OUT_TYPES: [&str; 8] =
    ["position", "normalquat", "color", "texcoord0", "texcoord0w", "texcoord1", "texcoord2", "view"];
const CMP_OPS: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    cfg: Config,
    out: String,
    /// Float uniform arrays: (name, size).
    fvecs: Vec<(String, u32)>,
    consts: Vec<String>,
    bools: Vec<String>,
    ints: Vec<String>,
    outputs: Vec<String>,
    procs: Vec<String>,
    statements: usize,
    labels: usize,
    mads: usize,
    last_was_mova: bool,
}

impl Gen<'_, '_> {
    fn pick<'s>(&mut self, items: &'s [&'s str]) -> Result<&'s str> {
        Ok(items[self.u.choose_index(items.len())?])
    }

    /// An arithmetic opcode with `sources` sources (the opcode table's list) and its mnemonic.
    fn pick_op(&mut self, sources: usize) -> Result<(Opcode, &'static str)> {
        let ops: Vec<Opcode> = Opcode::arithmetic(sources).collect();
        let op = ops[self.u.choose_index(ops.len())?];
        Ok((op, op.mnemonic().unwrap_or("nop")))
    }

    fn swizzle(&mut self) -> Result<String> {
        if self.u.ratio(1, 2)? {
            return Ok(String::new());
        }
        let n = self.u.int_in_range(1..=4)?;
        let mut s = String::from(".");
        for _ in 0..n {
            s.push(COMPS[self.u.choose_index(4)?]);
        }
        Ok(s)
    }

    fn mask(&mut self) -> Result<String> {
        if self.u.ratio(1, 2)? {
            return Ok(String::new());
        }
        let mut s = String::from(".");
        for c in COMPS {
            if self.u.ratio(1, 2)? {
                s.push(c);
            }
        }
        Ok(if s.len() == 1 { String::new() } else { s })
    }

    fn neg(&mut self) -> Result<&'static str> {
        Ok(if self.u.ratio(1, 4)? { "-" } else { "" })
    }

    fn temp(&mut self) -> Result<String> {
        Ok(format!("r{}", self.u.int_in_range(0..=15)?))
    }

    /// A source that fits a 5-bit field: v or r. `input` is the only input register allowed.
    fn narrow(&mut self, input: u32) -> Result<String> {
        let base = if self.u.ratio(1, 3)? { format!("v{input}") } else { self.temp()? };
        Ok(format!("{}{}{}", self.neg()?, base, self.swizzle()?))
    }

    /// A source for a 7-bit field: also c registers, uniforms, constants, relative addressing.
    fn wide(&mut self, input: u32) -> Result<String> {
        let base = match self.u.int_in_range(0..=4)? {
            0 if !self.fvecs.is_empty() => {
                let (name, size) = self.fvecs[self.u.choose_index(self.fvecs.len())?].clone();
                let idx = match self.u.int_in_range(0..=3)? {
                    0 => format!("[{}]", self.u.int_in_range(0..=size - 1)?),
                    1 => format!("[a0.x+{}]", self.u.int_in_range(0..=size - 1)?),
                    2 => format!("[{}]", self.pick(&["a0.y", "aL", "lcnt", "a1"])?),
                    _ => String::new(),
                };
                format!("{name}{idx}")
            }
            1 if !self.consts.is_empty() => self.consts[self.u.choose_index(self.consts.len())?].clone(),
            2 => format!("c{}", self.u.int_in_range(0..=95)?),
            _ => return self.narrow(input),
        };
        Ok(format!("{}{}{}", self.neg()?, base, self.swizzle()?))
    }

    fn dest(&mut self) -> Result<String> {
        let base = if !self.outputs.is_empty() && self.u.ratio(1, 3)? {
            self.outputs[self.u.choose_index(self.outputs.len())?].clone()
        } else {
            self.temp()?
        };
        Ok(format!("{base}{}", self.mask()?))
    }

    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "\t".repeat(depth + 1));
    }

    fn arithmetic(&mut self, depth: usize) -> Result<()> {
        let input = self.u.int_in_range(0..=15)?;
        let text = match self.u.int_in_range(0..=5)? {
            0 => {
                let (_, op) = self.pick_op(1)?;
                format!("{op} {}, {}", self.dest()?, self.wide(input)?)
            }
            1 | 2 => {
                let (opcode, op) = self.pick_op(2)?;
                // Opcodes with an inverted form also take the wide operand second.
                if opcode.inverted().is_some() && self.u.ratio(1, 2)? {
                    format!("{op} {}, {}, {}", self.dest()?, self.narrow(input)?, self.wide(input)?)
                } else {
                    format!("{op} {}, {}, {}", self.dest()?, self.wide(input)?, self.narrow(input)?)
                }
            }
            3 if self.mads < 24 => {
                self.mads += 1;
                let (d, a) = (self.dest()?, self.narrow(input)?);
                if self.u.ratio(1, 2)? {
                    format!("mad {d}, {a}, {}, {}", self.wide(input)?, self.narrow(input)?)
                } else {
                    format!("mad {d}, {a}, {}, {}", self.narrow(input)?, self.wide(input)?)
                }
            }
            4 => {
                let (x, y) = (self.pick(&CMP_OPS)?, self.pick(&CMP_OPS)?);
                format!("cmp {}, {x}, {y}, {}", self.wide(input)?, self.narrow(input)?)
            }
            _ if !self.last_was_mova => {
                let target = self.pick(&["a0.x", "a0.y", "a0.xy", "a0", "a1", "a01"])?;
                let text = format!("mova {target}, {}", self.wide(input)?);
                self.line(depth, &text);
                self.last_was_mova = true;
                self.statements += 1;
                return Ok(());
            }
            _ => "nop".to_string(),
        };
        self.line(depth, &text);
        self.last_was_mova = false;
        self.statements += 1;
        Ok(())
    }

    fn condition(&mut self) -> Result<String> {
        let flag = |g: &mut Self, c: char| -> Result<String> {
            Ok(format!("{}cmp.{c}", if g.u.ratio(1, 2)? { "!" } else { "" }))
        };
        Ok(match self.u.int_in_range(0..=3)? {
            0 => flag(self, 'x')?,
            1 => flag(self, 'y')?,
            2 => format!("{} && {}", flag(self, 'x')?, flag(self, 'y')?),
            _ => format!("{} || {}", flag(self, 'y')?, flag(self, 'x')?),
        })
    }

    /// A body of statements at `depth`; `in_for` allows BREAKC.
    fn body(&mut self, depth: usize, in_for: bool, top: bool) -> Result<()> {
        let n = self.u.int_in_range(1..=6)?;
        for _ in 0..n {
            if self.statements >= self.cfg.max_statements {
                break;
            }
            self.statement(depth, in_for, top)?;
        }
        Ok(())
    }

    fn statement(&mut self, depth: usize, in_for: bool, top: bool) -> Result<()> {
        // Instructions other than MOVA end a MOVA run; `.else` and `.end` emit none (or a NOP).
        let choice = self.u.int_in_range(0..=11)?;
        let nested = depth < self.cfg.max_depth;
        match choice {
            0 if nested => {
                let head = if !self.bools.is_empty() && self.u.ratio(1, 2)? {
                    format!("ifu {}", self.bools[self.u.choose_index(self.bools.len())?])
                } else {
                    format!("ifc {}", self.condition()?)
                };
                self.line(depth, &head);
                self.statements += 1;
                self.last_was_mova = false;
                self.body(depth + 1, in_for, false)?;
                if self.u.ratio(1, 2)? {
                    self.line(depth, ".else");
                    self.body(depth + 1, in_for, false)?;
                }
                self.line(depth, ".end");
            }
            1 if nested && !self.ints.is_empty() => {
                let i = self.ints[self.u.choose_index(self.ints.len())?].clone();
                let head = format!("{} {i}", self.pick(&["for", "loop"])?);
                self.line(depth, &head);
                self.statements += 1;
                self.last_was_mova = false;
                self.body(depth + 1, true, false)?;
                self.line(depth, ".end");
            }
            2 if !self.procs.is_empty() => {
                let p = self.procs[self.u.choose_index(self.procs.len())?].clone();
                let text = match self.u.int_in_range(0..=2)? {
                    0 => format!("call {p}"),
                    1 => format!("callc {}, {p}", self.condition()?),
                    _ if !self.bools.is_empty() => {
                        format!("callu {}, {p}", self.bools[self.u.choose_index(self.bools.len())?])
                    }
                    _ => format!("call {p}"),
                };
                self.line(depth, &text);
                self.statements += 1;
                self.last_was_mova = false;
            }
            3 if in_for => {
                let text = format!("breakc {}", self.condition()?);
                self.line(depth, &text);
                self.statements += 1;
                self.last_was_mova = false;
            }
            4 if top => {
                // A forward jump over a few statements, at the top level of `main`.
                let label = format!("skip{}", self.labels);
                self.labels += 1;
                let text = if !self.bools.is_empty() && self.u.ratio(1, 2)? {
                    let neg = if self.u.ratio(1, 2)? { "!" } else { "" };
                    format!("jmpu {neg}{}, {label}", self.bools[self.u.choose_index(self.bools.len())?])
                } else {
                    format!("jmpc {}, {label}", self.condition()?)
                };
                self.line(depth, &text);
                self.statements += 1;
                self.last_was_mova = false;
                self.arithmetic(depth)?;
                let _ = writeln!(self.out, "{label}:");
            }
            _ => self.arithmetic(depth)?,
        }
        Ok(())
    }

    fn declarations(&mut self) -> Result<()> {
        let nf = self.u.int_in_range(1..=3)?;
        for i in 0..nf {
            let size = self.u.int_in_range(1..=4)?;
            let name = format!("uf{i}");
            let _ = writeln!(self.out, ".fvec {name}[{size}]");
            self.fvecs.push((name, size));
        }
        for i in 0..self.u.int_in_range(0..=2)? {
            let v: Vec<String> = (0..4)
                .map(|_| self.u.int_in_range(-1000i32..=1000).map(|n| format!("{}", n as f32 / 8.0)))
                .collect::<Result<_>>()?;
            let _ = writeln!(self.out, ".constf k{i}({})", v.join(", "));
            self.consts.push(format!("k{i}"));
        }
        for i in 0..self.u.int_in_range(0..=2)? {
            let _ = writeln!(self.out, ".bool ub{i}");
            self.bools.push(format!("ub{i}"));
        }
        for i in 0..self.u.int_in_range(0..=1)? {
            let _ = writeln!(self.out, ".ivec ui{i}");
            self.ints.push(format!("ui{i}"));
        }
        if self.u.ratio(1, 2)? {
            let v: Vec<String> =
                (0..4).map(|_| self.u.int_in_range(0u8..=255).map(|n| n.to_string())).collect::<Result<_>>()?;
            let _ = writeln!(self.out, ".consti ki({})", v.join(", "));
            self.ints.push("ki".into());
        }
        for i in 0..self.u.int_in_range(1..=4)? {
            let kind = if i == 0 { "position" } else { OUT_TYPES[self.u.choose_index(OUT_TYPES.len())?] };
            let _ = writeln!(self.out, ".out o_{i} {kind}");
            self.outputs.push(format!("o_{i}"));
        }
        for i in 0..self.u.int_in_range(0..=3)? {
            let _ = writeln!(self.out, ".in in{i} v{i}");
        }
        Ok(())
    }
}

/// A random valid program (one file, one DVLE).
///
/// # Errors
/// Only when `u` runs out in a way `arbitrary` reports (it normally yields zeros instead).
pub fn program(u: &mut Unstructured, cfg: &Config) -> Result<String> {
    let mut g = Gen {
        u,
        cfg: *cfg,
        out: String::from("; generated by pica::asm::smith\n"),
        fvecs: Vec::new(),
        consts: Vec::new(),
        bools: Vec::new(),
        ints: Vec::new(),
        outputs: Vec::new(),
        procs: Vec::new(),
        statements: 0,
        labels: 0,
        mads: 0,
        last_was_mova: false,
    };
    g.declarations()?;
    for p in 0..g.u.int_in_range(0..=cfg.max_procs)? {
        let name = format!("helper{p}");
        // MOVA runs are judged on the code layout, so a procedure may not start with a MOVA
        // when the previous one ended with one: `last_was_mova` carries over.
        let _ = writeln!(g.out, "\n.proc {name}");
        for _ in 0..g.u.int_in_range(1..=4)? {
            g.arithmetic(0)?;
        }
        g.out.push_str(".end\n");
        g.procs.push(name);
    }
    g.out.push_str("\n.proc main\n");
    let target = g.u.int_in_range(1..=cfg.max_statements.max(1))?;
    while g.statements < target {
        let before = g.statements;
        g.statement(0, false, true)?;
        if g.statements == before {
            break;
        }
    }
    g.line(0, "end");
    g.out.push_str(".end\n");
    Ok(g.out)
}

//! Instructions: operand forms, the automatic choice of the inverted (`...i`) forms, operand
//! descriptors and the words themselves, encoded by `isa::Instruction::encode` at the end.
//! picasso Manual.md "Supported Instructions" and "Description of operands".

use super::core::{Asm, Block, Reloc};
use super::error::{AsmError, ErrorKind};
use super::opdesc::make;
use super::operand::{parse_condition, parse_operand, Operand, RegKind};
use super::text::{is_identifier, Args};
use crate::isa::{
    AddrIndex, CmpOp, CondOp, Condition, DstReg, Flow, Format, Instruction, Opcode, Operands, Output, SrcReg,
};

fn narrow(kind: RegKind) -> bool {
    matches!(kind, RegKind::Input | RegKind::Temp)
}

fn wide(kind: RegKind) -> bool {
    matches!(kind, RegKind::Input | RegKind::Temp | RegKind::Float)
}

fn src(op: Operand) -> SrcReg {
    SrcReg::from_raw(op.reg.src_raw().unwrap_or(0))
}

/// Two different input registers read by one instruction: a hardware erratum picasso rejects.
fn bad_inputs(a: Operand, b: Operand) -> bool {
    a.reg.kind == RegKind::Input && b.reg.kind == RegKind::Input && a.reg.index != b.reg.index
}

impl Asm {
    /// The next comma-separated argument, or "missing parameter".
    pub fn arg<'a>(&self, args: &mut Args<'a>) -> Result<&'a str, AsmError> {
        args.comma().ok_or_else(|| self.err(ErrorKind::MissingParam))
    }

    /// "too many parameters" unless the arguments are used up.
    pub fn no_more(&self, args: &mut Args) -> Result<(), AsmError> {
        if args.is_done() {
            Ok(())
        } else {
            Err(self.err(ErrorKind::TooManyParams))
        }
    }

    /// Parses an operand of the current file.
    pub fn operand(&self, text: &str, allow_idx: bool) -> Result<Operand, AsmError> {
        parse_operand(text, &self.aliases, allow_idx, self.max_output()).map_err(|k| self.err(k))
    }

    fn dest(&self, text: &str) -> Result<(DstReg, u8), AsmError> {
        let op = self.operand(text, false)?;
        if op.negate {
            return Err(self.err(ErrorKind::NegatedDest(text.to_string())));
        }
        let raw = op.reg.dst_raw().ok_or_else(|| self.err(ErrorKind::InvalidDest(text.to_string())))?;
        Ok((DstReg::from_raw(raw), op.dest_mask()))
    }

    fn check_src(&self, op: Operand, text: &str, n: u8, is_wide: bool) -> Result<(), AsmError> {
        let ok = if is_wide { wide(op.reg.kind) } else { narrow(op.reg.kind) };
        if !ok {
            return Err(self.err(ErrorKind::InvalidSource { n, text: text.to_string() }));
        }
        if !is_wide && op.idx != 0 {
            return Err(self.err(ErrorKind::IndexNotAllowedInSource(n)));
        }
        Ok(())
    }

    /// The descriptor index of an `opcode` instruction with descriptor bits `desc` (picasso's
    /// allocation); when a MAD's entry had to move below 32, the instructions already emitted are
    /// renumbered.
    fn desc(&mut self, opcode: Opcode, desc: u32) -> Result<u8, AsmError> {
        let a = self.opdescs.allocate(opcode, desc).map_err(|e| self.opdesc_err(e))?;
        if a.swap.is_some() {
            for slot in &mut self.code {
                if let Operands::Arith { desc: d, .. } | Operands::Cmp { desc: d, .. } | Operands::Mad { desc: d, .. } =
                    &mut slot.inst.operands
                {
                    *d = a.renumber(*d as usize) as u8;
                }
            }
        }
        Ok(a.index as u8)
    }

    fn target<'a>(&self, args: &mut Args<'a>) -> Result<&'a str, AsmError> {
        let name = self.arg(args)?;
        if !is_identifier(name) {
            return Err(self.err(ErrorKind::Invalid { what: "target", text: name.to_string() }));
        }
        Ok(name)
    }

    fn reloc(&self, name: &str) -> Reloc {
        Reloc { at: self.code.len(), name: name.to_string(), file: self.file.clone(), line: self.line }
    }

    /// The last argument of a call or a jump: a procedure or a label to resolve at the end.
    fn target_reloc(&mut self, opcode: Opcode, args: &mut Args) -> Result<(), AsmError> {
        let name = self.target(args)?;
        self.no_more(args)?;
        let r = self.reloc(name);
        if opcode.flow() == Flow::Call {
            self.proc_relocs.push(r);
        } else {
            self.label_relocs.push(r);
        }
        Ok(())
    }

    /// Assembles one instruction statement.
    pub fn instruction(&mut self, cmd: &str, mut args: Args) -> Result<(), AsmError> {
        // Mnemonics are case-insensitive; `for` is picasso's LOOP; an inverted form's mnemonic
        // means its plain twin, since the form is chosen from the operands.
        let named = if cmd.eq_ignore_ascii_case("for") { Some(Opcode::Loop) } else { Opcode::from_mnemonic(cmd) };
        let Some(opcode) = named.map(Opcode::plain) else {
            return Err(self.err(ErrorKind::InvalidInstruction(cmd.to_string())));
        };
        let a = &mut args;
        match opcode.format() {
            Some(Format::F0) => self.format0(opcode, a),
            Some(Format::F1) => self.format1(opcode, a),
            Some(Format::F1u) if opcode.output() == Output::Address => self.mova(a),
            Some(Format::F1u) => self.format1u(opcode, a),
            Some(Format::F1c) => self.cmp(a),
            Some(Format::F5) => self.mad(a),
            // CALL is the one format-2 opcode without a condition in picasso's syntax.
            Some(Format::F2) if opcode == Opcode::Call => self.call(a),
            Some(Format::F2) => self.format2(opcode, a),
            Some(Format::F3) if opcode.flow() == Flow::Loop => self.for_loop(a),
            Some(Format::F3) => self.format3(opcode, a),
            Some(Format::F4) => self.setemit(a),
            Some(Format::F1i | Format::F5i) | None => Err(self.err(ErrorKind::InvalidInstruction(cmd.to_string()))),
        }
    }

    fn format0(&mut self, opcode: Opcode, args: &mut Args) -> Result<(), AsmError> {
        self.no_more(args)?;
        self.emit(Instruction { opcode, operands: Operands::None, extra: 0 });
        Ok(())
    }

    fn format1(&mut self, opcode: Opcode, args: &mut Args) -> Result<(), AsmError> {
        let inverse = opcode.inverted();
        let (dt, s1t, s2t) = (self.arg(args)?, self.arg(args)?, self.arg(args)?);
        self.no_more(args)?;
        let (dst, mask) = self.dest(dt)?;
        let s1 = self.operand(s1t, true)?;
        let s2 = self.operand(s2t, true)?;
        // The inverted form gives SRC2 the wide field (Manual: "detected automatically").
        let inverted = inverse.is_some() && narrow(s1.reg.kind) && s2.reg.kind == RegKind::Float;
        self.check_src(s1, s1t, 1, !inverted)?;
        self.check_src(s2, s2t, 2, inverted)?;
        if bad_inputs(s1, s2) {
            return Err(self.err(ErrorKind::BadInputCombination));
        }
        let desc = self.desc(opcode, make(mask as u32, s1.src_bits(), s2.src_bits(), 0))?;
        let idx = AddrIndex::from_raw(if inverted { s2.idx } else { s1.idx });
        let opcode = if inverted { inverse.unwrap_or(opcode) } else { opcode };
        self.emit(Instruction {
            opcode,
            operands: Operands::Arith { dst, src1: src(s1), src2: src(s2), idx, desc },
            extra: 0,
        });
        Ok(())
    }

    fn format1u(&mut self, opcode: Opcode, args: &mut Args) -> Result<(), AsmError> {
        let (dt, s1t) = (self.arg(args)?, self.arg(args)?);
        self.no_more(args)?;
        let (dst, mask) = self.dest(dt)?;
        let s1 = self.operand(s1t, true)?;
        self.check_src(s1, s1t, 1, true)?;
        let desc = self.desc(opcode, make(mask as u32, s1.src_bits(), 0, 0))?;
        let operands =
            Operands::Arith { dst, src1: src(s1), src2: SrcReg::Input(0), idx: AddrIndex::from_raw(s1.idx), desc };
        self.emit(Instruction { opcode, operands, extra: 0 });
        Ok(())
    }

    fn mova(&mut self, args: &mut Args) -> Result<(), AsmError> {
        let (target, s1t) = (self.arg(args)?, self.arg(args)?);
        self.no_more(args)?;
        // New names (a0.x, a0.y, a0.xy) and legacy ones (a0, a1, a01).
        let mask = match target {
            "a0" => 8,
            "a1" => 4,
            "a01" => 12,
            t => match t.strip_prefix("a0.") {
                Some(c) if !c.is_empty() && c.len() <= 2 && c.chars().all(|c| c == 'x' || c == 'y') => {
                    c.chars().fold(0, |m, c| m | if c == 'x' { 8 } else { 4 })
                }
                _ => {
                    return Err(
                        self.err(ErrorKind::Invalid { what: "destination register for mova", text: t.to_string() })
                    )
                }
            },
        };
        let s1 = self.operand(s1t, true)?;
        self.check_src(s1, s1t, 1, true)?;
        if self.code.last().is_some_and(|s| s.inst.opcode == Opcode::Mova) {
            return Err(self.err(ErrorKind::ConsecutiveMova));
        }
        let desc = self.desc(Opcode::Mova, make(mask, s1.src_bits(), 0, 0))?;
        let operands = Operands::Arith {
            dst: DstReg::Output(0),
            src1: src(s1),
            src2: SrcReg::Input(0),
            idx: AddrIndex::from_raw(s1.idx),
            desc,
        };
        self.emit(Instruction { opcode: Opcode::Mova, operands, extra: 0 });
        Ok(())
    }

    fn cmp(&mut self, args: &mut Args) -> Result<(), AsmError> {
        let (s1t, xt, yt, s2t) = (self.arg(args)?, self.arg(args)?, self.arg(args)?, self.arg(args)?);
        self.no_more(args)?;
        let s1 = self.operand(s1t, true)?;
        self.check_src(s1, s1t, 1, true)?;
        let cmp_op = |t: &str| -> Result<CmpOp, AsmError> {
            Ok(match t.to_ascii_lowercase().as_str() {
                "eq" => CmpOp::Eq,
                "ne" => CmpOp::Ne,
                "lt" => CmpOp::Lt,
                "le" => CmpOp::Le,
                "gt" => CmpOp::Gt,
                "ge" => CmpOp::Ge,
                _ => return Err(self.err(ErrorKind::InvalidCondOp(t.to_string()))),
            })
        };
        let (cmp_x, cmp_y) = (cmp_op(xt)?, cmp_op(yt)?);
        let s2 = self.operand(s2t, false)?;
        self.check_src(s2, s2t, 2, false)?;
        let desc = self.desc(Opcode::Cmp, make(0, s1.src_bits(), s2.src_bits(), 0))?;
        let operands =
            Operands::Cmp { src1: src(s1), src2: src(s2), idx: AddrIndex::from_raw(s1.idx), cmp_x, cmp_y, desc };
        self.emit(Instruction { opcode: Opcode::Cmp, operands, extra: 0 });
        Ok(())
    }

    fn mad(&mut self, args: &mut Args) -> Result<(), AsmError> {
        let (dt, s1t, s2t, s3t) = (self.arg(args)?, self.arg(args)?, self.arg(args)?, self.arg(args)?);
        self.no_more(args)?;
        let (dst, mask) = self.dest(dt)?;
        let s1 = self.operand(s1t, false)?;
        self.check_src(s1, s1t, 1, false)?;
        let s2 = self.operand(s2t, true)?;
        let s3 = self.operand(s3t, true)?;
        let inverted = narrow(s2.reg.kind) && (s3.reg.kind == RegKind::Float || (s3.idx != 0 && s2.idx == 0));
        self.check_src(s2, s2t, 2, !inverted)?;
        self.check_src(s3, s3t, 3, inverted)?;
        if bad_inputs(s1, s2) || bad_inputs(s2, s3) || bad_inputs(s3, s1) {
            return Err(self.err(ErrorKind::BadInputCombination));
        }
        let desc = self.desc(Opcode::Mad, make(mask as u32, s1.src_bits(), s2.src_bits(), s3.src_bits()))?;
        let idx = AddrIndex::from_raw(if inverted { s3.idx } else { s2.idx });
        let opcode = if inverted { Opcode::Madi } else { Opcode::Mad };
        let operands = Operands::Mad { dst, src1: src(s1), src2: src(s2), src3: src(s3), idx, desc };
        self.emit(Instruction { opcode, operands, extra: 0 });
        Ok(())
    }

    fn call(&mut self, args: &mut Args) -> Result<(), AsmError> {
        let name = self.target(args)?;
        self.no_more(args)?;
        let r = self.reloc(name);
        self.proc_relocs.push(r);
        let cond = Condition { op: CondOp::Or, refx: false, refy: false };
        self.emit(Instruction { opcode: Opcode::Call, operands: Operands::Flow { dst: 0, num: 0, cond }, extra: 0 });
        Ok(())
    }

    fn for_loop(&mut self, args: &mut Args) -> Result<(), AsmError> {
        let t = self.arg(args)?;
        self.no_more(args)?;
        let op = self.operand(t, false)?;
        if op.reg.kind != RegKind::Int {
            return Err(self.err(ErrorKind::Invalid { what: "integer vector uniform", text: t.to_string() }));
        }
        self.push_block(Block::For { pos: self.pc() })?;
        self.emit(Instruction {
            opcode: Opcode::Loop,
            operands: Operands::Uniform { dst: 0, num: 0, id: op.reg.index as u8 },
            extra: 0,
        });
        Ok(())
    }

    fn format2(&mut self, opcode: Opcode, args: &mut Args) -> Result<(), AsmError> {
        let c = parse_condition(self.arg(args)?).map_err(|k| self.err(k))?;
        let cond = Condition { op: CondOp::from_raw(c.op), refx: c.refx, refy: c.refy };
        match opcode.flow() {
            Flow::Call | Flow::Jump => self.target_reloc(opcode, args)?,
            Flow::If => {
                self.no_more(args)?;
                self.push_block(Block::If { pos: self.pc(), else_start: None })?;
            }
            _ => self.no_more(args)?,
        }
        self.emit(Instruction { opcode, operands: Operands::Flow { dst: 0, num: 0, cond }, extra: 0 });
        Ok(())
    }

    fn format3(&mut self, opcode: Opcode, args: &mut Args) -> Result<(), AsmError> {
        let mut t = self.arg(args)?;
        let mut num = 0;
        if let Some(rest) = t.strip_prefix('!') {
            if opcode.flow() != Flow::Jump {
                return Err(self.err(ErrorKind::NoInversion(if opcode == Opcode::Callu { "CALLU" } else { "IFU" })));
            }
            num = 1;
            t = rest;
        }
        let op = self.operand(t, false)?;
        if op.reg.kind != RegKind::Bool {
            return Err(self.err(ErrorKind::Invalid { what: "boolean uniform", text: t.to_string() }));
        }
        match opcode.flow() {
            Flow::If => {
                self.no_more(args)?;
                self.push_block(Block::If { pos: self.pc(), else_start: None })?;
            }
            _ => self.target_reloc(opcode, args)?,
        }
        self.emit(Instruction {
            opcode,
            operands: Operands::Uniform { dst: 0, num, id: op.reg.index as u8 },
            extra: 0,
        });
        Ok(())
    }

    fn setemit(&mut self, args: &mut Args) -> Result<(), AsmError> {
        let vt = self.arg(args)?;
        let flags = args.comma();
        self.no_more(args)?;
        let vertex = self.int_arg(vt, 0, 2)? as u8;
        let (mut primitive, mut winding) = (false, false);
        if let Some(flags) = flags {
            for f in flags.split([' ', '\t']).filter(|f| !f.is_empty()) {
                match f.to_ascii_lowercase().as_str() {
                    "prim" | "primitive" => primitive = true,
                    "inv" | "invert" => winding = true,
                    _ => return Err(self.err(ErrorKind::SetemitFlag(f.to_string()))),
                }
            }
        }
        let d = self.dvle();
        if !d.geometry {
            d.geometry = true;
            d.compat_geometry = true;
        }
        self.emit(Instruction {
            opcode: Opcode::Setemit,
            operands: Operands::SetEmit { vertex, winding, primitive },
            extra: 0,
        });
        Ok(())
    }
}

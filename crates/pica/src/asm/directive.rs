//! Directives (picasso Manual.md "Supported Directives"): blocks (`.proc`, `.else`, `.end`),
//! names (`.alias`), uniforms (`.fvec`, `.ivec`, `.bool`), constants (`.constf`, `.consti`,
//! `.constfa`, `.setf`, `.seti`, `.setb`), linkage (`.in`, `.out`, `.entry`, `.nodvle`, `.gsh`).

use super::core::{Allocs, Asm, Block, ConstArray, SharedUniform, UniformEntry, MAX_CONSTANT, MAX_OUTPUT, MAX_UNIFORM};
use super::error::{AsmError, ErrorKind};
use super::operand::{parse_swizzle, Alias, Reg, RegKind, IDENTITY};
use super::text::{c_atof, c_atoi, is_identifier, trim, Args};
use crate::float24::F24;
use crate::isa::{Flow, Opcode};

/// True when picasso puts a padding NOP between `op` and a following `.else`/`.end` (its `-n`
/// switch turns this off): after flow control whose return lands on the next instruction, jumps
/// and calls, and after BREAK and BREAKC at the end of a FOR (picasso 2.5 changelog, auto-NOP).
pub(crate) fn padding_after(op: Opcode, in_for: bool) -> bool {
    match op.flow() {
        Flow::Jump | Flow::Call => true,
        Flow::Break => in_for,
        Flow::Next | Flow::End | Flow::If | Flow::Loop => false,
    }
}
use crate::shbin::{Constant, Output, OutputKind};

/// picasso's f32 -> float24: zero (of either sign) is +0, then truncation, underflow flushed to a
/// signed zero, overflow (and inf/NaN) saturated to a signed infinity (specs/pica200-facts.md).
pub fn picasso_f24(v: f32) -> F24 {
    if v == 0.0 {
        return F24::ZERO;
    }
    if !v.is_finite() {
        return F24::from_bits(((v.to_bits() >> 31) << 23) | 0x7F_0000);
    }
    F24::from_f32_truncate(v)
}

/// Output semantics of `.out` (3dbrew "SHBIN" "Output Table Entry"; `dummy` is 9).
fn out_type(name: &str) -> Option<u16> {
    Some(match name.to_ascii_lowercase().as_str() {
        "pos" | "position" => 0,
        "nquat" | "normalquat" => 1,
        "clr" | "color" => 2,
        "tcoord0" | "texcoord0" => 3,
        "tcoord0w" | "texcoord0w" => 4,
        "tcoord1" | "texcoord1" => 5,
        "tcoord2" | "texcoord2" => 6,
        "view" => 8,
        "dummy" => 9,
        _ => return None,
    })
}

const DUMMY: u16 = 9;

impl Asm {
    fn check_new_alias(&self, name: &str) -> Result<(), AsmError> {
        if self.aliases.contains_key(name) {
            return Err(self.err(ErrorKind::DuplicateIdentifier(name.to_string())));
        }
        Ok(())
    }

    fn alias(&mut self, name: &str, reg: Reg) {
        self.aliases.insert(name.to_string(), Alias { reg, swizzle: IDENTITY, negate: false });
    }

    fn value(&self, text: &str) -> Result<f32, AsmError> {
        let v = c_atof(text).ok_or_else(|| self.err(ErrorKind::InvalidValue(text.to_string())))?;
        Ok(v as f32)
    }

    fn int_value(&self, text: &str) -> Result<u8, AsmError> {
        let v = c_atoi(text).ok_or_else(|| self.err(ErrorKind::InvalidValue(text.to_string())))?;
        Ok((v & 0xFF) as u8)
    }

    /// `NAME(x, y, z, w)` after the directive: the name and the four texts.
    fn vector_args<'a>(&self, args: &mut Args<'a>) -> Result<(&'a str, [&'a str; 4]), AsmError> {
        let name = args.until_paren().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
        let x = self.arg(args)?;
        let y = self.arg(args)?;
        let z = self.arg(args)?;
        let rest = args.rest();
        if rest.is_empty() {
            return Err(self.err(ErrorKind::MissingParam));
        }
        let close = rest.find(')').ok_or_else(|| self.err(ErrorKind::Syntax))?;
        Ok((name, [x, y, z, trim(&rest[..close])]))
    }

    /// The constant of a `NAME(x, y, z, w)`, as a function of its register.
    fn vector_value(&self, kind: RegKind, v: [&str; 4]) -> Result<impl Fn(u8) -> Constant, AsmError> {
        let c = match kind {
            RegKind::Float => {
                let f = [self.value(v[0])?, self.value(v[1])?, self.value(v[2])?, self.value(v[3])?].map(picasso_f24);
                Constant::Float { reg: 0, value: f }
            }
            _ => Constant::Int {
                reg: 0,
                value: [self.int_value(v[0])?, self.int_value(v[1])?, self.int_value(v[2])?, self.int_value(v[3])?],
            },
        };
        Ok(move |reg| match c {
            Constant::Float { value, .. } => Constant::Float { reg, value },
            Constant::Int { value, .. } => Constant::Int { reg, value },
            other => other,
        })
    }

    fn push_constant(&mut self, c: Constant) -> Result<(), AsmError> {
        if self.dvle().constants.len() >= MAX_CONSTANT {
            return Err(self.err(ErrorKind::TooMany("local constants")));
        }
        self.dvle().constants.push(c);
        Ok(())
    }

    /// Assembles one directive statement (`dir` without its dot).
    pub fn directive(&mut self, dir: &str, mut args: Args) -> Result<(), AsmError> {
        let a = &mut args;
        match dir.to_ascii_lowercase().as_str() {
            "proc" => self.dir_proc(a),
            "else" => self.dir_else(a),
            "end" => self.dir_end(a),
            "alias" => self.dir_alias(a),
            "fvec" => self.dir_uniform(RegKind::Float, a),
            "ivec" => self.dir_uniform(RegKind::Int, a),
            "bool" => self.dir_uniform(RegKind::Bool, a),
            "constf" => self.dir_const(RegKind::Float, a),
            "consti" => self.dir_const(RegKind::Int, a),
            "constfa" => self.dir_constfa(a),
            "in" => self.dir_in(a),
            "out" => self.dir_out(a),
            "entry" => self.dir_entry(a),
            "nodvle" => self.dir_nodvle(a),
            "gsh" => self.dir_gsh(a),
            "setf" => self.dir_set(RegKind::Float, a),
            "seti" => self.dir_set(RegKind::Int, a),
            "setb" => self.dir_setb(a),
            _ => Err(self.err(ErrorKind::InvalidDirective(dir.to_string()))),
        }
    }

    fn dir_proc(&mut self, args: &mut Args) -> Result<(), AsmError> {
        let name = self.arg(args)?;
        self.no_more(args)?;
        if !is_identifier(name) {
            return Err(self.err(ErrorKind::Invalid { what: "procedure name", text: name.to_string() }));
        }
        if self.procs.contains_key(name)
            || self.stack.iter().any(|b| matches!(b, Block::Proc { name: n, .. } if n == name))
        {
            return Err(self.err(ErrorKind::DuplicateProc(name.to_string())));
        }
        self.push_block(Block::Proc { name: name.to_string(), start: self.pc() })
    }

    /// True when the instruction before the block end needs a NOP after it.
    fn needs_padding_after_last(&self, in_for: bool) -> bool {
        self.code.last().is_some_and(|s| padding_after(s.inst.opcode, in_for))
    }

    fn dir_else(&mut self, args: &mut Args) -> Result<(), AsmError> {
        self.no_more(args)?;
        let pos = match self.stack.last() {
            Some(Block::If { else_start: Some(_), .. }) => return Err(self.err(ErrorKind::SpuriousElse)),
            Some(Block::If { pos, .. }) => *pos,
            _ => return Err(self.err(ErrorKind::UnmatchedElse)),
        };
        if self.last_was_end {
            self.padding_nop();
            self.last_was_end = false;
        } else if self.needs_padding_after_last(false) || self.pc() - pos < 2 {
            self.padding_nop();
        }
        let here = self.pc();
        if let Some(Block::If { else_start, .. }) = self.stack.last_mut() {
            *else_start = Some(here);
        }
        super::core::set_target(&mut self.code[pos as usize].inst, here, None);
        Ok(())
    }

    fn dir_end(&mut self, args: &mut Args) -> Result<(), AsmError> {
        self.no_more(args)?;
        let block = self.pop_block().ok_or_else(|| self.err(ErrorKind::UnmatchedEnd))?;
        let is_array = matches!(block, Block::Array);
        if !is_array && self.last_was_end {
            self.padding_nop();
            self.last_was_end = false;
        } else if !is_array {
            let (start, min) = match &block {
                Block::Proc { start, .. } => (*start, 1),
                Block::If { pos, .. } | Block::For { pos } => (*pos, 2),
                Block::Array => (0, 0),
            };
            let in_for = matches!(block, Block::For { .. });
            if self.needs_padding_after_last(in_for) || self.pc() - start < min {
                self.padding_nop();
            }
        }
        let here = self.pc();
        match block {
            Block::Proc { name, start } => {
                self.procs.insert(name, (start, here - start));
            }
            Block::For { pos } => {
                super::core::set_target(&mut self.code[pos as usize].inst, here - 1, None);
                self.last_was_end = true;
            }
            Block::If { pos, else_start } => {
                match else_start {
                    None => super::core::set_target(&mut self.code[pos as usize].inst, here, None),
                    Some(e) => {
                        if let crate::isa::Operands::Flow { num, .. } | crate::isa::Operands::Uniform { num, .. } =
                            &mut self.code[pos as usize].inst.operands
                        {
                            *num = (here - e).min(255) as u8;
                        }
                        if here - e > 255 {
                            return Err(self.err(ErrorKind::Encode(format!(
                                "the .else block is {} instructions long (max 255)",
                                here - e
                            ))));
                        }
                    }
                }
                self.last_was_end = true;
            }
            Block::Array => self.end_array()?,
        }
        Ok(())
    }

    fn end_array(&mut self) -> Result<(), AsmError> {
        let array = self.array.take().unwrap_or_default();
        self.check_new_alias(&array.name)?;
        let mut values = array.values;
        if let Some(size) = array.size {
            values.resize(size as usize, [0.0; 4]);
        }
        if values.is_empty() {
            return Err(self.err(ErrorKind::EmptyArray(array.name)));
        }
        let gsh = self.dvle().uses_gsh_space() as usize;
        let pos = self.allocs[gsh]
            .float
            .local(values.len() as u32)
            .ok_or_else(|| self.err(ErrorKind::NoConstantSpace(array.name.clone())))?;
        if self.dvle().constants.len() + values.len() > MAX_CONSTANT {
            return Err(self.err(ErrorKind::TooMany("local constants")));
        }
        for (i, v) in values.iter().enumerate() {
            self.dvle().constants.push(Constant::Float { reg: (pos + i as u32) as u8, value: v.map(picasso_f24) });
        }
        self.alias(&array.name, Reg { kind: RegKind::Float, index: pos });
        Ok(())
    }

    fn dir_alias(&mut self, args: &mut Args) -> Result<(), AsmError> {
        let name = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
        let target = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
        self.no_more(args)?;
        if !is_identifier(name) {
            return Err(self.err(ErrorKind::Invalid { what: "alias name", text: name.to_string() }));
        }
        let b = name.as_bytes();
        if b.len() > 1 && b"ovrcib".contains(&b[0].to_ascii_lowercase()) && b[1].is_ascii_digit() {
            return Err(self.err(ErrorKind::RedefineRegister));
        }
        let op = self.operand(target, false)?;
        self.check_new_alias(name)?;
        self.aliases.insert(name.to_string(), Alias { reg: op.reg, swizzle: op.swizzle, negate: op.negate });
        Ok(())
    }

    fn dir_uniform(&mut self, kind: RegKind, args: &mut Args) -> Result<(), AsmError> {
        let gsh = self.dvle().uses_gsh_space();
        while let Some(text) = args.comma() {
            let (name, size) = match text.find('[') {
                Some(open) => {
                    let close = text[open..]
                        .find(']')
                        .map(|c| open + c)
                        .ok_or_else(|| self.err(ErrorKind::MissingBracket(text.to_string())))?;
                    let size = c_atoi(trim(&text[open + 1..close])).unwrap_or(0);
                    if !(1..=96).contains(&size) {
                        return Err(self.err(ErrorKind::UniformSizeInvalid(text.to_string())));
                    }
                    (&text[..open], size as u32)
                }
                None => (text, 1),
            };
            if !is_identifier(name) {
                return Err(self.err(ErrorKind::Invalid { what: "uniform name", text: name.to_string() }));
            }
            self.check_new_alias(name)?;
            let existing = if gsh { None } else { self.shared.iter().find(|u| u.name == name).cloned() };
            let index = match existing {
                Some(u) => {
                    if u.kind != kind {
                        return Err(self.err(ErrorKind::UniformType(name.to_string())));
                    }
                    if u.size != size {
                        return Err(self.err(ErrorKind::UniformSize { name: name.to_string(), size: u.size }));
                    }
                    u.index
                }
                None => {
                    if self.shared.len() >= MAX_UNIFORM {
                        return Err(self.err(ErrorKind::TooMany("global uniforms")));
                    }
                    let index = self.allocs[gsh as usize]
                        .get(kind)
                        .global(size)
                        .ok_or_else(|| self.err(ErrorKind::NoUniformSpace { name: name.to_string(), size }))?;
                    if !gsh {
                        self.shared.push(SharedUniform { name: name.to_string(), kind, index, size });
                    }
                    index
                }
            };
            if !name.starts_with('_') {
                let reg = Reg { kind, index };
                let d = self.dvle();
                if d.uniforms.len() >= MAX_UNIFORM {
                    return Err(self.err(ErrorKind::TooMany("referenced uniforms")));
                }
                let start = reg.unified() as u16;
                d.uniforms.push(UniformEntry { name: name.replace('$', "."), start, end: start + size as u16 - 1 });
            }
            self.alias(name, Reg { kind, index });
        }
        Ok(())
    }

    fn dir_const(&mut self, kind: RegKind, args: &mut Args) -> Result<(), AsmError> {
        let (name, v) = self.vector_args(args)?;
        if !is_identifier(name) {
            return Err(self.err(ErrorKind::Invalid { what: "constant name", text: name.to_string() }));
        }
        self.check_new_alias(name)?;
        let value = self.vector_value(kind, v)?;
        let gsh = self.dvle().uses_gsh_space() as usize;
        let index = self.allocs[gsh]
            .get(kind)
            .local(1)
            .ok_or_else(|| self.err(ErrorKind::NoConstantSpace(name.to_string())))?;
        self.push_constant(value(index as u8))?;
        self.alias(name, Reg { kind, index });
        Ok(())
    }

    fn dir_constfa(&mut self, args: &mut Args) -> Result<(), AsmError> {
        if matches!(self.stack.last(), Some(Block::Array)) {
            let array = self.array.as_ref().cloned().unwrap_or_default();
            if array.size.is_some_and(|s| s as usize == array.values.len()) {
                return Err(self.err(ErrorKind::ArrayFull(array.size.unwrap_or(0))));
            }
            let first = self.arg(args)?;
            let x = first.strip_prefix('(').ok_or_else(|| self.err(ErrorKind::Syntax))?;
            let y = self.arg(args)?;
            let z = self.arg(args)?;
            let rest = args.rest();
            let close = rest
                .find(')')
                .ok_or_else(|| self.err(if rest.is_empty() { ErrorKind::MissingParam } else { ErrorKind::Syntax }))?;
            let v = [self.value(x)?, self.value(y)?, self.value(z)?, self.value(trim(&rest[..close]))?];
            if array.values.len() >= 96 {
                return Err(self.err(ErrorKind::TooMany("elements in the array")));
            }
            if let Some(a) = self.array.as_mut() {
                a.values.push(v);
            }
            return Ok(());
        }
        let text = self.arg(args)?;
        self.no_more(args)?;
        let open = text.find('[').ok_or_else(|| {
            self.err(ErrorKind::Invalid { what: "array (missing opening bracket)", text: text.to_string() })
        })?;
        let close = text[open..]
            .find(']')
            .map(|c| open + c)
            .ok_or_else(|| self.err(ErrorKind::MissingBracket(text.to_string())))?;
        let after = trim(&text[close + 1..]);
        if !after.is_empty() {
            return Err(self.err(ErrorKind::Garbage(after.to_string())));
        }
        let size_text = trim(&text[open + 1..close]);
        let size = if size_text.is_empty() {
            None
        } else {
            match c_atoi(size_text) {
                Some(s) if (1..=96).contains(&s) => Some(s as u32),
                _ => return Err(self.err(ErrorKind::Invalid { what: "array size", text: text.to_string() })),
            }
        };
        let name = trim(&text[..open]);
        if !is_identifier(name) {
            return Err(self.err(ErrorKind::Invalid { what: "array name", text: name.to_string() }));
        }
        self.push_block(Block::Array)?;
        self.array = Some(ConstArray { name: name.to_string(), size, values: Vec::new() });
        Ok(())
    }

    fn dir_set(&mut self, kind: RegKind, args: &mut Args) -> Result<(), AsmError> {
        let (name, v) = self.vector_args(args)?;
        let op = self.operand(name, false)?;
        if op.reg.kind != kind {
            let what = if kind == RegKind::Float { "floating point vector uniform" } else { "integer vector uniform" };
            return Err(self.err(ErrorKind::Invalid { what, text: name.to_string() }));
        }
        let value = self.vector_value(kind, v)?;
        self.push_constant(value(op.reg.index as u8))
    }

    fn dir_setb(&mut self, args: &mut Args) -> Result<(), AsmError> {
        self.dvle();
        let name = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
        let value = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
        self.no_more(args)?;
        let op = self.operand(name, false)?;
        if op.reg.kind != RegKind::Bool {
            return Err(self.err(ErrorKind::Invalid { what: "boolean uniform", text: name.to_string() }));
        }
        let b = match value.to_ascii_lowercase().as_str() {
            "true" | "on" | "1" => true,
            "false" | "off" | "0" => false,
            _ => return Err(self.err(ErrorKind::Invalid { what: "bool value", text: value.to_string() })),
        };
        self.push_constant(Constant::Bool { reg: op.reg.index as u8, value: b })
    }

    fn dir_in(&mut self, args: &mut Args) -> Result<(), AsmError> {
        self.dvle();
        let name = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
        let reg_text = args.word();
        self.no_more(args)?;
        if !is_identifier(name) {
            return Err(self.err(ErrorKind::Invalid { what: "identifier", text: name.to_string() }));
        }
        self.check_new_alias(name)?;
        let index = match reg_text {
            Some(t) => {
                let op = self.operand(t, false)?;
                if op.reg.kind != RegKind::Input {
                    return Err(self.err(ErrorKind::Invalid { what: "input register", text: t.to_string() }));
                }
                op.reg.index
            }
            None => {
                let mask = self.dvle().input_mask;
                (0..16).find(|i| mask & (1 << i) == 0).ok_or_else(|| self.err(ErrorKind::TooMany("inputs")))?
            }
        };
        let d = self.dvle();
        if d.uniforms.len() >= MAX_UNIFORM {
            return Err(self.err(ErrorKind::TooMany("uniforms in DVLE")));
        }
        d.input_mask |= 1 << index;
        d.uniforms.push(UniformEntry { name: name.replace('$', "."), start: index as u16, end: index as u16 });
        self.alias(name, Reg { kind: RegKind::Input, index });
        Ok(())
    }

    fn dir_out(&mut self, args: &mut Args) -> Result<(), AsmError> {
        self.dvle();
        let name = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
        let type_text = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
        let reg_text = args.word();
        self.no_more(args)?;
        let name = if name == "-" {
            None
        } else if is_identifier(name) {
            Some(name)
        } else {
            return Err(self.err(ErrorKind::Invalid { what: "identifier", text: name.to_string() }));
        };
        let mut swizzle = IDENTITY;
        let mut oid = None;
        let mut type_name = type_text;
        if let Some(t) = reg_text {
            let op = self.operand(t, false)?;
            if op.reg.kind != RegKind::Output {
                return Err(self.err(ErrorKind::Invalid { what: "output register", text: t.to_string() }));
            }
            oid = Some(op.reg.index);
            swizzle = op.swizzle;
        } else if let Some(dot) = type_text.find('.') {
            type_name = &type_text[..dot];
            swizzle = parse_swizzle(&type_text[dot + 1..]).ok_or_else(|| {
                self.err(ErrorKind::Invalid { what: "output mask", text: type_text[dot + 1..].to_string() })
            })?;
        }
        let mask =
            super::operand::Operand { reg: Reg { kind: RegKind::Output, index: 0 }, swizzle, negate: false, idx: 0 }
                .out_mask() as u16;
        let kind = out_type(type_name)
            .ok_or_else(|| self.err(ErrorKind::Invalid { what: "output type", text: type_name.to_string() }))?;
        let d = self.dvle();
        let oid = match oid {
            Some(o) => {
                if d.output_used & ((mask as u64) << (4 * o)) != 0 {
                    return Err(self.err(ErrorKind::OutputCollision));
                }
                Some(o)
            }
            None => (0..d.max_output()).find(|i| d.output_mask & (1 << i) == 0),
        };
        let d = self.dvle();
        let Some(oid) = oid.filter(|_| d.outputs.len() < MAX_OUTPUT) else {
            return Err(self.err(ErrorKind::TooMany("outputs")));
        };
        if let Some(n) = name {
            self.check_new_alias(n)?;
        }
        if oid >= 7 && kind != DUMMY {
            return Err(self.err(ErrorKind::DummyOnly(oid)));
        }
        let d = self.dvle();
        d.outputs.push(Output { kind: OutputKind::from_raw(kind), reg: oid as u16, mask, unknown: 0 });
        d.output_mask |= 1 << oid;
        d.output_used |= (mask as u64) << (4 * oid);
        if kind == DUMMY && d.uses_gsh_space() {
            d.merge = true;
        }
        if let Some(n) = name {
            self.alias(n, Reg { kind: RegKind::Output, index: oid });
        }
        Ok(())
    }

    fn dir_entry(&mut self, args: &mut Args) -> Result<(), AsmError> {
        self.dvle();
        let name = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
        self.no_more(args)?;
        if !is_identifier(name) {
            return Err(self.err(ErrorKind::Invalid { what: "identifier", text: name.to_string() }));
        }
        self.dvle().entry = name.to_string();
        Ok(())
    }

    fn dir_nodvle(&mut self, args: &mut Args) -> Result<(), AsmError> {
        self.dvle();
        self.no_more(args)?;
        if !self.dvle().nodvle {
            self.dvle().nodvle = true;
            self.dvle_count -= 1;
        }
        Ok(())
    }

    fn dir_gsh(&mut self, args: &mut Args) -> Result<(), AsmError> {
        self.dvle();
        let Some(mode_text) = args.word() else {
            let d = self.dvle();
            d.geometry = true;
            d.compat_geometry = true;
            return Ok(());
        };
        let d = self.dvle();
        if d.geometry {
            return Err(self.err(ErrorKind::GshTwice));
        }
        if !d.constants.is_empty() || !d.uniforms.is_empty() || d.output_mask != 0 {
            return Err(self.err(ErrorKind::GshTooLate));
        }
        let mode = match mode_text.to_ascii_lowercase().as_str() {
            "point" => 0,
            "variable" | "subdivision" => 1,
            "fixed" | "particle" => 2,
            _ => return Err(self.err(ErrorKind::Invalid { what: "geometry shader mode", text: mode_text.to_string() })),
        };
        let free_text = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
        let free = self.operand(free_text, false)?;
        if free.reg.kind != RegKind::Float {
            return Err(self.err(ErrorKind::Invalid { what: "float uniform register", text: free_text.to_string() }));
        }
        let (mut fixed_start, mut variable_num, mut fixed_num) = (0, 0, 0);
        match mode {
            1 => {
                let n = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
                self.no_more(args)?;
                variable_num = self.int_arg(n, 0, 255)? as u8;
            }
            2 => {
                let start_text = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
                let n = args.word().ok_or_else(|| self.err(ErrorKind::MissingParam))?;
                self.no_more(args)?;
                let start = self.operand(start_text, false)?;
                let num = self.int_arg(n, 0, 255)? as u8;
                if start.reg.kind != RegKind::Float {
                    return Err(
                        self.err(ErrorKind::Invalid { what: "float uniform register", text: start_text.to_string() })
                    );
                }
                if start.reg.index >= free.reg.index {
                    return Err(self.err(ErrorKind::GshOverlap(start_text.to_string())));
                }
                fixed_start = start.reg.index as u8;
                fixed_num = num;
            }
            _ => self.no_more(args)?,
        }
        self.allocs[1] = Allocs::geometry(free.reg.index);
        let d = self.dvle();
        d.geometry = true;
        d.gsh_type = mode;
        d.gsh_fixed_start = fixed_start;
        d.gsh_variable_num = variable_num;
        d.gsh_fixed_num = fixed_num;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picasso_float_conversion() {
        assert_eq!(picasso_f24(0.1).bits(), 0x3B9999);
        assert_eq!(picasso_f24(-0.0).bits(), 0);
        assert_eq!(picasso_f24(f32::NAN).bits(), 0x7F0000);
        assert_eq!(picasso_f24(f32::NEG_INFINITY).bits(), 0xFF0000);
        assert_eq!(picasso_f24(-1.0).bits(), 0xBF0000);
    }
}

//! One instruction as picasso source (picasso Manual.md "Supported Instructions").
//!
//! The printer writes raw registers (`v0`, `r3`, `c12`, `o1`), every swizzle and mask the operand
//! descriptor holds, and the names of procedures and labels it is given. It refuses (with the
//! reason) any word that picasso cannot produce from source, so that what it prints always
//! assembles back to the same word.

use std::collections::HashMap;
use std::fmt;

use crate::isa::{
    AddrIndex, CmpOp, CondOp, Condition, DstReg, Format, Instruction, Opcode, OperandDescriptor, Operands, Output,
    RelativeSource, SrcReg, Swizzle,
};

/// Why a word cannot be printed as picasso source.
pub(crate) type Problem = String;

/// Names the printer needs for flow-control targets.
pub(crate) trait Targets {
    /// The procedure that starts at `dst` and is `num` words long.
    fn proc_name(&self, dst: u32, num: u32) -> Option<&str>;
    /// The label at `dst`.
    fn label_name(&self, dst: u32) -> Option<&str>;
}

/// A swizzle as picasso reads it: trailing repeats dropped (picasso repeats the last component),
/// nothing at all for the identity. (Display types keep the printer to one allocation a line.)
pub(crate) struct Swz(pub Swizzle);

impl fmt::Display for Swz {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == Swizzle::IDENTITY {
            return Ok(());
        }
        let comps = [0, 1, 2, 3].map(|i| self.0.component(i));
        let mut len = 4;
        while len > 1 && comps[len - 1] == comps[len - 2] {
            len -= 1;
        }
        f.write_str(".")?;
        comps[..len].iter().try_for_each(|&c| f.write_str(["x", "y", "z", "w"][c]))
    }
}

/// The swizzle suffix as a string.
#[cfg(test)]
pub(crate) fn swizzle_suffix(s: Swizzle) -> String {
    Swz(s).to_string()
}

/// A destination mask (bit 3 = x), checked non-empty: nothing for all four components.
struct Mask(u8);

fn mask(mask: u8) -> Result<Mask, Problem> {
    match mask & 0xF {
        0 => Err("empty destination mask (picasso writes at least one component)".into()),
        m => Ok(Mask(m)),
    }
}

impl fmt::Display for Mask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0xF {
            return Ok(());
        }
        f.write_str(".")?;
        (0..4).filter(|i| self.0 & (8 >> i) != 0).try_for_each(|i| f.write_str(["x", "y", "z", "w"][i]))
    }
}

/// Longest declared name used in instructions, in bytes.
pub(crate) const MAX_CODE_NAME: usize = 64;

/// Names for registers that the directives declared (uniforms, inputs, named constants): the
/// code then reads `projection[2]` instead of `c2`, as picasso resolves it to the same register.
#[derive(Default, Debug)]
pub(crate) struct RegNames {
    /// (register file letter, index) -> (declared name, element within an array).
    map: HashMap<(char, u8), (String, Option<u8>)>,
}

impl RegNames {
    /// Registers `first..first + size` of file `file` are the declared `name`. Names longer than
    /// [`MAX_CODE_NAME`] stay out of the code (raw registers are printed), so a hostile name
    /// cannot multiply the text by every instruction that reads it.
    pub fn declare(&mut self, file: char, first: u8, size: u8, name: &str) {
        if name.len() > MAX_CODE_NAME {
            return;
        }
        for k in 0..size {
            let element = (size > 1).then_some(k);
            self.map.insert((file, first.wrapping_add(k)), (name.to_string(), element));
        }
    }

    /// `name`, `name[k]`, `name[a0.x+k]`, or the raw register when it has no name.
    pub fn reg(&self, file: char, index: u8, idx: Option<&'static str>) -> Reg<'_> {
        Reg { names: self, file, index, idx }
    }

    /// [`RegNames::reg`] as a string.
    #[cfg(test)]
    pub fn text(&self, file: char, index: u8, idx: Option<&'static str>) -> String {
        self.reg(file, index, idx).to_string()
    }
}

/// A register as printed (see [`RegNames::reg`]).
pub(crate) struct Reg<'a> {
    names: &'a RegNames,
    file: char,
    index: u8,
    idx: Option<&'static str>,
}

impl fmt::Display for Reg<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.names.map.get(&(self.file, self.index)), self.idx) {
            (Some((name, None)), None) => f.write_str(name),
            (Some((name, Some(k))), None) => write!(f, "{name}[{k}]"),
            (Some((name, None | Some(0))), Some(i)) => write!(f, "{name}[{i}]"),
            (Some((name, Some(k))), Some(i)) => write!(f, "{name}[{i}+{k}]"),
            (None, None) => write!(f, "{}{}", self.file, self.index),
            (None, Some(i)) => write!(f, "{}{}[{i}]", self.file, self.index),
        }
    }
}

/// What an instruction needs besides its word.
pub(crate) struct Context<'a> {
    pub descs: &'a [[u32; 2]],
    pub targets: &'a dyn Targets,
    pub names: &'a RegNames,
    /// The first output register the file may not name (7 in geometry shaders, whose o7-o15
    /// picasso rejects).
    pub max_output: u8,
}

/// A source operand: negation, register (or name), swizzle.
struct Src<'a> {
    neg: bool,
    reg: Reg<'a>,
    swz: Swizzle,
}

impl fmt::Display for Src<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.neg {
            f.write_str("-")?;
        }
        write!(f, "{}{}", self.reg, Swz(self.swz))
    }
}

fn source(reg: SrcReg, desc: OperandDescriptor, n: usize, idx: AddrIndex, names: &RegNames) -> Src<'_> {
    let (file, index) = match reg {
        SrcReg::Input(i) => ('v', i),
        SrcReg::Temp(i) => ('r', i),
        SrcReg::Const(i) => ('c', i),
    };
    Src { neg: desc.negate(n), reg: names.reg(file, index, idx.name()), swz: desc.swizzle(n) }
}

/// `cmp.x`, `!cmp.y && cmp.x`, ...: picasso starts from REFX = REFY = 1 and clears a reference
/// bit for each `!`; a single-flag condition leaves the other reference bit set.
pub(crate) fn condition_text(c: Condition) -> Result<String, Problem> {
    let x = if c.refx { "cmp.x" } else { "!cmp.x" };
    let y = if c.refy { "cmp.y" } else { "!cmp.y" };
    match c.op {
        CondOp::Or => Ok(format!("{x} || {y}")),
        CondOp::And => Ok(format!("{x} && {y}")),
        CondOp::X if c.refy => Ok(x.to_string()),
        CondOp::Y if c.refx => Ok(y.to_string()),
        _ => Err("condition tests one flag but keeps a cleared reference bit for the other".into()),
    }
}

fn cmp_name(op: CmpOp) -> Result<&'static str, Problem> {
    match op {
        CmpOp::True(r) => Err(format!("comparison operator {r} (picasso 2.5 removed 6 and 7)")),
        op => Ok(op.name()),
    }
}

fn is_input(reg: SrcReg) -> Option<u8> {
    match reg {
        SrcReg::Input(i) => Some(i),
        _ => None,
    }
}

/// picasso rejects two different input registers in one instruction (hardware erratum).
fn check_inputs(regs: &[SrcReg]) -> Result<(), Problem> {
    let mut inputs = regs.iter().filter_map(|&r| is_input(r));
    let first = inputs.next();
    if inputs.any(|i| Some(i) != first) {
        return Err("reads two different input registers, which picasso rejects".into());
    }
    Ok(())
}

fn descriptor(descs: &[[u32; 2]], desc: u8) -> Result<OperandDescriptor, Problem> {
    descs
        .get(desc as usize)
        .map(|d| OperandDescriptor(d[0]))
        .ok_or_else(|| format!("operand descriptor {desc} is past the table ({} entries)", descs.len()))
}

/// picasso writes an inverted form with its plain twin's mnemonic and picks the form itself.
fn base_mnemonic(op: Opcode) -> &'static str {
    op.plain().mnemonic().unwrap_or("?")
}

/// picasso indexes only float uniforms (`c` registers): "index register not allowed with this
/// kind of register" for the rest.
fn check_relative(ins: &Instruction) -> Result<(), Problem> {
    let (idx, src1, src2, src3) = match ins.operands {
        Operands::Arith { idx, src1, src2, .. } | Operands::Cmp { idx, src1, src2, .. } => (idx, src1, src2, src1),
        Operands::Mad { idx, src1, src2, src3, .. } => (idx, src1, src2, src3),
        _ => return Ok(()),
    };
    let reg = match ins.relative_source() {
        Some(RelativeSource::Src1) => src1,
        Some(RelativeSource::Src2) => src2,
        Some(RelativeSource::Src3) => src3,
        None => return Ok(()),
    };
    match (idx, reg) {
        (AddrIndex::None, _) | (_, SrcReg::Const(_)) => Ok(()),
        (idx, reg) => Err(format!(
            "relative addressing ({}) on {reg}, which picasso rejects (only float uniforms are indexed)",
            idx.name().unwrap_or("?")
        )),
    }
}

fn proc_target(targets: &dyn Targets, dst: u16, num: u8) -> Result<&str, Problem> {
    targets.proc_name(dst as u32, num as u32).ok_or_else(|| format!("no procedure at {dst} with size {num}"))
}

fn label_target(targets: &dyn Targets, dst: u16) -> Result<&str, Problem> {
    targets.label_name(dst as u32).ok_or_else(|| format!("no label at {dst}"))
}

/// The source line of one instruction (without indentation).
///
/// IFU, IFC and LOOP print only their head (`ifc cmp.x`, `for i0`): their targets are the block
/// structure, which the caller checks and prints.
pub(crate) fn instruction_text(ins: &Instruction, cx: &Context) -> Result<String, Problem> {
    let text = operands_text(ins, cx)?;
    // Judged last, so that a word with other problems keeps reporting those.
    check_relative(ins)?;
    Ok(text)
}

fn operands_text(ins: &Instruction, cx: &Context) -> Result<String, Problem> {
    let (descs, targets, names, max_output) = (cx.descs, cx.targets, cx.names, cx.max_output);
    let Some(mnemonic) = ins.opcode.mnemonic() else {
        return Err(format!("unknown opcode {:#04x}", ins.opcode.first_bits6()));
    };
    if let Operands::Arith { dst: DstReg::Output(o), .. } | Operands::Mad { dst: DstReg::Output(o), .. } = ins.operands
    {
        if o >= max_output && ins.opcode.output() != Output::Address {
            return Err(format!("writes o{o}, past the o0-o{} picasso allows in this shader", max_output - 1));
        }
    }
    if ins.extra != 0 {
        return Err(format!("bits {:#010x} outside every field of {mnemonic}", ins.extra));
    }
    let format = ins.opcode.format();
    match (format, ins.operands) {
        (Some(Format::F1), Operands::Arith { dst, src1, src2, idx, desc }) => {
            let d = descriptor(descs, desc)?;
            check_inputs(&[src1, src2])?;
            Ok(format!(
                "{mnemonic} {dst}{}, {}, {}",
                mask(d.dest_mask())?,
                source(src1, d, 1, idx, names),
                source(src2, d, 2, AddrIndex::None, names)
            ))
        }
        (Some(Format::F1i), Operands::Arith { dst, src1, src2, idx, desc }) => {
            // picasso picks the inverted form only when SRC2 is a float uniform.
            if !matches!(src2, SrcReg::Const(_)) {
                return Err(format!("{mnemonic} with a non-uniform SRC2 (picasso chooses the plain form)"));
            }
            let d = descriptor(descs, desc)?;
            check_inputs(&[src1, src2])?;
            Ok(format!(
                "{} {dst}{}, {}, {}",
                base_mnemonic(ins.opcode),
                mask(d.dest_mask())?,
                source(src1, d, 1, AddrIndex::None, names),
                source(src2, d, 2, idx, names)
            ))
        }
        (Some(Format::F1u), Operands::Arith { dst, src1, src2, idx, desc }) => {
            if src2.raw() != 0 {
                return Err(format!("unused SRC2 bits hold {:#x}", src2.raw()));
            }
            let d = descriptor(descs, desc)?;
            if ins.opcode.output() == Output::Address {
                if dst != DstReg::Output(0) {
                    return Err(format!("mova with destination field {dst} (picasso writes 0)"));
                }
                let target = match d.dest_mask() {
                    8 => "a0.x",
                    4 => "a0.y",
                    12 => "a0.xy",
                    m => return Err(format!("mova with mask {m:#x} (only x and y exist)")),
                };
                return Ok(format!("mova {target}, {}", source(src1, d, 1, idx, names)));
            }
            Ok(format!("{mnemonic} {dst}{}, {}", mask(d.dest_mask())?, source(src1, d, 1, idx, names)))
        }
        (Some(Format::F1c), Operands::Cmp { src1, src2, idx, cmp_x, cmp_y, desc }) => {
            let d = descriptor(descs, desc)?;
            Ok(format!(
                "cmp {}, {}, {}, {}",
                source(src1, d, 1, idx, names),
                cmp_name(cmp_x)?,
                cmp_name(cmp_y)?,
                source(src2, d, 2, AddrIndex::None, names)
            ))
        }
        (Some(Format::F5 | Format::F5i), Operands::Mad { dst, src1, src2, src3, idx, desc }) => {
            let inverted = ins.opcode.is_inverted();
            // picasso's choice (format5): MADI when SRC2 is narrow and SRC3 is a uniform or
            // indexed while SRC2 is not.
            if inverted && !matches!(src3, SrcReg::Const(_)) && idx == AddrIndex::None {
                return Err("madi with a non-uniform, unindexed SRC3 (picasso chooses mad)".into());
            }
            let d = descriptor(descs, desc)?;
            check_inputs(&[src1, src2, src3])?;
            let (i2, i3) = if inverted { (AddrIndex::None, idx) } else { (idx, AddrIndex::None) };
            Ok(format!(
                "mad {dst}{}, {}, {}, {}",
                mask(d.dest_mask())?,
                source(src1, d, 1, AddrIndex::None, names),
                source(src2, d, 2, i2, names),
                source(src3, d, 3, i3, names)
            ))
        }
        (Some(Format::F0), Operands::None) => Ok(mnemonic.to_string()),
        (Some(Format::F2), Operands::Flow { dst, num, cond }) => match ins.opcode {
            Opcode::Breakc if dst == 0 && num == 0 => Ok(format!("breakc {}", condition_text(cond)?)),
            Opcode::Breakc => Err(format!("breakc with target {dst} and count {num} (picasso writes 0)")),
            Opcode::Call if cond == Condition { op: CondOp::Or, refx: false, refy: false } => {
                Ok(format!("call {}", proc_target(targets, dst, num)?))
            }
            Opcode::Call => Err("call with condition bits set".into()),
            Opcode::Callc => Ok(format!("callc {}, {}", condition_text(cond)?, proc_target(targets, dst, num)?)),
            Opcode::Ifc => Ok(format!("ifc {}", condition_text(cond)?)),
            Opcode::Jmpc if num == 0 => Ok(format!("jmpc {}, {}", condition_text(cond)?, label_target(targets, dst)?)),
            Opcode::Jmpc => Err(format!("jmpc with count {num} (picasso writes 0)")),
            _ => Err(format!("{mnemonic}: unexpected operands")),
        },
        (Some(Format::F3), Operands::Uniform { dst, num, id }) => match ins.opcode {
            Opcode::Callu => Ok(format!("callu {}, {}", names.reg('b', id, None), proc_target(targets, dst, num)?)),
            Opcode::Ifu => Ok(format!("ifu {}", names.reg('b', id, None))),
            Opcode::Jmpu if num <= 1 => {
                let not = if num == 1 { "!" } else { "" };
                Ok(format!("jmpu {not}{}, {}", names.reg('b', id, None), label_target(targets, dst)?))
            }
            Opcode::Jmpu => Err(format!("jmpu with count {num} (picasso writes 0 or 1)")),
            Opcode::Loop if id <= 3 && num == 0 => Ok(format!("for {}", names.reg('i', id, None))),
            Opcode::Loop if id > 3 => Err(format!("loop on integer uniform i{id} (only i0-i3 exist)")),
            Opcode::Loop => Err(format!("loop with count {num} (picasso writes 0)")),
            _ => Err(format!("{mnemonic}: unexpected operands")),
        },
        (Some(Format::F4), Operands::SetEmit { vertex, winding, primitive }) => {
            if vertex > 2 {
                return Err(format!("setemit vertex {vertex} (picasso accepts 0-2)"));
            }
            let flags = match (primitive, winding) {
                (false, false) => "",
                (true, false) => ", prim",
                (false, true) => ", inv",
                (true, true) => ", prim inv",
            };
            Ok(format!("setemit {vertex}{flags}"))
        }
        _ => Err(format!("{mnemonic}: operands of the wrong format")),
    }
}

/// A comment line that keeps an instruction picasso cannot express, with its raw word.
pub(crate) fn raw_comment(word: u32, problem: &str) -> String {
    format!("; raw {word:#010x}: {problem}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cx<'a>(descs: &'a [[u32; 2]], names: &'a RegNames) -> Context<'a> {
        Context { descs, targets: &NoTargets, names, max_output: 16 }
    }

    struct NoTargets;
    impl Targets for NoTargets {
        fn proc_name(&self, _: u32, _: u32) -> Option<&str> {
            None
        }
        fn label_name(&self, _: u32) -> Option<&str> {
            None
        }
    }

    #[test]
    fn names_cover_arrays_and_indexing() {
        let mut n = RegNames::default();
        n.declare('c', 4, 4, "mtx");
        n.declare('c', 95, 1, "k");
        assert_eq!(n.text('c', 4, None), "mtx[0]");
        assert_eq!(n.text('c', 6, Some("a0.x")), "mtx[a0.x+2]");
        assert_eq!(n.text('c', 95, Some("aL")), "k[aL]");
        assert_eq!(n.text('c', 3, Some("a0.y")), "c3[a0.y]");
    }

    #[test]
    fn swizzles_drop_trailing_repeats() {
        assert_eq!(swizzle_suffix(Swizzle::IDENTITY), "");
        assert_eq!(swizzle_suffix(Swizzle(0x00)), ".x");
        assert_eq!(swizzle_suffix(Swizzle(0x55)), ".y");
        assert_eq!(swizzle_suffix(Swizzle::from_components([0, 1, 2, 2])), ".xyz");
        assert_eq!(swizzle_suffix(Swizzle::from_components([3, 2, 1, 0])), ".wzyx");
    }

    #[test]
    fn conditions_follow_picasso_reference_bits() {
        let c = |op, refx, refy| condition_text(Condition { op, refx, refy });
        assert_eq!(c(CondOp::X, true, true).unwrap(), "cmp.x");
        assert_eq!(c(CondOp::Y, true, false).unwrap(), "!cmp.y");
        assert_eq!(c(CondOp::And, false, true).unwrap(), "!cmp.x && cmp.y");
        assert!(c(CondOp::X, true, false).is_err());
    }

    #[test]
    fn prints_arithmetic_with_descriptor() {
        // mad r0.xy, v0, c1.x, r2 with descriptor 0
        let desc = OperandDescriptor::new(
            0b1100,
            &[(false, Swizzle::IDENTITY), (false, Swizzle(0)), (true, Swizzle::IDENTITY)],
        );
        // src1 = v0 (bits 17-21 zero)
        let word = 0x38u32 << 26 | 0x10 << 24 | 0x21 << 10 | 0x12 << 5;
        let text = instruction_text(&Instruction::decode(word), &cx(&[[desc.0, 0]], &RegNames::default())).unwrap();
        assert_eq!(text, "mad r0.xy, v0, c1.x, -r2");
    }

    #[test]
    fn refuses_relative_addressing_off_float_uniforms() {
        let descs = [[0x1B << 5 | 0xF, 0]];
        let names = RegNames::default();
        // mov r1, r0[a0.x]: picasso rejects the index on a temporary.
        let word = 0x13u32 << 26 | 0x11 << 21 | 1 << 19 | 0x10 << 12;
        let err = instruction_text(&Instruction::decode(word), &cx(&descs, &names)).unwrap_err();
        assert!(err.contains("relative addressing (a0.x) on r0"), "{err}");
        // mov r1, c0[a0.x] prints.
        let word = 0x13u32 << 26 | 0x11 << 21 | 1 << 19 | 0x20 << 12;
        assert_eq!(instruction_text(&Instruction::decode(word), &cx(&descs, &names)).unwrap(), "mov r1, c0[a0.x]");
        // dphi r0, v0, r2[aL]: the index sits on SRC2 in format 1i.
        let word = 0x18u32 << 26 | 0x10 << 21 | 3 << 19 | 0x12 << 7;
        assert!(instruction_text(&Instruction::decode(word), &cx(&descs, &names)).is_err());
    }

    #[test]
    fn refuses_what_picasso_cannot_write() {
        let unknown = Instruction::decode(0x10 << 26);
        assert!(instruction_text(&unknown, &cx(&[], &RegNames::default())).unwrap_err().contains("unknown opcode"));
        // add r0, v0, v1: two different inputs
        let word = 0x10 << 21 | 0x01 << 7;
        assert!(instruction_text(&Instruction::decode(word), &cx(&[[0x01BF, 0]], &RegNames::default())).is_err());
        // descriptor past the table
        assert!(instruction_text(&Instruction::decode(0x10 << 21 | 5), &cx(&[], &RegNames::default())).is_err());
    }
}

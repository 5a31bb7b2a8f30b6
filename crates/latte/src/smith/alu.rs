//! ALU groups and clauses of the generator: every opcode class of the R700 table (plain,
//! four-slot reductions and CUBE, MOVA, PRED_SET, KILL, NOP), OP2 and OP3, with GPR, PV/PS,
//! literal, inline, kcache and constant-file sources, relative addressing, predication,
//! output modifiers and clamp.

use super::{Gen, DATA_REGS, REL_BASE_MAX, TEMP_REGS};
use crate::isa::alu::{assign_slots, sel, AluInst, AluKind, AluSrc, Op2, Op3};
use crate::isa::program::{literal_words, AluGroup};
use crate::isa::table::{self, AluClass, AluOp, Slots};
use crate::isa::Kcache;
use arbitrary::Result;

/// What the sources of a clause may read: the locked kcache lines per set (0: the set is off).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClauseCtx {
    pub kc_lines: [u16; 2],
}

/// Opcodes the generator picks freely in any group (PRED_SET* without the exec-mask update;
/// MOVA and the four-slot ops have their own group shapes).
fn free_ops() -> impl Iterator<Item = (bool, &'static AluOp)> {
    let op2 = table::ALU_OP2.iter().map(|o| (false, o));
    let op3 = table::ALU_OP3.iter().map(|o| (true, o));
    op2.chain(op3).filter(|(_, o)| !matches!(o.class, AluClass::Mova | AluClass::Reduction | AluClass::Cube))
}

impl Gen<'_, '_> {
    /// A kcache set: off, LOCK_1, LOCK_2 or LOCK_LOOP_INDEX over one of the generated blocks.
    pub(crate) fn kcache(&mut self) -> Result<(Kcache, u16)> {
        let mode = self.u.int_in_range(0..=3u8)?;
        let bank = self.u.int_in_range(0..=super::BLOCKS - 1)?;
        let addr = self.u.int_in_range(0..=3u8)?;
        if mode == 0 {
            return Ok((Kcache::default(), 0));
        }
        let lines = match mode {
            1 => 16,
            _ => 32,
        };
        Ok((Kcache { bank, mode, addr }, lines))
    }

    fn reg(&mut self) -> Result<u16> {
        Ok(if self.u.ratio(1, 8)? {
            *self.u.choose(&TEMP_REGS)? as u16
        } else {
            self.u.int_in_range(0..=DATA_REGS - 1)? as u16
        })
    }

    fn index_mode(&mut self) -> Result<u8> {
        Ok(*self.u.choose(&[0u8, 0, 1, 2, 3, 4, 5, 6])?)
    }

    fn src(&mut self, ctx: &ClauseCtx, rel_ok: bool) -> Result<AluSrc> {
        let mut s = AluSrc { chan: self.u.int_in_range(0..=3)?, neg: self.u.ratio(1, 6)?, ..AluSrc::default() };
        match self.u.int_in_range(0..=15u8)? {
            0..=6 => {
                s.sel = self.reg()?;
                if rel_ok && s.sel <= REL_BASE_MAX && self.u.ratio(1, 6)? {
                    s.rel = true;
                }
            }
            7 => s.sel = *self.u.choose(&[sel::ZERO, sel::ONE, sel::ONE_INT, sel::MINUS_ONE_INT, sel::HALF])?,
            8 | 9 => s.sel = sel::LITERAL,
            10 => s.sel = sel::PV,
            11 => s.sel = sel::PS,
            12 | 13 => {
                let sets: Vec<usize> = (0..2).filter(|&k| ctx.kc_lines[k] > 0).collect();
                if sets.is_empty() {
                    s.sel = sel::CFILE + self.u.int_in_range(0..=255u16)?;
                } else {
                    let k = *self.u.choose(&sets)?;
                    s.sel = 128 + 32 * k as u16 + self.u.int_in_range(0..=ctx.kc_lines[k] - 1)?;
                }
                s.rel = rel_ok && self.u.ratio(1, 8)?;
            }
            _ => {
                s.sel = sel::CFILE + self.u.int_in_range(0..=255u16)?;
                s.rel = rel_ok && self.u.ratio(1, 8)?;
            }
        }
        Ok(s)
    }

    fn literal(&mut self) -> Result<u32> {
        Ok(match self.u.int_in_range(0..=3u8)? {
            0 => self.u.int_in_range(0..=8u32)?,
            1 => (*self.u.choose(&[0.5f32, 1.0, 2.0, -1.0, 0.25, 3.0, -0.75, 100.0])?).to_bits(),
            2 => ((self.u.int_in_range(-2000..=2000i32)?) as f32 / 256.0).to_bits(),
            _ => self.u.arbitrary()?,
        })
    }

    /// One instruction of opcode `op` writing channel `chan`.
    fn inst(&mut self, op3: bool, op: &AluOp, chan: u8, ctx: &ClauseCtx, rel_ok: bool) -> Result<AluInst> {
        let mut i = AluInst { dst_chan: chan, clamp: self.u.ratio(1, 8)?, ..AluInst::default() };
        let n = op.srcs as usize;
        let mut srcs = [AluSrc::default(); 3];
        for s in srcs.iter_mut().take(n) {
            *s = self.src(ctx, rel_ok)?;
        }
        i.src0 = srcs[0];
        i.src1 = srcs[1];
        i.dst_gpr = self.dst_reg()?;
        if rel_ok && i.dst_gpr as u16 <= REL_BASE_MAX && self.u.ratio(1, 8)? {
            i.dst_rel = true;
        }
        if srcs.iter().any(|s| s.rel) || i.dst_rel {
            i.index_mode = self.index_mode()?;
        }
        if self.u.ratio(1, 10)? {
            i.pred_sel = *self.u.choose(&[2u8, 3])?;
        }
        i.kind = if op3 {
            AluKind::Op3(Op3 { op: op.code, src2: srcs[2] })
        } else {
            AluKind::Op2(Op2 {
                op: op.code,
                abs: [n > 0 && self.u.ratio(1, 8)?, n > 1 && self.u.ratio(1, 8)?],
                update_exec_mask: false,
                update_pred: matches!(op.class, AluClass::PredSet | AluClass::PredSetPush) && self.u.arbitrary()?,
                write_mask: op.class != AluClass::Nop && !self.u.ratio(1, 6)?,
                omod: if self.u.ratio(1, 6)? { self.u.int_in_range(1..=3)? } else { 0 },
            })
        };
        Ok(i)
    }

    /// A GPR to write: a data register or a clause temporary (never a loop counter).
    fn dst_reg(&mut self) -> Result<u8> {
        Ok(if self.u.ratio(1, 8)? { *self.u.choose(&TEMP_REGS)? } else { self.u.int_in_range(1..=DATA_REGS - 1)? })
    }

    /// A random group: up to four vector instructions and one trans instruction, or a
    /// four-slot DOT4 / DOT4_IEEE / MAX4 / CUBE (plus maybe a trans one), or a MOVA group that
    /// loads AR from a small literal (so relative accesses stay inside R0-R127).
    pub(crate) fn group(&mut self, ctx: &ClauseCtx, rel_ok: bool) -> Result<AluGroup> {
        let mut insts = Vec::new();
        match self.u.int_in_range(0..=9u8)? {
            0 => {
                let quads: Vec<&AluOp> =
                    table::ALU_OP2.iter().filter(|o| matches!(o.class, AluClass::Reduction | AluClass::Cube)).collect();
                let op = *self.u.choose(&quads)?;
                for c in 0..4 {
                    insts.push(self.inst(false, op, c, ctx, rel_ok)?);
                }
            }
            1 => {
                let movas: Vec<&AluOp> = table::alu_ops_of(AluClass::Mova).collect();
                let op = *self.u.choose(&movas)?;
                let chan = self.u.int_in_range(0..=3)?;
                let v = self.u.int_in_range(0..=6u32)?;
                let int = matches!(op.code, 0x18 | 0x60);
                let mut i = AluInst { dst_chan: chan, dst_gpr: self.dst_reg()?, ..AluInst::default() };
                i.src0 = AluSrc { sel: sel::LITERAL, chan: 0, ..AluSrc::default() };
                i.kind = AluKind::Op2(Op2 { op: op.code, write_mask: self.u.arbitrary()?, ..Op2::default() });
                insts.push(i);
                let lit = if int { v } else { (v as f32 + *self.u.choose(&[0.0f32, 0.25, 0.5])?).to_bits() };
                return self.finish(insts, Some(lit));
            }
            _ => {}
        }
        let ops: Vec<(bool, &AluOp)> = free_ops().collect();
        let mut used = [false; 5];
        if insts.len() == 4 {
            used = [true, true, true, true, false];
        }
        for c in 0..4u8 {
            if used[c as usize] || !self.u.ratio(2, 3)? {
                continue;
            }
            let (op3, op) = *self.u.choose(&ops)?;
            if op.slots == Slots::Trans {
                if used[4] {
                    continue;
                }
                used[4] = true;
            } else {
                used[c as usize] = true;
            }
            insts.push(self.inst(op3, op, c, ctx, rel_ok)?);
        }
        if !used[4] && (insts.is_empty() || self.u.ratio(1, 2)?) {
            let (op3, op) = *self.u.choose(&ops)?;
            // An Any op goes to t only when its channel's vector slot is taken; with every
            // vector slot free it is simply a vector instruction.
            let chans: Vec<u8> = (0..4u8).filter(|&c| used[c as usize]).collect();
            let chan = if op.slots == Slots::Trans || chans.is_empty() {
                self.u.int_in_range(0..=3)?
            } else {
                *self.u.choose(&chans)?
            };
            insts.push(self.inst(op3, op, chan, ctx, rel_ok)?);
        }
        self.finish(insts, None)
    }

    /// Sets LAST, assigns slots and draws the literals (`first`: the value of literal X).
    pub(crate) fn finish(&mut self, mut insts: Vec<AluInst>, first: Option<u32>) -> Result<AluGroup> {
        if let Some(l) = insts.last_mut() {
            l.last = true;
        }
        let n = literal_words(&insts);
        let mut literals = Vec::with_capacity(n);
        for k in 0..n {
            literals.push(match (k, first) {
                (0, Some(v)) => v,
                _ => self.literal()?,
            });
        }
        let slots = assign_slots(&insts);
        debug_assert!(slots.is_some(), "generated group needs a slot twice: {insts:?}");
        Ok(AluGroup { insts, slots, literals })
    }

    /// A PRED_SET* (comparison or predicate-counter push form) with UPDATE_EXEC_MASK: the last
    /// group of an ALU_PUSH_BEFORE, ALU_BREAK or ALU_CONTINUE clause.
    pub(crate) fn exec_group(&mut self, ctx: &ClauseCtx) -> Result<AluGroup> {
        let ops: Vec<&AluOp> =
            table::ALU_OP2.iter().filter(|o| matches!(o.class, AluClass::PredSet | AluClass::PredSetPush)).collect();
        let op = *self.u.choose(&ops)?;
        let chan = self.u.int_in_range(0..=3)?;
        let mut i = self.inst(false, op, chan, ctx, false)?;
        i.pred_sel = 0;
        if let AluKind::Op2(o) = &mut i.kind {
            o.update_exec_mask = true;
        }
        self.finish(vec![i], None)
    }
}

/// `ADD_INT Rc.x, Rc.x, 1` then `PRED_SETGT_INT ____, trips, Rc.x UPDATE_EXEC_MASK`: the
/// counter clause (an ALU_BREAK) that bounds a DX10 loop to `trips - 1` passes.
pub(crate) fn counter_groups(counter: u8, trips: u32) -> Vec<AluGroup> {
    let c = AluSrc { sel: counter as u16, ..AluSrc::default() };
    let add = AluInst {
        src0: c,
        src1: AluSrc { sel: sel::ONE_INT, ..AluSrc::default() },
        dst_gpr: counter,
        last: true,
        kind: AluKind::Op2(Op2 { op: 0x34, write_mask: true, ..Op2::default() }),
        ..AluInst::default()
    };
    let test = AluInst {
        src0: AluSrc { sel: sel::LITERAL, ..AluSrc::default() },
        src1: c,
        dst_gpr: counter,
        last: true,
        kind: AluKind::Op2(Op2 { op: 0x43, update_exec_mask: true, ..Op2::default() }),
        ..AluInst::default()
    };
    vec![
        AluGroup { insts: vec![add], slots: assign_slots(&[add]), literals: vec![] },
        AluGroup { insts: vec![test], slots: assign_slots(&[test]), literals: vec![trips, 0] },
    ]
}

/// `MOV Rc.x, 0` (integer zero): the counter's reset before its loop.
pub(crate) fn counter_reset(counter: u8) -> AluGroup {
    let mov = AluInst {
        src0: AluSrc { sel: sel::ZERO, ..AluSrc::default() },
        dst_gpr: counter,
        last: true,
        kind: AluKind::Op2(Op2 { op: 0x19, write_mask: true, ..Op2::default() }),
        ..AluInst::default()
    };
    AluGroup { insts: vec![mov], slots: assign_slots(&[mov]), literals: vec![] }
}

//! ALU clauses: operand reads, the VLIW group rule, PV/PS, AR, predication and the exec-mask
//! update (latte-semantics-facts.md §1.8-§1.12, §2.1, §2.2, §2.5, §2.6, §3).

use super::cf::Machine;
use super::error::{invalid, unsupported, At, Result};
use super::ops::{self, f, Val};
use super::state::{FaultInjection, LaneState, NUM_GPRS};
use crate::isa::alu::sel;
use crate::isa::table::AluClass;
use crate::isa::{AluGroup, AluInst, AluKind, AluSrc, CfAlu};

/// Per-lane state that lives for one clause: AR, PV, PS, and whether a PRED_SET with
/// UPDATE_EXECUTE_MASK failed (applied at clause end, decision on §6.3).
#[derive(Clone, Copy, Default)]
struct ClauseLane {
    ar: [i32; 4],
    pv: [u32; 4],
    ps: u32,
    exec_fail: bool,
}

/// One instruction's outcome in a group.
#[derive(Clone, Copy)]
struct Outcome {
    slot: usize,
    value: u32,
    write: Option<(usize, usize)>,
    ar: Option<(usize, i32)>,
    pred: Option<bool>,
    exec_fail: Option<bool>,
    kill: bool,
}

impl Machine<'_> {
    /// Runs the ALU clause of CF `cf`; lanes whose exec mask a PRED_SET cleared become
    /// `on_fail` (Inactive-branch, or -break / -continue for ALU_BREAK / ALU_CONTINUE).
    pub(crate) fn run_alu(
        &mut self,
        cf: usize,
        a: &CfAlu,
        groups: &[AluGroup],
        base: usize,
        on_fail: LaneState,
    ) -> Result<()> {
        let run = self.run_mask(a.whole_quad_mode, false);
        let mut cl = vec![ClauseLane::default(); self.lanes.len()];
        for (gi, g) in groups.iter().enumerate() {
            let at = At::Alu { cf, group: base + gi };
            self.step(at)?;
            let slots = g.slots.ok_or_else(|| super::InterpError::Invalid {
                at,
                what: "two instructions of the group need the same slot".into(),
            })?;
            for l in 0..self.lanes.len() {
                if run[l] {
                    self.run_group(a, g, &slots, &mut cl[l], l, at)?;
                }
            }
        }
        for (l, c) in cl.iter().enumerate() {
            let lane = &mut self.lanes[l];
            if c.exec_fail && lane.state == LaneState::Active {
                lane.state = on_fail;
            }
        }
        Ok(())
    }

    fn index(&self, c: &ClauseLane, mode: u8, at: At) -> Result<i32> {
        match mode {
            0..=3 => Ok(c.ar[mode as usize]),
            4 => Ok(self.al),
            // GLOBAL (5) addresses the global GPRs absolutely and GLOBAL_AR_X (6) relative to
            // AR.x (facts §1.11); an invocation's GPR file stands for the global one (GX2 sets
            // up no shared GPRs), so 5 adds nothing and 6 adds AR.x (decision).
            5 => Ok(0),
            6 => Ok(c.ar[0]),
            m => invalid(at, format!("INDEX_MODE {m} (reserved)")),
        }
    }

    fn gpr_index(sel: i64, at: At) -> Result<usize> {
        if (0..NUM_GPRS as i64).contains(&sel) {
            Ok(sel as usize)
        } else {
            invalid(at, format!("relative GPR index {sel} outside R0-R127"))
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn read(
        &self,
        a: &CfAlu,
        g: &AluGroup,
        inst: &AluInst,
        s: AluSrc,
        abs: bool,
        c: &ClauseLane,
        l: usize,
        at: At,
    ) -> Result<u32> {
        let idx = if s.rel { self.index(c, inst.index_mode, at)? } else { 0 };
        let chan = s.chan as usize & 3;
        let v = match s.sel {
            0..=127 => self.lanes[l].gpr[Self::gpr_index(s.sel as i64 + idx as i64, at)?][chan],
            128..=191 => {
                let set = ((s.sel - 128) / 32) as usize;
                let k = ((s.sel - 128) % 32) as i64;
                let kc = a.kcache[set];
                // LOCK_LOOP_INDEX (3) locks two lines starting at ADDR·16 + aL (decision).
                let (lines, base) = match kc.mode {
                    1 => (16, 0),
                    2 => (32, 0),
                    0 => return invalid(at, format!("kcache set {set} read while its mode is NOP")),
                    _ => (32, self.al as i64),
                };
                if k >= lines {
                    return invalid(at, format!("KC{set}[{k}] outside the locked lines"));
                }
                let ci = kc.addr as i64 * 16 + base + k + idx as i64;
                // Reads outside the block (or of a missing block) are 0 (decision).
                self.inputs
                    .uniform_blocks
                    .get(&kc.bank)
                    .and_then(|b| usize::try_from(ci * 4 + chan as i64).ok().and_then(|i| b.get(i)))
                    .copied()
                    .unwrap_or(0)
            }
            sel::ZERO => 0,
            sel::ONE => 1.0f32.to_bits(),
            sel::ONE_INT => 1,
            sel::MINUS_ONE_INT => u32::MAX,
            sel::HALF => 0.5f32.to_bits(),
            sel::LITERAL => match g.literals.get(chan) {
                Some(&v) => v,
                None => return invalid(at, format!("literal {} not present", b"XYZW"[chan] as char)),
            },
            sel::PV => c.pv[chan],
            sel::PS => c.ps,
            256..=511 => {
                let i = (s.sel - 256) as i64 + idx as i64;
                usize::try_from(i).ok().and_then(|i| self.inputs.cfile.get(i)).map_or(0, |v| v[chan])
            }
            other => return unsupported(at, format!("source selector {other}")),
        };
        // abs first, then neg, as bit operations on every source (§1.8).
        let v = if abs { v & 0x7FFF_FFFF } else { v };
        Ok(if s.neg { v ^ 0x8000_0000 } else { v })
    }

    fn run_group(
        &mut self,
        a: &CfAlu,
        g: &AluGroup,
        slots: &[u8; 5],
        c: &mut ClauseLane,
        l: usize,
        at: At,
    ) -> Result<()> {
        let n = g.insts.len();
        // 1. Every source of the group is read before anything is written (§2.2).
        let mut srcs = [[0u32; 3]; 5];
        for (k, inst) in g.insts.iter().enumerate() {
            let abs = match &inst.kind {
                AluKind::Op2(o) => o.abs,
                AluKind::Op3(_) => [false, false],
            };
            let ss = inst.srcs();
            for i in 0..inst.src_count().min(3) {
                srcs[k][i] = self.read(a, g, inst, ss[i], i < 2 && abs[i], c, l, at)?;
            }
        }
        // 2. Four-slot ops (DOT4, DOT4_IEEE, MAX4, CUBE) combine their slots' sources.
        let mut quad: Option<[u32; 4]> = None;
        let quad_insts: Vec<usize> = (0..n)
            .filter(|&k| g.insts[k].op_info().is_some_and(|o| matches!(o.class, AluClass::Reduction | AluClass::Cube)))
            .collect();
        if !quad_insts.is_empty() {
            let op = g.insts[quad_insts[0]].op_info().map(|o| o.code);
            let mut by_slot = [usize::MAX; 4];
            for &k in &quad_insts {
                let s = slots[k] as usize;
                if s < 4 && g.insts[k].op_info().map(|o| o.code) == op {
                    by_slot[s] = k;
                }
            }
            if quad_insts.len() != 4 || by_slot.contains(&usize::MAX) {
                return invalid(at, format!("{} must fill slots x, y, z and w", g.insts[quad_insts[0]].name()));
            }
            let s = |slot: usize, i: usize| srcs[by_slot[slot]][i];
            quad = Some(match op {
                Some(0x50) | Some(0x51) => {
                    let ieee = op == Some(0x51);
                    // Products in slot order, summed left to right in f32 (decision); DOT4
                    // applies MUL's zero rule to each product.
                    let mut acc = 0.0f32;
                    for slot in 0..4 {
                        let (x, y) = (f(s(slot, 0)), f(s(slot, 1)));
                        let p = if ieee { x * y } else { ops::mul_legacy(x, y) };
                        acc = if slot == 0 { p } else { acc + p };
                    }
                    [acc.to_bits(); 4]
                }
                Some(0x53) => {
                    let m = (0..4).map(|k| f(s(k, 0))).fold(f32::NEG_INFINITY, |m, x| if x >= m { x } else { m });
                    [m.to_bits(); 4]
                }
                _ => {
                    // CUBE: x reads (z, y), y (z, x), z (x, z), w (y, z) of v (§3).
                    let v = [f(s(1, 1)), f(s(0, 1)), f(s(0, 0))];
                    ops::cube(v).map(f32::to_bits)
                }
            });
        }
        // 3. Results.
        let pred = self.lanes[l].pred;
        let mut outs: Vec<Outcome> = Vec::with_capacity(n);
        for (k, inst) in g.insts.iter().enumerate() {
            let slot = slots[k] as usize;
            let runs = match inst.pred_sel {
                0 => true,
                2 => !pred,
                3 => pred,
                p => return invalid(at, format!("PRED_SEL {p} (reserved)")),
            };
            if !runs {
                continue;
            }
            let info = match inst.op_info() {
                Some(i) => i,
                None => return unsupported(at, format!("ALU opcode {}", inst.name())),
            };
            let s = srcs[k];
            let mut o = Outcome { slot, value: 0, write: None, ar: None, pred: None, exec_fail: None, kill: false };
            let (omod, is_op2) = match &inst.kind {
                AluKind::Op2(op2) => (op2.omod, true),
                AluKind::Op3(_) => (0, false),
            };
            let val: Option<Val> = match info.class {
                AluClass::Nop => None,
                AluClass::Plain => {
                    let v = if is_op2 { ops::op2_plain(info.code, s) } else { ops::op3(info.code, s) };
                    match v {
                        Some((bits, float))
                            if self.config.fault_injection == Some(FaultInjection::MulIeeeOneUlp)
                                && info.name == "MUL_IEEE"
                                && f32::from_bits(bits).is_finite()
                                && bits & 0x7FFF_FFFF != 0 =>
                        {
                            Some((bits.wrapping_add(1), float))
                        }
                        Some(v) => Some(v),
                        None => return unsupported(at, format!("ALU opcode {}", info.name)),
                    }
                }
                AluClass::Reduction | AluClass::Cube => {
                    let q = quad.unwrap_or_default();
                    Some((q[slot.min(3)], true))
                }
                AluClass::Mova => {
                    // AR.c from the source (§1.11, §3): MOVA rounds half up, MOVA_FLOOR
                    // floors, MOVA_INT takes the integer; clamped to [-256, 255]; the GPR/PV
                    // result is the AR value as an integer (decisions).
                    let x = f(s[0]);
                    let r: i64 = match info.code {
                        0x15 => finite_or_zero((x as f64 + 0.5).floor()),
                        0x16 => finite_or_zero((x as f64).floor()),
                        // MOVA_GPR_INT (R600's trans-slot form, facts §1.13) as MOVA_INT.
                        0x18 | 0x60 => s[0] as i32 as i64,
                        _ => return unsupported(at, format!("ALU opcode {}", info.name)),
                    };
                    let r = r.clamp(-256, 255) as i32;
                    o.ar = Some((inst.dst_chan as usize & 3, r));
                    Some((r as u32, false))
                }
                AluClass::PredSet | AluClass::PredSetPush => {
                    // The comparison forms, and the predicate-counter forms (INV/POP/CLR/
                    // RESTORE and *_PUSH, ops::pred_counter / ops::pred_push) which give their
                    // own result value.
                    let (r, counter) = if let Some((cmp, ty)) = ops::pred_cmp(info.code) {
                        (ops::compare(cmp, ty, s[0], s[1]), None)
                    } else if let Some((v, p)) = ops::pred_counter(info.code, s) {
                        (p, Some((v, true)))
                    } else if let Some((v, p, float)) = ops::pred_push(info.code, s) {
                        (p, Some((v, float)))
                    } else {
                        return unsupported(at, format!("ALU opcode {}", info.name));
                    };
                    if let AluKind::Op2(op2) = &inst.kind {
                        if op2.update_pred {
                            o.pred = Some(r);
                        }
                        if op2.update_exec_mask {
                            o.exec_fail = Some(!r);
                        }
                    }
                    // Result value: 1.0f / 0.0f for float forms, -1 / 0 for integer forms
                    // (decaf; decision on §2.5).
                    Some(match (counter, ops::pred_cmp(info.code)) {
                        (Some(v), _) => v,
                        (None, Some((_, ops::Ty::F))) => ((if r { 1.0f32 } else { 0.0 }).to_bits(), true),
                        (None, _) => (if r { u32::MAX } else { 0 }, false),
                    })
                }
                AluClass::Kill => {
                    let Some((cmp, ty)) = ops::kill_cmp(info.code) else {
                        return unsupported(at, format!("ALU opcode {}", info.name));
                    };
                    let r = ops::compare(cmp, ty, s[0], s[1]);
                    o.kill = r;
                    // Result value 1.0f when the pixel is killed, else 0.0f (decision).
                    Some(((if r { 1.0f32 } else { 0.0 }).to_bits(), true))
                }
            };
            let Some(v) = val else { continue };
            o.value = ops::modify(v, omod, inst.clamp, ops::nan_canonical_op(info.name));
            if inst.writes_gpr() {
                let d = inst.dst_gpr as i64 + if inst.dst_rel { self.index(c, inst.index_mode, at)? as i64 } else { 0 };
                o.write = Some((Self::gpr_index(d, at)?, inst.dst_chan as usize & 3));
            }
            outs.push(o);
        }
        // 4. Writes, PV/PS (slots without a result read 0 next group, decision on §6.5).
        let lane = &mut self.lanes[l];
        c.pv = [0; 4];
        c.ps = 0;
        for o in &outs {
            if let Some((r, ch)) = o.write {
                lane.gpr[r][ch] = o.value;
            }
            if o.slot < 4 {
                c.pv[o.slot] = o.value;
            } else {
                c.ps = o.value;
            }
            if let Some((ch, v)) = o.ar {
                c.ar[ch] = v;
            }
            if let Some(p) = o.pred {
                lane.pred = p;
            }
            if let Some(e) = o.exec_fail {
                c.exec_fail = e;
            }
            if o.kill {
                lane.valid = false;
                lane.result.killed = true;
            }
        }
        Ok(())
    }
}

fn finite_or_zero(x: f64) -> i64 {
    if x.is_finite() {
        x.clamp(-1e9, 1e9) as i64
    } else {
        0
    }
}

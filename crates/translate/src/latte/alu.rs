//! ALU clauses (latte-semantics-facts.md §1.8-§1.12, §2.2, §2.5, §2.6): operand reads, the
//! VLIW group rule (every source read before any write), PV/PS, AR, predication, the
//! exec-mask update at clause end, as `latte::interp` (alu.rs) runs them for one lane.

use ::latte::isa::alu::sel;
use ::latte::isa::table::AluClass;
use ::latte::isa::{AluGroup, AluInst, AluKind, AluSrc, CfAlu};
use naga::BinaryOperator as B;

use super::flow::{Em, Gpr, ERR_INVALID, ERR_UNSUPPORTED, S_ACTIVE};
use super::ops::{kill_cmp, pred_cmp, Cmp, Ty, H};

/// One instruction's outcome.
struct Out {
    slot: usize,
    value: H,
    runs: Option<H>,
    write: Option<(Gpr, u32)>,
    ar: Option<(u32, H)>,
    pred: Option<H>,
    exec_fail: Option<H>,
    kill: Option<H>,
}

impl Em<'_, '_> {
    /// The index an INDEX_MODE adds (AR.x-w, the loop index, GLOBAL modes; 7 is reserved).
    fn index_mode(&mut self, mode: u8) -> H {
        match mode {
            0..=3 => {
                let p = self.fb.at(self.ar, mode as u32);
                self.fb.load(p)
            }
            4 => self.fb.load(self.al),
            6 => {
                let p = self.fb.at(self.ar, 0);
                self.fb.load(p)
            }
            5 => self.fb.i32(0),
            _ => {
                self.fail_always(ERR_INVALID);
                self.fb.i32(0)
            }
        }
    }

    /// A GPR index `base + idx` checked against R0-R127 (an error flag outside).
    pub(crate) fn rel_gpr(&mut self, base: u32, idx: H) -> H {
        let b = self.fb.i32(base as i32);
        let s = self.fb.bin(B::Add, b, idx);
        let u = self.u(s);
        let k = self.k(128);
        let oob = self.b(B::GreaterEqual, u, k);
        self.fail_if(oob, ERR_INVALID);
        self.and_k(u, 127)
    }

    fn read(&mut self, a: &CfAlu, g: &AluGroup, inst: &AluInst, s: AluSrc, abs: bool) -> H {
        let chan = s.chan as u32 & 3;
        let idx = if s.rel { Some(self.index_mode(inst.index_mode)) } else { None };
        let v = match s.sel {
            0..=127 => match idx {
                Some(i) => {
                    let r = self.rel_gpr(s.sel as u32, i);
                    self.gpr_load(Gpr::Dyn(r), chan)
                }
                None => self.gpr_load(Gpr::Static(s.sel as u32), chan),
            },
            128..=191 => {
                let set = ((s.sel - 128) / 32) as usize;
                let k = ((s.sel - 128) % 32) as i32;
                let kc = a.kcache[set];
                let (lines, base) = match kc.mode {
                    1 => (16, None),
                    2 => (32, None),
                    0 => {
                        self.fail_always(ERR_INVALID);
                        return self.k(0);
                    }
                    _ => (32, Some(self.fb.load(self.al))),
                };
                if k >= lines {
                    self.fail_always(ERR_INVALID);
                    return self.k(0);
                }
                let mut ci = self.fb.i32(kc.addr as i32 * 16 + k);
                for add in [base, idx].into_iter().flatten() {
                    ci = self.fb.bin(B::Add, ci, add);
                }
                self.block_read(kc.bank, ci, chan)
            }
            sel::ZERO => self.opaque(0),
            sel::ONE => self.opaque(1.0f32.to_bits()),
            sel::ONE_INT => self.opaque(1),
            sel::MINUS_ONE_INT => self.opaque(u32::MAX),
            sel::HALF => self.opaque(0.5f32.to_bits()),
            sel::LITERAL => match g.literals.get(chan as usize) {
                Some(&v) => self.opaque(v),
                None => {
                    self.fail_always(ERR_INVALID);
                    self.k(0)
                }
            },
            sel::PV => {
                let p = self.fb.at(self.pv, chan);
                self.fb.load(p)
            }
            sel::PS => self.fb.load(self.ps),
            256..=511 => {
                let mut i = self.fb.i32((s.sel - 256) as i32);
                if let Some(x) = idx {
                    i = self.fb.bin(B::Add, i, x);
                }
                self.cfile_read(i, chan)
            }
            _ => {
                self.fail_always(ERR_UNSUPPORTED);
                self.k(0)
            }
        };
        // abs first, then neg, as bit operations (§1.8).
        let v = if abs { self.and_k(v, 0x7FFF_FFFF) } else { v };
        if s.neg {
            let m = self.k(0x8000_0000);
            self.b(B::ExclusiveOr, v, m)
        } else {
            v
        }
    }

    /// Runs ALU clause `groups` of CF `a` for the lane (the caller tests that it is active);
    /// an exec-mask failure makes the lane `on_fail` at the end.
    pub(crate) fn alu_clause(&mut self, a: &CfAlu, groups: &[AluGroup], on_fail: u32) {
        // PV/PS read 0 at clause start: opaque, as constant operands are.
        let z = self.opaque(0);
        let zero4 = self.fb.compose(self.t.vec4u, vec![z; 4]);
        self.fb.store(self.pv, zero4);
        let zi4 = self.fb.expr(naga::Expression::ZeroValue(self.t.vec4i));
        self.fb.store(self.ar, zi4);
        self.fb.store(self.ps, z);
        let f = self.fb.bool(false);
        self.fb.store(self.exec_fail, f);
        for g in groups {
            self.group(a, g);
        }
        let ef = self.fb.load(self.exec_fail);
        let st = self.fb.load(self.state);
        let act = self.eq_k(st, S_ACTIVE);
        let c = self.b(B::LogicalAnd, ef, act);
        let nf = self.k(on_fail);
        let ns = self.sel(c, nf, st);
        self.fb.store(self.state, ns);
    }

    fn group(&mut self, a: &CfAlu, g: &AluGroup) {
        let Some(slots) = g.slots else {
            self.fail_always(ERR_INVALID);
            return;
        };
        let n = g.insts.len();
        // 1. Every source of the group before anything is written (§2.2).
        let mut srcs: Vec<[H; 3]> = Vec::with_capacity(n);
        for inst in &g.insts {
            let abs = match &inst.kind {
                AluKind::Op2(o) => o.abs,
                AluKind::Op3(_) => [false, false],
            };
            let ss = inst.srcs();
            let z = self.k(0);
            let mut v = [z; 3];
            for i in 0..inst.src_count().min(3) {
                v[i] = self.read(a, g, inst, ss[i], i < 2 && abs[i]);
            }
            srcs.push(v);
        }
        let pred = self.fb.load(self.pred);
        // 2. Four-slot ops combine their slots' sources.
        let quad_insts: Vec<usize> = (0..n)
            .filter(|&k| g.insts[k].op_info().is_some_and(|o| matches!(o.class, AluClass::Reduction | AluClass::Cube)))
            .collect();
        let mut quad: Option<[H; 4]> = None;
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
                self.fail_always(ERR_INVALID);
                return;
            }
            let s = |slot: usize, i: usize| srcs[by_slot[slot]][i];
            quad = Some(match op {
                Some(0x50) | Some(0x51) => {
                    let ieee = op == Some(0x51);
                    let mut acc = None;
                    for slot in 0..4 {
                        let p = if ieee {
                            self.fop(B::Multiply, s(slot, 0), s(slot, 1))
                        } else {
                            self.mul_legacy(s(slot, 0), s(slot, 1))
                        };
                        acc = Some(match acc {
                            None => p,
                            Some(x) => self.fop(B::Add, x, p),
                        });
                    }
                    [acc.expect("four products"); 4]
                }
                Some(0x53) => {
                    let mut m = self.k(0xFF80_0000);
                    for k in 0..4 {
                        let x = s(k, 0);
                        let c = self.compare(Cmp::Ge, Ty::F, x, m);
                        m = self.sel(c, x, m);
                    }
                    [m; 4]
                }
                _ => self.cube([s(1, 1), s(0, 1), s(0, 0)]),
            });
        }
        // 3. Results.
        let mut outs: Vec<Out> = Vec::with_capacity(n);
        for (k, inst) in g.insts.iter().enumerate() {
            let slot = slots[k] as usize;
            let runs = match inst.pred_sel {
                0 => None,
                2 => Some(self.fb.not(pred)),
                3 => Some(pred),
                _ => {
                    self.fail_always(ERR_INVALID);
                    continue;
                }
            };
            let Some(info) = inst.op_info() else {
                self.fail_runs(runs, ERR_UNSUPPORTED);
                continue;
            };
            let s = srcs[k];
            let mut o = Out { slot, value: s[0], runs, write: None, ar: None, pred: None, exec_fail: None, kill: None };
            let (omod, is_op2) = match &inst.kind {
                AluKind::Op2(op2) => (op2.omod, true),
                AluKind::Op3(_) => (0, false),
            };
            let val: Option<(H, bool)> = match info.class {
                AluClass::Nop => None,
                AluClass::Plain => {
                    let v = if is_op2 { self.op2_plain(info.code, s) } else { self.op3(info.code, s) };
                    if v.is_none() {
                        self.fail_runs(runs, ERR_UNSUPPORTED);
                        continue;
                    }
                    v
                }
                AluClass::Reduction | AluClass::Cube => Some((quad.expect("quad computed")[slot.min(3)], true)),
                AluClass::Mova => {
                    let r = match info.code {
                        0x15 | 0x16 => self.mova_float(s[0], info.code == 0x15),
                        0x18 | 0x60 => {
                            let i = self.i(s[0]);
                            let lo = self.fb.i32(-256);
                            let hi = self.fb.i32(255);
                            self.fb.math3(naga::MathFunction::Clamp, i, lo, hi)
                        }
                        _ => {
                            self.fail_runs(runs, ERR_UNSUPPORTED);
                            continue;
                        }
                    };
                    o.ar = Some((inst.dst_chan as u32 & 3, r));
                    Some((self.u(r), false))
                }
                AluClass::PredSet | AluClass::PredSetPush => {
                    let (r, value) = if let Some((cmp, ty)) = pred_cmp(info.code) {
                        let r = self.compare(cmp, ty, s[0], s[1]);
                        let v = self.bool_val(r, ty == Ty::F);
                        (r, (v, ty == Ty::F))
                    } else if let Some((v, p)) = self.pred_counter(info.code, s) {
                        (p, (v, true))
                    } else if let Some((v, p, float)) = self.pred_push(info.code, s) {
                        (p, (v, float))
                    } else {
                        self.fail_runs(runs, ERR_UNSUPPORTED);
                        continue;
                    };
                    if let AluKind::Op2(op2) = &inst.kind {
                        if op2.update_pred {
                            o.pred = Some(r);
                        }
                        if op2.update_exec_mask {
                            o.exec_fail = Some(self.fb.not(r));
                        }
                    }
                    Some(value)
                }
                AluClass::Kill => {
                    let Some((cmp, ty)) = kill_cmp(info.code) else {
                        self.fail_runs(runs, ERR_UNSUPPORTED);
                        continue;
                    };
                    let r = self.compare(cmp, ty, s[0], s[1]);
                    o.kill = Some(r);
                    Some((self.bool_val(r, true), true))
                }
            };
            let Some((v, float)) = val else { continue };
            o.value =
                if float { self.modify(v, omod, inst.clamp, ::latte::interp::nan_canonical_op(info.name)) } else { v };
            if inst.writes_gpr() {
                let d = if inst.dst_rel {
                    let i = self.index_mode(inst.index_mode);
                    Gpr::Dyn(self.rel_gpr(inst.dst_gpr as u32, i))
                } else {
                    Gpr::Static(inst.dst_gpr as u32 & 127)
                };
                o.write = Some((d, inst.dst_chan as u32 & 3));
            }
            outs.push(o);
        }
        // 4. Writes, PV/PS (slots without a result read 0 next group, opaque as constant
        // operands are).
        let z = self.opaque(0);
        let mut pv = [z; 4];
        let mut ps = z;
        for o in &outs {
            if let Some((r, ch)) = o.write {
                match o.runs {
                    None => self.gpr_store(r, ch, o.value),
                    Some(c) => {
                        let old = self.gpr_load(r, ch);
                        let v = self.sel(c, o.value, old);
                        self.gpr_store(r, ch, v)
                    }
                }
            }
            let v = match o.runs {
                None => o.value,
                Some(c) => self.sel(c, o.value, z),
            };
            if o.slot < 4 {
                pv[o.slot] = v;
            } else {
                ps = v;
            }
            if let Some((ch, v)) = o.ar {
                let p = self.fb.at(self.ar, ch);
                self.store_if(o.runs, p, v);
            }
            if let Some(p) = o.pred {
                self.store_if(o.runs, self.pred, p);
            }
            if let Some(e) = o.exec_fail {
                self.store_if(o.runs, self.exec_fail, e);
            }
            if let Some(kill) = o.kill {
                let kill = match o.runs {
                    None => kill,
                    Some(c) => self.b(B::LogicalAnd, c, kill),
                };
                let valid = self.fb.load(self.valid);
                let nk = self.fb.not(kill);
                let nv = self.b(B::LogicalAnd, valid, nk);
                self.fb.store(self.valid, nv);
                let killed = self.fb.load(self.killed);
                let nk = self.b(B::LogicalOr, killed, kill);
                self.fb.store(self.killed, nk);
            }
        }
        let pvv = self.fb.compose(self.t.vec4u, pv.to_vec());
        self.fb.store(self.pv, pvv);
        self.fb.store(self.ps, ps);
    }

    /// Stores `v` to `p`, or keeps the old value when `runs` is false.
    fn store_if(&mut self, runs: Option<H>, p: H, v: H) {
        let v = match runs {
            None => v,
            Some(c) => {
                let old = self.fb.load(p);
                self.sel(c, v, old)
            }
        };
        self.fb.store(p, v);
    }

    fn fail_runs(&mut self, runs: Option<H>, bit: u32) {
        match runs {
            None => self.fail_always(bit),
            Some(c) => self.fail_if(c, bit),
        }
    }

    /// MOVA (round half up: floor(x + 0.5), exactly) and MOVA_FLOOR: clamped to [-256, 255],
    /// NaN and infinities to 0.
    fn mova_float(&mut self, x: H, round: bool) -> H {
        let fx = self.f(x);
        let fl = self.fb.math1(naga::MathFunction::Floor, fx);
        let r = if round {
            // x - floor(x) is exact in f32, so this is floor(x + 0.5) without a rounded sum.
            let frac = self.b(B::Subtract, fx, fl);
            let half = self.fb.f32(0.5);
            let up = self.b(B::GreaterEqual, frac, half);
            let one = self.fb.f32(1.0);
            let zero = self.fb.f32(0.0);
            let add = self.fb.select(up, one, zero);
            self.b(B::Add, fl, add)
        } else {
            fl
        };
        let lo = self.fb.f32(-256.0);
        let hi = self.fb.f32(255.0);
        let c = self.fb.math3(naga::MathFunction::Clamp, r, lo, hi);
        let i = self.fb.convert(c, naga::ScalarKind::Sint);
        let nan = self.is_nan(x);
        let inf = self.is_inf(x);
        let bad = self.b(B::LogicalOr, nan, inf);
        let z = self.fb.i32(0);
        self.fb.select(bad, z, i)
    }

    /// Whether the lane is active.
    pub(crate) fn active(&mut self) -> H {
        let st = self.fb.load(self.state);
        self.eq_k(st, S_ACTIVE)
    }
}

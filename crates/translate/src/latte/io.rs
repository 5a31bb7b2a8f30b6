//! The compute form's bindings and record layouts (docs/abi.md "Latte"), and the module
//! assembly: globals, the function's locals, the program body.
//!
//! Group 0: uniform block n at binding n (`array<vec4<i32>, BLOCK_VEC4S>`, the game's words),
//! the constant file c0-c255 in group [`CFILE_GROUP`], the input records at [`IN_BINDING`]
//! (`array<vec4<u32>>`, [`IN_STRIDE`] vec4s per invocation: R0-R127, then flags with bit 0 of x
//! = an invalid (uncovered) pixel) and the output records at [`OUT_BINDING`] (`array<u32>`,
//! [`OUT_WORDS`] per invocation).

use std::collections::{BTreeMap, BTreeSet};

use ::latte::isa::alu::sel;
use ::latte::isa::program::ClauseBody;
use ::latte::isa::{CfInst, Program};
use naga::{
    AddressSpace, BinaryOperator as B, Binding, BuiltIn, Expression, FunctionArgument, GlobalVariable, Module,
    ResourceBinding, Span, Statement, StorageAccess, TypeInner, VectorSize,
};

use super::fetch::{FETCH_DATA_BINDING, FETCH_GROUP, FETCH_TABLE_BINDING};
use super::flow::{Em, Gpr, Gprs, Sink, Types, STACK_LIMIT};
use super::ops::H;
use super::{FlowKind, Options, Stage};
use crate::builder::{array, scalar, ty, vector, FnBuilder, BOOL, I32, U32};

/// Name of the compute entry point.
pub const COMPUTE_ENTRY: &str = "latte_compute";
/// Workgroup size of the compute entry point.
pub const WORKGROUP: u32 = 64;
/// vec4s of each uniform block binding (64 KiB); reads past it give 0.
pub const BLOCK_VEC4S: u32 = 4096;
/// Bind group of the constant file (uniform-register mode c0-c255), at binding 0.
pub const CFILE_GROUP: u32 = 2;
/// Bind group of the input and output records.
pub const IO_GROUP: u32 = 1;
/// Binding of the input records (in [`IO_GROUP`]).
pub const IN_BINDING: u32 = 0;
/// Binding of the output records (in [`IO_GROUP`]).
pub const OUT_BINDING: u32 = 1;
/// vec4s per input record: R0-R127 and the flags (x: bit 0 the invalid bit; y: 0, read as
/// the opaque zero of constant operands).
pub const IN_STRIDE: u32 = 129;
/// Output word: the error flags (`ERR_*`).
pub const OUT_ERR: u32 = 0;
/// Output word: 1 when a KILL cleared the valid bit.
pub const OUT_KILLED: u32 = 1;
/// Output word: memory writes made (also those past [`MEM_MAX`]).
pub const OUT_MEM_COUNT: u32 = 2;
/// Output word: exports without a slot ([`export_slot`]) and geometry events.
pub const OUT_UNMAPPED: u32 = 3;
/// Output words: R0-R127 (4 words each).
pub const OUT_GPRS: u32 = 4;
/// Output words: the export slots, 8 words each: the last value (4), its mask, the number of
/// exports to the slot.
pub const OUT_EXPORTS: u32 = OUT_GPRS + 512;
/// Export slots: PARAM 0-31, POS 60-63, PIXEL 0-7, PIXEL 61 (depth).
pub const EXPORT_SLOTS: u32 = 45;
/// Output words: memory writes, 8 words each: op, dword address, COMP_MASK | has-index << 8,
/// index, value (4).
pub const OUT_MEM: u32 = OUT_EXPORTS + EXPORT_SLOTS * 8;
/// Memory writes kept per invocation.
pub const MEM_MAX: u32 = 16;
/// Words per output record.
pub const OUT_WORDS: u32 = OUT_MEM + MEM_MAX * 8;

/// The slot of an export of TYPE `kind` (0 pixel, 1 pos, 2 param) to `index`.
pub fn export_slot(kind: u8, index: u16) -> Option<u32> {
    match (kind, index) {
        (2, k @ 0..=31) => Some(k as u32),
        (1, k @ 60..=63) => Some(32 + k as u32 - 60),
        (0, k @ 0..=7) => Some(36 + k as u32),
        (0, 61) => Some(44),
        _ => None,
    }
}

fn global(
    module: &mut Module,
    name: &str,
    space: AddressSpace,
    (group, binding): (u32, u32),
    t: naga::Handle<naga::Type>,
) -> naga::Handle<GlobalVariable> {
    module.global_variables.append(
        GlobalVariable {
            name: Some(name.to_string()),
            space,
            binding: Some(ResourceBinding { group, binding }),
            ty: t,
            init: None,
            memory_decorations: Default::default(),
        },
        Span::UNDEFINED,
    )
}

/// What the program needs: GPRs it names, whether any access is relative, the uniform banks
/// its kcache sets lock, whether it reads the constant file.
struct Uses {
    gprs: BTreeSet<u32>,
    rel: bool,
    banks: BTreeSet<u8>,
    cfile: bool,
}

fn uses(prog: &Program) -> Uses {
    let mut u = Uses { gprs: BTreeSet::new(), rel: false, banks: BTreeSet::new(), cfile: false };
    for c in &prog.cf {
        match c {
            CfInst::Alu(a) => {
                for k in a.kcache {
                    if k.mode != 0 {
                        u.banks.insert(k.bank);
                    }
                }
            }
            CfInst::Export(e) => {
                u.rel |= e.rw_rel;
                for i in 0..=e.burst_count as u32 {
                    u.gprs.insert((e.rw_gpr as u32 + i) & 127);
                }
                u.gprs.insert(e.index_gpr as u32 & 127);
            }
            CfInst::Normal(_) => {}
        }
    }
    for cl in &prog.clauses {
        if let ClauseBody::Alu(groups) = &cl.body {
            for i in groups.iter().flat_map(|g| &g.insts) {
                let ss = i.srcs();
                for s in &ss[..i.src_count().min(3)] {
                    if s.sel < 128 {
                        u.gprs.insert(s.sel as u32);
                        u.rel |= s.rel;
                    } else if s.sel >= sel::CFILE {
                        u.cfile = true;
                    }
                }
                u.gprs.insert(i.dst_gpr as u32 & 127);
                u.rel |= i.dst_rel;
            }
        }
        if let ClauseBody::Fetch(f) = &cl.body {
            // SEMANTIC and relative fetches write a GPR chosen at run time.
            for v in f.iter().filter_map(|i| match i {
                ::latte::isa::FetchInst::Vtx(v) => Some(v),
                ::latte::isa::FetchInst::Tex(_) => None,
            }) {
                u.gprs.insert(v.src_gpr as u32 & 127);
                u.gprs.insert(v.dst as u32 & 127);
                u.rel |= v.src_rel || v.op != 0 || v.dst & 0x80 != 0;
            }
        }
    }
    u
}

/// A bound on the stack depth: the number of instructions that push, when no jump goes
/// backward (only LOOP_END does, and it drops what its body pushed) and nothing calls; else
/// the interpreter's limit. A power of two (the stack index is masked).
fn stack_capacity(prog: &Program) -> u32 {
    let mut pushes = 0u32;
    let mut general = false;
    for (pc, c) in prog.cf.iter().enumerate() {
        match c {
            CfInst::Alu(a) if a.op == 9 => pushes += 1,
            CfInst::Normal(n) => match n.op {
                0x04 | 0x06 | 0x07 | 0x0B | 0x0C | 0x10 | 0x11 => pushes += 1,
                0x12 | 0x14 => general = true,
                0x08..=0x0F if n.op != 0x0E && (n.addr as usize) <= pc => general = true,
                _ => {}
            },
            _ => {}
        }
    }
    let n = if general { STACK_LIMIT } else { (pushes + 1).min(STACK_LIMIT) };
    n.next_power_of_two().max(2)
}

struct ComputeSink {
    out: H,
    base: H,
}

impl ComputeSink {
    fn word(&self, em: &mut Em<'_, '_>, off: u32) -> H {
        let o = em.fb.u32(off);
        let i = em.fb.bin(B::Add, self.base, o);
        em.fb.index(self.out, i)
    }
    fn bump(&self, em: &mut Em<'_, '_>, off: u32) -> H {
        let p = self.word(em, off);
        let v = em.fb.load(p);
        let one = em.fb.u32(1);
        let n = em.fb.bin(B::Add, v, one);
        em.fb.store(p, n);
        v
    }
}

impl Sink for ComputeSink {
    fn export(&mut self, em: &mut Em<'_, '_>, kind: u8, index: u16, value: H, mask: u8) {
        let Some(slot) = export_slot(kind, index) else {
            self.bump(em, super::OUT_UNMAPPED);
            return;
        };
        let base = OUT_EXPORTS + slot * 8;
        for c in 0..4 {
            let v = em.fb.at(value, c);
            let p = self.word(em, base + c);
            em.fb.store(p, v);
        }
        let m = em.fb.u32(mask as u32);
        let p = self.word(em, base + 4);
        em.fb.store(p, m);
        self.bump(em, base + 5);
    }

    fn mem(&mut self, em: &mut Em<'_, '_>, op: u8, addr: H, comp_mask: u8, index: Option<H>, value: H) {
        let n = self.bump(em, OUT_MEM_COUNT);
        let max = em.fb.u32(MEM_MAX);
        let room = em.fb.bin(B::Less, n, max);
        let eight = em.fb.u32(8);
        let off = em.fb.bin(B::Multiply, n, eight);
        let m = em.fb.u32(OUT_MEM);
        let off = em.fb.bin(B::Add, off, m);
        let off = em.fb.bin(B::Add, off, self.base);
        let (out, fb) = (self.out, &mut em.fb);
        let words: Vec<H> = {
            let opk = fb.u32(op as u32);
            let mk = fb.u32(comp_mask as u32 | if index.is_some() { 0x100 } else { 0 });
            let ix = match index {
                Some(i) => i,
                None => fb.u32(0),
            };
            let mut w = vec![opk, addr, mk, ix];
            for c in 0..4 {
                w.push(fb.at(value, c));
            }
            w
        };
        fb.if_(room, |fb| {
            for (k, w) in words.into_iter().enumerate() {
                let kk = fb.u32(k as u32);
                let i = fb.bin(B::Add, off, kk);
                let p = fb.index(out, i);
                fb.store(p, w);
            }
        });
    }

    fn gs_event(&mut self, em: &mut Em<'_, '_>) {
        self.bump(em, super::OUT_UNMAPPED);
    }
}

/// The module of the compute form.
pub(crate) fn compute_module(prog: &Program, _stage: Stage, options: &Options) -> (Module, FlowKind, Vec<u8>, bool) {
    let mut module = Module::default();
    let u32t = scalar(&mut module, U32);
    let i32t = scalar(&mut module, I32);
    let boolt = scalar(&mut module, BOOL);
    let vec4u = vector(&mut module, VectorSize::Quad, U32);
    let vec4i = vector(&mut module, VectorSize::Quad, I32);
    let uvec3 = vector(&mut module, VectorSize::Tri, U32);
    let t = Types { u32: u32t, vec4u, vec4i };
    let use_ = uses(prog);
    let mut blocks = BTreeMap::new();
    let block_ty = array(&mut module, vec4i, BLOCK_VEC4S, 16);
    for &b in &use_.banks {
        let g = global(&mut module, &format!("block{b}"), AddressSpace::Uniform, (0, b as u32), block_ty);
        blocks.insert(b, g);
    }
    let cfile = use_.cfile.then(|| {
        let cty = array(&mut module, vec4i, 256, 16);
        global(&mut module, "cfile", AddressSpace::Uniform, (CFILE_GROUP, 0), cty)
    });
    let in_ty = ty(&mut module, TypeInner::Array { base: vec4u, size: naga::ArraySize::Dynamic, stride: 16 });
    let out_ty = ty(&mut module, TypeInner::Array { base: u32t, size: naga::ArraySize::Dynamic, stride: 4 });
    let vin = global(
        &mut module,
        "vin",
        AddressSpace::Storage { access: StorageAccess::LOAD },
        (IO_GROUP, IN_BINDING),
        in_ty,
    );
    let vout = global(
        &mut module,
        "vout",
        AddressSpace::Storage { access: StorageAccess::LOAD | StorageAccess::STORE },
        (IO_GROUP, OUT_BINDING),
        out_ty,
    );
    let vtx = super::vtx::has_vtx(prog).then(|| {
        let words = ty(&mut module, TypeInner::Array { base: u32t, size: naga::ArraySize::Dynamic, stride: 4 });
        let read = AddressSpace::Storage { access: StorageAccess::LOAD };
        let table = global(&mut module, "fetch_table", read, (FETCH_GROUP, FETCH_TABLE_BINDING), words);
        let data = global(&mut module, "fetch_data", read, (FETCH_GROUP, FETCH_DATA_BINDING), words);
        super::vtx::build(&mut module, table, data)
    });
    let cap = stack_capacity(prog);
    let stack_ty = array(&mut module, u32t, cap, 4);

    let mut fb = FnBuilder::new(&mut module, COMPUTE_ENTRY);
    fb.func.arguments.push(FunctionArgument {
        name: Some("gid".into()),
        ty: uvec3,
        binding: Some(Binding::BuiltIn(BuiltIn::GlobalInvocationId)),
    });
    let gid = fb.expr(Expression::FunctionArgument(0));
    let inv = fb.at(gid, 0);
    let vin_p = fb.global(vin);
    let len = fb.expr(Expression::ArrayLength(vin_p));
    let st = fb.u32(IN_STRIDE);
    let n = fb.bin(B::Divide, len, st);
    let past = fb.bin(B::GreaterEqual, inv, n);
    fb.if_(past, |fb| fb.stmt(Statement::Return { value: None }));
    let in_base = fb.bin(B::Multiply, inv, st);
    let ow = fb.u32(OUT_WORDS);
    let out_base = fb.bin(B::Multiply, inv, ow);
    let vout_p = fb.global(vout);

    // Final GPRs default to the initial ones: copied first, the program's overwrite them.
    let ub = u32t;
    fb.for_range(128, ub, |fb, k| {
        let i = fb.bin(B::Add, in_base, k);
        let p = fb.index(vin_p, i);
        let v = fb.load(p);
        let four = fb.u32(4);
        let o = fb.bin(B::Multiply, k, four);
        let g0 = fb.u32(OUT_GPRS);
        let o = fb.bin(B::Add, o, g0);
        let o = fb.bin(B::Add, o, out_base);
        for c in 0..4u32 {
            let cc = fb.u32(c);
            let oi = fb.bin(B::Add, o, cc);
            let d = fb.index(vout_p, oi);
            let x = fb.at(v, c);
            fb.store(d, x);
        }
    });

    // With relative addressing the GPRs stay in the invocation's output words, where the copy
    // above put their initial values: lavapipe compiles a compute shader as an LLVM coroutine,
    // and building the coroutine frame of a 128 x vec4 private array took it 30-60 s for a
    // 90-group program (corpus t24_indirect_temp); buffer words cost it nothing of the kind.
    let gprs = if use_.rel {
        let g0 = fb.u32(OUT_GPRS);
        let base = fb.bin(B::Add, out_base, g0);
        Gprs::Words { out: vout_p, base }
    } else {
        let mut m = BTreeMap::new();
        for &r in &use_.gprs {
            let l = fb.local(&format!("r{r}"), vec4u, None);
            let rk = fb.u32(r);
            let i = fb.bin(B::Add, in_base, rk);
            let p = fb.index(vin_p, i);
            let v = fb.load(p);
            fb.store(l, v);
            m.insert(r, l);
        }
        Gprs::Each(m)
    };
    let flags_i = {
        let k = fb.u32(128);
        let i = fb.bin(B::Add, in_base, k);
        let p = fb.index(vin_p, i);
        let p = fb.at(p, 0);
        fb.load(p)
    };
    // Word y of the flags is 0 (docs/abi.md): ORed into constant ALU operands so that the
    // driver's compiler cannot fold them (`Em::opaque`).
    let opaque_zero = {
        let k = fb.u32(128);
        let i = fb.bin(B::Add, in_base, k);
        let p = fb.index(vin_p, i);
        let p = fb.at(p, 1);
        fb.load(p)
    };
    let one = fb.u32(1);
    let inv_bit = fb.bin(B::And, flags_i, one);
    let zero = fb.u32(0);
    let valid0 = fb.bin(B::Equal, inv_bit, zero);
    let z = fb.u32(0);
    let state = fb.local("state", u32t, Some(z));
    let f = fb.bool(false);
    let valid = fb.local("valid", boolt, Some(f));
    fb.store(valid, valid0);
    let f = fb.bool(false);
    let pred = fb.local("pred", boolt, Some(f));
    let f = fb.bool(false);
    let killed = fb.local("killed", boolt, Some(f));
    let zi = fb.i32(0);
    let al = fb.local("al", i32t, Some(zi));
    let z = fb.u32(0);
    let sp = fb.local("sp", u32t, Some(z));
    let stk_a = fb.local("stack_a", stack_ty, None);
    let stk_b = fb.local("stack_b", stack_ty, None);
    let z = fb.u32(0);
    let err = fb.local("err", u32t, Some(z));
    let ar = fb.local("ar", vec4i, None);
    let pv = fb.local("pv", vec4u, None);
    let z = fb.u32(0);
    let ps = fb.local("ps", u32t, Some(z));
    let f = fb.bool(false);
    let exec_fail = fb.local("exec_fail", boolt, Some(f));
    let z = fb.u32(0);
    let tmp_k = fb.local("find_k", u32t, Some(z));
    let f = fb.bool(false);
    let tmp_found = fb.local("find_hit", boolt, Some(f));

    let mut em = Em {
        fb,
        prog,
        t,
        gprs,
        state,
        valid,
        pred,
        killed,
        al,
        sp,
        stk_a,
        stk_b,
        err,
        ar,
        pv,
        ps,
        exec_fail,
        pc: None,
        tmp_k,
        tmp_found,
        blocks,
        cfile,
        block_vec4s: BLOCK_VEC4S,
        cap,
        loop_consts: options.loop_consts.clone(),
        bool_consts: options.bool_consts,
        vtx,
        exact: options.precision == crate::Precision::Exact,
        transc: BTreeMap::new(),
        opaque_zero,
    };
    let mut sink = ComputeSink { out: vout_p, base: out_base };
    let flow = if Em::is_straight(prog) {
        em.straight(&mut sink);
        FlowKind::Straight
    } else if let Some(plan) = super::structured::plan(prog) {
        em.structured(&plan, &mut sink);
        FlowKind::Structured
    } else {
        em.dispatch(&mut sink);
        FlowKind::Dispatch
    };
    // Epilogue: status and the final GPRs.
    let e = em.fb.load(em.err);
    let p = sink.word(&mut em, OUT_ERR);
    em.fb.store(p, e);
    let k = em.fb.load(em.killed);
    let one = em.fb.u32(1);
    let zero = em.fb.u32(0);
    let kv = em.fb.select(k, one, zero);
    let p = sink.word(&mut em, OUT_KILLED);
    em.fb.store(p, kv);
    // Words-form GPRs are already where the final values go.
    let regs: Vec<u32> = match &em.gprs {
        Gprs::Words { .. } => Vec::new(),
        Gprs::Each(m) => m.keys().copied().collect(),
    };
    for r in regs {
        let v = em.gpr_load4(Gpr::Static(r));
        for c in 0..4 {
            let x = em.fb.at(v, c);
            let p = sink.word(&mut em, OUT_GPRS + r * 4 + c);
            em.fb.store(p, x);
        }
    }
    let function = em.fb.finish();
    module.entry_points.push(naga::EntryPoint {
        name: COMPUTE_ENTRY.into(),
        stage: naga::ShaderStage::Compute,
        early_depth_test: None,
        workgroup_size: [WORKGROUP, 1, 1],
        workgroup_size_overrides: None,
        function,
        mesh_info: None,
        task_payload: None,
        incoming_ray_payload: None,
    });
    (module, flow, use_.banks.iter().copied().collect(), use_.cfile)
}

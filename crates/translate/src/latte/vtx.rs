//! VTX fetch clauses: `latte::interp`'s fetch.rs in integer operations, bit for bit
//! (latte-semantics-facts.md §4.2 data and number formats, endian swaps; §4.4 uniform blocks
//! through VFETCH), reading the fetch buffers of [`super::fetch`].
//!
//! Three helper functions are added to the module when the program fetches: `vtx_fetch` (the
//! buffer lookup, the address, the bytes with their endian swap, the components and their
//! conversion), `vtx_utof` (u32 to f32, round to nearest even) and `vtx_norm` (the NORM
//! quotient). Every float result is built from integers, so no device rounding enters:
//! - NORM divides in f64 and rounds to f32 in the interpreter. `m / (2^n - 1)` is the binary
//!   fraction that repeats the n bits of `m` (m < 2^n - 1; m = 2^n - 1 gives 1.0), so
//!   `vtx_norm` walks that expansion bit by bit: 53 bits and the f64 round bit (the tail past
//!   it is never 0 for m != 0, so f64 rounds up exactly when that bit is 1), then rounds the
//!   f64 significand to 24 bits, ties to even: both roundings of the interpreter.
//! - SCALED is `as f32` of the integer (round to nearest even); half and the 10/11-bit floats'
//!   subnormals are small integers scaled by a power of two (exact, and normal in f32).

use ::latte::isa::program::ClauseBody;
use ::latte::isa::{CfNormal, FetchInst, VtxInst};
use naga::{
    BinaryOperator as B, Block, Function, FunctionResult, Handle, MathFunction, Module, Span, Statement, StructMember,
    SwitchCase, SwitchValue, TypeInner, VectorSize,
};

use super::fetch::{format_word, FETCH_BUFFERS, RES_HAS_FORMAT, RES_PRESENT};
use super::flow::{Em, Gpr, ERR_INVALID, ERR_UNSUPPORTED};
use super::ops::H;
use crate::builder::{array, scalar, ty, vector, FnBuilder, U32};

/// Static fetch word bit: USE_CONST_FIELDS (the format comes from the resource word).
const USE_CONST: u32 = 1 << 18;
/// The format USE_CONST_FIELDS takes from a buffer without one: 32_32_32_32_FLOAT, SCALED,
/// signed (interp/fetch.rs).
const DEFAULT_FORMAT: (u8, u8, bool, bool) = (35, 2, true, false);
/// f32 1.0.
const ONE: u32 = 0x3F80_0000;

/// The fetch globals and helper functions of one module.
#[derive(Clone, Copy)]
pub(crate) struct Vtx {
    pub table: Handle<naga::GlobalVariable>,
    pub fetch: Handle<Function>,
}

/// Short integer operations on the builder.
trait Ops {
    fn k(&mut self, v: u32) -> H;
    fn op(&mut self, o: B, a: H, b: H) -> H;
    fn opk(&mut self, o: B, a: H, v: u32) -> H;
    fn pick(&mut self, c: H, a: H, b: H) -> H;
    fn pickk(&mut self, c: H, a: u32, b: H) -> H;
}

impl Ops for FnBuilder<'_> {
    fn k(&mut self, v: u32) -> H {
        self.u32(v)
    }
    fn op(&mut self, o: B, a: H, b: H) -> H {
        self.bin(o, a, b)
    }
    fn opk(&mut self, o: B, a: H, v: u32) -> H {
        let k = self.u32(v);
        self.bin(o, a, k)
    }
    fn pick(&mut self, c: H, a: H, b: H) -> H {
        self.select(c, a, b)
    }
    fn pickk(&mut self, c: H, a: u32, b: H) -> H {
        let k = self.u32(a);
        self.select(c, k, b)
    }
}

/// Whether `prog` has a VTX fetch.
pub(crate) fn has_vtx(prog: &::latte::isa::Program) -> bool {
    prog.clauses
        .iter()
        .any(|c| matches!(&c.body, ClauseBody::Fetch(f) if f.iter().any(|i| matches!(i, FetchInst::Vtx(_)))))
}

fn finish(fb: FnBuilder<'_>, result: Handle<naga::Type>) -> Function {
    let mut f = fb.finish();
    f.result = Some(FunctionResult { ty: result, binding: None });
    f
}

/// `vtx_utof(v)`: the f32 bits of `v as f32` (round to nearest, ties to even).
fn utof_fn(module: &mut Module) -> Handle<Function> {
    let u = scalar(module, U32);
    let mut fb = FnBuilder::new(module, "vtx_utof");
    let v = fb.arg("v", u);
    let lz = fb.math1(MathFunction::CountLeadingZeros, v);
    let bl = fb.opk(B::Subtract, lz, 32);
    let bl = fb.neg_u(bl);
    let e = fb.opk(B::Subtract, bl, 1);
    let small = fb.opk(B::LessEqual, e, 23);
    let t = fb.k(23);
    let sl = fb.op(B::Subtract, t, e);
    let sl = fb.opk(B::And, sl, 31);
    let mant_s = fb.op(B::ShiftLeft, v, sl);
    let sh = fb.opk(B::Subtract, e, 23);
    let sh = fb.opk(B::And, sh, 31);
    let mant_b = fb.op(B::ShiftRight, v, sh);
    let one = fb.k(1);
    let p = fb.op(B::ShiftLeft, one, sh);
    let m = fb.opk(B::Subtract, p, 1);
    let rem = fb.op(B::And, v, m);
    let half = fb.opk(B::ShiftRight, p, 1);
    let gt = fb.op(B::Greater, rem, half);
    let eq = fb.op(B::Equal, rem, half);
    let odd = fb.opk(B::And, mant_b, 1);
    let odd = fb.opk(B::Equal, odd, 1);
    let tie = fb.op(B::LogicalAnd, eq, odd);
    let up = fb.op(B::LogicalOr, gt, tie);
    let z = fb.k(0);
    let upk = fb.pickk(up, 1, z);
    let mant_b = fb.op(B::Add, mant_b, upk);
    let mant = fb.pick(small, mant_s, mant_b);
    let ex = fb.opk(B::Add, e, 126);
    let ex = fb.opk(B::ShiftLeft, ex, 23);
    let bits = fb.op(B::Add, ex, mant);
    let is0 = fb.opk(B::Equal, v, 0);
    let r = fb.pickk(is0, 0, bits);
    fb.stmt(Statement::Return { value: Some(r) });
    let f = finish(fb, u);
    module.functions.append(f, Span::UNDEFINED)
}

/// `vtx_norm(m, n)`: the f32 bits of `(m as f64 / (2^n - 1) as f64) as f32` for
/// 0 <= m <= 2^n - 1, 1 <= n <= 32 (see the module comment).
fn norm_fn(module: &mut Module) -> Handle<Function> {
    let u = scalar(module, U32);
    let mut fb = FnBuilder::new(module, "vtx_norm");
    let m = fb.arg("m", u);
    let n = fb.arg("n", u);
    let lz = fb.math1(MathFunction::CountLeadingZeros, m);
    let bl = fb.opk(B::Subtract, lz, 32);
    let bl = fb.neg_u(bl);
    let is0 = fb.opk(B::Equal, m, 0);
    let top = fb.opk(B::Subtract, bl, 1);
    let top = fb.pickk(is0, 0, top);
    let z = fb.k(0);
    let pos = fb.local("pos", u, Some(z));
    fb.store(pos, top);
    let z = fb.k(0);
    let hi = fb.local("hi", u, Some(z));
    let z = fb.k(0);
    let lo = fb.local("lo", u, Some(z));
    let z = fb.k(0);
    let rb = fb.local("rb", u, Some(z));
    fb.for_range(54, u, |fb, j| {
        let p = fb.load(pos);
        let p31 = fb.opk(B::And, p, 31);
        let s = fb.op(B::ShiftRight, m, p31);
        let bit = fb.opk(B::And, s, 1);
        let h = fb.load(hi);
        let h2 = fb.opk(B::ShiftLeft, h, 1);
        let h2 = fb.op(B::InclusiveOr, h2, bit);
        let in_hi = fb.opk(B::Less, j, 24);
        let h = fb.pick(in_hi, h2, h);
        fb.store(hi, h);
        let l = fb.load(lo);
        let l2 = fb.opk(B::ShiftLeft, l, 1);
        let l2 = fb.op(B::InclusiveOr, l2, bit);
        let a = fb.opk(B::GreaterEqual, j, 24);
        let b = fb.opk(B::Less, j, 53);
        let in_lo = fb.op(B::LogicalAnd, a, b);
        let l = fb.pick(in_lo, l2, l);
        fb.store(lo, l);
        let r = fb.load(rb);
        let last = fb.opk(B::Equal, j, 53);
        let r = fb.pick(last, bit, r);
        fb.store(rb, r);
        // The next bit: one lower, wrapping to the top of the next period.
        let wrap = fb.opk(B::Equal, p, 0);
        let nm = fb.opk(B::Subtract, n, 1);
        let pm = fb.opk(B::Subtract, p, 1);
        let np = fb.pick(wrap, nm, pm);
        fb.store(pos, np);
    });
    // f64: the 29 bits below the f32 significand plus the round bit (a carry out of them
    // moves into the f32 significand); then f32: round the 29 bits, ties to even.
    let h = fb.load(hi);
    let l = fb.load(lo);
    let r = fb.load(rb);
    let l = fb.op(B::Add, l, r);
    let carry = fb.opk(B::Equal, l, 1 << 29);
    let z = fb.k(0);
    let c1 = fb.pickk(carry, 1, z);
    let h = fb.op(B::Add, h, c1);
    let l = fb.pickk(carry, 0, l);
    let gt = fb.opk(B::Greater, l, 1 << 28);
    let eq = fb.opk(B::Equal, l, 1 << 28);
    let odd = fb.opk(B::And, h, 1);
    let odd = fb.opk(B::Equal, odd, 1);
    let tie = fb.op(B::LogicalAnd, eq, odd);
    let up = fb.op(B::LogicalOr, gt, tie);
    let z = fb.k(0);
    let u1 = fb.pickk(up, 1, z);
    let h = fb.op(B::Add, h, u1);
    // The leading 1 is bit n - bl of the fraction: exponent -(n - bl + 1), biased
    // 126 - (n - bl); the significand's hidden bit adds one more 2^23.
    let lzf = fb.op(B::Subtract, n, bl);
    let k125 = fb.k(125);
    let ex = fb.op(B::Subtract, k125, lzf);
    let ex = fb.opk(B::ShiftLeft, ex, 23);
    let bits = fb.op(B::Add, ex, h);
    let out = fb.pickk(is0, 0, bits);
    fb.stmt(Statement::Return { value: Some(out) });
    let f = finish(fb, u);
    module.functions.append(f, Span::UNDEFINED)
}

trait NegU {
    fn neg_u(&mut self, x: H) -> H;
}
impl NegU for FnBuilder<'_> {
    /// `0 - x` (wrapping).
    fn neg_u(&mut self, x: H) -> H {
        let z = self.u32(0);
        self.bin(B::Subtract, z, x)
    }
}

/// The globals and helper functions; `table` and `data` are the fetch buffers' globals.
pub(crate) fn build(
    module: &mut Module,
    table: Handle<naga::GlobalVariable>,
    data: Handle<naga::GlobalVariable>,
) -> Vtx {
    let utof = utof_fn(module);
    let norm = norm_fn(module);
    let fetch = fetch_fn(module, table, data, utof, norm);
    Vtx { table, fetch }
}

/// One component's conversion (interp/fetch.rs `convert`).
struct Conv {
    float: H,
    num: H,
    signed: H,
    srf: H,
    utof: Handle<Function>,
    norm: Handle<Function>,
}

impl Conv {
    fn convert(&self, fb: &mut FnBuilder<'_>, raw: H, w: H) -> H {
        // Floats: binary16, the 11- and 10-bit unsigned floats, binary32 as it is.
        let s = fb.opk(B::ShiftRight, raw, 15);
        let s = fb.opk(B::ShiftLeft, s, 31);
        let he = fb.opk(B::ShiftRight, raw, 10);
        let he = fb.opk(B::And, he, 31);
        let hm = fb.opk(B::And, raw, 0x3FF);
        let w16 = fb.opk(B::Equal, w, 16);
        let w11 = fb.opk(B::Equal, w, 11);
        let w10 = fb.opk(B::Equal, w, 10);
        let small = fb.op(B::LogicalOr, w11, w10);
        let mm = fb.opk(B::Subtract, w, 5);
        let mm = fb.opk(B::And, mm, 31);
        let se = fb.op(B::ShiftRight, raw, mm);
        let se = fb.opk(B::And, se, 31);
        let one = fb.k(1);
        let sp = fb.op(B::ShiftLeft, one, mm);
        let smask = fb.opk(B::Subtract, sp, 1);
        let sf = fb.op(B::And, raw, smask);
        // Integers: sign extension (bits < 32; 32 keeps them), magnitude.
        let sh = fb.k(32);
        let sh = fb.op(B::Subtract, sh, w);
        let sh = fb.opk(B::And, sh, 31);
        let x = fb.op(B::ShiftLeft, raw, sh);
        let xi = fb.bitcast(x, naga::ScalarKind::Sint);
        let shi = fb.bitcast(sh, naga::ScalarKind::Uint);
        let xi = fb.bin(B::ShiftRight, xi, shi);
        let sx = fb.bitcast(xi, naga::ScalarKind::Uint);
        let sbit = fb.opk(B::ShiftRight, sx, 31);
        let sbit = fb.opk(B::Equal, sbit, 1);
        let neg = fb.op(B::LogicalAnd, self.signed, sbit);
        let nsx = fb.neg_u(sx);
        let mag = fb.pick(neg, nsx, sx);
        let ival = fb.pick(self.signed, sx, raw);
        let imag = fb.pick(self.signed, mag, raw);
        // One u32-to-f32 conversion serves whichever path the component takes.
        let fa = fb.pick(w16, hm, sf);
        let ua = fb.pick(self.float, fa, imag);
        let uf = fb.call_value(self.utof, vec![ua]);
        let hsub = fb.opk(B::Subtract, uf, 24 << 23);
        let hsub = fb.op(B::InclusiveOr, s, hsub);
        let hm13 = fb.opk(B::ShiftLeft, hm, 13);
        let hnorm = fb.opk(B::Add, he, 112);
        let hnorm = fb.opk(B::ShiftLeft, hnorm, 23);
        let hnorm = fb.op(B::InclusiveOr, hnorm, hm13);
        let hnorm = fb.op(B::InclusiveOr, hnorm, s);
        let hm0 = fb.opk(B::Equal, hm, 0);
        let hinf = fb.opk(B::InclusiveOr, s, 0x7F80_0000);
        let hnan = fb.opk(B::InclusiveOr, s, 0x7FC0_0000);
        let hnan = fb.op(B::InclusiveOr, hnan, hm13);
        let h31 = fb.pick(hm0, hinf, hnan);
        let h0 = fb.pick(hm0, s, hsub);
        let he31 = fb.opk(B::Equal, he, 31);
        let he0 = fb.opk(B::Equal, he, 0);
        let hv = fb.pick(he31, h31, hnorm);
        let hv = fb.pick(he0, h0, hv);
        let k14 = fb.opk(B::Add, mm, 14);
        let k14 = fb.opk(B::ShiftLeft, k14, 23);
        let ssub = fb.op(B::Subtract, uf, k14);
        let sf0 = fb.opk(B::Equal, sf, 0);
        let z = fb.k(0);
        let s0 = fb.pick(sf0, z, ssub);
        let snan = fb.k(0x7FC0_0000);
        let s31 = fb.pickk(sf0, 0x7F80_0000, snan);
        let sn = fb.opk(B::Add, se, 112);
        let sn = fb.opk(B::ShiftLeft, sn, 23);
        let t23 = fb.k(23);
        let fsh = fb.op(B::Subtract, t23, mm);
        let fsh = fb.opk(B::And, fsh, 31);
        let sfs = fb.op(B::ShiftLeft, sf, fsh);
        let sn = fb.op(B::InclusiveOr, sn, sfs);
        let se31 = fb.opk(B::Equal, se, 31);
        let se0 = fb.opk(B::Equal, se, 0);
        let sv = fb.pick(se31, s31, sn);
        let sv = fb.pick(se0, s0, sv);
        let fv = fb.pick(small, sv, raw);
        let fv = fb.pick(w16, hv, fv);
        // NORM: unsigned m / (2^w - 1); signed SRF_MODE 0 max(v / (2^(w-1) - 1), -1);
        // SRF_MODE 1 (2v + 1) / (2^w - 1).
        let m2 = fb.opk(B::ShiftLeft, sx, 1);
        let m2 = fb.opk(B::Add, m2, 1);
        let nm2 = fb.neg_u(m2);
        let m2 = fb.pick(neg, nm2, m2);
        let wm1 = fb.opk(B::Subtract, w, 1);
        let srf0_m = fb.pick(self.srf, m2, mag);
        let srf0_n = fb.pick(self.srf, w, wm1);
        let nmag = fb.pick(self.signed, srf0_m, raw);
        let nper = fb.pick(self.signed, srf0_n, w);
        let nb = fb.call_value(self.norm, vec![nmag, nper]);
        let z = fb.k(0);
        let sign = fb.pickk(neg, 0x8000_0000, z);
        let snb = fb.op(B::InclusiveOr, sign, nb);
        let one = fb.k(1);
        let wm1s = fb.opk(B::And, wm1, 31);
        let lim = fb.op(B::ShiftLeft, one, wm1s);
        let lim = fb.opk(B::Subtract, lim, 1);
        let below = fb.op(B::GreaterEqual, mag, lim);
        let below = fb.op(B::LogicalAnd, neg, below);
        let w1 = fb.opk(B::Equal, w, 1);
        let clamp = fb.op(B::LogicalOr, below, w1);
        let v0 = fb.pickk(clamp, 0xBF80_0000, snb);
        let sv = fb.pick(self.srf, snb, v0);
        let nv = fb.pick(self.signed, sv, nb);
        // SCALED: the integer's value.
        let scv = fb.op(B::InclusiveOr, sign, uf);
        let n0 = fb.opk(B::Equal, self.num, 0);
        let n1 = fb.opk(B::Equal, self.num, 1);
        let iv = fb.pick(n1, ival, scv);
        let iv = fb.pick(n0, nv, iv);
        fb.pick(self.float, fv, iv)
    }
}

/// `vtx_fetch(id, index, format, offset, endian, no_stride)` -> (the four words before
/// DST_SEL, flags: bit 0 an integer format, the error flags from bit 8), interp/fetch.rs
/// `vtx_fetch` for one element.
fn fetch_fn(
    module: &mut Module,
    table: Handle<naga::GlobalVariable>,
    data: Handle<naga::GlobalVariable>,
    utof: Handle<Function>,
    norm: Handle<Function>,
) -> Handle<Function> {
    let u = scalar(module, U32);
    let vec4u = vector(module, VectorSize::Quad, U32);
    let words_ty = array(module, u, 4, 4);
    let res_ty = result_type(module);
    let mut fb = FnBuilder::new(module, "vtx_fetch");
    let id = fb.arg("id", u);
    let index = fb.arg("index", u);
    let fw = fb.arg("format", u);
    let offset = fb.arg("offset", u);
    let endian = fb.arg("endian", u);
    let no_stride = fb.arg("no_stride", u);
    let tp = fb.global(table);
    let dp = fb.global(data);
    let tb = fb.opk(B::Multiply, id, 4);
    let tb = fb.opk(B::Add, tb, FETCH_BUFFERS);
    let tw = |fb: &mut FnBuilder<'_>, k: u32| {
        let i = fb.opk(B::Add, tb, k);
        let p = fb.index(tp, i);
        fb.load(p)
    };
    let woff = tw(&mut fb, 0);
    let blen = tw(&mut fb, 1);
    let stride0 = tw(&mut fb, 2);
    let tf = tw(&mut fb, 3);
    let present = fb.opk(B::And, tf, RES_PRESENT);
    let present = fb.opk(B::NotEqual, present, 0);
    let uc = fb.opk(B::And, fw, USE_CONST);
    let uc = fb.opk(B::NotEqual, uc, 0);
    let hasf = fb.opk(B::And, tf, RES_HAS_FORMAT);
    let hasf = fb.opk(B::NotEqual, hasf, 0);
    let (df, dn, ds, dr) = DEFAULT_FORMAT;
    let d = fb.k(format_word(df, dn, ds, dr));
    let res_f = fb.pick(hasf, tf, d);
    let f = fb.pick(uc, res_f, fw);
    let fmt = fb.opk(B::And, f, 0xFF);
    let num = fb.opk(B::ShiftRight, f, 8);
    let num = fb.opk(B::And, num, 0xFF);
    let signed = fb.opk(B::And, f, 1 << 16);
    let signed = fb.opk(B::NotEqual, signed, 0);
    let srf = fb.opk(B::And, f, 1 << 17);
    let srf = fb.opk(B::NotEqual, srf, 0);
    // The component layout of DATA_FORMAT: widths in 6-bit fields (x first), float in bit 24.
    let z = fb.k(0);
    let desc = fb.local("desc", u, Some(z));
    let mut cases = Vec::new();
    for fm in 0..=255u8 {
        let Some((comps, float, _packed)) = ::latte::interp::data_format(fm) else { continue };
        let mut d = (float as u32) << 24;
        for (i, &b) in comps.iter().enumerate() {
            d |= b << (6 * i);
        }
        fb.open();
        let dk = fb.k(d);
        fb.store(desc, dk);
        let body = fb.close();
        cases.push(SwitchCase { value: SwitchValue::U32(fm as u32), body, fall_through: false });
    }
    cases.push(SwitchCase { value: SwitchValue::Default, body: Block::new(), fall_through: false });
    fb.stmt(Statement::Switch { selector: fmt, cases });
    let desc = fb.load(desc);
    let known = fb.opk(B::NotEqual, desc, 0);
    let float = fb.opk(B::ShiftRight, desc, 24);
    let float = fb.opk(B::Equal, float, 1);
    let mut widths = Vec::new();
    for i in 0..4 {
        let s = fb.opk(B::ShiftRight, desc, 6 * i);
        widths.push(fb.opk(B::And, s, 63));
    }
    let nsb = fb.op(B::Add, widths[0], widths[1]);
    let nsb = fb.op(B::Add, nsb, widths[2]);
    let nsb = fb.op(B::Add, nsb, widths[3]);
    let len = fb.opk(B::ShiftRight, nsb, 3);
    // CONST_BUF_NO_STRIDE reads the element at OFFSET for every index.
    let ns = fb.opk(B::NotEqual, no_stride, 0);
    let stride = fb.pickk(ns, 0, stride0);
    // index * stride + offset in 64 bits lies past every buffer when it exceeds 32 bits.
    let s_nz = fb.opk(B::NotEqual, stride, 0);
    let one = fb.k(1);
    let sdiv = fb.pick(s_nz, stride, one);
    let maxk = fb.k(u32::MAX);
    let room = fb.op(B::Subtract, maxk, offset);
    let room = fb.op(B::Divide, room, sdiv);
    let over = fb.op(B::Greater, index, room);
    let over = fb.op(B::LogicalAnd, s_nz, over);
    let addr = fb.op(B::Multiply, index, stride);
    let addr = fb.op(B::Add, addr, offset);
    // ENDIAN_SWAP 1 reverses each 2 bytes, 2 each 4 (a shorter last chunk is reversed whole).
    let e1 = fb.opk(B::Equal, endian, 1);
    let e2 = fb.opk(B::Equal, endian, 2);
    let c = fb.pickk(e1, 2, one);
    let c = fb.pickk(e2, 4, c);
    let words = fb.local("words", words_ty, None);
    let zw = fb.zero(words_ty);
    fb.store(words, zw);
    fb.for_range(16, u, |fb, k| {
        let cm = fb.opk(B::Subtract, c, 1);
        let s = fb.op(B::And, k, cm);
        let s = fb.op(B::Subtract, k, s);
        let left = fb.op(B::Subtract, len, s);
        let l = fb.math2(MathFunction::Min, c, left);
        let src = fb.op(B::Add, s, l);
        let src = fb.opk(B::Subtract, src, 1);
        let ks = fb.op(B::Subtract, k, s);
        let src = fb.op(B::Subtract, src, ks);
        let a = fb.op(B::Add, addr, src);
        let in_len = fb.op(B::Less, k, len);
        let no_wrap = fb.op(B::GreaterEqual, a, addr);
        let in_buf = fb.op(B::Less, a, blen);
        let not_over = fb.not(over);
        let ok = fb.op(B::LogicalAnd, in_len, no_wrap);
        let ok = fb.op(B::LogicalAnd, ok, in_buf);
        let ok = fb.op(B::LogicalAnd, ok, not_over);
        let wi = fb.opk(B::ShiftRight, a, 2);
        let wi = fb.op(B::Add, woff, wi);
        let z = fb.k(0);
        let wi = fb.pick(ok, wi, z);
        let p = fb.index(dp, wi);
        let dw = fb.load(p);
        let bs = fb.opk(B::And, a, 3);
        let bs = fb.opk(B::ShiftLeft, bs, 3);
        let byte = fb.op(B::ShiftRight, dw, bs);
        let byte = fb.opk(B::And, byte, 0xFF);
        let z = fb.k(0);
        let byte = fb.pick(ok, byte, z);
        let ds = fb.opk(B::And, k, 3);
        let ds = fb.opk(B::ShiftLeft, ds, 3);
        let byte = fb.op(B::ShiftLeft, byte, ds);
        let wk = fb.opk(B::ShiftRight, k, 2);
        let wp = fb.index(words, wk);
        let old = fb.load(wp);
        let nw = fb.op(B::InclusiveOr, old, byte);
        fb.store(wp, nw);
    });
    // The components, x first: each its bits at p (packed formats: of the first word, x in
    // its low bits; the others byte-aligned, so no component crosses a word).
    let conv = Conv { float, num, signed, srf, utof, norm };
    let not_float = fb.not(float);
    let n1 = fb.opk(B::Equal, num, 1);
    let int = fb.op(B::LogicalAnd, not_float, n1);
    let onev = fb.k(ONE);
    let one_w = fb.pickk(int, 1, onev);
    let z = fb.k(0);
    let mut out = [z, z, z, one_w];
    let mut p = fb.k(0);
    let n_bad = fb.opk(B::Greater, num, 2);
    let n_bad = fb.op(B::LogicalAnd, not_float, n_bad);
    let mut bad = fb.bool(false);
    for (i, &w) in widths.iter().enumerate() {
        let has = fb.opk(B::NotEqual, w, 0);
        let wi = fb.opk(B::ShiftRight, p, 5);
        let wi = fb.opk(B::And, wi, 3);
        let wp = fb.index(words, wi);
        let word = fb.load(wp);
        let sh = fb.opk(B::And, p, 31);
        let x = fb.op(B::ShiftRight, word, sh);
        let one = fb.k(1);
        let ws = fb.opk(B::And, w, 31);
        let m = fb.op(B::ShiftLeft, one, ws);
        let m = fb.opk(B::Subtract, m, 1);
        let w32 = fb.opk(B::GreaterEqual, w, 32);
        let m = fb.pickk(w32, u32::MAX, m);
        let raw = fb.op(B::And, x, m);
        let v = conv.convert(&mut fb, raw, w);
        out[i] = fb.pick(has, v, out[i]);
        let b = fb.op(B::LogicalAnd, has, n_bad);
        bad = fb.op(B::LogicalOr, bad, b);
        p = fb.op(B::Add, p, w);
    }
    let vals = fb.compose(vec4u, out.to_vec());
    let z = fb.k(0);
    let e_num = fb.pickk(bad, ERR_INVALID << 8, z);
    let e_fmt = fb.pickk(known, 0, z);
    let uns = fb.k(ERR_UNSUPPORTED << 8);
    let e_fmt = fb.pick(known, e_fmt, uns);
    let e_res = fb.pickk(present, 0, z);
    let inv = fb.k(ERR_INVALID << 8);
    let e_res = fb.pick(present, e_res, inv);
    let fl = fb.pickk(int, 1, z);
    let fl = fb.op(B::InclusiveOr, fl, e_num);
    let fl = fb.op(B::InclusiveOr, fl, e_fmt);
    let fl = fb.op(B::InclusiveOr, fl, e_res);
    let r = fb.compose(res_ty, vec![vals, fl]);
    fb.stmt(Statement::Return { value: Some(r) });
    let f = finish(fb, res_ty);
    module.functions.append(f, Span::UNDEFINED)
}

fn result_type(module: &mut Module) -> Handle<naga::Type> {
    let u = scalar(module, U32);
    let vec4u = vector(module, VectorSize::Quad, U32);
    ty(
        module,
        TypeInner::Struct {
            members: vec![
                StructMember { name: Some("v".into()), ty: vec4u, binding: None, offset: 0 },
                StructMember { name: Some("flags".into()), ty: u, binding: None, offset: 16 },
            ],
            span: 32,
        },
    )
}

impl Em<'_, '_> {
    /// A VTX/TEX CF instruction's clause for the lanes that run it.
    pub(crate) fn fetch_clause(&mut self, pc: usize, n: &CfNormal) {
        let fetches = match self.prog.clauses.iter().find(|c| c.cf_index == pc).map(|c| &c.body) {
            Some(ClauseBody::Fetch(f)) => f.clone(),
            _ => {
                self.fail_always(ERR_INVALID);
                return;
            }
        };
        let run = self.runs(n.valid_pixel_mode);
        self.fb.open();
        for f in &fetches {
            match f {
                FetchInst::Vtx(v) => self.vtx(v),
                // TEX is refused before emission (`super::unsupported`).
                FetchInst::Tex(_) => self.fail_always(ERR_UNSUPPORTED),
            }
        }
        let body = self.fb.close();
        self.fb.stmt(Statement::If { condition: run, accept: body, reject: Block::new() });
    }

    /// One VTX instruction (interp/export.rs `vtx`): the destination (DST_GPR, relative to aL
    /// with DST_REL, or for SEMANTIC the GPR after the first SQ_VTX_SEMANTIC entry naming
    /// SEMANTIC_ID, no write without one), the index from SRC_GPR.SRC_SEL_X, the fetch, DST_SEL.
    fn vtx(&mut self, v: &VtxInst) {
        let Some(vx) = self.vtx else {
            self.fail_always(ERR_INVALID);
            return;
        };
        if v.op > 1 {
            self.fail_always(ERR_UNSUPPORTED);
            return;
        }
        if v.fetch_type > 2 || v.endian_swap > 2 {
            self.fail_always(ERR_INVALID);
            return;
        }
        let (dst, go) = if v.op == 0 {
            let d = if v.dst & 0x80 != 0 {
                let al = self.fb.load(self.al);
                Gpr::Dyn(self.rel_gpr(v.dst as u32 & 0x7F, al))
            } else {
                Gpr::Static(v.dst as u32 & 0x7F)
            };
            (d, None)
        } else {
            // The first k < 127 with SQ_VTX_SEMANTIC_k == SEMANTIC_ID (the table holds
            // NO_SEMANTIC from 127 on).
            let u = self.t.u32;
            let z = self.k(128);
            let found = self.fb.local("sem_k", u, Some(z));
            let tp = self.fb.global(vx.table);
            let id = v.dst as u32;
            self.fb.for_range(127, u, |fb, k| {
                let p = fb.index(tp, k);
                let s = fb.load(p);
                let hit = fb.opk(B::Equal, s, id);
                let f = fb.load(found);
                let first = fb.opk(B::Equal, f, 128);
                let take = fb.op(B::LogicalAnd, hit, first);
                let nf = fb.pick(take, k, f);
                fb.store(found, nf);
            });
            let f = self.fb.load(found);
            let hit = self.fb.opk(B::Less, f, 127);
            let r = self.fb.opk(B::Add, f, 1);
            let r = self.and_k(r, 127);
            (Gpr::Dyn(r), Some(hit))
        };
        self.fb.open();
        let src = if v.src_rel {
            let al = self.fb.load(self.al);
            Gpr::Dyn(self.rel_gpr(v.src_gpr as u32, al))
        } else if v.src_gpr < 128 {
            Gpr::Static(v.src_gpr as u32)
        } else {
            self.fail_always(ERR_INVALID);
            Gpr::Static(0)
        };
        let index = self.gpr_load(src, v.src_sel_x as u32 & 3);
        let fw = if v.use_const_fields {
            USE_CONST
        } else {
            format_word(v.data_format, v.num_format, v.format_comp, v.srf_mode)
        };
        let args = [v.buffer_id as u32, fw, v.offset as u32, v.endian_swap as u32, v.const_buf_no_stride as u32]
            .map(|x| self.k(x));
        let r = self.fb.call_value(vx.fetch, vec![args[0], index, args[1], args[2], args[3], args[4]]);
        let vals = self.fb.at(r, 0);
        let flags = self.fb.at(r, 1);
        let e = self.fb.opk(B::ShiftRight, flags, 8);
        let old = self.fb.load(self.err);
        let ne = self.b(B::InclusiveOr, old, e);
        self.fb.store(self.err, ne);
        let int = self.fb.opk(B::And, flags, 1);
        let int = self.eq_k(int, 1);
        let onev = self.k(ONE);
        let one = self.fb.pickk(int, 1, onev);
        if v.dst_sel.contains(&6) {
            // A reserved selector stops the fetch before any write.
            self.fail_always(ERR_UNSUPPORTED);
        } else {
            for (c, &s) in v.dst_sel.iter().enumerate() {
                let x = match s {
                    0..=3 => self.fb.at(vals, s as u32),
                    4 => self.k(0),
                    5 => one,
                    _ => continue,
                };
                self.gpr_store(dst, c as u32, x);
            }
        }
        let body = self.fb.close();
        match go {
            Some(c) => self.fb.stmt(Statement::If { condition: c, accept: body, reject: Block::new() }),
            None => self.fb.stmt(Statement::Block(body)),
        }
    }
}

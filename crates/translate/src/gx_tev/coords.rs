//! Texture coordinates, the indirect unit and the texel fetch, as `gx::indirect` and
//! `gx::sample` compute them (specs/hollywood-tev-more-facts.md §1; docs/gx-decisions.md).
//!
//! All values are i32 with wrapping arithmetic. The reference forms products in 64 bits and
//! sign-wraps to 24 bits at the end; in 32 bits the same low 24 bits come out because (a) the
//! only products that are shifted right before the wrap fit in 32 bits (static rows: at most
//! 3 * 1024 * 255; dynamic: a 24-bit coordinate times an offset of at most 255 or -128, below
//! 2^31), and (b) left shifts, additions and the final wrap only depend on low bits.

use gx::key::{StageIndKey, StageKey};
use naga::{Expression, ImageQuery};

use super::gen::Gen;
use super::ir::H;

impl Gen<'_> {
    /// `texel(map, coord)`: the RGBA texel (`vec4<i32>`, 0-255) at texel `coord >> 7`, wrapped
    /// into the image by Euclidean remainder (gx::sample::Image::fetch).
    pub(super) fn fetch(&mut self, map: u8, coord: H) -> H {
        let map = map as usize & 7;
        let g = self.maps[map].expect("texture maps in use are declared");
        let ir = &mut self.ir;
        // Euclidean remainder without signed division: texel indices of 24-bit coordinates lie
        // in [-2^16, 2^16), so x + size * 2^16 is never negative and an unsigned remainder gives
        // the same texel (one division instead of the two of a signed `%` helper). The image,
        // its size and the lift are made once per map (the function is one block).
        let (image, size, lift) = *self.images[map].get_or_insert_with(|| {
            let image = ir.global(g);
            let size = ir.fb.expr(Expression::ImageQuery { image, query: ImageQuery::Size { level: None } });
            let size_i = ir.as_i32(size);
            (image, size, ir.shl(size_i, 2, 16))
        });
        let x = ir.shr(coord, 2, 7);
        let x = ir.add(x, lift);
        let x = ir.as_u32(x);
        let r = ir.bin(naga::BinaryOperator::Modulo, x, size);
        let r = ir.as_i32(r);
        let level = ir.i(0);
        let texel = ir.fb.expr(Expression::ImageLoad {
            image,
            coordinate: r,
            array_index: None,
            sample: None,
            level: Some(level),
        });
        ir.as_i32(texel)
    }

    /// The regular coordinate (sign-wrapped s17.7) a stage or indirect stage reads.
    pub(super) fn coord(&mut self, tc: Option<u8>) -> H {
        match tc {
            Some(k) => self.texcoords[k as usize],
            None => self.ir.iv(&[0, 0]),
        }
    }

    /// The indirect textures of every indirect stage, sampled at their scaled coordinates.
    pub(super) fn indirect_samples(&mut self) -> Vec<H> {
        let ind = self.key.ind.clone();
        ind.iter()
            .map(|n| {
                let c = self.coord(n.texcoord);
                let s = self.ir.uv(&[n.ss.min(31) as u32, n.ts.min(31) as u32]);
                let c = self.ir.bin(naga::BinaryOperator::ShiftRight, c, s);
                self.fetch(n.texmap, c)
            })
            .collect()
    }

    /// Wrap of a regular coordinate component (gx::indirect::wrap; the key stores 7 as 6).
    fn wrap(&mut self, c: H, mode: u8) -> H {
        match mode {
            0 => c,
            1..=5 => {
                let m = self.ir.i(((256 >> (mode - 1)) << 7) - 1);
                self.ir.and(c, m)
            }
            _ => self.ir.i(0),
        }
    }

    /// The offset (`vec2<i32>`) and, when `want_bump`, the bump alpha (i32) of a stage whose
    /// indirect stage exists (gx::indirect::stage_offset).
    fn offset(&mut self, ind: &StageIndKey, sample: H, coord: H, want_bump: bool) -> (Option<H>, Option<H>) {
        let ir = &mut self.ir;
        // S = alpha, T = blue, U = green.
        let raw = ir.swz(sample, &[3, 2, 1]);
        let shift = [0u32, 3, 4, 5][ind.fmt as usize & 3];
        let bump = if want_bump && ind.bs != 0 {
            let v = ir.comp(raw, ind.bs as u32 - 1);
            let v = if ind.fmt == 0 { v } else { ir.shl(v, 1, 8 - shift) };
            let m = ir.i(0xF8);
            Some(ir.and(v, m))
        } else if want_bump {
            Some(ir.i(0))
        } else {
            None
        };
        if ind.mtx_index == 0 || ind.mtx_id == 3 {
            return (None, bump);
        }
        let mut stu = if shift == 0 { raw } else { ir.shr(raw, 3, shift) };
        if ind.bias != 0 {
            let b = if ind.fmt == 0 { -128 } else { 1 };
            let v: Vec<i32> = (0..3).map(|k| if ind.bias & (1 << k) != 0 { b } else { 0 }).collect();
            let v = ir.iv(&v);
            stu = ir.add(stu, v);
        }
        let m = (ind.mtx_index - 1) as u32;
        let row0 = self.uniform(2, 2 * m);
        let ir = &mut self.ir;
        let off = match ind.mtx_id {
            0 => {
                let row1 = self.uniform(2, 2 * m + 1);
                let ir = &mut self.ir;
                let mut rows = Vec::new();
                for row in [row0, row1] {
                    let e = ir.swz(row, &[0, 1, 2]);
                    let p = ir.mul(e, stu);
                    let (x, y, z) = (ir.comp(p, 0), ir.comp(p, 1), ir.comp(p, 2));
                    let s = ir.add(x, y);
                    let s = ir.add(s, z);
                    rows.push(ir.shr(s, 1, 3));
                }
                ir.compose(2, rows)
            }
            id => {
                let o = ir.comp(stu, id as u32 - 1);
                let o = ir.splat(2, o);
                let p = ir.mul(coord, o);
                ir.shr(p, 2, 8)
            }
        };
        let ir = &mut self.ir;
        // shift = 17 - scale from the block: right when positive, left when negative.
        let sh = ir.comp(row0, 3);
        let zero = ir.i(0);
        let pos = ir.fb.math2(naga::MathFunction::Max, sh, zero);
        let neg = ir.fb.expr(Expression::Unary { op: naga::UnaryOperator::Negate, expr: sh });
        let neg = ir.fb.math2(naga::MathFunction::Max, neg, zero);
        let (pos, neg) = (ir.as_u32(pos), ir.as_u32(neg));
        let (pos, neg) = (ir.splat(2, pos), ir.splat(2, neg));
        let r = ir.bin(naga::BinaryOperator::ShiftRight, off, pos);
        let l = ir.bin(naga::BinaryOperator::ShiftLeft, r, neg);
        (Some(ir.wrap24(l, 2)), bump)
    }

    /// Every stage's final coordinate (where needed) and bump alpha (where read), in stage
    /// order, with add-previous chaining (gx::indirect::Prepared::run).
    pub(super) fn stage_coords(&mut self, samples: &[H]) -> (Vec<Option<H>>, Vec<Option<H>>) {
        let stages: Vec<StageKey> = self.key.stages.clone();
        let n = stages.len();
        // A stage's coordinate is needed when it samples, or when the next stage adds it.
        let mut need = vec![false; n];
        for i in (0..n).rev() {
            need[i] = stages[i].tex_enable || (i + 1 < n && stages[i + 1].ind.add_prev && need[i + 1]);
        }
        let mut coords = vec![None; n];
        let mut bumps = vec![None; n];
        let mut prev: Option<H> = None;
        for (i, st) in stages.iter().enumerate() {
            let want_bump = matches!(st.colorchan, 5 | 6);
            if !need[i] && !want_bump {
                prev = None;
                continue;
            }
            let coord = self.coord(st.texcoord);
            let (off, bump) = if st.ind.active {
                self.offset(&st.ind, samples[st.ind.bt as usize], coord, want_bump)
            } else {
                (None, want_bump.then(|| self.ir.i(0)))
            };
            bumps[i] = bump;
            if !need[i] {
                prev = None;
                continue;
            }
            let x = self.ir.comp(coord, 0);
            let y = self.ir.comp(coord, 1);
            let (x, y) = (self.wrap(x, st.ind.sw), self.wrap(y, st.ind.tw));
            let mut c = self.ir.compose(2, vec![x, y]);
            if st.ind.add_prev {
                let p = match prev {
                    Some(p) => p,
                    None => self.ir.iv(&[0, 0]),
                };
                c = self.ir.add(p, c);
            }
            if let Some(o) = off {
                c = self.ir.add(c, o);
            }
            let c = self.ir.wrap24(c, 2);
            coords[i] = Some(c);
            prev = Some(c);
        }
        (coords, bumps)
    }
}

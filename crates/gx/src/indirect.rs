//! Indirect texturing: the texture-coordinate offsets of every TEV stage, computed in integers
//! as the hardware does (specs/hollywood-tev-more-facts.md §1).
//!
//! Coordinates are s17.7 fixed point (1/128 texel) held in 24 bits. The per-stage result is the
//! final coordinate the stage's texture would be sampled at, plus the bump alpha.

use serde::Serialize;

use crate::bp::{IndMatrix, TevState};
use crate::regs::TevStageIndirect;
use crate::tev::PixelInputs;

/// Results of the indirect unit for one pixel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct IndirectResult {
    /// Final (s, t) texture coordinate of each TEV stage, s17.7, sign-wrapped to 24 bits.
    pub tevcoord: [[i32; 2]; 16],
    /// Bump alpha of each TEV stage (0..248).
    pub bump_alpha: [u8; 16],
    /// The coordinate each indirect stage samples its texture at (s17.7 shifted by RAS1_SS).
    pub ind_coord: [[i32; 2]; 4],
}

/// Sign-wraps `v` to 24 bits ("emulate s24 overflows", more-facts §1.4).
#[inline]
pub fn sign_wrap24(v: i64) -> i32 {
    ((v << 40) >> 40) as i32
}

/// The wrap of a regular coordinate (§1.4 table): 0 off; 1..5 = 256, 128, 64, 32, 16 texels as a
/// two's-complement AND; 6 = 0; 7 is treated as 6 (Dolphin's reading).
#[inline]
pub fn wrap(c: i32, mode: u8) -> i32 {
    match mode {
        0 => c,
        1..=5 => c & (((256 >> (mode - 1)) << 7) - 1),
        _ => 0,
    }
}

/// The offset component and bump alpha extracted from one 8-bit indirect channel (§1.2).
/// Offsets come from the high bits, bump alpha from the low bits (libogc, Dolphin since #9876).
#[inline]
pub fn format_split(v: u8, fmt: u8) -> (i32, u8) {
    let shift = [0u32, 3, 4, 5][fmt as usize & 3];
    let offset = (v >> shift) as i32;
    let bump = if fmt == 0 { v & 0xF8 } else { ((v as u32) << (8 - shift)) as u8 & 0xF8 };
    (offset, bump)
}

/// The (s, t) offset and bump alpha of one TEV stage whose indirect stage sampled `sample`
/// (RGBA); `coord` is the stage's own regular coordinate (for the dynamic matrices).
pub fn stage_offset(
    ind: &TevStageIndirect,
    sample: [u8; 4],
    matrices: &[IndMatrix; 3],
    coord: [i32; 2],
) -> ([i32; 2], u8) {
    // S = alpha, T = blue, U = green (§1.1).
    let raw = [sample[3], sample[2], sample[1]];
    let mut stu = [0i64; 3];
    let mut bumps = [0u8; 3];
    for k in 0..3 {
        let (off, bump) = format_split(raw[k], ind.fmt);
        stu[k] = off as i64;
        bumps[k] = bump;
        if ind.bias & (1 << k) != 0 {
            stu[k] += if ind.fmt == 0 { -128 } else { 1 };
        }
    }
    // Bump alpha: off gives 0 (Dolphin's software renderer; docs/gx-decisions.md).
    let bump_alpha = match ind.bs {
        1 => bumps[0],
        2 => bumps[1],
        3 => bumps[2],
        _ => 0,
    };
    if ind.mtx_index == 0 {
        return ([0, 0], bump_alpha);
    }
    let m = &matrices[(ind.mtx_index - 1) as usize];
    let (cs, ct) = (coord[0] as i64, coord[1] as i64);
    let off = match ind.mtx_id {
        0 => {
            let e = m.entries();
            let row = |r: usize| (e[r][0] as i64 * stu[0] + e[r][1] as i64 * stu[1] + e[r][2] as i64 * stu[2]) >> 3;
            [row(0), row(1)]
        }
        // Dynamic matrices: coordinate times the S (or T) offset, >> 8 (floor, as the
        // generated shaders do; docs/gx-decisions.md).
        1 => [(cs * stu[0]) >> 8, (ct * stu[0]) >> 8],
        2 => [(cs * stu[1]) >> 8, (ct * stu[1]) >> 8],
        _ => [0, 0],
    };
    // shift = 17 - scale: right when positive, left when negative (§1.3).
    let shift = 17 - m.scale() as i32;
    let scaled = |v: i64| if shift >= 0 { v >> shift } else { v << (-shift) };
    ([sign_wrap24(scaled(off[0])), sign_wrap24(scaled(off[1]))], bump_alpha)
}

/// The texcoord a stage or indirect stage reads: texcoords past numtexgens read texcoord 0; with
/// no texgens at all there is no coordinate (it reads as 0) (§2.1).
#[inline]
fn resolve_texcoord(num_texgens: u8, tc: u8) -> Option<usize> {
    let n = num_texgens.min(8) as usize;
    if n == 0 {
        None
    } else if (tc as usize) < n {
        Some(tc as usize)
    } else {
        Some(0)
    }
}

#[inline]
fn coord_of(input: &PixelInputs, tc: Option<usize>) -> [i32; 2] {
    match tc {
        Some(i) => {
            let c = input.texcoords[i];
            [sign_wrap24(c[0] as i64), sign_wrap24(c[1] as i64)]
        }
        None => [0, 0],
    }
}

/// A state's indirect settings resolved once (texcoords, active stages), for per-pixel use.
#[derive(Clone, Debug)]
pub struct Prepared {
    matrices: [IndMatrix; 3],
    /// Per indirect stage: texcoord and the (s, t) shifts.
    ind: Vec<(Option<usize>, u8, u8)>,
    /// Per TEV stage: its regular texcoord, settings, and whether its indirect stage exists.
    stages: Vec<(Option<usize>, TevStageIndirect, bool)>,
}

impl Prepared {
    /// Resolves `state`'s indirect settings.
    pub fn new(state: &TevState) -> Self {
        let num_ind = state.gen_mode.num_indstages.min(4) as usize;
        let tg = state.gen_mode.num_texgens;
        let ind = (0..num_ind)
            .map(|n| {
                let (_, bc) = state.ind_ref(n);
                let (ss, ts) = state.ind_scale(n);
                (resolve_texcoord(tg, bc), ss.min(31), ts.min(31))
            })
            .collect();
        let stages = (0..state.num_stages())
            .map(|i| {
                let t = state.tev_ind[i];
                (resolve_texcoord(tg, state.stage(i).texcoord), t, (t.bt as usize) < num_ind)
            })
            .collect();
        Self { matrices: state.ind_mtx, ind, stages }
    }

    /// Computes every stage's coordinate and bump alpha for one pixel.
    pub fn run(&self, input: &PixelInputs) -> IndirectResult {
        let mut out = IndirectResult::default();
        for (n, &(tc, ss, ts)) in self.ind.iter().enumerate() {
            let c = coord_of(input, tc);
            out.ind_coord[n] = [c[0] >> ss, c[1] >> ts];
        }
        let mut prev = [0i64; 2];
        for (i, (tc, ind, active)) in self.stages.iter().enumerate() {
            let coord = coord_of(input, *tc);
            // bt past numindstages: no matrix or bump, but wrap and add-previous still apply (§1.4).
            let (offset, bump) = if *active {
                stage_offset(ind, input.ind_tex[ind.bt as usize], &self.matrices, coord)
            } else {
                ([0, 0], 0)
            };
            let wrapped = [wrap(coord[0], ind.sw) as i64, wrap(coord[1], ind.tw) as i64];
            let base = if ind.fb_addprev { prev } else { [0, 0] };
            let tc = [
                sign_wrap24(base[0] + wrapped[0] + offset[0] as i64),
                sign_wrap24(base[1] + wrapped[1] + offset[1] as i64),
            ];
            prev = [tc[0] as i64, tc[1] as i64];
            out.tevcoord[i] = tc;
            out.bump_alpha[i] = bump;
        }
        out
    }
}

/// Computes every stage's indirect coordinate and bump alpha for one pixel.
pub fn compute(state: &TevState, input: &PixelInputs) -> IndirectResult {
    Prepared::new(state).run(input)
}

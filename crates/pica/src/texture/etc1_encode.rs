//! The ETC1 encoder: for each 4x4 block, a search over both flips, both modes (individual and
//! differential) and all eight intensity tables, per sub-block over base colours around the
//! sub-block's mean and those that a least-squares refit of the chosen indices proposes, with
//! the exact squared error (after clamping) as the measure. The same idea as rg_etc1's and
//! etc2comp's searches (facts only, no code taken); its quality is measured in BENCHMARKS.md,
//! "PICA200 textures", and discussed in docs/pica-texture.md.

use super::etc1::{block_bytes, block_origin, modifier, TABLES};
use super::packed::{expand, quantize};
use super::Image;

/// How hard the encoder searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Quality {
    /// Base colour from the quantised mean and one refit per table: a quick baseline.
    Fast,
    /// The mean's quantised neighbourhood (+-1 level per channel) for every table, then refits
    /// until the error stops falling.
    #[default]
    High,
}

/// The best fit of one sub-block (8 texels) found so far.
#[derive(Clone, Copy, Debug)]
struct Fit {
    err: u32,
    /// Quantised base colour (4 or 5 bits per channel).
    base: [u8; 3],
    table: u8,
    /// 2-bit modifier index of each texel of the sub-block, in sub-block order.
    index: [u8; 8],
}

const WORST: Fit = Fit { err: u32::MAX, base: [0; 3], table: 0, index: [0; 8] };

/// Texel positions (x, y) of the two sub-blocks of a flip.
fn halves(flip: bool) -> [[(usize, usize); 8]; 2] {
    let mut out = [[(0, 0); 8]; 2];
    for (h, half) in out.iter_mut().enumerate() {
        let mut n = 0;
        for y in 0..4 {
            for x in 0..4 {
                let second = if flip { y >= 2 } else { x >= 2 };
                if usize::from(second) == h {
                    half[n] = (x, y);
                    n += 1;
                }
            }
        }
    }
    out
}

fn expand_base(base: [u8; 3], bits: u32) -> [i32; 3] {
    base.map(|c| i32::from(expand(u32::from(c), bits)))
}

/// Error and best indices of `texels` against an expanded base colour and a table.
fn evaluate(texels: &[[i32; 3]; 8], base: [i32; 3], table: usize, limit: u32) -> (u32, [u8; 8]) {
    let mut candidates = [[0i32; 3]; 4];
    for (i, c) in candidates.iter_mut().enumerate() {
        let m = modifier(table, i);
        *c = base.map(|b| (b + m).clamp(0, 255));
    }
    let mut err = 0u32;
    let mut index = [0u8; 8];
    for (t, p) in texels.iter().enumerate() {
        let mut best = u32::MAX;
        for (i, c) in candidates.iter().enumerate() {
            let e = (0..3).map(|k| ((c[k] - p[k]) * (c[k] - p[k])) as u32).sum::<u32>();
            if e < best {
                best = e;
                index[t] = i as u8;
            }
        }
        err += best;
        if err >= limit {
            return (u32::MAX, index);
        }
    }
    (err, index)
}

/// Searcher for one sub-block at one base precision (4 or 5 bits).
struct SubBlock<'a> {
    texels: &'a [[i32; 3]; 8],
    bits: u32,
    /// Every fit tried, best per base colour (for pairing in differential mode).
    tried: Vec<Fit>,
}

impl SubBlock<'_> {
    fn max_level(&self) -> i32 {
        (1 << self.bits) - 1
    }

    /// Tries `base` with every table, keeping the best in `tried`; returns it.
    fn try_base(&mut self, base: [u8; 3]) -> Fit {
        if let Some(f) = self.tried.iter().find(|f| f.base == base) {
            return *f;
        }
        let expanded = expand_base(base, self.bits);
        let mut best = WORST;
        for table in 0..TABLES.len() {
            let (err, index) = evaluate(self.texels, expanded, table, best.err);
            if err < best.err {
                best = Fit { err, base, table: table as u8, index };
            }
        }
        self.tried.push(best);
        best
    }

    /// `base` with one table; an error of `limit` or more reads as `u32::MAX`.
    fn fit_table(&self, base: [u8; 3], table: usize, limit: u32) -> Fit {
        let (err, index) = evaluate(self.texels, expand_base(base, self.bits), table, limit);
        Fit { err, base, table: table as u8, index }
    }

    /// Least-squares base colour for fixed indices: per channel, the mean of texel - modifier
    /// over the texels that clamping does not already satisfy (a texel at 255 whose base plus
    /// modifier is 255 or more stays right for any larger base, likewise at 0), so that
    /// saturated sub-blocks converge on their real base.
    fn refit(&self, fit: &Fit) -> [u8; 3] {
        let base = expand_base(fit.base, self.bits);
        let mut out = fit.base;
        for c in 0..3 {
            let (mut sum, mut n) = (0i32, 0i32);
            for (p, &i) in self.texels.iter().zip(&fit.index) {
                let m = modifier(fit.table as usize, i as usize);
                let saturated = (p[c] == 255 && base[c] + m >= 255) || (p[c] == 0 && base[c] + m <= 0);
                if !saturated {
                    sum += p[c] - m;
                    n += 1;
                }
            }
            if n > 0 {
                let mean = ((sum + n / 2).div_euclid(n)).clamp(0, 255);
                out[c] = quantize(mean as u8, self.bits) as u8;
            }
        }
        out
    }

    fn search(&mut self, quality: Quality) -> Fit {
        let mut mean = [0i32; 3];
        for p in self.texels {
            for k in 0..3 {
                mean[k] += p[k];
            }
        }
        let centre = mean.map(|s| quantize(((s + 4) / 8) as u8, self.bits) as i32);
        let mut best = self.try_base(centre.map(|c| c as u8));
        let (radius, rounds) = match quality {
            Quality::Fast => (0, 1),
            Quality::High => (1, 6),
        };
        let max = self.max_level();
        let mut neighbourhood = Vec::new();
        for dr in -radius..=radius {
            for dg in -radius..=radius {
                for db in -radius..=radius {
                    let b = [centre[0] + dr, centre[1] + dg, centre[2] + db];
                    if b.iter().all(|&c| (0..=max).contains(&c)) {
                        neighbourhood.push(b.map(|c| c as u8));
                    }
                }
            }
        }
        // Per table: the best base of the neighbourhood, then refits of its indices until the
        // error stops falling.
        for table in 0..TABLES.len() {
            let mut fit = WORST;
            for &b in &neighbourhood {
                let f = self.fit_table(b, table, fit.err);
                if f.err < fit.err {
                    fit = f;
                }
            }
            if quality == Quality::High {
                // Bases that make one texel exact with one modifier: where the mean is a poor
                // centre (two colour clusters, saturated texels) the best base is near one.
                let mut anchors: Vec<[u8; 3]> = Vec::with_capacity(32);
                for p in self.texels {
                    for i in 0..4 {
                        let m = modifier(table, i);
                        let b = p.map(|c| quantize((c - m).clamp(0, 255) as u8, self.bits) as u8);
                        if !anchors.contains(&b) && !neighbourhood.contains(&b) {
                            anchors.push(b);
                        }
                    }
                }
                for b in anchors {
                    let f = self.fit_table(b, table, fit.err);
                    if f.err < fit.err {
                        fit = f;
                    }
                }
            }
            for _ in 0..rounds {
                if fit.err == 0 {
                    break;
                }
                let next = self.fit_table(self.refit(&fit), table, fit.err);
                if next.err >= fit.err {
                    break;
                }
                fit = next;
            }
            let f = self.try_base(fit.base);
            if f.err < best.err {
                best = f;
            }
            if best.err == 0 {
                break;
            }
        }
        best
    }
}

/// A candidate block: its error and its word.
#[derive(Clone, Copy)]
struct Candidate {
    err: u64,
    word: u64,
}

fn pack(flip: bool, diff: bool, bases: [[u8; 3]; 2], fits: [&Fit; 2], halves: &[[(usize, usize); 8]; 2]) -> u64 {
    let mut hi: u32 = 0;
    if diff {
        for (c, shift) in [27u32, 19, 11].into_iter().enumerate() {
            let delta = (i32::from(bases[1][c]) - i32::from(bases[0][c])) as u32 & 7;
            hi |= u32::from(bases[0][c]) << shift | delta << (shift - 3);
        }
    } else {
        for (c, shift) in [28u32, 20, 12].into_iter().enumerate() {
            hi |= u32::from(bases[0][c]) << shift | u32::from(bases[1][c]) << (shift - 4);
        }
    }
    hi |= u32::from(fits[0].table) << 5 | u32::from(fits[1].table) << 2 | u32::from(diff) << 1 | u32::from(flip);
    let mut lo: u32 = 0;
    for (h, fit) in fits.iter().enumerate() {
        for (n, &(x, y)) in halves[h].iter().enumerate() {
            let k = x * 4 + y;
            let i = u32::from(fit.index[n]);
            lo |= (i >> 1) << (16 + k) | (i & 1) << k;
        }
    }
    u64::from(hi) << 32 | u64::from(lo)
}

/// Best differential pair from the fits tried for the two sub-blocks, completing each side's
/// best with the nearest base the 3-bit delta allows when no tried pair is in range.
fn best_pair(a: &mut SubBlock, b: &mut SubBlock) -> Option<(Fit, Fit)> {
    let in_range = |x: &Fit, y: &Fit| (0..3).all(|c| (-4..=3).contains(&(i32::from(y.base[c]) - i32::from(x.base[c]))));
    let mut best: Option<(Fit, Fit)> = None;
    let total = |p: &(Fit, Fit)| u64::from(p.0.err) + u64::from(p.1.err);
    let (list_a, list_b) = (a.tried.clone(), b.tried.clone());
    for x in &list_a {
        for y in &list_b {
            if in_range(x, y) && best.as_ref().is_none_or(|p| u64::from(x.err) + u64::from(y.err) < total(p)) {
                best = Some((*x, *y));
            }
        }
    }
    let best_a = *list_a.iter().min_by_key(|f| f.err)?;
    let best_b = *list_b.iter().min_by_key(|f| f.err)?;
    let towards = |from: [u8; 3], to: [u8; 3], lo: i32, hi: i32| -> [u8; 3] {
        let mut out = [0; 3];
        for c in 0..3 {
            out[c] = (i32::from(to[c])).clamp(i32::from(from[c]) + lo, i32::from(from[c]) + hi).clamp(0, 31) as u8;
        }
        out
    };
    let y = b.try_base(towards(best_a.base, best_b.base, -4, 3));
    if in_range(&best_a, &y) && best.as_ref().is_none_or(|p| u64::from(best_a.err) + u64::from(y.err) < total(p)) {
        best = Some((best_a, y));
    }
    let x = a.try_base(towards(best_b.base, best_a.base, -3, 4));
    if in_range(&x, &best_b) && best.as_ref().is_none_or(|p| u64::from(x.err) + u64::from(best_b.err) < total(p)) {
        best = Some((x, best_b));
    }
    best
}

/// Encodes 16 RGB texels (indexed `y * 4 + x`) to a block word.
///
/// ```
/// use pica::texture::etc1::decode_block;
/// use pica::texture::etc1_encode::{encode_block, Quality};
/// // A flat colour that individual mode holds exactly: 0x7 -> 119, minus 2 = 117.
/// let block = [[117u8, 117, 117]; 16];
/// assert_eq!(decode_block(encode_block(&block, Quality::High)), block);
/// ```
pub fn encode_block(texels: &[[u8; 3]; 16], quality: Quality) -> u64 {
    let mut best = Candidate { err: u64::MAX, word: 0 };
    for flip in [false, true] {
        let halves = halves(flip);
        let sub: [[[i32; 3]; 8]; 2] = halves.map(|h| h.map(|(x, y)| texels[y * 4 + x].map(i32::from)));
        // Individual mode: 4-bit bases, independent halves.
        let mut ind = [
            SubBlock { texels: &sub[0], bits: 4, tried: Vec::new() },
            SubBlock { texels: &sub[1], bits: 4, tried: Vec::new() },
        ];
        let f0 = ind[0].search(quality);
        let f1 = ind[1].search(quality);
        let err = u64::from(f0.err) + u64::from(f1.err);
        if err < best.err {
            best = Candidate { err, word: pack(flip, false, [f0.base, f1.base], [&f0, &f1], &halves) };
        }
        // Differential mode: 5-bit bases within the 3-bit delta.
        let [mut d0, mut d1] = [
            SubBlock { texels: &sub[0], bits: 5, tried: Vec::new() },
            SubBlock { texels: &sub[1], bits: 5, tried: Vec::new() },
        ];
        d0.search(quality);
        d1.search(quality);
        if let Some((x, y)) = best_pair(&mut d0, &mut d1) {
            let err = u64::from(x.err) + u64::from(y.err);
            if err < best.err {
                best = Candidate { err, word: pack(flip, true, [x.base, y.base], [&x, &y], &halves) };
            }
        }
        if best.err == 0 {
            break;
        }
    }
    best.word
}

/// The 4-bit alpha word of 16 alpha values (indexed `y * 4 + x`).
pub fn encode_alpha(alpha: &[u8; 16]) -> u64 {
    let mut word = 0u64;
    for y in 0..4 {
        for x in 0..4 {
            word |= u64::from(quantize(alpha[y * 4 + x], 4)) << (4 * (x * 4 + y));
        }
    }
    word
}

/// Encodes the tile of `image` whose top-left texel is (x0, y0).
pub(super) fn encode_tile(image: &Image, x0: u32, y0: u32, alpha: bool, quality: Quality, tile: &mut [u8]) {
    let size = block_bytes(alpha);
    for b in 0..4 {
        let (bx, by) = block_origin(b);
        let mut rgb = [[0u8; 3]; 16];
        let mut a = [0u8; 16];
        for y in 0..4 {
            for x in 0..4 {
                let [r, g, bl, al] = image.pixel(x0 + bx + x as u32, y0 + by + y as u32);
                rgb[y * 4 + x] = [r, g, bl];
                a[y * 4 + x] = al;
            }
        }
        let out = &mut tile[b * size..(b + 1) * size];
        let color = if alpha {
            out[..8].copy_from_slice(&encode_alpha(&a).to_le_bytes());
            &mut out[8..]
        } else {
            out
        };
        color.copy_from_slice(&encode_block(&rgb, quality).to_le_bytes());
    }
}

//! The integer-exact TEV reference: combiner arithmetic, konst and swap selection, the stage
//! loop, output selection and the alpha test; the steps after it are in [`crate::pixel`].
//!
//! Arithmetic: specs/hollywood-tev-facts.md, "Integer combiner math". Inputs, konst table, swap
//! tables, ras colours and output selection: specs/hollywood-tev-more-facts.md §2.2-§2.7; alpha
//! test §3.1. Choices where sources disagree are in docs/gx-decisions.md and in the constants of
//! this module (one place each).

use serde::{Deserialize, Serialize};

use crate::bp::{TevColor, TevState};
use crate::indirect::{self, IndirectResult};
use crate::pixel::{PostOutput, PostParams};
use crate::regs::{AlphaCombiner, ColorCombiner};

/// The rounding of the SUB path: `-(lerp >> 8)` (the colour path of Dolphin's software renderer
/// and its generated shaders), used for colour *and* alpha (facts file, last paragraph).
/// The alternative, `(-lerp) >> 8`, is what Dolphin's software renderer does for alpha only.
pub const SUB_ROUNDING_NEGATE_AFTER_SHIFT: bool = true;

/// Konst fixed values for selectors 0..7 (1, 7/8 .. 1/8), hardware-tested (more-facts §2.4).
pub const KONST_FIXED: [i16; 8] = [255, 223, 191, 159, 128, 96, 64, 32];

/// The lower bound of an unclamped result (signed 11-bit).
pub const REG_MIN: i32 = -1024;
/// The upper bound of an unclamped result.
pub const REG_MAX: i32 = 1023;

/// Clamps a combiner result: [0, 255] with the clamp bit, else the signed 11-bit range.
#[inline]
pub fn clamp_result(v: i32, clamp: bool) -> i16 {
    if clamp {
        v.clamp(0, 255) as i16
    } else {
        v.clamp(REG_MIN, REG_MAX) as i16
    }
}

/// One channel of a regular (bias 0..2) combiner, following the numbered steps of the facts file.
/// `a`, `b`, `c` are the 8-bit wrapped inputs, `d` the signed 11-bit input.
#[inline]
#[allow(clippy::too_many_arguments)] // one argument per register field
pub fn regular(a: u8, b: u8, c: u8, d: i16, bias: u8, op: u8, scale: u8, clamp: bool) -> i16 {
    let (a, b, c) = (a as i32, b as i32, c as i32);
    // 1. c' = c + (c >> 7): 0..256.
    let c1 = c + (c >> 7);
    // 2. lerp = a(256 - c') + b c'.
    let mut lerp = a * (256 - c1) + b * c1;
    // 3. shift by the scale (x1, x2, x4; /2 shifts later).
    let s = scale_shift(scale);
    lerp <<= s;
    // 4.-5. rounding constant, shift, negate for SUB.
    let sub = op != 0;
    if scale != 3 {
        lerp += if sub { 127 } else { 128 };
    }
    let lerp = if sub { negate_shift(lerp) } else { lerp >> 8 };
    // 6. bias added to d, shifted with it.
    let bias_v = match bias {
        1 => 128,
        2 => -128,
        _ => 0,
    };
    let mut result = ((d as i32 + bias_v) << s) + lerp;
    // 7. divide by two.
    if scale == 3 {
        result >>= 1;
    }
    // 8. clamp.
    clamp_result(result, clamp)
}

/// The shift of the scale field: 0, 1, 2 for x1, x2, x4 and 0 for /2.
#[inline]
fn scale_shift(scale: u8) -> i32 {
    match scale {
        1 => 1,
        2 => 2,
        _ => 0,
    }
}

/// `-(v >> 8)` or `(-v) >> 8` according to [`SUB_ROUNDING_NEGATE_AFTER_SHIFT`].
#[inline]
fn negate_shift(v: i32) -> i32 {
    if SUB_ROUNDING_NEGATE_AFTER_SHIFT {
        -(v >> 8)
    } else {
        (-v) >> 8
    }
}

/// The compare condition: GT (op 0) or EQ (op 1).
#[inline]
fn cmp(op: u8, x: u32, y: u32) -> bool {
    if op == 0 {
        x > y
    } else {
        x == y
    }
}

/// Packs the R, G, B bytes of `v` for the R8 (scale 0), GR16 (1) and BGR24 (2) compares.
#[inline]
pub fn compare_key(v: [u8; 3], scale: u8) -> u32 {
    let (r, g, b) = (v[0] as u32, v[1] as u32, v[2] as u32);
    match scale {
        0 => r,
        1 => (g << 8) | r,
        _ => (b << 16) | (g << 8) | r,
    }
}

/// The colour combiner in compare mode (bias 3). `a`, `b`, `c` are 8-bit, `d` 11-bit.
/// R8/GR16/BGR24 give one condition for all channels; RGB8 compares per channel.
pub fn compare_color(a: [u8; 3], b: [u8; 3], c: [u8; 3], d: [i16; 3], op: u8, scale: u8, clamp: bool) -> [i16; 3] {
    let mut out = [0i16; 3];
    let whole = scale != 3 && cmp(op, compare_key(a, scale), compare_key(b, scale));
    for ch in 0..3 {
        let cond = if scale == 3 { cmp(op, a[ch] as u32, b[ch] as u32) } else { whole };
        out[ch] = clamp_result(d[ch] as i32 + if cond { c[ch] as i32 } else { 0 }, clamp);
    }
    out
}

/// The alpha combiner in compare mode. R8/GR16/BGR24 compare the colour combiner's A and B
/// inputs (`color_a`, `color_b`); A8 (scale 3) compares the alpha inputs.
#[allow(clippy::too_many_arguments)]
pub fn compare_alpha(
    a: u8,
    b: u8,
    c: u8,
    d: i16,
    color_a: [u8; 3],
    color_b: [u8; 3],
    op: u8,
    scale: u8,
    clamp: bool,
) -> i16 {
    let cond = if scale == 3 {
        cmp(op, a as u32, b as u32)
    } else {
        cmp(op, compare_key(color_a, scale), compare_key(color_b, scale))
    };
    clamp_result(d as i32 + if cond { c as i32 } else { 0 }, clamp)
}

/// The konst colour of selector `sel` (more-facts §2.4).
pub fn konst_color(sel: u8, k: &[TevColor; 4]) -> [i16; 3] {
    match sel {
        0..=7 => [KONST_FIXED[sel as usize]; 3],
        8..=11 => [0; 3],
        12..=15 => {
            let r = k[(sel - 12) as usize];
            [r[0], r[1], r[2]]
        }
        16..=31 => {
            let comp = ((sel - 16) / 4) as usize;
            let v = k[(sel % 4) as usize][comp];
            [v; 3]
        }
        _ => [0; 3],
    }
}

/// The konst alpha of selector `sel`: as colour but 12..15 give 0.
pub fn konst_alpha(sel: u8, k: &[TevColor; 4]) -> i16 {
    match sel {
        0..=7 => KONST_FIXED[sel as usize],
        16..=31 => k[(sel % 4) as usize][((sel - 16) / 4) as usize],
        _ => 0,
    }
}

/// Applies swap table `table` (source channel per output R, G, B, A) to an RGBA colour.
#[inline]
pub fn swap(v: [u8; 4], table: [u8; 4]) -> [u8; 4] {
    [v[table[0] as usize & 3], v[table[1] as usize & 3], v[table[2] as usize & 3], v[table[3] as usize & 3]]
}

/// Alpha-test compare `alpha OP reference` (more-facts §3.1).
pub fn alpha_compare(alpha: u8, reference: u8, func: u8) -> bool {
    match func {
        0 => false,
        1 => alpha < reference,
        2 => alpha == reference,
        3 => alpha <= reference,
        4 => alpha > reference,
        5 => alpha != reference,
        6 => alpha >= reference,
        _ => true,
    }
}

/// The whole alpha test of BP 0xF3 on the 8-bit output alpha.
pub fn alpha_test(state: &TevState, alpha: u8) -> bool {
    let t = &state.alpha_test;
    let a = alpha_compare(alpha, t.ref0, t.comp0);
    let b = alpha_compare(alpha, t.ref1, t.comp1);
    match t.logic {
        0 => a && b,
        1 => a || b,
        2 => a != b,
        _ => a == b,
    }
}

/// Per-pixel inputs of the TEV.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PixelInputs {
    /// The texel (RGBA, before the swap table) each TEV stage samples; stages past the list read 0.
    pub tex: Vec<[u8; 4]>,
    /// Rasterized colour channels 0 and 1 (RGBA).
    pub ras: [[u8; 4]; 2],
    /// The indirect texture sample (RGBA) of each indirect stage; S = A, T = B, U = G.
    pub ind_tex: [[u8; 4]; 4],
    /// Regular texture coordinates of each texgen in s17.7 fixed point (1/128 texel).
    pub texcoords: [[i32; 2]; 8],
    /// Rasterized depth (24-bit): the z texture's add and fog read it.
    pub z: u32,
    /// Pixel column and row: dither and fog range adjustment read them.
    pub pos: [u32; 2],
}

/// The TEV's result for one pixel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PixelOutput {
    /// RGB of the last stage's colour destination, wrapped to 8 bits.
    pub color: [u8; 3],
    /// A of the last stage's alpha destination, wrapped to 8 bits.
    pub alpha: u8,
    /// Whether the alpha test passes.
    pub alpha_pass: bool,
    /// The registers PREV, C0, C1, C2 after the last stage (RGBA, signed 11-bit).
    pub regs: [TevColor; 4],
    /// Indirect results: per-stage texture coordinates and bump alpha.
    pub indirect: IndirectResult,
    /// The steps after the TEV: depth, fog factor and the stored RGBA.
    pub post: PostOutput,
}

/// A TEV state prepared for evaluation: stage settings gathered once, so that the per-pixel
/// loop does no register decoding.
#[derive(Clone, Debug)]
pub struct Evaluator {
    state: TevState,
    stages: Vec<Stage>,
    indirect: indirect::Prepared,
    post: PostParams,
}

/// Input slots of the per-pixel table: PREV, C0, C1, C2, then the stage's texel, ras colour and
/// konst, then the constants ONE, HALF, ZERO.
const SLOT_TEX: u8 = 4;
const SLOT_RAS: u8 = 5;
const SLOT_KONST: u8 = 6;
const SLOT_ONE: u8 = 7;
const SLOT_HALF: u8 = 8;
const SLOT_ZERO: u8 = 9;

/// Where a colour input reads from: (slot, whether the slot's alpha is broadcast to RGB).
/// The table is more-facts §2.5 (colour inputs 0-15).
const COLOR_SLOT: [(u8, bool); 16] = [
    (0, false),
    (0, true),
    (1, false),
    (1, true),
    (2, false),
    (2, true),
    (3, false),
    (3, true),
    (SLOT_TEX, false),
    (SLOT_TEX, true),
    (SLOT_RAS, false),
    (SLOT_RAS, true),
    (SLOT_ONE, false),
    (SLOT_HALF, false),
    (SLOT_KONST, false),
    (SLOT_ZERO, false),
];

/// Where an alpha input reads from (alpha inputs 0-7: APREV, A0, A1, A2, TEXA, RASA, KONST, ZERO).
const ALPHA_SLOT: [u8; 8] = [0, 1, 2, 3, SLOT_TEX, SLOT_RAS, SLOT_KONST, SLOT_ZERO];

#[derive(Clone, Copy, Debug)]
struct Stage {
    color: ColorCombiner,
    alpha: AlphaCombiner,
    /// Colour inputs a, b, c, d resolved to slots.
    csrc: [(u8, bool); 4],
    /// Alpha inputs a, b, c, d resolved to slots.
    asrc: [u8; 4],
    tex_enable: bool,
    colorchan: u8,
    /// Konst colour (RGB) and alpha of the stage.
    konst: [i16; 4],
    ras_swap: [u8; 4],
    tex_swap: [u8; 4],
}

impl Evaluator {
    /// Prepares `state` (its genMode stage count decides how many stages run).
    pub fn new(state: &TevState) -> Self {
        let stages = (0..state.num_stages())
            .map(|i| {
                let v = state.stage(i);
                let kc = konst_color(v.kcsel, &state.konst_regs);
                let (c, a) = (v.color, v.alpha);
                Stage {
                    color: c,
                    alpha: a,
                    csrc: [c.a, c.b, c.c, c.d].map(|x| COLOR_SLOT[x as usize & 15]),
                    asrc: [a.a, a.b, a.c, a.d].map(|x| ALPHA_SLOT[x as usize & 7]),
                    tex_enable: v.tex_enable,
                    colorchan: v.colorchan,
                    konst: [kc[0], kc[1], kc[2], konst_alpha(v.kasel, &state.konst_regs)],
                    ras_swap: state.swap_table(a.rswap as usize),
                    tex_swap: state.swap_table(a.tswap as usize),
                }
            })
            .collect();
        Self { state: state.clone(), stages, indirect: indirect::Prepared::new(state), post: PostParams::new(state) }
    }

    /// The state being evaluated.
    pub fn state(&self) -> &TevState {
        &self.state
    }

    /// The post-TEV settings.
    pub fn post(&self) -> &PostParams {
        &self.post
    }

    /// Runs every stage on one pixel, selects the output, applies the alpha test, then the z
    /// texture, fog, dither, constant alpha and the pixel format ([`crate::pixel`]).
    pub fn eval(&self, input: &PixelInputs) -> PixelOutput {
        let ind = self.indirect.run(input);
        let mut slots = [[0i16; 4]; 10];
        slots[..4].copy_from_slice(&self.state.color_regs);
        slots[SLOT_ONE as usize] = [255; 4];
        slots[SLOT_HALF as usize] = [128; 4];
        let widen = |v: [u8; 4]| [v[0] as i16, v[1] as i16, v[2] as i16, v[3] as i16];
        for (i, st) in self.stages.iter().enumerate() {
            // Texture: disabled stages read 255 in every channel (docs/gx-decisions.md).
            let tex =
                if st.tex_enable { swap(input.tex.get(i).copied().unwrap_or([0; 4]), st.tex_swap) } else { [255; 4] };
            slots[SLOT_TEX as usize] = widen(tex);
            slots[SLOT_RAS as usize] = widen(swap(ras_color(st.colorchan, input, ind.bump_alpha[i]), st.ras_swap));
            slots[SLOT_KONST as usize] = st.konst;
            let get = |(slot, bcast): (u8, bool), ch: usize| slots[slot as usize][if bcast { 3 } else { ch }];
            // a, b, c wrap to 8 bits; d keeps 11 bits (facts file).
            let rgb8 = |src: (u8, bool)| [get(src, 0) as u8, get(src, 1) as u8, get(src, 2) as u8];
            let [sa, sb, sc, sd] = st.csrc;
            let (ca, cb, cc) = (rgb8(sa), rgb8(sb), rgb8(sc));
            let cd = [get(sd, 0), get(sd, 1), get(sd, 2)];
            let c = &st.color;
            let col = if c.bias == 3 {
                compare_color(ca, cb, cc, cd, c.op, c.scale, c.clamp)
            } else {
                let f = |ch: usize| regular(ca[ch], cb[ch], cc[ch], cd[ch], c.bias, c.op, c.scale, c.clamp);
                [f(0), f(1), f(2)]
            };
            let a = &st.alpha;
            let av = |k: usize| slots[st.asrc[k] as usize][3];
            let (aa, ab, ac, ad) = (av(0) as u8, av(1) as u8, av(2) as u8, av(3));
            let alpha = if a.bias == 3 {
                compare_alpha(aa, ab, ac, ad, ca, cb, a.op, a.scale, a.clamp)
            } else {
                regular(aa, ab, ac, ad, a.bias, a.op, a.scale, a.clamp)
            };
            // Both combiners read before either writes.
            let dst = &mut slots[c.dest as usize];
            dst[0] = col[0];
            dst[1] = col[1];
            dst[2] = col[2];
            slots[a.dest as usize][3] = alpha;
        }
        let regs = [slots[0], slots[1], slots[2], slots[3]];
        let last = self.stages.last().copied();
        let (cdst, adst) = last.map_or((0, 0), |s| (s.color.dest as usize, s.alpha.dest as usize));
        let color = [regs[cdst][0] as u8, regs[cdst][1] as u8, regs[cdst][2] as u8];
        let alpha = regs[adst][3] as u8;
        // The z texture reads the last stage's texel before its swap (more-facts §3.2, Dolphin
        // since #13345); a last stage without a texture gives texel 0 (docs/gx-decisions.md).
        let texel = match last {
            Some(s) if s.tex_enable => input.tex.get(self.stages.len() - 1).copied().unwrap_or([0; 4]),
            _ => [0; 4],
        };
        let post = self.post.apply([color[0], color[1], color[2], alpha], texel, input.z, input.pos);
        PixelOutput { color, alpha, alpha_pass: alpha_test(&self.state, alpha), regs, indirect: ind, post }
    }
}

/// The rasterized colour of a stage (more-facts §2.3): channel 0/1, bump alpha (5), normalized
/// bump alpha (6), zero (7); the invalid codes 2-4 give zero as in Dolphin's software renderer.
pub fn ras_color(colorchan: u8, input: &PixelInputs, bump_alpha: u8) -> [u8; 4] {
    match colorchan {
        0 => input.ras[0],
        1 => input.ras[1],
        5 => [bump_alpha; 4],
        6 => [bump_alpha | (bump_alpha >> 5); 4],
        _ => [0; 4],
    }
}

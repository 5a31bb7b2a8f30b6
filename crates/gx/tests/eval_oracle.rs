//! A differential test of the evaluator: a second, plainly written evaluation of the same rules
//! (input selection by `match`, no precomputation) must agree with `Evaluator::eval` on random
//! valid materials from the smith generator.

use gx::bp::TevState;
use gx::regs::{AlphaCombiner, ColorCombiner};
use gx::tev::*;
use gx::{indirect, Evaluator, PixelInputs};
use proptest::prelude::*;

struct Stage {
    color: ColorCombiner,
    alpha: AlphaCombiner,
    tex_enable: bool,
    colorchan: u8,
    konst_c: [i16; 3],
    konst_a: i16,
    ras_swap: [u8; 4],
    tex_swap: [u8; 4],
}

fn prepare(state: &TevState, i: usize) -> Stage {
    let v = state.stage(i);
    Stage {
        color: v.color,
        alpha: v.alpha,
        tex_enable: v.tex_enable,
        colorchan: v.colorchan,
        konst_c: konst_color(v.kcsel, &state.konst_regs),
        konst_a: konst_alpha(v.kasel, &state.konst_regs),
        ras_swap: state.swap_table(v.alpha.rswap as usize),
        tex_swap: state.swap_table(v.alpha.tswap as usize),
    }
}

/// Registers after the last stage.
fn oracle(state: &TevState, input: &PixelInputs) -> [[i16; 4]; 4] {
    let ind = indirect::compute(state, input);
    let mut regs = state.color_regs;
    for i in 0..state.num_stages() {
        let st = prepare(state, i);
        // Texture: disabled stages read 255 in every channel (docs/gx-decisions.md).
        let tex = if st.tex_enable { swap(input.tex.get(i).copied().unwrap_or([0; 4]), st.tex_swap) } else { [255; 4] };
        let ras = swap(ras_color(st.colorchan, input, ind.bump_alpha[i]), st.ras_swap);
        let konst_c = st.konst_c;
        let konst_a = st.konst_a;
        let c = &st.color;
        let sel_c = |v: u8| -> [i16; 3] {
            match v {
                0 => [regs[0][0], regs[0][1], regs[0][2]],
                1 => [regs[0][3]; 3],
                2 => [regs[1][0], regs[1][1], regs[1][2]],
                3 => [regs[1][3]; 3],
                4 => [regs[2][0], regs[2][1], regs[2][2]],
                5 => [regs[2][3]; 3],
                6 => [regs[3][0], regs[3][1], regs[3][2]],
                7 => [regs[3][3]; 3],
                8 => [tex[0] as i16, tex[1] as i16, tex[2] as i16],
                9 => [tex[3] as i16; 3],
                10 => [ras[0] as i16, ras[1] as i16, ras[2] as i16],
                11 => [ras[3] as i16; 3],
                12 => [255; 3],
                13 => [128; 3],
                14 => konst_c,
                _ => [0; 3],
            }
        };
        let sel_a = |v: u8| -> i16 {
            match v {
                0 => regs[0][3],
                1 => regs[1][3],
                2 => regs[2][3],
                3 => regs[3][3],
                4 => tex[3] as i16,
                5 => ras[3] as i16,
                6 => konst_a,
                _ => 0,
            }
        };
        // a, b, c wrap to 8 bits; d keeps 11 bits (facts file).
        let w3 = |v: [i16; 3]| [v[0] as u8, v[1] as u8, v[2] as u8];
        let (ca, cb, cc, cd) = (w3(sel_c(c.a)), w3(sel_c(c.b)), w3(sel_c(c.c)), sel_c(c.d));
        let col = if c.bias == 3 {
            compare_color(ca, cb, cc, cd, c.op, c.scale, c.clamp)
        } else {
            let f = |ch: usize| regular(ca[ch], cb[ch], cc[ch], cd[ch], c.bias, c.op, c.scale, c.clamp);
            [f(0), f(1), f(2)]
        };
        let a = &st.alpha;
        let (aa, ab, ac, ad) = (sel_a(a.a) as u8, sel_a(a.b) as u8, sel_a(a.c) as u8, sel_a(a.d));
        let alpha = if a.bias == 3 {
            compare_alpha(aa, ab, ac, ad, ca, cb, a.op, a.scale, a.clamp)
        } else {
            regular(aa, ab, ac, ad, a.bias, a.op, a.scale, a.clamp)
        };
        // Both combiners read before either writes.
        let cd = c.dest as usize;
        regs[cd][0] = col[0];
        regs[cd][1] = col[1];
        regs[cd][2] = col[2];
        regs[a.dest as usize][3] = alpha;
    }
    regs
}

proptest! {
    #[test]
    fn evaluator_agrees_with_the_plain_oracle(bytes in prop::collection::vec(any::<u8>(), 64..3000)) {
        let mut u = arbitrary::Unstructured::new(&bytes);
        let state = gx::smith::state(&mut u, &gx::smith::Config::default()).unwrap();
        let ev = Evaluator::new(&state);
        for _ in 0..4 {
            let p = gx::smith::pixel(&mut u, state.num_stages()).unwrap();
            let out = ev.eval(&p);
            prop_assert_eq!(out.regs, oracle(&state, &p));
        }
    }
}

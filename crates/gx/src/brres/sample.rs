//! A small BRRES built in code (there is no permissively licensed game data): one model with
//! three materials in the shapes real MDL0 lists have. Used by the CLI tests, the benches and
//! as an example of the writer.

use super::{Brres, Layer, Material, Model, Shader, Texture, MATERIAL_DL_SIZE, SHADER_DL_SIZE};
use crate::dl::{encode, Command};
use crate::regs::*;

fn bp(address: u8, value: u32) -> Command {
    Command::Bp { address, value }
}

fn padded(cmds: &[Command], size: usize) -> Vec<u8> {
    let mut v = encode(cmds);
    v.resize(size, 0);
    v
}

/// The material list: pixel block (alpha test, z mode, blend mode under mask 0x00FFE3, constant
/// alpha), TEV colour registers, indirect block.
fn material_list(alpha_ref: u8, konst: [i16; 4], ind: bool) -> Vec<u8> {
    let ra = |r: i16, a: i16, k: bool| TevRegRa { r, a, konst: k }.encode();
    let bg = |b: i16, g: i16, k: bool| TevRegBg { b, g, konst: k }.encode();
    let mut c = vec![
        bp(0xF3, AlphaTest { ref0: alpha_ref, ref1: 0, comp0: 6, comp1: 0, logic: 1 }.encode()),
        bp(0x40, ZMode { test: true, func: 3, update: true }.encode()),
        bp(0xFE, 0x00FFE3),
        bp(0x41, BlendMode { blend: true, dst: 5, src: 4, colorupd: true, ..Default::default() }.encode()),
        bp(0x42, 0),
        bp(0xE2, ra(255, 255, false)),
        bp(0xE3, bg(255, 255, false)),
        bp(0xE0, ra(konst[0], konst[3], true)),
        bp(0xE1, bg(konst[2], konst[1], true)),
    ];
    if ind {
        // Matrix 0 = 0.5 on the diagonal, exponent 0 (scale 17).
        c.push(bp(0x25, Ras1Ss { ss0: 0, ts0: 0, ss1: 0, ts1: 0 }.encode()));
        c.push(bp(0x06, IndMtxAB { row0: 512, row1: 0, scale_bits: 1 }.encode()));
        c.push(bp(0x07, IndMtxAB { row0: 0, row1: 512, scale_bits: 0 }.encode()));
        c.push(bp(0x08, IndMtxC { row0: 0, row1: 0, scale_bit4: 1, scale_bit5_ignored: 0 }.encode()));
    }
    c.push(Command::Xf { address: 0x1040, values: vec![0x0000_0280] });
    padded(&c, MATERIAL_DL_SIZE)
}

/// The shader list: swap tables and konst selectors under the masks real lists use, then the
/// indirect references and per-stage orders, combiners and indirect settings.
fn shader_list(
    stages: &[(TwoTevStageOrders, ColorCombiner, AlphaCombiner, TevStageIndirect, u8, u8)],
    iref: Ras1Iref,
) -> Vec<u8> {
    let mut c = Vec::new();
    // Swap tables RGBA, RRRA, GGGA, BBBA (libogc's defaults).
    let swaps = [(0, 1), (2, 3), (0, 0), (0, 3), (1, 1), (1, 3), (2, 2), (2, 3)];
    for (k, (s1, s2)) in swaps.into_iter().enumerate() {
        c.push(bp(0xFE, 0x00000F));
        c.push(bp(0xF6 + k as u8, TevKSel { swap1: s1, swap2: s2, ..Default::default() }.encode()));
    }
    for pair in 0..stages.len().div_ceil(2) {
        let (kc0, ka0) = (stages[2 * pair].4, stages[2 * pair].5);
        let (kc1, ka1) = stages.get(2 * pair + 1).map_or((0, 0), |s| (s.4, s.5));
        c.push(bp(0xFE, 0xFFFFF0));
        c.push(bp(
            0xF6 + pair as u8,
            TevKSel { kcsel0: kc0, kasel0: ka0, kcsel1: kc1, kasel1: ka1, ..Default::default() }.encode(),
        ));
    }
    c.push(bp(0x27, iref.encode()));
    for (i, (order, color, alpha, ind, _, _)) in stages.iter().enumerate() {
        if i % 2 == 0 {
            c.push(bp(0x28 + (i / 2) as u8, order.encode()));
        }
        c.push(bp(0xC0 + 2 * i as u8, color.encode()));
        c.push(bp(0xC1 + 2 * i as u8, alpha.encode()));
        c.push(bp(0x10 + i as u8, ind.encode()));
    }
    padded(&c, SHADER_DL_SIZE)
}

fn layer(name: &str, slot: u32) -> Layer {
    Layer {
        texture: name.into(),
        texmap: slot,
        tlut: slot,
        wrap_s: 1,
        wrap_t: 1,
        min_filter: 1,
        mag_filter: 1,
        ..Default::default()
    }
}

/// The sample file.
pub fn sample_brres() -> Brres {
    let cc = |a, b, c, d, bias, op, clamp, scale, dest| ColorCombiner { a, b, c, d, bias, op, clamp, scale, dest };
    let ac = |a, b, c, d, bias, op, clamp, scale, dest| AlphaCombiner {
        rswap: 0,
        tswap: 0,
        a,
        b,
        c,
        d,
        bias,
        op,
        clamp,
        scale,
        dest,
    };
    let order = |texmap0, enable0, colorchan0, texmap1, enable1, colorchan1| TwoTevStageOrders {
        texmap0,
        texcoord0: texmap0,
        enable0,
        colorchan0,
        texmap1,
        texcoord1: texmap1,
        enable1,
        colorchan1,
    };
    let none = TevStageIndirect::default();
    // 1. TEXC * RASC, TEXA * RASA.
    let lit = shader_list(
        &[(
            order(0, true, 0, 0, false, 7),
            cc(15, 8, 10, 15, 0, 0, true, 0, 0),
            ac(7, 4, 5, 7, 0, 0, true, 0, 0),
            none,
            0,
            0,
        )],
        Ras1Iref::default(),
    );
    // 2. Stage 0: lerp(K0, TEXC, TEXA) -> C0; stage 1: compare GR16 of C0 vs HALF adds RASC, x2.
    let konst = shader_list(
        &[
            (
                order(0, true, 0, 1, true, 0),
                cc(14, 8, 9, 15, 0, 0, true, 0, 1),
                ac(6, 4, 7, 7, 0, 0, true, 0, 0),
                none,
                12,
                28,
            ),
            (
                order(0, true, 0, 1, true, 0),
                cc(2, 13, 10, 2, 3, 0, true, 1, 0),
                ac(7, 7, 7, 1, 1, 0, false, 1, 0),
                none,
                4,
                0,
            ),
        ],
        Ras1Iref::default(),
    );
    // 3. Bump: indirect stage 0 (ITF_8, bias STU, matrix 0) offsets stage 0's texture; stage 1
    //    uses normalized bump alpha as ras colour and adds it to the texture.
    let ind0 = TevStageIndirect { bt: 0, fmt: 0, bias: 7, bs: 1, mtx_index: 1, ..Default::default() };
    let ind1 = TevStageIndirect { bt: 0, bs: 1, fb_addprev: true, ..Default::default() };
    let bump = shader_list(
        &[
            (
                order(0, true, 0, 0, false, 6),
                cc(15, 15, 15, 8, 0, 0, true, 0, 0),
                ac(7, 7, 7, 4, 0, 0, true, 0, 0),
                ind0,
                0,
                0,
            ),
            // CPREV + RASC: a = RASC with c = ZERO selects a, d = CPREV.
            (
                order(0, true, 0, 0, false, 6),
                cc(10, 15, 15, 0, 0, 0, true, 0, 0),
                ac(7, 7, 7, 0, 0, 0, true, 0, 0),
                ind1,
                0,
                0,
            ),
        ],
        Ras1Iref { bi0: 1, bc0: 1, ..Default::default() },
    );
    let mat =
        |name: &str, index: u32, shader: usize, texgens: u8, stages: u8, ind: u8, layers: Vec<Layer>, list: Vec<u8>| {
            Material {
                name: name.into(),
                index,
                flags: 0,
                num_texgens: texgens,
                num_chans: 1,
                num_tev_stages: stages,
                num_ind_stages: ind,
                cull_mode: 2,
                shader,
                layers,
                display_list: list,
            }
        };
    Brres {
        models: vec![Model {
            name: "sample".into(),
            version: 11,
            shaders: vec![
                Shader {
                    name: "lit_texture".into(),
                    index: 0,
                    num_stages: 1,
                    tex_refs: [0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
                    display_list: lit,
                },
                Shader {
                    name: "konst_compare".into(),
                    index: 1,
                    num_stages: 2,
                    tex_refs: [0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
                    display_list: konst,
                },
                Shader {
                    name: "bump".into(),
                    index: 2,
                    num_stages: 2,
                    tex_refs: [0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
                    display_list: bump,
                },
            ],
            materials: vec![
                mat("lit_texture", 0, 0, 1, 1, 0, vec![layer("brick", 0)], material_list(128, [0; 4], false)),
                mat(
                    "konst_compare",
                    1,
                    1,
                    2,
                    2,
                    0,
                    vec![layer("brick", 0), layer("mask", 1)],
                    material_list(0, [200, 100, 50, 255], false),
                ),
                mat(
                    "bump",
                    2,
                    2,
                    2,
                    2,
                    1,
                    vec![layer("brick", 0), layer("bumpmap", 1)],
                    material_list(0, [0; 4], true),
                ),
            ],
        }],
        textures: vec![
            Texture { name: "brick".into(), width: 64, height: 64, format: 14, mip_count: 7, data: brick_cmpr() },
            Texture { name: "mask".into(), width: 32, height: 32, format: 1, mip_count: 1, data: mask_i8() },
            Texture { name: "bumpmap".into(), width: 128, height: 128, format: 6, mip_count: 1, data: bump_rgba8() },
        ],
        palettes: vec![],
        other_groups: vec![],
    }
}

/// 64x64 CMPR bricks: each 4x4 sub-block is brick red (c0) with a mortar-grey (c1) top row and,
/// on alternate rows of bricks, a mortar column.
fn brick_cmpr() -> Vec<u8> {
    let mut out = Vec::new();
    for by in 0..8 {
        for bx in 0..8 {
            for s in 0..4 {
                let (sx, sy) = (bx * 2 + s % 2, by * 2 + s / 2);
                out.extend_from_slice(&0xB203u16.to_be_bytes()); // brick red
                out.extend_from_slice(&0x9CD3u16.to_be_bytes()); // mortar grey
                let col = if (sx + if sy % 2 == 0 { 0 } else { 1 }) % 2 == 0 { 0x40 } else { 0x00 };
                out.push(0x55); // top row: colour 1
                for _ in 0..3 {
                    out.push(col);
                }
            }
        }
    }
    out
}

/// 32x32 I8: a diagonal gradient.
fn mask_i8() -> Vec<u8> {
    let texels: Vec<[u8; 4]> = (0..32 * 32).map(|i| [((i % 32 + i / 32) * 4) as u8; 4]).collect();
    crate::texture::encode(crate::texture::Format::I8, 32, 32, &texels).expect("I8 holds grey texels")
}

/// 128x128 RGBA8: a bump map with offsets in A, B and G.
fn bump_rgba8() -> Vec<u8> {
    let texels: Vec<[u8; 4]> = (0..128 * 128u32)
        .map(|i| {
            let (x, y) = (i % 128, i / 128);
            [128, (x * 2) as u8, (y * 2) as u8, ((x ^ y) * 2) as u8]
        })
        .collect();
    crate::texture::encode(crate::texture::Format::Rgba8, 128, 128, &texels).expect("RGBA8 holds every texel")
}

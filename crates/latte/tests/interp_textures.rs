//! `CpuTextures` with levels, arrays, 3D, cubes and depth compare, through TEX instructions
//! (latte-semantics-facts.md §4.1 and the decisions of docs/latte-interp.md, "Textures"),
//! against values worked out by hand.

mod interp;
use interp::*;
use latte::interp::{Compare, CpuTextures, Image, Inputs, Invocation, Sampler, Stage, TexKind, Wrap};
use std::sync::Arc;

fn inputs(img: Image, sampler: Sampler) -> Inputs {
    let mut t = CpuTextures::default();
    t.images.insert(0, img);
    t.samplers.insert(0, sampler);
    Inputs { textures: Some(Arc::new(t)), ..Inputs::default() }
}

/// A 4x4 2D image whose level k is filled with k.0 (levels 4x4, 2x2, 1x1).
fn mips(mip_linear: bool) -> Image {
    Image {
        kind: TexKind::D2,
        width: 4,
        height: 4,
        depth: 1,
        levels: vec![vec![[0.0; 4]; 16], vec![[1.0; 4]; 4], vec![[2.0; 4]; 1]],
        mip_linear,
        ..Image::default()
    }
}

/// Runs `tex` (TEX lines) on one vertex with R0 = `r0`; R1.x.
fn tex1(inputs: &Inputs, tex: &str, r0: [f32; 4]) -> f32 {
    let text = format!("00 TEX:\n{tex}\nEND_OF_PROGRAM\n");
    bf(run(&text, Stage::Vertex, inputs, &[inv(&[(0, r0.map(fb))])])[0].gprs[1][0])
}

/// §4.1 SAMPLE_L: the level is the LOD in w, clamped to the levels; the nearest level is
/// ceil(λ + ½) − 1 (Vulkan's rule), or the two nearest are blended with mip_linear.
#[test]
fn sample_l_selects_the_level_from_w() {
    let near = inputs(mips(false), Sampler::default());
    for (lod, want) in
        [(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (5.0, 2.0), (-1.0, 0.0), (0.6, 1.0), (0.5, 0.0), (1.49, 1.0)]
    {
        assert_eq!(tex1(&near, "0 SAMPLE_L R1, R0.xyzw, t0, s0", [0.3, 0.3, 0.0, lod]), want, "LOD {lod}");
    }
    let lin = inputs(mips(true), Sampler::default());
    assert_eq!(tex1(&lin, "0 SAMPLE_L R1, R0.xyzw, t0, s0", [0.3, 0.3, 0.0, 0.25]), 0.25);
    assert_eq!(tex1(&lin, "0 SAMPLE_L R1, R0.xyzw, t0, s0", [0.3, 0.3, 0.0, 1.5]), 1.5);
    assert_eq!(tex1(&lin, "0 SAMPLE_LZ R1, R0.xyzw, t0, s0", [0.3, 0.3, 0.0, 1.5]), 0.0, "LZ: level 0");
}

/// §4.1 SAMPLE_G: λ = log2 of the larger gradient length in texels, from SET_GRADIENTS_H / _V
/// of the same clause; SAMPLE_G_L takes w, SAMPLE_G_LB adds w.
#[test]
fn sample_g_takes_the_lod_from_the_gradients() {
    let near = inputs(mips(false), Sampler::default());
    let g = |h: [f32; 2], v: [f32; 2], op: &str, w: f32| {
        let text = format!(
            "00 TEX:\n0 SET_GRADIENTS_H R1, R2.xy__, t0, s0\n1 SET_GRADIENTS_V R1, R3.xy__, t0, s0\n\
             2 {op} R1, R0.xyzw, t0, s0\nEND_OF_PROGRAM\n"
        );
        let invs = [inv(&[
            (0, [fb(0.3), fb(0.3), 0, fb(w)]),
            (2, [fb(h[0]), fb(h[1]), 0, 0]),
            (3, [fb(v[0]), fb(v[1]), 0, 0]),
        ])];
        bf(run(&text, Stage::Vertex, &near, &invs)[0].gprs[1][0])
    };
    // ρ = max(0.5·4, 0.25·4) = 2: λ 1; ρ = 4: λ 2; ρ = 1: λ 0; no gradient: level 0.
    assert_eq!(g([0.5, 0.0], [0.0, 0.25], "SAMPLE_G", 0.0), 1.0);
    assert_eq!(g([0.0, 1.0], [0.0, 0.0], "SAMPLE_G", 0.0), 2.0);
    assert_eq!(g([0.25, 0.0], [0.0, 0.25], "SAMPLE_G", 0.0), 0.0);
    assert_eq!(g([0.0, 0.0], [0.0, 0.0], "SAMPLE_G", 0.0), 0.0);
    assert_eq!(g([0.0, 0.0], [0.0, 0.0], "SAMPLE_G_L", 2.0), 2.0);
    assert_eq!(g([0.5, 0.0], [0.0, 0.0], "SAMPLE_G_LB", 1.0), 2.0, "λ 1 + bias 1");
    assert_eq!(g([0.5, 0.0], [0.0, 0.0], "SAMPLE_G_LZ", 0.0), 0.0);
}

/// §4.1 implicit LOD: in a 2x2 quad SAMPLE and SAMPLE_LB take the coordinates' derivatives
/// across the quad; outside quads (a vertex program) the gradient is 0 and the level is 0.
#[test]
fn sample_takes_the_lod_from_the_quad() {
    let near = inputs(mips(false), Sampler::default());
    let quad = |du: f32, op: &str, bias: f32| {
        let invs: Vec<Invocation> = (0..4)
            .map(|l| inv(&[(0, [fb(0.1 + du * (l & 1) as f32), fb(0.1 + 0.25 * (l >> 1) as f32), 0, fb(bias)])]))
            .collect();
        let text = format!("00 TEX:\n0 {op} R1, R0.xyzw, t0, s0\nEND_OF_PROGRAM\n");
        run(&text, Stage::Pixel, &near, &invs).iter().map(|r| bf(r.gprs[1][0])).collect::<Vec<_>>()
    };
    assert_eq!(quad(0.25, "SAMPLE", 0.0), [0.0; 4], "one texel per pixel: λ 0");
    assert_eq!(quad(0.5, "SAMPLE", 0.0), [1.0; 4], "two texels per pixel: λ 1");
    assert_eq!(quad(1.0, "SAMPLE", 0.0), [2.0; 4]);
    assert_eq!(quad(0.25, "SAMPLE_LB", 1.0), [1.0; 4], "λ 0 + bias 1");
    assert_eq!(tex1(&near, "0 SAMPLE R1, R0.xyzw, t0, s0", [0.3, 0.3, 0.0, 0.0]), 0.0);
}

/// §4.1 2D arrays: the layer is z (unnormalized, DENORM(z)) rounded to nearest even and
/// clamped to the layers.
#[test]
fn array_layers() {
    let img = Image {
        kind: TexKind::D2Array,
        width: 1,
        height: 1,
        depth: 3,
        levels: vec![vec![[10.0; 4], [11.0; 4], [12.0; 4]]],
        ..Image::default()
    };
    let i = inputs(img, Sampler::default());
    for (z, want) in [(0.0, 10.0), (1.4, 11.0), (1.5, 12.0), (0.5, 10.0), (2.6, 12.0), (-3.0, 10.0)] {
        assert_eq!(tex1(&i, "0 SAMPLE R1, R0.xyzw, t0, s0 DENORM(z)", [0.5, 0.5, z, 0.0]), want, "z {z}");
    }
    let text = "00 TEX:\n0 GET_TEXTURE_INFO R1, R0.xxxx, t0, s0\nEND_OF_PROGRAM\n";
    assert_eq!(run(text, Stage::Vertex, &i, &[inv(&[])])[0].gprs[1], [1, 1, 3, 1]);
}

/// §4.1 3D: (s, t, r) normalized; nearest picks the slice, bilinear filtering is trilinear;
/// level 1 of a 2x2x2 image is 1x1x1. LD reads (x, y, slice) at the level in w.
#[test]
fn three_d_images() {
    let slice = |z: f32| vec![[z; 4]; 4];
    let img = Image {
        kind: TexKind::D3,
        width: 2,
        height: 2,
        depth: 2,
        levels: vec![[slice(0.0), slice(1.0)].concat(), vec![[7.0; 4]]],
        ..Image::default()
    };
    let near = inputs(img.clone(), Sampler::default());
    assert_eq!(tex1(&near, "0 SAMPLE_LZ R1, R0.xyzw, t0, s0", [0.2, 0.2, 0.75, 0.0]), 1.0);
    assert_eq!(tex1(&near, "0 SAMPLE_LZ R1, R0.xyzw, t0, s0", [0.2, 0.2, 0.25, 0.0]), 0.0);
    assert_eq!(tex1(&near, "0 SAMPLE_L R1, R0.xyzw, t0, s0", [0.2, 0.2, 0.25, 1.0]), 7.0);
    let lin = inputs(img.clone(), Sampler { linear: true, wrap: [Wrap::Clamp; 2] });
    assert_eq!(tex1(&lin, "0 SAMPLE_LZ R1, R0.xyzw, t0, s0", [0.5, 0.5, 0.5, 0.0]), 0.5, "halfway between the slices");
    assert_eq!(tex1(&lin, "0 SAMPLE_LZ R1, R0.xyzw, t0, s0", [0.5, 0.5, 0.625, 0.0]), 0.75);
    let text = "00 TEX:\n0 LD R1, R0.xyzw, t0, s0\n1 GET_TEXTURE_INFO R2, R0.wwww, t0, s0\nEND_OF_PROGRAM\n";
    let g = &run(text, Stage::Vertex, &near, &[inv(&[(0, [1, 0, 1, 0])])])[0].gprs;
    assert_eq!((bf(g[1][0]), g[2]), (1.0, [2, 2, 2, 2]));
    let g = &run(text, Stage::Vertex, &near, &[inv(&[(0, [1, 0, 1, 1])])])[0].gprs;
    assert_eq!((bf(g[1][0]), g[2]), (7.0, [1, 1, 1, 2]), "level 1");
}

/// §3 CUBE then §4.1 cube sampling, as Mesa emits it: (sc/|2ma| + 1.5, tc/|2ma| + 1.5, face)
/// with z unnormalized. Direction (0.3, −0.9, 0.2): face −Y (3), sc = x = 0.3, tc = −z = −0.2,
/// so (u, v) = (0.667, 0.389): texel (1, 0) of that face's 2x2 image.
#[test]
fn cube_through_the_cube_instruction() {
    let mut texels = Vec::new();
    for face in 0..6 {
        for k in 0..4 {
            texels.push([(10 * face + k) as f32; 4]);
        }
    }
    let img = Image { kind: TexKind::Cube, width: 2, height: 2, depth: 6, levels: vec![texels], ..Image::default() };
    let i = inputs(img, Sampler::default());
    let text = "00 ALU:\n0 x: CUBE R1.x, R0.z, R0.y\n  y: CUBE R1.y, R0.z, R0.x\n  z: CUBE R1.z, R0.x, R0.z\n  \
                w: CUBE R1.w, R0.y, R0.z\n1 t: RECIP_IEEE R2.x, |PV0.z|\n\
                2 x: MULADD_IEEE R3.x, R1.y, PS1, 0x3FC00000\n  y: MULADD_IEEE R3.y, R1.x, PS1, 0x3FC00000\n  \
                z: MOV R3.z, R1.w\n01 TEX:\n3 SAMPLE_LZ R4, R3.xyz0, t0, s0 DENORM(z)\nEND_OF_PROGRAM\n";
    let dir =
        |d: [f32; 3]| bf(run(text, Stage::Vertex, &i, &[inv(&[(0, [fb(d[0]), fb(d[1]), fb(d[2]), 0])])])[0].gprs[4][0]);
    assert_eq!(dir([0.3, -0.9, 0.2]), 31.0);
    // +X (0): sc = −z, tc = −y; (1, 0.1, 0.2) → u = 0.4, v = 0.45: texel (0, 0).
    assert_eq!(dir([1.0, 0.1, 0.2]), 0.0);
    // +Z (4): sc = x, tc = −y; (0.5, −0.5, 1) → u = 0.75, v = 0.75: texel (1, 1).
    assert_eq!(dir([0.5, -0.5, 1.0]), 43.0);
    // −Z (5): sc = −x, tc = −y; (0.5, 0.5, −1) → u = 0.25, v = 0.25: texel (0, 0).
    assert_eq!(dir([0.5, 0.5, -1.0]), 50.0);
}

/// §4.1 SAMPLE_C*: each texel's r is compared with the reference (w; z for C_L, where w is the
/// LOD), `reference <= texel` by default, then filtered; the result is (r, 0, 0, 1).
#[test]
fn shadow_compare() {
    let depth = |compare| Image {
        kind: TexKind::D2,
        width: 2,
        height: 1,
        depth: 1,
        levels: vec![vec![[0.3; 4], [0.7; 4]]],
        compare,
        ..Image::default()
    };
    let near = inputs(depth(None), Sampler::default());
    assert_eq!(tex1(&near, "0 SAMPLE_C R1, R0.xyzw, t0, s0", [0.25, 0.5, 0.0, 0.5]), 0.0, "0.5 <= 0.3 fails");
    assert_eq!(tex1(&near, "0 SAMPLE_C R1, R0.xyzw, t0, s0", [0.75, 0.5, 0.0, 0.5]), 1.0, "0.5 <= 0.7 passes");
    assert_eq!(tex1(&near, "0 SAMPLE_C_LZ R1, R0.xyzw, t0, s0", [0.75, 0.5, 0.0, 0.8]), 0.0);
    assert_eq!(tex1(&near, "0 SAMPLE_C_L R1, R0.xyzw, t0, s0", [0.75, 0.5, 0.5, 0.0]), 1.0, "reference in z");
    let text = "00 TEX:\n0 SAMPLE_C R1, R0.xyzw, t0, s0\nEND_OF_PROGRAM\n";
    let r = run(text, Stage::Vertex, &near, &[inv(&[(0, [fb(0.75), fb(0.5), 0, fb(0.5)])])]);
    assert_eq!(r[0].gprs[1], [fb(1.0), 0, 0, fb(1.0)]);
    let pcf = inputs(depth(None), Sampler { linear: true, wrap: [Wrap::Clamp; 2] });
    assert_eq!(tex1(&pcf, "0 SAMPLE_C R1, R0.xyzw, t0, s0", [0.5, 0.5, 0.0, 0.5]), 0.5, "filtered after the compare");
    let gt = inputs(depth(Some(Compare::Greater)), Sampler::default());
    assert_eq!(tex1(&gt, "0 SAMPLE_C R1, R0.xyzw, t0, s0", [0.25, 0.5, 0.0, 0.5]), 1.0);
    let never = inputs(depth(Some(Compare::Never)), Sampler::default());
    assert_eq!(tex1(&never, "0 SAMPLE_C R1, R0.xyzw, t0, s0", [0.75, 0.5, 0.0, 0.0]), 0.0);
}

/// A level with fewer texels than its size needs is an input error, not a panic.
#[test]
fn short_levels_are_errors() {
    let mut img = mips(false);
    img.levels[1].pop();
    let i = inputs(img, Sampler::default());
    let e = try_run("00 TEX:\n0 SAMPLE_L R1, R0.xyzw, t0, s0\nEND_OF_PROGRAM\n", Stage::Vertex, &i, &[inv(&[])])
        .unwrap_err();
    assert!(e.to_string().contains("level 1"), "{e}");
}

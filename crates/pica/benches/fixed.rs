//! The fixed-function fragment reference's cost per fragment, with lighting and the procedural
//! texture beside the reference point of the same pipeline without them.
//!
//! Each bench runs `fixed::run` on 1024 fragments with varied inputs (colours, coordinates,
//! quaternions, view vectors) and random LUT contents:
//! - `unlit`: stage 0 modulates the primary colour by texture 0, the other stages pass (the
//!   reference point);
//! - `lit_2_lights`: the same plus fragment lighting, two positional lights, D0 and the RR, RG, RB
//!   reflection LUTs (configuration 4), stage 1 adding the secondary colour;
//! - `lit_8_lights_all_luts`: eight lights, configuration 8, every LUT, spots, distance
//!   attenuation, geometric factors, Fresnel, shadows from texture 0, a tangent map;
//! - `proctex`: unit 3 with noise, linear colour filter, mip-linear LOD.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica::fixed::{self, FragmentInputs, FragmentKey, FragmentUniforms, TexelRequest};
use pica::state::GpuState;

const FRAGMENTS: usize = 1024;

fn hash(i: u64) -> u64 {
    let mut h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h = (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 29)
}

fn unit(i: u64) -> f32 {
    (hash(i) >> 40) as f32 / (1u64 << 24) as f32
}

fn base() -> GpuState {
    let mut s = GpuState::new();
    s.regs[0x06D] = 1;
    s.regs[0x080] = 1;
    s.regs[0x0C0] = 0x0003_0030; // stage 0: primary colour * texture 0
    s.regs[0x0C2] = 0x0001_0001;
    for b in [0x0C8usize, 0x0D0, 0x0D8, 0x0F0, 0x0F8] {
        s.regs[b] = 0x00F0_00F0;
    }
    for (t, table) in Arc::make_mut(&mut s.memories.lighting).iter_mut().enumerate() {
        for (i, e) in table.iter_mut().enumerate() {
            *e = (hash((t * 256 + i) as u64) as u32) & 0xFF_FFFF;
        }
    }
    let p = Arc::make_mut(&mut s.memories.proctex);
    for (i, e) in p.noise.iter_mut().chain(p.rgb_map.iter_mut()).chain(p.color.iter_mut()).enumerate() {
        *e = hash(i as u64 + 99) as u32;
    }
    s
}

fn lit(mut s: GpuState, lights: u32, config: u32, all: bool) -> GpuState {
    s.regs[0x08F] = 1;
    s.regs[0x1C6] = 0;
    s.regs[0x1C2] = lights - 1;
    s.regs[0x1D9] = 0x7654_3210;
    s.regs[0x1C3] = config << 4 | if all { 1 | 3 << 2 | 1 << 16 | 1 << 17 | 1 << 19 | 2 << 28 } else { 0 };
    s.regs[0x1C4] = if all { 0 } else { 0xFF0F_FFFF & !(1 << 16) & !(7 << 20) | 1 << 17 | 1 << 19 };
    s.regs[0x1D1] = 0x0321_0321;
    for id in 0..8 {
        let b = 0x140 + 0x10 * id;
        s.regs[b] = 0x0FF3_FCFF;
        s.regs[b + 1] = 0x0803_0180;
        s.regs[b + 2] = 0x0C83_2080;
        s.regs[b + 3] = 0x0100_4010;
        s.regs[b + 4] = 0x3C00_3800 + id as u32;
        s.regs[b + 5] = 0x3C00;
        s.regs[b + 7] = 0x7FF;
        s.regs[b + 9] = if all { 0xE } else { 0 };
        s.regs[b + 0xB] = 0x3C000;
    }
    s.regs[0x0C8] = 0x0020_0F2F; // stage 1: previous + fragment primary, alpha previous
    s.regs[0x0CA] = 0x0000_0002;
    s
}

fn proctex(mut s: GpuState) -> GpuState {
    s.regs[0x080] |= 1 << 10;
    s.regs[0x0C0] = 0x0006_0006; // stage 0: replace texture 3
    s.regs[0x0C2] = 0;
    s.regs[0x0A8] = 3 | 3 << 3 | 9 << 6 | 1 << 15 | 1 << 16;
    s.regs[0x0A9] = 0x0000_0400;
    s.regs[0x0AA] = 0x0000_0400;
    s.regs[0x0AB] = 0x4000_4000;
    s.regs[0x0AC] = 5 | 7 << 7 | 128 << 11 | 0x3C << 19;
    s.regs[0x0AD] = 0xE0C0_8000;
    s
}

fn inputs() -> Vec<FragmentInputs> {
    (0..FRAGMENTS as u64)
        .map(|i| {
            let u = |k: u64| unit(i * 16 + k);
            FragmentInputs {
                color: [u(0), u(1), u(2), u(3)],
                texcoord: [[u(4), u(5)], [u(6), u(7)], [u(8), u(9)]],
                texcoord0_w: 1.0,
                normquat: [u(10) - 0.5, u(11) - 0.5, u(12) - 0.5, 1.0],
                view: [u(13) - 0.5, u(14) - 0.5, 1.0 + u(15)],
                z_over_w: u(4),
                w: 1.0,
                proctex_duv: [u(5) * 0.01, u(6) * 0.01],
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let frags = inputs();
    let cases = [
        ("unlit", base()),
        ("lit_2_lights", lit(base(), 2, 4, false)),
        ("lit_8_lights_all_luts", lit(base(), 8, 8, true)),
        ("proctex", proctex(base())),
    ];
    let mut g = c.benchmark_group("fixed");
    g.throughput(Throughput::Elements(FRAGMENTS as u64));
    for (name, s) in &cases {
        let key = FragmentKey::from_state(s);
        let u = FragmentUniforms::from_state(s);
        assert_eq!(key.lighting.enabled, name.starts_with("lit"), "{name}");
        assert_eq!(key.proctex.enabled, *name == "proctex", "{name}");
        let mut sampler = |r: TexelRequest| [200, 100, 50, r.unit as u8 * 60 + 100];
        g.bench_function(*name, |b| {
            b.iter(|| {
                let mut acc = 0u32;
                for f in &frags {
                    if let fixed::FragmentResult::Color { rgba, .. } = fixed::run(&key, &u, f, &mut sampler) {
                        acc = acc.wrapping_add(u32::from_le_bytes(rgba));
                    }
                }
                acc
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

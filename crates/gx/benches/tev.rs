//! Evaluator throughput for 1-, 4- and 16-stage materials, in pixels per second.
//!
//! `cargo bench -p gx --bench tev -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gx::regs::*;
use gx::{BpRegs, Evaluator, PixelInputs, TevState};

/// A material of `n` stages mixing the combiner paths: lerps with bias and scale, subtract,
/// compare modes, konst inputs, swap tables, and an indirect stage feeding every other stage.
fn material(n: usize) -> TevState {
    let mut r = BpRegs::new();
    r.write(
        0x00,
        GenMode {
            num_texgens: 2,
            num_colchans: 1,
            num_tevstages_minus_1: (n - 1) as u8,
            cull_mode: 0,
            num_indstages: 1,
        }
        .encode(),
    );
    r.write(0xE0, TevRegRa { r: 200, a: 100, konst: true }.encode());
    r.write(0xE1, TevRegBg { b: 50, g: 25, konst: true }.encode());
    r.write(0xE2, TevRegRa { r: -20, a: 300, konst: false }.encode());
    r.write(0x06, IndMtxAB { row0: 512, row1: 0, scale_bits: 1 }.encode());
    r.write(0x07, IndMtxAB { row0: 0, row1: 512, scale_bits: 0 }.encode());
    r.write(0x08, IndMtxC { row0: 0, row1: 0, scale_bit4: 1, scale_bit5_ignored: 0 }.encode());
    r.write(0x27, Ras1Iref { bi0: 1, bc0: 1, ..Default::default() }.encode());
    for t in 0..4u8 {
        r.write(
            0xF6 + 2 * t,
            TevKSel {
                swap1: [0, 0, 1, 2][t as usize],
                swap2: [1, 0, 1, 2][t as usize],
                kcsel0: 12,
                kasel0: 28,
                kcsel1: 3,
                kasel1: 16,
            }
            .encode(),
        );
        r.write(
            0xF7 + 2 * t,
            TevKSel { swap1: [2, 0, 1, 2][t as usize], swap2: 3, kcsel0: 13, kasel0: 2, kcsel1: 20, kasel1: 29 }
                .encode(),
        );
    }
    for i in 0..n as u8 {
        if i % 2 == 0 {
            r.write(
                0x28 + i / 2,
                TwoTevStageOrders {
                    texmap0: 0,
                    texcoord0: 0,
                    enable0: true,
                    colorchan0: 0,
                    texmap1: 1,
                    texcoord1: 1,
                    enable1: true,
                    colorchan1: 5,
                }
                .encode(),
            );
        }
        let k = i % 4;
        let (bias, op, scale) = [(0, 0, 0), (1, 1, 1), (3, 0, 1), (2, 0, 3)][k as usize];
        r.write(
            0xC0 + 2 * i,
            ColorCombiner {
                a: 0,
                b: 8,
                c: 10,
                d: [15, 14, 2, 0][k as usize],
                bias,
                op,
                clamp: k != 1,
                scale,
                dest: if i + 1 == n as u8 { 0 } else { k % 3 },
            }
            .encode(),
        );
        r.write(
            0xC1 + 2 * i,
            AlphaCombiner { rswap: k, tswap: 3 - k, a: 0, b: 4, c: 5, d: 6, bias, op, clamp: true, scale, dest: 0 }
                .encode(),
        );
        r.write(
            0x10 + i,
            TevStageIndirect {
                bt: 0,
                fmt: 0,
                bias: 7,
                bs: 1,
                mtx_index: i % 2,
                sw: 3,
                tw: 3,
                fb_addprev: i % 2 == 1,
                ..Default::default()
            }
            .encode(),
        );
    }
    r.write(0xF3, AlphaTest { ref0: 64, ref1: 200, comp0: 4, comp1: 1, logic: 0 }.encode());
    r.state()
}

fn pixels(count: usize, stages: usize) -> Vec<PixelInputs> {
    let mut rng = testkit::Rng::new(0x1234_5678);
    let mut next = move || rng.next_u32();
    (0..count)
        .map(|_| {
            let mut p = PixelInputs { tex: (0..stages).map(|_| next().to_le_bytes()).collect(), ..Default::default() };
            p.ras = [next().to_le_bytes(), next().to_le_bytes()];
            p.ind_tex[0] = next().to_le_bytes();
            p.texcoords[0] = [(next() & 0xFFFFF) as i32, (next() & 0xFFFFF) as i32];
            p.texcoords[1] = [(next() & 0xFFFFF) as i32, (next() & 0xFFFFF) as i32];
            p
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("tev_eval");
    const BATCH: usize = 1024;
    for n in [1usize, 4, 16] {
        let ev = Evaluator::new(&material(n));
        let px = pixels(BATCH, n);
        g.throughput(Throughput::Elements(BATCH as u64));
        g.bench_function(format!("{n}_stages"), |b| {
            b.iter(|| {
                let mut acc = 0u32;
                for p in &px {
                    let o = ev.eval(black_box(p));
                    acc = acc.wrapping_add(o.color[0] as u32 + o.alpha as u32 + o.alpha_pass as u32);
                }
                acc
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

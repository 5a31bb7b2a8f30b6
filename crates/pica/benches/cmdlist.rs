//! Command list decode rate: a synthetic frame shaped like a driver's (a vertex shader upload, a
//! lighting LUT, float uniforms in f32 mode, TexEnv and framebuffer setup as single and masked
//! writes, then 64 draws each with a few uniform and register changes). Throughput is in list
//! words per second (padding and headers included).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica::regs::cmdlist::{CommandList, Reader, Writer};
use pica::regs::table;
use pica::state::GpuState;

fn frame() -> Vec<u32> {
    let mut w = Writer::new();
    w.write(0x2CB, 0).repeated(0x2CC, &(0..512).map(|i| 0x4C00_0000 | i).collect::<Vec<_>>());
    w.write(0x2D5, 0).repeated(0x2D6, &(0..128).collect::<Vec<_>>());
    w.write(0x1C5, 0).repeated(0x1C8, &(0..256).map(|i| i * 0x1001).collect::<Vec<_>>());
    for stage in 0..6u16 {
        let base = if stage < 4 { 0xC0 + stage * 8 } else { 0xF0 + (stage - 4) * 8 };
        w.consecutive(base, &[0x000E_0003, 0, 0x0001_0001, 0xFFFF_FFFF, 0]);
    }
    w.masked(0xE0, 0x2, 0x0000_0F00).masked(0x107, 0x3, 0x1F61).write(0x104, 0x8051);
    for draw in 0..64u32 {
        let mut uniforms = vec![0x8000_0000u32];
        uniforms.extend((0..16).map(|i| (i as f32 + draw as f32).to_bits()));
        w.consecutive(0x2C0, &uniforms);
        w.write(0x245, 1).write(0x228, 3 * (draw + 1)).write(0x22A, 0).write(0x253, 1);
        w.write(0x245, 0).write(0x22E, 1).write(0x253, 0).write(0x231, 1);
    }
    w.write(0x111, 1).write(0x110, 1).write(0x10, 0x1234_5678);
    w.finish().to_words()
}

fn bench(c: &mut Criterion) {
    let words = frame();
    let mut g = c.benchmark_group("cmdlist");
    g.throughput(Throughput::Elements(words.len() as u64));
    g.bench_function("read_list", |b| b.iter(|| CommandList::read_words(&words).expect("reads").commands.len()));
    g.bench_function("stream_writes", |b| {
        b.iter(|| {
            Reader::new(&words)
                .map(|c| c.expect("reads").command.writes().fold(0u32, |a, w| a ^ w.value))
                .fold(0, |a, x| a ^ x)
        })
    });
    g.bench_function("apply_to_state", |b| {
        b.iter(|| {
            let mut s = GpuState::new();
            s.apply_words(&words).expect("reads");
            s.draws.len()
        })
    });
    let list = CommandList::read_words(&words).expect("reads");
    let writes: Vec<_> = list.writes().collect();
    g.bench_function("format_every_write", |b| {
        b.iter(|| writes.iter().map(|w| table::layout(w.id).format(w.value).len()).sum::<usize>())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

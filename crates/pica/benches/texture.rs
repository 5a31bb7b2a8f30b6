//! Texture decode and encode rates (texels per second) and the ETC1 encoder's quality.
//!
//! Rates: RGBA8 and ETC1 decoding of a 256x256 texture beside a plain copy of the same number
//! of RGBA8 bytes (the reference: what any decoder must at least do), and ETC1 encoding at both
//! qualities. Quality: PSNR (RGB) of the three pictures of `texture_images.rs` at 128x128 for
//! the fast and high searches, and, at 64x64, beside an exhaustive individual-mode search
//! (every 4-bit base colour with every table for each sub-block and both flips), printed once
//! before the timings. With SHADERPORT_TEXTURE_DUMP=DIR the 128x128 pictures are also written
//! there as raw RGBA (`NAME.rgba`) for scripts/etc1-etcpak-psnr.py.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pica::regs::layouts::TextureFormat;
use pica::texture::etc1::{decode_block, modifier};
use pica::texture::{decode, encode_with, psnr_rgb, Image, Quality};

#[path = "texture_images.rs"]
mod images;

/// The best individual-mode block by exhaustive search (reference quality only).
fn exhaustive_individual(texels: &[[u8; 3]; 16]) -> u64 {
    let mut best = (u64::MAX, 0u64);
    for flip in [false, true] {
        let (mut hi, mut lo, mut total) = (u32::from(flip), 0u32, 0u64);
        for half in 0..2 {
            let mut fit = (u64::MAX, 0u32, 0u32, 0u32);
            for base in 0..4096u32 {
                let c = [(base >> 8) * 17, ((base >> 4) & 15) * 17, (base & 15) * 17].map(|v| v as i32);
                for table in 0..8 {
                    let (mut err, mut bits) = (0u64, 0u32);
                    for y in 0..4 {
                        for x in 0..4 {
                            if usize::from(if flip { y >= 2 } else { x >= 2 }) != half {
                                continue;
                            }
                            let p = texels[y * 4 + x].map(i32::from);
                            let (e, i) = (0..4)
                                .map(|i| {
                                    let m = modifier(table, i);
                                    ((0..3).map(|k| ((c[k] + m).clamp(0, 255) - p[k]).pow(2) as u64).sum::<u64>(), i)
                                })
                                .min()
                                .unwrap();
                            err += e;
                            let k = x * 4 + y;
                            bits |= ((i as u32 >> 1) << (16 + k)) | ((i as u32 & 1) << k);
                        }
                    }
                    if err < fit.0 {
                        fit = (err, base, table as u32, bits);
                    }
                }
            }
            let (err, base, table, bits) = fit;
            total += err;
            lo |= bits;
            let shift = if half == 0 { 4 } else { 0 };
            hi |= (base >> 8) << (24 + shift) | ((base >> 4) & 15) << (16 + shift) | (base & 15) << (8 + shift);
            hi |= table << if half == 0 { 5 } else { 2 };
        }
        if total < best.0 {
            best = (total, u64::from(hi) << 32 | u64::from(lo));
        }
    }
    best.1
}

fn exhaustive_psnr(image: &Image) -> f64 {
    let mut out = Image::new(image.width, image.height);
    for by in 0..image.height / 4 {
        for bx in 0..image.width / 4 {
            let mut t = [[0u8; 3]; 16];
            for (i, texel) in t.iter_mut().enumerate() {
                let p = image.pixel(bx * 4 + i as u32 % 4, by * 4 + i as u32 / 4);
                *texel = [p[0], p[1], p[2]];
            }
            for (i, c) in decode_block(exhaustive_individual(&t)).iter().enumerate() {
                out.set_pixel(bx * 4 + i as u32 % 4, by * 4 + i as u32 / 4, [c[0], c[1], c[2], 255]);
            }
        }
    }
    psnr_rgb(image, &out).unwrap()
}

fn etc1_psnr(image: &Image, quality: Quality) -> f64 {
    let bytes = encode_with(TextureFormat::Etc1, image, quality).unwrap();
    psnr_rgb(image, &decode(TextureFormat::Etc1, image.width, image.height, &bytes).unwrap()).unwrap()
}

fn report_quality() {
    let dump = std::env::var_os("SHADERPORT_TEXTURE_DUMP");
    println!("ETC1 PSNR (RGB, dB)");
    println!(
        "{:<10} {:>12} {:>12} {:>10} {:>10} {:>22}",
        "picture", "fast 128", "high 128", "fast 64", "high 64", "exhaustive-indiv. 64"
    );
    for ((name, big), (_, small)) in images::all(128).into_iter().zip(images::all(64)) {
        if let Some(dir) = &dump {
            std::fs::write(std::path::Path::new(dir).join(format!("{name}.rgba")), &big.pixels).expect("dump");
        }
        println!(
            "{:<10} {:>12.2} {:>12.2} {:>10.2} {:>10.2} {:>22.2}",
            name,
            etc1_psnr(&big, Quality::Fast),
            etc1_psnr(&big, Quality::High),
            etc1_psnr(&small, Quality::Fast),
            etc1_psnr(&small, Quality::High),
            exhaustive_psnr(&small)
        );
    }
}

/// This thread's time on a CPU in ns (Linux), so that rates can also be given per CPU second
/// on a machine shared with other work; `None` elsewhere.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

/// Texels per CPU second of `f` (run on `texels` texels) over at least half a CPU second: the
/// kernel's per-thread figure advances in scheduler steps, so short spans read as nothing.
fn cpu_rate(texels: u64, mut f: impl FnMut()) -> Option<f64> {
    let t0 = cpu_ns()?;
    let mut runs = 0u64;
    loop {
        f();
        runs += 1;
        let spent = cpu_ns()? - t0;
        if spent >= 500_000_000 || runs >= 1_000_000 {
            return Some(runs as f64 * texels as f64 / (spent.max(1) as f64 * 1e-9));
        }
    }
}

fn bench(c: &mut Criterion) {
    report_quality();
    const SIZE: u32 = 256;
    let texels = u64::from(SIZE * SIZE);
    let photo = images::photo(SIZE);
    let rgba8 = encode_with(TextureFormat::Rgba8, &photo, Quality::High).unwrap();
    let etc1 = encode_with(TextureFormat::Etc1, &photo, Quality::High).unwrap();

    let copy = || {
        let mut out = Image::new(SIZE, SIZE);
        out.pixels.copy_from_slice(std::hint::black_box(&rgba8));
        std::hint::black_box(out);
    };
    let rates = [
        ("copy_rgba8_reference", cpu_rate(texels, copy)),
        ("rgba8", cpu_rate(texels, || drop(std::hint::black_box(decode(TextureFormat::Rgba8, SIZE, SIZE, &rgba8))))),
        ("etc1", cpu_rate(texels, || drop(std::hint::black_box(decode(TextureFormat::Etc1, SIZE, SIZE, &etc1))))),
    ];
    for (name, rate) in rates {
        if let Some(r) = rate {
            println!("texture_decode/{name}: {:.1} M texels per CPU second", r / 1e6);
        }
    }

    let mut g = c.benchmark_group("texture_decode");
    g.throughput(Throughput::Elements(texels));
    g.bench_function("copy_rgba8_reference", |b| {
        b.iter(|| {
            let mut out = Image::new(SIZE, SIZE);
            out.pixels.copy_from_slice(std::hint::black_box(&rgba8));
            out
        })
    });
    g.bench_function("rgba8", |b| b.iter(|| decode(TextureFormat::Rgba8, SIZE, SIZE, &rgba8).unwrap()));
    g.bench_function("etc1", |b| b.iter(|| decode(TextureFormat::Etc1, SIZE, SIZE, &etc1).unwrap()));
    g.finish();

    let small = images::photo(64);
    let mut g = c.benchmark_group("texture_encode");
    g.throughput(Throughput::Elements(64 * 64));
    g.sample_size(10);
    g.bench_function("etc1_fast", |b| b.iter(|| encode_with(TextureFormat::Etc1, &small, Quality::Fast).unwrap()));
    g.bench_function("etc1_high", |b| b.iter(|| encode_with(TextureFormat::Etc1, &small, Quality::High).unwrap()));
    g.bench_function("rgba8", |b| b.iter(|| encode_with(TextureFormat::Rgba8, &small, Quality::High).unwrap()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

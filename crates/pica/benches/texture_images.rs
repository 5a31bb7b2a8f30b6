//! The three deterministic test pictures of the texture benchmarks and quality tests: a smooth
//! gradient, a photo-like picture (soft shapes, shading and grain) and a sharp-edged pattern.

#![allow(dead_code)]

use pica::texture::Image;

/// A small deterministic hash of a texel position, 0..=255.
fn hash(x: u32, y: u32, seed: u32) -> u32 {
    let mut h = x.wrapping_mul(0x9E37_79B9) ^ y.wrapping_mul(0x85EB_CA6B) ^ seed.wrapping_mul(0xC2B2_AE35);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    h & 0xFF
}

fn picture(size: u32, f: impl Fn(f64, f64, u32, u32) -> [f64; 3]) -> Image {
    let mut image = Image::new(size, size);
    for y in 0..size {
        for x in 0..size {
            let (u, v) = (x as f64 / size as f64, y as f64 / size as f64);
            let c = f(u, v, x, y).map(|c| c.round().clamp(0.0, 255.0) as u8);
            image.set_pixel(x, y, [c[0], c[1], c[2], 255]);
        }
    }
    image
}

/// Smooth colour ramps in two directions.
pub fn gradient(size: u32) -> Image {
    picture(size, |u, v, _, _| [255.0 * u, 255.0 * v, 255.0 * (1.0 - 0.5 * (u + v))])
}

/// Soft-edged discs over a shaded background, with a little grain: what a photo's blocks look
/// like to a block encoder.
pub fn photo(size: u32) -> Image {
    picture(size, |u, v, x, y| {
        let mut c = [
            90.0 + 60.0 * (u * 5.0).sin() * (v * 3.0).cos(),
            110.0 + 50.0 * (v * 4.0 + u).sin(),
            70.0 + 40.0 * ((u - v) * 6.0).cos(),
        ];
        for (cx, cy, r, col) in [
            (0.3, 0.35, 0.18, [220.0, 180.0, 140.0]),
            (0.7, 0.6, 0.22, [60.0, 90.0, 200.0]),
            (0.45, 0.8, 0.12, [200.0, 60.0, 50.0]),
        ] {
            let d = ((u - cx) * (u - cx) + (v - cy) * (v - cy)).sqrt();
            let w = ((r - d) / 0.02).clamp(0.0, 1.0);
            let shade = 1.0 - 0.6 * (d / r).min(1.0).powi(2);
            for k in 0..3 {
                c[k] = c[k] * (1.0 - w) + col[k] * shade * w;
            }
        }
        let grain = hash(x, y, 1) as f64 / 255.0 * 12.0 - 6.0;
        c.map(|v| v + grain)
    })
}

/// Saturated stripes, a checkerboard and thin lines: hard edges inside blocks.
pub fn sharp(size: u32) -> Image {
    picture(size, |_, _, x, y| {
        if (x / 3) % 4 == 0 || y % 11 == 0 {
            [255.0, 255.0, 255.0]
        } else if (x / 8 + y / 8) % 2 == 0 {
            [230.0, 30.0, 20.0]
        } else if (x + y) % 16 < 8 {
            [20.0, 40.0, 210.0]
        } else {
            [10.0, 10.0, 10.0]
        }
    })
}

/// The three pictures with their names.
pub fn all(size: u32) -> [(&'static str, Image); 3] {
    [("gradient", gradient(size)), ("photo", photo(size)), ("sharp", sharp(size))]
}

//! The GX part of the demo: a two-stage TEV material evaluated with the integer reference over a
//! picture's worth of pixels (a checkerboard texture, a rasterized colour gradient), written as a
//! PNG.
//!
//! Stage 0 modulates the texture by the rasterized colour (`TEXC * RASC`); stage 1 mixes the
//! result halfway towards konst colour K0 (`lerp(CPREV, KONST, HALF)`). Inputs per
//! docs/specs/hollywood-tev-facts.md ("Inputs") and the register layouts of crates/gx.

use std::fmt::Write;
use std::path::Path;
use std::time::Instant;

use gx::regs::{AlphaCombiner, ColorCombiner, GenMode, TevKSel, TevRegBg, TevRegRa, TwoTevStageOrders};
use gx::{BpRegs, Evaluator, PixelInputs, TevState};

/// The picture's side in pixels.
pub const SIZE: u32 = 128;

/// Input selectors (crates/gx `COLOR_INPUTS`, `ALPHA_INPUTS`).
const CPREV: u8 = 0;
const TEXC: u8 = 8;
const RASC: u8 = 10;
const HALF: u8 = 13;
const KONST: u8 = 14;
const ZERO: u8 = 15;
const A_TEXA: u8 = 4;
const A_ZERO: u8 = 7;
/// Konst colour selector K0 (crates/gx `KCSEL`).
const KCSEL_K0: u8 = 12;

/// The demo material as BP register writes.
fn material() -> TevState {
    let mut r = BpRegs::new();
    r.write(
        0x00,
        GenMode { num_texgens: 1, num_colchans: 1, num_tevstages_minus_1: 1, cull_mode: 0, num_indstages: 0 }.encode(),
    );
    // K0 = a deep blue.
    r.write(0xE0, TevRegRa { r: 40, a: 255, konst: true }.encode());
    r.write(0xE1, TevRegBg { b: 220, g: 60, konst: true }.encode());
    // Swap table 0 is the identity (R, G, B, A); stage 1 takes K0 as its konst colour.
    r.write(0xF6, TevKSel { swap1: 0, swap2: 1, kcsel0: 0, kasel0: 0, kcsel1: KCSEL_K0, kasel1: 0 }.encode());
    r.write(0xF7, TevKSel { swap1: 2, swap2: 3, kcsel0: 0, kasel0: 0, kcsel1: 0, kasel1: 0 }.encode());
    r.write(
        0x28,
        TwoTevStageOrders {
            texmap0: 0,
            texcoord0: 0,
            enable0: true,
            colorchan0: 0,
            texmap1: 0,
            texcoord1: 0,
            enable1: false,
            colorchan1: 0,
        }
        .encode(),
    );
    let stage = |a, b, c, d| ColorCombiner { a, b, c, d, bias: 0, op: 0, clamp: true, scale: 0, dest: 0 };
    r.write(0xC0, stage(ZERO, TEXC, RASC, ZERO).encode());
    r.write(0xC2, stage(CPREV, KONST, HALF, ZERO).encode());
    let alpha = AlphaCombiner {
        rswap: 0,
        tswap: 0,
        a: A_ZERO,
        b: A_ZERO,
        c: A_ZERO,
        d: A_TEXA,
        bias: 0,
        op: 0,
        clamp: true,
        scale: 0,
        dest: 0,
    };
    r.write(0xC1, alpha.encode());
    r.write(0xC3, AlphaCombiner { d: 0, ..alpha }.encode());
    r.state()
}

/// The inputs of pixel (x, y): an 8x8-texel checkerboard and a red/green gradient.
fn inputs(x: u32, y: u32) -> PixelInputs {
    let light = ((x / 16) + (y / 16)).is_multiple_of(2);
    let texel = if light { [255, 240, 200, 255] } else { [90, 80, 70, 255] };
    let ras = [(x * 255 / (SIZE - 1)) as u8, (y * 255 / (SIZE - 1)) as u8, 128, 255];
    PixelInputs { tex: vec![texel, texel], ras: [ras, [0; 4]], ..Default::default() }
}

/// Evaluates the material over the picture and writes `out/tev.png`; one table line. True when
/// a check failed.
pub fn demo(table: &mut String, out: &Path) -> bool {
    let state = material();
    let eval = Evaluator::new(&state);
    let t0 = Instant::now();
    let mut rgb = Vec::with_capacity((SIZE * SIZE * 3) as usize);
    for y in 0..SIZE {
        for x in 0..SIZE {
            rgb.extend_from_slice(&eval.eval(&inputs(x, y)).color);
        }
    }
    let elapsed = t0.elapsed();
    // One pixel computed by hand with facts "Regular stage" (c' = c + (c >> 7); lerp = a(256 - c')
    // + b c'; + 128; >> 8): the light texel (255,240,200) times the corner colour (255,255,128)
    // is (255,240,101); halfway (HALF = 128, c' = 129) towards K0 (40,60,220) gives (147,149,161).
    let corner = eval.eval(&inputs(SIZE - 1, SIZE - 1)).color;
    let _ = writeln!(table, "\n{:<24} {:>7} {:>10}  {:<10} file", "gx material", "stages", "time", "picture");
    let path = out.join("tev.png");
    let written = write_png(&path, &rgb);
    let ok = written.is_ok() && corner == [147, 149, 161];
    let _ = writeln!(
        table,
        "{:<24} {:>7} {:>8.1}us  {:<10} {}",
        "modulate + konst mix",
        state.gen_mode.num_tevstages_minus_1 + 1,
        elapsed.as_secs_f64() * 1e6,
        if ok { format!("{SIZE}x{SIZE}") } else { format!("FAILED corner {corner:?}") },
        match written {
            Ok(()) => path.display().to_string(),
            Err(e) => format!("FAILED {e}"),
        }
    );
    let etc1_ok = etc1(table, &rgb, out);
    !ok || !etc1_ok
}

/// The same picture as a 3DS ETC1 texture (pica::texture): encoded, decoded back and written as a
/// PNG, with its PSNR over RGB (docs/pica-texture.md gives 31-42 dB on the test pictures).
fn etc1(table: &mut String, rgb: &[u8], out: &Path) -> bool {
    use pica::regs::layouts::TextureFormat;
    use pica::texture::{self, Image, Quality};
    let mut image = Image::new(SIZE, SIZE);
    for (px, c) in image.pixels.chunks_exact_mut(4).zip(rgb.chunks_exact(3)) {
        px.copy_from_slice(&[c[0], c[1], c[2], 255]);
    }
    let t0 = Instant::now();
    let back = texture::encode_with(TextureFormat::Etc1, &image, Quality::Fast)
        .and_then(|bytes| texture::decode(TextureFormat::Etc1, SIZE, SIZE, &bytes).map(|img| (bytes.len(), img)));
    let elapsed = t0.elapsed();
    let _ = writeln!(table, "\n{:<24} {:>7} {:>10}  {:<10} file", "pica texture", "bytes", "time", "PSNR");
    let (len, img) = match back {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(table, "{:<24} FAILED {e}", "ETC1 encode + decode");
            return false;
        }
    };
    let decoded: Vec<u8> = img.pixels.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let mse = decoded.iter().zip(rgb).map(|(&a, &b)| (a as f64 - b as f64).powi(2)).sum::<f64>() / rgb.len() as f64;
    let psnr = 10.0 * (255.0f64 * 255.0 / mse.max(1e-9)).log10();
    let path = out.join("etc1.png");
    let written = write_png(&path, &decoded);
    let ok = written.is_ok() && psnr > 30.0;
    let _ = writeln!(
        table,
        "{:<24} {:>7} {:>8.1}us  {:<10} {}",
        "ETC1 encode + decode",
        len,
        elapsed.as_secs_f64() * 1e6,
        if ok { format!("{psnr:.1} dB") } else { format!("FAILED {psnr:.1} dB") },
        match written {
            Ok(()) => path.display().to_string(),
            Err(e) => format!("FAILED {e}"),
        }
    );
    ok
}

fn write_png(path: &Path, rgb: &[u8]) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut enc = png::Encoder::new(file, SIZE, SIZE);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()?.write_image_data(rgb)?;
    Ok(())
}

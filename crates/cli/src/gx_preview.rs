//! `shaderport gx preview FILE.brres -o DIR`: one PNG per material, drawn on the Vulkan device
//! through the material's translated fragment shader, and a contact sheet of all materials
//! (docs/gx-cli.md). Every pixel is checked against the CPU reference before it is written.
//!
//! The picture is a lit sphere: the material's texture maps wrap around it by longitude and
//! latitude, colour channel 0 is diffuse light and channel 1 the specular highlight (both with
//! alpha 255), and the depth follows the surface, so fog varies across it.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use gpu::tev::{reference_pixel, TevPixel, TevRunner};
use gx::key::TevKey;
use gx::{Evaluator, PixelInputs};
use translate::gx_tev;

use crate::gx_shader::Picked;

/// The side of a material's picture in pixels.
pub const SIZE: u32 = 64;
/// Pictures per row of the contact sheet.
const SHEET_COLUMNS: usize = 4;

/// Radius of the sphere in pixels (centred in the picture).
const RADIUS: f64 = 30.0;
/// Direction towards the light (normalised at use): up, left and towards the viewer.
const LIGHT: [f64; 3] = [-0.45, -0.55, 0.7];

/// The unit normal of the sphere at the centre of pixel (x, y), or `None` outside it.
pub fn sphere_normal(x: u32, y: u32) -> Option<[f64; 3]> {
    let c = SIZE as f64 / 2.0;
    let (nx, ny) = ((x as f64 + 0.5 - c) / RADIUS, (y as f64 + 0.5 - c) / RADIUS);
    let r2 = nx * nx + ny * ny;
    (r2 < 1.0).then(|| [nx, ny, (1.0 - r2).sqrt()])
}

/// The inputs of pixel (x, y) of a material's picture: a lit sphere. Texgen k wraps texture map
/// k twice around the sphere and once from pole to pole (longitude and latitude); colour
/// channel 0 is diffuse light with an ambient floor and alpha 255, channel 1 the specular
/// highlight; the depth runs from the sphere's front (2^23) backwards. Pixels off the sphere
/// get zero colours and coordinates (the picture leaves them transparent).
fn inputs(p: &Picked, x: u32, y: u32) -> PixelInputs {
    let mut px = PixelInputs { pos: [x, y], ..Default::default() };
    let Some(n) = sphere_normal(x, y) else {
        return px;
    };
    let u = 0.5 + n[0].atan2(n[2]) / std::f64::consts::TAU;
    let v = n[1].clamp(-1.0, 1.0).acos() / std::f64::consts::PI;
    for (k, tc) in px.texcoords.iter_mut().enumerate() {
        let map = &p.maps[k];
        // s17.7 texel coordinates.
        *tc = [(u * 2.0 * map.width as f64 * 128.0) as i32, (v * map.height as f64 * 128.0) as i32];
    }
    let len = LIGHT.iter().map(|c| c * c).sum::<f64>().sqrt();
    let l = LIGHT.map(|c| c / len);
    let diffuse = (n[0] * l[0] + n[1] * l[1] + n[2] * l[2]).max(0.0);
    let light = (255.0 * (0.2 + 0.8 * diffuse)).round() as u8;
    // Blinn-Phong with the viewer along +z: the half vector of l and (0, 0, 1).
    let h = [l[0], l[1], l[2] + 1.0];
    let hl = h.iter().map(|c| c * c).sum::<f64>().sqrt();
    let spec = ((n[0] * h[0] + n[1] * h[1] + n[2] * h[2]) / hl).max(0.0).powi(24);
    let s = (255.0 * spec).round() as u8;
    px.ras = [[light, light, light, 255], [s, s, s, 255]];
    px.z = ((0.5 - 0.25 * n[2]) * 16_777_216.0) as u32;
    px
}

fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> anyhow::Result<()> {
    let file = std::io::BufWriter::new(
        std::fs::File::create(path).with_context(|| format!("{}: cannot write", path.display()))?,
    );
    let mut enc = png::Encoder::new(file, width, height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()?.write_image_data(rgba)?;
    Ok(())
}

/// Draws every material, checks its pixels and writes the pictures and the contact sheet;
/// returns the files written. A discarded pixel (failed alpha test) is transparent.
pub fn run(file: &Path, picked: &[Picked], dir: &Path, several_models: bool) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let _runtime = gpu::private_runtime_dir().context("cannot create a runtime folder for the Vulkan driver")?;
    let gpu = gpu::Gpu::new()?;
    let mut written = Vec::new();
    let mut pictures = Vec::new();
    for p in picked {
        let runner = TevRunner::new(&gpu, &p.maps)?;
        let words = gx_tev::fragment(&TevKey::new(&p.state))?.spirv()?;
        let pipeline = runner.pipeline(&words)?;
        let ev = Evaluator::new(&p.state);
        let all: Vec<PixelInputs> = (0..SIZE * SIZE).map(|i| inputs(p, i % SIZE, i / SIZE)).collect();
        let want: Vec<Option<[u8; 4]>> = all.iter().map(|px| reference_pixel(&ev, &p.maps, px)).collect();
        // A clear colour that no reference pixel has marks the discarded ones.
        let clear = (0u32..)
            .map(|c| (c.wrapping_mul(0x9E37_79B9) ^ 0x00C0_FFEE).to_le_bytes())
            .find(|c| !want.contains(&Some(*c)))
            .expect("some colour is unused");
        let pixels: Vec<TevPixel> = all.iter().map(TevPixel::from_inputs).collect();
        let block = gx_tev::UniformBlock::from_state(&p.state).to_bytes();
        let got = runner.draw(&pipeline, &block, &pixels, clear)?;
        let bad = got.iter().zip(&want).filter(|(g, w)| **g != w.unwrap_or(clear)).count();
        if bad > 0 {
            bail!(
                "{}: material {}: {bad} of {} pixels differ between the device and the CPU reference",
                file.display(),
                p.material,
                got.len()
            );
        }
        // Off the sphere, and where the alpha test discards, the picture is transparent.
        let rgba: Vec<u8> = want
            .iter()
            .enumerate()
            .flat_map(|(i, w)| match (sphere_normal(i as u32 % SIZE, i as u32 / SIZE), w) {
                (Some(_), Some(c)) => [c[0], c[1], c[2], 255],
                _ => [0; 4],
            })
            .collect();
        let path = dir.join(format!("{}.png", crate::gx_shader::file_stem(p, several_models)));
        write_png(&path, SIZE, SIZE, &rgba)?;
        written.push(path);
        pictures.push(rgba);
    }
    // The contact sheet: pictures in rows of SHEET_COLUMNS, 4 transparent pixels apart.
    let gap = 4u32;
    let cols = pictures.len().clamp(1, SHEET_COLUMNS) as u32;
    let rows = pictures.len().div_ceil(SHEET_COLUMNS).max(1) as u32;
    let (w, h) = (cols * (SIZE + gap) + gap, rows * (SIZE + gap) + gap);
    let mut sheet = vec![0u8; (w * h * 4) as usize];
    for (i, pic) in pictures.iter().enumerate() {
        let (ox, oy) = (gap + (i as u32 % cols) * (SIZE + gap), gap + (i as u32 / cols) * (SIZE + gap));
        for y in 0..SIZE {
            let src = &pic[(y * SIZE * 4) as usize..((y + 1) * SIZE * 4) as usize];
            let at = (((oy + y) * w + ox) * 4) as usize;
            sheet[at..at + src.len()].copy_from_slice(src);
        }
    }
    let path = dir.join("contact-sheet.png");
    write_png(&path, w, h, &sheet)?;
    written.push(path);
    Ok(written)
}

//! SMDH icons: RGB565 pixels, PNG in and out, and the resizing `smdh make` does.

use thiserror::Error;

use super::tiling;

/// Largest PNG side accepted as icon input (a bound on memory for hostile files).
pub const MAX_IMAGE_SIDE: u32 = 4096;

/// A square icon of RGB565 pixels, row-major from the top-left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Icon {
    size: usize,
    pixels: Vec<u16>,
}

/// An 8-bit RGBA image, row-major from the top-left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgba8Image {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<[u8; 4]>,
}

/// What went wrong turning an image into an icon or a PNG.
#[derive(Debug, Error)]
pub enum IconError {
    #[error("not a readable PNG: {0}")]
    Png(String),
    #[error("image is {width}x{height}; icons are made from images of 1x1 to {MAX_IMAGE_SIDE}x{MAX_IMAGE_SIDE}")]
    Size { width: u32, height: u32 },
    #[error("cannot write the PNG: {0}")]
    Write(String),
}

impl Icon {
    /// A `size`x`size` icon of one colour.
    pub fn filled(size: usize, rgb565: u16) -> Icon {
        Icon { size, pixels: vec![rgb565; size * size] }
    }

    /// An icon from row-major RGB565 pixels; `None` unless there are `size * size` of them.
    pub fn from_pixels(size: usize, pixels: Vec<u16>) -> Option<Icon> {
        (pixels.len() == size * size).then_some(Icon { size, pixels })
    }

    /// An icon from its tiled form (as stored in the file); `None` unless `size` is a multiple
    /// of 8 and there are `size * size` pixels.
    pub fn from_tiled(size: usize, tiled: &[u16]) -> Option<Icon> {
        (size.is_multiple_of(8) && tiled.len() == size * size)
            .then(|| Icon { size, pixels: tiling::untile(tiled, size, size) })
    }

    /// The tiled form, as stored in the file; `None` when the size is not a multiple of 8.
    pub fn to_tiled(&self) -> Option<Vec<u16>> {
        self.size.is_multiple_of(8).then(|| tiling::tile(&self.pixels, self.size, self.size))
    }

    pub fn width(&self) -> usize {
        self.size
    }

    pub fn height(&self) -> usize {
        self.size
    }

    /// Row-major RGB565 pixels.
    pub fn pixels(&self) -> &[u16] {
        &self.pixels
    }

    /// The pixel at (x, y) as 8-bit RGB.
    pub fn rgb8(&self, x: usize, y: usize) -> [u8; 3] {
        tiling::rgb565_to_rgb8(self.pixels[y * self.size + x])
    }

    /// The icon as an opaque RGBA image.
    pub fn to_image(&self) -> Rgba8Image {
        let pixels = self
            .pixels
            .iter()
            .map(|&p| {
                let [r, g, b] = tiling::rgb565_to_rgb8(p);
                [r, g, b, 255]
            })
            .collect();
        Rgba8Image { width: self.size, height: self.size, pixels }
    }

    /// The icon as an 8-bit RGB PNG.
    pub fn to_png(&self) -> Result<Vec<u8>, IconError> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, self.size as u32, self.size as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| IconError::Write(e.to_string()))?;
        let data: Vec<u8> = self.pixels.iter().flat_map(|&p| tiling::rgb565_to_rgb8(p)).collect();
        w.write_image_data(&data).map_err(|e| IconError::Write(e.to_string()))?;
        w.finish().map_err(|e| IconError::Write(e.to_string()))?;
        Ok(out)
    }

    /// An icon from opaque RGB pixels: each channel rounded to the nearest RGB565 level.
    fn from_rgb(size: usize, rgb: &[[u8; 3]]) -> Icon {
        Icon { size, pixels: rgb.iter().map(|&c| tiling::rgb8_to_rgb565(c)).collect() }
    }
}

impl Rgba8Image {
    /// Decodes a PNG of any colour type and depth (palettes expanded, 16-bit channels cut to
    /// their high byte).
    pub fn from_png(bytes: &[u8]) -> Result<Rgba8Image, IconError> {
        let mut dec = png::Decoder::new_with_limits(bytes, png::Limits { bytes: 256 << 20 });
        dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = dec.read_info().map_err(|e| IconError::Png(e.to_string()))?;
        let (width, height) = (reader.info().width, reader.info().height);
        if width == 0 || height == 0 || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE {
            return Err(IconError::Size { width, height });
        }
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).map_err(|e| IconError::Png(e.to_string()))?;
        let data = &buf[..info.buffer_size()];
        let (w, h) = (width as usize, height as usize);
        let channels = info.color_type.samples();
        let mut pixels = Vec::with_capacity(w * h);
        for y in 0..h {
            let row = &data[y * info.line_size..];
            for x in 0..w {
                let p = &row[x * channels..x * channels + channels];
                pixels.push(match info.color_type {
                    png::ColorType::Grayscale => [p[0], p[0], p[0], 255],
                    png::ColorType::GrayscaleAlpha => [p[0], p[0], p[0], p[1]],
                    png::ColorType::Rgb => [p[0], p[1], p[2], 255],
                    png::ColorType::Rgba => [p[0], p[1], p[2], p[3]],
                    png::ColorType::Indexed => return Err(IconError::Png("palette not expanded".into())),
                });
            }
        }
        Ok(Rgba8Image { width: w, height: h, pixels })
    }

    /// The image as an 8-bit RGBA PNG.
    pub fn to_png(&self) -> Result<Vec<u8>, IconError> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, self.width as u32, self.height as u32);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| IconError::Write(e.to_string()))?;
        w.write_image_data(self.pixels.as_flattened()).map_err(|e| IconError::Write(e.to_string()))?;
        w.finish().map_err(|e| IconError::Write(e.to_string()))?;
        Ok(out)
    }
}

/// Opaque RGB of a pixel: the colour composited over black by its alpha (the icon has no
/// alpha), rounded.
fn over_black(p: [u8; 4]) -> [f64; 3] {
    let a = f64::from(p[3]) / 255.0;
    [f64::from(p[0]) * a, f64::from(p[1]) * a, f64::from(p[2]) * a]
}

/// Resamples to `size`x`size` with an area (box) filter: each output pixel is the mean of the
/// source area it covers, partial source pixels weighted by the part covered. When the source
/// already has the size, pixels pass through unchanged.
fn resize(image: &Rgba8Image, size: usize) -> Vec<[f64; 3]> {
    let src: Vec<[f64; 3]> = image.pixels.iter().map(|&p| over_black(p)).collect();
    if image.width == size && image.height == size {
        return src;
    }
    // Weights of source columns (or rows) for one output column: overlap of [i*s, (i+1)*s)
    // with each source pixel, s = source/output.
    let weights = |src_len: usize| -> Vec<Vec<(usize, f64)>> {
        let scale = src_len as f64 / size as f64;
        (0..size)
            .map(|i| {
                let (lo, hi) = (i as f64 * scale, (i + 1) as f64 * scale);
                let first = lo.floor() as usize;
                let last = (hi.ceil() as usize).min(src_len);
                (first..last)
                    .map(|j| (j, ((j + 1) as f64).min(hi) - (j as f64).max(lo)))
                    .filter(|&(_, w)| w > 0.0)
                    .map(|(j, w)| (j, w / scale))
                    .collect()
            })
            .collect()
    };
    let (wx, wy) = (weights(image.width), weights(image.height));
    let mut out = Vec::with_capacity(size * size);
    for row in &wy {
        for col in &wx {
            let mut acc = [0.0; 3];
            for &(y, fy) in row {
                for &(x, fx) in col {
                    let p = src[y * image.width + x];
                    for c in 0..3 {
                        acc[c] += p[c] * fx * fy;
                    }
                }
            }
            out.push(acc);
        }
    }
    out
}

fn round8(c: [f64; 3]) -> [u8; 3] {
    c.map(|v| v.round().clamp(0.0, 255.0) as u8)
}

/// The 48x48 and 24x24 icons `smdh make` builds from an image.
pub(crate) fn icons_from_image(image: &Rgba8Image) -> Result<(Icon, Icon), IconError> {
    let (w, h) = (image.width as u32, image.height as u32);
    if w == 0 || h == 0 || w > MAX_IMAGE_SIDE || h > MAX_IMAGE_SIDE || image.pixels.len() != image.width * image.height
    {
        return Err(IconError::Size { width: w, height: h });
    }
    let large = resize(image, 48);
    let large_rgb: Vec<[u8; 3]> = large.iter().map(|&c| round8(c)).collect();
    // The small icon averages 2x2 blocks of the 48x48 image before it is quantised to RGB565.
    let small_rgb: Vec<[u8; 3]> = (0..24 * 24)
        .map(|i| {
            let (x, y) = (2 * (i % 24), 2 * (i / 24));
            let mut acc = [0.0; 3];
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let p = large[(y + dy) * 48 + x + dx];
                for c in 0..3 {
                    acc[c] += p[c] / 4.0;
                }
            }
            round8(acc)
        })
        .collect();
    Ok((Icon::from_rgb(48, &large_rgb), Icon::from_rgb(24, &small_rgb)))
}

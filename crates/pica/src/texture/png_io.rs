//! PNG in and out through the `png` crate: any PNG colour type and depth is read as RGBA8
//! (grey to R = G = B, missing alpha to 255, 16-bit channels to their high byte, palettes
//! expanded); output is always 8-bit RGBA.

use super::{Image, MAX_SIZE};
use thiserror::Error;

/// What went wrong reading or writing a PNG. The `png` crate's error is part of the message
/// (not a separate source, which would print it twice in an error chain).
#[derive(Debug, Error)]
pub enum PngError {
    #[error("not a readable PNG: {0}")]
    Decode(png::DecodingError),
    #[error("cannot write PNG: {0}")]
    Encode(png::EncodingError),
    #[error("PNG is {width}x{height}, larger than the {max}x{max} a texture can be", max = MAX_SIZE)]
    TooLarge { width: u32, height: u32 },
}

impl From<png::DecodingError> for PngError {
    fn from(e: png::DecodingError) -> Self {
        PngError::Decode(e)
    }
}

impl From<png::EncodingError> for PngError {
    fn from(e: png::EncodingError) -> Self {
        PngError::Encode(e)
    }
}

/// Reads a PNG as RGBA8. Pictures wider or taller than [`MAX_SIZE`] are refused before their
/// pixels are read.
pub fn read_png(bytes: &[u8]) -> Result<Image, PngError> {
    let mut decoder = png::Decoder::new(bytes);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info()?;
    let (width, height) = (reader.info().width, reader.info().height);
    if width > MAX_SIZE || height > MAX_SIZE {
        return Err(PngError::TooLarge { width, height });
    }
    let mut buf = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf)?;
    let data = &buf[..frame.buffer_size()];
    let mut image = Image::new(width, height);
    let channels = frame.color_type.samples();
    let line = frame.line_size;
    for y in 0..height as usize {
        let row = &data[y * line..y * line + width as usize * channels];
        for (x, px) in row.chunks_exact(channels).enumerate() {
            let rgba = match px {
                [g] => [*g, *g, *g, 255],
                [g, a] => [*g, *g, *g, *a],
                [r, g, b] => [*r, *g, *b, 255],
                [r, g, b, a] => [*r, *g, *b, *a],
                _ => [0, 0, 0, 0],
            };
            image.set_pixel(x as u32, y as u32, rgba);
        }
    }
    Ok(image)
}

/// Writes an RGBA8 picture as an 8-bit RGBA PNG.
pub fn write_png(image: &Image) -> Result<Vec<u8>, PngError> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, image.width, image.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&image.pixels)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trip_keeps_every_texel() {
        let mut image = Image::new(16, 8);
        for (i, b) in image.pixels.iter_mut().enumerate() {
            *b = (i * 37 % 256) as u8;
        }
        assert_eq!(read_png(&write_png(&image).unwrap()).unwrap(), image);
    }

    #[test]
    fn grey_and_rgb_pngs_read_as_rgba() {
        let mut out = Vec::new();
        {
            let mut e = png::Encoder::new(&mut out, 2, 1);
            e.set_color(png::ColorType::GrayscaleAlpha);
            e.set_depth(png::BitDepth::Eight);
            e.write_header().unwrap().write_image_data(&[10, 20, 30, 40]).unwrap();
        }
        let image = read_png(&out).unwrap();
        assert_eq!(image.pixels, [10, 10, 10, 20, 30, 30, 30, 40]);
    }

    #[test]
    fn garbage_and_truncated_pngs_are_errors() {
        assert!(read_png(b"not a png").is_err());
        let good = write_png(&Image::new(8, 8)).unwrap();
        for cut in [8, 20, good.len() - 13] {
            assert!(read_png(&good[..cut]).is_err(), "cut at {cut}");
        }
    }
}

//! `shaderport pica texture decode|encode` end to end: PNG to texture data and back for a
//! lossless format and for ETC1, and the error lines for wrong, truncated and badly sized input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pica::texture::{png_io, Image};

fn shaderport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderport")).args(args).output().expect("run shaderport")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shaderport-cli-texture-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A 32x16 picture with a gradient, a hard edge and varying alpha.
fn picture(width: u32, height: u32) -> Image {
    let mut image = Image::new(width, height);
    for y in 0..height {
        for x in 0..width {
            let edge = if x < width / 2 { 40 } else { 200 };
            image.set_pixel(x, y, [(x * 8) as u8, (y * 16) as u8, edge, (255 - x * 4) as u8]);
        }
    }
    image
}

fn write_png(path: &Path, image: &Image) {
    std::fs::write(path, png_io::write_png(image).unwrap()).unwrap();
}

fn read_png(path: &Path) -> Image {
    png_io::read_png(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn rgba8_encode_then_decode_gives_the_picture_back() {
    let dir = temp_dir("rgba8");
    let (png, raw, back) = (dir.join("in.png"), dir.join("tex.bin"), dir.join("back.png"));
    let image = picture(32, 16);
    write_png(&png, &image);
    let out = shaderport(&["pica", "texture", "encode", s(&png), "--format", "rgba8", "-o", s(&raw)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::metadata(&raw).unwrap().len(), 32 * 16 * 4);
    let out = shaderport(&[
        "pica",
        "texture",
        "decode",
        s(&raw),
        "--format",
        "RGBA8888",
        "--width",
        "32",
        "--height",
        "16",
        "-o",
        s(&back),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(read_png(&back), image);
}

#[test]
fn etc1a4_round_trip_is_close_and_sized_right() {
    let dir = temp_dir("etc1a4");
    let (png, raw, back) = (dir.join("in.png"), dir.join("tex.etc1a4"), dir.join("back.png"));
    let image = picture(32, 16);
    write_png(&png, &image);
    let out = shaderport(&["pica", "texture", "encode", s(&png), "--format", "ETC1A4", "-o", s(&raw)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::metadata(&raw).unwrap().len(), 32 * 16);
    let out = shaderport(&[
        "pica",
        "texture",
        "decode",
        s(&raw),
        "--format",
        "etc1a4",
        "--width",
        "32",
        "--height",
        "16",
        "-o",
        s(&back),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let decoded = read_png(&back);
    let psnr = pica::texture::psnr_rgb(&image, &decoded).unwrap();
    assert!(psnr > 30.0, "{psnr:.2} dB");
    for (p, q) in image.pixels.chunks(4).zip(decoded.pixels.chunks(4)) {
        assert!((i32::from(p[3]) - i32::from(q[3])).abs() <= 8);
    }
}

#[test]
fn truncated_texture_names_the_file_the_format_and_the_bytes() {
    let dir = temp_dir("truncated");
    let raw = dir.join("short.bin");
    std::fs::write(&raw, [0u8; 100]).unwrap();
    let out = shaderport(&[
        "pica",
        "texture",
        "decode",
        s(&raw),
        "--format",
        "ETC1",
        "--width",
        "64",
        "--height",
        "64",
        "-o",
        s(&dir.join("x.png")),
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains(&format!("{}: ETC1 64x64 needs 2048 bytes, found 100", raw.display())),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("x.png").exists());
}

#[test]
fn sizes_not_multiples_of_8_are_refused_on_decode_and_encode() {
    let dir = temp_dir("size");
    let raw = dir.join("tex.bin");
    std::fs::write(&raw, [0u8; 4096]).unwrap();
    let out = shaderport(&[
        "pica",
        "texture",
        "decode",
        s(&raw),
        "--format",
        "I8",
        "--width",
        "12",
        "--height",
        "8",
        "-o",
        s(&dir.join("x.png")),
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("12x8: width and height must be multiples of 8"), "{}", stderr(&out));

    let png = dir.join("odd.png");
    write_png(&png, &picture(12, 8));
    let out = shaderport(&["pica", "texture", "encode", s(&png), "--format", "RGB565", "-o", s(&dir.join("o.bin"))]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}: the picture is 12x8", png.display())) && err.contains("multiples of 8"),
        "{err}"
    );
}

#[test]
fn a_file_that_is_not_a_png_is_named_in_the_error() {
    let dir = temp_dir("notpng");
    let wrong = dir.join("texture.bin");
    std::fs::write(&wrong, [0x5Au8; 512]).unwrap();
    let out = shaderport(&["pica", "texture", "encode", s(&wrong), "--format", "RGBA8", "-o", s(&dir.join("o.bin"))]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains(&format!("{}: not a readable PNG", wrong.display())), "{}", stderr(&out));

    // A PNG cut short.
    let png = dir.join("cut.png");
    let bytes = png_io::write_png(&picture(32, 16)).unwrap();
    std::fs::write(&png, &bytes[..bytes.len() / 2]).unwrap();
    let out = shaderport(&["pica", "texture", "encode", s(&png), "--format", "RGBA8", "-o", s(&dir.join("o.bin"))]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains(&format!("{}: not a readable PNG", png.display())), "{}", stderr(&out));
}

#[test]
fn unknown_format_lists_the_formats() {
    let out = shaderport(&["pica", "texture", "encode", "x.png", "--format", "DXT1", "-o", "y"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("unknown texture format \"DXT1\"") && err.contains("RGBA8, RGB8") && err.contains("ETC1A4"),
        "{err}"
    );
}

#[test]
fn bytes_after_the_texture_are_reported_and_ignored() {
    let dir = temp_dir("longer");
    let raw = dir.join("tex.bin");
    let mut bytes = vec![0x80u8; 64];
    bytes.extend_from_slice(&[0u8; 16]);
    std::fs::write(&raw, &bytes).unwrap();
    let png = dir.join("x.png");
    let out = shaderport(&[
        "pica",
        "texture",
        "decode",
        s(&raw),
        "--format",
        "a8",
        "--width",
        "8",
        "--height",
        "8",
        "-o",
        s(&png),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("16 bytes after the A8 8x8 texture (64 bytes) ignored"), "{}", stderr(&out));
    assert!(read_png(&png).pixels.chunks(4).all(|p| p == [0, 0, 0, 0x80]));
}

//! `shaderport pica texture decode FILE --format F --width W --height H -o OUT.png` and
//! `shaderport pica texture encode IN.png --format F -o OUT`: raw PICA200 texture data (8x8
//! Morton tiles, as the GPU reads it) to and from PNG (docs/pica-texture.md "Command line").

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand, ValueEnum};
use pica::texture::{self, formats, png_io, FormatInfo, Quality};

#[derive(Args)]
pub struct TextureArgs {
    #[command(subcommand)]
    command: TextureCommand,
}

#[derive(Subcommand)]
enum TextureCommand {
    /// Decode raw texture data to a PNG.
    Decode(DecodeArgs),
    /// Encode a PNG as raw texture data.
    Encode(EncodeArgs),
}

#[derive(Args)]
struct DecodeArgs {
    /// The texture data (one level; bytes after it, such as mipmaps, are ignored).
    file: PathBuf,
    /// Texture format: RGBA8, RGB8, RGBA5551, RGB565, RGBA4, IA8, HILO8, I8, A8, IA4, I4, A4,
    /// ETC1, ETC1A4 (any case; the register page's RGBA8888, RGB888, RGBA4444, IA44 also work).
    #[arg(long, value_parser = parse_format)]
    format: &'static FormatInfo,
    /// Width in texels (a multiple of 8, at most 1024).
    #[arg(long)]
    width: u32,
    /// Height in texels (a multiple of 8, at most 1024).
    #[arg(long)]
    height: u32,
    /// The PNG to write.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
}

#[derive(Args)]
struct EncodeArgs {
    /// The PNG to encode (its width and height must be multiples of 8, at most 1024).
    file: PathBuf,
    /// Texture format (as for decode).
    #[arg(long, value_parser = parse_format)]
    format: &'static FormatInfo,
    /// The raw texture data to write.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
    /// ETC1 encoder search.
    #[arg(long, value_enum, default_value_t = EtcQuality::High)]
    quality: EtcQuality,
}

#[derive(Clone, Copy, ValueEnum)]
enum EtcQuality {
    Fast,
    High,
}

fn parse_format(name: &str) -> Result<&'static FormatInfo, String> {
    formats::parse(name)
        .ok_or_else(|| format!("unknown texture format {name:?}; expected one of {}", formats::names().join(", ")))
}

pub fn run(args: TextureArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        TextureCommand::Decode(args) => decode(args),
        TextureCommand::Encode(args) => encode(args),
    }
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("{}: cannot write", path.display()))
}

fn decode(args: DecodeArgs) -> anyhow::Result<ExitCode> {
    let name = args.file.display().to_string();
    let bytes = std::fs::read(&args.file).with_context(|| format!("{name}: cannot read"))?;
    let image = texture::decode(args.format.format, args.width, args.height, &bytes).with_context(|| name.clone())?;
    let needed = texture::byte_size(args.format.format, args.width, args.height)?;
    if bytes.len() > needed {
        eprintln!(
            "note: {name}: {} bytes after the {} {}x{} texture ({needed} bytes) ignored",
            bytes.len() - needed,
            args.format.name(),
            args.width,
            args.height
        );
    }
    write(&args.output, &png_io::write_png(&image)?)?;
    Ok(ExitCode::SUCCESS)
}

fn encode(args: EncodeArgs) -> anyhow::Result<ExitCode> {
    let name = args.file.display().to_string();
    let bytes = std::fs::read(&args.file).with_context(|| format!("{name}: cannot read"))?;
    let image = png_io::read_png(&bytes).with_context(|| name.clone())?;
    if texture::check_size(image.width, image.height).is_err() {
        bail!(
            "{name}: the picture is {}x{}; a texture's width and height must be multiples of 8 from 8 to {}",
            image.width,
            image.height,
            texture::MAX_SIZE
        );
    }
    let quality = match args.quality {
        EtcQuality::Fast => Quality::Fast,
        EtcQuality::High => Quality::High,
    };
    let data = texture::encode_with(args.format.format, &image, quality).with_context(|| name.clone())?;
    write(&args.output, &data)?;
    Ok(ExitCode::SUCCESS)
}

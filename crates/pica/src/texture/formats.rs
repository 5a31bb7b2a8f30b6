//! The texture format table: one row per format of GPUREG_TEXUNIT*i*_TYPE (pica200-gpu-registers.md,
//! "GPUREG_TEXUNITi_TYPE"), giving its name, aliases, bits per texel and where each channel sits
//! in the texel. The decoder, the encoder, the printed names and the command line's `--format`
//! parsing all read this table; the format ids and primary names are those of
//! [`TextureFormat`] in the register table.
//!
//! Byte order: a packed texel is a little-endian integer of `bits_per_texel` bits (Citra
//! video_core/texture/texture_decode.cpp and common/color.h, facts only): RGBA8 is stored as the
//! bytes A, B, G, R; RGB8 as B, G, R; IA8 as A, I; HILO8 as the low (green) byte then the high
//! (red) byte. Four-bit formats hold two texels per byte, the even Morton index in the low nibble.

use crate::regs::layouts::TextureFormat;

/// A channel of a packed texel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Red,
    Green,
    Blue,
    Alpha,
    /// Intensity: red, green and blue all take this value.
    Intensity,
}

/// One channel's bits in the texel integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelBits {
    pub channel: Channel,
    /// Highest bit (inclusive).
    pub hi: u8,
    /// Lowest bit.
    pub lo: u8,
}

impl ChannelBits {
    /// Width in bits.
    pub const fn width(&self) -> u32 {
        (self.hi - self.lo) as u32 + 1
    }
}

/// How a format stores its texels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Each texel is a little-endian integer holding these channels. A colour channel that is
    /// absent decodes as 0, an absent alpha as 255.
    Packed(&'static [ChannelBits]),
    /// ETC1 4x4 blocks, four per 8x8 tile; with `alpha`, each block is preceded by 64 bits of
    /// 4-bit alpha (ETC1A4).
    Etc1 { alpha: bool },
}

/// One row of the format table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatInfo {
    pub format: TextureFormat,
    /// Other spellings accepted when parsing: the register page's table (RGBA8888, RGB888,
    /// RGBA4444, IA44) and the names tex3ds and other 3DS tools use (L8, LA8, RGB5A1, ...).
    pub aliases: &'static [&'static str],
    pub bits_per_texel: u32,
    pub layout: Layout,
}

impl FormatInfo {
    /// The primary name, as the register table prints it (`RGBA8`, `ETC1A4`, ...).
    pub fn name(&self) -> &'static str {
        self.format.name().unwrap_or("?")
    }

    /// Bytes of one 8x8 tile.
    pub const fn tile_bytes(&self) -> usize {
        (self.bits_per_texel as usize * 64) / 8
    }

    /// True when every byte pattern decodes to a distinct picture, so decode then encode gives
    /// the same bytes (every format except the ETC1 pair).
    pub const fn is_lossless(&self) -> bool {
        matches!(self.layout, Layout::Packed(_))
    }
}

const fn ch(channel: Channel, hi: u8, lo: u8) -> ChannelBits {
    ChannelBits { channel, hi, lo }
}

use Channel::{Alpha as A, Blue as B, Green as G, Intensity as I, Red as R};

/// Every texture format, in id order.
pub const FORMATS: [FormatInfo; 14] = [
    FormatInfo {
        format: TextureFormat::Rgba8,
        aliases: &["RGBA8888", "RGBA"],
        bits_per_texel: 32,
        layout: Layout::Packed(&[ch(R, 31, 24), ch(G, 23, 16), ch(B, 15, 8), ch(A, 7, 0)]),
    },
    FormatInfo {
        format: TextureFormat::Rgb8,
        aliases: &["RGB888", "RGB"],
        bits_per_texel: 24,
        layout: Layout::Packed(&[ch(R, 23, 16), ch(G, 15, 8), ch(B, 7, 0)]),
    },
    FormatInfo {
        format: TextureFormat::Rgba5551,
        aliases: &["RGB5A1"],
        bits_per_texel: 16,
        layout: Layout::Packed(&[ch(R, 15, 11), ch(G, 10, 6), ch(B, 5, 1), ch(A, 0, 0)]),
    },
    FormatInfo {
        format: TextureFormat::Rgb565,
        aliases: &[],
        bits_per_texel: 16,
        layout: Layout::Packed(&[ch(R, 15, 11), ch(G, 10, 5), ch(B, 4, 0)]),
    },
    FormatInfo {
        format: TextureFormat::Rgba4,
        aliases: &["RGBA4444"],
        bits_per_texel: 16,
        layout: Layout::Packed(&[ch(R, 15, 12), ch(G, 11, 8), ch(B, 7, 4), ch(A, 3, 0)]),
    },
    FormatInfo {
        format: TextureFormat::Ia8,
        aliases: &["LA8", "LA88"],
        bits_per_texel: 16,
        layout: Layout::Packed(&[ch(I, 15, 8), ch(A, 7, 0)]),
    },
    FormatInfo {
        format: TextureFormat::Hilo8,
        aliases: &["HILO88", "RG8"],
        bits_per_texel: 16,
        layout: Layout::Packed(&[ch(R, 15, 8), ch(G, 7, 0)]),
    },
    FormatInfo {
        format: TextureFormat::I8,
        aliases: &["L8"],
        bits_per_texel: 8,
        layout: Layout::Packed(&[ch(I, 7, 0)]),
    },
    FormatInfo { format: TextureFormat::A8, aliases: &[], bits_per_texel: 8, layout: Layout::Packed(&[ch(A, 7, 0)]) },
    FormatInfo {
        format: TextureFormat::Ia4,
        aliases: &["IA44", "LA4", "LA44"],
        bits_per_texel: 8,
        layout: Layout::Packed(&[ch(I, 7, 4), ch(A, 3, 0)]),
    },
    FormatInfo {
        format: TextureFormat::I4,
        aliases: &["L4"],
        bits_per_texel: 4,
        layout: Layout::Packed(&[ch(I, 3, 0)]),
    },
    FormatInfo { format: TextureFormat::A4, aliases: &[], bits_per_texel: 4, layout: Layout::Packed(&[ch(A, 3, 0)]) },
    FormatInfo { format: TextureFormat::Etc1, aliases: &[], bits_per_texel: 4, layout: Layout::Etc1 { alpha: false } },
    FormatInfo { format: TextureFormat::Etc1a4, aliases: &[], bits_per_texel: 8, layout: Layout::Etc1 { alpha: true } },
];

/// The table row of a format; `None` for a value the register page does not list.
///
/// ```
/// use pica::regs::layouts::TextureFormat;
/// let info = pica::texture::formats::info(TextureFormat::Etc1a4).unwrap();
/// assert_eq!((info.name(), info.bits_per_texel, info.tile_bytes()), ("ETC1A4", 8, 64));
/// ```
pub fn info(format: TextureFormat) -> Option<&'static FormatInfo> {
    FORMATS.iter().find(|f| f.format == format)
}

/// Parses a format name or alias, ignoring case.
///
/// ```
/// use pica::texture::formats::parse;
/// assert_eq!(parse("etc1").unwrap().name(), "ETC1");
/// assert_eq!(parse("RGBA8888").unwrap().name(), "RGBA8");
/// assert!(parse("DXT1").is_none());
/// ```
pub fn parse(name: &str) -> Option<&'static FormatInfo> {
    FORMATS
        .iter()
        .find(|f| f.name().eq_ignore_ascii_case(name) || f.aliases.iter().any(|a| a.eq_ignore_ascii_case(name)))
}

/// The primary names, in id order, for messages ("expected one of ...").
pub fn names() -> Vec<&'static str> {
    FORMATS.iter().map(FormatInfo::name).collect()
}

//! SMDH, the 3DS icon file (ExeFS:/icon, the 3DSX extended header's icon): titles in sixteen
//! languages, application settings, and a 24x24 and a 48x48 icon.
//!
//! Layout per smdh.md (3dbrew "SMDH"); decisions in docs/smdh.md. All values little endian.
//!
//! ```
//! use pica::smdh::{Icon, Smdh, Title};
//! let mut smdh = Smdh::new(Title::new("Demo", "A demo", "Someone"));
//! smdh.large_icon = Icon::filled(48, 0xF800);
//! let bytes = smdh.to_bytes().unwrap();
//! assert_eq!(bytes.len(), pica::smdh::SIZE);
//! assert_eq!(Smdh::read(&bytes).unwrap(), smdh);
//! ```

use thiserror::Error;

mod icon;
mod tiling;

pub use icon::{Icon, IconError, Rgba8Image};

/// Size of an SMDH file in bytes.
pub const SIZE: usize = 0x36C0;
/// The magic at offset 0.
pub const MAGIC: [u8; 4] = *b"SMDH";
/// Number of title structures (smdh.md: sixteen, twelve used).
pub const TITLE_COUNT: usize = 16;
/// Offset of the first title structure; each takes 0x200 bytes.
pub const TITLES_OFFSET: usize = 0x8;
/// Offset of the application settings.
pub const SETTINGS_OFFSET: usize = 0x2008;
/// Offset of the 24x24 icon; the 48x48 one follows at 0x24C0.
pub const SMALL_ICON_OFFSET: usize = 0x2040;
pub const LARGE_ICON_OFFSET: usize = 0x24C0;
/// UTF-16 code units in each title field (smdh.md "Application Titles").
pub const SHORT_UNITS: usize = 0x40;
pub const LONG_UNITS: usize = 0x80;
pub const PUBLISHER_UNITS: usize = 0x40;

/// The languages of the title structures, in file order (smdh.md "Application Titles"; the
/// last four are unused and named by their position).
pub const LANGUAGES: [&str; TITLE_COUNT] = [
    "japanese",
    "english",
    "french",
    "german",
    "italian",
    "spanish",
    "simplified_chinese",
    "korean",
    "dutch",
    "portuguese",
    "russian",
    "traditional_chinese",
    "unused12",
    "unused13",
    "unused14",
    "unused15",
];

/// The age rating slots of the settings, in file order (smdh.md "Region Specific Game Age
/// Ratings"); `None` marks a reserved byte.
pub const RATING_BOARDS: [Option<&str>; 16] = [
    Some("CERO"),
    Some("ESRB"),
    None,
    Some("USK"),
    Some("PEGI GEN"),
    None,
    Some("PEGI PRT"),
    Some("PEGI BBFC"),
    Some("COB"),
    Some("GRB"),
    Some("CGSRR"),
    None,
    None,
    None,
    None,
    None,
];

/// Region lockout bits (smdh.md "Region Lockout").
pub const REGIONS: [(u32, &str); 7] = [
    (0x01, "japan"),
    (0x02, "north_america"),
    (0x04, "europe"),
    (0x08, "australia"),
    (0x10, "china"),
    (0x20, "korea"),
    (0x40, "taiwan"),
];
/// The lockout value Nintendo uses for region-free titles.
pub const REGION_FREE: u32 = 0x7FFF_FFFF;

/// Flag bits (smdh.md "Flags").
pub const FLAGS: [(u32, &str); 11] = [
    (0x0001, "visible"),
    (0x0002, "auto_boot"),
    (0x0004, "allow_3d"),
    (0x0008, "require_eula"),
    (0x0010, "autosave"),
    (0x0020, "extended_banner"),
    (0x0040, "rating_required"),
    (0x0080, "save_data"),
    (0x0100, "record_usage"),
    (0x0400, "no_save_backups"),
    (0x1000, "new_3ds_only"),
];

/// One language's title: short description, long description, publisher.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Title {
    pub short_description: String,
    pub long_description: String,
    pub publisher: String,
}

impl Title {
    pub fn new(short: &str, long: &str, publisher: &str) -> Title {
        Title { short_description: short.into(), long_description: long.into(), publisher: publisher.into() }
    }
}

/// One age rating byte, decoded (smdh.md: 0x80 active, 0x40 pending, 0x20 no age
/// restriction, the low five bits the minimum age).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    pub active: bool,
    pub pending: bool,
    pub no_restriction: bool,
    pub age: u8,
}

impl Rating {
    pub fn decode(byte: u8) -> Rating {
        Rating {
            active: byte & 0x80 != 0,
            pending: byte & 0x40 != 0,
            no_restriction: byte & 0x20 != 0,
            age: byte & 0x1F,
        }
    }
}

/// An SMDH, every field of the file. Reserved fields are kept so that read then write gives
/// the same bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Smdh {
    pub version: u16,
    pub reserved0: u16,
    /// One title per entry of [`LANGUAGES`].
    pub titles: [Title; TITLE_COUNT],
    /// Raw rating bytes, one per entry of [`RATING_BOARDS`]; see [`Rating::decode`].
    pub ratings: [u8; 16],
    pub region_lockout: u32,
    pub match_maker_id: u32,
    pub match_maker_bit_id: u64,
    pub flags: u32,
    pub eula_minor: u8,
    pub eula_major: u8,
    pub reserved1: u16,
    /// 'Optimal animation default frame' for the banner, an f32 kept as its bits.
    pub animation_default_frame: u32,
    pub cec_id: u32,
    pub reserved2: [u8; 8],
    /// 24x24.
    pub small_icon: Icon,
    /// 48x48.
    pub large_icon: Icon,
}

/// What went wrong reading or writing an SMDH; reading errors carry the byte offset at fault.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SmdhError {
    #[error("byte offset 0: magic {found:02x?} is not \"SMDH\"")]
    Magic { found: Vec<u8> },
    #[error("byte offset {offset}: file ends after {len} bytes, an SMDH takes {SIZE}")]
    Truncated { offset: usize, len: usize },
    #[error("byte offset {offset}: {language} {field} is not valid UTF-16 (unpaired surrogate 0x{unit:04x})")]
    Utf16 { offset: usize, language: &'static str, field: &'static str, unit: u16 },
    #[error("{language} {field} takes {units} UTF-16 units, the field holds {capacity}")]
    TooLong { language: &'static str, field: &'static str, units: usize, capacity: usize },
    #[error("{which} icon is {width}x{height}, it must be {expected}x{expected}")]
    IconSize { which: &'static str, width: usize, height: usize, expected: usize },
}

impl SmdhError {
    /// Byte offset of the fault, for errors found reading.
    pub fn offset(&self) -> Option<usize> {
        match *self {
            SmdhError::Magic { .. } => Some(0),
            SmdhError::Truncated { offset, .. } | SmdhError::Utf16 { offset, .. } => Some(offset),
            _ => None,
        }
    }
}

/// Whether `bytes` start with the SMDH magic.
pub fn is_smdh(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

const FIELDS: [(&str, usize, usize); 3] = [
    ("short description", 0, SHORT_UNITS),
    ("long description", 0x80, LONG_UNITS),
    ("publisher", 0x180, PUBLISHER_UNITS),
];

fn u16_at(b: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([b[o], b[o + 1]])
}
fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap_or_default())
}

/// Decodes a NUL-terminated (or full) UTF-16 field starting at `offset`.
fn read_utf16(
    b: &[u8],
    offset: usize,
    units: usize,
    language: &'static str,
    field: &'static str,
) -> Result<String, SmdhError> {
    let code: Vec<u16> = (0..units).map(|i| u16_at(b, offset + 2 * i)).take_while(|&u| u != 0).collect();
    let mut out = String::with_capacity(code.len());
    let mut at = 0;
    for r in char::decode_utf16(code.iter().copied()) {
        match r {
            Ok(c) => {
                out.push(c);
                at += c.len_utf16();
            }
            Err(e) => {
                return Err(SmdhError::Utf16 { offset: offset + 2 * at, language, field, unit: e.unpaired_surrogate() })
            }
        }
    }
    Ok(out)
}

impl Smdh {
    /// An SMDH with `title` in every language, the settings homebrew tools write (visible,
    /// 3D allowed, usage recorded, region free, ratings unset), version 0 and black icons.
    pub fn new(title: Title) -> Smdh {
        Smdh {
            version: 0,
            reserved0: 0,
            titles: std::array::from_fn(|_| title.clone()),
            ratings: [0; 16],
            region_lockout: REGION_FREE,
            match_maker_id: 0,
            match_maker_bit_id: 0,
            flags: 0x0001 | 0x0004 | 0x0100,
            eula_minor: 0,
            eula_major: 0,
            reserved1: 0,
            animation_default_frame: 0,
            cec_id: 0,
            reserved2: [0; 8],
            small_icon: Icon::filled(24, 0),
            large_icon: Icon::filled(48, 0),
        }
    }

    /// Reads an SMDH. Bytes past 0x36C0 are ignored (some containers pad the icon).
    pub fn read(bytes: &[u8]) -> Result<Smdh, SmdhError> {
        if bytes.len() < 4 || !is_smdh(bytes) {
            if bytes.len() < 4 && MAGIC.starts_with(bytes) {
                return Err(SmdhError::Truncated { offset: bytes.len(), len: bytes.len() });
            }
            return Err(SmdhError::Magic { found: bytes[..bytes.len().min(4)].to_vec() });
        }
        if bytes.len() < SIZE {
            return Err(SmdhError::Truncated { offset: bytes.len(), len: bytes.len() });
        }
        let b = &bytes[..SIZE];
        let mut titles: [Title; TITLE_COUNT] = Default::default();
        for (i, t) in titles.iter_mut().enumerate() {
            let base = TITLES_OFFSET + i * 0x200;
            let lang = LANGUAGES[i];
            let field = |k: usize| {
                let (name, off, units) = FIELDS[k];
                read_utf16(b, base + off, units, lang, name)
            };
            *t = Title { short_description: field(0)?, long_description: field(1)?, publisher: field(2)? };
        }
        let s = SETTINGS_OFFSET;
        let icon = |offset: usize, size: usize| {
            let tiled: Vec<u16> = (0..size * size).map(|i| u16_at(b, offset + 2 * i)).collect();
            Icon::from_tiled(size, &tiled).unwrap_or_else(|| Icon::filled(size, 0))
        };
        Ok(Smdh {
            version: u16_at(b, 4),
            reserved0: u16_at(b, 6),
            titles,
            ratings: b[s..s + 16].try_into().unwrap_or_default(),
            region_lockout: u32_at(b, 0x2018),
            match_maker_id: u32_at(b, 0x201C),
            match_maker_bit_id: u64::from_le_bytes(b[0x2020..0x2028].try_into().unwrap_or_default()),
            flags: u32_at(b, 0x2028),
            eula_minor: b[0x202C],
            eula_major: b[0x202D],
            reserved1: u16_at(b, 0x202E),
            animation_default_frame: u32_at(b, 0x2030),
            cec_id: u32_at(b, 0x2034),
            reserved2: b[0x2038..0x2040].try_into().unwrap_or_default(),
            small_icon: icon(SMALL_ICON_OFFSET, 24),
            large_icon: icon(LARGE_ICON_OFFSET, 48),
        })
    }

    /// The file's 0x36C0 bytes. Titles are written NUL-terminated when shorter than their
    /// field and zero-filled after.
    pub fn to_bytes(&self) -> Result<Vec<u8>, SmdhError> {
        let mut b = vec![0u8; SIZE];
        b[..4].copy_from_slice(&MAGIC);
        b[4..6].copy_from_slice(&self.version.to_le_bytes());
        b[6..8].copy_from_slice(&self.reserved0.to_le_bytes());
        for (i, t) in self.titles.iter().enumerate() {
            let base = TITLES_OFFSET + i * 0x200;
            for (&(field, off, capacity), text) in
                FIELDS.iter().zip([&t.short_description, &t.long_description, &t.publisher])
            {
                let units: Vec<u16> = text.encode_utf16().collect();
                if units.len() > capacity || units.contains(&0) {
                    let units = if units.contains(&0) { capacity + 1 } else { units.len() };
                    return Err(SmdhError::TooLong { language: LANGUAGES[i], field, units, capacity });
                }
                for (j, u) in units.iter().enumerate() {
                    b[base + off + 2 * j..base + off + 2 * j + 2].copy_from_slice(&u.to_le_bytes());
                }
            }
        }
        let s = SETTINGS_OFFSET;
        b[s..s + 16].copy_from_slice(&self.ratings);
        b[0x2018..0x201C].copy_from_slice(&self.region_lockout.to_le_bytes());
        b[0x201C..0x2020].copy_from_slice(&self.match_maker_id.to_le_bytes());
        b[0x2020..0x2028].copy_from_slice(&self.match_maker_bit_id.to_le_bytes());
        b[0x2028..0x202C].copy_from_slice(&self.flags.to_le_bytes());
        b[0x202C] = self.eula_minor;
        b[0x202D] = self.eula_major;
        b[0x202E..0x2030].copy_from_slice(&self.reserved1.to_le_bytes());
        b[0x2030..0x2034].copy_from_slice(&self.animation_default_frame.to_le_bytes());
        b[0x2034..0x2038].copy_from_slice(&self.cec_id.to_le_bytes());
        b[0x2038..0x2040].copy_from_slice(&self.reserved2);
        for (icon, offset, size, which) in
            [(&self.small_icon, SMALL_ICON_OFFSET, 24, "small"), (&self.large_icon, LARGE_ICON_OFFSET, 48, "large")]
        {
            if icon.width() != size || icon.height() != size {
                return Err(SmdhError::IconSize { which, width: icon.width(), height: icon.height(), expected: size });
            }
            for (i, p) in icon.to_tiled().unwrap_or_default().iter().enumerate() {
                b[offset + 2 * i..offset + 2 * i + 2].copy_from_slice(&p.to_le_bytes());
            }
        }
        Ok(b)
    }

    /// The title of `language` (an entry of [`LANGUAGES`]).
    pub fn title(&self, language: &str) -> Option<&Title> {
        LANGUAGES.iter().position(|&l| l == language).map(|i| &self.titles[i])
    }

    /// The names of the set flag bits, and the bits no name covers.
    pub fn flag_names(&self) -> (Vec<&'static str>, u32) {
        split_bits(self.flags, &FLAGS)
    }

    /// The names of the regions in the lockout mask, and the bits no name covers.
    pub fn region_names(&self) -> (Vec<&'static str>, u32) {
        split_bits(self.region_lockout, &REGIONS)
    }

    /// The banner's 'optimal animation default frame' as a float.
    pub fn animation_frame(&self) -> f32 {
        f32::from_bits(self.animation_default_frame)
    }

    /// Builds an SMDH as homebrew tools do (bannertool makesmdh, smdhtool --create): `title`
    /// in every language, the settings of [`Smdh::new`], the 48x48 icon from `image` (resized
    /// to 48x48 with an area filter when it has another size) and the 24x24 icon from the
    /// 48x48 one by averaging each 2x2 block. docs/smdh.md "Building" has the details.
    pub fn from_image(title: Title, image: &Rgba8Image) -> Result<Smdh, IconError> {
        let mut smdh = Smdh::new(title);
        let (large, small) = icon::icons_from_image(image)?;
        smdh.large_icon = large;
        smdh.small_icon = small;
        Ok(smdh)
    }
}

fn split_bits(value: u32, names: &[(u32, &'static str)]) -> (Vec<&'static str>, u32) {
    let mut rest = value;
    let mut out = Vec::new();
    for &(bit, name) in names {
        if value & bit != 0 {
            out.push(name);
            rest &= !bit;
        }
    }
    (out, rest)
}

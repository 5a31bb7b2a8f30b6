//! The packed texture formats and the tiling: byte orders checked on hand-built tiles, decode
//! then encode giving the same bytes for every lossless format, and bad sizes or short buffers
//! giving errors, never panics.

use pica::regs::layouts::{DepthFormat, TextureFormat};
use pica::texture::{
    byte_size, decode, decode_depth, decode_shadow, encode, encode_depth, encode_shadow, formats, morton, DepthStencil,
    Image, ShadowTexel, TextureError, FORMATS,
};
use proptest::prelude::*;

/// One 8x8 tile of `format` whose first texel (Morton index 0, the top-left) is `first`, the
/// rest zero.
fn tile_with_first(format: TextureFormat, first: &[u8]) -> Vec<u8> {
    let mut bytes = vec![0u8; byte_size(format, 8, 8).unwrap()];
    bytes[..first.len()].copy_from_slice(first);
    bytes
}

#[test]
fn every_format_of_the_register_page_is_in_the_table_once() {
    // pica200-gpu-registers.md, GPUREG_TEXUNITi_TYPE: values 0x0-0xD.
    for raw in 0..=0xD {
        let format = TextureFormat::from_raw(raw);
        assert_eq!(FORMATS.iter().filter(|f| f.format == format).count(), 1, "format 0x{raw:x}");
    }
    assert_eq!(FORMATS.len(), 14);
    let bits: Vec<u32> = FORMATS.iter().map(|f| f.bits_per_texel).collect();
    assert_eq!(bits, [32, 24, 16, 16, 16, 16, 16, 8, 8, 8, 4, 4, 4, 8]);
}

#[test]
fn names_parse_in_any_case_and_with_the_register_pages_spellings() {
    for f in &FORMATS {
        assert_eq!(formats::parse(&f.name().to_lowercase()).unwrap().format, f.format);
    }
    for (alias, name) in
        [("RGBA8888", "RGBA8"), ("rgb888", "RGB8"), ("RGBA4444", "RGBA4"), ("IA44", "IA4"), ("l8", "I8")]
    {
        assert_eq!(formats::parse(alias).unwrap().name(), name);
    }
    assert!(formats::parse("BC1").is_none());
}

#[test]
fn morton_order_inside_a_tile_matches_the_z_curve() {
    // Row y of the tile lists the memory index of texels x = 0..8 (x in even bits, y in odd).
    let expected: [[u32; 8]; 3] =
        [[0, 1, 4, 5, 16, 17, 20, 21], [2, 3, 6, 7, 18, 19, 22, 23], [8, 9, 12, 13, 24, 25, 28, 29]];
    for (y, row) in expected.iter().enumerate() {
        for (x, &i) in row.iter().enumerate() {
            assert_eq!(morton::index(x as u32, y as u32), i);
            assert_eq!(morton::COORDS[i as usize], (x as u8, y as u8));
        }
    }
    assert_eq!(morton::index(7, 7), 63);
}

#[test]
fn tiles_run_left_to_right_then_down() {
    // 16x16 I8: tile t filled with value t, so each quadrant shows its tile's number.
    let bytes: Vec<u8> = (0..4u8).flat_map(|t| [t * 60; 64]).collect();
    let image = decode(TextureFormat::I8, 16, 16, &bytes).unwrap();
    assert_eq!(
        [image.pixel(0, 0)[0], image.pixel(8, 0)[0], image.pixel(0, 8)[0], image.pixel(15, 15)[0]],
        [0, 60, 120, 180]
    );
    // Memory index 2 is texel (0, 1): the second row, not the third column.
    let mut bytes = vec![0u8; 64];
    bytes[2] = 200;
    let image = decode(TextureFormat::I8, 8, 8, &bytes).unwrap();
    assert_eq!((image.pixel(0, 1)[0], image.pixel(2, 0)[0]), (200, 0));
}

#[test]
fn byte_order_of_each_packed_format() {
    // (format, bytes of texel 0 in memory order, decoded RGBA); layouts per
    // docs/pica-texture.md "Formats" (Citra common/color.h and texture_decode.cpp).
    let cases: [(TextureFormat, &[u8], [u8; 4]); 12] = [
        (TextureFormat::Rgba8, &[0x44, 0x33, 0x22, 0x11], [0x11, 0x22, 0x33, 0x44]),
        (TextureFormat::Rgb8, &[0x33, 0x22, 0x11], [0x11, 0x22, 0x33, 0xFF]),
        // 0xF801 = R 31, G 0, B 0, A 1; little-endian bytes 01 F8.
        (TextureFormat::Rgba5551, &[0x01, 0xF8], [255, 0, 0, 255]),
        // 0x07C0 = R 0, G 31, B 0, A 0.
        (TextureFormat::Rgba5551, &[0xC0, 0x07], [0, 255, 0, 0]),
        // 0x07E0 = R 0, G 63, B 0; 0x001F = B 31.
        (TextureFormat::Rgb565, &[0xE0, 0x07], [0, 255, 0, 255]),
        // 0x1234: R 1, G 2, B 3, A 4, each times 17.
        (TextureFormat::Rgba4, &[0x34, 0x12], [17, 34, 51, 68]),
        // IA8: alpha byte first, intensity second.
        (TextureFormat::Ia8, &[0x40, 0x90], [0x90, 0x90, 0x90, 0x40]),
        // HILO8: green (LO) byte first, red (HI) second; blue 0, alpha 255.
        (TextureFormat::Hilo8, &[0x22, 0x11], [0x11, 0x22, 0, 255]),
        (TextureFormat::I8, &[0x7F], [0x7F, 0x7F, 0x7F, 255]),
        (TextureFormat::A8, &[0x7F], [0, 0, 0, 0x7F]),
        // IA4: intensity in the high nibble.
        (TextureFormat::Ia4, &[0xA5], [170, 170, 170, 85]),
        // I4: texel 0 in the low nibble, texel 1 (x = 1) in the high nibble.
        (TextureFormat::I4, &[0x2F], [255, 255, 255, 255]),
    ];
    for (format, first, rgba) in cases {
        let image = decode(format, 8, 8, &tile_with_first(format, first)).unwrap();
        assert_eq!(image.pixel(0, 0), rgba, "{format:?} {first:02x?}");
    }
    let rgb565 = decode(TextureFormat::Rgb565, 8, 8, &tile_with_first(TextureFormat::Rgb565, &[0x1F, 0x00])).unwrap();
    assert_eq!(rgb565.pixel(0, 0), [0, 0, 255, 255]);
    let i4 = decode(TextureFormat::I4, 8, 8, &tile_with_first(TextureFormat::I4, &[0x2F])).unwrap();
    assert_eq!(i4.pixel(1, 0), [34, 34, 34, 255]);
    let a4 = decode(TextureFormat::A4, 8, 8, &tile_with_first(TextureFormat::A4, &[0x2F])).unwrap();
    assert_eq!((a4.pixel(0, 0), a4.pixel(1, 0)), ([0, 0, 0, 255], [0, 0, 0, 34]));
}

#[test]
fn intensity_formats_encode_luma_of_colour_and_exact_grey() {
    let mut image = Image::new(8, 8);
    image.set_pixel(0, 0, [255, 0, 0, 255]);
    image.set_pixel(1, 0, [90, 90, 90, 255]);
    let bytes = encode(TextureFormat::I8, &image).unwrap();
    // (77 * 255 + 128) >> 8 = 77.
    assert_eq!((bytes[0], bytes[1]), (77, 90));
}

#[test]
fn sizes_not_multiples_of_8_or_too_large_are_refused() {
    for (w, h) in [(0, 8), (8, 0), (12, 8), (8, 20), (1032, 8), (8, 2048)] {
        assert_eq!(byte_size(TextureFormat::Rgba8, w, h), Err(TextureError::Size { width: w, height: h }));
        assert!(decode(TextureFormat::Rgba8, w, h, &[0; 64]).is_err());
    }
    assert_eq!(byte_size(TextureFormat::Rgba8, 1024, 1024), Ok(4 << 20));
}

#[test]
fn truncated_buffers_name_format_size_and_bytes() {
    let err = decode(TextureFormat::Etc1, 64, 64, &[0; 100]).unwrap_err();
    assert_eq!(err.to_string(), "ETC1 64x64 needs 2048 bytes, found 100");
    assert!(matches!(decode(TextureFormat::Other(0xE), 8, 8, &[0; 512]), Err(TextureError::UnknownFormat(0xE))));
}

#[test]
fn longer_buffers_decode_their_first_level() {
    let mut bytes = vec![0x55u8; 64 + 16];
    bytes[64..].fill(0xAA);
    let image = decode(TextureFormat::I8, 8, 8, &bytes).unwrap();
    assert!(image.pixels.chunks(4).all(|p| p == [0x55, 0x55, 0x55, 255]));
}

#[test]
fn shadow_maps_and_depth_buffers_decode_to_values() {
    // Shadow texel bytes: depth 23-16, 15-8, 7-0, intensity (fragment facts 6.3). Texel 1 of
    // the tile is (1, 0).
    let mut bytes = vec![0u8; 256];
    bytes[4..8].copy_from_slice(&[0xAB, 0xCD, 0xEF, 0x42]);
    let shadow = decode_shadow(8, 8, &bytes).unwrap();
    assert_eq!(shadow[1], ShadowTexel { depth: 0xABCDEF, intensity: 0x42 });
    assert_eq!(encode_shadow(8, 8, &shadow).unwrap(), bytes);

    let mut d24s8 = vec![0u8; 256];
    d24s8[8..12].copy_from_slice(&[0x56, 0x34, 0x12, 0x9A]); // texel 2 = (0, 1)
    let depth = decode_depth(DepthFormat::D24S8, 8, 8, &d24s8).unwrap();
    assert_eq!(depth[8], DepthStencil { depth: 0x123456, stencil: Some(0x9A) });
    assert_eq!(encode_depth(DepthFormat::D24S8, 8, 8, &depth).unwrap(), d24s8);

    let d16 = decode_depth(DepthFormat::D16, 8, 8, &tile_with_first(TextureFormat::Rgb565, &[0x34, 0x12])).unwrap();
    assert_eq!(d16[0], DepthStencil { depth: 0x1234, stencil: None });
    assert!(decode_depth(DepthFormat::D24, 8, 8, &[0; 191]).is_err());
    assert!(decode_depth(DepthFormat::Other(1), 8, 8, &[0; 256]).is_err());
}

fn size() -> impl Strategy<Value = (u32, u32)> {
    (1u32..=6, 1u32..=6).prop_map(|(w, h)| (w * 8, h * 8))
}

fn lossless() -> impl Strategy<Value = TextureFormat> {
    proptest::sample::select(FORMATS.iter().filter(|f| f.is_lossless()).map(|f| f.format).collect::<Vec<_>>())
}

fn any_format() -> impl Strategy<Value = TextureFormat> {
    proptest::sample::select(FORMATS.iter().map(|f| f.format).collect::<Vec<_>>())
}

fn random_image() -> impl Strategy<Value = Image> {
    size().prop_flat_map(|(w, h)| {
        proptest::collection::vec(any::<u8>(), (w * h * 4) as usize).prop_map(move |pixels| Image {
            width: w,
            height: h,
            pixels,
        })
    })
}

proptest! {
    #[test]
    fn decode_then_encode_gives_the_same_bytes(format in lossless(), (w, h) in size(), seed in any::<u64>()) {
        let n = byte_size(format, w, h).unwrap();
        let mut state = seed | 1;
        let bytes: Vec<u8> = (0..n).map(|_| { state ^= state << 13; state ^= state >> 7; state ^= state << 17; state as u8 }).collect();
        let image = decode(format, w, h, &bytes).unwrap();
        prop_assert_eq!(encode(format, &image).unwrap(), bytes);
    }

    #[test]
    fn random_images_round_trip_through_each_lossless_format(format in lossless(), image in random_image()) {
        // Encoding quantises once; from then on decode and encode are exact inverses.
        let bytes = encode(format, &image).unwrap();
        let decoded = decode(format, image.width, image.height, &bytes).unwrap();
        prop_assert_eq!(encode(format, &decoded).unwrap(), bytes);
        if format == TextureFormat::Rgba8 {
            prop_assert_eq!(decoded, image);
        }
    }

    #[test]
    fn short_buffers_are_errors(format in any_format(), (w, h) in size(), cut in any::<prop::sample::Index>()) {
        let n = byte_size(format, w, h).unwrap();
        let short = cut.index(n);
        let is_truncated = matches!(decode(format, w, h, &vec![0xA5; short]), Err(TextureError::Truncated { .. }));
        prop_assert!(is_truncated);
    }

    #[test]
    fn any_arguments_give_a_result_or_an_error(raw in 0u32..20, w in 0u32..1100, h in 0u32..1100, bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = decode(TextureFormat::from_raw(raw), w, h, &bytes);
        let _ = decode_shadow(w, h, &bytes);
        let _ = decode_depth(DepthFormat::from_raw(raw & 3), w, h, &bytes);
    }
}

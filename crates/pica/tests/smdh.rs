//! SMDH read and write: identity on generated files, icons through PNG, `Smdh::from_image` as
//! `smdh make` uses it, and errors naming the offset on truncated and corrupt files. Case count
//! from PROPTEST_CASES (CI: 256).

use pica::smdh::{Icon, Rgba8Image, Smdh, SmdhError, Title, LANGUAGES, SIZE};
use proptest::prelude::*;

fn text(max_units: usize) -> impl Strategy<Value = String> {
    // Any characters but NUL, astral ones included (two UTF-16 units each).
    proptest::collection::vec(any::<char>().prop_filter("no NUL", |&c| c != '\0'), 0..=max_units / 2)
        .prop_map(|cs| cs.into_iter().collect())
}

fn title() -> impl Strategy<Value = Title> {
    (text(0x40), text(0x80), text(0x40)).prop_map(|(s, l, p)| Title {
        short_description: s,
        long_description: l,
        publisher: p,
    })
}

fn icon(size: usize) -> impl Strategy<Value = Icon> {
    proptest::collection::vec(any::<u16>(), size * size).prop_map(move |p| Icon::from_pixels(size, p).unwrap())
}

fn smdh() -> impl Strategy<Value = Smdh> {
    (
        (any::<u16>(), any::<u16>(), proptest::collection::vec(title(), 16), any::<[u8; 16]>()),
        (any::<u32>(), any::<u32>(), any::<u64>(), any::<u32>(), any::<u8>(), any::<u8>(), any::<u16>()),
        (any::<u32>(), any::<u32>(), any::<[u8; 8]>(), icon(24), icon(48)),
    )
        .prop_map(
            |((version, reserved0, titles, ratings), (rl, mm, mmb, flags, minor, major, r1), (af, cec, r2, s, l))| {
                Smdh {
                    version,
                    reserved0,
                    titles: titles.try_into().unwrap(),
                    ratings,
                    region_lockout: rl,
                    match_maker_id: mm,
                    match_maker_bit_id: mmb,
                    flags,
                    eula_minor: minor,
                    eula_major: major,
                    reserved1: r1,
                    animation_default_frame: af,
                    cec_id: cec,
                    reserved2: r2,
                    small_icon: s,
                    large_icon: l,
                }
            },
        )
}

proptest! {
    #[test]
    fn generated_files_read_back_to_the_same_model_and_bytes(s in smdh()) {
        let bytes = s.to_bytes().unwrap();
        prop_assert_eq!(bytes.len(), SIZE);
        let back = Smdh::read(&bytes).unwrap();
        prop_assert_eq!(&back, &s);
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
    }

    #[test]
    fn random_bytes_give_an_error_or_a_model_never_a_panic(mut bytes in proptest::collection::vec(any::<u8>(), 0..0x3800)) {
        if bytes.len() >= 4 && bytes[0] & 1 == 0 {
            bytes[..4].copy_from_slice(b"SMDH");
        }
        match Smdh::read(&bytes) {
            Ok(s) => {
                // Whatever reads writes back to the same settings and icons.
                let again = Smdh::read(&s.to_bytes().unwrap()).unwrap();
                prop_assert_eq!(again, s);
            }
            Err(e) => prop_assert!(e.offset().is_some_and(|o| o <= bytes.len()), "{e}"),
        }
    }

    #[test]
    fn an_rgb565_representable_48x48_png_comes_back_exactly(pixels in proptest::collection::vec(any::<u16>(), 48 * 48)) {
        let icon = Icon::from_pixels(48, pixels).unwrap();
        let png = icon.to_png().unwrap();
        let image = Rgba8Image::from_png(&png).unwrap();
        let made = Smdh::from_image(Title::new("t", "l", "p"), &image).unwrap();
        let back = Smdh::read(&made.to_bytes().unwrap()).unwrap();
        prop_assert_eq!(&back.large_icon, &icon);
    }
}

/// An image whose every 2x2 block has one RGB565-representable colour, and the 24x24 icon of
/// those colours.
fn blocky_image(scale: usize) -> (Rgba8Image, Icon) {
    let small: Vec<u16> = (0..24 * 24).map(|i| (i as u16).wrapping_mul(0x9E37) ^ 0x5A5A).collect();
    let side = 24 * scale;
    let mut pixels = Vec::new();
    for y in 0..side {
        for x in 0..side {
            let p = small[(y / scale) * 24 + x / scale];
            let [r, g, b] = Icon::from_pixels(1, vec![p]).unwrap().rgb8(0, 0);
            pixels.push([r, g, b, 255]);
        }
    }
    (Rgba8Image { width: side, height: side, pixels }, Icon::from_pixels(24, small).unwrap())
}

#[test]
fn the_small_icon_averages_2x2_blocks_of_the_large_one() {
    let (image, small) = blocky_image(2);
    let made = Smdh::from_image(Title::default(), &image).unwrap();
    let back = Smdh::read(&made.to_bytes().unwrap()).unwrap();
    assert_eq!(back.small_icon, small);
    // Mixed blocks: black and white average to mid grey (127.5 rounds to 128, RGB565 level
    // 16 of 31 for red: 128*31/255 = 15.56).
    let mut pixels = vec![[0, 0, 0, 255]; 48 * 48];
    pixels[0] = [255, 255, 255, 255];
    pixels[1] = [255, 255, 255, 255];
    let made = Smdh::from_image(Title::default(), &Rgba8Image { width: 48, height: 48, pixels }).unwrap();
    assert_eq!(made.small_icon.rgb8(0, 0), [132, 130, 132]);
    assert_eq!(made.small_icon.pixels()[0], (16 << 11) | (32 << 5) | 16);
}

#[test]
fn a_larger_image_is_scaled_down_by_area() {
    // 96x96 with uniform 4x4 blocks: the area filter gives the block colours exactly.
    let (image, small) = blocky_image(4);
    let made = Smdh::from_image(Title::default(), &image).unwrap();
    assert_eq!(made.small_icon, small);
    let (image48, _) = blocky_image(2);
    let direct = Smdh::from_image(Title::default(), &image48).unwrap();
    assert_eq!(made.large_icon, direct.large_icon);
    // 72x72 (1.5 source pixels per icon pixel): a half-covered white column gives half its
    // value to the icon pixel.
    let mut pixels = vec![[0, 0, 0, 255]; 72 * 72];
    for y in 0..72 {
        pixels[y * 72 + 1] = [255, 255, 255, 255];
    }
    let made = Smdh::from_image(Title::default(), &Rgba8Image { width: 72, height: 72, pixels }).unwrap();
    // Icon column 0 covers source [0, 1.5): one third white -> 85; column 1 covers [1.5, 3):
    // one third white -> 85.
    let level = |v: u32| ((v * 31 + 127) / 255) as u16;
    assert_eq!(made.large_icon.pixels()[0] >> 11, level(85));
    assert_eq!(made.large_icon.pixels()[1] >> 11, level(85));
    assert_eq!(made.large_icon.pixels()[2] >> 11, 0);
}

#[test]
fn transparent_pixels_are_composited_over_black() {
    let image = Rgba8Image { width: 48, height: 48, pixels: vec![[255, 255, 255, 0]; 48 * 48] };
    let made = Smdh::from_image(Title::default(), &image).unwrap();
    assert!(made.large_icon.pixels().iter().all(|&p| p == 0));
}

#[test]
fn one_title_goes_to_every_language_and_reads_back() {
    let s = Smdh::new(Title::new("Demo", "A longer description", "Homebrew"));
    let back = Smdh::read(&s.to_bytes().unwrap()).unwrap();
    for lang in LANGUAGES {
        assert_eq!(back.title(lang).unwrap().short_description, "Demo");
        assert_eq!(back.title(lang).unwrap().publisher, "Homebrew");
    }
    assert_eq!(back.region_lockout, 0x7FFF_FFFF);
    assert_eq!(back.flag_names().0, ["visible", "allow_3d", "record_usage"]);
}

#[test]
fn fields_sit_at_the_pages_offsets() {
    let mut s = Smdh::new(Title::default());
    s.titles[1] = Title::new("AB", "C", "D");
    s.ratings[1] = 0x8C;
    s.region_lockout = 0x05;
    s.match_maker_id = 0x1122_3344;
    s.match_maker_bit_id = 0x5566_7788_99AA_BBCC;
    s.flags = 0x1081;
    s.eula_minor = 2;
    s.eula_major = 1;
    s.animation_default_frame = 1.5f32.to_bits();
    s.cec_id = 0xCAFE;
    s.large_icon = Icon::filled(48, 0x1234);
    let b = s.to_bytes().unwrap();
    // English is the second title structure: 0x8 + 0x200.
    assert_eq!(&b[0x208..0x20E], &[b'A', 0, b'B', 0, 0, 0]);
    assert_eq!(&b[0x208 + 0x80..0x208 + 0x82], &[b'C', 0]);
    assert_eq!(&b[0x208 + 0x180..0x208 + 0x182], &[b'D', 0]);
    assert_eq!(b[0x2009], 0x8C);
    assert_eq!(&b[0x2018..0x201C], &[5, 0, 0, 0]);
    assert_eq!(&b[0x201C..0x2020], &0x1122_3344u32.to_le_bytes());
    assert_eq!(&b[0x2020..0x2028], &0x5566_7788_99AA_BBCCu64.to_le_bytes());
    assert_eq!(&b[0x2028..0x202C], &0x1081u32.to_le_bytes());
    assert_eq!(&b[0x202C..0x202E], &[2, 1]);
    assert_eq!(&b[0x2030..0x2034], &1.5f32.to_le_bytes());
    assert_eq!(&b[0x2034..0x2038], &0xCAFEu32.to_le_bytes());
    assert_eq!(&b[0x24C0..0x24C2], &0x1234u16.to_le_bytes());
    assert_eq!(&b[0x36BE..0x36C0], &0x1234u16.to_le_bytes());
    assert_eq!(&b[0x2040..0x2042], &[0, 0]);
    let back = Smdh::read(&b).unwrap();
    assert_eq!(back.animation_frame(), 1.5);
    assert_eq!(back.region_names().0, ["japan", "europe"]);
    let r = pica::smdh::Rating::decode(back.ratings[1]);
    assert!(r.active && !r.pending && r.age == 12);
}

#[test]
fn the_icon_is_tiled_in_the_file() {
    // Pixel (1, 0) is the second pixel in the file; pixel (0, 1) the third; (8, 0) the 65th.
    let mut pixels = vec![0u16; 48 * 48];
    pixels[1] = 0x1111;
    pixels[48] = 0x2222;
    pixels[8] = 0x3333;
    let mut s = Smdh::new(Title::default());
    s.large_icon = Icon::from_pixels(48, pixels).unwrap();
    let b = s.to_bytes().unwrap();
    let at = |i: usize| u16::from_le_bytes([b[0x24C0 + 2 * i], b[0x24C1 + 2 * i]]);
    assert_eq!((at(1), at(2), at(64)), (0x1111, 0x2222, 0x3333));
}

#[test]
fn truncated_and_corrupt_files_name_the_offset() {
    let good = Smdh::new(Title::new("x", "y", "z")).to_bytes().unwrap();
    let e = Smdh::read(&good[..0x1000]).unwrap_err();
    assert_eq!(e, SmdhError::Truncated { offset: 0x1000, len: 0x1000 });
    assert!(e.to_string().starts_with("byte offset 4096:"), "{e}");
    assert!(matches!(Smdh::read(&good[..2]), Err(SmdhError::Truncated { offset: 2, .. })));
    assert!(matches!(Smdh::read(&[]), Err(SmdhError::Truncated { offset: 0, .. })));
    let mut bad = good.clone();
    bad[0] = b'X';
    let e = Smdh::read(&bad).unwrap_err();
    assert_eq!(e.offset(), Some(0));
    assert!(e.to_string().contains("is not \"SMDH\""), "{e}");
    // An unpaired high surrogate in the French publisher (third structure, field 0x180), at its
    // second unit.
    let mut bad = good.clone();
    let at = 0x8 + 2 * 0x200 + 0x180 + 2;
    bad[at..at + 2].copy_from_slice(&0xD800u16.to_le_bytes());
    let e = Smdh::read(&bad).unwrap_err();
    assert_eq!(e.offset(), Some(at));
    assert!(e.to_string().contains("french publisher"), "{e}");
    // Bytes after the file are ignored.
    let mut long = good.clone();
    long.extend_from_slice(&[0xAA; 64]);
    assert!(Smdh::read(&long).is_ok());
}

#[test]
fn a_title_longer_than_its_field_is_refused_on_write() {
    let s = Smdh::new(Title::new(&"x".repeat(65), "", ""));
    let e = s.to_bytes().unwrap_err();
    assert!(matches!(e, SmdhError::TooLong { units: 65, capacity: 64, .. }), "{e}");
    // 64 units fill the field without a terminator and read back.
    let s = Smdh::new(Title::new(&"x".repeat(64), &"y".repeat(128), ""));
    assert_eq!(Smdh::read(&s.to_bytes().unwrap()).unwrap(), s);
}

#[test]
fn bad_pngs_are_refused() {
    assert!(Rgba8Image::from_png(b"not a png").is_err());
    let good = Icon::filled(48, 0xFFFF).to_png().unwrap();
    assert!(Rgba8Image::from_png(&good[..good.len() / 2]).is_err());
}

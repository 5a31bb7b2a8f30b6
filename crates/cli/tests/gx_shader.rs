//! `translate`, `verify` and `gx inspect` on BRRES materials, as a user runs them: the sample
//! file the gx crate builds, wrong names, truncated files.

use std::path::PathBuf;
use std::process::{Command, Output};

fn shaderport(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderport")).args(args).output().expect("run shaderport")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn sample(name: &str) -> (PathBuf, String) {
    let dir = testkit::temp_dir(name);
    let f = dir.join("sample.brres");
    std::fs::write(&f, gx::brres::write(&gx::brres::sample::sample_brres()).unwrap()).unwrap();
    let s = f.to_string_lossy().into_owned();
    (dir, s)
}

const MATERIALS: [&str; 3] = ["lit_texture", "konst_compare", "bump"];

#[test]
fn translate_one_material_to_every_target() {
    let (_dir, f) = sample("gx-translate-one");
    for to in ["glsl", "glsl-es", "msl", "hlsl", "wgsl"] {
        let out = shaderport(&["translate", &f, "--material", "bump", "--to", to]);
        assert!(out.status.success(), "{to}: {}", text(&out.stderr));
        assert!(!out.stdout.is_empty());
    }
    let out = shaderport(&["translate", &f, "--material", "lit_texture", "--to", "wgsl"]);
    assert!(text(&out.stdout).contains("@fragment"), "{}", text(&out.stdout));
}

#[test]
fn translate_all_writes_one_validated_file_per_material() {
    let (dir, f) = sample("gx-translate-all");
    let outdir = dir.join("out");
    let out = shaderport(&["translate", &f, "--all", "--to", "spirv", "-o", outdir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for m in MATERIALS {
        let file = outdir.join(format!("{m}.spv"));
        let words = std::fs::read(&file).unwrap();
        assert_eq!(&words[..4], &[0x03, 0x02, 0x23, 0x07], "{m}");
        if testkit::tool("spirv-val") {
            assert_eq!(testkit::spirv_val(&file), None);
        }
    }
    // Two named materials also need a folder.
    let out = shaderport(&["translate", &f, "--material", "bump", "--material", "lit_texture", "--to", "glsl"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("-o DIR"), "{}", text(&out.stderr));
}

#[test]
fn translate_names_the_materials_when_none_or_a_wrong_one_is_given() {
    let (_dir, f) = sample("gx-translate-names");
    let out = shaderport(&["translate", &f, "--to", "glsl"]);
    assert!(!out.status.success());
    let e = text(&out.stderr);
    assert!(e.contains("3 materials") && e.contains("konst_compare") && e.contains("--all"), "{e}");
    let out = shaderport(&["translate", &f, "--material", "nope", "--to", "glsl"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no material \"nope\""), "{}", text(&out.stderr));
}

#[test]
fn truncated_brres_gives_the_offset_for_every_verb() {
    let (dir, f) = sample("gx-truncated");
    let bytes = std::fs::read(&f).unwrap();
    let t = dir.join("cut.brres");
    std::fs::write(&t, &bytes[..bytes.len() / 2]).unwrap();
    let t = t.to_string_lossy().into_owned();
    for args in [&["translate", &t, "--all", "--to", "glsl"][..], &["verify", &t], &["gx", "inspect", &t]] {
        let out = shaderport(args);
        assert!(!out.status.success(), "{args:?}");
        let e = text(&out.stderr);
        assert!(e.contains("cut.brres") && e.contains("byte offset") && !e.contains("panicked"), "{args:?}: {e}");
    }
}

#[test]
fn material_flag_on_a_shbin_is_refused() {
    let shbin = testkit::corpus("pica/golden/3ds-examples__graphics__gpu__simple_tri__source__vshader.v.pica.shbin");
    let out = shaderport(&["translate", shbin.to_str().unwrap(), "--material", "x", "--to", "glsl"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("not a BRRES file"), "{}", text(&out.stderr));
}

#[test]
fn inspect_lists_key_and_shader_hash_per_material() {
    let (_dir, f) = sample("gx-inspect-key");
    let out = shaderport(&["gx", "inspect", &f]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mats = v["models"][0]["materials"].as_array().unwrap();
    assert_eq!(mats.len(), 3);
    let mut hashes = Vec::new();
    for m in mats {
        let key = m["key"].as_str().unwrap();
        assert!(key.len() > 20 && key.chars().all(|c| c.is_ascii_hexdigit()), "{key}");
        let h = m["shader_hash"].as_str().unwrap();
        assert_eq!(h.len(), 16);
        hashes.push(h.to_string());
    }
    hashes.dedup();
    assert_eq!(hashes.len(), 3, "three different materials, three shaders");
}

/// The device run: every material of the sample, 64 random pixels each, against the CPU
/// reference. Skips without a Vulkan device unless SHADERPORT_REQUIRE_GPU is set.
#[test]
fn verify_every_material_on_the_device() {
    if let Err(e) = gpu::Gpu::new() {
        assert!(!testkit::required(), "{} is set but {e}", testkit::REQUIRE_ENV);
        eprintln!("skipping: {e}");
        return;
    }
    let (_dir, f) = sample("gx-verify");
    let out = shaderport(&["verify", &f]);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().last(), Some("192 passed, 0 failed"), "{stdout}");
    for m in MATERIALS {
        assert!(stdout.contains(&format!("material {m}: key ")), "{stdout}");
    }
    let out = shaderport(&["verify", &f, "--material", "konst_compare", "--cases", "10"]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout).lines().last(), Some("10 passed, 0 failed"));
}

fn read_png(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// `gx preview` draws every material on the device and fails unless every pixel equals the CPU
/// reference; the pictures are the sample's textures through each material, and the contact
/// sheet holds each picture at its place.
#[test]
fn preview_writes_checked_pictures_and_a_contact_sheet() {
    if let Err(e) = gpu::Gpu::new() {
        assert!(!testkit::required(), "{} is set but {e}", testkit::REQUIRE_ENV);
        eprintln!("skipping: {e}");
        return;
    }
    let (dir, f) = sample("gx-preview");
    let out_dir = dir.join("preview");
    let out = shaderport(&["gx", "preview", &f, "-o", out_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 4);
    let (sw, sh, sheet) = read_png(&out_dir.join("contact-sheet.png"));
    assert_eq!((sw, sh), (3 * 68 + 4, 72));
    for (i, m) in MATERIALS.iter().enumerate() {
        let (w, h, px) = read_png(&out_dir.join(format!("{m}.png")));
        assert_eq!((w, h), (64, 64));
        let first = &px[..4];
        assert!(px.chunks(4).any(|c| c != first), "{m}: a uniform picture");
        for y in 0..64usize {
            let row = &px[y * 256..(y + 1) * 256];
            let at = ((4 + y) * sw as usize + 4 + i * 68) * 4;
            assert_eq!(&sheet[at..at + 256], row, "{m} row {y}");
        }
    }
    // A lit sphere: the corners are off it (transparent), the centre is on it, and in
    // lit_texture (texture times colour channel 0) the upper left, toward the light, is brighter
    // on average than the lower right.
    for m in MATERIALS {
        let (_, _, px) = read_png(&out_dir.join(format!("{m}.png")));
        for (x, y) in [(0usize, 0usize), (63, 0), (0, 63), (63, 63)] {
            assert_eq!(px[(y * 64 + x) * 4 + 3], 0, "{m}: corner ({x}, {y}) is off the sphere");
        }
    }
    let (_, _, px) = read_png(&out_dir.join("lit_texture.png"));
    let mean = |x0: usize, y0: usize| {
        let (mut sum, mut n) = (0u64, 0u64);
        for y in y0..y0 + 16 {
            for x in x0..x0 + 16 {
                let c = &px[(y * 64 + x) * 4..(y * 64 + x) * 4 + 4];
                if c[3] == 255 {
                    sum += c[0] as u64 + c[1] as u64 + c[2] as u64;
                    n += 1;
                }
            }
        }
        assert!(n > 100, "the sphere covers the quadrant");
        sum / n
    };
    assert!(mean(14, 14) > mean(34, 34) + 30, "lit side brighter: {} vs {}", mean(14, 14), mean(34, 34));
    // The brick texture (decoded from the file) shows through lit_texture: its mortar grey
    // 0x9CD3 is (156, 154, 156) before lighting, so some pixel is grey, none is the checkerboard.
    let (_, _, px) = read_png(&out_dir.join("lit_texture.png"));
    assert!(px.chunks(4).any(|c| c[0] > c[2] + 30), "brick red is visible");
}

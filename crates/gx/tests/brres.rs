//! BRRES files built by the crate's writer: round trips, decoding materials into TEV state,
//! positioned errors on malformed files, and fuzzing with random and mutated bytes.

use gx::brres::{self, dict, Brres, Layer, Material, Model, Shader, Texture};
use gx::dl::{self, Command};
use gx::regs::*;
use gx::ErrorKind;
use proptest::prelude::*;

fn bp(address: u8, value: u32) -> Command {
    Command::Bp { address, value }
}

/// A material display list in the shape real ones have: pixel block (alpha test, z mode, masked
/// blend mode, constant alpha), TEV colours (both banks), indirect block, texgen XF loads.
fn material_list(seed: u32) -> Vec<u8> {
    let cmds = vec![
        bp(0xF3, 0x3F0000 | (seed & 0xFF)),
        bp(0x40, 0x000017),
        bp(0xFE, 0x00FFE3),
        bp(0x41, 0x0034A0),
        bp(0x42, 0x000000),
        Command::Nop,
        bp(0xE2, 0x0000FF | ((seed & 0x7F) << 12)),
        bp(0xE3, 0x0FF0FF),
        bp(0xE3, 0x0FF0FF),
        bp(0xE3, 0x0FF0FF),
        bp(0xE0, 0x800000 | 0x40),
        bp(0xE1, 0x800000 | (0x80 << 12) | 0x20),
        bp(0x25, 0x000000),
        bp(0x06, 0x400200),
        bp(0x07, 0x100000),
        bp(0x08, 0x400000),
        Command::Xf { address: 0x1040, values: vec![0x00000280] },
        Command::Xf { address: 0x1050, values: vec![0x0000001E] },
    ];
    dl::encode(&cmds)
}

/// A shader display list: masked swap/ksel writes, indirect references, orders, combiners.
fn shader_list(stages: u8) -> Vec<u8> {
    let mut cmds = Vec::new();
    for k in 0..4u8 {
        cmds.push(bp(0xFE, 0x00000F));
        cmds.push(bp(0xF6 + 2 * k, [0x4, 0x0, 0x5, 0xA][k as usize]));
        cmds.push(bp(0xFE, 0x00000F));
        cmds.push(bp(0xF7 + 2 * k, [0xE, 0xC, 0xD, 0xE][k as usize]));
    }
    for k in 0..(stages as u32).div_ceil(2) {
        cmds.push(bp(0xFE, 0xFFFFF0));
        cmds.push(bp(0xF6 + k as u8, 0x00C1E0));
    }
    cmds.push(bp(0x27, 0xFFFFFF));
    for i in 0..stages {
        if i % 2 == 0 {
            cmds.push(bp(0x28 + i / 2, 0x03F040 | (i as u32 & 7)));
        }
        cmds.push(bp(0xC0 + 2 * i, 0x08F0A8 + i as u32));
        cmds.push(bp(0xC1 + 2 * i, 0x08F2C0));
        cmds.push(bp(0x10 + i, 0));
    }
    dl::encode(&cmds)
}

fn material(name: &str, index: u32, shader: usize, stages: u8, layers: &[&str]) -> Material {
    Material {
        name: name.into(),
        index,
        flags: if index % 2 == 1 { 0x8000_0000 } else { 0 },
        num_texgens: layers.len() as u8,
        num_chans: 1,
        num_tev_stages: stages,
        num_ind_stages: 0,
        cull_mode: 2,
        shader,
        layers: layers
            .iter()
            .enumerate()
            .map(|(i, t)| Layer {
                texture: t.to_string(),
                palette: (i == 1).then(|| format!("{t}_pal")),
                texmap: i as u32,
                tlut: i as u32,
                wrap_s: 1,
                wrap_t: 2,
                min_filter: 5,
                mag_filter: 1,
                lod_bias: -0.5,
                max_aniso: 0,
                bias_clamp: i == 0,
                edge_lod: false,
            })
            .collect(),
        display_list: {
            let mut v = material_list(index);
            v.resize(brres::MATERIAL_DL_SIZE, 0);
            v
        },
    }
}

fn shader(name: &str, index: u32, stages: u8) -> Shader {
    let mut display_list = shader_list(stages);
    display_list.resize(brres::SHADER_DL_SIZE, 0);
    Shader {
        name: name.into(),
        index,
        num_stages: stages,
        tex_refs: [0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        display_list,
    }
}

fn sample() -> Brres {
    Brres {
        models: vec![
            Model {
                name: "course".into(),
                version: 11,
                shaders: vec![shader("mat_road", 0, 1), shader("mat_sky", 1, 3), shader("mat_water", 2, 16)],
                materials: vec![
                    material("mat_road", 0, 0, 1, &["road"]),
                    material("mat_sky", 1, 1, 3, &["sky", "clouds"]),
                    material("mat_water", 2, 2, 16, &["water", "wave", "env"]),
                    material("mat_grass", 3, 0, 1, &["grass"]),
                ],
            },
            Model { name: "empty".into(), version: 11, shaders: vec![], materials: vec![] },
        ],
        textures: ["road", "sky", "clouds", "water", "wave", "env", "grass"]
            .iter()
            .enumerate()
            .map(|(i, n)| Texture {
                name: n.to_string(),
                width: 32 << i,
                height: 16,
                format: 14,
                mip_count: 1 + i as u32,
                // Level 0 for some (CMPR: 32 bytes per 8x8 block), header only for the others
                // (and for the 2048-wide one: GX textures are at most 1024 a side).
                data: if i % 2 == 0 && i < 6 { (0..(32 << i) / 8 * 2 * 32).map(|k| k as u8).collect() } else { vec![] },
            })
            .collect(),
        palettes: vec![
            brres::PaletteData { name: "pal_a".into(), format: 1, entries: vec![0xF800, 0x07E0, 0x001F] },
            brres::PaletteData { name: "pal_b".into(), format: 2, entries: vec![] },
        ],
        other_groups: vec![],
    }
}

#[test]
fn written_files_round_trip() {
    let b = sample();
    let bytes = brres::write(&b).unwrap();
    assert_eq!(&bytes[0..4], b"bres");
    assert_eq!(u32::from_be_bytes(bytes[8..12].try_into().unwrap()) as usize, bytes.len());
    let back = brres::read(&bytes).unwrap();
    for (x, y) in back.textures.iter().zip(&b.textures) {
        assert_eq!((&x.name, x.data.len()), (&y.name, y.data.len()));
    }
    assert_eq!(back.palettes, b.palettes);
    assert_eq!(back, b);
    // Writing what was read gives the same bytes.
    assert_eq!(brres::write(&back).unwrap(), bytes);
}

#[test]
fn material_state_decodes_header_counts_and_both_lists() {
    let b = brres::read(&brres::write(&sample()).unwrap()).unwrap();
    let m = &b.models[0];
    let mat = &m.materials[1];
    let st = mat.state(&m.shaders[mat.shader]).unwrap();
    // genMode comes from the header: 2 texgens, 1 channel, 3 stages, GX cull back -> hardware 1.
    assert_eq!(
        st.gen_mode,
        GenMode { num_texgens: 2, num_colchans: 1, num_tevstages_minus_1: 2, cull_mode: 1, num_indstages: 0 }
    );
    assert_eq!(st.alpha_test, AlphaTest { ref0: 1, ref1: 0, comp0: 7, comp1: 7, logic: 0 });
    assert_eq!(st.z_mode, ZMode { test: true, func: 3, update: true });
    // The blend-mode write was masked with 0x00FFE3: dither (bit 2) and the update bits (3, 4)
    // keep their previous value (0).
    assert_eq!(st.blend_mode, BlendMode::decode(0x0034A0 & 0x00FFE3));
    assert_eq!(st.color_regs[1], [0xFF, 0xFF, 0xFF, 1]);
    assert_eq!(st.konst_regs[0], [0x40, 0x80, 0x20, 0]);
    assert_eq!(st.ind_mtx[0].entries(), [[0x200, 0, 0], [0, 0x200, 0]]);
    assert_eq!(st.ind_mtx[0].scale(), 17);
    assert_eq!(st.swap_table(0), [0, 1, 2, 3]);
    assert_eq!(st.swap_table(1), [0, 0, 0, 3]);
    assert_eq!(st.swap_table(2), [1, 1, 1, 3]);
    assert_eq!(st.swap_table(3), [2, 2, 2, 3]);
    assert_eq!((st.stage(2).kcsel, st.stage(2).kasel), (0x1E, 0x00));
    assert_eq!((st.stage(1).kcsel, st.stage(1).kasel), (0x03, 0x00));
    assert_eq!(st.color_env[2], ColorCombiner::decode(0x08F0AA));
    assert_eq!(st.num_stages(), 3);
}

#[test]
fn dictionaries_carry_a_search_tree_that_finds_every_name() {
    let names = ["mat_road", "mat_sky", "mat_water", "a", "ab", "abc", "b", "zzzz", "mat_road2"];
    let nodes = dict::build_tree(&names).unwrap();
    for (i, n) in names.iter().enumerate() {
        assert_eq!(dict::lookup(&nodes, &names, n), Some(i + 1), "{n}");
    }
    assert_eq!(dict::lookup(&nodes, &names, "missing"), None);
    assert!(dict::build_tree(&["x", "x"]).is_err());
}

proptest! {
    #[test]
    fn search_tree_finds_every_name(names in prop::collection::hash_set("[a-zA-Z0-9_()]{1,12}", 1..40)) {
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let nodes = dict::build_tree(&names).unwrap();
        for (i, n) in names.iter().enumerate() {
            prop_assert_eq!(dict::lookup(&nodes, &names, n), Some(i + 1));
        }
    }
}

#[test]
fn malformed_files_give_positioned_errors() {
    let good = brres::write(&sample()).unwrap();
    // Magic.
    let mut b = good.clone();
    b[0] = b'x';
    let e = brres::read(&b).unwrap_err();
    assert_eq!(e.offset, 0);
    assert!(matches!(e.kind, ErrorKind::BadMagic { .. }));
    // Little-endian byte-order mark.
    let mut b = good.clone();
    b[4..6].copy_from_slice(&[0xFF, 0xFE]);
    assert_eq!(brres::read(&b).unwrap_err().offset, 4);
    // Length in the header beyond the data.
    let e = brres::read(&good[..good.len() - 1]).unwrap_err();
    assert_eq!(e.offset, 8);
    // Unsupported MDL0 version, at the version field.
    let mdl0 = find(&good, b"MDL0");
    let mut b = good.clone();
    b[mdl0 + 11] = 7;
    let e = brres::read(&b).unwrap_err();
    assert_eq!(e.offset as usize, mdl0 + 8);
    assert!(e.to_string().contains("MDL0 version 7"), "{e}");
    // A huge dictionary count, at the count field.
    let mut b = good.clone();
    b[0x18 + 4..0x18 + 8].copy_from_slice(&0x7FFF_FFFFu32.to_be_bytes());
    let e = brres::read(&b).unwrap_err();
    assert_eq!(e.offset, 0x1C);
    assert!(matches!(e.kind, ErrorKind::TooMany { .. }));
    // A TEV stage count above 16 in a material header.
    let b = with_material_field(&good, 0x16, 17);
    let e = brres::read(&b).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::TooMany { what: "TEV stage", .. }), "{e}");
    // A bad opcode inside a shader display list: the error names the byte of the opcode.
    let mut b = good.clone();
    let dl_at = find(&b, &[0x61, 0xFE, 0x00, 0x00, 0x0F]);
    b[dl_at] = 0x77;
    let e = brres::read(&b).unwrap_err();
    assert_eq!((e.offset as usize, e.kind), (dl_at, ErrorKind::UnknownCommand(0x77)));
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).position(|w| w == needle).expect("present")
}

/// `good` with one byte of the first material block ("mat_road") replaced.
fn with_material_field(good: &[u8], field: usize, value: u8) -> Vec<u8> {
    let b = brres::read(good).unwrap();
    assert!(!b.models[0].materials.is_empty());
    // Locate the first material block by flags 0, counts (1 texgen, 1 channel, 1 stage,
    // 0 indirect) and cull mode 2.
    let at = find(good, &[0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 2]) - 0x10;
    let mut out = good.to_vec();
    out[at + field] = value;
    out
}

/// Found by `mutated_valid_files_never_panic`: a root offset past the end of the file is
/// reported at the offset field, not at the position it points to.
#[test]
fn regression_root_offset_outside_the_file() {
    let mut d = brres::write(&sample()).unwrap();
    d[0x0C] = 0xFF;
    let e = brres::read(&d).unwrap_err();
    assert_eq!(e.offset, 0x0C);
    assert!(matches!(e.kind, ErrorKind::OutOfBounds { what: "root section", .. }), "{e}");
}

#[test]
fn every_truncation_is_an_error_not_a_panic() {
    let good = brres::write(&sample()).unwrap();
    for n in 0..good.len() {
        let e = brres::read(&good[..n]).unwrap_err();
        assert!(e.offset as usize <= good.len(), "offset {} for length {n}", e.offset);
    }
}

proptest! {
    #[test]
    fn random_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..2048)) {
        let _ = brres::read(&data);
        let _ = dl::decode(&data, 0);
    }

    #[test]
    fn random_bytes_after_a_valid_header_never_panic(tail in prop::collection::vec(any::<u8>(), 0..4096)) {
        let mut data = b"bres\xfe\xff\x00\x00".to_vec();
        data.extend_from_slice(&((tail.len() + 16) as u32).to_be_bytes());
        data.extend_from_slice(&[0x00, 0x10, 0x00, 0x01]);
        data.extend_from_slice(&tail);
        let _ = brres::read(&data);
    }

    #[test]
    fn mutated_valid_files_never_panic(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..16)) {
        let mut data = brres::write(&sample()).unwrap();
        let len = data.len();
        for (i, v) in edits {
            data[i.index(len)] = v;
        }
        if let Err(e) = brres::read(&data) {
            // Offsets lie in the file, except where a structure's field lies past its end.
            prop_assert!(e.offset as usize <= len || matches!(e.kind, ErrorKind::Truncated { have: 0, .. }), "{}", e);
        }
    }

    #[test]
    fn mutated_and_truncated_valid_files_never_panic(cut in any::<prop::sample::Index>(), edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8)) {
        let mut data = brres::write(&sample()).unwrap();
        let len = data.len();
        for (i, v) in edits {
            data[i.index(len)] = v;
        }
        data.truncate(cut.index(len + 1));
        let _ = brres::read(&data);
    }
}

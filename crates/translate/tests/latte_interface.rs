//! The Latte shader interface (`<key>.<stage>.meta`): corpus headers against values read by hand
//! from their header fields (`shaderport latte disasm FILE` prints them as `$REG[n]`,
//! `$SAMPLER_VARS[..]`, ...), every corpus shader yields one, the JSON round-trips, and bad
//! headers give errors naming the file and the field, never a panic.

use latte::gfd::{Block, BlockKind, FileHeader, GfdFile, ShaderHeader, Stage};
use proptest::prelude::*;
use translate::latte::interface::{Dimension, InterfaceStage, Mode, Origin, LOOSE_BINDING};
use translate::latte::{gfd_interfaces, header_semantics, Interface, InterfaceError, Varyings};

fn corpus(rel: &str) -> (String, Vec<u8>) {
    let p = testkit::corpus(rel);
    (p.display().to_string(), std::fs::read(&p).expect("corpus file"))
}

fn interfaces(rel: &str) -> Vec<Interface> {
    let (name, bytes) = corpus(rel);
    gfd_interfaces(&name, &bytes).expect("interfaces")
}

fn of(v: &[Interface], stage: InterfaceStage) -> &Interface {
    v.iter().find(|i| i.stage == stage).expect("stage present")
}

/// (semantic, location, register) of the varyings.
fn links(i: &Interface) -> Vec<(u32, u32, u32)> {
    i.varyings.iter().map(|v| (v.semantic, v.location, v.register)).collect()
}

#[test]
fn texture_shader_uniform_register_mode() {
    // MultiDRCSpaceDemo/textureShader: $MODE "UniformRegister"; VS NUM_SQ_VTX_SEMANTIC 2 with
    // entries 0 (aPosition) and 1 (aTexCoord); NUM_SPI_VS_OUT_ID 1, SEMANTIC_0 = 0; PS
    // NUM_SPI_PS_INPUT_CNTL 1, SPI_PS_INPUT_CNTL[0] SEMANTIC 0 DEFAULT_VAL 1; sampler uTexture
    // SAMPLER2D at location 0.
    let v = interfaces("latte/MultiDRCSpaceDemo/textureShader.gsh");
    let vs = of(&v, InterfaceStage::Vertex);
    assert_eq!((vs.mode, vs.origin), (Mode::UniformRegister, Origin::Header));
    assert_eq!(vs.loose_uniforms.as_ref().map(|l| (l.binding, l.size)), Some((LOOSE_BINDING, 4096)));
    assert!(vs.uniform_blocks.is_empty());
    let attrs: Vec<_> = vs.attributes.iter().map(|a| (a.name.as_str(), a.semantic, a.location, a.gpr)).collect();
    assert_eq!(attrs, vec![("aPosition", 0, 0, 1), ("aTexCoord", 1, 1, 2)]);
    assert_eq!(links(vs), vec![(0, 0, 0)]);
    assert_eq!(vs.push_constants.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["point_size"]);
    let ps = of(&v, InterfaceStage::Pixel);
    assert_eq!(links(ps), vec![(0, 0, 0)]);
    assert_eq!(ps.varyings[0].default_value, Some(1));
    assert_eq!(ps.samplers.len(), 1);
    let s = &ps.samplers[0];
    assert_eq!((s.name.as_str(), s.slot, s.binding, s.dimension), ("uTexture", 0, 32, Dimension::D2));
    assert_eq!(ps.push_constants.iter().map(|p| (p.offset, p.size)).collect::<Vec<_>>(), [(16, 4), (20, 4)]);
}

#[test]
fn ubo_multi_blocks_bind_at_their_index() {
    // t10_ubo_multi PS: $MODE "UniformBlock"; UNIFORM_BLOCKS[0] "Material" OFFSET 1 SIZE 32,
    // UNIFORM_BLOCKS[1] "Lights" OFFSET 2 SIZE 528.
    let v = interfaces("latte-mesa/gsh/t10_ubo_multi.gsh");
    let ps = of(&v, InterfaceStage::Pixel);
    assert_eq!(ps.mode, Mode::UniformBlock);
    assert!(ps.loose_uniforms.is_none());
    let blocks: Vec<_> = ps.uniform_blocks.iter().map(|b| (b.name.as_str(), b.index, b.binding, b.size)).collect();
    assert_eq!(blocks, vec![("Material", 1, 1, 32), ("Lights", 2, 2, 528)]);
}

#[test]
fn texcube_semantics_and_cube_sampler() {
    // t13_texcube VS: REG[3] NUM_SPI_VS_OUT_ID = 1, REG[4] SPI_VS_OUT_ID_0 = 0xFFFF8B8A (PARAM 0
    // semantic 0x8A, PARAM 1 0x8B); REG[16] NUM_SQ_VTX_SEMANTIC = 2, REG[17..18] = 0, 1.
    // PS: REG[4] = 2 inputs, REG[5] = 0x108A, REG[6] = 0x108B (DEFAULT_VAL 0, not flat);
    // SAMPLER_VARS[0] "u_env" SAMPLERCUBE location 0.
    let v = interfaces("latte-mesa/gsh/t13_texcube.gsh");
    let vs = of(&v, InterfaceStage::Vertex);
    assert_eq!(links(vs), vec![(0x8A, 0, 0), (0x8B, 1, 1)]);
    assert_eq!(vs.attributes.iter().map(|a| (a.semantic, a.gpr)).collect::<Vec<_>>(), [(0, 1), (1, 2)]);
    let ps = of(&v, InterfaceStage::Pixel);
    assert_eq!(links(ps), vec![(0x8A, 0, 0), (0x8B, 1, 1)]);
    assert!(ps.varyings.iter().all(|x| x.default_value == Some(0) && x.flat == Some(false)));
    assert_eq!(ps.samplers[0].dimension, Dimension::Cube);
    assert_eq!(ps.samplers[0].binding, 32);
}

#[test]
fn tex_array_3d_sampler_slots() {
    // t15_tex_array_3d PS: SAMPLER_VARS u_arr SAMPLER2D 0, u_vol SAMPLER3D 1, u_itex SAMPLER2D 2,
    // u_arr_shadow SAMPLER2D 3.
    let ps = of(&interfaces("latte-mesa/gsh/t15_tex_array_3d.gsh"), InterfaceStage::Pixel).clone();
    let s: Vec<_> = ps.samplers.iter().map(|s| (s.name.as_str(), s.slot, s.binding, s.dimension)).collect();
    assert_eq!(
        s,
        vec![
            ("u_arr", 0, 32, Dimension::D2),
            ("u_vol", 1, 33, Dimension::D3),
            ("u_itex", 2, 34, Dimension::D2),
            ("u_arr_shadow", 3, 35, Dimension::D2)
        ]
    );
}

#[test]
fn many_varyings_and_a_geometry_pair() {
    // t19_many_varyings VS: REG[3] = 3, REG[4..6] = 0x8C8B8AE9, 0x908F8E8D, 0xFF939291: PARAM 0
    // is 0xE9, PARAM 1-10 are 0x8A-0x93. Dense locations by semantic: 0x8A-0x93 -> 0-9, 0xE9 -> 10.
    let v = interfaces("latte-mesa/gsh/t19_many_varyings.gsh");
    let vs = of(&v, InterfaceStage::Vertex);
    let mut want = vec![(0xE9, 10, 0)];
    want.extend((0..10).map(|k| (0x8A + k, k, k + 1)));
    assert_eq!(links(vs), want);
    let ps = of(&v, InterfaceStage::Pixel);
    // SPI_PS_INPUT_CNTL[8] sets FLAT_SHADE.
    assert_eq!(ps.varyings.iter().filter(|x| x.flat == Some(true)).map(|x| x.register).collect::<Vec<_>>(), [8]);
    // t17_gs_passthrough: the VS is in geometry mode (ring writes: no varyings); the GS's REG[7]
    // NUM_SPI_VS_OUT_ID = 1, REG[8] = 0xFFFF8B8A links 0x8A and 0x8B to the PS's inputs.
    let v = interfaces("latte-mesa/gsh/t17_gs_passthrough.gsh");
    assert!(of(&v, InterfaceStage::Vertex).varyings.is_empty());
    assert_eq!(links(of(&v, InterfaceStage::Geometry)), vec![(0x8A, 0, 0), (0x8B, 1, 1)]);
    assert_eq!(links(of(&v, InterfaceStage::Pixel)), vec![(0x8A, 0, 0), (0x8B, 1, 1)]);
}

/// Every shader header of the corpus, with its file.
fn corpus_headers() -> Vec<(String, ShaderHeader, Option<Vec<u8>>)> {
    let mut files = testkit::walk(&testkit::corpus("latte"), "gsh");
    files.extend(testkit::walk(&testkit::corpus("latte-mesa"), "gsh"));
    let mut out = Vec::new();
    for f in files {
        let g = GfdFile::parse(&std::fs::read(&f).unwrap()).unwrap();
        for s in g.shaders().unwrap() {
            out.push((f.display().to_string(), s.header, s.program));
        }
    }
    out
}

#[test]
fn every_corpus_shader_yields_an_interface_whose_json_round_trips() {
    let headers = corpus_headers();
    // One game-wide map over the whole corpus, as batch builds it.
    let mut sems = Vec::new();
    for (f, h, _) in &headers {
        sems.extend(header_semantics(f, h).unwrap_or_else(|e| panic!("{e}")));
    }
    let map = Varyings::from_semantics(sems);
    let mut n = 0;
    for (f, h, prog) in &headers {
        let key = prog.as_ref().map(|p| format!("{:016x}", latte::key::shader_key(&h.regs, p))).unwrap_or_default();
        let i = Interface::from_header(f, &key, h, &map).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(i.stage, InterfaceStage::from(h.stage), "{f}");
        assert_eq!(i.samplers.len(), h.sampler_vars.len(), "{f}");
        assert_eq!(i.uniform_blocks.len(), h.uniform_blocks.len(), "{f}");
        for v in &i.varyings {
            assert_eq!(map.location(v.semantic as u8), Some(v.location), "{f}");
        }
        let json = i.to_json();
        assert_eq!(Interface::from_json(&json).unwrap(), i, "{f}");
        n += 1;
    }
    // 17 vertex + pixel pairs and the vertex header of gfd/vertex-header.gsh in corpus/latte,
    // 30 files of latte-mesa of which two carry a geometry shader.
    assert_eq!(n, 17 * 2 + 1 + 30 * 2 + 2);
}

#[test]
fn a_raw_program_gets_the_documented_defaults() {
    let (_, bytes) = corpus("latte/gfd/vertex-program.gsh");
    let g = GfdFile::parse(&bytes).unwrap();
    let b = g.blocks.iter().find(|b| b.block_kind() == BlockKind::VertexProgram).unwrap();
    let prog = latte::isa::Program::decode_bytes(&b.data, b.data_offset).unwrap();
    let tr = translate::latte::translate(&prog, translate::latte::Stage::Vertex, &Default::default()).unwrap();
    let i = Interface::from_program("0123456789abcdef", &prog, &tr);
    assert_eq!(i.origin, Origin::Program);
    assert!(i.attributes.is_empty() && i.varyings.is_empty());
    assert_eq!(i.uniform_blocks.len(), tr.uniform_blocks().len());
    assert_eq!(i.loose_uniforms.is_some(), tr.reads_cfile());
    assert_eq!(Interface::from_json(&i.to_json()).unwrap(), i);
}

fn vertex_header() -> ShaderHeader {
    let (_, bytes) = corpus("latte/MultiDRCSpaceDemo/textureShader.gsh");
    GfdFile::parse(&bytes).unwrap().shaders().unwrap().remove(0).header
}

fn field_error(h: &ShaderHeader) -> String {
    let map = Varyings::from_semantics(0..=254);
    match Interface::from_header("x.gsh", "k", h, &map) {
        Err(e @ InterfaceError::Field { .. }) => e.to_string(),
        other => panic!("expected a field error, got {other:?}"),
    }
}

#[test]
fn bad_fields_are_named() {
    let mut h = vertex_header();
    h.regs[16 + 1 + 1] = 0; // SQ_VTX_SEMANTIC[1] = semantic 0, as entry 0
    assert_eq!(
        field_error(&h),
        "x.gsh: vertex shader header: SQ_VTX_SEMANTIC[1]: semantic 0 is also SQ_VTX_SEMANTIC[0]"
    );
    let mut h = vertex_header();
    h.regs[4] = 0xFFFF_0707;
    assert!(field_error(&h).contains("SPI_VS_OUT_ID[0].SEMANTIC_1: semantic 7 is also PARAM 0"));
    let mut h = vertex_header();
    h.regs[3] = 11;
    assert!(field_error(&h).contains("NUM_SPI_VS_OUT_ID: 11 registers"));
    let mut h = vertex_header();
    h.mode = 9;
    assert!(field_error(&h).contains("mode: 9 is not a GX2 shader mode"));
    let mut h = vertex_header();
    h.regs.truncate(10);
    assert!(field_error(&h).contains("the register block has 10 words"));
    // A varying past location 31: 40 semantics game-wide, this shader's is the last.
    let h = vertex_header();
    let map = Varyings::from_semantics((100..140).chain([0]).map(|s| if s == 0 { 200 } else { s }));
    let mut h2 = h.clone();
    h2.regs[4] = 0xFFFF_FFC8; // PARAM 0 = semantic 200, location 40
    let e = Interface::from_header("x.gsh", "k", &h2, &map).unwrap_err().to_string();
    assert!(e.contains("SPI_VS_OUT_ID[0].SEMANTIC_0: semantic 200 has location 40"), "{e}");
    let e = Interface::from_header("x.gsh", "k", &h, &Varyings::default()).unwrap_err().to_string();
    assert!(e.contains("semantic 0 is not in the game-wide varyings map"), "{e}");
}

/// A GFD of one header block of `header` bytes (of `stage`) and a one-word program.
fn gfd_with_header(stage: Stage, header: Vec<u8>) -> Vec<u8> {
    let (hk, pk) = match stage {
        Stage::Vertex => (BlockKind::VertexHeader, BlockKind::VertexProgram),
        Stage::Pixel => (BlockKind::PixelHeader, BlockKind::PixelProgram),
        Stage::Geometry => (BlockKind::GeometryHeader, BlockKind::GeometryProgram),
    };
    let blocks = vec![
        Block::new(hk, 0, header),
        Block::new(pk, 1, vec![0, 0, 0, 0]),
        Block::new(BlockKind::EndOfFile, 2, Vec::new()),
    ];
    GfdFile { header: FileHeader::default(), blocks, trailing: Vec::new() }.to_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Random header bytes: an error naming the file, or an interface; never a panic.
    #[test]
    fn random_header_bytes_never_panic(stage in 0u8..3, bytes in prop::collection::vec(any::<u8>(), 0..0x200)) {
        let stage = [Stage::Vertex, Stage::Pixel, Stage::Geometry][stage as usize];
        let gfd = gfd_with_header(stage, bytes);
        if let Err(e) = gfd_interfaces("random.gsh", &gfd) {
            prop_assert!(e.to_string().starts_with("random.gsh: "), "{}", e);
        }
    }

    /// A real header with random register words, mode and variable fields: the same.
    #[test]
    fn random_header_fields_never_panic(
        regs in prop::collection::vec(any::<u32>(), 0..60),
        mode in 0u32..6,
        blocks in prop::collection::vec((any::<u32>(), 0u32..0x20000), 0..4),
        samplers in prop::collection::vec((0u32..8, 0u32..24), 0..4),
        attribs in prop::collection::vec((0u32..32, 0u32..3, 0u32..140), 0..4),
    ) {
        let mut h = vertex_header();
        h.regs = regs;
        h.mode = mode;
        h.uniform_blocks = blocks.into_iter().map(|(o, s)| latte::gfd::shader::UniformBlock { name: "b".into(), offset: o % 20, size: s }).collect();
        h.sampler_vars = samplers.into_iter().map(|(t, l)| latte::gfd::shader::SamplerVar { name: "s".into(), var_type: t, location: l }).collect();
        h.attrib_vars = attribs.into_iter().map(|(t, c, l)| latte::gfd::shader::AttribVar { name: "a".into(), var_type: t, count: c, location: l }).collect();
        let sems = header_semantics("f.gsh", &h).unwrap_or_default();
        let map = Varyings::from_semantics(sems);
        match Interface::from_header("f.gsh", "k", &h, &map) {
            Ok(i) => prop_assert_eq!(Interface::from_json(&i.to_json()).unwrap(), i),
            Err(e) => prop_assert!(e.to_string().starts_with("f.gsh: vertex shader header: "), "{}", e),
        }
        let bytes = gfd_with_header(Stage::Vertex, h.canonical_bytes(true));
        if let Err(e) = gfd_interfaces("g.gsh", &bytes) {
            prop_assert!(e.to_string().starts_with("g.gsh: "), "{}", e);
        }
    }
}

//! Fetch and export facts (docs/specs/latte-semantics-facts.md §4, §5.1): VTX data formats,
//! number formats and endian swaps, uniform blocks through VFETCH, TEX against CPU textures,
//! export selectors and bursts, memory writes.

mod interp;
use interp::*;
use latte::interp::{Buffer, CpuTextures, ExportKind, Inputs, Stage, Texture2d};
use std::sync::Arc;

/// §4.2 / §4.4: index·stride + OFFSET; formats 32x4 float (a uniform block behind buffer id
/// 0x82), 8_8_8_8 NORM, 16_16 INT signed with the 8-in-16 swap, 32 float with the 8-in-32 swap,
/// 8_8 SCALED signed; missing components read (0, 0, 0, 1); DST_SEL 4/5 write 0/1.
#[test]
fn vtx_fetch_formats_and_endian_swaps() {
    let text = "00 VTX:\n0 VFETCH R1, R0.x, b130 FETCH_TYPE(NO_INDEX) MFC(15) FMT(35) NUM(2) SIGNED\n\
        1 VFETCH R2, R0.x, b5 FMT(26) NUM(0)\n2 VFETCH R3.xy01, R0.x, b5 OFFSET(4) FMT(15) NUM(1) SIGNED ENDIAN(1)\n\
        3 VFETCH R4.x___, R0.x, b5 OFFSET(8) FMT(14) ENDIAN(2)\n4 VFETCH R5, R0.x, b5 OFFSET(12) FMT(7) NUM(2) SIGNED\nEND_OF_PROGRAM\n";
    let mut inputs = Inputs::default();
    let mut block = vec![0u32; 8];
    block[4..8].copy_from_slice(&[fb(1.0), fb(2.0), fb(3.0), fb(4.0)]);
    inputs.uniform_blocks.insert(2, block);
    let mut data = vec![0u8; 16];
    data.extend([0x00, 0x80, 0xFF, 0x33, 0x12, 0x34, 0xFF, 0xFE, 0x40, 0x20, 0, 0, 0xFE, 0x05, 0, 0]);
    inputs.buffers.insert(5, Buffer { data, stride: 16, format: None });
    let r = run(text, Stage::Vertex, &inputs, &[inv(&[(0, [1, 0, 0, 0]), (4, [7, 7, 7, 7])])]);
    let g = &r[0].gprs;
    assert_eq!(g[1], [fb(1.0), fb(2.0), fb(3.0), fb(4.0)]);
    assert_eq!(g[2], [0, fb(128.0 / 255.0), fb(1.0), fb(51.0 / 255.0)]);
    assert_eq!(g[3], [0x1234, (-2i32) as u32, 0, 1]);
    assert_eq!(g[4], [fb(2.5), 7, 7, 7]);
    assert_eq!(g[5], [fb(-2.0), fb(5.0), 0, fb(1.0)]);
}

/// §4.2: bytes past the end of a buffer read as 0 (decision); a missing buffer is an input
/// error naming the fetch.
#[test]
fn vtx_fetch_out_of_range_and_missing_buffers() {
    let text = "00 VTX:\n0 VFETCH R1, R0.x, b5 FMT(35) NUM(2) SIGNED\nEND_OF_PROGRAM\n";
    let mut inputs = Inputs::default();
    inputs.buffers.insert(5, Buffer { data: vec![0xFF; 16], stride: 16, format: None });
    let r = run(text, Stage::Vertex, &inputs, &[inv(&[(0, [3, 0, 0, 0])])]);
    assert_eq!(r[0].gprs[1], [0; 4]);
    let e = try_run(text, Stage::Vertex, &Inputs::default(), &[inv(&[])]).unwrap_err();
    assert!(e.to_string().contains("fetch 0") && e.to_string().contains("BUFFER_ID 5"), "{e}");
}

/// §4.1: SAMPLE through the host's textures (nearest, normalized coordinates), DST_SEL
/// swizzles; LD with integer coordinates; GET_TEXTURE_INFO.
#[test]
fn tex_sample_ld_and_size_from_cpu_textures() {
    let tex = Texture2d {
        width: 2,
        height: 2,
        texels: vec![[0.0, 0.1, 0.2, 0.3], [1.0, 1.1, 1.2, 1.3], [2.0, 2.1, 2.2, 2.3], [3.0, 3.1, 3.2, 3.3]],
    };
    let mut units = CpuTextures::default();
    units.units.insert(0, tex);
    let inputs = Inputs { textures: Some(Arc::new(units)), ..Inputs::default() };
    let text = "00 TEX:\n0 SAMPLE R1.wzyx, R0.xy__, t0, s0\n1 LD R2, R3.xy0_, t0, s0\n2 GET_TEXTURE_INFO R4, R3.xy0_, t0, s0\nEND_OF_PROGRAM\n";
    let r = run(text, Stage::Vertex, &inputs, &[inv(&[(0, [fb(0.75), fb(0.25), 0, 0]), (3, [0, 1, 0, 0])])]);
    let g = &r[0].gprs;
    assert_eq!(g[1], [fb(1.3), fb(1.2), fb(1.1), fb(1.0)]);
    assert_eq!(g[2], [fb(2.0), fb(2.1), fb(2.2), fb(2.3)]);
    assert_eq!(g[4], [2, 2, 1, 1]);
}

/// §5.1: EXPORT writes GPR RW_GPR+i to ARRAY_BASE+i for each burst, through SEL_X..W (4 = 0,
/// 5 = 1.0, 7 masked and read as 0); MEM_RING writes record their dword address.
#[test]
fn exports_bursts_selectors_and_memory_writes() {
    let text = "00 EXP: PARAM0, R1.xy01 BURSTCNT(1)\n01 EXP_DONE: POS0, R1._zw_\n\
                02 MEM_RING: WRITE_IND(4), R2 ARRAY_SIZE(4095) COMP_MASK(15) INDEX_GPR(3) ELEM_SIZE(3)\nEND_OF_PROGRAM\n";
    let r = run(
        text,
        Stage::Vertex,
        &Inputs::default(),
        &[inv(&[(1, [1, 2, 3, 4]), (2, [5, 6, 7, 8]), (3, [2, 0, 0, 0])])],
    );
    let x = &r[0];
    assert_eq!(export(x, "param0"), Some([1, 2, 0, fb(1.0)]));
    assert_eq!(export(x, "param1"), Some([5, 6, 0, fb(1.0)]));
    assert_eq!(export(x, "pos0"), Some([0, 3, 4, 0]));
    let pos = x.exports.iter().find(|e| e.kind == ExportKind::Pos).unwrap();
    assert_eq!(pos.mask, 0b0110);
    assert_eq!(x.mem_writes.len(), 1);
    assert_eq!((x.mem_writes[0].addr, x.mem_writes[0].value), (4 + 2 * 4, [5, 6, 7, 8]));
}

/// §4.3: a SEMANTIC fetch writes GPR k+1 where SQ_VTX_SEMANTIC_k holds its semantic id; §4.2:
/// USE_CONST_FIELDS takes the format from the buffer resource.
#[test]
fn semantic_fetch_and_resource_formats() {
    let text =
        "00 VTX:\n0 SEMANTIC SID(7), R0.x, b160 FMT(35) NUM(2) SIGNED\n1 VFETCH R1, R0.x, b161 UCF\nEND_OF_PROGRAM\n";
    let mut inputs = Inputs { vtx_semantic: vec![0xFF, 0xFF, 7], ..Inputs::default() };
    let f = [fb(1.0), fb(2.0), fb(3.0), fb(4.0)];
    inputs
        .buffers
        .insert(160, Buffer { data: f.iter().flat_map(|w| w.to_le_bytes()).collect(), stride: 16, format: None });
    // 16_16 INT, unsigned.
    inputs.buffers.insert(161, Buffer { data: vec![1, 0, 2, 0], stride: 4, format: Some((15, 1, false, false)) });
    let r = run(text, Stage::Vertex, &inputs, &[inv(&[])]);
    assert_eq!(r[0].gprs[3], f);
    assert_eq!(r[0].gprs[1], [1, 2, 0, 1]);
}

/// `CpuTextures` samplers: bilinear filtering between texel centres, and repeat, mirror and
/// clamp addressing per axis.
#[test]
fn cpu_texture_filtering_and_wrapping() {
    use latte::interp::{Sampler, Wrap};
    let tex = Texture2d { width: 2, height: 1, texels: vec![[0.0; 4], [1.0; 4]] };
    let mut units = CpuTextures::default();
    units.units.insert(0, tex);
    units.samplers.insert(1, Sampler { linear: true, wrap: [Wrap::Clamp, Wrap::Clamp] });
    units.samplers.insert(2, Sampler { linear: false, wrap: [Wrap::Mirror, Wrap::Repeat] });
    units.samplers.insert(3, Sampler { linear: false, wrap: [Wrap::Clamp, Wrap::Repeat] });
    let inputs = Inputs { textures: Some(Arc::new(units)), ..Inputs::default() };
    let sample = |sampler: u8, u: f32| {
        let text = format!("00 TEX:\n0 SAMPLE R1, R0.xy__, t0, s{sampler}\nEND_OF_PROGRAM\n");
        bf(run(&text, Stage::Vertex, &inputs, &[inv(&[(0, [fb(u), fb(0.5), 0, 0])])])[0].gprs[1][0])
    };
    assert_eq!(sample(1, 0.5), 0.5, "halfway between the two texel centres");
    assert_eq!(sample(1, 0.375), 0.25);
    assert_eq!(sample(1, 0.0), 0.0, "clamped at the edge");
    assert_eq!(sample(0, 1.25), 0.0, "repeat");
    assert_eq!(sample(2, 1.25), 1.0, "mirror");
    assert_eq!(sample(3, 1.25), 1.0, "clamp");
}

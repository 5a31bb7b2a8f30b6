//! The GPU state tracker: plain registers, each upload port, and draws with their state.

use pica::float24::F24;
use pica::regs::cmdlist::{CommandList, ReadError, Writer};
use pica::state::{pack_f24x4, unpack_f24x4, DrawKind, GpuState, Vec4};

fn f(v: f32) -> F24 {
    F24::from_f32_truncate(v)
}

fn v4(x: f32, y: f32, z: f32, w: f32) -> Vec4 {
    [f(x), f(y), f(z), f(w)]
}

fn run(build: impl FnOnce(&mut Writer)) -> GpuState {
    let mut w = Writer::new();
    build(&mut w);
    let mut s = GpuState::new();
    s.apply_list(&w.finish());
    s
}

#[test]
fn masked_writes_change_only_their_bytes_of_their_register() {
    let s = run(|w| {
        w.write(0x107, 0x1111_1111).write(0x106, 0x7).masked(0x107, 0x4, 0xABCD_EF00);
    });
    assert_eq!(s.reg(0x107), 0x11CD_1111);
    assert_eq!(s.reg(0x106), 0x7);
    assert_eq!(s.reg(0x108), 0);
}

#[test]
fn vertex_shader_code_through_index_and_data_ports() {
    // One consecutive command: the index register, then seven data port ids.
    let s = run(|w| {
        w.consecutive(0x2CB, &[0x10, 0xA0, 0xA1, 0xA2]).repeated(0x2CC, &[0xB0, 0xB1]);
    });
    assert_eq!(&s.memories.vs.code[0x10..0x15], &[0xA0, 0xA1, 0xA2, 0xB0, 0xB1]);
    assert_eq!(s.memories.vs.code_offset, 0x15);
    assert_eq!(s.memories.vs.code[0x0F], 0);
}

#[test]
fn vertex_uploads_reach_the_geometry_unit_unless_it_has_its_own_configuration() {
    let shared = run(|w| {
        w.write(0x2D5, 3).repeated(0x2D6, &[0x1B, 0x2C]).write(0x2CB, 0).write(0x2CC, 0x55);
    });
    assert_eq!(&shared.memories.vs.opdescs[3..5], &[0x1B, 0x2C]);
    assert_eq!(&shared.memories.gs.opdescs[3..5], &[0x1B, 0x2C]);
    assert_eq!(shared.memories.gs.code[0], 0x55);
    let own = run(|w| {
        w.write(0x244, 1).write(0x2D5, 3).repeated(0x2D6, &[0x1B, 0x2C]);
    });
    assert_eq!(&own.memories.vs.opdescs[3..5], &[0x1B, 0x2C]);
    assert_eq!(&own.memories.gs.opdescs[3..5], &[0, 0]);
    // Geometry uploads stay in the geometry unit.
    let gs = run(|w| {
        w.write(0x29B, 7).write(0x29C, 0x99).write(0x2A5, 1).write(0x2A6, 0x77);
    });
    assert_eq!((gs.memories.gs.code[7], gs.memories.vs.code[7]), (0x99, 0));
    assert_eq!((gs.memories.gs.opdescs[1], gs.memories.vs.opdescs[1]), (0x77, 0));
}

#[test]
fn code_past_the_end_of_memory_is_dropped_with_a_warning() {
    let s = run(|w| {
        w.write(0x244, 1).write(0x2CB, 0xFFF).repeated(0x2CC, &[1, 2]);
    });
    assert_eq!(s.memories.vs.code[0xFFF], 1);
    assert_eq!(s.warning_count, 1);
    assert!(s.warnings[0].message.contains("past the end"), "{:?}", s.warnings);
}

#[test]
fn float_uniforms_in_f24_mode() {
    let a = v4(1.0, 2.0, -3.0, 0.5);
    let b = v4(4.0, 5.0, 6.0, 7.0);
    let mut words = vec![4u32];
    words.extend(pack_f24x4(a));
    words.extend(pack_f24x4(b));
    let s = run(|w| {
        w.consecutive(0x2C0, &words[..4]).repeated(0x2C1, &words[4..]);
    });
    assert_eq!(s.memories.vs.float_uniforms[4], a);
    assert_eq!(s.memories.vs.float_uniforms[5], b);
    // The index register moved on to c6.
    assert_eq!(s.reg(0x2C0) & 0xFF, 6);
    assert_eq!(s.memories.gs.float_uniforms[4], [F24::ZERO; 4]);
}

#[test]
fn f24_packing_puts_w_first() {
    // w = 1.0 (0x3F0000), z = 2.0 (0x400000), y = 3.0 (0x408000), x = 0.5 (0x3E0000).
    let words = pack_f24x4(v4(0.5, 3.0, 2.0, 1.0));
    assert_eq!(words, [0x3F00_0040, 0x0000_4080, 0x003E_0000]);
    assert_eq!(unpack_f24x4(words), v4(0.5, 3.0, 2.0, 1.0));
}

#[test]
fn float_uniforms_in_f32_mode_take_four_words_w_first() {
    let s = run(|w| {
        w.write(0x290, 0x8000_0002).repeated(0x291, &[1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits));
    });
    assert_eq!(s.memories.gs.float_uniforms[2], v4(4.0, 3.0, 2.0, 1.0));
    assert_eq!(s.reg(0x290), 0x8000_0003);
}

#[test]
fn float_uniforms_past_c95_are_dropped() {
    let s = run(|w| {
        w.write(0x2C0, 0x8000_005F).repeated(0x2C1, &[0; 8]);
    });
    assert_eq!(s.reg(0x2C0), 0x8000_0060);
    assert_eq!(s.warning_count, 1);
}

#[test]
fn int_and_bool_uniforms_are_registers() {
    let s = run(|w| {
        w.write(0x2B0, 0x7FFF_0005).write(0x2B2, 0x0403_0201).write(0x284, 0xFF);
    });
    assert_eq!(s.bool_uniforms(true), 5);
    assert_eq!(s.int_uniforms(true)[1], [1, 2, 3, 4]);
    assert_eq!(s.int_uniforms(false)[3], [0xFF, 0, 0, 0]);
}

#[test]
fn lighting_luts_through_the_index_and_the_eight_data_ports() {
    // Table DA1 (17) from entry 254: wraps to entry 0 after 255.
    let s = run(|w| {
        w.write(0x1C5, (17 << 8) | 254).consecutive(0x1C8, &[0xA, 0xB, 0xC]);
    });
    let lut = &s.memories.lighting[17];
    assert_eq!((lut[254], lut[255], lut[0]), (0xA, 0xB, 0xC));
    assert_eq!(s.memories.lighting[16][254], 0);
    assert_eq!(s.lut_positions().lighting_index, 1);
}

#[test]
fn fog_and_procedural_texture_luts() {
    let s = run(|w| {
        w.write(0xE6, 126).repeated(0xE8, &[1, 2, 3]);
        w.write(0xAF, (4 << 8) | 10).repeated(0xB0, &[0x11, 0x22]);
        w.write(0xAF, 5 << 8).write(0xB3, 0x33);
        w.write(0xAF, 1 << 8).write(0xB0, 0x44);
    });
    assert_eq!((s.memories.fog[126], s.memories.fog[127], s.memories.fog[0]), (1, 2, 3));
    assert_eq!(&s.memories.proctex.color[10..12], &[0x11, 0x22]);
    assert_eq!(s.memories.proctex.color_diff[0], 0x33);
    assert_eq!(s.warning_count, 1, "table 1 does not exist: {:?}", s.warnings);
}

#[test]
fn default_attributes_and_the_index_moving_on() {
    let a = v4(1.0, 0.0, 0.0, 1.0);
    let b = v4(0.25, 0.5, 0.75, 1.0);
    let mut words = vec![3u32];
    words.extend(pack_f24x4(a));
    words.extend(pack_f24x4(b));
    let s = run(|w| {
        w.consecutive(0x232, &words[..4]).repeated(0x233, &words[4..]);
    });
    assert_eq!(s.memories.default_attributes[3], a);
    assert_eq!(s.memories.default_attributes[4], b);
    assert!(s.draws.is_empty());
}

#[test]
fn immediate_mode_vertices_make_one_draw() {
    // Two attributes per vertex (VSH_NUM_ATTR = 1), three vertices, then GEOSTAGE_CONFIG2 bit 0
    // cleared ends the draw.
    let mut data = Vec::new();
    for i in 0..6 {
        data.extend(pack_f24x4(v4(i as f32, 0.0, 0.0, 1.0)));
    }
    let s = run(|w| {
        w.write(0x242, 1)
            .write(0x253, 1)
            .write(0x232, 0xF)
            .repeated(0x233, &data)
            .write(0x253, 0)
            .write(0x10, 0x1234_5678);
    });
    assert_eq!(s.draws.len(), 1);
    let d = &s.draws[0];
    assert_eq!(d.kind, DrawKind::Immediate);
    assert_eq!(d.vertex_count, 3);
    assert_eq!(d.vertices[2], vec![v4(4.0, 0.0, 0.0, 1.0), v4(5.0, 0.0, 0.0, 1.0)]);
    assert_eq!(s.finalized_at.len(), 1);
}

#[test]
fn draws_keep_the_state_they_saw() {
    let s = run(|w| {
        w.write(0xC0, 0x0E_0003).write(0x25E, 1 << 8).write(0x228, 36).write(0x22A, 6);
        w.write(0x2CB, 0).write(0x2CC, 0xAAAA).write(0x22E, 1);
        w.write(0xC0, 0xF).write(0x2CB, 0).write(0x2CC, 0xBBBB);
        w.write(0x227, 0x8000_0100).write(0x22F, 1);
    });
    assert_eq!(s.draws.len(), 2);
    let (a, b) = (&s.draws[0], &s.draws[1]);
    assert_eq!(a.kind, DrawKind::Arrays);
    assert_eq!((a.vertex_count, a.vertex_offset, a.primitive), (36, 6, 1));
    assert_eq!(a.regs[0xC0], 0x0E_0003);
    assert_eq!(a.memories.vs.code[0], 0xAAAA);
    assert_eq!(b.kind, DrawKind::Elements);
    assert_eq!(b.regs[0xC0], 0xF);
    assert_eq!(b.memories.vs.code[0], 0xBBBB);
    assert_eq!((b.index_offset, b.index_u16), (0x100, true));
    // Byte offsets of the triggering commands: six single writes of 8 bytes before the first.
    assert_eq!(a.offset, 6 * 8);
}

#[test]
fn writes_outside_the_register_file_warn() {
    let s = run(|w| {
        w.write(0x300, 1).write(0xFFFF, 2);
    });
    assert_eq!(s.warning_count, 2);
    assert_eq!(s.warnings[0].offset, 0);
    assert_eq!(s.warnings[1].offset, 8);
}

#[test]
fn a_read_error_keeps_the_writes_before_it() {
    let mut words = Writer::new().write(0x40, 2).finish().to_words();
    words.extend([5, 0x003F_02CC]);
    let mut s = GpuState::new();
    assert_eq!(s.apply_words(&words), Err(ReadError::TruncatedParams { offset: 12, extra: 3, available: 0 }));
    assert_eq!(s.reg(0x40), 2);
    let list = CommandList::read_words(&words[..2]).unwrap();
    let mut t = GpuState::new();
    t.apply_list(&list);
    assert_eq!(t.regs, s.regs);
}

#[test]
fn attribute_and_index_buffer_configuration_of_a_draw() {
    use pica::regs::layouts::{AttribType, BufferComponent, IndexType};
    let s = run(|w| {
        // Base 0x1800_0000; attribute 0 float x3, attribute 1 ubyte x4, attribute 2 fixed;
        // three attributes in all.
        w.write(0x200, 0x1800_0000 >> 3).write(0x201, 0b1101_1011).write(0x202, (2 << 28) | (0b100 << 16));
        // Buffer 0 at offset 0x40: attr0, 4 bytes padding, attr1; 20 bytes per vertex.
        w.consecutive(0x203, &[0x40, 0x1C0, (3 << 28) | (20 << 16)]);
        w.write(0x227, 0x200).write(0x228, 3).write(0x22F, 1);
    });
    let c = s.draws[0].vertex_config();
    assert_eq!(c.base_address, 0x1800_0000);
    assert_eq!(c.attribute_count, 3);
    assert_eq!((c.attributes[0].kind, c.attributes[0].components()), (AttribType::Float, 3));
    assert_eq!((c.attributes[1].kind, c.attributes[1].components()), (AttribType::UnsignedByte, 4));
    assert!(c.attributes[2].fixed && !c.attributes[0].fixed);
    assert_eq!(c.buffers[0].offset, 0x40);
    assert_eq!(c.buffers[0].components, vec![BufferComponent::Attr0, BufferComponent::Pad4, BufferComponent::Attr1]);
    assert_eq!(c.buffers[0].stride, 20);
    assert!(c.buffers[1].components.is_empty());
    assert_eq!((c.index_offset, c.index_type), (0x200, IndexType::U8));
    assert_eq!(s.vertex_config(), c);
}

proptest::proptest! {
    #[test]
    fn random_words_never_panic_the_tracker(words in proptest::collection::vec(proptest::prelude::any::<u32>(), 0..300), ids in proptest::collection::vec(0x0u16..0x300, 0..200), values in proptest::collection::vec(proptest::prelude::any::<u32>(), 200)) {
        let mut s = GpuState::new();
        let _ = s.apply_words(&words);
        // Random writes to random registers, upload ports included.
        let mut w = Writer::new();
        for (i, id) in ids.iter().enumerate() {
            w.masked(*id, (values[i] >> 28) as u8, values[i]);
        }
        let mut t = GpuState::new();
        t.apply_list(&w.finish());
        proptest::prop_assert!(t.writes == ids.len());
    }
}

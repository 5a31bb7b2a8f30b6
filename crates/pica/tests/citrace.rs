//! CiTrace: read(write(x)) == x for random traces in both register-write layouts, random and
//! mutated bytes give errors (never panics, and replay of whatever reads never panics), errors
//! name the offset, and a hand-built trace replays through the state tracker: initial state,
//! command buffers run from the trace's memory, frames, and draws finding their vertex data by
//! physical address. Case count from PROPTEST_CASES (CI: 256).

use pica::regs::cmdlist::Writer;
use pica::state::citrace::{
    replay, Element, EventKind, InitialState, LoadData, MemoryLoad, ReadError, RegisterWrite, ReplayLimits, Trace,
    WriteError, WriteLayout, WriteSize, ELEMENT_SIZE, HEADER_SIZE,
};
use pica::state::DrawKind;
use proptest::prelude::*;

/// Physical address of internal register `id`.
fn reg(id: u16) -> u32 {
    0x1040_1000 + 4 * u32::from(id)
}

fn words(max: usize) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(any::<u32>(), 0..max)
}

fn initial() -> impl Strategy<Value = InitialState> {
    ((words(8), words(4), words(0x300), words(64)), (words(16), words(16), words(32), words(8), words(8), words(8)))
        .prop_map(|((g, l, p, d), (vp, vs, vu, gp, gsw, gu))| InitialState {
            gpu_registers: g,
            lcd_registers: l,
            pica_registers: p,
            default_attributes: d,
            vs_program_binary: vp,
            vs_swizzle_data: vs,
            vs_float_uniforms: vu,
            gs_program_binary: gp,
            gs_swizzle_data: gsw,
            gs_float_uniforms: gu,
        })
}

fn element(sized: bool) -> impl Strategy<Value = Element> {
    let size = prop_oneof![Just(WriteSize::U8), Just(WriteSize::U16), Just(WriteSize::U32), Just(WriteSize::U64)];
    let write = if sized {
        (any::<u32>(), size, any::<u64>())
            .prop_map(|(a, size, value)| RegisterWrite { physical_address: a, size, value })
            .boxed()
    } else {
        (any::<u32>(), any::<u32>()).prop_map(|(a, v)| RegisterWrite::u32(a, v)).boxed()
    };
    prop_oneof![
        Just(Element::FrameMarker),
        // Few distinct contents, so that the writer's sharing of equal data is exercised.
        (any::<u32>(), 0u8..4, 0usize..40, any::<u32>()).prop_map(|(a, seed, len, pad)| {
            Element::MemoryLoad(MemoryLoad {
                physical_address: a,
                data: LoadData::new((0..len).map(|i| seed.wrapping_mul(31).wrapping_add(i as u8)).collect()),
                pad,
            })
        }),
        write.prop_map(Element::RegisterWrite),
    ]
}

fn trace() -> impl Strategy<Value = Trace> {
    any::<bool>().prop_flat_map(|sized| {
        (initial(), proptest::collection::vec(element(sized), 0..40)).prop_map(move |(initial, stream)| Trace {
            initial,
            stream,
            layout: if sized { WriteLayout::Sized } else { WriteLayout::Plain32 },
            stream_offset: None,
        })
    })
}

fn check_bytes(bytes: &[u8]) -> Result<(), TestCaseError> {
    match Trace::read(bytes) {
        Ok(t) => {
            let r = replay(&t, ReplayLimits { record_events: true, ..ReplayLimits::default() });
            prop_assert!(r.frames.iter().all(|f| f.draws.end <= r.state.draws.len()));
        }
        Err(e) => prop_assert!(e.offset() <= bytes.len().max(HEADER_SIZE), "{e}"),
    }
    Ok(())
}

proptest! {
    #[test]
    fn random_traces_read_back_to_the_same_trace(t in trace()) {
        let bytes = t.to_bytes().unwrap();
        let back = Trace::read(&bytes).unwrap();
        prop_assert_eq!(&back, &t);
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
    }

    #[test]
    fn random_bytes_give_errors_never_panics(mut bytes in proptest::collection::vec(any::<u8>(), 0..400), header in any::<bool>()) {
        if header && bytes.len() >= 12 {
            bytes[..4].copy_from_slice(b"CiTr");
            bytes[4..8].copy_from_slice(&1u32.to_le_bytes());
            bytes[8..12].copy_from_slice(&100u32.to_le_bytes());
        }
        check_bytes(&bytes)?;
    }

    #[test]
    fn mutated_traces_give_errors_or_replay_never_panic(t in trace(), flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8), cut in any::<usize>()) {
        let mut bytes = t.to_bytes().unwrap();
        let n = bytes.len();
        for (at, v) in flips {
            bytes[at % n] ^= v;
        }
        check_bytes(&bytes)?;
        check_bytes(&bytes[..cut % (n + 1)])?;
    }
}

/// TexEnv0 source, a vertex count, draw arrays, finalize.
fn list_a() -> Vec<u8> {
    Writer::new()
        .write(0x0C0, 0x000E_0003)
        .write(0x228, 36)
        .write(0x22E, 1)
        .write(0x010, 0x1234_5678)
        .finish()
        .to_bytes()
}

/// The attribute buffer base (physical 0x18100000), two draws.
fn list_b() -> Vec<u8> {
    Writer::new()
        .write(0x200, (0x1810_0000 / 16) << 1)
        .write(0x228, 3)
        .write(0x22E, 1)
        .write(0x228, 6)
        .write(0x22E, 1)
        .write(0x010, 0)
        .finish()
        .to_bytes()
}

fn load(physical_address: u32, data: Vec<u8>) -> Element {
    Element::MemoryLoad(MemoryLoad { physical_address, data: LoadData::new(data), pad: 0 })
}

fn write(id: u16, value: u32) -> Element {
    Element::RegisterWrite(RegisterWrite::u32(reg(id), value))
}

/// Frame 0 runs list A as Citra records it (size register in bytes); frame 1 loads vertex data
/// and runs list B with the size register as hardware has it (bytes >> 3).
fn hand_built() -> Trace {
    let mut initial = InitialState {
        pica_registers: vec![0; 0x300],
        vs_program_binary: vec![0x4C00_0000; 4],
        vs_swizzle_data: vec![0x0000_036F; 2],
        vs_float_uniforms: vec![0; 4 * 96],
        default_attributes: vec![0; 4 * 16],
        ..InitialState::default()
    };
    initial.pica_registers[0x0C1] = 0xABCD; // TEXENV0_OPERAND
    initial.vs_float_uniforms[4 * 5..4 * 5 + 4].copy_from_slice(&[0x3F0000, 0x400000, 0, 0x3F0000]);
    initial.default_attributes[4] = 0x3F0000;
    let (a, b) = (list_a(), list_b());
    Trace {
        initial,
        stream: vec![
            load(0x1800_0000, a.clone()),
            write(0x23A, 0x1800_0000 >> 3),
            write(0x238, a.len() as u32),
            write(0x23C, 1),
            Element::FrameMarker,
            load(0x1810_0000, (0..64).collect()),
            load(0x1800_1000, b.clone()),
            write(0x23A, 0x1800_1000 >> 3),
            write(0x238, (b.len() / 8) as u32),
            Element::RegisterWrite(RegisterWrite::u32(0x1040_0010, 0xFFFF)),
            write(0x23C, 1),
            Element::FrameMarker,
        ],
        layout: WriteLayout::Plain32,
        stream_offset: None,
    }
}

#[test]
fn a_hand_built_trace_replays_through_the_tracker() {
    let bytes = hand_built().to_bytes().unwrap();
    let t = Trace::read(&bytes).unwrap();
    let r = replay(&t, ReplayLimits { record_events: true, ..ReplayLimits::default() });
    assert!(r.warnings.is_empty() && r.state.warnings.is_empty(), "{:?} {:?}", r.warnings, r.state.warnings);
    // The initial state is in place, and the lists' writes on top of it.
    assert_eq!(r.state.reg(0x0C1), 0xABCD);
    assert_eq!(r.state.reg(0x0C0), 0x000E_0003);
    assert_eq!(r.state.memories.vs.code[..4], [0x4C00_0000; 4]);
    assert_eq!(r.state.memories.vs.opdescs[1], 0x36F);
    assert_eq!(r.state.memories.vs.float_uniforms[5][1].to_f32(), 2.0);
    assert_eq!(r.state.memories.default_attributes[1][0].to_f32(), 1.0);
    assert_eq!(r.command_lists, 2);
    assert_eq!(r.external_writes, 1);
    // Frames: one draw, then two.
    assert_eq!(r.frames.len(), 2);
    assert_eq!((r.frames[0].draws.clone(), r.frames[1].draws.clone()), (0..1, 1..3));
    assert!(r.frames.iter().all(|f| f.ended));
    let d = &r.state.draws;
    assert_eq!((d[0].kind, d[0].vertex_count, d[1].vertex_count, d[2].vertex_count), (DrawKind::Arrays, 36, 3, 6));
    // A draw's offset is where its trigger command lies in the file.
    let at = d[0].offset;
    assert_eq!(u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) & 0xFFFF, 0x22E);
    // The draws of frame 1 find their vertex data by physical address.
    let base = d[1].vertex_config().base_address;
    assert_eq!(base, 0x1810_0000);
    assert_eq!(r.memory.read_before(base + 8, 4, r.draw_loads[1]), Some(&[8u8, 9, 10, 11][..]));
    assert_eq!(r.memory.read_before(base, 4, r.draw_loads[0]), None);
    // Events: the list writes follow their CommandList event and name the list.
    let lists: Vec<_> = r.events.iter().filter(|e| matches!(e.kind, EventKind::CommandList { .. })).collect();
    assert_eq!(lists.len(), 2);
    assert!(r
        .events
        .iter()
        .any(|e| e.kind == EventKind::Register { id: 0x0C0, mask: 0xF, value: 0x000E_0003, list: Some(0x1800_0000) }));
    assert!(r.events.iter().any(|e| e.kind == EventKind::FrameMarker { frame: 1 }));
}

#[test]
fn narrow_and_wide_writes_of_the_sized_layout_become_masked_writes() {
    let w = |a: u32, size: WriteSize, value: u64| {
        Element::RegisterWrite(RegisterWrite { physical_address: a, size, value })
    };
    let t = Trace {
        stream: vec![
            w(reg(0x0C0) + 1, WriteSize::U8, 0xAB),
            w(reg(0x0C2) + 2, WriteSize::U16, 0x1234),
            w(reg(0x0C3), WriteSize::U64, 0x1111_2222_3333_4444),
            w(reg(0x0C5) + 1, WriteSize::U32, 5),
        ],
        layout: WriteLayout::Sized,
        ..Trace::default()
    };
    let back = Trace::read(&t.to_bytes().unwrap()).unwrap();
    assert_eq!(back.layout, WriteLayout::Sized);
    let r = replay(&back, ReplayLimits::default());
    assert_eq!(r.state.reg(0x0C0), 0xAB00);
    assert_eq!(r.state.reg(0x0C2), 0x1234_0000);
    assert_eq!((r.state.reg(0x0C3), r.state.reg(0x0C4)), (0x3333_4444, 0x1111_2222));
    assert_eq!(r.state.reg(0x0C5), 0);
    assert_eq!(r.warning_count, 1);
    assert!(r.warnings[0].message.contains("not aligned"), "{:?}", r.warnings);
    // The plain layout holds 32-bit writes only.
    let plain = Trace { layout: WriteLayout::Plain32, ..t };
    assert_eq!(plain.to_bytes(), Err(WriteError::NotPlain32 { index: 0, bits: 8 }));
}

#[test]
fn a_list_that_was_not_loaded_or_jumps_forever_gives_warnings() {
    let t = Trace { stream: vec![write(0x23A, 0x100), write(0x238, 8), write(0x23C, 1)], ..Trace::default() };
    let r = replay(&t, ReplayLimits::default());
    assert_eq!(r.command_lists, 0);
    assert!(r.warnings[0].message.contains("was not loaded by the trace"), "{:?}", r.warnings);
    // A list that jumps to itself.
    let looping = Writer::new().write(0x23C, 1).finish().to_bytes();
    let t = Trace {
        stream: vec![
            load(0x800, looping.clone()),
            write(0x23A, 0x100),
            write(0x238, looping.len() as u32),
            write(0x23C, 1),
        ],
        ..Trace::default()
    };
    let limits = ReplayLimits { max_jumps: 5, ..ReplayLimits::default() };
    let r = replay(&t, limits);
    assert_eq!(r.command_lists, 6);
    assert!(r.warnings[0].message.contains("more than 5 command buffer jumps"), "{:?}", r.warnings);
    // The cap on list writes stops the replay.
    let limits = ReplayLimits { max_list_writes: 3, ..ReplayLimits::default() };
    let r = replay(&t, limits);
    assert!(r.warnings.iter().any(|w| w.message.contains("replay stopped")), "{:?}", r.warnings);
}

#[test]
fn draws_beyond_the_cap_are_dropped_with_one_warning() {
    let list = Writer::new().write(0x22E, 1).write(0x22E, 1).write(0x22E, 1).finish().to_bytes();
    let t = Trace {
        stream: vec![load(0x800, list.clone()), write(0x23A, 0x100), write(0x238, list.len() as u32), write(0x23C, 1)],
        ..Trace::default()
    };
    let r = replay(&t, ReplayLimits { max_draws: 2, ..ReplayLimits::default() });
    assert_eq!((r.state.draws.len(), r.draw_loads.len(), r.warning_count), (2, 2, 1));
}

fn set_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn wrong_and_truncated_traces_name_the_offset() {
    let good = hand_built().to_bytes().unwrap();
    let err = |b: &[u8]| Trace::read(b).unwrap_err();
    assert_eq!(err(&good[..50]), ReadError::TruncatedHeader { offset: 50 });
    assert_eq!(err(b"CiT"), ReadError::TruncatedHeader { offset: 3 });
    assert!(matches!(err(b"SMDH and more bytes"), ReadError::Magic { .. }));
    let mut b = good.clone();
    set_u32(&mut b, 4, 2);
    assert_eq!(err(&b), ReadError::Version { version: 2 });
    // Cut inside the stream: the stream field names it.
    let e = err(&good[..good.len() - 1]);
    assert_eq!(e.offset(), 0x5C);
    assert!(e.to_string().starts_with("byte offset 92: stream of 12 elements"), "{e}");
    // A section pointing past the end (pica_registers, the third pair at 12 + 16).
    let mut b = good.clone();
    set_u32(&mut b, 28, 0xFFFF_0000);
    assert_eq!(err(&b).offset(), 28);
    assert!(err(&b).to_string().contains("pica_registers"), "{}", err(&b));
    let stream = u32::from_le_bytes(good[0x5C..0x60].try_into().unwrap()) as usize;
    // An unknown element type at element 4.
    let mut b = good.clone();
    set_u32(&mut b, stream + 4 * ELEMENT_SIZE, 0xE7);
    assert_eq!(err(&b), ReadError::ElementType { offset: stream + 4 * ELEMENT_SIZE, kind: 0xE7 });
    // A load whose data runs past the file (element 0's size field).
    let mut b = good.clone();
    set_u32(&mut b, stream + 8, 0x7FFF_FFFF);
    assert_eq!(err(&b).offset(), stream + 4);
    // A plain-layout write with bytes after its value.
    let mut b = good.clone();
    set_u32(&mut b, stream + ELEMENT_SIZE + 12, 1);
    assert_eq!(err(&b), ReadError::WriteLayout { offset: stream + ELEMENT_SIZE + 12 });
    // Caps.
    let limits = pica::state::citrace::Limits { max_elements: 4, ..Default::default() };
    assert!(matches!(Trace::read_with(&good, limits), Err(ReadError::TooManyElements { offset: 0x60, .. })));
    let limits = pica::state::citrace::Limits { max_section_words: 100, ..Default::default() };
    assert!(matches!(Trace::read_with(&good, limits), Err(ReadError::SectionTooLarge { offset: 32, .. })));
}

#[test]
fn the_file_has_citras_layout() {
    let t = hand_built();
    let b = t.to_bytes().unwrap();
    assert_eq!(&b[..4], b"CiTr");
    assert_eq!(u32::from_le_bytes(b[8..12].try_into().unwrap()), 100);
    // The first section starts right after the header; the stream size counts elements.
    assert_eq!(u32::from_le_bytes(b[12..16].try_into().unwrap()), 100);
    assert_eq!(u32::from_le_bytes(b[0x60..0x64].try_into().unwrap()), 12);
    let stream = u32::from_le_bytes(b[0x5C..0x60].try_into().unwrap()) as usize;
    assert_eq!(b.len(), stream + 12 * ELEMENT_SIZE);
    // Element 1 (a plain register write): type 0xE3, address, value, eight zero bytes.
    let e = &b[stream + ELEMENT_SIZE..stream + 2 * ELEMENT_SIZE];
    assert_eq!(e[..4], 0xE3u32.to_le_bytes());
    assert_eq!(e[4..8], reg(0x23A).to_le_bytes());
    assert_eq!(e[12..20], [0; 8]);
    // A load: type 0xE2, file offset of its data, size, physical address, pad.
    let e = &b[stream..stream + ELEMENT_SIZE];
    assert_eq!(e[..4], 0xE2u32.to_le_bytes());
    let (data, size) = (
        u32::from_le_bytes(e[4..8].try_into().unwrap()) as usize,
        u32::from_le_bytes(e[8..12].try_into().unwrap()) as usize,
    );
    assert_eq!(&b[data..data + size], &list_a()[..]);
    assert_eq!(e[12..16], 0x1800_0000u32.to_le_bytes());
}

#[test]
fn a_list_inside_a_larger_load_and_a_reloaded_address_are_found() {
    // The list lies 16 bytes into a load; the size register has the hardware's bytes >> 3.
    let list = Writer::new().write(0x228, 9).write(0x22E, 1).finish().to_bytes();
    let mut region = vec![0xEE; 16];
    region.extend_from_slice(&list);
    // A second load at the list's address replaces it: the vertex count becomes 4.
    let list2 = Writer::new().write(0x228, 4).write(0x22E, 1).finish().to_bytes();
    let t = Trace {
        stream: vec![
            load(0x2000, region),
            write(0x23A, 0x2010 >> 3),
            write(0x238, (list.len() / 8) as u32),
            write(0x23C, 1),
            load(0x2010, list2.clone()),
            write(0x23C, 1),
        ],
        ..Trace::default()
    };
    let r = replay(&Trace::read(&t.to_bytes().unwrap()).unwrap(), ReplayLimits::default());
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let counts: Vec<u32> = r.state.draws.iter().map(|d| d.vertex_count).collect();
    assert_eq!(counts, [9, 4]);
    assert_eq!(r.frames.len(), 1);
    assert!(!r.frames[0].ended);
    assert_eq!(r.memory.read(0x2010, 4), Some(&list2[..4]));
    assert_eq!(r.memory.read_before(0x2010, 4, 1), Some(&list[..4]));
}

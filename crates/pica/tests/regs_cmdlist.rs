//! Command lists (3dbrew "GPU/Internal Registers", "Overview"): each header form, masks,
//! consecutive and repeated writes, alignment padding, reader errors with byte offsets, and
//! read-write identity.

use pica::regs::cmdlist::{expand_mask, Command, CommandList, Limits, ReadError, Reader, Write, Writer};
use proptest::prelude::*;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn writes(words: &[u32]) -> Vec<Write> {
    CommandList::read_words(words).unwrap().writes().collect()
}

#[test]
fn single_write_header() {
    let words = [0x1234_5678, 0x000F_0010];
    let list = CommandList::read(&bytes(&words)).unwrap();
    assert_eq!(list.commands, vec![Command::write(0x10, 0x1234_5678)]);
    assert_eq!(list.commands[0].header(), 0x000F_0010);
    assert_eq!(list.to_words(), words);
}

#[test]
fn the_pages_consecutive_example() {
    // "0xAAAAAAAA 0x802F011C 0xBBBBBBBB 0xCCCCCCCC" writes 0x11C, 0x11D, 0x11E; no padding (3
    // parameters + header = 4 words).
    let words = [0xAAAA_AAAA, 0x802F_011C, 0xBBBB_BBBB, 0xCCCC_CCCC];
    let w = writes(&words);
    assert_eq!(
        w,
        vec![
            Write { id: 0x11C, mask: 0xF, value: 0xAAAA_AAAA },
            Write { id: 0x11D, mask: 0xF, value: 0xBBBB_BBBB },
            Write { id: 0x11E, mask: 0xF, value: 0xCCCC_CCCC },
        ]
    );
    // Without the consecutive bit: three writes to 0x11C.
    let words = [0xAAAA_AAAA, 0x002F_011C, 0xBBBB_BBBB, 0xCCCC_CCCC];
    assert!(writes(&words).iter().all(|w| w.id == 0x11C));
    assert_eq!(writes(&words).len(), 3);
}

#[test]
fn two_parameters_take_a_padding_word() {
    let words = [1, 0x001F_02CC, 2, 0xDEAD_BEEF, 3, 0x000F_0010];
    let list = CommandList::read_words(&words).unwrap();
    assert_eq!(list.commands.len(), 2);
    assert_eq!(list.commands[0].params, vec![1, 2]);
    assert_eq!(list.commands[0].padding, 0xDEAD_BEEF);
    assert_eq!(list.commands[0].word_len(), 4);
    // The padding word is kept, so writing gives the same words.
    assert_eq!(list.to_words(), words);
    // And it is not a write.
    assert_eq!(list.writes().count(), 3);
}

#[test]
fn missing_padding_is_an_error_at_its_offset() {
    let words = [0, 0x000F_0000, 8, 0x001F_02CC, 9];
    let err = CommandList::read_words(&words).unwrap_err();
    assert_eq!(err, ReadError::MissingPadding { offset: 20, params: 2 });
    assert!(err.to_string().starts_with("byte offset 20:"), "{err}");
}

#[test]
fn mask_applies_to_exactly_the_written_register() {
    // 0x00010107 and 0x00020107 write different bytes of the same register (the page's example).
    let list = CommandList::read_words(&[0x1111_1111, 0x0001_0107, 0x2222_2222, 0x0002_0107]).unwrap();
    let mut file = [0xAAAA_AAAAu32; 0x300];
    for w in list.writes() {
        file[usize::from(w.id)] = w.apply(file[usize::from(w.id)]);
    }
    assert_eq!(file[0x107], 0xAAAA_2211);
    assert!(file.iter().enumerate().all(|(id, &v)| id == 0x107 || v == 0xAAAA_AAAA));
    // A consecutive masked command masks each register it writes the same way.
    let w = writes(&[0x0000_00FF, 0x8015_0040, 0xFFFF_FFFF, 0]);
    assert_eq!(w[0].apply(0x1234_5678), 0x1200_56FF);
    assert_eq!(w[1].id, 0x41);
    assert_eq!(w[1].apply(0x1234_5678), 0x12FF_56FF);
    assert_eq!(expand_mask(0x0), 0);
    assert_eq!(expand_mask(0xF), 0xFFFF_FFFF);
    assert_eq!(expand_mask(0x6), 0x00FF_FF00);
}

#[test]
fn consecutive_writes_cross_from_the_index_register_into_the_lut_data_ports() {
    // From GPUREG_LIGHTING_LUT_INDEX (0x1C5) through 0x1C6, 0x1C7 into the data ports 0x1C8...
    let mut params = vec![0x0000_0100u32, 0, 0];
    params.extend(10..15);
    let list = Writer::new().consecutive(0x1C5, &params).finish();
    let ids: Vec<u16> = list.writes().map(|w| w.id).collect();
    assert_eq!(ids, vec![0x1C5, 0x1C6, 0x1C7, 0x1C8, 0x1C9, 0x1CA, 0x1CB, 0x1CC]);
    let names: Vec<String> = ids.iter().map(|&id| pica::regs::table::name(id)).collect();
    assert_eq!(names[3], "GPUREG_LIGHTING_LUT_DATA0");
    assert_eq!(names[7], "GPUREG_LIGHTING_LUT_DATA4");
    // Float uniform index then data: the page's alias example (0x2C0 then 0x2C1-0x2C8).
    let list = Writer::new().consecutive(0x2C0, &[5, 1, 2, 3]).finish();
    let ids: Vec<u16> = list.writes().map(|w| w.id).collect();
    assert_eq!(ids, vec![0x2C0, 0x2C1, 0x2C2, 0x2C3]);
    assert_eq!(CommandList::read_words(&list.to_words()).unwrap(), list);
}

#[test]
fn repeated_writes_feed_one_port() {
    let list = Writer::new().repeated(0x2CC, &[1, 2, 3, 4, 5]).finish();
    let words = list.to_words();
    // 5 parameters + header = 6 words: no padding.
    assert_eq!(words, vec![1, 0x004F_02CC, 2, 3, 4, 5]);
    assert!(list.writes().all(|w| w.id == 0x2CC));
}

#[test]
fn every_command_ends_on_an_eight_byte_boundary() {
    let mut w = Writer::new();
    for n in 1..=9 {
        w.repeated(0x2CC, &vec![7; n]);
    }
    w.masked(0x107, 0x3, 0x1F00);
    let words = w.finish().to_words();
    let mut r = Reader::new(&words);
    let mut expect = 0;
    for c in r.by_ref() {
        let c = c.unwrap();
        assert_eq!(c.offset % 8, 0);
        assert_eq!(c.offset, expect);
        expect += c.command.word_len() * 4;
    }
    assert_eq!(expect, words.len() * 4);
}

#[test]
fn truncated_lists_name_the_offset() {
    assert_eq!(CommandList::read(&[0, 0, 0, 0, 1]).unwrap_err(), ReadError::Unaligned { offset: 4, len: 5 });
    assert_eq!(CommandList::read_words(&[0, 0x000F_0010, 5]).unwrap_err(), ReadError::MissingHeader { offset: 8 });
    // Header at word 1 announces 3 extra parameters, one is there.
    let err = CommandList::read_words(&[0, 0x003F_02CC, 1]).unwrap_err();
    assert_eq!(err, ReadError::TruncatedParams { offset: 4, extra: 3, available: 1 });
    assert_eq!(err.offset(), 4);
}

#[test]
fn consecutive_ids_past_0xffff_are_rejected() {
    let err = CommandList::read_words(&[0, 0x8010_FFFF, 0, 0]).unwrap_err();
    assert_eq!(err, ReadError::IdOverflow { offset: 4, id: 0xFFFF, count: 2 });
}

#[test]
fn limits_cap_commands_and_writes() {
    let words = Writer::new().write(1, 0).write(2, 0).write(3, 0).finish().to_words();
    let limits = Limits { max_commands: 2, max_writes: 100 };
    assert_eq!(
        CommandList::read_words_with(&words, limits).unwrap_err(),
        ReadError::TooManyCommands { offset: 16, limit: 2 }
    );
    let words = Writer::new().repeated(0x2CC, &[0; 9]).finish().to_words();
    let limits = Limits { max_commands: 10, max_writes: 8 };
    assert_eq!(
        CommandList::read_words_with(&words, limits).unwrap_err(),
        ReadError::TooManyWrites { offset: 4, limit: 8 }
    );
}

#[test]
fn long_commands_split_at_the_header_limit() {
    let params: Vec<u32> = (0..3000).collect();
    let list = Writer::new().consecutive(0x100, &params).finish();
    let back = CommandList::read_words(&list.to_words()).unwrap();
    assert_eq!(back.commands.len(), 2);
    assert_eq!(back.commands[0].params.len(), 2048);
    assert_eq!(back.commands[1].id, 0x100 + 2048);
    let a: Vec<Write> = list.writes().collect();
    let b: Vec<Write> = back.writes().collect();
    assert_eq!(a, b);
}

fn command() -> impl Strategy<Value = Command> {
    (any::<u16>(), 0u8..16, any::<bool>(), prop::collection::vec(any::<u32>(), 1..40), any::<u32>()).prop_map(
        |(id, mask, consecutive, params, pad)| {
            let id = if consecutive { id.min(0xFFFF - params.len() as u16) } else { id };
            let padding = if params.len() % 2 == 0 { pad } else { 0 };
            Command { id, mask, consecutive, params, padding }
        },
    )
}

proptest! {
    #[test]
    fn random_valid_lists_round_trip(commands in prop::collection::vec(command(), 0..30)) {
        let list = CommandList { commands };
        let words = list.to_words();
        prop_assert_eq!(words.len() % 2, 0);
        let back = CommandList::read_words(&words).unwrap();
        prop_assert_eq!(&back, &list);
        prop_assert_eq!(back.to_words(), words);
        prop_assert_eq!(CommandList::read(&list.to_bytes()).unwrap(), list);
    }

    #[test]
    fn random_bytes_give_a_list_or_an_error_never_a_panic(data in prop::collection::vec(any::<u8>(), 0..400)) {
        match CommandList::read(&data) {
            // What reads writes back to the same bytes.
            Ok(list) => prop_assert_eq!(list.to_bytes(), data),
            Err(e) => prop_assert!(e.offset() <= data.len()),
        }
    }

    #[test]
    fn random_words_with_long_counts_error_at_an_offset_inside_the_list(mut words in prop::collection::vec(any::<u32>(), 1..64)) {
        // Force a count past the end on the first header.
        if words.len() >= 2 { words[1] |= 0x7FF0_0000; }
        let err = CommandList::read_words(&words).unwrap_err();
        prop_assert!(err.offset() < words.len() * 4 + 4);
    }
}

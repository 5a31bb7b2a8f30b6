//! VTX packed data formats (latte-semantics-facts.md §4.2; DATA_FORMAT values of decaf's
//! `SQ_DATA_FORMAT`): component x in the low bits of one 16- or 32-bit word, every number
//! format (NORM, INT, SCALED, signed, SRF_MODE) and the endian swaps, against results computed
//! by hand.

mod interp;
use interp::*;
use latte::interp::{Buffer, Inputs, Stage};

/// Fetches element 0 of buffer 5 (`data`, little-endian bytes) with `fields` and returns R1.
fn fetch(data: &[u8], fields: &str) -> [u32; 4] {
    let mut inputs = Inputs::default();
    inputs.buffers.insert(5, Buffer { data: data.to_vec(), stride: 16, format: None });
    let text = format!("00 VTX:\n0 VFETCH R1, R0.x, b5 {fields}\nEND_OF_PROGRAM\n");
    run(&text, Stage::Vertex, &inputs, &[inv(&[])])[0].gprs[1]
}

fn le(w: u32) -> Vec<u8> {
    w.to_le_bytes().to_vec()
}

fn floats(v: [u32; 4]) -> [f32; 4] {
    v.map(bf)
}

/// FMT_10_11_11 (21): x 11 bits, y 11 bits, z 10 bits; NORM unsigned divides by 2^n - 1.
#[test]
fn fmt_10_11_11_norm() {
    let w = 0x7FF | (0x200 << 22); // y = 0
    assert_eq!(floats(fetch(&le(w), "FMT(21) NUM(0)")), [1.0, 0.0, 512.0 / 1023.0, 1.0]);
    assert_eq!(fetch(&le(w), "FMT(21) NUM(1)"), [0x7FF, 0, 0x200, 1], "INT: the raw fields, w = integer 1");
}

/// FMT_10_11_11_FLOAT (22): unsigned 11-bit (5e6m) and 10-bit (5e5m) floats, bias 15.
#[test]
fn fmt_10_11_11_float() {
    // x = 1.5 (e 15, m 32), y = 0.5 (e 14), z = 2.0 (e 16 of the 10-bit form).
    let w = (15 << 6 | 32) | (14 << 6) << 11 | (16 << 5) << 22;
    assert_eq!(floats(fetch(&le(w), "FMT(22) NUM(2)")), [1.5, 0.5, 2.0, 1.0]);
    // Denormal x (m 1: 2^-14 / 64), infinite y (e 31, m 0).
    let w = 1 | (31 << 6) << 11;
    let r = floats(fetch(&le(w), "FMT(22) NUM(2)"));
    assert_eq!((r[0], r[1]), (2f32.powi(-20), f32::INFINITY));
}

/// FMT_11_11_10_FLOAT (24): x is the 10-bit float.
#[test]
fn fmt_11_11_10_float() {
    let w = (15 << 5) | (16 << 6) << 10 | (14 << 6 | 16) << 21;
    assert_eq!(floats(fetch(&le(w), "FMT(24) NUM(2)")), [1.0, 2.0, 0.625, 1.0]);
}

/// FMT_2_10_10_10 (25): x, y, z 10 bits, w 2 bits; signed NORM clamps -2^(n-1) to -1 (SRF_MODE
/// 0) or maps v to (2v+1)/(2^n-1) (SRF_MODE 1); signed INT sign-extends; SCALED converts.
#[test]
fn fmt_2_10_10_10_signed() {
    let w: u32 = 511 | (0x200 << 10) | (1 << 30); // z = 0
    assert_eq!(floats(fetch(&le(w), "FMT(25) NUM(0) SIGNED")), [1.0, -1.0, 0.0, 1.0]);
    assert_eq!(
        floats(fetch(&le(w), "FMT(25) NUM(0) SIGNED SRF_NO_ZERO")),
        [1023.0 / 1023.0, -1023.0 / 1023.0, 1.0 / 1023.0, 3.0 / 3.0]
    );
    let w: u32 = 3 | (0x3FF << 10) | (0x3 << 30);
    assert_eq!(fetch(&le(w), "FMT(25) NUM(1) SIGNED"), [3, u32::MAX, 0, u32::MAX], "-1 in y and w");
    assert_eq!(floats(fetch(&le(w), "FMT(25) NUM(2) SIGNED")), [3.0, -1.0, 0.0, -1.0]);
    assert_eq!(floats(fetch(&le(w), "FMT(25) NUM(2)")), [3.0, 1023.0, 0.0, 3.0], "unsigned SCALED");
}

/// FMT_10_10_10_2 (27): x is the 2-bit field.
#[test]
fn fmt_10_10_10_2() {
    let w: u32 = 2 | (5 << 2) | (6 << 12) | (7 << 22);
    assert_eq!(fetch(&le(w), "FMT(27) NUM(1)"), [2, 5, 6, 7]);
}

/// FMT_5_6_5 (8), a 16-bit word: x 5, y 6, z 5 bits; ENDIAN(1) swaps its bytes.
#[test]
fn fmt_5_6_5_and_the_16_bit_swap() {
    let h: u16 = 31 | (32 << 5);
    assert_eq!(floats(fetch(&h.to_le_bytes(), "FMT(8) NUM(0)")), [1.0, 32.0 / 63.0, 0.0, 1.0]);
    assert_eq!(floats(fetch(&h.to_be_bytes(), "FMT(8) NUM(0) ENDIAN(1)")), [1.0, 32.0 / 63.0, 0.0, 1.0]);
}

/// FMT_1_5_5_5 (10): x, y, z 5 bits, w 1 bit; FMT_5_5_5_1 (12): x is the 1-bit field.
#[test]
fn fmt_1_5_5_5_and_5_5_5_1() {
    let h: u16 = 1 | (2 << 5) | (31 << 10) | (1 << 15);
    assert_eq!(floats(fetch(&h.to_le_bytes(), "FMT(10) NUM(0)")), [1.0 / 31.0, 2.0 / 31.0, 1.0, 1.0]);
    let h: u16 = 1 | (3 << 1) | (4 << 6) | (5 << 11);
    assert_eq!(fetch(&h.to_le_bytes(), "FMT(12) NUM(1)"), [1, 3, 4, 5]);
}

/// FMT_4_4_4_4 (11): four nibbles, x lowest; signed INT sign-extends each.
#[test]
fn fmt_4_4_4_4() {
    let h: u16 = 0x4321;
    assert_eq!(fetch(&h.to_le_bytes(), "FMT(11) NUM(1)"), [1, 2, 3, 4]);
    let h: u16 = 0xF87F;
    assert_eq!(fetch(&h.to_le_bytes(), "FMT(11) NUM(1) SIGNED"), [u32::MAX, 7, (-8i32) as u32, u32::MAX]);
    assert_eq!(floats(fetch(&h.to_le_bytes(), "FMT(11) NUM(0)")), [1.0, 7.0 / 15.0, 8.0 / 15.0, 1.0]);
}

/// FMT_8_8_8_8 (26) in every number format, signed and unsigned, and with the 32-bit swap.
#[test]
fn fmt_8_8_8_8_every_number_format() {
    let b = [0xFF, 0x7F, 0x80, 0x01];
    assert_eq!(floats(fetch(&b, "FMT(26) NUM(0)")), [1.0, 127.0 / 255.0, 128.0 / 255.0, 1.0 / 255.0]);
    assert_eq!(floats(fetch(&b, "FMT(26) NUM(0) SIGNED")), [-1.0 / 127.0, 1.0, -1.0, 1.0 / 127.0]);
    assert_eq!(fetch(&b, "FMT(26) NUM(1)"), [255, 127, 128, 1]);
    assert_eq!(fetch(&b, "FMT(26) NUM(1) SIGNED"), [u32::MAX, 127, (-128i32) as u32, 1]);
    assert_eq!(floats(fetch(&b, "FMT(26) NUM(2)")), [255.0, 127.0, 128.0, 1.0]);
    assert_eq!(floats(fetch(&b, "FMT(26) NUM(2) SIGNED")), [-1.0, 127.0, -128.0, 1.0]);
    let swapped = [0x01, 0x80, 0x7F, 0xFF];
    assert_eq!(fetch(&swapped, "FMT(26) NUM(1) ENDIAN(2)"), [255, 127, 128, 1]);
}

/// A packed 32-bit format stored big-endian reads back with ENDIAN(2) (the GX2 attribute swap).
#[test]
fn packed_32_bit_format_with_the_32_bit_swap() {
    let w: u32 = 511 | (0x200 << 10) | (1 << 30);
    assert_eq!(floats(fetch(&w.to_be_bytes(), "FMT(25) NUM(0) SIGNED ENDIAN(2)")), [1.0, -1.0, 0.0, 1.0]);
}

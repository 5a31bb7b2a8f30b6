//! Relative addressing: every case of specs/pica200-facts.md "Relative addressing (source c40
//! indexed by a0.x)", and which operand each format indexes.

mod interp_common;
use interp_common::*;
use pica::interp::Uniforms;
use pica::isa::{AddrIndex, OperandDescriptor, Swizzle};

/// c0-c95 hold (i, i, i, i) so a read tells which register it came from.
fn numbered() -> Uniforms {
    let mut u = Uniforms::default();
    for (i, c) in u.float.iter_mut().enumerate() {
        *c = [i as f32; 4];
    }
    u
}

fn inputs(x: f32, y: f32) -> [[f32; 4]; 16] {
    let mut v = [[0.0; 4]; 16];
    v[0] = [x, y, 0.0, 0.0];
    v
}

/// mova a0.xy, v0 ; mov o0, c40[index] ; end
fn read_c40(index: AddrIndex, a0x: f32, a0y: f32) -> [f32; 4] {
    let mut p = Builder::new();
    p.unary(Opcode::Mova, rd(0), v(0), NONE, plain_desc(0b1100));
    p.unary(Opcode::Mov, o(0), c(40), index, all());
    p.plain(Opcode::End);
    run_with(&p, &numbered(), &inputs(a0x, a0y)).unwrap()[0]
}

/// One test per case of the facts file's table: `(a0.x, register read)`, `None` for (1, 1, 1, 1).
macro_rules! facts_case {
    ($($name:ident: $a0:expr => $want:expr, $why:literal;)*) => {
        $(
            #[doc = $why]
            #[test]
            fn $name() {
                let got = read_c40(AddrIndex::A0x, $a0, 0.0);
                let want: Option<f32> = $want;
                match want {
                    Some(reg) => assert_eq!(got, [reg; 4], "a0.x = {}", $a0),
                    None => assert_eq!(got, [1.0; 4], "a0.x = {} reads past c95", $a0),
                }
            }
        )*
    };
}

facts_case! {
    offset_0_reads_c40: 0.0 => Some(40.0), "a0.x = 0 -> c40";
    offset_13_reads_c53: 13.0 => Some(53.0), "a0.x = 13 -> c53";
    offset_60_reads_ones: 60.0 => None, "a0.x = 60 -> (1, 1, 1, 1): index 100 >= 96";
    offset_88_wraps_to_c0: 88.0 => Some(0.0), "a0.x = 88 -> c0: (40 + 88) & 0x7F = 0";
    offset_128_is_ignored: 128.0 => Some(40.0), "a0.x = 128 -> c40: out of s8 range, offset ignored";
    offset_minus_40_reads_c0: -40.0 => Some(0.0), "a0.x = -40 -> c0";
    offset_minus_73_reads_c95: -73.0 => Some(95.0), "a0.x = -73 -> c95: (40 - 73) & 0x7F = 95";
    offset_minus_127_reads_c41: -127.0 => Some(41.0), "a0.x = -127 -> c41: (40 - 127) & 0x7F = 41";
    offset_minus_129_is_ignored: -129.0 => Some(40.0), "a0.x = -129 -> c40: out of range, ignored";
}

#[test]
fn a0y_indexes_with_the_y_component() {
    assert_eq!(read_c40(AddrIndex::A0y, 5.0, 7.0), [47.0; 4]);
    assert_eq!(read_c40(AddrIndex::A0x, 5.0, 7.0), [45.0; 4]);
}

#[test]
fn mova_truncates_toward_zero() {
    assert_eq!(read_c40(AddrIndex::A0x, 2.9, 0.0), [42.0; 4]);
    assert_eq!(read_c40(AddrIndex::A0x, -2.9, 0.0), [38.0; 4]);
}

#[test]
fn mova_respects_the_write_mask() {
    // mova a0.y only: a0.x stays 0.
    let mut p = Builder::new();
    p.unary(Opcode::Mova, rd(0), v(0), NONE, plain_desc(0b0100));
    p.unary(Opcode::Mov, o(0), c(40), AddrIndex::A0x, all());
    p.unary(Opcode::Mov, o(1), c(40), AddrIndex::A0y, all());
    p.plain(Opcode::End);
    let out = run_with(&p, &numbered(), &inputs(3.0, 4.0)).unwrap();
    assert_eq!(out[0], [40.0; 4]);
    assert_eq!(out[1], [44.0; 4]);
}

#[test]
fn loop_counter_indexes() {
    // for i0 = (2, 10, 3): aL = 10, 13, 16; o0.x accumulates c[aL].
    let mut p = Builder::new();
    p.uniform(Opcode::Loop, 1, 0, 0);
    p.alu(Opcode::Add, rd(0), c(0), r(0), AddrIndex::AL, all());
    p.unary(Opcode::Mov, o(0), r(0), NONE, all());
    p.plain(Opcode::End);
    let mut u = numbered();
    u.int[0] = [2, 10, 3, 0];
    let out = run_with(&p, &u, &[[0.0; 4]; 16]).unwrap();
    assert_eq!(out[0], [39.0; 4]);
}

#[test]
fn index_on_inputs_and_temporaries_is_ignored() {
    let mut p = Builder::new();
    p.unary(Opcode::Mova, rd(0), v(0), NONE, plain_desc(0b1100));
    p.unary(Opcode::Mov, o(0), v(0), AddrIndex::A0x, all());
    p.plain(Opcode::End);
    let out = run_with(&p, &numbered(), &inputs(3.0, 0.0)).unwrap();
    assert_eq!(out[0], [3.0, 0.0, 0.0, 0.0], "read v0 itself, not v3");
}

#[test]
fn each_format_indexes_its_wide_source() {
    let u = numbered();
    let i = inputs(2.0, 0.0);
    // Format 1i (DPHI): index on src2 (c10[a0.x] = c12); src1 r0 = (1, 0, 0, 0).
    let mut p = Builder::new();
    p.unary(Opcode::Mova, rd(0), v(0), NONE, plain_desc(0b1100));
    p.unary(Opcode::Mov, rd(0), c(1), NONE, plain_desc(0b1000));
    p.alu(Opcode::Dphi, o(0), r(0), c(10), AddrIndex::A0x, all());
    p.plain(Opcode::End);
    // dph((1, 0, 0, 1), (12, 12, 12, 12)) = 12 + 12.
    assert_eq!(run_with(&p, &u, &i).unwrap()[0], [24.0; 4]);
    // MAD (format 5): index on src2. o0 = r1 * c20[a0.x] + r1 with r1 = 1: 22 + 1.
    let mut p = Builder::new();
    p.unary(Opcode::Mova, rd(0), v(0), NONE, plain_desc(0b1100));
    p.unary(Opcode::Mov, rd(1), c(1), NONE, all());
    p.mad(Opcode::Mad, o(0), r(1), c(20), r(1), AddrIndex::A0x, all());
    p.plain(Opcode::End);
    assert_eq!(run_with(&p, &u, &i).unwrap()[0], [23.0; 4]);
    // MADI (format 5i): index on src3. o0 = r1 * r1 + c30[a0.x]: 1 + 32.
    let mut p = Builder::new();
    p.unary(Opcode::Mova, rd(0), v(0), NONE, plain_desc(0b1100));
    p.unary(Opcode::Mov, rd(1), c(1), NONE, all());
    p.mad(Opcode::Madi, o(0), r(1), r(1), c(30), AddrIndex::A0x, all());
    p.plain(Opcode::End);
    assert_eq!(run_with(&p, &u, &i).unwrap()[0], [33.0; 4]);
}

#[test]
fn swizzle_negate_and_mask() {
    let mut u = Uniforms::default();
    u.float[0] = [1.0, 2.0, 3.0, 4.0];
    let mut p = Builder::new();
    let d = OperandDescriptor::new(0b1010, &[(true, Swizzle::from_components([3, 2, 1, 0]))]);
    p.unary(Opcode::Mov, o(0), c(0), NONE, d);
    p.plain(Opcode::End);
    let out = run_with(&p, &u, &[[0.0; 4]; 16]).unwrap();
    assert_eq!(out[0], [-4.0, 0.0, -2.0, 0.0]);
}

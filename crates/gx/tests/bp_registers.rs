//! Hand-built BP streams, one per register layout, checking every decoded field.
//!
//! Each raw value below was packed by hand from the bit ranges of specs/hollywood-tev-facts.md
//! ("Register layouts"); the expected structs list every field, so a wrong bit range fails here.

use gx::bp::{format_register, BpRegs, TevState};
use gx::dl::{self, bp_load, Command};
use gx::regs::*;

/// Runs a display list of BP loads through the display-list decoder and returns the state.
fn run(writes: &[(u8, u32)]) -> (BpRegs, TevState) {
    let mut bytes = Vec::new();
    for &(a, v) in writes {
        bytes.extend_from_slice(&bp_load(a, v));
    }
    let mut regs = BpRegs::new();
    dl::apply(&mut regs, &bytes, 0).expect("valid list");
    let state = regs.state();
    (regs, state)
}

#[test]
fn gen_mode() {
    let (_, s) = run(&[(0x00, 0x03AC25)]);
    assert_eq!(
        s.gen_mode,
        GenMode { num_texgens: 5, num_colchans: 2, num_tevstages_minus_1: 11, cull_mode: 2, num_indstages: 3 }
    );
    assert_eq!(s.num_stages(), 12);
}

#[test]
fn indirect_matrix_columns_and_scale() {
    // Matrix 1: A at 0x09, B at 0x0A, C at 0x0B.
    let (_, s) = run(&[(0x09, 0x9FFE00), (0x0A, 0xE00001), (0x0B, 0xC967FF)]);
    let m = s.ind_mtx[1];
    assert_eq!(m.a, IndMtxAB { row0: -512, row1: 1023, scale_bits: 2 });
    assert_eq!(m.b, IndMtxAB { row0: 1, row1: -1024, scale_bits: 3 });
    assert_eq!(m.c, IndMtxC { row0: -1, row1: 300, scale_bit4: 1, scale_bit5_ignored: 1 });
    // scale = 2 | 3<<2 | 1<<4 = 30; C[23] is ignored.
    assert_eq!(m.scale(), 30);
    assert_eq!(m.exponent(), 13);
    assert_eq!(m.entries(), [[-512, 1, -1], [1023, -1024, 300]]);
    assert_eq!(s.ind_mtx[0], Default::default());
    assert_eq!(s.ind_mtx[2], Default::default());
}

#[test]
fn tev_stage_indirect_every_stage() {
    for i in 0..16u8 {
        let (_, s) = run(&[(0x10 + i, 0x1E8DD6)]);
        assert_eq!(
            s.tev_ind[i as usize],
            TevStageIndirect {
                bt: 2,
                fmt: 1,
                bias: 5,
                bs: 3,
                mtx_index: 2,
                mtx_id: 1,
                sw: 4,
                tw: 6,
                lb_utclod: true,
                fb_addprev: true
            }
        );
        assert_eq!(s.stage(i as usize).ind, s.tev_ind[i as usize]);
    }
}

#[test]
fn ras1_ss_and_iref() {
    let (_, s) = run(&[(0x26, 0x00F821), (0x27, 0x1F58D1)]);
    assert_eq!(s.ras1_ss[1], Ras1Ss { ss0: 1, ts0: 2, ss1: 8, ts1: 15 });
    assert_eq!(s.ras1_ss[0], Ras1Ss::default());
    assert_eq!(s.ind_scale(2), (1, 2));
    assert_eq!(s.ind_scale(3), (8, 15));
    assert_eq!(s.ras1_iref, Ras1Iref { bi0: 1, bc0: 2, bi1: 3, bc1: 4, bi2: 5, bc2: 6, bi3: 7, bc3: 0 });
    assert_eq!(s.ind_ref(0), (1, 2));
    assert_eq!(s.ind_ref(3), (7, 0));
}

#[test]
fn tev_orders_for_all_pairs() {
    for k in 0..8u8 {
        let (_, s) = run(&[(0x28 + k, 0x3172E3)]);
        assert_eq!(
            s.tev_order[k as usize],
            TwoTevStageOrders {
                texmap0: 3,
                texcoord0: 4,
                enable0: true,
                colorchan0: 5,
                texmap1: 7,
                texcoord1: 2,
                enable1: false,
                colorchan1: 6
            }
        );
        let even = s.stage(2 * k as usize);
        let odd = s.stage(2 * k as usize + 1);
        assert_eq!((even.texmap, even.texcoord, even.tex_enable, even.colorchan), (3, 4, true, 5));
        assert_eq!((odd.texmap, odd.texcoord, odd.tex_enable, odd.colorchan), (7, 2, false, 6));
    }
}

#[test]
fn z_blend_and_constant_alpha() {
    let (_, s) = run(&[(0x40, 0x000017), (0x41, 0x009CAD), (0x42, 0x000180)]);
    assert_eq!(s.z_mode, ZMode { test: true, func: 3, update: true });
    assert_eq!(
        s.blend_mode,
        BlendMode {
            blend: true,
            logic: false,
            dither: true,
            colorupd: true,
            alphaupd: false,
            dst: 5,
            src: 4,
            subtract: true,
            logicop: 9
        }
    );
    assert_eq!(s.const_alpha, ConstAlpha { alpha: 0x80, enable: true });
}

#[test]
fn colour_and_alpha_combiners_for_16_stages() {
    for i in 0..16u8 {
        let (_, s) = run(&[(0xC0 + 2 * i, 0xED2A8F), (0xC1 + 2 * i, 0xB33679)]);
        assert_eq!(
            s.color_env[i as usize],
            ColorCombiner { d: 15, c: 8, b: 10, a: 2, bias: 1, op: 1, clamp: true, scale: 2, dest: 3 }
        );
        assert_eq!(
            s.alpha_env[i as usize],
            AlphaCombiner {
                rswap: 1,
                tswap: 2,
                d: 7,
                c: 4,
                b: 5,
                a: 1,
                bias: 3,
                op: 0,
                clamp: false,
                scale: 3,
                dest: 2
            }
        );
        for j in 0..16 {
            if j != i as usize {
                assert_eq!(s.color_env[j], Default::default());
                assert_eq!(s.alpha_env[j], Default::default());
            }
        }
    }
}

#[test]
fn tev_registers_colour_and_konst_banks() {
    // RA of register 1 in the colour bank (bit 23 clear), BG of register 1 in the konst bank.
    let (_, s) = run(&[(0xE2, 0x3FF7FB), (0xE3, 0xC000FF)]);
    assert_eq!(TevRegRa::decode(0x3FF7FB), TevRegRa { r: -5, a: 1023, konst: false });
    assert_eq!(TevRegBg::decode(0xC000FF), TevRegBg { b: 255, g: -1024, konst: true });
    assert_eq!(s.color_regs[1], [-5, 0, 0, 1023]);
    assert_eq!(s.konst_regs[1], [0, -1024, 255, 0]);
    // Both banks of the same address keep their own values.
    let (regs, s) = run(&[(0xE4, 0x000010), (0xE4, 0x800020)]);
    assert_eq!(s.color_regs[2][0], 0x10);
    assert_eq!(s.konst_regs[2][0], 0x20);
    assert_eq!(regs.written_registers(), vec![(0xE4, 0x000010), (0xE4, 0x800020)]);
}

#[test]
fn fog_registers() {
    let (_, s) = run(&[(0xEE, 0x0C0D55), (0xEF, 0x123456), (0xF0, 0x000015), (0xF1, 0xB3F2AA), (0xF2, 0x332211)]);
    assert_eq!(s.fog.a, FogA { mantissa: 0x555, exponent: 0x81, sign: true });
    assert_eq!(s.fog.b_magnitude, FogBMagnitude { magnitude: 0x123456 });
    assert_eq!(s.fog.b_shift, FogBShift { shift: 0x15 });
    assert_eq!(s.fog.c, FogC { mantissa: 0x2AA, exponent: 0x7E, sign: false, proj: 1, fsel: 5 });
    assert_eq!(s.fog.color, FogColor { b: 0x11, g: 0x22, r: 0x33 });
}

#[test]
fn alpha_test() {
    let (_, s) = run(&[(0xF3, 0xCCC80A)]);
    assert_eq!(s.alpha_test, AlphaTest { ref0: 10, ref1: 200, comp0: 4, comp1: 1, logic: 3 });
}

#[test]
fn ksel_konst_selection_and_swap_tables() {
    let (_, s) = run(&[(0xF8, 0x37F8C9)]);
    assert_eq!(s.ksel[2], TevKSel { swap1: 1, swap2: 2, kcsel0: 12, kasel0: 28, kcsel1: 31, kasel1: 6 });
    assert_eq!((s.stage(4).kcsel, s.stage(4).kasel), (12, 28));
    assert_eq!((s.stage(5).kcsel, s.stage(5).kasel), (31, 6));
    // Swap table 1 = (ksel[2].swap1, ksel[2].swap2, ksel[3].swap1, ksel[3].swap2).
    let (_, s) = run(&[(0xF8, 0x000009), (0xF9, 0x00000E)]);
    assert_eq!(s.swap_table(1), [1, 2, 2, 3]);
    assert_eq!(s.swap_table(0), [0, 0, 0, 0]);
}

#[test]
fn bp_mask_applies_to_exactly_one_write() {
    let mut regs = BpRegs::new();
    regs.write(0xC0, 0xFFFFFF);
    // Mask the low nibble only: the next write changes bits 3:0 and nothing else.
    regs.write(0xFE, 0x00000F);
    assert_eq!(regs.pending_mask(), 0x00000F);
    regs.write(0xC0, 0x000000);
    assert_eq!(regs.get(0xC0), 0xFFFFF0);
    assert_eq!(regs.pending_mask(), 0xFFFFFF);
    // The following write is unmasked again.
    regs.write(0xC0, 0x123456);
    assert_eq!(regs.get(0xC0), 0x123456);
}

#[test]
fn bp_mask_through_a_display_list_as_real_shaders_use_it() {
    // Real MDL0 shader lists write FE=0x00000F before the swap bits and FE=0xFFFFF0 before the
    // ksel bits of the same TevKSel register (facts file).
    let (regs, s) = run(&[
        (0xF6, 0x000000),
        (0xFE, 0x00000F),
        (0xF6, 0x00000E),
        (0xFE, 0xFFFFF0),
        (0xF6, 0x37F8C0),
        (0xF7, 0xABCDEF),
    ]);
    assert_eq!(s.ksel[0], TevKSel { swap1: 2, swap2: 3, kcsel0: 12, kasel0: 28, kcsel1: 31, kasel1: 6 });
    // The write to 0xF7 after the masked write is complete.
    assert_eq!(regs.get(0xF7), 0xABCDEF);
}

#[test]
fn bp_mask_does_not_leak_into_a_different_register() {
    let (_, s) = run(&[(0xC2, 0xFFFFFF), (0xFE, 0x0000FF), (0xC4, 0xFFFFFF), (0xC2, 0x000000)]);
    assert_eq!(s.color_env[2], ColorCombiner::decode(0x0000FF));
    assert_eq!(s.color_env[1], ColorCombiner::decode(0x000000));
}

#[test]
fn masked_write_to_a_tev_register_picks_its_bank_after_masking() {
    // Konst bank value, then a masked write that changes only the low bits: bit 23 stays set.
    let (_, s) = run(&[(0xE0, 0x800001), (0xFE, 0x0007FF), (0xE0, 0x000002)]);
    assert_eq!(s.konst_regs[0][0], 2);
    assert_eq!(s.color_regs[0][0], 0);
}

#[test]
fn xf_cp_and_nops_are_skipped_with_their_lengths() {
    let mut bytes = vec![0x00, 0x00];
    bytes.extend_from_slice(&[0x10, 0x00, 0x01, 0x10, 0x40, 0, 0, 0, 1, 0x61, 0, 0, 0]); // XF: 2 values, the 2nd holds a 0x61 byte
    bytes.extend_from_slice(&[0x08, 0x50, 0x61, 0x61, 0x61, 0x61]); // CP load whose value looks like BP loads
    bytes.extend_from_slice(&bp_load(0xC0, 0x08FFF0));
    bytes.extend_from_slice(&[0x20, 1, 2, 3, 4, 0x48, 0x00]);
    let cmds = dl::decode(&bytes, 0x100).unwrap();
    let kinds: Vec<_> = cmds.iter().map(|c| (c.offset, c.command.clone())).collect();
    assert_eq!(kinds[2], (0x102, Command::Xf { address: 0x1040, values: vec![1, 0x6100_0000] }));
    assert_eq!(kinds[3], (0x10F, Command::Cp { address: 0x50, value: 0x6161_6161 }));
    assert_eq!(kinds[4], (0x115, Command::Bp { address: 0xC0, value: 0x08FFF0 }));
    assert_eq!(kinds[5], (0x11A, Command::LoadIndexed { opcode: 0x20, value: 0x0102_0304 }));
    assert_eq!(kinds.len(), 8);
    let mut regs = BpRegs::new();
    dl::apply(&mut regs, &bytes, 0).unwrap();
    assert_eq!(regs.written_registers(), vec![(0xC0, 0x08FFF0)]);
    // Encoding gives the same bytes back.
    let just: Vec<Command> = cmds.into_iter().map(|c| c.command).collect();
    assert_eq!(dl::encode(&just), bytes);
}

#[test]
fn display_list_errors_are_positioned() {
    let e = dl::decode(&[0x00, 0x61, 0xC0, 0x00], 0x40).unwrap_err();
    assert_eq!(e.offset, 0x42);
    assert!(e.to_string().contains("BP load"), "{e}");
    let e = dl::decode(&[0x00, 0x00, 0x77], 0).unwrap_err();
    assert_eq!((e.offset, e.kind.clone()), (2, gx::ErrorKind::UnknownCommand(0x77)));
    let e = dl::decode(&[0x90, 0x00, 0x03], 8).unwrap_err();
    assert_eq!((e.offset, e.kind), (8, gx::ErrorKind::DrawCommand(0x90)));
    // A huge XF length is refused before allocation.
    let e = dl::decode(&[0x10, 0xFF, 0xFF, 0x10, 0x00], 0).unwrap_err();
    assert!(matches!(e.kind, gx::ErrorKind::Truncated { need: 262144, .. }), "{e}");
}

#[test]
fn printer_names_every_field_of_every_register() {
    let addresses: Vec<u8> = [0x00u8]
        .into_iter()
        .chain(0x06..=0x0E)
        .chain(0x10..=0x1F)
        .chain(0x25..=0x2F)
        .chain(0x40..=0x42)
        .chain(0xC0..=0xDF)
        .chain(0xE0..=0xE7)
        .chain(0xEE..=0xF3)
        .chain(0xF6..=0xFE)
        .collect();
    for a in addresses {
        let (_, layout) = layout_of(a, 0).expect("known register");
        let line = format_register(a, 0xFFFFFF);
        for f in layout.fields {
            assert!(line.contains(&format!(" {}=", f.name)) || line.contains(&format!(": {}=", f.name)), "{line}");
        }
    }
    assert_eq!(
        format_register(0xC0, 0x08FFF0),
        "0xC0 tev_color_env[0] = 0x08fff0: d=0(CPREV) c=15(ZERO) b=15(ZERO) a=15(ZERO) bias=0(ZERO) op=0(ADD_GT) clamp=1 scale=0(X1_R8) dest=0(PREV)"
    );
    assert_eq!(
        format_register(0x42, 0xFFFE00 | 0x7F),
        "0x42 const_alpha = 0xfffe7f: alpha=127 enable=0 unused=0xfffe00"
    );
    assert_eq!(format_register(0x99, 0x1), "0x99 bp_99 = 0x000001");
    // TEV registers are named by bank: 0xE0/E1 hold PREV or K0, 0xE2/E3 C0 or K1, ...
    assert!(format_register(0xE0, 0x000001).starts_with("0xE0 tev_reg_ra[prev] = "));
    assert!(format_register(0xE2, 0x000001).starts_with("0xE2 tev_reg_ra[c0] = "));
    assert!(format_register(0xE3, 0x800001).starts_with("0xE3 tev_reg_bg[k1] = "));
    assert!(format_register(0xE7, 0x000001).starts_with("0xE7 tev_reg_bg[c2] = "));
}

#[test]
fn every_layout_round_trips_and_fields_do_not_overlap() {
    let layouts = [
        GenMode::LAYOUT,
        IndMtxAB::LAYOUT,
        IndMtxC::LAYOUT,
        TevStageIndirect::LAYOUT,
        Ras1Ss::LAYOUT,
        Ras1Iref::LAYOUT,
        TwoTevStageOrders::LAYOUT,
        ZMode::LAYOUT,
        BlendMode::LAYOUT,
        ConstAlpha::LAYOUT,
        PeControl::LAYOUT,
        ColorCombiner::LAYOUT,
        AlphaCombiner::LAYOUT,
        TevRegRa::LAYOUT,
        TevRegBg::LAYOUT,
        FogRange::LAYOUT,
        FogRangeK::LAYOUT,
        FogA::LAYOUT,
        FogBMagnitude::LAYOUT,
        FogBShift::LAYOUT,
        FogC::LAYOUT,
        FogColor::LAYOUT,
        AlphaTest::LAYOUT,
        ZTexBias::LAYOUT,
        ZTex2::LAYOUT,
        TevKSel::LAYOUT,
        BpMask::LAYOUT,
    ];
    for l in layouts {
        let mut seen = 0u32;
        for f in l.fields {
            assert_eq!(seen & f.mask(), 0, "{} overlaps at {}", l.name, f.name);
            assert!(f.hi < 24);
            seen |= f.mask();
            if let Some(names) = f.names {
                assert_eq!(names.len(), 1 << f.width(), "{}.{} value names", l.name, f.name);
            }
        }
    }
    for raw in [0u32, 0xFFFFFF, 0x5A5A5A, 0xA5A5A5, 0x123456] {
        assert_eq!(ColorCombiner::decode(raw).encode(), raw & ColorCombiner::LAYOUT.known_mask());
        assert_eq!(AlphaCombiner::decode(raw).encode(), raw);
        assert_eq!(TevStageIndirect::decode(raw).encode(), raw & TevStageIndirect::LAYOUT.known_mask());
        assert_eq!(TevKSel::decode(raw).encode(), raw);
        assert_eq!(IndMtxC::decode(raw).encode(), raw);
    }
}

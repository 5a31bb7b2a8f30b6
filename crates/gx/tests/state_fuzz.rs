//! Random BP streams and random pixels: the display-list path and the direct register writes
//! agree, the evaluator never panics, and its outputs stay in the hardware ranges.

use gx::bp::BpRegs;
use gx::dl::{self, Command};
use gx::{Evaluator, PixelInputs};
use proptest::prelude::*;

fn writes() -> impl Strategy<Value = Vec<(u8, u32)>> {
    // Bias the addresses toward the registers the TEV reads.
    let addr = prop_oneof![
        Just(0x00u8),
        0x06u8..=0x0E,
        0x10u8..=0x1F,
        0x25u8..=0x2F,
        0xC0u8..=0xDF,
        0xE0u8..=0xE7,
        0xF3u8..=0xFE,
        any::<u8>(),
    ];
    prop::collection::vec((addr, 0u32..0x100_0000), 0..120)
}

fn pixel() -> impl Strategy<Value = PixelInputs> {
    (
        prop::collection::vec(any::<[u8; 4]>(), 0..17),
        any::<[[u8; 4]; 2]>(),
        any::<[[u8; 4]; 4]>(),
        any::<[[i32; 2]; 8]>(),
    )
        .prop_map(|(tex, ras, ind_tex, texcoords)| PixelInputs { tex, ras, ind_tex, texcoords })
}

proptest! {
    #[test]
    fn display_list_path_equals_direct_writes(w in writes()) {
        let mut direct = BpRegs::new();
        for &(a, v) in &w {
            direct.write(a, v);
        }
        let cmds: Vec<Command> = w.iter().map(|&(address, value)| Command::Bp { address, value }).collect();
        let bytes = dl::encode(&cmds);
        let mut via = BpRegs::new();
        let decoded = dl::apply(&mut via, &bytes, 0).unwrap();
        prop_assert_eq!(decoded.len(), w.len());
        prop_assert_eq!(via.state(), direct.state());
        prop_assert_eq!(via.print(), direct.print());
    }

    #[test]
    fn evaluator_outputs_stay_in_range(w in writes(), p in pixel()) {
        let mut regs = BpRegs::new();
        for &(a, v) in &w {
            regs.write(a, v);
        }
        let state = regs.state();
        let out = Evaluator::new(&state).eval(&p);
        for r in out.regs {
            for v in r {
                prop_assert!((-1024..=1023).contains(&v));
            }
        }
        let n = state.num_stages();
        let last = state.stage(n - 1);
        let cd = last.color.dest as usize;
        prop_assert_eq!(out.color, [out.regs[cd][0] as u8, out.regs[cd][1] as u8, out.regs[cd][2] as u8]);
        prop_assert_eq!(out.alpha, out.regs[last.alpha.dest as usize][3] as u8);
        for c in out.indirect.tevcoord {
            prop_assert!(c.iter().all(|v| (-(1 << 23)..(1 << 23)).contains(v)));
        }
        // A state serializes (the JSON path of the CLI).
        let _ = format!("{state:?}");
    }
}

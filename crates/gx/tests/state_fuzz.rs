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
        .prop_map(|(tex, ras, ind_tex, texcoords)| PixelInputs {
            tex,
            ras,
            ind_tex,
            texcoords,
            ..Default::default()
        })
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

proptest! {
    /// The printer's listing parses back to the same registers (printer and parser are inverses).
    #[test]
    fn listing_round_trips(w in writes()) {
        let mut regs = BpRegs::new();
        for &(a, v) in &w {
            regs.write(a, v);
        }
        let text = regs.print();
        let back = gx::listing::to_regs(&text).unwrap();
        prop_assert_eq!(back.state(), regs.state());
        prop_assert_eq!(back.print(), text);
    }

    /// Random valid materials from the smith generator evaluate within the hardware ranges.
    #[test]
    fn smith_states_evaluate(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        let mut u = arbitrary::Unstructured::new(&bytes);
        let state = gx::smith::state(&mut u, &gx::smith::Config::default()).unwrap();
        let p = gx::smith::pixel(&mut u, state.num_stages()).unwrap();
        prop_assert!((1..=16).contains(&state.num_stages()));
        let out = Evaluator::new(&state).eval(&p);
        prop_assert!(out.regs.iter().flatten().all(|v| (-1024..=1023).contains(v)));
    }
}

#[test]
fn listing_errors_name_the_line() {
    let good = "0xC0 tev_color_env[0] = 0x08fff0: d=0(CPREV) c=15(ZERO) b=15(ZERO) a=15(ZERO) bias=0(ZERO) op=0(ADD_GT) clamp=1 scale=0(X1_R8) dest=0(PREV)";
    assert_eq!(gx::listing::parse(good).unwrap(), vec![(0xC0, 0x08FFF0)]);
    // A field that disagrees with the raw value.
    let bad = good.replace("d=0(CPREV)", "d=1(APREV)");
    let e = gx::listing::parse(&format!("# header\n\n{bad}")).unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.message.contains("raw value"), "{e}");
    // A value name that does not match.
    let e = gx::listing::parse(&good.replace("c=15(ZERO)", "c=15(ONE)")).unwrap_err();
    assert!(e.message.contains("not named"), "{e}");
    // A missing field, an unknown register name.
    assert!(gx::listing::parse(&good.replace(" dest=0(PREV)", "")).unwrap_err().message.contains("dest is missing"));
    assert!(gx::listing::parse(&good.replace("tev_color_env[0]", "tev_color_env[1]")).is_err());
    assert_eq!(gx::listing::parse("0x99 bp_99 = 0x000001").unwrap(), vec![(0x99, 1)]);
}

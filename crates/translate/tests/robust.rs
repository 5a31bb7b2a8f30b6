//! Any program translates to a module naga validates, or to a clear error: random instruction
//! words (every opcode, any flow target, descriptors past the table), random entry points,
//! shader types, geometry modes and output tables. Bounded by PROPTEST_CASES.

use pica::shbin::{Dvle, Dvlp, GeometryMode, Output, OutputKind, ShaderType, Shbin};
use proptest::prelude::*;
use translate::pica::{translate, Options};
use translate::Precision;

fn shbin(code: Vec<u32>, descs: Vec<u32>, main: u32, ty: u8, mode: u8, outs: Vec<(u16, u16)>) -> Shbin {
    Shbin {
        program: Dvlp { code, descriptors: descs.into_iter().map(|d| [d, 0]).collect(), ..Dvlp::default() },
        executables: vec![Dvle {
            main,
            shader_type: ShaderType::from_raw(ty),
            geometry_mode: GeometryMode::from_raw(mode),
            outputs: outs
                .into_iter()
                .map(|(k, r)| Output { kind: OutputKind::from_raw(k), reg: r, mask: 0xF, unknown: 0 })
                .collect(),
            ..Dvle::default()
        }],
    }
}

proptest! {
    #[test]
    fn random_programs_validate_or_fail_cleanly(
        code in prop::collection::vec(any::<u32>(), 0..40),
        descs in prop::collection::vec(any::<u32>(), 0..8),
        main in 0u32..8,
        ty in 0u8..3,
        mode in 0u8..4,
        outs in prop::collection::vec((0u16..10, 0u16..20), 0..6),
        precision in prop::sample::select(vec![Precision::Fast, Precision::Compat, Precision::Exact]),
        dispatch_only in any::<bool>(),
    ) {
        let s = shbin(code.clone(), descs, main, ty, mode, outs);
        match translate(&s, 0, Options { precision, dispatch_only, compute_wrapper: true }) {
            Ok(t) => {
                // `translate` returns validated modules only.
                let words = t.spirv();
                prop_assert!(words.is_ok());
            }
            Err(e) => {
                prop_assert!(!matches!(e, translate::Error::Validation(_)), "{e:?}");
                // Only an entry past the code or an unknown shader type may be refused.
                prop_assert!(main as usize >= code.len() || ty == 2, "{e}");
            }
        }
        // A missing executable is an error, never a panic.
        prop_assert!(translate(&s, 1, Options::default()).is_err());
    }
}

//! decode -> encode is the identity on random words of every encoding, and program decoding
//! never panics on random or mutated input.

use latte::isa::cf::CfInst;
use latte::isa::{AluInst, FetchInst, Program};
use proptest::prelude::*;

proptest! {
    #[test]
    fn cf_identity(w0: u32, w1: u32) {
        prop_assert_eq!(CfInst::decode(w0, w1).encode(), (w0, w1));
    }

    #[test]
    fn cf_alu_identity(w0: u32, w1 in any::<u32>().prop_map(|w| w | (1 << 29))) {
        let c = CfInst::decode(w0, w1);
        prop_assert!(matches!(c, CfInst::Alu(_)));
        prop_assert_eq!(c.encode(), (w0, w1));
    }

    #[test]
    fn cf_export_identity(w0: u32, w1 in any::<u32>().prop_map(|w| (w & !(0x7F << 23)) | ((0x20 + (w & 0x1F)) << 23))) {
        let c = CfInst::decode(w0, w1);
        prop_assert!(matches!(c, CfInst::Export(_)));
        prop_assert_eq!(c.encode(), (w0, w1));
    }

    #[test]
    fn alu_op2_identity(w0: u32, w1 in any::<u32>().prop_map(|w| w & !(7 << 15))) {
        let a = AluInst::decode(w0, w1);
        prop_assert!(matches!(a.kind, latte::isa::AluKind::Op2(_)));
        prop_assert_eq!(a.encode(), (w0, w1));
    }

    #[test]
    fn alu_op3_identity(w0: u32, w1 in any::<u32>().prop_map(|w| w | (1 << 17))) {
        let a = AluInst::decode(w0, w1);
        prop_assert!(matches!(a.kind, latte::isa::AluKind::Op3(_)));
        prop_assert_eq!(a.encode(), (w0, w1));
    }

    #[test]
    fn tex_identity(w: [u32; 4]) {
        let w = [w[0] | 2, w[1], w[2], w[3]];
        let f = FetchInst::decode(w, true);
        prop_assert!(matches!(f, FetchInst::Tex(_)));
        prop_assert_eq!(f.encode(), w);
    }

    #[test]
    fn vtx_identity(w: [u32; 4]) {
        let f = FetchInst::decode(w, false);
        prop_assert!(matches!(f, FetchInst::Vtx(_)));
        prop_assert_eq!(f.encode(), w);
    }

    /// Any word sequence either decodes (and then re-encodes to itself) or gives an error.
    #[test]
    fn random_programs(words in proptest::collection::vec(any::<u32>(), 0..300)) {
        if let Ok(p) = Program::decode(&words, 0) {
            prop_assert_eq!(p.encode(), words);
        }
    }
}

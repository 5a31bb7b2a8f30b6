//! The TEV key from random BP state: building never panics, its shape follows genMode, and
//! changing only uniform values (colour and konst registers, indirect matrices, alpha-test
//! references, fog) leaves it equal, while a code field changes it.

use arbitrary::Unstructured;
use gx::bp::BpRegs;
use gx::key::TevKey;
use gx::smith::{self, Config};
use gx::TevState;
use proptest::prelude::*;

fn writes() -> impl Strategy<Value = Vec<(u8, u32)>> {
    prop::collection::vec((any::<u8>(), 0u32..0x100_0000), 0..160)
}

/// `state` with every uniform-only register value replaced from `u`.
fn perturb_uniforms(state: &TevState, u: &mut Unstructured) -> TevState {
    let mut s = state.clone();
    for r in s.color_regs.iter_mut().chain(s.konst_regs.iter_mut()) {
        for c in r.iter_mut() {
            *c = u.int_in_range(-1024..=1023).unwrap_or(0);
        }
    }
    for m in &mut s.ind_mtx {
        m.a.row0 = u.int_in_range(-1024..=1023).unwrap_or(1);
        m.b.row1 = u.int_in_range(-1024..=1023).unwrap_or(2);
        m.c.row0 = u.int_in_range(-1024..=1023).unwrap_or(3);
        m.a.scale_bits = u.int_in_range(0..=3).unwrap_or(1);
        m.c.scale_bit4 ^= 1;
    }
    s.alpha_test.ref0 = u.arbitrary().unwrap_or(7);
    s.alpha_test.ref1 = u.arbitrary().unwrap_or(9);
    s.fog.color.r ^= 0x55;
    s
}

proptest! {
    #[test]
    fn any_bp_stream_gives_a_key(w in writes()) {
        let mut regs = BpRegs::new();
        for (a, v) in w {
            regs.write(a, v);
        }
        let state = regs.state();
        let key = TevKey::new(&state);
        prop_assert_eq!(key.stages.len(), state.num_stages());
        prop_assert_eq!(key.ind.len(), (state.gen_mode.num_indstages as usize).min(4));
        prop_assert!(key.num_texgens <= 8);
        for (i, s) in key.stages.iter().enumerate() {
            prop_assert!(s.texcoord.is_none_or(|t| t < key.num_texgens));
            prop_assert_eq!(s.ind.active, (state.tev_ind[i].bt as usize) < key.ind.len());
        }
        prop_assert_eq!(TevKey::new(&state).to_bytes(), key.to_bytes());
    }

    #[test]
    fn uniform_values_do_not_change_the_key(bytes in prop::collection::vec(any::<u8>(), 64..2048), noise in prop::collection::vec(any::<u8>(), 64)) {
        let state = smith::state(&mut Unstructured::new(&bytes), &Config::default()).unwrap();
        let other = perturb_uniforms(&state, &mut Unstructured::new(&noise));
        prop_assert_eq!(TevKey::new(&state), TevKey::new(&other));
    }

    #[test]
    fn code_fields_change_the_key(bytes in prop::collection::vec(any::<u8>(), 64..2048), stage in 0usize..16) {
        let state = smith::state(&mut Unstructured::new(&bytes), &Config::default()).unwrap();
        let i = stage % state.num_stages();
        let key = TevKey::new(&state);
        let mut s = state.clone();
        s.color_env[i].op ^= 1;
        prop_assert_ne!(&TevKey::new(&s), &key);
        let mut s = state.clone();
        s.alpha_env[i].dest = (s.alpha_env[i].dest + 1) & 3;
        prop_assert_ne!(&TevKey::new(&s), &key);
        let mut s = state.clone();
        s.alpha_test.logic = (s.alpha_test.logic + 1) & 3;
        prop_assert_ne!(TevKey::new(&s).hash64(), key.hash64());
    }
}

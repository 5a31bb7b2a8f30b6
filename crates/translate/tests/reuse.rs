//! Each thread reuses one naga validator and SPIR-V writer across translations: a module's
//! SPIR-V must not depend on what the thread translated before. Every module here is written
//! once on a thread that has translated many others (fragment keys of both generators and
//! vertex programs, interleaved) and once on a fresh thread; the words must be the same.

use arbitrary::Unstructured;
use gx::key::TevKey;
use pica::fixed::FragmentKey;
use translate::gx_tev;
use translate::pica as vertex;
use translate::pica_fs::{self, InputMap};

fn bytes(seed: u64, n: usize) -> Vec<u8> {
    pica::smith::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x3C6E_F372_FE94_F82B).bytes(n)
}

/// The SPIR-V of module `i` of the interleaved sequence (fragment, TEV, vertex, ...).
fn words(i: u64) -> Vec<u32> {
    let data = bytes(i / 3, 4096);
    let mut u = Unstructured::new(&data);
    match i % 3 {
        0 => {
            let state = pica::smith::fragment_state(&mut u).unwrap();
            let key = FragmentKey::from_regs(&state.regs);
            pica_fs::fragment(&key, &InputMap::from_regs(&state.regs)).unwrap().spirv().unwrap()
        }
        1 => {
            let state = gx::smith::state(&mut u, &gx::smith::Config::default()).unwrap();
            gx_tev::fragment(&TevKey::new(&state)).unwrap().spirv().unwrap()
        }
        _ => {
            let program: Vec<u32> = (0..32).map(|_| u.arbitrary().unwrap()).collect();
            let descs: Vec<u32> = (0..8).map(|_| u.arbitrary().unwrap()).collect();
            let setup = vertex::Setup::new(program, descs, 0);
            match vertex::vertex(&setup, &vertex::Options::default()) {
                Ok(t) => t.spirv().unwrap(),
                Err(_) => Vec::new(),
            }
        }
    }
}

#[test]
fn reused_validator_and_writer_give_the_words_of_fresh_ones() {
    let n = testkit::count("REUSE_MODULES", 90);
    let reused: Vec<Vec<u32>> = (0..n).map(words).collect();
    // Again in reverse order on the same thread, then each on a thread of its own.
    for i in (0..n).rev() {
        assert_eq!(words(i), reused[i as usize], "module {i}, second pass on a used writer");
    }
    for i in 0..n {
        let fresh = std::thread::spawn(move || words(i)).join().unwrap();
        assert_eq!(fresh, reused[i as usize], "module {i}: a fresh thread writes other words");
    }
    assert!(reused.iter().filter(|w| !w.is_empty()).count() as u64 > n / 2);
}

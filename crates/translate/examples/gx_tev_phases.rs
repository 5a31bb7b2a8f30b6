//! Where the time of material -> validated SPIR-V goes: the key, building the naga module,
//! naga's validation, naga's SPIR-V writer and our SPIR-V post-passes, each timed alone over the
//! same random 4- and 16-stage materials as the `gx_tev` bench (medians per material).
//!
//! `cargo run --release -p translate --example gx_tev_phases`; under
//! `valgrind --tool=callgrind` it gives the instruction counts of the same work.

use std::time::{Duration, Instant};

use arbitrary::Unstructured;
use gx::key::TevKey;
use gx::smith::{self, Config};
use gx::TevState;
use naga::valid::{Capabilities, ValidationFlags, Validator};
use translate::gx_tev;

fn bytes(seed: u64, n: usize) -> Vec<u8> {
    pica::smith::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)).bytes(n)
}

fn materials(stages: u8) -> Vec<TevState> {
    let cfg = Config { max_stages: stages, ..Config::default() };
    (0..)
        .map(|seed| smith::state(&mut Unstructured::new(&bytes(seed + 1000 * stages as u64, 4096)), &cfg).unwrap())
        .filter(|s| s.num_stages() == stages as usize)
        .take(24)
        .collect()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn timed(reps: usize, mut f: impl FnMut()) -> Duration {
    median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

fn main() {
    let reps: usize = std::env::var("REPS").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    for stages in [4u8, 16] {
        let mats = materials(stages);
        let per = |f: &dyn Fn(&TevState)| median(mats.iter().map(|s| timed(reps, || f(s))).collect());
        let key = per(&|s| drop(std::hint::black_box(TevKey::new(s))));
        let translate = per(&|s| drop(std::hint::black_box(gx_tev::fragment(&TevKey::new(s)).unwrap())));
        let validate_only = median(
            mats.iter()
                .map(|s| {
                    let m = gx_tev::fragment(&TevKey::new(s)).unwrap().module().clone();
                    timed(reps, || {
                        std::hint::black_box(
                            Validator::new(ValidationFlags::all(), Capabilities::empty()).validate(&m).unwrap(),
                        );
                    })
                })
                .collect(),
        );
        let write = median(
            mats.iter()
                .map(|s| {
                    let t = gx_tev::fragment(&TevKey::new(s)).unwrap();
                    timed(reps, || drop(std::hint::black_box(t.spirv().unwrap())))
                })
                .collect(),
        );
        let naga_write = median(
            mats.iter()
                .map(|s| {
                    let m = gx_tev::fragment(&TevKey::new(s)).unwrap().module().clone();
                    let info = Validator::new(ValidationFlags::all(), Capabilities::empty()).validate(&m).unwrap();
                    let options = naga::back::spv::Options {
                        lang_version: (1, 3),
                        flags: naga::back::spv::WriterFlags::FORCE_POINT_SIZE,
                        fake_missing_bindings: true,
                        force_loop_bounding: false,
                        ..Default::default()
                    };
                    timed(reps, || {
                        drop(std::hint::black_box(naga::back::spv::write_vec(&m, &info, &options, None).unwrap()))
                    })
                })
                .collect(),
        );
        let total = per(&|s| drop(std::hint::black_box(gx_tev::fragment(&TevKey::new(s)).unwrap().spirv().unwrap())));
        let words = gx_tev::fragment(&TevKey::new(&mats[0])).unwrap().spirv().unwrap().len();
        let exprs: usize = gx_tev::fragment(&TevKey::new(&mats[0]))
            .unwrap()
            .module()
            .functions
            .iter()
            .map(|(_, f)| f.expressions.len())
            .sum();
        println!(
            "{stages} stages: total {total:?} = key {key:?} + build {:?} + validate {validate_only:?} + SPIR-V write {write:?} (naga's writer alone {naga_write:?}) \
             (first material: {exprs} expressions, {words} words)",
            translate.saturating_sub(validate_only).saturating_sub(key)
        );
    }
}

//! TEV keys to fragment modules: random valid materials (gx::smith) translate to every back end
//! (naga validates, spirv-val and glslangValidator accept), and materials that differ only in
//! uniform values give byte-identical modules.

use arbitrary::Unstructured;
use gx::key::TevKey;
use gx::smith::{self, Config};
use testkit::{glslang, par_map, spirv_val, tool};
use translate::{gx_tev, Output, Target};

/// A deterministic byte source for seed `seed` (splitmix64).
fn bytes(seed: u64, n: usize) -> Vec<u8> {
    pica::smith::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03).bytes(n)
}

fn state(seed: u64) -> gx::TevState {
    smith::state(&mut Unstructured::new(&bytes(seed, 4096)), &Config::default()).unwrap()
}

#[test]
fn random_keys_translate_to_every_backend() {
    let n = testkit::count("GX_TEV_KEYS", if testkit::quick() { 100 } else { 1000 });
    let (check_spv, check_glsl) = (tool("spirv-val"), tool("glslangValidator"));
    let dir = testkit::temp_dir("gx-tev");
    let mut spv = Vec::new();
    let mut glsl = Vec::new();
    for seed in 0..n {
        let key = TevKey::new(&state(seed));
        let t = gx_tev::fragment(&key).unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        for target in Target::ALL {
            let out = t.write(target).unwrap_or_else(|e| panic!("seed {seed} {}: {e:?}", target.name()));
            assert!(!out.to_bytes().is_empty());
            let file = match (&out, target) {
                (Output::Words(_), Target::SpirV) if check_spv => dir.join(format!("{seed}.spv")),
                (Output::Text(_), Target::Glsl) if check_glsl => dir.join(format!("{seed}.frag")),
                (Output::Text(_), Target::GlslEs) if check_glsl => dir.join(format!("{seed}.es.frag")),
                _ => continue,
            };
            std::fs::write(&file, out.to_bytes()).unwrap();
            if target == Target::SpirV {
                spv.push(file)
            } else {
                glsl.push(file)
            }
        }
    }
    let bad: Vec<String> = par_map(&spv, |f| spirv_val(f)).into_iter().flatten().collect();
    assert!(bad.is_empty(), "spirv-val: {}", bad.join("\n"));
    let batches: Vec<&[std::path::PathBuf]> = glsl.chunks(200).collect();
    let bad: Vec<String> = par_map(&batches, |b| glslang(b)).into_iter().flatten().collect();
    assert!(bad.is_empty(), "glslang: {}", bad.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn uniform_only_differences_give_byte_identical_modules() {
    for seed in 0..64 {
        let a = state(seed);
        let mut b = a.clone();
        b.konst_regs = [[1, 2, 3, 4], [-5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 1023]];
        b.color_regs[2] = [-1024, 0, 5, 77];
        b.ind_mtx[0].a.row0 = -300;
        b.ind_mtx[2].c.scale_bit4 ^= 1;
        b.alpha_test.ref0 = b.alpha_test.ref0.wrapping_add(1);
        b.fog.color.g ^= 0xFF;
        let (ka, kb) = (TevKey::new(&a), TevKey::new(&b));
        assert_eq!(ka, kb, "seed {seed}");
        let sa = gx_tev::fragment(&ka).unwrap().spirv().unwrap();
        let sb = gx_tev::fragment(&kb).unwrap().spirv().unwrap();
        assert_eq!(sa, sb, "seed {seed}");
        assert_ne!(gx_tev::UniformBlock::from_state(&a), gx_tev::UniformBlock::from_state(&b));
        // A code change changes the module.
        let mut c = a.clone();
        c.color_env[0].op ^= 1;
        assert_ne!(gx_tev::fragment(&TevKey::new(&c)).unwrap().spirv().unwrap(), sa, "seed {seed}");
    }
}

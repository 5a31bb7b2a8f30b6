//! PICA200 fragment keys to fragment modules: random states (pica::smith::fragment_state)
//! translate to every back end (naga validates, spirv-val and glslangValidator accept), the
//! module is a function of the key and the input map alone, and a change of code changes it.

use arbitrary::Unstructured;
use pica::fixed::{FragmentKey, FragmentUniforms};
use pica::smith::{fragment_state, lit_state, proctex_state};
use pica::state::GpuState;
use testkit::{glslang, par_map, spirv_val, tool};
use translate::pica_fs::{self, InputMap, Options};
use translate::{Output, Target};

fn bytes(seed: u64, n: usize) -> Vec<u8> {
    pica::smith::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x7A3F_0C11_5E2D_9B41).bytes(n)
}

fn state(seed: u64) -> GpuState {
    fragment_state(&mut Unstructured::new(&bytes(seed, 4096))).unwrap()
}

/// The output map of a typical citro3d program: o0 position, o1 colour, o2 texcoord 0 (u, v,
/// w in z), o3 texcoord 1, o4 texcoord 2, o5 view, o6 normal quaternion.
fn input_map() -> InputMap {
    InputMap::typical()
}

/// Translations of a test's keys, written where spirv-val (SPIR-V) and glslangValidator (GLSL,
/// GLSL ES) check them at the end, with the time of each translation to SPIR-V.
struct Backends {
    dir: std::path::PathBuf,
    check_spv: bool,
    check_glsl: bool,
    spv: Vec<std::path::PathBuf>,
    glsl: Vec<std::path::PathBuf>,
    times: Vec<std::time::Duration>,
}

impl Backends {
    fn new(name: &str) -> Backends {
        Backends {
            dir: testkit::temp_dir(name),
            check_spv: tool("spirv-val"),
            check_glsl: tool("glslangValidator"),
            spv: Vec::new(),
            glsl: Vec::new(),
            times: Vec::new(),
        }
    }

    /// Translates `key` (the compute wrapper on every third seed) and writes every target.
    fn add(&mut self, seed: u64, key: &FragmentKey, map: &InputMap) {
        let options = Options { compute_wrapper: seed.is_multiple_of(3) };
        let start = std::time::Instant::now();
        let t = pica_fs::translate(key, map, &options).unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        let words = t.spirv().unwrap();
        self.times.push(start.elapsed());
        assert!(!words.is_empty());
        for target in Target::ALL {
            let out = t.write(target).unwrap_or_else(|e| panic!("seed {seed} {}: {e:?}", target.name()));
            assert!(!out.to_bytes().is_empty());
            let file = match (&out, target) {
                (Output::Words(_), Target::SpirV) if self.check_spv => self.dir.join(format!("{seed}.spv")),
                (Output::Text(_), Target::Glsl) if self.check_glsl => self.dir.join(format!("{seed}.frag")),
                (Output::Text(_), Target::GlslEs) if self.check_glsl => self.dir.join(format!("{seed}.es.frag")),
                _ => continue,
            };
            std::fs::write(&file, out.to_bytes()).unwrap();
            if target == Target::SpirV {
                self.spv.push(file)
            } else {
                self.glsl.push(file)
            }
        }
    }

    /// The median translation time so far.
    fn median_time(&self) -> std::time::Duration {
        testkit::median(self.times.clone())
    }

    /// Runs the validators over every file written.
    fn validate(self) {
        let bad: Vec<String> = par_map(&self.spv, |f| spirv_val(f)).into_iter().flatten().collect();
        assert!(bad.is_empty(), "spirv-val: {}", bad.join("\n"));
        let batches: Vec<&[std::path::PathBuf]> = self.glsl.chunks(200).collect();
        let bad: Vec<String> = par_map(&batches, |b| glslang(b)).into_iter().flatten().collect();
        assert!(bad.is_empty(), "glslang: {}", bad.join("\n"));
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The median time of a translation to SPIR-V of `n` keys without lighting or unit 3, for
/// scale on a loaded machine.
fn plain_median(n: u64, map: &InputMap) -> std::time::Duration {
    testkit::median(
        (0..n)
            .map(|seed| {
                let key = FragmentKey::from_state(&state(seed));
                let start = std::time::Instant::now();
                let words = pica_fs::fragment(&key, map).and_then(|t| t.spirv()).unwrap();
                assert!(!words.is_empty());
                start.elapsed()
            })
            .collect(),
    )
}

#[test]
fn random_keys_translate_to_every_backend() {
    let n = testkit::count("PICA_FS_KEYS", if testkit::quick() { 100 } else { 1000 });
    let mut backends = Backends::new("pica-fs");
    let map = input_map();
    for seed in 0..n {
        let s = state(seed);
        let key = if seed % 2 == 0 { FragmentKey::from_state(&s) } else { FragmentKey::decode_raw(&s.regs) };
        backends.add(seed, &key, &map);
    }
    backends.validate();
}

/// Procedural-texture keys (pica::smith::proctex_state: every coordinate set, clamp, mapping
/// function, shift and filter, noise and separate alpha on and off) translate to every back end
/// (spirv-val and glslangValidator check SPIR-V, GLSL and GLSL ES),
/// each field turns up with each value, and the median time of a translation to SPIR-V is
/// printed (the per-key budget is 100 us on an unloaded machine; not asserted on a shared one).
#[test]
fn random_proctex_keys_translate_to_every_backend() {
    use pica::fixed::ProcTexKey;
    let n = testkit::count("PICA_FS_PROCTEX_KEYS", if testkit::quick() { 100 } else { 600 });
    let mut backends = Backends::new("pica-fs-proctex");
    let map = input_map();
    let mut seen = std::collections::HashSet::new();
    let fields = |k: &ProcTexKey| {
        [
            u32::from(k.coords),
            k.u_clamp.raw(),
            k.v_clamp.raw(),
            k.rgb_func.raw(),
            if k.separate_alpha { k.alpha_func.raw() } else { 100 },
            u32::from(k.separate_alpha),
            u32::from(k.noise),
            k.u_shift.raw(),
            k.v_shift.raw(),
            k.filter.raw(),
        ]
    };
    let mut enabled = 0;
    for seed in 0..n {
        let s = proctex_state(&mut Unstructured::new(&bytes(seed ^ 0x9C, 8192))).unwrap();
        let key = FragmentKey::from_state(&s);
        if !key.proctex.enabled {
            continue;
        }
        enabled += 1;
        for (i, v) in fields(&key.proctex).into_iter().enumerate() {
            seen.insert((i, v));
        }
        backends.add(seed, &key, &map);
    }
    eprintln!(
        "{enabled} proctex keys of {n} states; median translation to SPIR-V {:?} (keys without unit 3: {:?})",
        backends.median_time(),
        plain_median(n, &map)
    );
    // coords 0-2, clamps 0-4, functions 0-10 (10 = undefined), shifts 0-2, filters 0-5.
    let want: [u32; 10] = [3, 5, 5, 11, 11, 2, 2, 3, 3, 6];
    for (i, &w) in want.iter().enumerate() {
        let values = seen.iter().filter(|(f, v)| *f == i && *v < 100).count() as u32;
        assert_eq!(values, w, "field {i}: {:?}", seen.iter().filter(|(f, _)| *f == i).collect::<Vec<_>>());
    }
    backends.validate();
}

#[test]
fn uniform_only_differences_give_byte_identical_modules() {
    let map = input_map();
    for seed in 0..64 {
        let a = state(seed);
        let mut b = a.clone();
        // Constant colours, the buffer colour, the alpha reference, the fog colour and LUT, the
        // depth scale and offset, the shadow bias, border colours and wrap modes.
        for base in [0x0C3usize, 0x0CB, 0x0D3, 0x0DB, 0x0F3, 0x0FB, 0x0FD, 0x0E1, 0x081, 0x091, 0x099] {
            b.regs[base] ^= 0x5A5A_5A5A;
        }
        b.regs[0x104] ^= 0xFF00;
        b.regs[0x04D] ^= 0x1234;
        b.regs[0x04E] ^= 0x4321;
        b.regs[0x08B] ^= 0xFFFE;
        b.regs[0x083] ^= 0x3300;
        let mut lut = *b.memories.fog;
        lut[5] ^= 0xFFFF;
        b.memories.fog = std::sync::Arc::new(lut);
        let (ka, kb) = (FragmentKey::from_state(&a), FragmentKey::from_state(&b));
        assert_eq!(ka, kb, "seed {seed}");
        let sa = pica_fs::fragment(&ka, &map).unwrap().spirv().unwrap();
        let sb = pica_fs::fragment(&kb, &map).unwrap().spirv().unwrap();
        assert_eq!(sa, sb, "seed {seed}");
        let ua = pica_fs::UniformBlock::from_uniforms(&FragmentUniforms::from_state(&a));
        let ub = pica_fs::UniformBlock::from_uniforms(&FragmentUniforms::from_state(&b));
        assert_ne!(ua, ub, "seed {seed}");
        assert_eq!(ua.to_bytes().len(), pica_fs::UNIFORM_SIZE as usize);
    }
}

#[test]
fn a_code_change_changes_the_module() {
    let map = input_map();
    let mut changed = 0;
    for seed in 0..64 {
        let a = state(seed);
        let ka = FragmentKey::from_state(&a);
        let mut kb = ka;
        kb.w_buffer = !kb.w_buffer;
        let sa = pica_fs::fragment(&ka, &map).unwrap().spirv().unwrap();
        let sb = pica_fs::fragment(&kb, &map).unwrap().spirv().unwrap();
        assert_ne!(sa, sb, "seed {seed}: w-buffering");
        let mut kc = ka;
        kc.texenv[5].rgb_scale = match kc.texenv[5].rgb_scale {
            pica::regs::layouts::TexEnvScale::X2 => pica::regs::layouts::TexEnvScale::X4,
            _ => pica::regs::layouts::TexEnvScale::X2,
        };
        if kc.texenv[5].rgb_combine != pica::fixed::key::ZERO_COMBINE && !kc.shadow_render {
            let sc = pica_fs::fragment(&kc, &map).unwrap().spirv().unwrap();
            assert_ne!(sa, sc, "seed {seed}: last stage's scale");
            changed += 1;
        }
    }
    assert!(changed > 10);
}

#[test]
fn the_input_map_places_the_fragment_inputs() {
    let t = pica_fs::fragment(&FragmentKey::default(), &input_map()).unwrap();
    let wgsl = String::from_utf8(t.write(Target::Wgsl).unwrap().to_bytes()).unwrap();
    for loc in 1..7 {
        assert!(wgsl.contains(&format!("@location({loc}) o{loc}")), "location {loc}:\n{wgsl}");
    }
    // o0 carries only the position, which the fragment stage reads from its builtin.
    assert!(!wgsl.contains("o0:"), "{wgsl}");
    assert_eq!(input_map().slots[pica::regs::layouts::OutputSemantic::Texcoord0W.raw() as usize], Some((2, 2)));
}

/// Lit keys (pica::smith::lit_state: every light count, configuration, LUT, selector, abs flag,
/// per-light flag, bump mode, shadow and Fresnel flag) translate to every back end (spirv-val
/// and glslangValidator check SPIR-V, GLSL and GLSL ES), and the median time of a translation to SPIR-V is printed beside that of
/// unlit keys (the per-key budget is 100 us on an unloaded machine; not asserted on a shared
/// one).
#[test]
fn random_lit_keys_translate_to_every_backend() {
    let n = testkit::count("PICA_FS_LIT_KEYS", if testkit::quick() { 100 } else { 400 });
    let mut backends = Backends::new("pica-fs-lit");
    let map = input_map();
    let mut counts = [0u32; 8];
    for seed in 0..n {
        let s = lit_state(&mut Unstructured::new(&bytes(seed ^ 0x11, 16384))).unwrap();
        let key = FragmentKey::from_state(&s);
        assert!(key.lighting.enabled, "seed {seed}: the last stage reads a lighting colour");
        counts[usize::from(key.lighting.count - 1)] += 1;
        backends.add(seed, &key, &map);
    }
    eprintln!(
        "{n} lit keys (light counts 1-8: {counts:?}); median translation to SPIR-V {:?} (unlit keys: {:?})",
        backends.median_time(),
        plain_median(n, &map)
    );
    assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
    backends.validate();
}

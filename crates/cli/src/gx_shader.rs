//! BRRES materials for the generic verbs: `translate FILE.brres --material NAME|--all --to T`,
//! `verify FILE.brres [--material NAME]`, and the key and shader hash `gx inspect` lists
//! (docs/gx-cli.md).

use std::path::Path;

use anyhow::{bail, Context};
use arbitrary::Unstructured;
use gx::brres::{self, Brres};
use gx::key::TevKey;
use gx::TevState;
use translate::{gx_tev, Target};

/// One material picked from a file, with its decoded state.
pub struct Picked {
    /// The model's name.
    pub model: String,
    /// The material's name.
    pub material: String,
    /// The TEV state of the material with its shader.
    pub state: TevState,
    /// The image of each texture map: the layer's texture from the same file, decoded, or a
    /// checkerboard where the file has no such texture (or no data for it).
    pub maps: [gx::sample::Image; gx::key::TEXMAPS],
}

/// An 8x8 checkerboard of 2x2-texel squares, for texture maps without a texture.
pub fn checkerboard() -> gx::sample::Image {
    let texels =
        (0..64).map(|i| if ((i % 8) / 2 + (i / 16)) % 2 == 0 { [230, 230, 230, 255] } else { [40, 40, 40, 255] });
    gx::sample::Image { width: 8, height: 8, texels: texels.collect() }
}

/// The texture maps of a material (see [`Picked::maps`]).
fn material_maps(
    file: &Path,
    b: &Brres,
    mat: &gx::brres::Material,
) -> anyhow::Result<[gx::sample::Image; gx::key::TEXMAPS]> {
    let mut maps: [gx::sample::Image; gx::key::TEXMAPS] = std::array::from_fn(|_| checkerboard());
    for l in &mat.layers {
        if let Some(slot) = maps.get_mut(l.texmap as usize) {
            if let Some(img) = b
                .decode_texture(&l.texture, l.palette.as_deref())
                .with_context(|| format!("{}: material {}: texture {}", file.display(), mat.name, l.texture))?
            {
                *slot = img;
            }
        }
    }
    Ok(maps)
}

/// Reads a BRRES file (errors name the file and the byte offset).
pub fn read(file: &Path, bytes: &[u8]) -> anyhow::Result<Brres> {
    brres::read(bytes).with_context(|| format!("{}", file.display()))
}

/// Every material of the file, in model and dictionary order.
pub fn all_materials(file: &Path, b: &Brres) -> anyhow::Result<Vec<Picked>> {
    let mut out = Vec::new();
    for m in &b.models {
        for mat in &m.materials {
            let shader = m.shaders.get(mat.shader).with_context(|| {
                format!(
                    "{}: model {}: material {}: shader index {} out of range",
                    file.display(),
                    m.name,
                    mat.name,
                    mat.shader
                )
            })?;
            let state = mat
                .state(shader)
                .with_context(|| format!("{}: model {}: material {}", file.display(), m.name, mat.name))?;
            let maps = material_maps(file, b, mat)?;
            out.push(Picked { model: m.name.clone(), material: mat.name.clone(), state, maps });
        }
    }
    Ok(out)
}

/// The materials `names` selects (each must exist), all with `all`, or the only one. No
/// names and several materials is an error listing them.
pub fn select(file: &Path, b: &Brres, names: &[String], all: bool) -> anyhow::Result<Vec<Picked>> {
    let every = all_materials(file, b)?;
    let list = || every.iter().map(|p| p.material.as_str()).collect::<Vec<_>>().join(", ");
    if every.is_empty() {
        bail!("{}: the file has no materials", file.display());
    }
    if all {
        return Ok(every);
    }
    if names.is_empty() {
        if every.len() == 1 {
            return Ok(every);
        }
        bail!(
            "{}: {} materials ({}): name one with --material NAME, or give --all",
            file.display(),
            every.len(),
            list()
        );
    }
    let mut picked = Vec::new();
    for n in names {
        let found: Vec<&Picked> = every.iter().filter(|p| &p.material == n).collect();
        if found.is_empty() {
            bail!("{}: no material {n:?} (the file has {})", file.display(), list());
        }
        for p in found {
            picked.push(Picked {
                model: p.model.clone(),
                material: p.material.clone(),
                state: p.state.clone(),
                maps: p.maps.clone(),
            });
        }
    }
    Ok(picked)
}

/// The translated output of one material.
pub fn translate_material(p: &Picked, to: Target) -> anyhow::Result<Vec<u8>> {
    let t = gx_tev::fragment(&TevKey::new(&p.state)).with_context(|| format!("material {}", p.material))?;
    Ok(t.write(to).with_context(|| format!("material {}", p.material))?.to_bytes())
}

/// FNV-1a 64 of the material's SPIR-V bytes: the shader's name in listings.
pub fn shader_hash(state: &TevState) -> anyhow::Result<u64> {
    let words = gx_tev::fragment(&TevKey::new(state))?.spirv()?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    Ok(gx::key::fnv1a(&bytes))
}

/// A file name for a material's output: the material name with characters other than letters,
/// digits, `-`, `_` and `.` replaced by `_`, prefixed by the model where the file has several.
pub fn file_stem(p: &Picked, several_models: bool) -> String {
    let clean = |s: &str| {
        s.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect::<String>()
    };
    if several_models {
        format!("{}.{}", clean(&p.model), clean(&p.material))
    } else {
        clean(&p.material)
    }
}

/// Deterministic bytes for seed `seed` (splitmix64), the source of random inputs.
pub fn random_bytes(seed: u64, n: usize) -> Vec<u8> {
    pica::smith::Rng::new(seed).bytes(n)
}

/// Verifies materials on the device: `pixels` random pixels each with the material's own
/// textures ([`Picked::maps`]), the fragment entry point in a render pass against the CPU
/// reference. Prints a line per material and returns (passed, failed) pixel counts.
pub fn verify(file: &Path, picked: &[Picked], pixels: usize, seed: u64) -> anyhow::Result<(usize, usize)> {
    let _runtime = gpu::private_runtime_dir().context("cannot create a runtime folder for the Vulkan driver")?;
    let gpu = gpu::Gpu::new()?;
    eprintln!("device: {}", gpu.adapter);
    let (mut passed, mut failed) = (0, 0);
    for (i, p) in picked.iter().enumerate() {
        let maps = &p.maps;
        let runner = gpu::tev::TevRunner::new(&gpu, maps)?;
        let data = random_bytes(seed.wrapping_add(i as u64), 64 * pixels.max(1));
        let mut u = Unstructured::new(&data);
        let inputs: Vec<gx::PixelInputs> =
            (0..pixels).map(|_| gx::smith::pixel(&mut u, p.state.num_stages()).unwrap_or_default()).collect();
        let c = gpu::tev::check_state(&runner, maps, &p.state, &inputs, gpu::tev::Path::Render)
            .with_context(|| format!("{}: material {}", file.display(), p.material))?;
        let key = TevKey::new(&p.state);
        println!(
            "{}: material {}: key {:016x}: {} passed, {} failed",
            file.display(),
            p.material,
            key.hash64(),
            c.passed,
            c.failed
        );
        if let Some((px, got, want)) = c.first {
            println!("{}: material {}: pixel {px}: device {got:?}, reference {want:?}", file.display(), p.material);
        }
        passed += c.passed;
        failed += c.failed;
    }
    Ok((passed, failed))
}

//! One draw made ready for its passes on the host: vertices loaded, the vertex shader run (its
//! compute form, on the device), triangles assembled into vertex records, the fragment module
//! translated, texture units decoded, and per-triangle pixel boxes for the reference's storage.

use pica::fixed::{FragmentKey, FragmentUniforms};
use pica::regs::layouts::TextureFormat;
use pica::state::{loader, Draw};
use translate::pica_fs::{self as fs, InputMap, TextureBinding, UniformBlock};

use super::shaders::RECORD_VEC4S;
use super::state::{PassState, Viewport};
use crate::pica_fs::{UnitImage, UnitTextures};
use crate::Gpu;

/// Reads `len` bytes at a physical address as a draw saw them.
pub type Memory<'a> = &'a dyn Fn(u32, usize) -> Option<Vec<u8>>;

fn reg(regs: &[u32], id: usize) -> u32 {
    regs.get(id).copied().unwrap_or(0)
}

/// Most triangles of one draw (3 records of 128 bytes each must fit in a storage binding).
pub const MAX_TRIANGLES: usize = 1 << 18;

/// A draw ready to render.
pub struct Prepared {
    /// RECORD_VEC4S vec4s per triangle vertex, three vertices per triangle.
    pub records: Vec<[f32; 4]>,
    pub triangles: usize,
    pub key: FragmentKey,
    pub inputs: InputMap,
    pub uniforms: FragmentUniforms,
    pub block: UniformBlock,
    pub textures: UnitTextures,
    pub fs_words: Vec<u32>,
    pub state: PassState,
    /// Per triangle: (min x, min y, width, height) in framebuffer pixels, covering every pixel
    /// the triangle can rasterise to.
    pub boxes: Vec<[u32; 4]>,
}

fn one_texel() -> UnitImage {
    UnitImage { width: 1, height: 1, layers: vec![vec![[0; 4]]] }
}

/// The image of a 2D texture unit from memory: Image rows are top first, a unit image's rows
/// start at t = 0, the bottom row.
fn unit_image(regs: &[u32], unit: usize, memory: Memory) -> Result<UnitImage, String> {
    const DIM: [usize; 3] = [0x082, 0x092, 0x09A];
    const ADDR: [usize; 3] = [0x085, 0x095, 0x09D];
    const TYPE: [usize; 3] = [0x08E, 0x096, 0x09E];
    let dim = reg(regs, DIM[unit]);
    let (width, height) = ((dim >> 16) & 0x7FF, dim & 0x7FF);
    let format = TextureFormat::from_raw(reg(regs, TYPE[unit]) & 0xF);
    let address = (reg(regs, ADDR[unit]) & 0x0FFF_FFFF) * 8;
    let size = pica::texture::byte_size(format, width, height).map_err(|e| format!("texture unit {unit}: {e}"))?;
    let bytes = memory(address, size).ok_or_else(|| {
        format!("texture unit {unit}: {size} bytes at physical address 0x{address:08x} are not in memory")
    })?;
    let image =
        pica::texture::decode(format, width, height, &bytes).map_err(|e| format!("texture unit {unit}: {e}"))?;
    let row = width as usize * 4;
    let texels = (0..height as usize)
        .rev()
        .flat_map(|y| image.pixels[y * row..(y + 1) * row].chunks(4).map(|c| [c[0], c[1], c[2], c[3]]))
        .collect();
    Ok(UnitImage { width, height, layers: vec![texels] })
}

/// The output slot (GPUREG_SH_OUTMAP_Oi index) and component of each position component.
fn position_slots(regs: &[u32]) -> [Option<(usize, usize)>; 4] {
    let total = (reg(regs, 0x04F) & 7) as usize;
    let mut at = [None; 4];
    for slot in 0..total {
        let word = reg(regs, 0x050 + slot);
        for c in 0..4 {
            let sem = ((word >> (8 * c)) & 0x1F) as usize;
            if sem < 4 {
                at[sem].get_or_insert((slot, c));
            }
        }
    }
    at
}

/// The pixel box of a triangle of clip positions: the whole target when a vertex is at or
/// behind w = 0 (the clipper may then reach anywhere), else the window box widened by a pixel.
fn pixel_box(v: &[[f32; 4]; 3], vp: &Viewport, size: (u32, u32)) -> [u32; 4] {
    if v.iter().any(|p| p[3].is_nan() || p[3] <= 0.0 || !p.iter().all(|c| c.is_finite())) {
        return [0, 0, size.0, size.1];
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f32::INFINITY, f32::INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY);
    for p in v {
        let x = (p[0] / p[3] + 1.0) * 0.5 * vp.width + vp.x;
        let y = (p[1] / p[3] + 1.0) * 0.5 * vp.height + vp.y;
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let clamp = |v: f32, hi: u32| (v.max(0.0) as u32).min(hi);
    let (ax, ay) = (clamp(x0.floor() - 1.0, size.0), clamp(y0.floor() - 1.0, size.1));
    let (bx, by) = (clamp(x1.ceil() + 2.0, size.0), clamp(y1.ceil() + 2.0, size.1));
    [ax, ay, bx - ax, by - ay]
}

/// Prepares `draw` for a target of `size`.
///
/// # Errors
/// A message saying what the draw needs that is missing or not supported.
pub fn prepare(gpu: &Gpu, draw: &Draw, memory: Memory, size: (u32, u32)) -> Result<Prepared, String> {
    let regs = &draw.regs[..];
    if reg(regs, 0x229) & 3 == 2 {
        return Err("the geometry shader stage is on (GPUREG_GEOSTAGE_CONFIG); not rendered yet".into());
    }
    let state = PassState::from_regs(regs, size)?;
    let vertices = loader::load(draw, memory).map_err(|e| e.to_string())?;
    // Vertex records go into one storage binding (wgpu's default limit: 128 MiB).
    if vertices.triangles.len() > MAX_TRIANGLES {
        return Err(format!("{} triangles, more than the {MAX_TRIANGLES} rendered per draw", vertices.triangles.len()));
    }

    // The vertex shader: its compute form over v0-v15 of every vertex gives o0-o15.
    let vs = &draw.memories.vs;
    let mut setup = translate::pica::Setup::new(vs.code.to_vec(), vs.opdescs.to_vec(), reg(regs, 0x2BA) & 0xFFFF);
    setup.input_mask = 0xFFFF;
    setup.output_mask = reg(regs, 0x2BD) as u16;
    let options = translate::pica::Options { compute_wrapper: true, ..Default::default() };
    let t = translate::pica::vertex(&setup, &options).map_err(|e| format!("vertex shader: {e}"))?;
    let words = t.spirv().map_err(|e| format!("vertex shader: {e}"))?;
    let mut block = translate::pica::UniformBlock::default();
    for (c, v) in block.c.iter_mut().zip(vs.float_uniforms.iter()) {
        *c = v.map(|x| x.to_f32());
    }
    for (i, v) in block.i.iter_mut().enumerate() {
        *v = reg(regs, 0x2B1 + i).to_le_bytes().map(u32::from);
    }
    block.b = reg(regs, 0x2B0) as u16;
    let input: Vec<u32> =
        vertices.inputs.iter().flat_map(|v| v.iter().flat_map(|c| c.map(|x| x.to_f32().to_bits()))).collect();
    let n = vertices.inputs.len();
    let out = if n == 0 {
        Vec::new()
    } else {
        gpu.run_compute(&words, translate::pica::COMPUTE_ENTRY, &block.to_bytes(), &input, n as u32, n * 64)
            .map_err(|e| format!("vertex shader: {e}"))?
    };

    // Output slot i holds the i-th o register of GPUREG_VSH_OUTMAP_MASK.
    let mask = reg(regs, 0x2BD);
    let slot_regs: Vec<usize> = (0..16).filter(|o| mask >> o & 1 != 0).collect();
    let o = |v: usize, r: usize| -> [f32; 4] {
        let at = (v * 16 + r) * 4;
        std::array::from_fn(|c| f32::from_bits(out[at + c]))
    };
    let slot = |v: usize, s: usize| slot_regs.get(s).map_or([0.0; 4], |&r| o(v, r));
    let pos_at = position_slots(regs);
    let position = |v: usize| -> [f32; 4] { std::array::from_fn(|c| pos_at[c].map_or(0.0, |(s, k)| slot(v, s)[k])) };
    let mut records = Vec::with_capacity(vertices.triangles.len() * 3 * RECORD_VEC4S);
    let mut boxes = Vec::with_capacity(vertices.triangles.len());
    for tri in &vertices.triangles {
        let p = tri.map(|v| position(v as usize));
        boxes.push(pixel_box(&p, &state.viewport, size));
        for (k, &v) in tri.iter().enumerate() {
            records.push(p[k]);
            for s in 0..7 {
                records.push(slot(v as usize, s));
            }
        }
    }

    let key = FragmentKey::from_draw(draw);
    let inputs = InputMap::from_regs(regs);
    let t = fs::fragment(&key, &inputs).map_err(|e| format!("fragment shader: {e}"))?;
    let fs_words = t.spirv().map_err(|e| format!("fragment shader: {e}"))?;
    let mut d2 = [one_texel(), one_texel(), one_texel()];
    for (unit, binding) in t.textures().iter().enumerate() {
        match binding {
            Some(TextureBinding::Cube) => {
                return Err("texture unit 0 is a cube map; cube maps are not rendered yet".into());
            }
            Some(_) => d2[unit] = unit_image(regs, unit, memory)?,
            None => {}
        }
    }
    let textures = UnitTextures { d2, cube: UnitImage { width: 1, height: 1, layers: vec![vec![[0; 4]]; 6] } };
    let uniforms = FragmentUniforms::from_draw(draw);
    let block = UniformBlock::from_uniforms(&uniforms);
    Ok(Prepared {
        records,
        triangles: vertices.triangles.len(),
        key,
        inputs,
        uniforms,
        block,
        textures,
        fs_words,
        state,
        boxes,
    })
}

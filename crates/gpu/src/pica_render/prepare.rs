//! One draw made ready for its passes on the host: vertices loaded, the vertex shader run (its
//! compute form, on the device), triangles assembled (or emitted by the geometry shader) into
//! vertex records, the fragment module
//! translated, texture units decoded, and per-triangle pixel boxes for the reference's storage.

use pica::fixed::{FragmentKey, FragmentUniforms};
use pica::regs::layouts::TextureFormat;
use pica::state::{loader, Draw};
use translate::pica_fs::{self as fs, InputMap, TextureBinding, UniformBlock};

use super::geometry::{self, OutputRegs};
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
    /// Unit 0 is bound as the six-layer cube array (docs/abi.md "Textures").
    pub cube: bool,
    pub fs_words: Vec<u32>,
    pub state: PassState,
    /// Per triangle: (min x, min y, width, height) in framebuffer pixels, covering every pixel
    /// the triangle can rasterise to.
    pub boxes: Vec<[u32; 4]>,
}

fn one_texel() -> UnitImage {
    UnitImage { width: 1, height: 1, layers: vec![vec![[0; 4]]] }
}

/// The image at `address` of texture unit `unit`'s size and format (GPUREG_TEXUNITi_DIM,
/// _TYPE): Image rows are top first, a unit image's rows start at t = 0, the bottom row.
fn unit_image(regs: &[u32], unit: usize, address: u32, what: &str, memory: Memory) -> Result<UnitImage, String> {
    const DIM: [usize; 3] = [0x082, 0x092, 0x09A];
    const TYPE: [usize; 3] = [0x08E, 0x096, 0x09E];
    let dim = reg(regs, DIM[unit]);
    let (width, height) = ((dim >> 16) & 0x7FF, dim & 0x7FF);
    let format = TextureFormat::from_raw(reg(regs, TYPE[unit]) & 0xF);
    let size = pica::texture::byte_size(format, width, height).map_err(|e| format!("{what}: {e}"))?;
    let bytes = memory(address, size)
        .ok_or_else(|| format!("{what}: {size} bytes at physical address 0x{address:08x} are not in memory"))?;
    let image = pica::texture::decode(format, width, height, &bytes).map_err(|e| format!("{what}: {e}"))?;
    let row = width as usize * 4;
    let texels = (0..height as usize)
        .rev()
        .flat_map(|y| image.pixels[y * row..(y + 1) * row].chunks(4).map(|c| [c[0], c[1], c[2], c[3]]))
        .collect();
    Ok(UnitImage { width, height, layers: vec![texels] })
}

/// The 2D image of texture unit `unit` (GPUREG_TEXUNITi_ADDR1).
fn plane_image(regs: &[u32], unit: usize, memory: Memory) -> Result<UnitImage, String> {
    const ADDR: [usize; 3] = [0x085, 0x095, 0x09D];
    let address = (reg(regs, ADDR[unit]) & 0x0FFF_FFFF) * 8;
    unit_image(regs, unit, address, &format!("texture unit {unit}"), memory)
}

/// The six faces of texture unit 0 as a cube, in `pica::fixed::CubeFace` order (+X, -X, +Y,
/// -Y, +Z, -Z): GPUREG_TEXUNIT0_ADDR1-ADDR6, the faces after the first taking address bits
/// 22-27 (of the address >> 3) from ADDR1 (register page, GPUREG_TEXUNITi_ADDRi; the
/// fragment facts §6.2).
fn cube_image(regs: &[u32], memory: Memory) -> Result<UnitImage, String> {
    const FACES: [&str; 6] = ["+X", "-X", "+Y", "-Y", "+Z", "-Z"];
    let first = reg(regs, 0x085) & 0x0FFF_FFFF;
    let mut cube = UnitImage { width: 0, height: 0, layers: Vec::with_capacity(6) };
    for (f, name) in FACES.iter().enumerate() {
        let word = if f == 0 { first } else { (first & 0x0FC0_0000) | (reg(regs, 0x085 + f) & 0x003F_FFFF) };
        let what = format!("texture unit 0, cube face {name} (GPUREG_TEXUNIT0_ADDR{})", f + 1);
        let face = unit_image(regs, 0, word * 8, &what, memory)?;
        cube.width = face.width;
        cube.height = face.height;
        cube.layers.extend(face.layers);
    }
    if cube.width != cube.height {
        return Err(format!("texture unit 0 is a {}x{} cube map; cube faces are square", cube.width, cube.height));
    }
    Ok(cube)
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

/// The vertex shader (its compute form over v0-v15 of every vertex): o0-o15 per vertex.
fn vertex_stage(gpu: &Gpu, draw: &Draw, inputs: &[loader::InputRegs]) -> Result<Vec<OutputRegs>, String> {
    let regs = &draw.regs[..];
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
    let input: Vec<u32> = inputs.iter().flat_map(|v| v.iter().flat_map(|c| c.map(|x| x.to_f32().to_bits()))).collect();
    let n = inputs.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let out = gpu
        .run_compute(&words, translate::pica::COMPUTE_ENTRY, &block.to_bytes(), &input, n as u32, n * 64)
        .map_err(|e| format!("vertex shader: {e}"))?;
    Ok(out
        .chunks_exact(64)
        .map(|v| std::array::from_fn(|r| std::array::from_fn(|c| f32::from_bits(v[r * 4 + c]))))
        .collect())
}

/// Prepares `draw` for a target of `size`.
///
/// # Errors
/// A message saying what the draw needs that is missing or not supported.
pub fn prepare(gpu: &Gpu, draw: &Draw, memory: Memory, size: (u32, u32)) -> Result<Prepared, String> {
    let regs = &draw.regs[..];
    let state = PassState::from_regs(regs, size)?;
    let vertices = loader::load(draw, memory).map_err(|e| e.to_string())?;
    let vs = vertex_stage(gpu, draw, &vertices.inputs)?;

    // The vertices the rasteriser gets (o0-o15 each), their triangles, and the output mask
    // whose i-th register is output slot i: the vertex shader's outputs and the assembled
    // triangles, or with the geometry stage on the geometry shader's emitted triangles
    // (GPUREG_GSH_OUTMAP_MASK; the GPUREG_SH_OUTMAP_* slot registers are shared).
    let (outputs, triangles, mask) = if reg(regs, 0x229) & 3 == 2 {
        let emitted = geometry::run(gpu, regs, &draw.memories.gs, &vs)?;
        let triangles = (0..emitted.len() as u32 / 3).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
        (emitted, triangles, reg(regs, 0x28D))
    } else {
        (vs, vertices.triangles, reg(regs, 0x2BD))
    };
    // Vertex records go into one storage binding (wgpu's default limit: 128 MiB).
    if triangles.len() > MAX_TRIANGLES {
        return Err(format!("{} triangles, more than the {MAX_TRIANGLES} rendered per draw", triangles.len()));
    }
    let slot_regs: Vec<usize> = (0..16).filter(|o| mask >> o & 1 != 0).collect();
    let slot = |v: usize, s: usize| slot_regs.get(s).map_or([0.0; 4], |&r| outputs[v][r]);
    let pos_at = position_slots(regs);
    let position = |v: usize| -> [f32; 4] { std::array::from_fn(|c| pos_at[c].map_or(0.0, |(s, k)| slot(v, s)[k])) };
    let mut records = Vec::with_capacity(triangles.len() * 3 * RECORD_VEC4S);
    let mut boxes = Vec::with_capacity(triangles.len());
    for tri in &triangles {
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
    let mut cube = UnitImage { width: 1, height: 1, layers: vec![vec![[0; 4]]; 6] };
    for (unit, binding) in t.textures().iter().enumerate() {
        match binding {
            Some(TextureBinding::Cube) => cube = cube_image(regs, memory)?,
            Some(_) => d2[unit] = plane_image(regs, unit, memory)?,
            None => {}
        }
    }
    let is_cube = t.textures()[0] == Some(TextureBinding::Cube);
    let textures = UnitTextures { d2, cube };
    let uniforms = FragmentUniforms::from_draw(draw);
    let block = UniformBlock::from_uniforms(&uniforms);
    Ok(Prepared {
        records,
        triangles: triangles.len(),
        key,
        inputs,
        uniforms,
        block,
        textures,
        cube: is_cube,
        fs_words,
        state,
        boxes,
    })
}

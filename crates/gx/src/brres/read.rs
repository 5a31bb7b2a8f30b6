//! The BRRES reader: positioned errors, capped counts, never a panic.

use std::collections::HashMap;

use super::dict::{self, MAX_NAME};
use super::{
    Brres, Group, Layer, Material, Model, PaletteData, Shader, Texture, MATERIAL_DL_SIZE, MAX_LAYERS, SHADER_DL_SIZE,
};
use crate::dl;
use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;

/// Most dictionary entries read from one file, all dictionaries together: a hostile file cannot
/// make the reader copy the same model or material more than this many times.
pub const MAX_TOTAL_ENTRIES: usize = 1 << 16;

/// Counts entries across the whole file against [`MAX_TOTAL_ENTRIES`].
struct Budget(std::cell::Cell<usize>);

impl Budget {
    fn take(&self, entries: &[dict::Entry]) -> Result<()> {
        let total = self.0.get() + entries.len();
        if total > MAX_TOTAL_ENTRIES {
            let at = entries.first().map_or(0, |e| e.at) as u64;
            return Err(Error::new(
                at,
                ErrorKind::TooMany {
                    what: "dictionary entries in the file",
                    count: total as u64,
                    limit: MAX_TOTAL_ENTRIES as u64,
                },
            ));
        }
        self.0.set(total);
        Ok(())
    }
}

fn magic(r: &Reader, at: usize, expected: &'static str, what: &'static str) -> Result<()> {
    let b = r.bytes(at, 4, what)?;
    if b != expected.as_bytes() {
        return Err(Error::new(
            at as u64,
            ErrorKind::BadMagic { what, expected, found: String::from_utf8_lossy(b).into_owned() },
        ));
    }
    Ok(())
}

/// Parses a BRRES file.
///
/// # Errors
/// Any structural problem, with the absolute byte offset where it was found.
pub fn read(data: &[u8]) -> Result<Brres> {
    let r = Reader::new(data);
    magic(&r, 0, "bres", "BRRES header")?;
    let bom = r.u16(4, "byte-order mark")?;
    if bom != 0xFEFF {
        return Err(Error::new(
            4,
            ErrorKind::Invalid(format!(
                "byte-order mark {bom:#06x}: only big-endian (0xfeff) BRRES files are supported"
            )),
        ));
    }
    let file_len = r.u32(8, "file length")? as u64;
    if file_len > data.len() as u64 {
        return Err(Error::new(
            8,
            ErrorKind::Truncated { what: "BRRES file (length in header)", need: file_len, have: data.len() as u64 },
        ));
    }
    let root_rel = r.u16(0x0C, "root offset")?;
    let root = r.target(0x0C, 0, root_rel as i64, "root section")?;
    magic(&r, root, "root", "root section")?;
    let mut out = Brres::default();
    let budget = Budget(std::cell::Cell::new(0));
    for group in dict::read(&r, root + 8)? {
        let entries = dict::read(&r, group.data)?;
        budget.take(&entries)?;
        match group.name.as_str() {
            "3DModels(NW4R)" => {
                for e in entries {
                    out.models.push(read_mdl0(&r, e.data, &e.name, &budget)?);
                }
            }
            "Textures(NW4R)" => {
                for e in entries {
                    out.textures.push(read_tex0(&r, e.data, &e.name)?);
                }
            }
            "Palettes(NW4R)" => {
                for e in entries {
                    out.palettes.push(read_plt0(&r, e.data, &e.name)?);
                }
            }
            _ => out
                .other_groups
                .push(Group { name: group.name, entries: entries.into_iter().map(|e| e.name).collect() }),
        }
    }
    Ok(out)
}

fn read_tex0(r: &Reader, at: usize, dict_name: &str) -> Result<Texture> {
    magic(r, at, "TEX0", "TEX0 header")?;
    let name_rel = r.u32(at + 0x14, "TEX0 name offset")?;
    let name = if name_rel == 0 {
        dict_name.to_string()
    } else {
        r.cstr(r.target(at + 0x14, at, name_rel as i64, "TEX0 name")?, MAX_NAME, "TEX0 name")?
    };
    let (width, height) = (r.u16(at + 0x1C, "TEX0 width")?, r.u16(at + 0x1E, "TEX0 height")?);
    let format = r.u32(at + 0x20, "TEX0 format")?;
    // Level 0 when the section holds it (its size field covers the data).
    let size = r.u32(at + 4, "TEX0 size")? as usize;
    let data_rel = r.u32(at + 0x10, "TEX0 data offset")? as usize;
    let data = match crate::texture::Format::from_code(format) {
        Some(f) if width > 0 && height > 0 && width <= 1024 && height <= 1024 => {
            let need = f.size(width as u32, height as u32);
            if data_rel.checked_add(need).is_some_and(|end| end <= size) {
                let start = r.target(at + 0x10, at, data_rel as i64, "TEX0 data")?;
                r.bytes(start, need, "TEX0 image data")?.to_vec()
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    };
    Ok(Texture { name, width, height, format, mip_count: r.u32(at + 0x24, "TEX0 image count")?, data })
}

fn read_plt0(r: &Reader, at: usize, dict_name: &str) -> Result<PaletteData> {
    magic(r, at, "PLT0", "PLT0 header")?;
    let name_rel = r.u32(at + 0x14, "PLT0 name offset")?;
    let name = if name_rel == 0 {
        dict_name.to_string()
    } else {
        r.cstr(r.target(at + 0x14, at, name_rel as i64, "PLT0 name")?, MAX_NAME, "PLT0 name")?
    };
    let format = r.u32(at + 0x18, "PLT0 format")?;
    let count = r.u16(at + 0x1C, "PLT0 entry count")? as usize;
    let data_rel = r.u32(at + 0x10, "PLT0 data offset")?;
    let start = r.target(at + 0x10, at, data_rel as i64, "PLT0 data")?;
    let bytes = r.bytes(start, 2 * count, "PLT0 entries")?;
    let entries = bytes.chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
    Ok(PaletteData { name, format, entries })
}

/// Section layout per MDL0 version: (section count, materials index, shaders index, name field).
/// Version 11 follows noclip's reader; 8-10 follow BrawlCrate's header structs.
fn mdl0_layout(version: u32) -> Option<(usize, usize, usize, usize)> {
    match version {
        8 => Some((11, 6, 7, 0x3C)),
        9 => Some((11, 6, 7, 0x40)),
        10 => Some((13, 8, 9, 0x44)),
        11 => Some((13, 8, 9, 0x48)),
        _ => None,
    }
}

fn section_dict(r: &Reader, mdl0: usize, index: usize, budget: &Budget) -> Result<Vec<dict::Entry>> {
    let field = mdl0 + 0x10 + 4 * index;
    let rel = r.i32(field, "MDL0 section offset")?;
    if rel == 0 {
        return Ok(Vec::new());
    }
    let entries = dict::read(r, r.target(field, mdl0, rel as i64, "MDL0 section")?)?;
    budget.take(&entries)?;
    Ok(entries)
}

fn read_mdl0(r: &Reader, at: usize, dict_name: &str, budget: &Budget) -> Result<Model> {
    magic(r, at, "MDL0", "MDL0 header")?;
    let size = r.u32(at + 4, "MDL0 size")? as usize;
    r.bytes(at, size, "MDL0 (size in header)")?;
    let version = r.u32(at + 8, "MDL0 version")?;
    let (_, mat_idx, shd_idx, name_field) = mdl0_layout(version).ok_or_else(|| {
        Error::new(at as u64 + 8, ErrorKind::Invalid(format!("MDL0 version {version} is not supported (8 to 11 are)")))
    })?;
    let name_rel = r.i32(at + name_field, "MDL0 name offset")?;
    let name = if name_rel == 0 {
        dict_name.to_string()
    } else {
        r.cstr(r.target(at + name_field, at, name_rel as i64, "MDL0 name")?, MAX_NAME, "MDL0 name")?
    };
    let mut shaders = Vec::new();
    let mut by_offset = HashMap::new();
    for e in section_dict(r, at, shd_idx, budget)? {
        by_offset.insert(e.data, shaders.len());
        shaders.push(read_shader(r, e.data, e.name)?);
    }
    let mut materials = Vec::new();
    for e in section_dict(r, at, mat_idx, budget)? {
        materials.push(read_material(r, e.data, version, &by_offset)?);
    }
    Ok(Model { name, version, materials, shaders })
}

fn read_shader(r: &Reader, at: usize, name: String) -> Result<Shader> {
    let num_stages = r.u8(at + 0x0C, "shader stage count")?;
    if num_stages > 16 {
        return Err(Error::new(
            at as u64 + 0x0C,
            ErrorKind::TooMany { what: "TEV stage", count: num_stages as u64, limit: 16 },
        ));
    }
    let mut tex_refs = [0u8; 8];
    tex_refs.copy_from_slice(r.bytes(at + 0x10, 8, "shader texture references")?);
    let dl_at = at + 0x20;
    let display_list = r.bytes(dl_at, SHADER_DL_SIZE, "shader display list")?.to_vec();
    dl::decode(&display_list, dl_at as u64)?;
    Ok(Shader { name, index: r.u32(at + 8, "shader index")?, num_stages, tex_refs, display_list })
}

fn read_material(r: &Reader, at: usize, version: u32, shaders: &HashMap<usize, usize>) -> Result<Material> {
    let name_rel = r.i32(at + 8, "material name offset")?;
    let name = r.cstr(r.target(at + 8, at, name_rel as i64, "material name")?, MAX_NAME, "material name")?;
    let counts = r.bytes(at + 0x14, 4, "material counts")?;
    let limits = [(8u8, "texgen"), (2, "colour channel"), (16, "TEV stage"), (4, "indirect stage")];
    for (i, (&n, (limit, what))) in counts.iter().zip(limits).enumerate() {
        if n > limit {
            return Err(Error::new(
                (at + 0x14 + i) as u64,
                ErrorKind::TooMany { what, count: n as u64, limit: limit as u64 },
            ));
        }
    }
    let shader_rel = r.i32(at + 0x28, "material shader offset")?;
    let shader_at = at as i64 + shader_rel as i64;
    let shader = usize::try_from(shader_at).ok().and_then(|s| shaders.get(&s).copied()).ok_or_else(|| {
        Error::new(
            at as u64 + 0x28,
            ErrorKind::Invalid(format!(
                "material {name:?}: shader offset {shader_at:#x} is not a shader of this model"
            )),
        )
    })?;
    let num_layers = r.u32(at + 0x2C, "material layer count")?;
    if num_layers > MAX_LAYERS {
        return Err(Error::new(
            at as u64 + 0x2C,
            ErrorKind::TooMany { what: "texture layer", count: num_layers as u64, limit: MAX_LAYERS as u64 },
        ));
    }
    let mut layers = Vec::with_capacity(num_layers as usize);
    if num_layers > 0 {
        let layers_rel = r.i32(at + 0x30, "material layer offset")?;
        let base = r.target(at + 0x30, at, layers_rel as i64, "material layers")?;
        for i in 0..num_layers as usize {
            layers.push(read_layer(r, base + 0x34 * i)?);
        }
    }
    let dl_field = if version >= 10 { 0x3C } else { 0x38 };
    let dl_rel = r.i32(at + dl_field, "material display list offset")?;
    let dl_at = r.target(at + dl_field, at, dl_rel as i64, "material display list")?;
    let display_list = r.bytes(dl_at, MATERIAL_DL_SIZE, "material display list")?.to_vec();
    dl::decode(&display_list, dl_at as u64)?;
    Ok(Material {
        name,
        index: r.u32(at + 0x0C, "material index")?,
        flags: r.u32(at + 0x10, "material flags")?,
        num_texgens: counts[0],
        num_chans: counts[1],
        num_tev_stages: counts[2],
        num_ind_stages: counts[3],
        cull_mode: r.u32(at + 0x18, "material cull mode")?,
        shader,
        layers,
        display_list,
    })
}

fn read_layer(r: &Reader, at: usize) -> Result<Layer> {
    r.bytes(at, 0x34, "texture layer")?;
    let name_rel = r.i32(at, "layer texture name offset")?;
    let texture = r.cstr(r.target(at, at, name_rel as i64, "layer texture name")?, MAX_NAME, "layer texture name")?;
    let pal_rel = r.i32(at + 4, "layer palette name offset")?;
    let palette = if pal_rel == 0 {
        None
    } else {
        Some(r.cstr(r.target(at + 4, at, pal_rel as i64, "layer palette name")?, MAX_NAME, "layer palette name")?)
    };
    Ok(Layer {
        texture,
        palette,
        texmap: r.u32(at + 0x10, "layer")?,
        tlut: r.u32(at + 0x14, "layer")?,
        wrap_s: r.u32(at + 0x18, "layer")?,
        wrap_t: r.u32(at + 0x1C, "layer")?,
        min_filter: r.u32(at + 0x20, "layer")?,
        mag_filter: r.u32(at + 0x24, "layer")?,
        lod_bias: f32::from_bits(r.u32(at + 0x28, "layer")?),
        max_aniso: r.u32(at + 0x2C, "layer")?,
        bias_clamp: r.u8(at + 0x30, "layer")? != 0,
        edge_lod: r.u8(at + 0x31, "layer")? != 0,
    })
}

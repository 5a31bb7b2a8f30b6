//! A BRRES writer for tests and tools: writes models (MDL0 version 11, materials and shaders
//! only) and texture headers in the layout the reader expects, with real search trees in the
//! dictionaries and a string table at the end.

use super::dict;
use super::{Brres, Material, Model, PaletteData, Shader, Texture, MATERIAL_DL_SIZE, MAX_LAYERS, SHADER_DL_SIZE};
use crate::error::{Error, ErrorKind, Result};

/// Offset of the texture layers in a material block (after the texture matrix and channel areas,
/// which the writer leaves zero).
const MATERIAL_LAYERS_AT: usize = 0x418;
/// Size of a shader block.
const SHADER_SIZE: usize = 0x20 + SHADER_DL_SIZE;

struct Out {
    buf: Vec<u8>,
    /// (field position, base position, string): field = offset of the string's text - base.
    strings: Vec<(usize, usize, String)>,
}

impl Out {
    fn pos(&self) -> usize {
        self.buf.len()
    }
    fn zeros(&mut self, n: usize) -> usize {
        let at = self.buf.len();
        self.buf.resize(at + n, 0);
        at
    }
    fn align(&mut self, a: usize) {
        while !self.buf.len().is_multiple_of(a) {
            self.buf.push(0);
        }
    }
    fn put_u8(&mut self, at: usize, v: u8) {
        self.buf[at] = v;
    }
    fn put_u16(&mut self, at: usize, v: u16) {
        self.buf[at..at + 2].copy_from_slice(&v.to_be_bytes());
    }
    fn put_u32(&mut self, at: usize, v: u32) {
        self.buf[at..at + 4].copy_from_slice(&v.to_be_bytes());
    }
    fn put_rel(&mut self, at: usize, base: usize, target: usize) {
        self.put_u32(at, (target as i64 - base as i64) as i32 as u32);
    }
    fn put_name(&mut self, at: usize, base: usize, name: &str) {
        self.strings.push((at, base, name.to_string()));
    }

    /// Reserves a dictionary of `n` entries; returns its position.
    fn dict(&mut self, n: usize) -> usize {
        let at = self.zeros(8 + 16 * (n + 1));
        self.put_u32(at, (8 + 16 * (n + 1)) as u32);
        self.put_u32(at + 4, n as u32);
        at
    }

    /// Fills the dictionary at `at` with names, data positions and the search tree.
    fn fill_dict(&mut self, at: usize, names: &[&str], data: &[usize]) -> Result<()> {
        let nodes = dict::build_tree(names)?;
        for (i, node) in nodes.iter().enumerate() {
            let e = at + 8 + 16 * i;
            self.put_u16(e, node.id);
            self.put_u16(e + 4, node.left);
            self.put_u16(e + 6, node.right);
            if i > 0 {
                self.put_name(e + 8, at, names[i - 1]);
                self.put_rel(e + 12, at, data[i - 1]);
            }
        }
        Ok(())
    }
}

/// Writes `brres` (its models and textures; `other_groups` are not written).
///
/// # Errors
/// Display lists longer than their fixed blocks, more than [`MAX_LAYERS`] layers, duplicate
/// names in one dictionary, or a material whose shader index is out of range.
pub fn write(brres: &Brres) -> Result<Vec<u8>> {
    let mut o = Out { buf: Vec::new(), strings: Vec::new() };
    o.zeros(0x10);
    o.buf[0..4].copy_from_slice(b"bres");
    o.put_u16(4, 0xFEFF);
    o.put_u16(0x0C, 0x10);
    o.put_u16(0x0E, (1 + brres.models.len() + brres.textures.len() + brres.palettes.len()).min(0xFFFF) as u16);
    // Root section and its dictionaries.
    let root = o.zeros(8);
    o.buf[root..root + 4].copy_from_slice(b"root");
    let mut groups: Vec<&str> = Vec::new();
    if !brres.models.is_empty() {
        groups.push("3DModels(NW4R)");
    }
    if !brres.textures.is_empty() {
        groups.push("Textures(NW4R)");
    }
    if !brres.palettes.is_empty() {
        groups.push("Palettes(NW4R)");
    }
    let root_dict = o.dict(groups.len());
    let models_dict = (!brres.models.is_empty()).then(|| o.dict(brres.models.len()));
    let textures_dict = (!brres.textures.is_empty()).then(|| o.dict(brres.textures.len()));
    let palettes_dict = (!brres.palettes.is_empty()).then(|| o.dict(brres.palettes.len()));
    let root_size = o.pos() - root;
    o.put_u32(root + 4, root_size as u32);
    let group_data: Vec<usize> = models_dict.into_iter().chain(textures_dict).chain(palettes_dict).collect();
    o.fill_dict(root_dict, &groups, &group_data)?;

    let mut model_at = Vec::new();
    for m in &brres.models {
        o.align(0x20);
        model_at.push(write_mdl0(&mut o, m)?);
    }
    if let Some(d) = models_dict {
        let names: Vec<&str> = brres.models.iter().map(|m| m.name.as_str()).collect();
        o.fill_dict(d, &names, &model_at)?;
    }
    let mut tex_at = Vec::new();
    for t in &brres.textures {
        o.align(0x20);
        tex_at.push(write_tex0(&mut o, t));
    }
    if let Some(d) = textures_dict {
        let names: Vec<&str> = brres.textures.iter().map(|t| t.name.as_str()).collect();
        o.fill_dict(d, &names, &tex_at)?;
    }
    let mut plt_at = Vec::new();
    for p in &brres.palettes {
        o.align(0x20);
        plt_at.push(write_plt0(&mut o, p));
    }
    if let Some(d) = palettes_dict {
        let names: Vec<&str> = brres.palettes.iter().map(|p| p.name.as_str()).collect();
        o.fill_dict(d, &names, &plt_at)?;
    }
    write_strings(&mut o);
    let len = o.pos() as u32;
    o.put_u32(8, len);
    Ok(o.buf)
}

/// The string table: each name once, as u32 length, text, NUL, padded to 4 bytes.
fn write_strings(o: &mut Out) {
    o.align(4);
    let mut placed: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let fixups = std::mem::take(&mut o.strings);
    for (field, base, s) in fixups {
        let text = match placed.get(&s) {
            Some(&p) => p,
            None => {
                let at = o.zeros(4);
                o.put_u32(at, s.len() as u32);
                let text = o.pos();
                o.buf.extend_from_slice(s.as_bytes());
                o.buf.push(0);
                o.align(4);
                placed.insert(s, text);
                text
            }
        };
        o.put_rel(field, base, text);
    }
}

/// A PLT0 section: a 0x40-byte header, then the entries.
fn write_plt0(o: &mut Out, p: &PaletteData) -> usize {
    let at = o.zeros(0x40);
    o.buf[at..at + 4].copy_from_slice(b"PLT0");
    o.put_u32(at + 4, (0x40 + 2 * p.entries.len()) as u32);
    o.put_u32(at + 8, 3);
    o.put_rel(at + 0x0C, at, 0);
    o.put_u32(at + 0x10, 0x40);
    o.put_name(at + 0x14, at, &p.name);
    o.put_u32(at + 0x18, p.format);
    o.put_u16(at + 0x1C, p.entries.len().min(0xFFFF) as u16);
    for e in &p.entries {
        o.buf.extend_from_slice(&e.to_be_bytes());
    }
    at
}

/// A TEX0 section: a 0x40-byte header, then level 0's data when the texture has it.
fn write_tex0(o: &mut Out, t: &Texture) -> usize {
    let at = o.zeros(0x40);
    o.buf[at..at + 4].copy_from_slice(b"TEX0");
    o.put_u32(at + 4, (0x40 + t.data.len()) as u32);
    o.put_u32(at + 8, 3);
    o.put_rel(at + 0x0C, at, 0);
    o.put_u32(at + 0x10, 0x40);
    o.put_name(at + 0x14, at, &t.name);
    o.put_u16(at + 0x1C, t.width);
    o.put_u16(at + 0x1E, t.height);
    o.put_u32(at + 0x20, t.format);
    o.put_u32(at + 0x24, t.mip_count);
    o.buf.extend_from_slice(&t.data);
    at
}

fn write_mdl0(o: &mut Out, m: &Model) -> Result<usize> {
    let at = o.zeros(0x4C + 0x40);
    o.buf[at..at + 4].copy_from_slice(b"MDL0");
    o.put_u32(at + 8, 11);
    o.put_rel(at + 0x0C, at, 0);
    o.put_name(at + 0x48, at, &m.name);
    // Model info block.
    o.put_u32(at + 0x4C, 0x40);
    o.put_rel(at + 0x50, at + 0x4C, at);
    let mat_dict = (!m.materials.is_empty()).then(|| o.dict(m.materials.len()));
    let shd_dict = (!m.shaders.is_empty()).then(|| o.dict(m.shaders.len()));
    if let Some(d) = mat_dict {
        o.put_rel(at + 0x10 + 4 * 8, at, d);
    }
    if let Some(d) = shd_dict {
        o.put_rel(at + 0x10 + 4 * 9, at, d);
    }
    // Materials first and shaders after them, as in real files (so shader offsets are positive);
    // the shader offsets of the materials are patched once the shaders are placed.
    let mut material_at = Vec::new();
    for mat in &m.materials {
        if mat.shader >= m.shaders.len() {
            return Err(Error::new(
                0,
                ErrorKind::Invalid(format!("material {:?}: shader index {} out of range", mat.name, mat.shader)),
            ));
        }
        o.align(0x20);
        material_at.push(write_material(o, at, mat)?);
    }
    let mut shader_at = Vec::new();
    for s in &m.shaders {
        o.align(0x20);
        shader_at.push(write_shader(o, at, s)?);
    }
    for (mat, &ma) in m.materials.iter().zip(&material_at) {
        o.put_rel(ma + 0x28, ma, shader_at[mat.shader]);
    }
    if let Some(d) = mat_dict {
        let names: Vec<&str> = m.materials.iter().map(|x| x.name.as_str()).collect();
        o.fill_dict(d, &names, &material_at)?;
    }
    if let Some(d) = shd_dict {
        let names: Vec<&str> = m.shaders.iter().map(|x| x.name.as_str()).collect();
        o.fill_dict(d, &names, &shader_at)?;
    }
    let size = o.pos() - at;
    o.put_u32(at + 4, size as u32);
    Ok(at)
}

fn fixed_list(what: &str, name: &str, list: &[u8], size: usize) -> Result<Vec<u8>> {
    if list.len() > size {
        return Err(Error::new(
            0,
            ErrorKind::Invalid(format!(
                "{what} {name:?}: display list of {} bytes exceeds its {size}-byte block",
                list.len()
            )),
        ));
    }
    let mut v = list.to_vec();
    v.resize(size, 0);
    Ok(v)
}

fn write_shader(o: &mut Out, mdl0: usize, s: &Shader) -> Result<usize> {
    let list = fixed_list("shader", &s.name, &s.display_list, SHADER_DL_SIZE)?;
    let at = o.zeros(SHADER_SIZE);
    o.put_u32(at, SHADER_SIZE as u32);
    o.put_rel(at + 4, at, mdl0);
    o.put_u32(at + 8, s.index);
    o.put_u8(at + 0x0C, s.num_stages);
    o.buf[at + 0x10..at + 0x18].copy_from_slice(&s.tex_refs);
    o.buf[at + 0x20..at + SHADER_SIZE].copy_from_slice(&list);
    Ok(at)
}

/// Writes a material block; its shader offset (0x28) is filled in by the caller.
fn write_material(o: &mut Out, mdl0: usize, m: &Material) -> Result<usize> {
    if m.layers.len() > MAX_LAYERS as usize {
        return Err(Error::new(
            0,
            ErrorKind::Invalid(format!("material {:?}: {} layers (at most {MAX_LAYERS})", m.name, m.layers.len())),
        ));
    }
    let list = fixed_list("material", &m.name, &m.display_list, MATERIAL_DL_SIZE)?;
    let at = o.zeros(MATERIAL_LAYERS_AT + 0x34 * m.layers.len());
    o.put_rel(at + 4, at, mdl0);
    o.put_name(at + 8, at, &m.name);
    o.put_u32(at + 0x0C, m.index);
    o.put_u32(at + 0x10, m.flags);
    o.buf[at + 0x14..at + 0x18].copy_from_slice(&[m.num_texgens, m.num_chans, m.num_tev_stages, m.num_ind_stages]);
    o.put_u32(at + 0x18, m.cull_mode);
    o.put_u8(at + 0x1D, 0xFF); // light set: none
    o.put_u8(at + 0x1E, 0xFF); // fog set: none
    o.put_u32(at + 0x2C, m.layers.len() as u32);
    if !m.layers.is_empty() {
        o.put_rel(at + 0x30, at, at + MATERIAL_LAYERS_AT);
    }
    for (i, l) in m.layers.iter().enumerate() {
        let la = at + MATERIAL_LAYERS_AT + 0x34 * i;
        o.put_name(la, la, &l.texture);
        if let Some(p) = &l.palette {
            o.put_name(la + 4, la, p);
        }
        for (k, v) in
            [l.texmap, l.tlut, l.wrap_s, l.wrap_t, l.min_filter, l.mag_filter, l.lod_bias.to_bits(), l.max_aniso]
                .into_iter()
                .enumerate()
        {
            o.put_u32(la + 0x10 + 4 * k, v);
        }
        o.put_u8(la + 0x30, l.bias_clamp as u8);
        o.put_u8(la + 0x31, l.edge_lod as u8);
    }
    o.align(0x20);
    let dl_at = o.pos();
    o.buf.extend_from_slice(&list);
    o.put_rel(at + 0x3C, at, dl_at);
    let size = o.pos() - at;
    o.put_u32(at, size as u32);
    Ok(at)
}

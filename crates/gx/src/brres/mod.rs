//! BRRES files: what materials need. The file and its dictionaries, MDL0 models, their materials
//! (header counts, texture references, the material display list) and shaders (the TEV display
//! list), and texture names. Meshes are not read.
//!
//! Layouts are described in docs/gx-brres.md (from noclip's brres.ts and BrawlCrate's MDL0
//! structures, facts only). All integers are big-endian.

pub mod dict;
mod read;
pub mod sample;
mod write;

use serde::Serialize;

use crate::bp::{BpRegs, TevState};
use crate::dl;
use crate::error::Result;
use crate::regs::{addr, GenMode};

pub use read::read;
pub use write::write;

/// Size of a material display list: pixel (0x20), TEV colours (0x80), indirect (0x40) and
/// texture-coordinate generation (0xA0) blocks.
pub const MATERIAL_DL_SIZE: usize = 0x180;
/// Size of a shader's TEV display list.
pub const SHADER_DL_SIZE: usize = 0x1E0;
/// Most texture layers a material can reference.
pub const MAX_LAYERS: u32 = 8;

/// A parsed BRRES file.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Brres {
    /// Models of the "3DModels(NW4R)" group.
    pub models: Vec<Model>,
    /// Textures of the "Textures(NW4R)" group.
    pub textures: Vec<Texture>,
    /// Palettes of the "Palettes(NW4R)" group.
    pub palettes: Vec<PaletteData>,
    /// Other groups, by name, with their entry names (not written back by [`write()`]).
    pub other_groups: Vec<Group>,
}

/// A root group this crate does not read, listed by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Group {
    /// Group name (e.g. "AnmTexSrt(NW4R)").
    pub name: String,
    /// Entry names.
    pub entries: Vec<String>,
}

/// A TEX0 texture header.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Texture {
    /// Name.
    pub name: String,
    /// Width in texels.
    pub width: u16,
    /// Height in texels.
    pub height: u16,
    /// GX texture format.
    pub format: u32,
    /// Number of images (mip levels).
    pub mip_count: u32,
    /// The bytes of image level 0 (`texture::Format::size` of the size), when the TEX0 section
    /// holds them; empty otherwise (a header-only section, or an unknown format).
    #[serde(skip)]
    pub data: Vec<u8>,
}

/// A PLT0 palette.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PaletteData {
    /// Name (a material layer's palette name refers to it).
    pub name: String,
    /// PLT0 format code (0 IA8, 1 RGB565, 2 RGB5A3).
    pub format: u32,
    /// The big-endian 16-bit entries.
    #[serde(skip)]
    pub entries: Vec<u16>,
}

impl Brres {
    /// Level 0 of texture `name` decoded to RGBA8 (with its layer's palette for palette
    /// formats): `None` when the file has no such texture or no data for it.
    ///
    /// # Errors
    /// An unknown format, or data the decoder rejects.
    pub fn decode_texture(&self, name: &str, palette: Option<&str>) -> Result<Option<crate::sample::Image>> {
        use crate::texture::{decode, Format, Palette, PaletteFormat};
        let Some(t) = self.textures.iter().find(|t| t.name == name) else { return Ok(None) };
        if t.data.is_empty() {
            return Ok(None);
        }
        let format = Format::from_code(t.format).ok_or_else(|| {
            crate::Error::new(0, crate::ErrorKind::Invalid(format!("texture {name}: unknown format {}", t.format)))
        })?;
        let pal = palette.and_then(|p| self.palettes.iter().find(|x| x.name == p)).and_then(|p| {
            PaletteFormat::from_code(p.format).map(|format| Palette { format, entries: p.entries.clone() })
        });
        let texels = decode(format, t.width as u32, t.height as u32, &t.data, pal.as_ref())?;
        Ok(Some(crate::sample::Image { width: t.width as u32, height: t.height as u32, texels }))
    }
}

/// An MDL0 model: its materials and shaders.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Model {
    /// Name.
    pub name: String,
    /// MDL0 version (8 to 11 are read; 11 is written).
    pub version: u32,
    /// Materials, in dictionary order.
    pub materials: Vec<Material>,
    /// Shaders (TEV configurations), in dictionary order.
    pub shaders: Vec<Shader>,
}

/// An MDL0 material.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Material {
    /// Name.
    pub name: String,
    /// Index within the model.
    pub index: u32,
    /// Flags (bit 31: translucent).
    pub flags: u32,
    /// Number of texture coordinate generators.
    pub num_texgens: u8,
    /// Number of colour channels.
    pub num_chans: u8,
    /// Number of TEV stages.
    pub num_tev_stages: u8,
    /// Number of indirect stages.
    pub num_ind_stages: u8,
    /// GX cull mode (0 none, 1 front, 2 back, 3 all).
    pub cull_mode: u32,
    /// Index of the material's shader in [`Model::shaders`].
    pub shader: usize,
    /// Texture references, in layer order.
    pub layers: Vec<Layer>,
    /// The material display list (pixel, TEV colour, indirect, texgen blocks).
    #[serde(skip)]
    pub display_list: Vec<u8>,
}

/// A texture reference of a material (a "layer").
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Layer {
    /// Texture name.
    pub texture: String,
    /// Palette name, if any.
    pub palette: Option<String>,
    /// GX texture map slot.
    pub texmap: u32,
    /// GX TLUT slot.
    pub tlut: u32,
    /// S wrap mode.
    pub wrap_s: u32,
    /// T wrap mode.
    pub wrap_t: u32,
    /// Minification filter.
    pub min_filter: u32,
    /// Magnification filter.
    pub mag_filter: u32,
    /// LOD bias.
    pub lod_bias: f32,
    /// Maximum anisotropy.
    pub max_aniso: u32,
    /// Bias clamp.
    pub bias_clamp: bool,
    /// Edge LOD.
    pub edge_lod: bool,
}

/// An MDL0 shader: the TEV stages shared by one or more materials.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Shader {
    /// Dictionary name.
    pub name: String,
    /// Index within the model.
    pub index: u32,
    /// Number of TEV stages.
    pub num_stages: u8,
    /// Texture references of the stages (0xFF = none).
    pub tex_refs: [u8; 8],
    /// The TEV display list (swap/ksel, indirect references, orders, combiners).
    #[serde(skip)]
    pub display_list: Vec<u8>,
}

impl Material {
    /// The genMode value implied by the header counts (real lists never write 0x00; facts file).
    /// The GX cull mode is mapped to the hardware field (GX front 1 -> hardware 2, back 2 -> 1),
    /// as libogc's GX_SetCullMode does.
    pub fn gen_mode(&self) -> GenMode {
        GenMode {
            num_texgens: self.num_texgens.min(15),
            num_colchans: self.num_chans.min(7),
            num_tevstages_minus_1: self.num_tev_stages.clamp(1, 16) - 1,
            cull_mode: match self.cull_mode {
                1 => 2,
                2 => 1,
                m => (m & 3) as u8,
            },
            num_indstages: self.num_ind_stages.min(7),
        }
    }

    /// The BP registers after the header's genMode, the material list and then `shader`'s list.
    ///
    /// # Errors
    /// A malformed display list (offsets relative to the start of that list).
    pub fn registers(&self, shader: &Shader) -> Result<BpRegs> {
        let mut regs = BpRegs::new();
        regs.write(addr::GEN_MODE, self.gen_mode().encode());
        dl::apply(&mut regs, &self.display_list, 0)?;
        dl::apply(&mut regs, &shader.display_list, 0)?;
        Ok(regs)
    }

    /// The decoded TEV state of this material with `shader`.
    ///
    /// # Errors
    /// As [`Material::registers`].
    pub fn state(&self, shader: &Shader) -> Result<TevState> {
        Ok(self.registers(shader)?.state())
    }
}

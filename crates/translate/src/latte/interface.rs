//! The shader interface of a Latte shader under the port's ABI (docs/abi.md "Latte",
//! latte-shader-translation.md "Bindings / interface"): what `<key>.<stage>.meta` records for
//! the runtime's descriptor set layouts, vertex input state and varying linkage.
//!
//! Built from a GX2 shader header ([`Interface::from_header`], gx2-gfd-facts.md "Structs"; the
//! semantic tables of latte-semantics-facts.md §4.3 and §5) or, for a raw program without a
//! header, from what the program uses ([`Interface::from_program`]). Varying locations come
//! from the game-wide [`Varyings`] map.

use super::varyings::{Varyings, MAX_VARYING_LOCATIONS, NO_SEMANTIC};
use super::Translation;
use ::latte::gfd::{GfdFile, ShaderHeader, Stage as GfdStage};
use ::latte::isa::program::ClauseBody;
use ::latte::isa::{FetchInst, Program};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Uniform block indices: 0-15 (GX2's uniform blocks per stage, SQ_ALU_CONST_CACHE_*_0-15,
/// latte-semantics-facts.md §4.4); block i is at binding i.
pub const MAX_UNIFORM_BLOCKS: u32 = 16;
/// Largest uniform block: 4096 `vec4` (the kcache-addressable range; the compute form's
/// `BLOCK_VEC4S`).
pub const MAX_BLOCK_BYTES: u32 = super::BLOCK_VEC4S * 16;
/// Binding of the loose uniform registers (c0-c255 of uniform-register mode): right after the
/// 16 block bindings, so it never meets a block, whatever the mode.
pub const LOOSE_BINDING: u32 = 16;
/// Bytes of the loose uniform block: 256 registers of 16 bytes.
pub const LOOSE_BYTES: u32 = 256 * 16;
/// Sampler slot s is the combined image sampler at binding `SAMPLER_BINDING_BASE + s`.
pub const SAMPLER_BINDING_BASE: u32 = 32;
/// Sampler slots 0-17 (the R700's 18 texture/sampler units per stage).
pub const MAX_SAMPLER_SLOTS: u32 = 18;

/// The stage of an interface (`vertex`, `pixel`, `geometry` in the JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InterfaceStage {
    /// Vertex shader.
    Vertex,
    /// Pixel shader.
    Pixel,
    /// Geometry shader (its copy program's exports are the varyings).
    Geometry,
}

impl From<GfdStage> for InterfaceStage {
    fn from(s: GfdStage) -> Self {
        match s {
            GfdStage::Vertex => InterfaceStage::Vertex,
            GfdStage::Pixel => InterfaceStage::Pixel,
            GfdStage::Geometry => InterfaceStage::Geometry,
        }
    }
}

impl From<super::Stage> for InterfaceStage {
    fn from(s: super::Stage) -> Self {
        match s {
            super::Stage::Vertex => InterfaceStage::Vertex,
            super::Stage::Pixel => InterfaceStage::Pixel,
        }
    }
}

/// Where an interface came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A GX2 shader header.
    Header,
    /// A raw program: what the program uses, with the documented defaults.
    Program,
}

/// GX2 shader mode (the header's `mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// 0: loose uniforms in the constant file.
    UniformRegister,
    /// 1: uniform blocks.
    UniformBlock,
    /// 2: geometry.
    Geometry,
    /// 3: compute.
    Compute,
}

/// A uniform block: `array<vec4<i32>>` (16-byte stride) of the game's little-endian words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockBinding {
    /// Name in the header (empty for raw programs).
    pub name: String,
    /// The hardware block index (GX2UniformBlock `offset`; the kcache bank).
    pub index: u32,
    /// Its binding: the index.
    pub binding: u32,
    /// Size in bytes (GX2UniformBlock `size`; [`MAX_BLOCK_BYTES`] for raw programs).
    pub size: u32,
}

/// The loose uniform registers as one block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LooseBlock {
    /// [`LOOSE_BINDING`].
    pub binding: u32,
    /// [`LOOSE_BYTES`].
    pub size: u32,
}

/// Texture dimension of a sampler (GX2SamplerVarType).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dimension {
    /// SAMPLER1D (0).
    #[serde(rename = "1d")]
    D1,
    /// SAMPLER2D (1).
    #[serde(rename = "2d")]
    D2,
    /// SAMPLER2DARRAY (2).
    #[serde(rename = "2d_array")]
    D2Array,
    /// SAMPLER3D (3).
    #[serde(rename = "3d")]
    D3,
    /// SAMPLERCUBE (4).
    #[serde(rename = "cube")]
    Cube,
    /// SAMPLER2DSHADOW (6).
    #[serde(rename = "2d_shadow")]
    D2Shadow,
}

impl Dimension {
    /// From a GX2SamplerVarType value.
    pub fn from_gx2(t: u32) -> Option<Dimension> {
        Some(match t {
            0 => Dimension::D1,
            1 => Dimension::D2,
            2 => Dimension::D2Array,
            3 => Dimension::D3,
            4 => Dimension::Cube,
            6 => Dimension::D2Shadow,
            _ => return None,
        })
    }
}

/// A combined image sampler.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SamplerBinding {
    /// Name in the header (empty for raw programs).
    pub name: String,
    /// Sampler slot (GX2SamplerVar `location`; the TEX resource id of a raw program).
    pub slot: u32,
    /// `SAMPLER_BINDING_BASE + slot`.
    pub binding: u32,
    /// Texture dimension (`2d` for raw programs).
    pub dimension: Dimension,
}

/// A vertex input: `uvec4` of GPR-ready bits at location = the attribute semantic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attribute {
    /// The GX2AttribVar name covering the semantic (`name[i]` for column i of a matrix or
    /// element i of an array), empty when no attribute variable does.
    pub name: String,
    /// Attribute semantic (SQ_VTX_SEMANTIC_k.SEMANTIC_ID; the fetch shader's attribute
    /// location).
    pub semantic: u32,
    /// Vulkan location: the semantic.
    pub location: u32,
    /// The GPR the fetch shader fills: R(k+1) for table entry k.
    pub gpr: u32,
}

/// A varying: a VS (or GS copy) PARAM export, or a PS input GPR.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Varying {
    /// Latte semantic id.
    pub semantic: u32,
    /// The game-wide location ([`Varyings`]).
    pub location: u32,
    /// VS / GS: the PARAM export index; PS: the input GPR.
    pub register: u32,
    /// PS only: SPI_PS_INPUT_CNTL DEFAULT_VAL (0: (0,0,0,0), 1: (0,0,0,1), 2: (1,1,1,0), 3:
    /// (1,1,1,1)), what the input reads when no VS parameter has the semantic.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub default_value: Option<u32>,
    /// PS only: SPI_PS_INPUT_CNTL FLAT_SHADE.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub flat: Option<bool>,
}

/// A push constant of the stage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushConstant {
    /// Name.
    pub name: String,
    /// Byte offset in the pipeline's push-constant block.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
}

/// Push constants of the vertex (and geometry) stage: the point size (f32).
pub fn vertex_push_constants() -> Vec<PushConstant> {
    vec![PushConstant { name: "point_size".into(), offset: 0, size: 4 }]
}

/// Push constants of the pixel stage: the alpha-test function (u32, GX2CompareFunction 0-7)
/// and reference (f32), after the vertex stage's range.
pub fn pixel_push_constants() -> Vec<PushConstant> {
    vec![
        PushConstant { name: "alpha_func".into(), offset: 16, size: 4 },
        PushConstant { name: "alpha_ref".into(), offset: 20, size: 4 },
    ]
}

/// A shader's interface: `<key>.<stage>.meta` is this, as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interface {
    /// Runtime key, 16 hex digits.
    pub key: String,
    /// Stage.
    pub stage: InterfaceStage,
    /// Header or raw program.
    pub origin: Origin,
    /// GX2 shader mode (uniform-block mode for raw programs that read a block, else
    /// uniform-register mode).
    pub mode: Mode,
    /// Uniform blocks, by index.
    pub uniform_blocks: Vec<BlockBinding>,
    /// The loose uniform registers (uniform-register mode).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub loose_uniforms: Option<LooseBlock>,
    /// Samplers, by slot.
    pub samplers: Vec<SamplerBinding>,
    /// Vertex inputs, by semantic (vertex shaders).
    pub attributes: Vec<Attribute>,
    /// Varyings: VS/GS outputs by PARAM index, PS inputs by GPR.
    pub varyings: Vec<Varying>,
    /// Push constants.
    pub push_constants: Vec<PushConstant>,
}

/// A header the interface cannot be built from, naming the file and the field.
#[derive(Debug, thiserror::Error)]
pub enum InterfaceError {
    /// The GFD itself does not parse.
    #[error("{file}: {source}")]
    Gfd {
        /// The file.
        file: String,
        /// Why.
        source: ::latte::Error,
    },
    /// A header field is out of range or contradicts another.
    #[error("{file}: {stage} shader header: {field}: {message}")]
    Field {
        /// The file.
        file: String,
        /// `vertex`, `pixel`, `geometry`.
        stage: &'static str,
        /// The field (`SQ_VTX_SEMANTIC[3]`, `uniform block 1 offset`, ...).
        field: String,
        /// What is wrong.
        message: String,
    },
}

/// Builds [`InterfaceError::Field`]s for one header.
struct Fields<'a> {
    file: &'a str,
    stage: GfdStage,
}

impl Fields<'_> {
    fn err(&self, field: impl Into<String>, message: impl Into<String>) -> InterfaceError {
        InterfaceError::Field {
            file: self.file.to_string(),
            stage: self.stage.name(),
            field: field.into(),
            message: message.into(),
        }
    }
    fn reg(&self, h: &ShaderHeader, word: usize, name: &str) -> Result<u32, InterfaceError> {
        h.regs.get(word).copied().ok_or_else(|| {
            self.err(
                name,
                format!("the register block has {} words, {} needs word {word}", h.regs.len(), h.stage.name()),
            )
        })
    }
}

/// Register words of the semantic tables (wut gx2/shaders.h order; crates/latte asm::regs).
mod regs {
    pub const VS_NUM_OUT_ID: usize = 3;
    pub const VS_OUT_ID: usize = 4;
    pub const VS_NUM_VTX_SEMANTIC: usize = 16;
    pub const VS_VTX_SEMANTIC: usize = 17;
    pub const PS_NUM_INPUT_CNTL: usize = 4;
    pub const PS_INPUT_CNTL: usize = 5;
    pub const GS_NUM_OUT_ID: usize = 7;
    pub const GS_OUT_ID: usize = 8;
}

/// One semantic use: the semantic and the register (PARAM index or PS input GPR) with the
/// PS input's control word.
struct Use {
    semantic: u8,
    register: u32,
    cntl: Option<u32>,
    field: String,
}

/// The VS / GS PARAM exports by SPI_VS_OUT_ID (§5.2): field i of the first NUM_SPI_VS_OUT_ID
/// registers is PARAM i's semantic, 0xFF unused. Two parameters with one semantic are an
/// error: they would need one location.
fn out_ids(f: &Fields, h: &ShaderHeader, num: usize, first: usize) -> Result<Vec<Use>, InterfaceError> {
    let n = f.reg(h, num, "NUM_SPI_VS_OUT_ID")?;
    if n > 10 {
        return Err(f.err("NUM_SPI_VS_OUT_ID", format!("{n} registers, at most 10 exist")));
    }
    let mut out: Vec<Use> = Vec::new();
    for i in 0..4 * n as usize {
        let field = format!("SPI_VS_OUT_ID[{}].SEMANTIC_{}", i / 4, i % 4);
        let s = (f.reg(h, first + i / 4, &field)? >> (8 * (i % 4))) as u8;
        if s == NO_SEMANTIC {
            continue;
        }
        if let Some(p) = out.iter().find(|u| u.semantic == s) {
            return Err(f.err(field, format!("semantic {s} is also PARAM {} ({})", p.register, p.field)));
        }
        out.push(Use { semantic: s, register: i as u32, cntl: None, field });
    }
    Ok(out)
}

/// The PS inputs by SPI_PS_INPUT_CNTL (§5.3): R j reads semantic SEMANTIC of word j. 0xFF is
/// taken as "no varying" (the input reads its default). Two inputs may share a semantic.
fn ps_inputs(f: &Fields, h: &ShaderHeader) -> Result<Vec<Use>, InterfaceError> {
    let n = f.reg(h, regs::PS_NUM_INPUT_CNTL, "NUM_SPI_PS_INPUT_CNTL")?;
    if n > 32 {
        return Err(f.err("NUM_SPI_PS_INPUT_CNTL", format!("{n} inputs, at most 32 exist")));
    }
    let mut out = Vec::new();
    for j in 0..n as usize {
        let field = format!("SPI_PS_INPUT_CNTL[{j}]");
        let w = f.reg(h, regs::PS_INPUT_CNTL + j, &field)?;
        let s = w as u8;
        if s != NO_SEMANTIC {
            out.push(Use { semantic: s, register: j as u32, cntl: Some(w), field });
        }
    }
    Ok(out)
}

/// The semantic uses of a header. A vertex shader in geometry mode (2) writes the ES->GS ring,
/// not parameters: its SPI_VS_OUT_ID fields link nothing to the PS (the GS's do), so it has no
/// varyings.
fn uses(f: &Fields, h: &ShaderHeader) -> Result<Vec<Use>, InterfaceError> {
    match h.stage {
        GfdStage::Vertex if h.mode == 2 => Ok(Vec::new()),
        GfdStage::Vertex => out_ids(f, h, regs::VS_NUM_OUT_ID, regs::VS_OUT_ID),
        GfdStage::Geometry => out_ids(f, h, regs::GS_NUM_OUT_ID, regs::GS_OUT_ID),
        GfdStage::Pixel => ps_inputs(f, h),
    }
}

/// The semantic ids `header` uses (VS/GS outputs, PS inputs), for the game-wide [`Varyings`].
///
/// # Errors
/// [`InterfaceError::Field`] for bad semantic tables, naming `file` and the register.
pub fn header_semantics(file: &str, header: &ShaderHeader) -> Result<Vec<u8>, InterfaceError> {
    let f = Fields { file, stage: header.stage };
    Ok(uses(&f, header)?.into_iter().map(|u| u.semantic).collect())
}

/// Number of semantics (locations) an attribute variable of GX2ShaderVarType `t` and array
/// count `count` takes: a matrix one per column, an array one per element.
fn attrib_slots(t: u32, count: u32) -> u32 {
    let cols = match t {
        21..=23 => 2,
        24..=26 => 3,
        27..=29 => 4,
        _ => 1,
    };
    cols * count.max(1)
}

fn attributes(f: &Fields, h: &ShaderHeader) -> Result<Vec<Attribute>, InterfaceError> {
    let name_of = |sem: u32| -> String {
        for v in &h.attrib_vars {
            let n = attrib_slots(v.var_type, v.count).min(256);
            if sem >= v.location && sem - v.location < n {
                return if n == 1 { v.name.clone() } else { format!("{}[{}]", v.name, sem - v.location) };
            }
        }
        String::new()
    };
    let n = f.reg(h, regs::VS_NUM_VTX_SEMANTIC, "NUM_SQ_VTX_SEMANTIC")?;
    if n > 32 {
        return Err(f.err("NUM_SQ_VTX_SEMANTIC", format!("{n} entries, at most 32 exist")));
    }
    let mut out: Vec<Attribute> = Vec::new();
    if n > 0 {
        // The table is what the hardware uses: semantic s lands in R(k+1) where entry k has
        // SEMANTIC_ID s (latte-semantics-facts.md §4.3).
        for k in 0..n as usize {
            let field = format!("SQ_VTX_SEMANTIC[{k}]");
            let s = f.reg(h, regs::VS_VTX_SEMANTIC + k, &field)? & 0xFF;
            if s == NO_SEMANTIC as u32 {
                continue;
            }
            if let Some(a) = out.iter().find(|a| a.semantic == s) {
                return Err(f.err(field, format!("semantic {s} is also SQ_VTX_SEMANTIC[{}]", a.gpr - 1)));
            }
            out.push(Attribute { name: name_of(s), semantic: s, location: s, gpr: k as u32 + 1 });
        }
    } else {
        // No table (some writers leave it empty): the fetch-shader convention, attribute
        // location N in R(N+1) (latte-shader-translation.md, "Mapping rules").
        for (i, v) in h.attrib_vars.iter().enumerate() {
            let slots = attrib_slots(v.var_type, v.count);
            if v.location as u64 + slots as u64 > 127 {
                return Err(f.err(
                    format!("attrib var {i} ({:?}) location", v.name),
                    format!("{} (+{slots} semantics) reaches past R127 without a SQ_VTX_SEMANTIC table", v.location),
                ));
            }
            for s in v.location..v.location + slots {
                if out.iter().any(|a| a.semantic == s) {
                    return Err(f.err(
                        format!("attrib var {i} ({:?}) location", v.name),
                        format!("semantic {s} is taken by another attribute"),
                    ));
                }
                out.push(Attribute { name: name_of(s), semantic: s, location: s, gpr: s + 1 });
            }
        }
    }
    out.sort_by_key(|a| a.semantic);
    Ok(out)
}

fn varyings_of(f: &Fields, h: &ShaderHeader, map: &Varyings) -> Result<Vec<Varying>, InterfaceError> {
    let mut out = Vec::new();
    for u in uses(f, h)? {
        let Some(location) = map.location(u.semantic) else {
            return Err(f.err(u.field, format!("semantic {} is not in the game-wide varyings map", u.semantic)));
        };
        if location as usize >= MAX_VARYING_LOCATIONS {
            return Err(f.err(
                u.field,
                format!(
                    "semantic {} has location {location}: the game uses {} semantics, the ABI has {MAX_VARYING_LOCATIONS} locations",
                    u.semantic,
                    map.len()
                ),
            ));
        }
        out.push(Varying {
            semantic: u.semantic as u32,
            location,
            register: u.register,
            default_value: u.cntl.map(|w| (w >> 8) & 3),
            flat: u.cntl.map(|w| w & (1 << 10) != 0),
        });
    }
    Ok(out)
}

fn push_constants(stage: InterfaceStage) -> Vec<PushConstant> {
    match stage {
        InterfaceStage::Pixel => pixel_push_constants(),
        _ => vertex_push_constants(),
    }
}

impl Interface {
    /// The interface of a shader with GX2 header `header` and runtime key `key`, its varying
    /// locations from `varyings` (which must hold every semantic the header uses). `file`
    /// names the source in errors.
    ///
    /// # Errors
    /// [`InterfaceError::Field`]: a mode other than 0-3, a block index past 15 or used twice, a
    /// block larger than 64 KiB, a sampler slot past 17 or used twice, an unknown sampler type,
    /// semantic tables out of range or with repeats, a varying not in `varyings` or at a location
    /// past 31.
    pub fn from_header(
        file: &str,
        key: &str,
        header: &ShaderHeader,
        varyings: &Varyings,
    ) -> Result<Interface, InterfaceError> {
        let f = Fields { file, stage: header.stage };
        let stage = InterfaceStage::from(header.stage);
        let mode = match header.mode {
            0 => Mode::UniformRegister,
            1 => Mode::UniformBlock,
            2 => Mode::Geometry,
            3 => Mode::Compute,
            m => return Err(f.err("mode", format!("{m} is not a GX2 shader mode (0-3)"))),
        };
        let mut uniform_blocks: Vec<BlockBinding> = Vec::new();
        for (i, b) in header.uniform_blocks.iter().enumerate() {
            let field = || format!("uniform block {i} ({:?})", b.name);
            if b.offset >= MAX_UNIFORM_BLOCKS {
                return Err(f.err(field() + " offset", format!("{} is not a block index 0-15", b.offset)));
            }
            if b.size > MAX_BLOCK_BYTES {
                return Err(f.err(field() + " size", format!("{} bytes, at most {MAX_BLOCK_BYTES}", b.size)));
            }
            if let Some(o) = uniform_blocks.iter().find(|o| o.index == b.offset) {
                return Err(f.err(field() + " offset", format!("block index {} is also {:?}'s", b.offset, o.name)));
            }
            uniform_blocks.push(BlockBinding {
                name: b.name.clone(),
                index: b.offset,
                binding: b.offset,
                size: b.size,
            });
        }
        uniform_blocks.sort_by_key(|b| b.index);
        let loose_uniforms =
            (mode == Mode::UniformRegister).then_some(LooseBlock { binding: LOOSE_BINDING, size: LOOSE_BYTES });
        let mut samplers: Vec<SamplerBinding> = Vec::new();
        for (i, s) in header.sampler_vars.iter().enumerate() {
            let field = || format!("sampler var {i} ({:?})", s.name);
            if s.location >= MAX_SAMPLER_SLOTS {
                return Err(f.err(field() + " location", format!("{} is not a sampler slot 0-17", s.location)));
            }
            let Some(dimension) = Dimension::from_gx2(s.var_type) else {
                return Err(f.err(field() + " type", format!("{} is not a GX2SamplerVarType", s.var_type)));
            };
            if let Some(o) = samplers.iter().find(|o| o.slot == s.location) {
                return Err(f.err(field() + " location", format!("slot {} is also {:?}'s", s.location, o.name)));
            }
            samplers.push(SamplerBinding {
                name: s.name.clone(),
                slot: s.location,
                binding: SAMPLER_BINDING_BASE + s.location,
                dimension,
            });
        }
        samplers.sort_by_key(|s| s.slot);
        let attributes = if header.stage == GfdStage::Vertex { attributes(&f, header)? } else { Vec::new() };
        Ok(Interface {
            key: key.to_string(),
            stage,
            origin: Origin::Header,
            mode,
            uniform_blocks,
            loose_uniforms,
            samplers,
            attributes,
            varyings: varyings_of(&f, header, varyings)?,
            push_constants: push_constants(stage),
        })
    }

    /// The interface of a raw program (no header) translated as `tr`: the blocks the program
    /// reads (each [`MAX_BLOCK_BYTES`]), the loose block when it reads the constant file, a `2d`
    /// sampler per TEX resource id it fetches from, and neither attributes nor varyings (their
    /// semantics are in the header only): docs/abi.md "Latte", "Raw programs".
    pub fn from_program(key: &str, prog: &Program, tr: &Translation) -> Interface {
        let stage = InterfaceStage::from(tr.stage());
        let uniform_blocks: Vec<BlockBinding> = tr
            .uniform_blocks()
            .iter()
            .map(|&b| BlockBinding { name: String::new(), index: b as u32, binding: b as u32, size: MAX_BLOCK_BYTES })
            .collect();
        let slots: BTreeSet<u32> = prog
            .clauses
            .iter()
            .filter_map(|c| match &c.body {
                ClauseBody::Fetch(f) => Some(f),
                ClauseBody::Alu(_) => None,
            })
            .flatten()
            .filter_map(|i| match i {
                // TEX ops 0-2 are VTX_FETCH, VTX_SEMANTIC and MEM: no texture.
                FetchInst::Tex(t) if t.op > 2 && (t.resource_id as u32) < MAX_SAMPLER_SLOTS => {
                    Some(t.resource_id as u32)
                }
                _ => None,
            })
            .collect();
        let mode = if uniform_blocks.is_empty() { Mode::UniformRegister } else { Mode::UniformBlock };
        Interface {
            key: key.to_string(),
            stage,
            origin: Origin::Program,
            mode,
            uniform_blocks,
            loose_uniforms: tr.reads_cfile().then_some(LooseBlock { binding: LOOSE_BINDING, size: LOOSE_BYTES }),
            samplers: slots
                .into_iter()
                .map(|s| SamplerBinding {
                    name: String::new(),
                    slot: s,
                    binding: SAMPLER_BINDING_BASE + s,
                    dimension: Dimension::D2,
                })
                .collect(),
            attributes: Vec::new(),
            varyings: Vec::new(),
            push_constants: push_constants(stage),
        }
    }

    /// The `.meta` text: pretty JSON and a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("an interface serialises");
        s.push('\n');
        s
    }

    /// Reads a `.meta` text.
    ///
    /// # Errors
    /// serde_json's error (with its line and column) when it is not an interface.
    pub fn from_json(text: &str) -> Result<Interface, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// Every shader of one GFD file with its interface, the varying map made from that file's
/// shaders alone (what `shaderport translate FILE --meta OUT.meta` writes for one file; `batch`
/// uses the game-wide map instead). Keys are the runtime keys (`latte::key::shader_key`).
/// Shaders without a program block are skipped: they have no key.
///
/// # Errors
/// [`InterfaceError::Gfd`] when the file does not parse, [`InterfaceError::Field`] for a bad
/// header; both name `file`.
pub fn gfd_interfaces(file: &str, bytes: &[u8]) -> Result<Vec<Interface>, InterfaceError> {
    let gfd_err = |source| InterfaceError::Gfd { file: file.to_string(), source };
    let shaders = GfdFile::parse(bytes).and_then(|g| g.shaders()).map_err(gfd_err)?;
    let mut semantics = Vec::new();
    for s in &shaders {
        semantics.extend(header_semantics(file, &s.header)?);
    }
    let map = Varyings::from_semantics(semantics);
    let mut out = Vec::new();
    for s in &shaders {
        let Some(program) = &s.program else { continue };
        let key = format!("{:016x}", ::latte::key::shader_key(&s.header.regs, program));
        out.push(Interface::from_header(file, &key, &s.header, &map)?);
    }
    Ok(out)
}

//! The fragment uniforms: the state the fragment pipeline reads that does not change generated
//! code (colours, LUT contents, fog, gas and shadow parameters, texture parameters the sampler
//! needs). Built from the same registers and memories as the [`FragmentKey`](super::FragmentKey).

use crate::float24::F24;
use crate::regs::layouts::{FragopShadow, GasDeltaZ, GasLight, Rgb8, Rgba8, TexShadow};
use crate::state::{Draw, GpuState, Memories};

use super::key::{ids, reg};
use super::lighting::LightingUniforms;
use super::proctex::ProcTexUniforms;
use super::Rgba;

/// What a texture unit's sampler needs beyond the key: the raw register words, decoded by the
/// texture module (format, dimensions, wrap, filters, border colour, LOD, addresses).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SamplerParams {
    pub border_color: u32,
    pub dim: u32,
    pub param: u32,
    pub lod: u32,
    pub address: u32,
    pub format: u32,
}

/// The gas registers (decision D8: gas shading is not implemented; they are carried so that
/// the uniform block has its final shape).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GasUniforms {
    /// TEXENV_UPDATE_BUFFER bit 3: the shading density comes from the depth.
    pub density_from_depth: bool,
    /// GPUREG_GAS_ATTENUATION and GPUREG_GAS_ACCMAX, f16 bits.
    pub attenuation: u16,
    pub accmax: u16,
    pub light_xy: GasLight,
    pub light_z: GasLight,
    /// GPUREG_GAS_LIGHT_Z_COLOR, the whole word (effect bits 0-7, LUT input bit 8).
    pub light_z_color: u32,
    pub deltaz: GasDeltaZ,
    /// GPUREG_GAS_LUT_DATA entries: 0-7 deltas, 8-15 colours.
    pub lut: [u32; 16],
}

/// The uniforms of a fragment shader.
#[derive(Clone, Debug, PartialEq)]
pub struct FragmentUniforms {
    /// GPUREG_DEPTHMAP_SCALE and _OFFSET as f32 (step 2).
    pub depth_scale: f32,
    pub depth_offset: f32,
    /// Texture units 0-2.
    pub samplers: [SamplerParams; 3],
    /// The 24-bit shadow-texture bias: TEXUNIT0_SHADOW bits 1-23, times 2 (facts 6.3).
    pub shadow_bias: u32,
    /// TEXENVi_COLOR.
    pub texenv_constant: [Rgba; 6],
    /// TEXENV_BUFFER_COLOR, the buffer before stage 1.
    pub buffer_color: Rgba,
    /// FRAGOP_SHADOW as f32: the penumbra constant ("scale + bias") and linear ("-scale")
    /// terms of the shadow-map update (facts 6.4).
    pub shadow_constant: f32,
    pub shadow_linear: f32,
    /// FRAGOP_ALPHA_TEST bits 8-15.
    pub alpha_reference: u8,
    /// GPUREG_FOG_COLOR.
    pub fog_color: [u8; 3],
    /// The fog LUT as uploaded (raw entries, facts 4.1).
    pub fog_lut: [u32; 128],
    pub gas: GasUniforms,
    /// Fragment lighting: per-slot light parameters, the global ambient, the LUT scales and the
    /// 24 lighting LUTs.
    pub lighting: LightingUniforms,
    /// The procedural texture: noise, LOD and colour-LUT parameters and its five LUTs.
    pub proctex: ProcTexUniforms,
}

fn rgba(raw: u32) -> Rgba {
    let c = Rgba8::decode(raw);
    [c.r as u8, c.g as u8, c.b as u8, c.a as u8]
}

/// An IEEE-style half (float1.5.10) as f32; denormals kept, as the register page's format.
pub(crate) fn f16(bits: u32) -> f32 {
    crate::regs::fields::float_value(bits & 0xFFFF, 5, 10) as f32
}

/// A float1.7.12 (f20) as f32.
pub(crate) fn f20(bits: u32) -> f32 {
    crate::regs::fields::float_value(bits & 0xF_FFFF, 7, 12) as f32
}

impl FragmentUniforms {
    /// The uniforms of a register file and the memories behind the upload ports.
    pub fn from_regs(regs: &[u32], memories: &Memories) -> FragmentUniforms {
        let samplers = std::array::from_fn(|u| SamplerParams {
            border_color: reg(regs, ids::TEXUNIT_BORDER[u]),
            dim: reg(regs, ids::TEXUNIT_DIM[u]),
            param: reg(regs, ids::TEXUNIT_PARAM[u]),
            lod: reg(regs, ids::TEXUNIT_LOD[u]),
            address: reg(regs, ids::TEXUNIT_ADDR[u]),
            format: reg(regs, ids::TEXUNIT_TYPE[u]),
        });
        let shadow = TexShadow::decode(reg(regs, ids::TEXUNIT0_SHADOW));
        let fragop = FragopShadow::decode(reg(regs, ids::FRAGOP_SHADOW));
        let fog = Rgb8::decode(reg(regs, ids::FOG_COLOR));
        FragmentUniforms {
            depth_scale: F24::from_bits(reg(regs, ids::DEPTHMAP_SCALE) & 0xFF_FFFF).to_f32(),
            depth_offset: F24::from_bits(reg(regs, ids::DEPTHMAP_OFFSET) & 0xFF_FFFF).to_f32(),
            samplers,
            shadow_bias: shadow.z_bias.0 << 1,
            texenv_constant: std::array::from_fn(|i| rgba(reg(regs, ids::TEXENV[i] + 3))),
            buffer_color: rgba(reg(regs, ids::TEXENV_BUFFER_COLOR)),
            shadow_constant: f16(fragop.scale_plus_bias.0),
            shadow_linear: f16(fragop.negated_scale.0),
            alpha_reference: ((reg(regs, ids::ALPHA_TEST) >> 8) & 0xFF) as u8,
            fog_color: [fog.r as u8, fog.g as u8, fog.b as u8],
            fog_lut: *memories.fog,
            gas: GasUniforms {
                density_from_depth: reg(regs, ids::TEXENV_UPDATE_BUFFER) & 8 != 0,
                attenuation: reg(regs, ids::GAS_ATTENUATION) as u16,
                accmax: reg(regs, ids::GAS_ACCMAX) as u16,
                light_xy: GasLight::decode(reg(regs, ids::GAS_LIGHT_XY)),
                light_z: GasLight::decode(reg(regs, ids::GAS_LIGHT_Z)),
                light_z_color: reg(regs, ids::GAS_LIGHT_Z_COLOR),
                deltaz: GasDeltaZ::decode(reg(regs, ids::GAS_DELTAZ_DEPTH)),
                lut: memories.gas,
            },
            lighting: LightingUniforms::decode(regs, memories.lighting.clone()),
            proctex: ProcTexUniforms::decode(&ids::PROCTEX.map(|id| reg(regs, id)), memories.proctex.clone()),
        }
    }

    /// The uniforms of the current state of a tracker.
    pub fn from_state(state: &GpuState) -> FragmentUniforms {
        FragmentUniforms::from_regs(&state.regs, &state.memories)
    }

    /// The uniforms of the state a draw saw.
    pub fn from_draw(draw: &Draw) -> FragmentUniforms {
        FragmentUniforms::from_regs(&draw.regs, &draw.memories)
    }
}

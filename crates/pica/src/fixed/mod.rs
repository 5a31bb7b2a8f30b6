//! The PICA200 fixed-function fragment pipeline as a CPU reference, its key and its uniforms.
//!
//! Source: docs/specs/pica200-fragment-facts.md; the order of the steps is its section 0.4, and
//! docs/pica-fragment.md describes the pipeline, the decisions ([`decisions`], D1-D28) and the
//! key/uniform split that the shader generator walks.
//!
//! | step | what | code | key | uniforms |
//! |---|---|---|---|---|
//! | 1 | primary colour to bytes | [`decisions::color_byte`] | | |
//! | 2 | fragment depth | [`fog::fragment_depth`] | `w_buffer` | `depth_scale`, `depth_offset` |
//! | 3 | texture units 0-2 | [`texture::unit_color`] | `textures` | `shadow_bias`, `samplers` |
//! | 3 | texture unit 3 (procedural) | [`procedural_texture`] | `proctex` | `proctex` |
//! | 4 | fragment lighting | [`fragment_lighting`] | `lighting` | `lighting` |
//! | 5 | six TexEnv stages | [`texenv::run`] | `texenv`, `buffer_writes` | `texenv_constant`, `buffer_color` |
//! | 6 | shadow-render mode | [`output::ShadowWrite`] | `shadow_render` | |
//! | 7 | alpha test | [`output::alpha_test`] | `alpha_test` | `alpha_reference` |
//! | 8 | fog or gas | [`fog::apply`] | `fog` | `fog_color`, `fog_lut`, `gas` |
//!
//! Step 9 (depth and stencil tests, blending, logic op, colour mask) is the output merger's,
//! outside the fragment shader.
//!
//! ```
//! use pica::fixed::{self, FragmentInputs, FragmentKey, FragmentResult, FragmentUniforms, TexelRequest};
//! use pica::state::GpuState;
//!
//! let mut state = GpuState::new();
//! // Stage 0: RGB = primary colour, alpha = primary colour (the other stages pass through).
//! state.regs[0x0C0] = 0x0000_0000;
//! for base in [0x0C8usize, 0x0D0, 0x0D8, 0x0F0, 0x0F8] {
//!     state.regs[base] = 0x00F0_00F0; // previous
//! }
//! state.regs[0x06D] = 1; // Z-buffering
//! let key = FragmentKey::from_state(&state);
//! let uniforms = FragmentUniforms::from_state(&state);
//! let inputs = FragmentInputs { color: [1.0, 0.5, 0.0, 1.0], ..Default::default() };
//! let result = fixed::run(&key, &uniforms, &inputs, &mut |_: TexelRequest| [0u8; 4]);
//! assert_eq!(result, FragmentResult::Color { rgba: [255, 128, 0, 255], depth: 0.0 });
//! ```

pub mod decisions;
pub mod fog;
pub mod key;
pub mod lighting;
pub mod lut;
pub mod output;
pub mod proctex;
pub mod texenv;
pub mod texture;
pub mod uniforms;

pub use key::{BufferWrites, FogKey, FragmentKey, TexEnvStageKey, TextureUnitKey, UnitKind};
pub use lighting::{LightingColors, LightingKey, LightingUniforms};
pub use output::ShadowWrite;
pub use proctex::{ProcTexKey, ProcTexUniforms};
pub use texenv::StageInputs;
pub use texture::{CubeFace, TexCoord, TexelRequest, TexelSampler};
pub use uniforms::{FragmentUniforms, GasUniforms, SamplerParams};

use crate::state::GpuState;

/// An RGBA8 colour: R, G, B, A.
pub type Rgba = [u8; 4];

/// The interpolated inputs of one fragment (facts 0.4 step 1; the rasteriser's job): f32, as
/// the host's interpolators give them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FragmentInputs {
    /// The primary colour, R, G, B, A in [0, 1].
    pub color: [f32; 4],
    /// Texture coordinates 0, 1, 2 (u, v).
    pub texcoord: [[f32; 2]; 3],
    /// Texture coordinate 0's w (cube maps, projection, shadow depth).
    pub texcoord0_w: f32,
    /// The normal quaternion (x, y, z, w) and view vector: read by fragment lighting.
    pub normquat: [f32; 4],
    pub view: [f32; 3],
    /// The interpolated z/w and the clip w (1 / the interpolated 1/w), from which step 2 forms
    /// the depth.
    pub z_over_w: f32,
    pub w: f32,
    /// max(|d/dx|, |d/dy|) of the absolute u and v coordinates texture unit 3 reads (what a
    /// shader's screen-space derivatives give): the procedural texture's mipmapped filters read
    /// them (decision D26); 0 elsewhere.
    pub proctex_duv: [f32; 2],
}

/// Step 4, fragment lighting (facts 3): [`lighting::compute`] with the key's lighting state;
/// `texture` holds units 0-3 (lighting reads its bump and shadow inputs from them).
pub fn fragment_lighting(
    key: &FragmentKey,
    uniforms: &FragmentUniforms,
    inputs: &FragmentInputs,
    texture: &[Rgba; 4],
) -> LightingColors {
    lighting::compute(&key.lighting, &uniforms.lighting, inputs, texture)
}

/// Step 3, texture unit 3 (the procedural texture, facts 5): [`proctex::sample`]; (0, 0, 0, 0)
/// when the unit is disabled (facts 2.2).
pub fn procedural_texture(key: &FragmentKey, uniforms: &FragmentUniforms, inputs: &FragmentInputs) -> Rgba {
    proctex::sample(&key.proctex, &uniforms.proctex, inputs)
}

/// What the fragment pipeline hands the output merger.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FragmentResult {
    /// A colour and the fragment depth for the depth test.
    Color { rgba: Rgba, depth: f32 },
    /// The alpha test failed.
    Discarded,
    /// Shadow-render mode: the shadow-map update (apply with [`output::shadow_update`]).
    Shadow(ShadowWrite),
}

/// Every intermediate value of one fragment, for comparing a translation stage by stage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FragmentTrace {
    pub depth: f32,
    pub stage_inputs: StageInputs,
    /// The output of each TexEnv stage.
    pub texenv: [Rgba; 6],
    pub result: FragmentResult,
}

/// Runs the pipeline for one fragment; the trace keeps every step's value.
pub fn trace(
    key: &FragmentKey,
    uniforms: &FragmentUniforms,
    inputs: &FragmentInputs,
    sampler: &mut (impl TexelSampler + ?Sized),
) -> FragmentTrace {
    // 1.
    let primary = inputs.color.map(decisions::color_byte);
    // 2.
    let depth = fog::fragment_depth(key.w_buffer, uniforms, inputs.z_over_w, inputs.w);
    // 3.
    let mut texture = [[0u8; 4]; 4];
    for (unit, t) in texture.iter_mut().take(3).enumerate() {
        *t = texture::unit_color(unit, &key.textures[unit], uniforms, inputs, sampler);
    }
    texture[3] = procedural_texture(key, uniforms, inputs);
    // 4.
    let lighting = fragment_lighting(key, uniforms, inputs, &texture);
    let stage_inputs =
        StageInputs { primary, fragment_primary: lighting.primary, fragment_secondary: lighting.secondary, texture };
    // 5.
    let stages =
        texenv::run(&key.texenv, &key.buffer_writes, &uniforms.texenv_constant, uniforms.buffer_color, &stage_inputs);
    let combined = stages[5];
    let alpha_pass = || output::alpha_test(key.alpha_test, combined[3], uniforms.alpha_reference);
    let result = if key.shadow_render {
        // 6. (Decision D10: nothing after this step runs; Azahar's shader tests alpha first.)
        if decisions::SHADOW_MODE_SKIPS_ALPHA_TEST || alpha_pass() {
            FragmentResult::Shadow(ShadowWrite::new(depth, combined))
        } else {
            FragmentResult::Discarded
        }
    } else if !alpha_pass() {
        // 7.
        FragmentResult::Discarded
    } else {
        // 8.
        FragmentResult::Color { rgba: fog::apply(key.fog, uniforms, depth, combined), depth }
    };
    FragmentTrace { depth, stage_inputs, texenv: stages, result }
}

/// Runs the pipeline for one fragment.
pub fn run(
    key: &FragmentKey,
    uniforms: &FragmentUniforms,
    inputs: &FragmentInputs,
    sampler: &mut (impl TexelSampler + ?Sized),
) -> FragmentResult {
    trace(key, uniforms, inputs, sampler).result
}

/// Runs the pipeline with the key and uniforms of a tracker's current state.
pub fn run_state(
    state: &GpuState,
    inputs: &FragmentInputs,
    sampler: &mut (impl TexelSampler + ?Sized),
) -> FragmentResult {
    run(&FragmentKey::from_state(state), &FragmentUniforms::from_state(state), inputs, sampler)
}

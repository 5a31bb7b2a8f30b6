//! Builders of fragment-pipeline states for the fixed-function tests.

#![allow(dead_code)]

pub mod lighting;
#[allow(unused_imports)]
pub use lighting::*;

use pica::fixed::{
    self, FragmentInputs, FragmentKey, FragmentResult, FragmentTrace, FragmentUniforms, Rgba, TexelRequest,
};
use pica::regs::layouts::{
    TexEnvAlphaOperand as AOp, TexEnvCombine, TexEnvCombinerReg, TexEnvOperandReg, TexEnvRgbOperand as ROp,
    TexEnvScale, TexEnvScaleReg, TexEnvSource, TexEnvSourceReg,
};
use pica::state::GpuState;

pub const TEXENV: [usize; 6] = [0x0C0, 0x0C8, 0x0D0, 0x0D8, 0x0F0, 0x0F8];

/// One stage as register fields.
#[derive(Clone, Copy)]
pub struct Stage {
    pub rgb_source: [TexEnvSource; 3],
    pub alpha_source: [TexEnvSource; 3],
    pub rgb_operand: [ROp; 3],
    pub alpha_operand: [AOp; 3],
    pub rgb_combine: TexEnvCombine,
    pub alpha_combine: TexEnvCombine,
    pub rgb_scale: TexEnvScale,
    pub alpha_scale: TexEnvScale,
    pub constant: Rgba,
}

impl Stage {
    /// RGB and alpha replaced by `src`.
    pub fn replace(src: TexEnvSource) -> Stage {
        Stage {
            rgb_source: [src, TexEnvSource::Constant, TexEnvSource::Constant],
            alpha_source: [src, TexEnvSource::Constant, TexEnvSource::Constant],
            rgb_operand: [ROp::SrcColor; 3],
            alpha_operand: [AOp::SrcAlpha; 3],
            rgb_combine: TexEnvCombine::Replace,
            alpha_combine: TexEnvCombine::Replace,
            rgb_scale: TexEnvScale::X1,
            alpha_scale: TexEnvScale::X1,
            constant: [0; 4],
        }
    }

    pub fn pass() -> Stage {
        Stage::replace(TexEnvSource::Previous)
    }

    pub fn constant(c: Rgba) -> Stage {
        Stage { constant: c, ..Stage::replace(TexEnvSource::Constant) }
    }

    /// Both combiners `op` over the same three sources.
    pub fn op(op: TexEnvCombine, src: [TexEnvSource; 3]) -> Stage {
        Stage { rgb_source: src, alpha_source: src, rgb_combine: op, alpha_combine: op, ..Stage::pass() }
    }

    pub fn write(&self, regs: &mut [u32], i: usize) {
        let b = TEXENV[i];
        regs[b] = TexEnvSourceReg {
            rgb0: self.rgb_source[0],
            rgb1: self.rgb_source[1],
            rgb2: self.rgb_source[2],
            alpha0: self.alpha_source[0],
            alpha1: self.alpha_source[1],
            alpha2: self.alpha_source[2],
            unknown: 0,
        }
        .encode();
        regs[b + 1] = TexEnvOperandReg {
            rgb0: self.rgb_operand[0],
            rgb1: self.rgb_operand[1],
            rgb2: self.rgb_operand[2],
            alpha0: self.alpha_operand[0],
            alpha1: self.alpha_operand[1],
            alpha2: self.alpha_operand[2],
            unknown: 0,
        }
        .encode();
        regs[b + 2] = TexEnvCombinerReg { rgb: self.rgb_combine, alpha: self.alpha_combine, unknown: 0 }.encode();
        regs[b + 3] = u32::from_le_bytes(self.constant);
        regs[b + 4] = TexEnvScaleReg { rgb: self.rgb_scale, alpha: self.alpha_scale, unknown: 0 }.encode();
    }
}

/// A state with Z-buffering and six pass-through stages.
pub fn state() -> GpuState {
    let mut s = GpuState::new();
    s.regs[0x06D] = 1;
    for i in 0..6 {
        Stage::pass().write(&mut s.regs, i);
    }
    s
}

/// A state whose stage 0 is `first`, the rest passing through.
pub fn one_stage(first: Stage) -> GpuState {
    let mut s = state();
    first.write(&mut s.regs, 0);
    s
}

/// Depth scale and offset so that the depth equals `z_over_w` (scale 1.0, offset 0).
pub fn identity_depth(s: &mut GpuState) {
    s.regs[0x04D] = 0x3F0000; // f24 1.0
    s.regs[0x04E] = 0;
}

pub fn inputs(color: [f32; 4]) -> FragmentInputs {
    FragmentInputs { color, w: 1.0, texcoord0_w: 1.0, ..Default::default() }
}

/// A texel source answering every request with `texel`.
pub fn flat(texel: Rgba) -> impl FnMut(TexelRequest) -> Rgba {
    move |_| texel
}

pub fn trace(s: &GpuState, inputs: &FragmentInputs, sampler: &mut impl FnMut(TexelRequest) -> Rgba) -> FragmentTrace {
    fixed::trace(&FragmentKey::from_state(s), &FragmentUniforms::from_state(s), inputs, sampler)
}

pub fn run(s: &GpuState, inputs: &FragmentInputs, sampler: &mut impl FnMut(TexelRequest) -> Rgba) -> FragmentResult {
    fixed::run_state(s, inputs, sampler)
}

/// The colour of a fragment that reaches the output merger.
pub fn color(r: FragmentResult) -> Rgba {
    match r {
        FragmentResult::Color { rgba, .. } => rgba,
        other => panic!("expected a colour, got {other:?}"),
    }
}

//! Step 5: the six TexEnv stages on bytes (facts 2): sources, operands, combine functions,
//! scales and the combiner buffer that lags one stage. Every function here is integer-exact.

use crate::regs::layouts::{TexEnvAlphaOperand, TexEnvCombine, TexEnvRgbOperand, TexEnvSource};

use super::decisions;
use super::key::{BufferWrites, TexEnvStageKey};
use super::Rgba;

/// The per-fragment values the sources read, the same for every stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StageInputs {
    /// Source 0: the interpolated primary colour, rounded to bytes (decision D5).
    pub primary: Rgba,
    /// Sources 1 and 2: fragment lighting's primary and secondary colours.
    pub fragment_primary: Rgba,
    pub fragment_secondary: Rgba,
    /// Sources 3-6: texture units 0-3 (3 = procedural texture).
    pub texture: [Rgba; 4],
}

/// The value a source gives stage `stage`, whose constant is `constant`, with `previous` and
/// `buffer` the stage's view of the previous output and the combiner buffer.
pub fn source_value(src: TexEnvSource, inputs: &StageInputs, constant: Rgba, previous: Rgba, buffer: Rgba) -> Rgba {
    use TexEnvSource::*;
    match src {
        PrimaryColor => inputs.primary,
        FragmentPrimaryColor => inputs.fragment_primary,
        FragmentSecondaryColor => inputs.fragment_secondary,
        Texture0 => inputs.texture[0],
        Texture1 => inputs.texture[1],
        Texture2 => inputs.texture[2],
        Texture3 => inputs.texture[3],
        PreviousBuffer => buffer,
        Constant => constant,
        Previous => previous,
        Other(_) => decisions::UNDEFINED_SOURCE,
    }
}

/// An RGB operand applied to a source value (facts 2.4).
pub fn rgb_operand(op: TexEnvRgbOperand, s: Rgba) -> [u8; 3] {
    use TexEnvRgbOperand::*;
    let splat = |x: u8| [x; 3];
    match op {
        SrcColor => [s[0], s[1], s[2]],
        OneMinusSrcColor => [255 - s[0], 255 - s[1], 255 - s[2]],
        SrcAlpha => splat(s[3]),
        OneMinusSrcAlpha => splat(255 - s[3]),
        SrcRed => splat(s[0]),
        OneMinusSrcRed => splat(255 - s[0]),
        SrcGreen => splat(s[1]),
        OneMinusSrcGreen => splat(255 - s[1]),
        SrcBlue => splat(s[2]),
        OneMinusSrcBlue => splat(255 - s[2]),
        Other(_) => decisions::UNDEFINED_RGB_OPERAND,
    }
}

/// An alpha operand applied to a source value (facts 2.4).
pub fn alpha_operand(op: TexEnvAlphaOperand, s: Rgba) -> u8 {
    use TexEnvAlphaOperand::*;
    match op {
        SrcAlpha => s[3],
        OneMinusSrcAlpha => 255 - s[3],
        SrcRed => s[0],
        OneMinusSrcRed => 255 - s[0],
        SrcGreen => s[1],
        OneMinusSrcGreen => 255 - s[1],
        SrcBlue => s[2],
        OneMinusSrcBlue => 255 - s[2],
        Other(_) => 0,
    }
}

/// One channel of a combine function other than Dot3 (facts 2.5, decision D1).
pub fn combine_channel(op: TexEnvCombine, a: u8, b: u8, c: u8) -> u8 {
    use TexEnvCombine::*;
    let (a, b, c) = (u32::from(a), u32::from(b), u32::from(c));
    let v = match op {
        Replace => a,
        Modulate => decisions::div255(a * b),
        Add => (a + b).min(255),
        AddSigned => (a as i32 + b as i32 - decisions::ADD_SIGNED_BIAS).clamp(0, 255) as u32,
        Interpolate => decisions::div255(a * c + b * (255 - c)),
        Subtract => a.saturating_sub(b),
        MultiplyAdd => decisions::div255(a * b + 255 * c).min(255),
        AddMultiply => decisions::div255((a + b).min(255) * c),
        Dot3Rgb | Dot3Rgba | Other(_) => u32::from(decisions::UNDEFINED_COMBINE),
    };
    v as u8
}

/// The RGB combine (Dot3 included, facts 2.6).
pub fn combine_rgb(op: TexEnvCombine, a: [u8; 3], b: [u8; 3], c: [u8; 3]) -> [u8; 3] {
    match op {
        TexEnvCombine::Dot3Rgb | TexEnvCombine::Dot3Rgba => [decisions::dot3(a, b); 3],
        _ => std::array::from_fn(|i| combine_channel(op, a[i], b[i], c[i])),
    }
}

/// The alpha combine; Dot3 as an alpha combine gives 0 (decision D4c).
pub fn combine_alpha(op: TexEnvCombine, a: u8, b: u8, c: u8) -> u8 {
    combine_channel(op, a, b, c)
}

/// `min(255, v * 2^scale)` (facts 2.7, decision D4d).
pub fn scale(v: u8, shift: u32) -> u8 {
    (u32::from(v) << shift).min(255) as u8
}

/// One stage. `previous` and `buffer` are as the stage sees them.
pub fn stage(
    index: usize,
    key: &TexEnvStageKey,
    inputs: &StageInputs,
    constant: Rgba,
    previous: Rgba,
    buffer: Rgba,
) -> Rgba {
    let value = |s| source_value(s, inputs, constant, previous, buffer);
    let rgb_in: [[u8; 3]; 3] = std::array::from_fn(|slot| {
        let mut src = key.rgb_source[slot];
        if decisions::stage0_substitutes_rgb(index, slot) && src == TexEnvSource::Previous {
            src = key.rgb_source[2];
        }
        rgb_operand(key.rgb_operand[slot], value(src))
    });
    let rgb = combine_rgb(key.rgb_combine, rgb_in[0], rgb_in[1], rgb_in[2]);
    let alpha = if key.rgb_combine == TexEnvCombine::Dot3Rgba {
        // Dot3 RGBA writes the dot product to alpha and ignores the alpha combiner (HW,
        // citra#2671); the alpha scale still applies (facts 2.7).
        rgb[0]
    } else {
        let a: [u8; 3] =
            std::array::from_fn(|slot| alpha_operand(key.alpha_operand[slot], value(key.alpha_source[slot])));
        combine_alpha(key.alpha_combine, a[0], a[1], a[2])
    };
    let rs = decisions::scale_shift(key.rgb_scale);
    let as_ = decisions::scale_shift(key.alpha_scale);
    [scale(rgb[0], rs), scale(rgb[1], rs), scale(rgb[2], rs), scale(alpha, as_)]
}

/// All six stages; returns each stage's output (the last is the combiner result).
///
/// The buffer (facts 2.3, HW citra#1261): stage 0 sees [`decisions::STAGE0_BUFFER`], stage 1
/// TEXENV_BUFFER_COLOR, stage k >= 2 the buffer after stages 0..k-2 wrote it.
pub fn run(
    stages: &[TexEnvStageKey; 6],
    writes: &BufferWrites,
    constants: &[Rgba; 6],
    buffer_color: Rgba,
    inputs: &StageInputs,
) -> [Rgba; 6] {
    let mut out = [[0u8; 4]; 6];
    let mut previous = decisions::STAGE0_PREVIOUS;
    let mut buffer = decisions::STAGE0_BUFFER;
    let mut next = buffer_color;
    for i in 0..6 {
        let o = stage(i, &stages[i], inputs, constants[i], previous, buffer);
        buffer = next;
        if i < 4 {
            if writes.rgb[i] {
                next[..3].copy_from_slice(&o[..3]);
            }
            if writes.alpha[i] {
                next[3] = o[3];
            }
        }
        previous = o;
        out[i] = o;
    }
    out
}

//! Step 5: the six TexEnv stages in i32 arithmetic on bytes, exactly as `pica::fixed::texenv`
//! (sources, operands, combine functions with decision D1's truncating division by 255, Dot3
//! by decision D2b, scales, and the combiner buffer that lags one stage).

use naga::{BinaryOperator as Op, MathFunction};
use pica::fixed::key::{combine_arity, TexEnvStageKey};
use pica::fixed::{decisions, Rgba};
use pica::regs::layouts::{TexEnvAlphaOperand, TexEnvCombine, TexEnvRgbOperand, TexEnvSource};

use super::gen::{member, Gen, H};

/// The texture unit a source reads (3 = the procedural texture).
pub(super) fn texture_unit(s: TexEnvSource) -> Option<usize> {
    match s {
        TexEnvSource::Texture0 => Some(0),
        TexEnvSource::Texture1 => Some(1),
        TexEnvSource::Texture2 => Some(2),
        TexEnvSource::Texture3 => Some(3),
        _ => None,
    }
}

/// The RGB source of `slot` as stage `index` reads it (decision D3c).
fn rgb_source(index: usize, st: &TexEnvStageKey, slot: usize) -> TexEnvSource {
    let s = st.rgb_source[slot];
    if decisions::stage0_substitutes_rgb(index, slot) && s == TexEnvSource::Previous {
        st.rgb_source[2]
    } else {
        s
    }
}

/// Whether the alpha combiner's output is used and reads its inputs.
fn alpha_reads(st: &TexEnvStageKey) -> usize {
    match st.alpha_combine {
        _ if st.rgb_combine == TexEnvCombine::Dot3Rgba => 0,
        // Decision D4c: Dot3 as the alpha combine gives 0.
        TexEnvCombine::Dot3Rgb | TexEnvCombine::Dot3Rgba => 0,
        c => combine_arity(c),
    }
}

/// Every source stage `index` reads (the inputs its combine functions use).
pub(super) fn sources_read(index: usize, st: &TexEnvStageKey) -> Vec<TexEnvSource> {
    let mut v: Vec<TexEnvSource> = (0..combine_arity(st.rgb_combine)).map(|k| rgb_source(index, st, k)).collect();
    v.extend(&st.alpha_source[..alpha_reads(st)]);
    v
}

fn bytes(c: Rgba) -> [u8; 4] {
    c
}

/// What the stage sees as "previous" and "previous buffer".
struct View {
    previous: H,
    buffer: H,
}

impl Gen<'_> {
    /// All six stages on the primary colour's bytes; returns the combiner output (`vec4<i32>`).
    pub(super) fn texenv(&mut self, primary: H) -> H {
        let key = self.key;
        // Lighting may read unit 3 (its bump or shadow unit): the combiners share that value.
        let mut procedural = None;
        let (frag_primary, frag_secondary) = self.lighting(&mut procedural);
        let reads_buffer = key
            .texenv
            .iter()
            .enumerate()
            .any(|(i, st)| i >= 1 && sources_read(i, st).contains(&TexEnvSource::PreviousBuffer));
        let stage0_previous = self.int4(bytes(decisions::STAGE0_PREVIOUS));
        let stage0_buffer = self.int4(bytes(decisions::STAGE0_BUFFER));
        let mut previous = stage0_previous;
        let mut buffer = stage0_buffer;
        let mut next = if reads_buffer { Some(self.uniform(member::BUFFER_COLOR, 0)) } else { None };
        for (i, st) in key.texenv.iter().enumerate() {
            let view = View { previous, buffer };
            let sources = Sources { primary, frag_primary, frag_secondary };
            let o = self.stage(i, st, &view, &sources, &mut procedural);
            if let Some(n) = next {
                buffer = n;
                if i < 4 {
                    let (w_rgb, w_a) = (key.buffer_writes.rgb[i], key.buffer_writes.alpha[i]);
                    let rgb = if w_rgb { self.swz(o, &[0, 1, 2]) } else { self.swz(n, &[0, 1, 2]) };
                    let a = if w_a { self.comp(o, 3) } else { self.comp(n, 3) };
                    next = Some(if w_rgb && w_a {
                        o
                    } else if !w_rgb && !w_a {
                        n
                    } else {
                        self.ivec(4, vec![rgb, a])
                    });
                }
            }
            previous = o;
        }
        previous
    }

    /// `texenv::source_value`.
    fn source(&mut self, s: TexEnvSource, index: usize, view: &View, src: &Sources, procedural: &mut Option<H>) -> H {
        use TexEnvSource::*;
        match s {
            PrimaryColor => src.primary,
            FragmentPrimaryColor => src.frag_primary,
            FragmentSecondaryColor => src.frag_secondary,
            Texture0 => self.unit(0),
            Texture1 => self.unit(1),
            Texture2 => self.unit(2),
            Texture3 => *procedural.get_or_insert_with(|| self.procedural_texture()),
            PreviousBuffer => view.buffer,
            Constant => self.uniform(member::TEXENV_CONSTANT, index as u32),
            Previous => view.previous,
            Other(_) => self.int4(bytes(decisions::UNDEFINED_SOURCE)),
        }
    }

    /// `texenv::rgb_operand`: a `vec3<i32>`.
    fn rgb_operand(&mut self, op: TexEnvRgbOperand, s: H) -> H {
        use TexEnvRgbOperand::*;
        let (pattern, invert): ([usize; 3], bool) = match op {
            SrcColor => ([0, 1, 2], false),
            OneMinusSrcColor => ([0, 1, 2], true),
            SrcAlpha => ([3; 3], false),
            OneMinusSrcAlpha => ([3; 3], true),
            SrcRed => ([0; 3], false),
            OneMinusSrcRed => ([0; 3], true),
            SrcGreen => ([1; 3], false),
            OneMinusSrcGreen => ([1; 3], true),
            SrcBlue => ([2; 3], false),
            OneMinusSrcBlue => ([2; 3], true),
            Other(_) => {
                let u = decisions::UNDEFINED_RGB_OPERAND.map(i32::from);
                let parts = u.iter().map(|&x| self.int(1, x)).collect();
                return self.ivec(3, parts);
            }
        };
        let v = self.swz(s, &pattern);
        if invert {
            let k = self.int(3, 255);
            self.bin(Op::Subtract, k, v)
        } else {
            v
        }
    }

    /// `texenv::alpha_operand`: an i32.
    fn alpha_operand(&mut self, op: TexEnvAlphaOperand, s: H) -> H {
        use TexEnvAlphaOperand::*;
        let (c, invert) = match op {
            SrcAlpha => (3, false),
            OneMinusSrcAlpha => (3, true),
            SrcRed => (0, false),
            OneMinusSrcRed => (0, true),
            SrcGreen => (1, false),
            OneMinusSrcGreen => (1, true),
            SrcBlue => (2, false),
            OneMinusSrcBlue => (2, true),
            Other(_) => return self.int(1, 0),
        };
        let v = self.comp(s, c);
        if invert {
            let k = self.int(1, 255);
            self.bin(Op::Subtract, k, v)
        } else {
            v
        }
    }

    /// `texenv::combine_channel` on `n` lanes (1 or 3).
    fn combine(&mut self, n: usize, op: TexEnvCombine, a: H, b: Option<H>, c: Option<H>) -> H {
        use TexEnvCombine::*;
        let (b, c) = (|| b.expect("a second input"), || c.expect("a third input"));
        let k255 = self.int(n, 255);
        let div = |g: &mut Self, x: H| {
            // Decision D1 (`decisions::div255`): exact division, truncated (x >= 0).
            let k = g.int(n, 255);
            g.bin(Op::Divide, x, k)
        };
        match op {
            Replace => a,
            Modulate => {
                let p = self.bin(Op::Multiply, a, b());
                div(self, p)
            }
            Add => {
                let s = self.bin(Op::Add, a, b());
                self.min(s, k255)
            }
            AddSigned => {
                let s = self.bin(Op::Add, a, b());
                let bias = self.int(n, decisions::ADD_SIGNED_BIAS);
                let s = self.bin(Op::Subtract, s, bias);
                let zero = self.int(n, 0);
                self.clamp(s, zero, k255)
            }
            Interpolate => {
                let ac = self.bin(Op::Multiply, a, c());
                let inv = self.bin(Op::Subtract, k255, c());
                let bc = self.bin(Op::Multiply, b(), inv);
                let s = self.bin(Op::Add, ac, bc);
                div(self, s)
            }
            Subtract => {
                let d = self.bin(Op::Subtract, a, b());
                let zero = self.int(n, 0);
                self.max(d, zero)
            }
            MultiplyAdd => {
                let p = self.bin(Op::Multiply, a, b());
                let q = self.bin(Op::Multiply, k255, c());
                let s = self.bin(Op::Add, p, q);
                let d = div(self, s);
                self.min(d, k255)
            }
            AddMultiply => {
                let s = self.bin(Op::Add, a, b());
                let s = self.min(s, k255);
                let p = self.bin(Op::Multiply, s, c());
                div(self, p)
            }
            Dot3Rgb | Dot3Rgba | Other(_) => self.int(n, i32::from(decisions::UNDEFINED_COMBINE)),
        }
    }

    /// Decision D2b: `clamp8(sum of ((2a - 255)(2b - 255)) >> 8)` over R, G, B, as an i32.
    fn dot3(&mut self, a: H, b: H) -> H {
        let (two, k255) = (self.int(3, 2), self.int(3, 255));
        let x = self.bin(Op::Multiply, a, two);
        let x = self.bin(Op::Subtract, x, k255);
        let y = self.bin(Op::Multiply, b, two);
        let y = self.bin(Op::Subtract, y, k255);
        let p = self.bin(Op::Multiply, x, y);
        let eight = self.uint(8);
        let eight = self.splat(3, eight);
        let p = self.bin(Op::ShiftRight, p, eight);
        let (p0, p1, p2) = (self.comp(p, 0), self.comp(p, 1), self.comp(p, 2));
        let s = self.bin(Op::Add, p0, p1);
        let s = self.bin(Op::Add, s, p2);
        let (zero, k) = (self.int(1, 0), self.int(1, 255));
        self.fb.math3(MathFunction::Clamp, s, zero, k)
    }

    /// `min(255, v << shift)` on `n` lanes.
    fn scale(&mut self, n: usize, v: H, shift: u32) -> H {
        if shift == 0 {
            return v;
        }
        let s = self.uint(shift);
        let s = if n == 1 { s } else { self.splat(3, s) };
        let x = self.bin(Op::ShiftLeft, v, s);
        let k = self.int(n, 255);
        self.min(x, k)
    }

    /// `texenv::stage`.
    fn stage(&mut self, i: usize, st: &TexEnvStageKey, view: &View, src: &Sources, proc_: &mut Option<H>) -> H {
        let n_rgb = combine_arity(st.rgb_combine);
        let dot3 = matches!(st.rgb_combine, TexEnvCombine::Dot3Rgb | TexEnvCombine::Dot3Rgba);
        let mut rgb_in = Vec::new();
        for slot in 0..n_rgb {
            let v = self.source(rgb_source(i, st, slot), i, view, src, proc_);
            rgb_in.push(self.rgb_operand(st.rgb_operand[slot], v));
        }
        let rgb = if dot3 {
            let d = self.dot3(rgb_in[0], rgb_in[1]);
            self.splat(3, d)
        } else if n_rgb == 0 {
            // Decision D4c.
            self.int(3, i32::from(decisions::UNDEFINED_COMBINE))
        } else {
            self.combine(3, st.rgb_combine, rgb_in[0], rgb_in.get(1).copied(), rgb_in.get(2).copied())
        };
        let alpha = if st.rgb_combine == TexEnvCombine::Dot3Rgba {
            // Dot3 RGBA writes the dot product to alpha (facts 2.6); the alpha scale applies.
            self.comp(rgb, 0)
        } else {
            let n = alpha_reads(st);
            if n == 0 {
                // Decision D4c: the combine values that read nothing give 0.
                self.int(1, i32::from(decisions::UNDEFINED_COMBINE))
            } else {
                let mut a = Vec::new();
                for slot in 0..n {
                    let v = self.source(st.alpha_source[slot], i, view, src, proc_);
                    a.push(self.alpha_operand(st.alpha_operand[slot], v));
                }
                self.combine(1, st.alpha_combine, a[0], a.get(1).copied(), a.get(2).copied())
            }
        };
        let rgb = self.scale(3, rgb, decisions::scale_shift(st.rgb_scale));
        let alpha = self.scale(1, alpha, decisions::scale_shift(st.alpha_scale));
        self.ivec(4, vec![rgb, alpha])
    }
}

/// The sources that are the same for every stage.
struct Sources {
    primary: H,
    frag_primary: H,
    frag_secondary: H,
}

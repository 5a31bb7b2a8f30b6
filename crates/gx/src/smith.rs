//! Random valid TEV states and pixels from an `arbitrary::Unstructured` byte source, in the
//! manner of wasm-smith: the same generator serves proptest properties and coverage-guided
//! fuzzers, and the shader translation's differential tests.
//!
//! "Valid" means what a real material can hold: counts within the hardware limits, texture
//! map and coordinate indices below the texgen count, ras colour codes 0, 1, 5, 6 or 7,
//! indirect stages below the indirect count, matrix types 0-2 and wraps 0-6.

use arbitrary::{Result, Unstructured};

use crate::bp::BpRegs;
use crate::regs::*;
use crate::tev::PixelInputs;
use crate::TevState;

/// Knobs of the generator.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Most TEV stages (1..=16).
    pub max_stages: u8,
    /// Most indirect stages (0..=4).
    pub max_ind_stages: u8,
    /// Whether compare-mode combiners (bias 3) are generated.
    pub compare: bool,
    /// Whether stages get indirect settings.
    pub indirect: bool,
    /// Whether the steps after the TEV are set (fog, z texture, pixel format, dither,
    /// constant alpha); when not, they stay off.
    pub post: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self { max_stages: 16, max_ind_stages: 4, compare: true, indirect: true, post: true }
    }
}

/// A fog float (A or C) with its exponent in `exponents`, now and then 0 (zero) or 255
/// (inf / NaN, the special case of more-facts §3.3).
fn fog_float(u: &mut Unstructured, exponents: std::ops::RangeInclusive<u8>) -> Result<(u16, u8, bool)> {
    let exponent = match upto(u, 15)? {
        0 => 0,
        1 => 255,
        _ => u.int_in_range(exponents)?,
    };
    Ok((u.int_in_range(0..=0x7FF)?, exponent, u.arbitrary()?))
}

/// BP writes of the steps after the TEV: fog (with exponents chosen so that the fog factor
/// often lands between 0 and 1), range adjustment, z texture, pixel format, dither and
/// constant alpha.
fn post_writes(u: &mut Unstructured, w: &mut Vec<(u8, u32)>) -> Result<()> {
    let proj = upto(u, 1)?;
    let a = fog_float(u, if proj == 0 { 100..=127 } else { 115..=131 })?;
    let c = fog_float(u, 110..=135)?;
    w.push((addr::FOG_A, FogA { mantissa: a.0, exponent: a.1, sign: a.2 }.encode()));
    w.push((addr::FOG_B_MAG, FogBMagnitude { magnitude: u.int_in_range(0..=0xFF_FFFF)? }.encode()));
    w.push((addr::FOG_B_SHIFT, FogBShift { shift: upto(u, 24)? }.encode()));
    // Fog and the z texture are each on in about a quarter of the states: every setting stays
    // common (over a thousand keys each in the device check's 5,000) while the average shader,
    // and so its driver compile, stays small (fog with range adjustment is the costly part).
    let fsel = if upto(u, 3)? != 0 { 0 } else { u.int_in_range(1..=7)? };
    let fc = FogC { mantissa: c.0, exponent: c.1, sign: c.2, proj, fsel };
    w.push((addr::FOG_C, fc.encode()));
    w.push((addr::FOG_COLOR, FogColor { b: u.arbitrary()?, g: u.arbitrary()?, r: u.arbitrary()? }.encode()));
    w.push((addr::FOG_RANGE, FogRange { center: u.int_in_range(0..=1023)?, enable: u.arbitrary()? }.encode()));
    for j in 0..5u8 {
        let k = FogRangeK { lo: u.int_in_range(0..=0xFFF)?, hi: u.int_in_range(0..=0xFFF)? };
        w.push((addr::FOG_RANGE_K + j, k.encode()));
    }
    w.push((addr::ZTEX_BIAS, ZTexBias { bias: u.int_in_range(0..=0xFF_FFFF)? }.encode()));
    let op = if upto(u, 3)? != 0 { 0 } else { u.int_in_range(1..=3)? };
    w.push((addr::ZTEX2, ZTex2 { kind: upto(u, 3)?, op }.encode()));
    let pe = PeControl { pixel_format: *u.choose(&[0u8, 1, 1, 2])?, zformat: 0, early_ztest: u.arbitrary()? };
    w.push((addr::PE_CONTROL, pe.encode()));
    let blend = BlendMode { dither: u.arbitrary()?, colorupd: true, alphaupd: true, ..Default::default() };
    w.push((addr::BLEND_MODE, blend.encode()));
    w.push((addr::CONST_ALPHA, ConstAlpha { alpha: u.arbitrary()?, enable: u.arbitrary()? }.encode()));
    Ok(())
}

fn upto(u: &mut Unstructured, max: u8) -> Result<u8> {
    u.int_in_range(0..=max)
}

fn s11(u: &mut Unstructured) -> Result<i16> {
    u.int_in_range(-1024..=1023)
}

/// A list of BP writes that sets up a whole valid material (genMode first).
///
/// # Errors
/// Only `arbitrary`'s own (never for an exhausted source: it then yields zeros).
pub fn bp_writes(u: &mut Unstructured, cfg: &Config) -> Result<Vec<(u8, u32)>> {
    let stages = u.int_in_range(1..=cfg.max_stages.clamp(1, 16))?;
    let texgens = u.int_in_range(0..=8u8)?;
    let ind_stages = if cfg.indirect { upto(u, cfg.max_ind_stages.min(4))? } else { 0 };
    let idx = |u: &mut Unstructured| -> Result<u8> {
        if texgens == 0 {
            Ok(0)
        } else {
            u.int_in_range(0..=texgens - 1)
        }
    };
    let mut w = vec![(
        addr::GEN_MODE,
        GenMode {
            num_texgens: texgens,
            num_colchans: upto(u, 2)?,
            num_tevstages_minus_1: stages - 1,
            cull_mode: upto(u, 3)?,
            num_indstages: ind_stages,
        }
        .encode(),
    )];
    for n in 0..4u8 {
        let (ra, bg) =
            (TevRegRa { r: s11(u)?, a: s11(u)?, konst: false }, TevRegBg { b: s11(u)?, g: s11(u)?, konst: false });
        w.push((addr::TEV_REG + 2 * n, ra.encode()));
        w.push((addr::TEV_REG + 2 * n + 1, bg.encode()));
        let (ka, kb) = (
            TevRegRa { r: u.int_in_range(0..=255)?, a: u.int_in_range(0..=255)?, konst: true },
            TevRegBg { b: u.int_in_range(0..=255)?, g: u.int_in_range(0..=255)?, konst: true },
        );
        w.push((addr::TEV_REG + 2 * n, ka.encode()));
        w.push((addr::TEV_REG + 2 * n + 1, kb.encode()));
    }
    for k in 0..8u8 {
        let ksel = TevKSel {
            swap1: upto(u, 3)?,
            swap2: upto(u, 3)?,
            kcsel0: upto(u, 31)?,
            kasel0: upto(u, 31)?,
            kcsel1: upto(u, 31)?,
            kasel1: upto(u, 31)?,
        };
        w.push((addr::TEV_KSEL + k, ksel.encode()));
    }
    let chan = |u: &mut Unstructured| -> Result<u8> { Ok(*u.choose(&[0u8, 1, 5, 6, 7])?) };
    for k in 0..stages.div_ceil(2) {
        let o = TwoTevStageOrders {
            texmap0: upto(u, 7)?,
            texcoord0: idx(u)?,
            enable0: u.arbitrary()?,
            colorchan0: chan(u)?,
            texmap1: upto(u, 7)?,
            texcoord1: idx(u)?,
            enable1: u.arbitrary()?,
            colorchan1: chan(u)?,
        };
        w.push((addr::TEV_ORDER + k, o.encode()));
    }
    let max_bias = if cfg.compare { 3 } else { 2 };
    for i in 0..stages {
        let c = ColorCombiner {
            a: upto(u, 15)?,
            b: upto(u, 15)?,
            c: upto(u, 15)?,
            d: upto(u, 15)?,
            bias: upto(u, max_bias)?,
            op: upto(u, 1)?,
            clamp: u.arbitrary()?,
            scale: upto(u, 3)?,
            dest: upto(u, 3)?,
        };
        let a = AlphaCombiner {
            rswap: upto(u, 3)?,
            tswap: upto(u, 3)?,
            a: upto(u, 7)?,
            b: upto(u, 7)?,
            c: upto(u, 7)?,
            d: upto(u, 7)?,
            bias: upto(u, max_bias)?,
            op: upto(u, 1)?,
            clamp: u.arbitrary()?,
            scale: upto(u, 3)?,
            dest: upto(u, 3)?,
        };
        w.push((addr::TEV_COLOR_ENV + 2 * i, c.encode()));
        w.push((addr::TEV_COLOR_ENV + 2 * i + 1, a.encode()));
        if cfg.indirect && ind_stages > 0 {
            let t = TevStageIndirect {
                bt: u.int_in_range(0..=ind_stages - 1)?,
                fmt: upto(u, 3)?,
                bias: upto(u, 7)?,
                bs: upto(u, 3)?,
                mtx_index: upto(u, 3)?,
                mtx_id: upto(u, 2)?,
                sw: upto(u, 6)?,
                tw: upto(u, 6)?,
                lb_utclod: u.arbitrary()?,
                fb_addprev: u.arbitrary()?,
            };
            w.push((addr::TEV_IND + i, t.encode()));
        }
    }
    if ind_stages > 0 {
        for k in 0..3u8 {
            let col = |u: &mut Unstructured| -> Result<IndMtxAB> {
                Ok(IndMtxAB { row0: s11(u)?, row1: s11(u)?, scale_bits: upto(u, 3)? })
            };
            let (a, b) = (col(u)?, col(u)?);
            let c = IndMtxC { row0: s11(u)?, row1: s11(u)?, scale_bit4: upto(u, 1)?, scale_bit5_ignored: upto(u, 1)? };
            w.push((addr::IND_MTX + 3 * k, a.encode()));
            w.push((addr::IND_MTX + 3 * k + 1, b.encode()));
            w.push((addr::IND_MTX + 3 * k + 2, c.encode()));
        }
        let iref = Ras1Iref {
            bi0: upto(u, 7)?,
            bc0: idx(u)?,
            bi1: upto(u, 7)?,
            bc1: idx(u)?,
            bi2: upto(u, 7)?,
            bc2: idx(u)?,
            bi3: upto(u, 7)?,
            bc3: idx(u)?,
        };
        w.push((addr::RAS1_IREF, iref.encode()));
        for k in 0..2u8 {
            let ss = Ras1Ss { ss0: upto(u, 8)?, ts0: upto(u, 8)?, ss1: upto(u, 8)?, ts1: upto(u, 8)? };
            w.push((addr::RAS1_SS0 + k, ss.encode()));
        }
    }
    let at = AlphaTest {
        ref0: u.arbitrary()?,
        ref1: u.arbitrary()?,
        comp0: upto(u, 7)?,
        comp1: upto(u, 7)?,
        logic: upto(u, 3)?,
    };
    w.push((addr::ALPHA_TEST, at.encode()));
    if cfg.post {
        post_writes(u, &mut w)?;
    }
    Ok(w)
}

/// A valid state (see [`bp_writes`]).
///
/// # Errors
/// As [`bp_writes`].
pub fn state(u: &mut Unstructured, cfg: &Config) -> Result<TevState> {
    let mut regs = BpRegs::new();
    for (a, v) in bp_writes(u, cfg)? {
        regs.write(a, v);
    }
    let mut state = regs.state();
    if cfg.post {
        // The viewport half-width is XF state, not a BP register: chosen here.
        state.fog.viewport_half_width = u.int_in_range(1..=640)?;
    }
    Ok(state)
}

/// Random per-pixel inputs for a state of `stages` stages; coordinates are s17.7 values of up
/// to +-2^20 (8192 texels), depth any 24-bit value, position up to 1023 a side.
///
/// # Errors
/// Only `arbitrary`'s own.
pub fn pixel(u: &mut Unstructured, stages: usize) -> Result<PixelInputs> {
    let mut p = PixelInputs { tex: (0..stages).map(|_| u.arbitrary()).collect::<Result<_>>()?, ..Default::default() };
    p.ras = u.arbitrary()?;
    p.ind_tex = u.arbitrary()?;
    for c in &mut p.texcoords {
        *c = [u.int_in_range(-(1 << 20)..=(1 << 20))?, u.int_in_range(-(1 << 20)..=(1 << 20))?];
    }
    p.z = u.int_in_range(0..=0xFF_FFFF)?;
    p.pos = [u.int_in_range(0..=1023)?, u.int_in_range(0..=1023)?];
    Ok(p)
}

//! Hollywood TEV materials: the key as a plain struct (what changes the code; register values
//! are uniforms: docs/abi.md "Hollywood TEV"), made from the BP registers or filled by the host.

use gx::key::{AlphaTestKey, CombinerKey, IndStageKey, PostKey, StageIndKey, StageKey, TevKey};
use translate::gx_tev::{compile, Options, UNIFORM_SIZE};

use crate::cache::SpCache;
use crate::error::{guard, Failure, SpError};
use crate::ffi;
use crate::options::SpOptions;
use crate::output::{translate_call, SpInterface, SpOutput, ENTRY_POINT, SP_FLOW_NONE, SP_STAGE_FRAGMENT};

/// Most TEV stages.
pub const SP_TEV_MAX_STAGES: usize = 16;
/// Most indirect stages.
pub const SP_TEV_MAX_IND_STAGES: usize = 4;
/// A texture coordinate field's value for "none" (no texgens: the stage reads 0).
pub const SP_TEV_NO_TEXCOORD: u8 = 0xFF;
/// Registers of the BP block `sp_tev_key_from_bp` reads.
pub const SP_TEV_BP_REGISTERS: usize = 256;

/// One combiner (colour or alpha) of a stage.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpTevCombiner {
    /// Inputs a, b, c, d (colour 0-15, alpha 0-7).
    pub inputs: [u8; 4],
    /// Bias 0-3; 3 selects compare mode.
    pub bias: u8,
    /// 0-1: add/subtract, or the compare op.
    pub op: u8,
    /// 0-1: clamp to [0, 255].
    pub clamp: u8,
    /// Scale 0-3, or the compare width.
    pub scale: u8,
    /// Destination register 0-3.
    pub dest: u8,
}

/// The indirect settings of one stage.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpTevStageIndirect {
    /// 0-1: whether the stage's indirect stage exists; when 0 only `sw`, `tw` and `add_prev`
    /// count.
    pub active: u8,
    /// Indirect stage read, 0-3.
    pub bt: u8,
    /// Format 0-3.
    pub fmt: u8,
    /// Bias enables 0-7.
    pub bias: u8,
    /// Bump-alpha select 0-3.
    pub bs: u8,
    /// Matrix index 0-3 (0 off).
    pub mtx_index: u8,
    /// Matrix type 0-3.
    pub mtx_id: u8,
    /// Wrap of S, 0-7 (7 acts as 6).
    pub sw: u8,
    /// Wrap of T, 0-7.
    pub tw: u8,
    /// 0-1: add the previous stage's coordinate.
    pub add_prev: u8,
}

/// One TEV stage.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpTevStage {
    /// The texture coordinate read, resolved against the texgen count (below `num_texgens`), or
    /// `SP_TEV_NO_TEXCOORD` when there are no texgens.
    pub texcoord: u8,
    /// 0-1: texture enable.
    pub tex_enable: u8,
    /// Texture map 0-7.
    pub texmap: u8,
    /// Rasterized colour channel 0-7 (2-4 read zero, as 7).
    pub colorchan: u8,
    /// Colour combiner.
    pub color: SpTevCombiner,
    /// Alpha combiner.
    pub alpha: SpTevCombiner,
    /// Konst colour selector 0-31.
    pub kcsel: u8,
    /// Konst alpha selector 0-31.
    pub kasel: u8,
    /// Swap table of the rasterized colour: source channel 0-3 per R, G, B, A.
    pub ras_swap: [u8; 4],
    /// Swap table of the texel.
    pub tex_swap: [u8; 4],
    /// Indirect settings.
    pub ind: SpTevStageIndirect,
}

/// One indirect stage.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpTevIndStage {
    /// Texture map 0-7.
    pub texmap: u8,
    /// Texture coordinate, as `SpTevStage.texcoord`.
    pub texcoord: u8,
    /// Right shift of S, 0-15.
    pub ss: u8,
    /// Right shift of T, 0-15.
    pub ts: u8,
}

/// A TEV key: exactly the state that changes a material's fragment code (`gx::key::TevKey`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpTevKey {
    /// Texture coordinate generators, 0-8.
    pub num_texgens: u8,
    /// Stages used, 1-16.
    pub num_stages: u8,
    /// Indirect stages used, 0-4.
    pub num_ind_stages: u8,
    /// Alpha test: function of compare 0, 0-7.
    pub alpha_comp0: u8,
    /// Alpha test: function of compare 1, 0-7.
    pub alpha_comp1: u8,
    /// Alpha test: AND, OR, XOR, XNOR (0-3).
    pub alpha_logic: u8,
    /// Fog function as run: 0 off, 2 linear (1 and 3 read as 2), 4-7 the exponential curves.
    pub fog: u8,
    /// Orthographic fog, 0 or 1 (ignored with fog off).
    pub fog_ortho: u8,
    /// Fog range adjustment, 0 or 1 (ignored with fog off).
    pub fog_range: u8,
    /// Z-texture op: 0 off, 1 add, 2 replace (3 reads as 2).
    pub ztex_op: u8,
    /// EFB format RGBA6_Z24 (6-bit channels), 0 or 1.
    pub rgba6: u8,
    /// Dither, 0 or 1 (ignored without `rgba6`).
    pub dither: u8,
    /// Constant alpha replaces the stored alpha, 0 or 1.
    pub const_alpha: u8,
    /// The stages (the first `num_stages` count).
    pub stages: [SpTevStage; SP_TEV_MAX_STAGES],
    /// The indirect stages (the first `num_ind_stages` count).
    pub ind_stages: [SpTevIndStage; SP_TEV_MAX_IND_STAGES],
}

/// Fills `*key` from a block of `SP_TEV_BP_REGISTERS` BP registers (24-bit values, register n
/// at index n; the mask register 0xFE is not applied), as an emulator keeps them.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_tev_key_from_bp(bp: *const u32, key: *mut SpTevKey, error: *mut SpError) -> i32 {
    guard(error, || {
        // SAFETY: header contract: `bp` points to 256 words, `key` is writable.
        let bp = unsafe { ffi::slice(bp, SP_TEV_BP_REGISTERS, "bp") }?;
        let key = unsafe { ffi::out_ref(key) }.ok_or_else(|| Failure::null("key"))?;
        let mut regs = gx::BpRegs::new();
        for (address, &value) in bp.iter().enumerate() {
            if address != 0xFE {
                regs.write(address as u8, value);
            }
        }
        *key = SpTevKey::from_key(&TevKey::new(&regs.state()));
        Ok(())
    })
}

/// Translates a TEV key to a fragment shader in the target of `options` (precision is ignored:
/// the TEV math is integer-exact). Otherwise as `sp_pica_translate`.
///
/// # Safety
/// Each pointer argument is null or valid for what its documentation says, for the length
/// given, and not written by another thread during the call (docs/capi.md, "Pointers").
#[no_mangle]
pub unsafe extern "C" fn sp_tev_translate(
    key: *const SpTevKey,
    options: *const SpOptions,
    cache: *const SpCache,
    out: *mut *mut SpOutput,
    error: *mut SpError,
) -> i32 {
    // SAFETY: header contract for each pointer argument.
    unsafe {
        translate_call(error, out, options, cache, |options, cache| {
            let key = ffi::input(key, "key")?.key()?;
            let tev_options = Options { compute_wrapper: options.compute_wrapper };
            let compiled = compile(cache.map(|c| &c.cache), &key, &tev_options, options.target)?;
            let texmap_mask = compiled.texmaps.iter().enumerate().fold(0u32, |m, (k, &used)| m | (used as u32) << k);
            let interface = SpInterface {
                stage: SP_STAGE_FRAGMENT,
                entry_point: ENTRY_POINT.as_ptr(),
                input_mask: 0,
                output_mask: 0,
                position: -1,
                flow: SP_FLOW_NONE,
                texmap_mask,
                uniform_size: UNIFORM_SIZE,
                from_cache: compiled.hit as u32,
                texture_cube_mask: 0,
                uniform_block_mask: 0,
                constant_file: 0,
                fetch_buffers: 0,
            };
            Ok(SpOutput { bytes: compiled.bytes, interface })
        })
    }
}

/// Checks one field against its largest value.
pub(crate) fn field(value: u8, max: u8, name: impl FnOnce() -> String) -> Result<u8, Failure> {
    if value > max {
        return Err(Failure::invalid(format!("{} is {value}, over its largest value {max}", name())));
    }
    Ok(value)
}

/// Checks a 0-1 field.
pub(crate) fn flag(value: u8, name: impl FnOnce() -> String) -> Result<bool, Failure> {
    field(value, 1, name).map(|v| v == 1)
}

impl SpTevKey {
    /// The C struct of a key.
    pub fn from_key(k: &TevKey) -> SpTevKey {
        let tc = |t: Option<u8>| t.unwrap_or(SP_TEV_NO_TEXCOORD);
        let comb = |c: &CombinerKey| SpTevCombiner {
            inputs: c.inputs,
            bias: c.bias,
            op: c.op,
            clamp: c.clamp as u8,
            scale: c.scale,
            dest: c.dest,
        };
        let mut out = SpTevKey {
            num_texgens: k.num_texgens,
            num_stages: k.stages.len() as u8,
            num_ind_stages: k.ind.len() as u8,
            alpha_comp0: k.alpha_test.comp0,
            alpha_comp1: k.alpha_test.comp1,
            alpha_logic: k.alpha_test.logic,
            fog: k.post.fog,
            fog_ortho: k.post.fog_ortho as u8,
            fog_range: k.post.fog_range as u8,
            ztex_op: k.post.ztex_op,
            rgba6: k.post.rgba6 as u8,
            dither: k.post.dither as u8,
            const_alpha: k.post.const_alpha as u8,
            ..SpTevKey::default()
        };
        for (dst, s) in out.stages.iter_mut().zip(&k.stages) {
            let i = &s.ind;
            *dst = SpTevStage {
                texcoord: tc(s.texcoord),
                tex_enable: s.tex_enable as u8,
                texmap: s.texmap,
                colorchan: s.colorchan,
                color: comb(&s.color),
                alpha: comb(&s.alpha),
                kcsel: s.kcsel,
                kasel: s.kasel,
                ras_swap: s.ras_swap,
                tex_swap: s.tex_swap,
                ind: SpTevStageIndirect {
                    active: i.active as u8,
                    bt: i.bt,
                    fmt: i.fmt,
                    bias: i.bias,
                    bs: i.bs,
                    mtx_index: i.mtx_index,
                    mtx_id: i.mtx_id,
                    sw: i.sw,
                    tw: i.tw,
                    add_prev: i.add_prev as u8,
                },
            };
        }
        for (dst, n) in out.ind_stages.iter_mut().zip(&k.ind) {
            *dst = SpTevIndStage { texmap: n.texmap, texcoord: tc(n.texcoord), ss: n.ss, ts: n.ts };
        }
        out
    }

    /// The key, every field checked against its register width, and normalised where the
    /// hardware reads two values alike (as `TevKey::new` does): so equal materials get equal
    /// keys whichever way the host filled the struct.
    pub(crate) fn key(&self) -> Result<TevKey, Failure> {
        let num_texgens = field(self.num_texgens, 8, || "num_texgens".into())?;
        if !(1..=SP_TEV_MAX_STAGES as u8).contains(&self.num_stages) {
            return Err(Failure::invalid(format!("num_stages is {}, not 1-16", self.num_stages)));
        }
        let num_ind = field(self.num_ind_stages, SP_TEV_MAX_IND_STAGES as u8, || "num_ind_stages".into())?;
        let texcoord = |t: u8, name: &dyn Fn() -> String| -> Result<Option<u8>, Failure> {
            match (t, num_texgens) {
                (SP_TEV_NO_TEXCOORD, 0) => Ok(None),
                (t, n) if t < n => Ok(Some(t)),
                _ => Err(Failure::invalid(format!(
                    "{} is {t}: with {num_texgens} texgens it must be {}",
                    name(),
                    if num_texgens == 0 { "SP_TEV_NO_TEXCOORD".to_string() } else { format!("0-{}", num_texgens - 1) }
                ))),
            }
        };
        let comb = |c: &SpTevCombiner, input_max: u8, name: &str| -> Result<CombinerKey, Failure> {
            for (j, &v) in c.inputs.iter().enumerate() {
                field(v, input_max, || format!("{name}.inputs[{j}]"))?;
            }
            Ok(CombinerKey {
                inputs: c.inputs,
                bias: field(c.bias, 3, || format!("{name}.bias"))?,
                op: field(c.op, 1, || format!("{name}.op"))?,
                clamp: flag(c.clamp, || format!("{name}.clamp"))?,
                scale: field(c.scale, 3, || format!("{name}.scale"))?,
                dest: field(c.dest, 3, || format!("{name}.dest"))?,
            })
        };
        let swap = |t: [u8; 4], name: &str| -> Result<[u8; 4], Failure> {
            for (j, &v) in t.iter().enumerate() {
                field(v, 3, || format!("{name}[{j}]"))?;
            }
            Ok(t)
        };
        let mut stages = Vec::with_capacity(self.num_stages as usize);
        for (n, s) in self.stages[..self.num_stages as usize].iter().enumerate() {
            let at = |f: &str| format!("stages[{n}].{f}");
            let tex_enable = flag(s.tex_enable, || at("tex_enable"))?;
            let texmap = field(s.texmap, 7, || at("texmap"))?;
            let colorchan = field(s.colorchan, 7, || at("colorchan"))?;
            let i = &s.ind;
            let active = flag(i.active, || at("ind.active"))?;
            let sw = field(i.sw, 7, || at("ind.sw"))?.min(6);
            let tw = field(i.tw, 7, || at("ind.tw"))?.min(6);
            let add_prev = flag(i.add_prev, || at("ind.add_prev"))?;
            let ind = if active {
                let bt = field(i.bt, 3, || at("ind.bt"))?;
                if bt >= num_ind {
                    return Err(Failure::invalid(format!(
                        "{} is {bt} but there are {num_ind} indirect stages (set ind.active to 0)",
                        at("ind.bt")
                    )));
                }
                let mtx_index = field(i.mtx_index, 3, || at("ind.mtx_index"))?;
                let mtx_id = field(i.mtx_id, 3, || at("ind.mtx_id"))?;
                StageIndKey {
                    active,
                    bt,
                    fmt: field(i.fmt, 3, || at("ind.fmt"))?,
                    bias: field(i.bias, 7, || at("ind.bias"))?,
                    bs: field(i.bs, 3, || at("ind.bs"))?,
                    mtx_index,
                    mtx_id: if mtx_index == 0 { 0 } else { mtx_id },
                    sw,
                    tw,
                    add_prev,
                }
            } else {
                StageIndKey { sw, tw, add_prev, ..StageIndKey::default() }
            };
            stages.push(StageKey {
                texcoord: texcoord(s.texcoord, &|| at("texcoord"))?,
                tex_enable,
                texmap: if tex_enable { texmap } else { 0 },
                colorchan: if (2..=4).contains(&colorchan) { 7 } else { colorchan },
                color: comb(&s.color, 15, &at("color"))?,
                alpha: comb(&s.alpha, 7, &at("alpha"))?,
                kcsel: field(s.kcsel, 31, || at("kcsel"))?,
                kasel: field(s.kasel, 31, || at("kasel"))?,
                ras_swap: swap(s.ras_swap, &at("ras_swap"))?,
                tex_swap: if tex_enable { swap(s.tex_swap, &at("tex_swap"))? } else { [0, 1, 2, 3] },
                ind,
            });
        }
        let mut ind = Vec::with_capacity(num_ind as usize);
        for (n, s) in self.ind_stages[..num_ind as usize].iter().enumerate() {
            let at = |f: &str| format!("ind_stages[{n}].{f}");
            ind.push(IndStageKey {
                texmap: field(s.texmap, 7, || at("texmap"))?,
                texcoord: texcoord(s.texcoord, &|| at("texcoord"))?,
                ss: field(s.ss, 15, || at("ss"))?,
                ts: field(s.ts, 15, || at("ts"))?,
            });
        }
        let alpha_test = AlphaTestKey {
            comp0: field(self.alpha_comp0, 7, || "alpha_comp0".into())?,
            comp1: field(self.alpha_comp1, 7, || "alpha_comp1".into())?,
            logic: field(self.alpha_logic, 3, || "alpha_logic".into())?,
        };
        let fog = match field(self.fog, 7, || "fog".into())? {
            1 | 3 => 2,
            f => f,
        };
        let rgba6 = flag(self.rgba6, || "rgba6".into())?;
        // The same normal form as `PostKey::new`: settings that cannot show are cleared.
        let post = PostKey {
            fog,
            fog_ortho: flag(self.fog_ortho, || "fog_ortho".into())? && fog != 0,
            fog_range: flag(self.fog_range, || "fog_range".into())? && fog != 0,
            ztex_op: field(self.ztex_op, 3, || "ztex_op".into())?.min(2),
            rgba6,
            dither: flag(self.dither, || "dither".into())? && rgba6,
            const_alpha: flag(self.const_alpha, || "const_alpha".into())?,
        };
        Ok(TevKey { num_texgens, stages, ind, alpha_test, post })
    }
}

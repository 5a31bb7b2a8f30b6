//! Builders of lit and procedural-texture states for the lighting tests.

use std::sync::Arc;

use pica::fixed::Rgba;
use pica::regs::layouts::TexEnvSource as S;
use pica::regs::Writer;
use pica::state::GpuState;

use super::*;

/// f16 bits of a value that f16 holds exactly (normal numbers and 0).
pub fn f16(x: f32) -> u32 {
    if x == 0.0 {
        return 0;
    }
    let b = x.to_bits();
    let exp = ((b >> 23) & 0xFF) as i32 - 127 + 15;
    assert!((1..31).contains(&exp) && b & 0x1FFF == 0, "{x} is not an exact f16");
    ((b >> 31) << 15) | ((exp as u32) << 10) | ((b >> 13) & 0x3FF)
}

/// A LUT entry: value (12 bits), signed delta magnitude (11 bits).
pub fn entry(value: u32, delta: i32) -> u32 {
    value | (delta.unsigned_abs() << 12) | (u32::from(delta < 0) << 23)
}

/// CONFIG1 with everything disabled: shadows, spots and distance attenuation of every light,
/// and the D0, D1, FR, RB, RG, RR LUTs.
pub const ALL_DISABLED: u32 = 0xFF7F_FFFF;
pub const D0_ON: u32 = !(1 << 16);
pub const FR_ON: u32 = !(1 << 19);

/// A lit state: both lighting gates open (D16), `count` lights in slot order 0-7, the
/// configuration `config`, CONFIG1 `config1`; stage 0 reads the primary colour's RGB and the
/// secondary colour's alpha (so the key keeps lighting), the others pass.
pub fn lit(config: u32, config1: u32, count: u32) -> GpuState {
    let mut s = state();
    s.regs[0x08F] = 1;
    s.regs[0x1C6] = 0;
    s.regs[0x1C2] = count - 1;
    s.regs[0x1C3] = config << 4;
    s.regs[0x1C4] = config1;
    s.regs[0x1D9] = 0x7654_3210;
    Stage {
        alpha_source: [S::FragmentSecondaryColor, S::Constant, S::Constant],
        ..Stage::replace(S::FragmentPrimaryColor)
    }
    .write(&mut s.regs, 0);
    s
}

/// Light `id`: directional or positional at `position` (f16-exact), LIGHTi_CONFIG bits 1-3 in
/// `flags`, diffuse and specular 0 red = 255.
pub fn light(s: &mut GpuState, id: usize, directional: bool, position: [f32; 3], flags: u32) {
    let base = 0x140 + 0x10 * id;
    s.regs[base] = 255 << 20; // specular 0: red 1.0
    s.regs[base + 2] = 255 << 20; // diffuse: red 1.0
    s.regs[base + 4] = f16(position[0]) | f16(position[1]) << 16;
    s.regs[base + 5] = f16(position[2]);
    s.regs[base + 9] = u32::from(directional) | flags;
}

/// Uploads `entries` (index, raw) into lighting table `table` through the LUT ports
/// (LIGHTING_LUT_INDEX, then LIGHTING_LUT_DATA).
pub fn upload(s: &mut GpuState, table: u32, entries: &[(u32, u32)]) {
    let mut w = Writer::new();
    for &(index, raw) in entries {
        w.write(0x1C5, table << 8 | index).write(0x1C8, raw);
    }
    s.apply_list(&w.finish());
}

/// The lighting colours of one fragment (the TexEnv sources 1 and 2).
pub fn colors(s: &GpuState, normquat: [f32; 4], view: [f32; 3], texel: Rgba) -> (Rgba, Rgba) {
    let mut i = inputs([0.0; 4]);
    i.normquat = normquat;
    i.view = view;
    let t = trace(s, &i, &mut flat(texel));
    (t.stage_inputs.fragment_primary, t.stage_inputs.fragment_secondary)
}

pub const IDENTITY: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
pub const TOWARD_Z: [f32; 3] = [0.0, 0.0, 1.0];

/// A procedural-texture state: unit 3 on coordinates 0, stage 0 replacing with texture 3; the
/// RGB map LUT `rgb_map`, colour LUT entry j = (j, 0, 0, 255); PROCTEX0 `p0`, PROCTEX4 `p4`.
pub fn proctex_state(p0: u32, p4: u32, rgb_map: impl Fn(usize) -> u32) -> GpuState {
    let mut s = one_stage(Stage::replace(S::Texture3));
    s.regs[0x080] = 1 << 10;
    s.regs[0x0A8] = p0;
    s.regs[0x0AC] = p4;
    s.regs[0x0AD] = 0xE0C0_8000;
    let luts = Arc::make_mut(&mut s.memories.proctex);
    for (i, e) in luts.rgb_map.iter_mut().enumerate() {
        *e = rgb_map(i);
    }
    for (j, c) in luts.color.iter_mut().enumerate() {
        *c = j as u32 | 0xFF00_0000;
    }
    s
}

pub fn proctex_color(s: &GpuState, uv: [f32; 2], duv: [f32; 2]) -> Rgba {
    let mut i = inputs([0.0; 4]);
    i.texcoord[0] = uv;
    i.proctex_duv = duv;
    color(run(s, &i, &mut flat([0; 4])))
}

/// Clamp to edge on both axes (PROCTEX0 bits 0-5).
pub const EDGE: u32 = 1 | 1 << 3;
/// The identity map LUT: entry i = value 32 i, delta 32, so m = 32 (128 g) / 4095 = 4096 g / 4095.
pub fn identity_map(i: usize) -> u32 {
    (32 * i as u32) | (32 << 12)
}

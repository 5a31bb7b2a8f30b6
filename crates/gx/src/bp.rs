//! The BP register file (with the BP mask) and the decoded TEV state built from it.
//!
//! Write semantics (specs/hollywood-tev-facts.md, "Register layouts", BP mask row; docs/gx-decisions.md):
//! - a write to 0xFE sets the mask for the next write and is not itself masked;
//! - any other write stores `(old & !mask) | (value & mask)` and resets the mask to 0xFFFFFF;
//! - 0xE0-0xE7 each back two registers, colour and konst: after masking, bit 23 of the stored
//!   value picks the bank the value is copied to (more-facts §2.6).

use serde::Serialize;

use crate::regs::*;

/// The value of the BP mask when no mask is pending.
pub const FULL_MASK: u32 = 0xFF_FFFF;

/// The raw BP register file as a display list leaves it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BpRegs {
    raw: Vec<u32>,
    written: Vec<bool>,
    /// Colour bank (PREV, C0, C1, C2) of 0xE0-0xE7.
    color_bank: [u32; 8],
    /// Konst bank (K0-K3) of 0xE0-0xE7.
    konst_bank: [u32; 8],
    color_written: [bool; 8],
    konst_written: [bool; 8],
    mask: u32,
}

impl Default for BpRegs {
    fn default() -> Self {
        Self::new()
    }
}

impl BpRegs {
    /// An all-zero register file with no pending mask.
    pub fn new() -> Self {
        Self {
            raw: vec![0; 256],
            written: vec![false; 256],
            color_bank: [0; 8],
            konst_bank: [0; 8],
            color_written: [false; 8],
            konst_written: [false; 8],
            mask: FULL_MASK,
        }
    }

    /// Applies one BP write (the 24-bit `value` at `address`), honouring and consuming the BP mask.
    pub fn write(&mut self, address: u8, value: u32) {
        let value = value & FULL_MASK;
        let a = address as usize;
        self.written[a] = true;
        if address == addr::BP_MASK {
            self.mask = value;
            self.raw[a] = value;
            return;
        }
        let new = (self.raw[a] & !self.mask) | (value & self.mask);
        self.mask = FULL_MASK;
        self.raw[a] = new;
        if (addr::TEV_REG..addr::TEV_REG + 8).contains(&address) {
            let i = a - addr::TEV_REG as usize;
            if new & (1 << 23) != 0 {
                self.konst_bank[i] = new;
                self.konst_written[i] = true;
            } else {
                self.color_bank[i] = new;
                self.color_written[i] = true;
            }
        }
    }

    /// Applies a 32-bit BP "register bag" (address in the top byte), as found after a 0x61 command.
    pub fn write_bag(&mut self, bag: u32) {
        self.write((bag >> 24) as u8, bag & FULL_MASK);
    }

    /// The last value stored at `address` (after masking).
    pub fn get(&self, address: u8) -> u32 {
        self.raw[address as usize]
    }

    /// Whether `address` has been written.
    pub fn is_written(&self, address: u8) -> bool {
        self.written[address as usize]
    }

    /// The mask that the next write will use.
    pub fn pending_mask(&self) -> u32 {
        self.mask
    }

    /// Colour-bank value of TEV register address 0xE0 + `i` (i < 8).
    pub fn color_bank(&self, i: usize) -> u32 {
        self.color_bank[i]
    }

    /// Konst-bank value of TEV register address 0xE0 + `i` (i < 8).
    pub fn konst_bank(&self, i: usize) -> u32 {
        self.konst_bank[i]
    }

    /// Every written register as `(address, value)` in address order; for 0xE0-0xE7 both banks
    /// are listed when both were written (colour first). The BP mask (0xFE) is not a register a
    /// list leaves behind and is not listed (see [`BpRegs::pending_mask`]), so that replaying
    /// the list rebuilds the same registers.
    pub fn written_registers(&self) -> Vec<(u8, u32)> {
        let mut out = Vec::new();
        for a in 0..=255u8 {
            if a == addr::BP_MASK {
                continue;
            }
            if (addr::TEV_REG..addr::TEV_REG + 8).contains(&a) {
                let i = (a - addr::TEV_REG) as usize;
                if self.color_written[i] {
                    out.push((a, self.color_bank[i]));
                }
                if self.konst_written[i] {
                    out.push((a, self.konst_bank[i]));
                }
            } else if self.written[a as usize] {
                out.push((a, self.raw[a as usize]));
            }
        }
        out
    }

    /// Decodes every register of the file into a [`TevState`].
    pub fn state(&self) -> TevState {
        TevState::from_regs(self)
    }

    /// One line per written register: address, name, raw value and every field by name.
    pub fn print(&self) -> String {
        let mut out = String::new();
        for (a, v) in self.written_registers() {
            out.push_str(&format_register(a, v));
            out.push('\n');
        }
        out
    }
}

/// `0xC0 tev_color_env[0] = 0x08fff0: d=0(CPREV) ...` for one register value.
pub fn format_register(address: u8, value: u32) -> String {
    match layout_of(address, value) {
        Some((name, layout)) => format!("0x{address:02X} {name} = 0x{value:06x}: {}", layout.format(value)),
        None => format!("0x{address:02X} bp_{address:02x} = 0x{value:06x}"),
    }
}

/// One 2x3 indirect matrix: its three column registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct IndMatrix {
    /// Column A (0x06 + 3k).
    pub a: IndMtxAB,
    /// Column B (0x07 + 3k).
    pub b: IndMtxAB,
    /// Column C (0x08 + 3k).
    pub c: IndMtxC,
}

impl IndMatrix {
    /// The 5-bit scale field: A\[23:22\] bits 0-1, B\[23:22\] bits 2-3, C\[22\] bit 4 (C\[23\] ignored).
    pub fn scale(&self) -> u8 {
        self.a.scale_bits | (self.b.scale_bits << 2) | (self.c.scale_bit4 << 4)
    }

    /// The exponent: scale - 17.
    pub fn exponent(&self) -> i8 {
        self.scale() as i8 - 17
    }

    /// Entries `[row][column]` in s0.10.
    pub fn entries(&self) -> [[i16; 3]; 2] {
        [[self.a.row0, self.b.row0, self.c.row0], [self.a.row1, self.b.row1, self.c.row1]]
    }
}

/// An RGBA TEV register value, each channel signed 11-bit.
pub type TevColor = [i16; 4];

/// The fog registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Fog {
    /// 0xEE.
    pub a: FogA,
    /// 0xEF.
    pub b_magnitude: FogBMagnitude,
    /// 0xF0.
    pub b_shift: FogBShift,
    /// 0xF1.
    pub c: FogC,
    /// 0xF2.
    pub color: FogColor,
    /// 0xE8: range adjustment centre and enable.
    pub range: FogRange,
    /// 0xE9-0xED: the ten range-adjust factors, two per register.
    pub range_k: [FogRangeK; 5],
    /// Not a BP register: the viewport half-width in pixels that range adjustment normalises the
    /// horizontal offset by (XF state the host supplies; [`crate::pixel::DEFAULT_VIEWPORT_HALF_WIDTH`]
    /// after decoding).
    pub viewport_half_width: u16,
}

impl Fog {
    /// Range-adjust factor `j` (0..10): bits \[23:12\] of register 0xE9 + j/2 for even j,
    /// \[11:0\] for odd j (more-facts §3.3).
    pub fn range_factor(&self, j: usize) -> u16 {
        let r = &self.range_k[j / 2];
        if j.is_multiple_of(2) {
            r.hi
        } else {
            r.lo
        }
    }
}

/// Every TEV-related BP register, decoded. Plain data: clone, compare, hash, serialize.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct TevState {
    /// 0x00.
    pub gen_mode: GenMode,
    /// 0x06-0x0E.
    pub ind_mtx: [IndMatrix; 3],
    /// 0x10-0x1F, per TEV stage.
    pub tev_ind: [TevStageIndirect; 16],
    /// 0x25-0x26.
    pub ras1_ss: [Ras1Ss; 2],
    /// 0x27.
    pub ras1_iref: Ras1Iref,
    /// 0x28-0x2F.
    pub tev_order: [TwoTevStageOrders; 8],
    /// 0x40.
    pub z_mode: ZMode,
    /// 0x41.
    pub blend_mode: BlendMode,
    /// 0x42.
    pub const_alpha: ConstAlpha,
    /// 0x43.
    pub pe_control: PeControl,
    /// 0xC0, 0xC2, ... per stage.
    pub color_env: [ColorCombiner; 16],
    /// 0xC1, 0xC3, ... per stage.
    pub alpha_env: [AlphaCombiner; 16],
    /// Initial PREV, C0, C1, C2 (colour bank of 0xE0-0xE7), RGBA.
    pub color_regs: [TevColor; 4],
    /// K0-K3 (konst bank of 0xE0-0xE7), RGBA.
    pub konst_regs: [TevColor; 4],
    /// 0xEE-0xF2.
    pub fog: Fog,
    /// 0xF3.
    pub alpha_test: AlphaTest,
    /// 0xF4.
    pub ztex_bias: ZTexBias,
    /// 0xF5.
    pub ztex2: ZTex2,
    /// 0xF6-0xFD.
    pub ksel: [TevKSel; 8],
}

/// One TEV stage's settings, gathered from the registers that hold them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct StageView {
    /// Texture map.
    pub texmap: u8,
    /// Texture coordinate.
    pub texcoord: u8,
    /// Texture enable.
    pub tex_enable: bool,
    /// Rasterized colour channel.
    pub colorchan: u8,
    /// Colour combiner.
    pub color: ColorCombiner,
    /// Alpha combiner.
    pub alpha: AlphaCombiner,
    /// Konst colour selector.
    pub kcsel: u8,
    /// Konst alpha selector.
    pub kasel: u8,
    /// Indirect settings.
    pub ind: TevStageIndirect,
}

fn rgba_of(ra: u32, bg: u32) -> TevColor {
    let ra = TevRegRa::decode(ra);
    let bg = TevRegBg::decode(bg);
    [ra.r, bg.g, bg.b, ra.a]
}

impl TevState {
    /// Decodes the register file.
    pub fn from_regs(regs: &BpRegs) -> Self {
        let g = |a: u8| regs.get(a);
        let mut s = TevState { gen_mode: GenMode::decode(g(addr::GEN_MODE)), ..Default::default() };
        for k in 0..3u8 {
            let base = addr::IND_MTX + 3 * k;
            s.ind_mtx[k as usize] = IndMatrix {
                a: IndMtxAB::decode(g(base)),
                b: IndMtxAB::decode(g(base + 1)),
                c: IndMtxC::decode(g(base + 2)),
            };
        }
        for i in 0..16u8 {
            s.tev_ind[i as usize] = TevStageIndirect::decode(g(addr::TEV_IND + i));
            s.color_env[i as usize] = ColorCombiner::decode(g(addr::TEV_COLOR_ENV + 2 * i));
            s.alpha_env[i as usize] = AlphaCombiner::decode(g(addr::TEV_COLOR_ENV + 2 * i + 1));
        }
        s.ras1_ss = [Ras1Ss::decode(g(addr::RAS1_SS0)), Ras1Ss::decode(g(addr::RAS1_SS1))];
        s.ras1_iref = Ras1Iref::decode(g(addr::RAS1_IREF));
        for k in 0..8u8 {
            s.tev_order[k as usize] = TwoTevStageOrders::decode(g(addr::TEV_ORDER + k));
            s.ksel[k as usize] = TevKSel::decode(g(addr::TEV_KSEL + k));
        }
        s.z_mode = ZMode::decode(g(addr::Z_MODE));
        s.blend_mode = BlendMode::decode(g(addr::BLEND_MODE));
        s.const_alpha = ConstAlpha::decode(g(addr::CONST_ALPHA));
        s.pe_control = PeControl::decode(g(addr::PE_CONTROL));
        for n in 0..4 {
            s.color_regs[n] = rgba_of(regs.color_bank(2 * n), regs.color_bank(2 * n + 1));
            s.konst_regs[n] = rgba_of(regs.konst_bank(2 * n), regs.konst_bank(2 * n + 1));
        }
        s.fog = Fog {
            a: FogA::decode(g(addr::FOG_A)),
            b_magnitude: FogBMagnitude::decode(g(addr::FOG_B_MAG)),
            b_shift: FogBShift::decode(g(addr::FOG_B_SHIFT)),
            c: FogC::decode(g(addr::FOG_C)),
            color: FogColor::decode(g(addr::FOG_COLOR)),
            range: FogRange::decode(g(addr::FOG_RANGE)),
            range_k: [0u8, 1, 2, 3, 4].map(|j| FogRangeK::decode(g(addr::FOG_RANGE_K + j))),
            viewport_half_width: crate::pixel::DEFAULT_VIEWPORT_HALF_WIDTH,
        };
        s.alpha_test = AlphaTest::decode(g(addr::ALPHA_TEST));
        s.ztex_bias = ZTexBias::decode(g(addr::ZTEX_BIAS));
        s.ztex2 = ZTex2::decode(g(addr::ZTEX2));
        s
    }

    /// Number of TEV stages (genMode field + 1).
    pub fn num_stages(&self) -> usize {
        self.gen_mode.num_tevstages_minus_1 as usize + 1
    }

    /// The settings of stage `i` (< 16), gathered from the order, combiner, ksel and indirect registers.
    pub fn stage(&self, i: usize) -> StageView {
        let o = &self.tev_order[i / 2];
        let k = &self.ksel[i / 2];
        let (texmap, texcoord, tex_enable, colorchan, kcsel, kasel) = if i.is_multiple_of(2) {
            (o.texmap0, o.texcoord0, o.enable0, o.colorchan0, k.kcsel0, k.kasel0)
        } else {
            (o.texmap1, o.texcoord1, o.enable1, o.colorchan1, k.kcsel1, k.kasel1)
        };
        StageView {
            texmap,
            texcoord,
            tex_enable,
            colorchan,
            color: self.color_env[i],
            alpha: self.alpha_env[i],
            kcsel,
            kasel,
            ind: self.tev_ind[i],
        }
    }

    /// Swap table `t` (0..3) as source channels for R, G, B, A (more-facts §2.2).
    pub fn swap_table(&self, t: usize) -> [u8; 4] {
        let lo = &self.ksel[2 * t];
        let hi = &self.ksel[2 * t + 1];
        [lo.swap1, lo.swap2, hi.swap1, hi.swap2]
    }

    /// Texture map and coordinate of indirect stage `n` (0..3) from RAS1_IREF.
    pub fn ind_ref(&self, n: usize) -> (u8, u8) {
        let r = &self.ras1_iref;
        [(r.bi0, r.bc0), (r.bi1, r.bc1), (r.bi2, r.bc2), (r.bi3, r.bc3)][n]
    }

    /// Coordinate shifts (s, t) of indirect stage `n` (0..3) from RAS1_SS.
    pub fn ind_scale(&self, n: usize) -> (u8, u8) {
        let r = &self.ras1_ss[n / 2];
        if n.is_multiple_of(2) {
            (r.ss0, r.ts0)
        } else {
            (r.ss1, r.ts1)
        }
    }
}

//! The output-merger and rasteriser registers of a draw as Vulkan pipeline state (through
//! wgpu): viewport, scissor, culling, depth and stencil tests, blending, write masks. What has
//! no exact Vulkan counterpart is refused with a message (docs/pica-render.md "Pipeline state").

use pica::float24::F24;
use pica::regs::layouts::{
    BlendEquation, BlendFactor, BlendFunc, CompareFunc, DepthColorMask, LogicOp, StencilOp, StencilOpReg, StencilTest,
};

fn reg(regs: &[u32], id: usize) -> u32 {
    regs.get(id).copied().unwrap_or(0)
}

/// A 10-bit two's complement field.
fn signed10(v: u32) -> i32 {
    ((v & 0x3FF) as i32) << 22 >> 22
}

/// The viewport of a draw in Vulkan framebuffer rows (row 0 = the PICA's bottom row, y = -1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

impl Viewport {
    /// GPUREG_VIEWPORT_WIDTH and _HEIGHT (f24 half sizes) and GPUREG_VIEWPORT_XY.
    pub fn from_regs(regs: &[u32]) -> Viewport {
        let half = |id| F24::from_bits(reg(regs, id) & 0xFF_FFFF).to_f32();
        let xy = reg(regs, 0x068);
        Viewport {
            x: signed10(xy) as f32,
            y: signed10(xy >> 16) as f32,
            width: 2.0 * half(0x041),
            height: 2.0 * half(0x043),
        }
    }
}

/// The frame's size: GPUREG_FRAMEBUFFER_DIM, or the viewport's when that is 0.
pub fn target_size(regs: &[u32]) -> (u32, u32) {
    let dim = reg(regs, 0x11E);
    let (w, h) = (dim & 0x7FF, ((dim >> 12) & 0x3FF) + 1);
    if w != 0 {
        return (w, h);
    }
    let v = Viewport::from_regs(regs);
    ((v.width.max(1.0) as u32).min(1024), (v.height.max(1.0) as u32).min(1024))
}

/// Everything a draw's render pipelines and passes take from its registers.
#[derive(Clone, Debug)]
pub struct PassState {
    pub viewport: Viewport,
    /// Scissor rectangle (x, y, width, height) in framebuffer rows, clamped to the target.
    pub scissor: Option<[u32; 4]>,
    pub cull: Option<wgpu::Face>,
    pub depth_stencil: wgpu::DepthStencilState,
    pub stencil_reference: u32,
    pub blend: Option<wgpu::BlendState>,
    pub blend_constant: wgpu::Color,
    pub write_mask: wgpu::ColorWrites,
}

fn compare(f: CompareFunc) -> wgpu::CompareFunction {
    use wgpu::CompareFunction as C;
    match f {
        CompareFunc::Never => C::Never,
        CompareFunc::Always => C::Always,
        CompareFunc::Equal => C::Equal,
        CompareFunc::NotEqual => C::NotEqual,
        CompareFunc::Less => C::Less,
        CompareFunc::LessEqual => C::LessEqual,
        CompareFunc::Greater => C::Greater,
        _ => C::GreaterEqual,
    }
}

fn stencil_op(op: StencilOp) -> wgpu::StencilOperation {
    use wgpu::StencilOperation as S;
    match op {
        StencilOp::Keep => S::Keep,
        StencilOp::Zero => S::Zero,
        StencilOp::Replace => S::Replace,
        StencilOp::Increment => S::IncrementClamp,
        StencilOp::Decrement => S::DecrementClamp,
        StencilOp::Invert => S::Invert,
        StencilOp::IncrementWrap => S::IncrementWrap,
        _ => S::DecrementWrap,
    }
}

fn factor(f: BlendFactor) -> Result<wgpu::BlendFactor, String> {
    use wgpu::BlendFactor as B;
    Ok(match f {
        BlendFactor::Zero => B::Zero,
        BlendFactor::One => B::One,
        BlendFactor::SrcColor => B::Src,
        BlendFactor::OneMinusSrcColor => B::OneMinusSrc,
        BlendFactor::DstColor => B::Dst,
        BlendFactor::OneMinusDstColor => B::OneMinusDst,
        BlendFactor::SrcAlpha => B::SrcAlpha,
        BlendFactor::OneMinusSrcAlpha => B::OneMinusSrcAlpha,
        BlendFactor::DstAlpha => B::DstAlpha,
        BlendFactor::OneMinusDstAlpha => B::OneMinusDstAlpha,
        BlendFactor::ConstantColor => B::Constant,
        BlendFactor::OneMinusConstantColor => B::OneMinusConstant,
        BlendFactor::SrcAlphaSaturate => B::SrcAlphaSaturated,
        // Vulkan has constant-alpha factors; wgpu exposes only the constant colour.
        other => return Err(format!("blend factor {} has no wgpu counterpart", other.name().unwrap_or("?"))),
    })
}

fn equation(e: BlendEquation) -> Result<wgpu::BlendOperation, String> {
    use wgpu::BlendOperation as O;
    Ok(match e {
        BlendEquation::Add => O::Add,
        BlendEquation::Subtract => O::Subtract,
        BlendEquation::ReverseSubtract => O::ReverseSubtract,
        BlendEquation::Min => O::Min,
        BlendEquation::Max => O::Max,
        other => return Err(format!("blend equation {} is not defined", other.raw())),
    })
}

impl PassState {
    /// The state of a register file for a target of `size`.
    ///
    /// # Errors
    /// A message naming the register when a mode has no exact pipeline state here.
    pub fn from_regs(regs: &[u32], size: (u32, u32)) -> Result<PassState, String> {
        let viewport = Viewport::from_regs(regs);
        // wgpu rejects (by panicking) viewports that are empty, not finite or far outside the
        // target; a hostile trace must get an error instead.
        let dims = [viewport.width, viewport.height];
        if !dims.iter().all(|d| d.is_finite() && *d > 0.0 && *d <= 4096.0) {
            return Err(format!("GPUREG_VIEWPORT_WIDTH/HEIGHT give a {}x{} viewport", dims[0], dims[1]));
        }
        let scissor = match reg(regs, 0x065) & 3 {
            0 => None,
            3 => {
                let (p, d) = (reg(regs, 0x066), reg(regs, 0x067));
                let (x1, y1) = ((p & 0x3FF).min(size.0), ((p >> 16) & 0x3FF).min(size.1));
                let (x2, y2) = (((d & 0x3FF) + 1).min(size.0), (((d >> 16) & 0x3FF) + 1).min(size.1));
                Some([x1, y1, x2.saturating_sub(x1), y2.saturating_sub(y1)])
            }
            m => return Err(format!("GPUREG_SCISSORTEST_MODE {m} (exclude) has no Vulkan scissor")),
        };
        // Mode 1 keeps clockwise triangles, 2 counter-clockwise ones (Citra's CullMode): in the
        // PICA's y-up window, which Vulkan's y-down framebuffer mirrors (front face CCW).
        let cull = match reg(regs, 0x040) & 3 {
            1 => Some(wgpu::Face::Back),
            2 => Some(wgpu::Face::Front),
            _ => None,
        };
        let dcm = DepthColorMask::decode(reg(regs, 0x107));
        // GPUREG_COLORBUFFER_WRITE and GPUREG_DEPTHBUFFER_WRITE allow the writes (Citra).
        let color_allowed = reg(regs, 0x113) & 0xF != 0;
        let depth_allowed = reg(regs, 0x115);
        let mut write_mask = wgpu::ColorWrites::empty();
        for (on, bit) in [
            (dcm.red, wgpu::ColorWrites::RED),
            (dcm.green, wgpu::ColorWrites::GREEN),
            (dcm.blue, wgpu::ColorWrites::BLUE),
            (dcm.alpha, wgpu::ColorWrites::ALPHA),
        ] {
            if on && color_allowed {
                write_mask |= bit;
            }
        }
        let st = StencilTest::decode(reg(regs, 0x105));
        let so = StencilOpReg::decode(reg(regs, 0x106));
        let face = wgpu::StencilFaceState {
            compare: if st.enabled { compare(st.func) } else { wgpu::CompareFunction::Always },
            fail_op: stencil_op(so.fail),
            depth_fail_op: stencil_op(so.z_fail),
            pass_op: stencil_op(so.z_pass),
        };
        let stencil_write = st.enabled && depth_allowed & 1 != 0;
        let stencil = wgpu::StencilState {
            front: face,
            back: face,
            read_mask: st.mask.0,
            write_mask: if stencil_write { st.buffer_mask.0 } else { 0 },
        };
        let depth_stencil = wgpu::DepthStencilState {
            format: wgpu::TextureFormat::Depth24PlusStencil8,
            depth_write_enabled: Some(dcm.depth_write && depth_allowed & 2 != 0),
            // Citra: a disabled depth test passes every fragment; the write mask still applies.
            depth_compare: Some(if dcm.depth_test { compare(dcm.depth_func) } else { wgpu::CompareFunction::Always }),
            stencil: if st.enabled { stencil } else { wgpu::StencilState::default() },
            bias: wgpu::DepthBiasState::default(),
        };
        let op = reg(regs, 0x100);
        let blend = if op >> 8 & 1 != 0 {
            let b = BlendFunc::decode(reg(regs, 0x101));
            Some(wgpu::BlendState {
                color: wgpu::BlendComponent {
                    src_factor: factor(b.rgb_src)?,
                    dst_factor: factor(b.rgb_dst)?,
                    operation: equation(b.rgb_equation)?,
                },
                alpha: wgpu::BlendComponent {
                    src_factor: factor(b.alpha_src)?,
                    dst_factor: factor(b.alpha_dst)?,
                    operation: equation(b.alpha_equation)?,
                },
            })
        } else {
            let logic = LogicOp::from_raw(reg(regs, 0x102) & 0xF);
            if logic != LogicOp::Copy {
                return Err(format!(
                    "GPUREG_LOGIC_OP {}: wgpu has no logic operations (only copy maps)",
                    logic.name().unwrap_or("?")
                ));
            }
            None
        };
        let c = reg(regs, 0x103).to_le_bytes().map(|b| f64::from(b) / 255.0);
        Ok(PassState {
            viewport,
            scissor,
            cull,
            depth_stencil,
            stencil_reference: st.reference.0 & 0xFF,
            blend,
            blend_constant: wgpu::Color { r: c[0], g: c[1], b: c[2], a: c[3] },
            write_mask,
        })
    }
}

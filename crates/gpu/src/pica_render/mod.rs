//! 3DS draws rendered on the device: each draw's vertices through the attribute loader, the
//! translated vertex shader, primitive assembly, the translated fragment shader (the
//! fixed-function key of the draw) and the output merger as Vulkan pipeline state, into an RGBA8
//! target read back (docs/pica-render.md).
//!
//! [`Mode::Reference`] renders the same draws with the CPU reference fragment pipeline
//! (`pica::fixed`) over the same rasterised inputs: a capture pass writes every fragment's
//! interpolated inputs to storage, the reference runs on them on the host, and a replay pass
//! sends the resulting colours and depths through the same depth, stencil and blend state.

mod geometry;
mod prepare;
mod shaders;
pub mod state;

use pica::fixed::{self, FragmentInputs, FragmentResult};
use pica::state::Draw;

pub use prepare::Memory;
use prepare::Prepared;
use shaders::CAPTURE_VEC4S;

use crate::{Gpu, GpuError};

/// Most captured fragment slots of one draw's reference pass (128 bytes each).
pub const MAX_CAPTURE: usize = 1 << 20;

/// An RGBA8 picture, top row first (the PICA's y = +1 edge at the top).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Picture {
    /// The pixel at column `x`, row `y` from the top.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let at = ((y * self.width + x) * 4) as usize;
        [self.rgba[at], self.rgba[at + 1], self.rgba[at + 2], self.rgba[at + 3]]
    }
}

/// A draw to render, its index in the trace (for messages) and its memory.
pub struct DrawInput<'a> {
    pub index: usize,
    pub draw: &'a Draw,
    pub memory: Memory<'a>,
}

/// Which fragment pipeline colours the fragments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The translated fragment shader, in the render pipeline.
    Device,
    /// The CPU reference over the captured fragment inputs.
    Reference,
}

/// Why a frame could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A draw needs something missing or not supported.
    #[error("draw {index} (command at byte offset 0x{offset:x}): {message}")]
    Draw { index: usize, offset: usize, message: String },
    #[error(transparent)]
    Gpu(#[from] GpuError),
}

/// Pixels that differ between two pictures of one size, and the difference image: matching
/// pixels as a quarter of their brightness in grey, differing ones opaque magenta.
pub fn difference(a: &Picture, b: &Picture) -> (usize, Picture) {
    let mut n = 0;
    let rgba = a
        .rgba
        .chunks(4)
        .zip(b.rgba.chunks(4))
        .flat_map(|(p, q)| {
            if p == q {
                let g = ((u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])) / 12) as u8;
                [g, g, g, 255]
            } else {
                n += 1;
                [255, 0, 255, 255]
            }
        })
        .collect();
    (n, Picture { width: a.width, height: a.height, rgba })
}

fn spirv(wgsl: &str, what: &str) -> Result<Vec<u32>, GpuError> {
    let err = |e: String| GpuError::Device(format!("{what}: {e}"));
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| err(e.to_string()))?;
    let info =
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::PRIMITIVE_INDEX)
            .validate(&module)
            .map_err(|e| err(format!("{e:?}")))?;
    let options = naga::back::spv::Options { lang_version: (1, 3), ..Default::default() };
    naga::back::spv::write_vec(&module, &info, &options, None).map_err(|e| err(e.to_string()))
}

/// The device objects shared by every draw of a frame.
struct Frame<'g> {
    gpu: &'g Gpu,
    size: (u32, u32),
    /// Bind group and pipeline layouts with texture unit 0 as a 2D image and as the six-layer
    /// cube array, indexed by `Prepared::cube`.
    bgl: [wgpu::BindGroupLayout; 2],
    layout: [wgpu::PipelineLayout; 2],
    vs: wgpu::ShaderModule,
    capture: wgpu::ShaderModule,
    replay: wgpu::ShaderModule,
    color: wgpu::Texture,
    depth: wgpu::Texture,
    cleared: bool,
}

const COLOR: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

impl<'g> Frame<'g> {
    fn new(gpu: &'g Gpu, size: (u32, u32)) -> Result<Frame<'g>, GpuError> {
        let device = &gpu.device;
        let frag = wgpu::ShaderStages::FRAGMENT;
        let buffer = |binding, visibility, read_only| wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty: wgpu::BindingType::Buffer {
                ty: if binding == 0 {
                    wgpu::BufferBindingType::Uniform
                } else {
                    wgpu::BufferBindingType::Storage { read_only }
                },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let layouts = [wgpu::TextureViewDimension::D2, wgpu::TextureViewDimension::D2Array].map(|unit0| {
            let mut entries = vec![buffer(0, frag, true)];
            for u in 0..3 {
                entries.push(wgpu::BindGroupLayoutEntry {
                    binding: translate::pica_fs::TEXTURE_BINDING + u,
                    visibility: frag,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Uint,
                        view_dimension: if u == 0 { unit0 } else { wgpu::TextureViewDimension::D2 },
                        multisampled: false,
                    },
                    count: None,
                });
            }
            entries.push(buffer(4, wgpu::ShaderStages::VERTEX, true));
            entries.push(buffer(5, frag, true));
            entries.push(buffer(6, frag, false));
            let bgl =
                device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &entries });
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &[Some(&bgl)],
                immediate_size: 0,
            });
            (bgl, layout)
        });
        let [(bgl2, layout2), (bgl_cube, layout_cube)] = layouts;
        let (bgl, layout) = ([bgl2, bgl_cube], [layout2, layout_cube]);
        let module = |src: &str, what| spirv(src, what).map(|w| gpu.module(&w, &[("main", (0, 0, 0))]));
        let vs = module(shaders::VERTEX, "render vertex stage")?;
        let capture = module(&shaders::capture(), "capture stage")?;
        let replay = module(&shaders::replay(), "replay stage")?;
        let target = |format, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: None,
                size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let color = target(COLOR, wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC);
        let depth = target(wgpu::TextureFormat::Depth24PlusStencil8, wgpu::TextureUsages::RENDER_ATTACHMENT);
        Ok(Frame { gpu, size, bgl, layout, vs, capture, replay, color, depth, cleared: false })
    }

    /// A render pipeline of the harness vertex stage and `fs` with the draw's state; the
    /// capture pass has no depth attachment and writes no colour.
    fn pipeline(&self, fs: &wgpu::ShaderModule, p: &Prepared, capture: bool) -> Result<wgpu::RenderPipeline, GpuError> {
        let s = &p.state;
        let scope = self.gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = self.gpu.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: None,
            layout: Some(&self.layout[p.cube as usize]),
            vertex: wgpu::VertexState {
                module: &self.vs,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                front_face: wgpu::FrontFace::Ccw,
                cull_mode: s.cull,
                ..Default::default()
            },
            depth_stencil: (!capture).then(|| s.depth_stencil.clone()),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: fs,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: COLOR,
                    blend: if capture { None } else { s.blend },
                    write_mask: if capture { wgpu::ColorWrites::empty() } else { s.write_mask },
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(e.to_string()));
        }
        Ok(pipeline)
    }

    /// The views of units 0-2; unit 0 as the cube array when the module reads a cube.
    fn texture_views(&self, p: &Prepared) -> Vec<wgpu::TextureView> {
        let mut views: Vec<wgpu::TextureView> = p
            .textures
            .d2
            .iter()
            .map(|img| crate::pica_fs::texture(self.gpu, img).create_view(&Default::default()))
            .collect();
        if p.cube {
            views[0] = crate::pica_fs::texture(self.gpu, &p.textures.cube).create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D2Array),
                ..Default::default()
            });
        }
        views
    }

    /// One pass of `pipeline` over the draw's triangles; `extra` binds 5 and 6.
    fn pass(
        &mut self,
        pipeline: &wgpu::RenderPipeline,
        p: &Prepared,
        block: &[u8],
        extra: [&wgpu::Buffer; 2],
        capture: bool,
    ) -> wgpu::CommandEncoder {
        let gpu = self.gpu;
        let ubuf = gpu.upload(block, wgpu::BufferUsages::UNIFORM);
        let rbuf = gpu.upload(bytemuck::cast_slice(&p.records), wgpu::BufferUsages::STORAGE);
        let views = self.texture_views(p);
        let mut entries = vec![
            wgpu::BindGroupEntry { binding: 0, resource: ubuf.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 4, resource: rbuf.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 5, resource: extra[0].as_entire_binding() },
            wgpu::BindGroupEntry { binding: 6, resource: extra[1].as_entire_binding() },
        ];
        for (u, v) in views.iter().enumerate() {
            entries.push(wgpu::BindGroupEntry {
                binding: translate::pica_fs::TEXTURE_BINDING + u as u32,
                resource: wgpu::BindingResource::TextureView(v),
            });
        }
        let bg = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.bgl[p.cube as usize],
            entries: &entries,
        });
        let scratch;
        let color_view = if capture {
            scratch = gpu.device.create_texture(&wgpu::TextureDescriptor {
                label: None,
                size: wgpu::Extent3d { width: self.size.0, height: self.size.1, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: COLOR,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            });
            scratch.create_view(&Default::default())
        } else {
            self.color.create_view(&Default::default())
        };
        let depth_view = self.depth.create_view(&Default::default());
        let clear = !self.cleared && !capture;
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        {
            let load = |c| if c { wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT) } else { wgpu::LoadOp::Load };
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &color_view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load: load(clear || capture), store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: (!capture).then_some(wgpu::RenderPassDepthStencilAttachment {
                    view: &depth_view,
                    depth_ops: Some(wgpu::Operations {
                        load: if clear { wgpu::LoadOp::Clear(0.0) } else { wgpu::LoadOp::Load },
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: Some(wgpu::Operations {
                        load: if clear { wgpu::LoadOp::Clear(0) } else { wgpu::LoadOp::Load },
                        store: wgpu::StoreOp::Store,
                    }),
                }),
                ..Default::default()
            });
            let s = &p.state;
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bg, &[]);
            pass.set_viewport(s.viewport.x, s.viewport.y, s.viewport.width, s.viewport.height, 0.0, 1.0);
            if let Some([x, y, w, h]) = s.scissor {
                pass.set_scissor_rect(x, y, w, h);
            }
            pass.set_stencil_reference(s.stencil_reference);
            pass.set_blend_constant(s.blend_constant);
            pass.draw(0..(p.triangles * 3) as u32, 0..1);
        }
        if !capture {
            self.cleared = true;
        }
        encoder
    }

    /// The draw through the translated fragment shader.
    fn device_draw(&mut self, p: &Prepared) -> Result<(), GpuError> {
        let module = self.gpu.module(&p.fs_words, &[(translate::pica_fs::ENTRY, (0, 0, 0))]);
        let pipeline = self.pipeline(&module, p, false)?;
        let (a, b) =
            (self.gpu.buffer(16, wgpu::BufferUsages::STORAGE), self.gpu.buffer(16, wgpu::BufferUsages::STORAGE));
        let encoder = self.pass(&pipeline, p, &device_block(p), [&a, &b], false);
        self.gpu.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// The draw through the reference: capture, the CPU pipeline, replay.
    fn reference_draw(&mut self, p: &Prepared) -> Result<(), String> {
        let gpu = self.gpu;
        let mut table = Vec::with_capacity(p.boxes.len() * 4);
        let mut total = 0usize;
        for b in &p.boxes {
            table.extend_from_slice(&[total as u32, b[0], b[1], b[2] | (b[3] << 16)]);
            total += (b[2] * b[3]) as usize;
        }
        if total > MAX_CAPTURE {
            return Err(format!("the reference needs {total} fragment slots, more than {MAX_CAPTURE}"));
        }
        let prims = gpu.upload(bytemuck::cast_slice(&table), wgpu::BufferUsages::STORAGE);
        let bytes = (total * CAPTURE_VEC4S * 16) as u64;
        let out =
            gpu.upload(&vec![0u8; bytes.max(16) as usize], wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC);
        let pipeline = self.pipeline(&self.capture, p, true).map_err(|e| e.to_string())?;
        let encoder = self.pass(&pipeline, p, &device_block(p), [&prims, &out], true);
        let words = gpu.read_back(&out, bytes.max(16), encoder).map_err(|e| e.to_string())?;
        let results = reference_results(p, &words, total);
        let res = gpu.upload(bytemuck::cast_slice(&results), wgpu::BufferUsages::STORAGE);
        let pipeline = self.pipeline(&self.replay, p, false).map_err(|e| e.to_string())?;
        let encoder = self.pass(&pipeline, p, &device_block(p), [&prims, &res], false);
        gpu.queue.submit([encoder.finish()]);
        Ok(())
    }

    fn read(&self) -> Result<Picture, GpuError> {
        let gpu = self.gpu;
        let (w, h) = self.size;
        let row = (4 * w).div_ceil(256) * 256;
        let buffer = gpu.buffer(u64::from(row * h), wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC);
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.color.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(row), rows_per_image: Some(h) },
            },
            wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        );
        let words = gpu.read_back(&buffer, u64::from(row * h), encoder)?;
        let bytes: &[u8] = bytemuck::cast_slice(&words);
        // Framebuffer row 0 is the PICA's bottom row (y = -1): the picture starts at the top.
        let rgba =
            (0..h as usize).rev().flat_map(|y| bytes[y * row as usize..][..4 * w as usize].iter().copied()).collect();
        Ok(Picture { width: w, height: h, rgba })
    }
}

/// The fragment module's uniform block for the render path: the depth scale negated, because
/// the harness vertex stage negates z (shaders::VERTEX), so the module's `z/w * scale` is the
/// PICA's product exactly.
fn device_block(p: &Prepared) -> Vec<u8> {
    let mut block = p.block.clone();
    block.depth[0] = -block.depth[0];
    block.to_bytes()
}

/// The fragment inputs of a captured slot: semantic components from the slots through the
/// input map, z/w un-negated, w = 1 / (1/w) as the module computes it.
fn fragment_inputs(p: &Prepared, rec: &[u32]) -> FragmentInputs {
    let f = |i: usize| f32::from_bits(rec[i]);
    let sem = |s: u32| p.inputs.slots[s as usize].map_or(0.0, |(r, c)| f(4 + 4 * r as usize + c as usize));
    let s4 = |a: u32| [sem(a), sem(a + 1), sem(a + 2), sem(a + 3)];
    FragmentInputs {
        color: s4(0x08),
        texcoord: [[sem(0x0C), sem(0x0D)], [sem(0x0E), sem(0x0F)], [sem(0x16), sem(0x17)]],
        texcoord0_w: sem(0x10),
        normquat: s4(0x04),
        view: [sem(0x12), sem(0x13), sem(0x14)],
        z_over_w: -f(1),
        w: 1.0 / f(2),
        // The captured slot has no neighbours to take derivatives from: a draw whose unit 3
        // has a mipmapped filter gets the lower LOD bound here while the fragment entry point
        // takes dpdx/dpdy (docs/pica-fragment.md), so such draws may differ.
        proctex_duv: [0.0; 2],
    }
}

/// Per captured slot (kind, RGBA, depth bits, 0): kind 0 not covered, 1 a colour, 2 discarded.
fn reference_results(p: &Prepared, words: &[u32], total: usize) -> Vec<[u32; 4]> {
    let stride = CAPTURE_VEC4S * 4;
    (0..total)
        .map(|i| {
            let rec = &words[i * stride..(i + 1) * stride];
            if rec[0] != 1.0f32.to_bits() {
                return [0; 4];
            }
            let inputs = fragment_inputs(p, rec);
            let result = fixed::run(&p.key, &p.uniforms, &inputs, &mut |r| p.textures.sample(&p.block, r));
            match result {
                FragmentResult::Color { rgba, depth } => [1, u32::from_le_bytes(rgba), depth.to_bits(), 0],
                FragmentResult::Discarded => [2, 0, 0, 0],
                FragmentResult::Shadow(w) => {
                    let c = crate::pica_fs::render_color(&result).unwrap_or([0; 4]);
                    [1, u32::from_le_bytes(c), (w.depth as f32 / 16_777_215.0).to_bits(), 0]
                }
            }
        })
        .collect()
}

/// The frame size of a list of draws: the first draw's framebuffer (or viewport) size.
pub fn frame_size(draws: &[DrawInput]) -> (u32, u32) {
    draws.first().map_or((1, 1), |d| state::target_size(&d.draw.regs))
}

/// Renders `draws` in order into one target (cleared to transparent black, depth 0, stencil
/// 0) and reads it back.
///
/// # Errors
/// [`RenderError::Draw`] naming the draw, or a device error.
pub fn render(gpu: &Gpu, draws: &[DrawInput], mode: Mode) -> Result<Picture, RenderError> {
    if !gpu.primitive_index && mode == Mode::Reference {
        return Err(GpuError::MissingFeature { adapter: gpu.adapter.clone(), feature: "PRIMITIVE_INDEX" }.into());
    }
    let size = frame_size(draws);
    let mut frame = Frame::new(gpu, size)?;
    for d in draws {
        let fail = |message: String| RenderError::Draw { index: d.index, offset: d.draw.offset, message };
        let p = prepare::prepare(gpu, d.draw, d.memory, size).map_err(fail)?;
        if p.triangles == 0 {
            continue;
        }
        match mode {
            Mode::Device => frame.device_draw(&p)?,
            Mode::Reference => frame.reference_draw(&p).map_err(fail)?,
        }
    }
    Ok(frame.read()?)
}

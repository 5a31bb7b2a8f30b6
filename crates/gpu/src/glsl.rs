//! GLSL-compiled SPIR-V (glslang's, not the translator's) in a render pipeline, for oracles that
//! run a shader's own source beside a reference: many draws of one pipeline, each with its own
//! uniform blocks, textures, vertex attributes and input words, each writing its results to its
//! own slice of one storage buffer (the shader's wrapper does the writes; see docs/latte-oracle.md).
//!
//! Two shapes: [`GlslShape::Points`] draws one point per vertex with the vertex stage under test
//! (results written by the vertex stage, so the device needs vertex-stage storage writes);
//! [`GlslShape::Grid`] covers a `width` × `height` target with a quad (z 0.5, w 1) so that
//! every pixel runs the fragment stage under test, in 2x2 quads.
//!
//! The input words of a draw share the one storage binding with its output words (they follow
//! the outputs): on lavapipe a second storage binding in the layout, used or not, read-only or
//! not, made the storage writes of the stage under test disappear, with no error (the vertex
//! stage's with the binding visible to it, the fragment stage's every time: a fragment shader
//! that declares binding 31 only wrote with that one binding in the layout and never with
//! binding 30 added).

use crate::{Gpu, GpuError};

/// Binding numbers at or above this are the harness's.
pub const HARNESS_BINDING: u32 = 30;
/// Binding of the words of a draw (`uint oracle_out[]`): its [`GlslRun::output_words`] output
/// words, then its [`GlslDraw::input`] words.
pub const OUTPUT_BINDING: u32 = 31;

/// What a texel is: the sample type of the texture binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexelKind {
    /// `Rgba32Float` (read with a non-filtering, nearest sampler).
    Float,
    /// `Rgba32Sint`.
    Sint,
    /// `Rgba32Uint`.
    Uint,
}

/// A one-level 2D texture and its sampler (nearest, repeat), at two bindings of group 0: GLSL
/// reads it as `sampler2D(texture, sampler)`.
#[derive(Clone, Debug)]
pub struct GlslTexture {
    /// The `texture2D` binding.
    pub texture_binding: u32,
    /// The `sampler` binding.
    pub sampler_binding: u32,
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Sample type.
    pub kind: TexelKind,
    /// Row-major texels, bit patterns.
    pub texels: Vec<[u32; 4]>,
}

/// The resources of one draw.
#[derive(Clone, Debug, Default)]
pub struct GlslDraw {
    /// Uniform blocks: (binding, std140 bytes).
    pub uniforms: Vec<(u32, Vec<u8>)>,
    /// Textures.
    pub textures: Vec<GlslTexture>,
    /// Vertex attributes, `stride` words per vertex ([`GlslShape::Points`]).
    pub vertices: Vec<u32>,
    /// Input words, at [`OUTPUT_BINDING`] after the output words (from word
    /// [`GlslRun::output_words`] on).
    pub input: Vec<u32>,
}

/// A vertex attribute of [`GlslShape::Points`]: location, word offset in the vertex, and its
/// four-component type.
#[derive(Clone, Copy, Debug)]
pub struct GlslAttribute {
    /// `layout(location = n)`.
    pub location: u32,
    /// Offset in words.
    pub offset: u32,
    /// Float32x4, Sint32x4 or Uint32x4.
    pub kind: TexelKind,
}

/// What is drawn.
#[derive(Clone, Debug)]
pub enum GlslShape {
    /// `count` points with these attributes, `stride` words per vertex.
    Points {
        /// Vertices per draw.
        count: u32,
        /// Words per vertex.
        stride: u32,
        /// Attributes.
        attributes: Vec<GlslAttribute>,
    },
    /// Every pixel of a `width` × `height` target.
    Grid {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
}

/// One pipeline and its draws.
#[derive(Clone, Debug)]
pub struct GlslRun<'a> {
    /// Vertex stage SPIR-V (entry `main`).
    pub vertex: &'a [u32],
    /// Fragment stage SPIR-V (entry `main`).
    pub fragment: &'a [u32],
    /// What is drawn.
    pub shape: GlslShape,
    /// Output words per draw.
    pub output_words: usize,
    /// The draws; the first one's resources decide the bind group layout.
    pub draws: Vec<GlslDraw>,
}

const ALIGN: u64 = 256;

fn slice(buffer: &wgpu::Buffer, offset: u64, size: u64) -> wgpu::BindingResource<'_> {
    wgpu::BindingResource::Buffer(wgpu::BufferBinding { buffer, offset, size: std::num::NonZeroU64::new(size) })
}

fn aligned(bytes: u64) -> u64 {
    bytes.max(16).div_ceil(ALIGN) * ALIGN
}

impl Gpu {
    /// Runs `run`'s draws in one render pass and returns each draw's output words (zero where
    /// the shader wrote nothing).
    ///
    /// # Errors
    /// [`GpuError::MissingFeature`] when the points shape needs vertex-stage storage writes the
    /// device lacks; [`GpuError::Device`] when pipeline creation, a draw or the read-back fails.
    pub fn run_glsl(&self, run: &GlslRun) -> Result<Vec<Vec<u32>>, GpuError> {
        let points = matches!(run.shape, GlslShape::Points { .. });
        if points && !self.vertex_storage {
            return Err(GpuError::MissingFeature { adapter: self.adapter.clone(), feature: "VERTEX_WRITABLE_STORAGE" });
        }
        let Some(first) = run.draws.first() else { return Ok(Vec::new()) };
        let stages = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let out_stage = if points { wgpu::ShaderStages::VERTEX } else { wgpu::ShaderStages::FRAGMENT };
        let buffer_entry = |binding, ty, visibility| wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
            count: None,
        };
        let mut entries = Vec::new();
        for (b, _) in &first.uniforms {
            entries.push(buffer_entry(*b, wgpu::BufferBindingType::Uniform, stages));
        }
        for t in &first.textures {
            let sample_type = match t.kind {
                TexelKind::Float => wgpu::TextureSampleType::Float { filterable: false },
                TexelKind::Sint => wgpu::TextureSampleType::Sint,
                TexelKind::Uint => wgpu::TextureSampleType::Uint,
            };
            entries.push(wgpu::BindGroupLayoutEntry {
                binding: t.texture_binding,
                visibility: stages,
                ty: wgpu::BindingType::Texture {
                    sample_type,
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            });
            entries.push(wgpu::BindGroupLayoutEntry {
                binding: t.sampler_binding,
                visibility: stages,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::NonFiltering),
                count: None,
            });
        }
        entries.push(buffer_entry(OUTPUT_BINDING, wgpu::BufferBindingType::Storage { read_only: false }, out_stage));
        let bgl =
            self.device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &entries });
        let layout = self.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&bgl)],
            immediate_size: 0,
        });
        let vs = self.module(run.vertex, &[("main", (0, 0, 0))]);
        let fs = self.module(run.fragment, &[("main", (0, 0, 0))]);
        let (attributes, stride, topology) = match &run.shape {
            GlslShape::Points { stride, attributes, .. } => (
                attributes
                    .iter()
                    .map(|a| wgpu::VertexAttribute {
                        format: match a.kind {
                            TexelKind::Float => wgpu::VertexFormat::Float32x4,
                            TexelKind::Sint => wgpu::VertexFormat::Sint32x4,
                            TexelKind::Uint => wgpu::VertexFormat::Uint32x4,
                        },
                        offset: 4 * a.offset as u64,
                        shader_location: a.location,
                    })
                    .collect::<Vec<_>>(),
                *stride as u64 * 4,
                wgpu::PrimitiveTopology::PointList,
            ),
            GlslShape::Grid { .. } => (Vec::new(), 0, wgpu::PrimitiveTopology::TriangleStrip),
        };
        let buffers = [Some(wgpu::VertexBufferLayout {
            array_stride: stride,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &attributes,
        })];
        let (width, height) = match run.shape {
            GlslShape::Points { .. } => (1, 1),
            GlslShape::Grid { width, height } => (width, height),
        };
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = self.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("glsl"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &vs,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                buffers: if points { &buffers } else { &[] },
            },
            primitive: wgpu::PrimitiveState { topology, ..Default::default() },
            // One colour target that nothing reads (the wrapper's storage writes are the
            // results); no depth test, so every fragment runs.
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &fs,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: wgpu::TextureFormat::Rgba8Unorm,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(format!("pipeline: {e}")));
        }
        if let Some(e) = pollster::block_on(internal.pop()) {
            return Err(GpuError::Device(format!("pipeline: {e}")));
        }

        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let in_words = run.draws.iter().map(|d| d.input.len()).max().unwrap_or(0);
        let out_slice = aligned((run.output_words + in_words) as u64 * 4);
        let out_size = out_slice * run.draws.len() as u64;
        let mut bytes = vec![0u8; out_size as usize];
        for (i, d) in run.draws.iter().enumerate() {
            let at = i * out_slice as usize + run.output_words * 4;
            bytes[at..at + d.input.len() * 4].copy_from_slice(bytemuck::cast_slice(&d.input));
        }
        let obuf = self.init_buffer(&bytes, wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC)?;
        let sampler = self.device.create_sampler(&wgpu::SamplerDescriptor {
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            address_mode_w: wgpu::AddressMode::Repeat,
            ..Default::default()
        });
        let mut keep = Vec::new();
        let mut groups = Vec::new();
        for (i, d) in run.draws.iter().enumerate() {
            let mut ubufs: Vec<(u32, wgpu::Buffer)> = Vec::new();
            for (b, bytes) in &d.uniforms {
                ubufs.push((*b, self.init_buffer(bytes, wgpu::BufferUsages::UNIFORM)?));
            }
            let views: Vec<(u32, u32, wgpu::TextureView)> =
                d.textures.iter().map(|t| (t.texture_binding, t.sampler_binding, self.texture(t))).collect();
            let mut entries: Vec<wgpu::BindGroupEntry> = ubufs
                .iter()
                .map(|(b, buf)| wgpu::BindGroupEntry { binding: *b, resource: buf.as_entire_binding() })
                .collect();
            for (tb, sb, view) in &views {
                entries.push(wgpu::BindGroupEntry { binding: *tb, resource: wgpu::BindingResource::TextureView(view) });
                entries.push(wgpu::BindGroupEntry { binding: *sb, resource: wgpu::BindingResource::Sampler(&sampler) });
            }
            entries.push(wgpu::BindGroupEntry {
                binding: OUTPUT_BINDING,
                resource: slice(&obuf, i as u64 * out_slice, out_slice),
            });
            groups.push(self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &bgl,
                entries: &entries,
            }));
            let vbuf = self.init_buffer(bytemuck::cast_slice(&d.vertices), wgpu::BufferUsages::VERTEX)?;
            keep.push((ubufs, views, vbuf));
        }
        let color = self.device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let color_view = color.create_view(&Default::default());
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &color_view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],

                ..Default::default()
            });
            pass.set_pipeline(&pipeline);
            for (i, bg) in groups.iter().enumerate() {
                pass.set_bind_group(0, bg, &[]);
                match &run.shape {
                    GlslShape::Points { count, .. } => {
                        pass.set_vertex_buffer(0, keep[i].2.slice(..));
                        pass.draw(0..*count, 0..1);
                    }
                    GlslShape::Grid { .. } => pass.draw(0..4, 0..1),
                }
            }
        }
        let words = self.read_back(&obuf, out_size, encoder)?;
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(format!("draw: {e}")));
        }
        let per = (out_slice / 4) as usize;
        Ok((0..run.draws.len()).map(|i| words[i * per..i * per + run.output_words].to_vec()).collect())
    }

    /// A buffer holding `data` from its creation (mapped at creation, not a queued write: on
    /// lavapipe, queued writes of new buffers were now and then missing from the draws of the
    /// same submission).
    fn init_buffer(&self, data: &[u8], usage: wgpu::BufferUsages) -> Result<wgpu::Buffer, GpuError> {
        let size = (data.len() as u64).max(16).div_ceil(4) * 4;
        let b =
            self.device.create_buffer(&wgpu::BufferDescriptor { label: None, size, usage, mapped_at_creation: true });
        {
            let mut view = b.slice(..).get_mapped_range_mut().map_err(|e| GpuError::Device(e.to_string()))?;
            view.slice(..data.len()).copy_from_slice(data);
        }
        b.unmap();
        Ok(b)
    }

    fn texture(&self, t: &GlslTexture) -> wgpu::TextureView {
        let format = match t.kind {
            TexelKind::Float => wgpu::TextureFormat::Rgba32Float,
            TexelKind::Sint => wgpu::TextureFormat::Rgba32Sint,
            TexelKind::Uint => wgpu::TextureFormat::Rgba32Uint,
        };
        let size = wgpu::Extent3d { width: t.width, height: t.height, depth_or_array_layers: 1 };
        let tex = self.device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let bytes: Vec<u8> = t.texels.iter().flat_map(|p| p.iter().flat_map(|w| w.to_le_bytes())).collect();
        self.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &tex,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            &bytes,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(16 * t.width), rows_per_image: None },
            size,
        );
        tex.create_view(&Default::default())
    }
}

//! Vertex shaders in a real render pipeline: a point list drawn with the translated vertex stage,
//! so the vertex-stage ABI (input locations, position builtin, output locations) is exercised.
//!
//! A fragment shader (WGSL, compiled by naga and passed through like the vertex stage) reads
//! every output location with flat interpolation and writes it to a storage buffer at the
//! point's primitive index, so each rasterized vertex reports its outputs exactly. Points the
//! clipper removes report nothing.

use std::fmt::Write as _;

use translate::pica::Interface;

use crate::{Gpu, GpuError};

/// Size of the render target: points outside it are not rasterized.
const TARGET: u32 = 64;

/// Outputs of each vertex through the render pipeline.
#[derive(Clone, Debug)]
pub struct VertexRun {
    /// Per vertex: the bit patterns of the output locations of `Interface::outputs`, in order,
    /// or `None` when the point was not rasterized (outside the clip volume or the target).
    pub vertices: Vec<Option<Vec<[u32; 4]>>>,
}

fn fragment_wgsl(outputs: &[u8]) -> String {
    let stride = 1 + outputs.len();
    let mut s = String::from(
        "enable primitive_index;\n@group(0) @binding(3) var<storage, read_write> fout: array<vec4<f32>>;\n",
    );
    s.push_str("@fragment\nfn main(@builtin(primitive_index) p: u32");
    for o in outputs {
        let _ = write!(s, ", @location({o}) @interpolate(flat) o{o}: vec4<f32>");
    }
    let _ =
        writeln!(s, ") -> @location(0) vec4<f32> {{\n    let base = p * {stride}u;\n    fout[base] = vec4<f32>(1.0);");
    for (k, o) in outputs.iter().enumerate() {
        let _ = writeln!(s, "    fout[base + {}u] = o{o};", k + 1);
    }
    s.push_str("    return vec4<f32>(0.0);\n}\n");
    s
}

fn fragment_spirv(outputs: &[u8]) -> Result<Vec<u32>, GpuError> {
    let src = fragment_wgsl(outputs);
    let module = naga::front::wgsl::parse_str(&src).map_err(|e| GpuError::Device(format!("fragment shader: {e}")))?;
    let info =
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::PRIMITIVE_INDEX)
            .validate(&module)
            .map_err(|e| GpuError::Device(format!("fragment shader: {e:?}")))?;
    let options = naga::back::spv::Options {
        lang_version: (1, 3),
        flags: naga::back::spv::WriterFlags::empty(),
        ..Default::default()
    };
    naga::back::spv::write_vec(&module, &info, &options, None)
        .map_err(|e| GpuError::Device(format!("fragment shader: {e}")))
}

impl Gpu {
    /// Draws one point per vertex with the translated vertex stage `words` (entry `main`).
    /// `inputs` holds 16 vec4 registers (v0-v15, bit patterns) per vertex.
    ///
    /// # Errors
    /// [`GpuError::MissingFeature`] without primitive indices in fragment shaders,
    /// [`GpuError::Device`] when pipeline creation or the read-back fails.
    pub fn run_vertex(
        &self,
        words: &[u32],
        interface: &Interface,
        uniforms: &[u8],
        inputs: &[u32],
    ) -> Result<VertexRun, GpuError> {
        use wgpu::BufferBindingType as T;
        if !self.primitive_index {
            return Err(GpuError::MissingFeature { adapter: self.adapter.clone(), feature: "PRIMITIVE_INDEX" });
        }
        let regs = translate::pica::REGS as usize;
        let count = inputs.len() / (regs * 4);
        let vs = self.module(words, &[(translate::pica::ENTRY, (0, 0, 0))]);
        let fs_words = fragment_spirv(&interface.outputs)?;
        let fs = self.module(&fs_words, &[("main", (0, 0, 0))]);

        // Group 0 holds the vertex uniforms (binding 0) and the fragment output (binding 3).
        let (bgl, layout) = self.layouts(&[
            (0, T::Uniform, wgpu::ShaderStages::VERTEX),
            (3, T::Storage { read_only: false }, wgpu::ShaderStages::FRAGMENT),
        ]);
        let attributes = interface
            .inputs
            .iter()
            .map(|&v| wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x4,
                offset: 16 * v as u64,
                shader_location: v as u32,
            })
            .collect::<Vec<_>>();
        let format = wgpu::TextureFormat::Rgba8Unorm;
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = self.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: None,
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &vs,
                entry_point: Some(translate::pica::ENTRY),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: 16 * regs as u64,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &attributes,
                })],
            },
            primitive: wgpu::PrimitiveState { topology: wgpu::PrimitiveTopology::PointList, ..Default::default() },
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &fs,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState { format, blend: None, write_mask: wgpu::ColorWrites::ALL })],
            }),
            multiview_mask: None,
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(e.to_string()));
        }
        let stride = 1 + interface.outputs.len();
        let out_words = count * stride * 4;
        let ubuf = self.upload(uniforms, wgpu::BufferUsages::UNIFORM);
        let vbuf = self.upload(bytemuck::cast_slice(inputs), wgpu::BufferUsages::VERTEX);
        let obuf = self.upload(&vec![0u8; out_words * 4], wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC);
        let bg = self.bind_group(&bgl, &[(0, &ubuf), (3, &obuf)]);
        let target = self.device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size: wgpu::Extent3d { width: TARGET, height: TARGET, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let view = target.create_view(&Default::default());
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
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
            pass.set_bind_group(0, &bg, &[]);
            pass.set_vertex_buffer(0, vbuf.slice(..));
            pass.draw(0..count as u32, 0..1);
        }
        let words = self.read_back(&obuf, (out_words * 4).max(16) as u64, encoder)?;
        let vertices = (0..count)
            .map(|i| {
                let rec = &words[i * stride * 4..(i + 1) * stride * 4];
                (rec[0] == 1.0f32.to_bits()).then(|| rec[4..].chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect())
            })
            .collect();
        Ok(VertexRun { vertices })
    }
}

//! What the fragment harnesses (TEV, PICA200 fragment pipeline) share: a point-list render
//! pipeline into one `Rgba8Unorm` target, and a draw of one point per pixel read back as RGBA8.
//! A point's fragment gets its vertex's values exactly (no interpolation across a point).

use crate::{Gpu, GpuError};

/// Pixels per row of the target.
pub(crate) const ROW: u32 = 64;

impl Gpu {
    /// The point-list pipeline of harness vertex stage `vs` (entry `main`) and the fragment
    /// module `fragment` (entry `entry`), one `Rgba8Unorm` target, no depth test or blending.
    pub(crate) fn point_pipeline(
        &self,
        layout: &wgpu::PipelineLayout,
        vs: &wgpu::ShaderModule,
        fragment: &[u32],
        entry: &str,
    ) -> Result<wgpu::RenderPipeline, GpuError> {
        let fs = self.module(fragment, &[(entry, (0, 0, 0))]);
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = self.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: None,
            layout: Some(layout),
            vertex: wgpu::VertexState {
                module: vs,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState { topology: wgpu::PrimitiveTopology::PointList, ..Default::default() },
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &fs,
                entry_point: Some(entry),
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
            return Err(GpuError::Device(e.to_string()));
        }
        Ok(pipeline)
    }

    /// Draws `points` points (point i at pixel i of a target `ROW` pixels wide, as the harness
    /// vertex stages place them) over a target cleared to `clear`; each pixel's RGBA8.
    pub(crate) fn draw_points(
        &self,
        pipeline: &wgpu::RenderPipeline,
        bind_group: &wgpu::BindGroup,
        points: usize,
        clear: [u8; 4],
    ) -> Result<Vec<[u8; 4]>, GpuError> {
        let device = &self.device;
        let rows = (points as u32).div_ceil(ROW).max(1);
        let size = wgpu::Extent3d { width: ROW, height: rows, depth_or_array_layers: 1 };
        let target = device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = target.create_view(&Default::default());
        let c = |v: u8| f64::from(v) / 255.0;
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: c(clear[0]),
                            g: c(clear[1]),
                            b: c(clear[2]),
                            a: c(clear[3]),
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, bind_group, &[]);
            pass.draw(0..points as u32, 0..1);
        }
        // ROW * 4 bytes = 256, the copy alignment.
        let out_size = u64::from(ROW * 4 * rows);
        let obuf = self.buffer(out_size, wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC);
        encoder.copy_texture_to_buffer(
            target.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &obuf,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(ROW * 4), rows_per_image: None },
            },
            size,
        );
        let words = self.read_back(&obuf, out_size, encoder)?;
        Ok(words.iter().take(points).map(|w| w.to_le_bytes()).collect())
    }
}

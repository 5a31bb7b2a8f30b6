//! TEV fragment modules in a real render pass, read back as RGBA8, and their verification
//! against the CPU reference (`gx::tev`, `gx::indirect`, `gx::sample`).
//!
//! The module under test is the translator's fragment stage itself, passed through as its
//! SPIR-V words: a harness vertex stage (WGSL, compiled by naga) draws one point per pixel and
//! hands the pixel's texture coordinates and colours to the fragment stage's input locations
//! (docs/abi.md "Hollywood TEV"), the eight texture maps are bound as `Rgba8Uint` textures, and
//! the colour attachment is `Rgba8Unorm`. A point's fragment gets its vertex's values exactly
//! (no interpolation across a point), so the inputs are exact.
//!
//! The alpha test discards: the attachment is cleared to a sentinel colour that differs from
//! every reference output of the batch, so a pixel reads back either its colour (passed) or the
//! sentinel (discarded), and both are compared.

use gx::key::{TevKey, TEXMAPS};
use gx::sample::Image;
use gx::{Evaluator, PixelInputs, TevState};

use crate::points::ROW;
use crate::{Gpu, GpuError};

/// Binding of the per-pixel records: the harness vertex stage's input, and the compute entry
/// point's (the same layout).
const PIXELS_BINDING: u32 = translate::gx_tev::COMPUTE_IN_BINDING;

/// One pixel's inputs: texture coordinates in texels (s17.7 values as f32, so multiples of
/// 1/128) and the rasterized colours (0-1).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TevPixel {
    /// Texture coordinates of texgens 0-7.
    pub texcoords: [[f32; 2]; 8],
    /// Colour channels 0 and 1.
    pub colors: [[f32; 4]; 2],
    /// Depth (the 24-bit value), column and row. The render path draws pixel i at column
    /// i % 64, row i / 64 and takes only the depth from here.
    pub depth_pos: [f32; 4],
}

impl TevPixel {
    /// The device inputs of the reference's pixel inputs (`texcoords` and `ras`).
    pub fn from_inputs(p: &PixelInputs) -> Self {
        Self {
            texcoords: p.texcoords.map(|c| [c[0] as f32 / 128.0, c[1] as f32 / 128.0]),
            colors: p.ras.map(|c| c.map(|v| v as f32 / 255.0)),
            depth_pos: [(p.z & gx::pixel::Z_MASK) as f32, p.pos[0] as f32, p.pos[1] as f32, 0.0],
        }
    }
}

const VERTEX_WGSL: &str = r#"
struct Px { tc: array<vec4<f32>, 4>, c0: vec4<f32>, c1: vec4<f32>, zp: vec4<f32> }
@group(0) @binding(9) var<storage, read> px: array<Px>;
struct VOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) t0: vec2<f32>, @location(1) t1: vec2<f32>, @location(2) t2: vec2<f32>, @location(3) t3: vec2<f32>,
    @location(4) t4: vec2<f32>, @location(5) t5: vec2<f32>, @location(6) t6: vec2<f32>, @location(7) t7: vec2<f32>,
    @location(8) c0: vec4<f32>, @location(9) c1: vec4<f32>,
}
@vertex
fn main(@builtin(vertex_index) i: u32) -> VOut {
    let rows = (arrayLength(&px) + 63u) / 64u;
    let x = (f32(i % 64u) + 0.5) / 64.0 * 2.0 - 1.0;
    let y = 1.0 - (f32(i / 64u) + 0.5) / f32(rows) * 2.0;
    let p = px[i];
    var o: VOut;
    // Depth z / 2^24 is exact in f32 and the viewport maps it unchanged.
    o.pos = vec4<f32>(x, y, p.zp.x / 16777216.0, 1.0);
    o.t0 = p.tc[0].xy; o.t1 = p.tc[0].zw; o.t2 = p.tc[1].xy; o.t3 = p.tc[1].zw;
    o.t4 = p.tc[2].xy; o.t5 = p.tc[2].zw; o.t6 = p.tc[3].xy; o.t7 = p.tc[3].zw;
    o.c0 = p.c0;
    o.c1 = p.c1;
    return o;
}
"#;

/// Runs TEV fragment modules with one set of texture maps bound.
pub struct TevRunner<'g> {
    gpu: &'g Gpu,
    vs: wgpu::ShaderModule,
    bgl: wgpu::BindGroupLayout,
    layout: wgpu::PipelineLayout,
    views: Vec<wgpu::TextureView>,
}

impl<'g> TevRunner<'g> {
    /// Uploads the eight texture maps (map k at binding `1 + k`).
    ///
    /// # Errors
    /// [`GpuError::Device`] when the harness shader fails to build.
    pub fn new(gpu: &'g Gpu, maps: &[Image; TEXMAPS]) -> Result<Self, GpuError> {
        let vs_words = crate::harness_spirv(VERTEX_WGSL, "harness vertex shader")?;
        let vs = gpu.module(&vs_words, &[("main", (0, 0, 0))]);
        let frag = wgpu::ShaderStages::FRAGMENT | wgpu::ShaderStages::COMPUTE;
        let mut entries = vec![wgpu::BindGroupLayoutEntry {
            binding: translate::gx_tev::UNIFORM_BINDING,
            visibility: frag,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }];
        for k in 0..TEXMAPS as u32 {
            entries.push(wgpu::BindGroupLayoutEntry {
                binding: translate::gx_tev::TEXMAP_BINDING + k,
                visibility: frag,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Uint,
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            });
        }
        for (binding, visibility, read_only) in [
            (PIXELS_BINDING, wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::COMPUTE, true),
            (translate::gx_tev::COMPUTE_OUT_BINDING, wgpu::ShaderStages::COMPUTE, false),
        ] {
            entries.push(wgpu::BindGroupLayoutEntry {
                binding,
                visibility,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            });
        }
        let device = &gpu.device;
        let bgl = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &entries });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&bgl)],
            immediate_size: 0,
        });
        let views = maps
            .iter()
            .map(|img| {
                let size = wgpu::Extent3d { width: img.width, height: img.height, depth_or_array_layers: 1 };
                let tex = device.create_texture(&wgpu::TextureDescriptor {
                    label: None,
                    size,
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Rgba8Uint,
                    usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                    view_formats: &[],
                });
                let bytes: Vec<u8> = img.texels.iter().flatten().copied().collect();
                gpu.queue.write_texture(
                    tex.as_image_copy(),
                    &bytes,
                    wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * img.width), rows_per_image: None },
                    size,
                );
                tex.create_view(&Default::default())
            })
            .collect();
        Ok(Self { gpu, vs, bgl, layout, views })
    }

    /// Builds the render pipeline of a fragment module (the driver's compile).
    ///
    /// # Errors
    /// [`GpuError::Device`] when pipeline creation fails.
    pub fn pipeline(&self, fragment: &[u32]) -> Result<wgpu::RenderPipeline, GpuError> {
        self.gpu.point_pipeline(&self.layout, &self.vs, fragment, translate::gx_tev::ENTRY)
    }

    /// The bind group of one run and its output buffer (16 bytes per pixel).
    fn bind_group(&self, uniforms: &[u8], pixels: &[TevPixel]) -> (wgpu::BindGroup, wgpu::Buffer) {
        let gpu = self.gpu;
        let mut data: Vec<f32> = Vec::with_capacity(pixels.len() * 28);
        for p in pixels {
            data.extend(p.texcoords.iter().flatten());
            data.extend(p.colors.iter().flatten());
            data.extend(p.depth_pos);
        }
        let ubuf = gpu.upload(uniforms, wgpu::BufferUsages::UNIFORM);
        let pbuf = gpu.upload(bytemuck::cast_slice(&data), wgpu::BufferUsages::STORAGE);
        let obuf = gpu.buffer(16 * pixels.len() as u64, wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC);
        let mut entries = vec![
            wgpu::BindGroupEntry { binding: translate::gx_tev::UNIFORM_BINDING, resource: ubuf.as_entire_binding() },
            wgpu::BindGroupEntry { binding: PIXELS_BINDING, resource: pbuf.as_entire_binding() },
            wgpu::BindGroupEntry {
                binding: translate::gx_tev::COMPUTE_OUT_BINDING,
                resource: obuf.as_entire_binding(),
            },
        ];
        for (k, v) in self.views.iter().enumerate() {
            entries.push(wgpu::BindGroupEntry {
                binding: translate::gx_tev::TEXMAP_BINDING + k as u32,
                resource: wgpu::BindingResource::TextureView(v),
            });
        }
        let bg = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.bgl,
            entries: &entries,
        });
        (bg, obuf)
    }

    /// Builds the compute pipeline of a module translated with the compute wrapper.
    ///
    /// # Errors
    /// [`GpuError::Device`] when pipeline creation fails.
    pub fn compute_pipeline(&self, words: &[u32]) -> Result<wgpu::ComputePipeline, GpuError> {
        use translate::gx_tev::{COMPUTE_ENTRY, COMPUTE_WORKGROUP};
        let device = &self.gpu.device;
        let module = self.gpu.module(words, &[(COMPUTE_ENTRY, (COMPUTE_WORKGROUP, 1, 1))]);
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: Some(&self.layout),
            module: &module,
            entry_point: Some(COMPUTE_ENTRY),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(e.to_string()));
        }
        Ok(pipeline)
    }

    /// Runs the compute entry point over `pixels`: per pixel the TEV function's result
    /// `(r | g << 8 | b << 16 | a << 24, pass, z, ifog)`.
    ///
    /// # Errors
    /// [`GpuError::Device`] when the read-back fails.
    pub fn dispatch(
        &self,
        pipeline: &wgpu::ComputePipeline,
        uniforms: &[u8],
        pixels: &[TevPixel],
    ) -> Result<Vec<[u32; 4]>, GpuError> {
        let (bg, obuf) = self.bind_group(uniforms, pixels);
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bg, &[]);
            pass.dispatch_workgroups((pixels.len() as u32).div_ceil(translate::gx_tev::COMPUTE_WORKGROUP), 1, 1);
        }
        let words = self.gpu.read_back(&obuf, (16 * pixels.len() as u64).max(16), encoder)?;
        Ok(words.chunks(4).take(pixels.len()).map(|c| [c[0], c[1], c[2], c[3]]).collect())
    }

    /// Draws `pixels` with `pipeline` and the uniform block `uniforms` over a target cleared to
    /// `clear`; returns each pixel's RGBA8.
    ///
    /// # Errors
    /// [`GpuError::Device`] when the read-back fails.
    pub fn draw(
        &self,
        pipeline: &wgpu::RenderPipeline,
        uniforms: &[u8],
        pixels: &[TevPixel],
        clear: [u8; 4],
    ) -> Result<Vec<[u8; 4]>, GpuError> {
        let (bg, _) = self.bind_group(uniforms, pixels);
        self.gpu.draw_points(pipeline, &bg, pixels.len(), clear)
    }
}

/// The outcome of checking one material (or key) on the device.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TevCheck {
    /// Pixels that matched (colour, or discard, as the reference).
    pub passed: usize,
    /// Pixels that did not.
    pub failed: usize,
    /// Mismatched bits over all pixels (RGBA, alpha-test result and, on the compute path, the
    /// 24-bit depth and the fog factor).
    pub mismatched_bits: u32,
    /// Pixels whose reference fog factor lies strictly between 0 and 256 (coverage of the fog
    /// arithmetic, not only of its clamps).
    pub partly_fogged: usize,
    /// The first mismatch: pixel index, device RGBA, reference RGBA (the clear colour where the
    /// reference discards, on the render path).
    pub first: Option<(usize, [u8; 4], Option<[u8; 4]>)>,
}

/// The reference's result for one pixel: the RGBA it stores (after fog, dither, constant
/// alpha and the pixel format), or `None` when the alpha test discards it.
pub fn reference_pixel(ev: &Evaluator, maps: &[Image; TEXMAPS], input: &PixelInputs) -> Option<[u8; 4]> {
    let o = ev.eval_sampled(maps, input);
    o.alpha_pass.then_some(o.post.rgba)
}

/// The position the render path draws pixel `i` at (rows of 64).
pub fn render_position(i: usize) -> [u32; 2] {
    [i as u32 % ROW, i as u32 / ROW]
}

/// A clear colour that no reference output of the batch equals.
fn sentinel(want: &[Option<[u8; 4]>]) -> [u8; 4] {
    let mut c = 0x5A3C_E1A7u32;
    loop {
        let s = c.to_le_bytes();
        if !want.contains(&Some(s)) {
            return s;
        }
        c = c.wrapping_mul(0x0019_660D).wrapping_add(0x3C6E_F35F);
    }
}

/// How a module is run on the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// The fragment entry point in a render pass (RGBA8 target; a discard leaves the clear
    /// colour).
    Render,
    /// The compute entry point over the same TEV function (colour and alpha-test result of
    /// every pixel, discarded or not).
    Compute,
}

/// Translates `state`'s key, runs it over `inputs` on the device along `path` and compares
/// every pixel with the CPU reference.
///
/// # Errors
/// Translation or device errors.
pub fn check_state(
    runner: &TevRunner,
    maps: &[Image; TEXMAPS],
    state: &TevState,
    inputs: &[PixelInputs],
    path: Path,
) -> Result<TevCheck, crate::verify::VerifyError> {
    let key = TevKey::new(state);
    let options = translate::gx_tev::Options { compute_wrapper: path == Path::Compute };
    let words = translate::gx_tev::translate(&key, &options)?.spirv()?;
    let ev = Evaluator::new(state);
    let pixels: Vec<TevPixel> = inputs.iter().map(TevPixel::from_inputs).collect();
    let uniforms = translate::gx_tev::UniformBlock::from_state(state).to_bytes();
    // The render path draws pixel i at a fixed position: the reference sees that position.
    let inputs: Vec<PixelInputs> = match path {
        Path::Render => {
            inputs.iter().enumerate().map(|(i, p)| PixelInputs { pos: render_position(i), ..p.clone() }).collect()
        }
        Path::Compute => inputs.to_vec(),
    };
    let outputs: Vec<gx::PixelOutput> = inputs.iter().map(|p| ev.eval_sampled(maps, p)).collect();
    // Per pixel: device RGBA, reference RGBA, and the count of other mismatched bits.
    let pairs: Vec<([u8; 4], [u8; 4], u32)> = match path {
        Path::Render => {
            let want: Vec<Option<[u8; 4]>> = outputs.iter().map(|o| o.alpha_pass.then_some(o.post.rgba)).collect();
            let clear = sentinel(&want);
            let pipeline = runner.pipeline(&words)?;
            let got = runner.draw(&pipeline, &uniforms, &pixels, clear)?;
            got.iter().zip(&want).map(|(g, w)| (*g, w.unwrap_or(clear), 0)).collect()
        }
        Path::Compute => {
            let pipeline = runner.compute_pipeline(&words)?;
            let got = runner.dispatch(&pipeline, &uniforms, &pixels)?;
            got.iter()
                .zip(&outputs)
                .map(|(g, o)| {
                    let other = (g[1] ^ o.alpha_pass as u32).count_ones()
                        + (g[2] ^ o.post.z).count_ones()
                        + (g[3] ^ o.post.ifog as u32).count_ones();
                    (g[0].to_le_bytes(), o.post.rgba, other)
                })
                .collect()
        }
    };
    let mut check = TevCheck {
        partly_fogged: outputs.iter().filter(|o| o.post.ifog > 0 && o.post.ifog < 256).count(),
        ..Default::default()
    };
    for (i, (g, w, other)) in pairs.iter().enumerate() {
        let bits: u32 = g.iter().zip(w).map(|(a, b)| (a ^ b).count_ones()).sum::<u32>() + other;
        if bits == 0 {
            check.passed += 1;
        } else {
            check.failed += 1;
            check.mismatched_bits += bits;
            check.first.get_or_insert((i, *g, Some(*w)));
        }
    }
    Ok(check)
}

/// Eight texture maps of random sizes (1-16 texels a side, not only powers of two) and texels,
/// from `u`.
pub fn random_maps(u: &mut arbitrary::Unstructured) -> [Image; TEXMAPS] {
    std::array::from_fn(|_| {
        let w = u.int_in_range(1..=16u32).unwrap_or(4);
        let h = u.int_in_range(1..=16u32).unwrap_or(4);
        let texels = (0..w * h).map(|_| u.arbitrary().unwrap_or([0x80; 4])).collect();
        Image { width: w, height: h, texels }
    })
}

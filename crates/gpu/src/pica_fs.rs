//! PICA200 fragment modules (`translate::pica_fs`) on the device against the CPU reference
//! (`pica::fixed`), through the modules' compute entry point: the pipeline function over a
//! storage buffer of fragment inputs, one result word per fragment (colour and depth, discard,
//! or the shadow write).
//!
//! Texture units are bound as `Rgba8Uint` images (unit 0 of a cube type as a six-layer array);
//! [`UnitTextures::sample`] is the CPU side of the module's texel fetch (docs/abi.md), the
//! sampler the reference runs with.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use pica::fixed::{self, FragmentInputs, FragmentKey, FragmentUniforms, Rgba, TexCoord, TexelRequest};
use translate::pica_fs::{self as fs, InputMap, ResultWord, TextureBinding, UniformBlock};

use crate::{Gpu, GpuError};

/// One unit's image: `layers` is 1 (2D) or 6 (cube faces in `CubeFace` order), texels row by
/// row from t = 0 (the bottom row, as the PICA stores it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitImage {
    pub width: u32,
    pub height: u32,
    pub layers: Vec<Vec<Rgba>>,
}

/// The images of texture units 0-2: unit 0 as a 2D image and as a cube, units 1 and 2 as 2D.
#[derive(Clone, Debug)]
pub struct UnitTextures {
    pub d2: [UnitImage; 3],
    pub cube: UnitImage,
}

/// The wrapped texel index of `x` on an axis of `n` texels for wrap mode `mode`, or `None` for
/// clamp to border outside the image (docs/abi.md "texel fetch").
fn wrap(x: i32, n: i32, mode: i32) -> Option<i32> {
    let rem = |x: i32, n: i32| x.rem_euclid(n);
    match mode {
        1 if x < 0 || x >= n => None,
        2 => Some(rem(x, n)),
        3 => {
            let m = rem(x, 2 * n);
            Some(if m >= n { 2 * n - 1 - m } else { m })
        }
        _ => Some(x.clamp(0, n - 1)),
    }
}

/// `floor(s * n)` as the module computes it: products outside +/-2^24 (NaN included) read 0.
fn texel_index(s: f32, n: u32) -> i32 {
    let p = s * n as f32;
    let p = if p > -16_777_216.0 && p < 16_777_216.0 { p } else { 0.0 };
    p.floor() as i32
}

impl UnitTextures {
    /// The texel the module fetches for `request` with the wrap modes and border colours of
    /// `block`.
    pub fn sample(&self, block: &UniformBlock, request: TexelRequest) -> Rgba {
        let unit = request.unit.min(2);
        let (image, layer, s, t) = match request.coord {
            TexCoord::Plane { s, t } => (&self.d2[unit], 0, s, t),
            TexCoord::Cube { face, s, t } => (&self.cube, face as usize, s, t),
        };
        let modes = block.samplers[2 * unit];
        let (x, y) = (texel_index(s, image.width), texel_index(t, image.height));
        match (wrap(x, image.width as i32, modes[0]), wrap(y, image.height as i32, modes[1])) {
            (Some(x), Some(y)) => image.layers[layer][(y as u32 * image.width + x as u32) as usize],
            _ => block.samplers[2 * unit + 1].map(|c| c as u8),
        }
    }

    /// Random images of 1-16 texels a side (cube faces square), from `u`.
    pub fn random(u: &mut arbitrary::Unstructured) -> UnitTextures {
        let mut image = |layers: usize, square: bool| {
            let w = u.int_in_range(1..=16u32).unwrap_or(4);
            let h = if square { w } else { u.int_in_range(1..=16u32).unwrap_or(4) };
            let layers =
                (0..layers).map(|_| (0..w * h).map(|_| u.arbitrary().unwrap_or([0x80; 4])).collect()).collect();
            UnitImage { width: w, height: h, layers }
        };
        let d2 = [image(1, false), image(1, false), image(1, false)];
        UnitTextures { d2, cube: image(6, true) }
    }
}

/// The compute-entry record of one fragment (docs/abi.md): 6 vec4s.
pub fn record(f: &FragmentInputs) -> [f32; 24] {
    let [t0, t1, t2] = f.texcoord;
    let [c0, c1, c2, c3] = f.color;
    let [n0, n1, n2, n3] = f.normquat;
    let [v0, v1, v2] = f.view;
    [
        c0,
        c1,
        c2,
        c3,
        t0[0],
        t0[1],
        t1[0],
        t1[1],
        t2[0],
        t2[1],
        f.texcoord0_w,
        f.z_over_w,
        n0,
        n1,
        n2,
        n3,
        v0,
        v1,
        v2,
        f.w,
        f.proctex_duv[0],
        f.proctex_duv[1],
        0.0,
        0.0,
    ]
}

/// Runs fragment modules with one set of unit images bound; compute pipelines are shared
/// between keys whose modules are the same words.
pub struct FragmentRunner<'g> {
    gpu: &'g Gpu,
    /// Bind group layouts and pipeline layouts with unit 0 as a 2D image and as an array.
    layouts: [(wgpu::BindGroupLayout, wgpu::PipelineLayout); 2],
    views: [wgpu::TextureView; 3],
    cube: wgpu::TextureView,
    pipelines: Mutex<HashMap<Vec<u32>, Arc<wgpu::ComputePipeline>>>,
    compiles: Mutex<usize>,
    vs: wgpu::ShaderModule,
}

/// The harness vertex stage of the render path: one point per fragment record, its inputs in
/// the output registers of [`RENDER_INPUT_MAP`] (o1 colour, o2 texcoord 0 and its w, o3
/// texcoord 1, o4 texcoord 2, o5 view, o6 normal quaternion), z/w as the position's z and w = 1.
const VERTEX_WGSL: &str = r#"
@group(0) @binding(4) var<storage, read> rec: array<array<vec4<f32>, 6>>;
struct VOut {
    @builtin(position) pos: vec4<f32>,
    @location(1) o1: vec4<f32>, @location(2) o2: vec4<f32>, @location(3) o3: vec4<f32>,
    @location(4) o4: vec4<f32>, @location(5) o5: vec4<f32>, @location(6) o6: vec4<f32>,
}
@vertex
fn main(@builtin(vertex_index) i: u32) -> VOut {
    let rows = (arrayLength(&rec) + 63u) / 64u;
    let x = (f32(i % 64u) + 0.5) / 64.0 * 2.0 - 1.0;
    let y = 1.0 - (f32(i / 64u) + 0.5) / f32(rows) * 2.0;
    let r = rec[i];
    var o: VOut;
    o.pos = vec4<f32>(x, y, r[2].w, 1.0);
    o.o1 = r[0];
    o.o2 = vec4<f32>(r[1].xy, r[2].z, 0.0);
    o.o3 = vec4<f32>(r[1].zw, 0.0, 0.0);
    o.o4 = vec4<f32>(r[2].xy, 0.0, 0.0);
    o.o5 = vec4<f32>(r[4].xyz, 0.0);
    o.o6 = r[3];
    return o;
}
"#;

/// The output map the render path's vertex stage writes (see `VERTEX_WGSL`).
pub fn render_input_map() -> InputMap {
    InputMap::typical()
}

pub(crate) fn texture(gpu: &Gpu, img: &UnitImage) -> wgpu::Texture {
    let layers = img.layers.len() as u32;
    let size = wgpu::Extent3d { width: img.width, height: img.height, depth_or_array_layers: layers };
    let tex = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Uint,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let bytes: Vec<u8> = img.layers.iter().flatten().flatten().copied().collect();
    gpu.queue.write_texture(
        tex.as_image_copy(),
        &bytes,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * img.width), rows_per_image: Some(img.height) },
        size,
    );
    tex
}

impl<'g> FragmentRunner<'g> {
    /// Uploads the unit images.
    pub fn new(gpu: &'g Gpu, textures: &UnitTextures) -> Self {
        let device = &gpu.device;
        let stages = wgpu::ShaderStages::FRAGMENT | wgpu::ShaderStages::COMPUTE;
        let layout = |unit0: wgpu::TextureViewDimension| {
            let mut entries = vec![wgpu::BindGroupLayoutEntry {
                binding: fs::UNIFORM_BINDING,
                visibility: stages,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }];
            for u in 0..3u32 {
                entries.push(wgpu::BindGroupLayoutEntry {
                    binding: fs::TEXTURE_BINDING + u,
                    visibility: stages,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Uint,
                        view_dimension: if u == 0 { unit0 } else { wgpu::TextureViewDimension::D2 },
                        multisampled: false,
                    },
                    count: None,
                });
            }
            for (binding, read_only) in [(fs::COMPUTE_IN_BINDING, true), (fs::COMPUTE_OUT_BINDING, false)] {
                let vertex = if read_only { wgpu::ShaderStages::VERTEX } else { wgpu::ShaderStages::NONE };
                entries.push(wgpu::BindGroupLayoutEntry {
                    binding,
                    visibility: wgpu::ShaderStages::COMPUTE | vertex,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                });
            }
            let bgl =
                device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &entries });
            let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &[Some(&bgl)],
                immediate_size: 0,
            });
            (bgl, pl)
        };
        let layouts = [layout(wgpu::TextureViewDimension::D2), layout(wgpu::TextureViewDimension::D2Array)];
        let views = [0, 1, 2].map(|u| texture(gpu, &textures.d2[u]).create_view(&Default::default()));
        let cube = texture(gpu, &textures.cube).create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            ..Default::default()
        });
        let vs = crate::harness_spirv(VERTEX_WGSL, "fragment harness vertex shader")
            .map(|w| gpu.module(&w, &[("main", (0, 0, 0))]))
            .expect("the harness vertex shader is valid WGSL");
        FragmentRunner { gpu, layouts, views, cube, pipelines: Mutex::new(HashMap::new()), compiles: Mutex::new(0), vs }
    }

    /// How many compute pipelines were built (the driver compiles) so far.
    pub fn compiles(&self) -> usize {
        *self.compiles.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The compute pipeline of `words` (translated with the compute wrapper), built once.
    ///
    /// # Errors
    /// [`GpuError::Device`] when pipeline creation fails.
    pub fn compute_pipeline(&self, words: &[u32], cube: bool) -> Result<Arc<wgpu::ComputePipeline>, GpuError> {
        let lock = |m: &Mutex<HashMap<Vec<u32>, Arc<wgpu::ComputePipeline>>>| {
            m.lock().unwrap_or_else(|e| e.into_inner()).get(words).cloned()
        };
        if let Some(p) = lock(&self.pipelines) {
            return Ok(p);
        }
        let device = &self.gpu.device;
        let module = self.gpu.module(words, &[(fs::COMPUTE_ENTRY, (fs::COMPUTE_WORKGROUP, 1, 1))]);
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: Some(&self.layouts[cube as usize].1),
            module: &module,
            entry_point: Some(fs::COMPUTE_ENTRY),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(e.to_string()));
        }
        *self.compiles.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        let p = Arc::new(pipeline);
        self.pipelines.lock().unwrap_or_else(|e| e.into_inner()).entry(words.to_vec()).or_insert_with(|| p.clone());
        Ok(p)
    }

    /// The bind group of one run: the uniform block, the fragment records, an output buffer of
    /// 16 bytes per fragment and the unit images (unit 0 as a cube array when `cube`); the
    /// buffers are returned with it (uniforms, records, output).
    fn bind_group(
        &self,
        cube: bool,
        block: &UniformBlock,
        fragments: &[FragmentInputs],
    ) -> (wgpu::BindGroup, [wgpu::Buffer; 3]) {
        let gpu = self.gpu;
        let data: Vec<f32> = fragments.iter().flat_map(record).collect();
        let ubuf = gpu.upload(&block.to_bytes(), wgpu::BufferUsages::UNIFORM);
        let pbuf = gpu.upload(bytemuck::cast_slice(&data), wgpu::BufferUsages::STORAGE);
        let obuf = gpu.buffer(16 * fragments.len() as u64, wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC);
        let unit0 = if cube { &self.cube } else { &self.views[0] };
        let mut entries = vec![
            wgpu::BindGroupEntry { binding: fs::UNIFORM_BINDING, resource: ubuf.as_entire_binding() },
            wgpu::BindGroupEntry { binding: fs::COMPUTE_IN_BINDING, resource: pbuf.as_entire_binding() },
            wgpu::BindGroupEntry { binding: fs::COMPUTE_OUT_BINDING, resource: obuf.as_entire_binding() },
            wgpu::BindGroupEntry { binding: fs::TEXTURE_BINDING, resource: wgpu::BindingResource::TextureView(unit0) },
        ];
        for u in 1..3 {
            entries.push(wgpu::BindGroupEntry {
                binding: fs::TEXTURE_BINDING + u as u32,
                resource: wgpu::BindingResource::TextureView(&self.views[u]),
            });
        }
        let bg = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.layouts[cube as usize].0,
            entries: &entries,
        });
        (bg, [ubuf, pbuf, obuf])
    }

    /// Runs the compute entry point over `fragments`: per fragment the result word.
    ///
    /// # Errors
    /// [`GpuError::Device`] when the read-back fails.
    pub fn dispatch(
        &self,
        pipeline: &wgpu::ComputePipeline,
        cube: bool,
        block: &UniformBlock,
        fragments: &[FragmentInputs],
    ) -> Result<Vec<ResultWord>, GpuError> {
        let gpu = self.gpu;
        let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let (bg, [_, _, obuf]) = self.bind_group(cube, block, fragments);
        let out_size = 16 * fragments.len() as u64;
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bg, &[]);
            pass.dispatch_workgroups((fragments.len() as u32).div_ceil(fs::COMPUTE_WORKGROUP), 1, 1);
        }
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(e.to_string()));
        }
        gpu.queue.submit([encoder.finish()]);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| GpuError::Device(e.to_string()))?;
        let encoder = gpu.device.create_command_encoder(&Default::default());
        let words = gpu.read_back(&obuf, out_size.max(16), encoder)?;
        Ok(words.chunks(4).take(fragments.len()).map(|c| ResultWord::from_words([c[0], c[1], c[2], c[3]])).collect())
    }
}

impl FragmentRunner<'_> {
    /// Draws `fragments` as points through the fragment entry point of `words` (translated with
    /// [`render_input_map`]) into an `Rgba8Unorm` target cleared to `clear`; each fragment's
    /// RGBA8 (the clear colour where it was discarded). Fragments need z/w in [0, 1] and w = 1.
    ///
    /// # Errors
    /// [`GpuError::Device`] when pipeline creation or the read-back fails.
    pub fn draw(
        &self,
        words: &[u32],
        cube: bool,
        block: &UniformBlock,
        fragments: &[FragmentInputs],
        clear: Rgba,
    ) -> Result<Vec<Rgba>, GpuError> {
        let pipeline = self.gpu.point_pipeline(&self.layouts[cube as usize].1, &self.vs, words, fs::ENTRY)?;
        let (bg, _buffers) = self.bind_group(cube, block, fragments);
        self.gpu.draw_points(&pipeline, &bg, fragments.len(), clear)
    }
}

/// The outcome of [`check_render`]: pixels that matched, pixels that did not, and the first
/// mismatch (pixel, device RGBA8, reference RGBA8).
pub type RenderCheck = (usize, usize, Option<(usize, Rgba, Rgba)>);

/// The RGBA8 the fragment entry point writes for a reference result (`None`: discarded).
pub fn render_color(result: &fixed::FragmentResult) -> Option<Rgba> {
    match *result {
        fixed::FragmentResult::Color { rgba, .. } => Some(rgba),
        fixed::FragmentResult::Discarded => None,
        fixed::FragmentResult::Shadow(w) => {
            let d = w.depth.to_le_bytes();
            Some([w.intensity, d[0], d[1], d[2]])
        }
    }
}

/// Checks the fragment entry point of `regs`'s key in a render pass: every fragment's RGBA8
/// (or the clear colour where the reference discards) against the reference. Fragments are
/// made renderable first: z/w folded into [0, 1], w = 1.
///
/// # Errors
/// Translation or device errors.
pub fn check_render(
    runner: &FragmentRunner,
    textures: &UnitTextures,
    regs: &[u32],
    uniforms: &FragmentUniforms,
    fragments: &[FragmentInputs],
) -> Result<RenderCheck, crate::verify::VerifyError> {
    let key = FragmentKey::from_regs(regs);
    let t = fs::fragment(&key, &render_input_map())?;
    let cube = t.textures()[0] == Some(TextureBinding::Cube);
    let words = t.spirv()?;
    let block = UniformBlock::from_uniforms(uniforms);
    let fragments: Vec<FragmentInputs> =
        fragments.iter().map(|f| FragmentInputs { z_over_w: f.z_over_w.abs().min(1.0), w: 1.0, ..*f }).collect();
    let want: Vec<Option<Rgba>> = fragments
        .iter()
        .map(|f| render_color(&fixed::run(&key, uniforms, f, &mut |r| textures.sample(&block, r))))
        .collect();
    let mut clear = 0x5A3C_E1A7u32;
    while want.contains(&Some(clear.to_le_bytes())) {
        clear = clear.wrapping_mul(0x0019_660D).wrapping_add(0x3C6E_F35F);
    }
    let clear = clear.to_le_bytes();
    let got = runner.draw(&words, cube, &block, &fragments, clear)?;
    let (mut passed, mut failed, mut first) = (0, 0, None);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let w = w.unwrap_or(clear);
        if *g == w {
            passed += 1;
        } else {
            failed += 1;
            first.get_or_insert((i, *g, w));
        }
    }
    Ok((passed, failed, first))
}

/// The outcome of checking one fragment state on the device.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FragmentCheck {
    /// Fragments whose four result words equal the reference's.
    pub passed: usize,
    /// Fragments that differ.
    pub failed: usize,
    /// Mismatched bits over all fragments.
    pub mismatched_bits: u32,
    /// The first mismatch: fragment index, device word, reference word.
    pub first: Option<(usize, ResultWord, ResultWord)>,
}

/// Translates the key of `state` (registers and memories), runs it over `fragments` on the
/// device and compares every fragment's result word with the CPU reference's, which samples
/// the same images through [`UnitTextures::sample`].
///
/// # Errors
/// Translation or device errors.
pub fn check_state(
    runner: &FragmentRunner,
    textures: &UnitTextures,
    regs: &[u32],
    uniforms: &FragmentUniforms,
    fragments: &[FragmentInputs],
) -> Result<FragmentCheck, crate::verify::VerifyError> {
    let key = FragmentKey::from_regs(regs);
    let t = fs::translate(&key, &InputMap::default(), &fs::Options { compute_wrapper: true })?;
    let cube = t.textures()[0] == Some(TextureBinding::Cube);
    let words = t.spirv()?;
    let block = UniformBlock::from_uniforms(uniforms);
    let pipeline = runner.compute_pipeline(&words, cube)?;
    let got = runner.dispatch(&pipeline, cube, &block, fragments)?;
    let mut check = FragmentCheck::default();
    for (i, (g, f)) in got.iter().zip(fragments).enumerate() {
        let want = ResultWord::of(&fixed::run(&key, uniforms, f, &mut |r| textures.sample(&block, r)));
        let bits: u32 = g.words().iter().zip(want.words()).map(|(a, b)| (a ^ b).count_ones()).sum();
        if bits == 0 {
            check.passed += 1;
        } else {
            check.failed += 1;
            check.mismatched_bits += bits;
            check.first.get_or_insert((i, *g, want));
        }
    }
    Ok(check)
}

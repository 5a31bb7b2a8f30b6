//! Runs translated shaders on a Vulkan device through wgpu (lavapipe in CI, a real GPU where
//! there is one) and reads the results back.
//!
//! The SPIR-V words that run are exactly the words the translator wrote: they reach
//! `vkCreateShaderModule` through wgpu's passthrough (`Features::PASSTHROUGH_SHADERS`), never
//! through naga's SPIR-V front end (docs/specs/naga-wgpu-facts.md "Running exact SPIR-V bytes").
//! Passthrough modules need explicit pipeline layouts; ours follow docs/abi.md.

pub mod glsl;
mod latte_run;
pub mod latte_verify;
pub mod pica_fs;
pub mod pica_render;
mod points;
mod render;
pub mod tev;
pub mod verify;

pub use glsl::{GlslAttribute, GlslDraw, GlslRun, GlslShape, GlslTexture, TexelKind};
pub use latte_run::LatteRun;
pub use latte_verify::{verify_latte, LatteReport, LatteSettings, LatteVerifyError};
pub use render::VertexRun;

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

/// The SPIR-V of a harness shader written in WGSL (naga's front end and writer; PointSize is
/// written so that point lists are valid). `what` names it in errors.
pub(crate) fn harness_spirv(wgsl: &str, what: &str) -> Result<Vec<u32>, GpuError> {
    let err = |e: String| GpuError::Device(format!("{what}: {e}"));
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| err(e.to_string()))?;
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty())
        .validate(&module)
        .map_err(|e| err(format!("{e:?}")))?;
    let options = naga::back::spv::Options {
        lang_version: (1, 3),
        flags: naga::back::spv::WriterFlags::FORCE_POINT_SIZE,
        ..Default::default()
    };
    naga::back::spv::write_vec(&module, &info, &options, None).map_err(|e| err(e.to_string()))
}

/// Why a device run failed.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No Vulkan adapter (install mesa-vulkan-drivers for lavapipe).
    #[error("no Vulkan device: {0}")]
    NoDevice(String),
    /// The adapter lacks a feature we need.
    #[error("the Vulkan device {adapter} lacks {feature}")]
    MissingFeature {
        /// The adapter name.
        adapter: String,
        /// The feature.
        feature: &'static str,
    },
    /// wgpu reported an error (pipeline creation, buffer mapping...).
    #[error("device error: {0}")]
    Device(String),
}

/// A Vulkan device and its queue.
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The adapter's name and driver, for reports.
    pub adapter: String,
    primitive_index: bool,
    vertex_storage: bool,
}

/// The runtime folder variable that lavapipe's window-system layer reads on every device open
/// (it prints `XDG_RUNTIME_DIR is invalid or not set in the environment` without one).
pub const RUNTIME_DIR_ENV: &str = "XDG_RUNTIME_DIR";

/// A private runtime folder made by [`private_runtime_dir`]: on drop the folder is removed and
/// `XDG_RUNTIME_DIR` unset again.
#[derive(Debug)]
pub struct RuntimeDir {
    path: PathBuf,
}

impl RuntimeDir {
    /// The folder.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }
}

impl Drop for RuntimeDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
        if std::env::var_os(RUNTIME_DIR_ENV).is_some_and(|v| v == self.path.as_os_str()) {
            std::env::remove_var(RUNTIME_DIR_ENV);
        }
    }
}

/// When `XDG_RUNTIME_DIR` is unset (or empty), creates a fresh folder only this user can enter
/// under the temporary folder and points `XDG_RUNTIME_DIR` at it, as scripts/test does, so that
/// opening the device prints nothing; `None` when the variable is already set. Call it before
/// [`Gpu::new`] and before the program starts other threads: it changes the process
/// environment, which other threads may be reading.
///
/// # Errors
/// When the folder cannot be created.
pub fn private_runtime_dir() -> std::io::Result<Option<RuntimeDir>> {
    if std::env::var_os(RUNTIME_DIR_ENV).is_some_and(|v| !v.is_empty()) {
        return Ok(None);
    }
    let base = std::env::temp_dir();
    let mut attempt = 0u32;
    let path = loop {
        let path = base.join(format!("shaderport-runtime-{}-{attempt}", std::process::id()));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&path) {
            Ok(()) => break path,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(e),
        }
    };
    std::env::set_var(RUNTIME_DIR_ENV, &path);
    Ok(Some(RuntimeDir { path }))
}

/// What a device run is doing, for progress reports and time limits ([`Progress`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Phase {
    /// PICA200 to SPIR-V (crates/translate).
    Translation,
    /// The driver compiles the SPIR-V (`vkCreate*Pipelines`; wgpu blocks until it is done).
    PipelineCreation,
    /// The shader runs on the device.
    Run,
    /// The results are copied back to the host.
    ReadBack,
    /// The results are compared with the reference interpreter.
    Comparison,
}

impl Phase {
    const ALL: [Phase; 5] =
        [Phase::Translation, Phase::PipelineCreation, Phase::Run, Phase::ReadBack, Phase::Comparison];

    /// The phase's name in messages ("pipeline creation").
    pub fn name(self) -> &'static str {
        match self {
            Phase::Translation => "translation",
            Phase::PipelineCreation => "pipeline creation",
            Phase::Run => "run",
            Phase::ReadBack => "read-back",
            Phase::Comparison => "comparison with the interpreter",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a run stands, shared between the thread that runs it and one that watches it: the
/// current [`Phase`] and the number of pipelines created so far.
#[derive(Debug, Default)]
pub struct Progress {
    phase: AtomicU8,
    pipelines: AtomicUsize,
}

impl Progress {
    /// The current phase ([`Phase::Translation`] before anything started).
    pub fn phase(&self) -> Phase {
        Phase::ALL.get(self.phase.load(Ordering::Acquire) as usize).copied().unwrap_or(Phase::Translation)
    }

    /// Pipelines whose creation has started.
    pub fn pipelines(&self) -> usize {
        self.pipelines.load(Ordering::Acquire)
    }

    /// Enters `phase` (a new pipeline when it is [`Phase::PipelineCreation`]).
    pub fn set(&self, phase: Phase) {
        if phase == Phase::PipelineCreation {
            self.pipelines.fetch_add(1, Ordering::AcqRel);
        }
        self.phase.store(phase as u8, Ordering::Release);
    }
}

impl Gpu {
    /// Opens the first Vulkan adapter.
    ///
    /// # Errors
    /// [`GpuError::NoDevice`] without a Vulkan adapter, [`GpuError::MissingFeature`] when it cannot
    /// pass SPIR-V through.
    pub fn new() -> Result<Gpu, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .map_err(|e| GpuError::NoDevice(e.to_string()))?;
        let info = adapter.get_info();
        let name = format!("{} ({})", info.name, info.driver);
        let features = adapter.features();
        if !features.contains(wgpu::Features::PASSTHROUGH_SHADERS) {
            return Err(GpuError::MissingFeature { adapter: name, feature: "PASSTHROUGH_SHADERS" });
        }
        let primitive_index = features.contains(wgpu::Features::PRIMITIVE_INDEX);
        let mut required = wgpu::Features::PASSTHROUGH_SHADERS;
        if primitive_index {
            required |= wgpu::Features::PRIMITIVE_INDEX;
        }
        // Optional: storage writes from vertex shaders and clip distances, for GLSL oracles
        // (glsl.rs) whose wrappers write a vertex stage's outputs to a buffer.
        let vertex_storage = features.contains(wgpu::Features::VERTEX_WRITABLE_STORAGE);
        if vertex_storage {
            required |= wgpu::Features::VERTEX_WRITABLE_STORAGE;
        }
        if features.contains(wgpu::Features::CLIP_DISTANCES) {
            required |= wgpu::Features::CLIP_DISTANCES;
        }
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("shaderport"),
            required_features: required,
            required_limits: wgpu::Limits::default(),
            ..Default::default()
        }))
        .map_err(|e| GpuError::NoDevice(e.to_string()))?;
        Ok(Gpu { device, queue, adapter: name, primitive_index, vertex_storage })
    }

    /// A shader module of exactly these SPIR-V words.
    fn module(&self, words: &[u32], entries: &[(&str, (u32, u32, u32))]) -> wgpu::ShaderModule {
        let entry_points = entries
            .iter()
            .map(|(name, wg)| wgpu::PassthroughShaderEntryPoint {
                name: Cow::Owned(name.to_string()),
                workgroup_size: *wg,
            })
            .collect::<Vec<_>>();
        let desc = wgpu::ShaderModuleDescriptorPassthrough {
            label: Some("translated"),
            entry_points: Cow::Owned(entry_points),
            spirv: Some(Cow::Borrowed(words)),
            ..Default::default()
        };
        // SAFETY: passthrough skips wgpu's validation of the module. The words come from naga's
        // SPIR-V writer over a module that naga's validator accepted (plus NoContraction
        // decorations that spirv-val accepts, crates/translate/src/spv_post.rs), they use only
        // the Shader capability, and the pipeline layouts built here match their bindings
        // (docs/abi.md), which is what the Vulkan driver needs.
        unsafe { self.device.create_shader_module_passthrough(desc) }
    }

    fn buffer(&self, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: size.max(16),
            usage,
            mapped_at_creation: false,
        })
    }

    /// A bind group of whole buffers at the given bindings.
    fn bind_group(&self, layout: &wgpu::BindGroupLayout, buffers: &[(u32, &wgpu::Buffer)]) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .map(|&(binding, buffer)| wgpu::BindGroupEntry { binding, resource: buffer.as_entire_binding() })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout, entries: &entries })
    }

    fn upload(&self, data: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
        let b = self.buffer(data.len() as u64, usage | wgpu::BufferUsages::COPY_DST);
        self.queue.write_buffer(&b, 0, data);
        b
    }

    fn read_back(
        &self,
        src: &wgpu::Buffer,
        size: u64,
        mut encoder: wgpu::CommandEncoder,
    ) -> Result<Vec<u32>, GpuError> {
        let staging = self.buffer(size, wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST);
        encoder.copy_buffer_to_buffer(src, 0, &staging, 0, size);
        self.queue.submit([encoder.finish()]);
        let slice = staging.slice(..size);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| GpuError::Device(e.to_string()))?;
        rx.recv().map_err(|e| GpuError::Device(e.to_string()))?.map_err(|e| GpuError::Device(e.to_string()))?;
        let data = slice.get_mapped_range().map_err(|e| GpuError::Device(e.to_string()))?;
        let words = bytemuck::cast_slice::<u8, u32>(&data).to_vec();
        drop(data);
        staging.unmap();
        Ok(words)
    }

    /// Group 0 of buffers (binding, type, stages) and the pipeline layout that holds it.
    fn layouts(
        &self,
        entries: &[(u32, wgpu::BufferBindingType, wgpu::ShaderStages)],
    ) -> (wgpu::BindGroupLayout, wgpu::PipelineLayout) {
        let entries = entries
            .iter()
            .map(|&(binding, ty, visibility)| wgpu::BindGroupLayoutEntry {
                binding,
                visibility,
                ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
                count: None,
            })
            .collect::<Vec<_>>();
        let bgl =
            self.device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &entries });
        let layout = self.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&bgl)],
            immediate_size: 0,
        });
        (bgl, layout)
    }

    /// Builds (and drops) the compute pipeline of entry point `entry` of `words` with the layout of
    /// [`Gpu::run_compute`]; returns the time the shader module and pipeline creation took, which
    /// is the driver's compile (measurements and benchmarks).
    ///
    /// # Errors
    /// [`GpuError::Device`] when pipeline creation fails.
    pub fn build_compute_pipeline(&self, words: &[u32], entry: &str) -> Result<std::time::Duration, GpuError> {
        let start = std::time::Instant::now();
        let pipeline = self.compute_pipeline(words, entry)?;
        let elapsed = start.elapsed();
        drop(pipeline);
        Ok(elapsed)
    }

    /// The compute pipeline of entry point `entry` of `words` with the bindings of docs/abi.md
    /// (0 uniform block, 1 input, 2 output), and its bind group layout.
    fn compute_pipeline(
        &self,
        words: &[u32],
        entry: &str,
    ) -> Result<(wgpu::ComputePipeline, wgpu::BindGroupLayout), GpuError> {
        use wgpu::BufferBindingType as T;
        let compute = wgpu::ShaderStages::COMPUTE;
        let (bgl, layout) = self.layouts(&[
            (0, T::Uniform, compute),
            (1, T::Storage { read_only: true }, compute),
            (2, T::Storage { read_only: false }, compute),
        ]);
        let module = self.module(words, &[(entry, (translate::pica::WORKGROUP, 1, 1))]);
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: Some(&layout),
            module: &module,
            entry_point: Some(entry),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(e.to_string()));
        }
        Ok((pipeline, bgl))
    }

    /// Runs compute entry point `entry` of `words` over `invocations` invocations with the ABI of
    /// docs/abi.md: binding 0 the uniform block, binding 1 the input vec4s (as u32 bit patterns),
    /// binding 2 an output buffer of `output_words` u32, returned.
    ///
    /// # Errors
    /// [`GpuError::Device`] when pipeline creation or the read-back fails.
    pub fn run_compute(
        &self,
        words: &[u32],
        entry: &str,
        uniforms: &[u8],
        input: &[u32],
        invocations: u32,
        output_words: usize,
    ) -> Result<Vec<u32>, GpuError> {
        self.run_compute_tracked(words, entry, uniforms, input, invocations, output_words, &Progress::default())
    }

    /// [`Gpu::run_compute`], reporting its phases (pipeline creation, run, read-back) to
    /// `progress`.
    ///
    /// # Errors
    /// As [`Gpu::run_compute`].
    #[allow(clippy::too_many_arguments)]
    pub fn run_compute_tracked(
        &self,
        words: &[u32],
        entry: &str,
        uniforms: &[u8],
        input: &[u32],
        invocations: u32,
        output_words: usize,
        progress: &Progress,
    ) -> Result<Vec<u32>, GpuError> {
        progress.set(Phase::PipelineCreation);
        let wg = translate::pica::WORKGROUP;
        let (pipeline, bgl) = self.compute_pipeline(words, entry)?;
        let ubuf = self.upload(uniforms, wgpu::BufferUsages::UNIFORM);
        let ibuf = self.upload(bytemuck::cast_slice(input), wgpu::BufferUsages::STORAGE);
        let out_size = (output_words * 4) as u64;
        let obuf = self.buffer(out_size, wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC);
        let bg = self.bind_group(&bgl, &[(0, &ubuf), (1, &ibuf), (2, &obuf)]);
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bg, &[]);
            pass.dispatch_workgroups(invocations.div_ceil(wg), 1, 1);
        }
        progress.set(Phase::Run);
        self.queue.submit([encoder.finish()]);
        self.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| GpuError::Device(e.to_string()))?;
        progress.set(Phase::ReadBack);
        let encoder = self.device.create_command_encoder(&Default::default());
        let mut out = self.read_back(&obuf, out_size.max(16), encoder)?;
        out.truncate(output_words);
        Ok(out)
    }
}

/// A primitive written by a translated geometry shader: three vertices of o0-o15 (bit patterns)
/// and the winding flag of its SETEMIT.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuPrimitive {
    /// SETEMIT's winding flag.
    pub inverted: bool,
    /// Vertex buffer slots 0, 1, 2.
    pub vertices: [[[u32; 4]; 16]; 3],
}

/// What one geometry invocation produced.
#[derive(Clone, Debug, PartialEq)]
pub struct GeometryOutput {
    /// Primitives emitted (also those past the buffer's capacity).
    pub count: usize,
    /// The primitives written (at most `translate::pica::GS_MAX_PRIMS`).
    pub primitives: Vec<GpuPrimitive>,
}

impl Gpu {
    /// Runs a translated geometry shader (compute entry `main`) over input records of
    /// `translate::pica::GS_IN_STRIDE` vec4s each (docs/abi.md).
    ///
    /// # Errors
    /// As [`Gpu::run_compute`].
    pub fn run_geometry(
        &self,
        words: &[u32],
        uniforms: &[u8],
        records: &[u32],
    ) -> Result<Vec<GeometryOutput>, GpuError> {
        self.run_geometry_tracked(words, uniforms, records, &Progress::default())
    }

    /// [`Gpu::run_geometry`], reporting its phases to `progress`.
    ///
    /// # Errors
    /// As [`Gpu::run_compute`].
    pub fn run_geometry_tracked(
        &self,
        words: &[u32],
        uniforms: &[u8],
        records: &[u32],
        progress: &Progress,
    ) -> Result<Vec<GeometryOutput>, GpuError> {
        use translate::pica::{GS_IN_STRIDE, GS_MAX_PRIMS, GS_PRIM_VEC4S, GS_STRIDE};
        let n = records.len() / (GS_IN_STRIDE as usize * 4);
        let out = self.run_compute_tracked(
            words,
            translate::pica::ENTRY,
            uniforms,
            records,
            n as u32,
            n * GS_STRIDE as usize * 4,
            progress,
        )?;
        Ok((0..n)
            .map(|i| {
                let rec = &out[i * GS_STRIDE as usize * 4..(i + 1) * GS_STRIDE as usize * 4];
                let count = f32::from_bits(rec[0]) as usize;
                let primitives = (0..count.min(GS_MAX_PRIMS as usize))
                    .map(|p| {
                        let at = (1 + p * GS_PRIM_VEC4S as usize) * 4;
                        let mut vertices = [[[0u32; 4]; 16]; 3];
                        for (s, v) in vertices.iter_mut().enumerate() {
                            for (k, reg) in v.iter_mut().enumerate() {
                                let o = at + 4 + (s * 16 + k) * 4;
                                *reg = [rec[o], rec[o + 1], rec[o + 2], rec[o + 3]];
                            }
                        }
                        GpuPrimitive { inverted: f32::from_bits(rec[at]) != 0.0, vertices }
                    })
                    .collect();
                GeometryOutput { count, primitives }
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_counts_pipelines_and_keeps_the_last_phase() {
        let p = Progress::default();
        assert_eq!((p.phase(), p.pipelines()), (Phase::Translation, 0));
        for phase in Phase::ALL {
            p.set(phase);
            assert_eq!(p.phase(), phase);
        }
        assert_eq!(p.pipelines(), 1);
        p.set(Phase::PipelineCreation);
        p.set(Phase::PipelineCreation);
        assert_eq!((p.phase(), p.pipelines()), (Phase::PipelineCreation, 3));
    }

    #[test]
    fn phases_have_the_names_messages_use() {
        let names: Vec<String> = Phase::ALL.iter().map(|p| p.to_string()).collect();
        assert_eq!(names, ["translation", "pipeline creation", "run", "read-back", "comparison with the interpreter"]);
    }
}

//! Runs the compute form of a Latte translation (`translate::latte`, docs/abi.md "Latte"):
//! uniform blocks 0-15 at bindings 0-15, the constant file, input and output records.

use crate::{Gpu, GpuError};
use translate::latte::{BLOCK_VEC4S, CFILE_BINDING, COMPUTE_ENTRY, IN_BINDING, OUT_BINDING, OUT_WORDS, WORKGROUP};

/// What one run of a Latte compute module gets.
#[derive(Clone, Debug, Default)]
pub struct LatteRun<'a> {
    /// Uniform blocks by index (0-15), as words; each is bound padded with zeros to
    /// `BLOCK_VEC4S` vec4s.
    pub blocks: &'a [(u8, &'a [u32])],
    /// The blocks the module binds (`Translation::uniform_blocks`).
    pub bind_blocks: &'a [u8],
    /// Whether the module binds the constant file (`Translation::reads_cfile`).
    pub bind_cfile: bool,
    /// The constant file c0-c255.
    pub cfile: &'a [[u32; 4]],
    /// Input records (`IN_STRIDE` vec4s each).
    pub input: &'a [u32],
    /// Invocations.
    pub invocations: u32,
}

impl Gpu {
    /// Runs `words` (entry `latte_compute`) and returns `OUT_WORDS` words per invocation, and the
    /// time pipeline creation plus the dispatch took (the driver compiles at both).
    ///
    /// # Errors
    /// [`GpuError::Device`] when pipeline creation or the read-back fails.
    pub fn run_latte_compute(
        &self,
        words: &[u32],
        run: &LatteRun,
    ) -> Result<(Vec<u32>, std::time::Duration), GpuError> {
        use wgpu::BufferBindingType as T;
        let compute = wgpu::ShaderStages::COMPUTE;
        let mut entries: Vec<(u32, T, wgpu::ShaderStages)> =
            run.bind_blocks.iter().map(|&b| (b as u32, T::Uniform, compute)).collect();
        if run.bind_cfile {
            entries.push((CFILE_BINDING, T::Uniform, compute));
        }
        entries.push((IN_BINDING, T::Storage { read_only: true }, compute));
        entries.push((OUT_BINDING, T::Storage { read_only: false }, compute));
        let start = std::time::Instant::now();
        let (bgl, layout) = self.layouts(&entries);
        let module = self.module(words, &[(COMPUTE_ENTRY, (WORKGROUP, 1, 1))]);
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pipeline = self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: Some(&layout),
            module: &module,
            entry_point: Some(COMPUTE_ENTRY),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(e.to_string()));
        }
        let block_bytes = BLOCK_VEC4S as usize * 16;
        let mut bufs = Vec::new();
        for &b in run.bind_blocks {
            let mut data = vec![0u8; block_bytes];
            if let Some((_, w)) = run.blocks.iter().find(|(k, _)| *k == b) {
                let bytes: &[u8] = bytemuck::cast_slice(w);
                let n = bytes.len().min(block_bytes);
                data[..n].copy_from_slice(&bytes[..n]);
            }
            bufs.push((b as u32, self.upload(&data, wgpu::BufferUsages::UNIFORM)));
        }
        let mut cf = vec![0u32; 256 * 4];
        for (i, v) in run.cfile.iter().take(256).enumerate() {
            cf[i * 4..i * 4 + 4].copy_from_slice(v);
        }
        if run.bind_cfile {
            bufs.push((CFILE_BINDING, self.upload(bytemuck::cast_slice(&cf), wgpu::BufferUsages::UNIFORM)));
        }
        bufs.push((IN_BINDING, self.upload(bytemuck::cast_slice(run.input), wgpu::BufferUsages::STORAGE)));
        let out_size = run.invocations as u64 * OUT_WORDS as u64 * 4;
        let obuf = self.buffer(out_size, wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC);
        let mut binds: Vec<(u32, &wgpu::Buffer)> = bufs.iter().map(|(b, x)| (*b, x)).collect();
        binds.push((OUT_BINDING, &obuf));
        let bg = self.bind_group(&bgl, &binds);
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bg, &[]);
            pass.dispatch_workgroups(run.invocations.div_ceil(WORKGROUP), 1, 1);
        }
        self.queue.submit([encoder.finish()]);
        self.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| GpuError::Device(e.to_string()))?;
        let elapsed = start.elapsed();
        let encoder = self.device.create_command_encoder(&Default::default());
        let mut out = self.read_back(&obuf, out_size.max(16), encoder)?;
        out.truncate(out_size as usize / 4);
        Ok((out, elapsed))
    }
}

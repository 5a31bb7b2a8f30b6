//! Runs the compute form of a Latte translation (`translate::latte`, docs/abi.md "Latte"):
//! uniform blocks 0-15 at bindings 0-15, the constant file, input and output records, the fetch
//! table and data.

use crate::{Gpu, GpuError};
use translate::latte::{
    FetchData, BLOCK_VEC4S, CFILE_GROUP, COMPUTE_ENTRY, FETCH_DATA_BINDING, FETCH_GROUP, FETCH_TABLE_BINDING,
    FETCH_TABLE_WORDS, IN_BINDING, IO_GROUP, OUT_BINDING, OUT_WORDS, WORKGROUP,
};

/// What one run of a Latte compute module gets.
#[derive(Clone, Debug, Default)]
pub struct LatteRun<'a> {
    /// Uniform blocks by index (0-15), as words; each is bound padded with zeros to
    /// `BLOCK_VEC4S` vec4s.
    pub blocks: &'a [(u8, &'a [u32])],
    /// The blocks the module binds (`Translation::uniform_blocks`).
    pub bind_blocks: &'a [u8],
    /// The constant file c0-c255.
    pub cfile: &'a [[u32; 4]],
    /// Input records (`IN_STRIDE` vec4s each).
    pub input: &'a [u32],
    /// Invocations.
    pub invocations: u32,
    /// What VTX fetches read (`FetchData::from_inputs`); `None` binds an empty table.
    pub fetch: Option<&'a FetchData>,
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
        // Blocks 0 up to the highest one read are all bound (zeros where the program reads
        // none): lavapipe (Mesa 22.3) ran the dispatch but wrote nothing when a set's bindings
        // did not start at 0 or had a gap.
        let top = run.bind_blocks.iter().copied().max().unwrap_or(0);
        let banks: Vec<u8> = (0..=top).collect();
        let entries: Vec<(u32, T, wgpu::ShaderStages)> =
            banks.iter().map(|&b| (b as u32, T::Uniform, compute)).collect();
        let io_entries = [
            (IN_BINDING, T::Storage { read_only: true }, compute),
            (OUT_BINDING, T::Storage { read_only: false }, compute),
        ];
        let start = std::time::Instant::now();
        let (pipeline, [bgl, io_bgl, c_bgl, f_bgl]) = self.latte_pipeline(words, &entries, &io_entries)?;
        let block_bytes = BLOCK_VEC4S as usize * 16;
        let mut bufs = Vec::new();
        for &b in &banks {
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
        let cbuf = self.upload(bytemuck::cast_slice(&cf), wgpu::BufferUsages::UNIFORM);
        let ibuf = self.upload(bytemuck::cast_slice(run.input), wgpu::BufferUsages::STORAGE);
        let out_size = run.invocations as u64 * OUT_WORDS as u64 * 4;
        let obuf = self.buffer(out_size, wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC);
        let binds: Vec<(u32, &wgpu::Buffer)> = bufs.iter().map(|(b, x)| (*b, x)).collect();
        let bg = self.bind_group(&bgl, &binds);
        let io_bg = self.bind_group(&io_bgl, &[(IN_BINDING, &ibuf), (OUT_BINDING, &obuf)]);
        let c_bg = self.bind_group(&c_bgl, &[(0, &cbuf)]);
        let empty = FetchData { table: vec![0; FETCH_TABLE_WORDS as usize], data: vec![0] };
        let fetch = run.fetch.unwrap_or(&empty);
        let tbuf = self.upload(bytemuck::cast_slice(&fetch.table), wgpu::BufferUsages::STORAGE);
        let data: &[u32] = if fetch.data.is_empty() { &[0] } else { &fetch.data };
        let dbuf = self.upload(bytemuck::cast_slice(data), wgpu::BufferUsages::STORAGE);
        let f_bg = self.bind_group(&f_bgl, &[(FETCH_TABLE_BINDING, &tbuf), (FETCH_DATA_BINDING, &dbuf)]);
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bg, &[]);
            pass.set_bind_group(IO_GROUP, &io_bg, &[]);
            pass.set_bind_group(CFILE_GROUP, &c_bg, &[]);
            pass.set_bind_group(FETCH_GROUP, &f_bg, &[]);
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

    fn latte_pipeline(
        &self,
        words: &[u32],
        entries: &[(u32, wgpu::BufferBindingType, wgpu::ShaderStages)],
        io_entries: &[(u32, wgpu::BufferBindingType, wgpu::ShaderStages)],
    ) -> Result<(wgpu::ComputePipeline, [wgpu::BindGroupLayout; 4]), GpuError> {
        let (bgl, _) = self.layouts(entries);
        let (io_bgl, _) = self.layouts(io_entries);
        let (c_bgl, _) = self.layouts(&[(0, wgpu::BufferBindingType::Uniform, wgpu::ShaderStages::COMPUTE)]);
        // The fetch group is dense from binding 0 (the lavapipe fault above).
        let read = wgpu::BufferBindingType::Storage { read_only: true };
        let (f_bgl, _) = self.layouts(&[
            (FETCH_TABLE_BINDING, read, wgpu::ShaderStages::COMPUTE),
            (FETCH_DATA_BINDING, read, wgpu::ShaderStages::COMPUTE),
        ]);
        let layout = self.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&bgl), Some(&io_bgl), Some(&c_bgl), Some(&f_bgl)],
            immediate_size: 0,
        });
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
        Ok((pipeline, [bgl, io_bgl, c_bgl, f_bgl]))
    }
}

//! `shaderport pica render TRACE -o OUT.png [--draw N | --frame N] [--reference OUT.png]`: the
//! draws of a frame rendered on the device through the translated shaders
//! (docs/pica-render.md "Command line"). TRACE is a CiTrace (its memory loads hold the vertex,
//! index and texture data) or a raw command list (no memory: immediate-mode draws only).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use gpu::pica_render::{self, DrawInput, Mode, Picture};
use pica::state::citrace::{replay, ReplayLimits, Trace};
use pica::state::GpuState;

#[derive(Args)]
pub struct RenderArgs {
    /// A CiTrace or a raw command list.
    trace: PathBuf,
    /// The picture (PNG).
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
    /// Render only this draw (numbered over the whole trace, as `pica cmdlist --state` lists
    /// them).
    #[arg(long, conflicts_with = "frame")]
    draw: Option<usize>,
    /// Render every draw of this frame (default 0).
    #[arg(long)]
    frame: Option<usize>,
    /// Also render the draws with the CPU reference fragment pipeline to this PNG, and write the
    /// difference image beside it (`NAME.diff.png`).
    #[arg(long)]
    reference: Option<PathBuf>,
}

/// One draw's view of memory: `len` bytes at a physical address.
pub type Reader<'a> = Box<dyn Fn(u32, usize) -> Option<Vec<u8>> + 'a>;

/// The draws of a trace with the memory each saw.
pub struct Loaded {
    pub state: GpuState,
    /// Per frame, the range of draw indices.
    pub frames: Vec<std::ops::Range<usize>>,
    memory: Option<(pica::state::citrace::PhysicalMemory, Vec<usize>)>,
}

impl Loaded {
    /// Reads a CiTrace (by its magic) or a raw command list; `name` names the file in errors.
    pub fn read(name: &str, bytes: &[u8]) -> anyhow::Result<Loaded> {
        if pica::state::citrace::is_citrace(bytes) {
            let trace = Trace::read(bytes).with_context(|| name.to_string())?;
            let r = replay(&trace, ReplayLimits::default());
            let frames = r.frames.iter().map(|f| f.draws.clone()).collect();
            return Ok(Loaded { state: r.state, frames, memory: Some((r.memory, r.draw_loads)) });
        }
        let words = pica::regs::cmdlist::words_of(bytes).with_context(|| name.to_string())?;
        let mut state = GpuState::new();
        state.apply_words(&words).with_context(|| name.to_string())?;
        let n = state.draws.len();
        Ok(Loaded { state, frames: std::iter::once(0..n).collect(), memory: None })
    }

    /// `len` bytes at `address` as draw `i` saw them.
    pub fn read_memory(&self, i: usize, address: u32, len: usize) -> Option<Vec<u8>> {
        let (memory, loads) = self.memory.as_ref()?;
        memory.read_before(address, len, loads.get(i).copied().unwrap_or(0)).map(<[u8]>::to_vec)
    }
}

/// Renders draws `range` of `loaded` in `mode`.
pub fn render(
    gpu: &gpu::Gpu,
    loaded: &Loaded,
    range: std::ops::Range<usize>,
    mode: Mode,
) -> Result<Picture, pica_render::RenderError> {
    let readers: Vec<Reader> =
        range.clone().map(|i| Box::new(move |a, l| loaded.read_memory(i, a, l)) as Reader).collect();
    let draws: Vec<DrawInput> = range
        .clone()
        .zip(&readers)
        .map(|(index, read)| DrawInput { index, draw: &loaded.state.draws[index], memory: read.as_ref() })
        .collect();
    pica_render::render(gpu, &draws, mode)
}

/// Writes a picture as PNG.
pub fn write_picture(path: &Path, p: &Picture) -> anyhow::Result<()> {
    let image = pica::texture::Image { width: p.width, height: p.height, pixels: p.rgba.clone() };
    let bytes = pica::texture::png_io::write_png(&image).with_context(|| path.display().to_string())?;
    std::fs::write(path, bytes).with_context(|| format!("{}: cannot write", path.display()))
}

/// `NAME.png` -> `NAME.diff.png`.
pub fn diff_path(reference: &Path) -> PathBuf {
    let stem = reference.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    reference.with_file_name(format!("{stem}.diff.png"))
}

pub fn run(args: RenderArgs) -> anyhow::Result<ExitCode> {
    let name = args.trace.display().to_string();
    let bytes = std::fs::read(&args.trace).with_context(|| format!("{name}: cannot read"))?;
    let loaded = Loaded::read(&name, &bytes)?;
    let total = loaded.state.draws.len();
    let range = match (args.draw, args.frame) {
        (Some(d), _) if d >= total => bail!("{name}: --draw {d}: the trace has {total} draws"),
        (Some(d), _) => d..d + 1,
        (None, f) => {
            let f = f.unwrap_or(0);
            match loaded.frames.get(f) {
                Some(r) => r.clone(),
                None => bail!("{name}: --frame {f}: the trace has {} frames", loaded.frames.len()),
            }
        }
    };
    if range.is_empty() {
        bail!("{name}: no draws to render");
    }
    let _runtime = gpu::private_runtime_dir().context("cannot create a runtime folder for the Vulkan driver")?;
    let gpu = gpu::Gpu::new()?;
    let picture = render(&gpu, &loaded, range.clone(), Mode::Device).with_context(|| name.clone())?;
    write_picture(&args.output, &picture)?;
    println!(
        "{}: {}x{}, {} draws ({}-{})",
        args.output.display(),
        picture.width,
        picture.height,
        range.len(),
        range.start,
        range.end - 1
    );
    let Some(reference) = args.reference else {
        return Ok(ExitCode::SUCCESS);
    };
    let want = render(&gpu, &loaded, range, Mode::Reference).with_context(|| name.clone())?;
    write_picture(&reference, &want)?;
    let (differing, diff) = pica_render::difference(&picture, &want);
    let diff_file = diff_path(&reference);
    write_picture(&diff_file, &diff)?;
    println!("{}: reference, {differing} differing pixels (difference: {})", reference.display(), diff_file.display());
    Ok(if differing == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

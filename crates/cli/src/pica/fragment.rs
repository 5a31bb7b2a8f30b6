//! `shaderport pica fragment STATE.json --to spirv|glsl|glsl-es|msl|hlsl|wgsl [-o OUT]`: the
//! fragment shader of a PICA200 fixed-function state (translate::pica_fs), from the JSON that
//! `pica cmdlist --state` prints; and the state-file side of `shaderport verify`
//! (docs/pica-fragment-shaders.md "Command line").

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use arbitrary::Unstructured;
use clap::Args;
use pica::fixed::{FragmentKey, FragmentUniforms};
use pica::state::GpuState;
use serde_json::Value;
use translate::pica_fs::{self, InputMap};
use translate::Target;

#[derive(Args)]
pub struct FragmentArgs {
    /// The state: the JSON of `shaderport pica cmdlist --state --json` (its `registers`,
    /// `fog_lut` and `gas_lut` are read).
    file: PathBuf,
    /// Output language.
    #[arg(long)]
    to: Target,
    /// Output file (default: stdout; SPIR-V needs -o or a redirect).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
}

/// Whether `bytes` look like a JSON state file (the first non-blank byte is `{`).
pub fn is_state_json(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// An array of u32 of at most `max` entries at `key`, or empty when the key is absent.
fn words(file: &Path, v: &Value, key: &str, max: usize) -> anyhow::Result<Vec<u32>> {
    let Some(a) = v.get(key) else { return Ok(Vec::new()) };
    let a = a.as_array().with_context(|| format!("{}: `{key}` is not an array", file.display()))?;
    if a.len() > max {
        bail!("{}: `{key}` has {} entries, at most {max} exist", file.display(), a.len());
    }
    a.iter()
        .enumerate()
        .map(|(i, x)| {
            x.as_u64()
                .and_then(|x| u32::try_from(x).ok())
                .with_context(|| format!("{}: `{key}[{i}]` is not a 32-bit unsigned integer", file.display()))
        })
        .collect()
}

/// Reads a state file into a fresh [`GpuState`]: the register values and the fog and gas LUTs.
///
/// # Errors
/// The file cannot be read, is not JSON (with its line and column), or a register entry, id or
/// value is out of range (with its index).
pub fn read_state(file: &Path) -> anyhow::Result<GpuState> {
    let bytes = std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))?;
    parse_state(file, &bytes)
}

/// [`read_state`] of bytes already read.
///
/// # Errors
/// As [`read_state`].
pub fn parse_state(file: &Path, bytes: &[u8]) -> anyhow::Result<GpuState> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| anyhow::anyhow!("{}: line {}, column {}: not JSON: {e}", file.display(), e.line(), e.column()))?;
    let regs = v.get("registers").and_then(Value::as_array).with_context(|| {
        format!("{}: no `registers` array (the JSON of `pica cmdlist --state --json`)", file.display())
    })?;
    let mut state = GpuState::new();
    for (i, r) in regs.iter().enumerate() {
        let field = |name: &str| {
            r.get(name)
                .and_then(Value::as_u64)
                .with_context(|| format!("{}: `registers[{i}]` has no unsigned integer `{name}`", file.display()))
        };
        let (id, value) = (field("id")?, field("value")?);
        if id >= state.regs.len() as u64 {
            bail!(
                "{}: `registers[{i}]`: register id {id:#x} does not exist (ids end at {:#x})",
                file.display(),
                state.regs.len() - 1
            );
        }
        let value = u32::try_from(value)
            .with_context(|| format!("{}: `registers[{i}]`: value {value} does not fit 32 bits", file.display()))?;
        state.regs[id as usize] = value;
    }
    let fog = words(file, &v, "fog_lut", 128)?;
    let mut lut = [0u32; 128];
    lut[..fog.len()].copy_from_slice(&fog);
    state.memories.fog = std::sync::Arc::new(lut);
    let gas = words(file, &v, "gas_lut", 16)?;
    state.memories.gas[..gas.len()].copy_from_slice(&gas);
    Ok(state)
}

pub fn run(args: FragmentArgs) -> anyhow::Result<ExitCode> {
    let state = read_state(&args.file)?;
    let key = FragmentKey::from_state(&state);
    let t = pica_fs::fragment(&key, &InputMap::from_regs(&state.regs))
        .with_context(|| format!("{}: translation", args.file.display()))?;
    let out = t.write(args.to).with_context(|| format!("{}: {}", args.file.display(), args.to.name()))?.to_bytes();
    match &args.output {
        Some(path) => std::fs::write(path, &out).with_context(|| format!("{}: cannot write", path.display()))?,
        None => {
            if args.to == Target::SpirV && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                bail!("SPIR-V is binary: give -o FILE.spv (or redirect stdout)");
            }
            std::io::stdout().write_all(&out).context("stdout")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `verify` of a state file: the state's fragment shader on the device against the CPU
/// reference over `cases` random fragments, with random texture-unit images (a state file
/// holds no texture memory). Prints one line for the state; returns (passed, failed).
///
/// # Errors
/// An unreadable state, no device, or a translation or device error.
pub fn verify(file: &Path, bytes: &[u8], cases: usize, seed: u64) -> anyhow::Result<(usize, usize)> {
    let state = parse_state(file, bytes)?;
    let _runtime = gpu::private_runtime_dir().context("cannot create a runtime folder for the Vulkan driver")?;
    let gpu = gpu::Gpu::new()?;
    eprintln!("device: {}", gpu.adapter);
    let data = pica::smith::Rng::new(seed).bytes(32768 + 128 * cases);
    let mut u = Unstructured::new(&data);
    let textures = gpu::pica_fs::UnitTextures::random(&mut u);
    let fragments: Vec<_> = (0..cases).map(|_| pica::smith::fragment_inputs(&mut u).unwrap_or_default()).collect();
    let runner = gpu::pica_fs::FragmentRunner::new(&gpu, &textures);
    let uniforms = FragmentUniforms::from_state(&state);
    let c = gpu::pica_fs::check_state(&runner, &textures, &state.regs, &uniforms, &fragments)
        .with_context(|| format!("{}: device run", file.display()))?;
    println!("{}: fragment pipeline: {} passed, {} failed", file.display(), c.passed, c.failed);
    if let Some((i, got, want)) = c.first {
        println!("{}: fragment {i}: device {got:?}, reference {want:?}", file.display());
    }
    Ok((c.passed, c.failed))
}

//! `shaderport pica disasm`

use std::process::ExitCode;

use clap::Args;

#[derive(Args)]
pub struct DisasmArgs {}

pub fn run(_args: DisasmArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("pica disasm: not implemented yet")
}

/// JSON summary of a SHBIN or DVOJ, for `shaderport inspect`; `None` for other files.
pub fn inspect(_path: &std::path::Path, _bytes: &[u8]) -> Option<anyhow::Result<serde_json::Value>> {
    None
}

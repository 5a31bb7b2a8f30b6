//! `shaderport pica asm`

use std::process::ExitCode;

use clap::Args;

#[derive(Args)]
pub struct AsmArgs {}

pub fn run(_args: AsmArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("pica asm: not implemented yet")
}

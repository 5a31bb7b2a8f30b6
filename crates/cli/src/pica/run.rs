//! `shaderport pica run`

use std::process::ExitCode;

use clap::Args;

#[derive(Args)]
pub struct RunArgs {}

pub fn run(_args: RunArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("pica run: not implemented yet")
}

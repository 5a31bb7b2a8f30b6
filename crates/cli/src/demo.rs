//! `shaderport demo`: the main job on the samples built into the binary.

use std::process::ExitCode;

use clap::Args;

#[derive(Args)]
pub struct DemoArgs {}

pub fn run(_args: DemoArgs) -> anyhow::Result<ExitCode> {
    Ok(ExitCode::SUCCESS)
}

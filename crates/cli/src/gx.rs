//! `shaderport gx ...`

use std::process::ExitCode;

use clap::{Args, Subcommand};

#[derive(Args)]
pub struct GxArgs {
    #[command(subcommand)]
    command: GxCommand,
}

#[derive(Subcommand)]
enum GxCommand {}

pub fn run(args: GxArgs) -> anyhow::Result<ExitCode> {
    match args.command {}
}

/// JSON summary of `bytes` if it is a file of this source, for `shaderport inspect`.
pub fn inspect(_path: &std::path::Path, _bytes: &[u8]) -> Option<anyhow::Result<serde_json::Value>> {
    None
}

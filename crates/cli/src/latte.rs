//! `shaderport latte ...`

use std::process::ExitCode;

use clap::{Args, Subcommand};

#[derive(Args)]
pub struct LatteArgs {
    #[command(subcommand)]
    command: LatteCommand,
}

#[derive(Subcommand)]
enum LatteCommand {}

pub fn run(args: LatteArgs) -> anyhow::Result<ExitCode> {
    match args.command {}
}

/// JSON summary of `bytes` if it is a file of this source, for `shaderport inspect`.
pub fn inspect(_path: &std::path::Path, _bytes: &[u8]) -> Option<anyhow::Result<serde_json::Value>> {
    None
}

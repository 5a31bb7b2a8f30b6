//! `shaderport pica ...`: the PICA200 tools, one module per sub-command.

use std::process::ExitCode;

use clap::{Args, Subcommand};

mod asm;
mod cmdlist;
mod disasm;
pub mod fragment;
pub mod render;
mod run;
mod texture;
mod trace;

#[derive(Args)]
pub struct PicaArgs {
    #[command(subcommand)]
    command: PicaCommand,
}

#[derive(Subcommand)]
enum PicaCommand {
    /// Assemble picasso-syntax sources into a SHBIN (picasso's command line).
    Asm(asm::AsmArgs),
    /// Print a SHBIN as picasso-syntax source that assembles back to the same bytes.
    Disasm(disasm::DisasmArgs),
    /// Run a shader on the reference interpreter; JSON in, JSON out.
    Run(run::RunArgs),
    /// Print a GPU command list (or a CiTrace with --trace): each register write with its name
    /// and fields, or the state.
    Cmdlist(cmdlist::CmdlistArgs),
    /// Decode raw texture data to PNG, or encode a PNG as texture data.
    Texture(texture::TextureArgs),
    /// The fragment shader of a fixed-function state (the JSON of `pica cmdlist --state --json`).
    Fragment(fragment::FragmentArgs),
    /// Render the draws of a trace (CiTrace or command list) on the device to a PNG.
    Render(render::RenderArgs),
}

pub fn run(args: PicaArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        PicaCommand::Asm(args) => asm::run(args),
        PicaCommand::Disasm(args) => disasm::run(args),
        PicaCommand::Run(args) => run::run(args),
        PicaCommand::Cmdlist(args) => cmdlist::run(args),
        PicaCommand::Texture(args) => texture::run(args),
        PicaCommand::Fragment(args) => fragment::run(args),
        PicaCommand::Render(args) => render::run(args),
    }
}

/// JSON summary of a SHBIN or DVOJ, for `shaderport inspect`.
pub fn inspect(path: &std::path::Path, bytes: &[u8]) -> Option<anyhow::Result<serde_json::Value>> {
    disasm::inspect(path, bytes).or_else(|| trace::inspect(bytes))
}

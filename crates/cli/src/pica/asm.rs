//! `shaderport pica asm [-o OUT.shbin] [-h OUT.h] [-n] FILE...`: picasso's command line.
//!
//! Each FILE gives one DVLE (unless it says `.nodvle`); procedures and uniforms are shared. Errors
//! print as `FILE:LINE: error: MESSAGE` (picasso's form) and exit with status 1; warnings (padding
//! NOPs left out by `-n`) print as `FILE:LINE: warning: ...`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{ArgAction, Args};
use pica::asm::{assemble, Options, Source};

#[derive(Args)]
#[command(disable_help_flag = true)]
pub struct AsmArgs {
    /// The SHBIN file to write (default: the first FILE with the extension .shbin).
    #[arg(short = 'o', long = "out", value_name = "OUT.shbin")]
    out: Option<PathBuf>,
    /// Also write a C header with the uniform locations.
    #[arg(short = 'h', long = "header", value_name = "OUT.h")]
    header: Option<PathBuf>,
    /// Do not insert padding NOPs; warn where one is needed.
    #[arg(short = 'n', long = "no-nop")]
    no_nop: bool,
    /// Print help.
    #[arg(long = "help", action = ArgAction::Help)]
    help: Option<bool>,
    /// Source files (picasso syntax), one DVLE each.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

pub fn run(args: AsmArgs) -> anyhow::Result<ExitCode> {
    let mut texts = Vec::with_capacity(args.files.len());
    for f in &args.files {
        let bytes = std::fs::read(f).with_context(|| format!("cannot open input file: {}", f.display()))?;
        texts.push((f.display().to_string(), String::from_utf8_lossy(&bytes).into_owned()));
    }
    let sources: Vec<Source> = texts.iter().map(|(name, text)| Source { name, text }).collect();
    let out = match assemble(&sources, &Options { auto_nop: !args.no_nop }) {
        Ok(out) => out,
        Err(e) => {
            eprintln!("{e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    for w in &out.warnings {
        eprintln!("{w}");
    }
    let shbin_path = args.out.unwrap_or_else(|| args.files[0].with_extension("shbin"));
    std::fs::write(&shbin_path, out.to_bytes()).with_context(|| format!("cannot write {}", shbin_path.display()))?;
    if let Some(h) = &args.header {
        std::fs::write(h, &out.header).with_context(|| format!("cannot write {}", h.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

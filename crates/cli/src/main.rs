//! `shaderport`: the command line of the toolkit (see docs/design.md, "The command line").
//!
//! Each source has a module of its own (`pica`, `latte`, `gx`); generic verbs (`inspect`, `demo`)
//! dispatch to them. Errors are printed once, here, with their whole chain, and exit non-zero.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod batch;
mod demo;
mod gx;
mod gx_preview;
mod gx_shader;
mod inspect;
mod latte;
mod output;
mod pica;
mod smdh;
mod translate;
mod verify;

#[derive(Parser)]
#[command(
    name = "shaderport",
    version,
    about = "Nintendo GPU programs to portable shaders, and the machine tools around them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// 3DS PICA200 shader tools (assembler, disassembler, interpreter).
    Pica(pica::PicaArgs),
    /// Wii U Latte shader tools (GFD containers, disassembler, assembler).
    Latte(latte::LatteArgs),
    /// Wii / GameCube Hollywood tools (BRRES materials, TEV).
    Gx(gx::GxArgs),
    /// List a 3DS SMDH icon file and extract its icons, or build one (`smdh make`).
    Smdh(smdh::SmdhArgs),
    /// Print a JSON summary of any supported file.
    Inspect(inspect::InspectArgs),
    /// Run the main job on the samples built into the binary.
    Demo(demo::DemoArgs),
    /// Translate a PICA200 shader (SHBIN), a Wii U Latte shader (.gsh, .es, .spkg, .lfx, raw) or
    /// BRRES materials to SPIR-V, GLSL, MSL, HLSL or WGSL.
    Translate(translate::TranslateArgs),
    /// Run a translated shader (SHBIN, Latte program or BRRES materials) on the Vulkan device
    /// against the reference.
    Verify(verify::VerifyArgs),
    /// Translate a whole Wii U shader dump: keyed SPIR-V (and other targets), listings, report.json.
    Batch(batch::BatchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Pica(args) => pica::run(args),
        Command::Latte(args) => latte::run(args),
        Command::Gx(args) => gx::run(args),
        Command::Smdh(args) => smdh::run(args),
        Command::Inspect(args) => inspect::run(args),
        Command::Demo(args) => demo::run(args),
        Command::Translate(args) => translate::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Batch(args) => batch::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

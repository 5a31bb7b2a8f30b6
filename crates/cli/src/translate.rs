//! `shaderport translate FILE.shbin [--entry N] --to spirv|glsl|msl|hlsl|wgsl [-o OUT]
//! [--precision fast|compat|exact]`: a PICA200 executable to a validated shader
//! (docs/pica-translate.md). Without `-o` the output goes to stdout; SPIR-V (binary) is refused
//! when stdout is a terminal.
//!
//! `shaderport translate FILE.gsh|.es|.spkg|.lfx [--entry N] [--stage vs|ps|gs] --to T [-o OUT]`
//! (or a bare program with `--raw --stage S`): a Latte program through `translate::latte`
//! (docs/latte-translate.md "Command line"), chosen by the file's contents.
//!
//! `shaderport translate FILE.brres [--material NAME]... [--all] --to T [-o OUT]`: BRRES
//! materials to TEV fragment shaders (docs/gx-cli.md): one material as above; several need
//! `-o DIR` and get one file each.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use pica::shbin::Shbin;
use translate::pica::{translate, Options};
use translate::{Precision, Target};

#[derive(Args)]
pub struct TranslateArgs {
    /// The SHBIN, Latte file (.gsh, .es, .spkg, .lfx; bare words with --raw) or BRRES to
    /// translate.
    file: PathBuf,
    /// Which executable (DVLE) of a SHBIN, or which GFD of an MT container (0-based).
    #[arg(long, default_value_t = 0)]
    entry: usize,
    /// Latte: the shader of the GFD (vs, ps or gs); a bare program's stage with --raw.
    #[arg(long, value_enum)]
    stage: Option<crate::latte::select::LatteStage>,
    /// Latte: the file is bare little-endian program words, as `latte disasm --raw` takes them.
    #[arg(long)]
    raw: bool,
    /// Output language: spirv, glsl (450), glsl-es (ES 310), msl, hlsl or wgsl.
    #[arg(long = "to")]
    to: Target,
    /// Output file (default: stdout).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Float precision: fast, compat or exact.
    #[arg(long, default_value = "compat")]
    precision: Precision,
    /// Latte: also write the shader's interface (`<key>.<stage>.meta` JSON) to this file.
    #[arg(long, value_name = "OUT.meta")]
    meta: Option<PathBuf>,
    /// BRRES: the material to translate (repeatable).
    #[arg(long = "material", value_name = "NAME")]
    materials: Vec<String>,
    /// BRRES: every material of the file (needs -o DIR).
    #[arg(long)]
    all: bool,
}

/// Reads `file` as a SHBIN. Any other format shaderport reads is named, with what to do instead
/// ([`not_a_shbin`]); a file that starts like a SHBIN gets the reader's error.
pub fn read_shbin(file: &Path) -> anyhow::Result<Shbin> {
    let bytes = std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))?;
    if let Some(message) = not_a_shbin(file, &bytes, true) {
        bail!("{}: {message}", file.display());
    }
    Shbin::read(&bytes).with_context(|| format!("{}", file.display()))
}

/// Why `bytes` is not a SHBIN, in words a user can act on, or `None` for a SHBIN (`DVLB`).
/// Recognises every format shaderport reads (SHBIN, DVOJ, picasso source, GFD, the MT Framework
/// containers, BRRES, Latte assembly source, JSON); `translating` adds which translations exist.
pub fn not_a_shbin(file: &Path, bytes: &[u8], translating: bool) -> Option<String> {
    if pica::shbin::is_shbin(bytes) {
        return None;
    }
    let gx = if translating { "; translate and verify take it with --material NAME or --all" } else { "" };
    let message = if pica::shbin::is_dvoj(bytes) {
        "a picasso object (DVOJ), not a linked SHBIN: assemble the sources into a SHBIN with `shaderport pica asm` \
         (`shaderport pica disasm` prints this object)"
            .to_string()
    } else if let Some(kind) = latte::mt::container_kind(bytes) {
        use latte::mt::ContainerKind;
        let what = match kind {
            ContainerKind::Gfd => "a GX2 shader (GFD)",
            ContainerKind::Es => "an MT Framework shader container (.es)",
            ContainerKind::Spkg => "an MT Framework shader package (.spkg)",
            ContainerKind::Lfx => "an MT Framework effect (.lfx)",
        };
        format!("{what}; try `shaderport latte disasm`")
    } else if bytes.starts_with(b"bres") {
        format!("a BRRES archive (Wii/GameCube models){gx}; try `shaderport gx inspect`")
    } else if let Some(text) = std::str::from_utf8(bytes).ok().filter(|t| !t.contains('\0')) {
        match source_kind(file, text) {
            Some(SourceKind::Picasso) => "picasso assembly source, not a SHBIN: assemble it first with \
                 `shaderport pica asm -o FILE.shbin FILE`"
                .to_string(),
            Some(SourceKind::Latte) => {
                let then = if translating { ", then translate the .gsh" } else { "" };
                format!("Latte assembly source; assemble it with `shaderport latte asm`{then}")
            }
            Some(SourceKind::Json) => {
                "a JSON file, not a SHBIN (a TEV job is run with `shaderport gx tev`)".to_string()
            }
            None => format!("a text file, not a SHBIN (it starts with {})", magic(bytes)),
        }
    } else {
        format!("not a file format shaderport reads: expected a SHBIN (magic \"DVLB\"), found {}", magic(bytes))
    };
    Some(message)
}

enum SourceKind {
    Picasso,
    Latte,
    Json,
}

/// picasso source has its directives (`.proc`, `.out`, ...); Latte source (latte-assembler) its
/// `; $` properties and CF clauses.
fn source_kind(file: &Path, text: &str) -> Option<SourceKind> {
    const PICASSO: [&str; 12] = [
        ".proc", ".out", ".fvec", ".ivec", ".bool", ".alias", ".constf", ".consti", ".constfa", ".in", ".gsh", ".entry",
    ];
    let lines = || text.lines().map(|l| l.trim_start()).take(500);
    if lines().any(|l| {
        PICASSO.iter().any(|d| l.strip_prefix(d).is_some_and(|r| r.is_empty() || r.starts_with(char::is_whitespace)))
    }) {
        return Some(SourceKind::Picasso);
    }
    if lines().any(|l| l.starts_with("; $") || l.starts_with("00 CF_") || l.contains("EXP_DONE")) {
        return Some(SourceKind::Latte);
    }
    if text.trim_start().starts_with(['{', '[']) {
        return Some(SourceKind::Json);
    }
    let name = file.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    if name.ends_with(".pica") {
        return Some(SourceKind::Picasso);
    }
    if name.ends_with(".psh") {
        return Some(SourceKind::Latte);
    }
    None
}

/// The first four bytes: as text when they are text, else in hex.
fn magic(bytes: &[u8]) -> String {
    let head = &bytes[..bytes.len().min(4)];
    if head.is_empty() {
        "an empty file".to_string()
    } else if head.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!("\"{}\"", String::from_utf8_lossy(head))
    } else {
        let hex: Vec<String> = head.iter().map(|b| format!("{b:02x}")).collect();
        format!("bytes {}", hex.join(" "))
    }
}

/// Reads and translates executable `entry` of `file`, returning the output bytes.
pub fn translate_file(file: &Path, entry: usize, to: Target, precision: Precision) -> anyhow::Result<Vec<u8>> {
    let shbin = read_shbin(file)?;
    translate_shbin(&shbin, entry, to, precision).with_context(|| format!("{}: executable {entry}", file.display()))
}

/// Translates executable `entry` of a read SHBIN.
pub fn translate_shbin(shbin: &Shbin, entry: usize, to: Target, precision: Precision) -> anyhow::Result<Vec<u8>> {
    Ok(translate(shbin, entry, Options { precision, ..Options::default() })?.write(to)?.to_bytes())
}

/// `translate` of a BRRES file.
fn run_brres(args: &TranslateArgs, bytes: &[u8]) -> anyhow::Result<ExitCode> {
    let b = crate::gx_shader::read(&args.file, bytes)?;
    let picked = crate::gx_shader::select(&args.file, &b, &args.materials, args.all)?;
    if picked.len() == 1 {
        let out = crate::gx_shader::translate_material(&picked[0], args.to)
            .with_context(|| format!("{}", args.file.display()))?;
        return write_out(args, &out);
    }
    let Some(dir) = &args.output else {
        bail!("{} materials: give -o DIR (one file each)", picked.len());
    };
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let several_models = b.models.len() > 1;
    for p in &picked {
        let out =
            crate::gx_shader::translate_material(p, args.to).with_context(|| format!("{}", args.file.display()))?;
        let path = dir.join(format!("{}.{}", crate::gx_shader::file_stem(p, several_models), args.to.extension()));
        std::fs::write(&path, &out).with_context(|| format!("{}: cannot write", path.display()))?;
        println!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: TranslateArgs) -> anyhow::Result<ExitCode> {
    let bytes = std::fs::read(&args.file).with_context(|| format!("{}: cannot read", args.file.display()))?;
    if args.raw || crate::latte::select::is_container(&bytes) {
        let sel = crate::latte::select::Selection { raw: args.raw, stage: args.stage, entry: Some(args.entry) };
        let (out, meta) = crate::latte::translate::translate_file(
            &args.file,
            &bytes,
            sel,
            args.to,
            args.precision,
            args.meta.is_some(),
        )?;
        if let (Some(path), Some(meta)) = (&args.meta, meta) {
            std::fs::write(path, meta).with_context(|| format!("{}: cannot write", path.display()))?;
        }
        return write_out(&args, &out);
    }
    if args.meta.is_some() {
        bail!("{}: --meta writes a Latte shader's interface; this is not a Latte file", args.file.display());
    }
    if args.stage.is_some() {
        bail!("{}: --stage picks the shader of a Latte file (or --raw program); this is not one", args.file.display());
    }
    if bytes.starts_with(b"bres") {
        return run_brres(&args, &bytes);
    }
    if !args.materials.is_empty() || args.all {
        bail!("{}: --material and --all select BRRES materials; this is not a BRRES file", args.file.display());
    }
    let out = translate_file(&args.file, args.entry, args.to, args.precision)?;
    write_out(&args, &out)
}

fn write_out(args: &TranslateArgs, out: &[u8]) -> anyhow::Result<ExitCode> {
    match &args.output {
        Some(path) => std::fs::write(path, out).with_context(|| format!("{}: cannot write", path.display()))?,
        None => {
            if args.to == Target::SpirV && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                bail!("SPIR-V is binary: give -o FILE.spv (or redirect stdout)");
            }
            std::io::stdout().write_all(out).context("stdout")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `shaderport demo`'s translation table (called at the end of demo.rs): each sample assembled,
/// each executable translated to every back end in `compat` and validated. Returns true when a
/// translation failed.
pub fn demo(
    table: &mut String,
    samples: impl Iterator<Item = (&'static str, &'static [(&'static str, &'static str)])>,
) -> bool {
    use std::fmt::Write as _;
    let _ = writeln!(table, "\n{:<14} {:>5} {:<10} {:>10}  targets", "translation", "DVLE", "flow", "to SPIR-V");
    let mut failed = false;
    for (name, files) in samples {
        let sources: Vec<pica::asm::Source> =
            files.iter().map(|(n, text)| pica::asm::Source { name: n, text }).collect();
        let Ok(out) = pica::asm::assemble(&sources, &pica::asm::Options::default()) else {
            let _ = writeln!(table, "{name:<14} assembly failed");
            failed = true;
            continue;
        };
        for entry in 0..out.shbin.executables.len() {
            let t0 = std::time::Instant::now();
            let spirv = translate_shbin(&out.shbin, entry, Target::SpirV, Precision::Compat);
            let elapsed = t0.elapsed();
            let flow = translate(&out.shbin, entry, Options::default()).map(|t| format!("{:?}", t.interface().flow));
            let mut ok = vec![];
            for target in Target::ALL {
                match translate_shbin(&out.shbin, entry, target, Precision::Compat) {
                    Ok(_) => ok.push(target.name()),
                    Err(e) => {
                        let _ = writeln!(table, "{name:<14} {entry:>5} {}: {e:#}", target.name());
                        failed = true;
                    }
                }
            }
            let _ = writeln!(
                table,
                "{name:<14} {entry:>5} {:<10} {:>8.1}us  {}",
                flow.unwrap_or_else(|e| format!("error: {e}")),
                elapsed.as_secs_f64() * 1e6,
                ok.join(" ")
            );
            failed |= spirv.is_err();
        }
    }
    failed
}

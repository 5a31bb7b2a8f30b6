//! `shaderport smdh FILE [--json] [--icon OUT.png] [--small-icon OUT.png]` lists an SMDH and
//! writes its icons as PNG; `shaderport smdh make --icon IN.png --title T --publisher P -o
//! OUT.smdh [--description LONG]` builds one as homebrew tools do (docs/smdh.md).
//!
//! Both forms share the command name: `make` as the first word is the sub-command, anything
//! else is the file to list (a file named `make` is reached as `./make`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use pica::smdh::{Rating, Rgba8Image, Smdh, Title, LANGUAGES, RATING_BOARDS, REGION_FREE};
use serde_json::{json, Value};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SmdhArgs {
    #[command(subcommand)]
    command: Option<SmdhCommand>,
    /// The SMDH file to list.
    #[arg(required = true)]
    file: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Write the 48x48 icon to this PNG.
    #[arg(long, value_name = "OUT.png")]
    icon: Option<PathBuf>,
    /// Write the 24x24 icon to this PNG.
    #[arg(long, value_name = "OUT.png")]
    small_icon: Option<PathBuf>,
}

#[derive(Subcommand)]
enum SmdhCommand {
    /// Build an SMDH from a PNG and one title used for every language.
    Make(MakeArgs),
}

#[derive(Args)]
struct MakeArgs {
    /// The icon image (any size; resized to 48x48 and 24x24).
    #[arg(long, value_name = "IN.png")]
    icon: PathBuf,
    /// The short description (title), every language.
    #[arg(long)]
    title: String,
    /// The publisher, every language.
    #[arg(long)]
    publisher: String,
    /// The long description, every language (default: the title).
    #[arg(long, value_name = "LONG")]
    description: Option<String>,
    /// The SMDH to write.
    #[arg(short, value_name = "OUT.smdh")]
    o: PathBuf,
}

pub fn run(args: SmdhArgs) -> anyhow::Result<ExitCode> {
    if let Some(SmdhCommand::Make(make)) = args.command {
        return run_make(make);
    }
    let file = args.file.context("an SMDH file or `make` is needed")?;
    let name = file.display().to_string();
    let bytes = std::fs::read(&file).with_context(|| format!("{name}: cannot read"))?;
    let smdh = Smdh::read(&bytes).with_context(|| name.clone())?;
    for (path, icon) in [(&args.icon, &smdh.large_icon), (&args.small_icon, &smdh.small_icon)] {
        if let Some(path) = path {
            let png = icon.to_png().with_context(|| path.display().to_string())?;
            std::fs::write(path, png).with_context(|| format!("{}: cannot write", path.display()))?;
        }
    }
    if args.json {
        let mut v = smdh_json(&smdh);
        v["file"] = json!(name);
        crate::output::emit_json(&v)?;
    } else {
        crate::output::emit(&smdh_text(&name, &smdh))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_make(args: MakeArgs) -> anyhow::Result<ExitCode> {
    let input = args.icon.display().to_string();
    let png = std::fs::read(&args.icon).with_context(|| format!("{input}: cannot read"))?;
    let image = Rgba8Image::from_png(&png).with_context(|| input.clone())?;
    let long = args.description.as_deref().unwrap_or(&args.title);
    let smdh = Smdh::from_image(Title::new(&args.title, long, &args.publisher), &image).with_context(|| input)?;
    let bytes = smdh.to_bytes().context("--title, --description or --publisher does not fit its field")?;
    std::fs::write(&args.o, bytes).with_context(|| format!("{}: cannot write", args.o.display()))?;
    Ok(ExitCode::SUCCESS)
}

fn rating_text(r: Rating) -> String {
    let mut parts = Vec::new();
    if r.pending {
        parts.push("pending".to_string());
    }
    if r.no_restriction {
        parts.push("no age restriction".to_string());
    }
    if !r.pending && !r.no_restriction {
        parts.push(format!("{}+", r.age));
    }
    parts.join(", ")
}

fn names_text(names: &[&str], rest: u32) -> String {
    let mut parts: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    if rest != 0 {
        parts.push(format!("unknown 0x{rest:x}"));
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

fn smdh_text(name: &str, s: &Smdh) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{name}: SMDH version {}", s.version);
    let first = &s.titles[0];
    // The twelve languages first; the four unused structures only when they say something
    // else (homebrew tools fill all sixteen with the one title).
    let same12 = s.titles[..12].iter().all(|t| t == first);
    if same12 {
        let _ = writeln!(out, "title (all languages): {}", title_text(first));
    } else {
        for (lang, t) in LANGUAGES.iter().zip(&s.titles).take(12) {
            let _ = writeln!(out, "title ({lang}): {}", title_text(t));
        }
    }
    for (lang, t) in LANGUAGES.iter().zip(&s.titles).skip(12) {
        if *t != Title::default() && !(same12 && t == first) {
            let _ = writeln!(out, "title ({lang}): {}", title_text(t));
        }
    }
    let (flags, rest) = s.flag_names();
    let _ = writeln!(out, "flags: 0x{:08x} ({})", s.flags, names_text(&flags, rest));
    let regions = if s.region_lockout == REGION_FREE {
        "region free".to_string()
    } else {
        let (names, rest) = s.region_names();
        names_text(&names, rest)
    };
    let _ = writeln!(out, "region lockout: 0x{:08x} ({regions})", s.region_lockout);
    let ratings: Vec<String> = RATING_BOARDS
        .iter()
        .zip(s.ratings)
        .enumerate()
        .filter(|&(_, (_, b))| b & 0x80 != 0)
        .map(|(i, (board, b))| {
            format!("{} {}", board.map_or(format!("slot {i}"), str::to_string), rating_text(Rating::decode(b)))
        })
        .collect();
    let _ = writeln!(out, "age ratings: {}", if ratings.is_empty() { "none".into() } else { ratings.join(", ") });
    let _ = writeln!(out, "match maker id: 0x{:08x}, bit id 0x{:016x}", s.match_maker_id, s.match_maker_bit_id);
    let _ = writeln!(out, "EULA version: {}.{}", s.eula_major, s.eula_minor);
    let _ = writeln!(out, "optimal animation default frame: {}", s.animation_frame());
    let _ = writeln!(out, "CEC id: 0x{:08x}", s.cec_id);
    let _ = writeln!(out, "icons: 24x24 and 48x48 RGB565");
    out
}

fn title_text(t: &Title) -> String {
    format!("{:?} / {:?} / {:?}", t.short_description, t.long_description, t.publisher)
}

fn title_json(t: &Title) -> Value {
    json!({ "short_description": t.short_description, "long_description": t.long_description, "publisher": t.publisher })
}

/// The whole SMDH as JSON (icons left out: `--icon` writes them).
pub fn smdh_json(s: &Smdh) -> Value {
    let titles: serde_json::Map<String, Value> =
        LANGUAGES.iter().zip(&s.titles).map(|(l, t)| (l.to_string(), title_json(t))).collect();
    let ratings: Vec<Value> = RATING_BOARDS
        .iter()
        .zip(s.ratings)
        .map(|(board, b)| {
            let r = Rating::decode(b);
            json!({ "board": board, "raw": b, "active": r.active, "pending": r.pending,
                    "no_restriction": r.no_restriction, "age": r.age })
        })
        .collect();
    let (flags, flags_rest) = s.flag_names();
    let (regions, regions_rest) = s.region_names();
    let frame = s.animation_frame();
    json!({
        "format": "SMDH",
        "version": s.version,
        "titles": titles,
        "ratings": ratings,
        "region_lockout": { "raw": s.region_lockout, "region_free": s.region_lockout == REGION_FREE,
                            "regions": regions, "unknown_bits": regions_rest },
        "match_maker_id": s.match_maker_id,
        "match_maker_bit_id": s.match_maker_bit_id,
        "flags": { "raw": s.flags, "names": flags, "unknown_bits": flags_rest },
        "eula_version": { "major": s.eula_major, "minor": s.eula_minor },
        "optimal_animation_default_frame": if frame.is_finite() { json!(frame) } else { json!(frame.to_string()) },
        "cec_id": s.cec_id,
        "icons": { "small": [24, 24], "large": [48, 48], "format": "RGB565" },
    })
}

/// JSON summary of an SMDH, for `shaderport inspect`.
pub fn inspect(_path: &Path, bytes: &[u8]) -> Option<anyhow::Result<Value>> {
    if !pica::smdh::is_smdh(bytes) {
        return None;
    }
    Some(Smdh::read(bytes).map_err(Into::into).map(|s| {
        let english = s.title("english").cloned().unwrap_or_default();
        let (flags, _) = s.flag_names();
        json!({
            "format": "SMDH",
            "version": s.version,
            "title": english.short_description,
            "description": english.long_description,
            "publisher": english.publisher,
            "region_lockout": s.region_lockout,
            "flags": flags,
        })
    }))
}

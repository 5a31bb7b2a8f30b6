//! `shaderport latte ...`: disassembler, assembler, container extraction and inventory for Wii U
//! Latte shaders, the reference interpreter (`latte run`, in the `run` module), and the latte hook of
//! `shaderport inspect`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use latte::asm::{assemble_gfd_with, Flavor, Literals};
use latte::gfd::{GfdFile, ShaderHeader, Stage};
use latte::isa::Program;
use latte::mt;
use serde_json::{json, Value};

mod run;
pub(crate) mod select;
pub(crate) mod translate;
pub(crate) mod verify;
use run::run_program;

#[derive(Args)]
pub struct LatteArgs {
    #[command(subcommand)]
    command: LatteCommand,
}

#[derive(Subcommand)]
enum LatteCommand {
    /// Disassemble every shader of a .gsh, .es, .spkg or .lfx file (or a raw program with --raw).
    Disasm {
        /// The file to disassemble.
        file: PathBuf,
        /// Treat the file as bare little-endian program words (no container), as emulators dump
        /// shaders; `latte asm --raw` reads the text back.
        #[arg(long)]
        raw: bool,
        /// Stage of a bare program (--raw): vs, ps, gs or gscopy.
        #[arg(long, value_enum, requires = "raw")]
        stage: Option<RawStage>,
        /// Print JSON, one object per instruction with every decoded field (docs/latte-json.md).
        #[arg(long)]
        json: bool,
        /// Find GFDs by scanning for their magic (containers of an unknown layout).
        #[arg(long, conflicts_with = "raw")]
        scan: bool,
        /// Also write each shader to DIR as `<file>_<gfd>_<n>.vsh` / `.psh` / `.gs.txt`, sources that
        /// `latte asm` reads back.
        #[arg(long, value_name = "DIR", conflicts_with = "raw")]
        split: Option<PathBuf>,
    },
    /// Assemble vertex (.vsh) and/or pixel (.psh) sources into a GFD file, or (--raw) one
    /// program text into bare program words.
    Asm {
        /// Source files: a .vsh and/or a .psh (the stage comes from the extension); with --raw,
        /// one program text of any name (what `latte disasm --raw` prints).
        #[arg(required = true, num_args = 1..=2)]
        files: Vec<PathBuf>,
        /// Output .gsh file (with --raw: the bare program, little-endian words).
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// Reproduce the older latte-assembler's layout (wut samples).
        #[arg(long, conflicts_with = "raw")]
        legacy: bool,
        /// Assemble one program text into bare program words (no GFD container).
        #[arg(long)]
        raw: bool,
        /// Sources of the newer latte-assembler: float literals 0.0, 1.0 and 0.5 (`0.0f`,
        /// `1.0f`) are the inline constants IMM_0, IMM_1, IMM_0_5 instead of literal slots
        /// (docs/latte-asm.md).
        #[arg(long)]
        inline_constants: bool,
    },
    /// Write every GFD of a container to `DIR/<id>.gsh`.
    Extract {
        file: PathBuf,
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// Find GFDs by scanning for their magic (containers of an unknown layout).
        #[arg(long)]
        scan: bool,
    },
    /// Every unique shader of a directory tree, by GFD SHA-1 and by runtime key (JSON).
    Inventory { dir: PathBuf },
    /// Run a program on the reference interpreter and print each invocation's exports as JSON
    /// (docs/latte-interp.md "Command line").
    Run {
        /// A .gsh file (its shader of --stage) or a bare program (as `latte disasm --raw` takes).
        file: PathBuf,
        /// Stage to run: vs, ps (pixel programs run in 2x2 quads) or gs.
        #[arg(long, value_enum)]
        stage: RunStage,
        /// Input JSON: uniform blocks, constant file, buffers, loop and boolean constants, and
        /// one entry per invocation with its initial registers. Without it, one invocation with
        /// every register 0.
        #[arg(long, value_name = "INPUT.json")]
        input: Option<PathBuf>,
        /// Print exported values as hex bit patterns instead of floats.
        #[arg(long)]
        hex: bool,
    },
}

/// The stage of `latte run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RunStage {
    /// Vertex program.
    Vs,
    /// Pixel program.
    Ps,
    /// Geometry program (its memory writes and EMIT/CUT events are listed).
    Gs,
}

pub fn run(args: LatteArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        LatteCommand::Disasm { file, raw, stage, json, scan, split } => {
            let bytes = std::fs::read(&file).with_context(|| format!("{}: cannot read", file.display()))?;
            let text = if json {
                let v = disasm_json(&bytes, raw.then_some(stage), scan).with_context(|| file.display().to_string())?;
                format!("{v}\n")
            } else if raw {
                raw_text(&bytes, stage).with_context(|| file.display().to_string())?
            } else {
                disasm(&bytes, scan).with_context(|| file.display().to_string())?
            };
            if let Some(dir) = split {
                split_sources(&file, &bytes, scan, &dir)?;
            }
            crate::output::emit(&text)?;
        }
        LatteCommand::Asm { files, output, raw: true, inline_constants, .. } => {
            let [f] = files.as_slice() else { bail!("--raw takes one program text") };
            let text = std::fs::read_to_string(f).with_context(|| format!("{}: cannot read", f.display()))?;
            let a = latte::asm::assemble_with(&text, literals(inline_constants))
                .with_context(|| f.display().to_string())?;
            std::fs::write(&output, a.program.to_bytes())
                .with_context(|| format!("{}: cannot write", output.display()))?;
        }
        LatteCommand::Asm { files, output, legacy, raw: false, inline_constants } => {
            let (mut vs, mut ps) = (None, None);
            for f in &files {
                let text = std::fs::read_to_string(f).with_context(|| format!("{}: cannot read", f.display()))?;
                match f.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
                    Some("vsh") if vs.is_none() => vs = Some((f, text)),
                    Some("psh") if ps.is_none() => ps = Some((f, text)),
                    _ => bail!("{}: expected one .vsh and/or one .psh file", f.display()),
                }
            }
            let flavor = if legacy { Flavor::Legacy } else { Flavor::Current };
            let (vs_text, ps_text) = (vs.as_ref().map(|v| v.1.as_str()), ps.as_ref().map(|p| p.1.as_str()));
            let gfd = assemble_gfd_with(vs_text, ps_text, flavor, literals(inline_constants)).map_err(|e| {
                // Name the file the line belongs to.
                let msg = e.to_string();
                let f = if msg.contains("pixel shader") { ps.as_ref().map(|p| p.0) } else { vs.as_ref().map(|v| v.0) };
                anyhow::anyhow!("{}: {msg}", f.map_or(String::new(), |f| f.display().to_string()))
            })?;
            std::fs::write(&output, gfd.to_bytes()).with_context(|| format!("{}: cannot write", output.display()))?;
        }
        LatteCommand::Extract { file, output, scan } => {
            let bytes = std::fs::read(&file).with_context(|| format!("{}: cannot read", file.display()))?;
            let entries = container_entries(Some(&file), &bytes, scan).with_context(|| file.display().to_string())?;
            std::fs::create_dir_all(&output).with_context(|| format!("{}: cannot create", output.display()))?;
            for e in entries {
                let p = output.join(format!("{:08x}.gsh", e.id));
                std::fs::write(&p, &e.gfd).with_context(|| format!("{}: cannot write", p.display()))?;
                crate::output::emit(&format!("{}\n", p.display()))?;
            }
        }
        LatteCommand::Run { file, stage, input, hex } => {
            let v = run_program(&file, stage, input.as_deref(), hex)?;
            crate::output::emit_json(&v)?;
        }
        LatteCommand::Inventory { dir } => {
            let inv = latte::key::inventory(&dir).with_context(|| format!("{}: cannot scan", dir.display()))?;
            crate::output::emit_json(&inv)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `--inline-constants`: how float literals equal to an inline constant are assembled.
fn literals(inline_constants: bool) -> Literals {
    if inline_constants {
        Literals::Inline
    } else {
        Literals::Slots
    }
}

/// Writes one assembler source per shader into `dir`.
fn split_sources(file: &Path, bytes: &[u8], scan: bool, dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let stem = file.file_stem().map_or("shader".into(), |s| s.to_string_lossy().into_owned());
    for (g, e) in
        container_entries(Some(file), bytes, scan).with_context(|| file.display().to_string())?.iter().enumerate()
    {
        let f = GfdFile::parse_at(&e.gfd, e.offset).with_context(|| file.display().to_string())?;
        for (n, s) in f.shaders().with_context(|| file.display().to_string())?.iter().enumerate() {
            let ext = match s.header.stage {
                Stage::Vertex => "vsh",
                Stage::Pixel => "psh",
                Stage::Geometry => "gs.txt",
            };
            let p = dir.join(format!("{stem}_{g}_{n}.{ext}"));
            let text = latte::disasm::shader_source(s).with_context(|| file.display().to_string())?;
            std::fs::write(&p, text).with_context(|| format!("{}: cannot write", p.display()))?;
        }
    }
    Ok(())
}

/// The GFDs of a container, by its layout or (`scan`) by searching for GFD magics (each magic
/// that does not start a GFD reported on stderr, [`scan_reporting`]).
fn container_entries(file: Option<&Path>, bytes: &[u8], scan: bool) -> anyhow::Result<Vec<mt::Entry>> {
    if scan {
        return scan_reporting(file, bytes);
    }
    Ok(mt::entries(bytes)?.1)
}

/// `--scan`: the GFDs found, each magic that does not start one reported on
/// stderr with its offset and parse error (an error when none is found).
fn scan_reporting(file: Option<&Path>, bytes: &[u8]) -> anyhow::Result<Vec<mt::Entry>> {
    let (entries, skipped) = mt::scan_gfds_reporting(bytes);
    let prefix = file.map_or(String::new(), |f| format!("{}: ", f.display()));
    let lines: Vec<String> =
        skipped.iter().map(|s| format!("{prefix}GFD magic at byte 0x{:x} skipped: {}", s.offset, s.error)).collect();
    if entries.is_empty() {
        match lines.is_empty() {
            true => bail!("no GFD found by scanning"),
            false => bail!("no GFD found by scanning\n{}", lines.join("\n")),
        }
    }
    for l in &lines {
        eprintln!("warning: {l}");
    }
    Ok(entries)
}

/// The stage of a bare program (`--stage`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RawStage {
    /// Vertex shader.
    Vs,
    /// Pixel shader.
    Ps,
    /// Geometry shader.
    Gs,
    /// Geometry-shader copy program (runs as the hardware vertex shader after a GS).
    Gscopy,
}

impl RawStage {
    fn name(self) -> &'static str {
        match self {
            RawStage::Vs => "vs",
            RawStage::Ps => "ps",
            RawStage::Gs => "gs",
            RawStage::Gscopy => "gscopy",
        }
    }
}

/// The text of a bare program: a comment naming the stage (when given), then the program in the
/// syntax `latte asm --raw` reads back to the same words.
fn raw_text(bytes: &[u8], stage: Option<RawStage>) -> anyhow::Result<String> {
    let p = Program::decode_bytes(bytes, 0)?;
    let mut out = String::new();
    if let Some(s) = stage {
        out.push_str(&format!("; raw {} program, {} words\n", s.name(), p.len));
    }
    out.push_str(&latte::disasm::disassemble(&p));
    Ok(out)
}

fn stage_short(s: Stage) -> &'static str {
    match s {
        Stage::Vertex => "vs",
        Stage::Pixel => "ps",
        Stage::Geometry => "gs",
    }
}

/// One program of `latte disasm --json`.
#[derive(serde::Serialize)]
struct ProgramOut {
    /// vs, ps, gs, gscopy (None for a bare program without --stage).
    stage: Option<&'static str>,
    /// Where a container's program came from: GFD index, id, byte offset, shader index.
    #[serde(skip_serializing_if = "Option::is_none")]
    gfd: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gfd_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gfd_offset: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shader: Option<usize>,
    /// A program block no header block claims: its block index (and no `shader`).
    #[serde(skip_serializing_if = "Option::is_none")]
    unpaired_block: Option<usize>,
    #[serde(flatten)]
    program: latte::json::ProgramJson,
}

/// `latte disasm --json` (pretty-printed): a bare program (`raw` = Some(stage)) as `{"stage",
/// "words", "instructions"}`; a container as `{"shaders": [...]}`, each shader an object of
/// that form plus where it came from (GFD index, id and byte offset, shader index).
fn disasm_json(bytes: &[u8], raw: Option<Option<RawStage>>, scan: bool) -> anyhow::Result<String> {
    if let Some(stage) = raw {
        let program = latte::json::program(&Program::decode_bytes(bytes, 0)?);
        let out = ProgramOut {
            stage: stage.map(RawStage::name),
            gfd: None,
            gfd_id: None,
            gfd_offset: None,
            shader: None,
            unpaired_block: None,
            program,
        };
        return Ok(serde_json::to_string_pretty(&out)?);
    }
    let mut shaders = Vec::new();
    for (g, e) in container_entries(None, bytes, scan)?.iter().enumerate() {
        let f = GfdFile::parse_at(&e.gfd, e.offset)?;
        for (n, s) in f.shaders()?.iter().enumerate() {
            let mut progs = vec![(stage_short(s.header.stage), s.program.as_ref(), s.program_offset)];
            if s.copy_program.is_some() {
                progs.push(("gscopy", s.copy_program.as_ref(), 0));
            }
            for (stage, prog, at) in progs {
                let Some(prog) = prog else { continue };
                shaders.push(ProgramOut {
                    stage: Some(stage),
                    gfd: Some(g),
                    gfd_id: Some(format!("0x{:08x}", e.id)),
                    gfd_offset: Some(e.offset),
                    shader: Some(n),
                    unpaired_block: None,
                    program: latte::json::program(&Program::decode_bytes(prog, at)?),
                });
            }
        }
        for u in f.unpaired_programs() {
            shaders.push(ProgramOut {
                stage: Some(if u.copy { "gscopy" } else { stage_short(u.stage) }),
                gfd: Some(g),
                gfd_id: Some(format!("0x{:08x}", e.id)),
                gfd_offset: Some(e.offset),
                shader: None,
                unpaired_block: Some(u.block),
                program: latte::json::program(&Program::decode_bytes(&u.program, u.program_offset)?),
            });
        }
    }
    #[derive(serde::Serialize)]
    struct Shaders {
        shaders: Vec<ProgramOut>,
    }
    Ok(serde_json::to_string_pretty(&Shaders { shaders })?)
}

/// The text disassembly of every shader of a container (bare programs: [`raw_text`]).
fn disasm(bytes: &[u8], scan: bool) -> anyhow::Result<String> {
    let plain = !scan && mt::container_kind(bytes) == Some(mt::ContainerKind::Gfd);
    let entries = container_entries(None, bytes, scan)?;
    let mut out = String::new();
    for e in entries {
        if !plain {
            out.push_str(&format!(
                "; ######## GFD id 0x{:08x}{} at byte 0x{:x} ########\n",
                e.id,
                e.name.as_ref().map_or(String::new(), |n| format!(" \"{n}\"")),
                e.offset
            ));
        }
        let f = GfdFile::parse_at(&e.gfd, e.offset)?;
        out.push_str(&latte::disasm::disassemble_gfd(&f)?);
    }
    Ok(out)
}

fn register_map(h: &ShaderHeader) -> Value {
    use latte::asm::regs::{GS_REGS, PS_REGS, VS_REGS};
    let table = match h.stage {
        Stage::Vertex => VS_REGS,
        Stage::Pixel => PS_REGS,
        Stage::Geometry => GS_REGS,
    };
    let mut m = serde_json::Map::new();
    for slot in table {
        for i in 0..slot.len {
            let name = if slot.len == 1 { slot.name.to_string() } else { format!("{}[{i}]", slot.name) };
            if let Some(v) = h.regs.get(slot.word + i) {
                m.insert(name, json!(format!("0x{v:08X}")));
            }
        }
    }
    Value::Object(m)
}

/// The registers of a header in word order, `[{"word", "name", "value"}]`: the order of the
/// header itself (`SQ_VTX_SEMANTIC[2]` before `SQ_VTX_SEMANTIC[10]`), which the `registers`
/// object, a JSON map, cannot keep.
fn register_list(h: &ShaderHeader) -> Value {
    use latte::asm::regs::{GS_REGS, PS_REGS, VS_REGS};
    let table = match h.stage {
        Stage::Vertex => VS_REGS,
        Stage::Pixel => PS_REGS,
        Stage::Geometry => GS_REGS,
    };
    let mut v: Vec<(usize, String, u32)> = Vec::new();
    for slot in table {
        for i in 0..slot.len {
            let name = if slot.len == 1 { slot.name.to_string() } else { format!("{}[{i}]", slot.name) };
            if let Some(&r) = h.regs.get(slot.word + i) {
                v.push((slot.word + i, name, r));
            }
        }
    }
    v.sort_by_key(|r| r.0);
    Value::Array(
        v.into_iter()
            .map(|(word, name, r)| json!({"word": word, "name": name, "value": format!("0x{r:08X}")}))
            .collect(),
    )
}

/// `list` (attributes, uniforms or samplers as serialized) with each entry's `var_type` also
/// given by name, as `latte disasm` prints it in `$..TYPE` directives (`"type": "FLOAT4"`).
fn with_type_names(list: Value, names: &[&str]) -> Value {
    let Value::Array(mut items) = list else { return list };
    for it in &mut items {
        if let Some(o) = it.as_object_mut() {
            let name = o.get("var_type").and_then(Value::as_u64).and_then(|t| names.get(t as usize)).copied();
            o.insert("type".into(), name.filter(|n| !n.is_empty()).map_or(Value::Null, |n| json!(n)));
        }
    }
    Value::Array(items)
}

fn shader_json(s: &latte::gfd::GfdShader) -> anyhow::Result<Value> {
    use latte::asm::header::{SAMPLER_TYPE_NAMES, VAR_TYPE_NAMES};
    let h = &s.header;
    let prog = s.program.clone().unwrap_or_default();
    let decoded = match &s.program {
        Some(p) => Some(Program::decode_bytes(p, s.program_offset)?),
        None => None,
    };
    Ok(json!({
        "stage": h.stage,
        "key": format!("{:016x}", latte::key::shader_key(&h.regs, &prog)),
        "program_bytes": prog.len(),
        "has_program_block": s.program.is_some(),
        "instructions": decoded.as_ref().map(|p| p.instruction_count()),
        "mode": match h.mode { 0 => "uniform_register", 1 => "uniform_block", 2 => "geometry", 3 => "compute", _ => "unknown" },
        "uniform_blocks": h.uniform_blocks,
        "uniforms": with_type_names(json!(h.uniform_vars), &VAR_TYPE_NAMES),
        "initial_values": h.initial_values,
        "loop_vars": h.loop_vars,
        "samplers": with_type_names(json!(h.sampler_vars), &SAMPLER_TYPE_NAMES),
        "attributes": with_type_names(json!(h.attrib_vars), &VAR_TYPE_NAMES),
        "ring_item_size": h.ring_item_size,
        "has_stream_out": h.has_stream_out != 0,
        "registers": register_map(h),
        "register_list": register_list(h),
        "copy_program_bytes": s.copy_program.as_ref().map(|c| c.len()),
    }))
}

fn inspect_bytes(bytes: &[u8]) -> anyhow::Result<Value> {
    let (kind, entries) = mt::entries(bytes)?;
    let mut gfds = Vec::new();
    let mut stages = Vec::new();
    for e in &entries {
        let f = GfdFile::parse_at(&e.gfd, e.offset)?;
        let shaders: Vec<Value> = f.shaders()?.iter().map(shader_json).collect::<anyhow::Result<_>>()?;
        for s in &shaders {
            stages.push(s["stage"].clone());
        }
        let unpaired: Vec<Value> = f
            .unpaired_programs()
            .iter()
            .map(|u| {
                let p = Program::decode_bytes(&u.program, u.program_offset)?;
                Ok(json!({
                    "stage": u.stage,
                    "copy_program": u.copy,
                    "block": u.block,
                    "program_bytes": u.program.len(),
                    "instructions": p.instruction_count(),
                }))
            })
            .collect::<anyhow::Result<_>>()?;
        gfds.push(json!({
            "id": format!("0x{:08x}", e.id),
            "name": e.name,
            "offset": e.offset,
            "sha1": latte::key::sha1_hex(&e.gfd),
            "version": format!("{}.{}", f.header.major, f.header.minor),
            "blocks": f.blocks.len(),
            "shaders": shaders,
            "programs_without_header": unpaired,
            "contents": contents(&shaders, &unpaired),
        }));
    }
    Ok(json!({ "format": "latte", "container": kind, "gfd_count": gfds.len(), "stages": stages, "gfds": gfds }))
}

/// What a GFD holds, in words: its shaders, the program blocks no header claims and the
/// headers without a program.
fn contents(shaders: &[Value], unpaired: &[Value]) -> String {
    let mut parts = Vec::new();
    for s in shaders {
        let stage = s["stage"].as_str().unwrap_or("?");
        if s["has_program_block"] == true {
            parts.push(format!("{stage} shader"));
        } else {
            parts.push(format!("{stage} shader header without a program block"));
        }
    }
    for u in unpaired {
        let copy = if u["copy_program"] == true { "copy " } else { "" };
        parts.push(format!("{} {copy}program block without a header block", u["stage"].as_str().unwrap_or("?")));
    }
    if parts.is_empty() {
        "no shader header or program block".into()
    } else {
        parts.join(", ")
    }
}

/// JSON summary of `bytes` if it is a file of this source, for `shaderport inspect`.
pub fn inspect(_path: &Path, bytes: &[u8]) -> Option<anyhow::Result<serde_json::Value>> {
    mt::container_kind(bytes)?;
    Some(inspect_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(p: &str) -> PathBuf {
        testkit::corpus("").join(p)
    }

    #[test]
    fn asm_reproduces_a_pair() {
        let out = std::env::temp_dir().join(format!("shaderport-latte-{}.gsh", std::process::id()));
        let args = LatteArgs {
            command: LatteCommand::Asm {
                files: vec![corpus("latte/librw/asm/skin.vsh"), corpus("latte/librw/asm/simple.psh")],
                output: out.clone(),
                legacy: false,
                raw: false,
                inline_constants: false,
            },
        };
        run(args).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(corpus("latte/librw/skin.gsh")).unwrap());
        let _ = std::fs::remove_file(out);
    }

    #[test]
    fn split_sources_assemble_back_to_the_file() {
        let dir = std::env::temp_dir().join(format!("shaderport-latte-split-{}", std::process::id()));
        let file = corpus("latte/librw/matfx_env.gsh");
        let bytes = std::fs::read(&file).unwrap();
        split_sources(&file, &bytes, false, &dir).unwrap();
        let out = dir.join("out.gsh");
        let files = vec![dir.join("matfx_env_0_0.vsh"), dir.join("matfx_env_0_1.psh")];
        run(LatteArgs {
            command: LatteCommand::Asm {
                files,
                output: out.clone(),
                legacy: false,
                raw: false,
                inline_constants: false,
            },
        })
        .unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), bytes);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn asm_error_names_the_file_and_line() {
        let dir = std::env::temp_dir().join(format!("shaderport-latte-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("bad.psh");
        std::fs::write(&src, "00 ALU: ADDR(32) CNT(1)\n  0 x: MUL R0.x, R1.x, R9Z.x\nEND_OF_PROGRAM\n").unwrap();
        let args = LatteArgs {
            command: LatteCommand::Asm {
                files: vec![src.clone()],
                output: dir.join("o.gsh"),
                legacy: false,
                raw: false,
                inline_constants: false,
            },
        };
        let e = format!("{:#}", run(args).unwrap_err());
        assert!(e.contains("bad.psh") && e.contains("line 2"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn inspect_lists_shaders_keys_and_registers() {
        let bytes = std::fs::read(corpus("latte/ClassiCube/textured_exp.gsh")).unwrap();
        let v = inspect(Path::new("x.gsh"), &bytes).unwrap().unwrap();
        let shaders = v["gfds"][0]["shaders"].as_array().unwrap();
        assert_eq!(shaders.len(), 2);
        assert_eq!(shaders[0]["stage"], "vertex");
        assert_eq!(shaders[1]["stage"], "pixel");
        assert_eq!(shaders[0]["key"].as_str().unwrap().len(), 16);
        assert_eq!(shaders[0]["attributes"][0]["name"], "in_pos");
        assert_eq!(shaders[1]["samplers"][0]["name"], "texImage");
        assert_eq!(shaders[1]["registers"]["SPI_PS_IN_CONTROL_0"], "0x14000903");
        assert!(inspect(Path::new("x"), b"not a shader").is_none());
        let truncated = &bytes[..100];
        let e = inspect(Path::new("x"), truncated).unwrap().unwrap_err().to_string();
        assert!(e.contains("byte offset"), "{e}");
    }

    fn mesa_bins() -> Vec<PathBuf> {
        let mut v = Vec::new();
        for d in std::fs::read_dir(corpus("latte-mesa/programs")).unwrap() {
            for f in std::fs::read_dir(d.unwrap().path()).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "bin") {
                    v.push(f);
                }
            }
        }
        v.sort();
        v
    }

    /// `latte disasm --raw F --stage S` -> `latte asm --raw` gives back the words of all 64
    /// latte-mesa programs, through the CLI's own file handling.
    #[test]
    fn raw_disasm_then_asm_reproduces_every_mesa_program() {
        let dir = std::env::temp_dir().join(format!("shaderport-latte-raw-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bins = mesa_bins();
        assert_eq!(bins.len(), 64);
        for (k, bin) in bins.iter().enumerate() {
            let bytes = std::fs::read(bin).unwrap();
            let stage = match bin.file_stem().unwrap().to_str().unwrap() {
                "vs" => RawStage::Vs,
                "ps" => RawStage::Ps,
                "gs" => RawStage::Gs,
                _ => RawStage::Gscopy,
            };
            let text = raw_text(&bytes, Some(stage)).unwrap();
            assert!(text.starts_with(&format!("; raw {} program", stage.name())));
            let src = dir.join(format!("{k}.txt"));
            let out = dir.join(format!("{k}.bin"));
            std::fs::write(&src, &text).unwrap();
            run(LatteArgs {
                command: LatteCommand::Asm {
                    files: vec![src],
                    output: out.clone(),
                    legacy: false,
                    raw: true,
                    inline_constants: false,
                },
            })
            .unwrap();
            assert_eq!(std::fs::read(&out).unwrap(), bytes, "{}", bin.display());
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn raw_asm_error_names_the_file_and_line() {
        let dir = std::env::temp_dir().join(format!("shaderport-latte-rawbad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("bad.txt");
        std::fs::write(&src, "00 ALU: ADDR(32) CNT(1)\n  0 x: FOO R0.x, R1.x\nEND_OF_PROGRAM\n").unwrap();
        let args = LatteArgs {
            command: LatteCommand::Asm {
                files: vec![src],
                output: dir.join("o.bin"),
                legacy: false,
                raw: true,
                inline_constants: false,
            },
        };
        let e = format!("{:#}", run(args).unwrap_err());
        assert!(e.contains("bad.txt") && e.contains("line 2"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }

    /// JSON of a bare program and of a .gsh with a geometry shader: the stages, and instructions
    /// in address order with addr / kind / op.
    #[test]
    fn disasm_json_forms() {
        let bytes = std::fs::read(corpus("latte-mesa/programs/t01_if_else/ps.bin")).unwrap();
        let v: Value = serde_json::from_str(&disasm_json(&bytes, Some(Some(RawStage::Ps)), false).unwrap()).unwrap();
        assert_eq!(v["stage"], "ps");
        let ins = v["instructions"].as_array().unwrap();
        assert_eq!(
            (ins[0]["addr"].as_u64(), ins[0]["kind"].as_str(), ins[0]["op"].as_str()),
            (Some(0), Some("cf"), Some("ALU_PUSH_BEFORE"))
        );
        assert!(ins.windows(2).all(|w| w[0]["addr"].as_u64() < w[1]["addr"].as_u64()));
        assert!(ins.iter().any(|i| i["op"] == "SAMPLE_L" && i["kind"] == "tex" && i["resource_id"] == 18));
        let gsh = std::fs::read(corpus("latte-mesa/gsh/t17_gs_passthrough.gsh")).unwrap();
        let v: Value = serde_json::from_str(&disasm_json(&gsh, None, false).unwrap()).unwrap();
        let stages: Vec<&str> = v["shaders"].as_array().unwrap().iter().map(|s| s["stage"].as_str().unwrap()).collect();
        assert_eq!(stages, ["vs", "ps", "gs", "gscopy"]);
        let gs = &v["shaders"][2]["instructions"];
        assert!(gs.as_array().unwrap().iter().any(|i| i["op"] == "MEM_RING" && i["kind"] == "mem"));
        assert!(gs.as_array().unwrap().iter().any(|i| i["op"] == "EMIT_VERTEX"));
        // A truncated program is an error with a byte offset, not a panic.
        let e = disasm_json(&bytes[..bytes.len() - 2], Some(None), false).unwrap_err().to_string();
        assert!(e.contains("byte offset"), "{e}");
    }

    /// The 30 latte-mesa .gsh files through the CLI: inspect lists their shaders with the
    /// instruction counts of the decoder, the text and JSON disassemblies cover every program
    /// (the GS copy program included).
    #[test]
    fn mesa_gsh_inspect_and_disasm() {
        let mut n = 0;
        for e in std::fs::read_dir(corpus("latte-mesa/gsh")).unwrap() {
            let f = e.unwrap().path();
            let bytes = std::fs::read(&f).unwrap();
            let v = inspect(&f, &bytes).unwrap().unwrap();
            let shaders = v["gfds"][0]["shaders"].as_array().unwrap();
            let j: Value = serde_json::from_str(&disasm_json(&bytes, None, false).unwrap()).unwrap();
            let progs = j["shaders"].as_array().unwrap();
            let gs = shaders.len() == 3;
            assert_eq!(progs.len(), if gs { 4 } else { 2 }, "{}", f.display());
            for (s, p) in shaders.iter().zip(progs) {
                assert_eq!(
                    s["instructions"].as_u64().unwrap() as usize,
                    p["instructions"].as_array().unwrap().len(),
                    "{}",
                    f.display()
                );
            }
            let text = disasm(&bytes, false).unwrap();
            assert_eq!(text.matches("END_OF_PROGRAM").count(), progs.len(), "{}", f.display());
            n += 1;
        }
        assert_eq!(n, 30);
    }

    #[test]
    fn disasm_of_an_es_container_names_its_id() {
        let gfd = std::fs::read(corpus("latte/wut/pos_col_shader.gsh")).unwrap();
        let es = mt::Es { version: 10, id: 0xC977, reserved: 0, gfd }.to_bytes();
        let text = disasm(&es, false).unwrap();
        let scanned = disasm(&es, true).unwrap();
        assert!(scanned.contains("GFD id 0x00000000") && scanned.contains("EXP_DONE: POS0, R2"), "{scanned}");
        assert!(text.contains("GFD id 0x0000c977"), "{text}");
        assert!(text.contains("EXP_DONE: POS0, R2") && text.contains("CALL_FS NO_BARRIER"), "{text}");
    }
}

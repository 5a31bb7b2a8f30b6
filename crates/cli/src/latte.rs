//! `shaderport latte ...`: disassembler, assembler, container extraction and inventory for Wii U
//! Latte shaders, and the latte hook of `shaderport inspect`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use latte::asm::{assemble_gfd_as, Flavor};
use latte::gfd::{GfdFile, ShaderHeader, Stage};
use latte::isa::Program;
use latte::mt;
use serde_json::{json, Value};

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
        /// Treat the file as raw little-endian program words.
        #[arg(long)]
        raw: bool,
        /// Find GFDs by scanning for their magic (containers of an unknown layout).
        #[arg(long, conflicts_with = "raw")]
        scan: bool,
        /// Also write each shader to DIR as <file>_<gfd>_<n>.vsh / .psh / .gs.txt, sources that
        /// `latte asm` reads back.
        #[arg(long, value_name = "DIR", conflicts_with = "raw")]
        split: Option<PathBuf>,
    },
    /// Assemble vertex (.vsh) and/or pixel (.psh) sources into a GFD file.
    Asm {
        /// Source files: a .vsh and/or a .psh (the stage comes from the extension).
        #[arg(required = true, num_args = 1..=2)]
        files: Vec<PathBuf>,
        /// Output .gsh file.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// Reproduce the older latte-assembler's layout (wut samples).
        #[arg(long)]
        legacy: bool,
    },
    /// Write every GFD of a container to DIR/<id>.gsh.
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
}

pub fn run(args: LatteArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        LatteCommand::Disasm { file, raw, scan, split } => {
            let bytes = std::fs::read(&file).with_context(|| format!("{}: cannot read", file.display()))?;
            let text = disasm(&bytes, raw, scan).with_context(|| file.display().to_string())?;
            if let Some(dir) = split {
                split_sources(&file, &bytes, scan, &dir)?;
            }
            emit(&text)?;
        }
        LatteCommand::Asm { files, output, legacy } => {
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
            let gfd = assemble_gfd_as(vs.as_ref().map(|v| v.1.as_str()), ps.as_ref().map(|p| p.1.as_str()), flavor).map_err(|e| {
                // Name the file the line belongs to.
                let msg = e.to_string();
                let f = if msg.contains("pixel shader") { ps.as_ref().map(|p| p.0) } else { vs.as_ref().map(|v| v.0) };
                anyhow::anyhow!("{}: {msg}", f.map_or(String::new(), |f| f.display().to_string()))
            })?;
            std::fs::write(&output, gfd.to_bytes()).with_context(|| format!("{}: cannot write", output.display()))?;
        }
        LatteCommand::Extract { file, output, scan } => {
            let bytes = std::fs::read(&file).with_context(|| format!("{}: cannot read", file.display()))?;
            let entries = container_entries(&bytes, scan).with_context(|| file.display().to_string())?;
            std::fs::create_dir_all(&output).with_context(|| format!("{}: cannot create", output.display()))?;
            for e in entries {
                let p = output.join(format!("{:08x}.gsh", e.id));
                std::fs::write(&p, &e.gfd).with_context(|| format!("{}: cannot write", p.display()))?;
                emit(&format!("{}\n", p.display()))?;
            }
        }
        LatteCommand::Inventory { dir } => {
            let inv = latte::key::inventory(&dir).with_context(|| format!("{}: cannot scan", dir.display()))?;
            emit(&format!("{}\n", serde_json::to_string_pretty(&inv)?))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes one assembler source per shader into `dir`.
fn split_sources(file: &Path, bytes: &[u8], scan: bool, dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let stem = file.file_stem().map_or("shader".into(), |s| s.to_string_lossy().into_owned());
    for (g, e) in container_entries(bytes, scan).with_context(|| file.display().to_string())?.iter().enumerate() {
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

/// Writes to stdout; a closed pipe (`| head`) ends the output quietly instead of panicking.
fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}

/// The GFDs of a container, by its layout or (`scan`) by searching for GFD magics.
fn container_entries(bytes: &[u8], scan: bool) -> anyhow::Result<Vec<mt::Entry>> {
    if scan {
        let e = mt::scan_gfds(bytes);
        if e.is_empty() {
            bail!("no GFD found by scanning");
        }
        return Ok(e);
    }
    Ok(mt::entries(bytes)?.1)
}

fn disasm(bytes: &[u8], raw: bool, scan: bool) -> anyhow::Result<String> {
    if raw {
        return Ok(latte::disasm::disassemble(&Program::decode_bytes(bytes, 0)?));
    }
    let plain = !scan && mt::container_kind(bytes) == Some(mt::ContainerKind::Gfd);
    let entries = container_entries(bytes, scan)?;
    let mut out = String::new();
    for e in entries {
        if !plain {
            out.push_str(&format!("; ######## GFD id 0x{:08x}{} at byte 0x{:x} ########\n", e.id, e.name.as_ref().map_or(String::new(), |n| format!(" \"{n}\"")), e.offset));
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

fn shader_json(s: &latte::gfd::GfdShader) -> anyhow::Result<Value> {
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
        "instructions": decoded.as_ref().map(|p| p.instruction_count()),
        "mode": match h.mode { 0 => "uniform_register", 1 => "uniform_block", 2 => "geometry", 3 => "compute", _ => "unknown" },
        "uniform_blocks": h.uniform_blocks,
        "uniforms": h.uniform_vars,
        "initial_values": h.initial_values,
        "loop_vars": h.loop_vars,
        "samplers": h.sampler_vars,
        "attributes": h.attrib_vars,
        "ring_item_size": h.ring_item_size,
        "has_stream_out": h.has_stream_out != 0,
        "registers": register_map(h),
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
        gfds.push(json!({
            "id": format!("0x{:08x}", e.id),
            "name": e.name,
            "offset": e.offset,
            "sha1": latte::key::sha1_hex(&e.gfd),
            "version": format!("{}.{}", f.header.major, f.header.minor),
            "blocks": f.blocks.len(),
            "shaders": shaders,
        }));
    }
    Ok(json!({ "format": "latte", "container": kind, "gfd_count": gfds.len(), "stages": stages, "gfds": gfds }))
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
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus")).join(p)
    }

    #[test]
    fn asm_reproduces_a_pair() {
        let out = std::env::temp_dir().join(format!("shaderport-latte-{}.gsh", std::process::id()));
        let args = LatteArgs {
            command: LatteCommand::Asm {
                files: vec![corpus("latte/librw/asm/skin.vsh"), corpus("latte/librw/asm/simple.psh")],
                output: out.clone(),
                legacy: false,
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
        run(LatteArgs { command: LatteCommand::Asm { files, output: out.clone(), legacy: false } }).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), bytes);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn asm_error_names_the_file_and_line() {
        let dir = std::env::temp_dir().join(format!("shaderport-latte-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("bad.psh");
        std::fs::write(&src, "00 ALU: ADDR(32) CNT(1)\n  0 x: MUL R0.x, R1.x, R9Z.x\nEND_OF_PROGRAM\n").unwrap();
        let args = LatteArgs { command: LatteCommand::Asm { files: vec![src.clone()], output: dir.join("o.gsh"), legacy: false } };
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

    #[test]
    fn disasm_of_an_es_container_names_its_id() {
        let gfd = std::fs::read(corpus("latte/wut/pos_col_shader.gsh")).unwrap();
        let es = mt::Es { version: 10, id: 0xC977, reserved: 0, gfd }.to_bytes();
        let text = disasm(&es, false, false).unwrap();
        let scanned = disasm(&es, false, true).unwrap();
        assert!(scanned.contains("GFD id 0x00000000") && scanned.contains("EXP_DONE: POS0, R2"), "{scanned}");
        assert!(text.contains("GFD id 0x0000c977"), "{text}");
        assert!(text.contains("EXP_DONE: POS0, R2") && text.contains("CALL_FS NO_BARRIER"), "{text}");
    }
}

//! `shaderport pica disasm FILE.shbin`: picasso source that assembles back to the same bytes;
//! and the SHBIN/DVOJ summary behind `shaderport inspect`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use pica::shbin::{Constant, Dvle, Dvoj, GeometryMode, Output, OutputKind, ShaderType, Shbin, Uniform, UniformReg};
use serde_json::{json, Value};

#[derive(Args)]
pub struct DisasmArgs {
    /// The SHBIN file to print.
    file: PathBuf,
    /// Write the source here instead of to stdout.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
    /// Fail (exit status 1) instead of warning when the text would not assemble back to the same
    /// bytes.
    #[arg(long)]
    strict: bool,
}

pub fn run(args: DisasmArgs) -> anyhow::Result<ExitCode> {
    let name = args.file.display().to_string();
    let bytes = std::fs::read(&args.file).with_context(|| format!("{name}: cannot read"))?;
    if pica::shbin::is_dvoj(&bytes) {
        anyhow::bail!("{name}: a DVOJ object; `pica disasm` prints linked SHBIN files (see `shaderport inspect` for objects)");
    }
    let shbin = Shbin::read(&bytes).with_context(|| name.clone())?;
    let d = pica::disasm::disassemble_lossy(&shbin);
    if args.strict {
        if let Some(first) = d.warnings.first() {
            anyhow::bail!("{name}: {first} ({} problem(s) in all; the text would not assemble back to the same bytes)", d.warnings.len());
        }
    }
    for w in &d.warnings {
        eprintln!("warning: {name}: {w}");
    }
    match &args.out {
        Some(path) => std::fs::write(path, &d.text).with_context(|| format!("{}: cannot write", path.display()))?,
        None => print!("{}", d.text),
    }
    Ok(ExitCode::SUCCESS)
}

/// JSON summary of a SHBIN or DVOJ, for `shaderport inspect`; `None` for other files.
pub fn inspect(path: &Path, bytes: &[u8]) -> Option<anyhow::Result<Value>> {
    if pica::shbin::is_shbin(bytes) {
        // `shaderport inspect` names the file in front of the error.
        let _ = path;
        return Some(Shbin::read(bytes).map(|s| shbin_summary(&s)).map_err(Into::into));
    }
    if pica::shbin::is_dvoj(bytes) {
        return Some(Dvoj::read(bytes).map(|d| dvoj_summary(&d)).map_err(Into::into));
    }
    None
}

fn shader_type(t: ShaderType) -> Value {
    match t {
        ShaderType::Vertex => json!("vertex"),
        ShaderType::Geometry => json!("geometry"),
        ShaderType::Other(r) => json!(r),
    }
}

fn mask_text(mask: u16) -> String {
    (0..4).filter(|i| mask & (1 << i) != 0).map(|i| ['x', 'y', 'z', 'w'][i]).collect()
}

fn outputs(list: &[Output]) -> Value {
    list.iter()
        .map(|o| {
            let kind = match o.kind {
                OutputKind::Other(9) => json!("dummy"),
                k => k.name().map_or_else(|| json!(k.raw()), |n| json!(n)),
            };
            json!({ "register": format!("o{}", o.reg), "type": kind, "mask": mask_text(o.mask) })
        })
        .collect()
}

fn symbol(symbols: &[u8], offset: u32) -> Option<String> {
    let rest = symbols.get(offset as usize..)?;
    let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    Some(String::from_utf8_lossy(&rest[..end]).into_owned())
}

fn uniforms(list: &[Uniform], symbols: &[u8]) -> Value {
    list.iter()
        .map(|u| {
            let (first, last) = (UniformReg::from_raw(u.start), UniformReg::from_raw(u.end));
            let kind = match first {
                UniformReg::Input(_) => "input",
                UniformReg::Float(_) => "float",
                UniformReg::Int(_) => "int",
                UniformReg::Bool(_) => "bool",
                UniformReg::Other(_) => "other",
            };
            json!({
                "name": symbol(symbols, u.symbol),
                "kind": kind,
                "first": first.to_string(),
                "last": last.to_string(),
                "count": (u.end as i32 - u.start as i32 + 1).max(0),
            })
        })
        .collect()
}

fn constants(list: &[Constant]) -> Value {
    list.iter()
        .map(|c| match *c {
            Constant::Bool { reg, value } => json!({ "register": format!("b{reg}"), "value": value }),
            Constant::Int { reg, value } => json!({ "register": format!("i{reg}"), "value": value }),
            Constant::Float { reg, value } => {
                // NaN and infinity have no JSON number: those components are given as strings.
                let comps: Vec<Value> = value
                    .iter()
                    .map(|v| {
                        let f = v.to_f32();
                        if f.is_finite() {
                            json!(f)
                        } else {
                            json!(f.to_string())
                        }
                    })
                    .collect();
                json!({ "register": format!("c{reg}"), "value": comps, "bits": value.map(|v| format!("{:#08x}", v.bits())) })
            }
            Constant::Raw(bytes) => json!({ "raw": bytes.iter().map(|b| format!("{b:02x}")).collect::<String>() }),
        })
        .collect()
}

fn dvle_summary(d: &Dvle) -> Value {
    let mut v = json!({
        "type": shader_type(d.shader_type),
        "entry": { "main": d.main, "endmain": d.endmain },
        "input_mask": format!("{:#06x}", d.input_mask),
        "output_mask": format!("{:#06x}", d.output_mask),
        "outputs": outputs(&d.outputs),
        "uniforms": uniforms(&d.uniforms, &d.symbols),
        "constants": constants(&d.constants),
        "labels": d.labels.iter().map(|l| json!({ "name": d.symbol(l.symbol), "offset": l.offset, "size": l.size })).collect::<Value>(),
    });
    if d.shader_type == ShaderType::Geometry {
        let mode = match d.geometry_mode {
            GeometryMode::Point => json!("point"),
            GeometryMode::Variable => json!("variable"),
            GeometryMode::Fixed => json!("fixed"),
            GeometryMode::Other(m) => json!(m),
        };
        v["geometry"] = json!({
            "mode": mode,
            "merge_outmaps": d.merge_outmaps != 0,
            "variable_vertices": d.gs_variable_num,
            "fixed_start": format!("c{}", d.gs_fixed_start),
            "fixed_vertices": d.gs_fixed_num,
        });
    }
    v
}

fn shbin_summary(s: &Shbin) -> Value {
    let disasm = pica::disasm::disassemble_lossy(s);
    json!({
        "format": "SHBIN",
        "instructions": s.program.code.len(),
        "operand_descriptors": s.program.descriptors.len(),
        "dvles": s.executables.iter().map(dvle_summary).collect::<Value>(),
        "picasso_reproducible": disasm.warnings.is_empty(),
    })
}

fn dvoj_summary(d: &Dvoj) -> Value {
    json!({
        "format": "DVOJ",
        "type": shader_type(d.shader_type),
        // specs/pica200-shbin.md "DVOJ": the entry point is always the first instruction.
        "entry": 0,
        "instructions": d.code.len(),
        "operand_descriptors": d.descriptors.len(),
        "input_mask": format!("{:#06x}", d.input_mask),
        "output_mask": format!("{:#06x}", d.output_mask),
        "outputs": outputs(&d.outputs),
        "uniforms": uniforms(&d.uniforms, &d.symbols),
        "constants": constants(&d.constants),
    })
}

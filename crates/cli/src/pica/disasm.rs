//! `shaderport pica disasm FILE.shbin`: picasso source that assembles back to the same bytes
//! (DVOJ objects print as the SHBIN they make); and the SHBIN/DVOJ summary behind
//! `shaderport inspect`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use pica::shbin::{Constant, Dvle, Dvoj, GeometryMode, Output, OutputKind, ShaderType, Shbin, Uniform, UniformReg};
use serde_json::{json, Value};

#[derive(Args)]
pub struct DisasmArgs {
    /// The SHBIN file to print (a DVOJ object prints as the SHBIN it would make).
    file: PathBuf,
    /// Write the source here instead of to stdout.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
    /// Fail (exit status 1) instead of warning when the text would not assemble back to the same
    /// bytes.
    #[arg(long)]
    strict: bool,
    /// Print raw registers (`c4`) in the code instead of the declared uniform, input and
    /// constant names (`projection[0]`).
    #[arg(long)]
    raw: bool,
}

pub fn run(args: DisasmArgs) -> anyhow::Result<ExitCode> {
    let name = args.file.display().to_string();
    let bytes = std::fs::read(&args.file).with_context(|| format!("{name}: cannot read"))?;
    let options = pica::disasm::Options { raw_registers: args.raw };
    let d = if pica::shbin::is_dvoj(&bytes) {
        let dvoj = Dvoj::read(&bytes).with_context(|| name.clone())?;
        pica::disasm::disassemble_dvoj(&dvoj, &options)
    } else {
        if let Some(message) = crate::translate::not_a_shbin(&args.file, &bytes, false) {
            anyhow::bail!("{name}: {message}");
        }
        let shbin = Shbin::read(&bytes).with_context(|| name.clone())?;
        pica::disasm::disassemble_with(&shbin, &options)
    };
    if args.strict {
        if let Some(first) = d.warnings.first() {
            anyhow::bail!(
                "{name}: {first} ({} problem(s) in all; the text would not assemble back to the same bytes)",
                d.warnings.len()
            );
        }
    }
    for w in &d.warnings {
        eprintln!("warning: {name}: {w}");
    }
    match &args.out {
        Some(path) => std::fs::write(path, &d.text).with_context(|| format!("{}: cannot write", path.display()))?,
        None => crate::output::emit(&d.text)?,
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

/// Longest name the summary prints, in bytes.
const MAX_NAME: usize = 256;

/// The names at `offsets` in a symbol table, found with one pass over the table (a hostile
/// table with many uniforms and no NUL would otherwise cost a scan per uniform).
fn symbols(table: &[u8], offsets: impl Iterator<Item = u32>) -> Vec<Option<String>> {
    let nuls: Vec<usize> = table.iter().enumerate().filter(|(_, &b)| b == 0).map(|(i, _)| i).collect();
    offsets
        .map(|o| {
            let start = o as usize;
            if start > table.len() {
                return None;
            }
            let end = match nuls.binary_search(&start) {
                Ok(i) => nuls[i],
                Err(i) => nuls.get(i).copied().unwrap_or(table.len()),
            };
            // Names are short; a hostile table could make every entry a megabyte long.
            let end = end.min(start + MAX_NAME);
            Some(String::from_utf8_lossy(&table[start..end]).into_owned())
        })
        .collect()
}

fn uniforms(list: &[Uniform], table: &[u8]) -> Value {
    let names = symbols(table, list.iter().map(|u| u.symbol));
    list.iter()
        .zip(names)
        .map(|(u, name)| {
            let (first, last) = (UniformReg::from_raw(u.start), UniformReg::from_raw(u.end));
            let kind = match first {
                UniformReg::Input(_) => "input",
                UniformReg::Float(_) => "float",
                UniformReg::Int(_) => "int",
                UniformReg::Bool(_) => "bool",
                UniformReg::Other(_) => "other",
            };
            json!({
                "name": name,
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
        "labels": d.labels.iter().zip(symbols(&d.symbols, d.labels.iter().map(|l| l.symbol)))
            .map(|(l, name)| json!({ "name": name, "offset": l.offset, "size": l.size }))
            .collect::<Value>(),
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
        // 3dbrew "SHBIN" "DVOJ": the entry point is always the first instruction.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn golden(name: &str) -> Vec<u8> {
        std::fs::read(testkit::corpus("pica/golden").join(name)).expect("golden file")
    }

    #[test]
    fn inspect_summarises_a_shbin() {
        let bytes = golden("3ds-examples__graphics__gpu__particles__source__particle.g.pica.shbin");
        let v = inspect(Path::new("p.shbin"), &bytes).expect("a SHBIN").expect("reads");
        assert_eq!(v["format"], "SHBIN");
        assert_eq!(v["instructions"], 111);
        assert_eq!(v["operand_descriptors"], 26);
        assert_eq!(v["picasso_reproducible"], true);
        let d = &v["dvles"][0];
        assert_eq!(d["type"], "geometry");
        assert_eq!(d["entry"]["main"], 0);
        assert_eq!(d["entry"]["endmain"], 111);
        assert_eq!(d["geometry"]["mode"], "fixed");
        assert_eq!(d["geometry"]["fixed_vertices"], 4);
        assert_eq!(d["outputs"][2], json!({ "register": "o2", "type": "texcoord0", "mask": "xyzw" }));
        assert_eq!(
            d["uniforms"][3],
            json!({ "name": "uvCoords", "kind": "float", "first": "c27", "last": "c28", "count": 2 })
        );
        assert_eq!(d["uniforms"][4]["first"], "b0");
        assert_eq!(d["constants"][0]["register"], "c95");
        assert_eq!(d["constants"][0]["value"], json!([0.0, 1.0, 3.0, 0.5]));
    }

    #[test]
    fn inspect_summarises_a_dvoj() {
        // A DVOJ header (0x58 bytes) with one instruction (`end`) and nothing else.
        let mut bytes = b"DVOJ".to_vec();
        bytes.extend_from_slice(&[0, 0, 1, 0]); // version, geometry shader, merge
        bytes.extend_from_slice(&[3, 0, 1, 0]); // input mask, output mask
        bytes.extend_from_slice(&[0xFF; 4]);
        let code_at = 0x58u32;
        for (offset, count) in [(0, 0), (0, 0), (code_at, 1), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)] {
            bytes.extend_from_slice(&u32::to_le_bytes(offset));
            bytes.extend_from_slice(&u32::to_le_bytes(count));
        }
        assert_eq!(bytes.len(), 0x58);
        bytes.extend_from_slice(&0x8800_0000u32.to_le_bytes());
        let v = inspect(Path::new("o.dvoj"), &bytes).expect("a DVOJ").expect("reads");
        assert_eq!(v["format"], "DVOJ");
        assert_eq!(v["type"], "geometry");
        assert_eq!(v["instructions"], 1);
        assert_eq!(v["input_mask"], "0x0003");
    }

    #[test]
    fn inspect_reports_bad_files_and_ignores_others() {
        let err = inspect(Path::new("x"), b"DVLB\xff\xff\xff\xff").expect("a SHBIN").unwrap_err();
        assert!(err.to_string().contains("byte offset 0x8"), "{err}");
        assert!(inspect(Path::new("x"), b"Gfx2").is_none());
    }
}

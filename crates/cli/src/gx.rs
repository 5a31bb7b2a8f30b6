//! `shaderport gx ...`: BRRES material inspection, BP display-list printing and the TEV reference.
//!
//! Formats are described in docs/gx-cli.md.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use gx::brres::{self, Brres, Material, Model};
use gx::fields::RegisterLayout;
use gx::regs::{self, AlphaCombiner, ColorCombiner, TevStageIndirect};
use gx::{BpRegs, Evaluator, PixelInputs, TevState};
use serde::Deserialize;
use serde_json::{json, Map, Value};

#[derive(Args)]
pub struct GxArgs {
    #[command(subcommand)]
    command: GxCommand,
}

#[derive(Subcommand)]
enum GxCommand {
    /// JSON summary of a BRRES file: models, materials, shaders and every TEV stage by name.
    Inspect {
        /// The .brres file.
        file: PathBuf,
    },
    /// Evaluate a TEV state on per-pixel inputs given in a JSON file (see docs/gx-cli.md).
    Tev {
        /// The JSON job: a state (BP writes, a display list or a BRRES material) and pixels.
        file: PathBuf,
    },
    /// Print the BP registers a display list (hex text, or raw bytes with --binary) leaves, every field named.
    Bp {
        /// The display list file.
        file: PathBuf,
        /// Read the file as raw bytes instead of hex text.
        #[arg(long)]
        binary: bool,
    },
    /// Draw every material (or those named) through its translated shader on the Vulkan device:
    /// one PNG per material and a contact sheet, each pixel checked against the CPU reference.
    Preview {
        /// The .brres file.
        file: PathBuf,
        /// Output folder.
        #[arg(short, long)]
        output: PathBuf,
        /// The material to draw (repeatable; default: every material).
        #[arg(long = "material", value_name = "NAME")]
        materials: Vec<String>,
    },
    /// Turn a register listing (as `gx bp` prints it) back into a display list of BP loads, in hex.
    Asm {
        /// The listing.
        file: PathBuf,
        /// Write raw bytes to this file instead of hex to stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

pub fn run(args: GxArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        GxCommand::Inspect { file } => {
            let bytes = read(&file)?;
            let summary = inspect_brres(&bytes).with_context(|| format!("{}", file.display()))?;
            crate::output::emit_json(&summary)?;
        }
        GxCommand::Tev { file } => {
            let bytes = read(&file)?;
            let text = job_text(&bytes).with_context(|| format!("{}", file.display()))?;
            let out = run_tev(&file, text).with_context(|| format!("{}", file.display()))?;
            crate::output::emit_json(&out)?;
        }
        GxCommand::Preview { file, output, materials } => {
            let bytes = read(&file)?;
            let b = crate::gx_shader::read(&file, &bytes)?;
            let picked = crate::gx_shader::select(&file, &b, &materials, materials.is_empty())?;
            for path in crate::gx_preview::run(&file, &picked, &output, b.models.len() > 1)? {
                println!("{}", path.display());
            }
        }
        GxCommand::Bp { file, binary } => {
            let bytes = read(&file)?;
            let list = if binary {
                bytes
            } else {
                parse_hex(&String::from_utf8_lossy(&bytes)).with_context(|| format!("{}", file.display()))?
            };
            let mut regs = BpRegs::new();
            gx::dl::apply(&mut regs, &list, 0).with_context(|| format!("{}: display list", file.display()))?;
            crate::output::emit(&regs.print())?;
        }
        GxCommand::Asm { file, output } => {
            let text = std::fs::read_to_string(&file).with_context(|| format!("{}: cannot read", file.display()))?;
            let writes = gx::listing::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let bytes: Vec<u8> = writes.iter().flat_map(|&(a, v)| gx::dl::bp_load(a, v)).collect();
            match output {
                Some(out) => {
                    std::fs::write(&out, &bytes).with_context(|| format!("{}: cannot write", out.display()))?
                }
                None => {
                    let lines: String = bytes
                        .chunks(5)
                        .map(|load| load.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ") + "\n")
                        .collect();
                    crate::output::emit(&lines)?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn read(file: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))
}

/// JSON summary of `bytes` if it is a BRRES file, for `shaderport inspect`.
pub fn inspect(_path: &std::path::Path, bytes: &[u8]) -> Option<anyhow::Result<serde_json::Value>> {
    bytes.starts_with(b"bres").then(|| inspect_brres(bytes))
}

fn inspect_brres(bytes: &[u8]) -> anyhow::Result<Value> {
    let b = brres::read(bytes)?;
    let models = b.models.iter().map(model_json).collect::<anyhow::Result<Vec<_>>>()?;
    Ok(json!({
        "format": "BRRES",
        "models": models,
        "textures": b.textures,
        "other_groups": b.other_groups,
    }))
}

fn model_json(m: &Model) -> anyhow::Result<Value> {
    let materials = m
        .materials
        .iter()
        .map(|mat| material_json(m, mat).with_context(|| format!("model {:?}, material {:?}", m.name, mat.name)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let shaders: Vec<Value> = m
        .shaders
        .iter()
        .map(|s| json!({"name": s.name, "index": s.index, "num_stages": s.num_stages, "tex_refs": s.tex_refs}))
        .collect();
    Ok(json!({"name": m.name, "version": m.version, "materials": materials, "shaders": shaders}))
}

/// Every field of a register: enumerated fields by value name, others by number.
fn fields(layout: &RegisterLayout, raw: u32) -> Value {
    let mut map = Map::new();
    for f in layout.describe(raw) {
        let v = match f.meaning {
            Some(m) => json!(m),
            None if layout.fields.iter().any(|x| x.name == f.name && x.width() == 1 && !x.signed) => {
                json!(f.value != 0)
            }
            None => json!(f.value),
        };
        map.insert(f.name.to_string(), v);
    }
    Value::Object(map)
}

fn name_of(table: &[&str], v: u8) -> Value {
    table.get(v as usize).map_or(json!(v), |s| json!(s))
}

/// The decoded state of a material: every stage by name, then the pixel-side registers.
pub fn state_json(st: &TevState) -> Value {
    let stages: Vec<Value> = (0..st.num_stages())
        .map(|i| {
            let s = st.stage(i);
            json!({
                "stage": i,
                "texmap": s.texmap,
                "texcoord": s.texcoord,
                "tex_enable": s.tex_enable,
                "colorchan": name_of(regs::COLOR_CHAN, s.colorchan),
                "kcsel": name_of(regs::KCSEL, s.kcsel),
                "kasel": name_of(regs::KASEL, s.kasel),
                "color": fields(&ColorCombiner::LAYOUT, s.color.encode()),
                "alpha": fields(&AlphaCombiner::LAYOUT, s.alpha.encode()),
                "indirect": fields(&TevStageIndirect::LAYOUT, s.ind.encode()),
            })
        })
        .collect();
    let ind_stages: Vec<Value> = (0..st.gen_mode.num_indstages.min(4) as usize)
        .map(|n| {
            let (texmap, texcoord) = st.ind_ref(n);
            let (ss, ts) = st.ind_scale(n);
            json!({"texmap": texmap, "texcoord": texcoord, "scale_s": ss, "scale_t": ts})
        })
        .collect();
    let ind_mtx: Vec<Value> = st
        .ind_mtx
        .iter()
        .map(|m| json!({"entries": m.entries(), "scale": m.scale(), "exponent": m.exponent()}))
        .collect();
    json!({
        "gen_mode": fields(&regs::GenMode::LAYOUT, st.gen_mode.encode()),
        "stages": stages,
        "indirect_stages": ind_stages,
        "ind_matrices": ind_mtx,
        "swap_tables": (0..4).map(|t| st.swap_table(t).iter().map(|&c| regs::CHANNEL[c as usize]).collect::<String>()).collect::<Vec<_>>(),
        "color_regs": {"prev": st.color_regs[0], "c0": st.color_regs[1], "c1": st.color_regs[2], "c2": st.color_regs[3]},
        "konst_regs": {"k0": st.konst_regs[0], "k1": st.konst_regs[1], "k2": st.konst_regs[2], "k3": st.konst_regs[3]},
        "alpha_test": fields(&regs::AlphaTest::LAYOUT, st.alpha_test.encode()),
        "z_mode": fields(&regs::ZMode::LAYOUT, st.z_mode.encode()),
        "blend_mode": fields(&regs::BlendMode::LAYOUT, st.blend_mode.encode()),
        "const_alpha": fields(&regs::ConstAlpha::LAYOUT, st.const_alpha.encode()),
    })
}

fn material_json(m: &Model, mat: &Material) -> anyhow::Result<Value> {
    let shader = m.shaders.get(mat.shader).context("shader index out of range")?;
    let regs = mat.registers(shader)?;
    let st = regs.state();
    Ok(json!({
        "name": mat.name,
        "index": mat.index,
        "translucent": mat.flags & 0x8000_0000 != 0,
        "num_texgens": mat.num_texgens,
        "num_chans": mat.num_chans,
        "num_tev_stages": mat.num_tev_stages,
        "num_ind_stages": mat.num_ind_stages,
        "cull_mode": mat.cull_mode,
        "shader": shader.name,
        "layers": mat.layers,
        "key": gx::key::TevKey::new(&st).to_bytes().iter().map(|b| format!("{b:02x}")).collect::<String>(),
        "key_hash": format!("{:016x}", gx::key::TevKey::new(&st).hash64()),
        "shader_hash": format!("{:016x}", crate::gx_shader::shader_hash(&st)?),
        "state": state_json(&st),
        "bp": regs.print().lines().collect::<Vec<_>>(),
    }))
}

/// Hex text to bytes: whitespace, commas and `0x` prefixes are ignored.
fn parse_hex(text: &str) -> anyhow::Result<Vec<u8>> {
    let mut digits = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '0' && matches!(chars.peek(), Some((_, 'x' | 'X'))) {
            chars.next();
            continue;
        }
        if c.is_whitespace() || c == ',' {
            continue;
        }
        let d = c.to_digit(16).with_context(|| format!("character {i}: {c:?} is not a hex digit"))?;
        digits.push(d as u8);
    }
    if digits.len() % 2 != 0 {
        bail!("odd number of hex digits ({})", digits.len());
    }
    Ok(digits.chunks(2).map(|p| (p[0] << 4) | p[1]).collect())
}

/// One pixel of a `gx tev` job; every member is optional and shorter lists are padded with zeros.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct PixelJson {
    tex: Vec<[u8; 4]>,
    ras: Vec<[u8; 4]>,
    ind_tex: Vec<[u8; 4]>,
    texcoords: Vec<[i32; 2]>,
    z: u32,
    pos: [u32; 2],
}

/// A BP write: a 32-bit register bag (number or hex string, address in the top byte).
#[derive(Deserialize)]
#[serde(untagged)]
enum BagJson {
    Number(u32),
    Text(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MaterialRef {
    /// BRRES path, relative to the job file.
    file: PathBuf,
    /// Model name (default: the first model).
    model: Option<String>,
    /// Material name.
    material: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TevJob {
    #[serde(default)]
    bp: Vec<BagJson>,
    display_list: Option<String>,
    brres: Option<MaterialRef>,
    #[serde(default)]
    pixels: Vec<PixelJson>,
    #[serde(default)]
    print_state: bool,
}

/// The text of a `gx tev` job file, or an error that says what the job is and what the file
/// looks like instead (a BRRES, another binary file).
fn job_text(bytes: &[u8]) -> anyhow::Result<&str> {
    const JOB: &str = "`gx tev` reads a JSON job: {\"bp\": [...] | \"display_list\": \"..\" | \"brres\": \
                       {\"file\", \"material\"}, \"pixels\": [...]} (docs/gx-cli.md)";
    if bytes.starts_with(b"bres") {
        bail!("this is a BRRES file, not a job; {JOB}. To see its materials run `shaderport gx inspect FILE`, then name one in a job's \"brres\" member");
    }
    std::str::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!("not a JSON job: byte {} is not UTF-8 text (a binary file?); {JOB}", e.valid_up_to())
    })
}

fn pixel_inputs(i: usize, p: PixelJson) -> anyhow::Result<PixelInputs> {
    fn fill<const N: usize, T: Copy + Default>(what: &str, i: usize, v: Vec<T>) -> anyhow::Result<[T; N]> {
        if v.len() > N {
            bail!("pixel {i}: {what} has {} entries, at most {N}", v.len());
        }
        let mut out = [T::default(); N];
        out[..v.len()].copy_from_slice(&v);
        Ok(out)
    }
    if p.tex.len() > 16 {
        bail!("pixel {i}: tex has {} entries, at most 16", p.tex.len());
    }
    Ok(PixelInputs {
        tex: p.tex,
        ras: fill("ras", i, p.ras)?,
        ind_tex: fill("ind_tex", i, p.ind_tex)?,
        texcoords: fill("texcoords", i, p.texcoords)?,
        z: p.z & gx::pixel::Z_MASK,
        pos: p.pos,
    })
}

fn job_regs(job_path: &Path, job: &TevJob) -> anyhow::Result<BpRegs> {
    if let Some(m) = &job.brres {
        let path = job_path.parent().unwrap_or(Path::new(".")).join(&m.file);
        let bytes = read(&path)?;
        let b: Brres = brres::read(&bytes).with_context(|| format!("{}", path.display()))?;
        let model = match &m.model {
            Some(name) => b
                .models
                .iter()
                .find(|x| &x.name == name)
                .with_context(|| format!("{}: no model {name:?}", path.display()))?,
            None => b.models.first().with_context(|| format!("{}: no models", path.display()))?,
        };
        let mat =
            model.materials.iter().find(|x| x.name == m.material).with_context(|| {
                format!("{}: model {:?} has no material {:?}", path.display(), model.name, m.material)
            })?;
        let shader = model.shaders.get(mat.shader).context("shader index out of range")?;
        let mut regs = mat.registers(shader)?;
        apply_extra(&mut regs, job)?;
        return Ok(regs);
    }
    let mut regs = BpRegs::new();
    apply_extra(&mut regs, job)?;
    Ok(regs)
}

/// Applies the job's display list, then its BP writes, on top of `regs`.
fn apply_extra(regs: &mut BpRegs, job: &TevJob) -> anyhow::Result<()> {
    if let Some(hex) = &job.display_list {
        let bytes = parse_hex(hex).context("display_list")?;
        gx::dl::apply(regs, &bytes, 0).context("display_list")?;
    }
    for (i, bag) in job.bp.iter().enumerate() {
        let v = match bag {
            BagJson::Number(n) => *n,
            BagJson::Text(s) => {
                let t = s.trim().trim_start_matches("0x").trim_start_matches("0X");
                u32::from_str_radix(t, 16).with_context(|| format!("bp[{i}]: {s:?} is not a 32-bit hex value"))?
            }
        };
        regs.write_bag(v);
    }
    Ok(())
}

fn run_tev(path: &Path, text: &str) -> anyhow::Result<Value> {
    let job: TevJob = serde_json::from_str(text).context("job JSON")?;
    let regs = job_regs(path, &job)?;
    let state = regs.state();
    let ev = Evaluator::new(&state);
    let n = state.num_stages();
    let mut outs = Vec::new();
    for (i, p) in job.pixels.into_iter().enumerate() {
        let out = ev.eval(&pixel_inputs(i, p)?);
        outs.push(json!({
            "color": out.color,
            "alpha": out.alpha,
            "alpha_pass": out.alpha_pass,
            "regs": {"prev": out.regs[0], "c0": out.regs[1], "c1": out.regs[2], "c2": out.regs[3]},
            "tevcoord": &out.indirect.tevcoord[..n],
            "bump_alpha": &out.indirect.bump_alpha[..n],
            "ind_coord": &out.indirect.ind_coord[..state.gen_mode.num_indstages.min(4) as usize],
            "z": out.post.z,
            "fog": out.post.ifog,
            "stored": out.post.rgba,
        }));
    }
    let mut result = json!({"num_stages": n, "pixels": outs});
    if job.print_state {
        result["state"] = state_json(&state);
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_parsing() {
        assert_eq!(parse_hex("61 c0 08 ff f0").unwrap(), vec![0x61, 0xC0, 0x08, 0xFF, 0xF0]);
        assert_eq!(parse_hex("0x61C0,0x08").unwrap(), vec![0x61, 0xC0, 0x08]);
        assert!(parse_hex("6").is_err());
        assert!(parse_hex("zz").unwrap_err().to_string().contains("character 0"));
    }

    #[test]
    fn tev_job_evaluates_a_one_stage_state() {
        // One stage: colour = TEXC (d), alpha = TEXA; alpha test: alpha > 100.
        let job = r#"{"bp": ["C008FFF8", "C108FFC0", "28000040", "F6000004", "F700000E", "F3440064"],
                      "pixels": [{"tex": [[1, 2, 3, 200]]}, {"tex": [[9, 8, 7, 50]]}]}"#;
        let out = run_tev(Path::new("job.json"), job).unwrap();
        assert_eq!(out["num_stages"], 1);
        assert_eq!(out["pixels"][0]["color"], json!([1, 2, 3]));
        assert_eq!(out["pixels"][0]["alpha"], 200);
        assert_eq!(out["pixels"][0]["alpha_pass"], true);
        assert_eq!(out["pixels"][1]["alpha"], 50);
        assert_eq!(out["pixels"][1]["alpha_pass"], false);
    }

    #[test]
    fn tev_job_errors_name_the_problem() {
        let e = run_tev(Path::new("j.json"), r#"{"bp": ["zz"]}"#).unwrap_err();
        assert!(format!("{e:#}").contains("bp[0]"), "{e:#}");
        let e = run_tev(Path::new("j.json"), "{\"pixels\": [{\"tex\": 5}]}").unwrap_err();
        assert!(format!("{e:#}").contains("line 1"), "{e:#}");
        let e = run_tev(Path::new("j.json"), r#"{"display_list": "61c0"}"#).unwrap_err();
        assert!(format!("{e:#}").contains("byte offset 0x1: unexpected end of data reading BP load"), "{e:#}");
    }

    #[test]
    fn inspect_names_every_stage_of_the_sample() {
        let bytes = brres::write(&brres::sample::sample_brres()).unwrap();
        let v = inspect(Path::new("sample.brres"), &bytes).expect("recognised").unwrap();
        let mats = &v["models"][0]["materials"];
        assert_eq!(mats[0]["name"], "lit_texture");
        let st = &mats[0]["state"]["stages"][0];
        assert_eq!(st["color"]["a"], "ZERO");
        assert_eq!(st["color"]["b"], "TEXC");
        assert_eq!(st["color"]["c"], "RASC");
        assert_eq!(st["alpha"]["b"], "TEXA");
        assert_eq!(st["colorchan"], "COLOR0");
        assert_eq!(mats[1]["state"]["stages"][1]["color"]["bias"], "COMPARE");
        assert_eq!(mats[1]["state"]["stages"][0]["kcsel"], "K0");
        assert_eq!(mats[1]["state"]["swap_tables"], json!(["RGBA", "RRRA", "GGGA", "BBBA"]));
        assert_eq!(mats[2]["state"]["stages"][0]["indirect"]["mtx_index"], "MTX0");
        assert_eq!(mats[2]["layers"][1]["texture"], "bumpmap");
        assert!(mats[0]["bp"].as_array().unwrap().iter().any(|l| l.as_str().unwrap().starts_with("0xF3 alpha_test")));
        assert!(inspect(Path::new("x"), b"nope").is_none());
        let e = inspect(Path::new("x"), b"bres\xff\xfe").unwrap().unwrap_err();
        assert!(format!("{e:#}").contains("byte offset 0x4"), "{e:#}");
    }

    #[test]
    fn tev_on_a_brres_names_the_job_and_gx_inspect() {
        let e = job_text(b"bres\xFE\xFF\x00\x00").unwrap_err().to_string();
        assert!(e.contains("BRRES") && e.contains("JSON job") && e.contains("gx inspect"), "{e}");
        let e = job_text(b"{\xFF}").unwrap_err().to_string();
        assert!(e.contains("byte 1") && e.contains("JSON job"), "{e}");
        assert_eq!(job_text(b"{}").unwrap(), "{}");
    }

    #[test]
    fn tev_job_on_a_brres_material() {
        let dir = std::env::temp_dir().join(format!("shaderport-gx-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("sample.brres"), brres::write(&brres::sample::sample_brres()).unwrap()).unwrap();
        let job = r#"{"brres": {"file": "sample.brres", "material": "lit_texture"},
                      "pixels": [{"tex": [[200, 100, 50, 255]], "ras": [[255, 128, 0, 127]]}]}"#;
        let out = run_tev(&dir.join("job.json"), job).unwrap();
        // TEXC * RASC: 200*256/256, (100*129 + 128) >> 8 = 50, 0; alpha 255*127 -> 127; ref 128 GEQUAL fails.
        assert_eq!(out["pixels"][0]["color"], json!([200, 50, 0]));
        assert_eq!(out["pixels"][0]["alpha"], 127);
        assert_eq!(out["pixels"][0]["alpha_pass"], false);
        let e =
            run_tev(&dir.join("job.json"), r#"{"brres": {"file": "sample.brres", "material": "nope"}}"#).unwrap_err();
        assert!(format!("{e:#}").contains("no material \"nope\""), "{e:#}");
        std::fs::remove_dir_all(&dir).ok();
    }
}

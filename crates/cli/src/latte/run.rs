//! `shaderport latte run`: the input JSON (uniform blocks, the constant file, buffers, initial
//! registers, textures, invocations) into the reference interpreter, and its exports as JSON
//! (docs/latte-interp.md).

use std::path::Path;

use anyhow::{bail, Context};
use latte::gfd::{GfdFile, Stage};
use latte::isa::Program;
use serde_json::{json, Value};

use super::RunStage;

/// One lane value of the input JSON: an integer is a bit pattern (negative: two's complement),
/// a number with a fraction or exponent a float, a string `0x...` hex bits or `inf`/`-inf`/`nan`.
fn lane_value(v: &Value, what: &str) -> anyhow::Result<u32> {
    if let Some(u) = v.as_u64() {
        return u32::try_from(u).with_context(|| format!("{what}: {u} does not fit 32 bits"));
    }
    if let Some(i) = v.as_i64() {
        return i32::try_from(i).map(|i| i as u32).with_context(|| format!("{what}: {i} does not fit 32 bits"));
    }
    if let Some(f) = v.as_f64() {
        return Ok((f as f32).to_bits());
    }
    match v.as_str() {
        Some("inf") => Ok(f32::INFINITY.to_bits()),
        Some("-inf") => Ok(f32::NEG_INFINITY.to_bits()),
        Some("nan") => Ok(f32::NAN.to_bits()),
        Some(h) if h.starts_with("0x") || h.starts_with("0X") => {
            u32::from_str_radix(&h[2..], 16).with_context(|| format!("{what}: bad hex '{h}'"))
        }
        _ => bail!("{what}: expected a number, a 0x hex string, \"inf\", \"-inf\" or \"nan\", found {v}"),
    }
}

fn lane_values(v: &Value, what: &str) -> anyhow::Result<Vec<u32>> {
    let a = v.as_array().with_context(|| format!("{what}: expected an array"))?;
    a.iter().enumerate().map(|(i, x)| lane_value(x, &format!("{what}[{i}]"))).collect()
}

fn vec4(v: &Value, what: &str) -> anyhow::Result<[u32; 4]> {
    let w = lane_values(v, what)?;
    <[u32; 4]>::try_from(w.as_slice()).map_err(|_| anyhow::anyhow!("{what}: expected 4 values"))
}

fn index_key(k: &str, what: &str) -> anyhow::Result<u8> {
    let t = k.trim_start_matches(['R', 'r', 'c', 'C']);
    let n = if let Some(h) = t.strip_prefix("0x") { u32::from_str_radix(h, 16) } else { t.parse() };
    n.ok().and_then(|n| u8::try_from(n).ok()).with_context(|| format!("{what}: bad key '{k}'"))
}

fn interp_inputs(v: &Value) -> anyhow::Result<(latte::interp::Inputs, Vec<latte::interp::Invocation>)> {
    use latte::interp::{Buffer, Inputs, Invocation};
    let mut inputs = Inputs::default();
    let obj = |key: &str| v.get(key).map(|x| x.as_object().with_context(|| format!("{key}: expected an object")));
    if let Some(o) = obj("uniform_blocks") {
        for (k, words) in o? {
            inputs
                .uniform_blocks
                .insert(index_key(k, "uniform_blocks")?, lane_values(words, &format!("uniform_blocks.{k}"))?);
        }
    }
    if let Some(c) = v.get("constants") {
        let a = c.as_array().context("constants: expected an array of 4-value arrays")?;
        inputs.cfile =
            a.iter().enumerate().map(|(i, x)| vec4(x, &format!("constants[{i}]"))).collect::<anyhow::Result<_>>()?;
    }
    if let Some(o) = obj("buffers") {
        for (k, b) in o? {
            let what = format!("buffers.{k}");
            let stride = b.get("stride").and_then(Value::as_u64).with_context(|| format!("{what}: needs a stride"))?;
            let data = match (b.get("words"), b.get("bytes")) {
                (Some(w), _) => lane_values(w, &what)?.iter().flat_map(|w| w.to_le_bytes()).collect(),
                (None, Some(bytes)) => lane_values(bytes, &what)?.iter().map(|&x| x as u8).collect(),
                (None, None) => bail!("{what}: needs words or bytes"),
            };
            inputs.buffers.insert(index_key(k, "buffers")?, Buffer { data, stride: stride as u32, format: None });
        }
    }
    if let Some(o) = obj("loop_consts") {
        for (k, c) in o? {
            inputs.loop_consts.insert(index_key(k, "loop_consts")?, lane_value(c, &format!("loop_consts.{k}"))?);
        }
    }
    if let Some(o) = obj("textures") {
        let mut units = latte::interp::CpuTextures::default();
        for (k, t) in o? {
            let what = format!("textures.{k}");
            let dim = |d: &str| t.get(d).and_then(Value::as_u64).and_then(|x| u32::try_from(x).ok());
            let (Some(width), Some(height)) = (dim("width"), dim("height")) else {
                bail!("{what}: needs width and height")
            };
            let texels = t.get("texels").and_then(Value::as_array).with_context(|| format!("{what}: needs texels"))?;
            let texels = texels
                .iter()
                .enumerate()
                .map(|(i, x)| vec4(x, &format!("{what}.texels[{i}]")).map(|v| v.map(f32::from_bits)))
                .collect::<anyhow::Result<Vec<_>>>()?;
            units.units.insert(index_key(k, "textures")?, latte::interp::Texture2d { width, height, texels });
        }
        if let Some(o) = obj("samplers") {
            for (k, sm) in o? {
                let what = format!("samplers.{k}");
                let linear = sm.get("linear").and_then(Value::as_bool).unwrap_or(false);
                let mut wrap = [latte::interp::Wrap::Repeat; 2];
                if let Some(w) = sm.get("wrap") {
                    let a = w
                        .as_array()
                        .filter(|a| a.len() == 2)
                        .with_context(|| format!("{what}.wrap: expected 2 names"))?;
                    for (i, n) in a.iter().enumerate() {
                        wrap[i] = match n.as_str() {
                            Some("repeat") => latte::interp::Wrap::Repeat,
                            Some("mirror") => latte::interp::Wrap::Mirror,
                            Some("clamp") => latte::interp::Wrap::Clamp,
                            _ => bail!("{what}.wrap: expected repeat, mirror or clamp, found {n}"),
                        };
                    }
                }
                units.samplers.insert(index_key(k, "samplers")?, latte::interp::Sampler { linear, wrap });
            }
        }
        inputs.textures = Some(std::sync::Arc::new(units));
    }
    if let Some(b) = v.get("bool_consts") {
        inputs.bool_consts = lane_value(b, "bool_consts")?;
    }
    let mut invs = Vec::new();
    for (i, e) in v.get("invocations").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]).iter().enumerate() {
        let mut inv = Invocation::default();
        if let Some(g) = e.get("gprs") {
            for (k, val) in g.as_object().with_context(|| format!("invocations[{i}].gprs: expected an object"))? {
                inv.gprs.push((index_key(k, "gprs")?, vec4(val, &format!("invocations[{i}].gprs.{k}"))?));
            }
        }
        inv.invalid = e.get("invalid").and_then(Value::as_bool).unwrap_or(false);
        invs.push(inv);
    }
    if invs.is_empty() {
        invs.push(Invocation::default());
    }
    Ok((inputs, invs))
}

/// A lane value in the output: a float (inf/nan as strings), or hex with `--hex`.
fn out_value(w: u32, hex: bool) -> Value {
    if hex {
        return json!(format!("0x{w:08X}"));
    }
    let f = f32::from_bits(w);
    if f.is_nan() {
        json!("nan")
    } else if f.is_infinite() {
        json!(if f > 0.0 { "inf" } else { "-inf" })
    } else {
        json!(f)
    }
}

pub(super) fn run_program(file: &Path, stage: RunStage, input: Option<&Path>, hex: bool) -> anyhow::Result<Value> {
    use latte::interp::{Config, Vm};
    let bytes = std::fs::read(file).with_context(|| format!("{}: cannot read", file.display()))?;
    let want = match stage {
        RunStage::Vs => Stage::Vertex,
        RunStage::Ps => Stage::Pixel,
        RunStage::Gs => Stage::Geometry,
    };
    // A file with the GFD magic is a GFD, and its parse errors are reported; anything else is
    // raw program words (as `latte disasm --raw` takes them).
    let mut copy_program = None;
    let program = match latte::gfd::is_gfd(&bytes).then(|| GfdFile::parse(&bytes)) {
        Some(gfd) => {
            let gfd = gfd.with_context(|| format!("{}: GFD", file.display()))?;
            let shaders = gfd.shaders().with_context(|| file.display().to_string())?;
            let s = shaders.into_iter().find(|s| s.header.stage == want).with_context(|| {
                let name = match want {
                    Stage::Vertex => "vertex",
                    Stage::Pixel => "pixel",
                    Stage::Geometry => "geometry",
                };
                format!("{}: no {name} shader", file.display())
            })?;
            copy_program = s.copy_program;
            s.program.with_context(|| format!("{}: the shader has no program block", file.display()))?
        }
        None => bytes,
    };
    let p = Program::decode_bytes(&program, 0).with_context(|| file.display().to_string())?;
    let (inputs, invs) = match input {
        Some(f) => {
            let text = std::fs::read_to_string(f).with_context(|| format!("{}: cannot read", f.display()))?;
            let v: Value = serde_json::from_str(&text).with_context(|| format!("{}: not JSON", f.display()))?;
            interp_inputs(&v).with_context(|| f.display().to_string())?
        }
        None => interp_inputs(&json!({}))?,
    };
    let istage = match stage {
        RunStage::Vs => latte::interp::Stage::Vertex,
        RunStage::Ps => latte::interp::Stage::Pixel,
        RunStage::Gs => latte::interp::Stage::Geometry,
    };
    // A geometry shader of a GFD runs with its copy program per emitted vertex.
    let copy = match &copy_program {
        Some(c) if want == Stage::Geometry => {
            Some(Program::decode_bytes(c, 0).with_context(|| format!("{}: geometry copy program", file.display()))?)
        }
        _ => None,
    };
    let (results, geometry) = match &copy {
        Some(c) => {
            let out = latte::interp::run_geometry(&Vm::new(&p), &Vm::new(c), &inputs, &Config::default(), &invs)
                .with_context(|| file.display().to_string())?;
            let results = out.iter().map(|o| o.gs.clone()).collect();
            (results, Some(out))
        }
        None => (
            Vm::new(&p).run(istage, &inputs, &Config::default(), &invs).with_context(|| file.display().to_string())?,
            None,
        ),
    };
    let exports_of = |r: &latte::interp::InvocationResult| {
        let mut exports = serde_json::Map::new();
        for e in &r.exports {
            exports.insert(e.name(), Value::Array(e.value.iter().map(|&w| out_value(w, hex)).collect()));
        }
        exports
    };
    let list: Vec<Value> = results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut o = json!({ "exports": exports_of(r), "killed": r.killed });
            if let Some(g) = geometry.as_ref().and_then(|g| g.get(i)) {
                o["vertices"] = g.vertices.iter().map(|v| json!({ "exports": exports_of(v) })).collect();
                o["strips"] = json!(g.strips);
            }
            if !r.mem_writes.is_empty() {
                o["mem_writes"] = r
                    .mem_writes
                    .iter()
                    .map(|m| json!({ "op": m.op, "addr": m.addr, "comp_mask": m.comp_mask, "value": m.value.iter().map(|&w| out_value(w, hex)).collect::<Vec<_>>() }))
                    .collect();
            }
            if !r.gs_events.is_empty() {
                o["gs_events"] = r
                    .gs_events
                    .iter()
                    .map(|(e, n)| {
                        let name = match e {
                            latte::interp::GsEvent::Emit => "emit",
                            latte::interp::GsEvent::Cut => "cut",
                            latte::interp::GsEvent::EmitCut => "emit_cut",
                        };
                        json!({ "event": name, "after_writes": n })
                    })
                    .collect();
            }
            o
        })
        .collect();
    Ok(json!({ "invocations": list }))
}

//! `shaderport pica cmdlist FILE [--json] [--state]`: a raw PICA200 GPU command list (little-endian
//! words, as the GPU reads them) printed one register write per line with the register's name and
//! decoded fields; with `--state`, the state the list builds and the draws it makes instead
//! (docs/pica-cmdlist.md "Command line"). With `--trace` the file is a CiTrace, replayed
//! (super::trace, docs/pica-citrace.md).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use pica::regs::cmdlist::{words_of, Reader};
use pica::regs::table;
use pica::state::{Draw, DrawKind, GpuState, Vec4, VertexConfig};
use serde_json::{json, Value};

#[derive(Args)]
pub struct CmdlistArgs {
    /// The command list (raw little-endian words).
    file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Print the final GPU state and the draws instead of the writes.
    #[arg(long)]
    state: bool,
    /// The file is a CiTrace (Citra's GPU trace): replay it and list its writes, loads and
    /// frames.
    #[arg(long)]
    pub(super) trace: bool,
}

/// One write of the listing.
pub(super) struct Line {
    pub(super) offset: usize,
    pub(super) id: u16,
    pub(super) mask: u8,
    pub(super) value: u32,
}

pub fn run(args: CmdlistArgs) -> anyhow::Result<ExitCode> {
    let name = args.file.display().to_string();
    let bytes = std::fs::read(&args.file).with_context(|| format!("{name}: cannot read"))?;
    if args.trace {
        return super::trace::run(&name, &bytes, args.json, args.state);
    }
    let hint = || {
        if pica::state::citrace::is_citrace(&bytes) {
            format!("{name} (it starts with the CiTrace magic; add --trace)")
        } else {
            name.clone()
        }
    };
    if pica::state::citrace::is_citrace(&bytes) {
        eprintln!("note: {name} starts with the CiTrace magic; --trace reads it as a trace");
    }
    let words = words_of(&bytes).with_context(hint)?;
    let mut lines = Vec::new();
    for located in Reader::new(&words) {
        let located = located.with_context(hint)?;
        for w in located.command.writes() {
            lines.push(Line { offset: located.offset, id: w.id, mask: w.mask, value: w.value });
        }
    }
    if args.state {
        let mut state = GpuState::new();
        state.apply_words(&words).with_context(hint)?;
        if args.json {
            crate::output::emit_json(&state_json(&state))?;
        } else {
            crate::output::emit(&state_text(&state))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.json {
        let writes: Vec<Value> = lines.iter().map(write_json).collect();
        crate::output::emit_json(&json!({ "file": name, "writes": writes }))?;
    } else {
        let mut out = String::new();
        for l in &lines {
            out.push_str(&write_text(l));
            out.push('\n');
        }
        crate::output::emit(&out)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One line of the listing (without its newline): offset, register, mask when partial, value,
/// fields.
pub(super) fn write_text(l: &Line) -> String {
    let mut out = format!("{:06x}: {}", l.offset, register_label(l.id));
    if l.mask != 0xF {
        let _ = write!(out, " mask=0x{:x}", l.mask);
    }
    let _ = write!(out, " = 0x{:08x}  {}", l.value, table::layout(l.id).format(l.value));
    out
}

pub(super) fn register_label(id: u16) -> String {
    format!("{} (0x{id:03x})", table::name(id))
}

fn fields_json(id: u16, value: u32) -> Value {
    let layout = table::layout(id);
    let mut v = serde_json::to_value(layout.describe(value)).unwrap_or(Value::Null);
    let unknown = value & !layout.known_mask();
    if unknown != 0 {
        if let Value::Array(a) = &mut v {
            a.push(json!({ "name": "unknown", "raw": unknown }));
        }
    }
    v
}

pub(super) fn write_json(l: &Line) -> Value {
    let r = table::lookup(l.id);
    json!({
        "offset": l.offset,
        "id": l.id,
        "name": table::name(l.id),
        "alias_of": r.as_ref().and_then(|r| r.alias_of),
        "mask": l.mask,
        "value": l.value,
        "fields": fields_json(l.id, l.value),
    })
}

fn vec4_json(v: &Vec4) -> Value {
    json!(v.map(|c| {
        let f = c.to_f32();
        if f.is_finite() {
            json!(f)
        } else {
            json!(f.to_string())
        }
    }))
}

fn vec4_text(v: &Vec4) -> String {
    let c: Vec<String> = v.iter().map(|c| c.to_f32().to_string()).collect();
    format!("({})", c.join(", "))
}

/// Words up to the last non-zero one.
fn used(words: &[u32]) -> &[u32] {
    let end = words.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
    &words[..end]
}

const LIGHTING_LUT_NAMES: [&str; 24] = [
    "D0", "D1", "2", "FR", "RB", "RG", "RR", "7", "SP0", "SP1", "SP2", "SP3", "SP4", "SP5", "SP6", "SP7", "DA0", "DA1",
    "DA2", "DA3", "DA4", "DA5", "DA6", "DA7",
];

fn kind_name(k: DrawKind) -> &'static str {
    match k {
        DrawKind::Arrays => "arrays",
        DrawKind::Elements => "elements",
        DrawKind::Immediate => "immediate",
    }
}

const PRIMITIVES: [&str; 4] = ["triangles", "triangle_strip", "triangle_fan", "geometry_primitive"];

fn draw_json(i: usize, d: &Draw) -> Value {
    let mut v = json!({
        "index": i,
        "kind": kind_name(d.kind),
        "offset": d.offset,
        "vertex_count": d.vertex_count,
        "primitive": PRIMITIVES[d.primitive as usize & 3],
        "vertex_input": vertex_json(&d.vertex_config()),
    });
    match d.kind {
        DrawKind::Arrays => v["vertex_offset"] = json!(d.vertex_offset),
        DrawKind::Elements => {
            v["index_offset"] = json!(d.index_offset);
            v["index_type"] = json!(if d.index_u16 { "u16" } else { "u8" });
        }
        DrawKind::Immediate => {
            v["vertices"] =
                json!(d.vertices.iter().map(|a| a.iter().map(vec4_json).collect::<Vec<_>>()).collect::<Vec<_>>());
        }
    }
    v
}

fn vertex_json(c: &VertexConfig) -> Value {
    let count = (c.attribute_count as usize).min(12);
    let attributes: Vec<Value> = c.attributes[..count]
        .iter()
        .map(|a| {
            if a.fixed {
                json!({ "fixed": true })
            } else {
                json!({ "type": a.kind.name().unwrap_or("?"), "components": a.components() })
            }
        })
        .collect();
    let buffers: Vec<Value> = c
        .buffers
        .iter()
        .filter(|b| !b.components.is_empty())
        .map(|b| {
            json!({
                "offset": b.offset,
                "stride": b.stride,
                "components": b.components.iter().map(|c| c.name().unwrap_or("?")).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "base_address": c.base_address, "attributes": attributes, "buffers": buffers })
}

fn draw_text(i: usize, d: &Draw) -> String {
    let prim = PRIMITIVES[d.primitive as usize & 3];
    match d.kind {
        DrawKind::Arrays => format!(
            "draw {i}: arrays at 0x{:06x}, {} vertices from {}, {prim}",
            d.offset, d.vertex_count, d.vertex_offset
        ),
        DrawKind::Elements => format!(
            "draw {i}: elements at 0x{:06x}, {} {} indices at offset 0x{:x}, {prim}",
            d.offset,
            d.vertex_count,
            if d.index_u16 { "u16" } else { "u8" },
            d.index_offset
        ),
        DrawKind::Immediate => {
            format!("draw {i}: immediate at 0x{:06x}, {} vertices, {prim}", d.offset, d.vertex_count)
        }
    }
}

fn unit_json(s: &GpuState, vertex: bool) -> Value {
    let u = if vertex { &s.memories.vs } else { &s.memories.gs };
    let uniforms: serde_json::Map<String, Value> = u
        .float_uniforms
        .iter()
        .enumerate()
        .filter(|(_, v)| v.iter().any(|c| c.bits() != 0))
        .map(|(i, v)| (format!("c{i}"), vec4_json(v)))
        .collect();
    json!({
        "code": used(&u.code),
        "opdescs": used(&u.opdescs),
        "float_uniforms": uniforms,
        "int_uniforms": s.int_uniforms(vertex),
        "bool_uniforms": s.bool_uniforms(vertex),
    })
}

pub(super) fn state_json(s: &GpuState) -> Value {
    let registers: Vec<Value> = (0..table::REGISTER_COUNT as u16)
        .filter(|&id| s.reg(id) != 0)
        .map(
            |id| json!({ "id": id, "name": table::name(id), "value": s.reg(id), "fields": fields_json(id, s.reg(id)) }),
        )
        .collect();
    let lighting: serde_json::Map<String, Value> = s
        .memories
        .lighting
        .iter()
        .enumerate()
        .filter(|(_, t)| t.iter().any(|&e| e != 0))
        .map(|(i, t)| (LIGHTING_LUT_NAMES[i].to_string(), json!(t.to_vec())))
        .collect();
    let p = &s.memories.proctex;
    let defaults: serde_json::Map<String, Value> = s
        .memories
        .default_attributes
        .iter()
        .enumerate()
        .filter(|(_, v)| v.iter().any(|c| c.bits() != 0))
        .map(|(i, v)| (format!("v{i}"), vec4_json(v)))
        .collect();
    json!({
        "writes": s.writes,
        "registers": registers,
        "vertex_shader": unit_json(s, true),
        "geometry_shader": unit_json(s, false),
        "lighting_luts": lighting,
        "fog_lut": used(&s.memories.fog[..]),
        "proctex_luts": {
            "noise": used(&p.noise), "rgb_map": used(&p.rgb_map), "alpha_map": used(&p.alpha_map),
            "color": used(&p.color), "color_diff": used(&p.color_diff),
        },
        "gas_lut": used(&s.memories.gas),
        "default_attributes": defaults,
        "draws": s.draws.iter().enumerate().map(|(i, d)| draw_json(i, d)).collect::<Vec<_>>(),
        "finalized_at": s.finalized_at,
        "warnings": s.warnings.iter().map(|w| json!({ "offset": w.offset, "message": w.message })).collect::<Vec<_>>(),
        "warning_count": s.warning_count,
    })
}

pub(super) fn state_text(s: &GpuState) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} register writes", s.writes);
    let _ = writeln!(out, "registers:");
    for id in 0..table::REGISTER_COUNT as u16 {
        let v = s.reg(id);
        if v != 0 {
            let _ = writeln!(out, "  {} = 0x{v:08x}  {}", register_label(id), table::layout(id).format(v));
        }
    }
    for (vertex, label) in [(true, "vertex shader"), (false, "geometry shader")] {
        let u = if vertex { &s.memories.vs } else { &s.memories.gs };
        let _ = writeln!(
            out,
            "{label}: {} code words, {} operand descriptors, bools 0x{:04x}",
            used(&u.code).len(),
            used(&u.opdescs).len(),
            s.bool_uniforms(vertex)
        );
        for (i, v) in u.float_uniforms.iter().enumerate() {
            if v.iter().any(|c| c.bits() != 0) {
                let _ = writeln!(out, "  c{i} = {}", vec4_text(v));
            }
        }
        for (i, v) in s.int_uniforms(vertex).iter().enumerate() {
            if v.iter().any(|&c| c != 0) {
                let _ = writeln!(out, "  i{i} = ({}, {}, {}, {})", v[0], v[1], v[2], v[3]);
            }
        }
    }
    for (i, t) in s.memories.lighting.iter().enumerate() {
        let n = used(t).len();
        if n != 0 {
            let _ = writeln!(out, "lighting LUT {}: {n} entries", LIGHTING_LUT_NAMES[i]);
        }
    }
    let fog = used(&s.memories.fog[..]).len();
    if fog != 0 {
        let _ = writeln!(out, "fog LUT: {fog} entries");
    }
    let p = &s.memories.proctex;
    for (name, t) in [
        ("noise", &p.noise[..]),
        ("rgb_map", &p.rgb_map),
        ("alpha_map", &p.alpha_map),
        ("color", &p.color),
        ("color_diff", &p.color_diff),
    ] {
        let n = used(t).len();
        if n != 0 {
            let _ = writeln!(out, "procedural texture LUT {name}: {n} entries");
        }
    }
    for (i, v) in s.memories.default_attributes.iter().enumerate() {
        if v.iter().any(|c| c.bits() != 0) {
            let _ = writeln!(out, "default attribute v{i} = {}", vec4_text(v));
        }
    }
    let _ = writeln!(out, "{} draws", s.draws.len());
    for (i, d) in s.draws.iter().enumerate() {
        let _ = writeln!(out, "  {}", draw_text(i, d));
    }
    for w in &s.warnings {
        let _ = writeln!(out, "warning: byte offset {}: {}", w.offset, w.message);
    }
    if s.warning_count > s.warnings.len() {
        let _ = writeln!(out, "warning: {} more", s.warning_count - s.warnings.len());
    }
    out
}

//! `shaderport pica cmdlist FILE --trace [--json] [--state]`: a CiTrace replayed through the
//! state tracker (docs/pica-citrace.md "Command line"). Register writes print as in a raw
//! command list; memory loads, command buffer runs, other register writes and frame ends get
//! lines of their own.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::Context;
use pica::state::citrace::{replay, Event, EventKind, Replay, ReplayLimits, Trace, WriteLayout, SECTIONS};
use serde_json::{json, Value};

use super::cmdlist::{state_json, state_text, write_json, write_text, Line};

fn layout_name(l: WriteLayout) -> &'static str {
    match l {
        WriteLayout::Sized => "sized",
        WriteLayout::Plain32 => "plain32",
    }
}

pub fn run(name: &str, bytes: &[u8], json: bool, state: bool) -> anyhow::Result<ExitCode> {
    let trace = Trace::read(bytes).with_context(|| name.to_string())?;
    let r = replay(&trace, ReplayLimits { record_events: !state, ..ReplayLimits::default() });
    let out = match (state, json) {
        (true, true) => {
            let mut v = state_json(&r.state);
            v["frames"] = frames_json(&r);
            v["trace"] = summary_json(&trace, &r);
            v["trace_warnings"] = warnings_json(&r);
            crate::output::emit_json(&v)?;
            return Ok(ExitCode::SUCCESS);
        }
        (true, false) => {
            let mut out = state_text(&r.state);
            let _ = writeln!(out, "{} frames", r.frames.len());
            for (i, f) in r.frames.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  frame {i}: {} draws{}{}",
                    f.draws.len(),
                    if f.draws.is_empty() {
                        String::new()
                    } else {
                        format!(" ({}-{})", f.draws.start, f.draws.end - 1)
                    },
                    if f.ended { "" } else { ", no end marker" }
                );
            }
            let _ = writeln!(
                out,
                "{} command lists run, {} memory loads, {} other register writes",
                r.command_lists,
                r.memory.len(),
                r.external_writes
            );
            out.push_str(&warnings_text(&r));
            out
        }
        (false, true) => {
            let events: Vec<Value> = r.events.iter().map(event_json).collect();
            let v = json!({
                "file": name,
                "format": "CiTrace",
                "layout": layout_name(trace.layout),
                "events": events,
                "warnings": warnings_json(&r),
            });
            crate::output::emit_json(&v)?;
            return Ok(ExitCode::SUCCESS);
        }
        (false, false) => {
            let mut out = String::new();
            for e in &r.events {
                out.push_str(&event_text(e));
                out.push('\n');
            }
            out.push_str(&warnings_text(&r));
            out
        }
    };
    crate::output::emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn event_text(e: &Event) -> String {
    let o = e.offset;
    match e.kind {
        EventKind::Register { id, mask, value, .. } => write_text(&Line { offset: o, id, mask, value }),
        EventKind::External { physical_address, size, value } => {
            format!("{o:06x}: register 0x{physical_address:08x} ({}-bit) = 0x{value:08x}", size.bits())
        }
        EventKind::MemoryLoad { physical_address, size } => {
            format!("{o:06x}: memory load 0x{physical_address:08x}, {size} bytes")
        }
        EventKind::CommandList { physical_address, size, channel } => {
            format!("{o:06x}: command list 0x{physical_address:08x}, {size} bytes (GPUREG_CMDBUF_JUMP{channel})")
        }
        EventKind::FrameMarker { frame } => format!("{o:06x}: end of frame {frame}"),
    }
}

fn event_json(e: &Event) -> Value {
    let mut v = match e.kind {
        EventKind::Register { id, mask, value, list } => {
            let mut v = write_json(&Line { offset: e.offset, id, mask, value });
            v["kind"] = json!("register");
            v["list_address"] = json!(list);
            v
        }
        EventKind::External { physical_address, size, value } => {
            json!({ "kind": "external", "physical_address": physical_address, "bits": size.bits(), "value": value })
        }
        EventKind::MemoryLoad { physical_address, size } => {
            json!({ "kind": "memory_load", "physical_address": physical_address, "size": size })
        }
        EventKind::CommandList { physical_address, size, channel } => {
            json!({ "kind": "command_list", "physical_address": physical_address, "size": size, "channel": channel })
        }
        EventKind::FrameMarker { frame } => json!({ "kind": "frame_end", "frame": frame }),
    };
    v["offset"] = json!(e.offset);
    v["element"] = json!(e.element);
    v
}

fn frames_json(r: &Replay) -> Value {
    r.frames
        .iter()
        .enumerate()
        .map(|(i, f)| {
            json!({
                "index": i,
                "draws": [f.draws.start, f.draws.end],
                "elements": [f.elements.start, f.elements.end],
                "ended": f.ended,
            })
        })
        .collect()
}

fn warnings_json(r: &Replay) -> Value {
    json!(r.warnings.iter().map(|w| json!({ "offset": w.offset, "message": w.message })).collect::<Vec<_>>())
}

fn warnings_text(r: &Replay) -> String {
    let mut out = String::new();
    for w in &r.warnings {
        let _ = writeln!(out, "warning: byte offset {}: {}", w.offset, w.message);
    }
    if r.warning_count > r.warnings.len() {
        let _ = writeln!(out, "warning: {} more", r.warning_count - r.warnings.len());
    }
    out
}

fn summary_json(t: &Trace, r: &Replay) -> Value {
    let sections: serde_json::Map<String, Value> =
        SECTIONS.iter().zip(t.initial.sections()).map(|(n, s)| (n.to_string(), json!(s.len()))).collect();
    let count = |f: fn(&pica::state::citrace::Element) -> bool| t.stream.iter().filter(|e| f(e)).count();
    json!({
        "format": "CiTrace",
        "version": pica::state::citrace::VERSION,
        "layout": layout_name(t.layout),
        "initial_state_words": sections,
        "elements": t.stream.len(),
        "memory_loads": count(|e| matches!(e, pica::state::citrace::Element::MemoryLoad(_))),
        "register_writes": count(|e| matches!(e, pica::state::citrace::Element::RegisterWrite(_))),
        "frames": r.frames.len(),
        "command_lists_run": r.command_lists,
        "draws": r.state.draws.len(),
        "warnings": r.warning_count + r.state.warning_count,
    })
}

/// JSON summary of a CiTrace, for `shaderport inspect`.
pub fn inspect(bytes: &[u8]) -> Option<anyhow::Result<Value>> {
    if !pica::state::citrace::is_citrace(bytes) {
        return None;
    }
    Some(Trace::read(bytes).map_err(Into::into).map(|t| {
        let r = replay(&t, ReplayLimits::default());
        summary_json(&t, &r)
    }))
}

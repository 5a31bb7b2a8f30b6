//! Replaying a trace through the state tracker: the initial state applied, then each stream
//! element in order. Register writes to the internal register window go to [`GpuState`]; a
//! write that starts a command buffer runs the command list the trace loaded at that address;
//! memory loads are kept so that draws can find their data; frame markers split frames.
//! docs/pica-citrace.md "Replay" lists the choices.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::{Element, InitialState, LoadData, Trace, WriteSize};
use crate::float24::F24;
use crate::regs::cmdlist::{Limits, Reader, Write};
use crate::regs::table::REGISTER_COUNT;
use crate::state::{GpuState, Warning, DEFAULT_ATTRIBUTES, FLOAT_UNIFORMS, MAX_WARNINGS};

/// Physical address of internal register 0: register `id` answers at `PICA_MMIO_BASE + 4 * id`
/// (the command buffer registers 0x238-0x23D are the GPU's 0x1EF018E0-0x1EF018F4 in the
/// ARM11's view, physical 0x104018E0).
pub const PICA_MMIO_BASE: u32 = 0x1040_1000;
/// Word of the GPU register block (from physical 0x10400000) that holds internal register 0.
pub const PICA_IN_GPU_BLOCK: usize = 0x400;
const CMDBUF_SIZE0: u16 = 0x238;
const CMDBUF_ADDR0: u16 = 0x23A;
const CMDBUF_JUMP0: u16 = 0x23C;
const CMDBUF_JUMP1: u16 = 0x23D;

/// Caps on the work a replay does, so that a small hostile trace cannot cost unbounded time
/// or memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayLimits {
    /// Most register writes run from command lists, all lists together.
    pub max_list_writes: usize,
    /// Most command buffer jumps followed from one trigger.
    pub max_jumps: usize,
    /// Most draws kept (later draws are counted in a warning and dropped).
    pub max_draws: usize,
    /// Whether to keep one [`Event`] per write, load, list and frame marker (for listings).
    pub record_events: bool,
}

impl Default for ReplayLimits {
    fn default() -> Self {
        ReplayLimits { max_list_writes: 1 << 24, max_jumps: 64, max_draws: 1 << 16, record_events: false }
    }
}

/// What a replay step did, for listings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A write to an internal register: from the command list at `list` (its physical
    /// address), or straight from the CPU when `list` is `None`.
    Register {
        id: u16,
        mask: u8,
        value: u32,
        list: Option<u32>,
    },
    /// A write outside the internal register window (GPU external or LCD registers), kept as
    /// written.
    External {
        physical_address: u32,
        size: WriteSize,
        value: u64,
    },
    MemoryLoad {
        physical_address: u32,
        size: usize,
    },
    /// A command list about to run, started by a write to GPUREG_CMDBUF_JUMP`channel`.
    CommandList {
        physical_address: u32,
        size: usize,
        channel: u8,
    },
    /// The end of frame `frame`.
    FrameMarker {
        frame: usize,
    },
}

/// One event with the byte offset it came from: the command's word inside the trace file for
/// writes run from a command list, the stream element otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub offset: usize,
    /// Index of the stream element that caused it.
    pub element: usize,
    pub kind: EventKind,
}

/// One frame: the stream elements up to and including its marker, and its draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub elements: Range<usize>,
    /// Indices into `GpuState::draws`.
    pub draws: Range<usize>,
    /// False for a last frame that the trace ends without a marker.
    pub ended: bool,
}

/// The memory loads of a trace, in stream order, searchable by physical address.
#[derive(Clone, Debug, Default)]
pub struct PhysicalMemory {
    loads: Vec<(u32, LoadData)>,
    /// Indices of the loads starting at each address, in order (command lists are looked up
    /// by their start, once per trigger).
    starts: HashMap<u32, Vec<usize>>,
}

/// Loads searched, newest first, for a command list that no load starts at (a bound on the
/// time a hostile trace can cost).
pub const LIST_SEARCH_LOADS: usize = 1 << 16;
/// Events kept for a listing; later ones are counted in a warning.
pub const MAX_EVENTS: usize = 1 << 22;

impl PhysicalMemory {
    /// Number of loads so far.
    pub fn len(&self) -> usize {
        self.loads.len()
    }

    pub fn is_empty(&self) -> bool {
        self.loads.is_empty()
    }

    /// `len` bytes at `address` as the latest of the first `before` loads that covers all of
    /// them left them, with the load's data (for its file offset) and the start inside it.
    pub fn find(&self, address: u32, len: usize, before: usize) -> Option<(&LoadData, usize)> {
        let end = u64::from(address) + len as u64;
        self.loads[..before.min(self.loads.len())].iter().rev().find_map(|(base, data)| {
            let start = u64::from(*base);
            (u64::from(address) >= start && end <= start + data.len() as u64).then(|| (data, (address - base) as usize))
        })
    }

    /// `len` bytes at `address`, as the latest load covering them left them.
    pub fn read(&self, address: u32, len: usize) -> Option<&[u8]> {
        self.read_before(address, len, self.loads.len())
    }

    /// As [`PhysicalMemory::read`], looking only at the first `before` loads (a draw's view:
    /// [`Replay::draw_loads`]).
    pub fn read_before(&self, address: u32, len: usize, before: usize) -> Option<&[u8]> {
        self.find(address, len, before).map(|(d, start)| &d.as_slice()[start..start + len])
    }

    /// The latest load that starts exactly at `address`, among the first `before`.
    fn starting_at(&self, address: u32, before: usize) -> Option<&LoadData> {
        let indices = self.starts.get(&address)?;
        let n = indices.partition_point(|&i| i < before);
        n.checked_sub(1).map(|k| &self.loads[indices[k]].1)
    }

    fn push(&mut self, address: u32, data: LoadData) {
        self.starts.entry(address).or_default().push(self.loads.len());
        self.loads.push((address, data));
    }

    /// As [`PhysicalMemory::find`] over the newest [`LIST_SEARCH_LOADS`] loads only.
    fn find_recent(&self, address: u32, len: usize) -> Option<(&LoadData, usize)> {
        let end = u64::from(address) + len as u64;
        self.loads.iter().rev().take(LIST_SEARCH_LOADS).find_map(|(base, data)| {
            let start = u64::from(*base);
            (u64::from(address) >= start && end <= start + data.len() as u64).then(|| (data, (address - base) as usize))
        })
    }
}

/// A replayed trace.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The tracker after the whole stream; its draws are every draw of the trace.
    pub state: GpuState,
    pub frames: Vec<Frame>,
    /// Filled when [`ReplayLimits::record_events`] is set, up to [`MAX_EVENTS`].
    pub events: Vec<Event>,
    /// Whether events were left out past [`MAX_EVENTS`].
    pub events_cut: bool,
    pub memory: PhysicalMemory,
    /// For each draw: how many memory loads came before it, so that
    /// `memory.read_before(address, len, draw_loads[i])` finds the data draw `i` read.
    pub draw_loads: Vec<usize>,
    /// Command lists run.
    pub command_lists: usize,
    /// Register writes outside the internal register window.
    pub external_writes: usize,
    /// What the replay could not do as the trace asked (beside the tracker's own warnings).
    pub warnings: Vec<Warning>,
    pub warning_count: usize,
}

impl Replay {
    fn warn(&mut self, offset: usize, message: String) {
        self.warning_count += 1;
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(Warning { offset, message });
        }
    }

    fn event(&mut self, limits: &ReplayLimits, offset: usize, element: usize, kind: EventKind) {
        if !limits.record_events {
            return;
        }
        if self.events.len() < MAX_EVENTS {
            self.events.push(Event { offset, element, kind });
        } else if !self.events_cut {
            self.events_cut = true;
            self.warn(offset, format!("more than {MAX_EVENTS} events; the listing stops here"));
        }
    }
}

/// Four float24 values stored one per word (x, y, z, w).
fn vec4_of(words: &[u32]) -> [F24; 4] {
    std::array::from_fn(|c| F24::from_bits(words.get(c).copied().unwrap_or(0)))
}

/// Puts the initial state into the tracker: the register file as it was, and the shader and
/// attribute memories.
pub fn apply_initial(state: &mut GpuState, initial: &InitialState) {
    for (slot, &w) in state.regs.iter_mut().zip(&initial.pica_registers) {
        *slot = w;
    }
    // The command buffer registers as the CPU last wrote them, from the GPU register block.
    for id in CMDBUF_SIZE0..=CMDBUF_ADDR0 + 1 {
        if let Some(&w) = initial.gpu_registers.get(PICA_IN_GPU_BLOCK + usize::from(id)) {
            state.regs[usize::from(id)] = w;
        }
    }
    let m = &mut state.memories;
    for (unit, code, swizzle, uniforms) in [
        (&mut m.vs, &initial.vs_program_binary, &initial.vs_swizzle_data, &initial.vs_float_uniforms),
        (&mut m.gs, &initial.gs_program_binary, &initial.gs_swizzle_data, &initial.gs_float_uniforms),
    ] {
        for (dst, src) in [(&mut unit.code, code), (&mut unit.opdescs, swizzle)] {
            if !src.is_empty() {
                let mem = Arc::make_mut(dst);
                let n = src.len().min(mem.len());
                mem[..n].copy_from_slice(&src[..n]);
            }
        }
        if !uniforms.is_empty() {
            let f = Arc::make_mut(&mut unit.float_uniforms);
            for (i, chunk) in uniforms.chunks(4).take(FLOAT_UNIFORMS).enumerate() {
                f[i] = vec4_of(chunk);
            }
        }
    }
    for (i, chunk) in initial.default_attributes.chunks(4).take(DEFAULT_ATTRIBUTES).enumerate() {
        m.default_attributes[i] = vec4_of(chunk);
    }
}

/// Internal register writes a CPU write at `byte` (0-3) inside register `id`'s word makes:
/// the byte mask covers the bytes written.
fn internal_writes(id: u16, byte: u32, size: WriteSize, value: u64) -> Option<Vec<Write>> {
    let shifted = |v: u64| ((v << (8 * byte)) & 0xFFFF_FFFF) as u32;
    Some(match (size, byte) {
        (WriteSize::U8, _) => vec![Write { id, mask: 1 << byte, value: shifted(value & 0xFF) }],
        (WriteSize::U16, 0 | 2) => vec![Write { id, mask: 3 << byte, value: shifted(value & 0xFFFF) }],
        (WriteSize::U32, 0) => vec![Write { id, mask: 0xF, value: value as u32 }],
        (WriteSize::U64, 0) => vec![
            Write { id, mask: 0xF, value: value as u32 },
            Write { id: id + 1, mask: 0xF, value: (value >> 32) as u32 },
        ],
        _ => return None,
    })
}

struct Runner<'a> {
    replay: Replay,
    limits: ReplayLimits,
    trace: &'a Trace,
    list_writes: usize,
    stopped: bool,
    draws_dropped: bool,
}

impl Runner<'_> {
    fn element_offset(&self, i: usize) -> usize {
        self.trace.element_offset(i).unwrap_or(i * super::ELEMENT_SIZE)
    }

    /// Applies one internal register write and, for a command buffer trigger, runs the list.
    fn write(&mut self, w: Write, offset: usize, element: usize, list: Option<u32>) -> Option<u8> {
        self.replay.event(
            &self.limits,
            offset,
            element,
            EventKind::Register { id: w.id, mask: w.mask, value: w.value, list },
        );
        self.replay.state.apply_write(w, offset);
        self.keep_draws(offset);
        if (w.id == CMDBUF_JUMP0 || w.id == CMDBUF_JUMP1) && self.replay.state.reg(w.id) != 0 {
            return Some((w.id - CMDBUF_JUMP0) as u8);
        }
        None
    }

    /// Draws beyond the cap are dropped; the rest get the count of loads they could see.
    fn keep_draws(&mut self, offset: usize) {
        let r = &mut self.replay;
        while r.draw_loads.len() < r.state.draws.len() {
            if r.draw_loads.len() >= self.limits.max_draws {
                r.state.draws.truncate(self.limits.max_draws);
                if !self.draws_dropped {
                    self.draws_dropped = true;
                    let message = format!("more than {} draws; the rest are not kept", self.limits.max_draws);
                    r.warn(offset, message);
                }
                break;
            }
            r.draw_loads.push(r.memory.len());
        }
    }

    /// Runs command buffer `channel` and the buffers it jumps to.
    fn run_lists(&mut self, mut channel: u8, element: usize) {
        let element_offset = self.element_offset(element);
        for _ in 0..=self.limits.max_jumps {
            let s = &self.replay.state;
            let address = (s.reg(CMDBUF_ADDR0 + u16::from(channel)) & 0x1FFF_FFFF) << 3;
            let size_reg = u64::from(s.reg(CMDBUF_SIZE0 + u16::from(channel)));
            // The register holds the size >> 3 on hardware; Citra writes bytes. The load the
            // recorder made of the list at this address bounds it either way.
            let loads = self.replay.memory.len();
            let data = match self.replay.memory.starting_at(address, loads) {
                Some(d) => Some((d.clone(), 0usize, (size_reg * 8).min(d.len() as u64) as usize)),
                None => {
                    let len = (size_reg * 8).min(u64::from(u32::MAX)) as usize;
                    self.replay.memory.find_recent(address, len).map(|(d, start)| (d.clone(), start, len))
                }
            };
            let Some((data, start, len)) = data else {
                let message = format!(
                    "command buffer {channel} at 0x{address:08x} ({} bytes by GPUREG_CMDBUF_SIZE{channel}) was not loaded by the trace; not run",
                    size_reg * 8
                );
                self.replay.warn(element_offset, message);
                return;
            };
            self.replay.command_lists += 1;
            self.replay.event(
                &self.limits,
                element_offset,
                element,
                EventKind::CommandList { physical_address: address, size: len, channel },
            );
            let bytes = &data.as_slice()[start..start + (len & !3)];
            let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            let base = data.file_offset().map(|o| o + start);
            let at = |list_offset: usize| base.map_or(element_offset, |b| b + list_offset);
            let remaining = self.limits.max_list_writes.saturating_sub(self.list_writes);
            let mut next = None;
            'list: for located in Reader::with_limits(&words, Limits { max_writes: remaining, ..Limits::default() }) {
                let located = match located {
                    Ok(l) => l,
                    Err(e) => {
                        let stop = matches!(e, crate::regs::ReadError::TooManyWrites { .. });
                        let message = format!("command list at 0x{address:08x}: {e}; the rest of the list is not run");
                        self.replay.warn(at(e.offset()), message);
                        if stop {
                            self.stop(at(e.offset()));
                        }
                        break;
                    }
                };
                for w in located.command.writes() {
                    self.list_writes += 1;
                    if let Some(ch) = self.write(w, at(located.offset), element, Some(address)) {
                        // A jump leaves the rest of this buffer.
                        next = Some(ch);
                        break 'list;
                    }
                }
            }
            match next {
                Some(ch) => channel = ch,
                None => return,
            }
        }
        let message = format!("more than {} command buffer jumps from one trigger; stopped", self.limits.max_jumps);
        self.replay.warn(element_offset, message);
    }

    fn stop(&mut self, offset: usize) {
        if !self.stopped {
            self.stopped = true;
            let message =
                format!("more than {} register writes from command lists; replay stopped", self.limits.max_list_writes);
            self.replay.warn(offset, message);
        }
    }
}

/// Replays `trace` into a fresh tracker.
pub fn replay(trace: &Trace, limits: ReplayLimits) -> Replay {
    let mut state = GpuState::new();
    apply_initial(&mut state, &trace.initial);
    let replay = Replay {
        state,
        frames: Vec::new(),
        events: Vec::new(),
        events_cut: false,
        memory: PhysicalMemory::default(),
        draw_loads: Vec::new(),
        command_lists: 0,
        external_writes: 0,
        warnings: Vec::new(),
        warning_count: 0,
    };
    let mut r = Runner { replay, limits, trace, list_writes: 0, stopped: false, draws_dropped: false };
    let mut frame_start = (0, 0);
    for (i, e) in trace.stream.iter().enumerate() {
        if r.stopped {
            break;
        }
        let offset = r.element_offset(i);
        match e {
            Element::FrameMarker => {
                r.replay.state.finish(offset);
                r.keep_draws(offset);
                let frame = r.replay.frames.len();
                r.replay.event(&limits, offset, i, EventKind::FrameMarker { frame });
                let draws = r.replay.state.draws.len();
                r.replay.frames.push(Frame {
                    elements: frame_start.0..i + 1,
                    draws: frame_start.1..draws,
                    ended: true,
                });
                frame_start = (i + 1, draws);
            }
            Element::MemoryLoad(m) => {
                r.replay.event(
                    &limits,
                    offset,
                    i,
                    EventKind::MemoryLoad { physical_address: m.physical_address, size: m.data.len() },
                );
                r.replay.memory.push(m.physical_address, m.data.clone());
            }
            Element::RegisterWrite(w) => {
                let rel = w.physical_address.wrapping_sub(PICA_MMIO_BASE);
                let id = rel / 4;
                if w.physical_address >= PICA_MMIO_BASE && (id as usize) < REGISTER_COUNT {
                    match internal_writes(id as u16, rel % 4, w.size, w.value) {
                        Some(writes) => {
                            for iw in writes {
                                if let Some(channel) = r.write(iw, offset, i, None) {
                                    r.run_lists(channel, i);
                                }
                            }
                        }
                        None => {
                            let message = format!(
                                "{}-bit write at 0x{:08x} is not aligned to its size; ignored",
                                w.size.bits(),
                                w.physical_address
                            );
                            r.replay.warn(offset, message);
                        }
                    }
                } else {
                    r.replay.external_writes += 1;
                    r.replay.event(
                        &limits,
                        offset,
                        i,
                        EventKind::External { physical_address: w.physical_address, size: w.size, value: w.value },
                    );
                }
            }
        }
    }
    let end = r.element_offset(trace.stream.len());
    r.replay.state.finish(end);
    r.keep_draws(end);
    let draws = r.replay.state.draws.len();
    if frame_start.0 < trace.stream.len() || draws > frame_start.1 {
        r.replay.frames.push(Frame {
            elements: frame_start.0..trace.stream.len(),
            draws: frame_start.1..draws,
            ended: false,
        });
    }
    r.replay
}

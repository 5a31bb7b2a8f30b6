//! Geometry programs with their copy program (latte-semantics-facts.md §4.5): the geometry
//! program runs per invocation and writes its vertices to the GSVS ring with MEM_RING; then
//! the copy program (the hardware VS) runs once per EMIT_VERTEX / EMIT_CUT_VERTEX, reading
//! that vertex from the ring, and its exports are the vertex's outputs. CUT_VERTEX and
//! EMIT_CUT_VERTEX end strips. Decisions in docs/latte-interp.md, "Geometry programs".

use super::error::{At, InterpError, Result};
use super::state::{Buffer, Config, GsEvent, Inputs, Invocation, InvocationResult, Stage};
use super::Vm;

/// The GSVS ring buffer ids the copy program may fetch: Mesa's 17 and GX2's 0x9F (§4.5).
pub const GSVS_RING_IDS: [u8; 2] = [17, 0x9F];

/// The most GSVS ring dwords one invocation may address (16 MiB).
pub const GSVS_RING_LIMIT: u32 = 1 << 22;

/// What one geometry invocation produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GsOutput {
    /// The geometry program's own result (ring writes, events, GPRs).
    pub gs: InvocationResult,
    /// One copy-program result per emitted vertex, in emit order: its exports (`pos0`,
    /// `param0`, ...) are the vertex's outputs.
    pub vertices: Vec<InvocationResult>,
    /// Strips: indices into `vertices`, split at CUT_VERTEX / EMIT_CUT_VERTEX (empty strips
    /// dropped).
    pub strips: Vec<Vec<usize>>,
}

/// The GSVS ring of one geometry invocation as a buffer (16-byte stride; dwords never written
/// read 0).
fn ring(r: &InvocationResult) -> Result<Buffer> {
    let writes: Vec<_> = r.mem_writes.iter().filter(|w| w.op == 0x26).collect();
    let end = writes.iter().map(|w| w.addr as u64 + 4).max().unwrap_or(0);
    if end > GSVS_RING_LIMIT as u64 {
        return Err(InterpError::Input {
            at: At::Cf(0),
            what: format!("GSVS ring write at dword {} past the {GSVS_RING_LIMIT}-dword limit", end - 4),
        });
    }
    let mut dwords = vec![0u32; end as usize];
    for w in writes {
        for c in 0..4 {
            if w.comp_mask >> c & 1 == 1 {
                dwords[w.addr as usize + c] = w.value[c];
            }
        }
    }
    Ok(Buffer { data: dwords.iter().flat_map(|d| d.to_le_bytes()).collect(), stride: 16, format: None })
}

/// Runs geometry program `gs` on each invocation and its copy program `copy` per emitted
/// vertex. The copy program starts with R0.x = the vertex's ring offset in 16-byte units (the
/// INDEX_GPR.x of its first MEM_RING WRITE_IND, or its lowest dword address / 4 for plain
/// WRITEs; stream 0 in bits 31:30) and the ring as buffers 17 and 0x9F.
///
/// # Errors
/// The first error of either program (an error of the copy program names its CF / ALU group /
/// fetch in the copy program), or a ring address past [`GSVS_RING_LIMIT`].
pub fn run_geometry(
    gs: &Vm,
    copy: &Vm,
    inputs: &Inputs,
    config: &Config,
    invocations: &[Invocation],
) -> Result<Vec<GsOutput>> {
    let mut out = Vec::with_capacity(invocations.len());
    for inv in invocations {
        let r = gs.run(Stage::Geometry, inputs, config, std::slice::from_ref(inv))?.remove(0);
        let mut copy_inputs = inputs.clone();
        let ring = ring(&r)?;
        for id in GSVS_RING_IDS {
            copy_inputs.buffers.insert(id, ring.clone());
        }
        let (mut vertices, mut strips, mut strip) = (Vec::new(), Vec::new(), Vec::new());
        let mut from = 0usize;
        for &(ev, k) in &r.gs_events {
            if matches!(ev, GsEvent::Emit | GsEvent::EmitCut) {
                let k = k.min(r.mem_writes.len());
                let own: Vec<_> = r.mem_writes[from.min(k)..k].iter().filter(|w| w.op == 0x26).collect();
                let offset = own
                    .first()
                    .and_then(|w| w.index)
                    .unwrap_or_else(|| own.iter().map(|w| w.addr).min().unwrap_or(0) / 4);
                from = k;
                let start = Invocation { gprs: vec![(0, [offset & 0x3FFF_FFFF, 0, 0, 0])], invalid: false };
                vertices.push(copy.run(Stage::GsCopy, &copy_inputs, config, &[start])?.remove(0));
                strip.push(vertices.len() - 1);
            }
            if matches!(ev, GsEvent::Cut | GsEvent::EmitCut) && !strip.is_empty() {
                strips.push(std::mem::take(&mut strip));
            }
        }
        if !strip.is_empty() {
            strips.push(strip);
        }
        out.push(GsOutput { gs: r, vertices, strips });
    }
    Ok(out)
}

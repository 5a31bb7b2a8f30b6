//! What the host gives the interpreter (constants, uniform blocks, buffers, textures, initial
//! registers) and what each invocation leaves (exports, memory writes, the kill bit), plus the
//! per-invocation machine state (latte-semantics-facts.md §2.3, §2.8).

use super::tex::Textures;
use std::collections::BTreeMap;

/// Number of GPRs (R0-R127; R124-R127 are the clause temporaries T0-T3 under GX2's
/// four-temporary configuration, facts §1.8).
pub const NUM_GPRS: usize = 128;

/// The shader stage a program runs as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Vertex program: one invocation per lane group.
    Vertex,
    /// Pixel program: invocations run as 2x2 quads (lanes 0-3 = top-left, top-right,
    /// bottom-left, bottom-right).
    Pixel,
    /// Geometry program.
    Geometry,
    /// The GS copy program (runs as the hardware VS).
    GsCopy,
}

/// A host buffer that VTX fetches read (facts §4.2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Buffer {
    /// Bytes, in GPU memory order (the fetch's ENDIAN_SWAP is applied on read).
    pub data: Vec<u8>,
    /// Bytes per element.
    pub stride: u32,
    /// Format used when a fetch sets USE_CONST_FIELDS: (DATA_FORMAT, NUM_FORMAT, signed,
    /// SRF_MODE).
    pub format: Option<(u8, u8, bool, bool)>,
}

/// Everything an invocation group shares.
#[derive(Clone, Default)]
pub struct Inputs {
    /// Uniform blocks by block index (constant buffers, kcache banks; also buffer ids
    /// 0x80 + n for VFETCH, facts §4.4), as 32-bit words.
    pub uniform_blocks: BTreeMap<u8, Vec<u32>>,
    /// The ALU constant file c0-c255 (uniform-register mode, sel 256-511); missing entries 0.
    pub cfile: Vec<[u32; 4]>,
    /// Host buffers by BUFFER_ID (these take precedence over the uniform-block fallback).
    pub buffers: BTreeMap<u8, Buffer>,
    /// SQ_LOOP_CONST_n (COUNT 11:0, INIT 23:12, INC 31:24) for LOOP_START / LOOP_START_NO_AL;
    /// entries not given behave as [`DEFAULT_LOOP_CONST`].
    pub loop_consts: BTreeMap<u8, u32>,
    /// Boolean constants (bit n = constant n) for COND = CF_BOOL / CF_NOT_BOOL.
    pub bool_consts: u32,
    /// SQ_VTX_SEMANTIC_k: semantic id routed to GPR k+1 by SEMANTIC fetches (0xFF unused).
    pub vtx_semantic: Vec<u8>,
    /// Textures for TEX instructions.
    pub textures: Option<std::sync::Arc<dyn Textures + Send + Sync>>,
}

impl std::fmt::Debug for Inputs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inputs")
            .field("uniform_blocks", &self.uniform_blocks.keys().collect::<Vec<_>>())
            .field("cfile", &self.cfile.len())
            .field("buffers", &self.buffers.keys().collect::<Vec<_>>())
            .field("loop_consts", &self.loop_consts)
            .field("bool_consts", &self.bool_consts)
            .field("textures", &self.textures.is_some())
            .finish()
    }
}

/// The loop constant an unset SQ_LOOP_CONST reads as: COUNT 4095, INIT 0, INC 1
/// (docs/latte-interp.md, decision "loop constants").
pub const DEFAULT_LOOP_CONST: u32 = 0xFFF | (1 << 24);

/// Limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// CF instructions + ALU groups + fetches per lane group before [`super::InterpError::StepBudget`].
    pub step_budget: u64,
    /// Most stack entries (pushes, loop frames and calls together; default 1024: Mesa nests
    /// 100 pushes in corpus t06, which STACK_SIZE counts as entries of 8, facts §2.4).
    pub stack_limit: usize,
    /// A deliberate error, for tests that show an outside oracle catches a wrong interpreter
    /// (docs/latte-oracle.md); `None` in every real use.
    pub fault_injection: Option<FaultInjection>,
}

impl Default for Config {
    fn default() -> Self {
        Config { step_budget: 1_000_000, stack_limit: 1024, fault_injection: None }
    }
}

/// A deliberate interpreter error ([`Config::fault_injection`]): test-only, never correct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultInjection {
    /// MUL_IEEE results are one ulp too large in magnitude (a rounding error of the kind an
    /// implementation could make).
    MulIeeeOneUlp,
}

/// One invocation's starting registers (facts §2.8: everything else starts as 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Invocation {
    /// (GPR, value) pairs.
    pub gprs: Vec<(u8, [u32; 4])>,
    /// Whether the pixel is covered (the valid bit); vertices are always valid.
    pub invalid: bool,
}

/// Export kinds (CF_ALLOC_EXPORT TYPE, facts §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ExportKind {
    /// PIXEL: colour k (0-7) or depth (61).
    Pixel,
    /// POS: 60 position, 61-63 extra vectors.
    Pos,
    /// PARAM k.
    Param,
    /// TYPE 3 (reserved for EXPORT).
    Reserved,
}

/// One export of one invocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Export {
    /// Kind.
    pub kind: ExportKind,
    /// ARRAY_BASE (+ burst index).
    pub index: u16,
    /// The four components after SEL_X..W (masked components are 0).
    pub value: [u32; 4],
    /// Which components the selectors wrote (SEL 7 = masked).
    pub mask: u8,
}

impl Export {
    /// The name the JSON uses: `pos0` for POS 60, `pos1..3` for 61-63, `param3`, `pix0`,
    /// `z` for PIXEL 61.
    pub fn name(&self) -> String {
        match (self.kind, self.index) {
            (ExportKind::Pos, i @ 60..=63) => format!("pos{}", i - 60),
            (ExportKind::Pos, i) => format!("pos_{i}"),
            (ExportKind::Param, i) => format!("param{i}"),
            (ExportKind::Pixel, 61) => "z".to_string(),
            (ExportKind::Pixel, i) => format!("pix{i}"),
            (ExportKind::Reserved, i) => format!("exp3_{i}"),
        }
    }
}

/// A MEM_RING / MEM_STREAM / MEM_SCRATCH / MEM_EXPORT write (recorded, not applied to a
/// buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemWrite {
    /// CF_INST (0x20-0x26, 0x3A).
    pub op: u8,
    /// Dword address: ARRAY_BASE (+ burst·(ELEM_SIZE+1)) + index·(ELEM_SIZE+1) for WRITE_IND.
    pub addr: u32,
    /// COMP_MASK.
    pub comp_mask: u8,
    /// INDEX_GPR.x of a WRITE_IND (a geometry program's vertex offset, facts §4.5).
    pub index: Option<u32>,
    /// The four components of the source GPR.
    pub value: [u32; 4],
}

/// A geometry-program event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GsEvent {
    /// EMIT_VERTEX.
    Emit,
    /// CUT_VERTEX.
    Cut,
    /// EMIT_CUT_VERTEX.
    EmitCut,
}

/// What one invocation left.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InvocationResult {
    /// Exports in execution order.
    pub exports: Vec<Export>,
    /// Memory writes in execution order.
    pub mem_writes: Vec<MemWrite>,
    /// Geometry events, each with the number of memory writes made before it.
    pub gs_events: Vec<(GsEvent, usize)>,
    /// A KILL (ALU KILL* or CF KILL) cleared the valid bit: the hardware discards this pixel's
    /// exports. (An invocation given as invalid, an uncovered helper, is not reported killed.)
    pub killed: bool,
    /// Final GPRs.
    pub gprs: Vec<[u32; 4]>,
}

/// The 2-bit per-lane state of facts §2.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneState {
    /// Runs instructions.
    Active,
    /// Inactive because of a branch.
    InactiveBranch,
    /// Inactive until the loop's next iteration.
    InactiveContinue,
    /// Inactive until the loop exits.
    InactiveBreak,
}

/// One lane (invocation) of a lane group.
#[derive(Clone, Debug)]
pub(crate) struct Lane {
    pub gpr: Vec<[u32; 4]>,
    pub valid: bool,
    pub state: LaneState,
    pub pred: bool,
    pub result: InvocationResult,
}

impl Lane {
    pub fn new(inv: &Invocation) -> Lane {
        let mut gpr = vec![[0u32; 4]; NUM_GPRS];
        for &(r, v) in &inv.gprs {
            if let Some(g) = gpr.get_mut(r as usize) {
                *g = v;
            }
        }
        Lane { gpr, valid: !inv.invalid, state: LaneState::Active, pred: false, result: InvocationResult::default() }
    }
    pub fn active(&self) -> bool {
        self.state == LaneState::Active
    }
}

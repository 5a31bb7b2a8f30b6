//! Random valid, terminating Latte programs ("smith") on `arbitrary::Unstructured`, for the
//! interpreter's robustness tests and as the input of differential translation tests.
//!
//! Unlike [`crate::isa::smith`] (random fields everywhere, for decoder and assembler
//! round-trips), these programs mean something and always run to their end on the
//! interpreter without an error: every ALU opcode class of the R700 table, PV/PS, literals,
//! kcache and constant-file reads, relative addressing through AR (loaded from small
//! literals) and the loop index, predication, nested if/else (ALU_PUSH_BEFORE, JUMP, ELSE,
//! POP, ALU_POP_AFTER) and PUSH/POP on boolean constants, DX10 loops with LOOP_BREAK /
//! LOOP_CONTINUE / ALU_BREAK / ALU_CONTINUE bounded by a counter clause, DX9 loops bounded by
//! their loop constant, KILL, VTX and TEX fetches, exports and memory writes.
//!
//! What keeps them valid (docs/latte-interp.md, "Random programs"): writes go to R1-R15 and
//! the clause temporaries R124-R127; relative accesses use bases up to R15 with AR in [0, 7]
//! and aL in [0, 5]; the loop counters live in R100-R103, which nothing else writes; a kcache
//! set is read only while it is locked; PRED_SET with UPDATE_EXECUTE_MASK appears only as the
//! last group of an ALU_PUSH_BEFORE / ALU_BREAK / ALU_CONTINUE clause.
//!
//! ```
//! use arbitrary::Unstructured;
//! use latte::interp::{Config as RunConfig, Vm};
//! use latte::smith::{inputs, invocations, program, Config};
//! let bytes: Vec<u8> = (0..4096u32).map(|k| (k.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
//! let mut u = Unstructured::new(&bytes);
//! let p = program(&mut u, &Config::default()).unwrap();
//! let inputs = inputs(&mut u, &p).unwrap();
//! let invs = invocations(&mut u, &p, 4).unwrap();
//! let results = Vm::new(&p.program).run(p.stage, &inputs, &RunConfig::default(), &invs).unwrap();
//! assert_eq!(results.len(), 4);
//! ```

mod alu;
mod flow;
mod io;

pub use io::{inputs, invocations};

use crate::interp::Stage;
use crate::isa::{AluGroup, CfAlu, CfExport, CfNormal, FetchInst, Kcache, Program, TexInst, VtxInst};
use alu::ClauseCtx;
use arbitrary::{Result, Unstructured};
use flow::{normal, Node};
use std::collections::BTreeMap;

/// Registers R0 to R(DATA_REGS - 1) are the data registers (R0 is read, never written).
pub(crate) const DATA_REGS: u8 = 16;
/// The clause temporaries T0-T3.
pub(crate) const TEMP_REGS: [u8; 4] = [124, 125, 126, 127];
/// The highest base register of a relative access.
pub(crate) const REL_BASE_MAX: u16 = 15;
/// The DX10 loop counter of nesting level k is R(COUNTER_BASE + k).x.
pub(crate) const COUNTER_BASE: u8 = 100;
/// Uniform blocks 0..BLOCKS (kcache banks, VFETCH buffers 0x80 + n).
pub(crate) const BLOCKS: u8 = 4;
/// The host buffers VFETCH reads (0x80 + n fall back to the uniform blocks).
pub(crate) const BUFFER_IDS: [u8; 6] = [0, 1, 0x80, 0x81, 160, 161];
/// Texture resources and samplers 0..TEXTURES.
pub(crate) const TEXTURES: u8 = 4;
/// The VTX DATA_FORMATs the generator uses (all that the interpreter reads).
pub(crate) const VTX_FORMATS: [u8; 33] = [
    1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 21, 22, 23, 24, 25, 26, 27, 29, 30, 31, 32, 34, 35, 44, 45, 46,
    47, 48,
];

/// Knobs of the generator.
#[derive(Clone, Debug)]
pub struct Config {
    /// Most nodes (clauses, exports, control-flow constructs) in the program.
    pub max_nodes: usize,
    /// Deepest nesting of ifs and loops (at most 4: one loop counter per level).
    pub max_depth: usize,
    /// Most groups per ALU clause.
    pub max_groups: usize,
    /// Generate geometry programs (EMIT / CUT and MEM_RING writes) instead of vertex and
    /// pixel programs.
    pub geometry: bool,
    /// Generate VTX and TEX fetch clauses (off: programs for translators that do not cover
    /// fetches yet, such as the synthetic dumps of [`crate::dump`]).
    pub fetches: bool,
    /// The stage of a non-geometry program; `None` picks vertex or pixel at random.
    pub stage: Option<Stage>,
}

impl Default for Config {
    fn default() -> Self {
        Config { max_nodes: 24, max_depth: 3, max_groups: 6, geometry: false, fetches: true, stage: None }
    }
}

/// A generated program and what running it needs besides random data.
#[derive(Clone, Debug)]
pub struct SmithProgram {
    /// The program.
    pub program: Program,
    /// The stage it is written for (its exports follow it).
    pub stage: Stage,
    /// SQ_LOOP_CONST values of its DX9 loops (COUNT at most 3): part of the program, as they
    /// bound its trip counts.
    pub loop_consts: BTreeMap<u8, u32>,
}

pub(crate) struct Gen<'a, 'b> {
    pub u: &'a mut Unstructured<'b>,
    pub cfg: Config,
    pub stage: Stage,
    budget: usize,
    loop_depth: usize,
    dx9_depth: usize,
}

/// Deterministic pseudo-random bytes (xorshift64) from `seed`: the data [`program`],
/// [`inputs`] and [`invocations`] draw from, so that a seed names one program and its inputs.
///
/// ```
/// assert_eq!(latte::smith::seeded_bytes(7, 16), latte::smith::seeded_bytes(7, 16));
/// ```
pub fn seeded_bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// A random program.
///
/// # Errors
/// Only the errors `arbitrary` reports for `u` (running out of data is not one: the program
/// is then simply short).
pub fn program(u: &mut Unstructured<'_>, cfg: &Config) -> Result<SmithProgram> {
    let stage = if cfg.geometry {
        Stage::Geometry
    } else if let Some(s) = cfg.stage {
        s
    } else if u.arbitrary()? {
        Stage::Pixel
    } else {
        Stage::Vertex
    };
    let mut g = Gen { u, cfg: cfg.clone(), stage, budget: cfg.max_nodes.max(1), loop_depth: 0, dx9_depth: 0 };
    let nodes = g.nodes(0, false)?;
    let done = g.export(true)?;
    let mut loop_consts = BTreeMap::new();
    for k in 0..4u8 {
        let count = g.u.int_in_range(0..=3u32)?;
        let init = g.u.int_in_range(0..=3u32)?;
        let inc = g.u.int_in_range(0..=1u32)?;
        loop_consts.insert(k, count | init << 12 | inc << 24);
    }
    Ok(SmithProgram { program: flow::lay_out(&nodes, done), stage, loop_consts })
}

impl Gen<'_, '_> {
    fn nodes(&mut self, depth: usize, in_loop: bool) -> Result<Vec<Node>> {
        let n = self.u.int_in_range(1..=4usize)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            out.push(self.node(depth, in_loop)?);
        }
        Ok(out)
    }

    fn node(&mut self, depth: usize, in_loop: bool) -> Result<Node> {
        let nest = depth < self.cfg.max_depth.min(4);
        Ok(match self.u.int_in_range(0..=13u8)? {
            7 if nest => {
                let cond = Box::new(self.alu_node(true)?);
                let then = self.nodes(depth + 1, in_loop)?;
                let els = if self.u.arbitrary()? { Some(self.nodes(depth + 1, in_loop)?) } else { None };
                Node::If { cond, then, els, pop_after: self.u.arbitrary()? }
            }
            8 if nest => {
                let p = CfNormal {
                    cond: *self.u.choose(&[2u8, 3])?,
                    cf_const: self.u.int_in_range(0..=31)?,
                    ..normal(0x0B)
                };
                Node::PushBool(p, self.nodes(depth + 1, in_loop)?)
            }
            9 if nest && self.loop_depth < 4 => {
                let counter = COUNTER_BASE + self.loop_depth as u8;
                let trips = self.u.int_in_range(1..=4u32)?;
                let reset = Box::new(Node::Alu(self.cf_alu(8)?, vec![alu::counter_reset(counter)]));
                let count = Box::new(Node::Alu(self.cf_alu(14)?, alu::counter_groups(counter, trips)));
                self.loop_depth += 1;
                let body = self.nodes(depth + 1, true)?;
                self.loop_depth -= 1;
                Node::Loop10 { reset, counter: count, body }
            }
            10 if nest => {
                let op = *self.u.choose(&[0x04u8, 0x07])?;
                let cf_const = self.u.int_in_range(0..=3)?;
                self.dx9_depth += 1;
                let body = self.nodes(depth + 1, true)?;
                self.dx9_depth -= 1;
                Node::Loop9 { op, cf_const, body }
            }
            11 if in_loop => {
                let p = CfNormal {
                    cond: *self.u.choose(&[0u8, 0, 2, 3])?,
                    cf_const: self.u.int_in_range(0..=31)?,
                    ..normal(*self.u.choose(&[0x08u8, 0x09])?)
                };
                Node::LoopJump(p)
            }
            12 => {
                if self.cfg.geometry {
                    Node::Plain(normal(*self.u.choose(&[0x15u8, 0x16, 0x17])?))
                } else if self.stage == Stage::Pixel {
                    let p = CfNormal {
                        cond: *self.u.choose(&[0u8, 2, 3])?,
                        cf_const: self.u.int_in_range(0..=31)?,
                        ..normal(0x18)
                    };
                    Node::Plain(p)
                } else {
                    self.alu_node(false)?
                }
            }
            4 if self.cfg.fetches => self.vtx_node()?,
            5 if self.cfg.fetches => self.tex_node()?,
            6 => Node::Export(self.export(false)?),
            13 if in_loop => {
                // ALU_BREAK or ALU_CONTINUE on a random PRED_SET.
                let mut n = self.alu_node(true)?;
                if let Node::Alu(a, _) = &mut n {
                    a.op = *self.u.choose(&[13u8, 14])?;
                }
                n
            }
            _ => self.alu_node(false)?,
        })
    }

    fn cf_alu(&mut self, op: u8) -> Result<CfAlu> {
        let whole_quad_mode = self.stage == Stage::Pixel && self.u.ratio(1, 6)?;
        Ok(CfAlu { op, barrier: true, whole_quad_mode, ..CfAlu::default() })
    }

    /// An ALU clause; with `exec`, its last group is a PRED_SET with UPDATE_EXECUTE_MASK.
    fn alu_node(&mut self, exec: bool) -> Result<Node> {
        let mut a = self.cf_alu(8)?;
        let (k0, l0) = self.kcache()?;
        let (k1, l1) = if self.u.ratio(1, 3)? { self.kcache()? } else { (Kcache::default(), 0) };
        a.kcache = [k0, k1];
        let ctx = ClauseCtx { kc_lines: [l0, l1] };
        let n = self.u.int_in_range(1..=self.cfg.max_groups.max(1))?;
        let mut groups: Vec<AluGroup> = Vec::with_capacity(n + 1);
        for _ in 0..n {
            // MOVA groups hold only the MOVA, so no relative access shares a group with the
            // MOVA that feeds it (facts §1.11).
            groups.push(self.group(&ctx, true)?);
        }
        if exec {
            groups.push(self.exec_group(&ctx)?);
        }
        Ok(Node::Alu(a, groups))
    }

    fn dst_sel(&mut self) -> Result<[u8; 4]> {
        let mut s = [0u8; 4];
        for v in &mut s {
            *v = *self.u.choose(&[0u8, 1, 2, 3, 4, 5, 7])?;
        }
        Ok(s)
    }

    fn vtx_node(&mut self) -> Result<Node> {
        let n = self.u.int_in_range(1..=4usize)?;
        let mut f = Vec::with_capacity(n);
        for _ in 0..n {
            let semantic = self.u.ratio(1, 8)?;
            let v = VtxInst {
                op: semantic as u8,
                fetch_type: self.u.int_in_range(0..=2)?,
                buffer_id: *self.u.choose(&BUFFER_IDS)?,
                src_gpr: self.u.int_in_range(0..=DATA_REGS - 1)?,
                src_sel_x: self.u.int_in_range(0..=3)?,
                mega_fetch_count: self.u.int_in_range(0..=15)?,
                dst: if semantic { self.u.int_in_range(0..=15)? } else { self.u.int_in_range(1..=DATA_REGS - 1)? },
                dst_sel: self.dst_sel()?,
                use_const_fields: self.u.ratio(1, 8)?,
                data_format: *self.u.choose(&VTX_FORMATS)?,
                num_format: self.u.int_in_range(0..=2)?,
                format_comp: self.u.arbitrary()?,
                srf_mode: self.u.arbitrary()?,
                offset: 4 * self.u.int_in_range(0..=16u16)?,
                endian_swap: self.u.int_in_range(0..=2)?,
                const_buf_no_stride: self.u.ratio(1, 10)?,
                mega_fetch: self.u.arbitrary()?,
                ..VtxInst::default()
            };
            f.push(FetchInst::Vtx(v));
        }
        Ok(Node::Fetch(false, f))
    }

    fn tex_node(&mut self) -> Result<Node> {
        const OPS: [u8; 22] = [
            0x03, 0x04, 0x07, 0x08, 0x0B, 0x0C, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B,
            0x1C, 0x1D, 0x1E, 0x1F,
        ];
        let n = self.u.int_in_range(1..=4usize)?;
        let mut f = Vec::with_capacity(n);
        for _ in 0..n {
            let mut src_sel = [0u8; 4];
            for s in &mut src_sel {
                *s = *self.u.choose(&[0u8, 1, 2, 3, 4, 5])?;
            }
            let mut coord_type = [false; 4];
            for c in &mut coord_type {
                *c = self.u.ratio(3, 4)?;
            }
            let t = TexInst {
                op: *self.u.choose(&OPS)?,
                fetch_whole_quad: self.u.ratio(1, 8)?,
                resource_id: self.u.int_in_range(0..=TEXTURES - 1)?,
                src_gpr: self.u.int_in_range(0..=DATA_REGS - 1)?,
                dst_gpr: self.u.int_in_range(1..=DATA_REGS - 1)?,
                dst_sel: self.dst_sel()?,
                lod_bias: if self.u.ratio(1, 4)? { self.u.int_in_range(0..=127)? } else { 0 },
                coord_type,
                offset: [self.u.int_in_range(0..=31)?, self.u.int_in_range(0..=31)?, 0],
                sampler_id: self.u.int_in_range(0..=TEXTURES - 1)?,
                src_sel,
                ..TexInst::default()
            };
            f.push(FetchInst::Tex(t));
        }
        Ok(Node::Fetch(true, f))
    }

    /// An export of the stage's kind (EXPORT, or EXPORT_DONE when `done`), or a memory write.
    fn export(&mut self, done: bool) -> Result<CfExport> {
        let mem = !done && self.u.ratio(1, 4)?;
        let op: u8 = if mem {
            if self.cfg.geometry {
                0x26
            } else {
                *self.u.choose(&[0x20u8, 0x21])?
            }
        } else if done {
            0x28
        } else {
            0x27
        };
        let mut e = CfExport { op, barrier: true, ..CfExport::default() };
        e.rw_gpr = self.u.int_in_range(1..=DATA_REGS - 2)?;
        e.burst_count = self.u.int_in_range(0..=1)?;
        if mem {
            e.kind = self.u.int_in_range(0..=1)?;
            e.index_gpr = self.u.int_in_range(0..=DATA_REGS - 1)?;
            e.elem_size = 3;
            e.array_base = 4 * self.u.int_in_range(0..=7u16)?;
            e.set_comp_mask(self.u.int_in_range(1..=15u32)?);
            e.set_array_size(0xFFF);
        } else {
            let (kind, base) = match self.stage {
                Stage::Pixel => (0, if self.u.ratio(1, 6)? { 61 } else { self.u.int_in_range(0..=3)? }),
                _ if done || self.u.arbitrary()? => (1, 60 + if done { 0 } else { self.u.int_in_range(0..=2)? }),
                _ => (2, self.u.int_in_range(0..=7)?),
            };
            e.kind = kind;
            e.array_base = base;
            if base >= 61 && kind == 1 {
                e.burst_count = 0;
            }
            if base == 61 && kind == 0 {
                e.burst_count = 0;
            }
            let mut s = [0u8; 4];
            for v in &mut s {
                *v = *self.u.choose(&[0u8, 1, 2, 3, 4, 5, 7])?;
            }
            e.set_sels(s);
            e.valid_pixel_mode = self.stage == Stage::Pixel && self.u.ratio(1, 4)?;
        }
        Ok(e)
    }
}

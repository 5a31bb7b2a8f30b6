//! Fetch clauses (VTX, and TEX through the host's [`super::Textures`]) and exports / memory
//! writes (latte-semantics-facts.md §4, §5.1).

use super::cf::Machine;
use super::error::{invalid, unsupported, At, InterpError, Result};
use super::fetch::vtx_fetch;
use super::state::{Export, ExportKind, MemWrite, NUM_GPRS};
use super::tex::TexRequest;
use crate::isa::table::{self, ExpClass};
use crate::isa::{CfExport, FetchInst, TexInst, VtxInst};

const ONE: u32 = 0x3F80_0000;

impl Machine<'_> {
    fn gpr_rel(&self, gpr: u8, rel: bool, at: At) -> Result<usize> {
        let g = gpr as i64 + if rel { self.al as i64 } else { 0 };
        if (0..NUM_GPRS as i64).contains(&g) {
            Ok(g as usize)
        } else {
            invalid(at, format!("GPR {g} (relative to the loop index) outside R0-R127"))
        }
    }

    /// Runs the fetch clause of CF `cf` for the lanes in `run`, instruction by instruction
    /// (§4.1: a clause never reads what an earlier fetch of it wrote).
    pub(crate) fn run_fetch(&mut self, cf: usize, fetches: &[FetchInst], base: usize, run: &[bool]) -> Result<()> {
        let mut grads = vec![[[0u32; 4]; 2]; self.lanes.len()];
        for (i, fi) in fetches.iter().enumerate() {
            let at = At::Fetch { cf, fetch: base + i };
            self.step(at)?;
            match fi {
                FetchInst::Vtx(v) => {
                    for (l, &r) in run.iter().enumerate() {
                        if r {
                            self.vtx(l, v, at)?;
                        }
                    }
                }
                FetchInst::Tex(t) => self.tex(t, run, &mut grads, at)?,
            }
        }
        Ok(())
    }

    fn vtx(&mut self, l: usize, v: &VtxInst, at: At) -> Result<()> {
        let dst = match v.op {
            0 => self.gpr_rel(v.dst & 0x7F, v.dst & 0x80 != 0, at)?,
            1 => match self.inputs.vtx_semantic.iter().position(|&s| s == v.dst) {
                Some(k) if k + 1 < NUM_GPRS => k + 1,
                _ => return Ok(()),
            },
            op => return unsupported(at, format!("VTX opcode {op}")),
        };
        let src = self.gpr_rel(v.src_gpr, v.src_rel, at)?;
        let index = self.lanes[l].gpr[src][v.src_sel_x as usize & 3];
        let (vals, int) = vtx_fetch(self.inputs, v, index, at)?;
        self.write_sel(l, dst, v.dst_sel, vals, if int { 1 } else { ONE }, at)
    }

    fn write_sel(&mut self, l: usize, dst: usize, sel: [u8; 4], vals: [u32; 4], one: u32, at: At) -> Result<()> {
        let mut out = self.lanes[l].gpr[dst];
        for (c, &s) in sel.iter().enumerate() {
            out[c] = match s {
                0..=3 => vals[s as usize],
                4 => 0,
                5 => one,
                7 => continue,
                s => return unsupported(at, format!("destination selector {s}")),
            };
        }
        self.lanes[l].gpr[dst] = out;
        Ok(())
    }

    fn tex_src(&self, l: usize, t: &TexInst, at: At) -> Result<[u32; 4]> {
        let g = self.lanes[l].gpr[self.gpr_rel(t.src_gpr, t.src_rel, at)?];
        let mut s = [0u32; 4];
        for (c, &sel) in t.src_sel.iter().enumerate() {
            s[c] = match sel {
                0..=3 => g[sel as usize],
                5 => ONE,
                _ => 0,
            };
        }
        Ok(s)
    }

    fn tex(&mut self, t: &TexInst, run: &[bool], grads: &mut [[[u32; 4]; 2]], at: At) -> Result<()> {
        let n = self.lanes.len();
        let srcs: Vec<[u32; 4]> = (0..n).map(|l| self.tex_src(l, t, at)).collect::<Result<_>>()?;
        let dst = self.gpr_rel(t.dst_gpr, t.dst_rel, at)?;
        for l in 0..n {
            if !run[l] {
                continue;
            }
            let vals = match t.op {
                0x0B | 0x0C => {
                    grads[l][(t.op - 0x0B) as usize] = srcs[l];
                    continue;
                }
                0x07 | 0x08 => self.quad_gradient(&srcs, l, t.op == 0x07),
                _ => {
                    let Some(tx) = &self.inputs.textures else {
                        return Err(InterpError::Input {
                            at,
                            what: format!("{} but no textures were given", t.name()),
                        });
                    };
                    let sx = |v: u8| (((v & 0x1F) as i8) << 3) >> 3;
                    let req = TexRequest {
                        op: t.op,
                        name: t.name(),
                        resource: t.resource_id,
                        sampler: t.sampler_id,
                        src: srcs[l],
                        normalized: t.coord_type,
                        offset: [sx(t.offset[0]), sx(t.offset[1]), sx(t.offset[2])],
                        lod_bias: ((((t.lod_bias & 0x7F) as i8) << 1) >> 1) as f32 / 8.0,
                        // Implicit-LOD samples take the source's derivatives in the quad.
                        gradients: if matches!(t.op, 0x10 | 0x12 | 0x18 | 0x1A) {
                            [self.quad_gradient(&srcs, l, true), self.quad_gradient(&srcs, l, false)]
                        } else {
                            grads[l]
                        },
                    };
                    tx.fetch(&req).map_err(|what| InterpError::Input { at, what })?
                }
            };
            self.write_sel(l, dst, t.dst_sel, vals, ONE, at)?;
        }
        Ok(())
    }

    /// GET_GRADIENTS_H (`h`) / _V of lane `l`: differences inside its 2x2 quad (lanes TL, TR,
    /// BL, BR), right minus left / bottom minus top; 0 for lanes that are not in quads.
    fn quad_gradient(&self, srcs: &[[u32; 4]], l: usize, h: bool) -> [u32; 4] {
        if !self.quads || !srcs.len().is_multiple_of(4) {
            return [0; 4];
        }
        let q = l & !3;
        let (a, b) = if h {
            let row = q + (l & 2);
            (row, row + 1)
        } else {
            let col = q + (l & 1);
            (col, col + 2)
        };
        std::array::from_fn(|c| (f32::from_bits(srcs[b][c]) - f32::from_bits(srcs[a][c])).to_bits())
    }

    /// EXPORT / EXPORT_DONE and the MEM_* writes (§5.1, §4.5): each lane that runs exports
    /// GPR RW_GPR+i to ARRAY_BASE+i for i <= BURST_COUNT.
    pub(crate) fn export(&mut self, pc: usize, e: &CfExport) -> Result<()> {
        let at = At::Cf(pc);
        let Some(&(_, _, class)) = table::CF_EXP_OPS.iter().find(|o| o.0 == e.op) else {
            return unsupported(at, format!("export opcode EXP_0x{:02X}", e.op));
        };
        let run = self.run_mask(e.whole_quad_mode, e.valid_pixel_mode);
        for (l, &r) in run.iter().enumerate() {
            if !r {
                continue;
            }
            for i in 0..=e.burst_count as u16 {
                let g = self.gpr_rel(e.rw_gpr.wrapping_add(i as u8) & 0x7F, e.rw_rel, at)?;
                if e.rw_gpr as u16 + i >= NUM_GPRS as u16 {
                    return invalid(at, "burst runs past R127");
                }
                let src = self.lanes[l].gpr[g];
                match class {
                    ExpClass::Export => {
                        let mut value = [0u32; 4];
                        let mut mask = 0u8;
                        for (c, v) in value.iter_mut().enumerate() {
                            *v = match e.sel(c) {
                                s @ 0..=3 => src[s as usize],
                                4 => 0,
                                5 => ONE,
                                // Masked components read 0 (Cemu; decision on §6.7).
                                7 => continue,
                                s => return unsupported(at, format!("export selector {s}")),
                            };
                            mask |= 1 << c;
                        }
                        let kind = [ExportKind::Pixel, ExportKind::Pos, ExportKind::Param, ExportKind::Reserved]
                            [e.kind as usize & 3];
                        self.lanes[l].result.exports.push(Export { kind, index: e.array_base + i, value, mask });
                    }
                    ExpClass::Mem => {
                        let elem = e.elem_size as u32 + 1;
                        let ind = match e.kind {
                            0 => 0,
                            1 => {
                                let ig = self.gpr_rel(e.index_gpr, false, at)?;
                                self.lanes[l].gpr[ig][0]
                            }
                            k => return unsupported(at, format!("memory TYPE {k} (reads)")),
                        };
                        let addr =
                            (e.array_base as u32).wrapping_add(i as u32 * elem).wrapping_add(ind.wrapping_mul(elem));
                        self.lanes[l].result.mem_writes.push(MemWrite {
                            op: e.op,
                            addr,
                            comp_mask: e.comp_mask(),
                            index: (e.kind == 1).then_some(ind),
                            value: src,
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

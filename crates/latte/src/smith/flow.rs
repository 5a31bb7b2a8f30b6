//! The control-flow tree of a generated program and its layout into CF instructions and
//! clauses: nested ALU_PUSH_BEFORE / JUMP / ELSE / POP (or ALU_POP_AFTER) ifs, PUSH / POP on a
//! boolean constant, DX10 loops bounded by a counter clause, DX9 loops bounded by their loop
//! constant, LOOP_BREAK / LOOP_CONTINUE, ALU_BREAK / ALU_CONTINUE, KILL, fetches and exports.

use crate::isa::cf::ClauseKind;
use crate::isa::program::{AluGroup, Clause, ClauseBody};
use crate::isa::{CfAlu, CfExport, CfInst, CfNormal, FetchInst, Program};

/// One node of the tree.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// An ALU clause: ALU (8), ALU_CONTINUE (13) or ALU_BREAK (14).
    Alu(CfAlu, Vec<AluGroup>),
    /// A TEX (`tex`) or VTX fetch clause.
    Fetch(bool, Vec<FetchInst>),
    /// EXPORT or a memory write.
    Export(CfExport),
    /// KILL, EMIT_VERTEX, CUT_VERTEX.
    Plain(CfNormal),
    /// LOOP_BREAK / LOOP_CONTINUE (ADDR: the innermost LOOP_END).
    LoopJump(CfNormal),
    /// `ALU_PUSH_BEFORE cond; JUMP; then; [ELSE; else;] POP` (the POP merged into a last ALU
    /// clause as ALU_POP_AFTER when `pop_after`).
    If { cond: Box<Node>, then: Vec<Node>, els: Option<Vec<Node>>, pop_after: bool },
    /// `PUSH (COND on a boolean constant); body; POP`.
    PushBool(CfNormal, Vec<Node>),
    /// `MOV Rc, 0; LOOP_START_DX10; ALU_BREAK (counter); body; LOOP_END`.
    Loop10 { reset: Box<Node>, counter: Box<Node>, body: Vec<Node> },
    /// `LOOP_START / LOOP_START_NO_AL (loop constant); body; LOOP_END`.
    Loop9 { op: u8, cf_const: u8, body: Vec<Node> },
}

/// A plain CF instruction with opcode `op` (BARRIER set, as compilers write them).
pub(crate) fn normal(op: u8) -> CfNormal {
    CfNormal { op, barrier: true, ..CfNormal::default() }
}

#[derive(Default)]
struct Out {
    cf: Vec<CfInst>,
    bodies: Vec<Option<(ClauseKind, ClauseBody)>>,
    loops: Vec<Vec<usize>>,
}

impl Out {
    fn push(&mut self, i: CfInst, body: Option<(ClauseKind, ClauseBody)>) -> usize {
        self.cf.push(i);
        self.bodies.push(body);
        self.cf.len() - 1
    }

    fn patch(&mut self, at: usize, addr: usize, pop_count: u8) {
        if let CfInst::Normal(n) = &mut self.cf[at] {
            n.addr = addr as u32;
            n.pop_count = pop_count;
        }
    }

    fn node(&mut self, n: &Node, alu_op: Option<u8>) {
        match n {
            Node::Alu(a, g) => {
                let a = CfAlu { op: alu_op.unwrap_or(a.op), ..*a };
                self.push(CfInst::Alu(a), Some((ClauseKind::Alu, ClauseBody::Alu(g.clone()))));
            }
            Node::Fetch(tex, f) => {
                let (op, kind) = if *tex { (0x01, ClauseKind::Tex) } else { (0x02, ClauseKind::Vtx) };
                self.push(CfInst::Normal(normal(op)), Some((kind, ClauseBody::Fetch(f.clone()))));
            }
            Node::Export(e) => {
                self.push(CfInst::Export(*e), None);
            }
            Node::Plain(p) => {
                let at = self.cf.len();
                self.push(CfInst::Normal(CfNormal { addr: at as u32 + 1, ..*p }), None);
            }
            Node::LoopJump(p) => {
                let at = self.push(CfInst::Normal(*p), None);
                if let Some(l) = self.loops.last_mut() {
                    l.push(at);
                }
            }
            Node::If { cond, then, els, pop_after } => {
                self.node(cond, Some(9));
                let jump = self.push(CfInst::Normal(normal(0x0A)), None);
                match els {
                    None => {
                        self.body_then_pop(then, *pop_after);
                        let end = self.cf.len();
                        self.patch(jump, end, 1);
                    }
                    Some(els) => {
                        self.body(then);
                        let e = self.push(CfInst::Normal(normal(0x0D)), None);
                        self.patch(jump, e, 0);
                        self.body_then_pop(els, *pop_after);
                        let end = self.cf.len();
                        self.patch(e, end, 1);
                    }
                }
            }
            Node::PushBool(p, body) => {
                let at = self.push(CfInst::Normal(*p), None);
                self.body_then_pop(body, false);
                let end = self.cf.len();
                self.patch(at, end, 0);
            }
            Node::Loop10 { reset, counter, body } => {
                self.node(reset, None);
                self.lp(normal(0x06), Some(counter), body);
            }
            Node::Loop9 { op, cf_const, body } => {
                self.lp(CfNormal { cf_const: *cf_const, ..normal(*op) }, None, body);
            }
        }
    }

    fn lp(&mut self, start: CfNormal, counter: Option<&Node>, body: &[Node]) {
        let s = self.push(CfInst::Normal(start), None);
        self.loops.push(Vec::new());
        if let Some(c) = counter {
            self.node(c, None);
        }
        self.body(body);
        let e =
            self.push(CfInst::Normal(CfNormal { addr: s as u32 + 1, cf_const: start.cf_const, ..normal(0x05) }), None);
        self.patch(s, e + 1, 0);
        for j in self.loops.pop().unwrap_or_default() {
            self.patch(j, e, 0);
        }
    }

    fn body(&mut self, nodes: &[Node]) {
        for n in nodes {
            self.node(n, None);
        }
    }

    /// The nodes, then a POP: merged into the last node as ALU_POP_AFTER when it is a plain
    /// ALU clause and `merge` is set.
    fn body_then_pop(&mut self, nodes: &[Node], merge: bool) {
        match nodes.split_last() {
            Some((Node::Alu(a, _), rest)) if merge && a.op == 8 => {
                self.body(rest);
                self.node(&nodes[nodes.len() - 1], Some(10));
            }
            _ => {
                self.body(nodes);
                let at = self.cf.len();
                self.push(CfInst::Normal(CfNormal { addr: at as u32 + 1, pop_count: 1, ..normal(0x0E) }), None);
            }
        }
    }
}

/// Lays `nodes` and the final `done` export (END_OF_PROGRAM set) out as a program: CF
/// instructions first, then each clause in CF order (fetch clauses on even addresses).
pub(crate) fn lay_out(nodes: &[Node], mut done: CfExport) -> Program {
    let mut out = Out::default();
    out.body(nodes);
    done.end_of_program = true;
    out.push(CfInst::Export(done), None);
    let mut at = out.cf.len() as u32;
    let mut clauses = Vec::new();
    for (ci, b) in out.bodies.into_iter().enumerate() {
        let Some((kind, body)) = b else { continue };
        if kind != ClauseKind::Alu {
            at = at.div_ceil(2) * 2;
        }
        let (units, count) = match &body {
            ClauseBody::Alu(g) => {
                let u = g.iter().map(|g| g.insts.len() as u32 + g.literals.len() as u32 / 2).sum::<u32>();
                (u, u)
            }
            ClauseBody::Fetch(v) => (2 * v.len() as u32, v.len() as u32),
        };
        match &mut out.cf[ci] {
            CfInst::Alu(a) => {
                a.addr = at;
                a.count = (count - 1) as u8;
            }
            CfInst::Normal(n) => {
                n.addr = at;
                n.count = (count - 1) as u8;
            }
            CfInst::Export(_) => {}
        }
        clauses.push(Clause { cf_index: ci, kind, addr: at, body });
        at += units;
    }
    Program { cf: out.cf, clauses, len: 2 * at as usize, extra: Vec::new() }
}

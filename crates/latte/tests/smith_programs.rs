//! `latte::smith` programs: each assembles back from its disassembly to the same words,
//! decodes to itself, and runs on random inputs to its end without an error (no step-budget
//! stop: every loop is bounded). LATTE_SMITH_PROGRAMS sets the count (default 10,000, the full CI
//! run; measured on a 2-core machine shared with other builds: about 8 s in release).

use arbitrary::Unstructured;
use latte::interp::{Config, Vm};
use latte::isa::table::{alu_op2, alu_op3, AluClass};
use latte::isa::{AluKind, CfInst, Program};
use latte::smith::{inputs, invocations, program, seeded_bytes as bytes, Config as SmithConfig};
use std::collections::BTreeSet;

#[test]
fn smith_programs_round_trip_and_run_to_their_end() {
    let count = testkit::count("LATTE_SMITH_PROGRAMS", if testkit::quick() { 1_000 } else { 10_000 });
    let start = std::time::Instant::now();
    let (mut classes, mut cf_ops, mut alu_cf) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    let (mut invs_run, mut exports, mut killed, mut rel) = (0usize, 0usize, 0usize, 0usize);
    for seed in 0..count {
        let data = bytes(seed, 4096);
        let mut u = Unstructured::new(&data);
        let cfg = SmithConfig { geometry: seed % 10 == 9, ..SmithConfig::default() };
        let p = program(&mut u, &cfg).unwrap();
        let words = p.program.encode();
        let back = Program::decode(&words, 0).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(back, p.program, "seed {seed}: decode(encode(p)) != p");
        let text = latte::disasm::disassemble(&p.program);
        let a = latte::asm::assemble(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert_eq!(a.program.encode(), words, "seed {seed}: asm(disasm(p)) differs\n{text}");
        let inputs = inputs(&mut u, &p).unwrap();
        let invs = invocations(&mut u, &p, 4).unwrap();
        let r = Vm::new(&p.program)
            .run(p.stage, &inputs, &Config::default(), &invs)
            .unwrap_or_else(|e| panic!("seed {seed} ({:?}): {e}\n{text}", p.stage));
        invs_run += r.len();
        exports += r.iter().map(|x| x.exports.len() + x.mem_writes.len()).sum::<usize>();
        killed += r.iter().filter(|x| x.killed).count();
        for c in &p.program.cf {
            match c {
                CfInst::Normal(n) => cf_ops.insert(n.op),
                CfInst::Export(e) => cf_ops.insert(e.op),
                CfInst::Alu(a) => alu_cf.insert(a.op),
            };
        }
        for c in &p.program.clauses {
            if let latte::isa::program::ClauseBody::Alu(groups) = &c.body {
                for i in groups.iter().flat_map(|g| &g.insts) {
                    let info = match &i.kind {
                        AluKind::Op2(o) => alu_op2(o.op),
                        AluKind::Op3(o) => alu_op3(o.op),
                    };
                    if let Some(o) = info {
                        classes.insert(format!("{:?}", o.class));
                    }
                    rel += (i.src0.rel || i.src1.rel || i.dst_rel) as usize;
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{count} programs in {secs:.1} s: {invs_run} invocations, {exports} exports and memory writes, {killed} killed, {rel} relative accesses"
    );
    assert_eq!(invs_run as u64, 4 * count);
    if count >= 500 {
        let want = [
            AluClass::Plain,
            AluClass::Kill,
            AluClass::PredSet,
            AluClass::PredSetPush,
            AluClass::Mova,
            AluClass::Reduction,
            AluClass::Cube,
            AluClass::Nop,
        ];
        for c in want {
            assert!(classes.contains(&format!("{c:?}")), "class {c:?} never generated");
        }
        // JUMP, PUSH, ELSE, POP, the loops, LOOP_END, break, continue, KILL, TEX, VTX, EMIT,
        // CUT, EXPORT, EXPORT_DONE, MEM_STREAM, MEM_RING.
        for op in [
            0x01u8, 0x02, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0D, 0x0E, 0x15, 0x17, 0x18, 0x20, 0x26,
            0x27, 0x28,
        ] {
            assert!(cf_ops.contains(&op), "CF opcode {op:#x} never generated");
        }
        for op in [8u8, 9, 10, 13, 14] {
            assert!(alu_cf.contains(&op), "CF_ALU opcode {op} never generated");
        }
        assert!(killed > 0 && rel > 0 && exports > invs_run);
    }
}

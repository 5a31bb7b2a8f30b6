//! Decode -> encode is the identity on every corpus program, and the decoder agrees with Mesa's
//! own listings of the latte-mesa programs (mnemonics and ALU slots).

mod common;
use common::{corpus, corpus_programs, walk};
use latte::isa::program::ClauseBody;
use latte::isa::{FetchInst, Program};
use std::collections::HashMap;
use std::path::PathBuf;

#[test]
fn decode_encode_identity_on_corpus() {
    let progs = corpus_programs();
    assert!(progs.len() > 150, "{}", progs.len());
    let mut words = 0;
    for (name, bytes) in &progs {
        let p = Program::decode_bytes(bytes, 0).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.to_bytes(), *bytes, "{name}");
        assert!(p.cf.last().is_some_and(|c| c.end_of_program()), "{name}: no END_OF_PROGRAM");
        // Words outside every instruction are kept (the rust-wiiu gfd/ files have 4 stray words after
        // their last ALU clause); only those files have any.
        if !p.extra.is_empty() {
            assert!(name.contains("latte/gfd/"), "{name}: {:?}", p.extra);
        }
        words += bytes.len() / 4;
    }
    assert!(words > 10_000, "{words}");
}

fn mesa_name(n: &str) -> &str {
    // Mesa appends _sat to an op with CLAMP set.
    let n = n.strip_suffix("_sat").unwrap_or(n);
    if n == "ALU_NOP" {
        return "NOP";
    }
    n
}

/// Names the decoder gives each word index: CF, ALU (with slot letter) and fetch instructions.
fn names(p: &Program) -> HashMap<usize, String> {
    let mut m = HashMap::new();
    use latte::isa::names::mesa_mnemonic;
    for (i, c) in p.cf.iter().enumerate() {
        m.insert(2 * i, mesa_mnemonic(&c.name()).to_string());
    }
    for cl in &p.clauses {
        let mut w = 2 * cl.addr as usize;
        match &cl.body {
            ClauseBody::Alu(groups) => {
                for g in groups {
                    for (k, inst) in g.insts.iter().enumerate() {
                        let slot = g.slots.as_ref().map_or('?', |s| b"xyzwt"[s[k] as usize] as char);
                        m.insert(w, format!("{slot}:{}", inst.name()));
                        w += 2;
                    }
                    w += g.literals.len();
                }
            }
            ClauseBody::Fetch(v) => {
                for f in v {
                    let n = match f {
                        FetchInst::Tex(t) => mesa_mnemonic(t.name()).to_string(),
                        FetchInst::Vtx(v) if v.op == 0 => "VFETCH".to_string(),
                        FetchInst::Vtx(v) => v.name(),
                    };
                    m.insert(w, n);
                    w += 4;
                }
            }
        }
    }
    m
}

#[test]
fn decoder_agrees_with_mesa_listings() {
    let mut listings = Vec::new();
    walk(&corpus().join("latte-mesa/programs"), "txt", &mut listings);
    assert!(listings.len() >= 60, "{}", listings.len());
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for l in &listings {
        let bin = PathBuf::from(l.to_string_lossy().replace(".disasm.txt", ".bin"));
        let p = Program::decode_bytes(&std::fs::read(&bin).unwrap(), 0).unwrap();
        let ours = names(&p);
        for line in std::fs::read_to_string(l).unwrap().lines() {
            let t = line.trim_start();
            let mut it = t.split_whitespace();
            let (Some(idx), Some(w0), Some(w1)) = (it.next(), it.next(), it.next()) else { continue };
            if idx.len() != 4 || w0.len() != 8 || w1.len() != 8 || !idx.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            if u32::from_str_radix(w1, 16).is_err() {
                continue;
            }
            let idx: usize = idx.parse().unwrap();
            let rest: Vec<&str> = it.collect();
            let cf_line = !line.starts_with(' ');
            let expect = if cf_line {
                mesa_name(rest[0]).to_string()
            } else if rest.first().is_some_and(|r| r.len() == 8 && u32::from_str_radix(r, 16).is_ok()) {
                mesa_name(rest[1]).to_string() // fetch: a third hex word
            } else {
                // ALU: optional group number, "x:FLAGS", op.
                let mut r = rest.iter();
                let mut s = *r.next().unwrap();
                if s.bytes().all(|b| b.is_ascii_digit()) {
                    s = r.next().unwrap();
                }
                let slot = &s[..1];
                // The op follows the slot token ("z:M" carries its flags along).
                let op = r.next().unwrap();
                format!("{slot}:{}", mesa_name(op))
            };
            let got = ours.get(&idx).cloned().unwrap_or_default();
            if got != expect {
                mismatches.push(format!("{}:{idx}: mesa {expect} ours {got}", l.display()));
            }
            checked += 1;
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {checked} differ:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(30)].join("\n")
    );
    assert!(checked > 3000, "{checked}");
}

/// CF addresses, clause counts and POP counts, and ALU destinations, as Mesa prints them:
/// `@N` is the dword address (2 × ADDR), the number after a clause name is its count, `POP:n`
/// the pop count; ALU destinations `R4.z`, `T0.x` (R124-R127), `__.z` (no write), `R[3+AR].x`.
#[test]
fn fields_agree_with_mesa_listings() {
    let mut listings = Vec::new();
    walk(&corpus().join("latte-mesa/programs"), "txt", &mut listings);
    let (mut checked, mut bad) = (0, Vec::new());
    for l in &listings {
        let bin = PathBuf::from(l.to_string_lossy().replace(".disasm.txt", ".bin"));
        let p = Program::decode_bytes(&std::fs::read(&bin).unwrap(), 0).unwrap();
        let mut alu_at: HashMap<usize, latte::isa::AluInst> = HashMap::new();
        for cl in &p.clauses {
            if let ClauseBody::Alu(groups) = &cl.body {
                let mut w = 2 * cl.addr as usize;
                for g in groups {
                    for i in &g.insts {
                        alu_at.insert(w, *i);
                        w += 2;
                    }
                    w += g.literals.len();
                }
            }
        }
        for line in std::fs::read_to_string(l).unwrap().lines() {
            let toks: Vec<&str> = line.split_whitespace().collect();
            if toks.len() < 4
                || toks[0].len() != 4
                || !toks[0].bytes().all(|b| b.is_ascii_digit())
                || toks[1].len() != 8
            {
                continue;
            }
            let idx: usize = toks[0].parse().unwrap();
            if !line.starts_with(' ') {
                let c = &p.cf[idx / 2];
                for t in &toks[4..] {
                    if let Some(a) = t.strip_prefix('@') {
                        let want: u32 = a.parse().unwrap();
                        let got = match c {
                            latte::isa::CfInst::Alu(a) => a.addr,
                            latte::isa::CfInst::Normal(n) => n.addr,
                            latte::isa::CfInst::Export(_) => continue,
                        };
                        checked += 1;
                        if 2 * got != want {
                            bad.push(format!("{}:{idx} @{want} vs ADDR {got}", l.display()));
                        }
                    }
                    if let Some(n) = t.strip_prefix("POP:") {
                        checked += 1;
                        if let latte::isa::CfInst::Normal(x) = c {
                            if x.pop_count.to_string() != n {
                                bad.push(format!("{}:{idx} POP:{n} vs {}", l.display(), x.pop_count));
                            }
                        }
                    }
                }
                if let (Some((_, _, n)), Some(t)) = (c.clause(), toks.get(4)) {
                    if let Ok(k) = t.parse::<u32>() {
                        checked += 1;
                        if k != n {
                            bad.push(format!("{}:{idx} count {k} vs {n}", l.display()));
                        }
                    }
                }
            } else if let Some(i) = alu_at.get(&idx) {
                // "[group] x:FLAGS OP dst, ..." — the destination is the token after the op.
                let pos = toks
                    .iter()
                    .position(|t| t.len() >= 2 && t.as_bytes()[1] == b':' && b"xyzwt".contains(&t.as_bytes()[0]))
                    .unwrap();
                let dst = toks[pos + 2].trim_end_matches(',');
                let c = b"xyzw"[i.dst_chan as usize] as char;
                let want = if !i.writes_gpr() {
                    format!("__.{c}")
                } else if i.dst_rel {
                    format!("R[{}+AR].{c}", i.dst_gpr)
                } else if i.dst_gpr >= 124 {
                    format!("T{}.{c}", i.dst_gpr - 124)
                } else {
                    format!("R{}.{c}", i.dst_gpr)
                };
                checked += 1;
                if dst != want {
                    bad.push(format!("{}:{idx} dst {dst} vs {want}", l.display()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{} of {checked}:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
    assert!(checked > 3500, "{checked}");
}
